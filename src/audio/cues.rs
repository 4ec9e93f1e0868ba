//! The sound cues of both games: which effect, when, at what pitch. A game's view plans cues
//! with its motion ([`PendingSounds`]); they are sent as [`PlaySfx`] at their moment, and the
//! audio plugin (absent in headless runs) plays them.
use bevy::prelude::*;

use crate::AppSystems;

pub(crate) fn plugin(app: &mut App) {
    app.init_resource::<PendingSounds>()
        .add_message::<PlaySfx>()
        .add_systems(Update, cue_sounds.in_set(AppSystems::Motion));
}

/// The game's sound effects.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Sfx {
    /// A card picked up.
    Pick,
    /// Cards put down.
    Drop,
    /// A card turned over.
    Flip,
    /// A card dealt from the stock.
    Deal,
    /// A move the rules refuse.
    Invalid,
    /// A run went to the foundation.
    RunCompleted,
    /// The game is won.
    Win,
    /// A skip card flies to the seat it skips, or is served.
    Skip,
    /// The game is over and the player is not among its winners.
    Lost,
}

impl Sfx {
    /// Every effect.
    pub const ALL: [Sfx; 9] = [
        Sfx::Pick,
        Sfx::Drop,
        Sfx::Flip,
        Sfx::Deal,
        Sfx::Invalid,
        Sfx::RunCompleted,
        Sfx::Win,
        Sfx::Skip,
        Sfx::Lost,
    ];
}

impl Sfx {
    /// Whether the effect is a fanfare (played on [`FanfareChannel`]).
    pub fn is_fanfare(self) -> bool {
        matches!(self, Sfx::RunCompleted | Sfx::Win | Sfx::Lost)
    }
}

/// A sound to play now, with a pitch factor.
#[derive(Message, Clone, Copy, Debug, PartialEq)]
pub struct PlaySfx {
    /// Which sound.
    pub sfx: Sfx,
    /// Playback rate (1 = as made).
    pub pitch: f32,
}

/// Sounds waiting for their moment in a running animation.
#[derive(Resource, Default, Debug)]
pub struct PendingSounds(pub Vec<(f32, PlaySfx)>);

fn cue_sounds(
    time: Res<Time>,
    mut pending: ResMut<PendingSounds>,
    mut out: MessageWriter<PlaySfx>,
) {
    let dt = time.delta_secs();
    pending.0.retain_mut(|(at, sfx)| {
        *at -= dt;
        if *at <= 0.0 {
            out.write(*sfx);
            false
        } else {
            true
        }
    });
}
