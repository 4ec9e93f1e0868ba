//! `arachne-cli`: the engine on the command line (see `shared/spec/notation.md` and the README).
//!
//! Exit status: 0 on success, 2 on bad input or an illegal move, 1 on an internal error.

use std::io::{Read, Write};
use std::path::Path;
use std::process::ExitCode;

use arachne_engine::{
    DiscardMode, Game, GameOptions, Move, Numbering, Position, Replay, Variants, deal,
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

fn read_file(path: &str) -> Result<String, Failure> {
    let mut text = String::new();
    let result = if path == "-" {
        std::io::stdin().read_to_string(&mut text).map(|_| ())
    } else {
        std::fs::read_to_string(path).map(|t| text = t)
    };
    result.map_err(|e| input(format!("{path}: {e}")))?;
    Ok(text)
}

fn read_position(path: &str, variants: &Variants) -> Result<Position, Failure> {
    let text = read_file(path)?;
    Position::parse(&text, variants).map_err(|e| input(format!("{path}: {e}")))
}

/// Takes `--name VALUE` out of `args`, if present.
fn take_option(args: &mut Vec<String>, name: &str) -> Result<Option<String>, Failure> {
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

fn expect_args(args: &[String], n: usize, usage: &str) -> Result<(), Failure> {
    if let Some(extra) = args.iter().find(|a| a.starts_with("--")) {
        return Err(input(format!("unknown option `{extra}`\nusage: {usage}")));
    }
    if args.len() != n {
        return Err(input(format!("usage: {usage}")));
    }
    Ok(())
}

fn run(mut args: Vec<String>) -> Outcome {
    let mut variants = Variants::default();
    while let Some(path) = take_option(&mut args, "--variant-file")? {
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
            let numbering = match take_option(&mut args, "--numbering")? {
                Some(n) => n.parse::<Numbering>().map_err(|e| input(e.to_string()))?,
                None => Numbering::Arachne,
            };
            let discard = take_option(&mut args, "--discard")?;
            let usage =
                "arachne-cli deal VARIANT SEED [--numbering arachne|kpat] [--discard auto|manual]";
            expect_args(&args, 2, usage)?;
            let variant = variants.get(&args[0]).ok_or_else(|| {
                input(format!(
                    "unknown variant `{}` (see `arachne-cli variants`)",
                    args[0]
                ))
            })?;
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
                    .map_err(|e| input(format!("move {} (`{mv}`) is illegal: {e}", i + 1)))?;
            }
            Ok(game.position().to_string())
        }
        "replay" => {
            expect_args(&args, 1, "arachne-cli replay FILE")?;
            let text = read_file(&args[0])?;
            let replay = Replay::from_ron(&text).map_err(|e| input(format!("{}:{e}", args[0])))?;
            let game = replay
                .verify(&variants)
                .map_err(|e| input(format!("{}: {e}", args[0])))?;
            Ok(game.position().to_string())
        }
        other => Err(input(format!("unknown command `{other}`\n{USAGE}"))),
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
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
