//! Pro Spider 10 rules with exact positions and events: skips, jokers, reshuffle, nobody out,
//! lays, hits, knocking, any-order, ten rounds. Positions are built from given hands
//! (`start_round_with`) and stock draws are chosen with `force_stock_top`, as the checker does.

use std::sync::Arc;

use arachne_engine::phase10::card::{Counts, parse_cards};
use arachne_engine::phase10::check::builtin_variant;
use arachne_engine::phase10::group::Need;
use arachne_engine::phase10::play::player_seed;
use arachne_engine::phase10::variant::{builtin, by_id, standard_phases};
use arachne_engine::phase10::{
    Action, Card, Event, Game, GameError, Group, HitCard, LogWriter, LoggedAction, P10Variant,
    ParseActionError, PlayError, Stage, check, lay_options, meld, play_game,
};

fn cards(s: &str) -> Vec<Card> {
    parse_cards(s).unwrap()
}

fn card(s: &str) -> Card {
    s.parse().unwrap()
}

fn group(s: &str) -> Group {
    s.parse().unwrap()
}

fn variant(text_phases: &str, hand: u8, extra: &str) -> Arc<P10Variant> {
    let text = format!(
        "ProSpider10(id: \"t\", name: \"T\", description: \"\", hand_size: {hand}, phases: [{text_phases}], {extra})"
    );
    Arc::new(P10Variant::from_ron(&text, "t.ron").unwrap())
}

/// A round dealt from given hands (seat 1 first) and up-card.
fn game_with(v: Arc<P10Variant>, hands: &[&str], up: &str) -> (Game, Vec<Event>) {
    let mut g = Game::before_first_round(v, hands.len(), 1).unwrap();
    let ev = g
        .start_round_with(hands.iter().map(|h| cards(h)).collect(), card(up))
        .unwrap();
    (g, ev)
}

fn draw(g: &mut Game, c: &str) -> Vec<Event> {
    g.force_stock_top(card(c)).unwrap();
    g.apply(Action::DrawStock).unwrap()
}

fn lay(phase: u8, groups: &[&str]) -> Action {
    Action::Lay {
        phase,
        groups: groups.iter().map(|g| group(g)).collect(),
    }
}

fn hit(seat: usize, group: usize, c: &str) -> Action {
    Action::Hit {
        seat,
        group,
        card: c.parse().unwrap(),
    }
}

const H1: &str = "r1 b1 g4 y5 r7 r7 b9 y11 W S";
const H2: &str = "r2 b2 g2 y2 r3 b3 g3 y3 r12 g12";

#[test]
fn an_up_card_skip_costs_the_first_turn_and_stays_on_the_pile() {
    let (g, ev) = game_with(by_id("pro-spider-10").unwrap().clone(), &[H1, H2], "S");
    assert_eq!(
        ev[ev.len() - 2..],
        [
            Event::UpCard(Card::SKIP),
            Event::SkipServed {
                seat: 0,
                up_card: true
            }
        ]
    );
    assert_eq!(g.turn(), 1);
    assert_eq!(g.discard_pile(), [Card::SKIP]);
    assert_eq!(g.choices(), [Action::DrawStock]);
    assert!(g.clone().apply(Action::DrawDiscard(Card::SKIP)).is_err());
    assert_eq!(g.all_cards(), Counts::of(&Card::deck()));
}

#[test]
fn a_joker_up_card_may_be_taken() {
    let (mut g, _) = game_with(by_id("pro-spider-10").unwrap().clone(), &[H1, H2], "W");
    assert_eq!(
        g.choices(),
        [Action::DrawStock, Action::DrawDiscard(Card::WILD)]
    );
    let ev = g.apply(Action::DrawDiscard(Card::WILD)).unwrap();
    assert_eq!(
        ev,
        [Event::DrewDiscard {
            seat: 0,
            card: Card::WILD
        }]
    );
    assert_eq!(g.hand(0), cards("r1 b1 g4 y5 r7 r7 b9 y11 W W S"));
    assert!(g.discard_pile().is_empty());
    assert_eq!(g.stage(), Stage::Play);
}

#[test]
fn six_equal_cards_are_two_sets_and_a_third_set_is_refused() {
    let v = by_id("pro-spider-10").unwrap().clone();
    let (mut g, _) = game_with(v, &["r7 r7 b7 b7 g7 g7 r1 r2 r3 r4", H2], "y9");
    draw(&mut g, "y11");
    let three = lay(1, &["set:7 r7 r7", "set:7 b7 b7", "set:7 g7 g7"]);
    assert!(
        matches!(g.clone().apply(three), Err(GameError::Illegal { why, .. }) if why == "phase 1 is 2 group(s), not 3")
    );
    let lays: Vec<Action> = g
        .choices()
        .into_iter()
        .filter(|a| matches!(a, Action::Lay { .. }))
        .collect();
    assert!(
        lays.contains(&lay(1, &["set:7 r7 r7 b7", "set:7 b7 g7 g7"])),
        "{lays:?}"
    );
    let ev = g
        .apply(lay(1, &["set:7 r7 r7 b7", "set:7 b7 g7 g7"]))
        .unwrap();
    assert_eq!(ev.len(), 1);
    assert_eq!(g.hand(0), cards("r1 r2 r3 r4 y11"));
    assert_eq!(g.laid_phase()[0], Some(1));
}

