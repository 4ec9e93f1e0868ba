//! Petra: fixed heuristics of the kind other Phase 10 programs ship, measured and tuned here.
//! Take the discard when it brings the phase closer (always a joker); lay as soon as possible;
//! hit greedily, highest penalty first; play a skip on the seat closest to going out; discard
//! the card the phase needs least, keeping cards the next seat visibly wants, highest penalty
//! first, never a joker. "Closer" is the number of cards still missing for the phase, over every
//! way to make it (every run of 9 in 1..12 holds 4..9, so those cards count for each of them).
//! Once a round's stock has been reshuffled twice ([`STALLED`]), a seat discards a card picked
//! by a hash of the table instead (never a joker), so that seats holding each other's cards
//! let them go.

use super::super::action::{Action, Seat};
use super::super::card::{Card, Counts, MAX_VALUE};
use super::super::game::Stage;
use super::super::game::Standing;
use super::super::group::{Declaration, Need};
use super::super::meld::meld_from;
use super::super::variant::P10Variant;
use super::super::variant::Phase;
use super::super::view::{SeatView, ViewRef};
use super::Player;
use super::learned::DiscardModel;

/// Cards still missing for `needs` from `hand` at best (jokers fill gaps), and in how many ways
/// (target values, runs and colours) that best is reached.
pub fn phase_distance(hand: &Counts, needs: &[Need]) -> (u8, u16) {
    Tally::of(hand).distance(needs)
}

/// A hand as the phase distance reads it: its cards per value (slots 1..=12), per colour (in
/// `Colour::ALL`'s order) and its jokers. Petra weighs each card she could discard by the
/// distance of the hand without it, so she counts the hand once and takes each card out and
/// puts it back, rather than counting the hand again for each.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Tally {
    vc: [u8; 13],
    cc: [u8; 4],
    jokers: u8,
}

impl Tally {
    /// The tally of a hand's counts.
    pub(super) fn of(hand: &Counts) -> Tally {
        let mut t = Tally {
            vc: [0; 13],
            cc: [0; 4],
            jokers: hand.get(Card::WILD),
        };
        // A number card's index is (value - 1) * 4 + its colour's place in `Colour::ALL`.
        for (v, four) in hand.0[..usize::from(MAX_VALUE) * 4]
            .chunks_exact(4)
            .enumerate()
        {
            t.vc[v + 1] = four[0] + four[1] + four[2] + four[3];
            for (c, &n) in t.cc.iter_mut().zip(four) {
                *c += n;
            }
        }
        t
    }

    /// The tally of a hand's cards.
    pub(super) fn of_cards(hand: &[Card]) -> Tally {
        let mut t = Tally {
            vc: [0; 13],
            cc: [0; 4],
            jokers: 0,
        };
        for &c in hand {
            t.add(c);
        }
        t
    }

    /// Counts one more `card` (a skip counts for nothing).
    pub(super) fn add(&mut self, card: Card) {
        let i = card.index();
        if i < usize::from(MAX_VALUE) * 4 {
            self.vc[i / 4 + 1] += 1;
            self.cc[i % 4] += 1;
        } else if card.is_wild() {
            self.jokers += 1;
        }
    }

    /// Counts one `card` less; it must have been counted.
    pub(super) fn remove(&mut self, card: Card) {
        let i = card.index();
        if i < usize::from(MAX_VALUE) * 4 {
            self.vc[i / 4 + 1] -= 1;
            self.cc[i % 4] -= 1;
        } else if card.is_wild() {
            self.jokers -= 1;
        }
    }

    /// [`phase_distance`] of the hand counted.
    pub(super) fn distance(&self, needs: &[Need]) -> (u8, u16) {
        let (mut vc, cc, jokers) = (self.vc, self.cc, self.jokers);
        // One group is counted leaf by leaf faster than the cache is asked.
        if let [need] = *needs {
            return last_need(need, &vc, &cc, 0, jokers);
        }
        let Some(key) = cache_key(&vc, &cc, jokers, needs) else {
            return distance_uncached(needs, &mut vc, &cc, jokers);
        };
        // One look at the cache per question: the search below never asks it again.
        DISTANCES.with(|d| {
            let mut d = d.borrow_mut();
            if let Some(hit) = d.get(key) {
                return hit;
            }
            let got = distance_uncached(needs, &mut vc, &cc, jokers);
            d.put(key, got);
            got
        })
    }
}

/// A remembered answer of [`phase_distance`]: its key (never 0) and its answer.
#[derive(Clone, Copy, Default)]
struct Slot {
    key: u128,
    answer: (u8, u16),
}

/// Answers of [`phase_distance`] by their key, one slot per hash (a newer answer replaces an
/// older one). Petra asks the same question again and again (each discard she weighs, each step
/// of a look-ahead player's playouts), and the answer depends only on the key, so remembering it
/// changes no decision, only the time.
struct DistanceCache {
    slots: Vec<Slot>,
}

/// Slots in the cache (a power of two; 32 bytes each).
const CACHE_SLOTS: usize = 1 << 13;

