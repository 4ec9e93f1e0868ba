//! Pro Spider 10's saved things, through the shared [`Storage`]: the game in progress (its
//! `.p10` log so far, saved after every change and resumed at start exactly where it was), the
//! statistics per variant and player count, and the logs of finished games for the replays.
use std::collections::BTreeMap;
use std::io;

use arachne_engine::phase10::variant;
use arachne_engine::phase10::{Action, Stage, resume};
use bevy::prelude::*;
use serde::{Deserialize, Serialize};

use crate::core::i18n::{t, tf, variant_name};
use crate::core::persist::{SaveSettings, Saves, Storage};
use crate::core::settings::Settings;
use crate::phase10::P10Systems;
use crate::phase10::round::{P10Changed, P10Ended, P10Spec, P10Table};
use crate::{AppSystems, GameKind};

pub(crate) fn plugin(app: &mut App) {
    app.init_resource::<P10Statistics>()
        .add_systems(
            Update,
            (
                autosave
                    .run_if(resource_exists::<Saves>)
                    .run_if(crate::phase10::viewer::not_watching)
                    .run_if(crate::core::persist::plays_on),
                count_games,
            )
                .in_set(AppSystems::Plan)
                .in_set(P10Systems),
        )
        .add_systems(
            Update,
            // Before the input: the click that brought the window back is not a decision in
            // the game that was there before.
            take_up_other_copys_game
                .run_if(resource_exists::<Saves>)
                .run_if(crate::phase10::viewer::not_watching)
                .before(AppSystems::Input)
                .in_set(P10Systems),
        )
        .add_systems(OnEnter(GameKind::ProSpider10), remember_table(true))
        .add_systems(OnEnter(GameKind::Spider), remember_table(false));
}

/// Remembers which game is on the table, so the next start comes back to it.
fn remember_table(on: bool) -> impl FnMut(ResMut<Settings>, ResMut<SaveSettings>) {
    move |mut settings, mut save_settings| {
        if settings.phase10.on_table != on {
            settings.phase10.on_table = on;
            save_settings.soon();
        }
    }
}

/// Key of the game in progress: a `.p10` log (`arachne-cli phase10 check` reads a finished one).
pub const GAME_KEY: &str = "p10-game";
/// Key of the statistics.
pub const STATS_KEY: &str = "p10-stats";
/// Finished games are kept as `.p10` logs under `p10-replay-NNNNNN` keys.
pub const REPLAY_PREFIX: &str = "p10-replay-";
/// How many finished games are kept (the oldest go first).
pub const REPLAYS_KEPT: usize = 50;

/// Results of one variant at one player count.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct P10Stats {
    /// Games played to their end or left (a left game is lost).
    pub played: u32,
    /// Games won (a tie for the win counts).
    pub won: u32,
    /// Games played to their end.
    pub finished: u32,
    /// The player's points, summed over the games played to their end.
    pub points: u64,
    /// Rounds of the games played to their end.
    pub rounds: u32,
    /// Fewest points in a won game.
    pub best_points: Option<u32>,
    /// Phases the player laid, in every game counted.
    pub phases_laid: u32,
    /// Rounds finished, in every game counted.
    pub rounds_played: u32,
}

impl P10Stats {
    /// Counts one game. (Counts saturate: they may come from a hand-edited file.)
    pub fn record(&mut self, game: &P10Ended) {
        self.played = self.played.saturating_add(1);
        self.phases_laid = self.phases_laid.saturating_add(game.phases_laid);
        self.rounds_played = self.rounds_played.saturating_add(game.rounds);
        if game.left {
            return;
        }
        self.finished = self.finished.saturating_add(1);
        self.points = self.points.saturating_add(u64::from(game.points));
        self.rounds = self.rounds.saturating_add(game.rounds);
        if game.won {
            self.won = self.won.saturating_add(1);
            self.best_points = Some(self.best_points.map_or(game.points, |b| b.min(game.points)));
        }
    }

