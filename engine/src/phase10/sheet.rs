//! The score sheet, kept the way the rulebook's paper sheet is: one row per round, in each
//! player's column the points added and the phase laid (if any), the running totals below.
//! Built from the game's events, so a resumed or replayed game gives the same sheet.

use super::action::{Event, Seat};

/// One finished round.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SheetRow {
    /// Round number, from 1.
    pub round: u32,
    /// Points each seat added.
    pub points: Vec<u32>,
    /// The phase each seat laid in the round, if it laid one.
    pub laid: Vec<Option<u8>>,
    /// Each seat's total after the round.
    pub totals: Vec<u32>,
    /// The seat that went out.
    pub out: Option<Seat>,
}

/// The sheet of a game.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ScoreSheet {
    /// Finished rounds, first first.
    pub rows: Vec<SheetRow>,
    /// The round in progress (0 before the first deal).
    pub round: u32,
    /// Phases laid in the round in progress.
    pub laid_now: Vec<Option<u8>>,
    /// The winners, once the game is over.
    pub winners: Vec<Seat>,
}

impl ScoreSheet {
    /// An empty sheet for `players` seats.
    pub fn new(players: usize) -> ScoreSheet {
        ScoreSheet {
            laid_now: vec![None; players],
            ..ScoreSheet::default()
        }
    }

    /// Writes the events down.
    pub fn record(&mut self, events: &[Event]) {
        for e in events {
            match e {
                Event::RoundStarted { round, .. } => {
                    self.round = *round;
                    self.laid_now.iter_mut().for_each(|l| *l = None);
                }
                Event::Laid { seat, phase, .. } => {
                    if let Some(l) = self.laid_now.get_mut(*seat) {
                        *l = Some(*phase);
                    }
                }
                Event::RoundEnded {
                    out,
                    points,
                    totals,
                    ..
                } => self.rows.push(SheetRow {
                    round: self.round,
                    points: points.clone(),
                    laid: self.laid_now.clone(),
                    totals: totals.clone(),
                    out: *out,
                }),
                Event::GameWon { winners } => self.winners = winners.clone(),
                _ => {}
            }
        }
    }

    /// Phases `seat` laid in the finished rounds.
    pub fn phases_laid(&self, seat: Seat) -> u32 {
        self.rows
            .iter()
            .filter(|r| r.laid.get(seat).is_some_and(Option::is_some))
            .count() as u32
    }

    /// `seat`'s total after the last finished round.
    pub fn total(&self, seat: Seat) -> u32 {
        self.rows
            .last()
            .and_then(|r| r.totals.get(seat).copied())
            .unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::phase10::variant::by_id;
    use crate::phase10::{Game, LogWriter, Stage, ai, check};

    #[test]
    fn the_sheet_adds_up_to_the_engines_standings_and_the_checkers_report() {
        let variant = by_id("pro-spider-10").unwrap().clone();
        for seed in 1..4u64 {
            let (mut game, ev) = Game::new(variant.clone(), 3, seed).unwrap();
            let mut sheet = ScoreSheet::new(3);
            let mut log = LogWriter::new(&variant.id, 3, seed);
            sheet.record(&ev);
            log.record(&ev);
            let mut seats: Vec<_> = (0..3).map(|_| ai::player("petra", 0).unwrap()).collect();
            while !game.is_over() {
                let ev = if game.stage() == Stage::RoundOver {
                    game.next_round().unwrap()
                } else {
                    let seat = game.to_move().unwrap();
                    game.apply(seats[seat].decide(&game.view(seat))).unwrap()
                };
                sheet.record(&ev);
                log.record(&ev);
            }
            let report = check(&log.finish(), &|id| by_id(id).cloned()).unwrap();
            assert_eq!(sheet.rows.len() as u32, report.rounds);
            assert_eq!(sheet.winners, report.winners);
            for seat in 0..3 {
                assert_eq!(sheet.total(seat), game.standings()[seat].points);
                assert_eq!(sheet.phases_laid(seat), game.standings()[seat].phases_laid);
                let added: u32 = sheet.rows.iter().map(|r| r.points[seat]).sum();
                assert_eq!(added, sheet.total(seat));
                assert_eq!(
                    report.seats[seat],
                    (sheet.total(seat), sheet.phases_laid(seat))
                );
            }
        }
    }
}
