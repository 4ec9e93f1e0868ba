//! Sound effects, synthesized at start-up (no recorded or copied samples), played on their own
//! `bevy_kira_audio` channel with the volume from the settings.
pub mod cues;
pub mod limiter;

use std::f32::consts::TAU;
use std::sync::Arc;

use bevy::prelude::*;
use bevy_kira_audio::prelude::*;

use crate::audio::cues::{PlaySfx, Sfx};
use crate::core::settings::Settings;

/// Sample rate of the synthesized sounds.
pub const SAMPLE_RATE: u32 = 44_100;

/// The one channel every sound plays on: its track carries the [`limiter`], so the mix of
/// the table's sounds and the fanfares together never passes full scale. (Each sound gets its
/// volume from the settings as it starts: the table's sounds and the fanfares have their own.)
#[derive(Resource)]
pub struct SoundChannel;

/// Handles of the synthesized sounds.
#[derive(Resource)]
struct SoundBank(Vec<(Sfx, Handle<AudioSource>)>);

/// Playing sound: the audio output plugin, the channel, the synthesized bank.
pub(crate) fn plugin(app: &mut App) {
    app.add_plugins(AudioPlugin)
        .add_audio_channel_with_track::<SoundChannel>(
            AudioTrack::new().with_effect(limiter::LimiterBuilder),
        )
        .init_resource::<SoundOut>()
        .add_systems(Startup, make_sounds)
        .add_systems(Update, play);
    // (A browser always has its audio context; the watch is the desktop's.)
    #[cfg(not(target_arch = "wasm32"))]
    app.add_systems(Update, check_sound_out.after(play));
}

/// Whether the sounds reach a device. bevy_kira_audio keeps to itself that it found no output
/// device at start (a log line): it then keeps every sound it is sent queued, for ever. On the
/// desktop the first sound sent is watched; still queued after [`SILENT_AFTER_FRAMES`] frames
/// and [`SILENT_AFTER_SECS`], the game says once that it plays silently, and sends no more.
#[derive(Resource, Default)]
pub struct SoundOut {
    /// The sound watched, with when it was sent and the frames since.
    #[cfg_attr(target_arch = "wasm32", allow(dead_code))]
    watching: Option<(Handle<AudioInstance>, f64, u32)>,
    /// A sound was heard to start: nothing more to watch.
    pub works: bool,
    /// No device took the sound watched.
    pub missing: bool,
}

/// How long the first sound may stay queued before the game takes it that no device plays it:
/// frames (a busy frame queues it late) and seconds, both.
#[cfg(not(target_arch = "wasm32"))]
const SILENT_AFTER_FRAMES: u32 = 30;
#[cfg(not(target_arch = "wasm32"))]
const SILENT_AFTER_SECS: f64 = 1.0;

fn make_sounds(mut sources: ResMut<Assets<AudioSource>>, mut commands: Commands) {
    let bank = Sfx::ALL
        .iter()
        .map(|&sfx| {
            let frames: Arc<[Frame]> = synthesize(sfx)
                .iter()
                .map(|&s| Frame::from_mono(s))
                .collect();
            let sound = StaticSoundData {
                sample_rate: SAMPLE_RATE,
                frames,
                settings: StaticSoundSettings::default(),
                slice: None,
            };
            (sfx, sources.add(AudioSource { sound }))
        })
        .collect();
    commands.insert_resource(SoundBank(bank));
}

fn play(
    mut cues: MessageReader<PlaySfx>,
    bank: Option<Res<SoundBank>>,
    channel: Res<AudioChannel<SoundChannel>>,
    settings: Res<Settings>,
    mut out: ResMut<SoundOut>,
    time: Res<Time<Real>>,
) {
    let Some(bank) = bank else { return };
    if cues.is_empty() {
        return;
    }
    // No device: nothing would play, and each sound sent would be kept queued.
    if out.missing {
        cues.clear();
        return;
    }
    // In a browser, a sound sent while the audio waits for the player would play at the
    // first click, with every other sound sent meanwhile.
    #[cfg(target_arch = "wasm32")]
    let heard = crate::web::audio_runs();
    #[cfg(not(target_arch = "wasm32"))]
    let heard = true;
    if !settings.sound.enabled || !heard {
        cues.clear();
        return;
    }
    for cue in cues.read() {
        if let Some((_, handle)) = bank.0.iter().find(|(s, _)| *s == cue.sfx) {
            let volume = if cue.sfx.is_fanfare() {
                settings.sound.fanfare_volume_db
            } else {
                settings.sound.effects_volume_db
            };
            let mut sent = channel.play(handle.clone());
            sent.with_volume(Decibels(volume))
                .with_playback_rate(cue.pitch as f64);
            #[cfg(not(target_arch = "wasm32"))]
            if !out.works && out.watching.is_none() {
                out.watching = Some((sent.handle(), time.elapsed_secs_f64(), 0));
            }
            #[cfg(target_arch = "wasm32")]
            let _ = (&time, &mut out);
        }
    }
}

