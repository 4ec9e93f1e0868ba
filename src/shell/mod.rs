//! The egui overlay both games share: fonts, which windows are open, the pointer and keyboard
//! shared with the table, the settings window and the notices. Each game draws its own bar
//! and windows into the [`Overlay`] sets, in order.
#[cfg(not(target_arch = "wasm32"))]
pub mod dropped;
pub mod settings_window;
pub mod studio;
pub mod widgets;
pub mod window_keys;

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPlugin, EguiPrimaryContextPass, egui, input::EguiWantsInput};

use crate::core::focus::{NoticeSpot, Notices, OverlayOpen, PointerOnOverlay, TableInput};

/// The order the overlay draws in: later parts are on top.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Overlay {
    /// Fonts.
    Setup,
    /// Labels on the table and the bar.
    Bar,
    /// Windows.
    Windows,
    /// Questions and notices, over everything.
    Top,
}

pub(crate) fn plugin(app: &mut App) {
    #[cfg(not(target_arch = "wasm32"))]
    app.add_plugins(dropped::plugin);
    app.add_plugins(EguiPlugin::default())
        .init_resource::<Windows>()
        .insert_resource(TableInput(true))
        .insert_resource(crate::core::focus::TableKeys(true))
        .configure_sets(
            EguiPrimaryContextPass,
            (Overlay::Setup, Overlay::Bar, Overlay::Windows, Overlay::Top).chain(),
        )
        .add_systems(
            PreUpdate,
            share_pointer.after(bevy_egui::EguiPreUpdateSet::ProcessInput),
        )
        .init_resource::<studio::StudioUnder>()
        .add_systems(Update, (studio::drop_draft_on_close, sound_key))
        .add_systems(
            EguiPrimaryContextPass,
            (
                (widgets::install_fonts, studio::stack_studio_windows).in_set(Overlay::Setup),
                settings_window::settings_window.in_set(Overlay::Windows),
                (studio::theme_editor, studio::tuner).in_set(Overlay::Windows),
                studio::file_problems.in_set(Overlay::Top),
                notices.in_set(Overlay::Top),
            ),
        );
}

/// M turns the sound off and on again, as the settings' "Sound: on" does (and is saved with
/// them), in either game, when the table has the keys; a notice says which, and how back.
fn sound_key(
    keys: Res<crate::core::keys::Keys>,
    table_keys: Option<Res<crate::core::focus::TableKeys>>,
    mut settings: ResMut<crate::core::settings::Settings>,
    mut save: ResMut<crate::core::persist::SaveSettings>,
    mut notices: ResMut<crate::core::focus::Notices>,
) {
    if !crate::core::focus::TableKeys::on(table_keys)
        || !keys.just_pressed(KeyCode::KeyM)
        || keys.any_pressed(crate::core::keys::COMMAND_KEYS)
    {
        return;
    }
    settings.sound.enabled = !settings.sound.enabled;
    save.soon();
    notices.push(crate::core::i18n::t(if settings.sound.enabled {
        "sound.key_on"
    } else {
        "sound.key_off"
    }));
}

/// Which windows of the overlay are open.
#[derive(Resource, Debug, Clone, Default)]
#[component(clone_behavior = Ignore)]
pub struct Windows {
    /// The main menu.
    pub menu: bool,
    /// Statistics.
    pub stats: bool,
    /// Settings.
    pub settings: bool,
    /// Saved replays.
    pub replays: bool,
    /// Rules and help.
    pub help: bool,
    /// The win message.
    pub won: bool,
    /// Pro Spider 10's score sheet.
    pub sheet: bool,
    /// The theme editor.
    pub themes: bool,
    /// The animation tuner.
    pub tuner: bool,
    /// A question waits for an answer (the game sets it while it asks).
    pub question: bool,
    /// The settings window shows its Table layout section open, once (`--open layout`).
    pub layout: bool,
}

