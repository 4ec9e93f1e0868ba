//! The player's hands on Pro Spider 10's table, mouse, touch and keyboard: take from the stock or
//! the discard pile; click cards to choose them and lay the phase (the game checks the choice; "find
//! it" proposes one); hit by choosing a card and clicking a group; discard by double-clicking a
//! card (or choosing it and clicking the pile); a skip asks for its seat. The keyboard does all
//! of it too: the arrows move to a card of the hand, Space chooses it, H hits with it, X
//! discards it, a number names a skip's seat. During the computer seats' turns a click or a key
//! hurries them to the player's turn.
use arachne_engine::phase10::card::MAX_VALUE;
use arachne_engine::phase10::{Action, Card, Colour, Counts, Declaration, Seat, Stage};
use bevy::prelude::*;
use bevy::window::PrimaryWindow;

use crate::AppSystems;
use crate::audio::cues::{PlaySfx, Sfx};
use crate::cards::motion::CardPose;
use crate::cards::pointer::{LastCursor, pointer_state};
use crate::core::focus::{Notices, PointerOnOverlay, TableInput, TableKeys};
use crate::core::i18n::{t, tf};
use crate::core::keys::digit;
use crate::phase10::P10Systems;
use crate::phase10::layout::{MARGIN, P10Layout, Place};
use crate::phase10::round::{P10Changed, P10Rejected, P10Request, P10Table, PLAYER};
use crate::phase10::seats::Hurry;
use crate::phase10::view::{Leaving, P10Card, P10Piles, Selection, Using};
use crate::shell::Windows;

pub(crate) fn plugin(app: &mut App) {
    app.init_resource::<SkipTarget>()
        // (N asks for a new game through the menu's form, as the bar's button does.)
        .init_resource::<crate::phase10::menu::P10Form>()
        .init_resource::<HandCursor>()
        .init_resource::<LayChoice>()
        .init_resource::<LastClick>()
        .init_resource::<PileTaken>()
        .init_resource::<Held>()
        .add_systems(
            Update,
            (
                (drag, pointer_input)
                    .chain()
                    .run_if(|input: Option<Res<TableInput>>| input.is_none_or(|i| i.0))
                    .run_if(crate::phase10::viewer::not_watching)
                    .in_set(AppSystems::Input),
                (keyboard_input, sort_key, new_game_key)
                    .chain()
                    .after(pointer_input)
                    .run_if(TableKeys::on)
                    .run_if(crate::phase10::viewer::not_watching)
                    .in_set(AppSystems::Input),
                (tell_refusals, forget_lay_choice).in_set(AppSystems::Plan),
                drop_held_without_input
                    .run_if(|input: Option<Res<TableInput>>| input.is_some_and(|i| !i.0))
                    .in_set(AppSystems::Plan),
            )
                .in_set(P10Systems),
        );
}

/// O sorts the hand the other way (by value or by colour), as the bar's button does.
fn sort_key(
    keys: Res<crate::core::keys::Keys>,
    mut settings: ResMut<crate::core::settings::Settings>,
    mut save_settings: ResMut<crate::core::persist::SaveSettings>,
    mut piles: ResMut<P10Piles>,
    mut requests: MessageWriter<P10Request>,
) {
    if keys.just_pressed(KeyCode::KeyO) && !keys.any_pressed(crate::core::keys::COMMAND_KEYS) {
        let by_colour = !settings.phase10.sort_by_colour;
        settings.phase10.sort_by_colour = by_colour;
        save_settings.soon();
        crate::phase10::plan::sort_hand(&mut piles, by_colour);
        requests.write(P10Request::Relayout);
    }
}

/// N deals a new game with the same players and variant, as the bar's "New game" does (it
/// asks first when the game is under way).
fn new_game_key(
    keys: Res<crate::core::keys::Keys>,
    table: Res<P10Table>,
    time: Res<Time<Real>>,
    mut form: ResMut<crate::phase10::menu::P10Form>,
    mut requests: MessageWriter<P10Request>,
) {
    if keys.just_pressed(KeyCode::KeyN) && !keys.any_pressed(crate::core::keys::COMMAND_KEYS) {
        crate::phase10::menu::ask_fresh_deal(&table, &time, &mut form, &mut requests);
    }
}

/// A skip was chosen to play: the next click on a seat (or its number key) says in front of
/// whom.
#[derive(Resource, Debug, Default, Clone, Copy, PartialEq, Eq)]
#[component(clone_behavior = Ignore)]
pub struct SkipTarget(pub bool);

/// The keyboard's card in the player's hand, moved with the arrow keys (and by a click, once the
/// keyboard is in use); `None` until an arrow key is pressed. It follows its card when the hand
/// is sorted again; when the card leaves the hand, it stays at that place in the hand. The
/// overlay outlines it.
#[derive(Resource, Debug, Default, Clone, Copy, PartialEq, Eq)]
#[component(clone_behavior = Ignore)]
pub struct HandCursor(pub Option<(Entity, usize)>);

impl HandCursor {
    /// Where it points in `hand` (the player's hand, left to right).
    pub fn at(&self, hand: &[Entity]) -> Option<usize> {
        let (card, place) = self.0?;
        if hand.is_empty() {
            return None;
        }
        Some(
            hand.iter()
                .position(|&e| e == card)
                .unwrap_or(place.min(hand.len() - 1)),
        )
    }

    /// Points at place `i` of `hand`.
    pub fn set(&mut self, hand: &[Entity], i: usize) {
        if let Some(&e) = hand.get(i) {
            self.0 = Some((e, i));
        }
    }

    /// One card left (`-1`) or right (`1`), wrapping round; from no card, the first (right) or
    /// the last (left).
    pub fn step(&mut self, by: i32, hand: &[Entity]) {
        let len = hand.len();
        if len == 0 {
            return;
        }
        let i = match self.at(hand) {
            None if by < 0 => len - 1,
            None => 0,
            Some(i) => (i as i64 + i64::from(by)).rem_euclid(len as i64) as usize,
        };
        self.set(hand, i);
    }
}

/// The latest click on a card of the hand: the card, when, and whether it chose the card (a
/// double-click discards only a card its first click chose, so that quickly choosing a card and
/// taking the choice back never throws it away).
#[derive(Resource, Default)]
struct LastClick(Option<(Entity, f64, bool)>);

