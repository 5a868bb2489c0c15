//! A probe's read tree as bitboard tests: every path a leap, a line to
//! its first blocker, or a line past a hurdle (a grasshopper's).

use super::{at, fresh, row, Bits, BoxShape, Codes, Reading, Row, Shared, NONE};
use crate::engine::word::Word;
use crate::geometry::Square;
use crate::semantics::{Branch, CellSet, Code};

/// Reads of one code set at fixed offsets: holds when one of them does.
#[derive(Clone, Debug)]
pub(super) struct Leaps<W> {
    pub codes: Codes,
    /// By square: the squares read from it.
    pub masks: Row<W>,
    /// By square: the squares that read it ([`BitProbe::holding`]).
    pub from: Row<W>,
}

/// A line along a step: the first square along it that is not empty,
/// within its length and on the box, reads one of its group's codes.
#[derive(Clone, Debug)]
pub(super) struct Line<W> {
    /// By square: the squares of the line from it.
    pub masks: Row<W>,
    /// Squares along the line have growing bit numbers.
    pub up: bool,
}

/// Lines that look for the same codes.
#[derive(Clone, Debug)]
pub(super) struct Lines<W> {
    pub codes: Codes,
    /// By square: the squares of all the lines from it, so that a group
    /// with no piece on its lines is passed over with one test.
    pub any: Row<W>,
    pub lines: Vec<Line<W>>,
    /// Each line the other way, as long, and all their squares by
    /// square ([`BitProbe::holding`]).
    pub back: Vec<Line<W>>,
    pub back_any: Row<W>,
}

/// A line that starts past a hurdle (a grasshopper's, seen from the
/// square it lands on): the square one step away holds one of `hurdles`,
/// and the first square past it along the line that is not empty reads
/// one of `codes`.
#[derive(Clone, Debug)]
pub(super) struct Hop<W> {
    pub codes: Codes,
    pub hurdles: CellSet,
    /// By square: the hurdle's bit number, `NONE` off the box.
    hurdle: Box<[u16]>,
    /// The line from the hurdle on, not with it.
    pub line: Line<W>,
}

/// A probe's read tree as bitboard tests, for one box.
#[derive(Clone, Debug)]
pub(in crate::engine) struct BitProbe<W> {
    pub(super) leaps: Vec<Leaps<W>>,
    pub(super) lines: Vec<Lines<W>>,
    pub(super) hops: Vec<Hop<W>>,
}

impl<W: Word> BitProbe<W> {
    /// Gives the code sets the probe reads their words ([`Slots`]), and
    /// shares its rows.
    pub(in crate::engine) fn intern(&mut self, shared: &mut Shared<W>) {
        for l in &mut self.leaps {
            shared.codes(&mut l.codes);
            shared.row(&mut l.masks);
            shared.row(&mut l.from);
        }
        for g in &mut self.lines {
            shared.codes(&mut g.codes);
            shared.row(&mut g.any);
            shared.row(&mut g.back_any);
            g.lines.iter_mut().chain(&mut g.back).for_each(|l| shared.line(l));
        }
        for h in &mut self.hops {
            shared.codes(&mut h.codes);
            shared.line(&mut h.line);
        }
    }

    /// The [`Slots`] whose words the probe reads.
    pub(super) fn slots(&self) -> u32 {
        let leaps = self.leaps.iter().map(|l| &l.codes);
        let lines = self.lines.iter().map(|g| &g.codes);
        let hops = self.hops.iter().map(|h| &h.codes);
        leaps.chain(lines).chain(hops).fold(0, |m, c| m | c.mask())
    }
}

/// The reads of every path of a tree that completes a rule.
pub(super) fn paths(bs: &[Branch], prefix: &mut Vec<(Square, CellSet)>, out: &mut Vec<Vec<(Square, CellSet)>>) {
    for b in bs {
        prefix.push((b.at, b.set));
        if b.done {
            out.push(prefix.clone());
        } else {
            paths(&b.then, prefix, out);
        }
        prefix.pop();
    }
}

