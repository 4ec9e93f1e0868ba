//! Position text (`.pos`): reading with line-numbered errors, and the canonical printed form.

use std::fmt;
use std::sync::Arc;

use crate::card::{Card, Rank};
use crate::position::{Column, Position, Run};
use crate::variant::{DiscardMode, Grouping, Variant, Variants};

/// Why a position's text was rejected. Line numbers are 1-based.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    /// A line could not be read.
    #[error("line {line}: {message}")]
    Line {
        /// The line.
        line: usize,
        /// What was wrong.
        message: String,
    },
    /// The position as a whole does not add up.
    #[error("{0}")]
    Invalid(String),
}

fn line_err(line: usize, message: impl Into<String>) -> PositionError {
    PositionError::Line {
        line,
        message: message.into(),
    }
}

fn parse_cards(text: &str, line: usize) -> Result<Vec<Card>, PositionError> {
    text.split_whitespace()
        .map(|t| t.parse::<Card>().map_err(|e| line_err(line, e.to_string())))
        .collect()
}

impl Position {
    /// Reads a position; the variant must be one of `variants`.
    pub fn parse(text: &str, variants: &Variants) -> Result<Position, PositionError> {
        let mut variant: Option<(Arc<Variant>, usize)> = None;
        let mut discard: Option<(DiscardMode, usize)> = None;
        let mut stock: Option<(Vec<Card>, usize)> = None;
        let mut foundation: Option<(usize, usize)> = None;
        let mut columns: Vec<(usize, Column, usize)> = Vec::new();

        for (i, raw) in text.lines().enumerate() {
            let line = i + 1;
            let content = raw.split('#').next().unwrap_or("").trim();
            if content.is_empty() {
                continue;
            }
            let (key, value) = content.split_once(':').ok_or_else(|| {
                line_err(line, format!("expected `key: value`, found `{content}`"))
            })?;
            let (key, value) = (key.trim(), value.trim());
            let seen_at = |found: Option<usize>| match found {
                Some(first) => Err(line_err(
                    line,
                    format!("`{key}` was already given on line {first}"),
                )),
                None => Ok(()),
            };
            match key.to_ascii_lowercase().as_str() {
                "variant" => {
                    seen_at(variant.as_ref().map(|v| v.1))?;
                    let v = variants.get(value).ok_or_else(|| {
                        line_err(
                            line,
                            format!("unknown variant `{value}` (see `arachne-cli variants`)"),
                        )
                    })?;
                    variant = Some((v.clone(), line));
                }
                "discard" => {
                    seen_at(discard.map(|d| d.1))?;
                    let d = DiscardMode::from_keyword(value).ok_or_else(|| {
                        line_err(
                            line,
                            format!("discard must be `auto` or `manual`, not `{value}`"),
                        )
                    })?;
                    discard = Some((d, line));
                }
                "stock" => {
                    seen_at(stock.as_ref().map(|s| s.1))?;
                    stock = Some((parse_cards(value, line)?, line));
                }
                "foundation" => {
                    seen_at(foundation.map(|f| f.1))?;
                    let n = value.parse::<usize>().map_err(|_| {
                        line_err(
                            line,
                            format!("foundation must be a number of completed runs, not `{value}`"),
                        )
                    })?;
                    foundation = Some((n, line));
                }
                k if !k.is_empty() && k.bytes().all(|b| b.is_ascii_digit()) => {
                    let number: usize = k
                        .parse()
                        .map_err(|_| line_err(line, format!("column number `{k}` is too large")))?;
                    if number == 0 {
                        return Err(line_err(line, "columns are numbered from 1"));
                    }
                    if let Some((_, _, first)) = columns.iter().find(|c| c.0 == number) {
                        return Err(line_err(
                            line,
                            format!("column {number} was already given on line {first}"),
                        ));
                    }
                    let (down, up) = match value.split_once('|') {
                        Some((down, up)) => {
                            if up.contains('|') {
                                return Err(line_err(line, "a column has at most one `|`"));
                            }
                            (parse_cards(down, line)?, parse_cards(up, line)?)
                        }
                        None => (Vec::new(), parse_cards(value, line)?),
                    };
                    if up.is_empty() && !down.is_empty() {
                        return Err(line_err(
                            line,
                            format!(
                                "column {number} has a face-down card on top (every column's top card is face up)"
                            ),
                        ));
                    }
                    let face_down = down.len();
                    let mut cards = down;
                    cards.extend(up);
                    columns.push((number, Column::new(cards, face_down), line));
                }
                _ => return Err(line_err(line, format!("unknown key `{key}`"))),
            }
        }

        let (variant, _) =
            variant.ok_or_else(|| PositionError::Invalid("missing `variant:` line".into()))?;
        let (stock, _) =
            stock.ok_or_else(|| PositionError::Invalid("missing `stock:` line".into()))?;
        let (foundation, _) = foundation
            .ok_or_else(|| PositionError::Invalid("missing `foundation:` line".into()))?;
        let discard = discard.map_or(variant.discard, |d| d.0);
        let n = variant.column_count();
        if let Some((number, _, line)) = columns.iter().find(|c| c.0 > n) {
            return Err(line_err(
                *line,
                format!(
                    "column {number} does not exist: {} has {n} columns",
                    variant.id
                ),
            ));
        }
        columns.sort_by_key(|c| c.0);
        if let Some(missing) = (1..=n).find(|k| columns.get(k - 1).is_none_or(|c| c.0 != *k)) {
            return Err(PositionError::Invalid(format!(
                "missing line for column {missing}"
            )));
        }
        let columns: Vec<Column> = columns.into_iter().map(|c| c.1).collect();
        let runs = foundation_runs(&variant, &columns, &stock, foundation)?;
        let pos = Position::from_parts(variant, discard, columns, stock, runs);
        // (A completed run under other cards is refused too: no move or deal can bury one when
        // discard is automatic, and a move that uncovered it would not discard it.)
        if discard == DiscardMode::Automatic
            && let Some(c) = (0..n).find(|&c| pos.holds_completed_run(c))
        {
            let place = if pos.has_completed_run(c) {
                "on top"
            } else {
                "under other cards"
            };
            return Err(PositionError::Invalid(format!(
                "column {} has a completed run {place}, but discard is automatic (it would already have left)",
                c + 1
            )));
        }
        Ok(pos)
    }
}

