//! The tuning studio: the theme editor (every colour of the theme, its back pattern and corner
//! radius, changed live on the table; save as, export and import as RON text) and the
//! animation tuner (every duration, stagger and easing curve, each curve drawn, samples played
//! on the table, reset to defaults). Both change the running game at once; the tuner's values
//! are saved with the settings. Errors in watched files show at the top of the overlay.
use bevy::curve::Curve;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};

use crate::GameKind;
use crate::cards::samples::{PlaySample, SampleKind};
use crate::core::i18n::{t, tf};
use crate::core::live::FileProblems;
use crate::core::persist::{SaveSettings, Saves};
use crate::core::settings::{Easing, Motion, Settings};
use crate::core::theme::{
    BackPattern, CardSettings, SAVED_THEME_PREFIX, Theme, ThemeDraft, ThemeOrigin, Themes,
};
use crate::shell::Windows;
use crate::shell::settings_window::{easing_combo, easing_name, pattern_name, speed_slider};
use crate::shell::widgets::{Hint, KeyboardList, TextKind, fitting_width, scrolling};

/// What the studio's windows remember between frames.
#[derive(Resource, Debug, Clone)]
#[component(clone_behavior = Ignore)]
pub struct Studio {
    /// The name "save as" gives.
    pub save_name: String,
    /// The export/import box.
    pub text: String,
    /// The last outcome (saved, imported, or why not), and whether it is an error.
    pub message: Option<(String, bool)>,
    /// How many times slower the samples play.
    pub slow: f32,
    /// The theme `save_name` was filled in for.
    pub name_for: String,
}

impl Default for Studio {
    fn default() -> Studio {
        Studio {
            save_name: String::new(),
            text: String::new(),
            message: None,
            slow: 1.0,
            name_for: String::new(),
        }
    }
}

