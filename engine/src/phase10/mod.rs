//! Pro Spider 10 (the rummy game known elsewhere as Phase 10): cards, groups, phases, variants as
//! data, the game's rules with events, its `.p10` log and checker, and computer players that see
//! only their own seat. The contract is `shared/spec/phase10.md`.

pub mod action;
pub mod ai;
pub mod card;
pub mod check;
pub mod game;
pub mod group;
pub mod log;
pub mod meld;
pub mod play;
pub mod remote;
pub mod resume;
mod rules;
pub mod sheet;
pub mod variant;
pub mod view;

pub use action::{Action, Event, LoggedAction, ParseActionError, Seat};
pub use card::{Card, Colour, Counts, ParseCardError, Points};
pub use check::{CheckError, CheckReport, check};
pub use game::{Game, GameError, Stage, Standing};
pub use group::{Declaration, Group, GroupError, HitCard, Kind, Need};
pub use log::{LogWriter, parse_log};
pub use meld::{can_lay, lay_options, meld};
pub use play::{PlayError, PlayedGame, play_game};
pub use resume::{ResumeError, Resumed, Step, resume};
pub use sheet::{ScoreSheet, SheetRow};
pub use variant::{P10Variant, P10VariantError, Phase, standard_phases};
pub use view::{SeatView, ViewRef};
