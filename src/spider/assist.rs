//! The solver at the table, always off the frame's thread: "still winnable?", auto-complete,
//! the demo, and winnable-only new deals. Each search is a [`Search`] (a task on the desktop,
//! a Web Worker in the browser), and a frame never waits for one.
use std::time::Duration;

use arachne_engine::Move;
use arachne_engine::solver::{Budget, Verdict};
use bevy::prelude::*;

use crate::AppSystems;
use crate::core::focus::Notices;
use crate::core::i18n::{fill, t, tf};
use crate::core::settings::Settings;
use crate::spider::SpiderSystems;
use crate::spider::playback::{Control, Kind, Playback, watch_from_start};
use crate::spider::search::Search;
use crate::spider::table::{Cause, GameSpec, Request, Table, TableChanged, Watching, next_seed};

pub(super) fn plugin(app: &mut App) {
    app.add_message::<Ask>()
        .init_resource::<Outlook>()
        .init_resource::<FoundDeal>()
        .insert_resource(OutlookSearch {
            task: None,
            start_in: Some(0.0),
            preset: None,
        })
        .add_systems(
            Update,
            (
                // After the menu's keys, so Esc cancels a search in the frame it is pressed.
                // Before the viewer's controls, so a line the outlook knows already plays in
                // the frame auto-complete is asked.
                start_jobs
                    .before(AppSystems::Input)
                    .before(crate::spider::playback::PlaybackSystems)
                    .after(crate::spider::menu::window_keys),
                (follow_table, finish_jobs)
                    .chain()
                    .in_set(AppSystems::Plan)
                    .in_set(AssistSystems),
                deal_when_back
                    .run_if(crate::core::persist::plays_on)
                    .after(crate::spider::playback::PlaybackSystems)
                    .before(AppSystems::Input),
            )
                .in_set(SpiderSystems),
        );
}

/// The systems that keep the outlook in step with the table and finish the searches the
/// player waits for (the hint reads the outlook after them).
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct AssistSystems;

/// Time the background "still winnable?" search may take.
pub const OUTLOOK_BUDGET: Duration = Duration::from_secs(5);
/// Time auto-complete and the demo search for a line before giving up.
pub const LINE_BUDGET: Duration = Duration::from_secs(10);
/// Time spent on each candidate deal for "winnable deals only".
pub const DEAL_BUDGET: Duration = Duration::from_secs(2);
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
#[component(clone_behavior = Ignore)]
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
    /// The search could not run (in the browser: its worker failed); why.
    Failed(String),
}

/// A search the player is waiting for (the bar shows it and offers Cancel).
#[derive(Resource)]
pub struct Thinking {
    /// What for.
    pub job: Job,
    /// Deals tried so far (winnable deals only), the one being searched included.
    pub tried: usize,
    /// The search of the position `pending` is about.
    search: Search,
    pending: Pending,
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

/// What a [`Thinking`] search's answer is for.
enum Pending {
    /// A line from the table's position (cancelled when the table changes).
    AutoComplete,
    /// A line for this deal from its start.
    Demo(Box<Table>),
    /// A new deal that the solver wins: the candidate searched now, and what draws the next.
    Deal { candidate: GameSpec, clock: u64 },
}

/// The running outlook search, and when the next one may start.
#[derive(Resource)]
pub struct OutlookSearch {
    task: Option<Search>,
    start_in: Option<f32>,
    /// A line known for the next new game (from a winnable-deal search): the deal it wins, and
    /// the line.
    preset: Option<(GameSpec, Vec<Move>)>,
}

impl OutlookSearch {
    /// Stops a running outlook search so a search the player waits for (a hint, auto-complete,
    /// the demo) gets the solver first; it starts again a moment later.
    pub fn yield_to_player(&mut self) {
        if self.task.take().is_some() {
            self.start_in = Some(OUTLOOK_DELAY);
        }
    }

