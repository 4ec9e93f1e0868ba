//! Pro Spider 10 at the table, headless: a window entity without winit, real mouse and keyboard
//! messages through Bevy's input plugin, the computer seats playing through their own system,
//! and the table checked against the engine at rest after every action.
use std::time::Duration;

use arachne::GameKind;
use arachne::audio::cues::{PlaySfx, Sfx};
use arachne::cards::motion::CardPose;
use arachne::core::persist::{MemoryStorage, Saves, Storage};
use arachne::logic_plugin;
use arachne::phase10::input::{HandCursor, LayChoice, describe_lay};
use arachne::phase10::layout::{P10Layout, Place};
use arachne::phase10::round::{P10Changed, P10Request, P10Spec, P10SpecMsg, P10Table, PLAYER};
use arachne::phase10::saves::{GAME_KEY, P10Statistics, load_game, save_text, table_from_text};
use arachne::phase10::seats::Hurry;
use arachne::phase10::view::{P10Card, P10Piles, Selection};
use arachne::phase10::viewer::{P10Viewer, ViewerControl};
use arachne_engine::phase10::card::parse_cards;
use arachne_engine::phase10::{Action, Card, Declaration, Game, Stage, variant};
use bevy::input::ButtonState;
use bevy::input::InputPlugin;
use bevy::input::mouse::MouseButtonInput;
use bevy::prelude::*;
use bevy::state::app::StatesPlugin;
use bevy::time::TimeUpdateStrategy;
use bevy::window::PrimaryWindow;
use bevy_tweening::TweenAnim;

mod common;
use common::p10::{assert_matches_engine, moving, one_decision_from_the_end, settle};
use common::{OtherCopy, key, resize};

fn app(players: usize, seed: u64, level: &str, state: GameKind) -> (App, Entity) {
    app_for(P10Spec::standard(players, seed, level).unwrap(), state)
}

/// The table with `spec`'s game.
fn app_for(spec: P10Spec, state: GameKind) -> (App, Entity) {
    let seed = spec.seed;
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, StatesPlugin, InputPlugin))
        .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_millis(
            16,
        )))
        .insert_resource(
            arachne::spider::table::Table::new(
                arachne::spider::table::GameSpec::builtin(
                    "spider-1suit",
                    seed,
                    arachne_engine::Numbering::Arachne,
                )
                .unwrap(),
            )
            .unwrap(),
        )
        .insert_resource(P10Table::new(spec).unwrap().0)
        // The texts the tests read are the English ones, whatever the machine's language.
        .insert_resource(arachne::core::settings::Settings {
            language: Some(arachne::core::i18n::Lang::En),
            ..Default::default()
        })
        .add_message::<AppExit>()
        .insert_state(state);
    let mut window = Window::default();
    window.resolution.set(1280.0, 720.0);
    let w = app.world_mut().spawn((window, PrimaryWindow)).id();
    logic_plugin(&mut app);
    app.update();
    (app, w)
}

fn game(app: &App) -> &arachne_engine::phase10::Game {
    &app.world().resource::<P10Table>().game
}

/// Runs frames until the player decides (or the round or game is over) and nothing moves;
/// returns the frames it took.
fn until_players_turn(app: &mut App) -> usize {
    for frame in 0..40_000 {
        app.update();
        let table = app.world().resource::<P10Table>();
        let waiting =
            table.players_turn() || matches!(table.game.stage(), Stage::RoundOver | Stage::Over);
        if waiting && moving(app) == 0 {
            app.update();
            return frame;
        }
    }
    panic!("the player's turn never came");
}

fn press(app: &mut App, w: Entity, at: Vec2) {
    let mut window = app.world_mut().get_mut::<Window>(w).unwrap();
    window.set_cursor_position(Some(Vec2::new(at.x + 640.0, 360.0 - at.y)));
    app.update();
    for state in [ButtonState::Pressed, ButtonState::Released] {
        app.world_mut().write_message(MouseButtonInput {
            button: MouseButton::Left,
            state,
            window: w,
        });
        app.update();
    }
}

fn pose_of(app: &App, e: Entity) -> Vec2 {
    app.world()
        .get::<CardPose>(e)
        .unwrap()
        .translation
        .truncate()
}

/// The player's turn, through the table's input: take the stock, lay the phase if the hand has
/// it ("find it", then lay), hit what fits, and double-click the card worth most to discard it.
fn play_a_turn(app: &mut App, w: Entity) {
    let stock = *app
        .world()
        .resource::<P10Piles>()
        .stock
        .last()
        .expect("a stock");
    let before = game(app).hand(PLAYER).len();
    press(app, w, pose_of(app, stock));
    settle(app);
    assert_eq!(
        game(app).hand(PLAYER).len(),
        before + 1,
        "the click took the stock's card"
    );
    assert_matches_engine(app);
    if game(app).laid_phase()[PLAYER].is_none() {
        key(app, w, KeyCode::KeyF);
        if !app.world().resource::<Selection>().0.is_empty() {
            key(app, w, KeyCode::KeyL);
            // Where a joker could mean more than one thing, the first way is chosen.
            if !app.world().resource::<LayChoice>().0.is_empty() {
                key(app, w, KeyCode::Digit1);
            }
            settle(app);
            assert!(game(app).laid_phase()[PLAYER].is_some(), "found and laid");
            assert_matches_engine(app);
        }
    }
    // Hits: a card of the hand, then a group it fits.
    loop {
        if game(app).stage() != Stage::Play || game(app).to_move() != Some(PLAYER) {
            return;
        }
        let hit = game(app).choices().into_iter().find_map(|a| match a {
            arachne_engine::phase10::Action::Hit { seat, group, card } => Some((seat, group, card)),
            _ => None,
        });
        let Some((seat, group, card)) = hit else {
            break;
        };
        if game(app).hand(PLAYER).len() == 1 {
            break;
        }
        let piles = app.world().resource::<P10Piles>().clone();
        let e = *piles.hands[PLAYER]
            .iter()
            .find(|e| piles.cards.get(e) == Some(&card.card))
            .unwrap();
        let target = piles.groups[seat][group][0];
        let laid = game(app).laid()[seat][group].len();
        let (from, to) = (pose_of(app, e), pose_of(app, target));
        press(app, w, from);
        press(app, w, to);
        settle(app);
        if game(app).laid()[seat][group].len() == laid {
            // A joker that means two things lands where the game chose first; if the click
            // chose differently nothing changed, and the turn goes on to the discard.
            app.world_mut().resource_mut::<Selection>().0.clear();
            break;
        }
        assert_matches_engine(app);
    }
    if game(app).to_move() != Some(PLAYER) {
        return;
    }
    let piles = app.world().resource::<P10Piles>().clone();
    let e = *piles.hands[PLAYER]
        .iter()
        .max_by_key(|e| {
            let c = piles.cards[e];
            (u32::from(!c.is_skip()), c.value().unwrap_or(20))
        })
        .unwrap();
    let before = game(app).discard_pile().len();
    let at = pose_of(app, e);
    press(app, w, at);
    press(app, w, at);
    settle(app);
    assert!(
        game(app).to_move() != Some(PLAYER) || game(app).discard_pile().len() != before,
        "the double-click ended the turn"
    );
    assert_matches_engine(app);
}

#[test]
fn a_whole_round_is_played_through_the_table_and_matches_the_engine() {
    let (mut app, w) = app(2, 11, "petra", GameKind::ProSpider10);
    let turns = play_the_round(&mut app, w, play_a_turn);
    assert_eq!(game(&app).round(), 1);
    eprintln!(
        "round 1 over after {turns} turns of the player; laid: {:?}; points {:?}",
        game(&app).laid_phase(),
        game(&app)
            .standings()
            .iter()
            .map(|s| s.points)
            .collect::<Vec<_>>()
    );
    assert!(turns >= 3, "a round of {turns} turns is no test");
    // Enter deals the next round.
    key(&mut app, w, KeyCode::Enter);
    until_players_turn(&mut app);
    assert_eq!(game(&app).round(), 2);
    assert_matches_engine(&mut app);
}

/// The player's turn with the keyboard alone: D takes the stock, F and L lay the phase, the
/// arrows reach a card and H hits with it (a number where it fits several places), and X
/// discards the card worth most (a skip's seat by its number).
fn play_a_turn_by_keys(app: &mut App, w: Entity) {
    let before = game(app).hand(PLAYER).len();
    key(app, w, KeyCode::KeyD);
    settle(app);
    assert_eq!(
        game(app).hand(PLAYER).len(),
        before + 1,
        "D took the stock's card"
    );
    if game(app).laid_phase()[PLAYER].is_none() {
        key(app, w, KeyCode::KeyF);
        if !app.world().resource::<Selection>().0.is_empty() {
            key(app, w, KeyCode::KeyL);
            if !app.world().resource::<LayChoice>().0.is_empty() {
                key(app, w, KeyCode::Digit1);
            }
            settle(app);
            assert!(game(app).laid_phase()[PLAYER].is_some(), "found and laid");
        }
    }
    // Moves the keyboard's card to `card` with the arrows, from wherever it is.
    let reach = |app: &mut App, card: Card| {
        for _ in 0..40 {
            let piles = app.world().resource::<P10Piles>().clone();
            let hand = &piles.hands[PLAYER];
            let at = app.world().resource::<HandCursor>().at(hand);
            if at.is_some_and(|i| piles.cards[&hand[i]] == card) {
                return;
            }
            key(app, w, KeyCode::ArrowRight);
        }
        panic!("the arrows never reached {card}");
    };
    loop {
        if game(app).stage() != Stage::Play
            || game(app).to_move() != Some(PLAYER)
            || game(app).hand(PLAYER).len() == 1
            || game(app).laid_phase()[PLAYER].is_none()
        {
            break;
        }
        let hitting: Vec<Card> = game(app)
            .choices()
            .into_iter()
            .filter_map(|a| match a {
                Action::Hit { card, .. } => Some(card.card),
                _ => None,
            })
            .collect();
        // F finds a card that hits (the keyboard's card and the one chosen), or says there is
        // none (the notices of earlier keys cleared first).
        app.world_mut()
            .resource_mut::<arachne::core::focus::Notices>()
            .0
            .clear();
        key(app, w, KeyCode::KeyF);
        let piles = app.world().resource::<P10Piles>().clone();
        let hand = &piles.hands[PLAYER];
        // The card the keyboard's outline is on.
        let outlined = |app: &App| {
            app.world()
                .resource::<HandCursor>()
                .at(hand)
                .map(|i| piles.cards[&hand[i]])
        };
        let found = outlined(app);
        if hitting.is_empty() {
            let notices = &app.world().resource::<arachne::core::focus::Notices>().0;
            assert!(
                notices
                    .iter()
                    .any(|(n, _)| n.starts_with("No card of your hand fits")),
                "{notices:?}"
            );
            break;
        }
        let found = found.expect("F put the keyboard's card on a card");
        assert!(
            hitting.contains(&found),
            "F found {found}, which hits nothing"
        );
        let chosen = app.world().resource::<Selection>().0.clone();
        assert_eq!(chosen.len(), 1);
        assert_eq!(piles.cards[&chosen[0]], found);
        // F again goes on to the next card of the hand that hits, if another one does.
        let hits_in_hand = hand
            .iter()
            .filter(|e| hitting.contains(&piles.cards[e]))
            .count();
        if hits_in_hand > 1 {
            key(app, w, KeyCode::KeyF);
            let again = app.world().resource::<Selection>().0.clone();
            assert_eq!(again.len(), 1);
            assert_ne!(again, chosen, "F again found another card");
            assert!(hitting.contains(&piles.cards[&again[0]]));
            FOUND_AGAIN.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        }
        FOUND_HITS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let card = outlined(app).unwrap();
        let before = game(app).hand(PLAYER).len();
        key(app, w, KeyCode::KeyH);
        if !app.world().resource::<LayChoice>().0.is_empty() {
            key(app, w, KeyCode::Digit1);
        }
        settle(app);
        assert_eq!(
            game(app).hand(PLAYER).len(),
            before - 1,
            "H hit with {card}"
        );
        assert_matches_engine(app);
    }
    if game(app).to_move() != Some(PLAYER) || game(app).stage() != Stage::Play {
        return;
    }
    let worst = *game(app)
        .hand(PLAYER)
        .iter()
        .max_by_key(|c| (u32::from(!c.is_skip()), c.value().unwrap_or(20)))
        .unwrap();
    reach(app, worst);
    let before = game(app).discard_pile().len();
    key(app, w, KeyCode::KeyX);
    if worst.is_skip() && game(app).to_move() == Some(PLAYER) {
        // Several seats it could go to: the first one the game lists, by its number.
        let seat = game(app)
            .choices()
            .into_iter()
            .find_map(|a| match a {
                Action::Skip(s) => Some(s),
                _ => None,
            })
            .unwrap();
        key(
            app,
            w,
            [
                KeyCode::Digit2,
                KeyCode::Digit3,
                KeyCode::Digit4,
                KeyCode::Digit5,
                KeyCode::Digit6,
            ][seat - 1],
        );
    }
    settle(app);
    assert!(
        game(app).to_move() != Some(PLAYER) || game(app).discard_pile().len() != before,
        "X ended the turn"
    );
    assert_matches_engine(app);
}

