//! Screenshots of every variant: the real game under `xvfb-run` (Mesa's llvmpipe renders it),
//! dealt with `--capture`, checked for a drawn table with the right number of columns.
//! The PNGs stay in `artifacts/screenshots/` for people to look at.
// xvfb-run is a Linux tool: on macOS and Windows (hosted CI) there is nothing to run them in.
#![cfg(target_os = "linux")]
use std::path::{Path, PathBuf};
use std::process::Command;

use arachne::core::settings::Settings;
use arachne::core::theme::Theme;
use arachne::spider::layout::{Layout, TableShape};
use arachne_engine::variant;
use bevy::prelude::*;

fn artifacts() -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("artifacts/screenshots");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

struct Png {
    width: usize,
    height: usize,
    rgb: Vec<[u8; 3]>,
}

fn read_png(path: &Path) -> Png {
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(path).unwrap()));
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    let channels = info.color_type.samples();
    assert_eq!(info.bit_depth, png::BitDepth::Eight);
    let rgb = buf[..info.buffer_size()]
        .chunks(channels)
        .map(|p| [p[0], p[1], p[2]])
        .collect();
    Png {
        width: info.width as usize,
        height: info.height as usize,
        rgb,
    }
}

fn close(a: [u8; 3], b: [u8; 3]) -> bool {
    a.iter()
        .zip(b)
        .all(|(x, y)| (*x as i32 - y as i32).abs() <= 6)
}

