//! Movements: the group `(Z² ⋊ D4) × Z2` on the square grid, and
//! `(Z² ⋊ D6) × Z2` on the hexagonal grid, in normal form.
//!
//! A movement is stored as `p ↦ Rʳ Fᶠ p + t`, plus a colour bit and the
//! tiling its turn and mirror belong to. Every product of generators reduces
//! to exactly one such value, so equality of movements is equality of this
//! struct. Translations and `C` mean the same on both grids (hex cells have
//! axial coordinates), so a movement without turn or mirror is always
//! tagged `Square`: `u` is one value whichever grid it is written on.

use super::{Square, Tiling};
use std::fmt;

/// The largest translation a movement may carry, in squares along either
/// axis. Boards are small; the bound keeps every sum of a few movements far
/// inside `i32`, so that square arithmetic never wraps. Elaboration rejects
/// movements beyond it.
pub(crate) const MAX_SHIFT: i32 = 1 << 24;

/// A movement in normal form: equal movements are equal structs.
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Default)]
pub struct Movement {
    /// Turns counter-clockwise, `0..tiling.turns()`, applied after the flip.
    pub rot: u8,
    /// Mirror in the vertical axis through the centre, applied first.
    pub flip: bool,
    /// Translation applied last.
    pub shift: Square,
    /// Colour reversal; it commutes with everything.
    pub colour: bool,
    /// The grid whose turn and mirror `rot` and `flip` are; `Square` when
    /// both are trivial.
    pub tiling: Tiling,
}

impl Movement {
    /// `1`: moves nothing.
    pub const IDENTITY: Movement = Movement {
        rot: 0,
        flip: false,
        shift: Square::ORIGIN,
        colour: false,
        tiling: Tiling::Square,
    };
    /// `u`: one square up.
    pub const U: Movement = Movement::translation(0, 1);
    /// `d`: one square down.
    pub const D: Movement = Movement::translation(0, -1);
    /// `l`: one square left.
    pub const L: Movement = Movement::translation(-1, 0);
    /// `r`: one square right.
    pub const R: Movement = Movement::translation(1, 0);
    /// `R`: a quarter turn counter-clockwise, on the square grid.
    pub const ROTATE: Movement = Movement {
        rot: 1,
        ..Movement::IDENTITY
    };
    /// `F`: the mirror in the vertical axis.
    pub const FLIP: Movement = Movement {
        flip: true,
        ..Movement::IDENTITY
    };
    /// `C`: swaps the colours of pieces.
    pub const COLOUR: Movement = Movement {
        colour: true,
        ..Movement::IDENTITY
    };

    /// The shift by `(x, y)`.
    pub const fn translation(x: i32, y: i32) -> Movement {
        Movement {
            rot: 0,
            flip: false,
            shift: Square::new(x, y),
            colour: false,
            tiling: Tiling::Square,
        }
    }

    /// `R` on `tiling`: a quarter turn about the corner of square `(0, 0)`,
    /// or a sixth of a turn about the centre of hex cell `(0, 0)`.
    pub const fn turn(tiling: Tiling) -> Movement {
        Movement {
            rot: 1,
            tiling,
            ..Movement::IDENTITY
        }
    }

    /// `F` on `tiling`: the mirror in the vertical line through the centre.
    pub const fn mirror(tiling: Tiling) -> Movement {
        Movement {
            flip: true,
            tiling,
            ..Movement::IDENTITY
        }
    }

    /// The generator one letter spells on `tiling`.
    pub fn letter_on(c: char, tiling: Tiling) -> Option<Movement> {
        Some(match c {
            'R' => Movement::turn(tiling),
            'F' => Movement::mirror(tiling),
            _ => return Movement::from_letter(c),
        })
    }

    /// Tags a movement with trivial turn and mirror as `Square`, the one
    /// spelling of such a value.
    fn normal(mut self) -> Movement {
        if self.rot == 0 && !self.flip {
            self.tiling = Tiling::Square;
        }
        self
    }

