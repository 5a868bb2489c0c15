//! The fast path for playing games: each turn's compiled move planned for
//! the board's box and run in place on one board, results as diffs made
//! and unmade. Every move it makes comes from the rule file; it falls back
//! to the interpreter for any shape it does not plan, and agrees with the
//! interpreter on every result set.

mod apart;
mod bits;
mod board;
mod cache;
mod cursor;
mod exec;
mod ids;
mod leaf;
mod mailbox;
mod plan;
mod restrict;
mod results;
mod sets;
mod tally;
mod word;

use board::{Board, Diff};
use cache::Cache;
pub(crate) use cursor::Cursor;
use exec::{stopped, Flow};
use mailbox::Mailbox;
use plan::{Op, Planner};
pub(crate) use restrict::Vacate;
use std::any::{Any, TypeId};
use std::ops::ControlFlow::{Break, Continue};
use std::sync::{Arc, Mutex};
use word::Word;

use crate::geometry::Square;
use crate::memory::{Budget, Spent};
use crate::semantics::{Grid, Prog};

/// The turns of a game, ready to be planned for any board box.
pub struct Engine {
    turns: Vec<Prog>,
    /// Tests run on a board (a king in check, a side that has lost).
    tests: Vec<Prog>,
    pad: i32,
    /// A side with no move passes (Othello), as `play::Rules` says.
    passes: bool,
    /// The index among `tests` of turn 0's test that the game is over
    /// (turn t's follows it): the side to move has no move then.
    stops: Option<usize>,
    /// A `Plan<W>` per box and word.
    plans: Mutex<Vec<(BoxKey, Arc<dyn Any + Send + Sync>)>>,
    /// What a count or a move handed to the interpreter may spend.
    budget: Budget,
}

/// A board box (origin, width, height) and the word its plan is for.
type BoxKey = (Square, i32, i32, TypeId);

/// The turns planned for one board box, on words `W`.
pub(crate) struct Plan<W> {
    /// What a count may spend, read at each of its nodes.
    budget: Budget,
    pad: i32,
    turns: Vec<Op<W>>,
    /// Each turn's union as a leaf counts it, read off `turns`.
    leaves: Vec<Option<leaf::Leaf<W>>>,
    tests: Vec<Op<W>>,
    /// The codes the turns and tests look for, whose squares the board
    /// keeps.
    codes: Vec<u8>,
    /// The code sets they read on words, each a word the board keeps.
    slots: bits::Slots,
    passes: bool,
    /// As [`Engine`]'s.
    stops: Option<usize>,
    /// The turns kept to the moves that empty given squares.
    vacating: restrict::Vacating<W>,
    /// The box's squares as the board hash reads them (`Mailbox::bases`).
    bases: Arc<[u64]>,
}

/// A move could not be found within its limits: it made more states than
/// the evaluation budget allows (the interpreter's, on the fast path for
/// the moves handed to it), or the rules' [`Budget`] was spent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TooBig {
    /// More intermediate states than this budget.
    States(usize),
    /// The heap outgrew this limit.
    Memory(crate::memory::MemoryLimit),
    /// The deadline passed, or the run was told to stop.
    Time,
}

impl From<crate::semantics::Halt<std::convert::Infallible>> for TooBig {
    fn from(h: crate::semantics::Halt<std::convert::Infallible>) -> TooBig {
        use crate::semantics::Halt;
        match h {
            Halt::Budget(n) => TooBig::States(n),
            Halt::Memory(m) => TooBig::Memory(m),
            Halt::Time => TooBig::Time,
            Halt::Unknown(never) => match never {},
        }
    }
}

impl From<Spent> for TooBig {
    fn from(s: Spent) -> TooBig {
        match s {
            Spent::Memory(m) => TooBig::Memory(m),
            Spent::Time => TooBig::Time,
        }
    }
}

/// Runs `$body` with `$w` the smallest word that holds `$board`'s box
/// (`u64` again past 256 squares: such a box keeps bit sets instead).
macro_rules! by_word {
    ($board:expr, $w:ident => $body:expr) => {{
        let squares = $board.width() * $board.height();
        if squares <= 64 || squares > 256 {
            type $w = u64;
            $body
        } else if squares <= 128 {
            type $w = u128;
            $body
        } else {
            type $w = word::Wide;
            $body
        }
    }};
}

impl Engine {
    /// `passes`: a side with no move passes, unless the other side cannot
    /// move either (the game is then over). `tests` are run by [`holds`]
    /// and [`Cursor::holds`], by index. `stops`: the index of turn 0's
    /// test that the game is over (turn t's at `stops + t`); where it
    /// holds, the side to move has no move.
    ///
    /// [`holds`]: Engine::holds
    pub fn new(turns: &[Prog], tests: &[Prog], passes: bool, stops: Option<usize>) -> Engine {
        Engine {
            passes,
            stops,
            pad: turns.iter().chain(tests).map(plan::pad).max().unwrap_or(0),
            turns: turns.to_vec(),
            tests: tests.to_vec(),
            plans: Mutex::new(vec![]),
            budget: Budget::default(),
        }
    }

    /// The same engine, its plans keeping to `budget` (plans made before
    /// are dropped: each plan holds the budget it was made with).
    pub fn within(mut self, budget: Budget) -> Engine {
        self.plans = Mutex::new(vec![]);
        self.budget = budget;
        self
    }

