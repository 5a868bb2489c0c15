//! Games ready to play: compiled turn moves, positions, and what finds
//! their moves and answers their tests, the engine or the evaluator
//! ([`Backend`]). That choice is made once, when the rules are made
//! ([`Rules::new`] or [`Rules::fast`]); the rest of `play` asks the
//! backend, or a match's [`Seat`], and never which one it is.

use super::end::Test;
use crate::elab::Game;
use crate::engine::{Cursor, Engine, Vacate};
use crate::geometry::Square;
use crate::ir::{Node, Term};
use crate::memory::Budget;
use crate::semantics::{compile, Change, Eval, Grid, Prog, State};
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
    /// What finds the moves and answers the tests: the engine when asked
    /// for ([`Rules::fast`]), the evaluator otherwise.
    pub backend: Backend,
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
            backend: Backend::Evaluator,
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
        self.backend = self.backend.within(&budget);
        self.budget = budget;
        self
    }

    /// The same game on the engine's fast path.
    pub fn fast(game: &Game) -> Rules {
        let mut r = Rules::new(game);
        r.backend = Backend::Engine(Engine::new(&r.turns, &r.ends.tests(), r.ends.passes(), r.ends.stops()));
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
        let turn = (pos.turn + 1) % self.turns.len();
        let boards = self.backend.moves(self, &pos.board, pos.turn)?;
        Ok(boards.into_iter().map(|board| Position { board, turn }).collect())
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
        self.backend.holds(self, t, turn, board)
    }

    /// The number of positions the side to move can reach.
    pub fn count(&self, pos: &Position) -> Result<u64, TooBig> {
        self.successors(pos).map(|v| v.len() as u64)
    }
}

/// What finds a game's moves and answers its tests.
pub enum Backend {
    /// The evaluator runs each turn's compiled move on the grid.
    Evaluator,
    /// The engine runs the turns' plans on bitboards.
    Engine(Engine),
}

impl Backend {
    /// The engine, when the rules play on it (for its plans and cursors).
    pub fn engine(&self) -> Option<&Engine> {
        match self {
            Backend::Engine(e) => Some(e),
            Backend::Evaluator => None,
        }
    }

    /// The same backend, spending at most `budget`.
    pub(super) fn within(self, budget: &Budget) -> Backend {
        match self {
            Backend::Engine(e) => Backend::Engine(e.within(budget.clone())),
            Backend::Evaluator => Backend::Evaluator,
        }
    }

    /// The boards turn `turn`'s move leads to from `board`, passes aside.
    pub(super) fn moves(&self, rules: &Rules, board: &Grid, turn: usize) -> Result<Vec<Grid>, TooBig> {
        match self {
            Backend::Engine(e) => e.successors(board, turn),
            Backend::Evaluator => {
                if rules.ends.holds(Test::Stop, turn, board, &rules.budget)? {
                    return Ok(vec![]);
                }
                let start = State {
                    board: board.clone(),
                    poi: None,
                };
                let results = Eval::default().within(&rules.budget).run(&rules.turns[turn], &start)?;
                Ok(results.into_iter().map(|s| s.board).collect())
            }
        }
    }

    /// Whether test `t` of turn `turn` holds on `board`; a test the game
    /// does not declare never does.
    pub(super) fn holds(&self, rules: &Rules, t: Test, turn: usize, board: &Grid) -> Result<bool, TooBig> {
        match (self, rules.ends.index(t, turn)) {
            (_, None) => Ok(false),
            (Backend::Engine(e), Some(i)) => e.holds(board, i),
            (Backend::Evaluator, Some(_)) => rules.ends.holds(t, turn, board, &rules.budget),
        }
    }

