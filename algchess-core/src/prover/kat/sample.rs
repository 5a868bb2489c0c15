//! Random moves of the shapes the facts and views speak about, and the
//! evaluator as their judge: what the tests validate every hypothesis
//! kind against.

use crate::checker::{check_claim, ClaimOptions, CounterReport, EnumerationOptions, Finding};
use crate::elab::Program;
use crate::geometry::Square;
use crate::ir::{Bounds, Cell, Content, Fragment, PieceId, Term};
use crate::rng::Rng;

/// A claim the checker refutes on small boards, with its counterexample.
#[derive(Debug)]
pub(crate) struct Refuted {
    /// The left side, printed.
    pub(crate) lhs: String,
    /// The right side, printed.
    pub(crate) rhs: String,
    pub(crate) counterexample: Option<Box<CounterReport>>,
}

impl std::fmt::Display for Refuted {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}  ≠  {}: {:?}", self.lhs, self.rhs, self.counterexample)
    }
}

fn below(g: &mut Rng, n: u32) -> u32 {
    g.below(n)
}

fn pick<T: Copy>(g: &mut Rng, xs: &[T]) -> T {
    xs[below(g, xs.len() as u32) as usize]
}

fn piece(name: &str) -> Cell {
    Cell::Is(Content::Piece(PieceId::chess(name).expect("a chess piece")))
}

/// A content: empty, or one of three pieces.
fn content(g: &mut Rng) -> Cell {
    pick(g, &[Cell::EMPTY, piece("♖"), piece("♟"), piece("♙")])
}

fn frag(cells: &[(Square, Cell)]) -> Term {
    Term::fragment(Fragment::from_cells(cells.iter().copied()).expect("distinct squares"))
}

fn zero() -> Term {
    Term::fragment(Fragment::empty())
}

fn offset(g: &mut Rng) -> Square {
    pick(
        g,
        &[
            Square::new(0, 1),
            Square::new(1, 0),
            Square::new(1, 1),
            Square::new(0, 2),
            Square::new(0, -1),
        ],
    )
}

/// A rule or guard: anchored or not, a step, a write, a test of a
/// square, now and then a square off the board.
pub(super) fn rule(g: &mut Rng) -> Term {
    let (d, x, y) = (offset(g), content(g), content(g));
    let o = Square::ORIGIN;
    let p = pick(g, &[piece("♖"), piece("♙")]);
    match below(g, 10) {
        // `% + d x -> y + d%`: a step of the POI.
        0 | 1 => Term::rule(&frag(&[(o, Cell::Poi), (d, x)]), &frag(&[(o, y), (d, Cell::Poi)])),
        // `% + d x -> % + d y`: a write beside the POI.
        2 => Term::rule(&frag(&[(o, Cell::Poi), (d, x)]), &frag(&[(o, Cell::Poi), (d, y)])),
        // `p + d x -> x' + d p`: a piece's step.
        3 | 4 => Term::rule(&frag(&[(o, p), (d, x)]), &frag(&[(o, y), (d, p)])),
        // `p -> q`.
        5 => Term::rule(&frag(&[(o, p)]), &frag(&[(o, x)])),
        // Guards, anchored or not, off the board now and then.
        6 => {
            let c = if below(g, 4) == 0 { Cell::Off } else { x };
            Term::rule(&frag(&[(o, Cell::Poi), (d, c)]), &zero())
        }
        7 => Term::rule(&frag(&[(o, p), (d, x)]), &zero()),
        8 => Term::rule(&frag(&[(o, x)]), &zero()),
        // A write where nothing is read.
        _ => Term::rule(&frag(&[(o, p)]), &frag(&[(o, p), (d, y)])),
    }
}

/// A guard on one square near the POI.
pub(super) fn anchored_guard(g: &mut Rng) -> Term {
    let (d, x) = (offset(g), content(g));
    Term::rule(&frag(&[(Square::ORIGIN, Cell::Poi), (d, x)]), &zero())
}

/// A move of at most `depth` levels built from `rule`s.
pub(super) fn a_move(g: &mut Rng, depth: u32) -> Term {
    if depth == 0 {
        return rule(g);
    }
    let d = depth - 1;
    match below(g, 10) {
        0 | 1 => Term::seq(&a_move(g, d), &a_move(g, d)),
        2 => Term::alt(&a_move(g, d), &a_move(g, d)),
        3 => Term::not(&a_move(g, d)),
        4 => Term::repeat(&a_move(g, d), pick(g, &[Bounds::STAR, Bounds::OPT, Bounds::exactly(2)])),
        5 => Term::greedy(&a_move(g, d)),
        6 | 7 => {
            let c = Term::content(match content(g) {
                Cell::Is(c) => c,
                _ => Content::Empty,
            });
            Term::bind(&c, &a_move(g, d))
        }
        _ => rule(g),
    }
}

/// Whether `lhs = rhs` holds on every board of up to five squares (with
/// the POI on every square where a side has a free `%`), and, when `bound`
/// asks, wrapped in binders, with a POI bound.
pub(super) fn holds(lhs: &Term, rhs: &Term, bound: bool) -> Result<(), Refuted> {
    let mut sides = vec![(lhs.clone(), rhs.clone())];
    if bound && !lhs.is_open() && !rhs.is_open() {
        for c in [Content::Empty, Content::Piece(PieceId::chess("♖").expect("a rook"))] {
            let c = Term::content(c);
            sides.push((Term::bind(&c, lhs), Term::bind(&c, rhs)));
        }
    }
    let template = Program::from_text("t.alg", "theorem t: nil = nil\n").expect("a claim");
    for (l, r) in sides {
        let mut claim = template.claims()[0].clone();
        claim.lhs = l.clone();
        claim.rhs = r.clone();
        let options = ClaimOptions {
            search: EnumerationOptions {
                max_cells: 5,
                ..EnumerationOptions::default()
            },
            ..ClaimOptions::default()
        };
        let report = check_claim(&claim, &options, &|_, _, _| {});
        if report.verdict == Finding::Refuted {
            return Err(Refuted {
                lhs: format!("{l:?}"),
                rhs: format!("{r:?}"),
                counterexample: report.counterexample.map(Box::new),
            });
        }
    }
    Ok(())
}