    /// The plan for `board`'s box on words `W`, made once per box.
    fn plan<W: Word>(&self, board: &Grid) -> Arc<Plan<W>> {
        let key = (board.origin(), board.width(), board.height(), TypeId::of::<W>());
        let mut plans = self.plans.lock().expect("no panic while planning");
        if let Some(p) = plans
            .iter()
            .find(|(k, _)| *k == key)
            .and_then(|(_, p)| p.clone().downcast().ok())
        {
            return p;
        }
        let shape = bits::BoxShape {
            width: board.width(),
            height: board.height(),
        };
        let planner = Planner {
            stride: board.width() + 2 * self.pad,
            pad: self.pad,
            shape: shape.fits::<W>().then_some(shape),
            width: board.width(),
            height: board.height(),
            ids: Default::default(),
            budget: self.budget.clone(),
        };
        let mut turns: Vec<Op<W>> = self.turns.iter().map(|t| planner.plan(t)).collect();
        turns.iter_mut().for_each(|t| planner.guards_on_words(t));
        let span = board.width().max(board.height());
        turns.iter_mut().for_each(|t| apart::certify(t, span));
        let mut tests: Vec<Op<W>> = self.tests.iter().map(|t| planner.plan(t)).collect();
        let mut codes = vec![];
        turns.iter().chain(&tests).for_each(|t| t.looked_for(&mut codes));
        let mut shared = bits::Shared::new();
        turns.iter_mut().chain(&mut tests).for_each(|t| t.intern(&mut shared));
        let slots = shared.slots;
        let leaves = turns.iter().map(leaf::leaf).collect();
        let plan = Arc::new(Plan {
            budget: self.budget.clone(),
            pad: self.pad,
            passes: self.passes,
            stops: self.stops,
            turns,
            leaves,
            tests,
            codes,
            slots,
            vacating: Default::default(),
            bases: Mailbox::new(&Grid::off(board.origin(), board.width(), board.height()), self.pad).bases(),
        });
        plans.push((key, plan.clone()));
        plan
    }

    /// The boards the side to move reaches, without repeats.
    pub fn successors(&self, board: &Grid, turn: usize) -> Result<Vec<Grid>, TooBig> {
        by_word!(board, W => self.successors_on::<W>(board, turn))
    }

    fn successors_on<W: Word>(&self, board: &Grid, turn: usize) -> Result<Vec<Grid>, TooBig> {
        let plan = self.plan::<W>(board);
        let mut on = plan.board(board);
        let moves = plan.moves(&mut on, &mut Cache::default(), turn)?;
        Ok(moves
            .iter()
            .map(|d| {
                let mark = on.mark();
                on.apply(d);
                let g = on.mailbox.grid();
                on.undo(mark);
                g
            })
            .collect())
    }

    /// Whether test `test` has a result on `board` (a king in check, a
    /// side that has lost).
    pub fn holds(&self, board: &Grid, test: usize) -> Result<bool, TooBig> {
        by_word!(board, W => self.holds_on::<W>(board, test))
    }

    fn holds_on<W: Word>(&self, board: &Grid, test: usize) -> Result<bool, TooBig> {
        let plan = self.plan::<W>(board);
        plan.holds(&mut plan.board(board), &mut Cache::default(), test)
    }

    /// A board to follow a game on, from `board`.
    pub fn cursor(&self, board: &Grid) -> Cursor {
        by_word!(board, W => Cursor::new(self.plan::<W>(board), board))
    }

    /// Leaves `depth` plies below the position (the last ply counted, not
    /// played), on the caller's thread.
    pub fn perft(&self, board: &Grid, turn: usize, depth: u32) -> Result<u64, TooBig> {
        by_word!(board, W => self.perft_on::<W>(board, turn, depth))
    }

    fn perft_on<W: Word>(&self, board: &Grid, turn: usize, depth: u32) -> Result<u64, TooBig> {
        let plan = self.plan::<W>(board);
        plan.perft(&mut plan.board(board), &mut Cache::default(), turn, depth)
    }

    /// How a leaf counts each turn's results on `board`'s box, and why
    /// (`perft --explain-plan`): in bulk, from the writes of moves not
    /// made, or made one by one.
    pub fn explain(&self, board: &Grid) -> Vec<String> {
        by_word!(board, W => self.explain_on::<W>(board))
    }

    fn explain_on<W: Word>(&self, board: &Grid) -> Vec<String> {
        let plan = self.plan::<W>(board);
        let on_words = matches!(plan.board(board).squares, board::Squares::Words(_));
        plan.turns
            .iter()
            .enumerate()
            .map(|(i, t)| match on_words {
                true => format!("turn {i}: {}", tally::explain(t)),
                false => format!("turn {i}: made one by one: the box is too large for bitboards"),
            })
            .collect()
    }
}

impl<W: Word> Plan<W> {
    /// `grid` as a board of the box the plan is for.
    fn board(&self, grid: &Grid) -> Board<W> {
        let mailbox = Mailbox::new(grid, self.pad);
        Board::new(mailbox, self.bases.clone(), &self.codes, &self.slots, &self.budget)
    }

    /// Whether test `test` has a result on `board`.
    fn holds(&self, board: &mut Board<W>, cache: &mut Cache, test: usize) -> Result<bool, TooBig> {
        board.exists(&self.tests[test], cache)
    }

    /// Whether the game is over on `board` with turn `turn` to move: then
    /// it has no move.
    fn over(&self, board: &mut Board<W>, cache: &mut Cache, turn: usize) -> Result<bool, TooBig> {
        match self.stops {
            Some(first) => board.exists(&self.tests[first + turn], cache),
            None => Ok(false),
        }
    }

    /// The distinct results of the turn's move, as diffs from the board.
    fn moves(&self, board: &mut Board<W>, cache: &mut Cache, turn: usize) -> Result<Vec<Diff>, TooBig> {
        if self.over(board, cache, turn)? {
            return Ok(vec![]);
        }
        self.moves_playing(board, cache, turn)
    }

    /// [`moves`](Plan::moves) in a game known not to be over.
    fn moves_playing(&self, board: &mut Board<W>, cache: &mut Cache, turn: usize) -> Result<Vec<Diff>, TooBig> {
        self.each_result(board, cache, turn, |_, _| Continue(()))
    }

