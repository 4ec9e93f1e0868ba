//! A game: a position with its history, undo and redo, score, and the events a view animates.

use std::fmt;
use std::str::FromStr;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::card::Card;
use crate::deal::{DealError, Numbering, deal};
use crate::moves::{Move, ParseMoveError};
use crate::position::{MoveError, Position, Undo};
use crate::variant::{DiscardMode, Scoring, Variant};

/// Per-game options; each defaults to the variant's choice.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameOptions {
    /// Automatic or manual discard of completed runs.
    pub discard: DiscardMode,
    /// Most undos allowed in the game (`None`: unlimited).
    pub undo_limit: Option<u32>,
    /// The scoring scheme.
    pub scoring: Scoring,
}

impl GameOptions {
    /// The variant's defaults.
    pub fn for_variant(v: &Variant) -> GameOptions {
        GameOptions {
            discard: v.discard,
            undo_limit: v.undo_limit,
            scoring: v.scoring,
        }
    }
}

/// Something that happened on the table, in the order a view should show it.
/// Columns are 0-based; cards are listed bottom first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// Cards moved from the top of one column to the top of another.
    Moved {
        /// Source column.
        from: u8,
        /// Destination column.
        to: u8,
        /// The cards, bottom first.
        cards: Vec<Card>,
    },
    /// The top card of a column turned face up.
    TurnedUp {
        /// The column.
        column: u8,
        /// The card.
        card: Card,
    },
    /// The top card of a column turned face down (undoing a turn-up).
    TurnedDown {
        /// The column.
        column: u8,
        /// The card.
        card: Card,
    },
    /// A row dealt from the stock: `(column, card)` in deal order.
    Dealt {
        /// Which card went to which column.
        cards: Vec<(u8, Card)>,
    },
    /// Cards gone back to the stock (undoing a deal), last dealt first.
    Undealt {
        /// Which card left which column.
        cards: Vec<(u8, Card)>,
    },
    /// A completed run left a column for a foundation slot.
    RunCompleted {
        /// The column.
        column: u8,
        /// The run, King first.
        cards: Vec<Card>,
        /// Foundation slot (0-based, in completion order).
        slot: usize,
    },
    /// A completed run came back from its foundation slot (undoing a completion).
    RunRestored {
        /// The column.
        column: u8,
        /// The run, King first.
        cards: Vec<Card>,
        /// The foundation slot it left.
        slot: usize,
    },
    /// Every card has reached the foundation.
    Won,
}

impl Event {
    /// The event that reverses this one; `Won` has none.
    fn inverse(self) -> Option<Event> {
        Some(match self {
            Event::Moved { from, to, cards } => Event::Moved {
                from: to,
                to: from,
                cards,
            },
            Event::TurnedUp { column, card } => Event::TurnedDown { column, card },
            Event::TurnedDown { column, card } => Event::TurnedUp { column, card },
            Event::Dealt { mut cards } => {
                cards.reverse();
                Event::Undealt { cards }
            }
            Event::Undealt { mut cards } => {
                cards.reverse();
                Event::Dealt { cards }
            }
            Event::RunCompleted {
                column,
                cards,
                slot,
            } => Event::RunRestored {
                column,
                cards,
                slot,
            },
            Event::RunRestored {
                column,
                cards,
                slot,
            } => Event::RunCompleted {
                column,
                cards,
                slot,
            },
            Event::Won => return None,
        })
    }
}

/// Why a step could not be played.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum StepError {
    /// The move is illegal here.
    #[error(transparent)]
    Move(MoveError),
    /// There is nothing to undo or redo, or no undo left.
    #[error(transparent)]
    History(HistoryError),
}

/// Why an undo or redo could not happen.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum HistoryError {
    /// No move to undo.
    #[error("nothing to undo")]
    NothingToUndo,
    /// No undone move to redo.
    #[error("nothing to redo")]
    NothingToRedo,
    /// The game's undo limit is used up.
    #[error("no undos left (this game allows {0})")]
    UndoLimitReached(u32),
}

/// One thing the player did, in the order done: a move, an undo or a redo. Played again from
/// the deal, a game's steps rebuild it exactly: its undo count (and so the undo limit), its
/// score's action count and its redo list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// A move played.
    Move(Move),
    /// The last move taken back.
    Undo,
    /// The last undone move played again.
    Redo,
}

impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Step::Move(mv) => mv.fmt(f),
            Step::Undo => f.write_str("undo"),
            Step::Redo => f.write_str("redo"),
        }
    }
}

impl FromStr for Step {
    type Err = ParseMoveError;

    /// A move in notation, `undo` or `redo` (any case).
    fn from_str(s: &str) -> Result<Step, ParseMoveError> {
        if s.eq_ignore_ascii_case("undo") {
            Ok(Step::Undo)
        } else if s.eq_ignore_ascii_case("redo") {
            Ok(Step::Redo)
        } else {
            s.parse().map(Step::Move)
        }
    }
}

/// A game in progress.
#[derive(Clone, Debug)]
pub struct Game {
    start: Position,
    position: Position,
    options: GameOptions,
    history: Vec<Undo>,
    redo: Vec<Move>,
    undos_used: u32,
    /// Moves, deals, redos and undos made, for Microsoft scoring.
    actions: u32,
    /// Everything done, in order.
    steps: Vec<Step>,
    /// The game reached a win at some point (it may have been undone since).
    ever_won: bool,
}

impl Game {
    /// A new game of `variant`, deal `seed` in `numbering`.
    pub fn new(
        variant: &Arc<Variant>,
        seed: u64,
        numbering: Numbering,
        options: GameOptions,
    ) -> Result<Game, DealError> {
        Ok(Game::from_position(
            deal(variant, seed, numbering, options.discard)?,
            options,
        ))
    }

    /// A game starting from `position`; its discard mode wins over `options.discard`.
    pub fn from_position(position: Position, mut options: GameOptions) -> Game {
        options.discard = position.discard();
        Game {
            start: position.clone(),
            position,
            options,
            history: Vec::new(),
            redo: Vec::new(),
            undos_used: 0,
            actions: 0,
            steps: Vec::new(),
            ever_won: false,
        }
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The position the game started from.
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// The game's options.
    pub fn options(&self) -> GameOptions {
        self.options
    }

    /// Every legal move now.
    pub fn legal_moves(&self) -> Vec<Move> {
        self.position.legal_moves()
    }

    /// Plays a move; returns what happened, for the view.
    pub fn apply(&mut self, mv: Move) -> Result<Vec<Event>, MoveError> {
        let undo = self.position.play(mv)?;
        self.history.push(undo);
        self.redo.clear();
        self.count_action(mv);
        self.steps.push(Step::Move(mv));
        self.ever_won |= self.position.is_won();
        Ok(self.events_of(&undo))
    }

    /// Plays a step: a move, an undo or a redo.
    pub fn play_step(&mut self, step: Step) -> Result<Vec<Event>, StepError> {
        match step {
            Step::Move(mv) => self.apply(mv).map_err(StepError::Move),
            Step::Undo => self.undo().map_err(StepError::History),
            Step::Redo => self.redo().map_err(StepError::History),
        }
    }

    fn count_action(&mut self, mv: Move) {
        // A manual discard is not a move or deal: it scores its +100 and costs nothing.
        if !matches!(mv, Move::Discard { .. }) {
            self.actions += 1;
        }
    }

    /// Takes back the last move; returns the events that reverse it, in order.
    pub fn undo(&mut self) -> Result<Vec<Event>, HistoryError> {
        let undo = *self.history.last().ok_or(HistoryError::NothingToUndo)?;
        if let Some(limit) = self.options.undo_limit
            && self.undos_used >= limit
        {
            return Err(HistoryError::UndoLimitReached(limit));
        }
        let events = self.events_of(&undo);
        self.history.pop();
        self.position.unplay(&undo);
        self.redo.push(undo.mv);
        self.undos_used += 1;
        self.actions += 1;
        self.steps.push(Step::Undo);
        Ok(events
            .into_iter()
            .rev()
            .filter_map(Event::inverse)
            .collect())
    }

    /// Plays again the last undone move; returns its events.
    pub fn redo(&mut self) -> Result<Vec<Event>, HistoryError> {
        let mv = self.redo.pop().ok_or(HistoryError::NothingToRedo)?;
        // The position is the one the move was undone from, so it is still legal.
        let undo = self.position.play_unchecked(mv);
        self.history.push(undo);
        self.count_action(mv);
        self.steps.push(Step::Redo);
        self.ever_won |= self.position.is_won();
        Ok(self.events_of(&undo))
    }

    /// Whether there is a move to undo and the limit allows it.
    pub fn can_undo(&self) -> bool {
        !self.history.is_empty() && self.options.undo_limit.is_none_or(|l| self.undos_used < l)
    }

    /// Whether there is a move to redo.
    pub fn can_redo(&self) -> bool {
        !self.redo.is_empty()
    }

    /// Undos left under the limit (`None`: unlimited).
    pub fn undos_left(&self) -> Option<u32> {
        self.options
            .undo_limit
            .map(|l| l.saturating_sub(self.undos_used))
    }

    /// Whether every card has reached the foundation.
    pub fn is_won(&self) -> bool {
        self.position.is_won()
    }

    /// Whether the game was won at some point, even if the win was undone since (its end
    /// has been counted once and must not be counted again).
    pub fn was_won(&self) -> bool {
        self.ever_won
    }

    /// Everything done in this game, in order: moves, undos and redos.
    pub fn steps(&self) -> &[Step] {
        &self.steps
    }

    /// Moves taken back so far (what the undo limit counts).
    pub fn undos_used(&self) -> u32 {
        self.undos_used
    }

    /// Whether the game is not won and no move is left.
    pub fn is_stuck(&self) -> bool {
        !self.is_won() && self.position.legal_moves().is_empty()
    }

    /// The moves from the start to here (undone moves excluded).
    pub fn history(&self) -> impl ExactSizeIterator<Item = Move> + '_ {
        self.history.iter().map(|u| u.mv)
    }

