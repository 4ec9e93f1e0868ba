//! Where Pro Spider 10 games are won and lost, round by round: plays games like `arachne-cli
//! phase10 tournament` (game `g` uses seed `S + g`, entrants rotate round the seats) and prints,
//! per entrant, how often it laid its phase in a round, the rounds it did not ("fails") per game,
//! the points it took in rounds it laid and in rounds it did not, and how often it went out; then
//! every seat's lay rate by the phase it was on, how many rounds saw 0, 1, 2 or more reshuffles,
//! and the games given up as stuck (a round still going after 100,000 decisions; its table is
//! printed on standard error).
//!
//! `cargo run --release -p arachne-engine --example p10_rounds -- --ai petra,petra --games 2000
//! --seed 1`

use arachne_engine::phase10::Event;
use arachne_engine::phase10::ai::{self, Player};
use arachne_engine::phase10::game::{Game, Stage};
use arachne_engine::phase10::play::player_seed;
use arachne_engine::phase10::variant;

mod p10_common;
use p10_common::games_options;

/// What one entrant did over the games.
#[derive(Default)]
struct Tally {
    wins: u64,
    rounds: u64,
    laid: u64,
    went_out: u64,
    points_laid: u64,
    points_open: u64,
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (levels, games, seed) = games_options(&args, "petra,petra", 100);
    let variant = variant::by_id("pro-spider-10").expect("known").clone();
    let n = levels.len();
    let mut tally: Vec<Tally> = (0..n).map(|_| Tally::default()).collect();
    // Per phase index: rounds a seat began on it, and rounds it laid it.
    let mut by_phase = vec![[0u64; 2]; variant.phases.len()];
    let mut rounds = 0u64;
    let mut stuck = 0u64;
    // Rounds by the reshuffles in them: 0, 1, 2, 3 or more.
    let mut reshuffled = [0u64; 4];
    // Games in which more than one seat finished the last phase in the final round (decided on
    // points).
    let mut on_points = 0u64;
    for g in 0..games {
        let game_seed = seed.wrapping_add(g);
        let rot = g as usize % n;
        let entrant: Vec<usize> = (0..n).map(|s| (s + n - rot) % n).collect();
        let mut players: Vec<Box<dyn Player + Send>> = (0..n)
            .map(|s| ai::player(&levels[entrant[s]], player_seed(game_seed, s)).expect("a level"))
            .collect();
        let (mut game, _) = Game::new(variant.clone(), n, game_seed).expect("a game");
        let mut decisions = 0u64;
        loop {
            let before = game.standings().to_vec();
            let round_start = decisions;
            let mut shuffles = 0usize;
            while let Some(s) = game.to_move() {
                if decisions - round_start > 100_000 {
                    stuck += 1;
                    eprintln!(
                        "game seed {game_seed}: round {} still going after 100,000 decisions; laid {:?}",
                        game.round(),
                        game.laid_phase()
                    );
                    for s in 0..n {
                        eprintln!(
                            "seat {s} next {:?} hand {:?} groups {:?}",
                            game.standings()[s].next_phase,
                            game.hand(s),
                            game.laid()[s]
                                .iter()
                                .map(|g| g.to_string())
                                .collect::<Vec<_>>()
                        );
                    }
                    eprintln!("discard {:?} stock {:?}", game.discard_pile(), game.stock());
                    break;
                }
                let view = game.view(s);
                let action = players[s].decide(&view);
                let events = game.apply(action).expect("a legal choice");
                shuffles += events
                    .iter()
                    .filter(|e| matches!(e, Event::Reshuffled { .. }))
                    .count();
                decisions += 1;
            }
            if game.to_move().is_some() {
                break;
            }
            rounds += 1;
            reshuffled[shuffles.min(3)] += 1;
            for s in 0..n {
                let (b, a) = (&before[s], &game.standings()[s]);
                let laid = a.phases_laid > b.phases_laid;
                let taken = u64::from(a.points - b.points);
                if let Some(p) = by_phase.get_mut(b.next_phase) {
                    p[0] += 1;
                    p[1] += u64::from(laid);
                }
                let t = &mut tally[entrant[s]];
                t.rounds += 1;
                if laid {
                    t.laid += 1;
                    t.points_laid += taken;
                } else {
                    t.points_open += taken;
                }
                t.went_out += u64::from(laid && game.hand(s).is_empty());
            }
            if game.is_over() {
                let done = variant.phases.len() as u32;
                let finished = game.standings().iter().filter(|s| s.phases_laid == done);
                on_points += u64::from(finished.count() > 1);
                for &w in game.winners() {
                    tally[entrant[w]].wins += 1;
                }
                break;
            }
            assert_eq!(game.stage(), Stage::RoundOver);
            game.next_round().expect("next round");
        }
    }
    let k = games as f64;
    println!(
        "{games} games of {n} seats, {:.2} rounds a game, {:.1}% decided on points (more than one seat finished in the last round); args {}",
        rounds as f64 / k,
        100.0 * on_points as f64 / k,
        args.join(" ")
    );
    println!("stuck games: {stuck}; rounds with 0, 1, 2, 3+ reshuffles: {reshuffled:?}");
    for (e, t) in tally.iter().enumerate() {
        let fails = t.rounds - t.laid;
        println!(
            "entrant {} {}: wins {} ({:.1}%), laid in {:.1}% of rounds, fails {:.3} a game, points {:.1} a laid round and {:.1} a failed one, went out in {:.1}% of the rounds it laid",
            e + 1,
            levels[e],
            t.wins,
            100.0 * t.wins as f64 / k,
            100.0 * t.laid as f64 / t.rounds.max(1) as f64,
            fails as f64 / k,
            t.points_laid as f64 / t.laid.max(1) as f64,
            t.points_open as f64 / fails.max(1) as f64,
            100.0 * t.went_out as f64 / t.laid.max(1) as f64,
        );
    }
    for (i, p) in by_phase.iter().enumerate() {
        println!(
            "phase {}: {} seat-rounds, laid in {:.1}%",
            variant.phases[i].number,
            p[0],
            100.0 * p[1] as f64 / p[0].max(1) as f64
        );
    }
}
