//! Tunables of layout, motion and sound, read from `assets/settings.ron`.
use std::time::Duration;

use bevy::curve::EaseFunction;
use bevy::prelude::*;
use serde::{Deserialize, Serialize};

/// The defaults shipped with the game (embedded, so the browser build has them too).
pub const DEFAULT_SETTINGS: &str = include_str!("../../assets/settings.ron");

/// Everything the player can tune; the settings window edits it and the game saves it. Fields
/// added after the first version have defaults, so older saved files still load.
#[derive(Resource, Clone, Debug, PartialEq, Serialize, Deserialize)]
#[component(clone_behavior = Ignore)]
#[serde(deny_unknown_fields)]
pub struct Settings {
    /// Id of the theme (file stem in `assets/themes/`).
    pub theme: String,
    /// The cards' look, over the theme's.
    #[serde(default)]
    pub cards: crate::core::theme::CardSettings,
    /// Rules options and questions.
    #[serde(default)]
    pub game: GameSettings,
    /// Durations and easing.
    pub animation: AnimationSettings,
    /// Card size and fanning.
    pub layout: LayoutSettings,
    /// Volumes.
    pub sound: SoundSettings,
    /// Pro Spider 10 at the table.
    #[serde(default)]
    pub phase10: Phase10Settings,
    /// The overlay's language; `None` follows the system's.
    #[serde(default)]
    pub language: Option<crate::core::i18n::Lang>,
}

impl Default for Settings {
    fn default() -> Settings {
        match Settings::from_ron(DEFAULT_SETTINGS, "assets/settings.ron") {
            Ok(s) => s,
            // A test parses the shipped file, so this cannot ship broken.
            Err(e) => panic!("{e}"),
        }
    }
}

impl Settings {
    /// The overlay's language: the one chosen, else the system's.
    pub fn lang(&self) -> crate::core::i18n::Lang {
        self.language
            .unwrap_or_else(crate::core::i18n::Lang::system)
    }

    /// Parses settings; the error names the file, line, column and field, also for a number
    /// out of its range ([`Settings::out_of_range`]).
    pub fn from_ron(text: &str, source: &str) -> Result<Settings, String> {
        // (A byte-order mark, as some editors write, is no part of the text.)
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let s: Settings = ron::from_str(text).map_err(|e| ron_error(source, text, &e))?;
        if let Some((field, why)) = s.out_of_range() {
            return Err(format!(
                "{}: field `{field}`: {why}",
                field_at(source, text, field)
            ));
        }
        Ok(s)
    }

