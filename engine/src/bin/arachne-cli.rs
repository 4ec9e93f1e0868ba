//! `arachne-cli`: the engine on the command line (see `shared/spec/notation.md` and the README).
//!
//! Exit status: 0 on success, 2 on bad input or an illegal move, 1 on an internal error.

use std::io::{Read, Write};
use std::path::Path;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

#[path = "arachne-cli/phase10.rs"]
mod phase10;

use arachne_engine::{
    Budget, DiscardMode, Game, GameOptions, Move, Numbering, Position, Replay, Variant, Variants,
    Verdict, deal, solve,
};

const USAGE: &str = "\
usage: arachne-cli [--variant-file PATH]... COMMAND
commands:
  variants                                  list variants: id<TAB>name
  deal VARIANT SEED [--numbering arachne|kpat] [--discard auto|manual]
                                            print the initial position
  moves FILE                                print every legal move
  apply FILE MOVE...                        print the position after the moves
  replay FILE                               verify a replay file, print its final position
  solve FILE [--budget-ms N] [--budget-nodes N]
                                            `solved` and a winning move list, `unwinnable` or `unknown`
  bench VARIANT --seeds A..B [--numbering arachne|kpat] [--budget-ms N] [--budget-nodes N]
                                            solve a range of deals: SEED RESULT MS NODES, then a summary
  phase10 COMMAND ...                       Pro Spider 10: play, check, meld, tournament, levels
                                            (`arachne-cli phase10 --help`)
FILE may be `-` for standard input.";

/// A failure and the exit status it gives.
enum Failure {
    /// Bad input: exit 2.
    Input(String),
    /// A bug or an I/O failure writing output: exit 1.
    Internal(String),
}

type Outcome = Result<String, Failure>;

fn input(msg: impl Into<String>) -> Failure {
    Failure::Input(msg.into())
}

/// The longest input read: far beyond any position, replay or log (a six-seat log of a long
/// game is some 100 KB), short of what would exhaust the memory (`moves /dev/zero` read for ever).
const INPUT_LIMIT: u64 = 256 << 20;

/// A text file (`-`: standard input). A byte-order mark at its start is dropped; text that is
/// not UTF-8 is refused with the number of the first line that is not, and text longer than
/// [`INPUT_LIMIT`] is refused.
fn read_file(path: &str) -> Result<String, Failure> {
    let mut bytes = Vec::new();
    let result = if path == "-" {
        std::io::stdin()
            .take(INPUT_LIMIT + 1)
            .read_to_end(&mut bytes)
    } else {
        std::fs::File::open(path).and_then(|f| f.take(INPUT_LIMIT + 1).read_to_end(&mut bytes))
    };
    result.map_err(|e| input(format!("{path}: {e}")))?;
    if bytes.len() as u64 > INPUT_LIMIT {
        return Err(input(format!(
            "{path}: longer than {} MiB: no position, replay or log is that long",
            INPUT_LIMIT >> 20
        )));
    }
    if bytes.starts_with("\u{feff}".as_bytes()) {
        bytes.drain(.."\u{feff}".len());
    }
    String::from_utf8(bytes).map_err(|e| {
        let valid = e.utf8_error().valid_up_to();
        let line = 1 + e.as_bytes()[..valid]
            .iter()
            .filter(|&&b| b == b'\n')
            .count();
        input(format!("{path}: line {line}: not UTF-8 text"))
    })
}

fn read_position(path: &str, variants: &Variants) -> Result<Position, Failure> {
    let text = read_file(path)?;
    Position::parse(&text, variants).map_err(|e| input(format!("{path}: {e}")))
}

/// Takes `--name VALUE` out of `args`, if present (once at most).
fn take_option(args: &mut Vec<String>, name: &str) -> Result<Option<String>, Failure> {
    let value = take_next(args, name)?;
    if value.is_some() && args.iter().any(|a| a == name) {
        return Err(input(format!("{name} is given more than once")));
    }
    Ok(value)
}

