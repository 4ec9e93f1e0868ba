//! Pro Spider 10's cards as entities, moved by the engine's events: the deal card by card to each
//! seat, draws (the player's own card turns up on its way), phases laid out of a hand, hits,
//! discards, skips flying to their seat and served, reshuffles, the hands turned up at the
//! round's end, and the cards gathered onto the stock before the next round's deal. At rest,
//! every entity is where the engine has its card.
use std::collections::HashMap;

use arachne_engine::phase10::{Card, Event, Game, Stage};
use bevy::prelude::*;
use bevy::window::{PrimaryWindow, WindowResized};
use bevy_tweening::TweenAnim;

use crate::audio::cues::PendingSounds;
use crate::cards::motion::{CardPose, Plan, Segment, SegmentKind, build, commit, motion_settings};
use crate::cards::pointer::window_size;
use crate::core::settings::{Motion, Settings};
use crate::phase10::P10Systems;
use crate::phase10::layout::{BarBand, P10Layout, P10Shape, Place};
use crate::phase10::plan::{order_groups, plan_event, settle_plan, sort_hand, spawn_card};
use crate::phase10::round::{P10Changed, P10Table, PLAYER};
use crate::phase10::seats::Hurry;
use crate::{AppSystems, GameKind};

pub(crate) fn plugin(app: &mut App) {
    app.init_resource::<P10Piles>()
        .init_resource::<BarBand>()
        .init_resource::<Selection>()
        .init_resource::<Using>()
        .add_message::<WindowResized>()
        .add_systems(OnEnter(GameKind::ProSpider10), show_table)
        .add_systems(OnExit(GameKind::ProSpider10), notices_at_top)
        .add_systems(
            Update,
            (
                // The relayout is planned in the same frame: the table never rests laid out
                // for the old window.
                (track_window, lay_out_again_at_rest)
                    .chain()
                    .in_set(AppSystems::Input),
                place_notices.in_set(AppSystems::Plan),
                (show_changes, raise_chosen)
                    .chain()
                    .in_set(AppSystems::Plan),
                despawn_gathered.in_set(AppSystems::Motion),
            )
                .in_set(P10Systems),
        );
}

/// A card of Pro Spider 10 on the table.
#[derive(Component, Clone, Copy, Debug, PartialEq)]
#[component(clone_behavior = Ignore)]
pub struct P10Card {
    /// The card.
    pub card: Card,
    /// Where it lies.
    pub place: Place,
    /// Whether it shows its face at rest (the player's hand, everything laid or discarded).
    pub face_up: bool,
}

/// A card of the round that ended, on its way back to the stock; despawned once there.
#[derive(Component, Clone, Copy, Debug)]
#[component(clone_behavior = Ignore)]
pub struct Leaving;

/// The last round's cards are gone once gathered onto the stock.
fn despawn_gathered(
    mut commands: Commands,
    gathered: Query<Entity, (With<Leaving>, Without<TweenAnim>)>,
) {
    for e in &gathered {
        commands.entity(e).despawn();
    }
}

/// The view's copy of the table: which entity lies where.
#[derive(Resource, Default, Debug, Clone)]
#[component(clone_behavior = Ignore)]
pub struct P10Piles {
    /// The stock, top last.
    pub stock: Vec<Entity>,
    /// The discard pile, top last.
    pub discard: Vec<Entity>,
    /// Each seat's hand (the player's in the order shown).
    pub hands: Vec<Vec<Entity>>,
    /// Each seat's laid groups.
    pub groups: Vec<Vec<Vec<Entity>>>,
    /// A skip in front of each seat.
    pub skips: Vec<Option<Entity>>,
    /// The hands are shown face up (the round is over).
    pub revealed: bool,
    /// Every hand is shown face up all the time (the replay viewer, when asked).
    pub show_all: bool,
    /// The card each entity shows. A card on the stock takes on its card when it is drawn or
    /// dealt (face down, any card looks the same).
    pub cards: HashMap<Entity, Card>,
}

impl P10Piles {
    /// Empty piles with room for `game`'s hands, laid groups and skips; the hands face up when
    /// its round is over.
    fn empty_for(game: &Game, show_all: bool) -> P10Piles {
        let n = game.players();
        P10Piles {
            show_all,
            revealed: matches!(game.stage(), Stage::RoundOver | Stage::Over),
            hands: vec![Vec::new(); n],
            groups: game
                .laid()
                .iter()
                .map(|g| vec![Vec::new(); g.len()])
                .collect(),
            skips: vec![None; n],
            ..P10Piles::default()
        }
    }

