//! Samples for the animation tuner: a motion played on the cards of the table with the current
//! settings (a move, a run sweep, a lay, a deal, a flip, the win cascade), slowed down if
//! asked, after which every card is back where it rests. Nothing changes in the game: the
//! cards leave their places and come back. Each game picks the cards and places
//! ([`SampleCards`]); the timing is the one its real motion uses, from the same settings.
use bevy::prelude::*;

use bevy_tweening::TweenAnim;

use crate::audio::cues::{PendingSounds, Sfx};
use crate::cards::motion::{CardPose, LIFT, Plan, Segment, SegmentKind, commit, motion_settings};
use crate::core::focus::Notices;
use crate::core::i18n::t;
use crate::core::settings::{AnimationSettings, Motion, Settings};

/// A sample motion the tuner can play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SampleKind {
    /// Cards moved to another column (or the discard pile), then gliding back.
    Move,
    /// A completed run swept to the foundation, and back.
    Sweep,
    /// A phase laid out of the hand, and back (Pro Spider 10).
    Lay,
    /// Cards dealt from the stock.
    Deal,
    /// Cards turning over, and back.
    Flip,
    /// The win cascade.
    Cascade,
}

impl SampleKind {
    /// Spider's samples.
    pub const SPIDER: [SampleKind; 5] = [
        SampleKind::Move,
        SampleKind::Sweep,
        SampleKind::Deal,
        SampleKind::Flip,
        SampleKind::Cascade,
    ];
    /// Pro Spider 10's samples.
    pub const PHASE10: [SampleKind; 4] = [
        SampleKind::Move,
        SampleKind::Lay,
        SampleKind::Deal,
        SampleKind::Flip,
    ];
}

/// Play a sample on the table; `slow` divides the speed (2.0: half as fast).
#[derive(Message, Clone, Copy, Debug, PartialEq)]
pub struct PlaySample {
    /// Which motion.
    pub kind: SampleKind,
    /// How many times slower than the settings.
    pub slow: f32,
}

/// The cards (with their resting poses) and places a game offers for the samples.
#[derive(Default, Debug, Clone)]
pub struct SampleCards {
    /// Cards a move takes, in the order they leave, and where each lands.
    pub moving: Vec<(Entity, CardPose, Vec3)>,
    /// Cards a sweep (or a lay) takes, in the order they leave, and where each lands.
    pub sweeping: Vec<(Entity, CardPose, Vec3)>,
    /// Cards dealt, in order, from `deal_from`.
    pub dealt: Vec<(Entity, CardPose)>,
    /// Where dealt cards start.
    pub deal_from: Vec3,
    /// Cards turned over and back.
    pub flipped: Vec<(Entity, CardPose)>,
    /// Cards thrown by the cascade.
    pub thrown: Vec<(Entity, CardPose)>,
    /// The cascade's floor.
    pub floor: f32,
}

/// The plan of sample `kind` with settings `a`, and the poses cards take before it starts
/// (dealt cards jump to the stock first). Every card's last leg ends at its resting pose.
pub fn sample_plan(
    kind: SampleKind,
    cards: &SampleCards,
    a: &AnimationSettings,
) -> (Plan, Vec<(Entity, CardPose)>) {
    let mut plan = Plan::default();
    let mut first = Vec::new();
    // How long cards stay at the far end before they come back.
    let hold = a.secs(450);
    match kind {
        SampleKind::Move | SampleKind::Sweep | SampleKind::Lay => {
            let (list, motion, secs, stagger) = match kind {
                SampleKind::Move => (&cards.moving, Motion::Move, a.move_ms, a.move_stagger_ms),
                SampleKind::Lay => (&cards.sweeping, Motion::Move, a.move_ms, a.move_stagger_ms),
                _ => (
                    &cards.sweeping,
                    Motion::Sweep,
                    a.sweep_ms,
                    a.sweep_stagger_ms,
                ),
            };
            let (secs, stagger) = (a.secs(secs), a.secs(stagger));
            if list.is_empty() {
                return (plan, first);
            }
            let out = secs + stagger * (list.len() - 1) as f32;
            for (k, &(e, _, to)) in list.iter().enumerate() {
                plan.glide(e, motion, k as f32 * stagger, secs, to, None);
            }
            let (pick, land) = match kind {
                SampleKind::Sweep => (Sfx::RunCompleted, None),
                _ => (Sfx::Pick, Some(Sfx::Drop)),
            };
            plan.sound(0.0, pick, 1.0);
            if let Some(land) = land {
                plan.sound(out * 0.9, land, 1.0);
            }
            // Back: a move slides back as a refused drop does; a sweep or a lay comes back the
            // way an undo brings it.
            let (back_motion, back_secs, back_stagger) = match kind {
                SampleKind::Move => (Motion::SlideBack, a.secs(a.slide_back_ms), 0.0),
                _ => (motion, secs, stagger),
            };
            for (k, &(e, rest, _)) in list.iter().rev().enumerate() {
                plan.glide(
                    e,
                    back_motion,
                    out + hold + k as f32 * back_stagger,
                    back_secs,
                    rest.translation,
                    None,
                );
            }
        }
        SampleKind::Deal => {
            let (secs, stagger) = (a.secs(a.deal_ms), a.secs(a.deal_stagger_ms));
            for (k, &(e, rest)) in cards.dealt.iter().enumerate() {
                let start = k as f32 * stagger;
                first.push((
                    e,
                    CardPose {
                        translation: cards.deal_from + Vec3::Z * (LIFT + k as f32 * 0.01),
                        flip: 1.0,
                        face_shown: false,
                    },
                ));
                plan.glide(
                    e,
                    Motion::Deal,
                    start,
                    secs,
                    rest.translation,
                    Some(rest.face_shown),
                );
                plan.sound(start, Sfx::Deal, 0.9 + 0.2 * (k % 5) as f32 / 4.0);
            }
        }
        SampleKind::Flip => {
            let flip = a.secs(a.flip_ms);
            let n = cards.flipped.len() as f32;
            for (k, &(e, rest)) in cards.flipped.iter().enumerate() {
                // One after another, as a column's cards turn when the ones above them leave.
                let start = k as f32 * flip * 0.5;
                let back = n * flip * 0.5 + flip + hold + k as f32 * flip * 0.5;
                for (at, face) in [(start, !rest.face_shown), (back, rest.face_shown)] {
                    plan.segments.entry(e).or_default().push(Segment {
                        start: at,
                        secs: flip,
                        to: rest.translation,
                        face: Some(face),
                        lift: false,
                        kind: SegmentKind::Glide(Motion::Flip),
                    });
                    plan.sound(at, Sfx::Flip, 1.0);
                }
            }
        }
        SampleKind::Cascade => {
            let thrown: Vec<(Entity, Vec3)> = cards
                .thrown
                .iter()
                .map(|&(e, rest)| (e, rest.translation))
                .collect();
            plan.sound(0.0, Sfx::Win, 1.0);
            plan.cascade(0.0, &thrown, cards.floor, a);
        }
    }
    (plan, first)
}

