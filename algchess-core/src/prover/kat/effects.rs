//! What a move reads and what it may change, as sets of cell values.
//!
//! A square reads as a value: `.`, a piece, `#`, or `%` on the POI's
//! square. A rule matches only squares that read as its guard's values,
//! and writes only squares it reads (else its write set is unknown), so
//! whether and how a move applies depends only on the squares whose values
//! are among its reads, and it changes only squares whose value before and
//! after lies in its changes. Two moves, neither of which changes a value
//! the other reads, touch disjoint squares and commute; a test whose reads
//! a move cannot change keeps its value across the move. `#` never
//! changes: the board's squares are fixed.

use crate::ir::{Cell, Content, Node, Term};
use std::collections::BTreeSet;

/// A set of values, or every value.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct Vals {
    all: bool,
    cells: BTreeSet<Cell>,
}

impl Vals {
    pub(super) fn all() -> Vals {
        Vals {
            all: true,
            cells: BTreeSet::new(),
        }
    }

    pub(super) fn of(cells: impl IntoIterator<Item = Cell>) -> Vals {
        Vals {
            all: false,
            cells: cells.into_iter().collect(),
        }
    }

    pub(super) fn is_all(&self) -> bool {
        self.all
    }

    pub(super) fn contains(&self, c: Cell) -> bool {
        self.all || self.cells.contains(&c)
    }

    fn add(&mut self, c: Cell) {
        self.cells.insert(c);
    }

    fn extend(&mut self, o: &Vals) {
        self.all |= o.all;
        self.cells.extend(o.cells.iter().copied());
    }

    pub(super) fn union(&self, o: &Vals) -> Vals {
        let mut u = self.clone();
        u.extend(o);
        u
    }

    /// Whether the two sets share a value (`all` meets everything but the
    /// empty set).
    pub(super) fn meets(&self, o: &Vals) -> bool {
        match (self.all, o.all) {
            (true, _) => o.all || !o.cells.is_empty(),
            (_, true) => !self.cells.is_empty(),
            _ => self.cells.iter().any(|c| o.cells.contains(c)),
        }
    }

    /// `%` replaced by `c`: a binder's POI is a square holding `c`.
    fn poi_as(&self, c: Cell) -> Vals {
        Vals {
            all: self.all,
            cells: self.cells.iter().map(|&x| if x == Cell::Poi { c } else { x }).collect(),
        }
    }
}

/// What a move reads and changes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct Effects {
    /// The values of the squares whose contents decide what the move does.
    pub reads: Vals,
    /// The values a square the move changes may read before it.
    pub before: Vals,
    /// The values a square the move changes may read after it.
    pub after: Vals,
    /// Whether the move reads what the POI's square holds: a binder inside
    /// it sees that square by its content, which moves when the POI does.
    pub sees_poi: bool,
    /// Whether a value it reads, put on more squares, may take results
    /// away: it asks that something is not there (`not`, or a greedy
    /// repetition's end).
    pub negative: bool,
}

impl Effects {
    fn unknown() -> Effects {
        Effects {
            reads: Vals::all(),
            before: Vals::all(),
            after: Vals::all(),
            sees_poi: true,
            negative: true,
        }
    }

    fn extend(&mut self, o: &Effects) {
        self.reads.extend(&o.reads);
        self.before.extend(&o.before);
        self.after.extend(&o.after);
        self.sees_poi |= o.sees_poi;
        self.negative |= o.negative;
    }

    /// Every value a changed square may read, before or after.
    pub(super) fn changes(&self) -> Vals {
        let mut c = self.before.clone();
        c.extend(&self.after);
        c
    }

    /// Whether the move changes nothing it cannot name.
    pub(super) fn is_known(&self) -> bool {
        !self.before.is_all() && !self.after.is_all()
    }

    /// The effects of a move; `poi` is the POI's content where it is known
    /// (inside a binder).
    pub(super) fn of(t: &Term, poi: Option<Content>) -> Effects {
        let mut e = Effects::default();
        match t.node() {
            Node::Nil | Node::Fail => {}
            Node::Seq([a, b]) | Node::Alt([a, b]) => {
                e.extend(&Effects::of(a, poi));
                e.extend(&Effects::of(b, poi));
            }
            Node::Repeat([a, lo, hi]) if lo.is_closed() && hi.is_closed() => e = Effects::of(a, poi),
            Node::Greedy([a]) => {
                e = Effects::of(a, poi);
                e.negative = true;
            }
            Node::Not([a]) => {
                let inner = Effects::of(a, poi);
                e.reads = inner.reads;
                e.sees_poi = inner.sees_poi;
                e.negative = true;
            }
            Node::Rule([f, g]) => match (f.as_pattern(), g.as_pattern()) {
                (Some(p), Some(q)) => {
                    for f in p.members() {
                        for g in q.members() {
                            rule(f, g, poi, &mut e);
                        }
                    }
                }
                _ => return Effects::unknown(),
            },
            Node::Bind([c, body]) => {
                let Node::Cell(content) = c.node() else {
                    return Effects::unknown();
                };
                let inner = Effects::of(body, Some(*content));
                let c = Cell::Is(*content);
                e.reads = inner.reads.poi_as(c);
                e.reads.add(c);
                e.before = inner.before.poi_as(c);
                e.after = inner.after.poi_as(c);
                e.sees_poi = true;
                e.negative = inner.negative;
            }
            _ => return Effects::unknown(),
        }
        e
    }
}