    /// The distinct results of the turn's move, as diffs from the board;
    /// `at` is called on each the first time the turn makes it, with the
    /// board as that result leaves it.
    fn each_result(
        &self,
        board: &mut Board<W>,
        cache: &mut Cache,
        turn: usize,
        mut at: impl FnMut(&mut Board<W>, &mut Cache) -> Flow,
    ) -> Result<Vec<Diff>, TooBig> {
        let mark = board.mark();
        let mut out = results::Distinct::new(cache.spare.pop().unwrap_or_default());
        cache.start_turn(mark);
        let flow = board.run(
            &self.turns[turn],
            cache,
            &mut |board: &mut Board<W>, cache: &mut Cache| {
                if out.insert(board.result(mark)) {
                    at(board, cache)
                } else {
                    Continue(())
                }
            },
        );
        cache.end_turn();
        stopped(flow)?;
        Ok(out.items)
    }

    /// `perft` two plies deep in a game with no passes: each result's
    /// leaves counted where the turn makes it, instead of the result
    /// kept, made again and unmade. Results are told apart by their
    /// fingerprints; when two share one (they may be one board), the
    /// count is made again with the results compared exactly.
    fn perft_two(&self, board: &mut Board<W>, cache: &mut Cache, turn: usize, next: usize) -> Result<u64, TooBig> {
        let mark = board.mark();
        let mut seen = std::mem::take(&mut cache.made);
        let mut total = 0;
        cache.start_turn(mark);
        let flow = board.run(
            &self.turns[turn],
            cache,
            &mut |board: &mut Board<W>, cache: &mut Cache| {
                if !seen.insert(board.fingerprint(mark)) {
                    return Break(exec::Cut::Enough);
                }
                self.leaves_after(board, cache, next, &mut total)
            },
        );
        cache.end_turn();
        seen.clear();
        cache.made = seen;
        if !stopped(flow)? {
            return Ok(total);
        }
        total = 0;
        let moves = self.each_result(board, cache, turn, |board, cache| {
            self.leaves_after(board, cache, next, &mut total)
        })?;
        cache.spare.push(moves);
        Ok(total)
    }

    /// Adds to `total` the leaves one ply after the result the board
    /// now is, with no POI, where turn `next` starts.
    fn leaves_after(&self, board: &mut Board<W>, cache: &mut Cache, next: usize, total: &mut u64) -> Flow {
        let (poi, this) = (board.poi.take(), cache.suspend());
        let n = self.perft(board, cache, next, 1);
        cache.resume(this);
        board.poi = poi;
        match n {
            Ok(n) => {
                *total += n;
                Continue(())
            }
            Err(e) => Break(exec::Cut::Over(e)),
        }
    }

    /// How many distinct results the turn's move has, from their
    /// fingerprints; `None` when two share one (then `moves` counts). Asked
    /// by `perft` of a game it found not over.
    fn count(&self, board: &mut Board<W>, cache: &mut Cache, turn: usize) -> Result<Option<u64>, TooBig> {
        let mark = board.mark();
        let mut seen = std::mem::take(&mut cache.counted);
        cache.start_turn(mark);
        let flow = board.tally(&self.turns[turn], self.leaves[turn].as_ref(), mark, &mut seen, cache);
        cache.end_turn();
        let n = seen.len() as u64;
        seen.clear();
        cache.counted = seen;
        let repeat = stopped(flow)?;
        Ok((!repeat).then_some(n))
    }

