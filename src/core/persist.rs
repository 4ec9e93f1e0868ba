//! Saving and loading: versioned RON behind one small storage trait (files on the desktop, the
//! browser's localStorage later). Writes are atomic; a missing, truncated, corrupted or
//! future-version entry never stops the game: it is set aside as a backup and defaults are used.
use std::collections::BTreeMap;
use std::io;
use std::path::PathBuf;
use std::sync::Mutex;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::core::i18n::tf;

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
    /// What tells this storage's entries apart from another's (where they live): entries held
    /// back by [`load`] are known by it.
    fn identity(&self) -> String {
        format!("{:p}", self as *const Self as *const ())
    }
    /// Whether a write only queues the text, to be written later by another storage (which
    /// makes room for it itself: [`BackgroundWrites`]).
    fn queues_writes(&self) -> bool {
        false
    }
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
            // Invalid UTF-8 is corruption like any other: hand it on lossily and let the parser
            // refuse it. A byte-order mark (some editors write one) is no part of the text: RON
            // refused it, and a hand-edited save was set aside as damaged.
            Ok(bytes) => {
                let text = String::from_utf8_lossy(&bytes);
                Ok(Some(
                    text.strip_prefix('\u{feff}').unwrap_or(&text).to_string(),
                ))
            }
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(e),
        }
    }

    fn write(&self, key: &str, text: &str) -> io::Result<()> {
        use std::io::Write;
        refuse_held(&self.identity(), key)?;
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
        keys.sort_unstable();
        Ok(keys)
    }

    fn remove(&self, key: &str) -> io::Result<()> {
        refuse_held(&self.identity(), key)?;
        match std::fs::remove_file(self.path(key)) {
            Err(e) if e.kind() != io::ErrorKind::NotFound => Err(e),
            _ => Ok(()),
        }
    }

    /// Its directory: another storage of the same directory holds the same entries.
    fn identity(&self) -> String {
        self.root.display().to_string()
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
                        // A full disk makes room by the oldest kept games, as the browser's
                        // storage does; a failure leaves this run's copy the newer one.
                        let written = write_making_room(store.as_ref(), &key, &text, &kept_games());
                        if let Err(e) = written {
                            save_failed("save.what.file", &format!("{key}: {e}"));
                            unsynced(&store.identity(), &key, &text);
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
        refuse_held(&self.identity(), key)?;
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
        keys.sort_unstable();
        keys.dedup();
        Ok(keys)
    }

    fn remove(&self, key: &str) -> io::Result<()> {
        refuse_held(&self.identity(), key)?;
        self.queue().remove(key);
        self.inner.remove(key)
    }

    fn identity(&self) -> String {
        self.inner.identity()
    }

    fn queues_writes(&self) -> bool {
        self.wake.is_some()
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
pub struct MemoryStorage(pub Mutex<BTreeMap<String, String>>, MemoryId);

/// A number of its own for each [`MemoryStorage`]: what it is known by ([`Storage::identity`]),
/// never reused within a run as an address could be.
#[derive(Debug)]
struct MemoryId(u64);

impl Default for MemoryId {
    fn default() -> MemoryId {
        static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        MemoryId(NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed))
    }
}

impl Storage for MemoryStorage {
    fn read(&self, key: &str) -> io::Result<Option<String>> {
        Ok(self.lock().get(key).cloned())
    }

    fn write(&self, key: &str, text: &str) -> io::Result<()> {
        refuse_held(&self.identity(), key)?;
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
        refuse_held(&self.identity(), key)?;
        self.lock().remove(key);
        Ok(())
    }

    fn identity(&self) -> String {
        format!("memory {}", self.1.0)
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
    save_dropping(storage, key, value, &[])
}

/// [`save`], dropping the oldest kept games of `prefixes` when the storage is full
/// ([`write_making_room`]; with none, a full storage is an error like any other), and noting
/// what this run left saved ([`take_newer`]).
fn save_dropping<T: Serialize>(
    storage: &dyn Storage,
    key: &str,
    value: &T,
    prefixes: &[&str],
) -> io::Result<()> {
    let text = to_text(value)?;
    noted_write(storage, key, &text, |s, k, t| {
        write_making_room(s, k, t, prefixes)
    })
}

/// Writes `text` with `write`, noting it as what this run left saved ([`take_newer`]). It is
/// noted before the write: the desktop's save thread ([`BackgroundWrites`]) may fail it, and
/// note the failure, before `write` returns; a failure seen here is noted too.
fn noted_write(
    storage: &dyn Storage,
    key: &str,
    text: &str,
    write: impl FnOnce(&dyn Storage, &str, &str) -> io::Result<()>,
) -> io::Result<()> {
    synced(storage, key, Some(text.to_string()));
    let written = write(storage, key, text);
    if written.is_err() {
        synced(storage, key, None);
    }
    written
}

/// The text this run last read from or wrote to each entry (a storage's identity, the key),
/// or `None` after a failed write: what [`take_newer`] compares with.
static SYNCED: Mutex<Vec<((String, String), Option<String>)>> = Mutex::new(Vec::new());

fn synced(storage: &dyn Storage, key: &str, text: Option<String>) {
    set_synced((storage.identity(), key.to_string()), text);
}

/// A write of `text` under `key` to the storage known as `identity` failed after it was
/// queued ([`BackgroundWrites`]): this run's copy is the newer one. Unless a newer text has been
/// noted since (queued behind it, it may yet be written).
#[cfg(not(target_arch = "wasm32"))]
fn unsynced(identity: &str, key: &str, text: &str) {
    update_synced((identity.to_string(), key.to_string()), |noted| {
        if noted.as_deref().is_none_or(|n| n == text) {
            *noted = None;
        }
    });
}

fn set_synced(id: (String, String), text: Option<String>) {
    update_synced(id, |noted| *noted = text);
}

/// Changes what this run noted of an entry (`None` when nothing was, or its write failed),
/// under one lock.
fn update_synced(id: (String, String), change: impl FnOnce(&mut Option<String>)) {
    let mut all = SYNCED.lock().unwrap_or_else(|e| e.into_inner());
    match all.iter_mut().find(|(k, _)| *k == id) {
        Some((_, noted)) => change(noted),
        None => {
            let mut noted = None;
            change(&mut noted);
            all.push((id, noted));
        }
    }
}

/// What this run noted of an entry: `None` if nothing, `Some(None)` if its last write failed.
fn noted(storage: &dyn Storage, key: &str) -> Option<Option<String>> {
    let id = (storage.identity(), key.to_string());
    let all = SYNCED.lock().unwrap_or_else(|e| e.into_inner());
    all.iter().find(|(k, _)| *k == id).map(|(_, t)| t.clone())
}

/// Replaces `value` with the entry saved under `key`, when another running copy of the game
/// (a second browser tab, a second window) has saved it since this one last read or wrote it:
/// the statistics are counted on the newest copy, and the other copy's games are not lost when
/// this one saves. Nothing changes when the entry is as this run left it, when it cannot be
/// read, or when this run's last write of it failed (its own copy is then the newer). True
/// when it was replaced.
pub fn take_newer<T: DeserializeOwned>(storage: &dyn Storage, key: &str, value: &mut T) -> bool {
    let known = match noted(storage, key) {
        Some(Some(text)) => Some(text),
        // This run's last write failed: its own copy is the newer.
        Some(None) => return false,
        None => None,
    };
    let Ok(Some(text)) = storage.read(key) else {
        return false;
    };
    if known.as_deref() == Some(text.as_str()) {
        return false;
    }
    match ron::from_str::<Envelope<T>>(&text) {
        Ok(e) if e.version <= SAVE_VERSION => {
            *value = e.data;
            synced(storage, key, Some(text));
            true
        }
        _ => false,
    }
}

/// `value` as an entry's text (what [`save`] writes).
fn to_text<T: Serialize>(value: &T) -> io::Result<String> {
    ron::ser::to_string_pretty(
        &Envelope {
            version: SAVE_VERSION,
            data: value,
        },
        ron::ser::PrettyConfig::default(),
    )
    .map_err(io::Error::other)
}

/// Entries (a storage's [`Storage::identity`], the key) that this run could not read, or could
/// not set aside when they were unusable. Written over, they would be lost: one failed read of
/// the statistics would replace them with a fresh start. Every write and removal of them is
/// refused until the next start ([`refuse_held`]), which tries them again.
static HELD: Mutex<Vec<(String, String)>> = Mutex::new(Vec::new());

fn held() -> std::sync::MutexGuard<'static, Vec<(String, String)>> {
    HELD.lock().unwrap_or_else(|e| e.into_inner())
}

/// Leaves `key` of `storage` as it is for the rest of the run (see [`HELD`]): the games' own
/// readers of their game in progress hold it too when it cannot be read.
pub fn hold(storage: &dyn Storage, key: &str) {
    let entry = (storage.identity(), key.to_string());
    let mut held = held();
    if !held.contains(&entry) {
        held.push(entry);
    }
}

/// An error when `key` of the storage known as `identity` is held (see [`HELD`]); every
/// storage's `write` and `remove` ask first.
pub fn refuse_held(identity: &str, key: &str) -> io::Result<()> {
    if held().iter().any(|(s, k)| s == identity && k == key) {
        return Err(io::Error::other(tf("persist.held", &[("key", &key)])));
    }
    Ok(())
}

/// Reads `key`; anything unusable is set aside and reported, never a panic. An entry that
/// cannot be read, or not set aside, is left as it is and never written over this run.
pub fn load<T: DeserializeOwned>(storage: &dyn Storage, key: &str) -> Loaded<T> {
    let text = match storage.read(key) {
        Ok(Some(t)) => t,
        Ok(None) => return Loaded::Missing,
        Err(e) => {
            hold(storage, key);
            let problem = tf("persist.unreadable", &[("key", &key), ("why", &e)]);
            return Loaded::Recovered {
                message: tf("persist.left", &[("problem", &problem)]),
                backup: None,
            };
        }
    };
    let problem = match ron::from_str::<VersionOnly>(&text) {
        Ok(v) if v.version > SAVE_VERSION => tf(
            "persist.newer",
            &[
                ("key", &key),
                ("format", &v.version),
                ("max", &SAVE_VERSION),
            ],
        ),
        _ => match ron::from_str::<Envelope<T>>(&text) {
            Ok(e) => {
                synced(storage, key, Some(text));
                return Loaded::Ok(e.data);
            }
            Err(e) => tf("persist.damaged", &[("key", &key), ("why", &e)]),
        },
    };
    let (backup, message) = match storage.set_aside(key) {
        Ok(Some(b)) => {
            let message = tf("persist.kept_as", &[("problem", &problem), ("backup", &b)]);
            (Some(b), message)
        }
        Ok(None) => (None, tf("persist.defaults", &[("problem", &problem)])),
        Err(e) => {
            hold(storage, key);
            let problem = format!("{problem} ({e})");
            (None, tf("persist.left", &[("problem", &problem)]))
        }
    };
    Loaded::Recovered { message, backup }
}

/// Writes `text` under the next `PREFIXNNNNNN` key (numbered from 1) and drops the oldest such
/// entries beyond `kept`; returns the key. Both games keep their finished games this way.
pub fn save_numbered(
    storage: &dyn Storage,
    prefix: &str,
    text: &str,
    kept: usize,
) -> io::Result<String> {
    let existing = numbered_keys(storage, prefix)?;
    let next = existing
        .last()
        .and_then(|k| k[prefix.len()..].parse::<u64>().ok())
        .map_or(1, |n| n + 1);
    let key = format!("{prefix}{next:06}");
    // A full storage (the browser's quota) would refuse every new one for ever: the oldest
    // kept ones of this kind make room (see [`write_making_room`]).
    write_making_room(storage, &key, text, &[prefix])?;
    let now = numbered_keys(storage, prefix)?;
    for old in now.iter().take(now.len().saturating_sub(kept)) {
        storage.remove(old)?;
    }
    Ok(key)
}

/// Whether `e` says the storage is full: the disk, or the browser's quota for the page.
pub fn is_full(e: &io::Error) -> bool {
    matches!(
        e.kind(),
        io::ErrorKind::StorageFull | io::ErrorKind::QuotaExceeded
    )
}

/// Both games' kept games, which make room when the storage is full ([`save_making_room`]).
pub fn kept_games() -> [&'static str; 2] {
    [
        crate::spider::saves::REPLAY_PREFIX,
        crate::phase10::saves::REPLAY_PREFIX,
    ]
}

/// The storages (by identity) where dropping kept games did not make room this run: what
/// fills them is something else (in the browser, another site's data under the same origin,
/// as a GitHub Pages user's projects share one). No more kept games are dropped there until a
/// new entry fits again ([`write_making_room`]).
static NO_ROOM_FROM_KEPT_GAMES: StorageMarks = StorageMarks::new();

/// A mark this run keeps for some storages (by [`Storage::identity`]): no room from kept games
/// there, another copy's game saved over this one's, the player noted as here.
struct StorageMarks(Mutex<Vec<String>>);

impl StorageMarks {
    const fn new() -> StorageMarks {
        StorageMarks(Mutex::new(Vec::new()))
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<String>> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Whether `storage` has the mark.
    fn has(&self, storage: &dyn Storage) -> bool {
        self.lock().contains(&storage.identity())
    }

    /// Marks `storage` (`on`), or takes its mark away.
    fn set(&self, storage: &dyn Storage, on: bool) {
        let id = storage.identity();
        let mut marked = self.lock();
        marked.retain(|i| *i != id);
        if on {
            marked.push(id);
        }
    }
}

/// The kept games dropped to make room, by storage (identity), not yet told to the player.
static DROPPED_FOR_ROOM: Mutex<Vec<(String, Vec<String>)>> = Mutex::new(Vec::new());

/// Notes the kept games one write dropped, all at once (the desktop's save thread drops them
/// while the game's frames go on: told one by one, they would be told as one and then two).
fn note_dropped_for_room(storage: &dyn Storage, keys: Vec<String>) {
    if keys.is_empty() {
        return;
    }
    let id = storage.identity();
    let mut dropped = DROPPED_FOR_ROOM.lock().unwrap_or_else(|e| e.into_inner());
    match dropped.iter_mut().find(|(i, _)| *i == id) {
        Some((_, earlier)) => earlier.extend(keys),
        None => dropped.push((id, keys)),
    }
}

/// The keys of the kept games dropped to make room in `storage` since this was last asked.
pub fn take_dropped_for_room(storage: &dyn Storage) -> Vec<String> {
    let id = storage.identity();
    let mut dropped = DROPPED_FOR_ROOM.lock().unwrap_or_else(|e| e.into_inner());
    match dropped.iter().position(|(i, _)| *i == id) {
        Some(at) => dropped.swap_remove(at).1,
        None => Vec::new(),
    }
}

/// Writes `text` under `key`. When the storage is full, kept games (keys `PREFIX` and a
/// number, of `prefixes`) make room, one at a time, until it fits: the oldest of the kind that
/// has the most. Any other failure, a storage full with none left to drop, or one still full
/// when the games dropped were twice the entry's size and 16 KiB more (what fills it is not
/// kept games; dropping them all would not do), is returned without dropping anything more.
/// After that last, no kept game is dropped in that storage for the rest of the run (each save
/// would drop as many again, all for nothing), until a new entry fits there again.
pub fn write_making_room(
    storage: &dyn Storage,
    key: &str,
    text: &str,
    prefixes: &[&str],
) -> io::Result<()> {
    // Only queued here: the thread that writes it makes room (and knows whether it fits).
    if storage.queues_writes() {
        return storage.write(key, text);
    }
    let mut dropped: Vec<String> = Vec::new();
    let written = write_dropping(storage, key, text, prefixes, &mut dropped);
    // (A storage that did not drop one is not said to have.)
    dropped.retain(|k| matches!(storage.read(k), Ok(None)));
    note_dropped_for_room(storage, dropped);
    written
}

/// [`write_making_room`]'s loop: the kept games it drops are added to `dropped`.
fn write_dropping(
    storage: &dyn Storage,
    key: &str,
    text: &str,
    prefixes: &[&str],
    dropped: &mut Vec<String>,
) -> io::Result<()> {
    let mut freed = 0;
    let no_room = NO_ROOM_FROM_KEPT_GAMES.has(storage);
    // (Only then: a new entry that fits says the storage has room again.)
    let new_entry = no_room && matches!(storage.read(key), Ok(None));
    loop {
        let e = match storage.write(key, text) {
            Ok(()) => {
                if no_room && new_entry {
                    NO_ROOM_FROM_KEPT_GAMES.set(storage, false);
                }
                return Ok(());
            }
            Err(e) if is_full(&e) => e,
            Err(e) => return Err(e),
        };
        if no_room {
            return Err(e);
        }
        let mut oldest: Option<(usize, String)> = None;
        for prefix in prefixes {
            let keys = numbered_keys(storage, prefix)?;
            let first = keys.iter().find(|k| k.as_str() != key);
            if let Some(first) = first
                && oldest.as_ref().is_none_or(|(n, _)| keys.len() > *n)
            {
                oldest = Some((keys.len(), first.clone()));
            }
        }
        // (One dropped already and still listed: the storage does not drop; stop there.)
        let Some((_, oldest)) = oldest.filter(|(_, k)| !dropped.contains(k)) else {
            return Err(e);
        };
        if freed > 2 * text.len() + 16 * 1024 {
            NO_ROOM_FROM_KEPT_GAMES.set(storage, true);
            return Err(e);
        }
        freed += storage.read(&oldest)?.map_or(0, |t| t.len());
        storage.remove(&oldest)?;
        dropped.push(oldest);
    }
}

/// Writes `text` under `key`, making room for it when the storage is full by dropping the
/// oldest kept games of both games ([`write_making_room`]).
pub fn write_before_kept_games(storage: &dyn Storage, key: &str, text: &str) -> io::Result<()> {
    write_making_room(storage, key, text, &kept_games())
}

/// The storages (by identity) where another running copy of the game (a second browser tab,
/// a second window) saved its game in progress over this one's: told to the player once a run
/// ([`tell_save_failures`]).
static OTHER_COPY: StorageMarks = StorageMarks::new();

/// Whether another running copy saved its game in progress over this one's in `storage`.
pub fn other_copy_saved(storage: &dyn Storage) -> bool {
    OTHER_COPY.has(storage)
}

/// Saves a game in progress (`text` under `key`), making room for it as
/// [`write_before_kept_games`] does. When the entry is no longer what this run last wrote,
/// another running copy of the game (a second tab or window) has saved its own game there since:
/// the two take turns saving over each other, and the player is told so, once a run. (The
/// first write of a run only notes what it wrote; a write that failed checks nothing next time.)
pub fn write_game(storage: &dyn Storage, key: &str, text: &str) -> io::Result<()> {
    write_game_keeping(storage, key, text, |_| true)
}

/// [`write_game`], handing the other copy's game to `keep` first when another running copy
/// saved its own game there since: the games keep it among their kept games, so that it is not
/// lost when this one is saved in its place, unless this one plays on from it. Only a game
/// kept (`keep` returns true) is told to the player.
pub fn write_game_keeping(
    storage: &dyn Storage,
    key: &str,
    text: &str,
    keep: impl FnOnce(&str) -> bool,
) -> io::Result<()> {
    if let Some(theirs) = other_copys_game(storage, key) {
        tracing::warn!("another running copy saved its game under {key}");
        if keep(&theirs) {
            OTHER_COPY.set(storage, true);
        }
    }
    noted_write(storage, key, text, write_before_kept_games)
}

/// The game another running copy of the game (a second tab or window) saved under `key` since
/// this run last read or wrote it there; `None` when the entry is as this run left it, cannot
/// be read, was never read or written by this run, or when this run's last write of it failed
/// (its own game is then the newer).
pub fn other_copys_game(storage: &dyn Storage, key: &str) -> Option<String> {
    let Some(Some(known)) = noted(storage, key) else {
        return None;
    };
    match storage.read(key) {
        Ok(Some(now)) if now != known => Some(now),
        _ => None,
    }
}

/// Notes `text` as what this run read of `key` (a game in progress it resumed or took up):
/// [`other_copys_game`] compares with it.
pub fn note_read(storage: &dyn Storage, key: &str, text: &str) {
    synced(storage, key, Some(text.to_string()));
}

/// How many times the game's window (or the page's tab) came back to the player: each game
/// looks then for a game another running copy saved meanwhile ([`other_copys_game`]) and takes
/// it up, so that playing in two tabs or windows by turns loses nothing.
#[derive(bevy::prelude::Resource, Debug, Default, Clone, Copy, PartialEq, Eq)]
#[component(clone_behavior = Ignore)]
pub struct Refocused(pub u64);

/// What the page said last of its focus (`web`): 0 nothing new, 1 its tab was shown again or
/// its window took the focus, 2 it was hidden or its window lost the focus.
static PAGE_FOCUS: std::sync::atomic::AtomicU8 = std::sync::atomic::AtomicU8::new(0);

/// The page's tab was shown again, or its window took the focus: counted in [`Refocused`] at
/// the next frame.
pub fn refocused() {
    PAGE_FOCUS.store(1, std::sync::atomic::Ordering::Relaxed);
}

/// The page was hidden, or its window lost the focus ([`StandBy`]).
pub fn unfocused() {
    PAGE_FOCUS.store(2, std::sync::atomic::Ordering::Relaxed);
}

/// Set when another running copy wrote the settings (the page's `storage` event, `web`): this
/// copy takes them up at its next frame ([`take_up_other_copys_settings`]), as when the player
/// comes back to it. Shared with the page's event handler.
#[derive(bevy::prelude::Resource, Debug, Default, Clone)]
#[component(clone_behavior = Ignore)]
pub struct SettingsWrittenElsewhere(std::sync::Arc<std::sync::atomic::AtomicBool>);

impl SettingsWrittenElsewhere {
    /// The settings were written by another running copy.
    pub fn set(&self) {
        self.0.store(true, std::sync::atomic::Ordering::Relaxed);
    }

    fn take(&self) -> bool {
        self.0.swap(false, std::sync::atomic::Ordering::Relaxed)
    }
}

/// The entry naming the running copy of the game the player came to last (the last whose
/// window took the focus, or whose tab was shown): a copy away from the player waits while it
/// names another ([`StandBy`]).
pub const PLAYER_HERE_KEY: &str = "player-here";

/// This running copy's name in [`PLAYER_HERE_KEY`]: random, so that two copies (two tabs of one
/// browser, two processes) never share it.
pub fn copy_id() -> &'static str {
    static ID: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    ID.get_or_init(|| {
        #[cfg(target_arch = "wasm32")]
        let n = (js_sys::Math::random() * 9_007_199_254_740_992.0) as u64;
        #[cfg(not(target_arch = "wasm32"))]
        let n = (u64::from(std::process::id()) << 32)
            ^ std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos() as u64);
        format!("{n:016x}")
    })
}

