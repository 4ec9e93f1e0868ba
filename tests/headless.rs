//! Headless Bevy tests: the game's logic plugins under `MinimalPlugins`, no window, no audio.
//! Time advances by a fixed 16 ms a frame, so every run is the same.
use std::time::Duration;

use arachne::audio::cues::{PlaySfx, Sfx};
use arachne::logic_plugin;
use arachne::spider::piles::Piles;
use arachne::spider::table::{GameSpec, PendingConfirm, Request, Table};
use arachne_engine::{Move, Numbering, variant};
use bevy::input::InputPlugin;
use bevy::prelude::*;
use bevy::state::app::StatesPlugin;
use bevy::time::TimeUpdateStrategy;
use bevy_tweening::TweenAnim;

mod common;
use common::{animating, assert_matches_engine};

fn app(variant: &str, seed: u64) -> App {
    app_with(Table::new(GameSpec::builtin(variant, seed, Numbering::Arachne).unwrap()).unwrap())
}

fn app_with(table: Table) -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, StatesPlugin, InputPlugin))
        .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_millis(
            16,
        )))
        .insert_resource(table)
        .add_message::<AppExit>();
    logic_plugin(&mut app);
    app.update();
    app
}

/// Runs frames until no card moves; returns how many frames that took.
fn run_to_rest(app: &mut App) -> usize {
    for frame in 0..5000 {
        app.update();
        if animating(app) == 0 {
            // One more frame so the last poses reach the transforms.
            app.update();
            return frame;
        }
    }
    panic!("the table never came to rest");
}

fn request(app: &mut App, r: Request) {
    app.world_mut().write_message(r);
    app.update();
}

fn first_transfer(app: &App) -> Move {
    let table = app.world().resource::<Table>();
    table
        .game
        .legal_moves()
        .into_iter()
        .find(|m| matches!(m, Move::Transfer { .. }))
        .expect("a deal with a move")
}

#[test]
fn the_initial_deal_animates_and_comes_to_rest_matching_the_engine() {
    let mut app = app("spider-2suit", 3);
    // The 54 tableau cards fly from the stock.
    assert_eq!(animating(&mut app), 54);
    let frames = run_to_rest(&mut app);
    assert!((60..400).contains(&frames), "{frames} frames");
    assert_matches_engine(&mut app);
}

#[test]
fn a_move_request_reaches_the_engine_and_tweens_exactly_the_moved_cards() {
    let mut app = app("spider-1suit", 5);
    run_to_rest(&mut app);
    let mv = first_transfer(&app);
    let Move::Transfer { from, to, count } = mv else {
        unreachable!()
    };
    let before = app.world().resource::<Piles>().columns[from as usize].clone();
    let moving: Vec<Entity> = before[before.len() - count as usize..].to_vec();
    request(&mut app, Request::Move(mv));
    assert_eq!(app.world().resource::<Table>().game.move_count(), 1);
    let mut animated: Vec<Entity> = app
        .world_mut()
        .query_filtered::<Entity, With<TweenAnim>>()
        .iter(app.world())
        .collect();
    // The moved run, plus the card under it if that one turned up.
    let down = app.world().resource::<Table>().game.start().columns()[from as usize].face_down();
    let mut want = moving.clone();
    if down > 0 && down == before.len() - count as usize {
        want.push(before[down - 1]);
    }
    animated.sort();
    want.sort();
    assert_eq!(animated, want, "{mv}");
    // The moved cards are now on the destination in the view's piles too.
    let piles = app.world().resource::<Piles>();
    assert_eq!(
        &piles.columns[to as usize][piles.columns[to as usize].len() - count as usize..],
        &moving[..]
    );
    run_to_rest(&mut app);
    assert_matches_engine(&mut app);
}

