//! A card's body and back, shared by both games: the rounded body and border, the back with
//! its pattern, the two sides shown one at a time, and the renderer check that turns
//! multisampling off when drawing in software. Render-only: headless tests leave this out.
use bevy::prelude::*;

use crate::cards::motion::{CardPose, LIFT};
use crate::cards::shapes::{
    Clipped, Shape, clip_mesh, lozenge, placed, rim_mesh, rounded_rect, shapes_mesh,
};
use crate::core::theme::{BackPattern, Theme};

pub(crate) fn plugin(app: &mut App) {
    app.add_systems(Update, fit_multisampling_to_renderer)
        .add_systems(
            Update,
            show_side.after(bevy_tweening::AnimationSystem::AnimationUpdate),
        );
}

/// Whether the adapter draws in software (Mesa's llvmpipe, SwiftShader in a browser without a
/// GPU, or any adapter that says it is the CPU).
pub fn software_renderer(info: &bevy::render::renderer::RenderAdapterInfo) -> bool {
    let name = info.name.to_lowercase();
    // wgpu's DeviceType is not re-exported by Bevy: its name will do.
    format!("{:?}", info.device_type) == "Cpu"
        || ["llvmpipe", "swiftshader", "softpipe"]
            .iter()
            .any(|s| name.contains(s))
}

/// Turns multisampling off on a software renderer, once the renderer is known: 4x MSAA made
/// each frame about 2.7 times slower under llvmpipe (159 against 60 ms for a dealt table), and
/// a browser without a GPU fell to about one frame a second. A GPU keeps Bevy's default.
fn fit_multisampling_to_renderer(
    info: Option<Res<bevy::render::renderer::RenderAdapterInfo>>,
    mut cameras: Query<&mut Msaa, With<Camera2d>>,
    mut done: Local<bool>,
) {
    let Some(info) = info else { return };
    if *done || cameras.is_empty() {
        return;
    }
    *done = true;
    if software_renderer(&info) {
        tracing::info!("{} draws in software: multisampling off", info.name);
        for mut msaa in &mut cameras {
            *msaa = Msaa::Off;
        }
    }
}

/// The meshes and materials every card of one size and theme shares: its body, its border and
/// its back. A game's faces are drawn on top of `inner`.
pub struct Body {
    /// Card size in pixels.
    pub size: Vec2,
    /// Corner radius in pixels.
    pub radius: f32,
    /// A face's border: the rim around `inner` (a card's pixels are drawn once, which is what
    /// a software renderer spends its time on).
    pub face_rim: Handle<Mesh>,
    /// A back's border: the rim around `back_inner`.
    pub back_rim: Handle<Mesh>,
    /// The face, inside the border.
    pub inner: Handle<Mesh>,
    /// The back's field, inside its margin.
    pub back_inner: Handle<Mesh>,
    /// The back's pattern as one mesh (none for a plain back).
    pub back_pattern: Option<Handle<Mesh>>,
    /// Face colour.
    pub face: Handle<ColorMaterial>,
    /// Face border colour.
    pub face_border: Handle<ColorMaterial>,
    /// Back colour.
    pub back: Handle<ColorMaterial>,
    /// Back pattern colour.
    pub back_accent: Handle<ColorMaterial>,
    /// Back border colour.
    pub back_border: Handle<ColorMaterial>,
}

impl Body {
    /// The body of cards of `size` in `theme`.
    pub fn new(
        size: Vec2,
        theme: &Theme,
        meshes: &mut Assets<Mesh>,
        materials: &mut Assets<ColorMaterial>,
    ) -> Body {
        let r = theme.corner_radius * size.x;
        let inset = (size.x * 0.05).max(2.0);
        let (face_r, back_r) = ((r - 1.0).max(0.0), (r - inset).max(1.0));
        let mut mat = |c: Color| materials.add(ColorMaterial::from_color(c));
        Body {
            size,
            radius: r,
            face_rim: meshes.add(rim_mesh(size, r, 1.0, face_r)),
            back_rim: meshes.add(rim_mesh(size, r, inset, back_r)),
            inner: meshes.add(rounded_rect(size - Vec2::splat(2.0), face_r)),
            back_inner: meshes.add(rounded_rect(size - Vec2::splat(2.0 * inset), back_r)),
            back_pattern: back_pattern(theme.back_pattern, size)
                .map(|p| meshes.add(shapes_mesh(&p))),
            face: mat(theme.face),
            face_border: mat(theme.face_border),
            back: mat(theme.back),
            back_accent: mat(theme.back_accent),
            back_border: mat(theme.back_border),
        }
    }

