//! The soak test (issue 15): a seeded random storm through the real input path, for every
//! variant. Presses, drags, releases, double-clicks, touches and every shortcut, at any moment
//! (mid-animation, mid-drag); window resizes; windows opening and closing (what the overlay
//! does to the table: it takes the table's input and stops the clock); new deals of other
//! variants; hints and auto-complete started and interrupted; the replay viewer and the demo
//! opened and closed; undo and redo; and a quit and resume at random points through the saved
//! game. After every step nothing has panicked and every card is on the table once; whenever
//! the table is at rest it matches the engine; statistics count each finished game once.
//! The motion settings change along the way.
//!
//! A second storm of the same kind goes through Pro Spider 10's table (further down): its
//! keys, new games of every variant with 2-6 seats, the computer seats playing, the replay
//! viewer, Spider and back, quits resumed from the save and games saved near their end.
//!
//! `cargo test --test soak` runs a short storm (CI); `make soak` runs 100 times as many steps
//! (`ARACHNE_SOAK_STEPS`). The counts are printed at the end (see BENCHMARKS.md).
use std::sync::Arc;
use std::time::Duration;

use arachne::GameKind;
use arachne::cards::motion::CardPose;
use arachne::core::focus::OverlayOpen;
use arachne::core::focus::TableInput;
use arachne::core::i18n::Lang;
use arachne::core::persist::MemoryStorage;
use arachne::core::persist::{Saves, Storage};
use arachne::core::settings::Settings;
use arachne::logic_plugin;
use arachne::phase10::round::{
    P10Changed, P10Ended, P10Request, P10Spec, P10SpecMsg, P10Table, PLAYER,
};
use arachne::phase10::saves::{self as p10_saves, P10Statistics};
use arachne::phase10::seats::{DecideInFrame, Hurry};
use arachne::phase10::view::{Leaving, P10Card, P10Piles};
use arachne::phase10::viewer::{P10Viewer, ViewerControl};
use arachne::spider::hint::AskHint;
use arachne::spider::layout::Layout;
use arachne::spider::piles::{CardView, Piles};
use arachne::spider::playback::Control;
use arachne::spider::saves::{Statistics, load_game};
use arachne::spider::table::{GameFinished, GameRecord, GameSpec, Request, Table};
use arachne_engine::phase10::variant as p10_variant;
use arachne_engine::{Numbering, variant};
use bevy::input::ButtonState;
use bevy::input::InputPlugin;
use bevy::input::keyboard::{Key, KeyboardInput, NativeKey};
use bevy::input::mouse::MouseButtonInput;
use bevy::input::touch::{TouchInput, TouchPhase};
use bevy::prelude::*;
use bevy::state::app::StatesPlugin;
use bevy::time::TimeUpdateStrategy;
use bevy::window::PrimaryWindow;

mod common;
use common::{animating, assert_matches_engine, p10, resize};

/// A small seeded generator (xorshift64*): Spider's storm is the same on every run.
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
    /// A hash of every ended game's log (Pro Spider 10's storm): two runs of a storm that play
    /// alike print the same.
    logs: u64,
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

/// The last events of a storm, told when a check fails, with the command that plays the storm
/// again.
struct Recent(std::collections::VecDeque<String>, String);

impl Recent {
    /// For the storm of `seed`, `steps` long, played by `test`.
    fn new(test: &str, seed: u64, steps: usize) -> Recent {
        Recent(
            Default::default(),
            format!(
                "ARACHNE_SOAK_STEPS={steps} ARACHNE_SOAK_SHIFT={} ARACHNE_SOAK_ONLY={seed} \
                 cargo test --test soak {test}",
                soak_shift() / 10_000
            ),
        )
    }

    /// Keeps `event`, forgetting the oldest beyond 40.
    fn push(&mut self, event: String) {
        if self.0.len() == 40 {
            self.0.pop_front();
        }
        self.0.push_back(event);
    }

