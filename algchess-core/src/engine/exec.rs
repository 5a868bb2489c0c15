//! Runs a plan on one board, in place. Every result is made on the board,
//! handed to a continuation, and unmade: a rule writes a few squares and
//! records what they held, so nothing is cloned. A continuation returns
//! `true` to stop the search (an existence test needs one result).

use super::bits::{BitRule, BitTest, Bits, Stand, Still};
use super::mailbox::Mailbox;
use super::plan::{BitHop, FastRule, Find, Op, ReadNode};
use super::sets::Sets;
use super::word::Word;
use crate::semantics::{CellSet, Code, Eval, Halt, State};
use rustc_hash::FxHashSet;
use smallvec::SmallVec;

/// A board as it differs from where a search started: changed squares by
/// index, in order, with what they now hold (`index << 8 | code`).
pub(super) type Diff = SmallVec<[u32; 4]>;

/// Where each code's squares are.
enum Squares<W> {
    /// Boxes of at most 256 squares: a word per code, which the bitboard
    /// tests read too.
    Words(Bits<W>),
    /// Larger boxes: bit sets of the codes the plan looks for.
    Sets(Box<Sets>),
}

pub(super) type Cont<'k, W> = dyn FnMut(&mut Ctx<W>) -> bool + 'k;

/// How a leaf's results are counted (`Ctx::tally`): the test each must
/// pass with the answer kept for the board before the moves (`None`:
/// every result counts), the trail mark of that board, the mark the
/// fingerprints are taken from, and the POI results keep.
struct Dry<'a, W> {
    test: Option<(&'a BitTest<W>, &'a Still<W>)>,
    at: usize,
    mark: usize,
    outer: Option<usize>,
}

pub(super) struct Ctx<W> {
    pub board: Mailbox,
    /// Where the codes are, kept by every write.
    squares: Squares<W>,
    pub poi: Option<usize>,
    /// Squares written, with what they held before, oldest first.
    trail: Vec<(u32, u8)>,
    /// The board's hash: a sum of `key` over its squares, kept by every
    /// write, so that a result's fingerprint is a difference of two hashes
    /// (order-free, and equal for equal boards) instead of a walk of the
    /// trail. `hashes` has the hash before each trail entry.
    hash: u64,
    hashes: Vec<u64>,
    /// A move handed to the interpreter made more states than its budget;
    /// the search stops, and [`Ctx::finish`] reports it.
    too_big: Option<usize>,
    /// The trail mark of the board the current turn started from.
    base: Option<usize>,
    /// Counts turns started, so memos of an earlier board are not used.
    epoch: u64,
    memos: Vec<Memo>,
    /// Result lists done with, to be filled again without allocating.
    pub spare: Vec<Vec<Diff>>,
    /// For counting a leaf's results.
    pub counted: Fingerprints,
}

/// A test's answer on the board a turn started from, with what it read
/// there: every square read with the set it was tested against, and the
/// codes whose squares it looked for. After the turn changes some squares,
/// the answer still holds if each changed square gives every test of it
/// the same answer as before and none held or now holds a code looked
/// for: the test then takes exactly the path it took before. This is how legality is
/// tested incrementally: a move away from every line to the king keeps
/// the king as safe as it was.
///
/// Without a `not` inside, the test holds when one of its segments does
/// (a segment: one probe's subtree under its root, from one POI), and
/// each read belongs to one segment: a move that crosses one line to the
/// king walks that line again, not every line.
struct Memo {
    /// The test's address (its plan outlives every context).
    op: *const (),
    epoch: u64,
    /// `None`: the test has a shape that is not memoised.
    answer: Option<bool>,
    /// The answer is the disjunction of `segments` (no `not` inside).
    any_of: bool,
    segments: Vec<Segment>,
    /// The last test of each square, `NONE` for a square not read.
    head: Vec<u32>,
    /// Square, segment, set, and the square's previous test.
    tests: Vec<Test>,
    scans: CellSet,
}

/// Nodes `start..end` of the `probe`th probe of a test (in `probes`
/// order), walked from `poi`, and what they answered; an empty range for
/// a part that holds reading nothing (`always`, `Nil`).
#[derive(Clone, Copy)]
struct Test {
    square: u32,
    segment: u32,
    prev: u32,
    set: CellSet,
}

const NONE: u32 = u32::MAX;

#[derive(Clone, Copy)]
struct Segment {
    probe: u32,
    poi: u32,
    start: u32,
    end: u32,
    answer: bool,
}

impl Memo {
    fn new(op: *const (), cells: usize) -> Memo {
        Memo {
            op,
            epoch: 0,
            answer: None,
            any_of: true,
            segments: vec![],
            head: vec![NONE; cells],
            tests: vec![],
            scans: CellSet::default(),
        }
    }

    /// Forgets what was recorded.
    fn clear(&mut self) {
        for t in &self.tests {
            self.head[t.square as usize] = NONE;
        }
        self.tests.clear();
        self.segments.clear();
        self.scans = CellSet::default();
        self.any_of = true;
        self.answer = None;
    }

    fn read(&mut self, i: usize, segment: usize, set: CellSet) {
        let prev = std::mem::replace(&mut self.head[i], self.tests.len() as u32);
        self.tests.push(Test {
            square: i as u32,
            segment: segment as u32,
            prev,
            set,
        });
    }

    /// The tests of square `i`.
    fn tests_of(&self, i: usize) -> impl Iterator<Item = &Test> {
        let mut at = self.head[i];
        std::iter::from_fn(move || {
            let t = self.tests.get(at as usize)?;
            at = t.prev;
            Some(t)
        })
    }
}

/// `k` for a binder's body: results keep the enclosing binder's POI.
fn at_outer<'a, 'b, W: Word>(
    outer: Option<usize>,
    k: &'a mut Cont<'b, W>,
) -> impl FnMut(&mut Ctx<W>) -> bool + use<'a, 'b, W> {
    move |c: &mut Ctx<W>| {
        let inner = c.poi;
        c.poi = outer;
        let s = k(c);
        c.poi = inner;
        s
    }
}

/// The rules `op` runs first, if it starts with rules.
fn first_rules<W: Word>(op: &Op<W>) -> Option<&[FastRule]> {
    match op {
        Op::Rules(rules) => Some(rules),
        Op::Seq(a, _) => first_rules(a),
        _ => None,
    }
}

/// The read trees of `op`'s probes, in a fixed order.
fn probes<W: Word>(op: &Op<W>, out: &mut SmallVec<[*const ReadNode; 4]>) {
    match op {
        Op::Probe { reads: nodes, .. } => out.push(nodes.as_ptr()),
        Op::Bind(_, m) | Op::Star(m) | Op::Greedy(m) | Op::Not(m) | Op::NotBits(m, _) => probes(m, out),
        Op::Seq(a, b) => {
            probes(a, out);
            probes(b, out);
        }
        Op::Alt(arms) => arms.iter().for_each(|a| probes(a, out)),
        _ => {}
    }
}

