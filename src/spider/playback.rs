//! Games that play themselves: auto-complete on the player's game, the solver's demo of a deal,
//! and the replay viewer (saved games, the current game from its deal, `arachne --replay FILE`).
//!
//! The viewer is a small state machine over the table: `at` moves of `moves` are on the table.
//! Stepping forward plays the next move, stepping back undoes one, and a jump shows the table
//! at the new point without motion. While a replay or demo is shown the player's game is kept
//! aside ([`Stash`]) and comes back, untouched, when the viewer closes.
use arachne_engine::Move;
use bevy::prelude::*;
use bevy_tweening::TweenAnim;

use crate::AppSystems;
use crate::cards::motion::{Celebrating, MotionScale};
use crate::core::i18n::{t, tf};
use crate::spider::SpiderSystems;
use crate::spider::table::{GameRecord, GameSpec, Request, Table, TableChanged, Watching};

pub(super) fn plugin(app: &mut App) {
    app.add_message::<Control>()
        .init_resource::<StoppedByKey>()
        .add_systems(
            Update,
            ((
                stop_on_player_input,
                viewer_keys,
                control,
                // Not while this copy waits for the player to come back from another.
                advance.run_if(crate::core::persist::plays_on),
            )
                .chain()
                .in_set(PlaybackSystems)
                .before(AppSystems::Input))
            .in_set(SpiderSystems),
        );
}

/// The viewer's systems: its keys, its controls, and the moves it plays.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PlaybackSystems;

/// What is being played.
#[derive(Clone, Debug, PartialEq)]
pub enum Kind {
    /// The solver's winning line, played on the player's own game.
    AutoComplete,
    /// The solver plays the deal from its start.
    Demo,
    /// A saved or opened replay.
    Replay {
        /// What the viewer's title says.
        title: String,
    },
    /// The player's game from its deal to where it is now.
    History,
}

impl Kind {
    /// Whether the table shows something other than the player's game.
    pub fn watching(&self) -> bool {
        !matches!(self, Kind::AutoComplete)
    }

    /// A title for the viewer.
    pub fn title(&self) -> String {
        match self {
            Kind::AutoComplete => t("spider.bar.autocomplete").into(),
            Kind::Demo => t("spider.viewer.demo").into(),
            Kind::Replay { title } => title.clone(),
            Kind::History => t("spider.viewer.history").into(),
        }
    }
}

/// The speeds the viewer offers (multiples of the normal pace).
pub const SPEEDS: [f32; 5] = [0.5, 1.0, 2.0, 4.0, 8.0];

/// Seconds of rest between two moves at speed 1.
pub const PAUSE_SECS: f32 = 0.45;

/// A game playing itself (or paused in the viewer).
#[derive(Resource, Debug, Clone)]
#[component(clone_behavior = Ignore)]
pub struct Playback {
    /// What it is.
    pub kind: Kind,
    /// The table before the first move.
    pub start: Table,
    /// The moves.
    pub moves: Vec<Move>,
    /// How many of them are on the table.
    pub at: usize,
    /// Whether it plays on by itself.
    pub playing: bool,
    /// One of [`SPEEDS`].
    pub speed: f32,
    /// Seconds of rest left before the next move.
    wait: f32,
}

impl Playback {
    /// Whether every move has been played.
    pub fn at_end(&self) -> bool {
        self.at >= self.moves.len()
    }

    /// The table after the first `n` moves (`n` is clamped to the moves there are).
    pub fn table_at(&self, n: usize) -> Table {
        let mut t = self.start.clone();
        for &mv in &self.moves[..n.min(self.moves.len())] {
            // The moves were checked when the playback was opened.
            if let Err(e) = t.game.apply(mv) {
                tracing::warn!("replay: move {mv} does not apply: {e}");
                break;
            }
        }
        t
    }
}

/// The player's game, kept while a replay or demo is shown.
#[derive(Resource, Debug, Clone)]
#[component(clone_behavior = Ignore)]
pub struct Stash {
    /// The game.
    pub table: Table,
    /// Its clock and whether its end was counted.
    pub record: GameRecord,
}

/// What the viewer's buttons and keys (and tests) ask for.
#[derive(Message, Clone, Debug, PartialEq)]
pub enum Control {
    /// Play `moves` from `start`, beginning with the first `at` on the table; `playing` starts
    /// it at once. For auto-complete `start` must be the table as it is.
    Open {
        /// What it is.
        kind: Kind,
        /// The table before the first move.
        start: Box<Table>,
        /// The moves.
        moves: Vec<Move>,
        /// Moves on the table at the start.
        at: usize,
        /// Play at once (else paused).
        playing: bool,
    },
    /// Play on.
    Play,
    /// Stop after the current move.
    Pause,
    /// Play or pause.
    Toggle,
    /// One move forward (pauses).
    StepForward,
    /// One move back (pauses).
    StepBack,
    /// Back to the deal.
    ToStart,
    /// To the last move.
    ToEnd,
    /// To move `n`.
    Seek(usize),
    /// Change the speed.
    Speed(f32),
    /// Close the viewer (the player's game comes back) or stop auto-complete.
    Close,
}

