//! The solver's clock, and the points where a long search may let its thread go for a moment.
//!
//! Natively the clock is `std`'s. In the browser `std`'s `Instant` panics, so the game's build
//! reads the page's `performance.now()` through `web-time`. The Web Worker's module (feature
//! `worker`, built by `web/solver` without any JavaScript glue) asks its own worker script
//! instead, through two plain imports of the module `arachne`:
//! - `now() -> f64`: milliseconds of work so far. The script leaves out the time it spent
//!   paused, so a time budget counts the search's own work, as on the desktop.
//! - `pause()`: called at every [`checkpoint`]. The script returns at once, or suspends the
//!   search for a few milliseconds (JavaScript Promise Integration) when the page's frames
//!   are suffering from the two sharing a core, and lets the worker read the page's messages.
//!
//! A pause changes when the search runs, never what it does: for the same position and node
//! budget its answer is the same everywhere.

#[cfg(not(target_arch = "wasm32"))]
pub use std::time::Instant;
#[cfg(all(target_arch = "wasm32", not(feature = "worker")))]
pub use web_time::Instant;
#[cfg(all(target_arch = "wasm32", feature = "worker"))]
pub use worker::Instant;

/// A point where a search may pause (the solver calls it every thousand positions or so). A
/// no-op but in the browser worker's module.
#[inline]
pub fn checkpoint() {
    #[cfg(all(target_arch = "wasm32", feature = "worker"))]
    // SAFETY: a plain import without arguments; the worker script provides it.
    unsafe {
        worker::pause()
    }
}

#[cfg(all(target_arch = "wasm32", feature = "worker"))]
mod worker {
    use std::ops::Add;
    use std::time::Duration;

    #[link(wasm_import_module = "arachne")]
    unsafe extern "C" {
        pub fn pause();
        fn now() -> f64;
    }

    /// A moment of the worker's working time, in milliseconds.
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
