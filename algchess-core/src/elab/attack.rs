//! `attacked_by(M, T)`: whether a piece `T` standing on the POI's square
//! could be taken by a move of `M`, read off `M`'s own captures.
//!
//! A capture is a step of a bound piece (`%p: ...`) by a rule whose guard
//! reads a piece of `T` on a square that the rule then overwrites. The
//! walks before it (`(% + e. -> . + e%)*` and single steps over empty
//! squares) are reversed: from the square taken, back along the walk, to
//! the piece `p`. A walk of any length stays a walk, `(% + e. -> . +
//! e%)*`, so the test follows the board's size and the engine runs it as a
//! line. What follows a capture in its sequence does not matter (a pinned
//! piece still attacks), so the test is the one chess's check needs.
//!
//! The test is `not not R`, where `R` moves a token along the reversed
//! walks: `R` has a result exactly when some capture fits, and the double
//! `not` keeps the board and the POI as they were.

use crate::geometry::Square;
use crate::ir::{Bounds, Cell, Content, Fragment, Node, Pattern, PieceId, Pieces, Term};

/// The longest walk looked at when checking that a capture's guards do not
/// read the squares its own walk passes over.
const WALK_CHECK: u32 = 16;

/// A walk of `lo..=hi` steps (`hi` `None`: any number) along `step`.
#[derive(Clone, Copy, Debug)]
struct Seg {
    step: Square,
    lo: u32,
    hi: Option<u32>,
}

/// One fragment pair of a rule, as a capture sees it.
enum Pair {
    /// `% + e. -> . + e%`.
    Walk(Square),
    /// Takes a piece of `T` at each of these squares (relative to the POI),
    /// reading the rest of the guard where it stands.
    Capture(Vec<Square>, Fragment, Fragment),
    /// A capture by a rule with no `%`.
    Loose,
    /// Anything else: no capture, and not a walk.
    Other,
}

/// Why the attacks cannot be read off a move. Each term is kept short, as
/// the message quotes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum AttackError {
    /// No arm of the move takes a target.
    NoCapture,
    /// A binder's cell is not a known piece.
    UnknownBinder,
    /// A rule whose sides are not closed patterns.
    NotClosed(String),
    /// A capture outside a binder that moves no one piece.
    NoOnePiece(String),
    /// A capture after a step that renames nothing.
    AfterStep(String),
    /// A capture outside any binder.
    OutsideBinder(String),
    /// A capture after a step that is neither a walk nor a capture.
    AfterOther {
        /// The capture.
        capture: String,
        /// The step before it.
        after: String,
    },
    /// A capture inside a binder that does not move the bound piece.
    Loose(String),
    /// A repetition with counts still to be given.
    OpenCounts(String),
    /// A repeated capture.
    RepeatedCapture(String),
    /// A capture inside a test, a nested binder or `*!`.
    Irreversible(String),
    /// A capture that writes a square it does not read.
    WritesUnread(String),
    /// A walk with too many shapes to reverse.
    TooManyShapes,
    /// A capture that reads a square its own walk passes over.
    ReadsOwnPath,
}

impl std::fmt::Display for AttackError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AttackError::NoCapture => f.write_str("no move here takes such a piece"),
            AttackError::UnknownBinder => f.write_str("a binder's piece is not known"),
            AttackError::NotClosed(t) => write!(f, "`{t}` is not a closed rule"),
            AttackError::NoOnePiece(t) => write!(
                f,
                "`{t}` takes a piece but moves no one piece; captures are read from pieces that move"
            ),
            AttackError::AfterStep(t) => write!(
                f,
                "`{t}` takes a piece after a step that is not a renaming `(A -> B)*!`; captures are read from the moves of bound pieces"
            ),
            AttackError::OutsideBinder(t) => write!(
                f,
                "`{t}` takes a piece outside a binder `%p: ...`; captures are read from the moves of bound pieces"
            ),
            AttackError::AfterOther { capture, after } => write!(
                f,
                "the capture in `{capture}` follows `{after}`, which is neither a walk over empty squares nor a capture"
            ),
            AttackError::Loose(t) => write!(f, "`{t}` takes a piece without `%` inside a binder"),
            AttackError::OpenCounts(t) => write!(f, "`{t}` has open counts"),
            AttackError::RepeatedCapture(t) => write!(
                f,
                "`{t}` repeats a capture; only walks over empty squares may come before a capture"
            ),
            AttackError::Irreversible(t) => write!(
                f,
                "`{t}` takes a piece inside a form that cannot be reversed (a test, a nested binder or `*!`)"
            ),
            AttackError::WritesUnread(t) => write!(
                f,
                "`{t}` writes a square it does not read; the attack test cannot tell whether it is on the board"
            ),
            AttackError::TooManyShapes => f.write_str("the walk before this capture has too many shapes to reverse"),
            AttackError::ReadsOwnPath => {
                f.write_str("a capture reads a square its own walk passes over; write the attack test by hand")
            }
        }
    }
}

