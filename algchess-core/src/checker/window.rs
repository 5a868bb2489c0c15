//! The window of a move anchored on the POI: every square, relative to the
//! POI it starts from, that running it may read or write.
//!
//! A rule holding `%` has one place to apply: where its `%` lands on the
//! POI. A move built from such rules with `;`, `|`, `not` and counted
//! repetition (no binder, no unbounded repetition) therefore reads and
//! writes only the squares of a finite set `W` around the POI it starts
//! from, following the POI as rules move it.
//!
//! **The small-model bound.** Let `M` and `N` have windows `W(M)` and
//! `W(N)`, and let `B` be the box around `W(M) ∪ W(N) ∪ {0}`. Then
//! `M = N` on every state with a POI iff `M = N` on every state whose
//! board lies in `B` with the POI at `0` (with the POI's content given,
//! for the body of a binder). *Argument:* translation moves every rule
//! with its POI, so take the POI at `0`. A run of `M` from `(X, 0)` asks
//! only what squares of `W(M)` hold (a piece, `.`, `#`), and changes only
//! squares of `W(M)`; so `⟦M⟧(X, 0)` is `X` with the same edits as
//! `⟦M⟧(X|B, 0)` makes to `X|B`, the board cut to `B` (squares outside
//! it off the board, which no run asks about). Two runs on `X` give equal
//! states iff they give equal edits, so `M` and `N` differ on `X` iff
//! they differ on `X|B`. The checker enumerates every board in `B` as
//! cubes split only on squares a run reads, with pieces the claim does
//! not name standing for one another as in every search, so this is a
//! decision: complete, not evidence.

use crate::geometry::Square;
use crate::ir::Cell;
use crate::semantics::{Pivot, Prog};
use std::collections::BTreeSet;

/// The most squares a window may have, and the most its box may hold:
/// past them the box search is kept.
const MOST_SQUARES: usize = 256;
const MOST_BOX: i64 = 4096;
/// The most a counted repetition is unrolled.
const MOST_REPEATS: u32 = 64;

/// The squares a move anchored on the POI may read or write, relative to
/// where the POI starts; `None` when the move is not anchored (a rule
/// without `%`, a binder, an unbounded repetition) or the window is too
/// large.
pub(crate) fn window(p: &Prog) -> Option<BTreeSet<Square>> {
    let mut touched = BTreeSet::new();
    go(p, &BTreeSet::from([Square::ORIGIN]), &mut touched)?;
    (touched.len() <= MOST_SQUARES).then_some(touched)
}

/// Where the POI may be after `p` from each of `starts`; adds the squares
/// read or written to `touched`.
fn go(p: &Prog, starts: &BTreeSet<Square>, touched: &mut BTreeSet<Square>) -> Option<BTreeSet<Square>> {
    if touched.len() > MOST_SQUARES {
        return None;
    }
    match p {
        Prog::Nil => Some(starts.clone()),
        Prog::Fail => Some(BTreeSet::new()),
        Prog::Rules(rules) => {
            let mut ends = BTreeSet::new();
            for r in rules {
                let anchor = match r.pivot {
                    Pivot::Anchor(a) => a,
                    // Only `#` cells: the identity, reading nothing.
                    Pivot::Identity => {
                        ends.extend(starts.iter().copied());
                        continue;
                    }
                    _ => return None,
                };
                for &s in starts {
                    let t = s - anchor;
                    let squares = r.guard.iter().map(|(q, _)| *q);
                    let written = r.writes.iter().map(|(q, _)| *q);
                    touched.extend(squares.chain(written).chain(r.offs.iter().copied()).map(|q| q + t));
                    let moved = r.writes.iter().find(|(_, c)| *c == Cell::Poi).map(|(q, _)| *q + t);
                    let cleared = r.writes.iter().any(|(q, _)| *q == anchor);
                    // With nothing written on it, the POI stays; written
                    // over, it is gone, and anchored rules no longer apply.
                    match (moved, cleared) {
                        (Some(to), _) => ends.insert(to),
                        (None, false) => ends.insert(s),
                        (None, true) => false,
                    };
                }
            }
            Some(ends)
        }
        Prog::Seq(a, b) => {
            let mid = go(a, starts, touched)?;
            go(b, &mid, touched)
        }
        Prog::Alt(arms) => {
            let mut ends = BTreeSet::new();
            for a in arms {
                ends.extend(go(a, starts, touched)?);
            }
            Some(ends)
        }
        Prog::Repeat(m, bounds) => {
            let hi = bounds.hi.filter(|&h| h <= MOST_REPEATS)?;
            let mut at = starts.clone();
            let mut ends = if bounds.lo == 0 {
                starts.clone()
            } else {
                BTreeSet::new()
            };
            for k in 1..=hi {
                at = go(m, &at, touched)?;
                if k >= bounds.lo {
                    ends.extend(at.iter().copied());
                }
            }
            Some(ends)
        }
        Prog::Not(m) => {
            go(m, starts, touched)?;
            Some(starts.clone())
        }
        // A probe answers as the program it stands for.
        Prog::Probe(m, _) | Prog::Count(m, ..) => go(m, starts, touched),
        Prog::Bind(..) | Prog::Greedy(_) => None,
    }
}

