//! Pro Spider 10 variants as data: one `levels/*.ron` file per variant whose top-level struct is
//! `ProSpider10(...)` (Spider's files are `Variant(...)`; `build.rs` sorts the files by that
//! name). Each file is validated once when loaded, and a bad file names its file, line and field.

use std::sync::{Arc, OnceLock};

use serde::{Deserialize, Serialize};

use super::card::{Card, DECK_SIZE, Points};
use super::group::Need;
use crate::variant::{field_line, ron_message};

/// One phase: its number (as players call it) and the groups it needs, in order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Phase {
    /// The phase's number on the score sheet (1..10 in the standard list).
    pub number: u8,
    /// The groups, in the order they are laid.
    pub groups: Vec<Need>,
}

impl Phase {
    /// Cards the phase needs at least.
    pub fn cards_needed(&self) -> usize {
        self.groups.iter().map(|n| usize::from(n.size())).sum()
    }
}

/// The standard ten phases of the rulebook.
pub fn standard_phases() -> Vec<Phase> {
    use Need::*;
    let list: [&[Need]; 10] = [
        &[Set(3), Set(3)],
        &[Set(3), Run(4)],
        &[Set(4), Run(4)],
        &[Run(7)],
        &[Run(8)],
        &[Run(9)],
        &[Set(4), Set(4)],
        &[Colour(7)],
        &[Set(5), Set(2)],
        &[Set(5), Set(3)],
    ];
    list.iter()
        .enumerate()
        .map(|(i, g)| Phase {
            number: i as u8 + 1,
            groups: g.to_vec(),
        })
        .collect()
}

/// The players a variant allows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayerRange {
    /// Fewest seats.
    pub min: u8,
    /// Most seats.
    pub max: u8,
}

/// One Pro Spider 10 variant, as written in its `levels/<id>.ron` file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename = "ProSpider10")]
pub struct P10Variant {
    /// Identifier used on the command line and in logs (`pro-spider-10`).
    pub id: String,
    /// Name shown to the player.
    pub name: String,
    /// One or two sentences for the variant list.
    pub description: String,
    /// Cards dealt to each seat.
    #[serde(default = "default_hand_size")]
    pub hand_size: u8,
    /// Seats allowed.
    #[serde(default = "default_players")]
    pub players: PlayerRange,
    /// Points of the cards left in hand.
    #[serde(default)]
    pub points: Points,
    /// The phases, in the order they are played.
    #[serde(default = "standard_phases")]
    pub phases: Vec<Phase>,
    /// Exactly one round per phase; everybody moves on after every round.
    #[serde(default)]
    pub ten_rounds: bool,
    /// Discards may be claimed out of turn by knocking.
    #[serde(default)]
    pub knocking: bool,
    /// Phases may be laid in any order.
    #[serde(default)]
    pub any_order: bool,
}

fn default_hand_size() -> u8 {
    10
}

fn default_players() -> PlayerRange {
    PlayerRange { min: 2, max: 6 }
}

/// A variant file that could not be used. The message names the file, and the line and field.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum P10VariantError {
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
}

/// The most phases a variant may have (phases laid are tracked in a 32-bit mask).
pub const MAX_PHASES: usize = 32;

impl P10Variant {
    /// Reads and validates a variant from RON text; `source_name` names the file in errors.
    pub fn from_ron(text: &str, source_name: &str) -> Result<P10Variant, P10VariantError> {
        // (A byte-order mark, as some editors write, is not part of the text.)
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let variant: P10Variant = ron::from_str(text).map_err(|e| P10VariantError::Syntax {
            source_name: source_name.to_string(),
            line: e.span.start.line,
            column: e.span.start.col,
            message: ron_message(text, &e),
        })?;
        variant.validate(text, source_name)?;
        Ok(variant)
    }

