//! What a ply's condition means: predicates read as facts about single
//! squares and whether an enemy sees a square, in disjunctive normal form.

use super::contents::{B_PAWN_EP, EMPTY, ENEMY, FRIEND, OFF, PAWN, W_KING_HOME, W_PAWN, W_ROOK_HOME};
use super::parse::{Arg, Cond, Kind};
use super::{add, Off};
use crate::diag::{Diag, Diags, Source, Span};

/// enemy sees a square.
#[derive(Clone, Debug)]
pub(super) enum Atom {
    Cell(Off, u32),
    Seen(Off),
    /// A true fact that, taken, removes the piece on this square (the pawn
    /// passed in an en passant capture).
    Take(Off),
    Const(bool),
}

#[derive(Clone, Debug)]
pub(super) enum F {
    And(Vec<F>),
    Or(Vec<F>),
    Not(Box<F>),
    Atom(Atom),
}

/// The ply being read: its piece and destination.
pub(super) struct Reading<'a> {
    pub(super) kind: Kind,
    /// The piece's own content, when a header names it.
    pub(super) mover: Option<u32>,
    pub(super) to: Off,
    pub(super) src: &'a Source,
}

impl Reading<'_> {
    pub(super) fn square(&self, a: &Arg) -> Result<Off, Diags> {
        let kings = |s: Span, o: Off| {
            if self.kind == Kind::King {
                Ok(o)
            } else {
                Err(Diag::new(
                    self.src,
                    s,
                    "the king's and rooks' squares are known only in Kings plies",
                )
                .into())
            }
        };
        match a {
            Arg::King(s) => kings(*s, (0, 0)),
            Arg::KingsRook(s) => kings(*s, (3, 0)),
            Arg::QueensRook(s) => kings(*s, (-4, 0)),
            Arg::Vec(v, _) => Ok(*v),
            Arg::Word(w, s) => Err(Diag::new(self.src, *s, format!("unknown square `{w}`"))
                .help("a square is a vector from the piece, or king, kings_rook, queens_rook")
                .into()),
        }
    }

    fn squares(&self, args: &[Arg], span: Span, name: &str) -> Result<Vec<Off>, Diags> {
        args.iter()
            .map(|a| self.square(a))
            .collect::<Result<Vec<_>, _>>()
            .and_then(|v| {
                if v.len() > 2 {
                    Err(Diag::new(self.src, span, format!("`{name}` takes at most two squares")).into())
                } else {
                    Ok(v)
                }
            })
    }

    /// The squares from `a` to `b` along a line, both included.
    fn line(&self, a: Off, b: Off, span: Span) -> Result<Vec<Off>, Diags> {
        let (dx, dy) = (b.0 - a.0, b.1 - a.1);
        if !(dx == 0 || dy == 0 || dx.abs() == dy.abs()) {
            return Err(Diag::new(self.src, span, "these squares are not on one line")
                .help("`open` and `clear` read the squares along a rank, file or diagonal")
                .into());
        }
        let n = dx.abs().max(dy.abs());
        Ok((0..=n)
            .map(|i| (a.0 + dx.signum() * i, a.1 + dy.signum() * i))
            .collect())
    }

    fn pred(&self, name: &str, args: &[Arg], span: Span) -> Result<F, Diags> {
        let sq = self.squares(args, span, name)?;
        let one = |set: u32| -> Result<F, Diags> {
            match sq.as_slice() {
                [] => Ok(F::Atom(Atom::Cell(self.to, set))),
                [s] => Ok(F::Atom(Atom::Cell(*s, set))),
                _ => Err(Diag::new(self.src, span, format!("`{name}` reads one square")).into()),
            }
        };
        let ends = || -> Result<(Off, Off), Diags> {
            match sq.as_slice() {
                [] => Ok(((0, 0), self.to)),
                [a, b] => Ok((*a, *b)),
                _ => Err(Diag::new(self.src, span, format!("`{name}` reads two squares, or none")).into()),
            }
        };
        Ok(match name {
            "empty" => one(EMPTY)?,
            "enemy" => one(ENEMY)?,
            "friend" => one(FRIEND)?,
            "pawn" => one(PAWN)?,
            "guarded" | "threat" => match sq.as_slice() {
                [] => F::Atom(Atom::Seen(self.to)),
                [s] => F::Atom(Atom::Seen(*s)),
                _ => return Err(Diag::new(self.src, span, format!("`{name}` reads one square")).into()),
            },
            "open" | "clear" => {
                let (a, b) = ends()?;
                let line = self.line(a, b, span)?;
                let mut all: Vec<F> = line[1..line.len() - 1]
                    .iter()
                    .map(|q| F::Atom(Atom::Cell(*q, EMPTY)))
                    .collect();
                if name == "clear" {
                    all.extend(line.iter().map(|q| F::Not(Box::new(F::Atom(Atom::Seen(*q))))));
                }
                F::And(all)
            }
            "home" => self.home(&sq, args, span)?,
            "last" => match sq.as_slice() {
                [a, b] if *a == add(*b, (0, 2)) => F::Atom(Atom::Cell(*b, B_PAWN_EP)),
                [_, _] => {
                    return Err(Diag::new(self.src, span, "the board remembers of the last ply only an enemy pawn's double step")
                        .help("write `last[s + [0, 2], s]`: the enemy pawn now on `s` came from two squares ahead (it is then 'pe)")
                        .into())
                }
                _ => return Err(Diag::new(self.src, span, "`last` takes two squares: `last[from, to]`").into()),
            },
            "last_from" | "last_to" => {
                return Err(Diag::new(self.src, span, format!("`{name}` alone cannot be read from the board"))
                    .help("the board remembers of the last ply only an enemy pawn's double step: write `last[s + [0, 2], s]`")
                    .into())
            }
            "passant" => {
                if !args.is_empty() {
                    return Err(Diag::new(self.src, span, "`passant` takes no squares").into());
                }
                if self.to.0 == 0 {
                    return Err(Diag::new(self.src, span, "`passant` reads the side a diagonal ply goes to")
                        .help("use it in `[ahead + left]` or `[ahead + right]`")
                        .into());
                }
                let side = (self.to.0.signum(), 0);
                F::And(vec![
                    F::Atom(Atom::Cell(side, B_PAWN_EP)),
                    F::Atom(Atom::Cell(self.to, EMPTY)),
                    F::Atom(Atom::Take(side)),
                ])
            }
            "white" | "black" => {
                return Err(Diag::new(self.src, span, format!("`{name}` is not read: plies are read from the side to move"))
                    .help("plies are white's; `mirrored(...)` of their lowering gives black's")
                    .into())
            }
            _ => {
                return Err(Diag::new(self.src, span, format!("unknown predicate `{name}`"))
                    .help("predicates are empty, open, clear, enemy, friend, pawn, guarded, threat, home, last and passant")
                    .into())
            }
        })
    }

    /// `home`: the piece has not moved (its marker, or a pawn's rank), or
    /// the piece on a square has not.
    fn home(&self, sq: &[Off], args: &[Arg], span: Span) -> Result<F, Diags> {
        Ok(match sq {
            [] => match (self.kind, self.mover) {
                (Kind::Pawn, _) => F::And(vec![
                    F::Not(Box::new(F::Atom(Atom::Cell((0, -1), OFF)))),
                    F::Atom(Atom::Cell((0, -2), OFF)),
                ]),
                (Kind::King | Kind::Rook, Some(m)) => F::Atom(Atom::Const(m == W_KING_HOME || m == W_ROOK_HOME)),
                _ => {
                    return Err(Diag::new(self.src, span, "the board does not remember whether this piece has moved")
                        .help("`home` reads the markers of an unmoved king or rook ('Kc, 'Rc) and a pawn's rank: put the ply under Pawns:, Rooks: or Kings:")
                        .into())
                }
            },
            // A rook's or king's home square holds that piece unmoved.
            [s] if matches!(args[0], Arg::KingsRook(_) | Arg::QueensRook(_)) => F::Atom(Atom::Cell(*s, W_ROOK_HOME)),
            [s] if matches!(args[0], Arg::King(_)) => F::Atom(Atom::Cell(*s, W_KING_HOME)),
            [s] => {
                let (d, dd) = (add(*s, (0, -1)), add(*s, (0, -2)));
                F::Or(vec![
                    F::Atom(Atom::Cell(*s, W_KING_HOME | W_ROOK_HOME)),
                    F::And(vec![
                        F::Atom(Atom::Cell(*s, W_PAWN)),
                        F::Not(Box::new(F::Atom(Atom::Cell(d, OFF)))),
                        F::Atom(Atom::Cell(dd, OFF)),
                    ]),
                ])
            }
            _ => return Err(Diag::new(self.src, span, "`home` reads one square").into()),
        })
    }

    pub(super) fn formula(&self, c: &Cond) -> Result<F, Diags> {
        Ok(match c {
            Cond::Or(v) => F::Or(v.iter().map(|c| self.formula(c)).collect::<Result<_, _>>()?),
            Cond::And(v) => F::And(v.iter().map(|c| self.formula(c)).collect::<Result<_, _>>()?),
            Cond::Not(c) => F::Not(Box::new(self.formula(c)?)),
            Cond::Pred(n, args, span) => self.pred(n, args, *span)?,
        })
    }
}

