//! The win message: once a won game's cascade is over (or skipped), a window says so with the
//! score, time, moves and the variant's win rate, and offers a new game, this game's replay
//! and the statistics.
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use bevy_tweening::TweenAnim;

use crate::cards::motion::Celebrating;
use crate::core::i18n::{t, tf, variant_name};
use crate::core::settings::Settings;
use crate::shell::{Overlay, Windows};
use crate::spider::SpiderSystems;
use crate::spider::assist::Ask;
use crate::spider::playback::Control;
use crate::spider::saves::Statistics;
use crate::spider::table::{
    Cause, GameFinished, GameRecord, Request, Table, TableChanged, Watching,
};

pub(crate) fn plugin(app: &mut App) {
    app.init_resource::<WinPending>()
        .add_systems(
            Update,
            announce
                .after(crate::AppSystems::Plan)
                .in_set(SpiderSystems),
        )
        .add_systems(
            EguiPrimaryContextPass,
            win_message.in_set(Overlay::Windows).in_set(SpiderSystems),
        );
}

/// A win was counted and its message waits for the table to come to rest.
#[derive(Resource, Debug, Default)]
struct WinPending(bool);

/// Opens the win message once the won table is at rest; a change of table first (a new
/// game, the viewer) drops it.
fn announce(
    mut finished: MessageReader<GameFinished>,
    mut changed: MessageReader<TableChanged>,
    mut pending: ResMut<WinPending>,
    mut windows: ResMut<Windows>,
    celebrating: Res<Celebrating>,
    watching: Res<Watching>,
    table: Res<Table>,
    anims: Query<(), With<TweenAnim>>,
) {
    for change in changed.read() {
        if !matches!(change.cause, Cause::Move(_) | Cause::Redo) {
            pending.0 = false;
        }
    }
    // The message belongs to a won table: another game on the table (a new one, the viewer's)
    // closes it.
    if windows.won && (!table.game.is_won() || watching.0) {
        windows.won = false;
    }
    if finished.read().any(|f| f.won) && !watching.0 {
        pending.0 = true;
    }
    if pending.0 && !celebrating.0 && anims.is_empty() {
        pending.0 = false;
        windows.won = table.game.is_won();
    }
}

fn win_message(
    mut contexts: EguiContexts,
    mut windows: ResMut<Windows>,
    table: Res<Table>,
    record: Res<GameRecord>,
    stats: Res<Statistics>,
    settings: Res<Settings>,
    mut asks: MessageWriter<Ask>,
    mut requests: MessageWriter<Request>,
    mut controls: MessageWriter<Control>,
) -> Result {
    if windows.won {
        window(
            contexts.ctx_mut()?,
            &mut windows,
            &table,
            &record,
            &stats,
            &settings,
            &mut asks,
            &mut requests,
            &mut controls,
        );
    }
    Ok(())
}

/// The window itself (drawn by the overlay, in its order).
pub(crate) fn window(
    ctx: &egui::Context,
    windows: &mut Windows,
    table: &Table,
    record: &GameRecord,
    stats: &Statistics,
    settings: &crate::core::settings::Settings,
    asks: &mut MessageWriter<crate::spider::assist::Ask>,
    requests: &mut MessageWriter<Request>,
    controls: &mut MessageWriter<Control>,
) {
    if !windows.won {
        return;
    }
    let game = &table.game;
    let variant = &table.spec.variant;
    let mut open = true;
    crate::shell::widgets::fixed_window(
        t("spider.won.title"),
        egui::Align2::CENTER_CENTER,
        egui::Vec2::ZERO,
    )
    .open(&mut open)
    .show(ctx, |ui| {
        let name = variant_name(&variant.id, &variant.name);
        ui.label(tf(
            "spider.won.deal",
            &[("variant", &name), ("deal", &table.spec.seed)],
        ));
        let moves = game.move_count();
        let moves = if moves == 1 {
            t("spider.won.one_move").to_string()
        } else {
            tf("spider.won.moves", &[("moves", &moves)])
        };
        ui.label(tf(
            "spider.won.score",
            &[
                ("score", &game.score()),
                ("time", &crate::shell::widgets::clock(record.clock())),
                ("moves", &moves),
            ],
        ));
        if let Some(s) = stats.variants.get(&variant.id) {
            let games = if s.played == 1 {
                t("spider.won.one_game").to_string()
            } else {
                tf("spider.won.games", &[("games", &s.played)])
            };
            ui.label(tf(
                "spider.won.percent",
                &[
                    ("variant", &name),
                    ("percent", &format!("{:.0}", s.win_percent())),
                    ("games", &games),
                ],
            ));
        }
        if record.assisted {
            ui.label(t("spider.won.assisted"));
        }
        ui.add_space(6.0);
        ui.horizontal(|ui| {
            let new_game = ui.button(t("spider.won.new_game"));
            // The obvious next step has the keyboard's focus: Enter or Space starts it.
            // (Not while Enter or Space is held: its repeats would press it.)
            if ui.memory(|m| m.focused().is_none())
                && !crate::shell::window_keys::pressing_keys_held(ui.ctx(), f64::NEG_INFINITY)
            {
                new_game.request_focus();
            }
            if new_game.clicked() {
                windows.won = false;
                crate::spider::assist::new_deal(table, settings, asks, requests);
            }
            if ui.button(t("spider.won.watch")).clicked() {
                windows.won = false;
                controls.write(Control::history(table, true));
            }
            if ui.button(t("spider.won.statistics")).clicked() {
                windows.won = false;
                windows.stats = true;
            }
        });
    });
    if !open {
        windows.won = false;
    }
}