    fn validate(&self, text: &str, source_name: &str) -> Result<(), P10VariantError> {
        let invalid = |field: &'static str, message: String| P10VariantError::Invalid {
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
        let (min, max) = (self.players.min, self.players.max);
        if min < 2 || max > 6 || min > max {
            return Err(invalid(
                "players",
                format!("must be a range within 2 to 6, not {min} to {max}"),
            ));
        }
        let hand = usize::from(self.hand_size);
        if hand == 0 || hand * usize::from(max) + 2 > DECK_SIZE {
            return Err(invalid(
                "hand_size",
                format!("{hand} cards for {max} seats leave no stock in a {DECK_SIZE}-card deck"),
            ));
        }
        if self.phases.is_empty() || self.phases.len() > MAX_PHASES {
            return Err(invalid(
                "phases",
                format!(
                    "must list 1 to {MAX_PHASES} phases, not {}",
                    self.phases.len()
                ),
            ));
        }
        for (i, p) in self.phases.iter().enumerate() {
            if p.number == 0 || self.phases[..i].iter().any(|q| q.number == p.number) {
                return Err(invalid(
                    "phases",
                    format!(
                        "phase numbers must be distinct and at least 1 (phase {} of the list is {})",
                        i + 1,
                        p.number
                    ),
                ));
            }
            if p.groups.is_empty() {
                return Err(invalid(
                    "phases",
                    format!("phase {} has no groups", p.number),
                ));
            }
            for need in &p.groups {
                let ok = match *need {
                    Need::Set(n) => (1..=(2 * 4 + Card::WILD.copies())).contains(&n),
                    Need::Run(n) => (2..=12).contains(&n),
                    Need::Colour(n) => (1..=(24 + Card::WILD.copies())).contains(&n),
                };
                if !ok {
                    return Err(invalid(
                        "phases",
                        format!("phase {}: no group can be a {need}", p.number),
                    ));
                }
            }
            if p.cards_needed() > hand + 1 {
                return Err(invalid(
                    "phases",
                    format!(
                        "phase {} needs {} cards but a seat holds at most {} (hand_size + 1)",
                        p.number,
                        p.cards_needed(),
                        hand + 1
                    ),
                ));
            }
        }
        if self.ten_rounds && self.any_order {
            return Err(invalid(
                "any_order",
                "cannot be combined with ten_rounds (every seat moves on to the next phase in order)".into(),
            ));
        }
        Ok(())
    }

    /// The phase with this number.
    pub fn phase_by_number(&self, number: u8) -> Option<(usize, &Phase)> {
        self.phases
            .iter()
            .enumerate()
            .find(|(_, p)| p.number == number)
    }
}

mod embedded {
    include!(concat!(env!("OUT_DIR"), "/phase10_levels.rs"));
}

/// The Pro Spider 10 variants shipped in `levels/`, embedded in the binary, sorted by file name.
pub fn builtin() -> &'static [Arc<P10Variant>] {
    static BUILTIN: OnceLock<Vec<Arc<P10Variant>>> = OnceLock::new();
    BUILTIN.get_or_init(|| {
        embedded::LEVELS
            .iter()
            .map(
                |(name, text)| match P10Variant::from_ron(text, &format!("levels/{name}")) {
                    Ok(v) => Arc::new(v),
                    // The files are checked by tests before they can ship; a broken one is a build bug.
                    Err(e) => panic!("embedded Pro Spider 10 variant is invalid: {e}"),
                },
            )
            .collect()
    })
}

/// The built-in variant with this id.
pub fn by_id(id: &str) -> Option<&'static Arc<P10Variant>> {
    builtin().iter().find(|v| v.id == id)
}

/// The rule options a phase list can be combined with, in the order a combined id names them.
pub const OPTIONS: [&str; 3] = ["knocking", "ten-rounds", "any-order"];

/// The built-in variants whose phase list the menu offers as a base (the standard list, first
/// five, even, odd), in order.
pub fn bases() -> Vec<&'static Arc<P10Variant>> {
    let mut out: Vec<_> = builtin()
        .iter()
        .filter(|v| !v.knocking && !v.ten_rounds && !v.any_order)
        .collect();
    // The whole list first, then the shorter ones, longest first (ties by id).
    out.sort_unstable_by_key(|v| {
        (
            std::cmp::Reverse(v.phases.len()),
            v.id != "pro-spider-10-first-five",
            v.id.clone(),
        )
    });
    out
}