/// When a click last took the discard pile's top card (a draw or a knock), and the cards chosen
/// then: a second click within a double-click's time is not a discard of a card chosen before.
#[derive(Resource, Default)]
struct PileTaken(Option<(f64, Vec<Entity>)>);

/// A card of the player's hand under the pressed button: a click when the button comes up
/// where it went down, a drag (to the discard pile, onto a group) once it moves.
#[derive(Resource, Default, Debug)]
pub struct Held(Option<HeldCard>);

impl Held {
    /// The card under the pressed button, if any.
    pub(crate) fn card(&self) -> Option<Entity> {
        self.0.map(|h| h.card)
    }
}

#[derive(Debug, Clone, Copy)]
struct HeldCard {
    card: Entity,
    grab: Vec2,
    start: Vec2,
    moved: bool,
}

/// The card of the hand under the pointer is held, dragged, and let go: a click chooses it (a
/// double-click discards it), a drop on the discard pile discards it, a drop on a group hits it.
fn drag(
    windows: Query<&Window, With<PrimaryWindow>>,
    (buttons, last_cursor): (Res<ButtonInput<MouseButton>>, Res<LastCursor>),
    touches: Option<Res<bevy::input::touch::Touches>>,
    on_overlay: Res<PointerOnOverlay>,
    time: Res<Time<Real>>,
    table: Res<P10Table>,
    piles: Res<P10Piles>,
    layout: Option<Res<P10Layout>>,
    mut commands: Commands,
    mut cards: Query<(Entity, &P10Card, &mut CardPose), Without<Leaving>>,
    mut held: ResMut<Held>,
    (mut selection, mut using): (ResMut<Selection>, ResMut<Using>),
    mut skip_target: ResMut<SkipTarget>,
    (mut cursor, mut last): (ResMut<HandCursor>, ResMut<LastClick>),
    mut requests: MessageWriter<P10Request>,
    mut notices: ResMut<Notices>,
) {
    let (Ok(window), Some(layout)) = (windows.single(), layout) else {
        return;
    };
    let pointer = pointer_state(window, &buttons, touches.as_deref(), &last_cursor);
    let playing = table.players_turn() && table.game.stage() == Stage::Play;
    if !playing {
        if held.0.take().is_some() {
            requests.write(P10Request::Relayout);
        }
        return;
    }
    // A press on the table begins the player's next act: the cards of the one before (a key
    // that did nothing, a refused move) are not its cards (`pointer_input`'s clicks on a group
    // or the pile then act with the chosen ones). A skip waiting for its seat is still the act
    // begun.
    if pointer.just_pressed && !on_overlay.0 && !skip_target.0 {
        using.0.clear();
    }
    let in_hand = |e: Entity| {
        piles
            .hands
            .get(PLAYER)
            .is_some_and(|hand| hand.contains(&e))
    };
    // A second press while a card is held (a finger landing during a mouse drag): the held
    // card goes back to its place first. But a click whose release came in the frame of the
    // next press (a quick double-click or double tap on a slow frame) counts as the click it
    // was, and the new press holds the card under it as ever.
    let mut clicked_now = None;
    if pointer.just_pressed
        && let Some(h) = held.0.take()
    {
        if h.moved || !pointer.just_released {
            requests.write(P10Request::Relayout);
            return;
        }
        // (A card that left the hand meanwhile, laid or discarded by a key, is not clicked.)
        clicked_now = Some(h).filter(|h| in_hand(h.card));
    }
    let topmost =
        |p: Vec2,
         except: Option<Entity>,
         cards: &Query<(Entity, &P10Card, &mut CardPose), Without<Leaving>>| {
            cards
                .iter()
                .filter(|(e, _, pose)| {
                    Some(*e) != except && layout.hits(pose.translation.truncate(), p)
                })
                .max_by(|a, b| a.2.translation.z.total_cmp(&b.2.translation.z))
                .map(|(e, view, _)| (e, *view))
        };
    if pointer.just_pressed
        && !on_overlay.0
        && !skip_target.0
        && let Some(at) = pointer.at
        && let Some((e, view)) = topmost(at, None, &cards)
        && matches!(view.place, Place::Hand(PLAYER, _))
        && let Ok((_, _, pose)) = cards.get(e)
    {
        held.0 = Some(HeldCard {
            card: e,
            grab: at - pose.translation.truncate(),
            start: at,
            moved: false,
        });
        if clicked_now.is_none() {
            return;
        }
    }
    let h = match clicked_now {
        Some(h) => h,
        None => {
            let Some(mut h) = held.0 else { return };
            // The held card left the hand meanwhile (laid or discarded by a key or the bar, a
            // new game): the hold ends, and the card's motion to where it went (planned with
            // the change) takes it from where the pointer had it. Its release then chooses or
            // plays nothing.
            if !in_hand(h.card) {
                held.0 = None;
                return;
            }
            if pointer.pressed {
                if let Some(at) = pointer.at {
                    h.moved |= at.distance(h.start) > 6.0;
                    if h.moved
                        && let Ok((_, _, mut pose)) = cards.get_mut(h.card)
                    {
                        commands.entity(h.card).remove::<bevy_tweening::TweenAnim>();
                        pose.translation = (at - h.grab).extend(crate::cards::motion::LIFT + 100.0);
                    }
                }
                held.0 = Some(h);
                return;
            }
            // The button came up.
            held.0 = None;
            h
        }
    };
    let Some(card) = piles.cards.get(&h.card).copied() else {
        return;
    };
    if !h.moved {
        // Once the keyboard is in use, its card follows the mouse's clicks too, so that X and
        // H act on the card the player last pointed at either way.
        if cursor.0.is_some()
            && let Some(hand) = piles.hands.get(PLAYER)
            && let Some(i) = hand.iter().position(|&e| e == h.card)
        {
            cursor.set(hand, i);
        }
        let now = time.elapsed_secs_f64();
        let double = last
            .0
            .is_some_and(|(prev, t, chose)| prev == h.card && now - t < 0.45 && chose);
        if double {
            last.0 = None;
            selection.0.retain(|&x| x != h.card);
            using.0 = vec![h.card];
            discard(card, &table, &mut skip_target, &mut requests, &mut notices);
        } else if let Some(i) = selection.0.iter().position(|&x| x == h.card) {
            selection.0.remove(i);
            last.0 = Some((h.card, now, false));
        } else {
            selection.0.push(h.card);
            last.0 = Some((h.card, now, true));
        }
        return;
    }
    let target = pointer.at.and_then(|at| topmost(at, Some(h.card), &cards));
    let place = target.map(|(_, v)| v.place).or_else(|| {
        pointer
            .at
            .filter(|&at| on_empty_pile(&table, &layout, at))
            .map(|_| Place::Discard(0))
    });
    let done = match place {
        Some(Place::Discard(_)) => {
            let can = card.is_skip() || table.game.choices().contains(&Action::Discard(card));
            if can {
                selection.0.retain(|&x| x != h.card);
                using.0 = vec![h.card];
                discard(card, &table, &mut skip_target, &mut requests, &mut notices);
            }
            can
        }
        Some(Place::Group(seat, group, _)) => {
            let at = pointer.at.unwrap_or_default();
            match pick_hit(&table, &piles, &layout, (seat, group), card, at) {
                Some(action) => {
                    using.0 = vec![h.card];
                    requests.write(P10Request::Act(action));
                    true
                }
                None => {
                    notices.push(no_fit(&table, card));
                    false
                }
            }
        }
        _ => false,
    };
    if !done {
        // Back to its place in the hand.
        requests.write(P10Request::Relayout);
    }
}