/// Whether this copy of the game waits for the player to come back: its window lost the focus
/// (or its page was hidden) and the player went to another running copy (it took the focus
/// since: [`PLAYER_HERE_KEY`]), or another copy saved a game in progress since. It
/// then changes nothing in its games (the computer seats, an auto-complete and a deal found
/// for later wait, nothing is saved), so that the games played in the other copy are not
/// played on or saved over in the background; coming back, it takes them up. It also waits
/// for a moment whenever it loses the focus (the other copy's note may take that long to
/// show), and in the frame it comes back (its games take up the other's first).
#[derive(bevy::prelude::Resource, Debug, Default, Clone, Copy, PartialEq)]
#[component(clone_behavior = Ignore)]
pub struct StandBy {
    /// This copy's window lost the focus (or its page was hidden).
    pub away: bool,
    /// This copy waits: away, and the player went to another copy or another copy saved a
    /// game in progress since (or it is too soon to tell); or it came back this frame.
    pub waiting: bool,
    /// The player went to another copy, or another copy saved a game: seen while away.
    seen_other: bool,
    /// When this copy lost the focus (real seconds).
    away_since: f64,
    /// When the storage was last looked at while away (real seconds).
    looked_at: f64,
}

/// The run condition of whatever changes a game by itself: not while this copy waits for the
/// player to come back ([`StandBy`]).
pub fn plays_on(stand_by: Option<bevy::prelude::Res<StandBy>>) -> bool {
    stand_by.is_none_or(|s| !s.waiting)
}

