//! A hash of positions for the transposition table and for repetition:
//! each (square, code) pair has a key, a board's key is the xor of its
//! squares' keys, so a move's change moves it by the keys it rewrites.

use crate::geometry::Square;
use crate::semantics::{Change, Grid};

/// A 64-bit mix (splitmix64's finaliser).
fn mix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// The key of code `v` on square `q`.
pub(super) fn cell_key(q: Square, v: u8) -> u64 {
    let x = (q.x as i64 + (1 << 20)) as u64;
    let y = (q.y as i64 + (1 << 20)) as u64;
    mix(x | y << 21 | u64::from(v) << 42)
}

/// The key of turn `turn` to move.
pub fn turn_key(turn: usize) -> u64 {
    mix(0x5eed_0000_0000_0000 ^ turn as u64)
}

/// The key of a board, the side to move aside.
pub fn board_key(g: &Grid) -> u64 {
    let o = g.origin();
    let mut k = 0;
    for y in 0..g.height() {
        for x in 0..g.width() {
            let q = Square::new(o.x + x, o.y + y);
            k ^= cell_key(q, g.code(q));
        }
    }
    k
}

/// How change `c` made on `before` moves the board's key; also the move's
/// fingerprint, for killers and history.
pub(super) fn change_key(before: &Grid, c: &Change) -> u64 {
    c.iter()
        .fold(0, |k, &(q, v)| k ^ cell_key(q, before.code(q)) ^ cell_key(q, v))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_change_moves_the_key_to_the_key_of_the_board_it_makes() {
        let mut g = Grid::off(Square::new(0, 0), 3, 2);
        for (i, q) in [Square::new(0, 0), Square::new(1, 1), Square::new(2, 0)]
            .into_iter()
            .enumerate()
        {
            g.apply(&smallvec::smallvec![(q, i as u8)]);
        }
        let before = board_key(&g);
        let c: Change = smallvec::smallvec![(Square::new(0, 0), 3), (Square::new(1, 0), 4)];
        let moved = change_key(&g, &c);
        g.apply(&c);
        assert_eq!(before ^ moved, board_key(&g));
        assert_ne!(moved, 0);
    }
}
