//! The computer seats. Each decides from its own seat's view only (the engine's `SeatView`), off
//! the frame on Bevy's async pool, once the table is at rest and the pause the settings ask for
//! has passed. A click while they play hurries them: their turns then play at once, until it is
//! the player's turn again.
use arachne_engine::phase10::ai::{self, Player};
use arachne_engine::phase10::play::player_seed;
use arachne_engine::phase10::{Action, Seat};
use std::sync::Mutex;

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
            .in_set(AppSystems::Input)
            .in_set(P10Systems),
    );
}

/// The player asked the computer seats to get on with it (a click during their turns).
#[derive(Resource, Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Hurry(pub bool);

type Decided = (Box<dyn Player + Send>, Action);

/// The computer players of the game on the table, and the one deciding now.
#[derive(Resource)]
pub struct Seats {
    /// Which game they play (its seed and seat count).
    game: (u64, usize),
    /// By seat; `None` for the player's seat and for a seat whose player is deciding.
    players: Vec<Option<Mutex<Box<dyn Player + Send>>>>,
    /// The seat deciding, and its decision under way.
    deciding: Option<(Seat, Task<Decided>)>,
    /// Seconds of the pause left before the next computer decision.
    wait: f32,
}

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
            players,
            deciding: None,
            wait: 0.0,
        }
    }

    /// Whether a computer seat is deciding now.
    pub fn deciding(&self) -> Option<Seat> {
        self.deciding.as_ref().map(|(s, _)| *s)
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
) {
    let spec = &table.spec;
    let Some(mut seats) = seats.filter(|s| s.game == (spec.seed, spec.players)) else {
        commands.insert_resource(Seats::for_table(&table));
        return;
    };
    let changes: Vec<bool> = changed.read().map(|c| c.new_game).collect();
    if changes.iter().any(|&new_game| new_game) {
        *seats = Seats::for_table(&table);
        hurry.0 = false;
    }
    if !changes.is_empty() {
        // Every change is seen to land, then a pause, before the next computer decision.
        seats.wait = settings.phase10.pause_secs(&settings.animation);
    }
    if let Some((seat, task)) = seats.deciding.as_mut() {
        let seat = *seat;
        if let Some((player, action)) = check_ready(task) {
            seats.deciding = None;
            seats.players[seat] = Some(Mutex::new(player));
            requests.write(P10Request::Computer(seat, action));
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
    let Some(Ok(mut player)) = seats
        .players
        .get_mut(seat)
        .and_then(Option::take)
        .map(Mutex::into_inner)
    else {
        return;
    };
    let view = table.game.view(seat);
    let task = AsyncComputeTaskPool::get().spawn(async move {
        let action = player.decide(&view);
        (player, action)
    });
    seats.deciding = Some((seat, task));
}
