//! The overlay's small parts: its one font, painted icons, fixed windows, the bar's buttons,
//! and the words for times.
use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};

/// The overlay's one face, Ubuntu Light, for proportional and monospace text alike (the few
/// symbols it needs beyond Latin text are painted: see [`Icon`]).
pub fn font_definitions() -> egui::FontDefinitions {
    const FACE: &str = "Ubuntu-Light";
    let mut fonts = egui::FontDefinitions::empty();
    fonts.font_data.insert(
        FACE.to_owned(),
        std::sync::Arc::new(egui::FontData::from_static(
            epaint_default_fonts::UBUNTU_LIGHT,
        )),
    );
    for family in [egui::FontFamily::Proportional, egui::FontFamily::Monospace] {
        fonts.families.insert(family, vec![FACE.to_owned()]);
    }
    fonts
}

/// Gives egui its fonts once, on its first pass (they apply from the next one).
pub(crate) fn install_fonts(mut contexts: EguiContexts, mut done: Local<bool>) -> Result {
    if !*done {
        contexts.ctx_mut()?.set_fonts(font_definitions());
        *done = true;
    }
    Ok(())
}

/// The replay viewer's media symbols, painted rather than taken from an emoji font.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Icon {
    /// Bar, then two triangles pointing left.
    ToStart,
    /// One triangle pointing left.
    Back,
    /// One triangle pointing right.
    Play,
    /// Two bars.
    Pause,
    /// A triangle pointing right, then a bar.
    Forward,
    /// Two triangles pointing right, then a bar.
    ToEnd,
}

impl Icon {
    /// The icon's parts in a unit square (x right, y down): triangles as three points and
    /// bars as rectangles (min, max).
    pub fn parts(self) -> (Vec<[[f32; 2]; 3]>, Vec<[[f32; 2]; 2]>) {
        let right = |x0: f32, x1: f32| [[x0, 0.0], [x1, 0.5], [x0, 1.0]];
        let left = |x0: f32, x1: f32| [[x1, 0.0], [x1, 1.0], [x0, 0.5]];
        let bar = |x0: f32, x1: f32| [[x0, 0.0], [x1, 1.0]];
        match self {
            Icon::ToStart => (vec![left(0.2, 0.6), left(0.6, 1.0)], vec![bar(0.0, 0.16)]),
            Icon::Back => (vec![left(0.15, 0.85)], vec![]),
            Icon::Play => (vec![right(0.15, 0.85)], vec![]),
            Icon::Pause => (vec![], vec![bar(0.15, 0.4), bar(0.6, 0.85)]),
            Icon::Forward => (vec![right(0.05, 0.7)], vec![bar(0.76, 0.92)]),
            Icon::ToEnd => (vec![right(0.0, 0.4), right(0.4, 0.8)], vec![bar(0.84, 1.0)]),
        }
    }
}

/// A button showing `icon`, greyed out when not `enabled`.
/// A button showing `icon`.
pub fn icon_button(ui: &mut egui::Ui, icon: Icon, enabled: bool) -> egui::Response {
    let height = ui.spacing().interact_size.y;
    let response = ui.add_enabled(
        enabled,
        bar_button("").min_size(egui::vec2(height * 1.4, height)),
    );
    let colour = if enabled {
        ui.style().interact(&response).fg_stroke.color
    } else {
        ui.visuals().weak_text_color()
    };
    let side = height * 0.5;
    let square = egui::Rect::from_center_size(response.rect.center(), egui::vec2(side, side));
    let at = |[x, y]: [f32; 2]| square.lerp_inside(egui::vec2(x, y));
    let (triangles, bars) = icon.parts();
    let painter = ui.painter();
    for t in triangles {
        painter.add(egui::Shape::convex_polygon(
            t.map(at).to_vec(),
            colour,
            egui::Stroke::NONE,
        ));
    }
    for [min, max] in bars {
        painter.rect_filled(egui::Rect::from_min_max(at(min), at(max)), 0.0, colour);
    }
    response
}