fn probe_nodes<W: Word>(op: &Op<W>, k: u32) -> &[ReadNode] {
    fn find<'a, W>(op: &'a Op<W>, k: &mut u32) -> Option<&'a [ReadNode]> {
        match op {
            Op::Probe { reads: nodes, .. } if *k == 0 => Some(nodes),
            Op::Probe { .. } => {
                *k -= 1;
                None
            }
            Op::Bind(_, m) | Op::Star(m) | Op::Greedy(m) | Op::Not(m) | Op::NotBits(m, _) => find(m, k),
            Op::Seq(a, b) => find(a, k).or_else(|| find(b, k)),
            Op::Alt(arms) => arms.iter().find_map(|a| find(a, k)),
            _ => None,
        }
    }
    find(op, &mut { k }).expect("a probe recorded in this test")
}

/// The key of a square and its code (`index << 8 | code`) in the board's
/// hash: one multiply, folded, as every write pays for it. A bijection, so
/// distinct entries have distinct keys; a rare repeat of a fingerprint
/// (a sum of keys) is counted exactly.
#[inline(always)]
fn key(w: u32) -> u64 {
    let z = (u64::from(w) ^ 0x9e37_79b9_7f4a_7c15).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z ^ (z >> 29)
}

/// Results without repeats: fingerprints in an open-addressed table,
/// entries compared only where fingerprints are equal.
pub(super) struct Distinct {
    /// Index of an item plus one; 0 for a free slot.
    slots: SmallVec<[u32; 64]>,
    pub items: Vec<Diff>,
    fps: SmallVec<[u64; 64]>,
}

impl Distinct {
    /// Results gathered in `items`, emptied first.
    pub(super) fn new(mut items: Vec<Diff>) -> Distinct {
        items.clear();
        Distinct {
            slots: smallvec::smallvec![0; 64],
            items,
            fps: SmallVec::new(),
        }
    }

    pub(super) fn insert(&mut self, (fp, d): (u64, Diff)) {
        if 2 * self.items.len() >= self.slots.len() {
            self.slots = smallvec::smallvec![0; 2 * self.slots.len()];
            for k in 0..self.items.len() {
                let mut h = self.fps[k] as usize & (self.slots.len() - 1);
                while self.slots[h] != 0 {
                    h = (h + 1) & (self.slots.len() - 1);
                }
                self.slots[h] = k as u32 + 1;
            }
        }
        let mask = self.slots.len() - 1;
        let mut h = fp as usize & mask;
        loop {
            match self.slots[h] {
                0 => break,
                s => {
                    let k = s as usize - 1;
                    let e = &self.items[k];
                    if self.fps[k] == fp && e.len() == d.len() && d.iter().all(|w| e.contains(w)) {
                        return;
                    }
                }
            }
            h = (h + 1) & mask;
        }
        self.slots[h] = self.items.len() as u32 + 1;
        self.items.push(d);
        self.fps.push(fp);
    }
}

/// Fingerprints of results, to count them: a repeated fingerprint may be
/// a repeated board or two boards that merely share one, so the caller
/// then counts exactly with `Distinct`. Chess never repeats a result, and
/// counting a leaf's moves makes no diffs.
#[derive(Default)]
pub(super) struct Fingerprints {
    /// `fp | 1`, 0 for a free slot: folding the low bit can only add
    /// repeats, which are counted exactly anyway.
    slots: Vec<u64>,
    used: Vec<u32>,
}

impl Fingerprints {
    /// Adds `fp`; false when it was there.
    pub(super) fn insert(&mut self, fp: u64) -> bool {
        if 2 * (self.used.len() + 1) > self.slots.len() {
            let old: Vec<u64> = self.used.iter().map(|&h| self.slots[h as usize]).collect();
            self.clear();
            self.slots = vec![0; (2 * self.slots.len()).max(128)];
            old.into_iter().for_each(|f| {
                self.insert(f);
            });
        }
        let (f, mask) = (fp | 1, self.slots.len() - 1);
        let mut h = (fp >> 7) as usize & mask;
        while self.slots[h] != 0 {
            if self.slots[h] == f {
                return false;
            }
            h = (h + 1) & mask;
        }
        self.slots[h] = f;
        self.used.push(h as u32);
        true
    }

    pub(super) fn len(&self) -> usize {
        self.used.len()
    }

    /// Empties the set, touching only the slots in use.
    pub(super) fn clear(&mut self) {
        for &h in &self.used {
            self.slots[h as usize] = 0;
        }
        self.used.clear();
    }
}

/// States seen by a search: a short list, then a hash set.
#[derive(Default)]
struct Seen {
    few: Vec<(Diff, Option<usize>)>,
    many: FxHashSet<(Diff, Option<usize>)>,
}

impl Seen {
    fn insert(&mut self, k: (Diff, Option<usize>)) -> bool {
        if self.many.is_empty() {
            if self.few.contains(&k) {
                return false;
            }
            if self.few.len() < 16 {
                self.few.push(k);
                return true;
            }
            self.many.extend(self.few.drain(..));
        }
        self.many.insert(k)
    }
}

impl<W: Word> Ctx<W> {
    /// `value`, the outcome of a search on this context, unless a move in
    /// it outgrew the interpreter's budget; the context is ready for the
    /// next search either way.
    pub(super) fn finish<T>(&mut self, value: T) -> Result<T, super::TooBig> {
        match self.too_big.take() {
            Some(n) => Err(super::TooBig(n)),
            None => Ok(value),
        }
    }

    /// A context on `board` for a plan that looks for `codes`.
    pub(super) fn new(board: Mailbox, codes: &[u8]) -> Ctx<W> {
        Ctx {
            squares: match board.bits() {
                Some(b) => Squares::Words(b),
                None => Squares::Sets(Box::new(Sets::new(&board.cells, board.rows(), codes))),
            },
            board,
            poi: None,
            trail: Vec::with_capacity(64),
            hash: 0,
            hashes: Vec::with_capacity(64),
            too_big: None,
            base: None,
            epoch: 0,
            memos: vec![],
            spare: vec![],
            counted: Fingerprints::default(),
        }
    }

    /// The current board is where a turn starts: tests may be answered
    /// from what they read here.
    pub(super) fn start_turn(&mut self) {
        self.epoch += 1;
        self.base = Some(self.mark());
    }

    pub(super) fn end_turn(&mut self) {
        self.base = None;
    }

    /// Whether `op` has a result, from its memo where one applies.
    fn exists_memo(&mut self, op: &Op<W>) -> bool {
        if let (Some(base), None) = (self.base, self.poi) {
            if let Some(answer) = self.recall(op, base) {
                return answer;
            }
        }
        self.exists(op)
    }

