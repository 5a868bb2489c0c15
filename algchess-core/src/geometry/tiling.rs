//! The grids a game can be played on.

use super::Square;
use std::fmt;

/// A grid: square cells, or hexagonal cells in axial coordinates.
///
/// Hex cell `(x, y)` is a flat-topped hexagon in column `x`; `u` steps up
/// its column, `r` to the next column up and to the right, so its centre
/// sits at `(1.5 x, √3 (y + x / 2))`. Translations are `Z²` on both grids,
/// which is why fragments, boards and rules need no change on hex: only
/// turns and mirrors differ.
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Default)]
pub enum Tiling {
    /// Square cells (`grid square`, the default).
    #[default]
    Square,
    /// Hexagonal cells in axial coordinates (`grid hex`).
    Hex,
}

impl Tiling {
    /// The order of the turn `R`: 4 or 6.
    pub const fn turns(self) -> u8 {
        match self {
            Tiling::Square => 4,
            Tiling::Hex => 6,
        }
    }

    /// The tiling a `grid NAME` declaration names.
    pub fn named(name: &str) -> Option<Tiling> {
        match name {
            "square" => Some(Tiling::Square),
            "hex" => Some(Tiling::Hex),
            _ => None,
        }
    }

    /// The name a `grid NAME` declaration uses.
    pub fn name(self) -> &'static str {
        match self {
            Tiling::Square => "square",
            Tiling::Hex => "hex",
        }
    }

    /// The cells next to the origin: across an edge.
    pub fn neighbours(self) -> &'static [Square] {
        const SQUARE: [Square; 4] = [
            Square::new(0, 1),
            Square::new(1, 0),
            Square::new(0, -1),
            Square::new(-1, 0),
        ];
        const HEX: [Square; 6] = [
            Square::new(0, 1),
            Square::new(1, 0),
            Square::new(1, -1),
            Square::new(0, -1),
            Square::new(-1, 0),
            Square::new(-1, 1),
        ];
        match self {
            Tiling::Square => &SQUARE,
            Tiling::Hex => &HEX,
        }
    }
}

impl fmt::Display for Tiling {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The three colours of hex cells: steps along a diagonal (`ur` is
    /// `(1, 1)`) keep it.
    fn hex_colour(q: Square) -> u8 {
        (q.x - q.y).rem_euclid(3) as u8
    }

    #[test]
    fn hex_colours_differ_across_every_edge() {
        for d in Tiling::Hex.neighbours() {
            for x in -3..3 {
                for y in -3..3 {
                    let q = Square::new(x, y);
                    assert_ne!(hex_colour(q), hex_colour(q + *d));
                    assert_eq!(hex_colour(q), hex_colour(q + Square::new(1, 1)));
                }
            }
        }
        assert_eq!(Tiling::named("hex"), Some(Tiling::Hex));
        assert_eq!(Tiling::named("tri"), None);
    }
}
