//! Michaela: information-set Monte Carlo over whole rounds. At a decision with more than one
//! sensible choice she deals the hidden cards at random, consistently with her view, plays each
//! of Petra's best few choices on the same deals (common random numbers: the choices differ, the
//! luck does not) and lets every seat play Petra's policy to the end of the round. Her deals can
//! lean on what the other seats were seen doing (`shun`, `SeatView::sample_by`: a card like one a
//! seat let go this round dealt to it less often), but that did not measure better over long runs
//! (BENCHMARKS.md), so by default every hidden card is dealt alike. A round is scored as the game
//! scores it: laying the phase (moving on) counts most, then the points taken, relative to the
//! other seats; finishing the game counts more still. Another choice replaces Petra's only when it wins on these deals by more than 1.5
//! standard errors (picking the best of noisy averages would often pick a worse choice). The
//! budget is counted in playout decisions, not in time, so a decision is deterministic for her
//! seed, and bounded: heads-up 4 to 256 deals, stopping once the playouts have made 20,000
//! decisions (three quarters of both with more seats). Strength grows with that budget (four
//! times the earlier 5000 won 59.2% of 1560 heads-up games against Petra instead of 55.8%), so
//! it is as large as the time target allows; Petra's code is written to be fast for it.

use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;

use super::super::action::{Action, Event, Seat};
use super::super::card::{Card, MAX_VALUE};
use super::super::game::{Game, Stage};
use super::super::group::Need;
use super::super::view::SeatView;
use super::Player;
use super::heuristic::Heuristic;

/// What laying the phase in a round is worth, in points. Phases decide the game and points only
/// break ties, so a lay outweighs any round's points (600 measured a little better than 150).
const LAID: f64 = 600.0;
/// What finishing the game first is worth, in points.
const WON: f64 = 1000.0;
/// Decisions after which a playout is cut off (no Petra round comes near).
const MAX_STEPS: usize = 1500;
/// Fewest deals per decision, however long the playouts.
const MIN_DEALS: usize = 4;

/// Michaela, the sampling player.
#[derive(Clone, Debug)]
pub struct Sampler {
    rng: ChaCha8Rng,
    /// Most deals per decision heads-up (each choice is played out on each deal); three
    /// quarters of it with more seats (see [`Sampler::budget`]).
    pub deals: usize,
    /// Playout decisions per decision heads-up, all choices together: deals stop once they are
    /// spent; three quarters of it with more seats.
    pub steps: usize,
    /// Discards compared (Petra's best few: four measured a little better than two or three at
    /// the present budget, BENCHMARKS.md).
    pub discards: usize,
    /// Standard errors by which another choice must beat Petra's.
    pub confidence: f64,
    /// How likely a card is dealt to another seat's hand when that seat was seen letting go of a
    /// card like it this round (same value; same colour while its phase is a colour group), as a
    /// fraction of an ordinary card's chance; 1 samples all hidden cards alike.
    pub shun: f64,
    /// The most seats at which `shun` is used (in short runs it looked better heads-up and
    /// worse with four players; over 2000 heads-up games it was not better either).
    pub shun_seats: usize,
    /// What laying the phase in a round is worth, in points (`LAID` by default).
    pub laid: f64,
    /// How much less an opponent counts in the value of a round for each phase it is behind
    /// this seat (1: all opponents alike; below 1, the seats that can still win count most).
    pub behind: f64,
    /// How likely a deal is kept when a seat's dealt hand does not explain what it did in its
    /// latest turn the way Petra would have (1 keeps every deal).
    pub fit: f64,
    /// Deals tried at most for one kept deal when `fit` is below 1.
    pub fit_tries: usize,
    /// Whether `fit` also asks that a card a seat passed by in its latest turn would not have
    /// brought its dealt hand closer to its phase.
    pub fit_draw: bool,
    /// The table as her latest turn began (her draw), for `fit`: what the seat before her saw
    /// when it discarded.
    turn_start: Option<SeatView>,
    /// A reused view for the playouts' decisions.
    scratch: Option<SeatView>,
}

