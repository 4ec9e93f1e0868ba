//! An outside Pro Spider 10 player of the kind open Phase 10 programs ship, written against the
//! line protocol only (no engine code), to measure the computer levels against fixed heuristics.
//! It knows the standard ten phases and builds each one the way those programs do
//! (`../shared/research/phase10.md`):
//!
//! - a plan for the phase from the hand: for sets, the most common values; for a run, the window
//!   of values holding the most distinct values, the middle one on a tie (every run of 9 in 1..12
//!   holds 4..9); for a colour, the most common colour (any-order: the open phase with the fewest
//!   cards missing);
//! - draw: always a joker, never a skip; the discard only when it brings that plan closer (once
//!   its phase is laid: when it can be hit on a laid group);
//! - lay as soon as possible, with the fewest jokers and the fewest points left that nothing
//!   could take; hit whatever can be hit, highest penalty first, a joker last, where it leaves
//!   the most of the hand hittable;
//! - a skip on a seat that has laid, else on the one with the fewest phases left, else on the
//!   one with the fewest cards;
//! - discard a card outside the plan, highest penalty first, never a joker; when every card is
//!   in the plan, the one it needs least (a set value with fewest copies, a run card farthest
//!   from the window's middle); once laid, the highest penalty, keeping cards one short of a
//!   run's end.
//!
//! Run: `arachne-cli phase10 tournament --players 2 --ai michaela,petra --games 100 \
//!   --external 2="target/release/examples/p10_outside_player"`.

use std::io::{BufRead, Write};

/// A group a phase needs.
#[derive(Clone, Copy)]
enum Need {
    Set(usize),
    Run(usize),
    Colour(usize),
}

/// The standard phases (the rulebook's), by number.
fn phase(number: usize) -> &'static [Need] {
    use Need::{Colour, Run, Set};
    match number {
        1 => &[Set(3), Set(3)],
        2 => &[Set(3), Run(4)],
        3 => &[Set(4), Run(4)],
        4 => &[Run(7)],
        5 => &[Run(8)],
        6 => &[Run(9)],
        7 => &[Set(4), Set(4)],
        8 => &[Colour(7)],
        9 => &[Set(5), Set(2)],
        _ => &[Set(5), Set(3)],
    }
}

/// A number card's colour letter and value; `None` for a joker, a skip or anything else.
fn number(card: &str) -> Option<(char, usize)> {
    let colour = card.chars().next().filter(|c| "rbgy".contains(*c))?;
    let value = card
        .get(1..)?
        .parse()
        .ok()
        .filter(|v| (1..=12).contains(v))?;
    Some((colour, value))
}

/// The cards a phase needs in all.
fn cards_needed(needs: &[Need]) -> usize {
    needs
        .iter()
        .map(|n| match *n {
            Need::Set(k) | Need::Run(k) | Need::Colour(k) => k,
        })
        .sum()
}

fn points(card: &str) -> u32 {
    match card {
        "W" => 20,
        "S" => 15,
        c => match number(c) {
            Some((_, v)) if v >= 10 => 10,
            _ => 5,
        },
    }
}

/// What the hand is building towards: per card, how much the phase needs it (0: not at all).
struct Plan {
    keep: Vec<u32>,
    /// Cards of the hand that count towards the phase (at most what it needs).
    progress: usize,
}

