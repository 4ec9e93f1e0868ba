//! The hint: the next move of the background search's winning line when it has one, else a
//! short search of its own off the main thread. The table changing cancels it.
use std::time::Duration;

use arachne_engine::Move;
use arachne_engine::solver::{self, Budget};
use bevy::prelude::*;

use crate::AppSystems;
use crate::audio::cues::{PlaySfx, Sfx};
use crate::core::focus::Notices;
use crate::core::i18n::{t, tf};
use crate::spider::SpiderSystems;
use crate::spider::assist::{Outlook, OutlookSearch};
use crate::spider::highlights::Highlights;
use crate::spider::search::Search;
use crate::spider::table::{Table, TableChanged, Watching};

pub(crate) fn plugin(app: &mut App) {
    app.add_message::<AskHint>().add_systems(
        Update,
        // After the frame's moves are applied and the outlook has followed them, so a hint
        // asked with a move (H in the frame of a click) is for the position after it: the
        // move's message first cancels a search for the position before, then the hint asked
        // starts.
        ((poll_hint, start_hint)
            .chain()
            .in_set(AppSystems::Plan)
            .after(crate::spider::assist::AssistSystems)
            .after(crate::spider::highlights::HighlightSystems)
            .in_set(HintSystems))
        .in_set(SpiderSystems),
    );
}

/// The hint's systems (the table's input, which asks for hints, runs before them; so do the
/// moves it asks for).
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct HintSystems;

/// Asks the solver for a hint (the H key, the bar's button).
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct AskHint;

/// Time a hint's own search may take.
pub const HINT_BUDGET: Duration = Duration::from_millis(1500);

/// The hint search under way.
#[derive(Resource)]
pub struct HintTask(Search);

impl HintTask {
    /// Stops the search; its answer is dropped.
    pub fn cancel(&mut self) {
        self.0.cancel();
    }
}

/// Shows a hint on the table; the moves a marker alone does not explain get a word too.
fn show_hint(highlights: &mut Highlights, notices: &mut crate::core::focus::Notices, mv: Move) {
    highlights.hint = Some((mv, 2.5));
    match mv {
        Move::Discard { column } => {
            notices.push(tf("spider.hint.discard", &[("column", &(column + 1))]));
        }
        Move::Deal => notices.push(t("spider.hint.deal")),
        Move::Transfer { .. } => {}
    }
}

fn start_hint(
    mut commands: Commands,
    mut asks: MessageReader<AskHint>,
    table: Res<Table>,
    watching: Res<Watching>,
    mut highlights: ResMut<Highlights>,
    hint: Option<Res<HintTask>>,
    outlook: Res<Outlook>,
    mut search: ResMut<OutlookSearch>,
    mut notices: ResMut<Notices>,
) {
    if asks.read().count() == 0 || hint.is_some() || watching.0 || table.game.is_won() {
        return;
    }
    // The background search already knows a winning line: its next move is the hint.
    if let Outlook::Winnable(line) = &*outlook
        && let Some(&mv) = line.first()
    {
        show_hint(&mut highlights, &mut notices, mv);
        return;
    }
    search.yield_to_player();
    commands.insert_resource(HintTask(Search::start(
        table.game.position(),
        Budget::time(HINT_BUDGET),
    )));
    highlights.thinking = true;
}

fn poll_hint(
    mut commands: Commands,
    task: Option<ResMut<HintTask>>,
    table: Res<Table>,
    mut highlights: ResMut<Highlights>,
    mut changed: MessageReader<TableChanged>,
    mut sfx: MessageWriter<PlaySfx>,
    mut notices: ResMut<Notices>,
) {
    // Read, not peeked at, and read with no hint asked too: an unread message would still be
    // there next frame and cancel a hint asked for after it.
    let moved_on = changed.read().count() > 0;
    let Some(mut task) = task else { return };
    if moved_on {
        // The table moved on: this hint is for a position that is gone.
        task.cancel();
    }
    if let Some(report) = task.0.poll() {
        commands.remove_resource::<HintTask>();
        highlights.thinking = false;
        if task.0.is_cancelled() {
            return;
        }
        let result = solver::hint_from(&report.verdict, table.game.position());
        match result {
            Some(mv) => {
                show_hint(&mut highlights, &mut notices, mv);
                // Not a winning line's move: the search could not run (in the browser, its
                // worker failed), found none in its time, or there is none.
                if let Some(why) = task.0.failure() {
                    notices.push(tf("spider.solver.failed", &[("why", &why)]));
                } else if !matches!(report.verdict, solver::Verdict::Solved(_)) {
                    notices.push(t("spider.hint.guess"));
                }
            }
            None => {
                sfx.write(PlaySfx::plain(Sfx::Invalid));
            }
        }
    }
}