/// Hits found by F in [`play_a_turn_by_keys`], and those where F again found another card.
static FOUND_HITS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
static FOUND_AGAIN: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

#[test]
fn a_round_is_played_with_the_keyboard_alone() {
    // Rounds of several deals, until the player has hit with a card found by F, and F has gone
    // on to another card that hits.
    FOUND_HITS.store(0, std::sync::atomic::Ordering::Relaxed);
    FOUND_AGAIN.store(0, std::sync::atomic::Ordering::Relaxed);
    for seed in 21..41 {
        let (mut app, w) = app(3, seed, "petra", GameKind::ProSpider10);
        let turns = play_the_round(&mut app, w, play_a_turn_by_keys);
        assert!(turns >= 3, "a round of {turns} turns is no test");
        let again = FOUND_AGAIN.load(std::sync::atomic::Ordering::Relaxed);
        if FOUND_HITS.load(std::sync::atomic::Ordering::Relaxed) > 0 && again > 0 {
            eprintln!("F found hits, and another, by the round of seed {seed}");
            return;
        }
    }
    panic!("F found no hit, or never another one, in twenty rounds");
}

/// Plays the round to its end, the player's turns by `turn`, the table matching the engine
/// after every one; returns the player's turns.
fn play_the_round(app: &mut App, w: Entity, turn: fn(&mut App, Entity)) -> usize {
    until_players_turn(app);
    assert_matches_engine(app);
    let mut turns = 0;
    while game(app).stage() != Stage::RoundOver && game(app).stage() != Stage::Over {
        turn(app, w);
        until_players_turn(app);
        assert_matches_engine(app);
        turns += 1;
        assert!(turns < 200, "the round never ended");
    }
    turns
}

#[test]
fn a_double_click_on_a_card_already_chosen_takes_the_choice_back_and_keeps_the_card() {
    let (mut app, w) = app(2, 11, "petra", GameKind::ProSpider10);
    until_players_turn(&mut app);
    key(&mut app, w, KeyCode::KeyD);
    settle(&mut app);
    let piles = app.world().resource::<P10Piles>().clone();
    let e = piles.hands[PLAYER][0];
    let at = pose_of(&app, e);
    // Chosen by a first click, some time ago.
    press(&mut app, w, at);
    for _ in 0..60 {
        app.update();
    }
    assert_eq!(app.world().resource::<Selection>().0, [e]);
    // Two quick clicks: the first takes the choice back, the second chooses it again; nothing
    // is discarded.
    let pile = game(&app).discard_pile().len();
    let at = pose_of(&app, e);
    press(&mut app, w, at);
    let at = pose_of(&app, e);
    press(&mut app, w, at);
    settle(&mut app);
    assert_eq!(game(&app).discard_pile().len(), pile);
    assert_eq!(game(&app).to_move(), Some(PLAYER));
    assert_eq!(app.world().resource::<Selection>().0, [e]);
}

#[test]
fn a_computer_decision_made_for_another_position_is_dropped_without_a_word() {
    let (mut app, _) = app(2, 11, "petra", GameKind::ProSpider10);
    until_players_turn(&mut app);
    let table = app.world().resource::<P10Table>().clone();
    // A decision the other seat could make in a game started since (the same deal, another
    // table): it is not applied, and the player is told nothing.
    let (other, _) = P10Table::new(table.spec.clone()).unwrap();
    let log = |app: &App| app.world().resource::<P10Table>().log.text_so_far();
    let before = log(&app);
    app.world_mut()
        .write_message(P10Request::Computer(1, Action::DrawStock, other.position()));
    app.update();
    assert_eq!(log(&app), before);
    let notices = &app.world().resource::<arachne::core::focus::Notices>().0;
    assert!(notices.is_empty(), "{notices:?}");
}

#[test]
fn a_click_hurries_the_computer_seats_to_the_players_turn() {
    // The same game twice: left to its pace, and hurried by a click.
    let (mut paced, pw) = app(6, 5, "petra", GameKind::ProSpider10);
    let (mut hurried, hw) = app(6, 5, "petra", GameKind::ProSpider10);
    for (app, w) in [(&mut paced, pw), (&mut hurried, hw)] {
        until_players_turn(app);
        play_a_turn(app, w);
    }
    assert_eq!(game(&paced).to_move(), game(&hurried).to_move());
    let slow = until_players_turn(&mut paced);
    press(&mut hurried, hw, Vec2::new(0.0, 0.0));
    assert!(
        hurried.world().resource::<Hurry>().0,
        "the click hurries them"
    );
    let fast = until_players_turn(&mut hurried) + 3;
    assert!(slow > 150, "five paced turns took {slow} frames");
    assert!(fast * 4 < slow, "hurried: {fast} frames, paced: {slow}");
    assert!(
        !hurried.world().resource::<Hurry>().0,
        "the player's turn ends the hurry"
    );
    assert_matches_engine(&mut hurried);
    // The same decisions either way: the computer seats see the same views.
    assert_eq!(game(&paced).discard_pile(), game(&hurried).discard_pile());
}

#[test]
fn switching_games_and_back_resumes_both() {
    let (mut app, w) = app(3, 7, "random", GameKind::ProSpider10);
    until_players_turn(&mut app);
    let stock = *app.world().resource::<P10Piles>().stock.last().unwrap();
    let at = pose_of(&app, stock);
    press(&mut app, w, at);
    settle(&mut app);
    let hand: Vec<Card> = game(&app).hand(PLAYER).to_vec();
    assert_eq!(hand.len(), 11);
    // Pro Spider 10's notices show above its bar, clear of the seats' labels at the top;
    // Spider's at the top again.
    let spot = |app: &App| {
        app.world()
            .resource::<arachne::core::focus::NoticeSpot>()
            .above_bottom
    };
    let band = app
        .world()
        .resource::<arachne::phase10::layout::BarBand>()
        .band;
    assert_eq!(spot(&app), Some(band + 4.0));

    app.world_mut()
        .resource_mut::<NextState<GameKind>>()
        .set(GameKind::Spider);
    app.update();
    assert_eq!(spot(&app), None);
    let p10_cards = |app: &mut App| {
        app.world_mut()
            .query_filtered::<(), With<P10Card>>()
            .iter(app.world())
            .count()
    };
    assert_eq!(
        p10_cards(&mut app),
        0,
        "Pro Spider 10's cards leave with it"
    );
    for _ in 0..200 {
        app.update();
    }
    let spider_cards = app
        .world_mut()
        .query_filtered::<(), With<arachne::spider::piles::CardView>>()
        .iter(app.world())
        .count();
    assert_eq!(spider_cards, 104, "Spider's table is out");
    let mv = app
        .world()
        .resource::<arachne::spider::table::Table>()
        .game
        .legal_moves()[0];
    app.world_mut()
        .write_message(arachne::spider::table::Request::Move(mv));
    for _ in 0..200 {
        app.update();
    }

    app.world_mut()
        .resource_mut::<NextState<GameKind>>()
        .set(GameKind::ProSpider10);
    app.update();
    settle(&mut app);
    assert_eq!(
        game(&app).hand(PLAYER),
        &hand[..],
        "the same game, the same hand"
    );
    assert_eq!(game(&app).stage(), Stage::Play);
    assert_matches_engine(&mut app);
    // And Spider kept its move.
    let spider = app.world().resource::<arachne::spider::table::Table>();
    assert_eq!(spider.game.move_count(), 1);
}

fn drag(app: &mut App, w: Entity, from: Vec2, to: Vec2) {
    drag_with(app, w, from, to, false);
}

/// A drag from `from` to `to`; with `gone`, the window says the mouse left in the frame of the
/// button's release (as WebKit does).
fn drag_with(app: &mut App, w: Entity, from: Vec2, to: Vec2, gone: bool) {
    let set = |app: &mut App, p: Option<Vec2>| {
        let mut window = app.world_mut().get_mut::<Window>(w).unwrap();
        window.set_cursor_position(p.map(|p| Vec2::new(p.x + 640.0, 360.0 - p.y)));
        app.update();
    };
    set(app, Some(from));
    app.world_mut().write_message(MouseButtonInput {
        button: MouseButton::Left,
        state: ButtonState::Pressed,
        window: w,
    });
    app.update();
    for k in 1..=8 {
        set(app, Some(from.lerp(to, k as f32 / 8.0)));
    }
    app.world_mut().write_message(MouseButtonInput {
        button: MouseButton::Left,
        state: ButtonState::Released,
        window: w,
    });
    if gone {
        set(app, None);
    } else {
        app.update();
    }
}

/// The player takes the stock's card by a click; the table then, and a card of the hand that
/// is not a skip.
fn draw_from_the_stock(app: &mut App, w: Entity) -> (P10Piles, Entity) {
    let stock = *app.world().resource::<P10Piles>().stock.last().unwrap();
    let at = pose_of(app, stock);
    press(app, w, at);
    settle(app);
    let piles = app.world().resource::<P10Piles>().clone();
    let card = *piles.hands[PLAYER]
        .iter()
        .find(|e| !piles.cards[e].is_skip())
        .unwrap();
    (piles, card)
}

#[test]
fn a_card_dragged_to_the_pile_is_discarded_and_one_dropped_elsewhere_glides_home() {
    let (mut app, w) = app(2, 11, "petra", GameKind::ProSpider10);
    until_players_turn(&mut app);
    let (piles, card) = draw_from_the_stock(&mut app, w);
    let home = pose_of(&app, card);
    // Dropped on the empty table: nothing changes, it glides back.
    drag(&mut app, w, home, Vec2::new(home.x, 0.0));
    settle(&mut app);
    assert_eq!(game(&app).stage(), Stage::Play);
    assert_eq!(game(&app).hand(PLAYER).len(), 11);
    assert!(
        app.world().resource::<Selection>().0.is_empty(),
        "a drag is not a click"
    );
    assert_matches_engine(&mut app);
    // Dropped on the discard pile: discarded.
    let pile = pose_of(&app, *piles.discard.last().unwrap());
    let what = piles.cards[&card];
    drag(&mut app, w, home, pile);
    settle(&mut app);
    assert_eq!(game(&app).hand(PLAYER).len(), 10);
    assert_eq!(game(&app).discard_pile().last(), Some(&what));
    assert_matches_engine(&mut app);
}

/// Two seats dealt by hand, the player to draw, the up-card alone on the discard pile; and
/// where that card lies.
fn two_seats_and_an_up_card() -> (App, Entity, Vec2) {
    let (app, w) = dealt(
        "pro-spider-10",
        &[
            "r1 r2 b5 b7 g9 g11 y12 y3 r6 b8",
            "g1 g2 y5 y7 r9 r11 b12 b3 g6 y8",
        ],
        "r10",
    );
    let up = *app.world().resource::<P10Piles>().discard.last().unwrap();
    let spot = pose_of(&app, up);
    (app, w, spot)
}

#[test]
fn a_card_clicked_or_dropped_on_the_empty_discard_piles_spot_is_discarded() {
    for by_drag in [false, true] {
        let (mut app, w, spot) = two_seats_and_an_up_card();
        // The player takes the pile's only card: the pile is empty.
        press(&mut app, w, spot);
        settle(&mut app);
        assert_eq!(game(&app).stage(), Stage::Play);
        assert!(game(&app).discard_pile().is_empty());
        let piles = app.world().resource::<P10Piles>().clone();
        let card = piles.hands[PLAYER][0];
        let what = piles.cards[&card];
        let at = pose_of(&app, card);
        if by_drag {
            drag(&mut app, w, at, spot);
        } else {
            press(&mut app, w, at);
            assert_eq!(app.world().resource::<Selection>().0, [card]);
            press(&mut app, w, spot);
        }
        settle(&mut app);
        assert_eq!(
            game(&app).discard_pile().last(),
            Some(&what),
            "discarded on the empty pile's spot (by drag: {by_drag})"
        );
        assert_matches_engine(&mut app);
    }
}

