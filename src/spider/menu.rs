//! Spider's menu: the new-game form (variant, deal number, numbering, options), the way to the
//! other windows, the keys that open and close windows, and the question before abandoning
//! a game.
use arachne_engine::variant::Difficulty;
use arachne_engine::{Numbering, variant};
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use crate::GameKind;
use crate::core::i18n::{t, tf, variant_description, variant_name};
use crate::core::persist::SaveSettings;
use crate::core::settings::Settings;
use crate::shell::widgets::{Hint, fitting_height, fixed_window, row, scrolling};
use crate::shell::{Overlay, Windows};
use crate::spider::SpiderSystems;
use crate::spider::assist::{Ask, Thinking};
use crate::spider::playback::{Control, Playback};
use crate::spider::table::{GameSpec, PendingConfirm, Request, Table, Watching};

pub(crate) fn plugin(app: &mut App) {
    app.init_resource::<Form>()
        .add_systems(
            Update,
            window_keys
                .before(crate::AppSystems::Input)
                .in_set(SpiderSystems),
        )
        .add_systems(
            EguiPrimaryContextPass,
            (menu.in_set(Overlay::Windows), confirm.in_set(Overlay::Top)).in_set(SpiderSystems),
        )
        .add_systems(OnEnter(crate::GameKind::Spider), close_phase10_windows);
}

/// Pro Spider 10's score sheet is its own (`--open sheet` could set it with Spider on the
/// table): Spider never draws it, and it would hold the table's input with nothing on screen.
fn close_phase10_windows(mut windows: ResMut<Windows>) {
    windows.sheet = false;
}

/// The menu's form and the other windows' state.
#[derive(Resource, Debug, Clone)]
#[component(clone_behavior = Ignore)]
pub struct Form {
    /// The variant chosen in the menu.
    pub variant: String,
    /// The deal number typed in the menu.
    pub seed: String,
    /// KPatience numbering.
    pub kpat: bool,
    /// The variant whose statistics are about to be reset (asking first).
    pub reset_stats: Option<String>,
    /// The saved replays, read when the window opens.
    pub saved: Option<Vec<crate::spider::saves::KeptReplay>>,
    /// A replay's text pasted into the replays window.
    pub pasted: String,
}

impl Default for Form {
    fn default() -> Form {
        Form {
            variant: "spider-2suit".into(),
            seed: String::new(),
            kpat: false,
            reset_stats: None,
            saved: None,
            pasted: String::new(),
        }
    }
}

/// Esc opens and closes the menu (or closes the window on top, or cancels the search the
/// player waits for); F1 opens the help.
pub(crate) fn window_keys(
    keys: Res<crate::core::keys::Keys>,
    mut windows: ResMut<Windows>,
    mut form: ResMut<Form>,
    playback: Option<Res<Playback>>,
    mut pending: ResMut<PendingConfirm>,
    thinking: Option<Res<Thinking>>,
    mut asks: MessageWriter<Ask>,
    mut hint: Option<ResMut<crate::spider::hint::HintTask>>,
    mut controls: MessageWriter<Control>,
    mut egui_contexts: Query<&mut bevy_egui::EguiContext>,
    under: Res<crate::shell::studio::StudioUnder>,
    highlights: Res<crate::spider::highlights::Highlights>,
) {
    if keys.just_pressed(KeyCode::F1) {
        windows.help = !windows.help;
    }
    if !keys.just_pressed(KeyCode::Escape)
        || crate::shell::popup_open(&mut egui_contexts)
        || crate::shell::text_edit_focused(&mut egui_contexts)
    {
        return;
    }
    if pending.0.is_some() {
        pending.0 = None;
    } else if form.reset_stats.is_some() {
        form.reset_stats = None;
    } else if windows.settings
        || windows.stats
        || windows.replays
        || windows.help
        || windows.won
        || windows.themes
        || windows.tuner
    {
        windows.settings = false;
        windows.themes = false;
        windows.tuner = false;
        windows.stats = false;
        windows.replays = false;
        windows.help = false;
        windows.won = false;
        under.comes_back(&mut windows);
    } else if playback.as_ref().is_some_and(|p| p.kind.watching()) && !windows.menu {
        // The viewer closes with Esc (its own key handler).
    } else if windows.menu {
        windows.menu = false;
    } else if highlights.taking.is_some() {
        // Esc lets go of the cards taken up with the keyboard (the table's key handler).
    } else if let Some(h) = hint.as_mut() {
        // Esc cancels the hint's search (the table's Esc does too), and the menu stays shut.
        h.cancel();
    } else if playback.is_some_and(|p| p.kind == crate::spider::playback::Kind::AutoComplete) {
        // Any key stops auto-complete (`playback::stop_on_player_input`); Esc does only that.
        controls.write(Control::Close);
    } else if thinking.is_some() {
        asks.write(Ask::Cancel);
    } else {
        windows.open("menu");
    }
}

