//! The soak test (issue 15): a seeded random storm through the real input path, for every
//! variant. Presses, drags, releases, double-clicks, touches and every shortcut, at any moment
//! (mid-animation, mid-drag); window resizes; windows opening and closing (what the overlay
//! does to the table: it takes the table's input and stops the clock); new deals of other
//! variants; hints and auto-complete started and interrupted; the replay viewer and the demo
//! opened and closed; undo and redo; and a quit and resume at random points through the saved
//! game. After every step nothing has panicked and every card is on the table once; whenever
//! the table is at rest it matches the engine; statistics count each finished game once.
//!
//! `cargo test --test soak` runs a short storm (CI); `make soak` runs 100 times as many steps
//! (`ARACHNE_SOAK_STEPS`). The counts are printed at the end (see BENCHMARKS.md).
use std::time::Duration;

use arachne::core::focus::OverlayOpen;
use arachne::core::focus::TableInput;
use arachne::core::persist::MemoryStorage;
use arachne::logic_plugin;
use arachne::spider::hint::AskHint;
use arachne::spider::layout::Layout;
use arachne::spider::piles::{CardView, Piles};
use arachne::spider::playback::Control;
use arachne::spider::saves::{Statistics, load_game};
use arachne::spider::table::{GameFinished, GameRecord, GameSpec, Request, Table};
use arachne_engine::{Numbering, variant};
use bevy::input::ButtonState;
use bevy::input::InputPlugin;
use bevy::input::keyboard::{Key, KeyboardInput, NativeKey};
use bevy::input::mouse::MouseButtonInput;
use bevy::input::touch::{TouchInput, TouchPhase};
use bevy::prelude::*;
use bevy::state::app::StatesPlugin;
use bevy::time::TimeUpdateStrategy;
use bevy::window::{PrimaryWindow, WindowResized};

mod common;
use common::{animating, assert_matches_engine};

/// A small seeded generator (xorshift64*): the storm is the same on every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
}

/// What the storm counted.
#[derive(Default, Debug)]
struct Counts {
    events: u64,
    frames: u64,
    games: u64,
    finished: u64,
    resumes: u64,
    rests: u64,
}

/// Every finished game the table reported, with the number of new games started before it.
#[derive(Resource, Default)]
struct Seen {
    finished: Vec<GameFinished>,
}

fn collect(mut finished: MessageReader<GameFinished>, mut seen: ResMut<Seen>) {
    seen.finished.extend(finished.read().cloned());
}

fn app(table: Table, record: GameRecord, stats: Statistics, size: Vec2) -> (App, Entity) {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, StatesPlugin, InputPlugin))
        .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_millis(
            16,
        )))
        .insert_resource(table)
        .insert_resource(record)
        .insert_resource(stats)
        .insert_resource(TableInput(true))
        .init_resource::<Seen>()
        .add_message::<AppExit>()
        .add_systems(Last, collect);
    let mut window = Window::default();
    window.resolution.set(size.x, size.y);
    let w = app.world_mut().spawn((window, PrimaryWindow)).id();
    logic_plugin(&mut app);
    // Fast motion keeps the storm short; the timings do not change what happens.
    app.world_mut()
        .resource_mut::<arachne::core::settings::Settings>()
        .animation
        .speed = 3.0;
    app.update();
    (app, w)
}

fn window_size(app: &App, w: Entity) -> Vec2 {
    let window = app.world().get::<Window>(w).unwrap();
    Vec2::new(window.width(), window.height())
}

/// World position (origin at the centre, y up) to the window's (origin top left, y down).
fn screen(app: &App, w: Entity, p: Vec2) -> Vec2 {
    let size = window_size(app, w);
    Vec2::new(p.x + size.x / 2.0, size.y / 2.0 - p.y)
}

/// A point worth pressing: a card, a column's foot, the stock, or anywhere.
fn target(app: &App, rng: &mut Rng) -> Vec2 {
    let layout = app.world().resource::<Layout>();
    let piles = app.world().resource::<Piles>();
    let shape = piles.shape();
    match rng.below(4) {
        0 | 1 if !piles.columns.is_empty() => {
            let c = rng.below(piles.columns.len());
            let len = piles.columns[c].len();
            let index = if len == 0 { 0 } else { rng.below(len) };
            layout
                .position(
                    &shape,
                    arachne::spider::layout::PileId::Column(c as u8),
                    index.max(len.saturating_sub(1 + rng.below(3))),
                )
                .truncate()
        }
        2 => layout.stock,
        _ => {
            let size = layout.window;
            Vec2::new(
                rng.below(size.x as usize) as f32 - size.x / 2.0,
                rng.below(size.y as usize) as f32 - size.y / 2.0,
            )
        }
    }
}

