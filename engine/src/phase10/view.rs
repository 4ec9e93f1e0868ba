//! What one seat may know: its own hand, everything on the table, other seats' card counts, the
//! cards others were seen taking from the discard pile and the cards they were seen letting go. Computer players decide only from a
//! [`SeatView`] (or, inside a look-ahead's playouts, from a [`ViewRef`], the same borrowed);
//! [`SeatView::sample`] deals the hidden cards at random, consistently with the view, for
//! players that look ahead. The external-player protocol's block is printed from it.

use std::sync::Arc;

use rand_chacha::ChaCha8Rng;

use super::action::{Action, Seat};
use super::card::{Card, Counts, cards_text};
use super::game::{Game, Recent, Stage, Standing, round_rng, shuffle};
use super::group::Group;
use super::variant::P10Variant;

/// Everything one seat may know at a decision.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatView {
    /// The seat this view belongs to.
    pub seat: Seat,
    /// The variant.
    pub variant: Arc<P10Variant>,
    /// Number of seats.
    pub players: usize,
    /// Round number, from 1.
    pub round: u32,
    /// Where the game is.
    pub stage: Stage,
    /// Whose turn it is.
    pub turn: Seat,
    /// This seat's hand, sorted.
    pub hand: Vec<Card>,
    /// The discard pile, top card last (it is face up; a player may remember all of it).
    pub discard: Vec<Card>,
    /// Cards in the stock.
    pub stock: usize,
    /// Every seat's laid groups this round.
    pub laid: Vec<Vec<Group>>,
    /// The phase number each seat laid this round.
    pub laid_phase: Vec<Option<u8>>,
    /// Cards in each seat's hand.
    pub hand_sizes: Vec<usize>,
    /// Where a skip lies in front of a seat.
    pub skips: Vec<bool>,
    /// Seats whose previous turn began with a knock.
    pub knocked_last: Vec<bool>,
    /// Cards each seat was seen taking from the discard pile and still holds.
    pub known: Vec<Counts>,
    /// Cards each seat was seen letting go this round: the discard pile's top card when it drew
    /// from the stock instead (or passed on a knock), and the cards it discarded.
    pub shunned: Vec<Counts>,
    /// What each seat was seen doing in its latest turn this round.
    pub recent: Vec<Recent>,
    /// Times the stock was reshuffled this round.
    pub reshuffles: u32,
    /// Each seat's points and phases.
    pub standings: Vec<Standing>,
    /// The legal choices now (empty when it is not this seat's decision).
    pub choices: Vec<Action>,
}

impl Game {
    /// What `seat` may know now.
    pub fn view(&self, seat: Seat) -> SeatView {
        let mut v = self.bare_view(seat);
        if self.to_move() == Some(seat) {
            v.choices = self.choices();
        }
        v
    }
}

impl Game {
    /// [`Game::view`] without the list of choices, for look-ahead players that compute their own
    /// (listing every way to lay a phase is the costly part of a view).
    pub fn bare_view(&self, seat: Seat) -> SeatView {
        SeatView {
            seat,
            variant: self.variant.clone(),
            players: self.players,
            round: self.round,
            stage: self.stage,
            turn: self.turn,
            hand: self.hands[seat].clone(),
            discard: self.discard.clone(),
            stock: self.stock.len(),
            laid: self.laid.clone(),
            laid_phase: self.laid_phase.clone(),
            hand_sizes: self.hands.iter().map(Vec::len).collect(),
            skips: self.skips.clone(),
            knocked_last: self.knocked_last.clone(),
            known: self.known.clone(),
            shunned: self.shunned.clone(),
            recent: self.recent.clone(),
            reshuffles: self.reshuffles,
            standings: self.standings.clone(),
            choices: Vec::new(),
        }
    }
}

