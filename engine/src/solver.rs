//! The solver: finds a winning line from a position with perfect information (face-down cards
//! and the stock order are known), proves a position lost, or gives up within its budget.
//!
//! It plays through the engine's own [`Position::play_unchecked`] and [`Position::unplay`], so
//! every variant's rules (discard mode, empty-column dealing, partial last deal, grouping) are
//! the game's, not a copy. The search is staged: a narrow depth-first pass that tries only the
//! two most promising moves of each position (instant on easy deals); then best-first searches
//! between deals of growing size (the largest three times, with different weights), which
//! expand the best-looking positions of each stock level and deal from the best few hundred of
//! them, drawn from several lines, to start the next level; then a complete depth-first pass
//! over every legal move. Positions are identified by a Zobrist hash that ignores column order
//! once the stock is empty (columns are then interchangeable), and a transposition table that
//! grows as it fills, up to a bound, keeps memory bounded. Only the complete pass can prove that
//! a position is lost, and only when it ran to the end with every position it met remembered.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use crate::clock::{Instant, checkpoint};
use crate::game::Game;
use crate::moves::Move;
use crate::position::{Position, Undo};
use crate::variant::DiscardMode;

/// How much work a search may do. The search is deterministic for the same position and node
/// limit; a time limit only decides where it stops.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Most positions to visit (`None`: no limit).
    pub nodes: Option<u64>,
    /// Most wall-clock time (`None`: no limit).
    pub time: Option<Duration>,
    /// Memory for the search in MiB: half for the transposition table, half for the positions
    /// the best-first stages keep.
    pub memory_mib: usize,
}

impl Budget {
    /// A limit on positions visited.
    pub fn nodes(n: u64) -> Budget {
        Budget {
            nodes: Some(n),
            time: None,
            memory_mib: DEFAULT_MEMORY_MIB,
        }
    }

    /// A limit on time.
    pub fn time(t: Duration) -> Budget {
        Budget {
            nodes: None,
            time: Some(t),
            memory_mib: DEFAULT_MEMORY_MIB,
        }
    }
}

/// Memory for one search by default: 256 MiB, half for the transposition table (8 M
/// positions, 64 MiB, and the old half while it grows), half for the best-first stages'
/// positions.
pub const DEFAULT_MEMORY_MIB: usize = 256;

/// What a search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// A winning line from the position.
    Solved(Vec<Move>),
    /// Proved: no sequence of moves wins (the whole reachable space was searched).
    Unwinnable,
    /// The budget ran out (or the search was cancelled) first.
    Unknown,
}

/// A verdict with the work it took.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// The answer.
    pub verdict: Verdict,
    /// Positions visited (moves played), over all stages.
    pub nodes: u64,
    /// Wall-clock time spent.
    pub elapsed: Duration,
}

/// One search stage and its node allowance (`u64::MAX`: the rest of the budget).
enum Stage {
    /// Depth-first, trying the best `width` moves of each position; `prune` skips moves that
    /// cannot help (not safe for proofs).
    DepthFirst {
        width: usize,
        prune: bool,
        nodes: u64,
    },
    /// Best-first search between deals: from each stock level's starting positions, expand
    /// the best positions by [`evaluate`] up to `expansions` times, then deal from the `roots`
    /// best positions found to start the next level.
    Levels {
        roots: usize,
        expansions: usize,
        nodes: u64,
        weights: Weights,
    },
}

impl Stage {
    fn nodes(&self) -> u64 {
        match *self {
            Stage::DepthFirst { nodes, .. } | Stage::Levels { nodes, .. } => nodes,
        }
    }

    fn proves(&self) -> bool {
        matches!(self, Stage::DepthFirst { prune: false, .. })
    }
}

/// The stages in order. The small best-first stages settle most deals; the large ones run to
/// exhaustion in a few million positions each, so several fit in a budget of seconds, and each
/// weighs the position differently: on 4-suit deals every one of them wins some that the others
/// lose (BENCHMARKS.md). The complete pass comes last: on two-deck deals it rarely ends, but it
/// settles small positions and is the only stage that can prove a loss.
const STAGES: [Stage; 8] = [
    Stage::DepthFirst {
        width: 2,
        prune: true,
        nodes: 20_000,
    },
    Stage::Levels {
        roots: 20,
        expansions: 3_000,
        nodes: 5_000_000,
        weights: WEIGHTS,
    },
    Stage::Levels {
        roots: 50,
        expansions: 20_000,
        nodes: 20_000_000,
        weights: WEIGHTS,
    },
    Stage::Levels {
        roots: 150,
        expansions: 60_000,
        nodes: 50_000_000,
        weights: WEIGHTS,
    },
    Stage::Levels {
        roots: 400,
        expansions: 200_000,
        nodes: 200_000_000,
        weights: RUNS_FIRST,
    },
    Stage::Levels {
        roots: 400,
        expansions: 200_000,
        nodes: 200_000_000,
        weights: WEIGHTS,
    },
    Stage::Levels {
        roots: 400,
        expansions: 200_000,
        nodes: 200_000_000,
        weights: FACE_DOWN_FIRST,
    },
    Stage::DepthFirst {
        width: usize::MAX,
        prune: false,
        nodes: u64::MAX,
    },
];

