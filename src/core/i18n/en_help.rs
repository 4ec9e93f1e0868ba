//! English: Spider's rules and help window (a part of the table; see the module's description).

/// Keys and texts.
pub const STRINGS: &[(&str, &str)] = &[
    // The window.
    ("help.title", "Rules: {name}"),
    ("help.controls", "Controls"),
    // Numbers in words (a larger number is written in digits).
    ("help.number.0", "no"),
    ("help.number.1", "one"),
    ("help.number.2", "two"),
    ("help.number.3", "three"),
    ("help.number.4", "four"),
    ("help.number.5", "five"),
    ("help.number.6", "six"),
    ("help.number.7", "seven"),
    ("help.number.8", "eight"),
    ("help.number.9", "nine"),
    ("help.number.10", "ten"),
    ("help.number.11", "eleven"),
    ("help.number.12", "twelve"),
    ("help.number.13", "thirteen"),
    ("help.number.14", "fourteen"),
    ("help.number.15", "fifteen"),
    ("help.number.16", "sixteen"),
    ("help.number.17", "seventeen"),
    ("help.number.18", "eighteen"),
    ("help.number.19", "nineteen"),
    ("help.number.20", "twenty"),
    // What a run holds together: `{group}` in the aim, the moves and the completed runs.
    ("help.group.suit", "suit"),
    ("help.group.colour", "colour"),
    // The aim.
    ("help.aim.title", "Aim"),
    (
        "help.aim.text",
        "Build every card into runs from King down to Ace of one {group}, and remove them: {runs} in all. The game is won when the last run is gone.",
    ),
    ("help.aim.runs.one", "one run"),
    ("help.aim.runs.many", "{n} runs"),
    // The layout.
    ("help.layout.title", "Layout"),
    (
        "help.layout.one_deck",
        "One deck ({cards} cards in {suits}) are dealt into {columns}.",
    ),
    (
        "help.layout.decks",
        "{decks} decks' worth of cards ({cards} cards in {suits}) are dealt into {columns}.",
    ),
    ("help.layout.suits.one", "one suit"),
    ("help.layout.suits.many", "{n} suits"),
    ("help.layout.columns.one", "one column"),
    ("help.layout.columns.many", "{n} columns"),
    ("help.layout.groups", "The layout, left to right: {groups}."),
    // One group of alike columns (`_single`: a group of one column).
    ("help.layout.group", "{columns} with {down} and {up}"),
    ("help.layout.group_single", "{columns} with {down} and {up}"),
    (
        "help.layout.group_open",
        "{columns} with no face down and {up}",
    ),
    (
        "help.layout.group_open_single",
        "{columns} with no face down and {up}",
    ),
    ("help.layout.group_columns.one", "one column"),
    ("help.layout.group_columns.many", "{n} columns"),
    ("help.layout.face_down.one", "one face down"),
    ("help.layout.face_down.many", "{n} face down"),
    ("help.layout.face_up.one", "one face up"),
    ("help.layout.face_up.many", "{n} face up"),
    (
        "help.layout.stock",
        "The other {cards} cards wait in the stock.",
    ),
    // The moves.
    ("help.moves.title", "Moves"),
    (
        "help.moves.text",
        "Any face-up card may go on a card one rank higher, whatever its suit (a Five on any Six). A run of cards in descending order and of one {group} moves together; a mixed run moves only from where it stops being one {group}. Any card or movable run may go to an empty column. A face-down card turns up when it is uncovered.",
    ),
    // The stock.
    ("help.stock.title", "The stock"),
    (
        "help.stock.even",
        "The stock deals one card onto every column, {times}.",
    ),
    (
        "help.stock.short",
        "The stock deals one card onto every column {times}; the last deal gives one card each to {first} from the left.",
    ),
    ("help.stock.times.one", "one time"),
    ("help.stock.times.many", "{n} times"),
    ("help.stock.times.digits", "{n} times"),
    ("help.stock.first.one", "the first one column"),
    ("help.stock.first.many", "the first {n} columns"),
    (
        "help.stock.any_time",
        "It may be dealt at any time, even when a column is empty.",
    ),
    (
        "help.stock.no_empty",
        "Every column must hold at least one card before a deal.",
    ),
    // Completed runs.
    ("help.completed.title", "Completed runs"),
    (
        "help.completed.automatic",
        "A run from King to Ace of one {group} leaves the table by itself as soon as it is complete.",
    ),
    (
        "help.completed.manual",
        "A run from King to Ace of one {group} stays until you remove it: double-click it (or select its column and press Enter). You may also leave it and keep using its cards.",
    ),
    // Scoring.
    ("help.scoring.title", "Scoring"),
    (
        "help.scoring.microsoft",
        "You start with 500 points. Every move, deal, undo and redo costs one point; every completed run earns 100.",
    ),
    (
        "help.scoring.links.suit",
        "One point for every card sitting on the next rank up of the same group, and 12 for every completed run.",
    ),
    (
        "help.scoring.links.colour",
        "One point for every card sitting on the next rank up of the same group, and 12 for every completed run.",
    ),
    // Undo.
    ("help.undo.title", "Undo"),
    ("help.undo.unlimited", "Undo as often as you like."),
    ("help.undo.none", "This game allows no undo."),
    (
        "help.undo.limited",
        "At most {undos} in this game; the Undo button counts down what is left.",
    ),
    ("help.undo.count.one", "one undo"),
    ("help.undo.count.many", "{n} undos"),
    ("help.undo.count.digits", "{n} undos"),
    // Statistics.
    ("help.statistics.title", "Statistics"),
    (
        "help.statistics.text",
        "A win counts once, even if you undo and win again. Leaving a game after a move counts as a loss. A game the solver helped with (auto-complete, or its demo of the deal) counts as played and won, but never as a best time, best score or part of a streak.",
    ),
    // The controls: the keys, and what they do.
    ("help.controls.drag.keys", "Drag"),
    (
        "help.controls.drag.what",
        "move a run; legal columns light up",
    ),
    ("help.controls.click.keys", "Click"),
    ("help.controls.click.what", "move a run to the best column"),
    ("help.controls.double_click.keys", "Double-click"),
    (
        "help.controls.double_click.what",
        "remove a completed run (manual discard)",
    ),
    ("help.controls.deal.keys", "Click the stock, D"),
    ("help.controls.deal.what", "deal"),
    ("help.controls.choose.keys", "Left, Right, Tab"),
    ("help.controls.choose.what", "choose a column"),
    ("help.controls.move.keys", "Enter, Space"),
    (
        "help.controls.move.what",
        "move from the chosen column (with none chosen: choose the first)",
    ),
    ("help.controls.take.keys", "Up, Down"),
    (
        "help.controls.take.what",
        "take up the chosen column's run (Down again: fewer cards); then Left, Right choose where it goes, Enter places it, Esc lets go",
    ),
    ("help.controls.undo.keys", "Ctrl+Z, U"),
    ("help.controls.undo.what", "undo"),
    ("help.controls.redo.keys", "Ctrl+Y, Ctrl+Shift+Z, R"),
    ("help.controls.redo.what", "redo"),
    ("help.controls.hint.keys", "H"),
    ("help.controls.hint.what", "hint (Esc stops a search)"),
    ("help.controls.autocomplete.keys", "A"),
    ("help.controls.autocomplete.what", "auto-complete"),
    ("help.controls.new.keys", "N"),
    ("help.controls.new.what", "new deal"),
    ("help.controls.sound.keys", "M"),
    ("help.controls.sound.what", "sound on/off"),
    ("help.controls.menu.keys", "Esc"),
    ("help.controls.menu.what", "menu"),
    ("help.controls.help.keys", "F1"),
    ("help.controls.help.what", "this help"),
    ("help.controls.replay.keys", "In a replay"),
    (
        "help.controls.replay.what",
        "Space or P play/pause, Left/Right step, Home/End jump, +/- speed, Esc close",
    ),
];
