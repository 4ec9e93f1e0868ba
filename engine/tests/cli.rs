//! The `arachne-cli` contract, tested through the real binary.

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn cli(args: &[&str], stdin: Option<&str>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_arachne-cli"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run arachne-cli");
    let mut pipe = child.stdin.take().unwrap();
    pipe.write_all(stdin.unwrap_or("").as_bytes()).unwrap();
    drop(pipe);
    child.wait_with_output().unwrap()
}

fn ok(args: &[&str], stdin: Option<&str>) -> String {
    let out = cli(args, stdin);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.stderr.is_empty());
    String::from_utf8(out.stdout).unwrap()
}

/// Runs a command that must fail with exit 2, nothing on stdout; returns stderr.
fn bad(args: &[&str], stdin: Option<&str>) -> String {
    let out = cli(args, stdin);
    assert_eq!(out.status.code(), Some(2), "{args:?}");
    assert!(
        out.stdout.is_empty(),
        "{args:?}: stdout must be empty on error"
    );
    String::from_utf8(out.stderr).unwrap()
}

fn temp_file(name: &str, text: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("arachne-cli-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

const KPAT_1: &str = "\
variant: spider-4suit
stock: Kc Qc 7d 5c 4d Ah Td 4h 6d Td Ah 5h Tc Ts 2d 2c Jh 6s Qs 3c Qs 2c 5s 8c 9h Ad 7c 7h 3d Kd 9c Kh Ks 6h Qc 5s Kh 6h Js 7d Ac 5h 5d As Jc 8c Js Th Ad Jd
foundation: 0
1: Jd 4d Ks Qd 4s | 7c
2: 8h 2s 7s 6d 3c | 3s
3: 3h 2d Kc 9d Qd | 2h
4: Th 8s 6c Tc 5c | 4s
5: 5d 3d Ac Jh | 9d
6: 8h Qh 2h Jc | 9s
7: 4c As 7s 8s | 7h
8: 4c 6s Ts 9s | 3h
9: Qh 3s 9h 2s | 8d
10: Kd 8d 6c 4h | 9c
";

#[test]
fn variants_lists_id_tab_name() {
    assert_eq!(
        ok(&["variants"], None),
        "huge-spider\tHuge Spider\n\
         red-black-spider\tRed-Black Spider\n\
         spider-1suit\tSpider (1 suit)\n\
         spider-2suit\tSpider (2 suits)\n\
         spider-4suit\tSpider (4 suits)\n\
         spider-three-decks\tSpider Three Decks\n\
         spiderette\tSpiderette\n\
         will-o-the-wisp\tWill o' the Wisp\n"
    );
}

#[test]
fn deal_prints_the_spec_example() {
    assert_eq!(
        ok(&["deal", "spider-4suit", "1", "--numbering", "kpat"], None),
        KPAT_1
    );
    assert_eq!(
        ok(&["deal", "--numbering", "kpat", "spider-4suit", "1"], None),
        KPAT_1
    );
}

#[test]
fn moves_lists_each_legal_move_once() {
    let expected = "\
1>9:1
2>4:1
3>2:1
3>8:1
7>9:1
8>4:1
9>5:1
9>6:1
9>10:1
deal
";
    assert_eq!(ok(&["moves", "-"], Some(KPAT_1)), expected);
    let path = temp_file("kpat1.pos", KPAT_1);
    assert_eq!(ok(&["moves", path.to_str().unwrap()], None), expected);
}

#[test]
fn apply_prints_the_position_after_the_moves() {
    let out = ok(&["apply", "-", "9>5:1", "3>8:1"], Some(KPAT_1));
    let expected = KPAT_1
        .replace("5: 5d 3d Ac Jh | 9d", "5: 5d 3d Ac Jh | 9d 8d")
        .replace("9: Qh 3s 9h 2s | 8d", "9: Qh 3s 9h | 2s")
        .replace("3: 3h 2d Kc 9d Qd | 2h", "3: 3h 2d Kc 9d | Qd")
        .replace("8: 4c 6s Ts 9s | 3h", "8: 4c 6s Ts 9s | 3h 2h");
    assert_eq!(out, expected);
    // Moves may also come as one argument.
    assert_eq!(ok(&["apply", "-", "9>5:1 3>8:1"], Some(KPAT_1)), expected);
}

#[test]
fn apply_names_the_illegal_move() {
    let err = bad(&["apply", "-", "9>5:1", "deal", "1>2:1"], Some(KPAT_1));
    assert_eq!(
        err,
        "arachne-cli: move 3 (`1>2:1`) is illegal: Kc cannot go onto Qc in column 2: it needs a card one rank higher\n"
    );
    // The move is named as it was given.
    let err = bad(&["apply", "-", "9>5:1", "deal", "01>02:01"], Some(KPAT_1));
    assert!(
        err.starts_with("arachne-cli: move 3 (`01>02:01`) is illegal: "),
        "{err}"
    );
    let err = bad(&["apply", "-", "9>5:1", "1>2"], Some(KPAT_1));
    assert_eq!(err, "arachne-cli: move 2 (`1>2`): missing `:COUNT`\n");
}

#[test]
fn bad_input_exits_2_with_a_message() {
    assert!(bad(&["deal", "spider-5suit", "1"], None).contains("unknown variant `spider-5suit`"));
    assert!(bad(&["deal", "spider-4suit", "-3"], None).contains("seed must be a whole number"));
    assert!(
        bad(&["deal", "spider-4suit", "1", "--numbering", "msft"], None)
            .contains("unknown numbering `msft`")
    );
    assert!(
        bad(&["deal", "spiderette", "1", "--numbering", "kpat"], None)
            .contains("no KPatience numbering")
    );
    assert!(bad(&["frobnicate"], None).contains("unknown command `frobnicate`"));
    assert!(bad(&[], None).contains("usage"));
    assert!(
        bad(&["moves", "/nonexistent/x.pos"], None)
            .starts_with("arachne-cli: /nonexistent/x.pos: ")
    );
    let err = bad(&["moves", "-"], Some(&KPAT_1.replace("3: 3h", "3: 3x")));
    assert_eq!(
        err,
        "arachne-cli: -: line 6: `3x` is not a card (expected a rank A 2-9 T J Q K then a suit s h d c, e.g. `Th`)\n"
    );
    let err = bad(
        &["moves", "-"],
        Some(&KPAT_1.replace("3: 3h 2d", "3: 3h 3h")),
    );
    assert_eq!(
        err,
        "arachne-cli: -: card 3h: 3 on the table and in the stock, but the spider-4suit deck holds 2\n"
    );
    let err = bad(
        &["moves", "-"],
        Some(&KPAT_1.replace("foundation: 0", "foundation: 1")),
    );
    assert_eq!(
        err,
        "arachne-cli: -: foundation says 1 completed run(s), but the cards missing from the table and stock make 0\n"
    );
    let err = bad(&["moves", "-"], Some(&KPAT_1.replace("3: 3h 2d", "3: 2d")));
    assert_eq!(
        err,
        "arachne-cli: -: cards do not add up: card 3h: 1 on the table and in the stock, but 2 expected (2 in the deck, 0 in completed runs going by the other ranks)\n"
    );
    // A lost King is named, not taken for a completed run (which would blame an Ace).
    let err = bad(
        &["moves", "-"],
        Some(&KPAT_1.replace("3: 3h 2d Kc", "3: 3h 2d")),
    );
    assert_eq!(
        err,
        "arachne-cli: -: cards do not add up: card Kc: 1 on the table and in the stock, but 2 expected (2 in the deck, 0 in completed runs going by the other ranks)\n"
    );
    let err = bad(
        &["moves", "-"],
        Some(&KPAT_1.replace("10: Kd 8d 6c 4h | 9c\n", "")),
    );
    assert_eq!(err, "arachne-cli: -: missing line for column 10\n");
}

#[test]
fn variant_files_load_and_bad_ones_name_file_line_and_field() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../levels/spiderette.ron"
    ))
    .unwrap()
    .replace("\"spiderette\"", "\"my-spiderette\"")
    .replace("name: \"Spiderette\"", "name: \"My Spiderette\"");
    let good = temp_file("mine.ron", &text);
    let good = good.to_str().unwrap();
    let out = ok(&["--variant-file", good, "variants"], None);
    assert!(out.ends_with("my-spiderette\tMy Spiderette\n"), "{out}");
    // The option may repeat: one file a variant.
    let second = temp_file(
        "second.ron",
        &text
            .replace("my-spiderette", "our-spiderette")
            .replace("My Spiderette", "Our Spiderette"),
    );
    let out = ok(
        &[
            "--variant-file",
            good,
            "--variant-file",
            second.to_str().unwrap(),
            "variants",
        ],
        None,
    );
    assert!(out.contains("my-spiderette\tMy Spiderette\n"), "{out}");
    assert!(out.ends_with("our-spiderette\tOur Spiderette\n"), "{out}");
    // Other options may not.
    let err = bad(
        &[
            "deal",
            "spider-4suit",
            "1",
            "--numbering",
            "kpat",
            "--numbering",
            "kpat",
        ],
        None,
    );
    assert!(err.contains("--numbering is given more than once"), "{err}");
    let dealt = ok(
        &["--variant-file", good, "deal", "my-spiderette", "1"],
        None,
    );
    assert!(dealt.starts_with("variant: my-spiderette\n"));

    let broken_text = text.replace(
        "    grouping: Suit,",
        "    grouping: Suit,\n    gruping: Suit,",
    );
    let line = broken_text
        .lines()
        .position(|l| l.contains("gruping"))
        .unwrap()
        + 1;
    let broken = temp_file("broken.ron", &broken_text);
    let err = bad(
        &["--variant-file", broken.to_str().unwrap(), "variants"],
        None,
    );
    assert!(err.contains(&format!("broken.ron:{line}:")), "{err}");
    assert!(err.contains("gruping"), "{err}");

    let too_big = temp_file("big.ron", &text.replace("face_down: 6,", "face_down: 60,"));
    let err = bad(
        &["--variant-file", too_big.to_str().unwrap(), "variants"],
        None,
    );
    assert!(
        err.contains("big.ron:9: field `tableau`: the layout deals 82 cards but the deck holds 52"),
        "{err}"
    );

    let dup = temp_file("dup.ron", &text.replace("my-spiderette", "spiderette"));
    let err = bad(&["--variant-file", dup.to_str().unwrap(), "variants"], None);
    assert!(
        err.contains("dup.ron:3: field `id`: variant `spiderette` is already defined"),
        "{err}"
    );
}