    /// Wins per game played, in percent.
    pub fn win_percent(&self) -> f64 {
        percent(self.won, self.played)
    }

    /// Mean points of a game played to its end.
    pub fn mean_points(&self) -> Option<f64> {
        (self.finished > 0).then(|| self.points as f64 / f64::from(self.finished))
    }

    /// Mean rounds of a game played to its end.
    pub fn mean_rounds(&self) -> Option<f64> {
        (self.finished > 0).then(|| f64::from(self.rounds) / f64::from(self.finished))
    }

    /// Phases laid per round finished.
    pub fn phases_per_round(&self) -> Option<f64> {
        (self.rounds_played > 0)
            .then(|| f64::from(self.phases_laid) / f64::from(self.rounds_played))
    }
}

fn percent(part: u32, whole: u32) -> f64 {
    if whole == 0 {
        0.0
    } else {
        100.0 * f64::from(part) / f64::from(whole)
    }
}

/// Statistics of every variant and player count.
#[derive(Resource, Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[component(clone_behavior = Ignore)]
#[serde(default)]
pub struct P10Statistics {
    /// By [`P10Statistics::key`].
    pub by: BTreeMap<String, P10Stats>,
}

impl P10Statistics {
    /// The key of a variant at a player count: `pro-spider-10 4`.
    pub fn key(variant: &str, players: usize) -> String {
        format!("{variant} {players}")
    }

    /// Splits a key back into variant id and players.
    pub fn split(key: &str) -> Option<(&str, usize)> {
        let (v, p) = key.rsplit_once(' ')?;
        Some((v, p.parse().ok()?))
    }
}

/// The text saved for `table`: its log so far, with the table's own facts as comments (a log
/// checker skips them): each computer seat's level, the player's decisions so far, and the
/// passes since the last decision the log shows.
pub fn save_text(table: &P10Table) -> String {
    let mut text = String::from("# Arachne: a game of Pro Spider 10 (`.p10` log)\n");
    text += &format!("# ai: {}\n", table.spec.levels.join(","));
    text += &format!("# decisions: {}\n", table.player_decisions);
    text += &table.log.text_so_far();
    if table.passes > 0 {
        text += &format!("# passes: {}\n", table.passes);
    }
    text
}

/// The value of the comment `# NAME: VALUE`.
fn comment<'a>(text: &'a str, name: &str) -> Option<&'a str> {
    text.lines().find_map(|l| {
        l.trim()
            .strip_prefix('#')?
            .trim()
            .strip_prefix(name)?
            .strip_prefix(':')
            .map(str::trim)
    })
}

/// The computer seats' levels a saved text names (`# ai: petra,michaela`), or `None`: the
/// game's own logs name them, a log from elsewhere (`arachne-cli phase10 play`, another
/// program) need not.
pub fn named_levels(text: &str) -> Option<Vec<String>> {
    comment(text, "ai")
        .filter(|list| !list.is_empty())
        .map(|list| list.split(',').map(|l| l.trim().to_string()).collect())
}

/// The computer seats' levels a saved text names, else [`strongest_levels`].
pub fn levels_in(text: &str, players: usize) -> Vec<String> {
    named_levels(text).unwrap_or_else(|| strongest_levels(players))
}

/// The strongest level at each computer seat of `players`.
pub fn strongest_levels(players: usize) -> Vec<String> {
    vec![arachne_engine::phase10::ai::STRONGEST.to_string(); players.saturating_sub(1)]
}

/// A kept game as the replay list shows it.
#[derive(Clone, Debug)]
pub struct KeptGame {
    /// Its storage key.
    pub key: String,
    /// Its log.
    pub text: String,
    /// One line about it: variant, players, rounds, winners.
    pub summary: String,
}