impl std::error::Error for AttackError {}

/// The test `attacked_by(m, targets)`, or why it cannot be read off `m`.
pub(crate) fn attacked_by(m: &Term, targets: &[Content], pieces: &Pieces) -> Result<Term, AttackError> {
    let d = Derive {
        targets,
        pieces,
        relabel: vec![],
    };
    let mut out = vec![];
    d.top(m, &mut out)?;
    if out.is_empty() {
        return Err(AttackError::NoCapture);
    }
    let any = out.iter().skip(1).fold(out[0].clone(), |acc, t| Term::alt(&acc, t));
    Ok(Term::not(&Term::not(&any)))
}

/// The pieces a move moves, as [`attacked_by`] reads them: its binders'
/// (`%♕: ...`), and those rules outside any binder move (`♘ + uur. ->
/// . + uur♘`), in order; renamings before the moves pass over.
pub(crate) fn moved_pieces(m: &Term) -> Vec<PieceId> {
    fn go(m: &Term, out: &mut Vec<PieceId>) {
        match m.node() {
            Node::Alt([a, b]) => {
                go(a, out);
                go(b, out);
            }
            Node::Bind([c, _]) => {
                if let Node::Cell(Content::Piece(p)) = c.node() {
                    out.push(*p);
                }
            }
            Node::Rule([f, g]) => {
                if let (Some(fs), Some(gs)) = (f.as_pattern(), g.as_pattern()) {
                    for f in fs.members() {
                        for g in gs.members() {
                            if let Some((Content::Piece(p), _, _)) = anchored(f, g) {
                                out.push(p);
                            }
                        }
                    }
                }
            }
            Node::Seq(_) => {
                let mut items = vec![];
                m.push_steps(&mut items);
                if let Some(first) = items.iter().find(|t| renames(t).is_none()) {
                    go(first, out);
                }
            }
            _ => {}
        }
    }
    let mut out = vec![];
    go(m, &mut out);
    let mut seen = vec![];
    out.retain(|p| {
        let new = !seen.contains(p);
        seen.push(*p);
        new
    });
    out
}

struct Derive<'a> {
    targets: &'a [Content],
    /// How the pieces are spelled, for messages.
    pieces: &'a Pieces,
    /// Pieces renamed before the moves, `(A -> B)*!` (chess's pawn that
    /// may no longer be taken en passant): a square reading `B` reads `A`
    /// too as the board stands, and one reading `A` reads nothing.
    relabel: Vec<(Content, Content)>,
}

fn frag(cells: &[(Square, Cell)]) -> Fragment {
    Fragment::from_cells(cells.iter().copied()).expect("distinct squares")
}

fn holds(p: &Pattern) -> Term {
    let t = Term::pattern(p.clone());
    Term::rule(&t, &t)
}

/// `% + s. -> . + s%`.
fn walk(s: Square) -> Term {
    let f = frag(&[(Square::ORIGIN, Cell::Poi), (s, Cell::EMPTY)]);
    let g = frag(&[(Square::ORIGIN, Cell::EMPTY), (s, Cell::Poi)]);
    Term::rule(&Term::fragment(f), &Term::fragment(g))
}