/// Tells once when the sound watched (see [`SoundOut`]) stayed queued: no device plays it.
#[cfg(not(target_arch = "wasm32"))]
fn check_sound_out(
    mut out: ResMut<SoundOut>,
    channel: Res<AudioChannel<SoundChannel>>,
    time: Res<Time<Real>>,
    mut notices: ResMut<crate::core::focus::Notices>,
) {
    let Some((handle, sent, frames)) = out.watching.as_mut() else {
        return;
    };
    *frames += 1;
    if !matches!(channel.state(handle), PlaybackState::Queued) {
        out.watching = None;
        out.works = true;
        return;
    }
    if *frames >= SILENT_AFTER_FRAMES && time.elapsed_secs_f64() - *sent >= SILENT_AFTER_SECS {
        out.watching = None;
        out.missing = true;
        notices.push_long(crate::core::i18n::t("sound.no_device"));
    }
}

/// The samples (mono, `SAMPLE_RATE`) of an effect, peak-normalized to 0.8.
pub fn synthesize(sfx: Sfx) -> Vec<f32> {
    let mut noise = Noise(0x2545_F491_4F6C_DD1D);
    let mut out = match sfx {
        Sfx::Pick => render(0.045, |t, _| {
            let env = (-t * 90.0).exp();
            env * (0.6 * (TAU * 900.0 * t).sin() + 0.4 * noise.next())
        }),
        Sfx::Drop => {
            let mut lp = 0.0;
            render(0.07, |t, _| {
                lp += 0.15 * (noise.next() - lp);
                let env = (-t * 60.0).exp();
                env * (0.7 * (TAU * 150.0 * t).sin() + 0.8 * lp)
            })
        }
        Sfx::Flip => {
            let mut lp = 0.0;
            render(0.05, |t, _| {
                let n = noise.next();
                lp += 0.3 * (n - lp);
                let env = (t * 400.0).min(1.0) * (-t * 70.0).exp();
                env * (n - lp)
            })
        }
        Sfx::Deal => {
            let mut lp = 0.0;
            render(0.09, |t, d| {
                let n = noise.next();
                lp += 0.25 * (n - lp);
                let env = (std::f32::consts::PI * t / d).sin().powi(2);
                env * (n - 0.6 * lp)
            })
        }
        Sfx::Invalid => render(0.2, |t, _| {
            let f = if t < 0.09 { 311.0 } else { 233.0 };
            let env = (t * 200.0).min(1.0) * (-(t % 0.09) * 18.0).exp();
            env * tri(f * t) * 0.8
        }),
        Sfx::RunCompleted => chime(&[1046.5, 1318.5, 1568.0, 2093.0], 0.08, 0.45),
        Sfx::Win => chime(
            &[523.25, 659.25, 783.99, 1046.5, 1318.5, 1568.0, 2093.0],
            0.11,
            0.9,
        ),
        // A swish rising in pitch, then a soft tap where the card lands.
        Sfx::Skip => {
            let mut lp = 0.0;
            let mut phase = 0.0;
            render(0.22, |t, _| {
                let n = noise.next();
                lp += 0.2 * (n - lp);
                let swish = (std::f32::consts::PI * (t / 0.16).min(1.0)).sin().powi(2);
                phase += (400.0 + 2200.0 * t) / SAMPLE_RATE as f32;
                let tap = if t > 0.15 {
                    let u = t - 0.15;
                    (-u * 60.0).exp() * (TAU * 220.0 * u).sin()
                } else {
                    0.0
                };
                swish * (0.6 * (n - lp) + 0.25 * tri(phase)) + 0.9 * tap
            })
        }
        // Falling notes of a minor chord: the game is over, and not won.
        Sfx::Lost => chime(&[659.25, 587.33, 523.25, 440.0], 0.16, 0.7),
        // Two raps on a wooden table, the second a little softer: the player may knock.
        Sfx::Knock => render(0.3, |t, _| {
            let n = noise.next();
            let rap = |u: f32| {
                if u < 0.0 {
                    0.0
                } else {
                    let body = 0.8 * (TAU * 190.0 * u).sin() + 0.45 * (TAU * 430.0 * u).sin();
                    (-u * 40.0).exp() * body + (-u * 900.0).exp() * 0.6 * n
                }
            };
            rap(t) + 0.85 * rap(t - 0.14)
        }),
    };
    let peak = out.iter().fold(0.0f32, |m, s| m.max(s.abs()));
    if peak > 0.0 {
        out.iter_mut().for_each(|s| *s *= 0.8 / peak);
    }
    out
}

