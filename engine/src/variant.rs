//! Variants as data: one RON file per variant in `levels/`, validated once when loaded.

use std::fmt;
use std::path::Path;
use std::sync::{Arc, OnceLock};

use serde::{Deserialize, Serialize};

use crate::card::{Card, Rank, Suit};

/// How cards group into runs that move as a unit and into completed runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Grouping {
    /// All cards of the run share one suit (classic Spider).
    Suit,
    /// All cards of the run share one colour (Red-Black Spider).
    Color,
}

/// What happens to a completed King-to-Ace run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum DiscardMode {
    /// The run leaves for the foundation as part of the move or deal that completed it.
    Automatic,
    /// The run stays until the player removes it with `N>f`.
    Manual,
}

impl DiscardMode {
    /// The word used in position files (`auto` or `manual`).
    pub const fn keyword(self) -> &'static str {
        match self {
            DiscardMode::Automatic => "auto",
            DiscardMode::Manual => "manual",
        }
    }

    /// The mode for a position-file word (`auto`/`automatic` or `manual`, any case).
    pub fn from_keyword(s: &str) -> Option<DiscardMode> {
        match s.to_ascii_lowercase().as_str() {
            "auto" | "automatic" => Some(DiscardMode::Automatic),
            "manual" => Some(DiscardMode::Manual),
            _ => None,
        }
    }
}

/// A scoring scheme.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Scoring {
    /// Microsoft's: start at 500, -1 per move or deal, -1 per undo, +100 per completed run.
    Microsoft,
    /// Aisleriot's: one point per linked pair (same group, one rank apart) in a column, 12 per
    /// completed run.
    Links,
}

/// How hard a variant is, for the variant list.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Difficulty {
    /// Most deals are won by a casual player.
    Easy,
    /// Needs some planning.
    Medium,
    /// Needs careful play; many deals are lost.
    Hard,
    /// For experts only.
    Expert,
}

/// A group of identical tableau columns in the initial layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ColumnGroup {
    /// How many consecutive columns get this layout.
    pub columns: u8,
    /// Face-down cards dealt to each of these columns.
    pub face_down: u8,
    /// Face-up cards dealt on top of them (at least one).
    pub face_up: u8,
}

/// One Spider variant, as written in its `levels/<id>.ron` file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Variant {
    /// Identifier used on the command line and in position files (`spider-2suit`).
    pub id: String,
    /// Name shown to the player.
    pub name: String,
    /// One or two sentences for the variant list.
    pub description: String,
    /// Difficulty shown in the variant list.
    pub difficulty: Difficulty,
    /// Number of 52-card decks' worth of cards.
    pub decks: u8,
    /// The suits the deck uses, in canonical deck order; each is repeated so the deck holds
    /// `decks * 52` cards (so 1, 2 or 4 suits).
    pub suits: Vec<Suit>,
    /// The initial layout, column groups from left to right.
    pub tableau: Vec<ColumnGroup>,
    /// Whether the stock may be dealt while a column is empty.
    pub deal_with_empty_column: bool,
    /// Which runs move as a unit and which runs complete.
    pub grouping: Grouping,
    /// The default discard mode (a per-game option may change it).
    pub discard: DiscardMode,
    /// The default scoring scheme.
    pub scoring: Scoring,
    /// The default limit on undos per game (`None` is unlimited).
    pub undo_limit: Option<u32>,
    /// KPatience's 4-entry suit list for its deal numbering, when this variant has one.
    #[serde(default)]
    pub kpat_suits: Option<Vec<Suit>>,
}

/// A variant file that could not be used. The message names the file, and the line and field.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum VariantError {
    /// The file is not valid RON for a variant.
    #[error("{source_name}:{line}:{column}: {message}")]
    Syntax {
        /// The file's name.
        source_name: String,
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// What was wrong.
        message: String,
    },
    /// The file parsed but a field's value is not allowed.
    #[error("{source_name}:{line}: field `{field}`: {message}")]
    Invalid {
        /// The file's name.
        source_name: String,
        /// 1-based line where the field is written (1 when it is left to its default).
        line: usize,
        /// The field at fault.
        field: &'static str,
        /// What was wrong.
        message: String,
    },
    /// The file could not be read.
    #[error("{path}: {message}")]
    Io {
        /// The path given.
        path: String,
        /// The operating system's message.
        message: String,
    },
    /// Two variants share an id.
    #[error("{source_name}:{line}: field `id`: variant `{id}` is already defined")]
    Duplicate {
        /// The file's name.
        source_name: String,
        /// 1-based line of the `id` field.
        line: usize,
        /// The repeated id.
        id: String,
    },
}

