//! A position: the tableau, the stock and the foundation, and the rules that change them.
//!
//! `play` and `unplay` are the one place the rules live. They do not allocate once the columns
//! have grown, so the solver uses them as they are.

use std::sync::Arc;

use crate::card::{Card, Rank};
use crate::moves::Move;
use crate::variant::{DiscardMode, Grouping, Variant};

/// One tableau column: cards from the bottom up; the first `face_down` are face down.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Column {
    cards: Vec<Card>,
    face_down: usize,
}

impl Column {
    /// A column from its cards (bottom first) and how many of them are face down.
    pub fn new(cards: Vec<Card>, face_down: usize) -> Column {
        Column { cards, face_down }
    }

    /// All cards, bottom first.
    pub fn cards(&self) -> &[Card] {
        &self.cards
    }

    /// Number of face-down cards at the bottom.
    pub fn face_down(&self) -> usize {
        self.face_down
    }

    /// The face-up cards, bottom first.
    pub fn face_up(&self) -> &[Card] {
        &self.cards[self.face_down..]
    }

    /// The top card, if any.
    pub fn top(&self) -> Option<Card> {
        self.cards.last().copied()
    }

    /// Number of cards.
    pub fn len(&self) -> usize {
        self.cards.len()
    }

    /// Whether the column has no cards.
    pub fn is_empty(&self) -> bool {
        self.cards.is_empty()
    }

    /// Turns the top card up if it is face down; says whether it did.
    fn turn_up_top(&mut self) -> bool {
        if self.face_down > 0 && self.face_down == self.cards.len() {
            self.face_down -= 1;
            true
        } else {
            false
        }
    }
}

/// A completed King-to-Ace run, King first.
pub type Run = [Card; 13];

/// Why a move is not legal here. Column numbers in messages are 1-based, as in the notation.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// The column number is beyond the tableau.
    #[error("there is no column {}: this variant has {columns}", usize::from(*.column) + 1)]
    NoSuchColumn {
        /// The column asked for (0-based).
        column: u8,
        /// How many columns there are.
        columns: usize,
    },
    /// Source and destination are the same column.
    #[error("a move needs two different columns")]
    SameColumn,
    /// Nothing to move.
    #[error("column {} is empty", usize::from(*.column) + 1)]
    EmptyColumn {
        /// The column (0-based).
        column: u8,
    },
    /// More cards asked for than move as a unit.
    #[error(
        "column {} has {movable} card(s) that move as a unit, not {count}",
        usize::from(*.column) + 1
    )]
    NotARun {
        /// The column (0-based).
        column: u8,
        /// Cards asked for.
        count: u8,
        /// Cards that form the movable run.
        movable: usize,
    },
    /// The destination's top card is not one rank higher.
    #[error("{card} cannot go onto {onto} in column {}: it needs a card one rank higher", usize::from(*.column) + 1)]
    DoesNotFit {
        /// The bottom card of the moving run.
        card: Card,
        /// The destination's top card.
        onto: Card,
        /// The destination column (0-based).
        column: u8,
    },
    /// The stock is empty.
    #[error("the stock is empty")]
    StockEmpty,
    /// This variant does not deal onto an empty column.
    #[error("column {} is empty: fill every column before dealing", usize::from(*.column) + 1)]
    EmptyColumnBlocksDeal {
        /// The first empty column (0-based).
        column: u8,
    },
    /// `N>f` in a game with automatic discard.
    #[error("completed runs are discarded automatically in this game")]
    DiscardIsAutomatic,
    /// `N>f` on a column without a completed run on top.
    #[error("column {} has no completed King-to-Ace run on top", usize::from(*.column) + 1)]
    NoCompletedRun {
        /// The column (0-based).
        column: u8,
    },
}

/// What `play` changed, so `unplay` can restore the position exactly.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Undo {
    /// The move that was played.
    pub mv: Move,
    /// Columns whose top card was turned up, after any completed run left.
    pub turned_up: u64,
    /// Columns whose completed run left for the foundation, in column order.
    pub completed: u64,
    /// Cards dealt (for `Move::Deal`).
    pub dealt: u8,
}

/// A position in a game of a given variant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    variant: Arc<Variant>,
    discard: DiscardMode,
    columns: Vec<Column>,
    /// The stock, the next card to be dealt last (so dealing pops).
    stock: Vec<Card>,
    foundation: Vec<Run>,
}

