//! The settings window: theme and cards, animation, sound, and the game's options.
use crate::core::i18n::{Lang, t, tf};
use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};

use arachne_engine::DiscardMode;

use crate::core::persist::SaveSettings;
use crate::core::settings::{Easing, Settings, UndoLimit};
use crate::core::theme::{BUILTIN_THEMES, BackPattern};
use crate::shell::Windows;
use crate::shell::widgets::fixed_window;

pub(crate) fn settings_window(
    mut contexts: EguiContexts,
    mut windows: ResMut<Windows>,
    mut settings: ResMut<Settings>,
    mut save_settings: ResMut<SaveSettings>,
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
                // The overlay's language: the system's, or one chosen.
                ui.label(t("lang.choose"));
                let system = tf("lang.system", &[("lang", &Lang::system().name())]);
                egui::ComboBox::from_id_salt("language")
                    .selected_text(s.language.map_or(system.clone(), |l| l.name().to_string()))
                    .show_ui(ui, |ui| {
                        ui.selectable_value(&mut s.language, None, system);
                        for lang in Lang::ALL {
                            ui.selectable_value(&mut s.language, Some(lang), lang.name());
                        }
                    });
                ui.end_row();
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
    crate::core::theme::Theme::builtin(id).map_or_else(|| id.to_string(), |t| t.name)
}
