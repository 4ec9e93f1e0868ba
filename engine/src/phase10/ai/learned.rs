//! Petra's discard reordered by a forest of regression trees fitted to Michaela's playouts
//! (expert iteration, one step): `p10_distill` records, at Michaela's discards, how much better
//! than Petra's first choice each of Petra's best few did in her playouts, with what the seat
//! saw about each card (`Heuristic::discard_features`); `p10_fit` fits a forest to predict that
//! from those features. At a discard the model asks the forest about each of Petra's best `top`
//! cards and takes the one it predicts best, when that beats Petra's first by `margin` points.
//! A model may hold a second forest for tables of three seats or more (Michaela's is fitted on
//! four-seat games).
//! Everything it reads comes from the seat's own view.

use std::sync::{Arc, OnceLock};

use super::super::action::Action;
use super::super::card::{Card, Counts};
use super::super::view::{SeatView, ViewRef};
use super::Player;
use super::heuristic::{FEATURES, Heuristic, Style, Tally, legal};
use super::trees::Forest;

/// Values the forest reads per discard: whether the seat laid, the discard's features minus
/// Petra's first discard's, and Petra's first discard's.
pub const INPUTS: usize = 1 + 2 * FEATURES;

/// The phase distance ([`Heuristic::distance`]) a discard leaves, while the seat has not laid.
type Left = Option<(u8, u16)>;

/// A discard order learned from Michaela's playouts.
#[derive(Clone, Debug)]
pub struct DiscardModel {
    /// The forest asked with two seats or fewer, and with more when there is no `seats` forest.
    forest: Forest,
    /// The forest asked with three seats or more, when there is one (fitted on four-seat
    /// samples: what a discard is worth with more seats differs).
    seats: Option<Forest>,
    /// How many of Petra's best discards are weighed.
    pub top: usize,
    /// Points by which a discard must be predicted to beat Petra's first to replace it.
    pub margin: f64,
    /// Only discards whose key in Petra's order is within this of her first's are weighed
    /// (`i64::MAX`: all of her best `top`); when none is, the forest is not asked.
    pub gap: i64,
}

/// Michaela's forests: heads-up (`engine/data/michaela-discards.forest`, `p10_fit --trees 20
/// --shrink 0.4 --depth 5` on heads-up samples, BENCHMARKS.md, "A discard order learned from
/// her playouts") and with three seats or more (`michaela-discards-seats.forest`, the same fit
/// on four-seat samples, "Her discard order with more seats").
const MICHAELA: &str = include_str!("../../../data/michaela-discards.forest");
const MICHAELA_SEATS: &str = include_str!("../../../data/michaela-discards-seats.forest");

impl DiscardModel {
    /// Michaela's discard order: her forests, weighing Petra's best 4 with a margin of 2 points.
    pub fn michaela() -> Arc<DiscardModel> {
        static MODEL: OnceLock<Arc<DiscardModel>> = OnceLock::new();
        MODEL
            .get_or_init(|| {
                // The files are part of the build; a test reads them.
                let model = DiscardModel::from_text(MICHAELA, 4, 2.0)
                    .and_then(|m| m.with_seats(MICHAELA_SEATS))
                    .expect("Michaela's forests");
                Arc::new(model)
            })
            .clone()
    }

    /// A model from a forest's text ([`Forest::to_text`]); an error names the line.
    pub fn from_text(text: &str, top: usize, margin: f64) -> Result<DiscardModel, String> {
        let forest = DiscardModel::read_forest(text)?;
        Ok(DiscardModel {
            forest,
            seats: None,
            top,
            margin,
            gap: i64::MAX,
        })
    }

    /// A forest of discards from its text, refused unless it reads a discard's values.
    fn read_forest(text: &str) -> Result<Forest, String> {
        let forest = Forest::from_text(text)?;
        if forest.features() != INPUTS {
            return Err(format!(
                "the forest reads {} values; a discard has {INPUTS}",
                forest.features()
            ));
        }
        Ok(forest)
    }