    /// Tells the events kept, then goes on with the failed check's panic.
    fn fail(self, panic: Box<dyn std::any::Any + Send>) -> ! {
        eprintln!(
            "the last events:\n{}\nthis storm again: {}",
            Vec::from(self.0).join("\n"),
            self.1
        );
        std::panic::resume_unwind(panic)
    }
}

/// The pointer's events of both storms, `kind` 0 to 8: a press (0-2), a move (3, 4), a release
/// (5, 6), a double-click (7), all at `at`; a finger's drag from `at` to `drag_to` (8).
fn pointer_event(
    app: &mut App,
    w: Entity,
    kind: usize,
    at: Vec2,
    held: &mut bool,
    drag_to: &mut dyn FnMut(&App) -> Vec2,
) {
    match kind {
        0..=2 => {
            point(app, w, at);
            button(app, w, ButtonState::Pressed);
            *held = true;
        }
        3 | 4 => point(app, w, at),
        5 | 6 => {
            point(app, w, at);
            button(app, w, ButtonState::Released);
            *held = false;
        }
        7 => {
            point(app, w, at);
            for _ in 0..2 {
                button(app, w, ButtonState::Pressed);
                app.update();
                button(app, w, ButtonState::Released);
                app.update();
            }
            *held = false;
        }
        _ => {
            touch(app, w, TouchPhase::Started, at);
            app.update();
            let to = drag_to(app);
            touch(app, w, TouchPhase::Moved, to);
            app.update();
            touch(app, w, TouchPhase::Ended, to);
        }
    }
}

/// `code` pressed and let go, with Ctrl held around it when `ctrl`.
fn press_key(app: &mut App, w: Entity, code: KeyCode, ctrl: bool) {
    if ctrl {
        key(app, w, KeyCode::ControlLeft, ButtonState::Pressed);
    }
    key(app, w, code, ButtonState::Pressed);
    app.update();
    key(app, w, code, ButtonState::Released);
    if ctrl {
        key(app, w, KeyCode::ControlLeft, ButtonState::Released);
    }
}

/// A window opens or closes over the table: it takes the table's input and stops the clock.
fn toggle_overlay(app: &mut App, overlay: &mut bool) {
    *overlay = !*overlay;
    app.insert_resource(TableInput(!*overlay));
    app.insert_resource(arachne::core::focus::TableKeys(!*overlay));
    app.insert_resource(OverlayOpen(*overlay));
}