/// The cards of the chosen entities.
pub fn chosen_cards(selection: &Selection, piles: &P10Piles) -> Vec<Card> {
    selection
        .0
        .iter()
        .filter_map(|e| piles.cards.get(e).copied())
        .collect()
}

/// Every way to lay the phase with exactly `chosen` (with nothing chosen, the ways with the
/// cards of the first way the hand has), or why there is none. Ways differ in what a joker
/// stands for (a run of `r3 r4 W W` is 1-4, 2-5 or 3-6).
pub fn lays_for(table: &P10Table, chosen: &[Card]) -> Result<Vec<Action>, String> {
    if !table.players_turn() || table.game.stage() != Stage::Play {
        return Err(t("p10.note.lay_when").into());
    }
    if table.game.laid_phase()[PLAYER].is_some() {
        return Err(t("p10.note.laid_already").into());
    }
    let lays: Vec<Action> = table
        .game
        .choices()
        .into_iter()
        .filter(|a| matches!(a, Action::Lay { .. }))
        .collect();
    let phase = table.game.next_text(PLAYER);
    let Some(first) = lays.first() else {
        return Err(tf("p10.note.no_phase_yet", &[("phase", &phase)]));
    };
    let want = if chosen.is_empty() {
        lay_cards(first)
    } else {
        Counts::of(chosen)
    };
    // A phase among the chosen cards (any order: the lowest one), with its number and size.
    let inside = lays
        .iter()
        .filter_map(|a| match a {
            Action::Lay { phase, .. } => Some((*phase, lay_cards(a))),
            _ => None,
        })
        .filter(|(_, cards)| want.contains(cards))
        .map(|(phase, cards)| (phase, cards.len()))
        .min();
    let ways: Vec<Action> = lays.into_iter().filter(|a| lay_cards(a) == want).collect();
    if ways.is_empty() {
        // More cards than the phase takes, the phase among them: a lay takes the phase's
        // cards alone, and the others are hits after it.
        if let Some((inside, needed)) = inside {
            return Err(tf(
                "p10.note.lay_fewer",
                &[("phase", &inside), ("count", &needed)],
            ));
        }
        return Err(tf("p10.note.not_the_phase", &[("phase", &phase)]));
    }
    let ways = ways.iter().flat_map(every_joker_declaration).collect();
    Ok(distinct_ways(table, ways))
}

/// `way`, and the same lay with each group made only of jokers declared every way its kind
/// allows (the engine lists such a group once, as a set of 12s, a run from 1 or a red group;
/// a player laying W W W may want them to be 5s, to hit 5s on them later).
fn every_joker_declaration(way: &Action) -> Vec<Action> {
    let Action::Lay { phase, groups } = way else {
        return vec![way.clone()];
    };
    let mut ways = vec![groups.clone()];
    for (i, group) in groups.iter().enumerate() {
        if !group.cards().iter().all(|c| c.is_wild()) {
            continue;
        }
        let k = group.cards().len() as u8;
        let declarations: Vec<Declaration> = match group.declaration() {
            Declaration::Set(_) => (1..=MAX_VALUE).map(Declaration::Set).collect(),
            Declaration::Colour(_) => Colour::ALL.into_iter().map(Declaration::Colour).collect(),
            Declaration::Run(..) => (1..=(MAX_VALUE + 1).saturating_sub(k))
                .map(|a| Declaration::Run(a, a + k - 1))
                .collect(),
        };
        let mut more = Vec::new();
        for way in &ways {
            for &d in &declarations {
                if let Ok(g) = arachne_engine::phase10::Group::new(d, group.cards().to_vec()) {
                    let mut w = way.clone();
                    w[i] = g;
                    more.push(w);
                }
            }
            // Two groups of only jokers (eight jokers) make many ways: enough to choose from.
            if more.len() > 100 {
                break;
            }
        }
        ways.extend(more);
    }
    ways.into_iter()
        .map(|groups| Action::Lay {
            phase: *phase,
            groups,
        })
        .collect()
}

/// The cards a lay takes, as counts (none for another action).
fn lay_cards(action: &Action) -> Counts {
    match action {
        Action::Lay { groups, .. } => Counts::of(
            &groups
                .iter()
                .flat_map(|g| g.cards().to_vec())
                .collect::<Vec<_>>(),
        ),
        _ => Counts::default(),
    }
}

