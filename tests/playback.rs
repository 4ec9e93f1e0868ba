//! Headless tests of what plays by itself and what the overlay drives: the replay viewer's
//! state machine (start, pause, step back, resume, jumps, close), auto-complete, the demo,
//! "still winnable?", winnable deals, the question before abandoning a game, and what is saved
//! (settings, finished games' replays). Virtual time advances 16 ms a frame.
use std::sync::Arc;
use std::time::Duration;

use arachne::core::persist::{self, MemoryStorage, SaveSettings, Saves, Storage, load};
use arachne::core::settings::{SETTINGS_KEY, Settings};
use arachne::logic_plugin;
use arachne::spider::assist::{Ask, Outlook, Thinking};
use arachne::spider::piles::Piles;
use arachne::spider::playback::{Control, Kind, Playback, Stash, open_replay};
use arachne::spider::saves::{self, Statistics, saved_replays};
use arachne::spider::table::{GameSpec, PendingConfirm, Request, Table, Watching};
use arachne_engine::solver::{Budget, Verdict, solve};
use arachne_engine::{Move, Numbering, Replay};
use bevy::input::InputPlugin;
use bevy::prelude::*;
use bevy::state::app::StatesPlugin;
use bevy::time::TimeUpdateStrategy;

mod common;
use common::{OtherCopy, animating, assert_told};

fn table(variant: &str, seed: u64) -> Table {
    Table::new(GameSpec::builtin(variant, seed, Numbering::Arachne).unwrap()).unwrap()
}

/// The logic plugins with `table`, fast motion, and the solver's background check as asked.
fn app(table: Table, still_winnable: bool) -> App {
    let mut app = App::new();
    let mut settings = Settings::default();
    settings.animation.speed = 4.0;
    settings.game.still_winnable = still_winnable;
    app.add_plugins((MinimalPlugins, StatesPlugin, InputPlugin))
        .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_millis(
            16,
        )))
        .insert_resource(table)
        .insert_resource(settings)
        .add_message::<AppExit>();
    logic_plugin(&mut app);
    app.update();
    app
}

fn send<M: Message>(app: &mut App, m: M) {
    app.world_mut().write_message(m);
    app.update();
}

fn run_to_rest(app: &mut App) {
    for _ in 0..5000 {
        app.update();
        if animating(app) == 0 {
            app.update();
            return;
        }
    }
    panic!("the table never came to rest");
}

/// Runs frames until `done` holds (the solver works on other threads in real time). The limit
/// is generous: the tests of one binary share the solver's thread pool, and CI machines are
/// busy; this checks that the answer comes, not how fast (BENCHMARKS.md does that).
fn run_until(app: &mut App, what: &str, mut done: impl FnMut(&mut App) -> bool) {
    let deadline = std::time::Instant::now() + Duration::from_secs(90);
    while std::time::Instant::now() < deadline {
        if done(app) {
            return;
        }
        app.update();
        std::thread::sleep(Duration::from_millis(5));
    }
    panic!("timed out waiting for {what}");
}

/// A real key press and release through Bevy's input plugin.
fn key(app: &mut App, code: KeyCode) {
    use bevy::input::ButtonState;
    use bevy::input::keyboard::{Key, KeyboardInput, NativeKey};
    for state in [ButtonState::Pressed, ButtonState::Released] {
        app.world_mut().write_message(KeyboardInput {
            key_code: code,
            logical_key: Key::Unidentified(NativeKey::Unidentified),
            state,
            text: None,
            repeat: false,
            window: Entity::PLACEHOLDER,
        });
        app.update();
    }
}

fn table_of(app: &App) -> &Table {
    app.world().resource::<Table>()
}

fn history(app: &App) -> Vec<Move> {
    table_of(app).game.history().collect()
}

fn playback(app: &App) -> &Playback {
    app.world().resource::<Playback>()
}

/// The solver's winning line for a deal (1 suit: found in milliseconds).
fn line(t: &Table) -> Vec<Move> {
    match solve(t.game.position(), Budget::nodes(5_000_000), None).verdict {
        Verdict::Solved(moves) => moves,
        v => panic!("deal {} not solved: {v:?}", t.spec.seed),
    }
}

fn open_history(app: &mut App, playing: bool) {
    let open = Control::history(table_of(app), playing);
    send(app, open);
}