/// Searches for a win from `position`. `cancel`, when set from another thread, stops the search
/// soon after (the verdict is then `Unknown`).
pub fn solve(position: &Position, budget: Budget, cancel: Option<&AtomicBool>) -> Report {
    let start = Instant::now();
    let mut nodes = 0;
    if position.is_won() {
        return Report {
            verdict: Verdict::Solved(Vec::new()),
            nodes,
            elapsed: start.elapsed(),
        };
    }
    let limit = budget.nodes.unwrap_or(u64::MAX);
    let deadline = budget.time.map(|t| start + t);
    let mut table = Table::new(budget.memory_mib);
    let zobrist = Zobrist::new(position.variant().deck_size(), position.columns().len());
    for stage in &STAGES {
        let allowance = stage.nodes().min(limit - nodes);
        let (found, used, stopped, lossy) = match *stage {
            Stage::DepthFirst { width, prune, .. } => {
                let mut search = Search::new(
                    position.clone(),
                    (width, prune),
                    &mut table,
                    &zobrist,
                    allowance,
                    deadline,
                    cancel,
                );
                let found = search.run();
                let lossy = search.lossy || search.table.dropped;
                (found, search.nodes, search.stopped, lossy)
            }
            Stage::Levels {
                roots,
                expansions,
                weights,
                ..
            } => {
                let mut levels = Levels {
                    weights,
                    roots,
                    expansions,
                    // A quarter of the budget for nodes, a quarter for kept positions.
                    memory: budget.memory_mib.max(1) << 18,
                    table: &mut table,
                    zobrist: &zobrist,
                    nodes: 0,
                    allowance,
                    deadline,
                    cancel,
                };
                let found = levels.run(position);
                (found, levels.nodes, true, true)
            }
        };
        nodes += used;
        match found {
            Some(moves) => {
                return Report {
                    verdict: Verdict::Solved(moves),
                    nodes,
                    elapsed: start.elapsed(),
                };
            }
            None if !stopped && stage.proves() && !lossy => {
                return Report {
                    verdict: Verdict::Unwinnable,
                    nodes,
                    elapsed: start.elapsed(),
                };
            }
            None => {}
        }
        let out_of_time = deadline.is_some_and(|d| Instant::now() >= d);
        let cancelled = cancel.is_some_and(|c| c.load(Ordering::Relaxed));
        if nodes >= limit || out_of_time || cancelled {
            break;
        }
        table.clear();
    }
    Report {
        verdict: Verdict::Unknown,
        nodes,
        elapsed: start.elapsed(),
    }
}

/// The first move of a winning line, or else the move the search's ordering likes best.
pub fn hint(game: &Game, budget: Budget, cancel: Option<&AtomicBool>) -> Option<Move> {
    hint_from(
        &solve(game.position(), budget, cancel).verdict,
        game.position(),
    )
}

/// [`hint`]'s answer from a search of `position` that ran elsewhere (off the frame).
pub fn hint_from(verdict: &Verdict, position: &Position) -> Option<Move> {
    match verdict {
        Verdict::Solved(moves) => moves.first().copied(),
        _ => best_move(position),
    }
}

/// A whole winning line from the game's position, if the search finds one within budget.
pub fn auto_complete(
    game: &Game,
    budget: Budget,
    cancel: Option<&AtomicBool>,
) -> Option<Vec<Move>> {
    match solve(game.position(), budget, cancel).verdict {
        Verdict::Solved(moves) => Some(moves),
        _ => None,
    }
}

/// Whether the game can still be won: `Solved`, `Unwinnable` or `Unknown`.
pub fn winnable(game: &Game, budget: Budget, cancel: Option<&AtomicBool>) -> Verdict {
    solve(game.position(), budget, cancel).verdict
}

