//! Arachne, the game.
#[cfg(not(target_arch = "wasm32"))]
use arachne::capture;
use arachne::{cli, game_plugin};
use bevy::prelude::*;

fn main() -> AppExit {
    #[cfg(target_arch = "wasm32")]
    arachne::web::log_to_console();
    #[cfg(not(target_arch = "wasm32"))]
    let args = match arachne_engine::arguments() {
        Ok(args) => args,
        Err(e) => {
            eprintln!("{e}");
            return AppExit::from_code(2);
        }
    };
    // In the browser, a link's query string chooses the game (`?game=pro-spider-10&players=3`).
    #[cfg(target_arch = "wasm32")]
    let (link_args, ignored_link_keys) = arachne::web::args_from_page();
    // A link whose option could not be read opens the default game and says why, as a link
    // with a bad option does.
    #[cfg(target_arch = "wasm32")]
    let (args, unreadable_link) = match link_args {
        Ok(args) => (args, None),
        Err(e) => (Vec::new(), Some(e)),
    };
    // Without --seed, a new deal each start.
    let seed = arachne::spider::table::next_seed(1, wall_clock_nanos());
    // A bad command line exits with its error; a bad link in the browser (nobody would see
    // that) opens the default game and says what was wrong with the link.
    #[cfg(target_arch = "wasm32")]
    let mut link_error = unreadable_link;
    #[cfg(not(target_arch = "wasm32"))]
    let link_error: Option<String> = None;
    let launch = match cli::parse(&args, seed) {
        Ok(l) => l,
        #[cfg(target_arch = "wasm32")]
        Err(e) => match cli::parse(&[], seed) {
            Ok(l) => {
                link_error = Some(e);
                l
            }
            Err(e) => {
                eprintln!("{e}");
                return AppExit::from_code(2);
            }
        },
        #[cfg(not(target_arch = "wasm32"))]
        Err(e) => {
            eprintln!("{e}");
            return AppExit::from_code(2);
        }
    };
    // Desktop saves go to the platform's data directory; the game in progress is resumed when
    // the command line does not ask for a deal.
    // Without one (no home directory), the game keeps what it saves until it quits, and says
    // so: nothing was saved before, without a word.
    #[cfg(not(target_arch = "wasm32"))]
    let platform = arachne::core::persist::DirStorage::platform();
    #[cfg(not(target_arch = "wasm32"))]
    let no_data_dir = platform.is_none();
    #[cfg(not(target_arch = "wasm32"))]
    let saves = Some(arachne::core::persist::Saves(match platform {
        Some(d) => std::sync::Arc::new(arachne::core::persist::BackgroundWrites::new(
            std::sync::Arc::new(d),
        )),
        None => std::sync::Arc::new(arachne::core::persist::MemoryStorage::default()),
    }));
    // In the browser: the page's localStorage. Where the browser keeps nothing for the page,
    // the game keeps what it saves until the page is closed, and says so once (not once for
    // each thing it could not read).
    #[cfg(target_arch = "wasm32")]
    let no_storage = arachne::web::LocalStorage::works().err();
    #[cfg(target_arch = "wasm32")]
    let saves = Some(arachne::core::persist::Saves(match no_storage {
        None => std::sync::Arc::new(arachne::web::LocalStorage),
        Some(_) => std::sync::Arc::new(arachne::core::persist::MemoryStorage::default()),
    }));
    // A capture never reads or writes the player's files; a test may give it a data directory
    // of its own in $ARACHNE_DATA (to draw the lists of kept games and the statistics filled).
    let saves = saves.filter(|_| launch.capture.is_none());
    #[cfg(not(target_arch = "wasm32"))]
    let saves = saves.or_else(|| {
        let dir = std::env::var_os("ARACHNE_DATA").filter(|_| launch.capture.is_some())?;
        Some(arachne::core::persist::Saves(std::sync::Arc::new(
            arachne::core::persist::BackgroundWrites::new(std::sync::Arc::new(
                arachne::core::persist::DirStorage::new(dir),
            )),
        )))
    });
    let mut table = launch.table;
    // Problems with saved files are told in the game, not only on the terminal.
    let mut notices = arachne::core::focus::Notices::default();
    let mut tell = |message: Option<String>| {
        if let Some(message) = message {
            eprintln!("arachne: {message}");
            notices.push_long(message);
        }
    };
    // The player's settings and statistics; a damaged file is set aside and defaults are used.
    // What is told about them is in the player's language: the system's until the settings
    // are read (defaults, when they cannot be, follow the system too).
    arachne::core::i18n::set_lang(arachne::core::i18n::Lang::system());
    let (mut settings, mut stats) = match &saves {
        Some(saves) => {
            let (settings, message) = arachne::core::persist::load::<
                arachne::core::settings::Settings,
            >(
                saves.0.as_ref(), arachne::core::settings::SETTINGS_KEY
            )
            .or_default();
            tell(message);
            arachne::core::i18n::set_lang(settings.lang());
            let mut settings = settings;
            let reset = settings.reset_out_of_range();
            if !reset.is_empty() {
                tell(Some(arachne::core::i18n::tf(
                    "persist.settings_out_of_range",
                    &[("fields", &reset.join("; "))],
                )));
                // Saved mended, so that it is told once, not at every start.
                if let Err(e) = arachne::core::persist::save_making_room(
                    saves.0.as_ref(),
                    arachne::core::settings::SETTINGS_KEY,
                    &settings,
                ) {
                    eprintln!("arachne: the settings could not be saved: {e}");
                }
            }
            let (stats, message) =
                arachne::core::persist::load::<arachne::spider::saves::Statistics>(
                    saves.0.as_ref(),
                    arachne::spider::saves::STATS_KEY,
                )
                .or_default();
            tell(message);
            (settings, stats)
        }
        None => Default::default(),
    };
    // Messages about saved files are told in the player's language.
    arachne::core::i18n::set_lang(settings.lang());
    if let Some(e) = link_error {
        tell(Some(arachne::core::i18n::tf(
            "web.bad_link",
            &[("why", &e)],
        )));
    }
    #[cfg(not(target_arch = "wasm32"))]
    if no_data_dir && launch.capture.is_none() {
        tell(Some(
            arachne::core::i18n::t("persist.no_data_dir").to_string(),
        ));
    }
    #[cfg(target_arch = "wasm32")]
    if let Some(why) = &no_storage {
        let why = why.trim_end_matches('.');
        tell(Some(arachne::core::i18n::tf(
            "web.no_storage",
            &[("why", &why)],
        )));
    }
    #[cfg(target_arch = "wasm32")]
    if !ignored_link_keys.is_empty() {
        tell(Some(arachne::core::i18n::tf(
            "web.link_ignored",
            &[("keys", &ignored_link_keys.join(", "))],
        )));
    }
    // The themes: the shipped ones, the player's own, and on the desktop the files of the
    // assets directory, watched while the game runs (not by a capture, which shows what ships,
    // unless $ARACHNE_ASSETS names the directory).
    let mut themes = arachne::core::theme::Themes::default();
    if let Some(saves) = &saves {
        themes
            .load_saved(saves.0.as_ref())
            .into_iter()
            .for_each(|m| tell(Some(m)));
    }
    #[allow(unused_mut)]
    let mut problems = arachne::core::live::FileProblems::default();
    #[cfg(not(target_arch = "wasm32"))]
    let live = arachne::core::live::LiveFiles::find_root()
        .filter(|_| launch.capture.is_none() || std::env::var_os("ARACHNE_ASSETS").is_some())
        .map(|root| {
            let mut live = arachne::core::live::LiveFiles::new(root);
            let mut unused = arachne::core::persist::SaveSettings::default();
            live.check(&mut settings, &mut unused, &mut themes, &mut problems);
            live
        });
    if let Some(theme) = launch.theme {
        match arachne::cli::theme_error(&theme, &themes) {
            None => settings.theme = theme,
            Some(e) => {
                eprintln!("{e}");
                #[cfg(not(target_arch = "wasm32"))]
                return AppExit::from_code(2);
                #[cfg(target_arch = "wasm32")]
                tell(Some(e));
            }
        }
    }
    // The game in progress comes back as it was left; a deal asked for on the command line
    // replaces it, and leaving it that way counts as giving it up.
    let mut record = arachne::spider::table::GameRecord::default();
    if let Some(saves) = &saves {
        if launch.chose_deal {
            tell(arachne::spider::saves::give_up_saved_game(
                saves.0.as_ref(),
                &mut stats,
                &table,
            ));
        } else {
            let (saved, message) = arachne::spider::saves::resume_game(saves.0.as_ref());
            tell(message);
            if let Some((saved, saved_record)) = saved {
                table = saved;
                record = saved_record;
            }
        }
    }
    // Pro Spider 10's statistics and its game: the one asked for, else the one in progress.
    let p10_launched = launch.phase10_on_table;
    let (phase10, p10_stats, messages) =
        arachne::phase10::saves::startup(saves.as_ref().map(|s| s.0.as_ref()), launch.phase10);
    messages.into_iter().for_each(|m| tell(Some(m)));
    // Back to the game that was on the table when the player left, unless told otherwise.
    let p10_on_table =
        p10_launched || (settings.phase10.on_table && !launch.spider_on_table && phase10.is_some());
    // With no game to resume, the one the menu switches to is a new deal of each start too
    // (the game's own default is deal 1, for the headless tests).
    let phase10 = phase10.or_else(|| {
        let spec = arachne::phase10::round::P10Spec::standard(
            4,
            seed,
            arachne_engine::phase10::ai::STRONGEST,
        )
        .ok()?;
        arachne::phase10::round::P10Table::new(spec)
            .ok()
            .map(|(table, _)| table)
    });
    let mut app = App::new();
    app.add_plugins(
        engine_plugins()
            .set(WindowPlugin {
                primary_window: Some(Window {
                    title: "Arachne".into(),
                    resolution: launch.window.into(),
                    canvas: Some("#bevy".into()),
                    fit_canvas_to_parent: true,
                    ..default()
                }),
                ..default()
            })
            // A capture must not catch a frame drawn before every pipeline is compiled (some
            // things missing): compile them before the frame instead of in the background.
            .set(bevy::render::RenderPlugin {
                synchronous_pipeline_compilation: launch.capture.is_some(),
                ..default()
            }),
    )
    .insert_resource(table)
    .insert_resource(record)
    .insert_resource(settings)
    .insert_resource(stats)
    .insert_resource(notices)
    .insert_resource(themes)
    .insert_resource(problems)
    .add_systems(Startup, |mut commands: Commands| {
        commands.spawn(Camera2d);
    });
    if let Some(saves) = saves {
        app.insert_resource(saves);
    }
    #[cfg(not(target_arch = "wasm32"))]
    if let Some(live) = live {
        eprintln!("arachne: watching {} for changes", live.root().display());
        app.insert_resource(live);
    }
    app.insert_resource(p10_stats);
    if let Some(phase10) = phase10 {
        app.insert_resource(phase10);
    }
    if p10_on_table {
        app.insert_state(arachne::GameKind::ProSpider10);
    }
    game_plugin(&mut app, !launch.mute && launch.capture.is_none());
    #[cfg(target_arch = "wasm32")]
    arachne::web::plugin(&mut app);
    if let Some(name) = launch.open {
        app.world_mut()
            .resource_mut::<arachne::shell::Windows>()
            .open(&name);
    }
    if let Some(open) = launch.replay {
        app.add_systems(
            Startup,
            move |mut controls: MessageWriter<arachne::spider::playback::Control>| {
                controls.write(open.clone());
            },
        );
    }
    if let Some((open, at)) = launch.phase10_replay {
        use arachne::phase10::viewer::ViewerControl;
        app.add_systems(
            Startup,
            move |mut controls: MessageWriter<ViewerControl>| {
                controls.write(open.clone());
                if let Some(at) = at {
                    controls.write(ViewerControl::Play(false));
                    controls.write(ViewerControl::Jump(at));
                }
            },
        );
    }
    // (A link cannot ask for one: a page has no file to save it to.)
    #[cfg(not(target_arch = "wasm32"))]
    if let Some(path) = launch.capture {
        capture::plugin(&mut app, path);
    }
    app.run()
}

