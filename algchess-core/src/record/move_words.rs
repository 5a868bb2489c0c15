//! Names of moves for the protocols, one word each: UCI's (`e2e4`,
//! `e7e8q`) when one piece moves, PDN's on a draughts board (`11-15`),
//! the cell a piece is put on (Othello's `d3`), else the changed squares
//! (`a1='X`); `0000` for a pass. A name two moves share gives way to the
//! changed squares, so every legal move has its own. Castling is the
//! king's move (`e1g1`), or in Chess960's names the king's move onto its
//! rook (`e1h1`, [`Castling::KingTakesRook`]) or `O-O` (XBoard's).

use super::error::MoveError;
use super::move_names::{describe_on, uci_on};
use super::pdn;
use crate::geometry::Square;
use crate::play::{Match, TooBig};
use crate::semantics::Code;

/// How castling is named.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Castling {
    /// By the king's move: `e1g1`.
    #[default]
    KingMove,
    /// By the king's move onto its rook, as UCI names Chess960's: `e1h1`.
    KingTakesRook,
    /// `O-O` and `O-O-O`, as XBoard names Chess960's.
    Letters,
}

/// The name of every legal move of `m`, in its order.
pub fn names(m: &mut Match) -> Result<Vec<String>, TooBig> {
    names_as(m, Castling::KingMove)
}

/// [`names`], castling named as `castling` says.
pub fn names_as(m: &mut Match, castling: Castling) -> Result<Vec<String>, TooBig> {
    let board = m.pos.board.clone();
    let tiling = m.rules.tiling;
    let draughts = tiling == crate::geometry::Tiling::Square && pdn::numbered(&m.rules.start().board);
    let mut out = Vec::with_capacity(m.count());
    let mut full = Vec::with_capacity(m.count());
    for i in 0..m.count() {
        let c = m.changes()[i].clone();
        let mut after = board.clone();
        after.apply(&c);
        let described: String = describe_on(&board, &after, tiling, &m.rules.pieces)
            .split_whitespace()
            .collect();
        let placed: Vec<_> = c
            .iter()
            .filter(|&&(q, v)| board.code(q) == Code::EMPTY && v != Code::EMPTY)
            .collect();
        let castled = match castling {
            Castling::KingMove => None,
            _ => castles(m, &board, &c),
        };
        let name = if c.is_empty() {
            "0000".to_string()
        } else if let Some((king, rook)) = castled {
            match castling {
                Castling::Letters if rook.x > king.x => "O-O".to_string(),
                Castling::Letters => "O-O-O".to_string(),
                _ => format!("{}{}", king.name(), rook.name()),
            }
        } else if draughts {
            m.san(i)?
        } else if let Some(u) = uci_on(&board, &after, tiling, &m.rules.pieces) {
            u
        } else if placed.len() == 1 && c.iter().all(|&(q, v)| v != Code::EMPTY || board.code(q) == Code::EMPTY) {
            super::move_names::cell_name(&board, tiling, placed[0].0)
        } else {
            described.clone()
        };
        out.push(name);
        full.push(described);
    }
    for i in 0..out.len() {
        if out.iter().filter(|n| **n == out[i]).count() > 1 {
            out[i] = full[i].clone();
        }
    }
    for i in 0..out.len() {
        if out.iter().filter(|n| **n == out[i]).count() > 1 {
            out[i] = format!("{}/{}", out[i], i + 1);
        }
    }
    Ok(out)
}

/// Where the king and the rook stand when change `c` castles: it writes
/// on a square of a king and on a square of a rook of the same colour
/// (no other move touches both; a Chess960 king or rook may stay where it
/// stands, losing only its right to castle).
fn castles(m: &Match, board: &crate::semantics::Grid, c: &crate::semantics::Change) -> Option<(Square, Square)> {
    let letter = |q: Square| m.rules.codes.letter(board.code(q));
    let find = |l: char| c.iter().find(|&&(q, _)| letter(q) == Some(l)).map(|&(q, _)| q);
    [('K', 'R'), ('k', 'r')]
        .into_iter()
        .find_map(|(k, r)| Some((find(k)?, find(r)?)))
}

/// The legal move that `text` names: one of [`names`], or any name the
/// referee reads (SAN, `e2e4`).
pub fn find(m: &mut Match, text: &str) -> Result<usize, MoveError> {
    let all = names(m)?;
    if let Some(i) = all.iter().position(|n| n == text) {
        return Ok(i);
    }
    // Chess960's castling, the king's move onto its rook (`e1d1` when the
    // rook stays on d1 and the king goes to c1).
    let kr = names_as(m, Castling::KingTakesRook)?;
    if let Some(i) = (0..kr.len()).find(|&i| kr[i] == text && kr[i] != all[i]) {
        return Ok(i);
    }
    if m.count() == 0 {
        return Err(MoveError::NoMoves(text.to_string()));
    }
    m.find_or_why(text).map_err(|e| {
        if all.len() <= 40 {
            MoveError::Listed {
                error: Box::new(e),
                legal: all,
            }
        } else {
            e
        }
    })
}

/// The names along a line of move indices from the position of `m`,
/// as far as each index is a legal move.
pub fn line(m: &mut Match, pv: &[usize]) -> Result<Vec<String>, TooBig> {
    line_as(m, pv, Castling::KingMove)
}

/// [`line()`], castling named as `castling` says.
pub fn line_as(m: &mut Match, pv: &[usize], castling: Castling) -> Result<Vec<String>, TooBig> {
    let mut out = vec![];
    let mut plies = vec![];
    let mut failed = None;
    for &i in pv {
        if i >= m.count() {
            break;
        }
        match names_as(m, castling).and_then(|n| {
            out.push(n[i].clone());
            m.enter_for_search(i)
        }) {
            Ok(p) => plies.push(p),
            Err(e) => {
                failed = Some(e);
                break;
            }
        }
    }
    while let Some(p) = plies.pop() {
        m.leave(p);
    }
    match failed {
        Some(e) => Err(e),
        None => Ok(out),
    }
}
