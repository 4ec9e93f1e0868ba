//! `arachne-cli phase10 ...`: Pro Spider 10 on the command line (`shared/spec/phase10.md`):
//! play, check, meld, tournament, levels, and outside players over the line protocol.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::Arc;
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, channel};
use std::time::{Duration, Instant};

use arachne_engine::phase10::ai::{self, LEVELS, Player, STRONGEST};
use arachne_engine::phase10::play::player_seed;
use arachne_engine::phase10::variant::{self as p10variant, P10Variant};
use arachne_engine::phase10::{Action, Card, Counts, SeatView, check, meld, play_game};

use super::{Failure, Outcome, input, read_file, take_next, take_option};

fn usage() -> String {
    format!(
        "\
usage: arachne-cli phase10 COMMAND
commands:
  play [--variant ID] [--players N] [--seed S] [--ai LEVEL,LEVEL,...] [--external N=COMMAND]...
                                            print the log of a game between computer players
  check FILE                                `ok` and `SEAT POINTS PHASES-LAID` per seat, or the first wrong line
  meld PHASE CARD...                        a way to lay standard phase PHASE from the cards, or `none`
  tournament [--variant ID] --players N --ai LEVEL,... --games G [--seed S] [--external N=COMMAND]...
                                            entrants rotate round the seats; wins, win %, mean points
  levels                                    the computer levels, weakest first
levels: {} (default {STRONGEST})
variants: {}
FILE may be `-` for standard input.",
        LEVELS.join(", "),
        p10variant::builtin()
            .iter()
            .map(|v| v.id.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    )
}

/// Runs `arachne-cli phase10 ARGS`.
pub(super) fn run(mut args: Vec<String>) -> Outcome {
    if args.is_empty() {
        return Err(input(usage()));
    }
    let command = args.remove(0);
    match command.as_str() {
        "--help" | "-h" | "help" => Ok(format!("{}\n", usage())),
        "levels" => {
            no_more(&args, "arachne-cli phase10 levels")?;
            Ok(LEVELS.iter().map(|l| format!("{l}\n")).collect())
        }
        "meld" => meld_command(&args),
        "check" => {
            no_more(&args[args.len().min(1)..], "arachne-cli phase10 check FILE")?;
            let [path] = args.as_slice() else {
                return Err(input("usage: arachne-cli phase10 check FILE"));
            };
            let text = read_file(path)?;
            let report =
                check(&text, &p10variant::resolve).map_err(|e| input(format!("{path}: {e}")))?;
            Ok(report.text())
        }
        "play" => play_command(args),
        "tournament" => tournament_command(args),
        other => Err(input(format!(
            "unknown phase10 command `{other}`\n{}",
            usage()
        ))),
    }
}

fn no_more(args: &[String], usage: &str) -> Result<(), Failure> {
    match args.first() {
        Some(a) if a.starts_with("--") => {
            Err(input(format!("unknown option `{a}`\nusage: {usage}")))
        }
        Some(a) => Err(input(format!("unexpected `{a}`\nusage: {usage}"))),
        None => Ok(()),
    }
}

fn meld_command(args: &[String]) -> Outcome {
    let usage = "usage: arachne-cli phase10 meld PHASE CARD...";
    let Some((phase, cards)) = args.split_first() else {
        return Err(input(usage));
    };
    let phases = p10variant::standard_phases();
    let p = phase
        .parse::<usize>()
        .ok()
        .filter(|&n| (1..=phases.len()).contains(&n))
        .ok_or_else(|| {
            input(format!(
                "PHASE must be 1 to {}, not `{phase}`",
                phases.len()
            ))
        })?;
    let mut hand = Vec::new();
    for (i, c) in cards.iter().flat_map(|a| a.split_whitespace()).enumerate() {
        hand.push(
            c.parse::<Card>()
                .map_err(|e| input(format!("card {}: {e}", i + 1)))?,
        );
    }
    let mut counts = Counts::default();
    for &c in &hand {
        if counts.get(c) >= c.copies() {
            return Err(input(format!("the deck holds only {} of {c}", c.copies())));
        }
        counts.add(c);
    }
    Ok(match meld(&counts, &phases[p - 1].groups) {
        Some(groups) => {
            let mut text = String::new();
            let _ = arachne_engine::phase10::action::write_groups(&mut text, &groups);
            format!("{text}\n")
        }
        None => "none\n".into(),
    })
}

fn variant_option(args: &mut Vec<String>) -> Result<Arc<P10Variant>, Failure> {
    let id = take_option(args, "--variant")?.unwrap_or_else(|| "pro-spider-10".into());
    p10variant::resolve(&id).ok_or_else(|| {
        input(format!(
            "unknown variant `{id}` (see `arachne-cli phase10 --help`)"
        ))
    })
}

fn number_option<T: std::str::FromStr>(
    args: &mut Vec<String>,
    name: &str,
) -> Result<Option<T>, Failure> {
    match take_option(args, name)? {
        Some(v) => v
            .parse()
            .map(Some)
            .map_err(|_| input(format!("{name} must be a whole number, not `{v}`"))),
        None => Ok(None),
    }
}

fn levels_option(args: &mut Vec<String>) -> Result<Option<Vec<String>>, Failure> {
    let Some(list) = take_option(args, "--ai")? else {
        return Ok(None);
    };
    let levels: Vec<String> = list
        .split(',')
        .map(|l| l.trim().to_ascii_lowercase())
        .collect();
    for l in &levels {
        if !LEVELS.contains(&l.as_str()) {
            return Err(input(format!(
                "unknown level `{l}` (levels: {})",
                LEVELS.join(", ")
            )));
        }
    }
    Ok(Some(levels))
}

fn externals_option(args: &mut Vec<String>) -> Result<Vec<(usize, String)>, Failure> {
    let mut out = Vec::new();
    while let Some(spec) = take_next(args, "--external")? {
        let (n, cmd) = spec
            .split_once('=')
            .ok_or_else(|| input(format!("--external takes N=COMMAND, not `{spec}`")))?;
        let n: usize =
            n.trim().parse().ok().filter(|&n| n >= 1).ok_or_else(|| {
                input(format!("--external N=COMMAND: `{n}` is not a seat number"))
            })?;
        out.push((n - 1, cmd.to_string()));
    }
    Ok(out)
}

/// One seat's decider: a computer level or an outside program.
enum Decider {
    Level(Box<dyn Player + Send>),
    External(External),
}

impl Decider {
    fn decide(&mut self, view: &SeatView, public: &[String]) -> Result<Action, String> {
        match self {
            Decider::Level(p) => Ok(p.decide(view)),
            Decider::External(e) => e.decide(view, public),
        }
    }
}

/// An outside program speaking the line protocol. It runs in its own process group, so
/// everything it started is stopped with it; blocks are written by a helper thread, so a program
/// that never reads cannot hang the referee past the answer's time limit.
struct External {
    command: String,
    child: Child,
    blocks: Option<Sender<String>>,
    lines: Receiver<Option<String>>,
    seen: usize,
}

/// How long an outside program may think.
const EXTERNAL_TIMEOUT: Duration = Duration::from_secs(10);

impl External {
    fn start(command: &str) -> Result<External, String> {
        let mut sh = Command::new("sh");
        sh.arg("-c")
            .arg(command)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit());
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut sh, 0);
        let mut child = sh
            .spawn()
            .map_err(|e| format!("cannot start `{command}`: {e}"))?;
        let stdin = child.stdin.take().ok_or("no standard input")?;
        let stdout = child.stdout.take().ok_or("no standard output")?;
        let (blocks, to_write) = channel::<String>();
        std::thread::spawn(move || write_blocks(stdin, &to_write));
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                match line {
                    Ok(l) => {
                        if tx.send(Some(l)).is_err() {
                            return;
                        }
                    }
                    Err(_) => break,
                }
            }
            let _ = tx.send(None);
        });
        Ok(External {
            command: command.to_string(),
            child,
            blocks: Some(blocks),
            lines: rx,
            seen: 0,
        })
    }

    fn decide(&mut self, view: &SeatView, public: &[String]) -> Result<Action, String> {
        let mut block = view.block();
        for line in public.get(self.seen..).unwrap_or(&[]) {
            block += &format!("seen {line}\n");
        }
        self.seen = public.len();
        let choices: Vec<String> = view.choices.iter().map(Action::to_string).collect();
        for c in &choices {
            block += &format!("choice {c}\n");
        }
        block += "go\n";
        let cmd = &self.command;
        // The writer thread ends when the program stops reading; then its answer never comes.
        if self.blocks.as_ref().is_none_or(|b| b.send(block).is_err()) {
            return Err(format!("external `{cmd}` exited or stopped reading"));
        }
        let answer = match self.lines.recv_timeout(EXTERNAL_TIMEOUT) {
            Ok(Some(line)) => line,
            Ok(None) | Err(RecvTimeoutError::Disconnected) => {
                return Err(format!("external `{cmd}` exited without answering"));
            }
            Err(RecvTimeoutError::Timeout) => {
                return Err(format!(
                    "external `{cmd}` took more than {} s to answer",
                    EXTERNAL_TIMEOUT.as_secs()
                ));
            }
        };
        let answer = answer.trim();
        choices
            .iter()
            .position(|c| c == answer)
            .map(|i| view.choices[i].clone())
            .ok_or_else(|| {
                format!("external `{cmd}` answered `{answer}`, which is not one of the choices")
            })
    }
}

