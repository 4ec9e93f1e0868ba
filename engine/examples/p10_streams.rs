//! Checks Michaela's per-seat stock orders (`Sampler::streams`) against the one shared stock:
//! at decisions of seat 1 in games of Petras, her comparison is made both ways, with a large
//! budget, and for every choice compared with Petra's the two estimates of its gain are set side
//! by side. If the per-seat orders deal the stock as fairly as the shared one, the two estimates
//! differ only by their noise: the differences, in standard errors, have mean 0 and variance 1.
//! What the per-seat orders are for shows in the spread of a choice's gain from deal to deal:
//! the smaller it is, the fewer deals a comparison needs.
//!
//! `cargo run --release -p arachne-engine --example p10_streams -- --games 5 --every 3`
//! (`--players N`, `--seed S`, `--deals D --steps N` for her budget in each comparison).

use arachne_engine::phase10::Stage;
use arachne_engine::phase10::ai::{Heuristic, Sampler};
use arachne_engine::phase10::variant;

mod p10_common;
use p10_common::{option, play_seen};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let num = |name: &str, default: u64| {
        option(&args, name).map_or(default, |v| v.parse::<u64>().expect("a whole number"))
    };
    let games = num("--games", 5);
    let every = num("--every", 3).max(1);
    let players = num("--players", 2) as usize;
    let seed = num("--seed", 100);
    let deals = num("--deals", 4000) as usize;
    let steps = num("--steps", 200_000) as usize;
    let variant = variant::by_id("pro-spider-10").expect("known").clone();
    // Per kind (draw, the rest of the turn): z-scores, and the spread per deal both ways.
    let mut z: [Vec<f64>; 2] = [Vec::new(), Vec::new()];
    let mut spread: [Vec<(f64, f64)>; 2] = [Vec::new(), Vec::new()];
    let mut asked = 0u64;
    for g in 0..games {
        play_seen(&variant, players, seed + g, &mut |_, s, view| {
            if s == 0 && !matches!(view.stage, Stage::Knock { .. }) {
                asked += 1;
                if asked.is_multiple_of(every) {
                    let kind = usize::from(view.stage != Stage::Draw);
                    let both: Vec<_> = [false, true]
                        .into_iter()
                        .map(|on| {
                            let mut m = Sampler::new(asked);
                            m.deals = deals;
                            m.steps = steps;
                            m.streams = on;
                            m.compare(view)
                        })
                        .collect();
                    for (off, on) in both[0].iter().zip(&both[1]).skip(1) {
                        assert_eq!(off.0, on.0, "the same choices compared");
                        let (a, b) = (off.1, on.1);
                        let se = a.standard_error().hypot(b.standard_error());
                        if se > 0.0 {
                            z[kind].push((b.mean - a.mean) / se);
                        }
                        spread[kind].push((a.deviation(), b.deviation()));
                    }
                }
            }
            Heuristic::choose(&view.view_ref())
        });
    }
    for (kind, name) in ["draws", "discards and skips"].iter().enumerate() {
        let zs = &z[kind];
        let n = zs.len().max(1) as f64;
        let mean = zs.iter().sum::<f64>() / n;
        let var = zs.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / (n - 1.0).max(1.0);
        let beyond = zs.iter().filter(|x| x.abs() > 3.0).count();
        let mut ratios: Vec<f64> = spread[kind]
            .iter()
            .filter(|(off, _)| *off > 0.0)
            .map(|(off, on)| on / off)
            .collect();
        ratios.sort_by(f64::total_cmp);
        let median = ratios.get(ratios.len() / 2).copied().unwrap_or(f64::NAN);
        let mean_of = |f: fn(&(f64, f64)) -> f64| {
            spread[kind].iter().map(f).sum::<f64>() / spread[kind].len().max(1) as f64
        };
        println!(
            "{name}: {} choices compared; per-seat minus shared gain, in standard errors: mean {mean:.3}, variance {var:.3}, beyond 3: {beyond}; spread per deal: mean {:.1} shared, {:.1} per-seat, median ratio {median:.3}",
            zs.len(),
            mean_of(|p| p.0),
            mean_of(|p| p.1),
        );
    }
}