    /// The first number that would make the table unusable (cards of no size, a squeeze below
    /// its own floor, a silent or deafening volume past any use, a speed that stops motion),
    /// with why; `None` when every one is in its range.
    pub fn out_of_range(&self) -> Option<(&'static str, String)> {
        let l = &self.layout;
        let a = &self.animation;
        let checks: [(&'static str, f32, f32, f32); 14] = [
            ("aspect", l.aspect, 0.5, 3.0),
            ("margin", l.margin, 0.0, 2.0),
            ("gap", l.gap, 0.0, 2.0),
            ("max_card_width", l.max_card_width, 20.0, 1000.0),
            ("face_down_fan", l.face_down_fan, 0.01, 1.0),
            ("face_up_fan", l.face_up_fan, 0.01, 1.0),
            (
                "min_face_down_fan",
                l.min_face_down_fan,
                0.005,
                l.face_down_fan,
            ),
            ("min_face_up_fan", l.min_face_up_fan, 0.005, l.face_up_fan),
            ("pile_offset", l.pile_offset, 0.0, 2.0),
            ("drag_fan", l.drag_fan, 0.0, 1.0),
            ("speed", a.speed, 0.1, 10.0),
            (
                "effects_volume_db",
                self.sound.effects_volume_db,
                -80.0,
                12.0,
            ),
            (
                "fanfare_volume_db",
                self.sound.fanfare_volume_db,
                -80.0,
                12.0,
            ),
            ("celebration_ms", a.celebration_ms as f32, 0.0, 60_000.0),
        ];
        checks.into_iter().find_map(|(field, v, low, high)| {
            (!(low..=high).contains(&v)).then(|| (field, format!("{v} is not in {low} to {high}")))
        })
    }
}

impl Settings {
    /// Puts each number [`Settings::out_of_range`] finds back to its default (saved settings,
    /// which the game wrote but a hand may have edited: a card aspect of 0, a volume of 400 dB
    /// broke the table or the sound), and says which, as `field \`name\`: why`.
    pub fn reset_out_of_range(&mut self) -> Vec<String> {
        let d = Settings::default();
        let mut told = Vec::new();
        while let Some((field, why)) = self.out_of_range() {
            told.push(format!("field `{field}`: {why}"));
            let (l, dl) = (&mut self.layout, &d.layout);
            match field {
                "aspect" => l.aspect = dl.aspect,
                "margin" => l.margin = dl.margin,
                "gap" => l.gap = dl.gap,
                "max_card_width" => l.max_card_width = dl.max_card_width,
                "face_down_fan" => l.face_down_fan = dl.face_down_fan,
                "face_up_fan" => l.face_up_fan = dl.face_up_fan,
                // (No more than the step itself, which the slider takes below the default
                // floor.)
                "min_face_down_fan" => {
                    l.min_face_down_fan = dl.min_face_down_fan.min(l.face_down_fan)
                }
                "min_face_up_fan" => l.min_face_up_fan = dl.min_face_up_fan.min(l.face_up_fan),
                "pile_offset" => l.pile_offset = dl.pile_offset,
                "drag_fan" => l.drag_fan = dl.drag_fan,
                "speed" => self.animation.speed = d.animation.speed,
                "effects_volume_db" => self.sound.effects_volume_db = d.sound.effects_volume_db,
                "fanfare_volume_db" => self.sound.fanfare_volume_db = d.sound.fanfare_volume_db,
                "celebration_ms" => self.animation.celebration_ms = d.animation.celebration_ms,
                // (A check without its own reset: all of them go back.)
                _ => {
                    *self = d;
                    break;
                }
            }
            // (A default that is itself out of range with the others: all of them go back.)
            if told.len() > 32 {
                *self = Settings::default();
                break;
            }
        }
        told
    }
}

/// Where `field` is written in a RON `text`: `source:line` (the first line that starts with
/// `field:`), or `source` alone when no line does. For errors found after parsing (a value out of
/// its range), which RON's own errors cannot place.
pub fn field_at(source: &str, text: &str, field: &str) -> String {
    match arachne_engine::variant::written_at(text, field) {
        Some(line) => format!("{source}:{line}"),
        None => source.to_string(),
    }
}

/// A RON error as `file:line:column: field `name`: message` (the field its line starts with,
/// [`arachne_engine::variant::ron_message`]), as the variant files' errors are.
pub fn ron_error(source: &str, text: &str, e: &ron::error::SpannedError) -> String {
    let (line, column) = (e.span.start.line, e.span.start.col);
    format!(
        "{source}:{line}:{column}: {}",
        arachne_engine::variant::ron_message(text, e)
    )
}

/// Easing curves offered in the settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[allow(missing_docs)]
pub enum Easing {
    Linear,
    QuadraticOut,
    QuadraticInOut,
    CubicOut,
    CubicInOut,
    QuarticOut,
    SineInOut,
    BackOut,
}

impl Easing {
    /// Every curve, in the order the overlay offers them.
    pub const ALL: [Easing; 8] = [
        Easing::Linear,
        Easing::QuadraticOut,
        Easing::QuadraticInOut,
        Easing::CubicOut,
        Easing::CubicInOut,
        Easing::QuarticOut,
        Easing::SineInOut,
        Easing::BackOut,
    ];

    /// The curve bevy_tweening uses.
    pub fn function(self) -> EaseFunction {
        match self {
            Easing::Linear => EaseFunction::Linear,
            Easing::QuadraticOut => EaseFunction::QuadraticOut,
            Easing::QuadraticInOut => EaseFunction::QuadraticInOut,
            Easing::CubicOut => EaseFunction::CubicOut,
            Easing::CubicInOut => EaseFunction::CubicInOut,
            Easing::QuarticOut => EaseFunction::QuarticOut,
            Easing::SineInOut => EaseFunction::SineInOut,
            Easing::BackOut => EaseFunction::BackOut,
        }
    }
}

/// How many undos a game allows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum UndoLimit {
    /// What the variant's file says.
    #[default]
    Variant,
    /// As many as wanted.
    Unlimited,
    /// At most this many per game.
    Limit(u32),
}