#[test]
fn undo_and_redo_animate_back_and_forth() {
    let mut app = app("spider-2suit", 11);
    run_to_rest(&mut app);
    let start = app.world().resource::<Piles>().clone();
    let mv = first_transfer(&app);
    request(&mut app, Request::Move(mv));
    run_to_rest(&mut app);
    request(&mut app, Request::Undo);
    assert!(animating(&mut app) > 0, "undo animates");
    assert_eq!(app.world().resource::<Table>().game.move_count(), 0);
    run_to_rest(&mut app);
    assert_matches_engine(&mut app);
    // The very same entities are back where they were.
    assert_eq!(app.world().resource::<Piles>().columns, start.columns);
    request(&mut app, Request::Redo);
    assert!(animating(&mut app) > 0, "redo animates");
    run_to_rest(&mut app);
    assert_matches_engine(&mut app);
    assert_eq!(app.world().resource::<Table>().game.move_count(), 1);
}

#[test]
fn a_deal_flies_one_card_per_column_and_plays_a_sound_per_card() {
    let mut app = app("spider-1suit", 2);
    run_to_rest(&mut app);
    // Collect sound cues from here on.
    app.world_mut().resource_mut::<Messages<PlaySfx>>().clear();
    let stock_top: Vec<Entity> = {
        let s = &app.world().resource::<Piles>().stock;
        s[s.len() - 10..].to_vec()
    };
    request(&mut app, Request::Move(Move::Deal));
    assert_eq!(animating(&mut app), 10);
    let mut deals = 0;
    let mut cursor = app.world().resource::<Messages<PlaySfx>>().get_cursor();
    for _ in 0..200 {
        app.update();
        let msgs = app.world().resource::<Messages<PlaySfx>>();
        deals += cursor.read(msgs).filter(|m| m.sfx == Sfx::Deal).count();
    }
    assert_eq!(deals, 10);
    assert_matches_engine(&mut app);
    // The next card to deal went to column 1.
    let piles = app.world().resource::<Piles>();
    assert_eq!(piles.columns[0].last(), stock_top.last());
}

#[test]
fn input_during_an_animation_finishes_it_first() {
    let mut app = app("spider-4suit", 9);
    // Moves sent while the initial deal is still flying.
    app.update();
    assert!(animating(&mut app) > 0);
    request(&mut app, Request::Move(Move::Deal));
    request(&mut app, Request::Undo);
    request(&mut app, Request::Redo);
    app.update();
    run_to_rest(&mut app);
    assert_matches_engine(&mut app);
}

/// A random playout of 200 legal moves (with undos and redos) in every variant, often not
/// waiting for the animation to end; at rest, the view equals the engine.
#[test]
fn random_playouts_in_every_variant_end_with_the_view_equal_to_the_engine() {
    for (k, v) in variant::builtin().iter().enumerate() {
        let mut app = app(&v.id, 100 + k as u64);
        let mut rng = 0x9E37_79B9_7F4A_7C15u64 ^ k as u64;
        let mut next = || {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            rng
        };
        for step in 0..200 {
            let moves = app.world().resource::<Table>().game.legal_moves();
            let r = next();
            let req = if r % 10 == 0 && app.world().resource::<Table>().game.can_undo() {
                Request::Undo
            } else if r % 10 == 1 && app.world().resource::<Table>().game.can_redo() {
                Request::Redo
            } else if moves.is_empty() {
                break;
            } else {
                Request::Move(moves[(r >> 8) as usize % moves.len()])
            };
            request(&mut app, req);
            // Sometimes let the animation run a while, sometimes interrupt it at once.
            for _ in 0..(next() % 12) {
                app.update();
            }
            if step % 50 == 49 {
                run_to_rest(&mut app);
                assert_matches_engine(&mut app);
            }
        }
        run_to_rest(&mut app);
        assert_matches_engine(&mut app);
    }
}

#[test]
fn new_deal_and_restart_respawn_the_table() {
    let mut app = app("spiderette", 4);
    run_to_rest(&mut app);
    let seed = app.world().resource::<Table>().spec.seed;
    request(&mut app, Request::NewDeal);
    assert_ne!(app.world().resource::<Table>().spec.seed, seed);
    run_to_rest(&mut app);
    assert_matches_engine(&mut app);
    let mv = first_transfer(&app);
    request(&mut app, Request::Move(mv));
    // A game in progress is not abandoned without asking (the shipped settings ask).
    request(&mut app, Request::Restart);
    assert_eq!(app.world().resource::<Table>().game.move_count(), 1);
    assert_eq!(
        app.world().resource::<PendingConfirm>().0,
        Some(Request::Restart)
    );
    request(&mut app, Request::Confirm(false));
    assert_eq!(app.world().resource::<PendingConfirm>().0, None);
    assert_eq!(app.world().resource::<Table>().game.move_count(), 1);
    request(&mut app, Request::Restart);
    request(&mut app, Request::Confirm(true));
    assert_eq!(app.world().resource::<Table>().game.move_count(), 0);
    run_to_rest(&mut app);
    assert_matches_engine(&mut app);
}