    fn perft(&self, board: &mut Board<W>, cache: &mut Cache, turn: usize, depth: u32) -> Result<u64, TooBig> {
        if depth == 0 {
            return Ok(1);
        }
        if let Some(spent) = self.budget.spent() {
            return Err(spent.into());
        }
        if self.over(board, cache, turn)? {
            return Ok(0);
        }
        if depth == 1 {
            // A pass counts as a ply, so a side with no move needs `moves`.
            if let Some(n) = self.count(board, cache, turn)?.filter(|&n| n > 0 || !self.passes) {
                return Ok(n);
            }
        }
        let next = (turn + 1) % self.turns.len();
        if depth == 2 && !self.passes {
            return self.perft_two(board, cache, turn, next);
        }
        let moves = self.moves_playing(board, cache, turn)?;
        if moves.is_empty() && self.passes {
            // A pass is a ply of its own, if the other side can move.
            if self.moves(board, cache, next)?.is_empty() {
                return Ok(0);
            }
            return self.perft(board, cache, next, depth - 1);
        }
        let mut total = moves.len() as u64;
        if depth > 1 {
            total = 0;
            for d in &moves {
                let mark = board.mark();
                board.apply(d);
                let n = self.perft(board, cache, next, depth - 1);
                board.undo(mark);
                total += n?;
            }
        }
        cache.spare.push(moves);
        Ok(total)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::elab::Program;
    use crate::play::{perft, Position, Rules};
    use crate::record::fen;
    use std::collections::BTreeSet;

    /// A game of fairy pieces, both colours, with pawns to take.
    const FAIRY: &str = "import \"fairy.alg\"
start = 'Princess'Camel'Nightrider'Amazon'Aanca'Zebra'Grasshopper'Bede;♙♙♙'Arrow_pawn'Berolina_pawn♙♙♙;'Alfil'Advisor......;........;........;......'alibaba'antelope;♟♟♟'banshee'adjutant♟♟♟;'empress'alfilrider'backslider♟♟'bede'grasshopper'zebra
game fairy(start) = fairy_white, fairy_black
";

    /// Chess on 12×12, past 128 squares: the widest words.
    const BIG: &str = "import \"chess.alg\"
override start = ♖♘♗♕♔♗♘♖♘♗♕♖;♙♙♙♙♙♙♙♙♙♙♙♙;............;............;............;............;............;............;............;............;♟♟♟♟♟♟♟♟♟♟♟♟;♜♞♝♛♚♝♞♜♞♝♛♜
game big = chess
";

    fn games() -> Vec<(String, Program)> {
        // Snake's turning pieces are checked end to end (tests/it/engine.rs):
        // other unit tests declare its glyphs differently in this process.
        let mut out: Vec<(String, Program)> = ["chess", "othello", "tictactoe", "variants/capablanca"]
            .iter()
            .map(|n| {
                let path = format!("rules/{n}.alg");
                (n.to_string(), crate::testing::load(&path))
            })
            .collect();
        out.push((
            "fairy".into(),
            crate::testing::from_text("rules/fairy_game.alg", FAIRY).unwrap(),
        ));
        out.push((
            "big".into(),
            crate::testing::from_text("rules/big_game.alg", BIG).unwrap(),
        ));
        out
    }

    /// The boards of a position's successors.
    fn boards(r: &Rules, pos: &Position) -> BTreeSet<crate::semantics::Grid> {
        r.successors(pos).unwrap().into_iter().map(|p| p.board).collect()
    }

    fn both(prog: &Program) -> (Rules, Rules) {
        let g = &prog.games()[0];
        (Rules::new(g), Rules::fast(g))
    }

    /// Calls `f` on `op` and on every op inside it, in preorder.
    fn each_op<'a, W>(op: &'a Op<W>, f: &mut impl FnMut(&'a Op<W>)) {
        f(op);
        match op {
            Op::Bind(_, m)
            | Op::Star(m)
            | Op::Greedy(m)
            | Op::Not { test: m, .. }
            | Op::NotBits(m, _)
            | Op::Probe { rules: m, .. } => each_op(m, f),
            Op::Seq(a, b) => {
                each_op(a, f);
                each_op(b, f);
            }
            Op::Alt(arms) => arms.iter().for_each(|a| each_op(a, f)),
            _ => {}
        }
    }

    /// Perft on the engine equals perft in the interpreter on every bundled
    /// game, as deep as the interpreter counts a few thousand leaves.
    #[test]
    fn perft_agrees_with_the_interpreter_on_every_game() {
        for (name, prog) in games() {
            let (slow, fast) = both(&prog);
            let start = slow.start();
            let mut depth = 1;
            loop {
                let expected = perft(&slow, &start, depth).unwrap();
                assert_eq!(
                    perft(&fast, &start, depth).unwrap(),
                    expected,
                    "{name} at depth {depth}"
                );
                if expected > 3000 || expected == 0 || depth == 6 {
                    break;
                }
                depth += 1;
            }
            assert!(depth >= 2, "{name} counted only to depth {depth}");
        }
    }

    /// On chess each side's pawns and king are binders whose results no
    /// other move makes (`apart.rs`), so a leaf counts them with no
    /// fingerprint; the published tables below check those counts. So
    /// on Capablanca's, whose king castles step by step; and the knights
    /// (rules guarding on one code) and the sliders. So are the moves of
    /// a king and rooks that may castle, which then lose the right: each
    /// result differs from a castling's in how many such rooks, or such
    /// kings, it leaves. Capablanca's archbishop and chancellor are a
    /// binder for their lines and one for their leaps, which no line
    /// reaches.
    #[test]
    fn chess_counts_pawns_and_kings_apart() {
        for (file, leapers, slides) in [("rules/chess.alg", 4, 20), ("rules/variants/capablanca.alg", 6, 28)] {
            let prog = crate::testing::load(file);
            let fast = Rules::fast(&prog.games()[0]);
            let plan = fast.backend.engine().unwrap().plan::<u128>(&fast.start().board);
            for turn in &plan.turns {
                let text = format!("{turn:?}");
                // A binder's bit rules end with their `apart` flag: the
                // pawns', the two kings' and the knights' (a guard's rules
                // plan as a binder's on words), and the leaps of pieces
                // that also slide.
                assert_eq!(text.matches("}], true)").count(), leapers, "{file}");
                // The slides of the bishops (4), the two rooks (4 each)
                // and the queen (8), and of the pieces that also leap.
                assert_eq!(text.matches("apart: true").count(), slides, "{file}");
            }
        }
    }

    /// A variant written by hand with its king and the test of its safety
    /// on the king alone (`king = %♔: king_steps`, `in_check = %♔:
    /// attacked`, no castling marker) counts its leaves on the path the
    /// file derived from chess takes: in bulk, the answer of the test
    /// kept between moves, though the test, bound to one code, reads less
    /// (nine leap groups and lines in shatranj and makruk, where the
    /// derived test reads them for two codes); and it counts the same
    /// leaves.
    #[test]
    fn a_king_written_alone_counts_leaves_as_the_derived_file() {
        for (variant, depth) in [("shatranj", 4), ("makruk", 4)] {
            let derived = crate::testing::load(&format!("rules/variants/{variant}.alg"));
            let text = format!(
                "import \"{variant}.alg\"
override king = %♔: king_steps
override in_check = %♔: attacked
game {variant}_by_hand = {variant}
"
            );
            let hand = crate::testing::from_text(&format!("rules/variants/{variant}_by_hand.alg"), &text).unwrap();
            let fast = |p: &Program, name: &str| Rules::fast(p.game(name).unwrap());
            let (derived, hand) = (fast(&derived, variant), fast(&hand, &format!("{variant}_by_hand")));
            let start = derived.start();
            assert_eq!(hand.start(), start, "{variant}");
            // The hand-written king's moves and test have one binder
            // each, the derived ones two (`♔` and `'Kc`).
            let binders = |r: &Rules| {
                let plan = r.backend.engine().unwrap().plan::<u64>(&start.board);
                format!("{:?}", plan.turns[0]).matches("Bind(").count()
            };
            assert_eq!(binders(&hand) + 2, binders(&derived), "{variant}");
            for r in [&derived, &hand] {
                let paths = r.backend.engine().unwrap().explain(&start.board);
                assert_eq!(paths.len(), 2, "{paths:?}");
                for p in &paths {
                    assert!(
                        p.contains("bulk: results counted from their writes, the answer of the test after them kept"),
                        "{variant}: {p}"
                    );
                }
            }
            assert_eq!(
                perft(&hand, &start, depth).unwrap(),
                perft(&derived, &start, depth).unwrap(),
                "{variant}"
            );
        }
    }

    /// The published perft tables of chess, on the engine.
    #[test]
    fn chess_matches_the_published_counts() {
        let prog = crate::testing::load("rules/chess.alg");
        let fast = Rules::fast(&prog.games()[0]);
        let table: [(&str, &[u64]); 6] = [
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                &[20, 400, 8902, 197281],
            ),
            (
                "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                &[48, 2039, 97862],
            ),
            ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", &[14, 191, 2812, 43238]),
            (
                "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
                &[6, 264, 9467],
            ),
            (
                "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
                &[44, 1486, 62379],
            ),
            (
                "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
                &[46, 2079, 89890],
            ),
        ];
        for (f, counts) in table {
            let (board, black) = fen::read(f, &fast.pieces).unwrap();
            let pos = Position {
                board,
                turn: usize::from(black),
            };
            for (d, n) in counts.iter().enumerate() {
                assert_eq!(
                    fast.backend
                        .engine()
                        .unwrap()
                        .perft(&pos.board, pos.turn, d as u32 + 1)
                        .unwrap(),
                    *n,
                    "{f} at depth {}",
                    d + 1
                );
            }
        }
    }