/// Nanoseconds of wall-clock time (mixed into the deal number of a start without `--seed`).
#[cfg(not(target_arch = "wasm32"))]
fn wall_clock_nanos() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64)
}

/// The browser's clock (std's panics there).
#[cfg(target_arch = "wasm32")]
fn wall_clock_nanos() -> u64 {
    (js_sys::Date::now() * 1e6) as u64
}

/// Bevy's plugins for this build: its default ones.
#[cfg(not(target_arch = "wasm32"))]
fn engine_plugins() -> bevy::app::PluginGroupBuilder {
    DefaultPlugins.build()
}

/// Bevy's default plugins for the browser build's features, in their order, without the log
/// plugin: its filter brings a regex engine into the wasm, and the page logs through
/// `arachne::lines` instead. (A disabled plugin would still be linked: the group holds every
/// plugin as a trait object.) Bevy's own group would have it, because bevy_tweening turns on
/// Bevy's `bevy_log` feature. The browser test (`make test-web`) plays the game with these.
#[cfg(target_arch = "wasm32")]
fn engine_plugins() -> bevy::app::PluginGroupBuilder {
    use bevy::*;
    struct BrowserPlugins;
    impl PluginGroup for BrowserPlugins {
        fn build(self) -> bevy::app::PluginGroupBuilder {
            bevy::app::PluginGroupBuilder::start::<Self>()
                .add(app::PanicHandlerPlugin)
                .add(app::TaskPoolPlugin::default())
                .add(diagnostic::FrameCountPlugin)
                .add(time::TimePlugin)
                .add(transform::TransformPlugin)
                .add(diagnostic::DiagnosticsPlugin)
                .add(input::InputPlugin)
                .add(window::WindowPlugin::default())
                .add(a11y::AccessibilityPlugin)
                .add(asset::AssetPlugin::default())
                .add(winit::WinitPlugin::default())
                .add(render::RenderPlugin::default())
                .add(image::ImagePlugin::default())
                .add(mesh::MeshPlugin)
                .add(camera::CameraPlugin)
                .add(core_pipeline::CorePipelinePlugin)
                .add(sprite::SpritePlugin)
                .add(sprite_render::SpriteRenderPlugin)
                .add(state::app::StatesPlugin)
        }
    }
    BrowserPlugins.build()
}