impl DistanceCache {
    fn index(key: u128) -> usize {
        let h = (key as u64 ^ (key >> 64) as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        (h >> 51) as usize & (CACHE_SLOTS - 1)
    }

    fn get(&self, key: u128) -> Option<(u8, u16)> {
        self.slots
            .get(DistanceCache::index(key))
            .filter(|s| s.key == key)
            .map(|s| s.answer)
    }

    fn put(&mut self, key: u128, answer: (u8, u16)) {
        if self.slots.is_empty() {
            self.slots = vec![Slot::default(); CACHE_SLOTS];
        }
        self.slots[DistanceCache::index(key)] = Slot { key, answer };
    }
}

thread_local! {
    static DISTANCES: std::cell::RefCell<DistanceCache> =
        const { std::cell::RefCell::new(DistanceCache { slots: Vec::new() }) };
}

/// Everything [`phase_distance`]'s answer depends on, packed (value counts, or without a run how
/// many values hold each count; colour counts only when a colour group is needed; jokers; the
/// needs), or `None` when something does not fit.
fn cache_key(vc: &[u8; 13], cc: &[u8; 4], jokers: u8, needs: &[Need]) -> Option<u128> {
    if needs.len() > 4 || jokers > 15 {
        return None;
    }
    // Packed in a u64 first (shifting a u128 costs more), checked once for counts too large.
    let low = u64::from_le_bytes([vc[1], vc[2], vc[3], vc[4], vc[5], vc[6], vc[7], vc[8]]);
    let high = u32::from_le_bytes([vc[9], vc[10], vc[11], vc[12]]);
    if (low | u64::from(high)) & 0xF0F0_F0F0_F0F0_F0F0 != 0 {
        return None;
    }
    let colour = needs.iter().any(|n| matches!(n, Need::Colour(_)));
    // A leading 1 above the counts, so that the key's length tells how many needs follow.
    let values = if needs.iter().any(|n| matches!(n, Need::Run(_))) {
        u128::from(vc[1..].iter().fold(1u64, |k, &n| (k << 4) | u64::from(n)))
    } else {
        // Without a run the values' names do not matter (a set takes any value, a colour group
        // reads only colours), so hands alike but for which value holds which count share one
        // answer: the key counts the values holding each count (a nibble for each count up to
        // 15, at most 12 in each). Its leading 1 is at bit 64, not 48: the two kinds of key
        // never meet.
        (1 << 64) | u128::from(vc[1..].iter().fold(0u64, |k, &n| k + (1u64 << (4 * n))))
    };
    let colours = if colour {
        if cc.iter().fold(0, |m, &n| m | n) > 31 {
            return None;
        }
        cc.iter().fold(0u64, |k, &n| (k << 5) | u64::from(n))
    } else {
        0
    };
    let mut key = (values << 24) | u128::from(colours << 4 | u64::from(jokers));
    for n in needs {
        let (kind, size) = match *n {
            Need::Set(k) => (1u8, k),
            Need::Run(k) => (2, k),
            Need::Colour(k) => (3, k),
        };
        if size > 31 {
            return None;
        }
        key = (key << 7) | u128::from(kind << 5 | size);
    }
    Some(key)
}

/// [`phase_distance`] computed afresh.
fn distance_uncached(needs: &[Need], vc: &mut [u8; 13], cc: &[u8; 4], jokers: u8) -> (u8, u16) {
    // Runs take one card of each value first, so a set never starves a run of its only card.
    // Sorted on the stack for the usual few groups (this runs for every card of every playout).
    let mut buf = [Need::Set(0); 8];
    let mut owned = Vec::new();
    let order: &mut [Need] = if needs.len() <= buf.len() {
        buf[..needs.len()].copy_from_slice(needs);
        &mut buf[..needs.len()]
    } else {
        owned.extend_from_slice(needs);
        &mut owned
    };
    order.sort_by_key(|n| match n {
        Need::Run(_) => 0,
        Need::Set(_) => 1,
        Need::Colour(_) => 2,
    });
    rec(order, vc, cc, 0, jokers)
}

/// Adds a subtree's `(missing, ways)` to the best so far (ways saturate, as a count of leaves).
fn merge(best: &mut (u8, u16), (m, w): (u8, u16)) {
    if m < best.0 {
        *best = (m, w);
    } else if m == best.0 {
        best.1 = best.1.saturating_add(w);
    }
}

/// The fewest cards missing over every way to fill `needs` from the value counts `vc` and colour
/// counts `cc`, and how many ways reach it. Values a set cannot take a card from all lead to the
/// same subtree, which is searched once and counted for each of them.
fn rec(needs: &[Need], vc: &mut [u8; 13], cc: &[u8; 4], short: u8, jokers: u8) -> (u8, u16) {
    let Some((&need, rest)) = needs.split_first() else {
        return (short.saturating_sub(jokers), 1);
    };
    if rest.is_empty() {
        return last_need(need, vc, cc, short, jokers);
    }
    if let [Need::Set(j)] = *rest
        && usize::from(j) < TAKES
        && !matches!(need, Need::Colour(_))
    {
        return before_last_set(need, j, vc, short, jokers);
    }
    let mut best = (u8::MAX, 0u16);
    match need {
        Need::Run(k) => {
            if k == 0 || k > MAX_VALUE {
                return best;
            }
            for a in 1..=(MAX_VALUE + 1 - k) {
                let mut taken = [false; 13];
                let mut s = short;
                for v in a..a + k {
                    let v = usize::from(v);
                    if vc[v] > 0 {
                        vc[v] -= 1;
                        taken[v] = true;
                    } else {
                        s += 1;
                    }
                }
                merge(&mut best, rec(rest, vc, cc, s, jokers));
                for v in a..a + k {
                    let v = usize::from(v);
                    if taken[v] {
                        vc[v] += 1;
                    }
                }
            }
        }
        Need::Set(k) => {
            let mut empty = 0u16;
            for v in 1..=usize::from(MAX_VALUE) {
                if vc[v] == 0 {
                    empty += 1;
                    continue;
                }
                let t = vc[v].min(k);
                vc[v] -= t;
                merge(&mut best, rec(rest, vc, cc, short + (k - t), jokers));
                vc[v] += t;
            }
            if empty > 0 {
                let (m, w) = rec(rest, vc, cc, short + k, jokers);
                merge(&mut best, (m, w.saturating_mul(empty)));
            }
        }
        Need::Colour(k) => {
            for &n in cc {
                merge(
                    &mut best,
                    rec(rest, vc, cc, short + k.saturating_sub(n), jokers),
                );
            }
        }
    }
    best
}

/// Sizes of a last set that [`before_last_set`] handles (its table of takes has a slot for each).
const TAKES: usize = 16;

/// What a last `Set(j)` can take from each value, as a table: `takes[t]` values that hold
/// cards give it `t` (0..=j), `empty` values hold none. Every value is one leaf of [`rec`]'s
/// search, so the best leaf and how many reach it follow from the table alone.
struct Takes {
    takes: [u16; TAKES],
    empty: u16,
    /// Bit `t` set when `takes[t] > 0`.
    held: u32,
}

impl Takes {
    fn of(vc: &[u8; 13], j: u8) -> Takes {
        let mut t = Takes {
            takes: [0; TAKES],
            empty: 0,
            held: 0,
        };
        for &n in &vc[1..=usize::from(MAX_VALUE)] {
            t.add(n, j);
        }
        t
    }

