//! What the Pro Spider 10 measuring examples share: their command-line options and the
//! interval they print.

use std::cell::RefCell;
use std::sync::Arc;

use arachne_engine::phase10::Seat;
use arachne_engine::phase10::action::Action;
use arachne_engine::phase10::ai::DiscardModel;
use arachne_engine::phase10::card::Counts;
use arachne_engine::phase10::game::{Game, Stage};
use arachne_engine::phase10::variant::P10Variant;
use arachne_engine::phase10::view::SeatView;
use rand_chacha::ChaCha8Rng;

/// The value after `name` on the command line.
pub fn option(args: &[String], name: &str) -> Option<String> {
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1).cloned())
}

/// The entrants (`--ai`, levels joined by commas), the number of games (`--games`) and the first
/// game's seed (`--seed`, default 1) of a run of games like `tournament`.
#[allow(dead_code)] // not every example plays levels
pub fn games_options(args: &[String], ai: &str, games: u64) -> (Vec<String>, u64, u64) {
    let levels = option(args, "--ai")
        .unwrap_or_else(|| ai.into())
        .split(',')
        .map(str::to_string)
        .collect();
    let games = option(args, "--games").map_or(games, |g| g.parse().expect("--games N"));
    let seed = option(args, "--seed").map_or(1, |s| s.parse().expect("--seed S"));
    (levels, games, seed)
}

/// A win rate and its Wilson 95% interval, all in percent.
#[allow(dead_code)] // not every example prints one
pub fn wilson(wins: u64, games: u64) -> (f64, f64, f64) {
    let k = games as f64;
    let p = wins as f64 / k;
    let z = 1.96f64;
    let centre = (p + z * z / (2.0 * k)) / (1.0 + z * z / k);
    let half = z * (p * (1.0 - p) / k + z * z / (4.0 * k * k)).sqrt() / (1.0 + z * z / k);
    (100.0 * p, 100.0 * (centre - half), 100.0 * (centre + half))
}

/// The discard model of `--model FILE`, weighing Petra's best `--top N` (default 4) and taking
/// another only when it is predicted better by `--margin M` points (default 2), and only those
/// within `--gap K` of her first in her order (default: all), with `--seats-model FILE` asked at
/// tables of three seats or more (`--top`, `--margin` and `--gap` apply only with `--model FILE`;
/// `--seats-model` without it is refused). `--model none`: no model (`Some(None)`); no
/// `--model`: `None`, the example's default (Michaela's own, `DiscardModel::michaela`; none for
/// `p10_styles`).
#[allow(dead_code)] // not every example takes a model
pub fn model(args: &[String]) -> Option<Option<Arc<DiscardModel>>> {
    let seats = option(args, "--seats-model");
    let path = option(args, "--model");
    assert!(
        seats.is_none() || path.as_deref().is_some_and(|p| p != "none"),
        "--seats-model needs --model FILE"
    );
    let path = path?;
    if path == "none" {
        return Some(None);
    }
    let read = |path: &str| std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let top = option(args, "--top").map_or(4, |v| v.parse().expect("--top N"));
    let margin = option(args, "--margin").map_or(2.0, |v| v.parse().expect("--margin M"));
    let mut model = DiscardModel::from_text(&read(&path), top, margin)
        .unwrap_or_else(|e| panic!("{path}: {e}"));
    if let Some(seats) = seats {
        model = model
            .with_seats(&read(&seats))
            .unwrap_or_else(|e| panic!("{seats}: {e}"));
    }
    if let Some(gap) = option(args, "--gap") {
        model.gap = gap.parse().expect("--gap KEY");
    }
    Some(Some(Arc::new(model)))
}

/// Seat `o`'s real hand in `game` less what `view` knows it to hold: the cards a deal of the
/// view must give it to make its hand the real one.
fn hidden_hand(game: &Game, view: &SeatView, o: Seat) -> Counts {
    let mut c = Counts::of(game.hand(o));
    c.remove_all(&view.known[o]);
    c
}

/// A deal of `view` in which every other seat holds its real hand in `game` (a measurement's
/// deal, not a level's): dealt through the view's own sampler, each seat taking only its real
/// cards from the shuffled unseen ones, so the deal is the view's in everything else: the stock
/// is still shuffled and what each seat is known to hold stays what the table showed. Checked.
#[allow(dead_code)] // not every example sees the hands
pub fn real_hands(game: &Game, view: &SeatView, rng: &mut ChaCha8Rng) -> Game {
    let n = game.players();
    let left: RefCell<Vec<Counts>> =
        RefCell::new((0..n).map(|o| hidden_hand(game, view, o)).collect());
    let dealt = view.sample_by(rng, &|o, c| {
        let mut left = left.borrow_mut();
        if left[o].get(c) > 0 {
            left[o].remove(c);
            1.0
        } else {
            0.0
        }
    });
    for o in 0..n {
        assert_eq!(
            Counts::of(dealt.hand(o)),
            Counts::of(game.hand(o)),
            "seat {o} is dealt its real hand"
        );
    }
    dealt
}

/// [`real_hands`] for the seats `sees` names only: each of those holds its real hand; every
/// other seat is dealt at random from the unseen cards those hands do not hold
/// ([`SeatView::sample_holding`]). With every seat named, exactly [`real_hands`]'s deal (which
/// has the same hands, and keeps the deals measured before it). Checked.
#[allow(dead_code)] // not every example sees the hands
pub fn real_hands_of(
    game: &Game,
    view: &SeatView,
    rng: &mut ChaCha8Rng,
    sees: &dyn Fn(Seat) -> bool,
) -> Game {
    let n = game.players();
    if (0..n).filter(|&o| o != view.seat).all(sees) {
        return real_hands(game, view, rng);
    }
    let holds: Vec<Counts> = (0..n)
        .map(|o| {
            if o != view.seat && sees(o) {
                hidden_hand(game, view, o)
            } else {
                Counts::default()
            }
        })
        .collect();
    let dealt = view.sample_holding(rng, &holds);
    for o in (0..n).filter(|&o| o != view.seat && sees(o)) {
        assert_eq!(
            Counts::of(dealt.hand(o)),
            Counts::of(game.hand(o)),
            "seat {o} is dealt its real hand"
        );
    }
    dealt
}

/// Plays a game of `variant` with `players` seats from `seed` to its end, each decision by
/// `decide(game, seat, view)`: a harness that sees the whole game (to deal the real hands, or to
/// measure at the real position). Returns the game over.
#[allow(dead_code)] // not every example sees the whole game
pub fn play_seen(
    variant: &Arc<P10Variant>,
    players: usize,
    seed: u64,
    decide: &mut dyn FnMut(&Game, Seat, &SeatView) -> Action,
) -> Game {
    let (mut game, _) = Game::new(variant.clone(), players, seed).expect("a game");
    let mut decisions = 0u64;
    while !game.is_over() {
        if game.stage() == Stage::RoundOver {
            game.next_round().expect("next round");
            continue;
        }
        let Some(s) = game.to_move() else { break };
        let view = game.view(s);
        let action = decide(&game, s, &view);
        game.apply(action).expect("a legal choice");
        decisions += 1;
        assert!(decisions <= 2_000_000, "game seed {seed} never ended");
    }
    game
}