impl Control {
    /// Opens the viewer on `table`'s game from its deal, with its moves so far.
    pub fn history(table: &Table, playing: bool) -> Control {
        Control::Open {
            kind: Kind::History,
            start: Box::new(watch_from_start(table)),
            moves: table.game.history().collect(),
            at: 0,
            playing,
        }
    }
}

/// `table`'s game back at its start, for watching: with undo unlimited so the viewer can step
/// back.
pub fn watch_from_start(table: &Table) -> Table {
    let options = arachne_engine::GameOptions {
        undo_limit: None,
        ..table.game.options()
    };
    Table {
        game: arachne_engine::Game::from_position(table.game.start().clone(), options),
        spec: table.spec.clone(),
    }
}

/// A table for watching `spec`: as dealt, with undo unlimited so the viewer can step back.
pub fn watch_table(spec: &GameSpec) -> Result<Table, arachne_engine::DealError> {
    let mut spec = spec.clone();
    spec.options.undo_limit = None;
    Table::new(spec)
}

/// Checks a replay's moves against its deal; the opening control for the viewer, or why not.
pub fn open_replay(
    replay: &arachne_engine::Replay,
    title: String,
    at: Option<usize>,
) -> Result<Control, String> {
    let variants = arachne_engine::Variants::default();
    replay.verify(&variants).map_err(|e| e.to_string())?;
    let variant = variants
        .get(&replay.variant)
        .ok_or_else(|| {
            tf(
                "spider.replays.unknown_variant",
                &[("variant", &replay.variant)],
            )
        })?
        .clone();
    let spec = GameSpec {
        variant,
        seed: replay.seed,
        numbering: replay.numbering,
        options: replay.options,
    };
    let start = watch_table(&spec).map_err(|e| e.to_string())?;
    let moves: Vec<Move> = replay
        .moves
        .iter()
        .map(|m| m.parse::<Move>().map_err(|e| e.reason.to_string()))
        .collect::<Result<_, _>>()?;
    let at = at.unwrap_or(0).min(moves.len());
    Ok(Control::Open {
        kind: Kind::Replay { title },
        start: Box::new(start),
        moves,
        at,
        playing: false,
    })
}

/// Auto-complete was stopped by a key in this frame: that key does nothing more (A, which
/// starts auto-complete, would start it again at once).
#[derive(Resource, Debug, Default, Clone, Copy, PartialEq, Eq)]
#[component(clone_behavior = Ignore)]
pub struct StoppedByKey(pub bool);

/// A click or key on the table while auto-complete plays stops it: the player goes on by hand.
/// A click on the table stops it even with a window open; a click on the overlay and a key
/// meant for a window do not. + and - change its speed instead, as the bar's list does.
fn stop_on_player_input(
    playback: Option<Res<Playback>>,
    input: Option<Res<crate::core::focus::TableKeys>>,
    on_overlay: Option<Res<crate::core::focus::PointerOnOverlay>>,
    mouse: Res<ButtonInput<MouseButton>>,
    keys: Res<crate::core::keys::Keys>,
    touches: Option<Res<bevy::input::touch::Touches>>,
    mut controls: MessageWriter<Control>,
    mut by_key: ResMut<StoppedByKey>,
) {
    by_key.set_if_neq(StoppedByKey(false));
    let Some(p) = playback else { return };
    if p.kind != Kind::AutoComplete {
        return;
    }
    let pointer_on_table = on_overlay.is_none_or(|o| !o.0);
    let by_pointer = pointer_on_table
        && (mouse.get_just_pressed().next().is_some()
            || touches.is_some_and(|t| t.any_just_pressed()));
    let keys_on = crate::core::focus::TableKeys::on(input);
    let speed_keys = [
        (KeyCode::Equal, 1),
        (KeyCode::NumpadAdd, 1),
        (KeyCode::Minus, -1),
        (KeyCode::NumpadSubtract, -1),
    ];
    // (Ctrl with + or - zooms the browser's page: that stops it, as any other key does.)
    let command = keys.any_pressed(crate::core::keys::COMMAND_KEYS);
    let mut by_keys = false;
    for key in keys.get_just_pressed() {
        match speed_keys.iter().find(|(k, _)| k == key) {
            Some(&(_, d)) if keys_on && !command => {
                controls.write(faster(&p, d));
            }
            // A modifier alone neither stops it nor changes it: + is Shift and = on many
            // keyboards.
            _ if crate::core::keys::is_modifier(*key) => {}
            _ => by_keys |= keys_on,
        }
    }
    if by_pointer || by_keys {
        controls.write(Control::Close);
        by_key.0 = by_keys;
    }
}

