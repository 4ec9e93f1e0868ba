//! Pro Spider 10's card faces, drawn like Spider's: numbers 1-12 in four colours (a large numeral
//! in the middle, the index and a mark of the colour's own shape in two corners, so that colour
//! is never the only sign), the joker (a star) and the skip (a barred ring). Bodies and backs are
//! the shared ones, in the same theme as Spider's.
use arachne_engine::Suit;
use arachne_engine::phase10::{Card, Colour};
use bevy::prelude::*;

use crate::cards::body::{Body, CardSides, CoverCards, Covering, hide_covered, part, recolour};
use crate::cards::glyphs;
use crate::cards::motion::CardPose;
use crate::cards::shapes::{
    Shape, placed, ring, ring_mesh, shapes_mesh, star, stroke_shapes, suit_shapes,
};
use crate::core::theme::Theme;
use crate::phase10::P10Systems;
use crate::phase10::layout::P10Layout;
use crate::phase10::view::{P10Card, P10Piles};

pub(crate) fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        (
            rebuild_art,
            dress_cards,
            hide_covered_cards.after(crate::cards::motion::pose_to_transform),
            place_pile_spots,
        )
            .chain()
            .after(bevy_tweening::AnimationSystem::AnimationUpdate)
            .in_set(P10Systems),
    );
}

/// The outline of a pile's spot, the stock's or the discard pile's, beneath its cards: it shows
/// where the pile is when it holds none (the discard pile once a seat took its only card), for
/// a card to be clicked or dropped there.
#[derive(Component)]
struct PileSpot {
    discard: bool,
}

/// The card each entity was dressed as (a stock card takes on its card when drawn).
#[derive(Component)]
struct Dressed(Card);

/// Meshes and materials for the current card size and theme.
#[derive(Resource)]
struct P10Art {
    body: Body,
    theme: Theme,
    /// One ink mesh per kind of card, by [`Card::index`].
    ink: Vec<Handle<Mesh>>,
    /// Ink of each colour, then the joker's and the skip's.
    colours: [Handle<ColorMaterial>; 6],
}

/// The mark that tells a colour without its colour.
pub fn colour_mark(colour: Colour) -> Suit {
    match colour {
        Colour::Red => Suit::Hearts,
        Colour::Blue => Suit::Spades,
        Colour::Green => Suit::Clubs,
        Colour::Yellow => Suit::Diamonds,
    }
}

/// The theme's colour for a card's ink.
pub fn ink_colour(theme: &Theme, card: Card) -> Color {
    match card.colour() {
        Some(Colour::Red) => theme.red,
        Some(Colour::Blue) => theme.four_colour_diamonds,
        Some(Colour::Green) => theme.four_colour_clubs,
        Some(Colour::Yellow) => theme.yellow,
        None if card.is_wild() => theme.court_frame,
        None => theme.black,
    }
}

fn material_index(card: Card) -> usize {
    match card.colour() {
        Some(c) => c as usize,
        None if card.is_wild() => 4,
        None => 5,
    }
}

/// Everything inked on a face of `size`: the index and the mark in the top left corner and,
/// turned round, the bottom right; the large sign in the middle.
pub fn face_ink(card: Card, size: Vec2) -> Vec<Shape> {
    let (w, h) = (size.x, size.y);
    let (index, mark, middle): (Vec<Shape>, Vec<Shape>, Vec<Shape>) =
        match (card.value(), card.colour()) {
            (Some(v), Some(c)) => {
                let numeral = stroke_shapes(&glyphs::numeral(v));
                (numeral.clone(), suit_shapes(colour_mark(c)), numeral)
            }
            _ if card.is_wild() => (star(), star(), star()),
            _ => {
                let mut sign = ring(0.5, 0.12);
                sign.push(Shape::Poly(vec![
                    Vec2::new(-0.31, 0.39),
                    Vec2::new(-0.39, 0.31),
                    Vec2::new(0.31, -0.39),
                    Vec2::new(0.39, -0.31),
                ]));
                (stroke_shapes(&glyphs::letter_s()), sign.clone(), sign)
            }
        };
    let small = (h * 0.14).max((h * 0.17).min(11.0)).max(8.0);
    let index_y = 0.38 * h;
    let mark_y = index_y - small / 2.0 - 0.03 * h - 0.065 * w;
    let mut ink = Vec::new();
    for (sign, turned) in [(1.0, false), (-1.0, true)] {
        ink.extend(placed(
            &index,
            Vec2::new(sign * -0.33 * w, sign * index_y),
            small,
            turned,
        ));
        ink.extend(placed(
            &mark,
            Vec2::new(sign * -0.33 * w, sign * mark_y),
            0.13 * w,
            turned,
        ));
    }
    let big = if card.value().is_some() {
        0.38 * h
    } else {
        0.5 * w
    };
    ink.extend(placed(&middle, Vec2::new(0.04 * w, -0.01 * h), big, false));
    ink
}

/// One card of each ink colour, in the order of [`P10Art`]'s materials (see `material_index`).
fn ink_cards() -> [Card; 6] {
    [
        Card::number(Colour::Red, 1),
        Card::number(Colour::Blue, 1),
        Card::number(Colour::Green, 1),
        Card::number(Colour::Yellow, 1),
        Some(Card::WILD),
        Some(Card::SKIP),
    ]
    .map(|c| c.unwrap_or(Card::SKIP))
}

