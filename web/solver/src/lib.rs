//! The browser build's thinking, on its own: the engine as a small wasm module that
//! `web/solver-worker.js` runs in a Web Worker, so neither a Spider search nor a Pro Spider 10
//! computer seat's look-ahead runs on the page's thread. The game posts a request and gets the
//! answer text back: a search of a Spider position ([`arachne_engine::remote`], which is
//! `solver::solve` itself), or a computer seat's decision
//! ([`arachne_engine::phase10::remote`], the seat's own player). Either is the answer the
//! desktop gives for the same request.
use std::cell::RefCell;

use arachne_engine::Variants;
use arachne_engine::phase10::remote::{self as p10, Players};
use wasm_bindgen::prelude::wasm_bindgen;

/// Answers `request` (`error: ...` when it cannot be read; never panics on a request).
#[wasm_bindgen]
pub fn answer(request: &str) -> String {
    thread_local! {
        static VARIANTS: Variants = Variants::default();
        /// The computer seats of the table last asked about (they keep their state between
        /// decisions, as at home).
        static PLAYERS: RefCell<Players> = RefCell::default();
    }
    if request.starts_with(p10::HEADER) {
        PLAYERS.with_borrow_mut(|players| players.answer(request))
    } else {
        VARIANTS.with(|variants| arachne_engine::remote::answer(request, variants))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use arachne_engine::{Budget, Numbering, deal, remote, solve};

    #[test]
    fn the_worker_answers_as_the_solver_does() {
        let variants = Variants::default();
        let v = variants.get("spider-2suit").unwrap();
        let pos = deal(v, 42, Numbering::Arachne, v.discard).unwrap();
        let budget = Budget::nodes(40_000);
        let direct = solve(&pos, budget, None);
        let back = remote::read_answer(&answer(&remote::request(&pos, budget))).unwrap();
        assert_eq!((back.verdict, back.nodes), (direct.verdict, direct.nodes));
        assert!(answer("nonsense").starts_with("error: "));
    }
}
