//! Piece values read off the rules, not written by hand: random games are
//! played from the start, and in each position reached every legal move
//! is credited to the piece that leaves its square. A piece's value is
//! its mean number of moves per appearance on the board (its mobility),
//! scaled so that the most numerous piece of the start is worth 100.
//! A piece belongs to the side whose moves write it. Each move of
//! mobility is worth a tenth of the unit piece's value per move.

use crate::geometry::Square;
use crate::ir::Content;
use crate::play::{Match, Position, Rules, TooBig};
use crate::semantics::{change_hash, Code, Grid};

/// Values for one game.
#[derive(Clone, Debug)]
pub struct Values {
    /// Centipawns of each code (the piece it looks like: a marker such as
    /// an en passant pawn is the piece).
    pub value: Vec<i32>,
    /// The side (turn index) each code belongs to.
    pub owner: Vec<Option<usize>>,
    /// The mean moves per appearance of each code.
    pub mobility: Vec<f64>,
    /// Centipawns for each legal move more than the other side.
    pub per_move: i32,
    /// The code worth 100, if any piece moves from its square.
    pub unit: Option<u8>,
    /// Positions the values were averaged over.
    pub positions: usize,
    /// Centipawns of each code on each square of the board's box (code
    /// times cells plus square), beyond its value: how much more often
    /// the side that had it there won its random game to the end.
    pub squares: Vec<i32>,
    /// Random games played to their end for `squares`.
    pub ended: usize,
    looks: Vec<u8>,
    sides: usize,
}

/// A small deterministic generator (a linear congruential one).
pub(super) struct Rng(pub u64);

impl Rng {
    pub(super) fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) as usize) % n.max(1)
    }
}

/// A random legal move of `m`, drawn from its moves ordered by
/// fingerprint, so that the values do not hang on the order the moves
/// were generated in.
fn random_move(m: &Match, rng: &mut Rng) -> usize {
    let mut keyed: Vec<(u64, usize)> = m
        .changes()
        .iter()
        .enumerate()
        .map(|(i, c)| (change_hash(&m.pos.board, c), i))
        .collect();
    keyed.sort_unstable();
    keyed[rng.below(keyed.len())].1
}

fn is_piece(v: u8) -> bool {
    v != Code::EMPTY && v != Code::OFF && v != Code::POI
}