/// A deal proved winnable: the first seed from `seeds` whose deal the solver wins within
/// `budget`, with its solution and how many seeds were tried. `None` if `seeds` ran out or the
/// search was cancelled.
pub fn new_winnable_deal(
    variant: &std::sync::Arc<crate::variant::Variant>,
    numbering: crate::deal::Numbering,
    seeds: impl IntoIterator<Item = u64>,
    budget: Budget,
    cancel: Option<&AtomicBool>,
) -> Option<(u64, Vec<Move>, usize)> {
    for (tried, seed) in seeds.into_iter().enumerate() {
        if cancel.is_some_and(|c| c.load(Ordering::Relaxed)) {
            return None;
        }
        let Ok(pos) = crate::deal::deal(variant, seed, numbering, variant.discard) else {
            continue;
        };
        if let Verdict::Solved(moves) = solve(&pos, budget, cancel).verdict {
            return Some((seed, moves, tried + 1));
        }
    }
    None
}

/// The legal move the search would try first here.
pub fn best_move(position: &Position) -> Option<Move> {
    let mut moves = Vec::new();
    position.legal_moves_into(&mut moves);
    moves
        .iter()
        .enumerate()
        .max_by_key(|&(i, &m)| (score_move(position, m, false), std::cmp::Reverse(i)))
        .map(|(_, &m)| m)
}

/// How promising a move looks: complete a run > turn up a face-down card > build in suit >
/// empty a column > other > move into an empty column > break a run > deal. `None` when
/// `prune` is set and the move cannot help.
fn score_move_opt(pos: &Position, mv: Move, prune: bool) -> Option<i32> {
    match mv {
        Move::Discard { .. } => Some(100_000),
        Move::Deal => Some(-100_000 + pos.stock_len() as i32),
        Move::Transfer { from, to, count } => {
            let src = &pos.columns()[usize::from(from)];
            let dst = &pos.columns()[usize::from(to)];
            let k = usize::from(count);
            let cards = src.cards();
            let rest = cards.len() - k;
            let bottom = cards[rest];
            let reveals = rest > 0 && rest == src.face_down();
            let empties = rest == 0;
            let breaks = rest > src.face_down() && pos.links(cards[rest - 1], bottom);
            let mut score = 0;
            match dst.top() {
                Some(onto) => {
                    if pos.links(onto, bottom) {
                        let dest_run = pos.movable_run(usize::from(to));
                        let grown = dest_run + k;
                        if grown >= 13 {
                            score += 50_000;
                        }
                        // Splitting a run only to build the same run elsewhere gains nothing.
                        if breaks && grown <= pos.movable_run(usize::from(from)) && prune {
                            return None;
                        }
                        score += 2_000 + 20 * grown as i32;
                    } else if breaks {
                        if prune {
                            return None;
                        }
                        score -= 3_000;
                    }
                }
                None => {
                    // Moving a whole column into an empty one changes nothing that matters.
                    if empties && src.face_down() == 0 && prune {
                        return None;
                    }
                    if breaks && prune {
                        return None;
                    }
                    score -= 1_000;
                }
            }
            if reveals {
                score += 10_000 - 50 * src.face_down() as i32;
            }
            if empties {
                score += 1_500;
            }
            Some(score)
        }
    }
}

fn score_move(pos: &Position, mv: Move, prune: bool) -> i32 {
    score_move_opt(pos, mv, prune).unwrap_or(i32::MIN)
}

/// Random 64-bit keys from a fixed seed (splitmix64), so hashes are the same on every run.
struct Zobrist {
    /// Key for (height in column, card and face) pairs: `height * 104 + index * 2 + up`.
    card: Vec<u64>,
    /// Key per column, mixed in while the stock still deals to columns in order.
    column: Vec<u64>,
    /// Key per stock size.
    stock: Vec<u64>,
}

fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 33)).wrapping_mul(0xff51_afd7_ed55_8ccd);
    z = (z ^ (z >> 33)).wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    z ^ (z >> 33)
}

impl Zobrist {
    fn new(deck: usize, columns: usize) -> Zobrist {
        let mut s = 0x5eed_a4ac_4e00_0001;
        Zobrist {
            card: (0..deck * 104).map(|_| splitmix(&mut s)).collect(),
            column: (0..columns).map(|_| splitmix(&mut s)).collect(),
            stock: (0..=deck).map(|_| splitmix(&mut s)).collect(),
        }
    }

    fn column_hash(&self, col: &crate::position::Column) -> u64 {
        let down = col.face_down();
        let mut h = 0;
        for (i, card) in col.cards().iter().enumerate() {
            h ^= self.card[i * 104 + card.index() * 2 + usize::from(i >= down)];
        }
        h
    }

    /// The position's hash from its column hashes: column order counts only while the stock
    /// still deals to columns in order.
    fn combine(&self, stock: usize, columns: impl Iterator<Item = u64>) -> u64 {
        columns.enumerate().fold(self.stock[stock], |h, (c, ch)| {
            h.wrapping_add(self.term(stock, c, ch))
        })
    }

