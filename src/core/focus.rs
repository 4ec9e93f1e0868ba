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
/// The keys are [`TableKeys`]'s.
#[derive(Resource, Clone, Copy, Debug, PartialEq, Eq)]
#[component(clone_behavior = Ignore)]
pub struct TableInput(pub bool);

/// Whether the table takes the keys: off while a window or question is open, or a control of
/// the overlay takes typing (a text field, an open list). The pointer resting on the bar takes
/// the pointer from the table, not the keys: before, a key pressed after a click on the bar did
/// nothing until the mouse left it. Absent (a test's table without the overlay): on.
#[derive(Resource, Clone, Copy, Debug, PartialEq, Eq)]
#[component(clone_behavior = Ignore)]
pub struct TableKeys(pub bool);

impl TableKeys {
    /// Whether the keys go to the table (`None`: there is no overlay).
    pub fn on(keys: Option<Res<TableKeys>>) -> bool {
        keys.is_none_or(|k| k.0)
    }
}

/// Whether the overlay has the pointer: it is `over` one of the overlay's areas, or egui `wants`
/// it (using it, a list open). Over an area with a button `held` since an earlier frame (a run
/// dragged from the table across the bar), it stays the table's.
pub fn overlay_wants_pointer(over: bool, wants: bool, held: bool) -> bool {
    wants || (over && !held)
}

/// Who has the pointer and who the keys, from whether a window or question is `open` and
/// whether the overlay wants the pointer (over one of its areas, or using it) or the keyboard:
/// `(TableInput, TableKeys)`.
pub fn input_gates(
    open: bool,
    overlay_pointer: bool,
    overlay_keys: bool,
) -> (TableInput, TableKeys) {
    (
        TableInput(!(open || overlay_pointer || overlay_keys)),
        TableKeys(!(open || overlay_keys)),
    )
}

/// The pointer is over the overlay (a window, the bar): a click there is not on the table.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
#[component(clone_behavior = Ignore)]
pub struct PointerOnOverlay(pub bool);

/// A window or a question is over the table: the game's clock stops (the overlay sets it).
#[derive(Resource, Debug, Default, Clone, Copy, PartialEq, Eq)]
#[component(clone_behavior = Ignore)]
pub struct OverlayOpen(pub bool);

/// Short messages for the player (a search that found nothing, a file set aside).
#[derive(Resource, Debug, Default, Clone)]
#[component(clone_behavior = Ignore)]
pub struct Notices(pub Vec<(String, f32)>);

impl Notices {
    /// Shows `text` for a few seconds. The same text already showing is shown for longer, not
    /// twice (two keys that each find nothing to lay say it once).
    pub fn push(&mut self, text: impl Into<String>) {
        self.push_for(text, NOTICE_SECONDS);
    }

    /// Shows `text` for longer ([`LONG_NOTICE_SECONDS`]): what the game found at its start (a
    /// file set aside, settings put back to their defaults), told while the first frames may
    /// still be slow and the player's eyes elsewhere.
    pub fn push_long(&mut self, text: impl Into<String>) {
        self.push_for(text, LONG_NOTICE_SECONDS);
    }

    fn push_for(&mut self, text: impl Into<String>, secs: f32) {
        let text = text.into();
        tracing::info!("{text}");
        match self.0.iter_mut().find(|(shown, _)| *shown == text) {
            Some((_, left)) => *left = left.max(secs),
            None => self.0.push((text, secs)),
        }
    }
}

/// How long a notice shows.
const NOTICE_SECONDS: f32 = 6.0;

/// How long a notice of the game's start shows ([`Notices::push_long`]).
pub const LONG_NOTICE_SECONDS: f32 = 20.0;

/// Where the notices show: at the top of the window, or (`above_bottom`) this many pixels above
/// its bottom edge. Pro Spider 10 asks for the bottom, just above its bar: the top of its table
/// holds the computer seats' labels, which a notice there covered, and its notices answer what
/// the player did with the hand.
#[derive(Resource, Debug, Default, Clone, Copy, PartialEq)]
#[component(clone_behavior = Ignore)]
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
    fn the_pointer_on_the_bar_leaves_the_keys_to_the_table_and_a_window_takes_both() {
        let gates = |open, pointer, keys| {
            let (i, k) = input_gates(open, pointer, keys);
            (i.0, k.0)
        };
        assert_eq!(
            gates(false, false, false),
            (true, true),
            "nothing over the table"
        );
        assert_eq!(
            gates(false, true, false),
            (false, true),
            "the pointer on the bar"
        );
        assert_eq!(gates(true, false, false), (false, false), "a window open");
        assert_eq!(
            gates(false, true, true),
            (false, false),
            "typing in the overlay"
        );
        assert_eq!(gates(false, false, true), (false, false), "a list open");
    }

    #[test]
    fn a_drag_from_the_table_across_the_bar_stays_the_tables() {
        assert!(
            overlay_wants_pointer(true, false, false),
            "hovering the bar"
        );
        assert!(overlay_wants_pointer(true, true, true), "dragging a slider");
        assert!(
            !overlay_wants_pointer(true, false, true),
            "a run dragged over the bar"
        );
        assert!(
            !overlay_wants_pointer(false, false, false),
            "over the table"
        );
    }

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
