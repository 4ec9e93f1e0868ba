//! State every game reads: settings, themes (with the player's card choices), persistence,
//! who has the player's attention, notices, the overlay's languages, the browser's log lines
//! and its Web Workers.
pub mod focus;
pub mod i18n;
pub mod keys;
pub mod lines;
pub mod live;
#[cfg(any(target_arch = "wasm32", test))]
pub mod pace;
pub mod persist;
pub mod settings;
pub mod theme;
#[cfg(target_arch = "wasm32")]
pub mod worker;
