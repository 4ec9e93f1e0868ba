//! Pro Spider 10's part of the overlay: a label by each seat (name, phase, points, cards in hand,
//! a skip waiting), the ten phases with each seat's progress, and the bar: what the player can do
//! now and the buttons for it (lay, find it, sort, next round, score sheet, new game, menu); and the
//! question when a joker could mean more than one thing in a lay.
use arachne_engine::phase10::{Action, Need, Phase, Stage};
use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use crate::core::focus::Notices;
use crate::core::i18n::{t, tf};
use crate::core::persist::SaveSettings;
use crate::core::settings::Settings;
use crate::core::theme::Theme;
use crate::phase10::P10Systems;
use crate::phase10::input::{
    CardWords, HandCursor, LayChoice, capitalized, card_words, chosen_cards, describe_choice,
    find_and_choose, lay_chosen, pick_lay,
};
use crate::phase10::layout::{BarBand, P10Layout};
use crate::phase10::menu::{P10Form, ask_fresh_deal};
use crate::phase10::plan::sort_hand;
use crate::phase10::round::{P10Request, P10Table, PLAYER};
use crate::phase10::seats::Seats;
use crate::phase10::view::{P10Piles, Selection};
use crate::shell::widgets::{bar_button, fixed_window, row_wrapping};
use crate::shell::{Overlay, Windows};

pub(crate) fn plugin(app: &mut App) {
    app.add_systems(
        EguiPrimaryContextPass,
        (
            seat_labels.in_set(Overlay::Bar),
            phases.in_set(Overlay::Bar),
            bar.run_if(crate::phase10::viewer::not_watching)
                .in_set(Overlay::Bar),
            lay_question.in_set(Overlay::Top),
            hand_cursor
                .run_if(crate::phase10::viewer::not_watching)
                .in_set(Overlay::Bar),
        )
            .in_set(P10Systems),
    );
}

/// A phase in words: "2 sets of 3", "1 set of 3 + 1 run of 4".
pub fn describe(phase: &Phase) -> String {
    let mut parts: Vec<(Need, usize)> = Vec::new();
    for &need in &phase.groups {
        match parts.last_mut() {
            Some((n, count)) if *n == need => *count += 1,
            _ => parts.push((need, 1)),
        }
    }
    parts
        .iter()
        .map(|(need, count)| {
            let key = match (need, *count == 1) {
                (Need::Set(_), true) => "p10.need.set_one",
                (Need::Set(_), false) => "p10.need.set_many",
                (Need::Run(_), true) => "p10.need.run_one",
                (Need::Run(_), false) => "p10.need.run_many",
                (Need::Colour(_), true) => "p10.need.colour_one",
                (Need::Colour(_), false) => "p10.need.colour_many",
            };
            tf(key, &[("count", count), ("size", &need.size())])
        })
        .collect::<Vec<_>>()
        .join(" + ")
}

fn to_screen(p: Vec2, window: &Window) -> egui::Pos2 {
    egui::pos2(p.x + window.width() / 2.0, window.height() / 2.0 - p.y)
}

fn text_colour(theme: &Theme) -> egui::Color32 {
    let [r, g, b, _] = theme.text.to_srgba().to_u8_array();
    egui::Color32::from_rgb(r, g, b)
}

