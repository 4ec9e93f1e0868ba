//! The rules of a turn: `Game::apply` for every decision and `Game::choices` listing the legal
//! ones, plus the end of a round (scoring, phases, the winner). Skips are served automatically
//! when their seat's turn comes, because that seat has nothing to decide.

use super::action::{Action, Event, Seat};
use super::card::{Card, Counts, KINDS};
use super::game::{Game, GameError, Recent, Stage, shuffle};
use super::meld::{can_lay, lay_options};

impl Game {
    /// Applies one decision of the seat to move; returns what happened, or why it is illegal
    /// (the game is then unchanged).
    pub fn apply(&mut self, action: Action) -> Result<Vec<Event>, GameError> {
        let mut events = Vec::new();
        self.apply_into(action, &mut events)?;
        Ok(events)
    }

    /// [`Game::apply`] with what happened written into `events` (cleared first), so a caller
    /// that applies many decisions (a look-ahead player's playouts) reuses one list.
    pub fn apply_into(&mut self, action: Action, events: &mut Vec<Event>) -> Result<(), GameError> {
        events.clear();
        let not_now = |why: &str| GameError::NotNow {
            action: action.to_string(),
            why: why.to_string(),
        };
        let illegal = |why: String| GameError::Illegal {
            action: action.to_string(),
            why,
        };
        let seat = self.turn;
        match (&action, self.stage) {
            (_, Stage::Over) => return Err(not_now("the game is over")),
            (_, Stage::RoundOver) => return Err(not_now(self.round_over())),
            (
                Action::Knock(card),
                Stage::Knock {
                    card: c, asking, ..
                },
            ) => {
                if *card != c {
                    return Err(illegal(format!("the card to claim is {c}")));
                }
                self.discard.pop();
                // A turn begun by knocking: it took the card, passed nothing by.
                self.recent[asking] = Recent::default();
                self.take(asking, c, true);
                self.knocked_last[asking] = true;
                self.turn = asking;
                self.stage = Stage::Play;
                events.push(Event::Knocked {
                    seat: asking,
                    card: c,
                });
            }
            (
                Action::Pass,
                Stage::Knock {
                    card,
                    discarder,
                    asking,
                },
            ) => {
                self.shunned[asking].add(card);
                match self.next_knocker(discarder, asking) {
                    Some(next) => {
                        self.stage = Stage::Knock {
                            card,
                            discarder,
                            asking: next,
                        }
                    }
                    None => self.begin_turn((discarder + 1) % self.players, events),
                }
            }
            (_, Stage::Knock { .. }) => return Err(not_now("the choice is `knock` or `pass`")),
            (Action::DrawStock, Stage::Draw) => {
                // The card passed by (after a reshuffle, the top card stays where it was).
                let passed = self.discard.last().copied().filter(|c| !c.is_skip());
                if self.stock.is_empty() {
                    events.push(self.reshuffle()?);
                }
                let card = self
                    .stock
                    .pop()
                    .ok_or_else(|| illegal("the stock is empty".into()))?;
                if let Some(top) = passed {
                    self.shunned[seat].add(top);
                }
                self.recent[seat] = Recent {
                    passed,
                    discarded: None,
                };
                self.take(seat, card, false);
                self.knocked_last[seat] = false;
                self.stage = Stage::Play;
                events.push(Event::DrewStock { seat, card });
            }
            (Action::DrawDiscard(card), Stage::Draw) => {
                match self.discard.last() {
                    Some(top) if top == card && !card.is_skip() => {}
                    Some(top) if top == card => {
                        return Err(illegal(
                            "a skip is never taken from the discard pile".into(),
                        ));
                    }
                    Some(top) => {
                        return Err(illegal(format!("the discard pile's top card is {top}")));
                    }
                    None => return Err(illegal("the discard pile is empty".into())),
                }
                self.discard.pop();
                self.recent[seat] = Recent::default();
                self.take(seat, *card, true);
                self.knocked_last[seat] = false;
                self.stage = Stage::Play;
                events.push(Event::DrewDiscard { seat, card: *card });
            }
            (_, Stage::Draw) => return Err(not_now("the turn begins by taking a card")),
            (Action::DrawStock | Action::DrawDiscard(_), _) => {
                return Err(not_now("a card was taken already this turn"));
            }
            (Action::Knock(_) | Action::Pass, _) => {
                return Err(not_now("nobody is asked to knock"));
            }
            (Action::Lay { phase, groups }, Stage::Play) => {
                if let Some(p) = self.laid_phase[seat] {
                    return Err(illegal(format!("phase {p} is laid already this round")));
                }
                let open = self.phases_open(seat);
                let Some(&(_, p)) = open.iter().find(|(_, p)| p.number == *phase) else {
                    return Err(illegal(format!(
                        "the seat's phase is {}, not {phase}",
                        self.next_text(seat)
                    )));
                };
                if groups.len() != p.groups.len() {
                    return Err(illegal(format!(
                        "phase {phase} is {} group(s), not {}",
                        p.groups.len(),
                        groups.len()
                    )));
                }
                for (i, (g, need)) in groups.iter().zip(&p.groups).enumerate() {
                    if !g.meets(*need) {
                        return Err(illegal(format!(
                            "group {} must be a {need}, not {g}",
                            i + 1
                        )));
                    }
                }
                let mut hand = Counts::of(&self.hands[seat]);
                for &c in groups.iter().flat_map(|g| g.cards()) {
                    if !hand.remove(c) {
                        return Err(illegal(format!("the hand holds no (more) {c}")));
                    }
                }
                for &c in groups.iter().flat_map(|g| g.cards()) {
                    self.remove_from_hand(seat, c);
                }
                self.laid[seat].clone_from(groups);
                self.laid_phase[seat] = Some(*phase);
                if !self.quiet {
                    events.push(Event::Laid {
                        seat,
                        phase: *phase,
                        groups: groups.clone(),
                    });
                }
                if self.hands[seat].is_empty() {
                    self.end_round(Some(seat), events);
                }
            }
            (
                Action::Hit {
                    seat: target,
                    group,
                    card,
                },
                Stage::Play,
            ) => {
                if self.laid_phase[seat].is_none() {
                    return Err(illegal(
                        "a seat hits only after laying its own phase this round".into(),
                    ));
                }
                let Some(g) = self.laid.get(*target).and_then(|l| l.get(*group)) else {
                    return Err(illegal(format!(
                        "seat {} has no group {}",
                        target + 1,
                        group + 1
                    )));
                };
                if !self.hands[seat].contains(&card.card) {
                    return Err(illegal(format!("the hand holds no {}", card.card)));
                }
                g.check_hit(*card).map_err(|e| illegal(e.to_string()))?;
                self.laid[*target][*group]
                    .hit(*card)
                    .map_err(|e| illegal(e.to_string()))?;
                self.remove_from_hand(seat, card.card);
                events.push(Event::Hit {
                    seat,
                    target: *target,
                    group: *group,
                    card: *card,
                });
                if self.hands[seat].is_empty() {
                    self.end_round(Some(seat), events);
                }
            }
            (Action::Discard(card), Stage::Play) => {
                if !self.hands[seat].contains(card) {
                    return Err(illegal(format!("the hand holds no {card}")));
                }
                if card.is_skip() && !self.skip_discard_allowed(seat) {
                    return Err(illegal(
                        "a skip is never discarded: play it in front of another seat".into(),
                    ));
                }
                self.remove_from_hand(seat, *card);
                self.discard.push(*card);
                self.shunned[seat].add(*card);
                self.recent[seat].discarded = Some(*card);
                events.push(Event::Discarded { seat, card: *card });
                if self.hands[seat].is_empty() {
                    self.end_round(Some(seat), events);
                } else if self.variant.knocking
                    && !card.is_skip()
                    && let Some(asking) = self.next_knocker(seat, seat)
                {
                    self.stage = Stage::Knock {
                        card: *card,
                        discarder: seat,
                        asking,
                    };
                } else {
                    self.begin_turn((seat + 1) % self.players, events);
                }
            }
            (Action::Skip(target), Stage::Play) => {
                if !self.hands[seat].contains(&Card::SKIP) {
                    return Err(illegal("the hand holds no skip".into()));
                }
                if *target >= self.players {
                    return Err(illegal(format!("there is no seat {}", target + 1)));
                }
                if *target == seat {
                    return Err(illegal("a skip is never played in front of oneself".into()));
                }
                if self.skips[*target] {
                    return Err(illegal(format!(
                        "seat {} has a skip in front of it already",
                        target + 1
                    )));
                }
                self.remove_from_hand(seat, Card::SKIP);
                self.skips[*target] = true;
                events.push(Event::SkipPlaced {
                    seat,
                    target: *target,
                });
                if self.hands[seat].is_empty() {
                    self.end_round(Some(seat), events);
                } else {
                    self.begin_turn((seat + 1) % self.players, events);
                }
            }
        }
        Ok(())
    }