impl Position {
    /// A position from its parts; `stock` lists the next card dealt first. Callers check the
    /// cards add up (`crate::notation` and `crate::deal` do).
    pub(crate) fn from_parts(
        variant: Arc<Variant>,
        discard: DiscardMode,
        columns: Vec<Column>,
        mut stock: Vec<Card>,
        foundation: Vec<Run>,
    ) -> Position {
        stock.reverse();
        Position {
            variant,
            discard,
            columns,
            stock,
            foundation,
        }
    }

    /// The variant being played.
    pub fn variant(&self) -> &Arc<Variant> {
        &self.variant
    }

    /// The discard mode of this game.
    pub fn discard(&self) -> DiscardMode {
        self.discard
    }

    /// The tableau columns, left to right.
    pub fn columns(&self) -> &[Column] {
        &self.columns
    }

    /// The stock, next card to be dealt first.
    pub fn stock(&self) -> impl DoubleEndedIterator<Item = Card> + ExactSizeIterator + '_ {
        self.stock.iter().rev().copied()
    }

    /// Number of cards left in the stock.
    pub fn stock_len(&self) -> usize {
        self.stock.len()
    }

    /// Deals left in the stock (the last may be partial).
    pub fn deals_left(&self) -> usize {
        self.stock.len().div_ceil(self.columns.len())
    }

    /// Completed runs removed from play, in the order they left.
    pub fn foundation(&self) -> &[Run] {
        &self.foundation
    }

    /// Whether every card has gone to the foundation.
    pub fn is_won(&self) -> bool {
        self.foundation.len() == self.variant.run_count()
    }

    /// Whether `upper` continues a run on `lower`: one rank lower and in the same group.
    pub fn links(&self, lower: Card, upper: Card) -> bool {
        upper.rank_value() + 1 == lower.rank_value()
            && match self.variant.grouping {
                Grouping::Suit => upper.suit() == lower.suit(),
                Grouping::Color => upper.color() == lower.color(),
            }
    }

    /// Length of the run on top of column `c` that moves as a unit (0 for an empty column).
    pub fn movable_run(&self, c: usize) -> usize {
        let col = &self.columns[c];
        let up = col.face_up();
        if up.is_empty() {
            return 0;
        }
        let mut n = 1;
        while n < up.len() && self.links(up[up.len() - n - 1], up[up.len() - n]) {
            n += 1;
        }
        n
    }

    /// Whether column `c` has a completed King-to-Ace run on top.
    pub fn has_completed_run(&self, c: usize) -> bool {
        self.columns[c].top().is_some_and(|t| t.rank() == Rank::Ace) && self.movable_run(c) == 13
    }

    /// Whether column `c` holds a completed King-to-Ace run among its face-up cards, on top or
    /// under other cards (where a deal puts cards on it when discard is manual).
    pub fn holds_completed_run(&self, c: usize) -> bool {
        let up = self.columns[c].face_up();
        let mut linked = 1;
        for w in up.windows(2) {
            linked = if self.links(w[0], w[1]) {
                linked + 1
            } else {
                1
            };
            if linked == 13 && w[1].rank() == Rank::Ace {
                return true;
            }
        }
        false
    }

    /// Checks a move without playing it.
    pub fn check(&self, mv: Move) -> Result<(), MoveError> {
        let n = self.columns.len();
        let column = |c: u8| {
            if usize::from(c) < n {
                Ok(usize::from(c))
            } else {
                Err(MoveError::NoSuchColumn {
                    column: c,
                    columns: n,
                })
            }
        };
        match mv {
            Move::Transfer { from, to, count } => {
                let (f, t) = (column(from)?, column(to)?);
                if f == t {
                    return Err(MoveError::SameColumn);
                }
                let movable = self.movable_run(f);
                if movable == 0 {
                    return Err(MoveError::EmptyColumn { column: from });
                }
                if count == 0 || usize::from(count) > movable {
                    return Err(MoveError::NotARun {
                        column: from,
                        count,
                        movable,
                    });
                }
                let src = &self.columns[f].cards;
                let card = src[src.len() - usize::from(count)];
                match self.columns[t].top() {
                    Some(onto) if onto.rank().value() != card.rank().value() + 1 => {
                        Err(MoveError::DoesNotFit {
                            card,
                            onto,
                            column: to,
                        })
                    }
                    _ => Ok(()),
                }
            }
            Move::Deal => {
                if self.stock.is_empty() {
                    return Err(MoveError::StockEmpty);
                }
                if !self.variant.deal_with_empty_column
                    && let Some(c) = self.columns.iter().position(Column::is_empty)
                {
                    return Err(MoveError::EmptyColumnBlocksDeal { column: c as u8 });
                }
                Ok(())
            }
            Move::Discard { column: c } => {
                let i = column(c)?;
                if self.discard == DiscardMode::Automatic {
                    return Err(MoveError::DiscardIsAutomatic);
                }
                if !self.has_completed_run(i) {
                    return Err(MoveError::NoCompletedRun { column: c });
                }
                Ok(())
            }
        }
    }

    /// Plays a legal move; returns what `unplay` needs to take it back.
    pub fn play(&mut self, mv: Move) -> Result<Undo, MoveError> {
        self.check(mv)?;
        Ok(self.play_unchecked(mv))
    }

    /// Plays a move already known to be legal (from `legal_moves` or `check`).
    pub fn play_unchecked(&mut self, mv: Move) -> Undo {
        let mut undo = Undo {
            mv,
            turned_up: 0,
            completed: 0,
            dealt: 0,
        };
        match mv {
            Move::Transfer { from, to, count } => {
                let (f, t) = (usize::from(from), usize::from(to));
                let start = self.columns[f].cards.len() - usize::from(count);
                // Split borrows: move the cards without a temporary allocation.
                let (src, dst) = if f < t {
                    let (a, b) = self.columns.split_at_mut(t);
                    (&mut a[f], &mut b[0])
                } else {
                    let (a, b) = self.columns.split_at_mut(f);
                    (&mut b[0], &mut a[t])
                };
                dst.cards.extend_from_slice(&src.cards[start..]);
                src.cards.truncate(start);
                if src.turn_up_top() {
                    undo.turned_up |= 1 << f;
                }
                self.auto_discard(t, &mut undo);
            }
            Move::Deal => {
                let k = self.stock.len().min(self.columns.len());
                for c in 0..k {
                    let card = self.stock.pop().unwrap_or_else(|| unreachable!());
                    self.columns[c].cards.push(card);
                }
                undo.dealt = k as u8;
                for c in 0..k {
                    self.auto_discard(c, &mut undo);
                }
            }
            Move::Discard { column } => self.discard_run(usize::from(column), &mut undo),
        }
        undo
    }

    fn auto_discard(&mut self, c: usize, undo: &mut Undo) {
        if self.discard == DiscardMode::Automatic && self.has_completed_run(c) {
            self.discard_run(c, undo);
        }
    }

    fn discard_run(&mut self, c: usize, undo: &mut Undo) {
        let col = &mut self.columns[c];
        let start = col.cards.len() - 13;
        let mut run = [col.cards[start]; 13];
        run.copy_from_slice(&col.cards[start..]);
        col.cards.truncate(start);
        self.foundation.push(run);
        undo.completed |= 1 << c;
        if col.turn_up_top() {
            undo.turned_up |= 1 << c;
        }
    }

    /// Takes back the move `undo` came from; the position must be the one `play` left.
    pub fn unplay(&mut self, undo: &Undo) {
        // Completed runs come back in the reverse order they left.
        let mut completed = undo.completed;
        while completed != 0 {
            let c = 63 - completed.leading_zeros() as usize;
            completed &= !(1 << c);
            let col = &mut self.columns[c];
            if undo.turned_up & (1 << c) != 0 {
                col.face_down += 1;
            }
            let run = self.foundation.pop().unwrap_or_else(|| unreachable!());
            col.cards.extend_from_slice(&run);
        }
        match undo.mv {
            Move::Transfer { from, to, count } => {
                let (f, t) = (usize::from(from), usize::from(to));
                if undo.turned_up & (1 << f) != 0 {
                    self.columns[f].face_down += 1;
                }
                let start = self.columns[t].cards.len() - usize::from(count);
                let (src, dst) = if f < t {
                    let (a, b) = self.columns.split_at_mut(t);
                    (&mut b[0], &mut a[f])
                } else {
                    let (a, b) = self.columns.split_at_mut(f);
                    (&mut a[t], &mut b[0])
                };
                dst.cards.extend_from_slice(&src.cards[start..]);
                src.cards.truncate(start);
            }
            Move::Deal => {
                for c in (0..usize::from(undo.dealt)).rev() {
                    let card = self.columns[c]
                        .cards
                        .pop()
                        .unwrap_or_else(|| unreachable!());
                    self.stock.push(card);
                }
            }
            Move::Discard { .. } => {}
        }
    }

    /// Every legal move, each once: transfers by source column, then count, then destination;
    /// then manual discards; then the deal.
    pub fn legal_moves_into(&self, out: &mut Vec<Move>) {
        out.clear();
        let n = self.columns.len();
        // Columns by the rank of their top card (0 = empty), so each run finds its targets
        // without scanning the tableau again.
        let mut by_top = [0u64; 14];
        for (c, col) in self.columns.iter().enumerate() {
            let r = col.top().map_or(0, |t| usize::from(t.rank_value()));
            by_top[r] |= 1 << c;
        }
        let empty = by_top[0];
        for f in 0..n {
            let movable = self.movable_run(f);
            let cards = &self.columns[f].cards;
            for count in 1..=movable {
                let rank = usize::from(cards[cards.len() - count].rank_value());
                let onto = if rank < 13 { by_top[rank + 1] } else { 0 };
                let mut targets = (onto | empty) & !(1 << f);
                while targets != 0 {
                    let t = targets.trailing_zeros() as u8;
                    targets &= targets - 1;
                    out.push(Move::Transfer {
                        from: f as u8,
                        to: t,
                        count: count as u8,
                    });
                }
            }
        }
        if self.discard == DiscardMode::Manual {
            for c in 0..n {
                if self.has_completed_run(c) {
                    out.push(Move::Discard { column: c as u8 });
                }
            }
        }
        if !self.stock.is_empty() && (empty == 0 || self.variant.deal_with_empty_column) {
            out.push(Move::Deal);
        }
    }

    /// Every legal move (see `legal_moves_into`).
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut out = Vec::new();
        self.legal_moves_into(&mut out);
        out
    }

    /// Aisleriot's links: pairs of face-up cards that continue a run, plus 12 per completed run.
    pub fn links_score(&self) -> u32 {
        let pairs: usize = (0..self.columns.len())
            .map(|c| {
                self.columns[c]
                    .face_up()
                    .windows(2)
                    .filter(|w| self.links(w[0], w[1]))
                    .count()
            })
            .sum();
        (pairs + 12 * self.foundation.len()) as u32
    }

    /// Appends a compact byte form of the position (its variant and discard mode aside):
    /// per column its length, face-down count and cards; the stock; the foundation's runs.
    /// Counts are 16-bit: a variant has at most 255 decks, 13260 cards.
    pub(crate) fn encode(&self, out: &mut Vec<u8>) {
        for col in &self.columns {
            out.extend_from_slice(&(col.cards.len() as u16).to_le_bytes());
            out.extend_from_slice(&(col.face_down as u16).to_le_bytes());
            out.extend(col.cards.iter().map(|c| c.to_byte()));
        }
        out.extend_from_slice(&(self.stock.len() as u16).to_le_bytes());
        out.extend(self.stock.iter().map(|c| c.to_byte()));
        out.extend_from_slice(&(self.foundation.len() as u16).to_le_bytes());
        for run in &self.foundation {
            out.extend(run.iter().map(|c| c.to_byte()));
        }
    }

    /// Overwrites this position with one from [`Position::encode`] of the same variant,
    /// reusing its storage.
    pub(crate) fn decode_from(&mut self, bytes: &[u8]) {
        let word = |at: usize| usize::from(u16::from_le_bytes([bytes[at], bytes[at + 1]]));
        let mut at = 0;
        for col in &mut self.columns {
            let len = word(at);
            col.face_down = word(at + 2);
            at += 4;
            col.cards.clear();
            col.cards
                .extend(bytes[at..at + len].iter().map(|&b| Card::from_byte(b)));
            at += len;
        }
        let stock = word(at);
        at += 2;
        self.stock.clear();
        self.stock
            .extend(bytes[at..at + stock].iter().map(|&b| Card::from_byte(b)));
        at += stock;
        let runs = word(at);
        at += 2;
        self.foundation.clear();
        for _ in 0..runs {
            self.foundation
                .push(std::array::from_fn(|k| Card::from_byte(bytes[at + k])));
            at += 13;
        }
    }

    /// Every card on the table and in the stock (for conservation checks).
    pub fn cards_in_play(&self) -> impl Iterator<Item = Card> + '_ {
        self.columns
            .iter()
            .flat_map(|c| c.cards.iter().copied())
            .chain(self.stock.iter().copied())
    }
}

#[cfg(test)]
mod tests {
    use crate::deal::{Numbering, deal};
    use crate::variant::Variants;

    #[test]
    fn compact_encoding_round_trips() {
        for v in Variants::default().iter() {
            let mut p = deal(v, 3, Numbering::Arachne, v.discard).expect("deal");
            let mut other = deal(v, 4, Numbering::Arachne, v.discard).expect("deal");
            for step in 0..40 {
                let moves = p.legal_moves();
                let Some(&m) = moves.get(step % moves.len().max(1)) else {
                    break;
                };
                p.play(m).expect("legal");
                let mut bytes = Vec::new();
                p.encode(&mut bytes);
                other.decode_from(&bytes);
                assert_eq!(other, p, "{}", v.id);
            }
        }
    }
}
