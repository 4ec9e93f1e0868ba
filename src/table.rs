//! The rules side of the game: one resource wrapping the engine's `Game`, the requests that
//! change it, and the engine events that come out.
use std::sync::Arc;

use arachne_engine::{DealError, Event, Game, GameOptions, Move, Numbering, Variant, variant};
use bevy::prelude::*;

use crate::AppSystems;

pub(super) fn plugin(app: &mut App) {
    app.add_message::<Request>()
        .add_message::<TableChanged>()
        .add_message::<Rejected>()
        .add_message::<GameFinished>()
        .init_resource::<GameRecord>()
        .add_systems(Update, apply_requests.in_set(AppSystems::Apply));
}

/// Which deal of which variant.
#[derive(Clone, Debug, PartialEq)]
pub struct GameSpec {
    /// The variant.
    pub variant: Arc<Variant>,
    /// Deal number.
    pub seed: u64,
    /// How the deal number maps to a shuffle.
    pub numbering: Numbering,
}

impl GameSpec {
    /// A shipped variant by id.
    pub fn builtin(id: &str, seed: u64, numbering: Numbering) -> Option<GameSpec> {
        variant::builtin()
            .iter()
            .find(|v| v.id == id)
            .map(|v| GameSpec {
                variant: v.clone(),
                seed,
                numbering,
            })
    }

    /// Starts the game this spec describes.
    pub fn start(&self) -> Result<Game, DealError> {
        Game::new(
            &self.variant,
            self.seed,
            self.numbering,
            GameOptions::for_variant(&self.variant),
        )
    }
}

/// The game being played. Only `apply_requests` changes it.
#[derive(Resource, Clone, Debug)]
pub struct Table {
    /// The engine's game.
    pub game: Game,
    /// The deal it started from.
    pub spec: GameSpec,
}

impl Table {
    /// A table for `spec`.
    pub fn new(spec: GameSpec) -> Result<Table, DealError> {
        Ok(Table {
            game: spec.start()?,
            spec,
        })
    }
}

/// Something the player (or a test) asks of the table.
#[derive(Message, Clone, Debug, PartialEq)]
pub enum Request {
    /// Play a move.
    Move(Move),
    /// Take back the last move.
    Undo,
    /// Play the last undone move again.
    Redo,
    /// A new deal of the same variant (a fresh deal number).
    NewDeal,
    /// Start this deal again.
    Restart,
    /// Start a given deal (from the menu).
    NewGame(GameSpec),
}

/// Why the table changed, with the engine's events in the order to show them.
#[derive(Message, Clone, Debug, PartialEq)]
pub struct TableChanged {
    /// What caused it.
    pub cause: Cause,
    /// The engine's events (empty for a new game: the whole table is new).
    pub events: Vec<Event>,
}

/// The cause of a change.
#[derive(Clone, Debug, PartialEq)]
pub enum Cause {
    /// A move was played.
    Move(Move),
    /// A move was taken back.
    Undo,
    /// A move was replayed.
    Redo,
    /// A new game started (new deal or restart).
    NewGame,
}

/// A request the rules refused, with the engine's reason.
#[derive(Message, Clone, Debug, PartialEq)]
pub struct Rejected(pub String);

/// A game that ended: won, or given up for another deal after at least one move. Statistics
/// count these.
#[derive(Message, Clone, Debug, PartialEq)]
pub struct GameFinished {
    /// Variant id.
    pub variant: String,
    /// Won or not.
    pub won: bool,
    /// Seconds from the deal to the end.
    pub secs: u64,
    /// The score at the end.
    pub score: i64,
    /// Moves made.
    pub moves: u32,
}

/// When the current game started, and whether its end was already counted (a win undone and
/// won again counts once).
#[derive(Resource, Debug, Default, Clone, Copy)]
pub struct GameRecord {
    /// Real time at the deal, in seconds.
    pub started: f64,
    /// Its end has been counted.
    pub counted: bool,
}

fn finished(table: &Table, record: &mut GameRecord, now: f64, won: bool) -> Option<GameFinished> {
    if record.counted || (!won && table.game.move_count() == 0) {
        return None;
    }
    record.counted = true;
    Some(GameFinished {
        variant: table.spec.variant.id.clone(),
        won,
        secs: (now - record.started).max(0.0) as u64,
        score: table.game.score(),
        moves: table.game.move_count() as u32,
    })
}

fn apply_requests(
    mut requests: MessageReader<Request>,
    mut table: ResMut<Table>,
    mut changed: MessageWriter<TableChanged>,
    mut rejected: MessageWriter<Rejected>,
    mut ended: MessageWriter<GameFinished>,
    mut record: ResMut<GameRecord>,
    time: Res<Time<Real>>,
) {
    let now = time.elapsed_secs_f64();
    for request in requests.read() {
        if matches!(request, Request::NewDeal | Request::Restart)
            && !table.game.is_won()
            && let Some(f) = finished(&table, &mut record, now, false)
        {
            ended.write(f);
        }
        let result = match request {
            Request::Move(mv) => table
                .game
                .apply(*mv)
                .map(|events| (Cause::Move(*mv), events))
                .map_err(|e| e.to_string()),
            Request::Undo => table
                .game
                .undo()
                .map(|events| (Cause::Undo, events))
                .map_err(|e| e.to_string()),
            Request::Redo => table
                .game
                .redo()
                .map(|events| (Cause::Redo, events))
                .map_err(|e| e.to_string()),
            Request::NewGame(spec) => match Table::new(spec.clone()) {
                Ok(t) => {
                    *table = t;
                    Ok((Cause::NewGame, Vec::new()))
                }
                Err(e) => Err(e.to_string()),
            },
            Request::NewDeal | Request::Restart => {
                let mut spec = table.spec.clone();
                if *request == Request::NewDeal {
                    spec.seed = next_seed(spec.seed, time.elapsed().as_nanos() as u64);
                }
                match Table::new(spec) {
                    Ok(t) => {
                        *table = t;
                        Ok((Cause::NewGame, Vec::new()))
                    }
                    Err(e) => Err(e.to_string()),
                }
            }
        };
        match result {
            Ok((cause, events)) => {
                if cause == Cause::NewGame {
                    *record = GameRecord {
                        started: now,
                        counted: false,
                    };
                }
                if events.contains(&arachne_engine::Event::Won)
                    && let Some(f) = finished(&table, &mut record, now, true)
                {
                    ended.write(f);
                }
                changed.write(TableChanged { cause, events });
            }
            Err(reason) => {
                rejected.write(Rejected(reason));
            }
        }
    }
}

/// A new deal number in 1..=1e9, different from the last, mixed with the time the game has
/// been running (std's wall clock panics in the browser; Bevy's real time does not).
pub fn next_seed(previous: u64, clock_nanos: u64) -> u64 {
    let mut x = previous
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
        .wrapping_add(clock_nanos);
    x ^= x >> 31;
    x = x.wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x ^= x >> 29;
    let seed = x % 1_000_000_000 + 1;
    if seed == previous {
        seed % 1_000_000_000 + 1
    } else {
        seed
    }
}
