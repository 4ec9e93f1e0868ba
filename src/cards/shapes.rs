//! Card art as convex shapes turned into meshes: rounded rectangles and rings for card bodies
//! and placeholders, the four suit symbols, the stroked glyphs of an index. Both games draw
//! their faces from these.
use arachne_engine::{Rank, Suit};
use bevy::asset::RenderAssetUsages;
use bevy::mesh::{Indices, PrimitiveTopology};
use bevy::prelude::*;

use crate::cards::glyphs;

/// Convex pieces a suit is made of, in a 1x1 box.
#[derive(Clone, Debug)]
pub enum Shape {
    /// Centre and radius.
    Circle(Vec2, f32),
    /// A convex polygon.
    Poly(Vec<Vec2>),
}

impl Shape {
    /// Whether every point the shapes cover lies within `limit` of the origin on each axis
    /// (the tests' check that art stays inside its card).
    #[cfg(test)]
    pub(crate) fn all_within(shapes: &[Shape], limit: Vec2) -> bool {
        shapes.iter().all(|shape| match shape {
            Shape::Circle(c, r) => c.x.abs() + r <= limit.x && c.y.abs() + r <= limit.y,
            Shape::Poly(points) => points
                .iter()
                .all(|p| p.x.abs() <= limit.x && p.y.abs() <= limit.y),
        })
    }
}

/// Unit shapes scaled by `scale`, turned half round if `turned`, and moved to `at`.
pub fn placed(shapes: &[Shape], at: Vec2, scale: f32, turned: bool) -> impl Iterator<Item = Shape> {
    let sign = if turned { -scale } else { scale };
    shapes.iter().map(move |shape| match shape {
        Shape::Circle(c, r) => Shape::Circle(at + *c * sign, r * scale),
        Shape::Poly(points) => Shape::Poly(points.iter().map(|p| at + *p * sign).collect()),
    })
}

/// A diamond in a unit box.
pub fn lozenge() -> Shape {
    Shape::Poly(vec![
        Vec2::new(0.0, 0.5),
        Vec2::new(-0.5, 0.0),
        Vec2::new(0.0, -0.5),
        Vec2::new(0.5, 0.0),
    ])
}

/// A rounded rectangle centred on the origin, as a triangle fan.
pub fn rounded_rect(size: Vec2, radius: f32) -> Mesh {
    shapes_mesh(&[Shape::Poly(rounded_outline(size, radius))])
}

/// A rounded-rectangle outline `width` pixels wide.
pub fn ring_mesh(size: Vec2, radius: f32, width: f32) -> Mesh {
    rim_mesh(size, radius, width, (radius - width).max(0.0))
}