    /// Column `c`'s part of the position's hash, from its column hash `ch`: the position's hash
    /// is a sum of these, so a move that changes two columns changes two terms.
    fn term(&self, stock: usize, c: usize, ch: u64) -> u64 {
        mix(if stock > 0 { ch ^ self.column[c] } else { ch })
    }

    fn hash(&self, pos: &Position) -> u64 {
        self.combine(
            pos.stock_len(),
            pos.columns().iter().map(|c| self.column_hash(c)),
        )
    }
}

/// The evaluation's weights per face-down card and per squared suited-run length.
#[derive(Clone, Copy, Debug)]
struct Weights {
    face_down: i32,
    run: i32,
}

/// The weights the best-first stages use first.
const WEIGHTS: Weights = Weights {
    face_down: 150,
    run: 24,
};

/// Weights that favour building long runs over turning cards up.
const RUNS_FIRST: Weights = Weights {
    face_down: 80,
    run: 40,
};

/// Weights that favour turning cards up over building runs.
const FACE_DOWN_FIRST: Weights = Weights {
    face_down: 300,
    run: 14,
};

/// How good a position looks, for the best-first stages: runs completed, cards turned up, empty columns and
/// long suited runs count for it (a run's worth grows with the square of its length, since long
/// runs are what complete); cards out of sequence count against it.
fn evaluate(pos: &Position, w: Weights) -> i32 {
    let empty_worth = empty_column_worth(pos);
    5_000 * pos.foundation().len() as i32
        + (0..pos.columns().len())
            .map(|c| column_value(pos, c, empty_worth, w))
            .sum::<i32>()
}

fn empty_column_worth(pos: &Position) -> i32 {
    if pos.stock_len() == 0 { 400 } else { 250 }
}

/// One column's part of [`evaluate`].
fn column_value(pos: &Position, c: usize, empty_worth: i32, w: Weights) -> i32 {
    let col = &pos.columns()[c];
    if col.is_empty() {
        return empty_worth;
    }
    let mut e = -w.face_down * col.face_down() as i32;
    let up = col.face_up();
    let mut run = 1i32;
    for pair in up.windows(2) {
        if pos.links(pair[0], pair[1]) {
            run += 1;
            continue;
        }
        e += w.run * run * run;
        run = 1;
        e += if pair[0].rank_value() == pair[1].rank_value() + 1 {
            10
        } else {
            -50
        };
    }
    e += w.run * run * run;
    if col.face_down() == 0 && up[0].rank_value() == 13 && run as usize == up.len() {
        e += 200;
    }
    if pos.discard() == DiscardMode::Manual && run >= 13 && pos.has_completed_run(c) {
        e += 4_000;
    }
    e
}

/// A position reached in a [`Levels`] search.
struct Node {
    /// The position in [`Position::encode`] form, kept while the node may still be expanded
    /// or dealt from.
    pos: Option<Box<[u8]>>,
    parent: u32,
    mv: Move,
    eval: i32,
}

/// Best-first search between deals (see [`Stage::Levels`]).
struct Levels<'a> {
    weights: Weights,
    roots: usize,
    expansions: usize,
    /// Bytes for nodes and for kept positions, each.
    memory: usize,
    table: &'a mut Table,
    zobrist: &'a Zobrist,
    nodes: u64,
    allowance: u64,
    deadline: Option<Instant>,
    cancel: Option<&'a AtomicBool>,
}

