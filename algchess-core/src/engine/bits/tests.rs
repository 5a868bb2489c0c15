use super::probe::paths;
use super::*;
use crate::engine::word::Wide;
use crate::semantics::Branch;

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
        shape
            .squares()
            .all(|(x, y)| probe.holds(&bits, (x + shape.width * y) as u32) == by_paths(&t, &cells, shape.width, (x, y)))
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
            let step = Stepped::new(&bits, from as u32, to as u32, v);
            test.holds(&step, poi) == test.holds(&made, poi) && empty.holds(&step, poi) == empty.holds(&made, poi)
        })
    }
    for p in [prop::<u64>, prop::<u128>, prop::<Wide>] {
        quickcheck::QuickCheck::new()
            .tests(300)
            .quickcheck(p as fn(Vec<u8>, u8, u8, Vec<(u8, u8, u8, u8)>) -> bool);
    }
}

/// The squares from which a probe holds once a king has left its
/// square, found all at once (`BitProbe::holding`), are those where the
/// test holds with the king stepped there: on random boxes with one king
/// (put on a random square), leaps and lines of several lengths, for
/// every square it may step to, captures among them. With a second king
/// no one probe decides, and a probe with hops is not answered so.
#[test]
fn a_kings_steps_are_tested_all_at_once() {
    const KING: u8 = 4;
    fn prop<W: Word>(seed: Vec<u8>, w: u8, h: u8, at: u16) -> bool {
        let (shape, mut cells) = random_box::<W>(&seed, w, h, &[ROOK, KNIGHT, PAWN, Code::OFF]);
        let n = cells.len();
        let from = usize::from(at) % n;
        cells[from] = KING;
        let mut t: Vec<Branch> = tree().into_iter().filter(|b| b.set != set(&[ROOK, KNIGHT])).collect();
        t.retain(|b| !(b.at == Square::new(0, -1) || b.at == Square::new(1, 0) || b.at == Square::new(1, -1)));
        t.push(read(-1, 2, &[KING], vec![]));
        let probe = BitProbe::<W>::new(&t, shape).expect("leaps and lines");
        let test = BitTest::new(vec![Part::Bound(KING, Some(probe))]);
        let index = |x, y| (x + shape.width * y) as usize;
        let bits = Bits::new(&cells, shape, &Slots::default(), index);
        let (from, all) = (from as u32, W::below(n as u32));
        let Some(holding) = test
            .decided_by(&bits, from, KING)
            .and_then(|p| p.holding(&bits, W::bit(from), all))
        else {
            return false;
        };
        let each = (0..n as u32).filter(|&to| to != from).all(|to| {
            let attacked = !(holding & W::bit(to)).is_zero();
            test.holds(&Stepped::new(&bits, from, to, KING), None) == attacked
        });
        // A second king: its own probe may hold.
        let mut two = cells.clone();
        two[(from as usize + 1) % n] = KING;
        let two = Bits::new(&two, shape, &Slots::default(), index);
        each && (n < 2 || test.decided_by(&two, from, KING).is_none())
    }
    for p in [prop::<u64>, prop::<u128>, prop::<Wide>] {
        quickcheck::QuickCheck::new()
            .tests(300)
            .quickcheck(p as fn(Vec<u8>, u8, u8, u16) -> bool);
    }
    let shape = BoxShape { width: 8, height: 8 };
    let hops = BitProbe::<u64>::new(&tree(), shape).expect("leaps, lines and hops");
    let bits = Bits::new(&[Code::EMPTY; 64], shape, &Slots::default(), |x, y| {
        (x + 8 * y) as usize
    });
    assert!(hops.holding(&bits, 0, u64::MAX).is_none());
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
    let mut ray = BitRay::new(Square::new(0, 1), 7, CellSet::default(), shape).expect("a line");
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
        ra.iter().any(|r| Arc::ptr_eq(r, &ray.line.masks)),
        "the rook's line up is the test's"
    );
    // Distinct rows stay distinct.
    assert!(!Arc::ptr_eq(&a.leaps[0].masks, &ray.line.masks));
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