/// Writes each block to the program until it stops reading or the referee is done with it.
fn write_blocks(mut stdin: ChildStdin, blocks: &Receiver<String>) {
    for block in blocks {
        if stdin
            .write_all(block.as_bytes())
            .and_then(|()| stdin.flush())
            .is_err()
        {
            return;
        }
    }
}

impl Drop for External {
    fn drop(&mut self) {
        // Kill the whole process group (the program and whatever it started), then `sh` itself.
        #[cfg(unix)]
        {
            let _ = Command::new("kill")
                .args(["-KILL", "--", &format!("-{}", self.child.id())])
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .status();
        }
        let _ = self.child.kill();
        // The writer thread ends with it: its write fails, and then the channel closes.
        let _ = self.child.wait();
    }
}

struct GameResult {
    log: String,
    points: Vec<u32>,
    winners: Vec<usize>,
    rounds: u32,
    decisions: u64,
    secs: f64,
}

/// Plays one game; `seats[s]` is the level of seat `s` or `None` for `externals`' command.
fn run_game(
    variant: &Arc<P10Variant>,
    seed: u64,
    seats: &[(String, Option<String>)],
) -> Result<GameResult, Failure> {
    let mut deciders = Vec::with_capacity(seats.len());
    for (s, (level, external)) in seats.iter().enumerate() {
        deciders.push(match external {
            Some(cmd) => Decider::External(
                External::start(cmd).map_err(|e| input(format!("seat {}: {e}", s + 1)))?,
            ),
            None => Decider::Level(
                ai::player(level, player_seed(seed, s))
                    .ok_or_else(|| input(format!("unknown level `{level}`")))?,
            ),
        });
    }
    let mut decide_time = 0.0;
    let played = play_game(
        variant.clone(),
        seats.len(),
        seed,
        &mut |seat, view, public| {
            let t = Instant::now();
            let a = deciders[seat].decide(view, public);
            decide_time += t.elapsed().as_secs_f64();
            a
        },
    )
    .map_err(|e| match e {
        arachne_engine::phase10::PlayError::Illegal { .. }
        | arachne_engine::phase10::PlayError::TooLong(_) => Failure::Internal(e.to_string()),
        _ => input(e.to_string()),
    })?;
    Ok(GameResult {
        points: played.game.standings().iter().map(|s| s.points).collect(),
        winners: played.game.winners().to_vec(),
        rounds: played.game.round(),
        decisions: played.decisions,
        secs: decide_time,
        log: played.log,
    })
}