impl Levels<'_> {
    fn stop(&self) -> bool {
        checkpoint();
        self.nodes >= self.allowance
            || self.deadline.is_some_and(|d| Instant::now() >= d)
            || self.cancel.is_some_and(|c| c.load(Ordering::Relaxed))
    }

    /// The position of node `i`, made from its parent's (kept while the level lasts) if need be.
    /// Sets `scratch` to node `i`'s position, made from its parent's if need be (and then
    /// kept when `keep`). `None` if neither is kept.
    fn load(
        arena: &mut [Node],
        i: u32,
        scratch: &mut Position,
        buf: &mut Vec<u8>,
        keep: bool,
    ) -> Option<()> {
        let node = &arena[i as usize];
        if let Some(bytes) = &node.pos {
            scratch.decode_from(bytes);
            return Some(());
        }
        scratch.decode_from(arena[node.parent as usize].pos.as_deref()?);
        scratch.play_unchecked(node.mv);
        if keep {
            buf.clear();
            scratch.encode(buf);
            arena[i as usize].pos = Some(buf.as_slice().into());
        }
        Some(())
    }

    /// Keeps only the nodes on the paths to `roots` (renumbered in order, root first) and
    /// the positions of `roots` themselves, so memory is bounded by one level.
    fn compact(arena: &mut Vec<Node>, roots: &mut [u32]) {
        let mut keep = vec![false; arena.len()];
        keep[0] = true;
        for &r in roots.iter() {
            let mut at = r as usize;
            while !keep[at] {
                keep[at] = true;
                at = arena[at].parent as usize;
            }
        }
        let mut new_index = vec![0u32; arena.len()];
        let mut kept = Vec::new();
        for (i, node) in arena.drain(..).enumerate() {
            if keep[i] {
                new_index[i] = kept.len() as u32;
                kept.push(Node {
                    pos: None,
                    parent: new_index[node.parent as usize],
                    ..node
                });
            }
        }
        for r in roots.iter_mut() {
            *r = new_index[*r as usize];
        }
        *arena = kept;
    }

    fn line(arena: &[Node], mut at: usize) -> Vec<Move> {
        let mut moves = Vec::new();
        while at != 0 {
            moves.push(arena[at].mv);
            at = arena[at].parent as usize;
        }
        moves.reverse();
        moves
    }

    fn run(&mut self, root: &Position) -> Option<Vec<Move>> {
        use std::cmp::Reverse;
        use std::collections::BinaryHeap;
        let _ = self.table.insert(self.zobrist.hash(root));
        let node_bytes = std::mem::size_of::<Node>();
        let mut buf = Vec::with_capacity(1024);
        root.encode(&mut buf);
        // A kept position: its encoding with the allocator's overhead; the foundation can grow.
        let position_bytes = buf.len() + 13 * root.variant().run_count() + 32;
        // Each node also has a heap entry and two places in level lists; vectors may hold up to
        // twice what they use while they grow.
        let max_nodes = self.memory / (2 * (node_bytes + 16));
        let expansions = self.expansions.min(self.memory / position_bytes);
        let mut scratch = root.clone();
        let mut arena = vec![Node {
            pos: Some(buf.as_slice().into()),
            parent: 0,
            mv: Move::Deal,
            eval: evaluate(root, self.weights),
        }];
        let mut level: Vec<u32> = vec![0];
        let mut legal = Vec::new();
        let (mut hashes, mut values) = (Vec::new(), Vec::new());
        let mut origin: Vec<u32> = Vec::new();
        loop {
            // Best first within this stock level; ties go to the earlier node.
            let mut heap: BinaryHeap<(i32, Reverse<u32>)> = level
                .iter()
                .map(|&i| (arena[i as usize].eval, Reverse(i)))
                .collect();
            let mut seen_here: Vec<u32> = level.clone();
            // Which of this level's starting positions each node descends from.
            origin.clear();
            origin.resize(arena.len(), u32::MAX);
            for &r in &level {
                origin[r as usize] = r;
            }
            let mut expanded = 0;
            while let Some((_, Reverse(i))) = heap.pop() {
                if expanded >= expansions || arena.len() >= max_nodes {
                    break;
                }
                if self.stop() {
                    return None;
                }
                expanded += 1;
                if Self::load(&mut arena, i, &mut scratch, &mut buf, true).is_none() {
                    continue;
                }
                let pos = &mut scratch;
                pos.legal_moves_into(&mut legal);
                if pos.discard() == DiscardMode::Manual
                    && let Some(d) = legal.iter().position(|m| matches!(m, Move::Discard { .. }))
                {
                    legal.swap(0, d);
                    legal.truncate(1);
                }
                // A move changes at most two columns: keep each column's hash and value, and
                // work out only the changed ones for every child.
                let empty_worth = empty_column_worth(pos);
                hashes.clear();
                values.clear();
                for c in 0..pos.columns().len() {
                    hashes.push(self.zobrist.column_hash(&pos.columns()[c]));
                    values.push(column_value(pos, c, empty_worth, self.weights));
                }
                let runs = pos.foundation().len();
                let base = 5_000 * runs as i32 + values.iter().sum::<i32>();
                let stock = pos.stock_len();
                let parent_hash = self.zobrist.combine(stock, hashes.iter().copied());
                for &m in &legal {
                    let (f, t) = match m {
                        Move::Transfer { from, to, .. } => (usize::from(from), usize::from(to)),
                        Move::Discard { column } => (usize::from(column), usize::from(column)),
                        Move::Deal => continue,
                    };
                    if score_move_opt(pos, m, true).is_none() {
                        continue;
                    }
                    self.nodes += 1;
                    let undo = pos.play_unchecked(m);
                    if pos.is_won() {
                        let mut moves = Self::line(&arena, i as usize);
                        moves.push(m);
                        return Some(moves);
                    }
                    // Transfers and discards leave the stock as it is: only the changed
                    // columns' terms of the hash change.
                    let z = self.zobrist;
                    let mut hash = parent_hash
                        .wrapping_sub(z.term(stock, f, hashes[f]))
                        .wrapping_add(z.term(stock, f, z.column_hash(&pos.columns()[f])));
                    if t != f {
                        hash = hash
                            .wrapping_sub(z.term(stock, t, hashes[t]))
                            .wrapping_add(z.term(stock, t, z.column_hash(&pos.columns()[t])));
                    }
                    debug_assert_eq!(hash, z.hash(pos));
                    if self.table.insert(hash) == Some(true) {
                        let mut eval = base + 5_000 * (pos.foundation().len() as i32 - runs as i32)
                            - values[f]
                            + column_value(pos, f, empty_worth, self.weights);
                        if t != f {
                            eval += column_value(pos, t, empty_worth, self.weights) - values[t];
                        }
                        debug_assert_eq!(eval, evaluate(pos, self.weights));
                        // The child's position is made again from its parent's only if it
                        // is expanded: most never are.
                        arena.push(Node {
                            pos: None,
                            parent: i,
                            mv: m,
                            eval,
                        });
                        origin.push(origin[i as usize]);
                        let id = (arena.len() - 1) as u32;
                        heap.push((eval, Reverse(id)));
                        seen_here.push(id);
                    }
                    pos.unplay(&undo);
                }
            }
            // Deal from the best positions of this level that may deal.
            let mut candidates = seen_here.clone();
            candidates.sort_by_key(|&i| (Reverse(arena[i as usize].eval), i));
            let mut next = Vec::with_capacity(self.roots);
            let mut next_hashes = Vec::with_capacity(self.roots);
            let mut dealt = 0;
            // No one starting position may supply more than a quarter of the next level's,
            // so the search keeps several lines alive.
            let cap = (self.roots / 4).max(1);
            let mut per_origin: std::collections::HashMap<u32, usize> =
                std::collections::HashMap::new();
            for &i in &candidates {
                if dealt == self.roots {
                    break;
                }
                let from = per_origin.entry(origin[i as usize]).or_insert(0);
                if *from >= cap {
                    continue;
                }
                if Self::load(&mut arena, i, &mut scratch, &mut buf, false).is_none() {
                    continue;
                }
                let pos = &mut scratch;
                if pos.check(Move::Deal).is_err() {
                    continue;
                }
                dealt += 1;
                *from += 1;
                self.nodes += 1;
                pos.play_unchecked(Move::Deal);
                if pos.is_won() {
                    let mut moves = Self::line(&arena, i as usize);
                    moves.push(Move::Deal);
                    return Some(moves);
                }
                let hash = self.zobrist.hash(pos);
                if self.table.insert(hash) == Some(true) {
                    next_hashes.push(hash);
                    let eval = evaluate(pos, self.weights);
                    buf.clear();
                    pos.encode(&mut buf);
                    arena.push(Node {
                        pos: Some(buf.as_slice().into()),
                        parent: i,
                        mv: Move::Deal,
                        eval,
                    });
                    origin.push(u32::MAX);
                    next.push((arena.len() - 1) as u32);
                }
            }
            if next.is_empty() {
                return None;
            }
            // No position of this level can come again (the stock is smaller from now on):
            // the table keeps only the next level's.
            self.table.clear();
            for &h in &next_hashes {
                let _ = self.table.insert(h);
            }
            let roots: Vec<Option<Box<[u8]>>> =
                next.iter().map(|&i| arena[i as usize].pos.take()).collect();
            Self::compact(&mut arena, &mut next);
            for (&i, pos) in next.iter().zip(roots) {
                arena[i as usize].pos = pos;
            }
            level = next;
        }
    }
}

