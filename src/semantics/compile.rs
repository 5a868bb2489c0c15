//! Closed core terms to a form the evaluator runs directly: patterns
//! expanded into rule pairs, and each rule's cells sorted for matching.

use crate::core::{Bounds, Cell, Content, Fragment, Node, PieceId, Term};
use crate::geometry::Square;

/// A compiled move. It mirrors the move constructors of the core IR one for
/// one; only rules change shape.
#[derive(Clone, Debug)]
pub enum Prog {
    Nil,
    Fail,
    /// The union of these rules (`P -> Q` is one rule per pair).
    Rules(Vec<Rule>),
    Bind(Content, Box<Prog>),
    Seq(Box<Prog>, Box<Prog>),
    Alt(Vec<Prog>),
    Repeat(Box<Prog>, Bounds),
    Not(Box<Prog>),
    Greedy(Box<Prog>),
}

/// How a rule finds the translations at which it may apply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pivot {
    /// `f` holds `%` here: the only candidate puts it on the POI.
    Anchor(Square),
    /// This cell of `f` must read this content: try the squares that do.
    Guard(Square, Content),
    /// This cell of `g` must land on the board: try every board square.
    Write(Square),
    /// `f` and `g` hold only `#` cells: the rule is the identity.
    Identity,
}

/// One rule `f -> g` between fragments.
#[derive(Clone, Debug)]
pub struct Rule {
    /// The cells of `f`, the pivot's first.
    pub guard: Vec<(Square, Cell)>,
    /// The cells of `g` other than `#`.
    pub writes: Vec<(Square, Cell)>,
    /// The `#` cells of `g`: they must land off the board.
    pub offs: Vec<Square>,
    pub pivot: Pivot,
    /// `g` writes `%`, which needs a POI to copy.
    pub needs_poi: bool,
}

impl Rule {
    pub fn new(f: &Fragment, g: &Fragment) -> Rule {
        let mut guard: Vec<(Square, Cell)> = f.cells().collect();
        let writes: Vec<(Square, Cell)> = g.cells().filter(|(_, c)| *c != Cell::Off).collect();
        let offs: Vec<Square> = g.cells().filter(|(_, c)| *c == Cell::Off).map(|(q, _)| q).collect();
        // A piece is rarer than an empty square, so it makes the better pivot.
        let rank = |c: &Cell| match c {
            Cell::Poi => 0,
            Cell::Is(Content::Piece(_)) => 1,
            Cell::Is(Content::Empty) => 2,
            Cell::Off => 3,
        };
        guard.sort_by_key(|(q, c)| (rank(c), *q));
        let pivot = match guard.first() {
            Some((q, Cell::Poi)) => Pivot::Anchor(*q),
            Some((q, Cell::Is(c))) => Pivot::Guard(*q, *c),
            _ => match writes.first() {
                Some((q, _)) => Pivot::Write(*q),
                None => Pivot::Identity,
            },
        };
        Rule {
            needs_poi: writes.iter().any(|(_, c)| *c == Cell::Poi),
            guard,
            writes,
            offs,
            pivot,
        }
    }
}

impl Prog {
    /// Every piece the move reads, writes or binds.
    pub fn pieces(&self) -> Vec<PieceId> {
        fn go(p: &Prog, out: &mut Vec<PieceId>) {
            match p {
                Prog::Nil | Prog::Fail => {}
                Prog::Rules(rules) => {
                    for r in rules {
                        for (_, c) in r.guard.iter().chain(&r.writes) {
                            if let Cell::Is(Content::Piece(p)) = c {
                                out.push(*p);
                            }
                        }
                    }
                }
                Prog::Bind(c, body) => {
                    if let Content::Piece(p) = c {
                        out.push(*p);
                    }
                    go(body, out);
                }
                Prog::Seq(a, b) => {
                    go(a, out);
                    go(b, out);
                }
                Prog::Alt(arms) => arms.iter().for_each(|a| go(a, out)),
                Prog::Repeat(a, _) | Prog::Not(a) | Prog::Greedy(a) => go(a, out),
            }
        }
        let mut out = vec![];
        go(self, &mut out);
        out.sort();
        out.dedup();
        out
    }
}

/// Why a term cannot be run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CompileError {
    NotAMove,
    /// The term still has metavariables; laws are checked by instantiating
    /// them first.
    Open,
}

fn members(t: &Term) -> Result<Vec<Fragment>, CompileError> {
    t.as_pattern()
        .map(|p| p.members().cloned().collect())
        .ok_or(CompileError::Open)
}

/// Compiles a closed move.
pub fn compile(t: &Term) -> Result<Prog, CompileError> {
    Ok(match t.node() {
        Node::Nil => Prog::Nil,
        Node::Fail => Prog::Fail,
        Node::Rule(f, g) => {
            let (fs, gs) = (members(f)?, members(g)?);
            Prog::Rules(
                fs.iter()
                    .flat_map(|f| gs.iter().map(move |g| Rule::new(f, g)))
                    .collect(),
            )
        }
        Node::Bind(c, body) => match c.node() {
            Node::Cell(c) => Prog::Bind(*c, Box::new(compile(body)?)),
            _ => return Err(CompileError::Open),
        },
        Node::Seq(a, b) => Prog::Seq(Box::new(compile(a)?), Box::new(compile(b)?)),
        Node::Alt(a, b) => {
            let mut arms = vec![];
            for x in [a, b] {
                match compile(x)? {
                    Prog::Alt(v) => arms.extend(v),
                    p => arms.push(p),
                }
            }
            Prog::Alt(arms)
        }
        Node::Repeat(a, ..) => Prog::Repeat(Box::new(compile(a)?), t.bounds().ok_or(CompileError::Open)?),
        Node::Not(a) => Prog::Not(Box::new(compile(a)?)),
        Node::Greedy(a) => Prog::Greedy(Box::new(compile(a)?)),
        Node::Var(_) | Node::Apply(..) => return Err(CompileError::Open),
        _ => return Err(CompileError::NotAMove),
    })
}
