//! Pro Spider 10's menu: the game picker, the new-game form (players, each computer seat's level,
//! the phase list and the rule options combined freely where they go together, the seed), the way
//! to the other windows, the keys that open and close them, and the question before leaving a
//! game in progress.
use arachne_engine::phase10::{ai, variant};
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use crate::GameKind;
use crate::core::i18n::{t, tf};
use crate::phase10::P10Systems;
use crate::phase10::input::LayChoice;
use crate::phase10::round::{P10Request, P10Spec, P10SpecMsg, P10Table};
use crate::shell::widgets::{KeyboardList, fitting_height, fixed_window, row, scrolling};
use crate::shell::{Overlay, Windows};

pub(crate) fn plugin(app: &mut App) {
    app.init_resource::<P10Form>()
        .add_systems(
            Update,
            window_keys
                .before(crate::AppSystems::Input)
                .in_set(P10Systems),
        )
        .add_systems(
            EguiPrimaryContextPass,
            (menu.in_set(Overlay::Windows), confirm.in_set(Overlay::Top)).in_set(P10Systems),
        )
        .add_systems(OnExit(GameKind::ProSpider10), close_windows)
        .add_systems(OnEnter(GameKind::ProSpider10), close_spiders_windows);
}

/// Spider's win window is Spider's: left open under the menu when the player switched, it
/// would hold the table's input here with nothing on screen to close it.
fn close_spiders_windows(mut windows: ResMut<Windows>) {
    windows.won = false;
}

/// The new-game form, filled from the game on the table when the menu first shows.
#[derive(Resource, Debug, Clone)]
#[component(clone_behavior = Ignore)]
pub struct P10Form {
    /// Seats, the player's included.
    pub players: usize,
    /// The level of computer seats 2..6 (the first `players - 1` are used).
    pub levels: Vec<String>,
    /// The phase list: a built-in variant without rule options.
    pub base: String,
    /// Discards may be claimed by knocking.
    pub knocking: bool,
    /// One round per phase.
    pub ten_rounds: bool,
    /// Phases in any order.
    pub any_order: bool,
    /// The seed typed (empty: a random one).
    pub seed: String,
    /// A new game asked for while one is in progress: it waits for the player's answer.
    pub leaving: Option<P10Spec>,
    /// The statistics entry about to be reset (asking first).
    pub reset_stats: Option<String>,
}

impl Default for P10Form {
    fn default() -> P10Form {
        P10Form {
            players: 4,
            levels: vec![ai::STRONGEST.to_string(); 5],
            base: "pro-spider-10".into(),
            knocking: false,
            ten_rounds: false,
            any_order: false,
            seed: String::new(),
            leaving: None,
            reset_stats: None,
        }
    }
}

impl P10Form {
    /// The form showing `spec`'s choices.
    pub fn fill_from(&mut self, spec: &P10Spec) {
        let v = &spec.variant;
        self.players = spec.players;
        for (i, level) in spec.levels.iter().enumerate() {
            if let Some(l) = self.levels.get_mut(i) {
                l.clone_from(level);
            }
        }
        self.knocking = v.knocking;
        self.ten_rounds = v.ten_rounds;
        self.any_order = v.any_order;
        self.base = variant::bases()
            .into_iter()
            .find(|b| b.phases == v.phases)
            .map_or_else(|| "pro-spider-10".into(), |b| b.id.clone());
    }

    /// The game the form describes (`seed` when none is typed), or what is wrong with it.
    pub fn spec(&self, seed: u64) -> Result<P10Spec, String> {
        let base = variant::by_id(&self.base)
            .ok_or_else(|| tf("p10.form.no_list", &[("list", &self.base)]))?;
        let v = variant::combine(base, self.knocking, self.ten_rounds, self.any_order)?;
        let typed = self.seed.trim();
        let seed = if typed.is_empty() {
            seed
        } else {
            typed
                .parse::<u64>()
                .map_err(|_| tf("p10.form.bad_seed", &[("seed", &typed)]))?
        };
        let levels = self.levels[..self.players.saturating_sub(1)].to_vec();
        P10Spec::new(v, self.players, seed, levels)
    }
}

