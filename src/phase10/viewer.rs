//! Pro Spider 10's replay viewer: a kept game (or the game in progress, from its start) played
//! again turn by turn on the table: step, play at a chosen speed, jump to a round, every hand
//! shown or only the player's. The player's own game waits aside and comes back as it was.
use arachne_engine::phase10::variant;
use arachne_engine::phase10::{Event, Step, resume};
use bevy::prelude::*;
use bevy_tweening::TweenAnim;

use crate::core::i18n::tf;
use crate::phase10::P10Systems;
use crate::phase10::round::{P10Changed, P10Request, P10Spec, P10Table};
use crate::phase10::saves::{named_levels, strongest_levels};
use crate::phase10::view::{P10Card, P10Piles};
use crate::{AppSystems, GameKind};

pub(crate) fn plugin(app: &mut App) {
    app.add_message::<ViewerControl>()
        .add_systems(
            Update,
            (control, autoplay)
                .chain()
                .in_set(AppSystems::Apply)
                .before(crate::phase10::round::apply_requests)
                .in_set(P10Systems),
        )
        .add_systems(
            Update,
            viewer_keys
                .run_if(resource_exists::<P10Viewer>)
                .run_if(crate::core::focus::TableKeys::on)
                .in_set(AppSystems::Input)
                .in_set(P10Systems),
        )
        .add_systems(OnExit(GameKind::ProSpider10), close_on_exit);
}

/// What the viewer is asked.
#[derive(Message, Clone, Debug, PartialEq)]
pub enum ViewerControl {
    /// Watch this log from its start, titled so.
    Open {
        /// The title the viewer's bar shows.
        title: String,
        /// The `.p10` log.
        log: String,
    },
    /// One step forward.
    Forward,
    /// One step back.
    Back,
    /// To this step (0: the first deal).
    Jump(usize),
    /// To the start of this round (from 1).
    Round(u32),
    /// Play on, or pause.
    Play(bool),
    /// Steps per second when playing.
    Speed(f32),
    /// Every hand face up, or only the player's.
    AllHands(bool),
    /// Back to the player's game.
    Close,
}

impl ViewerControl {
    /// The player's game in `table`, watched from its start.
    pub fn this_game(table: &P10Table) -> ViewerControl {
        ViewerControl::Open {
            title: crate::core::i18n::t("p10.replays.this_game_title").into(),
            log: crate::phase10::saves::save_text(table),
        }
    }
}

/// The steps a second a replay opens with; the cards move at the settings' own speed there.
pub const USUAL_SPEED: f32 = 2.0;

/// A game being watched. The player's game waits in it.
#[derive(Resource, Clone, Debug)]
#[component(clone_behavior = Ignore)]
pub struct P10Viewer {
    /// What the bar calls it.
    pub title: String,
    /// The watched game's spec.
    pub spec: P10Spec,
    /// Its steps after the first deal.
    pub steps: Vec<Step>,
    /// Steps shown so far.
    pub at: usize,
    /// Playing on by itself.
    pub playing: bool,
    /// Steps per second when playing (its cards move faster above [`USUAL_SPEED`]).
    pub speed: f32,
    /// Every hand face up.
    pub all_hands: bool,
    /// The player's game, given back on closing.
    waiting: P10Table,
    /// Seconds to the next step when playing.
    timer: f32,
}

impl P10Viewer {
    /// The player's own game, waiting while this one is watched.
    pub fn players_game(&self) -> &P10Table {
        &self.waiting
    }

    /// Rounds of the watched game.
    pub fn rounds(&self) -> u32 {
        1 + self
            .steps
            .iter()
            .filter(|s| matches!(s, Step::NextRound))
            .count() as u32
    }

    /// The step at which round `round` is dealt (0 for round 1).
    pub fn round_start(&self, round: u32) -> usize {
        if round <= 1 {
            return 0;
        }
        self.steps
            .iter()
            .enumerate()
            .filter(|(_, s)| matches!(s, Step::NextRound))
            .nth(round as usize - 2)
            .map_or(self.steps.len(), |(i, _)| i + 1)
    }
}

/// The watched game after `at` steps, without its events.
fn table_at(spec: &P10Spec, steps: &[Step], at: usize) -> Result<P10Table, String> {
    let (mut table, _) = P10Table::new(spec.clone())?;
    for step in &steps[..at.min(steps.len())] {
        apply(&mut table, step)?;
    }
    Ok(table)
}

fn apply(table: &mut P10Table, step: &Step) -> Result<Vec<Event>, String> {
    match step {
        Step::Act(_, action) => table.apply(action.clone()),
        Step::NextRound => table.next_round(),
    }
    .map_err(|e| e.to_string())
}