/// The shape of one path: a line along `step` over empty squares to
/// `set`, `len` squares long (a single read is a line of length 1), after
/// a `hurdle` one step away when there is one.
#[derive(Clone, Copy, PartialEq, Debug)]
struct Shape {
    hurdle: Option<CellSet>,
    step: Square,
    len: u32,
    set: CellSet,
}

/// A set of pieces: no `.`, `#` or `%` in it.
fn plain(s: CellSet) -> bool {
    !s.contains_code(Code::EMPTY) && !s.contains_code(Code::OFF) && !s.contains_code(Code::POI)
}

/// The shape of a path, if it is a line or a line past a hurdle.
fn line_of(path: &[(Square, CellSet)]) -> Option<Shape> {
    let (last, set) = *path.last()?;
    let straight = |path: &[(Square, CellSet)], skip: i32| {
        let k = path.len() as i32 + skip;
        let step = Square::new(last.x / k, last.y / k);
        let exact = step.x * k == last.x && step.y * k == last.y && (step.x, step.y) != (0, 0);
        let empty = CellSet::single(crate::ir::Cell::EMPTY);
        let along = path[..path.len() - 1].iter().enumerate().all(|(i, (q, s))| {
            let j = i as i32 + 1 + skip;
            *s == empty && *q == Square::new(step.x * j, step.y * j)
        });
        (exact && along).then_some(step)
    };
    if let Some(step) = straight(path, 0) {
        return Some(Shape {
            hurdle: None,
            step,
            len: path.len() as u32,
            set,
        });
    }
    let [(at, hurdle), rest @ ..] = path else { return None };
    if rest.is_empty() || !plain(*hurdle) {
        return None;
    }
    let step = straight(rest, 1).filter(|d| d == at)?;
    Some(Shape {
        hurdle: Some(*hurdle),
        step,
        len: rest.len() as u32,
        set,
    })
}

/// The shapes, those past a hurdle in one canonical form: a read tree
/// may split one line past any of a set of hurdles to a set of pieces
/// into paths of one hurdle or one piece each, in any grouping. For each
/// step and length, each piece is paired with every hurdle some path
/// lets it jump, and pieces with the same hurdles are one line.
///
/// A hurdle a piece may be taken from (a pawn's diagonal square) needs
/// no path past it: the leap already holds. It joins every hurdle set of
/// its square, which then says the same.
fn by_hurdle(shapes: Vec<Shape>) -> Vec<Shape> {
    let (mut hops, mut out): (Vec<Shape>, Vec<Shape>) = shapes.into_iter().partition(|s| s.hurdle.is_some());
    for hop in &mut hops {
        let leapt = out
            .iter()
            .filter(|s| s.len == 1 && s.step == hop.step)
            .fold(CellSet::default(), |m, s| m.union(&s.set));
        hop.hurdle = hop.hurdle.map(|h| h.union(&leapt));
    }
    let mut keys: Vec<(Square, u32)> = hops.iter().map(|s| (s.step, s.len)).collect();
    keys.sort_unstable_by_key(|(d, l)| (d.x, d.y, *l));
    keys.dedup();
    for (step, len) in keys {
        let here: Vec<&Shape> = hops.iter().filter(|s| s.step == step && s.len == len).collect();
        let mut lines: Vec<(CellSet, CellSet)> = vec![];
        for code in 0..=u8::MAX {
            let hurdles = here
                .iter()
                .filter(|s| s.set.contains_code(code))
                .fold(CellSet::default(), |h, s| h.union(&s.hurdle.expect("a hop")));
            if hurdles == CellSet::default() {
                continue;
            }
            match lines.iter_mut().find(|(h, _)| *h == hurdles) {
                Some((_, set)) => set.insert_code(code),
                None => {
                    let mut set = CellSet::default();
                    set.insert_code(code);
                    lines.push((hurdles, set));
                }
            }
        }
        out.extend(lines.into_iter().map(|(h, set)| Shape {
            hurdle: Some(h),
            step,
            len,
            set,
        }));
    }
    out
}