/// Asks for a new game: at once, or after the question when the player would leave a game they
/// played in.
fn ask_new_game(
    table: &P10Table,
    spec: P10Spec,
    form: &mut P10Form,
    requests: &mut MessageWriter<P10Request>,
) {
    if table.counted || table.player_decisions == 0 {
        requests.write(P10Request::NewGame(Box::new(P10SpecMsg(spec))));
    } else {
        form.leaving = Some(spec);
    }
}

/// A new game with the same players and variant as `table`'s, a fresh deal: at once, or after
/// the question when leaving the game in progress would count as a loss.
pub fn ask_fresh_deal(
    table: &P10Table,
    time: &Time<Real>,
    form: &mut P10Form,
    requests: &mut MessageWriter<P10Request>,
) {
    let spec = P10Spec {
        seed: fresh_seed(table, time),
        ..table.spec.clone()
    };
    ask_new_game(table, spec, form, requests);
}

/// A seed for a new game from the clock and the last one.
fn fresh_seed(table: &P10Table, time: &Time<Real>) -> u64 {
    time.elapsed().as_nanos() as u64 ^ table.spec.seed.rotate_left(17) ^ 0x9e37_79b9_7f4a_7c15
}

/// Esc opens and closes the menu (or closes the window on top, or answers a question with no);
/// F1 opens the rules.
fn window_keys(
    keys: Res<crate::core::keys::Keys>,
    mut windows: ResMut<Windows>,
    mut form: ResMut<P10Form>,
    choice: Res<LayChoice>,
    viewer: Option<Res<crate::phase10::viewer::P10Viewer>>,
    mut selection: ResMut<crate::phase10::view::Selection>,
    mut skip_target: ResMut<crate::phase10::input::SkipTarget>,
    mut egui_contexts: Query<&mut bevy_egui::EguiContext>,
    under: Res<crate::shell::studio::StudioUnder>,
) {
    if keys.just_pressed(KeyCode::F1) {
        windows.help = !windows.help;
    }
    // The lay question answers its own keys; an open drop-down list closes by itself, and a
    // text field with the keyboard gives it up.
    if !keys.just_pressed(KeyCode::Escape)
        || !choice.0.is_empty()
        || crate::shell::popup_open(&mut egui_contexts)
        || crate::shell::text_edit_focused(&mut egui_contexts)
    {
        return;
    }
    if form.leaving.is_some() {
        form.leaving = None;
    } else if form.reset_stats.is_some() {
        form.reset_stats = None;
    } else if windows.settings
        || windows.stats
        || windows.replays
        || windows.help
        || windows.sheet
        || windows.themes
        || windows.tuner
    {
        windows.settings = false;
        windows.themes = false;
        windows.tuner = false;
        windows.stats = false;
        windows.replays = false;
        windows.help = false;
        windows.sheet = false;
        under.comes_back(&mut windows);
    } else if !windows.menu && viewer.is_none() && (!selection.0.is_empty() || skip_target.0) {
        // Esc clears the chosen cards or the skip waiting for its seat first (whether or not
        // the table takes keys just now); the menu opens on the next Esc.
        selection.0.clear();
        skip_target.0 = false;
    } else if viewer.is_none() || windows.menu {
        // While watching a replay, Esc with no window open closes the viewer (its own keys).
        windows.menu = !windows.menu;
    }
}

fn close_windows(mut windows: ResMut<Windows>, mut form: ResMut<P10Form>) {
    windows.sheet = false;
    form.leaving = None;
}

