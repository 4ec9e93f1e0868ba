//! What Spider's table shows over its cards: the drop targets of a held run, the keyboard's
//! column and a hint, each timed out or cleared when the table changes.
use arachne_engine::Move;
use bevy::prelude::*;

use crate::AppSystems;
use crate::spider::SpiderSystems;
use crate::spider::table::TableChanged;

pub(crate) fn plugin(app: &mut App) {
    app.init_resource::<Highlights>().add_systems(
        Update,
        tick_highlights
            .in_set(AppSystems::Plan)
            .in_set(HighlightSystems)
            .in_set(SpiderSystems),
    );
}

/// The system that clears what a change of the table makes stale (a hint shown after it, in
/// the same frame, stays).
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct HighlightSystems;

/// What the table shows over the cards: drop targets, the keyboard's column, a hint.
#[derive(Resource, Default, Debug, Clone, PartialEq)]
#[component(clone_behavior = Ignore)]
pub struct Highlights {
    /// Columns the dragged run may drop on.
    pub targets: Vec<u8>,
    /// The column chosen with the keyboard.
    pub selected: Option<u8>,
    /// Cards of the chosen column taken up with the keyboard (Up and Down), to go where the
    /// player points with Left and Right.
    pub taking: Option<Taking>,
    /// The hint being shown and for how much longer (seconds).
    pub hint: Option<(Move, f32)>,
    /// The solver is thinking about a hint.
    pub thinking: bool,
}

/// Cards taken up with the keyboard: the top `count` of column `from`, the columns they may go
/// to (left to right) and the one pointed at.
#[derive(Debug, Clone, PartialEq)]
pub struct Taking {
    /// The column they are taken from.
    pub from: u8,
    /// How many of its top cards.
    pub count: u8,
    /// Where they may go, left to right.
    pub targets: Vec<u8>,
    /// The target pointed at (Left and Right move it among `targets`).
    pub to: Option<u8>,
}

fn tick_highlights(
    time: Res<Time>,
    mut highlights: ResMut<Highlights>,
    mut changed: MessageReader<TableChanged>,
) {
    if changed.read().count() > 0 {
        highlights.hint = None;
        // Taken from a table that has changed (an undo, a new deal, a click's move).
        highlights.taking = None;
    }
    if let Some((_, left)) = highlights.hint.as_mut() {
        *left -= time.delta_secs();
        if *left <= 0.0 {
            highlights.hint = None;
        }
    }
}