    /// Counts a value holding `n` cards.
    fn add(&mut self, n: u8, j: u8) {
        if n == 0 {
            self.empty += 1;
        } else {
            let t = n.min(j);
            self.takes[usize::from(t)] += 1;
            self.held |= 1 << t;
        }
    }

    /// Uncounts a value holding `n` cards.
    fn remove(&mut self, n: u8, j: u8) {
        if n == 0 {
            self.empty -= 1;
        } else {
            let t = n.min(j);
            self.takes[usize::from(t)] -= 1;
            if self.takes[usize::from(t)] == 0 {
                self.held &= !(1 << t);
            }
        }
    }

    /// [`last_need`] for `Set(j)` over the values counted.
    ///
    /// A value giving `t` cards leaves `short + j - t` missing, less the jokers (never below 0),
    /// and an empty value is one giving 0. So the fewest missing come from the largest `t`
    /// held, and are reached by that slot alone, unless the jokers cover it: then by every slot
    /// whose shortfall they cover too.
    fn best(&self, j: u8, short: u8, jokers: u8) -> (u8, u16) {
        // A set of 0 takes 0 cards from a value that has some: slot 0, like an empty value.
        let top = if self.held != 0 {
            (31 - self.held.leading_zeros()) as u8
        } else if self.empty > 0 {
            0
        } else {
            return (u8::MAX, 0);
        };
        let count = |t: u8| self.takes[usize::from(t)] + if t == 0 { self.empty } else { 0 };
        let missing = (short + (j - top)).saturating_sub(jokers);
        if missing > 0 {
            return (missing, count(top));
        }
        // Every slot from the first the jokers cover up to `top` reaches 0.
        let from = (short + j).saturating_sub(jokers).min(top);
        let mut ways = 0u16;
        for t in from..=top {
            ways = ways.saturating_add(count(t));
        }
        (0, ways)
    }
}

/// [`rec`] for a set or run `need` followed by a last `Set(j)`: the same leaves, counted through
/// a table of what the last set can take, updated for the few values `need` takes from (the
/// common two-group phases are asked most, and this is several times faster than searching
/// each leaf).
fn before_last_set(need: Need, j: u8, vc: &[u8; 13], short: u8, jokers: u8) -> (u8, u16) {
    let mut best = (u8::MAX, 0u16);
    let mut table = Takes::of(vc, j);
    match need {
        Need::Run(k) => {
            if k == 0 || k > MAX_VALUE {
                return best;
            }
            // The window of values the run takes slides up one value at a time: the value
            // it leaves gets its card back, the value it reaches gives one.
            let take = |table: &mut Takes, s: &mut u8, v: u8| {
                let n = vc[usize::from(v)];
                if n > 0 {
                    table.remove(n, j);
                    table.add(n - 1, j);
                } else {
                    *s += 1;
                }
            };
            let give_back = |table: &mut Takes, s: &mut u8, v: u8| {
                let n = vc[usize::from(v)];
                if n > 0 {
                    table.remove(n - 1, j);
                    table.add(n, j);
                } else {
                    *s -= 1;
                }
            };
            let mut s = short;
            for v in 1..=k {
                take(&mut table, &mut s, v);
            }
            merge(&mut best, table.best(j, s, jokers));
            for a in 2..=(MAX_VALUE + 1 - k) {
                give_back(&mut table, &mut s, a - 1);
                take(&mut table, &mut s, a + k - 1);
                merge(&mut best, table.best(j, s, jokers));
            }
        }
        Need::Set(k) => {
            let mut empty = 0u16;
            for &n in &vc[1..=usize::from(MAX_VALUE)] {
                if n == 0 {
                    empty += 1;
                    continue;
                }
                let t = n.min(k);
                table.remove(n, j);
                table.add(n - t, j);
                merge(&mut best, table.best(j, short + (k - t), jokers));
                table.remove(n - t, j);
                table.add(n, j);
            }
            if empty > 0 {
                let (m, w) = table.best(j, short + k, jokers);
                merge(&mut best, (m, w.saturating_mul(empty)));
            }
        }
        Need::Colour(_) => unreachable!("a colour group is sorted after every set"),
    }
    best
}

/// [`rec`] for the last need, with its leaves counted here rather than by a call each (the
/// same answer: every way the need can take is one leaf, and values a set cannot take a card
/// from are counted together).
fn last_need(need: Need, vc: &[u8; 13], cc: &[u8; 4], short: u8, jokers: u8) -> (u8, u16) {
    let mut best = (u8::MAX, 0u16);
    let leaf = |s: u8| s.saturating_sub(jokers);
    match need {
        Need::Run(k) => {
            if k == 0 || k > MAX_VALUE {
                return best;
            }
            // The values the window lacks, as it slides up one value at a time.
            let lacks = |v: u8| u8::from(vc[usize::from(v)] == 0);
            let mut s = short + (1..=k).map(lacks).sum::<u8>();
            merge(&mut best, (leaf(s), 1));
            for a in 2..=(MAX_VALUE + 1 - k) {
                s = s - lacks(a - 1) + lacks(a + k - 1);
                merge(&mut best, (leaf(s), 1));
            }
        }
        Need::Set(k) => {
            let mut empty = 0u16;
            for &n in &vc[1..=usize::from(MAX_VALUE)] {
                if n == 0 {
                    empty += 1;
                    continue;
                }
                merge(&mut best, (leaf(short + (k - n.min(k))), 1));
            }
            if empty > 0 {
                merge(&mut best, (leaf(short + k), empty));
            }
        }
        Need::Colour(k) => {
            for &n in cc {
                merge(&mut best, (leaf(short + k.saturating_sub(n)), 1));
            }
        }
    }
    best
}

/// Reshuffles in a round after which a seat discards a card picked by a hash of the table instead
/// of the one its usual order picks: the stock went round twice without anybody going out, so
/// the seats may be holding the very cards the others wait for (with six Petra seats 1 game in
/// 1,000 and 1 in 5,000 never ended that way in two runs; of 343,655 six-seat rounds, 76 saw two
/// reshuffles or more, BENCHMARKS.md).
pub const STALLED: u32 = 2;

/// A hit gap for a card no laid group can ever take.
const HIT_NEVER: u8 = 6;

/// The weights of Petra's discard order; `Style::PETRA` is hers, other styles are tried as the
/// base of the sampling player's choices.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Style {
    /// Added to a discard the next seat visibly wants (one card of phase distance is 1000).
    pub feed: i64,
    /// Taken off a discard whose value the next seat let go this round, while it has not laid.
    pub safe: i64,
    /// Ways to reach the phase distance count up to this many.
    pub ways_cap: u16,
    /// Extra weight of a card's points once another seat has laid (it may go out soon).
    pub rushed: i64,
    /// After laying: taken off a discard per card that must be hit before it could be.
    pub hit_gap: i64,
    /// How to tell a card the next seat wants: 0 Petra's (the value of a card it took, or a
    /// hit once it laid), 1 whether it brings the cards it took closer to its phase (a hit once
    /// it laid), 2 either; for measuring, 3 only Petra's hit part and 4 only her value part.
    pub feed_rule: u8,
    /// Added to a discard that would be hittable after one more card once the next seat laid.
    pub feed_near: i64,
    /// Skip targets: 0 Petra's order (see `ranked_skips`), others for measuring.
    pub skip_rule: u8,
}

