//! A game in progress as a referee follows it: the position, the legal
//! moves, the move counters and the positions seen (for repetition). The
//! `Match`'s other concerns live beside it, each in an `impl` of its own:
//! plies a search takes back (`entered`), the end reached (`outcome`),
//! draws to claim (`claims`); how it is written lives in `record`: set up
//! from and written as a FEN (`setup`), moves named (`naming`) and found
//! by name (`finding`).

use super::counting::{self, Count, Material};
use super::end::Test;
use super::game::{Position, Rules, Seat, TooBig};
use super::pieces::CodeTable;
use super::repetition::{self, Reached, Seen};
use crate::elab::Stuck;
use crate::engine::Vacate;
use crate::semantics::Change;
use std::cell::OnceCell;

/// A game being played or checked. The board is followed by the rules'
/// backend (its [`Seat`]), and the legal moves kept as what each
/// writes: a ply makes a few writes, never a board per legal move. Its
/// fields are shared with the files of `play` and `record` that extend its
/// `impl`.
#[derive(Clone)]
pub struct Match<'a> {
    /// The game's rules.
    pub rules: &'a Rules,
    /// The current board and side to move.
    pub pos: Position,
    /// Plies since the last capture or move of a piece that resets the
    /// fifty-move count.
    pub halfmove: u32,
    /// The move number: 1 at the start, one more after each round of turns.
    pub fullmove: u32,
    /// `pos.board` as the rules' backend follows it.
    pub(crate) seat: Seat,
    /// The legal moves, as what each writes on `pos.board` (a pass
    /// writes nothing); when not `full`, only those a SAN asked for.
    pub(crate) moves: Vec<Change>,
    /// `moves` holds every legal move.
    pub(crate) full: bool,
    /// The side to move is known to have a legal move.
    pub(crate) moving: bool,
    /// Moves are found when asked for (a referee's replay), not after
    /// each ply.
    pub(crate) lazy: bool,
    /// What [`Vacate`] asks of the engine for each SAN piece letter.
    pub(crate) letters: Vec<(char, Vacate)>,
    /// The positions they reach, made when asked for.
    pub(crate) legal: OnceCell<Vec<Position>>,
    /// Positions as FIDE compares them, with how often each was reached.
    pub(super) seen: Seen,
    /// How often the position on the board was reached.
    pub(super) reached: u32,
    /// Some position was reached twice or more.
    pub(super) twice: bool,
    /// For each `checkmate(T)` of the game's `stuck` ends (its condition's
    /// index), per turn: the side is in check, and T held at this turn of
    /// its or at one of the turns before it in check in a row.
    pub(super) series: Vec<(usize, Vec<bool>)>,
    /// Makruk's count, when one runs: its limit and the plies counted.
    pub(crate) count: Option<Count>,
}

impl<'a> Match<'a> {
    /// A game from `pos` with the given counters.
    pub fn new(rules: &'a Rules, pos: Position, halfmove: u32, fullmove: u32) -> Result<Match<'a>, TooBig> {
        Match::started(rules, pos, halfmove, fullmove, false)
    }

    /// [`new`](Match::new), finding moves only when asked for when `lazy`.
    pub(crate) fn started(
        rules: &'a Rules,
        pos: Position,
        halfmove: u32,
        fullmove: u32,
        lazy: bool,
    ) -> Result<Match<'a>, TooBig> {
        let mut m = Match {
            rules,
            seat: rules.backend.seat(&pos.board),
            pos,
            halfmove,
            fullmove,
            moves: vec![],
            full: true,
            moving: false,
            lazy,
            letters: vec![],
            legal: OnceCell::new(),
            seen: Seen::default(),
            reached: 0,
            twice: false,
            series: rules
                .ends
                .stuck
                .iter()
                .filter_map(|s| match s {
                    Stuck::CheckSeries(i) => Some((*i, vec![false; rules.turns.len()])),
                    _ => None,
                })
                .collect(),
            count: None,
        };
        m.follow_series()?;
        if lazy {
            m.full = false;
        } else {
            m.moves = m.successors(m.pos.turn)?;
        }
        m.count_position()?;
        Ok(m)
    }

    /// The turn after `turn`.
    pub(crate) fn next(&self, turn: usize) -> usize {
        (turn + 1) % self.rules.turns.len()
    }

    /// Makes `c` on the board and the seat, to be unmade by `pop` with
    /// what it returns.
    pub(crate) fn push(&mut self, c: &Change) -> Change {
        let undo = c.iter().map(|&(q, _)| (q, self.pos.board.code(q))).collect();
        self.pos.board.apply(c);
        self.seat.push(c);
        undo
    }

    pub(crate) fn pop(&mut self, undo: Change) {
        self.pos.board.apply(&undo);
        self.seat.pop();
    }

    /// The moves of turn `turn` on the board as it stands, passes aside.
    fn moves_of(&mut self, turn: usize, out: &mut Vec<Change>) -> Result<(), TooBig> {
        out.clear();
        self.seat.moves(self.rules, &self.pos.board, turn, out)
    }

    /// The moves of turn `turn` on the board as it stands, as
    /// `Rules::successors` gives them: a side with no move whose rules say
    /// it passes has one, that writes nothing, unless the other side
    /// cannot move either.
    pub(crate) fn successors(&mut self, turn: usize) -> Result<Vec<Change>, TooBig> {
        let mut out = vec![];
        self.successors_into(turn, &mut out)?;
        Ok(out)
    }

