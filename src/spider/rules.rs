//! The rules of each variant in plain words, written from the variant's own data (so the help
//! always says what the engine does), the controls, and the help window that shows them. Every
//! text is in the language tables (`help.*`); counted things take their words from there too,
//! as each language counts differently ("one column", "einen Stapel", "fünfmal").
use arachne_engine::{DiscardMode, GameOptions, Grouping, Scoring, Variant};
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use crate::core::i18n::{Lang, fill, lang, lookup, t, tf, variant_name};
use crate::shell::widgets::{fitting_height, fitting_width, fixed_window};
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

/// The text of `key` in `lang`; the key comes first, so the tables' test checks it.
fn tr(key: &'static str, lang: Lang) -> &'static str {
    lookup(lang, key)
}

/// The keys of the numbers the tables write in words; a larger number is written in digits.
const NUMBERS: [&str; 21] = [
    "help.number.0",
    "help.number.1",
    "help.number.2",
    "help.number.3",
    "help.number.4",
    "help.number.5",
    "help.number.6",
    "help.number.7",
    "help.number.8",
    "help.number.9",
    "help.number.10",
    "help.number.11",
    "help.number.12",
    "help.number.13",
    "help.number.14",
    "help.number.15",
    "help.number.16",
    "help.number.17",
    "help.number.18",
    "help.number.19",
    "help.number.20",
];

/// `n` in words in `lang`, or in digits past twenty.
fn number(lang: Lang, n: usize) -> String {
    NUMBERS
        .get(n)
        .map_or_else(|| n.to_string(), |&key| tr(key, lang).to_string())
}

/// `n` things in `lang`: `one` is the whole phrase for one (its article varies with the
/// thing and the sentence), `many` has `{n}` for any other number in words.
fn count(lang: Lang, n: usize, one: &str, many: &str) -> String {
    count_or_digits(lang, n, one, many, many)
}

/// As [`count`], with `digits` instead of `many` for a number written in digits, for a
/// language that joins a number word to the thing but not digits ("fünfmal", "25-mal").
fn count_or_digits(lang: Lang, n: usize, one: &str, many: &str, digits: &str) -> String {
    match n {
        1 => one.to_string(),
        n if n < NUMBERS.len() => fill(many, &[("n", &number(lang, n))]),
        n => fill(digits, &[("n", &n)]),
    }
}

/// `s` with its first letter a capital.
fn capitalize(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().collect::<String>() + c.as_str())
        .unwrap_or_default()
}

/// The help for a game of `v` played with `options` (the discard mode, scoring and undo limit
/// of the game on the table, which the settings may have changed from the variant's), in the
/// overlay's language: aim, layout, moves, the stock, completed runs, scoring, undo and how the
/// statistics count.
pub fn rules(v: &Variant, options: &GameOptions) -> Vec<Section> {
    rules_in(lang(), v, options)
}

/// [`rules`] in `lang`.
pub fn rules_in(lang: Lang, v: &Variant, options: &GameOptions) -> Vec<Section> {
    let group = match v.grouping {
        Grouping::Suit => tr("help.group.suit", lang),
        Grouping::Color => tr("help.group.colour", lang),
    };
    let runs = count(
        lang,
        v.run_count(),
        tr("help.aim.runs.one", lang),
        tr("help.aim.runs.many", lang),
    );
    let aim = fill(
        tr("help.aim.text", lang),
        &[("group", &group), ("runs", &runs)],
    );
    let stock = stock(lang, v);
    let completed = match options.discard {
        DiscardMode::Automatic => tr("help.completed.automatic", lang),
        DiscardMode::Manual => tr("help.completed.manual", lang),
    };
    let scoring = match (options.scoring, v.grouping) {
        (Scoring::Microsoft, _) => tr("help.scoring.microsoft", lang),
        (Scoring::Links, Grouping::Suit) => tr("help.scoring.links.suit", lang),
        (Scoring::Links, Grouping::Color) => tr("help.scoring.links.colour", lang),
    };
    let undo = match options.undo_limit {
        None => tr("help.undo.unlimited", lang).to_string(),
        Some(0) => tr("help.undo.none", lang).to_string(),
        Some(n) => {
            let undos = count_or_digits(
                lang,
                n as usize,
                tr("help.undo.count.one", lang),
                tr("help.undo.count.many", lang),
                tr("help.undo.count.digits", lang),
            );
            fill(tr("help.undo.limited", lang), &[("undos", &undos)])
        }
    };
    vec![
        (tr("help.aim.title", lang), aim),
        (tr("help.layout.title", lang), layout(lang, v)),
        (
            tr("help.moves.title", lang),
            fill(tr("help.moves.text", lang), &[("group", &group)]),
        ),
        (tr("help.stock.title", lang), stock),
        (
            tr("help.completed.title", lang),
            fill(completed, &[("group", &group)]),
        ),
        (tr("help.scoring.title", lang), scoring.to_string()),
        (tr("help.undo.title", lang), undo),
        (
            tr("help.statistics.title", lang),
            tr("help.statistics.text", lang).to_string(),
        ),
    ]
}