fn menu(
    mut contexts: EguiContexts,
    table: Res<Table>,
    time: Res<Time<Real>>,
    mut windows: ResMut<Windows>,
    mut form: ResMut<Form>,
    mut was_open: Local<bool>,
    mut game_kind: ResMut<NextState<GameKind>>,
    mut settings: ResMut<Settings>,
    mut save_settings: ResMut<SaveSettings>,
    thinking: Option<Res<Thinking>>,
    watching: Res<Watching>,
    mut requests: MessageWriter<Request>,
    mut asks: MessageWriter<Ask>,
    mut controls: MessageWriter<Control>,
) -> Result {
    if !windows.menu {
        *was_open = false;
        return Ok(());
    }
    // The form opens on the variant being played.
    if !*was_open {
        *was_open = true;
        form.variant = table.spec.variant.id.clone();
    }
    let ctx = contexts.ctx_mut()?;
    let mut open = true;
    let high = fitting_height(ctx);
    let covered = windows.over_menu();
    fixed_window(
        "Arachne",
        egui::Align2::CENTER_CENTER,
        egui::vec2(0.0, -20.0),
    )
    .open(&mut open)
    .show(ctx, |ui| {
        crate::shell::window_keys::keyboard_on_open(
            ui,
            "spider-menu",
            crate::shell::window_keys::OnOpen::FirstControl,
        );
        if covered {
            ui.disable();
        }
        scrolling(ui, high, |ui| {
            row(ui, |ui| {
                if ui.button(t("spider.menu.continue")).clicked() {
                    windows.menu = false;
                }
                if ui
                    .add_enabled(!watching.0, egui::Button::new(t("spider.menu.restart")))
                    .clicked()
                {
                    requests.write(Request::Restart);
                    windows.menu = false;
                }
                if ui
                    .add_enabled(
                        !watching.0 && thinking.is_none(),
                        egui::Button::new(t("spider.menu.demo")),
                    )
                    .hint(t("spider.menu.demo_hover"))
                    .clicked()
                {
                    asks.write(Ask::Demo);
                    windows.menu = false;
                }
                if ui
                    .add_enabled(
                        !watching.0 && table.game.move_count() > 0,
                        egui::Button::new(t("spider.menu.history")),
                    )
                    .clicked()
                {
                    controls.write(Control::history(&table, true));
                    windows.menu = false;
                }
            });
            ui.separator();
            ui.heading(t("spider.menu.new_game"));
            egui::Grid::new("variants").striped(true).show(ui, |ui| {
                for v in variant::builtin() {
                    let selected = form.variant == v.id;
                    if ui
                        .selectable_label(selected, variant_name(&v.id, &v.name))
                        .clicked()
                    {
                        form.variant = v.id.clone();
                    }
                    ui.label(difficulty(v.difficulty));
                    ui.end_row();
                }
            });
            if let Some(v) = variant::builtin().iter().find(|v| v.id == form.variant) {
                ui.label(egui::RichText::new(variant_description(&v.id, &v.description)).italics());
            }
            row(ui, |ui| {
                ui.label(t("spider.menu.deal_number"));
                ui.add(
                    egui::TextEdit::singleline(&mut form.seed)
                        .desired_width(110.0)
                        .hint_text(t("spider.menu.random")),
                );
                ui.checkbox(&mut form.kpat, t("spider.menu.kpat"));
            });
            let mut winnable = settings.game.winnable_only;
            ui.checkbox(&mut winnable, t("spider.menu.winnable"))
                .hint(t("spider.menu.winnable_hover"));
            if winnable != settings.game.winnable_only {
                settings.game.winnable_only = winnable;
                save_settings.soon();
            }
            let seed = form.seed.trim().to_string();
            let numbering = if form.kpat {
                Numbering::Kpat
            } else {
                Numbering::Arachne
            };
            let typed = if seed.is_empty() {
                Ok(None)
            } else {
                seed.parse::<u64>()
                    .map(Some)
                    .map_err(|_| tf("spider.menu.not_a_number", &[("seed", &seed)]))
            };
            let spec = typed.and_then(|typed| {
                let seed = typed.unwrap_or_else(|| {
                    crate::spider::table::next_seed(
                        table.spec.seed,
                        time.elapsed().as_nanos() as u64,
                    )
                });
                let mut spec = GameSpec::builtin(&form.variant, seed, numbering)
                    .ok_or_else(|| tf("spider.menu.no_variant", &[("variant", &form.variant)]))?;
                spec.options = settings.game.options_for(&spec.variant);
                spec.start().map_err(|e| e.to_string())?;
                Ok((spec, typed.is_none()))
            });
            if let Err(e) = &spec {
                ui.colored_label(egui::Color32::LIGHT_RED, e);
            }
            let label = match &spec {
                Ok((_, true)) if winnable => t("spider.menu.deal_winnable"),
                _ => t("spider.menu.deal"),
            };
            if ui
                .add_enabled(
                    spec.is_ok() && !watching.0 && thinking.is_none(),
                    egui::Button::new(label),
                )
                .clicked()
                && let Ok((spec, random)) = spec
            {
                if random && winnable {
                    asks.write(Ask::WinnableDeal(spec));
                } else {
                    requests.write(Request::NewGame(spec));
                }
                windows.menu = false;
            }
            ui.separator();
            row(ui, |ui| {
                if ui.button(t("spider.menu.statistics")).clicked() {
                    windows.stats = true;
                }
                if ui.button(t("spider.menu.settings")).clicked() {
                    windows.settings = true;
                }
                if ui.button(t("spider.menu.replays")).clicked() {
                    windows.open("replays");
                }
                if ui.button(t("spider.menu.help")).clicked() {
                    windows.help = true;
                }
            });
            ui.separator();
            // The other game: its table comes back as it was left.
            if ui.button(t("spider.menu.phase10")).clicked() {
                game_kind.set(GameKind::ProSpider10);
                windows.menu = false;
            }
        });
    });
    if !open {
        windows.menu = false;
    }
    Ok(())
}

