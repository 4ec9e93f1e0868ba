//! Spider's records: the statistics window (per variant, reset asked twice) and the saved
//! replays of finished games, each opened in the viewer.
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use arachne_engine::variant;

use crate::core::focus::Notices;
use crate::core::i18n::{Lang, fill, lang, lookup, t, tf, variant_name};
use crate::core::persist::{Saves, save};
use crate::shell::widgets::{TextKind, clock, fitting_width, fixed_window};
use crate::shell::{Overlay, Windows};
use crate::spider::SpiderSystems;
use crate::spider::menu::Form;
use crate::spider::playback::{Control, open_replay};
use crate::spider::saves::{KeptReplay, STATS_KEY, Statistics, kept_replays};
use crate::spider::table::{Table, Watching};

pub(crate) fn plugin(app: &mut App) {
    app.add_systems(
        EguiPrimaryContextPass,
        ((statistics, replays).chain().in_set(Overlay::Windows)).in_set(SpiderSystems),
    );
}

fn statistics(
    mut contexts: EguiContexts,
    mut windows: ResMut<Windows>,
    mut form: ResMut<Form>,
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
        t("spider.stats.title"),
        egui::Align2::CENTER_CENTER,
        egui::vec2(0.0, -20.0),
    )
    .min_width(width)
    .max_width(width)
    .open(&mut open)
    .show(ctx, |ui| {
        crate::shell::window_keys::keyboard_on_open(
            ui,
            "spider-statistics",
            crate::shell::window_keys::OnOpen::Scroll,
        );
        egui::ScrollArea::both()
            .max_width(width)
            .max_height((screen.y - 160.0).max(120.0))
            .show(ui, |ui| {
                crate::shell::window_keys::keyboard_scroll(ui);
                statistics_table(ui, &mut form, &stats, &mut reset);
                crate::shell::window_keys::follow_focus(ui);
            });
        // The notes wrap to the window rather than scroll with the table.
        ui.set_max_width(width);
        ui.label(t("spider.stats.note_count"));
        ui.label(t("spider.stats.note_helped"));
    });
    if let Some(id) = reset {
        stats.variants.remove(&id);
        form.reset_stats = None;
        if let Some(saves) = saves
            && let Err(e) = save(saves.0.as_ref(), STATS_KEY, &*stats)
        {
            notices.push(tf("spider.stats.not_saved", &[("why", &e)]));
        }
    }
    if !open {
        windows.stats = false;
        form.reset_stats = None;
    }
    Ok(())
}

/// The statistics window's table: one row per variant, with its reset (asked twice).
fn statistics_table(
    ui: &mut egui::Ui,
    form: &mut Form,
    stats: &Statistics,
    reset: &mut Option<String>,
) {
    egui::Grid::new("stats")
        .striped(true)
        .spacing([14.0, 4.0])
        .show(ui, |ui| {
            for h in [
                t("spider.stats.variant"),
                t("spider.stats.played"),
                t("spider.stats.won"),
                t("spider.stats.win_percent"),
                t("spider.stats.streak"),
                t("spider.stats.best_streak"),
                t("spider.stats.loss_streak"),
                t("spider.stats.best_time"),
                t("spider.stats.best_score"),
                t("spider.stats.fewest_moves"),
                "",
            ] {
                ui.strong(h);
            }
            ui.end_row();
            for v in variant::builtin() {
                let s = stats.variants.get(&v.id).cloned().unwrap_or_default();
                ui.label(variant_name(&v.id, &v.name));
                ui.label(s.played.to_string());
                ui.label(if s.assisted_wins > 0 {
                    tf(
                        "spider.stats.won_helped",
                        &[("won", &s.won), ("helped", &s.assisted_wins)],
                    )
                } else {
                    s.won.to_string()
                });
                ui.label(if s.played == 0 {
                    "–".to_string()
                } else {
                    tf(
                        "spider.stats.percent",
                        &[("percent", &format!("{:.0}", s.win_percent()))],
                    )
                });
                ui.label(s.current_streak.to_string());
                ui.label(s.best_streak.to_string());
                ui.label(s.current_loss_streak.to_string());
                ui.label(s.best_time_secs.map_or("–".into(), clock));
                ui.label(s.best_score.map_or("–".into(), |x| x.to_string()));
                ui.label(s.fewest_moves.map_or("–".into(), |x| x.to_string()));
                if form.reset_stats.as_deref() == Some(v.id.as_str()) {
                    ui.horizontal(|ui| {
                        ui.label(t("spider.stats.reset_q"));
                        if ui.button(t("spider.stats.reset_yes")).clicked() {
                            *reset = Some(v.id.clone());
                        }
                        let no = ui.button(t("spider.stats.reset_no"));
                        crate::shell::window_keys::focus_once_asked(ui, &no);
                        if no.clicked() {
                            form.reset_stats = None;
                        }
                    });
                } else if ui
                    .add_enabled(s.played > 0, egui::Button::new(t("spider.stats.reset")))
                    .clicked()
                {
                    form.reset_stats = Some(v.id.clone());
                    crate::shell::window_keys::ask_focus(ui);
                }
                ui.end_row();
            }
        });
}

