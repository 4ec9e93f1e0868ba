//! The settings window: theme and cards, animation, sound, and the game's options.
use crate::audio::cues::{PlaySfx, Sfx};
use crate::core::i18n::{Lang, t, tf};
use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};

use arachne_engine::DiscardMode;

use crate::core::persist::SaveSettings;
use crate::core::settings::{Easing, LayoutSettings, Settings, UndoLimit};
use crate::core::theme::{BackPattern, ThemeOrigin, Themes};
use crate::shell::Windows;
use crate::shell::widgets::{KeyboardList, fitting_height, fixed_window, row, scrolling};

pub(crate) fn settings_window(
    mut contexts: EguiContexts,
    mut windows: ResMut<Windows>,
    mut settings: ResMut<Settings>,
    mut save_settings: ResMut<SaveSettings>,
    themes: Res<Themes>,
    mut under: ResMut<crate::shell::studio::StudioUnder>,
    mut sfx: MessageWriter<PlaySfx>,
    time: Res<Time<Real>>,
    mut last_sample: Local<Option<f64>>,
    sound_out: Option<Res<crate::audio::SoundOut>>,
) -> Result {
    if !windows.settings {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let mut open = true;
    let mut s = settings.clone();
    let (mut open_themes, mut open_tuner) = (false, false);
    let mut preview = None;
    // Asked for open once (`--open layout`, a link's `?open=layout`).
    let open_layout = windows.layout;
    if open_layout {
        windows.layout = false;
    }
    let high = fitting_height(ctx);
    fixed_window(
        t("settings.title"),
        egui::Align2::RIGHT_TOP,
        egui::vec2(-12.0, 12.0),
    )
    .open(&mut open)
    .show(ctx, |ui| {
        crate::shell::window_keys::keyboard_on_open(
            ui,
            "settings",
            crate::shell::window_keys::OnOpen::FirstControl,
        );
        scrolling(ui, high, |ui| {
            ui.heading(t("settings.look"));
            rows(ui, "look", |ui| {
                // The overlay's language: the system's, or one chosen.
                ui.label(t("lang.choose"));
                let system = tf("lang.system", &[("lang", &Lang::system().name())]);
                egui::ComboBox::from_id_salt("language")
                    .selected_text(s.language.map_or(system.clone(), |l| l.name().to_string()))
                    .show_list(ui, |ui| {
                        ui.selectable_value(&mut s.language, None, system);
                        for lang in Lang::ALL {
                            ui.selectable_value(&mut s.language, Some(lang), lang.name());
                        }
                    });
                ui.end_row();
                ui.label(t("settings.theme"));
                row(ui, |ui| {
                    egui::ComboBox::from_id_salt("theme")
                        .selected_text(theme_name(&s.theme, &themes))
                        .show_list(ui, |ui| {
                            for e in &themes.0 {
                                let id = &e.theme.id;
                                ui.selectable_value(
                                    &mut s.theme,
                                    id.clone(),
                                    theme_name(id, &themes),
                                );
                            }
                        });
                    if ui.button(t("settings.edit_theme")).clicked() {
                        open_themes = true;
                    }
                });
                ui.end_row();
                ui.label(t("settings.card_back"));
                egui::ComboBox::from_id_salt("back")
                    .selected_text(
                        s.cards
                            .back_pattern
                            .map_or(t("settings.themes"), pattern_name),
                    )
                    .show_list(ui, |ui| {
                        ui.selectable_value(&mut s.cards.back_pattern, None, t("settings.themes"));
                        for p in [BackPattern::Plain, BackPattern::Lattice, BackPattern::Dots] {
                            ui.selectable_value(
                                &mut s.cards.back_pattern,
                                Some(p),
                                pattern_name(p),
                            );
                        }
                    });
                ui.end_row();
                ui.label(t("settings.back_colour"));
                row(ui, |ui| {
                    let mut own = s.cards.back_colour.is_some();
                    ui.checkbox(&mut own, t("settings.own_colour"));
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
                ui.label(t("settings.deck"));
                egui::ComboBox::from_id_salt("colours")
                    .selected_text(match s.cards.four_colour {
                        None => t("settings.themes"),
                        Some(false) => t("settings.two_colours"),
                        Some(true) => t("settings.four_colours"),
                    })
                    .show_list(ui, |ui| {
                        ui.selectable_value(&mut s.cards.four_colour, None, t("settings.themes"));
                        ui.selectable_value(
                            &mut s.cards.four_colour,
                            Some(false),
                            t("settings.two_colours"),
                        );
                        ui.selectable_value(
                            &mut s.cards.four_colour,
                            Some(true),
                            t("settings.four_colours"),
                        );
                    });
                ui.end_row();
            });
            ui.separator();
            ui.heading(t("settings.motion"));
            rows(ui, "motion", |ui| {
                let a = &mut s.animation;
                ui.label(t("settings.speed"));
                speed_slider(ui, &mut a.speed);
                ui.end_row();
                ui.label(t("settings.easing"));
                easing_combo(ui, "easing", &mut a.easing);
                ui.end_row();
                if !narrow(ui.ctx()) {
                    ui.label("");
                }
                if ui.button(t("settings.tune_animation")).clicked() {
                    open_tuner = true;
                }
                ui.end_row();
                ui.label(t("settings.effects"));
                row(ui, |ui| {
                    ui.checkbox(&mut a.deal_motion, t("settings.deal_motion"));
                    ui.checkbox(&mut a.flip_motion, t("settings.flip_motion"));
                    ui.checkbox(&mut a.celebration, t("settings.celebration"));
                    ui.checkbox(&mut a.instant, t("settings.instant"));
                });
                ui.end_row();
            });
            ui.separator();
            // The Spider table's proportions (before, only in the settings file: a browser's
            // player had no way to them, and on a large screen the cards stayed 130 pixels wide).
            egui::CollapsingHeader::new(egui::RichText::new(t("settings.layout")).heading())
                .id_salt("layout")
                .open(open_layout.then_some(true))
                .show(ui, |ui| layout_grid(ui, &mut s.layout));
            ui.separator();
            ui.heading(t("settings.sound"));
            rows(ui, "sound", |ui| {
                ui.label(t("settings.sound"));
                ui.checkbox(&mut s.sound.enabled, t("settings.sound_on"));
                ui.end_row();
                // Letting go of a volume plays a sample of it, at the new level.
                ui.label(t("settings.table_sounds"));
                if volume(ui, &mut s.sound.effects_volume_db) {
                    preview = Some(Sfx::Drop);
                }
                ui.end_row();
                ui.label(t("settings.fanfares"));
                if volume(ui, &mut s.sound.fanfare_volume_db) {
                    preview = Some(Sfx::RunCompleted);
                }
                ui.end_row();
            });
            // The volumes change nothing one can hear: say why.
            if sound_out.as_ref().is_some_and(|o| o.missing) {
                ui.colored_label(
                    egui::Color32::from_rgb(220, 190, 90),
                    t("settings.no_sound_device"),
                );
            }
            ui.separator();
            ui.heading(t("settings.games"));
            rows(ui, "games", |ui| {
                let g = &mut s.game;
                ui.label(t("settings.completed_runs"));
                egui::ComboBox::from_id_salt("discard")
                    .selected_text(match g.discard {
                        None => t("settings.discard.variant"),
                        Some(DiscardMode::Automatic) => t("settings.discard.automatic"),
                        Some(DiscardMode::Manual) => t("settings.discard.manual"),
                    })
                    .show_list(ui, |ui| {
                        ui.selectable_value(&mut g.discard, None, t("settings.discard.variant"));
                        ui.selectable_value(
                            &mut g.discard,
                            Some(DiscardMode::Automatic),
                            t("settings.discard.automatic"),
                        );
                        ui.selectable_value(
                            &mut g.discard,
                            Some(DiscardMode::Manual),
                            t("settings.discard.manual"),
                        );
                    });
                ui.end_row();
                ui.label(t("settings.undo"));
                row(ui, |ui| {
                    ui.selectable_value(
                        &mut g.undo_limit,
                        UndoLimit::Variant,
                        t("settings.undo.variant"),
                    );
                    ui.selectable_value(
                        &mut g.undo_limit,
                        UndoLimit::Unlimited,
                        t("settings.undo.unlimited"),
                    );
                    let mut n = match g.undo_limit {
                        UndoLimit::Limit(n) => n,
                        _ => 3,
                    };
                    let limited = matches!(g.undo_limit, UndoLimit::Limit(_));
                    if ui
                        .selectable_label(limited, t("settings.undo.at_most"))
                        .clicked()
                        || limited
                    {
                        ui.add(egui::DragValue::new(&mut n).range(0..=999));
                        g.undo_limit = UndoLimit::Limit(n);
                    }
                });
                ui.end_row();
                ui.label(t("settings.questions"));
                ui.checkbox(&mut g.confirm_new_game, t("settings.confirm"));
                ui.end_row();
                ui.label(t("settings.solver"));
                ui.checkbox(&mut g.still_winnable, t("settings.still_winnable"));
                ui.end_row();
            });
            ui.label(egui::RichText::new(t("settings.next_game")).small());
            ui.label(egui::RichText::new(t("settings.solver_sees")).small());
            if ui.button(t("settings.defaults")).clicked() {
                // Which game is on the table is not a setting to reset: it stays.
                let on_table = s.phase10.on_table;
                s = Settings::default();
                s.phase10.on_table = on_table;
            }
        });
    });
    if s != *settings {
        *settings = s;
        save_settings.soon();
    }
    // (Played with the settings just set: sounds take their volume as they start.) An arrow
    // key held moves the slider at every repeat: one sample in a quarter of a second.
    let now = time.elapsed_secs_f64();
    if let Some(sound) = preview
        && last_sample.is_none_or(|at| now - at >= 0.25)
    {
        *last_sample = Some(now);
        sfx.write(PlaySfx::plain(sound));
    }
    if !open {
        windows.settings = false;
    }
    // The studio's windows take the settings window's place.
    if open_themes || open_tuner {
        windows.settings = false;
        under.asked_for(open_themes, open_tuner);
        windows.themes |= open_themes;
        windows.tuner |= open_tuner;
    }
    Ok(())
}

/// A layout setting on the settings window: its label's key, the field, the slider's range
/// and unit.
type LayoutRow = (
    &'static str,
    fn(&mut LayoutSettings) -> &mut f32,
    std::ops::RangeInclusive<f32>,
    &'static str,
);

/// The layout settings the settings window shows, each with a range the settings file accepts
/// (`Settings::out_of_range`; a test holds them to it).
fn layout_rows() -> [LayoutRow; 10] {
    [
        (
            "settings.layout.max_card_width",
            |l| &mut l.max_card_width,
            60.0..=400.0,
            " px",
        ),
        ("settings.layout.aspect", |l| &mut l.aspect, 1.0..=2.0, "×"),
        ("settings.layout.margin", |l| &mut l.margin, 0.0..=1.0, "×"),
        ("settings.layout.gap", |l| &mut l.gap, 0.0..=0.6, "×"),
        (
            "settings.layout.face_down_fan",
            |l| &mut l.face_down_fan,
            0.03..=0.4,
            "×",
        ),
        (
            "settings.layout.face_up_fan",
            |l| &mut l.face_up_fan,
            0.08..=0.6,
            "×",
        ),
        (
            "settings.layout.min_face_down_fan",
            |l| &mut l.min_face_down_fan,
            0.005..=0.4,
            "×",
        ),
        (
            "settings.layout.min_face_up_fan",
            |l| &mut l.min_face_up_fan,
            0.005..=0.6,
            "×",
        ),
        (
            "settings.layout.pile_offset",
            |l| &mut l.pile_offset,
            0.0..=0.6,
            "×",
        ),
        (
            "settings.layout.drag_fan",
            |l| &mut l.drag_fan,
            0.05..=0.6,
            "×",
        ),
    ]
}

/// One layout setting's slider: it keeps a value beyond its range until moved (the default
/// clamping cut it at every frame drawn, and the cut value was saved).
fn layout_slider<'a>(
    value: &'a mut f32,
    range: std::ops::RangeInclusive<f32>,
    unit: &str,
) -> egui::Slider<'a> {
    egui::Slider::new(value, range)
        .clamping(egui::SliderClamping::Edits)
        .suffix(unit)
        .max_decimals(if unit == " px" { 0 } else { 3 })
}

/// Screens narrower than this (logical pixels) show each setting under its label.
const NARROW_LAYOUT: f32 = 600.0;

/// Whether the screen is narrow (a phone held upright): see [`rows`].
fn narrow(ctx: &egui::Context) -> bool {
    ctx.content_rect().width() < NARROW_LAYOUT
}

/// A section's rows, each a label and its control (`end_row` after each): side by side in a
/// grid, or on a narrow screen each label above its control. Side by side on a phone, the
/// longest (German) labels and rows of checkboxes pushed the window past the screen's left
/// edge: the grid laid a frame out with the column widths of the frame before, and egui never
/// shrinks a window that has grown.
fn rows<R>(ui: &mut egui::Ui, id: &str, add: impl FnOnce(&mut egui::Ui) -> R) -> R {
    if narrow(ui.ctx()) {
        ui.vertical(add).inner
    } else {
        egui::Grid::new(id).num_columns(2).show(ui, add).inner
    }
}

/// A squeeze never looser than the step it squeezes (the settings file refuses that).
fn keep_squeezes_within(l: &mut LayoutSettings) {
    l.min_face_down_fan = l.min_face_down_fan.min(l.face_down_fan);
    l.min_face_up_fan = l.min_face_up_fan.min(l.face_up_fan);
}

/// The Spider table's proportions on sliders ([`layout_rows`]), and a button back to the
/// defaults. A value the file sets outside a slider's range stays as it is until that slider
/// is moved.
fn layout_grid(ui: &mut egui::Ui, l: &mut LayoutSettings) {
    ui.label(egui::RichText::new(t("settings.layout.hint")).small());
    rows(ui, "layout-grid", |ui| {
        for (key, field, range, unit) in layout_rows() {
            ui.label(t(key));
            ui.add(layout_slider(field(l), range, unit));
            ui.end_row();
        }
    });
    keep_squeezes_within(l);
    if ui.button(t("settings.layout.reset")).clicked() {
        *l = Settings::default().layout;
    }
}

/// The overall speed of motion (the settings window's and the tuner's).
pub(crate) fn speed_slider(ui: &mut egui::Ui, speed: &mut f32) {
    ui.add(
        egui::Slider::new(speed, 0.25..=4.0)
            .logarithmic(true)
            .suffix("×")
            // The file allows 0.1 to 10: clamping at every frame cut such a speed to the
            // slider's end as the window opened, and saved that over the player's file.
            .clamping(egui::SliderClamping::Edits),
    );
}

/// A choice among the easing curves.
pub(crate) fn easing_combo(ui: &mut egui::Ui, id: &str, easing: &mut Easing) -> egui::Response {
    egui::ComboBox::from_id_salt(id)
        .selected_text(easing_name(*easing))
        .show_list(ui, |ui| {
            for e in Easing::ALL {
                ui.selectable_value(easing, e, easing_name(e));
            }
        })
        .response
}

/// A volume slider in percent, kept in decibels; whether the player has just set it (let go
/// of a drag, or changed it with a key or a click), the moment to let them hear it.
fn volume(ui: &mut egui::Ui, db: &mut f32) -> bool {
    let mut percent = if *db <= -60.0 {
        0.0
    } else {
        100.0 * 10f32.powf(*db / 20.0)
    };
    // (Clamped only when edited: clamping at every frame rounds the value to whole percent,
    // which changed a volume of -6 dB to -6.02 as the window opened, saved the settings, and
    // would have played both samples.)
    let slider = ui.add(
        egui::Slider::new(&mut percent, 0.0..=100.0)
            .suffix("%")
            .fixed_decimals(0)
            .clamping(egui::SliderClamping::Edits)
            // (Typed into its number box, the volume is set when the box is left, not at
            // every key: each would play a sample.)
            .update_while_editing(false),
    );
    if slider.changed() {
        *db = if percent <= 0.5 {
            -80.0
        } else {
            20.0 * (percent / 100.0).log10()
        };
    }
    slider.drag_stopped() || (slider.changed() && !slider.dragged())
}

fn hex_rgb(hex: &str) -> Option<[u8; 3]> {
    let c = Srgba::hex(hex).ok()?.to_u8_array();
    Some([c[0], c[1], c[2]])
}

/// A theme's name: a shipped theme's in the overlay's language, else the name its file gives,
/// else its id.
pub(crate) fn theme_name(id: &str, themes: &Themes) -> String {
    let entry = themes.get(id);
    // A shipped theme keeps its translated name while its file (watched) keeps its name.
    let shipped_name = entry.is_some_and(|e| {
        !matches!(e.origin, ThemeOrigin::Saved(_))
            && crate::core::theme::Theme::builtin(id).is_some_and(|b| b.name == e.theme.name)
    });
    match id {
        "classic" if shipped_name => t("settings.theme.classic").to_string(),
        "midnight" if shipped_name => t("settings.theme.midnight").to_string(),
        _ => entry.map_or_else(|| id.to_string(), |e| e.theme.name.clone()),
    }
}

/// A card back's pattern in words.
pub(crate) fn pattern_name(p: BackPattern) -> &'static str {
    match p {
        BackPattern::Plain => t("settings.back.plain"),
        BackPattern::Lattice => t("settings.back.lattice"),
        BackPattern::Dots => t("settings.back.dots"),
    }
}

