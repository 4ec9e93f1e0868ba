//! A game of Pro Spider 10: seats' totals and phases across rounds, and the round in progress
//! (hands, stock, discard pile, laid groups, skips). The rules of a turn are in `rules.rs`; this
//! file holds the state, the deal and what each seat may see.
//!
//! Deals are reproducible: round `k` of seed `s` shuffles the canonical 108-card deck (sorted as
//! `Card::deck`) with Fisher-Yates driven by ChaCha8 keyed with `s` (8 bytes little-endian)
//! followed by `k` (4 bytes little-endian) and zeros, drawing `j` uniformly in `0..=i` for
//! `i = 107..1` by rejection from 32-bit outputs. Card `i` of the shuffled deck goes to seat
//! `(dealer + 1 + i) mod N` for `i < 10 N`, the next card is the up-card and the rest is the
//! stock, drawn in order. A reshuffle shuffles the discard pile except its top card (bottom card
//! first) with the same generator, continued, and the result is drawn in order.

use std::sync::Arc;

use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};

use super::action::{Event, Seat};
use super::card::{Card, Counts};
use super::group::Group;
use super::variant::{P10Variant, Phase};

/// Where the game is: whose decision, and of which kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// The seat to move must take a card.
    Draw,
    /// The seat to move has taken a card: lay, hit, then discard or skip.
    Play,
    /// `asking` may knock for `card`, which `discarder` just discarded.
    Knock {
        /// The discarded card.
        card: Card,
        /// Who discarded it.
        discarder: Seat,
        /// Whose decision it is.
        asking: Seat,
    },
    /// The round is over; `next_round` deals the next one.
    RoundOver,
    /// The game is over.
    Over,
}

/// A seat's standing across rounds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Standing {
    /// Total points (lower is better).
    pub points: u32,
    /// Index into the variant's phase list of the phase to lay next (in order variants).
    pub next_phase: usize,
    /// Phases not laid yet, as a bit mask over the phase list (any-order variant).
    pub remaining: u32,
    /// Phases this seat has laid in the whole game.
    pub phases_laid: u32,
}

/// Why an action or a deal was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    /// The action does not fit the stage (e.g. a discard before drawing).
    #[error("`{action}` is not possible now: {why}")]
    NotNow {
        /// The action.
        action: String,
        /// What is expected instead.
        why: String,
    },
    /// The action breaks a rule.
    #[error("`{action}`: {why}")]
    Illegal {
        /// The action.
        action: String,
        /// The rule broken.
        why: String,
    },
    /// A deal that is not a deal of this game.
    #[error("bad deal: {0}")]
    BadDeal(String),
}

/// What a seat was seen doing in its latest turn of the round (public, like the whole table). A
/// turn lost to a skip is not a turn: the record stays that of the turn before.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Recent {
    /// The discard pile's top card when it drew from the stock instead (none when it took the
    /// top card, or the top was a skip).
    pub passed: Option<Card>,
    /// The card it discarded to end that turn (none after a skip or before it discarded).
    pub discarded: Option<Card>,
}

/// The whole state of a game.
#[derive(Debug)]
pub struct Game {
    pub(super) variant: Arc<P10Variant>,
    pub(super) players: usize,
    pub(super) seed: u64,
    pub(super) round: u32,
    pub(super) standings: Vec<Standing>,
    pub(super) hands: Vec<Vec<Card>>,
    /// Top card last.
    pub(super) stock: Vec<Card>,
    /// Top card last.
    pub(super) discard: Vec<Card>,
    pub(super) laid: Vec<Vec<Group>>,
    pub(super) laid_phase: Vec<Option<u8>>,
    pub(super) skips: Vec<bool>,
    pub(super) knocked_last: Vec<bool>,
    /// Cards every seat knows to be in this seat's hand (taken from the discard pile).
    pub(super) known: Vec<Counts>,
    /// Cards each seat let go this round, for everyone to see: the discard pile's top card when
    /// it drew from the stock instead (or passed on a knock), and the cards it discarded.
    pub(super) shunned: Vec<Counts>,
    /// Each seat's latest turn this round, for everyone to see.
    pub(super) recent: Vec<Recent>,
    /// Times the stock was reshuffled this round, for everyone to see.
    pub(super) reshuffles: u32,
    pub(super) turn: Seat,
    pub(super) stage: Stage,
    pub(super) rng: ChaCha8Rng,
    pub(super) winners: Vec<Seat>,
    /// Whether `apply` leaves out the events nobody reads in a look-ahead player's playouts
    /// (a round's end and a lay, which cost the most to write); the state is the same.
    pub(super) quiet: bool,
}