    /// Puts `e`, showing `card`, on top of the pile `place` is in (places come in order).
    fn put(&mut self, place: Place, e: Entity, card: Card) {
        self.cards.insert(e, card);
        match place {
            Place::Stock(_) => self.stock.push(e),
            Place::Discard(_) => self.discard.push(e),
            Place::Hand(s, _) => self.hands[s].push(e),
            Place::Group(s, g, _) => self.groups[s][g].push(e),
            Place::Skip(s) => self.skips[s] = Some(e),
        }
    }

    /// The counts the layout needs.
    pub fn shape(&self) -> P10Shape {
        P10Shape {
            hands: self.hands.iter().map(Vec::len).collect(),
            groups: self
                .groups
                .iter()
                .map(|g| g.iter().map(Vec::len).collect())
                .collect(),
            stock: self.stock.len(),
            discard: self.discard.len(),
        }
    }

    /// Every entity with its place.
    pub fn placed(&self) -> Vec<(Entity, Place)> {
        let mut out = Vec::new();
        out.extend(
            self.stock
                .iter()
                .enumerate()
                .map(|(i, &e)| (e, Place::Stock(i))),
        );
        out.extend(
            self.discard
                .iter()
                .enumerate()
                .map(|(i, &e)| (e, Place::Discard(i))),
        );
        for (s, hand) in self.hands.iter().enumerate() {
            out.extend(
                hand.iter()
                    .enumerate()
                    .map(|(i, &e)| (e, Place::Hand(s, i))),
            );
        }
        for (s, groups) in self.groups.iter().enumerate() {
            for (g, group) in groups.iter().enumerate() {
                out.extend(
                    group
                        .iter()
                        .enumerate()
                        .map(|(i, &e)| (e, Place::Group(s, g, i))),
                );
            }
        }
        for (s, skip) in self.skips.iter().enumerate() {
            out.extend(skip.map(|e| (e, Place::Skip(s))));
        }
        out
    }
}

/// The player's chosen cards (raised in the hand).
#[derive(Resource, Default, Debug, Clone, PartialEq)]
#[component(clone_behavior = Ignore)]
pub struct Selection(pub Vec<Entity>);

/// The cards of the player's hand that the player's latest act was made with: the card dropped,
/// double-clicked or the keyboard's, the chosen ones. Every card is in the deck twice (a joker
/// eight times) and the engine hears only which card; when the hand holds a twin of one of
/// these, the view moves this one, not its twin (which stayed in the hand, raised and chosen).
/// Each act of the player sets it; the next change shown uses it up. The chosen cards
/// ([`Selection`]) come after these.
#[derive(Resource, Default, Debug, Clone, PartialEq)]
#[component(clone_behavior = Ignore)]
pub struct Using(pub Vec<Entity>);

/// How far a chosen card rises, as a share of the card's height.
pub const RAISE: f32 = 0.22;

/// Where a card rests, and which side it shows there.
pub fn rest_pose(
    layout: &P10Layout,
    shape: &P10Shape,
    place: Place,
    face_up: bool,
    raised: bool,
) -> CardPose {
    let mut at = layout.position(shape, place);
    if raised {
        at.y += layout.card.y * RAISE;
    }
    CardPose {
        translation: at,
        flip: 1.0,
        face_shown: face_up,
    }
}

/// Whether a card at `place` shows its face at rest.
pub(crate) fn face_up_at(place: Place, revealed: bool) -> bool {
    match place {
        Place::Stock(_) => false,
        Place::Hand(seat, _) => seat == PLAYER || revealed,
        _ => true,
    }
}

fn show_table(
    mut commands: Commands,
    table: Res<P10Table>,
    mut piles: ResMut<P10Piles>,
    mut selection: ResMut<Selection>,
    settings: Res<Settings>,
) {
    // Coming back to the game: its cards are put out again at rest, as new entities (a choice
    // of the old ones is forgotten).
    *piles = P10Piles {
        show_all: piles.show_all,
        ..P10Piles::default()
    };
    selection.0.clear();
    spawn_at_rest(
        &mut commands,
        &table,
        &mut piles,
        settings.phase10.sort_by_colour,
    );
}

