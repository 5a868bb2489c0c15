//! The hash of a board, one for the whole crate: a sum over the box's
//! squares of a key of (square, code). A change moves it by the keys of
//! the squares it rewrites, in any order, so both its users keep it as
//! they go: the search keys its table and its repetition test with it,
//! and the engine, as it writes, tells a turn's results apart by how it
//! moved (a fingerprint) without a diff. Equal boards of one box have
//! equal hashes; a position's identity as the rules count repetitions is
//! `play`'s, not this.

use super::board::{Change, Grid};
use crate::geometry::Square;

/// Square `q`'s part of its keys' input: its coordinates (each kept to 28
/// bits), above the code's byte.
pub(crate) fn square_base(q: Square) -> u64 {
    const MASK: u64 = (1 << 28) - 1;
    (u64::from(q.x as u32) & MASK) << 36 | (u64::from(q.y as u32) & MASK) << 8
}

/// The key of a square's base with a code (`square_base(q) | code`): one
/// multiply, folded, since every engine write pays for it. A bijection,
/// so distinct squares (within 2^27 of the origin) and codes have
/// distinct keys; a rare repeat of a sum of keys is the users' to allow
/// for.
#[inline(always)]
pub(crate) fn key(w: u64) -> u64 {
    let z = (w ^ 0x9e37_79b9_7f4a_7c15).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z ^ (z >> 29)
}

/// The key of code `v` on square `q`.
fn cell_key(q: Square, v: u8) -> u64 {
    key(square_base(q) | u64::from(v))
}

/// The hash of a board, the side to move aside.
pub(crate) fn board_hash(g: &Grid) -> u64 {
    let o = g.origin();
    let w = g.width().max(1) as usize;
    g.codes().iter().enumerate().fold(0u64, |h, (i, &v)| {
        let q = Square::new(o.x + (i % w) as i32, o.y + (i / w) as i32);
        h.wrapping_add(cell_key(q, v))
    })
}

/// How change `c` made on `before` moves the board's hash; also the
/// move's fingerprint, for the search's killers and history.
pub(crate) fn change_hash(before: &Grid, c: &Change) -> u64 {
    c.iter().fold(0u64, |h, &(q, v)| {
        h.wrapping_add(cell_key(q, v)).wrapping_sub(cell_key(q, before.code(q)))
    })
}

/// A 64-bit mix (splitmix64's finaliser), for the turn's keys.
fn mix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
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
        assert_eq!(before.wrapping_add(moved), board_hash(&g));
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