impl Game {
    /// [`Game::bare_view`] written into `v`, reusing its buffers (for a look-ahead player that
    /// asks for the views of many games; its playouts borrow theirs, [`Game::view_ref`]).
    pub fn bare_view_into(&self, seat: Seat, v: &mut SeatView) {
        v.laid.clone_from(&self.laid);
        v.seat = seat;
        // The same variant in every view of a game: no reference count to touch.
        if !Arc::ptr_eq(&v.variant, &self.variant) {
            v.variant.clone_from(&self.variant);
        }
        v.players = self.players;
        v.round = self.round;
        v.stage = self.stage;
        v.turn = self.turn;
        v.hand.clone_from(&self.hands[seat]);
        v.discard.clone_from(&self.discard);
        v.stock = self.stock.len();
        v.laid_phase.clone_from(&self.laid_phase);
        v.hand_sizes.clear();
        v.hand_sizes.extend(self.hands.iter().map(Vec::len));
        v.skips.clone_from(&self.skips);
        v.knocked_last.clone_from(&self.knocked_last);
        v.known.clone_from(&self.known);
        v.shunned.clone_from(&self.shunned);
        v.recent.clone_from(&self.recent);
        v.reshuffles = self.reshuffles;
        v.standings.clone_from(&self.standings);
        v.choices.clear();
    }

    /// What `seat` may know now, borrowed from the game instead of copied, without the list of
    /// choices: for a look-ahead player's playouts, which ask Petra for a decision at every step
    /// (a copied [`SeatView`] cost as much as a sixth of her time in the browser's wasm).
    pub fn view_ref(&self, seat: Seat) -> ViewRef<'_> {
        ViewRef {
            seat,
            variant: &self.variant,
            players: self.players,
            round: self.round,
            stage: self.stage,
            turn: self.turn,
            hand: &self.hands[seat],
            discard: &self.discard,
            stock: self.stock.len(),
            laid: &self.laid,
            laid_phase: &self.laid_phase,
            hand_sizes: HandSizes::Of(&self.hands),
            skips: &self.skips,
            knocked_last: &self.knocked_last,
            known: &self.known,
            shunned: &self.shunned,
            recent: &self.recent,
            reshuffles: self.reshuffles,
            standings: &self.standings,
            choices: &[],
        }
    }
}

/// A [`SeatView`] borrowed from where it lives (a `SeatView`, or the game itself through
/// [`Game::view_ref`]): the same fields, nothing copied. Petra decides from it. Like a
/// `SeatView` it shows one seat's hand and what is public; the other hands stay private (only
/// their sizes can be asked, [`ViewRef::hand_size`], and only their sizes are printed).
#[derive(Clone, Copy, Debug)]
pub struct ViewRef<'a> {
    /// The seat this view belongs to.
    pub seat: Seat,
    /// The variant.
    pub variant: &'a P10Variant,
    /// Number of seats.
    pub players: usize,
    /// Round number, from 1.
    pub round: u32,
    /// Where the game is.
    pub stage: Stage,
    /// Whose turn it is.
    pub turn: Seat,
    /// This seat's hand, sorted.
    pub hand: &'a [Card],
    /// The discard pile, top card last.
    pub discard: &'a [Card],
    /// Cards in the stock.
    pub stock: usize,
    /// Every seat's laid groups this round.
    pub laid: &'a [Vec<Group>],
    /// The phase number each seat laid this round.
    pub laid_phase: &'a [Option<u8>],
    hand_sizes: HandSizes<'a>,
    /// Where a skip lies in front of a seat.
    pub skips: &'a [bool],
    /// Seats whose previous turn began with a knock.
    pub knocked_last: &'a [bool],
    /// Cards each seat was seen taking from the discard pile and still holds.
    pub known: &'a [Counts],
    /// Cards each seat was seen letting go this round.
    pub shunned: &'a [Counts],
    /// What each seat was seen doing in its latest turn this round.
    pub recent: &'a [Recent],
    /// Times the stock was reshuffled this round.
    pub reshuffles: u32,
    /// Each seat's points and phases.
    pub standings: &'a [Standing],
    /// The legal choices now (empty when it is not this seat's decision, and in a playout).
    pub choices: &'a [Action],
}