fn play_command(mut args: Vec<String>) -> Outcome {
    let variant = variant_option(&mut args)?;
    let players: Option<usize> = number_option(&mut args, "--players")?;
    let seed: u64 = number_option(&mut args, "--seed")?.unwrap_or(0);
    let levels = levels_option(&mut args)?;
    let externals = externals_option(&mut args)?;
    no_more(
        &args,
        "arachne-cli phase10 play [--variant ID] [--players N] [--seed S] [--ai LEVEL,...] [--external N=COMMAND]...",
    )?;
    let players = players.unwrap_or(match &levels {
        Some(l) if l.len() > 1 => l.len(),
        _ => 2,
    });
    let (min, max) = (
        usize::from(variant.players.min),
        usize::from(variant.players.max),
    );
    if !(min..=max).contains(&players) {
        return Err(input(format!(
            "{} is for {min} to {max} players, not {players}",
            variant.id
        )));
    }
    let levels = match levels {
        None => vec![STRONGEST.to_string(); players],
        Some(l) if l.len() == 1 => vec![l[0].clone(); players],
        Some(l) if l.len() == players => l,
        Some(l) => {
            return Err(input(format!(
                "--ai lists {} levels for {players} players",
                l.len()
            )));
        }
    };
    let mut seats: Vec<(String, Option<String>)> = levels.into_iter().map(|l| (l, None)).collect();
    for (n, cmd) in externals {
        let seat = seats
            .get_mut(n)
            .ok_or_else(|| input(format!("--external {}: there is no seat {}", n + 1, n + 1)))?;
        *seat = ("external".into(), Some(cmd));
    }
    Ok(run_game(&variant, seed, &seats)?.log)
}

