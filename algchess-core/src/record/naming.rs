//! A legal move's name: SAN with its check mark, PDN on a draughts
//! board, the cells on hex.

use super::{move_names, pdn, san};
use crate::geometry::Tiling;
use crate::play::end::Test;
use crate::play::{Match, TooBig};

impl<'a> Match<'a> {
    /// Legal move `i` in SAN, with `+` or `#` when it gives check or mate.
    /// On hex, SAN's piece letters give way to the cells, as `play` names
    /// moves: `f5f6`, `f10f11=♕`.
    pub fn san(&mut self, i: usize) -> Result<String, TooBig> {
        let base = self.san_base(i);
        let c = self.moves[i].clone();
        let next = self.next(self.pos.turn);
        let undo = self.push(&c);
        let mark = self.check_mark(next);
        self.pop(undo);
        Ok(format!("{base}{}", mark?))
    }

    /// `+` or `#` when turn `turn`, to move on the board as it stands, is
    /// in check or mated.
    fn check_mark(&mut self, turn: usize) -> Result<&'static str, TooBig> {
        if !self.test(Test::Check, turn)? {
            return Ok("");
        }
        Ok(if self.successors(turn)?.is_empty() { "#" } else { "+" })
    }

    /// Legal move `i` in SAN without its check mark.
    pub(super) fn san_base(&self, i: usize) -> String {
        if let Some(ply) = self.pdn_name(i) {
            return ply;
        }
        match self.rules.tiling {
            Tiling::Square => san::write(&self.pos.board, &self.moves, self.rules, i),
            Tiling::Hex => {
                move_names::describe_on(&self.pos.board, &self.legal()[i].board, Tiling::Hex, &self.rules.pieces)
            }
        }
    }

    /// Plays legal move `i` and gives it in SAN with its check mark, which
    /// the position it reaches tells without a second move generation.
    pub fn play_san(&mut self, i: usize) -> Result<String, TooBig> {
        let base = self.san_base(i);
        self.play_named(i, base)
    }

    /// [`play_san`](Match::play_san) with the SAN known.
    fn play_named(&mut self, i: usize, mut base: String) -> Result<String, TooBig> {
        self.play(i)?;
        if self.in_check()? {
            self.mark(&mut base)?;
        }
        Ok(base)
    }

    /// Writes the check mark of the side to move, in check, on `san`:
    /// `#` when it has no move, else `+`.
    pub(super) fn mark(&mut self, san: &mut String) -> Result<(), TooBig> {
        san.push(if self.has_move()? { '+' } else { '#' });
        Ok(())
    }

    /// Legal move `i` in PDN, on a draughts board (see [`pdn::numbered`]).
    fn pdn_name(&self, i: usize) -> Option<String> {
        if self.rules.tiling != Tiling::Square || !pdn::numbered(&self.rules.start().board) {
            return None;
        }
        pdn::name(&self.pos.board, &self.legal()[i].board, self.legal())
    }
}
