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

/// A loaded theme with its colours parsed.
#[derive(Resource, Clone, Debug, PartialEq)]
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

impl Theme {
    /// Parses a theme file; errors name the file and the line or field.
    pub fn from_ron(id: &str, text: &str, source: &str) -> Result<Theme, String> {
        let f: ThemeFile = ron::from_str(text).map_err(|e| format!("{source}:{e}"))?;
        let c = |field: &str, value: &str| -> Result<Color, String> {
            Srgba::hex(value).map(Color::from).map_err(|_| {
                format!("{source}: field `{field}`: `{value}` is not a #rrggbb or #rrggbbaa colour")
            })
        };
        if !(0.0..=0.5).contains(&f.corner_radius) {
            return Err(format!(
                "{source}: field `corner_radius`: {} is not between 0 and 0.5",
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

    /// The theme the player chose: theme `id` (the default one if it is unknown) with the
    /// player's card back and deck colours over it. An unusable back colour is ignored.
    pub fn chosen(id: &str, cards: &CardSettings) -> Theme {
        let mut theme = Theme::builtin(id).unwrap_or_else(|| {
            tracing::warn!("settings: no theme `{id}`, using the default");
            Theme::default()
        });
        if let Some(p) = cards.back_pattern {
            theme.back_pattern = p;
        }
        if let Some(c) = cards
            .back_colour
            .as_deref()
            .and_then(|c| Srgba::hex(c).ok())
        {
            theme.back = c.into();
            // The accent is a lighter shade of the chosen colour, the border a darker one.
            theme.back_accent = Color::from(c.mix(&Srgba::WHITE, 0.35));
            theme.back_border = Color::from(c.mix(&Srgba::BLACK, 0.35));
        }
        if let Some(f) = cards.four_colour {
            theme.four_colour = f;
        }
        theme
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
        assert!(e.contains("field `table`"), "{e}");
    }

    #[test]
    fn the_players_card_choices_override_the_theme() {
        let mut s = CardSettings::default();
        assert_eq!(Theme::chosen("classic", &s), Theme::default());
        s.back_pattern = Some(BackPattern::Dots);
        s.back_colour = Some("#123456".into());
        s.four_colour = Some(false);
        let t = Theme::chosen("midnight", &s);
        assert_eq!(t.id, "midnight");
        assert_eq!(t.back_pattern, BackPattern::Dots);
        assert_eq!(t.back, Color::from(Srgba::hex("#123456").unwrap()));
        assert!(!t.four_colour);
        s.back_colour = Some("nonsense".into());
        assert_eq!(
            Theme::chosen("midnight", &s).back,
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
