//! Themes: the colours and shapes of the table and cards, from `assets/themes/*.ron`.
use bevy::color::Mix;
use bevy::prelude::*;
use serde::{Deserialize, Serialize};

use arachne_engine::Suit;

/// The theme files shipped in `assets/themes/`, embedded at build time: (file stem, text).
pub const BUILTIN_THEMES: &[(&str, &str)] = &[
    ("classic", include_str!("../../assets/themes/classic.ron")),
    ("midnight", include_str!("../../assets/themes/midnight.ron")),
];

/// The pattern on the card backs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum BackPattern {
    /// One colour.
    Plain,
    /// A grid of small diamonds.
    Lattice,
    /// A grid of dots.
    Dots,
}

/// A theme as written in its file (colours as `#rrggbb[aa]` strings).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(missing_docs)]
pub struct ThemeFile {
    pub name: String,
    pub table: String,
    pub placeholder: String,
    pub face: String,
    pub face_border: String,
    pub court_frame: String,
    pub back: String,
    pub back_accent: String,
    pub back_border: String,
    pub back_pattern: BackPattern,
    pub red: String,
    pub black: String,
    pub four_colour_diamonds: String,
    pub four_colour_clubs: String,
    pub four_colour: bool,
    pub highlight: String,
    pub selection: String,
    /// Where a hinted run goes (the run itself is lit in `highlight`). Older files without it
    /// get the default.
    #[serde(default = "default_hint_target")]
    pub hint_target: String,
    /// Pro Spider 10's fourth colour (its red, blue and green are `red` and the four-colour
    /// deck's diamonds and clubs). Older files without it get the default.
    #[serde(default = "default_yellow")]
    pub yellow: String,
    pub text: String,
    pub corner_radius: f32,
}

fn default_yellow() -> String {
    "#d89a00".into()
}

fn default_hint_target() -> String {
    "#ff7a3d".into()
}

/// The theme the theme editor is changing, shown on the table as it changes (`None`: the
/// chosen theme is shown).
#[derive(Resource, Clone, Debug, Default, PartialEq)]
#[component(clone_behavior = Ignore)]
pub struct ThemeDraft(pub Option<Theme>);

/// A loaded theme with its colours parsed.
#[derive(Resource, Clone, Debug, PartialEq)]
#[component(clone_behavior = Ignore)]
#[allow(missing_docs)]
pub struct Theme {
    pub id: String,
    pub name: String,
    pub table: Color,
    pub placeholder: Color,
    pub face: Color,
    pub face_border: Color,
    pub court_frame: Color,
    pub back: Color,
    pub back_accent: Color,
    pub back_border: Color,
    pub back_pattern: BackPattern,
    pub red: Color,
    pub black: Color,
    pub four_colour_diamonds: Color,
    pub four_colour_clubs: Color,
    pub four_colour: bool,
    pub highlight: Color,
    pub selection: Color,
    pub hint_target: Color,
    pub yellow: Color,
    pub text: Color,
    pub corner_radius: f32,
}

/// A colour as a theme file writes it: `#rrggbb`, or `#rrggbbaa` when it is not opaque.
pub fn hex(c: Color) -> String {
    let [r, g, b, a] = c.to_srgba().to_u8_array();
    if a == 255 {
        format!("#{r:02x}{g:02x}{b:02x}")
    } else {
        format!("#{r:02x}{g:02x}{b:02x}{a:02x}")
    }
}

impl Theme {
    /// Parses a theme file; errors name the file and the line or field.
    pub fn from_ron(id: &str, text: &str, source: &str) -> Result<Theme, String> {
        // (A byte-order mark, as some editors write, is no part of the text.)
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let f: ThemeFile =
            ron::from_str(text).map_err(|e| crate::core::settings::ron_error(source, text, &e))?;
        // Where a field is written: `file:line`, or the file alone if the line is not found.
        let at = |field: &str| crate::core::settings::field_at(source, text, field);
        let c = |field: &str, value: &str| -> Result<Color, String> {
            Srgba::hex(value).map(Color::from).map_err(|_| {
                format!(
                    "{}: field `{field}`: `{value}` is not a #rrggbb or #rrggbbaa colour",
                    at(field)
                )
            })
        };
        if !(0.0..=0.5).contains(&f.corner_radius) {
            return Err(format!(
                "{}: field `corner_radius`: {} is not between 0 and 0.5",
                at("corner_radius"),
                f.corner_radius
            ));
        }
        Ok(Theme {
            id: id.to_string(),
            table: c("table", &f.table)?,
            placeholder: c("placeholder", &f.placeholder)?,
            face: c("face", &f.face)?,
            face_border: c("face_border", &f.face_border)?,
            court_frame: c("court_frame", &f.court_frame)?,
            back: c("back", &f.back)?,
            back_accent: c("back_accent", &f.back_accent)?,
            back_border: c("back_border", &f.back_border)?,
            back_pattern: f.back_pattern,
            red: c("red", &f.red)?,
            black: c("black", &f.black)?,
            four_colour_diamonds: c("four_colour_diamonds", &f.four_colour_diamonds)?,
            four_colour_clubs: c("four_colour_clubs", &f.four_colour_clubs)?,
            four_colour: f.four_colour,
            highlight: c("highlight", &f.highlight)?,
            selection: c("selection", &f.selection)?,
            hint_target: c("hint_target", &f.hint_target)?,
            yellow: c("yellow", &f.yellow)?,
            text: c("text", &f.text)?,
            corner_radius: f.corner_radius,
            name: f.name,
        })
    }