/// A click as WebKit reports a quick one in a slow frame: the mouse seen at `at`, then the
/// button's press and release in one frame, in which the window also says the mouse left
/// (WebKit says so after every release).
fn click_then_gone(app: &mut App, w: Entity, at: Vec2) {
    let mut window = app.world_mut().get_mut::<Window>(w).unwrap();
    window.set_cursor_position(Some(Vec2::new(at.x + 640.0, 360.0 - at.y)));
    app.update();
    let mut window = app.world_mut().get_mut::<Window>(w).unwrap();
    window.set_cursor_position(None);
    for state in [ButtonState::Pressed, ButtonState::Released] {
        app.world_mut().write_message(MouseButtonInput {
            button: MouseButton::Left,
            state,
            window: w,
        });
    }
    app.update();
    app.update();
}

#[test]
fn a_quick_click_and_a_drop_count_where_the_mouse_was_though_the_window_lost_it() {
    let (mut app, w, spot) = two_seats_and_an_up_card();
    click_then_gone(&mut app, w, spot);
    settle(&mut app);
    assert_eq!(game(&app).stage(), Stage::Play, "the pile's card taken");
    let piles = app.world().resource::<P10Piles>().clone();
    let card = piles.hands[PLAYER][0];
    let at = pose_of(&app, card);
    click_then_gone(&mut app, w, at);
    assert_eq!(app.world().resource::<Selection>().0, [card], "chosen");
    settle(&mut app);
    click_then_gone(&mut app, w, spot);
    settle(&mut app);
    assert_eq!(game(&app).discard_pile(), [piles.cards[&card]], "discarded");
    // A drag whose release comes with the mouse gone drops the card where the mouse was.
    until_players_turn(&mut app);
    let (piles, card) = draw_from_the_stock(&mut app, w);
    let what = piles.cards[&card];
    let pile = pose_of(&app, *piles.discard.last().unwrap());
    let from = pose_of(&app, card);
    drag_with(&mut app, w, from, pile, true);
    settle(&mut app);
    assert_eq!(
        game(&app).discard_pile().last(),
        Some(&what),
        "dropped on the pile"
    );
    assert_matches_engine(&mut app);
}

/// Every card is in the deck twice: the one the player discards is the one the player chose,
/// dragged, double-clicked or pointed at with the keyboard, not its twin. (The engine hears
/// only which card; the twin moved, the chosen one stayed in the hand, raised and chosen.)
#[test]
fn of_two_like_cards_the_one_the_player_acted_with_is_the_one_that_moves() {
    for way in ["click", "drag", "double-click", "keys"] {
        let (mut app, w) = dealt(
            "pro-spider-10",
            &[
                "r1 r1 b5 b7 g9 g11 y12 y3 r6 b8",
                "g1 g2 y5 y7 r9 r11 b12 b3 g6 y8",
            ],
            "r10",
        );
        let (piles, _) = draw_from_the_stock(&mut app, w);
        let twins: Vec<Entity> = piles.hands[PLAYER]
            .iter()
            .copied()
            .filter(|e| piles.cards[e] == parse_cards("r1").unwrap()[0])
            .collect();
        let [first, second] = twins[..] else {
            panic!("two red 1s in the hand: {twins:?}");
        };
        assert_eq!(piles.hands[PLAYER][0], first, "the hand is sorted by value");
        let at = pose_of(&app, first);
        let pile = pose_of(&app, *piles.discard.last().unwrap());
        match way {
            "click" => {
                press(&mut app, w, at);
                assert_eq!(app.world().resource::<Selection>().0, [first]);
                press(&mut app, w, pile);
            }
            "drag" => drag(&mut app, w, at, pile),
            "double-click" => {
                press(&mut app, w, at);
                press(&mut app, w, at);
            }
            _ => {
                key(&mut app, w, KeyCode::Home);
                key(&mut app, w, KeyCode::KeyX);
            }
        }
        settle(&mut app);
        let piles = app.world().resource::<P10Piles>().clone();
        assert_eq!(game(&app).discard_pile().len(), 2, "{way}: on the up-card");
        assert_eq!(
            piles.discard.last(),
            Some(&first),
            "{way}: the card acted with"
        );
        assert!(
            piles.hands[PLAYER].contains(&second),
            "{way}: its twin stays"
        );
        assert!(
            app.world().resource::<Selection>().0.is_empty(),
            "{way}: nothing stays chosen"
        );
        assert_matches_engine(&mut app);
    }
}

/// The card a key acted with, when the key did nothing (H before laying), is not taken for a
/// later act's: of two like cards, the one chosen for the lay is the one laid.
#[test]
fn a_key_that_did_nothing_leaves_no_card_for_the_next_act() {
    let (mut app, w) = dealt(
        "pro-spider-10",
        &[
            "r7 r7 b7 g7 r4 b4 g4 y12 y3 r6",
            "g1 g2 y5 y9 r9 r11 b12 b3 g6 y8",
        ],
        "r10",
    );
    let (piles, _) = draw_from_the_stock(&mut app, w);
    let hand = piles.hands[PLAYER].clone();
    let red7 = parse_cards("r7").unwrap()[0];
    let twins: Vec<usize> = (0..hand.len())
        .filter(|&i| piles.cards[&hand[i]] == red7)
        .collect();
    let [a, b] = twins[..] else {
        panic!("two red 7s: {twins:?}")
    };
    // H on the first red 7: nothing to hit before laying.
    key(&mut app, w, KeyCode::Home);
    for _ in 0..a {
        key(&mut app, w, KeyCode::ArrowRight);
    }
    key(&mut app, w, KeyCode::KeyH);
    // The other red 7 chosen with the phase's cards, laid by L.
    let lay: Vec<Entity> = hand
        .iter()
        .enumerate()
        .filter(|&(i, e)| {
            i == b
                || (i != a && piles.cards[e].value() == Some(7))
                || piles.cards[e].value() == Some(4)
        })
        .map(|(_, &e)| e)
        .collect();
    assert_eq!(lay.len(), 6);
    for &e in &lay {
        let at = pose_of(&app, e);
        press(&mut app, w, at);
    }
    key(&mut app, w, KeyCode::KeyL);
    settle(&mut app);
    assert!(game(&app).laid_phase()[PLAYER].is_some(), "laid");
    let piles = app.world().resource::<P10Piles>().clone();
    assert!(
        piles.hands[PLAYER].contains(&hand[a]),
        "the red 7 not chosen stays"
    );
    assert!(
        !piles.hands[PLAYER].contains(&hand[b]),
        "the chosen one is laid"
    );
    assert!(app.world().resource::<Selection>().0.is_empty());
    assert_matches_engine(&mut app);
}

/// The pointer resting on the bar (after a click on one of its buttons) takes the pointer
/// from the table, not the keys: D still draws. A window open takes both.
#[test]
fn with_the_pointer_on_the_bar_the_keys_still_play_and_a_window_takes_them() {
    use arachne::core::focus::{TableInput, TableKeys};
    let (mut app, w, _) = two_seats_and_an_up_card();
    app.insert_resource(TableInput(false));
    app.insert_resource(TableKeys(false));
    key(&mut app, w, KeyCode::KeyD);
    settle(&mut app);
    assert_eq!(game(&app).stage(), Stage::Draw, "a window has the keys");
    app.insert_resource(TableKeys(true));
    key(&mut app, w, KeyCode::KeyD);
    settle(&mut app);
    assert_eq!(
        game(&app).stage(),
        Stage::Play,
        "D drew with the pointer on the bar"
    );
    assert_eq!(game(&app).hand(PLAYER).len(), 11);
    assert_matches_engine(&mut app);
}

/// A skip that several seats could take waits for its seat: a number of a seat that cannot
/// take it (the player's own) says so and the skip still waits; a seat's number then plays it.
#[test]
fn a_skip_waiting_for_its_seat_waits_on_after_a_wrong_number() {
    use arachne::phase10::input::SkipTarget;
    let (mut app, w) = dealt(
        "pro-spider-10",
        &[
            "r1 r2 b5 b7 g9 g11 y12 y3 r6 S",
            "g1 g2 y5 y7 r9 r11 b12 b3 g6 y8",
            "g3 g4 y6 y9 r3 r4 b10 b11 g7 y1",
        ],
        "r10",
    );
    draw_from_the_stock(&mut app, w);
    let piles = app.world().resource::<P10Piles>().clone();
    let at = piles.hands[PLAYER]
        .iter()
        .position(|e| piles.cards[e].is_skip())
        .unwrap();
    key(&mut app, w, KeyCode::Home);
    for _ in 0..at {
        key(&mut app, w, KeyCode::ArrowRight);
    }
    key(&mut app, w, KeyCode::KeyX);
    assert!(app.world().resource::<SkipTarget>().0, "the skip asks whom");
    key(&mut app, w, KeyCode::Digit1);
    assert!(app.world().resource::<SkipTarget>().0, "it still waits");
    assert!(
        app.world()
            .resource::<arachne::core::focus::Notices>()
            .0
            .iter()
            .any(|(n, _)| n.contains("cannot be skipped")),
        "{:?}",
        app.world().resource::<arachne::core::focus::Notices>().0
    );
    assert!(game(&app).hand(PLAYER).iter().any(|c| c.is_skip()));
    key(&mut app, w, KeyCode::Digit3);
    assert!(!app.world().resource::<SkipTarget>().0);
    assert!(
        app.world()
            .resource::<P10Table>()
            .log
            .text()
            .contains("skip 3"),
        "{}",
        app.world().resource::<P10Table>().log.text()
    );
}

/// Chosen cards holding the phase and more are refused with how to lay it (its cards alone,
/// then hits), not with "those cards do not make phase 1".
#[test]
fn more_cards_chosen_than_the_phase_takes_are_told_how_to_lay_it() {
    use arachne::phase10::input::lay_for;
    let (mut app, w) = dealt(
        "pro-spider-10",
        &[
            "r7 b7 g7 y7 r4 b4 g4 y12 y3 r6",
            "g1 g2 y5 y7 r9 r11 b12 b3 g6 y8",
        ],
        "r10",
    );
    draw_from_the_stock(&mut app, w);
    let table = app.world().resource::<P10Table>();
    let seven = parse_cards("r7 b7 g7 y7 r4 b4 g4").unwrap();
    let why = lay_for(table, &seven).unwrap_err();
    assert!(why.contains("choose only its 6 cards"), "{why}");
    assert!(lay_for(table, &seven[1..]).is_ok());
    let why = lay_for(table, &parse_cards("r7 b7 g7 y12 y3 r6").unwrap()).unwrap_err();
    assert!(why.contains("do not make phase"), "{why}");
}

/// Six 7s chosen for two sets of 3 are split either way alike: the player is not asked which
/// of ten ways that all read "set of 7s + set of 7s" (before, the question listed them all).
#[test]
fn ways_that_read_alike_are_one_way() {
    use arachne::phase10::input::lays_for;
    let app = drawn_holding("pro-spider-10", "r7 r7 b7 g7 g7 y7 r4 b9 g11 y12", "r10");
    let table = app.world().resource::<P10Table>();
    let sevens = parse_cards("r7 r7 b7 g7 g7 y7").unwrap();
    let lays = table
        .game
        .choices()
        .into_iter()
        .filter(|a| matches!(a, Action::Lay { .. }))
        .count();
    assert!(lays > 1, "the engine lists the splits: {lays}");
    let ways = lays_for(table, &sevens).unwrap();
    assert_eq!(ways.len(), 1, "{ways:?}");
}

/// Three jokers laid as a set may stand for any value (the spec: their declaration says what
/// they are): the question offers every one, and the set of 5s laid takes 5s after (before, the
/// only way offered was a set of 12s).
#[test]
fn a_group_of_jokers_alone_may_be_laid_as_any_value() {
    use arachne::phase10::input::lays_for;
    let mut app = drawn_holding("pro-spider-10", "W W W r7 b7 g7 r5 b9 g11 y12", "r10");
    let table = app.world().resource::<P10Table>();
    let ways = lays_for(table, &parse_cards("W W W r7 b7 g7").unwrap()).unwrap();
    let sets: Vec<Declaration> = ways
        .iter()
        .filter_map(|a| match a {
            Action::Lay { groups, .. } if groups.iter().any(|g| g.cards()[0] == Card::WILD) => {
                groups
                    .iter()
                    .find(|g| g.cards().iter().all(|c| *c == Card::WILD))
                    .map(|g| g.declaration())
            }
            _ => None,
        })
        .collect();
    for v in 1..=12 {
        assert!(sets.contains(&Declaration::Set(v)), "set of {v}s: {sets:?}");
    }
    let fives = ways
        .into_iter()
        .find(|a| {
            matches!(a, Action::Lay { groups, .. }
                if groups.iter().any(|g| g.declaration() == Declaration::Set(5)))
        })
        .unwrap();
    app.world_mut().write_message(P10Request::Act(fives));
    settle(&mut app);
    let laid = &game(&app).laid()[PLAYER];
    assert!(
        laid.iter().any(|g| g.declaration() == Declaration::Set(5)),
        "{laid:?}"
    );
    assert!(
        game(&app).choices().iter().any(|a| matches!(a,
            Action::Hit { card, .. } if card.card == parse_cards("r5").unwrap()[0])),
        "the 5 hits the jokers' set"
    );
    assert_matches_engine(&mut app);
}

