//! A search asked and answered as text, for a solver that runs somewhere else: the browser
//! build's Web Worker (`web/solver`), which cannot share memory with the page. The request is
//! the budget and the position in the notation; the answer is `arachne-cli solve`'s output
//! with the work it took. Both sides run [`crate::solver::solve`] itself, so an answer is the
//! one the desktop gives for the same position and budget.
//!
//! ```text
//! budget-ms: 1500          # optional: wall-clock limit
//! budget-nodes: 200000     # optional: positions limit
//! memory-mib: 256
//! variant: spider-2suit    # then the position text, as `Position`'s Display writes it
//! ...
//! ```
//! The answer: `solved` and the move list on the next line, `unwinnable` or `unknown`, then
//! `nodes: N` and `ms: N`; or `error: ...` when the request could not be read.

use std::fmt::Write as _;
use std::time::Duration;

use crate::moves::parse_move_list;
use crate::position::Position;
use crate::solver::{Budget, Report, Verdict, solve};
use crate::variant::Variants;

/// The request text for a search of `position` within `budget`.
pub fn request(position: &Position, budget: Budget) -> String {
    let mut out = String::new();
    if let Some(t) = budget.time {
        let _ = writeln!(out, "budget-ms: {}", t.as_millis());
    }
    if let Some(n) = budget.nodes {
        let _ = writeln!(out, "budget-nodes: {n}");
    }
    let _ = writeln!(out, "memory-mib: {}", budget.memory_mib);
    let _ = write!(out, "{position}");
    out
}

/// Reads a request: the budget, and the position (its variant one of `variants`).
pub fn read_request(text: &str, variants: &Variants) -> Result<(Position, Budget), String> {
    let mut budget = Budget {
        nodes: None,
        time: None,
        memory_mib: crate::solver::DEFAULT_MEMORY_MIB,
    };
    let mut position = String::new();
    for (i, line) in text.lines().enumerate() {
        let number = |v: &str| {
            v.trim()
                .parse::<u64>()
                .map_err(|_| format!("line {}: `{}` is not a whole number", i + 1, v.trim()))
        };
        match line.split_once(':') {
            Some(("budget-ms", v)) => budget.time = Some(Duration::from_millis(number(v)?)),
            Some(("budget-nodes", v)) => budget.nodes = Some(number(v)?),
            Some(("memory-mib", v)) => {
                budget.memory_mib = usize::try_from(number(v)?).map_err(|e| e.to_string())?
            }
            // The position's own lines keep their numbers for its errors.
            _ => position.push_str(line),
        }
        position.push('\n');
    }
    let position = Position::parse(&position, variants).map_err(|e| e.to_string())?;
    Ok((position, budget))
}

/// Runs the search a request asks for and writes its answer.
pub fn answer(text: &str, variants: &Variants) -> String {
    match read_request(text, variants) {
        Ok((position, budget)) => write_answer(&solve(&position, budget, None)),
        Err(e) => format!("error: {e}\n"),
    }
}

/// The answer text for a search's report.
pub fn write_answer(report: &Report) -> String {
    let mut out = match &report.verdict {
        Verdict::Solved(line) => {
            let moves: Vec<String> = line.iter().map(ToString::to_string).collect();
            format!("solved\n{}\n", moves.join(" "))
        }
        Verdict::Unwinnable => "unwinnable\n".to_string(),
        Verdict::Unknown => "unknown\n".to_string(),
    };
    let _ = writeln!(out, "nodes: {}", report.nodes);
    let _ = writeln!(out, "ms: {}", report.elapsed.as_millis());
    out
}

