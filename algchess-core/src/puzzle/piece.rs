//! The pieces of a puzzle, read off a rule file or notation literals, and
//! what each does on a board: the squares it attacks (its captures, read
//! by `attacked_by`) and the squares it moves to.

use super::{Board, PuzzleError, Running};
use crate::diag::{Diag, Diags, Source, Span};
use crate::elab::{attacked_by, moved_pieces, AttackError, Loader, Program};
use crate::geometry::{Rect, Square, Tiling};
use crate::ir::{Cell, Content, PieceId, Pieces, Sort, Term};
use crate::memory::MemoryLimit;
use crate::semantics::{compile, CellSet, Eval, Grid, Halt, Prog, State, Store};
use std::cell::RefCell;
use std::convert::Infallible;
use std::path::Path;
use std::rc::Rc;

/// Glyphs for the piece a notation literal stands for, white then black:
/// the first pair the rules do not already name.
const STAND_INS: [(&str, &str); 4] = [("●", "○"), ("◆", "◇"), ("■", "□"), ("▲", "△")];

/// One piece of a puzzle.
#[derive(Clone, Debug)]
pub struct Kind {
    /// How it was given: a definition's name, a move, a notation literal.
    pub text: String,
    /// Its moves, a closed move.
    pub moves: Term,
    /// The piece they move.
    pub piece: PieceId,
}

/// The pieces of a puzzle, read in one program.
#[derive(Clone, Debug)]
pub struct PieceSet {
    /// Each piece, in the order given.
    pub kinds: Vec<Kind>,
    /// How the pieces are spelt and drawn.
    pub pieces: Pieces,
    /// The grid the moves are on.
    pub tiling: Tiling,
    /// The rules' games, each with its starting board: boards to play a
    /// puzzle on.
    pub games: Vec<(String, Grid)>,
}

/// Where a piece's attacks were read from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum Attacks {
    /// Its captures.
    Captures,
    /// Its moves: it takes nothing, so a piece stands in the way of any
    /// square it could move to.
    Moves,
}

/// Reads the pieces `texts` (each a definition's name, a move or a
/// notation literal such as `betza"Q"`) in the rules of `rules`, or with
/// none: then `enemy` is every black piece and `friend` every white one,
/// as in rules/chess.alg. A move of no bound piece (a literal) is bound to
/// a piece of its own, drawn `●` (or another glyph the rules leave free).
pub fn read_pieces(
    rules: Option<&Path>,
    texts: &[String],
    tiling: Tiling,
    loader: &dyn Loader,
    memory: MemoryLimit,
) -> Result<PieceSet, Diags> {
    let free = |pieces: Option<&Pieces>| {
        STAND_INS
            .iter()
            .find(|(w, b)| pieces.is_none_or(|p| p.lookup(w).is_none() && p.lookup(b).is_none()))
            .copied()
    };
    let (prog, stand_in, games) = match rules {
        None => {
            let (w, b) = free(None).expect("a stand-in");
            let text = format!("piece {w} / {b}\nenemy = black_pieces\nfriend = white_pieces\n");
            (Program::from_text_on("(piece)", &text, tiling)?, Some(w), vec![])
        }
        Some(path) => {
            let file = Program::load(path, memory, loader)?;
            let games = file.games().iter().map(|g| (g.name.clone(), g.board.clone())).collect();
            let name = path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            match free(Some(file.pieces())) {
                // The rules read again, imported by a file that declares
                // a stand-in for the moves of no bound piece (so the
                // rules' `black_pieces` name it), and `enemy` and `friend`
                // for notation literals where the rules have none.
                Some((w, b)) if !name.contains(['"', '\n']) => {
                    let mut text = format!("piece {w} / {b}\nimport \"{name}\"\n");
                    for (def, side) in [("enemy", "black_pieces"), ("friend", "white_pieces")] {
                        if !file.defs.contains_key(def) {
                            text.push_str(&format!("{def} = {side}\n"));
                        }
                    }
                    let at = path.parent().unwrap_or(Path::new("")).join("(piece)");
                    let prog = Program::from_text_with(&at.display().to_string(), &text, file.tiling(), loader)?;
                    (prog, Some(w), games)
                }
                _ => (file, None, games),
            }
        }
    };
    let mut prog = prog;
    let terms = moves(&mut prog, texts)?;
    let stand_in = stand_in.and_then(|w| prog.pieces().lookup(w));
    let mut kinds = vec![];
    for (text, term) in texts.iter().zip(terms) {
        let term = match (term.is_open(), stand_in) {
            (true, Some(p)) => Term::bind(&Term::content(Content::Piece(p)), &term),
            _ => term,
        };
        let Some(&piece) = moved_pieces(&term).first() else {
            let why = match term.node() {
                crate::ir::Node::Fail | crate::ir::Node::Nil => "this piece has no moves",
                _ => "this move moves no one piece: bind it to a piece, `%P: ...`",
            };
            return Err(plain("--piece", text, why));
        };
        kinds.push(Kind {
            text: text.clone(),
            moves: term,
            piece,
        });
    }
    Ok(PieceSet {
        kinds,
        pieces: prog.pieces().clone(),
        tiling: prog.tiling(),
        games,
    })
}