/// Phases in any order: F chooses the cards of the lowest phase the hand can lay, F again those
/// of the next one, and round again, past phases that lay the same cards (which the lay then
/// asks, naming the phases); more cards chosen than a phase takes are told the phase among them
/// and its size (before: every open phase's numbers and the first phase's size).
#[test]
fn in_any_order_find_goes_through_the_phases_the_hand_can_lay() {
    use arachne::phase10::input::{find_play, lay_for, lays_for};
    // Phase 2 (a set of 3 and a run of 4: 9s and 1-4), phase 4 (a run of 7: 1-7) and phase 8
    // (a colour group of 7: the same seven red cards).
    let app = drawn_holding(
        "pro-spider-10-any-order",
        "r1 r2 r3 r4 r5 r6 r7 b9 g9 y9",
        "r12",
    );
    let table = app.world().resource::<P10Table>();
    let piles = app.world().resource::<P10Piles>();
    let phase_of = |chosen: &[Entity]| {
        let cards: Vec<Card> = chosen.iter().map(|e| piles.cards[e]).collect();
        match lay_for(table, &cards) {
            Ok(Action::Lay { phase, .. }) => phase,
            other => panic!("{other:?}"),
        }
    };
    let first = find_play(table, piles, &[]).unwrap();
    assert_eq!(phase_of(&first), 2);
    let second = find_play(table, piles, &first).unwrap();
    assert_eq!(phase_of(&second), 4);
    let third = find_play(table, piles, &second).unwrap();
    assert_eq!(
        phase_of(&third),
        2,
        "round again, past phase 8 of the same cards"
    );
    let reds = parse_cards("r1 r2 r3 r4 r5 r6 r7").unwrap();
    let phases: Vec<u8> = lays_for(table, &reds)
        .unwrap()
        .iter()
        .filter_map(|a| match a {
            Action::Lay { phase, .. } => Some(*phase),
            _ => None,
        })
        .collect();
    assert_eq!(phases, vec![4, 8], "the lay asks which");
    let eight = parse_cards("r1 r2 r3 r4 r5 r6 r7 b9").unwrap();
    let why = lay_for(table, &eight).unwrap_err();
    assert!(
        why.contains("phase 4 is among") && why.contains("only its 7 cards"),
        "{why}"
    );
}

/// A quick double-click on a slow frame: the first click's release and the second press come
/// in one frame. Both clicks count: the card is discarded (before, the frame read as a second
/// finger, and the card was neither chosen nor discarded).
#[test]
fn a_double_click_whose_release_and_press_share_a_frame_discards() {
    let (mut app, w, _) = two_seats_and_an_up_card();
    let (piles, card) = draw_from_the_stock(&mut app, w);
    let what = piles.cards[&card];
    let at = pose_of(&app, card);
    {
        let mut window = app.world_mut().get_mut::<Window>(w).unwrap();
        window.set_cursor_position(Some(Vec2::new(at.x + 640.0, 360.0 - at.y)));
    }
    app.update();
    let button = |app: &mut App, states: &[ButtonState]| {
        for &state in states {
            app.world_mut().write_message(MouseButtonInput {
                button: MouseButton::Left,
                state,
                window: w,
            });
        }
        app.update();
    };
    button(&mut app, &[ButtonState::Pressed]);
    button(&mut app, &[ButtonState::Released, ButtonState::Pressed]);
    button(&mut app, &[ButtonState::Released]);
    settle(&mut app);
    assert_eq!(game(&app).hand(PLAYER).len(), 10, "discarded");
    assert_eq!(game(&app).discard_pile().last(), Some(&what));
    assert_matches_engine(&mut app);
}

/// Two seats in `variant`, the player holding `hand` (the other seat the same cards in every
/// test that uses this), `up` the up-card, and the player's turn after a draw from the stock.
fn drawn_holding(variant_id: &str, hand: &str, up: &str) -> App {
    let (mut app, w) = dealt(variant_id, &[hand, "g1 g2 y5 y8 r9 r11 b12 b3 g6 y8"], up);
    draw_from_the_stock(&mut app, w);
    app
}

/// A table dealt by hand: `hands` (seat by seat) and the up-card, in `variant`.
fn dealt(variant_id: &str, hands: &[&str], up: &str) -> (App, Entity) {
    let v = variant::by_id(variant_id).unwrap().clone();
    let players = hands.len();
    let spec = P10Spec::new(v.clone(), players, 3, vec!["petra".into(); players - 1]).unwrap();
    let (mut app, w) = app_for(spec.clone(), GameKind::ProSpider10);
    settle(&mut app);
    let mut game = Game::before_first_round(v, players, 3).unwrap();
    let hands = hands.iter().map(|h| parse_cards(h).unwrap()).collect();
    let events = game
        .start_round_with(hands, parse_cards(up).unwrap()[0])
        .unwrap();
    // The stock's first card changes nothing the test asks about.
    game.force_stock_top(parse_cards("y10").unwrap()[0])
        .unwrap();
    let mut table = P10Table::new(spec).unwrap().0;
    table.game = game;
    app.insert_resource(table);
    app.world_mut().write_message(P10Changed {
        new_game: true,
        events,
        rearranged: false,
    });
    until_players_turn(&mut app);
    assert_matches_engine(&mut app);
    (app, w)
}

#[test]
fn a_lay_whose_jokers_could_mean_several_things_asks_which_one() {
    // Even phases: the first is a set of 3 and a run of 4. r3 r4 W W is a run 1-4, 2-5 or 3-6.
    let (mut app, w) = dealt(
        "pro-spider-10-even",
        &[
            "r9 b9 g9 r3 r4 W W y12 b12 y7",
            "r1 r2 b5 b6 g7 g8 y10 y11 r12 b1",
        ],
        "g5",
    );
    key(&mut app, w, KeyCode::KeyD);
    settle(&mut app);
    key(&mut app, w, KeyCode::KeyF);
    assert_eq!(app.world().resource::<Selection>().0.len(), 7);
    key(&mut app, w, KeyCode::KeyL);
    let ways: Vec<String> = app
        .world()
        .resource::<LayChoice>()
        .0
        .iter()
        .map(describe_lay)
        .collect();
    assert_eq!(
        ways,
        [
            "set of 9s + run 1-4",
            "set of 9s + run 2-5",
            "set of 9s + run 3-6"
        ]
    );
    assert!(
        game(&app).laid_phase()[PLAYER].is_none(),
        "nothing laid yet"
    );
    // The window turned while the question is open: the table is laid out again, the question
    // stands (the game did not change).
    resize(&mut app, w, 800.0, 600.0);
    settle(&mut app);
    assert_eq!(app.world().resource::<LayChoice>().0.len(), 3);
    resize(&mut app, w, 1280.0, 720.0);
    settle(&mut app);
    // Esc asks no more and lays nothing; the choice of cards stays.
    key(&mut app, w, KeyCode::Escape);
    assert!(app.world().resource::<LayChoice>().0.is_empty());
    settle(&mut app);
    assert!(game(&app).laid_phase()[PLAYER].is_none());
    assert_eq!(app.world().resource::<Selection>().0.len(), 7);
    // Asked again, the player picks the second way.
    key(&mut app, w, KeyCode::KeyL);
    key(&mut app, w, KeyCode::Digit2);
    settle(&mut app);
    assert_eq!(game(&app).laid_phase()[PLAYER], Some(2));
    let laid: Vec<Declaration> = game(&app).laid()[PLAYER]
        .iter()
        .map(|g| g.declaration())
        .collect();
    assert_eq!(laid, [Declaration::Set(9), Declaration::Run(2, 5)]);
    assert!(app.world().resource::<LayChoice>().0.is_empty());
    assert_matches_engine(&mut app);
}

/// The knock sounds played.
#[derive(Resource, Default)]
struct Raps(usize);

fn count_raps(mut heard: MessageReader<PlaySfx>, mut raps: ResMut<Raps>) {
    raps.0 += heard.read().filter(|s| s.sfx == Sfx::Knock).count();
}

/// A three-seat knocking game against two random seats, its knock sounds counted, at the
/// player's first turn.
/// The next round when the round is over (Enter), else one of the player's turns.
fn round_on(app: &mut App, w: Entity) {
    if matches!(game(app).stage(), Stage::RoundOver | Stage::Over) {
        key(app, w, KeyCode::Enter);
    } else {
        play_a_turn(app, w);
    }
}

/// [`round_on`], then on to the player's next decision.
fn next_turn(app: &mut App, w: Entity) {
    round_on(app, w);
    until_players_turn(app);
}

fn knocking_game() -> (App, Entity) {
    let v = variant::by_id("pro-spider-10-knocking").unwrap().clone();
    let spec = P10Spec::new(v, 3, 21, vec!["random".into(); 2]).unwrap();
    let (mut app, w) = app_for(spec, GameKind::ProSpider10);
    app.init_resource::<Raps>().add_systems(Update, count_raps);
    until_players_turn(&mut app);
    (app, w)
}

#[test]
fn an_offer_to_knock_raps_also_when_the_player_hurried_the_computer_seats() {
    let (mut app, w) = knocking_game();
    for _ in 0..60 {
        if matches!(game(&app).stage(), Stage::Knock { .. }) {
            settle(&mut app);
            assert_eq!(app.world().resource::<Raps>().0, 1, "two raps, hurried");
            return;
        }
        round_on(&mut app, w);
        // The player hurries the computer seats: their turns play at once, without motion.
        app.insert_resource(Hurry(true));
        until_players_turn(&mut app);
    }
    panic!("the player was never offered a discard");
}

#[test]
fn in_the_knocking_variant_the_player_claims_a_discard_out_of_turn() {
    let (mut app, w) = knocking_game();
    for _ in 0..60 {
        if let Stage::Knock {
            card, discarder, ..
        } = game(&app).stage()
        {
            assert_ne!(discarder, PLAYER);
            // The offer was heard, once; laid out again (a window resized), it stays quiet.
            assert_eq!(
                app.world().resource::<Raps>().0,
                1,
                "two raps for the offer"
            );
            app.world_mut().write_message(P10Request::Relayout);
            settle(&mut app);
            assert_eq!(app.world().resource::<Raps>().0, 1, "no raps again");
            let before = game(&app).hand(PLAYER).len();
            key(&mut app, w, KeyCode::KeyK);
            settle(&mut app);
            // The card is the player's, and the player's turn goes on from the knock.
            assert_eq!(game(&app).hand(PLAYER).len(), before + 1);
            assert!(game(&app).hand(PLAYER).contains(&card));
            assert_eq!(game(&app).stage(), Stage::Play);
            assert_eq!(game(&app).to_move(), Some(PLAYER));
            assert_matches_engine(&mut app);
            // The turn ends as any other, with a discard (double-click).
            let piles = app.world().resource::<P10Piles>().clone();
            let e = *piles.hands[PLAYER]
                .iter()
                .find(|e| !piles.cards[e].is_skip())
                .unwrap();
            let at = pose_of(&app, e);
            press(&mut app, w, at);
            press(&mut app, w, at);
            settle(&mut app);
            assert_eq!(game(&app).hand(PLAYER).len(), before);
            assert_ne!(game(&app).to_move(), Some(PLAYER));
            assert_matches_engine(&mut app);
            return;
        }
        next_turn(&mut app, w);
    }
    panic!("the player was never offered a discard");
}

fn saved(app: &App) -> String {
    let saves = app.world().resource::<Saves>().clone();
    saves.0.read(GAME_KEY).unwrap().expect("a saved game")
}

