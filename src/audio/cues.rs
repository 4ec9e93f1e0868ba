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
    /// Two raps: the player may knock for the card just discarded.
    Knock,
}

impl Sfx {
    /// Every effect.
    pub const ALL: [Sfx; 10] = [
        Sfx::Pick,
        Sfx::Drop,
        Sfx::Flip,
        Sfx::Deal,
        Sfx::Invalid,
        Sfx::RunCompleted,
        Sfx::Win,
        Sfx::Skip,
        Sfx::Lost,
        Sfx::Knock,
    ];
}

impl Sfx {
    /// Whether the effect is a fanfare (played at the fanfares' volume).
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

impl PlaySfx {
    /// `sfx` as made (pitch 1).
    pub fn plain(sfx: Sfx) -> PlaySfx {
        PlaySfx { sfx, pitch: 1.0 }
    }
}

/// Sounds waiting for their moment in a running animation.
#[derive(Resource, Default, Debug)]
pub struct PendingSounds(pub Vec<(f32, PlaySfx)>);

/// The least time between the planned moments of two sounds of one effect: closer ones are
/// left out. A deal plans a sound per card; with its motion off (every card at once) or in a
/// fast replay they would all start together, one loud clipped burst, where one sound says it
/// all. Sounds planned further apart all play, even when a slow frame lets two through at once.
pub const MIN_GAP_SECS: f32 = 0.015;

/// The clock the planned moments are measured on, and the planned moment of the last sound
/// played of each effect.
#[derive(Default)]
struct Played {
    now: f32,
    last: [Option<f32>; Sfx::ALL.len()],
}

fn cue_sounds(
    time: Res<Time>,
    mut pending: ResMut<PendingSounds>,
    mut out: MessageWriter<PlaySfx>,
    mut played: Local<Played>,
) {
    let dt = time.delta_secs();
    played.now += dt;
    // The sounds due now, each with its planned moment, in the order they were planned for.
    let mut due = Vec::new();
    pending.0.retain_mut(|(at, sfx)| {
        *at -= dt;
        if *at > 0.0 {
            return true;
        }
        due.push((played.now + *at, *sfx));
        false
    });
    due.sort_by(|a, b| a.0.total_cmp(&b.0));
    for (moment, sfx) in due {
        let i = Sfx::ALL.iter().position(|&s| s == sfx.sfx).unwrap_or(0);
        if played.last[i].is_none_or(|last| moment - last >= MIN_GAP_SECS) {
            played.last[i] = Some(moment);
            out.write(sfx);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bevy::time::TimeUpdateStrategy;

    /// Planned sounds at `at` seconds; how many play in `secs` of frames of 16 ms.
    fn played(at: &[(f32, Sfx)], secs: f32) -> Vec<Sfx> {
        let mut app = App::new();
        app.add_plugins(MinimalPlugins)
            .insert_resource(TimeUpdateStrategy::ManualDuration(
                std::time::Duration::from_millis(16),
            ))
            .configure_sets(Update, AppSystems::Motion)
            .add_plugins(plugin);
        app.update();
        app.world_mut().resource_mut::<PendingSounds>().0 = at
            .iter()
            .map(|&(t, sfx)| (t, PlaySfx::plain(sfx)))
            .collect();
        let mut out = Vec::new();
        for _ in 0..(secs / 0.016) as usize {
            app.update();
            let messages = app.world().resource::<Messages<PlaySfx>>();
            out.extend(messages.iter_current_update_messages().map(|m| m.sfx));
        }
        out
    }

    #[test]
    fn a_burst_of_one_sound_plays_once_and_a_spaced_run_of_them_each() {
        // 54 deal sounds at once (a deal with its motion off): one sound, and a flip at the
        // same moment still plays.
        let mut burst: Vec<(f32, Sfx)> = (0..54).map(|_| (0.1, Sfx::Deal)).collect();
        burst.push((0.1, Sfx::Flip));
        assert_eq!(played(&burst, 0.5), vec![Sfx::Deal, Sfx::Flip]);
        // The opening deal's sounds, 22 ms apart: each one plays, though two may share a frame.
        let opening: Vec<(f32, Sfx)> = (0..54)
            .map(|i| (0.05 + 0.022 * i as f32, Sfx::Deal))
            .collect();
        assert_eq!(played(&opening, 2.0).len(), 54);
        // Ten deal sounds 80 ms apart (a deal from the stock): each one plays.
        let spaced: Vec<(f32, Sfx)> = (0..10)
            .map(|i| (0.05 + 0.08 * i as f32, Sfx::Deal))
            .collect();
        assert_eq!(played(&spaced, 1.5).len(), 10);
        // 2.75 ms apart (a fast replay): one every 15 ms or so of their plan, not one a card.
        let fast: Vec<(f32, Sfx)> = (0..54)
            .map(|i| (0.05 + 0.00275 * i as f32, Sfx::Deal))
            .collect();
        let n = played(&fast, 1.0).len();
        assert!((7..=11).contains(&n), "{n}");
    }
}