/// Opens `log` in the viewer, or says why it cannot be watched.
fn open(
    title: &str,
    log: &str,
    table: &P10Table,
) -> Result<(P10Viewer, P10Table, Vec<Event>), String> {
    let resumed = resume(log, &variant::resolve).map_err(|e| e.to_string())?;
    let game = &resumed.game;
    let spec_with =
        |levels| P10Spec::new(game.variant().clone(), game.players(), game.seed(), levels);
    // A log whose `# ai:` line names levels this game does not have (a retired one, too few)
    // is watched as one that names none: its seats are called by number. (The viewer only
    // shows the log's decisions; it refused such a log before.)
    let spec = match named_levels(log).map(spec_with) {
        Some(Ok(spec)) => spec,
        _ => {
            let mut spec = spec_with(strongest_levels(game.players()))?;
            spec.unnamed = true;
            spec
        }
    };
    let (start, events) = P10Table::new(spec.clone())?;
    let viewer = P10Viewer {
        title: title.to_string(),
        spec,
        steps: resumed.steps,
        at: 0,
        playing: true,
        speed: USUAL_SPEED,
        all_hands: false,
        waiting: table.clone(),
        timer: 0.0,
    };
    Ok((viewer, start, events))
}

#[allow(clippy::too_many_arguments)]
fn control(
    mut commands: Commands,
    mut controls: MessageReader<ViewerControl>,
    mut requests: MessageReader<P10Request>,
    viewer: Option<ResMut<P10Viewer>>,
    mut table: ResMut<P10Table>,
    mut piles: ResMut<P10Piles>,
    mut changed: MessageWriter<P10Changed>,
    mut notices: ResMut<crate::core::focus::Notices>,
) {
    let mut viewer = viewer.map(|v| v.clone());
    let mut dirty = false;
    // A new game asked for while watching: the player's game comes back first.
    let new_game = requests.read().any(|r| matches!(r, P10Request::NewGame(_)));
    let mut list: Vec<ViewerControl> = controls.read().cloned().collect();
    if new_game && viewer.is_some() {
        list.push(ViewerControl::Close);
    }
    for c in list {
        match (c, viewer.as_mut()) {
            (ViewerControl::Open { title, log }, _) => {
                // The game waiting is the player's, also when one replay replaces another.
                let own = viewer.as_ref().map_or(&*table, |v| &v.waiting).clone();
                match open(&title, &log, &own) {
                    Ok((v, start, events)) => {
                        *table = start;
                        piles.show_all = v.all_hands;
                        viewer = Some(v);
                        changed.write(P10Changed {
                            new_game: true,
                            events,
                            rearranged: false,
                        });
                        dirty = true;
                    }
                    Err(e) => notices.push(
                        crate::shell::widgets::TextKind::misplaced(
                            &log,
                            crate::shell::widgets::TextKind::P10Game,
                        )
                        .unwrap_or_else(|| tf("p10.viewer.cannot_open", &[("why", &e)])),
                    ),
                }
            }
            (ViewerControl::Close, Some(v)) => {
                *table = v.waiting.clone();
                piles.show_all = false;
                viewer = None;
                changed.write(P10Changed {
                    new_game: true,
                    events: Vec::new(),
                    rearranged: false,
                });
                dirty = true;
            }
            (ViewerControl::Forward, Some(v)) => {
                if let Some(step) = v.steps.get(v.at) {
                    match apply(&mut table, step) {
                        Ok(events) => {
                            v.at += 1;
                            changed.write(P10Changed {
                                new_game: false,
                                events,
                                rearranged: false,
                            });
                        }
                        Err(e) => notices.push(tf("p10.viewer.stops", &[("why", &e)])),
                    }
                } else {
                    v.playing = false;
                }
                dirty = true;
            }
            (
                c @ (ViewerControl::Back | ViewerControl::Jump(_) | ViewerControl::Round(_)),
                Some(v),
            ) => {
                let to = match c {
                    ViewerControl::Back => v.at.saturating_sub(1),
                    ViewerControl::Jump(k) => k.min(v.steps.len()),
                    ViewerControl::Round(r) => v.round_start(r),
                    _ => v.at,
                };
                // Where it is already (back at the first deal): nothing to show again.
                if to == v.at {
                    continue;
                }
                match table_at(&v.spec, &v.steps, to) {
                    Ok(t) => {
                        *table = t;
                        v.at = to;
                        // One step back glides the cards back; a jump puts them out at once.
                        changed.write(P10Changed {
                            new_game: true,
                            events: Vec::new(),
                            rearranged: matches!(c, ViewerControl::Back),
                        });
                    }
                    Err(e) => notices.push(tf("p10.viewer.cannot_go", &[("why", &e)])),
                }
                dirty = true;
            }
            (ViewerControl::Play(on), Some(v)) => {
                v.playing = on && v.at < v.steps.len();
                v.timer = 0.0;
                dirty = true;
            }
            (ViewerControl::Speed(s), Some(v)) => {
                v.speed = s.clamp(0.25, 16.0);
                dirty = true;
            }
            (ViewerControl::AllHands(on), Some(v)) => {
                v.all_hands = on;
                piles.show_all = on;
                // The same table, every card put where it rests with the side it now shows.
                changed.write(P10Changed {
                    new_game: false,
                    events: Vec::new(),
                    rearranged: false,
                });
                dirty = true;
            }
            _ => {}
        }
    }
    if dirty {
        match viewer {
            Some(v) => commands.insert_resource(v),
            None => commands.remove_resource::<P10Viewer>(),
        }
    }
}

