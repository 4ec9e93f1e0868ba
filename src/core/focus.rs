//! Who has the player's attention: the table or the overlay. The overlay sets these flags; the
//! games' input and clocks read them. Also the short notices both games show.
use bevy::prelude::*;

use crate::AppSystems;

pub(crate) fn plugin(app: &mut App) {
    app.init_resource::<PointerOnOverlay>()
        .init_resource::<OverlayOpen>()
        .init_resource::<Notices>()
        .init_resource::<NoticeSpot>()
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
    /// Shows `text` for a few seconds. The same text already showing is shown for longer, not
    /// twice (two keys that each find nothing to lay say it once).
    pub fn push(&mut self, text: impl Into<String>) {
        let text = text.into();
        tracing::info!("{text}");
        match self.0.iter_mut().find(|(shown, _)| *shown == text) {
            Some((_, left)) => *left = NOTICE_SECONDS,
            None => self.0.push((text, NOTICE_SECONDS)),
        }
    }
}

/// How long a notice shows.
const NOTICE_SECONDS: f32 = 6.0;

/// Where the notices show: at the top of the window, or (`above_bottom`) this many pixels above
/// its bottom edge. Pro Spider 10 asks for the bottom, just above its bar: the top of its table
/// holds the computer seats' labels, which a notice there covered, and its notices answer what
/// the player did with the hand.
#[derive(Resource, Debug, Default, Clone, Copy, PartialEq)]
pub struct NoticeSpot {
    /// Pixels from the window's bottom edge to the notices' lowest edge; `None`: at the top.
    pub above_bottom: Option<f32>,
}

fn tick_notices(time: Res<Time>, mut notices: ResMut<Notices>) {
    let dt = time.delta_secs();
    notices.0.retain_mut(|(_, left)| {
        *left -= dt;
        *left > 0.0
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_notice_already_showing_is_shown_longer_not_twice() {
        let mut n = Notices::default();
        n.push("nothing to lay");
        n.0[0].1 = 1.0;
        n.push("another");
        n.push("nothing to lay");
        assert_eq!(
            n.0,
            [
                ("nothing to lay".to_string(), NOTICE_SECONDS),
                ("another".to_string(), NOTICE_SECONDS)
            ]
        );
    }
}