#[test]
fn an_illegal_request_changes_nothing() {
    let mut app = app("spider-2suit", 1);
    run_to_rest(&mut app);
    let before = app.world().resource::<Piles>().clone();
    request(
        &mut app,
        Request::Move(Move::Transfer {
            from: 0,
            to: 1,
            count: 13,
        }),
    );
    request(&mut app, Request::Redo);
    assert_eq!(animating(&mut app), 0);
    assert_eq!(app.world().resource::<Piles>().columns, before.columns);
    assert_eq!(app.world().resource::<Table>().game.move_count(), 0);
}

fn app_from(text: &str) -> App {
    let position =
        arachne_engine::Position::parse(text, &arachne_engine::Variants::default()).unwrap();
    let spec = GameSpec::builtin(&position.variant().id, 0, Numbering::Arachne).unwrap();
    let game = arachne_engine::Game::from_position(
        position.clone(),
        arachne_engine::GameOptions::for_variant(position.variant()),
    );
    app_with(Table { game, spec })
}

#[test]
fn a_win_throws_the_cards_and_a_key_skips_the_celebration() {
    let mut app = app_from(
        "variant: will-o-the-wisp\nstock:\nfoundation: 3\n1: Kh Qh Jh Th 9h 8h 7h 6h 5h 4h 3h 2h\n2: Ah\n3: \n4:\n5:\n6:\n7:\n",
    );
    run_to_rest(&mut app);
    assert_matches_engine(&mut app);
    request(&mut app, Request::Move("2>1:1".parse().unwrap()));
    assert!(app.world().resource::<Table>().game.is_won());
    assert!(
        app.world()
            .resource::<arachne::cards::motion::Celebrating>()
            .0
    );
    // Every card of the four runs takes part.
    assert_eq!(animating(&mut app), 52);
    for _ in 0..30 {
        app.update();
    }
    assert!(animating(&mut app) > 0, "still celebrating");
    for state in [
        bevy::input::ButtonState::Pressed,
        bevy::input::ButtonState::Released,
    ] {
        app.world_mut()
            .write_message(bevy::input::keyboard::KeyboardInput {
                key_code: KeyCode::Space,
                logical_key: bevy::input::keyboard::Key::Space,
                state,
                text: None,
                repeat: false,
                window: Entity::PLACEHOLDER,
            });
        app.update();
    }
    assert_eq!(animating(&mut app), 0, "skipped at once");
    assert!(
        !app.world()
            .resource::<arachne::cards::motion::Celebrating>()
            .0
    );
    app.update();
    assert_matches_engine(&mut app);
}

/// Issue 15: the cascade ends by itself, every card back in its place on the foundation
/// (cards of runs completed before the last used to land in the middle of the table, and the
/// table waited for a click that nothing asked for).
#[test]
fn a_win_cascade_ends_by_itself_with_every_card_home() {
    let mut app = app_from(
        "variant: will-o-the-wisp\nstock:\nfoundation: 3\n1: Kh Qh Jh Th 9h 8h 7h 6h 5h 4h 3h 2h\n2: Ah\n3: \n4:\n5:\n6:\n7:\n",
    );
    run_to_rest(&mut app);
    request(&mut app, Request::Move("2>1:1".parse().unwrap()));
    assert!(
        app.world()
            .resource::<arachne::cards::motion::Celebrating>()
            .0
    );
    let frames = run_to_rest(&mut app);
    // 4.2 s of cascade after the sweep, at 16 ms a frame: it plays out, then stops.
    assert!((250..400).contains(&frames), "{frames} frames");
    assert!(
        !app.world()
            .resource::<arachne::cards::motion::Celebrating>()
            .0
    );
    assert_matches_engine(&mut app);
}

