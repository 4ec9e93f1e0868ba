//! The rules side of Pro Spider 10 at the table: one resource wrapping the engine's game, the
//! player's requests (seat 1 is the player's), and the engine's events going out to the view.
//! The computer seats decide in [`seats`](crate::phase10::seats).
use std::sync::Arc;

use arachne_engine::phase10::variant::{self, P10Variant};
use arachne_engine::phase10::{Action, Event, Game, GameError, LogWriter, ScoreSheet, Seat, Stage};
use bevy::prelude::*;

use crate::AppSystems;
use crate::phase10::P10Systems;

pub(crate) fn plugin(app: &mut App) {
    app.add_message::<P10Request>()
        .add_message::<P10Changed>()
        .add_message::<P10Rejected>()
        .add_message::<P10Ended>()
        .add_systems(
            Update,
            apply_requests
                .run_if(crate::phase10::viewer::not_watching)
                .in_set(AppSystems::Apply)
                .in_set(P10Systems),
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
    /// The levels are not known (a log from elsewhere, which names none, watched in the
    /// viewer): the computer seats are called by their numbers, not by a level they may not
    /// have played.
    pub unnamed: bool,
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
            unnamed: false,
        })
    }
}

/// The game on the table, with what happened in it so far.
#[derive(Resource, Clone)]
#[component(clone_behavior = Ignore)]
pub struct P10Table {
    /// The engine's game (every hand: the view draws only what the player may see).
    pub game: Game,
    /// What it was started from.
    pub spec: P10Spec,
    /// Its `.p10` log so far (what is saved, and what a replay plays).
    pub log: LogWriter,
    /// Its score sheet.
    pub sheet: ScoreSheet,
    /// Passes since the last decision the log shows (a log does not write passes).
    pub passes: usize,
    /// Decisions the player made in this game.
    pub player_decisions: u32,
    /// Whether the game has been counted in the statistics (it is over, or was left).
    pub counted: bool,
    /// Where the game is ([`P10Table::position`]): this table's number (new for every table
    /// made, kept by its copies) and the changes made to it since.
    position: Position,
}

/// A point in one table's game: a computer's decision applies only at the position it was made
/// for, never to a game started or put back on the table meanwhile.
pub type Position = (u64, u64);

/// Numbers the tables made.
static TABLES: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

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
        let mut log = LogWriter::new(&spec.variant.id, spec.players, spec.seed);
        log.record(&events);
        let mut sheet = ScoreSheet::new(spec.players);
        sheet.record(&events);
        let table = P10Table {
            game,
            spec,
            log,
            sheet,
            passes: 0,
            player_decisions: 0,
            counted: false,
            position: (
                TABLES.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1,
                0,
            ),
        };
        Ok((table, events))
    }

    /// Applies a decision of the seat to move, writing it down.
    pub fn apply(&mut self, action: Action) -> Result<Vec<Event>, GameError> {
        let seat = self.game.to_move();
        let pass = action == Action::Pass;
        let events = self.game.apply(action)?;
        if seat == Some(PLAYER) {
            // (Saturating: the count is read back from the log's `# decisions:`.)
            self.player_decisions = self.player_decisions.saturating_add(1);
        }
        // Passes since the last decision the log shows: the log writes none, and one that
        // closes an offer leaves no line either.
        self.passes = if pass {
            self.passes.saturating_add(1)
        } else {
            0
        };
        self.record(&events);
        Ok(events)
    }

    /// Deals the next round, writing it down.
    pub fn next_round(&mut self) -> Result<Vec<Event>, GameError> {
        let events = self.game.next_round()?;
        self.record(&events);
        Ok(events)
    }

    /// Where the game is: it moves on with every decision and every new round.
    pub fn position(&self) -> Position {
        self.position
    }

    fn record(&mut self, events: &[Event]) {
        self.position.1 += 1;
        self.log.record(events);
        self.sheet.record(events);
    }

    /// Whether the player decides now.
    pub fn players_turn(&self) -> bool {
        self.game.to_move() == Some(PLAYER)
    }

    /// The seat's name as the table shows it.
    pub fn name(&self, seat: Seat) -> String {
        // A log from elsewhere names nobody: its first seat is not the player either.
        if seat == PLAYER && !self.spec.unnamed {
            crate::core::i18n::t("p10.you").into()
        } else if self.spec.unnamed {
            crate::core::i18n::tf("p10.seat.number", &[("seat", &(seat + 1))])
        } else {
            format!("{} ({})", self.level_name(seat), seat + 1)
        }
    }

    /// A seat's name for a narrow column, its number first (the phase list names seats by
    /// number): "2 · Michaela".
    pub fn short_name(&self, seat: Seat) -> String {
        if seat == PLAYER || self.spec.unnamed {
            self.name(seat)
        } else {
            format!("{} · {}", seat + 1, self.level_name(seat))
        }
    }

    /// A computer seat's level, capitalised ("Michaela").
    fn level_name(&self, seat: Seat) -> String {
        let mut name = self.spec.levels[seat - 1].clone();
        if let Some(first) = name.get_mut(0..1) {
            first.make_ascii_uppercase();
        }
        name
    }
}

/// What the player (or the round's flow) asks of the game.
#[derive(Message, Clone, Debug, PartialEq)]
pub enum P10Request {
    /// The player's decision.
    Act(Action),
    /// A computer seat's decision (from [`seats`](crate::phase10::seats)), made at this
    /// position of the game (dropped if the game is elsewhere by then).
    Computer(Seat, Action, Position),
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
    /// The same game at an earlier step (the viewer stepped back; `new_game` is set too): the
    /// cards on the table glide to where that step has them instead of being put out afresh.
    pub rearranged: bool,
}