fn walks(s: Square, lo: u32, hi: Option<u32>) -> Term {
    Term::repeat(&walk(s), Bounds { lo, hi })
}

/// `(A -> B)*!` with `A` and `B` pieces on one square each (or a union of
/// such rules): the renamings `(A, B)`.
fn renames(t: &Term) -> Option<Vec<(Content, Content)>> {
    let Node::Greedy([body]) = t.node() else { return None };
    let mut rules = vec![];
    body.push_alternatives(&mut rules);
    let mut out = vec![];
    for r in rules {
        let Node::Rule([f, g]) = r.node() else { return None };
        let (fs, gs) = (f.as_pattern()?, g.as_pattern()?);
        for f in fs.members() {
            for g in gs.members() {
                let one = |x: &Fragment| match x.cells().collect::<Vec<_>>()[..] {
                    [(q, Cell::Is(c @ Content::Piece(_)))] => Some((q, c)),
                    _ => None,
                };
                let ((q, from), (r, to)) = (one(f)?, one(g)?);
                if q != r {
                    return None;
                }
                out.push((from, to));
            }
        }
    }
    Some(out)
}

/// A rule with no `%` that moves one piece `p` (`p` read at one square and
/// left empty there, written at one other): `p`, and the rule with `%` for
/// the piece, as a binder `%p:` would run it.
fn anchored(f: &Fragment, g: &Fragment) -> Option<(Content, Fragment, Fragment)> {
    let (s, p) = f.cells().find_map(|(q, c)| match c {
        Cell::Is(p @ Content::Piece(_)) if g.get(q) == Some(Cell::EMPTY) => Some((q, p)),
        _ => None,
    })?;
    let to: Vec<Square> = g
        .cells()
        .filter(|(q, c)| *c == Cell::Is(p) && f.get(*q) != Some(Cell::Is(p)))
        .map(|(q, _)| q)
        .collect();
    let [t] = to[..] else { return None };
    let f = Fragment::from_cells(f.cells().map(|(q, c)| if q == s { (q, Cell::Poi) } else { (q, c) })).ok()?;
    let g = Fragment::from_cells(g.cells().map(|(q, c)| if q == t { (q, Cell::Poi) } else { (q, c) })).ok()?;
    Some((p, f, g))
}

/// A text, cut short for a message.
fn short(t: &impl std::fmt::Display) -> String {
    let s = t.to_string();
    match s.char_indices().nth(60) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s,
    }
}

