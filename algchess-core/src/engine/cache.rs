//! A search's scratch, apart from the plan it runs (shared, never
//! changed) and the board it runs on: the memos of `not` tests, result
//! lists to fill again, and the fingerprints of a leaf's results. One is
//! made per search or thread and passed in.

use super::board::{Board, Diff};
use super::ids::{MemoId, ProbeId};
use super::plan::{Op, ReadNode};
use super::results::Fingerprints;
use super::word::Word;
use crate::semantics::CellSet;
use smallvec::SmallVec;

/// What a search keeps from one call to the next.
#[derive(Default)]
pub(super) struct Cache {
    /// The memo of each `not` test, by its `MemoId`.
    memos: Vec<Memo>,
    /// The turn being run: a number no other turn had, so memos of an
    /// earlier board are not used.
    epoch: u64,
    /// Counts turns started.
    started: u64,
    /// The trail mark of the board the current turn started from.
    base: Option<usize>,
    /// Result lists done with, to be filled again without allocating.
    pub spare: Vec<Vec<Diff>>,
    /// For counting a leaf's results.
    pub counted: Fingerprints,
    /// For telling apart the results whose leaves are counted
    /// (`Plan::perft_two`).
    pub made: Fingerprints,
}

impl Cache {
    /// The board at `mark` is where a turn starts: tests may be answered
    /// from what they read there.
    pub(super) fn start_turn(&mut self, mark: usize) {
        self.started += 1;
        self.epoch = self.started;
        self.base = Some(mark);
    }

    /// The turn being run, to [`resume`](Cache::resume) after a turn run
    /// inside it (from one of its results). Its memos stay its own: the
    /// inner turn's have numbers it never had.
    pub(super) fn suspend(&self) -> (u64, Option<usize>) {
        (self.epoch, self.base)
    }

    pub(super) fn resume(&mut self, (epoch, base): (u64, Option<usize>)) {
        self.epoch = epoch;
        self.base = base;
    }

    pub(super) fn end_turn(&mut self) {
        self.base = None;
    }

