//! Boosted regression trees: a small gradient-boosting fitter (squared loss, features cut into
//! bins) and the forest it makes, written as text so that a fitted forest can be kept as data
//! beside the code. Trees are grown either best split first, or oblivious: one split per level,
//! shared by every node of the level, so that a tree of depth `d` is read with `d` comparisons
//! and no branches (the leaf's number is the comparisons' bits). Deterministic: the same samples
//! and settings fit the same forest.

use std::fmt::Write as _;

/// Where a node's children are, or its value when it is a leaf.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Node {
    /// `x[feature] <= threshold` goes to the node right after this one, otherwise to `right`.
    Split {
        feature: u16,
        threshold: f32,
        right: u32,
    },
    /// What the tree adds.
    Leaf(f32),
}

/// A fitted forest: a base value plus what each tree adds.
#[derive(Clone, Debug, PartialEq)]
pub struct Forest {
    base: f64,
    features: usize,
    shape: Shape,
}

/// How a forest's trees are kept.
#[derive(Clone, Debug, PartialEq)]
enum Shape {
    /// Trees grown best split first.
    Nodes {
        /// Every tree's nodes in preorder, one list after the other.
        nodes: Vec<Node>,
        /// Where each tree starts in `nodes`.
        roots: Vec<u32>,
    },
    /// Oblivious trees of one depth.
    Oblivious {
        depth: usize,
        /// Per tree, per level: the feature and the threshold it is compared with (a value
        /// above it sets the level's bit of the leaf's number).
        splits: Vec<(usize, f64)>,
        /// Per tree, its `2^depth` leaves' values.
        values: Vec<f32>,
    },
}

/// How a forest is fitted.
#[derive(Clone, Copy, Debug)]
pub struct FitSettings {
    /// Trees.
    pub trees: usize,
    /// Leaves per tree at most.
    pub leaves: usize,
    /// Samples per leaf at least.
    pub min_leaf: usize,
    /// What each tree's values are scaled by.
    pub shrink: f64,
    /// Bins per feature at most (at most 256).
    pub bins: usize,
    /// 0: trees grown best split first, up to `leaves` leaves with `min_leaf` samples each.
    /// Otherwise oblivious trees of this depth (at most 10): `leaves` is not used, and each
    /// leaf's value is shrunk toward zero as if it held `min_leaf` (at least 1) more samples at zero.
    pub depth: usize,
}

impl Default for FitSettings {
    fn default() -> FitSettings {
        FitSettings {
            trees: 300,
            leaves: 31,
            min_leaf: 50,
            shrink: 0.05,
            bins: 64,
            depth: 0,
        }
    }
}

/// A leaf while a tree grows: its samples and its best split, if any.
struct Growing {
    samples: Vec<u32>,
    sum: f64,
    split: Option<(f64, usize, u8)>,
}

impl Forest {
    /// The forest's prediction for `x` (at least as many values as it was fitted with).
    pub fn predict(&self, x: &[f64]) -> f64 {
        let mut sum = self.base;
        match &self.shape {
            Shape::Nodes { nodes, roots } => {
                for &root in roots {
                    let mut i = root as usize;
                    loop {
                        match nodes[i] {
                            Node::Leaf(v) => {
                                sum += f64::from(v);
                                break;
                            }
                            Node::Split {
                                feature,
                                threshold,
                                right,
                            } => {
                                i = if x[usize::from(feature)] <= f64::from(threshold) {
                                    i + 1
                                } else {
                                    right as usize
                                };
                            }
                        }
                    }
                }
            }
            Shape::Oblivious {
                depth,
                splits,
                values,
            } => {
                let x = &x[..self.features];
                // The usual depths as constants, so that their levels are unrolled.
                sum = match *depth {
                    4 => oblivious(sum, x, 4, splits, values),
                    5 => oblivious(sum, x, 5, splits, values),
                    6 => oblivious(sum, x, 6, splits, values),
                    d => oblivious(sum, x, d, splits, values),
                };
            }
        }
        sum
    }

