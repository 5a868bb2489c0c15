//! How a game ends, as its rule file declares it with
//! `game NAME KIND: A, B, ...` after `game NAME(BOARD) = ...`:
//!
//! - `check: T_1, ..., T_n`: the side to move is in check when its test
//!   (one per turn, or one for all) has a result on the position;
//! - `lost: T_1, ..., T_n`: the side to move has lost when its test holds
//!   (tic-tac-toe: the other side has made a line);
//! - `won: T_1, ..., T_n`: turn i's side has won when its test holds, one
//!   test for every turn (a game of any number of sides: Chinese
//!   checkers' three or six); after each ply the sides are asked from the
//!   one that just moved backwards, and the first whose test holds wins;
//! - `over: E, ...`: ends that hold at once, before the side to move
//!   looks for a move (it has none: perft counts 0 there), the first that
//!   holds: `win(T_1, ..., T_n)`, `loss(...)`, `draw(...)` (the side to
//!   move wins, loses, or the game is drawn, when its test holds; one test
//!   per turn, or one for all), `bare_king(loss)` (a side whose king
//!   stands alone loses when the other side has more; `bare_king(loss,
//!   reply)`: a side bared by the last ply loses only once it has had a
//!   move to bare the other side too, unless the other side has two pieces
//!   or more besides its king), `bare_king(draw)` (a bare king draws), or
//!   `none`;
//! - `stuck: E, ...`: what a side with no legal move means, the first that
//!   applies: `checkmate` (in check: a loss), `checkmate(T, ...)` (in
//!   check, and its test held at this position or at an earlier one of the
//!   checks in a row that end here: a loss), `stalemate` (not in check: a
//!   draw), `stalemate(A, B)` (not in check: the point is split `A` to `B`
//!   between the side that gave stalemate and the side stuck, so
//!   Gliński's `stalemate(3, 1)` scores 3/4-1/4, `stalemate(1, 1)` is a
//!   draw and `stalemate(1, 0)` a win), `pass` (the turn passes, unless the
//!   next side is stuck too), `most_pieces` (the side with more pieces
//!   wins), `loss`, `draw`, `win(T, ...)`, `loss(T, ...)`, `draw(T, ...)`
//!   (when the side stuck's test holds);
//! - `draws: R, ...`: the draw rules: `fifty_moves(P, ...)` (50 moves
//!   without a capture or a move of a piece `P` may be claimed, 75 end the
//!   game), `move_rule(N, P, ...)` (N moves without a capture or a move of
//!   a `P` end the game), `move_claim(N, P, ...)` (N such moves may be
//!   claimed: shatranj's 70), `repetition` (a third occurrence
//!   of a position may be claimed, a fifth ends the game),
//!   `insufficient_material(KINGS, LONE, BOUND)` (no mate can follow:
//!   every piece on the board is one of `KINGS` but for one piece of
//!   `LONE`, or but for pieces of `BOUND` all on squares of one colour;
//!   chess's is `insufficient_material(♔ | ♚ | 'Kc | 'kc, ♘ | ♞, ♗ | ♝)`),
//!   and makruk's counting: `board_honour(N, PAWNS)` (with no piece of
//!   `PAWNS` left and neither king bare, the side to move counts N moves)
//!   and `pieces_honour(PAWNS, START, limit(N, K, P), ..., limit(N))` (a
//!   bare king counts N moves, by the first limit whose `K` pieces `P` the
//!   other side has; the count starts at the number of pieces on the board
//!   when `START` is `pieces`, at 0 when it is `0`); a count run out may be
//!   claimed as a draw.
//!   Each game declares its own, so a variant whose knight can mate alone
//!   names other pieces or none.
//!
//! Beside the ends, `values: value(P, N), ...` gives the search piece P
//! (and its twin) a value of N centipawns over the one it derives.

use super::expr::{Abort, Elab, Scope};
use crate::diag::{Diag, Source};
use crate::ir::{PieceId, Sort, Term};
use crate::parse::ast::{Expr, ExprKind, Ident};

/// What a side with no legal move means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stuck {
    Checkmate,
    /// Not in check: the point split between the side that gave stalemate
    /// and the side stuck.
    Stalemate(PointSplit),
    Pass,
    MostPieces,
    Loss,
    Draw,
    /// The verdict, for the side stuck, when its test (an index into
    /// [`Ends::conditions`]) holds.
    When(Verdict, usize),
    /// In check, and its test (an index into [`Ends::conditions`]) held at
    /// this position or an earlier one of the series of checks that ends
    /// here (the side in check at each of its turns back to it): a loss.
    CheckSeries(usize),
}

/// An end that holds at once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Over {
    /// What it means for the side to move.
    pub verdict: Verdict,
    /// Its test: an index into [`Ends::conditions`].
    pub test: usize,
    /// Declared by `bare_king(...)`, not by a test of the file's.
    pub bare_king: bool,
}

/// An end from the side to move's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    Win,
    Loss,
    Draw,
}