    /// The theme as its file writes it.
    pub fn to_file(&self) -> ThemeFile {
        ThemeFile {
            name: self.name.clone(),
            table: hex(self.table),
            placeholder: hex(self.placeholder),
            face: hex(self.face),
            face_border: hex(self.face_border),
            court_frame: hex(self.court_frame),
            back: hex(self.back),
            back_accent: hex(self.back_accent),
            back_border: hex(self.back_border),
            back_pattern: self.back_pattern,
            red: hex(self.red),
            black: hex(self.black),
            four_colour_diamonds: hex(self.four_colour_diamonds),
            four_colour_clubs: hex(self.four_colour_clubs),
            four_colour: self.four_colour,
            highlight: hex(self.highlight),
            selection: hex(self.selection),
            hint_target: hex(self.hint_target),
            yellow: hex(self.yellow),
            text: hex(self.text),
            corner_radius: self.corner_radius,
        }
    }

    /// The theme as the text of a theme file (what "save as" writes and export shows);
    /// [`Theme::from_ron`] reads it back to the same theme.
    pub fn to_ron(&self) -> String {
        let body = ron::ser::to_string_pretty(&self.to_file(), ron::ser::PrettyConfig::default())
            .unwrap_or_else(|e| panic!("a theme always serializes: {e}"));
        format!(
            "// Arachne theme \"{}\". Colours are \"#rrggbb\" or \"#rrggbbaa\"; corner_radius is a\n\
             // fraction of the card width (0 to 0.5); back_pattern is Plain, Lattice or Dots.\n{body}\n",
            self.name.replace(['\n', '\r'], " ")
        )
    }

    /// Whether `other` draws cards with the same shapes (only colours differ): the cards can
    /// then keep their meshes and have their materials recoloured.
    pub fn same_shapes(&self, other: &Theme) -> bool {
        self.corner_radius == other.corner_radius && self.back_pattern == other.back_pattern
    }

    /// This theme with the player's card back and deck choices over it. An unusable back
    /// colour is ignored.
    pub fn with_cards(mut self, cards: &CardSettings) -> Theme {
        if let Some(p) = cards.back_pattern {
            self.back_pattern = p;
        }
        if let Some(c) = cards
            .back_colour
            .as_deref()
            .and_then(|c| Srgba::hex(c).ok())
        {
            self.back = c.into();
            // The accent is a lighter shade of the chosen colour, the border a darker one.
            self.back_accent = Color::from(c.mix(&Srgba::WHITE, 0.35));
            self.back_border = Color::from(c.mix(&Srgba::BLACK, 0.35));
        }
        if let Some(f) = cards.four_colour {
            self.four_colour = f;
        }
        self
    }

    /// A shipped theme by id.
    pub fn builtin(id: &str) -> Option<Theme> {
        BUILTIN_THEMES
            .iter()
            .find(|(stem, _)| *stem == id)
            .map(|(stem, text)| {
                match Theme::from_ron(stem, text, &format!("assets/themes/{stem}.ron")) {
                    Ok(t) => t,
                    // Tests parse every shipped theme.
                    Err(e) => panic!("{e}"),
                }
            })
    }

    /// The colour a suit's ink has in this theme.
    pub fn suit_color(&self, suit: Suit) -> Color {
        match (suit, self.four_colour) {
            (Suit::Spades, _) => self.black,
            (Suit::Hearts, _) => self.red,
            (Suit::Diamonds, true) => self.four_colour_diamonds,
            (Suit::Diamonds, false) => self.red,
            (Suit::Clubs, true) => self.four_colour_clubs,
            (Suit::Clubs, false) => self.black,
        }
    }
}

impl Default for Theme {
    fn default() -> Theme {
        Theme::builtin("classic").unwrap_or_else(|| panic!("the classic theme ships"))
    }
}

