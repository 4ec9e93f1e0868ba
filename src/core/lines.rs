//! Log lines without Bevy's log plugin, for the browser build. The plugin filters with
//! tracing-subscriber's `EnvFilter`, which brings a regex engine and its Unicode tables (about
//! 0.2 MB of code in the wasm, and more in data); the browser build leaves the plugin out and
//! installs [`Lines`] instead. It sends INFO and above, from `tracing` and from the `log` crate
//! (wgpu logs through `log`), to a sink: the page's console. The filter is the plugin's default
//! one: wgpu shows only its errors, naga its warnings and errors.
use std::fmt::{self, Write as _};

use tracing::field::{Field, Visit};
use tracing::level_filters::LevelFilter;
use tracing::{Event, Level, Metadata, Subscriber, span};

/// Where a line goes, with its level.
pub type Sink = fn(Level, &str);

/// Whether a line at `level` from `target` (a module path) is shown.
pub fn shown(level: Level, target: &str) -> bool {
    let floor = if target.starts_with("wgpu") {
        Level::ERROR
    } else if target.starts_with("naga") {
        Level::WARN
    } else {
        Level::INFO
    };
    // tracing orders levels by verbosity: ERROR < WARN < INFO < DEBUG < TRACE.
    level <= floor
}

/// A `tracing` subscriber and `log` logger that writes each shown event as one line:
/// `LEVEL target: message key=value ...`.
#[derive(Debug, Clone, Copy)]
pub struct Lines {
    sink: Sink,
}

impl Lines {
    /// Lines that go to `sink`.
    pub const fn new(sink: Sink) -> Self {
        Lines { sink }
    }

    /// Makes these lines the process's `tracing` subscriber and `log` logger. Returns false
    /// (and changes nothing more) if either already had one.
    pub fn install(self) -> bool {
        static LOGGER: std::sync::OnceLock<Lines> = std::sync::OnceLock::new();
        let tracing_ok = tracing::subscriber::set_global_default(self).is_ok();
        let logger = LOGGER.get_or_init(|| self);
        let log_ok = log::set_logger(logger).is_ok();
        if log_ok {
            log::set_max_level(log::LevelFilter::Info);
        }
        tracing_ok && log_ok
    }
}

/// An event's message and its other fields.
#[derive(Default)]
struct Text {
    message: String,
    fields: String,
}

impl Visit for Text {
    fn record_str(&mut self, field: &Field, value: &str) {
        if field.name() == "message" {
            self.message.push_str(value);
        } else {
            let _ = write!(self.fields, " {}={value}", field.name());
        }
    }

    fn record_debug(&mut self, field: &Field, value: &dyn fmt::Debug) {
        if field.name() == "message" {
            let _ = write!(self.message, "{value:?}");
        } else {
            let _ = write!(self.fields, " {}={value:?}", field.name());
        }
    }
}

impl Subscriber for Lines {
    fn enabled(&self, metadata: &Metadata<'_>) -> bool {
        // Spans are not shown; only events are.
        metadata.is_event() && shown(*metadata.level(), metadata.target())
    }

    fn max_level_hint(&self) -> Option<LevelFilter> {
        Some(LevelFilter::INFO)
    }

    fn new_span(&self, _: &span::Attributes<'_>) -> span::Id {
        // Never called for a disabled span; an id is still required by the trait.
        span::Id::from_u64(1)
    }

    fn record(&self, _: &span::Id, _: &span::Record<'_>) {}

    fn record_follows_from(&self, _: &span::Id, _: &span::Id) {}

    fn event(&self, event: &Event<'_>) {
        let meta = event.metadata();
        let mut text = Text::default();
        event.record(&mut text);
        let line = format!(
            "{} {}: {}{}",
            meta.level(),
            meta.target(),
            text.message,
            text.fields
        );
        (self.sink)(*meta.level(), &line);
    }

    fn enter(&self, _: &span::Id) {}

    fn exit(&self, _: &span::Id) {}
}

fn level_of(level: log::Level) -> Level {
    match level {
        log::Level::Error => Level::ERROR,
        log::Level::Warn => Level::WARN,
        log::Level::Info => Level::INFO,
        log::Level::Debug => Level::DEBUG,
        log::Level::Trace => Level::TRACE,
    }
}

impl log::Log for Lines {
    fn enabled(&self, metadata: &log::Metadata<'_>) -> bool {
        shown(level_of(metadata.level()), metadata.target())
    }

    fn log(&self, record: &log::Record<'_>) {
        if log::Log::enabled(self, record.metadata()) {
            let level = level_of(record.level());
            let line = format!("{level} {}: {}", record.target(), record.args());
            (self.sink)(level, &line);
        }
    }

    fn flush(&self) {}
}

#[cfg(test)]
mod tests {
    use std::sync::Mutex;

    use super::*;

    static SEEN: Mutex<Vec<(Level, String)>> = Mutex::new(Vec::new());

    fn keep(level: Level, line: &str) {
        SEEN.lock().unwrap().push((level, line.to_string()));
    }

    #[test]
    fn levels_follow_the_default_filter() {
        assert!(shown(Level::INFO, "arachne::web"));
        assert!(shown(Level::ERROR, "arachne::web"));
        assert!(!shown(Level::DEBUG, "arachne::web"));
        assert!(!shown(Level::WARN, "wgpu_core::device"));
        assert!(shown(Level::ERROR, "wgpu_hal::gles"));
        assert!(shown(Level::WARN, "naga::front"));
        assert!(!shown(Level::INFO, "naga::valid"));
    }

    #[test]
    fn events_become_lines_with_their_fields() {
        tracing::subscriber::with_default(Lines::new(keep), || {
            tracing::info!(target: "arachne::web", "arachne: {}", "ready");
            tracing::debug!(target: "arachne::web", "not shown");
            tracing::warn!(target: "wgpu_core", "not shown either");
            tracing::error!(target: "wgpu_core", code = 7, "lost the device");
            tracing::info_span!("a span").in_scope(|| {
                tracing::warn!(target: "arachne::persist", key = "game", "could not save");
            });
        });
        let seen = std::mem::take(&mut *SEEN.lock().unwrap());
        assert_eq!(
            seen,
            vec![
                (Level::INFO, "INFO arachne::web: arachne: ready".to_string()),
                (
                    Level::ERROR,
                    "ERROR wgpu_core: lost the device code=7".to_string()
                ),
                (
                    Level::WARN,
                    "WARN arachne::persist: could not save key=game".to_string()
                ),
            ]
        );
    }

    static LOGGED: Mutex<Vec<(Level, String)>> = Mutex::new(Vec::new());

    fn keep_logged(level: Level, line: &str) {
        LOGGED.lock().unwrap().push((level, line.to_string()));
    }

    #[test]
    fn log_records_go_through_the_same_filter() {
        let lines = Lines::new(keep_logged);
        let record = |level, target| {
            log::Log::log(
                &lines,
                &log::Record::builder()
                    .level(level)
                    .target(target)
                    .args(format_args!("validation failed"))
                    .build(),
            );
        };
        record(log::Level::Warn, "wgpu_core::device");
        record(log::Level::Error, "wgpu_core::device");
        record(log::Level::Info, "winit::platform");
        record(log::Level::Debug, "winit::platform");
        let logged = std::mem::take(&mut *LOGGED.lock().unwrap());
        assert_eq!(
            logged,
            vec![
                (
                    Level::ERROR,
                    "ERROR wgpu_core::device: validation failed".to_string()
                ),
                (
                    Level::INFO,
                    "INFO winit::platform: validation failed".to_string()
                ),
            ]
        );
    }
}