/// The next speed of [`SPEEDS`] up (`d` 1) or down (-1) from the playback's.
fn faster(p: &Playback, d: i32) -> Control {
    Control::Speed(next_speed(p.speed, d))
}

/// The next speed of [`SPEEDS`] up (`d` 1) or down (-1) from `speed`.
fn next_speed(speed: f32, d: i32) -> f32 {
    let i = SPEEDS.iter().position(|&s| s == speed).unwrap_or(1) as i32;
    SPEEDS[(i + d).clamp(0, SPEEDS.len() as i32 - 1) as usize]
}

/// How many moves Page Up and Page Down go back or on in the viewer.
const SEEK_MOVES: usize = 10;

/// The viewer's keys: Space plays or pauses, arrows step, Page Up and Page Down go 10 moves
/// back or on, Home and End jump, + and - change the speed, Esc closes.
fn viewer_keys(
    playback: Option<Res<Playback>>,
    input: Option<Res<crate::core::focus::TableKeys>>,
    keys: Res<crate::core::keys::Keys>,
    mut controls: MessageWriter<Control>,
) {
    let Some(p) = playback else { return };
    if !p.kind.watching() || !crate::core::focus::TableKeys::on(input) {
        return;
    }
    // Keys held with Ctrl, Alt or Cmd are the system's (Ctrl+P prints).
    if keys.any_pressed(crate::core::keys::COMMAND_KEYS) {
        return;
    }
    // Stepping, seeking and the speed go on while their key is held. (Where the keys of this
    // frame have taken it so far: two repeats of Page Down in one frame go 20 moves on.)
    let mut at = p.at;
    let mut speed = p.speed;
    let mut faster = |d: i32| {
        speed = next_speed(speed, d);
        Control::Speed(speed)
    };
    for key in &keys.presses(&crate::core::keys::STEP_KEYS) {
        let c = match key {
            KeyCode::Space | KeyCode::KeyP => {
                // (At the end it plays again from the deal.)
                if at >= p.moves.len() {
                    at = 0;
                }
                Control::Toggle
            }
            KeyCode::ArrowRight => {
                at = (at + 1).min(p.moves.len());
                Control::StepForward
            }
            KeyCode::ArrowLeft => {
                at = at.saturating_sub(1);
                Control::StepBack
            }
            KeyCode::Home => {
                at = 0;
                Control::ToStart
            }
            KeyCode::End => {
                at = p.moves.len();
                Control::ToEnd
            }
            KeyCode::PageUp => {
                at = at.saturating_sub(SEEK_MOVES);
                Control::Seek(at)
            }
            KeyCode::PageDown => {
                at = (at + SEEK_MOVES).min(p.moves.len());
                Control::Seek(at)
            }
            KeyCode::Equal | KeyCode::NumpadAdd => faster(1),
            KeyCode::Minus | KeyCode::NumpadSubtract => faster(-1),
            KeyCode::Escape => Control::Close,
            _ => continue,
        };
        controls.write(c);
    }
}

