//! Spider's table furniture: the placeholders of the columns, stock and foundation, and the
//! markers over the cards (drop targets, the keyboard's column, the two ends of a hint).
use arachne_engine::Move;
use bevy::prelude::*;

use crate::GameKind;
use crate::cards::body::recolour;
use crate::cards::shapes::{ring_mesh, rounded_rect};
use crate::spider::SpiderSystems;
use crate::spider::faces::CardArt;
use crate::spider::highlights::Highlights;
use crate::spider::layout::{Layout, PileId, z};
use crate::spider::piles::Piles;

pub(crate) fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        (place_fixtures
            .after(crate::spider::faces::rebuild_art)
            .after(bevy_tweening::AnimationSystem::AnimationUpdate))
        .in_set(SpiderSystems),
    );
}

/// Placeholders, markers and labels, placed every frame from the layout.
#[derive(Component)]
enum Fixture {
    Placeholder(PileId),
    Marker(u8),
    StockMarker,
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
    mut built_for: Local<Option<(Vec2, usize, f32)>>,
) {
    let (Some(layout), Some(art)) = (layout, art) else {
        return;
    };
    let columns = layout.column_x.len();
    let (_, theme) = art.made_for();
    let key = (layout.card, columns, theme.corner_radius);
    // (Leaving Spider despawns them: coming back makes them again.)
    if *built_for != Some(key) || fixtures.is_empty() {
        // New size, variant or card shape: make placeholders and markers again. (A new colour
        // only recolours them, below: a theme being edited changes colours every frame.)
        for (e, f, ..) in &fixtures {
            if matches!(
                f,
                Fixture::Placeholder(_) | Fixture::Marker(_) | Fixture::StockMarker
            ) {
                commands.entity(e).despawn();
            }
        }
        let r = theme.corner_radius * layout.card.x;
        let ring = meshes.add(ring_mesh(layout.card, r, 2.0));
        let fill = meshes.add(rounded_rect(layout.card, r));
        let ring_mat = materials.add(ColorMaterial::from_color(theme.placeholder));
        let marker_mat = |m: &mut Assets<ColorMaterial>| {
            m.add(ColorMaterial::from_color(theme.highlight.with_alpha(0.4)))
        };
        for c in 0..columns {
            commands.spawn((
                Fixture::Placeholder(PileId::Column(c as u8)),
                DespawnOnExit(GameKind::Spider),
                Mesh2d(ring.clone()),
                MeshMaterial2d(ring_mat.clone()),
                Transform::default(),
            ));
            commands.spawn((
                Fixture::Marker(c as u8),
                DespawnOnExit(GameKind::Spider),
                Mesh2d(fill.clone()),
                MeshMaterial2d(marker_mat(&mut materials)),
                Transform::default(),
                Visibility::Hidden,
            ));
        }
        commands.spawn((
            Fixture::Placeholder(PileId::Stock),
            DespawnOnExit(GameKind::Spider),
            Mesh2d(ring.clone()),
            MeshMaterial2d(ring_mat.clone()),
            Transform::default(),
        ));
        commands.spawn((
            Fixture::Placeholder(PileId::Foundation(0)),
            DespawnOnExit(GameKind::Spider),
            Mesh2d(ring),
            MeshMaterial2d(ring_mat),
            Transform::default(),
        ));
        commands.spawn((
            Fixture::StockMarker,
            DespawnOnExit(GameKind::Spider),
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
                if let Some(m) = material {
                    recolour(&mut materials, &m.0, theme.placeholder);
                }
            }
            Fixture::Marker(c) => {
                // Drop targets, the keyboard's column, or the two ends of a hint. Cards taken
                // up with the keyboard light as a held run's do: where they may go, and the
                // column pointed at in the hint's target colour.
                let taking = highlights.taking.as_ref();
                let taken = taking.filter(|t| t.from == *c).map(|t| t.count as usize);
                let pointed = taking.is_some_and(|t| t.to == Some(*c));
                let (target, selected) = (
                    highlights.targets.contains(c)
                        || (taking.is_some_and(|t| t.targets.contains(c)) && !pointed),
                    highlights.selected == Some(*c) || taken.is_some(),
                );
                let hinted = match hint {
                    Some(Move::Transfer { from, to, .. }) => from == *c || to == *c,
                    Some(Move::Discard { column }) => column == *c,
                    _ => false,
                };
                let on = target || selected || hinted || pointed;
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
                let run = taken.unwrap_or(match hint {
                    _ if target || selected || pointed => 1,
                    Some(Move::Transfer { from, count, .. }) if from == *c => count as usize,
                    Some(Move::Discard { .. }) => 13,
                    _ => 1,
                });
                let first = len.saturating_sub(run.max(1));
                let last = len.saturating_sub(1).max(first);
                let top = layout.position(&shape, PileId::Column(*c), first);
                let bottom = layout.position(&shape, PileId::Column(*c), last);
                let span = top.y - bottom.y;
                t.translation = Vec3::new(top.x, (top.y + bottom.y) / 2.0, z::MARKER);
                t.scale = Vec3::new(1.0, 1.0 + span / layout.card.y, 1.0);
                if let Some(mut m) = material.and_then(|m| materials.get_mut(&m.0)) {
                    let color = if target {
                        theme.highlight
                    } else if selected {
                        theme.selection
                    } else if pointed || matches!(hint, Some(Move::Transfer { to, .. }) if to == *c)
                    {
                        theme.hint_target
                    } else {
                        theme.highlight
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