impl Derive<'_> {
    /// The captures of a move outside any binder: its binders' only.
    fn top(&self, m: &Term, out: &mut Vec<Term>) -> Result<(), AttackError> {
        match m.node() {
            Node::Alt([a, b]) => {
                self.top(a, out)?;
                self.top(b, out)
            }
            Node::Bind([c, body]) => {
                let Node::Cell(p) = c.node() else {
                    return Err(AttackError::UnknownBinder);
                };
                let mut items = vec![];
                body.push_steps(&mut items);
                self.arm(*p, &items, vec![], out)
            }
            Node::Nil | Node::Fail => Ok(()),
            Node::Rule([f, g]) => {
                let (Some(fs), Some(gs)) = (f.as_pattern(), g.as_pattern()) else {
                    return Err(AttackError::NotClosed(short(&self.pieces.show(m))));
                };
                for f in fs.members() {
                    for g in gs.members() {
                        if !matches!(self.pair(f, g), Pair::Loose) {
                            continue;
                        }
                        let Some((p, f, g)) = anchored(f, g) else {
                            return Err(AttackError::NoOnePiece(short(&format!(
                                "{} -> {}",
                                self.pieces.show(&f),
                                self.pieces.show(&g)
                            ))));
                        };
                        if let Pair::Capture(at, f, g) = self.pair(&f, &g) {
                            for c in at {
                                let t = self.reversed(p, &[], &f, &g, c)?;
                                if !out.contains(&t) {
                                    out.push(t);
                                }
                            }
                        }
                    }
                }
                Ok(())
            }
            Node::Seq(_) => {
                let mut items = vec![];
                m.push_steps(&mut items);
                let mut relabel = self.relabel.clone();
                let mut k = 0;
                while k + 1 < items.len() {
                    match renames(&items[k]) {
                        Some(r) => relabel.extend(r),
                        None => break,
                    }
                    k += 1;
                }
                let movable = |t: &Term| matches!(t.node(), Node::Alt(_) | Node::Bind(_) | Node::Rule(_));
                match &items[k..] {
                    // What follows the moves comes after their captures.
                    [one, ..] if movable(one) => Derive {
                        targets: self.targets,
                        pieces: self.pieces,
                        relabel,
                    }
                    .top(one, out),
                    _ if self.captures(m) => Err(AttackError::AfterStep(short(&self.pieces.show(m)))),
                    _ => Ok(()),
                }
            }
            _ if self.captures(m) => Err(AttackError::OutsideBinder(short(&self.pieces.show(m)))),
            _ => Ok(()),
        }
    }

    /// The captures of the sequence `items` of a piece `p` that has walked
    /// `prefix` so far.
    fn arm(&self, p: Content, items: &[Term], prefix: Vec<Seg>, out: &mut Vec<Term>) -> Result<(), AttackError> {
        let Some((first, rest)) = items.split_first() else {
            return Ok(());
        };
        let stop = |what: &Term| -> Result<(), AttackError> {
            match rest.iter().find(|t| self.captures(t)) {
                Some(t) => Err(AttackError::AfterOther {
                    capture: short(&self.pieces.show(t)),
                    after: short(&self.pieces.show(what)),
                }),
                None => Ok(()),
            }
        };
        match first.node() {
            Node::Nil => self.arm(p, rest, prefix, out),
            Node::Fail => Ok(()),
            Node::Seq(_) => {
                let mut items = vec![];
                first.push_steps(&mut items);
                items.extend_from_slice(rest);
                self.arm(p, &items, prefix, out)
            }
            Node::Alt(_) => {
                let mut arms = vec![];
                first.push_alternatives(&mut arms);
                for a in arms {
                    let mut items = vec![a];
                    items.extend_from_slice(rest);
                    self.arm(p, &items, prefix.clone(), out)?;
                }
                Ok(())
            }
            Node::Rule([f, g]) => {
                let (Some(fs), Some(gs)) = (f.as_pattern(), g.as_pattern()) else {
                    return Err(AttackError::NotClosed(short(&self.pieces.show(first))));
                };
                let mut other = false;
                for f in fs.members() {
                    for g in gs.members() {
                        match self.pair(f, g) {
                            Pair::Walk(e) => {
                                let mut walked = prefix.clone();
                                walked.push(Seg {
                                    step: e,
                                    lo: 1,
                                    hi: Some(1),
                                });
                                self.arm(p, rest, walked, out)?;
                            }
                            Pair::Capture(at, f, g) => {
                                for c in at {
                                    let t = self.reversed(p, &prefix, &f, &g, c)?;
                                    if !out.contains(&t) {
                                        out.push(t);
                                    }
                                }
                            }
                            Pair::Loose => return Err(AttackError::Loose(short(&self.pieces.show(first)))),
                            Pair::Other => other = true,
                        }
                    }
                }
                if other {
                    stop(first)?;
                }
                Ok(())
            }
            Node::Repeat([body, ..]) => {
                let bounds = first
                    .bounds()
                    .ok_or_else(|| AttackError::OpenCounts(short(&self.pieces.show(first))))?;
                let step = match body.node() {
                    Node::Rule([f, g]) => match (f.as_pattern(), g.as_pattern()) {
                        (Some(fs), Some(gs)) => match (fs.as_fragment(), gs.as_fragment()) {
                            (Some(f), Some(g)) => match self.pair(f, g) {
                                Pair::Walk(e) => Some(e),
                                _ => None,
                            },
                            _ => None,
                        },
                        _ => None,
                    },
                    _ => None,
                };
                match step {
                    Some(e) => {
                        let mut walked = prefix;
                        walked.push(Seg {
                            step: e,
                            lo: bounds.lo,
                            hi: bounds.hi,
                        });
                        self.arm(p, rest, walked, out)
                    }
                    None if self.captures(body) => Err(AttackError::RepeatedCapture(short(&self.pieces.show(first)))),
                    None => stop(first),
                }
            }
            _ if self.captures(first) => Err(AttackError::Irreversible(short(&self.pieces.show(first)))),
            _ => stop(first),
        }
    }

    /// The fragment of these cells as the board stands before the
    /// renamings: a renamed piece read where its new name is; `None` when
    /// a cell reads a piece renamed away.
    fn read(&self, cells: &[(Square, Cell)]) -> Option<Pattern> {
        let mut out = Pattern::single(Fragment::empty());
        for &(q, cell) in cells {
            let mut names = vec![];
            match cell {
                Cell::Is(c @ Content::Piece(_)) => {
                    if !self.relabel.iter().any(|(from, _)| *from == c) {
                        names.push(c);
                    }
                    names.extend(self.relabel.iter().filter(|(_, to)| *to == c).map(|(from, _)| *from));
                }
                _ => {
                    out = out.glue(&Pattern::single(frag(&[(q, cell)]))).ok()?;
                    continue;
                }
            }
            let mut alts = names.iter().map(|c| Pattern::single(frag(&[(q, Cell::Is(*c))])));
            let first = alts.next()?;
            let any = alts.fold(first, |acc, p| acc.union(&p));
            out = out.glue(&any).ok()?;
        }
        Some(out)
    }

    /// Whether `t` has a rule that takes a piece of `T` (a test writes
    /// nothing).
    fn captures(&self, t: &Term) -> bool {
        match t.node() {
            Node::Not(_) => false,
            Node::Rule([f, g]) => match (f.as_pattern(), g.as_pattern()) {
                (Some(fs), Some(gs)) => fs.members().any(|f| {
                    gs.members()
                        .any(|g| matches!(self.pair(f, g), Pair::Capture(..) | Pair::Loose))
                }),
                _ => false,
            },
            _ => t.children().iter().any(|c| self.captures(c)),
        }
    }

    fn pair(&self, f: &Fragment, g: &Fragment) -> Pair {
        let Some(a) = f.poi() else {
            let takes = f.cells().any(|(q, c)| {
                matches!(c, Cell::Is(t @ Content::Piece(_)) if self.targets.contains(&t))
                    && matches!(g.get(q), Some(w) if w != c)
            });
            return if takes { Pair::Loose } else { Pair::Other };
        };
        let to_origin = crate::geometry::Movement::translation(-a.x, -a.y);
        let (f, g) = (f.shifted(&to_origin), g.shifted(&to_origin));
        if f.len() == 2 && g.len() == 2 && g.get(Square::ORIGIN) == Some(Cell::EMPTY) {
            if let Some((e, _)) = f.cells().find(|(q, c)| *q != Square::ORIGIN && *c == Cell::EMPTY) {
                if g.get(e) == Some(Cell::Poi) {
                    return Pair::Walk(e);
                }
            }
        }
        let fc: Vec<(Square, Cell)> = f.cells().collect();
        let taken: Vec<Square> = fc
            .iter()
            .filter(|(q, c)| {
                matches!(c, Cell::Is(t @ Content::Piece(_)) if self.targets.contains(t))
                    && matches!(g.get(*q), Some(w) if w != *c)
            })
            .map(|(q, _)| *q)
            .collect();
        if taken.is_empty() {
            Pair::Other
        } else {
            Pair::Capture(taken, f, g)
        }
    }

    /// The reversed path of a capture at `c` (relative to the POI before
    /// the capturing rule `f -> g`, which is anchored at the origin) by
    /// `p` after walking `prefix`, as a token walk from the square taken.
    fn reversed(&self, p: Content, prefix: &[Seg], f: &Fragment, g: &Fragment, c: Square) -> Result<Term, AttackError> {
        // Squares relative to the square taken (`X`): the capture's POI
        // stood at `-c`.
        let rel = |q: Square| Square::new(q.x - c.x, q.y - c.y);
        let mut guard = vec![(Square::ORIGIN, Cell::Poi)];
        for (q, cell) in f.cells() {
            if q != Square::ORIGIN && q != c {
                guard.push((rel(q), cell));
            }
        }
        for (q, cell) in g.cells() {
            if f.get(q).is_none() {
                if cell != Cell::Off {
                    return Err(AttackError::WritesUnread(short(&format!(
                        "{} -> {}",
                        self.pieces.show(&f),
                        self.pieces.show(&g)
                    ))));
                }
                guard.push((rel(q), Cell::Off));
            }
        }
        self.check_path(prefix, c, &guard)?;
        let back = -c;
        let fail = Ok(Term::fail());
        let Some(start) = self.read(&[(Square::ORIGIN, Cell::Poi), (back, Cell::Is(p))]) else {
            return fail;
        };
        let Some(guarded) = self.read(&guard) else { return fail };
        // No walk: the piece stands where the capture starts.
        let still = prefix.iter().all(|s| s.lo == 0);
        let mut arms = vec![];
        if still {
            let mut cells = guard.clone();
            cells.push((back, Cell::Is(p)));
            if let Some(both) = self.read(&cells) {
                arms.push(holds(&both));
            }
        }
        let guard_test = (guard.len() > 1).then(|| holds(&guarded));
        // A walk along the capture's own step: one line, the piece
        // standing next to the square taken among its lengths.
        if let [w] = prefix {
            if w.step == c && w.hi != Some(0) {
                let line = Term::seq(&walks(back, w.lo, w.hi), &holds(&start));
                return Ok(match &guard_test {
                    Some(t) => Term::seq(t, &line),
                    None => line,
                });
            }
        }
        // The token steps back to where the capture started, then along
        // each walk in reverse; the last step lands on the piece.
        let reversed: Vec<Seg> = prefix.iter().rev().map(|s| Seg { step: -s.step, ..*s }).collect();
        let finals = |s: Square| {
            self.read(&[(Square::ORIGIN, Cell::Poi), (s, Cell::Is(p))])
                .map(|f| holds(&f))
        };
        for j in 0..reversed.len() {
            let s = reversed[j];
            let Some(last) = finals(s.step) else { continue };
            if s.hi == Some(0) || reversed[j + 1..].iter().any(|t| t.lo > 0) {
                continue;
            }
            let mut t = walk(back);
            for w in &reversed[..j] {
                t = Term::seq(&t, &walks(w.step, w.lo, w.hi));
            }
            t = Term::seq(&t, &walks(s.step, s.lo.max(1) - 1, s.hi.map(|h| h - 1)));
            t = Term::seq(&t, &last);
            arms.push(match &guard_test {
                Some(g) => Term::seq(g, &t),
                None => t,
            });
        }
        Ok(arms
            .into_iter()
            .reduce(|a, b| Term::alt(&a, &b))
            .unwrap_or_else(Term::fail))
    }

    /// The capture's guards and the square taken must not be squares its
    /// own walk passes over: the walk empties them as it goes, and the test
    /// reads the board as it stands.
    fn check_path(&self, prefix: &[Seg], c: Square, guard: &[(Square, Cell)]) -> Result<(), AttackError> {
        // Every square the walk may pass, relative to the square taken,
        // walking back from the capture's start.
        let mut at: Vec<Square> = vec![-c];
        let mut passed: Vec<Square> = vec![];
        for s in prefix.iter().rev() {
            let hi = s.hi.unwrap_or(WALK_CHECK).min(WALK_CHECK);
            let mut next = vec![];
            for q in &at {
                for k in s.lo..=hi {
                    let mut r = *q;
                    for _ in 0..k {
                        r = Square::new(r.x - s.step.x, r.y - s.step.y);
                        passed.push(r);
                    }
                    next.push(r);
                }
            }
            next.sort();
            next.dedup();
            if next.len() > 10_000 {
                return Err(AttackError::TooManyShapes);
            }
            at = next;
        }
        let bad = |q: &Square| *q == Square::ORIGIN || guard.iter().skip(1).any(|(g, _)| g == q);
        if passed.iter().chain(std::iter::once(&-c)).any(bad) {
            return Err(AttackError::ReadsOwnPath);
        }
        Ok(())
    }
}