/// An easing curve in words.
pub(crate) fn easing_name(e: Easing) -> &'static str {
    match e {
        Easing::Linear => t("settings.easing.linear"),
        Easing::QuadraticOut => t("settings.easing.quadratic_out"),
        Easing::QuadraticInOut => t("settings.easing.quadratic_in_out"),
        Easing::CubicOut => t("settings.easing.cubic_out"),
        Easing::CubicInOut => t("settings.easing.cubic_in_out"),
        Easing::QuarticOut => t("settings.easing.quartic_out"),
        Easing::SineInOut => t("settings.easing.sine_in_out"),
        Easing::BackOut => t("settings.easing.back_out"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every end of every layout slider, with the squeezes kept within their steps, is a layout
    /// the settings file accepts: the window cannot save settings the game would refuse to load.
    #[test]
    fn every_layout_the_sliders_reach_is_one_the_settings_file_accepts() {
        let rows = layout_rows();
        for (i, (key, _, _, _)) in rows.iter().enumerate() {
            assert!(crate::core::i18n::t(key) != *key, "no text for {key}");
            for (j, (_, field, range, _)) in rows.iter().enumerate() {
                for end in [*range.start(), *range.end()] {
                    let mut s = Settings::default();
                    // Each end alone, and with row `i` at its own low end too.
                    let (_, low_field, low_range, _) = &rows[i];
                    *low_field(&mut s.layout) = *low_range.start();
                    *field(&mut s.layout) = end;
                    keep_squeezes_within(&mut s.layout);
                    assert_eq!(
                        s.out_of_range(),
                        None,
                        "row {j} at {end} with row {i} at its low end"
                    );
                }
            }
        }
        // And the defaults lie within the sliders.
        let mut d = Settings::default().layout;
        for (key, field, range, _) in layout_rows() {
            assert!(
                range.contains(field(&mut d)),
                "{key}'s default is off its slider"
            );
        }
    }

    /// A value the settings file sets outside a slider's range (allowed by the file) stays as
    /// it is while the layout section is shown: the slider does not cut it to its end, which
    /// would then be saved over the player's file.
    #[test]
    fn the_layout_section_keeps_a_files_value_beyond_its_sliders() {
        let mut l = Settings::default().layout;
        l.max_card_width = 600.0;
        l.gap = 0.8;
        l.drag_fan = 0.0;
        let before = l.clone();
        // A phone's width (each slider under its label) and a desktop's (the grid).
        for width in [390.0, 1280.0] {
            let ctx = egui::Context::default();
            let input = || egui::RawInput {
                screen_rect: Some(egui::Rect::from_min_size(
                    egui::Pos2::ZERO,
                    egui::vec2(width, 800.0),
                )),
                ..Default::default()
            };
            for _ in 0..3 {
                let mut out = ctx.run_ui(input(), |ui| layout_grid(ui, &mut l));
                out.textures_delta.clear();
            }
            assert_eq!(l, before, "at {width} pixels");
        }
    }

    /// A volume slider says "set" when a key moves it (the moment to play a sample at the new
    /// level), and neither says so nor changes the value while it is only drawn.
    #[test]
    fn a_volume_set_by_a_key_asks_for_a_sample() {
        let ctx = egui::Context::default();
        let mut db = -6.0;
        let frame = |events: Vec<egui::Event>, db: &mut f32| {
            let input = egui::RawInput {
                screen_rect: Some(egui::Rect::from_min_size(
                    egui::Pos2::ZERO,
                    egui::vec2(800.0, 600.0),
                )),
                events,
                ..Default::default()
            };
            let mut set = false;
            let mut out = ctx.run_ui(input, |ui| {
                set = volume(ui, db);
            });
            out.textures_delta.clear();
            set
        };
        // Drawn: nothing set, the value as it was (egui's default clamping rounded it).
        assert!(!frame(vec![], &mut db));
        assert!(!frame(vec![], &mut db));
        assert_eq!(db, -6.0);
        let key = |key, pressed| egui::Event::Key {
            key,
            physical_key: None,
            pressed,
            repeat: false,
            modifiers: egui::Modifiers::NONE,
        };
        // Tab to the slider (the first widget the keyboard reaches), then Right.
        let tab = vec![key(egui::Key::Tab, true), key(egui::Key::Tab, false)];
        assert!(!frame(tab, &mut db), "focus alone");
        assert!(!frame(vec![], &mut db), "focus alone");
        assert_eq!(db, -6.0);
        let right = vec![
            key(egui::Key::ArrowRight, true),
            key(egui::Key::ArrowRight, false),
        ];
        assert!(frame(right, &mut db), "a key moved it");
        assert!(db > -6.0, "{db}");
    }

    /// A speed or a volume from the settings file beyond its slider's range stays as it is
    /// while the settings window draws it (as the layout's sliders do, above).
    #[test]
    fn the_speed_and_volume_sliders_keep_a_files_value_beyond_them() {
        let ctx = egui::Context::default();
        let (mut speed, mut slow, mut loud) = (8.0f32, 0.1f32, 3.0f32);
        for _ in 0..3 {
            let mut out = ctx.run_ui(egui::RawInput::default(), |ui| {
                speed_slider(ui, &mut speed);
                speed_slider(ui, &mut slow);
                assert!(!volume(ui, &mut loud));
            });
            out.textures_delta.clear();
        }
        assert_eq!((speed, slow, loud), (8.0, 0.1, 3.0));
    }
}