    /// Features a sample has.
    pub fn features(&self) -> usize {
        self.features
    }

    /// Trees.
    pub fn trees(&self) -> usize {
        match &self.shape {
            Shape::Nodes { roots, .. } => roots.len(),
            Shape::Oblivious { depth, values, .. } => values.len() >> depth,
        }
    }

    /// Fits a forest to `rows` samples of `features` values each (`x`, row after row) and their
    /// targets `y`.
    pub fn fit(x: &[f64], y: &[f64], features: usize, settings: &FitSettings) -> Forest {
        let rows = y.len();
        assert_eq!(x.len(), rows * features, "one row of features per target");
        let bins = settings.bins.clamp(2, 256);
        // Per feature, the cut points: a value goes to the first bin whose cut is >= it. Cuts
        // are kept as `f32`, as the forest keeps its thresholds, so that a sample goes the same
        // way when fitted as when the forest reads it.
        let cuts: Vec<Vec<f64>> = (0..features)
            .map(|f| {
                let mut v: Vec<f64> = (0..rows).map(|r| x[r * features + f]).collect();
                v.sort_by(f64::total_cmp);
                v.dedup();
                let mut c: Vec<f64> = if v.len() <= bins {
                    v.windows(2).map(|w| (w[0] + w[1]) / 2.0).collect()
                } else {
                    (1..bins)
                        .map(|k| {
                            let i = k * v.len() / bins;
                            (v[i - 1] + v[i]) / 2.0
                        })
                        .collect()
                };
                for cut in &mut c {
                    *cut = f64::from(*cut as f32);
                }
                c.dedup();
                c
            })
            .collect();
        let binned: Vec<u8> = (0..rows * features)
            .map(|i| {
                let c = &cuts[i % features];
                c.partition_point(|&cut| cut < x[i]) as u8
            })
            .collect();
        let base = if rows == 0 {
            0.0
        } else {
            y.iter().sum::<f64>() / rows as f64
        };
        let mut pred = vec![base; rows];
        let mut residual = vec![0.0; rows];
        if settings.depth > 0 && features > 0 {
            let depth = settings.depth.min(10);
            let (mut splits, mut values) = (Vec::new(), Vec::new());
            let mut leaf_of = vec![0usize; rows];
            for _ in 0..settings.trees {
                for r in 0..rows {
                    residual[r] = y[r] - pred[r];
                }
                let before = values.len();
                grow_oblivious(
                    &binned,
                    &residual,
                    features,
                    &cuts,
                    depth,
                    settings,
                    &mut leaf_of,
                    &mut splits,
                    &mut values,
                );
                for r in 0..rows {
                    pred[r] += f64::from(values[before + leaf_of[r]]);
                }
            }
            return Forest {
                base,
                features,
                shape: Shape::Oblivious {
                    depth,
                    splits,
                    values,
                },
            };
        }
        let (mut nodes, mut roots) = (Vec::new(), Vec::new());
        for _ in 0..settings.trees {
            for r in 0..rows {
                residual[r] = y[r] - pred[r];
            }
            roots.push(nodes.len() as u32);
            let leaves = grow(&binned, &residual, features, &cuts, settings);
            // Written in preorder from the tree's record of splits.
            write_tree(&leaves, &mut nodes, &cuts, settings.shrink);
            for leaf in leaves.iter().filter_map(|n| n.leaf.as_ref()) {
                let v = f64::from((settings.shrink * leaf.1) as f32);
                for &s in &leaf.0 {
                    pred[s as usize] += v;
                }
            }
        }
        Forest {
            base,
            features,
            shape: Shape::Nodes { nodes, roots },
        }
    }

