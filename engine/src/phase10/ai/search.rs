//! Michaela: information-set Monte Carlo over whole rounds. At a decision with more than one
//! sensible choice she deals the hidden cards at random, consistently with her view, plays each of
//! Petra's best few choices on the same deals (common random numbers: the choices differ, the luck
//! does not; at a discard her first choice is her learned order's, see below) and plays the round
//! to its end: the other seats with Petra's policy, her own seat with Petra's policy whose discard
//! is picked by her learned discard order ([`DiscardModel::michaela`], a forest fitted to what her
//! playouts said of Petra's best discards; another, fitted on four-seat games, with three seats or
//! more), so that she compares each choice as she will go on playing. Her deals can lean on what
//! the other seats were seen doing (`shun`, `SeatView::sample_by`: a card like one a seat let go
//! this round dealt to it less often), but that did not measure better over long runs
//! (BENCHMARKS.md), so by default every hidden card is dealt alike. A round is scored as the game
//! scores it: laying the phase (moving on) counts most, then the points taken, relative to the
//! other seats; finishing the game counts more still. Another choice replaces her first choice only
//! when it wins on these deals by more than 1.5 standard errors (picking the best of noisy averages
//! would often pick a worse choice). The budget is counted in playout decisions, not in time, so a
//! decision is deterministic for her seed, and bounded: heads-up 4 to 192 deals, stopping once the
//! playouts have made 15,000 decisions (three quarters of both with more seats). Strength grows
//! with that budget up to about 20,000 without her discard order, and the order makes each playout
//! decision cost more; with it, 15,000 won more games than 20,000 without (BENCHMARKS.md), in about
//! 1.25 times the time. Petra's code is written to be fast for it.

use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;

use super::super::action::{Action, Event, Seat};
use super::super::card::{Card, Counts, MAX_VALUE};
use super::super::game::{Game, GameError, Stage, below, shuffle};
use super::super::group::Need;
use super::super::view::SeatView;
use super::Player;
use super::heuristic::{Heuristic, Style};
use super::learned::DiscardModel;
use std::sync::Arc;

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
    /// the budget of 20,000 without her discard order, BENCHMARKS.md).
    pub discards: usize,
    /// Standard errors by which another choice must beat her first choice (Petra's, or at a
    /// discard her discard order's).
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
    /// Whether each seat draws from the stock in an order of its own in her playouts
    /// (`Streams`), so that a choice which changes who draws next does not hand every later
    /// stock card to another seat. Her comparisons are then as precise as with two to three
    /// times the deals, and she won no more with it (BENCHMARKS.md), so it is off.
    pub streams: bool,
    /// The table as her latest turn began (her draw), for `fit`: what the seat before her saw
    /// when it discarded.
    turn_start: Option<SeatView>,
    /// A discard order learned from her playouts ([`DiscardModel`]; by default
    /// [`DiscardModel::michaela`]): her first choice at a discard, and her own seat's first
    /// `own` turns in each of her playouts.
    pub model: Option<Arc<DiscardModel>>,
    /// How many of her own seat's turns (after the draw) in each playout use `model` (by
    /// default all: she compares her choices as she will go on playing).
    pub own: usize,
}

impl Sampler {
    /// A sampler with its own seeded generator, the default budget and her discard order.
    pub fn new(seed: u64) -> Sampler {
        Sampler {
            rng: ChaCha8Rng::seed_from_u64(seed ^ 0x6d69_6368_6165_6c61),
            deals: 192,
            steps: 15000,
            discards: 4,
            confidence: 1.5,
            shun: 1.0,
            shun_seats: 2,
            behind: 1.0,
            laid: LAID,
            fit: 1.0,
            fit_tries: 8,
            fit_draw: false,
            streams: false,
            turn_start: None,
            model: Some(DiscardModel::michaela()),
            own: usize::MAX,
        }
    }

    /// Most deals and playout decisions per decision with `players` seats. With more than two
    /// a playout decision costs more (more hands to deal and more seats to weigh), so the
    /// budget is three quarters of the heads-up one, which keeps a decision within the same
    /// time (BENCHMARKS.md, "Speed and memory per decision").
    pub fn budget(&self, players: usize) -> (usize, usize) {
        if players > 2 {
            (self.deals * 3 / 4, self.steps * 3 / 4)
        } else {
            (self.deals, self.steps)
        }
    }

