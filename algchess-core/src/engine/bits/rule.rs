//! Rules, walks and slides on words, for every piece of a set at once.

use super::answer::Landing;
use super::probe::{line_masks, Line};
use super::{at, Bits, BoxShape, Codes, Shared};
use crate::engine::word::Word;
use crate::geometry::Square;
use crate::semantics::{CellSet, Code};

/// One read of an anchored rule, for every piece of a set at once: the
/// squares `d` away from which hold one of a set of codes.
#[derive(Clone, Debug)]
struct BitRead<W> {
    /// `d` in bit numbers.
    shift: i32,
    /// The squares whose square `d` away is on the box.
    valid: W,
    /// The set's codes, or (`flip` all the box) the codes it leaves out.
    codes: Codes,
    flip: W,
    /// Where the set holds `#`: the squares whose square `d` away is off
    /// the box, which fit (else none).
    off: W,
}

impl<W: Word> BitRule<W> {
    /// Gives the code sets the rule reads their words ([`Slots`]).
    pub(in crate::engine) fn intern(&mut self, shared: &mut Shared<W>) {
        self.reads.iter_mut().for_each(|r| shared.codes(&mut r.codes));
    }
}

/// An anchored rule's reads as words: the squares where it fits, for a
/// whole set of pieces at once (all the pawns' pushes in a few shifts).
#[derive(Clone, Debug)]
pub(in crate::engine) struct BitRule<W> {
    reads: Vec<BitRead<W>>,
    /// When the rule empties the pivot and writes one square it reads
    /// on the box: that square (in bit numbers from the pivot) and what
    /// it writes there.
    step: Option<(i32, u8)>,
    /// Its writes in bit numbers from the pivot with the code each
    /// writes, and the codes they write or may write over (but the
    /// POI's).
    writes: Vec<(i32, u8)>,
    touched: CellSet,
}

impl<W: Word> BitRule<W> {
    /// The rule whose reads are `reads` (square from the pivot, set), on
    /// boxes of `shape`; `None` for a read of the pivot's own square.
    pub(in crate::engine) fn new(
        reads: &[(Square, CellSet)],
        writes: &[(Square, u8)],
        shape: BoxShape,
    ) -> Option<BitRule<W>> {
        if !shape.fits::<W>() {
            return None;
        }
        let all = W::below((shape.width * shape.height) as u32);
        let mut out = vec![];
        for &(d, set) in reads {
            if (d.x, d.y) == (0, 0) {
                return None;
            }
            let valid = shape.stepping::<W>(d);
            // Whichever list is shorter: `not #` leaves out one code.
            let (inside, outside) = (Codes::of(set), Codes::of(set.complement()));
            let exclude = outside.0.len() < inside.0.len();
            out.push(BitRead {
                shift: d.x + shape.width * d.y,
                valid,
                codes: if exclude { outside } else { inside },
                flip: if exclude { all } else { W::ZERO },
                off: if set.contains_code(Code::OFF) {
                    all & !valid
                } else {
                    W::ZERO
                },
            });
        }
        let mut touched = CellSet::default();
        for &(d, v) in writes {
            if v != Code::POI {
                touched.insert_code(v);
            }
            if let Some(&(_, set)) = reads.iter().find(|(e, _)| *e == d) {
                touched = touched.union(&set);
            } else if (d.x, d.y) != (0, 0) {
                touched = CellSet::default().complement();
            }
        }
        let writes: Vec<(i32, u8)> = writes.iter().map(|&(d, v)| (d.x + shape.width * d.y, v)).collect();
        let step = match writes[..] {
            [(0, Code::EMPTY), (at, v)] | [(at, v), (0, Code::EMPTY)] if at != 0 => Some((at, v)),
            _ => None,
        }
        .filter(|&(at, _)| out.iter().any(|r| r.shift == at && r.off.is_zero()));
        Some(BitRule {
            reads: out,
            step,
            writes,
            touched,
        })
    }

    /// The pivots among `bases` where every write of the rule leaves the
    /// kept answer of `l` standing.
    #[inline]
    pub(in crate::engine) fn landing(&self, bases: W, l: &Landing<'_, W>) -> W {
        self.writes.iter().fold(bases, |m, &(shift, v)| {
            let quiet = l.quiet(shift == 0, if v == Code::POI { l.code } else { v });
            m & if shift >= 0 {
                quiet.down(shift as u32)
            } else {
                quiet.up(shift.unsigned_abs())
            }
        })
    }

    /// The square the rule writes from the pivot (in bit numbers) and
    /// what it writes there, when it empties the pivot and writes that
    /// square alone.
    #[inline]
    pub(in crate::engine) fn step(&self) -> Option<(i32, u8)> {
        self.step
    }

    /// Whether a write of the rule may put or take away a code of `codes`
    /// (the binder's own code aside).
    pub(in crate::engine) fn touches(&self, codes: &CellSet) -> bool {
        !self.touched.intersection(codes).is_empty()
    }

