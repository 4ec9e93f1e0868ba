//! Spider's saved things: the game in progress (an engine replay, saved after every change),
//! the statistics per variant and the replays of finished games, all through the shared
//! [`Storage`](crate::core::persist::Storage).
use std::collections::BTreeMap;
use std::io;

use serde::{Deserialize, Serialize};

use crate::core::i18n::{t, tf, variant_name};
use crate::core::persist::{Saves, Storage};
use crate::spider::SpiderSystems;

/// Results per variant, as the statistics window shows them.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct VariantStats {
    /// Games finished (won or given up).
    pub played: u32,
    /// Games won.
    pub won: u32,
    /// Wins in a row now.
    pub current_streak: u32,
    /// Most wins in a row.
    pub best_streak: u32,
    /// Losses in a row now.
    pub current_loss_streak: u32,
    /// Fastest win, seconds.
    pub best_time_secs: Option<u64>,
    /// Highest winning score.
    pub best_score: Option<i64>,
    /// Fewest moves in a win.
    pub fewest_moves: Option<u32>,
    /// Wins the solver helped with (auto-complete, the demo): counted in `played` and `won`,
    /// never in the bests or the streaks.
    pub assisted_wins: u32,
}

impl VariantStats {
    /// Counts a finished game. An assisted win counts as played and won, and nothing else.
    /// (Counts saturate: they may come from a hand-edited file.)
    pub fn record(&mut self, won: bool, secs: u64, score: i64, moves: u32, assisted: bool) {
        self.played = self.played.saturating_add(1);
        if won && assisted {
            self.won = self.won.saturating_add(1);
            self.assisted_wins = self.assisted_wins.saturating_add(1);
        } else if won {
            self.won = self.won.saturating_add(1);
            self.current_streak = self.current_streak.saturating_add(1);
            self.best_streak = self.best_streak.max(self.current_streak);
            self.current_loss_streak = 0;
            self.best_time_secs = Some(self.best_time_secs.map_or(secs, |b| b.min(secs)));
            self.best_score = Some(self.best_score.map_or(score, |b| b.max(score)));
            self.fewest_moves = Some(self.fewest_moves.map_or(moves, |b| b.min(moves)));
        } else {
            self.current_streak = 0;
            self.current_loss_streak = self.current_loss_streak.saturating_add(1);
        }
    }

    /// Wins per game played, in percent.
    pub fn win_percent(&self) -> f64 {
        if self.played == 0 {
            0.0
        } else {
            100.0 * self.won as f64 / self.played as f64
        }
    }
}

/// Statistics of every variant, by variant id.
#[derive(bevy::prelude::Resource, Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[component(clone_behavior = Ignore)]
#[serde(default)]
pub struct Statistics {
    /// Per variant.
    pub variants: BTreeMap<String, VariantStats>,
}

/// Key of the statistics.
pub const STATS_KEY: &str = "stats";

/// Key of the game in progress. Its text is an engine replay file (`arachne-cli replay` reads it).
pub const GAME_KEY: &str = "game";

/// Finished games are kept as engine replay files under `replay-NNNNNN` keys.
pub const REPLAY_PREFIX: &str = "replay-";

/// How many finished games are kept (the oldest go first).
pub const REPLAYS_KEPT: usize = 50;

/// Saves a finished game's replay under the next `replay-NNNNNN` key and drops the oldest
/// beyond [`REPLAYS_KEPT`]; returns the key.
pub fn save_replay(storage: &dyn Storage, replay: &arachne_engine::Replay) -> io::Result<String> {
    crate::core::persist::save_numbered(storage, REPLAY_PREFIX, &replay.to_ron(), REPLAYS_KEPT)
}

/// The keys of the kept games, oldest first.
pub fn replay_keys(storage: &dyn Storage) -> io::Result<Vec<String>> {
    crate::core::persist::numbered_keys(storage, REPLAY_PREFIX)
}

/// A saved replay as the replay list shows it.
#[derive(Clone, Debug)]
pub struct SavedReplay {
    /// Its storage key.
    pub key: String,
    /// The replay.
    pub replay: arachne_engine::Replay,
    /// Whether its moves win the game.
    pub won: bool,
}

/// A kept game as the replay list shows it: a replay, or a text that cannot be read as one
/// (listed, with why, so that it can still be copied or downloaded, and because it counts among
/// the [`REPLAYS_KEPT`]).
#[derive(Clone, Debug)]
pub enum KeptReplay {
    /// A replay that reads.
    Read(SavedReplay),
    /// One that does not.
    Unreadable {
        /// Its storage key.
        key: String,
        /// Its text as stored.
        text: String,
        /// Why it cannot be read.
        why: String,
    },
}

