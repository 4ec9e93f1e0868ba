//! Resuming a game from its `.p10` log so far (a saved game in progress). The deal is rebuilt
//! from the log's seed and every logged decision is played again through the rules, so the game
//! is exactly what it was: stock order, reshuffles, skips waiting, every seat's view. The log
//! written again from the replayed events must equal the saved one, line for line; otherwise
//! the first line that differs is named.
//!
//! A log does not write the passes of the knocking variant (nobody claimed the discard); they
//! are replayed where the next line shows them. Passes of an offer still open at the end of the
//! log are the caller's to replay.

use std::sync::Arc;

use super::action::{Action, Event, LoggedAction, Seat};
use super::game::{Game, GameError, Stage};
use super::log::{Item, LogWriter, parse_log};
use super::variant::P10Variant;

/// A game resumed from its log.
#[derive(Clone, Debug)]
pub struct Resumed {
    /// The game, where the log left it.
    pub game: Game,
    /// A log writer holding the same log, to go on writing.
    pub log: LogWriter,
    /// Every event of the replay, in order (to rebuild a score sheet or a view).
    pub events: Vec<Event>,
    /// Every decision and deal after the first deal, in order, passes included: applied to
    /// `Game::new` of the log's variant, players and seed they give the game again, step by step
    /// (the replay viewer's steps).
    pub steps: Vec<Step>,
}

/// One step of a game after its first deal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// A seat's decision.
    Act(Seat, Action),
    /// The next round is dealt.
    NextRound,
}

impl Step {
    /// Applies the step to `game`.
    pub fn apply(&self, game: &mut Game) -> Result<Vec<Event>, GameError> {
        match self {
            Step::Act(_, action) => game.apply(action.clone()),
            Step::NextRound => game.next_round(),
        }
    }
}

/// Why a log could not be resumed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {why}")]
pub struct ResumeError {
    /// 1-based line of the saved text (its last line + 1 when something is missing at the end).
    pub line: usize,
    /// What is wrong.
    pub why: String,
}

/// The meaningful lines of a log: comments and blank lines dropped, each with its number.
fn content_lines(text: &str) -> Vec<(usize, &str)> {
    text.lines()
        .enumerate()
        .filter_map(|(i, line)| {
            let line = line.split('#').next().unwrap_or("").trim();
            (!line.is_empty()).then_some((i + 1, line))
        })
        .collect()
}

/// Replays the log `text` (complete or not); `variants` resolves its `game:` id.
pub fn resume(
    text: &str,
    variants: &dyn Fn(&str) -> Option<Arc<P10Variant>>,
) -> Result<Resumed, ResumeError> {
    let items = parse_log(text).map_err(|(line, e)| ResumeError {
        line,
        why: e.to_string(),
    })?;
    let end = text.lines().count() + 1;
    let err = |line: usize, why: String| ResumeError { line, why };
    let mut it = items.into_iter();
    let mut header = |want: &str| {
        it.next()
            .ok_or_else(|| err(end, format!("the log ends early: expected {want}")))
    };
    let (l, Item::Game(id)) = header("`game:`")? else {
        return Err(err(1, "the log begins with `game: VARIANT`".into()));
    };
    let variant = variants(&id).ok_or_else(|| err(l, format!("unknown variant `{id}`")))?;
    let (l, Item::Players(players)) = header("`players:`")? else {
        return Err(err(l, "expected `players: N`".into()));
    };
    let (l, Item::Seed(seed)) = header("`seed:`")? else {
        return Err(err(l, "expected `seed: S`".into()));
    };
    let (mut game, dealt) =
        Game::new(variant.clone(), players, seed).map_err(|e| err(l, e.to_string()))?;
    let mut log = LogWriter::new(&id, players, seed);
    log.record(&dealt);
    let mut events = dealt;
    let mut steps = Vec::new();
    let replayed = replay(it, &mut game, &mut log, &mut events, &mut steps);
    // The first line the rules write differently is the one to name, even when a later line
    // could not be played at all (another seed deals other hands, then draws other cards).
    let written = log.text_so_far();
    let saved = content_lines(text);
    let again = content_lines(&written);
    let upto = replayed.as_ref().err().map_or(usize::MAX, |e| e.line);
    for (i, &(line, saved_line)) in saved.iter().enumerate() {
        if line >= upto {
            break;
        }
        match again.get(i) {
            Some(&(_, w)) if w == saved_line => {}
            Some(&(_, w)) => {
                return Err(err(
                    line,
                    format!("the rules give `{w}` here, the log says `{saved_line}`"),
                ));
            }
            None if replayed.is_ok() => {
                return Err(err(
                    line,
                    format!("the rules give nothing for `{saved_line}`"),
                ));
            }
            None => break,
        }
    }
    replayed?;
    if let Some(&(_, w)) = again.get(saved.len()) {
        return Err(err(
            end,
            format!("the log ends early: the rules go on with `{w}`"),
        ));
    }
    Ok(Resumed {
        game,
        log,
        events,
        steps,
    })
}

