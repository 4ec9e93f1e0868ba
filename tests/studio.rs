//! The tuning studio, headless: watched files reach the running game (and a broken one is
//! reported while the last good values stay), the theme editor's changes reach the cards'
//! materials, the tuner's values reach the tweens, samples leave the game as it was, and a
//! saved theme is there after a restart.
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use arachne::cards::body::CardSides;
use arachne::cards::samples::{PlaySample, SampleKind};
use arachne::core::live::{FileProblems, LiveFiles};
use arachne::core::persist::{DirStorage, Saves};
use arachne::core::settings::{DEFAULT_SETTINGS, Easing, Settings};
use arachne::core::theme::{BUILTIN_THEMES, Theme, ThemeDraft, ThemeOrigin, Themes};
use arachne::logic_plugin;
use arachne::shell::studio::{edited_theme, import_theme, save_theme_as};
use arachne::spider::table::{GameSpec, Request, Table};
use arachne_engine::{Move, Numbering};
use bevy::input::InputPlugin;
use bevy::prelude::*;
use bevy::state::app::StatesPlugin;
use bevy::time::TimeUpdateStrategy;
use bevy_tweening::TweenAnim;

mod common;
use common::{animating, assert_matches_engine};

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("arachne-studio-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("themes")).unwrap();
    dir
}

/// Spider with its card art (meshes and materials, no renderer).
fn app(seed: u64) -> App {
    let table =
        Table::new(GameSpec::builtin("spider-2suit", seed, Numbering::Arachne).unwrap()).unwrap();
    let mut app = App::new();
    app.add_plugins((
        MinimalPlugins,
        StatesPlugin,
        InputPlugin,
        AssetPlugin::default(),
    ))
    .init_asset::<Mesh>()
    .init_asset::<ColorMaterial>()
    .init_resource::<ClearColor>()
    .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_millis(
        16,
    )))
    .insert_resource(table)
    .add_message::<AppExit>();
    logic_plugin(&mut app);
    arachne::spider::faces::plugin(&mut app);
    app.update();
    app
}

fn run_to_rest(app: &mut App) {
    for _ in 0..5000 {
        app.update();
        if animating(app) == 0 {
            app.update();
            return;
        }
    }
    panic!("the table never came to rest");
}

fn colour(hex: &str) -> Color {
    Srgba::hex(hex).unwrap().into()
}

/// Changes the watched files and lets the game look at them.
fn look(app: &mut App) {
    app.world_mut().resource_mut::<LiveFiles>().look_now();
    app.update();
    app.update();
}

fn problems(app: &App) -> Vec<String> {
    app.world()
        .resource::<FileProblems>()
        .0
        .values()
        .cloned()
        .collect()
}

