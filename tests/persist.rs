//! Saving and loading: every way an entry can be unusable, and a process killed mid-save.
use std::path::PathBuf;
use std::process::Command;
use std::sync::Arc;
use std::time::Duration;

use arachne::core::persist::{
    BackgroundWrites, DirStorage, Loaded, MemoryStorage, SAVE_VERSION, Storage, load, save,
};
use arachne::spider::saves::{STATS_KEY, Statistics, VariantStats};

mod common;
use common::{OtherCopy, notices_with};

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("arachne-persist-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn stats(won: u32) -> Statistics {
    let mut s = Statistics::default();
    let v = s.variants.entry("spider-2suit".into()).or_default();
    for _ in 0..won {
        v.record(true, 300, 900, 120, false);
    }
    v.record(false, 10, 400, 30, false);
    s
}

#[test]
fn statistics_count_streaks_and_bests() {
    let mut v = VariantStats::default();
    v.record(true, 300, 900, 120, false);
    v.record(true, 200, 950, 130, false);
    v.record(false, 50, 100, 20, false);
    v.record(false, 50, 100, 20, false);
    v.record(true, 400, 800, 110, false);
    assert_eq!((v.played, v.won), (5, 3));
    assert_eq!(
        (v.current_streak, v.best_streak, v.current_loss_streak),
        (1, 2, 0)
    );
    assert_eq!(
        (v.best_time_secs, v.best_score, v.fewest_moves),
        (Some(200), Some(950), Some(110))
    );
    assert!((v.win_percent() - 60.0).abs() < 1e-9);
    // A win the solver helped with counts as played and won, and in nothing else.
    v.record(true, 10, 2000, 50, true);
    assert_eq!((v.played, v.won, v.assisted_wins), (6, 4, 1));
    assert_eq!(
        (v.current_streak, v.best_streak, v.current_loss_streak),
        (1, 2, 0)
    );
    assert_eq!(
        (v.best_time_secs, v.best_score, v.fewest_moves),
        (Some(200), Some(950), Some(110))
    );
}

/// Issue 15: the game in progress comes back exactly as it was left: undo count and limit,
/// score, redo list, clock and the solver's help; a game already counted (won, even if undone
/// since) is not resumed as playable; a deal asked for on the command line counts the saved
/// game in progress as given up.
#[test]
fn a_resumed_game_is_the_game_that_was_left() {
    use arachne::spider::saves::{GAME_KEY, give_up_saved_game, load_game, resume_game};
    use arachne::spider::table::{GameRecord, GameSpec, Table};
    let storage = MemoryStorage::default();
    let mut spec =
        GameSpec::builtin("spider-1suit", 5, arachne_engine::Numbering::Arachne).unwrap();
    spec.options.undo_limit = Some(2);
    let mut table = Table::new(spec).unwrap();
    for _ in 0..4 {
        let m = table.game.legal_moves()[0];
        table.game.apply(m).unwrap();
    }
    table.game.undo().unwrap();
    let record = GameRecord {
        elapsed: 93.7,
        assisted: true,
        ..Default::default()
    };
    storage
        .write(GAME_KEY, &record.replay_of(&table).to_ron())
        .unwrap();
    let ((back, back_record), message) = match load_game(&storage) {
        (Some(r), m) => (r, m),
        other => panic!("{other:?}"),
    };
    assert_eq!(message, None);
    assert_eq!(back.game.position(), table.game.position());
    assert_eq!(back.game.score(), table.game.score());
    assert_eq!(back.game.undos_left(), Some(1));
    assert!(back.game.can_redo());
    assert_eq!(back_record.clock(), 93);
    assert!(back_record.assisted && !back_record.counted);
    assert!(resume_game(&storage).0.is_some());

    // Given up for a deal from the command line: a loss, its replay kept, once. The deal
    // asked for is saved in its place at once: started again the same way before the game's
    // first save (a failed start, a reload while the page loads), nothing is counted twice.
    let mut stats = Statistics::default();
    let asked = Table::new(
        GameSpec::builtin("spider-2suit", 77, arachne_engine::Numbering::Arachne).unwrap(),
    )
    .unwrap();
    let told = give_up_saved_game(&storage, &mut stats, &asked).expect("told");
    assert!(told.contains("given up"), "{told}");
    let v = &stats.variants["spider-1suit"];
    assert_eq!((v.played, v.won, v.current_loss_streak), (1, 0, 1));
    assert_eq!(
        arachne::spider::saves::replay_keys(&storage).unwrap().len(),
        1
    );
    let (now, _) = resume_game(&storage)
        .0
        .expect("the deal asked for is saved");
    assert_eq!(
        (now.spec.variant.id.as_str(), now.spec.seed),
        ("spider-2suit", 77)
    );
    assert_eq!(give_up_saved_game(&storage, &mut stats, &asked), None);
    assert_eq!(stats.variants["spider-1suit"].played, 1);
    assert_eq!(stats.variants.len(), 1);
    assert_eq!(
        arachne::spider::saves::replay_keys(&storage).unwrap().len(),
        1
    );

    // A game that was won and then undone is finished: counted, and not resumed.
    let mut won = Table::new(
        GameSpec::builtin("spider-1suit", 5, arachne_engine::Numbering::Arachne).unwrap(),
    )
    .unwrap();
    let line = match arachne_engine::solve(
        won.game.position(),
        arachne_engine::Budget::nodes(2_000_000),
        None,
    )
    .verdict
    {
        arachne_engine::Verdict::Solved(line) => line,
        other => panic!("spider-1suit deal 5 is won by the solver: {other:?}"),
    };
    for m in line {
        won.game.apply(m).unwrap();
    }
    won.game.undo().unwrap();
    storage
        .write(GAME_KEY, &GameRecord::default().replay_of(&won).to_ron())
        .unwrap();
    let (loaded, _) = load_game(&storage);
    assert!(loaded.expect("it loads").1.counted);
    assert!(resume_game(&storage).0.is_none());
    let mut stats = Statistics::default();
    assert_eq!(give_up_saved_game(&storage, &mut stats, &asked), None);
    assert!(stats.variants.is_empty());
}

