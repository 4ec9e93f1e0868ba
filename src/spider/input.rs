//! Spider's mouse, touch and keyboard: drag and drop, click-to-move, double-click discard, the
//! stock, and keys.
use arachne_engine::{DiscardMode, Move, Position};
use bevy::input::touch::Touches;
use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use bevy_tweening::TweenAnim;

use crate::AppSystems;
use crate::audio::cues::{PlaySfx, Sfx};
use crate::cards::motion::{CardPose, Celebrating, Shake};
use crate::cards::pointer::{LastCursor, pointer_state};
use crate::core::focus::TableInput;
use crate::core::settings::Settings;
use crate::spider::SpiderSystems;
use crate::spider::assist::{Ask, new_deal};
use crate::spider::highlights::{Highlights, Taking};
use crate::spider::hint::{AskHint, HintSystems, HintTask};
use crate::spider::layout::{Layout, PileId, z};
use crate::spider::piles::{CardView, Piles};
use crate::spider::table::{Rejected, Request, Table, TableChanged, Watching};
use crate::spider::view::Relayout;

pub(crate) fn plugin(app: &mut App) {
    app.init_resource::<Drag>()
        .init_resource::<Clicks>()
        .add_systems(
            Update,
            (
                pointer_input
                    .run_if(input_enabled)
                    .in_set(AppSystems::Input)
                    .before(HintSystems),
                keyboard_input
                    .after(pointer_input)
                    .run_if(keys_enabled)
                    .in_set(AppSystems::Input)
                    .before(HintSystems),
                (
                    cancel_stale_drag,
                    drop_drag_without_input.run_if(not(input_enabled)),
                    rejected_sound,
                    tell_stuck,
                )
                    .in_set(AppSystems::Plan),
            )
                .in_set(SpiderSystems),
        );
}

fn input_enabled(enabled: Option<Res<TableInput>>, watching: Res<Watching>) -> bool {
    enabled.is_none_or(|e| e.0) && !watching.0
}

/// The keys go to the table (the pointer may rest on the bar).
fn keys_enabled(keys: Option<Res<crate::core::focus::TableKeys>>, watching: Res<Watching>) -> bool {
    crate::core::focus::TableKeys::on(keys) && !watching.0
}

/// A run being dragged.
#[derive(Resource, Default, Debug)]
pub struct Drag(pub Option<Dragging>);

/// The state of a drag.
#[derive(Debug, Clone)]
pub struct Dragging {
    /// Source column.
    pub from: u8,
    /// Cards in the run.
    pub count: usize,
    /// Their entities, bottom first.
    pub cards: Vec<Entity>,
    /// Pointer position minus the first card's centre when grabbed.
    pub grab: Vec2,
    /// Where the press happened.
    pub start: Vec2,
    /// Whether the pointer has moved far enough to be a drag rather than a click.
    pub moved: bool,
}

#[derive(Resource, Default)]
struct Clicks {
    last: Option<(u8, f64)>,
    /// A press that came in the frame of the previous click's release (a quick double-click
    /// on a slow frame), and when: that frame ends the click, the next one takes the press.
    /// Not taken within a quarter of a second (the table stopped listening), it is forgotten.
    press: Option<(Vec2, f64)>,
}

/// The move a click on card `index` of `column` makes: the run from that card to the best
/// target (a same-suit build, then any build, then an empty column), if any.
pub fn click_move(position: &Position, column: u8, index: usize) -> Option<Move> {
    let col = position.columns().get(column as usize)?;
    let count = col.len().checked_sub(index)?;
    if count == 0 || count > position.movable_run(column as usize) {
        return None;
    }
    best_target(position, column, count)
}

