//! Groups of laid cards (sets, runs, colours) with their declarations, the requirements phases
//! make of them, and hits. A group says what its jokers stand for, so a laid group never changes
//! meaning: a run's k-th card is worth `A + k`, and it grows only at its two ends.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::card::{Card, Colour, MAX_VALUE, MIN_VALUE, ParseCardError};

mod notation;

/// The three kinds of group.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// Cards of one value.
    Set,
    /// Cards of consecutive values.
    Run,
    /// Cards of one colour.
    Colour,
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Kind::Set => "set",
            Kind::Run => "run",
            Kind::Colour => "colour",
        })
    }
}

/// What a phase asks of one group: its kind and the fewest cards it may have.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Need {
    /// A set of at least this many cards.
    Set(u8),
    /// A run of at least this many cards.
    Run(u8),
    /// A colour group of at least this many cards.
    Colour(u8),
}

impl Need {
    /// The group kind.
    pub fn kind(self) -> Kind {
        match self {
            Need::Set(_) => Kind::Set,
            Need::Run(_) => Kind::Run,
            Need::Colour(_) => Kind::Colour,
        }
    }

    /// The fewest cards.
    pub fn size(self) -> u8 {
        match self {
            Need::Set(n) | Need::Run(n) | Need::Colour(n) => n,
        }
    }
}

impl fmt::Display for Need {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} of {}", self.kind(), self.size())
    }
}

/// A group's declaration: the value of a set, the range of a run, the colour of a colour group.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Declaration {
    /// Every card has this value (or is `W`).
    Set(u8),
    /// The cards are worth `low..=high` in order.
    Run(u8, u8),
    /// Every card has this colour (or is `W`).
    Colour(Colour),
}

impl Declaration {
    /// The group kind.
    pub fn kind(self) -> Kind {
        match self {
            Declaration::Set(_) => Kind::Set,
            Declaration::Run(..) => Kind::Run,
            Declaration::Colour(_) => Kind::Colour,
        }
    }
}

impl fmt::Display for Declaration {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Declaration::Set(v) => write!(f, "set:{v}"),
            Declaration::Run(a, b) => write!(f, "run:{a}..{b}"),
            Declaration::Colour(c) => write!(f, "colour:{}", c.letter()),
        }
    }
}

/// Why a group or a hit is not valid.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GroupError {
    /// Unreadable text.
    #[error(
        "`{0}` is not a group (expected e.g. `set:7 r7 b7 W`, `run:3..6 r3 y4 W b6`, `colour:r r1 r5 W`)"
    )]
    Syntax(String),
    /// A card in the text is not a card.
    #[error(transparent)]
    Card(#[from] ParseCardError),
    /// The declaration is out of range.
    #[error("`{0}` is not a valid declaration (values 1 to 12, runs A..B with A < B)")]
    Declaration(String),
    /// A skip in a group.
    #[error("a skip is never part of a group")]
    Skip,
    /// A card that does not fit.
    #[error("{card} does not fit {decl}")]
    Misfit {
        /// The declaration.
        decl: Declaration,
        /// The card.
        card: Card,
    },
    /// A run with the wrong number of cards.
    #[error("{decl} holds {want} cards, not {got}")]
    RunLength {
        /// The declaration.
        decl: Declaration,
        /// Cards it needs.
        want: usize,
        /// Cards given.
        got: usize,
    },
    /// An empty group.
    #[error("a group needs at least one card")]
    Empty,
    /// A hit that does not fit.
    #[error("{card} cannot be added to {decl}{why}")]
    BadHit {
        /// The target group's declaration.
        decl: Declaration,
        /// The hit as written.
        card: HitCard,
        /// More detail.
        why: &'static str,
    },
}

/// A laid group: its declaration and its cards (a run's from low to high).
#[derive(PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Group {
    decl: Declaration,
    cards: Vec<Card>,
}

impl Clone for Group {
    fn clone(&self) -> Group {
        Group {
            decl: self.decl,
            cards: self.cards.clone(),
        }
    }

