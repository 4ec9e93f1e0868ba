//! The `.p10` game log: a writer that turns the engine's events into log lines, and a parser
//! that turns text into numbered items for the checker. A log states every hand and every card
//! drawn, so it can be checked without the shuffle.

use super::action::{Event, LoggedAction, ParseActionError, Seat, parse_seat};
use super::card::{Card, ParseCardError, cards_text, parse_cards};

/// Writes a log from the events of a game, in order.
#[derive(Clone, Debug, Default)]
pub struct LogWriter {
    out: String,
    pending: Option<(Seat, Vec<String>)>,
    hands: Vec<Vec<Card>>,
    public: Vec<String>,
}

impl LogWriter {
    /// A log with its header.
    pub fn new(variant: &str, players: usize, seed: u64) -> LogWriter {
        LogWriter {
            out: format!("game: {variant}\nplayers: {players}\nseed: {seed}\n"),
            hands: vec![Vec::new(); players],
            ..LogWriter::default()
        }
    }

    fn flush(&mut self) {
        if let Some((seat, actions)) = self.pending.take() {
            let line = format!("{}: {}", seat + 1, actions.join(" ; "));
            let public: Vec<String> = actions
                .iter()
                .map(|a| {
                    if a.starts_with("draw stock") {
                        "draw stock".to_string()
                    } else {
                        a.clone()
                    }
                })
                .collect();
            self.public
                .push(format!("{}: {}", seat + 1, public.join(" ; ")));
            self.out += &line;
            self.out.push('\n');
        }
    }

    fn start_turn(&mut self, seat: Seat, action: String) {
        self.flush();
        self.pending = Some((seat, vec![action]));
    }

    fn push(&mut self, seat: Seat, action: String) {
        match &mut self.pending {
            Some((s, actions)) if *s == seat => actions.push(action),
            _ => self.start_turn(seat, action),
        }
    }

    fn line(&mut self, line: String) {
        self.flush();
        self.out += &line;
        self.out.push('\n');
    }

    /// Records events as they happen.
    pub fn record(&mut self, events: &[Event]) {
        for e in events {
            match e {
                Event::RoundStarted { round, dealer } => {
                    self.line(format!("round: {round}\ndealer: {}", dealer + 1));
                    self.hands.iter_mut().for_each(Vec::clear);
                }
                Event::Dealt { seat, card } => {
                    if let Some(h) = self.hands.get_mut(*seat) {
                        h.push(*card);
                    }
                }
                Event::UpCard(card) => {
                    let mut text = String::new();
                    for (i, h) in self.hands.iter_mut().enumerate() {
                        h.sort_unstable();
                        text += &format!("hand {}: {}\n", i + 1, cards_text(h));
                    }
                    text += &format!("up: {card}");
                    self.line(text);
                }
                Event::SkipServed { seat, .. } => {
                    self.line(format!("{}: skipped", seat + 1));
                    self.public.push(format!("{}: skipped", seat + 1));
                }
                Event::Reshuffled { .. } => {
                    self.line("reshuffle".into());
                    self.public.push("reshuffle".into());
                }
                Event::DrewStock { seat, card } => {
                    self.start_turn(*seat, format!("draw stock {card}"))
                }
                Event::DrewDiscard { seat, card } => {
                    self.start_turn(*seat, format!("draw discard {card}"))
                }
                Event::Knocked { seat, card } => self.start_turn(*seat, format!("knock {card}")),
                Event::Laid {
                    seat,
                    phase,
                    groups,
                } => {
                    let mut text = format!("lay {phase} ");
                    let _ = super::action::write_groups(&mut text, groups);
                    self.push(*seat, text);
                }
                Event::Hit {
                    seat,
                    target,
                    group,
                    card,
                } => {
                    let hit = format!("{}.{} {card}", target + 1, group + 1);
                    match &mut self.pending {
                        Some((s, actions))
                            if s == seat
                                && actions.last().is_some_and(|a| a.starts_with("hit ")) =>
                        {
                            if let Some(last) = actions.last_mut() {
                                *last += &format!(", {hit}");
                            }
                        }
                        _ => self.push(*seat, format!("hit {hit}")),
                    }
                }
                // A discard or a skip ends the turn: it is public at once, so the next seat's
                // block (or a knock's) already shows it.
                Event::Discarded { seat, card } => {
                    self.push(*seat, format!("discard {card}"));
                    self.flush();
                }
                Event::SkipPlaced { seat, target } => {
                    self.push(*seat, format!("skip {}", target + 1));
                    self.flush();
                }
                Event::RoundEnded {
                    out,
                    points,
                    totals,
                    next,
                    ..
                } => {
                    let out = out.map_or("none".to_string(), |s| (s + 1).to_string());
                    let list = |f: &dyn Fn(usize) -> String| {
                        (0..points.len()).map(f).collect::<Vec<_>>().join(", ")
                    };
                    let score = list(&|s| format!("{} +{}", s + 1, points[s]));
                    let total = list(&|s| format!("{} {}", s + 1, totals[s]));
                    let nxt = list(&|s| format!("{} {}", s + 1, next[s]));
                    self.line(format!(
                        "out: {out}\nscore: {score}\ntotal: {total}\nnext: {nxt}"
                    ));
                }
                Event::PhaseAdvanced { .. } => {}
                Event::GameWon { winners } => {
                    let w: Vec<String> = winners.iter().map(|s| (s + 1).to_string()).collect();
                    self.line(format!("winner: {}", w.join(" ")));
                }
            }
        }
    }