/// Works out the foundation's runs from the cards missing from the table and stock, checking
/// that every card adds up.
fn foundation_runs(
    variant: &Variant,
    columns: &[Column],
    stock: &[Card],
    runs: usize,
) -> Result<Vec<Run>, PositionError> {
    let mut present = [0usize; 52];
    for c in columns.iter().flat_map(|c| c.cards()).chain(stock) {
        present[c.index()] += 1;
    }
    let mut missing = [0usize; 52];
    for i in 0..52 {
        let card = Card::from_index(i);
        let deck = variant.copies_of(card);
        if present[i] > deck {
            return Err(PositionError::Invalid(format!(
                "card {card}: {} on the table and in the stock, but the {} deck holds {deck}",
                present[i], variant.id
            )));
        }
        missing[i] = deck - present[i];
    }
    // Group the suits the way completed runs are grouped; each group's missing cards must be
    // the same number of every rank: that number is the group's completed runs.
    let groups: Vec<Vec<crate::card::Suit>> = match variant.grouping {
        Grouping::Suit => variant.suits.iter().map(|&s| vec![s]).collect(),
        Grouping::Color => {
            let mut g: Vec<Vec<crate::card::Suit>> = Vec::new();
            for &s in &variant.suits {
                match g.iter_mut().find(|g| g[0].color() == s.color()) {
                    Some(group) => group.push(s),
                    None => g.push(vec![s]),
                }
            }
            g
        }
    };
    let mut result = Vec::new();
    for group in &groups {
        let count_of = |r: Rank| -> usize {
            group
                .iter()
                .map(|&s| missing[Card::new(r, s).index()])
                .sum()
        };
        // The group's completed runs: the number of missing cards most ranks agree on (a
        // lost or extra card changes one rank's count, whichever rank it is).
        let counts = Rank::ALL.map(count_of);
        let runs_here = counts
            .iter()
            .copied()
            .max_by_key(|&c| {
                (
                    counts.iter().filter(|&&d| d == c).count(),
                    std::cmp::Reverse(c),
                )
            })
            .unwrap_or(0);
        if let Some((r, m)) = Rank::ALL.iter().zip(counts).find(|&(_, m)| m != runs_here) {
            let r = *r;
            let deck: usize = group
                .iter()
                .map(|&s| variant.copies_of(Card::new(r, s)))
                .sum();
            // The cards of this rank that can be the odd one: one of those missing if too
            // many are missing, one of those present if too few are.
            let odd: Vec<Card> = group
                .iter()
                .map(|&s| Card::new(r, s))
                .filter(|c| {
                    if m > runs_here {
                        missing[c.index()] > 0
                    } else {
                        missing[c.index()] < variant.copies_of(*c)
                    }
                })
                .collect();
            let what = match odd.as_slice() {
                [card] => format!("card {card}"),
                _ => format!(
                    "{} {} ({})",
                    if group[0].color() == crate::card::Color::Red {
                        "red"
                    } else {
                        "black"
                    },
                    r.letter(),
                    odd.iter()
                        .map(|c| c.to_string())
                        .collect::<Vec<_>>()
                        .join(" or ")
                ),
            };
            return Err(PositionError::Invalid(format!(
                "cards do not add up: {what}: {} on the table and in the stock, but {} expected ({deck} in the deck, {runs_here} in completed runs going by the other ranks)",
                deck - m,
                deck - runs_here
            )));
        }
        let king_runs = runs_here;
        for _ in 0..king_runs {
            let mut run = [Card::new(Rank::King, group[0]); 13];
            for (slot, r) in Rank::ALL.iter().rev().enumerate() {
                let s = group
                    .iter()
                    .copied()
                    .find(|&s| missing[Card::new(*r, s).index()] > 0)
                    .unwrap_or_else(|| unreachable!("counted above"));
                missing[Card::new(*r, s).index()] -= 1;
                run[slot] = Card::new(*r, s);
            }
            result.push(run);
        }
    }
    if result.len() != runs {
        return Err(PositionError::Invalid(format!(
            "foundation says {runs} completed run(s), but the cards missing from the table and stock make {}",
            result.len()
        )));
    }
    Ok(result)
}

fn write_cards(f: &mut fmt::Formatter<'_>, cards: impl Iterator<Item = Card>) -> fmt::Result {
    for c in cards {
        write!(f, " {c}")?;
    }
    Ok(())
}

impl fmt::Display for Position {
    /// The canonical position text.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "variant: {}", self.variant().id)?;
        if self.discard() != self.variant().discard {
            writeln!(f, "discard: {}", self.discard().keyword())?;
        }
        f.write_str("stock:")?;
        write_cards(f, self.stock())?;
        writeln!(f)?;
        writeln!(f, "foundation: {}", self.foundation().len())?;
        for (i, col) in self.columns().iter().enumerate() {
            write!(f, "{}:", i + 1)?;
            let (down, up) = col.cards().split_at(col.face_down());
            write_cards(f, down.iter().copied())?;
            if !down.is_empty() {
                f.write_str(" |")?;
            }
            write_cards(f, up.iter().copied())?;
            writeln!(f)?;
        }
        Ok(())
    }
}
