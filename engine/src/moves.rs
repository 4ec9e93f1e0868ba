//! Moves and their notation: `3>7:4`, `deal`, `3>f`.

use std::fmt;
use std::str::FromStr;

/// A player's move. Columns are 0-based here and 1-based in the notation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Move {
    /// Move the top `count` cards of column `from` onto column `to`.
    Transfer {
        /// Source column (0-based).
        from: u8,
        /// Destination column (0-based).
        to: u8,
        /// Number of cards, at least 1.
        count: u8,
    },
    /// Deal one row from the stock.
    Deal,
    /// Remove the completed run on top of `column` to the foundation (manual discard only).
    Discard {
        /// The column (0-based).
        column: u8,
    },
}

impl Move {
    /// A transfer given with 1-based column numbers, as in the notation.
    pub fn transfer(from_1: u8, to_1: u8, count: u8) -> Move {
        Move::Transfer {
            from: from_1.saturating_sub(1),
            to: to_1.saturating_sub(1),
            count,
        }
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Move::Transfer { from, to, count } => {
                write!(f, "{}>{}:{}", u16::from(from) + 1, u16::from(to) + 1, count)
            }
            Move::Deal => f.write_str("deal"),
            Move::Discard { column } => write!(f, "{}>f", u16::from(column) + 1),
        }
    }
}

/// Why a move's text could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "`{text}` is not a move (expected `FROM>TO:COUNT` like `3>7:4`, `deal`, or `N>f`): {reason}"
)]
pub struct ParseMoveError {
    /// The text that was given.
    pub text: String,
    /// What was wrong with it.
    pub reason: &'static str,
}

fn column_number(s: &str) -> Result<u8, &'static str> {
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
        return Err("a column must be a number");
    }
    match s.parse::<u8>() {
        Ok(0) => Err("columns are numbered from 1"),
        Ok(n) if usize::from(n) <= crate::variant::MAX_COLUMNS => Ok(n - 1),
        _ => Err("column number too large"),
    }
}

impl FromStr for Move {
    type Err = ParseMoveError;

    fn from_str(s: &str) -> Result<Move, ParseMoveError> {
        let err = |reason| ParseMoveError {
            text: s.to_string(),
            reason,
        };
        if s.eq_ignore_ascii_case("deal") {
            return Ok(Move::Deal);
        }
        let (from, rest) = s.split_once('>').ok_or_else(|| err("missing `>`"))?;
        let from = column_number(from).map_err(err)?;
        if rest.eq_ignore_ascii_case("f") {
            return Ok(Move::Discard { column: from });
        }
        let (to, count) = rest
            .split_once(':')
            .ok_or_else(|| err("missing `:COUNT`"))?;
        let to = column_number(to).map_err(err)?;
        if count.is_empty() || !count.bytes().all(|b| b.is_ascii_digit()) {
            return Err(err("the count must be a number"));
        }
        let count = match count.parse::<u8>() {
            Ok(0) => return Err(err("the count must be at least 1")),
            Ok(n) => n,
            Err(_) => return Err(err("count too large")),
        };
        Ok(Move::Transfer { from, to, count })
    }
}

/// Parses a space-separated move list.
pub fn parse_move_list(text: &str) -> Result<Vec<Move>, ParseMoveError> {
    text.split_whitespace().map(str::parse).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notation_round_trips() {
        for text in ["3>7:4", "10>1:13", "deal", "3>f", "20>19:1"] {
            let m: Move = text.parse().expect(text);
            assert_eq!(m.to_string(), text);
        }
        assert_eq!(
            "3>7:4".parse(),
            Ok(Move::Transfer {
                from: 2,
                to: 6,
                count: 4
            })
        );
        assert_eq!("DEAL".parse(), Ok(Move::Deal));
        assert_eq!("12>F".parse(), Ok(Move::Discard { column: 11 }));
    }

    #[test]
    fn bad_moves_are_rejected_with_a_reason() {
        for (text, reason) in [
            ("0>1:1", "columns are numbered from 1"),
            ("1>2", "missing `:COUNT`"),
            ("1>2:0", "the count must be at least 1"),
            ("1-2:1", "missing `>`"),
            ("a>2:1", "a column must be a number"),
            ("1>2:x", "the count must be a number"),
            ("1>2:-1", "the count must be a number"),
            ("99>2:1", "column number too large"),
            ("", "missing `>`"),
        ] {
            assert_eq!(
                text.parse::<Move>().map_err(|e| e.reason),
                Err(reason),
                "{text}"
            );
        }
    }

    #[test]
    fn move_lists() {
        assert_eq!(
            parse_move_list(" 1>2:1  deal\n3>f "),
            Ok(vec![
                Move::transfer(1, 2, 1),
                Move::Deal,
                Move::Discard { column: 2 }
            ])
        );
    }
}