    /// The engine follows the rule file: a knight that leaps as a camel
    /// moves as a camel on the fast path too.
    #[test]
    fn an_edited_rule_changes_the_fast_path() {
        let text = crate::testing::read("rules/chess.alg");
        let camel = text
            .replace("uur free -> . + uur♘", "uuur free -> . + uuur♘")
            .replace("uul free -> . + uul♘", "uuul free -> . + uuul♘");
        assert_ne!(camel, text);
        let prog = Program::from_text("rules/camel.alg", &camel).unwrap();
        let (slow, fast) = both(&prog);
        let start = slow.start();
        let n = perft(&fast, &start, 3).unwrap();
        assert_eq!(n, perft(&slow, &start, 3).unwrap());
        // Camels leap out of the corner over the pawns: (1,0) to (2,3) and (0,3).
        assert_eq!(perft(&fast, &start, 1).unwrap(), 20);
        assert_ne!(n, 8902);
    }

    /// Shapes the planner does not take are run by the interpreter, and
    /// still agree with it: counts too large to unroll, rules that reach
    /// past the border.
    #[test]
    fn unplanned_shapes_fall_back_to_the_interpreter() {
        let text = "start = ♖.........;..........;..........
far = %♖: (% + r^17 . -> . + r^17 %) | (% + r. -> . + r%){1,9}
game g(start) = far
";
        let prog = Program::from_text("t.alg", text).unwrap();
        let (slow, fast) = both(&prog);
        let plan = fast.backend.engine().unwrap().plan::<u64>(&slow.start);
        let mut interprets = false;
        each_op(&plan.turns[0], &mut |op| interprets |= matches!(op, Op::Interpret(_)));
        assert!(interprets, "{:?}", plan.turns[0]);
        let start = slow.start();
        let set = |r: &Rules| boards(r, &start);
        assert_eq!(set(&fast).len(), 9);
        assert_eq!(set(&fast), set(&slow));
    }

    /// A leaf's moves are counted by fingerprint, and so are told apart
    /// the results whose leaves are counted two plies deep; where two
    /// results are the same board (here a step up, and a step up, down and
    /// up again) each count falls back to comparing boards and still
    /// counts each once.
    #[test]
    fn repeated_results_are_counted_once() {
        let text = "start = ♖..;...;...;..♜
step(way) = % + way. -> . + way%
white = %♖: step(u) | step(u) step(d) step(u) | step(r)
black = %♜: step(d) | step(l)
game g(start) = white, black
";
        let prog = Program::from_text("t.alg", text).unwrap();
        let (slow, fast) = both(&prog);
        let engine = fast.backend.engine().unwrap();
        let start = slow.start();
        let plan = engine.plan::<u64>(&start.board);
        let (mut on, mut cache) = (plan.board(&start.board), Cache::default());
        assert_eq!(plan.count(&mut on, &mut cache, 0), Ok(None), "a repeat is seen");
        // Black's moves never repeat: counted from fingerprints alone.
        assert_eq!(plan.count(&mut on, &mut cache, 1), Ok(Some(2)));
        for depth in 1..=4 {
            assert_eq!(
                perft(&fast, &start, depth),
                perft(&slow, &start, depth),
                "depth {depth}"
            );
        }
        assert_eq!(perft(&fast, &start, 1).unwrap(), 2);
    }

