//! The table as entities: one per card, kept in step with the engine by its events, each event
//! turned into tweened motion and sound cues.
use std::collections::HashMap;
use std::time::Duration;

use arachne_engine::{Card, Event};
use bevy::prelude::*;
use bevy::window::{PrimaryWindow, WindowResized};
use bevy_tweening::{BoxedTweenable, Delay, Lens, Sequence, Tween, TweenAnim};

use crate::AppSystems;
use crate::audio::Sfx;
use crate::layout::{Layout, PileId, TableShape, z};
use crate::settings::{AnimationSettings, Settings};
use crate::table::{Cause, Table, TableChanged};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Piles>()
        .init_resource::<MotionScale>()
        .init_resource::<PendingSounds>()
        .add_message::<Relayout>()
        // Present with a window; added here too so the headless logic runs without one.
        .add_message::<WindowResized>()
        .add_message::<PlaySfx>()
        .add_message::<Shake>()
        .add_systems(Startup, spawn_first_game)
        .add_systems(
            Update,
            (
                track_window.in_set(AppSystems::Input),
                (show_changes, relayout, shake, end_celebration)
                    .chain()
                    .in_set(AppSystems::Plan),
                cue_sounds.in_set(AppSystems::Plan).after(show_changes),
            ),
        )
        .add_systems(
            Update,
            pose_to_transform.after(bevy_tweening::AnimationSystem::AnimationUpdate),
        );
}

/// A card on the table, where the engine has it.
#[derive(Component, Clone, Debug, PartialEq)]
pub struct CardView {
    /// The card.
    pub card: Card,
    /// Its pile.
    pub pile: PileId,
    /// Its index in the pile (0 = bottom).
    pub index: usize,
    /// Whether the engine has it face up.
    pub face_up: bool,
}

/// What the card looks like now; animations drive this, `pose_to_transform` shows it.
#[derive(Component, Clone, Copy, Debug, PartialEq)]
pub struct CardPose {
    /// Position (z orders the cards).
    pub translation: Vec3,
    /// Horizontal scale during a flip (1 at rest).
    pub flip: f32,
    /// Which side is showing.
    pub face_shown: bool,
}

/// The view's copy of the piles, updated from the engine's events only.
#[derive(Resource, Default, Debug, Clone)]
pub struct Piles {
    /// The stock, next card to deal last.
    pub stock: Vec<Entity>,
    /// Columns, bottom card first.
    pub columns: Vec<Vec<Entity>>,
    /// Face-down cards at the bottom of each column.
    pub face_down: Vec<usize>,
    /// Completed runs, King first.
    pub foundations: Vec<Vec<Entity>>,
    /// Runs a won game has.
    pub slots: usize,
    /// Cards in the stock at the start.
    pub stock_capacity: usize,
}

impl Piles {
    /// The shape the layout needs.
    pub fn shape(&self) -> TableShape {
        TableShape {
            columns: self
                .columns
                .iter()
                .zip(&self.face_down)
                .map(|(c, &d)| (c.len(), d))
                .collect(),
            stock: self.stock.len(),
            stock_capacity: self.stock_capacity,
            foundations: self.foundations.len(),
            foundation_slots: self.slots,
        }
    }

    /// Every card with its pile and index.
    pub fn placed(&self) -> impl Iterator<Item = (Entity, PileId, usize)> + '_ {
        let stock = self
            .stock
            .iter()
            .enumerate()
            .map(|(i, &e)| (e, PileId::Stock, i));
        let columns = self.columns.iter().enumerate().flat_map(|(c, col)| {
            col.iter()
                .enumerate()
                .map(move |(i, &e)| (e, PileId::Column(c as u8), i))
        });
        let foundations = self.foundations.iter().enumerate().flat_map(|(s, run)| {
            run.iter()
                .enumerate()
                .map(move |(i, &e)| (e, PileId::Foundation(s as u8), i))
        });
        stock.chain(columns).chain(foundations)
    }
}

