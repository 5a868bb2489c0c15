//! Bitboards for boxes of at most 256 squares: each code's squares as one
//! [`Word`], kept by every write, so that a test made of leaps and lines
//! (whether a king is attacked) is a few masks and a first blocker per
//! line, answered afresh on every board instead of read square by square.
//! Only probes whose every path is a leap or a line are compiled; any
//! other shape keeps its read tree, so the compiled form never differs.

use super::word::Word;
use crate::geometry::Square;
use crate::semantics::{Branch, CellSet, Code};
use std::collections::HashSet;
use std::sync::Arc;

/// Where a box's squares are: square `x + width·y` of the box is bit
/// `x + width·y` (box-relative coordinates).
#[derive(Clone, Copy, Debug)]
pub(super) struct BoxShape {
    pub width: i32,
    pub height: i32,
}

impl BoxShape {
    /// Whether the box's squares fit in a `W`.
    pub(super) fn fits<W: Word>(self) -> bool {
        self.width * self.height <= W::BITS as i32
    }

    fn bit(self, x: i32, y: i32) -> Option<u32> {
        (x >= 0 && y >= 0 && x < self.width && y < self.height).then(|| (x + self.width * y) as u32)
    }

    /// The squares whose square `d` away is on the box.
    fn stepping<W: Word>(self, d: Square) -> W {
        self.squares()
            .fold(W::ZERO, |m, (x, y)| match self.bit(x + d.x, y + d.y) {
                Some(_) => m | W::bit(self.bit(x, y).expect("a square of the box")),
                None => m,
            })
    }

    fn squares(self) -> impl Iterator<Item = (i32, i32)> {
        (0..self.height).flat_map(move |y| (0..self.width).map(move |x| (x, y)))
    }
}

/// The codes of a set, for or-ing their words, the set's own word on
/// the board when it has one (`slot`, given by [`Slots`]), and the set.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Codes(Box<[u8]>, u8, CellSet);

/// `Codes` with no word of their own.
const NO_SLOT: u8 = u8::MAX;

/// The most code sets a board keeps a word for.
const SLOTS: usize = 32;

/// The sets of several codes a plan reads, each given a word that every
/// write keeps ([`Bits::moved`]), so that reading the set is one load
/// instead of an or of its codes' words (the first [`SLOTS`] of them).
#[derive(Clone, Debug, Default)]
pub(super) struct Slots(Vec<Box<[u8]>>);

impl Slots {
    /// Gives `codes` the word of its set, a new one while there is room.
    fn intern(&mut self, codes: &mut Codes) {
        if codes.0.len() < 2 {
            return;
        }
        let slot = match self.0.iter().position(|s| *s == codes.0) {
            Some(k) => k,
            None if self.0.len() < SLOTS => {
                self.0.push(codes.0.clone());
                self.0.len() - 1
            }
            None => return,
        };
        codes.1 = slot as u8;
    }
}

/// A mask for each square of a box, by bit number: `W::BITS` of them, a
/// power of two, so that `k & (BITS - 1)` indexes it without a bounds
/// check. Equal rows are one allocation once planned ([`Shared::row`]):
/// a rook's, a queen's and the check test's line up share their masks,
/// so a leaf's reads stay in few cache lines.
type Row<W> = Arc<[W]>;

fn row<W: Word>(masks: impl Iterator<Item = W>) -> Row<W> {
    let mut out = vec![W::ZERO; W::BITS as usize];
    out.iter_mut().zip(masks).for_each(|(o, m)| *o = m);
    out.into()
}

/// A row being built: not shared yet.
fn fresh<W>(r: &mut Row<W>) -> &mut [W] {
    Arc::get_mut(r).expect("a row is shared only once planned")
}

/// What a plan's parts share once planned: the code sets given words
/// ([`Slots`]) and one copy of each row of masks.
pub(super) struct Shared<W> {
    pub slots: Slots,
    rows: HashSet<Row<W>>,
}

impl<W: Word> Shared<W> {
    pub(super) fn new() -> Shared<W> {
        Shared {
            slots: Slots::default(),
            rows: HashSet::new(),
        }
    }

    /// Gives `codes` the word of its set ([`Slots::intern`]).
    pub(super) fn codes(&mut self, codes: &mut Codes) {
        self.slots.intern(codes);
    }

    /// Makes `r` the one copy of its masks.
    fn row(&mut self, r: &mut Row<W>) {
        match self.rows.get(r) {
            Some(one) => *r = one.clone(),
            None => {
                self.rows.insert(r.clone());
            }
        }
    }

    fn line(&mut self, l: &mut Line<W>) {
        self.row(&mut l.masks);
    }
}

/// Bit number `k` as an index into a [`Row`].
#[inline(always)]
fn at<W: Word>(k: u32) -> usize {
    k as usize & (W::BITS as usize - 1)
}

impl Codes {
    pub(super) fn of(set: CellSet) -> Codes {
        Codes((0..=u8::MAX).filter(|&c| set.contains_code(c)).collect(), NO_SLOT, set)
    }

    /// The set.
    pub(super) fn set(&self) -> &CellSet {
        &self.2
    }

    /// The bit of its slot, 0 for none.
    fn mask(&self) -> u32 {
        if self.1 == NO_SLOT {
            0
        } else {
            1 << (self.1 as usize & (SLOTS - 1))
        }
    }
}

/// Reads of one code set at fixed offsets: holds when one of them does.
#[derive(Clone, Debug)]
struct Leaps<W> {
    codes: Codes,
    /// By square: the squares read from it.
    masks: Row<W>,
}

/// A line along a step: the first square along it that is not empty,
/// within its length and on the box, reads one of its group's codes.
#[derive(Clone, Debug)]
struct Line<W> {
    /// By square: the squares of the line from it.
    masks: Row<W>,
    /// Squares along the line have growing bit numbers.
    up: bool,
}

/// Lines that look for the same codes.
#[derive(Clone, Debug)]
struct Lines<W> {
    codes: Codes,
    /// By square: the squares of all the lines from it, so that a group
    /// with no piece on its lines is passed over with one test.
    any: Row<W>,
    lines: Vec<Line<W>>,
}

/// A line that starts past a hurdle (a grasshopper's, seen from the
/// square it lands on): the square one step away holds one of `hurdles`,
/// and the first square past it along the line that is not empty reads
/// one of `codes`.
#[derive(Clone, Debug)]
struct Hop<W> {
    codes: Codes,
    hurdles: CellSet,
    /// By square: the hurdle's bit number, `NONE` off the box.
    hurdle: Box<[u16]>,
    /// The line from the hurdle on, not with it.
    line: Line<W>,
}

/// A probe's read tree as bitboard tests, for one box.
#[derive(Clone, Debug)]
pub(super) struct BitProbe<W> {
    leaps: Vec<Leaps<W>>,
    lines: Vec<Lines<W>>,
    hops: Vec<Hop<W>>,
}

