//! The solver at the table, always off the main thread: "still winnable?", auto-complete, the
//! demo, and winnable-only new deals. Each search runs on Bevy's async compute pool with a
//! cancel flag, and a frame never waits for one.
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

use arachne_engine::Move;
use arachne_engine::solver::{self, Budget, Verdict};
use bevy::prelude::*;
use bevy::tasks::{AsyncComputeTaskPool, Task, futures::check_ready};

use crate::AppSystems;
use crate::core::focus::Notices;
use crate::core::settings::Settings;
use crate::spider::SpiderSystems;
use crate::spider::playback::{Control, Kind, Playback, watch_from_start};
use crate::spider::table::{Cause, GameSpec, Request, Table, TableChanged, Watching, next_seed};

pub(super) fn plugin(app: &mut App) {
    app.add_message::<Ask>()
        .init_resource::<Outlook>()
        .insert_resource(OutlookSearch {
            task: None,
            start_in: Some(0.0),
            preset: None,
        })
        .add_systems(
            Update,
            (
                start_jobs.before(AppSystems::Input),
                (follow_table, finish_jobs).chain().in_set(AppSystems::Plan),
            )
                .in_set(SpiderSystems),
        );
}

/// Time the background "still winnable?" search may take.
pub const OUTLOOK_BUDGET: Duration = Duration::from_secs(5);
/// Time auto-complete and the demo search for a line before giving up. In the browser the
/// search shares the page's only thread (the game stops meanwhile), so it gets less.
pub const LINE_BUDGET: Duration = if cfg!(target_arch = "wasm32") {
    Duration::from_secs(3)
} else {
    Duration::from_secs(10)
};
/// Time spent on each candidate deal for "winnable deals only".
pub const DEAL_BUDGET: Duration = if cfg!(target_arch = "wasm32") {
    Duration::from_millis(700)
} else {
    Duration::from_secs(2)
};
/// Seconds of calm after a change before the outlook search starts (fast play and undo do not
/// start a search per move).
const OUTLOOK_DELAY: f32 = 0.3;

/// What the player asks the solver for.
#[derive(Message, Clone, Debug, PartialEq)]
pub enum Ask {
    /// Play the rest of this game out, animated.
    AutoComplete,
    /// Watch the solver play this deal from its start.
    Demo,
    /// A new deal of this variant (numbering and options as given) that the solver wins.
    WinnableDeal(GameSpec),
    /// Stop the search running for one of the above.
    Cancel,
}

/// Whether the game can still be won, as far as the background search knows.
#[derive(Resource, Debug, Clone, PartialEq, Default)]
pub enum Outlook {
    /// Not asked (turned off in the settings, or a replay is shown).
    #[default]
    Off,
    /// The search is running.
    Checking,
    /// Yes: a winning line from the position on the table.
    Winnable(Vec<Move>),
    /// No: every line from here was searched.
    Lost,
    /// The search ran out of time.
    Unknown,
}

/// A search the player is waiting for (the bar shows it and offers Cancel).
#[derive(Resource)]
pub struct Thinking {
    /// What for.
    pub job: Job,
    /// Deals tried so far (winnable deals only).
    pub tried: Arc<AtomicUsize>,
    cancel: Arc<AtomicBool>,
    task: Task<Found>,
}

impl Drop for Thinking {
    /// A search nobody waits for any more (cancelled, replaced, or the app closing) stops
    /// instead of holding a thread of the shared pool until its budget runs out.
    fn drop(&mut self) {
        self.cancel.store(true, Ordering::Relaxed);
    }
}

/// What a [`Thinking`] search is for.
#[derive(Clone, Debug, PartialEq)]
pub enum Job {
    /// Auto-complete.
    AutoComplete,
    /// The demo.
    Demo,
    /// Winnable deals only.
    WinnableDeal,
}

impl Job {
    /// For the bar.
    pub fn describe(&self) -> &'static str {
        match self {
            Job::AutoComplete => "spider.job.autocomplete",
            Job::Demo => "spider.job.demo",
            Job::WinnableDeal => "spider.job.winnable",
        }
    }
}

enum Found {
    Line(Option<Vec<Move>>),
    /// The demo's deal and the solver's line for it.
    Demo(Box<Table>, Vec<Move>),
    Deal(Option<(GameSpec, Vec<Move>)>),
}

/// The running outlook search, and when the next one may start.
#[derive(Resource)]
pub struct OutlookSearch {
    task: Option<(Task<Verdict>, Arc<AtomicBool>)>,
    start_in: Option<f32>,
    /// A line known for the next new game (from a winnable-deal search): (seed, line).
    preset: Option<(u64, Vec<Move>)>,
}

impl Drop for OutlookSearch {
    fn drop(&mut self) {
        if let Some((_, cancel)) = &self.task {
            cancel.store(true, Ordering::Relaxed);
        }
    }
}

