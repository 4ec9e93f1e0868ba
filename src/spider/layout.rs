//! Where every card goes: a pure function of the table's shape, the window size and the settings.
use bevy::prelude::*;

use crate::core::settings::LayoutSettings;

/// A pile on the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PileId {
    /// The stock (next card to deal on top).
    Stock,
    /// A tableau column, 0-based.
    Column(u8),
    /// A foundation slot (a completed run), 0-based in completion order.
    Foundation(u8),
}

/// What the layout needs to know about the table.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TableShape {
    /// For each column: (cards, face-down cards).
    pub columns: Vec<(usize, usize)>,
    /// Cards in the stock.
    pub stock: usize,
    /// Cards the stock holds at the start (its piles keep their places as it empties).
    pub stock_capacity: usize,
    /// Completed runs.
    pub foundations: usize,
    /// Runs a won game has (foundation slots).
    pub foundation_slots: usize,
}

/// Vertical steps of one column: (face-down step, face-up step), in pixels.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Fan {
    /// Step after a face-down card.
    pub down: f32,
    /// Step after a face-up card.
    pub up: f32,
}

/// The computed layout.
#[derive(Resource, Clone, Debug, PartialEq)]
#[component(clone_behavior = Ignore)]
pub struct Layout {
    /// Window size in logical pixels.
    pub window: Vec2,
    /// Card size in pixels.
    pub card: Vec2,
    /// Centre x of each column.
    pub column_x: Vec<f32>,
    /// Centre y of the first card of every column.
    pub top_y: f32,
    /// Fan of each column.
    pub fans: Vec<Fan>,
    /// Centre of the top deal of the stock (the rightmost pile).
    pub stock: Vec2,
    /// Centre of the first foundation slot.
    pub foundation: Vec2,
    /// Horizontal step between piles of the stock and of the foundation.
    pub pile_step: f32,
    /// Lowest y (bottom edge) a column's cards may reach.
    pub column_floor: f32,
}

/// z of the table's layers; cards in flight are lifted above everything.
pub mod z {
    /// Placeholders and target markers under the cards.
    pub const PLACEHOLDER: f32 = 0.0;
    /// First card of a column.
    pub const COLUMN: f32 = 1.0;
    /// Step between cards of a pile (cards' own parts use less than this).
    pub const STEP: f32 = 0.05;
    /// The stock.
    pub const STOCK: f32 = 20.0;
    /// The foundation.
    pub const FOUNDATION: f32 = 40.0;
    /// Added to a moving or dragged card.
    pub const LIFT: f32 = 300.0;
    /// Markers drawn over cards.
    pub const MARKER: f32 = 250.0;
}

/// The overlay's bar along the bottom of the window, and the band of the window the table
/// leaves to it (so no card, the stock included, is ever under the bar).
pub mod bar {
    /// Narrower windows show the bar on two rows, its facts above its buttons (more below
    /// [`THREE_ROWS_MAX_WIDTH`]).
    pub const ONE_ROW_MIN_WIDTH: f32 = 1100.0;

    /// Whether a window this wide shows the bar on one row.
    pub fn one_row(window_width: f32) -> bool {
        window_width >= ONE_ROW_MIN_WIDTH
    }

    /// Narrower windows (a phone held upright) wrap the facts, and the buttons may wrap too
    /// (German's are longer): room for four rows, which costs nothing there (the columns are
    /// as narrow as the window makes them, and short).
    pub const THREE_ROWS_MAX_WIDTH: f32 = 560.0;

    /// Whether a window this wide wraps the bar's facts (three rows or four in all).
    pub fn three_rows(window_width: f32) -> bool {
        window_width < THREE_ROWS_MAX_WIDTH
    }

    /// Pixels at the bottom of a window this wide that belong to the bar.
    pub fn band(window_width: f32) -> f32 {
        if one_row(window_width) {
            44.0
        } else if three_rows(window_width) {
            120.0
        } else {
            74.0
        }
    }
}

