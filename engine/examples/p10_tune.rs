//! Screening Michaela's settings: plays games like `arachne-cli phase10 tournament` (game `g`
//! uses seed `S + g`, entrants rotate round the seats) between Michaela with the settings given
//! on the command line (entrant 1) and other levels, and prints entrant 1's wins with a Wilson 95%
//! interval. With no settings given it plays exactly the tournament's games.
//!
//! `--oracle hands` (or `all`) is a measurement, not a level: Michaela's deals then hold the
//! other seats' real hands (and, with `all`, the real stock in its order), to tell how much of
//! what she misses is what she cannot see. `--oracle-on draw` (or `discard`) lets her see them
//! only when she draws (or only at the rest of her turn); `--oracle-seats 1` only the next
//! seat's hand (seats counted after hers; `2,3`: the two after it). The line also counts her decisions
//! that differ from Petra's, by kind: draws (and knocks), discards (and skips), the rest.
//!
//! `--deals D --steps N` set her heads-up budget; with more seats she uses three quarters of
//! both, as she does by default (`Sampler::budget`).
//!
//! `--streams 1` gives every seat of her playouts a stock order of its own instead of the one
//! stock as dealt (`Sampler::streams`).
//!
//! `--fit F --fit-tries N --fit-draw 1` turn on her test of deals against each seat's latest
//! turn (`Sampler::fit`); `--fit-check` counts, at each of her decisions, whether the real
//! hands pass that test.
//!
//! `cargo run --release -p arachne-engine --example p10_tune -- --ai michaela,petra --games 200
//! --seed 1 --shun 0.3`

use arachne_engine::phase10::ai::{self, Player, Sampler};
use arachne_engine::phase10::game::Stage;
use arachne_engine::phase10::play::player_seed;
use arachne_engine::phase10::play_game;
use arachne_engine::phase10::variant;