#[test]
fn hits_come_only_after_ones_own_phase_at_run_ends_and_in_the_same_turn() {
    let v = by_id("pro-spider-10").unwrap().clone();
    // Seat 1 on phase 2 (set of 3, run of 4).
    let (mut g, _) = game_with(
        v,
        &[
            "r5 b5 g5 r8 r9 r10 r11 y12 W b1",
            "r2 b2 g2 y2 r3 b3 g3 y3 r12 g12",
        ],
        "y9",
    );
    g.apply(Action::DrawDiscard(card("y9"))).unwrap();
    // Phase 1 is two sets; this seat is on phase 1, so a run lay is refused...
    assert!(
        g.clone()
            .apply(lay(2, &["set:5 r5 b5 g5", "run:8..11 r8 r9 r10 r11"]))
            .is_err()
    );
    // ...and no hit before laying.
    assert!(
        matches!(g.clone().apply(hit(0, 0, "y9")), Err(GameError::Illegal { why, .. }) if why.contains("only after laying"))
    );
    let mut g1 = {
        let v = variant("(number: 2, groups: [Set(3), Run(4)])", 10, "");
        let (mut g, _) = game_with(
            v,
            &[
                "r5 b5 g5 r8 r9 r10 r11 y12 W b1",
                "r2 b2 g2 y2 r3 b3 g3 y3 r12 g12",
            ],
            "y9",
        );
        g.apply(Action::DrawDiscard(card("y9"))).unwrap();
        g
    };
    g1.apply(lay(2, &["set:5 r5 b5 g5", "run:8..11 r8 r9 r10 r11"]))
        .unwrap();
    // Not in the middle of a run, not past 12, a joker on a run says its value.
    assert!(g1.clone().apply(hit(0, 1, "y9")).is_err());
    assert!(g1.clone().apply(hit(0, 1, "W")).is_err());
    assert!(g1.clone().apply(hit(0, 0, "W=5")).is_err());
    let ev = g1.apply(hit(0, 1, "y12")).unwrap();
    assert_eq!(
        ev,
        [Event::Hit {
            seat: 0,
            target: 0,
            group: 1,
            card: HitCard::plain(card("y12"))
        }]
    );
    assert!("W=13".parse::<HitCard>().is_err());
    g1.apply(hit(0, 1, "W=7")).unwrap();
    assert_eq!(g1.laid()[0][1].to_string(), "run:7..12 W r8 r9 r10 r11 y12");
    g1.apply(hit(0, 1, "y9".replace("y9", "b1").as_str()))
        .unwrap_err();
    assert_eq!(g1.hand(0), cards("b1 y9"));
    let choices = g1.choices();
    assert_eq!(
        choices,
        [Action::Discard(card("b1")), Action::Discard(card("y9"))]
    );
}

/// A variant where each seat holds 53 cards: the stock is one card, so reshuffles and the end
/// with nobody out come within a few turns.
fn tiny_stock() -> Arc<P10Variant> {
    variant(
        "(number: 1, groups: [Set(3), Set(3)])",
        53,
        "players: (min: 2, max: 2)",
    )
}

fn split_deck() -> (String, String, Card, Card) {
    // Seat 1 gets the first 53 cards of the canonical deck but one W swapped for the last S.
    let deck = Card::deck();
    let (a, b) = deck.split_at(53);
    let up = b[b.len() - 1]; // S
    let stock = b[b.len() - 2]; // S
    let h1 = arachne_engine::phase10::card::cards_text(a);
    let h2 = arachne_engine::phase10::card::cards_text(&b[..53]);
    (h1, h2, up, stock)
}

#[test]
fn the_discard_pile_except_its_top_card_is_reshuffled_into_the_stock() {
    let (h1, h2, _, _) = split_deck();
    let mut g = Game::before_first_round(tiny_stock(), 2, 9).unwrap();
    // Up-card y12, stock one S (seat 2 holds the rest).
    let h2 = h2.replacen("y12 ", "", 1) + " S";
    let h2c = cards(&h2);
    assert_eq!(h2c.len(), 53, "{h2}");
    g.start_round_with(vec![cards(&h1), h2c], card("y12"))
        .unwrap();
    assert_eq!(g.stock(), [Card::SKIP]);
    g.apply(Action::DrawStock).unwrap();
    g.apply(Action::Discard(card("r1"))).unwrap();
    assert_eq!(g.discard_pile(), cards("y12 r1"));
    assert!(g.stock().is_empty());
    let ev = g.apply(Action::DrawStock).unwrap();
    assert_eq!(
        ev,
        [
            Event::Reshuffled { cards: 1 },
            Event::DrewStock {
                seat: 1,
                card: card("y12")
            }
        ]
    );
    assert_eq!(g.discard_pile(), cards("r1"));
    assert_eq!(g.all_cards(), Counts::of(&Card::deck()));
}

#[test]
fn the_round_ends_with_nobody_out_when_a_reshuffle_would_leave_nothing_to_draw() {
    // Five seats of 21 cards: the stock is two skips, the up-card a joker.
    let v = variant(
        "(number: 1, groups: [Set(3), Set(3)])",
        21,
        "players: (min: 2, max: 5)",
    );
    let deck: Vec<Card> = Card::deck().into_iter().filter(|c| !c.is_skip()).collect();
    let mut rest = deck.into_iter();
    let mut hands = Vec::new();
    for s in 0..5 {
        let mut h: Vec<Card> = rest
            .by_ref()
            .take(if s == 2 || s == 3 { 20 } else { 21 })
            .collect();
        if s == 2 || s == 3 {
            h.push(Card::SKIP);
        }
        hands.push(h);
    }
    let up: Vec<Card> = rest.collect();
    assert_eq!(up, [Card::WILD]);
    let mut g = Game::before_first_round(v, 5, 1).unwrap();
    g.start_round_with(hands, Card::WILD).unwrap();
    assert_eq!(g.stock(), [Card::SKIP, Card::SKIP]);
    g.apply(Action::DrawStock).unwrap();
    g.apply(Action::Discard(card("r1"))).unwrap();
    g.apply(Action::DrawStock).unwrap();
    g.apply(Action::Discard(card("r4"))).unwrap();
    assert!(g.stock().is_empty());
    g.apply(Action::DrawDiscard(card("r4"))).unwrap();
    g.apply(Action::Skip(0)).unwrap();
    g.apply(Action::DrawDiscard(card("r1"))).unwrap();
    let ev = g.apply(Action::Skip(1)).unwrap();
    assert_eq!(ev[0], Event::SkipPlaced { seat: 3, target: 1 });
    let Event::RoundEnded { out, points, .. } = &ev[1] else {
        panic!("{ev:?}")
    };
    assert_eq!(*out, None);
    assert_eq!(points.len(), 5);
    assert_eq!(g.stage(), Stage::RoundOver);
    assert_eq!(g.discard_pile(), [Card::WILD]);
    // Both skips still lie in front of seats 1 and 2 when the round ends.
    assert_eq!(g.skips(), [true, true, false, false, false]);
    assert_eq!(g.all_cards(), Counts::of(&Card::deck()));
}