/// Takes the first `--name VALUE` out of `args`, if present (an option that may repeat).
fn take_next(args: &mut Vec<String>, name: &str) -> Result<Option<String>, Failure> {
    let Some(i) = args.iter().position(|a| a == name) else {
        return Ok(None);
    };
    if i + 1 >= args.len() {
        return Err(input(format!("{name} needs a value")));
    }
    let value = args.remove(i + 1);
    args.remove(i);
    Ok(Some(value))
}

fn numbering_option(args: &mut Vec<String>) -> Result<Numbering, Failure> {
    match take_option(args, "--numbering")? {
        Some(n) => n.parse::<Numbering>().map_err(|e| input(e.to_string())),
        None => Ok(Numbering::Arachne),
    }
}

fn variant_arg<'a>(variants: &'a Variants, id: &str) -> Result<&'a Arc<Variant>, Failure> {
    variants.get(id).ok_or_else(|| {
        input(format!(
            "unknown variant `{id}` (see `arachne-cli variants`)"
        ))
    })
}

fn expect_args(args: &[String], n: usize, usage: &str) -> Result<(), Failure> {
    if let Some(extra) = args.iter().find(|a| a.starts_with("--")) {
        return Err(input(format!("unknown option `{extra}`\nusage: {usage}")));
    }
    if args.len() != n {
        return Err(input(format!("usage: {usage}")));
    }
    Ok(())
}

/// Default solver budget for `solve` and `bench`: 10 seconds.
const DEFAULT_BUDGET_MS: u64 = 10_000;

/// `--budget-ms` and `--budget-nodes`. With only a node limit there is no time limit, so the
/// answer does not depend on the machine's speed; with neither, the default time applies.
fn budget_option(args: &mut Vec<String>) -> Result<Budget, Failure> {
    let ms = take_option(args, "--budget-ms")?
        .map(|v| {
            v.parse::<u64>().map_err(|_| {
                input(format!(
                    "--budget-ms must be a whole number of milliseconds, not `{v}`"
                ))
            })
        })
        .transpose()?;
    let nodes = take_option(args, "--budget-nodes")?
        .map(|v| {
            v.parse::<u64>().map_err(|_| {
                input(format!(
                    "--budget-nodes must be a whole number of positions, not `{v}`"
                ))
            })
        })
        .transpose()?;
    Ok(match (ms, nodes) {
        (ms, None) => Budget::time(Duration::from_millis(ms.unwrap_or(DEFAULT_BUDGET_MS))),
        (None, Some(n)) => Budget::nodes(n),
        (Some(ms), Some(n)) => Budget {
            nodes: Some(n),
            ..Budget::time(Duration::from_millis(ms))
        },
    })
}

/// Replays a solution through the rules: a solution that does not win is a solver bug.
fn check_solution(pos: &Position, moves: &[Move]) -> Result<(), Failure> {
    let mut game = Game::from_position(pos.clone(), GameOptions::for_variant(pos.variant()));
    for (i, &m) in moves.iter().enumerate() {
        game.apply(m).map_err(|e| {
            Failure::Internal(format!("solver move {} (`{m}`) is illegal: {e}", i + 1))
        })?;
    }
    if game.is_won() {
        Ok(())
    } else {
        Err(Failure::Internal("the solver's line does not win".into()))
    }
}

