//! Pro Spider 10 at the table: the engine's game as a resource ([`round`]), the computer seats
//! deciding off the frame ([`seats`]), the cards as entities moved by the engine's events
//! ([`view`], [`layout`], [`faces`]), the player's input, and its part of the overlay ([`hud`]).
pub mod faces;
pub mod hud;
pub mod input;
pub mod layout;
pub mod menu;
pub mod plan;
pub mod replays;
pub mod round;
pub mod rules;
pub mod samples;
pub mod saves;
pub mod seats;
pub mod sheet;
pub mod view;
pub mod viewer;

use bevy::prelude::*;
use bevy_egui::EguiPrimaryContextPass;

use crate::GameKind;

/// Every system of Pro Spider 10's: they run while it is on the table.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct P10Systems;

/// The rules, the computer seats, motion and input: everything the headless tests run.
pub fn logic_plugin(app: &mut App) {
    if !app.world().contains_resource::<round::P10Table>() {
        // A game is always ready to be switched to: the standard one, four seats.
        let spec = round::P10Spec::standard(4, 1, arachne_engine::phase10::ai::STRONGEST)
            .expect("the standard variant seats four");
        let (table, _) = round::P10Table::new(spec).expect("a standard deal");
        app.insert_resource(table);
    }
    app.configure_sets(Update, P10Systems.run_if(in_state(GameKind::ProSpider10)))
        .add_plugins((
            round::plugin,
            seats::plugin,
            view::plugin,
            input::plugin,
            saves::plugin,
            viewer::plugin,
            samples::plugin,
        ));
}

/// Drawing and the overlay.
pub fn render_plugin(app: &mut App) {
    app.configure_sets(
        EguiPrimaryContextPass,
        P10Systems.run_if(in_state(GameKind::ProSpider10)),
    )
    .add_plugins((
        faces::plugin,
        hud::plugin,
        menu::plugin,
        sheet::plugin,
        rules::plugin,
        replays::plugin,
    ));
}