    /// Whether `test`, a `not`'s test numbered `id`, has a result on
    /// `board`, from its memo for this turn (made if need be); `None`
    /// when no memo answers (no turn started, a POI, a shape not followed,
    /// or a change it cannot see past).
    pub(super) fn recall<W: Word>(&mut self, board: &mut Board<W>, test: &Op<W>, id: MemoId) -> Option<bool> {
        let base = self.base?;
        if board.poi.is_some() {
            return None;
        }
        let i = id.0 as usize;
        if i >= self.memos.len() {
            self.memos.resize_with(i + 1, Memo::default);
        }
        let memo = &mut self.memos[i];
        if memo.epoch != self.epoch {
            memo.epoch = self.epoch;
            memo.record(board, test, base);
        }
        memo.answer(board, test, base)
    }
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
#[derive(Default)]
struct Memo {
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

/// A read of a square while recording: its segment, the set it was
/// tested against, and the square's previous test.
#[derive(Clone, Copy)]
struct Test {
    square: u32,
    segment: u32,
    prev: u32,
    set: CellSet,
}

const NONE: u32 = u32::MAX;

/// Nodes `start..end` of probe `probe`'s read tree, walked from `poi`,
/// and what they answered; an empty range, without a probe, for a part
/// that holds reading nothing (`always`, `Nil`).
#[derive(Clone, Copy)]
struct Segment {
    probe: Option<ProbeId>,
    poi: u32,
    start: u32,
    end: u32,
    answer: bool,
}

impl Memo {
    /// Forgets what was recorded, for a board of `cells` squares.
    fn clear(&mut self, cells: usize) {
        if self.head.len() == cells {
            for t in &self.tests {
                self.head[t.square as usize] = NONE;
            }
        } else {
            self.head = vec![NONE; cells];
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

    /// Records `test` on the board as it was at `base` (the turn's), and
    /// leaves the board as it is now.
    fn record<W: Word>(&mut self, board: &mut Board<W>, test: &Op<W>, base: usize) {
        self.clear(board.mailbox.cells.len());
        self.answer = board.rewound(base, |b| self.follow(b, test));
    }

    /// Whether `op` has a result, as `exists` answers, noting what it
    /// reads; `None` for a test of a shape it does not follow.
    fn follow<W: Word>(&mut self, board: &mut Board<W>, op: &Op<W>) -> Option<bool> {
        Some(match op {
            Op::Nil => {
                self.segments.push(Segment {
                    probe: None,
                    poi: 0,
                    start: 0,
                    end: 0,
                    answer: true,
                });
                true
            }
            Op::Fail => false,
            Op::Probe {
                always,
                reads: nodes,
                id,
                ..
            } => match board.poi {
                Some(p) => {
                    let mut seg = Segment {
                        probe: Some(*id),
                        poi: p as u32,
                        start: 0,
                        end: 0,
                        answer: *always,
                    };
                    if *always {
                        self.segments.push(seg);
                        return Some(true);
                    }
                    // One segment per subtree under the root.
                    let len = nodes.len() as u32;
                    while seg.start < len {
                        seg.end = nodes[seg.start as usize].fail.min(len);
                        let k = self.segments.len();
                        seg.answer = board.walk(nodes, seg.start, seg.end, p, |at, set| self.read(at, k, set));
                        self.segments.push(seg);
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
                self.scans.insert_code(*code);
                let outer = board.poi;
                let mut found = Some(false);
                let mut at = 0;
                while let Some(q) = board.next_holding(*code, at, outer) {
                    at = q + 1;
                    board.poi = Some(q);
                    match self.follow(board, body) {
                        Some(false) => {}
                        other => {
                            found = other;
                            break;
                        }
                    }
                }
                board.poi = outer;
                return found;
            }
            Op::Alt(arms) => {
                for a in arms {
                    if self.follow(board, a)? {
                        return Some(true);
                    }
                }
                false
            }
            // A count reads the squares of its codes, as a binder finds
            // its pieces.
            Op::Count(codes, n) => {
                self.scans = self.scans.union(codes.set());
                board.at_least(codes, *n)
            }
            Op::Not { test: m, .. } | Op::NotBits(m, _) => {
                self.any_of = false;
                !self.follow(board, m)?
            }
            _ => return None,
        })
    }

    /// The recorded answer of `test`, when it still answers on `board`
    /// (which the turn changed since `base`).
    fn answer<W: Word>(&self, board: &Board<W>, test: &Op<W>, base: usize) -> Option<bool> {
        let answer = self.answer?;
        let trail = board.written_since(base);
        let mut dirty: SmallVec<[u32; 8]> = SmallVec::new();
        for (k, &(i, before)) in trail.iter().enumerate() {
            // A square's value on the turn's board is its oldest record.
            if trail[..k].iter().any(|(j, _)| *j == i) {
                continue;
            }
            let (i, now) = (i as usize, board.mailbox.cells[i as usize]);
            if now == before {
                continue;
            }
            if self.scans.contains_code(before) || self.scans.contains_code(now) {
                return None;
            }
            for t in self.tests_of(i) {
                if t.set.contains_code(before) != t.set.contains_code(now) {
                    if !self.any_of {
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
        if answer && !dirty.contains(&(self.segments.len() as u32 - 1)) {
            return Some(true);
        }
        for &k in &dirty {
            let s = self.segments[k as usize];
            let nodes = probe_nodes(test, s.probe?)?;
            if board.walk(nodes, s.start, s.end, s.poi as usize, |_, _| {}) {
                return Some(true);
            }
        }
        // All false now; but a true answer stopped the recording, so some
        // segments were never walked.
        (!answer).then_some(false)
    }
}

/// The read tree of probe `id` in `op`.
fn probe_nodes<W>(op: &Op<W>, id: ProbeId) -> Option<&[ReadNode]> {
    match op {
        Op::Probe { reads, id: at, .. } if *at == id => Some(reads),
        Op::Bind(_, m) | Op::Star(m) | Op::Greedy(m) | Op::Not { test: m, .. } | Op::NotBits(m, _) => {
            probe_nodes(m, id)
        }
        Op::Seq(a, b) => probe_nodes(a, id).or_else(|| probe_nodes(b, id)),
        Op::Alt(arms) => arms.iter().find_map(|a| probe_nodes(a, id)),
        _ => None,
    }
}