/// The best destination for the top `count` cards of `from`.
pub fn best_target(position: &Position, from: u8, count: usize) -> Option<Move> {
    let col = &position.columns()[from as usize];
    let moving = col.cards()[col.len() - count];
    let mut best: Option<(u32, Move)> = None;
    for (to, dest) in position.columns().iter().enumerate() {
        let mv = Move::Transfer {
            from,
            to: to as u8,
            count: count as u8,
        };
        if to == from as usize || position.check(mv).is_err() {
            continue;
        }
        let score = match dest.top() {
            Some(top) if top.suit() == moving.suit() => 3,
            Some(_) => 2,
            None => 1,
        };
        // Nearer columns win ties, so repeated clicks feel predictable.
        let distance = (to as i32 - from as i32).unsigned_abs();
        let key = score * 100 - distance.min(99);
        if best.is_none_or(|(k, _)| key > k) {
            best = Some((key, mv));
        }
    }
    best.map(|(_, mv)| mv)
}

/// The columns the top `count` cards of `from` may go to, left to right.
pub fn targets(position: &Position, from: u8, count: usize) -> Vec<u8> {
    (0..position.columns().len() as u8)
        .filter(|&to| {
            to != from
                && position
                    .check(Move::Transfer {
                        from,
                        to,
                        count: count as u8,
                    })
                    .is_ok()
        })
        .collect()
}

/// The top `count` cards of `from` taken up with the keyboard, pointing at `keep` if they may go
/// there, else at the column a click would send them to.
pub fn take(position: &Position, from: u8, count: usize, keep: Option<u8>) -> Taking {
    let targets = targets(position, from, count);
    let to =
        keep.filter(|k| targets.contains(k))
            .or_else(|| match best_target(position, from, count) {
                Some(Move::Transfer { to, .. }) => Some(to),
                _ => None,
            });
    Taking {
        from,
        count: count as u8,
        targets,
        to,
    }
}

/// The next of `targets` after `at` going right (`step` > 0) or left, round the table.
fn next_target(targets: &[u8], at: u8, step: i32) -> Option<u8> {
    if step > 0 {
        targets
            .iter()
            .copied()
            .find(|&t| t > at)
            .or(targets.first().copied())
    } else {
        targets
            .iter()
            .rev()
            .copied()
            .find(|&t| t < at)
            .or(targets.last().copied())
    }
}

/// What a key does to cards taken up with the keyboard; `false` for a key that lets them go and
/// plays as usual.
fn place_taken(
    key: KeyCode,
    shift: bool,
    quiet: bool,
    position: &Position,
    highlights: &mut Highlights,
    requests: &mut MessageWriter<Request>,
    sfx: &mut MessageWriter<PlaySfx>,
) -> bool {
    let Some(taking) = highlights.taking.clone() else {
        return false;
    };
    // Shift (of Shift+Tab), Ctrl, Alt and Cmd pressed on their own keep the cards taken.
    if crate::core::keys::is_modifier(key) {
        return true;
    }
    let mut refuse = || {
        if !quiet {
            sfx.write(PlaySfx::plain(Sfx::Invalid));
        }
    };
    match key {
        // Up takes one card more of the column's run, Down one fewer.
        KeyCode::ArrowUp | KeyCode::ArrowDown => {
            let movable = position.movable_run(taking.from as usize);
            let count = if key == KeyCode::ArrowUp {
                (taking.count as usize + 1).min(movable)
            } else {
                (taking.count as usize).saturating_sub(1).max(1)
            };
            if count == taking.count as usize {
                refuse();
            }
            highlights.taking = Some(take(position, taking.from, count, taking.to));
        }
        // Left and Right (Tab) point at the next column they may go to.
        KeyCode::ArrowLeft | KeyCode::ArrowRight | KeyCode::Tab => {
            let step = match key {
                KeyCode::ArrowLeft => -1,
                KeyCode::Tab if shift => -1,
                _ => 1,
            };
            match next_target(&taking.targets, taking.to.unwrap_or(taking.from), step) {
                Some(to) => {
                    if let Some(t) = highlights.taking.as_mut() {
                        t.to = Some(to);
                    }
                }
                None => refuse(),
            }
        }
        KeyCode::Enter | KeyCode::NumpadEnter | KeyCode::Space => match taking.to {
            Some(to) => {
                requests.write(Request::Move(Move::Transfer {
                    from: taking.from,
                    to,
                    count: taking.count,
                }));
                highlights.taking = None;
                highlights.selected = Some(to);
            }
            None => refuse(),
        },
        // Esc lets them go (and leaves the menu shut: `menu::window_keys`).
        KeyCode::Escape => highlights.taking = None,
        _ => {
            highlights.taking = None;
            return false;
        }
    }
    true
}

