//! Arachne, the game.
use arachne::{capture, cli, game_plugin};
use bevy::prelude::*;

fn main() -> AppExit {
    let args: Vec<String> = std::env::args().skip(1).collect();
    // Without --seed, a new deal each start.
    let seed = arachne::table::next_seed(1, wall_clock_nanos());
    let launch = match cli::parse(&args, seed) {
        Ok(l) => l,
        Err(e) => {
            eprintln!("{e}");
            return AppExit::from_code(2);
        }
    };
    // Desktop saves go to the platform's data directory; the game in progress is resumed when
    // the command line does not ask for a deal (and never for a --capture).
    #[cfg(not(target_arch = "wasm32"))]
    let saves = arachne::persist::DirStorage::platform()
        .map(|d| arachne::persist::Saves(std::sync::Arc::new(d)));
    #[cfg(target_arch = "wasm32")]
    let saves: Option<arachne::persist::Saves> = None;
    let mut table = launch.table;
    if let Some(saves) = &saves
        && !launch.chose_deal
        && launch.capture.is_none()
    {
        let (saved, message) = arachne::persist::load_game(saves.0.as_ref());
        if let Some(message) = message {
            eprintln!("arachne: {message}");
        }
        if let Some(saved) = saved {
            table = saved;
        }
    }
    let mut app = App::new();
    app.add_plugins(DefaultPlugins.set(WindowPlugin {
        primary_window: Some(Window {
            title: "Arachne".into(),
            resolution: (1280, 720).into(),
            canvas: Some("#bevy".into()),
            fit_canvas_to_parent: true,
            ..default()
        }),
        ..default()
    }))
    .insert_resource(table)
    .add_systems(Startup, |mut commands: Commands| {
        commands.spawn(Camera2d);
    });
    if let Some(saves) = saves.filter(|_| launch.capture.is_none()) {
        let (stats, message) = arachne::persist::load::<arachne::persist::Statistics>(
            saves.0.as_ref(),
            arachne::persist::STATS_KEY,
        )
        .or_default();
        if let Some(message) = message {
            eprintln!("arachne: {message}");
        }
        app.insert_resource(stats).insert_resource(saves);
    }
    if let Some(theme) = launch.theme {
        app.insert_resource(theme);
    }
    game_plugin(&mut app, !launch.mute && launch.capture.is_none());
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
