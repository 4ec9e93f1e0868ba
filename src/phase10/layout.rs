//! Where everything lies on Pro Spider 10's table: the player's hand fanned along the bottom with
//! the player's groups above it, the computer seats in a row along the top (two rows on a phone
//! held upright with five or six seats; hand face down, groups in front), the stock and the
//! discard pile in the middle. Origin at the window's
//! centre, y up; the bar keeps its band at the bottom.
use arachne_engine::phase10::Seat;
use bevy::prelude::*;

use crate::phase10::round::PLAYER;

/// A card's place on the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Place {
    /// In the stock, from the bottom.
    Stock(usize),
    /// In the discard pile, from the bottom.
    Discard(usize),
    /// In a seat's hand, from the left.
    Hand(Seat, usize),
    /// In a seat's laid group: (seat, group, index in the group).
    Group(Seat, usize, usize),
    /// A skip lying in front of a seat.
    Skip(Seat),
}

/// How many cards lie where: what the layout needs besides the window.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct P10Shape {
    /// Cards in each hand.
    pub hands: Vec<usize>,
    /// Each seat's groups, by their card counts.
    pub groups: Vec<Vec<usize>>,
    /// Cards in the stock.
    pub stock: usize,
    /// Cards in the discard pile.
    pub discard: usize,
}

/// Where one seat's things lie.
#[derive(Clone, Debug, PartialEq)]
pub struct SeatSpot {
    /// Centre of the hand's row.
    pub hand: Vec2,
    /// Width the hand may spread over.
    pub hand_width: f32,
    /// Most a hand's cards are apart.
    pub hand_step: f32,
    /// Centre of the first group's first card.
    pub groups: Vec2,
    /// Width the groups may spread over.
    pub groups_width: f32,
    /// Where a skip in front of the seat lies.
    pub skip: Vec2,
    /// Top left of the seat's label (name, phase, points).
    pub label: Vec2,
}

/// The table's geometry for one window size and seat count.
#[derive(Resource, Clone, Debug, PartialEq)]
#[component(clone_behavior = Ignore)]
pub struct P10Layout {
    /// Card size.
    pub card: Vec2,
    /// The stock's centre.
    pub stock: Vec2,
    /// The discard pile's centre.
    pub discard: Vec2,
    /// Each seat's spots.
    pub seats: Vec<SeatSpot>,
    /// The width of a computer seat's column (its label, hand and groups).
    pub column: f32,
    /// The window's size.
    pub window: Vec2,
}

/// z of the table's layers.
pub mod z {
    /// The stock's first card.
    pub const STOCK: f32 = 1.0;
    /// The discard pile's first card.
    pub const DISCARD: f32 = 10.0;
    /// The player's laid groups (above the hand, clear of it).
    pub const GROUPS: f32 = 30.0;
    /// Hands.
    pub const HAND: f32 = 60.0;
    /// Skips in front of a seat: one lies at the end of the hand, over its last card's edge.
    pub const SKIP: f32 = 65.0;
    /// A computer seat's laid groups: in front of its face-down hand and its skips, which may
    /// overlap their top edge, where each card's index is (a narrow seat, a phone).
    pub const SEAT_GROUPS: f32 = 70.0;
    /// Step between the cards of a pile.
    pub const STEP: f32 = 0.05;
}

/// The band at the bottom the bar keeps for itself: two rows (what to do, then the buttons).
/// The least band; a narrow window's bar wraps onto more rows ([`BarBand`]).
pub const BAR_BAND: f32 = 74.0;

/// The band at the bottom the bar takes, as measured: in a narrow window (a phone) its text
/// and buttons wrap onto more rows, and the table is laid out above them.
#[derive(Resource, Clone, Debug, PartialEq)]
#[component(clone_behavior = Ignore)]
pub struct BarBand {
    /// Pixels at the bottom of the window kept for the bar.
    pub band: f32,
    /// The window's width when it was measured.
    width: f32,
    /// Which bar was measured: the replay viewer's (true) or the player's.
    viewer: bool,
    /// The band (or the window) changed since the table was laid out: the table is laid out
    /// again once its cards are at rest.
    pub stale: bool,
}