/// The kept games, newest first; an unreadable one is listed with what is wrong.
pub fn kept_games(storage: &dyn Storage) -> Vec<KeptGame> {
    let mut out = Vec::new();
    for key in replay_keys(storage).unwrap_or_default().into_iter().rev() {
        let Ok(Some(text)) = storage.read(&key) else {
            continue;
        };
        let number = key[REPLAY_PREFIX.len()..].trim_start_matches('0');
        let summary = match resume(&text, &variant::resolve) {
            Ok(r) => {
                let g = &r.game;
                let end = if g.is_over() {
                    let w: Vec<String> = g
                        .winners()
                        .iter()
                        .map(|&s| {
                            if s == 0 {
                                t("p10.phases.you").into()
                            } else {
                                tf("p10.kept.seat", &[("seat", &(s + 1))])
                            }
                        })
                        .collect();
                    tf("p10.kept.won_by", &[("winners", &w.join(t("p10.and")))])
                } else {
                    t("p10.kept.left").into()
                };
                let rounds = if g.round() == 1 {
                    t("p10.kept.round_one").to_string()
                } else {
                    tf("p10.kept.rounds", &[("rounds", &g.round())])
                };
                tf(
                    "p10.kept.summary",
                    &[
                        ("number", &number),
                        ("variant", &variant_name(&g.variant().id, &g.variant().name)),
                        ("players", &g.players()),
                        ("rounds", &rounds),
                        ("end", &end),
                    ],
                )
            }
            Err(e) => tf("p10.kept.unreadable", &[("number", &number), ("why", &e)]),
        };
        out.push(KeptGame { key, text, summary });
    }
    out
}

/// A table from a saved text, exactly where it was.
pub fn table_from_text(text: &str) -> Result<P10Table, String> {
    let resumed = resume(text, &variant::resolve).map_err(|e| e.to_string())?;
    let game = resumed.game;
    let players = game.players();
    let spec = P10Spec::new(
        game.variant().clone(),
        players,
        game.seed(),
        levels_in(text, players),
    )?;
    let (mut table, _) = P10Table::new(spec)?;
    table.sheet = arachne_engine::phase10::ScoreSheet::new(players);
    table.sheet.record(&resumed.events);
    table.game = game;
    table.log = resumed.log;
    table.counted = table.game.is_over();
    let passes: usize = comment(text, "passes")
        .map(|p| {
            p.parse()
                .map_err(|_| format!("`# passes: {p}` is not a number"))
        })
        .transpose()?
        .unwrap_or(0);
    // The passes the log does not show (those before a seat was skipped are replayed already,
    // with the line that shows the skip).
    table.passes = 0;
    // (As many as were passed here: a hand-edited count may say more than the offer had.)
    let mut passed = 0;
    for _ in 0..passes {
        if !matches!(table.game.stage(), Stage::Knock { .. }) {
            break;
        }
        table.apply(Action::Pass).map_err(|e| e.to_string())?;
        passed += 1;
    }
    table.passes = passed;
    table.player_decisions = comment(text, "decisions")
        .and_then(|d| d.parse().ok())
        .unwrap_or(0);
    Ok(table)
}

/// The saved game, if there is a usable one; an unusable one is set aside and the message says
/// so.
pub fn load_game(storage: &dyn Storage) -> (Option<P10Table>, Option<String>) {
    let text = match storage.read(GAME_KEY) {
        Ok(Some(t)) => t,
        Ok(None) => return (None, None),
        Err(e) => {
            // Left as it is: the new game is not saved over it this run.
            crate::core::persist::hold(storage, GAME_KEY);
            return (None, Some(tf("p10.save.unreadable", &[("why", &e)])));
        }
    };
    match table_from_text(&text) {
        Ok(table) => {
            crate::core::persist::note_read(storage, GAME_KEY, &text);
            (Some(table), None)
        }
        Err(e) => {
            let backup = storage.set_aside(GAME_KEY).ok().flatten();
            let message = match backup {
                Some(b) => tf("p10.save.set_aside", &[("why", &e), ("backup", &b)]),
                None => tf("p10.save.not_resumed", &[("why", &e)]),
            };
            (None, Some(message))
        }
    }
}

