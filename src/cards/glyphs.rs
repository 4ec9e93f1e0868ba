//! The card indices (A, 2-10, J, Q, K, and Pro Spider 10's numerals 1-12) as stroked outlines: each glyph is a few centre lines
//! (straight runs and elliptical arcs) drawn with a round-ended pen. Meshes instead of a font
//! keep the indices crisp at any size and through a flip (a squashed text sprite blurs), share
//! one mesh per rank among all cards, and leave Bevy's text stack out of the game.
use arachne_engine::Rank;
use bevy::math::Vec2;

/// Pen width, as a share of the glyph's height.
pub const PEN: f32 = 0.15;

/// Half the height of the centre lines: with the pen's half width the ink spans -0.5..0.5.
const H: f32 = 0.5 - PEN / 2.0;

/// Points along an ellipse centred at `c` with radii `r`, from angle `from` to `to` (degrees,
/// counter-clockwise from +x; `to < from` runs clockwise).
fn arc(c: Vec2, r: Vec2, from: f32, to: f32) -> Vec<Vec2> {
    let steps = ((to - from).abs() / 10.0).ceil().max(2.0) as usize;
    (0..=steps)
        .map(|k| {
            let a = (from + (to - from) * k as f32 / steps as f32).to_radians();
            c + Vec2::new(a.cos() * r.x, a.sin() * r.y)
        })
        .collect()
}

/// `a` followed by `b`.
fn join(mut a: Vec<Vec2>, b: Vec<Vec2>) -> Vec<Vec2> {
    a.extend(b);
    a
}

fn shifted(strokes: Vec<Vec<Vec2>>, by: Vec2) -> Vec<Vec<Vec2>> {
    strokes
        .into_iter()
        .map(|s| s.into_iter().map(|p| p + by).collect())
        .collect()
}

fn turned(strokes: Vec<Vec<Vec2>>) -> Vec<Vec<Vec2>> {
    strokes
        .into_iter()
        .map(|s| s.into_iter().map(|p| -p).collect())
        .collect()
}

fn six() -> Vec<Vec<Vec2>> {
    let v = Vec2::new;
    let bowl = v(0.0, -0.17);
    let r = v(0.23, 0.24);
    // The stem sweeps from the top right down the left side into the bowl.
    vec![join(
        arc(v(0.19, bowl.y), v(0.19 + r.x, H - bowl.y), 80.0, 180.0),
        arc(bowl, r, 180.0, 540.0),
    )]
}

/// The centre lines of a rank's index, in a box of height 1 centred on the origin.
pub fn strokes(rank: Rank) -> Vec<Vec<Vec2>> {
    let v = Vec2::new;
    match rank {
        Rank::Ace => vec![
            vec![v(-0.27, -H), v(0.0, H), v(0.27, -H)],
            vec![v(-0.15, -0.13), v(0.15, -0.13)],
        ],
        Rank::Two => vec![join(
            arc(v(0.0, 0.17), v(0.23, 0.25), 160.0, -25.0),
            vec![v(-0.24, -H), v(0.26, -H)],
        )],
        Rank::Three => vec![join(
            arc(v(0.0, 0.21), v(0.2, 0.21), 155.0, -90.0),
            arc(v(0.0, -0.2), v(0.24, 0.21), 90.0, -155.0),
        )],
        Rank::Four => vec![vec![
            v(0.11, -H),
            v(0.11, H),
            v(-0.26, -0.13),
            v(0.27, -0.13),
        ]],
        Rank::Five => vec![join(
            vec![v(0.22, H), v(-0.17, H), v(-0.2, 0.06)],
            arc(v(0.0, -0.16), v(0.24, 0.26), 130.0, -150.0),
        )],
        Rank::Six => six(),
        Rank::Seven => vec![vec![v(-0.25, H), v(0.26, H), v(-0.06, -H)]],
        Rank::Eight => vec![
            arc(v(0.0, 0.22), v(0.19, 0.2), -90.0, 270.0),
            arc(v(0.0, -0.2), v(0.23, 0.22), 90.0, 450.0),
        ],
        Rank::Nine => turned(six()),
        Rank::Ten => pair(one(), vec![arc(Vec2::ZERO, v(0.17, H), 90.0, 450.0)]),
        Rank::Jack => vec![join(
            vec![v(0.15, H)],
            arc(v(-0.04, -0.19), v(0.19, 0.235), 0.0, -180.0),
        )],
        Rank::Queen => vec![
            arc(v(0.0, 0.02), v(0.25, H - 0.02), 90.0, 450.0),
            vec![v(0.03, -0.17), v(0.27, -H)],
        ],
        Rank::King => vec![
            vec![v(-0.22, H), v(-0.22, -H)],
            vec![v(0.25, H), v(-0.21, -0.05)],
            vec![v(-0.06, 0.08), v(0.26, -H)],
        ],
    }
}

/// The digit 1: a flag and a stem, narrow.
fn one() -> Vec<Vec<Vec2>> {
    let v = Vec2::new;
    vec![vec![v(-0.1, 0.27), v(0.03, H), v(0.03, -H)]]
}