/// An open-addressing set of position hashes that starts small and doubles as it fills, up to
/// what the memory budget allows. A search that visits few positions then touches little memory
/// (a fresh page costs a fault: a 20,000-position search spent most of its time faulting in a
/// table allocated whole), and the one that visits many gets the whole allowance.
struct Table {
    slots: Vec<u64>,
    mask: usize,
    /// Hashes held.
    len: usize,
    /// The most slots it may grow to.
    max_slots: usize,
    /// Some hash found no room while the table grew: it is no longer remembered.
    dropped: bool,
}

/// Slots a table starts with (512 KiB).
const FIRST_SLOTS: usize = 1 << 16;

/// Probes before an insert gives up.
const PROBES: usize = 32;

impl Table {
    /// A table within `memory_mib / 2` MiB, counting the old and the new slots while it grows
    /// (one and a half times its final size).
    fn new(memory_mib: usize) -> Table {
        let bytes = memory_mib.max(1) * (1 << 20) / 2;
        Table::empty(((bytes * 2 / 3 / 8 + 1).next_power_of_two() / 2).max(1024))
    }

    /// An empty table at its first size that may grow to `max_slots`.
    fn empty(max_slots: usize) -> Table {
        let first = FIRST_SLOTS.min(max_slots);
        Table {
            slots: vec![0; first],
            mask: first - 1,
            len: 0,
            max_slots,
            dropped: false,
        }
    }

