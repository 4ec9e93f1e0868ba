//! Spider's card faces: corner indices and suits, pips, court letters and frames, one ink mesh
//! per card, dressed onto each new card entity over the shared [`Body`].
use arachne_engine::{Rank, Suit};
use bevy::prelude::*;

use crate::cards::body::{Body, CardSides, CoverCards, Covering, hide_covered, part, recolour};
use crate::cards::motion::CardPose;
use crate::cards::shapes::{
    Shape, glyph_shapes, lozenge, placed, rounded_rect, shapes_mesh, suit_shapes,
};
use crate::core::theme::Theme;
use crate::spider::SpiderSystems;
use crate::spider::layout::Layout;
use crate::spider::piles::{CardView, Piles};

/// Makes the card art and dresses the cards (public for the headless tests of the theme).
pub fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        ((
            rebuild_art,
            dress_new_cards,
            hide_covered_cards.after(crate::cards::motion::pose_to_transform),
        )
            .chain()
            .after(bevy_tweening::AnimationSystem::AnimationUpdate))
        .in_set(SpiderSystems),
    );
}

/// Meshes and materials for the current card size and theme.
#[derive(Resource)]
pub(crate) struct CardArt {
    body: Body,
    theme: Theme,
    frame_outer: Handle<Mesh>,
    frame_inner: Handle<Mesh>,
    /// Everything inked on a face (indices, suits, pips) as one mesh per card, indexed by
    /// [`face_index`]: a card face is a handful of entities, not one per pip.
    face_ink: Vec<Handle<Mesh>>,
    lozenge: Handle<Mesh>,
    court_frame: Handle<ColorMaterial>,
    ink: [Handle<ColorMaterial>; 4],
}

impl CardArt {
    /// The card size and theme the art was made for.
    pub(crate) fn made_for(&self) -> (Vec2, &Theme) {
        (self.body.size, &self.theme)
    }
}

fn suit_index(s: Suit) -> usize {
    match s {
        Suit::Spades => 0,
        Suit::Hearts => 1,
        Suit::Diamonds => 2,
        Suit::Clubs => 3,
    }
}

pub(crate) fn rebuild_art(
    mut commands: Commands,
    layout: Option<Res<Layout>>,
    theme: Res<Theme>,
    art: Option<ResMut<CardArt>>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<ColorMaterial>>,
    mut clear: ResMut<ClearColor>,
    cards: Query<(Entity, &CardSides)>,
) {
    let Some(layout) = layout else { return };
    let size = layout.card;
    if art
        .as_ref()
        .is_some_and(|a| a.body.size == size && a.theme == *theme)
    {
        return;
    }
    clear.0 = theme.table;
    // Only colours changed (a theme being edited): the cards keep their entities and meshes,
    // their materials take the new colours.
    if let Some(mut art) = art
        && art.body.size == size
        && art.theme.same_shapes(&theme)
    {
        art.body.recolour(&theme, &mut materials);
        recolour(&mut materials, &art.court_frame, theme.court_frame);
        for s in Suit::ALL {
            recolour(&mut materials, &art.ink[suit_index(s)], theme.suit_color(s));
        }
        art.theme = theme.clone();
        return;
    }
    let r = theme.corner_radius * size.x;
    let body = Body::new(size, &theme, &mut meshes, &mut materials);
    let mut mat = |c: Color| materials.add(ColorMaterial::from_color(c));
    let art = CardArt {
        body,
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
        lozenge: meshes.add(shapes_mesh(&[lozenge()])),
        court_frame: mat(theme.court_frame),
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
        let sides = art.body.dress(&mut commands, e, face, pose.face_shown);
        commands.entity(e).insert(sides);
    }
}