/// The ways that read differently to the player, in their order: two lays of the same groups
/// (six 7s as two sets of 7s, split either way) or two hits on alike groups of one seat are
/// one choice to the player, so the question asks it once (or not at all).
pub fn distinct_ways(table: &P10Table, ways: Vec<Action>) -> Vec<Action> {
    let key = |way: &Action| match way {
        Action::Lay { phase, groups } => (
            *phase,
            groups
                .iter()
                .map(|g| (describe_group(g.declaration()), g.cards().len()))
                .collect::<Vec<_>>(),
        ),
        _ => (0, vec![(describe_choice(table, way), 0)]),
    };
    let mut seen = Vec::new();
    ways.into_iter()
        .filter(|way| {
            let k = key(way);
            let new = !seen.contains(&k);
            if new {
                seen.push(k);
            }
            new
        })
        .collect()
}

/// The first way to lay `chosen` (see [`lays_for`]).
pub fn lay_for(table: &P10Table, chosen: &[Card]) -> Result<Action, String> {
    lays_for(table, chosen).map(|mut ways| ways.swap_remove(0))
}

/// Ways to lay the chosen cards that differ in what a joker stands for, waiting for the player
/// to pick one (empty: no question open).
#[derive(Resource, Clone, Debug, Default, PartialEq)]
#[component(clone_behavior = Ignore)]
pub struct LayChoice(pub Vec<Action>);

/// Lays the chosen cards: at once when there is one way, otherwise the player is asked which.
pub fn lay_chosen(
    table: &P10Table,
    chosen: &[Card],
    choice: &mut LayChoice,
    requests: &mut MessageWriter<P10Request>,
    notices: &mut Notices,
) {
    match lays_for(table, chosen) {
        Ok(mut ways) if ways.len() == 1 => {
            requests.write(P10Request::Act(ways.swap_remove(0)));
        }
        Ok(ways) => choice.0 = ways,
        Err(why) => notices.push(why),
    }
}

/// Lays way `n` (from 1) of the open question, and closes it.
pub fn pick_lay(choice: &mut LayChoice, n: usize, requests: &mut MessageWriter<P10Request>) {
    if let Some(way) = n.checked_sub(1).and_then(|i| choice.0.get(i)) {
        requests.write(P10Request::Act(way.clone()));
        choice.0.clear();
    }
}

/// A lay in words, each group by what it stands for: "set of 9s + run 3-6".
pub fn describe_lay(action: &Action) -> String {
    let Action::Lay { groups, .. } = action else {
        return action.to_string();
    };
    groups
        .iter()
        .map(|g| describe_group(g.declaration()))
        .collect::<Vec<_>>()
        .join(" + ")
}

/// A group in words: "set of 9s", "run 3-6", "red group".
fn describe_group(declaration: Declaration) -> String {
    match declaration {
        Declaration::Set(v) => tf("p10.group.set", &[("value", &v)]),
        Declaration::Run(low, high) => tf("p10.group.run", &[("low", &low), ("high", &high)]),
        Declaration::Colour(c) => tf("p10.group.colour", &[("colour", &colour_name(c))]),
    }
}

/// One of the ways the question offers, in words: a lay by its groups, a hit by the group it
/// goes on (and what a joker stands for there): "Petra (2): run 3-6, as 7".
pub fn describe_choice(table: &P10Table, action: &Action) -> String {
    let Action::Hit { seat, group, card } = action else {
        return describe_lay(action);
    };
    let Some(g) = table.game.laid().get(*seat).and_then(|gs| gs.get(*group)) else {
        return action.to_string();
    };
    let mut text = format!("{}: {}", table.name(*seat), describe_group(g.declaration()));
    if let Some(v) = card.stands_for {
        text.push_str(&tf("p10.hit.as", &[("value", &v)]));
    }
    text
}

/// A colour's name.
pub fn colour_name(colour: Colour) -> &'static str {
    match colour {
        Colour::Red => t("p10.colour.red"),
        Colour::Blue => t("p10.colour.blue"),
        Colour::Green => t("p10.colour.green"),
        Colour::Yellow => t("p10.colour.yellow"),
    }
}

/// How a card is named in a sentence (German articles differ by case: "den Joker" taken, "der
/// Joker" fits).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CardWords {
    /// What is taken, played or discarded: "the red 9" ("die rote 9", "den Joker").
    Object,
    /// What fits or does not: "the red 9" ("die rote 9", "der Joker").
    Subject,
}

/// A card in words: "the red 9", "the joker" (German "die rote 9", "den Joker"), in the form
/// asked.
pub fn card_words(card: Card, form: CardWords) -> String {
    use CardWords::*;
    // The keys by form: red, blue, green, yellow, joker, skip.
    let keys: [&'static str; 6] = match form {
        Object => [
            "p10.card.object.red",
            "p10.card.object.blue",
            "p10.card.object.green",
            "p10.card.object.yellow",
            "p10.card.object.joker",
            "p10.card.object.skip",
        ],
        Subject => [
            "p10.card.subject.red",
            "p10.card.subject.blue",
            "p10.card.subject.green",
            "p10.card.subject.yellow",
            "p10.card.subject.joker",
            "p10.card.subject.skip",
        ],
    };
    match (card.colour(), card.value()) {
        (Some(colour), Some(value)) => {
            let key = match colour {
                Colour::Red => keys[0],
                Colour::Blue => keys[1],
                Colour::Green => keys[2],
                Colour::Yellow => keys[3],
            };
            tf(key, &[("value", &value)])
        }
        _ if card.is_wild() => t(keys[4]).to_string(),
        _ => t(keys[5]).to_string(),
    }
}

/// `text` with its first letter a capital (a card's name at the start of a sentence).
pub fn capitalized(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |first| {
        first.to_uppercase().chain(chars).collect()
    })
}