fn seat_labels(
    mut contexts: EguiContexts,
    table: Res<P10Table>,
    layout: Option<Res<P10Layout>>,
    piles: Res<P10Piles>,
    theme: Res<Theme>,
    window: Query<&Window, With<PrimaryWindow>>,
) -> Result {
    let (Some(layout), Ok(window)) = (layout, window.single()) else {
        return Ok(());
    };
    let ctx = contexts.ctx_mut()?;
    let game = &table.game;
    let colour = text_colour(&theme);
    // A computer seat's column; the player's line has the window's width in a window taller
    // than wide (the middle lies above it), else it ends short of the stock beside it.
    let column = layout.column - 8.0;
    let player_width = if layout.upright() {
        layout.window.x - 20.0
    } else {
        let stock_left = layout.stock.x - layout.card.x / 2.0;
        (stock_left - 6.0 - layout.seats[PLAYER].label.x).min(layout.window.x / 2.0)
    };
    for (seat, spot) in layout.seats.iter().enumerate() {
        let st = &game.standings()[seat];
        let cards = piles.hands.get(seat).map_or(0, Vec::len);
        let to_move = game.to_move() == Some(seat);
        let cards_text = if cards == 1 {
            t("p10.seat.card_one").to_string()
        } else {
            tf("p10.seat.cards", &[("cards", &cards)])
        };
        let narrow = seat != PLAYER && column < NARROW_COLUMN;
        let skipped = (game.skips().get(seat) == Some(&true)).then(|| {
            t(if narrow {
                "p10.seat.skipped_short"
            } else {
                "p10.seat.skipped_next"
            })
        });
        let lines = seat_label_lines(
            &if narrow {
                table.short_name(seat)
            } else {
                table.name(seat)
            },
            &phase_label(
                &game.next_text(seat),
                laid_in_round_just_over(&table, seat),
                laid_tally(game, seat),
            ),
            &tf("p10.seat.points", &[("points", &st.points)]),
            &cards_text,
            skipped,
            seat == PLAYER,
            narrow,
        );
        let rich_line = |t: &str| {
            let r = egui::RichText::new(t).size(13.0);
            if to_move {
                r.strong().color(egui::Color32::from_rgb(255, 224, 74))
            } else {
                r.color(colour)
            }
        };
        egui::Area::new(egui::Id::new(("p10-seat", seat)))
            .order(egui::Order::Background)
            .fixed_pos(to_screen(spot.label, window))
            .interactable(false)
            .show(ctx, |ui| {
                // Two lines for a computer seat; a line too long for its column is cut short.
                ui.style_mut().wrap_mode = Some(egui::TextWrapMode::Truncate);
                ui.set_max_width(if seat == PLAYER { player_width } else { column });
                ui.spacing_mut().item_spacing.y = 0.0;
                for line in &lines {
                    ui.label(rich_line(line));
                }
            });
    }
    Ok(())
}

/// In the one-round-per-phase variant, how many phases `seat` laid of how many: every seat
/// moves on after each round, so the end of the phase list says nothing of what it laid.
pub(crate) fn laid_tally(
    game: &arachne_engine::phase10::Game,
    seat: usize,
) -> Option<(u32, usize)> {
    game.variant().ten_rounds.then(|| {
        (
            game.standings()[seat].phases_laid,
            game.variant().phases.len(),
        )
    })
}

/// A seat's phase(s) to lay next as its label says it: `phase 4`, `phases 2+5+9` (any order),
/// `every phase laid`; once a round is over, a seat that laid its phase in it says so and what
/// comes next: `phase 3 laid, next 4`, `phase 10 laid, all done`. Past the last round of the
/// one-round-per-phase variant (`tally`): `7 of 10 phases laid`.
fn phase_label(next: &str, laid: Option<u8>, tally: Option<(u32, usize)>) -> String {
    if let (Some((count, total)), "done") = (tally, next) {
        return tf(
            "p10.seat.laid_count",
            &[("count", &count), ("total", &total)],
        );
    }
    match (laid, next) {
        (Some(laid), "done") => tf("p10.seat.phase_laid_last", &[("laid", &laid)]),
        (Some(laid), _) => tf("p10.seat.phase_laid", &[("laid", &laid), ("next", &next)]),
        (None, "done") => t("p10.seat.all_laid").to_string(),
        (None, _) if next.contains('+') => tf("p10.seat.phases", &[("phase", &next)]),
        (None, _) => tf("p10.seat.phase", &[("phase", &next)]),
    }
}

/// The phase `seat` laid in the round just over (while the table waits for the next deal, or
/// the game is over).
fn laid_in_round_just_over(table: &P10Table, seat: usize) -> Option<u8> {
    if !matches!(table.game.stage(), Stage::RoundOver | Stage::Over) {
        return None;
    }
    table.sheet.rows.last()?.laid.get(seat).copied().flatten()
}

/// A computer seat's column narrower than this (six seats on a phone) shows only its number,
/// name and cards: the phase list tells each seat's phase, the score sheet its points.
const NARROW_COLUMN: f32 = 140.0;

/// A seat's label: the player's on one line; a computer seat's on two (its column may be
/// narrow), in a narrow column only its name and cards. A waiting skip comes first on its
/// line, so a narrow column never cuts it off.
fn seat_label_lines(
    name: &str,
    phase: &str,
    points: &str,
    cards: &str,
    skipped: Option<&str>,
    player: bool,
    narrow: bool,
) -> Vec<String> {
    let skipped = skipped.map(|s| format!("{s} · ")).unwrap_or_default();
    if player {
        vec![format!("{name} · {phase} · {skipped}{points} · {cards}")]
    } else if narrow {
        vec![name.to_string(), format!("{skipped}{cards}")]
    } else {
        vec![
            format!("{name} · {phase}"),
            format!("{skipped}{points} · {cards}"),
        ]
    }
}