#[test]
fn the_viewer_starts_pauses_steps_back_resumes_and_closes_back_to_the_game() {
    let t = table("spider-1suit", 7);
    let moves: Vec<Move> = line(&t).into_iter().take(12).collect();
    let mut app = app(t, false);
    run_to_rest(&mut app);
    for &mv in &moves {
        send(&mut app, Request::Move(mv));
    }
    // An undone move waits to be redone: the player's game must come back with it.
    send(&mut app, Request::Undo);
    run_to_rest(&mut app);
    let before = table_of(&app).clone();
    let played: Vec<Move> = history(&app);
    let storage = Arc::new(MemoryStorage::default());
    app.insert_resource(Saves(storage.clone()));

    // Start: the table shows the deal and plays the game's moves one by one.
    open_history(&mut app, true);
    assert!(app.world().resource::<Watching>().0);
    assert!(app.world().contains_resource::<Stash>());
    assert_eq!(table_of(&app).game.move_count(), 0);
    run_until(&mut app, "three moves", |a| playback(a).at >= 3);
    assert_eq!(history(&app), played[..playback(&app).at].to_vec());

    // Pause: nothing more is played.
    send(&mut app, Control::Pause);
    run_to_rest(&mut app);
    let at = playback(&app).at;
    for _ in 0..120 {
        app.update();
    }
    assert_eq!(playback(&app).at, at);
    assert_eq!(table_of(&app).game.move_count(), at);

    // Step back, twice; step forward once.
    send(&mut app, Control::StepBack);
    send(&mut app, Control::StepBack);
    assert_eq!(playback(&app).at, at - 2);
    assert_eq!(history(&app), played[..at - 2].to_vec());
    send(&mut app, Control::StepForward);
    assert_eq!(history(&app), played[..at - 1].to_vec());
    assert!(!playback(&app).playing);

    // Resume at double speed: it plays on to the end and stops there, paused.
    send(&mut app, Control::Speed(2.0));
    send(&mut app, Control::Play);
    run_until(&mut app, "the end", |a| playback(a).at_end());
    run_to_rest(&mut app);
    assert!(!playback(&app).playing);
    assert_eq!(history(&app), played);

    // Jumps show the table at once, without motion.
    send(&mut app, Control::Seek(4));
    assert_eq!(history(&app), played[..4].to_vec());
    assert_eq!(animating(&mut app), 0);
    send(&mut app, Control::ToStart);
    assert_eq!(table_of(&app).game.move_count(), 0);
    send(&mut app, Control::ToEnd);
    assert_eq!(history(&app), played);

    // Played again from its end: the deal is dealt out as a new game's is, then the moves.
    send(&mut app, Control::Toggle);
    assert_eq!(table_of(&app).game.move_count(), 0);
    assert!(playback(&app).playing);
    assert!(animating(&mut app) > 0, "the deal moves");
    send(&mut app, Control::Pause);
    run_to_rest(&mut app);
    send(&mut app, Control::ToEnd);
    assert_eq!(history(&app), played);

    // Nothing was saved while watching, and nothing counted.
    assert_eq!(storage.read(saves::GAME_KEY).unwrap(), None);
    assert_eq!(app.world().resource::<Statistics>(), &Statistics::default());

    // Close: the player's game is back as it was, redo included, and play goes on.
    send(&mut app, Control::Close);
    run_to_rest(&mut app);
    assert!(!app.world().contains_resource::<Playback>());
    assert!(!app.world().contains_resource::<Stash>());
    assert!(!app.world().resource::<Watching>().0);
    assert_eq!(history(&app), before.game.history().collect::<Vec<_>>());
    assert!(table_of(&app).game.can_redo());
    send(&mut app, Request::Redo);
    assert_eq!(history(&app), moves);
    assert!(storage.read(saves::GAME_KEY).unwrap().is_some());
}

#[test]
fn viewer_keys_drive_it_and_the_table_ignores_them() {
    let t = table("spider-1suit", 8);
    let moves: Vec<Move> = line(&t).into_iter().take(24).collect();
    let mut app = app(t, false);
    for &mv in &moves {
        send(&mut app, Request::Move(mv));
    }
    run_to_rest(&mut app);
    open_history(&mut app, false);
    run_to_rest(&mut app);
    let press = key;
    press(&mut app, KeyCode::ArrowRight);
    press(&mut app, KeyCode::ArrowRight);
    assert_eq!(playback(&app).at, 2);
    press(&mut app, KeyCode::ArrowLeft);
    assert_eq!(playback(&app).at, 1);
    // Page Down and Page Up go 10 moves on or back, no further than the ends.
    press(&mut app, KeyCode::PageDown);
    assert_eq!(playback(&app).at, 11);
    press(&mut app, KeyCode::PageDown);
    press(&mut app, KeyCode::PageDown);
    assert_eq!(playback(&app).at, 24);
    press(&mut app, KeyCode::PageUp);
    assert_eq!(playback(&app).at, 14);
    press(&mut app, KeyCode::PageUp);
    press(&mut app, KeyCode::PageUp);
    assert_eq!(playback(&app).at, 0);
    press(&mut app, KeyCode::End);
    assert_eq!(playback(&app).at, 24);
    // Held: each repeat goes on, two in one frame (a slow frame) as two presses would.
    press(&mut app, KeyCode::Home);
    let w = Entity::PLACEHOLDER;
    for repeat in [false, true] {
        app.world_mut()
            .write_message(bevy::input::keyboard::KeyboardInput {
                key_code: KeyCode::PageDown,
                logical_key: bevy::input::keyboard::Key::PageDown,
                state: bevy::input::ButtonState::Pressed,
                text: None,
                repeat,
                window: w,
            });
    }
    app.update();
    app.update();
    assert_eq!(playback(&app).at, 20);
    common::hold_key(&mut app, w, KeyCode::PageDown, false);
    press(&mut app, KeyCode::End);
    // D would deal in a game; in the viewer it does nothing.
    press(&mut app, KeyCode::KeyD);
    assert_eq!(table_of(&app).game.move_count(), 24);
    press(&mut app, KeyCode::Escape);
    assert!(!app.world().contains_resource::<Playback>());
    assert_eq!(history(&app), moves);
}