/// By square: the squares of the line along `step` from it, `len` long.
pub(super) fn line_masks<W: Word>(shape: BoxShape, step: Square, len: u32) -> Row<W> {
    row(shape.squares().map(|(x, y)| {
        (1..=len as i32)
            .map_while(|j| shape.bit(x + j * step.x, y + j * step.y))
            .fold(W::ZERO, |m, b| m | W::bit(b))
    }))
}

impl<W: Word> BitProbe<W> {
    /// The probe of read tree `bs` on boxes of `shape`, when every path is
    /// a leap or a line over empty squares to a set without `.` and `#`.
    pub(in crate::engine) fn new(bs: &[Branch], shape: BoxShape) -> Option<BitProbe<W>> {
        if !shape.fits::<W>() {
            return None;
        }
        let mut all = vec![];
        paths(bs, &mut vec![], &mut all);
        let mut shapes = vec![];
        for p in &all {
            let shape = line_of(p)?;
            if !plain(shape.set) {
                return None;
            }
            shapes.push(shape);
        }
        // Lines by hurdle, step and set, with the lengths their paths reach.
        let mut lines: Vec<(Shape, Vec<u32>)> = vec![];
        for shape in by_hurdle(shapes.clone()) {
            let key = Shape { len: 0, ..shape };
            match lines.iter_mut().find(|(k, _)| *k == key) {
                Some((_, ks)) => ks.push(shape.len),
                None => lines.push((key, vec![shape.len])),
            }
        }
        // Each line with every length up to its longest, or a leap.
        let mut whole: Vec<Shape> = vec![];
        for (key, mut ks) in lines {
            ks.sort_unstable();
            ks.dedup();
            let len = *ks.last().expect("a line has a path");
            let line = len > 1 || key.hurdle.is_some();
            if line && ks.len() as u32 != len {
                // Some lengths missing: not a first blocker.
                return None;
            }
            // Lines of one step and length, to different sets (a rook's
            // and a queen's), are one line to either: the first blocker
            // is in one set or the other.
            let same = |w: &Shape| line && w.step == key.step && w.len == len && w.hurdle == key.hurdle;
            match whole.iter_mut().find(|w| same(w)) {
                Some(w) => w.set = w.set.union(&key.set),
                None => whole.push(Shape { len, ..key }),
            }
        }
        let mut out = BitProbe {
            leaps: vec![],
            lines: vec![],
            hops: vec![],
        };
        for Shape { hurdle, step, len, set } in whole {
            if let Some(hurdles) = hurdle {
                let masks = line_masks::<W>(shape, step, len + 1);
                let first = |(x, y): (i32, i32)| shape.bit(x + step.x, y + step.y);
                // The line from the hurdle: its squares but the hurdle's.
                let masks = row(shape.squares().zip(masks.iter()).map(|(q, m)| match first(q) {
                    Some(h) => *m & !W::bit(h),
                    None => W::ZERO,
                }));
                out.hops.push(Hop {
                    codes: Codes::of(set),
                    hurdles,
                    hurdle: shape.squares().map(|q| first(q).map_or(NONE, |h| h as u16)).collect(),
                    line: Line {
                        masks,
                        up: step.x + shape.width * step.y > 0,
                    },
                });
                continue;
            }
            if len == 1 {
                let mask = |x: i32, y: i32| shape.bit(x + step.x, y + step.y).map_or(W::ZERO, W::bit);
                let codes = Codes::of(set);
                match out.leaps.iter_mut().find(|l| l.codes == codes) {
                    Some(l) => {
                        for (m, (x, y)) in fresh(&mut l.masks).iter_mut().zip(shape.squares()) {
                            *m |= mask(x, y);
                        }
                    }
                    None => out.leaps.push(Leaps {
                        codes,
                        masks: row(shape.squares().map(|(x, y)| mask(x, y))),
                        from: row(std::iter::empty()),
                    }),
                }
                continue;
            }
            let delta = step.x + shape.width * step.y;
            let masks: Row<W> = line_masks(shape, step, len);
            if delta == 0 && masks.iter().any(|m| !m.is_zero()) {
                return None;
            }
            let codes = Codes::of(set);
            let group = match out.lines.iter().position(|g| g.codes == codes) {
                Some(g) => g,
                None => {
                    out.lines.push(Lines {
                        codes,
                        any: row(std::iter::empty()),
                        lines: vec![],
                        back: vec![],
                        back_any: row(std::iter::empty()),
                    });
                    out.lines.len() - 1
                }
            };
            let g = &mut out.lines[group];
            fresh(&mut g.any)
                .iter_mut()
                .zip(masks.iter())
                .for_each(|(a, m)| *a |= *m);
            g.lines.push(Line { masks, up: delta > 0 });
            let back: Row<W> = line_masks(shape, Square::new(-step.x, -step.y), len);
            fresh(&mut g.back_any)
                .iter_mut()
                .zip(back.iter())
                .for_each(|(a, m)| *a |= *m);
            g.back.push(Line {
                masks: back,
                up: delta < 0,
            });
        }
        // Each leap's squares the other way: those that read a square.
        for l in &mut out.leaps {
            let from = fresh(&mut l.from);
            for (sq, m) in l.masks.iter().enumerate() {
                let mut m = *m;
                while !m.is_zero() {
                    from[at::<W>(m.lowest())] |= W::bit(sq as u32);
                    m = m.clear_lowest();
                }
            }
        }
        Some(out)
    }