    /// The squares of `pieces` where the rule fits.
    #[inline]
    pub(in crate::engine) fn bases(&self, b: &Bits<W>, pieces: W) -> W {
        let mut m = pieces;
        for r in &self.reads {
            // Most rules fit few pieces: stop when none is left.
            if m.is_zero() {
                break;
            }
            // Words hold squares of the box alone, so flipping them by
            // the box's squares leaves the codes out with no branch.
            let word = b.of(&r.codes);
            let word = (word & !r.flip) | (r.flip & !word);
            let there = if r.shift >= 0 {
                word.down(r.shift as u32)
            } else {
                word.up(r.shift.unsigned_abs())
            };
            m &= (there & r.valid) | r.off;
        }
        m
    }
}

/// A walk over empty squares along one step, for every piece of a set at
/// once: where a grasshopper may stand before its hurdle.
#[derive(Clone, Debug)]
pub(in crate::engine) struct BitWalk<W> {
    /// The step in bit numbers.
    shift: i32,
    /// The squares whose square a step on is on the box.
    valid: W,
}

impl<W: Word> BitWalk<W> {
    /// Walks along `d` on boxes of `shape`.
    pub(in crate::engine) fn new(d: Square, shape: BoxShape) -> Option<BitWalk<W>> {
        (shape.fits::<W>() && (d.x, d.y) != (0, 0)).then(|| BitWalk {
            shift: d.x + shape.width * d.y,
            valid: shape.stepping::<W>(d),
        })
    }

    /// The squares `pieces` walk to, themselves included.
    #[inline]
    pub(in crate::engine) fn ends(&self, b: &Bits<W>, pieces: W) -> W {
        let empty = b.word(Code::EMPTY);
        let (mut all, mut front) = (pieces, pieces);
        loop {
            let on = front & self.valid;
            let next = if self.shift >= 0 {
                on.up(self.shift as u32)
            } else {
                on.down(self.shift.unsigned_abs())
            };
            front = next & empty & !all;
            if front.is_zero() {
                return all;
            }
            all |= front;
        }
    }
}

/// A slide's line on words: from each square, the squares along its
/// step up to its length, so that a leaf counts a slider's results along
/// it at once instead of square by square; and the codes it may land on.
#[derive(Clone)]
pub(in crate::engine) struct BitRay<W> {
    pub(super) line: Line<W>,
    codes: Codes,
}

impl<W> std::fmt::Debug for BitRay<W> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The masks are a row per square: too long to be of use.
        f.write_str("BitRay")
    }
}

impl<W: Word> BitRay<W> {
    /// Shares its row ([`Shared::row`]) and gives its codes their word.
    pub(in crate::engine) fn intern(&mut self, shared: &mut Shared<W>) {
        shared.line(&mut self.line);
        shared.codes(&mut self.codes);
    }

    /// The line along `d`, at most `max` squares long, to squares holding
    /// `set`, on boxes of `shape`.
    pub(in crate::engine) fn new(d: Square, max: u32, set: CellSet, shape: BoxShape) -> Option<BitRay<W>> {
        let delta = d.x + shape.width * d.y;
        if !shape.fits::<W>() || delta == 0 {
            return None;
        }
        let len = max.min(shape.width.max(shape.height) as u32);
        Some(BitRay {
            line: Line {
                masks: line_masks(shape, d, len),
                up: delta > 0,
            },
            codes: Codes::of(set),
        })
    }

    /// From bit `k`: the squares a slide along the line lands on (over
    /// empty squares, up to and with the first that is not empty, each
    /// holding a code of its set), and that first square (0: none).
    #[inline]
    pub(in crate::engine) fn targets(&self, b: &Bits<W>, k: u32) -> (W, W) {
        let sq = at::<W>(k);
        let f = self.line.first(b, sq);
        (self.line.masks[sq] & self.line.upto(f) & b.of(&self.codes), f)
    }
}

/// A slider's rays on words, those that write one code and land on one
/// set as one: from each square, the masks of its lines up (growing bit
/// numbers) then down in one run, so that a leaf reads all of a piece's
/// lines from one place instead of ray by ray ([`BitRay::targets`]).
#[derive(Clone)]
pub(in crate::engine) struct BitRays<W> {
    /// The code each result writes where the piece lands.
    pub write: u8,
    codes: Codes,
    ups: usize,
    lines: usize,
    /// `lines` masks per square, by bit number.
    masks: Box<[W]>,
}

impl<W> std::fmt::Debug for BitRays<W> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "BitRays({} lines writing {})", self.lines, self.write)
    }
}