/// The keys of both games' games in progress.
pub fn games_in_progress() -> [&'static str; 2] {
    [
        crate::spider::saves::GAME_KEY,
        crate::phase10::saves::GAME_KEY,
    ]
}

/// The storages (by identity) where this copy's last note that the player is here
/// ([`PLAYER_HERE_KEY`]) was written: elsewhere the entry may name a copy long gone, and is not
/// read.
static CLAIMED: StorageMarks = StorageMarks::new();

/// Notes that the player is at this copy ([`PLAYER_HERE_KEY`]).
fn player_here(storage: &dyn Storage) {
    let written = storage.write(PLAYER_HERE_KEY, copy_id());
    if let Err(e) = &written {
        tracing::warn!("cannot note that the player is at this copy: {e}");
    }
    CLAIMED.set(storage, written.is_ok());
}

/// Whether this copy's last note that the player is here was written to `storage`.
fn claimed(storage: &dyn Storage) -> bool {
    CLAIMED.has(storage)
}

/// A copy that starts is where the player is (its window may take the focus before the game
/// hears of it).
fn player_here_at_start(saves: bevy::prelude::Res<Saves>) {
    player_here(saves.0.as_ref());
}

/// How long a copy that lost the focus waits before it looks whether it should go on: the
/// copy taking the focus notes it at once, but on the desktop the note reaches the disk a
/// moment later; a computer seat's decision is seldom sooner after the player leaves.
const SETTLE_SECS: f64 = 0.4;