/// The plan for `needs` from `hand`: runs first (they are the hardest to fill), then sets from
/// the values left, then a colour.
fn plan(hand: &[String], needs: &[Need]) -> Plan {
    let mut keep = vec![0u32; hand.len()];
    let mut used = vec![false; hand.len()];
    let mut progress = 0;
    for need in needs {
        if let Need::Run(k) = *need {
            // The window of k values holding the most distinct values of the unused cards; on a
            // tie the one nearest the middle of 1..12.
            let mut best = (0usize, usize::MAX, 1usize);
            for a in 1..=(13 - k.min(12)) {
                let held = (a..a + k)
                    .filter(|&v| {
                        hand.iter()
                            .zip(&used)
                            .any(|(c, &u)| !u && number(c).is_some_and(|(_, x)| x == v))
                    })
                    .count();
                let off_centre = (2 * a + k - 1).abs_diff(13);
                if held > best.0 || (held == best.0 && off_centre < best.1) {
                    best = (held, off_centre, a);
                }
            }
            let (held, _, a) = best;
            progress += held;
            let middle = 2 * a + k - 1;
            for v in a..a + k {
                if let Some(i) = (0..hand.len())
                    .find(|&i| !used[i] && number(&hand[i]).is_some_and(|(_, x)| x == v))
                {
                    used[i] = true;
                    // Cards near the window's middle are in every run that could grow from it.
                    keep[i] = 100 - (2 * v).abs_diff(middle) as u32;
                }
            }
        }
    }
    let set_sizes: Vec<usize> = needs
        .iter()
        .filter_map(|n| match n {
            Need::Set(k) => Some(*k),
            _ => None,
        })
        .collect();
    if !set_sizes.is_empty() {
        // The most common values among the unused cards, low penalty first on a tie; two sets
        // may share a value when it has enough cards.
        let mut counts = [0usize; 13];
        for (c, &u) in hand.iter().zip(&used) {
            if let (false, Some((_, v))) = (u, number(c)) {
                counts[v] += 1;
            }
        }
        let mut values: Vec<usize> = (1..=12).filter(|&v| counts[v] > 0).collect();
        values.sort_by_key(|&v| (std::cmp::Reverse(counts[v]), v >= 10, v));
        let mut sizes = set_sizes;
        sizes.sort_unstable_by(|a, b| b.cmp(a));
        let mut picked = Vec::new();
        let mut next = 0;
        for &v in &values {
            if next == sizes.len() {
                break;
            }
            // A value with cards for two sets (two or more left over) fills the next one too.
            let mut have = counts[v];
            loop {
                let took = have.min(sizes[next]);
                progress += took;
                have -= took;
                next += 1;
                if next == sizes.len() || have < 2 {
                    break;
                }
            }
            picked.push(v);
        }
        for (i, c) in hand.iter().enumerate() {
            if let (false, Some((_, v))) = (used[i], number(c)) {
                used[i] = true;
                // The values of the sets first, then pairs, most copies first.
                let base = if picked.contains(&v) { 100 } else { 0 };
                keep[i] = base + 10 * counts[v] as u32;
            }
        }
    }
    for need in needs {
        if let Need::Colour(k) = *need {
            let mut best = (0usize, ' ');
            for colour in ['r', 'b', 'g', 'y'] {
                let n = hand
                    .iter()
                    .filter(|c| number(c).is_some_and(|(x, _)| x == colour))
                    .count();
                if n > best.0 {
                    best = (n, colour);
                }
            }
            progress += best.0.min(k);
            for (i, c) in hand.iter().enumerate() {
                if number(c).is_some_and(|(x, _)| x == best.1) {
                    keep[i] = 100;
                }
            }
        }
    }
    Plan { keep, progress }
}

/// What a laid group takes: a value, a run's ends, a colour.
#[derive(Clone, Copy, PartialEq)]
enum Decl {
    Set(usize),
    Run(usize, usize),
    Colour(char),
    Unknown,
}

impl Decl {
    /// The declaration at the head of a group's text (`set:7 r7 b7 W`, `run:3..6 ...`).
    fn of(group: &str) -> Decl {
        let decl = group.split_whitespace().next().unwrap_or("");
        if let Some(v) = decl.strip_prefix("set:") {
            v.parse().map_or(Decl::Unknown, Decl::Set)
        } else if let Some(r) = decl.strip_prefix("run:") {
            let mut ends = r.split("..").filter_map(|x| x.parse::<usize>().ok());
            match (ends.next(), ends.next()) {
                (Some(a), Some(b)) => Decl::Run(a, b),
                _ => Decl::Unknown,
            }
        } else if let Some(c) = decl.strip_prefix("colour:") {
            c.chars().next().map_or(Decl::Unknown, Decl::Colour)
        } else {
            Decl::Unknown
        }
    }

    /// Whether the number card `(colour, value)` can be hit on it.
    fn takes(self, (colour, value): (char, usize)) -> bool {
        match self {
            Decl::Set(v) => v == value,
            Decl::Run(a, b) => value + 1 == a || value == b + 1,
            Decl::Colour(c) => c == colour,
            Decl::Unknown => false,
        }
    }

    /// The group after `value` is hit on it (a run grows at the end it is hit on).
    fn grown(self, value: usize) -> Decl {
        match self {
            Decl::Run(a, b) if value + 1 == a => Decl::Run(value, b),
            Decl::Run(a, b) if value == b + 1 => Decl::Run(a, value),
            other => other,
        }
    }
}

/// How many of `cards` could be hit on the groups `laid` (each counted once; a joker always).
fn hittable_count(cards: &[&str], laid: &[Decl]) -> usize {
    cards
        .iter()
        .filter(|c| **c == "W" || number(c).is_some_and(|n| laid.iter().any(|d| d.takes(n))))
        .count()
}

