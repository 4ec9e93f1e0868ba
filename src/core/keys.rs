//! The keys as the game reads them: a letter's shortcut follows the letter printed on the key.
//!
//! Bevy's `ButtonInput<KeyCode>` names keys by where they sit on a US keyboard. On a German one
//! the keys labelled Z and Y are swapped, so Ctrl+Z there would redo; on a French one A sits
//! where Q is. [`Keys`] holds the same presses with each key that types a letter (or `+`, `-`)
//! renamed to the US key of that letter. Every other key keeps its place: digits (a French
//! keyboard types `&` on the key of 1 unshifted, `-` on the key of 6), arrows, Enter, Esc, the
//! modifiers, and the letters of non-Latin layouts, which have no letter of their own to follow.
use bevy::input::keyboard::{Key, KeyboardFocusLost, KeyboardInput};
use bevy::input::{ButtonInput, ButtonState, InputSystems};
use bevy::platform::collections::HashMap;
use bevy::prelude::*;

pub(crate) fn plugin(app: &mut App) {
    app.add_message::<KeyboardInput>()
        .add_message::<KeyboardFocusLost>()
        .init_resource::<Keys>()
        .add_systems(PreUpdate, read_keys.after(InputSystems));
}

/// The keys pressed, as `ButtonInput<KeyCode>` with letters named by what they type.
#[derive(Resource, Default, Debug, Deref)]
pub struct Keys {
    #[deref]
    input: ButtonInput<KeyCode>,
    /// What each key held down was read as when pressed (its release may type another
    /// character, Shift having been let go first).
    held: HashMap<KeyCode, KeyCode>,
    /// Keys pressed while Cmd (Super) was held: a browser on a Mac sends no release for them.
    with_cmd: Vec<KeyCode>,
    /// Keys let go with Cmd though no release of theirs came: their repeats, should they still
    /// be held after all, are not new presses.
    stale: Vec<KeyCode>,
    /// This frame's presses in the order they came (each as read when first pressed), and
    /// whether each was the system's repeat of a key held down.
    this_frame: Vec<(KeyCode, bool)>,
}

/// The keys that go on acting while held, at the system's repeat rate: those that move
/// something a step (a cursor, a replay, its speed). Enter, Esc and the letters act once per
/// press.
pub const STEP_KEYS: [KeyCode; 10] = [
    KeyCode::ArrowLeft,
    KeyCode::ArrowRight,
    KeyCode::ArrowUp,
    KeyCode::ArrowDown,
    KeyCode::PageUp,
    KeyCode::PageDown,
    KeyCode::Equal,
    KeyCode::Minus,
    KeyCode::NumpadAdd,
    KeyCode::NumpadSubtract,
];

impl Keys {
    /// This frame's presses in the order they came, with the system's repeats of the keys of
    /// `repeating` (held down) among them: each counts (at a low frame rate, several repeats
    /// may come in one frame, and a held arrow's last repeat before an Enter).
    pub fn presses(&self, repeating: &[KeyCode]) -> Vec<KeyCode> {
        self.this_frame
            .iter()
            .filter(|(k, repeat)| !repeat || repeating.contains(k))
            .map(|&(k, _)| k)
            .collect()
    }

    /// Whether every press of `key` this frame was a repeat of the system's (none a new press).
    pub fn is_repeat(&self, key: KeyCode) -> bool {
        !self.input.just_pressed(key) && self.this_frame.iter().any(|&(k, _)| k == key)
    }
}

/// The digit keys, 0 to 9: the top row's and the keypad's.
const DIGITS: [(KeyCode, KeyCode); 10] = [
    (KeyCode::Digit0, KeyCode::Numpad0),
    (KeyCode::Digit1, KeyCode::Numpad1),
    (KeyCode::Digit2, KeyCode::Numpad2),
    (KeyCode::Digit3, KeyCode::Numpad3),
    (KeyCode::Digit4, KeyCode::Numpad4),
    (KeyCode::Digit5, KeyCode::Numpad5),
    (KeyCode::Digit6, KeyCode::Numpad6),
    (KeyCode::Digit7, KeyCode::Numpad7),
    (KeyCode::Digit8, KeyCode::Numpad8),
    (KeyCode::Digit9, KeyCode::Numpad9),
];

