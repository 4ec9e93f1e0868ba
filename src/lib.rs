//! Arachne, the game: Bevy plugins that show the engine's table and animate its events.
//!
//! Data flows one way: input -> [`table::Request`] -> the engine -> [`table::TableChanged`]
//! (the engine's events) -> tweens and sound cues -> at rest, the table matches the engine.
// Bevy systems take their resources and queries as arguments; long lists are the norm there.
#![allow(clippy::too_many_arguments, clippy::type_complexity)]
use bevy::prelude::*;

pub mod art;
pub mod assist;
pub mod audio;
pub mod capture;
pub mod cli;
pub mod glyphs;
pub mod input;
pub mod layout;
pub mod lines;
pub mod persist;
pub mod playback;
pub mod rules;
pub mod settings;
pub mod table;
pub mod theme;
pub mod ui;
pub mod view;
#[cfg(target_arch = "wasm32")]
pub mod web;
pub mod won;

/// The order of the game's systems in `Update`.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AppSystems {
    /// Pointer and keyboard turn into requests.
    Input,
    /// Requests go to the engine.
    Apply,
    /// Engine events become tweens and sound cues.
    Plan,
}

/// Everything but drawing and sound: the table, its events, motion and input. Headless tests
/// and benchmarks use this with `MinimalPlugins`.
pub fn logic_plugin(app: &mut App) {
    app.add_plugins(bevy_tweening::TweeningPlugin)
        .init_resource::<settings::Settings>()
        .configure_sets(
            Update,
            (AppSystems::Input, AppSystems::Apply, AppSystems::Plan)
                .chain()
                .before(bevy_tweening::AnimationSystem::AnimationUpdate),
        )
        .add_plugins((
            table::plugin,
            view::plugin,
            input::plugin,
            persist::plugin,
            playback::plugin,
            assist::plugin,
        ));
    app.add_systems(Startup, wall_clock_motion);
    // The settings name the theme and the player's card choices; the theme follows them live.
    let theme = theme::Theme::for_settings(app.world().resource::<settings::Settings>());
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

fn follow_settings(settings: Res<settings::Settings>, mut theme: ResMut<theme::Theme>) {
    if settings.is_changed() {
        theme.set_if_neq(theme::Theme::for_settings(&settings));
    }
}

/// The whole game: logic, drawing, and (unless `sound` is false) audio.
pub fn game_plugin(app: &mut App, sound: bool) {
    logic_plugin(app);
    app.add_plugins((art::plugin, ui::plugin));
    if sound {
        app.add_plugins(audio::plugin);
    }
}
