//! Deutsch: Spiders Regeln und das Hilfefenster (ein Teil der Tabelle; siehe die Beschreibung
//! des Moduls).

/// Schlüssel und Text.
pub const STRINGS: &[(&str, &str)] = &[
    // Das Fenster.
    ("help.title", "Regeln: {name}"),
    ("help.controls", "Steuerung"),
    // Zahlen in Worten (größere Zahlen stehen in Ziffern).
    ("help.number.0", "null"),
    ("help.number.1", "eins"),
    ("help.number.2", "zwei"),
    ("help.number.3", "drei"),
    ("help.number.4", "vier"),
    ("help.number.5", "fünf"),
    ("help.number.6", "sechs"),
    ("help.number.7", "sieben"),
    ("help.number.8", "acht"),
    ("help.number.9", "neun"),
    ("help.number.10", "zehn"),
    ("help.number.11", "elf"),
    ("help.number.12", "zwölf"),
    ("help.number.13", "dreizehn"),
    ("help.number.14", "vierzehn"),
    ("help.number.15", "fünfzehn"),
    ("help.number.16", "sechzehn"),
    ("help.number.17", "siebzehn"),
    ("help.number.18", "achtzehn"),
    ("help.number.19", "neunzehn"),
    ("help.number.20", "zwanzig"),
    // Was eine Folge zusammenhält: `{group}` im Ziel, in den Zügen und bei fertigen Folgen
    // („… die {group} ist“).
    ("help.group.suit", "ganz in einer Farbe"),
    ("help.group.colour", "ganz rot oder ganz schwarz"),
    // Das Ziel.
    ("help.aim.title", "Ziel"),
    (
        "help.aim.text",
        "Ordne alle Karten zu Folgen vom König abwärts bis zum Ass, die {group} sind, und lege sie ab: insgesamt {runs}. Das Spiel ist gewonnen, wenn die letzte Folge vom Tisch ist.",
    ),
    ("help.aim.runs.one", "eine Folge"),
    ("help.aim.runs.many", "{n} Folgen"),
    // Die Auslage.
    ("help.layout.title", "Auslage"),
    (
        "help.layout.one_deck",
        "Ein Kartenspiel ({cards} Karten in {suits}) wird auf {columns} verteilt.",
    ),
    (
        "help.layout.decks",
        "{decks} Kartenspiele ({cards} Karten in {suits}) werden auf {columns} verteilt.",
    ),
    ("help.layout.suits.one", "einer Farbe"),
    ("help.layout.suits.many", "{n} Farben"),
    ("help.layout.columns.one", "einen Stapel"),
    ("help.layout.columns.many", "{n} Stapel"),
    (
        "help.layout.groups",
        "Die Auslage von links nach rechts: {groups}.",
    ),
    // Eine Gruppe gleicher Stapel (`_single`: eine Gruppe aus einem Stapel).
    ("help.layout.group", "{columns} mit je {down} und {up}"),
    ("help.layout.group_single", "{columns} mit {down} und {up}"),
    ("help.layout.group_open", "{columns} mit je {up}"),
    ("help.layout.group_open_single", "{columns} mit {up}"),
    ("help.layout.group_columns.one", "ein Stapel"),
    ("help.layout.group_columns.many", "{n} Stapel"),
    ("help.layout.face_down.one", "einer verdeckten"),
    ("help.layout.face_down.many", "{n} verdeckten"),
    ("help.layout.face_up.one", "einer offenen Karte"),
    ("help.layout.face_up.many", "{n} offenen Karten"),
    (
        "help.layout.stock",
        "Die übrigen {cards} Karten warten im Talon.",
    ),
    // Die Züge.
    ("help.moves.title", "Züge"),
    (
        "help.moves.text",
        "Jede offene Karte darf auf eine um eins höhere Karte gelegt werden, egal welcher Farbe (eine Fünf auf jede Sechs). Eine absteigende Folge, die {group} ist, lässt sich als Ganzes verschieben; von einer gemischten Folge nur das Ende, das {group} ist. Jede Karte und jede verschiebbare Folge darf auf einen leeren Stapel gelegt werden. Eine verdeckte Karte wird aufgedeckt, sobald sie frei liegt.",
    ),
    // Der Talon.
    ("help.stock.title", "Der Talon"),
    (
        "help.stock.even",
        "Der Talon wird {times} ausgeteilt, jedes Mal eine Karte auf jeden Stapel.",
    ),
    (
        "help.stock.short",
        "Der Talon wird {times} voll ausgeteilt, jedes Mal eine Karte auf jeden Stapel; beim letzten Austeilen reichen die Karten nur noch für {first} von links.",
    ),
    ("help.stock.times.one", "einmal"),
    ("help.stock.times.many", "{n}mal"),
    ("help.stock.times.digits", "{n}-mal"),
    ("help.stock.first.one", "den ersten Stapel"),
    ("help.stock.first.many", "die ersten {n} Stapel"),
    (
        "help.stock.any_time",
        "Er darf jederzeit ausgeteilt werden, auch wenn ein Stapel leer ist.",
    ),
    (
        "help.stock.no_empty",
        "Vor jedem Austeilen muss auf jedem Stapel mindestens eine Karte liegen.",
    ),
    // Fertige Folgen.
    ("help.completed.title", "Fertige Folgen"),
    (
        "help.completed.automatic",
        "Eine Folge vom König bis zum Ass, die {group} ist, verlässt den Tisch von selbst, sobald sie vollständig ist.",
    ),
    (
        "help.completed.manual",
        "Eine Folge vom König bis zum Ass, die {group} ist, bleibt liegen, bis du sie ablegst: doppelt anklicken (oder ihren Stapel wählen und Enter drücken). Du darfst sie auch liegen lassen und ihre Karten weiter verwenden.",
    ),
    // Die Punkte.
    ("help.scoring.title", "Punkte"),
    (
        "help.scoring.microsoft",
        "Du beginnst mit 500 Punkten. Jeder Zug, jedes Austeilen, jedes Rückgängigmachen und jedes Wiederholen kostet einen Punkt; jede fertige Folge bringt 100.",
    ),
    (
        "help.scoring.links.suit",
        "Einen Punkt für jede Karte, die auf der um eins höheren Karte derselben Farbe liegt, und 12 für jede fertige Folge.",
    ),
    (
        "help.scoring.links.colour",
        "Einen Punkt für jede Karte, die auf der um eins höheren Karte liegt, wenn beide rot oder beide schwarz sind, und 12 für jede fertige Folge.",
    ),
    // Rückgängig.
    ("help.undo.title", "Rückgängig"),
    (
        "help.undo.unlimited",
        "Du darfst beliebig oft rückgängig machen.",
    ),
    (
        "help.undo.none",
        "In diesem Spiel kann nichts rückgängig gemacht werden.",
    ),
    (
        "help.undo.limited",
        "In diesem Spiel darfst du höchstens {undos} rückgängig machen; der Knopf „Rückgängig“ zeigt, wie oft noch.",
    ),
    ("help.undo.count.one", "einmal"),
    ("help.undo.count.many", "{n}mal"),
    ("help.undo.count.digits", "{n}-mal"),
    // Die Statistik.
    ("help.statistics.title", "Statistik"),
    (
        "help.statistics.text",
        "Ein Sieg zählt nur einmal, auch wenn du Züge zurücknimmst und noch einmal gewinnst. Ein Spiel, das du nach einem Zug verlässt, zählt als verloren. Ein Spiel, bei dem der Löser geholfen hat („Automatisch beenden“ oder seine Vorführung des Spiels), zählt als gespielt und gewonnen, aber nie als Bestzeit, Bestpunktzahl oder Teil einer Serie.",
    ),
    // Die Steuerung: die Tasten und was sie tun.
    ("help.controls.drag.keys", "Ziehen"),
    (
        "help.controls.drag.what",
        "eine Folge verschieben; erlaubte Stapel leuchten auf",
    ),
    ("help.controls.click.keys", "Klick"),
    (
        "help.controls.click.what",
        "eine Folge auf den besten Stapel legen",
    ),
    ("help.controls.double_click.keys", "Doppelklick"),
    (
        "help.controls.double_click.what",
        "eine fertige Folge ablegen (Ablegen von Hand)",
    ),
    ("help.controls.deal.keys", "Klick auf den Talon, D"),
    ("help.controls.deal.what", "austeilen"),
    (
        "help.controls.choose.keys",
        "Pfeil links, Pfeil rechts, Tab",
    ),
    ("help.controls.choose.what", "einen Stapel wählen"),
    ("help.controls.move.keys", "Enter, Leertaste"),
    (
        "help.controls.move.what",
        "vom gewählten Stapel aus verschieben (ist keiner gewählt: den ersten wählen)",
    ),
    ("help.controls.take.keys", "Pfeil hoch, Pfeil runter"),
    (
        "help.controls.take.what",
        "die Folge des gewählten Stapels aufnehmen (noch einmal runter: weniger Karten); dann wählen Pfeil links und rechts, wohin sie geht, Enter legt sie ab, Esc lässt sie los",
    ),
    ("help.controls.undo.keys", "Strg+Z, U"),
    ("help.controls.undo.what", "rückgängig"),
    ("help.controls.redo.keys", "Strg+Y, Strg+Umschalt+Z, R"),
    ("help.controls.redo.what", "wiederholen"),
    ("help.controls.hint.keys", "H"),
    ("help.controls.hint.what", "Tipp (Esc bricht eine Suche ab)"),
    ("help.controls.autocomplete.keys", "A"),
    ("help.controls.autocomplete.what", "automatisch beenden"),
    ("help.controls.new.keys", "N"),
    ("help.controls.new.what", "neues Spiel"),
    ("help.controls.sound.keys", "M"),
    ("help.controls.sound.what", "Ton an/aus"),
    ("help.controls.menu.keys", "Esc"),
    ("help.controls.menu.what", "Menü"),
    ("help.controls.help.keys", "F1"),
    ("help.controls.help.what", "diese Hilfe"),
    ("help.controls.replay.keys", "In einer Wiederholung"),
    (
        "help.controls.replay.what",
        "Leertaste oder P Abspielen/Pause, Pfeil links/rechts Schritt für Schritt, Pos1/Ende springen, +/- Tempo, Esc schließen",
    ),
];