/// The line on which `field:` is first written in a RON text, or 1 (a field left to its
/// default). Both games' variant files name it with a value the checks refuse.
pub(crate) fn field_line(text: &str, field: &str) -> usize {
    written_at(text, field).unwrap_or(1)
}

/// The first line (1-based) of a RON `text` that starts with `field:`, if any. For errors found
/// after parsing (a value out of its range), which RON's own errors cannot place.
pub fn written_at(text: &str, field: &str) -> Option<usize> {
    text.lines()
        .position(|l| {
            l.trim_start()
                .strip_prefix(field)
                .is_some_and(|r| r.trim_start().starts_with(':'))
        })
        .map(|i| i + 1)
}

/// A RON error's message with the field its line starts with (``field `decks`: Expected
/// integer``). RON names the field itself in some errors (an unknown or missing field, which
/// it places at the end of the line before): those, any message with a name in backquotes,
/// are left as they are.
pub fn ron_message(text: &str, e: &ron::error::SpannedError) -> String {
    let message = e.code.to_string();
    let field = text
        .lines()
        .nth(e.span.start.line.saturating_sub(1))
        .and_then(|l| {
            let l = l.trim_start();
            let name: String = l
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            (!name.is_empty() && l[name.len()..].trim_start().starts_with(':')).then_some(name)
        })
        .filter(|_| !message.contains('`'));
    match field {
        Some(name) => format!("field `{name}`: {message}"),
        None => message,
    }
}

fn read_variant_file(path: &Path) -> Result<String, VariantError> {
    std::fs::read_to_string(path).map_err(|e| VariantError::Io {
        path: path.display().to_string(),
        message: e.to_string(),
    })
}

/// The most columns a variant may have (columns are tracked in 64-bit masks).
pub const MAX_COLUMNS: usize = 64;

impl Variant {
    /// Reads and validates a variant from RON text; `source_name` names the file in errors.
    pub fn from_ron(text: &str, source_name: &str) -> Result<Variant, VariantError> {
        // (A byte-order mark, as some editors write, is not part of the text.)
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let variant: Variant = ron::from_str(text).map_err(|e| VariantError::Syntax {
            source_name: source_name.to_string(),
            line: e.span.start.line,
            column: e.span.start.col,
            message: ron_message(text, &e),
        })?;
        variant.validate(source_name, text)?;
        Ok(variant)
    }

    /// Reads and validates a variant file.
    pub fn from_file(path: &Path) -> Result<Variant, VariantError> {
        let text = read_variant_file(path)?;
        Variant::from_ron(&text, &path.display().to_string())
    }

