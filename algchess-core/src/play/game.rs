//! Games as the evaluator runs them: compiled turn moves, and positions.

use super::end::Test;
use crate::elab::Game;
use crate::engine::Engine;
use crate::geometry::Square;
use crate::ir::{Node, Term};
use crate::memory::Budget;
use crate::semantics::{compile, Eval, Grid, Prog, State};
use std::collections::HashMap;
use std::sync::OnceLock;

/// A game ready to play: the turn moves compiled.
pub struct Rules {
    /// The game's name, from `game NAME`.
    pub name: String,
    /// The starting board.
    pub start: Grid,
    /// Each side's move, compiled, in turn order.
    pub turns: Vec<Prog>,
    /// How the game ends (see `play/end.rs`).
    pub ends: super::end::EndRules,
    /// The fast path, when asked for; the interpreter otherwise.
    pub engine: Option<Engine>,
    /// The grid the game is played on.
    pub tiling: crate::geometry::Tiling,
    /// What a match reads of each cell code.
    pub codes: super::pieces::CodeTable,
    /// The pieces of the file that declares the game: how its boards are
    /// read and written.
    pub pieces: crate::ir::Pieces,
    /// What finding a move or answering a test may spend, besides the
    /// evaluator's count of states (nothing more by default).
    pub budget: Budget,
    /// Each side's move and check test as written, for saying why a move
    /// is not legal (see [`Rules::unchecked`]).
    terms: Terms,
}

/// A game's turns and check tests as terms.
struct Terms {
    turns: Vec<Term>,
    check: Option<Vec<Term>>,
    /// Each turn's [`Rules::unchecked`] programs, made when first asked
    /// for: a referee or a protocol session asks again at every refusal.
    unchecked: Vec<[OnceLock<Option<Prog>>; 2]>,
}

/// Which tests [`Rules::unchecked`] leaves out of a turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Unchecked {
    /// `not T` where `T` is the side's check test: the moves that would
    /// leave its king in check come back.
    Check,
    /// Every `not` test: moves through an attacked square come back too
    /// (castling through check).
    Every,
}

/// `t` with the tests `drop` picks replaced by `nil`, and whether any was.
fn without_tests(
    t: &Term,
    drop: &dyn Fn(&Term) -> bool,
    pieces: &crate::ir::Pieces,
    memo: &mut HashMap<Term, Option<Term>>,
) -> Option<Term> {
    if let Some(done) = memo.get(t) {
        return done.clone();
    }
    let out = if matches!(t.node(), Node::Not(_)) && drop(t) {
        Some(Term::nil())
    } else {
        let mut changed = false;
        let node = t.node().map_children(|c| match without_tests(c, drop, pieces, memo) {
            Some(d) => {
                changed = true;
                d
            }
            None => c.clone(),
        });
        if changed {
            Term::build(node, pieces).ok()
        } else {
            None
        }
    };
    memo.insert(t.clone(), out.clone());
    out
}

/// A position: the board, and whose turn it is (an index into the turns).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    /// The pieces on the board.
    pub board: Grid,
    /// The side to move, as an index into [`Rules::turns`].
    pub turn: usize,
}

/// Every square of a board's box.
pub(crate) fn squares(g: &Grid) -> impl Iterator<Item = Square> + '_ {
    let o = g.origin();
    (0..g.height()).flat_map(move |y| (0..g.width()).map(move |x| Square::new(o.x + x, o.y + y)))
}

pub use crate::engine::TooBig;

impl Rules {
    /// The game with its turns compiled, played by the interpreter.
    pub fn new(game: &Game) -> Rules {
        // The half-move clock restarts at a capture or a move of the pieces
        // the move rule names, else of the pawns the counting rules name.
        let resets = match (&game.ends.move_rule, &game.ends.counting) {
            (Some(r), _) => &r.resets[..],
            (None, Some(c)) => &c.pawns[..],
            (None, None) => &[][..],
        };
        Rules {
            codes: super::pieces::CodeTable::new(resets, &game.pieces),
            pieces: game.pieces.clone(),
            name: game.name.clone(),
            start: game.board.clone(),
            turns: game
                .turns
                .iter()
                .map(|t| compile(t).expect("elaboration checks that turns are closed moves"))
                .collect(),
            ends: super::end::EndRules::compile(&game.ends),
            engine: None,
            tiling: game.tiling,
            budget: Budget::default(),
            terms: Terms {
                turns: game.turns.clone(),
                check: game.ends.check.clone(),
                unchecked: game.turns.iter().map(|_| Default::default()).collect(),
            },
        }
    }

    /// Turn `turn`'s move with some of its tests left out, compiled: the
    /// moves it gives that the turn does not are those the tests forbid.
    /// `None` when the turn has no such test.
    pub(crate) fn unchecked(&self, turn: usize, which: Unchecked) -> Option<&Prog> {
        let slot = &self.terms.unchecked.get(turn)?[which as usize];
        slot.get_or_init(|| self.make_unchecked(turn, which)).as_ref()
    }