/// The layout: the decks and the columns they are dealt into, each group of alike columns left
/// to right, and what the stock holds.
fn layout(lang: Lang, v: &Variant) -> String {
    let suits = count(
        lang,
        v.suits.len(),
        tr("help.layout.suits.one", lang),
        tr("help.layout.suits.many", lang),
    );
    let columns = count(
        lang,
        v.column_count(),
        tr("help.layout.columns.one", lang),
        tr("help.layout.columns.many", lang),
    );
    let decks = match v.decks {
        1 => tr("help.layout.one_deck", lang),
        _ => tr("help.layout.decks", lang),
    };
    let dealt = capitalize(&fill(
        decks,
        &[
            ("decks", &number(lang, usize::from(v.decks))),
            ("cards", &v.deck_size()),
            ("suits", &suits),
            ("columns", &columns),
        ],
    ));
    let groups: Vec<String> = v
        .tableau
        .iter()
        .map(|g| {
            let columns = count(
                lang,
                usize::from(g.columns),
                tr("help.layout.group_columns.one", lang),
                tr("help.layout.group_columns.many", lang),
            );
            let down = count(
                lang,
                usize::from(g.face_down),
                tr("help.layout.face_down.one", lang),
                tr("help.layout.face_down.many", lang),
            );
            let up = count(
                lang,
                usize::from(g.face_up),
                tr("help.layout.face_up.one", lang),
                tr("help.layout.face_up.many", lang),
            );
            let text = match (g.face_down, g.columns) {
                (0, 1) => tr("help.layout.group_open_single", lang),
                (0, _) => tr("help.layout.group_open", lang),
                (_, 1) => tr("help.layout.group_single", lang),
                _ => tr("help.layout.group", lang),
            };
            fill(text, &[("columns", &columns), ("down", &down), ("up", &up)])
        })
        .collect();
    let groups = fill(
        tr("help.layout.groups", lang),
        &[("groups", &groups.join("; "))],
    );
    let rest = fill(tr("help.layout.stock", lang), &[("cards", &v.stock_size())]);
    format!("{dealt} {groups} {rest}")
}

/// How the stock deals: how often, a short last deal, and whether a column may be empty.
fn stock(lang: Lang, v: &Variant) -> String {
    let times = |n: usize| {
        count_or_digits(
            lang,
            n,
            tr("help.stock.times.one", lang),
            tr("help.stock.times.many", lang),
            tr("help.stock.times.digits", lang),
        )
    };
    let deals = v.deal_count();
    // A stock that does not divide by the columns ends with a short deal (Spider Three Decks:
    // eight rows of twelve and a last deal of six).
    let short = v.stock_size() % v.column_count();
    let dealing = if short == 0 {
        fill(tr("help.stock.even", lang), &[("times", &times(deals))])
    } else {
        let first = count(
            lang,
            short,
            tr("help.stock.first.one", lang),
            tr("help.stock.first.many", lang),
        );
        fill(
            tr("help.stock.short", lang),
            &[("times", &times(deals - 1)), ("first", &first)],
        )
    };
    let empty = if v.deal_with_empty_column {
        tr("help.stock.any_time", lang)
    } else {
        tr("help.stock.no_empty", lang)
    };
    format!("{dealing} {empty}")
}

