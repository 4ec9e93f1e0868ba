//! The pointer as both games see it: the mouse or the first finger, in world coordinates
//! (origin at the window's centre, y up), and touch support without Bevy's `touch` feature.
use bevy::input::touch::{TouchInput, Touches};
use bevy::prelude::*;
use bevy::window::PrimaryWindow;

pub(crate) fn plugin(app: &mut App) {
    touch_support(app);
    // (Headless runs have no window plugin to register the cursor's messages.)
    if !app
        .world()
        .contains_resource::<bevy::ecs::message::Messages<CursorMoved>>()
    {
        app.add_message::<CursorMoved>();
    }
    app.init_resource::<LastCursor>()
        .add_systems(PreUpdate, remember_cursor.after(bevy::input::InputSystems));
}

/// Where the mouse was last seen over the primary window (window coordinates). A click is
/// where the mouse was even when the window no longer reports it in the click's frame:
/// WebKit tells the page the mouse left after every button release, so a press and release
/// landing in one frame (a slow frame, a quick click) came with no position, and the click
/// was lost; a drag's release came with none, and the card went home.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq)]
#[component(clone_behavior = Ignore)]
pub struct LastCursor(pub Option<Vec2>);

fn remember_cursor(
    mut moved: MessageReader<CursorMoved>,
    windows: Query<&Window, With<PrimaryWindow>>,
    mut last: ResMut<LastCursor>,
) {
    if let Some(m) = moved.read().last() {
        last.0 = Some(m.position);
    }
    if let Some(p) = windows.single().ok().and_then(Window::cursor_position) {
        last.0 = Some(p);
    }
}

/// The pointer as the table sees it: the mouse, or the first finger on a touch screen (a tap
/// is a click, a drag with a finger is a drag).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PointerState {
    /// Where it is, in world coordinates (origin at the window's centre, y up).
    pub at: Option<Vec2>,
    /// Pressed this frame.
    pub just_pressed: bool,
    /// Let go of this frame (with `just_pressed`: a click's release and the next press in one
    /// frame, or a finger lifted and another placed).
    pub just_released: bool,
    /// Held down.
    pub pressed: bool,
}

/// Reads the first touch if a finger is (or was just) on the screen, else the mouse. In a
/// frame where the left button went down or up, the mouse is where it was last seen if the
/// window no longer reports it ([`LastCursor`]).
pub fn pointer_state(
    window: &Window,
    buttons: &ButtonInput<MouseButton>,
    touches: Option<&Touches>,
    last: &LastCursor,
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
                just_released: t.any_just_released(),
                pressed: down,
            };
        }
    }
    let clicked =
        buttons.just_pressed(MouseButton::Left) || buttons.just_released(MouseButton::Left);
    PointerState {
        at: pointer(window).or(last.0.filter(|_| clicked).map(to_world)),
        just_pressed: buttons.just_pressed(MouseButton::Left),
        just_released: buttons.just_released(MouseButton::Left),
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
