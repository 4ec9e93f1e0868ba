//! The browser's Web Workers, where the game thinks off the page's only thread: Spider's
//! solver searches and Pro Spider 10's computer seats (`web/solver`, `web/solver-worker.js`:
//! the engine alone as a small wasm module). A request is text and so is its answer (the
//! engine's `remote` modules). Each worker runs one request at a time; a finished one waits for
//! the next, a request no longer wanted ends its worker (`terminate`: the way that works in every
//! browser, as a search reads no message where JSPI is missing, and memory shared with the page
//! needs headers a plain static host cannot send). While a search is under way, the page tells
//! its worker how long to pause between slices of its work ([`frame`], `core::pace`), so that the
//! search does not starve the page's frames.
use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::rc::Rc;
use std::time::Duration;

use js_sys::wasm_bindgen::closure::Closure;
use js_sys::wasm_bindgen::{JsCast, JsValue};

use super::pace::Pacer;

/// The worker's script, beside the page.
const SCRIPT: &str = "solver-worker.js";
/// Idle workers kept for the next search (each keeps the memory its searches grew, up to the
/// solver's memory budget: a worker's memory never shrinks).
const KEEP_IDLE: usize = 1;

struct Worker {
    js: JsValue,
    /// The request it runs now.
    job: Rc<Cell<u32>>,
    /// It reported an error: it is not used again.
    broken: Rc<Cell<bool>>,
    /// Its message and error handlers, alive as long as it is.
    _handlers: [Closure<dyn FnMut(JsValue)>; 2],
}

impl Worker {
    fn new(answers: &Rc<RefCell<HashMap<u32, Answer>>>) -> Result<Worker, String> {
        let global = js_sys::global();
        let ctor: js_sys::Function = js_sys::Reflect::get(&global, &"Worker".into())
            .ok()
            .and_then(|c| c.dyn_into().ok())
            .ok_or("this browser has no Web Workers")?;
        let options = js_sys::Object::new();
        js_sys::Reflect::set(&options, &"type".into(), &"module".into())
            .map_err(|e| format!("{e:?}"))?;
        let js = js_sys::Reflect::construct(&ctor, &js_sys::Array::of2(&SCRIPT.into(), &options))
            .map_err(|e| format!("{e:?}"))?;
        let job = Rc::new(Cell::new(0));
        let to = answers.clone();
        let on_message = Closure::<dyn FnMut(JsValue)>::new(move |event: JsValue| {
            let data = js_sys::Reflect::get(&event, &"data".into()).unwrap_or_default();
            let Ok(data) = data.dyn_into::<js_sys::Array>() else {
                return;
            };
            let Some(id) = data.get(0).as_f64() else {
                return;
            };
            // [id, answer], or [id, null, why] when the worker's module failed.
            let answer = match data.get(1).as_string() {
                Some(text) => Answer::Text(text),
                None => Answer::Failed(
                    data.get(2)
                        .as_string()
                        .unwrap_or_else(|| "the worker failed".to_string()),
                ),
            };
            to.borrow_mut().insert(id as u32, answer);
        });
        let broken = Rc::new(Cell::new(false));
        let (to, running, failed) = (answers.clone(), job.clone(), broken.clone());
        let on_error = Closure::<dyn FnMut(JsValue)>::new(move |event: JsValue| {
            let message = js_sys::Reflect::get(&event, &"message".into())
                .ok()
                .and_then(|m| m.as_string())
                .unwrap_or_else(|| "the worker stopped".to_string());
            failed.set(true);
            to.borrow_mut()
                .insert(running.get(), Answer::Failed(message));
        });
        for (name, f) in [("onmessage", &on_message), ("onerror", &on_error)] {
            js_sys::Reflect::set(&js, &name.into(), f.as_ref().unchecked_ref())
                .map_err(|e| format!("{e:?}"))?;
        }
        Ok(Worker {
            js,
            job,
            broken,
            _handlers: [on_message, on_error],
        })
    }

    /// Posts `message` to the worker.
    fn send(&self, message: &JsValue) -> Result<(), String> {
        let post: js_sys::Function = js_sys::Reflect::get(&self.js, &"postMessage".into())
            .ok()
            .and_then(|f| f.dyn_into().ok())
            .ok_or("a worker without postMessage")?;
        post.call1(&self.js, message)
            .map(|_| ())
            .map_err(|e| format!("{e:?}"))
    }

    /// Hands the worker request `id`: `[id, request, rest]`, with the pause between its
    /// slices of work in ms.
    fn post(&self, id: u32, request: &str, rest_ms: u32) -> Result<(), String> {
        self.job.set(id);
        self.send(&js_sys::Array::of3(
            &JsValue::from(id),
            &request.into(),
            &JsValue::from(rest_ms),
        ))
    }

    /// Tells the worker a new pause between its slices of work (`{rest}`, in ms).
    fn pace(&self, rest_ms: u32) {
        let message = js_sys::Object::new();
        if js_sys::Reflect::set(&message, &"rest".into(), &JsValue::from(rest_ms)).is_ok() {
            // A worker that cannot take it goes on at the pace it has.
            let _ = self.send(&message);
        }
    }