/// A point split `A` to `B` between two sides: each gets its part of
/// `A + B`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PointSplit(pub u32, pub u32);

impl PointSplit {
    /// An even split.
    pub const DRAW: PointSplit = PointSplit(1, 1);

    /// The parts as fractions of the point in lowest terms, `(numerator,
    /// denominator)` each: `3, 1` is `(3, 4)` and `(1, 4)`.
    pub fn fractions(self) -> [(u32, u32); 2] {
        fn gcd(a: u32, b: u32) -> u32 {
            if b == 0 {
                a
            } else {
                gcd(b, a % b)
            }
        }
        let total = self.0 + self.1;
        [self.0, self.1].map(|part| {
            let g = gcd(part, total).max(1);
            (part / g, total / g)
        })
    }
}

/// The largest part of a split: keeps the sum far from overflow.
const MAX_PART: i64 = 1000;

/// A game's end declarations, elaborated.
#[derive(Clone, Debug, Default)]
pub struct Ends {
    /// Per turn: the side to move is in check.
    pub check: Option<Vec<Term>>,
    /// Per turn: the side to move has lost.
    pub lost: Option<Vec<Term>>,
    /// Per turn: that turn's side has won.
    pub won: Option<Vec<Term>>,
    pub stuck: Vec<Stuck>,
    /// The ends that hold at once, in order: the verdict for the side to
    /// move when its test (an index into `conditions`) holds. The side to
    /// move has no move then.
    pub over: Vec<Over>,
    /// Tests, one per turn each, that `over` and `stuck` ask.
    pub conditions: Vec<Vec<Term>>,
    /// The count of moves without a capture or a move of certain pieces.
    pub move_rule: Option<MoveRule>,
    pub repetition: bool,
    /// The material with which no mate can follow.
    pub insufficient_material: Option<Material>,
    /// Makruk's counting rules: board's honour and pieces' honour.
    pub counting: Option<Counting>,
    /// Piece values in centipawns given by `game NAME values: value(P, N)`,
    /// each for a piece and its twin; the engine's evaluation takes them
    /// over the values it derives (not an end: declared beside them).
    pub values: Vec<(PieceId, i32)>,
}

/// The largest piece value a file may give, in centipawns.
pub(super) const MAX_VALUE: i64 = 100_000;

/// A draw by a count of moves (of both sides) without a capture or a move
/// of one of `resets`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveRule {
    pub resets: Vec<PieceId>,
    /// The count at which a draw may be claimed, if any (chess: 50).
    pub claim: Option<u32>,
    /// The count that ends the game, if any (chess: 75).
    pub end: Option<u32>,
}

/// Makruk's counting rules, as Fairy-Stockfish keeps them: while no pawn
/// is on the board, a side counts its moves to a limit, and a count run
/// out may be claimed as a draw.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Counting {
    /// The pawns: no count while one is on the board.
    pub pawns: Vec<PieceId>,
    /// Board's honour: with neither king bare, the side to move counts
    /// this many moves.
    pub board: Option<u32>,
    /// Pieces' honour: a bare king counts by the first limit that fits
    /// the other side's pieces.
    pub limits: Vec<Limit>,
    /// The bare king's limit when none fits.
    pub otherwise: Option<u32>,
    /// The bare king's count starts at the number of pieces on the board
    /// (makruk's), not at 0 (ASEAN's).
    pub from_pieces: bool,
}

/// A limit of pieces' honour: `moves` when the other side has at least
/// `at_least` pieces of `piece`'s kind (the piece or its twin).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limit {
    pub moves: u32,
    pub at_least: u32,
    pub piece: PieceId,
}

/// Material too small to mate: besides pieces of `kings`, one piece of
/// `lone`, or pieces of `bound` all on one square colour.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Material {
    pub kings: Vec<PieceId>,
    pub lone: Vec<PieceId>,
    pub bound: Vec<PieceId>,
}

impl Material {
    /// Whether the pieces on a square board, each with whether its square
    /// is dark, leave no mate possible.
    pub fn insufficient(&self, pieces: impl IntoIterator<Item = (PieceId, bool)>) -> bool {
        let (mut lone, mut dark, mut light) = (0, false, false);
        for (p, is_dark) in pieces {
            if self.kings.contains(&p) {
                continue;
            }
            if self.lone.contains(&p) {
                lone += 1;
            } else if self.bound.contains(&p) {
                dark |= is_dark;
                light |= !is_dark;
            } else {
                return false;
            }
        }
        match lone {
            0 => !(dark && light),
            1 => !(dark || light),
            _ => false,
        }
    }
}

/// The most moves a move rule may count.
const MAX_MOVES: i64 = 10_000;

const STUCK: [(&str, Stuck); 6] = [
    ("checkmate", Stuck::Checkmate),
    ("stalemate", Stuck::Stalemate(PointSplit::DRAW)),
    ("pass", Stuck::Pass),
    ("most_pieces", Stuck::MostPieces),
    ("loss", Stuck::Loss),
    ("draw", Stuck::Draw),
];

