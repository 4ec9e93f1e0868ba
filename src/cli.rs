//! The game's command line: the deal to play, a replay to open, a theme, and `--capture`.
use std::path::PathBuf;

use arachne_engine::{Numbering, variant};

use crate::core::theme::Themes;
use crate::shell::WINDOW_NAMES;
use crate::spider::playback::{Control, open_replay};
use crate::spider::table::{GameSpec, Table};

/// A file the command line names (`--replay`, `--log`), as text: no more than a file opened in
/// the game may hold ([`crate::shell::widgets::OPEN_LIMIT`]; `/dev/zero` read until the memory
/// ran out), without a byte-order mark (some editors write one: a log was then not known as
/// Pro Spider 10's).
fn read_file(path: &std::path::Path) -> Result<String, String> {
    use crate::shell::widgets::{OPEN_LIMIT, TextFileError, read_text_file};
    read_text_file(path).map_err(|e| match e {
        TextFileError::Io(e) => e.to_string(),
        TextFileError::TooLarge => format!("larger than {} MiB", OPEN_LIMIT >> 20),
        TextFileError::NotText => "not a text file".to_string(),
    })
}

/// Whether the file at `path` reads as a Pro Spider 10 game log: its first line that is not
/// blank or a comment is `game: ...` (a Spider replay is RON). A file that cannot be read is left
/// to the reader that reports it.
fn is_phase10_log(path: &std::path::Path) -> bool {
    read_file(path).is_ok_and(|text| {
        text.lines()
            .map(|line| line.split('#').next().unwrap_or("").trim())
            .find(|line| !line.is_empty())
            .is_some_and(|line| line.starts_with("game:"))
    })
}

/// What the command line asks for.
#[derive(Clone, Debug)]
pub struct Launch {
    /// The game to play: the deal asked for, with `--moves` already played.
    pub table: Table,
    /// Save a screenshot of the dealt table here and exit.
    pub capture: Option<PathBuf>,
    /// Play without sound.
    pub mute: bool,
    /// A theme other than the settings' one (its id), for this run only.
    pub theme: Option<String>,
    /// Whether the arguments chose a deal (else the saved game is resumed, if there is one).
    pub chose_deal: bool,
    /// A replay to open in the viewer (`--replay FILE [--at N]`).
    pub replay: Option<Control>,
    /// A window to open at start (`--open stats`).
    pub open: Option<String>,
    /// The window's size in logical pixels (`--window 800x600`; 1280x720 by default).
    pub window: (u32, u32),
    /// Pro Spider 10 on the table at start (`--game pro-spider-10`, or `--log FILE.p10`).
    pub phase10_on_table: bool,
    /// Spider on the table at start (`--game spider`, a Spider deal or a Spider replay asked
    /// for), whichever game was on the table when the player left.
    pub spider_on_table: bool,
    /// The Pro Spider 10 game asked for (`--log FILE.p10`, or `--game pro-spider-10` with a
    /// deal's options: `--seed`, `--players`, `--ai`, `--variant`); without one, the game in
    /// progress is resumed, as with Spider.
    pub phase10: Option<crate::phase10::round::P10Table>,
    /// A Pro Spider 10 log to watch in the viewer (`--replay FILE.p10 [--at N]`; the log names
    /// its game): what to open, then the step to show (paused there).
    pub phase10_replay: Option<(crate::phase10::viewer::ViewerControl, Option<usize>)>,
}

/// Usage text.
pub const USAGE: &str = "usage: arachne [--game spider|pro-spider-10] [--players 2-6] [--ai LEVEL,...] [--variant ID] [--seed N] [--numbering arachne|kpat] [--moves \"1>2:1 deal ...\"] [--replay FILE.ron|FILE.p10 [--at N]] [--log FILE.p10] [--theme ID] [--open menu|stats|settings|layout|replays|help|won|sheet|themes|tuner] [--window WxH] [--capture PATH.png] [--mute]";

/// Why `--theme ID` cannot be used, if it cannot: no theme has that id.
pub fn theme_error(id: &str, themes: &Themes) -> Option<String> {
    if themes.get(id).is_some() {
        return None;
    }
    let ids: Vec<&str> = themes.0.iter().map(|e| e.theme.id.as_str()).collect();
    Some(format!(
        "--theme: no theme `{id}`; the themes are: {}",
        ids.join(", ")
    ))
}

