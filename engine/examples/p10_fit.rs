//! Experiment: fits the discard forest to `p10_distill`'s samples. Each sample is a discard she
//! compared with Petra's: its features minus those of Petra's, Petra's own, and whether she has
//! laid; the target is the playouts' estimate of how much better it is. Decisions of even number
//! are fitted first and the odd ones scored (the gain per decision of following the forest), then
//! the forest is fitted to all and written.
//! `p10_fit --out forest.txt --trees 300 d1.txt d2.txt`; `--depth D` fits oblivious trees of
//! depth D (faster to read), `--leaves`, `--min-leaf`, `--shrink` and `--bins` as in `FitSettings`.

use arachne_engine::phase10::ai::trees::{FitSettings, Forest};
use arachne_engine::phase10::ai::{DiscardModel, FEATURES, INPUTS};
use std::collections::BTreeMap;

mod p10_common;
use p10_common::option;

/// One discard compared at a decision.
struct Compared {
    petra: bool,
    laid: bool,
    mean: f64,
    features: [f64; FEATURES],
}

/// A fitting sample: its decision (file, number), the forest's inputs and the target.
struct Sample {
    decision: (usize, u64),
    x: [f64; INPUTS],
    y: f64,
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let num = |k: &str, d: f64| option(&args, k).map_or(d, |v| v.parse::<f64>().expect("a number"));
    let settings = FitSettings {
        trees: num("--trees", 300.0) as usize,
        leaves: num("--leaves", 31.0) as usize,
        min_leaf: num("--min-leaf", 50.0) as usize,
        shrink: num("--shrink", 0.05),
        bins: num("--bins", 64.0) as usize,
        depth: num("--depth", 0.0) as usize,
    };
    let mut files = Vec::new();
    let mut i = 0;
    while i < args.len() {
        if args[i].starts_with("--") {
            i += 2;
        } else {
            files.push(args[i].clone());
            i += 1;
        }
    }
    // Per decision (file, number): the discards compared.
    let mut decisions: BTreeMap<(usize, u64), Vec<Compared>> = BTreeMap::new();
    for (k, f) in files.iter().enumerate() {
        let text = std::fs::read_to_string(f).expect("a samples file");
        for line in text.lines() {
            let p: Vec<f64> = line
                .split_whitespace()
                .filter_map(|t| t.parse().ok())
                .collect();
            // id, laid, petra, mean, standard error, deals, then the features.
            let Some(Ok(features)) = p.get(6..).map(<[f64; FEATURES]>::try_from) else {
                continue;
            };
            decisions
                .entry((k, p[0] as u64))
                .or_default()
                .push(Compared {
                    petra: p[2] != 0.0,
                    laid: p[1] != 0.0,
                    mean: p[3],
                    features,
                });
        }
    }
    let mut rows: Vec<Sample> = Vec::new();
    for (&decision, cands) in &decisions {
        let Some(petra) = cands.iter().find(|c| c.petra) else {
            continue;
        };
        for c in cands.iter().filter(|c| !c.petra) {
            rows.push(Sample {
                decision,
                x: DiscardModel::inputs(c.laid, &c.features, &petra.features),
                y: c.mean,
            });
        }
    }
    let even = |r: &Sample| r.decision.1.is_multiple_of(2);
    eprintln!(
        "{} decisions, {} samples, {INPUTS} values each",
        decisions.len(),
        rows.len()
    );
    let flat = |keep: &dyn Fn(&Sample) -> bool| {
        let mut x = Vec::new();
        let mut y = Vec::new();
        for r in rows.iter().filter(|r| keep(r)) {
            x.extend_from_slice(&r.x);
            y.push(r.y);
        }
        (x, y)
    };
    let (x, y) = flat(&even);
    let half = Forest::fit(&x, &y, INPUTS, &settings);
    // Scored on the odd decisions: follow the forest's best when it predicts more than a margin.
    let mut per: BTreeMap<(usize, u64), Vec<(f64, f64)>> = BTreeMap::new();
    for r in rows.iter().filter(|r| !even(r)) {
        per.entry(r.decision)
            .or_default()
            .push((half.predict(&r.x), r.y));
    }
    for margin in [0.0, 2.0, 5.0, 10.0, 20.0] {
        let (mut gain, mut moved) = (0.0, 0usize);
        for c in per.values() {
            let best = c.iter().fold(None, |b: Option<(f64, f64)>, &p| match b {
                Some(b) if b.0 >= p.0 => Some(b),
                _ => Some(p),
            });
            if let Some((p, y)) = best
                && p > margin
            {
                gain += y;
                moved += 1;
            }
        }
        println!(
            "margin {margin}: {:.3} points a decision, leaves Petra's in {:.1}% ({} decisions scored)",
            gain / per.len() as f64,
            100.0 * moved as f64 / per.len() as f64,
            per.len()
        );
    }
    if let Some(out) = option(&args, "--out") {
        let (x, y) = flat(&|_| true);
        let all = Forest::fit(&x, &y, INPUTS, &settings);
        let tmp = format!("{out}.tmp");
        std::fs::write(&tmp, all.to_text()).expect("written");
        std::fs::rename(&tmp, &out).expect("renamed");
        eprintln!("wrote {out}");
    }
}