/// Each text elaborated in `prog`'s rules, as a move with no
/// metavariable.
fn moves(prog: &mut Program, texts: &[String]) -> Result<Vec<Term>, Diags> {
    let mut out = vec![];
    for text in texts {
        let term = prog.expr("--piece", text)?;
        if term.sort() != Sort::Move {
            return Err(plain(
                "--piece",
                text,
                &format!("this is a {}, not a move", term.sort()),
            ));
        }
        if !term.is_closed() {
            return Err(plain("--piece", text, "a piece's moves may have no metavariable"));
        }
        out.push(term);
    }
    Ok(out)
}

/// An error about a whole command-line value.
fn plain(flag: &str, text: &str, message: &str) -> Diags {
    Diag::new(&Source::new(flag, text), Span::new(0, text.len()), message).into()
}

/// A board that notes every square a run asks about, so that the squares
/// a test never reads are known to change nothing it answers; and
/// whether it asked for a piece other than the attacker's own (a hurdle
/// to hop over), whose answer a third piece would change.
#[derive(Clone)]
struct Traced {
    grid: Grid,
    /// The square of the piece attacked, which the test reads as it will.
    poi: Square,
    /// The attacker's pieces.
    own: Rc<[PieceId]>,
    log: Rc<RefCell<Log>>,
}

#[derive(Default)]
struct Log {
    read: Vec<Square>,
    /// A binder looked for pieces anywhere on the board.
    everywhere: bool,
    /// A square was asked whether it holds another piece.
    third: bool,
}

impl PartialEq for Traced {
    fn eq(&self, o: &Traced) -> bool {
        self.grid == o.grid
    }
}

impl Eq for Traced {}

impl std::hash::Hash for Traced {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        self.grid.hash(h)
    }
}

impl Traced {
    fn note(&self, q: Square, cells: impl IntoIterator<Item = Cell>) {
        let mut log = self.log.borrow_mut();
        log.read.push(q);
        let other = |c: Cell| matches!(c, Cell::Is(Content::Piece(p)) if !self.own.contains(&p));
        if q != self.poi && cells.into_iter().any(other) {
            log.third = true;
        }
    }
}

impl Store for Traced {
    type Unknown = Infallible;
    type Value = u8;

    fn squares(&self) -> Rect {
        self.grid.squares()
    }
    fn candidates(&self, c: Content) -> smallvec::SmallVec<[Square; 16]> {
        self.log.borrow_mut().everywhere = true;
        self.grid.candidates(c)
    }
    fn on_board(&self, q: Square) -> Result<bool, Infallible> {
        self.note(q, []);
        self.grid.on_board(q)
    }
    fn reads(&self, q: Square, set: &CellSet) -> Result<bool, Infallible> {
        self.note(q, set.cells());
        self.grid.reads(q, set)
    }
    fn holds(&self, q: Square, c: Content) -> Result<bool, Infallible> {
        self.note(q, [Cell::Is(c)]);
        self.grid.holds(q, c)
    }
    fn value(&self, q: Square) -> u8 {
        self.note(q, []);
        self.grid.value(q)
    }
    fn set(&mut self, q: Square, c: Content) {
        self.grid.set(q, c)
    }
    fn set_value(&mut self, q: Square, v: u8) {
        self.grid.set_value(q, v)
    }
}