fn point(app: &mut App, w: Entity, p: Vec2) {
    let at = screen(app, w, p);
    app.world_mut()
        .get_mut::<Window>(w)
        .unwrap()
        .set_cursor_position(Some(at));
}

fn button(app: &mut App, w: Entity, state: ButtonState) {
    app.world_mut().write_message(MouseButtonInput {
        button: MouseButton::Left,
        state,
        window: w,
    });
}

fn key(app: &mut App, w: Entity, code: KeyCode, state: ButtonState) {
    app.world_mut().write_message(KeyboardInput {
        key_code: code,
        logical_key: Key::Unidentified(NativeKey::Unidentified),
        state,
        text: None,
        repeat: false,
        window: w,
    });
}

fn touch(app: &mut App, w: Entity, phase: TouchPhase, p: Vec2) {
    let position = screen(app, w, p);
    app.world_mut().write_message(TouchInput {
        phase,
        position,
        window: w,
        force: None,
        id: 3,
    });
}

const KEYS: &[KeyCode] = &[
    KeyCode::ArrowLeft,
    KeyCode::ArrowRight,
    KeyCode::Tab,
    KeyCode::Enter,
    KeyCode::Space,
    KeyCode::KeyD,
    KeyCode::KeyU,
    KeyCode::KeyR,
    KeyCode::KeyH,
    KeyCode::KeyA,
    KeyCode::KeyN,
    KeyCode::Escape,
    KeyCode::Home,
    KeyCode::End,
    KeyCode::Equal,
    KeyCode::Minus,
];

const SIZES: &[(f32, f32)] = &[
    (1280.0, 720.0),
    (800.0, 600.0),
    (1920.0, 1080.0),
    (640.0, 480.0),
    (1024.0, 768.0),
];

fn frames(app: &mut App, n: usize, counts: &mut Counts) {
    for _ in 0..n {
        app.update();
        counts.frames += 1;
    }
}

/// Every card of the variant is on the table exactly once.
fn assert_cards_conserved(app: &mut App) {
    let deck = app
        .world()
        .resource::<Table>()
        .game
        .position()
        .variant()
        .deck_size();
    let world = app.world_mut();
    let entities = world.query::<&CardView>().iter(world).count();
    assert_eq!(entities, deck, "one card entity per card");
    let piles = world.resource::<Piles>();
    let placed = piles.placed().count();
    assert_eq!(placed, deck, "every card in a pile once");
}

/// Lets the cards come to rest, then checks the view against the engine.
fn to_rest(app: &mut App, counts: &mut Counts) {
    // A game playing itself (auto-complete, the viewer) rests between its moves: any such
    // moment will do.
    for _ in 0..3000 {
        app.update();
        counts.frames += 1;
        if animating(app) == 0 {
            app.update();
            counts.frames += 1;
            if animating(app) == 0 {
                assert_matches_engine(app);
                counts.rests += 1;
                return;
            }
        }
    }
    panic!("the table never came to rest");
}

/// A quit and a restart: the game is saved as the app saves it, read back the way `main`
/// does, and a fresh app starts from what was read. Nothing of the game may change.
fn quit_and_resume(app: &mut App, w: Entity, counts: &mut Counts) -> (App, Entity) {
    let table = app.world().resource::<Table>().clone();
    let record = *app.world().resource::<GameRecord>();
    let stats = app.world().resource::<Statistics>().clone();
    let storage = MemoryStorage::default();
    arachne::core::persist::Storage::write(
        &storage,
        arachne::spider::saves::GAME_KEY,
        &record.replay_of(&table).to_ron(),
    )
    .unwrap();
    let (loaded, message) = load_game(&storage);
    assert_eq!(message, None);
    let (back, back_record) = loaded.expect("the saved game loads");
    assert_eq!(back.game.position(), table.game.position());
    assert_eq!(back.game.score(), table.game.score());
    assert_eq!(back.game.undos_left(), table.game.undos_left());
    assert_eq!(back.game.can_redo(), table.game.can_redo());
    assert_eq!(back.game.steps(), table.game.steps());
    assert_eq!(back_record.clock(), record.clock());
    assert_eq!(back_record.counted, record.counted || table.game.was_won());
    counts.resumes += 1;
    let size = window_size(app, w);
    // A finished game is not resumed: the player gets a new deal, as `main` does.
    let (table, record) = if back_record.counted {
        counts.games += 1;
        let spec = table.spec.clone();
        (Table::new(spec).unwrap(), GameRecord::default())
    } else {
        (back, back_record)
    };
    let finished = std::mem::take(&mut app.world_mut().resource_mut::<Seen>().finished);
    let (mut fresh, w) = self::app(table, record, stats, size);
    fresh.world_mut().resource_mut::<Seen>().finished = finished;
    (fresh, w)
}

