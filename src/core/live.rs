//! Live files: on the desktop the game watches `assets/settings.ron` and `assets/themes/*.ron`,
//! so that someone tuning them in a text editor sees each saved change on the table within a
//! second. A file with an error keeps the last good values; the error (file, line, field) is
//! shown in the overlay ([`FileProblems`]) until the file is fixed.
//!
//! A small poll of the files' modification times (four times a second, a handful of `stat`s)
//! rather than Bevy's asset watcher: the settings and themes are not Bevy assets (the browser
//! build embeds them), and polling needs no extra dependency or platform backend.
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use bevy::prelude::*;

use crate::core::persist::SaveSettings;
use crate::core::settings::Settings;
use crate::core::theme::{Theme, ThemeOrigin, Themes};

/// How often the files are looked at, in seconds of wall time.
pub const POLL_SECS: f32 = 0.25;

/// Errors in watched files, by file; each stays until its file is fixed or removed.
#[derive(Resource, Debug, Default, Clone, PartialEq)]
#[component(clone_behavior = Ignore)]
pub struct FileProblems(pub BTreeMap<String, String>);

/// The watched assets directory and what was last seen of each file.
#[derive(Resource, Debug)]
pub struct LiveFiles {
    root: PathBuf,
    /// The settings file as last read: an edit applies what it changed, no more.
    settings_file: Option<Settings>,
    seen: HashMap<PathBuf, Stamp>,
    since: f32,
}

/// What tells a file changed: its modification time and length.
type Stamp = (Option<SystemTime>, u64);

fn stamp(path: &Path) -> Option<Stamp> {
    let m = std::fs::metadata(path).ok()?;
    m.is_file().then(|| (m.modified().ok(), m.len()))
}

impl LiveFiles {
    /// Watches `root` (an assets directory: `settings.ron`, `themes/`). The settings file as it
    /// is now is taken as seen (the player's saved settings stand at start; an edit of the file
    /// then applies); the theme files are read at the first look.
    pub fn new(root: impl Into<PathBuf>) -> LiveFiles {
        let root = root.into();
        let mut seen = HashMap::new();
        let settings = root.join("settings.ron");
        if let Some(s) = stamp(&settings) {
            seen.insert(settings.clone(), s);
        }
        let settings_file = std::fs::read_to_string(&settings)
            .ok()
            .and_then(|text| Settings::from_ron(&text, "").ok());
        LiveFiles {
            root,
            settings_file,
            seen,
            since: POLL_SECS,
        }
    }

    /// The assets directory to watch: `$ARACHNE_ASSETS`, else the `assets` directory of the
    /// source tree the game runs from (`cargo run` sets `CARGO_MANIFEST_DIR`), else one beside
    /// the executable or above it (`target/debug/..`), else `./assets`. `None` when none
    /// exists (an installed game has nothing to watch).
    pub fn find_root() -> Option<PathBuf> {
        let is_assets = |p: &Path| p.join("settings.ron").is_file() || p.join("themes").is_dir();
        if let Some(p) = std::env::var_os("ARACHNE_ASSETS") {
            return Some(PathBuf::from(p)).filter(|p| p.is_dir());
        }
        let mut candidates = Vec::new();
        if let Some(dir) = std::env::var_os("CARGO_MANIFEST_DIR") {
            candidates.push(PathBuf::from(dir).join("assets"));
        }
        if let Ok(exe) = std::env::current_exe() {
            candidates.extend(exe.ancestors().skip(1).take(4).map(|d| d.join("assets")));
        }
        candidates.push(PathBuf::from("assets"));
        candidates.into_iter().find(|p| is_assets(p))
    }

    /// Makes the next frame look at the files (without waiting for the poll's interval).
    pub fn look_now(&mut self) {
        self.since = POLL_SECS;
    }