#[allow(clippy::too_many_arguments)]
fn menu(
    mut contexts: EguiContexts,
    table: Res<P10Table>,
    time: Res<Time<Real>>,
    mut windows: ResMut<Windows>,
    mut form: ResMut<P10Form>,
    mut was_open: Local<bool>,
    mut game_kind: ResMut<NextState<GameKind>>,
    mut requests: MessageWriter<P10Request>,
    viewer: Option<Res<crate::phase10::viewer::P10Viewer>>,
) -> Result {
    if !windows.menu {
        *was_open = false;
        return Ok(());
    }
    // While a replay is watched, the table is the replay's: the form and the question before
    // leaving are about the player's own game, waiting meanwhile.
    let table: &P10Table = viewer.as_deref().map_or(&*table, |v| v.players_game());
    if !*was_open {
        *was_open = true;
        form.fill_from(&table.spec);
    }
    let ctx = contexts.ctx_mut()?;
    let mut open = true;
    let high = fitting_height(ctx);
    let covered = windows.over_menu();
    fixed_window(
        t("p10.menu.title"),
        egui::Align2::CENTER_CENTER,
        egui::vec2(0.0, -20.0),
    )
    .open(&mut open)
    .show(ctx, |ui| {
        crate::shell::window_keys::keyboard_on_open(
            ui,
            "p10-menu",
            crate::shell::window_keys::OnOpen::FirstControl,
        );
        if covered {
            ui.disable();
        }
        scrolling(ui, high, |ui| {
            row(ui, |ui| {
                if ui.button(t("p10.menu.continue")).clicked() {
                    windows.menu = false;
                }
                if ui.button(t("p10.score_sheet")).clicked() {
                    windows.sheet = true;
                    windows.menu = false;
                }
            });
            ui.separator();
            ui.heading(t("p10.bar.new_game"));
            new_game_form(ui, &mut form);
            let spec = form.spec(fresh_seed(table, &time));
            if let Err(e) = &spec {
                ui.colored_label(egui::Color32::LIGHT_RED, e);
            }
            if ui
                .add_enabled(spec.is_ok(), egui::Button::new(t("p10.menu.deal")))
                .clicked()
                && let Ok(spec) = spec
            {
                ask_new_game(table, spec, &mut form, &mut requests);
                windows.menu = false;
            }
            ui.separator();
            row(ui, |ui| {
                if ui.button(t("p10.menu.statistics")).clicked() {
                    windows.stats = true;
                }
                if ui.button(t("p10.menu.settings")).clicked() {
                    windows.settings = true;
                }
                if ui.button(t("p10.menu.rules")).clicked() {
                    windows.help = true;
                }
                if ui.button(t("p10.menu.replays")).clicked() {
                    windows.replays = true;
                }
            });
            ui.separator();
            // The game picker: the other game's table comes back as it was left.
            if ui.button(t("p10.menu.spider")).clicked() {
                game_kind.set(GameKind::Spider);
                windows.menu = false;
            }
        });
    });
    if !open {
        windows.menu = false;
    }
    Ok(())
}

/// The form's fields.
fn new_game_form(ui: &mut egui::Ui, form: &mut P10Form) {
    egui::Grid::new("p10-form").num_columns(2).show(ui, |ui| {
        ui.label(t("p10.form.players"));
        ui.horizontal(|ui| {
            for n in 2..=6 {
                ui.selectable_value(&mut form.players, n, n.to_string());
            }
        });
        ui.end_row();
        for seat in 1..form.players {
            ui.label(tf("p10.form.seat", &[("seat", &(seat + 1))]));
            egui::ComboBox::from_id_salt(("p10-level", seat))
                .selected_text(level_name(&form.levels[seat - 1]))
                .show_list(ui, |ui| {
                    for level in ai::LEVELS {
                        ui.selectable_value(
                            &mut form.levels[seat - 1],
                            level.to_string(),
                            level_name(level),
                        );
                    }
                });
            ui.end_row();
        }
        ui.label(t("p10.form.phases"));
        ui.vertical(|ui| {
            for base in variant::bases() {
                ui.radio_value(&mut form.base, base.id.clone(), phase_list_name(&base.id));
            }
        });
        ui.end_row();
        ui.label(t("p10.form.rules"));
        ui.vertical(|ui| {
            ui.checkbox(&mut form.knocking, t("p10.form.knocking"));
            ui.checkbox(&mut form.ten_rounds, t("p10.form.ten_rounds"));
            ui.checkbox(&mut form.any_order, t("p10.form.any_order"));
        });
        ui.end_row();
        ui.label(t("p10.form.seed"));
        ui.add(
            egui::TextEdit::singleline(&mut form.seed)
                .desired_width(140.0)
                .hint_text(t("p10.form.random")),
        );
        ui.end_row();
    });
}