#[test]
fn edited_theme_and_settings_files_reach_the_running_game_and_a_broken_one_is_reported() {
    let dir = temp_dir("live");
    let classic = BUILTIN_THEMES[0].1;
    std::fs::write(dir.join("settings.ron"), DEFAULT_SETTINGS).unwrap();
    std::fs::write(dir.join("themes/classic.ron"), classic).unwrap();
    let mut app = app(3);
    app.insert_resource(LiveFiles::new(&dir));
    look(&mut app);
    let classic_path = dir.join("themes/classic.ron").display().to_string();
    assert_eq!(
        app.world()
            .resource::<Themes>()
            .get("classic")
            .unwrap()
            .origin,
        ThemeOrigin::File(classic_path.clone())
    );
    assert!(problems(&app).is_empty());

    // The table's colour, changed in the file, is the table's colour.
    std::fs::write(
        dir.join("themes/classic.ron"),
        classic.replace("#1c6b3c", "#203040"),
    )
    .unwrap();
    look(&mut app);
    assert_eq!(app.world().resource::<Theme>().table, colour("#203040"));
    assert_eq!(app.world().resource::<ClearColor>().0, colour("#203040"));

    // A broken file: the error names the file, line and field; the last good values stay.
    let broken = classic
        .replace("#1c6b3c", "#ffffff")
        .replace("corner_radius: 0.08", "corner_radius: \"round\"");
    std::fs::write(dir.join("themes/classic.ron"), &broken).unwrap();
    look(&mut app);
    let line = broken
        .lines()
        .position(|l| l.trim_start().starts_with("corner_radius:"))
        .unwrap()
        + 1;
    let p = problems(&app);
    assert_eq!(p.len(), 1, "{p:?}");
    assert!(
        p[0].starts_with(&format!("{classic_path}:{line}:")),
        "{p:?}"
    );
    assert!(p[0].contains("field `corner_radius`"), "{p:?}");
    assert_eq!(app.world().resource::<Theme>().table, colour("#203040"));
    // Fixed: the message goes and the new values apply.
    std::fs::write(
        dir.join("themes/classic.ron"),
        classic.replace("#1c6b3c", "#405060"),
    )
    .unwrap();
    look(&mut app);
    assert!(problems(&app).is_empty());
    assert_eq!(app.world().resource::<Theme>().table, colour("#405060"));

    // A new theme file joins the list.
    std::fs::write(
        dir.join("themes/sea.ron"),
        classic.replace("\"Classic\"", "\"Sea\""),
    )
    .unwrap();
    look(&mut app);
    assert_eq!(
        app.world()
            .resource::<Themes>()
            .get("sea")
            .unwrap()
            .theme
            .name,
        "Sea"
    );

    // The settings file: a new duration is the game's at once, a bad one is reported.
    std::fs::write(
        dir.join("settings.ron"),
        DEFAULT_SETTINGS.replace("move_ms: 220", "move_ms: 480"),
    )
    .unwrap();
    look(&mut app);
    assert_eq!(app.world().resource::<Settings>().animation.move_ms, 480);
    // Only what the file changed: a theme chosen in the game and a value set in the tuner stand.
    {
        let mut s = app.world_mut().resource_mut::<Settings>();
        s.theme = "midnight".into();
        s.animation.flip_ms = 333;
    }
    std::fs::write(
        dir.join("settings.ron"),
        DEFAULT_SETTINGS
            .replace("move_ms: 220", "move_ms: 480")
            .replace("deal_ms: 260", "deal_ms: 300"),
    )
    .unwrap();
    look(&mut app);
    let s = app.world().resource::<Settings>();
    assert_eq!(
        (
            s.theme.as_str(),
            s.animation.flip_ms,
            s.animation.move_ms,
            s.animation.deal_ms
        ),
        ("midnight", 333, 480, 300)
    );
    let bad = DEFAULT_SETTINGS
        .replace("move_ms: 220", "move_ms: -3")
        .replace("deal_ms: 260", "deal_ms: 300");
    std::fs::write(dir.join("settings.ron"), &bad).unwrap();
    look(&mut app);
    let line = bad
        .lines()
        .position(|l| l.trim_start().starts_with("move_ms:"))
        .unwrap()
        + 1;
    let p = problems(&app);
    assert_eq!(p.len(), 1, "{p:?}");
    assert!(p[0].contains(&format!("settings.ron:{line}:")), "{p:?}");
    assert!(p[0].contains("field `move_ms`"), "{p:?}");
    assert_eq!(app.world().resource::<Settings>().animation.move_ms, 480);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The material colour of the back's field of card `e`.
fn back_colour(app: &mut App, e: Entity) -> (Entity, Color) {
    let world = app.world_mut();
    let back = world.get::<CardSides>(e).expect("a dressed card").back;
    let children: Vec<Entity> = world.get::<Children>(back).unwrap().iter().collect();
    // Border, field, pattern: the field is the second part.
    let handle = world
        .get::<MeshMaterial2d<ColorMaterial>>(children[1])
        .unwrap()
        .0
        .clone();
    let c = world
        .resource::<Assets<ColorMaterial>>()
        .get(&handle)
        .unwrap()
        .color;
    (back, c)
}

#[test]
fn the_editors_changes_reach_the_cards_materials_and_the_tuners_the_tweens() {
    let mut app = app(5);
    run_to_rest(&mut app);
    let card = app
        .world()
        .resource::<arachne::spider::piles::Piles>()
        .columns[0][0];
    let (back, c) = back_colour(&mut app, card);
    assert_eq!(c, Theme::default().back);

    // A colour changed in the editor (its draft) recolours the card's material in place.
    let mut draft = {
        let w = app.world();
        edited_theme(
            w.resource::<ThemeDraft>(),
            w.resource::<Themes>(),
            w.resource::<Settings>(),
        )
    };
    draft.back = colour("#7a1f5c");
    app.world_mut().resource_mut::<ThemeDraft>().0 = Some(draft.clone());
    app.update();
    let (same_back, c) = back_colour(&mut app, card);
    assert_eq!(same_back, back, "colours alone keep the card's entities");
    assert_eq!(c, colour("#7a1f5c"));
    // A new corner radius remakes the art; the new back has the edited colour too.
    draft.corner_radius = 0.2;
    app.world_mut().resource_mut::<ThemeDraft>().0 = Some(draft);
    app.update();
    app.update();
    let (new_back, c) = back_colour(&mut app, card);
    assert_ne!(new_back, back);
    assert_eq!(c, colour("#7a1f5c"));
    // Revert: the theme's own colour again.
    app.world_mut().resource_mut::<ThemeDraft>().0 = None;
    app.update();
    app.update();
    assert_eq!(back_colour(&mut app, card).1, Theme::default().back);

    // The tuner's move duration and curve are the next move's.
    {
        let mut s = app.world_mut().resource_mut::<Settings>();
        s.animation.move_ms = 900;
        s.animation.easings.moves = Some(Easing::Linear);
    }
    let mv = app
        .world()
        .resource::<Table>()
        .game
        .legal_moves()
        .into_iter()
        .find(|m| matches!(m, Move::Transfer { count: 1, .. }))
        .expect("a one-card move");
    let Move::Transfer { from, .. } = mv else {
        unreachable!()
    };
    let moving = *app
        .world()
        .resource::<arachne::spider::piles::Piles>()
        .columns[from as usize]
        .last()
        .unwrap();
    app.world_mut().write_message(Request::Move(mv));
    app.update();
    let total = app
        .world()
        .get::<TweenAnim>(moving)
        .expect("the moved card glides")
        .tweenable()
        .total_duration()
        .as_finite()
        .unwrap();
    assert!(
        (0.9..0.95).contains(&total.as_secs_f32()),
        "{total:?} for a 900 ms move"
    );
    run_to_rest(&mut app);
    assert_matches_engine(&mut app);

    // Every sample, slowed down, leaves the game and the table as they were.
    let before = app.world().resource::<Table>().game.position().clone();
    for kind in SampleKind::SPIDER {
        app.world_mut()
            .write_message(PlaySample { kind, slow: 2.0 });
        app.update();
        assert!(animating(&mut app) > 0, "{kind:?} moves cards");
        run_to_rest(&mut app);
        assert_matches_engine(&mut app);
    }
    assert_eq!(*app.world().resource::<Table>().game.position(), before);
}

#[test]
fn a_theme_saved_in_the_editor_is_there_after_a_restart_and_export_imports_back() {
    let dir = temp_dir("saved");
    let saves = Saves(Arc::new(DirStorage::new(&dir)));
    let mut themes = Themes::default();
    let mut settings = Settings::default();
    let mut theme = Theme::builtin("midnight").unwrap();
    theme.face = colour("#fff4d6");
    let message = save_theme_as(
        "Night Reading",
        theme.clone(),
        &mut themes,
        &mut settings,
        Some(&saves),
    )
    .unwrap();
    assert!(message.contains("Night Reading"), "{message}");
    assert_eq!(settings.theme, "night-reading");
    assert!(dir.join("theme-night-reading.ron").is_file());
    arachne::core::persist::save(saves.0.as_ref(), "settings", &settings).unwrap();

    // A restart, as `main` makes it: the settings, then the themes.
    let storage = DirStorage::new(&dir);
    let (settings, message) =
        arachne::core::persist::load::<Settings>(&storage, "settings").or_default();
    assert_eq!(message, None);
    let mut themes = Themes::default();
    assert!(themes.load_saved(&storage).is_empty());
    let shown = themes.chosen(&settings.theme, &settings.cards);
    assert_eq!(shown.face, colour("#fff4d6"));
    assert_eq!(shown.name, "Night Reading");
    assert_eq!(shown.back, theme.back);

    // Export's text imports to the same theme; bad text is refused with its line and field.
    let imported = import_theme(&shown.to_ron()).unwrap();
    assert_eq!(
        Theme {
            id: shown.id.clone(),
            ..imported
        },
        shown
    );
    let bad = shown.to_ron().replace("#fff4d6", "cream");
    let e = import_theme(&bad).unwrap_err();
    assert!(e.contains("field `face`"), "{e}");
    assert!(save_theme_as("  ", shown, &mut themes, &mut Settings::default(), None).is_err());
    let _ = std::fs::remove_dir_all(&dir);
}