    /// The memo of `op` for this turn, made if need be, when it still
    /// answers on the current board.
    fn recall(&mut self, op: &Op<W>, base: usize) -> Option<bool> {
        let key = op as *const Op<W> as *const ();
        let at = match self.memos.iter().position(|m| m.op == key) {
            Some(at) => at,
            None => {
                self.memos.push(Memo::new(key, self.board.cells.len()));
                self.memos.len() - 1
            }
        };
        if self.memos[at].epoch != self.epoch {
            let mut memo = std::mem::replace(&mut self.memos[at], Memo::new(key, 0));
            memo.epoch = self.epoch;
            memo.clear();
            // Back to the turn's board, the test recorded there, and forward.
            let now: SmallVec<[(u32, u8); 16]> = self.trail[base..]
                .iter()
                .map(|&(i, _)| (i, self.board.cells[i as usize]))
                .collect();
            for k in (base..self.trail.len()).rev() {
                let (i, v) = self.trail[k];
                self.set_cell(i as usize, v);
            }
            let mut ps = SmallVec::new();
            probes(op, &mut ps);
            memo.answer = self.exists_recorded(op, &mut memo, &ps);
            for (i, v) in now {
                self.set_cell(i as usize, v);
            }
            self.memos[at] = memo;
        }
        let memo = &self.memos[at];
        let answer = memo.answer?;
        let trail = &self.trail[base..];
        let mut dirty: SmallVec<[u32; 8]> = SmallVec::new();
        for (k, &(i, before)) in trail.iter().enumerate() {
            // A square's value on the turn's board is its oldest record.
            if trail[..k].iter().any(|(j, _)| *j == i) {
                continue;
            }
            let (i, now) = (i as usize, self.board.cells[i as usize]);
            if now == before {
                continue;
            }
            if memo.scans.contains_code(before) || memo.scans.contains_code(now) {
                return None;
            }
            for t in memo.tests_of(i) {
                if t.set.contains_code(before) != t.set.contains_code(now) {
                    if !memo.any_of {
                        return None;
                    }
                    if !dirty.contains(&t.segment) {
                        dirty.push(t.segment);
                    }
                }
            }
        }
        if dirty.is_empty() {
            return Some(answer);
        }
        // A disjunction: only the segments that read a changed square may
        // answer differently.
        // A true answer is its last segment's (the recording stops there).
        if answer && !dirty.contains(&(memo.segments.len() as u32 - 1)) {
            return Some(true);
        }
        for &k in &dirty {
            let s = memo.segments[k as usize];
            let nodes = probe_nodes(op, s.probe);
            if self.walk(nodes, s.start, s.end, s.poi as usize, |_, _| {}) {
                return Some(true);
            }
        }
        // All false now; but a true answer stopped the recording, so some
        // segments were never walked.
        (!answer).then_some(false)
    }

    /// `exists`, noting in `memo` what it reads; `None` for a test of a
    /// shape it does not follow.
    fn exists_recorded(&mut self, op: &Op<W>, memo: &mut Memo, ps: &[*const ReadNode]) -> Option<bool> {
        Some(match op {
            Op::Nil => {
                memo.segments.push(Segment {
                    probe: 0,
                    poi: 0,
                    start: 0,
                    end: 0,
                    answer: true,
                });
                true
            }
            Op::Fail => false,
            Op::Probe {
                always, reads: nodes, ..
            } => match self.poi {
                Some(p) => {
                    let probe = ps.iter().position(|&q| q == nodes.as_ptr()).expect("listed") as u32;
                    let mut seg = Segment {
                        probe,
                        poi: p as u32,
                        start: 0,
                        end: 0,
                        answer: *always,
                    };
                    if *always {
                        memo.segments.push(seg);
                        return Some(true);
                    }
                    // One segment per subtree under the root.
                    let len = nodes.len() as u32;
                    while seg.start < len {
                        seg.end = nodes[seg.start as usize].fail.min(len);
                        let k = memo.segments.len();
                        seg.answer = self.walk(nodes, seg.start, seg.end, p, |at, set| memo.read(at, k, set));
                        memo.segments.push(seg);
                        if seg.answer {
                            return Some(true);
                        }
                        seg.start = seg.end;
                    }
                    false
                }
                None => false,
            },
            Op::Bind(code, body) => {
                memo.scans.insert_code(*code);
                let outer = self.poi;
                let mut found = Some(false);
                let mut at = 0;
                while let Some(q) = self.next_holding(*code, at, outer) {
                    at = q + 1;
                    self.poi = Some(q);
                    match self.exists_recorded(body, memo, ps) {
                        Some(false) => {}
                        other => {
                            found = other;
                            break;
                        }
                    }
                }
                self.poi = outer;
                return found;
            }
            Op::Alt(arms) => {
                for a in arms {
                    if self.exists_recorded(a, memo, ps)? {
                        return Some(true);
                    }
                }
                false
            }
            Op::Not(m) | Op::NotBits(m, _) => {
                memo.any_of = false;
                !self.exists_recorded(m, memo, ps)?
            }
            _ => return None,
        })
    }

    pub(super) fn mark(&self) -> usize {
        self.trail.len()
    }

    /// Keeps every write made so far: the board is where searches start
    /// from now on, and nothing before it can be undone.
    pub(super) fn forget(&mut self) {
        self.trail.clear();
        self.hashes.clear();
    }

    /// Restores every square written since `mark`.
    pub(super) fn undo(&mut self, mark: usize) {
        while self.trail.len() > mark {
            let (i, v) = self.trail.pop().expect("above the mark");
            self.set_cell(i as usize, v);
        }
        if let Some(&h) = self.hashes.get(mark) {
            self.hash = h;
        }
        self.hashes.truncate(mark);
    }

    #[inline]
    fn set_cell(&mut self, i: usize, v: u8) {
        let old = std::mem::replace(&mut self.board.cells[i], v);
        match &mut self.squares {
            Squares::Words(b) => b.moved(i, old, v),
            Squares::Sets(s) => s.moved(i, old, v),
        }
    }

    #[inline]
    fn write(&mut self, i: usize, v: u8) {
        let old = self.board.cells[i];
        self.trail.push((i as u32, old));
        self.hashes.push(self.hash);
        let at = (i as u32) << 8;
        self.hash = self
            .hash
            .wrapping_add(key(at | u32::from(v)))
            .wrapping_sub(key(at | u32::from(old)));
        self.set_cell(i, v);
    }

    /// Applies a diff made by `diff`, to be undone with `undo`.
    pub(super) fn apply(&mut self, d: &Diff) {
        for &w in d {
            self.write((w >> 8) as usize, w as u8);
        }
    }

    /// How the board differs from what it was at `mark`.
    pub(super) fn diff(&self, mark: usize) -> Diff {
        let mut d: Diff = SmallVec::new();
        self.changes(mark, |w| d.push(w));
        d.sort_unstable();
        d
    }

