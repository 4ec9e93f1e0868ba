//! The egui overlay: the in-game bar and the menu (variant choice, deal by number). The table
//! ignores the pointer while egui wants it.
use arachne_engine::{Numbering, variant};
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPlugin, EguiPrimaryContextPass, egui, input::EguiWantsInput};

use crate::input::{Highlights, TableInput};
use crate::table::{GameSpec, Request, Table};

pub(super) fn plugin(app: &mut App) {
    app.add_plugins(EguiPlugin::default())
        .init_resource::<Menu>()
        .insert_resource(TableInput(true))
        .add_systems(
            PreUpdate,
            share_pointer.after(bevy_egui::EguiPreUpdateSet::ProcessInput),
        )
        .add_systems(Update, toggle_menu.before(crate::AppSystems::Input))
        .add_systems(EguiPrimaryContextPass, (bar, menu));
}

/// The menu's state.
#[derive(Resource, Debug, Clone)]
pub struct Menu {
    /// Whether it is open.
    pub open: bool,
    /// The variant chosen in the list.
    pub variant: String,
    /// The deal number typed.
    pub seed: String,
    /// KPatience numbering.
    pub kpat: bool,
}

impl Default for Menu {
    fn default() -> Menu {
        Menu {
            open: false,
            variant: "spider-2suit".into(),
            seed: String::new(),
            kpat: false,
        }
    }
}

fn share_pointer(
    wants: Option<Res<EguiWantsInput>>,
    menu: Res<Menu>,
    mut input: ResMut<TableInput>,
) {
    let busy = menu.open
        || wants.is_some_and(|w| w.wants_any_pointer_input() || w.wants_any_keyboard_input());
    input.set_if_neq(TableInput(!busy));
}

fn toggle_menu(keys: Res<ButtonInput<KeyCode>>, mut menu: ResMut<Menu>, table: Res<Table>) {
    if keys.just_pressed(KeyCode::Escape) {
        menu.open = !menu.open;
        if menu.open {
            menu.variant = table.spec.variant.id.clone();
        }
    }
}

fn bar(
    mut contexts: EguiContexts,
    table: Res<Table>,
    highlights: Res<Highlights>,
    mut menu: ResMut<Menu>,
    mut requests: MessageWriter<Request>,
    mut keys: ResMut<ButtonInput<KeyCode>>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let game = &table.game;
    egui::Area::new(egui::Id::new("bar"))
        .anchor(egui::Align2::CENTER_BOTTOM, egui::vec2(0.0, -6.0))
        .show(ctx, |ui| {
            egui::Frame::popup(ui.style()).show(ui, |ui| {
                ui.horizontal(|ui| {
                    ui.label(format!(
                        "{}  ·  deal {}  ·  moves {}  ·  score {}  ·  deals left {}",
                        table.spec.variant.name,
                        table.spec.seed,
                        game.move_count(),
                        game.score(),
                        game.position().deals_left()
                    ));
                    ui.separator();
                    if ui
                        .add_enabled(game.can_undo(), egui::Button::new("Undo"))
                        .clicked()
                    {
                        requests.write(Request::Undo);
                    }
                    if ui
                        .add_enabled(game.can_redo(), egui::Button::new("Redo"))
                        .clicked()
                    {
                        requests.write(Request::Redo);
                    }
                    let hint = if highlights.thinking {
                        "Thinking..."
                    } else {
                        "Hint"
                    };
                    if ui.button(hint).clicked() {
                        // The same path as the H key.
                        keys.press(KeyCode::KeyH);
                    }
                    if ui.button("Menu").clicked() {
                        menu.open = true;
                        menu.variant = table.spec.variant.id.clone();
                    }
                });
            });
        });
    Ok(())
}

fn menu(
    mut contexts: EguiContexts,
    table: Res<Table>,
    mut menu: ResMut<Menu>,
    mut requests: MessageWriter<Request>,
) -> Result {
    if !menu.open {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let mut open = true;
    egui::Window::new("Arachne")
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_CENTER, egui::vec2(0.0, 0.0))
        .open(&mut open)
        .show(ctx, |ui| {
            ui.horizontal(|ui| {
                if ui.button("Continue").clicked() {
                    menu.open = false;
                }
                if ui.button("Restart this deal").clicked() {
                    requests.write(Request::Restart);
                    menu.open = false;
                }
            });
            ui.separator();
            ui.heading("Variant");
            for v in variant::builtin() {
                let selected = menu.variant == v.id;
                let text = format!("{}  ({:?})", v.name, v.difficulty);
                if ui.selectable_label(selected, text).clicked() {
                    menu.variant = v.id.clone();
                }
                if selected {
                    ui.label(egui::RichText::new(&v.description).small());
                }
            }
            ui.separator();
            ui.horizontal(|ui| {
                ui.label("Deal number");
                ui.add(egui::TextEdit::singleline(&mut menu.seed).desired_width(110.0).hint_text("random"));
                ui.checkbox(&mut menu.kpat, "KPatience numbering");
            });
            let seed = menu.seed.trim();
            let parsed = if seed.is_empty() {
                Ok(None)
            } else {
                seed.parse::<u64>().map(Some).map_err(|_| format!("`{seed}` is not a deal number"))
            };
            let numbering = if menu.kpat { Numbering::Kpat } else { Numbering::Arachne };
            let spec = parsed.and_then(|seed| {
                let seed = seed.unwrap_or_else(|| crate::table::next_seed(table.spec.seed, ctx_time(ui)));
                let spec = GameSpec::builtin(&menu.variant, seed, numbering)
                    .ok_or_else(|| format!("no variant `{}`", menu.variant))?;
                spec.start().map_err(|e| e.to_string())?;
                Ok(spec)
            });
            match &spec {
                Ok(_) => {}
                Err(e) => {
                    ui.colored_label(egui::Color32::LIGHT_RED, e);
                }
            }
            if ui.add_enabled(spec.is_ok(), egui::Button::new("New game")).clicked()
                && let Ok(spec) = spec
            {
                requests.write(Request::NewGame(spec));
                menu.open = false;
            }
            ui.separator();
            ui.label(
                "Drag a run or click it; D deals, Ctrl+Z undoes, Ctrl+Y redoes, H hints, N deals anew, Esc opens this menu.",
            );
        });
    if !open {
        menu.open = false;
    }
    Ok(())
}

/// Nanoseconds of egui's clock, to vary a random deal number.
fn ctx_time(ui: &egui::Ui) -> u64 {
    (ui.input(|i| i.time) * 1e9) as u64
}