#[test]
fn the_game_is_saved_after_every_change_and_resumes_exactly_mid_turn_and_mid_round() {
    let storage = std::sync::Arc::new(MemoryStorage::default());
    let (mut app, w) = app(3, 17, "petra", GameKind::ProSpider10);
    app.insert_resource(Saves(storage.clone()));
    until_players_turn(&mut app);
    let mut checked_mid_turn = false;
    for _ in 0..6 {
        // Mid-turn: the card is drawn, nothing laid or discarded yet.
        key(&mut app, w, KeyCode::KeyD);
        settle(&mut app);
        if !checked_mid_turn && game(&app).stage() == Stage::Play {
            let resumed = table_from_text(&saved(&app)).unwrap();
            assert_eq!(resumed.game.stage(), Stage::Play);
            for seat in 0..3 {
                assert_eq!(resumed.game.view(seat), game(&app).view(seat));
            }
            checked_mid_turn = true;
        }
        // Finish the turn by hand (the draw above is the turn's draw).
        let piles = app.world().resource::<P10Piles>().clone();
        if game(&app).to_move() == Some(PLAYER) && game(&app).stage() == Stage::Play {
            let e = piles.hands[PLAYER][0];
            let at = pose_of(&app, e);
            press(&mut app, w, at);
            press(&mut app, w, at);
        }
        until_players_turn(&mut app);
        if game(&app).stage() != Stage::Draw {
            break;
        }
    }
    assert!(checked_mid_turn);
    // Mid-round, between turns: every seat's view, the skips, the sheet, whose turn.
    let table = app.world().resource::<P10Table>().clone();
    let text = saved(&app);
    assert!(text.starts_with("# Arachne"), "{text}");
    assert!(text.contains("game: pro-spider-10\nplayers: 3\nseed: 17\n"));
    let resumed = table_from_text(&text).unwrap();
    assert_eq!(resumed.game.to_move(), table.game.to_move());
    assert_eq!(resumed.game.skips(), table.game.skips());
    assert_eq!(resumed.game.stock(), table.game.stock());
    for seat in 0..3 {
        assert_eq!(resumed.game.view(seat), table.game.view(seat));
    }
    assert_eq!(resumed.sheet, table.sheet);
    assert_eq!(resumed.spec.levels, table.spec.levels);
    assert_eq!(resumed.player_decisions, table.player_decisions);
    // A damaged save is set aside, with a message, and nothing is resumed from it.
    storage
        .write(
            GAME_KEY,
            "game: pro-spider-10\nplayers: 3\nseed: nonsense\n",
        )
        .unwrap();
    let (none, message) = load_game(storage.as_ref());
    assert!(none.is_none());
    let message = message.expect("the player is told");
    assert!(message.contains("could not be resumed"), "{message}");
    assert!(storage.read(GAME_KEY).unwrap().is_none(), "set aside");
    let backup = message
        .split("kept as ")
        .nth(1)
        .expect("it says where it went");
    assert!(
        storage.0.lock().unwrap().contains_key(backup),
        "kept as {backup}"
    );
}

#[test]
fn statistics_count_a_finished_game_once_and_a_left_game_as_lost() {
    let (table, last) = one_decision_from_the_end(2, 4);
    let storage = std::sync::Arc::new(MemoryStorage::default());
    let (mut app, _w) = app(2, 4, "petra", GameKind::ProSpider10);
    app.insert_resource(Saves(storage.clone()));
    let mover = table.game.to_move().unwrap();
    app.insert_resource(table);
    // Away and back: the table is put out at rest from the game.
    for kind in [GameKind::Spider, GameKind::ProSpider10] {
        app.world_mut()
            .resource_mut::<NextState<GameKind>>()
            .set(kind);
        app.update();
    }
    settle(&mut app);
    assert_matches_engine(&mut app);
    if mover == PLAYER {
        app.world_mut().write_message(P10Request::Act(last));
    }
    for _ in 0..600 {
        app.update();
        if game(&app).is_over() {
            break;
        }
    }
    let table = app.world().resource::<P10Table>().clone();
    assert!(table.game.is_over(), "the last decision ended the game");
    for _ in 0..20 {
        app.update();
    }
    let key = P10Statistics::key("pro-spider-10", 2);
    let stats = app.world().resource::<P10Statistics>().by[&key].clone();
    let won = table.game.winners().contains(&PLAYER);
    assert_eq!(
        (stats.played, stats.won, stats.finished),
        (1, u32::from(won), 1)
    );
    assert_eq!(
        stats.points,
        u64::from(table.game.standings()[PLAYER].points)
    );
    assert_eq!(stats.rounds, table.game.round());
    assert_eq!(
        stats.phases_laid,
        table.game.standings()[PLAYER].phases_laid
    );
    // The score sheet agrees with the engine.
    assert_eq!(table.sheet.rows.len() as u32, table.game.round());
    for seat in 0..2 {
        assert_eq!(table.sheet.total(seat), table.game.standings()[seat].points);
        assert_eq!(
            table.sheet.phases_laid(seat),
            table.game.standings()[seat].phases_laid
        );
    }
    // The finished game's log is kept and checks.
    let kept = arachne::phase10::saves::replay_keys(storage.as_ref()).unwrap();
    assert_eq!(kept.len(), 1);
    let log = storage.read(&kept[0]).unwrap().unwrap();
    assert!(arachne_engine::phase10::check(&log, &variant::resolve).is_ok());
    // A new game after a finished one: nothing more is counted.
    let spec = P10Spec::standard(2, 99, "petra").unwrap();
    app.world_mut()
        .write_message(P10Request::NewGame(Box::new(P10SpecMsg(spec.clone()))));
    until_players_turn(&mut app);
    assert_eq!(app.world().resource::<P10Statistics>().by[&key].played, 1);
    // One decision in it, then another new game: the one left counts as lost.
    app.world_mut()
        .write_message(P10Request::Act(Action::DrawStock));
    settle(&mut app);
    app.world_mut()
        .write_message(P10Request::NewGame(Box::new(P10SpecMsg(spec))));
    for _ in 0..5 {
        app.update();
    }
    let stats = app.world().resource::<P10Statistics>().by[&key].clone();
    assert_eq!(
        (stats.played, stats.won, stats.finished),
        (2, u32::from(won), 1)
    );
    // Saved along the way.
    let saved: P10Statistics =
        match arachne::core::persist::load(storage.as_ref(), arachne::phase10::saves::STATS_KEY) {
            arachne::core::persist::Loaded::Ok(s) => s,
            other => panic!("{other:?}"),
        };
    assert_eq!(saved.by[&key], stats);
}

fn viewer(app: &App) -> Option<P10Viewer> {
    app.world().get_resource::<P10Viewer>().cloned()
}

fn control(app: &mut App, c: ViewerControl) {
    app.world_mut().write_message(c);
    settle(app);
}

/// The log of a whole game of two Petras (deal 21), naming its levels.
fn two_petras_game() -> String {
    let variant = variant::resolve("pro-spider-10").unwrap();
    let mut seats: Vec<_> = (0..2)
        .map(|s| arachne_engine::phase10::ai::player("petra", s).unwrap())
        .collect();
    let played = arachne_engine::phase10::play_game(variant, 2, 21, &mut |seat, view, _| {
        Ok(seats[seat].decide(view))
    })
    .unwrap();
    format!("# ai: petra\n{}", played.log)
}

/// Opens `log` in the viewer, paused at its first deal.
fn watch(app: &mut App, title: &str, log: String) {
    control(
        app,
        ViewerControl::Open {
            title: title.into(),
            log,
        },
    );
    control(app, ViewerControl::Play(false));
}

/// A log that names no levels (one from `arachne-cli phase10 play` or another program) is
/// watched with its computer seats called by number; the game's own logs name them.
#[test]
fn the_viewer_names_seats_only_by_the_levels_a_log_gives() {
    let (mut app, w) = app(3, 8, "petra", GameKind::ProSpider10);
    until_players_turn(&mut app);
    play_a_turn(&mut app, w);
    until_players_turn(&mut app);
    let own = app.world().resource::<P10Table>().clone();
    let named = save_text(&own);
    let unnamed: String = named
        .lines()
        .filter(|l| !l.trim_start().starts_with("# ai:"))
        .map(|l| format!("{l}\n"))
        .collect();
    assert_ne!(named, unnamed, "the game's log names its levels");
    // A level this game does not have (a retired one) is watched as no level named: it was
    // refused before.
    let retired = named.replace("petra", "clara");
    assert_ne!(retired, named);
    // A kept game (the log a game leaves when it ends) names them too.
    let kept = arachne::phase10::round::P10Ended::of(&own, true).log;
    for (log, first, second, third) in [
        (named, "You", "Petra (2)", "Petra (3)"),
        (kept, "You", "Petra (2)", "Petra (3)"),
        (unnamed, "Seat 1", "Seat 2", "Seat 3"),
        (retired, "Seat 1", "Seat 2", "Seat 3"),
    ] {
        control(
            &mut app,
            ViewerControl::Open {
                title: "A log".into(),
                log,
            },
        );
        assert!(viewer(&app).is_some(), "watching");
        let table = app.world().resource::<P10Table>();
        assert_eq!(
            (table.name(0), table.name(1), table.name(2)),
            (first.into(), second.into(), third.into())
        );
        control(&mut app, ViewerControl::Close);
    }
}

#[test]
fn the_viewer_replays_a_game_step_by_step_and_gives_the_players_game_back() {
    let (mut app, w) = app(3, 8, "petra", GameKind::ProSpider10);
    until_players_turn(&mut app);
    for _ in 0..3 {
        play_a_turn(&mut app, w);
        until_players_turn(&mut app);
    }
    let own = app.world().resource::<P10Table>().clone();
    watch(&mut app, "This game", save_text(&own));
    let v = viewer(&app).expect("watching");
    assert!(v.steps.len() >= 9, "{} steps", v.steps.len());
    // Step by step, the table is the game after that many steps, and matches it at rest.
    for at in 1..=4 {
        control(&mut app, ViewerControl::Forward);
        assert_eq!(viewer(&app).unwrap().at, at);
        assert_matches_engine(&mut app);
    }
    // Back, a jump, the end: the same games as stepping there.
    control(&mut app, ViewerControl::Back);
    assert_eq!(viewer(&app).unwrap().at, 3);
    assert_matches_engine(&mut app);
    let end = v.steps.len();
    control(&mut app, ViewerControl::Jump(end));
    assert_matches_engine(&mut app);
    for seat in 0..3 {
        assert_eq!(
            game(&app).view(seat),
            own.game.view(seat),
            "the end is where the game is"
        );
    }
    // Every hand face up, or only the player's.
    control(&mut app, ViewerControl::AllHands(true));
    assert!(app.world().resource::<P10Piles>().show_all);
    assert_matches_engine(&mut app);
    let world = app.world_mut();
    let hidden = world
        .query::<&P10Card>()
        .iter(world)
        .filter(|c| matches!(c.place, Place::Hand(..)) && !c.face_up)
        .count();
    assert_eq!(hidden, 0, "every hand shows");
    control(&mut app, ViewerControl::AllHands(false));
    assert_matches_engine(&mut app);
    // Nobody plays on by themselves while the viewer pauses: the computer seats wait.
    control(&mut app, ViewerControl::Jump(2));
    let before = game(&app).clone();
    for _ in 0..300 {
        app.update();
    }
    assert_eq!(game(&app).view(0), before.view(0));
    // Playing on reaches the end.
    control(&mut app, ViewerControl::Speed(16.0));
    control(&mut app, ViewerControl::Play(true));
    for _ in 0..20_000 {
        app.update();
        if viewer(&app).unwrap().at == end {
            break;
        }
    }
    assert_eq!(viewer(&app).unwrap().at, end);
    // Closing gives the player's game back, as it was.
    key(&mut app, w, KeyCode::Escape);
    settle(&mut app);
    assert!(viewer(&app).is_none());
    let back = app.world().resource::<P10Table>().clone();
    for seat in 0..3 {
        assert_eq!(back.game.view(seat), own.game.view(seat));
    }
    assert_eq!(back.sheet, own.sheet);
    assert_matches_engine(&mut app);
    // Opened and sent to a step in one frame (as `--replay FILE.p10 --at N` does): one deck.
    app.world_mut().write_message(ViewerControl::Open {
        title: "again".into(),
        log: save_text(&own),
    });
    app.world_mut().write_message(ViewerControl::Play(false));
    app.world_mut().write_message(ViewerControl::Jump(5));
    settle(&mut app);
    assert_eq!(viewer(&app).unwrap().at, 5);
    assert_matches_engine(&mut app);
    control(&mut app, ViewerControl::Close);
    assert_matches_engine(&mut app);
    // And the game goes on.
    play_a_turn(&mut app, w);
}