/// `base` with the rule options `knocking`, `ten_rounds` and `any_order` switched on (a base's
/// own options stay on). When a built-in variant has exactly that phase list and those rules it
/// is the answer (its id is the spec's); otherwise the combination is named
/// `BASE+OPTION+...` (`pro-spider-10-first-five+knocking`). Ten rounds and any order do not go
/// together.
pub fn combine(
    base: &P10Variant,
    knocking: bool,
    ten_rounds: bool,
    any_order: bool,
) -> Result<Arc<P10Variant>, String> {
    let mut v = base.clone();
    v.knocking |= knocking;
    v.ten_rounds |= ten_rounds;
    v.any_order |= any_order;
    if v.ten_rounds && v.any_order {
        return Err("ten rounds and phases in any order do not go together".into());
    }
    let same = |b: &P10Variant| {
        b.phases == v.phases
            && b.points == v.points
            && b.hand_size == v.hand_size
            && b.players == v.players
            && (b.knocking, b.ten_rounds, b.any_order) == (v.knocking, v.ten_rounds, v.any_order)
    };
    if same(base) {
        return Ok(Arc::new(base.clone()));
    }
    if let Some(b) = builtin().iter().find(|b| same(b)) {
        return Ok(b.clone());
    }
    let on = [
        knocking && !base.knocking,
        ten_rounds && !base.ten_rounds,
        any_order && !base.any_order,
    ];
    let words = ["knocking", "ten rounds", "phases in any order"];
    let mut id = base.id.clone();
    let mut names = Vec::new();
    for (i, _) in on.iter().enumerate().filter(|(_, on)| **on) {
        id += "+";
        id += OPTIONS[i];
        names.push(words[i]);
    }
    v.id = id;
    v.name = format!("{} with {}", base.name, names.join(" and "));
    v.description = format!("{} Also: {}.", base.description, names.join(", "));
    Ok(Arc::new(v))
}