#[test]
fn replay_verifies_and_prints_the_final_position() {
    let replay = "Replay(\n    version: 1,\n    variant: \"spider-4suit\",\n    numbering: Kpat,\n    seed: 1,\n    options: (discard: Automatic, undo_limit: None, scoring: Microsoft),\n    moves: [\"9>5:1\", \"3>8:1\"],\n)\n";
    let out = ok(&["replay", "-"], Some(replay));
    assert_eq!(out, ok(&["apply", "-", "9>5:1", "3>8:1"], Some(KPAT_1)));
    let err = bad(
        &["replay", "-"],
        Some(&replay.replace("\"3>8:1\"", "\"3>9:1\"")),
    );
    assert_eq!(
        err,
        "arachne-cli: -: move 2 (`3>9:1`) is illegal: 2h cannot go onto 2s in column 9: it needs a card one rank higher\n"
    );
    let err = bad(
        &["replay", "-"],
        Some(&replay.replace("version: 1", "version: 7")),
    );
    assert!(err.contains("replay format version 7 is newer"), "{err}");
    let err = bad(&["replay", "-"], Some("Replay(version: 1,"));
    assert!(err.starts_with("arachne-cli: -:1:"), "{err}");
}

#[test]
fn discarding_by_hand_in_a_manual_game() {
    let pos = "variant: red-black-spider\nstock:\nfoundation: 7\n1: Kh Qd Jh Td 9h 8d 7h 6d 5h 4d 3h 2d\n2: Ah\n3:\n4:\n5:\n6:\n7:\n8:\n9:\n10:\n";
    let after = ok(&["apply", "-", "2>1:1"], Some(pos));
    assert!(ok(&["moves", "-"], Some(&after)).contains("1>f\n"));
    let won = ok(&["apply", "-", "2>1:1", "1>f"], Some(pos));
    assert_eq!(
        won,
        "variant: red-black-spider\nstock:\nfoundation: 8\n1:\n2:\n3:\n4:\n5:\n6:\n7:\n8:\n9:\n10:\n"
    );
    assert_eq!(ok(&["moves", "-"], Some(&won)), "");
}

