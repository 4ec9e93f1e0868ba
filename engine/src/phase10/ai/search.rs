//! Michaela: information-set Monte Carlo. At a decision with more than one sensible choice she
//! deals the hidden cards at random, consistently with her view (`SeatView::sample`), plays each
//! of her best few choices forward on the same deals with Petra's policy for every seat, and
//! keeps the choice with the best average outcome. The number of deals and the playout length
//! are fixed, so a decision is deterministic for her seed and bounded in time.

use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;

use super::super::action::{Action, Seat};
use super::super::card::Counts;
use super::super::game::{Game, Stage};
use super::super::view::SeatView;
use super::Player;
use super::heuristic::{Heuristic, phase_distance};

/// Average advantage (in value points) another choice needs over Petra's to be preferred.
const MARGIN: f64 = 6.0;

/// Michaela, the sampling player.
#[derive(Clone, Debug)]
pub struct Sampler {
    rng: ChaCha8Rng,
    /// Hidden-card deals per decision.
    pub samples: usize,
    /// Turns played forward in each playout (the round's end stops it sooner).
    pub horizon: usize,
    /// Discards compared (Petra's best few).
    pub discards: usize,
}

impl Sampler {
    /// A sampler with its own seeded generator and the default budget.
    pub fn new(seed: u64) -> Sampler {
        Sampler {
            rng: ChaCha8Rng::seed_from_u64(seed ^ 0x6d69_6368_6165_6c61),
            samples: 12,
            horizon: 6,
            discards: 3,
        }
    }

    /// The choices worth comparing, Petra's favourite first.
    fn candidates(view: &SeatView, discards: usize) -> Vec<Action> {
        let petra = Heuristic::choose(view);
        let mut out = vec![petra.clone()];
        match view.stage {
            Stage::Knock { card, .. } => {
                out.push(if petra == Action::Pass {
                    Action::Knock(card)
                } else {
                    Action::Pass
                });
            }
            Stage::Draw => {
                for c in &view.choices {
                    if !out.contains(c) {
                        out.push(c.clone());
                    }
                }
            }
            _ => {
                if matches!(petra, Action::Lay { .. } | Action::Hit { .. }) {
                    return out;
                }
                for t in Heuristic::ranked_skips(view) {
                    let a = Action::Skip(t);
                    if !out.contains(&a) {
                        out.push(a);
                    }
                }
                for c in Heuristic::ranked_discards(view).into_iter().take(discards) {
                    let a = Action::Discard(c);
                    if !out.contains(&a) {
                        out.push(a);
                    }
                }
            }
        }
        out.retain(|a| view.choices.is_empty() || view.choices.contains(a));
        out
    }

    /// Plays on with Petra's policy for up to `turns` turn starts.
    fn playout(game: &mut Game, turns: usize) {
        let mut started = 0;
        let mut steps = 0;
        while let Some(seat) = game.to_move() {
            if game.stage() == Stage::Draw {
                started += 1;
                if started > turns {
                    break;
                }
            }
            steps += 1;
            if steps > 400 {
                break;
            }
            let view = game.bare_view(seat);
            let a = Heuristic::choose(&view);
            if game.apply(a).is_err() {
                break;
            }
        }
    }

    /// How good the position is for `me`: laying the phase counts most, then cards still missing,
    /// then points in hand; relative to the other seats' average.
    fn value(game: &Game, me: Seat) -> f64 {
        let n = game.players();
        let score = |s: Seat| -> f64 {
            let hand = game.hand(s);
            let pts = f64::from(game.variant().points.sum(hand));
            if game.laid_phase()[s].is_some() {
                100.0 - 0.4 * pts - 2.0 * hand.len() as f64
            } else {
                let counts = Counts::of(hand);
                let st = &game.standings()[s];
                let missing = game
                    .phases_open(s)
                    .iter()
                    .map(|(_, p)| phase_distance(&counts, &p.groups).0)
                    .min()
                    .unwrap_or(0);
                let _ = st;
                -12.0 * f64::from(missing) - 0.2 * pts
            }
        };
        let mine = score(me);
        let others: f64 = (0..n).filter(|&s| s != me).map(score).sum::<f64>() / (n - 1) as f64;
        mine - others
    }
}

impl Player for Sampler {
    fn decide(&mut self, view: &SeatView) -> Action {
        let candidates = Sampler::candidates(view, self.discards);
        if candidates.len() <= 1 {
            return candidates
                .into_iter()
                .next()
                .or_else(|| view.choices.first().cloned())
                .unwrap_or(Action::DrawStock);
        }
        let mut totals = vec![0.0f64; candidates.len()];
        for _ in 0..self.samples {
            let base = view.sample(&mut self.rng);
            for (i, a) in candidates.iter().enumerate() {
                let mut g = base.clone();
                if g.apply(a.clone()).is_err() {
                    totals[i] = f64::NEG_INFINITY;
                    continue;
                }
                Sampler::playout(&mut g, self.horizon);
                totals[i] += Sampler::value(&g, view.seat);
            }
        }
        // Petra's choice (first) stands unless another is clearly better on the same deals:
        // the playouts are short and noisy, so small differences are not trusted.
        let margin = MARGIN * self.samples as f64;
        let mut best = 0;
        for i in 1..candidates.len() {
            if totals[i] > totals[best] && totals[i] > totals[0] + margin {
                best = i;
            }
        }
        candidates[best].clone()
    }
}