/// Playing on: the next step once the cards are at rest and the pace allows.
fn autoplay(
    viewer: Option<ResMut<P10Viewer>>,
    time: Res<Time>,
    moving: Query<(), (With<P10Card>, With<TweenAnim>)>,
    mut controls: MessageWriter<ViewerControl>,
) {
    let Some(mut viewer) = viewer else {
        return;
    };
    if !viewer.playing || !moving.is_empty() {
        return;
    }
    viewer.timer += time.delta_secs();
    if viewer.timer >= 1.0 / viewer.speed {
        viewer.timer = 0.0;
        controls.write(ViewerControl::Forward);
    }
}

/// Leaving the game gives the player's game back.
fn close_on_exit(
    mut commands: Commands,
    viewer: Option<Res<P10Viewer>>,
    mut table: ResMut<P10Table>,
    mut piles: ResMut<P10Piles>,
) {
    if let Some(v) = viewer {
        *table = v.waiting.clone();
        piles.show_all = false;
        commands.remove_resource::<P10Viewer>();
    }
}

/// The viewer is not showing anything (the table is the player's game).
pub fn not_watching(viewer: Option<Res<P10Viewer>>) -> bool {
    viewer.is_none()
}

/// Keys while watching: Left and Right step, Space (or P, as in Spider's viewer) plays or
/// pauses, + and - double and halve the speed (0.25 to 16 steps a second, as the bar's slider),
/// A shows every hand or only the player's, Home and End go to either end, Page Up and Page Down
/// to the round before or after, Esc closes.
fn viewer_keys(
    keys: Res<crate::core::keys::Keys>,
    viewer: Res<P10Viewer>,
    mut controls: MessageWriter<ViewerControl>,
) {
    // Keys held with Ctrl, Alt or Cmd are the system's (Ctrl+P prints, Ctrl+A selects all).
    if keys.any_pressed(crate::core::keys::COMMAND_KEYS) {
        return;
    }
    // Stepping, the rounds and the speed go on while their key is held. (From where the keys of
    // this frame have taken the replay so far: two repeats of Page Down in one frame go two
    // rounds on.)
    let end = viewer.steps.len();
    let round_at = |at: usize| {
        1 + viewer.steps[..at]
            .iter()
            .filter(|s| matches!(s, Step::NextRound))
            .count() as u32
    };
    let mut at = viewer.at.min(end);
    let mut speed = viewer.speed;
    for key in &keys.presses(&crate::core::keys::STEP_KEYS) {
        let c = match key {
            KeyCode::ArrowRight => {
                at = (at + 1).min(end);
                ViewerControl::Forward
            }
            KeyCode::ArrowLeft => {
                at = at.saturating_sub(1);
                ViewerControl::Back
            }
            KeyCode::Space | KeyCode::KeyP => ViewerControl::Play(!viewer.playing),
            KeyCode::Equal | KeyCode::NumpadAdd => {
                speed = (speed * 2.0).clamp(0.25, 16.0);
                ViewerControl::Speed(speed)
            }
            KeyCode::Minus | KeyCode::NumpadSubtract => {
                speed = (speed / 2.0).clamp(0.25, 16.0);
                ViewerControl::Speed(speed)
            }
            KeyCode::KeyA => ViewerControl::AllHands(!viewer.all_hands),
            KeyCode::Home => {
                at = 0;
                ViewerControl::Jump(0)
            }
            KeyCode::End => {
                at = end;
                ViewerControl::Jump(end)
            }
            KeyCode::PageUp => {
                let round = round_at(at).saturating_sub(1).max(1);
                at = viewer.round_start(round);
                ViewerControl::Round(round)
            }
            KeyCode::PageDown => {
                let round = round_at(at) + 1;
                at = viewer.round_start(round);
                ViewerControl::Round(round)
            }
            KeyCode::Escape => ViewerControl::Close,
            _ => continue,
        };
        controls.write(c);
    }
}