/// A save edited by hand in an editor that writes a byte-order mark loads as it is (it was set
/// aside as damaged, and the statistics began again from nothing).
#[test]
fn a_save_with_a_byte_order_mark_loads() {
    let dir = temp_dir("bom");
    let storage = DirStorage::new(&dir);
    save(&storage, "stats", &stats(2)).unwrap();
    let path = dir.join("stats.ron");
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::write(&path, format!("\u{feff}{text}")).unwrap();
    assert_eq!(load::<Statistics>(&storage, "stats"), Loaded::Ok(stats(2)));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_saved_entry_loads_back_and_a_missing_one_is_missing() {
    let dir = temp_dir("roundtrip");
    let storage = DirStorage::new(&dir);
    assert_eq!(load::<Statistics>(&storage, "stats"), Loaded::Missing);
    save(&storage, "stats", &stats(3)).unwrap();
    assert_eq!(load::<Statistics>(&storage, "stats"), Loaded::Ok(stats(3)));
    // No temp file is left behind.
    let names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert_eq!(names, vec!["stats.ron".to_string()]);
    let _ = std::fs::remove_dir_all(&dir);
}

fn assert_recovered(storage: &DirStorage, dir: &std::path::Path, text: &[u8], why: &str) {
    std::fs::create_dir_all(dir).unwrap();
    std::fs::write(dir.join("stats.ron"), text).unwrap();
    match load::<Statistics>(storage, "stats") {
        Loaded::Recovered { message, backup } => {
            assert!(message.contains(why), "{message}");
            let backup = backup.expect("set aside");
            assert_eq!(
                std::fs::read(&backup).unwrap(),
                text,
                "the backup keeps the old bytes"
            );
            assert!(message.contains(&backup));
        }
        other => panic!("{why}: {other:?}"),
    }
    assert!(!dir.join("stats.ron").exists(), "moved aside");
    // Defaults are used and the next save works.
    let (value, message) = load::<Statistics>(storage, "stats").or_default();
    assert_eq!((value, message), (Statistics::default(), None));
    save(storage, "stats", &stats(1)).unwrap();
    assert_eq!(load::<Statistics>(storage, "stats"), Loaded::Ok(stats(1)));
}

#[test]
fn truncated_corrupted_and_future_entries_are_set_aside_with_a_message() {
    let dir = temp_dir("bad");
    let storage = DirStorage::new(&dir);
    save(&storage, "stats", &stats(2)).unwrap();
    let good = std::fs::read(dir.join("stats.ron")).unwrap();
    assert_recovered(&storage, &dir, &good[..good.len() / 2], "damaged");
    assert_recovered(&storage, &dir, b"\xff\xfe garbage \x00\x01", "damaged");
    assert_recovered(&storage, &dir, b"", "damaged");
    let future = String::from_utf8(good.clone())
        .unwrap()
        .replace(&format!("version: {SAVE_VERSION}"), "version: 99");
    assert_recovered(
        &storage,
        &dir,
        future.as_bytes(),
        "newer Arachne (format 99",
    );
    // Four backups, none overwritten.
    let backups = std::fs::read_dir(&dir)
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .file_name()
                .to_string_lossy()
                .contains(".bad-")
        })
        .count();
    assert_eq!(backups, 4);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn memory_storage_behaves_the_same() {
    let storage = MemoryStorage::default();
    save(&storage, "stats", &stats(1)).unwrap();
    assert_eq!(load::<Statistics>(&storage, "stats"), Loaded::Ok(stats(1)));
    storage
        .write(
            "stats",
            "(version: 1, data: (variants: {\"x\": (played: \"many\")}))",
        )
        .unwrap();
    assert!(matches!(
        load::<Statistics>(&storage, "stats"),
        Loaded::Recovered { .. }
    ));
    assert_eq!(load::<Statistics>(&storage, "stats"), Loaded::Missing);
}

/// Run by the test below in a child process: saves a large entry over and over until killed.
#[test]
#[ignore = "a helper the kill test runs in a child process"]
fn child_saves_forever() {
    let Ok(dir) = std::env::var("ARACHNE_SAVE_CHILD_DIR") else {
        return;
    };
    // Two children of the writers test tell their entries apart by this tag.
    let tag: u32 = std::env::var("ARACHNE_SAVE_CHILD_TAG")
        .ok()
        .and_then(|t| t.parse().ok())
        .unwrap_or(0);
    let storage = DirStorage::new(dir);
    for round in 0u32.. {
        let mut s = Statistics::default();
        for v in 0..2000 {
            s.variants.insert(
                format!("variant-{v}"),
                VariantStats {
                    played: round,
                    won: tag,
                    ..Default::default()
                },
            );
        }
        save(&storage, "stats", &s).unwrap();
    }
}

