//! Engine speed on random Spider 4-suit positions: legal-move generation, and apply+undo at the
//! position level (what the solver uses) and the game level (with events, what the table uses).
//!
//! Run: `cargo run --release -p arachne-engine --example throughput`

use std::hint::black_box;
use std::time::Instant;

use arachne_engine::{Game, GameOptions, Move, Numbering, Position, Variants, deal};

/// A small deterministic generator, so every run measures the same positions.
struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// Prints the rate of `count` operations timed since `start`.
fn report(label: &str, unit: &str, count: usize, start: Instant) {
    let s = start.elapsed().as_secs_f64();
    let n = count as f64;
    println!(
        "{label} {:>6.2} M {unit}/s ({:.0} ns each)",
        n / s / 1e6,
        s / n * 1e9
    );
}

fn main() {
    let variants = Variants::default();
    let variant = variants.get("spider-4suit").expect("built in").clone();
    let mut rng = XorShift(0x2545_f491_4f6c_dd1d);
    // 2000 positions: deals 1..=200, each after 0..60 random legal moves.
    let mut positions: Vec<Position> = Vec::new();
    for seed in 1..=200 {
        let mut p = deal(&variant, seed, Numbering::Arachne, variant.discard).expect("deal");
        for _ in 0..10 {
            for _ in 0..rng.next() % 7 {
                let moves = p.legal_moves();
                if moves.is_empty() {
                    break;
                }
                p.play_unchecked(moves[(rng.next() % moves.len() as u64) as usize]);
            }
            positions.push(p.clone());
        }
    }
    let legal: Vec<Vec<Move>> = positions.iter().map(Position::legal_moves).collect();
    let total_moves: usize = legal.iter().map(Vec::len).sum();
    println!(
        "{} positions, {:.1} legal moves each on average",
        positions.len(),
        total_moves as f64 / positions.len() as f64
    );

    let rounds = 200;
    let mut buf = Vec::with_capacity(256);
    let t = Instant::now();
    for _ in 0..rounds {
        for p in &positions {
            p.legal_moves_into(&mut buf);
            black_box(&buf);
        }
    }
    report(
        "legal_moves:              ",
        "positions",
        rounds * positions.len(),
        t,
    );

    let mut work = positions.clone();
    let t = Instant::now();
    for _ in 0..rounds {
        for (p, moves) in work.iter_mut().zip(&legal) {
            for &m in moves {
                let undo = p.play_unchecked(m);
                p.unplay(black_box(&undo));
            }
        }
    }
    report(
        "Position play+unplay:     ",
        "pairs",
        rounds * total_moves,
        t,
    );
    assert_eq!(work, positions, "unplay restored every position");

    let mut games: Vec<Game> = positions
        .iter()
        .map(|p| Game::from_position(p.clone(), GameOptions::for_variant(&variant)))
        .collect();
    let rounds = 40;
    let t = Instant::now();
    for _ in 0..rounds {
        for (g, moves) in games.iter_mut().zip(&legal) {
            for &m in moves {
                black_box(g.apply(m).expect("legal"));
                black_box(g.undo().expect("undo"));
            }
        }
    }
    report(
        "Game apply+undo (events): ",
        "pairs",
        rounds * total_moves,
        t,
    );
}
