//! An outside Pro Spider 10 player of the kind open Phase 10 programs ship, written against the
//! line protocol only (no engine code), to measure the computer levels against fixed heuristics:
//! always take a joker; take the discard if it pairs with a card in hand; lay as soon as possible
//! (the first `lay` offered); hit whatever can be hit, highest penalty first; play a skip on the
//! seat with the fewest cards; discard the card with the fewest same-value partners, highest
//! penalty first, never a joker.
//!
//! Run: `arachne-cli phase10 tournament --players 2 --ai michaela,petra --games 100 \
//!   --external 2="target/release/examples/p10_outside_player"`.

use std::io::{BufRead, Write};

fn value(card: &str) -> Option<u32> {
    card.get(1..).and_then(|v| v.parse().ok())
}

fn points(card: &str) -> u32 {
    match card {
        "W" => 20,
        "S" => 15,
        c => match value(c) {
            Some(v) if v >= 10 => 10,
            _ => 5,
        },
    }
}

fn decide(hand: &[String], cards: &[usize], choices: &[String]) -> String {
    let partners = |c: &str| {
        hand.iter()
            .filter(|h| value(h) == value(c) && value(c).is_some())
            .count()
    };
    if let Some(c) = choices.iter().find(|c| *c == "draw discard W") {
        return c.clone();
    }
    if let Some(c) = choices.iter().find(|c| c.starts_with("draw discard ")) {
        let card = &c["draw discard ".len()..];
        if partners(card) >= 1 {
            return c.clone();
        }
        return "draw stock".into();
    }
    if let Some(c) = choices.iter().find(|c| c.starts_with("knock ")) {
        let card = &c["knock ".len()..];
        return if card == "W" || partners(card) >= 2 {
            c.clone()
        } else {
            "pass".into()
        };
    }
    if let Some(c) = choices.iter().find(|c| c.starts_with("lay ")) {
        return c.clone();
    }
    let mut hits: Vec<&String> = choices.iter().filter(|c| c.starts_with("hit ")).collect();
    hits.sort_by_key(|c| {
        std::cmp::Reverse(points(
            c.rsplit(' ')
                .next()
                .unwrap_or("")
                .split('=')
                .next()
                .unwrap_or(""),
        ))
    });
    if let Some(c) = hits.first() {
        return (*c).clone();
    }
    let mut skips: Vec<&String> = choices.iter().filter(|c| c.starts_with("skip ")).collect();
    skips.sort_by_key(|c| {
        c["skip ".len()..]
            .parse::<usize>()
            .ok()
            .and_then(|s| cards.get(s - 1).copied())
            .unwrap_or(99)
    });
    if let Some(c) = skips.first() {
        return (*c).clone();
    }
    let mut discards: Vec<&String> = choices
        .iter()
        .filter(|c| c.starts_with("discard "))
        .collect();
    discards.sort_by_key(|c| {
        let card = &c["discard ".len()..];
        (card == "W", partners(card), std::cmp::Reverse(points(card)))
    });
    discards
        .first()
        .map(|c| (*c).clone())
        .or_else(|| choices.first().cloned())
        .unwrap_or_default()
}

fn main() {
    let stdin = std::io::stdin();
    let mut out = std::io::stdout();
    let (mut hand, mut cards, mut choices) = (Vec::new(), Vec::new(), Vec::new());
    for line in stdin.lock().lines() {
        let Ok(line) = line else { return };
        if let Some(h) = line.strip_prefix("hand ") {
            hand = h.split_whitespace().map(String::from).collect();
        } else if line == "hand" {
            hand.clear();
        } else if let Some(c) = line.strip_prefix("cards ") {
            cards = c
                .split_whitespace()
                .filter_map(|n| n.parse().ok())
                .collect();
        } else if let Some(c) = line.strip_prefix("choice ") {
            choices.push(c.to_string());
        } else if line == "go" {
            let answer = decide(&hand, &cards, &choices);
            if writeln!(out, "{answer}")
                .and_then(|()| out.flush())
                .is_err()
            {
                return;
            }
            choices.clear();
        }
    }
}