/// How often a copy away from the player looks again whether it should wait ([`StandBy`]).
const LOOK_EVERY_SECS: f64 = 0.1;

fn count_refocus(
    mut focused: bevy::prelude::MessageReader<bevy::window::WindowFocused>,
    mut count: bevy::prelude::ResMut<Refocused>,
    mut stand_by: bevy::prelude::ResMut<StandBy>,
    saves: Option<bevy::prelude::Res<Saves>>,
    time: bevy::prelude::Res<bevy::prelude::Time<bevy::prelude::Real>>,
) {
    let was_away = stand_by.away;
    let mut back = false;
    for f in focused.read() {
        back |= f.focused;
        stand_by.away = !f.focused;
    }
    match PAGE_FOCUS.swap(0, std::sync::atomic::Ordering::Relaxed) {
        1 => {
            back = true;
            stand_by.away = false;
        }
        2 => stand_by.away = true,
        _ => {}
    }
    if stand_by.away && !was_away {
        stand_by.away_since = time.elapsed_secs_f64();
        stand_by.seen_other = false;
    }
    if back {
        count.0 += 1;
        // (Not when the same frame took the focus away again: a quick switch through.)
        if !stand_by.away
            && let Some(saves) = saves
        {
            player_here(saves.0.as_ref());
        }
    }
    // Back this frame: the games take up the other copy's first, and play on from the next.
    stand_by.waiting = back || stand_by.away;
}

