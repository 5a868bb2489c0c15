//! The hash of a board, one for the whole crate: the xor over the box's
//! squares of a key of (square, code). A change moves it by the keys of
//! the squares it rewrites, in any order, so both its users keep it as
//! they go: the search keys its table and its repetition test with it,
//! and the engine, as it writes, tells a turn's results apart by how it
//! moved (a fingerprint) without a diff. Equal boards have equal hashes;
//! a position's identity as the rules count repetitions is `play`'s, not
//! this.

use super::board::{Change, Grid};
use crate::geometry::Square;

/// A 64-bit mix (splitmix64's finaliser).
#[inline(always)]
fn mix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// Square `q`'s part of its keys' input: its coordinates, 21 bits each,
/// below the code's byte.
pub(crate) fn square_base(q: Square) -> u64 {
    let x = (i64::from(q.x) + (1 << 20)) as u64;
    let y = (i64::from(q.y) + (1 << 20)) as u64;
    x | y << 21
}

/// The key of code `v` on the square of base `base` (`square_base`).
#[inline(always)]
pub(crate) fn key(base: u64, v: u8) -> u64 {
    mix(base | u64::from(v) << 42)
}

/// The key of code `v` on square `q`.
fn cell_key(q: Square, v: u8) -> u64 {
    key(square_base(q), v)
}

/// The hash of a board, the side to move aside.
pub(crate) fn board_hash(g: &Grid) -> u64 {
    let o = g.origin();
    let w = g.width().max(1) as usize;
    g.codes().iter().enumerate().fold(0, |h, (i, &v)| {
        let q = Square::new(o.x + (i % w) as i32, o.y + (i / w) as i32);
        h ^ cell_key(q, v)
    })
}

/// How change `c` made on `before` moves the board's hash; also the
/// move's fingerprint, for the search's killers and history.
pub(crate) fn change_hash(before: &Grid, c: &Change) -> u64 {
    c.iter()
        .fold(0, |h, &(q, v)| h ^ cell_key(q, before.code(q)) ^ cell_key(q, v))
}

/// The hash of board hash `board` with turn `turn` to move.
pub(crate) fn with_turn(board: u64, turn: usize) -> u64 {
    board ^ mix(0x5eed_0000_0000_0000 ^ turn as u64)
}

/// The hash of a position: board `g` with turn `turn` to move.
pub fn position_hash(g: &Grid, turn: usize) -> u64 {
    with_turn(board_hash(g), turn)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_change_moves_the_hash_to_the_hash_of_the_board_it_makes() {
        let mut g = Grid::off(Square::new(-1, 2), 3, 2);
        for (i, q) in [Square::new(-1, 2), Square::new(0, 3), Square::new(1, 2)]
            .into_iter()
            .enumerate()
        {
            g.apply(&smallvec::smallvec![(q, i as u8)]);
        }
        let before = board_hash(&g);
        let c: Change = smallvec::smallvec![(Square::new(-1, 2), 3), (Square::new(0, 2), 4)];
        let moved = change_hash(&g, &c);
        g.apply(&c);
        assert_eq!(before ^ moved, board_hash(&g));
        assert_ne!(moved, 0);
        assert_ne!(position_hash(&g, 0), position_hash(&g, 1));
    }

    /// Distinct squares and codes have distinct keys, also for squares
    /// left and below the origin.
    #[test]
    fn keys_of_distinct_cells_differ() {
        let mut seen = std::collections::HashSet::new();
        for x in -20..20 {
            for y in -20..20 {
                for v in [0u8, 1, 2, 255] {
                    assert!(seen.insert(cell_key(Square::new(x, y), v)));
                }
            }
        }
    }
}
