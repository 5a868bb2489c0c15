//! Games as the evaluator runs them: compiled turn moves, and positions.

use crate::elab::Game;
use crate::semantics::{compile, Eval, Grid, Halt, Prog, State};

/// A game ready to play: the turn moves compiled.
pub struct Rules {
    pub name: String,
    pub start: Grid,
    pub turns: Vec<Prog>,
    pub tiling: crate::geometry::Tiling,
}

/// A position: the board, and whose turn it is (an index into the turns).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    pub board: Grid,
    pub turn: usize,
}

/// A single move made more states than the evaluation budget allows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TooBig(pub usize);

impl Rules {
    pub fn new(game: &Game) -> Rules {
        Rules {
            name: game.name.clone(),
            start: game.board.clone(),
            turns: game
                .turns
                .iter()
                .map(|t| compile(t).expect("elaboration checks that turns are closed moves"))
                .collect(),
            tiling: game.tiling,
        }
    }

    pub fn start(&self) -> Position {
        Position {
            board: self.start.clone(),
            turn: 0,
        }
    }

    /// The positions the side to move can reach, in a fixed order.
    pub fn successors(&self, pos: &Position) -> Result<Vec<Position>, TooBig> {
        let prog = &self.turns[pos.turn];
        let start = State {
            board: pos.board.clone(),
            poi: None,
        };
        let results = match Eval::default().run(prog, &start) {
            Ok(r) => r,
            Err(Halt::Budget(n)) => return Err(TooBig(n)),
            Err(Halt::Unknown(never)) => match never {},
            Err(Halt::Memory(_)) => unreachable!("games run without a memory limit"),
        };
        let next = (pos.turn + 1) % self.turns.len();
        Ok(results
            .into_iter()
            .map(|s| Position {
                board: s.board,
                turn: next,
            })
            .collect())
    }

    /// The number of positions the side to move can reach.
    pub fn count(&self, pos: &Position) -> Result<u64, TooBig> {
        self.successors(pos).map(|v| v.len() as u64)
    }
}