/// Every colour of a theme, with its label.
fn colours(theme: &mut Theme) -> [(&'static str, &mut Color); 17] {
    [
        (t("studio.colour.table"), &mut theme.table),
        (t("studio.colour.placeholder"), &mut theme.placeholder),
        (t("studio.colour.face"), &mut theme.face),
        (t("studio.colour.face_border"), &mut theme.face_border),
        (t("studio.colour.court_frame"), &mut theme.court_frame),
        (t("studio.colour.back"), &mut theme.back),
        (t("studio.colour.back_accent"), &mut theme.back_accent),
        (t("studio.colour.back_border"), &mut theme.back_border),
        (t("studio.colour.red"), &mut theme.red),
        (t("studio.colour.black"), &mut theme.black),
        (t("studio.colour.diamonds"), &mut theme.four_colour_diamonds),
        (t("studio.colour.clubs"), &mut theme.four_colour_clubs),
        (t("studio.colour.yellow"), &mut theme.yellow),
        (t("studio.colour.highlight"), &mut theme.highlight),
        (t("studio.colour.selection"), &mut theme.selection),
        (t("studio.colour.hint_target"), &mut theme.hint_target),
        (t("studio.colour.text"), &mut theme.text),
    ]
}

/// The theme the editor starts from: the draft, else the chosen theme as its file has it.
pub fn edited_theme(draft: &ThemeDraft, themes: &Themes, settings: &Settings) -> Theme {
    draft.0.clone().unwrap_or_else(|| {
        themes
            .get(&settings.theme)
            .map_or_else(Theme::default, |e| e.theme.clone())
    })
}

/// Saves `theme` as the player's theme called `name` (a new id), lists it and chooses it.
/// Without storage (a capture) it is listed for this run only. Returns the outcome's message.
pub fn save_theme_as(
    name: &str,
    mut theme: Theme,
    themes: &mut Themes,
    settings: &mut Settings,
    saves: Option<&Saves>,
) -> Result<String, String> {
    let name = name.trim();
    if name.is_empty() {
        return Err(t("studio.themes.need_name").to_string());
    }
    theme.id = themes.new_id(name);
    theme.name = name.to_string();
    save_theme(theme, themes, settings, saves)
}

/// Saves `theme` under its id, lists it and chooses it.
pub fn save_theme(
    theme: Theme,
    themes: &mut Themes,
    settings: &mut Settings,
    saves: Option<&Saves>,
) -> Result<String, String> {
    let id = theme.id.clone();
    let name = theme.name.clone();
    match saves {
        Some(saves) => themes
            .save(saves.0.as_ref(), theme)
            .map_err(|e| tf("studio.themes.save_failed", &[("why", &e)]))?,
        None => {
            themes.put(
                theme,
                ThemeOrigin::Saved(format!("{SAVED_THEME_PREFIX}{id}")),
            );
        }
    }
    settings.theme = id;
    Ok(tf("studio.themes.saved", &[("name", &name)]))
}

/// `save_theme`, refusing a theme without a name.
fn save_theme_checked(
    theme: Theme,
    themes: &mut Themes,
    settings: &mut Settings,
    saves: Option<&Saves>,
) -> Result<String, String> {
    if theme.name.trim().is_empty() {
        return Err(t("studio.themes.need_name").to_string());
    }
    save_theme(theme, themes, settings, saves)
}

/// Reads a theme from text (export's format); the error names the line and field.
pub fn import_theme(text: &str) -> Result<Theme, String> {
    Theme::from_ron("imported", text, t("studio.themes.import_source"))
}

pub(crate) fn theme_editor(
    mut contexts: EguiContexts,
    mut windows: ResMut<Windows>,
    mut settings: ResMut<Settings>,
    mut save_settings: ResMut<SaveSettings>,
    mut themes: ResMut<Themes>,
    mut draft: ResMut<ThemeDraft>,
    mut studio: Local<Studio>,
    saves: Option<Res<Saves>>,
    under: Res<StudioUnder>,
    mut notices: ResMut<crate::core::focus::Notices>,
) -> Result {
    if !windows.themes || *under == StudioUnder::Themes {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let mut open = true;
    let base = edited_theme(&draft, &themes, &settings);
    let mut edited = base.clone();
    let mut s = settings.clone();
    let mut new_draft: Option<Option<Theme>> = None;
    let origin = themes.get(&s.theme).map(|e| e.origin.clone());
    studio_window(
        ctx,
        t("studio.themes.title"),
        "theme-editor",
        THEMES_WIDTH,
        &mut open,
        |ui| {
            ui.horizontal(|ui| {
                ui.label(t("studio.themes.name"));
                ui.text_edit_singleline(&mut edited.name);
            });
            // Where the theme comes from; an imported one (another id than the chosen theme's)
            // is no file yet (it said the chosen theme's file).
            let imported = themes.get(&edited.id).is_none();
            ui.label(
                egui::RichText::new(match &origin {
                    _ if imported => t("studio.themes.not_kept").to_string(),
                    Some(ThemeOrigin::Builtin) => t("studio.themes.builtin").to_string(),
                    Some(ThemeOrigin::File(path)) => tf("studio.themes.file", &[("path", path)]),
                    Some(ThemeOrigin::Saved(_)) => t("studio.themes.yours").to_string(),
                    None => String::new(),
                })
                .small(),
            );
            ui.separator();
            egui::Grid::new("theme-colours")
                .num_columns(4)
                .spacing([10.0, 4.0])
                .show(ui, |ui| {
                    for (k, (label, colour)) in colours(&mut edited).into_iter().enumerate() {
                        ui.label(label);
                        let mut rgba = colour.to_srgba().to_u8_array();
                        if ui.color_edit_button_srgba_unmultiplied(&mut rgba).changed() {
                            *colour = Color::srgba_u8(rgba[0], rgba[1], rgba[2], rgba[3]);
                        }
                        if k % 2 == 1 {
                            ui.end_row();
                        }
                    }
                    ui.end_row();
                });
            ui.separator();
            egui::Grid::new("theme-shapes")
                .num_columns(2)
                .show(ui, |ui| {
                    ui.label(t("settings.card_back"));
                    egui::ComboBox::from_id_salt("theme-pattern")
                        .selected_text(pattern_name(edited.back_pattern))
                        .show_list(ui, |ui| {
                            for p in [BackPattern::Plain, BackPattern::Lattice, BackPattern::Dots] {
                                ui.selectable_value(&mut edited.back_pattern, p, pattern_name(p));
                            }
                        });
                    ui.end_row();
                    ui.label(t("studio.themes.corner_radius"));
                    ui.add(
                        egui::Slider::new(&mut edited.corner_radius, 0.0..=0.5)
                            .clamping(egui::SliderClamping::Edits),
                    );
                    ui.end_row();
                    ui.label(t("settings.deck"));
                    ui.checkbox(&mut edited.four_colour, t("settings.four_colours"));
                    ui.end_row();
                });
            if s.cards != CardSettings::default() {
                ui.horizontal_wrapped(|ui| {
                    ui.label(egui::RichText::new(t("studio.themes.overrides")).small());
                    if ui.small_button(t("studio.themes.use_theme")).clicked() {
                        s.cards = CardSettings::default();
                    }
                });
            }
            ui.separator();
            let changed = draft.0.is_some() || edited != base;
            ui.horizontal(|ui| {
                let own = matches!(origin, Some(ThemeOrigin::Saved(_)));
                // Only a draft of the chosen theme (not an imported one) is saved over it.
                let own = own && edited.id == s.theme;
                if ui
                    .add_enabled(own && changed, egui::Button::new(t("studio.themes.save")))
                    .hint(t("studio.themes.save_hint"))
                    .clicked()
                {
                    let theme = edited.clone();
                    studio.message = Some(
                        match save_theme_checked(theme, &mut themes, &mut s, saves.as_deref()) {
                            Ok(m) => {
                                new_draft = Some(None);
                                (m, false)
                            }
                            Err(e) => (e, true),
                        },
                    );
                }
                if ui
                    .add_enabled(changed, egui::Button::new(t("studio.themes.revert")))
                    .clicked()
                {
                    new_draft = Some(None);
                    studio.message = None;
                }
            });
            ui.horizontal(|ui| {
                if studio.name_for != edited.id {
                    studio.name_for = edited.id.clone();
                    studio.save_name = tf("studio.themes.copy_of", &[("name", &edited.name)]);
                }
                ui.add(egui::TextEdit::singleline(&mut studio.save_name).desired_width(160.0));
                if ui.button(t("studio.themes.save_as")).clicked() {
                    let name = studio.save_name.clone();
                    studio.message = Some(
                        match save_theme_as(
                            &name,
                            edited.clone(),
                            &mut themes,
                            &mut s,
                            saves.as_deref(),
                        ) {
                            Ok(m) => {
                                new_draft = Some(None);
                                (m, false)
                            }
                            Err(e) => (e, true),
                        },
                    );
                }
            });
            // A theme file opened (the browser's Open file, or dropped on the desktop's window)
            // is imported as soon as it is read.
            let mut import = false;
            if let Some((_, text)) = crate::shell::widgets::opened_file("theme") {
                studio.text = text;
                import = true;
            }
            egui::CollapsingHeader::new(t("studio.themes.share"))
                .id_salt("theme-share")
                .show(ui, |ui| {
                    ui.label(egui::RichText::new(t("studio.themes.share_hint")).small());
                    ui.add(
                        // Not `code_editor()`: it locks the focus, so Tab would type a tab
                        // and never reach the buttons below.
                        egui::TextEdit::multiline(&mut studio.text)
                            .char_limit(crate::shell::widgets::OPEN_LIMIT as usize)
                            .font(egui::TextStyle::Monospace)
                            .desired_rows(8)
                            .desired_width(360.0),
                    );
                    ui.horizontal_wrapped(|ui| {
                        if ui.button(t("studio.themes.export")).clicked() {
                            studio.text = edited.to_ron();
                            crate::shell::widgets::copy(
                                ui.ctx(),
                                &mut notices,
                                "theme",
                                &studio.text,
                            );
                            studio.message = Some((t("studio.themes.exported").to_string(), false));
                        }
                        // In the browser, as a file too (no data directory to take it from).
                        #[cfg(target_arch = "wasm32")]
                        if ui.button(t("replays.download")).clicked() {
                            studio.text = edited.to_ron();
                            if let Err(e) =
                                crate::web::download(&format!("{}.ron", edited.id), &studio.text)
                            {
                                studio.message =
                                    Some((tf("replays.download_failed", &[("why", &e)]), true));
                            }
                        }
                        if ui.button(t("studio.themes.import")).clicked() {
                            import = true;
                        }
                        crate::shell::widgets::open_file_button(ui, &mut notices, "theme");
                    });
                });
            if import {
                // (Another of Arachne's texts is named, not taken apart as a theme, and leaves
                // the box.)
                let theme = import_theme(&studio.text).map_err(|e| {
                    TextKind::take_misplaced(&mut studio.text, TextKind::Theme).unwrap_or(e)
                });
                studio.message = Some(match theme {
                    Ok(theme) => {
                        let m = tf("studio.themes.imported", &[("name", &theme.name)]);
                        studio.save_name = theme.name.clone();
                        studio.name_for = theme.id.clone();
                        new_draft = Some(Some(theme));
                        (m, false)
                    }
                    Err(e) => (e, true),
                });
            }
            if let Some((m, error)) = &studio.message {
                let text = egui::RichText::new(m);
                ui.label(if *error {
                    text.color(ui.visuals().error_fg_color)
                } else {
                    text
                });
            }
        },
    );
    match new_draft {
        Some(d) => {
            draft.set_if_neq(ThemeDraft(d));
        }
        None if edited != base => {
            draft.0 = Some(edited);
        }
        None => {}
    }
    if s != *settings {
        // A theme chosen (saved as) shows itself: the draft is done.
        *settings = s;
        save_settings.soon();
    }
    if !open {
        windows.themes = false;
    }
    Ok(())
}

/// The theme editor closed (its ×, Esc, or the menu) with changes not saved: they are dropped,
/// and the table shows the saved theme again, rather than a look that would be gone at the next
/// start without a word. The player is told.
pub(crate) fn drop_draft_on_close(
    windows: Res<Windows>,
    mut was_open: Local<bool>,
    mut draft: ResMut<ThemeDraft>,
    mut notices: ResMut<crate::core::focus::Notices>,
) {
    let open = windows.themes;
    if *was_open && !open && draft.0.is_some() {
        draft.0 = None;
        notices.push(t("studio.themes.dropped"));
    }
    *was_open = open;
}

/// The widths of the studio's windows at most: the theme editor's and the tuner's.
const THEMES_WIDTH: f32 = 380.0;
const TUNER_WIDTH: f32 = 540.0;

/// Whether the theme editor and the tuner fit side by side (the tuner then opens at the right).
fn both_fit(ctx: &egui::Context) -> bool {
    fitting_width(ctx) >= THEMES_WIDTH + TUNER_WIDTH + 24.0
}

/// The studio window waiting hidden under the other (on a screen without room for both side by
/// side, where both would lie at the left margin, one over the other).
#[derive(Resource, Default, Debug, Clone, Copy, PartialEq, Eq)]
#[component(clone_behavior = Ignore)]
pub(crate) enum StudioUnder {
    /// Both are shown (or only one is open).
    #[default]
    Neither,
    /// The theme editor waits, its draft kept, until the tuner closes.
    Themes,
    /// The tuner waits until the theme editor closes.
    Tuner,
}

impl StudioUnder {
    /// After Esc closed every window: a studio window that waited under the one shown comes
    /// back as it was (its unsaved changes included), as when the one shown closes by its cross.
    pub(crate) fn comes_back(self, windows: &mut Windows) {
        match self {
            StudioUnder::Themes => windows.themes = true,
            StudioUnder::Tuner => windows.tuner = true,
            StudioUnder::Neither => {}
        }
    }

    /// The studio window asked for again (from the settings) while it waits under the other:
    /// it comes on top.
    pub(crate) fn asked_for(&mut self, themes: bool, tuner: bool) {
        match *self {
            StudioUnder::Themes if themes => *self = StudioUnder::Tuner,
            StudioUnder::Tuner if tuner => *self = StudioUnder::Themes,
            _ => {}
        }
    }
}

/// On a screen without room for both studio windows side by side (a phone), the one opened last
/// is shown and the other waits under it, as it was (a theme's unsaved changes included), until
/// the one shown closes.
pub(crate) fn stack_studio_windows(
    mut contexts: EguiContexts,
    windows: Res<Windows>,
    mut under: ResMut<StudioUnder>,
    mut was: Local<(bool, bool)>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let now = (windows.themes, windows.tuner);
    under.set_if_neq(stacked(*was, now, *under, both_fit(ctx)));
    *was = now;
    Ok(())
}

/// Which studio window waits under the other, now that (theme editor, tuner) are `now` open and
/// were `was` open the frame before; `fit` when both fit side by side.
fn stacked(was: (bool, bool), now: (bool, bool), under: StudioUnder, fit: bool) -> StudioUnder {
    if now != (true, true) || fit {
        return StudioUnder::Neither;
    }
    match was {
        (true, false) => StudioUnder::Themes,
        (false, true) => StudioUnder::Tuner,
        // Both open before (the screen became narrow), or opened together.
        _ if under == StudioUnder::Neither => StudioUnder::Tuner,
        _ => under,
    }
}

/// A window of the studio: movable (on a screen too narrow for it, kept at the left margin),
/// as tall as its content, scrolling when the screen is not. The tuner opens at the right
/// where the theme editor has room beside it.
fn studio_window(
    ctx: &egui::Context,
    title: &str,
    id: &str,
    max_width: f32,
    open: &mut bool,
    add_contents: impl FnOnce(&mut egui::Ui),
) {
    let height = ctx.content_rect().height() - 110.0;
    // On a screen narrower than the window would be (a phone), its tables scroll sideways.
    let narrow = fitting_width(ctx) < max_width;
    let x = if id == "tuner" && both_fit(ctx) {
        ctx.content_rect().width() - max_width - 12.0
    } else {
        12.0
    };
    let mut window = egui::Window::new(title)
        .id(egui::Id::new(id))
        .max_width(max_width.min(fitting_width(ctx)))
        .default_pos(egui::pos2(x, 44.0))
        .auto_sized()
        .collapsible(false)
        .open(open);
    if narrow {
        // There is no room to move it about: it stays at the left margin (left to itself, egui
        // pushes it against the screen's edge after measuring it unwrapped once).
        window = window.current_pos(egui::pos2(8.0, 44.0)).constrain(false);
    }
    window.show(ctx, |ui| {
        // The keyboard leaves the control that opened it (the Settings button went with the
        // settings window), so Tab begins at its first control. None takes the keys at once:
        // the theme editor's first is its name's text field (a phone's keyboard would come up),
        // the tuner's a slider the arrows would move.
        crate::shell::window_keys::keyboard_on_open(
            ui,
            id,
            crate::shell::window_keys::OnOpen::Scroll,
        );
        scrolling(ui, height, |ui| {
            if narrow {
                egui::ScrollArea::horizontal().show(ui, add_contents);
            } else {
                add_contents(ui);
            }
        })
    });
}

/// The curve of `easing`, drawn small; while the pointer is over it, a control of its row
/// (`row`) has the keyboard or a list of the row is open, a dot runs along it in `secs` (the
/// motion's duration).
fn curve(ui: &mut egui::Ui, easing: Easing, secs: f32, row: &[&egui::Response]) -> egui::Response {
    let (rect, response) = ui.allocate_exact_size(egui::vec2(88.0, 34.0), egui::Sense::hover());
    let painter = ui.painter_at(rect);
    let f = easing.function();
    // Values from -0.25 to 1.25, so that an overshooting curve (BackOut) fits.
    let at = |x: f32, y: f32| {
        egui::pos2(
            rect.left() + 3.0 + x * (rect.width() - 6.0),
            rect.bottom() - (y + 0.25) / 1.5 * rect.height(),
        )
    };
    let visuals = ui.visuals();
    painter.rect_filled(rect, 3.0, visuals.extreme_bg_color);
    let faint = egui::Stroke::new(1.0, visuals.weak_text_color().gamma_multiply(0.5));
    painter.line_segment([at(0.0, 0.0), at(1.0, 0.0)], faint);
    painter.line_segment([at(0.0, 1.0), at(1.0, 1.0)], faint);
    let points: Vec<egui::Pos2> = (0..=40)
        .map(|i| {
            let x = i as f32 / 40.0;
            at(x, f.sample_clamped(x))
        })
        .collect();
    painter.add(egui::Shape::line(
        points,
        egui::Stroke::new(1.6, visuals.selection.bg_fill),
    ));
    let keyboard_on_row =
        row.iter().any(|r| r.has_focus()) && crate::shell::window_keys::keyboard_in_use(ui.ctx());
    // (A curve list of the row open: its items have the keyboard, or the pointer is on them.)
    let list_open = row
        .iter()
        .any(|r| egui::Popup::is_id_open(ui.ctx(), r.id.with("popup")));
    if (response.hovered() || keyboard_on_row || list_open) && secs > 0.0 {
        let now = ui.input(|i| i.time) as f32;
        let x = ((now % (secs + 0.5)) / secs).min(1.0);
        painter.circle_filled(at(x, f.sample_clamped(x)), 3.5, visuals.strong_text_color());
        ui.ctx().request_repaint();
    }
    response
}

/// A motion's name in the tuner.
fn motion_name(m: Motion) -> &'static str {
    match m {
        Motion::Move => t("studio.motion.move"),
        Motion::Flip => t("studio.motion.flip"),
        Motion::Deal => t("studio.motion.deal"),
        Motion::Sweep => t("studio.motion.sweep"),
        Motion::SlideBack => t("studio.motion.slide_back"),
        Motion::Shake => "",
    }
}

/// A sample's button label.
fn sample_name(k: SampleKind) -> &'static str {
    match k {
        SampleKind::Move => t("studio.sample.move"),
        SampleKind::Sweep => t("studio.sample.sweep"),
        SampleKind::Lay => t("studio.sample.lay"),
        SampleKind::Deal => t("studio.sample.deal"),
        SampleKind::Flip => t("studio.sample.flip"),
        SampleKind::Cascade => t("studio.sample.cascade"),
    }
}

