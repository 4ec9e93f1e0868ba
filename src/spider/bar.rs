//! Spider's bar along the bottom (variant, deal, score, moves, time, outlook, and the game's
//! buttons; the replay viewer's transport while watching) and the label over the stock.
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use crate::core::i18n::{t as tr, tf, variant_name};
use crate::core::theme::Theme;
use crate::shell::widgets::{Icon, KeyboardList, bar_button, clock, icon_button};
use crate::shell::{Overlay, Windows};
use crate::spider::SpiderSystems;
use crate::spider::assist::{Ask, Outlook, Thinking};
use crate::spider::highlights::Highlights;
use crate::spider::hint::AskHint;
use crate::spider::layout::Layout;
use crate::spider::playback::{Control, Playback, SPEEDS};
use crate::spider::table::{GameRecord, Request, Table};

pub(crate) fn plugin(app: &mut App) {
    app.add_systems(
        EguiPrimaryContextPass,
        ((stock_label, bar).chain().in_set(Overlay::Bar)).in_set(SpiderSystems),
    );
}

/// "N deals left" above the stock, ending at its right edge (so Huge Spider's stays inside the
/// window). Beneath every window, and never in the pointer's way.
fn stock_label(
    mut contexts: EguiContexts,
    layout: Option<Res<Layout>>,
    table: Res<Table>,
    theme: Res<Theme>,
    window: Query<&Window, With<bevy::window::PrimaryWindow>>,
) -> Result {
    let (Some(layout), Ok(window)) = (layout, window.single()) else {
        return Ok(());
    };
    let ctx = contexts.ctx_mut()?;
    let text = match table.game.position().deals_left() {
        0 => tr("spider.bar.stock_empty").to_string(),
        1 => tr("spider.bar.one_deal_left").to_string(),
        n => tf("spider.bar.deals_left", &[("deals", &n)]),
    };
    // The layout's origin is the window's centre, y up; egui's is its top left, y down.
    let at = egui::pos2(
        layout.stock.x + layout.card.x / 2.0 + window.width() / 2.0,
        window.height() / 2.0 - (layout.stock.y + layout.card.y / 2.0 + 12.0),
    );
    let [r, g, b, _] = theme.text.to_srgba().to_u8_array();
    egui::Area::new(egui::Id::new("stock-label"))
        .order(egui::Order::Background)
        .fixed_pos(at)
        .pivot(egui::Align2::RIGHT_CENTER)
        .interactable(false)
        .show(ctx, |ui| {
            ui.style_mut().wrap_mode = Some(egui::TextWrapMode::Extend);
            ui.label(
                egui::RichText::new(text)
                    .size(15.0)
                    .color(egui::Color32::from_rgb(r, g, b)),
            );
        });
    Ok(())
}