/// A computer level as the form shows it.
pub fn level_name(level: &str) -> String {
    match level {
        "random" => t("p10.level.random").into(),
        "petra" => t("p10.level.petra").into(),
        "michaela" => t("p10.level.michaela").into(),
        other => other.to_string(),
    }
}

/// A phase list as the form shows it.
pub fn phase_list_name(base: &str) -> &'static str {
    match base {
        "pro-spider-10-first-five" => t("p10.list.first_five"),
        "pro-spider-10-even" => t("p10.list.even"),
        "pro-spider-10-odd" => t("p10.list.odd"),
        _ => t("p10.list.all"),
    }
}

/// The question before leaving a game in progress for a new one.
fn confirm(
    mut contexts: EguiContexts,
    mut form: ResMut<P10Form>,
    mut windows: ResMut<Windows>,
    choice: Res<LayChoice>,
    mut requests: MessageWriter<P10Request>,
) -> Result {
    windows.question = form.leaving.is_some() || !choice.0.is_empty();
    if form.leaving.is_none() {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    // The question opens with Yes focused, as Spider's does: Enter (or Space) answers it, Esc
    // or Tab to No declines.
    fixed_window(
        t("p10.leave.title"),
        egui::Align2::CENTER_CENTER,
        egui::Vec2::ZERO,
    )
    .show(ctx, |ui| {
        crate::shell::window_keys::keyboard_on_open(
            ui,
            "p10-leave",
            crate::shell::window_keys::OnOpen::FirstControl,
        );
        ui.label(t("p10.leave.text"));
        ui.horizontal(|ui| {
            if ui.button(t("p10.leave.yes")).clicked()
                && let Some(spec) = form.leaving.take()
            {
                requests.write(P10Request::NewGame(Box::new(P10SpecMsg(spec))));
            }
            if ui.button(t("p10.leave.no")).clicked() {
                form.leaving = None;
            }
        });
    });
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_form_makes_the_game_it_shows_and_says_what_is_wrong() {
        let mut form = P10Form {
            players: 3,
            base: "pro-spider-10-first-five".into(),
            knocking: true,
            seed: " 42 ".into(),
            ..P10Form::default()
        };
        form.levels[0] = "petra".into();
        form.levels[1] = "random".into();
        let spec = form.spec(7).unwrap();
        assert_eq!(spec.variant.id, "pro-spider-10-first-five+knocking");
        assert_eq!((spec.players, spec.seed), (3, 42));
        assert_eq!(spec.levels, ["petra", "random"]);
        // Shown again, the form has the same choices.
        let mut again = P10Form::default();
        again.fill_from(&spec);
        assert_eq!(again.spec(7).unwrap().variant.id, spec.variant.id);
        assert_eq!(again.players, 3);
        assert!(again.knocking && !again.ten_rounds && !again.any_order);
        assert_eq!(again.base, "pro-spider-10-first-five");
        // No seed typed: the one given.
        form.seed.clear();
        assert_eq!(form.spec(7).unwrap().seed, 7);
        // Every base with every option that goes with it.
        for base in variant::bases() {
            for (k, t, a) in [
                (false, false, false),
                (true, true, false),
                (true, false, true),
            ] {
                let f = P10Form {
                    base: base.id.clone(),
                    knocking: k,
                    ten_rounds: t,
                    any_order: a,
                    ..P10Form::default()
                };
                let v = f.spec(1).unwrap().variant;
                assert_eq!((v.knocking, v.ten_rounds, v.any_order), (k, t, a));
                assert_eq!(v.phases, base.phases);
            }
        }
        // What does not go: a bad seed, ten rounds with any order.
        form.seed = "twelve".into();
        assert!(form.spec(7).is_err());
        form.seed.clear();
        form.ten_rounds = true;
        form.any_order = true;
        assert!(form.spec(7).is_err());
    }
}