/// A window of another size lays the table out anew: the cards glide to their new places once
/// they are at rest (a deal under way finishes first, as when the bar's band changes).
fn track_window(
    mut resized: MessageReader<WindowResized>,
    window: Query<&Window, With<PrimaryWindow>>,
    table: Res<P10Table>,
    layout: Option<ResMut<P10Layout>>,
    mut band: ResMut<BarBand>,
) {
    if resized.read().count() == 0 {
        return;
    }
    if let Some(mut layout) = layout {
        let new = compute_layout(&table, window_size(&window), Some(&band));
        if *layout != new {
            *layout = new;
            band.stale = true;
        }
    }
}

/// Lays the table out again once the window or the bar's band has changed and the cards are at
/// rest (a deal under way finishes first). Told to the view directly, not as a request: the
/// replay viewer's table is laid out again too (requests wait while it shows its game).
fn lay_out_again_at_rest(
    mut band: ResMut<BarBand>,
    moving: Query<(), (With<TweenAnim>, With<P10Card>)>,
    mut changed: MessageWriter<P10Changed>,
) {
    if band.stale && moving.is_empty() {
        band.stale = false;
        changed.write(P10Changed::laid_out_again());
    }
}

/// The layout for the table in a window of `size`, above the bar's `band` as measured.
pub fn compute_layout(table: &P10Table, size: Vec2, band: Option<&BarBand>) -> P10Layout {
    let band = band.map_or(crate::phase10::layout::BAR_BAND, |b| b.band);
    P10Layout::compute(table.spec.players, size, band)
}

/// Spawns one entity per card where the engine has it, at rest, the player's hand sorted as
/// the settings say.
fn spawn_at_rest(commands: &mut Commands, table: &P10Table, piles: &mut P10Piles, by_colour: bool) {
    let game = &table.game;
    let mut new = P10Piles::empty_for(game, piles.show_all);
    for (place, card) in engine_places(game) {
        new.put(place, spawn_card(commands, card, Vec3::ZERO), card);
    }
    sort_hand(&mut new, by_colour);
    *piles = new;
    // Places and poses are set by the first frame's settle (`place_all`).
    commands.queue(|world: &mut World| place_all(world, true));
}

/// Every card of `game` with its place, in the order the piles list them (a pile from its
/// bottom, a hand from its left).
fn engine_places(game: &Game) -> Vec<(Place, Card)> {
    let mut places: Vec<(Place, Card)> = Vec::new();
    places.extend(
        game.stock()
            .iter()
            .enumerate()
            .map(|(i, &c)| (Place::Stock(i), c)),
    );
    places.extend(
        game.discard_pile()
            .iter()
            .enumerate()
            .map(|(i, &c)| (Place::Discard(i), c)),
    );
    for s in 0..game.players() {
        places.extend(
            game.hand(s)
                .iter()
                .enumerate()
                .map(|(i, &c)| (Place::Hand(s, i), c)),
        );
    }
    for (s, groups) in game.laid().iter().enumerate() {
        for (g, group) in groups.iter().enumerate() {
            places.extend(
                group
                    .cards()
                    .iter()
                    .enumerate()
                    .map(|(i, &c)| (Place::Group(s, g, i), c)),
            );
        }
    }
    for (s, &skip) in game.skips().iter().enumerate() {
        if skip {
            places.push((Place::Skip(s), Card::SKIP));
        }
    }
    places
}

/// The pile a place is in (its index left out).
fn pile_of(place: Place) -> Place {
    match place {
        Place::Stock(_) => Place::Stock(0),
        Place::Discard(_) => Place::Discard(0),
        Place::Hand(seat, _) => Place::Hand(seat, 0),
        Place::Group(seat, g, _) => Place::Group(seat, g, 0),
        Place::Skip(seat) => Place::Skip(seat),
    }
}