    fn make_unchecked(&self, turn: usize, which: Unchecked) -> Option<Prog> {
        let t = self.terms.turns.get(turn)?;
        let check = match which {
            Unchecked::Check => Some(Term::not(self.terms.check.as_ref()?.get(turn)?)),
            Unchecked::Every => None,
        };
        let drop = |u: &Term| check.as_ref().is_none_or(|c| c == u);
        let stripped = without_tests(t, &drop, &self.pieces, &mut HashMap::new())?;
        compile(&stripped).ok()
    }

    /// The boards `prog` (a turn's move, see [`Rules::unchecked`]) leads
    /// to from `board`, by the interpreter.
    pub(crate) fn boards_of(&self, prog: &Prog, board: &Grid) -> Result<Vec<Grid>, TooBig> {
        let start = State {
            board: board.clone(),
            poi: None,
        };
        let results = Eval::default().within(&self.budget).run(prog, &start)?;
        Ok(results.into_iter().map(|s| s.board).collect())
    }

    /// The same rules, finding moves and answering tests within `budget`:
    /// a move of astronomically many results stops at its memory limit,
    /// its deadline or its flag, as [`TooBig`].
    pub fn within(mut self, budget: Budget) -> Rules {
        self.engine = self.engine.map(|e| e.within(budget.clone()));
        self.budget = budget;
        self
    }

    /// The same game on the engine's fast path.
    pub fn fast(game: &Game) -> Rules {
        let mut r = Rules::new(game);
        r.engine = Some(Engine::new(&r.turns, &r.ends.tests(), r.ends.passes(), r.ends.stops()));
        r
    }

    /// The starting board, the first side to move.
    pub fn start(&self) -> Position {
        Position {
            board: self.start.clone(),
            turn: 0,
        }
    }

    /// The positions the side to move can reach, in a fixed order. A side
    /// with no move whose rules say it passes (Othello) has one: the same
    /// board with the next side to move, unless that side cannot move
    /// either, which ends the game.
    pub fn successors(&self, pos: &Position) -> Result<Vec<Position>, TooBig> {
        let moves = self.moves(pos)?;
        if moves.is_empty() && self.ends.passes() {
            let passed = Position {
                board: pos.board.clone(),
                turn: (pos.turn + 1) % self.turns.len(),
            };
            if !self.moves(&passed)?.is_empty() {
                return Ok(vec![passed]);
            }
        }
        Ok(moves)
    }

    /// The positions the side to move reaches by its move, passes aside.
    fn moves(&self, pos: &Position) -> Result<Vec<Position>, TooBig> {
        let next = (pos.turn + 1) % self.turns.len();
        if let Some(e) = &self.engine {
            let boards = e.successors(&pos.board, pos.turn)?;
            return Ok(boards.into_iter().map(|board| Position { board, turn: next }).collect());
        }
        if self.ends.holds(Test::Stop, pos.turn, &pos.board, &self.budget)? {
            return Ok(vec![]);
        }
        let prog = &self.turns[pos.turn];
        let start = State {
            board: pos.board.clone(),
            poi: None,
        };
        let results = Eval::default().within(&self.budget).run(prog, &start)?;
        Ok(results
            .into_iter()
            .map(|s| Position {
                board: s.board,
                turn: next,
            })
            .collect())
    }

    /// Whether turn `turn`'s side is in check on `board`; never without a
    /// `check` declaration.
    pub fn in_check(&self, board: &Grid, turn: usize) -> Result<bool, TooBig> {
        self.test(Test::Check, board, turn)
    }

    /// Whether turn `turn`'s side has lost on `board` by a `lost` test.
    pub fn lost(&self, board: &Grid, turn: usize) -> Result<bool, TooBig> {
        self.test(Test::Lost, board, turn)
    }

    /// Whether turn `turn`'s side has won on `board` by a `won` test.
    pub fn won(&self, board: &Grid, turn: usize) -> Result<bool, TooBig> {
        self.test(Test::Won, board, turn)
    }

    fn test(&self, t: Test, board: &Grid, turn: usize) -> Result<bool, TooBig> {
        match (&self.engine, self.ends.index(t, turn)) {
            (_, None) => Ok(false),
            (Some(e), Some(i)) => e.holds(board, i),
            (None, Some(_)) => self.ends.holds(t, turn, board, &self.budget),
        }
    }

    /// The number of positions the side to move can reach.
    pub fn count(&self, pos: &Position) -> Result<u64, TooBig> {
        self.successors(pos).map(|v| v.len() as u64)
    }
}

impl std::fmt::Display for TooBig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TooBig::States(n) => write!(f, "a move made more than {n} intermediate states"),
            TooBig::Memory(m) => write!(f, "finding the moves outgrew the memory limit ({m})"),
            TooBig::Time => f.write_str("finding the moves ran out of time, or was told to stop"),
        }
    }
}

impl std::error::Error for TooBig {}