/// The saved game to resume at start: one in progress. A finished game is not resumed.
pub fn resume_game(storage: &dyn Storage) -> (Option<P10Table>, Option<String>) {
    let (table, message) = load_game(storage);
    (table.filter(|t| !t.game.is_over()), message)
}

/// What Pro Spider 10 starts with: the statistics, and the game (the one the command line asked
/// for, else the one in progress); the messages say what went wrong with saved files. A game
/// asked for on the command line replaces the saved one, which counts as left if the player had
/// played in it.
pub fn startup(
    storage: Option<&dyn Storage>,
    launched: Option<P10Table>,
) -> (Option<P10Table>, P10Statistics, Vec<String>) {
    let Some(storage) = storage else {
        return (launched, P10Statistics::default(), Vec::new());
    };
    let mut messages = Vec::new();
    let (mut stats, message) =
        crate::core::persist::load::<P10Statistics>(storage, STATS_KEY).or_default();
    messages.extend(message);
    let (saved, message) = resume_game(storage);
    messages.extend(message);
    let table = match (launched, saved) {
        (Some(launched), saved) => {
            if let Some(saved) = saved
                && !saved.counted
                && saved.player_decisions > 0
            {
                count_ended(storage, &mut stats, &P10Ended::of(&saved, true));
                messages.push(tf(
                    "p10.save.left_for_cli",
                    &[("round", &saved.game.round())],
                ));
            }
            // The game asked for is saved at once: the one it replaced, counted as left, is
            // never resumed (and counted) again, and a reload in the browser (whose address no
            // longer holds the link's options) resumes this one, even before its first move.
            if let Err(e) =
                crate::core::persist::write_game(storage, GAME_KEY, &save_text(&launched))
            {
                crate::core::persist::save_failed("save.what.p10_game", &e);
            }
            Some(launched)
        }
        (None, saved) => saved,
    };
    (table, stats, messages)
}

/// Saves the game after every change.
fn autosave(
    mut changes: MessageReader<P10Changed>,
    table: Res<P10Table>,
    saves: Res<Saves>,
    mut last: Local<Option<String>>,
) {
    if changes.read().count() == 0 {
        return;
    }
    // Only what changes the saved text is saved: a table laid out again (a resize, the hand
    // sorted) is not, so an idle copy's resize saves nothing over another copy's game; a pass
    // is (it changes only the text's comments).
    let ours = save_text(&table);
    if last.as_deref() == Some(ours.as_str()) {
        return;
    }
    let storage = saves.0.as_ref();
    match crate::core::persist::write_game_keeping(storage, GAME_KEY, &ours, |theirs| {
        keep_other_copys_game(storage, theirs, &ours)
    }) {
        Ok(()) => *last = Some(ours),
        Err(e) => {
            *last = None;
            crate::core::persist::save_failed("save.what.p10_game", &e);
        }
    }
}

/// The lines of a saved text that are the game's log (its comments left out).
fn log_lines(text: &str) -> Vec<&str> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect()
}

/// Keeps the game another running copy saved (`theirs`) among the kept games before this
/// copy's game (`ours`) is saved in its place; not when the player made no decision in it, nor
/// when ours plays on from it (its whole log begins ours). True when it was kept.
fn keep_other_copys_game(storage: &dyn Storage, theirs: &str, ours: &str) -> bool {
    let decided = comment(theirs, "decisions")
        .and_then(|d| d.parse::<u32>().ok())
        .is_none_or(|d| d > 0);
    if !decided || log_lines(ours).starts_with(&log_lines(theirs)) {
        return false;
    }
    if let Err(e) = save_replay(storage, theirs) {
        crate::core::persist::save_failed("save.what.p10_log", &e);
    }
    true
}