fn rebuild_art(
    mut commands: Commands,
    layout: Option<Res<P10Layout>>,
    theme: Res<Theme>,
    art: Option<ResMut<P10Art>>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<ColorMaterial>>,
    mut clear: ResMut<ClearColor>,
    cards: Query<(Entity, &CardSides), With<P10Card>>,
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
    // Only colours changed: the cards keep their entities and meshes, the materials are
    // recoloured.
    if let Some(mut art) = art
        && art.body.size == size
        && art.theme.same_shapes(&theme)
    {
        art.body.recolour(&theme, &mut materials);
        for (handle, card) in art.colours.iter().zip(ink_cards()) {
            recolour(&mut materials, handle, ink_colour(&theme, card));
        }
        art.theme = theme.clone();
        return;
    }
    let body = Body::new(size, &theme, &mut meshes, &mut materials);
    let ink = (0..50)
        .filter_map(Card::from_index)
        .map(|card| meshes.add(shapes_mesh(&face_ink(card, size))))
        .collect();
    let colours =
        ink_cards().map(|c| materials.add(ColorMaterial::from_color(ink_colour(&theme, c))));
    for (e, sides) in &cards {
        commands.entity(sides.face).despawn();
        commands.entity(sides.back).despawn();
        commands.entity(e).remove::<(CardSides, Dressed)>();
    }
    commands.insert_resource(P10Art {
        body,
        theme: theme.clone(),
        ink,
        colours,
    });
}

fn dress_cards(
    mut commands: Commands,
    art: Option<Res<P10Art>>,
    cards: Query<(
        Entity,
        &P10Card,
        &CardPose,
        Option<&Dressed>,
        Option<&CardSides>,
    )>,
) {
    let Some(art) = art else { return };
    for (e, view, pose, dressed, sides) in &cards {
        if dressed.is_some_and(|d| d.0 == view.card) {
            continue;
        }
        if let Some(sides) = sides {
            // Dressed as another card: a stock card that turned out to be this one.
            commands.entity(sides.face).despawn();
            commands.entity(sides.back).despawn();
        }
        let face = spawn_face(&mut commands, &art, view.card);
        let sides = art.body.dress(&mut commands, e, face, pose.face_shown);
        commands.entity(e).insert((sides, Dressed(view.card)));
    }
}

fn spawn_face(commands: &mut Commands, art: &P10Art, card: Card) -> Entity {
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
            p.spawn(part(
                &art.ink[card.index()],
                &art.colours[material_index(card)],
                Transform::from_xyz(0.0, 0.0, 0.003),
            ));
        })
        .id()
}

/// Draws only what shows of the cards that lie under another at rest in the stock, the hands
/// and the laid groups, and every other card whole (see [`hide_covered`]). The stock steps up a
/// little every twelve cards, so eleven of each twelve are hidden and the twelfth cut to its
/// edge; a hand's or a group's cards overlap along a row, so all but the top one are cut to the
/// strip that shows (a card raised out of its row, dragged or in flight is drawn whole); the
/// discard pile's cards each lie a little askew and are all drawn.
fn hide_covered_cards(
    piles: Res<P10Piles>,
    art: Option<Res<P10Art>>,
    mut cards: CoverCards<P10Card>,
    mut covering: Covering,
) {
    let stacks = std::iter::once(piles.stock.as_slice())
        .chain(piles.hands.iter().map(Vec::as_slice))
        .chain(piles.groups.iter().flatten().map(Vec::as_slice));
    let changed = piles.is_changed() || art.as_ref().is_some_and(|a| a.is_changed());
    hide_covered(
        stacks,
        &mut cards,
        &mut covering,
        art.as_ref().map(|a| &a.body),
        changed,
    );
}

/// Places the piles' outlines ([`PileSpot`]) where the layout has the piles, made again for a
/// new card size or shape and recoloured with the theme.
fn place_pile_spots(
    mut commands: Commands,
    layout: Option<Res<P10Layout>>,
    theme: Res<Theme>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<ColorMaterial>>,
    mut spots: Query<(
        Entity,
        &PileSpot,
        &mut Transform,
        &MeshMaterial2d<ColorMaterial>,
    )>,
    mut built_for: Local<Option<(Vec2, f32)>>,
) {
    let Some(layout) = layout else { return };
    let key = (layout.card, theme.corner_radius);
    if *built_for != Some(key) || spots.is_empty() {
        for (e, ..) in &spots {
            commands.entity(e).despawn();
        }
        let ring = meshes.add(ring_mesh(
            layout.card,
            theme.corner_radius * layout.card.x,
            2.0,
        ));
        let material = materials.add(ColorMaterial::from_color(theme.placeholder));
        for discard in [false, true] {
            commands.spawn((
                PileSpot { discard },
                DespawnOnExit(crate::GameKind::ProSpider10),
                Mesh2d(ring.clone()),
                MeshMaterial2d(material.clone()),
                Transform::default(),
            ));
        }
        *built_for = Some(key);
        return;
    }
    for (_, spot, mut t, material) in &mut spots {
        let at = if spot.discard {
            layout.discard
        } else {
            layout.stock
        };
        // Beneath the piles' first cards.
        let z = crate::phase10::layout::z::STOCK - 0.5;
        if t.translation != at.extend(z) {
            t.translation = at.extend(z);
        }
        if theme.is_changed() {
            recolour(&mut materials, &material.0, theme.placeholder);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_face_is_inked_inside_its_card() {
        for size in [
            Vec2::new(40.0, 56.0),
            Vec2::new(65.0, 91.0),
            Vec2::new(93.0, 130.0),
        ] {
            let inner = size / 2.0 - Vec2::splat(1.0);
            for card in (0..50).filter_map(Card::from_index) {
                assert!(
                    Shape::all_within(&face_ink(card, size), inner),
                    "{card} at {size}"
                );
            }
        }
    }

    #[test]
    fn each_colour_has_its_own_mark() {
        let marks: std::collections::BTreeSet<_> = Colour::ALL
            .iter()
            .map(|&c| format!("{:?}", colour_mark(c)))
            .collect();
        assert_eq!(marks.len(), 4);
    }
}