impl Clone for Game {
    fn clone(&self) -> Game {
        Game {
            variant: self.variant.clone(),
            players: self.players,
            seed: self.seed,
            round: self.round,
            standings: self.standings.clone(),
            hands: self.hands.clone(),
            stock: self.stock.clone(),
            discard: self.discard.clone(),
            laid: self.laid.clone(),
            laid_phase: self.laid_phase.clone(),
            skips: self.skips.clone(),
            knocked_last: self.knocked_last.clone(),
            known: self.known.clone(),
            shunned: self.shunned.clone(),
            recent: self.recent.clone(),
            reshuffles: self.reshuffles,
            turn: self.turn,
            stage: self.stage,
            rng: self.rng.clone(),
            winners: self.winners.clone(),
            quiet: self.quiet,
        }
    }

    /// Keeps this game's lists (a look-ahead player plays out many games from one deal). The
    /// source is taken apart field by field, so a field added later must be copied here too.
    fn clone_from(&mut self, source: &Game) {
        let Game {
            variant,
            players,
            seed,
            round,
            standings,
            hands,
            stock,
            discard,
            laid,
            laid_phase,
            skips,
            knocked_last,
            known,
            shunned,
            recent,
            reshuffles,
            turn,
            stage,
            rng,
            winners,
            quiet,
        } = source;
        self.variant.clone_from(variant);
        self.players = *players;
        self.seed = *seed;
        self.round = *round;
        self.standings.clone_from(standings);
        self.hands.clone_from(hands);
        self.stock.clone_from(stock);
        self.discard.clone_from(discard);
        self.laid.clone_from(laid);
        self.laid_phase.clone_from(laid_phase);
        self.skips.clone_from(skips);
        self.knocked_last.clone_from(knocked_last);
        self.known.clone_from(known);
        self.shunned.clone_from(shunned);
        self.recent.clone_from(recent);
        self.reshuffles = *reshuffles;
        self.turn = *turn;
        self.stage = *stage;
        self.rng.clone_from(rng);
        self.winners.clone_from(winners);
        self.quiet = *quiet;
    }
}

/// A uniform number in `0..n` from 32-bit outputs by rejection (no library sampling algorithm,
/// so deals never change with a dependency's version).
pub(super) fn below(rng: &mut ChaCha8Rng, n: u32) -> u32 {
    let limit = u32::MAX - u32::MAX % n;
    loop {
        let x = rng.next_u32();
        if x < limit {
            return x % n;
        }
    }
}

/// Fisher-Yates from the last card down.
pub(super) fn shuffle(rng: &mut ChaCha8Rng, cards: &mut [Card]) {
    for i in (1..cards.len()).rev() {
        let j = below(rng, i as u32 + 1) as usize;
        cards.swap(i, j);
    }
}

/// The generator of round `round` of `seed`.
pub fn round_rng(seed: u64, round: u32) -> ChaCha8Rng {
    let mut key = [0u8; 32];
    key[..8].copy_from_slice(&seed.to_le_bytes());
    key[8..12].copy_from_slice(&round.to_le_bytes());
    ChaCha8Rng::from_seed(key)
}

impl Game {
    /// A new game with round 1 dealt. Fails if the variant does not allow `players` seats.
    pub fn new(
        variant: Arc<P10Variant>,
        players: usize,
        seed: u64,
    ) -> Result<(Game, Vec<Event>), GameError> {
        let mut game = Game::before_first_round(variant, players, seed)?;
        let events = game.next_round()?;
        Ok((game, events))
    }

    /// A game whose first round is not dealt yet (stage `RoundOver`, round 0): the checker deals
    /// it from a log with [`Game::start_round_with`].
    pub fn before_first_round(
        variant: Arc<P10Variant>,
        players: usize,
        seed: u64,
    ) -> Result<Game, GameError> {
        let (min, max) = (
            usize::from(variant.players.min),
            usize::from(variant.players.max),
        );
        if !(min..=max).contains(&players) {
            return Err(GameError::BadDeal(format!(
                "{} is for {min} to {max} players, not {players}",
                variant.id
            )));
        }
        let all = if variant.phases.len() >= 32 {
            u32::MAX
        } else {
            (1u32 << variant.phases.len()) - 1
        };
        Ok(Game {
            standings: vec![
                Standing {
                    points: 0,
                    next_phase: 0,
                    remaining: all,
                    phases_laid: 0,
                };
                players
            ],
            hands: vec![Vec::new(); players],
            stock: Vec::new(),
            discard: Vec::new(),
            laid: vec![Vec::new(); players],
            laid_phase: vec![None; players],
            skips: vec![false; players],
            knocked_last: vec![false; players],
            known: vec![Counts::default(); players],
            shunned: vec![Counts::default(); players],
            recent: vec![Recent::default(); players],
            reshuffles: 0,
            turn: 0,
            stage: Stage::RoundOver,
            rng: round_rng(seed, 0),
            winners: Vec::new(),
            quiet: false,
            variant,
            players,
            seed,
            round: 0,
        })
    }

