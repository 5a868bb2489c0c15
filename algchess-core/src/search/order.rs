//! Move ordering: the table's move first, then moves that win material
//! by most valuable victim, least valuable attacker (MVV-LVA), then the
//! killers of the ply (quiet moves that cut off a sibling), then by
//! history (how often and how deep a move cut off).

use super::values::Values;
use crate::semantics::{Change, Grid};

const HISTORY: usize = 1 << 14;
/// The score of a killer; quiet moves by history score below it.
pub(super) const KILLER: i32 = 1 << 27;

pub(super) struct Order {
    killers: Vec<[u64; 2]>,
    history: Vec<i32>,
}

/// What a move wins: the change of material for `side`, and the value of
/// the piece it moves (the attacker).
pub(super) fn gain(values: &Values, board: &Grid, c: &Change, side: usize) -> (i32, i32) {
    let mut gain = 0;
    let mut attacker = 0;
    for &(q, v) in c {
        let old = board.code(q);
        gain += values.signed(v, side) - values.signed(old, side);
        if values.signed(old, side) > 0 {
            attacker = attacker.max(values.signed(old, side));
        }
    }
    (gain, attacker)
}

impl Default for Order {
    fn default() -> Order {
        Order::new()
    }
}

impl Order {
    pub(super) fn new() -> Order {
        Order {
            killers: vec![[0; 2]; 256],
            history: vec![0; HISTORY],
        }
    }

    /// Forgets killers and halves history, between searches.
    pub(super) fn age(&mut self) {
        self.killers.iter_mut().for_each(|k| *k = [0; 2]);
        self.history.iter_mut().for_each(|h| *h /= 2);
    }

    /// A score per move, higher first: `keys` are the moves' fingerprints,
    /// `gains` what each wins, `best` the table's move.
    pub(super) fn scores(&self, keys: &[u64], gains: &[(i32, i32)], best: Option<usize>, ply: usize) -> Vec<i32> {
        let killers = self.killers.get(ply).copied().unwrap_or([0; 2]);
        keys.iter()
            .zip(gains)
            .enumerate()
            .map(|(i, (&k, &(g, a)))| {
                if Some(i) == best {
                    i32::MAX
                } else if g > 0 {
                    1 << 28 | (g * 16 - a / 16).clamp(0, (1 << 27) - 1)
                } else if k == killers[0] {
                    KILLER | 1
                } else if k == killers[1] {
                    KILLER
                } else {
                    self.history[k as usize % HISTORY].min((1 << 26) - 1)
                }
            })
            .collect()
    }

    /// Quiet move `key` cut off at `ply`, `depth` plies from the leaves.
    pub(super) fn cut(&mut self, key: u64, ply: usize, depth: i32) {
        if let Some(k) = self.killers.get_mut(ply) {
            if k[0] != key {
                k[1] = k[0];
                k[0] = key;
            }
        }
        let h = &mut self.history[key as usize % HISTORY];
        *h = (*h + depth * depth).min(1 << 25);
    }
}

/// The move of the highest score among `list[from..]` (score,
/// fingerprint, move), moved to `from`. Ties go to the higher
/// fingerprint, so the order does not hang on the order the moves were
/// generated in.
pub(super) fn pick(list: &mut [(i32, u64, usize)], from: usize) -> usize {
    let mut best = from;
    for i in from + 1..list.len() {
        if (list[i].0, list[i].1) > (list[best].0, list[best].1) {
            best = i;
        }
    }
    list.swap(from, best);
    list[from].2
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_move_then_captures_then_killers_then_history() {
        let mut o = Order::new();
        o.cut(30, 2, 3);
        o.cut(40, 5, 4);
        let keys = [10, 20, 30, 40, 50];
        let gains = [(0, 0), (300, 100), (0, 0), (0, 0), (900, 900)];
        let s = o.scores(&keys, &gains, Some(0), 2);
        let mut order: Vec<usize> = (0..5).collect();
        order.sort_by_key(|&i| std::cmp::Reverse(s[i]));
        assert_eq!(order, [0, 4, 1, 2, 3]);
    }
}