impl Sampler {
    /// A sampler with its own seeded generator and the default budget.
    pub fn new(seed: u64) -> Sampler {
        Sampler {
            rng: ChaCha8Rng::seed_from_u64(seed ^ 0x6d69_6368_6165_6c61),
            deals: 256,
            steps: 20000,
            discards: 4,
            confidence: 1.5,
            shun: 1.0,
            shun_seats: 2,
            behind: 1.0,
            laid: LAID,
            fit: 1.0,
            fit_tries: 8,
            fit_draw: false,
            turn_start: None,
            scratch: None,
        }
    }

    /// Most deals and playout decisions per decision with `players` seats. With more than two
    /// a playout decision costs more (more hands to deal and copy), so the budget is three
    /// quarters of the heads-up one, which keeps a decision within the same time
    /// (BENCHMARKS.md, "Speed and memory per decision").
    pub fn budget(&self, players: usize) -> (usize, usize) {
        if players > 2 {
            (self.deals * 3 / 4, self.steps * 3 / 4)
        } else {
            (self.deals, self.steps)
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
                // A joker is always worth taking.
                if !matches!(petra, Action::DrawDiscard(c) if c.is_wild()) {
                    out.push(if petra == Action::DrawStock {
                        match view.discard.last() {
                            Some(&c) if !c.is_skip() => Action::DrawDiscard(c),
                            _ => Action::DrawStock,
                        }
                    } else {
                        Action::DrawStock
                    });
                }
            }
            _ => {
                if matches!(petra, Action::Lay { .. } | Action::Hit { .. }) {
                    return out;
                }
                if view.hand.contains(&Card::SKIP) {
                    for t in Heuristic::ranked_skips(view).into_iter().take(2) {
                        out.push(Action::Skip(t));
                    }
                }
                for c in Heuristic::ranked_discards(view).into_iter().take(discards) {
                    out.push(Action::Discard(c));
                }
            }
        }
        let mut seen = Vec::with_capacity(out.len());
        out.retain(|a| {
            let fresh = !seen.contains(a) && (view.choices.is_empty() || view.choices.contains(a));
            if fresh {
                seen.push(a.clone());
            }
            fresh
        });
        out
    }

    /// How likely `card` is dealt into seat `s`'s hand, relative to other cards (see `shun`): a
    /// seat that has not laid yet lets go of cards its phase does not need (Petra takes the
    /// discard whenever it brings her phase closer), so cards like those it let go are rarer in
    /// its hand: of the same value, or of the same colour while it collects one colour only.
    fn accept(view: &SeatView, shun: f64, s: Seat, card: Card) -> f64 {
        if view.laid_phase[s].is_some() {
            return 1.0;
        }
        let let_go = &view.shunned[s];
        let (Some(value), Some(colour)) = (card.value(), card.colour()) else {
            return 1.0;
        };
        if let_go.is_empty() {
            return 1.0;
        }
        let st = &view.standings[s];
        let mut colours_only = true;
        for (i, p) in view.variant.phases.iter().enumerate() {
            let open = if view.variant.any_order {
                st.remaining & (1 << i) != 0
            } else {
                i == st.next_phase
            };
            if open && p.groups.iter().any(|n| !matches!(n, Need::Colour(_))) {
                colours_only = false;
            }
        }
        let alike = if colours_only {
            (1..=MAX_VALUE)
                .filter_map(|v| Card::number(colour, v))
                .any(|c| let_go.get(c) > 0)
        } else {
            let_go.of_value(value) > 0
        };
        if alike { shun } else { 1.0 }
    }

    /// Plays on with Petra's policy for every seat to the end of the round.
    /// Returns the decisions played.
    /// `events` is a reused list for what each decision did (nobody reads it).
    fn playout(game: &mut Game, view: &mut SeatView, events: &mut Vec<Event>) -> usize {
        for step in 0..MAX_STEPS {
            let Some(seat) = game.to_move() else {
                return step;
            };
            game.bare_view_into(seat, view);
            let a = Heuristic::choose(view);
            if game.apply_into(a, events).is_err() {
                // Never expected from Petra; any legal choice keeps the playout going.
                let Some(a) = game.choices().into_iter().next() else {
                    return step;
                };
                if game.apply_into(a, events).is_err() {
                    return step;
                }
            }
        }
        MAX_STEPS
    }

    /// How the round went for `me`, from the standings before it (`before`): each seat scores
    /// `LAID` for laying its phase minus the points it took; `me` against the others' mean.
    fn value(game: &Game, me: Seat, before: &SeatView, behind: f64, laid: f64) -> f64 {
        let n = game.players();
        let over = game.stage() == Stage::Over;
        let score = |s: Seat| -> f64 {
            let taken = if matches!(game.stage(), Stage::RoundOver | Stage::Over) {
                game.standings()[s]
                    .points
                    .saturating_sub(before.standings[s].points)
            } else {
                game.variant().points.sum(game.hand(s))
            };
            let mut v = -f64::from(taken);
            if game.laid_phase()[s].is_some() {
                v += laid;
            }
            if over && game.winners().contains(&s) {
                v += WON;
            }
            v
        };
        let mine = before.standings[me].phases_laid;
        let (mut sum, mut weights) = (0.0, 0.0);
        for s in (0..n).filter(|&s| s != me) {
            let gap = mine.saturating_sub(before.standings[s].phases_laid);
            let w = behind.powi(gap.min(10) as i32);
            sum += w * score(s);
            weights += w;
        }
        score(me) - sum / weights.max(1e-9)
    }
}