    /// Deals the next round from the seed (see the module documentation).
    pub fn next_round(&mut self) -> Result<Vec<Event>, GameError> {
        if self.stage != Stage::RoundOver {
            return Err(GameError::BadDeal("the round is not over".into()));
        }
        let mut rng = round_rng(self.seed, self.round + 1);
        let mut deck = Card::deck();
        shuffle(&mut rng, &mut deck);
        let dealer = self.dealer_of(self.round + 1);
        let n = self.players;
        let per = usize::from(self.variant.hand_size);
        let mut hands = vec![Vec::with_capacity(per + 1); n];
        for (i, &card) in deck[..per * n].iter().enumerate() {
            hands[(dealer + 1 + i) % n].push(card);
        }
        let up = deck[per * n];
        let mut stock = deck[per * n + 1..].to_vec();
        stock.reverse();
        Ok(self.start_round(hands, up, stock, rng, true))
    }

    /// Deals the next round with the given hands and up-card (from a log); the stock is every
    /// other card, in an order that does not matter to a checker (it names each card drawn).
    pub fn start_round_with(
        &mut self,
        hands: Vec<Vec<Card>>,
        up: Card,
    ) -> Result<Vec<Event>, GameError> {
        if self.stage != Stage::RoundOver {
            return Err(GameError::BadDeal("the round is not over".into()));
        }
        if hands.len() != self.players {
            return Err(GameError::BadDeal(format!(
                "{} hands for {} players",
                hands.len(),
                self.players
            )));
        }
        let per = usize::from(self.variant.hand_size);
        let mut left = Counts::of(&Card::deck());
        for (i, h) in hands.iter().enumerate() {
            if h.len() != per {
                return Err(GameError::BadDeal(format!(
                    "hand {} has {} cards, not {per}",
                    i + 1,
                    h.len()
                )));
            }
        }
        for &c in hands.iter().flatten().chain(std::iter::once(&up)) {
            if !left.remove(c) {
                return Err(GameError::BadDeal(format!(
                    "the deck holds only {} of {c}",
                    c.copies()
                )));
            }
        }
        let stock = left.cards();
        let rng = round_rng(self.seed, self.round + 1);
        Ok(self.start_round(hands, up, stock, rng, false))
    }

    fn start_round(
        &mut self,
        mut hands: Vec<Vec<Card>>,
        up: Card,
        stock: Vec<Card>,
        rng: ChaCha8Rng,
        deal_order: bool,
    ) -> Vec<Event> {
        self.round += 1;
        let n = self.players;
        let dealer = self.dealer_of(self.round);
        let mut events = vec![Event::RoundStarted {
            round: self.round,
            dealer,
        }];
        if deal_order {
            for i in 0..usize::from(self.variant.hand_size) * n {
                let seat = (dealer + 1 + i) % n;
                events.push(Event::Dealt {
                    seat,
                    card: hands[seat][i / n],
                });
            }
        } else {
            for (seat, h) in hands.iter().enumerate() {
                events.extend(h.iter().map(|&card| Event::Dealt { seat, card }));
            }
        }
        events.push(Event::UpCard(up));
        for h in &mut hands {
            h.sort_unstable();
        }
        self.hands = hands;
        self.stock = stock;
        self.discard = vec![up];
        self.laid = vec![Vec::new(); n];
        self.laid_phase = vec![None; n];
        self.skips = vec![false; n];
        // Knocks are not forgotten: a seat whose last turn of a round began with a knock may
        // not begin its first turn of the next one with a knock either (the spec's "previous
        // turn" and the rulebook's "never twice in a row" know no rounds).
        self.known = vec![Counts::default(); n];
        self.shunned = vec![Counts::default(); n];
        self.recent = vec![Recent::default(); n];
        self.reshuffles = 0;
        self.rng = rng;
        let first = (dealer + 1) % n;
        if up.is_skip() {
            // The up-card skip costs the first player its turn and stays on the pile (a turn
            // lost, as to any skip, is a turn not begun with a knock).
            self.knocked_last[first] = false;
            events.push(Event::SkipServed {
                seat: first,
                up_card: true,
            });
            self.begin_turn((first + 1) % n, &mut events);
        } else {
            self.begin_turn(first, &mut events);
        }
        events
    }