/// Where a [`ViewRef`] reads the hands' sizes: a view's list, or the game's hands (which it
/// never shows, not even when printed).
#[derive(Clone, Copy)]
enum HandSizes<'a> {
    Listed(&'a [usize]),
    Of(&'a [Vec<Card>]),
}

impl std::fmt::Debug for HandSizes<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            HandSizes::Listed(sizes) => f.debug_list().entries(sizes.iter()).finish(),
            HandSizes::Of(hands) => f.debug_list().entries(hands.iter().map(Vec::len)).finish(),
        }
    }
}

/// Two borrowed views are equal when they show the same, wherever they were borrowed from.
impl PartialEq for ViewRef<'_> {
    fn eq(&self, other: &ViewRef<'_>) -> bool {
        self.seat == other.seat
            && self.variant == other.variant
            && self.players == other.players
            && self.round == other.round
            && self.stage == other.stage
            && self.turn == other.turn
            && self.hand == other.hand
            && self.discard == other.discard
            && self.stock == other.stock
            && self.laid == other.laid
            && self.laid_phase == other.laid_phase
            && (0..self.players).all(|s| self.hand_size(s) == other.hand_size(s))
            && self.skips == other.skips
            && self.knocked_last == other.knocked_last
            && self.known == other.known
            && self.shunned == other.shunned
            && self.recent == other.recent
            && self.reshuffles == other.reshuffles
            && self.standings == other.standings
            && self.choices == other.choices
    }
}

impl ViewRef<'_> {
    /// The cards this seat cannot see: the deck minus its hand, the discard pile, laid groups,
    /// skips in front of seats, and cards known to be in other hands.
    pub fn unseen(&self) -> Counts {
        static DECK: std::sync::OnceLock<Counts> = std::sync::OnceLock::new();
        let mut left = *DECK.get_or_init(|| Counts::of(&Card::deck()));
        for &c in self
            .hand
            .iter()
            .chain(self.discard)
            .chain(self.laid.iter().flatten().flat_map(|g| g.cards()))
        {
            left.remove(c);
        }
        for _ in self.skips.iter().filter(|&&s| s) {
            left.remove(Card::SKIP);
        }
        for (s, k) in self.known.iter().enumerate() {
            if s != self.seat {
                left.remove_all(k);
            }
        }
        left
    }

    /// Cards in seat `s`'s hand.
    pub fn hand_size(&self, s: Seat) -> usize {
        match self.hand_sizes {
            HandSizes::Listed(sizes) => sizes[s],
            HandSizes::Of(hands) => hands[s].len(),
        }
    }
}

impl SeatView {
    /// This view, borrowed ([`ViewRef`]).
    pub fn view_ref(&self) -> ViewRef<'_> {
        ViewRef {
            seat: self.seat,
            variant: &self.variant,
            players: self.players,
            round: self.round,
            stage: self.stage,
            turn: self.turn,
            hand: &self.hand,
            discard: &self.discard,
            stock: self.stock,
            laid: &self.laid,
            laid_phase: &self.laid_phase,
            hand_sizes: HandSizes::Listed(&self.hand_sizes),
            skips: &self.skips,
            knocked_last: &self.knocked_last,
            known: &self.known,
            shunned: &self.shunned,
            recent: &self.recent,
            reshuffles: self.reshuffles,
            standings: &self.standings,
            choices: &self.choices,
        }
    }
}

impl SeatView {
    /// The cards this seat cannot see ([`ViewRef::unseen`]).
    pub fn unseen(&self) -> Counts {
        self.view_ref().unseen()
    }

    /// A whole game consistent with this view: the unseen cards shuffled into the other hands
    /// (besides the cards known to be there) and the stock. The game's own generator (for a later
    /// reshuffle) is drawn from `rng` too.
    pub fn sample(&self, rng: &mut ChaCha8Rng) -> Game {
        self.sample_by(rng, &|_, _| 1.0)
    }