impl<W: Word> BitRays<W> {
    /// `rays` (each with the code it writes), gathered by the code written
    /// and the set landed on, in the order each pair first comes.
    pub(in crate::engine) fn gather<'a>(rays: impl Iterator<Item = (u8, &'a BitRay<W>)>) -> Vec<BitRays<W>>
    where
        W: 'a,
    {
        let mut groups: Vec<(u8, &Codes, Vec<&Line<W>>)> = vec![];
        for (write, ray) in rays {
            match groups.iter_mut().find(|g| g.0 == write && *g.1 == ray.codes) {
                Some(g) => g.2.push(&ray.line),
                None => groups.push((write, &ray.codes, vec![&ray.line])),
            }
        }
        groups
            .into_iter()
            .map(|(write, codes, mut lines)| {
                lines.sort_by_key(|l| !l.up);
                let n = lines.len();
                let masks = (0..W::BITS as usize)
                    .flat_map(|sq| lines.iter().map(move |l| l.masks[sq]))
                    .collect();
                BitRays {
                    write,
                    codes: codes.clone(),
                    ups: lines.iter().filter(|l| l.up).count(),
                    lines: n,
                    masks,
                }
            })
            .collect()
    }

    /// From bit `k`: the squares the rays land on, as [`BitRay::targets`]
    /// gives them ray by ray, and their first squares not empty.
    #[inline]
    pub(in crate::engine) fn targets(&self, b: &Bits<W>, k: u32) -> (W, W) {
        let sq = at::<W>(k) * self.lines;
        let Some(row) = self.masks.get(sq..sq + self.lines) else {
            return (W::ZERO, W::ZERO);
        };
        let (ups, downs) = row.split_at(self.ups.min(row.len()));
        let occupied = !b.words[Code::EMPTY as usize];
        let (mut to, mut firsts) = (W::ZERO, W::ZERO);
        for &m in ups {
            let f = (m & occupied).lowest_bit();
            to |= m & f.through_lowest();
            firsts |= f;
        }
        for &m in downs {
            let f = (m & occupied).highest_bit();
            to |= m & f.and_above();
            firsts |= f;
        }
        (to & b.of(&self.codes), firsts)
    }
}

/// A leaper's steps on words, those that write one code and land on one
/// set as one: from each square, the squares its steps land on, so that
/// a leaf reads a king's or a knight's moves with one mask instead of
/// rule by rule ([`BitRule::bases`]).
#[derive(Clone)]
pub(in crate::engine) struct BitLeaps<W> {
    /// The code each result writes where the piece lands.
    pub write: u8,
    codes: Codes,
    flip: W,
    touched: CellSet,
    /// By bit number: the squares the steps land on, on the box.
    masks: Box<[W]>,
}

impl<W> std::fmt::Debug for BitLeaps<W> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "BitLeaps(writing {})", self.write)
    }
}

impl<W: Word> BitLeaps<W> {
    /// `rules` as leaps, when each is a step (it empties the pivot and
    /// writes one square, which it reads and nothing else), gathered by
    /// the code written and the set landed on.
    pub(in crate::engine) fn gather(rules: &[BitRule<W>]) -> Option<Vec<BitLeaps<W>>> {
        let mut out: Vec<BitLeaps<W>> = vec![];
        for r in rules {
            let ([read], Some((shift, write))) = (&r.reads[..], r.step) else {
                return None;
            };
            let codes = &read.codes;
            let g = match out
                .iter()
                .position(|g| g.write == write && g.codes == *codes && g.flip == read.flip)
            {
                Some(g) => {
                    out[g].touched = out[g].touched.union(&r.touched);
                    g
                }
                None => {
                    out.push(BitLeaps {
                        write,
                        codes: codes.clone(),
                        flip: read.flip,
                        touched: r.touched,
                        masks: vec![W::ZERO; W::BITS as usize].into(),
                    });
                    out.len() - 1
                }
            };
            let mut from = read.valid;
            while !from.is_zero() {
                let k = from.lowest();
                from = from.clear_lowest();
                out[g].masks[at::<W>(k)] |= W::bit(k.wrapping_add_signed(shift));
            }
        }
        Some(out)
    }

    /// From bit `k`: the squares the steps land on, as the rules' bases
    /// give them rule by rule.
    #[inline]
    pub(in crate::engine) fn targets(&self, b: &Bits<W>, k: u32) -> W {
        let word = b.of(&self.codes);
        self.masks[at::<W>(k)] & ((word & !self.flip) | (self.flip & !word))
    }

    /// Of the squares `to` stepped to from bit `k`, those where both
    /// writes (the pivot emptied, the piece put down) leave the kept
    /// answer of `l` standing, as [`BitRule::landing`] finds them.
    #[inline]
    pub(in crate::engine) fn landing(&self, k: u32, to: W, l: &Landing<'_, W>) -> W {
        if (l.quiet(true, Code::EMPTY) & W::bit(k)).is_zero() {
            return W::ZERO;
        }
        to & l.quiet(false, if self.write == Code::POI { l.code } else { self.write })
    }

    /// Whether a step may put or take away a code of `codes` (the
    /// binder's own code aside), as [`BitRule::touches`] says.
    pub(in crate::engine) fn touches(&self, codes: &CellSet) -> bool {
        !self.touched.intersection(codes).is_empty()
    }
}
