//! Pro Spider 10's helpers: cards moving, the table at rest, and the table against the engine.
use arachne::cards::motion::CardPose;
use arachne::phase10::layout::{P10Layout, Place};
use arachne::phase10::round::{P10Spec, P10Table, PLAYER};
use arachne::phase10::view::{P10Card, P10Piles, Selection, rest_pose};
use arachne_engine::phase10::{Action, Card, Counts, Stage};
use bevy::prelude::*;
use bevy_tweening::TweenAnim;

/// How many of Pro Spider 10's cards are moving.
pub fn moving(app: &mut App) -> usize {
    app.world_mut()
        .query_filtered::<(), (With<P10Card>, With<TweenAnim>)>()
        .iter(app.world())
        .count()
}

/// Runs frames until no card moves in two frames running (a table laid out again once at
/// rest starts moving the frame after).
pub fn settle(app: &mut App) {
    for _ in 0..3000 {
        app.update();
        if moving(app) == 0 {
            app.update();
            if moving(app) == 0 {
                return;
            }
        }
    }
    panic!("never at rest");
}

/// Every card entity lies where the engine has its card, showing the side it should.
pub fn assert_matches_engine(app: &mut App) {
    let world = app.world_mut();
    let piles = world.resource::<P10Piles>().clone();
    let layout = world.resource::<P10Layout>().clone();
    let selection = world.resource::<Selection>().clone();
    let game = world.resource::<P10Table>().game.clone();
    let all: std::collections::HashMap<Entity, (P10Card, CardPose)> = world
        .query::<(Entity, &P10Card, &CardPose)>()
        .iter(world)
        .map(|(e, c, p)| (e, (*c, *p)))
        .collect();
    assert_eq!(all.len(), 108, "one entity per card");
    let shape = piles.shape();
    let revealed = matches!(game.stage(), Stage::RoundOver | Stage::Over) || piles.show_all;
    let cards_at = |list: &[Entity]| -> Vec<Card> { list.iter().map(|e| all[e].0.card).collect() };
    // Face-up cards are the engine's, in its order; face-down ones only count.
    assert_eq!(piles.stock.len(), game.stock().len(), "stock");
    assert_eq!(
        cards_at(&piles.discard),
        game.discard_pile(),
        "discard pile"
    );
    for seat in 0..game.players() {
        let hand = cards_at(&piles.hands[seat]);
        assert_eq!(hand.len(), game.hand(seat).len(), "hand {seat}");
        if seat == PLAYER || revealed {
            assert_eq!(
                Counts::of(&hand),
                Counts::of(game.hand(seat)),
                "hand {seat}"
            );
        }
        let groups: Vec<Vec<Card>> = piles.groups[seat].iter().map(|g| cards_at(g)).collect();
        let engine: Vec<Vec<Card>> = game.laid()[seat]
            .iter()
            .map(|g| g.cards().to_vec())
            .collect();
        assert_eq!(groups, engine, "groups of seat {seat}");
        assert_eq!(
            piles.skips[seat].is_some(),
            game.skips()[seat],
            "skip of seat {seat}"
        );
    }
    for (e, place) in piles.placed() {
        let (card, pose) = all[&e];
        assert_eq!(card.place, place, "{e}");
        let face_up = match place {
            Place::Stock(_) => false,
            Place::Hand(seat, _) => seat == PLAYER || revealed,
            _ => true,
        };
        let rest = rest_pose(&layout, &shape, place, face_up, selection.0.contains(&e));
        assert!(
            pose.translation.distance(rest.translation) < 0.01,
            "{place:?}: {} vs {}",
            pose.translation,
            rest.translation
        );
        assert_eq!((pose.face_shown, pose.flip), (face_up, 1.0), "{place:?}");
    }
}

/// A table of `players` seats one decision before its game ends, every seat played by petra;
/// and that decision.
pub fn one_decision_from_the_end(players: usize, seed: u64) -> (P10Table, Action) {
    let spec = P10Spec::standard(players, seed, "petra").unwrap();
    let (mut table, _) = P10Table::new(spec).unwrap();
    let mut petra = arachne_engine::phase10::ai::player("petra", 0).unwrap();
    loop {
        if table.game.stage() == Stage::RoundOver {
            table.next_round().unwrap();
            continue;
        }
        let seat = table.game.to_move().unwrap();
        let action = petra.decide(&table.game.view(seat));
        let mut after = table.game.clone();
        after.apply(action.clone()).unwrap();
        if after.is_over() {
            return (table, action);
        }
        table.apply(action).unwrap();
    }
}