#[test]
fn a_skip_played_as_the_last_card_stays_in_front_of_its_seat() {
    let v = variant("(number: 1, groups: [Set(3), Set(3)])", 7, "");
    let (mut g, _) = game_with(v, &["r7 b7 g7 r8 b8 g8 S", "r2 b2 g2 y2 r3 b3 g3"], "y9");
    draw(&mut g, "W");
    g.apply(lay(1, &["set:7 r7 b7 g7", "set:8 r8 b8 g8"]))
        .unwrap();
    g.apply(hit(0, 0, "W")).unwrap();
    assert!(g.clone().apply(Action::Skip(0)).is_err());
    assert!(g.clone().apply(Action::Discard(Card::SKIP)).is_err());
    let ev = g.apply(Action::Skip(1)).unwrap();
    assert_eq!(
        ev,
        [
            Event::SkipPlaced { seat: 0, target: 1 },
            Event::RoundEnded {
                out: Some(0),
                hands: vec![vec![], cards("r2 b2 g2 y2 r3 b3 g3")],
                points: vec![0, 35],
                totals: vec![0, 35],
                next: vec!["done".into(), "1".into()],
            },
            Event::PhaseAdvanced {
                seat: 0,
                next: "done".into()
            },
            Event::GameWon { winners: vec![0] },
        ]
    );
    assert_eq!(g.skips(), [false, true]);
    assert_eq!(g.all_cards(), Counts::of(&Card::deck()));
}

#[test]
fn knocking_goes_in_seat_order_and_never_twice_in_a_row() {
    let v = by_id("pro-spider-10-knocking").unwrap().clone();
    let (mut g, _) = game_with(
        v,
        &[
            "r1 b1 g1 y1 r2 b2 g2 y2 r3 b3",
            "r4 b4 g4 y4 r5 b5 g5 y5 r6 b6",
            "r8 b8 g8 y8 r9 b9 g9 y9 r10 b10",
        ],
        "y12",
    );
    draw(&mut g, "g11");
    g.apply(Action::Discard(card("g11"))).unwrap();
    assert_eq!(
        g.stage(),
        Stage::Knock {
            card: card("g11"),
            discarder: 0,
            asking: 1
        }
    );
    assert_eq!(g.choices(), [Action::Knock(card("g11")), Action::Pass]);
    g.apply(Action::Pass).unwrap();
    assert_eq!(g.to_move(), Some(2));
    let ev = g.apply(Action::Knock(card("g11"))).unwrap();
    assert_eq!(
        ev,
        [Event::Knocked {
            seat: 2,
            card: card("g11")
        }]
    );
    g.apply(Action::Discard(card("b10"))).unwrap();
    // Seat 1 and seat 2 may claim b10; both pass; play goes on from seat 3's left: seat 1.
    assert_eq!(g.to_move(), Some(0));
    g.apply(Action::Pass).unwrap();
    g.apply(Action::Pass).unwrap();
    assert_eq!((g.stage(), g.turn()), (Stage::Draw, 0));
    draw(&mut g, "y11");
    g.apply(Action::Discard(card("y11"))).unwrap();
    // Seat 3 began its last turn with a knock: only seat 2 is asked.
    assert_eq!(g.to_move(), Some(1));
    g.apply(Action::Pass).unwrap();
    assert_eq!((g.stage(), g.turn()), (Stage::Draw, 1));
    // The up-card cannot be claimed: nobody was asked before seat 1's first draw.
}

/// A knocking variant of three-card hands whose two phases are a set of 3 each: a seat can lay
/// and go out in one turn, so a round ends in a few moves.
fn knocking_sets_of_three() -> Arc<P10Variant> {
    variant(
        "(number: 1, groups: [Set(3)]), (number: 2, groups: [Set(3)])",
        3,
        "knocking: true",
    )
}

#[test]
fn a_knock_is_remembered_into_the_next_round() {
    // Seat 3 ends round 1 in a turn it began with a knock; its next turn is in round 2, and it
    // may not begin that one with a knock either ("never twice in a row" knows no rounds).
    let v = knocking_sets_of_three();
    let (mut g, _) = game_with(v, &["r1 b1 y5", "r4 b4 y6", "r8 b8 y2"], "y12");
    assert_eq!(g.to_move(), Some(0));
    draw(&mut g, "g8");
    g.apply(Action::Discard(card("g8"))).unwrap();
    g.apply(Action::Pass).unwrap();
    g.apply(Action::Knock(card("g8"))).unwrap();
    g.apply(lay(1, &["set:8 r8 b8 g8"])).unwrap();
    let ev = g.apply(Action::Discard(card("y2"))).unwrap();
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::RoundEnded { out: Some(2), .. })),
        "{ev:?}"
    );
    g.start_round_with(
        vec![cards("r1 b1 y5"), cards("r4 b4 y6"), cards("r9 b9 y3")],
        card("y12"),
    )
    .unwrap();
    // Round 2 begins at the dealer's left; every discard before seat 3's own turn is offered
    // to the others only.
    let mut offered_to_3 = false;
    let mut turns = 0;
    while g.turn() != 2 || matches!(g.stage(), Stage::Knock { .. }) {
        match g.stage() {
            Stage::Draw => {
                draw(&mut g, "g9");
                g.apply(Action::Discard(card("g9"))).unwrap();
                turns += 1;
            }
            Stage::Knock { asking, .. } => {
                offered_to_3 |= asking == 2;
                g.apply(Action::Pass).unwrap();
            }
            other => panic!("unexpected stage {other:?}"),
        }
    }
    assert!(turns > 0, "seat 3 should not begin round 2");
    assert!(!offered_to_3);
    // Its own turn began with a draw: from now on it may knock again.
    draw(&mut g, "g10");
    g.apply(Action::Discard(card("g10"))).unwrap();
    assert!(matches!(g.stage(), Stage::Knock { .. }));
    let mut asked = Vec::new();
    while let Stage::Knock { asking, .. } = g.stage() {
        asked.push(asking);
        g.apply(Action::Pass).unwrap();
    }
    assert_eq!(asked, [0, 1]);
    draw(&mut g, "y11");
    g.apply(Action::Discard(card("y11"))).unwrap();
    assert!(matches!(g.stage(), Stage::Knock { asking: 1, .. }));
    g.apply(Action::Pass).unwrap();
    assert!(matches!(g.stage(), Stage::Knock { asking: 2, .. }));
}