/// The box around a set of squares and the POI's start: its corner, width
/// and height; `None` past the largest box searched.
pub(crate) fn bounding(squares: &BTreeSet<Square>) -> Option<(Square, i32, i32)> {
    let all = squares.iter().chain([&Square::ORIGIN]);
    let (mut lo, mut hi) = (Square::ORIGIN, Square::ORIGIN);
    for q in all {
        lo = Square::new(lo.x.min(q.x), lo.y.min(q.y));
        hi = Square::new(hi.x.max(q.x), hi.y.max(q.y));
    }
    let (w, h) = (hi.x as i64 - lo.x as i64 + 1, hi.y as i64 - lo.y as i64 + 1);
    (w * h <= MOST_BOX).then_some((lo, w as i32, h as i32))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::elab::Program;
    use crate::semantics::compile;

    fn window_of(text: &str) -> Option<BTreeSet<Square>> {
        let p = Program::from_text("w.alg", &format!("m = {text}\n")).unwrap();
        let (_, t) = p.definitions().next().unwrap();
        window(&compile(t).unwrap())
    }

    fn squares(v: &[(i32, i32)]) -> BTreeSet<Square> {
        v.iter().map(|&(x, y)| Square::new(x, y)).collect()
    }

    #[test]
    fn a_window_follows_the_poi() {
        // A step up, twice: the squares up to two above.
        let up = "(% + u. -> . + u%)";
        assert_eq!(window_of(up), Some(squares(&[(0, 0), (0, 1)])));
        assert_eq!(
            window_of(&format!("{up}{{1,2}}")),
            Some(squares(&[(0, 0), (0, 1), (0, 2)]))
        );
        // A test reads its squares and leaves the POI where it was.
        assert_eq!(
            window_of(&format!("not (% + r♙ -> 0) {up}")),
            Some(squares(&[(0, 0), (1, 0), (0, 1)]))
        );
        // A knight's leap and back.
        let n = "(% + uur. -> . + uur%)";
        let back = "(% + ddl. -> . + ddl%)";
        assert_eq!(window_of(&format!("{n} {back}")), Some(squares(&[(0, 0), (1, 2)])));
    }

    #[test]
    fn moves_not_anchored_have_no_window() {
        for text in [
            "(% + u. -> . + u%)*",
            "♙ -> ♟",
            "%♖: (% + u. -> . + u%)",
            "(% + u. -> . + u%)*!",
        ] {
            assert_eq!(window_of(text), None, "{text}");
        }
    }

    /// The bound on random anchored moves: a claim decided equal on its
    /// window's box is not refuted by a search of larger boxes, without
    /// the window; and both outcomes are met often enough to matter.
    #[test]
    fn the_window_bound_agrees_with_a_deeper_search() {
        use crate::checker::enumerate::{compare, EnumerationOptions, Outcome};
        use crate::ir::{gen, Pieces, Term};
        let (mut equal, mut deeper, mut differ) = (0, 0, 0);
        for seed in 0..3000u64 {
            let mut g = crate::rng::Rng::new(seed);
            let (lt, rt) = (gen::a_move(&mut g, 2), gen::a_move(&mut g, 2));
            let rt = match seed % 3 {
                0 => Term::alt(&lt, &rt),
                1 => Term::alt(&rt, &lt),
                _ => rt,
            };
            let (Ok(l), Ok(r)) = (compile(&lt), compile(&rt)) else {
                continue;
            };
            if !(lt.is_open() || rt.is_open()) || window(&l).is_none() || window(&r).is_none() {
                continue;
            }
            let options = EnumerationOptions {
                max_cells: 1,
                work: Some(2_000_000),
                ..EnumerationOptions::default()
            };
            let bound = match compare(&Pieces::chess(), &l, &r, true, &options, &|_, _, _| {}) {
                Outcome::HoldsUpTo { bound: Some(b), .. } => b,
                Outcome::Refuted { .. } => {
                    differ += 1;
                    continue;
                }
                _ => continue,
            };
            equal += 1;
            let deep = EnumerationOptions {
                max_cells: (bound.squares() + 3).min(10),
                work: Some(2_000_000),
                window: false,
                ..EnumerationOptions::default()
            };
            match compare(&Pieces::chess(), &l, &r, true, &deep, &|_, _, _| {}) {
                Outcome::Refuted { counterexample, .. } => panic!(
                    "{lt:?} = {rt:?}: decided on {}×{} but differs on {:?}",
                    bound.width, bound.height, counterexample.board
                ),
                Outcome::HoldsUpTo {
                    cells, stopped: None, ..
                } if cells > bound.squares() => deeper += 1,
                _ => {}
            }
            if equal >= 100 && differ >= 50 {
                break;
            }
        }
        assert!(
            equal >= 100 && deeper >= 80 && differ >= 50,
            "{equal} decided equal ({deeper} searched deeper in full), {differ} refuted"
        );
    }

    /// The POI written over is gone: nothing after it reads a square.
    #[test]
    fn a_cleared_poi_ends_the_window() {
        assert_eq!(window_of("(% -> .) (% + u. -> . + u%)"), Some(squares(&[(0, 0)])));
    }
}
