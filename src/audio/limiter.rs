//! A peak limiter on the game's sound track: the mix never goes past its ceiling.
//!
//! The opening deal plans a sound a card, 22 ms apart, each 90 ms long, so four or five
//! overlap; on a slow frame (a browser drawing in software, a phone) three start in the same
//! audio block. Their sum went past full scale, and the output cut it off: a crackle under
//! every deal (measured in the browser: up to 109 of 2048 samples a buffer at full scale).
//! The limiter turns the whole mix down just before such a peak and back up over a few tens
//! of milliseconds. A sound alone at a volume of 100% or less is never touched: every effect
//! is made with its peak at 0.8, under the ceiling.
//!
//! How: the output is the input delayed by a short look-ahead. Each frame needs a gain of at
//! most `ceiling / peak`; the gain follows the least need in the look-ahead window down
//! (attack, fast enough to be there when the frame comes out) and back up slowly (release).
//! The gain applied is never above the need of the frame it is applied to, and a product an
//! ulp over is clamped, so the ceiling holds exactly.
use std::collections::VecDeque;

use bevy_kira_audio::prelude::*;

/// The loudest sample the mix may reach (-1 dB of full scale).
pub const CEILING: f32 = 0.89;
/// How far ahead the limiter looks (and how late the sound comes), in seconds.
const LOOK_AHEAD_SECS: f64 = 0.0015;
/// Time constants of the gain going down and back up, in seconds. Seven attack times fit in
/// the look-ahead: the gain has come to within a thousandth of a peak's need when it is let out.
const ATTACK_SECS: f64 = LOOK_AHEAD_SECS / 7.0;
const RELEASE_SECS: f64 = 0.08;

/// The limiter as an effect for an [`AudioTrack`].
pub struct LimiterBuilder;

impl AudioEffect for LimiterBuilder {
    type Handle = ();

    fn build_effect(self) -> (Box<dyn Effect>, ()) {
        (Box::new(Limiter::new(44_100)), ())
    }
}

/// The limiter's state: the delayed frames with the gain each needs, and the gain now.
pub struct Limiter {
    /// Frames not yet let out, oldest first, each with the gain it needs.
    delayed: VecDeque<(Frame, f32)>,
    /// How many frames the look-ahead holds.
    look_ahead: usize,
    /// How far the gain is below 1 now.
    cut: f32,
    /// How many frames in the window are over the ceiling.
    over: usize,
    /// Frames let out at their own need because the gain had not come down far enough: a
    /// kink in the sound (the tests count them).
    #[cfg(test)]
    kinks: usize,
    attack: f32,
    release: f32,
}

impl Limiter {
    /// A limiter for `sample_rate` frames a second, let through at full gain.
    pub fn new(sample_rate: u32) -> Limiter {
        let mut limiter = Limiter {
            delayed: VecDeque::new(),
            look_ahead: 0,
            cut: 0.0,
            over: 0,
            #[cfg(test)]
            kinks: 0,
            attack: 0.0,
            release: 0.0,
        };
        limiter.set_sample_rate(sample_rate);
        limiter
    }

    fn set_sample_rate(&mut self, sample_rate: u32) {
        let rate = f64::from(sample_rate.max(1));
        self.look_ahead = ((LOOK_AHEAD_SECS * rate).round() as usize).max(1);
        // A one-pole step towards the target each frame.
        self.attack = (1.0 - (-1.0 / (ATTACK_SECS * rate)).exp()) as f32;
        self.release = (1.0 - (-1.0 / (RELEASE_SECS * rate)).exp()) as f32;
        self.delayed.clear();
        self.over = 0;
        // (Room for the frame let in before one is let out: `limit` runs on the audio thread,
        // which should not allocate.)
        self.delayed.reserve(self.look_ahead + 1);
        self.delayed
            .extend(std::iter::repeat_n((Frame::ZERO, 1.0), self.look_ahead));
    }

    /// Limits `frames` in place (each comes out `look_ahead` frames later).
    pub fn limit(&mut self, frames: &mut [Frame]) {
        for frame in frames {
            let peak = frame.left.abs().max(frame.right.abs());
            let need = if peak > CEILING { CEILING / peak } else { 1.0 };
            self.delayed.push_back((*frame, need));
            if need < 1.0 {
                self.over += 1;
            }
            // (Most of the time nothing in the window is over the ceiling: no need to look.)
            let target = if self.over == 0 {
                1.0
            } else {
                self.delayed
                    .iter()
                    .fold(1.0f32, |least, &(_, need)| least.min(need))
            };
            // The gain moves as the cut it makes (1 - gain): near 1, steps of the release
            // are below what an f32 of about 1 can hold, and the gain would stop short.
            let cut = 1.0 - target;
            let step = if cut > self.cut {
                self.attack
            } else {
                self.release
            };
            self.cut += (cut - self.cut) * step;
            // Released all the way: exactly 1, so a sound alone is let through bit for bit.
            if self.cut < 1e-5 {
                self.cut = 0.0;
            }
            let (out, need) = self.delayed.pop_front().unwrap_or((Frame::ZERO, 1.0));
            if need < 1.0 {
                self.over -= 1;
            }
            let gain = (1.0 - self.cut).min(need);
            #[cfg(test)]
            if need < (1.0 - self.cut) * 0.999 {
                self.kinks += 1;
            }
            // (A product can round an ulp past the ceiling.)
            *frame = Frame {
                left: (out.left * gain).clamp(-CEILING, CEILING),
                right: (out.right * gain).clamp(-CEILING, CEILING),
            };
        }
    }
}

