//! The rules of each variant in plain words, written from the variant's own data (so the help
//! always says what the engine does), and the controls.
use arachne_engine::{DiscardMode, Grouping, Scoring, Variant};

/// A titled section of the help.
pub type Section = (&'static str, String);

fn number(n: usize) -> String {
    const WORDS: [&str; 21] = [
        "no",
        "one",
        "two",
        "three",
        "four",
        "five",
        "six",
        "seven",
        "eight",
        "nine",
        "ten",
        "eleven",
        "twelve",
        "thirteen",
        "fourteen",
        "fifteen",
        "sixteen",
        "seventeen",
        "eighteen",
        "nineteen",
        "twenty",
    ];
    WORDS
        .get(n)
        .map_or_else(|| n.to_string(), |w| w.to_string())
}

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{} {}", number(n), if n == 1 { one } else { many })
}

/// The help for `v`: aim, layout, moves, the stock, completed runs, scoring.
pub fn rules(v: &Variant) -> Vec<Section> {
    let columns = v.column_count();
    let runs = v.run_count();
    let suits = v.suits.len();
    let suit_words = match suits {
        1 => "one suit".to_string(),
        n => format!("{} suits", number(n)),
    };
    let group = match v.grouping {
        Grouping::Suit => "suit",
        Grouping::Color => "colour",
    };
    let mut out = Vec::new();
    out.push((
        "Aim",
        format!(
            "Build every card into runs from King down to Ace of one {group}, and remove them: \
             {} in all. The game is won when the last run is gone.",
            plural(runs, "run", "runs")
        ),
    ));
    let mut layout = format!(
        "{} ({} cards in {suit_words}) are dealt into {}.",
        match v.decks {
            1 => "One deck".to_string(),
            n => format!("{} decks' worth of cards", capitalize(&number(n as usize))),
        },
        v.deck_size(),
        plural(columns, "column", "columns"),
    );
    let groups: Vec<String> = v
        .tableau
        .iter()
        .map(|g| {
            format!(
                "{} with {} face down and {} face up",
                plural(g.columns as usize, "column", "columns"),
                number(g.face_down as usize),
                number(g.face_up as usize)
            )
        })
        .collect();
    layout.push_str(&format!(
        " The layout, left to right: {}.",
        groups.join("; ")
    ));
    layout.push_str(&format!(
        " The other {} cards wait in the stock.",
        v.stock_size()
    ));
    out.push(("Layout", layout));
    out.push((
        "Moves",
        format!(
            "Any face-up card may go on a card one rank higher, whatever its suit (a Five on \
             any Six). A run of cards in descending order and of one {group} moves together; \
             a mixed run moves only from where it stops being one {group}. Any card or movable \
             run may go to an empty column. A face-down card turns up when it is uncovered."
        ),
    ));
    let deals = v.deal_count();
    let stock = if v.deal_with_empty_column {
        format!(
            "The stock deals one card onto every column, {}. It may be dealt at any time, even \
             when a column is empty.",
            plural(deals, "time", "times")
        )
    } else {
        format!(
            "The stock deals one card onto every column, {}. Every column must hold at least \
             one card before a deal.",
            plural(deals, "time", "times")
        )
    };
    out.push(("The stock", stock));
    out.push((
        "Completed runs",
        match v.discard {
            DiscardMode::Automatic => format!(
                "A run from King to Ace of one {group} leaves the table by itself as soon as it \
                 is complete."
            ),
            DiscardMode::Manual => format!(
                "A run from King to Ace of one {group} stays until you remove it: double-click \
                 it (or select its column and press Enter). You may also leave it and keep \
                 using its cards."
            ),
        },
    ));
    out.push((
        "Scoring",
        match v.scoring {
            Scoring::Microsoft => "You start with 500 points. Every move, deal and undo costs \
                                   one point; every completed run earns 100."
                .to_string(),
            Scoring::Links => "One point for every card sitting on the next rank up of the \
                               same group, and 12 for every completed run."
                .to_string(),
        },
    ));
    out.push((
        "Undo",
        match v.undo_limit {
            None => "Undo as often as you like.".to_string(),
            Some(n) => format!("At most {} per game.", plural(n as usize, "undo", "undos")),
        },
    ));
    out
}

fn capitalize(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().collect::<String>() + c.as_str())
        .unwrap_or_default()
}

/// The controls, one (keys, what they do) pair per line.
pub const CONTROLS: &[(&str, &str)] = &[
    ("Drag", "move a run; legal columns light up"),
    ("Click", "move a run to the best column"),
    ("Double-click", "remove a completed run (manual discard)"),
    ("Click the stock, D", "deal"),
    ("Arrows, Tab", "choose a column"),
    ("Enter, Space", "move from the chosen column"),
    ("Ctrl+Z, U", "undo"),
    ("Ctrl+Y, R", "redo"),
    ("H", "hint"),
    ("A", "auto-complete"),
    ("N", "new deal"),
    ("Esc", "menu"),
    (
        "In a replay",
        "Space play/pause, arrows step, Home/End jump, +/- speed, Esc close",
    ),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_variant_has_rules_that_follow_its_data() {
        for v in arachne_engine::variant::builtin() {
            let text: String = rules(v).iter().map(|(_, p)| p.as_str()).collect();
            let columns = number(v.column_count());
            assert!(
                text.contains(&format!("{columns} columns")),
                "{}: {text}",
                v.id
            );
            assert!(text.contains(&v.deck_size().to_string()), "{}", v.id);
            let manual = text.contains("stays until you remove it");
            assert_eq!(manual, v.discard == DiscardMode::Manual, "{}", v.id);
            let empty = text.contains("even when a column is empty");
            assert_eq!(empty, v.deal_with_empty_column, "{}", v.id);
        }
        let rb = arachne_engine::variant::builtin()
            .iter()
            .find(|v| v.grouping == Grouping::Color)
            .unwrap();
        assert!(rules(rb)[0].1.contains("one colour"));
    }
}
