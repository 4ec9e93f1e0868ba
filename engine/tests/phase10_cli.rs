//! The `arachne-cli phase10` contract, tested through the real binary.

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn cli(args: &[&str], stdin: &str) -> Output {
    cli_bytes(args, stdin.as_bytes())
}

fn cli_bytes(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_arachne-cli"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run arachne-cli");
    let mut pipe = child.stdin.take().unwrap();
    let _ = pipe.write_all(stdin);
    drop(pipe);
    child.wait_with_output().unwrap()
}

fn ok(args: &[&str], stdin: &str) -> String {
    let out = cli(args, stdin);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn bad(args: &[&str], stdin: &str) -> String {
    let out = cli(args, stdin);
    assert_eq!(out.status.code(), Some(2), "{args:?}");
    assert!(
        out.stdout.is_empty(),
        "{args:?}: stdout must be empty on error"
    );
    String::from_utf8(out.stderr).unwrap()
}

#[test]
fn levels_and_help() {
    assert_eq!(ok(&["phase10", "levels"], ""), "random\npetra\nmichaela\n");
    let help = ok(&["phase10", "--help"], "");
    assert!(
        help.contains("random, petra, michaela (default michaela)"),
        "{help}"
    );
    assert!(ok(&["--help"], "").contains("phase10"));
    // Spider's variant list is unchanged: eight Spider variants.
    assert_eq!(ok(&["variants"], "").lines().count(), 8);
}

#[test]
fn meld_prints_groups_or_none() {
    assert_eq!(
        ok(
            &[
                "phase10", "meld", "1", "r7", "b7", "g7", "y7", "r7", "b7", "r1"
            ],
            ""
        ),
        "set:7 r7 r7 b7, set:7 b7 g7 y7\n"
    );
    assert_eq!(
        ok(&["phase10", "meld", "1", "r7", "b7", "g7", "y7", "r7"], ""),
        "none\n"
    );
    assert_eq!(
        ok(
            &[
                "phase10", "meld", "4", "r1", "B2", "g3", "w", "r5", "b6", "g7", "y12"
            ],
            ""
        ),
        "run:1..7 r1 b2 g3 W r5 b6 g7\n"
    );
    assert!(bad(&["phase10", "meld", "11", "r1"], "").contains("PHASE must be 1 to 10"));
    assert!(bad(&["phase10", "meld", "1", "r13"], "").contains("card 1: `r13` is not a card"));
}

#[test]
fn play_is_reproducible_and_check_accepts_it() {
    let args = [
        "phase10",
        "play",
        // Five phases keep the game (and Michaela's search, twice) short.
        "--variant",
        "pro-spider-10-first-five",
        "--players",
        "3",
        "--seed",
        "17",
        "--ai",
        "random,petra,michaela",
    ];
    let log = ok(&args, "");
    assert_eq!(ok(&args, ""), log);
    assert!(log.starts_with(
        "game: pro-spider-10-first-five\nplayers: 3\nseed: 17\nround: 1\ndealer: 3\nhand 1: "
    ));
    let report = ok(&["phase10", "check", "-"], &log);
    assert!(report.starts_with("ok\n1 "), "{report}");
    assert_eq!(report.lines().count(), 4);
    // A wrong card in the first turn line is refused with its line number.
    let lines: Vec<&str> = log.lines().collect();
    let i = lines
        .iter()
        .position(|l| l.starts_with("1: ") || l.starts_with("2: "))
        .unwrap();
    let mut broken: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    broken[i] = format!("{}: draw stock r1 ; discard y99", &lines[i][..1]);
    let err = bad(&["phase10", "check", "-"], &broken.join("\n"));
    assert!(
        err.starts_with(&format!("arachne-cli: -: line {}: ", i + 1)),
        "{err}"
    );
}

#[test]
fn check_reads_what_editors_write_and_names_a_line_that_is_not_text() {
    let log = ok(
        &[
            "phase10",
            "play",
            "--variant",
            "pro-spider-10-first-five",
            "--seed",
            "5",
            "--ai",
            "petra,petra",
        ],
        "",
    );
    let report = ok(&["phase10", "check", "-"], &log);
    // A byte-order mark at the start, and the variant id in capitals (input ignores case).
    assert_eq!(
        ok(&["phase10", "check", "-"], &format!("\u{feff}{log}")),
        report
    );
    let upper = log.replacen(
        "game: pro-spider-10-first-five",
        "game: PRO-SPIDER-10-First-Five",
        1,
    );
    assert_ne!(upper, log);
    assert_eq!(ok(&["phase10", "check", "-"], &upper), report);
    // A byte that is not UTF-8 on the fourth line.
    let mut bytes = log.into_bytes();
    let third_end = bytes
        .iter()
        .enumerate()
        .filter(|(_, b)| **b == b'\n')
        .nth(2)
        .unwrap()
        .0;
    bytes.insert(third_end + 1, 0xff);
    let out = cli_bytes(&["phase10", "check", "-"], &bytes);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.starts_with("arachne-cli: -: line 4: not UTF-8 text"),
        "{err}"
    );
}

#[test]
fn tournament_rotates_and_reports_every_entrant() {
    let out = ok(
        &[
            "phase10",
            "tournament",
            "--players",
            "2",
            "--ai",
            "petra,random",
            "--games",
            "4",
            "--seed",
            "3",
        ],
        "",
    );
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3, "{out}");
    assert!(lines[0].starts_with("1 petra "), "{out}");
    assert!(lines[1].starts_with("2 random "), "{out}");
    assert!(lines[2].starts_with("games 4 rounds-per-game "), "{out}");
}

