//! Arachne, the game: Bevy plugins that show the engine's table and animate its events.
//!
//! Data flows one way: input -> [`spider::table::Request`] -> the engine ->
//! [`spider::table::TableChanged`]
//! (the engine's events) -> tweens and sound cues -> at rest, the table matches the engine.
// Bevy systems take their resources and queries as arguments; long lists are the norm there.
#![allow(clippy::too_many_arguments, clippy::type_complexity)]
use bevy::prelude::*;

pub mod audio;
// `--capture` saves a PNG file: the desktop's (a link cannot ask for it).
#[cfg(not(target_arch = "wasm32"))]
pub mod capture;
pub mod cards;
pub mod cli;
pub mod core;
pub mod phase10;
pub mod shell;
pub mod spider;
#[cfg(target_arch = "wasm32")]
pub mod web;

/// The order of the game's systems in `Update`.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AppSystems {
    /// Pointer and keyboard turn into requests.
    Input,
    /// Requests go to the engine.
    Apply,
    /// Engine events become tweens and sound cues.
    Plan,
    /// Shared motion and sound follow the plans: shakes, the end of a celebration, cues.
    Motion,
}

/// Which game is on the table. Each game's systems run only in its state and its entities
/// despawn on leaving it; its resources stay, so switching back resumes the game.
#[derive(States, Default, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameKind {
    /// The Spider family.
    #[default]
    Spider,
    /// Pro Spider 10, the rummy game.
    ProSpider10,
}

/// Everything but drawing and sound: the table, its events, motion and input. Headless tests
/// and benchmarks use this with `MinimalPlugins`.
pub fn logic_plugin(app: &mut App) {
    // `MinimalPlugins` (headless tests) has no states; `DefaultPlugins` has.
    if !app.is_plugin_added::<bevy::state::app::StatesPlugin>() {
        app.add_plugins(bevy::state::app::StatesPlugin);
    }
    if !app.world().contains_resource::<State<GameKind>>() {
        app.init_state::<GameKind>();
    }
    app.add_plugins(bevy_tweening::TweeningPlugin)
        .init_resource::<core::settings::Settings>()
        .configure_sets(
            Update,
            (
                AppSystems::Input,
                AppSystems::Apply,
                AppSystems::Plan,
                AppSystems::Motion,
            )
                .chain()
                .before(bevy_tweening::AnimationSystem::AnimationUpdate),
        )
        .add_plugins((
            core::focus::plugin,
            core::keys::plugin,
            core::persist::plugin,
            core::live::plugin,
            audio::cues::plugin,
            cards::motion::plugin,
            cards::pointer::plugin,
            spider::logic_plugin,
            phase10::logic_plugin,
        ));
    app.add_systems(Startup, wall_clock_motion);
    // The settings name the theme and the player's card choices; the theme follows them live.
    app.init_resource::<core::theme::Themes>()
        .init_resource::<core::theme::ThemeDraft>();
    let world = app.world();
    let settings = world.resource::<core::settings::Settings>();
    let theme = world
        .resource::<core::theme::Themes>()
        .chosen(&settings.theme, &settings.cards);
    app.insert_resource(theme)
        .add_systems(Update, follow_settings.before(AppSystems::Input));
}

/// The most the game's clock advances in one frame. Bevy's default is 250 ms, made for physics;
/// on slow frames (a browser drawing in software runs at about three frames a second) that
/// stretched every animation: at ~330 ms a frame the first deal, 1.6 s of motion, took over
/// 2 s of wall time. Cards now keep to the wall clock up to this step; a longer stall (a hidden tab)
/// counts as one step, so motion that was under way simply finishes.
pub const MAX_FRAME_STEP: std::time::Duration = std::time::Duration::from_secs(1);

fn wall_clock_motion(mut time: ResMut<Time<Virtual>>) {
    time.set_max_delta(MAX_FRAME_STEP);
}

/// The theme shown follows the settings, the list of themes (a theme file edited, a theme
/// saved) and the theme editor's draft.
fn follow_settings(
    settings: Res<core::settings::Settings>,
    themes: Res<core::theme::Themes>,
    mut draft: ResMut<core::theme::ThemeDraft>,
    mut theme: ResMut<core::theme::Theme>,
    mut chosen: Local<Option<String>>,
) {
    if settings.is_changed() {
        core::i18n::set_lang(settings.lang());
        // Another theme chosen (in the settings window, the settings file, a save as): the
        // theme editor's unsaved changes belonged to the old one.
        if chosen.as_deref() != Some(settings.theme.as_str()) {
            if chosen.is_some() && draft.0.is_some() {
                draft.0 = None;
            }
            *chosen = Some(settings.theme.clone());
        }
    }
    if settings.is_changed() || themes.is_changed() || draft.is_changed() {
        let shown = match &draft.0 {
            Some(d) => d.clone().with_cards(&settings.cards),
            None => themes.chosen(&settings.theme, &settings.cards),
        };
        theme.set_if_neq(shown);
    }
}

/// The whole game: logic, drawing, and (unless `sound` is false) audio.
pub fn game_plugin(app: &mut App, sound: bool) {
    logic_plugin(app);
    app.add_plugins((
        cards::body::plugin,
        shell::plugin,
        spider::render_plugin,
        phase10::render_plugin,
    ));
    if sound {
        app.add_plugins(audio::plugin);
    }
}