/// The US keyboard's letter keys, a to z.
const LETTERS: [KeyCode; 26] = [
    KeyCode::KeyA,
    KeyCode::KeyB,
    KeyCode::KeyC,
    KeyCode::KeyD,
    KeyCode::KeyE,
    KeyCode::KeyF,
    KeyCode::KeyG,
    KeyCode::KeyH,
    KeyCode::KeyI,
    KeyCode::KeyJ,
    KeyCode::KeyK,
    KeyCode::KeyL,
    KeyCode::KeyM,
    KeyCode::KeyN,
    KeyCode::KeyO,
    KeyCode::KeyP,
    KeyCode::KeyQ,
    KeyCode::KeyR,
    KeyCode::KeyS,
    KeyCode::KeyT,
    KeyCode::KeyU,
    KeyCode::KeyV,
    KeyCode::KeyW,
    KeyCode::KeyX,
    KeyCode::KeyY,
    KeyCode::KeyZ,
];

/// Ctrl, Alt and Cmd (Super): held, the letter and number keys are the system's and the
/// browser's, not the table's (Ctrl+X cuts, it does not discard).
pub const COMMAND_KEYS: [KeyCode; 6] = [
    KeyCode::ControlLeft,
    KeyCode::ControlRight,
    KeyCode::AltLeft,
    KeyCode::AltRight,
    KeyCode::SuperLeft,
    KeyCode::SuperRight,
];

/// The number on a digit key (top row or keypad), 1 to 9.
pub fn digit(key: KeyCode) -> Option<usize> {
    DIGITS
        .iter()
        .position(|&(top, pad)| key == top || key == pad)
        .filter(|&n| n >= 1)
}

/// The key a press of `physical` typing `logical` counts as.
pub fn command_code(physical: KeyCode, logical: &Key) -> KeyCode {
    let punctuation = matches!(physical, KeyCode::Equal | KeyCode::Minus);
    let Key::Character(text) = logical else {
        // A dead key there (German ´ where a US keyboard has =) is not faster or slower.
        return if punctuation && matches!(logical, Key::Dead(_)) {
            KeyCode::Unidentified(bevy::input::keyboard::NativeKeyCode::Unidentified)
        } else {
            physical
        };
    };
    let mut chars = text.chars();
    let (Some(c), None) = (chars.next(), chars.next()) else {
        return physical;
    };
    // The digits keep their place (a French keyboard types - on the key of 6 unshifted, a
    // Czech one + on the key of 1), and so do the numeric keypad's keys: + there is NumpadAdd.
    let keypad = DIGITS
        .iter()
        .any(|&(top, pad)| physical == top || physical == pad)
        || matches!(physical, KeyCode::NumpadAdd | KeyCode::NumpadSubtract);
    if keypad {
        return physical;
    }
    match c.to_ascii_lowercase() {
        c @ 'a'..='z' => LETTERS[(c as u8 - b'a') as usize],
        // The replay viewers' faster and slower: + is shifted = on a US keyboard, and has a key
        // of its own on a German one.
        '+' | '=' => KeyCode::Equal,
        '-' => KeyCode::Minus,
        // Those two keys type other things elsewhere (ß and ´ on a German keyboard).
        _ if punctuation => {
            KeyCode::Unidentified(bevy::input::keyboard::NativeKeyCode::Unidentified)
        }
        _ => physical,
    }
}