fn word(e: &Expr) -> Option<&str> {
    match &e.kind {
        ExprKind::Word(w) => Some(w),
        ExprKind::Paren(e) => word(e),
        _ => None,
    }
}

/// The split of `stalemate(A, B)`: two whole numbers, not both 0.
fn split(parts: &[Expr]) -> Option<PointSplit> {
    let nums: Vec<i64> = parts
        .iter()
        .filter_map(|p| match p.kind {
            ExprKind::Num(n) => Some(n),
            _ => None,
        })
        .collect();
    match nums[..] {
        [a, b]
            if nums.len() == parts.len() && (0..=MAX_PART).contains(&a) && (0..=MAX_PART).contains(&b) && a + b > 0 =>
        {
            Some(PointSplit(a as u32, b as u32))
        }
        _ => None,
    }
}

/// The verdict a `win(T)`, `loss(T)` or `draw(T)` names.
fn verdict(name: &str) -> Option<Verdict> {
    match name {
        "win" => Some(Verdict::Win),
        "loss" => Some(Verdict::Loss),
        "draw" => Some(Verdict::Draw),
        _ => None,
    }
}

/// The tests of `f(T_1, ..., T_n)`, one closed move per turn or one for
/// all, kept among `ends.conditions`: their index there.
fn condition(
    el: &Elab,
    (src, source): (usize, &Source),
    ends: &mut Ends,
    turns: usize,
    f: &Ident,
    args: &[Expr],
) -> Result<usize, Abort> {
    let tests = per_turn(el, (src, source), turns, f, args)?;
    ends.conditions.push(tests);
    Ok(ends.conditions.len() - 1)
}

/// Tests `args` of `what`, one closed move for each of `turns` turns or
/// one for all, a copy for each turn.
fn per_turn(
    el: &Elab,
    (src, source): (usize, &Source),
    turns: usize,
    what: &Ident,
    args: &[Expr],
) -> Result<Vec<Term>, Abort> {
    if args.len() != 1 && args.len() != turns {
        return Err(Diag::new(
            source,
            what.span,
            format!(
                "`{}` takes one test for every turn, or one for all: {turns} or 1, not {}",
                what.name,
                args.len()
            ),
        )
        .into());
    }
    let sc = Scope {
        src,
        vars: im::HashMap::new(),
        metas: false,
    };
    let mut tests = vec![];
    for a in args {
        let t = el.expr(&sc, a)?;
        if t.sort() != Sort::Move || t.is_open() {
            return Err(Diag::new(
                source,
                a.span,
                format!("a `{}` test is a closed move, not a {}", what.name, t.sort()),
            )
            .into());
        }
        tests.push(t);
    }
    Ok(if tests.len() == 1 {
        vec![tests[0].clone(); turns]
    } else {
        tests
    })
}

/// The `over` ends of `bare_king(loss)`, `bare_king(loss, reply)` and
/// `bare_king(draw)`, in the order they are asked (the side that moved
/// last first, as Fairy-Stockfish asks them), each with its test for the
/// two turns, written in the algebra: a side's pieces are counted by
/// taking them off one at a time (`(S -> .)`) and asking for one more
/// (`holds(S)`).
fn bare_king(el: &Elab, parts: &[Expr], turns: usize) -> Result<Vec<(Verdict, Vec<Term>)>, String> {
    let usage = "`bare_king(loss)`, `bare_king(loss, reply)` or `bare_king(draw)`: what a side whose king stands \
                 alone comes to";
    let words: Vec<Option<&str>> = parts.iter().map(word).collect();
    let (verdict, reply) = match words[..] {
        [Some("loss")] => (Verdict::Loss, false),
        [Some("loss"), Some("reply")] => (Verdict::Loss, true),
        [Some("draw")] => (Verdict::Draw, false),
        _ => return Err(usage.into()),
    };
    if turns != 2 {
        return Err(format!("{usage}; it is for games of two sides, not {turns}"));
    }
    let sides = [el.side("white_pieces"), el.side("black_pieces")].map(|s| s.expect("a built-in"));
    let dot = Term::content(crate::ir::Content::Empty);
    // At least `k` pieces of side `s`, k ≥ 1, as a test (`not not`: the
    // pieces taken off are put back).
    let at_least = |s: &Term, k: u32| {
        let take = Term::rule(s, &dot);
        Term::not(&Term::not(
            &(1..k).fold(Term::rule(s, s), |acc, _| Term::seq(&take, &acc)),
        ))
    };
    let at_most = |s: &Term, k: u32| Term::not(&at_least(s, k + 1));
    let mut out = vec![];
    match verdict {
        Verdict::Draw => {
            let t = |us: usize| Term::alt(&at_most(&sides[1 - us], 1), &at_most(&sides[us], 1));
            out.push((Verdict::Draw, vec![t(0), t(1)]));
        }
        _ => {
            // The side that moved last is bare: the side to move wins.
            let won = |us: usize| Term::seq(&at_most(&sides[1 - us], 1), &at_least(&sides[us], 2));
            // The side to move is bare: it loses, unless it may reply.
            let lost = |us: usize| Term::seq(&at_most(&sides[us], 1), &at_least(&sides[1 - us], 2 + u32::from(reply)));
            out.push((Verdict::Win, vec![won(0), won(1)]));
            out.push((Verdict::Loss, vec![lost(0), lost(1)]));
        }
    }
    Ok(out)
}

