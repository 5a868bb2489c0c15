//! Random closed terms of each sort, for quickcheck properties, for
//! instantiating the metavariables of laws, and for validating axioms.
//!
//! Terms are kept small (fragments of up to three cells near the centre,
//! shallow moves) so that each can be checked exhaustively on small boards.

use super::{Bounds, Cell, Content, Fragment, Pattern, PieceId, Pieces, Sort, Term};
use crate::geometry::{Movement, Square, Tiling};
use crate::rng::Rng;

/// The pieces random terms use: a white rook and a black pawn, so that
/// colour reversal and distinct piece kinds both matter.
pub(crate) fn palette() -> [PieceId; 2] {
    [PieceId::chess("♖").unwrap(), PieceId::chess("♟").unwrap()]
}

fn below(g: &mut Rng, n: u32) -> u32 {
    g.below(n)
}

pub(crate) fn movement(g: &mut Rng) -> Movement {
    movement_on(g, Tiling::Square)
}

/// A random movement of `tiling`'s group.
pub(crate) fn movement_on(g: &mut Rng, tiling: Tiling) -> Movement {
    let turn = Movement::turn(tiling).checked_pow(i64::from(below(g, u32::from(tiling.turns()))));
    let flip = if below(g, 2) == 1 {
        Movement::mirror(tiling)
    } else {
        Movement::IDENTITY
    };
    let colour = if below(g, 2) == 1 {
        Movement::COLOUR
    } else {
        Movement::IDENTITY
    };
    let shift = Movement::translation(below(g, 3) as i32 - 1, below(g, 3) as i32 - 1);
    flip.then(&turn.expect("a turn is small")).then(&shift).then(&colour)
}

pub(crate) fn content(g: &mut Rng) -> Content {
    let [a, b] = palette();
    match below(g, 3) {
        0 => Content::Empty,
        1 => Content::Piece(a),
        _ => Content::Piece(b),
    }
}

/// A fragment of one to three cells; `%` appears at most once, and only
/// when `poi` allows it.
pub(crate) fn fragment(g: &mut Rng, poi: bool) -> Fragment {
    // Mostly single cells near the centre, so that random rules read what
    // other random rules write: laws that fail only on interacting moves
    // then fail on many instances.
    // Now and then no cell at all (`0`): rules that read or write nothing
    // are edge cases every part must get right.
    let n = match below(g, 10) {
        0 => 0,
        1..=4 => 1,
        5..=7 => 2,
        _ => 3,
    };
    let mut f = Fragment::empty();
    let mut used_poi = !poi;
    for _ in 0..n {
        let q = if below(g, 2) == 0 {
            Square::ORIGIN
        } else {
            Square::new(below(g, 3) as i32 - 1, below(g, 3) as i32 - 1)
        };
        let cell = match below(g, 6) {
            0 if !used_poi => {
                used_poi = true;
                Cell::Poi
            }
            1 => Cell::Off,
            _ => Cell::Is(content(g)),
        };
        if let Ok(next) = f.glue(&Fragment::from_cells([(q, cell)]).unwrap()) {
            f = next;
        }
    }
    f
}

pub(crate) fn pattern(g: &mut Rng, poi: bool) -> Pattern {
    (0..1 + below(g, 2)).map(|_| fragment(g, poi)).collect()
}

/// A move of at most `depth` levels of structure.
#[cfg(test)]
pub(crate) fn a_move(g: &mut Rng, depth: u32) -> Term {
    a_move_on(g, depth, Tiling::Square)
}

/// A random closed move whose movements are `tiling`'s.
pub(crate) fn a_move_on(g: &mut Rng, depth: u32, tiling: Tiling) -> Term {
    let leaf = depth == 0;
    match if leaf { below(g, 4) } else { below(g, 13) } {
        0 => Term::nil(),
        1 => Term::fail(),
        2 | 3 => {
            // Rules that anchor on `%` are the common case in real files.
            let anchored = below(g, 2) == 0;
            let f = if anchored && below(g, 4) == 0 {
                // A rule that reads only the POI's square (`% -> 0`).
                Fragment::single(Cell::Poi)
            } else if anchored {
                fragment(g, false)
                    .glue(&Fragment::single(Cell::Poi).shifted(&Movement::translation(2, 0)))
                    .unwrap_or_else(|_| Fragment::single(Cell::Poi))
            } else {
                fragment(g, false)
            };
            Term::rule(&Term::pattern(Pattern::single(f)), &Term::pattern(pattern(g, anchored)))
        }
        4 => Term::bind(&Term::content(content(g)), &a_move_on(g, depth - 1, tiling)),
        5 | 6 => Term::seq(&a_move_on(g, depth - 1, tiling), &a_move_on(g, depth - 1, tiling)),
        7 | 8 => Term::alt(&a_move_on(g, depth - 1, tiling), &a_move_on(g, depth - 1, tiling)),
        9 => {
            let lo = below(g, 2);
            let b = match below(g, 4) {
                0 => Bounds::STAR,
                1 => Bounds::OPT,
                2 => Bounds { lo, hi: None },
                _ => Bounds {
                    lo,
                    hi: Some(lo + below(g, 2)),
                },
            };
            Term::repeat(&a_move_on(g, depth - 1, tiling), b)
        }
        11 => Term::not(&a_move_on(g, depth - 1, tiling)),
        12 => Term::greedy(&a_move_on(g, depth - 1, tiling)),
        _ => Term::apply(
            &Term::movement(movement_on(g, tiling)),
            &a_move_on(g, depth - 1, tiling),
            &Pieces::chess(),
        ),
    }
}

/// A random closed term of the given sort.
#[cfg(test)]
pub(crate) fn term(g: &mut Rng, sort: Sort) -> Term {
    term_on(g, sort, Tiling::Square)
}

/// A random closed term of the given sort, its movements `tiling`'s.
pub(crate) fn term_on(g: &mut Rng, sort: Sort, tiling: Tiling) -> Term {
    match sort {
        Sort::Movement => Term::movement(movement_on(g, tiling)),
        Sort::Cell => Term::content(content(g)),
        Sort::Fragment => Term::fragment(fragment(g, true)),
        Sort::Pattern => Term::pattern(pattern(g, true)),
        Sort::Move => a_move_on(g, 2, tiling),
        Sort::Count => Term::raw(super::Node::Num(below(g, 4))),
    }
}
