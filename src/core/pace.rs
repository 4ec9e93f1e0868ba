//! How long the browser's search workers pause between slices of their work, so that a search
//! does not starve the page's frames.
//!
//! A worker runs on its own thread, but a machine may not have a core to spare for it: on a
//! two-core machine drawing WebGL in software, the page alone keeps both cores busy, and a
//! search running flat out made its frames half as slow again. So the page tells its workers
//! how long to pause (`rest`) after every slice of a few milliseconds of work (their script,
//! `web/solver-worker.js`, pauses at the solver's checkpoints). The page compares each frame's
//! gap while a search runs with the median gap of its recent frames while none did (the
//! reference):
//! - a frame much slower than that ([`SLOW_MS`] over it) doubles the rest, up to [`MAX_REST_MS`];
//! - a frame close to it (within [`NEAR_MS`]) shortens the rest a little, down to nothing.
//!
//! That answers a frame or two late, and many searches last only a few frames. So the rest is
//! kept from one search to the next, and a search starts with at least a rest that follows from
//! the reference itself: a page whose idle frames already take several 60 Hz periods has no
//! time to spare, one whose idle frames keep 60 Hz has ([`start_rest`]). Until the page has
//! seen [`FIRST_IDLE_FRAMES`] frames without a search it knows no pace of its own (a page that
//! is loading), and the rest stays as it is.
//!
//! Where the page keeps its pace anyway (a spare core, a GPU), the rest stays 0 and a search
//! runs at full speed. A pause never changes what a search finds, only when.
use std::collections::VecDeque;

/// Frames while no search runs that make the reference (the median of these).
const IDLE_FRAMES: usize = 31;
/// A frame at 60 Hz.
const FRAME_60_MS: f32 = 1000.0 / 60.0;
/// Idle frames needed before the reference counts.
pub const FIRST_IDLE_FRAMES: usize = 8;
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
/// The rest a search starts with, per ms that an idle frame takes over a 60 Hz frame.
const START_PER_MS: f32 = 1.0 / 3.0;
/// Gaps this long are not frames to learn from (a hidden tab, a page that was loading).
const IGNORE_MS: f32 = 1000.0;

/// The workers' rest, worked out frame by frame.
#[derive(Debug, Default)]
pub struct Pacer {
    /// Recent frame gaps while no search ran, in ms.
    idle: VecDeque<f32>,
    /// The rest now, in ms.
    rest: f32,
    /// The rest the workers were last told, in whole ms.
    told: u32,
}

/// The least rest a search starts with on a page whose idle frames take `reference_ms`: a third
/// of what they take over a 60 Hz frame (a 66.7 ms frame: 16.7 ms of rest after each 5 ms of
/// work, so the search works about a quarter of the time; a 60 Hz page: none).
pub fn start_rest(reference_ms: f32) -> f32 {
    ((reference_ms - FRAME_60_MS) * START_PER_MS).clamp(0.0, MAX_REST_MS)
}

impl Pacer {
    /// The median gap of the recent idle frames (the reference), in ms; `None` while there are
    /// too few of them.
    pub fn reference_ms(&self) -> Option<f32> {
        if self.idle.len() < FIRST_IDLE_FRAMES {
            return None;
        }
        let mut gaps: Vec<f32> = self.idle.iter().copied().collect();
        gaps.sort_unstable_by(f32::total_cmp);
        Some(gaps[gaps.len() / 2])
    }

    /// A search starts: the rest to send with its request, in whole ms (at least
    /// [`start_rest`] of the reference).
    pub fn start(&mut self) -> u32 {
        if let Some(reference) = self.reference_ms() {
            self.rest = self.rest.max(start_rest(reference));
        }
        self.told = self.rest.round() as u32;
        self.told
    }