/// The game's counting rules, made when first named; their pawns must be
/// the ones named before.
fn counting(c: &mut Option<Counting>, pawns: Vec<PieceId>) -> Result<&mut Counting, String> {
    let c = c.get_or_insert_with(|| Counting {
        pawns: pawns.clone(),
        ..Counting::default()
    });
    if c.pawns != pawns {
        return Err("board's honour and pieces' honour name the same pawns".into());
    }
    Ok(c)
}

/// Adds declaration `kind: args` to `ends`, for a game of `turns` turns.
pub(crate) fn declare(
    el: &Elab,
    (src, source): (usize, &Source),
    ends: &mut Ends,
    turns: usize,
    kind: &Ident,
    args: &[Expr],
) -> Result<(), Abort> {
    let d = Decl { el, src, source, turns };
    match kind.name.as_str() {
        "check" | "lost" | "won" => {
            if kind.name == "won" && args.len() != turns {
                return Err(Diag::new(
                    source,
                    kind.span,
                    format!(
                        "`won` takes one test for every turn, in turn order (turn i's side has won when \
                         the i-th holds): {turns}, not {}",
                        args.len()
                    ),
                )
                .into());
            }
            let tests = per_turn(el, (src, source), turns, kind, args)?;
            match kind.name.as_str() {
                "check" => ends.check = Some(tests),
                "lost" => ends.lost = Some(tests),
                _ => ends.won = Some(tests),
            }
            Ok(())
        }
        "stuck" => d.stuck(ends, args),
        "over" => d.over(ends, args),
        "draws" => d.draws(ends, args),
        "values" => d.values(ends, args),
        other => Err(Diag::new(
            source,
            kind.span,
            format!(
                "`game NAME {other}:` is not a game declaration: use check, lost, won, over, stuck, draws or values"
            ),
        )
        .into()),
    }
}

/// One end declaration's arguments being read: the elaborator, their
/// source (its index and text), and the game's number of turns.
struct Decl<'a, 'p> {
    el: &'a Elab<'p>,
    src: usize,
    source: &'a Source,
    turns: usize,
}

impl Decl<'_, '_> {
    /// An error at argument `e`.
    fn bad(&self, e: &Expr, m: String) -> Abort {
        Diag::new(self.source, e.span, m).into()
    }

    /// The tests of `f(T_1, ..., T_n)` kept among `ends.conditions`
    /// ([`condition`]).
    fn condition(&self, ends: &mut Ends, f: &Ident, parts: &[Expr]) -> Result<usize, Abort> {
        condition(self.el, (self.src, self.source), ends, self.turns, f, parts)
    }

    fn scope(&self) -> Scope {
        Scope {
            src: self.src,
            vars: im::HashMap::new(),
            metas: false,
        }
    }

    /// `stuck: ...`: what a side with no move gets. A kind declared again
    /// (a derived game's own) replaces the one before it.
    fn stuck(&self, ends: &mut Ends, args: &[Expr]) -> Result<(), Abort> {
        ends.stuck.clear();
        for a in args {
            let (w, s) = match &a.kind {
                ExprKind::Call(f, parts) if f.name == "stalemate" => {
                    let Some(s) = split(parts) else {
                        return Err(self.bad(
                            a,
                            format!(
                                "`stalemate(A, B)` splits the point A to B between the side that gave stalemate \
                                 and the side stuck: two whole numbers from 0 to {MAX_PART}, not both 0, as in \
                                 `stalemate(3, 1)`"
                            ),
                        ));
                    };
                    ("stalemate", Stuck::Stalemate(s))
                }
                ExprKind::Call(f, parts) if f.name == "checkmate" => {
                    let i = self.condition(ends, f, parts)?;
                    ("checkmate", Stuck::CheckSeries(i))
                }
                ExprKind::Call(f, parts) if verdict(&f.name).is_some() => {
                    let v = verdict(&f.name).expect("a verdict");
                    let i = self.condition(ends, f, parts)?;
                    (f.name.as_str(), Stuck::When(v, i))
                }
                _ => {
                    let w = word(a).unwrap_or("");
                    let Some((_, s)) = STUCK.iter().find(|(n, _)| *n == w) else {
                        let names: Vec<&str> = STUCK.iter().map(|(n, _)| *n).collect();
                        return Err(self.bad(
                            a,
                            format!(
                                "a `stuck` end is one of {}, `stalemate(A, B)`, `checkmate(T)`, `win(T)`, \
                                 `loss(T)` or `draw(T)`",
                                names.join(", ")
                            ),
                        ));
                    };
                    (w, *s)
                }
            };
            if matches!(s, Stuck::Checkmate | Stuck::Stalemate(_) | Stuck::CheckSeries(_)) && ends.check.is_none() {
                return Err(self.bad(a, format!("`{w}` needs the game's `check` declared before it")));
            }
            ends.stuck.push(s);
        }
        Ok(())
    }

