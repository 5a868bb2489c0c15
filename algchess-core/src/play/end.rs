//! How games end: the end declarations of a rule file compiled for play,
//! the endings they lead to and their results.

use crate::elab::{Counting, Ends, Material, MoveRule, Over, PointSplit, Stuck};
use crate::engine::TooBig;
use crate::geometry::Square;
use crate::ir::{Content, PieceId};
use crate::memory::Budget;
use crate::semantics::{compile, Eval, Grid, Prog, State};

/// A game's end declarations, with their tests compiled.
pub struct EndRules {
    pub check: Option<Vec<Prog>>,
    pub lost: Option<Vec<Prog>>,
    /// Per turn: that turn's side has won (a game of any number of sides).
    pub won: Option<Vec<Prog>>,
    pub stuck: Vec<Stuck>,
    /// The ends that hold at once: a verdict for the side to move when a
    /// condition holds.
    pub over: Vec<Over>,
    /// The tests `over` and `stuck` ask, each one per turn.
    pub conditions: Vec<Vec<Prog>>,
    /// Per turn: whether an `over` end holds (the union of its tests):
    /// the side to move then has no move.
    pub stop: Option<Vec<Prog>>,
    pub move_rule: Option<MoveRule>,
    pub repetition: bool,
    pub insufficient_material: Option<Material>,
    /// Makruk's counting rules.
    pub counting: Option<Counting>,
    /// Piece values the file gives (`game NAME values:`), in centipawns.
    pub values: Vec<(PieceId, i32)>,
}

/// Which of a game's tests: each is one per turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Test {
    /// The side is in check.
    Check,
    /// The side has lost.
    Lost,
    /// The side has won.
    Won,
    /// A condition of `over` or `stuck`, by its index.
    Condition(usize),
    /// An `over` end holds.
    Stop,
}

impl EndRules {
    pub fn compile(e: &Ends) -> EndRules {
        let prog = |t: &crate::ir::Term| compile(t).expect("elaboration checks that end tests are closed moves");
        let progs = |ts: &Option<Vec<crate::ir::Term>>| ts.as_ref().map(|ts| ts.iter().map(prog).collect());
        let turns = e.conditions.first().map_or(0, Vec::len);
        let stop = (!e.over.is_empty()).then(|| {
            (0..turns)
                .map(|t| {
                    let tests: Vec<&crate::ir::Term> = e.over.iter().map(|o| &e.conditions[o.test][t]).collect();
                    let any = tests[1..]
                        .iter()
                        .fold(tests[0].clone(), |acc, u| crate::ir::Term::alt(&acc, u));
                    prog(&any)
                })
                .collect()
        });
        EndRules {
            check: progs(&e.check),
            lost: progs(&e.lost),
            won: progs(&e.won),
            stuck: e.stuck.clone(),
            over: e.over.clone(),
            conditions: e.conditions.iter().map(|ts| ts.iter().map(prog).collect()).collect(),
            stop,
            move_rule: e.move_rule.clone(),
            repetition: e.repetition,
            insufficient_material: e.insufficient_material.clone(),
            counting: e.counting.clone(),
            values: e.values.clone(),
        }
    }

    /// Whether a side with no move passes.
    pub fn passes(&self) -> bool {
        self.stuck.contains(&Stuck::Pass)
    }

    /// Every test, in the order [`index`](EndRules::index) counts them:
    /// the engine plans them with the turns.
    pub fn tests(&self) -> Vec<Prog> {
        let none = vec![];
        let check = self.check.as_ref().unwrap_or(&none);
        let lost = self.lost.as_ref().unwrap_or(&none);
        let won = self.won.as_ref().unwrap_or(&none);
        let stop = self.stop.as_ref().unwrap_or(&none);
        check
            .iter()
            .chain(lost)
            .chain(won)
            .chain(self.conditions.iter().flatten())
            .chain(stop)
            .cloned()
            .collect()
    }

