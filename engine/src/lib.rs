//! Arachne's rules engine: the Spider family of solitaire games as data, their notation,
//! deal numbering, games with undo and events, and replays. No rendering and no I/O beyond
//! reading variant files.
//!
//! Data flows one way: a [`Move`] goes into [`Game::apply`], which returns the [`Event`]s a
//! view animates. [`Position::play`] and [`Position::unplay`] hold the rules themselves.

#![warn(missing_docs)]

pub mod card;
mod clock;
pub mod deal;
pub mod game;
pub mod moves;
pub mod notation;
pub mod phase10;
pub mod position;
pub mod remote;
pub mod replay;
pub mod solver;
pub mod variant;

/// The program's arguments after its name, as text. An argument that is not UTF-8 (a file name
/// in another encoding, say) is an error that shows it, where `std::env::args` would panic.
pub fn arguments() -> Result<Vec<String>, String> {
    std::env::args_os()
        .skip(1)
        .enumerate()
        .map(|(i, a)| {
            a.into_string().map_err(|a| {
                format!(
                    "argument {} is not UTF-8 text: {}",
                    i + 1,
                    a.to_string_lossy()
                )
            })
        })
        .collect()
}

pub use card::{Card, Color, ParseCardError, Rank, Suit};
pub use deal::{DealError, Numbering, deal};
pub use game::{Event, Game, GameOptions, HistoryError, Step, StepError};
pub use moves::{Move, ParseMoveError, parse_move_list};
pub use notation::PositionError;
pub use position::{Column, MoveError, Position, Run, Undo};
pub use replay::{REPLAY_VERSION, Replay, ReplayError};
pub use solver::{Budget, Report, Verdict, solve};
pub use variant::{
    ColumnGroup, Difficulty, DiscardMode, Grouping, Scoring, Variant, VariantError, Variants,
};
