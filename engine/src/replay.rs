//! Replays: a versioned RON record of a game (variant, numbering, seed, options, moves).

use serde::{Deserialize, Serialize};

use crate::deal::{DealError, Numbering};
use crate::game::{Game, GameOptions, Step, StepError};
use crate::moves::Move;
use crate::position::MoveError;
use crate::variant::Variants;

/// The replay format version this code writes and reads. Version 2 added `steps`, `secs`
/// and `assisted`; version 1 files read as they are.
pub const REPLAY_VERSION: u32 = 2;

/// A recorded game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Replay {
    /// Format version ([`REPLAY_VERSION`]).
    pub version: u32,
    /// Variant id.
    pub variant: String,
    /// How `seed` numbers the deal.
    pub numbering: Numbering,
    /// The deal number.
    pub seed: u64,
    /// The game's options.
    pub options: GameOptions,
    /// The moves in notation, from the initial deal.
    pub moves: Vec<String>,
    /// Everything played, undos and redos included (`undo`, `redo`), when the game had any;
    /// empty when it is just `moves`. Played from the deal it rebuilds the game exactly (its
    /// undo count, score and redo list), and its moves must end as `moves`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub steps: Vec<String>,
    /// Seconds on the game's clock when it was recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub secs: Option<u64>,
    /// The solver played some of the moves (an auto-complete or a demo).
    #[serde(default, skip_serializing_if = "is_false")]
    pub assisted: bool,
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// Why a replay does not verify.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReplayError {
    /// Not RON for a replay.
    #[error("{line}:{column}: {message}")]
    Syntax {
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// What was wrong.
        message: String,
    },
    /// Written by a newer Arachne.
    #[error("replay format version {0} is newer than this Arachne reads (up to {REPLAY_VERSION})")]
    FutureVersion(u32),
    /// The variant is not known.
    #[error("unknown variant `{0}`")]
    UnknownVariant(String),
    /// The deal cannot be made.
    #[error(transparent)]
    Deal(#[from] DealError),
    /// A move's text is not a move.
    #[error("move {index} (`{text}`): {message}")]
    BadMove {
        /// 1-based index in the move list.
        index: usize,
        /// The move's text.
        text: String,
        /// Why.
        message: String,
    },
    /// A step's text is not a move, `undo` or `redo`.
    #[error("step {index} (`{text}`): {message}")]
    BadStep {
        /// 1-based index in the step list.
        index: usize,
        /// The step's text.
        text: String,
        /// Why.
        message: String,
    },
    /// A step cannot be played where it is.
    #[error("step {index} (`{step}`) cannot be played: {error}")]
    IllegalStep {
        /// 1-based index.
        index: usize,
        /// The step.
        step: Step,
        /// Why.
        error: StepError,
    },
    /// The steps played leave other moves on the table than the move list says.
    #[error("the steps do not end with the listed moves")]
    StepsDisagree,
    /// A move is not legal where it is played.
    #[error("move {index} (`{mv}`) is illegal: {error}")]
    Illegal {
        /// 1-based index.
        index: usize,
        /// The move.
        mv: Move,
        /// Why.
        error: MoveError,
    },
}

impl Replay {
    /// A replay of `game`, which was dealt from `seed` in `numbering`.
    pub fn of_game(game: &Game, numbering: Numbering, seed: u64) -> Replay {
        Replay {
            version: REPLAY_VERSION,
            variant: game.position().variant().id.clone(),
            numbering,
            seed,
            options: game.options(),
            moves: game.history().map(|m| m.to_string()).collect(),
            steps: if game.steps().iter().any(|s| !matches!(s, Step::Move(_))) {
                game.steps().iter().map(Step::to_string).collect()
            } else {
                Vec::new()
            },
            secs: None,
            assisted: false,
        }
    }

    /// Reads a replay's RON text.
    pub fn from_ron(text: &str) -> Result<Replay, ReplayError> {
        let r: Replay = ron::from_str(text).map_err(|e| ReplayError::Syntax {
            line: e.span.start.line,
            column: e.span.start.col,
            message: e.code.to_string(),
        })?;
        if r.version > REPLAY_VERSION {
            return Err(ReplayError::FutureVersion(r.version));
        }
        Ok(r)
    }

    /// The replay as pretty RON.
    pub fn to_ron(&self) -> String {
        ron::ser::to_string_pretty(self, ron::ser::PrettyConfig::default())
            .unwrap_or_else(|e| unreachable!("plain data always serializes: {e}"))
    }

    /// Replays every move through the rules; returns the game at the end.
    pub fn verify(&self, variants: &Variants) -> Result<Game, ReplayError> {
        let variant = variants
            .get(&self.variant)
            .ok_or_else(|| ReplayError::UnknownVariant(self.variant.clone()))?;
        let mut game = Game::new(variant, self.seed, self.numbering, self.options)?;
        if !self.steps.is_empty() {
            for (i, text) in self.steps.iter().enumerate() {
                let step: Step = text.parse().map_err(|e: crate::moves::ParseMoveError| {
                    ReplayError::BadStep {
                        index: i + 1,
                        text: text.clone(),
                        message: e.reason.to_string(),
                    }
                })?;
                game.play_step(step)
                    .map_err(|error| ReplayError::IllegalStep {
                        index: i + 1,
                        step,
                        error,
                    })?;
            }
            if !game
                .history()
                .map(|m| m.to_string())
                .eq(self.moves.iter().cloned())
            {
                return Err(ReplayError::StepsDisagree);
            }
            return Ok(game);
        }
        for (i, text) in self.moves.iter().enumerate() {
            let mv: Move =
                text.parse()
                    .map_err(|e: crate::moves::ParseMoveError| ReplayError::BadMove {
                        index: i + 1,
                        text: text.clone(),
                        message: e.reason.to_string(),
                    })?;
            game.apply(mv).map_err(|error| ReplayError::Illegal {
                index: i + 1,
                mv,
                error,
            })?;
        }
        Ok(game)
    }
}
