//! Meld search: every way to lay a phase from a hand with exactly the cards the phase needs.
//! Each group is chosen from what the earlier groups left, trying every value, colour and joker
//! split, so six equal cards are found as two sets of three (a greedy grouping misses that).

use std::ops::ControlFlow;

use super::card::{Card, Colour, Counts, MAX_VALUE};
use super::group::{Declaration, Group, Need};

/// Every way to lay `needs` from `hand` using exactly the needed cards, without duplicates.
/// A group made only of jokers is offered once, with a fixed declaration (`set:12`, `run:1..N`,
/// `colour:r`); other declarations of such a group are legal but add no choice worth listing.
pub fn lay_options(hand: &Counts, needs: &[Need]) -> Vec<Vec<Group>> {
    let mut out = Vec::new();
    let mut chosen = Vec::with_capacity(needs.len());
    search(hand, needs, &mut chosen, &mut out, usize::MAX);
    // Fewest jokers first, so the first option keeps jokers in hand.
    out.sort_unstable_by_key(|groups: &Vec<Group>| {
        (
            groups
                .iter()
                .map(|g| g.cards().iter().filter(|c| c.is_wild()).count())
                .sum::<usize>(),
            groups.clone(),
        )
    });
    out
}

/// One way to lay `needs` from `hand` with as few cards as the phase needs, preferring the way
/// that uses the fewest jokers; `None` if there is none. It is the first of [`lay_options`],
/// found without listing them: for each joker count from 0 up, the first way in order (groups
/// generated in ascending order, each path pruned so it always reaches a group), so a whole deck
/// is answered at once.
pub fn meld(hand: &Counts, needs: &[Need]) -> Option<Vec<Group>> {
    meld_from(hand, needs, 0)
}

/// [`meld`] for a caller who knows that fewer than `fewest` jokers cannot lay `needs` from
/// `hand` (say, from a count of the naturals missing at best): the same answer, without
/// searching for ways with fewer jokers first. A wrong `fewest` gives a wrong answer.
pub fn meld_from(hand: &Counts, needs: &[Need], fewest: u8) -> Option<Vec<Group>> {
    let jokers = hand.get(Card::WILD);
    (fewest..=jokers).find_map(|cap| {
        // With at most `cap` jokers where `cap - 1` were too few, every way uses exactly `cap`.
        let mut capped = *hand;
        capped.0[Card::WILD.index()] = cap;
        first_way(&capped, needs)
    })
}

/// Whether `needs` can be laid from `hand` at all.
pub fn can_lay(hand: &Counts, needs: &[Need]) -> bool {
    first_way(hand, needs).is_some()
}

/// The smallest way (in `Vec<Group>` order) to lay `needs` from `hand`, or `None`.
fn first_way(hand: &Counts, needs: &[Need]) -> Option<Vec<Group>> {
    let Some((&need, rest)) = needs.split_first() else {
        return Some(Vec::new());
    };
    let mut found = None;
    let _ = each_group(hand, need, &mut |group| {
        let mut left = *hand;
        for &c in group.cards() {
            left.remove(c);
        }
        match first_way(&left, rest) {
            Some(mut tail) => {
                tail.insert(0, group);
                found = Some(tail);
                ControlFlow::Break(())
            }
            None => ControlFlow::Continue(()),
        }
    });
    found
}