/// The table as one block of the protocol tells it.
#[derive(Default)]
struct Block {
    seat: usize,
    /// Whether the variant lets a seat lay its phases in any order.
    any_order: bool,
    /// Each seat's open phases (one, or the any-order list; none once all are done).
    phases: Vec<Vec<usize>>,
    cards: Vec<usize>,
    hand: Vec<String>,
    /// Laid groups: (`seat.group`, seat, declaration).
    laid: Vec<(String, usize, Decl)>,
    choices: Vec<String>,
}

impl Block {
    fn open(&self, seat: usize) -> &[usize] {
        seat.checked_sub(1)
            .and_then(|i| self.phases.get(i))
            .map_or(&[], Vec::as_slice)
    }

    /// The open phase the hand is closest to: the cards it still misses by its plan, and that plan.
    fn best_plan(&self, hand: &[String]) -> (usize, Plan) {
        let open = self.open(self.seat);
        let numbers = if open.is_empty() { &[1][..] } else { open };
        numbers
            .iter()
            .map(|&n| {
                let needs = phase(n);
                let plan = plan(hand, needs);
                (cards_needed(needs).saturating_sub(plan.progress), plan)
            })
            .min_by_key(|(missing, _)| *missing)
            .unwrap_or((
                0,
                Plan {
                    keep: vec![0; hand.len()],
                    progress: 0,
                },
            ))
    }

    fn have_laid(&self) -> bool {
        self.laid.iter().any(|(_, s, _)| *s == self.seat)
    }

    fn decls(&self) -> Vec<Decl> {
        self.laid.iter().map(|(_, _, d)| *d).collect()
    }

    /// Whether taking `card` helps: it brings the plan closer, or can be hit once laid.
    fn helps(&self, card: &str) -> bool {
        if card == "W" {
            return true;
        }
        if card == "S" {
            return false;
        }
        if self.have_laid() {
            return hittable_count(&[card], &self.decls()) == 1;
        }
        let mut more = self.hand.clone();
        more.push(card.to_string());
        self.best_plan(&more).0 < self.best_plan(&self.hand).0
    }