/// The card back and deck colours, each either the theme's or the player's choice.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CardSettings {
    /// The pattern on the backs (`None`: the theme's).
    pub back_pattern: Option<BackPattern>,
    /// The colour of the backs, `#rrggbb` (`None`: the theme's).
    pub back_colour: Option<String>,
    /// Four-colour deck (`None`: the theme's choice).
    pub four_colour: Option<bool>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_theme_written_out_reads_back_the_same() {
        for (stem, _) in BUILTIN_THEMES {
            let t = Theme::builtin(stem).unwrap();
            let text = t.to_ron();
            assert_eq!(Theme::from_ron(stem, &text, "x.ron").unwrap(), t, "{text}");
        }
        let t = Theme {
            name: "Odd \"name\"\nwith a newline".into(),
            placeholder: Color::srgba_u8(1, 2, 3, 4),
            ..Theme::default()
        };
        assert_eq!(Theme::from_ron(&t.id, &t.to_ron(), "x.ron").unwrap(), t);
    }

    #[test]
    fn new_theme_ids_are_plain_and_unique() {
        let themes = Themes::default();
        assert_eq!(themes.new_id("My Night Sky!"), "my-night-sky");
        assert_eq!(themes.new_id("Classic"), "classic-2");
        assert_eq!(themes.new_id("  ***  "), "theme");
        assert_eq!(themes.new_id("Grün"), "gr-n");
    }

    #[test]
    fn saved_themes_load_and_a_bad_one_is_named() {
        use crate::core::persist::Storage;
        let storage = crate::core::persist::MemoryStorage::default();
        let mut themes = Themes::default();
        let t = Theme {
            id: themes.new_id("Sea"),
            name: "Sea".into(),
            table: Color::srgb_u8(0, 40, 90),
            ..Theme::default()
        };
        themes.save(&storage, t.clone()).unwrap();
        storage.write("theme-broken", "(name: 3)").unwrap();
        let mut fresh = Themes::default();
        let messages = fresh.load_saved(&storage);
        assert_eq!(fresh.get("sea").unwrap().theme, t);
        assert_eq!(messages.len(), 1, "{messages:?}");
        assert!(
            messages[0].starts_with("theme-broken.ron:1:"),
            "{messages:?}"
        );
        assert_eq!(fresh.chosen("sea", &CardSettings::default()).table, t.table);
    }

    #[test]
    fn every_shipped_theme_parses_and_the_files_are_all_listed() {
        for (stem, _) in BUILTIN_THEMES {
            let t = Theme::builtin(stem).unwrap();
            assert!(!t.name.is_empty());
        }
        let on_disk = std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/assets/themes"))
            .unwrap()
            .filter(|e| {
                e.as_ref()
                    .unwrap()
                    .path()
                    .extension()
                    .is_some_and(|x| x == "ron")
            })
            .count();
        assert_eq!(on_disk, BUILTIN_THEMES.len());
        assert!(BUILTIN_THEMES.len() >= 2);
    }

    #[test]
    fn a_bad_colour_names_the_field() {
        let text = BUILTIN_THEMES[0].1.replace("\"#1c6b3c\"", "\"green\"");
        let e = Theme::from_ron("x", &text, "x.ron").unwrap_err();
        let line = text
            .lines()
            .position(|l| l.trim_start().starts_with("table:"))
            .unwrap()
            + 1;
        assert!(
            e.starts_with(&format!("x.ron:{line}: field `table`")),
            "{e}"
        );
    }

    #[test]
    fn the_players_card_choices_override_the_theme() {
        let themes = Themes::default();
        let mut s = CardSettings::default();
        assert_eq!(themes.chosen("classic", &s), Theme::default());
        s.back_pattern = Some(BackPattern::Dots);
        s.back_colour = Some("#123456".into());
        s.four_colour = Some(false);
        let t = themes.chosen("midnight", &s);
        assert_eq!(t.id, "midnight");
        assert_eq!(t.back_pattern, BackPattern::Dots);
        assert_eq!(t.back, Color::from(Srgba::hex("#123456").unwrap()));
        assert!(!t.four_colour);
        s.back_colour = Some("nonsense".into());
        assert_eq!(
            themes.chosen("midnight", &s).back,
            Theme::builtin("midnight").unwrap().back
        );
    }

    #[test]
    fn four_colour_changes_diamonds_and_clubs() {
        let mut t = Theme::default();
        assert_eq!(t.suit_color(Suit::Diamonds), t.red);
        t.four_colour = true;
        assert_eq!(t.suit_color(Suit::Diamonds), t.four_colour_diamonds);
        assert_eq!(t.suit_color(Suit::Clubs), t.four_colour_clubs);
    }
}

/// Where a theme in the list comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ThemeOrigin {
    /// Shipped with the game (embedded).
    Builtin,
    /// A file in the assets directory, read (and watched) on the desktop.
    File(String),
    /// Saved by the player with "save as", under this storage key.
    Saved(String),
}

