//! Pro Spider 10's engine events turned into motion: each event moves its entities between the
//! view's piles and plans their legs and sound cues; at the end of a batch every card's last leg
//! ends where the final layout puts it.
use std::collections::HashMap;

use arachne_engine::phase10::{Card, Event};
use bevy::prelude::*;
use bevy_tweening::TweenAnim;

use crate::GameKind;
use crate::audio::cues::Sfx;
use crate::cards::motion::{CardPose, Plan, Segment, SegmentKind};
use crate::core::settings::Motion;
use crate::phase10::layout::{P10Layout, P10Shape, Place};
use crate::phase10::round::{P10Table, PLAYER};
use crate::phase10::view::{P10Card, P10Piles, Selection, face_up_at, rest_pose};

/// The player's hand in the order the settings choose: by value (then colour) or by colour
/// (then value); jokers, then skips, at the right.
pub fn sort_hand(piles: &mut P10Piles, by_colour: bool) {
    let cards = piles.cards.clone();
    let key = |e: &Entity| {
        let c = cards.get(e).copied().unwrap_or(Card::SKIP);
        match (c.colour(), c.value()) {
            (Some(colour), Some(v)) if by_colour => (0, colour as u8, v),
            (Some(colour), Some(v)) => (0, v, colour as u8),
            _ => (1, c.index() as u8, 0),
        }
    };
    if let Some(hand) = piles.hands.get_mut(PLAYER) {
        hand.sort_by_key(key);
    }
}

/// Each laid group's entities in the engine's order (a hit at a run's low end goes first).
pub(crate) fn order_groups(piles: &mut P10Piles, table: &P10Table) {
    for (seat, groups) in table.game.laid().iter().enumerate() {
        for (g, group) in groups.iter().enumerate() {
            let Some(list) = piles.groups.get_mut(seat).and_then(|s| s.get_mut(g)) else {
                continue;
            };
            let mut left = std::mem::take(list);
            for &card in group.cards() {
                let i = left
                    .iter()
                    .position(|e| piles.cards.get(e) == Some(&card))
                    .unwrap_or(0);
                if i < left.len() {
                    list.push(left.remove(i));
                }
            }
            list.extend(left);
        }
    }
}

/// Spawns a card face down at `at`; its place and side are set when the batch settles. (A
/// card dealt from the stock is spawned as any card: it takes on its card when drawn.)
pub(crate) fn spawn_card(commands: &mut Commands, card: Card, at: Vec3) -> Entity {
    commands
        .spawn((
            P10Card {
                card,
                place: Place::Stock(0),
                face_up: false,
            },
            CardPose {
                translation: at,
                flip: 1.0,
                face_shown: false,
            },
            Transform::from_translation(at),
            Visibility::default(),
            DespawnOnExit(GameKind::ProSpider10),
        ))
        .id()
}

/// Takes an entity showing `card` out of `hand`: the first of `prefer` that is in the hand and
/// shows it (the card the player acted with, not its twin; it is used up), else the last such
/// (a computer's hand holds its cards in no particular order).
fn take_card(
    hand: &mut Vec<Entity>,
    cards: &HashMap<Entity, Card>,
    card: Card,
    prefer: &mut Vec<Entity>,
) -> Option<Entity> {
    let shows = |e: &Entity| cards.get(e) == Some(&card);
    if let Some(k) = prefer.iter().position(|e| shows(e) && hand.contains(e)) {
        let e = prefer.remove(k);
        hand.retain(|&x| x != e);
        return Some(e);
    }
    let i = hand.iter().rposition(shows)?;
    Some(hand.remove(i))
}