    /// Gives the body's materials `theme`'s colours (cards keep their meshes: the theme
    /// changed only colours).
    pub fn recolour(&self, theme: &Theme, materials: &mut Assets<ColorMaterial>) {
        for (handle, colour) in [
            (&self.face, theme.face),
            (&self.face_border, theme.face_border),
            (&self.back, theme.back),
            (&self.back_accent, theme.back_accent),
            (&self.back_border, theme.back_border),
        ] {
            recolour(materials, handle, colour);
        }
    }

    /// Gives card `card` its two sides: `face` (already spawned by the game) and a new back,
    /// the one `face_shown` asks for visible. Returns the sides, which the caller inserts (with
    /// whatever else it records about the dressing).
    pub fn dress(
        &self,
        commands: &mut Commands,
        card: Entity,
        face: Entity,
        face_shown: bool,
    ) -> CardSides {
        let back = self.spawn_back(commands);
        let (fv, bv) = if face_shown {
            (Visibility::Inherited, Visibility::Hidden)
        } else {
            (Visibility::Hidden, Visibility::Inherited)
        };
        commands.entity(face).insert(fv);
        commands.entity(back).insert(bv);
        commands.entity(card).add_children(&[face, back]);
        CardSides { face, back }
    }

    /// Spawns a back (hidden or shown by [`CardSides`]).
    pub fn spawn_back(&self, commands: &mut Commands) -> Entity {
        commands
            .spawn((Transform::default(), Visibility::Inherited))
            .with_children(|p| {
                p.spawn(part(
                    &self.back_rim,
                    &self.back_border,
                    Transform::default(),
                ));
                p.spawn(part(
                    &self.back_inner,
                    &self.back,
                    Transform::from_xyz(0.0, 0.0, 0.001),
                ));
                if let Some(pattern) = &self.back_pattern {
                    p.spawn(part(
                        pattern,
                        &self.back_accent,
                        Transform::from_xyz(0.0, 0.0, 0.002),
                    ));
                }
            })
            .id()
    }
}

/// The two sides of a card, shown one at a time.
#[derive(Component)]
pub struct CardSides {
    /// The face's root entity.
    pub face: Entity,
    /// The back's root entity.
    pub back: Entity,
}

/// Sets one material's colour (if it changed: a changed material is sent to the GPU again).
pub fn recolour(materials: &mut Assets<ColorMaterial>, handle: &Handle<ColorMaterial>, c: Color) {
    if materials.get(handle).is_some_and(|m| m.color != c)
        && let Some(mut m) = materials.get_mut(handle)
    {
        m.color = c;
    }
}

/// One mesh of a card's art.
pub fn part(
    mesh: &Handle<Mesh>,
    material: &Handle<ColorMaterial>,
    transform: Transform,
) -> impl Bundle {
    (
        Mesh2d(mesh.clone()),
        MeshMaterial2d(material.clone()),
        transform,
        Visibility::Inherited,
        Part(mesh.clone()),
    )
}

/// A mesh of a card's art (a child of one of its [`CardSides`]), and the whole mesh it shows
/// while no card at rest covers part of its card (see [`hide_covered`]).
#[derive(Component, Clone, Debug)]
#[component(clone_behavior = Ignore)]
pub struct Part(pub Handle<Mesh>);

/// A back's pattern for cards of `size`, as shapes: a grid of lozenges or dots.
fn back_pattern(pattern: BackPattern, size: Vec2) -> Option<Vec<Shape>> {
    let mark = match pattern {
        BackPattern::Plain => return None,
        BackPattern::Lattice => lozenge(),
        BackPattern::Dots => Shape::Circle(Vec2::ZERO, 0.5),
    };
    let (w, h) = (size.x, size.y);
    let step = (w * 0.16).max(5.0);
    let nx = ((w * 0.78) / step).floor() as i32;
    let ny = ((h * 0.84) / step).floor() as i32;
    let mut shapes = Vec::new();
    for i in 0..=nx {
        for j in 0..=ny {
            let at = Vec2::new(
                (i as f32 - nx as f32 / 2.0) * step,
                (j as f32 - ny as f32 / 2.0) * step,
            );
            shapes.extend(placed(std::slice::from_ref(&mark), at, step * 0.55, false));
        }
    }
    Some(shapes)
}