/// The effects of one rule `f -> g` between fragments.
fn rule(f: &crate::ir::Fragment, g: &crate::ir::Fragment, poi: Option<Content>, e: &mut Effects) {
    if crate::laws::fusion::contradictory(f, g) {
        // It never applies.
        return;
    }
    let content = |c: Option<Content>| match c {
        Some(c) => Vals::of([Cell::Is(c)]),
        None => Vals::all(),
    };
    e.reads.extend(&Vals::of(f.cells().map(|(_, c)| c)));
    if g.poi().is_some() && f.poi().is_none() {
        // The POI jumps to a square the rule does not anchor on.
        *e = Effects::unknown();
        return;
    }
    for (s, c) in g.cells() {
        if c == Cell::Off {
            continue;
        }
        match f.get(s) {
            Some(r) if r == c => {}
            Some(r) => {
                e.before.add(r);
                e.after.add(c);
            }
            // A square written but not read: anything may have stood there.
            None => {
                e.before = Vals::all();
                e.after.add(c);
            }
        }
    }
    // The POI moved away from a square `g` leaves alone: that square now
    // reads as the POI's content.
    if let (Some(s0), Some(s1)) = (f.poi(), g.poi()) {
        if s0 != s1 && g.get(s0).is_none() {
            e.before.add(Cell::Poi);
            e.after.extend(&content(poi));
        }
    }
}

/// Whether two moves with these effects commute: neither changes a value
/// the other reads, and neither moves or unbinds the POI. Then they touch
/// disjoint squares, so either order gives the same boards (see the module
/// doc).
pub(super) fn commute(x: &Effects, y: &Effects) -> bool {
    let poi = Vals::of([Cell::Poi]);
    let free = |e: &Effects| e.is_known() && !e.changes().meets(&poi);
    free(x) && free(y) && !x.changes().meets(&y.reads) && !y.changes().meets(&x.reads)
}

/// Whether `y x` gives only what `x y` gives, for moves with these
/// effects: `y` changes no value `x` reads, so it neither enables nor
/// disables `x` nor touches its squares; and `x` changes no square whose
/// value `y` reads, so `x` run first leaves `y` the squares it used.
/// (`x` may make what `y` reads, a pawn promoted, then crowned, unless
/// `y` asks that something is not there.) Neither moves or unbinds the
/// POI. Then `(x | y)* = x* y*`.
pub(super) fn one_way(x: &Effects, y: &Effects) -> bool {
    let poi = Vals::of([Cell::Poi]);
    let free = |e: &Effects| e.is_known() && !e.changes().meets(&poi);
    free(x)
        && free(y)
        && !y.changes().meets(&x.reads)
        && !x.before.meets(&y.reads)
        && !(y.negative && x.after.meets(&y.reads))
}

/// Whether a move run with a POI on a square holding `c` does what it
/// does with no POI, and leaves that square alone: it reads neither `%`
/// nor `c`, and writes only squares it reads.
pub(super) fn blind(e: &Effects, c: Cell) -> bool {
    let poi = Vals::of([Cell::Poi, c]);
    e.is_known() && !e.reads.meets(&poi) && !e.changes().meets(&Vals::of([Cell::Poi]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::elab::Program;

    /// The move `text`, metavariables allowed.
    fn def(text: &str) -> Term {
        Program::from_text("t.alg", &format!("theorem t: {text} = nil\n"))
            .unwrap()
            .claims()[0]
            .lhs
            .clone()
    }

    fn piece(name: &str) -> Cell {
        let p = Program::from_text("t.alg", &format!("theorem t: {name} = {name}\n")).unwrap();
        match p.claims()[0].lhs.node() {
            Node::Frag(f) => f.cells().next().unwrap().1,
            _ => panic!(),
        }
    }

    #[test]
    fn a_rook_step_changes_empty_squares_and_the_poi() {
        let e = Effects::of(&def("% + u. -> . + u%"), None);
        assert_eq!(e.reads, Vals::of([Cell::Poi, Cell::EMPTY]));
        assert_eq!(e.before, Vals::of([Cell::Poi, Cell::EMPTY]));
        // Under a binder the POI is the rook.
        let b = Effects::of(&def("%♖: (% + u. -> . + u%)"), None);
        assert_eq!(b.changes(), Vals::of([piece("♖"), Cell::EMPTY]));
        assert!(b.reads.contains(piece("♖")));
    }

    #[test]
    fn a_write_where_nothing_is_read_changes_anything() {
        let e = Effects::of(&def("♙ -> ♙ + u♕"), None);
        assert!(e.before.is_all());
        assert!(!commute(&def("♙ -> ♙ + u♕"), &def("♘ -> ♞")));
    }

    fn commute(a: &Term, b: &Term) -> bool {
        super::commute(&Effects::of(a, None), &Effects::of(b, None))
    }

    #[test]
    fn moves_on_other_pieces_commute() {
        assert!(commute(&def("♙ -> ♟"), &def("♘ -> ♞")));
        assert!(commute(&def("♙ + u. -> . + u♙"), &def("♘ -> ♞")));
        assert!(!commute(&def("♙ + u. -> . + u♙"), &def("♘ + u. -> . + u♘")));
        assert!(!commute(&def("♙ -> ♟"), &def("♟ -> ♙")));
        assert!(!commute(&def("% + u. -> . + u%"), &def("♘ -> ♞")));
        assert!(commute(&def("%♙: (% -> ♟)"), &def("%♘: (% -> ♞)")));
        assert!(!commute(&def("M"), &def("♘ -> ♞")));
    }
}
