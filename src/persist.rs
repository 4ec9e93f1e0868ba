//! Saving and loading: versioned RON behind one small storage trait (files on the desktop, the
//! browser's localStorage later). Writes are atomic; a missing, truncated, corrupted or
//! future-version entry never stops the game: it is set aside as a backup and defaults are used.
use std::collections::BTreeMap;
use std::io;
use std::path::PathBuf;
use std::sync::Mutex;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

/// The format version of everything this module writes.
pub const SAVE_VERSION: u32 = 1;

/// Where saved entries live: named text blobs.
pub trait Storage: Send + Sync {
    /// The entry's text, `None` when there is none.
    fn read(&self, key: &str) -> io::Result<Option<String>>;
    /// Replaces the entry, all or nothing.
    fn write(&self, key: &str, text: &str) -> io::Result<()>;
    /// Moves the entry out of the way (kept for the player); returns the backup's name.
    fn set_aside(&self, key: &str) -> io::Result<Option<String>>;
    /// The keys of every entry, sorted.
    fn keys(&self) -> io::Result<Vec<String>>;
    /// Deletes the entry (no error if there is none).
    fn remove(&self, key: &str) -> io::Result<()>;
}

/// Files in a directory, one `KEY.ron` per entry.
#[derive(Debug, Clone)]
pub struct DirStorage {
    root: PathBuf,
}

impl DirStorage {
    /// Storage in `root` (created when first written).
    pub fn new(root: impl Into<PathBuf>) -> DirStorage {
        DirStorage { root: root.into() }
    }

    /// The platform's data directory for Arachne (`~/.local/share/arachne` on Linux).
    #[cfg(not(target_arch = "wasm32"))]
    pub fn platform() -> Option<DirStorage> {
        directories::ProjectDirs::from("org", "Arachne", "arachne")
            .map(|d| DirStorage::new(d.data_dir()))
    }

    fn path(&self, key: &str) -> PathBuf {
        self.root.join(format!("{key}.ron"))
    }
}

impl Storage for DirStorage {
    fn read(&self, key: &str) -> io::Result<Option<String>> {
        match std::fs::read(self.path(key)) {
            // Invalid UTF-8 is corruption like any other: hand it on lossily and let the parser refuse it.
            Ok(bytes) => Ok(Some(String::from_utf8_lossy(&bytes).into_owned())),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(e),
        }
    }

    fn write(&self, key: &str, text: &str) -> io::Result<()> {
        use std::io::Write;
        std::fs::create_dir_all(&self.root)?;
        // Temp file in the same directory, flushed to disk, then renamed over the old file:
        // a crash at any point leaves either the old entry or the new one, never half of one.
        // Its name is unique to this process and write, so two running copies of the game (or
        // two threads) never write into each other's temp file; the last rename wins whole.
        static WRITES: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let n = WRITES.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let tmp = self
            .root
            .join(format!(".{key}.ron.{}-{n}.tmp", std::process::id()));
        let written = (|| {
            let mut f = std::fs::File::create(&tmp)?;
            f.write_all(text.as_bytes())?;
            f.sync_all()?;
            std::fs::rename(&tmp, self.path(key))
        })();
        if written.is_err() {
            let _ = std::fs::remove_file(&tmp);
        }
        written?;
        // The rename itself is durable only once the directory is on disk too.
        sync_dir(&self.root)
    }

    fn set_aside(&self, key: &str) -> io::Result<Option<String>> {
        let from = self.path(key);
        if !from.exists() {
            return Ok(None);
        }
        let mut n = 1;
        let to = loop {
            let candidate = self.root.join(format!("{key}.ron.bad-{n}"));
            if !candidate.exists() {
                break candidate;
            }
            n += 1;
        };
        std::fs::rename(&from, &to)?;
        Ok(Some(to.display().to_string()))
    }

    fn keys(&self) -> io::Result<Vec<String>> {
        let entries = match std::fs::read_dir(&self.root) {
            Ok(e) => e,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(e) => return Err(e),
        };
        let mut keys = Vec::new();
        for entry in entries {
            let name = entry?.file_name();
            let name = name.to_string_lossy();
            if let Some(key) = name.strip_suffix(".ron")
                && !key.starts_with('.')
            {
                keys.push(key.to_string());
            }
        }
        keys.sort();
        Ok(keys)
    }