#[test]
fn auto_complete_plays_the_game_out_and_the_win_counts() {
    let t = table("spider-1suit", 12);
    let mut app = app(t, false);
    run_to_rest(&mut app);
    let first = line(table_of(&app))[0];
    send(&mut app, Request::Move(first));
    send(&mut app, Ask::AutoComplete);
    // The search runs off the main thread, then the line plays on the player's own game.
    run_until(&mut app, "the line", |a| {
        a.world().contains_resource::<Playback>()
    });
    assert_eq!(playback(&app).kind, Kind::AutoComplete);
    assert!(!app.world().resource::<Watching>().0);
    send(&mut app, Control::Speed(8.0));
    run_until(&mut app, "the win", |a| {
        a.world().resource::<Table>().game.is_won()
    });
    run_until(&mut app, "the end of auto-complete", |a| {
        !a.world().contains_resource::<Playback>()
    });
    let s = app.world().resource::<Statistics>().variants["spider-1suit"].clone();
    assert_eq!((s.played, s.won), (1, 1));
    // The solver played it: a win, but not a best or part of a streak.
    assert_eq!(s.assisted_wins, 1);
    assert_eq!(
        (s.current_streak, s.best_time_secs, s.best_score),
        (0, None, None)
    );
}

/// Auto-complete playing a deal's line, two moves into it.
fn auto_complete_under_way() -> App {
    let mut app = app(table("spider-1suit", 13), true);
    run_to_rest(&mut app);
    // The background check finds the line first; auto-complete then starts at once.
    run_until(&mut app, "the outlook", |a| {
        matches!(a.world().resource::<Outlook>(), Outlook::Winnable(_))
    });
    send(&mut app, Ask::AutoComplete);
    assert!(app.world().contains_resource::<Playback>());
    assert!(!app.world().contains_resource::<Thinking>());
    run_until(&mut app, "two moves", |a| {
        a.world().resource::<Table>().game.move_count() >= 2
    });
    app
}

#[test]
fn a_key_stops_auto_complete_and_the_player_goes_on_by_hand() {
    let mut app = auto_complete_under_way();
    key(&mut app, KeyCode::KeyU);
    assert!(!app.world().contains_resource::<Playback>());
    let n = table_of(&app).game.move_count();
    for _ in 0..200 {
        app.update();
    }
    // Nothing more played by itself (the U undid one move).
    assert!(table_of(&app).game.move_count() <= n);
}

/// + and - change auto-complete's speed (the bar's list), and it plays on.
#[test]
fn plus_and_minus_change_auto_completes_speed_without_stopping_it() {
    let mut app = auto_complete_under_way();
    let speed = playback(&app).speed;
    // (+ is Shift and = on a US keyboard: the Shift alone does not stop it.)
    key(&mut app, KeyCode::ShiftLeft);
    key(&mut app, KeyCode::Equal);
    assert!(app.world().contains_resource::<Playback>(), "it plays on");
    assert!(playback(&app).speed > speed);
    key(&mut app, KeyCode::NumpadSubtract);
    key(&mut app, KeyCode::Minus);
    assert!(playback(&app).speed < speed);
    let n = table_of(&app).game.move_count();
    run_until(&mut app, "another move", |a| {
        a.world().resource::<Table>().game.move_count() > n
    });
}

/// A, the key that starts auto-complete, stops it too (as any key does), and does not start it
/// again: before, the search's line was still there and auto-complete began anew at once.
#[test]
fn a_stops_auto_complete_and_does_not_start_it_again() {
    let mut app = auto_complete_under_way();
    key(&mut app, KeyCode::KeyA);
    assert!(!app.world().contains_resource::<Playback>());
    let n = table_of(&app).game.move_count();
    for _ in 0..200 {
        app.update();
        assert!(
            !app.world().contains_resource::<Playback>(),
            "started again"
        );
    }
    assert_eq!(table_of(&app).game.move_count(), n);
}

#[test]
fn the_outlook_follows_the_game() {
    let t = table("spider-1suit", 21);
    let mut app = app(t, true);
    let line = known_line(&mut app);
    // Following the line keeps the rest of it, with no new search.
    send(&mut app, Request::Move(line[0]));
    assert_eq!(
        app.world().resource::<Outlook>(),
        &Outlook::Winnable(line[1..].to_vec())
    );
    // Leaving it asks again.
    send(&mut app, Request::Undo);
    for _ in 0..3 {
        app.update();
    }
    assert_eq!(app.world().resource::<Outlook>(), &Outlook::Checking);
    run_until(&mut app, "a new verdict", |a| {
        matches!(a.world().resource::<Outlook>(), Outlook::Winnable(_))
    });
    // Turned off in the settings: no verdict is shown.
    app.world_mut()
        .resource_mut::<Settings>()
        .game
        .still_winnable = false;
    app.update();
    assert_eq!(app.world().resource::<Outlook>(), &Outlook::Off);
}