/// What "find it" (F) chooses: before the phase is laid, the cards of the first lay the hand
/// has; once it is laid, a card of the hand that hits a laid group, the next one after the card
/// `after` (the one found before, when it is still the only one chosen), so that finding again
/// goes through every card that hits.
pub fn find_play(
    table: &P10Table,
    piles: &P10Piles,
    chosen: &[Entity],
) -> Result<Vec<Entity>, String> {
    if table.game.laid_phase()[PLAYER].is_none() || !table.players_turn() {
        let chosen: Vec<Card> = chosen
            .iter()
            .filter_map(|e| piles.cards.get(e).copied())
            .collect();
        return find_lay(table, piles, &chosen);
    }
    let after = match chosen {
        [e] => Some(*e),
        _ => None,
    };
    if table.game.stage() != Stage::Play {
        return Err(t("p10.note.draw_first").into());
    }
    let hand = piles.hands.get(PLAYER).map_or(&[][..], Vec::as_slice);
    // The cards some hit takes, from one list of the choices (not one list per card).
    let hitting: Vec<Card> = table
        .game
        .choices()
        .into_iter()
        .filter_map(|a| match a {
            Action::Hit { card, .. } => Some(card.card),
            _ => None,
        })
        .collect();
    let hits = |e: &Entity| piles.cards.get(e).is_some_and(|c| hitting.contains(c));
    let start = after
        .and_then(|a| hand.iter().position(|&e| e == a))
        .map_or(0, |i| i + 1);
    (0..hand.len())
        .map(|k| hand[(start + k) % hand.len()])
        .find(hits)
        .map(|e| vec![e])
        .ok_or_else(|| t("p10.note.no_hit_in_hand").into())
}

/// "Find it" (F, or the bar's button): chooses what [`find_play`] finds, or says why nothing.
/// A card that hits becomes the keyboard's card too, so that H hits with it and X throws it.
pub fn find_and_choose(
    table: &P10Table,
    piles: &P10Piles,
    selection: &mut Selection,
    cursor: &mut HandCursor,
    notices: &mut Notices,
) {
    match find_play(table, piles, &selection.0) {
        Ok(chosen) => {
            let hand = piles.hands.get(PLAYER).map_or(&[][..], Vec::as_slice);
            if let [e] = chosen[..]
                && table.game.laid_phase()[PLAYER].is_some()
                && let Some(i) = hand.iter().position(|&h| h == e)
            {
                cursor.set(hand, i);
            }
            selection.0 = chosen;
        }
        Err(why) => notices.push(why),
    }
}

/// The cards of the first lay the hand has, to choose (the "find it" button). In any order,
/// with the cards of a phase's lay `chosen`, the first lay of the next phase the hand has (after
/// the last, the first again).
pub fn find_lay(
    table: &P10Table,
    piles: &P10Piles,
    chosen: &[Card],
) -> Result<Vec<Entity>, String> {
    let first = lay_for(table, &[])?;
    let lays: Vec<(u8, Action)> = table
        .game
        .choices()
        .into_iter()
        .filter_map(|a| match &a {
            Action::Lay { phase, .. } => Some((*phase, a.clone())),
            _ => None,
        })
        .collect();
    let want = Counts::of(chosen);
    // The chosen cards may lay more than one phase (r1-r7 alone: a run of 7 and a red group):
    // those are asked when they are laid, and F goes on past the highest of them to other cards.
    let shown = lays
        .iter()
        .filter(|(_, a)| !chosen.is_empty() && lay_cards(a) == want)
        .map(|(p, _)| *p)
        .max();
    let next = shown.and_then(|p| {
        let others = || lays.iter().filter(|(_, a)| lay_cards(a) != want);
        others()
            .filter(|(q, _)| *q > p)
            .min_by_key(|(q, _)| *q)
            .or_else(|| others().min_by_key(|(q, _)| *q))
            .map(|(_, a)| a.clone())
    });
    let Action::Lay { groups, .. } = next.unwrap_or(first) else {
        return Err("no lay".into());
    };
    let mut hand = piles.hands.get(PLAYER).cloned().unwrap_or_default();
    let mut chosen = Vec::new();
    for card in groups.iter().flat_map(|g| g.cards().to_vec()) {
        if let Some(i) = hand.iter().position(|e| piles.cards.get(e) == Some(&card)) {
            chosen.push(hand.remove(i));
        }
    }
    Ok(chosen)
}

/// The hit of `card` on `seat`'s group `group`. A joker on a run may stand for the value below
/// the run or the one above: the end of the group nearer the pointer `at` chooses.
fn pick_hit(
    table: &P10Table,
    piles: &P10Piles,
    layout: &P10Layout,
    (seat, group): (Seat, usize),
    card: Card,
    at: Vec2,
) -> Option<Action> {
    let mut hits: Vec<(Option<u8>, Action)> = table
        .game
        .choices()
        .into_iter()
        .filter_map(|a| match &a {
            Action::Hit {
                seat: s,
                group: g,
                card: h,
            } if *s == seat && *g == group && h.card == card => Some((h.stands_for, a.clone())),
            _ => None,
        })
        .collect();
    hits.sort_by_key(|(v, _)| *v);
    if hits.len() > 1 {
        let shape = piles.shape();
        let len = piles
            .groups
            .get(seat)
            .and_then(|g| g.get(group))
            .map_or(1, Vec::len);
        let first = layout.position(&shape, Place::Group(seat, group, 0)).x;
        let last = layout
            .position(&shape, Place::Group(seat, group, len.saturating_sub(1)))
            .x;
        if at.x > (first + last) / 2.0 {
            return hits.pop().map(|(_, a)| a);
        }
    }
    hits.into_iter().next().map(|(_, a)| a)
}

/// Why `card` cannot hit the group the player pointed at (clicked or dropped on): the player's
/// own phase is not laid yet, or the card does not fit it.
fn no_fit(table: &P10Table, card: Card) -> String {
    if table.game.laid_phase()[PLAYER].is_none() {
        t("p10.note.lay_first").to_string()
    } else {
        capitalized(&tf(
            "p10.note.no_fit",
            &[("card", &card_words(card, CardWords::Subject))],
        ))
    }
}

/// The topmost card under `p`.
fn card_under(
    p: Vec2,
    layout: &P10Layout,
    cards: &Query<(Entity, &P10Card, &CardPose), Without<Leaving>>,
) -> Option<(Entity, P10Card)> {
    cards
        .iter()
        .filter(|(_, _, pose)| layout.hits(pose.translation.truncate(), p))
        .max_by(|a, b| a.2.translation.z.total_cmp(&b.2.translation.z))
        .map(|(e, view, _)| (e, *view))
}

/// Whether `p` is on the discard pile's spot while the pile holds no card: a click or a drop
/// there is on the pile.
fn on_empty_pile(table: &P10Table, layout: &P10Layout, p: Vec2) -> bool {
    table.game.discard_pile().is_empty() && layout.hits(layout.discard, p)
}

