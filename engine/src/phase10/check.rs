//! `check`: replays a `.p10` log through the rules and refuses the first line that breaks one,
//! with its number and why. Stock draws are taken from the log (the checker moves the named card
//! to the top of the stock), so no shuffle is needed; everything else is the engine's own rules.

use std::collections::VecDeque;
use std::sync::Arc;

use super::action::{Action, Event, LoggedAction, Seat};
use super::card::{Card, Counts};
use super::game::{Game, Stage};
use super::log::{Item, parse_line};
use super::variant::P10Variant;

/// The first wrong line of a log.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {why}")]
pub struct CheckError {
    /// 1-based line number (the last line + 1 when the log ends too early).
    pub line: usize,
    /// What is wrong.
    pub why: String,
}

/// What a correct log comes to: per seat, total points and phases laid.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckReport {
    /// The variant id.
    pub variant: String,
    /// `(points, phases laid)` per seat.
    pub seats: Vec<(u32, u32)>,
    /// The winners.
    pub winners: Vec<Seat>,
    /// Rounds played.
    pub rounds: u32,
}

impl CheckReport {
    /// `ok`, then `SEAT POINTS PHASES-LAID` per seat.
    pub fn text(&self) -> String {
        let mut out = String::from("ok\n");
        for (i, (p, l)) in self.seats.iter().enumerate() {
            out += &format!("{} {p} {l}\n", i + 1);
        }
        out
    }
}

struct RoundEnd {
    out: Option<Seat>,
    points: Vec<u32>,
    totals: Vec<u32>,
    next: Vec<String>,
}

