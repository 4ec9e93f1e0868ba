//! The keyboard in the overlay's windows: a window opening gives its first control the
//! keyboard, a scroll area follows the control that has it, and the keys scroll what a pointer
//! would (egui scrolls only by pointer).
use bevy_egui::egui;

/// What a window does with the keyboard when it opens.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum OnOpen {
    /// Its first control takes the keyboard, so Enter, Space and the arrows work on it at once
    /// (else Tab has to reach it first): the menus, the settings, the lists of kept games.
    FirstControl,
    /// No control has the keyboard, so the arrows scroll it (a long text, a wide table), and a
    /// control of a window under it (the menu's) is not pressed by an Enter meant for this one.
    Scroll,
}

/// Gives a window the keyboard as it opens ([`OnOpen`]); call at the start of its contents
/// each pass it is drawn. `name` names the window for good (its egui id changes with its title's
/// language and the windows' epoch). The first control's focus waits while Enter or Space is
/// down, and in a pass with a click: the key that opened the window would press that control
/// too (Enter on a Menu button reached with Tab closed the menu as it opened), and egui takes
/// the focus from a control when the pointer clicks elsewhere.
pub(crate) fn keyboard_on_open(ui: &egui::Ui, name: &str, on_open: OnOpen) {
    // A window's first pass only measures it (nothing in it takes the keyboard).
    if ui.is_sizing_pass() {
        return;
    }
    let ctx = ui.ctx();
    let id = egui::Id::new(("arachne-window-opened", name));
    let pass = ctx.cumulative_pass_nr();
    let now = ctx.input(|i| i.time);
    // The pass the window was last drawn in, and since when its focus is owed.
    let (last, owed) = ctx
        .data_mut(|d| d.get_temp::<(u64, Option<f64>)>(id))
        .map_or((None, None), |(l, o)| (Some(l), o));
    let opened = last.is_none_or(|l| l + 1 < pass);
    let owed = if opened { Some(now) } else { owed };
    // The first control waits for the keys and the pointer to be still; a text takes the
    // keyboard at once.
    let waits = owed.filter(|&since| {
        on_open == OnOpen::FirstControl
            && (pressing_keys_held(ctx, since)
                || ctx.input(|i| i.pointer.any_pressed() || i.pointer.any_released()))
    });
    if owed.is_some() && waits.is_none() {
        ctx.memory_mut(|m| {
            if let Some(focused) = m.focused() {
                m.surrender_focus(focused);
            }
            if on_open == OnOpen::FirstControl {
                m.move_focus(egui::FocusDirection::Next);
            }
        });
    }
    ctx.data_mut(|d| d.insert_temp(id, (pass, waits)));
}

/// How long (seconds) a key still down counts as held without a press (its own, or the
/// system's repeats of it) since `since`: longer than a system waits before repeating a key.
const KEY_DOWN_WAIT: f64 = 1.0;

/// Whether Enter or Space is held: pressed or let go in this pass, or down and pressed (or
/// repeated) within [`KEY_DOWN_WAIT`] of now or of `since` (when the window opened). A control
/// given the keyboard while one is held would be pressed by the key that opened its window, or
/// by its repeats. A key the system's window missed letting go of (the game was in the
/// background) stays down for egui, but is not pressed again: it holds nothing back for long.
pub(crate) fn pressing_keys_held(ctx: &egui::Context, since: f64) -> bool {
    let last_id = egui::Id::new("arachne-last-enter-or-space");
    let (now, pressed, released, down) = ctx.input(|i| {
        let keys = [egui::Key::Enter, egui::Key::Space];
        (
            i.time,
            keys.iter().any(|k| i.key_pressed(*k)),
            keys.iter().any(|k| i.key_released(*k)),
            keys.iter().any(|k| i.key_down(*k)),
        )
    });
    if pressed {
        ctx.data_mut(|d| d.insert_temp(last_id, now));
    }
    let last = ctx
        .data_mut(|d| d.get_temp::<f64>(last_id))
        .unwrap_or(f64::NEG_INFINITY);
    pressed || released || down && now - last.max(since) < KEY_DOWN_WAIT
}