/// `secs` of samples from `f(t, secs)`.
fn render(secs: f32, mut f: impl FnMut(f32, f32) -> f32) -> Vec<f32> {
    let n = (secs * SAMPLE_RATE as f32) as usize;
    (0..n)
        .map(|i| f(i as f32 / SAMPLE_RATE as f32, secs))
        .collect()
}

/// Bell-like notes, one every `step` seconds, each ringing for `ring` seconds.
fn chime(notes: &[f32], step: f32, ring: f32) -> Vec<f32> {
    let secs = step * notes.len() as f32 + ring;
    render(secs, |t, _| {
        notes
            .iter()
            .enumerate()
            .map(|(k, &f)| {
                let t = t - k as f32 * step;
                if t < 0.0 {
                    0.0
                } else {
                    let env = (t * 300.0).min(1.0) * (-t * 5.0 / ring).exp();
                    env * ((TAU * f * t).sin() + 0.3 * (TAU * 2.0 * f * t).sin())
                }
            })
            .sum()
    })
}

/// A triangle wave with period 1.
fn tri(phase: f32) -> f32 {
    let p = phase.fract();
    4.0 * (p - 0.5).abs() - 1.0
}

/// Deterministic white noise in [-1, 1] (xorshift).
struct Noise(u64);

impl Noise {
    fn next(&mut self) -> f32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 40) as f32 / (1u64 << 23) as f32 - 1.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Without a device, bevy_kira_audio never takes the sounds it is sent from their queue (as
    /// here, where nothing plays the channel): the game says so once and sends no more.
    #[test]
    fn a_first_sound_no_device_takes_is_told_once_and_no_more_are_sent() {
        let app_at = |frame_ms: u64| {
            let mut app = App::new();
            app.add_plugins(MinimalPlugins)
                .insert_resource(bevy::time::TimeUpdateStrategy::ManualDuration(
                    std::time::Duration::from_millis(frame_ms),
                ))
                .add_message::<PlaySfx>()
                .init_resource::<crate::core::focus::Notices>()
                .init_resource::<SoundOut>()
                .insert_resource(Settings::default())
                .insert_resource(AudioChannel::<SoundChannel>::default())
                .insert_resource(SoundBank(vec![(Sfx::Drop, Handle::default())]))
                .add_systems(Update, (play, check_sound_out).chain());
            app.update();
            app.world_mut().write_message(PlaySfx::plain(Sfx::Drop));
            app
        };
        // Fast frames: 40 frames are not yet a second.
        let mut app = app_at(20);
        for _ in 0..40 {
            app.update();
        }
        assert!(!app.world().resource::<SoundOut>().missing, "0.8 s");
        for _ in 0..15 {
            app.update();
        }
        assert!(app.world().resource::<SoundOut>().missing, "1.1 s");
        // Slow frames: a second is not yet the frames.
        let mut app = app_at(50);
        for _ in 0..SILENT_AFTER_FRAMES - 1 {
            app.update();
        }
        assert!(!app.world().resource::<SoundOut>().missing, "not yet");
        for _ in 0..2 {
            app.update();
        }
        let out = app.world().resource::<SoundOut>();
        assert!(out.missing && !out.works);
        let told = |app: &App| {
            app.world()
                .resource::<crate::core::focus::Notices>()
                .0
                .iter()
                .filter(|(n, _)| n == crate::core::i18n::t("sound.no_device"))
                .count()
        };
        assert_eq!(told(&app), 1);
        // Later sounds are not sent (nor watched): the notice is not told again.
        app.world_mut()
            .resource_mut::<crate::core::focus::Notices>()
            .0
            .clear();
        app.world_mut().write_message(PlaySfx::plain(Sfx::Drop));
        for _ in 0..2 * SILENT_AFTER_FRAMES {
            app.update();
        }
        assert!(app.world().resource::<SoundOut>().watching.is_none());
        assert_eq!(told(&app), 0);
    }

    #[test]
    fn every_sound_is_short_audible_and_clipped_below_full_scale() {
        for sfx in Sfx::ALL {
            let s = synthesize(sfx);
            let secs = s.len() as f32 / SAMPLE_RATE as f32;
            assert!((0.03..=2.0).contains(&secs), "{sfx:?}: {secs} s");
            let peak = s.iter().fold(0.0f32, |m, x| m.max(x.abs()));
            assert!((0.79..=0.81).contains(&peak), "{sfx:?}: peak {peak}");
            let rms = (s.iter().map(|x| x * x).sum::<f32>() / s.len() as f32).sqrt();
            assert!(rms > 0.02, "{sfx:?}: rms {rms}");
            assert!(s.iter().all(|x| x.is_finite()));
        }
    }

    #[test]
    fn sounds_are_distinct() {
        let all: Vec<Vec<f32>> = Sfx::ALL.iter().map(|&s| synthesize(s)).collect();
        for i in 0..all.len() {
            for j in i + 1..all.len() {
                assert_ne!(all[i], all[j]);
            }
        }
    }
}