/// The game app at a position given in the notation (deal 1 of its variant, for the record).
fn app_at(position: &str, still_winnable: bool) -> App {
    let position =
        arachne_engine::Position::parse(position, &arachne_engine::Variants::default()).unwrap();
    let spec = GameSpec::builtin(&position.variant().id, 1, Numbering::Arachne).unwrap();
    let game = arachne_engine::Game::from_position(position, spec.options);
    app(Table { game, spec }, still_winnable)
}

#[test]
fn a_lost_game_is_reported_lost_and_auto_complete_says_so() {
    // Every Heart is buried under a higher one: no move, no stock.
    let mut app = app_at(
        "variant: will-o-the-wisp\nstock:\nfoundation: 3\n1: Qh Kh\n2: Th Jh\n3: 8h 9h\n4: 6h 7h\n5: 4h 5h\n6: 2h 3h\n7: Ah\n",
        true,
    );
    run_until(&mut app, "a verdict", |a| {
        !matches!(a.world().resource::<Outlook>(), Outlook::Checking)
    });
    assert_eq!(app.world().resource::<Outlook>(), &Outlook::Lost);
    send(&mut app, Ask::AutoComplete);
    assert!(!app.world().contains_resource::<Thinking>());
    assert!(!app.world().contains_resource::<Playback>());
    assert_told(&app, "cannot be won");
}

/// A review found it: a hint where the solver knows no win (here none is left) showed a move
/// like one of a winning line. It still shows the move its ordering likes best, and says so.
#[test]
fn a_hint_in_a_lost_game_says_it_is_no_winning_lines_move() {
    use arachne::spider::highlights::Highlights;
    use arachne::spider::hint::{AskHint, HintTask};
    // The only moves take the 5 to one 6 or the other, and back: it is lost.
    let mut app = app_at(
        "variant: spider-1suit\nstock:\nfoundation: 6\n1: Ks 5s\n2: Qs 6s\n3: Qs 6s\n4: 7s 9s\n5: 7s 9s\n6: 8s As Js\n7: 8s As Js\n8: 3s Ts 2s\n9: 3s Ts 4s 2s\n10: 4s 5s Ks\n",
        false,
    );
    run_to_rest(&mut app);
    send(&mut app, AskHint);
    run_until(&mut app, "the hint's search", |a| {
        !a.world().contains_resource::<HintTask>()
    });
    app.update();
    let Some((hinted, _)) = app.world().resource::<Highlights>().hint else {
        panic!("no hint")
    };
    assert!(table_of(&app).game.legal_moves().contains(&hinted));
    assert_told(&app, "no winning line is known");
}

#[test]
fn the_demo_plays_the_deal_and_closing_it_brings_the_game_back() {
    let t = table("spider-1suit", 31);
    let mut app = app(t, false);
    run_to_rest(&mut app);
    let mv = line(table_of(&app))[0];
    send(&mut app, Request::Move(mv));
    send(&mut app, Ask::Demo);
    run_until(&mut app, "the demo", |a| {
        a.world().contains_resource::<Playback>()
    });
    assert_eq!(playback(&app).kind, Kind::Demo);
    assert!(app.world().resource::<Watching>().0);
    run_until(&mut app, "two demo moves", |a| {
        a.world().resource::<Playback>().at >= 2
    });
    send(&mut app, Control::Close);
    assert_eq!(history(&app), vec![mv]);
    run_to_rest(&mut app);
    assert_eq!(app.world().resource::<Statistics>(), &Statistics::default());
    // The player has seen the solver win this deal: the game is an assisted one now.
    assert!(
        app.world()
            .resource::<arachne::spider::table::GameRecord>()
            .assisted
    );
}

/// A review found it: the demo of a deal, asked just before the player dealt another, marked
/// the new game as helped. Only the deal the solver played is.
#[test]
fn a_demo_of_an_earlier_deal_does_not_mark_the_new_game_helped() {
    use arachne::spider::table::GameRecord;
    let mut app = app(table("spider-1suit", 31), false);
    run_to_rest(&mut app);
    // The demo is asked on deal 31, and in the same frame the player deals anew.
    app.world_mut().write_message(Ask::Demo);
    send(&mut app, Request::NewDeal);
    let new_seed = table_of(&app).spec.seed;
    assert_ne!(new_seed, 31);
    run_until(&mut app, "the demo", |a| {
        a.world().contains_resource::<Playback>()
    });
    assert_eq!(playback(&app).start.spec.seed, 31);
    send(&mut app, Control::Close);
    assert_eq!(table_of(&app).spec.seed, new_seed);
    assert!(!app.world().resource::<GameRecord>().assisted);
    // The demo of the deal on the table still marks it.
    send(&mut app, Ask::Demo);
    run_until(&mut app, "the second demo", |a| {
        a.world().contains_resource::<Playback>()
    });
    send(&mut app, Control::Close);
    assert!(app.world().resource::<GameRecord>().assisted);
}