/// Ask the view to glide every card that is not where it belongs back to its place
/// (after an invalid drop, or a change of settings).
#[derive(Message, Clone, Copy, Debug, Default)]
pub struct Relayout {
    /// Jump instead of gliding.
    pub instant: bool,
}

/// A sound to play now, with a pitch factor.
#[derive(Message, Clone, Copy, Debug, PartialEq)]
pub struct PlaySfx {
    /// Which sound.
    pub sfx: Sfx,
    /// Playback rate (1 = as made).
    pub pitch: f32,
}

/// Sounds waiting for their moment in a running animation.
#[derive(Resource, Default, Debug)]
pub struct PendingSounds(pub Vec<(f32, PlaySfx)>);

/// Marks the cards of the win celebration (a click skips it).
#[derive(Resource, Default, Debug)]
pub struct Celebrating(pub bool);

/// Speeds all motion up (or down) on top of the settings: the replay viewer's speed.
#[derive(Resource, Debug, Clone, Copy, PartialEq)]
pub struct MotionScale(pub f32);

impl Default for MotionScale {
    fn default() -> MotionScale {
        MotionScale(1.0)
    }
}

/// The settings as the motion uses them: the player's per-effect choices (no deal motion, no
/// flips) and the viewer's speed applied.
pub fn motion_settings(settings: &Settings, scale: f32) -> Settings {
    let mut s = settings.clone();
    let a = &mut s.animation;
    a.speed *= scale.max(0.05);
    if !a.deal_motion {
        a.deal_ms = 0;
        a.deal_stagger_ms = 0;
        a.initial_deal_stagger_ms = 0;
    }
    if !a.flip_motion {
        a.flip_ms = 0;
    }
    s
}

fn window_size(window: &Query<&Window, With<PrimaryWindow>>) -> Vec2 {
    window
        .single()
        .map(|w| Vec2::new(w.width(), w.height()))
        .unwrap_or(Vec2::new(1280.0, 720.0))
}