    /// This model with `text`'s forest asked at tables of three seats or more (an error names
    /// the line).
    pub fn with_seats(mut self, text: &str) -> Result<DiscardModel, String> {
        self.seats = Some(DiscardModel::read_forest(text)?);
        Ok(self)
    }

    /// Petra's first-ranked discard in `style` and, for each of her best `top`, its features
    /// (what the seat sees about it, measured against that first one). Empty with fewer than
    /// two to weigh.
    pub fn candidates(view: &ViewRef, style: &Style, top: usize) -> Vec<(Card, [f64; FEATURES])> {
        let ranked = Heuristic::ranked_discards_in(view, style);
        if ranked.len() < 2 || top < 2 {
            return Vec::new();
        }
        let seen = Seen::new(view, Heuristic::hit_mask(view), ranked[0], None);
        ranked
            .into_iter()
            .take(top)
            .map(|c| (c, seen.features(c, None)))
            .collect()
    }

    /// The forest's inputs for `features` against Petra's first discard's `first`.
    pub fn inputs(
        laid: bool,
        features: &[f64; FEATURES],
        first: &[f64; FEATURES],
    ) -> [f64; INPUTS] {
        let mut x = [0.0; INPUTS];
        x[0] = f64::from(u8::from(laid));
        for i in 0..FEATURES {
            x[1 + i] = features[i] - first[i];
            x[1 + FEATURES + i] = first[i];
        }
        x
    }

    /// The discard this model picks, or `None` to leave it to Petra (fewer than two to weigh).
    /// `hits` is the table's [`Heuristic::hit_mask`]. Petra's best few are kept as they come,
    /// in her order (key, then card), without ranking the rest or allocating.
    pub(super) fn discard(&self, view: &ViewRef, style: &Style, hits: u64) -> Option<Card> {
        const MOST: usize = 8;
        let top = self.top.min(MOST);
        if top < 2 {
            return None;
        }
        // Her best `top` as (key, card, distance it leaves), in her order (key, then card).
        let mut best: [(i64, Card, Left); MOST] = [(i64::MAX, Card::SKIP, None); MOST];
        let mut len = 0;
        Heuristic::score_discards(view, style, hits, |key, c, left| {
            let item = (key, c);
            if len == top && item >= (best[top - 1].0, best[top - 1].1) {
                return;
            }
            let mut i = len.min(top - 1);
            while i > 0 && (best[i - 1].0, best[i - 1].1) > item {
                best[i] = best[i - 1];
                i -= 1;
            }
            best[i] = (key, c, left);
            len = (len + 1).min(top);
        });
        if len < 2 {
            return None;
        }
        let (first_key, first_card, first_left) = best[0];
        let len = best[..len]
            .iter()
            .take_while(|&&(key, _, _)| key.saturating_sub(first_key) <= self.gap)
            .count();
        if len < 2 {
            return Some(first_card);
        }
        let seen = Seen::new(view, hits, first_card, first_left);
        let first = seen.features(first_card, first_left);
        let laid = view.laid_phase[view.seat].is_some();
        let forest = match &self.seats {
            Some(seats) if view.players > 2 => seats,
            _ => &self.forest,
        };
        let mut pick = (self.margin, first_card);
        for &(_, c, left) in &best[1..len] {
            let x = DiscardModel::inputs(laid, &seen.features(c, left), &first);
            let gain = forest.predict(&x);
            if gain > pick.0 {
                pick = (gain, c);
            }
        }
        Some(pick.1)
    }
}

/// What the features of several discards at one decision share: the hand counted once, the
/// unseen cards, and the phase distance Petra's first discard leaves.
struct Seen<'v, 'a> {
    view: &'v ViewRef<'a>,
    hits: u64,
    hand: Counts,
    tally: Tally,
    unseen: Counts,
    m0: Option<u8>,
}

