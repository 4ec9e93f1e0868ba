//! Pro Spider 10 edge cases of winning and refusing: two seats tied on the fewest points both win
//! (in the log's `winner:` line and in `check`), `apply` refuses every action that is not among
//! the listed choices (random actions in random games), and `check` refuses a log in which a seat
//! plays an action that was not listed, naming that line.

use std::sync::Arc;

use arachne_engine::phase10::ai::{self, Player};
use arachne_engine::phase10::card::parse_cards;
use arachne_engine::phase10::check::builtin_variant;
use arachne_engine::phase10::variant::builtin;
use arachne_engine::phase10::{
    Action, Card, Game, HitCard, LogWriter, LoggedAction, P10Variant, Stage, check, play_game,
};
use proptest::prelude::*;

fn cards(s: &str) -> Vec<Card> {
    parse_cards(s).unwrap()
}

fn card(s: &str) -> Card {
    s.parse().unwrap()
}

/// Two rounds, one set of three each, everybody moving on every round (as in ten rounds).
fn two_rounds() -> Arc<P10Variant> {
    let text = "ProSpider10(id: \"tie\", name: \"Tie\", description: \"\", hand_size: 4, \
        phases: [(number: 1, groups: [Set(3)]), (number: 2, groups: [Set(3)])], ten_rounds: true)";
    Arc::new(P10Variant::from_ron(text, "tie.ron").unwrap())
}

fn apply_all(g: &mut Game, log: &mut LogWriter, draw: &str, actions: &[&str]) {
    g.force_stock_top(card(draw)).unwrap();
    log.record(&g.apply(Action::DrawStock).unwrap());
    for a in actions {
        let LoggedAction::Actions(list) = a.parse().unwrap() else {
            panic!("{a} is a draw");
        };
        for action in list {
            log.record(&g.apply(action).unwrap());
        }
    }
}

#[test]
fn two_seats_tied_on_the_fewest_points_both_win() {
    let v = two_rounds();
    let mut g = Game::before_first_round(v.clone(), 2, 3).unwrap();
    let mut log = LogWriter::new("tie", 2, 3);
    // Round 1: seat 1 goes out at once, seat 2 keeps four low cards (20 points).
    log.record(
        &g.start_round_with(vec![cards("r1 b1 g1 r5"), cards("r2 b2 g2 b5")], card("y9"))
            .unwrap(),
    );
    apply_all(
        &mut g,
        &mut log,
        "y1",
        &["lay 1 set:1 r1 b1 g1", "hit 1.1 y1", "discard r5"],
    );
    assert_eq!(g.stage(), Stage::RoundOver);
    // Round 2: seat 1 deals, seat 2 plays first and goes out; seat 1 keeps 20 points.
    log.record(
        &g.start_round_with(vec![cards("r3 b3 g3 r6"), cards("r4 b4 g4 b6")], card("y9"))
            .unwrap(),
    );
    assert_eq!(g.turn(), 1);
    apply_all(
        &mut g,
        &mut log,
        "y4",
        &["lay 2 set:4 r4 b4 g4", "hit 2.1 y4", "discard b6"],
    );
    assert_eq!(g.stage(), Stage::Over);
    assert_eq!(g.winners(), [0, 1]);
    let text = log.finish();
    assert!(text.contains("\ntotal: 1 20, 2 20\n"), "{text}");
    assert!(text.trim_end().ends_with("\nwinner: 1 2"), "{text}");
    let report = check(&text, &|id| (id == "tie").then(|| v.clone())).unwrap();
    assert_eq!(report.winners, [0, 1]);
    assert_eq!(report.text(), "ok\n1 20 1\n2 20 1\n");
    // A log that names only one of the tied seats is refused on its `winner:` line.
    let last = text.lines().count();
    let one = text.replace("winner: 1 2", "winner: 1");
    let err = check(&one, &|id| (id == "tie").then(|| v.clone())).unwrap_err();
    assert_eq!(err.line, last, "{err}");
}