#[test]
fn a_new_game_with_fewer_seats_while_cards_of_the_old_one_still_move_lays_out_the_new_table() {
    // Six seats dealing, and mid-deal a two-seat game: the cards in motion belonged to seats
    // the new table has not got (this once indexed past the new layout's seats and panicked).
    let (mut app, _) = app(6, 7, "petra", GameKind::ProSpider10);
    settle(&mut app);
    let six = P10Spec::standard(6, 9, "petra").unwrap();
    app.world_mut()
        .write_message(P10Request::NewGame(Box::new(P10SpecMsg(six))));
    for _ in 0..20 {
        app.update();
    }
    assert!(moving(&mut app) > 0, "the deal is under way");
    let spec = P10Spec::standard(2, 8, "petra").unwrap();
    app.world_mut()
        .write_message(P10Request::NewGame(Box::new(P10SpecMsg(spec))));
    until_players_turn(&mut app);
    assert_eq!(game(&app).players(), 2);
    assert_matches_engine(&mut app);
    // A change of the old table in the same frame as a new game with fewer seats (a table laid
    // out again, a decision): the new table is laid out, the old change not played on it (this
    // once planned the old six hands on the new layout's two seats and panicked).
    let six = P10Spec::standard(6, 10, "petra").unwrap();
    app.world_mut()
        .write_message(P10Request::NewGame(Box::new(P10SpecMsg(six))));
    settle(&mut app);
    let three = P10Spec::standard(3, 11, "petra").unwrap();
    app.world_mut().write_message(P10Request::Relayout);
    app.world_mut()
        .write_message(P10Request::NewGame(Box::new(P10SpecMsg(three))));
    until_players_turn(&mut app);
    assert_eq!(game(&app).players(), 3);
    assert_matches_engine(&mut app);
}

#[test]
fn a_replay_moves_its_cards_after_a_hurry_and_faster_at_a_higher_speed() {
    let (mut app, w) = app(3, 8, "petra", GameKind::ProSpider10);
    until_players_turn(&mut app);
    play_a_turn(&mut app, w);
    until_players_turn(&mut app);
    let own = app.world().resource::<P10Table>().clone();
    watch(&mut app, "This game", save_text(&own));
    // A hurry left over from the player's game (the computer seats were hurried, and the
    // replay opened before their turns were over; only their turns clear it, and they wait
    // while a replay shows): it once made the replay instant and silent.
    app.world_mut()
        .insert_resource(arachne::phase10::seats::Hurry(true));
    // Frames a step takes from step 2, at a speed.
    let frames_of_a_step = |app: &mut App, speed: f32| {
        control(app, ViewerControl::Speed(speed));
        control(app, ViewerControl::Jump(2));
        app.world_mut().write_message(ViewerControl::Forward);
        app.update();
        let mut frames = 0;
        while moving(app) > 0 {
            app.update();
            frames += 1;
            assert!(frames < 1000, "never at rest");
        }
        frames
    };
    let usual = frames_of_a_step(&mut app, 2.0);
    assert!(usual > 5, "the cards move ({usual} frames)");
    let fast = frames_of_a_step(&mut app, 16.0);
    assert!(
        fast * 3 < usual,
        "at 16 steps a second: {fast} frames, at 2: {usual}"
    );
    let slow = frames_of_a_step(&mut app, 0.5);
    assert_eq!(
        slow, usual,
        "slower steps wait longer between them, the cards move as usual"
    );
}

#[test]
fn at_a_new_round_the_last_rounds_cards_are_gathered_onto_the_stock_before_the_deal() {
    // A whole game of two Petras, watched: the step that deals round 2.
    let (mut app, _) = app(2, 21, "petra", GameKind::ProSpider10);
    settle(&mut app);
    watch(&mut app, "Two Petras", two_petras_game());
    let dealt = viewer(&app).unwrap().round_start(2);
    control(&mut app, ViewerControl::Jump(dealt - 1));
    assert_matches_engine(&mut app);
    // The table of round 1's end: laid groups, hands, piles. Where the stock lies.
    let stock = app.world().resource::<P10Layout>().stock;
    app.world_mut().write_message(ViewerControl::Forward);
    app.update();
    app.update();
    let leaving = |app: &mut App| {
        let world = app.world_mut();
        world
            .query_filtered::<(&CardPose, Has<TweenAnim>), With<arachne::phase10::view::Leaving>>()
            .iter(world)
            .map(|(p, moving)| (p.translation.truncate(), moving))
            .collect::<Vec<_>>()
    };
    let first = leaving(&mut app);
    assert!(first.len() > 20, "round 1's cards go back: {}", first.len());
    assert!(
        first.iter().all(|&(_, moving)| moving),
        "each of them moves"
    );
    // The table laid out again meanwhile (the hand sorted, the window resized): the gather
    // goes on, and the deal still waits for it.
    app.world_mut().write_message(P10Changed::laid_out_again());
    app.update();
    app.update();
    assert!(
        leaving(&mut app).iter().all(|&(_, moving)| moving),
        "each of them still moves"
    );
    // Nothing is dealt until they are in: no card is in a hand yet.
    let dealt_yet = |app: &mut App| {
        let world = app.world_mut();
        world
            .query_filtered::<&CardPose, (With<P10Card>, Without<arachne::phase10::view::Leaving>)>(
            )
            .iter(world)
            .filter(|p| p.translation.truncate().distance(stock) > 20.0)
            .count()
    };
    assert_eq!(dealt_yet(&mut app), 0, "the new deck waits on the stock");
    for _ in 0..15 {
        app.update();
    }
    let later = leaving(&mut app);
    let near = |v: &[(Vec2, bool)]| v.iter().map(|(p, _)| p.distance(stock)).sum::<f32>();
    assert!(near(&later) < near(&first), "they come closer to the stock");
    // At rest: every one of them gone, the new round dealt, one entity per card.
    settle(&mut app);
    assert!(leaving(&mut app).is_empty());
    assert_eq!(game(&app).round(), 2);
    assert_matches_engine(&mut app);
}

#[test]
fn the_players_win_throws_the_laid_cards_up_and_they_land_where_they_lie() {
    // Two Petras; the first game of seeds from 30 that seat 1 (the player's) wins, watched.
    let variant = variant::resolve("pro-spider-10-first-five").unwrap();
    let played = (30..)
        .map(|seed| {
            let mut seats: Vec<_> = (0..2)
                .map(|s| arachne_engine::phase10::ai::player("petra", s).unwrap())
                .collect();
            arachne_engine::phase10::play_game(variant.clone(), 2, seed, &mut |seat, view, _| {
                Ok(seats[seat].decide(view))
            })
            .unwrap()
        })
        .find(|p| p.game.winners() == [PLAYER])
        .unwrap();
    let (mut app, _) = app(2, 21, "petra", GameKind::ProSpider10);
    settle(&mut app);
    watch(&mut app, "A win", format!("# ai: petra\n{}", played.log));
    let end = viewer(&app).unwrap().steps.len();
    control(&mut app, ViewerControl::Jump(end - 1));
    let laid: Vec<Entity> = app
        .world()
        .resource::<P10Piles>()
        .groups
        .iter()
        .flatten()
        .flatten()
        .copied()
        .collect();
    assert!(laid.len() >= 6, "{} cards laid", laid.len());
    app.world_mut().write_message(ViewerControl::Forward);
    app.update();
    app.update();
    assert!(game(&app).is_over());
    // Every card laid before the last step leaps (it lay still there before).
    let leaping = laid
        .iter()
        .filter(|&&e| app.world().get::<TweenAnim>(e).is_some())
        .count();
    assert_eq!(leaping, laid.len());
    settle(&mut app);
    assert_matches_engine(&mut app);
}

#[test]
fn o_sorts_the_hand_the_other_way() {
    let (mut app, w) = app(2, 5, "petra", GameKind::ProSpider10);
    until_players_turn(&mut app);
    let by_colour = |app: &App| {
        app.world()
            .resource::<arachne::core::settings::Settings>()
            .phase10
            .sort_by_colour
    };
    let hand = |app: &App| app.world().resource::<P10Piles>().hands[PLAYER].clone();
    let before = (by_colour(&app), hand(&app));
    key(&mut app, w, KeyCode::KeyO);
    settle(&mut app);
    assert_eq!(by_colour(&app), !before.0);
    let mut sorted = hand(&app);
    assert_ne!(sorted, before.1, "another order");
    sorted.sort();
    let mut was = before.1.clone();
    was.sort();
    assert_eq!(sorted, was, "the same cards");
    assert_matches_engine(&mut app);
    key(&mut app, w, KeyCode::KeyO);
    settle(&mut app);
    assert_eq!((by_colour(&app), hand(&app)), before, "and back");
}

/// The entities on the table, each with the card it shows.
fn entities(app: &mut App) -> std::collections::HashMap<Entity, Card> {
    let world = app.world_mut();
    world
        .query::<(Entity, &P10Card)>()
        .iter(world)
        .map(|(e, c)| (e, c.card))
        .collect()
}

#[test]
fn a_step_back_in_the_viewer_glides_the_cards_back_where_a_jump_puts_them_out_at_once() {
    for (players, seed) in [(4, 5), (6, 3)] {
        // Petras over a whole game, watched from its start.
        let variant = variant::resolve("pro-spider-10").unwrap();
        let mut seats: Vec<_> = (0..players)
            .map(|s| arachne_engine::phase10::ai::player("petra", s as u64).unwrap())
            .collect();
        let played =
            arachne_engine::phase10::play_game(variant, players, seed, &mut |seat, view, _| {
                Ok(seats[seat].decide(view))
            })
            .unwrap();
        let (mut app, _) = app(players, 21, "petra", GameKind::ProSpider10);
        settle(&mut app);
        let levels = vec!["petra"; players - 1].join(",");
        watch(&mut app, "Back", format!("# ai: {levels}\n{}", played.log));
        let v = viewer(&app).unwrap();
        // Steps inside the first round, and the step that deals the second one (back across
        // it the gathered cards come back out of the stock, and the hands face up again).
        let second = v.round_start(2);
        for at in [6, 20, 40, second] {
            control(&mut app, ViewerControl::Jump(at));
            assert_matches_engine(&mut app);
            let before = entities(&mut app);
            let hands_before = app.world().resource::<P10Piles>().hands.clone();
            control(&mut app, ViewerControl::Back);
            let after = entities(&mut app);
            assert_eq!(viewer(&app).unwrap().at, at - 1);
            assert_matches_engine(&mut app);
            // The cards on the table stay the same entities: a card that lay face up is still
            // the entity that showed it, wherever the step back took it.
            let kept = after.keys().filter(|e| before.contains_key(e)).count();
            assert_eq!(kept, 108, "step {at}: {kept} entities kept");
            // A computer's hand keeps the order its cards lay in.
            let hands = app.world().resource::<P10Piles>().hands.clone();
            for seat in 1..players {
                let stayed = |a: &[Entity], b: &[Entity]| -> Vec<Entity> {
                    a.iter().filter(|e| b.contains(e)).copied().collect()
                };
                assert_eq!(
                    stayed(&hands_before[seat], &hands[seat]),
                    stayed(&hands[seat], &hands_before[seat]),
                    "step {at}: the hand of seat {seat} kept its order"
                );
            }
            // They move there: in the frames after a step back, some card is under way; a step
            // back while the cards of a step forward still move ends where it should.
            control(&mut app, ViewerControl::Forward);
            app.world_mut().write_message(ViewerControl::Back);
            app.update();
            app.update();
            assert!(moving(&mut app) > 0, "step {at}: nothing moves back");
            app.world_mut().write_message(ViewerControl::Forward);
            app.update();
            app.update();
            app.world_mut().write_message(ViewerControl::Back);
            app.update();
            settle(&mut app);
            assert_eq!(viewer(&app).unwrap().at, at - 1);
            assert_matches_engine(&mut app);
            // A step back while the hands turn up (every hand shown) rests with every card
            // flat on its side.
            app.world_mut().write_message(ViewerControl::AllHands(true));
            for _ in 0..6 {
                app.update();
            }
            app.world_mut().write_message(ViewerControl::Back);
            app.update();
            settle(&mut app);
            assert_matches_engine(&mut app);
            control(&mut app, ViewerControl::AllHands(false));
            assert_matches_engine(&mut app);
        }
        // A jump is not a glide: the table is put out afresh.
        let before = entities(&mut app);
        control(&mut app, ViewerControl::Jump(30));
        let after = entities(&mut app);
        assert!(
            after.keys().all(|e| !before.contains_key(e)),
            "a jump spawns anew"
        );
        assert_matches_engine(&mut app);
        // Back at the first deal, a step back shows nothing again.
        control(&mut app, ViewerControl::Jump(0));
        let before = entities(&mut app);
        control(&mut app, ViewerControl::Back);
        assert_eq!(entities(&mut app), before);
    }
}