#[test]
fn a_card_lost_from_a_colour_grouped_position_is_named_by_its_colour_and_rank() {
    // Red-Black Spider groups completed runs by colour: with no red 5 left, either could be lost.
    let pos = "variant: red-black-spider\nstock:\nfoundation: 7\n1: Kh Qd Jh Td 9h 8d 7h 6d 5h 4d 3h 2d\n2: Ah\n3:\n4:\n5:\n6:\n7:\n8:\n9:\n10:\n";
    assert_eq!(
        bad(&["moves", "-"], Some(&pos.replace(" 5h", ""))),
        "arachne-cli: -: cards do not add up: red 5 (5h or 5d): 0 on the table and in the stock, but 1 expected (4 in the deck, 3 in completed runs going by the other ranks)\n"
    );
    // In a fresh deal only one red 4 can be the lost one.
    let deal = ok(&["deal", "red-black-spider", "7"], None);
    let (head, rest) = deal.split_once("\n1:").unwrap();
    let lost = ["4h", "4d"]
        .into_iter()
        .find(|c| head.contains(&format!(" {c}")))
        .unwrap();
    let head = head.replacen(&format!(" {lost}"), "", 1);
    let err = bad(&["moves", "-"], Some(&format!("{head}\n1:{rest}")));
    assert!(
        err.contains(&format!(
            "cards do not add up: card {lost}: 3 on the table and in the stock, but 4 expected"
        )),
        "{err}"
    );
}

