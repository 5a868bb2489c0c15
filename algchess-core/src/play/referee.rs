//! A game in progress as a referee follows it: the position, the legal
//! moves, the move counters, the positions seen (for repetition), check,
//! and the end reached or claimable.

use super::end::{insufficient_material, Ending, GameOutcome, Test};
pub use super::error::{MoveError, PositionError};
use super::game::{Position, Rules, TooBig};
use super::pieces::CodeTable;
use super::repetition::{self, Reached, Seen};
use super::{fen, notation, pdn, san};
use crate::core::Content;
use crate::diag::clip;
use crate::elab::{Counting, Stuck, Verdict};
use crate::engine::{Cursor, Vacate};
use crate::geometry::{Square, Tiling};
use crate::semantics::{CellSet, Change, Grid};
use std::cell::OnceCell;

/// A game being played or checked. The board is kept on the engine's
/// cursor when the rules play there, and the legal moves as what each
/// writes: a ply makes a few writes, never a board per legal move.
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
    /// The engine's copy of `pos.board`, when the rules play there.
    cursor: Option<Cursor>,
    /// The legal moves, as what each writes on `pos.board` (a pass
    /// writes nothing); when not `full`, only those a SAN asked for.
    moves: Vec<Change>,
    /// `moves` holds every legal move.
    full: bool,
    /// The side to move is known to have a legal move.
    moving: bool,
    /// Moves are found when asked for (a referee's replay), not after
    /// each ply.
    lazy: bool,
    /// What [`Vacate`] asks of the engine for each SAN piece letter.
    letters: Vec<(char, Vacate)>,
    /// The positions they reach, made when asked for.
    legal: OnceCell<Vec<Position>>,
    /// Positions as FIDE compares them, with how often each was reached.
    seen: Seen,
    /// How often the position on the board was reached.
    reached: u32,
    /// Some position was reached twice or more.
    twice: bool,
    /// For each `checkmate(T)` of the game's `stuck` ends (its condition's
    /// index), per turn: the side is in check, and T held at this turn of
    /// its or at one of the turns before it in check in a row.
    series: Vec<(usize, Vec<bool>)>,
    /// Makruk's count, when one runs: its limit and the plies counted.
    count: Option<Count>,
}

/// A count of makruk's counting rules, in plies as Fairy-Stockfish keeps
/// it: a count run out (`ply > limit`) may be claimed as a draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Count {
    /// The limit, in plies: twice the moves.
    pub limit: u32,
    /// The plies counted.
    pub ply: u32,
}

/// What a side has on the board, for the counting rules: its pieces, its
/// pawns, and for each limit of pieces' honour, its pieces of that kind.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Material {
    pieces: [u32; 2],
    pawns: [u32; 2],
    kinds: Vec<[u32; 2]>,
}

/// A ply made for a search, to be taken back: what it overwrote and the
/// state before it.
pub struct Ply {
    undo: Change,
    halfmove: u32,
    fullmove: u32,
    turn: usize,
    moves: Vec<Change>,
    reached: u32,
    series: Vec<(usize, Vec<bool>)>,
    count: Option<Count>,
}

/// A draw a player may claim.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DrawClaim {
    /// Fifty moves of each side without a capture or a move that resets the
    /// count (a pawn's, in chess).
    FiftyMoves,
    /// The same position for the third time.
    ThreefoldRepetition,
    /// A count of moves without a capture or a move that resets it that
    /// a game other than chess declares (`move_claim`: shatranj's 70).
    MoveClaim,
    /// Makruk's count run out (board's or pieces' honour).
    Counting,
}

impl DrawClaim {
    /// The claim's name in reports (`fifty_moves`).
    pub fn name(self) -> &'static str {
        match self {
            DrawClaim::FiftyMoves => "fifty_moves",
            DrawClaim::ThreefoldRepetition => "threefold_repetition",
            DrawClaim::MoveClaim => "move_claim",
            DrawClaim::Counting => "counting",
        }
    }
}

/// A FEN of a game that counts (makruk's) with its count's limit, which
/// stands where the en passant square does, as Fairy-Stockfish writes it
/// (`w - 128 6 1`), taken out: the FEN with `-` there, and the limit. The
/// clock then holds the plies counted. Other FENs are kept as they are.
pub fn fen_count(rules: &Rules, text: &str) -> (String, Option<u32>) {
    let mut fields: Vec<&str> = text.split_whitespace().collect();
    match fields.get(3) {
        Some(f) if rules.ends.counting.is_some() && !f.is_empty() && f.bytes().all(|b| b.is_ascii_digit()) => {
            let limit = f.parse::<u32>().ok().filter(|n| *n > 0);
            fields[3] = "-";
            (fields.join(" "), limit)
        }
        _ => (text.to_string(), None),
    }
}