/// The computer seat whose part of the table `p` is in: its row (one along the top, two on a
/// phone held upright with five or six seats; a row reaches down to the next row's labels, the
/// top row up to the window's edge), then its column in that row (the outer columns reach the
/// window's sides). Above the middle only; the gaps beside a shorter, centred row name none.
fn seat_at(p: Vec2, layout: &P10Layout) -> Option<Seat> {
    let top = layout.stock.y + layout.card.y / 2.0;
    if p.y < top {
        return None;
    }
    let seats = 1..layout.seats.len();
    let label_y = |s: Seat| layout.seats[s].label.y;
    // The row: the lowest whose labels' top edge is at or above `p`, else the top row.
    let row = seats
        .clone()
        .map(label_y)
        .filter(|&y| y >= p.y)
        .min_by(f32::total_cmp)
        .or_else(|| seats.clone().map(label_y).max_by(f32::total_cmp))?;
    let in_row: Vec<Seat> = seats.filter(|&s| (label_y(s) - row).abs() < 0.5).collect();
    let half_w = layout.window.x / 2.0;
    let full_row = in_row.len() as f32 * layout.column >= layout.window.x - 2.0 * MARGIN - 0.5;
    in_row.iter().copied().find(|&s| {
        let mut left = layout.seats[s].label.x - 4.0;
        let mut right = left + layout.column;
        if full_row && Some(&s) == in_row.first() {
            left = -half_w;
        }
        if full_row && Some(&s) == in_row.last() {
            right = half_w + 1.0;
        }
        (left..right).contains(&p.x)
    })
}

fn pointer_input(
    windows: Query<&Window, With<PrimaryWindow>>,
    (buttons, last_cursor): (Res<ButtonInput<MouseButton>>, Res<LastCursor>),
    touches: Option<Res<bevy::input::touch::Touches>>,
    on_overlay: Res<PointerOnOverlay>,
    table: Res<P10Table>,
    piles: Res<P10Piles>,
    layout: Option<Res<P10Layout>>,
    cards: Query<(Entity, &P10Card, &CardPose), Without<Leaving>>,
    selection: Res<Selection>,
    mut skip_target: ResMut<SkipTarget>,
    mut hurry: ResMut<Hurry>,
    mut requests: MessageWriter<P10Request>,
    mut notices: ResMut<Notices>,
    (time, mut pile_taken): (Res<Time<Real>>, ResMut<PileTaken>),
) {
    let (Ok(window), Some(layout)) = (windows.single(), layout) else {
        return;
    };
    let pointer = pointer_state(window, &buttons, touches.as_deref(), &last_cursor);
    let (Some(at), true) = (pointer.at, pointer.just_pressed) else {
        return;
    };
    if on_overlay.0 {
        return;
    }
    if !table.players_turn() {
        // The computer seats are playing: the click hurries them to the player's turn.
        if table.game.to_move().is_some() {
            hurry.0 = true;
        }
        return;
    }
    let hit = card_under(at, &layout, &cards);
    let stage = table.game.stage();
    let act = |action: Action, requests: &mut MessageWriter<P10Request>| {
        requests.write(P10Request::Act(action));
    };
    if skip_target.0 {
        skip_target.0 = false;
        match seat_at(at, &layout) {
            Some(seat) => act(Action::Skip(seat), &mut requests),
            None => notices.push(t("p10.note.no_skip")),
        }
        return;
    }
    let now = time.elapsed_secs_f64();
    match (stage, hit.map(|(e, v)| (e, v.place, v.card))) {
        (Stage::Knock { card, .. }, Some((_, Place::Discard(_), _))) => {
            pile_taken.0 = Some((now, selection.0.clone()));
            act(Action::Knock(card), &mut requests)
        }
        (Stage::Draw, Some((_, Place::Stock(_), _))) => act(Action::DrawStock, &mut requests),
        (Stage::Draw, Some((_, Place::Discard(_), card))) => {
            pile_taken.0 = Some((now, selection.0.clone()));
            let top = table.game.discard_pile().last().copied().unwrap_or(card);
            act(Action::DrawDiscard(top), &mut requests)
        }

        // A card of the hand: chosen, discarded or dragged when the button comes up (`drag`).
        (Stage::Play, Some((_, Place::Group(seat, group, _), _))) => {
            let chosen = chosen_cards(&selection, &piles);
            let [card] = chosen[..] else {
                notices.push(t("p10.note.how_to_hit"));
                return;
            };
            match pick_hit(&table, &piles, &layout, (seat, group), card, at) {
                Some(action) => act(action, &mut requests),
                None => notices.push(no_fit(&table, card)),
            }
        }
        // The pile, or its spot when it holds no card (a seat took its only card).
        (Stage::Play, target)
            if matches!(target, Some((_, Place::Discard(_), _)))
                || (target.is_none() && on_empty_pile(&table, &layout, at)) =>
        {
            // Not the second click of a double-click that took the pile's card: a card left
            // chosen from before would be thrown by it.
            if pile_taken
                .0
                .as_ref()
                .is_some_and(|(t, chosen)| now - t < 0.45 && *chosen == selection.0)
            {
                return;
            }
            let chosen = chosen_cards(&selection, &piles);
            match chosen[..] {
                [card] => discard(card, &table, &mut skip_target, &mut requests, &mut notices),
                _ => notices.push(t("p10.note.how_to_discard")),
            }
        }
        _ => {}
    }
}

/// Ends the turn with `card`: a discard, or for a skip, in front of the only seat it can go to
/// (else the next click chooses the seat).
fn discard(
    card: Card,
    table: &P10Table,
    skip_target: &mut SkipTarget,
    requests: &mut MessageWriter<P10Request>,
    notices: &mut Notices,
) {
    if !card.is_skip() {
        // A skip that was waiting for its seat is not played after all.
        skip_target.0 = false;
        requests.write(P10Request::Act(Action::Discard(card)));
        return;
    }
    let targets: Vec<Seat> = table
        .game
        .choices()
        .into_iter()
        .filter_map(|a| match a {
            Action::Skip(t) => Some(t),
            _ => None,
        })
        .collect();
    match targets[..] {
        [only] => {
            requests.write(P10Request::Act(Action::Skip(only)));
        }
        [] => {
            requests.write(P10Request::Act(Action::Discard(card)));
        }
        _ => {
            skip_target.0 = true;
            notices.push(t("p10.note.skip_whom"));
        }
    }
}