/// Parses the arguments after the program name. `default_seed` is used without `--seed`.
pub fn parse(args: &[String], default_seed: u64) -> Result<Launch, String> {
    let mut variant_id = "spider-2suit".to_string();
    let mut seed = default_seed;
    let mut numbering = Numbering::Arachne;
    let mut capture = None;
    let mut mute = false;
    let mut theme = None;
    let mut moves = Vec::new();
    let mut replay_file: Option<PathBuf> = None;
    let mut at = None;
    let mut open = None;
    let mut window = (1280, 720);
    let mut game = "spider".to_string();
    let mut log_file: Option<PathBuf> = None;
    let mut players: Option<usize> = None;
    let mut levels: Option<Vec<String>> = None;
    let mut variant_given = false;
    let chose_deal = args.iter().any(|a| {
        matches!(
            a.as_str(),
            "--variant" | "--seed" | "--numbering" | "--moves"
        )
    });
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let mut value = |name: &str| {
            it.next()
                .cloned()
                .ok_or_else(|| format!("{name} needs a value\n{USAGE}"))
        };
        match arg.as_str() {
            "--variant" => {
                variant_id = value("--variant")?;
                variant_given = true;
            }
            "--game" => game = value("--game")?,
            "--players" => {
                let v = value("--players")?;
                players = Some(
                    v.parse()
                        .map_err(|_| format!("--players: `{v}` is not 2 to 6"))?,
                );
            }
            "--ai" => {
                levels = Some(
                    value("--ai")?
                        .split(',')
                        .map(|l| l.trim().to_string())
                        .collect(),
                );
            }
            "--seed" => {
                let v = value("--seed")?;
                seed = v.parse().map_err(|_| {
                    format!("--seed: `{v}` is not a deal number (0 to 18446744073709551615)")
                })?;
            }
            "--numbering" => {
                numbering = match value("--numbering")?.as_str() {
                    "arachne" => Numbering::Arachne,
                    "kpat" => Numbering::Kpat,
                    other => return Err(format!("--numbering: `{other}` is not arachne or kpat")),
                }
            }
            "--capture" => capture = Some(PathBuf::from(value("--capture")?)),
            "--mute" => mute = true,
            "--moves" => {
                moves = arachne_engine::parse_move_list(&value("--moves")?)
                    .map_err(|e| format!("--moves: {e}"))?;
            }
            "--theme" => {
                // Checked once the player's themes are read (`theme_error`).
                theme = Some(value("--theme")?);
            }
            "--replay" => replay_file = Some(PathBuf::from(value("--replay")?)),
            "--log" => log_file = Some(PathBuf::from(value("--log")?)),
            "--at" => {
                let v = value("--at")?;
                at = Some(
                    v.parse::<usize>()
                        .map_err(|_| format!("--at: `{v}` is not a move number"))?,
                );
            }
            "--open" => {
                let name = value("--open")?;
                if !WINDOW_NAMES.contains(&name.as_str()) {
                    return Err(format!(
                        "--open: no window `{name}`; the windows are: {}",
                        WINDOW_NAMES.join(", ")
                    ));
                }
                open = Some(name);
            }
            "--window" => {
                let v = value("--window")?;
                window = v
                    .split_once('x')
                    .and_then(|(w, h)| Some((w.parse().ok()?, h.parse().ok()?)))
                    .filter(|&(w, h): &(u32, u32)| {
                        (320..=7680).contains(&w) && (240..=4320).contains(&h)
                    })
                    .ok_or_else(|| {
                        format!("--window: `{v}` is not WIDTHxHEIGHT from 320x240 to 7680x4320")
                    })?;
            }
            "-h" | "--help" => return Err(USAGE.to_string()),
            other => return Err(format!("unknown argument `{other}`\n{USAGE}")),
        }
    }
    // A Pro Spider 10 log (`--replay FILE.p10` or `--log FILE.p10`) names its game in its first
    // line: it opens in that game without `--game pro-spider-10`.
    if !args.iter().any(|a| a == "--game")
        && [&replay_file, &log_file]
            .into_iter()
            .flatten()
            .any(|path| is_phase10_log(path))
    {
        game = "pro-spider-10".into();
    }
    let phase10 = match game.as_str() {
        "spider" => {
            if players.is_some() || levels.is_some() {
                return Err("--players and --ai are for --game pro-spider-10".into());
            }
            None
        }
        "pro-spider-10" | "phase10" => Some(match &log_file {
            Some(path) => {
                if variant_given || players.is_some() || args.iter().any(|a| a == "--seed") {
                    return Err(
                        "--log gives the game: --variant, --players and --seed do not go with it"
                            .into(),
                    );
                }
                Some(phase10_from_log(path, levels)?)
            }
            // Pro Spider 10 asked for alone (a link, a shortcut) is the game in progress.
            None if !variant_given
                && players.is_none()
                && levels.is_none()
                && !args.iter().any(|a| a == "--seed") =>
            {
                None
            }
            None => Some(phase10_table(
                variant_given.then_some(variant_id.as_str()),
                players,
                levels,
                seed,
            )?),
        }),
        other => {
            return Err(format!(
                "--game: no game `{other}`; the games are: spider, pro-spider-10"
            ));
        }
    };
    if log_file.is_some() && phase10.is_none() {
        return Err("--log FILE.p10 is for --game pro-spider-10".into());
    }
    if phase10.is_some() {
        // Spider waits with its default deal (or the saved game) behind the other game.
        variant_id = "spider-2suit".into();
        moves.clear();
    }
    let spec = GameSpec::builtin(&variant_id, seed, numbering).ok_or_else(|| {
        let ids: Vec<&str> = variant::builtin().iter().map(|v| v.id.as_str()).collect();
        format!(
            "--variant: no variant `{variant_id}`; the variants are: {}",
            ids.join(", ")
        )
    })?;
    // Refuse a deal the numbering cannot make, or a move that does not apply, before the window
    // opens.
    let mut table = Table::new(spec).map_err(|e| e.to_string())?;
    for (i, &mv) in moves.iter().enumerate() {
        table
            .game
            .apply(mv)
            .map_err(|e| format!("--moves: move {} ({mv}): {e}", i + 1))?;
    }
    // A Pro Spider 10 log for the viewer: read and checked now, opened at start.
    let mut phase10_replay = None;
    if phase10.is_some()
        && let Some(path) = replay_file.take()
    {
        let text = read_file(&path).map_err(|e| format!("--replay: {}: {e}", path.display()))?;
        arachne_engine::phase10::resume(&text, &arachne_engine::phase10::variant::resolve)
            .map_err(|e| format!("--replay: {}: {e}", path.display()))?;
        let name = path.file_name().map_or_else(
            || path.display().to_string(),
            |n| n.to_string_lossy().into(),
        );
        phase10_replay = Some((
            crate::phase10::viewer::ViewerControl::Open {
                title: name,
                log: text,
            },
            at.take(),
        ));
    }
    if at.is_some() && replay_file.is_none() {
        return Err("--at needs --replay FILE".to_string());
    }
    let replay = match replay_file {
        Some(path) => {
            let text =
                read_file(&path).map_err(|e| format!("--replay: {}: {e}", path.display()))?;
            let r = arachne_engine::Replay::from_ron(&text)
                .map_err(|e| format!("--replay: {}:{e}", path.display()))?;
            let name = path.file_name().map_or_else(
                || path.display().to_string(),
                |n| n.to_string_lossy().into(),
            );
            Some(
                open_replay(&r, format!("Replay {name}"), at)
                    .map_err(|e| format!("--replay: {}: {e}", path.display()))?,
            )
        }
        None => None,
    };
    let spider_on_table =
        phase10.is_none() && (args.iter().any(|a| a == "--game") || chose_deal || replay.is_some());
    Ok(Launch {
        table,
        capture,
        mute,
        theme,
        // A deal asked for Pro Spider 10 (its seed) leaves Spider's saved game where it is.
        chose_deal: chose_deal && phase10.is_none(),
        replay,
        open,
        window,
        phase10_on_table: phase10.is_some(),
        spider_on_table,
        phase10: phase10.flatten(),
        phase10_replay,
    })
}

