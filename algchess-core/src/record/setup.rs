//! A match set up from a FEN: the count a FEN carries where makruk's
//! counting runs, the board size checked, and the position checked to be
//! one (kings, pawns' ranks, the side not to move not in check); and a
//! match's position written as a FEN.

use super::error::PositionError;
use super::fen;
use crate::geometry::Square;
use crate::play::game::squares;
use crate::play::repetition;
use crate::play::{Count, Match, Position, Rules};
use crate::semantics::Grid;

/// A FEN of a game that counts (makruk's) with its count's limit, which
/// stands where the en passant square does, as Fairy-Stockfish writes it
/// (`w - 128 6 1`), taken out: the FEN with `-` there, and the limit. The
/// clock then holds the plies counted. Other FENs are kept as they are.
pub fn fen_count(rules: &Rules, text: &str) -> (String, Option<u32>) {
    let mut fields: Vec<&str> = text.split_whitespace().collect();
    match fields.get(3) {
        Some(f) if rules.ends.counting.is_some() && !f.is_empty() && f.bytes().all(|b| b.is_ascii_digit()) => {
            let limit = f.parse::<u32>().ok().filter(|n| *n > 0);
            fields[3] = "-";
            (fields.join(" "), limit)
        }
        _ => (text.to_string(), None),
    }
}

/// Whether a board read from a FEN is one of `rules`' boards: FEN draws
/// square boards, of the size the game is played on.
pub fn fen_fits(rules: &Rules, board: &Grid) -> Result<(), PositionError> {
    if rules.tiling != crate::geometry::Tiling::Square {
        return Err(PositionError::NotSquare {
            game: rules.name.to_string(),
            tiling: rules.tiling,
        });
    }
    let start = rules.start().board;
    let (w, h) = (board.width(), board.height());
    if (w, h) != (start.width(), start.height()) {
        return Err(PositionError::Size {
            game: rules.name.to_string(),
            found: (w, h),
            want: (start.width(), start.height()),
        });
    }
    Ok(())
}

impl<'a> Match<'a> {
    /// A chess game from a FEN, checked to be a position: as many kings a
    /// side as the start has (one; horde's white none), no pawn on the
    /// rank it promotes on nor, unless the start has one there, on its
    /// first rank, the side not to move not in check.
    pub fn from_fen(rules: &'a Rules, text: &str) -> Result<Match<'a>, PositionError> {
        Match::from_fen_lazy(rules, text, false)
    }

    /// [`from_fen`](Match::from_fen), finding moves only when asked for
    /// when `lazy`.
    pub(super) fn from_fen_lazy(rules: &'a Rules, text: &str, lazy: bool) -> Result<Match<'a>, PositionError> {
        let (text, limit) = &fen_count(rules, text);
        let limit = *limit;
        let (board, black) = fen::read(text, &rules.pieces).map_err(PositionError::Unreadable)?;
        fen_fits(rules, &board)?;
        let (mut halfmove, fullmove) = fen::counters(text).map_err(PositionError::Unreadable)?;
        let counted = limit.map(|limit| Count {
            limit,
            ply: std::mem::take(&mut halfmove),
        });
        let pos = Position {
            board,
            turn: usize::from(black) % rules.turns.len(),
        };
        let start = rules.start().board;
        let top = pos.board.height() - 1;
        let count = |b: &Grid, f: &dyn Fn(Square, char) -> bool| {
            squares(b)
                .filter(|q| b.letter(*q, &rules.pieces).is_some_and(|l| f(*q, l)))
                .count()
        };
        for (king, side) in [('K', "white"), ('k', "black")] {
            let (n, want) = (count(&pos.board, &|_, l| l == king), count(&start, &|_, l| l == king));
            if n != want {
                return Err(PositionError::Kings { side, want, found: n });
            }
        }
        // White's pawns start on rank 2 and promote on the last; black's
        // the other way round.
        let first = |l: char, y: i32| (l == 'P' && y == 0) || (l == 'p' && y == top);
        let last = |l: char, y: i32| (l == 'P' && y == top) || (l == 'p' && y == 0);
        let behind = |b: &Grid, l: char| count(b, &|q, m| m == l && first(m, q.y)) > 0;
        if let Some(q) = squares(&pos.board).find(|q| {
            pos.board
                .letter(*q, &rules.pieces)
                .is_some_and(|l| last(l, q.y) || (first(l, q.y) && !behind(&start, l)))
        }) {
            return Err(PositionError::PawnRank(q));
        }
        let other = (pos.turn + 1) % rules.turns.len();
        if rules.in_check(&pos.board, other)? {
            return Err(PositionError::InCheck);
        }
        let mut m = Match::started(rules, pos, halfmove, fullmove, lazy)?;
        m.count = counted;
        Ok(m)
    }

    /// The position in FEN, counters included, the en passant square only
    /// when en passant is legal; `None` when the board is not chess's.
    pub fn fen(&self) -> Option<String> {
        if self.rules.turns.len() != 2 {
            return None;
        }
        let text = fen::write_counted(
            &self.pos.board,
            self.pos.turn == 1,
            self.halfmove,
            self.fullmove,
            &self.rules.pieces,
        )
        .ok()?;
        let ep = repetition::en_passant_legal(self.rules, &self.pos.board, self.pos.turn).ok()?;
        let mut f: Vec<String> = text.split(' ').map(str::to_string).collect();
        if !ep {
            f[3] = "-".into();
        }
        // A count writes its limit in place of the en passant square and
        // its plies in place of the clock, as Fairy-Stockfish does.
        if let Some(c) = self.count {
            f[3] = c.limit.to_string();
            f[4] = c.ply.to_string();
        }
        Some(f.join(" "))
    }
}