    /// The forest as text. Trees grown best split first: a first line `forest BASE FEATURES
    /// TREES`, then one line per node in preorder, tree after tree: `s FEATURE THRESHOLD RIGHT`
    /// (RIGHT counted from the tree's root) or `l VALUE`. Oblivious trees: a first line
    /// `oblivious BASE FEATURES TREES DEPTH`, then a line per tree: `o`, DEPTH pairs `FEATURE
    /// THRESHOLD` (the first level first), then the `2^DEPTH` leaves' values.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        match &self.shape {
            Shape::Nodes { nodes, roots } => {
                let _ = writeln!(
                    out,
                    "forest {} {} {}",
                    self.base,
                    self.features,
                    roots.len()
                );
                for (t, &root) in roots.iter().enumerate() {
                    let end = roots.get(t + 1).map_or(nodes.len(), |&e| e as usize);
                    for node in &nodes[root as usize..end] {
                        match *node {
                            Node::Leaf(v) => {
                                let _ = writeln!(out, "l {v}");
                            }
                            Node::Split {
                                feature,
                                threshold,
                                right,
                            } => {
                                let _ = writeln!(out, "s {feature} {threshold} {}", right - root);
                            }
                        }
                    }
                }
            }
            Shape::Oblivious {
                depth,
                splits,
                values,
            } => {
                let _ = writeln!(
                    out,
                    "oblivious {} {} {} {depth}",
                    self.base,
                    self.features,
                    self.trees()
                );
                for (tree, leaves) in oblivious_trees(*depth, splits, values) {
                    out.push('o');
                    for &(f, t) in tree {
                        // Thresholds are kept as `f32`, so this writes them back exactly.
                        let _ = write!(out, " {f} {}", t as f32);
                    }
                    for v in leaves {
                        let _ = write!(out, " {v}");
                    }
                    out.push('\n');
                }
            }
        }
        out
    }

    /// Reads [`Forest::to_text`]'s text; an error names the line and what is wrong with it.
    pub fn from_text(text: &str) -> Result<Forest, String> {
        let mut lines = text.lines().enumerate();
        let (_, head) = lines.next().ok_or("line 1: empty")?;
        let head: Vec<&str> = head.split_whitespace().collect();
        let bad = |n: usize, what: &str| format!("line {}: {what}", n + 1);
        let oblivious = head.first() == Some(&"oblivious");
        if !(head.len() == 4 && head[0] == "forest" || head.len() == 5 && oblivious) {
            return Err(bad(
                0,
                "expected `forest BASE FEATURES TREES` or `oblivious BASE FEATURES TREES DEPTH`",
            ));
        }
        let base: f64 = head[1].parse().map_err(|_| bad(0, "bad base"))?;
        let features: usize = head[2].parse().map_err(|_| bad(0, "bad feature count"))?;
        let trees: usize = head[3].parse().map_err(|_| bad(0, "bad tree count"))?;
        let shape = if oblivious {
            let depth: usize = head[4]
                .parse()
                .ok()
                .filter(|d| (1..=10).contains(d))
                .ok_or_else(|| bad(0, "the depth must be 1 to 10"))?;
            let (mut splits, mut values) = (Vec::new(), Vec::new());
            for _ in 0..trees {
                let (n, line) = lines
                    .next()
                    .ok_or_else(|| bad(0, "fewer trees than the first line says"))?;
                let p: Vec<&str> = line.split_whitespace().collect();
                if p.len() != 1 + 2 * depth + (1 << depth) || p[0] != "o" {
                    return Err(bad(
                        n,
                        "expected `o`, DEPTH pairs `FEATURE THRESHOLD`, then 2^DEPTH values",
                    ));
                }
                for pair in p[1..1 + 2 * depth].chunks_exact(2) {
                    let f: usize = pair[0].parse().map_err(|_| bad(n, "bad feature"))?;
                    if f >= features {
                        return Err(bad(n, "feature out of range"));
                    }
                    let t: f32 = pair[1].parse().map_err(|_| bad(n, "bad threshold"))?;
                    splits.push((f, f64::from(t)));
                }
                for v in &p[1 + 2 * depth..] {
                    values.push(v.parse::<f32>().map_err(|_| bad(n, "bad leaf value"))?);
                }
            }
            Shape::Oblivious {
                depth,
                splits,
                values,
            }
        } else {
            let (mut nodes, mut roots) = (Vec::new(), Vec::new());
            for _ in 0..trees {
                let root = nodes.len();
                roots.push(root as u32);
                // Nodes still owed to finish this tree: a split owes two subtrees.
                let mut owed = 1usize;
                while owed > 0 {
                    let (n, line) = lines
                        .next()
                        .ok_or_else(|| bad(0, "the file ends in a tree"))?;
                    let p: Vec<&str> = line.split_whitespace().collect();
                    match p.as_slice() {
                        ["l", v] => {
                            let v: f32 = v.parse().map_err(|_| bad(n, "bad leaf value"))?;
                            nodes.push(Node::Leaf(v));
                            owed -= 1;
                        }
                        ["s", f, t, r] => {
                            let feature: u16 = f.parse().map_err(|_| bad(n, "bad feature"))?;
                            if usize::from(feature) >= features {
                                return Err(bad(n, "feature out of range"));
                            }
                            let threshold: f32 = t.parse().map_err(|_| bad(n, "bad threshold"))?;
                            let right: u32 = r.parse().map_err(|_| bad(n, "bad child"))?;
                            let here = nodes.len() - root;
                            if right as usize <= here + 1 {
                                return Err(bad(n, "a right child must come after the left one"));
                            }
                            let right = (root as u32)
                                .checked_add(right)
                                .ok_or_else(|| bad(n, "bad child"))?;
                            nodes.push(Node::Split {
                                feature,
                                threshold,
                                right,
                            });
                            owed += 1;
                        }
                        _ => {
                            return Err(bad(
                                n,
                                "expected `s FEATURE THRESHOLD RIGHT` or `l VALUE`",
                            ));
                        }
                    }
                }
                // Every right child must land inside its tree, after its split.
                let end = nodes.len();
                for node in &nodes[root..end] {
                    if let Node::Split { right, .. } = node
                        && (*right as usize) >= end
                    {
                        return Err(format!("tree {}: a right child past the tree", roots.len()));
                    }
                }
            }
            Shape::Nodes { nodes, roots }
        };
        if let Some((n, _)) = lines.find(|(_, l)| !l.trim().is_empty()) {
            return Err(bad(n, "more lines than the trees hold"));
        }
        Ok(Forest {
            base,
            features,
            shape,
        })
    }
}