/// One theme of the list.
#[derive(Clone, Debug, PartialEq)]
pub struct ThemeEntry {
    /// The theme (its `id` is the entry's id).
    pub theme: Theme,
    /// Where it comes from.
    pub origin: ThemeOrigin,
}

/// Every theme the player can choose: the shipped ones (or their files, when the assets
/// directory has newer versions), files added to `assets/themes/`, and the player's own.
#[derive(Resource, Clone, Debug, PartialEq)]
#[component(clone_behavior = Ignore)]
pub struct Themes(pub Vec<ThemeEntry>);

/// The storage key prefix of the player's saved themes (`theme-ID`).
pub const SAVED_THEME_PREFIX: &str = "theme-";

impl Default for Themes {
    fn default() -> Themes {
        Themes(
            BUILTIN_THEMES
                .iter()
                .filter_map(|(stem, _)| Theme::builtin(stem))
                .map(|theme| ThemeEntry {
                    theme,
                    origin: ThemeOrigin::Builtin,
                })
                .collect(),
        )
    }
}

impl Themes {
    /// The theme `id`, if listed.
    pub fn get(&self, id: &str) -> Option<&ThemeEntry> {
        self.0.iter().find(|e| e.theme.id == id)
    }

    /// Puts `theme` in the list (replacing the one with its id); returns whether anything
    /// changed.
    pub fn put(&mut self, theme: Theme, origin: ThemeOrigin) -> bool {
        let entry = ThemeEntry { theme, origin };
        match self.0.iter_mut().find(|e| e.theme.id == entry.theme.id) {
            Some(old) if *old == entry => false,
            Some(old) => {
                *old = entry;
                true
            }
            None => {
                self.0.push(entry);
                true
            }
        }
    }

    /// The theme the player chose: `id` (the default one if it is unknown) with the player's
    /// card back and deck colours over it.
    pub fn chosen(&self, id: &str, cards: &CardSettings) -> Theme {
        let theme = match self.get(id) {
            Some(e) => e.theme.clone(),
            None => {
                tracing::warn!("settings: no theme `{id}`, using the default");
                self.get("classic")
                    .map_or_else(Theme::default, |e| e.theme.clone())
            }
        };
        theme.with_cards(cards)
    }

    /// An id for a new theme called `name`: its letters and digits in lowercase, joined by
    /// `-`, made unique among the listed themes (`-2`, `-3`, ...).
    pub fn new_id(&self, name: &str) -> String {
        let mut base = String::new();
        for c in name.chars().flat_map(char::to_lowercase) {
            if c.is_ascii_alphanumeric() {
                base.push(c);
            } else if !base.is_empty() && !base.ends_with('-') {
                base.push('-');
            }
        }
        let base = base.trim_end_matches('-');
        let base = if base.is_empty() { "theme" } else { base };
        let base: String = base.chars().take(40).collect();
        let mut id = base.to_string();
        let mut n = 2;
        while self.get(&id).is_some() {
            id = format!("{base}-{n}");
            n += 1;
        }
        id
    }

    /// Reads the player's saved themes from `storage`; each one that cannot be read is named
    /// in the messages returned (the others still load).
    pub fn load_saved(&mut self, storage: &dyn crate::core::persist::Storage) -> Vec<String> {
        let mut messages = Vec::new();
        let keys = match storage.keys() {
            Ok(k) => k,
            Err(e) => return vec![format!("themes: {e}")],
        };
        for key in keys
            .into_iter()
            .filter(|k| k.starts_with(SAVED_THEME_PREFIX))
        {
            let id = &key[SAVED_THEME_PREFIX.len()..];
            match storage.read(&key) {
                Ok(Some(text)) => match Theme::from_ron(id, &text, &format!("{key}.ron")) {
                    Ok(theme) => {
                        self.put(theme, ThemeOrigin::Saved(key.clone()));
                    }
                    Err(e) => messages.push(e),
                },
                Ok(None) => {}
                Err(e) => messages.push(format!("{key}.ron: {e}")),
            }
        }
        messages
    }

    /// Saves `theme` as the player's theme `theme.id` in `storage` and lists it.
    pub fn save(
        &mut self,
        storage: &dyn crate::core::persist::Storage,
        theme: Theme,
    ) -> std::io::Result<()> {
        let key = format!("{SAVED_THEME_PREFIX}{}", theme.id);
        // In a full storage (the browser's quota) the oldest kept games make room for it.
        crate::core::persist::write_before_kept_games(storage, &key, &theme.to_ron())?;
        self.put(theme, ThemeOrigin::Saved(key));
        Ok(())
    }
}