impl Layout {
    /// Computes the layout; it fits any window of at least 200x150 pixels, above the bar's
    /// band ([`bar::band`]).
    pub fn compute(shape: &TableShape, window: Vec2, s: &LayoutSettings) -> Layout {
        let window = window.max(Vec2::new(200.0, 150.0));
        let band = bar::band(window.x).min(window.y * 0.25);
        let n = shape.columns.len().max(1) as f32;
        // Width: n cards, n-1 gaps, two margins.
        let by_width = window.x / (n + (n - 1.0) * s.gap + 2.0 * s.margin);
        // Height: a bottom row (stock and foundation) and a column of at least ~3.5 cards.
        let by_height = (window.y - band) / (s.aspect * 4.2 + 3.0 * s.margin);
        let w = by_width
            .min(by_height)
            .min(s.max_card_width)
            .floor()
            .max(8.0);
        let card = Vec2::new(w, (w * s.aspect).round());
        let margin = w * s.margin;
        let step = w * (1.0 + s.gap);
        let total = n * w + (n - 1.0) * s.gap * w;
        let left = -total / 2.0 + w / 2.0;
        let column_x: Vec<f32> = (0..shape.columns.len())
            .map(|c| (left + c as f32 * step).round())
            .collect();
        let top_y = (window.y / 2.0 - margin - card.y / 2.0).round();
        let bottom_y = (-window.y / 2.0 + band + margin + card.y / 2.0).round();
        let column_floor = bottom_y + card.y / 2.0 + margin;
        let avail = (top_y - card.y / 2.0 - column_floor).max(0.0);
        let fans = shape
            .columns
            .iter()
            .map(|&(len, down)| fan(len, down, avail, card.y, s))
            .collect();
        let pile_step = (w * s.pile_offset).round();
        let right = column_x.last().copied().unwrap_or(0.0);
        let leftmost = column_x.first().copied().unwrap_or(0.0);
        Layout {
            window,
            card,
            column_x,
            top_y,
            fans,
            stock: Vec2::new(right, bottom_y),
            foundation: Vec2::new(leftmost, bottom_y),
            pile_step,
            column_floor,
        }
    }

    /// Resting place of card `index` (0 = bottom) of `pile` on a table of `shape`.
    pub fn position(&self, shape: &TableShape, pile: PileId, index: usize) -> Vec3 {
        match pile {
            PileId::Column(c) => {
                let c = c as usize;
                let (_, down) = shape.columns.get(c).copied().unwrap_or((0, 0));
                let fan = self
                    .fans
                    .get(c)
                    .copied()
                    .unwrap_or(Fan { down: 0.0, up: 0.0 });
                let y = self.top_y
                    - index.min(down) as f32 * fan.down
                    - index.saturating_sub(down) as f32 * fan.up;
                Vec3::new(
                    self.column_x.get(c).copied().unwrap_or(0.0),
                    y,
                    z::COLUMN + index as f32 * z::STEP,
                )
            }
            PileId::Stock => {
                // Piles of one deal each, left to right, the next deal rightmost and on top. A
                // partial deal is the bottom pile; piles stay put as the stock empties.
                let c = self.column_x.len().max(1);
                let pad = (c - shape.stock % c) % c;
                let pile = (index + pad) / c;
                let top_pile = shape
                    .stock_capacity
                    .max(shape.stock)
                    .div_ceil(c)
                    .saturating_sub(1);
                Vec3::new(
                    self.stock.x - top_pile.saturating_sub(pile) as f32 * self.pile_step,
                    self.stock.y,
                    z::STOCK + pile as f32 + ((index + pad) % c) as f32 * 0.01,
                )
            }
            PileId::Foundation(slot) => {
                // The King (index 0) lies on top of its run.
                Vec3::new(
                    self.foundation.x + slot as f32 * self.pile_step,
                    self.foundation.y,
                    z::FOUNDATION + slot as f32 * 0.5 + (13 - index.min(13)) as f32 * 0.01,
                )
            }
        }
    }

