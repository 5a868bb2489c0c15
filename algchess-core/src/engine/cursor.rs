//! A board the engine keeps from ply to ply, to follow one game: the side
//! to move's moves as changes, one of them played at a time, and tests
//! asked of the board in place. Nothing is rebuilt between plies: the
//! bitboards, piece sets and memos stay with the board.

use super::board::Board;
use super::cache::Cache;
use super::word::Word;
use super::{Plan, TooBig, Vacate};
use crate::geometry::Square;
use crate::semantics::{Change, Grid};
use std::sync::Arc;

/// The engine's board for one game.
pub struct Cursor {
    inner: Box<dyn Follow>,
}

/// A cursor on words `W`; the trait hides the word.
trait Follow {
    fn moves(&mut self, turn: usize, out: &mut Vec<Change>) -> Result<(), TooBig>;
    fn moves_vacating(
        &mut self,
        turn: usize,
        v: &Vacate,
        to: Option<Square>,
        out: &mut Vec<Change>,
    ) -> Result<(), TooBig>;
    fn any_move(&mut self, turn: usize) -> Result<bool, TooBig>;
    fn holds(&mut self, test: usize) -> Result<bool, TooBig>;
    fn push(&mut self, c: &Change);
    fn pop(&mut self);
    fn play(&mut self, c: &Change);
    fn grid(&self) -> Grid;
    fn fresh(&self) -> Box<dyn Follow>;
}

struct On<W> {
    plan: Arc<Plan<W>>,
    board: Board<W>,
    cache: Cache,
    /// The square of each mailbox index.
    squares: Vec<Square>,
    /// Trail marks of the changes pushed.
    marks: Vec<usize>,
}

impl Cursor {
    pub(super) fn new<W: Word>(plan: Arc<Plan<W>>, board: &Grid) -> Cursor {
        Cursor {
            inner: Box::new(On::new(plan, board)),
        }
    }

    /// The distinct results of turn `turn`'s move, in the order
    /// `Engine::successors` gives them, appended to `out`. A side that
    /// passes is the caller's to handle, as with `successors`.
    pub fn moves(&mut self, turn: usize, out: &mut Vec<Change>) -> Result<(), TooBig> {
        self.inner.moves(turn, out)
    }

    /// [`moves`](Cursor::moves) that empty a square holding one of
    /// `v.codes` and write square `to` (when given), and perhaps a few
    /// that do not (see [`Vacate`]).
    pub fn moves_vacating(
        &mut self,
        turn: usize,
        v: &Vacate,
        to: Option<Square>,
        out: &mut Vec<Change>,
    ) -> Result<(), TooBig> {
        self.inner.moves_vacating(turn, v, to, out)
    }

    /// Whether turn `turn` has a move, found without finding them all. A
    /// side that passes is the caller's to handle, as with `moves`.
    pub fn any_move(&mut self, turn: usize) -> Result<bool, TooBig> {
        self.inner.any_move(turn)
    }

    /// Whether test `test` (an index into the engine's tests) holds.
    pub fn holds(&mut self, test: usize) -> Result<bool, TooBig> {
        self.inner.holds(test)
    }

    /// Makes `c` on the board, to be unmade by [`pop`](Cursor::pop).
    pub fn push(&mut self, c: &Change) {
        self.inner.push(c)
    }

    /// Unmakes the last change pushed.
    pub fn pop(&mut self) {
        self.inner.pop()
    }

    /// Makes `c` for good: the game goes on from there. Changes pushed
    /// and not popped are kept too.
    pub fn play(&mut self, c: &Change) {
        self.inner.play(c)
    }

    /// The board as it stands.
    pub fn grid(&self) -> Grid {
        self.inner.grid()
    }
}

impl Clone for Cursor {
    fn clone(&self) -> Cursor {
        Cursor {
            inner: self.inner.fresh(),
        }
    }
}

impl<W: Word> On<W> {
    fn new(plan: Arc<Plan<W>>, board: &Grid) -> On<W> {
        let on = plan.board(board);
        let squares = (0..on.mailbox.cells.len()).map(|i| on.mailbox.square(i)).collect();
        On {
            plan,
            board: on,
            cache: Cache::default(),
            squares,
            marks: vec![],
        }
    }