/// Oblivious trees of `depth` levels, one after the other: each one's splits (the first level
/// first) and its `2^depth` leaves' values.
fn oblivious_trees<'f>(
    depth: usize,
    splits: &'f [(usize, f64)],
    values: &'f [f32],
) -> impl Iterator<Item = (&'f [(usize, f64)], &'f [f32])> {
    splits
        .chunks_exact(depth)
        .zip(values.chunks_exact(1 << depth))
}

/// `sum` plus what oblivious trees of `depth` levels add for `x`. Inlined, so that a constant
/// depth unrolls the levels.
#[inline(always)]
fn oblivious(
    mut sum: f64,
    x: &[f64],
    depth: usize,
    splits: &[(usize, f64)],
    values: &[f32],
) -> f64 {
    for (tree, leaves) in oblivious_trees(depth, splits, values) {
        let mut leaf = 0;
        for (level, &(f, threshold)) in tree.iter().enumerate() {
            leaf |= usize::from(x[f] > threshold) << level;
        }
        sum += f64::from(leaves[leaf]);
    }
    sum
}

/// A node of a tree being grown: a split (feature, bin, children) or a leaf (samples, mean).
struct Grown {
    split: Option<(usize, u8, usize, usize)>,
    leaf: Option<(Vec<u32>, f64)>,
}