fn bar(
    mut contexts: EguiContexts,
    table: Res<Table>,
    record: Res<GameRecord>,
    highlights: Res<Highlights>,
    outlook: Res<Outlook>,
    thinking: Option<Res<Thinking>>,
    playback: Option<Res<Playback>>,
    window: Query<&Window, With<bevy::window::PrimaryWindow>>,
    mut windows: ResMut<Windows>,
    mut requests: MessageWriter<Request>,
    mut hints: MessageWriter<AskHint>,
    mut asks: MessageWriter<Ask>,
    mut controls: MessageWriter<Control>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    // (Every pass: whether hints show for the keyboard's control.)
    crate::shell::window_keys::keyboard_in_use(ctx);
    // With no window or question open the keyboard belongs to the table: a widget focused in
    // a window that has closed must not take Enter or Space. (With the question left out, its
    // buttons lost the focus Tab gave them every frame: no keyboard could answer yes.)
    if !windows.any() && !windows.question {
        ctx.memory_mut(|m| {
            if let Some(id) = m.focused() {
                m.surrender_focus(id);
            }
        });
    }
    // The table leaves the bar a band as tall as its rows (`layout::bar`): one row in a wide
    // window, the facts above the buttons in a narrower one, and on a phone held upright the
    // facts wrap too (three or four rows).
    let one_row = window
        .single()
        .map_or(true, |w| crate::spider::layout::bar::one_row(w.width()));
    egui::Area::new(egui::Id::new("bar"))
        .anchor(egui::Align2::CENTER_BOTTOM, egui::vec2(0.0, -6.0))
        .show(ctx, |ui| {
            egui::Frame::popup(ui.style()).show(ui, |ui| {
                // Rows that grow with their text (a narrow first frame must not wrap them).
                ui.style_mut().wrap_mode = Some(egui::TextWrapMode::Extend);
                if let Some(p) = playback.as_deref().filter(|p| p.kind.watching()) {
                    if one_row {
                        ui.horizontal(|ui| viewer_controls(ui, p, &mut controls, false));
                    } else {
                        // Two rows, as the game's own bar: Close, the title and where the
                        // replay is above the steps, the speed and the slider.
                        let width = ctx.content_rect().width();
                        ui.vertical(|ui| {
                            ui.set_max_width((width - 24.0).max(200.0));
                            viewer_controls(ui, p, &mut controls, true);
                        });
                    }
                    return;
                }
                let mut buttons = |ui: &mut egui::Ui| {
                    bar_controls(
                        ui,
                        &table,
                        &highlights,
                        &outlook,
                        thinking.as_deref(),
                        playback.as_deref(),
                        &mut windows,
                        (&mut requests, &mut hints, &mut asks, &mut controls),
                    )
                };
                if one_row {
                    ui.horizontal(|ui| {
                        bar_facts(ui, &table, &record, &outlook);
                        ui.separator();
                        buttons(ui);
                    });
                } else {
                    // On a phone's width even two rows may not fit: they wrap rather than run
                    // off the screen (the Menu button with them).
                    let width = ctx.content_rect().width();
                    ui.vertical(|ui| {
                        ui.set_max_width((width - 24.0).max(200.0));
                        ui.horizontal_wrapped(|ui| {
                            if crate::spider::layout::bar::three_rows(width) {
                                ui.style_mut().wrap_mode = Some(egui::TextWrapMode::Wrap);
                            }
                            bar_facts(ui, &table, &record, &outlook)
                        });
                        ui.horizontal_wrapped(|ui| buttons(ui));
                    });
                }
            });
        });
    Ok(())
}

/// The bar's facts: variant, deal, score, moves, time, and whether the game can still be won.
fn bar_facts(ui: &mut egui::Ui, table: &Table, record: &GameRecord, outlook: &Outlook) {
    let game = &table.game;
    let v = &table.spec.variant;
    ui.label(tf(
        "spider.bar.facts",
        &[
            ("variant", &variant_name(&v.id, &v.name)),
            ("deal", &table.spec.seed),
            ("score", &game.score()),
            ("moves", &game.move_count()),
            ("time", &clock(record.clock())),
        ],
    ));
    ui.separator();
    if game.is_won() {
        ui.colored_label(egui::Color32::from_rgb(90, 200, 110), tr("spider.bar.won"));
    } else {
        outlook_label(ui, outlook);
    }
}