fn ms(value: &mut u32) -> egui::DragValue<'_> {
    egui::DragValue::new(value)
        .range(0..=10_000)
        .clamp_existing_to_range(false)
        .speed(2.0)
        .suffix(" ms")
}

pub(crate) fn tuner(
    mut contexts: EguiContexts,
    mut windows: ResMut<Windows>,
    mut settings: ResMut<Settings>,
    mut save_settings: ResMut<SaveSettings>,
    mut studio: Local<Studio>,
    mut samples: MessageWriter<PlaySample>,
    game: Option<Res<State<GameKind>>>,
    under: Res<StudioUnder>,
) -> Result {
    if !windows.tuner || *under == StudioUnder::Tuner {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let mut open = true;
    let mut s = settings.clone();
    let kinds: &[SampleKind] = match game.as_deref().map(State::get) {
        Some(GameKind::ProSpider10) => &SampleKind::PHASE10,
        _ => &SampleKind::SPIDER,
    };
    studio_window(
        ctx,
        t("studio.tuner.title"),
        "tuner",
        TUNER_WIDTH,
        &mut open,
        |ui| {
            let a = &mut s.animation;
            egui::Grid::new("tuner-common")
                .num_columns(2)
                .show(ui, |ui| {
                    ui.label(t("settings.speed"));
                    speed_slider(ui, &mut a.speed);
                    ui.end_row();
                    ui.label(t("studio.tuner.common_curve"));
                    ui.horizontal(|ui| {
                        let list = easing_combo(ui, "tuner-easing", &mut a.easing);
                        curve(ui, a.easing, a.secs(a.move_ms), &[&list]);
                    });
                    ui.end_row();
                });
            ui.separator();
            egui::Grid::new("tuner-motions")
                .num_columns(5)
                .spacing([8.0, 6.0])
                .striped(true)
                .show(ui, |ui| {
                    ui.label("");
                    ui.label(egui::RichText::new(t("studio.tuner.duration")).small());
                    ui.label(egui::RichText::new(t("studio.tuner.stagger")).small());
                    ui.label(egui::RichText::new(t("studio.tuner.curve")).small());
                    ui.label("");
                    ui.end_row();
                    for m in Motion::TUNABLE {
                        ui.label(motion_name(m));
                        let (duration, stagger) = match m {
                            Motion::Move => (&mut a.move_ms, Some(&mut a.move_stagger_ms)),
                            Motion::Flip => (&mut a.flip_ms, None),
                            Motion::Deal => (&mut a.deal_ms, Some(&mut a.deal_stagger_ms)),
                            Motion::Sweep => (&mut a.sweep_ms, Some(&mut a.sweep_stagger_ms)),
                            _ => (&mut a.slide_back_ms, None),
                        };
                        let duration = ui.add(ms(duration));
                        let stagger = match stagger {
                            Some(st) => ui.add(ms(st)),
                            None => ui.label(""),
                        };
                        let secs = a.secs(*match m {
                            Motion::Move => &a.move_ms,
                            Motion::Flip => &a.flip_ms,
                            Motion::Deal => &a.deal_ms,
                            Motion::Sweep => &a.sweep_ms,
                            _ => &a.slide_back_ms,
                        });
                        let shown = a.easing_of(m);
                        let mut row = vec![duration, stagger];
                        if let Some(slot) = a.easing_slot(m) {
                            let list = egui::ComboBox::from_id_salt(("tuner-curve", m as u8))
                                .width(130.0)
                                .selected_text(match slot {
                                    Some(e) => easing_name(*e).to_string(),
                                    None => t("studio.tuner.common").to_string(),
                                })
                                .show_list(ui, |ui| {
                                    ui.selectable_value(slot, None, t("studio.tuner.common"));
                                    for e in Easing::ALL {
                                        ui.selectable_value(slot, Some(e), easing_name(e));
                                    }
                                });
                            row.push(list.response);
                        }
                        curve(ui, shown, secs, &row.iter().collect::<Vec<_>>());
                        ui.end_row();
                    }
                    ui.label(t("studio.motion.first_deal"));
                    ui.label("");
                    ui.add(ms(&mut a.initial_deal_stagger_ms));
                    ui.end_row();
                    ui.label(t("studio.motion.cascade"));
                    ui.add(ms(&mut a.celebration_ms));
                    ui.checkbox(&mut a.celebration, t("settings.celebration"));
                    ui.end_row();
                    ui.label(t("studio.motion.computer_pause"));
                    ui.add(ms(&mut s.phase10.computer_pause_ms));
                    ui.end_row();
                });
            let a = &mut s.animation;
            ui.horizontal_wrapped(|ui| {
                ui.checkbox(&mut a.deal_motion, t("settings.deal_motion"));
                ui.checkbox(&mut a.flip_motion, t("settings.flip_motion"));
                ui.checkbox(&mut a.instant, t("settings.instant"));
            });
            ui.separator();
            ui.label(t("studio.tuner.samples"));
            ui.horizontal_wrapped(|ui| {
                for &k in kinds {
                    if ui.button(sample_name(k)).clicked() {
                        samples.write(PlaySample {
                            kind: k,
                            slow: studio.slow,
                        });
                    }
                }
            });
            ui.horizontal(|ui| {
                ui.label(t("studio.tuner.slow"));
                for (slow, label) in [(1.0, "1×"), (2.0, "½×"), (4.0, "¼×"), (10.0, "0.1×")] {
                    ui.selectable_value(&mut studio.slow, slow, label);
                }
            });
            ui.separator();
            if ui.button(t("studio.tuner.reset")).clicked() {
                let d = Settings::default();
                s.animation = d.animation;
                s.phase10.computer_pause_ms = d.phase10.computer_pause_ms;
            }
        },
    );
    if s != *settings {
        *settings = s;
        save_settings.soon();
    }
    if !open {
        windows.tuner = false;
    }
    Ok(())
}

/// Errors in the watched files, at the top of the overlay until each file is fixed.
pub(crate) fn file_problems(
    mut contexts: EguiContexts,
    problems: Res<FileProblems>,
    spot: Res<crate::core::focus::NoticeSpot>,
) -> Result {
    if problems.0.is_empty() {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let screen = ctx.content_rect();
    // Just above the game's bar: Pro Spider 10 says where its bar ends (the notices' spot),
    // Spider's band is known from the window's width.
    let above = spot
        .above_bottom
        .unwrap_or_else(|| crate::spider::layout::bar::band(screen.width()) + 4.0);
    egui::Area::new(egui::Id::new("file-problems"))
        .anchor(egui::Align2::CENTER_BOTTOM, egui::vec2(0.0, -above))
        .show(ctx, |ui| {
            for message in problems.0.values() {
                egui::Frame::popup(ui.style())
                    .fill(egui::Color32::from_rgb(90, 20, 20))
                    .show(ui, |ui| {
                        ui.set_max_width(720.0f32.min(screen.width() - 40.0));
                        ui.label(
                            egui::RichText::new(message)
                                .color(egui::Color32::WHITE)
                                .monospace(),
                        );
                        ui.label(
                            egui::RichText::new(t("studio.file_problem"))
                                .color(egui::Color32::from_rgb(255, 210, 200))
                                .small(),
                        );
                    });
            }
        });
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn where_both_studio_windows_do_not_fit_the_one_opened_last_lies_over_the_other() {
        use StudioUnder::*;
        let both = (true, true);
        // The tuner opened over the theme editor, and the other way round.
        assert_eq!(stacked((true, false), both, Neither, false), Themes);
        assert_eq!(stacked((false, true), both, Neither, false), Tuner);
        // Frames later, the same one stays under.
        assert_eq!(stacked(both, both, Themes, false), Themes);
        assert_eq!(stacked(both, both, Tuner, false), Tuner);
        // Opened together, or both open as the screen narrows: the tuner waits.
        assert_eq!(stacked((false, false), both, Neither, false), Tuner);
        assert_eq!(stacked(both, both, Neither, false), Tuner);
        // The one shown closes: the other shows again; room for both: both show.
        assert_eq!(stacked(both, (true, false), Themes, false), Neither);
        assert_eq!(stacked((true, false), both, Neither, true), Neither);
        assert_eq!(stacked(both, both, Themes, true), Neither);
    }

    #[test]
    fn esc_brings_back_the_studio_window_waiting_and_asking_for_it_puts_it_on_top() {
        let mut windows = Windows::default();
        StudioUnder::Themes.comes_back(&mut windows);
        assert!(windows.themes && !windows.tuner);
        let mut under = StudioUnder::Themes;
        under.asked_for(false, true);
        assert_eq!(under, StudioUnder::Themes, "the tuner is on top already");
        under.asked_for(true, false);
        assert_eq!(under, StudioUnder::Tuner);
        under.asked_for(false, true);
        assert_eq!(under, StudioUnder::Themes);
    }
}
