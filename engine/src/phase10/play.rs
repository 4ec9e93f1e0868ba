//! Plays a whole game between deciders (computer levels or outside programs) and writes its log.
//! The deciders see only [`SeatView`]s and the public log lines.

use std::sync::Arc;

use rand_core::Rng;

use super::action::{Action, Seat};
use super::game::{Game, Stage, round_rng};
use super::log::LogWriter;
use super::variant::P10Variant;
use super::view::SeatView;

/// A finished game.
#[derive(Clone, Debug)]
pub struct PlayedGame {
    /// Its `.p10` log.
    pub log: String,
    /// The final state.
    pub game: Game,
    /// Decisions made by all seats.
    pub decisions: u64,
}

/// Why a game could not be played to its end.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlayError {
    /// A decider failed (an outside program that exited, timed out or answered nonsense).
    #[error("seat {}: {why}", seat + 1)]
    Decider {
        /// The seat.
        seat: Seat,
        /// What went wrong.
        why: String,
    },
    /// A decider chose an illegal action.
    #[error("seat {}: `{action}` is illegal: {why}", seat + 1)]
    Illegal {
        /// The seat.
        seat: Seat,
        /// The action.
        action: String,
        /// Why.
        why: String,
    },
    /// The game could not start.
    #[error("{0}")]
    Start(String),
    /// The game went on past the safety limit.
    #[error("the game did not end within {0} decisions")]
    TooLong(u64),
}

/// Decisions after which a game is abandoned (no real game comes near).
pub const MAX_DECISIONS: u64 = 2_000_000;

/// Makes one decision: `(seat, view, public log lines so far)` to an action, or why not.
pub type Decide<'a> = dyn FnMut(Seat, &SeatView, &[String]) -> Result<Action, String> + 'a;

/// Plays a game; `decide(seat, view, public_lines)` makes each decision.
pub fn play_game(
    variant: Arc<P10Variant>,
    players: usize,
    seed: u64,
    decide: &mut Decide<'_>,
) -> Result<PlayedGame, PlayError> {
    let (mut game, events) =
        Game::new(variant.clone(), players, seed).map_err(|e| PlayError::Start(e.to_string()))?;
    let mut log = LogWriter::new(&variant.id, players, seed);
    log.record(&events);
    let mut decisions = 0u64;
    while !game.is_over() {
        if game.stage() == Stage::RoundOver {
            let events = game
                .next_round()
                .map_err(|e| PlayError::Start(e.to_string()))?;
            log.record(&events);
            continue;
        }
        let Some(seat) = game.to_move() else { break };
        let view = game.view(seat);
        let action = decide(seat, &view, log.public_lines())
            .map_err(|why| PlayError::Decider { seat, why })?;
        let text = action.to_string();
        let events = game.apply(action).map_err(|e| PlayError::Illegal {
            seat,
            action: text,
            why: e.to_string(),
        })?;
        log.record(&events);
        decisions += 1;
        if decisions > MAX_DECISIONS {
            return Err(PlayError::TooLong(MAX_DECISIONS));
        }
    }
    Ok(PlayedGame {
        log: log.finish(),
        game,
        decisions,
    })
}

/// The seed of the computer player in `seat` of the game with `seed`: the first 64-bit output of
/// stream `seat + 1` of the ChaCha8 generator keyed like round 0's deal (`round_rng(seed, 0)`;
/// deals use stream 0). A one-way mix, so a player cannot compute the game's seed, and with it
/// the hidden cards, back from its own seed; documented so a game can be replayed by hand.
pub fn player_seed(seed: u64, seat: Seat) -> u64 {
    let mut rng = round_rng(seed, 0);
    rng.set_stream(seat as u64 + 1);
    rng.next_u64()
}