/// Reads the kept games, newest first.
pub fn kept_replays(storage: &dyn Storage) -> Vec<KeptReplay> {
    let variants = arachne_engine::Variants::default();
    let mut out = Vec::new();
    for key in replay_keys(storage).unwrap_or_default().into_iter().rev() {
        let text = match storage.read(&key) {
            Ok(Some(text)) => text,
            // Gone since it was listed (another copy dropped it).
            Ok(None) => continue,
            Err(e) => {
                out.push(KeptReplay::Unreadable {
                    key,
                    text: String::new(),
                    why: e.to_string(),
                });
                continue;
            }
        };
        match arachne_engine::Replay::from_ron(&text) {
            Ok(replay) => {
                let won = replay.verify(&variants).is_ok_and(|g| g.is_won());
                out.push(KeptReplay::Read(SavedReplay { key, replay, won }));
            }
            Err(e) => {
                tracing::warn!("saved replay {key}: {e}");
                out.push(KeptReplay::Unreadable {
                    key,
                    text,
                    why: e.to_string(),
                });
            }
        }
    }
    out
}

/// The kept games that read as replays, newest first (see [`kept_replays`]).
pub fn saved_replays(storage: &dyn Storage) -> Vec<SavedReplay> {
    kept_replays(storage)
        .into_iter()
        .filter_map(|k| match k {
            KeptReplay::Read(r) => Some(r),
            KeptReplay::Unreadable { .. } => None,
        })
        .collect()
}

/// Autosaves the game after every change, when the app has a [`Saves`] resource.
pub(super) fn plugin(app: &mut bevy::prelude::App) {
    use bevy::prelude::*;
    app.init_resource::<Statistics>().add_systems(
        Update,
        (
            (
                autosave
                    .run_if(resource_exists::<Saves>)
                    .run_if(crate::core::persist::plays_on),
                count_games,
            )
                .in_set(crate::AppSystems::Plan),
            // Before the input: the click that brought the window back is not a move on the
            // game that was there before.
            // After the viewer's controls (a replay opened in this frame waits) and a deal
            // found for later.
            take_up_other_copys_game
                .run_if(resource_exists::<Saves>)
                .after(crate::spider::playback::PlaybackSystems)
                .after(crate::spider::assist::deal_when_back)
                .before(crate::AppSystems::Input),
        )
            .in_set(SpiderSystems),
    );
}

/// Adds finished games to the statistics, and saves them when there is storage.
fn count_games(
    mut ended: bevy::prelude::MessageReader<crate::spider::table::GameFinished>,
    mut stats: bevy::prelude::ResMut<Statistics>,
    saves: Option<bevy::prelude::Res<Saves>>,
) {
    let mut any = false;
    for f in ended.read() {
        // Counted on the newest copy: another running Arachne may have counted games since.
        if !any && let Some(saves) = &saves {
            crate::core::persist::take_newer(saves.0.as_ref(), STATS_KEY, &mut *stats);
        }
        count_finished(saves.as_ref().map(|s| s.0.as_ref()), &mut stats, f);
        any = true;
    }
    if any
        && let Some(saves) = saves
        && let Err(e) = crate::core::persist::save_making_room(saves.0.as_ref(), STATS_KEY, &*stats)
    {
        crate::core::persist::save_failed("save.what.stats", &e);
    }
}

/// Counts a finished game in `stats` and keeps its replay (when there is storage). The caller
/// saves the statistics.
fn count_finished(
    storage: Option<&dyn Storage>,
    stats: &mut Statistics,
    f: &crate::spider::table::GameFinished,
) {
    if let Some(storage) = storage
        && let Err(e) = save_replay(storage, &f.replay)
    {
        crate::core::persist::save_failed("save.what.replay", &e);
    }
    stats
        .variants
        .entry(f.variant.clone())
        .or_default()
        .record(f.won, f.secs, f.score, f.moves, f.assisted);
}

/// Seconds of play between two saves of the clock alone (a change saves at once).
const CLOCK_SAVE_SECS: u64 = 10;

fn autosave(
    mut changes: bevy::prelude::MessageReader<crate::spider::table::TableChanged>,
    table: bevy::prelude::Res<crate::spider::table::Table>,
    record: bevy::prelude::Res<crate::spider::table::GameRecord>,
    saves: bevy::prelude::Res<Saves>,
    watching: bevy::prelude::Res<crate::spider::table::Watching>,
    mut saved_clock: bevy::prelude::Local<u64>,
) {
    // While a replay or demo is shown, the player's game stays saved as it was.
    let changed = changes.read().count() > 0;
    if watching.0 {
        return;
    }
    // Every change is saved; so is the clock now and then, so that a crash costs seconds.
    let clock = record.clock();
    // (Saturating: a clock read from a hand-edited save may be near the largest number.)
    if !changed && clock < saved_clock.saturating_add(CLOCK_SAVE_SECS) {
        return;
    }
    *saved_clock = clock;
    let storage = saves.0.as_ref();
    // The clock alone is not saved over another running copy's game: this copy is idle (a
    // second window), and takes that game up when the player comes back to it.
    if !changed && crate::core::persist::other_copys_game(storage, GAME_KEY).is_some() {
        return;
    }
    let ours = record.replay_of(&table);
    if let Err(e) =
        crate::core::persist::write_game_keeping(storage, GAME_KEY, &ours.to_ron(), |theirs| {
            keep_other_copys_game(storage, theirs, &ours)
        })
    {
        crate::core::persist::save_failed("save.what.game", &e);
    }
}