/// A hint asked in the frame of a move, or in the frame after it, is a hint for the position
/// after the move, and it comes (before, the search started on the position before the move,
/// and the move's message then cancelled it: H pressed with a move in the same frame showed
/// nothing).
#[test]
fn a_hint_asked_with_a_move_is_for_the_position_after_it() {
    use arachne::spider::highlights::Highlights;
    use arachne::spider::hint::{AskHint, HintTask};
    for frames_after in [0, 1] {
        let t = table("spider-1suit", 31);
        let mv = line(&t)[0];
        let mut app = app(t, false);
        run_to_rest(&mut app);
        app.world_mut().write_message(Request::Move(mv));
        for _ in 0..frames_after {
            app.update();
        }
        send(&mut app, AskHint);
        run_until(&mut app, "the hint's search", |a| {
            !a.world().contains_resource::<HintTask>()
        });
        app.update();
        assert_eq!(history(&app), vec![mv]);
        let hint = app.world().resource::<Highlights>().hint;
        let Some((hinted, _)) = hint else {
            panic!("no hint {frames_after} frame(s) after the move")
        };
        assert!(
            table_of(&app).game.legal_moves().contains(&hinted),
            "{hinted:?} is not a move of the position after {mv:?}"
        );
    }
}

/// Issue 15: the clock starts with the first move and stops while the viewer shows another
/// game or a window is over the table; it comes back with the game. (Headless, each frame is
/// 16 ms of real time too.)
#[test]
fn the_clock_runs_only_while_the_player_plays() {
    use arachne::core::focus::OverlayOpen;
    use arachne::spider::table::GameRecord;
    let mut app = app(table("spider-1suit", 31), false);
    run_to_rest(&mut app);
    let clock = |app: &App| app.world().resource::<GameRecord>().elapsed;
    let frames = |app: &mut App, n: usize| {
        for _ in 0..n {
            app.update();
        }
    };
    // No move yet: the clock has not started, however long the deal sits there.
    frames(&mut app, 60);
    assert_eq!(clock(&app), 0.0);
    let mv = line(table_of(&app))[0];
    send(&mut app, Request::Move(mv));
    let started = clock(&app);
    frames(&mut app, 62);
    let running = clock(&app) - started;
    assert!((running - 62.0 * 0.016).abs() < 1e-3, "{running}");
    // A window over the table stops it.
    app.insert_resource(OverlayOpen(true));
    app.update();
    let paused = clock(&app);
    frames(&mut app, 60);
    assert_eq!(clock(&app), paused);
    app.insert_resource(OverlayOpen(false));
    app.update();
    assert!(clock(&app) > paused);
    // So does the viewer, and closing it brings the game's clock back as it was.
    let before = clock(&app);
    open_history(&mut app, false);
    frames(&mut app, 60);
    send(&mut app, Control::Close);
    assert!(clock(&app) - before < 0.05, "{before} then {}", clock(&app));
    // The clock saved with the game is the one the bar shows.
    let record = *app.world().resource::<GameRecord>();
    let replay = record.replay_of(table_of(&app));
    assert_eq!(replay.secs, Some(record.clock()));
}

/// Waits for the outlook's first verdict of "winnable", and takes its line.
fn known_line(app: &mut App) -> Vec<Move> {
    run_until(app, "a verdict", |a| {
        matches!(a.world().resource::<Outlook>(), Outlook::Winnable(_))
    });
    let Outlook::Winnable(line) = app.world().resource::<Outlook>().clone() else {
        unreachable!()
    };
    line
}

/// The outlook knows a line for `t`'s deal, and it wins.
fn assert_outlook_wins(app: &App, t: &Table) {
    let Outlook::Winnable(line) = app.world().resource::<Outlook>().clone() else {
        panic!("{:?}", app.world().resource::<Outlook>())
    };
    let mut g = t.game.clone();
    for mv in line {
        g.apply(mv).unwrap();
    }
    assert!(g.is_won());
}

#[test]
fn winnable_deals_only_deals_one_the_solver_won() {
    let mut app = app(table("spider-2suit", 1), true);
    let spec = table_of(&app).spec.clone();
    // (A 2-suit deal is often solved within the frame that asked, so the search may be over
    // already.)
    send(&mut app, Ask::WinnableDeal(spec));
    run_until(&mut app, "a winnable deal", |a| {
        !a.world().contains_resource::<Thinking>()
    });
    app.update();
    let t = table_of(&app).clone();
    assert_ne!(t.spec.seed, 1);
    // The outlook already knows the line, and it wins.
    assert_outlook_wins(&app, &t);
}