impl Default for BarBand {
    fn default() -> Self {
        BarBand {
            band: BAR_BAND,
            width: 0.0,
            viewer: false,
            stale: false,
        }
    }
}

impl BarBand {
    /// The player's bar reaches `height` pixels up from the window's bottom edge in a window
    /// of `window`. In one window width the band only grows (a status line that wraps now and
    /// then does not move the table up and down); a new width measures afresh, and so does
    /// the other bar ([`BarBand::measured_viewer`]). It keeps at least [`BAR_BAND`], and at
    /// most 45% of the window for the bar.
    pub fn measured(&mut self, window: Vec2, height: f32) {
        self.measure(window, height, false);
    }

    /// [`BarBand::measured`] for the replay viewer's bar, which takes the player's place while
    /// a replay is watched.
    pub fn measured_viewer(&mut self, window: Vec2, height: f32) {
        self.measure(window, height, true);
    }

    fn measure(&mut self, window: Vec2, height: f32, viewer: bool) {
        let want = (height.ceil() + 4.0).min(window.y * 0.45).max(BAR_BAND);
        let band = if window.x == self.width && viewer == self.viewer {
            self.band.max(want)
        } else {
            want
        };
        self.width = window.x;
        self.viewer = viewer;
        if (band - self.band).abs() >= 1.0 {
            self.band = band;
            self.stale = true;
        }
    }
}

/// Between the window's edges and the table.
pub(crate) const MARGIN: f32 = 10.0;
/// Room kept above the stock for the phase list in a window taller than wide (a phone held
/// upright), where the list has no room beside the discard pile: ten lines of its text.
pub const PHASE_LIST_ROOM: f32 = 150.0;
/// Room above a computer seat's hand for its label's two lines.
const LABEL: f32 = 36.0;
/// Below a computer seat's hand's centre, its first group's centre, in card heights.
const GROUPS_BELOW: f32 = 0.6;
/// Between a computer seat's rows of groups, in card heights.
const GROUP_ROW: f32 = 0.45;
/// A computer seat's hand and two rows of groups below it, in card heights: every phase of the
/// shipped variants has at most two groups (a third would reach into the next row's labels).
const SEAT_HEIGHT: f32 = 0.5 + GROUPS_BELOW + GROUP_ROW + 0.5;
/// Between two rows of computer seats.
const ROW_GAP: f32 = 6.0;

impl P10Layout {
    /// The layout for `players` seats in a window of `window` logical pixels, leaving `band`
    /// pixels at the bottom to the bar.
    pub fn compute(players: usize, window: Vec2, band: f32) -> P10Layout {
        // A phone held upright with five or six seats: the computer seats in two rows when that
        // makes the cards a tenth larger or more (six seats on a 390x844 phone: 44 px wide
        // instead of 34; one row leaves each seat a fifth of the width).
        let upright = is_upright(window);
        let one = Self::with_rows(players, window, band, 1);
        if upright && players >= 5 {
            let two = Self::with_rows(players, window, band, 2);
            if two.card.x > one.card.x * 1.1 {
                return two;
            }
        }
        one
    }

