//! Squares of the infinite plane.

use std::cmp::Ordering;
use std::fmt;
use std::ops::{Add, Neg, Sub};

/// The unit square `[x, x+1] × [y, y+1]`; `y` grows upwards.
///
/// Squares order row by row from the bottom, so that iterating a fragment
/// visits its cells in reading order for the pretty-printer.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct Square {
    /// Column, growing to the right.
    pub x: i32,
    /// Row, growing upwards.
    pub y: i32,
}

impl Square {
    /// `(0, 0)`: the centre a fragment is written around.
    pub const ORIGIN: Square = Square { x: 0, y: 0 };

    /// The square `(x, y)`.
    pub const fn new(x: i32, y: i32) -> Self {
        Square { x, y }
    }
}

impl Square {
    /// The name chess gives the square: `e2` for `(4, 1)`. Files run from
    /// `a` at `x = 0`; one outside `a`–`z` is written `[x]`, and ranks count
    /// from 1 at `y = 0` (so a square below the board has rank 0 or less).
    pub fn name(self) -> String {
        let file = if (0..26).contains(&self.x) {
            ((b'a' + self.x as u8) as char).to_string()
        } else {
            format!("[{}]", self.x)
        };
        format!("{file}{}", i64::from(self.y) + 1)
    }

    /// The square whose name starts `s`, and the rest: `e2` and `e4` of
    /// `e2e4`, `[30]2` of `[30]2=♕`.
    pub fn parse_prefix(s: &str) -> Option<(Square, &str)> {
        let (x, rest) = if let Some(r) = s.strip_prefix('[') {
            let end = r.find(']')?;
            (r[..end].parse::<i32>().ok()?, &r[end + 1..])
        } else {
            let c = s.chars().next().filter(|c| c.is_ascii_lowercase())?;
            ((c as u8 - b'a') as i32, &s[1..])
        };
        let digits = rest
            .char_indices()
            .find(|&(i, c)| !(c.is_ascii_digit() || (i == 0 && c == '-')))
            .map_or(rest.len(), |(i, _)| i);
        let rank: i32 = rest[..digits].parse().ok()?;
        Some((Square::new(x, rank.checked_sub(1)?), &rest[digits..]))
    }
}

/// Text that names no square, kept to quote.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseSquareError(pub String);

impl std::fmt::Display for ParseSquareError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "`{}` is not a square: write a name such as `e2`, or `x,y`", self.0)
    }
}

impl std::error::Error for ParseSquareError {}

/// A square named as chess names it (`e2`), or by coordinates (`4,1`).
impl std::str::FromStr for Square {
    type Err = ParseSquareError;

    fn from_str(s: &str) -> Result<Square, ParseSquareError> {
        let bad = || ParseSquareError(s.to_string());
        if let Some((x, y)) = s.split_once(',') {
            let n = |t: &str| t.trim().parse::<i32>().map_err(|_| bad());
            return Ok(Square::new(n(x)?, n(y)?));
        }
        match Square::parse_prefix(s) {
            Some((q, "")) => Ok(q),
            _ => Err(bad()),
        }
    }
}

impl Ord for Square {
    fn cmp(&self, other: &Self) -> Ordering {
        (self.y, self.x).cmp(&(other.y, other.x))
    }
}

impl PartialOrd for Square {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Add for Square {
    type Output = Square;
    fn add(self, o: Square) -> Square {
        Square::new(self.x + o.x, self.y + o.y)
    }
}

impl Sub for Square {
    type Output = Square;
    fn sub(self, o: Square) -> Square {
        Square::new(self.x - o.x, self.y - o.y)
    }
}

impl Neg for Square {
    type Output = Square;
    fn neg(self) -> Square {
        Square::new(-self.x, -self.y)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({}, {})", self.x, self.y)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        assert_eq!(Square::new(4, 1).name(), "e2");
        assert_eq!("e2".parse(), Ok(Square::new(4, 1)));
        assert_eq!("4,1".parse(), Ok(Square::new(4, 1)));
        assert_eq!(Square::parse_prefix("e10x"), Some((Square::new(4, 9), "x")));
        assert_eq!(Square::parse_prefix("[30]2"), Some((Square::new(30, 1), "")));
        for q in [
            Square::new(0, 0),
            Square::new(25, 7),
            Square::new(-3, -4),
            Square::new(40, 0),
        ] {
            assert_eq!(q.name().parse(), Ok(q), "{}", q.name());
        }
        for bad in ["E2", "e", "", "e2x", "1,", "[3", "e2,"] {
            assert!(bad.parse::<Square>().is_err(), "{bad}");
        }
    }
}
