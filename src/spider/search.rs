//! One solver search off the frame, the same on every platform to its callers (hint,
//! auto-complete, the demo, winnable deals, "still winnable?").
//!
//! On the desktop a search is a task on Bevy's async compute pool with a cancel flag. In the
//! browser that pool runs on the page's only thread, so there a search is a request to a Web
//! Worker running the engine alone as a small wasm module (`web/solver`,
//! `web/solver-worker.js`): the page keeps drawing while it searches, and a cancel ends the
//! worker at once. Either way it is `solver::solve` on the same position and budget, so the
//! answers are the same (`arachne_engine::remote` carries the request and answer as text).
use arachne_engine::Position;
use arachne_engine::solver::{Budget, Report, Verdict};
use bevy::prelude::*;
#[cfg(not(target_arch = "wasm32"))]
use bevy::tasks::{AsyncComputeTaskPool, Task, futures::check_ready};
#[cfg(not(target_arch = "wasm32"))]
use std::sync::Arc;
#[cfg(not(target_arch = "wasm32"))]
use std::sync::atomic::{AtomicBool, Ordering};

#[cfg(target_arch = "wasm32")]
use crate::core::worker::{self as workers, Lane};

/// In the browser, a first small search as the game starts: the worker's module is then
/// loaded, compiled and its hot code optimized (which takes the cores the page draws with)
/// before the player asks for anything, not during the first hint.
pub(super) fn plugin(app: &mut App) {
    #[cfg(target_arch = "wasm32")]
    app.add_systems(Update, warm_up.in_set(super::SpiderSystems));
    #[cfg(not(target_arch = "wasm32"))]
    let _ = app;
}

#[cfg(target_arch = "wasm32")]
fn warm_up(
    table: Res<super::table::Table>,
    mut search: Local<Option<Search>>,
    mut done: Local<bool>,
) {
    if *done {
        return;
    }
    match search.as_mut() {
        None => *search = Some(Search::start(table.game.position(), Budget::nodes(100_000))),
        Some(s) => {
            if s.poll().is_some() {
                *done = true;
                *search = None;
            }
        }
    }
}

/// A search under way. Dropping it stops it.
pub struct Search {
    inner: Inner,
    cancelled: bool,
    /// Why the search could not run (the browser's worker failed), once it is known.
    failed: Option<String>,
}

#[cfg(not(target_arch = "wasm32"))]
struct Inner {
    task: Option<Task<Report>>,
    cancel: Arc<AtomicBool>,
}

#[cfg(target_arch = "wasm32")]
struct Inner {
    /// The request's number with the worker pool, or why no worker could take it.
    id: Result<u32, String>,
    /// The answer has been given.
    done: bool,
}

impl Search {
    /// Starts a search of `position` within `budget`.
    pub fn start(position: &Position, budget: Budget) -> Search {
        Search {
            inner: Inner::start(position, budget),
            cancelled: false,
            failed: None,
        }
    }

    /// The report once the search has ended (given once); at once after [`Search::cancel`],
    /// with the verdict `Unknown`.
    pub fn poll(&mut self) -> Option<Report> {
        if self.cancelled {
            return Some(unknown());
        }
        match self.inner.poll()? {
            Ok(report) => Some(report),
            Err(why) => {
                tracing::error!("the solver could not search: {why}");
                self.failed = Some(why);
                Some(unknown())
            }
        }
    }

    /// Why the search could not run, when it could not (its report then says `Unknown`).
    pub fn failure(&self) -> Option<&str> {
        self.failed.as_deref()
    }

    /// Stops the search; [`Search::poll`] then reports at once.
    pub fn cancel(&mut self) {
        self.cancelled = true;
        self.inner.stop();
    }

    /// Whether [`Search::cancel`] was called.
    pub fn is_cancelled(&self) -> bool {
        self.cancelled
    }
}

impl Drop for Search {
    /// A search nobody waits for any more (cancelled, replaced, or the app closing) stops
    /// instead of holding a thread or a worker until its budget runs out.
    fn drop(&mut self) {
        self.inner.stop();
    }
}

fn unknown() -> Report {
    Report {
        verdict: Verdict::Unknown,
        nodes: 0,
        elapsed: std::time::Duration::ZERO,
    }
}

#[cfg(not(target_arch = "wasm32"))]
impl Inner {
    fn start(position: &Position, budget: Budget) -> Inner {
        let cancel = Arc::new(AtomicBool::new(false));
        let flag = cancel.clone();
        let position = position.clone();
        let task = AsyncComputeTaskPool::get()
            .spawn(async move { arachne_engine::solver::solve(&position, budget, Some(&flag)) });
        Inner {
            task: Some(task),
            cancel,
        }
    }

    fn poll(&mut self) -> Option<Result<Report, String>> {
        let report = check_ready(self.task.as_mut()?)?;
        self.task = None;
        Some(Ok(report))
    }

    fn stop(&mut self) {
        self.cancel.store(true, Ordering::Relaxed);
    }
}

#[cfg(target_arch = "wasm32")]
impl Inner {
    fn start(position: &Position, budget: Budget) -> Inner {
        let request = arachne_engine::remote::request(position, budget);
        Inner {
            id: workers::post(Lane::Pool, &request),
            done: false,
        }
    }

    fn poll(&mut self) -> Option<Result<Report, String>> {
        if self.done {
            return None;
        }
        let answer = match &self.id {
            Ok(id) => workers::take(*id)?,
            Err(why) => Err(why.clone()),
        };
        self.done = true;
        Some(answer.and_then(|text| arachne_engine::remote::read_answer(&text)))
    }

    fn stop(&mut self) {
        if let (Ok(id), false) = (&self.id, self.done) {
            workers::end(*id);
            self.done = true;
        }
    }
}
