//! Tuning Petra's discard weights: plays heuristic styles against each other like
//! `arachne-cli phase10 tournament` (game `g` uses seed `S + g`, entrants rotate round the seats)
//! and prints the first entrant's wins with a Wilson 95% interval.
//!
//! `cargo run --release -p arachne-engine --example p10_styles -- --games 4000 --seed 1
//! --players 2 feed=1500 petra` (an entrant is `petra` or Petra's style with `name=value`
//! changes, joined by commas; the last entrant fills the remaining seats).

use arachne_engine::phase10::ai::{Modelled, Player, Style, Styled};
use arachne_engine::phase10::play_game;
use arachne_engine::phase10::variant;

mod p10_common;
use p10_common::option;

fn style(text: &str) -> Style {
    let mut s = Style::PETRA;
    if text == "petra" {
        return s;
    }
    for part in text.split(',') {
        let (k, v) = part.split_once('=').expect("name=value");
        let v: i64 = v.parse().expect("a number");
        match k {
            "feed" => s.feed = v,
            "safe" => s.safe = v,
            "ways" => s.ways_cap = v as u16,
            "rushed" => s.rushed = v,
            "hitgap" => s.hit_gap = v,
            "feedrule" => s.feed_rule = v as u8,
            "near" => s.feed_near = v,
            "skiprule" => s.skip_rule = v as u8,
            _ => panic!("unknown weight {k}"),
        }
    }
    s
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let games: u64 = option(&args, "--games").map_or(1000, |g| g.parse().expect("--games N"));
    let seed: u64 = option(&args, "--seed").map_or(1, |s| s.parse().expect("--seed S"));
    let n: usize = option(&args, "--players").map_or(2, |s| s.parse().expect("--players N"));
    let mut entrants: Vec<Style> = Vec::new();
    let mut i = 0;
    while i < args.len() {
        if args[i].starts_with("--") {
            i += 2;
            continue;
        }
        entrants.push(style(&args[i]));
        i += 1;
    }
    assert!(entrants.len() >= 2, "two styles at least");
    while entrants.len() < n {
        entrants.push(*entrants.last().expect("some"));
    }
    // `--model FILE` (`--top N`, `--margin M`, `--seats-model FILE` with three seats or more): the
    // first entrant's discard reordered by it.
    let model = p10_common::model(&args);
    let variant = variant::by_id("pro-spider-10").expect("known").clone();
    let (mut wins, mut points, mut unfinished) = (0u64, 0u64, 0u64);
    for g in 0..games {
        let game_seed = seed.wrapping_add(g);
        let rot = g as usize % n;
        let mut players: Vec<Box<dyn Player>> = (0..n)
            .map(|s| {
                let e = (s + n - rot) % n;
                match (&model, e) {
                    (Some(Some(m)), 0) => {
                        Box::new(Modelled(entrants[e], m.clone())) as Box<dyn Player>
                    }
                    _ => Box::new(Styled(entrants[e])),
                }
            })
            .collect();
        let me = rot;
        let played = match play_game(variant.clone(), n, game_seed, &mut |s, view, _| {
            Ok(players[s].decide(view))
        }) {
            Ok(played) => played,
            Err(e) => {
                // A game past the decision limit (none seen since rounds nobody can go out of
                // end and stalled rounds change Petra's discards): counted as a loss.
                eprintln!("game seed {game_seed}: {e}");
                unfinished += 1;
                continue;
            }
        };
        if played.game.winners().contains(&me) {
            wins += 1;
        }
        points += u64::from(played.game.standings()[me].points);
    }
    let (rate, low, high) = p10_common::wilson(wins, games);
    println!(
        "games {games} wins {wins} {rate:.1}% [{low:.1}-{high:.1}] mean-points {:.1} unfinished {unfinished} args {}",
        points as f64 / games as f64,
        args.join(" ")
    );
}