    /// `over: ...`: tests that end the game at once, or `none`.
    fn over(&self, ends: &mut Ends, args: &[Expr]) -> Result<(), Abort> {
        ends.over.clear();
        if let [a] = args {
            if word(a) == Some("none") {
                return Ok(());
            }
        }
        for a in args {
            match &a.kind {
                ExprKind::Call(f, parts) if verdict(&f.name).is_some() => {
                    let v = verdict(&f.name).expect("a verdict");
                    let i = self.condition(ends, f, parts)?;
                    ends.over.push(Over {
                        verdict: v,
                        test: i,
                        bare_king: false,
                    });
                }
                ExprKind::Call(f, parts) if f.name == "bare_king" => {
                    for (v, tests) in bare_king(self.el, parts, self.turns).map_err(|m| self.bad(a, m))? {
                        ends.conditions.push(tests);
                        ends.over.push(Over {
                            verdict: v,
                            test: ends.conditions.len() - 1,
                            bare_king: true,
                        });
                    }
                }
                _ => {
                    return Err(self.bad(
                        a,
                        "an `over` end is `win(T)`, `loss(T)` or `draw(T)` (the side to move wins, loses or \
                         draws when its test holds), `bare_king(loss)`, `bare_king(loss, reply)`, \
                         `bare_king(draw)`, or `none`"
                            .into(),
                    ))
                }
            }
        }
        Ok(())
    }

    /// The pieces an argument names: a piece, `A | B`, or a name for them
    /// (which a variant may override).
    fn pieces(&self, e: &Expr, what: &str) -> Result<Vec<PieceId>, Abort> {
        let t = self.el.expr(&self.scope(), e)?;
        let ps = t.pieces();
        if !matches!(t.sort(), Sort::Cell | Sort::Fragment | Sort::Pattern) || ps.is_empty() {
            return Err(self.bad(e, format!("{what}: a piece, or pieces joined by `|`")));
        }
        Ok(ps)
    }

    /// The pieces of every argument of `es`.
    fn resets(&self, es: &[Expr], what: &str) -> Result<Vec<PieceId>, Abort> {
        let mut ids = vec![];
        for p in es {
            ids.extend(self.pieces(p, what)?);
        }
        Ok(ids)
    }

    /// `draws: ...`: the draw rules, all of them declared anew.
    fn draws(&self, ends: &mut Ends, args: &[Expr]) -> Result<(), Abort> {
        ends.move_rule = None;
        ends.repetition = false;
        ends.insufficient_material = None;
        ends.counting = None;
        for a in args {
            self.draw_rule(ends, a)?;
        }
        Ok(())
    }