/// The move Enter makes from a column: its whole movable run if it has a target, else the
/// longest part of it that builds on a card, else the longest part that goes to an empty column.
pub fn keyboard_move(position: &Position, column: u8) -> Option<Move> {
    position.columns().get(column as usize)?;
    if position.discard() == DiscardMode::Manual && position.has_completed_run(column as usize) {
        return Some(Move::Discard { column });
    }
    let movable = position.movable_run(column as usize);
    let mut fallback = None;
    for count in (1..=movable).rev() {
        if let Some(mv) = best_target(position, column, count) {
            let Move::Transfer { to, .. } = mv else {
                continue;
            };
            if !position.columns()[to as usize].is_empty() {
                return Some(mv);
            }
            fallback = fallback.or(Some(mv));
        }
    }
    fallback
}

/// The topmost card under `p`: (entity, column, index) for column cards, or the stock.
fn card_under(
    p: Vec2,
    layout: &Layout,
    cards: &Query<(Entity, &CardView, &mut CardPose)>,
) -> Option<(Entity, PileId, usize)> {
    cards
        .iter()
        .filter(|(_, _, pose)| layout.hits(pose.translation.truncate(), p))
        .max_by(|a, b| a.2.translation.z.total_cmp(&b.2.translation.z))
        .map(|(e, view, _)| (e, view.pile, view.index))
}