    /// Keeps this group's card list (the look-ahead players copy the table at every step).
    fn clone_from(&mut self, source: &Group) {
        let Group { decl, cards } = source;
        self.decl = *decl;
        self.cards.clone_from(cards);
    }
}

impl Group {
    /// A group, checked: every card fits the declaration.
    pub fn new(decl: Declaration, cards: Vec<Card>) -> Result<Group, GroupError> {
        check_declaration(decl)?;
        if cards.is_empty() {
            return Err(GroupError::Empty);
        }
        if cards.iter().any(|c| c.is_skip()) {
            return Err(GroupError::Skip);
        }
        match decl {
            Declaration::Set(v) => {
                if let Some(&card) = cards.iter().find(|c| !c.is_wild() && c.value() != Some(v)) {
                    return Err(GroupError::Misfit { decl, card });
                }
            }
            Declaration::Colour(col) => {
                if let Some(&card) = cards
                    .iter()
                    .find(|c| !c.is_wild() && c.colour() != Some(col))
                {
                    return Err(GroupError::Misfit { decl, card });
                }
            }
            Declaration::Run(a, b) => {
                let want = usize::from(b - a) + 1;
                if cards.len() != want {
                    return Err(GroupError::RunLength {
                        decl,
                        want,
                        got: cards.len(),
                    });
                }
                for (k, &card) in cards.iter().enumerate() {
                    if !card.is_wild() && card.value() != Some(a + k as u8) {
                        return Err(GroupError::Misfit { decl, card });
                    }
                }
            }
        }
        Ok(Group { decl, cards })
    }

    /// The declaration.
    pub fn declaration(&self) -> Declaration {
        self.decl
    }

    /// The cards, as laid (a run's from low to high).
    pub fn cards(&self) -> &[Card] {
        &self.cards
    }

    /// Number of cards.
    pub fn len(&self) -> usize {
        self.cards.len()
    }

    /// Whether the group has no cards (never true of a valid group).
    pub fn is_empty(&self) -> bool {
        self.cards.is_empty()
    }

    /// Whether this group meets `need`.
    pub fn meets(&self, need: Need) -> bool {
        self.decl.kind() == need.kind() && self.cards.len() >= usize::from(need.size())
    }

    /// Checks a hit without making it.
    pub fn check_hit(&self, hit: HitCard) -> Result<(), GroupError> {
        let bad = |why| GroupError::BadHit {
            decl: self.decl,
            card: hit,
            why,
        };
        if hit.card.is_skip() {
            return Err(GroupError::Skip);
        }
        match self.decl {
            Declaration::Set(_) | Declaration::Colour(_) => {
                if hit.stands_for.is_some() {
                    return Err(bad(" (only a joker on a run says what it stands for)"));
                }
                if hit.card.is_wild() {
                    return Ok(());
                }
                let fits = match self.decl {
                    Declaration::Set(v) => hit.card.value() == Some(v),
                    Declaration::Colour(c) => hit.card.colour() == Some(c),
                    Declaration::Run(..) => false,
                };
                if fits { Ok(()) } else { Err(bad("")) }
            }
            Declaration::Run(a, b) => {
                let v = if hit.card.is_wild() {
                    hit.stands_for
                        .ok_or(bad(" (a joker on a run is written W=V)"))?
                } else {
                    if hit.stands_for.is_some() {
                        return Err(bad(" (only a joker says what it stands for)"));
                    }
                    hit.card.value().ok_or(bad(""))?
                };
                if (a > MIN_VALUE && v == a - 1) || (b < MAX_VALUE && v == b + 1) {
                    Ok(())
                } else {
                    Err(bad(" (a run grows only at its ends, within 1 to 12)"))
                }
            }
        }
    }

    /// Adds a hit, checked.
    pub fn hit(&mut self, hit: HitCard) -> Result<(), GroupError> {
        self.check_hit(hit)?;
        match self.decl {
            Declaration::Run(a, b) => {
                let v = hit.stands_for.or(hit.card.value()).unwrap_or(a);
                if v + 1 == a {
                    self.cards.insert(0, hit.card);
                    self.decl = Declaration::Run(v, b);
                } else {
                    self.cards.push(hit.card);
                    self.decl = Declaration::Run(a, v);
                }
            }
            _ => self.cards.push(hit.card),
        }
        Ok(())
    }