impl Player for Sampler {
    fn decide(&mut self, view: &SeatView) -> Action {
        self.remember_turn_start(view);
        let (shun, seats) = (self.shun, self.shun_seats);
        let (fit, tries, fit_draw) = (self.fit, self.fit_tries.max(1), self.fit_draw);
        let start = self.turn_start.take();
        let mut other: Option<SeatView> = None;
        let action = self.decide_dealt(view, &mut |rng| {
            let deal = |rng: &mut ChaCha8Rng| {
                if shun < 1.0 && view.players <= seats {
                    view.sample_by(rng, &|s, c| Sampler::accept(view, shun, s, c))
                } else {
                    view.sample(rng)
                }
            };
            if fit >= 1.0 {
                return deal(rng);
            }
            let other = other.get_or_insert_with(|| view.clone());
            let mut game = deal(rng);
            for _ in 1..tries {
                let fits = Sampler::fits(&game, view, start.as_ref(), other, fit_draw);
                if fits || f64::from(super::super::game::below(rng, 1 << 16)) < fit * 65536.0 {
                    break;
                }
                game = deal(rng);
            }
            game
        });
        self.turn_start = start;
        action
    }
}

impl Sampler {
    /// Keeps her view at her draw: the table as the seat before her left it.
    fn remember_turn_start(&mut self, view: &SeatView) {
        if view.stage == Stage::Draw {
            match &mut self.turn_start {
                Some(start) => start.clone_from(view),
                None => self.turn_start = Some(view.clone()),
            }
        }
    }

    /// [`Sampler::fits`] with the table as her latest turn began, as `decide` tests her deals.
    pub fn fits_now(&self, game: &Game, view: &SeatView, draw: bool) -> bool {
        let mut other = view.clone();
        Sampler::fits(game, view, self.turn_start.as_ref(), &mut other, draw)
    }

    /// Whether every other seat's dealt hand in `game` explains its latest turn as Petra would
    /// have played it: the card it discarded is the one she would discard from that hand with
    /// the card back in it (and, with `draw`, the card it passed by would not have brought the
    /// hand closer to its phase). When her turn began with that seat's discard on top of the
    /// pile (`start`, her view at her draw), the table is put back as it was then, which is
    /// what that seat saw when it chose; other seats are tested at today's table.
    pub fn fits(
        game: &Game,
        view: &SeatView,
        start: Option<&SeatView>,
        other: &mut SeatView,
        draw: bool,
    ) -> bool {
        let me = view.seat;
        let start =
            start.filter(|s| view.stage == Stage::Play && s.round == view.round && s.seat == me);
        for o in (0..view.players).filter(|&o| o != me) {
            let recent = view.recent[o];
            if let Some(d) = recent.discarded.filter(|d| !d.is_skip()) {
                game.bare_view_into(o, other);
                if let Some(s) = start.filter(|s| s.discard.last() == Some(&d)) {
                    other.laid.clone_from(&s.laid);
                    other.laid_phase.clone_from(&s.laid_phase);
                    other.known.clone_from(&s.known);
                    other.discard.clone_from(&s.discard);
                    other.hand_sizes.clone_from(&s.hand_sizes);
                    other.skips.clone_from(&s.skips);
                }
                other.hand.push(d);
                other.hand.sort_unstable();
                other.hand_sizes[o] = other.hand.len();
                if other.discard.last() == Some(&d) {
                    other.discard.pop();
                }
                other.stage = Stage::Play;
                if Heuristic::choose(other) != Action::Discard(d) {
                    return false;
                }
            }
            if draw && let Some(t) = recent.passed {
                game.bare_view_into(o, other);
                other.stage = Stage::Draw;
                if Heuristic::wants(other, t) {
                    return false;
                }
            }
        }
        true
    }
}

