//! The rules side of the game: one resource wrapping the engine's `Game`, the requests that
//! change it, and the engine events that come out.
use std::sync::Arc;

use arachne_engine::{DealError, Event, Game, GameOptions, Move, Numbering, Variant, variant};
use bevy::prelude::*;

use crate::AppSystems;
use crate::core::focus::OverlayOpen;
use crate::spider::SpiderSystems;

pub(super) fn plugin(app: &mut App) {
    app.add_message::<Request>()
        .add_message::<TableChanged>()
        .add_message::<Rejected>()
        .add_message::<GameFinished>()
        .init_resource::<GameRecord>()
        .init_resource::<Watching>()
        .init_resource::<PendingConfirm>()
        .add_systems(
            Update,
            apply_requests
                .in_set(AppSystems::Apply)
                .in_set(SpiderSystems),
        )
        .add_systems(
            Update,
            tick_clock.in_set(AppSystems::Plan).in_set(SpiderSystems),
        );
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
    /// Discard mode, undo limit and scoring.
    pub options: GameOptions,
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
                options: GameOptions::for_variant(v),
            })
    }

    /// Starts the game this spec describes.
    pub fn start(&self) -> Result<Game, DealError> {
        Game::new(&self.variant, self.seed, self.numbering, self.options)
    }
}

/// The game being played. Only `apply_requests` changes it.
#[derive(Resource, Clone, Debug)]
#[component(clone_behavior = Ignore)]
pub struct Table {
    /// The engine's game.
    pub game: Game,
    /// The deal it started from.
    pub spec: GameSpec,
}

/// Two tables are equal when they hold the same deal with the same moves played.
impl PartialEq for Table {
    fn eq(&self, other: &Table) -> bool {
        self.spec == other.spec && self.game.history().eq(other.game.history())
    }
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
    /// Show this table as it is, without a deal (the replay viewer's jumps, and coming back
    /// from it); with `deal`, deal it out as a new game.
    Show {
        /// The table to show.
        table: Box<Table>,
        /// Deal it out (else the cards appear in place).
        deal: bool,
    },
    /// Answer to the question "abandon this game?": go ahead with the waiting request, or drop it.
    Confirm(bool),
}

impl Request {
    /// Whether this request ends the game being played.
    pub fn ends_game(&self) -> bool {
        matches!(
            self,
            Request::NewDeal | Request::Restart | Request::NewGame(_)
        )
    }
}

/// While set, the table shows a replay or a demo, not the player's game: nothing is counted in
/// the statistics and nothing is autosaved.
#[derive(Resource, Debug, Default, Clone, Copy, PartialEq, Eq)]
#[component(clone_behavior = Ignore)]
pub struct Watching(pub bool);

/// A request that would abandon a game in progress, waiting for the player to confirm it
/// (when the settings ask for confirmation).
#[derive(Resource, Debug, Default, Clone, PartialEq)]
#[component(clone_behavior = Ignore)]
pub struct PendingConfirm(pub Option<Request>);

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
    /// A whole table shown in place, without a deal.
    Shown,
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
    /// The solver helped (see [`GameRecord::assisted`]).
    pub assisted: bool,
    /// The game, to keep as a replay.
    pub replay: arachne_engine::Replay,
}

/// The current game's clock, whether its end was already counted (a win undone and won again
/// counts once), and whether the solver helped. Saved with the game and restored on resume.
#[derive(Resource, Debug, Default, Clone, Copy, PartialEq)]
#[component(clone_behavior = Ignore)]
pub struct GameRecord {
    /// Seconds played. The clock runs from the first move until the win, only while the
    /// player's game is on the table with no window or question over it ([`tick_clock`]).
    pub elapsed: f64,
    /// Its end has been counted.
    pub counted: bool,
    /// Seconds the game took, once won (the clock stops).
    pub won_in: Option<u64>,
    /// The solver played moves of this game (auto-complete) or showed how to win it (the
    /// demo): its win is not a best time, best score or part of a streak.
    pub assisted: bool,
}

impl GameRecord {
    /// Seconds on the game's clock.
    pub fn clock(&self) -> u64 {
        self.won_in.unwrap_or(self.elapsed.max(0.0) as u64)
    }

    /// The record of a game resumed from its replay: the clock where it stopped, counted if it
    /// was ever won.
    pub fn resumed(game: &Game, replay: &arachne_engine::Replay) -> GameRecord {
        let secs = replay.secs.unwrap_or(0);
        GameRecord {
            elapsed: secs as f64,
            counted: game.was_won(),
            won_in: game.is_won().then_some(secs),
            assisted: replay.assisted,
        }
    }