    /// [`P10Layout::compute`] with the computer seats in `rows` rows, or in one when two leave
    /// the cards less than their least height.
    fn with_rows(players: usize, window: Vec2, band: f32, rows: usize) -> P10Layout {
        let (w, h) = (window.x, window.y);
        let upright = is_upright(window);
        let list_room = if upright { PHASE_LIST_ROOM } else { 0.0 };
        // Upright, the player's label (over the player's groups) has the window's width: the
        // middle keeps above it. Otherwise it lies beside the middle, clear of the stock.
        let label_room = if upright { LABEL } else { 0.0 };
        // Five card heights stacked: computer hands, their groups, the middle, the player's
        // groups and hand (and the phase list's room and the player's label, upright); two
        // more and a label for a second row of computer seats.
        let extra = (rows - 1) as f32;
        let free = h
            - band
            - 2.0 * MARGIN
            - LABEL
            - 40.0
            - list_room
            - label_room
            - extra * (LABEL + ROW_GAP);
        let high = free / (5.0 + SEAT_HEIGHT * extra);
        if rows > 1 && high < 42.0 {
            return Self::with_rows(players, window, band, 1);
        }
        let ch = high.clamp(42.0, 130.0);
        let opponents = players.saturating_sub(1).max(1);
        let per_row = opponents.div_ceil(rows);
        let region = (w - 2.0 * MARGIN) / per_row as f32;
        // Narrow windows with many seats: the cards shrink to leave each seat room to fan.
        let cw = (ch / 1.4).min(region / 2.2).max(24.0);
        let ch = cw * 1.4;
        let card = Vec2::new(cw, ch);
        // Each row of computer seats: its labels' top edge, then its hands' centre.
        let row_top = |r: usize| h / 2.0 - MARGIN - r as f32 * (LABEL + SEAT_HEIGHT * ch + ROW_GAP);
        let hand_y = |r: usize| row_top(r) - LABEL - ch / 2.0;
        let bottom = -h / 2.0 + band + MARGIN + ch / 2.0;
        let mut seats = Vec::with_capacity(players);
        for seat in 0..players {
            if seat == PLAYER {
                let groups_y = bottom + ch + 14.0;
                seats.push(SeatSpot {
                    hand: Vec2::new(0.0, bottom),
                    hand_width: w - 2.0 * MARGIN - 2.4 * cw,
                    hand_step: cw * 0.72,
                    groups: Vec2::new(-w / 2.0 + MARGIN + cw / 2.0, groups_y),
                    groups_width: w - 2.0 * MARGIN - 1.6 * cw,
                    skip: Vec2::new(w / 2.0 - MARGIN - cw / 2.0, bottom),
                    label: Vec2::new(-w / 2.0 + MARGIN, groups_y + ch / 2.0 + LABEL),
                });
            } else {
                // Seats in play order, left to right and row by row; a shorter last row is
                // centred.
                let (r, i) = ((seat - 1) / per_row, (seat - 1) % per_row);
                let in_row = (opponents - r * per_row).min(per_row);
                let indent = (per_row - in_row) as f32 * region / 2.0;
                let x = -w / 2.0 + MARGIN + indent + region * (i as f32 + 0.5);
                let top = hand_y(r);
                seats.push(SeatSpot {
                    hand: Vec2::new(x - cw * 0.25, top),
                    hand_width: region - 1.9 * cw,
                    hand_step: cw * 0.2,
                    groups: Vec2::new(x - region / 2.0 + 4.0 + cw / 2.0, top - ch * GROUPS_BELOW),
                    groups_width: region - 8.0 - cw,
                    skip: Vec2::new(x + region / 2.0 - 4.0 - cw / 2.0, top),
                    label: Vec2::new(x - region / 2.0 + 4.0, row_top(r)),
                });
            }
        }
        // The middle lies between the lowest computer seats' groups and the player's (below
        // the phase list's room, upright).
        let top = hand_y(rows - 1);
        let upper = top - ch * GROUPS_BELOW - ch * GROUP_ROW - ch / 2.0 - list_room;
        let lower = bottom + ch + 14.0 + ch / 2.0 + label_room;
        let mid = (upper + lower) / 2.0;
        P10Layout {
            card,
            stock: Vec2::new(-cw * 0.65, mid),
            discard: Vec2::new(cw * 0.65, mid),
            seats,
            column: region,
            window,
        }
    }

    /// Whether the window is taller than wide (a phone held upright): the phase list lies
    /// above the middle and the player's label has the window's width.
    pub fn upright(&self) -> bool {
        is_upright(self.window)
    }