/// The bar's buttons, or what a running search or auto-complete offers instead.
fn bar_controls(
    ui: &mut egui::Ui,
    table: &Table,
    highlights: &Highlights,
    outlook: &Outlook,
    thinking: Option<&Thinking>,
    playback: Option<&Playback>,
    windows: &mut Windows,
    (requests, hints, asks, controls): (
        &mut MessageWriter<Request>,
        &mut MessageWriter<AskHint>,
        &mut MessageWriter<Ask>,
        &mut MessageWriter<Control>,
    ),
) {
    let game = &table.game;
    if let Some(t) = thinking {
        let tried = t.tried;
        ui.spinner();
        if t.job == crate::spider::assist::Job::WinnableDeal {
            ui.label(tf(
                "spider.bar.tried",
                &[("job", &tr(t.job.describe())), ("tried", &tried)],
            ));
        } else {
            ui.label(tr(t.job.describe()));
        }
        if ui.add(bar_button(tr("spider.bar.cancel"))).clicked() {
            asks.write(Ask::Cancel);
        }
        return;
    }
    if let Some(p) = playback {
        ui.label(tr("spider.bar.autocompleting"));
        speed_choice(ui, p, controls);
        if ui
            .add(bar_button(tr("spider.bar.stop")))
            .on_hover_text(tr("spider.bar.stop_hover"))
            .clicked()
        {
            controls.write(Control::Close);
        }
        return;
    }
    // With an undo limit the button says how many are left, and why it is
    // grey once there are none.
    let label = match game.undos_left() {
        Some(n) => tf("spider.bar.undo_left", &[("left", &n)]),
        None => tr("spider.bar.undo").to_string(),
    };
    let undo = ui
        .add_enabled(game.can_undo() && !game.is_won(), bar_button(label))
        .on_hover_text(tr("spider.bar.undo_hover"));
    let undo = match game.undos_left() {
        _ if game.is_won() => undo.on_disabled_hover_text(tr("spider.bar.undo_won")),
        Some(0) => undo.on_disabled_hover_text(tf(
            "spider.bar.no_undos",
            &[("limit", &game.options().undo_limit.unwrap_or(0))],
        )),
        _ => undo.on_disabled_hover_text(tr("spider.bar.nothing_to_undo")),
    };
    if undo.clicked() {
        requests.write(Request::Undo);
    }
    if ui
        .add_enabled(game.can_redo(), bar_button(tr("spider.bar.redo")))
        .clicked()
    {
        requests.write(Request::Redo);
    }
    let hint = if highlights.thinking {
        tr("spider.bar.thinking")
    } else {
        tr("spider.bar.hint")
    };
    if ui.add_enabled(!game.is_won(), bar_button(hint)).clicked() {
        hints.write(AskHint);
    }
    let can_finish = !game.is_won() && *outlook != Outlook::Lost;
    if ui
        .add_enabled(can_finish, bar_button(tr("spider.bar.autocomplete")))
        .on_hover_text(tr("spider.bar.autocomplete_hover"))
        .clicked()
    {
        asks.write(Ask::AutoComplete);
    }
    if ui.add(bar_button(tr("spider.bar.menu"))).clicked() {
        windows.open("menu");
    }
}

fn outlook_label(ui: &mut egui::Ui, outlook: &Outlook) {
    let amber = egui::Color32::from_rgb(220, 190, 90);
    let (text, colour, tip) = match outlook {
        Outlook::Off => return,
        Outlook::Checking => (
            "spider.outlook.checking",
            egui::Color32::GRAY,
            tr("spider.outlook.checking_hover").to_string(),
        ),
        Outlook::Winnable(_) => (
            "spider.outlook.winnable",
            egui::Color32::from_rgb(90, 200, 110),
            tr("spider.outlook.winnable_hover").to_string(),
        ),
        Outlook::Lost => (
            "spider.outlook.lost",
            egui::Color32::from_rgb(230, 100, 90),
            tr("spider.outlook.lost_hover").to_string(),
        ),
        Outlook::Unknown => (
            "spider.outlook.unknown",
            amber,
            tr("spider.outlook.unknown_hover").to_string(),
        ),
        // Amber like "unknown": nothing is known about the game, it is not lost.
        Outlook::Failed(why) => (
            "spider.outlook.failed",
            amber,
            tf("spider.outlook.failed_hover", &[("why", why)]),
        ),
    };
    ui.colored_label(colour, tr(text)).on_hover_text(tip);
}

