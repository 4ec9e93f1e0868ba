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