/// How many values a learned discard order reads about each discard (`Heuristic::discard_features`).
pub const FEATURES: usize = 18;

impl Style {
    /// Petra's.
    pub const PETRA: Style = Style {
        feed: 400,
        safe: 0,
        ways_cap: 150,
        rushed: 0,
        hit_gap: 0,
        feed_rule: 0,
        feed_near: 0,
        skip_rule: 0,
    };
}

/// Petra, the heuristic player.
#[derive(Clone, Debug, Default)]
pub struct Heuristic;

impl Heuristic {
    /// The phase(s) this seat may lay (all open phases in any-order).
    fn open_phases<'a>(view: &ViewRef<'a>) -> impl Iterator<Item = &'a Phase> + use<'a> {
        Heuristic::open_phases_of(view, view.seat)
    }

    /// The seat after this one (without a division: Petra asks it for every card she weighs).
    fn next_seat(view: &ViewRef) -> Seat {
        if view.seat + 1 >= view.players {
            0
        } else {
            view.seat + 1
        }
    }

    /// The phase(s) seat `s` may lay.
    fn open_phases_of<'a>(
        view: &ViewRef<'a>,
        s: Seat,
    ) -> impl Iterator<Item = &'a Phase> + use<'a> {
        let st: &'a Standing = &view.standings[s];
        let variant: &'a P10Variant = view.variant;
        let any_order = variant.any_order;
        // In order, only its next phase is open: the others are not visited.
        let (from, count) = if any_order {
            (0, usize::MAX)
        } else {
            (st.next_phase, 1)
        };
        variant
            .phases
            .iter()
            .enumerate()
            .skip(from)
            .take(count)
            .filter(move |&(i, _)| {
                if any_order {
                    st.remaining & (1 << i) != 0
                } else {
                    i == st.next_phase
                }
            })
            .map(|(_, p)| p)
    }

    /// Best distance over the open phases.
    pub(super) fn distance(view: &ViewRef, hand: &Tally) -> (u8, u16) {
        if !view.variant.any_order {
            // One open phase: no search for the best of several.
            let next = view.standings[view.seat].next_phase;
            return view
                .variant
                .phases
                .get(next)
                .map_or((0, 0), |p| hand.distance(&p.groups));
        }
        Heuristic::open_phases(view)
            .map(|p| hand.distance(&p.groups))
            .min_by_key(|&(m, w)| (m, std::cmp::Reverse(w)))
            .unwrap_or((0, 0))
    }

    fn hittable(view: &ViewRef, card: Card) -> bool {
        view.laid.iter().flatten().any(|g| g.takes(card))
    }

    /// The cards some laid group takes now, as a mask ([`Group::hit_mask`]), for a decision
    /// that asks about many cards.
    pub(super) fn hit_mask(view: &ViewRef) -> u64 {
        view.laid.iter().flatten().fold(0, |m, g| m | g.hit_mask())
    }

    /// [`Heuristic::hittable`] read from a [`Heuristic::hit_mask`].
    fn in_mask(hits: u64, card: Card) -> bool {
        hits >> card.index() & 1 == 1
    }

    /// Whether taking `card` (from the discard pile or by knocking) helps this seat.
    pub fn wants(view: &ViewRef, card: Card) -> bool {
        if card.is_skip() {
            return false;
        }
        if card.is_wild() {
            return true;
        }
        if view.laid_phase[view.seat].is_some() {
            return Heuristic::hittable(view, card);
        }
        let hand = Tally::of_cards(view.hand);
        let mut more = hand;
        more.add(card);
        Heuristic::distance(view, &more).0 < Heuristic::distance(view, &hand).0
    }

    /// Whether the seat after this one (`next`, [`Heuristic::next_seat`]) visibly wants `card`.
    /// `hits` is the table's [`Heuristic::hit_mask`].
    fn feeds_next(view: &ViewRef, next: Seat, card: Card, hits: u64) -> bool {
        if card.is_wild() {
            return true;
        }
        if view.laid_phase[next].is_some() {
            return Heuristic::in_mask(hits, card);
        }
        card.value()
            .is_some_and(|v| view.known[next].of_value(v) > 0)
    }

    /// Whether the seat after this one (`next`) would want `card`, by `style`'s rule.
    /// `hits` is the table's [`Heuristic::hit_mask`].
    fn feeds_in(view: &ViewRef, next: Seat, card: Card, style: &Style, hits: u64) -> bool {
        if style.feed_rule == 0 || card.is_wild() {
            return Heuristic::feeds_next(view, next, card, hits);
        }
        if style.feed_rule == 3 {
            return view.laid_phase[next].is_some() && Heuristic::in_mask(hits, card);
        }
        if style.feed_rule == 4 {
            return view.laid_phase[next].is_none()
                && Heuristic::feeds_next(view, next, card, hits);
        }
        if view.laid_phase[next].is_some() {
            return Heuristic::in_mask(hits, card);
        }
        if style.feed_rule == 2 && Heuristic::feeds_next(view, next, card, hits) {
            return true;
        }
        let known = view.known[next];
        if known.is_empty() || card.is_skip() {
            return false;
        }
        let mut more = known;
        more.add(card);
        let best = |h: &Counts| {
            Heuristic::open_phases_of(view, next)
                .map(|p| phase_distance(h, &p.groups).0)
                .min()
                .unwrap_or(0)
        };
        best(&more) < best(&known)
    }

    /// The discards in order of preference (best first).
    pub fn ranked_discards(view: &ViewRef) -> Vec<Card> {
        Heuristic::ranked_discards_in(view, &Style::PETRA)
    }

    /// The discards in order of preference (best first) in `style`.
    pub fn ranked_discards_in(view: &ViewRef, style: &Style) -> Vec<Card> {
        let mut scored: Vec<(i64, Card)> = Vec::new();
        let hits = Heuristic::hit_mask(view);
        Heuristic::score_discards(view, style, hits, |key, c, _| scored.push((key, c)));
        scored.sort_unstable();
        scored.into_iter().map(|(_, c)| c).collect()
    }

    /// The first of [`Heuristic::ranked_discards_in`], found without ranking the rest (Petra
    /// asks this at every discard of every playout). `hits` is the table's
    /// [`Heuristic::hit_mask`].
    fn best_discard_in(view: &ViewRef, style: &Style, hits: u64) -> Option<Card> {
        let mut best: Option<(i64, Card)> = None;
        Heuristic::score_discards(view, style, hits, |key, c, _| {
            if best.is_none_or(|b| (key, c) < b) {
                best = Some((key, c));
            }
        });
        best.map(|(_, c)| c)
    }

    /// Each distinct card the hand could discard with its key: the lower, the better, and,
    /// while the seat has not laid, the distance the hand left behind has
    /// ([`Heuristic::distance`]). `hits` is the table's [`Heuristic::hit_mask`].
    pub(super) fn score_discards(
        view: &ViewRef,
        style: &Style,
        hits: u64,
        mut out: impl FnMut(i64, Card, Option<(u8, u16)>),
    ) {
        let hand = Tally::of_cards(view.hand);
        let laid = view.laid_phase[view.seat].is_some();
        let points = view.variant.points;
        let next = Heuristic::next_seat(view);
        let next_open = view.laid_phase[next].is_none();
        let rushed = style.rushed != 0
            && (0..view.players).any(|s| s != view.seat && view.laid_phase[s].is_some());
        // Without a colour group to make, the distance reads only values and jokers: cards of
        // one value leave the same hand behind, so it is asked once per value.
        let by_value = !laid
            && !Heuristic::open_phases(view)
                .any(|p| p.groups.iter().any(|n| matches!(n, Need::Colour(_))));
        let mut per_value: [Option<(u8, u16)>; 13] = [None; 13];
        let mut last = None;
        for &c in view.hand {
            if c.is_skip() || last == Some(c) {
                continue;
            }
            last = Some(c);
            let mut key: i64 = -(i64::from(points.of(c)));
            if rushed {
                key -= style.rushed * i64::from(points.of(c));
            }
            if style.feed_near != 0
                && view.laid_phase[next].is_some()
                && Heuristic::hit_gap(view, c) == 1
            {
                key += style.feed_near;
            }
            if Heuristic::feeds_in(view, next, c, style, hits) {
                key += style.feed;
            } else if style.safe != 0
                && next_open
                && c.value()
                    .is_some_and(|v| view.shunned[next].of_value(v) > 0)
            {
                key -= style.safe;
            }
            if c.is_wild() {
                key += 100_000;
            }
            let mut left = None;
            if !laid {
                let value = c.value().filter(|_| by_value).map(usize::from);
                let (m, w) = match value.and_then(|v| per_value[v]) {
                    Some(known) => known,
                    None => {
                        let mut rest = hand;
                        rest.remove(c);
                        let got = Heuristic::distance(view, &rest);
                        if let Some(v) = value {
                            per_value[v] = Some(got);
                        }
                        got
                    }
                };
                key += i64::from(m) * 1000 - i64::from(w.min(style.ways_cap));
                left = Some((m, w));
            } else if style.hit_gap != 0 {
                key -= style.hit_gap * i64::from(Heuristic::hit_gap(view, c));
            }
            out(key, c, left);
        }
    }

    /// What the seat sees about discarding `c`, for a learned discard order
    /// ([`super::DiscardModel`]): `hand` is its hand counted, `unseen` is [`ViewRef::unseen`],
    /// `hits` the table's `hit_mask`, `m0` the phase distance left by Petra's first discard and
    /// `left` the distance ([`Heuristic::distance`]) left by discarding `c` (both `None` once
    /// the seat laid).
    pub(super) fn discard_features(
        view: &ViewRef,
        hand: &Counts,
        unseen: &Counts,
        hits: u64,
        c: Card,
        m0: Option<u8>,
        left: Option<(u8, u16)>,
    ) -> [f64; FEATURES] {
        let next = Heuristic::next_seat(view);
        let next_laid = f64::from(u8::from(view.laid_phase[next].is_some()));
        let pts = f64::from(view.variant.points.of(c)) / 10.0;
        let near = f64::from(u8::from(view.hand_size(next) <= 3));
        let (dm, w) = match left {
            None => (0.0, 0.0),
            Some((m, w)) => {
                let dm = m0.map_or(0.0, |m0| f64::from(m) - f64::from(m0));
                (dm, f64::from(w.min(150)) / 150.0)
            }
        };
        let feed = f64::from(u8::from(Heuristic::feeds_next(view, next, c, hits)));
        let hittable = f64::from(u8::from(Heuristic::in_mask(hits, c)));
        let gap = f64::from(Heuristic::hit_gap(view, c)) / f64::from(HIT_NEVER);
        let (unseen_v, mine_v, shunned_v, known_v, high, edge) = match c.value() {
            Some(v) => (
                f64::from(unseen.of_value(v)) / 8.0,
                f64::from(hand.of_value(v).saturating_sub(1)) / 3.0,
                f64::from(u8::from(view.shunned[next].of_value(v) > 0)),
                f64::from(u8::from(view.known[next].of_value(v) > 0)),
                f64::from(u8::from(v >= 10)),
                f64::from((v - 1).min(12 - v)) / 5.5,
            ),
            None => (0.0, 0.0, 0.0, 0.0, 0.0, 0.0),
        };
        let colour = match c.colour() {
            Some(k) => {
                view.hand.iter().filter(|h| h.colour() == Some(k)).count() as f64
                    / view.hand.len().max(1) as f64
            }
            None => 0.0,
        };
        let exact = f64::from(unseen.get(c)) / 2.0;
        let late = 1.0 - (view.stock as f64 / 60.0).min(1.0);
        [
            dm,
            w,
            pts,
            pts * next_laid,
            pts * near,
            feed,
            feed * next_laid,
            hittable,
            gap,
            unseen_v,
            mine_v,
            shunned_v,
            high,
            edge,
            colour,
            pts * late,
            known_v,
            exact,
        ]
    }

    /// How many cards must be hit first before `card` could be hit on a laid group (0: now;
    /// `HIT_NEVER` when no laid group can ever take it). A joker or skip answers 0: it is never
    /// discarded for this (a joker weighs 100,000 against it, a skip is played).
    fn hit_gap(view: &ViewRef, card: Card) -> u8 {
        let (Some(v), Some(colour)) = (card.value(), card.colour()) else {
            return 0;
        };
        let mut best = HIT_NEVER;
        for g in view.laid.iter().flatten() {
            let gap = match g.declaration() {
                Declaration::Set(x) => {
                    if x == v {
                        0
                    } else {
                        HIT_NEVER
                    }
                }
                Declaration::Colour(x) => {
                    if x == colour {
                        0
                    } else {
                        HIT_NEVER
                    }
                }
                Declaration::Run(lo, hi) => {
                    if v < lo {
                        lo - v - 1
                    } else if v > hi {
                        v - hi - 1
                    } else {
                        HIT_NEVER
                    }
                }
            };
            best = best.min(gap);
        }
        best
    }

    /// In a stalled round, one of the hand's distinct cards (never a joker or skip) picked by a
    /// hash of what the table shows, which changes from turn to turn, so that the cards kept
    /// back come up too. Deterministic, like the rest of Petra.
    fn stalled_discard(view: &ViewRef) -> Option<Card> {
        let mut cards: Vec<Card> = view
            .hand
            .iter()
            .copied()
            .filter(|c| !c.is_wild() && !c.is_skip())
            .collect();
        cards.dedup();
        if cards.is_empty() {
            return None;
        }
        let mut x = (view.stock as u64)
            ^ (view.discard.len() as u64) << 16
            ^ u64::from(view.round) << 32
            ^ (view.seat as u64) << 48
            ^ u64::from(view.reshuffles) << 56;
        // splitmix64's finaliser.
        x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        x ^= x >> 31;
        cards.get((x % cards.len() as u64) as usize).copied()
    }

    /// The skip targets in order of preference: the seat closest to going out first.
    pub fn ranked_skips(view: &ViewRef) -> Vec<Seat> {
        Heuristic::ranked_skips_in(view, 0)
    }

    /// The skip targets in the order of `rule` (0: Petra's).
    pub fn ranked_skips_in(view: &ViewRef, rule: u8) -> Vec<Seat> {
        let mut t: Vec<Seat> = (0..view.players)
            .filter(|&s| s != view.seat && !view.skips[s])
            .collect();
        let n = view.players;
        // (Unstable with the seat as the last key: the order a stable sort gave, with less
        // code in the browser's module.)
        t.sort_unstable_by_key(|&s| {
            let unlaid = u32::from(view.laid_phase[s].is_none());
            let size = view.hand_size(s) as u32;
            // Most phases first.
            let behind = u32::MAX - view.standings[s].phases_laid;
            let after = ((s + n - view.seat) % n) as u32;
            let key = match rule {
                1 => [behind, unlaid, size, 0],
                2 => [after, unlaid, size, behind],
                3 => [unlaid, behind, size, 0],
                4 => [size, unlaid, behind, 0],
                5 => [n as u32 - after, unlaid, size, behind],
                _ => [unlaid, size, behind, 0],
            };
            (key, s)
        });
        t
    }

    /// Petra's decision, computed from the view's cards (not from `view.choices`, so look-ahead
    /// players can call it on views built without the choice list).
    pub fn choose(view: &ViewRef) -> Action {
        Heuristic::choose_in(view, &Style::PETRA)
    }

    /// The decision in `style` (Petra's but for the discard order).
    pub fn choose_in(view: &ViewRef, style: &Style) -> Action {
        Heuristic::choose_with(view, style, None)
    }

    /// The decision in `style`, with the discard reordered by `model` when there is one.
    pub fn choose_with(view: &ViewRef, style: &Style, model: Option<&DiscardModel>) -> Action {
        let me = view.seat;
        match view.stage {
            Stage::Knock { card, .. } => {
                if Heuristic::wants(view, card) {
                    Action::Knock(card)
                } else {
                    Action::Pass
                }
            }
            Stage::Draw => match view.discard.last() {
                Some(&top) if !top.is_skip() && Heuristic::wants(view, top) => {
                    Action::DrawDiscard(top)
                }
                _ => Action::DrawStock,
            },
            _ => {
                let hand = Counts::of(view.hand);
                // What the laid groups take, for her hit and her discard alike.
                let hits = Heuristic::hit_mask(view);
                if view.laid_phase[me].is_none() {
                    let tally = Tally::of(&hand);
                    // Hardest phase first (most cards), so easy ones stay for later rounds.
                    let mut best: Option<(usize, Action)> = None;
                    for p in Heuristic::open_phases(view) {
                        if best.as_ref().is_some_and(|(n, _)| *n >= p.cards_needed()) {
                            continue;
                        }
                        // The phase distance never overstates what is missing (a colour group
                        // may count a card a run took), so a phase it finds cards short of
                        // cannot be laid; it is often remembered, and cheaper to ask than the
                        // search for a way. `meld` finds a way (with the fewest jokers), or
                        // none when the phase cannot be laid.
                        if tally.distance(&p.groups).0 > 0 {
                            continue;
                        }
                        // The naturals missing at best are as many jokers as a way needs at
                        // least, so `meld` need not look for ways with fewer.
                        let naturals = Tally { jokers: 0, ..tally };
                        let fewest = naturals.distance(&p.groups).0;
                        if let Some(groups) = meld_from(&hand, &p.groups, fewest) {
                            best = Some((
                                p.cards_needed(),
                                Action::Lay {
                                    phase: p.number,
                                    groups,
                                },
                            ));
                        }
                    }
                    if let Some((_, lay)) = best {
                        return lay;
                    }
                } else {
                    // Highest penalty first; a joker last (it may still be hit later); of equal
                    // cards, the first in the hand. Its first group that takes it gets it.
                    let points = view.variant.points;
                    let mut first: Option<((bool, std::cmp::Reverse<u32>), Card)> = None;
                    for &c in view.hand {
                        if c.is_skip() || !Heuristic::in_mask(hits, c) {
                            continue;
                        }
                        let key = (c.is_wild(), std::cmp::Reverse(points.of(c)));
                        if first.is_none_or(|(k, _)| key < k) {
                            first = Some((key, c));
                        }
                    }
                    if let Some((_, c)) = first {
                        for (s, groups) in view.laid.iter().enumerate() {
                            for (gi, g) in groups.iter().enumerate() {
                                if let Some(h) = g.hits_for(c).next() {
                                    return Action::Hit {
                                        seat: s,
                                        group: gi,
                                        card: h,
                                    };
                                }
                            }
                        }
                    }
                }
                if hand.get(Card::SKIP) > 0 {
                    if let Some(&t) = Heuristic::ranked_skips_in(view, style.skip_rule).first() {
                        return Action::Skip(t);
                    }
                    if view.hand.iter().all(|c| c.is_skip()) {
                        return Action::Discard(Card::SKIP);
                    }
                }
                if view.reshuffles >= STALLED
                    && let Some(c) = Heuristic::stalled_discard(view)
                {
                    return Action::Discard(c);
                }
                if let Some(model) = model
                    && let Some(c) = model.discard(view, style, hits)
                {
                    return Action::Discard(c);
                }
                match Heuristic::best_discard_in(view, style, hits) {
                    Some(c) => Action::Discard(c),
                    None => Action::Discard(Card::SKIP),
                }
            }
        }
    }
}

