//! The computer seats. Each decides from its own seat's view only (the engine's `SeatView`), off
//! the frame, once the table is at rest and the pause the settings ask for has passed: on the
//! desktop on Bevy's async pool, in the browser (where that pool runs on the page's thread and
//! a look-ahead decision can outlast a frame) in a Web Worker that keeps the seats' players
//! ([`crate::core::worker`], the engine's `phase10::remote`). A click while they play hurries
//! them: their turns then play at once, until it is the player's turn again.
use arachne_engine::phase10::ai::{self, Player};
use arachne_engine::phase10::play::player_seed;
use arachne_engine::phase10::{Action, Seat};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

use bevy::prelude::*;
use bevy::tasks::{AsyncComputeTaskPool, Task, futures::check_ready};
use bevy_tweening::TweenAnim;

use crate::AppSystems;
use crate::core::settings::Settings;
use crate::phase10::P10Systems;
use crate::phase10::round::{P10Changed, P10Request, P10Table, PLAYER};
use crate::phase10::view::P10Card;

pub(crate) fn plugin(app: &mut App) {
    app.init_resource::<Hurry>().add_systems(
        Update,
        think
            .run_if(crate::phase10::viewer::not_watching)
            // Not while this copy waits for the player to come back from another.
            .run_if(crate::core::persist::plays_on)
            .in_set(AppSystems::Input)
            .in_set(P10Systems),
    );
}

/// With this resource the computer seats decide in the frame that asks, not on the async pool,
/// and each decision lands 1 to 4 frames later, by a hash of the game's position, whatever the
/// machine's load: a test (the soak storm) then plays the same from the same seed, and a
/// failure can be played again, while decisions still land in frames of every kind.
#[derive(Resource, Debug, Default, Clone, Copy)]
#[component(clone_behavior = Ignore)]
pub struct DecideInFrame;

/// The player asked the computer seats to get on with it (a click during their turns).
#[derive(Resource, Debug, Default, Clone, Copy, PartialEq, Eq)]
#[component(clone_behavior = Ignore)]
pub struct Hurry(pub bool);

type Decided = (Box<dyn Player + Send>, Action);

/// The computer players of the game on the table, and the one deciding now.
#[derive(Resource)]
pub struct Seats {
    /// Which game they play (its seed and seat count).
    game: (u64, usize),
    /// This set of players' number, new for every [`Seats`] (the browser's worker keeps its
    /// copies of the players while it stays the same).
    #[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
    table: u64,
    /// By seat; `None` for the player's seat and for a seat whose player is deciding.
    players: Vec<Option<Mutex<Box<dyn Player + Send>>>>,
    /// The seat deciding, and its decision under way (for the game at this position).
    deciding: Option<(Seat, Deciding, crate::phase10::round::Position)>,
    /// Seconds of the pause left before the next computer decision.
    wait: f32,
    /// The browser's worker failed once: the players here decide from then on (the worker's
    /// copies and these would no longer be alike).
    #[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
    local: bool,
}

/// A decision under way.
enum Deciding {
    /// On Bevy's async pool.
    Task(Task<Decided>),
    /// Made in the frame that asked for it ([`DecideInFrame`]), taken once the frames left are
    /// none.
    Made(Mutex<Option<Decided>>, u8),
    /// In the browser's worker.
    #[cfg(target_arch = "wasm32")]
    Worker(web::Decision),
}

/// Numbers the sets of players.
static TABLES: AtomicU64 = AtomicU64::new(0);

impl Seats {
    /// The computer players of `table`'s game, each seeded from the game's seed and its seat.
    pub fn for_table(table: &P10Table) -> Seats {
        let spec = &table.spec;
        let players = (0..spec.players)
            .map(|seat| {
                (seat != PLAYER)
                    .then(|| ai::player(&spec.levels[seat - 1], player_seed(spec.seed, seat)))
                    .flatten()
                    .map(Mutex::new)
            })
            .collect();
        Seats {
            game: (spec.seed, spec.players),
            table: TABLES.fetch_add(1, Ordering::Relaxed) + 1,
            players,
            deciding: None,
            wait: 0.0,
            local: false,
        }
    }

    /// Whether a computer seat is deciding now.
    pub fn deciding(&self) -> Option<Seat> {
        self.deciding.as_ref().map(|(s, _, _)| *s)
    }
}