/// A review found it: a winnable deal found while the player watched a replay replaced the
/// table under the viewer, and closing the viewer then brought the old game back, the found deal
/// lost. Now it waits, and is dealt once the player is back at their own game.
#[test]
fn a_deal_found_while_a_replay_is_watched_is_dealt_after_it() {
    let mut app = app(table("spider-1suit", 31), true);
    app.world_mut()
        .resource_mut::<Settings>()
        .game
        .confirm_new_game = false;
    run_to_rest(&mut app);
    let mv = line(table_of(&app))[0];
    send(&mut app, Request::Move(mv));
    let spec = table_of(&app).spec.clone();
    // Asked, and the viewer opened, in one frame: the viewer opens before the search can end.
    app.world_mut().write_message(Ask::WinnableDeal(spec));
    open_history(&mut app, false);
    assert!(app.world().resource::<Watching>().0);
    run_until(&mut app, "a winnable deal", |a| {
        !a.world().contains_resource::<Thinking>()
    });
    for _ in 0..10 {
        app.update();
    }
    // The viewer still shows the player's game from its deal, untouched.
    assert!(app.world().contains_resource::<Playback>());
    assert_eq!(table_of(&app).spec.seed, 31);
    assert!(history(&app).is_empty());
    assert_told(&app, "close the replay");
    send(&mut app, Control::Close);
    run_until(&mut app, "the found deal", |a| table_of(a).spec.seed != 31);
    app.update();
    let t = table_of(&app).clone();
    assert!(t.game.steps().is_empty());
    assert!(!app.world().contains_resource::<Playback>());
    // The deal is the one found, and the outlook knows its line.
    assert_outlook_wins(&app, &t);
    // The game left for it counts as given up, once.
    let stats = app.world().resource::<Statistics>();
    assert_eq!(stats.variants["spider-1suit"].played, 1);
    assert_eq!(stats.variants["spider-1suit"].won, 0);
}

/// A review found it: "Completed runs" changed while a winnable deal was sought dealt it with
/// the new discard mode and the line found for the old one, which the hint, the bar and
/// auto-complete then used. Now a deal winnable with the new mode is sought.
#[test]
fn a_deal_sought_before_completed_runs_changed_is_sought_again_with_the_new_setting() {
    let mut app = app(table("spider-1suit", 1), true);
    app.world_mut()
        .resource_mut::<Settings>()
        .game
        .confirm_new_game = false;
    let spec = table_of(&app).spec.clone();
    assert_eq!(spec.options.discard, arachne_engine::DiscardMode::Automatic);
    app.world_mut().write_message(Ask::WinnableDeal(spec));
    app.world_mut().resource_mut::<Settings>().game.discard =
        Some(arachne_engine::DiscardMode::Manual);
    run_until(&mut app, "a deal dealt", |a| {
        table_of(a).spec.seed != 1 && !a.world().contains_resource::<Thinking>()
    });
    app.update();
    let t = table_of(&app).clone();
    assert_eq!(t.spec.options.discard, arachne_engine::DiscardMode::Manual);
    assert_told(&app, "changed meanwhile");
    // The line the outlook knows wins this game, completed runs removed by hand.
    assert_outlook_wins(&app, &t);
}

/// A review found it: of two changes in one frame, the second a move of the known line, the
/// line was kept (less that move) for a position never searched.
#[test]
fn a_line_move_after_another_change_in_one_frame_does_not_keep_the_line() {
    let t = table("spider-1suit", 21);
    let mut app = app(t, true);
    let line = known_line(&mut app);
    // Another move that leaves the line's first still playable after it.
    let game = table_of(&app).game.clone();
    let other = game
        .legal_moves()
        .into_iter()
        .find(|&m| {
            m != line[0] && {
                let mut g = game.clone();
                g.apply(m).is_ok() && g.legal_moves().contains(&line[0])
            }
        })
        .expect("another move");
    app.world_mut().write_message(Request::Move(other));
    app.world_mut().write_message(Request::Move(line[0]));
    app.update();
    assert_eq!(table_of(&app).game.move_count(), 2);
    assert_ne!(
        app.world().resource::<Outlook>(),
        &Outlook::Winnable(line[1..].to_vec())
    );
    for _ in 0..3 {
        app.update();
    }
    assert_eq!(app.world().resource::<Outlook>(), &Outlook::Checking);
}

#[test]
fn a_cancelled_search_deals_nothing() {
    let mut app = app(table("spider-4suit", 1), false);
    let spec = table_of(&app).spec.clone();
    // Asked and cancelled in one frame, so even a deal solved at once is not dealt.
    app.world_mut().write_message(Ask::WinnableDeal(spec));
    send(&mut app, Ask::Cancel);
    run_until(&mut app, "the cancel", |a| {
        !a.world().contains_resource::<Thinking>()
    });
    app.update();
    assert_eq!(table_of(&app).spec.seed, 1);
}

#[test]
fn finished_games_are_kept_as_replays_the_viewer_opens() {
    let t = table("spider-1suit", 41);
    let moves = line(&t);
    let mut app = app(t, false);
    let storage = Arc::new(MemoryStorage::default());
    app.insert_resource(Saves(storage.clone()));
    app.world_mut().resource_mut::<Settings>().animation.instant = true;
    for &mv in &moves {
        send(&mut app, Request::Move(mv));
    }
    assert!(table_of(&app).game.is_won());
    let saved = saved_replays(storage.as_ref());
    assert_eq!(saved.len(), 1);
    assert!(saved[0].won);
    assert_eq!(saved[0].replay.moves.len(), moves.len());
    // The saved text is an engine replay file.
    let text = storage.read(&saved[0].key).unwrap().unwrap();
    assert!(Replay::from_ron(&text).is_ok());
    let open = open_replay(&saved[0].replay, "won game".into(), Some(5)).unwrap();
    send(&mut app, open);
    run_to_rest(&mut app);
    assert_eq!(history(&app), moves[..5].to_vec());
    assert_eq!(
        app.world().resource::<Piles>().columns.len(),
        table_of(&app).game.position().columns().len()
    );
}

