//! Motion shared by both games: a card's pose, the legs of its planned motion turned into one
//! tween sequence, the lenses that draw a glide, a flip and a thrown card, the shake of a
//! refused click, and the speed scale of the replay viewer. A game plans legs from its engine's
//! events ([`Plan`]) and hands them to [`commit`]; everything after that is here.
use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use bevy::prelude::*;
use bevy_tweening::{BoxedTweenable, Delay, Lens, Sequence, Tween, TweenAnim};

use crate::AppSystems;
use crate::audio::cues::{PendingSounds, PlaySfx, Sfx};
use crate::core::settings::{AnimationSettings, Motion, Settings};

/// Added to the z of a moving or dragged card, so that it passes over every resting one.
pub const LIFT: f32 = 300.0;

pub(crate) fn plugin(app: &mut App) {
    app.init_resource::<MotionScale>()
        .init_resource::<Celebrating>()
        .add_message::<Shake>()
        .add_message::<crate::cards::samples::PlaySample>()
        .add_systems(
            Update,
            (shake, end_celebration).chain().in_set(AppSystems::Motion),
        )
        .add_systems(
            Update,
            pose_to_transform.after(bevy_tweening::AnimationSystem::AnimationUpdate),
        );
}

/// What the card looks like now; animations drive this, `pose_to_transform` shows it.
#[derive(Component, Clone, Copy, Debug, PartialEq)]
#[component(clone_behavior = Ignore)]
pub struct CardPose {
    /// Position (z orders the cards).
    pub translation: Vec3,
    /// Horizontal scale during a flip (1 at rest).
    pub flip: f32,
    /// Which side is showing.
    pub face_shown: bool,
}

/// Marks the cards of the win celebration (a click skips it).
#[derive(Resource, Default, Debug)]
pub struct Celebrating(pub bool);

/// Speeds all motion up (or down) on top of the settings: the replay viewer's speed.
#[derive(Resource, Debug, Clone, Copy, PartialEq)]
#[component(clone_behavior = Ignore)]
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

/// One leg of a card's motion.
#[derive(Clone, Copy, Debug)]
pub struct Segment {
    /// Seconds from the start of the plan.
    pub start: f32,
    /// How long the leg takes.
    pub secs: f32,
    /// Where it ends.
    pub to: Vec3,
    /// The side shown at the end, if the leg turns the card.
    pub face: Option<bool>,
    /// Whether the card rises above the others on its way.
    pub lift: bool,
    /// How it gets there.
    pub kind: SegmentKind,
}

#[derive(Clone, Copy, Debug)]
pub enum SegmentKind {
    /// Eased from the start to the end, on the curve of its kind of motion.
    Glide(Motion),
    /// The win cascade: thrown with this velocity, bouncing on the window's floor.
    Thrown { velocity: Vec2, floor: f32 },
}

/// Motion and sound for a batch of events.
#[derive(Default)]
pub struct Plan {
    /// Each moving card's legs.
    pub segments: HashMap<Entity, Vec<Segment>>,
    /// Where the next event's motion starts, seconds from now.
    pub cursor: f32,
    /// Sounds, each at its moment.
    pub sounds: Vec<(f32, PlaySfx)>,
    /// When the win celebration begins, if the batch wins.
    pub celebrate_at: Option<f32>,
}

impl Plan {
    /// A lifted glide of `e` to `to` (motion of kind `motion`), turning to `face` if given.
    pub fn glide(
        &mut self,
        e: Entity,
        motion: Motion,
        start: f32,
        secs: f32,
        to: Vec3,
        face: Option<bool>,
    ) {
        self.segments.entry(e).or_default().push(Segment {
            start,
            secs,
            to,
            face,
            lift: true,
            kind: SegmentKind::Glide(motion),
        });
    }

    /// The win cascade from `at`: `cards` leave one at a time over `celebration_ms`, each
    /// thrown sideways and bouncing along `floor`, and land back where they rest.
    pub fn cascade(
        &mut self,
        at: f32,
        cards: &[(Entity, Vec3)],
        floor: f32,
        a: &AnimationSettings,
    ) {
        let total = a.secs(a.celebration_ms);
        if cards.is_empty() || total <= 0.0 {
            return;
        }
        let flight = (total * 0.45).max(0.3);
        let stagger = (total - flight) / cards.len() as f32;
        for (k, &(e, rest)) in cards.iter().enumerate() {
            let h = ((k as u64).wrapping_mul(2_654_435_761) % 1000) as f32 / 1000.0;
            let dir = if k % 2 == 0 { 1.0 } else { -1.0 };
            let velocity = Vec2::new(dir * (180.0 + 260.0 * h), 250.0 + 350.0 * h);
            self.segments.entry(e).or_default().push(Segment {
                start: at + k as f32 * stagger,
                secs: flight,
                to: rest,
                face: None,
                lift: true,
                kind: SegmentKind::Thrown { velocity, floor },
            });
        }
    }

    /// A sound at `at` seconds.
    pub fn sound(&mut self, at: f32, sfx: Sfx, pitch: f32) {
        self.sounds.push((at, PlaySfx { sfx, pitch }));
    }
}

/// Turns a plan into one tween sequence per card (once the commands are applied: cards spawned
/// with the plan get their legs too), and queues its sounds.
pub fn commit(
    commands: &mut Commands,
    plan: Plan,
    a: &AnimationSettings,
    sounds: &mut PendingSounds,
) {
    let shared = Arc::new(a.clone());
    for (e, mut segs) in plan.segments {
        segs.sort_by(|x, y| x.start.total_cmp(&y.start));
        let a = Arc::clone(&shared);
        commands.queue(move |world: &mut World| {
            let Some(mut pose) = world.get_mut::<CardPose>(e) else {
                return;
            };
            if let Some(anim) = realize(&mut pose, &segs, &a) {
                world.entity_mut(e).insert(anim);
            }
        });
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
    build(*pose, segs, a)
}

/// The legs as one tween sequence from `pose` (delays fill the gaps; each glide on its
/// motion's curve in `a`), `None` without legs.
pub fn build(pose: CardPose, segs: &[Segment], a: &AnimationSettings) -> Option<TweenAnim> {
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
            SegmentKind::Glide(motion) => Tween::new(
                a.easing_of(motion).function(),
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
            LIFT + self.to.z
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
        pose.translation = Vec3::new(x, y.max(self.floor), LIFT + 100.0 + ratio);
        pose.flip = 1.0;
    }
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
                    kind: SegmentKind::Glide(Motion::Shake),
                })
                .collect();
            if let Some(anim) = build(*pose, &segs, a) {
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
pub(crate) fn pose_to_transform(mut cards: Query<(&CardPose, &mut Transform), Changed<CardPose>>) {
    for (pose, mut transform) in &mut cards {
        transform.translation = pose.translation;
        transform.scale.x = pose.flip;
    }
}
