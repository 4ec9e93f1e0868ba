//! The decisions a seat makes (actions) and what happens at the table (events). Actions print as
//! the choices of the external-player protocol (`draw discard g7`, `hit 2.1 W=8`); seats are
//! 0-based in the API and 1-based in every text.

use std::fmt;
use std::str::FromStr;

use super::card::{Card, MAX_VALUE, MIN_VALUE};
use super::group::{Group, GroupError, HitCard};

/// A seat, 0-based (seat 1 of the texts is 0).
pub type Seat = usize;

/// One decision.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// Take the top card of the stock.
    DrawStock,
    /// Take this card, the top of the discard pile.
    DrawDiscard(Card),
    /// Claim this card, just discarded by another seat, out of turn (knocking variant).
    Knock(Card),
    /// Do not claim the discard (knocking variant).
    Pass,
    /// Lay the phase with this number as these groups.
    Lay {
        /// The phase's number.
        phase: u8,
        /// The groups, in the phase's order.
        groups: Vec<Group>,
    },
    /// Add a card to a laid group.
    Hit {
        /// Whose group.
        seat: Seat,
        /// Which group of that seat (0-based, in the order laid).
        group: usize,
        /// The card.
        card: HitCard,
    },
    /// End the turn by discarding this card.
    Discard(Card),
    /// End the turn by playing a skip in front of this seat.
    Skip(Seat),
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::DrawStock => f.write_str("draw stock"),
            Action::DrawDiscard(c) => write!(f, "draw discard {c}"),
            Action::Knock(c) => write!(f, "knock {c}"),
            Action::Pass => f.write_str("pass"),
            Action::Lay { phase, groups } => {
                write!(f, "lay {phase} ")?;
                write_groups(f, groups)
            }
            Action::Hit { seat, group, card } => {
                write!(f, "hit {}.{} {card}", seat + 1, group + 1)
            }
            Action::Discard(c) => write!(f, "discard {c}"),
            Action::Skip(s) => write!(f, "skip {}", s + 1),
        }
    }
}

/// Writes groups as `G, G, ...`.
pub fn write_groups(f: &mut impl fmt::Write, groups: &[Group]) -> fmt::Result {
    for (i, g) in groups.iter().enumerate() {
        if i > 0 {
            f.write_str(", ")?;
        }
        write!(f, "{g}")?;
    }
    Ok(())
}

/// Text that is not an action.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseActionError {
    /// Not one of the action words.
    #[error("`{0}` is not an action (draw, knock, pass, lay, hit, discard, skip)")]
    Unknown(String),
    /// A malformed action.
    #[error("`{text}`: {why}")]
    Malformed {
        /// The action's text.
        text: String,
        /// What is wrong.
        why: String,
    },
    /// A bad group or hit.
    #[error("`{text}`: {source}")]
    Group {
        /// The action's text.
        text: String,
        /// What is wrong.
        source: GroupError,
    },
}

/// Parses `N` (1-based) into a seat.
pub fn parse_seat(s: &str) -> Option<Seat> {
    if s.is_empty() || s.len() > 2 || !s.bytes().all(|b| b.is_ascii_digit()) || s.starts_with('0') {
        return None;
    }
    s.parse::<usize>().ok().map(|n| n - 1)
}

/// One parsed action of a log line: hits may list several cards (`hit 1.1 r5, 2.1 W=8`), and
/// `draw stock` may name the card drawn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LoggedAction {
    /// `draw stock [CARD]`
    DrawStock(Option<Card>),
    /// Any action but a stock draw; a `hit` list is split into single hits.
    Actions(Vec<Action>),
}

impl FromStr for LoggedAction {
    type Err = ParseActionError;