fn replays(
    mut contexts: EguiContexts,
    mut windows: ResMut<Windows>,
    mut form: ResMut<Form>,
    mut was_open: Local<bool>,
    saves: Option<Res<Saves>>,
    table: Res<Table>,
    watching: Res<Watching>,
    mut controls: MessageWriter<Control>,
    mut notices: ResMut<Notices>,
) -> Result {
    if !windows.replays {
        *was_open = false;
        return Ok(());
    }
    // Read afresh each time the window opens.
    if !*was_open {
        *was_open = true;
        form.saved = None;
    }
    if form.saved.is_none() {
        form.saved = Some(
            saves
                .as_ref()
                .map(|s| kept_replays(s.0.as_ref()))
                .unwrap_or_default(),
        );
    }
    let ctx = contexts.ctx_mut()?;
    let mut open = true;
    let mut chosen = None;
    let mut pasted = None;
    fixed_window(
        t("spider.replays.title"),
        egui::Align2::CENTER_CENTER,
        egui::vec2(0.0, -20.0),
    )
    .open(&mut open)
    .show(ctx, |ui| {
        crate::shell::window_keys::keyboard_on_open(
            ui,
            "spider-replays",
            crate::shell::window_keys::OnOpen::FirstControl,
        );
        if !watching.0
            && table.game.move_count() > 0
            && ui.button(t("spider.replays.this_game")).clicked()
        {
            controls.write(Control::history(&table, true));
            windows.replays = false;
        }
        ui.separator();
        let saved = form.saved.as_deref().unwrap_or_default();
        if saved.is_empty() {
            ui.label(t("spider.replays.none"));
        }
        egui::ScrollArea::vertical()
            .max_height(360.0)
            .show(ui, |ui| {
                crate::shell::window_keys::keyboard_scroll(ui);
                // On a phone a game's line wraps beside its buttons (German's take 170 px).
                let line = (fitting_width(ui.ctx()) - 180.0).max(120.0);
                egui::Grid::new("replays")
                    .striped(true)
                    .max_col_width(line)
                    .show(ui, |ui| {
                        for kept in saved {
                            let r = match kept {
                                KeptReplay::Read(r) => r,
                                // Its text can still be taken away, to mend or to report.
                                KeptReplay::Unreadable { key, text, why } => {
                                    ui.add(
                                        egui::Label::new(tf(
                                            "spider.replays.unreadable",
                                            &[("why", why)],
                                        ))
                                        .wrap(),
                                    );
                                    ui.horizontal(|ui| {
                                        if !text.is_empty() {
                                            crate::shell::widgets::copy_button(
                                                ui,
                                                &mut notices,
                                                || text.clone(),
                                            );
                                            crate::shell::widgets::download_button(
                                                ui,
                                                &mut notices,
                                                || format!("{key}.ron"),
                                                || text.clone(),
                                            );
                                        }
                                    });
                                    ui.end_row();
                                    continue;
                                }
                            };
                            let name = variant::builtin()
                                .iter()
                                .find(|v| v.id == r.replay.variant)
                                .map_or(r.replay.variant.clone(), |v| variant_name(&v.id, &v.name));
                            let title = replay_title(
                                lang(),
                                &name,
                                r.replay.seed,
                                r.won,
                                r.replay.moves.len(),
                            );
                            ui.add(egui::Label::new(title.as_str()).wrap());
                            ui.horizontal(|ui| {
                                if ui.button(t("spider.replays.watch")).clicked() {
                                    chosen = Some((r.replay.clone(), title.clone()));
                                }
                                crate::shell::widgets::copy_button(ui, &mut notices, || {
                                    r.replay.to_ron()
                                });
                                crate::shell::widgets::download_button(
                                    ui,
                                    &mut notices,
                                    || {
                                        format!(
                                            "{}-{}-{}.ron",
                                            r.replay.variant,
                                            r.replay.seed,
                                            if r.won { "won" } else { "lost" }
                                        )
                                    },
                                    || r.replay.to_ron(),
                                );
                            });
                            ui.end_row();
                        }
                    });
                crate::shell::window_keys::follow_focus(ui);
            });
        ui.separator();
        // A replay's text from elsewhere: a file, another Arachne's Copy.
        if let Some(title) =
            crate::shell::widgets::paste_to_watch(ui, &mut notices, "spider", &mut form.pasted)
        {
            pasted = Some((arachne_engine::Replay::from_ron(form.pasted.trim()), title));
        }
    });
    match pasted {
        Some((Ok(replay), title)) => chosen = Some((replay, title)),
        // Another kind of text is named (and leaves the box); a replay with a fault stays,
        // with the fault told.
        Some((Err(e), _)) => notices.push(
            TextKind::take_misplaced(&mut form.pasted, TextKind::SpiderReplay)
                .unwrap_or_else(|| tf("spider.replays.cannot_show", &[("why", &e)])),
        ),
        None => {}
    }
    if let Some((replay, title)) = chosen {
        match open_replay(&replay, title, None) {
            Ok(c) => {
                controls.write(c);
                windows.replays = false;
                windows.menu = false;
            }
            Err(e) => notices.push(tf("spider.replays.cannot_show", &[("why", &e)])),
        }
    }
    if !open {
        windows.replays = false;
    }
    Ok(())
}

