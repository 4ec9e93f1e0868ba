//! An outside Pro Spider 10 player of the kind open Phase 10 programs ship, written against the
//! line protocol only (no engine code), to measure the computer levels against fixed heuristics.
//! It knows the standard ten phases and builds each one the way those programs do
//! (`../shared/research/phase10.md`):
//!
//! - a plan for the phase from the hand: for sets, the most common values; for a run, the window
//!   of values holding the most distinct values, the middle one on a tie (every run of 9 in 1..12
//!   holds 4..9); for a colour, the most common colour;
//! - draw: always a joker, never a skip; the discard only when it brings that plan closer (once
//!   its phase is laid: when it can be hit on a laid group);
//! - lay as soon as possible (the first way offered); hit whatever can be hit, highest penalty
//!   first;
//! - a skip on a seat that has laid, else on the highest phase, else on the most cards;
//! - discard a card outside the plan, highest penalty first, never a joker; when every card is
//!   in the plan, the one it needs least (a set value with fewest copies, a run card farthest
//!   from the window's middle).
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

/// A number card's colour letter and value; `None` for a joker or skip.
fn number(card: &str) -> Option<(char, usize)> {
    let colour = card.chars().next()?;
    let value = card.get(1..)?.parse().ok()?;
    Some((colour, value))
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

/// The table as one block of the protocol tells it.
#[derive(Default)]
struct Block {
    seat: usize,
    phases: Vec<usize>,
    cards: Vec<usize>,
    hand: Vec<String>,
    /// Laid groups: (seat, group text without the seat).
    laid: Vec<(usize, String)>,
    choices: Vec<String>,
}

impl Block {
    fn needs(&self) -> &'static [Need] {
        phase(self.phases.get(self.seat - 1).copied().unwrap_or(1))
    }

    fn have_laid(&self) -> bool {
        self.laid.iter().any(|(s, _)| *s == self.seat)
    }

    /// Whether `card` could be hit on a laid group now.
    fn hittable(&self, card: &str) -> bool {
        let Some((colour, value)) = number(card) else {
            return card == "W";
        };
        self.laid.iter().any(|(_, g)| {
            let decl = g.split_whitespace().next().unwrap_or("");
            if let Some(v) = decl.strip_prefix("set:") {
                v.parse() == Ok(value)
            } else if let Some(r) = decl.strip_prefix("run:") {
                let mut ends = r.split("..").filter_map(|x| x.parse::<usize>().ok());
                match (ends.next(), ends.next()) {
                    (Some(a), Some(b)) => value + 1 == a || value == b + 1,
                    _ => false,
                }
            } else if let Some(c) = decl.strip_prefix("colour:") {
                c.starts_with(colour)
            } else {
                false
            }
        })
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
            return self.hittable(card);
        }
        let needs = self.needs();
        let mut more = self.hand.clone();
        more.push(card.to_string());
        plan(&more, needs).progress > plan(&self.hand, needs).progress
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
        if let Some(c) = choices.iter().find(|c| c.starts_with("lay ")) {
            return c.clone();
        }
        let hit_card = |c: &String| {
            c.rsplit(' ')
                .next()
                .unwrap_or("")
                .split('=')
                .next()
                .unwrap_or("")
                .to_string()
        };
        if let Some(c) = choices
            .iter()
            .filter(|c| c.starts_with("hit "))
            // Highest penalty first; a joker last (it fits anywhere later).
            .min_by_key(|c| {
                let card = hit_card(c);
                (card == "W", std::cmp::Reverse(points(&card)))
            })
        {
            return c.clone();
        }
        if let Some(c) = choices
            .iter()
            .filter(|c| c.starts_with("skip "))
            .min_by_key(|c| {
                let s = c["skip ".len()..].parse::<usize>().unwrap_or(0);
                let laid = self.laid.iter().any(|(x, _)| *x == s);
                let phase = self.phases.get(s.wrapping_sub(1)).copied().unwrap_or(0);
                let cards = self.cards.get(s.wrapping_sub(1)).copied().unwrap_or(0);
                (!laid, std::cmp::Reverse(phase), std::cmp::Reverse(cards), s)
            })
        {
            return c.clone();
        }
        let keep = if self.have_laid() {
            // Every card left only waits to be discarded or hit.
            vec![0; self.hand.len()]
        } else {
            plan(&self.hand, self.needs()).keep
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
    let list = |s: &str| -> Vec<usize> {
        s.split_whitespace()
            // Any-order variants list a seat's open phases as `1+2+5`: build the first.
            .map(|n| {
                n.split('+')
                    .next()
                    .and_then(|x| x.parse().ok())
                    .unwrap_or(10)
            })
            .collect()
    };
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
        } else if let Some(p) = line.strip_prefix("phases ") {
            block.phases = list(p);
        } else if let Some(c) = line.strip_prefix("cards ") {
            block.cards = list(c);
        } else if let Some(h) = line.strip_prefix("hand ") {
            block.hand = h.split_whitespace().map(String::from).collect();
        } else if let Some(g) = line.strip_prefix("laid ") {
            let (at, group) = g.split_once(' ').unwrap_or((g, ""));
            let seat = at
                .split('.')
                .next()
                .and_then(|x| x.parse().ok())
                .unwrap_or(0);
            block.laid.push((seat, group.to_string()));
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