fn confirm(
    mut contexts: EguiContexts,
    pending: Res<PendingConfirm>,
    mut windows: ResMut<Windows>,
    mut requests: MessageWriter<Request>,
) -> Result {
    windows.question = pending.0.is_some();
    if pending.0.is_none() {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    // The question opens with Yes focused: Enter (or Space) answers it, Esc or Tab to No
    // declines (N then Enter deals anew by keyboard, as a click on Deal then Yes does).
    fixed_window(
        t("spider.abandon.title"),
        egui::Align2::CENTER_CENTER,
        egui::Vec2::ZERO,
    )
    .show(ctx, |ui| {
        crate::shell::window_keys::keyboard_on_open(
            ui,
            "spider-abandon",
            crate::shell::window_keys::OnOpen::FirstControl,
        );
        ui.label(t("spider.abandon.text"));
        ui.horizontal(|ui| {
            if ui.button(t("spider.abandon.yes")).clicked() {
                requests.write(Request::Confirm(true));
            }
            if ui.button(t("spider.abandon.no")).clicked() {
                requests.write(Request::Confirm(false));
            }
        });
    });
    Ok(())
}

/// A variant's difficulty in words, in the overlay's language.
fn difficulty(d: Difficulty) -> &'static str {
    match d {
        Difficulty::Easy => t("spider.difficulty.easy"),
        Difficulty::Medium => t("spider.difficulty.medium"),
        Difficulty::Hard => t("spider.difficulty.hard"),
        Difficulty::Expert => t("spider.difficulty.expert"),
    }
}