/// Takes up the settings another running copy saved since this one last read or wrote them,
/// when the player comes back to this copy ([`Refocused`]), and in the browser as soon as
/// another tab writes them ([`SettingsWrittenElsewhere`]): each copy saves its whole
/// settings, so a setting changed in the other copy would otherwise be saved over by this
/// one's next change. Not while a change of this copy's own waits to be saved (it is the
/// newer; a storage event heard meanwhile is looked at once it is written). The settings apply
/// live, as when the settings window changes them.
///
/// After the player comes back it looks twice more, [`LOOK_AGAIN_SECS`] later: the copy the
/// player left writes its waiting settings as its window loses the focus, and on the desktop
/// that write (by its save thread, fsync and all) may land after this copy's first look.
fn take_up_other_copys_settings(
    refocused: bevy::prelude::Res<Refocused>,
    written_elsewhere: bevy::prelude::Res<SettingsWrittenElsewhere>,
    time: bevy::prelude::Res<bevy::prelude::Time<bevy::prelude::Real>>,
    mut seen: bevy::prelude::Local<u64>,
    mut looks: bevy::prelude::Local<Vec<f64>>,
    saves: Option<bevy::prelude::Res<Saves>>,
    mut pending: bevy::prelude::ResMut<SaveSettings>,
    mut settings: bevy::prelude::ResMut<crate::core::settings::Settings>,
    themes: Option<bevy::prelude::ResMut<crate::core::theme::Themes>>,
) {
    let now = time.elapsed_secs_f64();
    let back = refocused.0 != *seen;
    *seen = refocused.0;
    if back {
        *looks = LOOK_AGAIN_SECS.iter().map(|s| now + s).collect();
    }
    let due = looks.iter().any(|&t| t <= now);
    looks.retain(|&t| t > now);
    // A change of this copy's own still to be written is the newer; one written as the page
    // was hidden is older than what the other copy saved after it.
    if pending.pending() && !pending.unsaved.written() {
        return;
    }
    if !back && !due && !written_elsewhere.take() {
        return;
    }
    let Some(saves) = saves else { return };
    let storage = saves.0.as_ref();
    let mut newer = settings.clone();
    if !take_newer(storage, crate::core::settings::SETTINGS_KEY, &mut newer) {
        return;
    }
    for field in newer.reset_out_of_range() {
        tracing::warn!("the settings another copy saved: {field}; its default is used");
    }
    pending.wait = None;
    if newer == *settings {
        return;
    }
    // A theme the other copy saved (its "Save as") is not listed here yet.
    if let Some(mut themes) = themes
        && themes.get(&newer.theme).is_none()
    {
        for message in themes.load_saved(storage) {
            tracing::warn!("{message}");
        }
    }
    *settings = newer;
}