/// The lint of a game's check tests: for each turn that declares one,
/// the check test (as a test: `not check`) against the attacks read off
/// the next side's moves on the kings the test binds. `None` for a turn
/// whose test is not a union of binders, or whose attacks cannot be read.
/// Each comes with the turn and the kings.
pub(super) fn check_lints(game: &crate::elab::Game, pieces: &Pieces) -> Vec<(usize, Vec<Content>, Term, Term)> {
    let Some(checks) = &game.ends.check else { return vec![] };
    let n = game.turns.len();
    let mut out = vec![];
    for (i, check) in checks.iter().enumerate().take(n) {
        let mut arms = vec![];
        check.push_alternatives(&mut arms);
        let kings: Option<Vec<Content>> = arms
            .iter()
            .map(|a| match a.node() {
                Node::Bind([c, _]) => match c.node() {
                    Node::Cell(k @ Content::Piece(_)) => Some(*k),
                    _ => None,
                },
                _ => None,
            })
            .collect();
        let Some(kings) = kings else { continue };
        let next = &game.turns[(i + 1) % n];
        let derived: Option<Vec<Term>> = kings
            .iter()
            .map(|k| {
                attacked_by(next, std::slice::from_ref(k), pieces)
                    .ok()
                    .map(|t| Term::bind(&Term::content(*k), &t))
            })
            .collect();
        let Some(derived) = derived else { continue };
        let any = derived.into_iter().reduce(|a, b| Term::alt(&a, &b)).expect("a king");
        out.push((i, kings, Term::not(check), Term::not(&any)));
    }
    out
}

