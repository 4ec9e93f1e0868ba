//! Pro Spider 10 cards: number cards in four colours, jokers (`W`) and skips (`S`), with the
//! notation of `shared/spec/phase10.md`. A card is one byte whose order is the canonical sort
//! order (value, then colour `r b g y`, then `W`, then `S`), so sorting a hand is sorting bytes and
//! a multiset of cards is a 50-entry count array.

use std::fmt;
use std::str::FromStr;

/// One of the four colours of the number cards.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Colour {
    /// `r`
    Red,
    /// `b`
    Blue,
    /// `g`
    Green,
    /// `y`
    Yellow,
}

impl Colour {
    /// The colours in canonical order.
    pub const ALL: [Colour; 4] = [Colour::Red, Colour::Blue, Colour::Green, Colour::Yellow];

    /// The colour's letter (`r`, `b`, `g`, `y`).
    pub const fn letter(self) -> char {
        match self {
            Colour::Red => 'r',
            Colour::Blue => 'b',
            Colour::Green => 'g',
            Colour::Yellow => 'y',
        }
    }

    /// The colour for a letter, any case.
    pub fn from_letter(c: char) -> Option<Colour> {
        match c.to_ascii_lowercase() {
            'r' => Some(Colour::Red),
            'b' => Some(Colour::Blue),
            'g' => Some(Colour::Green),
            'y' => Some(Colour::Yellow),
            _ => None,
        }
    }

    fn index(self) -> u8 {
        self as u8
    }
}

/// The lowest and highest value of a number card.
pub const MIN_VALUE: u8 = 1;
/// The highest value of a number card.
pub const MAX_VALUE: u8 = 12;
/// Distinct cards: 48 number cards, `W` and `S`.
pub const KINDS: usize = 50;
/// Cards in the deck.
pub const DECK_SIZE: usize = 108;

/// A card. Its byte is `(value - 1) * 4 + colour` for number cards, 48 for `W`, 49 for `S`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Card(u8);

impl Card {
    /// The joker.
    pub const WILD: Card = Card(48);
    /// The skip.
    pub const SKIP: Card = Card(49);

    /// A number card; `None` unless `value` is 1..=12.
    pub fn number(colour: Colour, value: u8) -> Option<Card> {
        (MIN_VALUE..=MAX_VALUE)
            .contains(&value)
            .then(|| Card((value - 1) * 4 + colour.index()))
    }

    /// The card with this index (0..50), see [`Card::index`].
    pub fn from_index(i: usize) -> Option<Card> {
        (i < KINDS).then_some(Card(i as u8))
    }

    /// Position in the canonical order, 0..50; also the slot in count arrays.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The value of a number card.
    pub fn value(self) -> Option<u8> {
        (self.0 < 48).then_some(self.0 / 4 + 1)
    }

    /// The colour of a number card.
    pub fn colour(self) -> Option<Colour> {
        (self.0 < 48).then(|| Colour::ALL[usize::from(self.0 % 4)])
    }

    /// Whether this is a joker.
    pub const fn is_wild(self) -> bool {
        self.0 == 48
    }

    /// Whether this is a skip.
    pub const fn is_skip(self) -> bool {
        self.0 == 49
    }

    /// How many copies the deck holds (2 of each number card, 8 `W`, 4 `S`).
    pub const fn copies(self) -> u8 {
        match self.0 {
            48 => 8,
            49 => 4,
            _ => 2,
        }
    }

    /// The 108 cards in canonical order.
    pub fn deck() -> Vec<Card> {
        (0..KINDS)
            .flat_map(|i| {
                let c = Card(i as u8);
                std::iter::repeat_n(c, usize::from(c.copies()))
            })
            .collect()
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.colour(), self.value()) {
            (Some(c), Some(v)) => write!(f, "{}{v}", c.letter()),
            _ if self.is_wild() => f.write_str("W"),
            _ => f.write_str("S"),
        }
    }
}

impl fmt::Debug for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Text that is not a card.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a card (a colour r, b, g or y and a value 1 to 12, or W, or S)")]
pub struct ParseCardError(pub String);

impl FromStr for Card {
    type Err = ParseCardError;

    fn from_str(s: &str) -> Result<Card, ParseCardError> {
        let err = || ParseCardError(s.to_string());
        let mut chars = s.chars();
        let first = chars.next().ok_or_else(err)?;
        let rest = chars.as_str();
        match first.to_ascii_uppercase() {
            'W' if rest.is_empty() => return Ok(Card::WILD),
            'S' if rest.is_empty() => return Ok(Card::SKIP),
            _ => {}
        }
        let colour = Colour::from_letter(first).ok_or_else(err)?;
        if rest.is_empty() || rest.len() > 2 || !rest.bytes().all(|b| b.is_ascii_digit()) {
            return Err(err());
        }
        if rest.starts_with('0') {
            return Err(err());
        }
        let value: u8 = rest.parse().map_err(|_| err())?;
        Card::number(colour, value).ok_or_else(err)
    }
}

/// Points a card left in hand scores at the end of a round.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Points {
    /// Values 1..9.
    pub low: u32,
    /// Values 10..12.
    pub high: u32,
    /// A skip.
    pub skip: u32,
    /// A joker.
    pub joker: u32,
}