    /// The turns and other public lines so far, stock draws without their card (what every seat
    /// saw), for the external-player protocol's `seen` lines.
    pub fn public_lines(&self) -> &[String] {
        &self.public
    }

    /// The log text so far (a turn still in progress is not included).
    pub fn text(&self) -> &str {
        &self.out
    }

    /// The log text so far with the turn in progress as far as it went (what a saved game
    /// holds: a game resumed from it is where it was, mid-turn included).
    pub fn text_so_far(&self) -> String {
        self.clone().finish()
    }

    /// The finished log.
    pub fn finish(mut self) -> String {
        self.flush();
        self.out
    }
}

/// One line of a log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Item {
    /// `game: ID`
    Game(String),
    /// `players: N`
    Players(usize),
    /// `seed: S`
    Seed(u64),
    /// `round: K`
    Round(u32),
    /// `dealer: SEAT`
    Dealer(Seat),
    /// `hand SEAT: CARDS`
    Hand(Seat, Vec<Card>),
    /// `up: CARD`
    Up(Card),
    /// `SEAT: ACTION ; ...`
    Turn(Seat, Vec<LoggedAction>),
    /// `SEAT: skipped`
    Skipped(Seat),
    /// `reshuffle`
    Reshuffle,
    /// `out: SEAT` or `out: none`
    Out(Option<Seat>),
    /// `score: SEAT +P, ...`
    Score(Vec<(Seat, u32)>),
    /// `total: SEAT P, ...`
    Total(Vec<(Seat, u32)>),
    /// `next: SEAT PHASE, ...`
    Next(Vec<(Seat, String)>),
    /// `winner: SEAT ...`
    Winner(Vec<Seat>),
}

/// A line that could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LogSyntaxError {
    /// Not a log line at all.
    #[error("`{0}` is not a log line")]
    Unknown(String),
    /// A bad value.
    #[error("{0}")]
    Value(String),
    /// A bad card.
    #[error(transparent)]
    Card(#[from] ParseCardError),
    /// A bad action.
    #[error(transparent)]
    Action(#[from] ParseActionError),
}

fn number<T: std::str::FromStr>(s: &str, what: &str) -> Result<T, LogSyntaxError> {
    let s = s.trim();
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
        return Err(LogSyntaxError::Value(format!(
            "{what} must be a number, not `{s}`"
        )));
    }
    s.parse()
        .map_err(|_| LogSyntaxError::Value(format!("{what} `{s}` is out of range")))
}