impl<'v, 'a> Seen<'v, 'a> {
    /// For `view`, whose table's hit mask is `hits`, against Petra's first discard `first`,
    /// which leaves the distance `left` when the caller knows it.
    fn new(view: &'v ViewRef<'a>, hits: u64, first: Card, left: Left) -> Seen<'v, 'a> {
        let hand = Counts::of(view.hand);
        let tally = Tally::of(&hand);
        let mut seen = Seen {
            view,
            hits,
            hand,
            tally,
            unseen: view.unseen(),
            m0: None,
        };
        seen.m0 = seen.left(first, left).map(|(m, _)| m);
        seen
    }

    /// The distance discarding `c` leaves (`None` once the seat laid): `known` when the caller
    /// has it, else worked out.
    fn left(&self, c: Card, known: Left) -> Left {
        if self.view.laid_phase[self.view.seat].is_some() {
            return None;
        }
        known.or_else(|| {
            let mut rest = self.tally;
            rest.remove(c);
            Some(Heuristic::distance(self.view, &rest))
        })
    }

    /// What the seat sees about discarding `c` (`known`: the distance it leaves, if known).
    fn features(&self, c: Card, known: Left) -> [f64; FEATURES] {
        Heuristic::discard_features(
            self.view,
            &self.hand,
            &self.unseen,
            self.hits,
            c,
            self.m0,
            self.left(c, known),
        )
    }
}

/// Petra's play with her discard reordered by a model (for measuring).
#[derive(Clone, Debug)]
pub struct Modelled(pub Style, pub Arc<DiscardModel>);

