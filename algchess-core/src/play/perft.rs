//! Perft: the number of leaves of the move tree to a given depth, the
//! standard test of a move generator.

use super::game::{Position, Rules, TooBig};
use rayon::prelude::*;

/// Leaves at `depth` plies below `pos`. The last ply is counted, not
/// played out.
pub fn perft(rules: &Rules, pos: &Position, depth: u32) -> Result<u64, TooBig> {
    if let Some(e) = &rules.engine {
        return e.perft(&pos.board, pos.turn, depth);
    }
    match depth {
        0 => Ok(1),
        1 => rules.count(pos),
        _ => {
            let mut total = 0;
            for next in rules.successors(pos)? {
                total += perft(rules, &next, depth - 1)?;
            }
            Ok(total)
        }
    }
}

/// Perft split by first move: each position after one ply, with the leaves
/// below it. The root moves run in parallel; `progress` hears of each one
/// finished.
pub fn divide(
    rules: &Rules,
    pos: &Position,
    depth: u32,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<Vec<(Position, u64)>, TooBig> {
    assert!(depth >= 1, "divide needs at least one ply");
    let children = rules.successors(pos)?;
    let done = std::sync::atomic::AtomicUsize::new(0);
    children
        .into_par_iter()
        .map(|c| {
            let n = perft(rules, &c, depth - 1)?;
            progress(done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1, 0);
            Ok((c, n))
        })
        .collect()
}