impl Values {
    /// Values from `games` random games of at most `plies` plies each.
    pub fn derive(rules: &Rules, games: usize, plies: usize, seed: u64) -> Result<Values, TooBig> {
        let sides = rules.turns.len();
        let looks: Vec<u8> = (0..=255u8).map(|v| rules.codes.looks(v)).collect();
        let mut credit = vec![0f64; 256];
        let mut seen = vec![vec![0u64; sides]; 256];
        let mut writes = vec![vec![0u64; sides]; 256];
        let mut rng = Rng(seed);
        let mut positions = 0;
        for _ in 0..games {
            let mut m = Match::new(rules, rules.start(), 0, 1)?;
            for _ in 0..plies {
                if m.count() == 0 || m.end()?.is_some() {
                    break;
                }
                positions += 1;
                let turn = m.pos.turn;
                for &v in m.pos.board.codes() {
                    if is_piece(v) {
                        seen[usize::from(looks[usize::from(v)])][turn] += 1;
                    }
                }
                for c in m.changes() {
                    let left: Vec<u8> = c
                        .iter()
                        .map(|&(q, _)| m.pos.board.code(q))
                        .zip(c.iter())
                        .filter(|&(old, &(_, new))| is_piece(old) && !is_piece(new))
                        .map(|(old, _)| looks[usize::from(old)])
                        .collect();
                    for &l in &left {
                        credit[usize::from(l)] += 1.0 / left.len() as f64;
                    }
                    for &(q, v) in c {
                        if is_piece(v) && looks[usize::from(v)] != looks[usize::from(m.pos.board.code(q))] {
                            writes[usize::from(looks[usize::from(v)])][turn] += 1;
                        }
                    }
                }
                m.play(random_move(&m, &mut rng))?;
            }
        }
        let owner: Vec<Option<usize>> = writes
            .iter()
            .map(|w| {
                let (side, n) = w.iter().enumerate().max_by_key(|(_, n)| **n)?;
                (*n > 0).then_some(side)
            })
            .collect();
        let mobility: Vec<f64> = (0..256)
            .map(|v| match owner[v] {
                Some(s) if seen[v][s] > 0 => credit[v] / seen[v][s] as f64,
                _ => 0.0,
            })
            .collect();
        // Random play from the start keeps pieces behind their pawns (a
        // rook comes out level with a knight); a piece alone on the board
        // shows its reach. The geometric mean of the two, where both move.
        let alone = alone_mobility(rules, &owner, &looks)?;
        let mut mobility: Vec<f64> = mobility
            .iter()
            .zip(&alone)
            .map(|(&m, &a): (&f64, &f64)| if m > 0.0 && a > 0.0 { (m * a).sqrt() } else { m })
            .collect();
        // A piece and its twin of the other side are worth the same: their
        // mean, so that a symmetric start is even.
        for p in rules.pieces.all() {
            let t = usize::from(Code::content(Content::Piece(rules.pieces.twin(p))));
            let v = usize::from(Code::content(Content::Piece(p)));
            if t != v && mobility[v] > 0.0 && mobility[t] > 0.0 && v < t {
                let mean = (mobility[v] + mobility[t]) / 2.0;
                mobility[v] = mean;
                mobility[t] = mean;
            }
        }
        // The unit: the most numerous piece of the start that moves.
        let start = rules.start().board;
        let mut count = vec![0usize; 256];
        for &v in start.codes() {
            count[usize::from(looks[usize::from(v)])] += 1;
        }
        let unit = (1..255u8)
            .filter(|&v| mobility[usize::from(v)] > 0.0)
            .max_by_key(|&v| (count[usize::from(v)], std::cmp::Reverse(v)));
        let (value, per_move) = match unit {
            Some(u) => {
                let m = mobility[usize::from(u)];
                let value = (0..256)
                    .map(|v| (100.0 * mobility[usize::from(looks[v])] / m).round() as i32)
                    .collect();
                (value, ((10.0 / m).round() as i32).max(1))
            }
            None => (vec![0; 256], 10),
        };
        // Values the file gives stand over the derived ones, for the piece,
        // its twin and the markers that look like them.
        let mut value = value;
        for &(p, cp) in &rules.ends.values {
            let codes = [p, rules.pieces.twin(p)].map(|q| Code::content(Content::Piece(q)));
            for (v, slot) in value.iter_mut().enumerate() {
                if codes.contains(&looks[v]) {
                    *slot = cp;
                }
            }
        }
        let owner: Vec<Option<usize>> = (0..256).map(|v| owner[usize::from(looks[v])]).collect();
        let unit_value = 100;
        let (squares, ended) = square_values(rules, &owner, &looks, games * 4, &mut rng, 2 * unit_value)?;
        Ok(Values {
            squares,
            ended,
            value,
            owner,
            mobility,
            per_move,
            unit,
            positions,
            looks,
            sides,
        })
    }

    /// The material on `board` for side `side`: its pieces' values less
    /// the others'.
    pub fn material(&self, board: &Grid, side: usize) -> i32 {
        let mut own = 0;
        let mut other = 0;
        let cells = board.codes().len();
        let fits = self.squares.len() == 256 * cells;
        for (k, &v) in board.codes().iter().enumerate() {
            let place = if fits {
                self.squares[usize::from(v) * cells + k]
            } else {
                0
            };
            match self.owner[usize::from(v)] {
                Some(s) if s == side => own += self.value[usize::from(v)] + place,
                Some(_) => other += self.value[usize::from(v)] + place,
                None => {}
            }
        }
        own - other / (self.sides as i32 - 1).max(1)
    }

    /// The value of code `v` for side `side`: its value when `side` owns
    /// it, less that otherwise.
    pub fn signed(&self, v: u8, side: usize) -> i32 {
        match self.owner[usize::from(v)] {
            Some(s) if s == side => self.value[usize::from(v)],
            Some(_) => -self.value[usize::from(v)],
            None => 0,
        }
    }

    /// The pieces that have a value, as (code, mobility, centipawns),
    /// highest first.
    pub fn table(&self) -> Vec<(u8, f64, i32)> {
        let mut out: Vec<(u8, f64, i32)> = (1..255u8)
            .filter(|&v| self.looks[usize::from(v)] == v && self.owner[usize::from(v)].is_some())
            .map(|v| (v, self.mobility[usize::from(v)], self.value[usize::from(v)]))
            .collect();
        out.sort_by(|a, b| b.2.cmp(&a.2).then(a.0.cmp(&b.0)));
        out
    }
}