    /// The hand without one copy of each of `cards`.
    fn without<'a>(&'a self, cards: &[&str]) -> Vec<&'a str> {
        let mut left: Vec<&str> = self.hand.iter().map(String::as_str).collect();
        for c in cards {
            if let Some(i) = left.iter().position(|h| h == c) {
                left.remove(i);
            }
        }
        left
    }

    /// How good a `lay` choice is (smaller is better): fewest jokers, then the fewest points
    /// left in hand that no group, old or new, could take.
    fn lay_key(&self, lay: &str) -> (usize, u32) {
        // `lay PHASE GROUP, GROUP`
        let body = lay.splitn(3, ' ').nth(2).unwrap_or("");
        let groups: Vec<&str> = body.split(", ").collect();
        let mut decls = self.decls();
        let mut used = Vec::new();
        for g in &groups {
            decls.push(Decl::of(g));
            used.extend(g.split_whitespace().skip(1));
        }
        let jokers = used.iter().filter(|c| **c == "W").count();
        let stuck: u32 = self
            .without(&used)
            .iter()
            .filter(|c| hittable_count(&[**c], &decls) == 0)
            .map(|c| points(c))
            .sum();
        (jokers, stuck)
    }

    /// How good a `hit` choice is (smaller is better): a joker last, highest penalty first, then
    /// the placement that leaves the most of the hand hittable.
    fn hit_key(&self, hit: &str) -> (bool, std::cmp::Reverse<u32>, std::cmp::Reverse<usize>) {
        let mut words = hit.split_whitespace().skip(1);
        let at = words.next().unwrap_or("");
        let card_text = words.next().unwrap_or("");
        let (card, value) = match card_text.split_once('=') {
            Some((c, v)) => (c, v.parse::<usize>().ok()),
            None => (card_text, number(card_text).map(|(_, v)| v)),
        };
        let mut decls = Vec::new();
        for (id, _, d) in &self.laid {
            decls.push(match value {
                Some(v) if id == at => d.grown(v),
                _ => *d,
            });
        }
        let after = hittable_count(&self.without(&[card]), &decls);
        (
            card == "W",
            std::cmp::Reverse(points(card)),
            std::cmp::Reverse(after),
        )
    }

    /// How far a seat is from winning, for the skip (smaller: further ahead).
    fn behind(&self, seat: usize) -> (bool, usize, usize) {
        let laid = self.laid.iter().any(|(_, s, _)| *s == seat);
        let open = self.open(seat);
        // Phases still to lay: the any-order list's length, or counted from the current phase.
        let left = match open.first() {
            Some(&p) if !self.any_order => 11usize.saturating_sub(p),
            _ => open.len(),
        };
        let cards = seat
            .checked_sub(1)
            .and_then(|i| self.cards.get(i))
            .copied()
            .unwrap_or(usize::MAX);
        (!laid, left, cards)
    }

    fn decide(&self) -> String {
        let choices = &self.choices;
        let after = |c: &String, prefix: &str| c.strip_prefix(prefix).map(str::to_string);
        if let Some(card) = choices.iter().find_map(|c| after(c, "draw discard ")) {
            return if self.helps(&card) {
                format!("draw discard {card}")
            } else {
                "draw stock".into()
            };
        }
        if let Some(card) = choices.iter().find_map(|c| after(c, "knock ")) {
            return if self.helps(&card) {
                format!("knock {card}")
            } else {
                "pass".into()
            };
        }
        if let Some(c) = choices
            .iter()
            .filter(|c| c.starts_with("lay "))
            .min_by_key(|c| self.lay_key(c))
        {
            return c.clone();
        }
        if let Some(c) = choices
            .iter()
            .filter(|c| c.starts_with("hit "))
            .min_by_key(|c| self.hit_key(c))
        {
            return c.clone();
        }
        // A skip on a seat that laid, else the one with the fewest phases left, else the one
        // with the fewest cards.
        if let Some(c) = choices
            .iter()
            .filter(|c| c.starts_with("skip "))
            .min_by_key(|c| self.behind(c["skip ".len()..].parse::<usize>().unwrap_or(0)))
        {
            return c.clone();
        }
        let keep = if self.have_laid() {
            // Every card left waits to be hit or discarded: keep those one card away from a
            // run's end.
            let decls = self.decls();
            self.hand
                .iter()
                .map(|c| {
                    let near = number(c).is_some_and(|(_, v)| {
                        decls
                            .iter()
                            .any(|d| matches!(*d, Decl::Run(a, b) if v + 2 == a || v == b + 2))
                    });
                    u32::from(near)
                })
                .collect()
        } else {
            self.best_plan(&self.hand).1.keep
        };
        let keep_of = |card: &str| {
            self.hand
                .iter()
                .zip(&keep)
                .filter(|(h, _)| h.as_str() == card)
                .map(|(_, &k)| k)
                .min()
                .unwrap_or(0)
        };
        choices
            .iter()
            .filter_map(|c| after(c, "discard "))
            .min_by_key(|card| (card == "W", keep_of(card), std::cmp::Reverse(points(card))))
            .map(|card| format!("discard {card}"))
            .or_else(|| choices.first().cloned())
            .unwrap_or_default()
    }
}

fn main() {
    let stdin = std::io::stdin();
    let mut out = std::io::stdout();
    let mut block = Block::default();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { return };
        if let Some(s) = line.strip_prefix("seat ") {
            block.seat = s
                .split_whitespace()
                .next()
                .and_then(|x| x.parse().ok())
                .unwrap_or(1);
            block.laid.clear();
            block.hand.clear();
            block.choices.clear();
        } else if let Some(v) = line.strip_prefix("variant ") {
            block.any_order = v.contains("any-order");
        } else if let Some(p) = line.strip_prefix("phases ") {
            // `4`, or an any-order list `1+2+5`, or `done`.
            block.phases = p
                .split_whitespace()
                .map(|n| n.split('+').filter_map(|x| x.parse().ok()).collect())
                .collect();
        } else if let Some(c) = line.strip_prefix("cards ") {
            block.cards = c
                .split_whitespace()
                .map(|n| n.parse().unwrap_or(0))
                .collect();
        } else if let Some(h) = line.strip_prefix("hand ") {
            block.hand = h.split_whitespace().map(String::from).collect();
        } else if let Some(g) = line.strip_prefix("laid ") {
            let (at, group) = g.split_once(' ').unwrap_or((g, ""));
            let seat = at
                .split('.')
                .next()
                .and_then(|x| x.parse().ok())
                .unwrap_or(0);
            block.laid.push((at.to_string(), seat, Decl::of(group)));
        } else if let Some(c) = line.strip_prefix("choice ") {
            block.choices.push(c.to_string());
        } else if line == "go" {
            let answer = block.decide();
            if writeln!(out, "{answer}")
                .and_then(|()| out.flush())
                .is_err()
            {
                return;
            }
            block.choices.clear();
        }
    }
}