/// A window made smaller (a browser window, a phone turned) lays the cards out anew: at rest,
/// during a deal (which finishes first), and in the replay viewer. Before, the labels moved
/// and the cards stayed where the old window had them, the outer seats' hands off its edges.
#[test]
fn a_resized_window_lays_the_cards_out_again_also_mid_deal_and_in_the_viewer() {
    let (mut app, w) = app(6, 3, "petra", GameKind::ProSpider10);
    settle(&mut app);
    assert_matches_engine(&mut app);
    // At rest: the cards glide to their new places.
    resize(&mut app, w, 800.0, 600.0);
    app.update();
    assert!(moving(&mut app) > 0, "the cards glide to the new layout");
    settle(&mut app);
    assert_matches_engine(&mut app);
    // During a new game's deal.
    let spec = P10Spec::standard(4, 9, "petra").unwrap();
    app.world_mut()
        .write_message(P10Request::NewGame(Box::new(P10SpecMsg(spec))));
    app.update();
    resize(&mut app, w, 390.0, 844.0);
    settle(&mut app);
    assert_matches_engine(&mut app);
    // In the viewer.
    until_players_turn(&mut app);
    let log = save_text(app.world().resource::<P10Table>());
    watch(&mut app, "This game", log);
    control(&mut app, ViewerControl::Forward);
    resize(&mut app, w, 1280.0, 720.0);
    settle(&mut app);
    assert!(viewer(&app).is_some());
    assert_matches_engine(&mut app);
}

/// A card chosen while it moves (the hand making room for the card just drawn) rises once it
/// is at rest; one let go of while it moves drops back. Before, it stayed down though chosen.
#[test]
fn a_card_chosen_while_it_moves_rises_once_at_rest() {
    let (mut app, w) = app(3, 7, "petra", GameKind::ProSpider10);
    until_players_turn(&mut app);
    key(&mut app, w, KeyCode::KeyD);
    app.update();
    let hand = app.world().resource::<P10Piles>().hands[PLAYER].clone();
    let moving_cards: Vec<Entity> = hand
        .iter()
        .copied()
        .filter(|&e| app.world().get::<TweenAnim>(e).is_some())
        .collect();
    assert!(moving_cards.len() >= 2, "the hand makes room");
    // Home and Space choose the first card of the hand, Right and Space the next.
    key(&mut app, w, KeyCode::Home);
    key(&mut app, w, KeyCode::Space);
    key(&mut app, w, KeyCode::ArrowRight);
    key(&mut app, w, KeyCode::Space);
    let chosen = app.world().resource::<Selection>().0.clone();
    assert_eq!(chosen.len(), 2);
    assert!(
        chosen
            .iter()
            .any(|e| app.world().get::<TweenAnim>(*e).is_some()),
        "a card was chosen while it moved"
    );
    settle(&mut app);
    assert_matches_engine(&mut app);
    // Let go of both; then choose the first again and let go of it while it rises: it drops
    // back once at rest.
    key(&mut app, w, KeyCode::Space);
    key(&mut app, w, KeyCode::Home);
    key(&mut app, w, KeyCode::Space);
    settle(&mut app);
    assert_eq!(app.world().resource::<Selection>().0.len(), 0);
    assert_matches_engine(&mut app);
    key(&mut app, w, KeyCode::Space);
    let first = app.world().resource::<Selection>().0[0];
    assert!(app.world().get::<TweenAnim>(first).is_some(), "it rises");
    key(&mut app, w, KeyCode::Space);
    assert!(app.world().resource::<Selection>().0.is_empty());
    settle(&mut app);
    assert_matches_engine(&mut app);
}

/// A card held under the pointer that leaves the hand meanwhile (laid by a key) is let go of:
/// it goes to its group, and the button's release chooses nothing and plays nothing. Before,
/// the release chose the laid card (a card on the table among the chosen ones), and a dragged
/// one kept following the pointer, away from its group, until the button came up.
#[test]
fn a_held_card_laid_by_a_key_is_let_go_of_and_its_release_chooses_nothing() {
    for dragged in [false, true] {
        // Standard phase 1, two sets of three: the player's hand has them.
        let (mut app, w) = dealt(
            "pro-spider-10",
            &[
                "r9 b9 g9 r3 b3 y3 y12 b12 y7 g1",
                "r1 r2 b5 b6 g7 g8 y10 y11 r12 b1",
            ],
            "g5",
        );
        key(&mut app, w, KeyCode::KeyD);
        settle(&mut app);
        let piles = app.world().resource::<P10Piles>().clone();
        let nine = *piles.hands[PLAYER]
            .iter()
            .find(|e| piles.cards[e] == parse_cards("r9").unwrap()[0])
            .unwrap();
        let at = pose_of(&app, nine);
        let mut window = app.world_mut().get_mut::<Window>(w).unwrap();
        window.set_cursor_position(Some(Vec2::new(at.x + 640.0, 360.0 - at.y)));
        app.update();
        app.world_mut().write_message(MouseButtonInput {
            button: MouseButton::Left,
            state: ButtonState::Pressed,
            window: w,
        });
        app.update();
        if dragged {
            let mut window = app.world_mut().get_mut::<Window>(w).unwrap();
            window.set_cursor_position(Some(Vec2::new(at.x + 640.0 + 60.0, 360.0 - at.y - 80.0)));
            app.update();
            app.update();
        }
        // F chooses the phase's cards, L lays them, the button still down: the held card
        // goes to its group all the same.
        key(&mut app, w, KeyCode::KeyF);
        key(&mut app, w, KeyCode::KeyL);
        app.update();
        assert!(
            game(&app).laid_phase()[PLAYER].is_some(),
            "the phase is laid"
        );
        settle(&mut app);
        assert_matches_engine(&mut app);
        app.world_mut().write_message(MouseButtonInput {
            button: MouseButton::Left,
            state: ButtonState::Released,
            window: w,
        });
        app.update();
        settle(&mut app);
        assert!(
            app.world().resource::<Selection>().0.is_empty(),
            "nothing chosen (dragged: {dragged})"
        );
        assert_eq!(game(&app).stage(), Stage::Play, "nothing discarded");
        assert_matches_engine(&mut app);
    }
}

/// Plays `table`'s game on from where it is, each seat taking its first choice, until the
/// player has made `decisions` decisions more.
fn play_on(table: &mut P10Table, decisions: u32) {
    let until = table.player_decisions + decisions;
    while table.player_decisions < until {
        if table.game.stage() == Stage::RoundOver {
            table.next_round().unwrap();
            continue;
        }
        let choice = table.game.choices()[0].clone();
        table.apply(choice).unwrap();
    }
}

/// The player draws, or deals the next round when the round is over; the table settles.
fn act(app: &mut App, w: Entity) {
    if game(app).stage() == Stage::RoundOver {
        app.world_mut().write_message(P10Request::NextRound);
    } else {
        key(app, w, KeyCode::KeyD);
    }
    settle(app);
}

/// Pro Spider 10 played in two windows (or tabs) by turns loses nothing: the copy the player
/// comes back to takes up the game played in the other, and another game the other copy saved
/// that this one saves over (no focus came first) is kept among the replays.
#[test]
fn pro_spider_10_played_in_two_copies_by_turns_loses_no_decision() {
    use arachne::phase10::saves::replay_keys;
    let shared = std::sync::Arc::new(MemoryStorage::default());
    let mine = std::sync::Arc::new(OtherCopy::new(&shared, "p10 window a"));
    let other = OtherCopy::new(&shared, "p10 window b");
    let (mut app, w) = app(3, 17, "petra", GameKind::ProSpider10);
    app.insert_resource(Saves(mine.clone()));
    until_players_turn(&mut app);
    key(&mut app, w, KeyCode::KeyD);
    settle(&mut app);
    // The other copy opens on the saved game and plays on there: the rest of the player's turn.
    let (Some(mut theirs), None) = load_game(&other) else {
        panic!("the other copy resumes the game")
    };
    play_on(&mut theirs, 2);
    arachne::core::persist::write_game(&other, GAME_KEY, &save_text(&theirs)).unwrap();
    // Back in this window: the other's game is here, the player is told, and it plays on.
    let window = app.world_mut().spawn_empty().id();
    app.world_mut().write_message(bevy::window::WindowFocused {
        window,
        focused: true,
    });
    app.update();
    let table = app.world().resource::<P10Table>();
    assert_eq!(table.log.text_so_far(), theirs.log.text_so_far());
    assert_eq!(table.player_decisions, theirs.player_decisions);
    let told = |app: &App, words: &str| {
        app.world()
            .resource::<arachne::core::focus::Notices>()
            .0
            .iter()
            .filter(|(n, _)| n.contains(words))
            .count()
    };
    assert_eq!(told(&app, "played last in another tab or window"), 1);
    // Playing on from it keeps nothing: all of the other's game is in this one.
    until_players_turn(&mut app);
    assert_matches_engine(&mut app);
    play_a_turn(&mut app, w);
    until_players_turn(&mut app);
    assert!(app.world().resource::<P10Table>().player_decisions > theirs.player_decisions);
    assert!(replay_keys(mine.as_ref()).unwrap().is_empty());
    // The other copy saves its game again as it had it (this one plays on from it): nothing
    // is kept when this one saves next.
    arachne::core::persist::write_game(&other, GAME_KEY, &save_text(&theirs)).unwrap();
    act(&mut app, w);
    until_players_turn(&mut app);
    assert!(replay_keys(mine.as_ref()).unwrap().is_empty());
    // The other copy starts another game and plays in it; this one, not brought back, plays on
    // in its own: the other's game is kept among the replays, this one's saved in its place.
    let (mut another, _) = P10Table::new(P10Spec::standard(2, 99, "petra").unwrap()).unwrap();
    play_on(&mut another, 3);
    arachne::core::persist::write_game(&other, GAME_KEY, &save_text(&another)).unwrap();
    act(&mut app, w);
    let kept = replay_keys(mine.as_ref()).unwrap();
    assert_eq!(kept.len(), 1);
    assert_eq!(mine.read(&kept[0]).unwrap().unwrap(), save_text(&another));
    assert_eq!(told(&app, "another game was saved there"), 1);
    assert_eq!(saved(&app), save_text(app.world().resource::<P10Table>()));
}

/// A copy whose window lost the focus changes nothing once the player has gone to another copy
/// (that copy took the focus) or another copy has saved a game: its computer seats wait and it
/// saves nothing (laying its table out again included), until the player comes back to it and
/// it takes up the other's game.
#[test]
fn a_copy_away_from_the_player_waits_once_another_copy_has_the_player_or_saves() {
    use arachne::core::persist::{PLAYER_HERE_KEY, copy_id};
    let shared = std::sync::Arc::new(MemoryStorage::default());
    let mine = std::sync::Arc::new(OtherCopy::new(&shared, "p10 away a"));
    let other = OtherCopy::new(&shared, "p10 away b");
    let (mut app, w) = app(3, 17, "petra", GameKind::ProSpider10);
    // The computer seats decide in the frames, as the virtual clock goes (16 ms a frame): a
    // decision comes after a pause of about 0.7 s, longer than this copy's first 0.4 s away,
    // when it waits before it looks whether it should go on.
    app.insert_resource(Saves(mine.clone()))
        .insert_resource(arachne::phase10::seats::DecideInFrame);
    let focus = |app: &mut App, focused: bool| {
        app.world_mut()
            .write_message(bevy::window::WindowFocused { window: w, focused });
        app.update();
    };
    focus(&mut app, true);
    assert_eq!(
        mine.read(PLAYER_HERE_KEY).unwrap().as_deref(),
        Some(copy_id())
    );
    until_players_turn(&mut app);
    play_a_turn(&mut app, w);
    settle(&mut app);
    let waits = |app: &mut App, what: &str| {
        let position = app.world().resource::<P10Table>().position();
        let text = saved(app);
        assert!(
            !app.world().resource::<P10Table>().players_turn(),
            "{what}: the computers' turn"
        );
        for _ in 0..600 {
            app.update();
        }
        app.world_mut().write_message(P10Request::Relayout);
        app.update();
        let table = app.world().resource::<P10Table>();
        assert_eq!(table.position(), position, "{what}: nothing decided");
        assert_eq!(saved(app), text, "{what}: nothing saved");
    };
    // Away with no other copy about (another program took the focus): the game goes on.
    let plays_on = |app: &mut App, what: &str| {
        let position = app.world().resource::<P10Table>().position();
        for _ in 0..600 {
            app.update();
        }
        let now = app.world().resource::<P10Table>().position();
        assert_ne!(now, position, "{what}");
    };
    let on_turn = |app: &mut App| {
        if app.world().resource::<P10Table>().players_turn() {
            play_a_turn(app, w);
            settle(app);
        }
    };
    focus(&mut app, false);
    plays_on(&mut app, "alone, played on");
    focus(&mut app, true);
    on_turn(&mut app);
    // The computer seats' turns: the player goes to the other window, which takes the focus.
    focus(&mut app, false);
    other.write(PLAYER_HERE_KEY, "the other copy").unwrap();
    waits(&mut app, "the player at the other copy");
    // Back here, the computer seats go on; away again, the other copy saves its game.
    focus(&mut app, true);
    assert_eq!(
        mine.read(PLAYER_HERE_KEY).unwrap().as_deref(),
        Some(copy_id())
    );
    plays_on(&mut app, "played on");
    on_turn(&mut app);
    let (mut theirs, _) = P10Table::new(P10Spec::standard(2, 99, "petra").unwrap()).unwrap();
    play_on(&mut theirs, 3);
    arachne::core::persist::write_game(&other, GAME_KEY, &save_text(&theirs)).unwrap();
    focus(&mut app, false);
    waits(&mut app, "another game saved");
    assert_eq!(saved(&app), save_text(&theirs));
    assert!(
        arachne::phase10::saves::replay_keys(mine.as_ref())
            .unwrap()
            .is_empty()
    );
    // Back: the other's game is here.
    focus(&mut app, true);
    app.update();
    assert_eq!(
        app.world().resource::<P10Table>().log.text_so_far(),
        theirs.log.text_so_far()
    );
}