#[test]
fn instant_settings_place_cards_without_motion() {
    let mut app = app("spider-2suit", 21);
    run_to_rest(&mut app);
    app.world_mut()
        .resource_mut::<arachne::core::settings::Settings>()
        .animation
        .instant = true;
    let mv = first_transfer(&app);
    request(&mut app, Request::Move(mv));
    assert_eq!(animating(&mut app), 0);
    app.update();
    assert_matches_engine(&mut app);
    request(&mut app, Request::Move(Move::Deal));
    request(&mut app, Request::Undo);
    assert_eq!(animating(&mut app), 0);
    app.update();
    assert_matches_engine(&mut app);
}

#[test]
fn statistics_count_a_win_once_and_an_abandoned_game_as_a_loss() {
    use arachne::core::persist::{Saves, load};
    use arachne::spider::saves::{STATS_KEY, Statistics};
    let storage = std::sync::Arc::new(arachne::core::persist::MemoryStorage::default());
    let mut app = app_from(
        "variant: will-o-the-wisp\nstock:\nfoundation: 3\n1: Kh Qh Jh Th 9h 8h 7h 6h 5h 4h 3h 2h\n2: Ah\n3: \n4:\n5:\n6:\n7:\n",
    );
    app.insert_resource(Saves(storage.clone()));
    request(&mut app, Request::Move("2>1:1".parse().unwrap()));
    request(&mut app, Request::Undo);
    request(&mut app, Request::Redo);
    let s = app.world().resource::<Statistics>().variants["will-o-the-wisp"].clone();
    assert_eq!(
        (s.played, s.won, s.current_streak, s.fewest_moves),
        (1, 1, 1, Some(1))
    );
    // After a win, a new deal is not a loss; nor is one with no move made; a move then a new
    // deal is.
    request(&mut app, Request::NewDeal);
    request(&mut app, Request::Restart);
    assert_eq!(
        app.world().resource::<Statistics>().variants["will-o-the-wisp"].played,
        1
    );
    let moves = app.world().resource::<Table>().game.legal_moves();
    request(&mut app, Request::Move(moves[0]));
    request(&mut app, Request::NewDeal);
    request(&mut app, Request::Confirm(true));
    let s = app.world().resource::<Statistics>().variants["will-o-the-wisp"].clone();
    assert_eq!(
        (s.played, s.won, s.current_streak, s.current_loss_streak),
        (2, 1, 0, 1)
    );
    // A move undone back to the deal is still a move made: leaving the deal is a loss too.
    let moves = app.world().resource::<Table>().game.legal_moves();
    request(&mut app, Request::Move(moves[0]));
    request(&mut app, Request::Undo);
    assert_eq!(app.world().resource::<Table>().game.move_count(), 0);
    request(&mut app, Request::NewDeal);
    request(&mut app, Request::Confirm(true));
    let s = app.world().resource::<Statistics>().variants["will-o-the-wisp"].clone();
    assert_eq!((s.played, s.current_loss_streak), (3, 2));
    // And they were saved.
    assert_eq!(
        load::<Statistics>(storage.as_ref(), STATS_KEY),
        arachne::core::persist::Loaded::Ok(app.world().resource::<Statistics>().clone())
    );
}

#[test]
fn slow_frames_keep_motion_to_the_wall_clock() {
    let mut app = app("spider-1suit", 3);
    // A frame of 600 ms (a browser drawing in software is that slow at times): the game's
    // clock advances by all of it, not by Bevy's default cap of 250 ms.
    app.insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_millis(
        600,
    )));
    app.update();
    app.update();
    let time = app.world().resource::<Time<Virtual>>();
    assert_eq!(time.delta(), Duration::from_millis(600));
    // A long stall still counts as one step.
    app.insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs(30)));
    app.update();
    let time = app.world().resource::<Time<Virtual>>();
    assert_eq!(time.delta(), arachne::MAX_FRAME_STEP);
}