    /// Forgets every hash and gives back the memory grown into.
    fn clear(&mut self) {
        *self = Table::empty(self.max_slots);
    }

    fn place(slots: &mut [u64], mask: usize, h: u64) -> Option<bool> {
        let mut i = (h as usize) & mask;
        for _ in 0..PROBES {
            let slot = &mut slots[i];
            if *slot == h {
                return Some(false);
            }
            if *slot == 0 {
                *slot = h;
                return Some(true);
            }
            i = (i + 1) & mask;
        }
        None
    }

    fn grow(&mut self) {
        let size = self.slots.len() * 2;
        let mut slots = vec![0; size];
        for &h in self.slots.iter().filter(|&&h| h != 0) {
            if Self::place(&mut slots, size - 1, h).is_none() {
                self.dropped = true;
                self.len -= 1;
            }
        }
        self.slots = slots;
        self.mask = size - 1;
    }

    /// Inserts `h`; `Some(true)` if new, `Some(false)` if present, `None` if no room nearby.
    fn insert(&mut self, h: u64) -> Option<bool> {
        if self.len * 2 >= self.slots.len() && self.slots.len() < self.max_slots {
            self.grow();
        }
        let found = Self::place(&mut self.slots, self.mask, h | 1); // 0 marks an empty slot
        if found == Some(true) {
            self.len += 1;
        }
        found
    }
}

struct Frame {
    /// The move that led here (none at the root).
    undo: Option<Undo>,
    /// This position's moves to try, in `Search::children[start..end]`.
    start: usize,
    end: usize,
    next: usize,
}

struct Search<'a> {
    pos: Position,
    /// Moves tried per position, and whether useless moves are skipped.
    stage: (usize, bool),
    table: &'a mut Table,
    zobrist: &'a Zobrist,
    /// Each column's term of the position's hash ([`Zobrist::term`]), and their sum.
    col_term: Vec<u64>,
    term_sum: u64,
    nodes: u64,
    allowance: u64,
    deadline: Option<Instant>,
    cancel: Option<&'a AtomicBool>,
    /// The budget or a cancel stopped the search.
    stopped: bool,
    /// Some position could not be remembered: exhausting the search proves nothing.
    lossy: bool,
    stack: Vec<Frame>,
    children: Vec<Move>,
    legal: Vec<Move>,
    scored: Vec<(i32, u32, Move)>,
}