    fn validate(&self, source_name: &str, text: &str) -> Result<(), VariantError> {
        let invalid = |field: &'static str, message: String| VariantError::Invalid {
            source_name: source_name.to_string(),
            line: field_line(text, field),
            field,
            message,
        };
        let id_ok = !self.id.is_empty()
            && self
                .id
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
        if !id_ok {
            return Err(invalid(
                "id",
                format!(
                    "`{}` must be non-empty lowercase letters, digits and `-`",
                    self.id
                ),
            ));
        }
        if self.decks == 0 {
            return Err(invalid("decks", "must be at least 1".into()));
        }
        if ![1, 2, 4].contains(&self.suits.len()) {
            return Err(invalid(
                "suits",
                format!("must list 1, 2 or 4 suits, not {}", self.suits.len()),
            ));
        }
        for (i, s) in self.suits.iter().enumerate() {
            if self.suits[..i].contains(s) {
                return Err(invalid("suits", format!("{s:?} is listed twice")));
            }
        }
        let columns = self.column_count();
        if columns == 0 || columns > MAX_COLUMNS {
            return Err(invalid(
                "tableau",
                format!("must have 1 to {MAX_COLUMNS} columns, not {columns}"),
            ));
        }
        if let Some(g) = self.tableau.iter().find(|g| g.face_up == 0) {
            return Err(invalid(
                "tableau",
                format!(
                    "every column needs a face-up card on top (a group has face_up: 0, face_down: {})",
                    g.face_down
                ),
            ));
        }
        let dealt = self.tableau_card_count();
        if dealt > self.deck_size() {
            return Err(invalid(
                "tableau",
                format!(
                    "the layout deals {dealt} cards but the deck holds {}",
                    self.deck_size()
                ),
            ));
        }
        if let Some(k) = &self.kpat_suits {
            let layout: Vec<(u8, u8)> = self.column_layout().collect();
            let kpat_layout: Vec<(u8, u8)> =
                (0..10).map(|c| (if c < 4 { 5 } else { 4 }, 1)).collect();
            if layout != kpat_layout || self.decks != 2 {
                return Err(invalid(
                    "kpat_suits",
                    "KPatience numbering needs two decks and the classic 10-column layout".into(),
                ));
            }
            let mut ours: Vec<Card> = self.deck();
            let mut theirs: Vec<Card> = (0..2)
                .flat_map(|_| {
                    Rank::ALL
                        .into_iter()
                        .flat_map(|r| k.iter().map(move |&s| Card::new(r, s)))
                })
                .collect();
            ours.sort_unstable();
            theirs.sort_unstable();
            if k.len() != 4 || ours != theirs {
                return Err(invalid(
                    "kpat_suits",
                    "must list 4 suits that give the same cards as `decks` and `suits`".into(),
                ));
            }
        }
        Ok(())
    }

    /// Number of tableau columns.
    pub fn column_count(&self) -> usize {
        self.tableau.iter().map(|g| usize::from(g.columns)).sum()
    }

    /// `(face_down, face_up)` for each column, left to right.
    pub fn column_layout(&self) -> impl Iterator<Item = (u8, u8)> + '_ {
        self.tableau
            .iter()
            .flat_map(|g| std::iter::repeat_n((g.face_down, g.face_up), usize::from(g.columns)))
    }

    /// Cards dealt to the tableau at the start.
    pub fn tableau_card_count(&self) -> usize {
        self.tableau
            .iter()
            .map(|g| usize::from(g.columns) * (usize::from(g.face_down) + usize::from(g.face_up)))
            .sum()
    }

    /// Cards in the whole deck.
    pub fn deck_size(&self) -> usize {
        usize::from(self.decks) * 52
    }

    /// Cards in the stock at the start.
    pub fn stock_size(&self) -> usize {
        self.deck_size() - self.tableau_card_count()
    }

    /// Number of deals the full stock gives (the last one may be partial).
    pub fn deal_count(&self) -> usize {
        self.stock_size().div_ceil(self.column_count())
    }

    /// Completed runs needed to win.
    pub fn run_count(&self) -> usize {
        self.deck_size() / 13
    }

    /// How many copies of `card` the deck holds.
    pub fn copies_of(&self, card: Card) -> usize {
        if self.suits.contains(&card.suit()) {
            usize::from(self.decks) * 4 / self.suits.len()
        } else {
            0
        }
    }

    /// The deck in canonical order: for each copy of the suit list, each suit in order, Ace to King.
    pub fn deck(&self) -> Vec<Card> {
        let copies = usize::from(self.decks) * 4 / self.suits.len();
        (0..copies)
            .flat_map(|_| {
                self.suits
                    .iter()
                    .flat_map(|&s| Rank::ALL.into_iter().map(move |r| Card::new(r, s)))
            })
            .collect()
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name)
    }
}

mod embedded {
    include!(concat!(env!("OUT_DIR"), "/levels.rs"));
}

/// The variants shipped in `levels/`, embedded in the binary, sorted as the files are.
pub fn builtin() -> &'static [Arc<Variant>] {
    static BUILTIN: OnceLock<Vec<Arc<Variant>>> = OnceLock::new();
    BUILTIN.get_or_init(|| {
        embedded::LEVELS
            .iter()
            .map(
                |(name, text)| match Variant::from_ron(text, &format!("levels/{name}")) {
                    Ok(v) => Arc::new(v),
                    // The files are checked by tests before they can ship; a broken one is a build bug.
                    Err(e) => panic!("embedded variant is invalid: {e}"),
                },
            )
            .collect()
    })
}

/// A set of known variants: the built-in ones plus any files the user loaded.
#[derive(Clone, Debug)]
pub struct Variants {
    list: Vec<Arc<Variant>>,
}