#[test]
fn every_variant_deals_a_visible_table_with_its_columns() {
    let table = Theme::default().table.to_srgba();
    let table = [table.red, table.green, table.blue].map(|c| (c * 255.0).round() as u8);
    let mut failures = Vec::new();
    for v in variant::builtin() {
        let img = match capture(&v.id, &["--variant", &v.id, "--seed", "1"]) {
            Ok(img) => img,
            Err(e) => {
                failures.push(e);
                continue;
            }
        };
        assert_eq!((img.width, img.height), (1280, 720), "{}", v.id);
        // Not blank: the table colour dominates but cards cover a good part of it.
        let off_table = img.rgb.iter().filter(|&&p| !close(p, table)).count();
        let share = off_table as f32 / img.rgb.len() as f32;
        assert!(
            (0.08..0.8).contains(&share),
            "{}: {share:.2} of the pixels are not table",
            v.id
        );
        // One card per column along a row through the first cards.
        let shape = TableShape {
            columns: vec![(1, 0); v.column_count()],
            stock: 0,
            stock_capacity: v.stock_size(),
            foundations: 0,
            foundation_slots: v.run_count(),
        };
        let layout = Layout::compute(
            &shape,
            Vec2::new(1280.0, 720.0),
            &Settings::default().layout,
        );
        let row = (720.0 / 2.0 - (layout.top_y + layout.card.y * 0.3)) as usize;
        let line = &img.rgb[row * img.width..(row + 1) * img.width];
        let mut runs = 0;
        let mut len = 0;
        for &p in line.iter().chain([table].iter()) {
            if close(p, table) {
                if len as f32 >= layout.card.x * 0.6 {
                    runs += 1;
                }
                len = 0;
            } else {
                len += 1;
            }
        }
        if runs != v.column_count() {
            failures.push(format!(
                "{}: {runs} columns seen in row {row}, want {}",
                v.id,
                v.column_count()
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Runs the game under xvfb with `args` and `--capture`; returns the image, or why not. A name
/// with `-de-` in it is captured in German (the system's language), any other in English.
fn capture(name: &str, args: &[&str]) -> Result<Png, String> {
    capture_with(name, args, &[])
}

/// `capture` with more environment variables for the game.
fn capture_with(name: &str, args: &[&str], env: &[(&str, &Path)]) -> Result<Png, String> {
    let path = artifacts().join(format!("{name}.png"));
    let _ = std::fs::remove_file(&path);
    let out = Command::new("xvfb-run")
        .args([
            "-a",
            "-s",
            "-screen 0 1280x720x24",
            env!("CARGO_BIN_EXE_arachne"),
        ])
        .args(args)
        .arg("--capture")
        .arg(&path)
        .env("WGPU_BACKEND", "vulkan")
        .envs(env.iter().copied())
        .env_remove("LC_ALL")
        .env_remove("LC_MESSAGES")
        .env(
            "LANG",
            if name.contains("-de-") {
                "de_DE.UTF-8"
            } else {
                "C.UTF-8"
            },
        )
        .output()
        .expect("xvfb-run (Debian package xvfb; `make test` installs it)");
    if !out.status.success() {
        return Err(format!(
            "{name}: exit {:?}\n{}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    Ok(read_png(&path))
}

/// Whether a pixel is egui's dark grey panel colour.
fn is_panel(p: [u8; 3]) -> bool {
    let (lo, hi) = (*p.iter().min().unwrap(), *p.iter().max().unwrap());
    hi < 70 && hi - lo < 8
}

/// Share of pixels in `rows` that are egui's dark grey panel colour.
fn panel_share(img: &Png, rows: std::ops::Range<usize>) -> f32 {
    let pixels = &img.rgb[rows.start * img.width..rows.end * img.width];
    pixels.iter().filter(|&&p| is_panel(p)).count() as f32 / pixels.len().max(1) as f32
}

#[test]
fn the_menu_statistics_settings_help_and_studio_windows_are_drawn() {
    let mut failures = Vec::new();
    for (lang, window, least) in [
        ("en", "menu", 0.08),
        ("en", "stats", 0.08),
        ("en", "settings", 0.08),
        ("en", "help", 0.08),
        ("en", "replays", 0.01),
        ("de", "menu", 0.08),
        ("de", "stats", 0.08),
        ("de", "settings", 0.08),
        ("de", "help", 0.08),
        ("de", "replays", 0.01),
        ("en", "themes", 0.08),
        ("en", "tuner", 0.08),
        ("de", "themes", 0.08),
        ("de", "tuner", 0.08),
    ] {
        match capture(
            &format!("window-{lang}-{window}"),
            &["--variant", "spider-4suit", "--seed", "3", "--open", window],
        ) {
            Ok(img) => {
                let share = panel_share(&img, 0..img.height);
                if share < least {
                    failures.push(format!(
                        "{window}: only {share:.3} of the image is a window"
                    ));
                }
            }
            Err(e) => failures.push(e),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn a_broken_theme_file_is_reported_on_the_table_which_keeps_the_last_good_colours() {
    let dir = std::env::temp_dir().join(format!("arachne-broken-theme-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("themes")).unwrap();
    let classic = arachne::core::theme::BUILTIN_THEMES[0].1;
    std::fs::write(
        dir.join("themes/classic.ron"),
        classic.replace("\"#1c6b3c\"", "\"#zz0000\""),
    )
    .unwrap();
    let img = capture_with(
        "broken-theme-file",
        &["--variant", "spider-1suit", "--seed", "2"],
        &[("ARACHNE_ASSETS", &dir)],
    );
    let _ = std::fs::remove_dir_all(&dir);
    let img = img.unwrap();
    let count = |want: [u8; 3]| img.rgb.iter().filter(|&&p| close(p, want)).count();
    // The banner's dark red, and the table still the classic green.
    let banner = count([90, 20, 20]);
    assert!(banner > 2000, "banner pixels: {banner}");
    let table = count([0x1c, 0x6b, 0x3c]);
    assert!(table > img.width * img.height / 3, "table pixels: {table}");
}

#[test]
fn a_replay_in_progress_is_drawn_with_the_viewer_bar() {
    // A real game: the solver's first 30 moves of 1-suit deal 4, as an engine replay file.
    let spec = arachne::spider::table::GameSpec::builtin(
        "spider-1suit",
        4,
        arachne_engine::Numbering::Arachne,
    )
    .unwrap();
    let mut game = spec.start().unwrap();
    let arachne_engine::Verdict::Solved(line) = arachne_engine::solve(
        game.position(),
        arachne_engine::Budget::nodes(5_000_000),
        None,
    )
    .verdict
    else {
        panic!("deal 4 not solved")
    };
    for &mv in line.iter().take(30) {
        game.apply(mv).unwrap();
    }
    let replay = arachne_engine::Replay::of_game(&game, spec.numbering, spec.seed);
    let file = artifacts().join("replay-input.ron");
    std::fs::write(&file, replay.to_ron()).unwrap();
    let img = capture(
        "replay-at-20",
        &["--replay", file.to_str().unwrap(), "--at", "20"],
    )
    .unwrap();
    // The viewer's bar along the bottom.
    let bar = panel_share(&img, img.height - 50..img.height);
    assert!(bar > 0.2, "bottom rows: {bar:.3} bar");
}

#[test]
fn pro_spider_10_is_drawn_for_two_four_and_six_seats_at_both_sizes() {
    use arachne::phase10::layout::{P10Layout, P10Shape, Place};
    let table = Theme::default().table.to_srgba();
    let table = [table.red, table.green, table.blue].map(|c| (c * 255.0).round() as u8);
    let mut failures = Vec::new();
    for (w, h) in [(1280, 720), (800, 600)] {
        for players in [2, 4, 6] {
            let name = format!("pro-spider-10-{players}-seats-{w}x{h}");
            let size = format!("{w}x{h}");
            let seats = players.to_string();
            let args = [
                "--game",
                "pro-spider-10",
                "--players",
                &seats,
                "--ai",
                "petra",
                "--seed",
                "3",
                "--window",
                &size,
            ];
            let img = match capture(&name, &args) {
                Ok(img) => img,
                Err(e) => {
                    failures.push(e);
                    continue;
                }
            };
            assert_eq!((img.width, img.height), (w, h), "{name}");
            let band = arachne::phase10::layout::BAR_BAND;
            let layout = P10Layout::compute(players, Vec2::new(w as f32, h as f32), band);
            // Ten cards in every hand, the stock, one up-card.
            let shape = P10Shape {
                hands: vec![10; players],
                groups: vec![Vec::new(); players],
                stock: 1,
                discard: 1,
            };
            let pixel = |p: Vec2| {
                let (x, y) = (
                    (p.x + w as f32 / 2.0) as usize,
                    (h as f32 / 2.0 - p.y) as usize,
                );
                img.rgb[y * img.width + x]
            };
            let mut spots = vec![
                ("stock", layout.position(&shape, Place::Stock(0))),
                ("discard pile", layout.position(&shape, Place::Discard(0))),
            ];
            for seat in 0..players {
                for i in [0, 9] {
                    spots.push(("a hand", layout.position(&shape, Place::Hand(seat, i))));
                }
            }
            for (what, at) in spots {
                // Just inside the card's left edge, a third of the way down: the card's own
                // border or face, whatever overlaps it.
                let p = at.truncate() + Vec2::new(-layout.card.x / 2.0 + 3.0, layout.card.y / 6.0);
                if close(pixel(p), table) {
                    failures.push(format!("{name}: no card drawn for {what} at {p}"));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A whole Pro Spider 10 game of four Petra seats, from `seed`.
fn four_petras(seed: u64) -> arachne_engine::phase10::PlayedGame {
    let v = arachne_engine::phase10::variant::by_id("pro-spider-10").unwrap();
    let mut deciders: Vec<_> = (0..4)
        .map(|_| arachne_engine::phase10::ai::player("petra", 0).unwrap())
        .collect();
    arachne_engine::phase10::play_game(v.clone(), 4, seed, &mut |seat, view, _| {
        Ok(deciders[seat].decide(view))
    })
    .unwrap()
}

#[test]
fn pro_spider_10_menu_score_sheet_at_a_rounds_end_rules_and_replay_are_drawn() {
    // A game of four computer seats, cut after its second round: the round summary.
    let mut failures = Vec::new();
    let played = four_petras(5);
    let mut cut = String::new();
    let mut rounds = 0;
    for line in played.log.lines() {
        cut += line;
        cut.push('\n');
        if line.starts_with("next:") {
            rounds += 1;
            if rounds == 2 {
                break;
            }
        }
    }
    let file = artifacts().join("pro-spider-10-two-rounds.p10");
    std::fs::write(&file, &cut).unwrap();
    let log = file.to_str().unwrap();
    for (name, args, least) in [
        ("pro-spider-10-menu", vec!["--open", "menu"], 0.12),
        (
            "pro-spider-10-round-summary",
            vec!["--log", log, "--open", "sheet"],
            0.06,
        ),
        ("pro-spider-10-rules", vec!["--open", "help"], 0.12),
        (
            "pro-spider-10-replay",
            vec!["--replay", log, "--at", "40"],
            0.02,
        ),
    ] {
        for (lang, size) in [("en", "1280x720"), ("en", "800x600"), ("de", "1280x720")] {
            let mut all = vec!["--game", "pro-spider-10", "--window", size];
            all.extend(&args);
            let name = format!("{name}-{lang}-{size}");
            match capture(&name, &all) {
                Ok(img) => {
                    let share = panel_share(&img, 0..img.height);
                    if share < least {
                        failures.push(format!("{name}: only {share:.3} of the image is a window"));
                    }
                }
                Err(e) => failures.push(e),
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Rows of the bar along the bottom edge: the panel colour over at least half a row's width,
/// counted up from the lowest such row.
fn bar_rows(img: &Png) -> usize {
    let full = |y: usize| panel_share(img, y..y + 1) >= 0.5;
    let mut y = img.height - 1;
    while y > 0 && !full(y) {
        y -= 1;
    }
    let mut rows = 0;
    while y > 0 && full(y) {
        rows += 1;
        y -= 1;
    }
    rows
}

#[test]
fn on_a_phone_the_replay_viewers_controls_wrap_onto_rows_of_their_own() {
    // Held upright, the viewer's controls do not fit in one row: the round, "every hand" and
    // Close go on a row of their own instead of being cut off (a phone has no Esc key). So the
    // bar is three rows high (where the replay is, the steps, the rest), not two.
    let played = four_petras(5);
    let file = artifacts().join("pro-spider-10-phone-replay.p10");
    std::fs::write(&file, &played.log).unwrap();
    let mut failures = Vec::new();
    for (name, size, least, most) in [
        ("pro-spider-10-phone-replay-en-390x844", "390x844", 66, 120),
        ("pro-spider-10-phone-replay-de-390x844", "390x844", 66, 120),
        ("pro-spider-10-wide-replay-en-1280x720", "1280x720", 30, 60),
        // Where they fit after the speed, the round, every hand and Close stay on its row (at
        // 800 px); German's longer words need a second row at 640 px.
        ("pro-spider-10-wide-replay-en-800x600", "800x600", 30, 60),
        ("pro-spider-10-wide-replay-de-800x600", "800x600", 30, 60),
        ("pro-spider-10-mid-replay-de-640x900", "640x900", 66, 120),
    ] {
        let args = [
            "--game",
            "pro-spider-10",
            "--window",
            size,
            "--replay",
            file.to_str().unwrap(),
            "--at",
            "30",
        ];
        match capture(name, &args) {
            Ok(img) => {
                let rows = bar_rows(&img);
                if !(least..=most).contains(&rows) {
                    failures.push(format!(
                        "{name}: the bar is {rows} rows high, want {least}-{most}"
                    ));
                }
                let edges = edge_share(&img, img.height - 140..img.height);
                if edges > 0.0 {
                    failures.push(format!(
                        "{name}: the bar reaches the screen's side ({edges:.3})"
                    ));
                }
            }
            Err(e) => failures.push(e),
        }
    }
    // Spider's viewer: Close, the title and the move above the steps, the speed and the slider
    // (two rows, not one cut off at both edges).
    let spec = arachne::spider::table::GameSpec::builtin(
        "spider-1suit",
        4,
        arachne_engine::Numbering::Arachne,
    )
    .unwrap();
    let mut game = spec.start().unwrap();
    for _ in 0..10 {
        let Some(&mv) = game.legal_moves().first() else {
            break;
        };
        game.apply(mv).unwrap();
    }
    let replay = arachne_engine::Replay::of_game(&game, spec.numbering, spec.seed);
    let spider = artifacts().join("spider-phone-replay.ron");
    std::fs::write(&spider, replay.to_ron()).unwrap();
    let name = "spider-phone-replay-en-390x844";
    let args = ["--window", "390x844", "--replay", spider.to_str().unwrap()];
    match capture(name, &args) {
        Ok(img) => {
            let rows = bar_rows(&img);
            if !(45..=100).contains(&rows) {
                failures.push(format!("{name}: the bar is {rows} rows high, want 45-100"));
            }
            let edges = edge_share(&img, img.height - 140..img.height);
            if edges > 0.0 {
                failures.push(format!(
                    "{name}: the bar reaches the screen's side ({edges:.3})"
                ));
            }
        }
        Err(e) => failures.push(e),
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Share of pixels in the two columns at each side of `rows` that are egui's panel colour.
fn edge_share(img: &Png, rows: std::ops::Range<usize>) -> f32 {
    let columns = [0, 1, img.width - 2, img.width - 1];
    let n = rows.len() * columns.len();
    let panel = rows
        .flat_map(|y| columns.map(|x| img.rgb[y * img.width + x]))
        .filter(|&p| is_panel(p))
        .count();
    panel as f32 / n.max(1) as f32
}

#[test]
fn on_a_phone_every_window_stays_inside_the_screen() {
    // A phone held upright: no window runs off either edge (the menu, the settings and the
    // rules once did, cut off at both sides). The bar at the bottom is left out.
    let mut failures = Vec::new();
    let spider = [
        "menu", "stats", "settings", "help", "replays", "themes", "tuner",
    ];
    let phase10 = ["menu", "help", "sheet", "replays", "settings", "stats"];
    let phone = spider
        .iter()
        .map(|w| ("spider", *w, "en", "390x844"))
        .chain(
            phase10
                .iter()
                .map(|w| ("pro-spider-10", *w, "en", "390x844")),
        );
    // A small tablet in German: the menu's and the settings' rows, side by side, are wider than
    // 660 px there; they wrap once seen too wide.
    let tablet = [
        // The settings' Table layout section open, its labels under their sliders on a phone,
        // German's longer ones beside them on a small tablet. On a phone every setting stands
        // under its label: German's, side by side, put the window's frame at the screen's
        // left edge.
        ("spider", "layout", "en", "390x844"),
        ("spider", "layout", "de", "390x844"),
        ("spider", "settings", "de", "390x844"),
        ("pro-spider-10", "settings", "de", "390x844"),
        ("spider", "layout", "de", "660x800"),
        ("spider", "menu", "de", "660x800"),
        ("spider", "settings", "de", "660x800"),
        ("pro-spider-10", "menu", "de", "660x800"),
    ];
    for (game, window, lang, size) in phone.chain(tablet) {
        let name = format!("phone-{game}-{window}-{lang}-{size}");
        let args = [
            "--game", game, "--window", size, "--open", window, "--seed", "3",
        ];
        match capture(&name, &args) {
            Ok(img) => {
                let share = edge_share(&img, 0..img.height - 140);
                let inside = panel_share(&img, 0..img.height - 140);
                if share > 0.02 {
                    failures.push(format!("{name}: {share:.3} of the side edges is a window"));
                }
                if inside < 0.05 {
                    failures.push(format!("{name}: no window drawn ({inside:.3})"));
                }
            }
            Err(e) => failures.push(e),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn six_seats_on_a_phone_held_upright_are_drawn_in_two_rows() {
    use arachne::phase10::layout::{P10Layout, P10Shape, Place};
    let table = Theme::default().table.to_srgba();
    let table = [table.red, table.green, table.blue].map(|c| (c * 255.0).round() as u8);
    let (w, h) = (390usize, 844usize);
    let args = [
        "--game",
        "pro-spider-10",
        "--players",
        "6",
        "--ai",
        "petra",
        "--seed",
        "3",
        "--window",
        "390x844",
    ];
    let img = capture("pro-spider-10-6-seats-390x844", &args).unwrap();
    // The bar's real band is measured at run time (its status wraps onto a second row); a
    // card's centre lies within a few pixels of where a band of 96 puts it.
    let layout = P10Layout::compute(6, Vec2::new(w as f32, h as f32), 96.0);
    let rows: std::collections::BTreeSet<i32> =
        (1..6).map(|s| layout.seats[s].label.y as i32).collect();
    assert_eq!(rows.len(), 2, "two rows of computer seats");
    let shape = P10Shape {
        hands: vec![10; 6],
        groups: vec![Vec::new(); 6],
        stock: 1,
        discard: 1,
    };
    let mut failures = Vec::new();
    for seat in 0..6 {
        for i in [0, 9] {
            let p = layout.position(&shape, Place::Hand(seat, i)).truncate();
            // A third of the card's width in from its left edge (its face or back, whatever
            // overlaps it), half way down.
            let at = p + Vec2::new(-layout.card.x / 6.0, 0.0);
            let (x, y) = (
                (at.x + w as f32 / 2.0) as usize,
                (h as f32 / 2.0 - at.y) as usize,
            );
            if close(img.rgb[y * img.width + x], table) {
                failures.push(format!("seat {seat}: no card drawn for card {i} at {at}"));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A data directory with kept games and statistics of both games: the lists as a player who
/// has played a while sees them, the longest variant names among them.
fn data_of_a_player_who_has_played(dir: &Path) {
    use arachne::core::persist::{DirStorage, save};
    use arachne_engine::phase10::ai;
    use arachne_engine::phase10::{play_game, variant as p10variant};
    let _ = std::fs::remove_dir_all(dir);
    let storage = DirStorage::new(dir);
    let mut stats = arachne::spider::saves::Statistics::default();
    for (i, v) in variant::builtin().iter().enumerate() {
        let spec = arachne::spider::table::GameSpec::builtin(
            &v.id,
            100 + i as u64,
            arachne_engine::Numbering::Arachne,
        )
        .unwrap();
        let game = spec.start().unwrap();
        let replay = arachne_engine::Replay::of_game(&game, spec.numbering, spec.seed);
        arachne::spider::saves::save_replay(&storage, &replay).unwrap();
        let s = stats.variants.entry(v.id.clone()).or_default();
        for g in 0..(7 * i as u32 + 3) {
            s.record(
                g % 3 == 0,
                3600 + 61 * u64::from(g),
                1234 - i64::from(g),
                987,
                g % 5 == 0,
            );
        }
    }
    // One kept game edited by hand until it no longer reads: listed with why (its line wraps).
    let spec = arachne::spider::table::GameSpec::builtin(
        "spider-1suit",
        99,
        arachne_engine::Numbering::Arachne,
    )
    .unwrap();
    let replay = arachne_engine::Replay::of_game(&spec.start().unwrap(), spec.numbering, spec.seed);
    let damaged = arachne::spider::saves::save_replay(&storage, &replay).unwrap();
    arachne::core::persist::Storage::write(
        &storage,
        &damaged,
        "(version: 1, variant: \"spider-1suit\", seed: 99, moves: [\"1>2\" \"deal\"])",
    )
    .unwrap();
    save(&storage, arachne::spider::saves::STATS_KEY, &stats).unwrap();
    let mut p10stats = arachne::phase10::saves::P10Statistics::default();
    for (i, v) in p10variant::builtin().iter().enumerate() {
        let players = 2 + i % 5;
        let mut seats: Vec<_> = (0..players)
            .map(|s| ai::player("petra", s as u64).unwrap())
            .collect();
        let played = play_game(v.clone(), players, 40 + i as u64, &mut |seat, view, _| {
            Ok(seats[seat].decide(view))
        })
        .unwrap();
        arachne::phase10::saves::save_replay(&storage, &played.log).unwrap();
        let key = arachne::phase10::saves::P10Statistics::key(&v.id, players);
        let s = p10stats.by.entry(key).or_default();
        *s = arachne::phase10::saves::P10Stats {
            played: 123,
            won: 45,
            finished: 120,
            points: 120 * 987,
            rounds: 120 * 14,
            best_points: Some(105),
            phases_laid: 1234,
            rounds_played: 1700,
        };
    }
    save(&storage, arachne::phase10::saves::STATS_KEY, &p10stats).unwrap();
}

#[test]
fn on_a_phone_the_kept_games_and_statistics_of_a_seasoned_player_stay_inside_the_screen() {
    // The other phone test starts with no saved games: these lists are then empty. Here every
    // variant has a kept game and statistics, in both languages.
    let dir = std::env::temp_dir().join(format!("arachne-seasoned-{}", std::process::id()));
    data_of_a_player_who_has_played(&dir);
    let mut failures = Vec::new();
    for game in ["spider", "pro-spider-10"] {
        for window in ["replays", "stats"] {
            for lang in ["en", "de"] {
                let name = format!("seasoned-{game}-{window}-{lang}-390x844");
                let args = [
                    "--game", game, "--window", "390x844", "--open", window, "--seed", "3",
                ];
                match capture_with(&name, &args, &[("ARACHNE_DATA", &dir)]) {
                    Ok(img) => {
                        let share = edge_share(&img, 0..img.height - 140);
                        let inside = panel_share(&img, 0..img.height - 140);
                        if share > 0.02 {
                            failures
                                .push(format!("{name}: {share:.3} of the side edges is a window"));
                        }
                        if inside < 0.05 {
                            failures.push(format!("{name}: no window drawn ({inside:.3})"));
                        }
                    }
                    Err(e) => failures.push(e),
                }
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