/// The piles made over for `table`'s position, keeping the entities on the table: each card
/// takes an entity showing that card in the same pile if there is one, else one showing it
/// elsewhere; the stock takes the stock's entities. What is left pairs face-down entities with
/// face-up places first (they turn up on the way), then anything; an entity that showed another
/// card face up turns down and up again on its way. A card with no entity left is spawned on the
/// stock. A hand keeps the order its cards had (the player's is sorted after). The entities left
/// over are no longer in the piles (the caller despawns them); the motion to the new places is
/// planned by `settle_plan`.
fn rearrange(
    commands: &mut Commands,
    table: &P10Table,
    piles: &mut P10Piles,
    plan: &mut Plan,
    layout: &P10Layout,
    a: &crate::core::settings::AnimationSettings,
) {
    let game = &table.game;
    let wanted = engine_places(game);
    let mut new = P10Piles::empty_for(game, piles.show_all);
    let shown_before = piles.revealed || piles.show_all;
    let shown_now = new.revealed || new.show_all;
    let up = |place: Place| face_up_at(place, shown_now);
    // The entities on the table: where each lay, its card, and whether it showed it.
    type Before = (Entity, Place, Card, bool);
    let mut free: Vec<Before> = piles
        .placed()
        .into_iter()
        .map(|(e, place)| {
            let card = piles.cards.get(&e).copied().unwrap_or(Card::SKIP);
            (e, place, card, face_up_at(place, shown_before))
        })
        .collect();
    let before: HashMap<Entity, (Place, Card, bool)> = free
        .iter()
        .map(|&(e, place, card, shown)| (e, (place, card, shown)))
        .collect();
    let mut taken: Vec<Option<Entity>> = vec![None; wanted.len()];
    let take = |pred: &dyn Fn(&Before, Place, Card) -> bool,
                taken: &mut Vec<Option<Entity>>,
                free: &mut Vec<Before>| {
        for (k, &(place, card)) in wanted.iter().enumerate() {
            if taken[k].is_some() {
                continue;
            }
            if let Some(i) = free.iter().position(|f| pred(f, place, card)) {
                taken[k] = Some(free.swap_remove(i).0);
            }
        }
    };
    // The same card in the same pile stays (face down, any card alike); a card shown face up
    // comes from where that card lies; the stock takes the stock's entities.
    take(
        &|f, place, card| pile_of(f.1) == pile_of(place) && (!up(place) && !f.3 || f.2 == card),
        &mut taken,
        &mut free,
    );
    take(
        &|f, place, card| up(place) && f.2 == card,
        &mut taken,
        &mut free,
    );
    take(
        &|f, place, _| !up(place) && matches!(f.1, Place::Stock(_)),
        &mut taken,
        &mut free,
    );
    take(&|f, place, _| up(place) && !f.3, &mut taken, &mut free);
    take(&|f, place, _| !up(place) && f.3, &mut taken, &mut free);
    take(&|_, _, _| true, &mut taken, &mut free);
    let stock_top = layout.position(&piles.shape(), Place::Stock(piles.stock.len()));
    let move_s = a.secs(a.move_ms);
    for (k, &(place, card)) in wanted.iter().enumerate() {
        let e = match taken[k] {
            Some(e) => {
                // A face that would change in mid-air turns down and up again on the way.
                if up(place)
                    && let Some(&(_, shown, true)) = before.get(&e)
                    && shown != card
                {
                    let to = layout.position(&piles.shape(), place);
                    plan.glide(e, Motion::Move, 0.0, move_s / 2.0, to, Some(false));
                    plan.glide(e, Motion::Flip, move_s / 2.0, move_s / 2.0, to, Some(true));
                }
                e
            }
            None => {
                let e = spawn_card(commands, card, stock_top);
                // Its leg's end is set by the settle.
                plan.glide(e, Motion::Move, 0.0, move_s, stock_top, Some(false));
                e
            }
        };
        new.put(place, e, card);
    }
    // A hand keeps its cards' order: those it held before where they were, those coming back
    // after them.
    for (s, hand) in new.hands.iter_mut().enumerate() {
        hand.sort_by_key(|e| match before.get(e) {
            Some(&(Place::Hand(seat, i), ..)) if seat == s => i,
            _ => usize::MAX,
        });
    }
    let moved = !free.is_empty()
        || new
            .placed()
            .into_iter()
            .any(|(e, place)| before.get(&e).map(|b| b.0) != Some(place));
    if moved {
        plan.sound(0.0, crate::audio::cues::Sfx::Pick, 0.9);
    }
    *piles = new;
}

