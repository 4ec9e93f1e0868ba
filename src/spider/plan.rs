//! Spider's engine events turned into motion: the deal of a new game card by card, moves,
//! flips, deals from the stock, completed runs sweeping to the foundation, undo, and the win
//! cascade. Each batch becomes a [`Plan`] of legs and sound cues.
use arachne_engine::{Card, Event};
use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use bevy_tweening::TweenAnim;

use crate::GameKind;
use crate::audio::cues::Sfx;
use crate::cards::motion::{CardPose, Plan, Segment, SegmentKind};
use crate::cards::pointer::window_size;
use crate::core::settings::{AnimationSettings, Motion, Settings};
use crate::spider::layout::{Layout, PileId, TableShape, z};
use crate::spider::piles::{CardView, Piles, rest_pose};
use crate::spider::table::Table;

/// Spawns the cards of a new game at the stock and plans the initial deal (or, without `deal`,
/// spawns every card where it rests); returns the plan and the layout of the dealt table.
pub(crate) fn new_game(
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
                    DespawnOnExit(GameKind::Spider),
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
            plan.glide(e, Motion::Deal, start, deal, to, up.then_some(true));
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
pub(crate) fn plan_events(
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
                stack_on(
                    &mut plan,
                    piles,
                    *to,
                    &run,
                    Motion::Move,
                    (move_s, stagger),
                    &place,
                );
                // A little before the last card lands (earlier steps of the batch not counted
                // in: an undo of a completed run once sounded as its cards set off).
                let flight = move_s + stagger * (run.len() - 1) as f32;
                plan.sound(plan.cursor + flight * 0.85, Sfx::Drop, 1.0);
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
                    kind: SegmentKind::Glide(Motion::Flip),
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
                        Motion::Deal,
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
                        Motion::Deal,
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
                    plan.glide(
                        e,
                        Motion::Sweep,
                        plan.cursor + k as f32 * stagger,
                        sweep,
                        to,
                        None,
                    );
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
                    Motion::Sweep,
                    (sweep, stagger),
                    &place,
                );
                // The run's sweep played lower, as it goes back.
                plan.sound(plan.cursor, Sfx::RunCompleted, 0.75);
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
                    kind: SegmentKind::Glide(Motion::Move),
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
    motion: Motion,
    (secs, stagger): (f32, f32),
    place: &dyn Fn(&Piles) -> Layout,
) {
    let base = piles.columns[column as usize].len();
    piles.columns[column as usize].extend(cards);
    let layout = place(piles);
    let shape = piles.shape();
    for (k, &e) in cards.iter().enumerate() {
        let to = layout.position(&shape, PileId::Column(column), base + k);
        plan.glide(e, motion, plan.cursor + k as f32 * stagger, secs, to, None);
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
    // The cards bounce along the bottom row, above the bar.
    plan.cascade(at, &cards, layout.foundation.y, a);
}