impl Windows {
    /// Whether a window that opens over the menu is open. The menu's controls are then out of
    /// the keyboard's reach (drawn greyed): Tab walked into the menu hidden under the window,
    /// and Enter pressed a control nobody could see.
    pub fn over_menu(&self) -> bool {
        self.stats
            || self.settings
            || self.replays
            || self.help
            || self.sheet
            || self.themes
            || self.tuner
            || self.question
    }

    /// Opens one window by name (`menu`, `stats`, `settings`, `layout`: the settings with their
    /// Table layout section open, `replays`, `help`, `won`, `sheet`); false if the
    /// name is unknown. (A game fills its window from the table when the window first shows.)
    pub fn open(&mut self, name: &str) -> bool {
        match name {
            "menu" => self.menu = true,
            "stats" | "statistics" => self.stats = true,
            "settings" => self.settings = true,
            "layout" => {
                self.settings = true;
                self.layout = true;
            }
            "replays" => self.replays = true,
            "help" | "rules" => self.help = true,
            "won" => self.won = true,
            "sheet" | "score-sheet" => self.sheet = true,
            "themes" | "theme-editor" => self.themes = true,
            "tuner" | "animation" => self.tuner = true,
            _ => return false,
        }
        true
    }

    /// Whether any window is open.
    pub fn any(&self) -> bool {
        self.menu
            || self.stats
            || self.settings
            || self.replays
            || self.help
            || self.won
            || self.sheet
            || self.themes
            || self.tuner
    }
}

/// Whether a drop-down list or a colour picker of the overlay is open: Esc then closes it
/// (egui's own), not the window it belongs to.
pub fn popup_open(contexts: &mut Query<&mut bevy_egui::EguiContext>) -> bool {
    contexts
        .iter_mut()
        .any(|mut c| bevy_egui::egui::Popup::is_any_open(c.get_mut()))
}

/// Whether a text field of the overlay has the keyboard: Esc then leaves the field (egui's),
/// and does not close its window too (a theme's name being typed, with its unsaved theme).
pub fn text_edit_focused(contexts: &mut Query<&mut bevy_egui::EguiContext>) -> bool {
    contexts
        .iter_mut()
        .any(|mut c| c.get_mut().text_edit_focused())
}

/// Window names `Windows::open` knows.
pub const WINDOW_NAMES: &[&str] = &[
    "menu", "stats", "settings", "layout", "replays", "help", "won", "sheet", "themes", "tuner",
];

fn share_pointer(
    wants: Option<Res<EguiWantsInput>>,
    buttons: Res<ButtonInput<MouseButton>>,
    touches: Option<Res<bevy::input::touch::Touches>>,
    windows: Res<Windows>,
    mut input: ResMut<TableInput>,
    mut keys: ResMut<crate::core::focus::TableKeys>,
    mut overlay: ResMut<OverlayOpen>,
    mut on_overlay: ResMut<PointerOnOverlay>,
) {
    let open = windows.any() || windows.question;
    // A run or card dragged from the table over the bar stays the table's: only hovering
    // with nothing held gives the pointer to the overlay.
    let held = (buttons.pressed(MouseButton::Left) && !buttons.just_pressed(MouseButton::Left))
        || touches.is_some_and(|t| t.iter().any(|f| !t.just_pressed(f.id())));
    let pointer = wants.as_ref().is_some_and(|w| {
        crate::core::focus::overlay_wants_pointer(
            w.is_pointer_over_area(),
            w.wants_pointer_input() || w.is_using_pointer() || w.is_popup_open(),
            held,
        )
    });
    on_overlay.set_if_neq(PointerOnOverlay(pointer));
    let typing = wants.is_some_and(|w| w.wants_any_keyboard_input());
    let (table_input, table_keys) = crate::core::focus::input_gates(open, pointer, typing);
    input.set_if_neq(table_input);
    keys.set_if_neq(table_keys);
    // A window or question over the table stops the game's clock; the pointer over the bar
    // does not.
    overlay.set_if_neq(OverlayOpen(open));
}

