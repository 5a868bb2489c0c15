//! Makruk's counting rules: the count a game carries, what each side has
//! on the board, and how a ply moves the count on or starts one.

use super::game::{squares, Rules};
use crate::elab::Counting;
use crate::ir::Content;
use crate::semantics::Grid;

/// A count of makruk's counting rules, in plies as Fairy-Stockfish keeps
/// it: a count run out (`ply > limit`) may be claimed as a draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Count {
    /// The limit, in plies: twice the moves.
    pub limit: u32,
    /// The plies counted.
    pub ply: u32,
}

/// What a side has on the board, for the counting rules: its pieces, its
/// pawns, and for each limit of pieces' honour, its pieces of that kind.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct Material {
    pieces: [u32; 2],
    pawns: [u32; 2],
    kinds: Vec<[u32; 2]>,
}

impl Material {
    /// What each side has on `board`, for the counting rules; `None` when
    /// the game does not count.
    pub(super) fn of(rules: &Rules, board: &Grid) -> Option<Material> {
        let c = rules.ends.counting.as_ref()?;
        if rules.turns.len() != 2 {
            return None;
        }
        let pieces = &rules.pieces;
        let mut m = Material {
            kinds: vec![[0; 2]; c.limits.len()],
            ..Material::default()
        };
        for q in squares(board) {
            let Some(Content::Piece(p)) = board.get(q) else {
                continue;
            };
            let twin = pieces.twin(p);
            if twin == p {
                continue;
            }
            // Turn 0 owns the piece registered first of each pair.
            let side = usize::from(p > twin);
            m.pieces[side] += 1;
            if c.pawns.contains(&p) {
                m.pawns[side] += 1;
            }
            for (k, l) in c.limits.iter().enumerate() {
                if p == l.piece || p == pieces.twin(l.piece) {
                    m.kinds[k][side] += 1;
                }
            }
        }
        Some(m)
    }
}

/// Makruk's count after a ply, from what the sides had before it and have
/// after it, `stm` to move, as Fairy-Stockfish keeps it: a running count
/// goes on by a ply; a bare king that takes the last pawn starts counting
/// at once; and the side to move starts when no count runs, or again when
/// the ply took or promoted and left it bare.
pub(super) fn recount(count: &mut Option<Count>, c: &Counting, before: &Material, after: &Material, stm: usize) {
    let mover = 1 - stm;
    if let Some(k) = count {
        k.ply += 1;
    }
    let total = after.pieces[0] + after.pieces[1];
    let captured = total < before.pieces[0] + before.pieces[1];
    let promoted = after.pawns[mover] < before.pawns[mover];
    let pawns = after.pawns[0] + after.pawns[1];
    let mover_limit = limit(c, after, mover);
    if c.from_pieces
        && after.pawns[stm] < before.pawns[stm]
        && after.pieces[mover] == 1
        && pawns == 0
        && mover_limit > 0
    {
        *count = Some(Count {
            limit: 2 * mover_limit,
            ply: 2 * total - 1,
        });
    }
    let stm_limit = limit(c, after, stm);
    if (count.is_none() || ((captured || promoted) && after.pieces[stm] == 1)) && stm_limit > 0 {
        *count = Some(Count {
            limit: 2 * stm_limit,
            ply: if !c.from_pieces || after.pieces[stm] > 1 {
                0
            } else {
                2 * total
            },
        });
    }
}

/// The moves side `side` counts on material `m` (0: none): none while a
/// pawn is on the board or the other side's king stands alone; board's
/// honour while its own king does not; else pieces' honour, by the first
/// limit the other side's pieces fit.
fn limit(c: &Counting, m: &Material, side: usize) -> u32 {
    let other = 1 - side;
    if m.pawns[0] + m.pawns[1] > 0 || m.pieces[other] <= 1 {
        return 0;
    }
    if m.pieces[side] > 1 {
        return c.board.unwrap_or(0);
    }
    c.limits
        .iter()
        .zip(&m.kinds)
        .find(|(l, n)| n[other] >= l.at_least)
        .map_or(c.otherwise.unwrap_or(0), |(l, _)| l.moves)
}
