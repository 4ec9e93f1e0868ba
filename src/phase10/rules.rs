//! Pro Spider 10's rules and help (written for this game), with the overview card of its phases:
//! each phase in words and in little card pictures.
use arachne_engine::phase10::{Colour, Need, P10Variant, Phase};
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use crate::core::i18n::{t, tf, variant_name};
use crate::phase10::P10Systems;
use crate::phase10::hud::describe;
use crate::phase10::round::P10Table;
use crate::shell::widgets::fixed_window;
use crate::shell::{Overlay, Windows};

pub(crate) fn plugin(app: &mut App) {
    app.add_systems(
        EguiPrimaryContextPass,
        help.in_set(Overlay::Windows).in_set(P10Systems),
    );
}

/// The rules, paragraph by paragraph: title and text keys.
pub const RULES: &[(&str, &str)] = &[
    ("p10.rules.aim.title", "p10.rules.aim.text"),
    ("p10.rules.turn.title", "p10.rules.turn.text"),
    ("p10.rules.groups.title", "p10.rules.groups.text"),
    ("p10.rules.skips.title", "p10.rules.skips.text"),
    ("p10.rules.end.title", "p10.rules.end.text"),
    ("p10.rules.variants.title", "p10.rules.variants.text"),
    ("p10.rules.keys.title", "p10.rules.keys.text"),
];

/// Example cards for a group: `(value, colour)`, a value of 0 for a joker.
pub fn example(need: Need, index: usize) -> Vec<(u8, Colour)> {
    let colours = Colour::ALL;
    let n = usize::from(need.size());
    match need {
        Need::Set(_) => {
            let value = [7, 4, 11, 2][index % 4];
            (0..n).map(|i| (value, colours[i % 4])).collect()
        }
        Need::Run(_) => {
            let start = if n >= 9 { 2 } else { 3 + index as u8 % 3 };
            (0..n)
                .map(|i| (start + i as u8, colours[(i * 3 + index) % 4]))
                .collect()
        }
        Need::Colour(_) => {
            let colour = colours[(index + 2) % 4];
            [1, 3, 4, 6, 8, 9, 12, 10, 5, 2]
                .iter()
                .take(n)
                .map(|&v| (v, colour))
                .collect()
        }
    }
}

fn colour32(colour: Colour) -> egui::Color32 {
    match colour {
        Colour::Red => egui::Color32::from_rgb(200, 40, 40),
        Colour::Blue => egui::Color32::from_rgb(40, 80, 200),
        Colour::Green => egui::Color32::from_rgb(30, 140, 60),
        Colour::Yellow => egui::Color32::from_rgb(200, 150, 0),
    }
}

/// A little card: white, its value in its colour.
fn little_card(ui: &mut egui::Ui, value: u8, colour: Colour) {
    let (rect, _) = ui.allocate_exact_size(egui::vec2(16.0, 22.0), egui::Sense::hover());
    let painter = ui.painter();
    painter.rect_filled(rect, 2.0, egui::Color32::WHITE);
    painter.rect_stroke(
        rect,
        2.0,
        egui::Stroke::new(1.0, egui::Color32::from_gray(90)),
        egui::StrokeKind::Inside,
    );
    painter.text(
        rect.center(),
        egui::Align2::CENTER_CENTER,
        value.to_string(),
        egui::FontId::proportional(11.0),
        colour32(colour),
    );
}

/// One phase of the overview: number, words, and its groups as little cards.
fn phase_row(ui: &mut egui::Ui, phase: &Phase) {
    ui.strong(phase.number.to_string());
    ui.label(describe(phase));
    ui.horizontal(|ui| {
        ui.spacing_mut().item_spacing.x = 2.0;
        for (i, &need) in phase.groups.iter().enumerate() {
            if i > 0 {
                ui.add_space(10.0);
            }
            for (value, colour) in example(need, i) {
                little_card(ui, value, colour);
            }
        }
    });
    ui.end_row();
}

/// The overview card of a variant's phases.
pub fn phase_card(ui: &mut egui::Ui, variant: &P10Variant) {
    egui::Grid::new("p10-phase-card")
        .striped(true)
        .spacing([12.0, 4.0])
        .show(ui, |ui| {
            for phase in &variant.phases {
                phase_row(ui, phase);
            }
        });
}

fn help(mut contexts: EguiContexts, table: Res<P10Table>, mut windows: ResMut<Windows>) -> Result {
    if !windows.help {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let screen = ctx.content_rect().size();
    let mut open = true;
    fixed_window(
        t("p10.rules.title"),
        egui::Align2::CENTER_CENTER,
        egui::vec2(0.0, -20.0),
    )
    .open(&mut open)
    .show(ctx, |ui| {
        crate::shell::window_keys::keyboard_on_open(
            ui,
            "p10-rules",
            crate::shell::window_keys::OnOpen::Scroll,
        );
        egui::ScrollArea::vertical()
            .max_height((screen.y - 140.0).max(120.0))
            .show(ui, |ui| {
                crate::shell::window_keys::keyboard_scroll(ui);
                ui.set_max_width((screen.x - 60.0).clamp(200.0, 620.0));
                let v = table.game.variant();
                ui.heading(tf(
                    "p10.rules.phases_of",
                    &[("variant", &variant_name(&v.id, &v.name))],
                ));
                phase_card(ui, table.game.variant());
                for &(title, text) in RULES {
                    ui.add_space(6.0);
                    ui.strong(t(title));
                    ui.label(t(text));
                }
            });
    });
    if !open {
        windows.help = false;
    }
    Ok(())
}
