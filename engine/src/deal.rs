//! Deal numbering: from (variant, seed) to the initial position, the same on every platform.

use std::fmt;
use std::str::FromStr;
use std::sync::Arc;

use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};
use serde::{Deserialize, Serialize};

use crate::card::{Card, Rank};
use crate::position::{Column, Position};
use crate::variant::{DiscardMode, Variant};

/// Which numbering turns a seed into a deal.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Numbering {
    /// Arachne's own: canonical deck, Fisher-Yates with ChaCha8, dealt column by column.
    #[default]
    Arachne,
    /// KDE KPatience's numbering for the classic 10-column two-deck variants.
    Kpat,
}

impl fmt::Display for Numbering {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Numbering::Arachne => "arachne",
            Numbering::Kpat => "kpat",
        })
    }
}

impl FromStr for Numbering {
    type Err = DealError;

    fn from_str(s: &str) -> Result<Numbering, DealError> {
        match s.to_ascii_lowercase().as_str() {
            "arachne" => Ok(Numbering::Arachne),
            "kpat" => Ok(Numbering::Kpat),
            _ => Err(DealError::UnknownNumbering(s.to_string())),
        }
    }
}

/// Why a deal could not be made.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DealError {
    /// Not `arachne` or `kpat`.
    #[error("unknown numbering `{0}` (expected `arachne` or `kpat`)")]
    UnknownNumbering(String),
    /// The variant has no KPatience numbering.
    #[error(
        "variant `{0}` has no KPatience numbering (only spider-1suit, spider-2suit and spider-4suit do)"
    )]
    NoKpatNumbering(String),
    /// KPatience numbers are 32-bit.
    #[error("KPatience deal numbers go up to 4294967295, not {0}")]
    KpatSeedTooLarge(u64),
}

/// A uniform number in `0..n` from the generator's 32-bit outputs by rejection, written out here
/// so the deal never depends on a library's sampling algorithm.
fn below(rng: &mut ChaCha8Rng, n: u32) -> u32 {
    let limit = u32::MAX - u32::MAX % n;
    loop {
        let x = rng.next_u32();
        if x < limit {
            return x % n;
        }
    }
}

/// The initial position for `seed` in `numbering`, with the given discard mode.
pub fn deal(
    variant: &Arc<Variant>,
    seed: u64,
    numbering: Numbering,
    discard: DiscardMode,
) -> Result<Position, DealError> {
    match numbering {
        Numbering::Arachne => Ok(deal_arachne(variant, seed, discard)),
        Numbering::Kpat => deal_kpat(variant, seed, discard),
    }
}

fn deal_arachne(variant: &Arc<Variant>, seed: u64, discard: DiscardMode) -> Position {
    let mut key = [0u8; 32];
    key[..8].copy_from_slice(&seed.to_le_bytes());
    let mut rng = ChaCha8Rng::from_seed(key);
    let mut cards = variant.deck();
    for i in (1..cards.len()).rev() {
        let j = below(&mut rng, i as u32 + 1) as usize;
        cards.swap(i, j);
    }
    // Column by column, bottom card first; the rest is the stock, next dealt first.
    let mut next = cards.into_iter();
    let columns = variant
        .column_layout()
        .map(|(down, up)| {
            let n = usize::from(down) + usize::from(up);
            Column::new(next.by_ref().take(n).collect(), usize::from(down))
        })
        .collect();
    Position::from_parts(
        variant.clone(),
        discard,
        columns,
        next.collect(),
        Vec::new(),
    )
}

fn deal_kpat(
    variant: &Arc<Variant>,
    seed: u64,
    discard: DiscardMode,
) -> Result<Position, DealError> {
    let suits = variant
        .kpat_suits
        .as_ref()
        .ok_or_else(|| DealError::NoKpatNumbering(variant.id.clone()))?;
    let mut state = u32::try_from(seed).map_err(|_| DealError::KpatSeedTooLarge(seed))?;
    let mut deck: Vec<Card> = (0..2)
        .flat_map(|_| {
            Rank::ALL
                .into_iter()
                .flat_map(|r| suits.iter().map(move |&s| Card::new(r, s)))
        })
        .collect();
    for i in (2..=deck.len()).rev() {
        state = state.wrapping_mul(214013).wrapping_add(2531011);
        let r = ((state >> 16) & 0x7fff) as usize;
        deck.swap(i - 1, r % i);
    }
    // T[0], T[1], ... are taken from the end of the shuffled deck.
    let t: Vec<Card> = deck.into_iter().rev().collect();
    let mut columns: Vec<Vec<Card>> = vec![Vec::new(); 10];
    for (k, &card) in t[..44].iter().enumerate() {
        columns[k % 10].push(card);
    }
    let face_down: Vec<usize> = columns.iter().map(Vec::len).collect();
    for (j, &card) in t[44..54].iter().enumerate() {
        columns[(4 + j) % 10].push(card);
    }
    let stock: Vec<Card> = (0..5)
        .flat_map(|d| (1..=10).map(move |c| (d, c)))
        .map(|(d, c)| t[54 + 10 * d + 10 - c])
        .collect();
    let columns = columns
        .into_iter()
        .zip(face_down)
        .map(|(cards, down)| Column::new(cards, down))
        .collect();
    Ok(Position::from_parts(
        variant.clone(),
        discard,
        columns,
        stock,
        Vec::new(),
    ))
}
