//! The egui overlay: the in-game bar (or the replay viewer's controls), the menu, statistics,
//! settings, replays and help windows, questions and notices. The table ignores the pointer
//! and keys while egui wants them or a window is open.
use std::sync::atomic::Ordering;

use arachne_engine::{DiscardMode, Numbering, variant};
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPlugin, EguiPrimaryContextPass, egui, input::EguiWantsInput};

use crate::assist::{Ask, Notices, Outlook, Thinking};
use crate::input::{AskHint, Highlights, TableInput};
use crate::layout::Layout;
use crate::persist::{self, Saves, Statistics};
use crate::playback::{Control, Playback, SPEEDS, open_replay};
use crate::settings::{Easing, Settings, UndoLimit};
use crate::table::{GameRecord, GameSpec, PendingConfirm, Request, Table, Watching};
use crate::theme::{BUILTIN_THEMES, BackPattern, Theme};

pub(super) fn plugin(app: &mut App) {
    app.add_plugins((EguiPlugin::default(), crate::won::plugin))
        .init_resource::<Windows>()
        .insert_resource(TableInput(true))
        .add_systems(
            PreUpdate,
            share_pointer.after(bevy_egui::EguiPreUpdateSet::ProcessInput),
        )
        .add_systems(Update, window_keys.before(crate::AppSystems::Input))
        .add_systems(
            EguiPrimaryContextPass,
            (
                install_fonts,
                stock_label,
                bar,
                menu,
                statistics,
                settings_window,
                replays,
                help,
                win_message,
                confirm,
                notices,
            )
                .chain(),
        );
}

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
fn install_fonts(mut contexts: EguiContexts, mut done: Local<bool>) -> Result {
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
fn icon_button(ui: &mut egui::Ui, icon: Icon, enabled: bool) -> egui::Response {
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

/// Which windows are open, and the menu's form.
#[derive(Resource, Debug, Clone)]
pub struct Windows {
    /// The main menu.
    pub menu: bool,
    /// Statistics.
    pub stats: bool,
    /// Settings.
    pub settings: bool,
    /// Saved replays.
    pub replays: bool,
    /// Rules and help.
    pub help: bool,
    /// The win message (see `won.rs`).
    pub won: bool,
    /// The variant chosen in the menu.
    pub variant: String,
    /// The deal number typed in the menu.
    pub seed: String,
    /// KPatience numbering.
    pub kpat: bool,
    /// The variant whose statistics are about to be reset (asking first).
    pub reset_stats: Option<String>,
    /// The saved replays, read when the window opens.
    saved: Option<Vec<persist::SavedReplay>>,
}

impl Default for Windows {
    fn default() -> Windows {
        Windows {
            menu: false,
            stats: false,
            settings: false,
            replays: false,
            help: false,
            won: false,
            variant: "spider-2suit".into(),
            seed: String::new(),
            kpat: false,
            reset_stats: None,
            saved: None,
        }
    }
}

impl Windows {
    /// Opens one window by name (`menu`, `stats`, `settings`, `replays`, `help`, `won`); false if the
    /// name is unknown. The menu opens on the variant of the table being played, the replays
    /// window reads the saved replays afresh.
    pub fn open(&mut self, name: &str, table: &Table) -> bool {
        match name {
            "menu" => {
                self.menu = true;
                self.variant = table.spec.variant.id.clone();
            }
            "stats" | "statistics" => self.stats = true,
            "settings" => self.settings = true,
            "replays" => {
                self.replays = true;
                self.saved = None;
            }
            "help" | "rules" => self.help = true,
            // The win message, for a table that is won (a capture of a won game).
            "won" => self.won = table.game.is_won(),
            _ => return false,
        }
        true
    }

    fn any(&self) -> bool {
        self.menu || self.stats || self.settings || self.replays || self.help || self.won
    }
}

/// Window names `Windows::open` knows.
pub const WINDOW_NAMES: &[&str] = &["menu", "stats", "settings", "replays", "help", "won"];

fn share_pointer(
    wants: Option<Res<EguiWantsInput>>,
    windows: Res<Windows>,
    pending: Res<PendingConfirm>,
    mut input: ResMut<TableInput>,
    mut overlay: ResMut<crate::table::OverlayOpen>,
    mut on_overlay: ResMut<crate::input::PointerOnOverlay>,
) {
    let open = windows.any() || pending.0.is_some();
    let pointer = wants.as_ref().is_some_and(|w| w.wants_any_pointer_input());
    on_overlay.set_if_neq(crate::input::PointerOnOverlay(pointer));
    let busy =
        open || wants.is_some_and(|w| w.wants_any_pointer_input() || w.wants_any_keyboard_input());
    input.set_if_neq(TableInput(!busy));
    // A window or question over the table stops the game's clock; the pointer over the bar
    // does not.
    overlay.set_if_neq(crate::table::OverlayOpen(open));
}

/// Esc opens and closes the menu (or closes the window on top); F1 opens the help.
fn window_keys(
    keys: Res<ButtonInput<KeyCode>>,
    mut windows: ResMut<Windows>,
    table: Res<Table>,
    playback: Option<Res<Playback>>,
    mut pending: ResMut<PendingConfirm>,
) {
    if keys.just_pressed(KeyCode::F1) {
        windows.help = !windows.help;
    }
    if !keys.just_pressed(KeyCode::Escape) {
        return;
    }
    if pending.0.is_some() {
        pending.0 = None;
    } else if windows.reset_stats.is_some() {
        windows.reset_stats = None;
    } else if windows.settings || windows.stats || windows.replays || windows.help || windows.won {
        windows.settings = false;
        windows.stats = false;
        windows.replays = false;
        windows.help = false;
        windows.won = false;
    } else if playback.is_some_and(|p| p.kind.watching()) && !windows.menu {
        // The viewer closes with Esc (its own key handler).
    } else if windows.menu {
        windows.menu = false;
    } else {
        windows.open("menu", &table);
    }
}

/// A window of the overlay: fixed in place at `anchor`, neither collapsed nor resized.
pub(crate) fn fixed_window(
    title: impl Into<egui::WidgetText>,
    anchor: egui::Align2,
    offset: egui::Vec2,
) -> egui::Window<'static> {
    egui::Window::new(title)
        .collapsible(false)
        .resizable(false)
        .anchor(anchor, offset)
}

/// Seconds as minutes and seconds, `m:ss`.
pub(crate) fn clock(secs: u64) -> String {
    format!("{}:{:02}", secs / 60, secs % 60)
}

/// `n` with the noun that fits it: "1 move", "2 moves".
pub(crate) fn count(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// "N deals left" above the stock, ending at its right edge (so Huge Spider's stays inside the
/// window). Beneath every window, and never in the pointer's way.
fn stock_label(
    mut contexts: EguiContexts,
    layout: Option<Res<Layout>>,
    table: Res<Table>,
    theme: Res<Theme>,
    window: Query<&Window, With<bevy::window::PrimaryWindow>>,
) -> Result {
    let (Some(layout), Ok(window)) = (layout, window.single()) else {
        return Ok(());
    };
    let ctx = contexts.ctx_mut()?;
    let text = match table.game.position().deals_left() {
        0 => "stock empty".to_string(),
        1 => "1 deal left".to_string(),
        n => format!("{n} deals left"),
    };
    // The layout's origin is the window's centre, y up; egui's is its top left, y down.
    let at = egui::pos2(
        layout.stock.x + layout.card.x / 2.0 + window.width() / 2.0,
        window.height() / 2.0 - (layout.stock.y + layout.card.y / 2.0 + 12.0),
    );
    let [r, g, b, _] = theme.text.to_srgba().to_u8_array();
    egui::Area::new(egui::Id::new("stock-label"))
        .order(egui::Order::Background)
        .fixed_pos(at)
        .pivot(egui::Align2::RIGHT_CENTER)
        .interactable(false)
        .show(ctx, |ui| {
            ui.style_mut().wrap_mode = Some(egui::TextWrapMode::Extend);
            ui.label(
                egui::RichText::new(text)
                    .size(15.0)
                    .color(egui::Color32::from_rgb(r, g, b)),
            );
        });
    Ok(())
}

fn bar(
    mut contexts: EguiContexts,
    table: Res<Table>,
    record: Res<GameRecord>,
    highlights: Res<Highlights>,
    outlook: Res<Outlook>,
    thinking: Option<Res<Thinking>>,
    playback: Option<Res<Playback>>,
    window: Query<&Window, With<bevy::window::PrimaryWindow>>,
    mut windows: ResMut<Windows>,
    mut requests: MessageWriter<Request>,
    mut hints: MessageWriter<AskHint>,
    mut asks: MessageWriter<Ask>,
    mut controls: MessageWriter<Control>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    // With no window open the keyboard belongs to the table: a widget focused in a window
    // that has closed must not take Enter or Space.
    if !windows.any() {
        ctx.memory_mut(|m| {
            if let Some(id) = m.focused() {
                m.surrender_focus(id);
            }
        });
    }
    // The table leaves the bar a band as tall as its rows (`layout::bar`): one row in a wide
    // window, the facts above the buttons in a narrow one.
    let one_row = window
        .single()
        .map_or(true, |w| crate::layout::bar::one_row(w.width()));
    egui::Area::new(egui::Id::new("bar"))
        .anchor(egui::Align2::CENTER_BOTTOM, egui::vec2(0.0, -6.0))
        .show(ctx, |ui| {
            egui::Frame::popup(ui.style()).show(ui, |ui| {
                // Rows that grow with their text (a narrow first frame must not wrap them).
                ui.style_mut().wrap_mode = Some(egui::TextWrapMode::Extend);
                if let Some(p) = playback.as_deref().filter(|p| p.kind.watching()) {
                    viewer_controls(ui, p, &mut controls);
                    return;
                }
                let mut buttons = |ui: &mut egui::Ui| {
                    bar_controls(
                        ui,
                        &table,
                        &highlights,
                        &outlook,
                        thinking.as_deref(),
                        playback.as_deref(),
                        &mut windows,
                        (&mut requests, &mut hints, &mut asks, &mut controls),
                    )
                };
                if one_row {
                    ui.horizontal(|ui| {
                        bar_facts(ui, &table, &record, &outlook);
                        ui.separator();
                        buttons(ui);
                    });
                } else {
                    ui.vertical_centered(|ui| {
                        ui.horizontal(|ui| bar_facts(ui, &table, &record, &outlook));
                        ui.horizontal(|ui| buttons(ui));
                    });
                }
            });
        });
    Ok(())
}

/// The bar's facts: variant, deal, score, moves, time, and whether the game can still be won.
fn bar_facts(ui: &mut egui::Ui, table: &Table, record: &GameRecord, outlook: &Outlook) {
    let game = &table.game;
    ui.label(format!(
        "{} · deal {}  ·  score {}  ·  moves {}  ·  time {}",
        table.spec.variant.name,
        table.spec.seed,
        game.score(),
        game.move_count(),
        clock(record.clock()),
    ));
    ui.separator();
    if game.is_won() {
        ui.colored_label(egui::Color32::from_rgb(90, 200, 110), "won!");
    } else {
        outlook_label(ui, outlook);
    }
}

/// The bar's buttons, or what a running search or auto-complete offers instead.
fn bar_controls(
    ui: &mut egui::Ui,
    table: &Table,
    highlights: &Highlights,
    outlook: &Outlook,
    thinking: Option<&Thinking>,
    playback: Option<&Playback>,
    windows: &mut Windows,
    (requests, hints, asks, controls): (
        &mut MessageWriter<Request>,
        &mut MessageWriter<AskHint>,
        &mut MessageWriter<Ask>,
        &mut MessageWriter<Control>,
    ),
) {
    let game = &table.game;
    if let Some(t) = thinking {
        let tried = t.tried.load(Ordering::Relaxed);
        ui.spinner();
        if t.job == crate::assist::Job::WinnableDeal {
            ui.label(format!("{} ({tried} tried)", t.job.describe()));
        } else {
            ui.label(t.job.describe());
        }
        if ui.add(bar_button("Cancel")).clicked() {
            asks.write(Ask::Cancel);
        }
        return;
    }
    if let Some(p) = playback {
        ui.label("Auto-completing…");
        speed_choice(ui, p, controls);
        if ui
            .add(bar_button("Stop"))
            .on_hover_text("Or click the table or press a key")
            .clicked()
        {
            controls.write(Control::Close);
        }
        return;
    }
    // With an undo limit the button says how many are left, and why it is
    // grey once there are none.
    let label = match game.undos_left() {
        Some(n) => format!("Undo ({n} left)"),
        None => "Undo".to_string(),
    };
    let undo = ui
        .add_enabled(game.can_undo() && !game.is_won(), bar_button(label))
        .on_hover_text("Take back the last move (Ctrl+Z or U)");
    let undo = match game.undos_left() {
        _ if game.is_won() => undo.on_disabled_hover_text("The game is won: start a new one"),
        Some(0) => undo.on_disabled_hover_text(format!(
            "No undos left: this game allows {}",
            game.options().undo_limit.unwrap_or(0)
        )),
        _ => undo.on_disabled_hover_text("Nothing to undo yet"),
    };
    if undo.clicked() {
        requests.write(Request::Undo);
    }
    if ui
        .add_enabled(game.can_redo(), bar_button("Redo"))
        .clicked()
    {
        requests.write(Request::Redo);
    }
    let hint = if highlights.thinking {
        "Thinking…"
    } else {
        "Hint"
    };
    if ui.add_enabled(!game.is_won(), bar_button(hint)).clicked() {
        hints.write(AskHint);
    }
    let can_finish = !game.is_won() && *outlook != Outlook::Lost;
    if ui
        .add_enabled(can_finish, bar_button("Auto-complete"))
        .on_hover_text("The solver plays the rest of the game (A)")
        .clicked()
    {
        asks.write(Ask::AutoComplete);
    }
    if ui.add(bar_button("Menu")).clicked() {
        windows.open("menu", table);
    }
}

/// A button of the bar. The mouse clicks it; the keyboard does not focus it, because on the
/// table Tab, the arrows, Enter and Space choose and move runs, and each button has its key.
fn bar_button<'a>(text: impl Into<egui::WidgetText>) -> egui::Button<'a> {
    egui::Button::new(text).sense(egui::Sense::CLICK)
}

fn outlook_label(ui: &mut egui::Ui, outlook: &Outlook) {
    let (text, colour, tip) = match outlook {
        Outlook::Off => return,
        Outlook::Checking => (
            "checking…",
            egui::Color32::GRAY,
            "The solver is looking at this position",
        ),
        Outlook::Winnable(_) => (
            "winnable",
            egui::Color32::from_rgb(90, 200, 110),
            "The solver found a way to win from here",
        ),
        Outlook::Lost => (
            "not winnable any more",
            egui::Color32::from_rgb(230, 100, 90),
            "Every line from here was searched: undo to find another way",
        ),
        Outlook::Unknown => (
            "unknown",
            egui::Color32::from_rgb(220, 190, 90),
            "The solver ran out of time on this position",
        ),
    };
    ui.colored_label(colour, text).on_hover_text(tip);
}

fn viewer_controls(ui: &mut egui::Ui, p: &Playback, controls: &mut MessageWriter<Control>) {
    ui.horizontal(|ui| {
        // Close comes first: at the bar's far left it is never where a button of the game's
        // own bar appears once the viewer has gone (a second click there did something else).
        if ui.add(bar_button("Close")).on_hover_text("Esc").clicked() {
            controls.write(Control::Close);
        }
        ui.separator();
        ui.label(egui::RichText::new(p.kind.title()).strong());
        ui.separator();
        if icon_button(ui, Icon::ToStart, true)
            .on_hover_text("To the deal (Home)")
            .clicked()
        {
            controls.write(Control::ToStart);
        }
        if icon_button(ui, Icon::Back, p.at > 0)
            .on_hover_text("One move back (Left)")
            .clicked()
        {
            controls.write(Control::StepBack);
        }
        let (icon, tip) = if p.playing {
            (Icon::Pause, "Pause (Space)")
        } else {
            (Icon::Play, "Play (Space)")
        };
        if icon_button(ui, icon, true).on_hover_text(tip).clicked() {
            controls.write(Control::Toggle);
        }
        if icon_button(ui, Icon::Forward, !p.at_end())
            .on_hover_text("One move forward (Right)")
            .clicked()
        {
            controls.write(Control::StepForward);
        }
        if icon_button(ui, Icon::ToEnd, true)
            .on_hover_text("To the end (End)")
            .clicked()
        {
            controls.write(Control::ToEnd);
        }
        ui.separator();
        speed_choice(ui, p, controls);
        ui.separator();
        let mut at = p.at;
        let total = p.moves.len();
        let slider = egui::Slider::new(&mut at, 0..=total)
            .show_value(false)
            .trailing_fill(true);
        let slider = ui.add(slider);
        if slider.changed() {
            controls.write(Control::Seek(at));
        }
        // A released slider gives the keyboard back at once (the first Esc only let go of it).
        if slider.drag_stopped() || slider.clicked() {
            slider.surrender_focus();
        }
        ui.label(format!("move {} of {}", p.at, total));
    });
}

fn speed_choice(ui: &mut egui::Ui, p: &Playback, controls: &mut MessageWriter<Control>) {
    let mut speed = p.speed;
    egui::ComboBox::from_id_salt("speed")
        .selected_text(format!("{}×", p.speed))
        .width(60.0)
        .show_ui(ui, |ui| {
            for s in SPEEDS {
                ui.selectable_value(&mut speed, s, format!("{s}×"));
            }
        });
    if speed != p.speed {
        controls.write(Control::Speed(speed));
    }
}

fn menu(
    mut contexts: EguiContexts,
    table: Res<Table>,
    time: Res<Time<Real>>,
    mut windows: ResMut<Windows>,
    mut settings: ResMut<Settings>,
    mut save_settings: ResMut<persist::SaveSettings>,
    thinking: Option<Res<Thinking>>,
    watching: Res<Watching>,
    mut requests: MessageWriter<Request>,
    mut asks: MessageWriter<Ask>,
    mut controls: MessageWriter<Control>,
) -> Result {
    if !windows.menu {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let mut open = true;
    fixed_window(
        "Arachne",
        egui::Align2::CENTER_CENTER,
        egui::vec2(0.0, -20.0),
    )
    .open(&mut open)
    .show(ctx, |ui| {
        ui.horizontal(|ui| {
            if ui.button("Continue").clicked() {
                windows.menu = false;
            }
            if ui
                .add_enabled(!watching.0, egui::Button::new("Restart this deal"))
                .clicked()
            {
                requests.write(Request::Restart);
                windows.menu = false;
            }
            if ui
                .add_enabled(
                    !watching.0 && thinking.is_none(),
                    egui::Button::new("Watch the solver play it"),
                )
                .on_hover_text("A demo of this deal from the start")
                .clicked()
            {
                asks.write(Ask::Demo);
                windows.menu = false;
            }
            if ui
                .add_enabled(
                    !watching.0 && table.game.move_count() > 0,
                    egui::Button::new("Replay this game"),
                )
                .clicked()
            {
                controls.write(Control::history(&table, true));
                windows.menu = false;
            }
        });
        ui.separator();
        ui.heading("New game");
        egui::Grid::new("variants").striped(true).show(ui, |ui| {
            for v in variant::builtin() {
                let selected = windows.variant == v.id;
                if ui.selectable_label(selected, v.name.as_str()).clicked() {
                    windows.variant = v.id.clone();
                }
                ui.label(format!("{:?}", v.difficulty));
                ui.end_row();
            }
        });
        if let Some(v) = variant::builtin().iter().find(|v| v.id == windows.variant) {
            ui.label(egui::RichText::new(&v.description).italics());
        }
        ui.horizontal(|ui| {
            ui.label("Deal number");
            ui.add(
                egui::TextEdit::singleline(&mut windows.seed)
                    .desired_width(110.0)
                    .hint_text("random"),
            );
            ui.checkbox(&mut windows.kpat, "KPatience numbering");
        });
        let mut winnable = settings.game.winnable_only;
        ui.checkbox(&mut winnable, "Winnable deals only")
            .on_hover_text("Random deals are ones the solver has won (a few seconds at most)");
        if winnable != settings.game.winnable_only {
            settings.game.winnable_only = winnable;
            save_settings.soon();
        }
        let seed = windows.seed.trim().to_string();
        let numbering = if windows.kpat {
            Numbering::Kpat
        } else {
            Numbering::Arachne
        };
        let typed = if seed.is_empty() {
            Ok(None)
        } else {
            seed.parse::<u64>()
                .map(Some)
                .map_err(|_| format!("`{seed}` is not a deal number"))
        };
        let spec = typed.and_then(|typed| {
            let seed = typed.unwrap_or_else(|| {
                crate::table::next_seed(table.spec.seed, time.elapsed().as_nanos() as u64)
            });
            let mut spec = GameSpec::builtin(&windows.variant, seed, numbering)
                .ok_or_else(|| format!("no variant `{}`", windows.variant))?;
            spec.options = settings.game.options_for(&spec.variant);
            spec.start().map_err(|e| e.to_string())?;
            Ok((spec, typed.is_none()))
        });
        if let Err(e) = &spec {
            ui.colored_label(egui::Color32::LIGHT_RED, e);
        }
        let label = match &spec {
            Ok((_, true)) if winnable => "Deal a winnable game",
            _ => "Deal",
        };
        if ui
            .add_enabled(
                spec.is_ok() && !watching.0 && thinking.is_none(),
                egui::Button::new(label),
            )
            .clicked()
            && let Ok((spec, random)) = spec
        {
            if random && winnable {
                asks.write(Ask::WinnableDeal(spec));
            } else {
                requests.write(Request::NewGame(spec));
            }
            windows.menu = false;
        }
        ui.separator();
        ui.horizontal(|ui| {
            if ui.button("Statistics").clicked() {
                windows.stats = true;
            }
            if ui.button("Settings").clicked() {
                windows.settings = true;
            }
            if ui.button("Replays").clicked() {
                windows.open("replays", &table);
            }
            if ui.button("Rules and help").clicked() {
                windows.help = true;
            }
        });
    });
    if !open {
        windows.menu = false;
    }
    Ok(())
}

fn statistics(
    mut contexts: EguiContexts,
    mut windows: ResMut<Windows>,
    mut stats: ResMut<Statistics>,
    saves: Option<Res<Saves>>,
    mut notices: ResMut<Notices>,
) -> Result {
    if !windows.stats {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let mut open = true;
    let mut reset = None;
    // The table of every variant is wider than a small window: it scrolls inside one that fits.
    let screen = ctx.content_rect().size();
    let width = (screen.x - 48.0).clamp(200.0, 1040.0);
    fixed_window(
        "Statistics",
        egui::Align2::CENTER_CENTER,
        egui::vec2(0.0, -20.0),
    )
    .min_width(width)
    .max_width(width)
    .open(&mut open)
    .show(ctx, |ui| {
        egui::ScrollArea::both()
            .max_width(width)
            .max_height((screen.y - 160.0).max(120.0))
            .show(ui, |ui| {
                statistics_table(ui, &mut windows, &stats, &mut reset)
            });
    });
    if let Some(id) = reset {
        stats.variants.remove(&id);
        windows.reset_stats = None;
        if let Some(saves) = saves
            && let Err(e) = persist::save(saves.0.as_ref(), persist::STATS_KEY, &*stats)
        {
            notices.push(format!("Could not save the statistics: {e}"));
        }
    }
    if !open {
        windows.stats = false;
        windows.reset_stats = None;
    }
    Ok(())
}

/// The statistics window's table: one row per variant, with its reset (asked twice).
fn statistics_table(
    ui: &mut egui::Ui,
    windows: &mut Windows,
    stats: &Statistics,
    reset: &mut Option<String>,
) {
    egui::Grid::new("stats")
        .striped(true)
        .spacing([14.0, 4.0])
        .show(ui, |ui| {
            for h in [
                "Variant",
                "Played",
                "Won",
                "Win %",
                "Streak",
                "Best streak",
                "Losses in a row",
                "Best time",
                "Best score",
                "Fewest moves",
                "",
            ] {
                ui.strong(h);
            }
            ui.end_row();
            for v in variant::builtin() {
                let s = stats.variants.get(&v.id).cloned().unwrap_or_default();
                ui.label(v.name.as_str());
                ui.label(s.played.to_string());
                ui.label(if s.assisted_wins > 0 {
                    format!("{} ({} helped)", s.won, s.assisted_wins)
                } else {
                    s.won.to_string()
                });
                ui.label(if s.played == 0 {
                    "–".to_string()
                } else {
                    format!("{:.0}%", s.win_percent())
                });
                ui.label(s.current_streak.to_string());
                ui.label(s.best_streak.to_string());
                ui.label(s.current_loss_streak.to_string());
                ui.label(s.best_time_secs.map_or("–".into(), clock));
                ui.label(s.best_score.map_or("–".into(), |x| x.to_string()));
                ui.label(s.fewest_moves.map_or("–".into(), |x| x.to_string()));
                if windows.reset_stats.as_deref() == Some(v.id.as_str()) {
                    ui.horizontal(|ui| {
                        ui.label("Reset?");
                        if ui.button("Yes, reset").clicked() {
                            *reset = Some(v.id.clone());
                        }
                        if ui.button("No").clicked() {
                            windows.reset_stats = None;
                        }
                    });
                } else if ui
                    .add_enabled(s.played > 0, egui::Button::new("Reset…"))
                    .clicked()
                {
                    windows.reset_stats = Some(v.id.clone());
                }
                ui.end_row();
            }
        });
    ui.label("A game counts when it is won, or left for another after at least one move.");
    ui.label("Wins the solver helped with count as won, never as a best or in a streak.");
}

fn settings_window(
    mut contexts: EguiContexts,
    mut windows: ResMut<Windows>,
    mut settings: ResMut<Settings>,
    mut save_settings: ResMut<persist::SaveSettings>,
) -> Result {
    if !windows.settings {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let mut open = true;
    let mut s = settings.clone();
    fixed_window("Settings", egui::Align2::RIGHT_TOP, egui::vec2(-12.0, 12.0))
        .open(&mut open)
        .show(ctx, |ui| {
            ui.heading("Look");
            egui::Grid::new("look").num_columns(2).show(ui, |ui| {
                ui.label("Theme");
                egui::ComboBox::from_id_salt("theme")
                    .selected_text(theme_name(&s.theme))
                    .show_ui(ui, |ui| {
                        for (id, _) in BUILTIN_THEMES {
                            ui.selectable_value(&mut s.theme, id.to_string(), theme_name(id));
                        }
                    });
                ui.end_row();
                ui.label("Card back");
                egui::ComboBox::from_id_salt("back")
                    .selected_text(match s.cards.back_pattern {
                        None => "Theme's".to_string(),
                        Some(p) => format!("{p:?}"),
                    })
                    .show_ui(ui, |ui| {
                        ui.selectable_value(&mut s.cards.back_pattern, None, "Theme's");
                        for p in [BackPattern::Plain, BackPattern::Lattice, BackPattern::Dots] {
                            ui.selectable_value(
                                &mut s.cards.back_pattern,
                                Some(p),
                                format!("{p:?}"),
                            );
                        }
                    });
                ui.end_row();
                ui.label("Back colour");
                ui.horizontal(|ui| {
                    let mut own = s.cards.back_colour.is_some();
                    ui.checkbox(&mut own, "own colour");
                    if own {
                        let mut rgb = s
                            .cards
                            .back_colour
                            .as_deref()
                            .and_then(hex_rgb)
                            .unwrap_or([40, 70, 140]);
                        ui.color_edit_button_srgb(&mut rgb);
                        s.cards.back_colour =
                            Some(format!("#{:02x}{:02x}{:02x}", rgb[0], rgb[1], rgb[2]));
                    } else {
                        s.cards.back_colour = None;
                    }
                });
                ui.end_row();
                ui.label("Deck");
                egui::ComboBox::from_id_salt("colours")
                    .selected_text(match s.cards.four_colour {
                        None => "Theme's",
                        Some(false) => "Two colours",
                        Some(true) => "Four colours",
                    })
                    .show_ui(ui, |ui| {
                        ui.selectable_value(&mut s.cards.four_colour, None, "Theme's");
                        ui.selectable_value(&mut s.cards.four_colour, Some(false), "Two colours");
                        ui.selectable_value(&mut s.cards.four_colour, Some(true), "Four colours");
                    });
                ui.end_row();
            });
            ui.separator();
            ui.heading("Motion");
            egui::Grid::new("motion").num_columns(2).show(ui, |ui| {
                let a = &mut s.animation;
                ui.label("Speed");
                ui.add(
                    egui::Slider::new(&mut a.speed, 0.25..=4.0)
                        .logarithmic(true)
                        .suffix("×"),
                );
                ui.end_row();
                ui.label("Easing");
                egui::ComboBox::from_id_salt("easing")
                    .selected_text(format!("{:?}", a.easing))
                    .show_ui(ui, |ui| {
                        for e in [
                            Easing::Linear,
                            Easing::QuadraticOut,
                            Easing::QuadraticInOut,
                            Easing::CubicOut,
                            Easing::CubicInOut,
                            Easing::QuarticOut,
                            Easing::SineInOut,
                            Easing::BackOut,
                        ] {
                            ui.selectable_value(&mut a.easing, e, format!("{e:?}"));
                        }
                    });
                ui.end_row();
                ui.label("Effects");
                ui.horizontal(|ui| {
                    ui.checkbox(&mut a.deal_motion, "deals fly");
                    ui.checkbox(&mut a.flip_motion, "cards turn");
                    ui.checkbox(&mut a.celebration, "win cascade");
                    ui.checkbox(&mut a.instant, "no motion at all");
                });
                ui.end_row();
            });
            ui.separator();
            ui.heading("Sound");
            egui::Grid::new("sound").num_columns(2).show(ui, |ui| {
                ui.label("Sound");
                ui.checkbox(&mut s.sound.enabled, "on");
                ui.end_row();
                ui.label("Table sounds");
                volume(ui, &mut s.sound.effects_volume_db);
                ui.end_row();
                ui.label("Fanfares");
                volume(ui, &mut s.sound.fanfare_volume_db);
                ui.end_row();
            });
            ui.separator();
            ui.heading("Games");
            egui::Grid::new("games").num_columns(2).show(ui, |ui| {
                let g = &mut s.game;
                ui.label("Completed runs");
                egui::ComboBox::from_id_salt("discard")
                    .selected_text(match g.discard {
                        None => "As the variant says",
                        Some(DiscardMode::Automatic) => "Leave by themselves",
                        Some(DiscardMode::Manual) => "Removed by hand",
                    })
                    .show_ui(ui, |ui| {
                        ui.selectable_value(&mut g.discard, None, "As the variant says");
                        ui.selectable_value(
                            &mut g.discard,
                            Some(DiscardMode::Automatic),
                            "Leave by themselves",
                        );
                        ui.selectable_value(
                            &mut g.discard,
                            Some(DiscardMode::Manual),
                            "Removed by hand",
                        );
                    });
                ui.end_row();
                ui.label("Undo");
                ui.horizontal(|ui| {
                    ui.selectable_value(&mut g.undo_limit, UndoLimit::Variant, "variant's");
                    ui.selectable_value(&mut g.undo_limit, UndoLimit::Unlimited, "unlimited");
                    let mut n = match g.undo_limit {
                        UndoLimit::Limit(n) => n,
                        _ => 3,
                    };
                    let limited = matches!(g.undo_limit, UndoLimit::Limit(_));
                    if ui.selectable_label(limited, "at most").clicked() || limited {
                        ui.add(egui::DragValue::new(&mut n).range(0..=999));
                        g.undo_limit = UndoLimit::Limit(n);
                    }
                });
                ui.end_row();
                ui.label("Questions");
                ui.checkbox(&mut g.confirm_new_game, "ask before abandoning a game");
                ui.end_row();
                ui.label("Solver");
                ui.checkbox(
                    &mut g.still_winnable,
                    "tell me whether the game is still winnable",
                );
                ui.end_row();
            });
            ui.label(
                egui::RichText::new("Discard mode and undo limit apply from the next game.")
                    .small(),
            );
            if ui.button("Restore the defaults").clicked() {
                s = Settings::default();
            }
        });
    if s != *settings {
        *settings = s;
        save_settings.soon();
    }
    if !open {
        windows.settings = false;
    }
    Ok(())
}

/// A volume slider in percent, kept in decibels.
fn volume(ui: &mut egui::Ui, db: &mut f32) {
    let mut percent = if *db <= -60.0 {
        0.0
    } else {
        100.0 * 10f32.powf(*db / 20.0)
    };
    if ui
        .add(
            egui::Slider::new(&mut percent, 0.0..=100.0)
                .suffix("%")
                .fixed_decimals(0),
        )
        .changed()
    {
        *db = if percent <= 0.5 {
            -80.0
        } else {
            20.0 * (percent / 100.0).log10()
        };
    }
}

fn hex_rgb(hex: &str) -> Option<[u8; 3]> {
    let c = Srgba::hex(hex).ok()?.to_u8_array();
    Some([c[0], c[1], c[2]])
}

fn theme_name(id: &str) -> String {
    crate::theme::Theme::builtin(id).map_or_else(|| id.to_string(), |t| t.name)
}

fn replays(
    mut contexts: EguiContexts,
    mut windows: ResMut<Windows>,
    saves: Option<Res<Saves>>,
    table: Res<Table>,
    watching: Res<Watching>,
    mut controls: MessageWriter<Control>,
    mut notices: ResMut<Notices>,
) -> Result {
    if !windows.replays {
        return Ok(());
    }
    if windows.saved.is_none() {
        windows.saved = Some(
            saves
                .as_ref()
                .map(|s| persist::saved_replays(s.0.as_ref()))
                .unwrap_or_default(),
        );
    }
    let ctx = contexts.ctx_mut()?;
    let mut open = true;
    let mut chosen = None;
    fixed_window(
        "Replays",
        egui::Align2::CENTER_CENTER,
        egui::vec2(0.0, -20.0),
    )
    .open(&mut open)
    .show(ctx, |ui| {
        if !watching.0
            && table.game.move_count() > 0
            && ui.button("Watch this game from the deal").clicked()
        {
            controls.write(Control::history(&table, true));
            windows.replays = false;
        }
        ui.separator();
        let saved = windows.saved.as_deref().unwrap_or_default();
        if saved.is_empty() {
            ui.label("Finished games are kept here (the last 50).");
        }
        egui::ScrollArea::vertical()
            .max_height(360.0)
            .show(ui, |ui| {
                egui::Grid::new("replays").striped(true).show(ui, |ui| {
                    for r in saved {
                        let name = variant::builtin()
                            .iter()
                            .find(|v| v.id == r.replay.variant)
                            .map_or(r.replay.variant.clone(), |v| v.name.clone());
                        let title = format!(
                            "{name}, deal {}: {} in {}",
                            r.replay.seed,
                            if r.won { "won" } else { "lost" },
                            count(r.replay.moves.len(), "move", "moves")
                        );
                        ui.label(title.as_str());
                        if ui.button("Watch").clicked() {
                            chosen = Some((r.replay.clone(), title));
                        }
                        ui.end_row();
                    }
                });
            });
    });
    if let Some((replay, title)) = chosen {
        match open_replay(&replay, title, None) {
            Ok(c) => {
                controls.write(c);
                windows.replays = false;
                windows.menu = false;
            }
            Err(e) => notices.push(format!("This replay cannot be shown: {e}")),
        }
    }
    if !open {
        windows.replays = false;
    }
    Ok(())
}

fn help(mut contexts: EguiContexts, mut windows: ResMut<Windows>, table: Res<Table>) -> Result {
    if !windows.help {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let mut open = true;
    let v = &table.spec.variant;
    fixed_window(
        format!("Rules: {}", v.name),
        egui::Align2::CENTER_CENTER,
        egui::vec2(0.0, -20.0),
    )
    .default_width(520.0)
    .open(&mut open)
    .show(ctx, |ui| {
        egui::ScrollArea::vertical()
            .max_height(440.0)
            .show(ui, |ui| {
                ui.set_max_width(520.0);
                for (title, text) in crate::rules::rules(v, &table.game.options()) {
                    ui.strong(title);
                    ui.label(text);
                    ui.add_space(4.0);
                }
                ui.separator();
                ui.strong("Controls");
                egui::Grid::new("controls").striped(true).show(ui, |ui| {
                    for (keys, what) in crate::rules::CONTROLS {
                        ui.label(*keys);
                        ui.label(*what);
                        ui.end_row();
                    }
                });
            });
    });
    if !open {
        windows.help = false;
    }
    Ok(())
}

fn win_message(
    mut contexts: EguiContexts,
    mut windows: ResMut<Windows>,
    table: Res<Table>,
    record: Res<GameRecord>,
    stats: Res<Statistics>,
    settings: Res<Settings>,
    mut asks: MessageWriter<Ask>,
    mut requests: MessageWriter<Request>,
    mut controls: MessageWriter<Control>,
) -> Result {
    if windows.won {
        crate::won::window(
            contexts.ctx_mut()?,
            &mut windows,
            &table,
            &record,
            &stats,
            &settings,
            &mut asks,
            &mut requests,
            &mut controls,
        );
    }
    Ok(())
}

fn confirm(
    mut contexts: EguiContexts,
    pending: Res<PendingConfirm>,
    mut requests: MessageWriter<Request>,
) -> Result {
    if pending.0.is_none() {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    fixed_window(
        "Abandon this game?",
        egui::Align2::CENTER_CENTER,
        egui::Vec2::ZERO,
    )
    .show(ctx, |ui| {
        ui.label("The game in progress will count as a loss in the statistics.");
        ui.horizontal(|ui| {
            if ui.button("Abandon it").clicked() {
                requests.write(Request::Confirm(true));
            }
            if ui.button("Keep playing").clicked() {
                requests.write(Request::Confirm(false));
            }
        });
    });
    Ok(())
}

fn notices(mut contexts: EguiContexts, notices: Res<Notices>) -> Result {
    if notices.0.is_empty() {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    egui::Area::new(egui::Id::new("notices"))
        .anchor(egui::Align2::CENTER_TOP, egui::vec2(0.0, 10.0))
        .show(ctx, |ui| {
            for (text, _) in &notices.0 {
                egui::Frame::popup(ui.style()).show(ui, |ui| {
                    ui.label(text);
                });
            }
        });
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every character beyond ASCII that the overlay can show: in the strings of our sources
    /// (comment lines left out) and in the variant files' names and descriptions.
    fn shown_characters() -> std::collections::BTreeSet<char> {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut chars = std::collections::BTreeSet::new();
        for dir in ["src", "levels"] {
            for entry in std::fs::read_dir(root.join(dir)).unwrap() {
                let text = std::fs::read_to_string(entry.unwrap().path()).unwrap();
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