/// Options of the games the player starts, and the questions the game asks.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameSettings {
    /// Ask before a new deal or a restart abandons a game in progress.
    pub confirm_new_game: bool,
    /// Discard mode (`None`: the variant's).
    pub discard: Option<arachne_engine::DiscardMode>,
    /// Undo limit.
    pub undo_limit: UndoLimit,
    /// New deals are ones the solver has proved winnable.
    pub winnable_only: bool,
    /// Keep asking the solver, in the background, whether the game can still be won.
    pub still_winnable: bool,
}

impl Default for GameSettings {
    fn default() -> GameSettings {
        GameSettings {
            confirm_new_game: true,
            discard: None,
            undo_limit: UndoLimit::Variant,
            winnable_only: false,
            still_winnable: true,
        }
    }
}

fn yes() -> bool {
    true
}

impl GameSettings {
    /// The options a new game of `variant` gets.
    pub fn options_for(&self, variant: &arachne_engine::Variant) -> arachne_engine::GameOptions {
        let mut o = arachne_engine::GameOptions::for_variant(variant);
        if let Some(d) = self.discard {
            o.discard = d;
        }
        match self.undo_limit {
            UndoLimit::Variant => {}
            UndoLimit::Unlimited => o.undo_limit = None,
            UndoLimit::Limit(n) => o.undo_limit = Some(n),
        }
        o
    }
}

/// Durations (milliseconds) and easing of every kind of motion.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(missing_docs)]
pub struct AnimationSettings {
    /// No motion at all: cards are placed at once.
    pub instant: bool,
    /// Deals fly card by card (else the cards appear in place).
    #[serde(default = "yes")]
    pub deal_motion: bool,
    /// Cards turn over (else the face appears at once).
    #[serde(default = "yes")]
    pub flip_motion: bool,
    /// Divides every duration (2.0 plays twice as fast).
    pub speed: f32,
    /// The curve of every motion that has none of its own in `easings`.
    pub easing: Easing,
    /// Each kind of motion's own curve (`None`: `easing`).
    #[serde(default)]
    pub easings: Easings,
    pub move_ms: u32,
    pub move_stagger_ms: u32,
    pub flip_ms: u32,
    pub deal_ms: u32,
    pub deal_stagger_ms: u32,
    pub initial_deal_stagger_ms: u32,
    pub sweep_ms: u32,
    pub sweep_stagger_ms: u32,
    pub slide_back_ms: u32,
    /// Whether a win starts the cascade of cards.
    pub celebration: bool,
    pub celebration_ms: u32,
}

/// Each kind of motion's own easing curve; `None` keeps the common one.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
#[allow(missing_docs)]
pub struct Easings {
    pub moves: Option<Easing>,
    pub flips: Option<Easing>,
    pub deals: Option<Easing>,
    pub sweeps: Option<Easing>,
    pub slide_back: Option<Easing>,
}

/// The kinds of eased motion, each with its duration, stagger and curve in the settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Motion {
    /// Cards the player (or a computer seat) moves; Pro Spider 10's draws, lays and hits too.
    Move,
    /// A card turning over where it lies.
    Flip,
    /// Cards dealt from the stock (and put back by an undo).
    Deal,
    /// A completed run swept to the foundation (and back).
    Sweep,
    /// Cards gliding back to their place (a refused drop, a new layout).
    SlideBack,
    /// The brief shake of a refused click (not tunable).
    Shake,
}

impl Motion {
    /// The tunable kinds, in the tuner's order.
    pub const TUNABLE: [Motion; 5] = [
        Motion::Move,
        Motion::Flip,
        Motion::Deal,
        Motion::Sweep,
        Motion::SlideBack,
    ];
}

impl AnimationSettings {
    /// The curve motion `m` follows.
    pub fn easing_of(&self, m: Motion) -> Easing {
        let own = match m {
            Motion::Move => self.easings.moves,
            Motion::Flip => self.easings.flips,
            Motion::Deal => self.easings.deals,
            Motion::Sweep => self.easings.sweeps,
            Motion::SlideBack => self.easings.slide_back,
            Motion::Shake => Some(Easing::SineInOut),
        };
        own.unwrap_or(self.easing)
    }