impl P10Changed {
    /// The table laid out again (the window resized, the hand sorted): nothing in the game
    /// changed.
    pub fn laid_out_again() -> P10Changed {
        P10Changed {
            new_game: false,
            events: Vec::new(),
            rearranged: false,
        }
    }

    /// Whether the game changed (a new game, or events), not only the table's layout.
    pub fn changes_game(&self) -> bool {
        self.new_game || !self.events.is_empty()
    }
}

/// A game ended: over, or left by the player before its end (a loss).
#[derive(Message, Clone, Debug, PartialEq)]
pub struct P10Ended {
    /// The variant's id.
    pub variant: String,
    /// Seats.
    pub players: usize,
    /// The game's log (complete when it is over).
    pub log: String,
    /// Whether the player is among the winners.
    pub won: bool,
    /// The player left it before its end.
    pub left: bool,
    /// The player's total points.
    pub points: u32,
    /// Rounds finished.
    pub rounds: u32,
    /// Phases the player laid.
    pub phases_laid: u32,
}

impl P10Ended {
    /// How `table`'s game ended (`left`: the player left it).
    pub fn of(table: &P10Table, left: bool) -> P10Ended {
        P10Ended {
            variant: table.spec.variant.id.clone(),
            players: table.spec.players,
            // The seats' levels go with it (a comment, as in the saved game): watched later,
            // the seats are named as they were, not "Seat 2".
            log: format!(
                "# ai: {}\n{}",
                table.spec.levels.join(","),
                table.log.text_so_far()
            ),
            won: !left && table.game.winners().contains(&PLAYER),
            left,
            points: table.game.standings()[PLAYER].points,
            rounds: table.sheet.rows.len() as u32,
            phases_laid: table.sheet.phases_laid(PLAYER),
        }
    }
}

/// A request the rules refused, with the reason in words.
#[derive(Message, Clone, Debug, PartialEq)]
pub struct P10Rejected(pub String);

/// Applies the requests to the game (not while the replay viewer shows another game).
pub(crate) fn apply_requests(
    mut requests: MessageReader<P10Request>,
    mut table: ResMut<P10Table>,
    mut changed: MessageWriter<P10Changed>,
    mut rejected: MessageWriter<P10Rejected>,
    mut ended: MessageWriter<P10Ended>,
) {
    for request in requests.read() {
        let result = match request {
            P10Request::Act(action) => {
                if !table.players_turn() {
                    Err(crate::core::i18n::t("p10.note.not_your_turn").to_string())
                } else {
                    table.apply(action.clone()).map_err(|e| e.to_string())
                }
            }
            P10Request::Computer(seat, action, at) => {
                if *at != table.position() {
                    // Decided for a game that is no longer on the table, or for an earlier
                    // point of this one: nobody needs to hear of it.
                    tracing::debug!("a computer decision for another position dropped");
                    continue;
                }
                if table.game.to_move() != Some(*seat) || *seat == PLAYER {
                    Err(format!("seat {} does not decide now", seat + 1))
                } else {
                    table.apply(action.clone()).map_err(|e| e.to_string())
                }
            }
            P10Request::NextRound => {
                if table.game.stage() != Stage::RoundOver {
                    Err(crate::core::i18n::t("p10.note.round_not_over").to_string())
                } else {
                    table.next_round().map_err(|e| e.to_string())
                }
            }
            P10Request::Relayout => Ok(Vec::new()),
            P10Request::NewGame(spec) => match P10Table::new(spec.0.clone()) {
                Ok((new, events)) => {
                    // Leaving a game the player took part in counts it as lost.
                    if !table.counted && table.player_decisions > 0 {
                        ended.write(P10Ended::of(&table, true));
                    }
                    *table = new;
                    changed.write(P10Changed {
                        new_game: true,
                        events,
                        rearranged: false,
                    });
                    continue;
                }
                Err(e) => Err(e),
            },
        };
        match result {
            Ok(events) => {
                if table.game.is_over() && !table.counted {
                    table.counted = true;
                    ended.write(P10Ended::of(&table, false));
                }
                changed.write(P10Changed {
                    new_game: false,
                    events,
                    rearranged: false,
                });
            }
            Err(why) => {
                rejected.write(P10Rejected(why));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seats_are_named_by_level_and_number() {
        let spec = P10Spec::new(
            variant::by_id("pro-spider-10").unwrap().clone(),
            3,
            1,
            vec!["petra".into(), "michaela".into()],
        )
        .unwrap();
        let (table, _) = P10Table::new(spec).unwrap();
        assert_eq!(table.name(1), "Petra (2)");
        assert_eq!(table.name(2), "Michaela (3)");
        // A narrow column cuts a name from its end: the number comes first there.
        assert_eq!(table.short_name(1), "2 · Petra");
        assert_eq!(table.short_name(2), "3 · Michaela");
        assert_eq!(table.short_name(PLAYER), table.name(PLAYER));
    }

    #[test]
    fn seats_of_a_log_naming_no_levels_are_called_by_number() {
        let mut spec = P10Spec::standard(3, 1, "petra").unwrap();
        spec.unnamed = true;
        let (table, _) = P10Table::new(spec).unwrap();
        assert_eq!(table.name(1), "Seat 2");
        assert_eq!(table.short_name(2), "Seat 3");
    }
}
