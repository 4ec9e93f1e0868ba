//! Deutsch: Spiders Fenster (Menü, Statistik, Wiederholungen, Einstellungen) und die Hinweise
//! seiner Hilfen und Spielstände (ein Teil der Tabelle; siehe die Beschreibung des Moduls).

/// Schlüssel und Text.
pub const STRINGS: &[(&str, &str)] = &[
    // Das Menü.
    ("spider.menu.continue", "Weiterspielen"),
    ("spider.menu.restart", "Dieses Spiel neu beginnen"),
    ("spider.menu.demo", "Dem Löser beim Spielen zusehen"),
    (
        "spider.menu.demo_hover",
        "Eine Vorführung dieses Spiels von Anfang an",
    ),
    ("spider.menu.history", "Dieses Spiel noch einmal ansehen"),
    ("spider.menu.new_game", "Neues Spiel"),
    ("spider.difficulty.easy", "Leicht"),
    ("spider.difficulty.medium", "Mittel"),
    ("spider.difficulty.hard", "Schwer"),
    ("spider.difficulty.expert", "Für Experten"),
    ("spider.menu.deal_number", "Spielnummer"),
    ("spider.menu.random", "zufällig"),
    ("spider.menu.kpat", "KPatience-Nummerierung"),
    ("spider.menu.winnable", "Nur gewinnbare Spiele"),
    (
        "spider.menu.winnable_hover",
        "Zufällig ausgeteilt werden nur Spiele, die der Löser gewonnen hat (das dauert höchstens ein paar Sekunden)",
    ),
    ("spider.menu.not_a_number", "`{seed}` ist keine Spielnummer"),
    ("spider.menu.no_variant", "keine Variante `{variant}`"),
    ("spider.menu.deal", "Austeilen"),
    (
        "spider.menu.deal_winnable",
        "Ein gewinnbares Spiel austeilen",
    ),
    ("spider.menu.statistics", "Statistik"),
    ("spider.menu.settings", "Einstellungen"),
    ("spider.menu.replays", "Wiederholungen"),
    ("spider.menu.help", "Regeln und Hilfe"),
    (
        "spider.menu.phase10",
        "Pro Spider 10 spielen (das Rommé-Spiel)",
    ),
    ("spider.abandon.title", "Dieses Spiel aufgeben?"),
    (
        "spider.abandon.text",
        "Das laufende Spiel zählt in der Statistik als verloren.",
    ),
    ("spider.abandon.yes", "Aufgeben"),
    ("spider.abandon.no", "Weiterspielen"),
    // Die Statistik.
    ("spider.stats.title", "Statistik"),
    ("spider.stats.variant", "Variante"),
    ("spider.stats.played", "Gespielt"),
    ("spider.stats.won", "Gewonnen"),
    ("spider.stats.win_percent", "Siege %"),
    ("spider.stats.streak", "Serie"),
    ("spider.stats.best_streak", "Beste Serie"),
    ("spider.stats.loss_streak", "Niederlagen in Folge"),
    ("spider.stats.best_time", "Bestzeit"),
    ("spider.stats.best_score", "Beste Punktzahl"),
    ("spider.stats.fewest_moves", "Wenigste Züge"),
    ("spider.stats.won_helped", "{won} ({helped} mit Hilfe)"),
    ("spider.stats.percent", "{percent} %"),
    ("spider.stats.reset_q", "Zurücksetzen?"),
    ("spider.stats.reset_yes", "Ja, zurücksetzen"),
    ("spider.stats.reset_no", "Nein"),
    ("spider.stats.reset", "Zurücksetzen …"),
    (
        "spider.stats.note_count",
        "Ein Spiel zählt, wenn es gewonnen ist oder nach mindestens einem Zug für ein anderes verlassen wird.",
    ),
    (
        "spider.stats.note_helped",
        "Siege, bei denen der Löser geholfen hat, zählen als gewonnen, aber nie als Bestwert oder in einer Serie.",
    ),
    (
        "spider.stats.not_saved",
        "Die Statistik ließ sich nicht speichern: {why}",
    ),
    // Die Wiederholungen.
    ("spider.replays.title", "Wiederholungen"),
    (
        "spider.replays.this_game",
        "Dieses Spiel vom Austeilen an ansehen",
    ),
    (
        "spider.replays.none",
        "Beendete Spiele werden hier aufbewahrt (die letzten 50).",
    ),
    // Nach „in“ und „nach“: der Dativ.
    ("spider.replays.one_move", "1 Zug"),
    ("spider.replays.moves", "{moves} Zügen"),
    (
        "spider.replays.won",
        "{name}, Spiel {deal}: in {moves} gewonnen",
    ),
    (
        "spider.replays.lost",
        "{name}, Spiel {deal}: nach {moves} verloren",
    ),
    ("spider.replays.watch", "Ansehen"),
    (
        "spider.replays.unreadable",
        "Ein aufbewahrtes Spiel, das sich nicht lesen lässt ({why})",
    ),
    (
        "spider.replays.cannot_show",
        "Diese Wiederholung lässt sich nicht zeigen: {why}",
    ),
    (
        "spider.replays.unknown_variant",
        "unbekannte Variante `{variant}`",
    ),
    // Die Tipps.
    (
        "spider.hint.discard",
        "Tipp: klicke die fertige Folge in Stapel {column} doppelt an (oder wähle den Stapel und drücke Enter), um sie abzulegen",
    ),
    (
        "spider.hint.guess",
        "Tipp: Von hier ist kein Weg zum Sieg bekannt; dieser Zug sieht am besten aus",
    ),
    (
        "spider.hint.deal",
        "Tipp: teile eine Reihe vom Talon aus (klicke ihn an oder drücke D)",
    ),
    // Das gespeicherte Spiel.
    (
        "spider.save.unreadable",
        "das gespeicherte Spiel ließ sich nicht lesen: {why}",
    ),
    (
        "spider.save.set_aside",
        "das gespeicherte Spiel ließ sich nicht fortsetzen ({why}); es wurde als {backup} aufbewahrt",
    ),
    (
        "spider.save.not_resumed",
        "das gespeicherte Spiel ließ sich nicht fortsetzen ({why})",
    ),
    (
        "spider.save.given_up",
        "das gespeicherte Spiel ({variant}, Spiel {deal}, {moves}) zählt als aufgegeben: die Befehlszeile oder der Link verlangte ein anderes Spiel",
    ),
    // Gespeicherte Daten beider Spiele (Einstellungen, Statistik).
    (
        "persist.unreadable",
        "die gespeicherten Daten „{key}“ ließen sich nicht lesen: {why}",
    ),
    (
        "persist.newer",
        "die gespeicherten Daten „{key}“ stammen von einem neueren Arachne (Format {format}, dieses liest bis {max})",
    ),
    (
        "persist.damaged",
        "die gespeicherten Daten „{key}“ sind beschädigt ({why})",
    ),
    (
        "persist.kept_as",
        "{problem}; sie wurden als {backup} aufbewahrt, es gelten die Standardwerte",
    ),
    ("persist.defaults", "{problem}; es gelten die Standardwerte"),
    (
        "persist.no_data_dir",
        "Hier gibt es kein Datenverzeichnis für das Spiel (kein Home-Verzeichnis): Spiel, Statistik und Einstellungen bleiben nur, bis es beendet wird",
    ),
    (
        "persist.settings_out_of_range",
        "Gespeicherte Einstellungen außerhalb ihres Bereichs wurden auf ihre Standardwerte zurückgesetzt: {fields}",
    ),
    (
        "persist.left",
        "{problem}; es gelten die Standardwerte, und die Daten bleiben, wie sie sind: nichts wird darüber gespeichert, bis Arachne neu startet",
    ),
    (
        "persist.held",
        "die gespeicherten Daten „{key}“ ließen sich beim Start nicht lesen und werden nicht überschrieben",
    ),
    // Das Fenster der Einstellungen (beide Spiele).
    ("settings.title", "Einstellungen"),
    ("settings.look", "Aussehen"),
    ("settings.theme", "Design"),
    ("settings.theme.classic", "Klassisch"),
    ("settings.theme.midnight", "Mitternacht"),
    ("settings.card_back", "Kartenrücken"),
    ("settings.themes", "Wie im Design"),
    ("settings.back.plain", "Schlicht"),
    ("settings.back.lattice", "Gitter"),
    ("settings.back.dots", "Punkte"),
    ("settings.back_colour", "Rückenfarbe"),
    ("settings.own_colour", "eigene Farbe"),
    ("settings.deck", "Kartenspiel"),
    ("settings.two_colours", "Zwei Farben"),
    ("settings.four_colours", "Vier Farben"),
    ("settings.motion", "Bewegung"),
    ("settings.speed", "Tempo"),
    ("settings.easing", "Bewegungskurve"),
    ("settings.easing.linear", "Gleichmäßig"),
    ("settings.easing.quadratic_out", "Quadratisch, abbremsend"),
    (
        "settings.easing.quadratic_in_out",
        "Quadratisch, anfahrend und abbremsend",
    ),
    ("settings.easing.cubic_out", "Kubisch, abbremsend"),
    (
        "settings.easing.cubic_in_out",
        "Kubisch, anfahrend und abbremsend",
    ),
    ("settings.easing.quartic_out", "Quartisch, abbremsend"),
    (
        "settings.easing.sine_in_out",
        "Sinus, anfahrend und abbremsend",
    ),
    ("settings.easing.back_out", "Überschwingend"),
    ("settings.effects", "Effekte"),
    ("settings.deal_motion", "Karten fliegen beim Austeilen"),
    ("settings.flip_motion", "Karten drehen sich um"),
    ("settings.celebration", "Siegeskaskade"),
    ("settings.instant", "gar keine Bewegung"),
    ("settings.sound", "Ton"),
    ("settings.sound_on", "an"),
    ("settings.table_sounds", "Geräusche am Tisch"),
    ("settings.fanfares", "Fanfaren"),
    ("settings.games", "Spiele"),
    ("settings.completed_runs", "Fertige Folgen"),
    ("settings.discard.variant", "Wie die Variante es vorsieht"),
    ("settings.discard.automatic", "Verschwinden von selbst"),
    ("settings.discard.manual", "Werden von Hand abgelegt"),
    ("settings.undo", "Rückgängig"),
    ("settings.undo.variant", "wie die Variante"),
    ("settings.undo.unlimited", "unbegrenzt"),
    ("settings.undo.at_most", "höchstens"),
    ("settings.questions", "Nachfragen"),
    ("settings.confirm", "vor dem Aufgeben eines Spiels fragen"),
    ("settings.solver", "Löser"),
    (
        "settings.still_winnable",
        "mir sagen, ob das Spiel noch gewinnbar ist",
    ),
    (
        "settings.solver_sees",
        "Der Löser (gewinnbar, Tipps, Automatisch beenden) sieht die verdeckten Karten und den Talon.",
    ),
    (
        "settings.next_game",
        "Ablegemodus und Grenze für Rückgängig gelten ab dem nächsten Spiel.",
    ),
    ("settings.defaults", "Standardwerte wiederherstellen"),
    // Die Antworten des Lösers am Tisch (assist.rs).
    (
        "spider.solver.busy",
        "Der Löser rechnet noch: erst abbrechen (Esc)",
    ),
    (
        "spider.solver.lost",
        "Dieses Spiel ist nicht mehr zu gewinnen: mach Züge rückgängig und such einen Weg",
    ),
    (
        "spider.solver.lost_no_undo",
        "Dieses Spiel ist nicht mehr zu gewinnen, und kein Zug lässt sich zurücknehmen: beginne ein neues Spiel",
    ),
    (
        "spider.solver.deal_found_one",
        "Spiel {seed} ist gewinnbar (gleich beim ersten Versuch gefunden)",
    ),
    (
        "spider.solver.deal_found",
        "Spiel {seed} ist gewinnbar (gefunden nach {tried} Versuchen)",
    ),
    (
        "spider.solver.deal_after_replay",
        "Es wird ausgeteilt, sobald du die Wiederholung schließt (Esc)",
    ),
    (
        "spider.solver.deal_again",
        "„Fertige Folgen“ wurde inzwischen geändert: Es wird ein Spiel gesucht, das damit gewinnbar ist",
    ),
    ("spider.solver.cancelled", "Abgebrochen"),
    ("spider.solver.no_deal", "Kein gewinnbares Spiel gefunden"),
    (
        "spider.solver.no_win",
        "Der Löser hat in {secs} s keinen Sieg gefunden",
    ),
    (
        "spider.solver.failed",
        "Der Löser konnte nicht rechnen: {why}",
    ),
];