/// The settings window changes the motion: instant or not, another speed, the deal's motion.
fn change_motion(app: &mut App, rng: &mut Rng) {
    let mut settings = app.world_mut().resource_mut::<Settings>();
    let a = &mut settings.animation;
    match rng.below(3) {
        0 => a.instant = rng.chance(30),
        1 => a.speed = [0.5, 1.0, 3.0, 8.0][rng.below(4)],
        _ => a.deal_motion = rng.chance(70),
    }
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
    let mut recent = Recent::new("a_random_storm_never_breaks_the_table", seed, steps);
    for step in 0..steps {
        counts.events += 1;
        let at = target(&app, &mut rng);
        let choice = rng.below(21);
        let drag = app
            .world()
            .resource::<arachne::spider::input::Drag>()
            .0
            .as_ref()
            .map(|d| (d.from, d.count, d.moved));
        recent.push(format!(
            "{variant_id} step {step}: event {choice} at {at}, held {held}, drag {drag:?}, input {:?}",
            app.world()
                .get_resource::<arachne::core::focus::TableInput>()
                .map(|i| i.0)
        ));
        match choice {
            // The pointer: press, move, release, a click, a double-click; a finger's drag.
            0..=8 => pointer_event(&mut app, w, choice, at, &mut held, &mut |app| {
                target(app, &mut rng)
            }),
            // Keys, one or with Ctrl (Ctrl+Z, Ctrl+Y).
            9..=11 => {
                let code = KEYS[rng.below(KEYS.len())];
                let ctrl = rng.chance(15);
                let code = match (ctrl, code) {
                    (true, KeyCode::KeyU) => KeyCode::KeyZ,
                    (true, KeyCode::KeyR) => KeyCode::KeyY,
                    _ => code,
                };
                press_key(&mut app, w, code, ctrl);
            }
            // The window changes size.
            12 => {
                let (x, y) = SIZES[rng.below(SIZES.len())];
                resize(&mut app, w, x, y);
            }
            // A window opens or closes over the table.
            13 => toggle_overlay(&mut app, &mut overlay),
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
            // The settings window changes the motion.
            20 => change_motion(&mut app, &mut rng),
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
                    recent.fail(e);
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

/// Whether to play the storm of `seed`: every one, or only `ARACHNE_SOAK_ONLY`'s (a failed
/// storm's, to play it again).
fn soak_this(seed: u64) -> bool {
    std::env::var("ARACHNE_SOAK_ONLY")
        .ok()
        .and_then(|s| s.parse::<u64>().ok())
        .is_none_or(|only| only == seed)
}

/// Which storms: `ARACHNE_SOAK_SHIFT=K` adds 10,000 times K to every storm's seed, so a long
/// hunt can play storms the CI never plays (0, the CI's, by default).
fn soak_shift() -> u64 {
    std::env::var("ARACHNE_SOAK_SHIFT")
        .ok()
        .and_then(|s| s.parse::<u64>().ok())
        .unwrap_or(0)
        .saturating_mul(10_000)
}

/// Steps per storm: 1,000, or `ARACHNE_SOAK_STEPS` (`make soak`).
fn soak_steps() -> usize {
    std::env::var("ARACHNE_SOAK_STEPS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1000)
}

#[test]
fn a_random_storm_never_breaks_the_table() {
    let steps = soak_steps();
    let mut counts = Counts::default();
    for (k, v) in variant::builtin().iter().enumerate() {
        let seed = 1000 + k as u64 + soak_shift();
        if soak_this(seed) {
            storm(&v.id, seed, steps, &mut counts);
        }
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

// Pro Spider 10's storm: the same kinds of input through its table, with the computer seats
// playing, the replay viewer, a trip to Spider and back, and quits resumed from the save.

/// Every Pro Spider 10 game the table reported as ended (over, or left).
#[derive(Resource, Default)]
struct P10Seen {
    ended: Vec<P10Ended>,
    /// The app started with a new deal not saved yet (`main` saves a game at its first change).
    unsaved: bool,
}

fn collect_p10(
    mut ended: MessageReader<P10Ended>,
    mut changed: MessageReader<P10Changed>,
    mut seen: ResMut<P10Seen>,
) {
    seen.ended.extend(ended.read().cloned());
    if changed.read().count() > 0 {
        seen.unsaved = false;
    }
}

/// The app as `main` starts it with Pro Spider 10 on the table, saving into `storage`.
fn p10_app(
    table: P10Table,
    stats: P10Statistics,
    storage: Arc<MemoryStorage>,
    size: Vec2,
    pause_ms: u32,
) -> (App, Entity) {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, StatesPlugin, InputPlugin))
        .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_millis(
            16,
        )))
        .insert_resource(
            Table::new(GameSpec::builtin("spider-2suit", 5, Numbering::Arachne).unwrap()).unwrap(),
        )
        .insert_resource(table)
        .insert_resource(stats)
        .insert_resource(Saves(storage))
        .insert_resource(TableInput(true))
        .insert_resource(Settings {
            language: Some(Lang::En),
            ..Default::default()
        })
        .init_resource::<P10Seen>()
        .init_resource::<DecideInFrame>()
        .add_message::<AppExit>()
        .insert_state(GameKind::ProSpider10)
        .add_systems(Last, collect_p10);
    let mut window = Window::default();
    window.resolution.set(size.x, size.y);
    let w = app.world_mut().spawn((window, PrimaryWindow)).id();
    logic_plugin(&mut app);
    {
        let mut settings = app.world_mut().resource_mut::<Settings>();
        settings.animation.speed = 3.0;
        settings.phase10.computer_pause_ms = pause_ms;
    }
    app.update();
    (app, w)
}

/// A new game of any variant for any number of seats it allows, against random and petra seats
/// (michaela decides by the same path, only more slowly).
fn p10_spec(rng: &mut Rng) -> P10Spec {
    let variants = p10_variant::builtin();
    let v = variants[rng.below(variants.len())].clone();
    let (min, max) = (
        usize::from(v.players.min).max(2),
        usize::from(v.players.max),
    );
    let players = min + rng.below(max - min + 1);
    let levels = (1..players)
        .map(|_| if rng.chance(50) { "random" } else { "petra" }.to_string())
        .collect();
    P10Spec::new(v, players, p10_deal(), levels).unwrap()
}

thread_local! {
    /// The next deal number of the storm running on this thread ([`p10_deal`]).
    static DEALS: std::cell::Cell<u64> = const { std::cell::Cell::new(1) };
}

/// A deal number not used before in this storm: two games played alike on one deal would look
/// like one game counted twice. Each storm numbers its deals from its own seed, so a storm
/// plays the same whether or not others ran before it.
fn p10_deal() -> u64 {
    DEALS.with(|d| {
        let deal = d.get();
        d.set(deal + 1);
        deal
    })
}

/// A game one decision before its end, every seat played by petra, saved as the game in
/// progress: the storm's resume then reaches a game's end and its statistics.
fn p10_nearly_over(rng: &mut Rng) -> P10Table {
    p10::one_decision_from_the_end(2 + rng.below(2), p10_deal()).0
}

/// A point worth pressing on Pro Spider 10's table: a card of the player's hand, the stock,
/// the discard pile, a laid group, a computer seat's hand, or anywhere.
fn p10_target(app: &App, w: Entity, rng: &mut Rng) -> Vec2 {
    let piles = app.world().resource::<P10Piles>();
    let one = |list: &[Entity], rng: &mut Rng| list.get(rng.below(list.len())).copied();
    let seats = piles.hands.len().max(1);
    let e = match rng.below(8) {
        0..=2 => piles.hands.get(PLAYER).and_then(|h| one(h, rng)),
        3 => piles.stock.last().copied(),
        4 => piles.discard.last().copied(),
        5 => {
            let groups = &piles.groups[rng.below(seats).min(piles.groups.len().saturating_sub(1))];
            groups
                .get(rng.below(groups.len()))
                .and_then(|g| one(g, rng))
        }
        6 => piles.hands.get(rng.below(seats)).and_then(|h| one(h, rng)),
        _ => None,
    };
    match e.and_then(|e| app.world().get::<CardPose>(e)) {
        Some(pose) => pose.translation.truncate(),
        None => {
            let window = window_size(app, w);
            Vec2::new(
                rng.below(window.x as usize) as f32 - window.x / 2.0,
                rng.below(window.y as usize) as f32 - window.y / 2.0,
            )
        }
    }
}

const P10_KEYS: &[KeyCode] = &[
    KeyCode::KeyD,
    KeyCode::KeyT,
    KeyCode::KeyK,
    KeyCode::KeyP,
    KeyCode::KeyX,
    KeyCode::KeyH,
    KeyCode::KeyF,
    KeyCode::KeyL,
    KeyCode::KeyO,
    KeyCode::KeyS,
    KeyCode::KeyZ,
    KeyCode::Space,
    KeyCode::Enter,
    KeyCode::Escape,
    KeyCode::Tab,
    KeyCode::ArrowLeft,
    KeyCode::ArrowRight,
    KeyCode::Home,
    KeyCode::End,
    KeyCode::PageUp,
    KeyCode::PageDown,
    KeyCode::Delete,
    KeyCode::Digit1,
    KeyCode::Digit2,
    KeyCode::Digit3,
    KeyCode::Digit4,
    KeyCode::Digit6,
    KeyCode::F1,
];

fn p10_card_count(app: &mut App) -> usize {
    app.world_mut()
        .query_filtered::<(), (With<P10Card>, Without<Leaving>)>()
        .iter(app.world())
        .count()
}

/// Pro Spider 10's 108 cards are on the table once each (beside the last round's cards still
/// on their way onto the stock, which are gone once there).
fn assert_p10_cards_conserved(app: &mut App) {
    assert_eq!(p10_card_count(app), 108, "one card entity per card");
    let piles = app.world().resource::<P10Piles>();
    let placed = piles.placed();
    assert_eq!(placed.len(), 108, "every card in a pile once");
    let distinct: std::collections::HashSet<Entity> = placed.iter().map(|(e, _)| *e).collect();
    assert_eq!(distinct.len(), 108, "no card in two piles");
}

/// Lets the cards come to rest (the computer seats pause between decisions, the viewer
/// between steps), then checks the table against the engine.
fn p10_to_rest(app: &mut App, counts: &mut Counts) {
    for _ in 0..3000 {
        app.update();
        counts.frames += 1;
        if p10::moving(app) == 0 {
            app.update();
            counts.frames += 1;
            if p10::moving(app) == 0 {
                p10::assert_matches_engine(app);
                counts.rests += 1;
                return;
            }
        }
    }
    panic!("the table never came to rest");
}

/// A quit and a restart as `main` does it: the statistics and the game in progress are read
/// back from what the app saved; a finished game is not resumed, a new one is dealt.
fn p10_quit_and_resume(
    app: &mut App,
    w: Entity,
    storage: &Arc<MemoryStorage>,
    rng: &mut Rng,
    counts: &mut Counts,
) -> (App, Entity) {
    // The player's game: the one waiting while the viewer shows another.
    let viewer = app.world().get_resource::<P10Viewer>().is_some();
    if !viewer && !app.world().resource::<P10Seen>().unsaved {
        let table = app.world().resource::<P10Table>().clone();
        let (back, _) = p10_saves::load_game(storage.as_ref());
        let back = back.expect("the game in progress was saved");
        assert_eq!(back.game.stage(), table.game.stage());
        assert_eq!(back.game.to_move(), table.game.to_move());
        assert_eq!(back.game.stock(), table.game.stock());
        for seat in 0..table.game.players() {
            assert_eq!(back.game.view(seat), table.game.view(seat), "seat {seat}");
        }
        assert_eq!(back.sheet, table.sheet);
        assert_eq!(back.player_decisions, table.player_decisions);
        assert_eq!(back.counted, table.counted);
    }
    p10_restart(app, w, storage, rng, counts)
}

/// The app started again as `main` starts it: the statistics and the game in progress read
/// from what was saved; with no game to resume (or a finished one), a new deal, not saved yet.
fn p10_restart(
    app: &mut App,
    w: Entity,
    storage: &Arc<MemoryStorage>,
    rng: &mut Rng,
    counts: &mut Counts,
) -> (App, Entity) {
    let (table, stats, messages) = p10_saves::startup(Some(storage.as_ref()), None);
    assert_eq!(messages, Vec::<String>::new());
    let unsaved = table.is_none();
    let table = match table {
        Some(t) => t,
        None => {
            counts.games += 1;
            P10Table::new(p10_spec(rng)).unwrap().0
        }
    };
    counts.resumes += 1;
    let size = window_size(app, w);
    let seen = std::mem::take(&mut app.world_mut().resource_mut::<P10Seen>().ended);
    let pause = app.world().resource::<Settings>().phase10.computer_pause_ms;
    let (mut fresh, w) = p10_app(table, stats, storage.clone(), size, pause);
    *fresh.world_mut().resource_mut::<P10Seen>() = P10Seen {
        ended: seen,
        unsaved,
    };
    (fresh, w)
}

/// One storm. Like Spider's it is the same on every run: the computer seats decide in the
/// frame that asks them ([`DecideInFrame`]), and the deals are numbered from the seed. A failed
/// check prints the last 40 events and the command that plays the storm again.
fn p10_storm(seed: u64, steps: usize, counts: &mut Counts) {
    let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    DEALS.with(|d| d.set(seed * 1_000_000 + 1));
    let storage = Arc::new(MemoryStorage::default());
    let pause = if rng.chance(50) { 0 } else { 700 };
    let (table, _) = P10Table::new(p10_spec(&mut rng)).unwrap();
    // Launched with this game, as `main` does with one asked for: it is saved at once.
    let (table, stats, _) = p10_saves::startup(Some(storage.as_ref()), Some(table));
    let (mut app, mut w) = p10_app(
        table.unwrap(),
        stats,
        storage.clone(),
        Vec2::new(1280.0, 720.0),
        pause,
    );
    counts.games += 1;
    let mut held = false;
    let mut overlay = false;
    let mut recent = Recent::new(
        "a_random_storm_never_breaks_pro_spider_10s_table",
        seed,
        steps,
    );
    for step in 0..steps {
        counts.events += 1;
        let at = p10_target(&app, w, &mut rng);
        let choice = rng.below(25);
        {
            let table = app.world().resource::<P10Table>();
            recent.push(format!(
                "p10 {seed} step {step}: event {choice} at {at}, held {held}, overlay {overlay}, \
                 seats {}, stage {:?}, to move {:?}, viewer {}",
                table.game.players(),
                table.game.stage(),
                table.game.to_move(),
                app.world().get_resource::<P10Viewer>().is_some()
            ));
        }
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            p10_event(
                &mut app,
                &mut w,
                choice,
                at,
                &mut rng,
                &mut held,
                &mut overlay,
                &storage,
                counts,
            )
        }));
        let checked = outcome.and_then(|()| {
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                let n = [0, 0, 1, 1, 2, 4, 9][rng.below(7)];
                frames(&mut app, n.max(1), counts);
                assert_p10_cards_conserved(&mut app);
            }))
        });
        if let Err(e) = checked {
            recent.fail(e);
        }
    }
    if held {
        button(&mut app, w, ButtonState::Released);
    }
    app.world_mut().write_message(ViewerControl::Close);
    app.insert_resource(TableInput(true));
    app.insert_resource(OverlayOpen(false));
    p10_to_rest(&mut app, counts);
    // Every game reported as ended is in the statistics (through every quit and resume), and
    // none was reported twice (two reports of one game hold the same log; every game of the
    // storm is a deal of its own).
    let seen = std::mem::take(&mut app.world_mut().resource_mut::<P10Seen>().ended);
    let stats = app.world().resource::<P10Statistics>();
    let played: u32 = stats.by.values().map(|s| s.played).sum();
    assert_eq!(played as usize, seen.len(), "every ended game counted");
    for (i, a) in seen.iter().enumerate() {
        for b in &seen[i + 1..] {
            assert!(a.log != b.log, "a game counted twice:\n{}", a.log);
        }
    }
    counts.finished += seen.iter().filter(|e| !e.left).count() as u64;
    for e in &seen {
        // FNV-1a, the same on every platform and run.
        counts.logs = e
            .log
            .bytes()
            .fold(counts.logs ^ 0xcbf2_9ce4_8422_2325, |h, b| {
                (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
            });
    }
}