/// Puts every card at its resting place now (no motion).
pub fn place_all(world: &mut World, drop_motion: bool) {
    let piles = world.resource::<P10Piles>().clone();
    let table = world.resource::<P10Table>().clone();
    let size = world
        .query_filtered::<&Window, With<PrimaryWindow>>()
        .iter(world)
        .next()
        .map_or(Vec2::new(1280.0, 720.0), |w| {
            Vec2::new(w.width(), w.height())
        });
    let layout = compute_layout(&table, size, world.get_resource::<BarBand>());
    let shape = piles.shape();
    let selection = world.resource::<Selection>().0.clone();
    for (e, place) in piles.placed() {
        let face_up = face_up_at(place, piles.revealed || piles.show_all);
        let raised = selection.contains(&e);
        let Ok(mut entity) = world.get_entity_mut(e) else {
            continue;
        };
        if drop_motion {
            entity.remove::<TweenAnim>();
        }
        if let Some(mut view) = entity.get_mut::<P10Card>() {
            view.place = place;
            view.face_up = face_up;
            if let Some(&card) = piles.cards.get(&e) {
                view.card = card;
            }
        }
        if let Some(mut pose) = entity.get_mut::<CardPose>() {
            *pose = rest_pose(&layout, &shape, place, face_up, raised);
        }
    }
    world.insert_resource(layout);
}