/// Applies one event to the piles and plans its motion.
pub(crate) fn plan_event(
    plan: &mut Plan,
    piles: &mut P10Piles,
    commands: &mut Commands,
    table: &P10Table,
    layout: &P10Layout,
    a: &crate::core::settings::AnimationSettings,
    event: &Event,
    prefer: &mut Vec<Entity>,
) {
    let n = table.spec.players;
    let move_s = a.secs(a.move_ms);
    let lay_stagger = a.secs(a.move_stagger_ms);
    let deal_s = a.secs(a.deal_ms);
    let stagger = a.secs(a.initial_deal_stagger_ms);
    match event {
        Event::RoundStarted { .. } => {
            piles.hands = vec![Vec::new(); n];
            piles.groups = vec![Vec::new(); n];
            piles.skips = vec![None; n];
            piles.revealed = false;
            // The whole deck waits on the stock; the deal takes from its top.
            let deck = arachne_engine::phase10::Card::deck().len();
            let shape = P10Shape {
                hands: vec![0; n],
                groups: vec![Vec::new(); n],
                stock: deck,
                discard: 0,
            };
            piles.stock = (0..deck)
                .map(|i| {
                    spawn_card(
                        commands,
                        Card::SKIP,
                        layout.position(&shape, Place::Stock(i)),
                    )
                })
                .collect();
        }
        Event::Dealt { seat, card } => {
            let Some(e) = piles.stock.pop() else { return };
            piles.cards.insert(e, *card);
            piles.hands[*seat].push(e);
            let i = piles.hands[*seat].len() - 1;
            let to = layout.position(&piles.shape(), Place::Hand(*seat, i));
            plan.glide(
                e,
                Motion::Deal,
                plan.cursor,
                deal_s,
                to,
                Some(*seat == PLAYER),
            );
            let pitch = 0.9 + 0.2 * ((piles.stock.len() * 7) % 5) as f32 / 4.0;
            plan.sound(plan.cursor, Sfx::Deal, pitch);
            plan.cursor += stagger;
        }
        Event::UpCard(card) => {
            let Some(e) = piles.stock.pop() else { return };
            piles.cards.insert(e, *card);
            piles.discard.push(e);
            let to = layout.position(&piles.shape(), Place::Discard(piles.discard.len() - 1));
            plan.cursor += deal_s;
            plan.glide(e, Motion::Move, plan.cursor, move_s, to, Some(true));
            plan.sound(plan.cursor, Sfx::Flip, 1.0);
            plan.cursor += move_s;
        }
        Event::DrewStock { seat, card } => {
            let Some(e) = piles.stock.pop() else { return };
            piles.cards.insert(e, *card);
            to_hand(plan, piles, layout, e, *seat, move_s, Sfx::Deal);
        }
        Event::DrewDiscard { seat, card } | Event::Knocked { seat, card } => {
            let Some(e) = piles.discard.pop() else { return };
            piles.cards.insert(e, *card);
            to_hand(plan, piles, layout, e, *seat, move_s, Sfx::Pick);
        }
        Event::Laid { seat, groups, .. } => {
            let mut laid = Vec::new();
            for group in groups {
                let entities: Vec<Entity> = group
                    .cards()
                    .iter()
                    .filter_map(|&card| {
                        take_card(&mut piles.hands[*seat], &piles.cards, card, prefer)
                    })
                    .collect();
                laid.push(entities);
            }
            piles.groups[*seat] = laid;
            let shape = piles.shape();
            let mut k = 0;
            for (g, group) in piles.groups[*seat].iter().enumerate() {
                for (i, &e) in group.iter().enumerate() {
                    let to = layout.position(&shape, Place::Group(*seat, g, i));
                    plan.glide(
                        e,
                        Motion::Move,
                        plan.cursor + k as f32 * lay_stagger,
                        move_s,
                        to,
                        Some(true),
                    );
                    k += 1;
                }
            }
            plan.sound(plan.cursor + move_s * 0.8, Sfx::RunCompleted, 1.0);
            plan.cursor += move_s + k as f32 * lay_stagger;
        }
        Event::Hit {
            seat,
            target,
            group,
            card,
        } => {
            let Some(e) = take_card(&mut piles.hands[*seat], &piles.cards, card.card, prefer)
            else {
                return;
            };
            let Some(list) = piles
                .groups
                .get_mut(*target)
                .and_then(|s| s.get_mut(*group))
            else {
                return;
            };
            list.push(e);
            let i = list.len() - 1;
            // The final place (a run's low end, for one) is set once the groups are in order.
            let to = layout.position(&piles.shape(), Place::Group(*target, *group, i));
            plan.glide(e, Motion::Move, plan.cursor, move_s, to, Some(true));
            plan.sound(plan.cursor + move_s * 0.85, Sfx::Drop, 1.0);
            plan.cursor += move_s * 0.7;
        }
        Event::Discarded { seat, card } => {
            let Some(e) = take_card(&mut piles.hands[*seat], &piles.cards, *card, prefer) else {
                return;
            };
            piles.discard.push(e);
            let to = layout.position(&piles.shape(), Place::Discard(piles.discard.len() - 1));
            plan.glide(e, Motion::Move, plan.cursor, move_s, to, Some(true));
            plan.sound(plan.cursor + move_s * 0.85, Sfx::Drop, 0.95);
            plan.cursor += move_s * 0.8;
        }
        Event::SkipPlaced { seat, target } => {
            let Some(e) = take_card(&mut piles.hands[*seat], &piles.cards, Card::SKIP, prefer)
            else {
                return;
            };
            piles.skips[*target] = Some(e);
            let to = layout.position(&piles.shape(), Place::Skip(*target));
            plan.glide(e, Motion::Move, plan.cursor, move_s * 1.4, to, Some(true));
            plan.sound(plan.cursor + move_s * 0.2, Sfx::Skip, 1.0);
            plan.cursor += move_s * 1.2;
        }
        Event::SkipServed { seat, up_card } => {
            plan.sound(plan.cursor, Sfx::Skip, 0.8);
            if *up_card {
                // The up-card skip stays on the pile.
                return;
            }
            let Some(e) = piles.skips[*seat].take() else {
                return;
            };
            piles.discard.insert(0, e);
            let to = layout.position(&piles.shape(), Place::Discard(0));
            plan.glide(e, Motion::Move, plan.cursor, move_s, to, Some(true));
            plan.cursor += move_s;
        }
        Event::Reshuffled { .. } => {
            let Some(top) = piles.discard.pop() else {
                return;
            };
            let rest = std::mem::take(&mut piles.discard);
            piles.discard.push(top);
            // The engine's new stock order is unknown to the view: each card takes on its card
            // when it is drawn.
            let base = piles.stock.len();
            piles.stock.extend(rest.iter().copied());
            let shape = piles.shape();
            // 10 ms apart at speed 1, closer at a higher speed.
            let stagger = a.secs(10);
            for (k, &e) in rest.iter().enumerate() {
                let to = layout.position(&shape, Place::Stock(base + k));
                plan.glide(
                    e,
                    Motion::Move,
                    plan.cursor + k as f32 * stagger,
                    move_s,
                    to,
                    Some(false),
                );
            }
            plan.sound(plan.cursor, Sfx::Deal, 0.7);
            plan.cursor += move_s + rest.len() as f32 * stagger;
        }
        Event::RoundEnded { .. } => {
            piles.revealed = true;
            let shape = piles.shape();
            let flip = a.secs(a.flip_ms);
            let stagger = a.secs(30);
            for seat in (0..n).filter(|&s| s != PLAYER) {
                for (i, &e) in piles.hands[seat].iter().enumerate() {
                    let to = layout.position(&shape, Place::Hand(seat, i));
                    plan.glide(
                        e,
                        Motion::Flip,
                        plan.cursor + i as f32 * stagger,
                        flip,
                        to,
                        Some(true),
                    );
                }
            }
            // A replay showing every hand has them face up already: nothing turns over.
            if !piles.show_all {
                plan.sound(plan.cursor, Sfx::Flip, 1.0);
            }
            plan.cursor += flip;
        }
        Event::PhaseAdvanced { .. } => {}
        Event::GameWon { winners } => {
            let won = winners.contains(&PLAYER);
            plan.sound(plan.cursor, if won { Sfx::Win } else { Sfx::Lost }, 1.0);
            if won && a.celebration {
                // The player's win (unless the settings turn the cascade off): every laid
                // group and the player's own cards leap up one after another and bounce along
                // the hand's row, landing back where they lie.
                let shape = piles.shape();
                let mut thrown = Vec::new();
                for (seat, groups) in piles.groups.iter().enumerate() {
                    for (g, group) in groups.iter().enumerate() {
                        for (i, &e) in group.iter().enumerate() {
                            thrown.push((e, layout.position(&shape, Place::Group(seat, g, i))));
                        }
                    }
                }
                for (i, &e) in piles.hands[PLAYER].iter().enumerate() {
                    thrown.push((e, layout.position(&shape, Place::Hand(PLAYER, i))));
                }
                let floor = layout.seats[PLAYER].hand.y;
                plan.cascade(plan.cursor, &thrown, floor, a);
            }
        }
    }
}

