//! Frame benchmark: the game's logic (table, events, tweens, input) headless, on Huge Spider.
//! Phase 1: the initial deal with all 208 cards in motion at once. Phase 2: a solver-free random
//! playout at the top animation speed, a new move each time the table comes to rest.
//! Phase 3: Pro Spider 10 with six seats, every seat played by the computer (the player's seat
//! through the player's own requests), each decision animated at the top speed with no pause,
//! round after round.
//! Prints per-frame CPU time (p50, p99, max) of `App::update`, which runs every game system.
//!
//! cargo run --release --example frames
use std::time::{Duration, Instant};

use arachne::cards::motion::CardPose;
use arachne::core::settings::Settings;
use arachne::logic_plugin;
use arachne::spider::layout::Layout;
use arachne::spider::table::{GameSpec, Request, Table};
use arachne::spider::view::Relayout;
use arachne_engine::Numbering;
use bevy::input::InputPlugin;
use bevy::prelude::*;
use bevy::state::app::StatesPlugin;
use bevy::time::TimeUpdateStrategy;
use bevy_tweening::TweenAnim;

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

fn report(name: &str, mut frames: Vec<Duration>) {
    frames.sort();
    println!(
        "{name:<34} frames {:>5}  p50 {:>7.3} ms  p99 {:>7.3} ms  max {:>7.3} ms",
        frames.len(),
        percentile(&frames, 0.5).as_secs_f64() * 1e3,
        percentile(&frames, 0.99).as_secs_f64() * 1e3,
        frames.last().unwrap().as_secs_f64() * 1e3,
    );
}

fn main() {
    let spec = GameSpec::builtin("huge-spider", 1, Numbering::Arachne).expect("huge-spider ships");
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, StatesPlugin, InputPlugin))
        .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_millis(
            16,
        )))
        .insert_resource(Table::new(spec).expect("deal"))
        .add_message::<AppExit>();
    logic_plugin(&mut app);
    // Top animation speed (the settings window allows up to 4x).
    app.world_mut().resource_mut::<Settings>().animation.speed = 4.0;
    app.update();
    // Send the stock's cards on a trip as well, so all 208 move together.
    let mut q = app
        .world_mut()
        .query_filtered::<&mut CardPose, Without<TweenAnim>>();
    for mut pose in q.iter_mut(app.world_mut()) {
        pose.translation.y += 300.0;
    }
    app.world_mut().write_message(Relayout { instant: false });
    let mut deal = Vec::new();
    let mut moving_max = 0;
    loop {
        let t = Instant::now();
        app.update();
        deal.push(t.elapsed());
        let moving = app
            .world_mut()
            .query_filtered::<(), With<TweenAnim>>()
            .iter(app.world())
            .count();
        moving_max = moving_max.max(moving);
        if moving == 0 || deal.len() > 2000 {
            break;
        }
    }
    let cards = app.world().resource::<Layout>().column_x.len();
    println!("huge-spider: {cards} columns, at most {moving_max} cards in motion at once");
    report("initial deal, all cards moving", deal);

    let mut rng = 0x2545_F491_4F6C_DD1Du64;
    let mut play = Vec::new();
    let mut moves = 0;
    while play.len() < 3000 {
        let at_rest = app
            .world_mut()
            .query_filtered::<(), With<TweenAnim>>()
            .iter(app.world())
            .next()
            .is_none();
        if at_rest {
            let legal = app.world().resource::<Table>().game.legal_moves();
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            let req = if legal.is_empty() || rng.is_multiple_of(7) {
                Request::Undo
            } else {
                Request::Move(legal[(rng >> 8) as usize % legal.len()])
            };
            app.world_mut().write_message(req);
            moves += 1;
        }
        let t = Instant::now();
        app.update();
        play.push(t.elapsed());
    }
    println!("random playout: {moves} moves");
    report("random playout at 4x speed", play);
    pro_spider_10();
}

/// Six seats of Pro Spider 10 at 4x speed, no pause between decisions: the player's seat is
/// played by Petra through the player's requests, the others by the computer seats.
fn pro_spider_10() {
    use arachne::GameKind;
    use arachne::phase10::round::{P10Request, P10Spec, P10Table, PLAYER};
    use arachne_engine::phase10::Stage;
    use arachne_engine::phase10::ai::Player;
    let spec = P10Spec::standard(6, 3, "petra").expect("six seats");
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, StatesPlugin, InputPlugin))
        .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_millis(
            16,
        )))
        .insert_resource(
            Table::new(GameSpec::builtin("spider-1suit", 1, Numbering::Arachne).expect("deal"))
                .expect("deal"),
        )
        .insert_resource(P10Table::new(spec).expect("deal").0)
        .insert_state(GameKind::ProSpider10)
        .add_message::<AppExit>();
    logic_plugin(&mut app);
    {
        let mut settings = app.world_mut().resource_mut::<Settings>();
        settings.animation.speed = 4.0;
        settings.phase10.computer_pause_ms = 0;
    }
    let mut me = arachne_engine::phase10::ai::Heuristic;
    let mut frames = Vec::new();
    let (mut actions, mut moving_max) = (0, 0);
    let mut rounds = 0;
    while frames.len() < 6000 {
        let moving = app
            .world_mut()
            .query_filtered::<(), With<TweenAnim>>()
            .iter(app.world())
            .count();
        moving_max = moving_max.max(moving);
        let table = app.world().resource::<P10Table>();
        if moving == 0 {
            match table.game.stage() {
                Stage::RoundOver => {
                    rounds += 1;
                    app.world_mut().write_message(P10Request::NextRound);
                }
                Stage::Over => break,
                _ if table.players_turn() => {
                    let action = me.decide(&table.game.view(PLAYER));
                    app.world_mut().write_message(P10Request::Act(action));
                    actions += 1;
                }
                _ => {}
            }
        }
        let t = Instant::now();
        app.update();
        frames.push(t.elapsed());
    }
    let round = app.world().resource::<P10Table>().game.round();
    println!(
        "pro-spider-10, 6 seats: {rounds} rounds over, in round {round}; {actions} of the player's decisions; at most {moving_max} cards in motion at once"
    );
    report("6 seats, every decision animated", frames);
}