/// Scrolls the control that has just taken the keyboard (by Tab or an arrow) into view, if it
/// lies in this scroll area: egui moves the keyboard to a control out of view and leaves it
/// there. Call at the end of the scroll area's contents. (What it followed is forgotten while
/// the area is not drawn: a window opened again follows its first control again.)
pub(crate) fn follow_focus(ui: &mut egui::Ui) {
    let key = ui.id().with("arachne-focus-followed");
    let pass = ui.ctx().cumulative_pass_nr();
    let focused = ui.memory(|m| m.focused());
    let followed = ui
        .data_mut(|d| d.get_temp::<(u64, Option<egui::Id>)>(key))
        .filter(|(last, _)| last + 1 >= pass)
        .and_then(|(_, id)| id);
    ui.data_mut(|d| d.insert_temp(key, (pass, focused)));
    let Some(id) = focused.filter(|f| Some(*f) != followed) else {
        return;
    };
    // Only a control of this scroll area's contents (their rectangle at the end of them).
    if let Some(control) = ui.ctx().read_response(id)
        && control.layer_id == ui.layer_id()
        && ui.min_rect().contains_rect(control.rect)
        && !ui.clip_rect().contains_rect(control.rect)
    {
        ui.scroll_to_rect(control.rect, None);
    }
}

/// Whether a control of the window `ui` is in has the keyboard (a control of another window
/// having it does not stop this one's arrows).
pub(crate) fn window_has_focus(ui: &egui::Ui) -> bool {
    ui.memory(|m| m.focused())
        .and_then(|f| ui.ctx().read_response(f))
        .is_some_and(|r| r.layer_id == ui.layer_id())
}

/// Page Up and Page Down (most of what shows) scroll the scroll area this is called in; Up and
/// Down (a line), Left and Right too while no control has the keyboard (else they move it from
/// control to control): egui scrolls only by pointer, and a long text (the rules, a score sheet)
/// would be out of a keyboard's reach.
pub(crate) fn keyboard_scroll(ui: &mut egui::Ui) {
    scroll_by_keys(ui, false);
}

/// [`keyboard_scroll`] for a second scroll area of a window (a score sheet's turn-by-turn story
/// below its grid): the same keys held with Shift, which [`keyboard_scroll`] leaves alone.
pub(crate) fn keyboard_scroll_shifted(ui: &mut egui::Ui) {
    scroll_by_keys(ui, true);
}

fn scroll_by_keys(ui: &mut egui::Ui, shifted: bool) {
    // (Shift's arrows never move the keyboard from control to control.)
    let arrows = shifted || !window_has_focus(ui);
    let page = ui.clip_rect().height() * 0.8;
    let keys = [
        (egui::Key::ArrowDown, egui::vec2(0.0, -40.0), true),
        (egui::Key::ArrowUp, egui::vec2(0.0, 40.0), true),
        (egui::Key::PageDown, egui::vec2(0.0, -page), false),
        (egui::Key::PageUp, egui::vec2(0.0, page), false),
        // A wide table (statistics, a score sheet on a phone) sideways.
        (egui::Key::ArrowRight, egui::vec2(-60.0, 0.0), true),
        (egui::Key::ArrowLeft, egui::vec2(60.0, 0.0), true),
    ];
    // Each press (or the system's repeat of it) with Shift as asked.
    let delta = ui.input(|i| {
        i.events
            .iter()
            .filter_map(|e| match e {
                egui::Event::Key {
                    key,
                    pressed: true,
                    modifiers,
                    ..
                } if modifiers.shift == shifted => keys
                    .iter()
                    .find(|(k, _, arrow)| k == key && (arrows || !arrow))
                    .map(|(_, d, _)| *d),
                _ => None,
            })
            .fold(egui::Vec2::ZERO, |sum, d| sum + d)
    });
    if delta != egui::Vec2::ZERO {
        ui.scroll_with_delta(delta);
    }
}