    /// Where a card at `place` rests (z orders it).
    pub fn position(&self, shape: &P10Shape, place: Place) -> Vec3 {
        let cw = self.card.x;
        match place {
            Place::Stock(i) => (self.stock + Vec2::new(0.0, (i / 12) as f32 * 1.5))
                .extend(z::STOCK + i as f32 * z::STEP),
            Place::Discard(i) => {
                // A slightly untidy pile: each card a little off the one below.
                let jitter = Vec2::new(((i * 7) % 5) as f32 - 2.0, ((i * 3) % 5) as f32 - 2.0);
                (self.discard + jitter).extend(z::DISCARD + i as f32 * z::STEP)
            }
            Place::Hand(seat, i) => {
                let spot = &self.seats[seat];
                let n = shape.hands.get(seat).copied().unwrap_or(0).max(1);
                let step = spread(n, spot.hand_width, spot.hand_step);
                let x = spot.hand.x + (i as f32 - (n - 1) as f32 / 2.0) * step;
                Vec3::new(x, spot.hand.y, z::HAND + i as f32 * z::STEP)
            }
            Place::Group(seat, g, i) => {
                let spot = &self.seats[seat];
                let sizes = shape.groups.get(seat).map_or(&[][..], |v| &v[..]);
                if seat == PLAYER {
                    // Side by side along the row above the hand.
                    let steps = group_steps(sizes, spot.groups_width, cw);
                    let mut x = spot.groups.x;
                    for (k, &len) in sizes.iter().enumerate().take(g) {
                        x += (len.max(1) - 1) as f32 * steps[k] + cw + 14.0;
                    }
                    let step = steps.get(g).copied().unwrap_or(cw * 0.3);
                    Vec3::new(
                        x + i as f32 * step,
                        spot.groups.y,
                        z::GROUPS + (g * 20 + i) as f32 * z::STEP,
                    )
                } else {
                    // One row per group, each fanned across the seat's width.
                    let len = sizes.get(g).copied().unwrap_or(1).max(1);
                    let step = spread(len, spot.groups_width, cw * 0.3);
                    Vec3::new(
                        spot.groups.x + i as f32 * step,
                        spot.groups.y - g as f32 * self.card.y * GROUP_ROW,
                        z::SEAT_GROUPS + (g * 20 + i) as f32 * z::STEP,
                    )
                }
            }
            Place::Skip(seat) => self.seats[seat].skip.extend(z::SKIP),
        }
    }

    /// Whether `p` lies on a card resting at `at`.
    pub fn hits(&self, at: Vec2, p: Vec2) -> bool {
        let d = (p - at).abs();
        d.x <= self.card.x / 2.0 && d.y <= self.card.y / 2.0
    }
}

fn is_upright(window: Vec2) -> bool {
    window.y > window.x
}

/// The step between `n` cards fanned over at most `width` (centre of first to centre of last),
/// never more than `most`.
fn spread(n: usize, width: f32, most: f32) -> f32 {
    if n <= 1 {
        return 0.0;
    }
    (width.max(0.0) / (n - 1) as f32).min(most)
}