fn storm(variant_id: &str, seed: u64, steps: usize, counts: &mut Counts) {
    let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let variants = variant::builtin();
    let table =
        Table::new(GameSpec::builtin(variant_id, seed, Numbering::Arachne).unwrap()).unwrap();
    let (mut app, mut w) = app(
        table,
        GameRecord::default(),
        Statistics::default(),
        Vec2::new(1280.0, 720.0),
    );
    counts.games += 1;
    let mut held = false;
    let mut overlay = false;
    // The last events, told when a check fails (the storm varies a little from run to run).
    let mut recent: std::collections::VecDeque<String> = std::collections::VecDeque::new();
    for step in 0..steps {
        counts.events += 1;
        let at = target(&app, &mut rng);
        let choice = rng.below(20);
        if recent.len() == 40 {
            recent.pop_front();
        }
        let drag = app
            .world()
            .resource::<arachne::spider::input::Drag>()
            .0
            .as_ref()
            .map(|d| (d.from, d.count, d.moved));
        recent.push_back(format!(
            "{variant_id} step {step}: event {choice} at {at}, held {held}, drag {drag:?}, input {:?}",
            app.world()
                .get_resource::<arachne::core::focus::TableInput>()
                .map(|i| i.0)
        ));
        match choice {
            // The pointer: press, move, release, a click, a double-click.
            0..=2 => {
                point(&mut app, w, at);
                button(&mut app, w, ButtonState::Pressed);
                held = true;
            }
            3 | 4 => point(&mut app, w, at),
            5 | 6 => {
                point(&mut app, w, at);
                button(&mut app, w, ButtonState::Released);
                held = false;
            }
            7 => {
                point(&mut app, w, at);
                for _ in 0..2 {
                    button(&mut app, w, ButtonState::Pressed);
                    app.update();
                    button(&mut app, w, ButtonState::Released);
                    app.update();
                }
                held = false;
            }
            // A finger: tap or drag.
            8 => {
                touch(&mut app, w, TouchPhase::Started, at);
                app.update();
                let to = target(&app, &mut rng);
                touch(&mut app, w, TouchPhase::Moved, to);
                app.update();
                touch(&mut app, w, TouchPhase::Ended, to);
            }
            // Keys, one or with Ctrl (Ctrl+Z, Ctrl+Y).
            9..=11 => {
                let code = KEYS[rng.below(KEYS.len())];
                let ctrl = rng.chance(15);
                if ctrl {
                    key(&mut app, w, KeyCode::ControlLeft, ButtonState::Pressed);
                }
                let code = match (ctrl, code) {
                    (true, KeyCode::KeyU) => KeyCode::KeyZ,
                    (true, KeyCode::KeyR) => KeyCode::KeyY,
                    _ => code,
                };
                key(&mut app, w, code, ButtonState::Pressed);
                app.update();
                key(&mut app, w, code, ButtonState::Released);
                if ctrl {
                    key(&mut app, w, KeyCode::ControlLeft, ButtonState::Released);
                }
            }
            // The window changes size.
            12 => {
                let (x, y) = SIZES[rng.below(SIZES.len())];
                app.world_mut()
                    .get_mut::<Window>(w)
                    .unwrap()
                    .resolution
                    .set(x, y);
                app.world_mut().write_message(WindowResized {
                    window: w,
                    width: x,
                    height: y,
                });
            }
            // A window opens or closes over the table.
            13 => {
                overlay = !overlay;
                app.insert_resource(TableInput(!overlay));
                app.insert_resource(OverlayOpen(overlay));
            }
            // The menu's new game: another variant, or this one again.
            14 => {
                let v = &variants[rng.below(variants.len())];
                let spec =
                    GameSpec::builtin(&v.id, rng.below(1_000_000) as u64, Numbering::Arachne)
                        .unwrap();
                let r = if rng.chance(30) {
                    Request::Restart
                } else {
                    Request::NewGame(spec)
                };
                app.world_mut().write_message(r);
                counts.games += 1;
                if rng.chance(70) {
                    app.world_mut().write_message(Request::Confirm(true));
                }
            }
            // Undo and redo as the bar sends them.
            15 => {
                let r = if rng.chance(60) {
                    Request::Undo
                } else {
                    Request::Redo
                };
                app.world_mut().write_message(r);
            }
            // The helpers: a hint, auto-complete, the viewer and the demo, and closing them.
            16 => {
                app.world_mut().write_message(AskHint);
            }
            17 => {
                let c = match rng.below(5) {
                    0 => {
                        app.world_mut()
                            .write_message(arachne::spider::assist::Ask::AutoComplete);
                        None
                    }
                    1 => Some(Control::history(app.world().resource::<Table>(), true)),
                    2 => {
                        app.world_mut()
                            .write_message(arachne::spider::assist::Ask::Demo);
                        None
                    }
                    3 => Some(Control::Close),
                    4 if rng.chance(20) => {
                        let spec = app.world().resource::<Table>().spec.clone();
                        app.world_mut()
                            .write_message(arachne::spider::assist::Ask::WinnableDeal(spec));
                        None
                    }
                    _ => {
                        app.world_mut()
                            .write_message(arachne::spider::assist::Ask::Cancel);
                        None
                    }
                };
                if let Some(c) = c {
                    app.world_mut().write_message(c);
                }
            }
            // Quit and start again from the save.
            18 if rng.chance(25) && !held => {
                (app, w) = quit_and_resume(&mut app, w, counts);
            }
            // Let the table come to rest and compare it with the engine.
            _ => {
                if held {
                    button(&mut app, w, ButtonState::Released);
                    held = false;
                }
                let checked = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    to_rest(&mut app, counts)
                }));
                if let Err(e) = checked {
                    eprintln!("the last events:\n{}", Vec::from(recent).join("\n"));
                    std::panic::resume_unwind(e);
                }
            }
        }
        // Anywhere from no frame (the next input arrives mid-animation) to a few.
        let n = [0, 0, 1, 1, 2, 4, 9][rng.below(7)];
        frames(&mut app, n.max(1), counts);
        if app
            .world()
            .get_resource::<arachne::spider::table::PendingConfirm>()
            .is_some_and(|p| p.0.is_some())
            && rng.chance(50)
        {
            app.world_mut()
                .write_message(Request::Confirm(rng.chance(50)));
        }
        assert_cards_conserved(&mut app);
        let _ = step;
    }
    if held {
        button(&mut app, w, ButtonState::Released);
    }
    app.world_mut().write_message(Control::Close);
    app.insert_resource(TableInput(true));
    to_rest(&mut app, counts);
    // Statistics count each finished game once: every report went into them, and no game
    // was reported twice (a report holds the game's replay: two of one game share a prefix).
    let seen = std::mem::take(&mut app.world_mut().resource_mut::<Seen>().finished);
    let stats = app.world().resource::<Statistics>();
    let played: u32 = stats.variants.values().map(|v| v.played).sum();
    assert_eq!(
        played as usize,
        seen.len(),
        "every finished game counted once"
    );
    for (i, a) in seen.iter().enumerate() {
        for b in &seen[i + 1..] {
            let same_game = a.replay.variant == b.replay.variant
                && a.replay.seed == b.replay.seed
                && a.won
                && b.won
                && a.replay.moves == b.replay.moves;
            assert!(!same_game, "a win counted twice: {:?}", a.replay);
        }
    }
    counts.finished += seen.len() as u64;
}

#[test]
fn a_random_storm_never_breaks_the_table() {
    let steps: usize = std::env::var("ARACHNE_SOAK_STEPS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1000);
    let mut counts = Counts::default();
    for (k, v) in variant::builtin().iter().enumerate() {
        storm(&v.id, 1000 + k as u64, steps, &mut counts);
    }
    println!(
        "soak: {} variants, {} events, {} frames, {} games, {} finished, {} resumes, {} checks at rest",
        variant::builtin().len(),
        counts.events,
        counts.frames,
        counts.games,
        counts.finished,
        counts.resumes,
        counts.rests
    );
}