    /// Calls `each` on every square that differs from what it held at
    /// `mark`, as `index << 8 | code`, in no particular order.
    #[inline(always)]
    fn changes(&self, mark: usize, mut each: impl FnMut(u32)) {
        let trail = &self.trail[mark..];
        for (k, &(i, before)) in trail.iter().enumerate() {
            // A square's value at the mark is its oldest record.
            if trail[..k].iter().any(|(j, _)| *j == i) {
                continue;
            }
            let now = self.board.cells[i as usize];
            if now != before {
                each(i << 8 | u32::from(now));
            }
        }
    }

    /// How the board differs from what it was at `mark`, its entries in
    /// no particular order, with a fingerprint that does not depend on
    /// their order: equal boards have equal fingerprints.
    pub(super) fn result(&self, mark: usize) -> (u64, Diff) {
        let mut d: Diff = SmallVec::new();
        self.changes(mark, |w| d.push(w));
        (self.fingerprint(mark), d)
    }

    /// Whether square `i` was written since `mark`.
    pub(super) fn wrote(&self, mark: usize, i: usize) -> bool {
        self.trail[mark..].iter().any(|&(j, _)| j as usize == i)
    }

    /// The fingerprint of `result`, without the diff: how the hash moved
    /// since `mark`.
    #[inline]
    pub(super) fn fingerprint(&self, mark: usize) -> u64 {
        let then = self.hashes.get(mark).copied().unwrap_or(self.hash);
        self.hash.wrapping_sub(then)
    }

    /// What square `i` reads: `%` on the POI's square.
    #[inline]
    fn read(&self, i: usize) -> u8 {
        if Some(i) == self.poi {
            Code::POI
        } else {
            self.board.cells[i]
        }
    }

    #[inline(always)]
    fn fits(&self, r: &FastRule, base: usize) -> bool {
        let at = |d: isize| base.wrapping_add_signed(d);
        if let Some((d, set)) = &r.one {
            return set.contains_code(self.read(at(*d)));
        }
        r.reads.iter().all(|&(d, set)| set.contains_code(self.read(at(d))))
            && r.offs.iter().all(|&d| self.board.cells[at(d)] == Code::OFF)
            && r.ons.iter().all(|&d| self.board.cells[at(d)] != Code::OFF)
    }

    /// Applies `r` at `base`, runs `k`, and unmakes it.
    fn apply_rule(&mut self, r: &FastRule, base: usize, k: &mut Cont<'_, W>) -> bool {
        let mark = self.mark();
        let before = self.poi;
        let carried = before.map(|p| self.board.cells[p]);
        let (mut moved, mut cleared) = (None, false);
        for &(d, v) in &r.writes {
            let i = base.wrapping_add_signed(d);
            if v == Code::POI {
                self.write(i, carried.expect("a rule that writes `%` runs only with a POI"));
                moved = Some(i);
            } else {
                self.write(i, v);
                cleared |= Some(i) == before;
            }
        }
        self.poi = moved.or(if cleared { None } else { before });
        let stop = k(self);
        self.undo(mark);
        self.poi = before;
        stop
    }

    /// The first square from index `from` on holding `code`, `except`
    /// excepted. A search that makes and unmakes moves between calls sees
    /// the same squares each time.
    #[inline]
    fn next_holding(&self, code: u8, from: usize, except: Option<usize>) -> Option<usize> {
        match &self.squares {
            Squares::Words(b) => b.next(code, from, except),
            Squares::Sets(s) => s.next(&self.board.cells, code, from, except),
        }
    }

    /// Calls `each` on every base at which `r` may apply, until it stops.
    fn bases(&mut self, r: &FastRule, each: &mut dyn FnMut(&mut Ctx<W>, usize) -> bool) -> bool {
        if r.needs_poi && self.poi.is_none() {
            return false;
        }
        match r.find {
            Find::Identity => unreachable!("identity rules have no bases"),
            Find::Anchor => match self.poi {
                Some(p) => each(self, p),
                None => false,
            },
            Find::Guard(code) => {
                let (mut at, poi) = (0, self.poi);
                while let Some(q) = self.next_holding(code, at, poi) {
                    at = q + 1;
                    if each(self, q) {
                        return true;
                    }
                }
                false
            }
            Find::GuardAny(set) => {
                let (lo, hi) = self.board.rows();
                let qs: SmallVec<[usize; 64]> = (lo..hi)
                    .filter(|&i| Some(i) != self.poi && self.board.cells[i] != Code::OFF)
                    .filter(|&i| set.contains_code(self.board.cells[i]))
                    .collect();
                qs.into_iter().any(|q| each(self, q))
            }
            Find::Write => {
                let (lo, hi) = self.board.rows();
                let qs: SmallVec<[usize; 64]> = (lo..hi).filter(|&i| self.board.cells[i] != Code::OFF).collect();
                qs.into_iter().any(|q| each(self, q))
            }
        }
    }

    fn rule(&mut self, r: &FastRule, k: &mut Cont<'_, W>) -> bool {
        match (r.find, self.poi) {
            (Find::Identity, poi) => return (!r.needs_poi || poi.is_some()) && k(self),
            (Find::Anchor, Some(p)) => return self.fits(r, p) && self.apply_rule(r, p, k),
            (Find::Anchor, None) => return false,
            _ => {}
        }
        self.bases(r, &mut |c, base| c.fits(r, base) && c.apply_rule(r, base, k))
    }

    fn rule_applies(&mut self, r: &FastRule) -> bool {
        if let Find::Identity = r.find {
            return !r.needs_poi || self.poi.is_some();
        }
        self.bases(r, &mut |c, base| c.fits(r, base))
    }

    fn probe(&self, nodes: &[ReadNode], p: usize) -> bool {
        self.walk(nodes, 0, nodes.len() as u32, p, |_, _| {})
    }

    /// Walks nodes `start..end` of a read tree in preorder from `p` (a
    /// subtree or the whole tree), telling `seen` of each square read;
    /// whether some path matched.
    #[inline(always)]
    fn walk(&self, nodes: &[ReadNode], start: u32, end: u32, p: usize, mut seen: impl FnMut(usize, CellSet)) -> bool {
        let mut i = start as usize;
        while i < end as usize {
            let n = &nodes[i];
            let at = p.wrapping_add_signed(n.at);
            seen(at, n.set);
            if n.set.contains_code(self.board.cells[at]) {
                if n.done {
                    return true;
                }
                if n.has_children {
                    i += 1;
                    continue;
                }
            }
            i = n.fail as usize;
        }
        false
    }