#[allow(clippy::too_many_arguments)]
fn p10_event(
    app: &mut App,
    w: &mut Entity,
    choice: usize,
    at: Vec2,
    rng: &mut Rng,
    held: &mut bool,
    overlay: &mut bool,
    storage: &Arc<MemoryStorage>,
    counts: &mut Counts,
) {
    let w0 = *w;
    match choice {
        // The pointer: press, move, release, a click, a double-click; a finger's tap, or its
        // drag to another card or the pile.
        0..=8 => pointer_event(app, w0, choice, at, held, &mut |app| {
            p10_target(app, w0, rng)
        }),
        // Keys, one or with Ctrl.
        9..=12 => {
            let code = P10_KEYS[rng.below(P10_KEYS.len())];
            let ctrl = rng.chance(10);
            press_key(app, w0, code, ctrl);
        }
        13 => {
            let (x, y) = P10_SIZES[rng.below(P10_SIZES.len())];
            resize(app, w0, x, y);
        }
        14 => toggle_overlay(app, overlay),
        // The bar's and the form's new game; or the game saved near its end, resumed.
        15 => {
            if rng.chance(20) && !*held && app.world().get_resource::<P10Viewer>().is_none() {
                let nearly = p10_nearly_over(rng);
                storage
                    .write(p10_saves::GAME_KEY, &p10_saves::save_text(&nearly))
                    .unwrap();
                let stats = app.world().resource::<P10Statistics>().clone();
                arachne::core::persist::save(storage.as_ref(), p10_saves::STATS_KEY, &stats)
                    .unwrap();
                (*app, *w) = p10_restart(app, w0, storage, rng, counts);
                let resumed = &app.world().resource::<P10Table>().game;
                assert_eq!(
                    resumed.view(0),
                    nearly.game.view(0),
                    "the saved game resumed"
                );
                counts.games += 1;
            } else {
                let spec = p10_spec(rng);
                app.world_mut()
                    .write_message(P10Request::NewGame(Box::new(P10SpecMsg(spec))));
                counts.games += 1;
            }
        }
        // The viewer: this game from its start, steps, jumps, play, speed, every hand, close.
        16 => {
            let c = match rng.below(9) {
                0 => {
                    let table = app.world().resource::<P10Table>();
                    ViewerControl::this_game(table)
                }
                1 | 2 => ViewerControl::Forward,
                3 => ViewerControl::Back,
                4 => ViewerControl::Jump(rng.below(400)),
                5 => ViewerControl::Round(1 + rng.below(4) as u32),
                6 => ViewerControl::Play(rng.chance(60)),
                7 => ViewerControl::Speed([0.25, 2.0, 16.0][rng.below(3)]),
                _ if rng.chance(50) => ViewerControl::AllHands(rng.chance(50)),
                _ => ViewerControl::Close,
            };
            app.world_mut().write_message(c);
        }
        // What the bar sends: any decision the rules list (the player's turn or not), the
        // next round, a relayout.
        17 => {
            let table = app.world().resource::<P10Table>();
            let choices = table.game.choices();
            let r = match rng.below(4) {
                0 | 1 if !choices.is_empty() => {
                    P10Request::Act(choices[rng.below(choices.len())].clone())
                }
                2 => P10Request::NextRound,
                _ => P10Request::Relayout,
            };
            app.world_mut().write_message(r);
        }
        18 => app.world_mut().resource_mut::<Hurry>().0 = true,
        // The settings window changes the motion.
        24 => change_motion(app, rng),
        // Spider and back (from Pro Spider 10's menu and Spider's).
        19 => {
            for (kind, n) in [
                (GameKind::Spider, 1 + rng.below(20)),
                (GameKind::ProSpider10, 1),
            ] {
                app.world_mut()
                    .resource_mut::<NextState<GameKind>>()
                    .set(kind);
                for _ in 0..n {
                    app.update();
                }
            }
        }
        20 if rng.chance(30) && !*held => {
            let (fresh, fw) = p10_quit_and_resume(app, w0, storage, rng, counts);
            *app = fresh;
            *w = fw;
        }
        _ => {
            if *held {
                button(app, w0, ButtonState::Released);
                *held = false;
            }
            p10_to_rest(app, counts);
        }
    }
}

const P10_SIZES: &[(f32, f32)] = &[
    (1280.0, 720.0),
    (800.0, 600.0),
    (390.0, 844.0),
    (1920.0, 1080.0),
    (844.0, 390.0),
];

#[test]
fn a_random_storm_never_breaks_pro_spider_10s_table() {
    let steps = soak_steps();
    let mut counts = Counts::default();
    for seed in (2000..2004).map(|s| s + soak_shift()) {
        if soak_this(seed) {
            p10_storm(seed, steps, &mut counts);
        }
    }
    println!(
        "p10 soak: {} events, {} frames, {} games, {} finished, {} resumes, {} checks at rest, \
         logs {:016x}",
        counts.events,
        counts.frames,
        counts.games,
        counts.finished,
        counts.resumes,
        counts.rests,
        counts.logs
    );
}