    /// The choices worth comparing, her first choice first (Petra's, with the discard picked by
    /// `model` when there is one), then Petra's other best few.
    fn candidates(view: &SeatView, discards: usize, model: Option<&DiscardModel>) -> Vec<Action> {
        let borrowed = view.view_ref();
        let petra = Heuristic::choose_with(&borrowed, &Style::PETRA, model);
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
                    for t in Heuristic::ranked_skips(&borrowed).into_iter().take(2) {
                        out.push(Action::Skip(t));
                    }
                }
                for c in Heuristic::ranked_discards(&borrowed)
                    .into_iter()
                    .take(discards)
                {
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

    /// Plays on with Petra's policy for every seat to the end of the round, each seat deciding
    /// from its own view of the game ([`Game::view_ref`]); with `own` (seat, model, turns), that
    /// seat's first turns discard by the model. Returns the decisions played.
    /// `events` is a reused list for what each decision did (nobody reads it).
    fn playout(
        game: &mut Game,
        events: &mut Vec<Event>,
        streams: &mut Streams,
        mut own: Option<(Seat, &DiscardModel, usize)>,
    ) -> usize {
        for step in 0..MAX_STEPS {
            let Some(seat) = game.to_move() else {
                return step;
            };
            let a = match &mut own {
                Some((me, model, left))
                    if *me == seat
                        && *left > 0
                        && !matches!(game.stage(), Stage::Draw | Stage::Knock { .. }) =>
                {
                    *left -= 1;
                    Heuristic::choose_with(&game.view_ref(seat), &Style::PETRA, Some(*model))
                }
                _ => Heuristic::choose(&game.view_ref(seat)),
            };
            if streams.apply(game, a, events).is_err() {
                // Never expected from Petra; any legal choice keeps the playout going.
                let Some(a) = game.choices().into_iter().next() else {
                    return step;
                };
                if streams.apply(game, a, events).is_err() {
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

/// How her decision deals the hidden cards: into the game given (a deal of her view, or `None`
/// the first time; reusing its lists spares a dozen allocations a deal).
type Deal<'a> = dyn FnMut(&mut ChaCha8Rng, &mut Option<Game>) + 'a;

impl Player for Sampler {
    fn decide(&mut self, view: &SeatView) -> Action {
        self.remember_turn_start(view);
        let (shun, seats) = (self.shun, self.shun_seats);
        let (fit, tries, fit_draw) = (self.fit, self.fit_tries.max(1), self.fit_draw);
        let start = self.turn_start.take();
        let mut other: Option<SeatView> = None;
        // The same for every deal of this decision.
        let unseen = view.unseen().cards();
        let leaning = shun < 1.0 && view.players <= seats;
        let action = self.decide_dealt(view, &mut |rng, into| {
            let deal = |rng: &mut ChaCha8Rng, into: &mut Option<Game>| {
                let accept = |s, c| {
                    if leaning {
                        Sampler::accept(view, shun, s, c)
                    } else {
                        1.0
                    }
                };
                match into {
                    Some(game) => view.sample_into(&unseen, rng, &accept, game),
                    None => *into = Some(view.sample_from(&unseen, rng, &accept)),
                }
            };
            deal(rng, into);
            if fit >= 1.0 {
                return;
            }
            let other = other.get_or_insert_with(|| view.clone());
            for _ in 1..tries {
                let game = into.as_ref().expect("dealt");
                let fits = Sampler::fits(game, view, start.as_ref(), other, fit_draw);
                if fits || f64::from(super::super::game::below(rng, 1 << 16)) < fit * 65536.0 {
                    break;
                }
                deal(rng, into);
            }
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
                if Heuristic::choose(&other.view_ref()) != Action::Discard(d) {
                    return false;
                }
            }
            if draw && let Some(t) = recent.passed {
                game.bare_view_into(o, other);
                other.stage = Stage::Draw;
                if Heuristic::wants(&other.view_ref(), t) {
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
        self.decide_dealt(view, &mut |rng, into| *into = Some(deal(rng)))
    }

    /// [`Sampler::decide_with`] once her turn's start is remembered (`decide` remembers it
    /// before it builds its dealer, which reads it).
    fn decide_dealt(&mut self, view: &SeatView, deal: &mut Deal<'_>) -> Action {
        let candidates = Sampler::candidates(view, self.discards, self.model.as_deref());
        if candidates.len() <= 1 {
            return candidates
                .into_iter()
                .next()
                .or_else(|| view.choices.first().cloned())
                .unwrap_or(Action::DrawStock);
        }
        let estimates = self.estimate(view, &candidates, deal);
        candidates[self.pick(&estimates)].clone()
    }

    /// Which of the compared choices she takes, by their estimates against the first (her first
    /// choice). Another choice replaces it only when it is better on these deals by more than
    /// `self.confidence` standard errors: a round's outcome is noisy, and picking the best of
    /// noisy estimates would often pick a worse choice.
    pub fn pick(&self, estimates: &[Estimate]) -> usize {
        let mut best = 0;
        let mut best_mean = 0.0;
        for (i, e) in estimates.iter().enumerate().skip(1) {
            if e.mean > best_mean && e.mean > self.confidence * e.standard_error() + 1.0 {
                best = i;
                best_mean = e.mean;
            }
        }
        best
    }

    /// Her comparison at a decision, for measuring: each of the choices she compares (Petra's
    /// first) with its estimate against Petra's, on deals made at random from `view` as her own
    /// play makes them. Empty when there is nothing to compare.
    pub fn compare(&mut self, view: &SeatView) -> Vec<(Action, Estimate)> {
        self.compare_with(view, &mut |rng| view.sample(rng))
    }

    /// [`Sampler::compare`] with the hidden cards dealt by `deal` (as in
    /// [`Sampler::decide_with`]: a harness may deal the real hands, to take samples of what
    /// her choices are worth where the hands are as the table's history made them).
    pub fn compare_with(
        &mut self,
        view: &SeatView,
        deal: &mut dyn FnMut(&mut ChaCha8Rng) -> Game,
    ) -> Vec<(Action, Estimate)> {
        let candidates = Sampler::candidates(view, self.discards, self.model.as_deref());
        if candidates.len() <= 1 {
            return Vec::new();
        }
        let estimates = self.estimate(view, &candidates, &mut |rng, into| {
            *into = Some(deal(rng));
        });
        candidates.into_iter().zip(estimates).collect()
    }

    /// Plays every candidate out on the same deals and estimates each one's value minus the
    /// first's (her first choice) per deal. Deals go on until the playouts have made the budget's
    /// decisions in all (so a decision early in a long round gets fewer deals than one near its
    /// end), within `MIN_DEALS` and the budget's most deals.
    fn estimate(
        &mut self,
        view: &SeatView,
        candidates: &[Action],
        deal: &mut Deal<'_>,
    ) -> Vec<Estimate> {
        // Per deal, each choice's value minus her first choice's on the same deal.
        let mut sum = vec![0.0f64; candidates.len()];
        let mut sum_sq = vec![0.0f64; candidates.len()];
        let mut values = vec![0.0f64; candidates.len()];
        let (mut deals, mut steps) = (0usize, 0usize);
        // The game each choice is played out in, reused from deal to deal.
        let mut played: Option<Game> = None;
        // The deal of the moment, reused from deal to deal.
        let mut dealt: Option<Game> = None;
        let mut events = Vec::new();
        let mut streams = Streams::default();
        let (most_deals, budget) = self.budget(view.players);
        // Her own seat's first turns in each playout by her model, if she has one.
        let own = self
            .model
            .as_deref()
            .filter(|_| self.own > 0)
            .map(|m| (view.seat, m, self.own));
        while deals < most_deals && (deals < MIN_DEALS || steps < budget) {
            deals += 1;
            deal(&mut self.rng, &mut dealt);
            let base = dealt.as_mut().expect("a deal");
            base.set_quiet(true);
            streams.deal(&base.stock, base.players, self.streams, &mut self.rng);
            for (i, a) in candidates.iter().enumerate() {
                let game = played.get_or_insert_with(|| base.clone());
                game.clone_from(base);
                streams.restart();
                values[i] = if streams.apply(game, a.clone(), &mut events).is_err() {
                    -1e9
                } else {
                    steps += Sampler::playout(game, &mut events, &mut streams, own);
                    Sampler::value(game, view.seat, view, self.behind, self.laid)
                };
            }
            for i in 1..candidates.len() {
                let d = values[i] - values[0];
                sum[i] += d;
                sum_sq[i] += d * d;
            }
        }
        let k = deals as f64;
        (0..candidates.len())
            .map(|i| {
                let mean = sum[i] / k;
                Estimate {
                    deals,
                    mean,
                    variance: (sum_sq[i] / k - mean * mean).max(0.0),
                }
            })
            .collect()
    }
}

/// A choice's value minus her first choice's value, over the deals of one decision.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    /// Deals played.
    pub deals: usize,
    /// The mean difference per deal (points; laying the phase is worth `Sampler::laid`).
    pub mean: f64,
    /// The variance of the difference per deal.
    pub variance: f64,
}

impl Estimate {
    /// The standard deviation of the difference per deal.
    pub fn deviation(&self) -> f64 {
        self.variance.sqrt()
    }

    /// The standard error of the mean.
    pub fn standard_error(&self) -> f64 {
        (self.variance / (self.deals as f64 - 1.0).max(1.0)).sqrt()
    }
}

/// The stock in an order of its own for each seat, for one deal's playouts. Every choice she
/// compares is played out on the same deal (common random numbers), but one stock shared by all
/// seats ties the luck of each seat to the order of the draws: a discard the next seat takes up
/// instead of drawing from the stock hands every later stock card to another seat than the
/// other choices do, and the rest of the round is luck that no longer matches. Here each seat
/// draws the stock's cards in its own random order, skipping those another seat has drawn, so
/// a seat draws the same cards in every choice's playout as far as the others leave them.
///
/// Each draw is still a card of the stock at random: a seat's order is a random permutation, so
/// the first of its cards still in the stock is equally likely any of them. Equal cards are
/// told apart only by count; when another seat has drawn some of a card's copies, which of the
/// seat's own copies they were is decided by a number drawn with its order (a copy is still in
/// the stock with the chance `copies in the stock / copies not yet passed`, rounded up to a
/// multiple of 2^-16), so the draw stays a uniform one, to within 2^-16. After a reshuffle
/// (rare in a playout) the stock is drawn in its own order again.
#[derive(Clone, Debug, Default)]
struct Streams {
    /// Per seat: the deal's stock in that seat's order, each card with a number below 2^16.
    order: Vec<Vec<(Card, u32)>>,
    /// The deal's stock.
    dealt: Counts,
    /// Per seat: the next place in its order.
    next: Vec<usize>,
    /// Per seat: its order's cards not passed yet.
    ahead: Vec<Counts>,
    /// The stock now.
    stock: Counts,
    /// Asked for.
    on: bool,
    /// Off for this playout (not asked for, or after a reshuffle).
    off: bool,
    /// A reused list for shuffling.
    cards: Vec<Card>,
}

impl Streams {
    /// Each of `players` seats' order of a deal's `stock`, drawn with `rng`; `on` false leaves
    /// the stock as dealt.
    fn deal(&mut self, stock: &[Card], players: usize, on: bool, rng: &mut ChaCha8Rng) {
        self.on = on;
        if !on {
            return;
        }
        self.dealt = Counts::of(stock);
        self.order.resize_with(players, Vec::new);
        for order in &mut self.order {
            self.cards.clear();
            self.cards.extend_from_slice(stock);
            shuffle(rng, &mut self.cards);
            order.clear();
            order.extend(self.cards.iter().map(|&c| (c, 0)));
            for e in order.iter_mut() {
                e.1 = below(rng, 1 << 16);
            }
        }
    }

    /// Back to the deal, for the next choice's playout.
    fn restart(&mut self) {
        self.off = !self.on;
        if self.off {
            return;
        }
        let n = self.order.len();
        self.next.clear();
        self.next.resize(n, 0);
        self.ahead.clear();
        self.ahead.resize(n, self.dealt);
        self.stock = self.dealt;
    }

    /// Applies `action` to `game`; a draw from the stock takes the drawing seat's next card.
    fn apply(
        &mut self,
        game: &mut Game,
        action: Action,
        events: &mut Vec<Event>,
    ) -> Result<(), GameError> {
        if !self.off && action == Action::DrawStock && game.stage() == Stage::Draw {
            if game.stock.is_empty() {
                // The engine reshuffles the discard pile; its new order is drawn as it lies.
                self.off = true;
            } else if let Some(card) = self.next_card(game.turn) {
                game.force_stock_top(card)?;
            }
        }
        game.apply_into(action, events)?;
        if !self.off
            && let Some(Event::DrewStock { card, .. }) = events.last()
        {
            self.stock.remove(*card);
        }
        Ok(())
    }

    /// The first card of `seat`'s order still in the stock, passing the rest.
    fn next_card(&mut self, seat: Seat) -> Option<Card> {
        let order = self.order.get(seat)?;
        while let Some(&(card, u)) = order.get(self.next[seat]) {
            self.next[seat] += 1;
            let ahead = u32::from(self.ahead[seat].get(card));
            self.ahead[seat].remove(card);
            let left = u32::from(self.stock.get(card));
            if left > 0 && (left >= ahead || u * ahead < left << 16) {
                return Some(card);
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn card(text: &str) -> Card {
        text.parse().expect("a card")
    }

    /// Each seat's draw is a card of the stock at random, also when another seat drew before it
    /// and equal cards are involved: the joint frequencies of two seats' draws from a small
    /// stock match the uniform ones. (Taking simply the first card of a seat's order that is
    /// still in the stock would give seat 0 the second `r1` after seat 1 drew the first one
    /// half the time, not a third of it.)
    #[test]
    fn each_seat_draws_uniformly_from_what_is_left() {
        let stock = [card("r1"), card("r1"), card("b2"), card("g3")];
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let mut streams = Streams::default();
        let mut seen = std::collections::HashMap::new();
        let trials = 60_000;
        for _ in 0..trials {
            streams.deal(&stock, 2, true, &mut rng);
            streams.restart();
            let mut drawn = Vec::new();
            for seat in [1, 0, 0] {
                let c = streams.next_card(seat).expect("a card is left");
                streams.stock.remove(c);
                drawn.push(c.to_string());
            }
            *seen.entry(drawn.join(" ")).or_insert(0u32) += 1;
        }
        // Physical cards r1 r1' b2 g3: every order of three of them is equally likely.
        let expected = [
            ("r1 r1 b2", 2.0 / 24.0),
            ("r1 r1 g3", 2.0 / 24.0),
            ("r1 b2 r1", 2.0 / 24.0),
            ("r1 b2 g3", 2.0 / 24.0),
            ("r1 g3 r1", 2.0 / 24.0),
            ("r1 g3 b2", 2.0 / 24.0),
            ("b2 r1 r1", 2.0 / 24.0),
            ("b2 r1 g3", 2.0 / 24.0),
            ("b2 g3 r1", 2.0 / 24.0),
            ("g3 r1 r1", 2.0 / 24.0),
            ("g3 r1 b2", 2.0 / 24.0),
            ("g3 b2 r1", 2.0 / 24.0),
        ];
        assert_eq!(seen.len(), expected.len(), "{seen:?}");
        for (draws, p) in expected {
            let got = f64::from(seen.get(draws).copied().unwrap_or(0)) / f64::from(trials);
            let se = (p * (1.0 - p) / f64::from(trials)).sqrt();
            assert!((got - p).abs() < 4.0 * se, "{draws}: {got} against {p}");
        }
    }

    /// In real playouts (Petra for both seats, from games at their start): the counts kept for
    /// the stock always match the game's stock, every draw goes through the seat's order, and
    /// a seat draws the same stock card next whether the other seat took the discard pile's top
    /// card or drew from the stock before it (unless that draw took the card, or one like it).
    #[test]
    fn a_seat_draws_the_same_card_whichever_way_the_other_seat_drew() {
        let variant = super::super::super::variant::by_id("pro-spider-10")
            .expect("known")
            .clone();
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let mut streams = Streams::default();
        let mut events = Vec::new();
        let (mut same, mut compared) = (0, 0);
        for seed in 0..60 {
            let (game, _) = Game::new(variant.clone(), 2, seed).expect("a game");
            let Some(&top) = game.discard.last().filter(|c| !c.is_skip()) else {
                continue;
            };
            let first = game.turn;
            streams.deal(&game.stock, 2, true, &mut rng);
            // The next stock card of the second seat, after the first seat's two ways to draw.
            let mut next = Vec::new();
            for draw in [Action::DrawStock, Action::DrawDiscard(top)] {
                let mut g = game.clone();
                streams.restart();
                streams.apply(&mut g, draw, &mut events).expect("legal");
                let mut took = None;
                if let Some(Event::DrewStock { card, .. }) = events.last() {
                    took = Some(*card);
                }
                // The first seat plays its turn as Petra; then the second seat draws.
                while g.turn == first && g.to_move().is_some() {
                    let a = Heuristic::choose(&g.view_ref(first));
                    streams
                        .apply(&mut g, a, &mut events)
                        .expect("Petra plays legally");
                    assert_eq!(streams.stock, Counts::of(&g.stock));
                }
                if g.to_move().is_none() {
                    break;
                }
                streams
                    .apply(&mut g, Action::DrawStock, &mut events)
                    .expect("legal");
                assert_eq!(streams.stock, Counts::of(&g.stock));
                let Some(Event::DrewStock { card, .. }) = events.last() else {
                    panic!("a stock draw: {events:?}");
                };
                next.push((*card, took));
            }
            if let [(a, Some(took)), (b, None)] = next[..]
                && took != a
                && took != b
            {
                compared += 1;
                same += usize::from(a == b);
            }
        }
        assert!(compared > 30, "{compared}");
        assert_eq!(same, compared);
    }
}
