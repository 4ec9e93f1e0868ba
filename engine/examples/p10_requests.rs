//! A computer seat's decisions as the browser asks them, timed outside the browser.
//!
//! In the browser a Pro Spider 10 computer seat decides in the Web Worker's wasm module
//! (`web/solver`), from a request text (`phase10::remote`: the seat, its level and seed, and
//! the game's log so far). This example makes such requests and answers them natively, so the
//! same requests can be answered by the worker's module (`node web/p10-worker-time.mjs`) and the
//! two times compared in one sitting:
//!
//! - `p10_requests write --ai michaela,petra --games 4 --seed 1 --level michaela > REQUESTS`
//!   plays games like `arachne-cli phase10 tournament` (game `g` has seed `S + g`, entrants
//!   rotate round the seats) and writes the request of every decision of a `--level` seat, in
//!   order, each ended by a NUL byte. Every seat's decision is made by answering a request, as in
//!   the browser.
//! - `p10_requests time REQUESTS [ANSWERS]` answers them in order with the code the worker runs
//!   (`remote::Players`), prints the wall time per answer (p50, p95, p99, max, mean), and writes
//!   the answers, one per line, to ANSWERS when given (the wasm run must answer the same).
//!
//! Build: `cargo build --release -p arachne-engine --example p10_requests`.

use std::io::Write;
use std::time::Instant;

use arachne_engine::phase10::action::Action;
use arachne_engine::phase10::game::{Game, Stage};
use arachne_engine::phase10::log::LogWriter;
use arachne_engine::phase10::play::player_seed;
use arachne_engine::phase10::remote::{self, Ask, Players};
use arachne_engine::phase10::variant;

mod p10_common;
use p10_common::{games_options, option};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("write") => write(&args[1..]),
        Some("time") => time(&args[1..]),
        _ => {
            eprintln!("usage: p10_requests write [--ai L,L] [--games N] [--seed S] [--level L]");
            eprintln!("       p10_requests time REQUESTS [ANSWERS]");
            std::process::exit(2);
        }
    }
}

/// Plays the games, writing the requests of the `--level` seats to stdout.
fn write(args: &[String]) {
    let (levels, games, seed) = games_options(args, "michaela,petra", 4);
    let level = option(args, "--level").unwrap_or_else(|| "michaela".into());
    let variant = variant::by_id("pro-spider-10").expect("known").clone();
    let n = levels.len();
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let mut written = 0u64;
    for g in 0..games {
        let game_seed = seed.wrapping_add(g);
        let rot = g as usize % n;
        let (mut game, events) = Game::new(variant.clone(), n, game_seed).expect("a game");
        let mut log = LogWriter::new(&variant.id, n, game_seed);
        log.record(&events);
        let mut players = Players::default();
        let mut passes = 0usize;
        while !game.is_over() {
            if game.stage() == Stage::RoundOver {
                let events = game.next_round().expect("the next round");
                log.record(&events);
                continue;
            }
            let seat = game.to_move().expect("a seat to move");
            let ask = Ask {
                table: g,
                seat,
                level: levels[(seat + n - rot) % n].clone(),
                seed: player_seed(game_seed, seat),
                passes,
            };
            let text = remote::request(&ask, &log.text_so_far());
            let answer = players.answer(&text);
            let action = remote::read_answer(&answer, &game.choices())
                .unwrap_or_else(|e| panic!("game {game_seed}: {e}"));
            if ask.level == level {
                out.write_all(text.as_bytes()).expect("stdout");
                out.write_all(b"\0").expect("stdout");
                written += 1;
            }
            passes = if action == Action::Pass {
                passes + 1
            } else {
                0
            };
            let events = game.apply(action).expect("a legal answer");
            log.record(&events);
        }
    }
    out.flush().expect("stdout");
    eprintln!("{written} requests of {level} in {games} games");
}

/// Answers the requests in a file in order, timing each.
fn time(args: &[String]) {
    let path = args.first().expect("p10_requests time REQUESTS [ANSWERS]");
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let requests: Vec<&str> = text.split('\0').filter(|r| !r.is_empty()).collect();
    if requests.is_empty() {
        eprintln!("{path}: no requests (write them with `p10_requests write`)");
        std::process::exit(1);
    }
    let mut players = Players::default();
    let mut ms = Vec::with_capacity(requests.len());
    let mut answers = String::new();
    for r in &requests {
        let t = Instant::now();
        let a = players.answer(r);
        ms.push(t.elapsed().as_secs_f64() * 1000.0);
        answers.push_str(&a);
    }
    if let Some(out) = args.get(1) {
        std::fs::write(out, &answers).unwrap_or_else(|e| panic!("{out}: {e}"));
    }
    let errors = answers.lines().filter(|l| l.starts_with("error")).count();
    let mean = ms.iter().sum::<f64>() / ms.len().max(1) as f64;
    ms.sort_by(f64::total_cmp);
    let q = |p: f64| ms[((ms.len() as f64 * p) as usize).min(ms.len() - 1)];
    println!(
        "native: {} answers ({errors} errors), ms per answer: p50 {:.2} p95 {:.2} p99 {:.2} max {:.2} mean {:.2}",
        ms.len(),
        q(0.5),
        q(0.95),
        q(0.99),
        ms[ms.len() - 1],
        mean
    );
}
