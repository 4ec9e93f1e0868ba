//! A computer seat's decision asked and answered as text, for players that run somewhere else:
//! the browser build's Web Worker (`web/solver`), where a look-ahead decision would otherwise
//! hold up the page for longer than a frame.
//!
//! The request names the seat, its level and seed, and a `table` number that changes whenever
//! the asking side starts its players afresh, then the game's log so far ([`super::log`]) and
//! the passes since the last decision the log shows (a log does not write them). The answering side
//! keeps one player per seat for as long as the table number stays the same, rebuilds the game
//! from the log, and lets that seat's player decide from its own [`super::SeatView`], exactly
//! as the asking side's own player would have: the same player, seeded alike, asked the same
//! views in the same order, so the decisions are the same.
//!
//! ```text
//! p10-decide
//! table: 3
//! seat: 2
//! level: michaela
//! seed: 1234567
//! passes: 0
//! game: pro-spider-10      # the log so far, to its end
//! ...
//! ```
//! The answer is `action: ACTION` in the log's notation, or `error: ...`.

use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::fmt::Write as _;

use super::action::{Action, Seat};
use super::ai::{self, Player};
use super::game::Stage;
use super::resume::resume;
use super::variant::resolve;

/// The first line of a decision request.
pub const HEADER: &str = "p10-decide";

/// What a request asks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ask {
    /// The asking side's players' generation: a new number starts every player afresh.
    pub table: u64,
    /// The seat to decide.
    pub seat: Seat,
    /// Its level (`ai::LEVELS`).
    pub level: String,
    /// Its player's seed.
    pub seed: u64,
    /// Passes since the last decision the log shows (a log does not write them).
    pub passes: usize,
}

/// The request text: `ask` and the log so far.
pub fn request(ask: &Ask, log: &str) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{HEADER}");
    let _ = writeln!(out, "table: {}", ask.table);
    let _ = writeln!(out, "seat: {}", ask.seat);
    let _ = writeln!(out, "level: {}", ask.level);
    let _ = writeln!(out, "seed: {}", ask.seed);
    let _ = writeln!(out, "passes: {}", ask.passes);
    out.push_str(log);
    out
}

/// Reads a request into what it asks and the log.
pub fn read_request(text: &str) -> Result<(Ask, &str), String> {
    let mut rest = text;
    let mut line = |want: &str| -> Result<&str, String> {
        let (first, tail) = rest.split_once('\n').unwrap_or((rest, ""));
        rest = tail;
        match want {
            HEADER if first.trim() == HEADER => Ok(""),
            HEADER => Err(format!("expected `{HEADER}`, found `{first}`")),
            key => first
                .strip_prefix(key)
                .and_then(|v| v.strip_prefix(':'))
                .map(str::trim)
                .ok_or_else(|| format!("expected `{key}: ...`, found `{first}`")),
        }
    };
    line(HEADER)?;
    let number = |key: &str, v: &str| {
        v.parse::<u64>()
            .map_err(|_| format!("`{key}: {v}` is not a whole number"))
    };
    let table = number("table", line("table")?)?;
    let seat = number("seat", line("seat")?)? as Seat;
    let level = line("level")?.to_string();
    let seed = number("seed", line("seed")?)?;
    let passes = number("passes", line("passes")?)? as usize;
    Ok((
        Ask {
            table,
            seat,
            level,
            seed,
            passes,
        },
        rest,
    ))
}

/// The answering side: one player per seat of the table it was last asked about.
#[derive(Default)]
pub struct Players {
    table: Option<u64>,
    players: HashMap<Seat, Box<dyn Player + Send>>,
}

impl Players {
    /// Answers a request: the decision of its seat's player (`action: ...`), or `error: ...`.
    pub fn answer(&mut self, text: &str) -> String {
        match self.decide(text) {
            Ok(action) => format!("action: {action}\n"),
            Err(e) => format!("error: {e}\n"),
        }
    }

    fn decide(&mut self, text: &str) -> Result<Action, String> {
        let (ask, log) = read_request(text)?;
        let resumed = resume(log, &resolve).map_err(|e| format!("the log's {e}"))?;
        let mut game = resumed.game;
        // The passes the log does not show (those before a seat skipped are replayed already).
        for _ in 0..ask.passes {
            if !matches!(game.stage(), Stage::Knock { .. }) {
                break;
            }
            game.apply(Action::Pass).map_err(|e| e.to_string())?;
        }
        if game.to_move() != Some(ask.seat) {
            return Err(format!("it is not seat {}'s decision", ask.seat + 1));
        }
        if self.table != Some(ask.table) {
            self.table = Some(ask.table);
            self.players.clear();
        }
        let player = match self.players.entry(ask.seat) {
            Entry::Occupied(e) => e.into_mut(),
            Entry::Vacant(e) => e.insert(
                ai::player(&ask.level, ask.seed)
                    .ok_or_else(|| format!("no level `{}`", ask.level))?,
            ),
        };
        Ok(player.decide(&game.view(ask.seat)))
    }
}