/// Plays the log's decisions again after its header.
fn replay(
    items: impl Iterator<Item = (usize, Item)>,
    game: &mut Game,
    log: &mut LogWriter,
    events: &mut Vec<Event>,
    steps: &mut Vec<Step>,
) -> Result<(), ResumeError> {
    let err = |line: usize, why: String| ResumeError { line, why };
    let mut first_round = true;
    for (l, item) in items {
        let mut play = |game: &mut Game, action: Action| -> Result<Vec<Event>, ResumeError> {
            let text = action.to_string();
            let seat = game.to_move().unwrap_or_default();
            let ev = game
                .apply(action.clone())
                .map_err(|e| err(l, format!("`{text}`: {e}")))?;
            steps.push(Step::Act(seat, action));
            log.record(&ev);
            events.extend(ev.iter().cloned());
            Ok(ev)
        };
        // Any line but a turn after a knock offer: everyone asked passed, which a log does
        // not write (the passes moved the game on to a skipped seat, or to the round's end
        // when the stock was out). A turn line sorts out its own offer below.
        if !matches!(item, Item::Turn(..)) {
            while let Stage::Knock { .. } = game.stage() {
                play(game, Action::Pass)?;
            }
        }
        match item {
            Item::Round(k) => {
                if std::mem::take(&mut first_round) && k == 1 {
                    continue;
                }
                if game.stage() != Stage::RoundOver {
                    return Err(err(l, "the round is not over".into()));
                }
                let ev = game.next_round().map_err(|e| err(l, e.to_string()))?;
                steps.push(Step::NextRound);
                log.record(&ev);
                events.extend(ev);
                if game.round() != k {
                    return Err(err(l, format!("expected `round: {}`", game.round())));
                }
            }
            Item::Turn(seat, actions) => {
                first_round = false;
                let knock = matches!(actions.first(),
                    Some(LoggedAction::Actions(a)) if matches!(a.first(), Some(Action::Knock(_))));
                // An offer nobody took: everyone asked before this line passed.
                while let Stage::Knock { asking, .. } = game.stage() {
                    if knock && asking == seat {
                        break;
                    }
                    play(game, Action::Pass)?;
                }
                if game.to_move() != Some(seat) {
                    let who = game
                        .to_move()
                        .map_or("nobody".into(), |t| format!("seat {}", t + 1));
                    return Err(err(
                        l,
                        format!("it is {who}'s turn, not seat {}'s", seat + 1),
                    ));
                }
                for logged in actions {
                    match logged {
                        LoggedAction::DrawStock(card) => {
                            let ev = play(game, Action::DrawStock)?;
                            let drawn = ev.iter().find_map(|e| match e {
                                Event::DrewStock { card, .. } => Some(*card),
                                _ => None,
                            });
                            if let (Some(want), Some(got)) = (card, drawn)
                                && want != got
                            {
                                return Err(err(
                                    l,
                                    format!("the deal gives {got} here, the log says {want}"),
                                ));
                            }
                        }
                        LoggedAction::Actions(list) => {
                            for a in list {
                                play(game, a)?;
                            }
                        }
                    }
                }
            }
            // Everything else follows from the decisions; the comparison checks it.
            _ => first_round = false,
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::phase10::ai;
    use crate::phase10::play::player_seed;
    use crate::phase10::variant::by_id;

    fn resolve(id: &str) -> Option<Arc<P10Variant>> {
        by_id(id).cloned()
    }

    /// Plays `decisions` decisions of a game between computer seats, returning the game and its
    /// log writer.
    fn played(variant: &str, players: usize, seed: u64, decisions: usize) -> (Game, LogWriter) {
        let variant = by_id(variant).unwrap().clone();
        let (mut game, ev) = Game::new(variant.clone(), players, seed).unwrap();
        let mut log = LogWriter::new(&variant.id, players, seed);
        log.record(&ev);
        let mut seats: Vec<_> = (0..players)
            .map(|s| ai::player("random", player_seed(seed, s)).unwrap())
            .collect();
        for _ in 0..decisions {
            if game.is_over() {
                break;
            }
            if game.stage() == Stage::RoundOver {
                log.record(&game.next_round().unwrap());
                continue;
            }
            let seat = game.to_move().unwrap();
            let action = seats[seat].decide(&game.view(seat));
            log.record(&game.apply(action).unwrap());
        }
        (game, log)
    }

    #[test]
    fn a_game_cut_anywhere_resumes_exactly_where_it_was() {
        for (variant, players, seed) in [
            ("pro-spider-10", 3, 5),
            ("pro-spider-10-knocking", 4, 9),
            ("pro-spider-10-any-order", 2, 11),
        ] {
            for cut in [0, 1, 2, 7, 40, 150, 600, 3000] {
                let (game, log) = played(variant, players, seed, cut);
                let text = log.text_so_far();
                let resumed = resume(&text, &resolve).unwrap_or_else(|e| {
                    panic!("{variant} cut at {cut}: {e}\n{text}");
                });
                // Passes of an open knock offer are not in the log: the caller replays them.
                let mut g = resumed.game.clone();
                if let (Stage::Knock { asking: a, .. }, Stage::Knock { asking: b, .. }) =
                    (game.stage(), g.stage())
                {
                    let mut asking = b;
                    while asking != a {
                        g.apply(Action::Pass).unwrap();
                        let Stage::Knock { asking: next, .. } = g.stage() else {
                            panic!("the offer ended early");
                        };
                        asking = next;
                    }
                }
                assert_eq!(g.stage(), game.stage(), "{variant} cut at {cut}");
                for seat in 0..players {
                    assert_eq!(g.view(seat), game.view(seat), "{variant} cut at {cut}");
                }
                assert_eq!(g.stock(), game.stock());
                assert_eq!(resumed.log.text_so_far(), text);
                // The steps give the game again.
                let (mut again, _) = Game::new(game.variant().clone(), players, seed).unwrap();
                for step in &resumed.steps {
                    step.apply(&mut again).unwrap();
                }
                assert_eq!(again.view(0), resumed.game.view(0));
            }
        }
    }

    #[test]
    fn a_log_that_does_not_replay_names_its_line() {
        let (_, log) = played("pro-spider-10", 3, 5, 12);
        let text = log.text_so_far();
        // Another seed deals other hands: the first hand line differs.
        let other = text.replacen("seed: 5", "seed: 6", 1);
        let e = resume(&other, &resolve).unwrap_err();
        assert_eq!(e.line, 6, "{e}");
        // A turn that is not legal names its line.
        let mut lines: Vec<&str> = text.lines().collect();
        let turn = lines.iter().position(|l| l.starts_with("1: ")).unwrap();
        lines[turn] = "1: discard r1";
        let e = resume(&lines.join("\n"), &resolve).unwrap_err();
        assert_eq!(e.line, turn + 1, "{e}");
        assert!(resume("game: nothing\n", &resolve).is_err());
        assert!(resume("", &resolve).is_err());
    }
}