#[test]
fn bench_says_nothing_on_stdout_when_a_later_deal_is_bad() {
    // The first six seeds deal; 4294967296 is past KPatience's 32-bit numbers.
    let err = bad(
        &[
            "bench",
            "spider-1suit",
            "--seeds",
            "4294967290..4294967296",
            "--numbering",
            "kpat",
            "--budget-nodes",
            "10",
        ],
        None,
    );
    assert!(err.contains("4294967296"), "{err}");
}

/// An argument that is not UTF-8 (a file name in another encoding) is bad input, exit 2 with a
/// message that shows it, for every command: `std::env::args` would have panicked (exit 101).
#[cfg(unix)]
#[test]
fn an_argument_that_is_not_utf8_is_bad_input() {
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;
    let odd = OsStr::from_bytes(b"b\xffd.p10");
    for args in [
        vec![OsStr::new("phase10"), OsStr::new("check"), odd],
        vec![
            OsStr::new("phase10"),
            OsStr::new("meld"),
            OsStr::new("1"),
            odd,
        ],
        vec![odd],
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_arachne-cli"))
            .args(&args)
            .output()
            .expect("run arachne-cli");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty());
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(
            err.trim_end(),
            format!(
                "arachne-cli: argument {} is not UTF-8 text: b\u{fffd}d.p10",
                args.len()
            )
        );
    }
}

/// An input without end (a device) is read no further than 256 MiB, and refused: before, `moves
/// /dev/zero` read until the memory ran out.
#[cfg(unix)]
#[test]
fn an_endless_input_is_refused() {
    for args in [
        ["moves", "/dev/zero"].as_slice(),
        ["phase10", "check", "/dev/zero"].as_slice(),
    ] {
        let err = bad(args, None);
        assert_eq!(
            err,
            "arachne-cli: /dev/zero: longer than 256 MiB: no position, replay or log is that long\n"
        );
    }
}