    /// Whether an outlook search is running (for the browser test's hook).
    pub fn is_running(&self) -> bool {
        self.task.is_some()
    }
}

/// The next candidate for "winnable deals only" after `spec`: a fresh deal number, mixed with
/// the clock and the count tried so it differs from game to game.
fn next_candidate(spec: &GameSpec, clock: u64, tried: usize) -> GameSpec {
    GameSpec {
        seed: next_seed(spec.seed, clock.wrapping_add(tried as u64)),
        ..spec.clone()
    }
}

/// Starts the search of the next candidate deal that can be dealt, counting each tried;
/// `None` when none of many can (a variant that cannot deal: the frame must not spin on it).
fn search_next_deal(
    mut candidate: GameSpec,
    clock: u64,
    tried: &mut usize,
) -> Option<(Search, GameSpec)> {
    for _ in 0..100 {
        candidate = next_candidate(&candidate, clock, *tried);
        *tried += 1;
        if let Ok(game) = candidate.start() {
            return Some((
                Search::start(game.position(), Budget::time(DEAL_BUDGET)),
                candidate,
            ));
        }
    }
    None
}

fn start_jobs(
    mut commands: Commands,
    mut asks: MessageReader<Ask>,
    table: Res<Table>,
    outlook: Res<Outlook>,
    thinking: Option<ResMut<Thinking>>,
    mut controls: MessageWriter<Control>,
    mut notices: ResMut<Notices>,
    mut search: ResMut<OutlookSearch>,
    time: Res<Time<Real>>,
) {
    // The search running, or started by an earlier ask this frame (so a Cancel right behind it
    // reaches it).
    let mut running = thinking.map(ResMut::into_inner);
    let mut started: Option<Thinking> = None;
    for ask in asks.read() {
        let current = started.as_mut().or(running.as_deref_mut());
        if *ask == Ask::Cancel {
            if let Some(t) = current {
                t.search.cancel();
            }
            continue;
        }
        if current.is_some() {
            notices.push(t("spider.solver.busy"));
            continue;
        }
        let mut tried = 0;
        search.yield_to_player();
        let (job, search, pending) = match ask {
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
                    notices.push(t(if table.game.can_undo() {
                        "spider.solver.lost"
                    } else {
                        "spider.solver.lost_no_undo"
                    }));
                    continue;
                }
                (
                    Job::AutoComplete,
                    Search::start(table.game.position(), Budget::time(LINE_BUDGET)),
                    Pending::AutoComplete,
                )
            }
            Ask::Demo => {
                // The deal as it is now: the player may start another while the solver thinks.
                let start = watch_from_start(&table);
                (
                    Job::Demo,
                    Search::start(start.game.position(), Budget::time(LINE_BUDGET)),
                    Pending::Demo(Box::new(start)),
                )
            }
            Ask::WinnableDeal(spec) => {
                let clock = time.elapsed().as_nanos() as u64;
                let Some((search, candidate)) = search_next_deal(spec.clone(), clock, &mut tried)
                else {
                    notices.push(t("spider.solver.no_deal"));
                    continue;
                };
                (
                    Job::WinnableDeal,
                    search,
                    Pending::Deal { candidate, clock },
                )
            }
            Ask::Cancel => unreachable!(),
        };
        started = Some(Thinking {
            job,
            tried,
            search,
            pending,
        });
    }
    if let Some(t) = started {
        commands.insert_resource(t);
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
    mut found: ResMut<FoundDeal>,
    mut changed: MessageReader<TableChanged>,
    mut controls: MessageWriter<Control>,
    mut notices: ResMut<Notices>,
) {
    let table_changed = changed.read().count() > 0;
    let Some(thinking) = thinking else { return };
    let job = thinking.into_inner();
    // Auto-complete's line is for the position it was asked from.
    if table_changed && matches!(job.pending, Pending::AutoComplete) {
        job.search.cancel();
    }
    let Some(report) = job.search.poll() else {
        return;
    };
    let cancelled = job.search.is_cancelled();
    let failure = job.search.failure().map(str::to_string);
    // A candidate deal the solver did not win: on to the next one.
    if let Pending::Deal { candidate, clock } = &mut job.pending
        && !cancelled
        && failure.is_none()
        && !matches!(report.verdict, Verdict::Solved(_))
        && let Some((search, next)) = search_next_deal(candidate.clone(), *clock, &mut job.tried)
    {
        job.search = search;
        *candidate = next;
        return;
    }
    commands.remove_resource::<Thinking>();
    let (kind, tried) = (job.job.clone(), job.tried);
    let pending = std::mem::replace(&mut job.pending, Pending::AutoComplete);
    let line = match report.verdict {
        Verdict::Solved(line) if !cancelled => Some(line),
        _ => None,
    };
    match (line, pending) {
        (Some(line), Pending::AutoComplete) => {
            controls.write(auto_complete(&table, line));
        }
        (Some(line), Pending::Demo(start)) => {
            controls.write(Control::Open {
                kind: Kind::Demo,
                start,
                moves: line,
                at: 0,
                playing: true,
            });
        }
        (
            Some(line),
            Pending::Deal {
                candidate: spec, ..
            },
        ) => {
            let key = if tried == 1 {
                "spider.solver.deal_found_one"
            } else {
                "spider.solver.deal_found"
            };
            notices.push(fill(t(key), &[("seed", &spec.seed), ("tried", &tried)]));
            *found = FoundDeal {
                deal: Some((spec, line)),
                told: false,
            };
        }
        _ if cancelled => notices.push(t("spider.solver.cancelled")),
        _ if failure.is_some() => notices.push(tf(
            "spider.solver.failed",
            &[("why", &failure.unwrap_or_default())],
        )),
        _ if kind == Job::WinnableDeal => notices.push(t("spider.solver.no_deal")),
        _ => notices.push(tf(
            "spider.solver.no_win",
            &[("secs", &LINE_BUDGET.as_secs())],
        )),
    }
}