    /// Where a column's next card would go (its placeholder when empty).
    pub fn column_slot(&self, shape: &TableShape, column: u8) -> Vec3 {
        let len = shape.columns.get(column as usize).map_or(0, |c| c.0);
        self.position(shape, PileId::Column(column), len)
    }

    /// The column whose area contains x (the nearest, within half a gap).
    pub fn column_at(&self, x: f32) -> Option<u8> {
        let half = self.card.x * 0.5
            + (self.column_x.get(1).copied().unwrap_or(0.0)
                - self.column_x.first().copied().unwrap_or(0.0)
                - self.card.x)
                .max(0.0)
                * 0.5;
        self.column_x
            .iter()
            .position(|&cx| (x - cx).abs() <= half)
            .map(|c| c as u8)
    }

    /// Whether `p` lies on a card centred at `centre`.
    pub fn hits(&self, centre: Vec2, p: Vec2) -> bool {
        (p - centre).abs().cmple(self.card / 2.0).all()
    }
}

/// Steps that keep a column of `len` cards (`down` face down) within `avail` pixels of fan.
fn fan(len: usize, down: usize, avail: f32, h: f32, s: &LayoutSettings) -> Fan {
    let up_steps = len.saturating_sub(down + 1) as f32;
    let down_steps = down.min(len.saturating_sub(1)) as f32;
    let mut fan = Fan {
        down: h * s.face_down_fan,
        up: h * s.face_up_fan,
    };
    let need = |f: &Fan| down_steps * f.down + up_steps * f.up;
    if need(&fan) > avail {
        // Squeeze the face-down cards first, then the face-up ones.
        let min_down = h * s.min_face_down_fan;
        if down_steps > 0.0 {
            // Not `clamp`: a floor above the step itself (settings edited by hand) must not
            // panic; the step is the bound then.
            fan.down = ((avail - up_steps * fan.up) / down_steps)
                .max(min_down)
                .min(fan.down);
        }
        if need(&fan) > avail && up_steps > 0.0 {
            fan.up = ((avail - down_steps * fan.down) / up_steps).max(h * s.min_face_up_fan);
        }
        // A column longer than any real game makes: squeeze everything alike so it still fits.
        let need = need(&fan);
        if need > avail {
            let k = avail / need;
            fan.down *= k;
            fan.up *= k;
        }
    }
    fan
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::settings::Settings;

    fn shape(columns: &[(usize, usize)]) -> TableShape {
        TableShape {
            columns: columns.to_vec(),
            stock: 50,
            stock_capacity: 50,
            foundations: 0,
            foundation_slots: 8,
        }
    }

    fn settings() -> LayoutSettings {
        Settings::default().layout
    }

    #[test]
    fn every_column_fits_the_window_across() {
        for n in [7usize, 10, 12, 20] {
            for window in [
                Vec2::new(1280.0, 720.0),
                Vec2::new(800.0, 600.0),
                Vec2::new(1920.0, 1080.0),
            ] {
                let shape = shape(&vec![(6, 5); n]);
                let l = Layout::compute(&shape, window, &settings());
                let left = l.column_x[0] - l.card.x / 2.0;
                let right = l.column_x[n - 1] + l.card.x / 2.0;
                assert!(
                    left >= -window.x / 2.0 && right <= window.x / 2.0,
                    "{n} {window}"
                );
                assert!(
                    l.column_x.windows(2).all(|w| w[1] - w[0] >= l.card.x),
                    "{n}"
                );
            }
        }
    }

    #[test]
    fn a_tall_column_is_squeezed_above_the_bottom_row() {
        let s = settings();
        let window = Vec2::new(1280.0, 720.0);
        for len in [1usize, 10, 30, 60, 104, 208] {
            let shape = shape(&[
                (len, len / 3),
                (1, 0),
                (1, 0),
                (1, 0),
                (1, 0),
                (1, 0),
                (1, 0),
                (1, 0),
                (1, 0),
                (1, 0),
            ]);
            let l = Layout::compute(&shape, window, &s);
            let last = l.position(&shape, PileId::Column(0), len - 1);
            assert!(
                last.y - l.card.y / 2.0 >= l.column_floor - 0.5,
                "len {len}: {last}"
            );
            assert!(l.top_y + l.card.y / 2.0 <= window.y / 2.0);
            // Cards stay in order and visibly fanned.
            let ys: Vec<f32> = (0..len)
                .map(|i| l.position(&shape, PileId::Column(0), i).y)
                .collect();
            assert!(ys.windows(2).all(|w| w[0] > w[1]), "len {len}");
        }
    }

    #[test]
    fn stock_piles_show_the_deals_left_and_the_next_deal_is_on_top() {
        let shape = shape(&[(5, 4); 10]);
        let l = Layout::compute(&shape, Vec2::new(1280.0, 720.0), &settings());
        let xs: std::collections::BTreeSet<i32> = (0..50)
            .map(|i| l.position(&shape, PileId::Stock, i).x as i32)
            .collect();
        assert_eq!(xs.len(), 5);
        let top = l.position(&shape, PileId::Stock, 49);
        let bottom = l.position(&shape, PileId::Stock, 0);
        assert!(top.z > bottom.z && top.x > bottom.x);
        assert_eq!(top.x, l.stock.x);
        // After a deal the other piles stay where they were.
        let dealt = TableShape {
            stock: 40,
            ..shape.clone()
        };
        for i in 0..40 {
            assert_eq!(
                l.position(&dealt, PileId::Stock, i),
                l.position(&shape, PileId::Stock, i)
            );
        }
        // A partial deal (Spiderette: 3 cards over 7 columns) is the bottom pile.
        let shape7 = TableShape {
            columns: vec![(3, 2); 7],
            stock: 24,
            stock_capacity: 24,
            ..shape
        };
        let l7 = Layout::compute(&shape7, Vec2::new(1280.0, 720.0), &settings());
        let xs: Vec<f32> = (0..24)
            .map(|i| l7.position(&shape7, PileId::Stock, i).x)
            .collect();
        assert!(
            xs[..3].iter().all(|&x| x == xs[0]) && xs[3] > xs[0],
            "{xs:?}"
        );
        assert_eq!(xs[23], l7.stock.x);
    }

    /// Issue 15: at 800x600 the bar covered the stock and a click on the stock hit a button.
    /// Every pile of the bottom row, and every column, stays above the bar's band.
    #[test]
    fn the_table_keeps_clear_of_the_bar() {
        for (n, stock) in [(10usize, 50usize), (12, 84), (7, 24), (20, 120)] {
            for window in [
                Vec2::new(390.0, 844.0),
                Vec2::new(800.0, 600.0),
                Vec2::new(1280.0, 720.0),
                Vec2::new(1920.0, 1080.0),
            ] {
                let shape = TableShape {
                    stock,
                    stock_capacity: stock,
                    ..shape(&vec![(30, 5); n])
                };
                let l = Layout::compute(&shape, window, &settings());
                let clear = -window.y / 2.0 + bar::band(window.x);
                for i in 0..stock {
                    let p = l.position(&shape, PileId::Stock, i);
                    assert!(p.y - l.card.y / 2.0 >= clear, "{n} {window} stock {i}");
                }
                let f = l.position(&shape, PileId::Foundation(0), 0);
                assert!(f.y - l.card.y / 2.0 >= clear, "{n} {window}");
                assert!(l.column_floor >= clear, "{n} {window}");
            }
        }
        assert!(!bar::one_row(800.0));
        assert!(bar::band(800.0) > bar::band(1280.0));
        assert!(bar::band(390.0) > bar::band(800.0));
    }

    #[test]
    fn column_at_finds_the_column_under_x() {
        let shape = shape(&[(5, 4); 10]);
        let l = Layout::compute(&shape, Vec2::new(1280.0, 720.0), &settings());
        for (c, &x) in l.column_x.iter().enumerate() {
            assert_eq!(l.column_at(x), Some(c as u8));
            assert_eq!(l.column_at(x + l.card.x * 0.49), Some(c as u8));
        }
        assert_eq!(l.column_at(-700.0), None);
    }
}