#[test]
fn a_turn_lost_to_the_up_card_skip_forgets_a_knock() {
    // Seat 2 ends round 1 in a turn begun with a knock; round 2's up-card is a skip, which
    // costs seat 2 (the dealer's left) its first turn: like any lost turn, that one was not
    // begun with a knock, so seat 2 may knock at the next discard.
    let v = knocking_sets_of_three();
    let (mut g, _) = game_with(v, &["r1 b1 y5", "r8 b8 y2", "r4 b4 y6"], "y12");
    draw(&mut g, "g8");
    g.apply(Action::Discard(card("g8"))).unwrap();
    g.apply(Action::Knock(card("g8"))).unwrap();
    g.apply(lay(1, &["set:8 r8 b8 g8"])).unwrap();
    g.apply(Action::Discard(card("y2"))).unwrap();
    assert_eq!(g.stage(), Stage::RoundOver);
    let ev = g
        .start_round_with(
            vec![cards("r1 b1 y5"), cards("r9 b9 y3"), cards("r4 b4 y6")],
            Card::SKIP,
        )
        .unwrap();
    assert!(ev.contains(&Event::SkipServed {
        seat: 1,
        up_card: true
    }));
    assert_eq!((g.stage(), g.turn()), (Stage::Draw, 2));
    draw(&mut g, "g10");
    g.apply(Action::Discard(card("g10"))).unwrap();
    let mut asked = Vec::new();
    while let Stage::Knock { asking, .. } = g.stage() {
        asked.push(asking);
        g.apply(Action::Pass).unwrap();
    }
    assert_eq!(asked, [0, 1]);
}

#[test]
fn any_order_lays_any_open_phase_and_lists_the_rest() {
    let v = by_id("pro-spider-10-any-order").unwrap().clone();
    let (mut g, _) = game_with(v, &["r1 b2 g3 y4 r5 b6 g7 y11 y12 W", H2], "r9");
    draw(&mut g, "y10");
    let phases: Vec<u8> = g
        .choices()
        .iter()
        .filter_map(|a| match a {
            Action::Lay { phase, .. } => Some(*phase),
            _ => None,
        })
        .collect();
    assert!(phases.contains(&4) && phases.contains(&5), "{phases:?}");
    g.apply(lay(4, &["run:1..7 r1 b2 g3 y4 r5 b6 g7"])).unwrap();
    // Extra cards never turn phase 4 into phase 5.
    assert_eq!(g.laid_phase()[0], Some(4));
    g.apply(hit(0, 0, "W=8")).unwrap();
    assert_eq!(g.laid_phase()[0], Some(4));
    assert_eq!(g.next_text(0), "1+2+3+4+5+6+7+8+9+10");
    g.apply(Action::Discard(card("y12"))).unwrap();
}

#[test]
fn ten_rounds_moves_everybody_on_and_the_fewest_points_win() {
    let v = by_id("pro-spider-10-ten-rounds").unwrap().clone();
    let mut p = arachne_engine::phase10::ai::player("petra", 1).unwrap();
    let mut q = arachne_engine::phase10::ai::player("petra", 2).unwrap();
    let played = arachne_engine::phase10::play_game(v, 2, 11, &mut |seat, view, _| {
        Ok(if seat == 0 {
            p.decide(view)
        } else {
            q.decide(view)
        })
    })
    .unwrap();
    assert_eq!(played.game.round(), 10);
    assert!(played.log.contains("round: 2\n"));
    assert!(
        played.log.contains("next: 1 2, 2 2\n"),
        "after round 1 both seats try phase 2"
    );
    let pts: Vec<u32> = played.game.standings().iter().map(|s| s.points).collect();
    let best = *pts.iter().min().unwrap();
    let want: Vec<usize> = (0..2).filter(|&s| pts[s] == best).collect();
    assert_eq!(played.game.winners(), want);
}

#[test]
fn meld_finds_two_sets_in_six_equal_cards_and_runs_never_pass_1_or_12() {
    let c = Counts::of(&cards("r7 r7 b7 b7 g7 g7"));
    assert_eq!(
        meld(&c, &[Need::Set(3), Need::Set(3)])
            .map(|g| g.iter().map(Group::to_string).collect::<Vec<_>>()),
        Some(vec![
            "set:7 r7 r7 b7".to_string(),
            "set:7 b7 g7 g7".to_string()
        ])
    );
    let c = Counts::of(&cards("r10 r11 r12 W"));
    let runs: Vec<String> = lay_options(&c, &[Need::Run(4)])
        .iter()
        .map(|g| g[0].to_string())
        .collect();
    assert_eq!(runs, ["run:9..12 W r10 r11 r12"]);
    let c = Counts::of(&cards("r1 r2 r3 W"));
    let runs: Vec<String> = lay_options(&c, &[Need::Run(4)])
        .iter()
        .map(|g| g[0].to_string())
        .collect();
    assert_eq!(runs, ["run:1..4 r1 r2 r3 W"]);
}