/// Calls `f` with the groups of [`groups_for`] in ascending order until it breaks. Every path of
/// the search ends in a group, so the first comes at once and the work is that of the groups seen.
fn each_group(
    hand: &Counts,
    need: Need,
    f: &mut dyn FnMut(Group) -> ControlFlow<()>,
) -> ControlFlow<()> {
    let k = usize::from(need.size());
    let jokers = usize::from(hand.get(Card::WILD));
    let mut emit = |decl: Declaration, cards: Vec<Card>| match Group::new(decl, cards) {
        Ok(g) => f(g),
        Err(_) => ControlFlow::Continue(()),
    };
    match need {
        Need::Set(_) => {
            for v in 1..=MAX_VALUE {
                // On the stack: this runs for every value at every lay a playout considers.
                let mut avail = [(Card::WILD, 0usize); 4];
                let mut len = 0;
                for c in Colour::ALL.iter().filter_map(|&c| Card::number(c, v)) {
                    let n = usize::from(hand.get(c));
                    if n > 0 {
                        avail[len] = (c, n);
                        len += 1;
                    }
                }
                multisets_ascending(&avail[..len], k, jokers, &mut |cards| {
                    emit(Declaration::Set(v), cards)
                })?;
            }
            if jokers >= k {
                emit(Declaration::Set(MAX_VALUE), vec![Card::WILD; k])?;
            }
        }
        Need::Colour(_) => {
            for colour in Colour::ALL {
                let mut avail = [(Card::WILD, 0usize); MAX_VALUE as usize];
                let mut len = 0;
                for c in (1..=MAX_VALUE).filter_map(|v| Card::number(colour, v)) {
                    let n = usize::from(hand.get(c));
                    if n > 0 {
                        avail[len] = (c, n);
                        len += 1;
                    }
                }
                multisets_ascending(&avail[..len], k, jokers, &mut |cards| {
                    emit(Declaration::Colour(colour), cards)
                })?;
                // Only jokers: the largest `colour:r` group, before any `colour:b` one.
                if colour == Colour::Red && jokers >= k {
                    emit(Declaration::Colour(Colour::Red), vec![Card::WILD; k])?;
                }
            }
        }
        Need::Run(_) => {
            if k < 2 || k > usize::from(MAX_VALUE) {
                return ControlFlow::Continue(());
            }
            for a in 1..=(MAX_VALUE + 1 - k as u8) {
                // On the stack, like the lists above.
                let mut within = [false; MAX_VALUE as usize];
                for (i, h) in within[..k].iter_mut().enumerate() {
                    *h = Colour::ALL
                        .iter()
                        .any(|&c| Card::number(c, a + i as u8).is_some_and(|c| hand.get(c) > 0));
                }
                let held = &within[..k];
                let missing = held.iter().filter(|&&h| !h).count();
                if missing < k && missing <= jokers {
                    let mut cards = Vec::with_capacity(k);
                    run_ascending(hand, a, held, jokers, &mut cards, &mut |cards| {
                        emit(Declaration::Run(a, a + k as u8 - 1), cards)
                    })?;
                }
                // Only jokers: the largest `run:1..k` group, before any `run:2..` one.
                if a == 1 && jokers >= k {
                    emit(Declaration::Run(1, k as u8), vec![Card::WILD; k])?;
                }
            }
        }
    }
    ControlFlow::Continue(())
}

/// Fills a run from value `a` in ascending order (colours `r b g y`, then `W`); a joker is used
/// at a held value only if enough remain for the values not held further on.
fn run_ascending(
    hand: &Counts,
    a: u8,
    held: &[bool],
    jokers: usize,
    cards: &mut Vec<Card>,
    f: &mut dyn FnMut(Vec<Card>) -> ControlFlow<()>,
) -> ControlFlow<()> {
    let i = cards.len();
    if i == held.len() {
        // A run of only jokers comes once, as `run:1..k` (see `each_group`).
        if cards.iter().any(|c| !c.is_wild()) {
            return f(cards.clone());
        }
        return ControlFlow::Continue(());
    }
    let v = a + i as u8;
    for colour in Colour::ALL {
        if let Some(c) = Card::number(colour, v)
            && hand.get(c) > 0
        {
            cards.push(c);
            let r = run_ascending(hand, a, held, jokers, cards, f);
            cards.pop();
            r?;
        }
    }
    let missing_after = held[i + 1..].iter().filter(|&&h| !h).count();
    if jokers > missing_after {
        cards.push(Card::WILD);
        let r = run_ascending(hand, a, held, jokers - 1, cards, f);
        cards.pop();
        r?;
    }
    ControlFlow::Continue(())
}

/// Calls `f(cards)` for every multiset of at least one natural from `avail` (card, copies held,
/// in card order) topped up with jokers to exactly `k` cards, in ascending order: more copies of
/// a lower card first, since a joker sorts after every natural.
fn multisets_ascending(
    avail: &[(Card, usize)],
    k: usize,
    jokers: usize,
    f: &mut dyn FnMut(Vec<Card>) -> ControlFlow<()>,
) -> ControlFlow<()> {
    fn rec(
        avail: &[(Card, usize)],
        k: usize,
        jokers: usize,
        picked: &mut Vec<Card>,
        f: &mut dyn FnMut(Vec<Card>) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        let Some((&(card, n), rest)) = avail.split_first() else {
            if !picked.is_empty() {
                let mut cards = picked.clone();
                cards.resize(k, Card::WILD);
                return f(cards);
            }
            return ControlFlow::Continue(());
        };
        let later: usize = rest.iter().map(|&(_, n)| n).sum();
        for take in (0..=n.min(k - picked.len())).rev() {
            // Prune what cannot reach `k` cards with the jokers, or would hold no natural.
            let room = picked.len() + take + later.min(k) + jokers;
            if room < k || (picked.is_empty() && take == 0 && later == 0) {
                continue;
            }
            picked.extend(std::iter::repeat_n(card, take));
            let r = rec(rest, k, jokers, picked, f);
            picked.truncate(picked.len() - take);
            r?;
        }
        ControlFlow::Continue(())
    }
    let total: usize = avail.iter().map(|&(_, n)| n).sum();
    if total == 0 || total.min(k) + jokers < k {
        return ControlFlow::Continue(());
    }
    rec(avail, k, jokers, &mut Vec::with_capacity(k), f)
}