    /// Moves that change the moved piece's code after (`% -> ♖`, a rook
    /// losing its right to castle) are counted from their writes with the
    /// code they end with: the board a move writing `♖` at once reaches is
    /// seen as a repeat of the relabelled step's, and the count falls back
    /// to comparing boards.
    #[test]
    fn relabelled_moves_are_counted_by_their_last_code() {
        let file = |also: &str| {
            format!(
                "piece 'X / 'x
start = 'X.♜;...;...
step(way) = % + way. -> . + way%
slide(way) = (% + way. -> . + way%)* (% + way. -> . + way%)
white = (%'X: (slide(u) | step(r)) (% -> ♖)){also} | (%♖: step(r))
black = %♜: step(u) | step(l)
game g(start) = white, black
"
            )
        };
        // Up one, up two, right one; then with a second way up one.
        for (also, first) in [("", Some(3)), (" | (%'X: % + u. -> . + u♖)", None)] {
            let prog = Program::from_text("t.alg", &file(also)).unwrap();
            let (slow, fast) = both(&prog);
            let start = slow.start();
            let plan = fast.backend.engine().unwrap().plan::<u64>(&start.board);
            let (mut on, mut cache) = (plan.board(&start.board), Cache::default());
            assert_eq!(plan.count(&mut on, &mut cache, 0), Ok(first), "{also}");
            assert_eq!(boards(&fast, &start), boards(&slow, &start));
            assert_eq!(perft(&fast, &start, 1), Ok(3));
            for depth in 2..=5 {
                assert_eq!(
                    perft(&fast, &start, depth),
                    perft(&slow, &start, depth),
                    "depth {depth}{also}"
                );
            }
        }
    }

    /// A `not` testing one square after a rule moved the POI becomes a
    /// read of the rule (a pawn not on the last rank), unless the rule
    /// changes that square: here the square below a step up is the one it
    /// left, empty after the move but not before it.
    #[test]
    fn a_test_after_a_step_is_read_with_it() {
        let text = "start = ....;.♖..;..♖.
up = % + u. -> . + u%
right = % + r. -> . + r%
game g(start) = %♖: (up not holds(% + d.)) | (right not holds(% + u#))
holds(f) = f -> f
";
        let prog = Program::from_text("t.alg", text).unwrap();
        let (slow, fast) = both(&prog);
        let start = slow.start();
        let plan = fast.backend.engine().unwrap().plan::<u64>(&start.board);
        let text = format!("{:?}", plan.turns[0]);
        assert_eq!(text.matches("Not {").count(), 1, "{text}");
        let set = |r: &Rules| boards(r, &start);
        // Only the rook with a square above its step right moves.
        assert_eq!(set(&fast).len(), 1, "{:?}", set(&fast));
        assert_eq!(set(&fast), set(&slow));
    }

    /// Tests after a move are grouped with the move, `(m not A) not B`,
    /// so that each runs once per position with what it read there; the
    /// successors are the interpreter's.
    #[test]
    fn tests_after_a_move_group_with_it() {
        let text = "start = ♖...;....;..♜.;.♜..
holds(f) = f -> f
step = %♖: (% + u. -> . + u%) | (% + r. -> . + r%)
rook_sees = holds(% + r♜) | holds(% + r. + rr♜) | holds(% + r. + rr. + rrr♜)
rook_sees_up = holds(% + u♜) | holds(% + u. + uu♜) | holds(% + u. + uu. + uuu♜)
game g(start) = step not (%♖: rook_sees) not (%♖: rook_sees_up)
";
        let prog = Program::from_text("t.alg", text).unwrap();
        let (slow, fast) = both(&prog);
        let start = slow.start();
        let plan = fast.backend.engine().unwrap().plan::<u64>(&start.board);
        let text = format!("{:?}", plan.turns[0]);
        assert!(text.starts_with("Seq(Seq("), "{text}");
        assert_eq!(text.matches("NotBits(").count(), 2, "{text}");
        let set = |r: &Rules| boards(r, &start);
        assert_eq!(set(&fast), set(&slow));
        assert_eq!(set(&fast).len(), 1, "{:?}", set(&fast));
    }

    /// A `not` answered from memos keyed by the numbers planning gave it:
    /// on 12×12 chess planned for bit sets the king's safety is such a
    /// test, each test has its own number, and along a game played on one
    /// board and cache the moves are the interpreter's.
    #[test]
    fn memos_are_keyed_by_planned_numbers() {
        let games = games();
        let big = &games.iter().find(|(name, _)| name == "big").unwrap().1;
        let (slow, fast) = both(big);
        let start = slow.start();
        let plan = fast.backend.engine().unwrap().plan::<u64>(&start.board);
        let mut ids: Vec<ids::MemoId> = vec![];
        for t in plan.turns.iter().chain(&plan.tests) {
            each_op(t, &mut |op| {
                if let Op::Not { memo, .. } = op {
                    ids.push(*memo);
                }
            });
        }
        assert!(!ids.is_empty(), "{:?}", plan.turns[0]);
        let distinct: BTreeSet<u32> = ids.iter().map(|m| m.0).collect();
        assert_eq!(distinct.len(), ids.len(), "{ids:?}");
        // One board and cache along a random game, the moves of each
        // position the interpreter's.
        let (mut on, mut cache) = (plan.board(&start.board), Cache::default());
        let (mut pos, mut rng) = (start, 7u64);
        for ply in 0..300 {
            let moves = plan.moves(&mut on, &mut cache, pos.turn).unwrap();
            let made: BTreeSet<crate::semantics::Grid> = moves
                .iter()
                .map(|d| {
                    let mark = on.mark();
                    on.apply(d);
                    let g = on.mailbox.grid();
                    on.undo(mark);
                    g
                })
                .collect();
            assert_eq!(made, boards(&slow, &pos), "ply {ply}");
            if moves.is_empty() {
                break;
            }
            rng = rng.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            on.apply(&moves[(rng >> 33) as usize % moves.len()]);
            pos = Position {
                board: on.mailbox.grid(),
                turn: 1 - pos.turn,
            };
        }
    }

    /// Boxes past 64 squares keep bitboards, on the word that holds them:
    /// the king's safety and the pawns' rules are planned on words for
    /// 10×8 (`u128`) and 12×12 (`Wide`), not on bit sets.
    #[test]
    fn larger_boxes_plan_on_wider_words() {
        fn planned<W: word::Word>(prog: &Program) -> String {
            let (slow, fast) = both(prog);
            format!("{:?}", fast.backend.engine().unwrap().plan::<W>(&slow.start).turns[0])
        }
        let games = games();
        let game = |n: &str| &games.iter().find(|(name, _)| name == n).unwrap().1;
        for text in [
            planned::<u128>(game("variants/capablanca")),
            planned::<word::Wide>(game("big")),
        ] {
            assert!(text.contains("NotBits") && text.contains("BitRules("), "{text}");
            assert!(!text.contains("Not {"), "{text}");
        }
        // A word too narrow for the box keeps the read trees.
        assert!(!planned::<u64>(game("big")).contains("NotBits"));
    }

    /// A binder that tests before its rules (castling: the king not in
    /// check, then the squares between empty) is gated by those rules on
    /// words: closed at the start, where no castling fits and the tests
    /// are not run; open where the squares are clear, and closed again
    /// when a square between is taken.
    #[test]
    fn castling_is_gated_by_its_squares() {
        let games = games();
        let chess = &games.iter().find(|(name, _)| name == "chess").unwrap().1;
        let (slow, fast) = both(chess);
        let plan = fast.backend.engine().unwrap().plan::<u64>(&slow.start);
        let mut found = vec![];
        each_op(&plan.turns[0], &mut |op| {
            if let Op::Fits(code, bits) = op {
                found.push((*code, bits));
            }
        });
        assert_eq!(found.len(), 2, "short and long castling: {:?}", plan.turns[0]);
        let open = |f: &str| {
            let (board, _) = fen::read(f, &fast.pieces).unwrap();
            let on = plan.board(&board);
            found
                .iter()
                .map(|(code, bits)| on.fits_any(*code, bits))
                .collect::<Vec<bool>>()
        };
        assert_eq!(
            open("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
            [false, false]
        );
        assert_eq!(open("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"), [true, true]);
        assert_eq!(open("r3k2r/8/8/8/8/8/8/R3KB1R w KQkq - 0 1"), [false, true]);
        assert_eq!(open("r3k2r/8/8/8/8/8/8/R3K2R w - - 0 1"), [false, false]);
        // Capablanca's king castles step by step, each step tested:
        // gated too.
        let capablanca = &games.iter().find(|(name, _)| name == "variants/capablanca").unwrap().1;
        let (slow, fast) = both(capablanca);
        let plan = fast.backend.engine().unwrap().plan::<u128>(&slow.start);
        let mut gates = 0;
        each_op(&plan.turns[0], &mut |op| {
            gates += usize::from(matches!(op, Op::Fits(..)))
        });
        assert_eq!(gates, 2, "{:?}", plan.turns[0]);
    }

    /// A grasshopper's hops plan on words: its walks and landings are
    /// found for all its pieces at once.
    #[test]
    fn hops_plan_on_words() {
        let games = games();
        let fairy = &games.iter().find(|(name, _)| name == "fairy").unwrap().1;
        let (slow, fast) = both(fairy);
        let text = format!("{:?}", fast.backend.engine().unwrap().plan::<u64>(&slow.start).turns[0]);
        assert!(text.contains("BitHops("), "{text}");
    }

    /// A union's arm that fails is left out: grasshopper chess's pawns,
    /// whose double step is overridden with `fail`, still fit on words
    /// and are counted apart, as chess's are.
    #[test]
    fn failing_arms_are_left_out_of_unions() {
        let prog = crate::testing::load("rules/variants/grasshopper.alg");
        let (slow, fast) = both(&prog);
        let plan = fast.backend.engine().unwrap().plan::<u64>(&slow.start);
        let mut fails = 0;
        let mut binders = vec![];
        each_op(&plan.turns[0], &mut |op| match op {
            Op::Fail => fails += 1,
            Op::Bind(_, body) => {
                if let Op::BitRules(rs, _, apart) = &**body {
                    binders.push((rs.len(), *apart));
                }
            }
            _ => {}
        });
        assert_eq!(fails, 0);
        // The pawns: pushes and takes, each plain or promoting to five
        // pieces, and two captures en passant.
        assert!(binders.contains(&(20, true)), "{binders:?}");
    }

    /// A walk's step repeated once or more (`quiet(m)` of Irreversible
    /// Chess: forward over empty squares, each a result) plans as a slide
    /// that lands on empty squares, counted apart from the takes along
    /// the same line.
    #[test]
    fn a_step_repeated_plans_as_a_slide() {
        let prog = crate::testing::load("rules/variants/irreversible_takes.alg");
        let (slow, fast) = both(&prog);
        let plan = fast.backend.engine().unwrap().plan::<u64>(&slow.start);
        let mut empty = crate::semantics::CellSet::default();
        empty.insert_code(crate::semantics::Code::EMPTY);
        let (mut stars, mut quiet, mut apart) = (0, 0, 0);
        each_op(&plan.turns[0], &mut |op| match op {
            Op::Star(_) => stars += 1,
            Op::Slide { set, apart: a, .. } => {
                quiet += usize::from(*set == empty);
                apart += usize::from(*a);
            }
            _ => {}
        });
        assert_eq!(stars, 0);
        // Quiet moves forward: a rook's one (two codes: one that may
        // castle), a bishop's two, a queen's three; and 20 lines of takes.
        assert_eq!(quiet, 7);
        assert_eq!(apart, 27);
    }

    /// A write of what its square is read to hold is left out when
    /// planned: chess's pawn double step, which reads and writes the
    /// square it passes over as empty, changes two squares; and every
    /// pawn and king rule that empties the pivot and writes one square it
    /// reads is a step that a leaf tests on words as they would be.
    #[test]
    fn writes_of_what_is_read_are_left_out() {
        let prog = crate::testing::load("rules/chess.alg");
        let (slow, fast) = both(&prog);
        let plan = fast.backend.engine().unwrap().plan::<u64>(&slow.start);
        let mut rules = vec![];
        each_op(&plan.turns[0], &mut |op| {
            if let Op::BitRules(fast, bits, _) = op {
                rules.extend(
                    fast.iter()
                        .zip(bits)
                        .map(|(r, b)| (r.writes.clone(), b.step().is_some())),
                );
            }
        });
        let pe = slow.pieces.lookup("'Pe").expect("chess declares 'Pe");
        let pe = crate::semantics::Code::content(crate::ir::Content::Piece(pe));
        let doubles: Vec<_> = rules.iter().filter(|(w, _)| w.iter().any(|x| x.1 == pe)).collect();
        assert_eq!(doubles.len(), 1, "{rules:?}");
        assert_eq!(doubles[0].0.len(), 2, "{doubles:?}");
        assert!(doubles[0].1, "{doubles:?}");
        // The knight's leaps and the king's steps are steps; a promotion
        // (one write of the pivot, one of a new piece) is one too.
        assert!(rules.iter().filter(|(_, step)| *step).count() >= 8 + 8 + 8, "{rules:?}");
    }

    /// Sliders plan as line walks, each square on the line a result.
    #[test]
    fn sliders_walk_lines() {
        let prog = crate::testing::load("rules/chess.alg");
        let (slow, fast) = both(&prog);
        let plan = fast.backend.engine().unwrap().plan::<u64>(&slow.start);
        let text = format!("{:?}", plan.turns[0]);
        assert!(text.matches("Slide {").count() >= 8, "{text}");
        assert!(!text.contains("Interpret"), "{text}");
        // The king's safety is tested on bitboards, the pawns' last rank
        // with each step.
        assert!(text.contains("NotBits"), "{text}");
        assert!(!text.contains("Not {"), "{text}");
        // The pawns' rules fit for all the pawns at once, on words.
        assert!(text.contains("BitRules("), "{text}");
        // The knight's eight leaps, eight arms in the file, are one list,
        // and it plans on words: a binder of the knight with eight bit
        // rules, no guard's rules left.
        let mut out: Vec<(usize, usize)> = vec![];
        each_op(&plan.turns[0], &mut |op| match op {
            Op::Rules(rs) => out.push((rs.iter().filter(|r| matches!(r.find, plan::Find::Guard(_))).count(), 0)),
            Op::BitRules(rs, ..) => out.push((0, rs.len())),
            _ => {}
        });
        assert!(out.iter().all(|&(guards, _)| guards == 0), "{out:?}");
        assert!(out.iter().any(|&(_, bits)| bits == 8), "{out:?}");
    }

    /// A slide written out length by length plans as one slide with its
    /// longest length, whether it moves the POI or writes a piece; a gap
    /// in the lengths keeps the rules as rules. Either way the successors
    /// are the interpreter's, also where the next rule needs the POI (gone
    /// after a rule writes a piece over it).
    #[test]
    fn written_out_slides_walk_lines() {
        let text = "start = .......;♖..♖...;.......;♖......
right = (% + r. -> . + r%) | (% + r. + rr. -> . + r. + rr%) | (% + r. + rr. + rrr. -> . + r. + rr. + rrr%)
up = (% + u. -> . + u♖) | (% + u. + uu. -> . + u. + uu♖)
left = (% + l. -> . + l%) | (% + l. + ll. + lll. -> . + l. + ll. + lll%)
game g(start) = %♖: (right | up | left) (nil | (% + r. -> . + r♖))
";
        let prog = Program::from_text("t.alg", text).unwrap();
        let (slow, fast) = both(&prog);
        let plan = fast.backend.engine().unwrap().plan::<u64>(&slow.start);
        let text = format!("{:?}", plan.turns[0]);
        assert_eq!(text.matches("Slide {").count(), 2, "{text}");
        assert!(text.contains("max: 3") && text.contains("max: 2"), "{text}");
        let start = slow.start();
        let set = |r: &Rules| boards(r, &start);
        assert!(set(&slow).len() > 5, "{:?}", set(&slow));
        assert_eq!(set(&fast), set(&slow));
    }

    /// On random positions reached by play, in every game, the engine's
    /// successors are exactly the interpreter's.
    #[test]
    fn successors_agree_on_positions_of_play() {
        static GAMES: std::sync::OnceLock<Vec<(String, Rules, Rules)>> = std::sync::OnceLock::new();
        fn prop(seed: u64, plies: u8) -> bool {
            let games = GAMES.get_or_init(|| {
                games()
                    .into_iter()
                    .map(|(n, p)| {
                        let (a, b) = both(&p);
                        (n, a, b)
                    })
                    .collect()
            });
            let (name, slow, fast) = &games[seed as usize % games.len()];
            let mut pos = slow.start();
            let mut rng = seed;
            for ply in 0..plies % 40 {
                let set = |r: &Rules| {
                    r.successors(&pos)
                        .unwrap()
                        .into_iter()
                        .map(|p| (p.board, p.turn))
                        .collect::<BTreeSet<_>>()
                };
                let (a, b) = (set(slow), set(fast));
                if a != b {
                    eprintln!("{name}, ply {ply}: {:?}", pos.board);
                    return false;
                }
                if a.is_empty() {
                    break;
                }
                rng = rng.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                let (board, turn) = a.into_iter().nth((rng >> 33) as usize % b.len()).unwrap();
                pos = Position { board, turn };
            }
            true
        }
        quickcheck::QuickCheck::new()
            .tests(60)
            .quickcheck(prop as fn(u64, u8) -> bool);
    }
}