#[test]
fn external_players_speak_the_line_protocol() {
    // A shell player that always answers the first choice.
    let first = "while read -r l; do case \"$l\" in choice\\ *) [ -z \"$c\" ] && c=\"${l#choice }\";; go) echo \"$c\"; c=;; esac; done";
    let log = ok(
        &[
            "phase10",
            "play",
            "--seed",
            "2",
            "--ai",
            "random,random",
            "--external",
            &format!("1={first}"),
        ],
        "",
    );
    assert!(ok(&["phase10", "check", "-"], &log).starts_with("ok\n"));
    let err = bad(&["phase10", "play", "--external", "2=echo nonsense"], "");
    assert!(err.contains("seat 2") && err.contains("nonsense"), "{err}");
    let err = bad(&["phase10", "play", "--external", "1=true"], "");
    assert!(err.contains("seat 1") && err.contains("exited"), "{err}");
}

/// The outside player example (`engine/examples/p10_outside_player.rs`), which `cargo test`
/// builds beside the tests.
fn outside_player() -> String {
    let exe = std::env::current_exe().expect("the test's path");
    let dir = exe
        .parent()
        .and_then(|d| d.parent())
        .expect("target/<profile>");
    let path = dir.join("examples").join("p10_outside_player");
    assert!(
        path.exists(),
        "{} is missing: `cargo test -p arachne-engine` builds the examples",
        path.display()
    );
    path.display().to_string()
}

#[test]
fn the_outside_player_plays_every_kind_of_game_by_the_protocol() {
    let ext = outside_player();
    // Its games pass `check` in the standard and the any-order variant, with skips and more seats.
    for (variant, players, seat) in [
        ("pro-spider-10", "2", "1"),
        ("pro-spider-10-any-order", "3", "2"),
        ("pro-spider-10-knocking", "4", "4"),
    ] {
        let log = ok(
            &[
                "phase10",
                "play",
                "--variant",
                variant,
                "--players",
                players,
                "--seed",
                "7",
                "--ai",
                "petra",
                "--external",
                &format!("{seat}={ext}"),
            ],
            "",
        );
        assert!(
            ok(&["phase10", "check", "-"], &log).starts_with("ok\n"),
            "{variant}"
        );
    }
    // And it is a player: it beats the random level in every game.
    let out = ok(
        &[
            "phase10",
            "tournament",
            "--players",
            "2",
            "--ai",
            "random,random",
            "--external",
            &format!("2={ext}"),
            "--games",
            "6",
            "--seed",
            "1",
        ],
        "",
    );
    assert!(
        out.lines()
            .nth(1)
            .is_some_and(|l| l.starts_with("2 external 6 ")),
        "{out}"
    );
}

#[test]
fn bad_input_exits_2_with_nothing_on_stdout() {
    assert!(bad(&["phase10", "play", "--variant", "nope"], "").contains("unknown variant `nope`"));
    assert!(bad(&["phase10", "play", "--players", "7"], "").contains("2 to 6 players"));
    assert!(bad(&["phase10", "play", "--ai", "deep-blue"], "").contains("unknown level"));
    assert!(
        bad(
            &["phase10", "check", "-"],
            "game: pro-spider-10\nplayers: 2\nseed: 4\nround: 2\n"
        )
        .contains("line 4: expected `round: 1`")
    );
    assert_eq!(
        bad(
            &["phase10", "check", "-"],
            "game: pro-spider-10\nplayers: 2\nround: 1\n"
        ),
        "arachne-cli: -: line 3: expected `seed: S` (the log states its seed)\n"
    );
    assert!(bad(&["phase10", "check", "-"], "").contains("line 1: the log ends early"));
    bad(&["phase10"], "");
    bad(&["phase10", "frobnicate"], "");
}

/// Whether process `pid` still runs (a zombie no longer does).
#[cfg(target_os = "linux")]
fn running(pid: &str) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
        stat.rsplit(')')
            .next()
            .map(str::trim_start)
            .is_some_and(|s| !s.starts_with('Z'))
    })
}

#[cfg(target_os = "linux")]
#[test]
fn a_timed_out_external_program_is_stopped_with_what_it_started() {
    let pidfile = std::env::temp_dir().join(format!("p10-external-{}.pid", std::process::id()));
    let _ = std::fs::remove_file(&pidfile);
    // The program starts a child and waits for it, never answering.
    let command = format!("1=sleep 60 & echo $! > {}; wait", pidfile.display());
    let started = std::time::Instant::now();
    let err = bad(&["phase10", "play", "--external", &command], "");
    // `sleep` holds the referee's standard error open: `bad` returns only once it is gone.
    assert!(
        started.elapsed() < std::time::Duration::from_secs(30),
        "the referee and `sleep` took {:?}",
        started.elapsed()
    );
    assert!(
        err.contains("seat 1") && err.contains("took more than 10 s"),
        "{err}"
    );
    let pid = std::fs::read_to_string(&pidfile).unwrap();
    let pid = pid.trim();
    let _ = std::fs::remove_file(&pidfile);
    // Killed with its process group by the time `play` has exited (reaping may lag a little).
    let t = std::time::Instant::now();
    while running(pid) && t.elapsed() < std::time::Duration::from_secs(2) {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    assert!(!running(pid), "`sleep` (pid {pid}) outlived the referee");
}