fn search(
    hand: &Counts,
    needs: &[Need],
    chosen: &mut Vec<Group>,
    out: &mut Vec<Vec<Group>>,
    limit: usize,
) {
    if out.len() >= limit {
        return;
    }
    let depth = chosen.len();
    let Some(&need) = needs.get(depth) else {
        out.push(chosen.clone());
        return;
    };
    for group in groups_for(hand, need) {
        // Equal consecutive needs: list only one order of the same two groups.
        if depth > 0 && needs[depth - 1] == need && chosen.last().is_some_and(|prev| &group < prev)
        {
            continue;
        }
        let mut left = *hand;
        for &c in group.cards() {
            left.remove(c);
        }
        chosen.push(group);
        search(&left, needs, chosen, out, limit);
        chosen.pop();
        if out.len() >= limit {
            return;
        }
    }
}

/// Every group of exactly `need.size()` cards of `need.kind()` that `hand` can make.
pub fn groups_for(hand: &Counts, need: Need) -> Vec<Group> {
    let k = usize::from(need.size());
    let jokers = usize::from(hand.get(Card::WILD));
    let mut out = Vec::new();
    match need {
        Need::Set(_) => {
            for v in 1..=MAX_VALUE {
                let avail: Vec<(Card, usize)> = Colour::ALL
                    .iter()
                    .filter_map(|&c| Card::number(c, v))
                    .map(|c| (c, usize::from(hand.get(c))))
                    .filter(|&(_, n)| n > 0)
                    .collect();
                multisets(&avail, k, jokers, &mut |naturals, w| {
                    let mut cards = naturals.to_vec();
                    cards.extend(std::iter::repeat_n(Card::WILD, w));
                    if let Ok(g) = Group::new(Declaration::Set(v), cards) {
                        out.push(g);
                    }
                });
            }
            if jokers >= k {
                out.extend(Group::new(Declaration::Set(MAX_VALUE), vec![Card::WILD; k]).ok());
            }
        }
        Need::Colour(_) => {
            for colour in Colour::ALL {
                let avail: Vec<(Card, usize)> = (1..=MAX_VALUE)
                    .filter_map(|v| Card::number(colour, v))
                    .map(|c| (c, usize::from(hand.get(c))))
                    .filter(|&(_, n)| n > 0)
                    .collect();
                multisets(&avail, k, jokers, &mut |naturals, w| {
                    let mut cards = naturals.to_vec();
                    cards.extend(std::iter::repeat_n(Card::WILD, w));
                    if let Ok(g) = Group::new(Declaration::Colour(colour), cards) {
                        out.push(g);
                    }
                });
            }
            if jokers >= k {
                out.extend(Group::new(Declaration::Colour(Colour::Red), vec![Card::WILD; k]).ok());
            }
        }
        Need::Run(_) => {
            if k < 2 || k > usize::from(MAX_VALUE) {
                return out;
            }
            for a in 1..=(MAX_VALUE + 1 - k as u8) {
                let mut cards = Vec::with_capacity(k);
                run_positions(hand, a, k, jokers, false, &mut cards, &mut out);
            }
            if jokers >= k {
                out.extend(Group::new(Declaration::Run(1, k as u8), vec![Card::WILD; k]).ok());
            }
        }
    }
    out
}

/// Fills a run from value `a` position by position: a natural of any colour held, or a joker.
fn run_positions(
    hand: &Counts,
    a: u8,
    k: usize,
    jokers: usize,
    natural_used: bool,
    cards: &mut Vec<Card>,
    out: &mut Vec<Group>,
) {
    if cards.len() == k {
        if natural_used {
            let hi = a + k as u8 - 1;
            out.extend(Group::new(Declaration::Run(a, hi), cards.clone()).ok());
        }
        return;
    }
    let v = a + cards.len() as u8;
    for colour in Colour::ALL {
        if let Some(c) = Card::number(colour, v)
            && hand.get(c) > 0
        {
            cards.push(c);
            run_positions(hand, a, k, jokers, true, cards, out);
            cards.pop();
        }
    }
    if jokers > 0 {
        cards.push(Card::WILD);
        run_positions(hand, a, k, jokers - 1, natural_used, cards, out);
        cards.pop();
    }
}

/// Calls `f(naturals, jokers)` for every multiset of at least one natural from `avail` (card,
/// copies held) topped up with jokers to exactly `k` cards.
fn multisets(avail: &[(Card, usize)], k: usize, jokers: usize, f: &mut impl FnMut(&[Card], usize)) {
    fn rec(
        avail: &[(Card, usize)],
        k: usize,
        jokers: usize,
        picked: &mut Vec<Card>,
        f: &mut impl FnMut(&[Card], usize),
    ) {
        if picked.len() > k {
            return;
        }
        let Some((&(card, n), rest)) = avail.split_first() else {
            let w = k - picked.len();
            if !picked.is_empty() && w <= jokers {
                f(picked, w);
            }
            return;
        };
        for take in 0..=n.min(k - picked.len()) {
            picked.extend(std::iter::repeat_n(card, take));
            rec(rest, k, jokers, picked, f);
            picked.truncate(picked.len() - take);
        }
    }
    rec(avail, k, jokers, &mut Vec::with_capacity(k), f);
}
