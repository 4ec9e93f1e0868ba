//! The rules of each variant in plain words, written from the variant's own data (so the help
//! always says what the engine does), the controls, and the help window that shows them.
use arachne_engine::{DiscardMode, GameOptions, Grouping, Scoring, Variant};
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use crate::shell::widgets::fixed_window;
use crate::shell::{Overlay, Windows};
use crate::spider::SpiderSystems;
use crate::spider::table::Table;

pub(crate) fn plugin(app: &mut App) {
    app.add_systems(
        EguiPrimaryContextPass,
        help.in_set(Overlay::Windows).in_set(SpiderSystems),
    );
}

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

/// The help for a game of `v` played with `options` (the discard mode, scoring and undo limit
/// of the game on the table, which the settings may have changed from the variant's): aim,
/// layout, moves, the stock, completed runs, scoring, undo and how the statistics count.
pub fn rules(v: &Variant, options: &GameOptions) -> Vec<Section> {
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
    // A stock that does not divide by the columns ends with a short deal (Spider Three Decks:
    // eight rows of twelve and a last deal of six).
    let short = v.stock_size() % columns;
    let mut stock = if short == 0 {
        format!(
            "The stock deals one card onto every column, {}.",
            plural(deals, "time", "times")
        )
    } else {
        format!(
            "The stock deals one card onto every column {}; the last deal gives one card each \
             to the first {} from the left.",
            plural(deals - 1, "time", "times"),
            plural(short, "column", "columns"),
        )
    };
    stock.push_str(if v.deal_with_empty_column {
        " It may be dealt at any time, even when a column is empty."
    } else {
        " Every column must hold at least one card before a deal."
    });
    out.push(("The stock", stock));
    out.push((
        "Completed runs",
        match options.discard {
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
        match options.scoring {
            Scoring::Microsoft => "You start with 500 points. Every move, deal, undo and redo \
                                   costs one point; every completed run earns 100."
                .to_string(),
            Scoring::Links => "One point for every card sitting on the next rank up of the \
                               same group, and 12 for every completed run."
                .to_string(),
        },
    ));
    out.push((
        "Undo",
        match options.undo_limit {
            None => "Undo as often as you like.".to_string(),
            Some(0) => "This game allows no undo.".to_string(),
            Some(n) => format!(
                "At most {} in this game; the Undo button counts down what is left.",
                plural(n as usize, "undo", "undos")
            ),
        },
    ));
    out.push((
        "Statistics",
        "A win counts once, even if you undo and win again. Leaving a game after a move counts \
         as a loss. A game the solver helped with (auto-complete, or its demo of the deal) \
         counts as played and won, but never as a best time, best score or part of a streak."
            .to_string(),
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

/// The help window: this variant's rules and the controls.
fn help(mut contexts: EguiContexts, mut windows: ResMut<Windows>, table: Res<Table>) -> Result {
    if !windows.help {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let mut open = true;
    let v = &table.spec.variant;
    fixed_window(
        format!("Rules: {}", v.name),
        egui::Align2::CENTER_CENTER,
        egui::vec2(0.0, -20.0),
    )
    .default_width(520.0)
    .open(&mut open)
    .show(ctx, |ui| {
        egui::ScrollArea::vertical()
            .max_height(440.0)
            .show(ui, |ui| {
                ui.set_max_width(520.0);
                for (title, text) in crate::spider::rules::rules(v, &table.game.options()) {
                    ui.strong(title);
                    ui.label(text);
                    ui.add_space(4.0);
                }
                ui.separator();
                ui.strong("Controls");
                egui::Grid::new("controls").striped(true).show(ui, |ui| {
                    for (keys, what) in crate::spider::rules::CONTROLS {
                        ui.label(*keys);
                        ui.label(*what);
                        ui.end_row();
                    }
                });
            });
    });
    if !open {
        windows.help = false;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(v: &Variant, options: &GameOptions) -> String {
        rules(v, options).iter().map(|(_, p)| p.as_str()).collect()
    }

    #[test]
    fn every_variant_has_rules_that_follow_its_data() {
        for v in arachne_engine::variant::builtin() {
            let text = text(v, &GameOptions::for_variant(v));
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
        assert!(
            rules(rb, &GameOptions::for_variant(rb))[0]
                .1
                .contains("one colour")
        );
    }

    /// Issue 15's texts: the last short deal, the game's own undo limit, a redo's point.
    #[test]
    fn the_help_says_what_this_game_does() {
        let builtin = arachne_engine::variant::builtin();
        let three = builtin
            .iter()
            .find(|v| v.id == "spider-three-decks")
            .unwrap();
        let t = text(three, &GameOptions::for_variant(three));
        assert!(
            t.contains("onto every column eight times; the last deal gives one card each to the first six columns"),
            "{t}"
        );
        let two = builtin.iter().find(|v| v.id == "spider-2suit").unwrap();
        let t = text(two, &GameOptions::for_variant(two));
        assert!(t.contains("onto every column, five times."), "{t}");
        assert!(t.contains("undo and redo costs one point"), "{t}");
        assert!(t.contains("Undo as often as you like"), "{t}");
        let limited = GameOptions {
            undo_limit: Some(3),
            ..GameOptions::for_variant(two)
        };
        let t = text(two, &limited);
        assert!(t.contains("At most three undos in this game"), "{t}");
        assert!(!t.contains("as often as you like"), "{t}");
    }
}