#[test]
fn a_turn_is_public_as_soon_as_it_ends_so_the_next_block_shows_it() {
    let hands = [
        "r1 b1 g1 y1 r2 b2 g2 y2 r3 b3",
        "r4 b4 g4 y4 r5 b5 g5 y5 r6 b6",
        "r8 b8 g8 y8 r9 b9 g9 y9 r10 b10",
    ];
    // Standard rules: seat 2 is to draw and already sees seat 1's whole turn.
    let (mut g, ev) = game_with(by_id("pro-spider-10").unwrap().clone(), &hands, "y12");
    let mut log = LogWriter::new("pro-spider-10", 3, 1);
    log.record(&ev);
    log.record(&draw(&mut g, "g11"));
    assert_eq!(log.public_lines(), [] as [&str; 0]);
    log.record(&g.apply(Action::Discard(card("g11"))).unwrap());
    assert_eq!(g.to_move(), Some(1));
    assert_eq!(log.public_lines(), ["1: draw stock ; discard g11"]);
    // Knocking: the seat asked to knock sees the discarder's turn, and so does the next one.
    let (mut g, ev) = game_with(
        by_id("pro-spider-10-knocking").unwrap().clone(),
        &hands,
        "y12",
    );
    let mut log = LogWriter::new("pro-spider-10-knocking", 3, 1);
    log.record(&ev);
    log.record(&draw(&mut g, "g11"));
    log.record(&g.apply(Action::Discard(card("g11"))).unwrap());
    assert_eq!(g.choices(), [Action::Knock(card("g11")), Action::Pass]);
    assert_eq!(log.public_lines(), ["1: draw stock ; discard g11"]);
    log.record(&g.apply(Action::Pass).unwrap());
    log.record(&g.apply(Action::Knock(card("g11"))).unwrap());
    log.record(&g.apply(Action::Discard(card("b10"))).unwrap());
    assert_eq!(
        g.stage(),
        Stage::Knock {
            card: card("b10"),
            discarder: 2,
            asking: 0
        }
    );
    assert_eq!(
        log.public_lines(),
        ["1: draw stock ; discard g11", "3: knock g11 ; discard b10"]
    );
    assert_eq!(
        log.finish().lines().skip(9).collect::<Vec<_>>(),
        [
            "1: draw stock g11 ; discard g11",
            "3: knock g11 ; discard b10"
        ]
    );
}

#[test]
fn in_a_played_game_seat_2_first_sees_seat_1s_finished_turn() {
    // Every seat takes its first choice; the game stops at seat 2's first decision.
    let mut seat_1 = Vec::new();
    let mut seen_by_seat_2 = None;
    let result = play_game(
        by_id("pro-spider-10").unwrap().clone(),
        3,
        5,
        &mut |seat, view, public| {
            if seat == 1 {
                seen_by_seat_2 = Some(public.to_vec());
                return Err("stop".into());
            }
            seat_1.push(view.choices[0].to_string());
            Ok(view.choices[0].clone())
        },
    );
    assert_eq!(
        result.unwrap_err(),
        PlayError::Decider {
            seat: 1,
            why: "stop".into()
        }
    );
    assert_eq!(
        seat_1,
        [
            "draw stock",
            "lay 1 set:11 r11 b11 g11, set:12 b12 b12 g12",
            "hit 1.1 W",
            "discard y1"
        ]
    );
    assert_eq!(
        seen_by_seat_2,
        Some(vec![
            "1: draw stock ; lay 1 set:11 r11 b11 g11, set:12 b12 b12 g12 ; hit 1.1 W ; discard y1"
                .to_string()
        ])
    );
}

fn check_line(text: &str) -> (usize, String) {
    let e = check(text, &builtin_variant).unwrap_err();
    (e.line, e.why)
}

const DEAL_2: &str = "game: pro-spider-10\nplayers: 2\nseed: 1\nround: 1\ndealer: 2\n";

#[test]
fn check_names_the_players_line_and_each_hand_line() {
    assert_eq!(
        check_line("game: pro-spider-10\nplayers: 7\nseed: 1\nround: 1\ndealer: 7\n"),
        (2, "pro-spider-10 is for 2 to 6 players, not 7".to_string())
    );
    let h1 = "hand 1: r1 r1 b1 b1 g1 g1 y1 y1 r2 r2\n";
    assert_eq!(
        check_line(&format!(
            "{DEAL_2}{h1}hand 2: r3 r3 b3 b3 g3 g3 y3 y3 r4\nup: b7\n"
        )),
        (7, "hand 2 has 9 cards, not 10".to_string())
    );
    assert_eq!(
        check_line(&format!(
            "{DEAL_2}hand 1: r1 r1 b1 b1 g1 g1 y1 y1 r2 r2 b2\nhand 2: r3 r3 b3 b3 g3 g3 y3 y3 r4 r4\nup: b7\n"
        )),
        (6, "hand 1 has 11 cards, not 10".to_string())
    );
    assert_eq!(
        check_line(&format!(
            "{DEAL_2}{h1}hand 2: r3 r3 b3 b3 g3 g3 y3 y3 r4 r1\nup: b7\n"
        )),
        (7, "the deck holds only 2 of r1".to_string())
    );
    assert_eq!(
        check_line(&format!(
            "{DEAL_2}hand 1: r1 r1 r1 b1 g1 g1 y1 y1 r2 r2\nhand 2: r3 r3 b3 b3 g3 g3 y3 y3 r4 r4\nup: b7\n"
        )),
        (6, "the deck holds only 2 of r1".to_string())
    );
    // The up-card is still checked against the whole deal on its own line.
    assert_eq!(
        check_line(&format!(
            "{DEAL_2}{h1}hand 2: r3 r3 b3 b3 g3 g3 y3 y3 r4 r4\nup: r2\n"
        )),
        (8, "bad deal: the deck holds only 2 of r2".to_string())
    );
}

#[test]
fn check_names_the_first_wrong_line_even_when_a_later_one_is_unreadable() {
    let h1 = "hand 1: r1 r1 b1 b1 g1 g1 y1 y1 r2 r2\n";
    let h2 = "hand 2: r3 r3 b3 b3 g3 g3 y3 y3 r4 r4\nup: b7\n";
    // Seat 1 discards a card it does not hold (line 9), and line 10 is not a log line: the
    // replay stops at line 9.
    assert_eq!(
        check_line(&format!(
            "{DEAL_2}{h1}{h2}1: draw stock r5 ; discard y12\nthis is no log line\n"
        )),
        (9, "`discard y12`: the hand holds no y12".to_string())
    );
    // With line 9 right, line 10 is the first wrong one.
    assert_eq!(
        check_line(&format!(
            "{DEAL_2}{h1}{h2}1: draw stock y12 ; discard y12\nthis is no log line\n"
        ))
        .0,
        10
    );
}

