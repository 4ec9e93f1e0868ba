//! The browser build's thinking, on its own: the engine as a small wasm module that
//! `web/solver-worker.js` runs in a Web Worker, so neither a Spider search nor a Pro Spider 10
//! computer seat's look-ahead runs on the page's thread. The game posts a request and gets the
//! answer text back: a search of a Spider position ([`arachne_engine::remote`], which is
//! `solver::solve` itself), or a computer seat's decision
//! ([`arachne_engine::phase10::remote`], the seat's own player). Either is the answer the
//! desktop gives for the same request.
//!
//! The module has no JavaScript glue. The worker script instantiates it itself, so it can hand
//! the engine its clock and pauses (the imports `arachne.now`, `arachne.due` and
//! `arachne.pause`, see the engine's `clock`) and call [`arachne_answer`] as a function that may
//! suspend. Its exports:
//! - `memory`;
//! - [`arachne_alloc`]`(len) -> ptr`: room for a request of `len` bytes of UTF-8;
//! - [`arachne_answer`]`(ptr, len) -> ptr`: answers that request (and frees it); the answer is
//!   a little-endian `u32` byte count followed by the UTF-8 text, valid until the next call.
use std::cell::RefCell;

use arachne_engine::Variants;
use arachne_engine::phase10::remote::{self as p10, Players};

thread_local! {
    static VARIANTS: Variants = Variants::default();
    /// The computer seats of the table last asked about (they keep their state between
    /// decisions, as at home).
    static PLAYERS: RefCell<Players> = RefCell::default();
    /// The latest answer, length first, kept for the script to read.
    static ANSWER: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// Answers `request` (`error: ...` when it cannot be read; never panics on a request).
pub fn answer(request: &str) -> String {
    if request.starts_with(p10::HEADER) {
        PLAYERS.with_borrow_mut(|players| players.answer(request))
    } else {
        VARIANTS.with(|variants| arachne_engine::remote::answer(request, variants))
    }
}

/// Room for a request of `len` bytes, for the script to fill and pass to [`arachne_answer`].
#[unsafe(no_mangle)]
pub extern "C" fn arachne_alloc(len: usize) -> *mut u8 {
    Box::into_raw(vec![0u8; len].into_boxed_slice()).cast()
}

/// Answers the request of `len` bytes at `ptr` (made by [`arachne_alloc`], freed here). The
/// answer: its length as a little-endian `u32`, then its UTF-8 bytes, until the next call.
///
/// # Safety
/// `ptr` and `len` must be those of one [`arachne_alloc`] call, not passed here before.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn arachne_answer(ptr: *mut u8, len: usize) -> *const u8 {
    // SAFETY: the caller passes back a box made by `arachne_alloc` with this length, once.
    let bytes = unsafe { Box::from_raw(std::ptr::slice_from_raw_parts_mut(ptr, len)) };
    let text = match std::str::from_utf8(&bytes) {
        Ok(request) => answer(request),
        Err(_) => "error: the request is not UTF-8".to_string(),
    };
    drop(bytes);
    ANSWER.with_borrow_mut(|out| {
        out.clear();
        out.extend_from_slice(&(text.len() as u32).to_le_bytes());
        out.extend_from_slice(text.as_bytes());
        out.as_ptr()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use arachne_engine::{Budget, Numbering, deal, remote, solve};

    /// Calls the module's exports as the worker script does.
    fn through_exports(request: &str) -> String {
        let ptr = arachne_alloc(request.len());
        // SAFETY: `ptr` has room for `request.len()` bytes.
        unsafe { std::ptr::copy_nonoverlapping(request.as_ptr(), ptr, request.len()) };
        // SAFETY: `ptr` and its length come from `arachne_alloc`, passed once.
        let out = unsafe { arachne_answer(ptr, request.len()) };
        // SAFETY: the answer is its length, then that many bytes, until the next call.
        let bytes = unsafe {
            let len = u32::from_le_bytes(*out.cast::<[u8; 4]>()) as usize;
            std::slice::from_raw_parts(out.add(4), len)
        };
        String::from_utf8(bytes.to_vec()).unwrap()
    }

    #[test]
    fn the_worker_answers_as_the_solver_does() {
        let variants = Variants::default();
        let v = variants.get("spider-2suit").unwrap();
        let pos = deal(v, 42, Numbering::Arachne, v.discard).unwrap();
        let budget = Budget::nodes(40_000);
        let direct = solve(&pos, budget, None);
        let back = remote::read_answer(&through_exports(&remote::request(&pos, budget))).unwrap();
        assert_eq!((back.verdict, back.nodes), (direct.verdict, direct.nodes));
        assert!(through_exports("nonsense").starts_with("error: "));
        assert_eq!(
            through_exports("\u{e9}t\u{e9}"),
            answer("\u{e9}t\u{e9}"),
            "text that is not ASCII passes through whole"
        );
    }
}