    /// One draw rule of `draws`.
    fn draw_rule(&self, ends: &mut Ends, a: &Expr) -> Result<(), Abort> {
        match &a.kind {
            ExprKind::Call(f, ps) if f.name == "fifty_moves" => {
                ends.move_rule = Some(MoveRule {
                    resets: self.resets(ps, "`fifty_moves` takes the pieces whose moves reset its count")?,
                    claim: Some(50),
                    end: Some(75),
                });
            }
            ExprKind::Call(f, ps) if f.name == "move_rule" || f.name == "move_claim" => {
                let claims = f.name == "move_claim";
                let usage = if claims {
                    "`move_claim(N, PIECES)`: N moves without a capture or a move of one of PIECES may be \
                     claimed as a draw, as in `move_claim(70, ♙, ♟)`"
                } else {
                    "`move_rule(N, PIECES)`: N moves without a capture or a move of one of PIECES end the \
                     game, as in `move_rule(70, ♙, ♟)`"
                };
                let n = match ps.first().map(|p| &p.kind) {
                    Some(ExprKind::Num(n)) if (1..=MAX_MOVES).contains(n) => *n as u32,
                    _ => return Err(self.bad(a, format!("{usage}; N is from 1 to {MAX_MOVES}"))),
                };
                ends.move_rule = Some(MoveRule {
                    resets: self.resets(&ps[1..], usage)?,
                    claim: claims.then_some(n),
                    end: (!claims).then_some(n),
                });
            }
            ExprKind::Call(f, ps) if f.name == "board_honour" => {
                let usage = "`board_honour(N, PAWNS)`: with no piece of PAWNS on the board and neither \
                             king bare, the side to move counts N moves, as in `board_honour(64, ♙ | ♟)`";
                let n = match ps.first().map(|p| &p.kind) {
                    Some(ExprKind::Num(n)) if ps.len() == 2 && (1..=MAX_MOVES).contains(n) => *n as u32,
                    _ => return Err(self.bad(a, format!("{usage}; N is from 1 to {MAX_MOVES}"))),
                };
                let pawns = self.pieces(&ps[1], usage)?;
                let c = counting(&mut ends.counting, pawns).map_err(|m| self.bad(a, m))?;
                c.board = Some(n);
            }
            ExprKind::Call(f, ps) if f.name == "pieces_honour" => self.pieces_honour(ends, a, ps)?,
            ExprKind::Call(f, ps) if f.name == "insufficient_material" => {
                let usage = "`insufficient_material(KINGS, LONE, BOUND)`: no mate can follow when \
                             every piece is one of KINGS but for one of LONE, or but for pieces of BOUND \
                             all on one square colour";
                let [kings, lone, bound] = &ps[..] else {
                    return Err(self.bad(a, format!("{usage}; it takes 3 arguments, not {}", ps.len())));
                };
                let none = |e: &Expr| matches!(&e.kind, ExprKind::Word(w) if w == "none");
                let set = |e: &Expr| -> Result<Vec<PieceId>, Abort> {
                    if none(e) {
                        Ok(vec![])
                    } else {
                        self.pieces(e, usage)
                    }
                };
                ends.insufficient_material = Some(Material {
                    kings: set(kings)?,
                    lone: set(lone)?,
                    bound: set(bound)?,
                });
            }
            _ => match word(a) {
                Some("repetition") => ends.repetition = true,
                Some("insufficient_material") => {
                    return Err(self.bad(
                        a,
                        "`insufficient_material` names the material that cannot mate: \
                         `insufficient_material(KINGS, LONE, BOUND)`, chess's is \
                         `insufficient_material(♔ | ♚ | 'Kc | 'kc, ♘ | ♞, ♗ | ♝)`"
                            .into(),
                    ))
                }
                _ => {
                    return Err(self.bad(
                        a,
                        "a draw rule is `fifty_moves(PIECES)`, `move_rule(N, PIECES)`, \
                         `move_claim(N, PIECES)`, `repetition`, `insufficient_material(KINGS, LONE, \
                         BOUND)`, `board_honour(N, PAWNS)` or `pieces_honour(PAWNS, START, LIMITS)`"
                            .into(),
                    ))
                }
            },
        }
        Ok(())
    }

    /// `pieces_honour(PAWNS, START, limit(N, K, P), ..., limit(N))`, the
    /// draw rule `a` with arguments `ps`.
    fn pieces_honour(&self, ends: &mut Ends, a: &Expr, ps: &[Expr]) -> Result<(), Abort> {
        let usage = "`pieces_honour(PAWNS, START, limit(N, K, P), ..., limit(N))`: with no piece \
                     of PAWNS on the board, a bare king counts N moves by the first limit whose K \
                     pieces P the other side has, from the number of pieces on the board (START \
                     `pieces`) or from 0";
        let [pawns, start, limits @ ..] = ps else {
            return Err(self.bad(a, usage.into()));
        };
        let from_pieces = match (&start.kind, word(start)) {
            (_, Some("pieces")) => true,
            (ExprKind::Num(0), _) => false,
            _ => return Err(self.bad(start, format!("{usage}; START is `pieces` or `0`"))),
        };
        let pawns = self.pieces(pawns, usage)?;
        let mut table = vec![];
        let mut otherwise = None;
        for (k, l) in limits.iter().enumerate() {
            let num = |e: &Expr, lo: i64| match e.kind {
                ExprKind::Num(n) if (lo..=MAX_MOVES).contains(&n) => Some(n as u32),
                _ => None,
            };
            match &l.kind {
                ExprKind::Call(f, xs) if f.name == "limit" => match &xs[..] {
                    [n] if k + 1 == limits.len() => {
                        otherwise =
                            Some(num(n, 1).ok_or_else(|| self.bad(n, format!("{usage}; N is from 1 to {MAX_MOVES}")))?);
                    }
                    [n, at_least, p] => {
                        let moves =
                            num(n, 1).ok_or_else(|| self.bad(n, format!("{usage}; N is from 1 to {MAX_MOVES}")))?;
                        let at_least =
                            num(at_least, 1).ok_or_else(|| self.bad(at_least, format!("{usage}; K is 1 or more")))?;
                        for piece in self.pieces(p, usage)? {
                            table.push(Limit { moves, at_least, piece });
                        }
                    }
                    _ => return Err(self.bad(l, format!("{usage}; a limit is `limit(N, K, P)`, or `limit(N)` last"))),
                },
                _ => return Err(self.bad(l, format!("{usage}; a limit is `limit(N, K, P)`, or `limit(N)` last"))),
            }
        }
        let c = counting(&mut ends.counting, pawns).map_err(|m| self.bad(a, m))?;
        c.limits = table;
        c.otherwise = otherwise;
        c.from_pieces = from_pieces;
        Ok(())
    }