    /// The tiling a product of `self` then `next` lives on.
    fn tiling_with(&self, next: &Movement) -> Tiling {
        if next.rot != 0 || next.flip {
            next.tiling
        } else {
            self.tiling
        }
    }

    /// The generator spelled by one letter of a movement word.
    pub fn from_letter(c: char) -> Option<Movement> {
        Some(match c {
            'u' => Movement::U,
            'd' => Movement::D,
            'l' => Movement::L,
            'r' => Movement::R,
            'R' => Movement::ROTATE,
            'F' => Movement::FLIP,
            'C' => Movement::COLOUR,
            _ => return None,
        })
    }

    /// True when every character of `w` is a movement letter, so the word
    /// always reads as a movement and can never name a definition.
    pub fn is_word(w: &str) -> bool {
        !w.is_empty() && w.chars().all(|c| Movement::from_letter(c).is_some())
    }

    /// `self` is a pure translation: no turn, no flip, no colour change.
    pub fn is_translation(&self) -> bool {
        self.rot == 0 && !self.flip && !self.colour
    }

    /// Whether the movement moves nothing.
    pub fn is_identity(&self) -> bool {
        *self == Movement::IDENTITY
    }

    /// The linear part (turn and flip) acting on a vector. On hex cells in
    /// axial coordinates (`u` is `(0, 1)`, `r` is up and to the right) the
    /// mirror is `(x, y) ↦ (-x, x + y)` and the sixth turn
    /// `(x, y) ↦ (-y, x + y)`.
    fn linear(tiling: Tiling, rot: u8, flip: bool, v: Square) -> Square {
        match tiling {
            Tiling::Square => {
                let mut v = if flip { Square::new(-v.x, v.y) } else { v };
                for _ in 0..rot {
                    v = Square::new(-v.y, v.x);
                }
                v
            }
            Tiling::Hex => {
                let mut v = if flip { Square::new(-v.x, v.x + v.y) } else { v };
                for _ in 0..rot {
                    v = Square::new(-v.y, v.x + v.y);
                }
                v
            }
        }
    }

    /// Where this movement sends square `q`. Squares are mapped through
    /// their centres, in doubled coordinates so everything stays integral;
    /// hex turns and mirrors fix the centre of cell `(0, 0)`.
    pub fn apply(&self, q: Square) -> Square {
        if self.tiling == Tiling::Hex {
            return Movement::linear(Tiling::Hex, self.rot, self.flip, q) + self.shift;
        }
        let c = Movement::linear(
            Tiling::Square,
            self.rot,
            self.flip,
            Square::new(2 * q.x + 1, 2 * q.y + 1),
        );
        Square::new(
            (c.x + 2 * self.shift.x - 1).div_euclid(2),
            (c.y + 2 * self.shift.y - 1).div_euclid(2),
        )
    }

    /// Do `self`, then `next`. The text `n m` is `m.then(n)`.
    pub fn then(&self, next: &Movement) -> Movement {
        let tiling = self.tiling_with(next);
        let n = tiling.turns();
        let (rot, flip) = if next.flip {
            ((next.rot + n - self.rot) % n, !self.flip)
        } else {
            ((next.rot + self.rot) % n, self.flip)
        };
        Movement {
            rot,
            flip,
            shift: Movement::linear(tiling, next.rot, next.flip, self.shift) + next.shift,
            colour: self.colour ^ next.colour,
            tiling,
        }
        .normal()
    }

    /// The movement that undoes this one.
    pub fn inverse(&self) -> Movement {
        let n = self.tiling.turns();
        let (rot, flip) = if self.flip {
            (self.rot, true)
        } else {
            ((n - self.rot) % n, false)
        };
        Movement {
            rot,
            flip,
            shift: -Movement::linear(self.tiling, rot, flip, self.shift),
            colour: self.colour,
            tiling: self.tiling,
        }
    }

    /// `self`, then `next`, when the result's translation stays within
    /// `MAX_SHIFT` squares on each axis; `None` beyond.
    pub fn checked_then(&self, next: &Movement) -> Option<Movement> {
        Wide::of(self).then(&Wide::of(next))?.narrow()
    }