/// Two digits side by side, squeezed into the width of a "10".
fn pair(first: Vec<Vec<Vec2>>, second: Vec<Vec<Vec2>>) -> Vec<Vec<Vec2>> {
    let narrow = |strokes: Vec<Vec<Vec2>>, dx: f32, squeeze: f32| -> Vec<Vec<Vec2>> {
        strokes
            .into_iter()
            .map(|s| {
                s.into_iter()
                    .map(|p| Vec2::new(p.x * squeeze + dx, p.y))
                    .collect()
            })
            .collect()
    };
    let mut s = shifted(first, Vec2::new(-0.26, 0.0));
    let second_is_one = second.len() == 1 && second[0].len() == 3 && second[0][0].x < 0.0;
    s.extend(if second_is_one {
        shifted(second, Vec2::new(0.14, 0.0))
    } else {
        narrow(second, 0.17, 0.7)
    });
    s
}

/// The centre lines of a numeral from 1 to 12 (Pro Spider 10's cards), height 1, centred.
pub fn numeral(n: u8) -> Vec<Vec<Vec2>> {
    match n {
        1 => one(),
        2..=9 => strokes(Rank::from_value(n).expect("2 to 9 are ranks")),
        10 => strokes(Rank::Ten),
        11 => pair(one(), one()),
        _ => pair(one(), strokes(Rank::Two)),
    }
}

/// The letter S (the skip card's index), height 1, centred.
pub fn letter_s() -> Vec<Vec<Vec2>> {
    let v = Vec2::new;
    vec![join(
        arc(v(0.0, 0.21), v(0.22, 0.2), 20.0, 270.0),
        arc(v(0.0, -0.2), v(0.24, 0.22), 90.0, -160.0),
    )]
}

/// Convex pieces that ink the strokes: a quad per segment and a disc at each end and at each
/// corner sharper than a smooth curve's.
pub fn pieces(strokes: &[Vec<Vec2>]) -> (Vec<[Vec2; 4]>, Vec<Vec2>) {
    let half = PEN / 2.0;
    let mut quads = Vec::new();
    let mut discs = Vec::new();
    for line in strokes {
        for (k, pair) in line.windows(2).enumerate() {
            let (a, b) = (pair[0], pair[1]);
            let n = (b - a).normalize_or_zero().perp() * half;
            quads.push([a + n, b + n, b - n, a - n]);
            if k > 0 {
                let before = (a - line[k - 1]).normalize_or_zero();
                let after = (b - a).normalize_or_zero();
                if before.dot(after) < 0.96 {
                    discs.push(a);
                }
            }
        }
        if let (Some(&first), Some(&last)) = (line.first(), line.last()) {
            discs.push(first);
            if last.distance(first) > 1e-4 {
                discs.push(last);
            }
        }
    }
    (quads, discs)
}

/// How wide a rank's index is, for a glyph of height 1.
pub fn width(rank: Rank) -> f32 {
    let (lo, hi) = strokes(rank)
        .iter()
        .flatten()
        .fold((f32::MAX, f32::MIN), |(lo, hi), p| {
            (lo.min(p.x), hi.max(p.x))
        });
    hi - lo + PEN
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_index_fits_its_box_and_stays_narrow() {
        for rank in Rank::ALL {
            for p in strokes(rank).iter().flatten() {
                assert!(p.y.abs() <= H + 1e-4, "{rank:?} {p:?}");
                assert!(p.x.abs() + PEN / 2.0 <= 0.5, "{rank:?} {p:?}");
            }
            let w = width(rank);
            let most = if rank == Rank::Ten { 0.95 } else { 0.7 };
            assert!(w > 0.3 && w <= most, "{rank:?} is {w} wide");
        }
    }

    #[test]
    fn strokes_are_continuous_lines() {
        // No jump inside a stroke longer than a straight run of the glyph.
        for rank in Rank::ALL {
            for line in strokes(rank) {
                assert!(line.len() >= 2, "{rank:?}");
                for pair in line.windows(2) {
                    assert!(pair[0].distance(pair[1]) < 1.0, "{rank:?} {pair:?}");
                }
            }
        }
    }

    #[test]
    fn pieces_cover_each_segment_and_round_each_end() {
        let (quads, discs) = pieces(&strokes(Rank::Seven));
        assert_eq!(quads.len(), 2);
        // Both ends and the one corner.
        assert_eq!(discs.len(), 3);
        for q in quads {
            let width = q[0].distance(q[3]);
            assert!((width - PEN).abs() < 1e-5);
        }
        // A closed loop (the 8's rings) has no end to round twice.
        let (_, discs) = pieces(&strokes(Rank::Eight));
        assert_eq!(discs.len(), 2);
    }

    #[test]
    fn numerals_fit_their_box_and_differ() {
        let mut seen = Vec::new();
        for n in 1..=12u8 {
            let lines = numeral(n);
            assert!(!lines.is_empty());
            for p in lines.iter().flatten() {
                assert!(p.y.abs() <= H + 1e-4, "{n}: {p:?}");
                assert!(p.x.abs() + PEN / 2.0 <= 0.5, "{n}: {p:?}");
            }
            let shape = format!("{lines:?}");
            assert!(!seen.contains(&shape), "{n} looks like another numeral");
            seen.push(shape);
        }
        for p in letter_s().iter().flatten() {
            assert!(
                p.y.abs() <= H + 1e-4 && p.x.abs() + PEN / 2.0 <= 0.5,
                "{p:?}"
            );
        }
    }
}