/// Grows one tree on the residuals, best split first; returns its nodes, the root first.
fn grow(
    binned: &[u8],
    residual: &[f64],
    features: usize,
    cuts: &[Vec<f64>],
    settings: &FitSettings,
) -> Vec<Grown> {
    let rows = residual.len();
    let all: Vec<u32> = (0..rows as u32).collect();
    let sum: f64 = residual.iter().sum();
    let mut nodes = vec![Grown {
        split: None,
        leaf: None,
    }];
    // Open leaves: (node index, growing state).
    let mut open: Vec<(usize, Growing)> = vec![(
        0,
        best_split(
            Growing {
                samples: all,
                sum,
                split: None,
            },
            binned,
            residual,
            features,
            cuts,
            settings,
        ),
    )];
    let mut leaves = 1;
    while leaves < settings.leaves {
        // The open leaf whose split gains most (the first of equals).
        let Some(k) = open
            .iter()
            .enumerate()
            .filter_map(|(k, (_, g))| g.split.map(|s| (k, s.0)))
            .fold(None, |best: Option<(usize, f64)>, (k, gain)| match best {
                Some((_, b)) if b >= gain => best,
                _ => Some((k, gain)),
            })
            .map(|(k, _)| k)
        else {
            break;
        };
        let (at, g) = open.swap_remove(k);
        let (_, feature, bin) = g.split.expect("a split");
        let (mut left, mut right) = (Vec::new(), Vec::new());
        let (mut left_sum, mut right_sum) = (0.0, 0.0);
        for &s in &g.samples {
            if binned[s as usize * features + feature] <= bin {
                left.push(s);
                left_sum += residual[s as usize];
            } else {
                right.push(s);
                right_sum += residual[s as usize];
            }
        }
        let (l, r) = (nodes.len(), nodes.len() + 1);
        nodes.push(Grown {
            split: None,
            leaf: None,
        });
        nodes.push(Grown {
            split: None,
            leaf: None,
        });
        nodes[at].split = Some((feature, bin, l, r));
        for (node, samples, sum) in [(l, left, left_sum), (r, right, right_sum)] {
            let g = Growing {
                samples,
                sum,
                split: None,
            };
            open.push((
                node,
                best_split(g, binned, residual, features, cuts, settings),
            ));
        }
        leaves += 1;
    }
    for (at, g) in open {
        let mean = g.sum / g.samples.len().max(1) as f64;
        nodes[at].leaf = Some((g.samples, mean));
    }
    nodes
}

/// Grows one oblivious tree of `depth` levels on the residuals: at each level the one split
/// (feature, bin) that most lowers the squared error summed over the level's nodes, each node's
/// value shrunk toward zero as if it held `min_leaf` more samples at zero. A level with no split
/// that gains compares with a threshold nothing exceeds. Pushes the tree's splits and its leaves'
/// values (scaled by `shrink`, rounded as kept) and leaves each sample's leaf in `leaf_of`.
#[allow(clippy::too_many_arguments)]
fn grow_oblivious(
    binned: &[u8],
    residual: &[f64],
    features: usize,
    cuts: &[Vec<f64>],
    depth: usize,
    settings: &FitSettings,
    leaf_of: &mut [usize],
    splits: &mut Vec<(usize, f64)>,
    values: &mut Vec<f32>,
) {
    let rows = residual.len();
    let lambda = settings.min_leaf.max(1) as f64;
    leaf_of.fill(0);
    // Per node of the level, per feature, per bin: the residuals' sum and count.
    let mut sums: Vec<f64> = Vec::new();
    let mut counts: Vec<u32> = Vec::new();
    let stride = 256;
    for level in 0..depth {
        let nodes = 1usize << level;
        sums.clear();
        sums.resize(nodes * features * stride, 0.0);
        counts.clear();
        counts.resize(nodes * features * stride, 0);
        for r in 0..rows {
            let row = &binned[r * features..(r + 1) * features];
            let at = leaf_of[r] * features * stride;
            for (f, &b) in row.iter().enumerate() {
                let k = at + f * stride + usize::from(b);
                sums[k] += residual[r];
                counts[k] += 1;
            }
        }
        let mut best: Option<(f64, usize, usize)> = None;
        for (f, cut) in cuts.iter().enumerate().take(features) {
            let bins = cut.len() + 1;
            if bins < 2 {
                continue;
            }
            // Per node: its total, then the running sums left of each cut.
            let mut gain = vec![0.0; bins - 1];
            for node in 0..nodes {
                let at = (node * features + f) * stride;
                let s: f64 = sums[at..at + bins].iter().sum();
                let n: u32 = counts[at..at + bins].iter().sum();
                let parent = s * s / (f64::from(n) + lambda);
                let (mut ls, mut lc) = (0.0, 0u32);
                for (b, g) in gain.iter_mut().enumerate() {
                    ls += sums[at + b];
                    lc += counts[at + b];
                    let (rs, rc) = (s - ls, n - lc);
                    *g += ls * ls / (f64::from(lc) + lambda) + rs * rs / (f64::from(rc) + lambda)
                        - parent;
                }
            }
            for (b, &g) in gain.iter().enumerate() {
                if g > 1e-9 && best.is_none_or(|(bg, _, _)| g > bg) {
                    best = Some((g, f, b));
                }
            }
        }
        match best {
            Some((_, f, b)) => {
                splits.push((f, f64::from(cuts[f][b] as f32)));
                for r in 0..rows {
                    if usize::from(binned[r * features + f]) > b {
                        leaf_of[r] |= 1 << level;
                    }
                }
            }
            None => splits.push((0, f64::INFINITY)),
        }
    }
    let leaves = 1usize << depth;
    let mut sum = vec![0.0; leaves];
    let mut count = vec![0.0; leaves];
    for r in 0..rows {
        sum[leaf_of[r]] += residual[r];
        count[leaf_of[r]] += 1.0;
    }
    for l in 0..leaves {
        values.push((settings.shrink * sum[l] / (count[l] + lambda)) as f32);
    }
}