/// Any action at all, mostly nonsense: every kind, any card, seat, group and joker value.
fn any_action() -> impl Strategy<Value = Action> {
    let c = (0usize..50).prop_map(|i| Card::from_index(i).unwrap());
    prop_oneof![
        Just(Action::DrawStock),
        c.clone().prop_map(Action::DrawDiscard),
        c.clone().prop_map(Action::Knock),
        Just(Action::Pass),
        c.clone().prop_map(Action::Discard),
        (0usize..7).prop_map(Action::Skip),
        (0usize..7, 0usize..3, c, proptest::option::of(0u8..14)).prop_map(|(seat, group, c, v)| {
            Action::Hit {
                seat,
                group,
                card: match v {
                    Some(v) if c.is_wild() => HitCard::joker_as(v),
                    _ => HitCard::plain(c),
                },
            }
        }),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 16, ..ProptestConfig::default() })]

    #[test]
    fn apply_refuses_every_action_that_is_not_listed_and_changes_nothing(
        v in 0usize..7, players in 2usize..=6, seed in any::<u64>(),
        tries in proptest::collection::vec(any_action(), 40),
    ) {
        let variant = builtin()[v].clone();
        let (mut game, _) = Game::new(variant, players, seed).unwrap();
        let mut petra = ai::player("petra", seed).unwrap();
        let mut refused = 0;
        for step in 0..300 {
            if game.is_over() {
                break;
            }
            if game.stage() == Stage::RoundOver {
                game.next_round().unwrap();
                continue;
            }
            let choices = game.choices();
            let a = &tries[step % tries.len()];
            if !choices.contains(a) {
                let before = format!("{game:?}");
                prop_assert!(game.apply(a.clone()).is_err(), "`{}` applied; choices {:?}", a, choices);
                prop_assert_eq!(format!("{game:?}"), before);
                refused += 1;
            }
            let seat = game.to_move().unwrap();
            let chosen = petra.decide(&game.view(seat));
            game.apply(chosen).unwrap();
        }
        prop_assert!(refused > 0);
    }
}

#[test]
fn check_refuses_a_log_where_a_seat_plays_an_unlisted_action() {
    let variant = builtin()[0].clone();
    let mut seats: Vec<Box<dyn Player + Send>> =
        (0..3).map(|s| ai::player("petra", s).unwrap()).collect();
    let played = play_game(variant, 3, 11, &mut |s, view, _| Ok(seats[s].decide(view))).unwrap();
    let lines: Vec<&str> = played.log.lines().collect();
    assert!(check(&played.log, &builtin_variant).is_ok());
    let mut tried = 0;
    for (i, line) in lines.iter().enumerate() {
        let Some((seat, rest)) = line.split_once(": ") else {
            continue;
        };
        if !seat.bytes().all(|b| b.is_ascii_digit()) || !rest.starts_with("draw ") {
            continue;
        }
        // Never listed: a skip in front of oneself, a knock outside the knocking variant, a
        // second draw, a hit before laying on the seat's own (not laid) group.
        let unlisted = [
            format!("{rest} ; skip {seat}"),
            rest.replacen("draw stock", "knock", 1)
                .replacen("draw discard", "knock", 1),
            format!("draw stock r1 ; {rest}"),
        ];
        for bad in unlisted {
            let mut edited: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
            edited[i] = format!("{seat}: {bad}");
            let err = check(&edited.join("\n"), &builtin_variant).expect_err(&format!(
                "line {} accepted: {}",
                i + 1,
                edited[i]
            ));
            assert_eq!(err.line, i + 1, "{err}: {}", edited[i]);
            tried += 1;
        }
        if tried >= 60 {
            break;
        }
    }
    assert_eq!(tried, 60);
}

#[test]
fn an_action_after_a_skip_in_a_two_seat_game_is_refused_as_after_the_turns_end() {
    // Heads-up a skip hands the turn straight back, so the same seat moves next; an action
    // after the skip on the same line was refused as if the turn had not begun.
    let v = builtin_variant("pro-spider-10").unwrap();
    let mut seats: Vec<Box<dyn Player + Send>> =
        (0..2).map(|_| ai::player("petra", 0).unwrap()).collect();
    let (text, at) = (1..)
        .find_map(|seed| {
            let played = play_game(v.clone(), 2, seed, &mut |s, view, _| {
                Ok(seats[s].decide(view))
            })
            .unwrap();
            let at = played.log.lines().position(|l| l.contains("; skip "))?;
            Some((played.log, at))
        })
        .unwrap();
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    lines[at].push_str(" ; discard y5");
    let e = check(&lines.join("\n"), &builtin_variant).unwrap_err();
    assert_eq!(e.line, at + 1, "{e}");
    assert!(
        e.to_string()
            .contains("`discard y5`: the turn is over already"),
        "{e}"
    );
}

#[test]
fn a_turn_after_a_rounds_result_is_told_that_the_next_round_comes() {
    use arachne_engine::phase10::variant::by_id;
    let v = by_id("pro-spider-10").unwrap().clone();
    let played = play_game(v, 2, 5, &mut |_, view, _| Ok(ai::Heuristic.decide(view))).unwrap();
    let lines: Vec<&str> = played.log.lines().collect();
    let next = lines.iter().position(|l| l.starts_with("next:")).unwrap();
    let turn = lines.iter().find(|l| l.starts_with("1: ")).unwrap();
    for (at, expected) in [(next + 1, "`round:`"), (next - 3, "`out:`")] {
        let mut bad = lines.clone();
        bad.insert(at, turn);
        let e = check(&(bad.join("\n") + "\n"), &builtin_variant)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains(&format!(
                "line {}: the round is over: expected {expected}",
                at + 1
            )),
            "{e}"
        );
    }
}
