//! Plies a search makes and takes back on a match: the position reached
//! is not counted for repetition, the state before it is kept whole.

use super::counting::Count;
use super::game::TooBig;
use super::ongoing::Match;
use super::repetition;
use crate::semantics::Change;
use std::cell::OnceCell;

/// A ply made for a search, to be taken back: what it overwrote and the
/// state before it.
pub struct Entered {
    undo: Change,
    halfmove: u32,
    fullmove: u32,
    turn: usize,
    moves: Vec<Change>,
    reached: u32,
    series: Vec<(usize, Vec<bool>)>,
    count: Option<Count>,
}

impl<'a> Match<'a> {
    /// Plays legal move `i` so that [`leave`](Match::leave) takes it back,
    /// for a search: the position reached is not counted for repetition
    /// (a search keeps its own), so `end` tells every end but a fifth
    /// repetition.
    pub fn enter_for_search(&mut self, i: usize) -> Result<Entered, TooBig> {
        let c = self.moves[i].clone();
        self.enter_change_for_search(c)
    }

    /// A null move for a search (the side to move passes; an en passant
    /// capture it allowed is gone), taken back by [`leave`](Match::leave).
    pub fn pass_for_search(&mut self) -> Result<Entered, TooBig> {
        let c = repetition::unmarked(&self.rules.codes, &self.pos.board);
        self.enter_change_for_search(c)
    }

    fn enter_change_for_search(&mut self, c: Change) -> Result<Entered, TooBig> {
        let halfmove = self.halfmove;
        self.halfmove = if self.resets(&c) { 0 } else { self.halfmove + 1 };
        let before = self.material();
        let undo = self.push(&c);
        let ply = Entered {
            undo,
            halfmove,
            fullmove: self.fullmove,
            turn: self.pos.turn,
            moves: std::mem::take(&mut self.moves),
            reached: self.reached,
            series: self.series.clone(),
            count: self.count,
        };
        self.pos.turn = self.next(self.pos.turn);
        if self.pos.turn == 0 {
            self.fullmove += 1;
        }
        self.legal = OnceCell::new();
        self.reached = 1;
        self.recount(before);
        let mut moves = Vec::with_capacity(ply.moves.len());
        let found = self
            .follow_series()
            .and_then(|()| self.successors_into(self.pos.turn, &mut moves));
        self.moves = moves;
        match found {
            Ok(()) => Ok(ply),
            Err(e) => {
                self.leave(ply);
                Err(e)
            }
        }
    }

    /// Takes back the ply [`enter_for_search`](Match::enter_for_search)
    /// made; plies are taken back last first.
    pub fn leave(&mut self, ply: Entered) {
        self.pop(ply.undo);
        self.halfmove = ply.halfmove;
        self.fullmove = ply.fullmove;
        self.pos.turn = ply.turn;
        self.moves = ply.moves;
        self.reached = ply.reached;
        self.series = ply.series;
        self.count = ply.count;
        self.legal = OnceCell::new();
    }
}