/// The controls, one (keys, what they do) pair of keys of the tables per line.
pub const CONTROLS: &[(&str, &str)] = &[
    ("help.controls.drag.keys", "help.controls.drag.what"),
    ("help.controls.click.keys", "help.controls.click.what"),
    (
        "help.controls.double_click.keys",
        "help.controls.double_click.what",
    ),
    ("help.controls.deal.keys", "help.controls.deal.what"),
    ("help.controls.choose.keys", "help.controls.choose.what"),
    ("help.controls.move.keys", "help.controls.move.what"),
    ("help.controls.take.keys", "help.controls.take.what"),
    ("help.controls.undo.keys", "help.controls.undo.what"),
    ("help.controls.redo.keys", "help.controls.redo.what"),
    ("help.controls.hint.keys", "help.controls.hint.what"),
    (
        "help.controls.autocomplete.keys",
        "help.controls.autocomplete.what",
    ),
    ("help.controls.new.keys", "help.controls.new.what"),
    ("help.controls.sound.keys", "help.controls.sound.what"),
    ("help.controls.menu.keys", "help.controls.menu.what"),
    ("help.controls.help.keys", "help.controls.help.what"),
    ("help.controls.replay.keys", "help.controls.replay.what"),
];

/// The help window: this variant's rules and the controls.
fn help(mut contexts: EguiContexts, mut windows: ResMut<Windows>, table: Res<Table>) -> Result {
    if !windows.help {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let mut open = true;
    let v = &table.spec.variant;
    // As wide as the text reads well, or as the screen leaves (a phone).
    let width = fitting_width(ctx).min(520.0);
    let high = fitting_height(ctx).min(440.0);
    fixed_window(
        tf("help.title", &[("name", &variant_name(&v.id, &v.name))]),
        egui::Align2::CENTER_CENTER,
        egui::vec2(0.0, -20.0),
    )
    .default_width(width)
    .open(&mut open)
    .show(ctx, |ui| {
        crate::shell::window_keys::keyboard_on_open(
            ui,
            "spider-rules",
            crate::shell::window_keys::OnOpen::Scroll,
        );
        egui::ScrollArea::vertical()
            .max_height(high)
            .show(ui, |ui| {
                crate::shell::window_keys::keyboard_scroll(ui);
                ui.set_max_width(width);
                for (title, text) in rules(v, &table.game.options()) {
                    ui.strong(title);
                    ui.label(text);
                    ui.add_space(4.0);
                }
                ui.separator();
                ui.strong(t("help.controls"));
                if width < 480.0 {
                    // A phone: the keys above what they do, wrapped, rather than a table
                    // wider than the screen.
                    for &(keys, what) in CONTROLS {
                        ui.strong(t(keys));
                        ui.label(t(what));
                    }
                } else {
                    egui::Grid::new("controls").striped(true).show(ui, |ui| {
                        for &(keys, what) in CONTROLS {
                            ui.label(t(keys));
                            ui.label(t(what));
                            ui.end_row();
                        }
                    });
                }
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
    use arachne_engine::variant::builtin;

    fn variant(id: &str) -> &'static Variant {
        builtin().iter().find(|v| v.id == id).unwrap()
    }

    fn text_in(lang: Lang, v: &Variant, options: &GameOptions) -> String {
        rules_in(lang, v, options)
            .iter()
            .map(|(_, p)| p.as_str())
            .collect()
    }

    fn text(v: &Variant, options: &GameOptions) -> String {
        text_in(Lang::En, v, options)
    }

    fn german(v: &Variant, options: &GameOptions) -> String {
        text_in(Lang::De, v, options)
    }

    #[test]
    fn every_variant_has_rules_that_follow_its_data() {
        for v in builtin() {
            let text = text(v, &GameOptions::for_variant(v));
            let columns = number(Lang::En, v.column_count());
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
        let rb = builtin()
            .iter()
            .find(|v| v.grouping == Grouping::Color)
            .unwrap();
        assert!(
            rules_in(Lang::En, rb, &GameOptions::for_variant(rb))[0]
                .1
                .contains("one colour")
        );
    }

    /// Issue 15's texts: the last short deal, the game's own undo limit, a redo's point.
    #[test]
    fn the_help_says_what_this_game_does() {
        let three = variant("spider-three-decks");
        let t = text(three, &GameOptions::for_variant(three));
        assert!(
            t.contains("onto every column eight times; the last deal gives one card each to the first six columns"),
            "{t}"
        );
        let two = variant("spider-2suit");
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

    /// The English sections, word for word, as they were before the texts moved to the tables.
    #[test]
    fn the_english_help_reads_as_before() {
        let two = variant("spider-2suit");
        let sections = rules_in(Lang::En, two, &GameOptions::for_variant(two));
        let titles: Vec<&str> = sections.iter().map(|(title, _)| *title).collect();
        assert_eq!(
            titles,
            [
                "Aim",
                "Layout",
                "Moves",
                "The stock",
                "Completed runs",
                "Scoring",
                "Undo",
                "Statistics"
            ]
        );
        assert_eq!(
            sections[1].1,
            "Two decks' worth of cards (104 cards in two suits) are dealt into ten columns. \
             The layout, left to right: four columns with five face down and one face up; six \
             columns with four face down and one face up. The other 50 cards wait in the stock."
        );
        let spiderette = variant("spiderette");
        let layout = &rules_in(Lang::En, spiderette, &GameOptions::for_variant(spiderette))[1].1;
        assert!(
            layout.starts_with(
                "One deck (52 cards in four suits) are dealt into seven columns. The layout, \
                 left to right: one column with no face down and one face up; one column with \
                 one face down and one face up; one column with two face down and one face up;"
            ),
            "{layout}"
        );
        let limited = GameOptions {
            undo_limit: Some(25),
            ..GameOptions::for_variant(two)
        };
        assert!(text(two, &limited).contains("At most 25 undos in this game"));
        let controls: Vec<(&str, &str)> = CONTROLS
            .iter()
            .map(|&(keys, what)| (lookup(Lang::En, keys), lookup(Lang::En, what)))
            .collect();
        assert_eq!(controls[0], ("Drag", "move a run; legal columns light up"));
        assert_eq!(controls[3], ("Click the stock, D", "deal"));
        assert_eq!(controls[6].0, "Up, Down");
        assert!(controls[6].1.starts_with("take up the chosen column's run"));
        assert_eq!(controls[12], ("M", "sound on/off"));
        assert_eq!(controls[14], ("F1", "this help"));
        assert_eq!(
            controls[15],
            (
                "In a replay",
                "Space or P play/pause, Left/Right step, Home/End jump, +/- speed, Esc close"
            )
        );
    }

    #[test]
    fn german_counts_with_its_own_words_and_cases() {
        assert_eq!(number(Lang::De, 12), "zwölf");
        assert_eq!(number(Lang::De, 21), "21");
        let two = variant("spider-2suit");
        let t = german(two, &GameOptions::for_variant(two));
        assert!(
            t.contains(
                "Zwei Kartenspiele (104 Karten in zwei Farben) werden auf zehn Stapel verteilt. \
                 Die Auslage von links nach rechts: vier Stapel mit je fünf verdeckten und \
                 einer offenen Karte; sechs Stapel mit je vier verdeckten und einer offenen \
                 Karte. Die übrigen 50 Karten warten im Talon."
            ),
            "{t}"
        );
        assert!(
            t.contains("Der Talon wird fünfmal ausgeteilt, jedes Mal eine Karte auf jeden Stapel."),
            "{t}"
        );
        assert!(t.contains("insgesamt acht Folgen"), "{t}");
        let one = variant("spider-1suit");
        assert!(german(one, &GameOptions::for_variant(one)).contains("in einer Farbe)"));
        let spiderette = variant("spiderette");
        let t = german(spiderette, &GameOptions::for_variant(spiderette));
        assert!(
            t.contains(
                "Ein Kartenspiel (52 Karten in vier Farben) wird auf sieben Stapel verteilt. \
                 Die Auslage von links nach rechts: ein Stapel mit einer offenen Karte; ein \
                 Stapel mit einer verdeckten und einer offenen Karte; ein Stapel mit zwei \
                 verdeckten und einer offenen Karte;"
            ),
            "{t}"
        );
        assert!(t.contains("insgesamt vier Folgen"), "{t}");
    }

    /// Spider Three Decks' stock: eight full deals, then one for the first six columns.
    #[test]
    fn german_tells_of_the_short_last_deal() {
        let three = variant("spider-three-decks");
        let sections = rules_in(Lang::De, three, &GameOptions::for_variant(three));
        let (title, stock) = &sections[3];
        assert_eq!(*title, "Der Talon");
        assert_eq!(
            stock,
            "Der Talon wird achtmal voll ausgeteilt, jedes Mal eine Karte auf jeden Stapel; \
             beim letzten Austeilen reichen die Karten nur noch für die ersten sechs Stapel von \
             links. Er darf jederzeit ausgeteilt werden, auch wenn ein Stapel leer ist."
        );
        assert!(sections[1].1.starts_with(
            "Drei Kartenspiele (156 Karten in vier Farben) werden auf zwölf Stapel verteilt."
        ));
        let two = variant("spider-2suit");
        let stock = &rules_in(Lang::De, two, &GameOptions::for_variant(two))[3].1;
        assert!(
            stock.ends_with(
                "Vor jedem Austeilen muss auf jedem Stapel mindestens eine Karte liegen."
            ),
            "{stock}"
        );
    }

    #[test]
    fn german_states_the_undo_limit() {
        let two = variant("spider-2suit");
        let undo = |limit: Option<u32>| {
            let options = GameOptions {
                undo_limit: limit,
                ..GameOptions::for_variant(two)
            };
            let sections = rules_in(Lang::De, two, &options);
            assert_eq!(sections[6].0, "Rückgängig");
            sections[6].1.clone()
        };
        assert_eq!(undo(None), "Du darfst beliebig oft rückgängig machen.");
        assert_eq!(
            undo(Some(0)),
            "In diesem Spiel kann nichts rückgängig gemacht werden."
        );
        assert_eq!(
            undo(Some(3)),
            "In diesem Spiel darfst du höchstens dreimal rückgängig machen; der Knopf \
             „Rückgängig“ zeigt, wie oft noch."
        );
        assert!(undo(Some(1)).contains("höchstens einmal rückgängig"));
        assert!(undo(Some(20)).contains("höchstens zwanzigmal rückgängig"));
        assert!(undo(Some(25)).contains("höchstens 25-mal rückgängig"));
    }

    /// The discard text follows the game's mode: the variant's, or the settings' instead.
    #[test]
    fn german_says_how_each_variant_discards() {
        let manual_text = "bleibt liegen, bis du sie ablegst: doppelt anklicken";
        let automatic_text = "verlässt den Tisch von selbst";
        for v in builtin() {
            let t = german(v, &GameOptions::for_variant(v));
            let manual = v.discard == DiscardMode::Manual;
            assert_eq!(t.contains(manual_text), manual, "{}: {t}", v.id);
            assert_eq!(t.contains(automatic_text), !manual, "{}: {t}", v.id);
            let empty = t.contains("auch wenn ein Stapel leer ist");
            assert_eq!(empty, v.deal_with_empty_column, "{}", v.id);
            for discard in [DiscardMode::Automatic, DiscardMode::Manual] {
                let options = GameOptions {
                    discard,
                    ..GameOptions::for_variant(v)
                };
                let completed = &rules_in(Lang::De, v, &options)[4];
                assert_eq!(completed.0, "Fertige Folgen");
                assert_eq!(
                    completed.1.contains(manual_text),
                    discard == DiscardMode::Manual,
                    "{}",
                    v.id
                );
            }
        }
    }

    #[test]
    fn german_red_black_spider_groups_by_red_and_black() {
        let rb = variant("red-black-spider");
        assert_eq!(rb.grouping, Grouping::Color);
        let sections = rules_in(Lang::De, rb, &GameOptions::for_variant(rb));
        assert!(
            sections[0].1.contains(
                "Folgen vom König abwärts bis zum Ass, die ganz rot oder ganz schwarz sind"
            ),
            "{}",
            sections[0].1
        );
        assert!(
            sections[2]
                .1
                .contains("nur das Ende, das ganz rot oder ganz schwarz ist")
        );
        assert!(
            sections[4]
                .1
                .contains("die ganz rot oder ganz schwarz ist, bleibt liegen")
        );
        assert!(
            sections[5]
                .1
                .contains("wenn beide rot oder beide schwarz sind")
        );
        let all: String = sections.iter().map(|(_, p)| p.as_str()).collect();
        assert!(!all.contains("ganz in einer Farbe"), "{all}");
        // A suit game speaks of one suit instead.
        let four = variant("spider-4suit");
        let t = german(four, &GameOptions::for_variant(four));
        assert!(t.contains("die ganz in einer Farbe sind"), "{t}");
        assert!(!t.contains("rot oder"), "{t}");
    }

    /// No English word, and no key without a text, in any German section of any variant under
    /// any options; the controls are German too.
    #[test]
    fn no_english_is_left_in_the_german_help() {
        const ENGLISH: &[&str] = &[
            "column", "columns", "run", "runs", "suit", "suits", "colour", "deck", "decks",
            "stock", "card", "cards", "the", "and", "with", "face", "down", "up", "time", "times",
            "undo", "undos", "no", "one", "two", "three", "every", "move", "moves", "deal", "at",
            "most", "of", "to", "is", "help", "click", "drag", "replay", "arrows", "space", "ctrl",
            "menu", "new", "hint",
        ];
        let english = |text: &str| -> Vec<String> {
            text.split(|c: char| !c.is_alphabetic())
                .map(str::to_lowercase)
                .filter(|w| ENGLISH.contains(&w.as_str()))
                .collect()
        };
        for v in builtin() {
            for discard in [DiscardMode::Automatic, DiscardMode::Manual] {
                for scoring in [Scoring::Microsoft, Scoring::Links] {
                    for undo_limit in [None, Some(0), Some(1), Some(7), Some(100)] {
                        let options = GameOptions {
                            discard,
                            scoring,
                            undo_limit,
                        };
                        let de = rules_in(Lang::De, v, &options);
                        let en = rules_in(Lang::En, v, &options);
                        assert_eq!(de.len(), en.len());
                        for ((title, text), (en_title, en_text)) in de.iter().zip(&en) {
                            assert_ne!(title, en_title, "{}", v.id);
                            assert_ne!(text, en_text, "{}", v.id);
                            let found = english(&format!("{title} {text}"));
                            assert!(found.is_empty(), "{}: {found:?} in {text}", v.id);
                            assert!(!text.contains("help."), "{}: {text}", v.id);
                        }
                    }
                }
            }
        }
        for &(keys, what) in CONTROLS {
            let found = english(lookup(Lang::De, what));
            assert!(found.is_empty(), "{what}: {found:?}");
            assert_ne!(lookup(Lang::De, what), lookup(Lang::En, what), "{what}");
            assert!(!lookup(Lang::De, keys).starts_with("help."), "{keys}");
        }
        assert_eq!(lookup(Lang::De, "help.controls"), "Steuerung");
        assert_eq!(
            fill(lookup(Lang::De, "help.title"), &[("name", &"Spider")]),
            "Regeln: Spider"
        );
    }

    /// The keys the code names outside calls of `tr` (numbers, controls) have texts.
    #[test]
    fn every_number_and_control_has_a_text_in_both_languages() {
        let keys: Vec<&'static str> = NUMBERS
            .iter()
            .copied()
            .chain(CONTROLS.iter().flat_map(|&(keys, what)| [keys, what]))
            .collect();
        for key in keys {
            for lang in Lang::ALL {
                assert_ne!(lookup(lang, key), key, "{lang:?}: {key}");
            }
        }
    }
}
