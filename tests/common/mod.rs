//! Helpers the headless test files share (each file is its own test binary; `mod common;`).
#![allow(dead_code)]
use arachne::cards::motion::CardPose;
use arachne::spider::layout::{Layout, PileId};
use arachne::spider::piles::{CardView, Piles};
use arachne::spider::table::Table;
use bevy::prelude::*;
use bevy_tweening::TweenAnim;

pub mod p10;

/// How many of the notices shown so far hold `words`.
pub fn notices_with(app: &App, words: &str) -> usize {
    app.world()
        .resource::<arachne::core::focus::Notices>()
        .0
        .iter()
        .filter(|(n, _)| n.contains(words))
        .count()
}

/// A notice holding `words` was shown (the notices are printed if not).
pub fn assert_told(app: &App, words: &str) {
    assert!(
        notices_with(app, words) > 0,
        "no notice with {words:?}: {:?}",
        app.world().resource::<arachne::core::focus::Notices>().0
    );
}

/// How many cards are moving.
pub fn animating(app: &mut App) -> usize {
    app.world_mut()
        .query_filtered::<(), With<TweenAnim>>()
        .iter(app.world())
        .count()
}

/// Every card entity is where the engine and the layout say, showing the right side.
pub fn assert_matches_engine(app: &mut App) {
    let world = app.world_mut();
    let piles = world.resource::<Piles>().clone();
    let layout = world.resource::<Layout>().clone();
    let position = world.resource::<Table>().game.position().clone();
    let shape = piles.shape();
    let all: std::collections::HashMap<Entity, (CardView, CardPose, Transform)> = world
        .query::<(Entity, &CardView, &CardPose, &Transform)>()
        .iter(world)
        .map(|(e, v, p, t)| (e, (v.clone(), *p, *t)))
        .collect();
    let view = |e: Entity| all.get(&e).unwrap();
    let n = all.len();
    assert_eq!(n, position.variant().deck_size(), "one entity per card");
    assert_eq!(piles.columns.len(), position.columns().len());
    let mut seen = 0;
    let mut check = |e: Entity, pile: PileId, index: usize, card, face_up: bool| {
        let (v, pose, t) = view(e);
        assert_eq!(
            (v.card, v.pile, v.index, v.face_up),
            (card, pile, index, face_up),
            "{pile:?} {index}"
        );
        let want = layout.position(&shape, pile, index);
        assert!(
            pose.translation.distance(want) < 0.01,
            "{pile:?} {index}: {} vs {want}",
            pose.translation
        );
        assert!(
            t.translation.distance(want) < 0.01,
            "{pile:?} {index}: transform {}",
            t.translation
        );
        assert_eq!(
            (pose.flip, pose.face_shown),
            (1.0, face_up),
            "{pile:?} {index}"
        );
        assert_eq!(t.scale.x, 1.0);
        seen += 1;
    };
    for (c, column) in position.columns().iter().enumerate() {
        assert_eq!(piles.columns[c].len(), column.len(), "column {c}");
        assert_eq!(piles.face_down[c], column.face_down(), "column {c}");
        for (i, (&e, &card)) in piles.columns[c].iter().zip(column.cards()).enumerate() {
            check(e, PileId::Column(c as u8), i, card, i >= column.face_down());
        }
    }
    let stock: Vec<_> = position.stock().rev().collect();
    assert_eq!(piles.stock.len(), stock.len());
    for (i, (&e, &card)) in piles.stock.iter().zip(&stock).enumerate() {
        check(e, PileId::Stock, i, card, false);
    }
    assert_eq!(piles.foundations.len(), position.foundation().len());
    for (s, (run, cards)) in piles
        .foundations
        .iter()
        .zip(position.foundation())
        .enumerate()
    {
        for (i, (&e, &card)) in run.iter().zip(cards.iter()).enumerate() {
            check(e, PileId::Foundation(s as u8), i, card, true);
        }
    }
    assert_eq!(seen, n);
}

/// Presses and releases `code` on window `w`, one frame each, through Bevy's input plugin.
pub fn key(app: &mut App, w: Entity, code: KeyCode) {
    typed_key(
        app,
        w,
        code,
        bevy::input::keyboard::Key::Unidentified(bevy::input::keyboard::NativeKey::Unidentified),
    );
}