/// The mean number of moves of each piece standing alone on the start's
/// board emptied, over every empty square, its owner to move.
fn alone_mobility(rules: &Rules, owner: &[Option<usize>], looks: &[u8]) -> Result<Vec<f64>, TooBig> {
    let mut empty = rules.start().board;
    let o = empty.origin();
    let squares: Vec<Square> = (0..empty.height())
        .flat_map(|y| (0..empty.width()).map(move |x| Square::new(o.x + x, o.y + y)))
        .collect();
    for &q in &squares {
        if is_piece(empty.code(q)) {
            empty.apply(&smallvec::smallvec![(q, Code::EMPTY)]);
        }
    }
    let free: Vec<Square> = squares.into_iter().filter(|&q| empty.code(q) == Code::EMPTY).collect();
    let mut out = vec![0.0; 256];
    for v in 1..255u8 {
        let Some(side) = owner[usize::from(v)] else { continue };
        if !is_piece(v) || looks[usize::from(v)] != v || free.is_empty() {
            continue;
        }
        let mut moves = 0;
        for &q in &free {
            let mut board = empty.clone();
            board.apply(&smallvec::smallvec![(q, v)]);
            moves += rules.successors(&Position { board, turn: side })?.len();
        }
        out[usize::from(v)] = moves as f64 / free.len() as f64;
    }
    Ok(out)
}

/// Square values: `games` random games played to their end (at most
/// 1000 plies each, 20,000 in all; games the rules leave unscored are skipped), and for each
/// code on each square, how far the mean result of its owner's games
/// stands from that code's mean on any square, times `scale`, damped
/// where it was seen rarely. Empty when no game ended.
fn square_values(
    rules: &Rules,
    owner: &[Option<usize>],
    looks: &[u8],
    games: usize,
    rng: &mut Rng,
    scale: i32,
) -> Result<(Vec<i32>, usize), TooBig> {
    let cells = rules.start().board.codes().len();
    let mut sum = vec![0f64; 256 * cells];
    let mut count = vec![0f64; 256 * cells];
    let mut ended = 0;
    // A budget of plies, so that long random games (chess's run to the
    // seventy-five-move rule) keep loading quick.
    let mut budget = 20_000usize;
    for _ in 0..games {
        if budget == 0 {
            break;
        }
        let mut m = Match::new(rules, rules.start(), 0, 1)?;
        let mut boards: Vec<Vec<u8>> = vec![];
        let mut end = None;
        for _ in 0..1000.min(budget) {
            budget -= 1;
            if let Some(o) = m.end()? {
                end = Some(o);
                break;
            }
            if m.count() == 0 {
                break;
            }
            boards.push(m.pos.board.codes().to_vec());
            m.play(random_move(&m, rng))?;
        }
        let Some(o) = end.filter(|o| o.draw || o.winner.is_some()) else {
            continue;
        };
        ended += 1;
        let result = |s: usize| match o.winner {
            _ if o.draw => 0.5,
            Some(w) if w == s => 1.0,
            _ => 0.0,
        };
        for b in &boards {
            for (k, &v) in b.iter().enumerate() {
                let v = looks[usize::from(v)];
                if let Some(s) = owner[usize::from(v)] {
                    sum[usize::from(v) * cells + k] += result(s);
                    count[usize::from(v) * cells + k] += 1.0;
                }
            }
        }
    }
    if ended == 0 {
        return Ok((vec![], 0));
    }
    let mut out = vec![0; 256 * cells];
    for v in 0..256 {
        let (s, n): (f64, f64) = (0..cells).fold((0.0, 0.0), |(a, b), k| {
            (a + sum[v * cells + k], b + count[v * cells + k])
        });
        if n == 0.0 {
            continue;
        }
        let mean = s / n;
        for k in 0..cells {
            let c = count[v * cells + k];
            if c > 0.0 {
                let damp = c / (c + 50.0);
                out[v * cells + k] = ((sum[v * cells + k] / c - mean) * damp * f64::from(scale)).round() as i32;
            }
        }
    }
    // Markers (an en passant pawn) are their pieces.
    for v in 0..256 {
        let l = usize::from(looks[v]);
        if l != v {
            for k in 0..cells {
                out[v * cells + k] = out[l * cells + k];
            }
        }
    }
    Ok((out, ended))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chess_values_put_the_queen_first_and_the_pawn_last() {
        let prog = crate::testing::load("rules/chess.alg");
        let rules = Rules::fast(&prog.games()[0]);
        let v = Values::derive(&rules, 64, 100, 1).unwrap();
        let code = |s: &str| {
            let g = crate::record::fen::placement(s, &crate::ir::Pieces::chess()).unwrap();
            g.codes().iter().copied().find(|&c| is_piece(c)).unwrap()
        };
        let [p, n, b, r, q] = ["P", "N", "B", "R", "Q"].map(|l| code(&format!("8/8/8/8/8/8/8/{l}7")));
        let val = |c: u8| v.value[usize::from(c)];
        assert_eq!(val(p), 100, "the pawn is the unit");
        for officer in [n, b, r] {
            assert!(val(officer) > 2 * val(p) && val(q) > val(officer), "{:?}", v.table());
        }
        assert_eq!(v.owner[usize::from(p)], Some(0));
        let start = rules.start().board;
        assert_eq!(v.material(&start, 0), -v.material(&start, 1));
    }
}