/// A kept game that does not read is listed, with why and its text (it counts among the 50
/// kept): before, it was left out of the list without a word.
#[test]
fn a_kept_game_that_does_not_read_is_listed_with_why() {
    let storage = MemoryStorage::default();
    let t = table("spider-1suit", 1);
    let r = Replay::of_game(&t.game, Numbering::Arachne, 1);
    saves::save_replay(&storage, &r).unwrap();
    let damaged = saves::save_replay(&storage, &r).unwrap();
    storage
        .write(&damaged, "(variant: \"spider-1suit\", seed: ")
        .unwrap();
    let kept = saves::kept_replays(&storage);
    assert_eq!(kept.len(), 2);
    // Newest first: the damaged one, then the one that reads.
    match &kept[0] {
        saves::KeptReplay::Unreadable { key, text, why } => {
            assert_eq!(key, &damaged);
            assert!(text.starts_with("(variant"));
            assert!(why.starts_with("1:"), "{why}");
        }
        other => panic!("{other:?}"),
    }
    assert!(matches!(&kept[1], saves::KeptReplay::Read(r) if r.replay.seed == 1));
    assert_eq!(saved_replays(&storage).len(), 1);
}

#[test]
fn only_the_last_fifty_replays_are_kept() {
    let storage = MemoryStorage::default();
    let t = table("spider-1suit", 1);
    let r = Replay::of_game(&t.game, Numbering::Arachne, 1);
    for _ in 0..(saves::REPLAYS_KEPT + 3) {
        saves::save_replay(&storage, &r).unwrap();
    }
    let keys = saves::replay_keys(&storage).unwrap();
    assert_eq!(keys.len(), saves::REPLAYS_KEPT);
    assert_eq!(keys.first().unwrap(), "replay-000004");
    assert_eq!(
        keys.last().unwrap(),
        &format!("replay-{:06}", saves::REPLAYS_KEPT + 3)
    );
}

#[test]
fn settings_are_saved_after_a_moment_and_load_back() {
    let mut app = app(table("spider-2suit", 2), false);
    let storage = Arc::new(MemoryStorage::default());
    app.insert_resource(Saves(storage.clone()));
    {
        let mut s = app.world_mut().resource_mut::<Settings>();
        s.theme = "midnight".into();
        s.cards.four_colour = Some(false);
    }
    app.world_mut().resource_mut::<SaveSettings>().soon();
    app.update();
    assert_eq!(storage.read(SETTINGS_KEY).unwrap(), None, "not at once");
    for _ in 0..40 {
        app.update();
    }
    let loaded = load::<Settings>(storage.as_ref(), SETTINGS_KEY);
    assert_eq!(
        loaded,
        persist::Loaded::Ok(app.world().resource::<Settings>().clone())
    );
    // The theme followed the settings live.
    let theme = app.world().resource::<arachne::core::theme::Theme>();
    assert_eq!(theme.id, "midnight");
    assert!(!theme.four_colour);
}

#[test]
fn settings_waiting_for_calm_are_saved_when_the_game_closes() {
    let mut app = app(table("spider-2suit", 2), false);
    let storage = Arc::new(MemoryStorage::default());
    app.insert_resource(Saves(storage.clone()));
    app.world_mut().resource_mut::<Settings>().theme = "midnight".into();
    app.world_mut().resource_mut::<SaveSettings>().soon();
    app.update();
    // The browser's page hidden: written from outside the frames, at once.
    let other = MemoryStorage::default();
    app.world()
        .resource::<SaveSettings>()
        .unsaved()
        .save_now(&other);
    let loaded = load::<Settings>(&other, SETTINGS_KEY);
    assert_eq!(
        loaded,
        persist::Loaded::Ok(app.world().resource::<Settings>().clone())
    );
    // The desktop app closing a frame after another change: written in that frame.
    app.world_mut().resource_mut::<Settings>().theme = "classic".into();
    app.world_mut().resource_mut::<SaveSettings>().soon();
    app.update();
    assert_eq!(storage.read(SETTINGS_KEY).unwrap(), None, "not at once");
    app.world_mut().write_message(AppExit::Success);
    app.update();
    let loaded = load::<Settings>(storage.as_ref(), SETTINGS_KEY);
    let persist::Loaded::Ok(saved) = loaded else {
        panic!("not saved on exit: {loaded:?}");
    };
    assert_eq!(saved.theme, "classic");
    // An exit that runs no last frame (a desktop's own quit): written as the app is dropped.
    app.world_mut().resource_mut::<Settings>().theme = "midnight".into();
    app.world_mut().resource_mut::<SaveSettings>().soon();
    app.update();
    let unsaved = app.world().resource::<SaveSettings>().unsaved();
    drop(app);
    let loaded = load::<Settings>(storage.as_ref(), SETTINGS_KEY);
    let persist::Loaded::Ok(saved) = loaded else {
        panic!("not saved on drop: {loaded:?}");
    };
    assert_eq!(saved.theme, "midnight");
    // Nothing waits any more: closing again writes nothing.
    let empty = MemoryStorage::default();
    unsaved.save_now(&empty);
    assert_eq!(empty.read(SETTINGS_KEY).unwrap(), None);
}