    fn remove(&self, key: &str) -> io::Result<()> {
        match std::fs::remove_file(self.path(key)) {
            Err(e) if e.kind() != io::ErrorKind::NotFound => Err(e),
            _ => Ok(()),
        }
    }
}

/// Flushes a directory's entries (a rename in it) to disk. Windows cannot open a directory
/// as a file; there the rename is as durable as the file system makes it.
fn sync_dir(dir: &std::path::Path) -> io::Result<()> {
    #[cfg(unix)]
    std::fs::File::open(dir)?.sync_all()?;
    #[cfg(not(unix))]
    let _ = dir;
    Ok(())
}

/// Another storage whose writes happen on a thread of their own, so a frame never waits for a
/// disk's fsync. Reads see the writes still queued; the newest text for a key wins. Dropping it
/// (the game quitting) finishes every queued write first.
#[cfg(not(target_arch = "wasm32"))]
pub struct BackgroundWrites {
    inner: std::sync::Arc<dyn Storage>,
    queued: std::sync::Arc<Mutex<BTreeMap<String, String>>>,
    wake: Option<std::sync::mpsc::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

#[cfg(not(target_arch = "wasm32"))]
impl BackgroundWrites {
    /// Writes to `inner` from a background thread.
    pub fn new(inner: std::sync::Arc<dyn Storage>) -> BackgroundWrites {
        let queued: std::sync::Arc<Mutex<BTreeMap<String, String>>> = Default::default();
        let (wake, woken) = std::sync::mpsc::channel::<()>();
        let (store, queue) = (inner.clone(), queued.clone());
        let thread = std::thread::Builder::new()
            .name("arachne-saves".into())
            .spawn(move || {
                // Each wake-up writes everything queued; the loop ends when the sender is gone.
                while woken.recv().is_ok() {
                    let lock = || queue.lock().unwrap_or_else(|e| e.into_inner());
                    loop {
                        // The entry stays queued (and readable) until it is on disk.
                        let next = lock().iter().next().map(|(k, v)| (k.clone(), v.clone()));
                        let Some((key, text)) = next else { break };
                        if let Err(e) = store.write(&key, &text) {
                            tracing::warn!("could not save {key}: {e}");
                        }
                        let mut q = lock();
                        if q.get(&key) == Some(&text) {
                            q.remove(&key);
                        }
                    }
                }
            })
            .ok();
        BackgroundWrites {
            inner,
            queued,
            wake: thread.as_ref().map(|_| wake),
            thread,
        }
    }

    fn queue(&self) -> std::sync::MutexGuard<'_, BTreeMap<String, String>> {
        self.queued.lock().unwrap_or_else(|e| e.into_inner())
    }
}

#[cfg(not(target_arch = "wasm32"))]
impl Storage for BackgroundWrites {
    fn read(&self, key: &str) -> io::Result<Option<String>> {
        if let Some(text) = self.queue().get(key) {
            return Ok(Some(text.clone()));
        }
        self.inner.read(key)
    }

    fn write(&self, key: &str, text: &str) -> io::Result<()> {
        let Some(wake) = &self.wake else {
            // No thread could be started: write here.
            return self.inner.write(key, text);
        };
        self.queue().insert(key.to_string(), text.to_string());
        wake.send(()).map_err(io::Error::other)
    }

    fn set_aside(&self, key: &str) -> io::Result<Option<String>> {
        self.queue().remove(key);
        self.inner.set_aside(key)
    }

    fn keys(&self) -> io::Result<Vec<String>> {
        let mut keys = self.inner.keys()?;
        keys.extend(self.queue().keys().cloned());
        keys.sort();
        keys.dedup();
        Ok(keys)
    }

    fn remove(&self, key: &str) -> io::Result<()> {
        self.queue().remove(key);
        self.inner.remove(key)
    }
}