    /// Like [`SeatView::sample`], but each unseen card goes into seat `s`'s hand only with
    /// probability `accept(s, card)` each time it comes up (the cards are dealt from the
    /// shuffled unseen cards in order; one turned down stays for the stock or a later seat), so a
    /// player can make cards it believes unlikely in a hand rarer there. Any hand still short
    /// when every card came up once is filled with the next cards regardless.
    pub fn sample_by(&self, rng: &mut ChaCha8Rng, accept: &dyn Fn(Seat, Card) -> f64) -> Game {
        self.sample_from(&self.unseen().cards(), rng, accept)
    }

    /// [`SeatView::sample_by`] with this view's unseen cards listed by the caller (`unseen`:
    /// `self.unseen().cards()`), who deals many games from one view.
    pub fn sample_from(
        &self,
        unseen: &[Card],
        rng: &mut ChaCha8Rng,
        accept: &dyn Fn(Seat, Card) -> f64,
    ) -> Game {
        let mut game = self.blank();
        self.sample_into(unseen, rng, accept, &mut game);
        game
    }

    /// A game for [`SeatView::deal_into`] to write: every field is written there.
    fn blank(&self) -> Game {
        Game {
            variant: self.variant.clone(),
            players: self.players,
            seed: 0,
            round: self.round,
            standings: Vec::new(),
            hands: Vec::new(),
            stock: Vec::new(),
            discard: Vec::new(),
            laid: Vec::new(),
            laid_phase: Vec::new(),
            skips: Vec::new(),
            knocked_last: Vec::new(),
            known: Vec::new(),
            shunned: Vec::new(),
            recent: Vec::new(),
            reshuffles: 0,
            turn: self.turn,
            stage: self.stage,
            rng: round_rng(0, self.round),
            winners: Vec::new(),
            quiet: false,
        }
    }

    /// [`SeatView::sample_from`] written into `game`, whatever it held, reusing its lists (a
    /// look-ahead player deals a game for every few dozen playout decisions). The same deal
    /// from the same `rng`.
    pub fn sample_into(
        &self,
        unseen: &[Card],
        rng: &mut ChaCha8Rng,
        accept: &dyn Fn(Seat, Card) -> f64,
        game: &mut Game,
    ) {
        self.deal_into(unseen, rng, accept, None, game);
    }

    /// A deal of this view in which each seat also holds the cards `holds` gives it (a
    /// measurement's deal: a harness that knows some hands deals them, and the rest at random
    /// from the unseen cards those hands do not hold). `holds[s]` are cards beyond what the view
    /// knows seat `s` to hold; this seat's own entry is ignored. What each seat is known to hold
    /// stays what the view says.
    pub fn sample_holding(&self, rng: &mut ChaCha8Rng, holds: &[Counts]) -> Game {
        let mut unseen = self.unseen();
        for (s, h) in holds.iter().enumerate() {
            if s != self.seat {
                unseen.remove_all(h);
            }
        }
        let mut game = self.blank();
        self.deal_into(&unseen.cards(), rng, &|_, _| 1.0, Some(holds), &mut game);
        game
    }

