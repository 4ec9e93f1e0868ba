//! Spider solitaire at the table: the engine's game as a resource ([`table`]), its cards as
//! entities moved by the engine's events ([`view`], [`plan`]), input, the solver's help, the
//! replay viewer, saves and statistics, and its part of the overlay.
pub mod assist;
pub mod bar;
pub mod faces;
pub mod fixtures;
pub mod highlights;
pub mod hint;
pub mod input;
pub mod layout;
pub mod menu;
pub mod piles;
pub mod plan;
pub mod playback;
pub mod records;
pub mod rules;
pub mod samples;
pub mod saves;
pub mod search;
pub mod table;
pub mod view;
pub mod won;

use bevy::prelude::*;
use bevy_egui::EguiPrimaryContextPass;

use crate::GameKind;

/// Every system of Spider's: they run while Spider is on the table.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SpiderSystems;

/// Spider's rules, motion and input: everything the headless tests run.
pub fn logic_plugin(app: &mut App) {
    app.configure_sets(Update, SpiderSystems.run_if(in_state(GameKind::Spider)));
    app.add_plugins((
        table::plugin,
        view::plugin,
        highlights::plugin,
        input::plugin,
        hint::plugin,
        saves::plugin,
        playback::plugin,
        assist::plugin,
        search::plugin,
        samples::plugin,
    ));
}

/// Spider's drawing and overlay.
pub fn render_plugin(app: &mut App) {
    app.configure_sets(
        EguiPrimaryContextPass,
        SpiderSystems.run_if(in_state(GameKind::Spider)),
    );
    app.add_plugins((
        faces::plugin,
        fixtures::plugin,
        bar::plugin,
        menu::plugin,
        records::plugin,
        rules::plugin,
        won::plugin,
    ));
}
