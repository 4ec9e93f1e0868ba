//! A card's body and back, shared by both games: the rounded body and border, the back with
//! its pattern, the two sides shown one at a time, and the renderer check that turns
//! multisampling off when drawing in software. Render-only: headless tests leave this out.
use bevy::prelude::*;

use crate::cards::motion::CardPose;
use crate::cards::shapes::{Shape, lozenge, placed, rim_mesh, rounded_rect, shapes_mesh};
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
    )
}

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

/// Hides the cards of `stacks` (each bottom first) that lie at rest exactly under another card
/// of the same size, and shows every other card of `cards` (a card's own visibility is used for
/// nothing else): a stock of fifty cards was drawn fifty times over in one place, which a
/// software renderer (a browser without a GPU) pays for pixel by pixel. Both cards must be flat
/// (not turning) and unscaled, so a card in flight, turning, or uncovered by one that leaves, or
/// taken from a stack to anywhere else, shows in the frame it moves.
pub fn hide_covered<'a, F: bevy::ecs::query::QueryFilter>(
    stacks: impl Iterator<Item = &'a [Entity]>,
    cards: &mut Query<(Entity, &Transform, &mut Visibility), F>,
) {
    let flat = |t: &Transform| (t.scale.truncate().abs() - Vec2::ONE).abs().max_element() < 0.01;
    let mut covered = bevy::ecs::entity::EntityHashSet::default();
    for stack in stacks {
        for pair in stack.windows(2) {
            let (Ok((_, under, _)), Ok((_, over, _))) = (cards.get(pair[0]), cards.get(pair[1]))
            else {
                continue;
            };
            if flat(under)
                && flat(over)
                && over.translation.z > under.translation.z
                && over
                    .translation
                    .truncate()
                    .distance(under.translation.truncate())
                    < 0.5
                && over.rotation.angle_between(under.rotation) < 0.01
            {
                covered.insert(pair[0]);
            }
        }
    }
    for (e, _, mut v) in cards.iter_mut() {
        let want = if covered.contains(&e) {
            Visibility::Hidden
        } else {
            Visibility::Inherited
        };
        v.set_if_neq(want);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let order = stack.clone();
        world
            .run_system_once(move |mut q: Query<(Entity, &Transform, &mut Visibility)>| {
                hide_covered(std::iter::once(order.as_slice()), &mut q);
            })
            .unwrap();
        let shown = |e: Entity| *world.get::<Visibility>(e).unwrap() != Visibility::Hidden;
        let in_stack: Vec<bool> = stack.iter().map(|&e| shown(e)).collect();
        assert_eq!(in_stack, [false, false, true, true, true, true, true, true]);
        assert!(shown(dealt));
    }
}