fn spawn_first_game(mut changed: MessageWriter<TableChanged>) {
    changed.write(TableChanged {
        cause: Cause::NewGame,
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
    if resized.read().count() == 0 {
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

fn show_changes(
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
        commit(
            &mut commands,
            plan,
            &settings.animation,
            &mut sounds,
            &mut cards,
        );
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

/// Where and how a card rests.
pub fn rest_pose(layout: &Layout, shape: &TableShape, view: &CardView) -> CardPose {
    CardPose {
        translation: layout.position(shape, view.pile, view.index),
        flip: 1.0,
        face_shown: view.face_up,
    }
}

/// One leg of a card's motion.
#[derive(Clone, Copy, Debug)]
struct Segment {
    start: f32,
    secs: f32,
    to: Vec3,
    face: Option<bool>,
    lift: bool,
    kind: SegmentKind,
}

#[derive(Clone, Copy, Debug)]
enum SegmentKind {
    Glide,
    /// The win cascade: thrown with this velocity, bouncing on the window's floor.
    Thrown {
        velocity: Vec2,
        floor: f32,
    },
}

/// Motion and sound for a batch of events.
#[derive(Default)]
struct Plan {
    segments: HashMap<Entity, Vec<Segment>>,
    cursor: f32,
    sounds: Vec<(f32, PlaySfx)>,
    celebrate_at: Option<f32>,
}

impl Plan {
    fn glide(&mut self, e: Entity, start: f32, secs: f32, to: Vec3, face: Option<bool>) {
        self.segments.entry(e).or_default().push(Segment {
            start,
            secs,
            to,
            face,
            lift: true,
            kind: SegmentKind::Glide,
        });
    }

    fn sound(&mut self, at: f32, sfx: Sfx, pitch: f32) {
        self.sounds.push((at, PlaySfx { sfx, pitch }));
    }
}

/// Spawns the cards of a new game at the stock and plans the initial deal (or, without `deal`,
/// spawns every card where it rests); returns the plan and the layout of the dealt table.
fn new_game(
    commands: &mut Commands,
    table: &Table,
    settings: &Settings,
    piles: &mut Piles,
    window: &Query<&Window, With<PrimaryWindow>>,
    animate_deal: bool,
) -> (Plan, Layout) {
    let position = table.game.position();
    let a = &settings.animation;
    let mut spawn =
        |card: Card, pile: PileId, index: usize, face_up: bool, at: Vec3, shown: bool| {
            commands
                .spawn((
                    CardView {
                        card,
                        pile,
                        index,
                        face_up,
                    },
                    CardPose {
                        translation: at,
                        flip: 1.0,
                        face_shown: shown,
                    },
                    Transform::from_translation(at),
                    Visibility::default(),
                ))
                .id()
        };
    *piles = Piles {
        stock: Vec::new(),
        columns: position.columns().iter().map(|_| Vec::new()).collect(),
        face_down: position.columns().iter().map(|c| c.face_down()).collect(),
        foundations: Vec::new(),
        slots: position.variant().run_count(),
        stock_capacity: position.variant().stock_size(),
    };
    let final_shape = TableShape {
        columns: position
            .columns()
            .iter()
            .map(|c| (c.len(), c.face_down()))
            .collect(),
        stock: position.stock_len(),
        stock_capacity: position.variant().stock_size(),
        foundations: position.foundation().len(),
        foundation_slots: position.variant().run_count(),
    };
    let layout = Layout::compute(&final_shape, window_size(window), &settings.layout);
    // Before the deal, the tableau's cards sit on the stock, above its own cards.
    let stock_spot = layout.stock.extend(z::STOCK + 100.0);
    let mut plan = Plan::default();
    let stock: Vec<Card> = position.stock().rev().collect();
    for (i, &card) in stock.iter().enumerate() {
        let at = layout.position(&final_shape, PileId::Stock, i);
        let e = spawn(card, PileId::Stock, i, false, at, false);
        piles.stock.push(e);
    }
    for (s, run) in position.foundation().iter().enumerate() {
        let mut entities = Vec::new();
        for (i, &card) in run.iter().enumerate() {
            let at = layout.position(&final_shape, PileId::Foundation(s as u8), i);
            entities.push(spawn(card, PileId::Foundation(s as u8), i, true, at, true));
        }
        piles.foundations.push(entities);
    }
    // Dealt row by row, as by hand.
    let rows = position
        .columns()
        .iter()
        .map(|c| c.len())
        .max()
        .unwrap_or(0);
    let mut k = 0;
    let deal = a.secs(a.deal_ms);
    let stagger = a.secs(a.initial_deal_stagger_ms);
    let columns: Vec<Vec<Entity>> = position
        .columns()
        .iter()
        .enumerate()
        .map(|(c, col)| {
            col.cards()
                .iter()
                .enumerate()
                .map(|(i, &card)| {
                    let up = i >= col.face_down();
                    let pile = PileId::Column(c as u8);
                    if animate_deal {
                        let at = stock_spot + Vec3::Z * (rows * c + i) as f32 * 0.001;
                        spawn(card, pile, i, up, at, false)
                    } else {
                        spawn(
                            card,
                            pile,
                            i,
                            up,
                            layout.position(&final_shape, pile, i),
                            up,
                        )
                    }
                })
                .collect()
        })
        .collect();
    for row in (0..rows).filter(|_| animate_deal) {
        for (c, col) in columns.iter().enumerate() {
            let Some(&e) = col.get(row) else { continue };
            let to = layout.position(&final_shape, PileId::Column(c as u8), row);
            let up = row >= position.columns()[c].face_down();
            let start = k as f32 * stagger;
            plan.glide(e, start, deal, to, up.then_some(true));
            plan.sound(
                start,
                Sfx::Deal,
                0.92 + 0.16 * ((k * 7919) % 11) as f32 / 10.0,
            );
            k += 1;
        }
    }
    piles.columns = columns;
    (plan, layout)
}

/// Applies a batch of engine events to the piles and plans their motion; returns the plan and
/// the layout of the table afterwards.
fn plan_events(
    events: &[Event],
    piles: &mut Piles,
    cards: &mut Query<(Entity, &mut CardView, &mut CardPose, Has<TweenAnim>)>,
    settings: &Settings,
    window: &Query<&Window, With<PrimaryWindow>>,
) -> (Plan, Layout) {
    let a = &settings.animation;
    let win = window_size(window);
    let mut plan = Plan::default();
    let place = |piles: &Piles| Layout::compute(&piles.shape(), win, &settings.layout);
    for event in events {
        match event {
            Event::Moved {
                from,
                to,
                cards: moved,
            } => {
                let src = &mut piles.columns[*from as usize];
                let run: Vec<Entity> = src.split_off(src.len() - moved.len());
                let (move_s, stagger) = (a.secs(a.move_ms), a.secs(a.move_stagger_ms));
                stack_on(&mut plan, piles, *to, &run, (move_s, stagger), &place);
                let landed = plan.cursor + move_s + stagger * (run.len() - 1) as f32;
                plan.sound(landed * 0.85, Sfx::Drop, 1.0);
                plan.cursor += move_s * 0.6 + stagger * (run.len() - 1) as f32;
            }
            Event::TurnedUp { column, .. } | Event::TurnedDown { column, .. } => {
                let up = matches!(event, Event::TurnedUp { .. });
                let c = *column as usize;
                if up {
                    piles.face_down[c] -= 1;
                } else {
                    piles.face_down[c] += 1;
                }
                let Some(&e) = piles.columns[c].last() else {
                    continue;
                };
                let layout = place(piles);
                let to = layout.position(
                    &piles.shape(),
                    PileId::Column(*column),
                    piles.columns[c].len() - 1,
                );
                let flip = a.secs(a.flip_ms);
                plan.segments.entry(e).or_default().push(Segment {
                    start: plan.cursor,
                    secs: flip,
                    to,
                    face: Some(up),
                    lift: false,
                    kind: SegmentKind::Glide,
                });
                plan.sound(plan.cursor, Sfx::Flip, 1.0);
                plan.cursor += flip * 0.5;
            }
            Event::Dealt { cards: dealt } => {
                let (deal_s, stagger) = (a.secs(a.deal_ms), a.secs(a.deal_stagger_ms));
                let mut moved = Vec::new();
                for &(c, _) in dealt {
                    let Some(e) = piles.stock.pop() else { continue };
                    piles.columns[c as usize].push(e);
                    moved.push((e, c, piles.columns[c as usize].len() - 1));
                }
                let layout = place(piles);
                let shape = piles.shape();
                for (k, &(e, c, i)) in moved.iter().enumerate() {
                    let start = plan.cursor + k as f32 * stagger;
                    plan.glide(
                        e,
                        start,
                        deal_s,
                        layout.position(&shape, PileId::Column(c), i),
                        Some(true),
                    );
                    plan.sound(start, Sfx::Deal, 0.9 + 0.2 * (k % 5) as f32 / 4.0);
                }
                plan.cursor += deal_s + stagger * moved.len().saturating_sub(1) as f32;
            }
            Event::Undealt { cards: undealt } => {
                let (deal_s, stagger) = (a.secs(a.deal_ms), a.secs(a.deal_stagger_ms) * 0.5);
                let mut moved = Vec::new();
                for &(c, _) in undealt {
                    let Some(e) = piles.columns[c as usize].pop() else {
                        continue;
                    };
                    piles.stock.push(e);
                    moved.push((e, piles.stock.len() - 1));
                }
                let layout = place(piles);
                let shape = piles.shape();
                for (k, &(e, i)) in moved.iter().enumerate() {
                    let start = plan.cursor + k as f32 * stagger;
                    plan.glide(
                        e,
                        start,
                        deal_s,
                        layout.position(&shape, PileId::Stock, i),
                        Some(false),
                    );
                }
                plan.sound(plan.cursor, Sfx::Deal, 0.8);
                plan.cursor += deal_s + stagger * moved.len().saturating_sub(1) as f32;
            }
            Event::RunCompleted {
                column,
                cards: run,
                slot,
            } => {
                let src = &mut piles.columns[*column as usize];
                let entities = src.split_off(src.len() - run.len());
                while piles.foundations.len() <= *slot {
                    piles.foundations.push(Vec::new());
                }
                piles.foundations[*slot] = entities.clone();
                let layout = place(piles);
                let shape = piles.shape();
                let (sweep, stagger) = (a.secs(a.sweep_ms), a.secs(a.sweep_stagger_ms));
                // The Ace leaves first, the King last.
                for (k, (i, &e)) in entities.iter().enumerate().rev().enumerate() {
                    let to = layout.position(&shape, PileId::Foundation(*slot as u8), i);
                    plan.glide(e, plan.cursor + k as f32 * stagger, sweep, to, None);
                }
                plan.sound(plan.cursor, Sfx::RunCompleted, 1.0);
                plan.cursor += sweep + stagger * (entities.len() - 1) as f32;
            }
            Event::RunRestored { column, slot, .. } => {
                let entities = std::mem::take(&mut piles.foundations[*slot]);
                while piles.foundations.last().is_some_and(|f| f.is_empty()) {
                    piles.foundations.pop();
                }
                let (sweep, stagger) = (a.secs(a.sweep_ms), a.secs(a.sweep_stagger_ms));
                stack_on(
                    &mut plan,
                    piles,
                    *column,
                    &entities,
                    (sweep, stagger),
                    &place,
                );
                plan.cursor += sweep + stagger * (entities.len() - 1) as f32;
            }
            Event::Won => {
                plan.sound(plan.cursor, Sfx::Win, 1.0);
                plan.celebrate_at = Some(plan.cursor);
            }
        }
    }
    // Keep CardView in step with the piles.
    let shape = piles.shape();
    for (e, pile, index) in piles.placed() {
        if let Ok((_, mut view, ..)) = cards.get_mut(e) {
            let face_up = match pile {
                PileId::Stock => false,
                PileId::Column(c) => index >= shape.columns[c as usize].1,
                PileId::Foundation(_) => true,
            };
            let new = CardView {
                card: view.card,
                pile,
                index,
                face_up,
            };
            if *view != new {
                *view = new;
            }
        }
    }
    // Cards whose column was squeezed or loosened glide to their new places too, and every
    // card's last leg ends where the final layout puts it.
    let layout = place(piles);
    let move_s = a.secs(a.move_ms);
    for (e, view, pose, _) in cards.iter() {
        let rest = rest_pose(&layout, &shape, view);
        match plan.segments.get_mut(&e) {
            Some(segs) => {
                if let Some(last) = segs.iter_mut().max_by(|x, y| x.start.total_cmp(&y.start)) {
                    last.to = rest.translation;
                    if last.face.is_some() {
                        last.face = Some(rest.face_shown);
                    }
                }
            }
            // Any difference, however small: a column's fan can change by less than a pixel,
            // and the card must still end exactly where the layout puts it.
            None if pose.translation != rest.translation || pose.face_shown != rest.face_shown => {
                let face = (pose.face_shown != rest.face_shown).then_some(rest.face_shown);
                plan.segments.entry(e).or_default().push(Segment {
                    start: 0.0,
                    secs: move_s,
                    to: rest.translation,
                    face,
                    lift: false,
                    kind: SegmentKind::Glide,
                });
            }
            None => {}
        }
    }
    if let Some(at) = plan.celebrate_at
        && a.celebration
    {
        plan_celebration(&mut plan, at, piles, &layout, a);
    }
    (plan, layout)
}

/// Puts `cards` on top of `column` and plans their glide there, one after another.
fn stack_on(
    plan: &mut Plan,
    piles: &mut Piles,
    column: u8,
    cards: &[Entity],
    (secs, stagger): (f32, f32),
    place: &dyn Fn(&Piles) -> Layout,
) {
    let base = piles.columns[column as usize].len();
    piles.columns[column as usize].extend(cards);
    let layout = place(piles);
    let shape = piles.shape();
    for (k, &e) in cards.iter().enumerate() {
        let to = layout.position(&shape, PileId::Column(column), base + k);
        plan.glide(e, plan.cursor + k as f32 * stagger, secs, to, None);
    }
}

/// The win cascade: the runs leave the foundation one card at a time, each thrown sideways
/// and bouncing along the bottom of the window, then everything is back on the foundation.
fn plan_celebration(
    plan: &mut Plan,
    at: f32,
    piles: &Piles,
    layout: &Layout,
    a: &AnimationSettings,
) {
    let total = a.secs(a.celebration_ms);
    // Each card with its resting place on the foundation, where it lands after its flight.
    // (Taken from the layout: cards of runs completed earlier have no other leg to read it
    // from, and used to land in the middle of the table.)
    let shape = piles.shape();
    let cards: Vec<(Entity, Vec3)> = piles
        .foundations
        .iter()
        .enumerate()
        .rev()
        .flat_map(|(slot, run)| {
            run.iter()
                .enumerate()
                .rev()
                .map(move |(i, &e)| (e, (slot, i)))
        })
        .map(|(e, (slot, i))| {
            (
                e,
                layout.position(&shape, PileId::Foundation(slot as u8), i),
            )
        })
        .collect();
    if cards.is_empty() || total <= 0.0 {
        return;
    }
    let flight = (total * 0.45).max(0.3);
    let stagger = (total - flight) / cards.len() as f32;
    // The cards bounce along the bottom row, above the bar.
    let floor = layout.foundation.y;
    for (k, &(e, rest)) in cards.iter().enumerate() {
        let h = ((k * 2_654_435_761) % 1000) as f32 / 1000.0;
        let dir = if k % 2 == 0 { 1.0 } else { -1.0 };
        let velocity = Vec2::new(dir * (180.0 + 260.0 * h), 250.0 + 350.0 * h);
        let start = at + k as f32 * stagger;
        plan.segments.entry(e).or_default().push(Segment {
            start,
            secs: flight,
            to: rest,
            face: None,
            lift: true,
            kind: SegmentKind::Thrown { velocity, floor },
        });
    }
}

/// Turns a plan into one tween sequence per card, and queues its sounds.
fn commit(
    commands: &mut Commands,
    plan: Plan,
    a: &AnimationSettings,
    sounds: &mut PendingSounds,
    cards: &mut Query<(Entity, &mut CardView, &mut CardPose, Has<TweenAnim>)>,
) {
    for (e, mut segs) in plan.segments {
        segs.sort_by(|x, y| x.start.total_cmp(&y.start));
        match cards.get_mut(e) {
            Ok((_, _, mut pose, _)) => {
                if let Some(anim) = realize(&mut pose, &segs, a) {
                    commands.entity(e).insert(anim);
                }
            }
            // Spawned by this system: the card is still in the command queue, so its legs are
            // realized once the spawn has been applied.
            Err(_) => {
                let a = a.clone();
                commands.queue(move |world: &mut World| {
                    let Some(mut pose) = world.get_mut::<CardPose>(e) else {
                        return;
                    };
                    if let Some(anim) = realize(&mut pose, &segs, &a) {
                        world.entity_mut(e).insert(anim);
                    }
                });
            }
        }
    }
    if !a.instant {
        sounds.0.extend(plan.sounds);
    }
}

/// A card's planned legs made real: with instant motion the card jumps to where the last leg
/// ends; otherwise the legs become one tween sequence.
fn realize(pose: &mut CardPose, segs: &[Segment], a: &AnimationSettings) -> Option<TweenAnim> {
    if a.instant {
        if let Some(last) = segs.last() {
            pose.translation = last.to;
            pose.flip = 1.0;
            if let Some(face) = segs.iter().rev().find_map(|s| s.face) {
                pose.face_shown = face;
            }
        }
        return None;
    }
    build(*pose, segs, a.easing.function())
}

fn build(pose: CardPose, segs: &[Segment], ease: EaseFunction) -> Option<TweenAnim> {
    let mut parts: Vec<BoxedTweenable> = Vec::new();
    let mut t = 0.0f32;
    let mut from = pose.translation;
    let mut face = pose.face_shown;
    for seg in segs {
        let start = seg.start.max(t);
        if start > t + 1e-4 {
            parts.push(Delay::new(Duration::from_secs_f32(start - t)).into());
        }
        let secs = seg.secs.max(0.001);
        let to_face = seg.face.unwrap_or(face);
        let tween = match seg.kind {
            SegmentKind::Glide => Tween::new(
                ease,
                Duration::from_secs_f32(secs),
                CardLens {
                    from,
                    to: seg.to,
                    faces: (face, to_face),
                    flip: seg.face.is_some() && to_face != face,
                    lift: seg.lift,
                },
            ),
            SegmentKind::Thrown { velocity, floor } => Tween::new(
                EaseFunction::Linear,
                Duration::from_secs_f32(secs),
                ThrownLens {
                    from,
                    to: seg.to,
                    velocity,
                    floor,
                    secs,
                },
            ),
        };
        parts.push(tween.into());
        t = start + secs;
        from = seg.to;
        face = to_face;
    }
    (!parts.is_empty()).then(|| TweenAnim::new(Sequence::new(parts)))
}

/// A glide from `from` to `to`, lifted above the table in flight, optionally flipping over.
#[derive(Clone, Copy, Debug)]
pub struct CardLens {
    /// Start.
    pub from: Vec3,
    /// End (its z is the resting z).
    pub to: Vec3,
    /// Side shown at the start and at the end.
    pub faces: (bool, bool),
    /// Whether to show the flip (scale through zero).
    pub flip: bool,
    /// Whether the card rises above the others while moving.
    pub lift: bool,
}

impl Lens<CardPose> for CardLens {
    fn lerp(&mut self, mut pose: Mut<CardPose>, ratio: f32) {
        let done = ratio >= 1.0;
        let mut p = self.from.lerp(self.to, ratio);
        p.z = if done {
            self.to.z
        } else if self.lift {
            z::LIFT + self.to.z
        } else {
            self.to.z.max(self.from.z)
        };
        let r = ratio.clamp(0.0, 1.0);
        let (flip, face_shown) = if self.flip && !done {
            let side = if r < 0.5 { self.faces.0 } else { self.faces.1 };
            ((1.0 - 2.0 * r).abs().max(0.02), side)
        } else {
            (1.0, self.faces.1)
        };
        *pose = CardPose {
            translation: p,
            flip,
            face_shown,
        };
    }
}

/// A card thrown from `from` with `velocity` (pixels per second), falling and bouncing on
/// `floor`; at the end it is back at `to`.
#[derive(Clone, Copy, Debug)]
pub struct ThrownLens {
    /// Start.
    pub from: Vec3,
    /// Where the card rests afterwards.
    pub to: Vec3,
    /// Initial velocity.
    pub velocity: Vec2,
    /// y of the bounce.
    pub floor: f32,
    /// Flight time in seconds.
    pub secs: f32,
}

const GRAVITY: f32 = 1400.0;

impl Lens<CardPose> for ThrownLens {
    fn lerp(&mut self, mut pose: Mut<CardPose>, ratio: f32) {
        if ratio >= 1.0 {
            pose.translation = self.to;
            pose.flip = 1.0;
            return;
        }
        let mut t = ratio * self.secs;
        let x = self.from.x + self.velocity.x * t;
        let (mut y0, mut vy) = (self.from.y, self.velocity.y);
        for _ in 0..16 {
            // Time until y reaches the floor: y0 + vy t - g t^2 / 2 = floor.
            let disc = vy * vy + 2.0 * GRAVITY * (y0 - self.floor).max(0.0);
            let hit = (vy + disc.sqrt()) / GRAVITY;
            if t < hit {
                break;
            }
            t -= hit;
            vy = (vy - GRAVITY * hit).abs() * 0.72;
            y0 = self.floor;
        }
        let y = y0 + vy * t - GRAVITY * t * t / 2.0;
        pose.translation = Vec3::new(x, y.max(self.floor), z::LIFT + 100.0 + ratio);
        pose.flip = 1.0;
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
                kind: SegmentKind::Glide,
            }];
            if let Some(anim) = build(*pose, &segs, a.easing.function()) {
                commands.entity(e).insert(anim);
            }
        }
    }
}

fn cue_sounds(
    time: Res<Time>,
    mut pending: ResMut<PendingSounds>,
    mut out: MessageWriter<PlaySfx>,
) {
    let dt = time.delta_secs();
    pending.0.retain_mut(|(at, sfx)| {
        *at -= dt;
        if *at <= 0.0 {
            out.write(*sfx);
            false
        } else {
            true
        }
    });
}

/// Cards the player clicked that have nothing to do: they shake briefly where they rest
/// (with the refusal's sound), so a click is never met with nothing.
#[derive(Message, Clone, Debug, PartialEq)]
pub struct Shake(pub Vec<Entity>);

fn shake(
    mut commands: Commands,
    mut shakes: MessageReader<Shake>,
    settings: Res<Settings>,
    cards: Query<(&CardPose, Has<TweenAnim>)>,
) {
    let a = &settings.animation;
    for Shake(entities) in shakes.read() {
        if a.instant {
            continue;
        }
        for &e in entities {
            // A card already in motion is not shaken (no card is moved by two tweens).
            let Ok((pose, false)) = cards.get(e) else {
                continue;
            };
            let rest = pose.translation;
            let leg = a.secs(40).max(0.01);
            let segs: Vec<Segment> = [5.0, -5.0, 3.0, 0.0]
                .iter()
                .enumerate()
                .map(|(k, dx)| Segment {
                    start: k as f32 * leg,
                    secs: leg,
                    to: rest + Vec3::X * dx,
                    face: None,
                    lift: false,
                    kind: SegmentKind::Glide,
                })
                .collect();
            if let Some(anim) = build(*pose, &segs, EaseFunction::SineInOut) {
                commands.entity(e).insert(anim);
            }
        }
    }
}

/// The cascade is over once nothing moves: the table takes clicks again and the win message
/// can show (before, the flag waited for a click that nothing asked for).
fn end_celebration(mut celebrating: ResMut<Celebrating>, anims: Query<(), With<TweenAnim>>) {
    if celebrating.0 && anims.is_empty() {
        celebrating.0 = false;
    }
}

/// Shows the pose: position, flip squash, and which side is up (`CardSide` children).
fn pose_to_transform(mut cards: Query<(&CardPose, &mut Transform), Changed<CardPose>>) {
    for (pose, mut transform) in &mut cards {
        transform.translation = pose.translation;
        transform.scale.x = pose.flip;
    }
}

/// The world position of the pointer, if it is in the window.
pub fn pointer(window: &Window) -> Option<Vec2> {
    let p = window.cursor_position()?;
    Some(Vec2::new(
        p.x - window.width() / 2.0,
        window.height() / 2.0 - p.y,
    ))
}