/// How long after the player comes back a copy looks again for the settings another copy
/// wrote ([`take_up_other_copys_settings`]).
const LOOK_AGAIN_SECS: [f64; 2] = [0.3, 1.0];

/// While this copy is away, looks now and then whether the player went to another copy or
/// another copy saved a game in progress ([`StandBy`]); once either is seen, it waits until the
/// player comes back.
fn look_while_away(
    time: bevy::prelude::Res<bevy::prelude::Time<bevy::prelude::Real>>,
    saves: Option<bevy::prelude::Res<Saves>>,
    mut stand_by: bevy::prelude::ResMut<StandBy>,
) {
    if !stand_by.away {
        return;
    }
    let now = time.elapsed_secs_f64();
    if stand_by.seen_other || now - stand_by.away_since < SETTLE_SECS {
        return;
    }
    if now - stand_by.looked_at >= LOOK_EVERY_SECS {
        stand_by.looked_at = now;
        stand_by.seen_other = saves.is_some_and(|saves| {
            let storage = saves.0.as_ref();
            let elsewhere = claimed(storage)
                && storage
                    .read(PLAYER_HERE_KEY)
                    .ok()
                    .flatten()
                    .is_some_and(|id| id.trim() != copy_id());
            elsewhere
                || games_in_progress()
                    .iter()
                    .any(|key| other_copys_game(storage, key).is_some())
        });
    }
    stand_by.waiting = stand_by.seen_other;
}