fn seat(s: &str) -> Result<Seat, LogSyntaxError> {
    parse_seat(s.trim())
        .ok_or_else(|| LogSyntaxError::Value(format!("`{}` is not a seat", s.trim())))
}

/// `SEAT X, SEAT X, ...` with `X` read by `f`.
fn seat_list<T>(
    s: &str,
    f: impl Fn(&str) -> Result<T, LogSyntaxError>,
) -> Result<Vec<(Seat, T)>, LogSyntaxError> {
    s.split(',')
        .map(|part| {
            let mut w = part.split_whitespace();
            match (w.next(), w.next(), w.next()) {
                (Some(a), Some(b), None) => Ok((seat(a)?, f(b)?)),
                _ => Err(LogSyntaxError::Value(format!(
                    "`{}` is not `SEAT VALUE`",
                    part.trim()
                ))),
            }
        })
        .collect()
}

/// Reads one line (without its comment); `None` for a blank line.
pub fn parse_line(line: &str) -> Result<Option<Item>, LogSyntaxError> {
    let line = line.split('#').next().unwrap_or("").trim();
    if line.is_empty() {
        return Ok(None);
    }
    if line.eq_ignore_ascii_case("reshuffle") {
        return Ok(Some(Item::Reshuffle));
    }
    let Some((key, value)) = line.split_once(':') else {
        return Err(LogSyntaxError::Unknown(line.to_string()));
    };
    let (key, value) = (key.trim(), value.trim());
    let item = match key.to_ascii_lowercase().as_str() {
        "game" if !value.is_empty() && !value.contains(char::is_whitespace) => {
            Item::Game(value.to_string())
        }
        "players" => Item::Players(number(value, "players")?),
        "seed" => Item::Seed(number(value, "the seed")?),
        "round" => Item::Round(number(value, "the round")?),
        "dealer" => Item::Dealer(seat(value)?),
        "up" => Item::Up(value.parse()?),
        "out" if value.eq_ignore_ascii_case("none") => Item::Out(None),
        "out" => Item::Out(Some(seat(value)?)),
        "score" => Item::Score(seat_list(value, |p| {
            let p = p.strip_prefix('+').ok_or_else(|| {
                LogSyntaxError::Value(format!("points added are written `+P`, not `{p}`"))
            })?;
            number(p, "points")
        })?),
        "total" => Item::Total(seat_list(value, |p| number(p, "points"))?),
        "next" => Item::Next(seat_list(value, |p| Ok(p.to_ascii_lowercase()))?),
        "winner" => Item::Winner(
            value
                .split_whitespace()
                .map(seat)
                .collect::<Result<Vec<_>, _>>()?,
        ),
        k if k.starts_with("hand") => {
            let s = seat(&k[4..])?;
            Item::Hand(s, parse_cards(value)?)
        }
        k if k.bytes().all(|b| b.is_ascii_digit()) => {
            let s = seat(k)?;
            if value.eq_ignore_ascii_case("skipped") {
                Item::Skipped(s)
            } else {
                let actions = value
                    .split(';')
                    .map(str::parse)
                    .collect::<Result<Vec<LoggedAction>, _>>()?;
                Item::Turn(s, actions)
            }
        }
        _ => return Err(LogSyntaxError::Unknown(line.to_string())),
    };
    Ok(Some(item))
}

/// Every item of a log with its 1-based line number; stops at the first unreadable line.
pub fn parse_log(text: &str) -> Result<Vec<(usize, Item)>, (usize, LogSyntaxError)> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        match parse_line(line) {
            Ok(Some(item)) => out.push((i + 1, item)),
            Ok(None) => {}
            Err(e) => return Err((i + 1, e)),
        }
    }
    Ok(out)
}