    /// `self^k` for any integer `k`, when its translation stays within
    /// `MAX_SHIFT`; `None` beyond, never a wrapped value.
    pub fn checked_pow(&self, k: i64) -> Option<Movement> {
        let base = if k < 0 { self.inverse() } else { *self };
        // Square-and-multiply keeps huge exponents cheap; the arithmetic is
        // checked, so a translation too large for `i64` is `None` too.
        let mut result = Wide::of(&Movement::IDENTITY);
        let mut acc = Wide::of(&base);
        let mut n = k.unsigned_abs();
        while n > 0 {
            if n & 1 == 1 {
                result = result.then(&acc)?;
            }
            n >>= 1;
            if n > 0 {
                acc = acc.then(&acc)?;
            }
        }
        result.narrow()
    }

    /// The same movement without its translation.
    pub fn linear_part(&self) -> Movement {
        Movement {
            shift: Square::ORIGIN,
            ..*self
        }
    }
}

/// A movement with its translation in checked `i64`, for products whose
/// size is not known in advance.
#[derive(Copy, Clone)]
struct Wide {
    rot: u8,
    flip: bool,
    shift: (i64, i64),
    colour: bool,
    tiling: Tiling,
}

impl Wide {
    fn of(m: &Movement) -> Wide {
        Wide {
            rot: m.rot,
            flip: m.flip,
            shift: (m.shift.x.into(), m.shift.y.into()),
            colour: m.colour,
            tiling: m.tiling,
        }
    }

    fn then(&self, next: &Wide) -> Option<Wide> {
        let tiling = if next.rot != 0 || next.flip {
            next.tiling
        } else {
            self.tiling
        };
        let n = tiling.turns();
        let (rot, flip) = if next.flip {
            ((next.rot + n - self.rot) % n, !self.flip)
        } else {
            ((next.rot + self.rot) % n, self.flip)
        };
        let hex = tiling == Tiling::Hex;
        let (x, y) = self.shift;
        let mut v = match (next.flip, hex) {
            (false, _) => (x, y),
            (true, false) => (x.checked_neg()?, y),
            (true, true) => (x.checked_neg()?, x.checked_add(y)?),
        };
        for _ in 0..next.rot {
            v = if hex {
                (v.1.checked_neg()?, v.0.checked_add(v.1)?)
            } else {
                (v.1.checked_neg()?, v.0)
            };
        }
        Some(Wide {
            rot,
            flip,
            shift: (v.0.checked_add(next.shift.0)?, v.1.checked_add(next.shift.1)?),
            colour: self.colour ^ next.colour,
            tiling: if rot == 0 && !flip { Tiling::Square } else { tiling },
        })
    }

    fn narrow(&self) -> Option<Movement> {
        let bound = i64::from(MAX_SHIFT);
        let fits = |v: i64| (-bound..=bound).contains(&v);
        (fits(self.shift.0) && fits(self.shift.1)).then(|| Movement {
            rot: self.rot,
            flip: self.flip,
            shift: Square::new(self.shift.0 as i32, self.shift.1 as i32),
            colour: self.colour,
            tiling: self.tiling,
        })
    }
}

/// A power written after a movement word's last letter: `^12`, or a
/// superscript (`R²`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct WordPower {
    pub(crate) power: i64,
    pub(crate) superscript: bool,
}

