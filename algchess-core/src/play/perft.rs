//! Perft: the number of leaves of the move tree to a given depth, the
//! standard test of a move generator.

use super::game::{Position, Rules, TooBig};
use crate::par::*;

/// Leaves at `depth` plies below `pos`. The last ply is counted, not
/// played out.
pub fn perft(rules: &Rules, pos: &Position, depth: u32) -> Result<u64, TooBig> {
    rules.backend.perft(rules, pos, depth)
}

/// Perft split by first move: each first move as `name` calls the
/// position after it, with the leaves below it. The root moves run in
/// parallel, each made on a board of its own while it is counted and
/// named, so no more boards are held at once than there are threads (a
/// board of 65,536 squares has as many rook moves). `progress` hears of
/// each move finished, and of how many there are.
pub fn divide(
    rules: &Rules,
    pos: &Position,
    depth: u32,
    progress: &(dyn Fn(usize, usize) + Sync),
    name: &(dyn Fn(&Position) -> String + Sync),
) -> Result<Vec<(String, u64)>, TooBig> {
    assert!(depth >= 1, "divide needs at least one ply");
    let root = super::ongoing::Match::new(rules, pos.clone(), 0, 1)?;
    let moves = root.changes();
    let turn = (pos.turn + 1) % rules.turns.len();
    let done = std::sync::atomic::AtomicUsize::new(0);
    moves
        .par_iter()
        .map(|c| {
            let mut board = pos.board.clone();
            board.apply(c);
            let child = Position { board, turn };
            let n = perft(rules, &child, depth - 1)?;
            progress(done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1, moves.len());
            Ok((name(&child), n))
        })
        .collect()
}
