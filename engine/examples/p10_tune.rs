//! Screening Michaela's settings: plays games like `arachne-cli phase10 tournament` (game `g`
//! uses seed `S + g`, entrants rotate round the seats) between Michaela with the settings given
//! on the command line (entrant 1) and other levels, and prints entrant 1's wins with a Wilson 95%
//! interval. With no settings given it plays exactly the tournament's games.
//!
//! `cargo run --release -p arachne-engine --example p10_tune -- --ai michaela,petra --games 200
//! --seed 1 --shun 0.3`

use arachne_engine::phase10::ai::{self, Player, Sampler};
use arachne_engine::phase10::play::player_seed;
use arachne_engine::phase10::play_game;
use arachne_engine::phase10::variant;

fn option(args: &[String], name: &str) -> Option<String> {
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1).cloned())
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let levels: Vec<String> = option(&args, "--ai")
        .unwrap_or_else(|| "michaela,petra".into())
        .split(',')
        .map(str::to_string)
        .collect();
    let games: u64 = option(&args, "--games").map_or(100, |g| g.parse().expect("--games N"));
    let seed: u64 = option(&args, "--seed").map_or(1, |s| s.parse().expect("--seed S"));
    let num = |name: &str| option(&args, name).map(|v| v.parse::<f64>().expect("a number"));
    let variant = variant::by_id("pro-spider-10").expect("known").clone();
    let n = levels.len();
    let mut wins = 0u64;
    let mut points = 0u64;
    for g in 0..games {
        let game_seed = seed.wrapping_add(g);
        let rot = g as usize % n;
        let mut me = 0;
        let mut players: Vec<Box<dyn Player + Send>> = Vec::new();
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
                players.push(Box::new(m));
            } else {
                players.push(ai::player(&levels[e], ps).expect("a level"));
            }
        }
        let played = play_game(variant.clone(), n, game_seed, &mut |s, view, _| {
            Ok(players[s].decide(view))
        })
        .expect("a game plays to its end");
        if played.game.winners().contains(&me) {
            wins += 1;
        }
        points += u64::from(played.game.standings()[me].points);
    }
    let k = games as f64;
    let p = wins as f64 / k;
    let z = 1.96f64;
    let centre = (p + z * z / (2.0 * k)) / (1.0 + z * z / k);
    let half = z * (p * (1.0 - p) / k + z * z / (4.0 * k * k)).sqrt() / (1.0 + z * z / k);
    println!(
        "games {games} wins {wins} {:.1}% [{:.1}-{:.1}] mean-points {:.1} args {}",
        100.0 * p,
        100.0 * (centre - half),
        100.0 * (centre + half),
        points as f64 / k,
        args.join(" ")
    );
}