    /// Turns the discard pile except its top card into a new stock. Only when the seat to move
    /// must draw and the stock is empty (`apply(DrawStock)` does it then; the checker calls it
    /// for a log's `reshuffle` line).
    pub fn reshuffle(&mut self) -> Result<Event, GameError> {
        let refused = match self.stage {
            Stage::Over => Some("the game is over"),
            Stage::RoundOver => Some(self.round_over()),
            Stage::Draw if self.stock.is_empty() && self.discard.len() >= 2 => None,
            _ => Some(
                "a reshuffle comes only when a seat must draw, the stock is empty and the discard pile holds more than its top card",
            ),
        };
        if let Some(why) = refused {
            return Err(GameError::NotNow {
                action: "reshuffle".into(),
                why: why.into(),
            });
        }
        let top = self.discard.pop();
        let mut pile = std::mem::take(&mut self.discard);
        shuffle(&mut self.rng, &mut pile);
        pile.reverse();
        self.stock = pile;
        self.discard.extend(top);
        self.reshuffles = self.reshuffles.saturating_add(1);
        Ok(Event::Reshuffled {
            cards: self.stock.len(),
        })
    }

    /// Every legal decision now, each once (distinct discards, distinct hits).
    pub fn choices(&self) -> Vec<Action> {
        let seat = self.turn;
        match self.stage {
            Stage::Over | Stage::RoundOver => Vec::new(),
            Stage::Knock { card, .. } => vec![Action::Knock(card), Action::Pass],
            Stage::Draw => {
                let mut out = vec![Action::DrawStock];
                if let Some(&top) = self.discard.last()
                    && !top.is_skip()
                {
                    out.push(Action::DrawDiscard(top));
                }
                out
            }
            Stage::Play => {
                let mut out = Vec::new();
                let hand = Counts::of(&self.hands[seat]);
                if self.laid_phase[seat].is_none() {
                    for (_, p) in self.phases_open(seat) {
                        for groups in lay_options(&hand, &p.groups) {
                            out.push(Action::Lay {
                                phase: p.number,
                                groups,
                            });
                        }
                    }
                } else {
                    for card in distinct(&self.hands[seat]).filter(|c| !c.is_skip()) {
                        for (target, groups) in self.laid.iter().enumerate() {
                            for (gi, g) in groups.iter().enumerate() {
                                out.extend(g.hits_for(card).map(|h| Action::Hit {
                                    seat: target,
                                    group: gi,
                                    card: h,
                                }));
                            }
                        }
                    }
                }
                out.extend(
                    distinct(&self.hands[seat])
                        .filter(|c| !c.is_skip())
                        .map(Action::Discard),
                );
                if hand.get(Card::SKIP) > 0 {
                    out.extend(
                        (0..self.players)
                            .filter(|&t| t != seat && !self.skips[t])
                            .map(Action::Skip),
                    );
                    if self.skip_discard_allowed(seat) {
                        out.push(Action::Discard(Card::SKIP));
                    }
                }
                out
            }
        }
    }