/// The best split of a leaf's samples, by the fall in squared error, if any keeps `min_leaf`
/// samples on each side.
fn best_split(
    mut g: Growing,
    binned: &[u8],
    residual: &[f64],
    features: usize,
    cuts: &[Vec<f64>],
    settings: &FitSettings,
) -> Growing {
    let n = g.samples.len();
    if n < 2 * settings.min_leaf.max(1) {
        return g;
    }
    let parent = g.sum * g.sum / n as f64;
    let mut best: Option<(f64, usize, u8)> = None;
    let mut sums = [0.0f64; 256];
    let mut counts = [0usize; 256];
    for f in 0..features {
        let bins = cuts[f].len() + 1;
        if bins < 2 {
            continue;
        }
        sums[..bins].fill(0.0);
        counts[..bins].fill(0);
        for &s in &g.samples {
            let b = usize::from(binned[s as usize * features + f]);
            sums[b] += residual[s as usize];
            counts[b] += 1;
        }
        let (mut ls, mut lc) = (0.0, 0usize);
        for b in 0..bins - 1 {
            ls += sums[b];
            lc += counts[b];
            let rc = n - lc;
            if lc < settings.min_leaf || rc < settings.min_leaf {
                continue;
            }
            let rs = g.sum - ls;
            let gain = ls * ls / lc as f64 + rs * rs / rc as f64 - parent;
            if gain > 1e-9 && best.is_none_or(|(bg, _, _)| gain > bg) {
                best = Some((gain, f, b as u8));
            }
        }
    }
    g.split = best;
    g
}