    /// The dealer of round `round` (from 1): seat N deals round 1, then the deal passes left.
    pub fn dealer_of(&self, round: u32) -> Seat {
        (self.players - 1 + (round.max(1) as usize - 1)) % self.players
    }

    /// The variant.
    pub fn variant(&self) -> &Arc<P10Variant> {
        &self.variant
    }

    /// Number of seats.
    pub fn players(&self) -> usize {
        self.players
    }

    /// The seed.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The current round, from 1 (0 before the first deal).
    pub fn round(&self) -> u32 {
        self.round
    }

    /// Where the game is.
    pub fn stage(&self) -> Stage {
        self.stage
    }

    /// The seat whose turn it is (or was, when the round is over).
    pub fn turn(&self) -> Seat {
        self.turn
    }

    /// The seat that decides now, if any.
    pub fn to_move(&self) -> Option<Seat> {
        match self.stage {
            Stage::Draw | Stage::Play => Some(self.turn),
            Stage::Knock { asking, .. } => Some(asking),
            Stage::RoundOver | Stage::Over => None,
        }
    }

    /// Each seat's standing.
    pub fn standings(&self) -> &[Standing] {
        &self.standings
    }

    /// A seat's hand, sorted.
    pub fn hand(&self, seat: Seat) -> &[Card] {
        &self.hands[seat]
    }

    /// The stock, top card last.
    pub fn stock(&self) -> &[Card] {
        &self.stock
    }

    /// The discard pile, top card last.
    pub fn discard_pile(&self) -> &[Card] {
        &self.discard
    }

    /// The groups each seat laid this round.
    pub fn laid(&self) -> &[Vec<Group>] {
        &self.laid
    }

    /// The phase number each seat laid this round.
    pub fn laid_phase(&self) -> &[Option<u8>] {
        &self.laid_phase
    }

    /// Where a skip lies in front of a seat.
    pub fn skips(&self) -> &[bool] {
        &self.skips
    }

    /// The winners, once the game is over.
    pub fn winners(&self) -> &[Seat] {
        &self.winners
    }

    /// Whether the game is over.
    pub fn is_over(&self) -> bool {
        self.stage == Stage::Over
    }

    /// The cards still in play: in the hands, the stock and the discard pile.
    pub fn in_play(&self) -> Counts {
        let mut c = Counts::default();
        for &card in self
            .hands
            .iter()
            .flatten()
            .chain(&self.stock)
            .chain(&self.discard)
        {
            c.add(card);
        }
        c
    }

    /// Every card of the round, wherever it is (for conservation checks): hands, stock, discard
    /// pile, laid groups and skips lying in front of seats.
    pub fn all_cards(&self) -> Counts {
        let mut c = self.in_play();
        for &card in self.laid.iter().flatten().flat_map(|g| g.cards()) {
            c.add(card);
        }
        for _ in self.skips.iter().filter(|&&s| s) {
            c.add(Card::SKIP);
        }
        c
    }

    /// The phases a seat may lay now (one in order variants, any not laid in any-order), with
    /// their index in the variant's list.
    pub fn phases_open(&self, seat: Seat) -> Vec<(usize, &Phase)> {
        let st = &self.standings[seat];
        if self.variant.any_order {
            self.variant
                .phases
                .iter()
                .enumerate()
                .filter(|(i, _)| st.remaining & (1 << i) != 0)
                .collect()
        } else {
            self.variant
                .phases
                .get(st.next_phase)
                .map(|p| (st.next_phase, p))
                .into_iter()
                .collect()
        }
    }

    /// A seat's next phase(s) as the log writes them: `3`, `2+5+9` (any-order), or `done`.
    pub fn next_text(&self, seat: Seat) -> String {
        let open: Vec<String> = self
            .phases_open(seat)
            .iter()
            .map(|(_, p)| p.number.to_string())
            .collect();
        if open.is_empty() {
            "done".into()
        } else {
            open.join("+")
        }
    }

    /// Makes `apply` leave out the events of a round's end and of a lay (quiet) or write them
    /// again: a look-ahead player's playouts never read them, and the game plays the same.
    pub fn set_quiet(&mut self, quiet: bool) {
        self.quiet = quiet;
    }

    /// Moves `card` to the top of the stock (for the checker, which reads each stock draw from
    /// the log, and for samplers). Fails if the stock does not hold it.
    pub fn force_stock_top(&mut self, card: Card) -> Result<(), GameError> {
        let i = self
            .stock
            .iter()
            .rposition(|&c| c == card)
            .ok_or_else(|| GameError::Illegal {
                action: format!("draw stock {card}"),
                why: format!("the stock holds no {card}"),
            })?;
        let top = self.stock.len() - 1;
        self.stock.swap(i, top);
        Ok(())
    }
}
