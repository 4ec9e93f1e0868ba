//! Invariants over random play in every variant: cards are conserved, undo restores the exact
//! state, every listed move applies, no unlisted move applies, the text form round-trips, and
//! the events describe exactly what changed.

use std::sync::Arc;

use arachne_engine::{
    Card, DiscardMode, Event, Game, GameOptions, Move, Numbering, Position, Variant, Variants,
};
use proptest::prelude::*;

fn all_variants() -> Vec<Arc<Variant>> {
    Variants::default().iter().cloned().collect()
}

/// What a view knows: it starts from the engine's position and changes only through events.
#[derive(Debug, PartialEq, Eq)]
struct Table {
    columns: Vec<Vec<(Card, bool)>>,
    stock: Vec<Card>,
    foundation: Vec<Vec<Card>>,
}

impl Table {
    fn of(p: &Position) -> Table {
        Table {
            columns: p
                .columns()
                .iter()
                .map(|c| {
                    c.cards()
                        .iter()
                        .enumerate()
                        .map(|(i, &card)| (card, i >= c.face_down()))
                        .collect()
                })
                .collect(),
            stock: p.stock().collect(),
            foundation: p.foundation().iter().map(|r| r.to_vec()).collect(),
        }
    }

    fn take(&mut self, column: u8, n: usize) -> Vec<(Card, bool)> {
        let col = &mut self.columns[usize::from(column)];
        col.split_off(col.len() - n)
    }

    fn apply(&mut self, e: &Event) {
        match e {
            Event::Moved { from, to, cards } => {
                let moved = self.take(*from, cards.len());
                assert_eq!(moved.iter().map(|c| c.0).collect::<Vec<_>>(), *cards);
                assert!(moved.iter().all(|c| c.1), "only face-up cards move");
                self.columns[usize::from(*to)].extend(moved);
            }
            Event::TurnedUp { column, card } => {
                let top = self.columns[usize::from(*column)].last_mut().unwrap();
                assert_eq!(*top, (*card, false));
                top.1 = true;
            }
            Event::TurnedDown { column, card } => {
                let top = self.columns[usize::from(*column)].last_mut().unwrap();
                assert_eq!(*top, (*card, true));
                top.1 = false;
            }
            Event::Dealt { cards } => {
                for &(c, card) in cards {
                    assert_eq!(self.stock.remove(0), card);
                    self.columns[usize::from(c)].push((card, true));
                }
            }
            Event::Undealt { cards } => {
                for &(c, card) in cards {
                    assert_eq!(self.columns[usize::from(c)].pop(), Some((card, true)));
                    self.stock.insert(0, card);
                }
            }
            Event::RunCompleted {
                column,
                cards,
                slot,
            } => {
                let run = self.take(*column, 13);
                assert_eq!(run.iter().map(|c| c.0).collect::<Vec<_>>(), *cards);
                assert_eq!(*slot, self.foundation.len());
                self.foundation.push(cards.clone());
            }
            Event::RunRestored {
                column,
                cards,
                slot,
            } => {
                assert_eq!(*slot + 1, self.foundation.len());
                assert_eq!(self.foundation.pop().as_ref(), Some(cards));
                self.columns[usize::from(*column)].extend(cards.iter().map(|&c| (c, true)));
            }
            Event::Won => assert!(self.columns.iter().all(Vec::is_empty) && self.stock.is_empty()),
        }
    }
}

fn sorted_cards(p: &Position) -> Vec<Card> {
    let mut all: Vec<Card> = p
        .cards_in_play()
        .chain(p.foundation().iter().flatten().copied())
        .collect();
    all.sort();
    all
}