/// A window of the overlay: fixed in place at `anchor`, neither collapsed nor resized.
pub(crate) fn fixed_window(
    title: impl Into<egui::WidgetText>,
    anchor: egui::Align2,
    offset: egui::Vec2,
) -> egui::Window<'static> {
    let title = title.into();
    let epoch = WINDOWS_EPOCH.load(std::sync::atomic::Ordering::Relaxed);
    let id = egui::Id::new(title.text()).with(("window", epoch));
    egui::Window::new(title)
        .id(id)
        .collapsible(false)
        .resizable(false)
        .anchor(anchor, offset)
}

/// The most a window's contents may be high for the window to stay inside the screen (its
/// title bar and margins take the rest).
pub(crate) fn fitting_height(ctx: &egui::Context) -> f32 {
    (ctx.content_rect().height() - 80.0).max(120.0)
}

/// The most a window's contents may be wide for the window to stay inside the screen (its
/// margins and a scroll bar take the rest).
pub(crate) fn fitting_width(ctx: &egui::Context) -> f32 {
    (ctx.content_rect().width() - 48.0).max(160.0)
}

/// Keeps a window's contents within [`fitting_width`]. Only ever narrower: a wider bound would
/// stretch the window's separators and scroll areas across a desktop screen.
pub(crate) fn keep_inside(ui: &mut egui::Ui) {
    let width = fitting_width(ui.ctx());
    if width < ui.max_rect().width() {
        ui.set_max_width(width);
    }
}

/// Below this screen width (a phone held upright) rows of buttons in windows wrap.
pub(crate) const NARROW_SCREEN: f32 = 640.0;

/// A row of a window: side by side, wrapping onto more rows on a narrow screen (a window as
/// wide as a phone's screen cannot hold them on one), or once the row has been seen wider than
/// the screen leaves it, at this screen width or a wider one (German's longer words on a small
/// tablet). A row is known by where it is called from.
///
/// egui never shrinks a window once grown, so when a row turns out too wide its windows are
/// made afresh ([`fixed_window`] takes [`WINDOWS_EPOCH`] into their ids) and laid out again
/// with the row wrapped.
#[track_caller]
pub(crate) fn row<R>(ui: &mut egui::Ui, add: impl FnOnce(&mut egui::Ui) -> R) -> R {
    let ctx = ui.ctx().clone();
    let screen = ctx.content_rect().width();
    let key = egui::Id::new(("row-wraps", std::panic::Location::caller()));
    // How wide the row may be: what the screen leaves a window's contents ([`scrolling`] says
    // where they start), less the row's indent in them (a grid's first column).
    let left = ctx
        .data(|d| d.get_temp::<f32>(contents_left()))
        .unwrap_or(ui.max_rect().left());
    let most = (fitting_width(&ctx) - (ui.cursor().min.x - left)).max(80.0);
    // The widest screen at which the row was found too wide: at that width or narrower it
    // wraps (a window dragged narrower does not make the windows afresh at every width).
    let too_wide_at = ctx.data(|d| d.get_temp::<f32>(key));
    if screen < NARROW_SCREEN || too_wide_at.is_some_and(|w| screen <= w) {
        return ui
            .scope(|ui| {
                ui.set_max_width(most.min(ui.available_width()));
                ui.horizontal_wrapped(add).inner
            })
            .inner;
    }
    let inner = ui.horizontal(add);
    if inner.response.rect.width() > most + 0.5 {
        ctx.data_mut(|d| d.insert_temp(key, too_wide_at.unwrap_or(0.0).max(screen)));
        WINDOWS_EPOCH.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        ctx.request_repaint();
    }
    inner.inner
}

/// Bumped when a [`row`] is found too wide: the windows take it into their ids, so egui makes
/// them afresh, at the size of their contents.
pub(crate) static WINDOWS_EPOCH: std::sync::atomic::AtomicU64 =
    std::sync::atomic::AtomicU64::new(0);

