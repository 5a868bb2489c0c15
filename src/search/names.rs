//! Names of moves for the protocols, one word each: UCI's (`e2e4`,
//! `e7e8q`) when one piece moves, PDN's on a draughts board (`11-15`),
//! the cell a piece is put on (Othello's `d3`), else the changed squares
//! (`a1='X`); `0000` for a pass. A name two moves share gives way to the
//! changed squares, so every legal move has its own.

use crate::play::notation::{describe_on, uci_on};
use crate::play::pdn;
use crate::play::referee::Match;
use crate::play::TooBig;
use crate::semantics::Code;

/// The name of every legal move of `m`, in its order.
pub fn names(m: &mut Match) -> Result<Vec<String>, TooBig> {
    let board = m.pos.board.clone();
    let tiling = m.rules.tiling;
    let draughts = tiling == crate::geometry::Tiling::Square && pdn::numbered(&m.rules.start().board);
    let mut out = Vec::with_capacity(m.count());
    let mut full = Vec::with_capacity(m.count());
    for i in 0..m.count() {
        let c = m.changes()[i].clone();
        let mut after = board.clone();
        after.apply(&c);
        let described: String = describe_on(&board, &after, tiling).split_whitespace().collect();
        let placed: Vec<_> = c
            .iter()
            .filter(|&&(q, v)| board.code(q) == Code::EMPTY && v != Code::EMPTY)
            .collect();
        let name = if c.is_empty() {
            "0000".to_string()
        } else if draughts {
            m.san(i)?
        } else if let Some(u) = uci_on(&board, &after, tiling) {
            u
        } else if placed.len() == 1 && c.iter().all(|&(q, v)| v != Code::EMPTY || board.code(q) == Code::EMPTY) {
            crate::play::notation::cell_name(&board, tiling, placed[0].0)
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

/// The legal move that `text` names: one of [`names`], or any name the
/// referee reads (SAN, `e2e4`).
pub fn find(m: &mut Match, text: &str) -> Result<usize, String> {
    let all = names(m).map_err(|e| e.to_string())?;
    if let Some(i) = all.iter().position(|n| n == text) {
        return Ok(i);
    }
    if m.count() == 0 {
        return Err(format!("`{text}` is not a legal move: the side to move has none"));
    }
    m.find(text).map_err(|e| {
        if all.len() <= 40 {
            format!("{e} (legal: {})", all.join(" "))
        } else {
            e
        }
    })
}

/// The names along a line of move indices from the position of `m`,
/// as far as each index is a legal move.
pub fn line(m: &mut Match, pv: &[usize]) -> Result<Vec<String>, TooBig> {
    let mut out = vec![];
    let mut plies = vec![];
    let mut failed = None;
    for &i in pv {
        if i >= m.count() {
            break;
        }
        match names(m).and_then(|n| {
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