impl<W: Word> BitProbe<W> {
    /// Gives the code sets the probe reads their words ([`Slots`]), and
    /// shares its rows.
    pub(super) fn intern(&mut self, shared: &mut Shared<W>) {
        for l in &mut self.leaps {
            shared.codes(&mut l.codes);
            shared.row(&mut l.masks);
        }
        for g in &mut self.lines {
            shared.codes(&mut g.codes);
            shared.row(&mut g.any);
            g.lines.iter_mut().for_each(|l| shared.line(l));
        }
        for h in &mut self.hops {
            shared.codes(&mut h.codes);
            shared.line(&mut h.line);
        }
    }

    /// The [`Slots`] whose words the probe reads.
    fn slots(&self) -> u32 {
        let leaps = self.leaps.iter().map(|l| &l.codes);
        let lines = self.lines.iter().map(|g| &g.codes);
        let hops = self.hops.iter().map(|h| &h.codes);
        leaps.chain(lines).chain(hops).fold(0, |m, c| m | c.mask())
    }
}

/// The reads of every path of a tree that completes a rule.
fn paths(bs: &[Branch], prefix: &mut Vec<(Square, CellSet)>, out: &mut Vec<Vec<(Square, CellSet)>>) {
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
        let empty = CellSet::single(crate::core::Cell::EMPTY);
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
fn line_masks<W: Word>(shape: BoxShape, step: Square, len: u32) -> Row<W> {
    row(shape.squares().map(|(x, y)| {
        (1..=len as i32)
            .map_while(|j| shape.bit(x + j * step.x, y + j * step.y))
            .fold(W::ZERO, |m, b| m | W::bit(b))
    }))
}

impl<W: Word> BitProbe<W> {
    /// The probe of read tree `bs` on boxes of `shape`, when every path is
    /// a leap or a line over empty squares to a set without `.` and `#`.
    pub(super) fn new(bs: &[Branch], shape: BoxShape) -> Option<BitProbe<W>> {
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
        }
        Some(out)
    }

    /// Whether the probe holds from square `sq` (its bit number) on the
    /// board `b` reads.
    #[inline]
    pub(super) fn holds(&self, b: &impl Reading<W>, sq: u32) -> bool {
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
    fn reads(&self, b: &Bits<W>, sq: u32, out: &mut Reads<W>) -> bool {
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
                let next = l.nearest(beyond & !b.by_code[Code::EMPTY as usize]);
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
struct Reads<W> {
    lines: W,
    leaps: W,
    past: W,
    benign: W,
    danger: W,
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
    fn upto(&self, f: W) -> W {
        if f.is_zero() {
            W::ONES
        } else if self.up {
            W::below(f.lowest() + 1)
        } else {
            !W::below(f.lowest())
        }
    }

    /// The square of `squares` (some of the line's) nearest its start.
    #[inline]
    fn nearest(&self, squares: W) -> W {
        if self.up {
            squares.lowest_bit()
        } else if squares.is_zero() {
            W::ZERO
        } else {
            W::bit(squares.highest())
        }
    }

    /// The first square along the line from `sq` that is not empty, as a
    /// mask (0: none).
    #[inline]
    fn first(&self, b: &Bits<W>, sq: usize) -> W {
        // The line's squares are on the box: those not empty block it.
        self.nearest(self.masks[sq] & !b.by_code[Code::EMPTY as usize])
    }
}

/// What a test reads of a board: the squares holding a set's codes or
/// one code, those not empty, and the code on a square. The board's
/// words are read directly, or through a [`Step`].
pub(super) trait Reading<W> {
    fn of(&self, codes: &Codes) -> W;
    fn word(&self, code: u8) -> W;
    fn occupied(&self) -> W;
    fn code(&self, k: u32) -> u8;
}

impl<W: Word> Reading<W> for Bits<W> {
    #[inline]
    fn of(&self, codes: &Codes) -> W {
        Bits::of(self, codes)
    }

    #[inline]
    fn word(&self, code: u8) -> W {
        self.by_code[code as usize]
    }

    #[inline]
    fn occupied(&self) -> W {
        !self.by_code[Code::EMPTY as usize]
    }

    #[inline]
    fn code(&self, k: u32) -> u8 {
        self.cells[k as usize]
    }
}

/// A board one step on, seen through the words of the board before it:
/// a piece leaves bit `from` and `v` is put on bit `to`. A leaf tests a
/// step this way, with no write made.
pub(super) struct Step<'a, W> {
    b: &'a Bits<W>,
    from: W,
    to: W,
    v: u8,
    /// The squares not empty after the step.
    occupied: W,
}

impl<'a, W: Word> Step<'a, W> {
    pub(super) fn new(b: &'a Bits<W>, from: u32, to: u32, v: u8) -> Step<'a, W> {
        let (from, to) = (W::bit(from), W::bit(to));
        let empty = (b.by_code[Code::EMPTY as usize] & !to) | from;
        let empty = if v == Code::EMPTY { empty | to } else { empty };
        Step {
            b,
            from,
            to,
            v,
            occupied: !empty,
        }
    }
}

impl<W: Word> Reading<W> for Step<'_, W> {
    /// The squares holding one of `codes` (pieces, as a probe's sets are:
    /// [`plain`]) after the step.
    #[inline]
    fn of(&self, codes: &Codes) -> W {
        debug_assert!(!codes.2.contains_code(Code::EMPTY));
        let w = self.b.of(codes) & !(self.from | self.to);
        if codes.2.contains_code(self.v) {
            w | self.to
        } else {
            w
        }
    }

    #[inline]
    fn word(&self, code: u8) -> W {
        let mut w = self.b.by_code[code as usize] & !(self.from | self.to);
        if code == self.v {
            w |= self.to;
        }
        if code == Code::EMPTY {
            w |= self.from;
        }
        w
    }

    #[inline]
    fn occupied(&self) -> W {
        self.occupied
    }

    #[inline]
    fn code(&self, k: u32) -> u8 {
        let m = W::bit(k);
        if m == self.to {
            self.v
        } else if m == self.from {
            Code::EMPTY
        } else {
            self.b.cells[k as usize]
        }
    }
}

/// One way a [`BitTest`] holds.
#[derive(Clone, Debug)]
pub(super) enum Part<W> {
    /// Always (`nil`).
    Yes,
    /// The probe holds from the POI (`None`: a probe that always holds).
    AtPoi(Option<BitProbe<W>>),
    /// The probe holds from a square holding the code, the POI's excepted
    /// (`%p: ...`).
    Bound(u8, Option<BitProbe<W>>),
}

/// A test made of probes on bitboards, pieces found by their words: what
/// `not` tests when its move is probes, binders and unions only.
#[derive(Clone, Debug)]
pub(super) struct BitTest<W> {
    parts: Vec<Part<W>>,
    /// By code: whether binders look for it (`BOUND`), leaps (`LEAPT`)
    /// or lines (`LINED`), one load where a move's every change asks.
    kinds: Box<[u8; 256]>,
    /// The codes binders look for.
    pub bound: CellSet,
    /// The codes leaps (and hops' hurdles) look for.
    leapt: Codes,
    /// No probe is read from the POI, which a move may carry along.
    fixed: bool,
    /// The [`Slots`] whose words `holds` reads: the only ones a move
    /// made for the test alone must keep ([`Bits::moved_in`]).
    slots: u32,
}

impl<W: Word> BitTest<W> {
    /// Gives the code sets the test reads their words ([`Slots`]), and
    /// shares its rows.
    pub(super) fn intern(&mut self, shared: &mut Shared<W>) {
        let mut read = 0;
        for part in &mut self.parts {
            if let Part::AtPoi(Some(p)) | Part::Bound(_, Some(p)) = part {
                p.intern(shared);
                read |= p.slots();
            }
        }
        shared.codes(&mut self.leapt);
        self.slots = read | self.leapt.mask();
    }

    /// The [`Slots`] whose words `holds` reads.
    #[inline]
    pub(super) fn slots(&self) -> u32 {
        self.slots
    }
}

/// The kinds of a code in a [`BitTest`].
const BOUND: u8 = 1;
const LEAPT: u8 = 2;
const LINED: u8 = 4;

/// A test's answer on one board and what it read there (see
/// [`BitProbe::reads`]), for the boards a move makes from it: a move far
/// from the king leaves it as safe as it was, and is not tested again.
pub(super) struct Still<W> {
    pub answer: bool,
    pub poi: Option<usize>,
    lines: W,
    leaps: W,
    /// First blockers that may be taken away, and the squares past the
    /// first blockers up to the next (see [`BitProbe::reads`]).
    vacant: W,
    past: W,
}

impl<W: Word> Still<W> {
    /// The squares where a change leaves the answer standing, unless it
    /// puts or takes away a code a binder looks for ([`BitTest::change`]).
    #[inline]
    pub(super) fn quiet(&self) -> W {
        !(self.lines | self.leaps | self.past)
    }
}

/// Where a binder's rule may write and leave a kept answer standing
/// ([`BitTest::landing`]), by the kind of write: each such write bears on
/// the answer as [`BitTest::change`] says, at most a first blocker taken
/// away (the pivot's) or a square past one changed, never both.
pub(super) struct Landing<'a, W> {
    test: &'a BitTest<W>,
    /// The binder's code, on the pivot.
    code: u8,
    /// The pivot emptied.
    vacate: W,
    /// Any other write (a square emptied, a piece a line looks for put;
    /// none where a piece a binder looks for is put).
    calm: W,
    /// A piece no line, leap or binder looks for put (over what the
    /// square holds now), or one a leap looks for (`placed_leapt`).
    placed: W,
    placed_leapt: W,
}

impl<W: Word> Landing<'_, W> {
    /// The squares where a write of `v` (on the pivot: `pivot`) leaves
    /// the answer standing.
    #[inline]
    fn quiet(&self, pivot: bool, v: u8) -> W {
        let kind = self.test.kinds[v as usize];
        if v == Code::EMPTY {
            if pivot {
                self.vacate
            } else {
                self.calm
            }
        } else if kind & BOUND != 0 {
            // Putting or taking a code a binder looks for always may.
            W::ZERO
        } else if kind & LINED != 0 {
            self.calm
        } else if kind & LEAPT != 0 {
            self.placed_leapt
        } else {
            self.placed
        }
    }
}