    /// The index among [`tests`](EndRules::tests) of turn `turn`'s test
    /// `t`; `None` when the game declares none.
    pub fn index(&self, t: Test, turn: usize) -> Option<usize> {
        let checks = self.check.as_ref().map_or(0, Vec::len);
        let losts = self.lost.as_ref().map_or(0, Vec::len);
        let wons = self.won.as_ref().map_or(0, Vec::len);
        let conditions: usize = self.conditions.iter().map(Vec::len).sum();
        match t {
            Test::Check => self.check.as_ref().map(|_| turn),
            Test::Lost => self.lost.as_ref().map(|_| checks + turn),
            Test::Won => self.won.as_ref().map(|_| checks + losts + turn),
            Test::Condition(i) => {
                let before: usize = self.conditions[..i].iter().map(Vec::len).sum();
                Some(checks + losts + wons + before + turn)
            }
            Test::Stop => self.stop.as_ref().map(|_| checks + losts + wons + conditions + turn),
        }
    }

    /// The index among [`tests`](EndRules::tests) of turn 0's `over`
    /// test, turn t's following it; `None` without `over` ends.
    pub fn stops(&self) -> Option<usize> {
        self.index(Test::Stop, 0)
    }

    /// Test `t` of turn `turn` in the interpreter; never without one.
    pub fn holds(&self, t: Test, turn: usize, board: &Grid, budget: &Budget) -> Result<bool, TooBig> {
        let prog = match t {
            Test::Check => self.check.as_ref().map(|ts| &ts[turn]),
            Test::Lost => self.lost.as_ref().map(|ts| &ts[turn]),
            Test::Won => self.won.as_ref().map(|ts| &ts[turn]),
            Test::Condition(i) => Some(&self.conditions[i][turn]),
            Test::Stop => self.stop.as_ref().map(|ts| &ts[turn]),
        };
        match prog {
            Some(p) => holds(p, board, budget),
            None => Ok(false),
        }
    }
}

/// Whether test `prog` has a result on `board`.
fn holds(prog: &Prog, board: &Grid, budget: &Budget) -> Result<bool, TooBig> {
    let state = State {
        board: board.clone(),
        poi: None,
    };
    Ok(!Eval::default().within(budget).run(prog, &state)?.is_empty())
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// The side to move is in check and has no move.
    Checkmate,
    /// The side to move is not in check and has no move.
    Stalemate,
    /// Seventy-five moves by each side with no capture or pawn move.
    SeventyFiveMoves,
    /// A declared `move_rule(N, ...)`'s count reached.
    MoveRule,
    /// An `over` end of the file's tests: the side to move has won, lost
    /// or drawn at once.
    Over,
    /// A side's king stands alone (`bare_king`).
    BareKing,
    /// The same position the fifth time.
    FivefoldRepetition,
    /// Neither side has the pieces to mate.
    InsufficientMaterial,
    /// A `lost` test held for the side to move.
    Lost,
    /// A `won` test held for a side: it has won.
    Won,
    /// Neither side could move; the one with more pieces wins.
    MostPieces,
    /// The side to move has no move, and the rules say no more.
    NoMoves,
}

impl Ending {
    /// The name used in reports and JSON: `checkmate`, `seventyfive_moves`.
    pub fn name(self) -> &'static str {
        match self {
            Ending::Checkmate => "checkmate",
            Ending::Stalemate => "stalemate",
            Ending::SeventyFiveMoves => "seventyfive_moves",
            Ending::MoveRule => "move_rule",
            Ending::Over => "over",
            Ending::BareKing => "bare_king",
            Ending::FivefoldRepetition => "fivefold_repetition",
            Ending::InsufficientMaterial => "insufficient_material",
            Ending::Lost => "lost",
            Ending::Won => "won",
            Ending::MostPieces => "most_pieces",
            Ending::NoMoves => "no_moves",
        }
    }
}

/// The end of a game and who won it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameOutcome {
    /// How it ended.
    pub ending: Ending,
    /// The winner's turn index; `None` for a draw, or when the rules say
    /// nothing of a winner.
    pub winner: Option<usize>,
    /// Whether it is a draw.
    pub draw: bool,
    /// A partial win: the point split between the winner and the other
    /// side (Gliński's stalemate, `3, 1`); `None` for the whole point.
    pub split: Option<PointSplit>,
    /// The side that has the smaller part of a split point.
    pub loser: Option<usize>,
    /// How many sides the game has: 2 unless [`among`](GameOutcome::among)
    /// says otherwise. It decides how the result is written.
    pub sides: usize,
}