    /// Runs `op`, calling `k` on each result (possibly repeated) until it
    /// says to stop; whether it stopped.
    pub(super) fn run(&mut self, op: &Op<W>, k: &mut Cont<'_, W>) -> bool {
        if self.too_big.is_some() {
            return true;
        }
        match op {
            Op::Nil => k(self),
            Op::Fail => false,
            Op::Rules(rules) | Op::BitRules(rules, _) => self.rules(rules, k),
            Op::Slide { d, set, max, write } => self.slide(*d, *set, *max, *write, k),
            Op::Walk(d) => {
                let Some(start) = self.poi else { return false };
                let mark = self.mark();
                let mut stop = k(self);
                let mut p = start;
                while !stop {
                    let q = p.wrapping_add_signed(*d);
                    if self.board.cells[q] != Code::EMPTY {
                        break;
                    }
                    let v = self.board.cells[p];
                    self.write(q, v);
                    self.write(p, Code::EMPTY);
                    self.poi = Some(q);
                    p = q;
                    stop = k(self);
                }
                self.undo(mark);
                self.poi = Some(start);
                stop
            }
            Op::Hop(d, rules) => self.hop(*d, rules, k),
            Op::BitHops(hops) => hops.iter().any(|h| self.hop(h.d, &h.rules, k)),
            Op::Bind(code, body) => {
                match (&**body, &self.squares) {
                    (Op::BitRules(rules, bits), Squares::Words(_)) => return self.bit_rules(*code, rules, bits, k),
                    (Op::BitHops(hops), Squares::Words(_)) => return self.bit_hops(*code, hops, k),
                    _ => {}
                }
                self.each_holder(*code, |c, outer| c.run(body, &mut at_outer(outer, k)))
            }
            Op::Seq(a, b) => {
                if let (Op::Not(_) | Op::NotBits(..), Some(rules)) = (&**a, first_rules(b)) {
                    // `not A` then rules (castling: the king not attacked,
                    // then the squares between empty): when no rule
                    // applies there is no result, and A need not be tested.
                    if !rules.iter().any(|r| self.rule_applies(r)) {
                        return false;
                    }
                }
                if let Op::NotBits(_, t) = &**b {
                    // The legality test after each move, without a call of
                    // `run`, and not made again where the move changed
                    // nothing it read (a king far from the move).
                    let mark = self.mark();
                    let moves = !matches!(&**a, Op::Not(_) | Op::NotBits(..) | Op::Probe { .. } | Op::Nil);
                    if let Some(s) = (moves && t.worth_keeping()).then(|| self.still(t)).flatten() {
                        return self.run(a, &mut |c: &mut Ctx<W>| {
                            let holds = if c.stands(t, &s, mark) { s.answer } else { c.bit_test(t) };
                            !holds && k(c)
                        });
                    }
                    return self.run(a, &mut |c: &mut Ctx<W>| !c.bit_test(t) && k(c));
                }
                self.run(a, &mut |c: &mut Ctx<W>| c.run(b, k))
            }
            Op::Alt(arms) => arms.iter().any(|a| self.run(a, k)),
            Op::Star(m) => {
                let mark = self.mark();
                self.star(m, mark, &mut Seen::default(), k)
            }
            Op::Greedy(m) => {
                if !self.exists(m) {
                    return k(self);
                }
                let mark = self.mark();
                self.greedy(m, mark, &mut Seen::default(), k)
            }
            Op::Not(m) => !self.exists_memo(m) && k(self),
            Op::NotBits(_, t) => !self.bit_test(t) && k(self),
            Op::Probe { rules: m, .. } => self.run(m, k),
            Op::Interpret(prog) => self.interpret(prog, k),
        }
    }

    /// Adds the fingerprints (from `mark`) of `op`'s results to `seen`, as
    /// `run` with a continuation inserting each would; true when one
    /// repeats, which stops the count. A leaf's moves are counted without
    /// being made where that is exact: a rule's result is its writes, its
    /// fingerprint their keys, and its legality the answer kept for the
    /// board before it when no write changes what the test read (a
    /// move away from every line to the king); only the other moves are
    /// made and tested.
    pub(super) fn tally(&mut self, op: &Op<W>, mark: usize, seen: &mut Fingerprints) -> bool {
        if self.too_big.is_some() {
            return true;
        }
        match op {
            Op::Seq(a, b) => match &**b {
                Op::NotBits(_, t) => {
                    let moves = !matches!(&**a, Op::Not(_) | Op::NotBits(..) | Op::Probe { .. } | Op::Nil);
                    if let Some(s) = (moves && t.worth_keeping()).then(|| self.still(t)).flatten() {
                        let at = self.mark();
                        let (test, outer) = (Some((&**t, &s)), self.poi);
                        return self.dry(a, &Dry { test, at, mark, outer }, seen);
                    }
                }
                _ if !matches!(&**a, Op::Not(_) | Op::NotBits(..)) => {
                    return self.run(a, &mut |c: &mut Ctx<W>| c.tally(b, mark, seen));
                }
                _ => {}
            },
            Op::Alt(_) | Op::Bind(..) | Op::Rules(_) => {
                let (at, outer) = (self.mark(), self.poi);
                return self.dry(
                    op,
                    &Dry {
                        test: None,
                        at,
                        mark,
                        outer,
                    },
                    seen,
                );
            }
            _ => {}
        }
        self.run(op, &mut |c: &mut Ctx<W>| !seen.insert(c.fingerprint(mark)))
    }

    /// Whether the board reached is legal under `d`'s test, with the
    /// POI the results keep.
    #[inline]
    fn legal(&mut self, d: &Dry<'_, W>) -> bool {
        let Some((t, s)) = d.test else { return true };
        let inner = std::mem::replace(&mut self.poi, d.outer);
        let holds = if self.stands(t, s, d.at) {
            s.answer
        } else {
            self.bit_test(t)
        };
        self.poi = inner;
        !holds
    }

    /// Counts `op`'s results into `seen` as `tally` does, each tested by
    /// `d`; shapes it does not count without making them are run.
    fn dry(&mut self, op: &Op<W>, d: &Dry<'_, W>, seen: &mut Fingerprints) -> bool {
        match op {
            Op::Alt(arms) => return arms.iter().any(|a| self.dry(a, d, seen)),
            Op::Rules(rules) => return self.dry_rules(rules, d, seen),
            Op::Slide {
                d: step,
                set,
                max,
                write,
            } if self.poi.is_some() => return self.dry_slide(*step, *set, *max, *write, d, seen),
            Op::Bind(code, body) if !matches!(&**body, Op::BitHops(_)) => {
                if let (Op::BitRules(rules, bits), Squares::Words(_)) = (&**body, &self.squares) {
                    return self.each_bit_rule(*code, rules, bits, |c, r, q| c.dry_rule(r, q, d, seen));
                }
                return self.each_holder(*code, |c, _| c.dry(body, d, seen));
            }
            _ => {}
        }
        self.run(op, &mut |c: &mut Ctx<W>| {
            c.legal(d) && !seen.insert(c.fingerprint(d.mark))
        })
    }

    /// `rules` as `rules` runs them, each result counted by `dry_rule`.
    fn dry_rules(&mut self, rules: &[FastRule], d: &Dry<'_, W>, seen: &mut Fingerprints) -> bool {
        self.each_rule(rules, |c, r, base| match base {
            Some(q) => c.dry_rule(r, q, d, seen),
            None => c.rule(r, &mut |c: &mut Ctx<W>| {
                c.legal(d) && !seen.insert(c.fingerprint(d.mark))
            }),
        })
    }

