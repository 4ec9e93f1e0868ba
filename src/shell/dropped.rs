//! A file dropped on the game's window (the desktop's Open file): a kept game, a replay or a
//! theme, taken by the window open for its kind, as the browser's Open file button's file is.
//! Dropped on the table, it opens the window it belongs to: the theme editor for a theme,
//! else the replays (which say what a file of another kind is).
use std::path::Path;
use std::sync::Mutex;

use bevy::prelude::*;
use bevy::window::FileDragAndDrop;

use crate::core::focus::Notices;
use crate::core::i18n::tf;
use crate::shell::Windows;
use crate::shell::widgets::{TextFileError, TextKind, read_text_file};

/// How many frames a dropped file waits for a window to take it.
const WAIT_FRAMES: u32 = 3;

/// The file dropped last: what it is, the frames it has waited, and whether its window was
/// opened for it.
struct Dropped {
    name: String,
    text: String,
    kind: TextKind,
    age: u32,
    window_opened: bool,
}

static DROPPED: Mutex<Option<Dropped>> = Mutex::new(None);

pub(crate) fn plugin(app: &mut App) {
    app.add_message::<FileDragAndDrop>()
        .add_systems(Update, receive);
}

/// The file dropped on the window (its name and text), once, for the window drawn with
/// `purpose` (`spider`, `p10`: their replays; `theme`: the theme editor): a window takes a
/// file of its own kind, or any file once a window was opened for it (which then says what
/// the file is). So a theme dropped with the replays and the theme editor both open goes to
/// the editor.
pub fn take(purpose: &str) -> Option<(String, String)> {
    let mut dropped = DROPPED.lock().unwrap_or_else(|e| e.into_inner());
    let wanted = match purpose {
        "spider" => TextKind::SpiderReplay,
        "p10" => TextKind::P10Game,
        "theme" => TextKind::Theme,
        _ => TextKind::Other,
    };
    if dropped
        .as_ref()
        .is_some_and(|d| d.kind == wanted || d.window_opened)
    {
        dropped.take().map(|d| (d.name, d.text))
    } else {
        None
    }
}

/// A dropped file's text, or what to tell the player. Only a plain file is read (a pipe or a
/// device would never end), as [`read_text_file`] reads one.
fn read(path: &Path) -> Result<(String, String), String> {
    let name = path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into(),
    );
    let failed = |why: &dyn std::fmt::Display| {
        tf(
            "web.open_failed",
            &[("name", &name), ("why", &why.to_string())],
        )
    };
    let meta = std::fs::metadata(path).map_err(|e| failed(&e))?;
    if !meta.is_file() {
        return Err(failed(&crate::core::i18n::t("drop.not_a_file")));
    }
    // (Not text said in words: "invalid utf-8 sequence of 1 bytes from index 10" told a player
    // nothing.)
    let text = read_text_file(path).map_err(|e| match e {
        TextFileError::Io(e) => failed(&e),
        TextFileError::TooLarge => tf("web.open_too_large", &[("name", &name)]),
        TextFileError::NotText => failed(&crate::core::i18n::t("drop.not_text")),
    })?;
    Ok((name, text))
}