/// A pass on an offer to knock is saved (it changes only the saved text's comments: a resumed
/// game asks the next seat, not the player again); a table only laid out again is not saved.
#[test]
fn a_pass_is_saved_and_a_table_laid_out_again_is_not() {
    let (mut app, w) = knocking_game();
    let storage = std::sync::Arc::new(MemoryStorage::default());
    app.insert_resource(Saves(storage.clone()));
    for _ in 0..60 {
        if matches!(game(&app).stage(), Stage::Knock { .. }) && game(&app).to_move() == Some(PLAYER)
        {
            settle(&mut app);
            let before = saved(&app);
            // Laid out again: nothing to save (another copy's save stays).
            storage.write(GAME_KEY, "another copy's game").unwrap();
            app.world_mut().write_message(P10Request::Relayout);
            app.update();
            assert_eq!(saved(&app), "another copy's game");
            storage.write(GAME_KEY, &before).unwrap();
            let passes = app.world().resource::<P10Table>().passes;
            app.world_mut().write_message(P10Request::Act(Action::Pass));
            app.update();
            let table = app.world().resource::<P10Table>();
            if table.passes == passes + 1 {
                assert_eq!(saved(&app), save_text(table), "the pass is saved");
                assert_eq!(table_from_text(&saved(&app)).unwrap().passes, passes + 1);
                return;
            }
            until_players_turn(&mut app);
            continue;
        }
        next_turn(&mut app, w);
    }
    panic!("the player never passed an offer that stayed open");
}

#[test]
fn a_double_click_that_takes_the_pile_does_not_throw_a_card_chosen_before() {
    let (mut app, w, _) = two_seats_and_an_up_card();
    // A card left chosen from the turn before: chosen by a click, and another thrown by X.
    key(&mut app, w, KeyCode::KeyD);
    settle(&mut app);
    let card = app.world().resource::<P10Piles>().hands[PLAYER][0];
    let at = pose_of(&app, card);
    press(&mut app, w, at);
    key(&mut app, w, KeyCode::End);
    key(&mut app, w, KeyCode::KeyX);
    until_players_turn(&mut app);
    assert_eq!(game(&app).stage(), Stage::Draw);
    assert_eq!(app.world().resource::<Selection>().0, [card]);
    let top = *app.world().resource::<P10Piles>().discard.last().unwrap();
    let spot = pose_of(&app, top);
    // A double-click on the pile: the first click takes its card, the second does nothing.
    press(&mut app, w, spot);
    press(&mut app, w, spot);
    settle(&mut app);
    assert_eq!(game(&app).stage(), Stage::Play);
    assert_eq!(game(&app).hand(PLAYER).len(), 11, "nothing thrown");
    assert_eq!(app.world().resource::<Selection>().0, [card]);
    // A click half a second later throws it, as ever.
    for _ in 0..30 {
        app.update();
    }
    let top = *app.world().resource::<P10Piles>().discard.last().unwrap();
    let spot = pose_of(&app, top);
    press(&mut app, w, spot);
    settle(&mut app);
    assert_eq!(game(&app).hand(PLAYER).len(), 10);
    assert_matches_engine(&mut app);
}

#[test]
fn keys_held_with_ctrl_alt_or_cmd_do_not_act_on_the_table() {
    let (mut app, w, _) = two_seats_and_an_up_card();
    for modifier in [KeyCode::ControlLeft, KeyCode::AltRight, KeyCode::SuperLeft] {
        common::hold_key(&mut app, w, modifier, true);
        key(&mut app, w, KeyCode::KeyD);
        common::hold_key(&mut app, w, modifier, false);
        settle(&mut app);
        assert_eq!(game(&app).stage(), Stage::Draw, "{modifier:?}+D drew");
    }
    key(&mut app, w, KeyCode::KeyD);
    settle(&mut app);
    assert_eq!(game(&app).stage(), Stage::Play);
    // Ctrl+X (cut) does not discard the keyboard's card; X does.
    key(&mut app, w, KeyCode::Home);
    common::hold_key(&mut app, w, KeyCode::ControlLeft, true);
    key(&mut app, w, KeyCode::KeyX);
    common::hold_key(&mut app, w, KeyCode::ControlLeft, false);
    settle(&mut app);
    assert_eq!(game(&app).hand(PLAYER).len(), 11, "Ctrl+X discarded");
    key(&mut app, w, KeyCode::KeyX);
    settle(&mut app);
    assert_eq!(game(&app).hand(PLAYER).len(), 10);
    assert_matches_engine(&mut app);
}

#[test]
fn the_hand_comes_back_sorted_by_colour_after_spider() {
    let (mut app, w) = app(3, 7, "random", GameKind::ProSpider10);
    until_players_turn(&mut app);
    key(&mut app, w, KeyCode::KeyO);
    settle(&mut app);
    assert!(
        app.world()
            .resource::<arachne::core::settings::Settings>()
            .phase10
            .sort_by_colour
    );
    let shown = |app: &App| {
        let piles = app.world().resource::<P10Piles>();
        piles.hands[PLAYER]
            .iter()
            .map(|e| piles.cards[e])
            .collect::<Vec<Card>>()
    };
    let by_colour = shown(&app);
    assert_ne!(
        by_colour,
        game(&app).hand(PLAYER),
        "the engine's order differs"
    );
    for kind in [GameKind::Spider, GameKind::ProSpider10] {
        app.world_mut()
            .resource_mut::<NextState<GameKind>>()
            .set(kind);
        app.update();
        settle(&mut app);
    }
    assert_eq!(shown(&app), by_colour);
    assert_matches_engine(&mut app);
}

/// The hand sorted the other way during the deal: the cards in motion glide on to their new
/// places from where they are. (They once all jumped to rest at the key.)
#[test]
fn sorting_during_the_deal_lets_the_cards_glide_on() {
    let dealing = || {
        let (mut app, w) = app(2, 5, "random", GameKind::ProSpider10);
        settle(&mut app);
        app.world_mut()
            .write_message(P10Request::NewGame(Box::new(P10SpecMsg(
                P10Spec::standard(2, 6, "random").unwrap(),
            ))));
        for _ in 0..6 {
            app.update();
        }
        assert!(moving(&mut app) > 10, "the deal is under way");
        (app, w)
    };
    let poses = |app: &mut App| {
        let mut q = app.world_mut().query::<(Entity, &CardPose)>();
        q.iter(app.world())
            .map(|(e, p)| (e, p.translation.truncate()))
            .collect::<std::collections::HashMap<_, _>>()
    };
    // The farthest any card moves in a frame, over `frames` frames after `code`.
    let farthest = |code: KeyCode, frames: usize| {
        let (mut app, w) = dealing();
        let mut before = poses(&mut app);
        let mut most = 0.0f32;
        for frame in 0..frames {
            if frame == 0 {
                key(&mut app, w, code);
            } else {
                app.update();
            }
            let now = poses(&mut app);
            for (e, at) in &before {
                if let Some(p) = now.get(e) {
                    most = most.max(p.distance(*at));
                }
            }
            before = now;
        }
        (app, most)
    };
    // The deal alone, with a key that does nothing, against the same deal sorted.
    let (_, dealt) = farthest(KeyCode::F20, 8);
    let (mut app, sorted) = farthest(KeyCode::KeyO, 8);
    assert!(
        sorted <= dealt * 2.0,
        "cards jumped at the sort: {sorted} against {dealt}"
    );
    assert!(
        app.world()
            .resource::<arachne::core::settings::Settings>()
            .phase10
            .sort_by_colour
    );
    settle(&mut app);
    assert_matches_engine(&mut app);
}

/// The viewer's keys beside stepping: P plays and pauses (as Space), + and - double and halve
/// the speed within 0.25 to 16 steps a second, A shows every hand or only the player's.
#[test]
fn the_viewers_keys_play_change_the_speed_and_show_every_hand() {
    let (mut app, w) = app(2, 21, "petra", GameKind::ProSpider10);
    settle(&mut app);
    let this_game = ViewerControl::this_game(app.world().resource::<P10Table>());
    control(&mut app, this_game);
    control(&mut app, ViewerControl::Play(false));
    let v = |app: &App| viewer(app).unwrap();
    let speed = v(&app).speed;
    key(&mut app, w, KeyCode::Equal);
    assert_eq!(v(&app).speed, (speed * 2.0).min(16.0));
    for _ in 0..8 {
        key(&mut app, w, KeyCode::NumpadAdd);
    }
    assert_eq!(v(&app).speed, 16.0);
    for _ in 0..10 {
        key(&mut app, w, KeyCode::Minus);
    }
    assert_eq!(v(&app).speed, 0.25);
    let all = v(&app).all_hands;
    key(&mut app, w, KeyCode::KeyA);
    assert_eq!(v(&app).all_hands, !all);
    key(&mut app, w, KeyCode::KeyP);
    assert!(v(&app).playing);
    key(&mut app, w, KeyCode::KeyP);
    assert!(!v(&app).playing);
}

/// Page Down and Page Up go to the next round's deal and the last one's; held, each repeat goes
/// on from where the one before it went, several in one frame too, and past the last round
/// Page Up still goes one round back from the end.
#[test]
fn the_viewers_page_keys_go_round_by_round_held_too() {
    let (mut app, w) = app(2, 21, "petra", GameKind::ProSpider10);
    settle(&mut app);
    watch(&mut app, "Two Petras", two_petras_game());
    let v = viewer(&app).unwrap();
    let rounds = v.rounds();
    assert!(rounds >= 4, "{rounds} rounds");
    let round = |app: &App| app.world().resource::<P10Table>().game.round();
    key(&mut app, w, KeyCode::PageDown);
    settle(&mut app);
    assert_eq!(
        (viewer(&app).unwrap().at, round(&app)),
        (v.round_start(2), 2)
    );
    // A press and a repeat in one frame: two rounds on.
    let send = |app: &mut App, code: KeyCode, repeat: bool| {
        app.world_mut()
            .write_message(bevy::input::keyboard::KeyboardInput {
                key_code: code,
                logical_key: bevy::input::keyboard::Key::Unidentified(
                    bevy::input::keyboard::NativeKey::Unidentified,
                ),
                state: bevy::input::ButtonState::Pressed,
                text: None,
                repeat,
                window: w,
            });
    };
    key(&mut app, w, KeyCode::Home);
    settle(&mut app);
    send(&mut app, KeyCode::PageDown, false);
    send(&mut app, KeyCode::PageDown, true);
    settle(&mut app);
    assert_eq!(round(&app), 3);
    common::hold_key(&mut app, w, KeyCode::PageDown, false);
    // At the end, Page Down past the last round and Page Up in one frame: the round before the
    // last.
    key(&mut app, w, KeyCode::End);
    settle(&mut app);
    send(&mut app, KeyCode::PageDown, false);
    send(&mut app, KeyCode::PageUp, false);
    settle(&mut app);
    assert_eq!(round(&app), rounds - 1);
}

/// N deals a new game as the bar's "New game" does: with the game under way, it asks first,
/// and the computer seats' turns are not played out behind the question.
#[test]
fn n_asks_for_a_new_game_as_the_bars_button_does() {
    let (mut app, w) = app(2, 5, "random", GameKind::ProSpider10);
    until_players_turn(&mut app);
    key(&mut app, w, KeyCode::KeyD);
    settle(&mut app);
    key(&mut app, w, KeyCode::Home);
    key(&mut app, w, KeyCode::KeyX);
    assert!(!app.world().resource::<P10Table>().players_turn());
    key(&mut app, w, KeyCode::KeyN);
    assert!(
        !app.world().resource::<Hurry>().0,
        "N hurried the computer seats"
    );
    app.update();
    assert!(
        app.world()
            .resource::<arachne::phase10::menu::P10Form>()
            .leaving
            .is_some(),
        "the question before leaving the game"
    );
}
