//! The legal move a text names (SAN, UCI, PDN, hex cells), found among
//! one piece's moves in a replay, and why none is where that can be told.

use super::error::MoveError;
use super::{move_names, pdn, san};
use crate::engine::Vacate;
use crate::geometry::Tiling;
use crate::play::{Match, Position, TooBig};
use crate::semantics::{CellSet, Change};
use std::cell::OnceCell;

impl<'a> Match<'a> {
    /// What to ask the engine for the moves of SAN piece letter `l`: the
    /// squares of the codes spelt with it, in either case, left without a
    /// piece. SAN's castling (`K`) moves a king and a rook: a rook's
    /// square is left without a piece or with the king on it.
    fn vacate(&mut self, l: char) -> Vacate {
        if let Some((_, v)) = self.letters.iter().find(|(m, _)| *m == l) {
            return *v;
        }
        let p = &self.rules.codes;
        let (mut codes, mut kept) = (CellSet::default(), CellSet::default());
        for c in 0..=u8::MAX {
            if let Some(m) = p.letter(c).map(|m| m.to_ascii_uppercase()) {
                if m == l || (l == 'K' && m == 'R') {
                    codes.insert_code(c);
                }
                if l != 'K' || m != 'K' {
                    kept.insert_code(c);
                }
            }
        }
        let v = Vacate { codes, kept };
        self.letters.push((l, v));
        v
    }

    /// In a replay, the legal move a SAN names and its SAN as
    /// [`play_san`](Match::play_san) writes it, found among the moves of
    /// the piece it names alone: `None` when that does not tell one move
    /// (none, several, a notation other than SAN's piece moves), for the
    /// full search to tell why. A SAN names a move that takes a piece of
    /// its letter off its square, so the engine need only run the parts
    /// of the turn that may ([`Vacate`]); castling and a king's moves
    /// (which may be castling, written as the king's move) are those that
    /// may take a king or a rook off its square.
    pub(super) fn find_vacating(&mut self, text: &str) -> Result<Option<(usize, String)>, TooBig> {
        if self.full || self.rules.tiling != Tiling::Square || self.rules.ends.passes() || pdn::is_pdn(text) {
            return Ok(None);
        }
        let Some(w) = san::Wanted::parse(text) else {
            return Ok(None);
        };
        let Some((l, to)) = w.piece_move() else {
            return Ok(None);
        };
        let v = self.vacate(l);
        let turn = self.pos.turn;
        let mut moves = std::mem::take(&mut self.moves);
        let found = self.seat.moves_vacating(turn, &v, to, &mut moves);
        self.moves = moves;
        let Some(found) = found else {
            return Ok(None);
        };
        self.legal = OnceCell::new();
        found?;
        let named = san::read_named(&w, &self.pos.board, &self.moves, &self.rules.codes);
        self.moving = named.is_some();
        Ok(named)
    }

    /// The legal move that `text` names: SAN (`Nf3`, `exd5`, `e8=Q+`,
    /// `O-O`, annotations such as `!?` ignored) or UCI (`g1f3`, `e7e8q`).
    /// A move that is not legal is only reported as such; see
    /// [`find_or_why`](Match::find_or_why) for the reason.
    pub fn find(&self, text: &str) -> Result<usize, MoveError> {
        if self.rules.tiling == Tiling::Square && pdn::is_pdn(text) {
            return pdn::find(text, &self.pos.board, self.legal());
        }
        if self.rules.tiling == Tiling::Hex {
            return self.find_cells(text);
        }
        san::read(text, &self.pos.board, &self.moves, self.rules)
    }

    /// [`find`](Match::find), telling why a move that is not legal is
    /// refused where that can be known. The reason costs a run of the
    /// rules without their tests, so it is only worked out for a refusal
    /// a reader will see.
    pub fn find_or_why(&self, text: &str) -> Result<usize, MoveError> {
        self.find(text).map_err(|e| match e {
            MoveError::NotLegal(t) => match self.why_not(text) {
                Some(why) => MoveError::Illegal { text: t, why },
                None => MoveError::NotLegal(t),
            },
            other => other,
        })
    }

    /// Why no legal move is the SAN or UCI `text`, where that can be told
    /// (see [`san::why_not`]): the rules are run again without the side's
    /// check test, and without any test, by the interpreter.
    pub(super) fn why_not(&self, text: &str) -> Option<String> {
        let board = &self.pos.board;
        let turn = self.pos.turn;
        let pos = Position {
            board: board.clone(),
            turn,
        };
        let legal: Vec<Change> = self
            .rules
            .successors(&pos)
            .ok()?
            .iter()
            .map(|p| board.change_to(&p.board))
            .collect();
        let in_check = self.rules.in_check(board, turn).ok()?;
        let mut unchecked = |which| {
            let prog = self.rules.unchecked(turn, which)?;
            let boards = self.rules.boards_of(prog, board).ok()?;
            Some(boards.iter().map(|b| board.change_to(b)).collect())
        };
        san::why_not(text, board, &legal, &mut unchecked, in_check, &self.rules.codes)
    }