/// Each frame: a file dropped is read and waits for a window to take it ([`take`]). Left a
/// few frames (no window open for it), it opens its window: the theme editor for a theme,
/// else the replays. Left again (that window could not show, or a question waits for an
/// answer), it is told; so is a file that could not be read, and one that a later drop
/// replaced before any window took it.
fn receive(
    mut drops: MessageReader<FileDragAndDrop>,
    mut notices: ResMut<Notices>,
    mut windows: ResMut<Windows>,
    mut under: Option<ResMut<crate::shell::studio::StudioUnder>>,
) {
    let mut dropped = DROPPED.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(d) = dropped.as_mut() {
        d.age += 1;
        if d.age > WAIT_FRAMES && !d.window_opened && !windows.question {
            if d.kind == TextKind::Theme {
                windows.themes = true;
                // (On a phone-sized window the editor may wait under the tuner: shown.)
                if let Some(under) = under.as_mut() {
                    under.asked_for(true, false);
                }
            } else {
                windows.replays = true;
            }
            d.window_opened = true;
            d.age = 0;
        } else if d.age > WAIT_FRAMES {
            notices.push(tf("drop.nowhere", &[("name", &d.name)]));
            *dropped = None;
        }
    }
    for drop in drops.read() {
        if let FileDragAndDrop::DroppedFile { path_buf, .. } = drop {
            match read(path_buf) {
                Ok((name, text)) => {
                    if let Some(left) = dropped.take() {
                        notices.push(tf("drop.one_at_a_time", &[("name", &left.name)]));
                    }
                    *dropped = Some(Dropped {
                        kind: TextKind::of(&text),
                        name,
                        text,
                        age: 0,
                        window_opened: false,
                    })
                }
                Err(why) => notices.push(why),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shell::widgets::OPEN_LIMIT;

    /// A test app with the drop's system, and a file dropped on it.
    fn app() -> App {
        let mut app = App::new();
        app.add_plugins(MinimalPlugins)
            .init_resource::<Notices>()
            .init_resource::<Windows>()
            .add_plugins(plugin);
        app
    }

    fn drop_file(app: &mut App, path: &Path) {
        app.world_mut().write_message(FileDragAndDrop::DroppedFile {
            window: Entity::PLACEHOLDER,
            path_buf: path.to_path_buf(),
        });
    }

    fn notices(app: &App) -> Vec<String> {
        app.world()
            .resource::<Notices>()
            .0
            .iter()
            .map(|(t, _)| t.clone())
            .collect()
    }

    fn windows(app: &App) -> (bool, bool) {
        let w = app.world().resource::<Windows>();
        (w.replays, w.themes)
    }

    // One test, for the dropped file is the process's (as the clipboard is).
    #[test]
    fn a_dropped_file_goes_to_its_window_once_opens_it_and_is_refused_when_unreadable() {
        let dir = std::env::temp_dir().join(format!("arachne-drop-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let kept = dir.join("from-a-friend.ron");
        let replay = "\u{feff}(version: 1, variant: \"spider-4suit\", numbering: Kpat, seed: 1, \
                      options: (discard: Automatic, undo_limit: None, scoring: Microsoft), \
                      moves: [\"9>5:1\"])";
        std::fs::write(&kept, replay).unwrap();
        let as_taken = Some(("from-a-friend.ron".to_string(), replay[3..].to_string()));
        let theme = dir.join("sea.ron");
        let text = crate::core::theme::Theme::builtin("midnight")
            .expect("a built-in theme")
            .to_ron();
        std::fs::write(&theme, &text).unwrap();

        // Taken by the window open for its kind (its byte-order mark left out), once; not by
        // another's.
        let mut app = app();
        drop_file(&mut app, &kept);
        app.update();
        assert_eq!(take("theme"), None);
        assert_eq!(take("p10"), None);
        assert_eq!(take("spider"), as_taken);
        assert_eq!(take("spider"), None);
        assert!(notices(&app).is_empty(), "{:?}", notices(&app));

        // Not taken (no window open for it): after a few frames it opens the replays, which
        // take it as they are drawn.
        drop_file(&mut app, &kept);
        for _ in 0..=WAIT_FRAMES {
            app.update();
        }
        assert_eq!(windows(&app), (false, false));
        app.update();
        assert_eq!(windows(&app), (true, false));
        assert_eq!(take("spider"), as_taken);
        assert!(notices(&app).is_empty(), "{:?}", notices(&app));

        // A theme opens the theme editor.
        let mut app = self::app();
        drop_file(&mut app, &theme);
        for _ in 0..=WAIT_FRAMES + 1 {
            app.update();
        }
        assert_eq!(windows(&app), (false, true));

        // Its window could not show (nothing took it there either): told, and gone.
        for _ in 0..=WAIT_FRAMES {
            app.update();
        }
        assert_eq!(take("theme"), None);
        let told = notices(&app);
        assert_eq!(told.len(), 1, "{told:?}");
        assert!(told[0].contains("sea.ron"), "{told:?}");

        let mut app = self::app();
        drop_file(&mut app, &kept);
        app.world_mut().resource_mut::<Windows>().question = true;
        for _ in 0..=WAIT_FRAMES + 1 {
            app.update();
        }
        // (While a question waits for its answer, no window is opened: told.)
        assert_eq!(windows(&app), (false, false));
        assert_eq!(notices(&app).len(), 1);

        // Two files at once: the one left is told.
        let mut app = self::app();
        drop_file(&mut app, &kept);
        drop_file(&mut app, &theme);
        app.update();
        assert_eq!(take("spider"), None);
        assert_eq!(
            take("theme").map(|(name, _)| name).as_deref(),
            Some("sea.ron")
        );
        let told = notices(&app);
        assert_eq!(told.len(), 1, "{told:?}");
        assert!(told[0].contains("from-a-friend.ron"), "{told:?}");

        // Too large, not there, a folder, not text: told at once, nothing to take.
        let large = dir.join("large.ron");
        std::fs::write(&large, vec![b'x'; OPEN_LIMIT as usize + 1]).unwrap();
        let binary = dir.join("picture.png");
        std::fs::write(&binary, [0x89, b'P', b'N', b'G', 0xff, 0xfe]).unwrap();
        let mut app = self::app();
        for path in [&large, &dir.join("gone.ron"), &dir, &binary] {
            drop_file(&mut app, path);
        }
        app.update();
        assert_eq!(take("spider"), None);
        let told = notices(&app);
        assert_eq!(told.len(), 4, "{told:?}");
        for (said, name) in
            told.iter()
                .zip(["large.ron", "gone.ron", "arachne-drop", "picture.png"])
        {
            assert!(said.contains(name), "{said}");
        }
        assert!(told[3].contains("not a text file"), "{}", told[3]);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