/// Writes a grown tree's nodes in preorder.
fn write_tree(grown: &[Grown], out: &mut Vec<Node>, cuts: &[Vec<f64>], shrink: f64) {
    fn visit(at: usize, grown: &[Grown], out: &mut Vec<Node>, cuts: &[Vec<f64>], shrink: f64) {
        match grown[at].split {
            Some((feature, bin, l, r)) => {
                let me = out.len();
                out.push(Node::Leaf(0.0));
                visit(l, grown, out, cuts, shrink);
                let right = out.len() as u32;
                out[me] = Node::Split {
                    feature: feature as u16,
                    threshold: cuts[feature][usize::from(bin)] as f32,
                    right,
                };
                visit(r, grown, out, cuts, shrink);
            }
            None => {
                let mean = grown[at].leaf.as_ref().map_or(0.0, |l| l.1);
                out.push(Node::Leaf((shrink * mean) as f32));
            }
        }
    }
    visit(0, grown, out, cuts, shrink);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A target with a step, an interaction and noise-free structure the trees must find.
    fn samples(rows: usize) -> (Vec<f64>, Vec<f64>) {
        let mut x = Vec::new();
        let mut y = Vec::new();
        let mut state = 12345u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % 1000) as f64 / 1000.0
        };
        for _ in 0..rows {
            let (a, b, c) = (next(), next(), next());
            x.extend([a, b, c]);
            let t = if a > 0.5 { 10.0 } else { 0.0 } + if b > 0.3 && a < 0.5 { 5.0 } else { 0.0 };
            y.push(t);
        }
        (x, y)
    }

    /// A forest fitted with `settings` finds the step and the interaction of [`samples`].
    fn learns_a_step_and_an_interaction(settings: &FitSettings) {
        let (x, y) = samples(4000);
        let f = Forest::fit(&x, &y, 3, settings);
        for (p, want) in [
            ([0.8, 0.1, 0.5], 10.0),
            ([0.2, 0.9, 0.5], 5.0),
            ([0.2, 0.1, 0.9], 0.0),
        ] {
            let got = f.predict(&p);
            assert!((got - want).abs() < 0.5, "{p:?}: {got} against {want}");
        }
    }

    #[test]
    fn a_forest_learns_a_step_and_an_interaction() {
        learns_a_step_and_an_interaction(&FitSettings::default());
    }

    #[test]
    fn oblivious_trees_learn_a_step_and_an_interaction() {
        learns_a_step_and_an_interaction(&FitSettings {
            depth: 3,
            min_leaf: 5,
            shrink: 0.1,
            ..FitSettings::default()
        });
    }

    #[test]
    fn oblivious_trees_read_back_what_they_write() {
        let (x, y) = samples(1000);
        let settings = FitSettings {
            trees: 20,
            depth: 4,
            ..FitSettings::default()
        };
        let f = Forest::fit(&x, &y, 3, &settings);
        let text = f.to_text();
        assert!(text.starts_with("oblivious "), "{text}");
        let back = Forest::from_text(&text).expect("its own text");
        assert_eq!(back, f);
        assert_eq!(back.trees(), 20);
        for r in 0..50 {
            let row = &x[r * 3..r * 3 + 3];
            assert_eq!(back.predict(row), f.predict(row));
        }
    }

    #[test]
    fn a_forest_reads_back_what_it_writes() {
        let (x, y) = samples(1000);
        let settings = FitSettings {
            trees: 20,
            ..FitSettings::default()
        };
        let f = Forest::fit(&x, &y, 3, &settings);
        let back = Forest::from_text(&f.to_text()).expect("its own text");
        assert_eq!(back.trees(), 20);
        for r in 0..50 {
            let row = &x[r * 3..r * 3 + 3];
            assert_eq!(back.predict(row), f.predict(row));
        }
    }

    #[test]
    fn bad_forest_text_is_refused_with_its_line() {
        for (text, line) in [
            ("", "line 1"),
            ("tree 0 1 1\nl 0", "line 1"),
            ("forest 0 2 1\ns 5 0.5 2\nl 1\nl 2", "line 2"),
            ("forest 0 2 1\ns 0 0.5 1\nl 1\nl 2", "line 2"),
            ("forest 0 2 1\nl x", "line 2"),
            ("forest 0 2 1\ns 0 0.5 2\nl 1", "ends in a tree"),
            ("forest 0 2 1\nl 1\nl 2", "line 3"),
            ("oblivious 0 2 1 0\no", "line 1"),
            ("oblivious 0 2 1 1\no 0 0.5 1", "line 2"),
            ("oblivious 0 2 1 1\no 2 0.5 1 2", "line 2"),
            ("oblivious 0 2 1 1\no 0 x 1 2", "line 2"),
            ("oblivious 0 2 2 1\no 0 0.5 1 2", "fewer trees"),
            ("oblivious 0 2 1 1\no 0 0.5 1 2\no 0 0.5 1 2", "line 3"),
        ] {
            let e = Forest::from_text(text).expect_err(text);
            assert!(e.contains(line), "{text:?}: {e}");
        }
    }
}