/// The viewer's controls on one row, or on two (in a bar as wide as `ui` leaves): Close, the
/// title and where the replay is, then the steps, the speed and the slider.
fn viewer_controls(
    ui: &mut egui::Ui,
    p: &Playback,
    controls: &mut MessageWriter<Control>,
    two_rows: bool,
) {
    let total = p.moves.len();
    let close = |ui: &mut egui::Ui, controls: &mut MessageWriter<Control>| {
        // Close comes first: at the bar's far left it is never where a button of the game's
        // own bar appears once the viewer has gone (a second click there did something else).
        if ui
            .add(bar_button(tr("spider.viewer.close")))
            .on_hover_text("Esc")
            .clicked()
        {
            controls.write(Control::Close);
        }
        ui.separator();
    };
    // A long file name gives way (cut short) to the controls on a narrow bar.
    let title = |ui: &mut egui::Ui| {
        ui.add(egui::Label::new(egui::RichText::new(p.kind.title()).strong()).truncate());
    };
    let where_ = |ui: &mut egui::Ui| {
        ui.label(tf(
            "spider.viewer.move_of",
            &[("move", &p.at), ("moves", &total)],
        ));
    };
    let steps = |ui: &mut egui::Ui, controls: &mut MessageWriter<Control>| {
        if icon_button(ui, Icon::ToStart, true)
            .on_hover_text(tr("spider.viewer.to_start"))
            .clicked()
        {
            controls.write(Control::ToStart);
        }
        if icon_button(ui, Icon::Back, p.at > 0)
            .on_hover_text(tr("spider.viewer.back"))
            .clicked()
        {
            controls.write(Control::StepBack);
        }
        let (icon, tip) = if p.playing {
            (Icon::Pause, tr("spider.viewer.pause"))
        } else {
            (Icon::Play, tr("spider.viewer.play"))
        };
        if icon_button(ui, icon, true).on_hover_text(tip).clicked() {
            controls.write(Control::Toggle);
        }
        if icon_button(ui, Icon::Forward, !p.at_end())
            .on_hover_text(tr("spider.viewer.forward"))
            .clicked()
        {
            controls.write(Control::StepForward);
        }
        if icon_button(ui, Icon::ToEnd, true)
            .on_hover_text(tr("spider.viewer.to_end"))
            .clicked()
        {
            controls.write(Control::ToEnd);
        }
        ui.separator();
        speed_choice(ui, p, controls);
        ui.separator();
        if two_rows {
            // The slider takes what the steps and the speed leave of a phone's width.
            ui.spacing_mut().slider_width = (ui.available_width() - 8.0).clamp(40.0, 100.0);
        }
        let mut at = p.at;
        let slider = egui::Slider::new(&mut at, 0..=total)
            .show_value(false)
            .trailing_fill(true);
        let slider = ui.add(slider);
        if slider.changed() {
            controls.write(Control::Seek(at));
        }
        // A released slider gives the keyboard back at once (the first Esc only let go of it).
        if slider.drag_stopped() || slider.clicked() {
            slider.surrender_focus();
        }
    };
    if two_rows {
        ui.horizontal(|ui| {
            close(ui, controls);
            where_(ui);
            ui.separator();
            title(ui);
        });
        ui.horizontal(|ui| steps(ui, controls));
    } else {
        close(ui, controls);
        title(ui);
        ui.separator();
        steps(ui, controls);
        where_(ui);
    }
}

fn speed_choice(ui: &mut egui::Ui, p: &Playback, controls: &mut MessageWriter<Control>) {
    let mut speed = p.speed;
    egui::ComboBox::from_id_salt("speed")
        .selected_text(format!("{}×", p.speed))
        .width(60.0)
        .show_list(ui, |ui| {
            for s in SPEEDS {
                ui.selectable_value(&mut speed, s, format!("{s}×"));
            }
        });
    if speed != p.speed {
        controls.write(Control::Speed(speed));
    }
}