fn pointer_input(
    mut commands: Commands,
    (buttons, last_cursor): (Res<ButtonInput<MouseButton>>, Res<LastCursor>),
    touches: Option<Res<Touches>>,
    window: Query<&Window, With<PrimaryWindow>>,
    layout: Option<Res<Layout>>,
    table: Res<Table>,
    piles: Res<Piles>,
    settings: Res<Settings>,
    mut cards: Query<(Entity, &CardView, &mut CardPose)>,
    anims: Query<Entity, With<TweenAnim>>,
    mut drag: ResMut<Drag>,
    mut clicks: ResMut<Clicks>,
    mut highlights: ResMut<Highlights>,
    mut celebrating: ResMut<Celebrating>,
    time: Res<Time<Real>>,
    (mut requests, mut relayout, mut sfx, mut shakes): (
        MessageWriter<Request>,
        MessageWriter<Relayout>,
        MessageWriter<PlaySfx>,
        MessageWriter<Shake>,
    ),
) {
    let (Ok(window), Some(layout)) = (window.single(), layout) else {
        return;
    };
    let mut ptr = pointer_state(window, &buttons, touches.as_deref(), &last_cursor);
    if ptr.just_pressed && ptr.just_released && drag.0.as_ref().is_some_and(|d| !d.moved) {
        // The click's release and the next press in one frame: the click first.
        clicks.press = ptr.at.map(|at| (at, time.elapsed_secs_f64()));
        ptr.just_pressed = false;
        ptr.pressed = false;
    } else if let Some((at, when)) = clicks.press.take()
        && !ptr.just_pressed
        && time.elapsed_secs_f64() - when < 0.25
    {
        ptr.just_pressed = true;
        ptr.at = Some(at);
    }
    let p = ptr.at;
    if ptr.just_pressed {
        if celebrating.0 {
            // A click skips the celebration.
            celebrating.0 = false;
            relayout.write(Relayout { instant: true });
            return;
        }
        let Some(p) = p else { return };
        highlights.hint = None;
        highlights.taking = None;
        // A second press during a drag (a finger landing while the mouse holds a run): the
        // run held so far goes back to its place before anything else.
        if drag.0.take().is_some() {
            highlights.targets.clear();
            relayout.write(Relayout { instant: true });
            return;
        }
        match card_under(p, &layout, &cards) {
            Some((_, PileId::Stock, _)) => {
                requests.write(Request::Move(Move::Deal));
            }
            Some((_, PileId::Column(c), index)) => {
                let col = &piles.columns[c as usize];
                let count = col.len() - index;
                if count <= table.game.position().movable_run(c as usize) {
                    // Finish running motion at once so no tween fights the drag.
                    if !anims.is_empty() {
                        relayout.write(Relayout { instant: true });
                    }
                    drag.0 = Some(Dragging {
                        from: c,
                        count,
                        cards: col[index..].to_vec(),
                        grab: p - layout
                            .position(&piles.shape(), PileId::Column(c), index)
                            .truncate(),
                        start: p,
                        moved: false,
                    });
                    sfx.write(PlaySfx::plain(Sfx::Pick));
                } else {
                    sfx.write(PlaySfx::plain(Sfx::Invalid));
                    shakes.write(Shake(col[index..].to_vec()));
                }
            }
            _ => {}
        }
        return;
    }
    let Some(state) = drag.0.as_mut() else { return };
    if ptr.pressed {
        let Some(p) = p else { return };
        if !state.moved && p.distance(state.start) > 5.0 {
            state.moved = true;
            highlights.targets = targets(table.game.position(), state.from, state.count);
        }
        if state.moved {
            for (i, &e) in state.cards.iter().enumerate() {
                if anims.contains(e) {
                    commands.entity(e).remove::<TweenAnim>();
                }
                if let Ok((_, _, mut pose)) = cards.get_mut(e) {
                    let at = p
                        - state.grab
                        - Vec2::Y * i as f32 * layout.card.y * settings.layout.drag_fan;
                    pose.translation = at.extend(z::LIFT + 50.0 + i as f32 * z::STEP);
                    pose.flip = 1.0;
                }
            }
        }
        return;
    }
    // Released.
    let Some(state) = drag.0.take() else { return };
    highlights.targets.clear();
    let position = table.game.position();
    // A drag is cancelled when the table changes under it (`cancel_stale_drag`); this keeps a
    // release safe whatever happened since the press.
    let Some(index) = piles
        .columns
        .get(state.from as usize)
        .and_then(|col| col.len().checked_sub(state.count))
        .filter(|_| (state.from as usize) < position.columns().len())
    else {
        relayout.write(Relayout { instant: false });
        return;
    };
    if state.moved {
        let target = p.and_then(|p| layout.column_at(p.x));
        let mv = target.map(|to| Move::Transfer {
            from: state.from,
            to,
            count: state.count as u8,
        });
        match mv {
            Some(mv) if position.check(mv).is_ok() => {
                requests.write(Request::Move(mv));
            }
            _ => {
                if target.is_some_and(|t| t != state.from) {
                    sfx.write(PlaySfx::plain(Sfx::Invalid));
                }
                relayout.write(Relayout { instant: false });
            }
        }
        return;
    }
    // A click: a double click on a completed run discards it; otherwise click-to-move.
    let now = time.elapsed_secs_f64();
    let double = clicks
        .last
        .is_some_and(|(c, t)| c == state.from && now - t < 0.45);
    clicks.last = Some((state.from, now));
    // In manual-discard games a click on a completed run waits for the second click, which
    // discards it (a single click must not break the run up).
    if position.discard() == DiscardMode::Manual
        && position.has_completed_run(state.from as usize)
        && state.count <= 13
    {
        if double {
            requests.write(Request::Move(Move::Discard { column: state.from }));
        }
        return;
    }
    match click_move(position, state.from, index) {
        Some(mv) => {
            requests.write(Request::Move(mv));
        }
        None => {
            sfx.write(PlaySfx::plain(Sfx::Invalid));
            shakes.write(Shake(state.cards.clone()));
        }
    }
}