/// A condition as alternatives of conjunctions of possibly negated atoms.
pub(super) fn dnf(f: &F, positive: bool) -> Vec<Vec<(bool, Atom)>> {
    match (f, positive) {
        (F::Not(g), p) => dnf(g, !p),
        (F::Atom(Atom::Const(b)), p) => {
            if *b == p {
                vec![vec![]]
            } else {
                vec![]
            }
        }
        (F::Atom(Atom::Take(_)), false) => vec![],
        (F::Atom(a), p) => vec![vec![(p, a.clone())]],
        (F::Or(v), true) | (F::And(v), false) => v.iter().flat_map(|g| dnf(g, positive)).collect(),
        (F::And(v), true) | (F::Or(v), false) => {
            let mut acc: Vec<Vec<(bool, Atom)>> = vec![vec![]];
            for g in v {
                let mut d = dnf(g, positive);
                // One conjunction (a chain of `and`s): append it in place,
                // so a chain of n terms costs n, not n² copies.
                if d.len() == 1 {
                    let only = d.pop().expect("one conjunction");
                    if let Some((last, rest)) = acc.split_last_mut() {
                        for a in rest {
                            a.extend(only.iter().cloned());
                        }
                        last.extend(only);
                    }
                    continue;
                }
                acc = acc
                    .iter()
                    .flat_map(|a| {
                        d.iter().map(move |b| {
                            let mut c = a.clone();
                            c.extend(b.iter().cloned());
                            c
                        })
                    })
                    .collect();
            }
            acc
        }
    }
}