fn notices(mut contexts: EguiContexts, notices: Res<Notices>, spot: Res<NoticeSpot>) -> Result {
    if notices.0.is_empty() {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    // An area keeps the size it had, and its text wraps there: one first shown while the page
    // was still tiny (a browser's canvas before its first resize) stayed a column a few words
    // wide. Each frame widens it again to what the window allows.
    let widest = (ctx.content_rect().width() - 40.0).clamp(120.0, 560.0);
    let (anchor, offset) = match spot.above_bottom {
        Some(up) => (egui::Align2::CENTER_BOTTOM, egui::vec2(0.0, -up)),
        None => (egui::Align2::CENTER_TOP, egui::vec2(0.0, 10.0)),
    };
    // They take no pointer: lying over the hand (Pro Spider 10) or the table, a click, a drag
    // or a key must still reach the game beneath (a pointer over the overlay stops its input).
    egui::Area::new(egui::Id::new("notices"))
        .anchor(anchor, offset)
        .interactable(false)
        .default_width(widest)
        .show(ctx, |ui| {
            ui.set_max_width(widest);
            for (text, _) in &notices.0 {
                egui::Frame::popup(ui.style()).show(ui, |ui| {
                    ui.set_max_width(widest - 20.0);
                    ui.label(text);
                });
            }
        });
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use bevy::input::ButtonState;
    use bevy::input::keyboard::{Key, KeyboardInput};

    /// M turns the sound off, says so, saves it, and on again; not with Ctrl, nor while a
    /// window or a text box has the keys.
    #[test]
    fn m_turns_the_sound_off_and_on() {
        let mut app = App::new();
        app.add_plugins(MinimalPlugins)
            .add_plugins(crate::core::keys::plugin)
            .init_resource::<crate::core::settings::Settings>()
            .init_resource::<crate::core::persist::SaveSettings>()
            .init_resource::<crate::core::focus::Notices>()
            .insert_resource(crate::core::focus::TableKeys(true))
            .add_systems(Update, sound_key);
        app.update();
        let press = |app: &mut App, code: KeyCode, state: ButtonState| {
            app.world_mut().write_message(KeyboardInput {
                key_code: code,
                logical_key: Key::Unidentified(bevy::input::keyboard::NativeKey::Unidentified),
                state,
                text: None,
                repeat: false,
                window: Entity::PLACEHOLDER,
            });
        };
        let m = |app: &mut App| {
            press(app, KeyCode::KeyM, ButtonState::Pressed);
            app.update();
            press(app, KeyCode::KeyM, ButtonState::Released);
            app.update();
        };
        let on = |app: &App| {
            app.world()
                .resource::<crate::core::settings::Settings>()
                .sound
                .enabled
        };
        assert!(on(&app));
        m(&mut app);
        assert!(!on(&app));
        assert!(
            app.world()
                .resource::<crate::core::persist::SaveSettings>()
                .pending()
        );
        let said = |app: &App| {
            app.world()
                .resource::<crate::core::focus::Notices>()
                .0
                .iter()
                .map(|(t, _)| t.clone())
                .collect::<Vec<_>>()
        };
        assert!(said(&app).contains(&crate::core::i18n::t("sound.key_off").to_string()));
        m(&mut app);
        assert!(on(&app));
        assert!(said(&app).contains(&crate::core::i18n::t("sound.key_on").to_string()));
        // Ctrl+M, or M while the overlay has the keys: nothing.
        press(&mut app, KeyCode::ControlLeft, ButtonState::Pressed);
        m(&mut app);
        press(&mut app, KeyCode::ControlLeft, ButtonState::Released);
        app.update();
        assert!(on(&app));
        app.insert_resource(crate::core::focus::TableKeys(false));
        m(&mut app);
        assert!(on(&app));
    }
}