    /// Whether `card` can be hit on this group now: [`Group::hits_for`] finds at least one hit
    /// (asked for every card of every playout step, so it builds no error for a card that does
    /// not fit).
    pub fn takes(&self, card: Card) -> bool {
        if card.is_skip() {
            return false;
        }
        match self.decl {
            Declaration::Run(a, b) => {
                if card.is_wild() {
                    a > MIN_VALUE || b < MAX_VALUE
                } else {
                    card.value().is_some_and(|v| {
                        (a > MIN_VALUE && v == a - 1) || (b < MAX_VALUE && v == b + 1)
                    })
                }
            }
            Declaration::Set(v) => card.is_wild() || card.value() == Some(v),
            Declaration::Colour(c) => card.is_wild() || card.colour() == Some(c),
        }
    }

    /// The cards this group takes now ([`Group::takes`]), as a mask: bit `card.index()` set for
    /// each (a look-ahead player asks about many cards of one table).
    pub fn hit_mask(&self) -> u64 {
        const JOKER: u64 = 1 << Card::WILD.index();
        // Bit 0 of each of the 12 values' four colour slots.
        const ONE_COLOUR: u64 = 0x1111_1111_1111;
        let value = |v: u8| 0xF_u64 << ((usize::from(v) - 1) * 4);
        match self.decl {
            Declaration::Set(v) => value(v) | JOKER,
            Declaration::Colour(c) => {
                let at = Card::number(c, MIN_VALUE).map_or(0, Card::index);
                (ONE_COLOUR << at) | JOKER
            }
            Declaration::Run(a, b) => {
                let mut m = 0;
                if a > MIN_VALUE {
                    m |= value(a - 1) | JOKER;
                }
                if b < MAX_VALUE {
                    m |= value(b + 1) | JOKER;
                }
                m
            }
        }
    }

    /// The hits that fit this group for a card: none, one, or two (a joker at either end of a run).
    pub fn hits_for(&self, card: Card) -> impl Iterator<Item = HitCard> + '_ {
        let options: [Option<HitCard>; 2] = match self.decl {
            Declaration::Run(a, b) if card.is_wild() => [
                (a > MIN_VALUE).then(|| HitCard::joker_as(a - 1)),
                (b < MAX_VALUE).then(|| HitCard::joker_as(b + 1)),
            ],
            _ => [Some(HitCard::plain(card)), None],
        };
        options
            .into_iter()
            .flatten()
            .filter(move |h| self.check_hit(*h).is_ok())
    }
}

fn check_declaration(decl: Declaration) -> Result<(), GroupError> {
    let ok = match decl {
        Declaration::Set(v) => (MIN_VALUE..=MAX_VALUE).contains(&v),
        Declaration::Run(a, b) => MIN_VALUE <= a && a < b && b <= MAX_VALUE,
        Declaration::Colour(_) => true,
    };
    if ok {
        Ok(())
    } else {
        Err(GroupError::Declaration(decl.to_string()))
    }
}

/// One card added to a laid group; a joker added to a run says which value it stands for.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct HitCard {
    /// The card from the hand.
    pub card: Card,
    /// For a joker on a run: the value it stands for.
    pub stands_for: Option<u8>,
}

impl HitCard {
    /// A card added as itself.
    pub fn plain(card: Card) -> HitCard {
        HitCard {
            card,
            stands_for: None,
        }
    }

