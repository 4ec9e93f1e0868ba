//! Boosted regression trees: a small gradient-boosting fitter (squared loss, features cut into
//! bins, trees grown best split first) and the forest it makes, written as text so that a fitted
//! forest can be kept as data beside the code. Deterministic: the same samples and settings fit
//! the same forest.

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
    /// Every tree's nodes in preorder, one list after the other.
    nodes: Vec<Node>,
    /// Where each tree starts in `nodes`.
    roots: Vec<u32>,
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
}

impl Default for FitSettings {
    fn default() -> FitSettings {
        FitSettings {
            trees: 300,
            leaves: 31,
            min_leaf: 50,
            shrink: 0.05,
            bins: 64,
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
        for &root in &self.roots {
            let mut i = root as usize;
            loop {
                match self.nodes[i] {
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
        sum
    }

    /// Features a sample has.
    pub fn features(&self) -> usize {
        self.features
    }

    /// Trees.
    pub fn trees(&self) -> usize {
        self.roots.len()
    }

    /// Fits a forest to `rows` samples of `features` values each (`x`, row after row) and their
    /// targets `y`.
    pub fn fit(x: &[f64], y: &[f64], features: usize, settings: &FitSettings) -> Forest {
        let rows = y.len();
        assert_eq!(x.len(), rows * features, "one row of features per target");
        let bins = settings.bins.clamp(2, 256);
        // Per feature, the cut points: a value goes to the first bin whose cut is >= it.
        let cuts: Vec<Vec<f64>> = (0..features)
            .map(|f| {
                let mut v: Vec<f64> = (0..rows).map(|r| x[r * features + f]).collect();
                v.sort_by(f64::total_cmp);
                v.dedup();
                if v.len() <= bins {
                    v.windows(2).map(|w| (w[0] + w[1]) / 2.0).collect()
                } else {
                    let mut c: Vec<f64> = (1..bins)
                        .map(|k| {
                            let i = k * v.len() / bins;
                            (v[i - 1] + v[i]) / 2.0
                        })
                        .collect();
                    c.dedup();
                    c
                }
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
        let mut forest = Forest {
            base,
            features,
            nodes: Vec::new(),
            roots: Vec::new(),
        };
        let mut residual = vec![0.0; rows];
        for _ in 0..settings.trees {
            for r in 0..rows {
                residual[r] = y[r] - pred[r];
            }
            forest.roots.push(forest.nodes.len() as u32);
            let leaves = grow(&binned, &residual, features, &cuts, settings);
            // Written in preorder from the tree's record of splits.
            write_tree(&leaves, &mut forest.nodes, &cuts, settings.shrink);
            for leaf in leaves.iter().filter_map(|n| n.leaf.as_ref()) {
                let v = f64::from((settings.shrink * leaf.1) as f32);
                for &s in &leaf.0 {
                    pred[s as usize] += v;
                }
            }
        }
        forest
    }

    /// The forest as text: a first line `forest BASE FEATURES TREES`, then one line per node in
    /// preorder, tree after tree: `s FEATURE THRESHOLD RIGHT` (RIGHT counted from the tree's
    /// root) or `l VALUE`.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "forest {} {} {}",
            self.base,
            self.features,
            self.roots.len()
        );
        for (t, &root) in self.roots.iter().enumerate() {
            let end = self
                .roots
                .get(t + 1)
                .map_or(self.nodes.len(), |&e| e as usize);
            for node in &self.nodes[root as usize..end] {
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
        out
    }

    /// Reads [`Forest::to_text`]'s text; an error names the line and what is wrong with it.
    pub fn from_text(text: &str) -> Result<Forest, String> {
        let mut lines = text.lines().enumerate();
        let (_, head) = lines.next().ok_or("line 1: empty")?;
        let head: Vec<&str> = head.split_whitespace().collect();
        let bad = |n: usize, what: &str| format!("line {}: {what}", n + 1);
        if head.len() != 4 || head[0] != "forest" {
            return Err(bad(0, "expected `forest BASE FEATURES TREES`"));
        }
        let base: f64 = head[1].parse().map_err(|_| bad(0, "bad base"))?;
        let features: usize = head[2].parse().map_err(|_| bad(0, "bad feature count"))?;
        let trees: usize = head[3].parse().map_err(|_| bad(0, "bad tree count"))?;
        let mut forest = Forest {
            base,
            features,
            nodes: Vec::new(),
            roots: Vec::new(),
        };
        for _ in 0..trees {
            let root = forest.nodes.len();
            forest.roots.push(root as u32);
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
                        forest.nodes.push(Node::Leaf(v));
                        owed -= 1;
                    }
                    ["s", f, t, r] => {
                        let feature: u16 = f.parse().map_err(|_| bad(n, "bad feature"))?;
                        if usize::from(feature) >= features {
                            return Err(bad(n, "feature out of range"));
                        }
                        let threshold: f32 = t.parse().map_err(|_| bad(n, "bad threshold"))?;
                        let right: u32 = r.parse().map_err(|_| bad(n, "bad child"))?;
                        let here = forest.nodes.len() - root;
                        if right as usize <= here + 1 {
                            return Err(bad(n, "a right child must come after the left one"));
                        }
                        forest.nodes.push(Node::Split {
                            feature,
                            threshold,
                            right: root as u32 + right,
                        });
                        owed += 1;
                    }
                    _ => return Err(bad(n, "expected `s FEATURE THRESHOLD RIGHT` or `l VALUE`")),
                }
            }
            // Every right child must land inside its tree, after its split.
            let end = forest.nodes.len();
            for node in &forest.nodes[root..end] {
                if let Node::Split { right, .. } = node
                    && (*right as usize) >= end
                {
                    return Err(format!(
                        "tree {}: a right child past the tree",
                        forest.roots.len()
                    ));
                }
            }
        }
        if let Some((n, _)) = lines.find(|(_, l)| !l.trim().is_empty()) {
            return Err(bad(n, "more lines than the trees hold"));
        }
        Ok(forest)
    }
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

    #[test]
    fn a_forest_learns_a_step_and_an_interaction() {
        let (x, y) = samples(4000);
        let f = Forest::fit(&x, &y, 3, &FitSettings::default());
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
        ] {
            let e = Forest::from_text(text).expect_err(text);
            assert!(e.contains(line), "{text:?}: {e}");
        }
    }
}