fn control(
    mut commands: Commands,
    mut controls: MessageReader<Control>,
    mut playback: Option<ResMut<Playback>>,
    mut stash: Option<ResMut<Stash>>,
    table: Res<Table>,
    mut record: ResMut<GameRecord>,
    mut watching: ResMut<Watching>,
    mut scale: ResMut<MotionScale>,
    mut requests: MessageWriter<Request>,
) {
    for c in controls.read() {
        if let Control::Open {
            kind,
            start,
            moves,
            at,
            playing,
        } = c
        {
            let p = Playback {
                kind: kind.clone(),
                start: (**start).clone(),
                moves: moves.clone(),
                at: (*at).min(moves.len()),
                playing: *playing,
                speed: playback.as_ref().map_or(1.0, |p| p.speed),
                wait: PAUSE_SECS,
            };
            if kind.watching() {
                // Watching the solver win this deal is help with it: the player's game, once
                // back, is an assisted one. Only that deal's: the demo may have been asked
                // before the player dealt another.
                let demo_of =
                    |game: &Table| *kind == Kind::Demo && game.game.start() == start.game.start();
                // The player's game is kept once, however many replays are opened in a row.
                if stash.is_none() && !watching.0 {
                    commands.insert_resource(Stash {
                        table: table.clone(),
                        record: GameRecord {
                            assisted: record.assisted || demo_of(&table),
                            ..*record
                        },
                    });
                } else if let Some(s) = stash.as_mut().filter(|s| demo_of(&s.table)) {
                    s.record.assisted = true;
                }
                watching.0 = true;
                requests.write(Request::Show {
                    table: Box::new(p.table_at(p.at)),
                    deal: p.at == 0,
                });
            }
            scale.0 = p.speed;
            commands.insert_resource(p.clone());
            playback = None;
            continue;
        }
        let Some(p) = playback.as_mut() else { continue };
        let watching_kind = p.kind.watching();
        match c {
            Control::Open { .. } => {}
            Control::Play => p.playing = !p.at_end(),
            Control::Pause => p.playing = false,
            Control::Toggle => {
                if p.at_end() && watching_kind {
                    // Play again from the deal.
                    p.at = 0;
                    requests.write(Request::Show {
                        table: Box::new(p.table_at(0)),
                        deal: true,
                    });
                    p.playing = true;
                } else {
                    p.playing = !p.playing;
                }
                p.wait = 0.0;
            }
            Control::StepForward => {
                p.playing = false;
                if !p.at_end() {
                    requests.write(Request::Move(p.moves[p.at]));
                    p.at += 1;
                }
            }
            Control::StepBack => {
                p.playing = false;
                if p.at > 0 && watching_kind {
                    requests.write(Request::Undo);
                    p.at -= 1;
                }
            }
            Control::ToStart | Control::ToEnd | Control::Seek(_) if watching_kind => {
                let n = match c {
                    Control::ToStart => 0,
                    Control::ToEnd => p.moves.len(),
                    Control::Seek(n) => (*n).min(p.moves.len()),
                    _ => unreachable!(),
                };
                p.playing = false;
                if n != p.at {
                    p.at = n;
                    requests.write(Request::Show {
                        table: Box::new(p.table_at(n)),
                        deal: false,
                    });
                }
            }
            Control::ToStart | Control::ToEnd | Control::Seek(_) => {}
            Control::Speed(s) => {
                p.speed = s.clamp(SPEEDS[0], SPEEDS[SPEEDS.len() - 1]);
                scale.0 = p.speed;
            }
            Control::Close => {
                if let Some(s) = &stash {
                    requests.write(Request::Show {
                        table: Box::new(s.table.clone()),
                        deal: false,
                    });
                    *record = s.record;
                    commands.remove_resource::<Stash>();
                }
                watching.0 = false;
                scale.0 = 1.0;
                commands.remove_resource::<Playback>();
                playback = None;
            }
        }
    }
}

/// Plays the next move once the table has rested for the pause the speed allows. Auto-complete
/// ends by itself after its last move; the viewer stays open, paused at the end.
fn advance(
    mut commands: Commands,
    playback: Option<ResMut<Playback>>,
    time: Res<Time>,
    anims: Query<(), With<TweenAnim>>,
    celebrating: Res<Celebrating>,
    mut changed: MessageReader<TableChanged>,
    table: Res<Table>,
    mut record: ResMut<GameRecord>,
    mut requests: MessageWriter<Request>,
    mut scale: ResMut<MotionScale>,
) {
    let fresh = changed.read().count() > 0;
    let Some(mut p) = playback else { return };
    if !p.playing {
        return;
    }
    if p.at_end() {
        p.playing = false;
        if p.kind == Kind::AutoComplete {
            commands.remove_resource::<Playback>();
            scale.0 = 1.0;
        }
        return;
    }
    // Wait for the last move to come to rest (a table change this frame is not shown yet).
    if !anims.is_empty() || celebrating.0 || fresh {
        return;
    }
    p.wait -= time.delta_secs();
    if p.wait > 0.0 {
        return;
    }
    let mv = p.moves[p.at];
    if let Err(e) = table.game.position().check(mv) {
        // The table is no longer where the line was found (the player took over).
        tracing::info!("playback stopped: {mv} no longer applies ({e})");
        p.playing = false;
        if p.kind == Kind::AutoComplete {
            commands.remove_resource::<Playback>();
            scale.0 = 1.0;
        }
        return;
    }
    requests.write(Request::Move(mv));
    if p.kind == Kind::AutoComplete {
        // The solver plays the player's game: its win is an assisted one.
        record.assisted = true;
    }
    p.at += 1;
    p.wait = PAUSE_SECS / p.speed;
}