    /// A joker added to a run as `value`.
    pub fn joker_as(value: u8) -> HitCard {
        HitCard {
            card: Card::WILD,
            stands_for: Some(value),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn g(s: &str) -> Group {
        s.parse().unwrap()
    }

    #[test]
    fn the_spec_examples_parse_and_print_back() {
        for s in [
            "set:7 r7 b7 W",
            "run:3..6 r3 y4 W b6",
            "colour:r r1 r5 W r9 r12 r2 r2",
            "set:4 W W W",
        ] {
            assert_eq!(g(s).to_string(), s);
        }
        assert_eq!(g("SET:7 R7 w").to_string(), "set:7 r7 W");
    }

    #[test]
    fn bad_groups_are_refused() {
        for s in [
            "set:7 r7 b8",
            "run:3..6 r3 y4 b6",
            "run:3..6 r3 y4 W b7",
            "run:6..3 W W W W",
            "run:11..13 W W W",
            "run:0..3 W W W W",
            "set:13 W",
            "set:7 r7 S",
            "colour:r r1 b2",
            "set:7",
            "pair:7 r7 r7",
        ] {
            assert!(s.parse::<Group>().is_err(), "{s}");
        }
    }

    #[test]
    fn runs_grow_only_at_their_ends_and_never_past_1_or_12() {
        let mut run = g("run:2..5 r2 b3 g4 y5");
        assert!(run.check_hit("b3".parse().unwrap()).is_err());
        run.hit("r1".parse().unwrap()).unwrap();
        assert_eq!(run.to_string(), "run:1..5 r1 r2 b3 g4 y5");
        assert!(run.check_hit(HitCard::joker_as(0)).is_err());
        assert_eq!(
            run.hits_for(Card::WILD).collect::<Vec<_>>(),
            [HitCard::joker_as(6)]
        );
        let mut top = g("run:9..12 r9 r10 r11 r12");
        assert_eq!(
            top.hits_for(Card::WILD).collect::<Vec<_>>(),
            [HitCard::joker_as(8)]
        );
        assert!(top.check_hit("r1".parse().unwrap()).is_err());
        top.hit(HitCard::joker_as(8)).unwrap();
        assert_eq!(top.to_string(), "run:8..12 W r9 r10 r11 r12");
        // The joker now stands for 8: a natural 8 no longer fits, a 7 does.
        assert!(top.check_hit("y8".parse().unwrap()).is_err());
        assert!(top.check_hit("y7".parse().unwrap()).is_ok());
    }

    #[test]
    fn joker_hits_are_checked_against_the_group_kind() {
        let set = g("set:7 r7 b7 g7");
        assert!(set.check_hit(HitCard::plain(Card::WILD)).is_ok());
        assert!(set.check_hit(HitCard::joker_as(7)).is_err());
        let run = g("run:3..6 r3 y4 W b6");
        assert!(run.check_hit(HitCard::plain(Card::WILD)).is_err());
        assert_eq!("W=7".parse::<HitCard>(), Ok(HitCard::joker_as(7)));
        assert!("r7=7".parse::<HitCard>().is_err());
        assert!("W=13".parse::<HitCard>().is_err());
    }

    #[test]
    fn takes_answers_whether_a_card_has_a_hit() {
        let mut groups = Vec::new();
        for v in MIN_VALUE..=MAX_VALUE {
            groups.push(Group::new(Declaration::Set(v), vec![Card::WILD; 3]).unwrap());
            for b in v + 1..=MAX_VALUE {
                groups.push(
                    Group::new(
                        Declaration::Run(v, b),
                        vec![Card::WILD; usize::from(b - v + 1)],
                    )
                    .unwrap(),
                );
            }
        }
        for c in Colour::ALL {
            groups.push(Group::new(Declaration::Colour(c), vec![Card::WILD; 4]).unwrap());
        }
        let mut cards = Card::deck();
        cards.sort_unstable();
        cards.dedup();
        let (mut yes, mut no) = (0, 0);
        for g in &groups {
            for &c in &cards {
                let has = g.hits_for(c).next().is_some();
                assert_eq!(g.takes(c), has, "{g} {c}");
                assert_eq!(g.hit_mask() >> c.index() & 1 == 1, has, "{g} {c}");
                if has { yes += 1 } else { no += 1 }
            }
        }
        // Both answers come up, for every kind of group.
        assert!(yes > 500 && no > 2000, "{yes} {no}");
    }
}