    /// Counts the result of rule `r` (which fits) at `base` from its
    /// writes, unless they write one square twice or may change the
    /// test's answer: then it is made, tested and unmade.
    #[inline]
    fn dry_rule(&mut self, r: &FastRule, base: usize, d: &Dry<'_, W>, seen: &mut Fingerprints) -> bool {
        let carried = self.poi.map(|p| self.board.cells[p]);
        if r.distinct && (carried.is_some() || r.writes.iter().all(|w| w.1 != Code::POI)) {
            let writes = r.writes.iter().map(|&(at, v)| {
                let i = base.wrapping_add_signed(at);
                (i, if v == Code::POI { carried.unwrap_or(v) } else { v })
            });
            if let Some(stop) = self.counted_from(writes, d, seen) {
                return stop;
            }
        }
        let before = self.poi;
        let stop = self.apply_rule(r, base, &mut |c: &mut Ctx<W>| {
            c.legal(d) && !seen.insert(c.fingerprint(d.mark))
        });
        self.poi = before;
        stop
    }

    /// The POI slides as `slide` moves it, each result counted from its
    /// two writes where that is exact.
    fn dry_slide(
        &mut self,
        step: isize,
        set: CellSet,
        max: u32,
        write: u8,
        d: &Dry<'_, W>,
        seen: &mut Fingerprints,
    ) -> bool {
        let Some(start) = self.poi else { return false };
        let v = match write {
            Code::POI => self.board.cells[start],
            w => w,
        };
        let mut q = start;
        for _ in 0..max {
            q = q.wrapping_add_signed(step);
            let c = self.board.cells[q];
            if set.contains_code(c) {
                let writes = [(q, v), (start, Code::EMPTY)].into_iter();
                let stop = match self.counted_from(writes, d, seen) {
                    Some(stop) => stop,
                    None => self.slide_one(start, q, v, write, d, seen),
                };
                if stop {
                    return true;
                }
            }
            if c != Code::EMPTY {
                return false;
            }
        }
        false
    }

    /// One result of a slide made, tested, counted and unmade.
    #[cold]
    fn slide_one(&mut self, start: usize, q: usize, v: u8, write: u8, d: &Dry<'_, W>, seen: &mut Fingerprints) -> bool {
        let mark = self.mark();
        self.write(q, v);
        self.write(start, Code::EMPTY);
        self.poi = (write == Code::POI).then_some(q);
        let stop = self.legal(d) && !seen.insert(self.fingerprint(d.mark));
        self.undo(mark);
        self.poi = Some(start);
        stop
    }

    /// Counts the result that `writes` (to distinct squares) make, when
    /// the test's kept answer stands for them; `None` when the result
    /// must be made to be tested.
    #[inline(always)]
    fn counted_from(
        &self,
        writes: impl Iterator<Item = (usize, u8)>,
        d: &Dry<'_, W>,
        seen: &mut Fingerprints,
    ) -> Option<bool> {
        let Squares::Words(b) = &self.squares else { return None };
        let mut hash = self.hash;
        let mut stand = Stand::default();
        for (i, v) in writes {
            let old = self.board.cells[i];
            let at = (i as u32) << 8;
            hash = hash
                .wrapping_add(key(at | u32::from(v)))
                .wrapping_sub(key(at | u32::from(old)));
            if let Some((t, s)) = d.test {
                stand = stand.with(t.change(s, b, i, old, v));
            }
        }
        if !stand.holds() || d.test.is_some_and(|(_, s)| s.poi != d.outer) {
            return None;
        }
        if d.test.is_some_and(|(_, s)| s.answer) {
            return Some(false);
        }
        let then = self.hashes.get(d.mark).copied().unwrap_or(self.hash);
        Some(!seen.insert(hash.wrapping_sub(then)))
    }

    /// Calls `at` with the POI on each square holding `code` (the square
    /// the POI was on left out) and the POI before; stops at the first
    /// `true`. The binder's loop, shared by `run` and `dry`.
    #[inline(always)]
    fn each_holder(&mut self, code: u8, mut at: impl FnMut(&mut Ctx<W>, Option<usize>) -> bool) -> bool {
        let outer = self.poi;
        let mut stop = false;
        let mut from = 0;
        while let Some(q) = self.next_holding(code, from, outer) {
            from = q + 1;
            self.poi = Some(q);
            stop = at(self, outer);
            if stop {
                break;
            }
        }
        self.poi = outer;
        stop
    }

    /// `%code: rules` on bitboards: each rule's bases for all the pieces
    /// at once, then each result made as the binder makes it.
    fn bit_rules(&mut self, code: u8, rules: &[FastRule], bits: &[BitRule<W>], k: &mut Cont<'_, W>) -> bool {
        let outer = self.poi;
        self.each_bit_rule(code, rules, bits, |c, r, q| c.apply_rule(r, q, &mut at_outer(outer, k)))
    }