mod p10_common;
use p10_common::{games_options, option, play_seen, real_hands_of};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (levels, games, seed) = games_options(&args, "michaela,petra", 100);
    let num = |name: &str| option(&args, name).map(|v| v.parse::<f64>().expect("a number"));
    let variant = variant::by_id("pro-spider-10").expect("known").clone();
    // Read once for every game (`--model FILE`, `--top N`, `--margin M`, `--seats-model FILE`).
    let model = p10_common::model(&args);
    let oracle = option(&args, "--oracle");
    let oracle_on = option(&args, "--oracle-on").unwrap_or_default();
    assert!(
        oracle.as_deref().is_none_or(|o| o == "hands" || o == "all"),
        "--oracle hands|all"
    );
    assert!(
        ["", "draw", "discard"].contains(&oracle_on.as_str()),
        "--oracle-on draw|discard"
    );
    let n = levels.len();
    // `--oracle-seats 1,3`: with `--oracle hands`, only the seats that many places after hers
    // (1: the next seat, which takes up her discards) are dealt their real hands; by default all.
    let oracle_seats: Vec<usize> = option(&args, "--oracle-seats").map_or((1..n).collect(), |v| {
        v.split(',')
            .map(|k| k.parse().expect("--oracle-seats K,K"))
            .collect()
    });
    assert!(
        oracle_seats.iter().all(|&k| (1..n).contains(&k)),
        "--oracle-seats counts seats after hers: 1 to {}",
        n - 1
    );
    assert!(
        option(&args, "--oracle-seats").is_none() || oracle.as_deref() == Some("hands"),
        "--oracle-seats goes with --oracle hands"
    );
    let fit_check = args.iter().any(|a| a == "--fit-check");
    // By her stage (draw, the rest of her turn), then without and with the draw test.
    let mut truth_fits = [[0u64; 2]; 2];
    let mut fit_asked = [0u64; 2];
    let mut wins = 0u64;
    let mut points = 0u64;
    // Michaela's decisions, and those that are not Petra's, by kind (draw, discard/skip, other).
    let mut mine = [0u64; 3];
    let mut other = [0u64; 3];
    let mut count = |view: &arachne_engine::phase10::SeatView,
                     a: &arachne_engine::phase10::Action| {
        use arachne_engine::phase10::Action as A;
        let k = match a {
            A::DrawStock | A::DrawDiscard(_) | A::Knock(_) | A::Pass => 0,
            A::Discard(_) | A::Skip(_) => 1,
            _ => 2,
        };
        mine[k] += 1;
        if *a != ai::Heuristic::choose(&view.view_ref()) {
            other[k] += 1;
        }
    };
    for g in 0..games {
        let game_seed = seed.wrapping_add(g);
        let rot = g as usize % n;
        let mut me = 0;
        let mut players: Vec<Box<dyn Player + Send>> = Vec::new();
        let mut michaela: Option<Sampler> = None;
        for s in 0..n {
            let e = (s + n - rot) % n;
            let ps = player_seed(game_seed, s);
            if e == 0 {
                me = s;
                let mut m = Sampler::new(ps);
                if let Some(v) = num("--deals") {
                    m.deals = v as usize;
                }
                if let Some(v) = num("--steps") {
                    m.steps = v as usize;
                }
                if let Some(v) = num("--discards") {
                    m.discards = v as usize;
                }
                if let Some(v) = num("--confidence") {
                    m.confidence = v;
                }
                if let Some(v) = num("--shun") {
                    m.shun = v;
                }
                if let Some(v) = num("--shun-seats") {
                    m.shun_seats = v as usize;
                }
                if let Some(v) = num("--laid") {
                    m.laid = v;
                }
                if let Some(v) = num("--behind") {
                    m.behind = v;
                }
                if let Some(v) = num("--fit") {
                    m.fit = v;
                }
                if let Some(v) = num("--fit-tries") {
                    m.fit_tries = v as usize;
                }
                if let Some(v) = num("--fit-draw") {
                    m.fit_draw = v != 0.0;
                }
                if let Some(model) = &model {
                    m.model = model.clone();
                }
                if let Some(v) = num("--own") {
                    m.own = v as usize;
                }
                if let Some(v) = num("--streams") {
                    m.streams = v != 0.0;
                }
                if oracle.as_deref() == Some("all") {
                    // The real stock in its order is what that measurement deals.
                    m.streams = false;
                }
                players.push(Box::new(Sampler::new(0)));
                michaela = Some(m);
            } else {
                players.push(ai::player(&levels[e], ps).expect("a level"));
            }
        }
        let mut michaela = michaela.expect("entrant 1 plays");
        let game = if oracle.is_some() || fit_check {
            let oracle = oracle.clone().unwrap_or_default();
            play_seen(&variant, n, game_seed, &mut |game, s, view| {
                if s == me {
                    let drawing = matches!(view.stage, Stage::Draw | Stage::Knock { .. });
                    let sees = match oracle_on.as_str() {
                        "draw" => drawing,
                        "discard" => !drawing,
                        _ => true,
                    };
                    if fit_check {
                        let at = usize::from(!drawing);
                        for (k, draw) in [false, true].into_iter().enumerate() {
                            truth_fits[at][k] += u64::from(michaela.fits_now(game, view, draw));
                        }
                        fit_asked[at] += 1;
                    }
                    let a = if !sees || oracle.is_empty() {
                        michaela.decide(view)
                    } else if oracle == "all" {
                        michaela.decide_with(view, &mut |_| game.clone())
                    } else {
                        // The other seats' real hands (`p10_common::real_hands_of`).
                        let sees = |o: usize| oracle_seats.contains(&((o + n - me) % n));
                        michaela.decide_with(view, &mut |rng| real_hands_of(game, view, rng, &sees))
                    };
                    count(view, &a);
                    a
                } else {
                    players[s].decide(view)
                }
            })
        } else {
            play_game(variant.clone(), n, game_seed, &mut |s, view, _| {
                Ok(if s == me {
                    let a = michaela.decide(view);
                    count(view, &a);
                    a
                } else {
                    players[s].decide(view)
                })
            })
            .expect("a game plays to its end")
            .game
        };
        if game.winners().contains(&me) {
            wins += 1;
        }
        points += u64::from(game.standings()[me].points);
        if (g + 1) % 100 == 0 {
            eprintln!("after {} games: {wins} wins", g + 1);
        }
    }
    let (rate, low, high) = p10_common::wilson(wins, games);
    if fit_check {
        for (at, name) in ["her draws", "the rest of her turns"].iter().enumerate() {
            println!(
                "real hands fit at {name}: {} of {} decisions (discards only), {} (with draws)",
                truth_fits[at][0], fit_asked[at], truth_fits[at][1]
            );
        }
    }
    println!(
        "games {games} wins {wins} {rate:.1}% [{low:.1}-{high:.1}] mean-points {:.1} not-petra draw {}/{} discard {}/{} other {}/{} args {}",
        points as f64 / games as f64,
        other[0],
        mine[0],
        other[1],
        mine[1],
        other[2],
        mine[2],
        args.join(" ")
    );
}
