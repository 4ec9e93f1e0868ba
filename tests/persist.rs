//! Saving and loading: every way an entry can be unusable, and a process killed mid-save.
use std::path::PathBuf;
use std::process::Command;
use std::sync::Arc;
use std::time::Duration;

use arachne::persist::{
    BackgroundWrites, DirStorage, Loaded, MemoryStorage, SAVE_VERSION, STATS_KEY, Statistics,
    Storage, VariantStats, load, save,
};

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("arachne-persist-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn stats(won: u32) -> Statistics {
    let mut s = Statistics::default();
    let v = s.variants.entry("spider-2suit".into()).or_default();
    for _ in 0..won {
        v.record(true, 300, 900, 120);
    }
    v.record(false, 10, 400, 30);
    s
}

#[test]
fn statistics_count_streaks_and_bests() {
    let mut v = VariantStats::default();
    v.record(true, 300, 900, 120);
    v.record(true, 200, 950, 130);
    v.record(false, 50, 100, 20);
    v.record(false, 50, 100, 20);
    v.record(true, 400, 800, 110);
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
    let storage = DirStorage::new(dir);
    for round in 0u32.. {
        let mut s = Statistics::default();
        for v in 0..2000 {
            s.variants.insert(
                format!("variant-{v}"),
                VariantStats {
                    played: round,
                    ..Default::default()
                },
            );
        }
        save(&storage, "stats", &s).unwrap();
    }
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
        std::thread::sleep(Duration::from_millis(300 + attempt * 70));
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
            Loaded::Missing if attempt == 0 => {}
            other => panic!("attempt {attempt}: {other:?}"),
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_game_in_progress_is_a_replay_file_and_resumes() {
    use arachne::persist::{GAME_KEY, load_game};
    use arachne::table::{GameSpec, Table};
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
    let resumed = resumed.expect("resumed");
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
