//! Pro Spider 10's score sheet, laid out like the rulebook's paper one (a column per player, a
//! row per round with the points added and an X for a phase laid, the running totals and each
//! player's current phase), open at any time and shown at each round's end; and its statistics
//! per variant and player count.
use arachne_engine::phase10::variant;
use arachne_engine::phase10::{Event, Stage};
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use crate::core::focus::Notices;
use crate::core::i18n::{t, tf, variant_name};
use crate::core::persist::{Saves, save};
use crate::phase10::P10Systems;
use crate::phase10::menu::P10Form;
use crate::phase10::round::{P10Changed, P10Request, P10Table, PLAYER};
use crate::phase10::saves::{P10Statistics, STATS_KEY};
use crate::phase10::viewer::P10Viewer;
use crate::shell::widgets::fixed_window;
use crate::shell::window_keys::OnOpen;
use crate::shell::{Overlay, Windows};

pub(crate) fn plugin(app: &mut App) {
    app.add_systems(
        EguiPrimaryContextPass,
        (sheet_window, statistics)
            .in_set(Overlay::Windows)
            .in_set(P10Systems),
    )
    .add_systems(Update, show_at_round_end.in_set(P10Systems));
}

/// The sheet opens by itself when a round ends.
fn show_at_round_end(
    mut changed: MessageReader<P10Changed>,
    mut windows: ResMut<Windows>,
    viewer: Option<Res<P10Viewer>>,
) {
    if viewer.is_some() {
        changed.clear();
        return;
    }
    let ended = changed.read().any(|c| {
        c.events
            .iter()
            .any(|e| matches!(e, Event::RoundEnded { .. }))
    });
    if ended {
        windows.sheet = true;
    }
}

/// The round in progress (or the round just over), turn by turn, in words, as every seat saw
/// it: another seat's stock draws without their card, the player's with it. From the game's log,
/// so a resumed game or a watched one tells its round too.
pub fn round_story(table: &P10Table) -> Vec<String> {
    use arachne_engine::phase10::Action;
    use arachne_engine::phase10::action::LoggedAction;
    use arachne_engine::phase10::log::Item;
    // Only the round in progress is read (a long game's log is read from its last round on).
    let text = table.log.text_so_far();
    let from = text.rfind("\nround:").map_or(0, |i| i + 1);
    let Ok(items) = arachne_engine::phase10::parse_log(&text[from..]) else {
        return Vec::new();
    };
    let start = items
        .iter()
        .rposition(|(_, item)| matches!(item, Item::Round(_)))
        .map_or(0, |i| i + 1);
    let name =
        |card| crate::phase10::input::card_words(card, crate::phase10::input::CardWords::Object);
    let mut lines = Vec::new();
    for (_, item) in &items[start..] {
        let (seat, acts) = match item {
            Item::Turn(seat, actions) => {
                let mut acts: Vec<String> = Vec::new();
                // A turn's hits in a row are told as one.
                let mut hits: Vec<String> = Vec::new();
                let told_hits = |hits: &mut Vec<String>, acts: &mut Vec<String>| {
                    if !hits.is_empty() {
                        acts.push(tf("p10.story.hit", &[("cards", &hits.join(", "))]));
                        hits.clear();
                    }
                };
                for logged in actions {
                    let list = match logged {
                        LoggedAction::DrawStock(Some(card)) if *seat == PLAYER => {
                            acts.push(tf("p10.story.stock_card", &[("card", &name(*card))]));
                            continue;
                        }
                        LoggedAction::DrawStock(_) => {
                            acts.push(t("p10.story.stock").into());
                            continue;
                        }
                        LoggedAction::Actions(list) => list,
                    };
                    for action in list {
                        if let Action::Hit { card, .. } = action {
                            hits.push(name(card.card));
                            continue;
                        }
                        told_hits(&mut hits, &mut acts);
                        acts.push(match action {
                            Action::DrawDiscard(card) => {
                                tf("p10.story.pile", &[("card", &name(*card))])
                            }
                            Action::Knock(card) => tf("p10.story.knock", &[("card", &name(*card))]),
                            Action::Lay { phase, .. } => tf("p10.story.lay", &[("phase", phase)]),
                            Action::Discard(card) => {
                                tf("p10.story.discard", &[("card", &name(*card))])
                            }
                            Action::Skip(who) if *who == PLAYER => t("p10.story.skip_you").into(),
                            Action::Skip(who) => {
                                tf("p10.story.skip", &[("who", &table.name(*who))])
                            }
                            other => other.to_string(),
                        });
                    }
                }
                told_hits(&mut hits, &mut acts);
                (*seat, acts)
            }
            Item::Skipped(seat) => (*seat, vec![t("p10.story.skipped").to_string()]),
            Item::Reshuffle => {
                lines.push(t("p10.story.reshuffle").to_string());
                continue;
            }
            _ => continue,
        };
        lines.push(format!("{}: {}", table.name(seat), acts.join(" · ")));
    }
    lines
}