/// The keyboard's card ([`HandCursor`]) outlined where it is now (it follows the card while
/// it rises or moves).
fn hand_cursor(
    mut contexts: EguiContexts,
    cursor: Res<HandCursor>,
    piles: Res<P10Piles>,
    layout: Option<Res<P10Layout>>,
    theme: Res<Theme>,
    poses: Query<&crate::cards::motion::CardPose>,
    window: Query<&Window, With<PrimaryWindow>>,
) -> Result {
    let (Some(layout), Ok(window)) = (layout, window.single()) else {
        return Ok(());
    };
    let hand = piles.hands.get(PLAYER).map_or(&[][..], Vec::as_slice);
    let Some(pose) = cursor.at(hand).and_then(|i| poses.get(hand[i]).ok()) else {
        return Ok(());
    };
    let ctx = contexts.ctx_mut()?;
    let centre = to_screen(pose.translation.truncate(), window);
    let rect =
        egui::Rect::from_center_size(centre, egui::vec2(layout.card.x + 6.0, layout.card.y + 6.0));
    let [r, g, b, _] = theme.selection.to_srgba().to_u8_array();
    ctx.layer_painter(egui::LayerId::new(
        egui::Order::Background,
        egui::Id::new("p10-hand-cursor"),
    ))
    .rect_stroke(
        rect,
        egui::CornerRadius::same(6),
        egui::Stroke::new(3.0, egui::Color32::from_rgb(r, g, b)),
        egui::StrokeKind::Outside,
    );
    Ok(())
}

/// The phase list's text size.
const PHASE_TEXT: f32 = 11.5;

/// Whether `lines` rows of `row` pixels fit between the stock's top edge, where the phase
/// list starts, and the player's hand below it. Where they do not (a low window), the list
/// shows only the phases some seat is at. (The player's laid groups lie between the two, from
/// the left; long ones can reach under the list's last lines, as they could before.)
fn all_phases_fit(layout: &P10Layout, row: f32, lines: usize) -> bool {
    let top = layout.stock.y + layout.card.y / 2.0;
    let floor = layout.seats[PLAYER].hand.y + layout.card.y / 2.0;
    top - floor >= row * lines as f32
}

/// Each phase's line of the phase list, whether the player is at it, and whether it stays in the
/// short list a low window shows. A seat is at the phase it lays next, and the short list holds
/// the phases some seat is at; where phases may be laid in any order, a seat is at every phase
/// it has still to lay, and the short list holds the player's (every seat is at nearly every
/// phase: the seats' labels tell which they laid). The first seat is "you", or "1" in a log
/// from elsewhere (`unnamed`: it names nobody, and its seats' labels say "Seat 1").
fn phase_lines(game: &arachne_engine::phase10::Game, unnamed: bool) -> Vec<(String, bool, bool)> {
    game.variant()
        .phases
        .iter()
        .enumerate()
        .map(|(i, phase)| {
            let here: Vec<String> = (0..game.players())
                .filter(|&s| game.phases_open(s).iter().any(|(k, _)| *k == i))
                .map(|s| {
                    if s == PLAYER && !unnamed {
                        t("p10.phases.you").to_string()
                    } else {
                        (s + 1).to_string()
                    }
                })
                .collect();
            let mut line = format!("{:>2}  {}", phase.number, describe(phase));
            if !here.is_empty() {
                line.push_str(&format!("   - {}", here.join(", ")));
            }
            let mine = game.phases_open(PLAYER).iter().any(|(k, _)| *k == i);
            let short = if game.variant().any_order {
                mine
            } else {
                !here.is_empty()
            };
            (line, mine, short)
        })
        .collect()
}