impl<'a> Search<'a> {
    fn new(
        pos: Position,
        stage: (usize, bool),
        table: &'a mut Table,
        zobrist: &'a Zobrist,
        allowance: u64,
        deadline: Option<Instant>,
        cancel: Option<&'a AtomicBool>,
    ) -> Search<'a> {
        let n = pos.columns().len();
        let mut s = Search {
            pos,
            stage,
            table,
            zobrist,
            col_term: vec![0; n],
            term_sum: 0,
            nodes: 0,
            allowance,
            deadline,
            cancel,
            stopped: false,
            lossy: false,
            stack: Vec::with_capacity(1024),
            children: Vec::with_capacity(1 << 14),
            legal: Vec::with_capacity(256),
            scored: Vec::with_capacity(256),
        };
        for c in 0..n {
            s.rehash_column(c);
        }
        s
    }

    fn rehash_column(&mut self, c: usize) {
        let ch = self.zobrist.column_hash(&self.pos.columns()[c]);
        let term = self.zobrist.term(self.pos.stock_len(), c, ch);
        self.term_sum = self
            .term_sum
            .wrapping_sub(self.col_term[c])
            .wrapping_add(term);
        self.col_term[c] = term;
    }

    fn rehash_after(&mut self, undo: &Undo) {
        match undo.mv {
            Move::Transfer { from, to, .. } => {
                self.rehash_column(usize::from(from));
                self.rehash_column(usize::from(to));
            }
            // A deal changes the stock, and so every column's term.
            Move::Deal => {
                for c in 0..self.col_term.len() {
                    self.rehash_column(c);
                }
            }
            Move::Discard { column } => self.rehash_column(usize::from(column)),
        }
    }

    fn hash(&self) -> u64 {
        let h = self.zobrist.stock[self.pos.stock_len()].wrapping_add(self.term_sum);
        debug_assert_eq!(h, self.zobrist.hash(&self.pos));
        h
    }

    /// Fills `children` with the moves to try from the current position, best first.
    fn expand(&mut self) -> (usize, usize) {
        let start = self.children.len();
        self.pos.legal_moves_into(&mut self.legal);
        let stock_empty = self.pos.stock_len() == 0;
        let manual = self.pos.discard() == DiscardMode::Manual;
        // A completed run is taken at once in the heuristic stages.
        if manual
            && self.stage.1
            && let Some(&d) = self
                .legal
                .iter()
                .find(|m| matches!(m, Move::Discard { .. }))
        {
            self.children.push(d);
            return (start, self.children.len());
        }
        self.scored.clear();
        let mut first_empty_target: Option<u8> = None;
        for (i, &m) in self.legal.iter().enumerate() {
            if let Move::Transfer { to, .. } = m
                && self.pos.columns()[usize::from(to)].is_empty()
            {
                // Empty columns are interchangeable once nothing more is dealt (and always
                // in the heuristic stages): use the first one only.
                let first = *first_empty_target.get_or_insert(to);
                if to != first && (stock_empty || self.stage.1) {
                    continue;
                }
            }
            if let Some(score) = score_move_opt(&self.pos, m, self.stage.1) {
                self.scored.push((score, i as u32, m));
            }
        }
        self.scored
            .sort_unstable_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        let take = self.scored.len().min(self.stage.0);
        self.children
            .extend(self.scored[..take].iter().map(|&(_, _, m)| m));
        (start, self.children.len())
    }

    fn out_of_budget(&mut self) -> bool {
        if self.nodes >= self.allowance {
            return true;
        }
        if self.nodes.is_multiple_of(1024) {
            checkpoint();
            if self.deadline.is_some_and(|d| Instant::now() >= d) {
                return true;
            }
            if self.cancel.is_some_and(|c| c.load(Ordering::Relaxed)) {
                return true;
            }
        }
        false
    }

    fn run(&mut self) -> Option<Vec<Move>> {
        let root = self.hash();
        if self.table.insert(root).is_none() {
            self.lossy = true;
        }
        let (start, end) = self.expand();
        self.stack.push(Frame {
            undo: None,
            start,
            end,
            next: start,
        });
        while let Some(frame) = self.stack.last_mut() {
            if frame.next == frame.end {
                let frame = self.stack.pop().unwrap_or_else(|| unreachable!());
                self.children.truncate(frame.start);
                if let Some(undo) = frame.undo {
                    self.pos.unplay(&undo);
                    self.rehash_after(&undo);
                }
                continue;
            }
            let mv = self.children[frame.next];
            frame.next += 1;
            if self.out_of_budget() {
                self.stopped = true;
                return None;
            }
            self.nodes += 1;
            let undo = self.pos.play_unchecked(mv);
            self.rehash_after(&undo);
            if self.pos.is_won() {
                let mut line: Vec<Move> = self
                    .stack
                    .iter()
                    .filter_map(|f| f.undo.map(|u| u.mv))
                    .collect();
                line.push(mv);
                return Some(line);
            }
            match self.table.insert(self.hash()) {
                Some(true) => {}
                found => {
                    if found.is_none() {
                        self.lossy = true;
                    }
                    self.pos.unplay(&undo);
                    self.rehash_after(&undo);
                    continue;
                }
            }
            let (start, end) = self.expand();
            self.stack.push(Frame {
                undo: Some(undo),
                start,
                end,
                next: start,
            });
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_grows_keeps_every_hash_and_shrinks_when_cleared() {
        let mut table = Table::new(4);
        // 4 MiB: 2 MiB for the table counting a growth step, so 128 Ki slots at most.
        assert_eq!(table.max_slots, 1 << 17);
        assert_eq!(table.slots.len(), FIRST_SLOTS);
        let mut s = 7;
        let hashes: Vec<u64> = (0..60_000).map(|_| splitmix(&mut s)).collect();
        for &h in &hashes {
            assert_eq!(table.insert(h), Some(true));
        }
        assert_eq!(table.slots.len(), 1 << 17);
        assert_eq!(table.len, 60_000);
        assert!(!table.dropped);
        for &h in &hashes {
            assert_eq!(table.insert(h), Some(false));
        }
        table.clear();
        assert_eq!((table.slots.len(), table.len), (FIRST_SLOTS, 0));
        assert_eq!(table.insert(hashes[0]), Some(true));
    }

    #[test]
    fn a_full_table_refuses_instead_of_growing_past_its_budget() {
        let mut table = Table::new(1);
        let max = table.max_slots;
        let mut s = 11;
        let mut refused = 0;
        for _ in 0..max {
            if table.insert(splitmix(&mut s)).is_none() {
                refused += 1;
            }
        }
        assert_eq!(table.slots.len(), max);
        assert!(
            refused > 0,
            "a table as full as its slots must refuse some hashes"
        );
    }
}
