//! Who has the player's attention: the table or the overlay. The overlay sets these flags; the
//! games' input and clocks read them. Also the short notices both games show.
use bevy::prelude::*;

use crate::AppSystems;

pub(crate) fn plugin(app: &mut App) {
    app.init_resource::<PointerOnOverlay>()
        .init_resource::<OverlayOpen>()
        .init_resource::<Notices>()
        .add_systems(Update, tick_notices.in_set(AppSystems::Plan));
}

/// Whether the table takes the pointer and keys (off while an overlay has them, issue 5).
#[derive(Resource, Clone, Copy, Debug, PartialEq, Eq)]
pub struct TableInput(pub bool);

/// The pointer is over the overlay (a window, the bar): a click there is not on the table.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PointerOnOverlay(pub bool);

/// A window or a question is over the table: the game's clock stops (the overlay sets it).
#[derive(Resource, Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct OverlayOpen(pub bool);

/// Short messages for the player (a search that found nothing, a file set aside).
#[derive(Resource, Debug, Default, Clone)]
pub struct Notices(pub Vec<(String, f32)>);

impl Notices {
    /// Shows `text` for a few seconds.
    pub fn push(&mut self, text: impl Into<String>) {
        let text = text.into();
        tracing::info!("{text}");
        self.0.push((text, 6.0));
    }
}

fn tick_notices(time: Res<Time>, mut notices: ResMut<Notices>) {
    let dt = time.delta_secs();
    notices.0.retain_mut(|(_, left)| {
        *left -= dt;
        *left > 0.0
    });
}
