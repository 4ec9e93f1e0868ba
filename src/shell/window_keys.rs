//! The keyboard in the overlay's windows: a window opening gives its first control the
//! keyboard, a scroll area follows the control that has it, and the keys scroll what a pointer
//! would (egui scrolls only by pointer).
use bevy_egui::egui;

/// Gives the keyboard to a window's first control when the window opens, so Enter, Space and
/// the arrows work on it at once (else Tab has to reach it first). Call at the start of the
/// window's contents. The focus waits while Enter or Space is down: the key that opened the
/// window would otherwise press its first control too (Enter on a Menu button reached with Tab
/// closed the menu as it opened).
pub(crate) fn focus_first_on_open(ui: &egui::Ui) {
    // A window's first pass only measures it (nothing in it takes the keyboard).
    if ui.is_sizing_pass() {
        return;
    }
    let ctx = ui.ctx();
    let id = ui.layer_id().id.with("arachne-focus-on-open");
    let pass = ctx.cumulative_pass_nr();
    // The pass the window was last drawn in, and whether its focus is still owed.
    let (last, owed) = ctx
        .data_mut(|d| d.get_temp::<(u64, bool)>(id))
        .map_or((None, false), |(l, o)| (Some(l), o));
    let opened = last.is_none_or(|l| l + 1 < pass);
    let held = ctx.input(|i| {
        [egui::Key::Enter, egui::Key::Space]
            .iter()
            .any(|k| i.key_down(*k) || i.key_pressed(*k) || i.key_released(*k))
    });
    let give = (opened || owed) && !held;
    ctx.data_mut(|d| d.insert_temp(id, (pass, (opened || owed) && !give)));
    if give {
        ctx.memory_mut(|m| {
            if let Some(focused) = m.focused() {
                m.surrender_focus(focused);
            }
            m.move_focus(egui::FocusDirection::Next);
        });
    }
}

/// Scrolls the control that has just taken the keyboard (by Tab or an arrow) into view, if it
/// lies in this scroll area: egui moves the keyboard to a control out of view and leaves it
/// there. Call at the end of the scroll area's contents.
pub(crate) fn follow_focus(ui: &mut egui::Ui) {
    let key = ui.id().with("arachne-focus-followed");
    let focused = ui.memory(|m| m.focused());
    let followed = ui
        .data_mut(|d| d.get_temp::<Option<egui::Id>>(key))
        .flatten();
    ui.data_mut(|d| d.insert_temp(key, focused));
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

/// Page Up and Page Down (most of what shows) scroll the scroll area this is called in; Up and
/// Down (a line), Left and Right too while no control has the keyboard (else they move it from
/// control to control): egui scrolls only by pointer, and a long text (the rules, a score sheet)
/// would be out of a keyboard's reach.
pub(crate) fn keyboard_scroll(ui: &mut egui::Ui) {
    let arrows = ui.memory(|m| m.focused().is_none());
    let page = ui.clip_rect().height() * 0.8;
    let delta = ui.input(|i| {
        [
            (egui::Key::ArrowDown, egui::vec2(0.0, -40.0), true),
            (egui::Key::ArrowUp, egui::vec2(0.0, 40.0), true),
            (egui::Key::PageDown, egui::vec2(0.0, -page), false),
            (egui::Key::PageUp, egui::vec2(0.0, page), false),
            // A wide table (statistics, a score sheet on a phone) sideways.
            (egui::Key::ArrowRight, egui::vec2(-60.0, 0.0), true),
            (egui::Key::ArrowLeft, egui::vec2(60.0, 0.0), true),
        ]
        .iter()
        .filter(|(k, _, arrow)| (arrows || !arrow) && i.key_pressed(*k))
        .fold(egui::Vec2::ZERO, |sum, (_, d, _)| sum + *d)
    });
    if delta != egui::Vec2::ZERO {
        ui.scroll_with_delta(delta);
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

    /// A window of `buttons` buttons in a scroll area `high` points high, opened with
    /// [`focus_first_on_open`] when `show`; returns the buttons' ids, which were clicked, and
    /// the scroll area's visible rectangle and the buttons' rectangles.
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
        let input = egui::RawInput {
            events,
            // A pass each 1/30 s, so that a scroll's animation runs.
            time: Some(ctx.cumulative_pass_nr() as f64 / 30.0),
            screen_rect: Some(egui::Rect::from_min_size(
                egui::Pos2::ZERO,
                egui::vec2(800.0, 600.0),
            )),
            ..Default::default()
        };
        let output = ctx.run_ui(input, |ui| {
            if !show {
                return;
            }
            let ctx = ui.ctx().clone();
            fixed_window("A window", egui::Align2::CENTER_CENTER, egui::Vec2::ZERO).show(
                &ctx,
                |ui| {
                    focus_first_on_open(ui);
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
}