/// A card drawn into `seat`'s hand: the player's turns face up on its way, a computer's face
/// down.
fn to_hand(
    plan: &mut Plan,
    piles: &mut P10Piles,
    layout: &P10Layout,
    e: Entity,
    seat: usize,
    secs: f32,
    sfx: Sfx,
) {
    piles.hands[seat].push(e);
    let i = piles.hands[seat].len() - 1;
    let to = layout.position(&piles.shape(), Place::Hand(seat, i));
    plan.glide(e, Motion::Move, plan.cursor, secs, to, Some(seat == PLAYER));
    plan.sound(plan.cursor, sfx, 1.0);
    plan.sound(plan.cursor + secs * 0.85, Sfx::Drop, 1.1);
    plan.cursor += secs * 0.8;
}

/// Every card's last leg ends where the final layout puts it; cards that only shifted (a hand
/// closing up, a group growing) glide there too. The components follow the piles.
pub(crate) fn settle_plan(
    commands: &mut Commands,
    plan: &mut Plan,
    piles: &P10Piles,
    layout: &P10Layout,
    selection: &Selection,
    cards: &mut Query<(Entity, &mut P10Card, &mut CardPose, Has<TweenAnim>)>,
    a: &crate::core::settings::AnimationSettings,
) {
    let shape = piles.shape();
    let move_s = a.secs(a.move_ms);
    let places: HashMap<Entity, Place> = piles.placed().into_iter().collect();
    for (e, place) in &places {
        let face_up = face_up_at(*place, piles.revealed || piles.show_all);
        let rest = rest_pose(layout, &shape, *place, face_up, selection.0.contains(e));
        let card = piles.cards.get(e).copied();
        let Ok((_, mut view, pose, _)) = cards.get_mut(*e) else {
            // Spawned with this batch: its component is set once the spawn is applied.
            commands.entity(*e).insert(P10Card {
                card: card.unwrap_or(Card::SKIP),
                place: *place,
                face_up,
            });
            if let Some(segs) = plan.segments.get_mut(e)
                && let Some(last) = segs.iter_mut().max_by(|x, y| x.start.total_cmp(&y.start))
            {
                last.to = rest.translation;
                if last.face.is_some() {
                    last.face = Some(rest.face_shown);
                }
            }
            continue;
        };
        {
            let new = P10Card {
                card: card.unwrap_or(view.card),
                place: *place,
                face_up,
            };
            if *view != new {
                *view = new;
            }
            if !plan.segments.contains_key(e)
                && (pose.translation != rest.translation || pose.face_shown != rest.face_shown)
            {
                let face = (pose.face_shown != rest.face_shown).then_some(rest.face_shown);
                plan.segments.entry(*e).or_default().push(Segment {
                    start: 0.0,
                    secs: move_s,
                    to: rest.translation,
                    face,
                    lift: false,
                    kind: SegmentKind::Glide(Motion::Move),
                });
                continue;
            }
        }
        if let Some(segs) = plan.segments.get_mut(e)
            && let Some(last) = segs.iter_mut().max_by(|x, y| x.start.total_cmp(&y.start))
        {
            last.to = rest.translation;
            if last.face.is_some() {
                last.face = Some(rest.face_shown);
            }
        }
    }
}