/// A new game and a move of it in the same frame (found by the soak test): the old table's
/// cards, queued for despawn, get no motion, and the new table ends matching the engine.
#[test]
fn a_move_right_behind_a_new_game_in_one_frame() {
    let mut app = app("spider-2suit", 3);
    run_to_rest(&mut app);
    let first = first_transfer(&app);
    request(&mut app, Request::Move(first));
    run_to_rest(&mut app);
    let spec = GameSpec::builtin("spider-2suit", 8, Numbering::Arachne).unwrap();
    let next = Table::new(spec.clone()).unwrap().game.legal_moves()[0];
    app.world_mut().write_message(Request::NewGame(spec));
    app.world_mut().write_message(Request::Confirm(true));
    app.world_mut().write_message(Request::Move(next));
    app.update();
    run_to_rest(&mut app);
    assert_eq!(
        app.world()
            .resource::<Table>()
            .game
            .history()
            .collect::<Vec<_>>(),
        vec![next]
    );
    assert_matches_engine(&mut app);
}

#[test]
fn leaving_spider_despawns_its_cards_and_coming_back_resumes_the_game() {
    use arachne::GameKind;
    use arachne::spider::piles::CardView;
    use arachne::spider::table::GameRecord;
    let cards = |app: &mut App| {
        app.world_mut()
            .query_filtered::<(), With<CardView>>()
            .iter(app.world())
            .count()
    };
    let mut app = app("spider-1suit", 3);
    run_to_rest(&mut app);
    let mv = first_transfer(&app);
    request(&mut app, Request::Move(mv));
    run_to_rest(&mut app);
    let deck = cards(&mut app);
    assert_eq!(deck, 104);
    let clock = app.world().resource::<GameRecord>().elapsed;

    app.world_mut()
        .resource_mut::<NextState<GameKind>>()
        .set(GameKind::ProSpider10);
    app.update();
    assert_eq!(cards(&mut app), 0, "Spider's cards leave with it");
    // Spider's systems are off: a request waits for nobody, the clock stands still.
    request(&mut app, Request::Undo);
    for _ in 0..30 {
        app.update();
    }
    assert_eq!(app.world().resource::<Table>().game.move_count(), 1);
    assert_eq!(app.world().resource::<GameRecord>().elapsed, clock);

    app.world_mut()
        .resource_mut::<NextState<GameKind>>()
        .set(GameKind::Spider);
    app.update();
    run_to_rest(&mut app);
    assert_eq!(cards(&mut app), deck);
    assert_eq!(app.world().resource::<Table>().game.move_count(), 1);
    assert_matches_engine(&mut app);
    // And it plays on.
    request(&mut app, Request::Undo);
    run_to_rest(&mut app);
    assert_eq!(app.world().resource::<Table>().game.move_count(), 0);
    assert_matches_engine(&mut app);
}

/// The layout's settings edited while the game runs (the settings file is read again as it
/// changes) lay the table out again at once. Before, the cards kept the old layout until the
/// next move or resize.
#[test]
fn a_layout_setting_changed_while_playing_lays_the_table_out_again() {
    let mut app = app("spider-2suit", 5);
    run_to_rest(&mut app);
    let before = app
        .world()
        .resource::<arachne::spider::layout::Layout>()
        .clone();
    app.world_mut()
        .resource_mut::<arachne::core::settings::Settings>()
        .layout
        .gap += 12.0;
    run_to_rest(&mut app);
    let after = app
        .world()
        .resource::<arachne::spider::layout::Layout>()
        .clone();
    assert_ne!(before, after, "the table was laid out again");
    assert_matches_engine(&mut app);
    // And the layout is the one those settings make.
    let piles = app.world().resource::<Piles>().clone();
    let settings = app
        .world()
        .resource::<arachne::core::settings::Settings>()
        .clone();
    let size = app
        .world_mut()
        .query::<&Window>()
        .iter(app.world())
        .next()
        .map_or(Vec2::new(1280.0, 720.0), |w| {
            Vec2::new(w.width(), w.height())
        });
    assert_eq!(
        after,
        arachne::spider::layout::Layout::compute(&piles.shape(), size, &settings.layout)
    );
}