impl OutlookSearch {
    /// Stops a running outlook search so a search the player waits for (a hint, auto-complete,
    /// the demo) gets the solver's thread first; it starts again a moment later.
    pub fn yield_to_player(&mut self) {
        if let Some((_, cancel)) = self.task.take() {
            cancel.store(true, Ordering::Relaxed);
            self.start_in = Some(OUTLOOK_DELAY);
        }
    }
}

fn spawn<T: Send + 'static>(
    f: impl FnOnce(&AtomicBool) -> T + Send + 'static,
) -> (Task<T>, Arc<AtomicBool>) {
    let cancel = Arc::new(AtomicBool::new(false));
    let flag = cancel.clone();
    let task = AsyncComputeTaskPool::get().spawn(async move { f(&flag) });
    (task, cancel)
}

fn start_jobs(
    mut commands: Commands,
    mut asks: MessageReader<Ask>,
    table: Res<Table>,
    outlook: Res<Outlook>,
    thinking: Option<Res<Thinking>>,
    mut controls: MessageWriter<Control>,
    mut notices: ResMut<Notices>,
    mut search: ResMut<OutlookSearch>,
    time: Res<Time<Real>>,
) {
    // The search running, or started by an earlier ask this frame (so a Cancel right behind it
    // reaches it).
    let mut running = thinking.map(|t| t.cancel.clone());
    for ask in asks.read() {
        if *ask == Ask::Cancel {
            if let Some(c) = &running {
                c.store(true, Ordering::Relaxed);
            }
            continue;
        }
        if running.is_some() {
            notices.push("The solver is still busy: cancel it first");
            continue;
        }
        let tried = Arc::new(AtomicUsize::new(0));
        search.yield_to_player();
        let (job, (task, cancel)) = match ask {
            Ask::AutoComplete => {
                if table.game.is_won() {
                    continue;
                }
                // A line the background search already found is played at once.
                if let Outlook::Winnable(line) = &*outlook
                    && !line.is_empty()
                {
                    controls.write(auto_complete(&table, line.clone()));
                    continue;
                }
                if *outlook == Outlook::Lost {
                    notices.push("This game cannot be won any more: undo to look for a way");
                    continue;
                }
                let game = table.game.clone();
                (
                    Job::AutoComplete,
                    spawn(move |c| {
                        Found::Line(solver::auto_complete(
                            &game,
                            Budget::time(LINE_BUDGET),
                            Some(c),
                        ))
                    }),
                )
            }
            Ask::Demo => {
                // The deal as it is now: the player may start another while the solver thinks.
                let start = watch_from_start(&table);
                (
                    Job::Demo,
                    spawn(move |c| {
                        let report = solver::solve(
                            start.game.position(),
                            Budget::time(LINE_BUDGET),
                            Some(c),
                        );
                        match report.verdict {
                            Verdict::Solved(line) => Found::Demo(Box::new(start), line),
                            _ => Found::Line(None),
                        }
                    }),
                )
            }
            Ask::WinnableDeal(spec) => {
                let spec = spec.clone();
                let counter = tried.clone();
                let clock = time.elapsed().as_nanos() as u64;
                (
                    Job::WinnableDeal,
                    spawn(move |c| Found::Deal(winnable_deal(spec, clock, &counter, c))),
                )
            }
            Ask::Cancel => unreachable!(),
        };
        running = Some(cancel.clone());
        commands.insert_resource(Thinking {
            job,
            tried,
            cancel,
            task,
        });
    }
}

/// Deals fresh deal numbers until the solver wins one; `None` when cancelled.
fn winnable_deal(
    spec: GameSpec,
    clock: u64,
    tried: &AtomicUsize,
    cancel: &AtomicBool,
) -> Option<(GameSpec, Vec<Move>)> {
    let mut seed = spec.seed;
    loop {
        if cancel.load(Ordering::Relaxed) {
            return None;
        }
        seed = next_seed(
            seed,
            clock.wrapping_add(tried.load(Ordering::Relaxed) as u64),
        );
        let candidate = GameSpec {
            seed,
            ..spec.clone()
        };
        tried.fetch_add(1, Ordering::Relaxed);
        let Ok(game) = candidate.start() else {
            continue;
        };
        if let Verdict::Solved(line) =
            solver::solve(game.position(), Budget::time(DEAL_BUDGET), Some(cancel)).verdict
        {
            return Some((candidate, line));
        }
    }
}

fn auto_complete(table: &Table, line: Vec<Move>) -> Control {
    Control::Open {
        kind: Kind::AutoComplete,
        start: Box::new(table.clone()),
        moves: line,
        at: 0,
        playing: true,
    }
}

