//! How long the browser's search workers pause between slices of their work, so that a search
//! does not starve the page's frames.
//!
//! A worker runs on its own thread, but a machine may not have a core to spare for it: on a
//! two-core machine drawing WebGL in software, the page alone keeps both cores busy, and a
//! search running flat out made its frames half as slow again. So the page tells its workers
//! how long to pause (`rest`) after every slice of a few milliseconds of work (their script,
//! `web/solver-worker.js`, pauses at the solver's checkpoints). The page compares each frame's
//! gap while a worker is busy with the median gap of its recent frames while none was:
//! - a frame much slower than that ([`SLOW_MS`] over it) doubles the rest, up to [`MAX_REST_MS`];
//! - a frame close to it (within [`NEAR_MS`]) shortens the rest a little, down to nothing.
//!
//! A search that starts unpaused on a machine that needs the pauses would make its first frames
//! slow before the page could answer, so each search starts with the average rest of the one
//! before.
//!
//! Where the page keeps its pace anyway (a spare core, a GPU), the rest stays 0 and a search
//! runs at full speed. A pause never changes what a search finds, only when.
use std::collections::VecDeque;

/// Frames while no worker is busy that make the reference (the median of these).
const IDLE_FRAMES: usize = 31;
/// The reference before any idle frame was seen: 60 frames a second.
const FIRST_REFERENCE_MS: f32 = 1000.0 / 60.0;
/// A busy frame this much slower than the reference lengthens the rest.
pub const SLOW_MS: f32 = 25.0;
/// A busy frame at most this much slower than the reference shortens the rest.
pub const NEAR_MS: f32 = 10.0;
/// The first rest when frames slow down.
const FIRST_REST_MS: f32 = 8.0;
/// The longest rest: with slices of 5 ms, a worker then works a ninth of the time.
pub const MAX_REST_MS: f32 = 40.0;
/// How much of the rest is left after each frame close to the reference.
const EASE: f32 = 0.9;
/// Gaps this long are not frames to learn from (a hidden tab, a page that was loading).
const IGNORE_MS: f32 = 1000.0;

/// The workers' rest, worked out frame by frame.
#[derive(Debug, Default)]
pub struct Pacer {
    /// Recent frame gaps while no worker was busy, in ms.
    idle: VecDeque<f32>,
    /// The rest now, in ms.
    rest: f32,
    /// The rest the workers were last told, in whole ms.
    told: u32,
    /// The rests of the frames of the search under way: their sum and count.
    spent: (f32, u32),
}

impl Pacer {
    /// The rest to send with a new request, in whole ms.
    pub fn rest_ms(&self) -> u32 {
        self.told
    }

    /// The median gap of the recent idle frames (the reference), in ms.
    pub fn reference_ms(&self) -> f32 {
        if self.idle.is_empty() {
            return FIRST_REFERENCE_MS;
        }
        let mut gaps: Vec<f32> = self.idle.iter().copied().collect();
        gaps.sort_by(f32::total_cmp);
        gaps[gaps.len() / 2]
    }

    /// Takes in a frame that came `gap_ms` after the one before, while a worker was busy or
    /// not. `Some(rest)` when the busy workers must be told a new rest (in whole ms).
    pub fn frame(&mut self, gap_ms: f32, busy: bool) -> Option<u32> {
        if !(gap_ms > 0.0 && gap_ms < IGNORE_MS) {
            return None;
        }
        if !busy {
            if self.idle.len() == IDLE_FRAMES {
                self.idle.pop_front();
            }
            self.idle.push_back(gap_ms);
            // A search ended: the next one starts at the average rest of this one.
            let (sum, frames) = std::mem::take(&mut self.spent);
            if frames > 0 {
                self.rest = sum / frames as f32;
                self.told = self.rest.round() as u32;
            }
            return None;
        }
        let over = gap_ms - self.reference_ms();
        if over > SLOW_MS {
            self.rest = (self.rest * 2.0).clamp(FIRST_REST_MS, MAX_REST_MS);
        } else if over <= NEAR_MS {
            self.rest *= EASE;
            if self.rest < 1.0 {
                self.rest = 0.0;
            }
        }
        self.spent.0 += self.rest;
        self.spent.1 += 1;
        let rest = self.rest.round() as u32;
        (rest != self.told).then(|| {
            self.told = rest;
            rest
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A pacer that has seen `n` idle frames of `gap` ms.
    fn settled(gap: f32, n: usize) -> Pacer {
        let mut p = Pacer::default();
        for _ in 0..n {
            assert_eq!(
                p.frame(gap, false),
                None,
                "idle frames tell the workers nothing"
            );
        }
        p
    }

    #[test]
    fn frames_that_keep_their_pace_leave_a_search_at_full_speed() {
        let mut p = settled(16.7, 40);
        assert_eq!(p.reference_ms(), 16.7);
        for gap in [16.7, 16.6, 25.0, 16.8] {
            assert_eq!(p.frame(gap, true), None);
        }
        assert_eq!(p.rest_ms(), 0);
    }

    #[test]
    fn slow_frames_lengthen_the_rest_and_kept_pace_shortens_it_to_nothing() {
        let mut p = settled(66.7, 40);
        assert_eq!(p.frame(100.0, true), Some(8), "33 ms over: the first rest");
        assert_eq!(p.frame(100.0, true), Some(16));
        assert_eq!(
            p.frame(83.3, true),
            None,
            "17 ms over: neither slow nor near"
        );
        for _ in 0..4 {
            p.frame(116.7, true);
        }
        assert_eq!(
            p.rest_ms(),
            MAX_REST_MS as u32,
            "never longer than the most"
        );
        let mut told = Vec::new();
        for _ in 0..40 {
            told.extend(p.frame(66.7, true));
        }
        assert!(
            told.windows(2).all(|w| w[1] < w[0]),
            "shorter each time: {told:?}"
        );
        assert_eq!(told.last(), Some(&0));
        assert_eq!(p.rest_ms(), 0);
    }

    #[test]
    fn a_search_starts_at_the_average_rest_of_the_one_before() {
        let mut p = settled(66.7, 40);
        // A search whose frames needed 8 ms, then 16 ms for three frames: 14 on average.
        assert_eq!(p.frame(100.0, true), Some(8));
        assert_eq!(p.frame(100.0, true), Some(16));
        assert_eq!(p.frame(83.3, true), None);
        assert_eq!(p.frame(83.3, true), None);
        assert_eq!(p.rest_ms(), 16);
        assert_eq!(p.frame(66.7, false), None, "the search ended");
        assert_eq!(p.rest_ms(), 14, "what the next request carries");
        assert_eq!(p.frame(66.7, false), None);
        assert_eq!(p.rest_ms(), 14, "idle frames leave it");
        // The next search eases from there: 14 x 0.9.
        assert_eq!(p.frame(66.7, true), Some(13));
    }

    #[test]
    fn the_reference_is_the_median_of_recent_idle_frames_only() {
        let mut p = settled(66.7, 40);
        // Busy frames and gaps that are no frames do not move it.
        p.frame(150.0, true);
        assert_eq!(p.frame(5000.0, false), None);
        assert_eq!(p.frame(-1.0, true), None);
        assert_eq!(p.frame(f32::NAN, true), None);
        assert_eq!(p.reference_ms(), 66.7);
        // A page that got faster: the old frames leave the window.
        for _ in 0..IDLE_FRAMES / 2 + 1 {
            p.frame(16.7, false);
        }
        assert_eq!(p.reference_ms(), 16.7);
        assert_eq!(Pacer::default().reference_ms(), FIRST_REFERENCE_MS);
    }
}