impl Default for Variants {
    fn default() -> Self {
        Variants {
            list: builtin().to_vec(),
        }
    }
}

impl Variants {
    /// Adds a user's variant file; its id must be new.
    pub fn load_file(&mut self, path: &Path) -> Result<Arc<Variant>, VariantError> {
        let text = read_variant_file(path)?;
        let v = Variant::from_ron(&text, &path.display().to_string())?;
        if self.get(&v.id).is_some() {
            return Err(VariantError::Duplicate {
                source_name: path.display().to_string(),
                line: field_line(&text, "id"),
                id: v.id,
            });
        }
        let v = Arc::new(v);
        self.list.push(v.clone());
        Ok(v)
    }

    /// The variant with this id.
    pub fn get(&self, id: &str) -> Option<&Arc<Variant>> {
        self.list.iter().find(|v| v.id == id)
    }

    /// All variants, built-in first.
    pub fn iter(&self) -> impl Iterator<Item = &Arc<Variant>> {
        self.list.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = r#"Variant(
    id: "test",
    name: "Test",
    description: "",
    difficulty: Easy,
    decks: 1,
    suits: [Spades, Hearts, Diamonds, Clubs],
    tableau: [(columns: 4, face_down: 1, face_up: 1)],
    deal_with_empty_column: false,
    grouping: Suit,
    discard: Automatic,
    scoring: Microsoft,
    undo_limit: None,
)"#;

    #[test]
    fn a_good_file_loads() {
        let v = Variant::from_ron(GOOD, "test.ron").expect("valid");
        assert_eq!(v.column_count(), 4);
        assert_eq!(v.stock_size(), 44);
        assert_eq!(v.deal_count(), 11);
    }

    #[test]
    fn unknown_field_names_file_line_and_field() {
        let text = GOOD.replace(
            "    undo_limit: None,",
            "    undo_limit: None,\n    colour: Red,",
        );
        let err = Variant::from_ron(&text, "levels/bad.ron")
            .unwrap_err()
            .to_string();
        assert!(err.starts_with("levels/bad.ron:14:"), "{err}");
        assert!(err.contains("colour"), "{err}");
    }

    #[test]
    fn missing_field_is_named() {
        let text = GOOD.replace("    grouping: Suit,\n", "");
        let err = Variant::from_ron(&text, "x.ron").unwrap_err().to_string();
        assert!(err.contains("grouping"), "{err}");
        // (RON places it at the end of the line before, whose field is another's.)
        assert!(!err.contains(": field `"), "{err}");
    }

    #[test]
    fn layout_larger_than_deck_is_rejected() {
        let text = GOOD.replace("face_down: 1,", "face_down: 20,");
        let err = Variant::from_ron(&text, "big.ron").unwrap_err();
        assert_eq!(
            err.to_string(),
            "big.ron:8: field `tableau`: the layout deals 84 cards but the deck holds 52"
        );
    }

    #[test]
    fn a_refused_value_names_its_line() {
        let text = GOOD.replace("decks: 1,", "decks: 0,");
        let err = Variant::from_ron(&text, "d.ron").unwrap_err().to_string();
        assert_eq!(err, "d.ron:6: field `decks`: must be at least 1");
        // A value RON cannot read is named by the field its line starts with.
        let text = GOOD.replace("decks: 1,", "decks: \"two\",");
        let err = Variant::from_ron(&text, "d.ron").unwrap_err().to_string();
        assert!(err.starts_with("d.ron:6:11: field `decks`: "), "{err}");
        // A field left to its default is on no line: the file's first is named.
        assert_eq!(field_line(&GOOD.replace("    decks: 1,\n", ""), "decks"), 1);
    }

    #[test]
    fn three_suits_are_rejected() {
        let text = GOOD.replace("Spades, Hearts, Diamonds, Clubs", "Spades, Hearts, Clubs");
        let err = Variant::from_ron(&text, "s.ron").unwrap_err().to_string();
        assert_eq!(
            err,
            "s.ron:7: field `suits`: must list 1, 2 or 4 suits, not 3"
        );
    }

    #[test]
    fn every_builtin_variant_loads_with_a_unique_id() {
        let all = builtin();
        assert_eq!(all.len(), 8);
        for (i, v) in all.iter().enumerate() {
            assert!(all[..i].iter().all(|w| w.id != v.id), "{}", v.id);
        }
    }
}