    /// [`SeatView::sample_into`], each seat also given `holds` (whose cards `unseen` leaves
    /// out) when there are any.
    fn deal_into(
        &self,
        unseen: &[Card],
        rng: &mut ChaCha8Rng,
        accept: &dyn Fn(Seat, Card) -> f64,
        holds: Option<&[Counts]>,
        game: &mut Game,
    ) {
        // Every field is written below; taken apart here so that a field added later must be
        // written too.
        let Game {
            variant,
            players,
            seed,
            round,
            standings,
            hands,
            stock: pool,
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
            rng: game_rng,
            winners,
            quiet,
        } = game;
        // The shuffled pool is dealt in place: `pool[..dealt]` went into hands, the rest is the
        // stock, in the same order.
        pool.clear();
        pool.extend_from_slice(unseen);
        shuffle(rng, pool);
        let mut dealt = 0;
        hands.truncate(self.players);
        hands.resize_with(self.players, Vec::new);
        for (s, h) in hands.iter_mut().enumerate() {
            h.clear();
            if s == self.seat {
                h.extend_from_slice(&self.hand);
                continue;
            }
            self.known[s].cards_into(h);
            if let Some(held) = holds.and_then(|holds| holds.get(s)) {
                held.cards_into(h);
            }
            let want = self.hand_sizes[s];
            let mut i = dealt;
            let mut forced = false;
            while h.len() < want && dealt < pool.len() {
                if i >= pool.len() {
                    i = dealt;
                    forced = true;
                }
                let c = pool[i];
                let p = if forced { 1.0 } else { accept(s, c) };
                let take = p >= 1.0
                    || (p > 0.0 && f64::from(super::game::below(rng, 1 << 16)) < p * 65536.0);
                if take {
                    pool.swap(dealt, i);
                    h.push(c);
                    dealt += 1;
                }
                i += 1;
            }
            h.sort_unstable();
        }
        pool.drain(..dealt);
        let dealt_seed = u64::from(super::game::below(rng, u32::MAX))
            | (u64::from(super::game::below(rng, u32::MAX)) << 32);
        if !Arc::ptr_eq(variant, &self.variant) {
            variant.clone_from(&self.variant);
        }
        *players = self.players;
        *seed = dealt_seed;
        *round = self.round;
        standings.clone_from(&self.standings);
        discard.clone_from(&self.discard);
        laid.clone_from(&self.laid);
        laid_phase.clone_from(&self.laid_phase);
        skips.clone_from(&self.skips);
        knocked_last.clone_from(&self.knocked_last);
        known.clone_from(&self.known);
        shunned.clone_from(&self.shunned);
        recent.clone_from(&self.recent);
        *reshuffles = self.reshuffles;
        *turn = self.turn;
        *stage = self.stage;
        *game_rng = round_rng(dealt_seed, self.round);
        winners.clear();
        *quiet = false;
    }

    /// A seat's phase(s) to lay as the protocol writes them (`3`, `1+2+5`, `done`).
    pub fn phase_text(&self, seat: Seat) -> String {
        let st = &self.standings[seat];
        let open: Vec<String> = if self.variant.any_order {
            self.variant
                .phases
                .iter()
                .enumerate()
                .filter(|(i, _)| st.remaining & (1 << i) != 0)
                .map(|(_, p)| p.number.to_string())
                .collect()
        } else {
            self.variant
                .phases
                .get(st.next_phase)
                .map(|p| p.number.to_string())
                .into_iter()
                .collect()
        };
        if open.is_empty() {
            "done".into()
        } else {
            open.join("+")
        }
    }

    /// The protocol block for this decision (without `seen` lines and `go`).
    pub fn block(&self) -> String {
        let join = |v: Vec<String>| v.join(" ");
        let n = self.players;
        let mut out = format!("seat {} of {n}\n", self.seat + 1);
        out += &format!("variant {}\n", self.variant.id);
        out += &format!("round {}\n", self.round);
        out += &format!(
            "phases {}\n",
            join((0..n).map(|s| self.phase_text(s)).collect())
        );
        out += &format!(
            "points {}\n",
            join(
                self.standings
                    .iter()
                    .map(|s| s.points.to_string())
                    .collect()
            )
        );
        out += &format!(
            "cards {}\n",
            join(self.hand_sizes.iter().map(usize::to_string).collect())
        );
        out += &format!(
            "skips {}\n",
            join(
                self.skips
                    .iter()
                    .map(|&s| u8::from(s).to_string())
                    .collect()
            )
        );
        for (s, groups) in self.laid.iter().enumerate() {
            for (g, group) in groups.iter().enumerate() {
                out += &format!("laid {}.{} {group}\n", s + 1, g + 1);
            }
        }
        out += &format!(
            "discard {}\n",
            self.discard.last().map_or("none".into(), Card::to_string)
        );
        out += &format!("stock {}\n", self.stock);
        out += &format!("hand {}\n", cards_text(&self.hand));
        out
    }
}