/// Whether the player is going through the overlay's controls by keyboard: a key was pressed
/// since the pointer last moved or pressed. Worked out once a pass (by whoever asks first: the
/// bars ask every pass). A hint shows for the keyboard's control only then ([`Hint`]), not for a
/// control a window gave the keyboard as it opened under the pointer.
///
/// [`Hint`]: crate::shell::widgets::Hint
pub(crate) fn keyboard_in_use(ctx: &egui::Context) -> bool {
    let id = egui::Id::new("arachne-keyboard-in-use");
    let pass = ctx.cumulative_pass_nr();
    let known = ctx.data_mut(|d| d.get_temp::<(u64, bool)>(id));
    if let Some((last, using)) = known
        && last == pass
    {
        return using;
    }
    let mut using = known.is_some_and(|(_, u)| u);
    ctx.input(|i| {
        if i.pointer.delta() != egui::Vec2::ZERO || i.pointer.any_pressed() {
            using = false;
        } else if i
            .events
            .iter()
            .any(|e| matches!(e, egui::Event::Key { pressed: true, .. }))
        {
            using = true;
        }
    });
    ctx.data_mut(|d| d.insert_temp(id, (pass, using)));
    using
}

/// The id under which [`ask_focus`] leaves its request.
fn focus_asked_id() -> egui::Id {
    egui::Id::new("arachne-focus-asked")
}

/// A control that just replaced itself by a question (statistics' Reset by "Reset? Yes No")
/// asks for the question's safe answer to take the keyboard ([`focus_once_asked`]): the
/// keyboard went with the control, and Tab began again at the window's first.
pub(crate) fn ask_focus(ui: &egui::Ui) {
    ui.data_mut(|d| d.insert_temp(focus_asked_id(), true));
}

