//! Pro Spider 10's replays in the overlay: the list of kept games (and the game in progress, from
//! its start) to watch, and the viewer's bar: where the replay is, step, play and pause, speed,
//! a round to jump to, every hand or only the player's, close.
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use crate::core::i18n::{t, tf};
use crate::core::persist::Saves;
use crate::phase10::P10Systems;
use crate::phase10::hud::{BAR_LIFT, NARROW_BAR, measure_bar};
use crate::phase10::layout::BarBand;
use crate::phase10::round::P10Table;
use crate::phase10::saves::{KeptGame, kept_games};
use crate::phase10::viewer::{P10Viewer, ViewerControl};
use crate::shell::widgets::{
    Hint, KeyboardList, TextKind, bar_button, copy_button, fixed_window, keep_inside,
    paste_to_watch, row_wrapping,
};
use crate::shell::{Overlay, Windows};

pub(crate) fn plugin(app: &mut App) {
    app.add_systems(
        EguiPrimaryContextPass,
        (
            replay_list.in_set(Overlay::Windows),
            viewer_bar
                .run_if(resource_exists::<P10Viewer>)
                .in_set(Overlay::Bar),
        )
            .in_set(P10Systems),
    );
}

/// The list of games to watch; the kept ones are read when the window opens.
fn replay_list(
    mut contexts: EguiContexts,
    mut windows: ResMut<Windows>,
    table: Res<P10Table>,
    saves: Option<Res<Saves>>,
    viewer: Option<Res<P10Viewer>>,
    mut kept: Local<Option<Vec<KeptGame>>>,
    mut pasted: Local<String>,
    mut controls: MessageWriter<ViewerControl>,
    mut notices: ResMut<crate::core::focus::Notices>,
) -> Result {
    if !windows.replays {
        *kept = None;
        return Ok(());
    }
    let list = kept.get_or_insert_with(|| {
        saves
            .as_ref()
            .map(|s| kept_games(s.0.as_ref()))
            .unwrap_or_default()
    });
    let ctx = contexts.ctx_mut()?;
    let screen = ctx.content_rect().size();
    let mut open = true;
    fixed_window(
        t("p10.replays.title"),
        egui::Align2::CENTER_CENTER,
        egui::vec2(0.0, -20.0),
    )
    .open(&mut open)
    .show(ctx, |ui| {
        crate::shell::window_keys::keyboard_on_open(
            ui,
            "p10-replays",
            crate::shell::window_keys::OnOpen::FirstControl,
        );
        keep_inside(ui);
        // The player's game from its start (not while another replay is shown: that one is not
        // the player's).
        if viewer.is_none()
            && ui
                .button(t("p10.replays.this_game"))
                .hint(t("p10.replays.this_game_hover"))
                .clicked()
        {
            controls.write(ViewerControl::this_game(&table));
            windows.replays = false;
            windows.menu = false;
        }
        ui.separator();
        if list.is_empty() {
            ui.label(t("p10.replays.none"));
        }
        egui::ScrollArea::vertical()
            .max_height((screen.y - 200.0).max(120.0))
            .show(ui, |ui| {
                crate::shell::window_keys::keyboard_scroll(ui);
                for game in list.iter() {
                    ui.horizontal(|ui| {
                        if ui.button(t("p10.replays.watch")).clicked() {
                            controls.write(ViewerControl::Open {
                                title: game.summary.clone(),
                                log: game.text.clone(),
                            });
                            // The viewer's keys reach it only with no window over it.
                            windows.replays = false;
                            windows.menu = false;
                        }
                        copy_button(ui, &mut notices, || game.text.clone());
                        crate::shell::widgets::download_button(
                            ui,
                            &mut notices,
                            || format!("{}.p10", game.key),
                            || game.text.clone(),
                        );
                        ui.add(egui::Label::new(&game.summary).wrap());
                    });
                }
                crate::shell::window_keys::follow_focus(ui);
            });
        ui.separator();
        // A game's text from elsewhere: a file, another Arachne's Copy.
        // Another kind of text is named (and leaves the box); a game's log with a fault goes
        // to the viewer, which tells the fault.
        if let Some(title) = paste_to_watch(ui, &mut notices, "p10", &mut pasted) {
            if let Some(what) = TextKind::take_misplaced(&mut pasted, TextKind::P10Game) {
                notices.push(what);
            } else {
                controls.write(ViewerControl::Open {
                    title,
                    log: pasted.trim().to_string(),
                });
                windows.replays = false;
                windows.menu = false;
            }
        }
    });
    if !open {
        windows.replays = false;
    }
    Ok(())
}

/// Room the viewer's last controls take (the round, every hand, Close), German's the widest.
const LAST_CONTROLS: f32 = 300.0;