/// Two running copies of the game saving the same entry at once: every read finds one whole
/// entry of one of them, neither copy's save fails, and no temp file is left behind.
#[test]
fn two_processes_saving_at_once_never_mix_their_entries() {
    let dir = temp_dir("two-writers");
    let storage = DirStorage::new(&dir);
    let spawn = |tag: u32| {
        Command::new(std::env::current_exe().unwrap())
            .args(["--exact", "child_saves_forever", "--ignored", "--nocapture"])
            .env("ARACHNE_SAVE_CHILD_DIR", &dir)
            .env("ARACHNE_SAVE_CHILD_TAG", tag.to_string())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap()
    };
    let mut children = [spawn(1), spawn(2)];
    let mut seen = std::collections::BTreeSet::new();
    let deadline = std::time::Instant::now() + Duration::from_millis(2500);
    while std::time::Instant::now() < deadline {
        match load::<Statistics>(&storage, "stats") {
            Loaded::Ok(s) => {
                assert_eq!(s.variants.len(), 2000);
                let writers: std::collections::BTreeSet<(u32, u32)> =
                    s.variants.values().map(|v| (v.won, v.played)).collect();
                assert_eq!(writers.len(), 1, "an entry mixes two saves: {writers:?}");
                seen.extend(writers.into_iter().map(|(tag, _)| tag));
            }
            Loaded::Missing => {}
            other => panic!("{other:?}"),
        }
        for child in &mut children {
            // A writer whose save failed (its temp file renamed away by the other) has exited.
            assert!(
                child.try_wait().unwrap().is_none(),
                "a writer's save failed"
            );
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    for child in &mut children {
        child.kill().unwrap();
        child.wait().unwrap();
    }
    assert_eq!(seen, [1, 2].into(), "both writers' entries were read");
    // Killed mid-write, each may leave its own temp file, but never a `.ron` entry of it.
    assert_eq!(storage.keys().unwrap(), ["stats"]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_process_killed_mid_save_leaves_a_whole_entry() {
    let dir = temp_dir("killed");
    let storage = DirStorage::new(&dir);
    for attempt in 0..5 {
        let mut child = Command::new(std::env::current_exe().unwrap())
            .args(["--exact", "child_saves_forever", "--ignored", "--nocapture"])
            .env("ARACHNE_SAVE_CHILD_DIR", &dir)
            .spawn()
            .unwrap();
        // Killed while it saves, once it has saved at least once (a loaded machine may take
        // a while to start the child: a fixed wait found nothing saved yet).
        let started = std::time::Instant::now();
        while !dir.join("stats.ron").exists() {
            assert!(
                started.elapsed() < Duration::from_secs(60),
                "the child never saved"
            );
            std::thread::sleep(Duration::from_millis(5));
        }
        std::thread::sleep(Duration::from_millis(20 + attempt * 37));
        child.kill().unwrap();
        child.wait().unwrap();
        match load::<Statistics>(&storage, "stats") {
            Loaded::Ok(s) => {
                // A complete entry: every variant of one round.
                assert_eq!(s.variants.len(), 2000);
                let rounds: std::collections::BTreeSet<u32> =
                    s.variants.values().map(|v| v.played).collect();
                assert_eq!(rounds.len(), 1);
            }
            other => panic!("attempt {attempt}: {other:?}"),
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_game_in_progress_is_a_replay_file_and_resumes() {
    use arachne::spider::saves::{GAME_KEY, load_game};
    use arachne::spider::table::{GameSpec, Table};
    let storage = MemoryStorage::default();
    assert!(load_game(&storage).0.is_none());
    let mut table =
        Table::new(GameSpec::builtin("spider-2suit", 77, arachne_engine::Numbering::Kpat).unwrap())
            .unwrap();
    let moves = table.game.legal_moves();
    table.game.apply(moves[0]).unwrap();
    let replay =
        arachne_engine::Replay::of_game(&table.game, table.spec.numbering, table.spec.seed);
    storage.write(GAME_KEY, &replay.to_ron()).unwrap();
    let (resumed, message) = load_game(&storage);
    let (resumed, _) = resumed.expect("resumed");
    assert_eq!(message, None);
    assert_eq!(resumed.game.position(), table.game.position());
    assert_eq!(
        (resumed.spec.seed, resumed.spec.numbering),
        (77, arachne_engine::Numbering::Kpat)
    );
    // A damaged one is set aside with a message.
    storage
        .write(GAME_KEY, "(version: 1, variant: \"spider-2suit\"")
        .unwrap();
    let (resumed, message) = load_game(&storage);
    assert!(resumed.is_none());
    assert!(message.unwrap().contains("could not be resumed"));
    assert!(storage.read(GAME_KEY).unwrap().is_none());
}

#[test]
fn background_writes_read_back_at_once_and_are_on_disk_after_drop() {
    let dir = temp_dir("background");
    let disk: Arc<dyn Storage> = Arc::new(DirStorage::new(&dir));
    let bg = BackgroundWrites::new(disk.clone());
    for i in 0..200 {
        save(&bg, STATS_KEY, &stats(i)).unwrap();
        // A read sees the newest write whether or not it has reached the disk.
        assert_eq!(load::<Statistics>(&bg, STATS_KEY), Loaded::Ok(stats(i)));
    }
    bg.write("replay-000001", "x").unwrap();
    assert!(bg.keys().unwrap().contains(&"replay-000001".to_string()));
    drop(bg);
    // Dropping it finished the queue: the disk has the last of each.
    assert_eq!(
        load::<Statistics>(disk.as_ref(), STATS_KEY),
        Loaded::Ok(stats(199))
    );
    assert_eq!(disk.read("replay-000001").unwrap().as_deref(), Some("x"));
    let leftovers: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

#[test]
fn dir_storage_lists_and_removes_entries() {
    let dir = temp_dir("keys");
    let s = DirStorage::new(&dir);
    assert_eq!(s.keys().unwrap(), Vec::<String>::new());
    s.write("b", "1").unwrap();
    s.write("a", "2").unwrap();
    std::fs::write(dir.join("a.ron.bad-1"), "old").unwrap();
    assert_eq!(s.keys().unwrap(), vec!["a".to_string(), "b".to_string()]);
    s.remove("a").unwrap();
    s.remove("a").unwrap();
    assert_eq!(s.keys().unwrap(), vec!["b".to_string()]);
}

/// Storage that holds at most `room` entries, like a browser's full localStorage; with
/// `broken`, every write of a new entry fails otherwise (not for want of room).
struct Full {
    inner: MemoryStorage,
    room: std::sync::atomic::AtomicUsize,
}

/// A storage whose writes fail for another reason than room.
struct Broken(MemoryStorage);

impl Storage for Broken {
    fn read(&self, key: &str) -> std::io::Result<Option<String>> {
        self.0.read(key)
    }
    fn write(&self, _: &str, _: &str) -> std::io::Result<()> {
        Err(std::io::Error::from(std::io::ErrorKind::PermissionDenied))
    }
    fn set_aside(&self, key: &str) -> std::io::Result<Option<String>> {
        self.0.set_aside(key)
    }
    fn keys(&self) -> std::io::Result<Vec<String>> {
        self.0.keys()
    }
    fn remove(&self, key: &str) -> std::io::Result<()> {
        self.0.remove(key)
    }
    fn identity(&self) -> String {
        self.0.identity()
    }
}

impl Storage for Full {
    fn read(&self, key: &str) -> std::io::Result<Option<String>> {
        self.inner.read(key)
    }
    fn write(&self, key: &str, text: &str) -> std::io::Result<()> {
        let keys = self.inner.keys()?;
        if !keys.iter().any(|k| k == key)
            && keys.len() >= self.room.load(std::sync::atomic::Ordering::Relaxed)
        {
            return Err(std::io::Error::new(
                std::io::ErrorKind::QuotaExceeded,
                "quota exceeded",
            ));
        }
        self.inner.write(key, text)
    }
    fn set_aside(&self, key: &str) -> std::io::Result<Option<String>> {
        self.inner.set_aside(key)
    }
    fn keys(&self) -> std::io::Result<Vec<String>> {
        self.inner.keys()
    }
    fn remove(&self, key: &str) -> std::io::Result<()> {
        self.inner.remove(key)
    }
    // (Not the address: a full storage is remembered by it, and test threads reuse addresses.)
    fn identity(&self) -> String {
        self.inner.identity()
    }
}

#[test]
fn a_full_storage_makes_room_for_a_new_replay_by_the_oldest() {
    use arachne::core::persist::{numbered_keys, save_numbered};
    let full = Full {
        inner: MemoryStorage::default(),
        room: 3.into(),
    };
    full.inner.write("settings", "s").unwrap();
    for i in 1..=2 {
        save_numbered(&full, "replay-", &format!("game {i}"), 50).unwrap();
    }
    // The storage is full; the next replay still goes in, in the oldest one's place.
    let key = save_numbered(&full, "replay-", "game 3", 50).unwrap();
    assert_eq!(key, "replay-000003");
    assert_eq!(
        numbered_keys(&full, "replay-").unwrap(),
        ["replay-000002", "replay-000003"]
    );
    assert_eq!(full.read("settings").unwrap().as_deref(), Some("s"));
    // With no replay to give up, the failure is told.
    let none = Full {
        inner: MemoryStorage::default(),
        room: 0.into(),
    };
    assert!(save_numbered(&none, "replay-", "game", 50).is_err());
    // A write that fails for another reason drops no kept game.
    let broken = Broken(MemoryStorage::default());
    broken.0.write("replay-000001", "game 1").unwrap();
    assert!(save_numbered(&broken, "replay-", "game 2", 50).is_err());
    assert_eq!(
        numbered_keys(&broken, "replay-").unwrap(),
        ["replay-000001"]
    );
}

/// When the storage is full, the game in progress and the statistics still save: the oldest
/// kept games make room, taken from the game that keeps the most, as many as it takes.
#[test]
fn a_full_storage_drops_kept_games_for_the_game_in_progress_and_the_statistics() {
    use arachne::core::persist::{numbered_keys, save_making_room, write_before_kept_games};
    let full = Full {
        inner: MemoryStorage::default(),
        room: 5.into(),
    };
    for key in [
        "replay-000001",
        "p10-replay-000001",
        "p10-replay-000002",
        "p10-replay-000003",
    ] {
        full.inner.write(key, "kept").unwrap();
    }
    full.inner.write("game", "the old game").unwrap();
    // Replacing an entry takes no room; a new one drops Pro Spider 10's oldest (it keeps most).
    write_before_kept_games(&full, "game", "the game").unwrap();
    assert_eq!(numbered_keys(&full, "p10-replay-").unwrap().len(), 3);
    save_making_room(&full, STATS_KEY, &stats(2)).unwrap();
    assert_eq!(
        numbered_keys(&full, "p10-replay-").unwrap(),
        ["p10-replay-000002", "p10-replay-000003"]
    );
    assert_eq!(numbered_keys(&full, "replay-").unwrap(), ["replay-000001"]);
    assert_eq!(load::<Statistics>(&full, STATS_KEY), Loaded::Ok(stats(2)));
    // The games dropped are known, to be told to the player, once.
    assert_eq!(
        arachne::core::persist::take_dropped_for_room(&full),
        ["p10-replay-000001"]
    );
    assert!(arachne::core::persist::take_dropped_for_room(&full).is_empty());
    // Room for three more: one of each (they keep as many now), then Pro Spider 10's last.
    let tight = Full {
        inner: MemoryStorage::default(),
        room: 2.into(),
    };
    for key in ["replay-000001", "p10-replay-000001", "p10-replay-000002"] {
        tight.inner.write(key, "kept").unwrap();
    }
    write_before_kept_games(&tight, "p10-game", "the game").unwrap();
    assert_eq!(tight.keys().unwrap().len(), 2);
    assert!(tight.read("p10-game").unwrap().is_some());
    // Nothing left to drop: the failure is told.
    let none = Full {
        inner: MemoryStorage::default(),
        room: 0.into(),
    };
    assert!(write_before_kept_games(&none, "game", "x").is_err());
}

#[test]
fn a_pro_spider_10_game_left_for_one_asked_at_launch_is_counted_once() {
    // A game the player has played in is saved; a launch asks for another game (a command
    // line, a browser link). The saved one counts as left, once: the next plain start resumes
    // the game asked for, not the left one (which then counted again when left or finished).
    use arachne::phase10::round::{P10Spec, P10Table};
    use arachne::phase10::saves::{
        GAME_KEY, P10Statistics, STATS_KEY, replay_keys, save_text, startup,
    };
    use arachne_engine::phase10::Action;
    let storage = MemoryStorage::default();
    let (mut played, _) = P10Table::new(P10Spec::standard(2, 5, "petra").unwrap()).unwrap();
    played.apply(Action::DrawStock).unwrap();
    storage.write(GAME_KEY, &save_text(&played)).unwrap();
    let launched = || {
        P10Table::new(P10Spec::standard(3, 6, "petra").unwrap())
            .unwrap()
            .0
    };
    let (table, stats, messages) = startup(Some(&storage), Some(launched()));
    assert_eq!(table.unwrap().game.players(), 3);
    let key = P10Statistics::key("pro-spider-10", 2);
    assert_eq!(stats.by[&key].played, 1);
    assert_eq!(messages.len(), 1, "{messages:?}");
    // Quit before acting, start again plainly: the three-seat game comes back, nothing more
    // is counted.
    let (table, stats, messages) = startup(Some(&storage), None);
    assert_eq!(table.unwrap().game.players(), 3);
    assert_eq!(stats.by[&key].played, 1);
    assert!(messages.is_empty(), "{messages:?}");
    // Another launch: the three-seat game had no decision of the player's, so nothing counts.
    let (_, stats, _) = startup(Some(&storage), Some(launched()));
    assert_eq!(stats.by[&key].played, 1);
    assert_eq!(replay_keys(&storage).unwrap().len(), 1);
    let saved: P10Statistics = match load(&storage, STATS_KEY) {
        Loaded::Ok(s) => s,
        other => panic!("{other:?}"),
    };
    assert_eq!(saved.by[&key].played, 1);
    // With nothing saved before (a browser opened on a link for the first time), the game
    // asked for is saved as well: a reload before its first move comes back to it.
    let fresh = MemoryStorage::default();
    let (_, _, messages) = startup(Some(&fresh), Some(launched()));
    assert!(messages.is_empty(), "{messages:?}");
    let (table, _, _) = startup(Some(&fresh), None);
    assert_eq!(table.unwrap().game.players(), 3);
}

/// An entry that cannot be read is left as it is: the defaults used meanwhile are never saved
/// over it this run (one failed read of the statistics would otherwise replace them with a
/// fresh start).
#[test]
fn an_entry_that_cannot_be_read_is_never_saved_over_that_run() {
    let dir = temp_dir("unreadable");
    let storage = DirStorage::new(&dir);
    save(&storage, "stats", &stats(3)).unwrap();
    // The entry is there but cannot be read: a directory in its place stands for any read
    // error (a locked file, a failing disk); the saved statistics are kept inside it.
    let file = dir.join("stats.ron");
    let kept = dir.join("kept.ron");
    std::fs::rename(&file, &kept).unwrap();
    std::fs::create_dir(&file).unwrap();
    let (loaded, message) = load::<Statistics>(&storage, "stats").or_default();
    assert_eq!(loaded, Statistics::default());
    let message = message.expect("told");
    assert!(message.contains("nothing is saved over it"), "{message}");
    let refused = save(&storage, "stats", &stats(0)).unwrap_err();
    assert!(refused.to_string().contains("not saved over"), "{refused}");
    assert!(storage.remove("stats").is_err());
    assert!(file.is_dir(), "left as it was");
    // Other entries save as ever; the entry itself is read again (the next start reads it
    // whole, and saves it as ever: holding lasts one run, one process).
    save(&storage, "settings", &stats(1)).unwrap();
    std::fs::remove_dir(&file).unwrap();
    std::fs::rename(&kept, &file).unwrap();
    assert_eq!(load::<Statistics>(&storage, "stats"), Loaded::Ok(stats(3)));
    let _ = std::fs::remove_dir_all(&dir);
}

/// The same for both games' game in progress: one that cannot be read is neither resumed nor
/// saved over that run (the new game played meanwhile is not saved), and the player is told.
#[test]
fn a_game_in_progress_that_cannot_be_read_is_never_saved_over_that_run() {
    use arachne::core::persist::write_game;
    let dir = temp_dir("unreadable-game");
    let storage = DirStorage::new(&dir);
    for key in [
        arachne::spider::saves::GAME_KEY,
        arachne::phase10::saves::GAME_KEY,
    ] {
        // A directory in the entry's place stands for any read error.
        std::fs::create_dir_all(dir.join(format!("{key}.ron"))).unwrap();
    }
    let (spider, message) = arachne::spider::saves::load_game(&storage);
    assert!(spider.is_none());
    let message = message.expect("told");
    assert!(
        message.contains("could not read the saved game"),
        "{message}"
    );
    let (p10, message) = arachne::phase10::saves::load_game(&storage);
    assert!(p10.is_none());
    assert!(message.expect("told").contains("Pro Spider 10"));
    for key in [
        arachne::spider::saves::GAME_KEY,
        arachne::phase10::saves::GAME_KEY,
    ] {
        let refused = write_game(&storage, key, "a new game").unwrap_err();
        assert!(refused.to_string().contains("not saved over"), "{refused}");
        assert!(dir.join(format!("{key}.ron")).is_dir(), "left as it was");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Two copies of the game running on one storage each count their games on the newest saved
/// statistics, so neither saves over the other's games; a copy whose last save failed keeps
/// its own (newer) count.
#[test]
fn two_running_copies_count_their_games_on_the_newest_statistics() {
    use arachne::core::persist::take_newer;
    let shared = Arc::new(MemoryStorage::default());
    let (a, b) = (
        OtherCopy::new(&shared, "tab a"),
        OtherCopy::new(&shared, "tab b"),
    );
    save(&a, STATS_KEY, &stats(1)).unwrap();
    let Loaded::Ok(mut in_a) = load::<Statistics>(&a, STATS_KEY) else {
        panic!()
    };
    let Loaded::Ok(mut in_b) = load::<Statistics>(&b, STATS_KEY) else {
        panic!()
    };
    // Nothing saved since: each keeps its own.
    assert!(!take_newer(&a, STATS_KEY, &mut in_a));
    // B wins a game and saves; A then wins one, counted on B's statistics.
    assert!(!take_newer(&b, STATS_KEY, &mut in_b));
    in_b = stats(2);
    save(&b, STATS_KEY, &in_b).unwrap();
    assert!(take_newer(&a, STATS_KEY, &mut in_a));
    assert_eq!(in_a, stats(2));
    in_a = stats(3);
    save(&a, STATS_KEY, &in_a).unwrap();
    assert!(take_newer(&b, STATS_KEY, &mut in_b));
    assert_eq!(in_b, stats(3));
    // A's save fails (its storage full): A's count is the newer, and B's later save is not
    // taken over it.
    a.fail.store(true, std::sync::atomic::Ordering::Relaxed);
    assert!(save(&a, STATS_KEY, &stats(4)).is_err());
    in_a = stats(4);
    save(&b, STATS_KEY, &stats(5)).unwrap();
    assert!(!take_newer(&a, STATS_KEY, &mut in_a));
    assert_eq!(in_a, stats(4));
}

/// Waits until `bg` has written (or given up on) everything queued.
fn drained(bg: &BackgroundWrites, key: &str, inner: &dyn Storage) {
    for _ in 0..400 {
        if bg.read(key).unwrap() == inner.read(key).unwrap() {
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    panic!("the background writes never drained");
}

/// On the desktop the saves are written by a thread: a full disk makes room there by the
/// oldest kept games as well, and a write that fails there leaves this run's statistics the
/// newer copy (the older one on disk is not taken over them).
#[test]
fn background_writes_make_room_and_keep_a_failed_save_the_newer() {
    use arachne::core::persist::take_newer;
    let full = Arc::new(Full {
        inner: MemoryStorage::default(),
        room: 2.into(),
    });
    for key in ["replay-000001", "p10-replay-000001"] {
        full.inner.write(key, "kept").unwrap();
    }
    let bg = BackgroundWrites::new(full.clone());
    save(&bg, STATS_KEY, &stats(1)).unwrap();
    std::thread::sleep(std::time::Duration::from_millis(20));
    drained(&bg, STATS_KEY, full.as_ref());
    assert_eq!(
        load::<Statistics>(full.as_ref(), STATS_KEY),
        Loaded::Ok(stats(1))
    );
    assert_eq!(full.keys().unwrap().len(), 2, "one kept game made room");
    drop(bg);

    let broken = Arc::new(Broken(MemoryStorage::default()));
    save(&broken.0, STATS_KEY, &stats(1)).unwrap();
    let bg = BackgroundWrites::new(broken.clone());
    save(&bg, STATS_KEY, &stats(2)).unwrap();
    std::thread::sleep(std::time::Duration::from_millis(20));
    drained(&bg, STATS_KEY, broken.as_ref());
    let mut mine = stats(2);
    assert!(!take_newer(&bg, STATS_KEY, &mut mine));
    assert_eq!(mine, stats(2));
}

/// A storage full of what is not kept games: a few kept games make room, not all of them.
#[test]
fn a_storage_full_of_other_things_does_not_lose_every_kept_game() {
    use arachne::core::persist::{numbered_keys, write_before_kept_games};
    let none = Full {
        inner: MemoryStorage::default(),
        room: 0.into(),
    };
    let game = "x".repeat(10 * 1024);
    for n in 1..=20 {
        none.inner.write(&format!("replay-{n:06}"), &game).unwrap();
    }
    assert!(write_before_kept_games(&none, "game", &"y".repeat(1024)).is_err());
    let left = numbered_keys(&none, "replay-").unwrap().len();
    assert!((17..20).contains(&left), "{left} of 20 left");
}

/// Two copies of the game playing on one storage (two tabs, two windows) take turns saving their
/// games in progress over each other's; each is told so once it happens (a review asked for
/// it: before, nothing said so). One copy alone, a failed write, and a desktop's writes still
/// queued never count as another copy's.
#[test]
fn a_game_saved_over_by_another_running_copy_is_noticed() {
    use arachne::core::persist::{other_copy_saved, write_game};
    let shared = Arc::new(MemoryStorage::default());
    let (a, b) = (
        OtherCopy::new(&shared, "game tab a"),
        OtherCopy::new(&shared, "game tab b"),
    );
    // A alone: its own saves, one failing in between.
    write_game(&a, "game", "a1").unwrap();
    write_game(&a, "game", "a2").unwrap();
    a.fail.store(true, std::sync::atomic::Ordering::Relaxed);
    assert!(write_game(&a, "game", "a3").is_err());
    a.fail.store(false, std::sync::atomic::Ordering::Relaxed);
    write_game(&a, "game", "a4").unwrap();
    assert!(!other_copy_saved(&a));
    // B opens (its first save notes what it wrote) and plays; A's next save finds B's game.
    write_game(&b, "game", "b1").unwrap();
    assert!(!other_copy_saved(&b));
    write_game(&a, "game", "a5").unwrap();
    assert!(other_copy_saved(&a));
    write_game(&b, "game", "b2").unwrap();
    assert!(other_copy_saved(&b));
    // The desktop's background writer: a save still queued is this copy's own.
    let inner = Arc::new(OtherCopy::new(&shared, "game window c"));
    let bg = BackgroundWrites::new(inner.clone());
    for n in 0..50 {
        write_game(&bg, "game-c", &format!("c{n}")).unwrap();
    }
    drained(&bg, "game-c", inner.as_ref());
    write_game(&bg, "game-c", "c-last").unwrap();
    assert!(!other_copy_saved(&bg));
}

/// The player is told, once, in the game: here a Spider game saved after each move, while
/// another copy saves its own game in between.
#[test]
fn the_player_is_told_when_another_copy_saved_its_game_over_this_one() {
    use arachne::core::persist::write_game;
    use bevy::prelude::*;
    let shared = Arc::new(MemoryStorage::default());
    let mine = Arc::new(OtherCopy::new(&shared, "told tab a"));
    let other = OtherCopy::new(&shared, "told tab b");
    let mut app = spider_app(mine.clone());
    let told = |app: &App| notices_with(app, "another game was saved there");
    play_first_move(&mut app);
    play_first_move(&mut app);
    assert!(mine.read("game").unwrap().is_some(), "the game is saved");
    assert_eq!(told(&app), 0);
    write_game(&other, "game", "theirs").unwrap();
    play_first_move(&mut app);
    assert_eq!(told(&app), 1);
    write_game(&other, "game", "theirs again").unwrap();
    play_first_move(&mut app);
    play_first_move(&mut app);
    assert_eq!(told(&app), 1, "once a run");
}

/// What this run read or wrote of an entry is what another copy's game is told apart from:
/// nothing before this run read or wrote it, nothing while it is as this run left it, nothing
/// after this run's own write failed (its game is then the newer); the other copy's text once
/// it saved its own, handed to `keep` before this copy's game is saved in its place.
#[test]
fn another_copys_game_is_found_and_handed_over_before_it_is_saved_over() {
    use arachne::core::persist::{
        note_read, other_copy_saved, other_copys_game, write_game, write_game_keeping,
    };
    let shared = Arc::new(MemoryStorage::default());
    let (a, b) = (
        OtherCopy::new(&shared, "found tab a"),
        OtherCopy::new(&shared, "found tab b"),
    );
    write_game(&b, "game", "b1").unwrap();
    // A has neither read nor written it: nothing to tell apart.
    assert_eq!(other_copys_game(&a, "game"), None);
    note_read(&a, "game", "b1");
    assert_eq!(other_copys_game(&a, "game"), None);
    write_game(&b, "game", "b2").unwrap();
    assert_eq!(other_copys_game(&a, "game").as_deref(), Some("b2"));
    let mut handed = Vec::new();
    // A game handed over and not kept (this one plays on from it) is not told.
    write_game_keeping(&a, "game", "a1", |theirs| {
        handed.push(theirs.to_string());
        false
    })
    .unwrap();
    assert_eq!(handed, ["b2"]);
    assert!(!other_copy_saved(&a));
    assert_eq!(other_copys_game(&a, "game"), None);
    // A's own next save hands nothing over.
    write_game_keeping(&a, "game", "a2", |theirs| {
        handed.push(theirs.to_string());
        true
    })
    .unwrap();
    assert_eq!(handed, ["b2"]);
    // One kept is told.
    write_game(&b, "game", "b3").unwrap();
    write_game_keeping(&a, "game", "a3", |theirs| {
        handed.push(theirs.to_string());
        true
    })
    .unwrap();
    assert_eq!(handed, ["b2", "b3"]);
    assert!(other_copy_saved(&a));
    // A save of A's that failed: A's game is the newer, B's later one is not A's to take up.
    a.fail.store(true, std::sync::atomic::Ordering::Relaxed);
    assert!(write_game(&a, "game", "a4").is_err());
    a.fail.store(false, std::sync::atomic::Ordering::Relaxed);
    write_game(&b, "game", "b4").unwrap();
    assert_eq!(other_copys_game(&a, "game"), None);
}

/// The Spider table's first legal move, played and saved.
fn play_first_move(app: &mut bevy::prelude::App) {
    use arachne::spider::table::{Request, Table};
    let mv = app.world().resource::<Table>().game.legal_moves()[0];
    app.world_mut().write_message(Request::Move(mv));
    app.update();
    app.update();
}

/// A Spider app on `storage` with deal 5 of one suit, its first frame run.
fn spider_app(storage: Arc<dyn Storage>) -> bevy::prelude::App {
    use arachne::core::persist::Saves;
    use arachne::spider::table::{GameSpec, Table};
    use bevy::prelude::*;
    let table = Table::new(
        GameSpec::builtin("spider-1suit", 5, arachne_engine::Numbering::Arachne).unwrap(),
    )
    .unwrap();
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, bevy::input::InputPlugin))
        .insert_resource(Saves(storage))
        .insert_resource(table)
        .add_message::<AppExit>();
    arachne::logic_plugin(&mut app);
    app.update();
    app
}

/// Kept games dropped to make room for the game in progress are told to the player: before,
/// fewer were found in Replays, with no word why.
#[test]
fn the_player_is_told_when_kept_games_were_dropped_to_make_room() {
    let full = Arc::new(Full {
        inner: MemoryStorage::default(),
        room: 3.into(),
    });
    for n in 1..=3 {
        full.inner.write(&format!("replay-{n:06}"), "kept").unwrap();
    }
    let mut app = spider_app(full.clone());
    play_first_move(&mut app);
    assert!(full.read("game").unwrap().is_some(), "the game is saved");
    assert_eq!(
        common::notices_with(&app, "oldest kept game was dropped from Replays"),
        1
    );
    assert_eq!(
        arachne::core::persist::numbered_keys(full.as_ref(), "replay-").unwrap(),
        ["replay-000002", "replay-000003"]
    );
    // Another dropped later: the run's count so far, in place of the first notice.
    arachne::core::persist::write_before_kept_games(full.as_ref(), "another entry", "x").unwrap();
    app.update();
    assert_eq!(
        common::notices_with(&app, "oldest kept game was dropped"),
        0
    );
    assert_eq!(
        common::notices_with(&app, "2 of the oldest kept games have been dropped"),
        1
    );
}

/// A full storage (the browser's quota) makes room for the settings and for a theme saved in
/// the studio as it does for the game in progress: the oldest kept games go. Before, both were
/// refused for good once the storage was full (a change that grows the settings' text, a new
/// theme), and the settings' save as the page is hidden too.
#[test]
fn a_full_storage_drops_kept_games_for_the_settings_and_a_saved_theme() {
    use arachne::core::persist::{SaveSettings, numbered_keys};
    use arachne::core::settings::{SETTINGS_KEY, Settings};
    use arachne::core::theme::{Theme, Themes};
    use std::sync::atomic::Ordering::Relaxed;
    let full = Arc::new(Full {
        inner: MemoryStorage::default(),
        room: usize::MAX.into(),
    });
    for i in 1..=4 {
        full.inner
            .write(&format!("replay-00000{i}"), "kept")
            .unwrap();
    }
    let mut app = spider_app(full.clone());
    // Full from here on, with no settings saved yet: they are a new entry.
    let _ = full.inner.remove(SETTINGS_KEY);
    full.room.store(full.keys().unwrap().len(), Relaxed);
    let frames = |app: &mut bevy::prelude::App| {
        for _ in 0..80 {
            app.update();
            std::thread::sleep(Duration::from_millis(10));
        }
    };
    // (Not the language: it is the process's, and the other tests read English notices.)
    let mut changed = Settings::default();
    changed.animation.speed = 3.0;
    *app.world_mut().resource_mut::<Settings>() = changed.clone();
    app.world_mut().resource_mut::<SaveSettings>().soon();
    frames(&mut app);
    assert_eq!(
        load::<Settings>(full.as_ref(), SETTINGS_KEY),
        Loaded::Ok(changed.clone())
    );
    assert_eq!(
        numbered_keys(full.as_ref(), "replay-").unwrap(),
        ["replay-000002", "replay-000003", "replay-000004"]
    );
    // Saved as the page is hidden (no frame to wait for), into a full storage again.
    let mut faster = changed.clone();
    faster.animation.speed = 2.0;
    *app.world_mut().resource_mut::<Settings>() = faster.clone();
    app.world_mut().resource_mut::<SaveSettings>().soon();
    app.update();
    full.inner.remove(SETTINGS_KEY).unwrap();
    full.room.store(full.keys().unwrap().len(), Relaxed);
    let unsaved = app.world().resource::<SaveSettings>().unsaved();
    unsaved.save_now(full.as_ref());
    assert_eq!(
        load::<Settings>(full.as_ref(), SETTINGS_KEY),
        Loaded::Ok(faster)
    );
    assert_eq!(
        numbered_keys(full.as_ref(), "replay-").unwrap(),
        ["replay-000003", "replay-000004"]
    );
    // A theme saved in the studio.
    let mut themes = Themes::default();
    let theme = Theme {
        id: "mine".into(),
        name: "Mine".into(),
        ..Theme::default()
    };
    themes.save(full.as_ref(), theme).unwrap();
    assert!(
        full.read("theme-mine").unwrap().is_some(),
        "{:?}",
        full.keys()
    );
    assert_eq!(
        numbered_keys(full.as_ref(), "replay-").unwrap(),
        ["replay-000004"]
    );
}

/// The window (or tab) comes back to the player.
fn refocus(app: &mut bevy::prelude::App) {
    let window = app.world_mut().spawn_empty().id();
    app.world_mut().write_message(bevy::window::WindowFocused {
        window,
        focused: true,
    });
    app.update();
    app.update();
}

/// Spider played in two windows (or tabs) by turns loses nothing: a copy the player comes back
/// to takes up the game played in the other, an idle copy's clock is not saved over it, and a
/// game of the other's that a copy does save over (no focus came first) is kept among the
/// replays.
#[test]
fn spider_played_in_two_copies_by_turns_loses_no_move() {
    use arachne::spider::saves::{GAME_KEY, load_game, replay_keys};
    use arachne::spider::table::{GameRecord, Table};
    let shared = Arc::new(MemoryStorage::default());
    let mine = Arc::new(OtherCopy::new(&shared, "turns window a"));
    let other = OtherCopy::new(&shared, "turns window b");
    let mut app = spider_app(mine.clone());
    play_first_move(&mut app);
    play_first_move(&mut app);
    // The other copy opens on the saved game; idle there, it saves its clock alone: coming
    // back here takes up the newer clock, with nothing to show or tell.
    let (Some((mut theirs, mut record)), None) = load_game(&other) else {
        panic!("the other copy resumes the game")
    };
    record.elapsed += 30.0;
    let idle = record.replay_of(&theirs).to_ron();
    arachne::core::persist::write_game(&other, GAME_KEY, &idle).unwrap();
    refocus(&mut app);
    assert_eq!(notices_with(&app, "another tab or window"), 0);
    assert_eq!(app.world().resource::<GameRecord>().clock(), record.clock());
    // Then it plays three moves there.
    // (It plays each position's last move, this copy its first.)
    let their_save = |table: &mut Table, moves: usize| {
        for _ in 0..moves {
            let mv = *table.game.legal_moves().last().unwrap();
            table.game.apply(mv).unwrap();
        }
        let text = record.replay_of(table).to_ron();
        arachne::core::persist::write_game(&other, GAME_KEY, &text).unwrap();
        text
    };
    their_save(&mut theirs, 3);
    assert_eq!(theirs.game.steps().len(), 5);
    // Idle, this copy's clock is not saved over the other's game.
    app.world_mut().resource_mut::<GameRecord>().elapsed += 60.0;
    app.update();
    app.update();
    let saved = || mine.read(GAME_KEY).unwrap().unwrap();
    assert_eq!(
        saved(),
        record.replay_of(&theirs).to_ron(),
        "the other copy's game stays saved"
    );
    // Back in this window: the other's game is here, and the player is told.
    refocus(&mut app);
    let table = app.world().resource::<Table>();
    assert_eq!(table.game.steps(), theirs.game.steps());
    assert_eq!(
        notices_with(&app, "played last in another tab or window"),
        1
    );
    // Playing on from it keeps nothing: every move of the other's is in this game.
    play_first_move(&mut app);
    assert!(replay_keys(mine.as_ref()).unwrap().is_empty());
    // The other copy saves its game again as it had it: this one plays on from it, so nothing
    // is kept or told when this one saves next.
    let again = record.replay_of(&theirs).to_ron();
    arachne::core::persist::write_game(&other, GAME_KEY, &again).unwrap();
    play_first_move(&mut app);
    assert!(replay_keys(mine.as_ref()).unwrap().is_empty());
    assert_eq!(notices_with(&app, "another game was saved there"), 0);
    // The other copy plays on from where it was (its window was not brought back), and this one
    // too, with no focus in between: the other's game is kept among the replays.
    their_save(&mut theirs, 1);
    play_first_move(&mut app);
    let kept = replay_keys(mine.as_ref()).unwrap();
    assert_eq!(kept.len(), 1);
    let kept = arachne_engine::Replay::from_ron(&mine.read(&kept[0]).unwrap().unwrap()).unwrap();
    assert_eq!(kept.moves.len(), 6);
    assert_eq!(notices_with(&app, "another game was saved there"), 1);
    assert_eq!(
        app.world().resource::<Table>().game.steps().len(),
        8,
        "this copy's game is the one saved"
    );
}

/// Coming back to a copy takes up the settings the other copy saved meanwhile (they apply as
/// when changed in the settings window), unless a change of this copy's own waits to be saved.
#[test]
fn a_copy_the_player_comes_back_to_takes_up_the_others_settings() {
    use arachne::core::persist::SaveSettings;
    use arachne::core::settings::{SETTINGS_KEY, Settings};
    let shared = Arc::new(MemoryStorage::default());
    let mine = Arc::new(OtherCopy::new(&shared, "settings window a"));
    let other = OtherCopy::new(&shared, "settings window b");
    let mut app = spider_app(mine.clone());
    save(mine.as_ref(), SETTINGS_KEY, &Settings::default()).unwrap();
    // The other copy turns the sound down and the animation up.
    let mut theirs = Settings::default();
    theirs.animation.speed = 3.0;
    theirs.sound.effects_volume_db = -12.0;
    assert_ne!(theirs, Settings::default());
    save(&other, SETTINGS_KEY, &theirs).unwrap();
    refocus(&mut app);
    assert_eq!(*app.world().resource::<Settings>(), theirs);
    // A change of this copy's own waiting to be saved is the newer.
    let mut again = theirs.clone();
    again.animation.speed = 0.5;
    save(&other, SETTINGS_KEY, &again).unwrap();
    app.world_mut()
        .resource_mut::<Settings>()
        .sound
        .effects_volume_db = -3.0;
    app.world_mut().resource_mut::<SaveSettings>().soon();
    refocus(&mut app);
    let now = app.world().resource::<Settings>().clone();
    assert_eq!(
        (now.animation.speed, now.sound.effects_volume_db),
        (3.0, -3.0)
    );
    // That change written as the page was hidden (no frame since), then the other copy's save:
    // the other's is the newer, and this copy's waiting save is dropped, not written over it.
    let unsaved = app.world().resource::<SaveSettings>().unsaved();
    unsaved.save_now(mine.as_ref());
    save(&other, SETTINGS_KEY, &again).unwrap();
    refocus(&mut app);
    assert_eq!(*app.world().resource::<Settings>(), again);
    assert!(!app.world().resource::<SaveSettings>().pending());
    // (Past the half second a waiting save waits, on the real clock these frames run by.)
    for _ in 0..80 {
        app.update();
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    assert_eq!(
        load::<Settings>(mine.as_ref(), SETTINGS_KEY),
        Loaded::Ok(again)
    );
}

/// A change of settings waiting for its half second of calm is written as soon as the window
/// loses the focus: a copy beside it that the player clicks into takes the settings up then,
/// and would otherwise save its own over the change later. And settings another copy writes
/// are taken up as soon as the page hears of it (the browser's `storage` event), without the
/// player coming back first.
#[test]
fn settings_are_written_when_the_window_is_left_and_taken_up_when_another_copy_writes() {
    use arachne::core::persist::{SaveSettings, SettingsWrittenElsewhere};
    use arachne::core::settings::{SETTINGS_KEY, Settings};
    let shared = Arc::new(MemoryStorage::default());
    let mine = Arc::new(OtherCopy::new(&shared, "left window a"));
    let other = OtherCopy::new(&shared, "left window b");
    let mut app = spider_app(mine.clone());
    save(mine.as_ref(), SETTINGS_KEY, &Settings::default()).unwrap();
    refocus(&mut app);
    app.world_mut().resource_mut::<Settings>().animation.speed = 2.0;
    app.world_mut().resource_mut::<SaveSettings>().soon();
    app.update();
    // (Frames here take far less than the half second.)
    assert!(app.world().resource::<SaveSettings>().pending());
    assert_eq!(
        load::<Settings>(mine.as_ref(), SETTINGS_KEY),
        Loaded::Ok(Settings::default())
    );
    let window = app.world_mut().spawn_empty().id();
    app.world_mut().write_message(bevy::window::WindowFocused {
        window,
        focused: false,
    });
    app.update();
    assert!(!app.world().resource::<SaveSettings>().pending());
    let Loaded::Ok(written) = load::<Settings>(mine.as_ref(), SETTINGS_KEY) else {
        panic!("the settings are written")
    };
    assert_eq!(written.animation.speed, 2.0);
    // The other copy writes its settings; nothing is taken up until the page hears of it.
    let mut theirs = written.clone();
    theirs.animation.speed = 0.25;
    save(&other, SETTINGS_KEY, &theirs).unwrap();
    app.update();
    assert_eq!(app.world().resource::<Settings>().animation.speed, 2.0);
    app.world().resource::<SettingsWrittenElsewhere>().set();
    app.update();
    assert_eq!(*app.world().resource::<Settings>(), theirs);
}

/// A storage that something else fills (say another site's data under the page's origin):
/// writes fail while `filled` whatever is dropped.
struct FilledByOthers {
    inner: MemoryStorage,
    filled: std::sync::atomic::AtomicBool,
}

impl Storage for FilledByOthers {
    fn read(&self, key: &str) -> std::io::Result<Option<String>> {
        self.inner.read(key)
    }
    fn write(&self, key: &str, text: &str) -> std::io::Result<()> {
        if self.filled.load(std::sync::atomic::Ordering::Relaxed) {
            return Err(std::io::Error::from(std::io::ErrorKind::QuotaExceeded));
        }
        self.inner.write(key, text)
    }
    fn set_aside(&self, key: &str) -> std::io::Result<Option<String>> {
        self.inner.set_aside(key)
    }
    fn keys(&self) -> std::io::Result<Vec<String>> {
        self.inner.keys()
    }
    fn remove(&self, key: &str) -> std::io::Result<()> {
        self.inner.remove(key)
    }
    fn identity(&self) -> String {
        self.inner.identity()
    }
}

/// A storage full of something else's data: the first save that fails drops some kept games
/// (it cannot tell), but once that made no room, later saves drop none (each dropped as many
/// again before: every move of a game cost kept games, all for nothing). Once a new entry fits
/// again, a full storage makes room by kept games again.
#[test]
fn a_storage_full_of_other_data_loses_kept_games_once_not_at_every_save() {
    use arachne::core::persist::{numbered_keys, write_before_kept_games};
    let store = FilledByOthers {
        inner: MemoryStorage::default(),
        filled: false.into(),
    };
    let kept = "k".repeat(4096);
    for i in 1..=20 {
        store.inner.write(&format!("replay-{i:06}"), &kept).unwrap();
    }
    store.inner.write("game", "the game").unwrap();
    store
        .filled
        .store(true, std::sync::atomic::Ordering::Relaxed);
    assert!(write_before_kept_games(&store, "game", "the game, a move on").is_err());
    let left = numbered_keys(&store, "replay-").unwrap().len();
    assert!((10..20).contains(&left), "{left} kept games left");
    for _ in 0..5 {
        assert!(write_before_kept_games(&store, "game", "the game, moves on").is_err());
    }
    assert_eq!(numbered_keys(&store, "replay-").unwrap().len(), left);
    // An entry written over (no room taken) says nothing of the room: still none dropped.
    store
        .filled
        .store(false, std::sync::atomic::Ordering::Relaxed);
    write_before_kept_games(&store, "game", "the game").unwrap();
    store
        .filled
        .store(true, std::sync::atomic::Ordering::Relaxed);
    assert!(write_before_kept_games(&store, "game", "the game, later").is_err());
    assert_eq!(numbered_keys(&store, "replay-").unwrap().len(), left);
    // The other data is gone: a new entry fits, and so a full storage makes room by kept
    // games again.
    store
        .filled
        .store(false, std::sync::atomic::Ordering::Relaxed);
    write_before_kept_games(&store, "stats", "s").unwrap();
    store
        .filled
        .store(true, std::sync::atomic::Ordering::Relaxed);
    assert!(write_before_kept_games(&store, "game", "the game, later").is_err());
    assert!(numbered_keys(&store, "replay-").unwrap().len() < left);
}

/// A copy the player comes back to looks again for the other copy's settings a moment later:
/// the copy left writes its waiting settings as its window loses the focus, and on the desktop
/// that write (by a thread, fsync and all) may land after the first look.
#[test]
fn a_copy_the_player_comes_back_to_looks_again_for_settings_written_late() {
    use arachne::core::settings::{SETTINGS_KEY, Settings};
    let shared = Arc::new(MemoryStorage::default());
    let mine = Arc::new(OtherCopy::new(&shared, "late window a"));
    let other = OtherCopy::new(&shared, "late window b");
    let mut app = spider_app(mine.clone());
    save(mine.as_ref(), SETTINGS_KEY, &Settings::default()).unwrap();
    refocus(&mut app);
    assert_eq!(*app.world().resource::<Settings>(), Settings::default());
    // The other copy's write lands after this copy looked.
    let mut theirs = Settings::default();
    theirs.animation.speed = 3.0;
    save(&other, SETTINGS_KEY, &theirs).unwrap();
    // (Past the first look again, on the real clock these frames run by.)
    for _ in 0..60 {
        app.update();
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    assert_eq!(*app.world().resource::<Settings>(), theirs);
}

/// On the desktop, where a thread writes the saves, a storage full of other data loses kept
/// games once too: a save only queued (a new entry among them) says nothing of the room.
#[test]
fn background_writes_to_a_storage_full_of_other_data_lose_kept_games_once() {
    use arachne::core::persist::{numbered_keys, write_before_kept_games};
    let store = Arc::new(FilledByOthers {
        inner: MemoryStorage::default(),
        filled: false.into(),
    });
    let kept = "k".repeat(4096);
    for i in 1..=20 {
        store.inner.write(&format!("replay-{i:06}"), &kept).unwrap();
    }
    store.inner.write("game", "the game").unwrap();
    store
        .filled
        .store(true, std::sync::atomic::Ordering::Relaxed);
    let bg = BackgroundWrites::new(store.clone());
    write_before_kept_games(&bg, "game", "the game, a move on").unwrap();
    drained(&bg, "game", store.as_ref());
    let left = numbered_keys(store.as_ref(), "replay-").unwrap().len();
    assert!((10..20).contains(&left), "{left} kept games left");
    for (key, text) in [("stats", "s"), ("game", "the game, moves on")] {
        write_before_kept_games(&bg, key, text).unwrap();
        drained(&bg, key, store.as_ref());
        assert_eq!(
            numbered_keys(store.as_ref(), "replay-").unwrap().len(),
            left,
            "kept games dropped again at {key}"
        );
    }
}