    /// Calls `at` with each rule of `%code: rules` and each base where it
    /// fits, found for all the pieces at once on the bitboards, the POI on
    /// the base; stops at the first `true`. Shared by `bit_rules` and
    /// `dry`.
    #[inline(always)]
    fn each_bit_rule(
        &mut self,
        code: u8,
        rules: &[FastRule],
        bits: &[BitRule<W>],
        mut at: impl FnMut(&mut Ctx<W>, &FastRule, usize) -> bool,
    ) -> bool {
        let Squares::Words(b) = &self.squares else {
            unreachable!("bit rules run on bitboards")
        };
        let outer = self.poi;
        let pieces = b.word(code) & outer.and_then(|p| b.bit_of(p)).map_or(W::ONES, |k| !W::bit(k));
        if pieces.is_zero() {
            return false;
        }
        let bases: SmallVec<[W; 16]> = bits.iter().map(|r| r.bases(b, pieces)).collect();
        let mut stop = false;
        'rules: for (r, mut m) in rules.iter().zip(bases) {
            while !m.is_zero() {
                let q = match &self.squares {
                    Squares::Words(b) => b.index_of(m.lowest()),
                    Squares::Sets(_) => unreachable!("bit rules run on bitboards"),
                };
                m = m.clear_lowest();
                self.poi = Some(q);
                stop = at(self, r, q);
                if stop {
                    break 'rules;
                }
            }
        }
        self.poi = outer;
        stop
    }

    /// `%code: hops` on bitboards: where each hop's rules fit at the end
    /// of its walk, for all the pieces at once; then each result made as
    /// the walk and the rule make it.
    fn bit_hops(&mut self, code: u8, hops: &[BitHop<W>], k: &mut Cont<'_, W>) -> bool {
        let outer = self.poi;
        let Squares::Words(b) = &self.squares else {
            unreachable!("bit hops run on bitboards")
        };
        let pieces = b.word(code) & outer.and_then(|p| b.bit_of(p)).map_or(W::ONES, |k| !W::bit(k));
        if pieces.is_zero() {
            return false;
        }
        let mut stop = false;
        'hops: for h in hops {
            let Squares::Words(b) = &self.squares else {
                unreachable!("bit hops run on bitboards")
            };
            let ends = h.walk.ends(b, pieces);
            let bases: SmallVec<[W; 4]> = h.bits.iter().map(|r| r.bases(b, ends)).collect();
            for (r, mut m) in h.rules.iter().zip(bases) {
                while !m.is_zero() {
                    let p = match &self.squares {
                        Squares::Words(b) => b.index_of(m.lowest()),
                        Squares::Sets(_) => unreachable!("bit hops run on bitboards"),
                    };
                    m = m.clear_lowest();
                    // The piece is the first square behind that is not empty.
                    let mut start = p;
                    while self.board.cells[start] == Code::EMPTY {
                        start = start.wrapping_add_signed(-h.d);
                    }
                    let mark = self.mark();
                    self.walk_to(start, p);
                    stop = self.apply_rule(r, p, &mut at_outer(outer, k));
                    self.undo(mark);
                    if stop {
                        break 'hops;
                    }
                }
            }
        }
        self.poi = outer;
        stop
    }

    /// The board a walk from `start` leaves at `p`, as `Walk` makes it:
    /// the POI's piece moved there, and the POI with it.
    fn walk_to(&mut self, start: usize, p: usize) {
        if p != start {
            let v = self.board.cells[start];
            self.write(p, v);
            self.write(start, Code::EMPTY);
        }
        self.poi = Some(p);
    }

    /// A walk along `d` over empty squares, then anchored rules from its
    /// last square (`Op::Hop`).
    fn hop(&mut self, d: isize, rules: &[FastRule], k: &mut Cont<'_, W>) -> bool {
        let Some(start) = self.poi else { return false };
        let mut p = start;
        while self.board.cells[p.wrapping_add_signed(d)] == Code::EMPTY {
            p = p.wrapping_add_signed(d);
        }
        // Most hops land nowhere (off the board, on a friend). Anchored
        // rules read only the squares, so which fit is seen with the walk
        // made on the squares alone, before writes that keep the
        // bitboards and the hash.
        let v = self.board.cells[start];
        self.board.cells[start] = Code::EMPTY;
        self.board.cells[p] = v;
        self.poi = Some(p);
        let lands = rules.iter().any(|r| self.fits(r, p));
        self.board.cells[p] = Code::EMPTY;
        self.board.cells[start] = v;
        self.poi = Some(start);
        if !lands {
            return false;
        }
        let mark = self.mark();
        self.walk_to(start, p);
        let stop = rules.iter().any(|r| self.fits(r, p) && self.apply_rule(r, p, k));
        self.undo(mark);
        self.poi = Some(start);
        stop
    }

    /// Runs rules in order, each on every base where it fits.
    fn rules(&mut self, rules: &[FastRule], k: &mut Cont<'_, W>) -> bool {
        self.each_rule(rules, |c, r, base| match base {
            Some(q) => c.apply_rule(r, q, k),
            None => c.rule(r, k),
        })
    }

    /// Calls `at` with each rule of `rules`, in order, and each base where
    /// it fits (`None`: a rule that finds its own bases, for `rule`);
    /// stops at the first `true`. Shared by `rules` and `dry_rules`.
    #[inline(always)]
    fn each_rule(
        &mut self,
        rules: &[FastRule],
        mut at: impl FnMut(&mut Ctx<W>, &FastRule, Option<usize>) -> bool,
    ) -> bool {
        // Rules pivoting on one piece (a knight's eight leaps) share the
        // squares found for it: the board is the same for each.
        let poi = self.poi;
        let mut fit = false;
        let mut i = 0;
        while i < rules.len() {
            let r = &rules[i];
            i += 1;
            match r.find {
                Find::Anchor => {
                    let Some(p) = poi else { continue };
                    // Rules that differ only in what they write (a
                    // promotion's pieces) check the board once.
                    if !r.as_before {
                        fit = self.fits(r, p);
                    }
                    if fit && at(self, r, Some(p)) {
                        return true;
                    }
                }
                Find::Guard(code) => {
                    // The rules after it guarding on the same code are
                    // tried on each square found, which is found once.
                    let same =
                        |s: &FastRule| matches!(s.find, Find::Guard(c) if c == code) && s.needs_poi == r.needs_poi;
                    let group = &rules[i - 1..i + rules[i..].iter().take_while(|s| same(s)).count()];
                    i += group.len() - 1;
                    if r.needs_poi && poi.is_none() {
                        continue;
                    }
                    let mut from = 0;
                    while let Some(q) = self.next_holding(code, from, poi) {
                        from = q + 1;
                        for g in group {
                            if self.fits(g, q) && at(self, g, Some(q)) {
                                return true;
                            }
                        }
                    }
                }
                _ => {
                    if at(self, r, None) {
                        return true;
                    }
                }
            }
        }
        false
    }

    /// The POI slides along `d` to squares reading `set`, at most `max`.
    fn slide(&mut self, d: isize, set: CellSet, max: u32, write: u8, k: &mut Cont<'_, W>) -> bool {
        let Some(start) = self.poi else { return false };
        let (v, moves) = match write {
            Code::POI => (self.board.cells[start], true),
            w => (w, false),
        };
        let mut q = start;
        for _ in 0..max {
            q = q.wrapping_add_signed(d);
            let c = self.board.cells[q];
            if set.contains_code(c) {
                let mark = self.mark();
                self.write(q, v);
                self.write(start, Code::EMPTY);
                // Writing over the POI's square without `%` ends the POI.
                self.poi = moves.then_some(q);
                let stop = k(self);
                self.undo(mark);
                self.poi = Some(start);
                if stop {
                    return true;
                }
            }
            // The walk goes on over empty squares only.
            if c != Code::EMPTY {
                return false;
            }
        }
        false
    }

    /// Every state `m*` reaches from here that was not seen before.
    #[inline(never)]
    fn star(&mut self, m: &Op<W>, mark: usize, seen: &mut Seen, k: &mut Cont<'_, W>) -> bool {
        if !seen.insert((self.diff(mark), self.poi)) {
            return false;
        }
        k(self) || self.run(m, &mut |c: &mut Ctx<W>| c.star(m, mark, seen, k))
    }

    /// The states `m*` reaches from here on which `m` has no result.
    #[inline(never)]
    fn greedy(&mut self, m: &Op<W>, mark: usize, seen: &mut Seen, k: &mut Cont<'_, W>) -> bool {
        if !seen.insert((self.diff(mark), self.poi)) {
            return false;
        }
        let mut any = false;
        let stop = self.run(m, &mut |c: &mut Ctx<W>| {
            any = true;
            c.greedy(m, mark, seen, k)
        });
        stop || (!any && k(self))
    }

    /// A bitboard test's answer here, with what it read.
    fn still(&self, t: &BitTest<W>) -> Option<Still<W>> {
        let Squares::Words(b) = &self.squares else { return None };
        t.still(b, self.poi, self.poi.and_then(|p| b.bit_of(p)))
    }

    /// Whether `s`, made at `mark`, still answers here.
    #[inline]
    fn stands(&self, t: &BitTest<W>, s: &Still<W>, mark: usize) -> bool {
        let Squares::Words(b) = &self.squares else { return false };
        s.poi == self.poi
            && self.trail[mark..]
                .iter()
                .fold(Stand::default(), |st, &(i, old)| {
                    st.with(t.change(s, b, i as usize, old, self.board.cells[i as usize]))
                })
                .holds()
    }

    /// Whether a bitboard test holds here.
    #[inline]
    fn bit_test(&self, t: &BitTest<W>) -> bool {
        let Squares::Words(b) = &self.squares else {
            unreachable!("a plan with bitboard tests is for a board with bitboards")
        };
        t.holds(b, self.poi.and_then(|p| b.bit_of(p)))
    }

    /// Whether `op` has a result here.
    pub(super) fn exists(&mut self, op: &Op<W>) -> bool {
        match op {
            Op::Nil => true,
            Op::Fail => false,
            Op::Rules(rules) => rules.iter().any(|r| self.rule_applies(r)),
            Op::Probe {
                always,
                reads: bs,
                bits,
                ..
            } => match self.poi {
                Some(p) => {
                    *always
                        || match (bits, &self.squares) {
                            (Some(probe), Squares::Words(b)) => {
                                probe.holds(b, b.bit_of(p).expect("the POI is on the board"))
                            }
                            _ => self.probe(bs, p),
                        }
                }
                None => false,
            },
            Op::Bind(code, body) => {
                let outer = self.poi;
                let mut found = false;
                let mut at = 0;
                while let Some(q) = self.next_holding(*code, at, outer) {
                    at = q + 1;
                    self.poi = Some(q);
                    if self.exists(body) {
                        found = true;
                        break;
                    }
                }
                self.poi = outer;
                found
            }
            Op::Alt(arms) => arms.iter().any(|a| self.exists(a)),
            Op::Not(m) => !self.exists(m),
            Op::NotBits(_, t) => !self.bit_test(t),
            Op::Walk(_) | Op::Star(_) => true,
            _ => self.run(op, &mut |_| true),
        }
    }

    /// Hands `prog` to the interpreter on a copy of the board, and makes
    /// each of its results here in turn.
    #[inline(never)]
    fn interpret(&mut self, prog: &crate::semantics::Prog, k: &mut Cont<'_, W>) -> bool {
        let state = State {
            board: self.board.clone(),
            poi: self.poi.map(|i| self.board.square(i)),
        };
        let results = match Eval::default().run(prog, &state) {
            Ok(r) => r,
            Err(Halt::Budget(n)) => {
                self.too_big = Some(n);
                return true;
            }
            Err(Halt::Unknown(never)) => match never {},
            Err(Halt::Memory(_)) => unreachable!("the engine runs without a memory limit"),
        };
        let before = self.poi;
        for r in results {
            let mark = self.mark();
            for i in 0..r.board.cells.len() {
                if r.board.cells[i] != self.board.cells[i] {
                    self.write(i, r.board.cells[i]);
                }
            }
            self.poi = r.poi.map(|q| self.board.index(q).expect("on the board"));
            let stop = k(self);
            self.undo(mark);
            self.poi = before;
            if stop {
                return true;
            }
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A result's fingerprint depends on the board reached, not on the
    /// writes that reached it: two orders agree, undoing restores it, a
    /// square written and written back adds nothing, another board differs.
    #[test]
    fn fingerprints_are_of_boards() {
        let board = crate::semantics::Grid::parse("..../.♖../..♜.", &crate::core::Pieces::chess()).expect("a board");
        let mut ctx = Ctx::<u64>::new(Mailbox::new(&board, 2), &[]);
        let (a, b) = (ctx.board.cells.len() / 2, ctx.board.cells.len() / 2 + 1);
        let mark = ctx.mark();
        ctx.write(a, 7);
        ctx.write(b, 9);
        let one = ctx.fingerprint(mark);
        ctx.undo(mark);
        assert_eq!(ctx.fingerprint(mark), 0);
        ctx.write(b, 9);
        ctx.write(a, 3);
        ctx.write(a, 7);
        assert_eq!(ctx.fingerprint(mark), one);
        ctx.write(a, 3);
        assert_ne!(ctx.fingerprint(mark), one);
        let inner = ctx.mark();
        ctx.write(b, 1);
        ctx.undo(inner);
        assert_ne!(ctx.fingerprint(mark), one);
        ctx.write(a, 7);
        assert_eq!(ctx.fingerprint(mark), one);
    }

    fn fp(d: &Diff) -> u64 {
        d.iter().fold(0u64, |h, &w| h.wrapping_add(key(w)))
    }

    /// Growing keeps every fingerprint; a repeat is refused, also one
    /// differing only in the low bit (counted exactly by the caller).
    #[test]
    fn fingerprints_find_repeats() {
        let mut set = Fingerprints::default();
        for k in 0..1000u64 {
            assert!(set.insert(key(k as u32)));
        }
        assert_eq!(set.len(), 1000);
        assert!((0..1000u64).all(|k| !set.insert(key(k as u32))));
        assert!(!set.insert(key(7) ^ 1));
        set.clear();
        assert_eq!(set.len(), 0);
        assert!(set.insert(key(7)));
    }

    /// Results are the same board whatever the order of their entries;
    /// equal fingerprints alone never merge two different boards.
    #[test]
    fn distinct_results_are_exact() {
        let a: Diff = SmallVec::from_slice(&[1 << 8 | 3, 2 << 8]);
        let b: Diff = SmallVec::from_slice(&[2 << 8, 1 << 8 | 3]);
        let c: Diff = SmallVec::from_slice(&[1 << 8 | 4, 2 << 8]);
        assert_eq!(fp(&a), fp(&b));
        let mut out = Distinct::new(vec![]);
        out.insert((fp(&a), a.clone()));
        out.insert((fp(&b), b));
        out.insert((fp(&c), c.clone()));
        // A forged collision: same fingerprint, another board.
        out.insert((fp(&a), c.clone()));
        assert_eq!(out.items.len(), 3);
        // Past the first table, repeats are still found.
        for k in 0..200u32 {
            let d: Diff = SmallVec::from_slice(&[k << 8 | 1]);
            out.insert((fp(&d), d.clone()));
            out.insert((fp(&d), d));
        }
        assert_eq!(out.items.len(), 203);
    }
}