/// A Pro Spider 10 game from its `.p10` log (a kept game, or one of `arachne-cli phase10 play`),
/// where the log leaves it; `levels` replace the computer seats' levels the file names.
fn phase10_from_log(
    path: &std::path::Path,
    levels: Option<Vec<String>>,
) -> Result<crate::phase10::round::P10Table, String> {
    let text = read_file(path).map_err(|e| format!("--log: {}: {e}", path.display()))?;
    let mut table = crate::phase10::saves::table_from_text(&text)
        .map_err(|e| format!("--log: {}: {e}", path.display()))?;
    if let Some(levels) = levels {
        let n = table.spec.players;
        let levels = if levels.len() == 1 {
            vec![levels[0].clone(); n - 1]
        } else {
            levels
        };
        table.spec = crate::phase10::round::P10Spec::new(
            table.spec.variant.clone(),
            n,
            table.spec.seed,
            levels,
        )
        .map_err(|e| format!("--ai: {e}"))?;
    }
    Ok(table)
}

/// The Pro Spider 10 game the command line asks for: the variant (standard by default), the
/// seats (4 by default), each computer seat's level (one level for all, or one per seat; the
/// strongest by default).
fn phase10_table(
    variant_id: Option<&str>,
    players: Option<usize>,
    levels: Option<Vec<String>>,
    seed: u64,
) -> Result<crate::phase10::round::P10Table, String> {
    use arachne_engine::phase10::{ai, variant};
    let id = variant_id.unwrap_or("pro-spider-10");
    let v = variant::resolve(id).ok_or_else(|| {
        let ids: Vec<&str> = variant::builtin().iter().map(|v| v.id.as_str()).collect();
        format!(
            "--variant: no Pro Spider 10 variant `{id}`; they are: {} (a phase list may add +{})",
            ids.join(", "),
            variant::OPTIONS.join(", +")
        )
    })?;
    let players = players.unwrap_or(4);
    let levels = match levels {
        None => vec![ai::STRONGEST.to_string(); players.saturating_sub(1)],
        Some(l) if l.len() == 1 => vec![l[0].clone(); players.saturating_sub(1)],
        Some(l) => l,
    };
    let spec = crate::phase10::round::P10Spec::new(v, players, seed, levels)
        .map_err(|e| format!("--game pro-spider-10: {e}"))?;
    crate::phase10::round::P10Table::new(spec)
        .map(|(table, _)| table)
        .map_err(|e| format!("--game pro-spider-10: {e}"))
}