/// Where [`scrolling`] notes the left edge of the window's contents it shows, for [`row`].
fn contents_left() -> egui::Id {
    egui::Id::new("arachne-contents-left")
}

/// A row, wrapping onto more rows when `wrap`.
pub(crate) fn row_wrapping<R>(
    ui: &mut egui::Ui,
    wrap: bool,
    add: impl FnOnce(&mut egui::Ui) -> R,
) -> R {
    if wrap {
        ui.horizontal_wrapped(add).inner
    } else {
        ui.horizontal(add).inner
    }
}

/// A window's contents, scrolling where they are higher than `high` (a small window) and
/// sized to the contents otherwise. They are never wider than the screen leaves (a phone held
/// upright): text wraps, and rows of buttons wrap where they are laid out with [`row`].
pub(crate) fn scrolling<R>(
    ui: &mut egui::Ui,
    high: f32,
    add: impl FnOnce(&mut egui::Ui) -> R,
) -> R {
    keep_inside(ui);
    let left = ui.max_rect().left();
    ui.ctx().data_mut(|d| d.insert_temp(contents_left(), left));
    egui::ScrollArea::vertical()
        .max_height(high)
        .min_scrolled_height(high)
        .show(ui, |ui| {
            crate::shell::window_keys::keyboard_scroll(ui);
            let inner = add(ui);
            crate::shell::window_keys::follow_focus(ui);
            inner
        })
        .inner
}

/// A kept game's text to the clipboard: to keep as a file (`arachne-cli` reads it), or to
/// watch in another Arachne, a browser's included (whose kept games live in its storage). A
/// notice says it is copied; in the browser, once the page says so, or that it could not be
/// (`web::copy_text`).
pub(crate) fn copy_button(
    ui: &mut egui::Ui,
    notices: &mut crate::core::focus::Notices,
    text: impl FnOnce() -> String,
) {
    if ui
        .button(crate::core::i18n::t("replays.copy"))
        .hint(crate::core::i18n::t("replays.copy_hover"))
        .clicked()
    {
        copy(ui.ctx(), notices, "game", &text());
    }
}

/// The notice that says the text copied for `purpose` is on the clipboard: a theme's
/// (`theme`), else a kept game's.
pub(crate) fn copied_notice(purpose: &str) -> &'static str {
    crate::core::i18n::t(if purpose == "theme" {
        "studio.themes.copied"
    } else {
        "replays.copied"
    })
}

/// Puts `text` on the clipboard. On the desktop a notice says it is copied
/// ([`copied_notice`]); in the browser the page's answer says whether it is.
pub(crate) fn copy(
    ctx: &egui::Context,
    notices: &mut crate::core::focus::Notices,
    purpose: &str,
    text: &str,
) {
    #[cfg(target_arch = "wasm32")]
    {
        let _ = ctx;
        if let Err(e) = crate::web::copy_text(purpose, text) {
            notices.push(crate::core::i18n::tf(
                "web.copy_refused_why",
                &[("why", &e.to_string())],
            ));
        }
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        ctx.copy_text(text.to_string());
        notices.push(copied_notice(purpose));
    }
}

/// In the browser, a button that saves a kept game's (or a theme's) text as the file `name`
/// through the browser's download; nothing on the desktop, where the files are the player's
/// (the data directory) and Copy serves.
pub(crate) fn download_button(
    ui: &mut egui::Ui,
    notices: &mut crate::core::focus::Notices,
    name: impl FnOnce() -> String,
    text: impl FnOnce() -> String,
) {
    #[cfg(target_arch = "wasm32")]
    if ui
        .button(crate::core::i18n::t("replays.download"))
        .hint(crate::core::i18n::t("replays.download_hover"))
        .clicked()
        && let Err(e) = crate::web::download(&name(), &text())
    {
        notices.push(crate::core::i18n::tf(
            "replays.download_failed",
            &[("why", &e)],
        ));
    }
    #[cfg(not(target_arch = "wasm32"))]
    let _ = (ui, notices, name, text);
}