    /// Of the squares `wanted`, those from which the probe holds on the
    /// board `b` reads with the squares of `gone` emptied, all at once:
    /// each piece a leap or line looks for marks the squares that read it
    /// (a king's steps are then tested by a look-up each). `None` for a
    /// probe with hops.
    pub(in crate::engine) fn holding(&self, b: &Bits<W>, gone: W, wanted: W) -> Option<W> {
        if !self.hops.is_empty() {
            return None;
        }
        let occupied = b.occupied() & !gone;
        let mut out = W::ZERO;
        for l in &self.leaps {
            let mut pieces = b.of(&l.codes) & !gone;
            while !pieces.is_zero() {
                out |= l.from[at::<W>(pieces.lowest())];
                pieces = pieces.clear_lowest();
            }
        }
        for g in &self.lines {
            let mut pieces = b.of(&g.codes) & !gone;
            while !pieces.is_zero() {
                let sq = at::<W>(pieces.lowest());
                pieces = pieces.clear_lowest();
                if (g.back_any[sq] & wanted).is_zero() {
                    continue;
                }
                for l in &g.back {
                    let m = l.masks[sq];
                    if !(m & wanted).is_zero() {
                        out |= m & l.upto(l.nearest(m & occupied));
                    }
                }
            }
        }
        Some(out & wanted)
    }

    /// Whether the probe holds from square `sq` (its bit number) on the
    /// board `b` reads.
    #[inline]
    pub(in crate::engine) fn holds(&self, b: &impl Reading<W>, sq: u32) -> bool {
        let sq = at::<W>(sq);
        let first = |l: &Line<W>| l.nearest(l.masks[sq] & b.occupied());
        self.leaps.iter().any(|l| !(l.masks[sq] & b.of(&l.codes)).is_zero())
            || self.lines.iter().any(|g| {
                let pieces = b.of(&g.codes);
                !(g.any[sq] & pieces).is_zero() && g.lines.iter().any(|l| !(first(l) & pieces).is_zero())
            })
            || self.hops.iter().any(|h| {
                let pieces = b.of(&h.codes);
                let k = h.hurdle[sq];
                !(h.line.masks[sq] & pieces).is_zero()
                    && k != NONE
                    && h.hurdles.contains_code(b.code(u32::from(k)))
                    && !(first(&h.line) & pieces).is_zero()
            })
    }