/// Whether a board read from a FEN is one of `rules`' boards: FEN draws
/// square boards, of the size the game is played on.
pub fn fen_fits(rules: &Rules, board: &Grid) -> Result<(), PositionError> {
    if rules.tiling != crate::geometry::Tiling::Square {
        return Err(PositionError::NotSquare {
            game: rules.name.to_string(),
            tiling: rules.tiling,
        });
    }
    let start = rules.start().board;
    let (w, h) = (board.width(), board.height());
    if (w, h) != (start.width(), start.height()) {
        return Err(PositionError::Size {
            game: rules.name.to_string(),
            found: (w, h),
            want: (start.width(), start.height()),
        });
    }
    Ok(())
}

impl<'a> Match<'a> {
    /// A game from `pos` with the given counters.
    pub fn new(rules: &'a Rules, pos: Position, halfmove: u32, fullmove: u32) -> Result<Match<'a>, TooBig> {
        Match::started(rules, pos, halfmove, fullmove, false)
    }

    /// [`new`](Match::new), finding moves only when asked for when `lazy`.
    fn started(rules: &'a Rules, pos: Position, halfmove: u32, fullmove: u32, lazy: bool) -> Result<Match<'a>, TooBig> {
        let mut m = Match {
            rules,
            cursor: rules.engine.as_ref().map(|e| e.cursor(&pos.board)),
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

    /// A chess game from a FEN, checked to be a position: as many kings a
    /// side as the start has (one; horde's white none), no pawn on the
    /// rank it promotes on nor, unless the start has one there, on its
    /// first rank, the side not to move not in check.
    pub fn from_fen(rules: &'a Rules, text: &str) -> Result<Match<'a>, PositionError> {
        Match::from_fen_lazy(rules, text, false)
    }

    /// [`from_fen`](Match::from_fen), finding moves only when asked for
    /// when `lazy`.
    fn from_fen_lazy(rules: &'a Rules, text: &str, lazy: bool) -> Result<Match<'a>, PositionError> {
        let (text, limit) = &fen_count(rules, text);
        let limit = *limit;
        let (board, black) = fen::read(text, &rules.pieces).map_err(PositionError::Unreadable)?;
        fen_fits(rules, &board)?;
        let (mut halfmove, fullmove) = fen::counters(text).map_err(PositionError::Unreadable)?;
        let counted = limit.map(|limit| Count {
            limit,
            ply: std::mem::take(&mut halfmove),
        });
        let pos = Position {
            board,
            turn: usize::from(black) % rules.turns.len(),
        };
        let start = rules.start().board;
        let top = pos.board.height() - 1;
        let count = |b: &Grid, f: &dyn Fn(Square, char) -> bool| {
            squares(b)
                .filter(|q| b.letter(*q, &rules.pieces).is_some_and(|l| f(*q, l)))
                .count()
        };
        for (king, side) in [('K', "white"), ('k', "black")] {
            let (n, want) = (count(&pos.board, &|_, l| l == king), count(&start, &|_, l| l == king));
            if n != want {
                return Err(PositionError::Kings { side, want, found: n });
            }
        }
        // White's pawns start on rank 2 and promote on the last; black's
        // the other way round.
        let first = |l: char, y: i32| (l == 'P' && y == 0) || (l == 'p' && y == top);
        let last = |l: char, y: i32| (l == 'P' && y == top) || (l == 'p' && y == 0);
        let behind = |b: &Grid, l: char| count(b, &|q, m| m == l && first(m, q.y)) > 0;
        if let Some(q) = squares(&pos.board).find(|q| {
            pos.board
                .letter(*q, &rules.pieces)
                .is_some_and(|l| last(l, q.y) || (first(l, q.y) && !behind(&start, l)))
        }) {
            return Err(PositionError::PawnRank(q));
        }
        let other = (pos.turn + 1) % rules.turns.len();
        if rules.in_check(&pos.board, other)? {
            return Err(PositionError::InCheck);
        }
        let mut m = Match::started(rules, pos, halfmove, fullmove, lazy)?;
        m.count = counted;
        Ok(m)
    }

    /// The turn after `turn`.
    fn next(&self, turn: usize) -> usize {
        (turn + 1) % self.rules.turns.len()
    }

    /// Makes `c` on the board and the cursor, to be unmade by `pop` with
    /// what it returns.
    fn push(&mut self, c: &Change) -> Change {
        let undo = c.iter().map(|&(q, _)| (q, self.pos.board.code(q))).collect();
        self.pos.board.apply(c);
        if let Some(cur) = &mut self.cursor {
            cur.push(c);
        }
        undo
    }

    fn pop(&mut self, undo: Change) {
        self.pos.board.apply(&undo);
        if let Some(cur) = &mut self.cursor {
            cur.pop();
        }
    }

    /// The moves of turn `turn` on the board as it stands, passes aside.
    fn moves_of(&mut self, turn: usize, out: &mut Vec<Change>) -> Result<(), TooBig> {
        out.clear();
        match &mut self.cursor {
            Some(c) => c.moves(turn, out),
            None => {
                let pos = Position {
                    board: self.pos.board.clone(),
                    turn,
                };
                out.extend(
                    self.rules
                        .successors(&pos)?
                        .iter()
                        .map(|p| pos.board.change_to(&p.board)),
                );
                Ok(())
            }
        }
    }

    /// The moves of turn `turn` on the board as it stands, as
    /// `Rules::successors` gives them: a side with no move whose rules say
    /// it passes has one, that writes nothing, unless the other side
    /// cannot move either.
    fn successors(&mut self, turn: usize) -> Result<Vec<Change>, TooBig> {
        let mut out = vec![];
        self.successors_into(turn, &mut out)?;
        Ok(out)
    }

    /// [`successors`](Match::successors) into `out`, emptied first.
    fn successors_into(&mut self, turn: usize, out: &mut Vec<Change>) -> Result<(), TooBig> {
        self.moves_of(turn, out)?;
        if out.is_empty() && self.rules.ends.passes() && self.cursor.is_some() {
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
    fn test(&mut self, t: Test, turn: usize) -> Result<bool, TooBig> {
        match (&mut self.cursor, self.rules.ends.index(t, turn)) {
            (_, None) => Ok(false),
            (Some(c), Some(i)) => c.holds(i),
            (None, Some(_)) => self.rules.ends.holds(t, turn, &self.pos.board, &self.rules.budget),
        }
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

    /// Plays legal move `i` so that [`leave`](Match::leave) takes it back,
    /// for a search: the position reached is not counted for repetition
    /// (a search keeps its own), so `end` tells every end but a fifth
    /// repetition.
    pub fn enter_for_search(&mut self, i: usize) -> Result<Ply, TooBig> {
        let c = self.moves[i].clone();
        self.enter_change_for_search(c)
    }

    /// A null move for a search (the side to move passes; an en passant
    /// capture it allowed is gone), taken back by [`leave`](Match::leave).
    pub fn pass_for_search(&mut self) -> Result<Ply, TooBig> {
        let c = repetition::unmarked(&self.rules.codes, &self.pos.board);
        self.enter_change_for_search(c)
    }

    fn enter_change_for_search(&mut self, c: Change) -> Result<Ply, TooBig> {
        let halfmove = self.halfmove;
        self.halfmove = if self.resets(&c) { 0 } else { self.halfmove + 1 };
        let before = self.material();
        let undo = self.push(&c);
        let ply = Ply {
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
    pub fn leave(&mut self, ply: Ply) {
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
        if let Some(cur) = &mut self.cursor {
            cur.play(c);
        }
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
    fn all_moves(&mut self) -> Result<(), TooBig> {
        let mut moves = std::mem::take(&mut self.moves);
        let found = self.successors_into(self.pos.turn, &mut moves);
        self.moves = moves;
        self.legal = OnceCell::new();
        self.full = found.is_ok();
        found
    }

    /// Whether the side to move has a legal move: on the engine, and
    /// where no side passes, found without finding them all.
    fn has_move(&mut self) -> Result<bool, TooBig> {
        if self.full || self.moving {
            return Ok(self.moving || !self.moves.is_empty());
        }
        let turn = self.pos.turn;
        match &mut self.cursor {
            Some(c) if !self.rules.ends.passes() => {
                self.moving = c.any_move(turn)?;
                if !self.moving {
                    // No move at all: the list is complete.
                    self.moves.clear();
                    self.legal = OnceCell::new();
                    self.full = true;
                }
            }
            _ => self.all_moves()?,
        }
        Ok(self.moving || !self.moves.is_empty())
    }

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
    fn find_vacating(&mut self, text: &str) -> Result<Option<(usize, String)>, TooBig> {
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
        let Some(cur) = &mut self.cursor else {
            return Ok(None);
        };
        let mut moves = std::mem::take(&mut self.moves);
        moves.clear();
        let found = cur.moves_vacating(turn, &v, to, &mut moves);
        self.moves = moves;
        self.legal = OnceCell::new();
        found?;
        let named = san::read_named(&w, &self.pos.board, &self.moves, &self.rules.codes);
        self.moving = named.is_some();
        Ok(named)
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
    fn resets(&self, c: &Change) -> bool {
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

    /// The position in FEN, counters included, the en passant square only
    /// when en passant is legal; `None` when the board is not chess's.
    pub fn fen(&self) -> Option<String> {
        if self.rules.turns.len() != 2 {
            return None;
        }
        let text = fen::write_counted(
            &self.pos.board,
            self.pos.turn == 1,
            self.halfmove,
            self.fullmove,
            &self.rules.pieces,
        )
        .ok()?;
        let ep = repetition::en_passant_legal(self.rules, &self.pos.board, self.pos.turn).ok()?;
        let mut f: Vec<String> = text.split(' ').map(str::to_string).collect();
        if !ep {
            f[3] = "-".into();
        }
        // A count writes its limit in place of the en passant square and
        // its plies in place of the clock, as Fairy-Stockfish does.
        if let Some(c) = self.count {
            f[3] = c.limit.to_string();
            f[4] = c.ply.to_string();
        }
        Some(f.join(" "))
    }

    /// The end the game has reached, if any: checked in python-chess's
    /// order (checkmate, insufficient material, no move, 75 moves,
    /// fivefold repetition), after a side's `won` test (asked of the side
    /// that moved last first, then of the one before it, and so on).
    pub fn end(&mut self) -> Result<Option<GameOutcome>, TooBig> {
        let n = self.rules.turns.len();
        Ok(self.reached_end()?.map(|o| o.among(n)))
    }

    fn reached_end(&mut self) -> Result<Option<GameOutcome>, TooBig> {
        let rules = self.rules;
        let ends = &rules.ends;
        let turn = self.pos.turn;
        let n = rules.turns.len();
        let previous = (turn + n - 1) % n;
        let win = |ending, w| Some(GameOutcome::win(ending, w));
        let draw = |ending| Some(GameOutcome::draw(ending));
        if ends.won.is_some() {
            for back in 1..=n {
                let side = (turn + n - back) % n;
                if self.test(Test::Won, side)? {
                    return Ok(win(Ending::Won, side));
                }
            }
        }
        if self.test(Test::Lost, turn)? {
            return Ok(win(Ending::Lost, previous));
        }
        for o in &ends.over {
            if self.test(Test::Condition(o.test), turn)? {
                let ending = if o.bare_king { Ending::BareKing } else { Ending::Over };
                return Ok(match o.verdict {
                    Verdict::Win => win(ending, turn),
                    Verdict::Loss => win(ending, previous),
                    Verdict::Draw => draw(ending),
                });
            }
        }
        let stuck = !self.has_move()?;
        let check = stuck && self.in_check()?;
        // The first `stuck` end that applies.
        let mut applies = None;
        if stuck {
            for s in &ends.stuck {
                let fits = match s {
                    Stuck::Checkmate => check,
                    Stuck::CheckSeries(i) => check && self.series.iter().any(|(j, f)| j == i && f[turn]),
                    Stuck::When(_, i) => self.test(Test::Condition(*i), turn)?,
                    Stuck::Stalemate(_) => !check,
                    Stuck::Pass => false,
                    Stuck::MostPieces | Stuck::Loss | Stuck::Draw => true,
                };
                if fits {
                    applies = Some(*s);
                    break;
                }
            }
        }
        let mated = if check { Ending::Checkmate } else { Ending::NoMoves };
        let outcome = |m: &Match, s: Stuck| match s {
            Stuck::Checkmate | Stuck::CheckSeries(_) => GameOutcome::win(Ending::Checkmate, previous),
            Stuck::When(Verdict::Win, _) => GameOutcome::win(mated, turn),
            Stuck::When(Verdict::Loss, _) => GameOutcome::win(mated, previous),
            Stuck::When(Verdict::Draw, _) => GameOutcome::draw(mated),
            Stuck::Stalemate(by) => GameOutcome::split(Ending::Stalemate, by, previous, turn),
            Stuck::MostPieces => m.most_pieces().expect("a count of pieces"),
            Stuck::Loss => GameOutcome::win(Ending::NoMoves, previous),
            Stuck::Draw => GameOutcome::draw(Ending::NoMoves),
            Stuck::Pass => GameOutcome::unscored(Ending::NoMoves),
        };
        // A mate is told before the material.
        if let Some(s) =
            applies.filter(|s| check && matches!(s, Stuck::Checkmate | Stuck::CheckSeries(_) | Stuck::When(..)))
        {
            return Ok(Some(outcome(self, s)));
        }
        if ends
            .insufficient_material
            .as_ref()
            .is_some_and(|m| insufficient_material(m, &self.pos.board))
        {
            return Ok(draw(Ending::InsufficientMaterial));
        }
        if stuck {
            return Ok(Some(
                applies.map_or(GameOutcome::unscored(Ending::NoMoves), |s| outcome(self, s)),
            ));
        }
        if let Some((rule, end)) = ends
            .move_rule
            .as_ref()
            .and_then(|r| Some((r, r.end?)))
            .filter(|(_, end)| self.halfmove >= 2 * end)
        {
            debug_assert!(end > 0);
            // Chess's fifty-move rule ends the game at seventy-five.
            let ending = if rule.claim.is_some() {
                Ending::SeventyFiveMoves
            } else {
                Ending::MoveRule
            };
            return Ok(draw(ending));
        }
        if ends.repetition && self.reached >= 5 {
            return Ok(draw(Ending::FivefoldRepetition));
        }
        Ok(None)
    }

    /// More pieces of one's own side wins: turn 0 owns the pieces declared
    /// first in each colour pair, turn 1 their twins.
    fn most_pieces(&self) -> Option<GameOutcome> {
        let b = &self.pos.board;
        let mut count = [0usize; 2];
        for q in squares(b) {
            if let Some(Content::Piece(p)) = b.get(q) {
                let twin = self.rules.pieces.twin(p);
                if twin != p {
                    // Registered before its twin.
                    let first = p < twin;
                    count[usize::from(!first)] += 1;
                }
            }
        }
        let winner = match count[0].cmp(&count[1]) {
            std::cmp::Ordering::Greater => Some(0),
            std::cmp::Ordering::Less => Some(1),
            std::cmp::Ordering::Equal => None,
        };
        Some(match winner {
            Some(w) => GameOutcome::win(Ending::MostPieces, w),
            None => GameOutcome::draw(Ending::MostPieces),
        })
    }

    /// The draws the side to move could claim now, as python-chess reads
    /// FIDE: the count of fifty moves reached, or reached by a move it
    /// could make; the position on the board for the third time, or a move
    /// that makes it so; makruk's count run out.
    pub fn claimable(&mut self) -> Result<Vec<DrawClaim>, TooBig> {
        let mut out = vec![];
        let rule = self.rules.ends.move_rule.as_ref();
        let claim = rule.and_then(|r| r.claim);
        let kind = match rule.and_then(|r| r.end) {
            Some(_) => DrawClaim::FiftyMoves,
            None => DrawClaim::MoveClaim,
        };
        // The moves are looked at only near fifty moves, or when a move
        // could make a position reached twice a third time.
        let fifty_near = claim.filter(|&count| self.halfmove + 1 >= 2 * count);
        let three_near = self.rules.ends.repetition && self.reached < 3 && self.twice;
        if !self.full && (fifty_near.is_some() || three_near) {
            self.all_moves()?;
        }
        let moves = if self.full { self.moves.clone() } else { vec![] };
        let next = self.next(self.pos.turn);
        if let Some(count) = fifty_near.filter(|_| !moves.is_empty()) {
            let mut fifty = self.halfmove >= 2 * count;
            if !fifty {
                for c in &moves {
                    if self.resets(c) {
                        continue;
                    }
                    let undo = self.push(c);
                    let after = self.successors(next);
                    self.pop(undo);
                    if !after?.is_empty() {
                        fifty = true;
                        break;
                    }
                }
            }
            if fifty {
                out.push(kind);
            }
        }
        if self.rules.ends.repetition {
            let mut three = self.reached >= 3;
            if three_near {
                for c in &moves {
                    let mut board = self.pos.board.clone();
                    board.apply(c);
                    let r = Reached::of(self.rules, &board, next);
                    if self.seen.count(self.rules, &r, &board)? >= 2 {
                        three = true;
                        break;
                    }
                }
            }
            if three {
                out.push(DrawClaim::ThreefoldRepetition);
            }
        }
        if self.count.is_some_and(|c| c.ply > c.limit) {
            out.push(DrawClaim::Counting);
        }
        Ok(out)
    }

    /// The draw the side to move may claim in the position as it stands,
    /// with no move of its own, as Fairy-Stockfish offers it (its
    /// "optional game end"), asked in its order: the move rule's count
    /// reached, the position's third occurrence, makruk's count run out;
    /// never when the side to move is mated.
    pub fn optional_end(&mut self) -> Result<Option<DrawClaim>, TooBig> {
        let ends = &self.rules.ends;
        let moves_out = ends
            .move_rule
            .as_ref()
            .and_then(|r| Some((r.claim?, r.end.is_some())))
            .filter(|(n, _)| self.halfmove >= 2 * n);
        let counted = self.count.is_some_and(|c| c.ply > c.limit);
        if (moves_out.is_some() || counted) && self.in_check()? && !self.has_move()? {
            return Ok(None);
        }
        if let Some((_, fifty)) = moves_out {
            return Ok(Some(if fifty {
                DrawClaim::FiftyMoves
            } else {
                DrawClaim::MoveClaim
            }));
        }
        if ends.repetition && self.reached >= 3 {
            return Ok(Some(DrawClaim::ThreefoldRepetition));
        }
        Ok(counted.then_some(DrawClaim::Counting))
    }

    /// Makruk's count, when one runs.
    pub fn counting(&self) -> Option<Count> {
        self.count
    }

    /// What each side has on the board, for the counting rules; `None`
    /// when the game does not count.
    fn material(&self) -> Option<Material> {
        let c = self.rules.ends.counting.as_ref()?;
        if self.rules.turns.len() != 2 {
            return None;
        }
        let pieces = &self.rules.pieces;
        let mut m = Material {
            kinds: vec![[0; 2]; c.limits.len()],
            ..Material::default()
        };
        for q in squares(&self.pos.board) {
            let Some(Content::Piece(p)) = self.pos.board.get(q) else {
                continue;
            };
            let twin = pieces.twin(p);
            if twin == p {
                continue;
            }
            // Turn 0 owns the piece registered first of each pair.
            let side = usize::from(p > twin);
            m.pieces[side] += 1;
            if c.pawns.contains(&p) {
                m.pawns[side] += 1;
            }
            for (k, l) in c.limits.iter().enumerate() {
                if p == l.piece || p == pieces.twin(l.piece) {
                    m.kinds[k][side] += 1;
                }
            }
        }
        Some(m)
    }

    /// Makruk's count after a ply, from what the sides had before it, as
    /// Fairy-Stockfish keeps it: a running count goes on by a ply; a bare
    /// king that takes the last pawn starts counting at once; and the
    /// side to move starts when no count runs, or again when the ply took
    /// or promoted and left it bare.
    fn recount(&mut self, before: Option<Material>) {
        let (Some(before), Some(c)) = (before, self.rules.ends.counting.as_ref()) else {
            return;
        };
        let after = self.material().expect("a game that counts");
        let stm = self.pos.turn;
        let mover = 1 - stm;
        if let Some(k) = &mut self.count {
            k.ply += 1;
        }
        let total = after.pieces[0] + after.pieces[1];
        let captured = total < before.pieces[0] + before.pieces[1];
        let promoted = after.pawns[mover] < before.pawns[mover];
        let pawns = after.pawns[0] + after.pawns[1];
        let mover_limit = limit(c, &after, mover);
        if c.from_pieces
            && after.pawns[stm] < before.pawns[stm]
            && after.pieces[mover] == 1
            && pawns == 0
            && mover_limit > 0
        {
            self.count = Some(Count {
                limit: 2 * mover_limit,
                ply: 2 * total - 1,
            });
        }
        let stm_limit = limit(c, &after, stm);
        if (self.count.is_none() || ((captured || promoted) && after.pieces[stm] == 1)) && stm_limit > 0 {
            self.count = Some(Count {
                limit: 2 * stm_limit,
                ply: if !c.from_pieces || after.pieces[stm] > 1 {
                    0
                } else {
                    2 * total
                },
            });
        }
    }

    /// Follows the series of checks that `checkmate(T)` ends ask about:
    /// the side to move, in check, keeps what its series held, and adds
    /// whether T holds now; out of check, its series ends.
    fn follow_series(&mut self) -> Result<(), TooBig> {
        if self.series.is_empty() {
            return Ok(());
        }
        let turn = self.pos.turn;
        let check = self.in_check()?;
        for k in 0..self.series.len() {
            let i = self.series[k].0;
            let held = check && (self.series[k].1[turn] || self.test(Test::Condition(i), turn)?);
            self.series[k].1[turn] = held;
        }
        Ok(())
    }

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
    fn san_base(&self, i: usize) -> String {
        if let Some(ply) = self.pdn_name(i) {
            return ply;
        }
        match self.rules.tiling {
            Tiling::Square => san::write(&self.pos.board, &self.moves, self.rules, i),
            Tiling::Hex => {
                notation::describe_on(&self.pos.board, &self.legal()[i].board, Tiling::Hex, &self.rules.pieces)
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
    fn mark(&mut self, san: &mut String) -> Result<(), TooBig> {
        san.push(if self.has_move()? { '+' } else { '#' });
        Ok(())
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
    fn why_not(&self, text: &str) -> Option<String> {
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

    /// Legal move `i` in PDN, on a draughts board (see [`pdn::numbered`]).
    fn pdn_name(&self, i: usize) -> Option<String> {
        if self.rules.tiling != Tiling::Square || !pdn::numbered(&self.rules.start().board) {
            return None;
        }
        pdn::name(&self.pos.board, &self.legal()[i].board, self.legal())
    }

    /// On hex: the legal move named by its cells, as `play` names it.
    fn find_cells(&self, text: &str) -> Result<usize, MoveError> {
        let t = text.trim().trim_end_matches(['+', '#', '!', '?']);
        let named =
            |i: usize| notation::describe_on(&self.pos.board, &self.legal()[i].board, Tiling::Hex, &self.rules.pieces);
        let found: Vec<usize> = (0..self.moves.len()).filter(|&i| named(i) == t).collect();
        match found[..] {
            [i] => Ok(i),
            [] => Err(MoveError::NotLegalOnHex(text.trim().to_string())),
            _ => Err(MoveError::AmbiguousCells(text.trim().to_string())),
        }
    }
}

/// The moves side `side` counts on material `m` (0: none): none while a
/// pawn is on the board or the other side's king stands alone; board's
/// honour while its own king does not; else pieces' honour, by the first
/// limit the other side's pieces fit.
fn limit(c: &Counting, m: &Material, side: usize) -> u32 {
    let other = 1 - side;
    if m.pawns[0] + m.pawns[1] > 0 || m.pieces[other] <= 1 {
        return 0;
    }
    if m.pieces[side] > 1 {
        return c.board.unwrap_or(0);
    }
    c.limits
        .iter()
        .zip(&m.kinds)
        .find(|(l, n)| n[other] >= l.at_least)
        .map_or(c.otherwise.unwrap_or(0), |(l, _)| l.moves)
}

/// Every square of a board's box.
fn squares(g: &Grid) -> impl Iterator<Item = Square> + '_ {
    let o = g.origin();
    (0..g.height()).flat_map(move |y| (0..g.width()).map(move |x| Square::new(o.x + x, o.y + y)))
}

/// The first ply of a game that the rules do not allow.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Illegal {
    /// The ply's number, from 1.
    pub ply: usize,
    /// The ply with its move number: `3. Bxf7`, `3... a5`.
    pub text: String,
    /// Why the rules refuse it.
    pub why: String,
    /// Where the ply is in the PGN text.
    pub at: super::pgn::At,
}

/// What a referee says of a game.
#[derive(Clone, Debug)]
pub struct GameReport {
    /// The Event tag.
    pub event: Option<String>,
    /// The legal plies played.
    pub plies: usize,
    /// Each legal ply in SAN, with its check mark.
    pub san: Vec<String>,
    /// The first illegal ply, if any; checking stops there.
    pub illegal: Option<Illegal>,
    /// The end reached by the rules, automatic ones only.
    pub end: Option<GameOutcome>,
    /// The draws a player may claim in the final position.
    pub claimable: Vec<DrawClaim>,
    /// The Result tag, or the result that ends the move text.
    pub result_tag: Option<String>,
    /// The final position in FEN, on a chess board.
    pub final_fen: Option<String>,
    /// The board of the final position.
    pub final_board: Grid,
    /// What the referee read leniently: null moves, plies after the end.
    pub warnings: Vec<String>,
    /// How many sides the game has: a result gives each its share.
    pub sides: usize,
}

impl GameReport {
    /// The result: the end's when the rules reached one, else the game's
    /// own (a resignation, an agreed draw), else `*`.
    pub fn result(&self) -> String {
        match self.end {
            Some(o) => o.result(),
            None => self.result_tag.clone().unwrap_or_else(|| "*".into()),
        }
    }

    /// Whether the end reached agrees with the Result tag; `true` when
    /// either says nothing, unless the tag gives shares to another number
    /// of sides than the game has (`1/3-1/3-1/3` in a game of two).
    pub fn result_matches(&self) -> bool {
        match (&self.end, self.result_tag.as_deref()) {
            (Some(o), Some(tag)) if tag != "*" => pdn::same_result(&o.result(), tag),
            (None, Some(tag)) => pdn::shares(tag).is_none_or(|s| s.len() == self.sides),
            _ => true,
        }
    }
}

/// Why a game could not be refereed at all. An illegal ply is no error:
/// the report says where the game left the rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RefereeError {
    /// The FEN tag is not a position of these rules.
    Fen {
        /// The tag's value.
        fen: String,
        /// What is wrong with it.
        why: PositionError,
    },
    /// A move made more states than the evaluation budget allows.
    TooBig(TooBig),
}

impl std::fmt::Display for RefereeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RefereeError::Fen { fen, why } => write!(f, "the FEN tag `{fen}`: {why}"),
            RefereeError::TooBig(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for RefereeError {}

impl From<TooBig> for RefereeError {
    fn from(e: TooBig) -> RefereeError {
        RefereeError::TooBig(e)
    }
}

/// Checks every ply of a PGN game against the rules, from the FEN tag's
/// position when there is one. Errs on a FEN tag that is not a position.
pub fn referee(rules: &Rules, game: &super::pgn::Record) -> Result<GameReport, RefereeError> {
    replay(rules, game).map(|(r, _)| r)
}

/// [`referee`], with the game as it stands after its last legal ply.
pub fn replay<'a>(rules: &'a Rules, game: &super::pgn::Record) -> Result<(GameReport, Match<'a>), RefereeError> {
    let mut m = match game.tag("FEN") {
        Some(f) => Match::from_fen_lazy(rules, f, true).map_err(|why| RefereeError::Fen {
            fen: f.to_string(),
            why,
        })?,
        None => Match::started(rules, rules.start(), 0, 1, true)?,
    };
    let mut report = GameReport {
        event: game.tag("Event").map(str::to_string),
        plies: 0,
        san: vec![],
        illegal: None,
        end: None,
        claimable: vec![],
        result_tag: game.tag("Result").map(str::to_string).or_else(|| game.result.clone()),
        final_fen: None,
        final_board: m.pos.board.clone(),
        warnings: vec![],
        sides: rules.turns.len(),
    };
    if let Some(tag) = report.result_tag.as_deref() {
        if let Some(n) = pdn::shares(tag).filter(|s| s.len() != report.sides).map(|s| s.len()) {
            report.warnings.push(format!(
                "the result {} gives {n} sides their shares, and the game has {}",
                clip(tag),
                report.sides
            ));
        }
    }
    if let (Some(tag), Some(marker)) = (game.tag("Result"), game.result.as_deref()) {
        if tag != marker {
            report.warnings.push(format!(
                "the Result tag says {tag}, the move text ends with {marker}; the tag is taken"
            ));
        }
    }
    let mut ended = None;
    let mut nulls = vec![];
    // The last ply gave check, its mark not yet written.
    let mut checked = false;
    for (i, ply) in game.plies.iter().enumerate() {
        let number = |m: &Match| {
            if m.pos.turn == 0 {
                format!("{}. {}", m.fullmove, clip(&ply.text))
            } else {
                format!("{}... {}", m.fullmove, clip(&ply.text))
            }
        };
        let null = is_null(&ply.text);
        let fast = if null { None } else { m.find_vacating(&ply.text)? };
        // The last ply gave check: a move found for this one shows it is
        // no mate, with no search of its own.
        if std::mem::take(&mut checked) {
            let last = report.san.last_mut().expect("a ply gave check");
            m.mark(last)?;
        }
        let end = m.end()?;
        let moving = match end {
            Some(_) => m.has_move()?,
            None => true,
        };
        if let (Some(o), true, None) = (end, moving, ended) {
            // A dead position, seventy-five moves, a fifth repetition: the
            // game is over, but moves are left, and python-chess plays
            // them. The end is the first one reached; the rest is read.
            ended = end;
            report.warnings.push(format!(
                "the game ended before ply {} ({}): {}; the plies after it are replayed",
                i + 1,
                number(&m),
                o.ending.name().replace('_', " ")
            ));
        }
        if null {
            nulls.push(i + 1);
            m.pass()?;
            report.san.push("--".into());
            report.plies += 1;
            continue;
        }
        let found = match (end, fast) {
            (Some(o), _) if !moving => Err(format!("the game is over: {}", o.ending.name().replace('_', " "))),
            (_, Some((j, name))) => Ok((j, Some(name))),
            _ => {
                if !m.full {
                    m.all_moves()?;
                }
                m.find_or_why(&ply.text).map(|j| (j, None)).map_err(|e| e.to_string())
            }
        };
        match found {
            Ok((j, name)) => {
                let name = name.unwrap_or_else(|| m.san_base(j));
                m.play(j)?;
                checked = m.in_check()?;
                report.san.push(name);
                report.plies += 1;
            }
            Err(why) => {
                report.illegal = Some(Illegal {
                    ply: i + 1,
                    text: number(&m),
                    why,
                    at: ply.at,
                });
                break;
            }
        }
    }
    if checked {
        let last = report.san.last_mut().expect("a ply gave check");
        m.mark(last)?;
    }
    if !nulls.is_empty() {
        let list: Vec<String> = nulls.iter().map(|n| n.to_string()).collect();
        report.warnings.push(format!(
            "null moves (the side to move passes) at plies {}",
            list.join(", ")
        ));
    }
    report.end = match ended {
        Some(o) => Some(o),
        None => m.end()?,
    };
    // A draw is claimed in a game still going; an ended one has its result.
    if report.end.is_none() {
        report.claimable = m.claimable()?;
    }
    report.final_fen = m.fen();
    report.final_board = m.pos.board.clone();
    // The game goes on as any other from here.
    m.lazy = false;
    if !m.full {
        m.all_moves()?;
    }
    Ok((report, m))
}

/// A null move as PGN files write it: `--` (python-chess, ChessBase's
/// `Z0`, UCI's `0000`).
fn is_null(text: &str) -> bool {
    matches!(
        text.trim_end_matches(['+', '#', '!', '?']),
        "--" | "Z0" | "0000" | "@@@@"
    )
}

/// A game in PGN: the seven tags (and a `Variant` tag for a game other
/// than chess, the FEN tag when it starts from `start_fen`), the plies in
/// SAN with move numbers, and the result.
pub fn write_pgn(
    variant: Option<&str>,
    start_fen: Option<&str>,
    first_fullmove: u32,
    black_first: bool,
    san: &[String],
    result: &str,
) -> String {
    let mut out = String::new();
    for (tag, value) in [
        ("Event", "algchess play"),
        ("Site", "?"),
        ("Date", "????.??.??"),
        ("Round", "?"),
        ("White", "?"),
        ("Black", "?"),
        ("Result", result),
    ] {
        out.push_str(&format!("[{tag} \"{value}\"]\n"));
    }
    if let Some(v) = variant {
        out.push_str(&format!("[Variant \"{v}\"]\n"));
    }
    if let Some(f) = start_fen {
        out.push_str(&format!("[SetUp \"1\"]\n[FEN \"{f}\"]\n"));
    }
    out.push('\n');
    let mut words = vec![];
    let mut number = first_fullmove;
    let mut black = black_first;
    for (i, s) in san.iter().enumerate() {
        if !black {
            words.push(format!("{number}."));
        } else if i == 0 {
            words.push(format!("{number}..."));
        }
        words.push(s.clone());
        if black {
            number += 1;
        }
        black = !black;
    }
    words.push(result.to_string());
    // Lines of at most 80 characters, as PGN asks.
    let mut line = String::new();
    for w in words {
        if !line.is_empty() && line.len() + 1 + w.len() > 79 {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&w);
    }
    out.push_str(&line);
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

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

    #[test]
    fn pgn_is_written_with_move_numbers_and_the_fen_tag() {
        let san: Vec<String> = ["e5", "Nf3", "Nc6"].iter().map(|s| s.to_string()).collect();
        let text = write_pgn(None, Some("fen here"), 7, true, &san, "*");
        assert!(
            text.contains("[Result \"*\"]\n[SetUp \"1\"]\n[FEN \"fen here\"]\n\n"),
            "{text}"
        );
        assert!(text.ends_with("7... e5 8. Nf3 Nc6 *\n"), "{text}");
        let long: Vec<String> = (0..60).map(|_| "Nf3".to_string()).collect();
        let text = write_pgn(None, None, 1, false, &long, "1/2-1/2");
        assert!(text.lines().all(|l| l.len() < 80), "{text}");
        let games = super::super::pgn::read(&text).unwrap();
        assert_eq!(games[0].plies.len(), 60);
        assert_eq!(games[0].result.as_deref(), Some("1/2-1/2"));
    }
}
