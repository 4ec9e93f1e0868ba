//! A file dropped on the game's window (the desktop's Open file): a kept game, a replay or a
//! theme, taken by the window open to receive it, as the browser's Open file button's file
//! is. Dropped on the table, it opens the window it belongs to: the theme editor for a theme,
//! else the replays (which say what is wrong with a file that is neither).
use std::path::Path;
use std::sync::Mutex;

use bevy::prelude::*;
use bevy::window::FileDragAndDrop;

use crate::core::focus::Notices;
use crate::core::i18n::tf;
use crate::shell::Windows;

/// The largest file taken (the browser's Open file takes as much): far more than a kept game
/// or a theme.
pub const DROP_LIMIT: u64 = 4 << 20;

/// How many frames a dropped file waits for a window to take it.
const WAIT_FRAMES: u32 = 3;

/// The file dropped last, with the frames it has waited, and whether its window was opened
/// for it.
struct Dropped {
    name: String,
    text: String,
    age: u32,
    window_opened: bool,
}

static DROPPED: Mutex<Option<Dropped>> = Mutex::new(None);

pub(crate) fn plugin(app: &mut App) {
    app.add_message::<FileDragAndDrop>()
        .add_systems(Update, receive);
}

/// The file dropped on the window (its name and text), once: the window that takes files
/// (kept games, replays, the theme editor) takes it as it is drawn.
pub fn take() -> Option<(String, String)> {
    let mut dropped = DROPPED.lock().unwrap_or_else(|e| e.into_inner());
    dropped.take().map(|d| (d.name, d.text))
}

/// A dropped file's text, or what to tell the player.
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
    let size = std::fs::metadata(path).map_err(|e| failed(&e))?.len();
    if size > DROP_LIMIT {
        return Err(tf("web.open_too_large", &[("name", &name)]));
    }
    let text = std::fs::read_to_string(path).map_err(|e| failed(&e))?;
    Ok((name, text))
}

/// Each frame: a file dropped is read and waits for a window to take it ([`take`]). Left a
/// few frames (no window open takes files), it opens its window: the theme editor if it reads
/// as a theme, else the replays. Left again (that window could not show), it is told; so is a
/// file that could not be read.
fn receive(
    mut drops: MessageReader<FileDragAndDrop>,
    mut notices: ResMut<Notices>,
    mut windows: ResMut<Windows>,
) {
    let mut dropped = DROPPED.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(d) = dropped.as_mut() {
        d.age += 1;
        if d.age > WAIT_FRAMES && !d.window_opened {
            if crate::shell::studio::import_theme(&d.text).is_ok() {
                windows.themes = true;
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
                    *dropped = Some(Dropped {
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
    fn a_dropped_file_is_taken_once_opens_its_window_and_is_refused_when_too_large() {
        let dir = std::env::temp_dir().join(format!("arachne-drop-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let kept = dir.join("from-a-friend.ron");
        std::fs::write(&kept, "a kept game's text").unwrap();

        // Taken by the window open for it, once.
        let mut app = app();
        drop_file(&mut app, &kept);
        app.update();
        assert_eq!(
            take(),
            Some(("from-a-friend.ron".into(), "a kept game's text".into()))
        );
        assert_eq!(take(), None);
        assert!(notices(&app).is_empty(), "{:?}", notices(&app));

        // Not taken (no window open for files): after a few frames it opens the replays, which
        // take it as they are drawn.
        drop_file(&mut app, &kept);
        for _ in 0..=WAIT_FRAMES {
            app.update();
        }
        assert_eq!(windows(&app), (false, false));
        app.update();
        assert_eq!(windows(&app), (true, false));
        assert_eq!(
            take(),
            Some(("from-a-friend.ron".into(), "a kept game's text".into()))
        );
        assert!(notices(&app).is_empty(), "{:?}", notices(&app));

        // A theme opens the theme editor.
        let theme = dir.join("sea.ron");
        let text = crate::core::theme::Theme::builtin("midnight")
            .expect("a built-in theme")
            .to_ron();
        std::fs::write(&theme, &text).unwrap();
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
        assert_eq!(take(), None);
        let told = notices(&app);
        assert_eq!(told.len(), 1, "{told:?}");
        assert!(told[0].contains("sea.ron"), "{told:?}");

        // Too large, or not there: told at once, nothing to take.
        let large = dir.join("large.ron");
        std::fs::write(&large, vec![b'x'; DROP_LIMIT as usize + 1]).unwrap();
        let mut app = self::app();
        drop_file(&mut app, &large);
        drop_file(&mut app, &dir.join("gone.ron"));
        app.update();
        assert_eq!(take(), None);
        let told = notices(&app);
        assert_eq!(told.len(), 2, "{told:?}");
        assert!(told[0].contains("large.ron"), "{told:?}");
        assert!(told[1].contains("gone.ron"), "{told:?}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