/// How the changes of a move bear on a kept answer ([`BitTest::change`]),
/// or-ed together: the answer stands when [`Stand::holds`].
#[derive(Clone, Copy, Default, PartialEq, Eq, Debug)]
pub(super) struct Stand(u8);

impl Stand {
    const FAILS: u8 = 1;
    /// A first blocker taken away, its next blocker a harmless one.
    const VACATES: u8 = 2;
    /// A square past a first blocker emptied or given a piece a line
    /// looks for: harmless unless a first blocker goes too.
    const PAST: u8 = 4;

    #[inline(always)]
    pub(super) fn with(self, o: Stand) -> Stand {
        Stand(self.0 | o.0)
    }

    /// Whether the answer stands after every change or-ed in.
    #[inline(always)]
    pub(super) fn holds(self) -> bool {
        self.0 & Stand::FAILS == 0 && self.0 & (Stand::VACATES | Stand::PAST) != Stand::VACATES | Stand::PAST
    }
}

/// The squares of `w` but bit `k`'s (all of them for `None`).
#[inline(always)]
fn except<W: Word>(k: Option<u32>) -> W {
    k.map_or(W::ONES, |k| !W::bit(k))
}

impl<W: Word> BitTest<W> {
    pub(super) fn new(parts: Vec<Part<W>>) -> BitTest<W> {
        let (mut bound, mut leapt, mut lined) = (CellSet::default(), CellSet::default(), CellSet::default());
        let mut fixed = true;
        for part in &parts {
            let p = match part {
                Part::Yes => None,
                Part::AtPoi(p) => {
                    fixed = false;
                    p.as_ref()
                }
                Part::Bound(c, p) => {
                    bound.insert_code(*c);
                    p.as_ref()
                }
            };
            for l in p.iter().flat_map(|p| &p.leaps) {
                l.codes.0.iter().for_each(|&c| leapt.insert_code(c));
            }
            for g in p.iter().flat_map(|p| &p.lines) {
                g.codes.0.iter().for_each(|&c| lined.insert_code(c));
            }
            for h in p.iter().flat_map(|p| &p.hops) {
                h.codes.0.iter().for_each(|&c| lined.insert_code(c));
                leapt = leapt.union(&h.hurdles);
            }
        }
        let kinds = Box::new(std::array::from_fn(|c| {
            let c = c as u8;
            [(bound, BOUND), (leapt, LEAPT), (lined, LINED)]
                .iter()
                .filter(|(set, _)| set.contains_code(c))
                .fold(0, |k, (_, kind)| k | kind)
        }));
        BitTest {
            parts,
            kinds,
            bound,
            leapt: Codes::of(leapt),
            fixed,
            slots: 0,
        }
    }

    /// Whether the test's answer is kept between the moves of a board
    /// (`still`): when no probe is read from the POI, which a move may
    /// carry along. However little it reads (one attacker's lines, a
    /// knight's leaps), keeping it costs less than testing each move
    /// again, and a leaf then counts moves without making them.
    pub(super) fn keeps(&self) -> bool {
        self.fixed
    }

    /// The answer here with what it read, when no probe is read from the
    /// POI; `poi` is the POI's mailbox index and `k` its bit.
    pub(super) fn still(&self, b: &Bits<W>, poi: Option<usize>, k: Option<u32>) -> Option<Still<W>> {
        if !self.fixed {
            return None;
        }
        let mut r = Reads::default();
        // The answer as `holds` gives it, from the reads of bound parts.
        let mut answer = false;
        for part in &self.parts {
            match part {
                Part::Bound(c, p) => {
                    let mut w = b.by_code[*c as usize] & except(k);
                    while !w.is_zero() {
                        answer |= p.as_ref().is_none_or(|p| p.reads(b, w.lowest(), &mut r));
                        w = w.clear_lowest();
                    }
                }
                part => answer = answer || self.part_holds(part, b, k),
            }
        }
        Some(Still {
            answer,
            poi,
            lines: r.lines,
            leaps: r.leaps,
            vacant: r.benign & !r.danger,
            past: r.past,
        })
    }