#[test]
fn check_requires_the_seed_line() {
    assert_eq!(
        check_line("game: pro-spider-10\nplayers: 2\nround: 1\ndealer: 2\n"),
        (
            3,
            "expected `seed: S` (the log states its seed)".to_string()
        )
    );
    assert_eq!(
        check_line("game: pro-spider-10\nplayers: 2\n"),
        (3, "the log ends early: expected `seed:`".to_string())
    );
    assert_eq!(
        check_line("game: pro-spider-10\nplayers: 2\nseed: 1\nseed: 2\nround: 1\n"),
        (4, "expected `round: 1`".to_string())
    );
}

#[test]
fn check_says_why_a_skip_blocks_a_turn_or_a_knock() {
    let deal = format!(
        "{DEAL_2}hand 1: r1 r1 b1 b1 g1 g1 y1 y1 r2 r2\nhand 2: r3 r3 b3 b3 g3 g3 y3 y3 r4 r4\n"
    );
    assert_eq!(
        check_line(&format!("{deal}up: S\n1: draw stock r5 ; discard r5\n")),
        (
            9,
            "expected `1: skipped` (the up-card was a skip)".to_string()
        )
    );
    let skip_in_hand = format!(
        "{DEAL_2}hand 1: r1 r1 b1 b1 g1 g1 y1 y1 r2 S\nhand 2: r3 r3 b3 b3 g3 g3 y3 y3 r4 r4\n"
    );
    assert_eq!(
        check_line(&format!(
            "{skip_in_hand}up: r9\n1: draw stock r5 ; skip 2\n2: draw stock r6 ; discard r6\n"
        )),
        (
            10,
            "expected `2: skipped` (a skip lies in front of it)".to_string()
        )
    );
    // Knocking: seat 3 has a skip in front of it, so it may not claim seat 2's discard.
    let knocking = "game: pro-spider-10-knocking\nplayers: 3\nseed: 1\nround: 1\ndealer: 3\n\
        hand 1: r1 b1 g1 y1 r2 b2 g2 y2 r3 S\n\
        hand 2: r4 b4 g4 y4 r5 b5 g5 y5 r6 b6\n\
        hand 3: r8 b8 g8 y8 r9 b9 g9 y9 r10 b10\n\
        up: y12\n\
        1: draw stock g11 ; skip 3\n\
        2: draw stock y11 ; discard y11\n\
        3: knock y11 ; discard b10\n";
    assert_eq!(
        check_line(knocking),
        (
            12,
            "seat 3 may not knock: a skip lies in front of it (it loses its next turn)".to_string()
        )
    );
}

#[test]
fn a_jokers_value_out_of_range_is_refused_with_that_reason() {
    for (text, why) in [
        ("hit 2.1 W=13", "a joker's value must be 1 to 12, not `13`"),
        ("hit 2.1 W=0", "a joker's value must be 1 to 12, not `0`"),
        (
            "hit 1.1 r5, 2.1 w=",
            "a joker's value must be 1 to 12, not ``",
        ),
        (
            "hit 2.1 r5=5",
            "only a joker says what it stands for (`W=V`), not `r5`",
        ),
    ] {
        assert_eq!(
            text.parse::<LoggedAction>(),
            Err(ParseActionError::Malformed {
                text: text.to_string(),
                why: why.to_string()
            }),
            "{text}"
        );
    }
    assert_eq!(
        "hit 2.1 W=12".parse::<LoggedAction>(),
        Ok(LoggedAction::Actions(vec![hit(1, 0, "W=12")]))
    );
}

#[test]
fn player_seeds_are_a_one_way_chacha_mix_of_game_seed_and_seat() {
    use rand_chacha::ChaCha8Rng;
    use rand_core::{Rng, SeedableRng};
    for seed in [0u64, 5, 17, u64::MAX] {
        for seat in 0..6 {
            let mut key = [0u8; 32];
            key[..8].copy_from_slice(&seed.to_le_bytes());
            let mut rng = ChaCha8Rng::from_seed(key);
            rng.set_stream(seat as u64 + 1);
            let s = player_seed(seed, seat);
            assert_eq!(s, rng.next_u64(), "seed {seed} seat {seat}");
            assert_eq!(s, player_seed(seed, seat));
            // The old multiply-and-xor mix gave the game seed back at once.
            let inverse = 0xf1de_83e1_9937_733du64;
            assert_eq!(0x9e37_79b9_7f4a_7c15u64.wrapping_mul(inverse), 1);
            assert_ne!((s ^ (seat as u64 + 1)).wrapping_mul(inverse), seed);
        }
    }
    let seeds: std::collections::HashSet<u64> = (0..6).map(|s| player_seed(5, s)).collect();
    assert_eq!(seeds.len(), 6);
}

