//! The rules side of Pro Spider 10 at the table: one resource wrapping the engine's game, the
//! player's requests (seat 1 is the player's), and the engine's events going out to the view.
//! The computer seats decide in [`seats`](crate::phase10::seats).
use std::sync::Arc;

use arachne_engine::phase10::variant::{self, P10Variant};
use arachne_engine::phase10::{Action, Event, Game, Seat, Stage};
use bevy::prelude::*;

use crate::AppSystems;
use crate::phase10::P10Systems;

pub(crate) fn plugin(app: &mut App) {
    app.add_message::<P10Request>()
        .add_message::<P10Changed>()
        .add_message::<P10Rejected>()
        .add_systems(
            Update,
            apply_requests.in_set(AppSystems::Apply).in_set(P10Systems),
        );
}

/// The player's seat: the bottom of the table, seat 1 of the texts.
pub const PLAYER: Seat = 0;

/// What a game is: variant, seats, seed, and each computer seat's level.
#[derive(Clone, Debug)]
pub struct P10Spec {
    /// The variant.
    pub variant: Arc<P10Variant>,
    /// Seats, the player's included.
    pub players: usize,
    /// The deal's seed.
    pub seed: u64,
    /// The level of each computer seat (seats 2, 3, ...).
    pub levels: Vec<String>,
}

impl P10Spec {
    /// The standard game for `players` seats against `level` everywhere.
    pub fn standard(players: usize, seed: u64, level: &str) -> Result<P10Spec, String> {
        let variant = variant::by_id("pro-spider-10")
            .ok_or("the standard variant is missing")?
            .clone();
        P10Spec::new(variant, players, seed, vec![level.to_string(); players - 1])
    }

    /// A checked spec: the variant allows `players`, every level is known.
    pub fn new(
        variant: Arc<P10Variant>,
        players: usize,
        seed: u64,
        levels: Vec<String>,
    ) -> Result<P10Spec, String> {
        let (min, max) = (
            usize::from(variant.players.min),
            usize::from(variant.players.max),
        );
        if !(min..=max).contains(&players) {
            return Err(format!(
                "{} is for {min} to {max} players, not {players}",
                variant.name
            ));
        }
        if levels.len() != players - 1 {
            return Err(format!(
                "{} computer levels for {} computer seats",
                levels.len(),
                players - 1
            ));
        }
        for level in &levels {
            if arachne_engine::phase10::ai::player(level, 0).is_none() {
                return Err(format!(
                    "no computer level `{level}` (levels: {})",
                    arachne_engine::phase10::ai::LEVELS.join(", ")
                ));
            }
        }
        Ok(P10Spec {
            variant,
            players,
            seed,
            levels,
        })
    }
}

/// The game on the table.
#[derive(Resource, Clone)]
pub struct P10Table {
    /// The engine's game (every hand: the view draws only what the player may see).
    pub game: Game,
    /// What it was started from.
    pub spec: P10Spec,
}

impl std::fmt::Debug for P10Table {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("P10Table")
            .field("spec", &self.spec)
            .field("round", &self.game.round())
            .field("stage", &self.game.stage())
            .finish()
    }
}

impl P10Table {
    /// A new game, its first round dealt (the deal's events with it).
    pub fn new(spec: P10Spec) -> Result<(P10Table, Vec<Event>), String> {
        let (game, events) =
            Game::new(spec.variant.clone(), spec.players, spec.seed).map_err(|e| e.to_string())?;
        Ok((P10Table { game, spec }, events))
    }

    /// Whether the player decides now.
    pub fn players_turn(&self) -> bool {
        self.game.to_move() == Some(PLAYER)
    }

    /// The seat's name as the table shows it.
    pub fn name(&self, seat: Seat) -> String {
        if seat == PLAYER {
            "You".into()
        } else {
            let level = &self.spec.levels[seat - 1];
            let mut name = level.clone();
            if let Some(first) = name.get_mut(0..1) {
                first.make_ascii_uppercase();
            }
            format!("{name} ({})", seat + 1)
        }
    }
}

/// What the player (or the round's flow) asks of the game.
#[derive(Message, Clone, Debug, PartialEq)]
pub enum P10Request {
    /// The player's decision.
    Act(Action),
    /// A computer seat's decision (from [`seats`](crate::phase10::seats)).
    Computer(Seat, Action),
    /// Deal the next round (the round is over).
    NextRound,
    /// Start this game.
    NewGame(Box<P10SpecMsg>),
    /// Nothing changes in the game, but the view lays the table out again (the hand's order).
    Relayout,
}

/// A spec inside a message (specs hold an `Arc`, compared by their fields).
#[derive(Clone, Debug)]
pub struct P10SpecMsg(pub P10Spec);

impl PartialEq for P10SpecMsg {
    fn eq(&self, other: &P10SpecMsg) -> bool {
        self.0.variant.id == other.0.variant.id
            && self.0.players == other.0.players
            && self.0.seed == other.0.seed
            && self.0.levels == other.0.levels
    }
}

/// The game changed: the engine's events, in order.
#[derive(Message, Clone, Debug)]
pub struct P10Changed {
    /// A new game: the view lays the table out from scratch (and deals it).
    pub new_game: bool,
    /// The events.
    pub events: Vec<Event>,
}

/// A request the rules refused, with the reason in words.
#[derive(Message, Clone, Debug, PartialEq)]
pub struct P10Rejected(pub String);

fn apply_requests(
    mut requests: MessageReader<P10Request>,
    mut table: ResMut<P10Table>,
    mut changed: MessageWriter<P10Changed>,
    mut rejected: MessageWriter<P10Rejected>,
) {
    for request in requests.read() {
        let result = match request {
            P10Request::Act(action) => {
                if !table.players_turn() {
                    Err("it is not your turn".to_string())
                } else {
                    table.game.apply(action.clone()).map_err(|e| e.to_string())
                }
            }
            P10Request::Computer(seat, action) => {
                if table.game.to_move() != Some(*seat) || *seat == PLAYER {
                    Err(format!("seat {} does not decide now", seat + 1))
                } else {
                    table.game.apply(action.clone()).map_err(|e| e.to_string())
                }
            }
            P10Request::NextRound => {
                if table.game.stage() != Stage::RoundOver {
                    Err("the round is not over".to_string())
                } else {
                    table.game.next_round().map_err(|e| e.to_string())
                }
            }
            P10Request::Relayout => Ok(Vec::new()),
            P10Request::NewGame(spec) => match P10Table::new(spec.0.clone()) {
                Ok((new, events)) => {
                    *table = new;
                    changed.write(P10Changed {
                        new_game: true,
                        events,
                    });
                    continue;
                }
                Err(e) => Err(e),
            },
        };
        match result {
            Ok(events) => {
                changed.write(P10Changed {
                    new_game: false,
                    events,
                });
            }
            Err(why) => {
                rejected.write(P10Rejected(why));
            }
        }
    }
}