pub(crate) fn show_changes(
    mut commands: Commands,
    mut changes: MessageReader<P10Changed>,
    table: Res<P10Table>,
    settings: Res<Settings>,
    hurry: Res<Hurry>,
    mut piles: ResMut<P10Piles>,
    (mut selection, mut using): (ResMut<Selection>, ResMut<Using>),
    window: Query<&Window, With<PrimaryWindow>>,
    mut cards: Query<(Entity, &mut P10Card, &mut CardPose, Has<TweenAnim>)>,
    mut sounds: ResMut<PendingSounds>,
    mut band: ResMut<BarBand>,
    viewer: Option<Res<crate::phase10::viewer::P10Viewer>>,
    leaving: Query<(), With<Leaving>>,
    mut offered: Local<bool>,
) {
    if changes.is_empty() {
        return;
    }
    // The player may knock for the card just discarded: two raps as it lands, once for each
    // offer (the same offer laid out again stays quiet), with its motion off too (the player
    // hurried the computer seats) when no other sound plays.
    let offer = viewer.is_none()
        && matches!(table.game.stage(), Stage::Knock { asking, .. } if asking == PLAYER);
    let rap = offer && !*offered;
    *offered = offer;
    // A new table is laid out from the table as it is now, after every request of this frame:
    // the changes before it belong to a table that is gone (its seats may be more than the new
    // layout has), and are not played.
    let all: Vec<&P10Changed> = changes.read().collect();
    let from = all
        .iter()
        .rposition(|c| c.new_game && !c.rearranged)
        .unwrap_or(0);
    let batch = &all[from..];
    let last = batch.len() - 1;
    // The player's own cards to move first where the hand holds twins (a computer seat's
    // hand holds none of them).
    let mut prefer = std::mem::take(&mut using.0);
    let chosen: Vec<Entity> = selection
        .0
        .iter()
        .copied()
        .filter(|e| !prefer.contains(e))
        .collect();
    prefer.extend(chosen);
    let mut rap_at = 0.0;
    // A replay faster than its usual 2 steps a second moves its cards faster too (else the
    // cards set the pace). Hurrying is for the computer seats of the player's game: a flag
    // left from it does not make a replay instant and silent.
    let scale = viewer.as_deref().map_or(1.0, |v| {
        (v.speed / crate::phase10::viewer::USUAL_SPEED).max(1.0)
    });
    let mut settings = motion_settings(&settings, scale);
    if hurry.0 && viewer.is_none() {
        settings.animation.instant = true;
    }
    let a = &settings.animation;
    let layout = compute_layout(&table, window_size(&window), Some(&band));
    // Every card goes where this layout has it: a relayout waiting for rest is done too.
    if band.stale {
        band.stale = false;
    }
    let sort_by_colour = settings.phase10.sort_by_colour;
    // Cards despawned by a change earlier in this frame: the query still holds them until the
    // commands apply, with places at a table that is gone (perhaps at seats the new one has not).
    let mut despawned: std::collections::HashSet<Entity> = Default::default();
    for (k, &change) in batch.iter().enumerate() {
        // A decision during an animation: the running motion finishes at once first. A new
        // table (or round) takes every card away below, so its cards only stop.
        let shape = piles.shape();
        let fresh = change.new_game
            || change
                .events
                .iter()
                .any(|e| matches!(e, Event::RoundStarted { .. }));
        // The table only laid out again (the hand sorted, the window resized): the cards in
        // motion glide on to their new places from where they are, instead of jumping to rest
        // (a hand sorted during the deal once snapped the whole deal into place).
        let only_layout = !change.changes_game();
        // While the last round's cards are gathered to the stock, the new deal waits for them:
        // laid out again now, it would fly out at once. The table is laid out again at rest.
        if only_layout && !leaving.is_empty() {
            band.stale = true;
            continue;
        }
        for (e, view, mut pose, animated) in cards.iter_mut() {
            if despawned.contains(&e) {
                continue;
            }
            // The last round's cards still on their way to the stock: gone at once, unless
            // only the layout changed (they go when they get there).
            if leaving.contains(e) {
                if only_layout {
                    continue;
                }
                despawned.insert(e);
                commands.entity(e).despawn();
                continue;
            }
            if animated {
                commands.entity(e).remove::<TweenAnim>();
                if !fresh && !only_layout {
                    let raised = selection.0.contains(&e);
                    *pose = rest_pose(&layout, &shape, view.place, view.face_up, raised);
                } else {
                    // Stopped in mid-turn, it glides on from where it is showing one side.
                    pose.flip = 1.0;
                }
            }
        }
        // A table only laid out again keeps the sounds still to come (the raps of an offer
        // to knock, due after the discard lands).
        if change.changes_game() {
            sounds.0.clear();
        }
        let mut plan = Plan::default();
        if fresh {
            // Every card entity goes: those at rest, and those a change earlier in this frame
            // spawned (its commands are not applied yet, so only the piles know them). At a
            // new round of the same game, the cards on the table are first gathered onto the
            // stock, face down, and the deal follows.
            let gather = !change.new_game && !a.instant;
            let mut gone: std::collections::HashSet<Entity> = cards
                .iter()
                .map(|(e, ..)| e)
                .chain(piles.placed().into_iter().map(|(e, _)| e))
                .filter(|e| !despawned.contains(e))
                .collect();
            if gather {
                let deck = arachne_engine::phase10::Card::deck().len();
                let stock = P10Shape {
                    hands: vec![0; table.spec.players],
                    groups: vec![Vec::new(); table.spec.players],
                    stock: deck,
                    discard: 0,
                };
                // Every hand, group and the discard pile at once, each a card after another
                // (a long discard pile more closely); the stock's cards stay where the new
                // deck appears, and go at once.
                let mut piles_out: Vec<&[Entity]> = Vec::new();
                piles_out.extend(piles.hands.iter().map(Vec::as_slice));
                piles_out.extend(piles.groups.iter().flatten().map(Vec::as_slice));
                piles_out.push(&piles.discard);
                let skips: Vec<Entity> = piles.skips.iter().flatten().copied().collect();
                piles_out.push(&skips);
                let move_s = a.secs(a.move_ms);
                let mut end = 0.0f32;
                let mut k = 0;
                for pile in piles_out {
                    let step = a.secs(150) / pile.len().max(5) as f32;
                    for (i, &e) in pile.iter().enumerate() {
                        let Ok((_, mut view, ..)) = cards.get_mut(e) else {
                            continue;
                        };
                        if !gone.remove(&e) {
                            continue;
                        }
                        let to = layout.position(&stock, Place::Stock(deck - 1 - k % deck));
                        let start = i as f32 * step;
                        plan.glide(e, Motion::Move, start, move_s, to, Some(false));
                        end = end.max(start + move_s);
                        // Nothing takes it for a card of the hand or a group any more.
                        view.place = Place::Stock(0);
                        view.face_up = false;
                        commands.entity(e).insert(Leaving);
                        despawned.insert(e);
                        k += 1;
                    }
                }
                if k > 0 {
                    plan.sound(0.0, crate::audio::cues::Sfx::Deal, 0.6);
                    plan.cursor = end;
                }
            }
            if change.rearranged && change.events.is_empty() && !a.instant {
                // One step back in the viewer: the cards glide to where the earlier step has
                // them.
                rearrange(&mut commands, &table, &mut piles, &mut plan, &layout, a);
                for e in gone {
                    if !piles.cards.contains_key(&e) && despawned.insert(e) {
                        commands.entity(e).despawn();
                    }
                }
                selection.0.clear();
                // Their motion is settled below, as after any change.
            } else {
                for e in gone {
                    if despawned.insert(e) {
                        commands.entity(e).despawn();
                    }
                }
                *piles = P10Piles {
                    show_all: piles.show_all,
                    ..P10Piles::default()
                };
                selection.0.clear();
                // A new table without events (the viewer jumped, or gave the table back): its
                // cards are put out at rest.
                if change.new_game && change.events.is_empty() {
                    spawn_at_rest(&mut commands, &table, &mut piles, sort_by_colour);
                    continue;
                }
            }
        }
        for event in &change.events {
            plan_event(
                &mut plan,
                &mut piles,
                &mut commands,
                &table,
                &layout,
                a,
                event,
                &mut prefer,
            );
        }
        // Cards that left the hand are no longer chosen.
        let in_hand = piles.hands.get(PLAYER).cloned().unwrap_or_default();
        selection.0.retain(|e| in_hand.contains(e));
        if k == last && !a.instant {
            rap_at = plan.cursor + 0.2 * a.secs(a.move_ms);
        }
        sort_hand(&mut piles, sort_by_colour);
        order_groups(&mut piles, &table);
        settle_plan(
            &mut commands,
            &mut plan,
            &piles,
            &layout,
            &selection,
            &mut cards,
            a,
        );
        commit(&mut commands, plan, a, &mut sounds);
    }
    if rap {
        sounds.0.push((
            rap_at,
            crate::audio::cues::PlaySfx::plain(crate::audio::cues::Sfx::Knock),
        ));
    }
    commands.insert_resource(layout);
}