/// The ten phases, with the seats now at each one. The list lies to the right of the discard
/// pile where it has room; in a narrow window (a phone held upright) it lies above the stock
/// and the discard pile, centred, and in a low one it shows only the phases some seat is at.
fn phases(
    mut contexts: EguiContexts,
    table: Res<P10Table>,
    layout: Option<Res<P10Layout>>,
    theme: Res<Theme>,
    window: Query<&Window, With<PrimaryWindow>>,
) -> Result {
    let (Some(layout), Ok(window)) = (layout, window.single()) else {
        return Ok(());
    };
    let ctx = contexts.ctx_mut()?;
    let game = &table.game;
    let colour = text_colour(&theme);
    let font = egui::FontId::proportional(PHASE_TEXT);
    let row = ctx.fonts_mut(|f| f.row_height(&font));
    let lines = phase_lines(game, table.spec.unnamed);
    let widest = |short_list: bool| {
        lines
            .iter()
            .filter(|l| !short_list || l.2)
            .map(|(text, _, _)| {
                ctx.fonts_mut(|f| {
                    f.layout_no_wrap(text.clone(), font.clone(), colour)
                        .size()
                        .x
                })
            })
            .fold(0.0f32, f32::max)
    };
    let count = |short_list: bool| lines.iter().filter(|l| !short_list || l.2).count();
    let (full, few) = ((widest(false), count(false)), (widest(true), count(true)));
    let Some((at, short_list)) = phase_list_spot(&layout, row, full, few) else {
        return Ok(());
    };
    egui::Area::new(egui::Id::new("p10-phases"))
        .order(egui::Order::Background)
        .fixed_pos(to_screen(at, window))
        .interactable(false)
        .show(ctx, |ui| {
            ui.spacing_mut().item_spacing.y = 0.0;
            ui.style_mut().wrap_mode = Some(egui::TextWrapMode::Extend);
            for (line, mine, short) in &lines {
                if short_list && !short {
                    continue;
                }
                let rich = egui::RichText::new(line).size(PHASE_TEXT).color(if *mine {
                    egui::Color32::from_rgb(255, 224, 74)
                } else {
                    colour
                });
                ui.label(rich);
            }
        });
    Ok(())
}

/// Where the phase list's top left corner lies (table coordinates), and whether it shows only
/// the phases some seat is at, for a list of `full` = (widest line, lines) or `few` when only
/// those phases are listed; `None` where it fits nowhere.
///
/// Tried in order: the whole list right of the discard pile (between the stock's top edge and
/// the player's hand, as far as the window's right edge); the whole list centred above the
/// stock and the discard pile (below the computer seats' groups); then the short list in the
/// same two places.
fn phase_list_spot(
    layout: &P10Layout,
    row: f32,
    full: (f32, usize),
    few: (f32, usize),
) -> Option<(Vec2, bool)> {
    const GAP: f32 = 6.0;
    let card = layout.card;
    let half_w = layout.window.x / 2.0;
    let stock_top = layout.stock.y + card.y / 2.0;
    // Right of the discard pile.
    let right_x = layout.discard.x + card.x * 0.9;
    let right_fits = |(width, lines): (f32, usize)| {
        right_x + width <= half_w - GAP && all_phases_fit(layout, row, lines)
    };
    // Above the middle: below the lowest of the computer seats' groups (each seat's two rows
    // of them; the lower row of seats, on a phone with five or six).
    let ceiling = layout
        .seats
        .iter()
        .enumerate()
        .filter(|&(s, _)| s != PLAYER)
        .map(|(_, spot)| spot.groups.y - card.y * 0.45 - card.y / 2.0)
        .fold(layout.window.y / 2.0, f32::min);
    let above = |(width, lines): (f32, usize)| {
        let height = row * lines as f32;
        (width <= 2.0 * (half_w - GAP) && ceiling - GAP - (stock_top + GAP) >= height)
            .then(|| Vec2::new(-width / 2.0, stock_top + GAP + height))
    };
    if right_fits(full) {
        return Some((Vec2::new(right_x, stock_top), false));
    }
    if let Some(at) = above(full) {
        return Some((at, false));
    }
    if right_fits(few) {
        return Some((Vec2::new(right_x, stock_top), true));
    }
    above(few).map(|at| (at, true))
}