impl GameOutcome {
    /// A win of the whole point for turn `winner`.
    pub fn win(ending: Ending, winner: usize) -> GameOutcome {
        GameOutcome {
            ending,
            winner: Some(winner),
            draw: false,
            split: None,
            loser: None,
            sides: 2,
        }
    }

    /// A draw.
    pub fn draw(ending: Ending) -> GameOutcome {
        GameOutcome {
            ending,
            winner: None,
            draw: true,
            split: None,
            loser: None,
            sides: 2,
        }
    }

    /// The point split `by` between `gave` and `stuck`: a draw when even,
    /// else a win, partial unless one part is 0.
    pub fn split(ending: Ending, by: PointSplit, gave: usize, stuck: usize) -> GameOutcome {
        let PointSplit(a, b) = by;
        match a.cmp(&b) {
            std::cmp::Ordering::Equal => GameOutcome::draw(ending),
            std::cmp::Ordering::Greater => GameOutcome {
                split: (b > 0).then_some(by),
                loser: (b > 0).then_some(stuck),
                ..GameOutcome::win(ending, gave)
            },
            std::cmp::Ordering::Less => GameOutcome {
                split: (a > 0).then_some(PointSplit(b, a)),
                loser: (a > 0).then_some(gave),
                ..GameOutcome::win(ending, stuck)
            },
        }
    }

    /// An end with no result: the side to move has no move, and the
    /// rules say nothing more.
    pub fn unscored(ending: Ending) -> GameOutcome {
        GameOutcome {
            draw: false,
            ..GameOutcome::draw(ending)
        }
    }

    /// The same end in a game of `sides` sides (taking turns in a cycle).
    pub fn among(self, sides: usize) -> GameOutcome {
        GameOutcome { sides, ..self }
    }

    /// Whether the end names a result: a winner or a draw (a game that
    /// merely stops, with no word from the rules on who won, does not).
    pub fn decided(&self) -> bool {
        self.winner.is_some() || self.draw
    }

    /// The result in PGN's notation for a two-sided game: `1-0`, `0-1`,
    /// `1/2-1/2`; `*` when unknown; a partial win as fractions of the point,
    /// white's first: `3/4-1/4`. A game of more sides writes each side's
    /// share of the point the same way, in turn order: `0-1-0` when the
    /// second of three sides won, `1/3-1/3-1/3` for a draw, `3/4-0-1/4`
    /// for a split between the first and the third.
    pub fn result(&self) -> String {
        let frac = |(n, d): (u32, u32)| if d == 1 { n.to_string() } else { format!("{n}/{d}") };
        if self.sides > 2 {
            return self
                .shares()
                .map_or("*".into(), |s| s.into_iter().map(frac).collect::<Vec<_>>().join("-"));
        }
        match (self.winner, self.draw, self.split) {
            (Some(w), _, Some(s)) => {
                let [won, lost] = s.fractions().map(frac);
                if w == 0 {
                    format!("{won}-{lost}")
                } else {
                    format!("{lost}-{won}")
                }
            }
            (Some(0), _, None) => "1-0".into(),
            (Some(_), _, None) => "0-1".into(),
            (None, true, _) => "1/2-1/2".into(),
            (None, false, _) => "*".into(),
        }
    }

    /// Each side's share of the point, in turn order, as fractions in
    /// lowest terms; `None` when the game is unfinished.
    fn shares(&self) -> Option<Vec<(u32, u32)>> {
        let n = self.sides;
        let mut shares = vec![(0, 1); n];
        match (self.winner, self.draw, self.split) {
            (Some(w), _, Some(s)) => {
                let [won, lost] = s.fractions();
                shares[w] = won;
                if let Some(l) = self.loser {
                    shares[l] = lost;
                }
            }
            (Some(w), _, None) => shares[w] = (1, 1),
            (None, true, _) => shares = vec![(1, n as u32); n],
            (None, false, _) => return None,
        }
        Some(shares)
    }
}

