//! The animation tuner's samples on Pro Spider 10's table (see [`crate::cards::samples`]): the
//! player's cards leave as a discard, a lay, a deal or a turn would take them, and come back.
use bevy::prelude::*;
use bevy_tweening::TweenAnim;

use crate::AppSystems;
use crate::audio::cues::PendingSounds;
use crate::cards::motion::CardPose;
use crate::cards::samples::{PlaySample, SampleCards, play};
use crate::core::focus::Notices;
use crate::core::settings::Settings;
use crate::phase10::P10Systems;
use crate::phase10::layout::{P10Layout, Place};
use crate::phase10::round::PLAYER;
use crate::phase10::view::{P10Card, P10Piles};

pub(crate) fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        play_samples
            .in_set(AppSystems::Plan)
            .in_set(P10Systems)
            // After the game's own motion is planned: a sample never starts from a card the
            // game has just moved.
            .after(crate::phase10::view::show_changes),
    );
}

/// The cards each sample takes on this table, and where to.
pub fn sample_cards(
    piles: &P10Piles,
    layout: &P10Layout,
    pose: &dyn Fn(Entity) -> Option<CardPose>,
) -> SampleCards {
    let mut out = SampleCards::default();
    let Some(hand) = piles.hands.get(PLAYER) else {
        return out;
    };
    let shape = piles.shape();
    // A discard: the hand's last card onto the pile.
    if let Some(&e) = hand.last() {
        let mut after = shape.clone();
        after.hands[PLAYER] -= 1;
        after.discard += 1;
        let to = layout.position(&after, Place::Discard(piles.discard.len()));
        out.moving.extend(pose(e).map(|p| (e, p, to)));
    }
    // A lay: the hand's first three cards as a new group in front of the player.
    let laid = &hand[..hand.len().min(3)];
    let mut after = shape.clone();
    after.hands[PLAYER] -= laid.len();
    let group = after.groups[PLAYER].len();
    after.groups[PLAYER].push(laid.len());
    out.sweeping = laid
        .iter()
        .enumerate()
        .filter_map(|(i, &e)| {
            let to = layout.position(&after, Place::Group(PLAYER, group, i));
            Some((e, pose(e)?, to))
        })
        .collect();
    // A deal: the hand from the stock.
    out.deal_from = layout.position(&shape, Place::Stock(piles.stock.len().saturating_sub(1)));
    out.dealt = hand.iter().filter_map(|&e| Some((e, pose(e)?))).collect();
    // Turns: the hand's last card (a round's end turns the others' hands this way).
    out.flipped = hand
        .iter()
        .rev()
        .take(1)
        .filter_map(|&e| Some((e, pose(e)?)))
        .collect();
    out.thrown = out.dealt.clone();
    out.floor = layout.position(&shape, Place::Hand(PLAYER, 0)).y;
    out
}

fn play_samples(
    mut commands: Commands,
    mut requests: MessageReader<PlaySample>,
    piles: Res<P10Piles>,
    layout: Option<Res<P10Layout>>,
    settings: Res<Settings>,
    mut sounds: ResMut<PendingSounds>,
    mut notices: ResMut<Notices>,
    mut cards: Query<(&mut CardPose, Has<TweenAnim>), With<P10Card>>,
) {
    let Some(request) = requests.read().last().copied() else {
        return;
    };
    let Some(layout) = layout else { return };
    play(
        &mut commands,
        request,
        &settings,
        &mut sounds,
        &mut notices,
        &mut cards,
        |pose| sample_cards(&piles, &layout, pose),
    );
}