fn bench(mut args: Vec<String>, variants: &Variants) -> Outcome {
    let usage = "arachne-cli bench VARIANT --seeds A..B [--numbering arachne|kpat] [--budget-ms N] [--budget-nodes N]";
    let budget = budget_option(&mut args)?;
    let numbering = numbering_option(&mut args)?;
    let seeds =
        take_option(&mut args, "--seeds")?.ok_or_else(|| input(format!("usage: {usage}")))?;
    expect_args(&args, 1, usage)?;
    let variant = variant_arg(variants, &args[0])?;
    let (a, b) = seeds
        .split_once("..")
        .and_then(|(a, b)| Some((a.parse::<u64>().ok()?, b.parse::<u64>().ok()?)))
        .filter(|(a, b)| a <= b)
        .ok_or_else(|| {
            input(format!(
                "--seeds must be A..B with A <= B (both included), not `{seeds}`"
            ))
        })?;
    // Bad input says so before any line is printed: every deal of the range is made first
    // (a KPatience range can run past its 32-bit numbers half way).
    for seed in a..=b {
        deal(variant, seed, numbering, variant.discard).map_err(|e| input(e.to_string()))?;
    }
    let mut out = std::io::stdout().lock();
    let (mut solved, mut unwinnable, mut unknown) = (0u64, 0u64, 0u64);
    let mut times: Vec<f64> = Vec::new();
    let mut total_nodes = 0u64;
    let mut total_secs = 0f64;
    for seed in a..=b {
        let pos =
            deal(variant, seed, numbering, variant.discard).map_err(|e| input(e.to_string()))?;
        let report = solve(&pos, budget, None);
        let ms = report.elapsed.as_secs_f64() * 1000.0;
        let result = match &report.verdict {
            Verdict::Solved(moves) => {
                check_solution(&pos, moves)?;
                solved += 1;
                "solved"
            }
            Verdict::Unwinnable => {
                unwinnable += 1;
                "unwinnable"
            }
            Verdict::Unknown => {
                unknown += 1;
                "unknown"
            }
        };
        times.push(ms);
        total_nodes += report.nodes;
        total_secs += report.elapsed.as_secs_f64();
        // Each deal's line goes out as soon as it is known, so long benches show progress.
        let _ = writeln!(out, "{seed} {result} {ms:.0} {}", report.nodes);
        let _ = out.flush();
    }
    times.sort_by(f64::total_cmp);
    let pick = |q: f64| times[((times.len() as f64 * q).ceil() as usize).clamp(1, times.len()) - 1];
    let y = times.len() as u64;
    Ok(format!(
        "solved {solved}/{y} ({:.1}%) unwinnable {unwinnable} unknown {unknown} median {:.0} ms p95 {:.0} ms nodes/s {:.0}\n",
        100.0 * solved as f64 / y as f64,
        pick(0.5),
        pick(0.95),
        total_nodes as f64 / total_secs.max(1e-9),
    ))
}

fn run(mut args: Vec<String>) -> Outcome {
    let mut variants = Variants::default();
    while let Some(path) = take_next(&mut args, "--variant-file")? {
        variants
            .load_file(Path::new(&path))
            .map_err(|e| input(e.to_string()))?;
    }
    if args.is_empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help" {
        return if args.is_empty() {
            Err(input(USAGE))
        } else {
            Ok(format!("{USAGE}\n"))
        };
    }
    let command = args.remove(0);
    match command.as_str() {
        "variants" => {
            expect_args(&args, 0, "arachne-cli variants")?;
            Ok(variants
                .iter()
                .map(|v| format!("{}\t{}\n", v.id, v.name))
                .collect())
        }
        "deal" => {
            let numbering = numbering_option(&mut args)?;
            let discard = take_option(&mut args, "--discard")?;
            let usage =
                "arachne-cli deal VARIANT SEED [--numbering arachne|kpat] [--discard auto|manual]";
            expect_args(&args, 2, usage)?;
            let variant = variant_arg(&variants, &args[0])?;
            let seed: u64 = args[1].parse().map_err(|_| {
                input(format!(
                    "seed must be a whole number from 0 to {}, not `{}`",
                    u64::MAX,
                    args[1]
                ))
            })?;
            let discard = match discard {
                Some(d) => DiscardMode::from_keyword(&d).ok_or_else(|| {
                    input(format!("--discard must be `auto` or `manual`, not `{d}`"))
                })?,
                None => variant.discard,
            };
            let pos = deal(variant, seed, numbering, discard).map_err(|e| input(e.to_string()))?;
            Ok(pos.to_string())
        }
        "moves" => {
            expect_args(&args, 1, "arachne-cli moves FILE")?;
            let pos = read_position(&args[0], &variants)?;
            Ok(pos.legal_moves().iter().map(|m| format!("{m}\n")).collect())
        }
        "apply" => {
            if args.is_empty() {
                return Err(input("usage: arachne-cli apply FILE MOVE..."));
            }
            let pos = read_position(&args[0], &variants)?;
            let options = GameOptions::for_variant(pos.variant());
            let mut game = Game::from_position(pos, options);
            let texts: Vec<&str> = args[1..]
                .iter()
                .flat_map(|a| a.split_whitespace())
                .collect();
            for (i, text) in texts.iter().enumerate() {
                let mv: Move = text.parse().map_err(|e: arachne_engine::ParseMoveError| {
                    input(format!("move {} (`{text}`): {}", i + 1, e.reason))
                })?;
                game.apply(mv)
                    .map_err(|e| input(format!("move {} (`{text}`) is illegal: {e}", i + 1)))?;
            }
            Ok(game.position().to_string())
        }
        "replay" => {
            expect_args(&args, 1, "arachne-cli replay FILE")?;
            let text = read_file(&args[0])?;
            // `FILE:LINE:COLUMN: why` for a syntax error, `FILE: why` otherwise.
            let replay = Replay::from_ron(&text).map_err(|e| {
                let sep = if matches!(e, arachne_engine::ReplayError::Syntax { .. }) {
                    ":"
                } else {
                    ": "
                };
                input(format!("{}{sep}{e}", args[0]))
            })?;
            let game = replay
                .verify(&variants)
                .map_err(|e| input(format!("{}: {e}", args[0])))?;
            Ok(game.position().to_string())
        }
        "solve" => {
            let budget = budget_option(&mut args)?;
            expect_args(
                &args,
                1,
                "arachne-cli solve FILE [--budget-ms N] [--budget-nodes N]",
            )?;
            let pos = read_position(&args[0], &variants)?;
            let report = solve(&pos, budget, None);
            match report.verdict {
                Verdict::Solved(moves) => {
                    check_solution(&pos, &moves)?;
                    let line: Vec<String> = moves.iter().map(Move::to_string).collect();
                    Ok(format!("solved\n{}\n", line.join(" ")))
                }
                Verdict::Unwinnable => Ok("unwinnable\n".into()),
                Verdict::Unknown => Ok("unknown\n".into()),
            }
        }
        "bench" => bench(args, &variants),
        "phase10" => phase10::run(args),
        other => Err(input(format!("unknown command `{other}`\n{USAGE}"))),
    }
}