/// What a request plays: the plan, the poses to set before it, and the settings it was
/// planned with (the player's, slowed down as asked).
pub fn prepare(
    request: PlaySample,
    settings: &Settings,
    cards: &SampleCards,
) -> (Plan, Vec<(Entity, CardPose)>, AnimationSettings) {
    let slow = request.slow.clamp(1.0, 20.0);
    let a = motion_settings(settings, 1.0 / slow).animation;
    let (plan, first) = sample_plan(request.kind, cards, &a);
    (plan, first, a)
}

/// Plays `request` on a game's cards (`cards`, filtered to that game's): refused with a notice
/// while any of them moves; else `pick` chooses the sample's cards, given each card's pose.
pub fn play<F: bevy::ecs::query::QueryFilter>(
    commands: &mut Commands,
    request: PlaySample,
    settings: &Settings,
    sounds: &mut PendingSounds,
    notices: &mut Notices,
    cards: &mut Query<(&mut CardPose, Has<TweenAnim>), F>,
    pick: impl FnOnce(&dyn Fn(Entity) -> Option<CardPose>) -> SampleCards,
) {
    if cards.iter().any(|(_, moving)| moving) {
        notices.push(t("studio.sample.busy"));
        return;
    }
    let sample = pick(&|e| cards.get(e).ok().map(|(p, _)| *p));
    let (plan, first, a) = prepare(request, settings, &sample);
    for (e, start) in first {
        if let Ok((mut pose, _)) = cards.get_mut(e) {
            *pose = start;
        }
    }
    commit(commands, plan, &a, sounds);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pose(x: f32) -> CardPose {
        CardPose {
            translation: Vec3::new(x, 0.0, 1.0),
            flip: 1.0,
            face_shown: true,
        }
    }

    #[test]
    fn every_sample_ends_each_card_where_it_rests_and_keeps_the_settings_timing() {
        let a = Settings::default().animation;
        let e = |i: u32| Entity::from_raw_u32(i + 1).unwrap();
        let cards = SampleCards {
            moving: vec![
                (e(0), pose(0.0), Vec3::X * 100.0),
                (e(1), pose(1.0), Vec3::X * 101.0),
            ],
            sweeping: vec![(e(2), pose(2.0), Vec3::Y * 50.0)],
            dealt: vec![(e(3), pose(3.0)), (e(4), pose(4.0))],
            deal_from: Vec3::new(500.0, 500.0, 0.0),
            flipped: vec![(e(5), pose(5.0))],
            thrown: vec![(e(6), pose(6.0))],
            floor: -100.0,
        };
        let rests: std::collections::HashMap<Entity, Vec3> = [
            (e(0), 0.0),
            (e(1), 1.0),
            (e(2), 2.0),
            (e(3), 3.0),
            (e(4), 4.0),
            (e(5), 5.0),
            (e(6), 6.0),
        ]
        .into_iter()
        .map(|(e, x)| (e, pose(x).translation))
        .collect();
        for kind in [
            SampleKind::Move,
            SampleKind::Sweep,
            SampleKind::Lay,
            SampleKind::Deal,
            SampleKind::Flip,
            SampleKind::Cascade,
        ] {
            let (plan, first) = sample_plan(kind, &cards, &a);
            assert!(!plan.segments.is_empty(), "{kind:?}");
            for (e, segs) in &plan.segments {
                let last = segs
                    .iter()
                    .max_by(|x, y| x.start.total_cmp(&y.start))
                    .unwrap();
                assert_eq!(last.to, rests[e], "{kind:?}");
            }
            assert_eq!(first.is_empty(), kind != SampleKind::Deal);
        }
        // The move's first leg takes move_ms, the second card leaves a stagger later.
        let (plan, _) = sample_plan(SampleKind::Move, &cards, &a);
        let leg = plan.segments[&e(1)][0];
        assert_eq!(leg.secs, a.secs(a.move_ms));
        assert_eq!(leg.start, a.secs(a.move_stagger_ms));
        // Twice as slow: every leg twice as long.
        let mut slow = a.clone();
        slow.speed /= 2.0;
        let (plan, _) = sample_plan(SampleKind::Deal, &cards, &slow);
        assert!((plan.segments[&e(3)][0].secs - 2.0 * a.secs(a.deal_ms)).abs() < 1e-6);
    }
}