    /// Takes in a frame that came `gap_ms` after the one before, while a search ran or not.
    /// `Some(rest)` when the searching workers must be told a new rest (in whole ms).
    pub fn frame(&mut self, gap_ms: f32, searching: bool) -> Option<u32> {
        if !(gap_ms > 0.0 && gap_ms < IGNORE_MS) {
            return None;
        }
        if !searching {
            if self.idle.len() == IDLE_FRAMES {
                self.idle.pop_front();
            }
            self.idle.push_back(gap_ms);
            return None;
        }
        let over = gap_ms - self.reference_ms()?;
        if over > SLOW_MS {
            self.rest = (self.rest * 2.0).clamp(FIRST_REST_MS, MAX_REST_MS);
        } else if over <= NEAR_MS {
            self.rest *= EASE;
            if self.rest < 1.0 {
                self.rest = 0.0;
            }
        }
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
    fn a_page_that_keeps_60_hz_searches_at_full_speed() {
        let mut p = settled(16.7, 40);
        assert_eq!(p.reference_ms(), Some(16.7));
        assert_eq!(p.start(), 0);
        for gap in [16.7, 16.6, 25.0, 33.3, 16.8] {
            assert_eq!(p.frame(gap, true), None);
        }
        assert_eq!(p.start(), 0, "the next search too");
    }

    #[test]
    fn a_page_with_no_time_to_spare_starts_its_searches_paced() {
        let mut p = settled(66.7, 40);
        assert_eq!(p.start(), 17, "a third of 50 ms");
        assert_eq!(settled(33.3, 40).start(), 6);
        assert_eq!(settled(200.0, 40).start(), 40, "never more than the most");
    }

    #[test]
    fn slow_frames_lengthen_the_rest_and_kept_pace_shortens_it_to_nothing() {
        let mut p = settled(16.7, 40);
        assert_eq!(p.start(), 0);
        assert_eq!(p.frame(50.0, true), Some(8), "33 ms over: the first rest");
        assert_eq!(p.frame(50.0, true), Some(16));
        assert_eq!(
            p.frame(33.3, true),
            None,
            "17 ms over: neither slow nor near"
        );
        for _ in 0..4 {
            p.frame(66.7, true);
        }
        assert_eq!(p.start(), MAX_REST_MS as u32, "never longer than the most");
        let mut told = Vec::new();
        for _ in 0..40 {
            told.extend(p.frame(16.7, true));
        }
        assert!(
            told.windows(2).all(|w| w[1] < w[0]),
            "shorter each time: {told:?}"
        );
        assert_eq!(told.last(), Some(&0));
    }

    #[test]
    fn the_rest_is_kept_from_one_search_to_the_next() {
        let mut p = settled(66.7, 40);
        assert_eq!(p.start(), 17);
        assert_eq!(p.frame(100.0, true), Some(33));
        assert_eq!(p.frame(66.7, false), None, "the search ended");
        assert_eq!(p.start(), 33, "the next one starts where it ended");
        assert_eq!(p.frame(66.7, true), Some(30), "and eases from there");
        for _ in 0..30 {
            p.frame(66.7, true);
        }
        assert_eq!(
            p.start(),
            17,
            "a search starts at the page's own floor at least"
        );
    }

    #[test]
    fn a_page_that_knows_no_pace_of_its_own_yet_leaves_the_rest() {
        let mut p = settled(66.7, FIRST_IDLE_FRAMES - 1);
        assert_eq!(p.reference_ms(), None);
        assert_eq!(p.start(), 0);
        for _ in 0..10 {
            assert_eq!(p.frame(500.0, true), None);
        }
        assert_eq!(p.frame(66.7, false), None);
        assert_eq!(p.start(), 17, "now it knows");
    }

    #[test]
    fn the_reference_is_the_median_of_recent_idle_frames_only() {
        let mut p = settled(66.7, 40);
        // Busy frames and gaps that are no frames do not move it.
        p.frame(150.0, true);
        assert_eq!(p.frame(5000.0, false), None);
        assert_eq!(p.frame(-1.0, true), None);
        assert_eq!(p.frame(f32::NAN, true), None);
        assert_eq!(p.reference_ms(), Some(66.7));
        // A page that got faster: the old frames leave the window.
        for _ in 0..IDLE_FRAMES / 2 + 1 {
            p.frame(16.7, false);
        }
        assert_eq!(p.reference_ms(), Some(16.7));
    }
}