/// Keeps the game another running copy saved (`theirs`, a replay's text) among the kept games
/// before this copy's game (`ours`) is saved in its place; not when it had no move, nor when
/// ours plays on from it (the same deal, everything it played played here too). True when it
/// was kept.
fn keep_other_copys_game(
    storage: &dyn Storage,
    theirs: &str,
    ours: &arachne_engine::Replay,
) -> bool {
    // (Kept as it is, also when this copy cannot read it: a newer version's game.)
    if let Ok(replay) = arachne_engine::Replay::from_ron(theirs) {
        fn played(r: &arachne_engine::Replay) -> &[String] {
            if r.steps.is_empty() {
                &r.moves
            } else {
                &r.steps
            }
        }
        let their_steps = played(&replay);
        let continued = replay.variant == ours.variant
            && replay.seed == ours.seed
            && replay.numbering == ours.numbering
            && replay.options == ours.options
            && played(ours).starts_with(their_steps);
        if their_steps.is_empty() || continued {
            return false;
        }
    }
    if let Err(e) =
        crate::core::persist::save_numbered(storage, REPLAY_PREFIX, theirs, REPLAYS_KEPT)
    {
        crate::core::persist::save_failed("save.what.replay", &e);
    }
    true
}

/// Takes up the game another running copy (a second tab or window) saved since this one last
/// read or wrote it, when the player comes back to this copy ([`Refocused`]): the player plays
/// on where they left off there, and nothing played there is lost when this copy saves. Waits
/// while a replay or demo is shown (the player's game is put back when it closes).
///
/// [`Refocused`]: crate::core::persist::Refocused
fn take_up_other_copys_game(
    refocused: bevy::prelude::Res<crate::core::persist::Refocused>,
    mut seen: bevy::prelude::Local<u64>,
    saves: bevy::prelude::Res<Saves>,
    watching: bevy::prelude::Res<crate::spider::table::Watching>,
    table: bevy::prelude::Res<crate::spider::table::Table>,
    mut record: bevy::prelude::ResMut<crate::spider::table::GameRecord>,
    mut requests: bevy::prelude::MessageWriter<crate::spider::table::Request>,
    mut notices: bevy::prelude::ResMut<crate::core::focus::Notices>,
    buttons: Option<bevy::prelude::ResMut<bevy::prelude::ButtonInput<bevy::prelude::MouseButton>>>,
    (mut commands, playback, confirm, scale): (
        bevy::prelude::Commands,
        Option<bevy::prelude::Res<crate::spider::playback::Playback>>,
        Option<bevy::prelude::ResMut<crate::spider::table::PendingConfirm>>,
        Option<bevy::prelude::ResMut<crate::cards::motion::MotionScale>>,
    ),
) {
    if refocused.0 == *seen || watching.0 {
        return;
    }
    *seen = refocused.0;
    let storage = saves.0.as_ref();
    let Some(text) = crate::core::persist::other_copys_game(storage, GAME_KEY) else {
        return;
    };
    match game_from_text(&text) {
        // The same game, only its clock saved since (the other copy idle on it): the newer
        // clock, and nothing to show or tell.
        Ok((taken, clock))
            if taken.spec == table.spec && taken.game.steps() == table.game.steps() =>
        {
            crate::core::persist::note_read(storage, GAME_KEY, &text);
            *record = clock;
        }
        Ok((table, taken)) => {
            crate::core::persist::note_read(storage, GAME_KEY, &text);
            *record = taken;
            requests.write(crate::spider::table::Request::Show {
                table: Box::new(table),
                deal: false,
            });
            notices.push(t("save.taken_up"));
            // The press that brought the window back was aimed at the game that was there; so
            // were an auto-complete under way and a question about leaving it.
            if let Some(mut buttons) = buttons {
                buttons.reset_all();
            }
            if playback.is_some_and(|p| p.kind == crate::spider::playback::Kind::AutoComplete) {
                commands.remove_resource::<crate::spider::playback::Playback>();
                if let Some(mut scale) = scale {
                    scale.0 = 1.0;
                }
            }
            if let Some(mut confirm) = confirm {
                confirm.0 = None;
            }
        }
        // Left for this copy's next save to keep among the kept games.
        Err(e) => tracing::warn!("the game another copy saved cannot be taken up: {e}"),
    }
}