/// One cell of the sheet: the points added, and `X` with the phase's number when one was laid.
pub fn cell(points: u32, laid: Option<u8>) -> String {
    match laid {
        Some(phase) => format!("+{points}  X{phase}"),
        None => format!("+{points}"),
    }
}

#[allow(clippy::too_many_arguments)]
fn sheet_window(
    mut contexts: EguiContexts,
    table: Res<P10Table>,
    mut windows: ResMut<Windows>,
    mut requests: MessageWriter<P10Request>,
    mut controls: MessageWriter<crate::phase10::viewer::ViewerControl>,
    mut form: ResMut<P10Form>,
    time: Res<Time<Real>>,
    viewer: Option<Res<P10Viewer>>,
    mut story: Local<Option<(crate::core::i18n::Lang, Vec<String>)>>,
) -> Result {
    if table.is_changed() {
        *story = None;
    }
    if !windows.sheet {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let game = &table.game;
    let sheet = &table.sheet;
    let players = game.players();
    let round_over = game.stage() == Stage::RoundOver;
    let mut open = true;
    let screen = ctx.content_rect().size();
    // Wide enough for every column when the window allows; it scrolls inside otherwise.
    let width = (screen.x - 48.0)
        .min(90.0 + 120.0 * players as f32)
        .max(200.0);
    fixed_window(
        t("p10.score_sheet"),
        egui::Align2::CENTER_CENTER,
        egui::vec2(0.0, -20.0),
    )
    .min_width(width)
    .max_width(width)
    .open(&mut open)
    .show(ctx, |ui| {
        // At the game's end its first control, New game, has the keyboard as the sheet opens
        // (or as the game ends under it): Enter or Space deals a new game with the same players
        // and variant (taken once: the arrows scroll a long sheet when it leaves). Otherwise
        // the arrows scroll the sheet.
        let (name, on_open) = if game.is_over() && viewer.is_none() {
            ("p10-score-sheet-at-the-end", OnOpen::FirstControl)
        } else {
            ("p10-score-sheet", OnOpen::Scroll)
        };
        crate::shell::window_keys::keyboard_on_open(ui, name, on_open);
        ui.label(tf(
            "p10.sheet.about",
            &[
                (
                    "variant",
                    &variant_name(&game.variant().id, &game.variant().name),
                ),
                ("players", &players),
                ("seed", &game.seed()),
            ],
        ));
        // How the round just finished ended: who went out, or that nobody could.
        if (round_over || game.is_over())
            && let Some(row) = sheet.rows.last()
        {
            ui.label(
                egui::RichText::new(match row.out {
                    Some(PLAYER) => tf("p10.sheet.you_out", &[("round", &row.round)]),
                    Some(seat) => tf(
                        "p10.sheet.out",
                        &[("round", &row.round), ("who", &table.name(seat))],
                    ),
                    None => tf("p10.sheet.nobody_out", &[("round", &row.round)]),
                })
                .strong(),
            );
        }
        egui::ScrollArea::both()
            .max_width(width)
            .max_height((screen.y - 220.0).max(120.0))
            .show(ui, |ui| {
                crate::shell::window_keys::keyboard_scroll(ui);
                egui::Grid::new("p10-sheet")
                    .striped(true)
                    .spacing([18.0, 4.0])
                    .show(ui, |ui| {
                        ui.strong(t("p10.sheet.round"));
                        for seat in 0..players {
                            ui.strong(table.name(seat));
                        }
                        ui.end_row();
                        for row in &sheet.rows {
                            ui.label(row.round.to_string());
                            for seat in 0..players {
                                let text = cell(row.points[seat], row.laid[seat]);
                                if row.out == Some(seat) {
                                    ui.label(egui::RichText::new(text).strong())
                                        .on_hover_text(t("p10.sheet.went_out"));
                                } else {
                                    ui.label(text);
                                }
                            }
                            ui.end_row();
                        }
                        if !round_over && !game.is_over() && game.round() > 0 {
                            ui.label(tf("p10.sheet.now", &[("round", &game.round())]));
                            for seat in 0..players {
                                ui.label(
                                    sheet.laid_now[seat].map_or(String::new(), |p| format!("X{p}")),
                                );
                            }
                            ui.end_row();
                        }
                        ui.strong(t("p10.sheet.total"));
                        for seat in 0..players {
                            ui.strong(game.standings()[seat].points.to_string());
                        }
                        ui.end_row();
                        ui.strong(t("p10.sheet.phase"));
                        for seat in 0..players {
                            let next = game.next_text(seat);
                            let tally = crate::phase10::hud::laid_tally(game, seat);
                            ui.label(match (next.as_str(), tally) {
                                // One round per phase: how many it laid, not "all laid".
                                ("done", Some((count, total))) => tf(
                                    "p10.sheet.laid_count",
                                    &[("count", &count), ("total", &total)],
                                ),
                                ("done", None) => t("p10.sheet.all_laid").to_string(),
                                _ => next,
                            });
                        }
                        ui.end_row();
                    });
            });
        ui.label(t("p10.sheet.legend"));
        // What happened this round: the latest turns in sight (the list keeps to its end).
        egui::CollapsingHeader::new(t("p10.story.title"))
            .id_salt("p10-story")
            .default_open(true)
            .show(ui, |ui| {
                // Told again only when the game has changed (or the language).
                let lang = crate::core::i18n::lang();
                if story.as_ref().is_none_or(|(l, _)| *l != lang) {
                    *story = Some((lang, round_story(&table)));
                }
                let story = story
                    .as_ref()
                    .map(|(_, s)| s.as_slice())
                    .unwrap_or_default();
                egui::ScrollArea::vertical()
                    .id_salt("p10-story-scroll")
                    .max_height(120.0)
                    .stick_to_bottom(true)
                    .show(ui, |ui| {
                        // Shift with the arrows or Page Up/Down: the sheet's own keys scroll
                        // the sheet.
                        crate::shell::window_keys::keyboard_scroll_shifted(ui);
                        if story.is_empty() {
                            ui.label(t("p10.story.none"));
                        }
                        for line in story {
                            ui.label(line);
                        }
                    });
            });
        if game.is_over() {
            let winners: Vec<String> = game.winners().iter().map(|&s| table.name(s)).collect();
            // (A log from elsewhere names nobody: its first seat is "Seat 1", not "you".)
            let you = game.winners().contains(&PLAYER) && !table.spec.unnamed;
            let others: Vec<String> = game
                .winners()
                .iter()
                .filter(|&&s| s != PLAYER || table.spec.unnamed)
                .map(|&s| table.name(s))
                .collect();
            ui.heading(if you && others.is_empty() {
                t("p10.sheet.you_won").to_string()
            } else if you {
                tf(
                    "p10.sheet.you_tied",
                    &[("others", &others.join(t("p10.and")))],
                )
            } else {
                tf("p10.sheet.won", &[("winners", &winners.join(t("p10.and")))])
            });
        }
        ui.horizontal(|ui| {
            if game.is_over() && viewer.is_none() {
                // (The sheet's first control: it has the keyboard as the sheet opens.)
                if ui.button(t("p10.bar.new_game")).clicked() {
                    crate::phase10::menu::ask_fresh_deal(&table, &time, &mut form, &mut requests);
                    windows.sheet = false;
                }
                if ui.button(t("p10.sheet.watch")).clicked() {
                    controls.write(crate::phase10::viewer::ViewerControl::this_game(&table));
                    windows.sheet = false;
                }
            }
            if round_over && viewer.is_none() {
                let next = ui.button(t("p10.next_round"));
                // Enter deals the next round, unless another control has the keyboard (Enter
                // on Close only closes the sheet). Pressed, not held: an Enter held down to
                // hurry the computer seats repeats, and would deal as the sheet opens.
                let enter = ui.input(|i| {
                    i.events.iter().any(|e| {
                        matches!(
                            e,
                            egui::Event::Key {
                                key: egui::Key::Enter,
                                pressed: true,
                                repeat: false,
                                ..
                            }
                        )
                    })
                }) && ui.memory(|m| m.focused().is_none());
                if next.clicked() || enter {
                    requests.write(P10Request::NextRound);
                    windows.sheet = false;
                }
            }
            if ui.button(t("p10.close")).clicked() {
                windows.sheet = false;
            }
        });
    });
    if !open {
        windows.sheet = false;
    }
    Ok(())
}

fn statistics(
    mut contexts: EguiContexts,
    mut windows: ResMut<Windows>,
    mut form: ResMut<P10Form>,
    mut stats: ResMut<P10Statistics>,
    saves: Option<Res<Saves>>,
    mut notices: ResMut<Notices>,
) -> Result {
    if !windows.stats {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let mut open = true;
    let mut reset = None;
    let screen = ctx.content_rect().size();
    let width = (screen.x - 48.0).clamp(200.0, 1040.0);
    fixed_window(
        t("p10.stats.title"),
        egui::Align2::CENTER_CENTER,
        egui::vec2(0.0, -20.0),
    )
    .min_width(width)
    .max_width(width)
    .open(&mut open)
    .show(ctx, |ui| {
        crate::shell::window_keys::keyboard_on_open(ui, "p10-statistics", OnOpen::Scroll);
        egui::ScrollArea::both()
            .max_width(width)
            .max_height((screen.y - 160.0).max(120.0))
            .show(ui, |ui| {
                crate::shell::window_keys::keyboard_scroll(ui);
                statistics_table(ui, &mut form, &stats, &mut reset);
                crate::shell::window_keys::follow_focus(ui);
            });
        // The notes wrap to the window rather than scroll with the table.
        if !stats.by.is_empty() {
            ui.set_max_width(width);
            ui.label(t("p10.stats.note_count"));
            ui.label(t("p10.stats.note_means"));
        }
    });
    if let Some(key) = reset {
        stats.by.remove(&key);
        form.reset_stats = None;
        if let Some(saves) = saves
            && let Err(e) = save(saves.0.as_ref(), STATS_KEY, &*stats)
        {
            notices.push(tf("p10.stats.not_saved", &[("why", &e)]));
        }
    }
    if !open {
        windows.stats = false;
        form.reset_stats = None;
    }
    Ok(())
}

/// One row per variant and player count played, with its reset (asked twice).
fn statistics_table(
    ui: &mut egui::Ui,
    form: &mut P10Form,
    stats: &P10Statistics,
    reset: &mut Option<String>,
) {
    if stats.by.is_empty() {
        ui.label(t("p10.stats.none"));
        return;
    }
    let one = |x: Option<f64>| x.map_or("–".to_string(), |x| format!("{x:.1}"));
    egui::Grid::new("p10-stats")
        .striped(true)
        .spacing([14.0, 4.0])
        .show(ui, |ui| {
            for h in [
                "p10.stats.variant",
                "p10.form.players",
                "p10.stats.games",
                "p10.stats.wins",
                "p10.stats.win_percent",
                "p10.stats.mean_points",
                "p10.stats.mean_rounds",
                "p10.stats.best",
                "p10.stats.phases_per_round",
            ] {
                ui.strong(t(h));
            }
            ui.end_row();
            for (key, s) in &stats.by {
                let (id, players) = P10Statistics::split(key).unwrap_or((key.as_str(), 0));
                let name =
                    variant::resolve(id).map_or(id.to_string(), |v| variant_name(&v.id, &v.name));
                ui.label(name);
                ui.label(players.to_string());
                ui.label(s.played.to_string());
                ui.label(s.won.to_string());
                ui.label(format!("{:.0}%", s.win_percent()));
                ui.label(one(s.mean_points()));
                ui.label(one(s.mean_rounds()));
                ui.label(
                    s.best_points
                        .map_or("–".into(), |p| tf("p10.stats.points", &[("points", &p)])),
                );
                ui.label(
                    s.phases_per_round()
                        .map_or("–".into(), |x| format!("{x:.2}")),
                );
                if form.reset_stats.as_deref() == Some(key.as_str()) {
                    ui.horizontal(|ui| {
                        ui.label(t("p10.stats.reset_q"));
                        if ui.button(t("p10.stats.reset_yes")).clicked() {
                            *reset = Some(key.clone());
                        }
                        let no = ui.button(t("p10.stats.reset_no"));
                        crate::shell::window_keys::focus_once_asked(ui, &no);
                        if no.clicked() {
                            form.reset_stats = None;
                        }
                    });
                } else if ui.button(t("p10.stats.reset")).clicked() {
                    form.reset_stats = Some(key.clone());
                    crate::shell::window_keys::ask_focus(ui);
                }
                ui.end_row();
            }
        });
}

#[cfg(test)]
mod tests {
    use super::*;
    use arachne_engine::phase10::Action;

    #[test]
    fn the_round_is_told_turn_by_turn_with_only_what_every_seat_saw() {
        let spec = crate::phase10::round::P10Spec::standard(3, 12, "petra").unwrap();
        let (mut table, _) = P10Table::new(spec).unwrap();
        assert_eq!(round_story(&table), Vec::<String>::new());
        // Every seat takes the stock and discards its first card, three times round.
        for _ in 0..9 {
            let seat = table.game.to_move().unwrap();
            let drawn = table.apply(Action::DrawStock).unwrap();
            let first = table.game.hand(seat)[0];
            table.apply(Action::Discard(first)).unwrap();
            assert!(!drawn.is_empty());
        }
        let story = round_story(&table);
        assert_eq!(story.len(), 9, "{story:#?}");
        for line in &story {
            let (who, what) = line.split_once(": ").unwrap();
            if who == "You" {
                // The player's own draw names the card.
                assert!(what.starts_with("drew the "), "{line}");
                assert!(what.contains(" from the stock · discarded the "), "{line}");
            } else {
                assert!(
                    what.starts_with("drew from the stock · discarded the "),
                    "{line}"
                );
            }
        }
        // The player's turn in progress is told as far as it went.
        while table.game.to_move() != Some(PLAYER) {
            let seat = table.game.to_move().unwrap();
            table.apply(Action::DrawStock).unwrap();
            let first = table.game.hand(seat)[0];
            table.apply(Action::Discard(first)).unwrap();
        }
        let top = *table.game.discard_pile().last().unwrap();
        assert!(!top.is_skip(), "the player can take up the pile's top");
        {
            table.apply(Action::DrawDiscard(top)).unwrap();
            let last = round_story(&table).pop().unwrap();
            assert_eq!(
                last,
                format!(
                    "You: took {} from the discard pile",
                    crate::phase10::input::card_words(
                        top,
                        crate::phase10::input::CardWords::Object
                    )
                )
            );
        }
    }
}