/// A deal the solver won, waiting to be dealt, and whether the player was told it waits.
#[derive(Resource, Default)]
pub struct FoundDeal {
    deal: Option<(GameSpec, Vec<Move>)>,
    told: bool,
}

/// Deals a deal the solver won, its line kept for the outlook, once the player is at their own
/// game: found while a replay or the demo is watched, it waits until the viewer closes (dealt
/// then, it would replace the table under the viewer). Runs after the viewer's controls of the
/// frame and before the moves are applied, so a viewer opened in the frame the deal is found
/// sees it wait too.
pub(crate) fn deal_when_back(
    mut found: ResMut<FoundDeal>,
    watching: Res<Watching>,
    settings: Res<Settings>,
    mut requests: MessageWriter<Request>,
    mut asks: MessageWriter<Ask>,
    mut notices: ResMut<Notices>,
    mut search: ResMut<OutlookSearch>,
    thinking: Option<Res<Thinking>>,
) {
    if watching.0 {
        if found.deal.is_some() && !std::mem::replace(&mut found.told, true) {
            notices.push(t("spider.solver.deal_after_replay"));
        }
        return;
    }
    // The deal is dealt with the settings' options of now. A discard mode changed while it was
    // sought changes the moves (and with automatic discard, maybe whether it can be won): a
    // deal won with the new one is sought instead, once the solver is free (a job the player
    // started meanwhile, say auto-complete, would have it refused as busy).
    let Some((spec, _)) = &found.deal else {
        return;
    };
    let options = settings.game.options_for(&spec.variant);
    let changed = options.discard != spec.options.discard;
    if changed && thinking.is_some() {
        return;
    }
    let Some((mut spec, line)) = found.deal.take() else {
        return;
    };
    if changed {
        spec.options = options;
        notices.push(t("spider.solver.deal_again"));
        asks.write(Ask::WinnableDeal(spec));
        return;
    }
    search.preset = Some((spec.clone(), line));
    requests.write(Request::NewGame(spec));
}

/// Whether a line the solver found for `won` wins the game dealt as `dealt`: the same cards
/// and the same discard mode (the undo limit and the scoring change no move).
fn same_deal(won: &GameSpec, dealt: &GameSpec) -> bool {
    won.seed == dealt.seed
        && won.variant.id == dealt.variant.id
        && won.numbering == dealt.numbering
        && won.options.discard == dealt.options.discard
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
    (mut notices, mut told): (ResMut<crate::core::focus::Notices>, Local<Vec<String>>),
) {
    let enabled = settings.game.still_winnable && !watching.0;
    let cancel = |s: &mut OutlookSearch| {
        s.task = None;
    };
    if !enabled {
        cancel(&mut search);
        search.start_in = Some(0.0);
        outlook.set_if_neq(Outlook::Off);
        changes.clear();
        return;
    }
    // Once a change of the frame leaves the known line, a later one cannot follow it.
    let mut left_line = false;
    for change in changes.read() {
        let kept = match &change.cause {
            // Following the known line (auto-complete does) keeps the rest of it.
            Cause::Move(mv) => match &mut *outlook {
                Outlook::Winnable(line) if !left_line && line.first() == Some(mv) => {
                    line.remove(0);
                    true
                }
                _ => false,
            },
            Cause::NewGame => match search.preset.take() {
                Some((won, line))
                    if same_deal(&won, &table.spec) && table.game.move_count() == 0 =>
                {
                    *outlook = Outlook::Winnable(line);
                    true
                }
                _ => false,
            },
            _ => false,
        };
        // (A new game starts afresh.)
        left_line = if change.cause == Cause::NewGame {
            !kept
        } else {
            left_line || !kept
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
            search.task = Some(Search::start(
                table.game.position(),
                Budget::time(OUTLOOK_BUDGET),
            ));
            outlook.set_if_neq(Outlook::Checking);
        } else if search.task.is_none() {
            outlook.set_if_neq(Outlook::Checking);
        }
    }
    if let Some(report) = search.task.as_mut().and_then(Search::poll) {
        let failure = search
            .task
            .take()
            .and_then(|s| s.failure().map(str::to_string));
        *outlook = match (report.verdict, failure) {
            (Verdict::Solved(line), _) => Outlook::Winnable(line),
            (Verdict::Unwinnable, _) => Outlook::Lost,
            // Told too, once a run for each reason: the label's hint is under the pointer
            // only (the bar takes no keyboard), and a search that cannot run at all is news.
            (Verdict::Unknown, Some(why)) => {
                if !told.contains(&why) {
                    notices.push(tf("spider.outlook.failed_note", &[("why", &why)]));
                    told.push(why.clone());
                }
                Outlook::Failed(why)
            }
            (Verdict::Unknown, None) => Outlook::Unknown,
        };
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
