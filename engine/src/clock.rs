//! The solver's clock, and the points where a long search may let its thread go for a moment.
//!
//! Natively the clock is `std`'s. In the browser `std`'s `Instant` panics, so the game's build
//! (feature `web-clock`, on by default) reads the page's `performance.now()` through
//! `web-time`. The Web Worker's module (feature `worker`, built by `web/solver` without any
//! JavaScript glue) asks its own worker script instead, through plain imports of the module
//! `arachne`:
//! - `now() -> f64`: the search's clock in milliseconds. The script leaves out the time it
//!   spent paused, up to two thirds of the time since the request came: while the pauses take
//!   no more than that (a rest of up to twice the 5 ms slice) a time budget buys as much work
//!   as unpaused, and beyond it a third of the real time counts, so a search never takes much
//!   more than three times its budget.
//! - `due() -> i32`: 1 when the search should pause now. Cheap; asked at every [`checkpoint`].
//! - `pause()`: only when due. The script suspends the search for a few milliseconds
//!   (JavaScript Promise Integration) when the page's frames suffer from the two sharing a
//!   core, or for no time at all, to read the page's messages.
//!
//! A pause changes when the search runs, never what it does: for the same position and node
//! budget its answer is the same everywhere. (The `ms` an answer reports is the search's clock,
//! so in the worker it is work time.)

#[cfg(all(target_arch = "wasm32", feature = "worker", feature = "web-clock"))]
compile_error!(
    "arachne-engine: the features `worker` and `web-clock` exclude each other in a wasm build \
     (build the worker's module, web/solver, on its own: web/build.sh)"
);
#[cfg(all(
    target_arch = "wasm32",
    not(feature = "worker"),
    not(feature = "web-clock")
))]
compile_error!("arachne-engine: a wasm build needs the feature `web-clock` or `worker`");

#[cfg(not(target_arch = "wasm32"))]
pub use std::time::Instant;
#[cfg(all(target_arch = "wasm32", not(feature = "worker")))]
pub use web_time::Instant;
#[cfg(all(target_arch = "wasm32", feature = "worker"))]
pub use worker::Instant;

/// A point where a search may pause (the depth-first search calls it every 1024 positions, the
/// best-first one at every position it expands). A no-op but in the browser worker's module.
#[inline]
pub fn checkpoint() {
    #[cfg(all(target_arch = "wasm32", feature = "worker"))]
    // SAFETY: plain imports without arguments; the worker script provides them.
    unsafe {
        if worker::due() != 0 {
            worker::pause()
        }
    }
}

#[cfg(all(target_arch = "wasm32", feature = "worker"))]
mod worker {
    use std::ops::Add;
    use std::time::Duration;

    #[link(wasm_import_module = "arachne")]
    unsafe extern "C" {
        pub fn due() -> i32;
        pub fn pause();
        fn now() -> f64;
    }

    /// A moment of the worker's search clock, in milliseconds.
    #[derive(Clone, Copy, Debug, PartialEq, PartialOrd)]
    pub struct Instant(f64);

    impl Instant {
        pub fn now() -> Instant {
            // SAFETY: a plain import without arguments; the worker script provides it.
            Instant(unsafe { now() })
        }

        pub fn elapsed(&self) -> Duration {
            Duration::from_secs_f64((Instant::now().0 - self.0).max(0.0) / 1000.0)
        }
    }

    impl Add<Duration> for Instant {
        type Output = Instant;

        fn add(self, d: Duration) -> Instant {
            Instant(self.0 + d.as_secs_f64() * 1000.0)
        }
    }
}