    fn from_str(text: &str) -> Result<LoggedAction, ParseActionError> {
        let text = text.trim();
        let malformed = |why: &str| ParseActionError::Malformed {
            text: text.to_string(),
            why: why.to_string(),
        };
        let card = |s: &str| s.parse::<Card>().map_err(|e| malformed(&e.to_string()));
        let (word, rest) = text.split_once(char::is_whitespace).unwrap_or((text, ""));
        let rest = rest.trim();
        let one = |a: Action| Ok(LoggedAction::Actions(vec![a]));
        match word.to_ascii_lowercase().as_str() {
            "draw" => {
                let (from, c) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
                let c = c.trim();
                match from.to_ascii_lowercase().as_str() {
                    "stock" if c.is_empty() => Ok(LoggedAction::DrawStock(None)),
                    "stock" => Ok(LoggedAction::DrawStock(Some(card(c)?))),
                    "discard" => one(Action::DrawDiscard(card(c)?)),
                    _ => Err(malformed("expected `draw stock` or `draw discard CARD`")),
                }
            }
            "knock" => one(Action::Knock(card(rest)?)),
            "pass" if rest.is_empty() => one(Action::Pass),
            "discard" => one(Action::Discard(card(rest)?)),
            "skip" => one(Action::Skip(
                parse_seat(rest).ok_or_else(|| malformed("expected `skip SEAT`"))?,
            )),
            "lay" => {
                let (n, groups) = rest
                    .split_once(char::is_whitespace)
                    .ok_or_else(|| malformed("expected `lay PHASE GROUP, GROUP, ...`"))?;
                let phase: u8 = n
                    .parse()
                    .ok()
                    .filter(|&p| p > 0)
                    .ok_or_else(|| malformed("the phase must be a number"))?;
                let groups = groups
                    .split(',')
                    .map(|g| g.parse::<Group>())
                    .collect::<Result<Vec<_>, _>>()
                    .map_err(|source| ParseActionError::Group {
                        text: text.to_string(),
                        source,
                    })?;
                one(Action::Lay { phase, groups })
            }
            "hit" => {
                let mut hits = Vec::new();
                for part in rest.split(',') {
                    let mut words = part.split_whitespace();
                    let (Some(target), Some(c), None) = (words.next(), words.next(), words.next())
                    else {
                        return Err(malformed("expected `hit SEAT.GROUP CARD, ...`"));
                    };
                    let (s, g) = target
                        .split_once('.')
                        .ok_or_else(|| malformed("a hit names SEAT.GROUP"))?;
                    let seat = parse_seat(s).ok_or_else(|| malformed("bad seat in SEAT.GROUP"))?;
                    let group =
                        parse_seat(g).ok_or_else(|| malformed("bad group in SEAT.GROUP"))?;
                    if let Some((w, v)) = c.split_once('=') {
                        if !w.parse::<Card>().is_ok_and(Card::is_wild) {
                            return Err(malformed(&format!(
                                "only a joker says what it stands for (`W=V`), not `{w}`"
                            )));
                        }
                        let digits = v.bytes().all(|b| b.is_ascii_digit()) && !v.starts_with('0');
                        if !digits
                            || !v
                                .parse()
                                .is_ok_and(|v| (MIN_VALUE..=MAX_VALUE).contains(&v))
                        {
                            return Err(malformed(&format!(
                                "a joker's value must be {MIN_VALUE} to {MAX_VALUE}, not `{v}`"
                            )));
                        }
                    }
                    let card = c
                        .parse::<HitCard>()
                        .map_err(|source| ParseActionError::Group {
                            text: text.to_string(),
                            source,
                        })?;
                    hits.push(Action::Hit { seat, group, card });
                }
                Ok(LoggedAction::Actions(hits))
            }
            _ => Err(ParseActionError::Unknown(text.to_string())),
        }
    }
}

/// What happened at the table, in order, for a view to animate and a log to record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// A round begins: its number (from 1) and its dealer.
    RoundStarted {
        /// Round number, from 1.
        round: u32,
        /// The dealer.
        dealer: Seat,
    },
    /// One card dealt face down to a seat.
    Dealt {
        /// The seat.
        seat: Seat,
        /// The card.
        card: Card,
    },
    /// The stock's top card turned up to start the discard pile.
    UpCard(Card),
    /// A seat lost its turn: it put the skip in front of it under the discard pile, or (first
    /// turn of a round) the up-card was a skip, which stays where it is.
    SkipServed {
        /// The seat.
        seat: Seat,
        /// True when it was the up-card.
        up_card: bool,
    },
    /// The discard pile except its top card became the new stock.
    Reshuffled {
        /// Cards in the new stock.
        cards: usize,
    },
    /// A seat drew the stock's top card.
    DrewStock {
        /// The seat.
        seat: Seat,
        /// The card.
        card: Card,
    },
    /// A seat took the discard pile's top card.
    DrewDiscard {
        /// The seat.
        seat: Seat,
        /// The card.
        card: Card,
    },
    /// A seat knocked and took the discard out of turn.
    Knocked {
        /// The seat.
        seat: Seat,
        /// The card.
        card: Card,
    },
    /// A seat laid its phase.
    Laid {
        /// The seat.
        seat: Seat,
        /// The phase's number.
        phase: u8,
        /// The groups laid.
        groups: Vec<Group>,
    },
    /// A seat added a card to a laid group.
    Hit {
        /// The seat playing the card.
        seat: Seat,
        /// The group's owner.
        target: Seat,
        /// The group (0-based).
        group: usize,
        /// The card.
        card: HitCard,
    },
    /// A seat discarded.
    Discarded {
        /// The seat.
        seat: Seat,
        /// The card.
        card: Card,
    },
    /// A seat played a skip in front of another.
    SkipPlaced {
        /// The seat playing it.
        seat: Seat,
        /// The seat that loses its next turn.
        target: Seat,
    },
    /// The round is over: hands revealed and scored.
    RoundEnded {
        /// The seat that went out, if any.
        out: Option<Seat>,
        /// Each seat's cards left.
        hands: Vec<Vec<Card>>,
        /// Points each seat added.
        points: Vec<u32>,
        /// Each seat's total after the round.
        totals: Vec<u32>,
        /// Each seat's next phase(s) as the log writes them (`3`, `2+5+9`, `done`).
        next: Vec<String>,
    },
    /// A seat moves on (after laying, or in the ten-rounds variant after every round).
    PhaseAdvanced {
        /// The seat.
        seat: Seat,
        /// Its next phase(s) as text (`done` when it has none left).
        next: String,
    },
    /// The game is over.
    GameWon {
        /// The winners (ties all win).
        winners: Vec<Seat>,
    },
}