fn keyboard_input(
    keys: Res<crate::core::keys::Keys>,
    table: Res<Table>,
    settings: Res<Settings>,
    mut highlights: ResMut<Highlights>,
    mut celebrating: ResMut<Celebrating>,
    mut hint: Option<ResMut<HintTask>>,
    mut hints: MessageWriter<AskHint>,
    mut asks: MessageWriter<crate::spider::assist::Ask>,
    mut requests: MessageWriter<Request>,
    mut relayout: MessageWriter<Relayout>,
    mut sfx: MessageWriter<PlaySfx>,
    stopped: Option<Res<crate::spider::playback::StoppedByKey>>,
    playback: Option<Res<crate::spider::playback::Playback>>,
) {
    // (The playback closes before the keys are read: a key that stopped auto-complete says so.)
    let stopped_auto_complete = stopped.is_some_and(|s| s.0);
    // The arrows go on while held, at the system's repeat rate (a cursor, or a count of cards
    // taken up, a step a time); a repeat that can go no further is refused without a sound.
    // Not while auto-complete plays: a key stops it, and a repeat is no new key.
    let repeating: &[KeyCode] = if playback.is_some() {
        &[]
    } else {
        &[
            KeyCode::ArrowLeft,
            KeyCode::ArrowRight,
            KeyCode::ArrowUp,
            KeyCode::ArrowDown,
        ]
    };
    let pressed = keys.presses(repeating);
    if pressed.is_empty() {
        return;
    }
    // Only a new press ends the win's celebration.
    if celebrating.0 && pressed.iter().all(|&k| keys.is_repeat(k)) {
        return;
    }
    if celebrating.0 {
        celebrating.0 = false;
        relayout.write(Relayout { instant: true });
        return;
    }
    let ctrl = keys.any_pressed([
        KeyCode::ControlLeft,
        KeyCode::ControlRight,
        KeyCode::SuperLeft,
        KeyCode::SuperRight,
    ]);
    let shift = keys.any_pressed([KeyCode::ShiftLeft, KeyCode::ShiftRight]);
    let columns = table.game.position().columns().len() as u8;
    // A column chosen in a game of more columns (Huge Spider's 20, then a 10-column deal).
    if highlights.selected.is_some_and(|c| c >= columns) {
        highlights.selected = None;
    }
    for key in pressed {
        let quiet = keys.is_repeat(key);
        // A repeat of Up or Down changes how many cards are taken up; it does not take a run
        // up (the press does).
        if quiet
            && matches!(key, KeyCode::ArrowUp | KeyCode::ArrowDown)
            && highlights.taking.is_none()
        {
            continue;
        }
        if place_taken(
            key,
            shift,
            quiet,
            table.game.position(),
            &mut highlights,
            &mut requests,
            &mut sfx,
        ) {
            continue;
        }
        let step = |d: i32, sel: Option<u8>| -> Option<u8> {
            let c = sel.map_or(if d > 0 { -1 } else { columns as i32 }, |c| c as i32);
            Some((c + d).rem_euclid(columns as i32) as u8)
        };
        match key {
            KeyCode::ArrowRight => highlights.selected = step(1, highlights.selected),
            KeyCode::ArrowLeft => highlights.selected = step(-1, highlights.selected),
            KeyCode::Tab => {
                highlights.selected = step(if shift { -1 } else { 1 }, highlights.selected)
            }
            KeyCode::Enter | KeyCode::NumpadEnter | KeyCode::Space => {
                let Some(c) = highlights.selected else {
                    highlights.selected = Some(0);
                    continue;
                };
                match keyboard_move(table.game.position(), c) {
                    Some(mv) => {
                        requests.write(Request::Move(mv));
                        if let Move::Transfer { to, .. } = mv {
                            highlights.selected = Some(to);
                        }
                    }
                    None => {
                        sfx.write(PlaySfx::plain(Sfx::Invalid));
                    }
                }
            }
            // Up or Down takes up the chosen column's run, to place it with Left, Right and
            // Enter (part of it with Down, to an empty column or a target of the player's
            // choosing).
            KeyCode::ArrowUp | KeyCode::ArrowDown => {
                let Some(c) = highlights.selected else {
                    highlights.selected = Some(0);
                    continue;
                };
                let position = table.game.position();
                match position.movable_run(c as usize) {
                    0 if quiet => {}
                    0 => {
                        sfx.write(PlaySfx::plain(Sfx::Invalid));
                    }
                    run => highlights.taking = Some(take(position, c, run, None)),
                }
            }
            // (Letters held with Ctrl or Cmd are the browser's and the system's: Ctrl+D
            // bookmarks, it does not deal.)
            KeyCode::KeyD if !ctrl => {
                requests.write(Request::Move(Move::Deal));
            }
            // Ctrl+Shift+Z (Cmd+Shift+Z on a Mac) redoes, as everywhere.
            KeyCode::KeyZ if ctrl && shift => {
                requests.write(Request::Redo);
            }
            KeyCode::KeyZ if ctrl => {
                requests.write(Request::Undo);
            }
            KeyCode::KeyU if !ctrl => {
                requests.write(Request::Undo);
            }
            KeyCode::KeyY if ctrl => {
                requests.write(Request::Redo);
            }
            KeyCode::KeyR if !ctrl => {
                requests.write(Request::Redo);
            }
            KeyCode::KeyN if !ctrl => new_deal(&table, &settings, &mut asks, &mut requests),
            KeyCode::KeyH if !ctrl => {
                hints.write(AskHint);
            }
            // A while auto-complete plays stops it (as any key does), and does not start it
            // again.
            KeyCode::KeyA if !ctrl && !stopped_auto_complete => {
                asks.write(Ask::AutoComplete);
            }
            KeyCode::Escape => {
                highlights.selected = None;
                highlights.hint = None;
                if let Some(h) = hint.as_mut() {
                    h.cancel();
                }
            }
            _ => {}
        }
    }
}

