//! Computer players. Each decides only from a [`SeatView`] (what its seat may know), so no level
//! can peek at hidden cards: the type system enforces the information set. Inside Michaela's
//! playouts Petra decides from a `ViewRef`, the same view borrowed from the played-out game; it
//! too shows only its seat's hand and what is public. All levels are deterministic for their
//! seed.
//!
//! Levels, weakest first as measured (BENCHMARKS.md): `random` (uniform among the legal choices;
//! for testing), `petra` (fixed heuristics), `michaela` (samples the hidden cards consistently with
//! her view and compares Petra's best few choices by playing each to the end of the round).
//!
//! Michaela's own seat plays her playouts with a learned discard order: [`DiscardModel`]
//! reorders Petra's best few discards by a forest of regression trees ([`trees`]) fitted to what
//! her playouts said about them (the engine examples `p10_distill` and `p10_fit`; the forests are
//! `engine/data/michaela-discards.forest` heads-up and `michaela-discards-seats.forest` with three
//! seats or more; BENCHMARKS.md, "A discard order learned from her playouts" and "Her discard
//! order with more seats"). `Sampler::model` and `Sampler::own` set it; `Modelled` is Petra with
//! it, for measuring. Petra's decisions do not use it.

mod heuristic;
mod learned;
mod search;
pub mod trees;

use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;

pub use heuristic::{FEATURES, Heuristic, Style, Styled, phase_distance};
pub use learned::{DiscardModel, INPUTS, Modelled};
pub use search::{Estimate, Sampler};

use super::action::Action;
use super::view::SeatView;

/// A computer player.
pub trait Player {
    /// One of `view.choices`.
    fn decide(&mut self, view: &SeatView) -> Action;
}

/// The level names, weakest first.
pub const LEVELS: [&str; 3] = ["random", "petra", "michaela"];

/// The strongest level as measured (the default).
pub const STRONGEST: &str = "michaela";

/// A player of the named level, seeded; `None` for an unknown name.
pub fn player(level: &str, seed: u64) -> Option<Box<dyn Player + Send>> {
    match level.to_ascii_lowercase().as_str() {
        "random" => Some(Box::new(RandomPlayer::new(seed))),
        "petra" => Some(Box::new(Heuristic)),
        "michaela" => Some(Box::new(Sampler::new(seed))),
        _ => None,
    }
}

/// Each choice uniformly among the legal ones.
#[derive(Clone, Debug)]
pub struct RandomPlayer {
    rng: ChaCha8Rng,
}

impl RandomPlayer {
    /// A random player with its own seeded generator.
    pub fn new(seed: u64) -> RandomPlayer {
        RandomPlayer {
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }
}

impl Player for RandomPlayer {
    fn decide(&mut self, view: &SeatView) -> Action {
        let n = view.choices.len().max(1) as u32;
        let i = super::game::below(&mut self.rng, n) as usize;
        view.choices.get(i).cloned().unwrap_or(Action::DrawStock)
    }
}