/// The rim of a rounded rectangle: the part outside a rectangle `width` pixels in from its edge
/// with corner radius `inner_radius`, so that `rounded_rect(size - 2 * width, inner_radius)`
/// fills the rest exactly (the same outline points, so no pixel is drawn twice or missed).
pub fn rim_mesh(size: Vec2, radius: f32, width: f32, inner_radius: f32) -> Mesh {
    let outer = rounded_outline(size, radius);
    let inner = rounded_outline(size - Vec2::splat(2.0 * width), inner_radius);
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

/// A suit symbol as a mesh fitting a unit box centred on the origin.
pub fn suit_mesh(suit: Suit) -> Mesh {
    shapes_mesh(&suit_shapes(suit))
}

/// The convex pieces of a suit symbol, in a unit box centred on the origin.
pub fn suit_shapes(suit: Suit) -> Vec<Shape> {
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

/// The shapes as one mesh (each a triangle fan from its centre).
pub fn shapes_mesh(shapes: &[Shape]) -> Mesh {
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
pub fn glyph_shapes(rank: Rank) -> Vec<Shape> {
    stroke_shapes(&glyphs::strokes(rank))
}

/// Stroked centre lines (see `glyphs`) as convex pieces.
pub fn stroke_shapes(strokes: &[Vec<Vec2>]) -> Vec<Shape> {
    let (quads, discs) = glyphs::pieces(strokes);
    quads
        .into_iter()
        .map(|q| Shape::Poly(q.to_vec()))
        .chain(
            discs
                .into_iter()
                .map(|c| Shape::Circle(c, glyphs::PEN / 2.0)),
        )
        .collect()
}

/// A ring of `width` (both in a unit box), as quads around a circle.
pub fn ring(radius: f32, width: f32) -> Vec<Shape> {
    let steps = 28;
    let (outer, inner) = (radius, radius - width);
    (0..steps)
        .map(|k| {
            let a0 = k as f32 / steps as f32 * std::f32::consts::TAU;
            let a1 = (k + 1) as f32 / steps as f32 * std::f32::consts::TAU;
            let p = |r: f32, a: f32| Vec2::new(a.cos(), a.sin()) * r;
            Shape::Poly(vec![p(outer, a0), p(outer, a1), p(inner, a1), p(inner, a0)])
        })
        .collect()
}

/// A six-pointed star in a unit box: two triangles.
pub fn star() -> Vec<Shape> {
    let v = Vec2::new;
    vec![
        Shape::Poly(vec![v(0.0, 0.5), v(-0.433, -0.25), v(0.433, -0.25)]),
        Shape::Poly(vec![v(0.0, -0.5), v(0.433, 0.25), v(-0.433, 0.25)]),
    ]
}

/// A mesh's vertex positions, if it has them as three floats each and they are still on this
/// side (not sent to the GPU only).
pub(crate) fn positions(mesh: &Mesh) -> Option<&[[f32; 3]]> {
    match mesh.try_attribute_option(Mesh::ATTRIBUTE_POSITION) {
        Ok(Some(bevy::mesh::VertexAttributeValues::Float32x3(p))) => Some(p),
        _ => None,
    }
}

/// What [`clip_mesh`] leaves of a mesh.
pub enum Clipped {
    /// All of it: nothing lies outside the half-plane.
    Whole,
    /// Nothing.
    Empty,
    /// The part inside the half-plane.
    Part(Box<Mesh>),
}

/// The part of a triangle-list mesh where `n . p >= c` (a half-plane of the mesh's own x-y
/// plane): each triangle cut along the line, as a convex polygon fanned back into triangles,
/// facing as it did. A point on a cut edge is computed from that edge's ends in one order
/// whichever triangle cuts it, so triangles that shared the edge share the point.
pub fn clip_mesh(mesh: &Mesh, n: Vec2, c: f32) -> Clipped {
    // A mesh whose data went to the GPU only is drawn whole.
    let Some(positions) = positions(mesh) else {
        return Clipped::Whole;
    };
    if mesh.primitive_topology() != PrimitiveTopology::TriangleList {
        return Clipped::Whole;
    }
    let side = |p: Vec3| n.dot(p.truncate()) - c;
    if positions.iter().all(|&p| side(Vec3::from(p)) >= 0.0) {
        return Clipped::Whole;
    }
    let indices: Vec<usize> = match mesh.try_indices_option() {
        Ok(Some(indices)) => indices.iter().collect(),
        Ok(None) => (0..positions.len()).collect(),
        Err(_) => return Clipped::Whole,
    };
    let mut out: Vec<[f32; 3]> = Vec::new();
    let mut out_indices: Vec<u32> = Vec::new();
    for tri in indices.chunks_exact(3) {
        let Some(v) = tri
            .iter()
            .map(|&i| positions.get(i).map(|&p| Vec3::from(p)))
            .collect::<Option<Vec<Vec3>>>()
        else {
            continue;
        };
        let d: Vec<f32> = v.iter().map(|&p| side(p)).collect();
        let mut poly: Vec<Vec3> = Vec::with_capacity(4);
        for a in 0..3 {
            let b = (a + 1) % 3;
            if d[a] >= 0.0 {
                poly.push(v[a]);
            }
            if (d[a] >= 0.0) != (d[b] >= 0.0) {
                // The same ends in the same order, whichever triangle asks.
                let ((p, dp), (q, dq)) = if (v[a].x, v[a].y) <= (v[b].x, v[b].y) {
                    ((v[a], d[a]), (v[b], d[b]))
                } else {
                    ((v[b], d[b]), (v[a], d[a]))
                };
                poly.push(p + (q - p) * (dp / (dp - dq)));
            }
        }
        if poly.len() < 3 {
            continue;
        }
        let base = out.len() as u32;
        out.extend(poly.iter().map(|p| p.to_array()));
        for k in 1..poly.len() as u32 - 1 {
            out_indices.extend([base, base + k, base + k + 1]);
        }
    }
    if out_indices.is_empty() {
        Clipped::Empty
    } else {
        // A strip is never cut again: its data need not stay on this side.
        let mut strip = finish_mesh(out, out_indices);
        strip.asset_usage = RenderAssetUsages::RENDER_WORLD;
        Clipped::Part(Box::new(strip))
    }
}

fn finish_mesh(positions: Vec<[f32; 3]>, indices: Vec<u32>) -> Mesh {
    let n = positions.len();
    let uvs: Vec<[f32; 2]> = positions.iter().map(|p| [p[0] + 0.5, 0.5 - p[1]]).collect();
    // Kept on this side too: a covered card's strip is cut from it (`clip_mesh`).
    Mesh::new(
        PrimitiveTopology::TriangleList,
        RenderAssetUsages::default(),
    )
    .with_inserted_attribute(Mesh::ATTRIBUTE_POSITION, positions)
    .with_inserted_attribute(Mesh::ATTRIBUTE_NORMAL, vec![[0.0, 0.0, 1.0]; n])
    .with_inserted_attribute(Mesh::ATTRIBUTE_UV_0, uvs)
    .with_inserted_indices(Indices::U32(indices))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each triangle's signed area (counter-clockwise positive), from a mesh's positions.
    fn signed_areas(mesh: &Mesh) -> Vec<f32> {
        let p = positions(mesh).expect("positions");
        let v = |i: usize| Vec2::new(p[i][0], p[i][1]);
        let idx: Vec<usize> = mesh.indices().expect("indices").iter().collect();
        idx.chunks_exact(3)
            .map(|t| (v(t[1]) - v(t[0])).perp_dot(v(t[2]) - v(t[0])) / 2.0)
            .collect()
    }

    #[test]
    fn a_clipped_mesh_is_the_part_in_its_half_plane() {
        let size = Vec2::new(100.0, 140.0);
        let meshes = [
            rounded_rect(size, 8.0),
            rim_mesh(size, 8.0, 1.0, 7.0),
            shapes_mesh(&suit_shapes(Suit::Hearts)),
        ];
        let total = |m: &Mesh| signed_areas(m).iter().sum::<f32>();
        for mesh in &meshes {
            let whole = total(mesh);
            assert!(whole > 0.0);
            for (n, c) in [
                (Vec2::Y, 40.0),
                (Vec2::NEG_Y, 10.0),
                (Vec2::X, -20.5),
                (Vec2::NEG_X, 0.3),
                (Vec2::Y, 0.1),
            ] {
                let part = |n: Vec2, c: f32| match clip_mesh(mesh, n, c) {
                    Clipped::Part(m) => Some(*m),
                    Clipped::Whole => Some(mesh.clone()),
                    Clipped::Empty => None,
                };
                let (inside, outside) = (part(n, c), part(-n, -c));
                if let Some(inside) = &inside {
                    // Every triangle faces as before, and every point lies in its half-plane.
                    assert!(signed_areas(inside).iter().all(|&a| a >= -1e-4));
                    let p = positions(inside).expect("positions");
                    assert!(p.iter().all(|p| n.dot(Vec2::new(p[0], p[1])) >= c - 1e-3));
                }
                // The two sides of the line make up the whole mesh.
                let area = |m: &Option<Mesh>| m.as_ref().map_or(0.0, total);
                let sum = area(&inside) + area(&outside);
                assert!((sum - whole).abs() < whole * 1e-4, "{sum} against {whole}");
            }
        }
        // A plain rectangle's strip above y = 40 is 100 x 30.
        let Clipped::Part(strip) = clip_mesh(&meshes[0], Vec2::Y, 40.0) else {
            panic!("cut");
        };
        assert!((total(&strip) - (100.0 * 30.0 - (4.0 - std::f32::consts::PI) * 32.0)).abs() < 2.0);
        assert!(matches!(
            clip_mesh(&meshes[0], Vec2::Y, -70.0),
            Clipped::Whole
        ));
        assert!(matches!(
            clip_mesh(&meshes[0], Vec2::Y, 70.5),
            Clipped::Empty
        ));
    }

    #[test]
    fn suits_fit_their_box() {
        for s in Suit::ALL {
            let m = suit_mesh(s);
            for p in positions(&m).expect("positions") {
                assert!(
                    p[0].abs() <= 0.5 + 1e-3 && p[1].abs() <= 0.5 + 1e-3,
                    "{s:?} {p:?}"
                );
            }
        }
    }
}