impl Player for Modelled {
    fn decide(&mut self, view: &SeatView) -> Action {
        legal(
            view,
            Heuristic::choose_with(&view.view_ref(), &self.0, Some(&self.1)),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::phase10::game::Stage;
    use crate::phase10::{play_game, variant};

    /// The text of a forest of one leaf reading `values` values: it predicts `value` always.
    fn leaf(values: usize, value: f64) -> String {
        format!("forest 0 {values} 1\nl {value}\n")
    }

    /// A model of one leaf: it predicts `value` for every discard.
    fn constant(value: f64) -> DiscardModel {
        DiscardModel::from_text(&leaf(INPUTS, value), 4, 2.0).expect("a forest")
    }

    #[test]
    fn michaelas_forests_read() {
        let m = DiscardModel::michaela();
        assert_eq!(m.forest.trees(), 20);
        assert_eq!(m.seats.as_ref().map(Forest::trees), Some(20));
        // Two forests, not one file read twice.
        assert_ne!(
            m.seats.as_ref().map(Forest::to_text),
            Some(m.forest.to_text())
        );
        assert_eq!((m.top, m.margin, m.gap), (4, 2.0, i64::MAX));
    }

    #[test]
    fn a_forest_reading_other_values_is_refused() {
        let e = DiscardModel::from_text(&leaf(3, 1.0), 4, 2.0).expect_err("3 values");
        assert!(e.contains("reads 3 values"), "{e}");
    }

    /// Plays heads-up games of Petra and asks the model at each of her discards.
    fn at_discards(ask: impl FnMut(&ViewRef, Action)) {
        at_discards_of(2, ask);
    }

    /// Plays games of Petra at `players` seats and asks the model at each of her discards.
    fn at_discards_of(players: usize, mut ask: impl FnMut(&ViewRef, Action)) {
        let v = variant::by_id("pro-spider-10").expect("known").clone();
        for seed in 1..4 {
            play_game(v.clone(), players, seed, &mut |_, view, _| {
                let r = view.view_ref();
                let a = Heuristic::choose(&r);
                if !matches!(r.stage, Stage::Draw | Stage::Knock { .. })
                    && matches!(a, Action::Discard(_))
                {
                    ask(&r, a.clone());
                }
                Ok(a)
            })
            .expect("a game");
        }
    }

    #[test]
    fn the_distances_petras_order_passes_on_are_those_worked_out_again() {
        let mut compared = 0;
        at_discards(|r, _| {
            let hits = Heuristic::hit_mask(r);
            let mut scored = Vec::new();
            Heuristic::score_discards(r, &Style::PETRA, hits, |_, c, left| scored.push((c, left)));
            let Some(&(first, first_left)) = scored.first() else {
                return;
            };
            let passed = Seen::new(r, hits, first, first_left);
            let fresh = Seen::new(r, hits, first, None);
            assert_eq!(passed.m0, fresh.m0);
            for &(c, left) in &scored {
                assert_eq!(passed.features(c, left), fresh.features(c, None), "{c:?}");
                compared += 1;
            }
        });
        assert!(compared > 500, "{compared} discards compared");
    }

    #[test]
    fn a_gap_keeps_the_model_to_discards_near_petras_first() {
        let mut model = constant(10.0);
        model.gap = 0;
        let (mut moved, mut kept) = (0, 0);
        at_discards(|r, petra| {
            if r.reshuffles >= super::super::heuristic::STALLED {
                return;
            }
            let mut scored = Vec::new();
            Heuristic::score_discards(r, &Style::PETRA, Heuristic::hit_mask(r), |key, c, _| {
                scored.push((key, c));
            });
            scored.sort();
            let a = Heuristic::choose_with(r, &Style::PETRA, Some(&model));
            match scored.as_slice() {
                [(k0, _), (k1, second), ..] if k0 == k1 => {
                    assert_eq!(a, Action::Discard(*second));
                    moved += 1;
                }
                _ => {
                    assert_eq!(a, petra);
                    kept += 1;
                }
            }
        });
        assert!(moved > 20 && kept > 20, "{moved} moved, {kept} kept");
    }

    #[test]
    fn a_model_that_sees_no_gain_discards_as_petra_does() {
        let asked = takes_second(2, &constant(1.9), false);
        assert!(asked > 100, "{asked} discards");
    }

    /// Asks `model` at Petra's discards in games of `players` seats: with `second`, it must take
    /// her second-ranked discard (unless the round stalled), else her own. Returns how many.
    fn takes_second(players: usize, model: &DiscardModel, second: bool) -> usize {
        let mut asked = 0;
        at_discards_of(players, |r, petra| {
            let ranked = Heuristic::ranked_discards(r);
            let a = Heuristic::choose_with(r, &Style::PETRA, Some(model));
            if !second {
                assert_eq!(a, petra);
                asked += 1;
            } else if r.reshuffles < super::super::heuristic::STALLED && ranked.len() >= 2 {
                assert_eq!(a, Action::Discard(ranked[1]), "petra: {petra:?}");
                asked += 1;
            }
        });
        asked
    }

    #[test]
    fn a_model_that_sees_a_gain_takes_petras_second_discard() {
        let moved = takes_second(2, &constant(10.0), true);
        assert!(moved > 100, "{moved} discards");
    }

    #[test]
    fn the_seats_forest_is_asked_with_three_seats_or_more() {
        let seats = |heads_up: f64, more: f64| {
            constant(heads_up)
                .with_seats(&leaf(INPUTS, more))
                .expect("a forest")
        };
        // Heads-up the first forest decides, with more seats the seats forest.
        for (model, second_heads_up) in [(seats(0.0, 10.0), false), (seats(10.0, 0.0), true)] {
            assert!(takes_second(2, &model, second_heads_up) > 100);
            for players in [3, 4] {
                assert!(takes_second(players, &model, !second_heads_up) > 100);
            }
        }
        // Without a seats forest the first one decides with any number of seats.
        assert!(takes_second(3, &constant(10.0), true) > 100);
        let e = constant(0.0)
            .with_seats(&leaf(3, 1.0))
            .expect_err("3 values");
        assert!(e.contains("reads 3 values"), "{e}");
    }
}
