//! Cards, ranks, suits and colours, with their text notation (`As`, `Th`, `Kd`, `9c`).

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// A card colour: the grouping rule of Red-Black Spider.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    /// Spades and clubs.
    Black,
    /// Hearts and diamonds.
    Red,
}

/// A card suit. The notation letters are `s h d c`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Suit {
    /// Spades (`s`).
    Spades = 0,
    /// Hearts (`h`).
    Hearts = 1,
    /// Diamonds (`d`).
    Diamonds = 2,
    /// Clubs (`c`).
    Clubs = 3,
}

impl Suit {
    /// All four suits in notation order.
    pub const ALL: [Suit; 4] = [Suit::Spades, Suit::Hearts, Suit::Diamonds, Suit::Clubs];

    /// The suit's colour.
    pub const fn color(self) -> Color {
        match self {
            Suit::Spades | Suit::Clubs => Color::Black,
            Suit::Hearts | Suit::Diamonds => Color::Red,
        }
    }

    /// The notation letter (`s`, `h`, `d`, `c`).
    pub const fn letter(self) -> char {
        match self {
            Suit::Spades => 's',
            Suit::Hearts => 'h',
            Suit::Diamonds => 'd',
            Suit::Clubs => 'c',
        }
    }

    /// The suit for a notation letter, in either case.
    pub fn from_letter(c: char) -> Option<Suit> {
        match c.to_ascii_lowercase() {
            's' => Some(Suit::Spades),
            'h' => Some(Suit::Hearts),
            'd' => Some(Suit::Diamonds),
            'c' => Some(Suit::Clubs),
            _ => None,
        }
    }

    /// The suit's plain English name.
    pub const fn name(self) -> &'static str {
        match self {
            Suit::Spades => "spades",
            Suit::Hearts => "hearts",
            Suit::Diamonds => "diamonds",
            Suit::Clubs => "clubs",
        }
    }

    const fn from_index(i: u8) -> Suit {
        match i & 3 {
            0 => Suit::Spades,
            1 => Suit::Hearts,
            2 => Suit::Diamonds,
            _ => Suit::Clubs,
        }
    }
}

/// A card rank, Ace (1, low) to King (13).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Rank {
    /// Ace (`A`), the lowest rank: nothing builds on it.
    Ace = 1,
    /// Two.
    Two,
    /// Three.
    Three,
    /// Four.
    Four,
    /// Five.
    Five,
    /// Six.
    Six,
    /// Seven.
    Seven,
    /// Eight.
    Eight,
    /// Nine.
    Nine,
    /// Ten (`T`; `10` is accepted on input).
    Ten,
    /// Jack (`J`).
    Jack,
    /// Queen (`Q`).
    Queen,
    /// King (`K`), the highest rank: it goes only into an empty column.
    King,
}

impl Rank {
    /// All ranks from Ace to King.
    pub const ALL: [Rank; 13] = [
        Rank::Ace,
        Rank::Two,
        Rank::Three,
        Rank::Four,
        Rank::Five,
        Rank::Six,
        Rank::Seven,
        Rank::Eight,
        Rank::Nine,
        Rank::Ten,
        Rank::Jack,
        Rank::Queen,
        Rank::King,
    ];

    /// The rank's number, 1 (Ace) to 13 (King).
    pub const fn value(self) -> u8 {
        self as u8
    }

    /// The rank with number `v` (1..=13).
    pub fn from_value(v: u8) -> Option<Rank> {
        Rank::ALL.get(usize::from(v).wrapping_sub(1)).copied()
    }

    /// The notation character (`A 2 3 4 5 6 7 8 9 T J Q K`).
    pub const fn letter(self) -> char {
        const LETTERS: [u8; 13] = *b"A23456789TJQK";
        LETTERS[self as usize - 1] as char
    }
}

/// A playing card, packed in one byte (`suit * 16 + rank`), so positions stay small and fast to copy.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Card(u8);