fn halted(h: Halt<Infallible>) -> PuzzleError {
    match h {
        Halt::Budget(n) => PuzzleError::Budget(n),
        Halt::Memory(_) => PuzzleError::Stopped(crate::checker::Limit::Memory),
        Halt::Time => PuzzleError::Stopped(crate::checker::Limit::Timeout),
        Halt::Unknown(never) => match never {},
    }
}

impl PieceSet {
    /// The piece that stands for kind `k` when it is attacked: its twin of
    /// the other side, which its own side's moves take.
    fn target(&self, k: usize) -> PieceId {
        self.pieces.twin(self.kinds[k].piece)
    }

    /// The squares kind `a` on each square attacks where kind `b` stands,
    /// each read on a board holding those two pieces alone: `out[s]`, in
    /// square numbers. From its captures, or, when it has none, its moves.
    pub(super) fn attacks(
        &self,
        a: usize,
        b: usize,
        board: &Board,
        clock: &Running,
    ) -> Result<(Vec<Vec<u32>>, Attacks), PuzzleError> {
        let kind = &self.kinds[a];
        let test = match attacked_by(&kind.moves, &[Content::Piece(self.target(b))], &self.pieces) {
            Ok(t) => t,
            Err(AttackError::NoCapture) => {
                let moves = self.moves(a, board, clock)?;
                if moves.iter().all(Vec::is_empty) {
                    return Err(PuzzleError::NoMoves(kind.text.clone()));
                }
                return Ok((moves, Attacks::Moves));
            }
            Err(e) => return Err(PuzzleError::Attacks(kind.text.clone(), e.to_string())),
        };
        let prog = compile(&test).expect("an attack test compiles");
        let n = board.len();
        let mut out = vec![vec![]; n];
        let (attacker, target) = (kind.piece, self.target(b));
        let own: Rc<[PieceId]> = moved_pieces(&kind.moves).into();
        for t in 0..n {
            clock.check().map_err(PuzzleError::Stopped)?;
            let at = board.squares()[t];
            let alone = board.with([(t, target)]);
            // The squares the test reads with no attacker on the board:
            // an attacker anywhere else changes nothing it reads.
            let traced = Traced {
                grid: alone.clone(),
                poi: at,
                own: own.clone(),
                log: Rc::default(),
            };
            let state = State {
                board: traced.clone(),
                poi: Some(at),
            };
            if self.exists(&prog, &state, clock)? {
                return Err(PuzzleError::Attacks(
                    kind.text.clone(),
                    "its attack test holds with no piece to attack from".into(),
                ));
            }
            let log = traced.log.borrow();
            if log.third {
                // A hopper's capture needs a hurdle: whether two pieces
                // attack each other depends on the others.
                return Err(PuzzleError::Attacks(
                    kind.text.clone(),
                    "its captures need a third piece on the board (a hurdle), so whether two pieces attack each other depends on the rest of the placement".into(),
                ));
            }
            let mut read: Vec<usize> = if log.everywhere {
                (0..n).collect()
            } else {
                log.read.iter().filter_map(|q| board.number(*q)).collect()
            };
            drop(log);
            read.sort_unstable();
            read.dedup();
            for s in read.into_iter().filter(|s| *s != t) {
                let mut g = alone.clone();
                g.put(board.squares()[s], Some(Content::Piece(attacker)));
                let state = State {
                    board: g,
                    poi: Some(at),
                };
                if self.exists(&prog, &state, clock)? {
                    out[s].push(t as u32);
                }
            }
        }
        Ok((out, Attacks::Captures))
    }

    /// The squares kind `a` moves to from each square, on a board holding
    /// it alone: `out[s]`, in square numbers. A result counts when the
    /// piece has left its square for one other and nothing else changed.
    pub(super) fn moves(&self, a: usize, board: &Board, clock: &Running) -> Result<Vec<Vec<u32>>, PuzzleError> {
        let kind = &self.kinds[a];
        let prog = compile(&kind.moves).expect("an elaborated closed move compiles");
        let mut out = vec![vec![]; board.len()];
        for (s, to) in out.iter_mut().enumerate() {
            clock.check().map_err(PuzzleError::Stopped)?;
            let start = board.with([(s, kind.piece)]);
            let state = State {
                board: start.clone(),
                poi: None,
            };
            let results = Eval::new(clock.budget)
                .with_memory(clock.memory)
                .run(&prog, &state)
                .map_err(halted)?;
            for r in results {
                if let [p, q] = start.diff(&r.board)[..] {
                    let t = if p == board.squares()[s] { q } else { p };
                    if r.board.get(board.squares()[s]) == Some(Content::Empty)
                        && r.board.get(t) == Some(Content::Piece(kind.piece))
                    {
                        to.extend(board.number(t).map(|t| t as u32));
                    }
                }
            }
            to.sort_unstable();
            to.dedup();
        }
        Ok(out)
    }