#[cfg(not(target_arch = "wasm32"))]
impl Drop for BackgroundWrites {
    fn drop(&mut self) {
        // Closing the channel ends the thread once the queue is written.
        self.wake = None;
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// Entries in memory (tests, and a fallback when there is no data directory).
#[derive(Debug, Default)]
pub struct MemoryStorage(pub Mutex<BTreeMap<String, String>>);

impl Storage for MemoryStorage {
    fn read(&self, key: &str) -> io::Result<Option<String>> {
        Ok(self.lock().get(key).cloned())
    }

    fn write(&self, key: &str, text: &str) -> io::Result<()> {
        self.lock().insert(key.to_string(), text.to_string());
        Ok(())
    }

    fn set_aside(&self, key: &str) -> io::Result<Option<String>> {
        let mut map = self.lock();
        let Some(text) = map.remove(key) else {
            return Ok(None);
        };
        let backup = format!("{key}.bad-{}", map.len() + 1);
        map.insert(backup.clone(), text);
        Ok(Some(backup))
    }

    fn keys(&self) -> io::Result<Vec<String>> {
        Ok(self
            .lock()
            .keys()
            .filter(|k| !k.contains(".bad-"))
            .cloned()
            .collect())
    }

    fn remove(&self, key: &str) -> io::Result<()> {
        self.lock().remove(key);
        Ok(())
    }
}

impl MemoryStorage {
    fn lock(&self) -> std::sync::MutexGuard<'_, BTreeMap<String, String>> {
        // A panic elsewhere while holding the lock leaves the map usable.
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// The envelope every entry is written in.
#[derive(Serialize, Deserialize)]
struct Envelope<T> {
    version: u32,
    data: T,
}

/// Only the version, read first so a future file is told apart from a corrupted one.
#[derive(Deserialize)]
struct VersionOnly {
    version: u32,
}

/// What loading an entry gave.
#[derive(Debug, PartialEq)]
pub enum Loaded<T> {
    /// There was none.
    Missing,
    /// Read as saved.
    Ok(T),
    /// The entry could not be used: it was set aside (`backup`), and the message says why.
    Recovered {
        /// For the player.
        message: String,
        /// Where the old entry went, if it could be moved.
        backup: Option<String>,
    },
}

impl<T: Default> Loaded<T> {
    /// The value, or the default; plus the message to show, if any.
    pub fn or_default(self) -> (T, Option<String>) {
        match self {
            Loaded::Ok(v) => (v, None),
            Loaded::Missing => (T::default(), None),
            Loaded::Recovered { message, .. } => (T::default(), Some(message)),
        }
    }
}

/// Writes `value` under `key`.
pub fn save<T: Serialize>(storage: &dyn Storage, key: &str, value: &T) -> io::Result<()> {
    let text = ron::ser::to_string_pretty(
        &Envelope {
            version: SAVE_VERSION,
            data: value,
        },
        ron::ser::PrettyConfig::default(),
    )
    .map_err(io::Error::other)?;
    storage.write(key, &text)
}

/// Reads `key`; anything unusable is set aside and reported, never a panic.
pub fn load<T: DeserializeOwned>(storage: &dyn Storage, key: &str) -> Loaded<T> {
    let text = match storage.read(key) {
        Ok(Some(t)) => t,
        Ok(None) => return Loaded::Missing,
        Err(e) => {
            return Loaded::Recovered {
                message: format!("could not read saved {key}: {e}"),
                backup: None,
            };
        }
    };
    let problem = match ron::from_str::<VersionOnly>(&text) {
        Ok(v) if v.version > SAVE_VERSION => format!(
            "saved {key} is from a newer Arachne (format {}, this one reads up to {SAVE_VERSION})",
            v.version
        ),
        _ => match ron::from_str::<Envelope<T>>(&text) {
            Ok(e) => return Loaded::Ok(e.data),
            Err(e) => format!("saved {key} is damaged ({e})"),
        },
    };
    let backup = storage.set_aside(key).ok().flatten();
    let message = match &backup {
        Some(b) => format!("{problem}; it was kept as {b} and defaults are used"),
        None => format!("{problem}; defaults are used"),
    };
    Loaded::Recovered { message, backup }
}

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
    pub fn record(&mut self, won: bool, secs: u64, score: i64, moves: u32, assisted: bool) {
        self.played += 1;
        if won && assisted {
            self.won += 1;
            self.assisted_wins += 1;
        } else if won {
            self.won += 1;
            self.current_streak += 1;
            self.best_streak = self.best_streak.max(self.current_streak);
            self.current_loss_streak = 0;
            self.best_time_secs = Some(self.best_time_secs.map_or(secs, |b| b.min(secs)));
            self.best_score = Some(self.best_score.map_or(score, |b| b.max(score)));
            self.fewest_moves = Some(self.fewest_moves.map_or(moves, |b| b.min(moves)));
        } else {
            self.current_streak = 0;
            self.current_loss_streak += 1;
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
#[serde(default)]
pub struct Statistics {
    /// Per variant.
    pub variants: BTreeMap<String, VariantStats>,
}

/// The storage the game saves to.
#[derive(bevy::prelude::Resource, Clone)]
pub struct Saves(pub std::sync::Arc<dyn Storage>);

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
    let existing = replay_keys(storage)?;
    let next = existing
        .last()
        .and_then(|k| k[REPLAY_PREFIX.len()..].parse::<u64>().ok())
        .map_or(1, |n| n + 1);
    let key = format!("{REPLAY_PREFIX}{next:06}");
    storage.write(&key, &replay.to_ron())?;
    let excess = (existing.len() + 1).saturating_sub(REPLAYS_KEPT);
    for old in existing.iter().take(excess) {
        storage.remove(old)?;
    }
    Ok(key)
}

/// The keys of the saved replays, oldest first.
pub fn replay_keys(storage: &dyn Storage) -> io::Result<Vec<String>> {
    Ok(storage
        .keys()?
        .into_iter()
        .filter(|k| {
            k.strip_prefix(REPLAY_PREFIX)
                .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
        })
        .collect())
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

/// Reads the saved replays, newest first; an unreadable one is skipped with a warning (the
/// viewer reports it when it is opened).
pub fn saved_replays(storage: &dyn Storage) -> Vec<SavedReplay> {
    let variants = arachne_engine::Variants::default();
    let mut out = Vec::new();
    for key in replay_keys(storage).unwrap_or_default().into_iter().rev() {
        let Ok(Some(text)) = storage.read(&key) else {
            continue;
        };
        match arachne_engine::Replay::from_ron(&text) {
            Ok(replay) => {
                let won = replay.verify(&variants).is_ok_and(|g| g.is_won());
                out.push(SavedReplay { key, replay, won });
            }
            Err(e) => tracing::warn!("saved replay {key}: {e}"),
        }
    }
    out
}

/// Autosaves the game after every change, when the app has a [`Saves`] resource.
pub(super) fn plugin(app: &mut bevy::prelude::App) {
    use bevy::prelude::*;
    app.init_resource::<Statistics>()
        .init_resource::<SaveSettings>()
        .add_systems(
            Update,
            (
                autosave.run_if(resource_exists::<Saves>),
                count_games,
                save_settings,
            )
                .in_set(crate::AppSystems::Plan),
        );
}

/// Settings the player changed, saved after half a second of calm (a slider being dragged
/// is not saved at every step).
#[derive(bevy::prelude::Resource, Debug, Default)]
pub struct SaveSettings(Option<f32>);

impl SaveSettings {
    /// Saves the settings shortly.
    pub fn soon(&mut self) {
        self.0 = Some(0.5);
    }

    /// Whether a save is waiting.
    pub fn pending(&self) -> bool {
        self.0.is_some()
    }
}

fn save_settings(
    mut pending: bevy::prelude::ResMut<SaveSettings>,
    time: bevy::prelude::Res<bevy::prelude::Time>,
    settings: bevy::prelude::Res<crate::settings::Settings>,
    saves: Option<bevy::prelude::Res<Saves>>,
) {
    let Some(left) = pending.0.as_mut() else {
        return;
    };
    *left -= time.delta_secs();
    if *left > 0.0 {
        return;
    }
    pending.0 = None;
    if let Some(saves) = saves
        && let Err(e) = save(saves.0.as_ref(), crate::settings::SETTINGS_KEY, &*settings)
    {
        tracing::warn!("could not save the settings: {e}");
    }
}

/// Adds finished games to the statistics, and saves them when there is storage.
fn count_games(
    mut ended: bevy::prelude::MessageReader<crate::table::GameFinished>,
    mut stats: bevy::prelude::ResMut<Statistics>,
    saves: Option<bevy::prelude::Res<Saves>>,
) {
    let mut any = false;
    for f in ended.read() {
        count_finished(saves.as_ref().map(|s| s.0.as_ref()), &mut stats, f);
        any = true;
    }
    if any
        && let Some(saves) = saves
        && let Err(e) = save(saves.0.as_ref(), STATS_KEY, &*stats)
    {
        tracing::warn!("could not save the statistics: {e}");
    }
}

/// Counts a finished game in `stats` and keeps its replay (when there is storage). The caller
/// saves the statistics.
fn count_finished(
    storage: Option<&dyn Storage>,
    stats: &mut Statistics,
    f: &crate::table::GameFinished,
) {
    if let Some(storage) = storage
        && let Err(e) = save_replay(storage, &f.replay)
    {
        tracing::warn!("could not save the finished game's replay: {e}");
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
    mut changes: bevy::prelude::MessageReader<crate::table::TableChanged>,
    table: bevy::prelude::Res<crate::table::Table>,
    record: bevy::prelude::Res<crate::table::GameRecord>,
    saves: bevy::prelude::Res<Saves>,
    watching: bevy::prelude::Res<crate::table::Watching>,
    mut saved_clock: bevy::prelude::Local<u64>,
) {
    // While a replay or demo is shown, the player's game stays saved as it was.
    let changed = changes.read().count() > 0;
    if watching.0 {
        return;
    }
    // Every change is saved; so is the clock now and then, so that a crash costs seconds.
    let clock = record.clock();
    if !changed && clock < *saved_clock + CLOCK_SAVE_SECS {
        return;
    }
    *saved_clock = clock;
    if let Err(e) = saves.0.write(GAME_KEY, &record.replay_of(&table).to_ron()) {
        tracing::warn!("could not save the game: {e}");
    }
}

/// The saved game, if there is a usable one, with its clock and whether it was counted; an
/// unusable one is set aside and the message says so.
pub fn load_game(
    storage: &dyn Storage,
) -> (
    Option<(crate::table::Table, crate::table::GameRecord)>,
    Option<String>,
) {
    let text = match storage.read(GAME_KEY) {
        Ok(Some(t)) => t,
        Ok(None) => return (None, None),
        Err(e) => return (None, Some(format!("could not read the saved game: {e}"))),
    };
    let variants = arachne_engine::Variants::default();
    let table = arachne_engine::Replay::from_ron(&text).and_then(|replay| {
        let game = replay.verify(&variants)?;
        let variant = variants
            .get(&replay.variant)
            .cloned()
            .ok_or_else(|| arachne_engine::ReplayError::UnknownVariant(replay.variant.clone()))?;
        let record = crate::table::GameRecord::resumed(&game, &replay);
        Ok((
            crate::table::Table {
                game,
                spec: crate::table::GameSpec {
                    variant,
                    seed: replay.seed,
                    numbering: replay.numbering,
                    options: replay.options,
                },
            },
            record,
        ))
    });
    match table {
        Ok(t) => (Some(t), None),
        Err(e) => {
            let backup = storage.set_aside(GAME_KEY).ok().flatten();
            let kept = backup.map_or(String::new(), |b| format!("; it was kept as {b}"));
            (
                None,
                Some(format!("the saved game could not be resumed ({e}){kept}")),
            )
        }
    }
}

/// The saved game to resume at start: the one in progress, exactly as it was left. A finished
/// game (won, even if undone since) is not resumed: the player gets a fresh deal.
pub fn resume_game(
    storage: &dyn Storage,
) -> (
    Option<(crate::table::Table, crate::table::GameRecord)>,
    Option<String>,
) {
    let (saved, message) = load_game(storage);
    (saved.filter(|(_, record)| !record.counted), message)
}

/// A deal asked for on the command line replaces the saved game: if that game was in
/// progress it counts as given up (as leaving any game does), with its replay kept. Returns
/// what to tell the player.
pub fn give_up_saved_game(storage: &dyn Storage, stats: &mut Statistics) -> Option<String> {
    let (saved, message) = resume_game(storage);
    let Some((table, mut record)) = saved else {
        return message;
    };
    // Counted as the table counts leaving a game: not at all without a move.
    let Some(finished) = crate::table::finished(&table, &mut record, false) else {
        return message;
    };
    count_finished(Some(storage), stats, &finished);
    if let Err(e) = save(storage, STATS_KEY, stats) {
        tracing::warn!("could not save the statistics: {e}");
    }
    Some(format!(
        "the saved game ({}, deal {}, {} moves) counts as given up: the command line asked for another deal",
        table.spec.variant.name,
        table.spec.seed,
        table.game.move_count()
    ))
}