#[cfg(test)]
mod tests {
    use crate::ir::Content;
    use crate::semantics::{compile, Eval, Grid, State, Store};

    /// Chess's derived test says a square is attacked exactly when one of
    /// black's moves, run on the board, leaves no white king: on random
    /// boards of 6×6 with one ♔ and a few pieces of both sides, markers
    /// included.
    #[test]
    fn the_derived_test_is_a_capture_of_the_king() {
        let mut prog = crate::testing::load("rules/chess.alg");
        let test = compile(&prog.expr("test", "%♔: attacked").unwrap()).unwrap();
        let replies = compile(&prog.expr("test", "mirrored(clear_ep piece_moves)").unwrap()).unwrap();
        let piece = |s: &str| Content::Piece(prog.pieces().lookup(s).unwrap());
        let king = piece("♔");
        let others: Vec<Content> = ["♟", "'pe", "♞", "♝", "♜", "'rc", "♛", "♚", "'kc", "♙", "'Pe", "♖", "♗"]
            .into_iter()
            .map(piece)
            .collect();
        let pick = |g: &mut crate::rng::Rng, n: usize| g.below(n as u32) as usize;
        let (mut attacked, mut safe) = (0, 0);
        for seed in 0..4000u64 {
            let mut g = crate::rng::Rng::new(seed);
            let mut board = Grid::parse(&["......"; 6].join("\n"), prog.pieces()).unwrap();
            let squares: Vec<_> = board.candidates(Content::Empty).to_vec();
            board.put(squares[pick(&mut g, squares.len())], Some(king));
            for _ in 0..1 + pick(&mut g, 4) {
                let q = squares[pick(&mut g, squares.len())];
                if board.get(q) == Some(Content::Empty) {
                    board.put(q, Some(others[pick(&mut g, others.len())]));
                }
            }
            let s = State { board, poi: None };
            let mut e = Eval::default();
            let derived = e.exists(&test, &s).unwrap();
            let honest = e
                .run(&replies, &s)
                .unwrap()
                .iter()
                .any(|r| r.board.candidates(king).is_empty());
            assert_eq!(derived, honest, "{}", prog.pieces().show(&s.board));
            if derived {
                attacked += 1
            } else {
                safe += 1
            }
        }
        assert!(attacked > 600 && safe > 600, "{attacked} attacked, {safe} safe");
    }
}