    /// The own-curve slot of motion `m` (none for the shake).
    pub fn easing_slot(&mut self, m: Motion) -> Option<&mut Option<Easing>> {
        match m {
            Motion::Move => Some(&mut self.easings.moves),
            Motion::Flip => Some(&mut self.easings.flips),
            Motion::Deal => Some(&mut self.easings.deals),
            Motion::Sweep => Some(&mut self.easings.sweeps),
            Motion::SlideBack => Some(&mut self.easings.slide_back),
            Motion::Shake => None,
        }
    }

    /// `ms` scaled by the speed, in seconds (0 when instant).
    pub fn secs(&self, ms: u32) -> f32 {
        if self.instant {
            0.0
        } else {
            ms as f32 / 1000.0 / self.speed.max(0.05)
        }
    }

    /// `secs` as a `Duration`.
    pub fn duration(&self, ms: u32) -> Duration {
        Duration::from_secs_f32(self.secs(ms))
    }
}

/// Proportions of the table; sizes are fractions of the card width unless said otherwise.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LayoutSettings {
    /// Card height / width.
    pub aspect: f32,
    /// Space around the table.
    pub margin: f32,
    /// Space between columns.
    pub gap: f32,
    /// Largest card width in pixels.
    pub max_card_width: f32,
    /// Vertical step between face-down cards, as a fraction of the card height.
    pub face_down_fan: f32,
    /// Vertical step between face-up cards, as a fraction of the card height.
    pub face_up_fan: f32,
    /// The smallest face-down step a tall column is squeezed to (fraction of the height).
    pub min_face_down_fan: f32,
    /// The smallest face-up step (fraction of the height).
    pub min_face_up_fan: f32,
    /// Horizontal step between stock piles and between foundation runs.
    pub pile_offset: f32,
    /// Vertical step between dragged cards (fraction of the height).
    pub drag_fan: f32,
}

/// Volumes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SoundSettings {
    /// Sound on or off.
    pub enabled: bool,
    /// Volume of the table's sounds (pick, drop, flip, deal, invalid) in decibels (0 is full).
    pub effects_volume_db: f32,
    /// Volume of the fanfares (a completed run, a win) in decibels.
    #[serde(default)]
    pub fanfare_volume_db: f32,
}

/// The key the player's settings are saved under.
pub const SETTINGS_KEY: &str = "settings";

/// Pro Spider 10 at the table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Phase10Settings {
    /// The pause before each computer decision, in milliseconds at speed 1.
    pub computer_pause_ms: u32,
    /// The player's hand sorted by colour (else by value).
    pub sort_by_colour: bool,
    /// Pro Spider 10 was on the table when the game was last left: it comes back there.
    pub on_table: bool,
}

impl Default for Phase10Settings {
    fn default() -> Phase10Settings {
        Phase10Settings {
            computer_pause_ms: 700,
            sort_by_colour: false,
            on_table: false,
        }
    }
}