    /// `table`'s game as a replay, with this record's clock and help.
    pub fn replay_of(&self, table: &Table) -> arachne_engine::Replay {
        arachne_engine::Replay {
            secs: Some(self.clock()),
            assisted: self.assisted,
            ..arachne_engine::Replay::of_game(&table.game, table.spec.numbering, table.spec.seed)
        }
    }
}

/// Advances the game's clock by the frame's real time while the player is playing.
pub fn tick_clock(
    time: Res<Time<Real>>,
    table: Res<Table>,
    watching: Res<Watching>,
    overlay: Res<OverlayOpen>,
    mut record: ResMut<GameRecord>,
) {
    if watching.0
        || overlay.0
        || table.game.steps().is_empty()
        || table.game.is_won()
        || record.won_in.is_some()
    {
        return;
    }
    record.elapsed += time.delta_secs_f64();
}

/// The end of `table`'s game, won or given up, to count once: `None` when it was counted
/// already or, given up, had no move. Marks the record counted (and stops a won game's clock).
pub fn finished(table: &Table, record: &mut GameRecord, won: bool) -> Option<GameFinished> {
    // A move undone is still a move made: undoing back to the deal does not make leaving it
    // free.
    if record.counted || (!won && table.game.steps().is_empty()) {
        return None;
    }
    record.counted = true;
    let secs = record.clock();
    if won {
        record.won_in = Some(secs);
    }
    Some(GameFinished {
        variant: table.spec.variant.id.clone(),
        won,
        secs,
        score: table.game.score(),
        moves: table.game.move_count() as u32,
        assisted: record.assisted,
        replay: record.replay_of(table),
    })
}

fn apply_requests(
    mut requests: MessageReader<Request>,
    mut table: ResMut<Table>,
    mut changed: MessageWriter<TableChanged>,
    mut rejected: MessageWriter<Rejected>,
    mut ended: MessageWriter<GameFinished>,
    mut record: ResMut<GameRecord>,
    mut pending: ResMut<PendingConfirm>,
    watching: Res<Watching>,
    settings: Res<crate::core::settings::Settings>,
    time: Res<Time<Real>>,
) {
    let queued: Vec<Request> = requests.read().cloned().collect();
    for request in queued {
        let request = match request {
            Request::Confirm(yes) => match pending.0.take() {
                Some(r) if yes => r,
                _ => continue,
            },
            r if r.ends_game()
                && settings.game.confirm_new_game
                && !watching.0
                && in_progress(&table) =>
            {
                // Asked again while a question is open: the newer request replaces it.
                pending.0 = Some(r);
                continue;
            }
            r => r,
        };
        if request.ends_game()
            && !watching.0
            && !table.game.is_won()
            && let Some(f) = finished(&table, &mut record, false)
        {
            ended.write(f);
        }
        let result = match &request {
            Request::Move(mv) => table
                .game
                .apply(*mv)
                .map(|events| (Cause::Move(*mv), events))
                .map_err(|e| e.to_string()),
            // A won game is over (its win is counted): a new one starts from the menu.
            Request::Undo if table.game.is_won() && !watching.0 => {
                Err("the game is won: start a new one".to_string())
            }
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
            Request::Show { table: t, deal } => {
                *table = (**t).clone();
                Ok((
                    if *deal { Cause::NewGame } else { Cause::Shown },
                    Vec::new(),
                ))
            }
            Request::Confirm(_) => continue,
            Request::NewGame(_) | Request::NewDeal | Request::Restart => {
                let mut spec = match &request {
                    Request::NewGame(spec) => spec.clone(),
                    _ => table.spec.clone(),
                };
                if request == Request::NewDeal {
                    spec.seed = next_seed(spec.seed, time.elapsed().as_nanos() as u64);
                }
                // The settings' discard mode and undo limit apply from the next game on.
                spec.options = settings.game.options_for(&spec.variant);
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
                if cause == Cause::NewGame && !matches!(request, Request::Show { .. }) {
                    *record = GameRecord::default();
                }
                if events.contains(&arachne_engine::Event::Won)
                    && !watching.0
                    && let Some(f) = finished(&table, &mut record, true)
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

/// A game with moves made (even if undone since) and not won: leaving it counts as a loss.
pub fn in_progress(table: &Table) -> bool {
    !table.game.steps().is_empty() && !table.game.is_won()
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