    /// `values: value(P, N), ...`: the pieces' worth to a search.
    fn values(&self, ends: &mut Ends, args: &[Expr]) -> Result<(), Abort> {
        let sc = self.scope();
        let usage = format!("`value(P, N)`: piece P (and its twin) is worth N centipawns, N from 0 to {MAX_VALUE}");
        for a in args {
            let ExprKind::Call(f, ps) = &a.kind else {
                return Err(self.bad(a, usage));
            };
            let [piece, n] = &ps[..] else {
                return Err(self.bad(a, usage));
            };
            if f.name != "value" {
                return Err(self.bad(a, usage));
            }
            let t = self.el.expr(&sc, piece)?;
            let ids = t.pieces();
            if !matches!(t.sort(), Sort::Cell | Sort::Fragment | Sort::Pattern) || ids.is_empty() {
                return Err(self.bad(piece, format!("{usage}; P is a piece, or pieces joined by `|`")));
            }
            let cp = match &n.kind {
                ExprKind::Num(v) if (0..=MAX_VALUE).contains(v) => *v as i32,
                _ => return Err(self.bad(n, usage)),
            };
            for p in ids {
                ends.values
                    .retain(|(q, _)| *q != p && *q != self.el.prog.pieces.twin(p));
                ends.values.push((p, cp));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use crate::elab::{PointSplit, Program, Stuck};

    const GAME: &str = "b = ♙;.\nstep = %♙: (% + u. -> . + u%)\ngame g(b) = step, step\n";

    fn error(decl: &str) -> String {
        match Program::from_text("ends.alg", &format!("{GAME}{decl}\n")) {
            Ok(_) => panic!("{decl} accepted"),
            Err(e) => e.to_string(),
        }
    }

    #[test]
    fn end_declarations_are_read() {
        let text = format!(
            "{GAME}game g check: step\ngame g stuck: checkmate, stalemate\ngame g draws: fifty_moves(♙), repetition\n"
        );
        let prog = Program::from_text("ends.alg", &text).unwrap();
        let ends = &prog.games()[0].ends;
        assert_eq!(ends.check.as_ref().map(Vec::len), Some(2));
        assert_eq!(ends.stuck, [Stuck::Checkmate, Stuck::Stalemate(PointSplit::DRAW)]);
        let fifty = ends.move_rule.as_ref().unwrap();
        assert_eq!((fifty.resets.len(), fifty.claim, fifty.end), (1, Some(50), Some(75)));
        assert!(ends.repetition && ends.insufficient_material.is_none());
        // A count of its own, and material named through definitions.
        let text = format!(
            "{GAME}kings = ♔ | ♚\nminor = ♘\ngame g draws: move_rule(70, ♙ | ♟), \
             insufficient_material(kings, minor, none)\n"
        );
        let prog = Program::from_text("ends.alg", &text).unwrap();
        let ends = &prog.games()[0].ends;
        let rule = ends.move_rule.as_ref().unwrap();
        assert_eq!((rule.resets.len(), rule.claim, rule.end), (2, None, Some(70)));
        let m = ends.insufficient_material.as_ref().unwrap();
        assert_eq!((m.kings.len(), m.lone.len(), m.bound.len()), (2, 1, 0));
    }

    #[test]
    fn won_names_a_test_for_each_side() {
        let text = "b = ♙;.;♟\nstep = %♙: (% + u. -> . + u%)\ngame g(b) = step, step, step\n\
                    game g won: step, nil, fail\n";
        let prog = Program::from_text("ends.alg", text).unwrap();
        let won = prog.games()[0].ends.won.as_ref().unwrap();
        assert_eq!(won.len(), 3);
        assert_ne!(won[1], won[2]);
    }

    #[test]
    fn a_stalemate_may_split_the_point() {
        let text = format!("{GAME}game g check: step\ngame g stuck: checkmate, stalemate(3, 1)\n");
        let prog = Program::from_text("ends.alg", &text).unwrap();
        assert_eq!(
            prog.games()[0].ends.stuck,
            [Stuck::Checkmate, Stuck::Stalemate(PointSplit(3, 1))]
        );
        assert_eq!(PointSplit(3, 1).fractions(), [(3, 4), (1, 4)]);
        assert_eq!(PointSplit(2, 2).fractions(), [(1, 2), (1, 2)]);
        assert_eq!(PointSplit(1, 0).fractions(), [(1, 1), (0, 1)]);
    }

    #[test]
    fn bad_end_declarations_are_errors() {
        assert!(error("game h stuck: draw").contains("no game `h`"));
        assert!(error("game g wins: step").contains("not a game declaration"));
        assert!(error("game g values: ♙").contains("`value(P, N)`"));
        assert!(error("game g values: value(step, 3)").contains("P is a piece"));
        assert!(error("game g values: value(♙, -1)").contains("N from 0 to 100000"));
        assert!(error("game g check: step, step, step").contains("one test for every turn"));
        assert!(error("game g check: ♙").contains("closed move"));
        assert!(error("game g won: step").contains("`won` takes one test for every turn"));
        assert!(error("game g won: step, step, step").contains("2, not 3"));
        assert!(error("game g won: step, ♙").contains("a `won` test is a closed move"));
        assert!(error("game g stuck: resign").contains("a `stuck` end is one of"));
        assert!(error("game g stuck: checkmate").contains("needs the game's `check`"));
        assert!(error("game g stuck: stalemate(3, 1)").contains("needs the game's `check`"));
        for bad in [
            "stalemate(3)",
            "stalemate(0, 0)",
            "stalemate(3, ♙)",
            "stalemate(1, 1001)",
            "stalemate(1, 2, 3)",
        ] {
            assert!(
                error(&format!("game g check: step\ngame g stuck: {bad}")).contains("two whole numbers"),
                "{bad}"
            );
        }
        assert!(error("game g draws: fifty_moves(step)").contains("pieces whose moves reset"));
        assert!(error("game g draws: often").contains("a draw rule is"));
        assert!(error("game g draws: insufficient_material").contains("chess's is"));
        assert!(error("game g draws: insufficient_material(♔, ♘)").contains("3 arguments, not 2"));
        assert!(error("game g draws: insufficient_material(♔, step, ♗)").contains("a piece, or pieces"));
        assert!(error("game g draws: move_rule(♙)").contains("N is from 1"));
        assert!(error("game g draws: move_rule(0, ♙)").contains("N is from 1"));
        assert!(error("game g draws: move_claim(♙)").contains("`move_claim(N, PIECES)`"));
        assert!(error("game g over: bare_king").contains("an `over` end is"));
        assert!(error("game g over: bare_king(win)").contains("`bare_king(loss)`"));
        assert!(error("game g over: bare_king(draw, reply)").contains("`bare_king(loss)`"));
        assert!(error("game g over: loss(♙)").contains("a `loss` test is a closed move"));
        assert!(error("game g over: win(step, step, step)").contains("2 or 1, not 3"));
        assert!(error("game g stuck: checkmate(step)").contains("needs the game's `check`"));
        assert!(error("game g stuck: draw(♙)").contains("a `draw` test is a closed move"));
        assert!(error("game g draws: board_honour(64)").contains("`board_honour(N, PAWNS)`"));
        assert!(error("game g draws: board_honour(0, ♙)").contains("N is from 1"));
        assert!(error("game g draws: pieces_honour(♙)").contains("`pieces_honour(PAWNS, START"));
        assert!(error("game g draws: pieces_honour(♙, 3)").contains("START is `pieces` or `0`"));
        assert!(error("game g draws: pieces_honour(♙, 0, limit(8, 0, ♖))").contains("K is 1 or more"));
        assert!(error("game g draws: pieces_honour(♙, 0, limit(8), limit(9))").contains("`limit(N)` last"));
        assert!(error("game g draws: pieces_honour(♙, 0, often)").contains("`limit(N)` last"));
        assert!(error("game g draws: board_honour(64, ♙), pieces_honour(♟, 0, limit(8))").contains("the same pawns"));
    }

    #[test]
    fn immediate_ends_counts_and_series_are_read() {
        use crate::elab::{Over, Verdict};
        let text = format!(
            "{GAME}game g check: step\ngame g over: draw(step), bare_king(loss, reply)\n\
             game g stuck: win(step), checkmate(step), loss(step, nil), stalemate\n\
             game g draws: move_claim(70, ♙), board_honour(64, ♙), pieces_honour(♙, pieces, limit(8, 2, ♖), \
             limit(64))\n"
        );
        let prog = Program::from_text("ends.alg", &text).unwrap();
        let ends = &prog.games()[0].ends;
        // `draw(step)`, then the bare king's two ends: the side to move
        // wins when the other is bare, loses when it is.
        let verdicts: Vec<(Verdict, bool)> = ends.over.iter().map(|o: &Over| (o.verdict, o.bare_king)).collect();
        assert_eq!(
            verdicts,
            [(Verdict::Draw, false), (Verdict::Win, true), (Verdict::Loss, true)]
        );
        assert!(ends.conditions.iter().all(|c| c.len() == 2));
        assert!(matches!(
            ends.stuck[..],
            [
                Stuck::When(Verdict::Win, _),
                Stuck::CheckSeries(_),
                Stuck::When(Verdict::Loss, _),
                Stuck::Stalemate(_)
            ]
        ));
        let rule = ends.move_rule.as_ref().unwrap();
        assert_eq!((rule.claim, rule.end), (Some(70), None));
        let c = ends.counting.as_ref().unwrap();
        assert_eq!(
            (c.board, c.otherwise, c.from_pieces, c.limits.len()),
            (Some(64), Some(64), true, 1)
        );
        assert_eq!((c.limits[0].moves, c.limits[0].at_least), (8, 2));
        // `none` takes the immediate ends away.
        let prog = Program::from_text("ends.alg", &format!("{GAME}game g over: none\n")).unwrap();
        assert!(prog.games()[0].ends.over.is_empty());
    }
}