impl Movement {
    /// The normal form as the runs of letters a movement word is written
    /// in, each with the power on its last letter, if any: colour, then
    /// translation, then turn, then flip (rightmost acts first). `u^12r`
    /// is `u` to the twelfth, then `r`. The identity has none (it is
    /// written `1`).
    pub(crate) fn word_parts(&self) -> Vec<(String, Option<WordPower>)> {
        let mut parts = vec![];
        let mut run = String::new();
        let mut power = |run: &mut String, power: i64, superscript: bool| {
            parts.push((std::mem::take(run), Some(WordPower { power, superscript })));
        };
        if self.colour {
            run.push('C');
        }
        let mut axis = |run: &mut String, n: i32, pos: char, neg: char| {
            let c = if n > 0 { pos } else { neg };
            let n = n.unsigned_abs();
            run.push(c);
            if n > 8 {
                // `u^12r` lexes as `u`, `^12`, `r`: the power binds one letter.
                power(run, i64::from(n), false);
            } else {
                run.extend(std::iter::repeat_n(c, n as usize - 1));
            }
        };
        if self.shift.y != 0 {
            axis(&mut run, self.shift.y, 'u', 'd');
        }
        if self.shift.x != 0 {
            axis(&mut run, self.shift.x, 'r', 'l');
        }
        if self.rot > 0 {
            run.push('R');
            if self.rot > 1 {
                power(&mut run, i64::from(self.rot.min(5)), true);
            }
        }
        if self.flip {
            run.push('F');
        }
        if !run.is_empty() {
            parts.push((run, None));
        }
        parts
    }
}

impl fmt::Display for WordPower {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.superscript {
            return write!(f, "^{}", self.power);
        }
        let digits = ['⁰', '¹', '²', '³', '⁴', '⁵', '⁶', '⁷', '⁸', '⁹'];
        if self.power < 0 {
            f.write_str("⁻")?;
        }
        for d in self.power.unsigned_abs().to_string().chars() {
            write!(f, "{}", digits[d.to_digit(10).unwrap_or(0) as usize])?;
        }
        Ok(())
    }
}

