//! Pro Spider 10 (the rummy game known elsewhere as Phase 10): cards, groups, phases, variants as
//! data, the game's rules with events, its `.p10` log and checker, and computer players that see
//! only their own seat. The contract is `shared/spec/phase10.md`.

pub mod action;
pub mod card;
pub mod game;
pub mod group;
pub mod meld;
mod rules;
pub mod variant;

pub use action::{Action, Event, LoggedAction, ParseActionError, Seat};
pub use card::{Card, Colour, Counts, ParseCardError, Points};
pub use game::{Game, GameError, Stage, Standing};
pub use group::{Declaration, Group, GroupError, HitCard, Kind, Need};
pub use meld::{can_lay, lay_options, meld};
pub use variant::{P10Variant, P10VariantError, Phase, standard_phases};