fn finish_jobs(
    mut commands: Commands,
    thinking: Option<ResMut<Thinking>>,
    table: Res<Table>,
    mut controls: MessageWriter<Control>,
    mut requests: MessageWriter<Request>,
    mut notices: ResMut<Notices>,
    mut search: Option<ResMut<OutlookSearch>>,
) {
    let Some(mut t) = thinking else { return };
    let Some(found) = check_ready(&mut t.task) else {
        return;
    };
    commands.remove_resource::<Thinking>();
    let cancelled = t.cancel.load(Ordering::Relaxed);
    match (found, &t.job) {
        (Found::Line(Some(line)), Job::AutoComplete) if !cancelled => {
            controls.write(auto_complete(&table, line));
        }
        (Found::Demo(start, line), _) if !cancelled => {
            controls.write(Control::Open {
                kind: Kind::Demo,
                start,
                moves: line,
                at: 0,
                playing: true,
            });
        }
        (Found::Deal(Some((spec, line))), _) => {
            let tried = t.tried.load(Ordering::Relaxed);
            notices.push(format!(
                "Deal {} is winnable (found after trying {tried} deal{})",
                spec.seed,
                if tried == 1 { "" } else { "s" }
            ));
            if let Some(s) = search.as_mut() {
                s.preset = Some((spec.seed, line));
            }
            requests.write(Request::NewGame(spec));
        }
        _ if cancelled => notices.push("Cancelled"),
        (_, Job::WinnableDeal) => notices.push("No winnable deal found"),
        (_, _) => notices.push(format!(
            "The solver found no win within {} s",
            LINE_BUDGET.as_secs()
        )),
    }
}

/// Keeps [`Outlook`] in step with the table: the line is kept while the player follows it,
/// anything else starts a new search after a moment of calm.
fn follow_table(
    mut changes: MessageReader<TableChanged>,
    table: Res<Table>,
    settings: Res<Settings>,
    watching: Res<Watching>,
    playback: Option<Res<Playback>>,
    mut outlook: ResMut<Outlook>,
    mut search: ResMut<OutlookSearch>,
    time: Res<Time>,
) {
    // In the browser the task pool runs on the page's only thread, where a five-second search
    // would freeze the game: the check waits for a worker there (the browser issue).
    let enabled = settings.game.still_winnable && !watching.0 && cfg!(not(target_arch = "wasm32"));
    let cancel = |s: &mut OutlookSearch| {
        if let Some((_, c)) = s.task.take() {
            c.store(true, Ordering::Relaxed);
        }
    };
    if !enabled {
        cancel(&mut search);
        search.start_in = Some(0.0);
        outlook.set_if_neq(Outlook::Off);
        changes.clear();
        return;
    }
    for change in changes.read() {
        let kept = match &change.cause {
            // Following the known line (auto-complete does) keeps the rest of it.
            Cause::Move(mv) => match &mut *outlook {
                Outlook::Winnable(line) if line.first() == Some(mv) => {
                    line.remove(0);
                    true
                }
                _ => false,
            },
            Cause::NewGame => match search.preset.take() {
                Some((seed, line)) if seed == table.spec.seed && table.game.move_count() == 0 => {
                    *outlook = Outlook::Winnable(line);
                    true
                }
                _ => false,
            },
            _ => false,
        };
        // A search still running is about a position that is gone.
        cancel(&mut search);
        search.start_in = if kept { None } else { Some(OUTLOOK_DELAY) };
    }
    if table.game.is_won() {
        cancel(&mut search);
        search.start_in = None;
        outlook.set_if_neq(Outlook::Winnable(Vec::new()));
        return;
    }
    // Auto-complete plays a known line: nothing to search meanwhile.
    if playback.is_some() {
        return;
    }
    if let Some(left) = search.start_in.as_mut() {
        *left -= time.delta_secs();
        if *left <= 0.0 {
            search.start_in = None;
            let game = table.game.clone();
            search.task = Some(spawn(move |c| {
                solver::winnable(&game, Budget::time(OUTLOOK_BUDGET), Some(c))
            }));
            outlook.set_if_neq(Outlook::Checking);
        } else if search.task.is_none() {
            outlook.set_if_neq(Outlook::Checking);
        }
    }
    if let Some((task, cancel)) = search.task.as_mut()
        && let Some(verdict) = check_ready(task)
    {
        let stale = cancel.load(Ordering::Relaxed);
        search.task = None;
        if !stale {
            *outlook = match verdict {
                Verdict::Solved(line) => Outlook::Winnable(line),
                Verdict::Unwinnable => Outlook::Lost,
                Verdict::Unknown => Outlook::Unknown,
            };
        }
    }
}

/// A new deal of the table's variant: with "winnable deals only", one the solver has won.
pub fn new_deal(
    table: &Table,
    settings: &Settings,
    asks: &mut MessageWriter<Ask>,
    requests: &mut MessageWriter<Request>,
) {
    if settings.game.winnable_only {
        let mut spec = table.spec.clone();
        spec.options = settings.game.options_for(&spec.variant);
        asks.write(Ask::WinnableDeal(spec));
    } else {
        requests.write(Request::NewDeal);
    }
}