#[test]
fn variant_descriptions_name_the_colour_group_size() {
    let words = [
        "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    ];
    let mut checked = 0;
    for v in builtin() {
        let sizes: Vec<u8> = v
            .phases
            .iter()
            .flat_map(|p| &p.groups)
            .filter_map(|n| match n {
                Need::Colour(k) => Some(*k),
                _ => None,
            })
            .collect();
        for (i, _) in v.description.match_indices(" of a colour") {
            let word = v.description[..i].rsplit(' ').next().unwrap();
            let n = words.iter().position(|w| *w == word).map(|p| p as u8 + 1);
            assert_eq!(n.map(|n| sizes.contains(&n)), Some(true), "{}", v.id);
            checked += 1;
        }
    }
    assert_eq!(checked, 1);
}

#[test]
fn meld_of_the_whole_deck_is_quick_and_the_smallest_way() {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let deck = Counts::of(&Card::deck());
        let found: Vec<Option<String>> = standard_phases()
            .iter()
            .map(|p| {
                meld(&deck, &p.groups).map(|g| {
                    g.iter()
                        .map(Group::to_string)
                        .collect::<Vec<_>>()
                        .join(", ")
                })
            })
            .collect();
        let _ = tx.send(found);
    });
    // Listing every way took minutes and a gigabyte for a run of nine from the whole deck.
    let found = rx
        .recv_timeout(std::time::Duration::from_secs(10))
        .expect("meld of the whole deck within 10 s");
    let want = [
        "set:1 r1 r1 b1, set:1 b1 g1 g1",
        "set:1 r1 r1 b1, run:1..4 b1 r2 r3 r4",
        "set:1 r1 r1 b1 b1, run:1..4 g1 r2 r3 r4",
        "run:1..7 r1 r2 r3 r4 r5 r6 r7",
        "run:1..8 r1 r2 r3 r4 r5 r6 r7 r8",
        "run:1..9 r1 r2 r3 r4 r5 r6 r7 r8 r9",
        "set:1 r1 r1 b1 b1, set:1 g1 g1 y1 y1",
        "colour:r r1 r1 r2 r2 r3 r3 r4",
        "set:1 r1 r1 b1 b1 g1, set:1 g1 y1",
        "set:1 r1 r1 b1 b1 g1, set:1 g1 y1 y1",
    ];
    assert_eq!(found, want.map(|w| Some(w.to_string())));
    // Jokers only where needed: a run of nine from r1..r8 and jokers keeps one joker.
    let c = Counts::of(&cards("r1 r2 r3 r4 r5 r6 r7 r8 W W W W W W W W"));
    assert_eq!(
        meld(&c, &[Need::Run(9)]).map(|g| g[0].to_string()),
        Some("run:1..9 r1 r2 r3 r4 r5 r6 r7 r8 W".to_string())
    );
}

/// Two seats of 53 cards on a colour phase of 15: each holds one red card of every value and
/// four jokers, the rest are other colours and the skips; the up-card and the one stock card
/// are `b1`.
fn red_walls() -> (Game, Vec<Card>) {
    let v = variant(
        "(number: 1, groups: [Colour(15)])",
        53,
        "players: (min: 2, max: 2)",
    );
    let deck = Card::deck();
    let reds: Vec<Card> = deck
        .iter()
        .copied()
        .filter(|c| c.colour() == Some(arachne_engine::phase10::Colour::Red))
        .collect();
    let others: Vec<Card> = deck
        .iter()
        .copied()
        .filter(|c| !c.is_wild() && c.colour() != Some(arachne_engine::phase10::Colour::Red))
        .collect();
    assert_eq!((reds.len(), others.len()), (24, 76));
    let mut hands = vec![Vec::new(), Vec::new()];
    for (i, &r) in reds.iter().enumerate() {
        hands[i % 2].push(r);
    }
    for h in &mut hands {
        h.extend([Card::WILD; 4]);
    }
    hands[0].extend(&others[2..39]);
    hands[1].extend(&others[39..]);
    let mut g = Game::before_first_round(v, 2, 1).unwrap();
    g.start_round_with(hands, others[0]).unwrap();
    assert_eq!(g.stock(), [others[1]]);
    (g, others)
}

/// The red group of 15 of a seat holding one red card of each value and four jokers.
fn red_wall() -> Action {
    lay(
        1,
        &["colour:r r1 r2 r3 r4 r5 r6 r7 r8 r9 r10 r11 r12 W W W"],
    )
}

#[test]
fn a_round_that_nobody_can_ever_go_out_of_ends_with_nobody_out() {
    let (mut g, _) = red_walls();
    let first = g.to_move().unwrap();
    let second = 1 - first;
    g.apply(Action::DrawStock).unwrap();
    g.apply(red_wall()).unwrap();
    g.apply(hit(first, 0, "W")).unwrap();
    let a = g.hand(first)[0];
    g.apply(Action::Discard(a)).unwrap();
    // The other seat has not laid: its reds are still in play, so the round goes on.
    assert!(g.stock().is_empty());
    assert_eq!(g.stage(), Stage::Draw);
    let ev = g.apply(Action::DrawStock).unwrap();
    assert_eq!(ev[0], Event::Reshuffled { cards: 1 });
    g.apply(red_wall()).unwrap();
    g.apply(hit(second, 0, "W")).unwrap();
    let b = g.hand(second)[0];
    let ev = g.apply(Action::Discard(b)).unwrap();
    // Every card left in play is blue, green, yellow or a skip; both groups are red and no run
    // lies on the table, so no hand can ever grow smaller.
    let ended = ev.iter().find_map(|e| match e {
        Event::RoundEnded { out, points, .. } => Some((*out, points.clone())),
        _ => None,
    });
    let (out, points) = ended.unwrap_or_else(|| panic!("{ev:?}"));
    assert_eq!(out, None);
    assert_eq!(points, [185, 315]);
    assert_eq!(g.all_cards(), Counts::of(&Card::deck()));
}

#[test]
fn a_round_goes_on_while_a_card_in_play_could_still_be_hit() {
    let (mut g, _) = red_walls();
    let first = g.to_move().unwrap();
    g.apply(Action::DrawStock).unwrap();
    g.apply(red_wall()).unwrap();
    g.apply(hit(first, 0, "W")).unwrap();
    let a = g.hand(first)[0];
    g.apply(Action::Discard(a)).unwrap();
    g.apply(Action::DrawStock).unwrap();
    g.apply(red_wall()).unwrap();
    // The second seat keeps its fourth joker: it could still be hit on either group.
    let b = g.hand(1 - first)[0];
    let ev = g.apply(Action::Discard(b)).unwrap();
    assert!(
        !ev.iter().any(|e| matches!(e, Event::RoundEnded { .. })),
        "{ev:?}"
    );
    assert_eq!(g.stage(), Stage::Draw);
    let ev = g.apply(Action::DrawStock).unwrap();
    assert_eq!(ev[0], Event::Reshuffled { cards: 1 });
}