/// A box to paste a kept game's text into (one copied with [`copy_button`], a file's), and a
/// button to watch it; in the browser also a button to open a file (`purpose` tells its answer
/// from other windows'), on the desktop a file dropped on the window (`purpose` says which
/// window's it is); either is watched as soon as it is read. The title to watch it under
/// when one is chosen: the opened file's name, or `replays.pasted_title`.
pub(crate) fn paste_to_watch(
    ui: &mut egui::Ui,
    notices: &mut crate::core::focus::Notices,
    purpose: &str,
    text: &mut String,
) -> Option<String> {
    let mut watch = None;
    egui::CollapsingHeader::new(crate::core::i18n::t("replays.pasted")).show(ui, |ui| {
        let width = ui.available_width().min(fitting_width(ui.ctx()));
        ui.add(
            // (No more than a file opened may hold: a huge paste was laid out every frame.)
            egui::TextEdit::multiline(text)
                .char_limit(OPEN_LIMIT as usize)
                .desired_rows(3)
                .desired_width(width)
                .hint_text(crate::core::i18n::t("replays.paste_here")),
        );
        ui.horizontal(|ui| {
            if ui
                .add_enabled(
                    !text.trim().is_empty(),
                    egui::Button::new(crate::core::i18n::t("replays.watch_pasted")),
                )
                .clicked()
            {
                watch = Some(crate::core::i18n::t("replays.pasted_title").to_string());
            }
            open_file_button(ui, notices, purpose);
        });
    });
    if let Some((name, opened)) = opened_file(purpose) {
        *text = opened;
        watch = Some(name);
    }
    watch
}

/// In the browser, a button that asks for a file to open (`web::open_file`); its text comes
/// back through [`opened_file`] with `purpose`. On the desktop, where a file is dropped on the
/// game's window ([`crate::shell::dropped`]), a word that says so.
pub(crate) fn open_file_button(
    ui: &mut egui::Ui,
    notices: &mut crate::core::focus::Notices,
    purpose: &str,
) {
    #[cfg(target_arch = "wasm32")]
    if ui
        .button(crate::core::i18n::t("web.open_file"))
        .hint(crate::core::i18n::t("web.open_file_hover"))
        .clicked()
        && let Err(e) = crate::web::open_file(purpose)
    {
        notices.push(crate::core::i18n::tf(
            "web.open_refused",
            &[("why", &e.to_string())],
        ));
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        let _ = (notices, purpose);
        ui.weak(crate::core::i18n::t("drop.hint"));
    }
}

/// The file opened for `purpose` with [`open_file_button`] (its name and text), once it is
/// read; on the desktop, the file dropped on the game's window, if it is for this window
/// (`dropped::take`).
pub(crate) fn opened_file(purpose: &str) -> Option<(String, String)> {
    #[cfg(target_arch = "wasm32")]
    return crate::web::take_opened(purpose);
    #[cfg(not(target_arch = "wasm32"))]
    return crate::shell::dropped::take(purpose);
}

/// The largest file opened (the browser's Open file, `web::open_file`) or dropped on the
/// desktop's window (`dropped`): kept games and themes are a few kB; a file this large is not
/// one of them.
pub(crate) const OPEN_LIMIT: u64 = 4 << 20;

/// Why a file's text could not be read ([`read_text_file`]).
#[derive(Debug)]
pub(crate) enum TextFileError {
    /// It could not be opened or read.
    Io(std::io::Error),
    /// It holds more than [`OPEN_LIMIT`].
    TooLarge,
    /// It is not UTF-8 text.
    NotText,
}