/// A kept game's line in the replay list (and its title in the viewer), in `lang`:
/// "Spider (2 suits), deal 7: won in 112 moves".
pub(crate) fn replay_title(lang: Lang, name: &str, deal: u64, won: bool, moves: usize) -> String {
    let moves = if moves == 1 {
        lookup(lang, "spider.replays.one_move").to_string()
    } else {
        fill(lookup(lang, "spider.replays.moves"), &[("moves", &moves)])
    };
    let line = if won {
        lookup(lang, "spider.replays.won")
    } else {
        lookup(lang, "spider.replays.lost")
    };
    fill(line, &[("name", &name), ("deal", &deal), ("moves", &moves)])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_kept_game_is_titled_with_the_plural_its_moves_need() {
        let en = |won, moves| replay_title(Lang::En, "Spider (2 suits)", 7, won, moves);
        assert_eq!(en(true, 1), "Spider (2 suits), deal 7: won in 1 move");
        assert_eq!(en(true, 112), "Spider (2 suits), deal 7: won in 112 moves");
        assert_eq!(en(false, 0), "Spider (2 suits), deal 7: lost in 0 moves");
        let de = |won, moves| replay_title(Lang::De, "Spider (2 Farben)", 7, won, moves);
        assert_eq!(de(true, 1), "Spider (2 Farben), Spiel 7: in 1 Zug gewonnen");
        assert_eq!(
            de(true, 112),
            "Spider (2 Farben), Spiel 7: in 112 Zügen gewonnen"
        );
        assert_eq!(
            de(false, 2),
            "Spider (2 Farben), Spiel 7: nach 2 Zügen verloren"
        );
        assert!(!de(false, 2).contains('{'), "every placeholder is filled");
    }
}