/// The action an answer gives, as the text of one of `choices` (the seat's legal choices).
pub fn read_answer(text: &str, choices: &[Action]) -> Result<Action, String> {
    let line = text.lines().next().unwrap_or_default();
    if let Some(e) = line.strip_prefix("error: ") {
        return Err(e.to_string());
    }
    let action = line
        .strip_prefix("action: ")
        .ok_or_else(|| format!("not an answer: `{line}`"))?;
    choices
        .iter()
        .find(|c| c.to_string() == action)
        .cloned()
        .ok_or_else(|| format!("`{action}` is not a legal choice"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::phase10::game::Game;
    use crate::phase10::log::LogWriter;
    use crate::phase10::play::player_seed;

    /// A whole game in which every computer decision goes over the wire and comes back: the
    /// same decisions as the players deciding at home, and the same log at the end.
    #[test]
    fn decisions_over_the_wire_are_the_home_players_decisions() {
        // One answering side for both games: the second table's number starts its players
        // afresh.
        let mut away = Players::default();
        for (table, id, players, levels) in [
            (1, "pro-spider-10", 3, ["michaela", "petra", "random"]),
            (
                2,
                "pro-spider-10-knocking",
                3,
                ["random", "michaela", "petra"],
            ),
        ] {
            let variant = resolve(id).unwrap();
            let seed = 77;
            let (mut game, dealt) = Game::new(variant, players, seed).unwrap();
            let mut log = LogWriter::new(id, players, seed);
            log.record(&dealt);
            let mut home: Vec<_> = (0..players)
                .map(|s| ai::player(levels[s], player_seed(seed, s)).unwrap())
                .collect();
            let mut passes = 0;
            let mut decisions = 0;
            // The first rounds (a whole game of michaela takes long in a debug build).
            while game.round() <= 2 && !game.is_over() && decisions < 400 {
                let Some(seat) = game.to_move() else {
                    let events = game.next_round().unwrap();
                    log.record(&events);
                    continue;
                };
                let view = game.view(seat);
                let want = home[seat].decide(&view);
                let ask = Ask {
                    table,
                    seat,
                    level: levels[seat].to_string(),
                    seed: player_seed(seed, seat),
                    passes,
                };
                let text = away.answer(&request(&ask, &log.text_so_far()));
                let got = read_answer(&text, &view.choices)
                    .unwrap_or_else(|e| panic!("{e}\n{}", log.text_so_far()));
                assert_eq!(got, want, "{id}, decision {decisions}");
                // As the table counts them: the passes since the last decision the log shows.
                passes = if got == Action::Pass { passes + 1 } else { 0 };
                let events = game.apply(got).unwrap();
                log.record(&events);
                decisions += 1;
            }
            assert!(decisions > 50, "{id}: only {decisions} decisions");
        }
    }

    #[test]
    fn bad_requests_are_errors_not_panics() {
        let mut players = Players::default();
        let (_, dealt) = Game::new(resolve("pro-spider-10").unwrap(), 2, 5).unwrap();
        let mut log = LogWriter::new("pro-spider-10", 2, 5);
        log.record(&dealt);
        let log = log.text_so_far();
        let first = Game::new(resolve("pro-spider-10").unwrap(), 2, 5)
            .unwrap()
            .0
            .to_move()
            .unwrap();
        let ask = |seat: Seat, level: &str| {
            request(
                &Ask {
                    table: 1,
                    seat,
                    level: level.into(),
                    seed: 1,
                    passes: 0,
                },
                &log,
            )
        };
        let (nobody, not_yours) = (ask(first, "nobody"), ask(1 - first, "petra"));
        let not_yours_why = format!("it is not seat {}'s decision", 2 - first);
        for (text, why) in [
            (nobody.as_str(), "no level `nobody`"),
            (not_yours.as_str(), not_yours_why.as_str()),
            ("", "expected `p10-decide`"),
            ("p10-decide\ntable: x\n", "`table: x` is not a whole number"),
            (
                "p10-decide\ntable: 1\nseat: 0\nlevel: petra\nseed: 1\npasses: 0\ngame: nope\n",
                "unknown variant `nope`",
            ),
        ] {
            let answer = players.answer(text);
            assert!(
                answer.starts_with("error: ") && answer.contains(why),
                "{text:?}: {answer}"
            );
        }
        assert!(read_answer("action: draw stock\n", &[]).is_err());
        assert_eq!(
            read_answer("action: draw stock\n", &[Action::DrawStock]),
            Ok(Action::DrawStock)
        );
    }
}