impl Sampler {
    /// Michaela's decision with the hidden cards dealt by `deal` (her own play deals them at
    /// random, consistently with `view`; a test harness may deal them otherwise to measure what
    /// knowing them would be worth).
    pub fn decide_with(
        &mut self,
        view: &SeatView,
        deal: &mut dyn FnMut(&mut ChaCha8Rng) -> Game,
    ) -> Action {
        self.remember_turn_start(view);
        self.decide_dealt(view, deal)
    }

    /// [`Sampler::decide_with`] once her turn's start is remembered (`decide` remembers it
    /// before it builds its dealer, which reads it).
    fn decide_dealt(
        &mut self,
        view: &SeatView,
        deal: &mut dyn FnMut(&mut ChaCha8Rng) -> Game,
    ) -> Action {
        let candidates = Sampler::candidates(view, self.discards);
        if candidates.len() <= 1 {
            return candidates
                .into_iter()
                .next()
                .or_else(|| view.choices.first().cloned())
                .unwrap_or(Action::DrawStock);
        }
        // Deals go on until the playouts have made the budget's decisions in all (so a decision
        // early in a long round gets fewer deals than one near its end), within `MIN_DEALS` and
        // the budget's most deals.
        let mut scratch = self.scratch.take().unwrap_or_else(|| view.clone());
        // Per deal, each choice's value minus Petra's choice's (first) on the same deal.
        let mut sum = vec![0.0f64; candidates.len()];
        let mut sum_sq = vec![0.0f64; candidates.len()];
        let mut values = vec![0.0f64; candidates.len()];
        let (mut deals, mut steps) = (0usize, 0usize);
        // The game each choice is played out in, reused from deal to deal.
        let mut played: Option<Game> = None;
        let mut events = Vec::new();
        let (most_deals, budget) = self.budget(view.players);
        while deals < most_deals && (deals < MIN_DEALS || steps < budget) {
            deals += 1;
            let base = deal(&mut self.rng);
            for (i, a) in candidates.iter().enumerate() {
                let game = played.get_or_insert_with(|| base.clone());
                game.clone_from(&base);
                values[i] = if game.apply_into(a.clone(), &mut events).is_err() {
                    -1e9
                } else {
                    steps += Sampler::playout(game, &mut scratch, &mut events);
                    Sampler::value(game, view.seat, view, self.behind, self.laid)
                };
            }
            for i in 1..candidates.len() {
                let d = values[i] - values[0];
                sum[i] += d;
                sum_sq[i] += d * d;
            }
        }
        self.scratch = Some(scratch);
        // Another choice replaces Petra's only when it is better on these deals by more than
        // `self.confidence` standard errors: a round's outcome is noisy, and picking the best of
        // noisy estimates would often pick a worse choice.
        let k = deals as f64;
        let mut best = 0;
        let mut best_mean = 0.0;
        for i in 1..candidates.len() {
            let mean = sum[i] / k;
            let var = (sum_sq[i] / k - mean * mean).max(0.0);
            let se = (var / (k - 1.0).max(1.0)).sqrt();
            if mean > best_mean && mean > self.confidence * se + 1.0 {
                best = i;
                best_mean = mean;
            }
        }
        candidates[best].clone()
    }
}