/// The viewer's bar along the bottom, instead of the player's.
fn viewer_bar(
    mut contexts: EguiContexts,
    viewer: Res<P10Viewer>,
    table: Res<P10Table>,
    mut controls: MessageWriter<ViewerControl>,
    mut band: ResMut<BarBand>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let v = &*viewer;
    let shown = egui::Area::new(egui::Id::new("p10-viewer-bar"))
        .anchor(egui::Align2::CENTER_BOTTOM, egui::vec2(0.0, -BAR_LIFT))
        .show(ctx, |ui| {
            egui::Frame::popup(ui.style()).show(ui, |ui| {
                // As the player's bar: on a narrow screen the controls wrap onto more rows, so
                // Close and the round stay within reach (a phone has no Esc key).
                let width = ctx.content_rect().width();
                let narrow = width < NARROW_BAR;
                ui.style_mut().wrap_mode = Some(if narrow {
                    egui::TextWrapMode::Wrap
                } else {
                    egui::TextWrapMode::Truncate
                });
                ui.vertical_centered(|ui| {
                    ui.set_max_width((width - 24.0).max(200.0));
                    ui.label(tf(
                        "p10.viewer.where",
                        &[
                            ("title", &v.title),
                            ("round", &table.game.round()),
                            ("rounds", &v.rounds()),
                            ("step", &v.at),
                            ("steps", &v.steps.len()),
                        ],
                    ));
                    let buttons = |ui: &mut egui::Ui| {
                        // The controls wrap as a whole; their own text never does.
                        ui.style_mut().wrap_mode = Some(egui::TextWrapMode::Extend);
                        let start = v.at > 0;
                        let end = v.at < v.steps.len();
                        if ui
                            .add_enabled(start, bar_button("|<"))
                            .on_hover_text(t("p10.viewer.start"))
                            .clicked()
                        {
                            controls.write(ViewerControl::Jump(0));
                        }
                        if ui
                            .add_enabled(start, bar_button("<"))
                            .on_hover_text(t("p10.viewer.back"))
                            .clicked()
                        {
                            controls.write(ViewerControl::Back);
                        }
                        let play = if v.playing {
                            t("p10.viewer.pause")
                        } else {
                            t("p10.viewer.play")
                        };
                        if ui
                            .add_enabled(end || v.playing, bar_button(play))
                            .on_hover_text("Space")
                            .clicked()
                        {
                            controls.write(ViewerControl::Play(!v.playing));
                        }
                        if ui
                            .add_enabled(end, bar_button(">"))
                            .on_hover_text(t("p10.viewer.step"))
                            .clicked()
                        {
                            controls.write(ViewerControl::Forward);
                        }
                        if ui
                            .add_enabled(end, bar_button(">|"))
                            .on_hover_text(t("p10.viewer.end"))
                            .clicked()
                        {
                            controls.write(ViewerControl::Jump(v.steps.len()));
                        }
                        let mut speed = v.speed;
                        ui.label(t("p10.viewer.speed"));
                        if narrow {
                            // The slider takes what the steps leave of a phone's row, its
                            // value (about 60 px) beside it.
                            ui.spacing_mut().slider_width =
                                (ui.available_size_before_wrap().x - 70.0).clamp(40.0, 100.0);
                        }
                        if ui
                            .add(
                                egui::Slider::new(&mut speed, 0.25..=16.0)
                                    .logarithmic(true)
                                    .suffix("/s"),
                            )
                            .changed()
                        {
                            controls.write(ViewerControl::Speed(speed));
                        }
                        if narrow && ui.available_size_before_wrap().x < LAST_CONTROLS {
                            // The round, every hand and Close on a row of their own when they
                            // do not fit after the speed: egui does not wrap before a combo box
                            // by itself.
                            ui.end_row();
                        }
                        egui::ComboBox::from_id_salt("p10-viewer-round")
                            .selected_text(tf(
                                "p10.viewer.round",
                                &[("round", &table.game.round())],
                            ))
                            .show_list(ui, |ui| {
                                for r in 1..=v.rounds() {
                                    if ui
                                        .selectable_label(
                                            r == table.game.round(),
                                            tf("p10.viewer.round", &[("round", &r)]),
                                        )
                                        .clicked()
                                    {
                                        controls.write(ViewerControl::Round(r));
                                    }
                                }
                            });
                        let mut all = v.all_hands;
                        if ui.checkbox(&mut all, t("p10.viewer.every_hand")).changed() {
                            controls.write(ViewerControl::AllHands(all));
                        }
                        if ui
                            .add(bar_button(t("p10.close")))
                            .on_hover_text("Esc")
                            .clicked()
                        {
                            controls.write(ViewerControl::Close);
                        }
                    };
                    row_wrapping(ui, narrow, buttons);
                });
            });
        });
    // The table and the notices keep clear of this bar as of the player's.
    measure_bar(ctx, shown.response.rect, &mut band, true);
    Ok(())
}