/// Any move the notation can express on this variant, legal or not.
fn arbitrary_move(n: usize, pick: u32) -> Move {
    let n = n as u32;
    match pick % 16 {
        0 => Move::Deal,
        1 => Move::Discard {
            column: ((pick / 16) % (n + 1)) as u8,
        },
        _ => Move::Transfer {
            from: ((pick / 16) % (n + 1)) as u8,
            to: ((pick / 256) % (n + 1)) as u8,
            count: ((pick / 4096) % 14) as u8,
        },
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn random_play_keeps_every_invariant(
        v in 0usize..8,
        seed in any::<u64>(),
        manual in any::<bool>(),
        picks in proptest::collection::vec(any::<u32>(), 150),
    ) {
        let variants = Variants::default();
        let variant = all_variants()[v].clone();
        let mut options = GameOptions::for_variant(&variant);
        if manual {
            options.discard = DiscardMode::Manual;
        }
        let mut game = Game::new(&variant, seed, Numbering::Arachne, options).unwrap();
        let deck = sorted_cards(game.position());
        let mut table = Table::of(game.position());
        let n = variant.column_count();
        for pick in picks {
            let legal = game.legal_moves();
            let mut unique = legal.clone();
            unique.sort();
            unique.dedup();
            prop_assert_eq!(unique.len(), legal.len(), "each move is listed once");
            // Every listed move applies, and no unlisted move does (and leaves no trace).
            for &m in &legal {
                let mut p = game.position().clone();
                prop_assert!(p.play(m).is_ok(), "{} listed but illegal", m);
            }
            let probe = arbitrary_move(n, pick.rotate_left(7));
            let mut p = game.position().clone();
            match p.play(probe) {
                Ok(_) => prop_assert!(legal.contains(&probe), "{} applied but not listed", probe),
                Err(_) => {
                    prop_assert!(!legal.contains(&probe));
                    prop_assert_eq!(&p, game.position());
                }
            }
            // The text form reads back to the same position.
            let text = game.position().to_string();
            let back = Position::parse(&text, &variants).map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
            prop_assert_eq!(&back.to_string(), &text);
            prop_assert_eq!(back.columns(), game.position().columns());
            if legal.is_empty() {
                break;
            }
            let m = legal[pick as usize % legal.len()];
            let before = game.position().clone();
            let events = game.apply(m).unwrap();
            for e in &events {
                table.apply(e);
            }
            prop_assert_eq!(&table, &Table::of(game.position()), "events after {}", m);
            prop_assert_eq!(&sorted_cards(game.position()), &deck, "cards conserved");
            // Undo restores the exact state; redo gives the same events again.
            if pick % 3 == 0 {
                for e in &game.undo().unwrap() {
                    table.apply(e);
                }
                prop_assert_eq!(game.position(), &before);
                prop_assert_eq!(&table, &Table::of(&before));
                let again = game.redo().unwrap();
                prop_assert_eq!(&again, &events);
                for e in &again {
                    table.apply(e);
                }
            }
            if game.is_won() {
                prop_assert!(events.ends_with(&[Event::Won]));
            }
        }
        // Undo all the way back reaches the deal.
        while game.can_undo() {
            for e in &game.undo().unwrap() {
                table.apply(e);
            }
        }
        prop_assert_eq!(game.position(), game.start());
        prop_assert_eq!(&table, &Table::of(game.start()));
    }

    #[test]
    fn card_and_move_text_round_trips(i in 0usize..52, from in 0u8..64, to in 0u8..64, count in 1u8..=255) {
        let card = Card::from_index(i);
        prop_assert_eq!(card.to_string().parse::<Card>(), Ok(card));
        prop_assert_eq!(card.to_string().to_lowercase().parse::<Card>(), Ok(card));
        for m in [Move::Transfer { from, to, count }, Move::Deal, Move::Discard { column: from }] {
            prop_assert_eq!(m.to_string().parse::<Move>(), Ok(m));
        }
    }

    #[test]
    fn arbitrary_text_never_panics_the_parsers(text in "\\PC{0,200}") {
        let variants = Variants::default();
        let _ = Position::parse(&text, &variants);
        let _ = text.parse::<Move>();
        let _ = text.parse::<Card>();
        let _ = arachne_engine::Replay::from_ron(&text);
        let _ = Variant::from_ron(&text, "fuzz.ron");
    }

    #[test]
    fn mangled_positions_are_rejected_or_read_never_panic(seed in any::<u64>(), v in 0usize..8, cut in any::<usize>(), junk in "[ 0-9A-Za-z|:#\n]{0,12}") {
        let variant = all_variants()[v].clone();
        let text = arachne_engine::deal(&variant, seed, Numbering::Arachne, variant.discard).unwrap().to_string();
        let mut at = cut % (text.len() + 1);
        while !text.is_char_boundary(at) {
            at -= 1;
        }
        let mangled = format!("{}{}{}", &text[..at], junk, &text[at..]);
        if let Ok(p) = Position::parse(&mangled, &Variants::default()) {
            // Whatever reads must be a whole, consistent position.
            prop_assert_eq!(sorted_cards(&p).len(), variant.deck_size());
        }
    }
}