    /// The one case where a skip may be discarded: the hand holds only skips and every other
    /// seat has one in front of it already, so the turn could not end otherwise.
    fn skip_discard_allowed(&self, seat: Seat) -> bool {
        self.hands[seat].iter().all(|c| c.is_skip())
            && (0..self.players).all(|t| t == seat || self.skips[t])
    }

    /// The next seat after `after` (in seat order from the discarder's left) allowed to knock.
    fn next_knocker(&self, discarder: Seat, after: Seat) -> Option<Seat> {
        let n = self.players;
        let mut s = (after + 1) % n;
        while s != discarder {
            // A seat that knocked to begin its previous turn may not knock again; a seat with a
            // skip in front of it must lose its next turn first.
            if !self.knocked_last[s] && !self.skips[s] {
                return Some(s);
            }
            s = (s + 1) % n;
        }
        None
    }

    fn take(&mut self, seat: Seat, card: Card, public: bool) {
        let hand = &mut self.hands[seat];
        let at = hand.partition_point(|&c| c < card);
        hand.insert(at, card);
        if public {
            self.known[seat].add(card);
        }
    }

    fn remove_from_hand(&mut self, seat: Seat, card: Card) {
        let hand = &mut self.hands[seat];
        if let Some(i) = hand.iter().position(|&c| c == card) {
            hand.remove(i);
        }
        self.known[seat].remove(card);
    }

