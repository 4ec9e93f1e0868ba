//! Petra's discard reordered by a forest of regression trees fitted to Michaela's playouts
//! (expert iteration, one step): `p10_distill` records, at Michaela's discards, how much better
//! than Petra's first choice each of Petra's best few did in her playouts, with what the seat
//! saw about each card ([`Heuristic::discard_features`]); `p10_fit` fits a forest to predict that
//! from those features. At a discard the model asks the forest about each of Petra's best `top`
//! cards and takes the one it predicts best, when that beats Petra's first by `margin` points.
//! Everything it reads comes from the seat's own view.

use std::sync::Arc;

use super::super::action::Action;
use super::super::card::Card;
use super::super::view::{SeatView, ViewRef};
use super::Player;
use super::heuristic::{FEATURES, Heuristic, Style};
use super::trees::Forest;

/// Values the forest reads per discard: whether the seat laid, the discard's features minus
/// Petra's first discard's, and Petra's first discard's.
pub const INPUTS: usize = 1 + 2 * FEATURES;

/// A discard order learned from Michaela's playouts.
#[derive(Clone, Debug)]
pub struct DiscardModel {
    forest: Forest,
    /// How many of Petra's best discards are weighed.
    pub top: usize,
    /// Points by which a discard must be predicted to beat Petra's first to replace it.
    pub margin: f64,
}

impl DiscardModel {
    /// A model from a forest's text ([`Forest::to_text`]); an error names the line.
    pub fn from_text(text: &str, top: usize, margin: f64) -> Result<DiscardModel, String> {
        let forest = Forest::from_text(text)?;
        if forest.features() != INPUTS {
            return Err(format!(
                "the forest reads {} values; a discard has {INPUTS}",
                forest.features()
            ));
        }
        Ok(DiscardModel {
            forest,
            top,
            margin,
        })
    }

    /// Petra's first-ranked discard in `style` and, for each of her best `top`, its features
    /// ([`Heuristic::discard_features`], measured against that first one). Empty with fewer
    /// than two to weigh.
    pub fn candidates(view: &ViewRef, style: &Style, top: usize) -> Vec<(Card, [f64; FEATURES])> {
        let ranked = Heuristic::ranked_discards_in(view, style);
        if ranked.len() < 2 || top < 2 {
            return Vec::new();
        }
        let hits = Heuristic::hit_mask(view);
        let unseen = Heuristic::unseen_of(view);
        let m0 = Heuristic::distance_without(view, ranked[0]);
        ranked
            .into_iter()
            .take(top)
            .map(|c| (c, Heuristic::discard_features(view, &unseen, hits, c, m0)))
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
    pub(super) fn discard(&self, view: &ViewRef, style: &Style) -> Option<Card> {
        let cands = DiscardModel::candidates(view, style, self.top);
        let (first, rest) = cands.split_first()?;
        let laid = view.laid_phase[view.seat].is_some();
        let mut best = (self.margin, first.0);
        for (c, f) in rest {
            let gain = self
                .forest
                .predict(&DiscardModel::inputs(laid, f, &first.1));
            if gain > best.0 {
                best = (gain, *c);
            }
        }
        Some(best.1)
    }
}

/// Petra's play with her discard reordered by a model (for measuring).
#[derive(Clone, Debug)]
pub struct Modelled(pub Style, pub Arc<DiscardModel>);

impl Player for Modelled {
    fn decide(&mut self, view: &SeatView) -> Action {
        let a = Heuristic::choose_with(&view.view_ref(), &self.0, Some(&self.1));
        if view.choices.is_empty() || view.choices.contains(&a) {
            a
        } else {
            view.choices[0].clone()
        }
    }
}