    /// On hex: the legal move named by its cells, as `play` names it.
    fn find_cells(&self, text: &str) -> Result<usize, MoveError> {
        let t = text.trim().trim_end_matches(['+', '#', '!', '?']);
        let named = |i: usize| {
            move_names::describe_on(&self.pos.board, &self.legal()[i].board, Tiling::Hex, &self.rules.pieces)
        };
        let found: Vec<usize> = (0..self.moves.len()).filter(|&i| named(i) == t).collect();
        match found[..] {
            [i] => Ok(i),
            [] => Err(MoveError::NotLegalOnHex(text.trim().to_string())),
            _ => Err(MoveError::AmbiguousCells(text.trim().to_string())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::play::Rules;

    /// Follows random games of `rules` from `start` (a FEN, or the rules'
    /// start), and at each position reads the SAN of every legal move, and
    /// texts naming moves that are not there, both ways: among the moves of
    /// the piece named (a replay's way) and among all moves. The first must
    /// find exactly what the second finds, whenever it finds anything, and
    /// must find every legal move's SAN.
    fn lookups_agree(rules: &Rules, start: Option<&str>, seed: u64) {
        let mut m = match start {
            Some(f) => Match::from_fen(rules, f).unwrap(),
            None => Match::new(rules, rules.start(), 0, 1).unwrap(),
        };
        let mut rng = seed.wrapping_mul(2862933555777941757).wrapping_add(3037000493);
        let sorted = |c: &Change| {
            let mut k: Vec<_> = c.iter().map(|(q, v)| (q.y, q.x, *v)).collect();
            k.sort_unstable();
            k
        };
        for _ in 0..60 {
            if m.count() == 0 {
                break;
            }
            let mut texts: Vec<String> = (0..m.count()).map(|i| m.san_base(i)).collect();
            // The same squares with the other pieces' letters, and castling.
            let named: Vec<String> = texts
                .iter()
                .map(|t| t.trim_start_matches(char::is_uppercase).to_string())
                .collect();
            for t in named {
                texts.extend("NBRQKAC".chars().map(|l| format!("{l}{t}")));
            }
            texts.extend(["O-O", "O-O-O", "Kg1", "Kc1", "Kg8", "Kc8"].map(String::from));
            for t in &texts {
                let mut lazy = m.clone();
                (lazy.lazy, lazy.full, lazy.moving) = (true, false, false);
                lazy.moves.clear();
                let fast = lazy.find_vacating(t).unwrap();
                let full = m.find(t);
                match (fast, &full) {
                    (Some((j, name)), Ok(i)) => {
                        assert_eq!(sorted(&lazy.moves[j]), sorted(&m.moves[*i]), "{t} seed {seed}");
                        assert_eq!(name, m.san_base(*i), "{t} seed {seed}");
                    }
                    (Some(_), Err(e)) => {
                        panic!("{t}: found among a piece's moves, but not among all: {e}, seed {seed}")
                    }
                    (None, Ok(_)) if texts[..m.count()].contains(t) => {
                        panic!("{t}: a legal move's SAN not found among its piece's moves, seed {seed}")
                    }
                    _ => {}
                }
            }
            rng = rng.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            m.play((rng >> 33) as usize % m.count()).unwrap();
        }
    }

    #[test]
    fn a_san_is_found_among_its_pieces_moves_as_among_all() {
        let load = |f: &str| crate::testing::load(f);
        let chess = load("rules/chess.alg");
        let rules = Rules::fast(&chess.games()[0]);
        for seed in 0..8 {
            lookups_agree(&rules, None, seed);
        }
        let capablanca = load("rules/variants/capablanca.alg");
        lookups_agree(&Rules::fast(&capablanca.games()[0]), None, 1);
        // Chess960 starts, whose castling moves a king and a rook any way.
        let c960 = load("rules/variants/chess960.alg");
        let rules = Rules::fast(&c960.games()[0]);
        let table = crate::testing::read("tests/fixtures/chess960/perft.epd");
        for (k, fen) in table
            .lines()
            .filter_map(|l| l.strip_prefix("epd "))
            .take(24)
            .enumerate()
        {
            lookups_agree(&rules, Some(fen), k as u64);
        }
    }
}