/// What the player may do now, in words.
fn status(table: &P10Table, seats: Option<&Seats>) -> String {
    let game = &table.game;
    match game.stage() {
        Stage::Over => {
            let winners: Vec<String> = game.winners().iter().map(|&s| table.name(s)).collect();
            tf(
                "p10.status.over",
                &[("winners", &winners.join(t("p10.and")))],
            )
        }
        Stage::RoundOver => t("p10.status.round_over").into(),
        _ if !table.players_turn() => {
            let seat = game.to_move().unwrap_or(0);
            let thinking = seats.and_then(Seats::deciding) == Some(seat);
            tf(
                if thinking {
                    "p10.status.thinking"
                } else {
                    "p10.status.plays"
                },
                &[("who", &table.name(seat))],
            )
        }
        Stage::Draw => t("p10.status.draw").into(),
        Stage::Knock { card, .. } => capitalized(&tf(
            "p10.status.knock",
            &[("card", &card_words(card, CardWords::Object))],
        )),
        Stage::Play if game.laid_phase()[PLAYER].is_none() => t("p10.status.lay").into(),
        Stage::Play => t("p10.status.hit").into(),
    }
}

/// The player's tools: the bar's buttons and the state they change.
#[derive(bevy::ecs::system::SystemParam)]
struct BarState<'w> {
    piles: ResMut<'w, P10Piles>,
    selection: ResMut<'w, Selection>,
    settings: ResMut<'w, Settings>,
    save_settings: ResMut<'w, SaveSettings>,
    notices: ResMut<'w, Notices>,
    lay_choice: ResMut<'w, LayChoice>,
    windows: ResMut<'w, Windows>,
    form: ResMut<'w, P10Form>,
    cursor: ResMut<'w, HandCursor>,
    skip_target: Res<'w, crate::phase10::input::SkipTarget>,
}

fn bar(
    mut contexts: EguiContexts,
    table: Res<P10Table>,
    seats: Option<Res<Seats>>,
    mut bar: BarState,
    mut requests: MessageWriter<P10Request>,
    time: Res<Time<Real>>,
    mut band: ResMut<BarBand>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    // (Every pass: whether hints show for the keyboard's control.)
    crate::shell::window_keys::keyboard_in_use(ctx);
    let game = &table.game;
    let shown = egui::Area::new(egui::Id::new("p10-bar"))
        .anchor(egui::Align2::CENTER_BOTTOM, egui::vec2(0.0, -BAR_LIFT))
        .show(ctx, |ui| {
            egui::Frame::popup(ui.style()).show(ui, |ui| {
                // On a narrow screen the status wraps and the buttons wrap onto more rows,
                // rather than running off the screen's edge (Menu among them); otherwise the
                // bar is as wide as its text and one row of buttons.
                let width = ctx.content_rect().width();
                let narrow = width < NARROW_BAR;
                ui.style_mut().wrap_mode = Some(if narrow {
                    egui::TextWrapMode::Wrap
                } else {
                    egui::TextWrapMode::Extend
                });
                ui.vertical_centered(|ui| {
                    if narrow {
                        ui.set_max_width((width - 24.0).max(200.0));
                    }
                    ui.label(format!(
                        "Pro Spider 10 · {} · {}",
                        tf("p10.round", &[("round", &game.round())]),
                        if bar.skip_target.0 && table.players_turn() {
                            t("p10.status.skip").into()
                        } else {
                            status(&table, seats.as_deref())
                        }
                    ));
                    let buttons = |ui: &mut egui::Ui| {
                        let play = table.players_turn() && game.stage() == Stage::Play;
                        let BarState {
                            piles,
                            selection,
                            settings,
                            save_settings,
                            notices,
                            lay_choice,
                            windows,
                            form,
                            cursor,
                            ..
                        } = &mut bar;
                        if ui.add_enabled(play, bar_button(t("p10.bar.lay"))).clicked() {
                            lay_chosen(
                                &table,
                                &chosen_cards(selection, piles),
                                lay_choice,
                                &mut requests,
                                notices,
                            );
                        }
                        if ui
                            .add_enabled(play, bar_button(t("p10.bar.find")))
                            .clicked()
                        {
                            find_and_choose(&table, piles, selection, cursor, notices);
                        }
                        let by_colour = settings.phase10.sort_by_colour;
                        let sort = if by_colour {
                            t("p10.bar.sort_value")
                        } else {
                            t("p10.bar.sort_colour")
                        };
                        if ui.add(bar_button(sort)).clicked() {
                            settings.phase10.sort_by_colour = !by_colour;
                            save_settings.soon();
                            sort_hand(piles, !by_colour);
                            requests.write(P10Request::Relayout);
                        }
                        if let Stage::Knock { card, asking, .. } = game.stage()
                            && asking == PLAYER
                        {
                            if ui
                                .add(bar_button(capitalized(&tf(
                                    "p10.bar.take",
                                    &[("card", &card_words(card, CardWords::Object))],
                                ))))
                                .clicked()
                            {
                                requests.write(P10Request::Act(Action::Knock(card)));
                            }
                            if ui.add(bar_button(t("p10.bar.pass"))).clicked() {
                                requests.write(P10Request::Act(Action::Pass));
                            }
                        }
                        if game.stage() == Stage::RoundOver
                            && ui.add(bar_button(t("p10.next_round"))).clicked()
                        {
                            requests.write(P10Request::NextRound);
                            windows.sheet = false;
                        }
                        if ui.add(bar_button(t("p10.score_sheet"))).clicked() {
                            windows.sheet = !windows.sheet;
                        }
                        if ui.add(bar_button(t("p10.bar.new_game"))).clicked() {
                            ask_fresh_deal(&table, &time, form, &mut requests);
                        }
                        if ui.add(bar_button(t("p10.bar.menu"))).clicked() {
                            windows.menu = !windows.menu;
                        }
                    };
                    row_wrapping(ui, narrow, buttons);
                });
            });
        });
    measure_bar(ctx, shown.response.rect, &mut band, false);
    Ok(())
}