/// Takes up the game another running copy (a second tab or window) saved since this one last
/// read or wrote it, when the player comes back to this copy
/// ([`Refocused`](crate::core::persist::Refocused)): the player plays on where they left off
/// there, and nothing played there is lost when this copy saves. Not while a replay is watched
/// (the player's game is put back when it closes).
fn take_up_other_copys_game(
    refocused: Res<crate::core::persist::Refocused>,
    mut seen: Local<u64>,
    saves: Res<Saves>,
    mut table: ResMut<P10Table>,
    mut changed: MessageWriter<P10Changed>,
    mut notices: ResMut<crate::core::focus::Notices>,
    buttons: Option<ResMut<ButtonInput<MouseButton>>>,
    form: Option<ResMut<crate::phase10::menu::P10Form>>,
) {
    if refocused.0 == *seen {
        return;
    }
    *seen = refocused.0;
    let storage = saves.0.as_ref();
    let Some(text) = crate::core::persist::other_copys_game(storage, GAME_KEY) else {
        return;
    };
    let ours = save_text(&table);
    if log_lines(&text) == log_lines(&ours) && comment(&text, "passes") == comment(&ours, "passes")
    {
        // The same game at the same point (its other comments aside): nothing to show or tell.
        crate::core::persist::note_read(storage, GAME_KEY, &text);
        return;
    }
    match table_from_text(&text) {
        Ok(taken) => {
            crate::core::persist::note_read(storage, GAME_KEY, &text);
            *table = taken;
            changed.write(P10Changed {
                new_game: true,
                events: Vec::new(),
                rearranged: false,
            });
            notices.push(t("save.taken_up"));
            // The press that brought the window back was aimed at the game that was there; so
            // was a question about leaving it.
            if let Some(mut buttons) = buttons {
                buttons.reset_all();
            }
            if let Some(mut form) = form {
                form.leaving = None;
            }
        }
        // Left for this copy's next save to keep among the kept games.
        Err(e) => tracing::warn!("the game another copy saved cannot be taken up: {e}"),
    }
}

/// Counts ended games, and saves them and the statistics when there is storage.
fn count_games(
    mut ended: MessageReader<P10Ended>,
    mut stats: ResMut<P10Statistics>,
    saves: Option<Res<Saves>>,
) {
    for game in ended.read() {
        match &saves {
            Some(saves) => count_ended(saves.0.as_ref(), &mut stats, game),
            None => record(&mut stats, game),
        }
    }
}

fn record(stats: &mut P10Statistics, game: &P10Ended) {
    stats
        .by
        .entry(P10Statistics::key(&game.variant, game.players))
        .or_default()
        .record(game);
}

/// Counts `game`, keeps its log among the replays, and saves the statistics.
fn count_ended(storage: &dyn Storage, stats: &mut P10Statistics, game: &P10Ended) {
    // Counted on the newest copy: another running Arachne may have counted games since.
    crate::core::persist::take_newer(storage, STATS_KEY, stats);
    record(stats, game);
    if let Err(e) = save_replay(storage, &game.log) {
        crate::core::persist::save_failed("save.what.p10_log", &e);
    }
    if let Err(e) = crate::core::persist::save_making_room(storage, STATS_KEY, stats) {
        crate::core::persist::save_failed("save.what.p10_stats", &e);
    }
}

/// Keeps a game's log under the next `p10-replay-NNNNNN` key, dropping the oldest beyond
/// [`REPLAYS_KEPT`]; returns the key.
pub fn save_replay(storage: &dyn Storage, log: &str) -> io::Result<String> {
    crate::core::persist::save_numbered(storage, REPLAY_PREFIX, log, REPLAYS_KEPT)
}

/// The keys of the kept games, oldest first.
pub fn replay_keys(storage: &dyn Storage) -> io::Result<Vec<String>> {
    crate::core::persist::numbered_keys(storage, REPLAY_PREFIX)
}