    /// What `holds` from `sq` read here: the squares of its lines up to
    /// and with their first blocker, and its leaps' squares. The answer
    /// stands while none of the former changes and none of the latter
    /// comes to hold or stops holding a code a leap looks for. Also, for
    /// a first blocker taken away: the squares past it up to and with
    /// the next blocker (`past`), and the first blockers whose next
    /// blocker is not a piece their line looks for (`benign`) or is, or
    /// may be (`danger`: a hop's line, read past its hurdle). Returns
    /// whether the probe holds from `sq`, as `holds` does.
    pub(super) fn reads(&self, b: &Bits<W>, sq: u32, out: &mut Reads<W>) -> bool {
        let sq = at::<W>(sq);
        // A hurdle is read as a leap: any piece put there or taken away
        // may change the answer.
        let hurdles = self.hops.iter().map(|h| h.hurdle[sq]).filter(|&k| k != NONE);
        out.leaps |= self.leaps.iter().fold(W::ZERO, |m, l| m | l.masks[sq]);
        out.leaps = hurdles.fold(out.leaps, |m, k| m | W::bit(u32::from(k)));
        let mut holds = self.leaps.iter().any(|l| !(l.masks[sq] & b.of(&l.codes)).is_zero());
        for g in &self.lines {
            let pieces = b.of(&g.codes);
            for l in &g.lines {
                let f = l.first(b, sq);
                out.lines |= l.masks[sq] & l.upto(f);
                if f.is_zero() {
                    continue;
                }
                holds |= !(f & pieces).is_zero();
                let beyond = l.masks[sq] & !l.upto(f);
                let next = l.nearest(beyond & !b.words[Code::EMPTY as usize]);
                out.past |= beyond & l.upto(next);
                if (next & pieces).is_zero() {
                    out.benign |= f;
                } else {
                    out.danger |= f;
                }
            }
        }
        for h in &self.hops {
            let f = h.line.first(b, sq);
            out.lines |= h.line.masks[sq] & h.line.upto(f);
            out.danger |= f;
            let k = h.hurdle[sq];
            holds |= k != NONE && h.hurdles.contains_code(b.cells[k as usize]) && !(f & b.of(&h.codes)).is_zero();
        }
        holds
    }
}

/// What a test read on one board, gathered over its probes (see
/// [`BitProbe::reads`]).
pub(super) struct Reads<W> {
    pub lines: W,
    pub leaps: W,
    pub past: W,
    pub benign: W,
    pub danger: W,
}

impl<W: Word> Default for Reads<W> {
    fn default() -> Reads<W> {
        Reads {
            lines: W::ZERO,
            leaps: W::ZERO,
            past: W::ZERO,
            benign: W::ZERO,
            danger: W::ZERO,
        }
    }
}

impl<W: Word> Line<W> {
    /// The squares of the line up to and with `f` (a square of it, or
    /// none: the whole line).
    #[inline]
    pub(super) fn upto(&self, f: W) -> W {
        if self.up {
            f.through_lowest()
        } else {
            f.and_above()
        }
    }

    /// The square of `squares` (some of the line's) nearest its start.
    #[inline]
    fn nearest(&self, squares: W) -> W {
        if self.up {
            squares.lowest_bit()
        } else {
            squares.highest_bit()
        }
    }

    /// The first square along the line from `sq` that is not empty, as a
    /// mask (0: none).
    #[inline]
    pub(super) fn first(&self, b: &Bits<W>, sq: usize) -> W {
        // The line's squares are on the box: those not empty block it.
        self.nearest(self.masks[sq] & !b.words[Code::EMPTY as usize])
    }
}