/// The table keeps clear of a bar (the player's, or with `viewer` the replay viewer's) however
/// many rows it wraps onto. Measured once the bar sits on its anchor: egui places an area first
/// where it fits, before it knows its size.
pub(crate) fn measure_bar(ctx: &egui::Context, bar: egui::Rect, band: &mut BarBand, viewer: bool) {
    let screen = ctx.content_rect();
    if (bar.bottom() - (screen.bottom() - BAR_LIFT)).abs() < 1.0 {
        let window = Vec2::new(screen.width(), screen.height());
        let height = bar.height() + BAR_LIFT;
        if viewer {
            band.measured_viewer(window, height);
        } else {
            band.measured(window, height);
        }
    }
}

/// The bar's gap to the window's bottom edge.
pub(crate) const BAR_LIFT: f32 = 6.0;

/// Below this window width (logical pixels) the bar wraps its text and buttons: the longest
/// status line with a full row of buttons needs about this much.
pub(crate) const NARROW_BAR: f32 = 900.0;

/// The question when the chosen cards make the phase in more than one way (a joker that could
/// stand for different values): one button per way, or a number key; Esc asks no more.
fn lay_question(
    mut contexts: EguiContexts,
    table: Res<P10Table>,
    mut choice: ResMut<LayChoice>,
    mut requests: MessageWriter<P10Request>,
    keys: Res<crate::core::keys::Keys>,
) -> Result {
    if choice.0.is_empty() {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let mut picked = None;
    let mut cancel = ctx.input(|i| i.key_pressed(egui::Key::Escape));
    // The number keys by their place (a French keyboard types ' and - on 4 and 6 unshifted),
    // or the keypad's; not while they type into a text field (the menu's seed, say, opened
    // from the bar over the question), nor with Ctrl, Alt or Cmd held (the system's keys).
    let typing = ctx.text_edit_focused() || keys.any_pressed(crate::core::keys::COMMAND_KEYS);
    let number = |n: usize| {
        !typing
            && keys
                .get_just_pressed()
                .any(|&k| crate::core::keys::digit(k) == Some(n))
    };
    fixed_window(
        t("p10.lay.title"),
        egui::Align2::CENTER_CENTER,
        egui::Vec2::ZERO,
    )
    .show(ctx, |ui| {
        // The first way has the keyboard: the arrows (or Tab) and Enter reach every way, the
        // number keys the first nine.
        crate::shell::window_keys::keyboard_on_open(
            ui,
            "p10-question",
            crate::shell::window_keys::OnOpen::FirstControl,
        );
        crate::shell::widgets::keep_inside(ui);
        match choice.0.first() {
            Some(Action::Hit { card, .. }) => {
                ui.label(capitalized(&tf(
                    "p10.hit.question",
                    &[("card", &card_words(card.card, CardWords::Object))],
                )));
            }
            _ => {
                ui.label(t("p10.lay.question"));
            }
        }
        let high = crate::shell::widgets::fitting_height(ui.ctx()) - 60.0;
        // Ways of more than one phase (any order: r1-r7 alone is a run of 7 and a red group)
        // say which phase each lays.
        let phase = |way: &Action| match way {
            Action::Lay { phase, .. } => Some(*phase),
            _ => None,
        };
        let phases = choice.0.iter().any(|w| phase(w) != phase(&choice.0[0]));
        crate::shell::widgets::scrolling(ui, high, |ui| {
            for (i, way) in choice.0.iter().enumerate() {
                // Only the ways a number key picks are numbered (a "10." would invite 1 and 0,
                // and the 1 picks the first way).
                let text = describe_choice(&table, way);
                let text = match phase(way) {
                    Some(p) if phases => {
                        format!("{}: {text}", tf("p10.seat.phase", &[("phase", &p)]))
                    }
                    _ => text,
                };
                let text = if i < 9 {
                    format!("{}. {text}", i + 1)
                } else {
                    text
                };
                if ui.button(text).clicked() || i < 9 && number(i + 1) {
                    picked = Some(i + 1);
                }
            }
        });
        if ui.button(t("p10.lay.cancel")).clicked() {
            cancel = true;
        }
    });
    if let Some(n) = picked {
        pick_lay(&mut choice, n, &mut requests);
    } else if cancel {
        choice.0.clear();
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A review found it: where phases may be laid in any order, the list named each seat only
    /// at the lowest phase it had left, as if it had to lay that one next.
    #[test]
    fn the_phase_list_names_a_seat_at_every_phase_it_may_still_lay() {
        use arachne_engine::phase10::{Game, Stage, ai, variant};
        let players = 3;
        let names = |lines: &[(String, bool, bool)], i: usize| -> String {
            lines[i].0.split("   - ").nth(1).unwrap_or("").to_string()
        };
        // In order: each seat at its next phase only.
        let ordered = Game::new(variant::by_id("pro-spider-10").unwrap().clone(), players, 7)
            .unwrap()
            .0;
        let lines = phase_lines(&ordered, false);
        assert!(lines[0].1 && lines[0].2);
        assert!(names(&lines, 0).ends_with("2, 3"), "{:?}", lines[0]);
        assert_eq!(names(&lines, 0), format!("{}, 2, 3", t("p10.phases.you")));
        // A log from elsewhere names nobody: its first seat is 1, and still the one shown.
        let unnamed = phase_lines(&ordered, true);
        assert_eq!(names(&unnamed, 0), "1, 2, 3");
        assert!(unnamed[0].1 && unnamed[0].2);
        assert!(lines[1..].iter().all(|l| !l.1 && !l.2), "{lines:?}");
        // Any order: every seat at every phase, until it has laid one; then at the others.
        let v = variant::by_id("pro-spider-10-any-order").unwrap().clone();
        let (mut game, _) = Game::new(v, players, 7).unwrap();
        let lines = phase_lines(&game, false);
        assert!(lines.iter().all(|l| l.1 && l.2), "{lines:?}");
        let mut petra = ai::player("petra", 1).unwrap();
        let mut laid = None;
        for _ in 0..20_000 {
            if let Some(seat) =
                (0..players).find(|&s| game.standings()[s].remaining != 0b11_1111_1111)
            {
                laid = Some(seat);
                break;
            }
            if game.stage() == Stage::RoundOver {
                game.next_round().unwrap();
                continue;
            }
            let seat = game.to_move().unwrap();
            let action = petra.decide(&game.view(seat));
            game.apply(action).unwrap();
        }
        let seat = laid.expect("some seat lays a phase");
        let lines = phase_lines(&game, false);
        let label = if seat == PLAYER {
            t("p10.phases.you").to_string()
        } else {
            (seat + 1).to_string()
        };
        for (i, line) in lines.iter().enumerate() {
            let open = game.standings()[seat].remaining & (1 << i) != 0;
            let named = names(&lines, i).split(", ").any(|n| n == label);
            assert_eq!(named, open, "phase {}: {line:?}", i + 1);
        }
        assert!(game.standings()[seat].remaining.count_ones() >= 8);
        // A low window's short list holds the phases the player may still lay (nearly every
        // line names some seat).
        assert!(lines.iter().all(|l| l.2 == l.1), "{lines:?}");
    }

    #[test]
    fn seat_labels_keep_what_a_narrow_column_can_show() {
        let lines = |skipped, player, narrow| {
            seat_label_lines(
                "Petra (3)",
                "phase 4",
                "35 pts",
                "7 cards",
                skipped,
                player,
                narrow,
            )
        };
        assert_eq!(
            lines(None, false, false),
            ["Petra (3) · phase 4", "35 pts · 7 cards"]
        );
        assert_eq!(
            lines(Some("skipped next"), false, false),
            ["Petra (3) · phase 4", "skipped next · 35 pts · 7 cards"]
        );
        // Narrow: the name (its number first, given so) and the cards; the skip first.
        assert_eq!(lines(None, false, true), ["Petra (3)", "7 cards"]);
        assert_eq!(
            lines(Some("skipped next"), false, true),
            ["Petra (3)", "skipped next · 7 cards"]
        );
        assert_eq!(
            lines(Some("skipped next"), true, false),
            ["Petra (3) · phase 4 · skipped next · 35 pts · 7 cards"]
        );
    }

    #[test]
    fn a_label_names_the_phase_the_phases_left_or_that_all_are_laid() {
        assert_eq!(phase_label("4", None, None), "phase 4");
        assert_eq!(phase_label("2+5+9", None, None), "phases 2+5+9");
        assert_eq!(phase_label("done", None, None), "every phase laid");
        // The round over: what a seat laid in it, and what comes next.
        assert_eq!(phase_label("4", Some(3), None), "phase 3 laid, next 4");
        assert_eq!(phase_label("2+9", Some(5), None), "phase 5 laid, next 2+9");
        assert_eq!(
            phase_label("done", Some(10), None),
            "phase 10 laid, all done"
        );
        // One round per phase: past the last round every seat is "done", whatever it laid.
        assert_eq!(phase_label("4", None, Some((2, 10))), "phase 4");
        assert_eq!(
            phase_label("done", None, Some((7, 10))),
            "7 of 10 phases laid"
        );
        assert_eq!(
            phase_label("done", Some(10), Some((7, 10))),
            "7 of 10 phases laid"
        );
    }

    #[test]
    fn the_phase_list_lies_where_it_has_room() {
        // Widest line and lines: the whole list, and only the phases seats are at.
        let (full, few) = ((260.0, 10), (250.0, 2));
        let spot = |players: usize, w: f32, h: f32, band: f32| {
            let layout = P10Layout::compute(players, Vec2::new(w, h), band);
            (layout.clone(), phase_list_spot(&layout, 13.0, full, few))
        };
        // A wide window: right of the discard pile, whole.
        let (layout, at) = spot(4, 1280.0, 720.0, 74.0);
        let (at, only) = at.unwrap();
        assert!(!only);
        assert!(at.x >= layout.discard.x + layout.card.x / 2.0);
        assert!(at.x + full.0 <= 640.0);
        // A phone held upright: above the stock and the discard pile, whole, in the window,
        // clear of the middle's cards and of the computer seats' groups.
        for (players, band) in (2..=6).flat_map(|p| [(p, 250.0), (p, 90.0)]) {
            let (layout, at) = spot(players, 390.0, 844.0, band);
            let (at, only) = at.unwrap_or_else(|| panic!("{players} seats: no room"));
            assert!(!only, "{players} seats");
            assert!(
                at.x >= -195.0 && at.x + full.0 <= 195.0,
                "{players} seats: {at}"
            );
            let bottom = at.y - 13.0 * full.1 as f32;
            assert!(
                bottom >= layout.stock.y + layout.card.y / 2.0,
                "{players} seats"
            );
            for spot in &layout.seats[1..] {
                assert!(at.y <= spot.groups.y - layout.card.y, "{players} seats");
            }
        }
        // A low window: only the phases seats are at.
        let (_, at) = spot(4, 640.0, 360.0, 74.0);
        assert!(at.unwrap().1);
    }

    #[test]
    fn a_low_window_lists_only_the_phases_seats_are_at() {
        // A 13-pixel row, as egui's default font gives the list's text size.
        for players in 2..=6 {
            let fits = |w: f32, h: f32| {
                all_phases_fit(
                    &P10Layout::compute(players, Vec2::new(w, h), crate::phase10::layout::BAR_BAND),
                    13.0,
                    10,
                )
            };
            assert!(fits(1280.0, 720.0), "{players} seats at 1280x720");
            assert!(fits(800.0, 600.0), "{players} seats at 800x600");
            assert!(!fits(640.0, 360.0), "{players} seats at 640x360");
        }
    }
}