/// The card the keys act on: the keyboard's card, else the one chosen card.
fn key_card(
    cursor: &HandCursor,
    selection: &Selection,
    piles: &P10Piles,
) -> Option<(Entity, Card)> {
    let hand = piles.hands.get(PLAYER)?;
    let e = match cursor.at(hand) {
        Some(i) => hand[i],
        None => match selection.0[..] {
            [e] => e,
            _ => return None,
        },
    };
    piles.cards.get(&e).map(|&c| (e, c))
}

/// Every hit `card` can make now, in the order the engine lists them.
fn hits_of(table: &P10Table, card: Card) -> Vec<Action> {
    table
        .game
        .choices()
        .into_iter()
        .filter(|a| matches!(a, Action::Hit { card: h, .. } if h.card == card))
        .collect()
}

#[allow(clippy::too_many_arguments)]
fn keyboard_input(
    keys: Res<crate::core::keys::Keys>,
    table: Res<P10Table>,
    piles: Res<P10Piles>,
    mut selection: ResMut<Selection>,
    mut cursor: ResMut<HandCursor>,
    mut hurry: ResMut<Hurry>,
    mut skip_target: ResMut<SkipTarget>,
    mut lay_choice: ResMut<LayChoice>,
    mut requests: MessageWriter<P10Request>,
    mut notices: ResMut<Notices>,
    mut windows: Option<ResMut<Windows>>,
    mut using: ResMut<Using>,
) {
    let hand: &[Entity] = piles.hands.get(PLAYER).map_or(&[], Vec::as_slice);
    // Keys held with Ctrl, Alt or Cmd are the system's (Ctrl+X cuts, Alt+Tab leaves): they
    // neither act on the table (Ctrl+X discarded) nor hurry the computer seats, and neither do
    // the modifier keys alone.
    if keys.any_pressed(crate::core::keys::COMMAND_KEYS) {
        return;
    }
    // Left and Right go on through the hand while held.
    for key in &keys.presses(&[KeyCode::ArrowLeft, KeyCode::ArrowRight]) {
        if matches!(key, KeyCode::ShiftLeft | KeyCode::ShiftRight) {
            continue;
        }
        // A question about what a joker stands for (or where a card hits): a number picks a
        // way, Esc asks no more.
        if !lay_choice.0.is_empty() {
            if let Some(n) = digit(*key) {
                pick_lay(&mut lay_choice, n, &mut requests);
            } else if *key == KeyCode::Escape {
                lay_choice.0.clear();
            }
            continue;
        }
        // A key begins the player's next act (see the pointer's press in `drag`).
        if !(skip_target.0 && digit(*key).is_some()) {
            using.0.clear();
        }
        // S, and Enter once the game is over: the score sheet (whose New game has the keyboard).
        if (*key == KeyCode::KeyS
            || matches!(key, KeyCode::Enter | KeyCode::NumpadEnter)
                && table.game.stage() == Stage::Over)
            && let Some(windows) = windows.as_mut()
        {
            windows.sheet = true;
            continue;
        }
        // The keyboard's card moves whenever the table takes keys, so the hand can be looked
        // through while the computer seats play.
        match key {
            KeyCode::ArrowLeft | KeyCode::ArrowRight => {
                let by = if *key == KeyCode::ArrowLeft { -1 } else { 1 };
                cursor.step(by, hand);
                continue;
            }
            KeyCode::Home | KeyCode::End if !hand.is_empty() => {
                let i = if *key == KeyCode::Home {
                    0
                } else {
                    hand.len() - 1
                };
                cursor.set(hand, i);
                continue;
            }
            _ => {}
        }
        if !table.players_turn() {
            match key {
                KeyCode::Enter | KeyCode::NumpadEnter if table.game.stage() == Stage::RoundOver => {
                    requests.write(P10Request::NextRound);
                }
                // (Esc opens the menu, F1 the rules, M turns the sound off, O sorts the hand
                // and N asks for a new game: none of them asks for the computer seats' turns
                // to be played out behind it.)
                KeyCode::Escape | KeyCode::F1 | KeyCode::KeyM | KeyCode::KeyO | KeyCode::KeyN => {}
                _ if table.game.to_move().is_some() => hurry.0 = true,
                _ => {}
            }
            continue;
        }
        let stage = table.game.stage();
        let act = |a: Action, requests: &mut MessageWriter<P10Request>| {
            requests.write(P10Request::Act(a));
        };
        // A skip waiting for its seat: the seat's number plays it.
        // Another number still waits for a seat that can take it (Esc: not now).
        if skip_target.0
            && let Some(n) = digit(*key)
        {
            let skip = Action::Skip(n - 1);
            if n >= 2 && table.game.choices().contains(&skip) {
                skip_target.0 = false;
                act(skip, &mut requests);
            } else {
                notices.push(t("p10.note.skip_other_seat"));
            }
            continue;
        }
        match key {
            // (Space chooses a card, and never draws: a player looking through the hand before
            // drawing must not take the stock by it.)
            KeyCode::KeyD if stage == Stage::Draw => act(Action::DrawStock, &mut requests),
            KeyCode::KeyT if stage == Stage::Draw => match table.game.discard_pile().last() {
                Some(&top) if !top.is_skip() => act(Action::DrawDiscard(top), &mut requests),
                _ => notices.push(t("p10.note.top_not_taken")),
            },
            KeyCode::KeyK => {
                if let Stage::Knock { card, .. } = stage {
                    act(Action::Knock(card), &mut requests);
                }
            }
            KeyCode::KeyP => {
                if matches!(stage, Stage::Knock { .. }) {
                    act(Action::Pass, &mut requests);
                }
            }
            // The keyboard's card chosen, or no longer.
            KeyCode::Space | KeyCode::Enter | KeyCode::NumpadEnter if stage == Stage::Play => {
                let Some(i) = cursor.at(hand) else {
                    notices.push(t("p10.note.keys_choose"));
                    continue;
                };
                let e = hand[i];
                match selection.0.iter().position(|&x| x == e) {
                    Some(k) => {
                        selection.0.remove(k);
                    }
                    None => selection.0.push(e),
                }
            }
            KeyCode::KeyX | KeyCode::Delete | KeyCode::Backspace if stage == Stage::Play => {
                match key_card(&cursor, &selection, &piles) {
                    Some((e, card)) => {
                        selection.0.retain(|&x| x != e);
                        using.0 = vec![e];
                        discard(card, &table, &mut skip_target, &mut requests, &mut notices);
                    }
                    None => notices.push(t("p10.note.keys_choose")),
                }
            }
            KeyCode::KeyH if stage == Stage::Play => {
                let Some((e, card)) = key_card(&cursor, &selection, &piles) else {
                    notices.push(t("p10.note.keys_choose"));
                    continue;
                };
                using.0 = vec![e];
                let mut hits = distinct_ways(&table, hits_of(&table, card));
                match hits.len() {
                    0 if table.game.laid_phase()[PLAYER].is_none() => {
                        notices.push(t("p10.note.lay_first"))
                    }
                    0 => notices.push(capitalized(&tf(
                        "p10.note.no_hit",
                        &[("card", &card_words(card, CardWords::Subject))],
                    ))),
                    1 => act(hits.swap_remove(0), &mut requests),
                    // Several groups (or ends) take it: the question asks which.
                    _ => lay_choice.0 = hits,
                }
            }
            KeyCode::KeyF => {
                find_and_choose(&table, &piles, &mut selection, &mut cursor, &mut notices)
            }
            KeyCode::KeyL => lay_chosen(
                &table,
                &chosen_cards(&selection, &piles),
                &mut lay_choice,
                &mut requests,
                &mut notices,
            ),
            KeyCode::Escape => {
                selection.0.clear();
                skip_target.0 = false;
            }
            _ => {}
        }
    }
}