    /// Whether nobody can ever go out this round: no card in play (in the hands, the stock and
    /// the discard pile) can be hit on a laid group, and no seat that has not laid could make
    /// its phase even from every card in play. A hand gets smaller only by a lay or a hit (a
    /// turn takes a card and gives one up, a skip included), and groups change only by those,
    /// so nothing can be hit later either: no hand ever gets smaller and the round would go on
    /// for ever, reshuffle after reshuffle (it happens: every seat on the colour phase with the
    /// same colour laid, holding only the other colours).
    pub fn stalemate(&self) -> bool {
        let mut in_play = self.in_play();
        in_play.0[Card::SKIP.index()] = 0;
        for i in 0..KINDS {
            let Some(card) = Card::from_index(i) else {
                continue;
            };
            if in_play.get(card) == 0 {
                continue;
            }
            if self.laid.iter().flatten().any(|g| g.takes(card)) {
                return false;
            }
        }
        !(0..self.players).any(|s| {
            self.laid_phase[s].is_none()
                && self
                    .phases_open(s)
                    .iter()
                    .any(|(_, p)| can_lay(&in_play, &p.groups))
        })
    }

    /// What to say of an action after the round's end: when it ended with nobody out although
    /// the discard pile could have been reshuffled, why ([`Game::stalemate`]).
    pub fn round_over(&self) -> &'static str {
        if self.stock.is_empty()
            && self.discard.len() > 1
            && self.hands.iter().all(|h| !h.is_empty())
        {
            "the round is over: the stock is empty and nobody can go out any more (no card in play fits a laid group or makes a phase still to lay), so it ended with nobody out"
        } else {
            "the round is over"
        }
    }

    /// Starts `seat`'s turn, serving skips (each skipped seat's turn passes to its left) and
    /// ending the round when no card can be drawn any more, or, each time the stock is empty,
    /// when nobody can ever go out ([`Game::stalemate`]).
    pub(super) fn begin_turn(&mut self, mut seat: Seat, events: &mut Vec<Event>) {
        while self.skips[seat] {
            self.skips[seat] = false;
            self.knocked_last[seat] = false;
            self.discard.insert(0, Card::SKIP);
            events.push(Event::SkipServed {
                seat,
                up_card: false,
            });
            seat = (seat + 1) % self.players;
        }
        self.turn = seat;
        if self.stock.is_empty() && (self.discard.len() <= 1 || self.stalemate()) {
            self.end_round(None, events);
        } else {
            self.stage = Stage::Draw;
        }
    }

    fn end_round(&mut self, out: Option<Seat>, events: &mut Vec<Event>) {
        let n = self.players;
        let points: Vec<u32> = self
            .hands
            .iter()
            .map(|h| self.variant.points.sum(h))
            .collect();
        let phases = self.variant.phases.len();
        let mut finished = Vec::new();
        let mut advanced = Vec::new();
        for (s, (st, &p)) in self.standings.iter_mut().zip(&points).enumerate() {
            st.points += p;
            let laid = self.laid_phase[s];
            if laid.is_some() {
                st.phases_laid += 1;
            }
            if self.variant.any_order {
                if let Some(number) = laid
                    && let Some((i, _)) = self.variant.phase_by_number(number)
                {
                    st.remaining &= !(1u32 << i);
                    advanced.push(s);
                    if st.remaining == 0 {
                        finished.push(s);
                    }
                }
            } else if laid.is_some() || self.variant.ten_rounds {
                st.next_phase += 1;
                advanced.push(s);
                if st.next_phase >= phases && laid.is_some() {
                    finished.push(s);
                }
            }
        }
        let totals: Vec<u32> = self.standings.iter().map(|s| s.points).collect();
        if !self.quiet {
            let next: Vec<String> = (0..n).map(|s| self.next_text(s)).collect();
            events.push(Event::RoundEnded {
                out,
                hands: self.hands.clone(),
                points,
                totals: totals.clone(),
                next: next.clone(),
            });
            for s in advanced {
                events.push(Event::PhaseAdvanced {
                    seat: s,
                    next: next[s].clone(),
                });
            }
        }
        let candidates: Vec<Seat> = if self.variant.ten_rounds {
            if self.round as usize >= phases {
                (0..n).collect()
            } else {
                Vec::new()
            }
        } else {
            finished
        };
        if let Some(best) = candidates.iter().map(|&s| totals[s]).min() {
            self.winners = candidates
                .into_iter()
                .filter(|&s| totals[s] == best)
                .collect();
            self.stage = Stage::Over;
            events.push(Event::GameWon {
                winners: self.winners.clone(),
            });
        } else {
            self.stage = Stage::RoundOver;
        }
    }
}

/// The distinct cards of a sorted hand.
fn distinct(hand: &[Card]) -> impl Iterator<Item = Card> + '_ {
    hand.iter()
        .enumerate()
        .filter(|&(i, c)| i == 0 || hand[i - 1] != *c)
        .map(|(_, &c)| c)
}