    /// The watched directory.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Looks at every file now and applies what changed.
    pub fn check(
        &mut self,
        settings: &mut Settings,
        save: &mut SaveSettings,
        themes: &mut Themes,
        problems: &mut FileProblems,
    ) {
        let settings_path = self.root.join("settings.ron");
        let mut files = vec![settings_path.clone()];
        if let Ok(dir) = std::fs::read_dir(self.root.join("themes")) {
            let mut found: Vec<PathBuf> = dir
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "ron"))
                .collect();
            found.sort_unstable();
            files.extend(found);
        }
        // A file removed takes its error with it.
        self.seen.retain(|p, _| files.contains(p));
        problems
            .0
            .retain(|name, _| files.iter().any(|p| p.display().to_string() == *name));
        for path in files {
            let Some(now) = stamp(&path) else { continue };
            if self.seen.get(&path) == Some(&now) {
                continue;
            }
            self.seen.insert(path.clone(), now);
            let name = path.display().to_string();
            let result = match std::fs::read(&path) {
                Err(e) => Err(format!("{name}: {e}")),
                Ok(bytes) => {
                    let text = String::from_utf8_lossy(&bytes);
                    if path == settings_path {
                        apply_settings(&text, &name, settings, save, &mut self.settings_file)
                    } else {
                        apply_theme(&path, &text, &name, themes)
                    }
                }
            };
            match result {
                Ok(()) => {
                    if problems.0.remove(&name).is_some() {
                        tracing::info!("{name}: fixed");
                    }
                }
                Err(e) => {
                    tracing::warn!("{e}");
                    problems.0.insert(name, e);
                }
            }
        }
    }
}

/// What the edit of the settings file changed becomes the game's (and the player's saved
/// settings, as if set in the settings window); the player's other choices (a theme chosen in
/// the game, the volume, a value set in the tuner) stand. A file not read before gives all its
/// values, but the language and which game is on the table.
fn apply_settings(
    text: &str,
    name: &str,
    settings: &mut Settings,
    save: &mut SaveSettings,
    last: &mut Option<Settings>,
) -> Result<(), String> {
    let file = Settings::from_ron(text, name)?;
    let mut new = settings.clone();
    match last.replace(file.clone()) {
        Some(old) => {
            // Field by field where tuners work (the motion), else section by section.
            macro_rules! take {
                ($($path:ident).+) => {
                    if old.$($path).+ != file.$($path).+ {
                        new.$($path).+ = file.$($path).+.clone();
                    }
                };
            }
            take!(theme);
            take!(cards);
            take!(game);
            take!(layout);
            take!(sound);
            take!(language);
            take!(phase10.computer_pause_ms);
            take!(phase10.sort_by_colour);
            take!(animation.instant);
            take!(animation.deal_motion);
            take!(animation.flip_motion);
            take!(animation.speed);
            take!(animation.easing);
            take!(animation.easings);
            take!(animation.move_ms);
            take!(animation.move_stagger_ms);
            take!(animation.flip_ms);
            take!(animation.deal_ms);
            take!(animation.deal_stagger_ms);
            take!(animation.initial_deal_stagger_ms);
            take!(animation.sweep_ms);
            take!(animation.sweep_stagger_ms);
            take!(animation.slide_back_ms);
            take!(animation.celebration);
            take!(animation.celebration_ms);
        }
        None => {
            new = Settings {
                language: file.language.or(settings.language),
                ..file
            };
            new.phase10.on_table = settings.phase10.on_table;
        }
    }
    if new != *settings {
        *settings = new;
        save.soon();
    }
    Ok(())
}

/// A theme file (new or changed) goes into the list under its file's stem.
fn apply_theme(path: &Path, text: &str, name: &str, themes: &mut Themes) -> Result<(), String> {
    let id = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let theme = Theme::from_ron(&id, text, name)?;
    if themes.put(theme, ThemeOrigin::File(name.to_string())) {
        tracing::info!("{name}: theme `{id}` updated");
    }
    Ok(())
}

/// Watches the files (when a [`LiveFiles`] resource is present).
pub fn plugin(app: &mut App) {
    app.init_resource::<FileProblems>()
        .add_systems(Update, poll.before(crate::AppSystems::Input));
}

fn poll(
    time: Res<Time<Real>>,
    live: Option<ResMut<LiveFiles>>,
    mut settings: ResMut<Settings>,
    mut save: ResMut<SaveSettings>,
    mut themes: ResMut<Themes>,
    mut problems: ResMut<FileProblems>,
) {
    let Some(mut live) = live else { return };
    live.since += time.delta_secs();
    if live.since < POLL_SECS {
        return;
    }
    live.since = 0.0;
    // Through plain references: a resource is marked changed only when a value really changes.
    let (mut s, mut t, mut p) = (settings.clone(), themes.clone(), problems.clone());
    live.check(&mut s, &mut save, &mut t, &mut p);
    settings.set_if_neq(s);
    themes.set_if_neq(t);
    problems.set_if_neq(p);
}