fn face_index(rank: Rank, suit: Suit) -> usize {
    suit_index(suit) * 13 + rank as usize - 1
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
    let (w, h) = (art.body.size.x, art.body.size.y);
    let (rank, suit) = (view.card.rank(), view.card.suit());
    let at = |x: f32, y: f32, zz: f32, s: f32| {
        Transform::from_xyz(x * w, y * h, zz).with_scale(Vec3::splat(s * w))
    };
    commands
        .spawn((Transform::default(), Visibility::Inherited))
        .with_children(|p| {
            p.spawn(part(
                &art.body.face_rim,
                &art.body.face_border,
                Transform::default(),
            ));
            p.spawn(part(
                &art.body.inner,
                &art.body.face,
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
                    &art.body.face,
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

/// Draws only what shows of the stock's, the columns' and the finished runs' cards that lie
/// under another at rest, and every other card whole (see [`hide_covered`]).
fn hide_covered_cards(
    piles: Res<Piles>,
    art: Option<Res<CardArt>>,
    mut cards: CoverCards<CardView>,
    mut covering: Covering,
) {
    // (Finished runs are King first with the King on top: `hide_covered` reads either order.)
    let stacks = std::iter::once(piles.stock.as_slice())
        .chain(piles.foundations.iter().map(Vec::as_slice))
        .chain(piles.columns.iter().map(Vec::as_slice));
    let changed = piles.is_changed() || art.as_ref().is_some_and(|a| a.is_changed());
    hide_covered(
        stacks,
        &mut cards,
        &mut covering,
        art.as_ref().map(|a| &a.body),
        changed,
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_deal_shows_the_cards_the_stock_hid() {
        use crate::spider::layout::PileId;
        let mut world = World::new();
        world.init_resource::<Assets<Mesh>>();
        world.init_resource::<Assets<ColorMaterial>>();
        let card = arachne_engine::Card::new(Rank::Ace, Suit::Spades);
        // A stock pile of ten cards in one place (as a deal row lies there).
        let stock: Vec<Entity> = (0..10)
            .map(|i| {
                world
                    .spawn((
                        CardView {
                            card,
                            pile: PileId::Stock,
                            index: i,
                            face_up: false,
                        },
                        Transform::from_xyz(500.0, -300.0, 10.0 + i as f32 * 0.01),
                        Visibility::Inherited,
                    ))
                    .id()
            })
            .collect();
        world.insert_resource(Piles {
            stock: stock.clone(),
            ..Piles::default()
        });
        // One system throughout, as in the game: the deal below moves no card in its first
        // frame, so only the piles' change tells it to look again.
        let system = world.register_system(hide_covered_cards);
        world.run_system(system).unwrap();
        let hidden = |w: &World| {
            stock
                .iter()
                .filter(|&&e| *w.get::<Visibility>(e).unwrap() == Visibility::Hidden)
                .count()
        };
        assert_eq!(hidden(&world), 9);
        // The deal takes all ten at once; they fly to the columns (here, still in one place
        // for a frame).
        world.resource_mut::<Piles>().stock.clear();
        world.resource_mut::<Piles>().columns = stock.iter().map(|&e| vec![e]).collect();
        world.run_system(system).unwrap();
        assert_eq!(hidden(&world), 0);
    }

    #[test]
    fn pips_match_the_card_value() {
        for v in 2..=10u8 {
            assert_eq!(pips(v).len(), v as usize);
            // Symmetric about the vertical axis.
            let sx: f32 = pips(v).iter().map(|p| p.0).sum();
            assert!(sx.abs() < 1e-6);
        }
    }

    #[test]
    fn every_face_is_inked_inside_its_card() {
        for size in [Vec2::new(70.0, 98.0), Vec2::new(130.0, 182.0)] {
            let inner = size / 2.0 - Vec2::splat(1.0);
            for suit in Suit::ALL {
                for rank in Rank::ALL {
                    let ink = face_ink(rank, suit, size);
                    assert!(
                        Shape::all_within(&ink, inner),
                        "{rank:?} of {suit:?} at {size}"
                    );
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
}