fn main() -> ExitCode {
    let args = match arachne_engine::arguments() {
        Ok(args) => args,
        Err(e) => {
            eprintln!("arachne-cli: {e}");
            return ExitCode::from(2);
        }
    };
    // A panic is a bug in Arachne, never the user's fault: report it as an internal error.
    std::panic::set_hook(Box::new(|info| {
        eprintln!("arachne-cli: internal error: {info}");
    }));
    let outcome = std::panic::catch_unwind(|| run(args))
        .unwrap_or_else(|_| Err(Failure::Internal("the command panicked".into())));
    match outcome {
        Ok(out) => {
            let mut stdout = std::io::stdout().lock();
            match stdout
                .write_all(out.as_bytes())
                .and_then(|()| stdout.flush())
            {
                Ok(()) => ExitCode::SUCCESS,
                // A closed pipe (`| head`) is the reader's choice, not an error of ours.
                Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("arachne-cli: writing output: {e}");
                    ExitCode::from(1)
                }
            }
        }
        Err(Failure::Input(msg)) => {
            eprintln!("arachne-cli: {msg}");
            ExitCode::from(2)
        }
        Err(Failure::Internal(msg)) => {
            eprintln!("arachne-cli: internal error: {msg}");
            ExitCode::from(1)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn budget(args: &[&str]) -> Budget {
        let mut args = args.iter().map(|a| a.to_string()).collect();
        budget_option(&mut args).unwrap_or_else(|_| panic!("{args:?}"))
    }

    #[test]
    fn a_node_budget_alone_has_no_time_limit() {
        assert_eq!(budget(&["--budget-nodes", "5"]), Budget::nodes(5));
        assert_eq!(
            budget(&[]),
            Budget::time(Duration::from_millis(DEFAULT_BUDGET_MS))
        );
        let both = budget(&["--budget-ms", "7", "--budget-nodes", "5"]);
        assert_eq!(
            (both.nodes, both.time),
            (Some(5), Some(Duration::from_millis(7)))
        );
    }
}