impl Effect for Limiter {
    fn init(&mut self, sample_rate: u32, _internal_buffer_size: usize) {
        self.set_sample_rate(sample_rate);
    }

    fn on_change_sample_rate(&mut self, sample_rate: u32) {
        self.set_sample_rate(sample_rate);
    }

    fn process(&mut self, input: &mut [Frame], _dt: f64, _info: &Info) {
        self.limit(input);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::audio::cues::Sfx;
    use crate::audio::{SAMPLE_RATE, synthesize};

    /// `frames` through a new limiter at the sounds' rate, in blocks of 128 as kira renders,
    /// with how many frames the gain came down too late for (see `Limiter::kinks`).
    fn limited(frames: &[f32]) -> (Vec<f32>, usize) {
        let mut limiter = Limiter::new(SAMPLE_RATE);
        let mut out: Vec<Frame> = frames.iter().map(|&s| Frame::from_mono(s)).collect();
        for block in out.chunks_mut(128) {
            limiter.limit(block);
        }
        (out.iter().map(|f| f.left).collect(), limiter.kinks)
    }

    /// `sound` added into `mix` from frame `at`, at `volume`.
    fn add(mix: &mut Vec<f32>, sound: &[f32], at: usize, volume: f32) {
        if mix.len() < at + sound.len() {
            mix.resize(at + sound.len(), 0.0);
        }
        for (m, s) in mix[at..].iter_mut().zip(sound) {
            *m += s * volume;
        }
    }

    #[test]
    fn every_sound_alone_comes_through_untouched_only_later() {
        let delay = Limiter::new(SAMPLE_RATE).look_ahead;
        assert_eq!(delay, 66);
        for sfx in Sfx::ALL {
            let sound = synthesize(sfx);
            let mut padded = sound.clone();
            padded.extend(std::iter::repeat_n(0.0, delay));
            let (out, _) = limited(&padded);
            assert!(out[..delay].iter().all(|&s| s == 0.0), "{sfx:?}");
            assert_eq!(&out[delay..], &sound[..], "{sfx:?}");
        }
    }

    #[test]
    fn the_opening_deal_at_full_volume_stays_under_the_ceiling_and_the_next_sound_is_whole() {
        // The opening deal's sounds, three to a slow frame (three planned 22 ms apart start in
        // the same audio block), at the five pitches the deal gives them (kept simple: each
        // fifth sound a little shorter, as a faster playback rate makes it).
        let deal = synthesize(Sfx::Deal);
        let mut mix = Vec::new();
        for k in 0..54 {
            let frame_start = (k / 3) * 3 * 22 * SAMPLE_RATE as usize / 1000;
            let pitch = 0.9 + 0.2 * (k % 5) as f32 / 4.0;
            let pitched: Vec<f32> = (0..(deal.len() as f32 / pitch) as usize)
                .map(|i| deal[((i as f32 * pitch) as usize).min(deal.len() - 1)])
                .collect();
            add(&mut mix, &pitched, frame_start, 1.0);
        }
        let loudest = mix.iter().fold(0.0f32, |m, s| m.max(s.abs()));
        assert!(
            loudest > 1.5,
            "the deal's sum should go past full scale: {loudest}"
        );
        // Then, a second after the deal, a card is put down.
        let drop = synthesize(Sfx::Drop);
        let at = mix.len() + SAMPLE_RATE as usize;
        add(&mut mix, &drop, at, 1.0);
        mix.extend(std::iter::repeat_n(0.0, 100));
        let (out, kinks) = limited(&mix);
        let peak = out.iter().fold(0.0f32, |m, s| m.max(s.abs()));
        assert!(peak <= CEILING, "{peak}");
        // The gain was down in time for every peak: turned down, not cut off.
        assert_eq!(kinks, 0);
        // The deal is still loud (turned down to the ceiling, not silenced) ...
        assert!(peak > 0.8 * CEILING, "{peak}");
        // ... and the drop after it plays at its own level again.
        let delay = Limiter::new(SAMPLE_RATE).look_ahead;
        let heard = &out[at + delay..at + delay + drop.len()];
        for (h, d) in heard.iter().zip(&drop) {
            assert!((h - d).abs() < 1e-6, "{h} {d}");
        }
    }

    #[test]
    fn the_gain_moves_smoothly() {
        // A loud tone that starts at once: the gain comes down over the look-ahead, with no
        // jump in it larger than the attack allows, and the output never passes the ceiling.
        let rate = SAMPLE_RATE as f32;
        let mut tone: Vec<f32> = vec![0.0; 4410];
        tone.extend(
            (0..8820).map(|i| 2.0 * (std::f32::consts::TAU * 440.0 * i as f32 / rate).sin()),
        );
        tone.extend(std::iter::repeat_n(0.0, 44_100));
        let mut limiter = Limiter::new(SAMPLE_RATE);
        let mut gains = Vec::new();
        for &s in &tone {
            let mut f = [Frame::from_mono(s)];
            limiter.limit(&mut f);
            assert!(f[0].left.abs() <= CEILING);
            gains.push(1.0 - limiter.cut);
        }
        let biggest_step = gains
            .windows(2)
            .map(|w| (w[1] - w[0]).abs())
            .fold(0.0f32, f32::max);
        assert!(biggest_step < 0.05, "{biggest_step}");
        assert_eq!(limiter.kinks, 0);
        // Before the gain is needed it sits at 1, and it comes back up after the tone.
        assert_eq!(gains[4000], 1.0);
        assert!(gains[4410 + 66 + 2000] < 0.5);
        assert_eq!(*gains.last().unwrap(), 1.0);
    }
}