fn show_side(
    cards: Query<(&CardPose, &CardSides), Changed<CardPose>>,
    mut vis: Query<&mut Visibility>,
) {
    for (pose, sides) in &cards {
        let (f, b) = if pose.face_shown {
            (Visibility::Inherited, Visibility::Hidden)
        } else {
            (Visibility::Hidden, Visibility::Inherited)
        };
        if let Ok(mut v) = vis.get_mut(sides.face) {
            v.set_if_neq(f);
        }
        if let Ok(mut v) = vis.get_mut(sides.back) {
            v.set_if_neq(b);
        }
    }
}

/// How much of a card the card next to it in its stack covers, at rest.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Cover {
    /// All of it: the other card lies right on it.
    Whole,
    /// All but where `n . p >= c` (in the card's own frame, `n` along one of its axes).
    Beyond { n: Vec2, c: f32 },
}

/// How far apart (pixels, radians, scale) two cards at rest may lie and still count as lying
/// exactly so: at rest they are exact (one column's x, a flip ended at 1), so this only absorbs
/// rounding, far below a pixel.
const EXACT: f32 = 0.01;

/// What covers what in `stacks`: of a card and the one next to it in its stack (in either
/// order), both dressed (`at` gives no place for a card that shows nothing) and at rest (below
/// [`LIFT`], where flying and dragged cards go; flat, not turning, unscaled, not turned), the
/// one drawn above covers the other. Right on it, it covers the card whole; shifted along one of
/// the card's axes by less than the card, it covers all but a strip. The strip reaches a corner
/// radius and a pixel past the upper card's edge (its rounded corners leave the lower card
/// showing there), rounded down to a whole pixel.
fn covers<'a>(
    stacks: impl Iterator<Item = &'a [Entity]>,
    at: impl Fn(Entity) -> Option<Transform>,
    size: Vec2,
    radius: f32,
) -> bevy::ecs::entity::EntityHashMap<Cover> {
    let rests = |t: &Transform| {
        t.translation.z < LIFT
            && (t.scale.truncate() - Vec2::ONE).abs().max_element() < EXACT
            && t.rotation.abs_diff_eq(Quat::IDENTITY, 1e-5)
    };
    let mut out = bevy::ecs::entity::EntityHashMap::default();
    for stack in stacks {
        for pair in stack.windows(2) {
            let (Some(mut under), Some(mut over)) = (at(pair[0]), at(pair[1])) else {
                continue;
            };
            let mut lower = pair[0];
            if under.translation.z > over.translation.z {
                (under, over, lower) = (over, under, pair[1]);
            }
            if !(rests(&under) && rests(&over) && over.translation.z > under.translation.z) {
                continue;
            }
            let d = (over.translation - under.translation).truncate();
            let cover = if d.length() < EXACT {
                Some(Cover::Whole)
            } else {
                [(Vec2::X, d.x, d.y, size.x), (Vec2::Y, d.y, d.x, size.y)]
                    .into_iter()
                    .find(|&(_, along, across, extent)| {
                        across.abs() < EXACT && along.abs() >= EXACT && along.abs() < extent
                    })
                    .map(|(axis, along, _, extent)| Cover::Beyond {
                        n: -axis * along.signum(),
                        c: (extent / 2.0 - along.abs() - radius - 1.0).floor(),
                    })
            };
            if let Some(cover) = cover {
                out.insert(lower, cover);
            }
        }
    }
    out
}

/// What is left of a part's mesh in a strip.
#[derive(Clone, Debug)]
enum Strip {
    /// All of it.
    Whole,
    /// Nothing.
    Empty,
    /// This mesh, cut from it.
    Part(Handle<Mesh>),
}

/// The strips of covered cards' meshes, made once for each mesh and strip, for the art of
/// [`Strips::art`] (a new art starts afresh; so do more than [`MOST_STRIPS`], which a column
/// whose spacing changes with its length could pile up over a long game).
#[derive(Default)]
pub struct Strips {
    art: Option<AssetId<Mesh>>,
    made: std::collections::HashMap<(AssetId<Mesh>, [i8; 2], u32), Strip>,
}