/// [`save`], making room for it when the storage is full by dropping the oldest kept games
/// ([`write_making_room`]): the game in progress and the statistics matter more than old
/// games kept to watch.
pub fn save_making_room<T: Serialize>(
    storage: &dyn Storage,
    key: &str,
    value: &T,
) -> io::Result<()> {
    save_dropping(storage, key, value, &kept_games())
}

/// The keys `PREFIX` followed by digits, oldest first.
pub fn numbered_keys(storage: &dyn Storage, prefix: &str) -> io::Result<Vec<String>> {
    Ok(storage
        .keys()?
        .into_iter()
        .filter(|k| {
            k.strip_prefix(prefix)
                .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
        })
        .collect())
}

/// The storage the game saves to.
#[derive(bevy::prelude::Resource, Clone)]
#[component(clone_behavior = Ignore)]
pub struct Saves(pub std::sync::Arc<dyn Storage>);

/// Settings the player changed, saved after half a second of calm (a slider being dragged
/// is not saved at every step), or at once when the window loses the focus.
#[derive(bevy::prelude::Resource, Debug, Default)]
pub struct SaveSettings {
    /// Seconds of calm left before the save, while one waits.
    wait: Option<f32>,
    unsaved: UnsavedSettings,
}

impl SaveSettings {
    /// Saves the settings shortly.
    pub fn soon(&mut self) {
        self.wait = Some(0.5);
        self.unsaved
            .1
            .store(false, std::sync::atomic::Ordering::Relaxed);
    }

    /// Whether a save is waiting.
    pub fn pending(&self) -> bool {
        self.wait.is_some()
    }

    /// The settings' text while their save waits, to be written when the game closes first.
    pub fn unsaved(&self) -> UnsavedSettings {
        self.unsaved.clone()
    }
}

/// The settings' text while their save waits for calm (shared: the browser's page is closed,
/// hidden or left for another window outside the game's frames, so the text is kept ready for
/// that moment).
#[derive(Debug, Default, Clone)]
pub struct UnsavedSettings(
    std::sync::Arc<Mutex<Option<String>>>,
    /// Written by [`UnsavedSettings::save_now`] since the save began to wait (a hidden page).
    std::sync::Arc<std::sync::atomic::AtomicBool>,
);

impl UnsavedSettings {
    fn lock(&self) -> std::sync::MutexGuard<'_, Option<String>> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Writes the settings now if their save is waiting (the game closing): when the desktop
    /// app exits, and when the browser's page is hidden or closed or its window loses the
    /// focus. What it writes is noted as this run's ([`take_newer`]).
    pub fn save_now(&self, storage: &dyn Storage) {
        let text = self.lock().take();
        if let Some(text) = text {
            let key = crate::core::settings::SETTINGS_KEY;
            match noted_write(storage, key, &text, write_before_kept_games) {
                Ok(()) => self.1.store(true, std::sync::atomic::Ordering::Relaxed),
                Err(e) => save_failed("save.what.settings", &e),
            }
        }
    }

    /// Whether the waiting save was written already by [`UnsavedSettings::save_now`].
    fn written(&self) -> bool {
        self.1.load(std::sync::atomic::Ordering::Relaxed)
    }
}

/// Writes the settings after their moment of calm, or at once when the window has lost the
/// focus: the player may have gone to another running copy, which takes them up then
/// ([`take_up_other_copys_settings`]) and would otherwise save its own over them later.
fn save_settings(
    mut pending: bevy::prelude::ResMut<SaveSettings>,
    time: bevy::prelude::Res<bevy::prelude::Time>,
    settings: bevy::prelude::Res<crate::core::settings::Settings>,
    saves: Option<bevy::prelude::Res<Saves>>,
    stand_by: bevy::prelude::Res<StandBy>,
) {
    let Some(left) = pending.wait.as_mut() else {
        return;
    };
    let Some(saves) = saves else {
        pending.wait = None;
        return;
    };
    *left -= time.delta_secs();
    if *left > 0.0 && !stand_by.away {
        return;
    }
    pending.wait = None;
    *pending.unsaved.lock() = None;
    // Written already as the page was hidden or its window left (`UnsavedSettings::save_now`):
    // not again, over what another copy may have written since.
    if pending.unsaved.written() {
        return;
    }
    // A full storage (the browser's quota) makes room by the oldest kept games: a change of
    // settings that grows their text (a language chosen) was refused for good before.
    if let Err(e) = save_making_room(
        saves.0.as_ref(),
        crate::core::settings::SETTINGS_KEY,
        &*settings,
    ) {
        save_failed("save.what.settings", &e);
    }
}