    /// Leaves at `depth` plies below `pos`, the last ply counted, not
    /// played out.
    pub(super) fn perft(&self, rules: &Rules, pos: &Position, depth: u32) -> Result<u64, TooBig> {
        match (self, depth) {
            (Backend::Engine(e), _) => e.perft(&pos.board, pos.turn, depth),
            (Backend::Evaluator, 0) => Ok(1),
            (Backend::Evaluator, 1) => rules.count(pos),
            (Backend::Evaluator, _) => {
                let mut total = 0;
                for next in rules.successors(pos)? {
                    total += self.perft(rules, &next, depth - 1)?;
                }
                Ok(total)
            }
        }
    }

    /// How the moves below `board` are found, a line a turn (`perft
    /// --explain-plan`).
    pub fn explain(&self, board: &Grid) -> Vec<String> {
        match self {
            Backend::Engine(e) => e.explain(board),
            Backend::Evaluator => vec!["the interpreter makes every move of every leaf".into()],
        }
    }

    /// A match's board, followed from `board`.
    pub(super) fn seat(&self, board: &Grid) -> Seat {
        match self {
            Backend::Engine(e) => Seat::Engine(e.cursor(board)),
            Backend::Evaluator => Seat::Evaluator,
        }
    }
}

/// A match's board as its backend follows it from ply to ply. The match
/// keeps the grid (what FEN, keys and names read); the engine keeps its
/// own copy on a cursor, so that a ply is a few writes, not a new board.
/// The evaluator reads the match's grid and keeps nothing.
#[derive(Clone)]
pub(crate) enum Seat {
    Evaluator,
    Engine(Cursor),
}

impl Seat {
    /// Turn `turn`'s moves on `board` (the grid this seat follows), passes
    /// aside, as what each writes, into `out`.
    pub(super) fn moves(
        &mut self,
        rules: &Rules,
        board: &Grid,
        turn: usize,
        out: &mut Vec<Change>,
    ) -> Result<(), TooBig> {
        match self {
            Seat::Engine(c) => c.moves(turn, out),
            Seat::Evaluator => {
                let boards = rules.backend.moves(rules, board, turn)?;
                out.extend(boards.iter().map(|b| board.change_to(b)));
                Ok(())
            }
        }
    }

    /// The moves of `turn` that empty a square holding one of `v.codes`
    /// (see [`Vacate`]), in place of what `out` held, when this seat finds
    /// them apart from the others; `out` is left alone when it does not.
    pub(crate) fn moves_vacating(
        &mut self,
        turn: usize,
        v: &Vacate,
        to: Option<Square>,
        out: &mut Vec<Change>,
    ) -> Option<Result<(), TooBig>> {
        match self {
            Seat::Engine(c) => {
                out.clear();
                Some(c.moves_vacating(turn, v, to, out))
            }
            Seat::Evaluator => None,
        }
    }

    /// Whether turn `turn` has a move, when this seat knows without
    /// finding them all.
    pub(super) fn any_move(&mut self, turn: usize) -> Option<Result<bool, TooBig>> {
        match self {
            Seat::Engine(c) => Some(c.any_move(turn)),
            Seat::Evaluator => None,
        }
    }

    /// Whether test `t` of turn `turn` holds on `board`.
    pub(super) fn holds(&mut self, rules: &Rules, t: Test, turn: usize, board: &Grid) -> Result<bool, TooBig> {
        match (self, rules.ends.index(t, turn)) {
            (_, None) => Ok(false),
            (Seat::Engine(c), Some(i)) => c.holds(i),
            (Seat::Evaluator, Some(_)) => rules.ends.holds(t, turn, board, &rules.budget),
        }
    }

    /// Follows `c` made on the grid, to be unmade by [`pop`](Seat::pop).
    pub(super) fn push(&mut self, c: &Change) {
        if let Seat::Engine(cur) = self {
            cur.push(c);
        }
    }

    /// Follows the last change pushed, unmade.
    pub(super) fn pop(&mut self) {
        if let Seat::Engine(cur) = self {
            cur.pop();
        }
    }

    /// Follows `c` made on the grid for good.
    pub(super) fn play(&mut self, c: &Change) {
        if let Seat::Engine(cur) = self {
            cur.play(c);
        }
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