/// Whether the material on `board` is too small to mate, as `m`
/// declares it (chess's is FIDE's as python-chess reads it). Which
/// material can mate is a fact about the pieces, not a move, so the rule
/// file names the pieces and this counts them with their square colours.
pub(crate) fn insufficient_material(m: &Material, board: &Grid) -> bool {
    let o = board.origin();
    // Read lazily: the first pawn or rook ends the count.
    let pieces = (0..board.height()).flat_map(|y| {
        (0..board.width()).filter_map(move |x| match board.get(Square::new(o.x + x, o.y + y)) {
            Some(Content::Piece(p)) => Some((p, (x + y) % 2 == 0)),
            _ => None,
        })
    });
    m.insufficient(pieces)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::PieceId;
    use crate::record::fen;

    #[test]
    fn results_name_partial_wins_in_fractions() {
        let s = |a, b, gave| GameOutcome::split(Ending::Stalemate, PointSplit(a, b), gave, 1 - gave).result();
        assert_eq!(s(3, 1, 0), "3/4-1/4");
        assert_eq!(s(3, 1, 1), "1/4-3/4");
        assert_eq!(s(1, 3, 0), "1/4-3/4");
        assert_eq!(s(1, 1, 0), "1/2-1/2");
        assert_eq!(s(1, 0, 1), "0-1");
        assert_eq!(s(6, 2, 0), "3/4-1/4");
        assert_eq!(GameOutcome::win(Ending::Checkmate, 0).result(), "1-0");
    }

    #[test]
    fn results_of_more_sides_give_each_side_its_share() {
        assert_eq!(GameOutcome::win(Ending::Won, 1).among(3).result(), "0-1-0");
        assert_eq!(GameOutcome::win(Ending::Won, 5).among(6).result(), "0-0-0-0-0-1");
        assert_eq!(GameOutcome::draw(Ending::NoMoves).among(3).result(), "1/3-1/3-1/3");
        let split = GameOutcome::split(Ending::Stalemate, PointSplit(3, 1), 2, 0);
        assert_eq!(split.among(3).result(), "1/4-0-3/4");
        assert_eq!(GameOutcome::unscored(Ending::NoMoves).among(4).result(), "*");
        // Two sides as PGN writes them.
        assert_eq!(GameOutcome::win(Ending::Won, 1).result(), "0-1");
    }

    fn chess() -> Material {
        let prog = crate::elab::Program::from_text(
            "t.alg",
            "piece 'Kc / 'kc\nkings = ♔ | ♚ | 'Kc | 'kc\nb = ♙\nm = %♙: (% -> %)\ngame g(b) = m, m\n\
             game g draws: insufficient_material(kings, ♘ | ♞, ♗ | ♝)\n",
        )
        .unwrap();
        prog.game("g").unwrap().ends.insufficient_material.clone().unwrap()
    }

    fn insufficient(fen: &str) -> bool {
        let board = fen::placement(fen, &crate::ir::Pieces::chess()).unwrap();
        let declared = insufficient_material(&chess(), &board);
        assert_eq!(declared, by_letters(&board), "{fen}");
        declared
    }

    /// Chess's insufficient material, as FIDE and python-chess read it,
    /// by FEN letters: the reference for the declared form: no
    /// sequence of legal moves can mate. This is a fact about which material
    /// can mate, not a move, so it is computed here from the pieces' FEN
    /// letters (and square colours) rather than written in the algebra: each
    /// side has no pawn, rook or queen, and either at most one knight and
    /// nothing else while the other side has only its king and queens, or
    /// bishops only, all bishops on the board on one square colour and no
    /// pawn or knight anywhere.
    fn by_letters(board: &Grid) -> bool {
        let o = board.origin();
        let mut pieces: Vec<(char, bool)> = vec![];
        for y in 0..board.height() {
            for x in 0..board.width() {
                let q = Square::new(o.x + x, o.y + y);
                if let Some(Content::Piece(p)) = board.get(q) {
                    let Some(l) = crate::ir::Pieces::chess().letter(p) else {
                        return false;
                    };
                    pieces.push((l, (x + y) % 2 == 0));
                }
            }
        }
        let has = |l: char| pieces.iter().any(|(p, _)| *p == l);
        let side = |white: bool| -> bool {
            let own: Vec<char> = pieces
                .iter()
                .map(|(l, _)| *l)
                .filter(|l| l.is_ascii_uppercase() == white)
                .map(|l| l.to_ascii_uppercase())
                .collect();
            if own.iter().any(|l| "PRQ".contains(*l)) {
                return false;
            }
            if own.contains(&'N') {
                let theirs = pieces
                    .iter()
                    .filter(|(l, _)| l.is_ascii_uppercase() != white)
                    .any(|(l, _)| !"KQ".contains(l.to_ascii_uppercase()));
                return own.len() <= 2 && !theirs;
            }
            if own.contains(&'B') {
                let bishops: Vec<bool> = pieces
                    .iter()
                    .filter(|(l, _)| l.eq_ignore_ascii_case(&'b'))
                    .map(|(_, dark)| *dark)
                    .collect();
                let same = bishops.iter().all(|d| *d) || bishops.iter().all(|d| !*d);
                return same && !has('P') && !has('p') && !has('N') && !has('n');
            }
            own.iter().all(|l| "K".contains(*l))
        };
        side(true) && side(false)
    }

    /// The declared form of chess's rule answers as the letters do, on
    /// random sparse boards.
    #[test]
    fn the_declared_rule_is_chess_s() {
        let m = chess();
        let letters = ["♔", "♚", "♕", "♛", "♖", "♜", "♗", "♝", "♗", "♝", "♘", "♞", "♙", "♟"];
        let (mut drawn, mut not) = (0, 0);
        for seed in 0..3000u64 {
            let mut g = crate::rng::Rng::new(seed);
            let pick = |g: &mut crate::rng::Rng, n: usize| g.below(n as u32) as usize;
            let mut board = fen::placement("8/8/8/8/8/8/8/8", &crate::ir::Pieces::chess()).unwrap();
            // Both kings, on two squares.
            let k = pick(&mut g, 64) as i32;
            let other = (k + 1 + pick(&mut g, 63) as i32) % 64;
            for (q, p) in [(k, "♔"), (other, "♚")] {
                board.put(
                    Square::new(q % 8, q / 8),
                    Some(Content::Piece(PieceId::chess(p).unwrap())),
                );
            }
            let mut put = |g: &mut crate::rng::Rng, p: &str| {
                // On an empty square, the kings staying.
                let q = Square::new(pick(g, 8) as i32, pick(g, 8) as i32);
                if board.get(q) == Some(Content::Empty) {
                    board.put(q, Some(Content::Piece(PieceId::chess(p).unwrap())));
                }
            };
            // Mostly minor pieces: the cases where the rule has work to do.
            for _ in 0..pick(&mut g, 4) {
                let p = letters[2 + pick(&mut g, 12)];
                let p = if pick(&mut g, 3) == 0 {
                    p
                } else {
                    letters[6 + pick(&mut g, 6)]
                };
                put(&mut g, p);
            }
            let declared = insufficient_material(&m, &board);
            assert_eq!(declared, by_letters(&board), "{board:?}");
            if declared {
                drawn += 1
            } else {
                not += 1
            }
        }
        assert!(drawn > 300 && not > 300, "{drawn} drawn, {not} not");
    }

    #[test]
    fn insufficient_material_as_fide_reads_it() {
        assert!(insufficient("8/8/4k3/8/8/3K4/8/8"));
        assert!(insufficient("8/8/4k3/8/8/3KN3/8/8"));
        assert!(insufficient("8/8/4k3/8/8/3KB3/8/8"));
        // Bishops on squares of one colour, on either side.
        assert!(insufficient("8/8/4kb2/8/8/3KB3/8/8"));
        assert!(!insufficient("8/8/4k1b1/8/8/3KB3/8/8"));
        assert!(!insufficient("8/8/4k3/8/8/3KNN2/8/8"));
        assert!(!insufficient("8/8/4kn2/8/8/3KN3/8/8"));
        assert!(!insufficient("8/8/4k3/8/8/3KR3/8/8"));
        assert!(!insufficient("8/8/4k3/8/8/3KP3/8/8"));
    }
}