/// While a save waits for calm, keeps the settings' text ready for a close (at the end of the
/// frame: the settings window changes them after `Update`).
fn keep_unsaved_ready(
    pending: bevy::prelude::Res<SaveSettings>,
    settings: bevy::prelude::Res<crate::core::settings::Settings>,
) {
    if !pending.pending() {
        return;
    }
    let mut unsaved = pending.unsaved.lock();
    if bevy::prelude::DetectChanges::is_changed(&settings) || unsaved.is_none() {
        *unsaved = to_text(&*settings).ok();
    }
}

/// Writes the settings still waiting for calm when the app's world is dropped: the last
/// resort for an exit that runs no last frame (a desktop's own quit, a logout).
#[derive(bevy::prelude::Resource)]
struct SaveOnDrop {
    unsaved: UnsavedSettings,
    storage: std::sync::Arc<dyn Storage>,
}

impl Drop for SaveOnDrop {
    fn drop(&mut self) {
        self.unsaved.save_now(self.storage.as_ref());
    }
}

/// Arms [`SaveOnDrop`] for the storage the app saves to (once it is there).
fn arm_save_on_drop(
    mut commands: bevy::prelude::Commands,
    pending: bevy::prelude::Res<SaveSettings>,
    saves: bevy::prelude::Res<Saves>,
) {
    commands.insert_resource(SaveOnDrop {
        unsaved: pending.unsaved(),
        storage: saves.0.clone(),
    });
}

/// The app is exiting: settings still waiting for calm are saved now.
fn save_settings_on_exit(
    mut exits: bevy::prelude::MessageReader<bevy::prelude::AppExit>,
    pending: bevy::prelude::Res<SaveSettings>,
    saves: Option<bevy::prelude::Res<Saves>>,
) {
    if exits.read().count() > 0
        && let Some(saves) = saves
    {
        pending.unsaved.save_now(saves.0.as_ref());
    }
}

/// The first failure to save since it was last told: what could not be saved (a text key)
/// and why.
static SAVE_FAILED: Mutex<Option<(&'static str, String)>> = Mutex::new(None);

/// Writes down that `what` (a text key, `save.what.*`) could not be saved (in the log, and for
/// the player: see [`tell_save_failures`]). Called from any thread, the background writer's
/// included.
pub fn save_failed(what: &'static str, e: &dyn std::fmt::Display) {
    tracing::warn!("could not save ({what}): {e}");
    let mut failed = SAVE_FAILED.lock().unwrap_or_else(|e| e.into_inner());
    if failed.is_none() {
        *failed = Some((what, e.to_string()));
    }
}

/// A failure to save is told in the game, once a run (a full disk or browser storage would
/// otherwise lose the player's progress unseen; later failures go to the log only).
fn tell_save_failures(
    mut told: bevy::prelude::Local<bool>,
    mut told_other: bevy::prelude::Local<bool>,
    mut dropped_told: bevy::prelude::Local<(usize, String)>,
    mut notices: bevy::prelude::ResMut<crate::core::focus::Notices>,
    saves: Option<bevy::prelude::Res<Saves>>,
) {
    if !*told_other
        && saves
            .as_ref()
            .is_some_and(|s| other_copy_saved(s.0.as_ref()))
    {
        *told_other = true;
        notices.push(crate::core::i18n::t("save.other_copy"));
    }
    // Kept games dropped to make room: the player finds fewer in Replays, and is told why. The
    // count is the run's so far, its notice in place of the one before (the same words twice
    // would show as one).
    let dropped = saves
        .as_ref()
        .map_or(0, |s| take_dropped_for_room(s.0.as_ref()).len());
    if dropped > 0 {
        let (count, shown) = &mut *dropped_told;
        *count += dropped;
        let text = match *count {
            1 => crate::core::i18n::t("save.dropped_one").to_string(),
            n => tf("save.dropped_many", &[("count", &n)]),
        };
        notices.0.retain(|(n, _)| n != shown);
        notices.push(text.clone());
        *shown = text;
    }
    let failed = SAVE_FAILED.lock().unwrap_or_else(|e| e.into_inner()).take();
    if let Some((what, why)) = failed
        && !*told
    {
        *told = true;
        notices.push(tf(
            "save.failed",
            &[("what", &crate::core::i18n::t(what)), ("why", &why)],
        ));
    }
}

/// Saves the settings when they change (after a moment of calm); the storage itself is the
/// [`Saves`] resource the app inserts. Tells the player when something could not be saved.
pub fn plugin(app: &mut bevy::prelude::App) {
    use bevy::prelude::*;
    app.init_resource::<SaveSettings>()
        .init_resource::<Refocused>()
        .init_resource::<SettingsWrittenElsewhere>()
        .init_resource::<StandBy>()
        .add_message::<bevy::window::WindowFocused>()
        .add_systems(
            PreUpdate,
            (
                player_here_at_start.run_if(bevy::prelude::resource_added::<Saves>),
                count_refocus,
                look_while_away,
            )
                .chain(),
        )
        .add_systems(
            Update,
            (
                (save_settings, tell_save_failures).in_set(crate::AppSystems::Plan),
                take_up_other_copys_settings.before(crate::AppSystems::Input),
            ),
        )
        .add_systems(PreUpdate, arm_save_on_drop.run_if(resource_added::<Saves>))
        .add_systems(
            Last,
            (keep_unsaved_ready, save_settings_on_exit)
                .chain()
                .in_set(bevy::app::OnAppExitSystems)
                .after(bevy::window::ExitSystems),
        );
}