    fn exists<S: Store<Unknown = Infallible>>(
        &self,
        prog: &Prog,
        state: &State<S>,
        clock: &Running,
    ) -> Result<bool, PuzzleError> {
        Eval::new(clock.budget)
            .with_memory(clock.memory)
            .exists(prog, state)
            .map_err(halted)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::testing::{board, set};
    use crate::puzzle::Limits;

    fn names(b: &Board, squares: &[u32]) -> Vec<String> {
        squares.iter().map(|s| b.name(*s as usize)).collect()
    }

    #[test]
    fn attacks_are_read_off_the_captures() {
        let b = board("4x4");
        let clock = Running::start(&Limits::default());
        let q = set(&[r#"betza"Q""#]);
        let (rows, from) = q.attacks(0, 0, &b, &clock).unwrap();
        assert_eq!(from, Attacks::Captures);
        // A queen on a1 of a 4×4 board: its rank, its file, its diagonal.
        assert_eq!(
            names(&b, &rows[0]),
            ["b1", "c1", "d1", "a2", "b2", "a3", "c3", "a4", "d4"]
        );
        let n = set(&[r#"betza"N""#]);
        let (rows, _) = n.attacks(0, 0, &b, &clock).unwrap();
        assert_eq!(names(&b, &rows[0]), ["c2", "b3"]);
        // A pawn that takes forward diagonally only.
        let p = set(&[r#"betza"fmWfcF""#]);
        let (rows, _) = p.attacks(0, 0, &b, &clock).unwrap();
        assert_eq!(names(&b, &rows[b.number(Square::new(1, 1)).unwrap()]), ["a3", "c3"]);
    }

    #[test]
    fn a_piece_that_takes_nothing_attacks_where_it_moves() {
        let b = board("3x3");
        let clock = Running::start(&Limits::default());
        let w = set(&[r#"betza"mW""#]);
        let none = set(&[r#"betza"mN""#]);
        assert!(matches!(
            none.attacks(0, 0, &board("2x2"), &clock),
            Err(PuzzleError::NoMoves(_))
        ));
        let (rows, from) = w.attacks(0, 0, &b, &clock).unwrap();
        assert_eq!(from, Attacks::Moves);
        assert_eq!(names(&b, &rows[4]), ["b1", "a2", "c2", "b3"]);
    }

    #[test]
    fn moves_are_the_squares_a_piece_alone_goes_to() {
        let b = board("3x3");
        let clock = Running::start(&Limits::default());
        let n = set(&[r#"betza"N""#]);
        let moves = n.moves(0, &b, &clock).unwrap();
        assert_eq!(names(&b, &moves[0]), ["c2", "b3"]);
        assert!(moves[4].is_empty(), "the centre of 3×3 is a knight's dead end");
    }

    #[test]
    fn pieces_are_a_rule_files_or_bound_literals() {
        let s = set(&[r#"%♕: betza"Q""#, r#"parlett"(move 1 (leaper 1 2))""#]);
        assert_eq!(s.kinds[0].piece, PieceId::chess("♕").unwrap());
        assert_eq!(s.pieces.glyph(s.kinds[1].piece), "●");
        let texts = vec!["u".to_string()];
        let e = read_pieces(None, &texts, Tiling::Square, &crate::elab::NoFiles, MemoryLimit::NONE).unwrap_err();
        assert!(e.to_string().contains("not a move"), "{e}");
        let texts = vec!["fail".to_string()];
        let e = read_pieces(None, &texts, Tiling::Square, &crate::elab::NoFiles, MemoryLimit::NONE).unwrap_err();
        assert!(e.to_string().contains("no moves"), "{e}");
    }
}