/// A file's text as the game takes one in (a file dropped on the window, one the command line
/// names): never more than [`OPEN_LIMIT`] read (it may grow as it is read, or be `/dev/zero`),
/// UTF-8, without a byte-order mark (as Notepad writes one; it is not part of the text).
pub(crate) fn read_text_file(path: &std::path::Path) -> Result<String, TextFileError> {
    use std::io::Read;
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(OPEN_LIMIT + 1).read_to_end(&mut bytes))
        .map_err(TextFileError::Io)?;
    if bytes.len() as u64 > OPEN_LIMIT {
        return Err(TextFileError::TooLarge);
    }
    let text = String::from_utf8(bytes).map_err(|_| TextFileError::NotText)?;
    Ok(match text.strip_prefix('\u{feff}') {
        Some(rest) => rest.to_string(),
        None => text,
    })
}

/// What a text opened, dropped or pasted is, told from how it begins and the fields it has:
/// the player may bring one kind to another's window (a Pro Spider 10 game to Spider's
/// replays, a theme to either). A damaged text of a kind is still that kind (its parser then
/// says what is wrong, with the line).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum TextKind {
    /// A Spider replay: RON, `(` (or `Replay(`) with `variant:` and `moves:`.
    SpiderReplay,
    /// A Pro Spider 10 game's log: its first line `game: ...`.
    P10Game,
    /// A theme: RON, `(` with `face_border:` and `back_pattern:`.
    Theme,
    /// None of Arachne's.
    Other,
}

impl TextKind {
    /// What `text` is. (Blank lines, comments and RON's `#![enable(...)]` lines are passed
    /// over to the first line that says; a byte-order mark is passed over too.)
    pub(crate) fn of(text: &str) -> TextKind {
        let text = text.trim_start_matches('\u{feff}');
        let first = text
            .lines()
            .map(str::trim)
            .find(|l| !l.is_empty() && !l.starts_with('#') && !l.starts_with("//"))
            .unwrap_or("");
        let has = |field: &str| text.contains(&format!("{field}:"));
        let ron = first.starts_with('(') || first.starts_with("Replay(");
        if first
            .split_once(':')
            .is_some_and(|(key, _)| key.trim().eq_ignore_ascii_case("game"))
        {
            TextKind::P10Game
        } else if ron && has("variant") && has("moves") {
            TextKind::SpiderReplay
        } else if ron && has("face_border") && has("back_pattern") {
            TextKind::Theme
        } else {
            TextKind::Other
        }
    }

    /// What to tell a player who brought `text` to the window for `expected`, when it is
    /// another kind (the parser's own error says more when it is the right kind, with a fault).
    pub(crate) fn misplaced(text: &str, expected: TextKind) -> Option<String> {
        let kind = TextKind::of(text);
        (kind != expected).then(|| {
            crate::core::i18n::t(match kind {
                TextKind::SpiderReplay => "text.is_spider_replay",
                TextKind::P10Game => "text.is_p10_game",
                TextKind::Theme => "text.is_theme",
                TextKind::Other => "text.is_other",
            })
            .to_string()
        })
    }

    /// [`misplaced`](Self::misplaced) for the text in a window's box, which then leaves the
    /// box (it belongs elsewhere, and a stray file may be megabytes, laid out at every frame).
    pub(crate) fn take_misplaced(text: &mut String, expected: TextKind) -> Option<String> {
        let what = TextKind::misplaced(text, expected)?;
        text.clear();
        Some(what)
    }
}

/// Seconds as minutes and seconds, `m:ss`.
pub(crate) fn clock(secs: u64) -> String {
    format!("{}:{:02}", secs / 60, secs % 60)
}

/// A button of the bar. The mouse clicks it; the keyboard does not focus it, because on the
/// table Tab, the arrows, Enter and Space choose and move runs, and each button has its key.
pub fn bar_button<'a>(text: impl Into<egui::WidgetText>) -> egui::Button<'a> {
    egui::Button::new(text).sense(egui::Sense::CLICK)
}