    /// How square `i` (a mailbox index) going from `old` to `new` bears
    /// on `s`. Where no line reached a piece it looks for, a piece no
    /// line looks for, put on a line up to its first blocker, is only a
    /// nearer blocker; and a first blocker taken away leaves the next
    /// one first, which is harmless when it is not a piece the line looks
    /// for and no square up to it changes too.
    #[inline]
    pub(super) fn change(&self, s: &Still<W>, b: &Bits<W>, i: usize, old: u8, new: u8) -> Stand {
        let Some(k) = b.bit_of(i) else { return Stand(0) };
        if old == new {
            return Stand(0);
        }
        let m = W::bit(k);
        let (was, now) = (self.kinds[old as usize], self.kinds[new as usize]);
        if (was | now) & BOUND != 0 || (!(s.leaps & m).is_zero() && (was | now) & LEAPT != 0) {
            return Stand(Stand::FAILS);
        }
        let lined = now & LINED != 0;
        let mut out = 0;
        if !(s.lines & m).is_zero() {
            if s.answer || lined {
                return Stand(Stand::FAILS);
            }
            if new == Code::EMPTY {
                if (s.vacant & m).is_zero() {
                    return Stand(Stand::FAILS);
                }
                out |= Stand::VACATES;
            }
        }
        if !(s.past & m).is_zero() && (lined || new == Code::EMPTY) {
            out |= Stand::PAST;
        }
        Stand(out)
    }

    /// The squares where putting `v` on an empty square leaves `s`
    /// standing (as [`BitTest::change`] says of each): a slider landing
    /// away from the lines and leaps the test read.
    #[inline]
    pub(super) fn lands_quietly(&self, s: &Still<W>, v: u8) -> W {
        let (was, now) = (self.kinds[Code::EMPTY as usize], self.kinds[v as usize]);
        if v == Code::EMPTY || (was | now) & BOUND != 0 {
            return W::ZERO;
        }
        let mut out = W::ONES;
        if (was | now) & LEAPT != 0 {
            out &= !s.leaps;
        }
        if s.answer || now & LINED != 0 {
            out &= !s.lines;
        }
        if now & LINED != 0 {
            out &= !s.past;
        }
        out
    }

    /// Where the writes of a binder's rules leave `s` standing, for
    /// pieces of `code` (a code no binder of the test looks for).
    pub(super) fn landing(&self, s: &Still<W>, b: &Bits<W>, code: u8) -> Landing<'_, W> {
        let calm = s.quiet();
        if s.answer {
            // Every write to a square read changes the answer or may.
            return Landing {
                test: self,
                code,
                vacate: calm,
                calm,
                placed: calm,
                placed_leapt: calm,
            };
        }
        let leapt = (self.kinds[code as usize] | self.kinds[Code::EMPTY as usize]) & LEAPT != 0;
        Landing {
            test: self,
            code,
            // A first blocker taken away whose next blocker is harmless
            // (and no square past it read): the other writes then must
            // not touch a square past a first blocker, which they do not
            // (they put a piece no line looks for, or land on `calm`).
            vacate: !(s.lines & (!s.vacant | s.past)) & if leapt { !s.leaps } else { W::ONES },
            calm,
            // Over a code a leap looks for, on a square a leap read.
            placed: !(s.leaps & b.of(&self.leapt)),
            placed_leapt: !s.leaps,
        }
    }

    /// Whether the test holds with the POI on bit `poi`, on the board `b`
    /// reads (the board's words, or a [`Step`] on from them).
    #[inline]
    pub(super) fn holds(&self, b: &impl Reading<W>, poi: Option<u32>) -> bool {
        self.parts.iter().any(|part| self.part_holds(part, b, poi))
    }

    /// Whether `part` holds with the POI on bit `poi`.
    #[inline]
    fn part_holds(&self, part: &Part<W>, b: &impl Reading<W>, poi: Option<u32>) -> bool {
        match part {
            Part::Yes => true,
            Part::AtPoi(p) => poi.is_some_and(|k| p.as_ref().is_none_or(|p| p.holds(b, k))),
            Part::Bound(c, p) => {
                let mut w = b.word(*c) & except(poi);
                while !w.is_zero() {
                    if p.as_ref().is_none_or(|p| p.holds(b, w.lowest())) {
                        return true;
                    }
                    w = w.clear_lowest();
                }
                false
            }
        }
    }
}

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
    pub(super) fn intern(&mut self, shared: &mut Shared<W>) {
        self.reads.iter_mut().for_each(|r| shared.codes(&mut r.codes));
    }
}