/// The saved game, if there is a usable one, with its clock and whether it was counted; an
/// unusable one is set aside and the message says so.
pub fn load_game(
    storage: &dyn Storage,
) -> (
    Option<(
        crate::spider::table::Table,
        crate::spider::table::GameRecord,
    )>,
    Option<String>,
) {
    let text = match storage.read(GAME_KEY) {
        Ok(Some(t)) => t,
        Ok(None) => return (None, None),
        Err(e) => {
            // Left as it is: the new game is not saved over it this run.
            crate::core::persist::hold(storage, GAME_KEY);
            return (None, Some(tf("spider.save.unreadable", &[("why", &e)])));
        }
    };
    let table = game_from_text(&text);
    if table.is_ok() {
        crate::core::persist::note_read(storage, GAME_KEY, &text);
    }
    match table {
        Ok(t) => (Some(t), None),
        Err(e) => {
            let backup = storage.set_aside(GAME_KEY).ok().flatten();
            let message = match backup {
                Some(b) => tf("spider.save.set_aside", &[("why", &e), ("backup", &b)]),
                None => tf("spider.save.not_resumed", &[("why", &e)]),
            };
            (None, Some(message))
        }
    }
}

/// A saved game's table and record, from its text (an engine replay).
fn game_from_text(
    text: &str,
) -> Result<
    (
        crate::spider::table::Table,
        crate::spider::table::GameRecord,
    ),
    arachne_engine::ReplayError,
> {
    let variants = arachne_engine::Variants::default();
    let replay = arachne_engine::Replay::from_ron(text)?;
    let game = replay.verify(&variants)?;
    let variant = variants
        .get(&replay.variant)
        .cloned()
        .ok_or_else(|| arachne_engine::ReplayError::UnknownVariant(replay.variant.clone()))?;
    let record = crate::spider::table::GameRecord::resumed(&game, &replay);
    Ok((
        crate::spider::table::Table {
            game,
            spec: crate::spider::table::GameSpec {
                variant,
                seed: replay.seed,
                numbering: replay.numbering,
                options: replay.options,
            },
        },
        record,
    ))
}

/// The saved game to resume at start: the one in progress, exactly as it was left. A finished
/// game (won, even if undone since) is not resumed: the player gets a fresh deal.
pub fn resume_game(
    storage: &dyn Storage,
) -> (
    Option<(
        crate::spider::table::Table,
        crate::spider::table::GameRecord,
    )>,
    Option<String>,
) {
    let (saved, message) = load_game(storage);
    (saved.filter(|(_, record)| !record.counted), message)
}

/// A deal asked for on the command line (or a link's) replaces the saved game: if that game
/// was in progress it counts as given up (as leaving any game does), with its replay kept.
/// `launched`, the deal asked for, is saved at once in its place, so that the game given up is
/// never resumed and counted again, even if the game stops before its first frame's save (a
/// failed start, a reload while the page loads). Returns what to tell the player.
pub fn give_up_saved_game(
    storage: &dyn Storage,
    stats: &mut Statistics,
    launched: &crate::spider::table::Table,
) -> Option<String> {
    let (saved, message) = resume_game(storage);
    // The game given up is counted (and its replay kept) first, then the deal asked for takes
    // its place: a stop in between counts it again at most, never loses it.
    let save_launched = || {
        let fresh = crate::spider::table::GameRecord::default().replay_of(launched);
        if let Err(e) = crate::core::persist::write_game(storage, GAME_KEY, &fresh.to_ron()) {
            crate::core::persist::save_failed("save.what.game", &e);
        }
    };
    let Some((table, mut record)) = saved else {
        save_launched();
        return message;
    };
    // Counted as the table counts leaving a game: not at all without a move.
    let Some(finished) = crate::spider::table::finished(&table, &mut record, false) else {
        save_launched();
        return message;
    };
    crate::core::persist::take_newer(storage, STATS_KEY, stats);
    count_finished(Some(storage), stats, &finished);
    if let Err(e) = crate::core::persist::save_making_room(storage, STATS_KEY, stats) {
        crate::core::persist::save_failed("save.what.stats", &e);
    }
    save_launched();
    let variant = &table.spec.variant;
    let moves = match table.game.move_count() {
        1 => t("spider.won.one_move").to_string(),
        n => tf("spider.won.moves", &[("moves", &n)]),
    };
    Some(tf(
        "spider.save.given_up",
        &[
            ("variant", &variant_name(&variant.id, &variant.name)),
            ("deal", &table.spec.seed),
            ("moves", &moves),
        ],
    ))
}
