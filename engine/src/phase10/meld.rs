//! Meld search: every way to lay a phase from a hand with exactly the cards the phase needs.
//! Each group is chosen from what the earlier groups left, trying every value, colour and joker
//! split, so six equal cards are found as two sets of three (a greedy grouping misses that).

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
    out.sort_by_key(|groups: &Vec<Group>| {
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
/// that uses the fewest jokers; `None` if there is none.
pub fn meld(hand: &Counts, needs: &[Need]) -> Option<Vec<Group>> {
    lay_options(hand, needs).into_iter().next()
}

/// Whether `needs` can be laid from `hand` at all.
pub fn can_lay(hand: &Counts, needs: &[Need]) -> bool {
    let mut out = Vec::new();
    search(
        hand,
        needs,
        &mut Vec::with_capacity(needs.len()),
        &mut out,
        1,
    );
    !out.is_empty()
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
