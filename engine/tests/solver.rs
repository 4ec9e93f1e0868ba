//! Solver tests: positions with known answers, solutions replayed through the rules for deals of
//! every variant, determinism, cancellation and the budget.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use arachne_engine::solver::{auto_complete, hint, new_winnable_deal, winnable};
use arachne_engine::{
    Budget, Game, GameOptions, Move, Numbering, Position, Variant, Variants, Verdict, deal, solve,
};

fn pos(text: &str) -> Position {
    Position::parse(text, &Variants::default()).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

fn variant(id: &str) -> Arc<Variant> {
    Variants::default().get(id).expect(id).clone()
}

/// Plays `moves` from `p` through the game rules and says whether they win.
fn replays_to_a_win(p: &Position, moves: &[Move]) -> bool {
    let mut g = Game::from_position(p.clone(), GameOptions::for_variant(p.variant()));
    moves.iter().all(|&m| g.apply(m).is_ok()) && g.is_won()
}

#[test]
fn a_one_move_win() {
    let p = pos(
        "variant: will-o-the-wisp\nstock:\nfoundation: 3\n1: Kh Qh Jh Th 9h 8h 7h 6h 5h 4h 3h 2h\n2: Ah\n3: \n4:\n5:\n6:\n7:\n",
    );
    let report = solve(&p, Budget::nodes(1_000), None);
    assert_eq!(
        report.verdict,
        Verdict::Solved(vec!["2>1:1".parse().unwrap()])
    );
}

#[test]
fn a_won_position_needs_no_moves() {
    let p = pos("variant: spiderette\nstock:\nfoundation: 4\n1:\n2:\n3:\n4:\n5:\n6:\n7:\n");
    assert_eq!(
        solve(&p, Budget::nodes(10), None).verdict,
        Verdict::Solved(vec![])
    );
}

#[test]
fn a_position_without_moves_is_proved_lost() {
    let p = pos(
        "variant: will-o-the-wisp\nstock:\nfoundation: 3\n1: Qh Kh\n2: Th Jh\n3: 8h 9h\n4: 6h 7h\n5: 4h 5h\n6: 2h 3h\n7: Ah\n",
    );
    assert_eq!(
        solve(&p, Budget::nodes(1_000), None).verdict,
        Verdict::Unwinnable
    );
}

/// A position's text with the column order dropped once the stock is empty (columns are then
/// interchangeable), to keep the brute force small.
fn key(p: &Position) -> String {
    let text = p.to_string();
    if p.stock_len() > 0 {
        return text;
    }
    let mut columns: Vec<&str> = text
        .lines()
        .filter_map(|l| {
            l.split_once(':')
                .filter(|(k, _)| k.parse::<usize>().is_ok())
                .map(|x| x.1)
        })
        .collect();
    columns.sort_unstable();
    columns.join("/")
}

/// Whether any line wins, by trying every reachable position (no solver involved), or `None`
/// past `cap` positions.
fn brute_force_winnable(p: &Position, cap: usize) -> Option<bool> {
    let mut seen = std::collections::HashSet::new();
    let mut todo = vec![p.clone()];
    seen.insert(key(p));
    while let Some(q) = todo.pop() {
        if q.is_won() {
            return Some(true);
        }
        for m in q.legal_moves() {
            let mut r = q.clone();
            r.play(m).unwrap();
            if seen.insert(key(&r)) {
                if seen.len() > cap {
                    return None;
                }
                todo.push(r);
            }
        }
    }
    Some(false)
}

/// Small positions from a fixed generator: 13 hearts (and, every other time, 13 spades) on a
/// 7-column table, a few in the stock, some face down.
fn small_positions(count: usize) -> Vec<Position> {
    let mut state = 0x1234_5678_u64;
    let mut next = move |n: u64| {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (state >> 33) % n
    };
    let mut out = Vec::new();
    while out.len() < count {
        let two_suits = out.len() % 2 == 1;
        let suits: &[char] = if two_suits { &['h', 's'] } else { &['h'] };
        let mut cards: Vec<String> = suits
            .iter()
            .flat_map(|s| "A23456789TJQK".chars().map(move |r| format!("{r}{s}")))
            .collect();
        for i in (1..cards.len()).rev() {
            cards.swap(i, next(i as u64 + 1) as usize);
        }
        let stock_len = next(if two_suits { 8 } else { 4 }) as usize;
        let stock: Vec<String> = cards.drain(..stock_len).collect();
        let mut columns = vec![Vec::new(); 7];
        for (i, c) in cards.into_iter().enumerate() {
            // Two-suit tables start with a card in every column.
            let to = if two_suits && i < 7 {
                i
            } else {
                next(7) as usize
            };
            columns[to].push(c);
        }
        let foundation = 4 - suits.len();
        let mut text = format!(
            "variant: will-o-the-wisp\nstock: {}\nfoundation: {foundation}\n",
            stock.join(" ")
        );
        for (i, col) in columns.iter().enumerate() {
            let down = if col.len() > 1 {
                next(col.len() as u64) as usize
            } else {
                0
            };
            let line = if down > 0 {
                format!("{} | {}", col[..down].join(" "), col[down..].join(" "))
            } else {
                col.join(" ")
            };
            text += &format!("{}: {line}\n", i + 1);
        }
        if let Ok(p) = Position::parse(&text, &Variants::default()) {
            out.push(p);
        }
    }
    out
}

#[test]
fn verdicts_agree_with_brute_force_on_small_positions() {
    let (mut won, mut lost_with_moves, mut checked) = (0, 0, 0);
    for p in small_positions(100) {
        let Some(truth) = brute_force_winnable(&p, 300_000) else {
            continue;
        };
        checked += 1;
        match solve(&p, Budget::nodes(2_000_000), None).verdict {
            Verdict::Solved(moves) => {
                assert!(truth, "solved a lost position?\n{p}");
                assert!(replays_to_a_win(&p, &moves), "{p}");
                won += 1;
            }
            Verdict::Unwinnable => {
                assert!(!truth, "claimed lost but a win exists:\n{p}");
                if !p.legal_moves().is_empty() {
                    lost_with_moves += 1;
                }
            }
            Verdict::Unknown => panic!("small position left unknown:\n{p}"),
        }
    }
    eprintln!("checked {checked} won {won} lost with moves {lost_with_moves}");
    assert!(checked >= 80, "checked {checked}");
    assert!(won >= 5, "won {won}");
    assert!(lost_with_moves >= 3, "lost with moves {lost_with_moves}");
}

#[test]
fn a_win_that_needs_a_deal() {
    let p = pos("\
variant: will-o-the-wisp
stock: Ah Qs Js Ts 9s 8s 7s
foundation: 2
1: Kh Qh Jh Th 9h 8h 7h 6h 5h 4h 3h 2h
2: Ks
3: 6s
4: 5s 4s
5: 3s
6: 2s
7: As
");
    let Verdict::Solved(moves) = solve(&p, Budget::nodes(1_000_000), None).verdict else {
        panic!("not solved")
    };
    assert!(moves.contains(&Move::Deal));
    assert!(replays_to_a_win(&p, &moves));
}

#[test]
fn manual_discard_positions_are_solved_with_discards() {
    let p = pos(
        "variant: red-black-spider\nstock:\nfoundation: 6\n1: Kh Qd Jh Td 9h 8d 7h 6d 5h 4d 3h 2d\n2: Ah\n3: Ks Qc Js Tc 9s 8c 7s 6c 5s 4c 3s 2c\n4: As\n5:\n6:\n7:\n8:\n9:\n10:\n",
    );
    let Verdict::Solved(moves) = solve(&p, Budget::nodes(100_000), None).verdict else {
        panic!("not solved")
    };
    assert_eq!(
        moves
            .iter()
            .filter(|m| matches!(m, Move::Discard { .. }))
            .count(),
        2
    );
    assert!(replays_to_a_win(&p, &moves));
}

#[test]
fn solutions_replay_to_a_win_in_every_variant() {
    // Easy deals must be solved; for the rest, whatever is solved must replay to a win.
    let budget = Budget::nodes(300_000);
    let mut solved = 0;
    for v in Variants::default().iter() {
        for seed in 1..=3 {
            let p = deal(v, seed, Numbering::Arachne, v.discard).unwrap();
            match solve(&p, budget, None).verdict {
                Verdict::Solved(moves) => {
                    assert!(replays_to_a_win(&p, &moves), "{} #{seed}", v.id);
                    solved += 1;
                }
                Verdict::Unwinnable => {}
                Verdict::Unknown => {
                    assert!(v.id != "spider-1suit", "spider-1suit #{seed} not solved");
                }
            }
        }
    }
    assert!(solved >= 3, "solved {solved}");
    for seed in 1..=5 {
        for id in ["spider-1suit", "spider-2suit"] {
            let v = variant(id);
            let p = deal(&v, seed, Numbering::Kpat, v.discard).unwrap();
            let Verdict::Solved(moves) = solve(&p, Budget::nodes(2_000_000), None).verdict else {
                panic!("{id} kpat #{seed} not solved")
            };
            assert!(replays_to_a_win(&p, &moves), "{id} kpat #{seed}");
        }
    }
}

#[test]
fn the_same_input_and_budget_give_the_same_answer() {
    let v = variant("spider-4suit");
    let p = deal(&v, 7, Numbering::Kpat, v.discard).unwrap();
    let a = solve(&p, Budget::nodes(200_000), None);
    let b = solve(&p, Budget::nodes(200_000), None);
    assert_eq!(a.verdict, b.verdict);
    assert_eq!(a.nodes, b.nodes);
    let v = variant("spider-2suit");
    let p = deal(&v, 3, Numbering::Kpat, v.discard).unwrap();
    assert_eq!(
        solve(&p, Budget::nodes(2_000_000), None).verdict,
        solve(&p, Budget::nodes(2_000_000), None).verdict
    );
}

#[test]
fn the_node_budget_is_respected() {
    let v = variant("huge-spider");
    let p = deal(&v, 1, Numbering::Arachne, v.discard).unwrap();
    let report = solve(&p, Budget::nodes(5_000), None);
    assert_eq!(report.verdict, Verdict::Unknown);
    assert!(report.nodes <= 5_000, "{}", report.nodes);
}

#[test]
fn a_cancelled_search_stops_with_unknown() {
    let v = variant("huge-spider");
    let p = deal(&v, 2, Numbering::Arachne, v.discard).unwrap();
    let cancel = AtomicBool::new(true);
    let report = solve(&p, Budget::time(Duration::from_secs(600)), Some(&cancel));
    assert_eq!(report.verdict, Verdict::Unknown);
    // Cancelled from another thread while running.
    let cancel = Arc::new(AtomicBool::new(false));
    let flag = cancel.clone();
    let started = Instant::now();
    let worker =
        std::thread::spawn(move || solve(&p, Budget::time(Duration::from_secs(600)), Some(&flag)));
    std::thread::sleep(Duration::from_millis(100));
    cancel.store(true, std::sync::atomic::Ordering::Relaxed);
    let report = worker.join().unwrap();
    assert_eq!(report.verdict, Verdict::Unknown);
    assert!(
        started.elapsed() < Duration::from_secs(60),
        "the search stopped long after the cancel"
    );
}

#[test]
fn game_helpers() {
    let p = pos(
        "variant: will-o-the-wisp\nstock:\nfoundation: 3\n1: Kh Qh Jh Th 9h 8h 7h 6h 5h 4h 3h 2h\n2: Ah\n3: \n4:\n5:\n6:\n7:\n",
    );
    let g = Game::from_position(p, GameOptions::for_variant(&variant("will-o-the-wisp")));
    let one = "2>1:1".parse().unwrap();
    assert_eq!(hint(&g, Budget::nodes(1_000), None), Some(one));
    assert_eq!(
        auto_complete(&g, Budget::nodes(1_000), None),
        Some(vec![one])
    );
    assert_eq!(
        winnable(&g, Budget::nodes(1_000), None),
        Verdict::Solved(vec![one])
    );

    let v = variant("spider-1suit");
    let (seed, moves, tried) =
        new_winnable_deal(&v, Numbering::Arachne, 100.., Budget::nodes(500_000), None)
            .expect("a winnable deal");
    assert!(seed >= 100 && tried >= 1 && seed - 100 + 1 == tried as u64);
    let start = deal(&v, seed, Numbering::Arachne, v.discard).unwrap();
    assert!(replays_to_a_win(&start, &moves));
}