/// A link's query (`?game=pro-spider-10&players=3&seed=5`) as command-line arguments: the
/// options a link may choose (`mute` a switch, `mute=0` off), and apart the keys it names that
/// are none of them, to tell the player. `decode` undoes the query's percent-encoding, `None`
/// where it cannot (a `%` not followed by two hex digits of UTF-8 text). An option whose value
/// cannot be read makes the arguments an error that names it: the link's game would be a
/// guess. A key that cannot be read is named as written among those left out.
pub fn args_from_query(
    query: &str,
    decode: impl Fn(&str) -> Option<String>,
) -> (Result<Vec<String>, String>, Vec<String>) {
    // Not `at`: it needs a replay file, which a page has not got.
    const VALUED: [&str; 9] = [
        "game",
        "players",
        "ai",
        "seed",
        "variant",
        "theme",
        "open",
        "numbering",
        "moves",
    ];
    let mut args = Vec::new();
    let mut ignored = Vec::new();
    let mut unreadable = Vec::new();
    for pair in query
        .trim_start_matches('?')
        .split('&')
        .filter(|p| !p.is_empty())
    {
        let (raw_key, raw_value) = pair.split_once('=').unwrap_or((pair, ""));
        let Some(key) = decode(raw_key) else {
            ignored.push(raw_key.to_string());
            continue;
        };
        if key != "mute" && !VALUED.contains(&key.as_str()) {
            ignored.push(key);
            continue;
        }
        // (In the moves, `+` is a space, as forms and `URLSearchParams` write one; elsewhere
        // it stays: a variant may be `pro-spider-10-first-five+knocking`.)
        let value = if key == "moves" {
            decode(&raw_value.replace('+', " "))
        } else {
            decode(raw_value)
        };
        let Some(value) = value else {
            unreadable.push(format!("{key}={raw_value}"));
            continue;
        };
        if key == "mute" {
            if !matches!(value.as_str(), "0" | "false" | "no") {
                args.push("--mute".to_string());
            }
        } else if !value.is_empty() {
            args.push(format!("--{key}"));
            args.push(value);
        }
    }
    let args = if unreadable.is_empty() {
        Ok(args)
    } else {
        Err(format!(
            "{}: a % that is not two hex digits of UTF-8 text",
            unreadable.join(", ")
        ))
    };
    (args, ignored)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_links_query_chooses_what_the_command_line_does_and_names_what_it_cannot() {
        let same = |s: &str| Some(s.replace("%20", " "));
        let (a, ignored) = args_from_query(
            "?variant=spider-4suit&seed=1&numbering=kpat&mute&at=3&moves=1%3E9:1%202%3E4:1&zoom=2&seed=",
            |s| same(s).map(|s| s.replace("%3E", ">")),
        );
        let a = a.unwrap();
        assert_eq!(
            a,
            args("--variant spider-4suit --seed 1 --numbering kpat --mute --moves")
                .into_iter()
                .chain(["1>9:1 2>4:1".to_string()])
                .collect::<Vec<_>>()
        );
        assert_eq!(ignored, ["at", "zoom"]);
        assert!(parse(&a, 9).is_ok(), "{:?}", parse(&a, 9).err());
        let (a, ignored) = args_from_query("game=pro-spider-10&mute=0", same);
        assert_eq!(a.unwrap(), args("--game pro-spider-10"));
        assert!(ignored.is_empty());
        // A form's (or `URLSearchParams`') spaces.
        let (a, _) = args_from_query("moves=1%3E9:1+2%3E4:1", |s| Some(s.replace("%3E", ">")));
        assert_eq!(a.unwrap(), ["--moves", "1>9:1 2>4:1"]);
        let (a, _) = args_from_query("variant=pro-spider-10-first-five+knocking", same);
        assert_eq!(
            a.unwrap(),
            ["--variant", "pro-spider-10-first-five+knocking"]
        );
    }

    /// A `%` that does not decode was once read as an empty value, and the link's option
    /// was dropped without a word: `?seed=%ZZ` dealt a random game.
    #[test]
    fn a_links_option_that_does_not_decode_is_named_not_dropped() {
        let decode = |s: &str| (!s.contains("%ZZ")).then(|| s.to_string());
        let (a, ignored) = args_from_query("game=pro-spider-10&seed=%ZZ&ai=petra", decode);
        let why = a.unwrap_err();
        assert!(why.starts_with("seed=%ZZ: a % "), "{why}");
        assert!(ignored.is_empty());
        // A key that is no option is only left out, named as written.
        let (a, ignored) = args_from_query("seed=3&x%ZZ=1", decode);
        assert_eq!(a.unwrap(), ["--seed", "3"]);
        assert_eq!(ignored, ["x%ZZ"]);
        // A value of a key that is no option is never read.
        let (a, ignored) = args_from_query("ref=%ZZ", decode);
        assert_eq!(a.unwrap(), Vec::<String>::new());
        assert_eq!(ignored, ["ref"]);
    }

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    /// The usage's `--moves` example is notation the game takes (it once showed `d`).
    #[test]
    fn the_usage_example_of_moves_parses() {
        let example = USAGE
            .split_once("--moves \"")
            .and_then(|(_, rest)| rest.split_once(" ...\""))
            .map(|(moves, _)| moves)
            .unwrap();
        assert_eq!(example, "1>2:1 deal");
        assert!(arachne_engine::parse_move_list(example).is_ok());
    }

    /// A file the command line names is read as text of a bounded size, without a byte-order
    /// mark: a log saved by an editor that writes one is still Pro Spider 10's.
    #[test]
    fn files_named_on_the_command_line_are_bounded_text() {
        let dir = std::env::temp_dir().join(format!("arachne-cli-files-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let log = dir.join("game.p10");
        std::fs::write(&log, "\u{feff}game: pro-spider-10\nplayers: 2\nseed: 1\n").unwrap();
        assert!(is_phase10_log(&log));
        assert!(read_file(&log).unwrap().starts_with("game:"));
        let binary = dir.join("picture.png");
        std::fs::write(&binary, [0x89, b'P', b'N', b'G', 0xff, 0xfe]).unwrap();
        assert_eq!(read_file(&binary).unwrap_err(), "not a text file");
        let large = dir.join("large.ron");
        std::fs::write(
            &large,
            vec![b'x'; crate::shell::widgets::OPEN_LIMIT as usize + 1],
        )
        .unwrap();
        assert!(read_file(&large).unwrap_err().starts_with("larger than"));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn window_sizes_parse_and_bad_ones_are_refused() {
        let args = |a: &[&str]| a.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(parse(&args(&[]), 1).unwrap().window, (1280, 720));
        assert_eq!(
            parse(&args(&["--window", "800x600"]), 1).unwrap().window,
            (800, 600)
        );
        for bad in ["800", "800x", "0x600", "x600", "100x100", "800x600x2"] {
            assert!(parse(&args(&["--window", bad]), 1).is_err(), "{bad}");
        }
    }

    #[test]
    fn defaults_and_every_option() {
        let l = parse(&[], 7).unwrap();
        assert_eq!(
            (l.table.spec.variant.id.as_str(), l.table.spec.seed),
            ("spider-2suit", 7)
        );
        let l = parse(
            &args("--variant spider-4suit --seed 12 --numbering kpat --capture x.png --mute"),
            7,
        )
        .unwrap();
        assert_eq!(l.table.spec.variant.id, "spider-4suit");
        assert_eq!(
            (l.table.spec.seed, l.table.spec.numbering),
            (12, Numbering::Kpat)
        );
        assert_eq!(l.capture, Some(PathBuf::from("x.png")));
        assert!(l.mute);
    }

    #[test]
    fn bad_arguments_say_what_is_wrong() {
        let e = parse(&args("--variant nope"), 1).unwrap_err();
        assert!(
            e.contains("no variant `nope`") && e.contains("spider-1suit"),
            "{e}"
        );
        let e = parse(&args("--seed x"), 1).unwrap_err();
        assert!(e.contains("`x` is not a deal number"), "{e}");
        assert!(
            parse(&args("--seed"), 1)
                .unwrap_err()
                .contains("--seed needs a value")
        );
        assert!(
            parse(&args("--frobnicate"), 1)
                .unwrap_err()
                .contains("unknown argument")
        );
        // Huge Spider has no KPatience numbering.
        assert!(parse(&args("--variant huge-spider --numbering kpat"), 1).is_err());
        assert!(
            parse(&args("--open nowhere"), 1)
                .unwrap_err()
                .contains("stats")
        );
        assert!(parse(&args("--at 3"), 1).unwrap_err().contains("--replay"));
        let e = parse(&args("--replay /nonexistent/x.ron"), 1).unwrap_err();
        assert!(e.contains("/nonexistent/x.ron"), "{e}");
    }

    #[test]
    fn a_replay_file_opens_at_the_move_asked_or_says_where_it_is_wrong() {
        let dir = std::env::temp_dir().join(format!("arachne-cli-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let mut t = parse(&args("--variant spider-1suit --seed 5"), 1)
            .unwrap()
            .table;
        let mv = t.game.legal_moves()[0];
        t.game.apply(mv).unwrap();
        let replay = arachne_engine::Replay::of_game(&t.game, t.spec.numbering, t.spec.seed);
        let good = dir.join("good.ron");
        std::fs::write(&good, replay.to_ron()).unwrap();
        let l = parse(&args(&format!("--replay {} --at 1", good.display())), 1).unwrap();
        // Spider's replay is watched on Spider's table, whichever game was left there.
        assert!(l.spider_on_table && !l.phase10_on_table);
        match l.replay {
            Some(Control::Open { moves, at, .. }) => assert_eq!((moves, at), (vec![mv], 1)),
            other => panic!("{other:?}"),
        }
        let bad = dir.join("bad.ron");
        std::fs::write(&bad, replay.to_ron().replace("moves", "muves")).unwrap();
        let e = parse(&args(&format!("--replay {}", bad.display())), 1).unwrap_err();
        assert!(e.contains("bad.ron:") && e.contains("muves"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn pro_spider_10_starts_from_the_command_line() {
        let launch = parse(
            &args("--game pro-spider-10 --players 3 --seed 9 --ai petra,random"),
            1,
        )
        .unwrap();
        // Its seed is Pro Spider 10's deal: Spider's saved game is not given up for it.
        assert!(!launch.chose_deal);
        assert!(parse(&args("--seed 9"), 1).unwrap().chose_deal);
        let t = launch.phase10.expect("a Pro Spider 10 game");
        assert_eq!(t.spec.players, 3);
        assert_eq!(t.spec.seed, 9);
        assert_eq!(t.spec.levels, ["petra", "random"]);
        let all = parse(&args("--game pro-spider-10 --players 6 --ai petra"), 1).unwrap();
        assert_eq!(all.phase10.unwrap().spec.levels, vec!["petra"; 5]);
        // Asked for alone (a link or a shortcut), it is the game in progress: none is dealt to
        // replace it (every visit of a link left the saved game before).
        let alone = parse(&args("--game pro-spider-10"), 1).unwrap();
        assert!(alone.phase10_on_table && alone.phase10.is_none() && !alone.chose_deal);
        for deal in [
            "--seed 4",
            "--players 3",
            "--ai petra",
            "--variant pro-spider-10-knocking",
        ] {
            let launch = parse(&args(&format!("--game pro-spider-10 {deal}")), 1).unwrap();
            assert!(
                launch.phase10_on_table && launch.phase10.is_some(),
                "{deal}"
            );
        }
        assert!(!parse(&args("--seed 4"), 1).unwrap().phase10_on_table);
        // Spider asked for is on the table, whichever game the player left there.
        for spider in ["--game spider", "--seed 4", "--variant spider-1suit"] {
            assert!(parse(&args(spider), 1).unwrap().spider_on_table, "{spider}");
        }
        assert!(!parse(&args("--mute"), 1).unwrap().spider_on_table);
        assert!(!alone.spider_on_table);
        for bad in [
            "--game pro-spider-10 --players 7",
            "--game pro-spider-10 --ai petra,petra --players 4",
            "--game pro-spider-10 --ai nobody",
            "--game chess",
            "--players 3",
        ] {
            assert!(parse(&args(bad), 1).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_pro_spider_10_log_opens_where_it_leaves_the_game_or_says_which_line_is_wrong() {
        let dir = std::env::temp_dir().join(format!("arachne-cli-log-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let spec = crate::phase10::round::P10Spec::standard(3, 12, "petra").unwrap();
        let (mut table, _) = crate::phase10::round::P10Table::new(spec).unwrap();
        table
            .apply(arachne_engine::phase10::Action::DrawStock)
            .unwrap();
        let good = dir.join("good.p10");
        std::fs::write(&good, crate::phase10::saves::save_text(&table)).unwrap();
        let launch = parse(
            &args(&format!("--game pro-spider-10 --log {}", good.display())),
            1,
        )
        .unwrap();
        let t = launch.phase10.unwrap();
        assert_eq!(t.game.view(0), table.game.view(0));
        assert_eq!(t.spec.levels, ["petra", "petra"]);
        // The first turn's draw changed to a card the stock does not give there.
        let text = crate::phase10::saves::save_text(&table);
        let line = text.lines().position(|l| l.starts_with("1: ")).unwrap() + 1;
        let bad = dir.join("bad.p10");
        let drawn = text.lines().nth(line - 1).unwrap().to_string();
        let other = if drawn.ends_with(" W") {
            "1: draw stock S"
        } else {
            "1: draw stock W"
        };
        std::fs::write(&bad, text.replace(&drawn, other)).unwrap();
        let e = parse(
            &args(&format!("--game pro-spider-10 --log {}", bad.display())),
            1,
        )
        .unwrap_err();
        assert!(e.contains(&format!("line {line}:")), "{e}");
        for wrong in [
            format!(
                "--game pro-spider-10 --log {}",
                dir.join("missing.p10").display()
            ),
            format!("--game pro-spider-10 --seed 3 --log {}", good.display()),
            format!("--game spider --log {}", good.display()),
            format!("--game spider --replay {}", good.display()),
        ] {
            assert!(parse(&args(&wrong), 1).is_err(), "{wrong}");
        }
        // The log names its game: it opens there without `--game`, to play on or to watch.
        let t = parse(&args(&format!("--log {}", good.display())), 1)
            .unwrap()
            .phase10
            .unwrap();
        assert_eq!(t.game.view(0), table.game.view(0));
        let launch = parse(&args(&format!("--replay {} --at 1", good.display())), 1).unwrap();
        assert!(launch.replay.is_none());
        assert!(
            matches!(launch.phase10_replay, Some((_, Some(1)))),
            "{:?}",
            launch.phase10_replay.map(|(_, at)| at)
        );
        std::fs::remove_dir_all(&dir).ok();
    }
}