/// The table changed while a run was held (an undo, a deal from a finished search, a new
/// game): the held cards may be gone or elsewhere, so the drag ends and they glide home.
fn cancel_stale_drag(
    mut drag: ResMut<Drag>,
    mut highlights: ResMut<Highlights>,
    mut changed: MessageReader<TableChanged>,
) {
    if changed.read().count() > 0 && drag.0.take().is_some() {
        highlights.targets.clear();
    }
}

/// A window came over the table (or the viewer took it) while a run was held: the table no
/// longer sees the button, so the drag ends here and the run glides home instead of hanging
/// where the pointer left it.
fn drop_drag_without_input(
    mut drag: ResMut<Drag>,
    mut highlights: ResMut<Highlights>,
    mut relayout: MessageWriter<Relayout>,
) {
    if drag.0.take().is_some() {
        highlights.targets.clear();
        relayout.write(Relayout { instant: false });
    }
}

/// A game with no move left (not won) says so after the change that left it there: undo or a
/// new deal are all that remain, and a buzz at the next click would not tell the player why.
fn tell_stuck(
    mut changed: MessageReader<crate::spider::table::TableChanged>,
    table: Res<Table>,
    watching: Res<Watching>,
    mut notices: ResMut<crate::core::focus::Notices>,
) {
    if changed.read().count() > 0 && !watching.0 && table.game.is_stuck() {
        // Undo is offered only while a move can be taken back (an undo limit may have used
        // them all).
        notices.push(crate::core::i18n::t(if table.game.can_undo() {
            "spider.note.stuck"
        } else {
            "spider.note.stuck_no_undo"
        }));
    }
}

/// A request the rules refused: the error sound, and the reason in words (a deal with an empty
/// column, nothing left to undo, a won game...), not only a buzz.
fn rejected_sound(
    mut rejected: MessageReader<Rejected>,
    mut sfx: MessageWriter<PlaySfx>,
    mut notices: ResMut<crate::core::focus::Notices>,
) {
    for r in rejected.read() {
        tracing::debug!("rejected: {}", r.0);
        notices.push(crate::core::i18n::tf(
            "spider.note.not_allowed",
            &[("why", &r.0)],
        ));
        sfx.write(PlaySfx::plain(Sfx::Invalid));
    }
}
