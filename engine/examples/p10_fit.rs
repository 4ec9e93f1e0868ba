//! Experiment: fits the discard forest to `p10_distill`'s samples. Each sample is a discard she
//! compared with Petra's: its features minus those of Petra's, Petra's own, and whether she has
//! laid; the target is the playouts' estimate of how much better it is. Decisions of even number
//! are fitted first and the odd ones scored (the gain per decision of following the forest), then
//! the forest is fitted to all and written.
//! `p10_fit --out forest.txt --trees 300 d1.txt d2.txt`

use arachne_engine::phase10::ai::trees::{FitSettings, Forest};
use std::collections::BTreeMap;

mod p10_common;
use p10_common::option;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let num = |k: &str, d: f64| option(&args, k).map_or(d, |v| v.parse::<f64>().expect("a number"));
    let settings = FitSettings {
        trees: num("--trees", 300.0) as usize,
        leaves: num("--leaves", 31.0) as usize,
        min_leaf: num("--min-leaf", 50.0) as usize,
        shrink: num("--shrink", 0.05),
        bins: num("--bins", 64.0) as usize,
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
    // Per decision: (laid, [(is petra, mean, features)]).
    let mut decisions: BTreeMap<(usize, u64), Vec<(bool, f64, f64, Vec<f64>)>> = BTreeMap::new();
    for (k, f) in files.iter().enumerate() {
        let text = std::fs::read_to_string(f).expect("a samples file");
        for line in text.lines() {
            let p: Vec<f64> = line
                .split_whitespace()
                .filter_map(|t| t.parse().ok())
                .collect();
            if p.len() < 7 {
                continue;
            }
            decisions.entry((k, p[0] as u64)).or_default().push((
                p[2] != 0.0,
                p[1],
                p[3],
                p[6..].to_vec(),
            ));
        }
    }
    let mut rows: Vec<(bool, (usize, u64), Vec<f64>, f64)> = Vec::new();
    for (&key, cands) in &decisions {
        let Some(petra) = cands.iter().find(|c| c.0) else {
            continue;
        };
        for c in cands.iter().filter(|c| !c.0) {
            let mut x = vec![c.1];
            x.extend(c.3.iter().zip(&petra.3).map(|(a, b)| a - b));
            x.extend(petra.3.iter().copied());
            rows.push((key.1 % 2 == 0, key, x, c.2));
        }
    }
    let features = rows.first().map_or(0, |r| r.2.len());
    eprintln!(
        "{} decisions, {} samples, {features} features",
        decisions.len(),
        rows.len()
    );
    let flat = |keep: &dyn Fn(bool) -> bool| {
        let mut x = Vec::new();
        let mut y = Vec::new();
        for r in rows.iter().filter(|r| keep(r.0)) {
            x.extend_from_slice(&r.2);
            y.push(r.3);
        }
        (x, y)
    };
    let (x, y) = flat(&|even| even);
    let half = Forest::fit(&x, &y, features, &settings);
    // Scored on the odd decisions: follow the forest's best when it predicts more than a margin.
    let mut per: BTreeMap<(usize, u64), Vec<(f64, f64)>> = BTreeMap::new();
    for r in rows.iter().filter(|r| !r.0) {
        per.entry(r.1).or_default().push((half.predict(&r.2), r.3));
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
        let all = Forest::fit(&x, &y, features, &settings);
        let tmp = format!("{out}.tmp");
        std::fs::write(&tmp, all.to_text()).expect("written");
        std::fs::rename(&tmp, &out).expect("renamed");
        eprintln!("wrote {out}");
    }
}