impl Default for Points {
    fn default() -> Self {
        Points {
            low: 5,
            high: 10,
            skip: 15,
            joker: 20,
        }
    }
}

impl Points {
    /// The points of one card.
    pub fn of(&self, card: Card) -> u32 {
        match card.value() {
            Some(v) if v <= 9 => self.low,
            Some(_) => self.high,
            None if card.is_wild() => self.joker,
            None => self.skip,
        }
    }

    /// The points of a list of cards.
    pub fn sum(&self, cards: &[Card]) -> u32 {
        cards.iter().map(|&c| self.of(c)).sum()
    }
}

/// A multiset of cards as counts per card index.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Counts(pub [u8; KINDS]);

impl Default for Counts {
    fn default() -> Self {
        Counts([0; KINDS])
    }
}

impl fmt::Debug for Counts {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&cards_text(&self.cards()))
    }
}

impl Counts {
    /// The counts of a list of cards.
    pub fn of(cards: &[Card]) -> Counts {
        let mut c = Counts::default();
        for &card in cards {
            c.0[card.index()] += 1;
        }
        c
    }

    /// How many of `card`.
    pub fn get(&self, card: Card) -> u8 {
        self.0[card.index()]
    }

    /// Adds one `card` (a count stays at 255 at most: a round that goes on and on may see a
    /// seat let go of the same card more often than that).
    pub fn add(&mut self, card: Card) {
        let n = &mut self.0[card.index()];
        *n = n.saturating_add(1);
    }

    /// Removes one `card`; false (and no change) if there is none.
    pub fn remove(&mut self, card: Card) -> bool {
        let n = &mut self.0[card.index()];
        if *n == 0 {
            return false;
        }
        *n -= 1;
        true
    }

    /// Removes every card of `other` that is here (as [`Counts::remove`] one by one would).
    pub fn remove_all(&mut self, other: &Counts) {
        for (n, &k) in self.0.iter_mut().zip(&other.0) {
            *n = n.saturating_sub(k);
        }
    }

    /// Total cards.
    pub fn len(&self) -> usize {
        self.0.iter().map(|&n| usize::from(n)).sum()
    }

    /// Whether there are no cards.
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&n| n == 0)
    }

    /// Whether `other` is a sub-multiset of this one.
    pub fn contains(&self, other: &Counts) -> bool {
        self.0.iter().zip(other.0.iter()).all(|(a, b)| a >= b)
    }

    /// Number cards of value `v` (any colour).
    pub fn of_value(&self, v: u8) -> u8 {
        let base = usize::from(v - 1) * 4;
        self.0[base..base + 4].iter().sum()
    }

    /// The cards, sorted.
    pub fn cards(&self) -> Vec<Card> {
        let mut out = Vec::with_capacity(self.len());
        self.cards_into(&mut out);
        out
    }

    /// [`Counts::cards`] added to the end of `out`.
    pub fn cards_into(&self, out: &mut Vec<Card>) {
        for (i, &n) in self.0.iter().enumerate() {
            out.extend(std::iter::repeat_n(Card(i as u8), usize::from(n)));
        }
    }
}

/// Cards as text, space separated, in the order given.
pub fn cards_text(cards: &[Card]) -> String {
    let v: Vec<String> = cards.iter().map(Card::to_string).collect();
    v.join(" ")
}

/// Parses a space-separated list of cards (any case).
pub fn parse_cards(s: &str) -> Result<Vec<Card>, ParseCardError> {
    s.split_whitespace().map(str::parse).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notation_round_trips_and_ignores_case() {
        for card in Card::deck() {
            let text = card.to_string();
            assert_eq!(text.parse::<Card>(), Ok(card));
            assert_eq!(text.to_uppercase().parse::<Card>(), Ok(card));
        }
        assert_eq!(
            "R12".parse::<Card>().map(|c| c.to_string()),
            Ok("r12".into())
        );
        assert_eq!("w".parse::<Card>(), Ok(Card::WILD));
        assert_eq!("s".parse::<Card>(), Ok(Card::SKIP));
        for bad in ["", "r0", "r13", "r01", "x5", "W1", "S2", "r", "r+1", "r١"] {
            assert!(bad.parse::<Card>().is_err(), "{bad}");
        }
    }

    #[test]
    fn the_deck_has_108_cards_in_canonical_order() {
        let deck = Card::deck();
        assert_eq!(deck.len(), DECK_SIZE);
        assert_eq!(cards_text(&deck[..10]), "r1 r1 b1 b1 g1 g1 y1 y1 r2 r2");
        assert_eq!(deck.iter().filter(|c| c.is_wild()).count(), 8);
        assert_eq!(deck.iter().filter(|c| c.is_skip()).count(), 4);
        assert!(deck.windows(2).all(|w| w[0] <= w[1]));
        let mut hand = parse_cards("S W y12 r3 b3 W r10").unwrap();
        hand.sort();
        assert_eq!(cards_text(&hand), "r3 b3 r10 y12 W W S");
    }

    #[test]
    fn points_follow_the_rulebook() {
        let p = Points::default();
        let hand = parse_cards("r1 g9 b10 y12 W S").unwrap();
        assert_eq!(
            hand.iter().map(|&c| p.of(c)).collect::<Vec<_>>(),
            [5, 5, 10, 10, 20, 15]
        );
        assert_eq!(p.sum(&hand), 65);
    }
}