#[test]
fn a_stalemate_ends_its_round_in_play_and_in_the_log() {
    // Four seats, one of another Petra style: in round 12 every seat laid the colour phase in
    // red and holds only other colours (before the stalemate rule, this game never ended).
    use arachne_engine::phase10::ai::{Player, Style, Styled};
    let odd = Style {
        safe: 200,
        hit_gap: 5,
        ..Style::PETRA
    };
    let mut players: Vec<Styled> = (0..4)
        .map(|s| Styled(if s == 2 { odd } else { Style::PETRA }))
        .collect();
    let v = by_id("pro-spider-10").unwrap().clone();
    let mut log = LogWriter::new(&v.id, 4, 1155);
    let (mut g, ev) = Game::new(v, 4, 1155).unwrap();
    log.record(&ev);
    let mut stalemates = Vec::new();
    let mut decisions = 0;
    while !g.is_over() {
        if g.stage() == Stage::RoundOver {
            log.record(&g.next_round().unwrap());
            continue;
        }
        let s = g.to_move().unwrap();
        let ev = g.apply(players[s].decide(&g.view(s))).unwrap();
        log.record(&ev);
        if ev
            .iter()
            .any(|e| matches!(e, Event::RoundEnded { out: None, .. }))
            && g.discard_pile().len() > 1
        {
            assert!(
                g.stalemate(),
                "a round ended with nobody out and cards to draw"
            );
            stalemates.push(g.round());
            // What comes after says why the round is over though the pile could be reshuffled.
            let why = "the round is over: the stock is empty and nobody can go out any more (no card in play fits a laid group or makes a phase still to lay), so it ended with nobody out";
            for e in [
                g.reshuffle().unwrap_err(),
                g.apply(Action::DrawStock).unwrap_err(),
            ] {
                assert!(
                    matches!(&e, GameError::NotNow { why: w, .. } if w == why),
                    "{e}"
                );
            }
        }
        decisions += 1;
        assert!(decisions < 100_000, "the game goes on");
    }
    assert_eq!(stalemates, [12]);
    check(&log.finish(), &builtin_variant).unwrap();
}

/// Two seats of 53 cards on a phase of a run of 7 and a set of 4: each holds `r1`..`r7`, four
/// 8s and four jokers, the rest are 9s to 12s, other 1s to 7s and the skips; the up-card and the
/// one stock card are `b1`.
fn run_walls() -> Game {
    let v = variant(
        "(number: 1, groups: [Run(7), Set(4)])",
        53,
        "players: (min: 2, max: 2)",
    );
    let mut left = Counts::of(&Card::deck());
    let mine = cards("r1 r2 r3 r4 r5 r6 r7 r8 b8 g8 y8 W W W W");
    let mut hands = vec![mine.clone(), mine.clone()];
    for h in &hands {
        for &c in h {
            assert!(left.remove(c));
        }
    }
    let others = left.cards();
    assert_eq!(others.len(), 78);
    hands[0].extend(&others[2..40]);
    hands[1].extend(&others[40..]);
    let mut g = Game::before_first_round(v, 2, 1).unwrap();
    g.start_round_with(hands, others[0]).unwrap();
    g
}

#[test]
fn a_run_that_can_no_longer_grow_takes_nothing_so_the_round_ends() {
    // Both seats lay a run of 1 to 7 and a set of 8s and hit their jokers on the set: every 8
    // and joker is laid, so nothing left can reach the runs' ends and the 9s to 12s in the
    // hands can never be hit.
    let mut g = run_walls();
    let first = g.to_move().unwrap();
    let mut ends = Vec::new();
    for s in [first, 1 - first] {
        assert_eq!(g.to_move(), Some(s));
        let ev = g.apply(Action::DrawStock).unwrap();
        assert_eq!(ev.len(), if s == first { 1 } else { 2 }, "{ev:?}");
        g.apply(lay(
            1,
            &["run:1..7 r1 r2 r3 r4 r5 r6 r7", "set:8 r8 b8 g8 y8"],
        ))
        .unwrap();
        for _ in 0..4 {
            g.apply(hit(s, 1, "W")).unwrap();
        }
        let c = g.hand(s)[0];
        assert!(c.value().is_some_and(|v| v != 8), "{c}");
        ends.push(
            g.apply(Action::Discard(c))
                .unwrap()
                .into_iter()
                .any(|e| matches!(e, Event::RoundEnded { out: None, .. })),
        );
    }
    // After the first seat's turn the other could still lay; after the second's, nobody can
    // ever go out.
    assert_eq!(ends, [false, true]);
    assert!(g.stalemate());
    // (Both laid the variant's only phase: the game is over.)
    let e = g.reshuffle().unwrap_err();
    assert!(
        matches!(&e, GameError::NotNow { why, .. } if why == "the game is over"),
        "{e}"
    );
}

#[test]
fn petra_seats_let_go_of_the_cards_they_hold_once_a_round_stalls() {
    // Six Petra seats, game 56: in round 18 three seats that had not laid held the very cards
    // the others waited for, and three that had laid held an 8 nobody could hit; the round
    // went round the stock for ever. After the stock's second reshuffle of a round a seat
    // discards a card picked by a hash of the table, and the game ends in 1,221 decisions (a
    // six-seat game takes one or two thousand; without that it took 188,470, most of them in
    // round 18, until nobody could lay any more and the round ended as a stalemate).
    use arachne_engine::phase10::ai::{Heuristic, Player};
    let v = by_id("pro-spider-10").unwrap().clone();
    let mut stalled = 0;
    let played = play_game(v, 6, 56, &mut |_, view, _| {
        stalled += usize::from(view.reshuffles >= 2);
        Ok(Heuristic.decide(view))
    })
    .unwrap();
    assert!(played.game.is_over());
    assert!(stalled > 0, "the game stalled");
    assert!(played.decisions < 5_000, "{} decisions", played.decisions);
    check(&played.log, &builtin_variant).unwrap();
}