/// Checks a whole log; `variants` resolves the `game:` id.
pub fn check(
    text: &str,
    variants: &dyn Fn(&str) -> Option<Arc<P10Variant>>,
) -> Result<CheckReport, CheckError> {
    // Lines are read as the replay reaches them, so that the first wrong line is the one
    // reported, whether it is unreadable or breaks a rule.
    let mut it = text
        .lines()
        .enumerate()
        .filter_map(|(i, line)| match parse_line(line) {
            Ok(Some(item)) => Some(Ok((i + 1, item))),
            Ok(None) => None,
            Err(e) => Some(Err(CheckError {
                line: i + 1,
                why: e.to_string(),
            })),
        });
    let end_line = text.lines().count() + 1;
    let next = |it: &mut dyn Iterator<Item = Result<(usize, Item), CheckError>>,
                want: &str|
     -> Result<(usize, Item), CheckError> {
        it.next().unwrap_or_else(|| {
            Err(CheckError {
                line: end_line,
                why: format!("the log ends early: expected {want}"),
            })
        })
    };
    let err = |line: usize, why: String| CheckError { line, why };
    let (l, item) = next(&mut it, "`game:`")?;
    let Item::Game(id) = item else {
        return Err(err(l, "the log begins with `game: VARIANT`".into()));
    };
    let variant = variants(&id).ok_or_else(|| err(l, format!("unknown variant `{id}`")))?;
    let (l, item) = next(&mut it, "`players:`")?;
    let Item::Players(players) = item else {
        return Err(err(l, "expected `players: N`".into()));
    };
    let (min, max) = (
        usize::from(variant.players.min),
        usize::from(variant.players.max),
    );
    if !(min..=max).contains(&players) {
        return Err(err(
            l,
            format!(
                "{} is for {min} to {max} players, not {players}",
                variant.id
            ),
        ));
    }
    let (l, item) = next(&mut it, "`seed:`")?;
    let Item::Seed(seed) = item else {
        return Err(err(
            l,
            "expected `seed: S` (the log states its seed)".into(),
        ));
    };
    let mut game: Option<Game> = None;
    // Seats whose skip is served next, and whether that skip was the up-card.
    let mut pending_skips: VecDeque<(Seat, bool)> = VecDeque::new();
    let mut ended: Option<RoundEnd> = None;
    let mut won: Option<Vec<Seat>> = None;
    let mut reshuffled = false;
    let mut winners_seen: Option<Vec<Seat>> = None;
    let collect = |events: &[Event],
                   pending: &mut VecDeque<(Seat, bool)>,
                   ended: &mut Option<RoundEnd>,
                   won: &mut Option<Vec<Seat>>| {
        for e in events {
            match e {
                Event::SkipServed { seat, up_card } => pending.push_back((*seat, *up_card)),
                Event::RoundEnded {
                    out,
                    points,
                    totals,
                    next,
                    ..
                } => {
                    *ended = Some(RoundEnd {
                        out: *out,
                        points: points.clone(),
                        totals: totals.clone(),
                        next: next.clone(),
                    })
                }
                Event::GameWon { winners } => *won = Some(winners.clone()),
                _ => {}
            }
        }
    };
    while let Some(read) = it.next() {
        let (l, item) = read?;
        if winners_seen.is_some() {
            return Err(err(l, "nothing may follow `winner:`".into()));
        }
        let g = match (&item, game.as_mut()) {
            (Item::Round(1), None) => {
                let g = Game::before_first_round(variant.clone(), players, seed)
                    .map_err(|e| err(l, e.to_string()))?;
                game.insert(g)
            }
            (_, None) => return Err(err(l, "expected `round: 1`".into())),
            (_, Some(g)) => g,
        };
        // A pending knock is passed by everybody unless this line is the knock.
        let is_knock = matches!(&item, Item::Turn(_, a) if matches!(a.first(), Some(LoggedAction::Actions(v)) if matches!(v.first(), Some(Action::Knock(_)))));
        if !is_knock && matches!(g.stage(), Stage::Knock { .. }) {
            while matches!(g.stage(), Stage::Knock { .. }) {
                let ev = g.apply(Action::Pass).map_err(|e| err(l, e.to_string()))?;
                collect(&ev, &mut pending_skips, &mut ended, &mut won);
            }
        }
        if reshuffled
            && !matches!(&item, Item::Turn(_, a) if matches!(a.first(), Some(LoggedAction::DrawStock(_))))
        {
            return Err(err(
                l,
                "a `reshuffle` line comes just before a turn that draws from the stock".into(),
            ));
        }
        match item {
            Item::Round(k) => {
                if ended.is_some() || g.stage() != Stage::RoundOver {
                    return Err(err(l, "the round is not over".into()));
                }
                if k != g.round() + 1 {
                    return Err(err(l, format!("expected `round: {}`", g.round() + 1)));
                }
                let (l2, item) = next(&mut it, "`dealer:`")?;
                let dealer = g.dealer_of(k);
                if item != Item::Dealer(dealer) {
                    return Err(err(l2, format!("expected `dealer: {}`", dealer + 1)));
                }
                let mut hands = Vec::with_capacity(players);
                let per = usize::from(variant.hand_size);
                let mut deck = Counts::of(&Card::deck());
                for s in 0..players {
                    let (l3, item) = next(&mut it, "a `hand` line")?;
                    let cards = match item {
                        Item::Hand(h, cards) if h == s => cards,
                        _ => return Err(err(l3, format!("expected `hand {}: ...`", s + 1))),
                    };
                    // Each hand is checked on its own line (the deal as a whole at `up:`).
                    if cards.len() != per {
                        return Err(err(
                            l3,
                            format!("hand {} has {} cards, not {per}", s + 1, cards.len()),
                        ));
                    }
                    if let Some(c) = cards.iter().find(|&&c| !deck.remove(c)) {
                        return Err(err(
                            l3,
                            format!("the deck holds only {} of {c}", c.copies()),
                        ));
                    }
                    hands.push(cards);
                }
                let (l4, item) = next(&mut it, "`up:`")?;
                let Item::Up(up) = item else {
                    return Err(err(l4, "expected `up: CARD`".into()));
                };
                let ev = g
                    .start_round_with(hands, up)
                    .map_err(|e| err(l4, e.to_string()))?;
                collect(&ev, &mut pending_skips, &mut ended, &mut won);
            }
            Item::Skipped(s) => match pending_skips.pop_front() {
                Some((p, _)) if p == s => {}
                Some((p, _)) => {
                    return Err(err(l, format!("seat {} is skipped first", p + 1)));
                }
                None => {
                    return Err(err(
                        l,
                        format!("seat {} has no skip in front of it now", s + 1),
                    ));
                }
            },
            Item::Reshuffle => {
                if let Some(&(p, _)) = pending_skips.front() {
                    return Err(err(l, format!("expected `{}: skipped`", p + 1)));
                }
                let ev = g.reshuffle().map_err(|e| err(l, e.to_string()))?;
                collect(&[ev], &mut pending_skips, &mut ended, &mut won);
                reshuffled = true;
            }
            Item::Turn(s, actions) => {
                reshuffled = false;
                if let Some(&(p, up_card)) = pending_skips.front() {
                    let why = if up_card {
                        "the up-card was a skip"
                    } else {
                        "a skip lies in front of it"
                    };
                    return Err(err(l, format!("expected `{}: skipped` ({why})", p + 1)));
                }
                if ended.is_some() || g.stage() == Stage::RoundOver {
                    // (Once its `out:` to `next:` lines are read, the next round's comes.)
                    let expected = if ended.is_some() {
                        "`out:`"
                    } else {
                        "`round:`"
                    };
                    return Err(err(l, format!("{}: expected {expected}", g.round_over())));
                }
                if g.is_over() {
                    return Err(err(l, "the game is over".into()));
                }
                if let Some(LoggedAction::Actions(a)) = actions.first()
                    && let Some(Action::Knock(_)) = a.first()
                {
                    if g.skips().get(s) == Some(&true) {
                        return Err(err(
                            l,
                            format!(
                                "seat {} may not knock: a skip lies in front of it (it loses its next turn)",
                                s + 1
                            ),
                        ));
                    }
                    loop {
                        match g.stage() {
                            Stage::Knock { asking, .. } if asking == s => break,
                            Stage::Knock { .. } => {
                                g.apply(Action::Pass).map_err(|e| err(l, e.to_string()))?;
                            }
                            _ => {
                                return Err(err(l, format!("seat {} may not knock now", s + 1)));
                            }
                        }
                    }
                }
                if g.to_move() != Some(s) {
                    let who = g
                        .to_move()
                        .map_or("nobody".into(), |t| format!("seat {}", t + 1));
                    return Err(err(l, format!("it is {who}'s turn, not seat {}'s", s + 1)));
                }
                // A discard or a skip ends the turn, even where the same seat moves next
                // (the seat after it skipped).
                let mut turn_over = false;
                for logged in actions {
                    let list = match logged {
                        LoggedAction::DrawStock(None) => {
                            return Err(err(
                                l,
                                "the log names every card drawn: `draw stock CARD`".into(),
                            ));
                        }
                        LoggedAction::DrawStock(Some(card)) => {
                            if g.stage() == Stage::Draw {
                                if g.stock().is_empty() {
                                    return Err(err(
                                        l,
                                        "the stock is empty: a `reshuffle` line comes first".into(),
                                    ));
                                }
                                g.force_stock_top(card).map_err(|e| err(l, e.to_string()))?;
                            }
                            vec![Action::DrawStock]
                        }
                        LoggedAction::Actions(list) => list,
                    };
                    for a in list {
                        if ended.is_some() {
                            return Err(err(l, format!("`{a}`: the round is over already")));
                        }
                        if turn_over || g.to_move() != Some(s) {
                            return Err(err(l, format!("`{a}`: the turn is over already")));
                        }
                        turn_over = matches!(a, Action::Discard(_) | Action::Skip(_));
                        let ev = g.apply(a).map_err(|e| err(l, e.to_string()))?;
                        collect(&ev, &mut pending_skips, &mut ended, &mut won);
                    }
                }
                if ended.is_none() && g.stage() == Stage::Play && g.turn() == s {
                    return Err(err(l, "the turn does not end: it ends with `discard CARD` or `skip SEAT` (or when the hand is empty)".into()));
                }
            }
            Item::Out(out) => {
                let Some(end) = ended.take() else {
                    return Err(err(l, "the round is not over".into()));
                };
                if let Some(&(p, _)) = pending_skips.front() {
                    return Err(err(l, format!("expected `{}: skipped`", p + 1)));
                }
                let show = |o: Option<Seat>| o.map_or("none".into(), |s| (s + 1).to_string());
                if out != end.out {
                    return Err(err(l, format!("expected `out: {}`", show(end.out))));
                }
                let (l2, item) = next(&mut it, "`score:`")?;
                let want: Vec<(Seat, u32)> = end.points.iter().copied().enumerate().collect();
                if item != Item::Score(want.clone()) {
                    let text: Vec<String> = want
                        .iter()
                        .map(|(s, p)| format!("{} +{p}", s + 1))
                        .collect();
                    return Err(err(l2, format!("expected `score: {}`", text.join(", "))));
                }
                let (l3, item) = next(&mut it, "`total:`")?;
                let want: Vec<(Seat, u32)> = end.totals.iter().copied().enumerate().collect();
                if item != Item::Total(want.clone()) {
                    let text: Vec<String> =
                        want.iter().map(|(s, p)| format!("{} {p}", s + 1)).collect();
                    return Err(err(l3, format!("expected `total: {}`", text.join(", "))));
                }
                let (l4, item) = next(&mut it, "`next:`")?;
                let want: Vec<(Seat, String)> = end.next.iter().cloned().enumerate().collect();
                if item != Item::Next(want.clone()) {
                    let text: Vec<String> =
                        want.iter().map(|(s, p)| format!("{} {p}", s + 1)).collect();
                    return Err(err(l4, format!("expected `next: {}`", text.join(", "))));
                }
                if let Some(w) = &won {
                    let (l5, item) = next(&mut it, "`winner:`")?;
                    let mut got = match item {
                        Item::Winner(got) => got,
                        _ => return Err(err(l5, "the game is over: expected `winner:`".into())),
                    };
                    got.sort_unstable();
                    if &got != w {
                        let text: Vec<String> = w.iter().map(|s| (s + 1).to_string()).collect();
                        return Err(err(l5, format!("expected `winner: {}`", text.join(" "))));
                    }
                    winners_seen = Some(got);
                }
            }
            Item::Winner(_) => return Err(err(l, "the game is not over".into())),
            other => {
                return Err(err(
                    l,
                    format!("unexpected line here ({})", item_name(&other)),
                ));
            }
        }
    }
    let Some(g) = game else {
        return Err(err(
            end_line,
            "the log ends early: expected `round: 1`".into(),
        ));
    };
    let Some(winners) = winners_seen else {
        return Err(err(
            end_line,
            "the log ends early: the game is not over".into(),
        ));
    };
    Ok(CheckReport {
        variant: variant.id.clone(),
        seats: g
            .standings()
            .iter()
            .map(|s| (s.points, s.phases_laid))
            .collect(),
        winners,
        rounds: g.round(),
    })
}

fn item_name(item: &Item) -> &'static str {
    match item {
        Item::Game(_) => "`game:`",
        Item::Players(_) => "`players:`",
        Item::Seed(_) => "`seed:`",
        Item::Round(_) => "`round:`",
        Item::Dealer(_) => "`dealer:`",
        Item::Hand(..) => "a hand",
        Item::Up(_) => "`up:`",
        Item::Turn(..) => "a turn",
        Item::Skipped(_) => "`skipped`",
        Item::Reshuffle => "`reshuffle`",
        Item::Out(_) => "`out:`",
        Item::Score(_) => "`score:`",
        Item::Total(_) => "`total:`",
        Item::Next(_) => "`next:`",
        Item::Winner(_) => "`winner:`",
    }
}

/// Resolves built-in variant ids and their combinations (`BASE+OPTION`).
pub fn builtin_variant(id: &str) -> Option<Arc<P10Variant>> {
    super::variant::resolve(id)
}