/// The variant with this id: a built-in one, or a combination written `BASE+OPTION+...` (see
/// [`combine`]).
/// Ids ignore case, as all input does (`PRO-SPIDER-10` is `pro-spider-10`).
pub fn resolve(id: &str) -> Option<Arc<P10Variant>> {
    let id = id.to_ascii_lowercase();
    let id = id.as_str();
    if let Some(v) = by_id(id) {
        return Some(v.clone());
    }
    let mut parts = id.split('+');
    let base = by_id(parts.next()?)?;
    let mut on = [false; 3];
    for part in parts {
        let i = OPTIONS.iter().position(|o| *o == part)?;
        if on[i] {
            return None;
        }
        on[i] = true;
    }
    let v = combine(base, on[0], on[1], on[2]).ok()?;
    // Only the canonical spelling names a variant (one id per game).
    (v.id == id).then_some(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = r#"ProSpider10(
    id: "test",
    name: "Test",
    description: "",
    hand_size: 10,
    phases: [
        (number: 1, groups: [Set(3), Set(3)]),
    ],
)"#;

    #[test]
    fn a_good_file_loads_with_defaults() {
        let v = P10Variant::from_ron(GOOD, "t.ron").unwrap();
        assert_eq!(v.players, PlayerRange { min: 2, max: 6 });
        assert_eq!(v.points, Points::default());
        assert!(!v.knocking && !v.any_order && !v.ten_rounds);
    }

    #[test]
    fn unknown_field_names_file_line_and_field() {
        let text = GOOD.replace("    hand_size: 10,", "    hand_size: 10,\n    colour: Red,");
        let err = P10Variant::from_ron(&text, "levels/bad.ron")
            .unwrap_err()
            .to_string();
        assert!(err.starts_with("levels/bad.ron:6:"), "{err}");
        assert!(err.contains("colour"), "{err}");
    }

    #[test]
    fn a_spider_file_is_not_a_phase10_file() {
        let err = P10Variant::from_ron("Variant(id: \"x\")", "s.ron")
            .unwrap_err()
            .to_string();
        assert!(err.starts_with("s.ron:1:"), "{err}");
    }

    #[test]
    fn invalid_values_name_the_field_and_line() {
        let cases = [
            (
                GOOD.replace("Set(3)]", "Run(9), Set(3)]"),
                "t.ron:6: field `phases`: phase 1 needs 15 cards but a seat holds at most 11 (hand_size + 1)",
            ),
            (
                GOOD.replace(
                    "    hand_size: 10,",
                    "    hand_size: 10,\n    players: (min: 1, max: 6),",
                ),
                "t.ron:6: field `players`: must be a range within 2 to 6, not 1 to 6",
            ),
            (
                GOOD.replace(
                    "    hand_size: 10,",
                    "    hand_size: 10,\n    players: (min: 2, max: 7),",
                ),
                "t.ron:6: field `players`: must be a range within 2 to 6, not 2 to 7",
            ),
            (
                GOOD.replace("Set(3)]", "Run(13)]"),
                "t.ron:6: field `phases`: phase 1: no group can be a run of 13",
            ),
            (
                GOOD.replace("hand_size: 10", "hand_size: 20"),
                "t.ron:5: field `hand_size`: 20 cards for 6 seats leave no stock in a 108-card deck",
            ),
        ];
        for (text, want) in cases {
            assert_eq!(
                P10Variant::from_ron(&text, "t.ron")
                    .unwrap_err()
                    .to_string(),
                want
            );
        }
    }

    #[test]
    fn every_builtin_variant_loads() {
        let ids: Vec<&str> = builtin().iter().map(|v| v.id.as_str()).collect();
        assert_eq!(
            ids,
            [
                "pro-spider-10-any-order",
                "pro-spider-10-even",
                "pro-spider-10-first-five",
                "pro-spider-10-knocking",
                "pro-spider-10-odd",
                "pro-spider-10-ten-rounds",
                "pro-spider-10",
            ]
        );
        let standard = by_id("pro-spider-10").unwrap();
        assert_eq!(standard.phases, standard_phases());
        assert_eq!(standard.phases[9].groups, [Need::Set(5), Need::Set(3)]);
        let even: Vec<u8> = by_id("pro-spider-10-even")
            .unwrap()
            .phases
            .iter()
            .map(|p| p.number)
            .collect();
        assert_eq!(even, [2, 4, 6, 8, 10]);
    }

    #[test]
    fn options_combine_with_any_phase_list_and_the_combination_resolves_by_its_id() {
        let first_five = by_id("pro-spider-10-first-five").unwrap();
        let v = combine(first_five, true, false, false).unwrap();
        assert_eq!(v.id, "pro-spider-10-first-five+knocking");
        assert!(v.knocking && v.phases.len() == 5);
        assert_eq!(resolve(&v.id).as_deref(), Some(&*v));
        // The standard list with knocking is the spec's own variant.
        let standard = by_id("pro-spider-10").unwrap();
        assert_eq!(
            combine(standard, true, false, false).unwrap().id,
            "pro-spider-10-knocking"
        );
        assert_eq!(
            combine(standard, false, false, false).unwrap().id,
            "pro-spider-10"
        );
        let both = combine(by_id("pro-spider-10-odd").unwrap(), true, true, false).unwrap();
        assert_eq!(both.id, "pro-spider-10-odd+knocking+ten-rounds");
        assert!(resolve(&both.id).is_some());
        assert!(combine(standard, false, true, true).is_err());
        assert!(resolve("pro-spider-10-odd+ten-rounds+knocking").is_none());
        assert!(resolve("pro-spider-10+nonsense").is_none());
        let order: Vec<&str> = bases().iter().map(|v| v.id.as_str()).collect();
        assert_eq!(
            order,
            [
                "pro-spider-10",
                "pro-spider-10-first-five",
                "pro-spider-10-even",
                "pro-spider-10-odd"
            ]
        );
    }
}