/// Presses and releases the key at `code` that types `logical` (a keyboard layout other
/// than the US one), one frame each.
pub fn typed_key(app: &mut App, w: Entity, code: KeyCode, logical: bevy::input::keyboard::Key) {
    for state in [
        bevy::input::ButtonState::Pressed,
        bevy::input::ButtonState::Released,
    ] {
        app.world_mut()
            .write_message(bevy::input::keyboard::KeyboardInput {
                key_code: code,
                logical_key: logical.clone(),
                state,
                text: None,
                repeat: false,
                window: w,
            });
        app.update();
    }
}

/// Holds `code` down on window `w`: pressed, then `repeats` frames each with a repeat from the
/// system, then let go.
pub fn hold_repeating(app: &mut App, w: Entity, code: KeyCode, repeats: usize) {
    let send = |app: &mut App, state, repeat| {
        app.world_mut()
            .write_message(bevy::input::keyboard::KeyboardInput {
                key_code: code,
                logical_key: bevy::input::keyboard::Key::Unidentified(
                    bevy::input::keyboard::NativeKey::Unidentified,
                ),
                state,
                text: None,
                repeat,
                window: w,
            });
        app.update();
    };
    send(app, bevy::input::ButtonState::Pressed, false);
    for _ in 0..repeats {
        send(app, bevy::input::ButtonState::Pressed, true);
    }
    send(app, bevy::input::ButtonState::Released, false);
}

/// Presses (`down`) or releases a key that types nothing, such as a modifier, on window `w`.
pub fn hold_key(app: &mut App, w: Entity, code: KeyCode, down: bool) {
    app.world_mut()
        .write_message(bevy::input::keyboard::KeyboardInput {
            key_code: code,
            logical_key: bevy::input::keyboard::Key::Control,
            state: if down {
                bevy::input::ButtonState::Pressed
            } else {
                bevy::input::ButtonState::Released
            },
            text: None,
            repeat: false,
            window: w,
        });
    app.update();
}

/// The window becomes `x` by `y` logical pixels, as winit tells it.
pub fn resize(app: &mut App, w: Entity, x: f32, y: f32) {
    app.world_mut()
        .get_mut::<Window>(w)
        .unwrap()
        .resolution
        .set(x, y);
    app.world_mut().write_message(bevy::window::WindowResized {
        window: w,
        width: x,
        height: y,
    });
}

/// One storage seen by two running copies of the game (two browser tabs on one page's
/// storage, two windows on one directory): each copy is known by its own name, and its writes
/// can be made to fail.
pub struct OtherCopy {
    shared: std::sync::Arc<arachne::core::persist::MemoryStorage>,
    name: &'static str,
    /// Writes fail while set (a full storage).
    pub fail: std::sync::atomic::AtomicBool,
}

impl OtherCopy {
    /// The copy called `name` of `shared`.
    pub fn new(
        shared: &std::sync::Arc<arachne::core::persist::MemoryStorage>,
        name: &'static str,
    ) -> OtherCopy {
        OtherCopy {
            shared: shared.clone(),
            name,
            fail: Default::default(),
        }
    }
}

impl arachne::core::persist::Storage for OtherCopy {
    fn read(&self, key: &str) -> std::io::Result<Option<String>> {
        self.shared.read(key)
    }
    fn write(&self, key: &str, text: &str) -> std::io::Result<()> {
        if self.fail.load(std::sync::atomic::Ordering::Relaxed) {
            return Err(std::io::Error::from(std::io::ErrorKind::StorageFull));
        }
        self.shared.write(key, text)
    }
    fn set_aside(&self, key: &str) -> std::io::Result<Option<String>> {
        self.shared.set_aside(key)
    }
    fn keys(&self) -> std::io::Result<Vec<String>> {
        self.shared.keys()
    }
    fn remove(&self, key: &str) -> std::io::Result<()> {
        self.shared.remove(key)
    }
    fn identity(&self) -> String {
        self.name.into()
    }
}