/// Reads an answer back into the report it was written from.
pub fn read_answer(text: &str) -> Result<Report, String> {
    let mut lines = text.lines();
    let first = lines.next().unwrap_or_default();
    if let Some(e) = first.strip_prefix("error: ") {
        return Err(e.to_string());
    }
    let verdict = match first {
        "solved" => {
            let line = lines.next().ok_or("`solved` without its moves")?;
            Verdict::Solved(parse_move_list(line).map_err(|e| e.to_string())?)
        }
        "unwinnable" => Verdict::Unwinnable,
        "unknown" => Verdict::Unknown,
        other => return Err(format!("not an answer: `{other}`")),
    };
    let (mut nodes, mut ms) = (None, None);
    for line in lines {
        match line.split_once(": ") {
            Some(("nodes", n)) => nodes = n.parse::<u64>().ok(),
            Some(("ms", n)) => ms = n.parse::<u64>().ok(),
            _ => return Err(format!("unexpected line `{line}`")),
        }
    }
    Ok(Report {
        verdict,
        nodes: nodes.ok_or("no `nodes:` line")?,
        elapsed: Duration::from_millis(ms.ok_or("no `ms:` line")?),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::deal::{Numbering, deal};
    use crate::game::{Game, GameOptions};
    use crate::variant::DiscardMode;

    fn game(id: &str, seed: u64, discard: Option<DiscardMode>) -> Game {
        let variants = Variants::default();
        let v = variants.get(id).unwrap().clone();
        let mut options = GameOptions::for_variant(&v);
        if let Some(d) = discard {
            options.discard = d;
        }
        let pos = deal(&v, seed, Numbering::Arachne, options.discard).unwrap();
        Game::from_position(pos, options)
    }

    /// The answer over the wire is the search's own, move for move and node for node, from a
    /// deal and from a position some moves in (a manual discard mode included).
    #[test]
    fn an_answer_over_the_wire_is_the_direct_search() {
        let variants = Variants::default();
        for (id, seed, discard, moves, nodes) in [
            ("spider-1suit", 3, None, 0, 50_000),
            ("spider-2suit", 7, Some(DiscardMode::Manual), 6, 30_000),
            ("spider-4suit", 11, None, 4, 20_000),
            ("spiderette", 5, None, 3, 40_000),
        ] {
            let mut g = game(id, seed, discard);
            for _ in 0..moves {
                let Some(mv) = crate::solver::best_move(g.position()) else {
                    break;
                };
                g.apply(mv).unwrap();
            }
            let budget = Budget::nodes(nodes);
            let direct = solve(g.position(), budget, None);
            let text = answer(&request(g.position(), budget), &variants);
            let remote = read_answer(&text).unwrap();
            assert_eq!(remote.verdict, direct.verdict, "{id} {seed}");
            assert_eq!(remote.nodes, direct.nodes, "{id} {seed}");
        }
    }

    #[test]
    fn a_request_carries_its_budget_and_position() {
        let variants = Variants::default();
        let g = game("spider-4suit", 1, Some(DiscardMode::Manual));
        let budget = Budget {
            nodes: Some(1234),
            time: Some(Duration::from_millis(1500)),
            memory_mib: 64,
        };
        let (pos, back) = read_request(&request(g.position(), budget), &variants).unwrap();
        assert_eq!(back, budget);
        assert_eq!(pos.to_string(), g.position().to_string());
    }

    #[test]
    fn bad_requests_and_answers_are_errors_not_panics() {
        let variants = Variants::default();
        let e = answer("budget-ms: soon\nvariant: spider-1suit\n", &variants);
        assert_eq!(e, "error: line 1: `soon` is not a whole number\n");
        let e = answer("budget-ms: 5\nvariant: nope\n", &variants);
        assert!(
            e.starts_with("error: line 2: unknown variant `nope`"),
            "{e}"
        );
        assert!(answer("", &variants).starts_with("error: "));
        for bad in [
            "",
            "solved\n",
            "solved\n1>2:x\nnodes: 1\nms: 1\n",
            "maybe\n",
            "unknown\nnodes: 1\n",
            "unknown\nnodes: 1\nms: 1\nextra\n",
        ] {
            assert!(read_answer(bad).is_err(), "{bad:?}");
        }
        assert_eq!(read_answer("error: broken\n"), Err("broken".to_string()));
        let r = read_answer("solved\n1>2:1 deal\nnodes: 9\nms: 4\n").unwrap();
        assert_eq!(r.nodes, 9);
        assert_eq!(
            r.verdict,
            Verdict::Solved(parse_move_list("1>2:1 deal").unwrap())
        );
    }
}