/// An anchored rule's reads as words: the squares where it fits, for a
/// whole set of pieces at once (all the pawns' pushes in a few shifts).
#[derive(Clone, Debug)]
pub(super) struct BitRule<W> {
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
    pub(super) fn new(reads: &[(Square, CellSet)], writes: &[(Square, u8)], shape: BoxShape) -> Option<BitRule<W>> {
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
    pub(super) fn landing(&self, bases: W, l: &Landing<'_, W>) -> W {
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
    pub(super) fn step(&self) -> Option<(i32, u8)> {
        self.step
    }

    /// Whether a write of the rule may put or take away a code of `codes`
    /// (the binder's own code aside).
    pub(super) fn touches(&self, codes: &CellSet) -> bool {
        !self.touched.intersection(codes).is_empty()
    }

    /// The squares of `pieces` where the rule fits.
    #[inline]
    pub(super) fn bases(&self, b: &Bits<W>, pieces: W) -> W {
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
pub(super) struct BitWalk<W> {
    /// The step in bit numbers.
    shift: i32,
    /// The squares whose square a step on is on the box.
    valid: W,
}

impl<W: Word> BitWalk<W> {
    /// Walks along `d` on boxes of `shape`.
    pub(super) fn new(d: Square, shape: BoxShape) -> Option<BitWalk<W>> {
        (shape.fits::<W>() && (d.x, d.y) != (0, 0)).then(|| BitWalk {
            shift: d.x + shape.width * d.y,
            valid: shape.stepping::<W>(d),
        })
    }

    /// The squares `pieces` walk to, themselves included.
    #[inline]
    pub(super) fn ends(&self, b: &Bits<W>, pieces: W) -> W {
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
/// it at once instead of square by square.
#[derive(Clone)]
pub(super) struct BitRay<W>(Line<W>);

impl<W> std::fmt::Debug for BitRay<W> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The masks are a row per square: too long to be of use.
        f.write_str("BitRay")
    }
}

impl<W: Word> BitRay<W> {
    /// Shares its row ([`Shared::row`]).
    pub(super) fn intern(&mut self, shared: &mut Shared<W>) {
        shared.line(&mut self.0);
    }

    /// The line along `d`, at most `max` squares long, on boxes of `shape`.
    pub(super) fn new(d: Square, max: u32, shape: BoxShape) -> Option<BitRay<W>> {
        let delta = d.x + shape.width * d.y;
        if !shape.fits::<W>() || delta == 0 {
            return None;
        }
        let len = max.min(shape.width.max(shape.height) as u32);
        Some(BitRay(Line {
            masks: line_masks(shape, d, len),
            up: delta > 0,
        }))
    }

    /// From bit `k`: the squares a slide along the line reaches (over
    /// empty squares, up to and with the first that is not empty), and
    /// that first square (0: none).
    #[inline]
    pub(super) fn reach(&self, b: &Bits<W>, k: u32) -> (W, W) {
        let sq = at::<W>(k);
        let f = self.0.first(b, sq);
        (self.0.masks[sq] & self.0.upto(f), f)
    }
}

/// A board's squares by code, as words over the box.
#[derive(Clone)]
pub(super) struct Bits<W> {
    by_code: Box<[W; 256]>,
    /// The squares of each set of [`Slots`], and by code the sets it is in.
    sets: Box<[W; SLOTS]>,
    member: Box<[u32; 256]>,
    /// By mailbox index: the square's bit number, `NONE` off the box.
    bit: Vec<u16>,
    /// By mailbox index: the first bit number at or after it (`W::BITS`
    /// past the box).
    from: Vec<u16>,
    /// By bit number: the mailbox index, and the code there (for a
    /// hurdle, which may be any of many codes).
    index: Vec<u32>,
    cells: Vec<u8>,
}

const NONE: u16 = u16::MAX;

impl<W: Word> Bits<W> {
    /// The words of `cells`, a mailbox whose box square `(x, y)` is at
    /// `index(x, y)`; the box must fit in a `W`.
    pub(super) fn new(cells: &[u8], shape: BoxShape, slots: &Slots, index: impl Fn(i32, i32) -> usize) -> Bits<W> {
        debug_assert!(shape.fits::<W>());
        let mut member = Box::new([0; 256]);
        for (k, set) in slots.0.iter().enumerate() {
            set.iter().for_each(|&c| member[c as usize] |= 1 << k);
        }
        let mut b = Bits {
            by_code: Box::new([W::ZERO; 256]),
            sets: Box::new([W::ZERO; SLOTS]),
            member,
            bit: vec![NONE; cells.len()],
            from: vec![W::BITS as u16; cells.len() + 1],
            index: vec![],
            cells: vec![Code::EMPTY; (shape.width * shape.height) as usize],
        };
        for (k, (x, y)) in shape.squares().enumerate() {
            let i = index(x, y);
            b.bit[i] = k as u16;
            b.index.push(i as u32);
            b.put(k as u32, cells[i]);
        }
        // Mailbox indices grow with bit numbers (both go row by row).
        let mut next = W::BITS as u16;
        for i in (0..cells.len()).rev() {
            if b.bit[i] != NONE {
                next = b.bit[i];
            }
            b.from[i] = next;
        }
        b
    }

    #[inline]
    fn put(&mut self, k: u32, c: u8) {
        self.by_code[c as usize] |= W::bit(k);
        self.cells[k as usize] = c;
        self.each_set(self.member[c as usize], |w| *w |= W::bit(k));
    }

    /// Calls `f` on the word of each set in `slots`.
    #[inline(always)]
    fn each_set(&mut self, mut slots: u32, mut f: impl FnMut(&mut W)) {
        while slots != 0 {
            f(&mut self.sets[slots.trailing_zeros() as usize & (SLOTS - 1)]);
            slots &= slots - 1;
        }
    }

    /// Mailbox square `i` held `old` and now holds `new`.
    #[inline]
    pub(super) fn moved(&mut self, i: usize, old: u8, new: u8) {
        self.moved_in(i, old, new, u32::MAX);
    }

    /// As `moved`, keeping only the set words of `slots` (the others
    /// are left stale: for a move made for one test and taken back).
    #[inline]
    pub(super) fn moved_in(&mut self, i: usize, old: u8, new: u8, slots: u32) {
        if let Some(k) = self.bit_of(i) {
            let bit = W::bit(k);
            self.by_code[old as usize] &= !bit;
            self.by_code[new as usize] |= bit;
            self.cells[k as usize] = new;
            let (was, is) = (self.member[old as usize] & slots, self.member[new as usize] & slots);
            self.each_set(was & !is, |w| *w &= !bit);
            self.each_set(is & !was, |w| *w |= bit);
        }
    }

    /// The squares holding `code`.
    #[inline]
    pub(super) fn word(&self, code: u8) -> W {
        self.by_code[code as usize]
    }

    /// The squares holding `code` but square `poi`: the pieces a binder
    /// with the POI there runs for.
    #[inline]
    pub(super) fn pieces(&self, code: u8, poi: Option<usize>) -> W {
        self.word(code) & poi.and_then(|p| self.bit_of(p)).map_or(W::ONES, |k| !W::bit(k))
    }

    /// The code on bit `k`.
    #[inline]
    pub(super) fn code(&self, k: u32) -> u8 {
        self.cells[k as usize]
    }

    /// The mailbox index of bit `k`.
    #[inline]
    pub(super) fn index_of(&self, k: u32) -> usize {
        self.index[k as usize] as usize
    }

    /// The bit number of mailbox square `i`, if on the box.
    #[inline]
    pub(super) fn bit_of(&self, i: usize) -> Option<u32> {
        Some(self.bit[i]).filter(|&k| k != NONE).map(u32::from)
    }

    /// The first mailbox index from `from` on whose square holds `code`,
    /// but `except`.
    #[inline]
    pub(super) fn next(&self, code: u8, from: usize, except: Option<usize>) -> Option<usize> {
        let k = u32::from(*self.from.get(from)?);
        if k >= W::BITS {
            return None;
        }
        let mut word = self.by_code[code as usize] & !W::below(k);
        while !word.is_zero() {
            let i = self.index[word.lowest() as usize] as usize;
            if Some(i) != except {
                return Some(i);
            }
            word = word.clear_lowest();
        }
        None
    }

    /// How many squares hold a code of `codes`, but square `except`.
    #[inline]
    pub(super) fn count_of(&self, codes: &Codes, except: Option<usize>) -> u32 {
        let w = self.of(codes) & except.and_then(|p| self.bit_of(p)).map_or(W::ONES, |k| !W::bit(k));
        w.count()
    }

    #[inline]
    fn of(&self, codes: &Codes) -> W {
        if codes.1 != NO_SLOT {
            return self.sets[codes.1 as usize & (SLOTS - 1)];
        }
        codes.0.iter().fold(W::ZERO, |m, &c| m | self.by_code[c as usize])
    }
}

#[cfg(test)]
mod tests {
    use super::super::word::Wide;
    use super::*;

    const ROOK: u8 = 1;
    const KNIGHT: u8 = 2;
    const PAWN: u8 = 3;

    fn set(codes: &[u8]) -> CellSet {
        let mut s = CellSet::default();
        codes.iter().for_each(|&c| s.insert_code(c));
        s
    }

    fn read(x: i32, y: i32, codes: &[u8], then: Vec<Branch>) -> Branch {
        Branch {
            at: Square::new(x, y),
            set: set(codes),
            done: then.is_empty(),
            then,
        }
    }

    /// A line of `len` steps along `(dx, dy)` to one of `codes`, as the
    /// probe builder shares its prefixes: the piece, or an empty square
    /// and the rest of the line.
    fn line(dx: i32, dy: i32, len: i32, codes: &[u8]) -> Vec<Branch> {
        (1..=len).rev().fold(vec![], |rest, j| {
            let mut here = vec![read(j * dx, j * dy, codes, vec![])];
            if !rest.is_empty() {
                here.push(read(j * dx, j * dy, &[Code::EMPTY], rest));
            }
            here
        })
    }

    /// The tree moved by `(dx, dy)`.
    fn shifted(bs: Vec<Branch>, dx: i32, dy: i32) -> Vec<Branch> {
        bs.into_iter()
            .map(|b| Branch {
                at: Square::new(b.at.x + dx, b.at.y + dy),
                then: shifted(b.then, dx, dy),
                ..b
            })
            .collect()
    }

    /// A grasshopper's line seen from where it lands: a hurdle of
    /// `hurdles` one step along `(dx, dy)`, then a line past it.
    fn hop(dx: i32, dy: i32, len: i32, hurdles: &[u8], codes: &[u8]) -> Branch {
        read(dx, dy, hurdles, shifted(line(dx, dy, len, codes), dx, dy))
    }

    /// What the tree answers, path by path, on a board of `w` columns
    /// (squares off the board read `#`).
    fn by_paths(bs: &[Branch], cells: &[u8], w: i32, (x, y): (i32, i32)) -> bool {
        let mut all = vec![];
        paths(bs, &mut vec![], &mut all);
        let h = cells.len() as i32 / w;
        let at = |q: Square| {
            let (a, b) = (x + q.x, y + q.y);
            if a < 0 || b < 0 || a >= w || b >= h {
                Code::OFF
            } else {
                cells[(a + w * b) as usize]
            }
        };
        all.iter().any(|p| p.iter().all(|(q, s)| s.contains_code(at(*q))))
    }

    /// A box of at most 16×16 from `w` and `h` that fits in a `W`, its
    /// squares from `seed`: one of `codes`, or empty as often as three
    /// of them together.
    fn random_box<W: Word>(seed: &[u8], w: u8, h: u8, codes: &[u8]) -> (BoxShape, Vec<u8>) {
        let mut shape = BoxShape {
            width: i32::from(w % 16) + 1,
            height: i32::from(h % 16) + 1,
        };
        while !shape.fits::<W>() {
            shape.height -= 1;
        }
        let n = (shape.width * shape.height) as usize;
        let cells = (0..n)
            .map(|i| {
                let k = usize::from(seed.get(i).copied().unwrap_or(0)) % (codes.len() + 3);
                codes.get(k).copied().unwrap_or(Code::EMPTY)
            })
            .collect();
        (shape, cells)
    }

    fn tree() -> Vec<Branch> {
        let mut t = line(0, 1, 7, &[ROOK]);
        // A queen's line beside the rook's, and a shorter one.
        t.extend(line(0, 1, 7, &[KNIGHT]));
        t.extend(line(-1, -1, 4, &[PAWN]));
        t.extend(line(-1, -1, 7, &[ROOK]));
        t.extend(line(1, 2, 3, &[ROOK]));
        for (dx, dy) in [(1, 2), (-2, 1), (2, -1)] {
            t.push(read(dx, dy, &[KNIGHT], vec![]));
        }
        t.push(read(1, 1, &[PAWN], vec![]));
        // Hops, split as a probe's tree splits them: by hurdle, by piece,
        // and without the hurdle a leap already takes from (a pawn's).
        t.push(hop(1, 0, 7, &[ROOK, KNIGHT], &[9]));
        t.push(hop(0, -1, 5, &[ROOK], &[9]));
        t.push(hop(0, -1, 5, &[KNIGHT], &[9, PAWN]));
        t.push(read(1, -1, &[PAWN], vec![]));
        t.push(hop(1, -1, 1, &[ROOK, KNIGHT], &[9]));
        t.push(read(1, -1, &[ROOK, KNIGHT, PAWN], shifted(line(1, -1, 3, &[9]), 1, -1)));
        t
    }

    /// On random boards of several boxes, the bitboard answer is the
    /// answer of the tree's paths from every square.
    #[test]
    fn bitboards_answer_as_the_reads_do() {
        fn prop<W: Word>(seed: Vec<u8>, w: u8, h: u8) -> bool {
            let (shape, cells) = random_box::<W>(&seed, w, h, &[ROOK, KNIGHT, PAWN, Code::OFF, 9]);
            let t = tree();
            let probe = BitProbe::<W>::new(&t, shape).expect("leaps and lines");
            let bits = Bits::new(&cells, shape, &Slots::default(), |x, y| (x + shape.width * y) as usize);
            shape.squares().all(|(x, y)| {
                probe.holds(&bits, (x + shape.width * y) as u32) == by_paths(&t, &cells, shape.width, (x, y))
            })
        }
        for p in [prop::<u64>, prop::<u128>, prop::<Wide>] {
            quickcheck::QuickCheck::new()
                .tests(300)
                .quickcheck(p as fn(Vec<u8>, u8, u8) -> bool);
        }
    }

    /// A test asked of a step (a piece leaves a square, a code is put on
    /// another) answers as it does on the board with the step made: on
    /// random boxes, with kings bound on two codes, a probe from the POI
    /// (leaps, lines and hops) and random steps, captures and steps onto
    /// a king or a hurdle among them.
    #[test]
    fn a_step_is_tested_as_if_made() {
        const KING: u8 = 4;
        fn prop<W: Word>(seed: Vec<u8>, w: u8, h: u8, steps: Vec<(u8, u8, u8, u8)>) -> bool {
            let codes = [ROOK, KNIGHT, PAWN, KING, 9, Code::EMPTY];
            let (shape, cells) = random_box::<W>(&seed, w, h, &codes[..5]);
            let mut t = tree();
            t.push(read(-1, 2, &[KING], vec![]));
            let probe = BitProbe::<W>::new(&t, shape).expect("leaps, lines and hops");
            let test = BitTest::new(vec![
                Part::Bound(KING, Some(probe.clone())),
                Part::Bound(9, Some(probe.clone())),
                Part::AtPoi(Some(probe.clone())),
            ]);
            // A binder of empty squares: the square left is one of them.
            let empty = BitTest::new(vec![Part::Bound(Code::EMPTY, Some(probe))]);
            let n = (shape.width * shape.height) as usize;
            let index = |x, y| (x + shape.width * y) as usize;
            let bits = Bits::new(&cells, shape, &Slots::default(), index);
            steps.iter().all(|&(from, to, v, poi)| {
                let (from, to) = (usize::from(from) % n, usize::from(to) % n);
                if from == to {
                    return true;
                }
                let v = codes[usize::from(v) % codes.len()];
                let poi = (poi % 2 == 0).then_some((usize::from(poi) % n) as u32);
                let mut made = cells.clone();
                made[from] = Code::EMPTY;
                made[to] = v;
                let made = Bits::new(&made, shape, &Slots::default(), index);
                let step = Step::new(&bits, from as u32, to as u32, v);
                test.holds(&step, poi) == test.holds(&made, poi) && empty.holds(&step, poi) == empty.holds(&made, poi)
            })
        }
        for p in [prop::<u64>, prop::<u128>, prop::<Wide>] {
            quickcheck::QuickCheck::new()
                .tests(300)
                .quickcheck(p as fn(Vec<u8>, u8, u8, Vec<(u8, u8, u8, u8)>) -> bool);
        }
    }

    /// A test's answer stands on a board changed only where it read
    /// nothing that matters, or where a safe king's line only gained a
    /// blocker: whenever `stands` says so, testing afresh gives the same
    /// answer. Random boards, a king bound, random writes. (Fails if a
    /// blocker may be an attacker, or the king was not safe.)
    #[test]
    fn answers_stand_where_nothing_read_changed() {
        const KING: u8 = 4;
        let shape = BoxShape { width: 8, height: 8 };
        let probe = BitProbe::<u64>::new(&tree(), shape).expect("leaps and lines");
        let test = BitTest::new(vec![Part::Bound(KING, Some(probe.clone()))]);
        // However little a bound test reads (one attacker's line), its
        // answer is kept; a test read from the POI, which a move may
        // carry along, is not.
        let rook = BitProbe::<u64>::new(&line(0, 1, 7, &[ROOK]), shape).expect("a line");
        assert!(BitTest::new(vec![Part::Bound(KING, Some(rook.clone()))]).keeps());
        assert!(!BitTest::new(vec![Part::AtPoi(Some(rook))]).keeps());
        let two = vec![Part::Bound(KING, Some(probe.clone())), Part::Bound(9, Some(probe))];
        assert!(BitTest::new(two).keeps());
        let codes = [ROOK, KNIGHT, PAWN, KING, 9, Code::EMPTY, Code::EMPTY, Code::EMPTY];
        let mut rng = 0x2545_f491_4f6c_dd1du64;
        let mut next = |n: u64| {
            rng = rng.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            ((rng >> 33) % n) as usize
        };
        let (mut kept, mut retested) = (0, 0);
        for _ in 0..5000 {
            // Sparse boards with one king, mostly safe, changed near it.
            let mut cells: Vec<u8> = (0..64)
                .map(|_| if next(6) == 0 { codes[next(5)] } else { Code::EMPTY })
                .collect();
            let king = next(64);
            cells[king] = KING;
            let mut bits = Bits::new(&cells, shape, &Slots::default(), |x, y| (x + 8 * y) as usize);
            let still = test.still(&bits, None, None).expect("no probe from the POI");
            assert_eq!(still.answer, test.holds(&bits, None));
            let mut stand = Stand::default();
            for _ in 0..1 + next(2) {
                let near = |d: usize| ((king as i64 + d as i64 - 18).rem_euclid(64)) as usize;
                let i = if next(2) == 0 { near(next(37)) } else { next(64) };
                let new = codes[next(8)];
                let old = std::mem::replace(&mut cells[i], new);
                bits.moved(i, old, new);
                stand = stand.with(test.change(&still, &bits, i, old, new));
            }
            if stand.holds() {
                kept += 1;
                assert_eq!(test.holds(&bits, None), still.answer, "{cells:?}");
            } else {
                retested += 1;
            }
        }
        assert!(kept > 300 && retested > 300, "{kept} kept, {retested} retested");
    }

    /// A rule's bases as words are the squares where each of its reads
    /// fits, read square by square (squares off the box read `#`), on
    /// random boxes with holes and random reads near the pivot, its sets
    /// read from their codes' words or from words of their own, after
    /// random writes.
    #[test]
    fn rules_fit_on_words_where_they_fit_on_squares() {
        fn prop<W: Word>(seed: Vec<u8>, picks: Vec<(i8, i8, u8)>, w: u8, h: u8) -> bool {
            let (shape, cells) = random_box::<W>(&seed, w, h, &[ROOK, KNIGHT, Code::OFF]);
            let sets = [
                set(&[Code::EMPTY]),
                set(&[Code::OFF]),
                set(&[Code::OFF]).complement(),
                set(&[ROOK, Code::EMPTY]),
                set(&[KNIGHT]),
                set(&[ROOK, KNIGHT, Code::OFF]),
            ];
            let reads: Vec<(Square, CellSet)> = picks
                .iter()
                .take(3)
                .map(|&(x, y, k)| {
                    (
                        Square::new(i32::from(x % 3), i32::from(y % 3)),
                        sets[k as usize % sets.len()],
                    )
                })
                .filter(|(d, _)| (d.x, d.y) != (0, 0))
                .collect();
            let mut rule = BitRule::<W>::new(&reads, &[], shape).expect("no read of the pivot");
            // Half the time the sets are read from words of their own,
            // kept by the writes below.
            let mut shared = Shared::new();
            if seed.len().is_multiple_of(2) {
                rule.intern(&mut shared);
            }
            let mut cells = cells;
            let mut bits = Bits::new(&cells, shape, &shared.slots, |x, y| (x + shape.width * y) as usize);
            for &(x, y, k) in picks.iter().skip(3) {
                let i = (x as u8 as usize + 7 * y as u8 as usize) % cells.len();
                if cells[i] != Code::OFF {
                    let new = [ROOK, KNIGHT, Code::EMPTY][k as usize % 3];
                    bits.moved(i, std::mem::replace(&mut cells[i], new), new);
                }
            }
            let at = |x: i32, y: i32| match shape.bit(x, y) {
                Some(k) => cells[k as usize],
                None => Code::OFF,
            };
            let expected = shape.squares().fold(W::ZERO, |m, (x, y)| {
                let fits = reads.iter().all(|(d, s)| s.contains_code(at(x + d.x, y + d.y)));
                if fits {
                    m | W::bit(shape.bit(x, y).unwrap())
                } else {
                    m
                }
            });
            rule.bases(&bits, W::ONES) & W::below((shape.width * shape.height) as u32) == expected
        }
        for p in [prop::<u64>, prop::<u128>, prop::<Wide>] {
            quickcheck::QuickCheck::new()
                .tests(500)
                .quickcheck(p as fn(Vec<u8>, Vec<(i8, i8, u8)>, u8, u8) -> bool);
        }
        // The pivot's own square is read by the anchor, not as a word.
        let pivot = [(Square::new(0, 0), set(&[ROOK]))];
        assert!(BitRule::<u64>::new(&pivot, &[], BoxShape { width: 8, height: 8 }).is_none());
    }

    /// A walk on words ends where walking each piece square by square
    /// does, on random boxes with holes.
    #[test]
    fn walks_on_words_end_where_walks_on_squares_do() {
        fn prop<W: Word>(seed: Vec<u8>, step: (i8, i8), w: u8, h: u8) -> bool {
            let (shape, cells) = random_box::<W>(&seed, w, h, &[ROOK, KNIGHT, Code::OFF]);
            let d = Square::new(i32::from(step.0 % 3), i32::from(step.1 % 3));
            let Some(walk) = BitWalk::<W>::new(d, shape) else {
                return (d.x, d.y) == (0, 0);
            };
            let bits = Bits::new(&cells, shape, &Slots::default(), |x, y| (x + shape.width * y) as usize);
            let at = |x: i32, y: i32| shape.bit(x, y).map(|k| cells[k as usize]);
            let mut expected = W::ZERO;
            for (x, y) in shape.squares().filter(|&(x, y)| at(x, y) == Some(ROOK)) {
                let (mut x, mut y) = (x, y);
                loop {
                    expected |= W::bit(shape.bit(x, y).unwrap());
                    if at(x + d.x, y + d.y) != Some(Code::EMPTY) {
                        break;
                    }
                    (x, y) = (x + d.x, y + d.y);
                }
            }
            walk.ends(&bits, bits.word(ROOK)) == expected
        }
        for p in [prop::<u64>, prop::<u128>, prop::<Wide>] {
            quickcheck::QuickCheck::new()
                .tests(500)
                .quickcheck(p as fn(Vec<u8>, (i8, i8), u8, u8) -> bool);
        }
    }

    /// Lines of one step and length to different codes (a rook's and a
    /// queen's) walk as one; a line of another length stays apart.
    #[test]
    fn lines_of_one_step_and_length_walk_once() {
        let shape = BoxShape { width: 8, height: 8 };
        let probe = BitProbe::<u64>::new(&tree(), shape).expect("leaps and lines");
        let steps: Vec<usize> = probe.lines.iter().map(|g| g.lines.len()).collect();
        assert_eq!(steps.iter().sum::<usize>(), 4, "{probe:?}");
        // Hops in one canonical form: a line per step and hurdle set.
        assert_eq!(probe.hops.len(), 4, "{probe:?}");
    }

    /// Once planned, equal rows of masks are one allocation: a slide's
    /// line and a test's line along the same step, and every row of two
    /// copies of a probe (castling's tests and the check test).
    #[test]
    fn equal_rows_are_shared_once_planned() {
        let shape = BoxShape { width: 8, height: 8 };
        let mut shared = Shared::<u64>::new();
        let (mut a, mut b) = (
            BitProbe::new(&tree(), shape).expect("leaps and lines"),
            BitProbe::new(&tree(), shape).expect("leaps and lines"),
        );
        let mut ray = BitRay::new(Square::new(0, 1), 7, shape).expect("a line");
        assert!(!Arc::ptr_eq(&a.leaps[0].masks, &b.leaps[0].masks));
        a.intern(&mut shared);
        b.intern(&mut shared);
        ray.intern(&mut shared);
        let rows = |p: &BitProbe<u64>| -> Vec<Row<u64>> {
            let mut out: Vec<Row<u64>> = p.leaps.iter().map(|l| l.masks.clone()).collect();
            for g in &p.lines {
                out.push(g.any.clone());
                out.extend(g.lines.iter().map(|l| l.masks.clone()));
            }
            out.extend(p.hops.iter().map(|h| h.line.masks.clone()));
            out
        };
        let (ra, rb) = (rows(&a), rows(&b));
        assert_eq!(ra.len(), rb.len());
        assert!(ra.iter().zip(&rb).all(|(x, y)| Arc::ptr_eq(x, y)));
        assert!(
            ra.iter().any(|r| Arc::ptr_eq(r, &ray.0.masks)),
            "the rook's line up is the test's"
        );
        // Distinct rows stay distinct.
        assert!(!Arc::ptr_eq(&a.leaps[0].masks, &ray.0.masks));
    }

    /// Shapes that are not a first blocker along a line, or boxes too
    /// large for a word, keep their read tree.
    #[test]
    fn other_shapes_are_refused() {
        type BitProbe = super::BitProbe<u64>;
        let shape = BoxShape { width: 8, height: 8 };
        assert!(BitProbe::new(&tree(), shape).is_some());
        assert!(BitProbe::new(&tree(), BoxShape { width: 9, height: 8 }).is_none());
        assert!(super::BitProbe::<u128>::new(&tree(), BoxShape { width: 9, height: 8 }).is_some());
        assert!(super::BitProbe::<Wide>::new(&tree(), BoxShape { width: 17, height: 16 }).is_none());
        // A line whose first step may not hold the piece.
        let mut gap = line(0, 1, 3, &[ROOK]);
        gap.remove(0);
        assert!(BitProbe::new(&gap, shape).is_none());
        // A path that turns.
        let turn = vec![read(0, 1, &[Code::EMPTY], vec![read(1, 1, &[ROOK], vec![])])];
        assert!(BitProbe::new(&turn, shape).is_none());
        // A set with `.` or `#` in it.
        assert!(BitProbe::new(&[read(0, 1, &[ROOK, Code::EMPTY], vec![])], shape).is_none());
        assert!(BitProbe::new(&[read(0, 1, &[Code::OFF], vec![])], shape).is_none());
        // The POI's own square.
        assert!(BitProbe::new(&[read(0, 0, &[ROOK], vec![])], shape).is_none());
    }

    /// Writes keep the words, and squares of a code are found in board
    /// order, one excepted.
    #[test]
    fn words_follow_writes() {
        let shape = BoxShape { width: 3, height: 2 };
        // A mailbox with a border of one: stride 5.
        let index = |x: i32, y: i32| ((y + 1) * 5 + x + 1) as usize;
        let mut cells = vec![Code::OFF; 20];
        for (x, y) in shape.squares() {
            cells[index(x, y)] = Code::EMPTY;
        }
        cells[index(2, 0)] = ROOK;
        cells[index(0, 1)] = ROOK;
        let mut b = Bits::<u64>::new(&cells, shape, &Slots::default(), index);
        let all = |b: &Bits<u64>, except| {
            let mut out = vec![];
            while let Some(i) = b.next(ROOK, out.last().map_or(0, |i| i + 1), except) {
                out.push(i);
            }
            out
        };
        assert_eq!(all(&b, None), vec![index(2, 0), index(0, 1)]);
        assert_eq!(all(&b, Some(index(2, 0))), vec![index(0, 1)]);
        b.moved(index(2, 0), ROOK, Code::EMPTY);
        b.moved(index(2, 1), Code::EMPTY, ROOK);
        assert_eq!(all(&b, None), vec![index(0, 1), index(2, 1)]);
        assert_eq!(b.bit_of(index(1, 1)), Some(4));
        assert_eq!(b.bit_of(0), None);
    }
}
