//! Experiment: Michaela's playout estimates of her discards, with each discard's features, for
//! fitting a discard order. Against Petra, heads-up or with `--players N`, entrants rotating.
//! `p10_distill --games N --seed S --discards 8 --steps 40000 > data.txt`; her playouts use her
//! default discard order (`--model none`: Petra's, as the first samples were taken; `--model F
//! --own N` another, `--seats-model G` with it for three seats or more). With `--oracle hands`
//! her estimates (and her play) deal the other seats' real hands (`p10_common::real_hands`):
//! samples of what each discard is worth where the hands are as the game made them, for a fit
//! that can only see what her seat sees.

use arachne_engine::phase10::SeatView;
use arachne_engine::phase10::action::Action;
use arachne_engine::phase10::ai::{self, DiscardModel, Estimate, Player, Sampler, Style};
use arachne_engine::phase10::card::Card;
use arachne_engine::phase10::game::Stage;
use arachne_engine::phase10::variant;
use std::io::Write;

mod p10_common;
use p10_common::{option, play_seen, real_hands};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let games: u64 = option(&args, "--games").map_or(10, |g| g.parse().expect("--games N"));
    let seed: u64 = option(&args, "--seed").map_or(1, |s| s.parse().expect("--seed S"));
    let num = |k: &str| option(&args, k).map(|v| v.parse::<f64>().expect("a number"));
    let n: usize = option(&args, "--players").map_or(2, |v| v.parse().expect("--players N"));
    let variant = variant::by_id("pro-spider-10").expect("known").clone();
    // Read once for every game (`--model FILE`, `--top N`, `--margin M`, `--seats-model FILE`).
    let model = p10_common::model(&args);
    let oracle = match option(&args, "--oracle").as_deref() {
        None => false,
        Some("hands") => true,
        Some(_) => panic!("--oracle hands"),
    };
    let out = std::io::stdout();
    let mut out = std::io::BufWriter::new(out.lock());
    let mut id = 0u64;
    let mut wins = 0;
    for g in 0..games {
        let game_seed = seed.wrapping_add(g);
        let me = g as usize % n;
        let mut m = Sampler::new(game_seed);
        m.discards = num("--discards").map_or(8, |v| v as usize);
        if let Some(v) = num("--steps") {
            m.steps = v as usize;
        }
        if let Some(v) = num("--deals") {
            m.deals = v as usize;
        }
        let mut petra = ai::player("petra", game_seed).expect("petra");
        if let Some(model) = &model {
            m.model = model.clone();
        }
        if let Some(v) = num("--own") {
            m.own = v as usize;
        }
        let game = play_seen(&variant, n, game_seed, &mut |game, s, view| {
            if s != me {
                petra.decide(view)
            } else {
                // Her deals: the real hands with `--oracle hands`, else her own (at random).
                let mut real = |rng: &mut _| real_hands(game, view, rng);
                let drawing = matches!(view.stage, Stage::Draw | Stage::Knock { .. });
                let cmp = match (drawing, oracle) {
                    (true, _) => Vec::new(),
                    (false, true) => m.compare_with(view, &mut real),
                    (false, false) => m.compare(view),
                };
                if cmp.is_empty() {
                    if oracle {
                        m.decide_with(view, &mut real)
                    } else {
                        m.decide(view)
                    }
                } else {
                    id += write_samples(&mut out, id, view, &cmp, m.discards);
                    let estimates: Vec<Estimate> = cmp.iter().map(|(_, e)| *e).collect();
                    cmp[m.pick(&estimates)].0.clone()
                }
            }
        });
        if game.winners().contains(&me) {
            wins += 1;
        }
        eprintln!("game {} won {wins}", g + 1);
    }
}

/// Writes the discards compared at one decision (`cmp`, her first choice first), each with its
/// estimate against Petra's first-ranked discard (her first choice may be another when she has
/// a model) and its features, as decision `id + 1`; returns 1 if it wrote them, else 0 (her
/// first choice is not a discard, or fewer than two discards were compared).
fn write_samples(
    out: &mut impl Write,
    id: u64,
    view: &SeatView,
    cmp: &[(Action, Estimate)],
    discards: usize,
) -> u64 {
    let compared = cmp
        .iter()
        .filter(|(a, _)| matches!(a, Action::Discard(_)))
        .count();
    if !matches!(cmp[0].0, Action::Discard(_)) || compared < 2 {
        return 0;
    }
    let cands = DiscardModel::candidates(&view.view_ref(), &Style::PETRA, discards);
    let mean = |c: Card| {
        cmp.iter()
            .find(|(a, _)| *a == Action::Discard(c))
            .map(|(_, e)| (e.mean, e.standard_error(), e.deals))
    };
    let Some(((p, _), (p_mean, _, _))) = cands.first().and_then(|f| Some((*f, mean(f.0)?))) else {
        return 0;
    };
    let id = id + 1;
    let laid = u8::from(view.laid_phase[view.seat].is_some());
    for (c, f) in &cands {
        let Some((e_mean, se, deals)) = mean(*c) else {
            continue;
        };
        // Exactly (the shortest text that reads back the same value), so that the fit sees the
        // values she plays with.
        let fs: Vec<String> = f.iter().map(|x| format!("{x}")).collect();
        writeln!(
            out,
            "{id} {laid} {} {:.3} {:.3} {deals} {}",
            u8::from(*c == p),
            e_mean - p_mean,
            se,
            fs.join(" ")
        )
        .expect("written");
    }
    1
}