fn think(
    mut commands: Commands,
    table: Res<P10Table>,
    seats: Option<ResMut<Seats>>,
    mut hurry: ResMut<Hurry>,
    mut changed: MessageReader<P10Changed>,
    mut requests: MessageWriter<P10Request>,
    settings: Res<Settings>,
    time: Res<Time>,
    moving: Query<(), (With<P10Card>, With<TweenAnim>)>,
    in_frame: Option<Res<DecideInFrame>>,
) {
    let in_frame = in_frame.is_some();
    let spec = &table.spec;
    let Some(mut seats) = seats.filter(|s| s.game == (spec.seed, spec.players)) else {
        commands.insert_resource(Seats::for_table(&table));
        return;
    };
    // (A table only laid out again, a resize or the hand sorted, is no change of the game.)
    let changes: Vec<bool> = changed
        .read()
        .filter(|c| c.changes_game())
        .map(|c| c.new_game)
        .collect();
    if changes.iter().any(|&new_game| new_game) {
        *seats = Seats::for_table(&table);
        hurry.0 = false;
    }
    if !changes.is_empty() {
        // Every change is seen to land, then a pause, before the next computer decision.
        seats.wait = settings.phase10.pause_secs(&settings.animation);
    }
    if let Some((seat, deciding, at)) = seats.deciding.as_mut() {
        let (seat, at) = (*seat, *at);
        let decided = match deciding {
            Deciding::Task(task) => check_ready(task).map(|decided| (decided, false)),
            Deciding::Made(made, frames) => {
                *frames = frames.saturating_sub(1);
                (*frames == 0)
                    .then(|| made.get_mut().ok().and_then(Option::take))
                    .flatten()
                    .map(|decided| (decided, false))
            }
            #[cfg(target_arch = "wasm32")]
            Deciding::Worker(decision) => decision.poll(),
        };
        if let Some(((player, action), failed)) = decided {
            seats.local |= failed;
            seats.deciding = None;
            seats.players[seat] = Some(Mutex::new(player));
            requests.write(P10Request::Computer(seat, action, at));
        }
        return;
    }
    let Some(seat) = table.game.to_move() else {
        hurry.0 = false;
        return;
    };
    if seat == PLAYER {
        hurry.0 = false;
        return;
    }
    if !hurry.0 {
        // The player watches each decision land before the next.
        if !moving.is_empty() {
            return;
        }
        if seats.wait > 0.0 {
            seats.wait -= time.delta_secs();
            return;
        }
    }
    #[cfg_attr(target_arch = "wasm32", allow(unused_mut))]
    let Some(Ok(mut player)) = seats
        .players
        .get_mut(seat)
        .and_then(Option::take)
        .map(Mutex::into_inner)
    else {
        return;
    };
    let view = table.game.view(seat);
    #[cfg(target_arch = "wasm32")]
    let ask = arachne_engine::phase10::remote::Ask {
        table: seats.table,
        seat,
        level: spec.levels[seat - 1].clone(),
        seed: player_seed(spec.seed, seat),
        passes: table.passes,
    };
    #[cfg(target_arch = "wasm32")]
    let (mut player, view) = if seats.local {
        (player, view)
    } else {
        match web::Decision::post(&ask, &table.log.text_so_far(), player, view) {
            Ok(decision) => {
                seats.deciding = Some((seat, Deciding::Worker(decision), table.position()));
                return;
            }
            Err((e, player, view)) => {
                tracing::error!("a computer seat's worker could not start ({e}): deciding here");
                seats.local = true;
                (player, *view)
            }
        }
    };
    let at = table.position();
    let deciding = if in_frame {
        let action = player.decide(&view);
        let (a, b) = at;
        let frames = 1 + (a.wrapping_mul(31).wrapping_add(b).wrapping_mul(0x9E37_79B9) >> 7) % 4;
        Deciding::Made(Mutex::new(Some((player, action))), frames as u8)
    } else {
        Deciding::Task(AsyncComputeTaskPool::get().spawn(async move {
            let action = player.decide(&view);
            (player, action)
        }))
    };
    seats.deciding = Some((seat, deciding, at));
}

/// A decision asked of the browser's worker.
#[cfg(target_arch = "wasm32")]
mod web {
    use std::sync::Mutex;

    use arachne_engine::phase10::SeatView;
    use arachne_engine::phase10::ai::Player;
    use arachne_engine::phase10::remote::{self, Ask};

    use super::Decided;
    use crate::core::worker::{self, Lane};

    /// The worker that keeps the computer seats' players.
    const LANE: Lane = Lane::Own("phase10");

    /// A decision under way in the worker, which keeps its own copy of the seat's player. This
    /// side's player waits; it decides here only if the worker fails. Dropping the decision
    /// ends the worker's work (and its players: the next request starts them afresh, as a new
    /// [`super::Seats`] does).
    pub struct Decision {
        id: Option<u32>,
        player: Mutex<Option<Box<dyn Player + Send>>>,
        view: Box<SeatView>,
    }

    /// A decision that could not be asked: why, and the player and view back (boxed: a view is
    /// large, and an error is moved about more often than it happens).
    type NotAsked = (String, Box<dyn Player + Send>, Box<SeatView>);

    impl Decision {
        /// Asks the worker for `ask`'s decision in the game `log` tells, from `view`.
        pub fn post(
            ask: &Ask,
            log: &str,
            player: Box<dyn Player + Send>,
            view: SeatView,
        ) -> Result<Decision, NotAsked> {
            match worker::post(LANE, &remote::request(ask, log)) {
                Ok(id) => Ok(Decision {
                    id: Some(id),
                    player: Mutex::new(Some(player)),
                    view: Box::new(view),
                }),
                Err(e) => Err((e, player, Box::new(view))),
            }
        }

        /// The player and its decision once the answer has come (one of the view's choices),
        /// and whether the worker failed (this side's player decided instead).
        pub fn poll(&mut self) -> Option<(Decided, bool)> {
            let answer = worker::take(self.id?)?;
            self.id = None;
            let mut player = self.player.get_mut().ok()?.take()?;
            let (action, failed) =
                match answer.and_then(|text| remote::read_answer(&text, &self.view.choices)) {
                    Ok(action) => (action, false),
                    Err(e) => {
                        tracing::error!("a computer seat's worker failed ({e}): deciding here");
                        (player.decide(&self.view), true)
                    }
                };
            Some(((player, action), failed))
        }
    }

    impl Drop for Decision {
        fn drop(&mut self) {
            if let Some(id) = self.id.take() {
                worker::end(id);
            }
        }
    }
}