impl Card {
    /// The card of this rank and suit.
    pub const fn new(rank: Rank, suit: Suit) -> Card {
        Card(((suit as u8) << 4) | rank as u8)
    }

    /// The card's byte (for compact encodings inside the crate).
    pub(crate) const fn to_byte(self) -> u8 {
        self.0
    }

    /// The card of a byte from [`Card::to_byte`].
    pub(crate) const fn from_byte(b: u8) -> Card {
        Card(b)
    }

    /// The card's rank.
    pub const fn rank(self) -> Rank {
        Rank::ALL[(self.0 & 15) as usize - 1]
    }

    /// The rank's number, 1 (Ace) to 13 (King), without going through [`Rank`].
    #[inline]
    pub const fn rank_value(self) -> u8 {
        self.0 & 15
    }

    /// The card's suit.
    pub const fn suit(self) -> Suit {
        Suit::from_index(self.0 >> 4)
    }

    /// The card's colour.
    pub const fn color(self) -> Color {
        self.suit().color()
    }

    /// A dense index 0..52 (`suit * 13 + rank - 1`), for tables indexed by card.
    pub const fn index(self) -> usize {
        (self.0 >> 4) as usize * 13 + (self.0 & 15) as usize - 1
    }

    /// The card with dense index `i` (0..52).
    pub const fn from_index(i: usize) -> Card {
        Card::new(Rank::ALL[i % 13], Suit::from_index((i / 13) as u8))
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.rank().letter(), self.suit().letter())
    }
}

impl fmt::Debug for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Why a card's text could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{text}` is not a card (expected a rank A 2-9 T J Q K then a suit s h d c, e.g. `Th`)")]
pub struct ParseCardError {
    /// The text that was given.
    pub text: String,
}

impl FromStr for Card {
    type Err = ParseCardError;

    fn from_str(s: &str) -> Result<Card, ParseCardError> {
        let err = || ParseCardError {
            text: s.to_string(),
        };
        let mut chars = s.chars();
        let suit = chars
            .next_back()
            .and_then(Suit::from_letter)
            .ok_or_else(err)?;
        let rank = match chars.as_str().to_ascii_uppercase().as_str() {
            "A" => Rank::Ace,
            "T" | "10" => Rank::Ten,
            "J" => Rank::Jack,
            "Q" => Rank::Queen,
            "K" => Rank::King,
            r if r.len() == 1 && ('2'..='9').contains(&r.chars().next().unwrap_or('0')) => {
                Rank::from_value(r.as_bytes()[0] - b'0').ok_or_else(err)?
            }
            _ => return Err(err()),
        };
        Ok(Card::new(rank, suit))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_card_round_trips_through_its_notation() {
        for i in 0..52 {
            let card = Card::from_index(i);
            assert_eq!(card.index(), i);
            let text = card.to_string();
            assert_eq!(text.parse::<Card>(), Ok(card), "{text}");
        }
    }

    #[test]
    fn input_accepts_ten_and_any_case() {
        assert_eq!("10h".parse(), Ok(Card::new(Rank::Ten, Suit::Hearts)));
        assert_eq!("kD".parse(), Ok(Card::new(Rank::King, Suit::Diamonds)));
        assert_eq!(
            "aS".parse::<Card>().map(|c| c.to_string()),
            Ok("As".to_string())
        );
    }

    #[test]
    fn bad_cards_are_rejected() {
        for bad in ["", "A", "s", "1s", "11h", "Zs", "Ax", "As ", "0c"] {
            assert!(bad.parse::<Card>().is_err(), "{bad:?}");
        }
    }

    #[test]
    fn colours() {
        assert_eq!(Card::new(Rank::Two, Suit::Hearts).color(), Color::Red);
        assert_eq!(Card::new(Rank::Two, Suit::Diamonds).color(), Color::Red);
        assert_eq!(Card::new(Rank::Two, Suit::Clubs).color(), Color::Black);
        assert_eq!(Card::new(Rank::Two, Suit::Spades).color(), Color::Black);
    }
}
