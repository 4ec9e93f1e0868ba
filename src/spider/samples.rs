//! The animation tuner's samples on Spider's table (see [`crate::cards::samples`]): cards of
//! the table leave their places as a move, a sweep, a deal, a flip or the win cascade would
//! take them, and come back.
use bevy::prelude::*;
use bevy_tweening::TweenAnim;

use crate::AppSystems;
use crate::audio::cues::PendingSounds;
use crate::cards::motion::CardPose;
use crate::cards::samples::{PlaySample, SampleCards, play};
use crate::core::focus::Notices;
use crate::core::settings::Settings;
use crate::spider::SpiderSystems;
use crate::spider::layout::{Layout, PileId};
use crate::spider::piles::{CardView, Piles};

pub(crate) fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        play_samples
            .in_set(AppSystems::Plan)
            .in_set(SpiderSystems)
            // After the game's own motion is planned (and its tweens inserted): a sample
            // never starts from a card the game has just moved.
            .after(crate::spider::view::show_changes),
    );
}

/// The cards each sample takes on this table, and where to.
pub fn sample_cards(
    piles: &Piles,
    layout: &Layout,
    pose: &dyn Fn(Entity) -> Option<CardPose>,
) -> SampleCards {
    let mut out = SampleCards {
        floor: layout.foundation.y,
        ..default()
    };
    let n = piles.columns.len();
    let tail = |c: usize| &piles.columns[c][piles.face_down[c].min(piles.columns[c].len())..];
    // The column with the longest face-up run of cards at its end.
    let src = (0..n)
        .max_by_key(|&c| (tail(c).len(), std::cmp::Reverse(c)))
        .unwrap_or(0);
    let run = if n > 0 { tail(src) } else { &[] };
    // A move: up to three cards onto the next column.
    let moving = &run[run.len().saturating_sub(3)..];
    let target = (src + 1) % n.max(1);
    if target != src && !moving.is_empty() {
        let mut after = piles.clone();
        let base = after.columns[target].len();
        let keep = run_start(piles, src, moving.len());
        after.columns[src].truncate(keep);
        after.columns[target].extend(moving);
        let shape = after.shape();
        out.moving = moving
            .iter()
            .enumerate()
            .filter_map(|(k, &e)| {
                let to = layout.position(&shape, PileId::Column(target as u8), base + k);
                Some((e, pose(e)?, to))
            })
            .collect();
    }
    // A sweep: up to 13 cards to the next foundation slot, the last card first.
    let swept = &run[run.len().saturating_sub(13)..];
    if !swept.is_empty() {
        sweep(&mut out, piles, layout, pose, src, swept);
    }
    // A deal: the last card of each column, from the stock.
    let shape = piles.shape();
    out.deal_from = layout.position(&shape, PileId::Stock, piles.stock.len().saturating_sub(1));
    out.dealt = piles
        .columns
        .iter()
        .filter_map(|c| c.last())
        .filter_map(|&e| Some((e, pose(e)?)))
        .collect();
    // Flips: the last card of the first three columns, one after another.
    out.flipped = out.dealt.iter().take(3).copied().collect();
    // The cascade: the foundation's cards if there are any, else the last two of each column.
    let thrown: Vec<Entity> = if piles.foundations.iter().any(|f| !f.is_empty()) {
        piles
            .foundations
            .iter()
            .rev()
            .flat_map(|run| run.iter().rev().copied())
            .collect()
    } else {
        piles
            .columns
            .iter()
            .flat_map(|c| c.iter().rev().take(2).copied())
            .collect()
    };
    out.thrown = thrown
        .into_iter()
        .filter_map(|e| Some((e, pose(e)?)))
        .collect();
    out
}

/// The sweep of `swept`, the end of column `src`, to the next foundation slot.
fn sweep(
    out: &mut SampleCards,
    piles: &Piles,
    layout: &Layout,
    pose: &dyn Fn(Entity) -> Option<CardPose>,
    src: usize,
    swept: &[Entity],
) {
    let mut after = piles.clone();
    after.columns[src].truncate(run_start(piles, src, swept.len()));
    let slot = after.foundations.len().min(after.slots.saturating_sub(1));
    after.foundations.truncate(slot);
    after.foundations.push(swept.to_vec());
    let shape = after.shape();
    out.sweeping = swept
        .iter()
        .enumerate()
        .rev()
        .filter_map(|(i, &e)| {
            let to = layout.position(&shape, PileId::Foundation(slot as u8), i);
            Some((e, pose(e)?, to))
        })
        .collect();
}

/// Where the last `n` cards of column `c` start.
fn run_start(piles: &Piles, c: usize, n: usize) -> usize {
    piles.columns[c].len() - n
}

fn play_samples(
    mut commands: Commands,
    mut requests: MessageReader<PlaySample>,
    piles: Res<Piles>,
    layout: Option<Res<Layout>>,
    settings: Res<Settings>,
    mut sounds: ResMut<PendingSounds>,
    mut notices: ResMut<Notices>,
    mut cards: Query<(&mut CardPose, Has<TweenAnim>), With<CardView>>,
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