/// The strips kept at most before they are made afresh.
const MOST_STRIPS: usize = 4096;

/// What [`hide_covered`] needs besides the cards: their parts, and meshes to cut them from.
#[derive(bevy::ecs::system::SystemParam)]
pub struct Covering<'w, 's> {
    children: Query<'w, 's, &'static Children>,
    parts: Query<
        'w,
        's,
        (
            &'static Part,
            &'static mut Mesh2d,
            &'static Transform,
            &'static mut Visibility,
        ),
    >,
    meshes: ResMut<'w, Assets<Mesh>>,
    materials: Res<'w, Assets<ColorMaterial>>,
    strips: Local<'s, Strips>,
    /// Dressed cards that moved, turned or were dressed again since the last run.
    moved: Query<
        'w,
        's,
        (),
        (
            With<CardSides>,
            Without<Part>,
            Or<(Changed<Transform>, Changed<CardSides>)>,
        ),
    >,
    /// Parts made since the last run.
    new_parts: Query<'w, 's, (), Added<Part>>,
    /// Cards undressed or gone since the last run.
    undressed: RemovedComponents<'w, 's, CardSides>,
    /// Whether the cards were opaque at the last run (none before the first).
    was_opaque: Local<'s, Option<bool>>,
}

impl Covering<'_, '_> {
    /// Shows part `e` of a card whole (`beyond` none) or only where `n . p >= c` in the card's
    /// frame: the mesh cut to that strip, or nothing when none of it lies there. A part lies in
    /// its side's frame, which is the card's (a side is never moved, turned or scaled itself).
    fn show_part(&mut self, e: Entity, beyond: Option<(Vec2, f32)>) {
        let Ok((part, mut mesh, t, mut vis)) = self.parts.get_mut(e) else {
            return;
        };
        let uniform = t.rotation.abs_diff_eq(Quat::IDENTITY, 1e-5)
            && (t.scale.x - t.scale.y).abs() < 1e-6
            && t.scale.x > 0.0;
        let strip = match beyond {
            Some((n, c)) if uniform => {
                // The half-plane in the part's own frame.
                let c = (c - n.dot(t.translation.truncate())) / t.scale.x;
                let key = (part.0.id(), [n.x as i8, n.y as i8], c.to_bits());
                if let Some(strip) = self.strips.made.get(&key) {
                    strip.clone()
                } else if let Some(m) = self.meshes.get(&part.0) {
                    let strip = match clip_mesh(m, n, c) {
                        Clipped::Whole => Strip::Whole,
                        Clipped::Empty => Strip::Empty,
                        Clipped::Part(m) => Strip::Part(self.meshes.add(*m)),
                    };
                    if self.strips.made.len() >= MOST_STRIPS {
                        self.strips.made.clear();
                    }
                    self.strips.made.insert(key, strip.clone());
                    strip
                } else {
                    Strip::Whole
                }
            }
            _ => Strip::Whole,
        };
        let shown = match strip {
            Strip::Whole => Some(&part.0),
            Strip::Empty => None,
            Strip::Part(ref h) => Some(h),
        };
        match shown {
            Some(h) => {
                if mesh.0 != *h {
                    mesh.0 = h.clone();
                }
                vis.set_if_neq(Visibility::Inherited);
            }
            None => {
                vis.set_if_neq(Visibility::Hidden);
            }
        }
    }

    /// Whether `body`'s face and back are opaque, so a card on another hides what it covers.
    fn opaque(&self, body: &Body) -> bool {
        [&body.face, &body.face_border, &body.back, &body.back_border]
            .into_iter()
            .all(|h| {
                self.materials
                    .get(h)
                    .is_some_and(|m| m.color.alpha() >= 1.0)
            })
    }
}

/// The cards [`hide_covered`] shows, hides and cuts: a game's cards (marked by `M`), never
/// their parts (whose visibility it sets too).
pub type CoverCards<'w, 's, M> = Query<
    'w,
    's,
    (
        Entity,
        &'static Transform,
        &'static mut Visibility,
        Option<&'static CardSides>,
    ),
    (With<M>, Without<Part>),
>;

