//! Ply notation, lowered to the algebra: the formalized plies of the
//! chess-rules document of the Games::Chess::Referee Perl module.
//!
//! A ply list reads as the document lays it out: optional headers naming the
//! piece (`Pawns:`, `Knights:`, `Bishops:`, `Rooks:`, `Queens:`, `Kings:`),
//! plies `[VECTOR] if CONDITION then ACTION;`, and a `Globally:` section
//! whose conditions hold after every ply (`not threat[king]`).
//!
//! ```text
//! Pawns:
//!   [ahead]         if empty;
//!   [ahead + left]  if enemy or passant;
//! Kings:
//!   [king * 2] if home and home[kings_rook] and clear[king, kings_rook]
//!              then move[kings_rook, [king]];
//! Globally: not threat[king];
//! ```
//!
//! **Board conventions.** The lowering reads the board as rules/chess.alg
//! does, so a ply list is read where that file's pieces are declared (a
//! rule file that imports it): `'Kc`/`'Rc` are a king and rook that have
//! not moved (`home`), `'pe` is a black pawn that has just made its double
//! step (the only part of the last ply the board remembers, so `last[a, b]`
//! is read only as that step), and a pawn's two-square ply leaves `'Pe`.
//! A king or rook that moves becomes `♔`/`♖`. The lowering names no
//! definition of that file: attacks are written out here, as chess.alg's
//! `attacked` writes them, to the longest line of an 8×8 board.
//!
//! **Frame.** Plies are read from white's side, as chess.alg writes white's
//! moves: `ahead` is up, `king` right and `queen` left; `mirrored(...)`
//! gives black's. So the colour predicates `white`/`black` are not read.
//! Vectors are relative to the piece's square; `?` is one distance, 1 to 7
//! either way, shared by both components (`[?, -?]` is a diagonal).
//!
//! **Predicates** read the destination unless given squares: `empty`,
//! `enemy`, `friend`, `pawn`, `guarded`/`threat` (an enemy piece sees the
//! square, before the ply), `open[a, b]` (the squares strictly between are
//! empty), `clear[a, b]` (open, and no square from `a` to `b` guarded),
//! `home` (the piece has not moved: a marker for king and rook, the second
//! rank for a pawn), `home[s]`, `last[a, b]` and `passant` (the document's
//! compound, on the side the ply goes to; its capture also takes the pawn
//! passed, landing on the empty square behind it, as the document's prose says).
//! In arguments `king`, `kings_rook` and `queens_rook` alone name the
//! king's square and the rooks' home squares (Kings plies only).
//!
//! **Actions.** The default moves the piece, taking what stands there.
//! `mutate[queen, rook, bishop, knight]` makes a ply that reaches the far
//! rank end as one of these pieces, one result each. The document leaves the
//! rook's half of castling without notation; `move[a, b]` closes that gap
//! in the same spirit: in the same ply, the friendly piece on `a` moves to
//! `b` (the rook crosses the king:
//! `then move[kings_rook, [king]]`).

mod cond;
mod contents;
mod lex;
mod lower;
mod parse;

use crate::diag::Diags;
use crate::parse::ast::Expr;

/// The longest distance `?` and the attack lines reach: an 8×8 board.
const LONGEST: i32 = 7;

/// A square relative to the piece's: files right, ranks up.
type Off = (i32, i32);

fn add(a: Off, b: Off) -> Off {
    (a.0 + b.0, a.1 + b.1)
}

/// A ply list as algebra text, such as `algchess translate` prints.
#[cfg(test)]
pub(crate) fn to_algebra(text: &str) -> Result<String, Diags> {
    Ok(crate::parse::print_expr(&lower(text)?))
}

/// A ply list lowered to the algebra's syntax tree.
pub(crate) fn lower(text: &str) -> Result<Expr, Diags> {
    lower::lower(text)
}

#[cfg(test)]
mod tests;