    /// Number of moves from the start to here.
    pub fn move_count(&self) -> usize {
        self.history.len()
    }

    /// The score under the game's scoring scheme.
    pub fn score(&self) -> i64 {
        match self.options.scoring {
            Scoring::Microsoft => {
                500 - i64::from(self.actions) + 100 * self.position.foundation().len() as i64
            }
            Scoring::Links => i64::from(self.position.links_score()),
        }
    }

    /// The events of a move just played, read off the position it left.
    fn events_of(&self, undo: &Undo) -> Vec<Event> {
        let pos = &self.position;
        let runs = pos.foundation();
        let completed = undo.completed.count_ones() as usize;
        let first_slot = runs.len() - completed;
        let mut events = Vec::with_capacity(4);
        let top = |c: usize| pos.columns()[c].top().unwrap_or_else(|| unreachable!());
        let after = |c: usize, slot: &mut usize, events: &mut Vec<Event>| {
            if undo.completed & (1 << c) != 0 {
                events.push(Event::RunCompleted {
                    column: c as u8,
                    cards: runs[*slot].to_vec(),
                    slot: *slot,
                });
                *slot += 1;
            }
            if undo.turned_up & (1 << c) != 0 {
                events.push(Event::TurnedUp {
                    column: c as u8,
                    card: top(c),
                });
            }
        };
        let mut slot = first_slot;
        match undo.mv {
            Move::Transfer { from, to, count } => {
                let (f, t) = (usize::from(from), usize::from(to));
                let count = usize::from(count);
                let cards = if undo.completed & (1 << t) != 0 {
                    runs[first_slot][13 - count..].to_vec()
                } else {
                    let c = pos.columns()[t].cards();
                    c[c.len() - count..].to_vec()
                };
                events.push(Event::Moved { from, to, cards });
                if undo.turned_up & (1 << f) != 0 {
                    events.push(Event::TurnedUp {
                        column: from,
                        card: top(f),
                    });
                }
                after(t, &mut slot, &mut events);
            }
            Move::Deal => {
                let mut slot_of_deal = first_slot;
                let cards = (0..usize::from(undo.dealt))
                    .map(|c| {
                        let card = if undo.completed & (1 << c) != 0 {
                            slot_of_deal += 1;
                            runs[slot_of_deal - 1][12]
                        } else {
                            top(c)
                        };
                        (c as u8, card)
                    })
                    .collect();
                events.push(Event::Dealt { cards });
                for c in 0..usize::from(undo.dealt) {
                    after(c, &mut slot, &mut events);
                }
            }
            Move::Discard { column } => after(usize::from(column), &mut slot, &mut events),
        }
        if pos.is_won() {
            events.push(Event::Won);
        }
        events
    }
}
