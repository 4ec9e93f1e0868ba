//! How the table looks: cards drawn from meshes (suits are shapes and indices are stroked
//! glyphs, not font text), themes, placeholders, and drop-target and selection markers.
//! Render-only: the headless tests leave this plugin out.
use arachne_engine::{Move, Rank, Suit};
use bevy::asset::RenderAssetUsages;
use bevy::mesh::{Indices, PrimitiveTopology};
use bevy::prelude::*;

use crate::input::Highlights;
use crate::layout::{Layout, PileId, z};
use crate::theme::{BackPattern, Theme};
use crate::view::{CardPose, CardView, Piles};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Update, fit_multisampling_to_renderer);
    app.add_systems(
        Update,
        (rebuild_art, dress_new_cards, show_side, place_fixtures)
            .chain()
            .after(bevy_tweening::AnimationSystem::AnimationUpdate),
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

/// Meshes and materials for the current card size and theme.
#[derive(Resource)]
struct CardArt {
    size: Vec2,
    theme: Theme,
    outer: Handle<Mesh>,
    inner: Handle<Mesh>,
    back_inner: Handle<Mesh>,
    frame_outer: Handle<Mesh>,
    frame_inner: Handle<Mesh>,
    /// Everything inked on a face (indices, suits, pips) as one mesh per card, indexed by
    /// [`face_index`]: a card face is a handful of entities, not one per pip.
    face_ink: Vec<Handle<Mesh>>,
    /// The back's whole pattern as one mesh (none for a plain back).
    back_pattern: Option<Handle<Mesh>>,
    lozenge: Handle<Mesh>,
    face: Handle<ColorMaterial>,
    face_border: Handle<ColorMaterial>,
    court_frame: Handle<ColorMaterial>,
    back: Handle<ColorMaterial>,
    back_accent: Handle<ColorMaterial>,
    back_border: Handle<ColorMaterial>,
    ink: [Handle<ColorMaterial>; 4],
}

/// The two sides of a card, shown one at a time.
#[derive(Component)]
struct CardSides {
    face: Entity,
    back: Entity,
}

/// Placeholders, markers and labels, placed every frame from the layout.
#[derive(Component)]
enum Fixture {
    Placeholder(PileId),
    Marker(u8),
    StockMarker,
}

fn suit_index(s: Suit) -> usize {
    match s {
        Suit::Spades => 0,
        Suit::Hearts => 1,
        Suit::Diamonds => 2,
        Suit::Clubs => 3,
    }
}

fn rebuild_art(
    mut commands: Commands,
    layout: Option<Res<Layout>>,
    theme: Res<Theme>,
    art: Option<Res<CardArt>>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<ColorMaterial>>,
    mut clear: ResMut<ClearColor>,
    cards: Query<(Entity, &CardSides)>,
) {
    let Some(layout) = layout else { return };
    let size = layout.card;
    if art
        .as_ref()
        .is_some_and(|a| a.size == size && a.theme == *theme)
    {
        return;
    }
    clear.0 = theme.table;
    let r = theme.corner_radius * size.x;
    let inset = (size.x * 0.05).max(2.0);
    let mut mat = |c: Color| materials.add(ColorMaterial::from_color(c));
    let art = CardArt {
        size,
        outer: meshes.add(rounded_rect(size, r)),
        inner: meshes.add(rounded_rect(size - Vec2::splat(2.0), (r - 1.0).max(0.0))),
        back_inner: meshes.add(rounded_rect(
            size - Vec2::splat(2.0 * inset),
            (r - inset).max(1.0),
        )),
        frame_outer: meshes.add(rounded_rect(
            Vec2::new(size.x * 0.62, size.y * 0.66),
            r * 0.5,
        )),
        frame_inner: meshes.add(rounded_rect(
            Vec2::new(size.x * 0.62 - 3.0, size.y * 0.66 - 3.0),
            (r * 0.5 - 1.5).max(0.0),
        )),
        face_ink: Suit::ALL
            .iter()
            .flat_map(|&s| Rank::ALL.map(move |r| (r, s)))
            .map(|(r, s)| meshes.add(shapes_mesh(&face_ink(r, s, size))))
            .collect(),
        back_pattern: back_pattern(theme.back_pattern, size).map(|p| meshes.add(shapes_mesh(&p))),
        lozenge: meshes.add(shapes_mesh(&[lozenge()])),
        face: mat(theme.face),
        face_border: mat(theme.face_border),
        court_frame: mat(theme.court_frame),
        back: mat(theme.back),
        back_accent: mat(theme.back_accent),
        back_border: mat(theme.back_border),
        ink: Suit::ALL.map(|s| mat(theme.suit_color(s))),
        theme: theme.clone(),
    };
    // Re-dress every card for the new size or theme.
    for (e, sides) in &cards {
        commands.entity(sides.face).despawn();
        commands.entity(sides.back).despawn();
        commands.entity(e).remove::<CardSides>();
    }
    commands.insert_resource(art);
}

fn dress_new_cards(
    mut commands: Commands,
    art: Option<Res<CardArt>>,
    cards: Query<(Entity, &CardView, &CardPose), Without<CardSides>>,
) {
    let Some(art) = art else { return };
    for (e, view, pose) in &cards {
        let face = spawn_face(&mut commands, &art, view);
        let back = spawn_back(&mut commands, &art);
        let (fv, bv) = if pose.face_shown {
            (Visibility::Inherited, Visibility::Hidden)
        } else {
            (Visibility::Hidden, Visibility::Inherited)
        };
        commands.entity(face).insert(fv);
        commands.entity(back).insert(bv);
        commands
            .entity(e)
            .add_children(&[face, back])
            .insert(CardSides { face, back });
    }
}

fn part(
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

fn face_index(rank: Rank, suit: Suit) -> usize {
    suit_index(suit) * 13 + rank as usize - 1
}

/// Unit shapes scaled by `scale`, turned half round if `turned`, and moved to `at`.
fn placed(shapes: &[Shape], at: Vec2, scale: f32, turned: bool) -> impl Iterator<Item = Shape> {
    let sign = if turned { -scale } else { scale };
    shapes.iter().map(move |shape| match shape {
        Shape::Circle(c, r) => Shape::Circle(at + *c * sign, r * scale),
        Shape::Poly(points) => Shape::Poly(points.iter().map(|p| at + *p * sign).collect()),
    })
}

/// Everything inked on a face of `size`: the corner indices and suits (along the top, which a
/// fanned column shows, and turned round at the bottom), a suit at the top right (for a column
/// squeezed very tight), and the middle: one large suit, a court letter, or the pips.
fn face_ink(rank: Rank, suit: Suit, size: Vec2) -> Vec<Shape> {
    let (w, h) = (size.x, size.y);
    let suit_shapes = suit_shapes(suit);
    let glyph = glyph_shapes(rank);
    // Index height: about the cap height of the letters a 0.15 h font would set, but never
    // under 11 px while the card allows it: on small cards (Huge Spider's twenty columns) an
    // 8 px "10" read as "K" and a "Q" as "0".
    let small = (h * 0.105).max((h * 0.15).min(11.0)).max(8.0);
    let index_y = 0.39 * h;
    // The corner suit sits just under the index, whatever the index's size.
    let suit_y = index_y - small / 2.0 - 0.03 * h - 0.065 * w;
    let mut ink = Vec::new();
    for (sign, turned) in [(1.0, false), (-1.0, true)] {
        ink.extend(placed(
            &glyph,
            Vec2::new(sign * -0.36 * w, sign * index_y),
            small,
            turned,
        ));
        ink.extend(placed(
            &suit_shapes,
            Vec2::new(sign * -0.36 * w, sign * suit_y),
            0.13 * w,
            turned,
        ));
    }
    ink.extend(placed(
        &suit_shapes,
        Vec2::new(0.35 * w, 0.39 * h),
        0.14 * w,
        false,
    ));
    match rank {
        Rank::Ace => ink.extend(placed(
            &suit_shapes,
            Vec2::new(0.0, -0.03 * h),
            0.5 * w,
            false,
        )),
        Rank::Jack | Rank::Queen | Rank::King => {
            ink.extend(placed(
                &glyph,
                Vec2::new(0.0, -0.06 * h),
                (h * 0.2).max(8.0),
                false,
            ));
            ink.extend(placed(
                &suit_shapes,
                Vec2::new(0.0, 0.17 * h),
                0.2 * w,
                false,
            ));
        }
        _ => {
            for &(x, y) in pips(rank.value()) {
                let at = Vec2::new(x * 0.17 * w, (y * 0.25 - 0.02) * h);
                ink.extend(placed(&suit_shapes, at, 0.16 * w, y < 0.0));
            }
        }
    }
    ink
}

fn spawn_face(commands: &mut Commands, art: &CardArt, view: &CardView) -> Entity {
    let (w, h) = (art.size.x, art.size.y);
    let (rank, suit) = (view.card.rank(), view.card.suit());
    let at = |x: f32, y: f32, zz: f32, s: f32| {
        Transform::from_xyz(x * w, y * h, zz).with_scale(Vec3::splat(s * w))
    };
    commands
        .spawn((Transform::default(), Visibility::Inherited))
        .with_children(|p| {
            p.spawn(part(&art.outer, &art.face_border, Transform::default()));
            p.spawn(part(
                &art.inner,
                &art.face,
                Transform::from_xyz(0.0, 0.0, 0.001),
            ));
            if matches!(rank, Rank::Jack | Rank::Queen | Rank::King) {
                p.spawn(part(
                    &art.frame_outer,
                    &art.court_frame,
                    Transform::from_xyz(0.0, -0.02 * h, 0.002),
                ));
                p.spawn(part(
                    &art.frame_inner,
                    &art.face,
                    Transform::from_xyz(0.0, -0.02 * h, 0.0025),
                ));
            }
            if rank == Rank::King {
                for x in [-0.13, 0.13] {
                    p.spawn(part(
                        &art.lozenge,
                        &art.court_frame,
                        at(x, 0.19, 0.003, 0.08),
                    ));
                }
            }
            p.spawn(part(
                &art.face_ink[face_index(rank, suit)],
                &art.ink[suit_index(suit)],
                Transform::from_xyz(0.0, 0.0, 0.003),
            ));
        })
        .id()
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

fn lozenge() -> Shape {
    Shape::Poly(vec![
        Vec2::new(0.0, 0.5),
        Vec2::new(-0.5, 0.0),
        Vec2::new(0.0, -0.5),
        Vec2::new(0.5, 0.0),
    ])
}

fn spawn_back(commands: &mut Commands, art: &CardArt) -> Entity {
    commands
        .spawn((Transform::default(), Visibility::Inherited))
        .with_children(|p| {
            p.spawn(part(&art.outer, &art.back_border, Transform::default()));
            p.spawn(part(
                &art.back_inner,
                &art.back,
                Transform::from_xyz(0.0, 0.0, 0.001),
            ));
            if let Some(pattern) = &art.back_pattern {
                p.spawn(part(
                    pattern,
                    &art.back_accent,
                    Transform::from_xyz(0.0, 0.0, 0.002),
                ));
            }
        })
        .id()
}

/// Pip positions of the number cards, in a grid of x in -1..1 and y in -1..1.
pub fn pips(value: u8) -> &'static [(f32, f32)] {
    const T: f32 = 1.0 / 3.0;
    match value {
        2 => &[(0.0, 1.0), (0.0, -1.0)],
        3 => &[(0.0, 1.0), (0.0, 0.0), (0.0, -1.0)],
        4 => &[(-1.0, 1.0), (1.0, 1.0), (-1.0, -1.0), (1.0, -1.0)],
        5 => &[
            (-1.0, 1.0),
            (1.0, 1.0),
            (0.0, 0.0),
            (-1.0, -1.0),
            (1.0, -1.0),
        ],
        6 => &[
            (-1.0, 1.0),
            (1.0, 1.0),
            (-1.0, 0.0),
            (1.0, 0.0),
            (-1.0, -1.0),
            (1.0, -1.0),
        ],
        7 => &[
            (-1.0, 1.0),
            (1.0, 1.0),
            (0.0, 0.5),
            (-1.0, 0.0),
            (1.0, 0.0),
            (-1.0, -1.0),
            (1.0, -1.0),
        ],
        8 => &[
            (-1.0, 1.0),
            (1.0, 1.0),
            (0.0, 0.5),
            (-1.0, 0.0),
            (1.0, 0.0),
            (0.0, -0.5),
            (-1.0, -1.0),
            (1.0, -1.0),
        ],
        9 => &[
            (-1.0, 1.0),
            (1.0, 1.0),
            (-1.0, T),
            (1.0, T),
            (0.0, 0.0),
            (-1.0, -T),
            (1.0, -T),
            (-1.0, -1.0),
            (1.0, -1.0),
        ],
        10 => &[
            (-1.0, 1.0),
            (1.0, 1.0),
            (0.0, 2.0 * T),
            (-1.0, T),
            (1.0, T),
            (-1.0, -T),
            (1.0, -T),
            (0.0, -2.0 * T),
            (-1.0, -1.0),
            (1.0, -1.0),
        ],
        _ => &[],
    }
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

fn place_fixtures(
    mut commands: Commands,
    layout: Option<Res<Layout>>,
    art: Option<Res<CardArt>>,
    piles: Res<Piles>,
    highlights: Res<Highlights>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<ColorMaterial>>,
    mut fixtures: Query<(
        Entity,
        &Fixture,
        &mut Transform,
        &mut Visibility,
        Option<&MeshMaterial2d<ColorMaterial>>,
    )>,
    mut built_for: Local<Option<(Vec2, usize, Color)>>,
) {
    let (Some(layout), Some(art)) = (layout, art) else {
        return;
    };
    let columns = layout.column_x.len();
    let key = (layout.card, columns, art.theme.table);
    if *built_for != Some(key) {
        // New size, variant or theme: make placeholders and markers again.
        for (e, f, ..) in &fixtures {
            if matches!(
                f,
                Fixture::Placeholder(_) | Fixture::Marker(_) | Fixture::StockMarker
            ) {
                commands.entity(e).despawn();
            }
        }
        let r = art.theme.corner_radius * layout.card.x;
        let ring = meshes.add(ring_mesh(layout.card, r, 2.0));
        let fill = meshes.add(rounded_rect(layout.card, r));
        let ring_mat = materials.add(ColorMaterial::from_color(art.theme.placeholder));
        let marker_mat = |m: &mut Assets<ColorMaterial>| {
            m.add(ColorMaterial::from_color(
                art.theme.highlight.with_alpha(0.4),
            ))
        };
        for c in 0..columns {
            commands.spawn((
                Fixture::Placeholder(PileId::Column(c as u8)),
                Mesh2d(ring.clone()),
                MeshMaterial2d(ring_mat.clone()),
                Transform::default(),
            ));
            commands.spawn((
                Fixture::Marker(c as u8),
                Mesh2d(fill.clone()),
                MeshMaterial2d(marker_mat(&mut materials)),
                Transform::default(),
                Visibility::Hidden,
            ));
        }
        commands.spawn((
            Fixture::Placeholder(PileId::Stock),
            Mesh2d(ring.clone()),
            MeshMaterial2d(ring_mat.clone()),
            Transform::default(),
        ));
        commands.spawn((
            Fixture::Placeholder(PileId::Foundation(0)),
            Mesh2d(ring),
            MeshMaterial2d(ring_mat),
            Transform::default(),
        ));
        commands.spawn((
            Fixture::StockMarker,
            Mesh2d(fill),
            MeshMaterial2d(marker_mat(&mut materials)),
            Transform::default(),
            Visibility::Hidden,
        ));
        *built_for = Some(key);
        return;
    }
    let shape = piles.shape();
    let hint = highlights.hint.map(|(mv, _)| mv);
    for (_, fixture, mut t, mut vis, material) in &mut fixtures {
        match fixture {
            Fixture::Placeholder(pile) => {
                let p = match pile {
                    PileId::Column(c) => {
                        Vec3::new(layout.column_x[*c as usize], layout.top_y, z::PLACEHOLDER)
                    }
                    PileId::Stock => layout.stock.extend(z::PLACEHOLDER),
                    PileId::Foundation(_) => layout.foundation.extend(z::PLACEHOLDER),
                };
                t.translation = p;
            }
            Fixture::Marker(c) => {
                // Drop targets, the keyboard's column, or the two ends of a hint.
                let (target, selected) = (
                    highlights.targets.contains(c),
                    highlights.selected == Some(*c),
                );
                let hinted = match hint {
                    Some(Move::Transfer { from, to, .. }) => from == *c || to == *c,
                    Some(Move::Discard { column }) => column == *c,
                    _ => false,
                };
                let on = target || selected || hinted;
                vis.set_if_neq(if on {
                    Visibility::Inherited
                } else {
                    Visibility::Hidden
                });
                if !on {
                    continue;
                }
                // A hinted run is lit whole, in the highlight colour; where it goes is lit in
                // the hint's target colour, so the two ends of a hint are told apart.
                let len = shape.columns[*c as usize].0;
                let run = match hint {
                    _ if target || selected => 1,
                    Some(Move::Transfer { from, count, .. }) if from == *c => count as usize,
                    Some(Move::Discard { .. }) => 13,
                    _ => 1,
                };
                let first = len.saturating_sub(run.max(1));
                let last = len.saturating_sub(1).max(first);
                let top = layout.position(&shape, PileId::Column(*c), first);
                let bottom = layout.position(&shape, PileId::Column(*c), last);
                let span = top.y - bottom.y;
                t.translation = Vec3::new(top.x, (top.y + bottom.y) / 2.0, z::MARKER);
                t.scale = Vec3::new(1.0, 1.0 + span / layout.card.y, 1.0);
                if let Some(mut m) = material.and_then(|m| materials.get_mut(&m.0)) {
                    let color = if target {
                        art.theme.highlight
                    } else if selected {
                        art.theme.selection
                    } else if matches!(hint, Some(Move::Transfer { to, .. }) if to == *c) {
                        art.theme.hint_target
                    } else {
                        art.theme.highlight
                    };
                    m.color = color.with_alpha(0.38);
                }
            }
            Fixture::StockMarker => {
                let on = hint == Some(Move::Deal);
                vis.set_if_neq(if on {
                    Visibility::Inherited
                } else {
                    Visibility::Hidden
                });
                t.translation = layout.stock.extend(z::MARKER);
            }
        }
    }
}

/// A rounded rectangle centred on the origin, as a triangle fan.
pub fn rounded_rect(size: Vec2, radius: f32) -> Mesh {
    shapes_mesh(&[Shape::Poly(rounded_outline(size, radius))])
}

/// A rounded-rectangle outline `width` pixels wide.
fn ring_mesh(size: Vec2, radius: f32, width: f32) -> Mesh {
    let outer = rounded_outline(size, radius);
    let inner = rounded_outline(size - Vec2::splat(2.0 * width), (radius - width).max(0.0));
    let mut positions = Vec::new();
    let mut indices = Vec::new();
    let n = outer.len();
    for i in 0..n {
        positions.push([outer[i].x, outer[i].y, 0.0]);
        positions.push([inner[i].x, inner[i].y, 0.0]);
    }
    for i in 0..n {
        let j = (i + 1) % n;
        let (a, b, c, d) = (
            2 * i as u32,
            2 * i as u32 + 1,
            2 * j as u32,
            2 * j as u32 + 1,
        );
        indices.extend([a, c, b, b, c, d]);
    }
    finish_mesh(positions, indices)
}

fn rounded_outline(size: Vec2, r: f32) -> Vec<Vec2> {
    let r = r.min(size.x / 2.0).min(size.y / 2.0).max(0.0);
    let half = size / 2.0 - Vec2::splat(r);
    let mut out = Vec::new();
    for (corner, start) in [
        (Vec2::new(half.x, half.y), 0.0),
        (Vec2::new(-half.x, half.y), 90.0),
        (Vec2::new(-half.x, -half.y), 180.0),
        (Vec2::new(half.x, -half.y), 270.0),
    ] {
        for k in 0..=6 {
            let a = (start + 90.0 * k as f32 / 6.0).to_radians();
            out.push(corner + Vec2::new(a.cos(), a.sin()) * r);
        }
    }
    out
}

/// Convex pieces a suit is made of, in a 1x1 box.
enum Shape {
    Circle(Vec2, f32),
    Poly(Vec<Vec2>),
}

/// A suit symbol as a mesh fitting a unit box centred on the origin.
pub fn suit_mesh(suit: Suit) -> Mesh {
    shapes_mesh(&suit_shapes(suit))
}

/// The convex pieces of a suit symbol, in a unit box centred on the origin.
fn suit_shapes(suit: Suit) -> Vec<Shape> {
    let v = Vec2::new;
    match suit {
        Suit::Hearts => vec![
            Shape::Circle(v(-0.235, 0.2), 0.265),
            Shape::Circle(v(0.235, 0.2), 0.265),
            Shape::Poly(vec![
                v(-0.49, 0.12),
                v(0.0, -0.48),
                v(0.49, 0.12),
                v(0.0, 0.25),
            ]),
        ],
        Suit::Diamonds => vec![Shape::Poly(vec![
            v(0.0, 0.5),
            v(-0.37, 0.0),
            v(0.0, -0.5),
            v(0.37, 0.0),
        ])],
        Suit::Spades => vec![
            Shape::Circle(v(-0.225, -0.07), 0.25),
            Shape::Circle(v(0.225, -0.07), 0.25),
            Shape::Poly(vec![v(-0.465, -0.0), v(0.465, -0.0), v(0.0, 0.5)]),
            Shape::Poly(vec![v(0.0, -0.05), v(-0.17, -0.5), v(0.17, -0.5)]),
        ],
        Suit::Clubs => vec![
            Shape::Circle(v(0.0, 0.24), 0.22),
            Shape::Circle(v(-0.25, -0.07), 0.22),
            Shape::Circle(v(0.25, -0.07), 0.22),
            Shape::Circle(v(0.0, 0.02), 0.14),
            Shape::Poly(vec![v(0.0, 0.0), v(-0.16, -0.5), v(0.16, -0.5)]),
        ],
    }
}

fn shapes_mesh(shapes: &[Shape]) -> Mesh {
    let mut positions: Vec<[f32; 3]> = Vec::new();
    let mut indices: Vec<u32> = Vec::new();
    for shape in shapes {
        let outline: Vec<Vec2> = match shape {
            Shape::Circle(c, r) => (0..32)
                .map(|k| {
                    let a = k as f32 / 32.0 * std::f32::consts::TAU;
                    *c + Vec2::new(a.cos(), a.sin()) * *r
                })
                .collect(),
            Shape::Poly(points) => points.clone(),
        };
        let centre = outline.iter().copied().sum::<Vec2>() / outline.len() as f32;
        let base = positions.len() as u32;
        positions.push([centre.x, centre.y, 0.0]);
        positions.extend(outline.iter().map(|p| [p.x, p.y, 0.0]));
        let n = outline.len() as u32;
        for k in 0..n {
            let (a, b) = (base + 1 + k, base + 1 + (k + 1) % n);
            // Counter-clockwise whatever the outline's direction.
            let (pa, pb) = (outline[k as usize], outline[((k + 1) % n) as usize]);
            if (pa - centre).perp_dot(pb - centre) >= 0.0 {
                indices.extend([base, a, b]);
            } else {
                indices.extend([base, b, a]);
            }
        }
    }
    finish_mesh(positions, indices)
}

/// A rank's index as convex pieces, height 1, centred on the origin (see `glyphs`).
fn glyph_shapes(rank: Rank) -> Vec<Shape> {
    let (quads, discs) = crate::glyphs::pieces(&crate::glyphs::strokes(rank));
    quads
        .into_iter()
        .map(|q| Shape::Poly(q.to_vec()))
        .chain(
            discs
                .into_iter()
                .map(|c| Shape::Circle(c, crate::glyphs::PEN / 2.0)),
        )
        .collect()
}

fn finish_mesh(positions: Vec<[f32; 3]>, indices: Vec<u32>) -> Mesh {
    let n = positions.len();
    let uvs: Vec<[f32; 2]> = positions.iter().map(|p| [p[0] + 0.5, 0.5 - p[1]]).collect();
    Mesh::new(
        PrimitiveTopology::TriangleList,
        RenderAssetUsages::RENDER_WORLD,
    )
    .with_inserted_attribute(Mesh::ATTRIBUTE_POSITION, positions)
    .with_inserted_attribute(Mesh::ATTRIBUTE_NORMAL, vec![[0.0, 0.0, 1.0]; n])
    .with_inserted_attribute(Mesh::ATTRIBUTE_UV_0, uvs)
    .with_inserted_indices(Indices::U32(indices))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pips_match_the_card_value() {
        for v in 2..=10u8 {
            assert_eq!(pips(v).len(), v as usize);
            // Symmetric about the vertical axis.
            let sx: f32 = pips(v).iter().map(|p| p.0).sum();
            assert!(sx.abs() < 1e-6);
        }
    }

    /// Every point a shape covers lies within `limit` of the origin on each axis.
    fn inside(shapes: &[Shape], limit: Vec2) -> bool {
        shapes.iter().all(|shape| match shape {
            Shape::Circle(c, r) => c.x.abs() + r <= limit.x && c.y.abs() + r <= limit.y,
            Shape::Poly(points) => points
                .iter()
                .all(|p| p.x.abs() <= limit.x && p.y.abs() <= limit.y),
        })
    }

    #[test]
    fn every_face_is_inked_inside_its_card() {
        for size in [Vec2::new(70.0, 98.0), Vec2::new(130.0, 182.0)] {
            let inner = size / 2.0 - Vec2::splat(1.0);
            for suit in Suit::ALL {
                for rank in Rank::ALL {
                    let ink = face_ink(rank, suit, size);
                    assert!(inside(&ink, inner), "{rank:?} of {suit:?} at {size}");
                }
            }
        }
    }

    #[test]
    fn a_face_carries_its_pips() {
        // Corner suits (2), the top right suit, then one suit per pip; each suit is
        // `suit_shapes(suit).len()` pieces, and an index is `glyph_shapes(rank).len()`.
        for suit in Suit::ALL {
            let per_suit = suit_shapes(suit).len();
            for rank in Rank::ALL {
                let middle = match rank.value() {
                    1 => per_suit,
                    11..=13 => glyph_shapes(rank).len() + per_suit,
                    v => v as usize * per_suit,
                };
                let expected = 2 * glyph_shapes(rank).len() + 3 * per_suit + middle;
                let size = Vec2::new(100.0, 140.0);
                assert_eq!(face_ink(rank, suit, size).len(), expected, "{rank:?}");
            }
        }
    }

    #[test]
    fn a_back_pattern_is_one_set_of_marks_inside_the_card() {
        let size = Vec2::new(100.0, 140.0);
        assert!(back_pattern(BackPattern::Plain, size).is_none());
        for pattern in [BackPattern::Lattice, BackPattern::Dots] {
            let marks = back_pattern(pattern, size).expect("a patterned back");
            // 16 px apart: 5 across (78 px of width), 8 down (117.6 px of height).
            assert_eq!(marks.len(), 5 * 8);
            assert!(inside(&marks, size * Vec2::new(0.45, 0.47)));
        }
    }

    #[test]
    fn suits_fit_their_box() {
        for s in Suit::ALL {
            let m = suit_mesh(s);
            let Some(bevy::mesh::VertexAttributeValues::Float32x3(ps)) =
                m.attribute(Mesh::ATTRIBUTE_POSITION)
            else {
                panic!()
            };
            for p in ps {
                assert!(
                    p[0].abs() <= 0.5 + 1e-3 && p[1].abs() <= 0.5 + 1e-3,
                    "{s:?} {p:?}"
                );
            }
        }
    }
}