/// Steps for groups laid side by side in `width`: equal, at most 0.32 card widths.
fn group_steps(sizes: &[usize], width: f32, cw: f32) -> Vec<f32> {
    let cards: usize = sizes.iter().map(|&n| n.max(1) - 1).sum();
    let fixed = sizes.len() as f32 * (cw + 14.0);
    let step = if cards == 0 {
        0.0
    } else {
        ((width - fixed).max(0.0) / cards as f32).min(cw * 0.32)
    };
    vec![step; sizes.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn full_shape(players: usize) -> P10Shape {
        P10Shape {
            hands: vec![11; players],
            groups: vec![vec![9, 3]; players],
            stock: 40,
            discard: 10,
        }
    }

    /// The top cards of the stock and the discard pile, and every card and skip of each seat.
    fn every_place(shape: &P10Shape) -> Vec<Place> {
        let mut places = vec![
            Place::Stock(shape.stock - 1),
            Place::Discard(shape.discard - 1),
        ];
        for (s, &hand) in shape.hands.iter().enumerate() {
            places.extend((0..hand).map(|i| Place::Hand(s, i)));
            for (g, &n) in shape.groups[s].iter().enumerate() {
                places.extend((0..n).map(|i| Place::Group(s, g, i)));
            }
            places.push(Place::Skip(s));
        }
        places
    }

    #[test]
    fn every_card_stays_in_the_window_and_clear_of_the_bar() {
        for (w, h, band) in [
            (1280.0, 720.0, 44.0),
            (800.0, 600.0, 74.0),
            (1920.0, 1080.0, 44.0),
            // Phones held upright: the bar wraps onto three rows, or four or five.
            (390.0, 844.0, 90.0),
            (390.0, 844.0, 250.0),
            (360.0, 640.0, 230.0),
        ] {
            for players in 2..=6 {
                let layout = P10Layout::compute(players, Vec2::new(w, h), band);
                let shape = full_shape(players);
                let half = layout.card / 2.0;
                for place in every_place(&shape) {
                    let p = layout.position(&shape, place).truncate();
                    let ctx = format!("{players} seats at {w}x{h}: {place:?} at {p}");
                    assert!(p.x - half.x >= -w / 2.0 - 0.5, "{ctx}");
                    assert!(p.x + half.x <= w / 2.0 + 0.5, "{ctx}");
                    assert!(p.y + half.y <= h / 2.0 + 0.5, "{ctx}");
                    assert!(p.y - half.y >= -h / 2.0 + band - 0.5, "{ctx}");
                }
            }
        }
    }

    /// Every laid card's index (its top-left corner, as far as the next card of its group
    /// leaves it) and every skip lies under no other card: what a seat has laid can be read
    /// whatever covers its hand, on a phone too.
    #[test]
    fn laid_cards_and_skips_show_their_index() {
        for (w, h, band) in [
            (1280.0, 720.0, 44.0),
            (800.0, 600.0, 74.0),
            (390.0, 844.0, 90.0),
            (390.0, 844.0, 250.0),
            (360.0, 640.0, 230.0),
        ] {
            for players in 2..=6 {
                let layout = P10Layout::compute(players, Vec2::new(w, h), band);
                let (cw, ch) = (layout.card.x, layout.card.y);
                // Short groups (a hand of 11 fans widest) and long ones.
                for sizes in [vec![3, 3], vec![9, 3], vec![4, 4, 2]] {
                    let shape = P10Shape {
                        hands: vec![11; players],
                        groups: vec![sizes.clone(); players],
                        stock: 40,
                        discard: 10,
                    };
                    let all = every_place(&shape);
                    let at: Vec<Vec3> = all.iter().map(|&p| layout.position(&shape, p)).collect();
                    for (k, &place) in all.iter().enumerate() {
                        let p = at[k];
                        let spots: Vec<Vec2> = match place {
                            Place::Group(s, g, i) => {
                                // How far right the next card of the group leaves this one.
                                let shown = if i + 1 < sizes[g] {
                                    layout.position(&shape, Place::Group(s, g, i + 1)).x - p.x
                                } else {
                                    cw
                                };
                                let x = p.x - cw / 2.0 + (shown / 2.0).min(0.15 * cw);
                                vec![Vec2::new(x, p.y + ch / 2.0 - 0.1 * ch)]
                            }
                            Place::Skip(_) => vec![p.truncate()],
                            _ => continue,
                        };
                        for spot in spots {
                            for (j, other) in all.iter().enumerate() {
                                let q = at[j];
                                let above = q.z > p.z && *other != place;
                                // The next card of the same group is allowed its share (above).
                                let next = matches!((place, *other), (Place::Group(s, g, i), Place::Group(t, h, n)) if s == t && g == h && n == i + 1);
                                assert!(
                                    !(above && !next && layout.hits(q.truncate(), spot)),
                                    "{players} seats at {w}x{h}, groups {sizes:?}: {place:?} at {p} covered at {spot} by {other:?} at {q}"
                                );
                            }
                        }
                    }
                }
            }
        }
    }

    /// On a phone held upright five or six seats take two rows of computer seats, with larger
    /// cards than one row gives; no row reaches into the one below (its labels included).
    #[test]
    fn five_or_six_seats_upright_take_two_rows_with_larger_cards() {
        let rows = |layout: &P10Layout, players: usize| {
            (1..players)
                .map(|s| layout.seats[s].label.y as i32)
                .collect::<std::collections::BTreeSet<i32>>()
                .len()
        };
        for (w, h, band) in [
            (390.0, 844.0, 90.0),
            (360.0, 780.0, 90.0),
            (412.0, 915.0, 120.0),
        ] {
            for players in 5..=6 {
                let window = Vec2::new(w, h);
                let layout = P10Layout::compute(players, window, band);
                let one = P10Layout::with_rows(players, window, band, 1);
                let ctx = format!("{players} seats at {w}x{h}");
                if players == 6 {
                    assert_eq!(rows(&layout, players), 2, "{ctx}");
                }
                if rows(&layout, players) == 2 {
                    let (two, one) = (layout.card.x, one.card.x);
                    assert!(two > one * 1.1, "{ctx}: {two} vs {one}");
                }
                if (players, w, h) == (6, 390.0, 844.0) {
                    // Worked out by hand: 430 px of height over 7.05 card heights, and a fifth
                    // of 370 px over 2.2 card widths in one row.
                    assert!((layout.card.x - 43.6).abs() < 0.1, "{}", layout.card.x);
                    assert!((one.card.x - 33.6).abs() < 0.1, "{}", one.card.x);
                }
                let shape = full_shape(players);
                let ch = layout.card.y;
                for a in 1..players {
                    for b in 1..players {
                        let (ra, rb) = (layout.seats[a].label.y, layout.seats[b].label.y);
                        if rb < ra - 1.0 {
                            let low = layout.position(&shape, Place::Group(a, 1, 0)).y - ch / 2.0;
                            assert!(
                                low >= rb,
                                "{ctx}: seat {a} reaches {low}, seat {b}'s label at {rb}"
                            );
                        }
                    }
                }
            }
        }
        // Landscape, four seats upright, and a phone too short for two rows keep one row.
        for (players, w, h) in [
            (6, 844.0, 390.0),
            (4, 390.0, 844.0),
            (6, 1280.0, 720.0),
            (6, 375.0, 667.0),
        ] {
            let layout = P10Layout::compute(players, Vec2::new(w, h), 90.0);
            assert_eq!(rows(&layout, players), 1, "{players} seats at {w}x{h}");
        }
    }

    #[test]
    fn the_middle_keeps_clear_of_the_seats() {
        for (players, w, h, band) in (2..=6).flat_map(|p| {
            [
                (p, 800.0, 600.0, 74.0),
                (p, 390.0, 844.0, 250.0),
                (p, 390.0, 844.0, 90.0),
                (p, 375.0, 667.0, 120.0),
            ]
        }) {
            let layout = P10Layout::compute(players, Vec2::new(w, h), band);
            let shape = full_shape(players);
            let ch = layout.card.y;
            let lowest_computer = (1..players)
                .map(|s| layout.position(&shape, Place::Group(s, 1, 0)).y - ch / 2.0)
                .fold(f32::INFINITY, f32::min);
            // Upright, the player's label (over the groups) has the window's width: the middle
            // keeps above it.
            let label = if layout.upright() { LABEL } else { 0.0 };
            let highest_player =
                layout.position(&shape, Place::Group(0, 0, 0)).y + ch / 2.0 + label;
            assert!(
                layout.stock.y + ch / 2.0 <= lowest_computer + 0.5,
                "{players} at {w}x{h}: stock {} card {ch} lowest computer {lowest_computer}",
                layout.stock.y
            );
            assert!(
                layout.stock.y - ch / 2.0 >= highest_player - 0.5,
                "{players} at {w}x{h}: stock {} card {ch} highest player {highest_player}",
                layout.stock.y
            );
        }
    }

    #[test]
    fn the_bar_band_grows_in_one_width_and_starts_afresh_in_another() {
        let mut band = BarBand::default();
        let phone = Vec2::new(390.0, 844.0);
        band.measured(phone, 240.0);
        assert_eq!((band.band, band.stale), (244.0, true));
        band.stale = false;
        // A status line one row shorter: the table stays where it is.
        band.measured(phone, 220.0);
        assert_eq!((band.band, band.stale), (244.0, false));
        band.measured(phone, 262.0);
        assert_eq!(band.band, 266.0);
        // Turned sideways: measured afresh, never below the least band.
        band.stale = false;
        band.measured(Vec2::new(844.0, 390.0), 30.0);
        assert_eq!((band.band, band.stale), (BAR_BAND, true));
        // Never more than 45% of the window.
        band.measured(Vec2::new(300.0, 400.0), 400.0);
        assert_eq!(band.band, 180.0);
        // The replay viewer's bar is measured afresh, and the player's again once it is gone:
        // a taller viewer's bar does not leave the table raised after it.
        band.measured(phone, 120.0);
        band.measured_viewer(phone, 200.0);
        assert_eq!(band.band, 204.0);
        band.stale = false;
        band.measured(phone, 120.0);
        assert_eq!((band.band, band.stale), (124.0, true));
    }
}