impl Phase10Settings {
    /// The pause before a computer decision, in seconds, at the animation's speed.
    pub fn pause_secs(&self, a: &AnimationSettings) -> f32 {
        a.secs(self.computer_pause_ms)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The page (`web/index.html`) reads the language chosen from the saved settings' text
    /// before the game starts, with the pattern `language:\s*Some\((\w+)\)`, to write its own
    /// words (loading, a stop) in it: the saved text keeps that form.
    #[test]
    fn the_saved_settings_name_the_chosen_language_as_the_page_reads_it() {
        use crate::core::persist::{MemoryStorage, Storage, save};
        let storage = MemoryStorage::default();
        for (lang, name) in [
            (crate::core::i18n::Lang::De, "De"),
            (crate::core::i18n::Lang::En, "En"),
        ] {
            let s = Settings {
                language: Some(lang),
                ..Settings::default()
            };
            save(&storage, SETTINGS_KEY, &s).unwrap();
            let text = storage.read(SETTINGS_KEY).unwrap().unwrap();
            let at = text.find("language:").unwrap_or_else(|| panic!("{text}"));
            let rest = text[at + "language:".len()..].trim_start();
            assert!(rest.starts_with(&format!("Some({name})")), "{text}");
        }
        let page = include_str!("../../web/index.html");
        assert!(page.contains(r#"/language:\s*Some\((\w+)\)/"#));
        assert!(page.contains(r#"chosen === "De""#));
    }

    #[test]
    fn shipped_settings_parse() {
        let s = Settings::from_ron(DEFAULT_SETTINGS, "assets/settings.ron").unwrap();
        assert_eq!(s.theme, "classic");
        assert!(!s.animation.instant);
        assert_eq!(s.animation.secs(1000), 1.0);
    }

    #[test]
    fn a_number_out_of_its_range_is_named_with_its_line() {
        // A face-down step below its own floor (the squeeze would have panicked), and cards
        // of no shape.
        let text = DEFAULT_SETTINGS.replace("face_down_fan: 0.11", "face_down_fan: 0.02");
        let e = Settings::from_ron(&text, "settings.ron").unwrap_err();
        let line = text
            .lines()
            .position(|l| l.trim_start().starts_with("min_face_down_fan:"))
            .unwrap()
            + 1;
        assert_eq!(
            e,
            format!(
                "settings.ron:{line}: field `min_face_down_fan`: 0.035 is not in 0.005 to 0.02"
            )
        );
        let text = DEFAULT_SETTINGS.replace("aspect: 1.4", "aspect: NaN");
        let e = Settings::from_ron(&text, "settings.ron").unwrap_err();
        assert!(e.contains("field `aspect`: NaN is not in"), "{e}");
        assert_eq!(Settings::default().out_of_range(), None);
    }

    /// Saved settings are not read through `from_ron`: a number out of its range there (a hand
    /// edit, NaN) goes back to its default, and the others stay.
    #[test]
    fn saved_numbers_out_of_their_range_go_back_to_their_defaults() {
        let d = Settings::default();
        let mut s = d.clone();
        s.layout.aspect = 0.0;
        s.sound.effects_volume_db = 400.0;
        s.animation.speed = f32::NAN;
        s.layout.gap = d.layout.gap + 0.1;
        // A floor out of range under a step the slider set below the default floor: the floor
        // becomes the step (the default floor would be out of range again, for ever).
        s.layout.face_down_fan = 0.03;
        s.layout.min_face_down_fan = f32::NAN;
        let told = s.reset_out_of_range();
        assert_eq!(told.len(), 4, "{told:?}");
        assert_eq!(s.layout.min_face_down_fan, 0.03);
        assert_eq!(s.layout.face_down_fan, 0.03, "a step in range stays");
        assert!(
            told[0].starts_with("field `aspect`: 0 is not in"),
            "{told:?}"
        );
        assert_eq!(s.layout.aspect, d.layout.aspect);
        assert_eq!(s.sound.effects_volume_db, d.sound.effects_volume_db);
        assert_eq!(s.animation.speed, d.animation.speed);
        assert_eq!(s.layout.gap, d.layout.gap + 0.1, "a number in range stays");
        assert!(s.out_of_range().is_none());
        assert!(Settings::default().reset_out_of_range().is_empty());
    }

    /// A byte-order mark (some editors write one) is no part of the text.
    #[test]
    fn a_byte_order_mark_is_no_part_of_the_text() {
        let text = format!("\u{feff}{DEFAULT_SETTINGS}");
        assert!(Settings::from_ron(&text, "settings.ron").is_ok());
        let theme = crate::core::theme::Theme::builtin("midnight")
            .unwrap()
            .to_ron();
        assert!(
            crate::core::theme::Theme::from_ron("mine", &format!("\u{feff}{theme}"), "mine.ron")
                .is_ok()
        );
    }

    #[test]
    fn a_bad_field_is_named_with_its_line() {
        let text = DEFAULT_SETTINGS.replace("move_ms: 220", "move_millis: 220");
        let e = Settings::from_ron(&text, "assets/settings.ron").unwrap_err();
        assert!(e.starts_with("assets/settings.ron:"), "{e}");
        assert!(e.contains("move_millis"), "{e}");
        let line = DEFAULT_SETTINGS
            .lines()
            .position(|l| l.contains("move_ms"))
            .unwrap()
            + 1;
        assert!(e.contains(&format!("{line}:")), "{e}");
    }
}
