//! Spider's table as entities: one per card, kept in step with the engine by its events (planned
//! in [`plan`](crate::spider::plan)), laid out again when the window or the settings change.
use bevy::prelude::*;
use bevy::window::{PrimaryWindow, WindowResized};
use bevy_tweening::TweenAnim;

use crate::audio::cues::PendingSounds;
use crate::cards::motion::{
    CardPose, Celebrating, MotionScale, Segment, SegmentKind, build, commit, motion_settings,
};
use crate::cards::pointer::window_size;
use crate::core::settings::{Motion, Settings};
use crate::spider::SpiderSystems;
use crate::spider::layout::Layout;
use crate::spider::piles::{CardView, Piles, rest_pose};
use crate::spider::plan::{new_game, plan_events};
use crate::spider::table::{Cause, Table, TableChanged};
use crate::{AppSystems, GameKind};

pub(crate) fn plugin(app: &mut App) {
    app.init_resource::<Piles>()
        .add_message::<Relayout>()
        // Present with a window; added here too so the headless logic runs without one.
        .add_message::<WindowResized>()
        .add_systems(OnEnter(GameKind::Spider), show_table)
        .add_systems(
            Update,
            (
                track_window.in_set(AppSystems::Input),
                (show_changes, relayout).chain().in_set(AppSystems::Plan),
            )
                .in_set(SpiderSystems),
        );
}

/// Ask the view to glide every card that is not where it belongs back to its place
/// (after an invalid drop, or a change of settings).
#[derive(Message, Clone, Copy, Debug, Default)]
pub struct Relayout {
    /// Jump instead of gliding.
    pub instant: bool,
}

/// Puts the table's cards out when Spider comes on the table: dealt the first time, at rest when
/// the player comes back to the game (its cards were despawned on leaving).
fn show_table(mut changed: MessageWriter<TableChanged>, mut dealt: Local<bool>) {
    let cause = if *dealt { Cause::Shown } else { Cause::NewGame };
    *dealt = true;
    changed.write(TableChanged {
        cause,
        events: Vec::new(),
    });
}

fn track_window(
    mut resized: MessageReader<WindowResized>,
    window: Query<&Window, With<PrimaryWindow>>,
    layout: Option<ResMut<Layout>>,
    settings: Res<Settings>,
    piles: Res<Piles>,
    mut relayout: MessageWriter<Relayout>,
) {
    // A new window size, or the layout's settings edited in the settings file while the game
    // runs (`core::live`): the table is laid out again at once.
    if resized.read().count() == 0 && !settings.is_changed() {
        return;
    }
    if let Some(mut layout) = layout {
        let new = Layout::compute(&piles.shape(), window_size(&window), &settings.layout);
        if *layout != new {
            *layout = new;
            relayout.write(Relayout { instant: true });
        }
    }
}

pub(crate) fn show_changes(
    mut commands: Commands,
    mut changes: MessageReader<TableChanged>,
    table: Res<Table>,
    settings: Res<Settings>,
    scale: Res<MotionScale>,
    mut piles: ResMut<Piles>,
    window: Query<&Window, With<PrimaryWindow>>,
    mut cards: Query<(Entity, &mut CardView, &mut CardPose, Has<TweenAnim>)>,
    mut sounds: ResMut<PendingSounds>,
    mut celebrating: ResMut<Celebrating>,
) {
    if changes.is_empty() {
        return;
    }
    let settings = &motion_settings(&settings, scale.0);
    // A new table is laid out from the table as it is now, after every request of this frame:
    // it already shows the changes before and after it, which are not played again (a move
    // right behind a new game was applied twice to the piles, and the old table's cards, queued
    // for despawn, were given motion).
    let all: Vec<&TableChanged> = changes.read().collect();
    let batch = match all
        .iter()
        .rposition(|c| matches!(c.cause, Cause::NewGame | Cause::Shown))
    {
        Some(last) => &all[last..=last],
        None => &all[..],
    };
    for change in batch {
        // Input during an animation finishes the running tweens at once (no card is ever
        // fought over by two tweens), then the new events animate from the table at rest.
        settle(&mut commands, &piles, &mut cards, settings, &window);
        sounds.0.clear();
        celebrating.0 = false;
        let (plan, layout) = if matches!(change.cause, Cause::NewGame | Cause::Shown) {
            for (e, ..) in cards.iter() {
                commands.entity(e).despawn();
            }
            let deal = change.cause == Cause::NewGame;
            new_game(&mut commands, &table, settings, &mut piles, &window, deal)
        } else {
            plan_events(&change.events, &mut piles, &mut cards, settings, &window)
        };
        if plan.celebrate_at.is_some()
            && settings.animation.celebration
            && !settings.animation.instant
        {
            celebrating.0 = true;
        }
        commands.insert_resource(layout);
        commit(&mut commands, plan, &settings.animation, &mut sounds);
    }
}

/// Finishes every running animation at once: each animated card jumps to its resting place.
fn settle(
    commands: &mut Commands,
    piles: &Piles,
    cards: &mut Query<(Entity, &mut CardView, &mut CardPose, Has<TweenAnim>)>,
    settings: &Settings,
    window: &Query<&Window, With<PrimaryWindow>>,
) {
    if !cards.iter().any(|(.., animated)| animated) {
        return;
    }
    let shape = piles.shape();
    let layout = Layout::compute(&shape, window_size(window), &settings.layout);
    for (e, view, mut pose, animated) in cards.iter_mut() {
        if animated {
            commands.entity(e).remove::<TweenAnim>();
            *pose = rest_pose(&layout, &shape, &view);
        }
    }
}

/// Glides (or jumps) every card that is not at its resting place back to it.
fn relayout(
    mut commands: Commands,
    mut requests: MessageReader<Relayout>,
    piles: Res<Piles>,
    settings: Res<Settings>,
    layout: Option<Res<Layout>>,
    mut cards: Query<(Entity, &mut CardView, &mut CardPose, Has<TweenAnim>)>,
) {
    let Some(layout) = layout else { return };
    let Some(instant) = requests.read().map(|r| r.instant).reduce(|a, b| a || b) else {
        return;
    };
    let shape = piles.shape();
    let a = &settings.animation;
    for (e, view, mut pose, animated) in cards.iter_mut() {
        let rest = rest_pose(&layout, &shape, &view);
        if instant || a.instant {
            if animated {
                commands.entity(e).remove::<TweenAnim>();
            }
            *pose = rest;
        } else if !animated && *pose != rest {
            let segs = [Segment {
                start: 0.0,
                secs: a.secs(a.slide_back_ms),
                to: rest.translation,
                face: Some(rest.face_shown),
                lift: true,
                kind: SegmentKind::Glide(Motion::SlideBack),
            }];
            if let Some(anim) = build(*pose, &segs, a) {
                commands.entity(e).insert(anim);
            }
        }
    }
}