#[test]
fn settings_missing_newer_fields_still_load() {
    // A file from before the card, game and effect options existed.
    let old = arachne::core::settings::DEFAULT_SETTINGS
        .lines()
        .filter(|l| {
            !["deal_motion", "flip_motion", "fanfare_volume_db"]
                .iter()
                .any(|f| l.contains(f))
        })
        .collect::<Vec<_>>()
        .join("\n");
    let cut = |s: &str, from: &str| {
        let a = s.find(from).unwrap();
        let b = a + s[a..].find("),").unwrap() + 2;
        format!("{}{}", &s[..a], &s[b..])
    };
    let old = cut(&cut(&old, "cards: ("), "game: (");
    let s = Settings::from_ron(&old, "old.ron").unwrap();
    assert_eq!(s.game, Default::default());
    assert!(s.animation.deal_motion && s.animation.flip_motion);
}

#[test]
fn abandoning_a_game_asks_first_and_counts_a_loss_only_when_confirmed() {
    let mut app = app(table("spider-1suit", 3), false);
    let mv = line(table_of(&app))[0];
    send(&mut app, Request::Move(mv));
    send(&mut app, Request::NewDeal);
    assert_eq!(
        app.world().resource::<PendingConfirm>().0,
        Some(Request::NewDeal)
    );
    send(&mut app, Request::Confirm(false));
    assert_eq!(table_of(&app).spec.seed, 3);
    assert_eq!(app.world().resource::<Statistics>(), &Statistics::default());
    send(&mut app, Request::NewDeal);
    send(&mut app, Request::Confirm(true));
    assert_ne!(table_of(&app).spec.seed, 3);
    let s = app.world().resource::<Statistics>().variants["spider-1suit"].clone();
    assert_eq!((s.played, s.won, s.current_loss_streak), (1, 0, 1));
    // Without the question in the settings, a new deal goes at once.
    app.world_mut()
        .resource_mut::<Settings>()
        .game
        .confirm_new_game = false;
    let mv = table_of(&app).game.legal_moves()[0];
    send(&mut app, Request::Move(mv));
    let seed = table_of(&app).spec.seed;
    send(&mut app, Request::NewDeal);
    assert_ne!(table_of(&app).spec.seed, seed);
}

#[test]
fn new_games_take_the_settings_options() {
    let mut app = app(table("spider-2suit", 2), false);
    {
        let mut s = app.world_mut().resource_mut::<Settings>();
        s.game.discard = Some(arachne_engine::DiscardMode::Manual);
        s.game.undo_limit = arachne::core::settings::UndoLimit::Limit(2);
    }
    send(&mut app, Request::Restart);
    let o = table_of(&app).game.options();
    assert_eq!(o.discard, arachne_engine::DiscardMode::Manual);
    assert_eq!(o.undo_limit, Some(2));
}

/// An auto-complete under way in a window the player left stops playing once another copy of
/// the game saves its own game (nothing more played or saved here); coming back, this copy
/// takes up that game and the auto-complete, meant for the game that was here, is over.
#[test]
fn auto_complete_waits_in_a_window_left_for_another_copy_and_ends_when_it_takes_its_game_up() {
    let shared = Arc::new(MemoryStorage::default());
    let mine = Arc::new(OtherCopy::new(&shared, "auto-complete window a"));
    let other = OtherCopy::new(&shared, "auto-complete window b");
    let mut app = auto_complete_under_way();
    app.insert_resource(Saves(mine.clone()));
    let n = table_of(&app).game.move_count();
    run_until(&mut app, "a move saved", |a| {
        a.world().resource::<Table>().game.move_count() > n
    });
    app.update();
    assert!(mine.read(saves::GAME_KEY).unwrap().is_some());
    // The player goes to the other window and plays another deal there.
    let mut theirs = table("spider-1suit", 99);
    for _ in 0..2 {
        let mv = theirs.game.legal_moves()[0];
        theirs.game.apply(mv).unwrap();
    }
    let text = arachne::spider::table::GameRecord::default()
        .replay_of(&theirs)
        .to_ron();
    persist::write_game(&other, saves::GAME_KEY, &text).unwrap();
    let window = app.world_mut().spawn_empty().id();
    send(
        &mut app,
        bevy::window::WindowFocused {
            window,
            focused: false,
        },
    );
    let n = table_of(&app).game.move_count();
    for _ in 0..300 {
        app.update();
    }
    assert!(app.world().contains_resource::<Playback>());
    assert_eq!(table_of(&app).game.move_count(), n, "nothing more played");
    assert_eq!(
        mine.read(saves::GAME_KEY).unwrap().unwrap(),
        text,
        "nothing saved"
    );
    // Back in this window: the other's game, and no auto-complete.
    send(
        &mut app,
        bevy::window::WindowFocused {
            window,
            focused: true,
        },
    );
    app.update();
    assert!(!app.world().contains_resource::<Playback>());
    assert_eq!(table_of(&app).spec.seed, 99);
    assert_eq!(table_of(&app).game.steps(), theirs.game.steps());
    for _ in 0..100 {
        app.update();
    }
    assert_eq!(table_of(&app).game.steps(), theirs.game.steps());
}