    /// [`successors`](Match::successors) into `out`, emptied first.
    pub(super) fn successors_into(&mut self, turn: usize, out: &mut Vec<Change>) -> Result<(), TooBig> {
        self.moves_of(turn, out)?;
        if out.is_empty() && self.rules.ends.passes() {
            let next = self.next(turn);
            self.moves_of(next, out)?;
            let other = !out.is_empty();
            out.clear();
            if other {
                out.push(Change::new());
            }
        }
        Ok(())
    }

    /// Test `t` of turn `turn` on the board as it stands.
    pub(crate) fn test(&mut self, t: Test, turn: usize) -> Result<bool, TooBig> {
        self.seat.holds(self.rules, t, turn, &self.pos.board)
    }

    /// The positions the side to move can reach.
    pub fn legal(&self) -> &[Position] {
        self.legal.get_or_init(|| {
            let turn = self.next(self.pos.turn);
            self.moves
                .iter()
                .map(|c| {
                    let mut board = self.pos.board.clone();
                    board.apply(c);
                    Position { board, turn }
                })
                .collect()
        })
    }

    /// How many legal moves the side to move has.
    pub fn count(&self) -> usize {
        self.moves.len()
    }

    /// Plays legal move `i`.
    pub fn play(&mut self, i: usize) -> Result<(), TooBig> {
        let c = self.moves[i].clone();
        self.enter(&c)
    }

    /// The legal moves, as what each writes on the board (a pass writes
    /// nothing), in the order [`play`](Match::play) numbers them.
    pub fn changes(&self) -> &[Change] {
        &self.moves
    }

    /// How often the position on the board has been reached in the game;
    /// positions entered by [`enter_for_search`](Match::enter_for_search)
    /// are not counted.
    pub fn repeats(&self) -> u32 {
        self.reached
    }

    /// A null move, as analysis files write them (`--`, `Z0`): the side
    /// to move passes, and an en passant capture it made possible is gone.
    pub fn pass(&mut self) -> Result<(), TooBig> {
        let c = repetition::unmarked(&self.rules.codes, &self.pos.board);
        self.enter(&c)
    }

    /// Goes on with the ply that makes `c`.
    fn enter(&mut self, c: &Change) -> Result<(), TooBig> {
        self.halfmove = if self.resets(c) { 0 } else { self.halfmove + 1 };
        let before = self.material();
        self.pos.board.apply(c);
        self.seat.play(c);
        self.pos.turn = self.next(self.pos.turn);
        if self.pos.turn == 0 {
            self.fullmove += 1;
        }
        self.legal = OnceCell::new();
        self.recount(before);
        self.follow_series()?;
        if self.lazy {
            self.moves.clear();
            (self.full, self.moving) = (false, false);
        } else {
            self.all_moves()?;
        }
        self.count_position()
    }

    /// Finds every legal move of the side to move, unless known.
    pub(crate) fn all_moves(&mut self) -> Result<(), TooBig> {
        let mut moves = std::mem::take(&mut self.moves);
        let found = self.successors_into(self.pos.turn, &mut moves);
        self.moves = moves;
        self.legal = OnceCell::new();
        self.full = found.is_ok();
        found
    }

    /// Whether the side to move has a legal move: on the engine, and
    /// where no side passes, found without finding them all.
    pub(crate) fn has_move(&mut self) -> Result<bool, TooBig> {
        if self.full || self.moving {
            return Ok(self.moving || !self.moves.is_empty());
        }
        let turn = self.pos.turn;
        // A side that may pass has a move whenever the other side does:
        // that needs the full list.
        let known = if self.rules.ends.passes() {
            None
        } else {
            self.seat.any_move(turn)
        };
        match known {
            Some(found) => {
                self.moving = found?;
                if !self.moving {
                    // No move at all: the list is complete.
                    self.moves.clear();
                    self.legal = OnceCell::new();
                    self.full = true;
                }
            }
            None => self.all_moves()?,
        }
        Ok(self.moving || !self.moves.is_empty())
    }

    /// Counts the position on the board as reached once more.
    fn count_position(&mut self) -> Result<(), TooBig> {
        let r = Reached::of(self.rules, &self.pos.board, self.pos.turn);
        self.reached = self.seen.add(self.rules, r, &self.pos.board)?;
        self.twice |= self.reached >= 2;
        Ok(())
    }

    /// Whether the ply that makes `c` resets the fifty-move count: it
    /// takes a piece, or moves one the rules name. A marker coming off
    /// (`'Pe` to `♙`) is no move.
    pub(super) fn resets(&self, c: &Change) -> bool {
        let p = &self.rules.codes;
        let mut pieces = 0i32;
        let mut named = false;
        for &(q, v) in c {
            let was = self.pos.board.code(q);
            pieces += i32::from(CodeTable::is_piece(v)) - i32::from(CodeTable::is_piece(was));
            named |= p.resets(was) && p.looks(v) != p.looks(was);
        }
        pieces < 0 || named
    }

    /// Whether the side to move is in check.
    pub fn in_check(&mut self) -> Result<bool, TooBig> {
        self.test(Test::Check, self.pos.turn)
    }

    /// Makruk's count, when one runs.
    pub fn counting(&self) -> Option<Count> {
        self.count
    }

    /// What each side has on the board, for the counting rules; `None`
    /// when the game does not count.
    pub(super) fn material(&self) -> Option<Material> {
        Material::of(self.rules, &self.pos.board)
    }

    /// Makruk's count after a ply, from what the sides had before it (see
    /// [`counting::recount`]).
    pub(super) fn recount(&mut self, before: Option<Material>) {
        let (Some(before), Some(c)) = (before, self.rules.ends.counting.as_ref()) else {
            return;
        };
        let after = self.material().expect("a game that counts");
        counting::recount(&mut self.count, c, &before, &after, self.pos.turn);
    }
}