    /// `diffs` as changes appended to `out`; the list is kept for reuse.
    fn changes(&mut self, diffs: Vec<super::Diff>, out: &mut Vec<Change>) {
        let squares = &self.squares;
        out.extend(
            diffs
                .iter()
                .map(|d| d.iter().map(|&w| (squares[(w >> 8) as usize], w as u8)).collect()),
        );
        self.cache.spare.push(diffs);
    }

    fn apply(&mut self, c: &Change) {
        let d: super::Diff = c
            .iter()
            .map(|&(q, v)| {
                let i = self.board.mailbox.index(q).expect("a change stays on the board");
                (i as u32) << 8 | u32::from(v)
            })
            .collect();
        self.board.apply(&d);
    }
}

impl<W: Word> Follow for On<W> {
    fn moves(&mut self, turn: usize, out: &mut Vec<Change>) -> Result<(), TooBig> {
        let diffs = self.plan.moves(&mut self.board, &mut self.cache, turn)?;
        self.changes(diffs, out);
        Ok(())
    }

    fn moves_vacating(
        &mut self,
        turn: usize,
        v: &Vacate,
        to: Option<Square>,
        out: &mut Vec<Change>,
    ) -> Result<(), TooBig> {
        // A square off the box is written by no move: nothing to keep to.
        let to = to.and_then(|q| self.board.mailbox.index(q));
        let diffs = self
            .plan
            .moves_vacating(&mut self.board, &mut self.cache, turn, v, to)?;
        self.changes(diffs, out);
        Ok(())
    }

    fn any_move(&mut self, turn: usize) -> Result<bool, TooBig> {
        self.plan.any_move(&mut self.board, &mut self.cache, turn)
    }

    fn holds(&mut self, test: usize) -> Result<bool, TooBig> {
        self.plan.holds(&mut self.board, &mut self.cache, test)
    }

    fn push(&mut self, c: &Change) {
        self.marks.push(self.board.mark());
        self.apply(c);
    }

    fn pop(&mut self) {
        let mark = self.marks.pop().expect("a change pushed");
        self.board.undo(mark);
    }

    fn play(&mut self, c: &Change) {
        self.apply(c);
        if self.marks.is_empty() {
            self.board.forget();
        }
    }

    fn grid(&self) -> Grid {
        self.board.mailbox.grid()
    }

    fn fresh(&self) -> Box<dyn Follow> {
        Box::new(On::new(self.plan.clone(), &self.grid()))
    }
}

#[cfg(test)]
mod tests {

    use crate::engine::Engine;
    use crate::play::Rules;
    use std::collections::BTreeSet;

    /// Following random games on a cursor, its moves are the engine's
    /// successors of the board it holds, and pushing then popping a move
    /// leaves the board as it was.
    #[test]
    fn a_cursor_follows_the_successors() {
        let prog = crate::testing::load("rules/chess.alg");
        let rules = Rules::fast(&prog.games()[0]);
        let engine: &Engine = rules.backend.engine().unwrap();
        for seed in 0..20u64 {
            let start = rules.start();
            let mut cursor = engine.cursor(&start.board);
            let (mut board, mut turn) = (start.board, 0);
            let mut rng = seed;
            for _ in 0..60 {
                let mut moves = vec![];
                cursor.moves(turn, &mut moves).unwrap();
                let made: BTreeSet<_> = moves
                    .iter()
                    .map(|c| {
                        cursor.push(c);
                        let g = cursor.grid();
                        cursor.pop();
                        g
                    })
                    .collect();
                assert_eq!(cursor.grid(), board);
                let want: BTreeSet<_> = engine.successors(&board, turn).unwrap().into_iter().collect();
                assert_eq!(made, want, "seed {seed}");
                if moves.is_empty() {
                    break;
                }
                rng = rng.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                let c = &moves[(rng >> 33) as usize % moves.len()];
                cursor.play(c);
                board.apply(c);
                assert_eq!(cursor.grid(), board);
                assert_eq!(cursor.clone().grid(), board);
                turn = 1 - turn;
            }
        }
    }
}