/// Gives `control` the keyboard if [`ask_focus`] asked for it since.
pub(crate) fn focus_once_asked(ui: &egui::Ui, control: &egui::Response) {
    if ui
        .data_mut(|d| d.remove_temp::<bool>(focus_asked_id()))
        .unwrap_or(false)
    {
        control.request_focus();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shell::widgets::{fixed_window, scrolling};

    fn key(key: egui::Key, pressed: bool) -> egui::Event {
        egui::Event::Key {
            key,
            physical_key: None,
            pressed,
            repeat: false,
            modifiers: egui::Modifiers::NONE,
        }
    }

    /// A pass's input: `events` on an 800 by 600 screen, a pass each 1/30 s (so that a scroll's
    /// animation runs).
    fn input(ctx: &egui::Context, events: Vec<egui::Event>) -> egui::RawInput {
        egui::RawInput {
            events,
            time: Some(ctx.cumulative_pass_nr() as f64 / 30.0),
            screen_rect: Some(egui::Rect::from_min_size(
                egui::Pos2::ZERO,
                egui::vec2(800.0, 600.0),
            )),
            ..Default::default()
        }
    }

    /// What [`pass`] saw of its window of buttons (in a scroll area 200 points high, opened
    /// with [`keyboard_on_open`]): the buttons' ids, which were clicked, the scroll area's
    /// visible rectangle and the buttons' rectangles.
    struct Probe {
        ids: Vec<egui::Id>,
        clicked: Vec<usize>,
        visible: egui::Rect,
        rects: Vec<egui::Rect>,
    }

    fn pass(ctx: &egui::Context, show: bool, events: Vec<egui::Event>, buttons: usize) -> Probe {
        let mut probe = Probe {
            ids: Vec::new(),
            clicked: Vec::new(),
            visible: egui::Rect::NOTHING,
            rects: Vec::new(),
        };
        let output = ctx.run_ui(input(ctx, events), |ui| {
            if !show {
                return;
            }
            let ctx = ui.ctx().clone();
            fixed_window("A window", egui::Align2::CENTER_CENTER, egui::Vec2::ZERO).show(
                &ctx,
                |ui| {
                    keyboard_on_open(ui, "test", OnOpen::FirstControl);
                    scrolling(ui, 200.0, |ui| {
                        probe.visible = ui.clip_rect();
                        for i in 0..buttons {
                            let r = ui.button(format!("button {i}"));
                            if r.clicked() {
                                probe.clicked.push(i);
                            }
                            probe.ids.push(r.id);
                            probe.rects.push(r.rect);
                        }
                    });
                },
            );
        });
        output.drop_without_applying_deltas();
        probe
    }

    /// A window gives its first control the keyboard when it opens, and again each time it opens
    /// again; Tab then moves on from there as ever.
    #[test]
    fn a_window_gives_its_first_control_the_keyboard_when_it_opens() {
        let ctx = egui::Context::default();
        let focused = || ctx.memory(|m| m.focused());
        let mut p = pass(&ctx, true, Vec::new(), 2);
        for _ in 0..2 {
            p = pass(&ctx, true, Vec::new(), 2);
        }
        assert_eq!(focused(), Some(p.ids[0]), "the first control when it opens");
        pass(&ctx, true, vec![key(egui::Key::Tab, true)], 2);
        pass(&ctx, true, Vec::new(), 2);
        assert_eq!(
            focused(),
            Some(p.ids[1]),
            "Tab moves on, and it stays there"
        );
        pass(&ctx, false, Vec::new(), 2);
        for _ in 0..2 {
            pass(&ctx, true, Vec::new(), 2);
        }
        assert_eq!(focused(), Some(p.ids[0]), "opened again: the first again");
    }

    /// The Enter that opens a window (a Menu button pressed by keyboard) does not also press the
    /// window's first control: the keyboard comes to it once Enter is up, and the next Enter
    /// presses it.
    #[test]
    fn the_enter_that_opens_a_window_does_not_press_its_first_control() {
        let ctx = egui::Context::default();
        let focused = || ctx.memory(|m| m.focused());
        let enter = |down| vec![key(egui::Key::Enter, down)];
        // Enter goes down, and the window opens: its measuring pass, then its first drawn.
        let mut clicked = pass(&ctx, true, enter(true), 2).clicked;
        clicked.extend(pass(&ctx, true, Vec::new(), 2).clicked);
        // Held a while (the system repeats it), then let go.
        let repeat = egui::Event::Key {
            key: egui::Key::Enter,
            physical_key: None,
            pressed: true,
            repeat: true,
            modifiers: egui::Modifiers::NONE,
        };
        clicked.extend(pass(&ctx, true, vec![repeat], 2).clicked);
        assert_eq!(focused(), None, "no control while Enter is down");
        clicked.extend(pass(&ctx, true, enter(false), 2).clicked);
        let p = pass(&ctx, true, Vec::new(), 2);
        clicked.extend(p.clicked);
        assert!(clicked.is_empty(), "nothing pressed: {clicked:?}");
        assert_eq!(
            focused(),
            Some(p.ids[0]),
            "the first control once Enter is up"
        );
        let pressed = pass(&ctx, true, enter(true), 2).clicked;
        assert_eq!(pressed, vec![0], "the next Enter presses it");
        // Closed, and opened again by an Enter (its contents known already: no measuring pass).
        pass(&ctx, true, enter(false), 2);
        pass(&ctx, false, Vec::new(), 2);
        let mut clicked = pass(&ctx, true, enter(true), 2).clicked;
        clicked.extend(pass(&ctx, true, Vec::new(), 2).clicked);
        assert!(
            clicked.is_empty(),
            "nothing pressed when opened again: {clicked:?}"
        );
        pass(&ctx, true, enter(false), 2);
        let p = pass(&ctx, true, Vec::new(), 2);
        assert_eq!(
            focused(),
            Some(p.ids[0]),
            "the first control once Enter is up again"
        );
    }

    /// An Enter held down long after it opened a window (the system repeating it) presses
    /// nothing, however long; an Enter whose release never came (let go while the game was in
    /// the background) holds the focus back only a moment.
    #[test]
    fn a_held_enter_presses_nothing_and_a_lost_release_holds_nothing_back() {
        let ctx = egui::Context::default();
        let focused = || ctx.memory(|m| m.focused());
        let repeat = egui::Event::Key {
            key: egui::Key::Enter,
            physical_key: None,
            pressed: true,
            repeat: true,
            modifiers: egui::Modifiers::NONE,
        };
        // Passes come each 1/30 s: held for three seconds, repeated every 1/10 s after 1/2 s.
        let mut clicked = pass(&ctx, true, vec![key(egui::Key::Enter, true)], 2).clicked;
        for n in 1..90 {
            let events = if n >= 15 && n % 3 == 0 {
                vec![repeat.clone()]
            } else {
                Vec::new()
            };
            clicked.extend(pass(&ctx, true, events, 2).clicked);
        }
        assert!(clicked.is_empty(), "a held Enter pressed {clicked:?}");
        assert_eq!(focused(), None);
        pass(&ctx, true, vec![key(egui::Key::Enter, false)], 2);
        let p = pass(&ctx, true, Vec::new(), 2);
        assert_eq!(focused(), Some(p.ids[0]), "let go: the first control");
        // Shut; Enter goes down and its release is lost; the window opens again.
        pass(&ctx, false, vec![key(egui::Key::Enter, true)], 2);
        for _ in 0..60 {
            pass(&ctx, false, Vec::new(), 2);
        }
        let mut p = pass(&ctx, true, Vec::new(), 2);
        assert_eq!(focused(), None, "a moment");
        for _ in 0..40 {
            p = pass(&ctx, true, Vec::new(), 2);
        }
        assert_eq!(focused(), Some(p.ids[0]), "then the first control");
    }

    /// A window opened by a click (the bar's Menu button) gives its first control the keyboard
    /// too: egui takes the focus from a control when the pointer clicks elsewhere, so it is given
    /// a pass later.
    #[test]
    fn a_window_opened_by_a_click_gives_its_first_control_the_keyboard() {
        let ctx = egui::Context::default();
        let at = egui::pos2(5.0, 595.0);
        let button = |pressed| egui::Event::PointerButton {
            pos: at,
            button: egui::PointerButton::Primary,
            pressed,
            modifiers: egui::Modifiers::NONE,
        };
        pass(&ctx, false, vec![egui::Event::PointerMoved(at)], 2);
        pass(&ctx, true, vec![button(true)], 2);
        pass(&ctx, true, vec![button(false)], 2);
        let mut p = pass(&ctx, true, Vec::new(), 2);
        for _ in 0..2 {
            p = pass(&ctx, true, Vec::new(), 2);
        }
        assert_eq!(ctx.memory(|m| m.focused()), Some(p.ids[0]));
    }

    /// A long text's window (the rules) opened over a window whose control has the keyboard (the
    /// menu) takes the keyboard from it: the arrows scroll the text, and Enter presses nothing
    /// under it.
    #[test]
    fn a_text_opened_over_a_window_takes_the_keyboard_from_it() {
        let ctx = egui::Context::default();
        let menu_clicked = std::cell::RefCell::new(Vec::new());
        let line_top = std::cell::Cell::new(0.0_f32);
        let frame = |text: bool, events: Vec<egui::Event>| {
            let output = ctx.run_ui(input(&ctx, events), |ui| {
                let ctx = ui.ctx().clone();
                fixed_window("Menu", egui::Align2::CENTER_CENTER, egui::Vec2::ZERO).show(
                    &ctx,
                    |ui| {
                        keyboard_on_open(ui, "menu", OnOpen::FirstControl);
                        for i in 0..3 {
                            if ui.button(format!("menu {i}")).clicked() {
                                menu_clicked.borrow_mut().push(i);
                            }
                        }
                    },
                );
                if text {
                    fixed_window("Rules", egui::Align2::CENTER_CENTER, egui::Vec2::ZERO).show(
                        &ctx,
                        |ui| {
                            keyboard_on_open(ui, "rules", OnOpen::Scroll);
                            egui::ScrollArea::vertical()
                                .max_height(200.0)
                                .show(ui, |ui| {
                                    keyboard_scroll(ui);
                                    // Forty lines of text (a test's context has no font
                                    // to measure text by).
                                    for i in 0..40 {
                                        let (line, _) = ui.allocate_exact_size(
                                            egui::vec2(200.0, 18.0),
                                            egui::Sense::hover(),
                                        );
                                        if i == 0 {
                                            line_top.set(line.top());
                                        }
                                    }
                                });
                        },
                    );
                }
            });
            output.drop_without_applying_deltas();
        };
        for _ in 0..3 {
            frame(false, Vec::new());
        }
        assert!(
            ctx.memory(|m| m.focused()).is_some(),
            "the menu's first control"
        );
        for _ in 0..3 {
            frame(true, Vec::new());
        }
        assert_eq!(
            ctx.memory(|m| m.focused()),
            None,
            "the text took the keyboard"
        );
        let top = line_top.get();
        frame(true, vec![key(egui::Key::ArrowDown, true)]);
        frame(true, vec![key(egui::Key::ArrowDown, false)]);
        for _ in 0..30 {
            frame(true, Vec::new());
        }
        assert!(
            line_top.get() < top - 20.0,
            "Down scrolled the text: {} against {top}",
            line_top.get()
        );
        frame(true, vec![key(egui::Key::Enter, true)]);
        frame(true, vec![key(egui::Key::Enter, false)]);
        assert!(
            menu_clicked.borrow().is_empty(),
            "Enter pressed the menu: {:?}",
            menu_clicked.borrow()
        );
    }

    /// With a control holding the keyboard, the arrows move it from control to control and the
    /// scroll area follows it out of view; Page Down still scrolls.
    #[test]
    fn a_window_scrolls_to_the_control_with_the_keyboard_and_pages_still_scroll() {
        let ctx = egui::Context::default();
        let focused = || ctx.memory(|m| m.focused());
        let mut p = pass(&ctx, true, Vec::new(), 30);
        for _ in 0..3 {
            p = pass(&ctx, true, Vec::new(), 30);
        }
        assert_eq!(focused(), Some(p.ids[0]));
        assert!(p.visible.contains_rect(p.rects[0]));
        // Down, one control at a time, until the keyboard is on a control that was out of view.
        let last_seen = p
            .rects
            .iter()
            .rposition(|r| p.visible.contains_rect(*r))
            .unwrap();
        assert!(last_seen + 3 < 30, "the list must go on out of view");
        for _ in 0..last_seen + 2 {
            pass(&ctx, true, vec![key(egui::Key::ArrowDown, true)], 30);
            pass(&ctx, true, vec![key(egui::Key::ArrowDown, false)], 30);
        }
        for _ in 0..30 {
            p = pass(&ctx, true, Vec::new(), 30);
        }
        let at = p.ids.iter().position(|id| Some(*id) == focused());
        assert_eq!(
            at,
            Some(last_seen + 2),
            "the arrows moved the keyboard down"
        );
        assert!(
            p.visible.contains_rect(p.rects[last_seen + 2]),
            "scrolled to it: {:?} in {:?}",
            p.rects[last_seen + 2],
            p.visible
        );
        // Page Down scrolls although a control has the keyboard.
        let top = p.rects[0].top();
        pass(&ctx, true, vec![key(egui::Key::PageDown, true)], 30);
        for _ in 0..30 {
            p = pass(&ctx, true, Vec::new(), 30);
        }
        assert!(
            p.rects[0].top() < top - 50.0,
            "{} against {top}",
            p.rects[0].top()
        );
    }

    /// A window opened again with its first control scrolled out of view (Page Down, then
    /// closed) scrolls back to it: what it followed before is forgotten while it is shut.
    #[test]
    fn a_window_opened_again_shows_its_first_control() {
        let ctx = egui::Context::default();
        let mut p = pass(&ctx, true, Vec::new(), 30);
        for _ in 0..3 {
            p = pass(&ctx, true, Vec::new(), 30);
        }
        let first = p.ids[0];
        assert_eq!(ctx.memory(|m| m.focused()), Some(first));
        for _ in 0..2 {
            pass(&ctx, true, vec![key(egui::Key::PageDown, true)], 30);
        }
        for _ in 0..30 {
            p = pass(&ctx, true, Vec::new(), 30);
        }
        assert_eq!(ctx.memory(|m| m.focused()), Some(first));
        assert!(
            !p.visible.contains_rect(p.rects[0]),
            "Page Down scrolled it away"
        );
        pass(&ctx, false, Vec::new(), 30);
        for _ in 0..30 {
            p = pass(&ctx, true, Vec::new(), 30);
        }
        assert_eq!(ctx.memory(|m| m.focused()), Some(first));
        assert!(
            p.visible.contains_rect(p.rects[0]),
            "opened again on its first control, in view: {:?} in {:?}",
            p.rects[0],
            p.visible
        );
    }

    /// A control replaced by a question (statistics' Reset by "Yes / No") hands the keyboard to
    /// the question's safe answer; without it the keyboard went with the control.
    #[test]
    fn a_question_that_replaces_its_control_takes_the_keyboard() {
        let ctx = egui::Context::default();
        let mut asking = false;
        let mut no_id = None;
        let mut run = |ctx: &egui::Context, events: Vec<egui::Event>, asking: &mut bool| {
            let output = ctx.run_ui(input(ctx, events), |ui| {
                let ctx = ui.ctx().clone();
                fixed_window("Statistics", egui::Align2::CENTER_CENTER, egui::Vec2::ZERO).show(
                    &ctx,
                    |ui| {
                        keyboard_on_open(ui, "test-question", OnOpen::FirstControl);
                        if *asking {
                            let _ = ui.button("Yes");
                            let no = ui.button("No");
                            focus_once_asked(ui, &no);
                            no_id = Some(no.id);
                        } else if ui.button("Reset").clicked() {
                            *asking = true;
                            ask_focus(ui);
                        }
                    },
                );
            });
            output.drop_without_applying_deltas();
        };
        for _ in 0..3 {
            run(&ctx, Vec::new(), &mut asking);
        }
        run(&ctx, vec![key(egui::Key::Enter, true)], &mut asking);
        run(&ctx, vec![key(egui::Key::Enter, false)], &mut asking);
        assert!(asking, "Enter pressed Reset");
        run(&ctx, Vec::new(), &mut asking);
        assert!(no_id.is_some());
        assert_eq!(ctx.memory(|m| m.focused()), no_id, "No has the keyboard");
    }

    /// A second scroll area below a window's first (the score sheet's turn-by-turn story below
    /// its grid) scrolls by the keys held with Shift, and the first by the keys alone. (The
    /// keys scrolled only the grid before: the story could not be read back by keyboard.)
    #[test]
    fn a_second_scroll_area_scrolls_with_shift_and_the_first_without() {
        let ctx = egui::Context::default();
        let outer_top = std::cell::Cell::new(0.0_f32);
        let inner_top = std::cell::Cell::new(0.0_f32);
        let lines = |ui: &mut egui::Ui, n: usize, top: &std::cell::Cell<f32>| {
            for i in 0..n {
                let (line, _) =
                    ui.allocate_exact_size(egui::vec2(200.0, 18.0), egui::Sense::hover());
                if i == 0 {
                    top.set(line.top());
                }
            }
        };
        let frame = |events: Vec<egui::Event>| {
            let output = ctx.run_ui(input(&ctx, events), |ui| {
                let ctx = ui.ctx().clone();
                fixed_window("Sheet", egui::Align2::CENTER_CENTER, egui::Vec2::ZERO).show(
                    &ctx,
                    |ui| {
                        keyboard_on_open(ui, "sheet", OnOpen::Scroll);
                        egui::ScrollArea::vertical()
                            .id_salt("grid")
                            .max_height(200.0)
                            .show(ui, |ui| {
                                keyboard_scroll(ui);
                                lines(ui, 30, &outer_top);
                            });
                        egui::ScrollArea::vertical()
                            .id_salt("story")
                            .max_height(100.0)
                            .show(ui, |ui| {
                                keyboard_scroll_shifted(ui);
                                lines(ui, 30, &inner_top);
                            });
                    },
                );
            });
            output.drop_without_applying_deltas();
        };
        let shifted = |k: egui::Key, pressed: bool| egui::Event::Key {
            key: k,
            physical_key: None,
            pressed,
            repeat: false,
            modifiers: egui::Modifiers::SHIFT,
        };
        for _ in 0..3 {
            frame(Vec::new());
        }
        let (outer, inner) = (outer_top.get(), inner_top.get());
        frame(vec![shifted(egui::Key::PageDown, true)]);
        frame(vec![shifted(egui::Key::PageDown, false)]);
        for _ in 0..30 {
            frame(Vec::new());
        }
        assert_eq!(outer_top.get(), outer, "Shift+Page Down left the grid");
        assert!(
            inner_top.get() < inner - 20.0,
            "Shift+Page Down scrolled the story"
        );
        let (outer2, inner2) = (outer_top.get(), inner_top.get());
        frame(vec![key(egui::Key::PageDown, true)]);
        frame(vec![key(egui::Key::PageDown, false)]);
        for _ in 0..30 {
            frame(Vec::new());
        }
        assert!(
            outer_top.get() < outer2 - 20.0,
            "Page Down scrolled the grid"
        );
        assert_eq!(inner_top.get(), inner2, "Page Down left the story");
    }
}