    fn terminate(self) {
        // No message may reach the handlers once they are gone with `self`.
        for name in ["onmessage", "onerror"] {
            let _ = js_sys::Reflect::set(&self.js, &name.into(), &JsValue::NULL);
        }
        if let Ok(f) = js_sys::Reflect::get(&self.js, &"terminate".into())
            && let Ok(f) = f.dyn_into::<js_sys::Function>()
        {
            let _ = f.call0(&self.js);
        }
    }
}

enum Answer {
    Text(String),
    /// The worker failed (its script did not load, or its work trapped): it is not used again.
    Failed(String),
}

/// Which workers a request may go to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Lane {
    /// Any idle worker, or a new one (requests that carry everything they need).
    Pool,
    /// Always the same worker, which keeps state between requests (Pro Spider 10's computer
    /// seats keep theirs there); a new one when that one was ended.
    Own(&'static str),
}

#[derive(Default)]
struct Pool {
    idle: Vec<Worker>,
    /// The workers of the `Own` lanes that wait for their next request.
    own: HashMap<&'static str, Worker>,
    /// Each request under way: its worker and lane.
    busy: HashMap<u32, (Worker, Lane)>,
    answers: Rc<RefCell<HashMap<u32, Answer>>>,
    next: u32,
    /// The searches' pause between slices of work (`Pool` lane).
    pacer: Pacer,
    /// Whether a search was under way at the latest frame.
    searched: bool,
}

impl Pool {
    /// Tells every search under way (the `Pool` lane) to pause `rest_ms` between slices.
    fn pace_searches(&self, rest_ms: u32) {
        for (worker, lane) in self.busy.values() {
            if *lane == Lane::Pool {
                worker.pace(rest_ms);
            }
        }
    }
}

thread_local! {
    static POOL: RefCell<Pool> = RefCell::new(Pool::default());
}

/// Hands `request` to a worker of `lane`; its number for [`take`].
pub fn post(lane: Lane, request: &str) -> Result<u32, String> {
    POOL.with_borrow_mut(|pool| {
        pool.next = pool.next.wrapping_add(1);
        let id = pool.next;
        let waiting = match lane {
            Lane::Pool => pool.idle.pop(),
            Lane::Own(name) => pool.own.remove(name),
        };
        let worker = match waiting {
            Some(w) if !w.broken.get() => w,
            Some(w) => {
                w.terminate();
                Worker::new(&pool.answers)?
            }
            None => Worker::new(&pool.answers)?,
        };
        // Only searches pause (the `Pool` lane): a Pro Spider 10 seat's decision is short.
        let rest = match lane {
            Lane::Pool => {
                let rest = pool.pacer.start();
                // The searches under way go at the same pace as the new one.
                pool.pace_searches(rest);
                rest
            }
            Lane::Own(_) => 0,
        };
        if let Err(e) = worker.post(id, request, rest) {
            worker.terminate();
            return Err(e);
        }
        pool.busy.insert(id, (worker, lane));
        Ok(id)
    })
}

/// The answer to request `id`, once it has come (`Err` when its worker failed).
pub fn take(id: u32) -> Option<Result<String, String>> {
    POOL.with_borrow_mut(|pool| {
        let answer = pool.answers.borrow_mut().remove(&id)?;
        let worker = pool.busy.remove(&id);
        match answer {
            Answer::Text(text) => {
                match worker {
                    Some((w, Lane::Own(name))) => {
                        if let Some(old) = pool.own.insert(name, w) {
                            old.terminate();
                        }
                    }
                    Some((w, Lane::Pool)) if pool.idle.len() < KEEP_IDLE => pool.idle.push(w),
                    Some((w, Lane::Pool)) => w.terminate(),
                    None => {}
                }
                Some(Ok(text))
            }
            Answer::Failed(why) => {
                if let Some((w, _)) = worker {
                    w.terminate();
                }
                Some(Err(why))
            }
        }
    })
}

/// Ends request `id`'s worker: its work stops now (an `Own` lane starts afresh next time).
pub fn end(id: u32) {
    POOL.with_borrow_mut(|pool| {
        pool.answers.borrow_mut().remove(&id);
        if let Some((w, _)) = pool.busy.remove(&id) {
            w.terminate();
        }
    });
}

/// Takes in the page's latest frame, `gap` after the one before: while a search is under way, a
/// frame much slower than the page's frames without one makes the searching workers pause
/// longer between slices of their work, and frames that keep pace shorten the pause
/// (`core::pace`).
pub fn frame(gap: Duration) {
    POOL.with_borrow_mut(|pool| {
        // The gap ran from the latest frame to this one: a search under way at either end
        // makes it a search's frame. A Pro Spider 10 seat's decision (the `Own` lanes) counts
        // as neither a search nor idle.
        let now = pool.busy.values().any(|(_, lane)| *lane == Lane::Pool);
        let searching = now || pool.searched;
        pool.searched = now;
        if !searching && !pool.busy.is_empty() {
            return;
        }
        if let Some(rest) = pool.pacer.frame(gap.as_secs_f32() * 1000.0, searching) {
            pool.pace_searches(rest);
        }
    });
}

/// Requests under way now (for the browser test's hook).
pub fn running() -> usize {
    POOL.with_borrow(|pool| pool.busy.len())
}