/// A drop-down list the keyboard uses as the pointer does: an item chosen with Enter or Space
/// closes the list and gives the keyboard back to the list's button, where Tab goes on from.
/// (egui closes a list only at a pointer's click: the keyboard had to leave it with Esc, which
/// took the keyboard from every control, so the next Tab began again at the window's first.)
pub(crate) trait KeyboardList {
    /// `ComboBox::show_ui`, closed by a key that chose an item.
    fn show_list<R>(
        self,
        ui: &mut egui::Ui,
        items: impl FnOnce(&mut egui::Ui) -> R,
    ) -> egui::InnerResponse<Option<R>>;
}

impl KeyboardList for egui::ComboBox {
    fn show_list<R>(
        self,
        ui: &mut egui::Ui,
        items: impl FnOnce(&mut egui::Ui) -> R,
    ) -> egui::InnerResponse<Option<R>> {
        let shown = self.show_ui(ui, items);
        let list = &shown.response;
        // (egui's own id of a list's popup: the button's id with "popup".)
        let popup = list.id.with("popup");
        let ctx = ui.ctx();
        // Only a key on one of its items (the popup's layer): Tab goes on past them to the
        // window's next control, and the list stays open meanwhile.
        let on_item = ctx
            .memory(|m| m.focused())
            .and_then(|f| ctx.read_response(f))
            .is_some_and(|r| r.layer_id.id == popup);
        if shown.inner.is_some()
            && egui::Popup::is_id_open(ctx, popup)
            && on_item
            && ctx.input(|i| i.key_pressed(egui::Key::Enter) || i.key_pressed(egui::Key::Space))
        {
            egui::Popup::close_id(ctx, popup);
            list.request_focus();
        }
        shown
    }
}

/// A control's hint, shown while the pointer is over it (egui's tooltip) and also while it has
/// the keyboard of a player going through the controls by keyboard: egui shows tooltips on hover
/// only, so a keyboard player never read them.
pub(crate) trait Hint {
    /// `Response::on_hover_text`, shown too while the control has the keyboard.
    fn hint(self, text: impl Into<String>) -> Self;
}