/// Chosen cards rise out of the hand and drop back when no longer chosen. A card chosen (or no
/// longer) while it moves, a drawn card still on its way into the hand, rises (or drops) once
/// it is at rest: it waits in `waiting` until then.
fn raise_chosen(
    mut commands: Commands,
    selection: Res<Selection>,
    piles: Res<P10Piles>,
    layout: Option<Res<P10Layout>>,
    settings: Res<Settings>,
    held: Option<Res<crate::phase10::input::Held>>,
    cards: Query<(&P10Card, &CardPose, Has<TweenAnim>)>,
    mut waiting: Local<Vec<Entity>>,
) {
    let Some(layout) = layout else { return };
    let hand = piles.hands.get(PLAYER).map_or(&[][..], Vec::as_slice);
    waiting.retain(|e| hand.contains(e));
    if !selection.is_changed() && waiting.is_empty() {
        return;
    }
    // Every card of the hand when the choice changed, else the cards still waiting; those
    // still moving wait again.
    let due = std::mem::take(&mut *waiting);
    let due = if selection.is_changed() {
        hand.to_vec()
    } else {
        due
    };
    let shape = piles.shape();
    let a = &settings.animation;
    for e in due {
        let Ok((view, pose, animated)) = cards.get(e) else {
            continue;
        };
        // The card held by the pointer follows it (it goes home when let go).
        if held.as_ref().and_then(|h| h.card()) == Some(e) {
            continue;
        }
        if animated {
            waiting.push(e);
            continue;
        }
        let rest = rest_pose(
            &layout,
            &shape,
            view.place,
            view.face_up,
            selection.0.contains(&e),
        );
        if pose.translation == rest.translation {
            continue;
        }
        let leg = [Segment {
            start: 0.0,
            secs: a.secs(a.slide_back_ms).min(0.15),
            to: rest.translation,
            face: None,
            lift: false,
            kind: SegmentKind::Glide(Motion::SlideBack),
        }];
        match build(*pose, &leg, a) {
            Some(anim) if !a.instant => {
                commands.entity(e).insert(anim);
            }
            _ => {
                commands.entity(e).insert(rest);
            }
        }
    }
}

/// The notices show just above the bar (over the lower half of the hand, whose indices stay in
/// sight), not at the top, where they covered the computer seats' labels
/// ([`crate::core::focus::NoticeSpot`]).
fn place_notices(band: Res<BarBand>, mut spot: ResMut<crate::core::focus::NoticeSpot>) {
    spot.set_if_neq(crate::core::focus::NoticeSpot {
        above_bottom: Some(band.band + NOTICE_GAP),
    });
}

/// Spider shows its notices at the top again.
fn notices_at_top(mut spot: ResMut<crate::core::focus::NoticeSpot>) {
    spot.set_if_neq(crate::core::focus::NoticeSpot::default());
}

/// Between the bar's band and the notices' lowest edge.
const NOTICE_GAP: f32 = 4.0;