/// A move the rules refuse is told in words and with the error sound, as in Spider.
fn tell_refusals(
    mut refused: MessageReader<P10Rejected>,
    mut notices: ResMut<Notices>,
    mut sfx: MessageWriter<PlaySfx>,
) {
    let mut any = false;
    for P10Rejected(why) in refused.read() {
        notices.push(tf("p10.note.not_allowed", &[("why", why)]));
        any = true;
    }
    if any {
        sfx.write(PlaySfx::plain(Sfx::Invalid));
    }
}

/// A question about a lay, or a skip waiting for its seat, does not outlive the table it was
/// asked on.
fn forget_lay_choice(
    mut changed: MessageReader<P10Changed>,
    mut choice: ResMut<LayChoice>,
    mut skip_target: ResMut<SkipTarget>,
) {
    // A table laid out again (a resize, the hand sorted) changes nothing in the game: the
    // question stands.
    let mut game_changed = false;
    for c in changed.read() {
        game_changed |= c.changes_game();
    }
    if game_changed {
        if !choice.0.is_empty() {
            choice.0.clear();
        }
        if skip_target.0 {
            skip_target.0 = false;
        }
    }
}

/// A window came over the table while a card was held: the table no longer sees the button, so
/// the card goes back to its place instead of hanging where the pointer left it.
fn drop_held_without_input(mut held: ResMut<Held>, mut requests: MessageWriter<P10Request>) {
    if held.0.take().is_some() {
        requests.write(P10Request::Relayout);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A click on a computer seat's hand, label or groups names that seat, in one row along
    /// the top or in the two rows of six seats on a phone held upright; the middle and the
    /// player's half name none.
    #[test]
    fn a_click_in_a_computer_seats_part_names_that_seat() {
        for (players, w, h) in [
            (2, 1280.0, 720.0),
            (4, 800.0, 600.0),
            (6, 1280.0, 720.0),
            (6, 390.0, 844.0),
            (5, 844.0, 390.0),
        ] {
            let layout = P10Layout::compute(players, Vec2::new(w, h), 90.0);
            let ch = layout.card.y;
            for s in 1..players {
                let spot = &layout.seats[s];
                for (what, p) in [
                    ("hand", spot.hand),
                    ("label", spot.label + Vec2::new(10.0, -10.0)),
                    ("groups", spot.groups - Vec2::new(0.0, ch * 0.4)),
                ] {
                    assert_eq!(
                        seat_at(p, &layout),
                        Some(s),
                        "{players} seats at {w}x{h}: seat {s}'s {what} at {p}"
                    );
                }
            }
            assert_eq!(seat_at(layout.stock, &layout), None);
            assert_eq!(seat_at(layout.seats[PLAYER].hand, &layout), None);
            // The margins at the sides name the outer seats of a full row; above the labels,
            // the top row.
            let first = layout.seats[1].hand.y;
            assert_eq!(
                seat_at(Vec2::new(-w / 2.0 + 2.0, first), &layout),
                Some(1),
                "{players} at {w}x{h}"
            );
            assert!(seat_at(Vec2::new(0.0, h / 2.0 - 2.0), &layout).is_some());
        }
        // Six seats on a phone held upright: 2, 3, 4 along the top, 5 and 6 centred below.
        let layout = P10Layout::compute(6, Vec2::new(390.0, 844.0), 90.0);
        let (row1, row2) = (layout.seats[1].label.y, layout.seats[4].label.y);
        assert!(row2 < row1 - 50.0, "two rows: {row1} {row2}");
        assert_eq!(
            seat_at(Vec2::new(194.0, layout.seats[3].hand.y), &layout),
            Some(3)
        );
        // Between the rows (below row one's groups, above row two's labels): row one.
        assert_eq!(
            seat_at(Vec2::new(layout.seats[2].hand.x, row2 + 2.0), &layout),
            Some(2)
        );
        // Just below row two's labels: row two; beside that shorter row: nobody.
        assert_eq!(
            seat_at(Vec2::new(layout.seats[4].hand.x, row2 - 2.0), &layout),
            Some(4)
        );
        assert_eq!(
            seat_at(Vec2::new(layout.seats[5].hand.x, row2 - 2.0), &layout),
            Some(5)
        );
        assert_eq!(
            seat_at(Vec2::new(-190.0, layout.seats[4].hand.y), &layout),
            None
        );
        assert_eq!(
            seat_at(Vec2::new(190.0, layout.seats[4].hand.y), &layout),
            None
        );
    }
}
