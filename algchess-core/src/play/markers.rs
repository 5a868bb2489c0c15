//! What a chess position holds beyond its placement and the side to move,
//! carried on the board by marker pieces when a rule file declares
//! `'Kc 'Rc 'Pe` and their black twins: castling rights as kings and rooks
//! that have not moved, and the en passant square as the pawn that has
//! just moved two squares. Repetition compares positions by them; FEN
//! reads and writes them.

use crate::geometry::Square;
use crate::ir::{Content, PieceId, Pieces};
use crate::semantics::Grid;

/// The most files or ranks a board with lettered files (`a` to `z`) may
/// have: FEN writes no larger board, and repetition compares positions as
/// FEN writes them only up to it.
pub(crate) const MAX_SIDE: usize = 26;

/// What a position holds beyond the placement and the side to move, read
/// off the marker pieces: castling rights and the en passant square (FEN's
/// third and fourth fields).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) struct Rights {
    /// White's rights first, each side's short right first.
    pub castling: smallvec::SmallVec<[CastlingRight; 4]>,
    /// The square a pawn may be taken on en passant, from the box's corner.
    pub en_passant: Option<Square>,
}

/// A castling right: an unmoved rook beside its side's unmoved king.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct CastlingRight {
    /// Whose right it is.
    pub white: bool,
    /// On the king's right.
    pub short: bool,
    /// The rook's square, from the box's corner.
    pub rook: Square,
    /// No other rook of its side stands beyond it (FEN's `K` and `Q`);
    /// otherwise X-FEN names the rook's file.
    pub outermost: bool,
}

/// The rights the markers `m` give on `g`: a right for each unmoved rook
/// beside an unmoved king, the outermost on each side (what FEN's `K` and
/// `Q` stand for); the en passant square behind a pawn of the side that
/// just moved.
pub(crate) fn rights(g: &Grid, m: &Markers, black_to_move: bool, pieces: &Pieces) -> Rights {
    let (width, height) = (g.width(), g.height());
    let mut out = Rights::default();
    let at = |x: i32, y: i32| g.get(Square::new(g.origin().x + x, g.origin().y + y));
    let is = |x, y, p: PieceId| at(x, y) == Some(Content::Piece(p));
    let top = height - 1;
    for (white, k, r, y) in [(true, m.king[0], m.rook[0], 0), (false, m.king[1], m.rook[1], top)] {
        let Some(kx) = (0..width).find(|x| is(*x, y, k)) else {
            continue;
        };
        let rook_letter = if white { 'R' } else { 'r' };
        let rook_in = |mut xs: std::ops::Range<i32>| {
            xs.any(|o| g.letter(Square::new(g.origin().x + o, g.origin().y + y), pieces) == Some(rook_letter))
        };
        if let Some(x) = (kx + 1..width).rev().find(|x| is(*x, y, r)) {
            out.castling.push(CastlingRight {
                white,
                short: true,
                rook: Square::new(x, y),
                outermost: !rook_in(x + 1..width),
            });
        }
        if let Some(x) = (0..kx).find(|x| is(*x, y, r)) {
            out.castling.push(CastlingRight {
                white,
                short: false,
                rook: Square::new(x, y),
                outermost: !rook_in(0..x),
            });
        }
    }
    // Only the side that just moved can have a pawn to take en passant:
    // the other side's marker is cleared by its next ply.
    for x in 0..width {
        if black_to_move && is(x, 3, m.pawn[0]) {
            out.en_passant = Some(Square::new(x, 2));
        }
        if !black_to_move && is(x, top - 3, m.pawn[1]) {
            out.en_passant = Some(Square::new(x, top - 2));
        }
    }
    out
}

/// The marker pieces a chess rule file declares for what a position holds
/// beyond the placement: kings and rooks that may castle, and a pawn that may be
/// taken en passant; white's, then black's.
#[derive(Clone, Copy, Debug)]
pub struct Markers {
    /// The king that may still castle: white's, black's.
    pub king: [PieceId; 2],
    /// The rook that may still castle: white's, black's.
    pub rook: [PieceId; 2],
    /// The pawn that may be taken en passant: white's, black's.
    pub pawn: [PieceId; 2],
}

impl Markers {
    /// The markers `pieces` declares, if it declares them all.
    pub fn declared(pieces: &Pieces) -> Option<Markers> {
        let id = |s: &str| pieces.lookup(s);
        Some(Markers {
            king: [id("'Kc")?, id("'kc")?],
            rook: [id("'Rc")?, id("'rc")?],
            pawn: [id("'Pe")?, id("'pe")?],
        })
    }
}
