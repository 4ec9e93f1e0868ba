//! Arachne, the game: Bevy plugins that show the engine's table and animate its events.
//!
//! Data flows one way: input -> [`table::Request`] -> the engine -> [`table::TableChanged`]
//! (the engine's events) -> tweens and sound cues -> at rest, the table matches the engine.
// Bevy systems take their resources and queries as arguments; long lists are the norm there.
#![allow(clippy::too_many_arguments, clippy::type_complexity)]
use bevy::prelude::*;

pub mod art;
pub mod audio;
pub mod capture;
pub mod cli;
pub mod input;
pub mod layout;
pub mod persist;
pub mod settings;
pub mod table;
pub mod theme;
pub mod ui;
pub mod view;

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
        .add_plugins((table::plugin, view::plugin, input::plugin, persist::plugin));
    // The settings name the theme; an unknown name falls back to the default theme.
    if !app.world().contains_resource::<theme::Theme>() {
        let id = app.world().resource::<settings::Settings>().theme.clone();
        let theme = theme::Theme::builtin(&id).unwrap_or_else(|| {
            warn!("settings: no theme `{id}`, using the default");
            theme::Theme::default()
        });
        app.insert_resource(theme);
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
