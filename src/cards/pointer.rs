//! The pointer as both games see it: the mouse or the first finger, in world coordinates
//! (origin at the window's centre, y up), and touch support without Bevy's `touch` feature.
use bevy::input::touch::{TouchInput, Touches};
use bevy::prelude::*;
use bevy::window::PrimaryWindow;

pub(crate) fn plugin(app: &mut App) {
    touch_support(app);
}

/// The pointer as the table sees it: the mouse, or the first finger on a touch screen (a tap
/// is a click, a drag with a finger is a drag).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PointerState {
    /// Where it is, in world coordinates (origin at the window's centre, y up).
    pub at: Option<Vec2>,
    /// Pressed this frame.
    pub just_pressed: bool,
    /// Held down.
    pub pressed: bool,
}

/// Reads the first touch if a finger is (or was just) on the screen, else the mouse.
pub fn pointer_state(
    window: &Window,
    buttons: &ButtonInput<MouseButton>,
    touches: Option<&Touches>,
) -> PointerState {
    let to_world = |p: Vec2| Vec2::new(p.x - window.width() / 2.0, window.height() / 2.0 - p.y);
    if let Some(t) = touches {
        let finger = t
            .iter()
            .next()
            .map(|f| (f.position(), true))
            .or_else(|| t.iter_just_released().next().map(|f| (f.position(), false)));
        if let Some((at, down)) = finger {
            return PointerState {
                at: Some(to_world(at)),
                just_pressed: t.any_just_pressed(),
                pressed: down,
            };
        }
    }
    PointerState {
        at: pointer(window),
        just_pressed: buttons.just_pressed(MouseButton::Left),
        pressed: buttons.pressed(MouseButton::Left),
    }
}

/// Touch input without Bevy's `touch` feature (which would rebuild all of Bevy): its types
/// are there with `mouse`, and bevy_winit sends `TouchInput` messages; register them here.
fn touch_support(app: &mut App) {
    if !app.world().contains_resource::<Touches>() {
        app.add_message::<TouchInput>()
            .init_resource::<Touches>()
            .add_systems(
                PreUpdate,
                bevy::input::touch::touch_screen_input_system.in_set(bevy::input::InputSystems),
            );
    }
}

/// The world position of the pointer, if it is in the window.
pub fn pointer(window: &Window) -> Option<Vec2> {
    let p = window.cursor_position()?;
    Some(Vec2::new(
        p.x - window.width() / 2.0,
        window.height() / 2.0 - p.y,
    ))
}

/// The primary window's size (1280x720 when there is none: headless runs).
pub fn window_size(window: &Query<&Window, With<PrimaryWindow>>) -> Vec2 {
    window
        .single()
        .map(|w| Vec2::new(w.width(), w.height()))
        .unwrap_or(Vec2::new(1280.0, 720.0))
}