impl Hint for egui::Response {
    fn hint(self, text: impl Into<String>) -> Self {
        let text: String = text.into();
        // (Not for a control scrolled out of its area's sight.)
        if self.has_focus()
            && self.interact_rect.is_positive()
            && crate::shell::window_keys::keyboard_in_use(&self.ctx)
        {
            self.show_tooltip_text(text);
            return self;
        }
        self.on_hover_text(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A pass of a window holding a drop-down list of three items (`chosen` the list's value)
    /// and a button after it; returns the list's button's id.
    fn list_pass(ctx: &egui::Context, events: Vec<egui::Event>, chosen: &mut usize) -> egui::Id {
        list_and_after(ctx, events, chosen).0
    }

    /// [`list_pass`], with the id of the button after the list too.
    fn list_and_after(
        ctx: &egui::Context,
        events: Vec<egui::Event>,
        chosen: &mut usize,
    ) -> (egui::Id, egui::Id) {
        let mut id = egui::Id::NULL;
        let mut after = egui::Id::NULL;
        let input = egui::RawInput {
            events,
            time: Some(ctx.cumulative_pass_nr() as f64 / 30.0),
            screen_rect: Some(egui::Rect::from_min_size(
                egui::Pos2::ZERO,
                egui::vec2(800.0, 600.0),
            )),
            ..Default::default()
        };
        let output = ctx.run_ui(input, |ui| {
            let ctx = ui.ctx().clone();
            egui::Window::new("list").title_bar(false).show(&ctx, |ui| {
                let shown = egui::ComboBox::from_id_salt("test-list")
                    .selected_text(format!("item {chosen}"))
                    .show_list(ui, |ui| {
                        for i in 0..3 {
                            ui.selectable_value(chosen, i, format!("item {i}"));
                        }
                    });
                id = shown.response.id;
                after = ui.button("after").id;
            });
        });
        output.drop_without_applying_deltas();
        (id, after)
    }

    fn key(key: egui::Key) -> Vec<egui::Event> {
        [true, false]
            .into_iter()
            .map(|pressed| egui::Event::Key {
                key,
                physical_key: None,
                pressed,
                repeat: false,
                modifiers: egui::Modifiers::NONE,
            })
            .collect()
    }

    /// An item chosen by keyboard closes the list and gives the keyboard back to the list's
    /// button (egui leaves the list open, and Esc then took the keyboard from every control).
    #[test]
    fn a_drop_down_list_chosen_by_keyboard_closes_and_keeps_the_keyboard() {
        let ctx = egui::Context::default();
        let mut chosen = 0;
        let id = list_pass(&ctx, Vec::new(), &mut chosen);
        let popup = id.with("popup");
        let focused = || ctx.memory(|m| m.focused());
        // Tab to the list, Enter opens it, Tab to its second item, Enter.
        list_pass(&ctx, key(egui::Key::Tab), &mut chosen);
        assert_eq!(focused(), Some(id));
        list_pass(&ctx, key(egui::Key::Enter), &mut chosen);
        list_pass(&ctx, Vec::new(), &mut chosen);
        assert!(egui::Popup::is_id_open(&ctx, popup), "Enter opens the list");
        // (The first Tab reaches the list's scroll area, the next ones its items.)
        for _ in 0..3 {
            list_pass(&ctx, key(egui::Key::Tab), &mut chosen);
        }
        assert_ne!(focused(), Some(id), "the keyboard is on an item");
        list_pass(&ctx, key(egui::Key::Enter), &mut chosen);
        list_pass(&ctx, Vec::new(), &mut chosen);
        assert_eq!(chosen, 1);
        assert!(!egui::Popup::is_id_open(&ctx, popup), "the list closed");
        assert_eq!(focused(), Some(id), "the list's button has the keyboard");
        // Open again, Tab past its items to the next control: Enter there is that control's,
        // and the keyboard stays on it.
        list_pass(&ctx, key(egui::Key::Enter), &mut chosen);
        list_pass(&ctx, Vec::new(), &mut chosen);
        assert!(egui::Popup::is_id_open(&ctx, popup));
        let mut after = egui::Id::NULL;
        for _ in 0..5 {
            after = list_and_after(&ctx, key(egui::Key::Tab), &mut chosen).1;
        }
        assert_eq!(focused(), Some(after), "Tab went past the items");
        list_pass(&ctx, key(egui::Key::Enter), &mut chosen);
        list_pass(&ctx, Vec::new(), &mut chosen);
        assert_eq!(
            focused(),
            Some(after),
            "the keyboard stayed on the next control"
        );
        assert_eq!(chosen, 1);
    }

    /// Each of Arachne's texts is told apart from the others and from a stray file, and a
    /// window is told when the text is another's.
    #[test]
    fn texts_are_told_apart_by_how_they_begin() {
        // As the game writes them, and a hand-written replay with its struct's name.
        let replay = arachne_engine::Replay::from_ron(
            "Replay(version: 1, variant: \"spider-4suit\", numbering: Kpat, seed: 1, \
             options: (discard: Automatic, undo_limit: None, scoring: Microsoft), \
             moves: [\"9>5:1\"])",
        )
        .expect("a replay")
        .to_ron();
        let named = "#![enable(implicit_some)]\nReplay(\n    version: 1,\n    variant: \"spider-4suit\",\n    moves: [],\n)\n";
        let game = "# kept by Arachne\n\nGame : pro-spider-10\nplayers: 3\nseed: 17\n";
        let theme = crate::core::theme::Theme::builtin("midnight")
            .expect("a built-in theme")
            .to_ron();
        // Damaged, each is still its kind: its parser tells what is wrong.
        let bad_theme = theme.replace("Dots", "Stripes");
        let bad_replay = replay.replace("version: 1", "version: 99");
        assert_eq!(TextKind::of(&replay), TextKind::SpiderReplay, "{replay}");
        assert_eq!(TextKind::of(named), TextKind::SpiderReplay);
        assert_eq!(TextKind::of(&bad_replay), TextKind::SpiderReplay);
        assert_eq!(TextKind::of(&bad_theme), TextKind::Theme, "{bad_theme}");
        assert!(crate::shell::studio::import_theme(&bad_theme).is_err());
        assert_eq!(TextKind::of(&format!("\u{feff}{game}")), TextKind::P10Game);
        let stray = "import sys\nprint(sys.argv)\n";
        assert_eq!(TextKind::of(game), TextKind::P10Game);
        assert_eq!(TextKind::of(&theme), TextKind::Theme);
        assert_eq!(TextKind::of(stray), TextKind::Other);
        assert_eq!(TextKind::of(""), TextKind::Other);
        assert_eq!(TextKind::misplaced(&replay, TextKind::SpiderReplay), None);
        assert_eq!(
            TextKind::misplaced(game, TextKind::SpiderReplay).as_deref(),
            Some(crate::core::i18n::t("text.is_p10_game"))
        );
        assert_eq!(
            TextKind::misplaced(&replay, TextKind::Theme).as_deref(),
            Some(crate::core::i18n::t("text.is_spider_replay"))
        );
        assert_eq!(
            TextKind::misplaced(stray, TextKind::P10Game).as_deref(),
            Some(crate::core::i18n::t("text.is_other"))
        );
    }

    /// Every file under `dir`, in its subfolders too.
    fn files_under(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
        let mut out = Vec::new();
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                out.extend(files_under(&path));
            } else {
                out.push(path);
            }
        }
        out
    }

    /// Every character beyond ASCII that the overlay can show: in the strings of our sources
    /// (comment lines left out) and in the variant files' names and descriptions.
    fn shown_characters() -> std::collections::BTreeSet<char> {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut chars = std::collections::BTreeSet::new();
        for dir in ["src", "levels"] {
            for path in files_under(&root.join(dir)) {
                let text = std::fs::read_to_string(path).unwrap();
                for line in text.lines() {
                    if !line.trim_start().starts_with("//") {
                        chars.extend(line.chars().filter(|c| !c.is_ascii()));
                    }
                }
            }
        }
        chars
    }

    #[test]
    fn the_one_font_has_every_character_the_overlay_writes() {
        use skrifa::MetadataProvider;
        let defs = font_definitions();
        let face = &defs.font_data["Ubuntu-Light"];
        let charmap = skrifa::FontRef::new(&face.font).unwrap().charmap();
        let shown = shown_characters();
        assert!(shown.contains(&'…'), "the scan finds the sources' strings");
        let missing: Vec<char> = shown
            .iter()
            .copied()
            .filter(|&c| charmap.map(c).is_none())
            .collect();
        assert!(missing.is_empty(), "not in Ubuntu Light: {missing:?}");
        // And the check itself can fail: the old pause symbol is not in the face.
        assert!(charmap.map('\u{23F8}').is_none());
        assert!(charmap.map('A').is_some());
    }

    #[test]
    fn icons_stay_in_their_square_and_differ() {
        let all = [
            Icon::ToStart,
            Icon::Back,
            Icon::Play,
            Icon::Pause,
            Icon::Forward,
            Icon::ToEnd,
        ];
        let mut seen = Vec::new();
        for icon in all {
            let (triangles, bars) = icon.parts();
            assert!(
                !triangles.is_empty() || !bars.is_empty(),
                "{icon:?} is empty"
            );
            let points = triangles.iter().flatten().chain(bars.iter().flatten());
            for &[x, y] in points {
                assert!(
                    (0.0..=1.0).contains(&x) && (0.0..=1.0).contains(&y),
                    "{icon:?}"
                );
            }
            for [min, max] in &bars {
                assert!(min[0] < max[0] && min[1] < max[1], "{icon:?}: an empty bar");
            }
            let shape = format!("{:?}", icon.parts());
            assert!(!seen.contains(&shape), "{icon:?} looks like another icon");
            seen.push(shape);
        }
    }
}