/// Draws only what shows of the cards of `stacks` that lie at rest under another card (see
/// `covers`): a stock of fifty cards was drawn fifty times over in one place, and each card of
/// a fanned column whole under the next, which a software renderer (a browser without a GPU)
/// pays for pixel by pixel. A card right under another is hidden; a card that the next one
/// covers but for a strip along one edge has each of its meshes cut to that strip (see
/// [`clip_mesh`]), so the picture is the same. Every other card of `cards` is shown whole (a
/// card's own visibility is used for nothing else), and so is every card when the cards are
/// not opaque (a theme may make them translucent). A card that is lifted, in flight, turning,
/// or uncovered by one that leaves, or taken from a stack to anywhere else, shows whole in the
/// frame it moves. Without `body` (no art yet, so no card dressed) only whole covers are
/// hidden. Nothing is done while nothing changed: no dressed card moved, turned or was dressed
/// or undressed, no part was made, the cards' opacity is as it was, and `changed` (the caller's
/// stacks or art) is false. `cards` must leave out [`Part`]s (`Without<Part>`): their
/// visibility is set here too.
pub fn hide_covered<'a, F: bevy::ecs::query::QueryFilter>(
    stacks: impl Iterator<Item = &'a [Entity]>,
    cards: &mut Query<(Entity, &Transform, &mut Visibility, Option<&CardSides>), F>,
    covering: &mut Covering,
    body: Option<&Body>,
    changed: bool,
) {
    let (size, radius) = body.map_or((Vec2::ZERO, 0.0), |b| (b.size, b.radius));
    let opaque = body.is_none_or(|b| covering.opaque(b));
    let strips = body.is_some() && opaque;
    // A new art starts its strips afresh (the old ones would keep the old meshes).
    let art = body.map(|b| b.face_rim.id());
    if covering.strips.art != art {
        covering.strips.made.clear();
        covering.strips.art = art;
    }
    // A table at rest keeps what was worked out when it came to rest.
    let opacity_changed = covering.was_opaque.replace(opaque) != Some(opaque);
    let undressed = covering.undressed.read().count() > 0;
    if !(changed
        || opacity_changed
        || undressed
        || !covering.moved.is_empty()
        || !covering.new_parts.is_empty())
    {
        return;
    }
    let covered = if opaque {
        covers(
            stacks,
            |e| {
                cards
                    .get(e)
                    .ok()
                    .filter(|(_, _, _, sides)| sides.is_some() || body.is_none())
                    .map(|(_, t, _, _)| *t)
            },
            size,
            radius,
        )
    } else {
        bevy::ecs::entity::EntityHashMap::default()
    };
    let mut sides = Vec::new();
    for (e, _, mut v, card_sides) in cards.iter_mut() {
        let cover = covered.get(&e).copied();
        let want = if cover == Some(Cover::Whole) {
            Visibility::Hidden
        } else {
            Visibility::Inherited
        };
        v.set_if_neq(want);
        let beyond = match cover {
            Some(Cover::Beyond { n, c }) if strips => Some((n, c)),
            _ => None,
        };
        if let Some(s) = card_sides {
            sides.push((s.face, s.back, beyond));
        }
    }
    for (face, back, beyond) in sides {
        for side in [face, back] {
            let parts: Vec<Entity> = covering
                .children
                .get(side)
                .map(|c| c.iter().collect())
                .unwrap_or_default();
            for p in parts {
                covering.show_part(p, beyond);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::shapes::positions;

    #[test]
    fn a_back_pattern_is_one_set_of_marks_inside_the_card() {
        let size = Vec2::new(100.0, 140.0);
        assert!(back_pattern(BackPattern::Plain, size).is_none());
        for pattern in [BackPattern::Lattice, BackPattern::Dots] {
            let marks = back_pattern(pattern, size).expect("a patterned back");
            // 16 px apart: 5 across (78 px of width), 8 down (117.6 px of height).
            assert_eq!(marks.len(), 5 * 8);
            assert!(Shape::all_within(&marks, size * Vec2::new(0.45, 0.47)));
        }
    }

    #[test]
    fn only_cards_at_rest_right_under_another_are_hidden() {
        use bevy::ecs::system::RunSystemOnce;
        let mut world = World::new();
        let at = |x: f32, z: f32| (Transform::from_xyz(x, 0.0, z), Visibility::Inherited);
        let scaled = |x: f32, z: f32, sx: f32| {
            let mut t = Transform::from_xyz(x, 0.0, z);
            t.scale.x = sx;
            (t, Visibility::Inherited)
        };
        // Bottom first: three in one place, one beside them, one above it turning over, one
        // right above that (at rest again), one raised (scaled up) with one on it.
        let stack: Vec<Entity> = vec![
            world.spawn(at(0.0, 1.0)).id(),
            world.spawn(at(0.0, 2.0)).id(),
            world.spawn(at(0.0, 3.0)).id(),
            world.spawn(at(50.0, 4.0)).id(),
            world.spawn(scaled(50.0, 5.0, 0.4)).id(),
            world.spawn(at(50.0, 6.0)).id(),
            world.spawn(scaled(50.0, 7.0, 1.2)).id(),
            world.spawn(at(50.0, 8.0)).id(),
        ];
        // Cards outside the stacks: one that was hidden while it lay in a stack (dealt away
        // since) shows again; so does one that was hidden in the stack and is now on top.
        let dealt = world
            .spawn((Transform::from_xyz(0.0, 0.0, 0.5), Visibility::Hidden))
            .id();
        world.entity_mut(stack[2]).insert(Visibility::Hidden);
        world.init_resource::<Assets<Mesh>>();
        world.init_resource::<Assets<ColorMaterial>>();
        let order = stack.clone();
        world
            .run_system_once(move |mut q: Cards, mut covering: Covering| {
                hide_covered(
                    std::iter::once(order.as_slice()),
                    &mut q,
                    &mut covering,
                    None,
                    false,
                );
            })
            .unwrap();
        let shown = |e: Entity| *world.get::<Visibility>(e).unwrap() != Visibility::Hidden;
        let in_stack: Vec<bool> = stack.iter().map(|&e| shown(e)).collect();
        assert_eq!(in_stack, [false, false, true, true, true, true, true, true]);
        assert!(shown(dealt));
    }

    /// Every card (every entity here has a place).
    type Cards<'w, 's> = CoverCards<'w, 's, Transform>;

    #[derive(Resource)]
    struct TestBody(Body);

    /// A table of dressed cards for the covering tests: each card at `places` (face up if the
    /// flag says so), each face its rim, its inner part and two small marks (a tenth of the
    /// inner part, 13.8 px high) at `marks` in the card's frame; and one `hide_covered` system
    /// over `stacks` (indices into the cards), kept throughout as in the game, so it keeps its
    /// strips and sees what changed.
    struct Table {
        world: World,
        cards: Vec<Entity>,
        system: bevy::ecs::system::SystemId,
        radius: f32,
    }

    impl Table {
        fn new(places: &[(Vec3, bool)], marks: [Vec2; 2], stacks: &[&[usize]]) -> Table {
            use bevy::ecs::system::RunSystemOnce;
            let mut world = World::new();
            world.init_resource::<Assets<Mesh>>();
            world.init_resource::<Assets<ColorMaterial>>();
            let size = Vec2::new(100.0, 140.0);
            let body = world.resource_scope(|w, mut meshes: Mut<Assets<Mesh>>| {
                let mut materials = w.resource_mut::<Assets<ColorMaterial>>();
                Body::new(size, &Theme::default(), &mut meshes, &mut materials)
            });
            let radius = body.radius;
            world.insert_resource(TestBody(body));
            let cards: Vec<Entity> = places
                .iter()
                .map(|&(at, _)| {
                    world
                        .spawn((Transform::from_translation(at), Visibility::Inherited))
                        .id()
                })
                .collect();
            let dressed: Vec<(Entity, bool)> = cards
                .iter()
                .zip(places)
                .map(|(&c, &(_, up))| (c, up))
                .collect();
            world
                .run_system_once(move |mut commands: Commands, body: Res<TestBody>| {
                    let b = &body.0;
                    for &(c, up) in &dressed {
                        let face = commands
                            .spawn((Transform::default(), Visibility::Inherited))
                            .with_children(|p| {
                                p.spawn(part(&b.face_rim, &b.face_border, Transform::default()));
                                p.spawn(part(
                                    &b.inner,
                                    &b.face,
                                    Transform::from_xyz(0.0, 0.0, 0.001),
                                ));
                                for m in marks {
                                    p.spawn(part(
                                        &b.inner,
                                        &b.back,
                                        Transform::from_translation(m.extend(0.002))
                                            .with_scale(Vec3::splat(0.1)),
                                    ));
                                }
                            })
                            .id();
                        let sides = b.dress(&mut commands, c, face, up);
                        commands.entity(c).insert(sides);
                    }
                })
                .unwrap();
            let order: Vec<Vec<Entity>> = stacks
                .iter()
                .map(|s| s.iter().map(|&i| cards[i]).collect())
                .collect();
            let system = world.register_system(
                move |mut q: Cards, mut covering: Covering, body: Res<TestBody>| {
                    hide_covered(
                        order.iter().map(Vec::as_slice),
                        &mut q,
                        &mut covering,
                        Some(&body.0),
                        false,
                    );
                },
            );
            Table {
                world,
                cards,
                system,
                radius,
            }
        }

        fn run(&mut self) {
            self.world.run_system(self.system).unwrap();
        }

        /// The parts of card `i`, face first.
        fn parts(&self, i: usize) -> Vec<Entity> {
            let sides = self.world.get::<CardSides>(self.cards[i]).unwrap();
            [sides.face, sides.back]
                .into_iter()
                .flat_map(|s| {
                    self.world
                        .get::<Children>(s)
                        .unwrap()
                        .iter()
                        .collect::<Vec<_>>()
                })
                .collect()
        }

        /// Whether card `i` is drawn whole: shown, and each part its whole mesh.
        fn whole(&self, i: usize) -> bool {
            *self.world.get::<Visibility>(self.cards[i]).unwrap() != Visibility::Hidden
                && self.parts(i).iter().all(|&p| {
                    self.world.get::<Mesh2d>(p).unwrap().0 == self.world.get::<Part>(p).unwrap().0
                        && *self.world.get::<Visibility>(p).unwrap() == Visibility::Inherited
                })
        }

        /// Each part of card `i` as drawn: the extent of its mesh along `axis` in the card's
        /// frame (lowest, highest), none when it is not drawn.
        fn extents(&self, i: usize, axis: Vec2) -> Vec<Option<(f32, f32)>> {
            self.parts(i)
                .iter()
                .map(|&p| {
                    if *self.world.get::<Visibility>(p).unwrap() == Visibility::Hidden {
                        return None;
                    }
                    let mesh = self.world.get::<Mesh2d>(p).unwrap();
                    let t = self.world.get::<Transform>(p).unwrap();
                    let meshes = self.world.resource::<Assets<Mesh>>();
                    let v = positions(meshes.get(&mesh.0).unwrap()).expect("positions");
                    let along = |q: &[f32; 3]| {
                        axis.dot(t.translation.truncate() + Vec2::new(q[0], q[1]) * t.scale.x)
                    };
                    Some(
                        v.iter()
                            .map(along)
                            .fold((f32::INFINITY, f32::NEG_INFINITY), |m, x| {
                                (m.0.min(x), m.1.max(x))
                            }),
                    )
                })
                .collect()
        }

        /// Asserts that every part of card `i` drawn lies on the near side of `edge` along
        /// `axis` and that some part reaches it (so nothing that shows is cut away); returns
        /// the parts' extents.
        fn cut_at(&self, i: usize, axis: Vec2, edge: f32) -> Vec<Option<(f32, f32)>> {
            let shown = self.extents(i, axis);
            assert!(
                shown.iter().flatten().all(|&(lo, _)| lo >= edge - 1e-3),
                "{shown:?}"
            );
            assert!(
                shown
                    .iter()
                    .flatten()
                    .any(|&(lo, _)| (lo - edge).abs() < 1e-3),
                "{shown:?}"
            );
            shown
        }

        fn set_alpha(&mut self, alpha: f32) {
            let face = self.world.resource::<TestBody>().0.face.clone();
            self.world
                .resource_mut::<Assets<ColorMaterial>>()
                .get_mut(&face)
                .unwrap()
                .color = Color::srgba(1.0, 1.0, 1.0, alpha);
        }
    }

    #[test]
    fn a_fanned_column_draws_only_the_strip_each_card_shows() {
        // A column of three cards 30 px apart, the lowest on top and face up, the others face
        // down; marks near the top and at the middle of each face.
        let places: Vec<(Vec3, bool)> = (0..3)
            .map(|i| (Vec3::new(200.0, -30.0 * i as f32, 1.0 + i as f32), i == 2))
            .collect();
        let mut t = Table::new(&places, [Vec2::new(0.0, 55.0), Vec2::ZERO], &[&[0, 1, 2]]);
        t.run();
        // The next card's top edge is 30 px down; its corners leave the radius and a pixel
        // more. Every part shows above that line; the rims reach it and no further (nothing
        // that shows is cut away), the mark at the middle is not drawn and the one near the
        // top is, whole (its lowest edge 6.9 px under its centre).
        let edge = (70.0 - 30.0 - t.radius - 1.0f32).floor();
        assert!(edge <= 70.0 - 30.0 - t.radius);
        for card in 0..2 {
            let shown = t.cut_at(card, Vec2::Y, edge);
            assert_eq!(shown.iter().filter(|y| y.is_none()).count(), 1, "{shown:?}");
            assert!(
                shown
                    .iter()
                    .flatten()
                    .any(|&(lo, _)| (lo - 48.1).abs() < 1e-3),
                "{shown:?}"
            );
        }
        assert!(t.whole(2));
        // At rest nothing is done again: a part shown whole by mistake stays so.
        let first = t.parts(0)[1];
        let cut = t.world.get::<Mesh2d>(first).unwrap().0.clone();
        let full = t.world.get::<Part>(first).unwrap().0.clone();
        assert_ne!(cut, full);
        t.world.get_mut::<Mesh2d>(first).unwrap().0 = full;
        t.run();
        assert!(t.world.get::<Mesh2d>(first).unwrap().0 != cut);
        t.world.get_mut::<Mesh2d>(first).unwrap().0 = cut;
        // The top card is picked up (lifted and moved a little): the card under it shows
        // whole in that frame, the lowest one stays cut; put back, it is cut again.
        let rest = *t.world.get::<Transform>(t.cards[2]).unwrap();
        let mut lifted = rest;
        lifted.translation += Vec3::new(0.0, -3.0, LIFT);
        *t.world.get_mut::<Transform>(t.cards[2]).unwrap() = lifted;
        t.run();
        assert!(t.whole(1));
        assert!(!t.whole(0));
        *t.world.get_mut::<Transform>(t.cards[2]).unwrap() = rest;
        t.run();
        assert!(!t.whole(1));
        // The top card turning over (half way): the card under it shows whole.
        t.world.get_mut::<Transform>(t.cards[2]).unwrap().scale.x = 0.5;
        t.run();
        assert!(t.whole(1));
        t.world.get_mut::<Transform>(t.cards[2]).unwrap().scale.x = 1.0;
        t.run();
        assert!(!t.whole(1));
        // Translucent cards show what lies under them: nothing is cut.
        t.set_alpha(0.8);
        t.run();
        assert!((0..3).all(|c| t.whole(c)));
    }

    #[test]
    fn a_row_and_a_pile_whichever_order_their_stacks_list() {
        // A row of three cards 20 px apart to the right, each above the one on its left,
        // listed right to left; and a pile of two right on each other, listed top first.
        // Marks near the left edge and at the middle of each face.
        let places = [
            (Vec3::new(40.0, 0.0, 3.0), true),
            (Vec3::new(20.0, 0.0, 2.0), true),
            (Vec3::new(0.0, 0.0, 1.0), true),
            (Vec3::new(0.0, 300.0, 2.0), false),
            (Vec3::new(0.0, 300.0, 1.0), false),
        ];
        let mut t = Table::new(
            &places,
            [Vec2::new(-40.0, 0.0), Vec2::ZERO],
            &[&[0, 1, 2], &[3, 4]],
        );
        t.run();
        // The card on the right's left edge is 20 px in: what shows of each lower card is left
        // of 50 - 20 - r - 1 from its left edge.
        let edge = (50.0 - 20.0 - t.radius - 1.0f32).floor();
        for card in 1..3 {
            let shown = t.cut_at(card, Vec2::NEG_X, edge);
            assert_eq!(shown.iter().filter(|x| x.is_none()).count(), 1, "{shown:?}");
        }
        assert!(t.whole(0));
        // The lower card of the pile is not drawn at all; the upper one whole.
        assert_eq!(
            *t.world.get::<Visibility>(t.cards[4]).unwrap(),
            Visibility::Hidden
        );
        assert!(t.whole(3));
        // Translucent cards: every card is drawn whole, the pile's lower card too.
        t.set_alpha(0.5);
        t.run();
        assert!((0..5).all(|c| t.whole(c)));
    }
}