/// Shift, Ctrl, Alt and Cmd (Super), either side.
pub(crate) fn is_modifier(key: KeyCode) -> bool {
    matches!(
        key,
        KeyCode::ShiftLeft
            | KeyCode::ShiftRight
            | KeyCode::ControlLeft
            | KeyCode::ControlRight
            | KeyCode::AltLeft
            | KeyCode::AltRight
            | KeyCode::SuperLeft
            | KeyCode::SuperRight
    )
}

fn read_keys(
    mut keys: ResMut<Keys>,
    mut input: MessageReader<KeyboardInput>,
    mut focus_lost: MessageReader<KeyboardFocusLost>,
) {
    let keys = keys.bypass_change_detection();
    keys.input.clear();
    keys.this_frame.clear();
    for event in input.read() {
        match event.state {
            ButtonState::Pressed => {
                if event.repeat && keys.stale.contains(&event.key_code) {
                    continue;
                }
                if !event.repeat {
                    keys.stale.retain(|&k| k != event.key_code);
                    // A key pressed again though its release never came (a browser on a Mac
                    // sends none for Z while Cmd is held, so a second Cmd+Z would not count) is
                    // let go first.
                    if let Some(code) = keys.held.remove(&event.key_code) {
                        keys.input.release(code);
                    }
                    let cmd = keys
                        .input
                        .any_pressed([KeyCode::SuperLeft, KeyCode::SuperRight]);
                    if cmd && !is_modifier(event.key_code) {
                        keys.with_cmd.push(event.key_code);
                    }
                }
                // A repeat of a held key is read as when first pressed.
                let code = *keys
                    .held
                    .entry(event.key_code)
                    .or_insert_with(|| command_code(event.key_code, &event.logical_key));
                keys.input.press(code);
                keys.this_frame.push((code, event.repeat));
            }
            ButtonState::Released => {
                keys.stale.retain(|&k| k != event.key_code);
                keys.with_cmd.retain(|&k| k != event.key_code);
                let code = keys.held.remove(&event.key_code).unwrap_or(event.key_code);
                keys.input.release(code);
                // Cmd let go (in a browser on a Mac): the keys pressed with it sent no release of
                // their own. Keys pressed before it are left as they are.
                let cmd = keys
                    .input
                    .any_pressed([KeyCode::SuperLeft, KeyCode::SuperRight]);
                if matches!(event.key_code, KeyCode::SuperLeft | KeyCode::SuperRight) && !cmd {
                    for key in std::mem::take(&mut keys.with_cmd) {
                        if let Some(code) = keys.held.remove(&key) {
                            keys.input.release(code);
                            keys.stale.push(key);
                        }
                    }
                }
            }
        }
    }
    // Keys held while the window lost the keyboard are let go, as Bevy's own input does.
    if !focus_lost.is_empty() {
        focus_lost.clear();
        keys.input.release_all();
        keys.held.clear();
        keys.with_cmd.clear();
        keys.stale.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn letters_follow_the_letter_on_the_key_and_other_keys_their_place() {
        let ch = |s: &str| Key::Character(s.into());
        // German: the key where a US keyboard has Y types z, and Z's key types y.
        assert_eq!(command_code(KeyCode::KeyY, &ch("z")), KeyCode::KeyZ);
        assert_eq!(command_code(KeyCode::KeyZ, &ch("y")), KeyCode::KeyY);
        // French: A sits where Q is; shifted letters count alike.
        assert_eq!(command_code(KeyCode::KeyQ, &ch("A")), KeyCode::KeyA);
        // US: nothing changes.
        assert_eq!(command_code(KeyCode::KeyD, &ch("d")), KeyCode::KeyD);
        // German + and - (their own keys), and US shifted = (+).
        assert_eq!(
            command_code(KeyCode::BracketRight, &ch("+")),
            KeyCode::Equal
        );
        assert_eq!(command_code(KeyCode::Slash, &ch("-")), KeyCode::Minus);
        assert_eq!(command_code(KeyCode::Equal, &ch("+")), KeyCode::Equal);
        assert_eq!(command_code(KeyCode::Equal, &ch("=")), KeyCode::Equal);
        assert_eq!(
            command_code(KeyCode::NumpadAdd, &ch("+")),
            KeyCode::NumpadAdd
        );
        // German ß sits where a US keyboard has -: it is not slower.
        assert_ne!(command_code(KeyCode::Minus, &ch("ß")), KeyCode::Minus);
        // French digits type & é " ... - unshifted, Czech ones + ...: the key keeps its place.
        assert_eq!(command_code(KeyCode::Digit1, &ch("&")), KeyCode::Digit1);
        assert_eq!(command_code(KeyCode::Digit6, &ch("-")), KeyCode::Digit6);
        assert_eq!(command_code(KeyCode::Digit1, &ch("+")), KeyCode::Digit1);
        // German ´, a dead key where a US keyboard has =: not faster.
        assert_ne!(
            command_code(KeyCode::Equal, &Key::Dead(Some('´'))),
            KeyCode::Equal
        );
        // Every letter, and the numbers on the digit keys.
        for (c, code) in ('a'..='z').zip(LETTERS) {
            assert_eq!(command_code(code, &ch(&c.to_string())), code);
        }
        assert_eq!(digit(KeyCode::Digit1), Some(1));
        assert_eq!(digit(KeyCode::Numpad9), Some(9));
        assert_eq!(digit(KeyCode::Digit0), None);
        assert_eq!(digit(KeyCode::KeyA), None);
        // Non-Latin letters, named keys and unknown keys keep their place.
        assert_eq!(command_code(KeyCode::KeyZ, &ch("я")), KeyCode::KeyZ);
        assert_eq!(command_code(KeyCode::Escape, &Key::Escape), KeyCode::Escape);
        assert_eq!(
            command_code(
                KeyCode::KeyU,
                &Key::Unidentified(bevy::input::keyboard::NativeKey::Unidentified)
            ),
            KeyCode::KeyU
        );
    }

    /// An app reading keys, and the window entity its key messages come from.
    fn keys_app() -> (App, Entity) {
        let mut app = App::new();
        app.add_plugins(MinimalPlugins)
            .add_plugins(bevy::input::InputPlugin)
            .add_plugins(plugin);
        let w = app.world_mut().spawn_empty().id();
        (app, w)
    }

    /// A key message from window `w` (not yet read: `app.update()` reads it).
    fn write_key(
        app: &mut App,
        w: Entity,
        key_code: KeyCode,
        logical: Key,
        pressed: bool,
        repeat: bool,
    ) {
        app.world_mut().write_message(KeyboardInput {
            key_code,
            logical_key: logical,
            state: if pressed {
                ButtonState::Pressed
            } else {
                ButtonState::Released
            },
            text: None,
            repeat,
            window: w,
        });
    }

    #[test]
    fn a_held_step_key_counts_again_at_each_repeat_and_others_once() {
        let (mut app, w) = keys_app();
        let send = |app: &mut App, key_code, logical: Key, repeat: bool| {
            write_key(app, w, key_code, logical, true, repeat);
            app.update();
        };
        let presses = |app: &App| app.world().resource::<Keys>().presses(&STEP_KEYS);
        send(&mut app, KeyCode::ArrowRight, Key::ArrowRight, false);
        assert_eq!(presses(&app), [KeyCode::ArrowRight]);
        assert!(
            !app.world()
                .resource::<Keys>()
                .is_repeat(KeyCode::ArrowRight)
        );
        // A frame with no repeat: nothing.
        app.update();
        assert_eq!(presses(&app), []);
        send(&mut app, KeyCode::ArrowRight, Key::ArrowRight, true);
        assert_eq!(presses(&app), [KeyCode::ArrowRight]);
        assert!(
            app.world()
                .resource::<Keys>()
                .is_repeat(KeyCode::ArrowRight)
        );
        // Enter held: its repeats are no presses.
        send(&mut app, KeyCode::Enter, Key::Enter, false);
        assert_eq!(presses(&app), [KeyCode::Enter]);
        send(&mut app, KeyCode::Enter, Key::Enter, true);
        assert_eq!(presses(&app), []);
        // A German + (its own key) repeats as + does: read as when first pressed.
        send(
            &mut app,
            KeyCode::BracketRight,
            Key::Character("+".into()),
            false,
        );
        send(
            &mut app,
            KeyCode::BracketRight,
            Key::Character("+".into()),
            true,
        );
        assert_eq!(presses(&app), [KeyCode::Equal]);
        // In the order they came, each repeat counted: a held Right's two repeats, then Enter.
        for (code, logical, repeat) in [
            (KeyCode::ArrowRight, Key::ArrowRight, true),
            (KeyCode::ArrowRight, Key::ArrowRight, true),
            (KeyCode::Enter, Key::Enter, false),
        ] {
            write_key(&mut app, w, code, logical, true, repeat);
        }
        app.update();
        assert_eq!(
            presses(&app),
            [KeyCode::ArrowRight, KeyCode::ArrowRight, KeyCode::Enter]
        );
        // Only the keys asked for repeat.
        send(
            &mut app,
            KeyCode::BracketRight,
            Key::Character("+".into()),
            true,
        );
        assert_eq!(
            app.world()
                .resource::<Keys>()
                .presses(&[KeyCode::ArrowLeft]),
            []
        );
    }

    #[test]
    fn in_a_browser_on_a_mac_cmd_z_undoes_each_time_though_z_is_never_released() {
        let (mut app, w) = keys_app();
        let send = |app: &mut App, key_code, logical: Key, pressed: bool, repeat: bool| {
            write_key(app, w, key_code, logical, pressed, repeat);
            app.update();
        };
        let z = || Key::Character("z".into());
        let keys = |app: &App| {
            let k = app.world().resource::<Keys>();
            (k.just_pressed(KeyCode::KeyZ), k.pressed(KeyCode::KeyZ))
        };
        // Cmd down, Z down: Z counts once, and a held repeat does not count again.
        send(&mut app, KeyCode::SuperLeft, Key::Super, true, false);
        send(&mut app, KeyCode::KeyZ, z(), true, false);
        assert_eq!(keys(&app), (true, true));
        send(&mut app, KeyCode::KeyZ, z(), true, true);
        assert_eq!(keys(&app), (false, true));
        // Z pressed again with no release in between (a Mac sends none while Cmd is held).
        send(&mut app, KeyCode::KeyZ, z(), true, false);
        assert_eq!(keys(&app), (true, true), "the second Cmd+Z counts");
        // Cmd let go: Z is no longer held.
        send(&mut app, KeyCode::SuperLeft, Key::Super, false, false);
        assert_eq!(keys(&app), (false, false));
        // Z still held after all (a desktop): its repeats are not new presses.
        send(&mut app, KeyCode::KeyZ, z(), true, true);
        assert_eq!(keys(&app), (false, false));
        // A key pressed before Cmd, and Ctrl, stay held when Cmd is let go.
        let left = |app: &App| app.world().resource::<Keys>().pressed(KeyCode::ArrowLeft);
        send(&mut app, KeyCode::ArrowLeft, Key::ArrowLeft, true, false);
        send(&mut app, KeyCode::ControlLeft, Key::Control, true, false);
        send(&mut app, KeyCode::SuperLeft, Key::Super, true, false);
        send(&mut app, KeyCode::SuperLeft, Key::Super, false, false);
        assert!(app.world().resource::<Keys>().pressed(KeyCode::ControlLeft));
        assert!(left(&app));
        send(&mut app, KeyCode::ArrowLeft, Key::ArrowLeft, true, true);
        assert!(
            !app.world()
                .resource::<Keys>()
                .just_pressed(KeyCode::ArrowLeft)
        );
    }
}