/// A heuristic player of another style (for tuning).
#[derive(Clone, Copy, Debug)]
pub struct Styled(pub Style);

impl Player for Styled {
    fn decide(&mut self, view: &SeatView) -> Action {
        legal(view, Heuristic::choose_in(&view.view_ref(), &self.0))
    }
}

/// `a` when the view lists it among its choices (or lists none), else its first choice: never
/// expected from Petra's rules, but a legal choice beats an illegal one.
pub(super) fn legal(view: &SeatView, a: Action) -> Action {
    if view.choices.is_empty() || view.choices.contains(&a) {
        a
    } else {
        view.choices[0].clone()
    }
}

impl Player for Heuristic {
    fn decide(&mut self, view: &SeatView) -> Action {
        legal(view, Heuristic::choose(&view.view_ref()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::phase10::card::Colour;

    /// A xorshift generator of test inputs from `seed` (not 0).
    fn xorshift(mut x: u64) -> impl FnMut() -> u64 {
        move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        }
    }

    /// The search as first written: every leaf visited, one call each.
    fn plain(needs: &[Need], vc: &mut [u8; 13], cc: &[u8; 4], short: u8, jokers: u8) -> (u8, u16) {
        let Some((&need, rest)) = needs.split_first() else {
            return (short.saturating_sub(jokers), 1);
        };
        let mut best = (u8::MAX, 0u16);
        match need {
            Need::Run(k) => {
                if k == 0 || k > MAX_VALUE {
                    return best;
                }
                for a in 1..=(MAX_VALUE + 1 - k) {
                    let mut taken = [false; 13];
                    let mut s = short;
                    for v in a..a + k {
                        let v = usize::from(v);
                        if vc[v] > 0 {
                            vc[v] -= 1;
                            taken[v] = true;
                        } else {
                            s += 1;
                        }
                    }
                    merge(&mut best, plain(rest, vc, cc, s, jokers));
                    for v in a..a + k {
                        let v = usize::from(v);
                        if taken[v] {
                            vc[v] += 1;
                        }
                    }
                }
            }
            Need::Set(k) => {
                let mut empty = 0u16;
                for v in 1..=usize::from(MAX_VALUE) {
                    if vc[v] == 0 {
                        empty += 1;
                        continue;
                    }
                    let t = vc[v].min(k);
                    vc[v] -= t;
                    merge(&mut best, plain(rest, vc, cc, short + (k - t), jokers));
                    vc[v] += t;
                }
                if empty > 0 {
                    let (m, w) = plain(rest, vc, cc, short + k, jokers);
                    merge(&mut best, (m, w.saturating_mul(empty)));
                }
            }
            Need::Colour(k) => {
                for &n in cc {
                    merge(
                        &mut best,
                        plain(rest, vc, cc, short + k.saturating_sub(n), jokers),
                    );
                }
            }
        }
        best
    }

    #[test]
    fn the_fast_phase_distance_finds_what_visiting_every_leaf_finds() {
        // Hands of 0 to 14 cards from the deck's 108, against every shape of phase the
        // variants use and more (runs, sets and colour groups, one to five groups, sizes from 0
        // to 20, past the values' 12 and the table's 16 slots), jokers included: the answer
        // must be the same, ways and all. The remembered distance of a phase without a run is
        // keyed by how many values hold each count, not by which values: this checks too that
        // hands alike but for the values' names get the same answer.
        let deck = Card::deck();
        let mut next = xorshift(0x9e37_79b9_7f4a_7c15);
        let kinds = |k: u64, n: u8| match k % 3 {
            0 => Need::Set(n),
            1 => Need::Run(n),
            _ => Need::Colour(n),
        };
        let (mut fast_paths, mut renamed_hands) = (0, 0);
        for _ in 0..60_000 {
            // One in 50 with five groups, where ways can saturate (five sets of 0 have up to
            // 13^5 leaves); the rest with one to four.
            let groups = if next().is_multiple_of(50) {
                5
            } else {
                1 + (next() % 4) as usize
            };
            let needs: Vec<Need> = (0..groups)
                .map(|_| kinds(next(), (next() % 21) as u8))
                .collect();
            let mut hand = Counts::default();
            for _ in 0..next() % 15 {
                hand.add(deck[(next() % deck.len() as u64) as usize]);
            }
            let mut vc = [0u8; 13];
            let mut cc = [0u8; 4];
            for v in 1..=MAX_VALUE {
                for (ci, c) in Colour::ALL.iter().enumerate() {
                    let n = hand.get(Card::number(*c, v).unwrap());
                    vc[usize::from(v)] += n;
                    cc[ci] += n;
                }
            }
            let jokers = hand.get(Card::WILD);
            let mut sorted = needs.clone();
            sorted.sort_by_key(|n| match n {
                Need::Run(_) => 0,
                Need::Set(_) => 1,
                Need::Colour(_) => 2,
            });
            if sorted.len() >= 2
                && matches!(sorted[sorted.len() - 1], Need::Set(_))
                && !matches!(sorted[sorted.len() - 2], Need::Colour(_))
            {
                fast_paths += 1;
            }
            let want = plain(&sorted, &mut vc.clone(), &cc, 0, jokers);
            assert_eq!(
                distance_uncached(&needs, &mut vc.clone(), &cc, jokers),
                want,
                "{needs:?} from {hand:?}"
            );
            assert_eq!(
                phase_distance(&hand, &needs),
                want,
                "{needs:?} from {hand:?}"
            );
            // The same counts held by other values: without a run, the same answer and the
            // same remembered one; with a run, another key.
            let mut renamed = vc;
            renamed[1..].rotate_left(1 + (next() % 11) as usize);
            renamed.swap(1 + (next() % 12) as usize, 1 + (next() % 12) as usize);
            let key = cache_key(&vc, &cc, jokers, &needs);
            let renamed_key = cache_key(&renamed, &cc, jokers, &needs);
            if !needs.iter().any(|n| matches!(n, Need::Run(_))) {
                assert_eq!(
                    distance_uncached(&needs, &mut renamed.clone(), &cc, jokers),
                    want,
                    "{needs:?} from {renamed:?}"
                );
                assert_eq!(key, renamed_key, "{needs:?} from {renamed:?}");
                renamed_hands += 1;
            } else if renamed != vc && key.is_some() {
                assert_ne!(key, renamed_key, "{needs:?} from {renamed:?}");
            }
            // The tally counts alike from the counts and from the cards, and a card taken out
            // and put back (as Petra weighs each discard) leaves what counting afresh leaves.
            let tally = Tally::of(&hand);
            let cards = hand.cards();
            assert_eq!(tally, Tally::of_cards(&cards), "{hand:?}");
            if !cards.is_empty() {
                let c = cards[(next() % cards.len() as u64) as usize];
                let mut less = hand;
                less.remove(c);
                let mut t = tally;
                t.remove(c);
                assert_eq!(t, Tally::of(&less), "{hand:?} without {c}");
                assert_eq!(t.distance(&needs), phase_distance(&less, &needs));
                t.add(c);
                assert_eq!(t, tally, "{hand:?}");
            }
        }
        assert!(fast_paths > 5_000, "{fast_paths} hands took the fast path");
        assert!(renamed_hands > 5_000, "{renamed_hands} hands renamed");
        // Ways saturate: five sets of 0 from a hand of every value.
        let mut vc = [2u8; 13];
        vc[0] = 0;
        let needs = [Need::Set(0); 5];
        let got = distance_uncached(&needs, &mut vc.clone(), &[6; 4], 0);
        assert_eq!(got, plain(&needs, &mut vc, &[6; 4], 0, 0));
        assert_eq!(got, (0, u16::MAX));
    }

    #[test]
    fn petra_lays_what_meld_finds_when_told_the_fewest_jokers_a_way_needs() {
        // Petra skips the joker counts below the naturals missing at best: the way found must
        // be meld's own, on random hands (jokers common) and phase shapes.
        use crate::phase10::meld::{meld, meld_from};
        let deck = Card::deck();
        let mut next = xorshift(0x2545_f491_4f6c_dd1d);
        let (mut laid, mut skipped) = (0, 0);
        for _ in 0..20_000 {
            let needs: Vec<Need> = (0..1 + next() % 3)
                .map(|_| {
                    let n = 2 + (next() % 4) as u8;
                    match next() % 3 {
                        0 => Need::Set(n),
                        1 => Need::Run(n),
                        _ => Need::Colour(n),
                    }
                })
                .collect();
            let mut hand = Counts::default();
            for _ in 0..8 + next() % 8 {
                hand.add(deck[(next() % deck.len() as u64) as usize]);
            }
            for _ in 0..next() % 4 {
                hand.add(Card::WILD);
            }
            let tally = Tally::of(&hand);
            if tally.distance(&needs).0 > 0 {
                continue;
            }
            let fewest = Tally { jokers: 0, ..tally }.distance(&needs).0;
            let way = meld(&hand, &needs);
            assert_eq!(meld_from(&hand, &needs, fewest), way, "{needs:?}");
            if way.is_some() {
                laid += 1;
                if fewest > 0 {
                    skipped += 1;
                }
            }
        }
        assert!(laid > 2000 && skipped > 500, "{laid} {skipped}");
    }
}