impl fmt::Display for Movement {
    /// Prints the normal form as a movement word that parses back to it
    /// ([`Movement::word_parts`]).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_identity() {
            return f.write_str("1");
        }
        for (run, power) in self.word_parts() {
            f.write_str(&run)?;
            if let Some(p) = power {
                write!(f, "{p}")?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use quickcheck::quickcheck;
    use quickcheck::{Arbitrary, Gen};

    impl Arbitrary for Movement {
        fn arbitrary(g: &mut Gen) -> Self {
            // Any turn count; `on` reduces it for the grid under test.
            Movement {
                rot: u8::arbitrary(g) % 12,
                flip: bool::arbitrary(g),
                shift: Square::new(i32::from(i8::arbitrary(g) % 10), i32::from(i8::arbitrary(g) % 10)),
                colour: bool::arbitrary(g),
                tiling: Tiling::Square,
            }
        }
    }

    fn word(w: &str) -> Movement {
        word_on(w, Tiling::Square)
    }

    fn word_on(w: &str, tiling: Tiling) -> Movement {
        // Text `nm` means m first, then n.
        w.chars()
            .rev()
            .map(|c| Movement::letter_on(c, tiling).unwrap())
            .fold(Movement::IDENTITY, |acc, m| acc.then(&m))
    }

    #[test]
    fn hex_generators_act_on_axial_cells() {
        let h = |w: &str| word_on(w, Tiling::Hex);
        // The six unit steps are the turns of `u`.
        let steps: Vec<Square> = (0..6)
            .map(|k| h(&"R".repeat(k)).then(&Movement::U).then(&h(&"R".repeat(6 - k))))
            .map(|m| {
                assert!(m.is_translation());
                m.shift
            })
            .collect();
        let expect = [(0, 1), (1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1)].map(|(x, y)| Square::new(x, y));
        let mut sorted = steps.clone();
        sorted.sort();
        let mut e = expect.to_vec();
        e.sort();
        assert_eq!(sorted, e);
        assert_eq!(h("R").apply(Square::new(0, 1)), Square::new(-1, 1));
        assert_eq!(h("R").apply(Square::ORIGIN), Square::ORIGIN);
        assert_eq!(h("F").apply(Square::new(1, 0)), Square::new(-1, 1));
        assert_eq!(h("RRRRRR"), Movement::IDENTITY);
        assert_ne!(h("RRRR"), Movement::IDENTITY);
        assert_eq!(h("FF"), Movement::IDENTITY);
        assert_eq!(h("FR"), h("RRRRRF"));
        assert_eq!(h("CR"), h("RC"));
        // `R³` is the half turn, the same map as the square grid's `R²`
        // up to where the centre sits.
        assert_eq!(h("RRR").apply(Square::new(2, -1)), Square::new(-2, 1));
        assert_eq!(h("Ru"), h("luR"));
        assert_eq!(h("RRRRRu").to_string(), "rR⁵");
    }

    #[test]
    fn generators_act_as_semantics_says() {
        let q = Square::new(2, 5);
        assert_eq!(Movement::U.apply(q), Square::new(2, 6));
        assert_eq!(Movement::L.apply(q), Square::new(1, 5));
        assert_eq!(Movement::ROTATE.apply(q), Square::new(-6, 2));
        assert_eq!(Movement::FLIP.apply(q), Square::new(-3, 5));
        assert_eq!(Movement::COLOUR.apply(q), q);
    }

    #[test]
    fn seed_identities() {
        assert_eq!(word("RRRR"), Movement::IDENTITY);
        assert_eq!(word("FF"), Movement::IDENTITY);
        assert_eq!(word("FR"), word("RRRF"));
        assert_eq!(word("Ru"), word("lR"));
        assert_eq!(word("ur"), word("ru"));
        assert_eq!(word("CR"), word("RC"));
        assert_ne!(word("Ru"), word("uR"));
    }

    #[test]
    fn display_round_trips_through_letters() {
        let m = word("CuulRRF");
        assert_eq!(m.to_string(), "CuulR²F");
        assert_eq!(word("CuulRRF"), m);
    }

    /// `m` read on the hex grid when `hex`, else on the square grid.
    fn on(hex: bool, m: Movement) -> Movement {
        let tiling = if hex { Tiling::Hex } else { Tiling::Square };
        Movement {
            rot: m.rot % tiling.turns(),
            tiling,
            ..m
        }
        .normal()
    }

    quickcheck! {
        fn composition_is_associative(hex: bool, a: Movement, b: Movement, c: Movement) -> bool {
            let (a, b, c) = (on(hex, a), on(hex, b), on(hex, c));
            a.then(&b).then(&c) == a.then(&b.then(&c))
        }

        fn identity_is_neutral(hex: bool, a: Movement) -> bool {
            let a = on(hex, a);
            a.then(&Movement::IDENTITY) == a && Movement::IDENTITY.then(&a) == a
        }

        fn inverse_cancels(hex: bool, a: Movement) -> bool {
            let a = on(hex, a);
            a.then(&a.inverse()).is_identity() && a.inverse().then(&a).is_identity()
        }

        fn composition_acts_pointwise(hex: bool, a: Movement, b: Movement, x: i8, y: i8) -> bool {
            let (a, b) = (on(hex, a), on(hex, b));
            let q = Square::new(x.into(), y.into());
            a.then(&b).apply(q) == b.apply(a.apply(q))
        }

        fn normal_form_is_determined_by_action(hex: bool, a: Movement, b: Movement) -> bool {
            let (a, b) = (on(hex, a), on(hex, b));
            // Equal action on three non-collinear squares and equal colour
            // bits force equal normal forms: the normal form is canonical
            // on each grid.
            let probe = [Square::new(0, 0), Square::new(1, 0), Square::new(0, 1)];
            let same = probe.iter().all(|&q| a.apply(q) == b.apply(q)) && a.colour == b.colour;
            same == (a == b)
        }

        fn powers_add(hex: bool, a: Movement, i: i8, j: i8) -> bool {
            let a = on(hex, a);
            let (i, j) = (i64::from(i), i64::from(j));
            a.checked_pow(i).unwrap().then(&a.checked_pow(j).unwrap()) == a.checked_pow(i + j).unwrap()
        }

        fn translations_commute(x1: i8, y1: i8, x2: i8, y2: i8) -> bool {
            let a = Movement::translation(x1.into(), y1.into());
            let b = Movement::translation(x2.into(), y2.into());
            a.then(&b) == b.then(&a)
        }

        fn colour_is_central(hex: bool, a: Movement) -> bool {
            let a = on(hex, a);
            a.then(&Movement::COLOUR) == Movement::COLOUR.then(&a)
        }
    }
}