fn tournament_command(mut args: Vec<String>) -> Outcome {
    let usage = "arachne-cli phase10 tournament [--variant ID] --players N --ai LEVEL,... --games G [--seed S] [--external N=COMMAND]...";
    let variant = variant_option(&mut args)?;
    let players: usize = number_option(&mut args, "--players")?
        .ok_or_else(|| input(format!("--players is required\nusage: {usage}")))?;
    let games: u64 = number_option(&mut args, "--games")?
        .ok_or_else(|| input(format!("--games is required\nusage: {usage}")))?;
    let seed: u64 = number_option(&mut args, "--seed")?.unwrap_or(0);
    let levels = levels_option(&mut args)?
        .ok_or_else(|| input(format!("--ai is required\nusage: {usage}")))?;
    let externals = externals_option(&mut args)?;
    no_more(&args, usage)?;
    let (min, max) = (
        usize::from(variant.players.min),
        usize::from(variant.players.max),
    );
    if !(min..=max).contains(&players) {
        return Err(input(format!(
            "{} is for {min} to {max} players, not {players}",
            variant.id
        )));
    }
    if levels.len() != players {
        return Err(input(format!(
            "--ai lists {} entrants for {players} players",
            levels.len()
        )));
    }
    if games == 0 {
        return Err(input("--games must be at least 1"));
    }
    let mut entrants: Vec<(String, Option<String>)> =
        levels.into_iter().map(|l| (l, None)).collect();
    for (n, cmd) in externals {
        let e = entrants.get_mut(n).ok_or_else(|| {
            input(format!(
                "--external {}: there is no entrant {}",
                n + 1,
                n + 1
            ))
        })?;
        *e = ("external".into(), Some(cmd));
    }
    let n = players;
    let mut wins = vec![0u64; n];
    let mut points = vec![0u64; n];
    let (mut rounds, mut decisions, mut secs) = (0u64, 0u64, 0f64);
    for g in 0..games {
        // Entrant e sits in seat (e + g) mod N.
        let seats: Vec<(String, Option<String>)> = (0..n)
            .map(|s| entrants[(s + n - (g as usize % n)) % n].clone())
            .collect();
        let r = run_game(&variant, seed.wrapping_add(g), &seats)?;
        for e in 0..n {
            let seat = (e + g as usize) % n;
            points[e] += u64::from(r.points[seat]);
            if r.winners.contains(&seat) {
                wins[e] += 1;
            }
        }
        rounds += u64::from(r.rounds);
        decisions += r.decisions;
        secs += r.secs;
    }
    let mut out = String::new();
    for e in 0..n {
        out += &format!(
            "{} {} {} {:.1}% {:.1}\n",
            e + 1,
            entrants[e].0,
            wins[e],
            100.0 * wins[e] as f64 / games as f64,
            points[e] as f64 / games as f64
        );
    }
    out += &format!(
        "games {games} rounds-per-game {:.1} decisions-per-second {:.0}\n",
        rounds as f64 / games as f64,
        decisions as f64 / secs.max(1e-9)
    );
    Ok(out)
}
