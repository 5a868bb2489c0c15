use super::contents::*;
use super::{add, lower, to_algebra, Off};
use crate::diag::Span;
use crate::elab::Program;
use crate::geometry::Square;
use crate::ir::Pieces;
use crate::semantics::{compile, results, Grid, Prog, State};

fn chess() -> Program {
    crate::testing::load("rules/chess.alg")
}

fn prog(p: &mut Program, alg: &str) -> Prog {
    let t = p.expr("ply", alg).unwrap_or_else(|e| panic!("{}\n{alg}", e.render()));
    compile(&t).expect("a closed move compiles")
}

fn boards(pieces: &Pieces, p: &Prog, board: &Grid, poi: Option<Square>) -> Vec<Vec<String>> {
    let st = State {
        board: board.clone(),
        poi,
    };
    let mut v: Vec<Vec<String>> = results(p, &st)
        .expect("within budget")
        .iter()
        .map(|s| s.board.rows(pieces))
        .collect();
    v.sort();
    v.dedup();
    v
}

/// A small deterministic generator, so that runs repeat.
struct Rng(u64);
impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) % n as u64) as usize
    }
}

/// A random board: mostly empty squares, some off the board.
fn random_board(pieces: &Pieces, r: &mut Rng, w: usize, h: usize) -> Grid {
    let rows: Vec<String> = (0..h)
        .map(|_| {
            (0..w)
                .map(|_| match r.below(10) {
                    0..=4 => ".",
                    5 => "#",
                    _ => GLYPHS[r.below(18)],
                })
                .collect()
        })
        .collect();
    Grid::parse(&rows.join("\n"), pieces).unwrap()
}

/// Positions of the standard perft suite, where every rule is reached.
const FENS: [&str; 5] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
];

/// Asserts that the plies and a move of chess.alg agree on the perft
/// positions and on random boards.
fn agree(plies: &str, chess_alg: &str, n: usize) {
    let mut p = chess();
    let pieces = p.pieces().clone();
    let ours = prog(&mut p, &to_algebra(plies).unwrap());
    let theirs = prog(&mut p, chess_alg);
    let mut all: Vec<Grid> = FENS
        .iter()
        .map(|f| crate::record::fen::read(f, &pieces).unwrap().0)
        .collect();
    let mut r = Rng(12);
    all.extend((0..n).map(|i| random_board(&pieces, &mut r, 4 + i % 4, 3 + i % 5)));
    for b in &all {
        assert_eq!(
            boards(&pieces, &ours, b, None),
            boards(&pieces, &theirs, b, None),
            "on\n{}",
            b.rows(&pieces).join("\n")
        );
    }
}

const PROMOTE: &str = "then mutate[queen, rook, bishop, knight]";

fn pawns() -> String {
    format!(
        "Pawns:
           [ahead]         if empty {PROMOTE};
           [ahead * 2]     if empty and open and home;
           [ahead + left]  if enemy {PROMOTE};
           [ahead + right] if enemy {PROMOTE};
           [ahead + left]  if passant;
           [ahead + right] if passant;"
    )
}

const KNIGHTS: &str = "Knights:
    [+1, +2] if not friend; [+1, -2] if not friend; [-1, +2] if not friend; [-1, -2] if not friend;
    [+2, +1] if not friend; [+2, -1] if not friend; [-2, +1] if not friend; [-2, -1] if not friend.";
const BISHOPS: &str = "Bishops: [?, ?] if open and not friend; [?, -?] if open and not friend;";
const ROOKS: &str = "Rooks: [0, ?] if open and not friend; [?, 0] if open and not friend;";
const QUEENS: &str = "Queens: [0, ?] if open and not friend; [?, 0] if open and not friend;
    [?, ?] if open and not friend; [?, -?] if open and not friend;";
const KINGS: &str = "Kings:
    [-1, -1] if not friend and not threat; [-1, 0] if not friend and not threat;
    [-1, +1] if not friend and not threat; [0, -1] if not friend and not threat;
    [0, +1] if not friend and not threat; [+1, -1] if not friend and not threat;
    [+1, 0] if not friend and not threat; [+1, +1] if not friend and not threat;
    [king * 2] if home and home[kings_rook] and open[king, kings_rook]
        and not threat[king] and not threat[[king]] then move[kings_rook, [king]];
    [queen * 2] if home and home[queens_rook] and open[king, queens_rook]
        and not threat[king] and not threat[[queen]] then move[queens_rook, [queen]];
    Globally: not threat[king];";

/// chess.alg's pawn with the double step from the second rank only (the
/// document's `home`).
const CHESS_PAWN: &str =
    "%♙: pawn_to(u, .) | pawn_to(ur, enemy) | pawn_to(ul, enemy) | not holds(% + d#) pawn_double | en_passant";

#[test]
fn pawn_plies_are_chess_pawns() {
    agree(&pawns(), CHESS_PAWN, 300);
}

#[test]
fn knight_plies_are_chess_knights() {
    agree(KNIGHTS, "knight", 300);
}

#[test]
fn slider_plies_are_chess_sliders() {
    agree(BISHOPS, "bishop", 200);
    agree(ROOKS, "rook", 200);
    agree(QUEENS, "queen", 200);
}

#[test]
fn king_plies_with_the_global_condition_are_chess_kings() {
    agree(KINGS, "(king | castle_short | castle_long) not in_check", 300);
}

/// All of a side's plies, the document's with the readings above.
fn all_plies() -> String {
    [pawns().as_str(), KNIGHTS, BISHOPS, ROOKS, QUEENS, KINGS].join("\n")
}

/// The game of chess with the Referee's plies for moves, beside
/// chess.alg's: every position reached in two plies from each perft
/// position has the same successors under both.
#[test]
fn referee_chess_plays_as_chess_alg() {
    use crate::play::{Position, Rules};
    let text = format!(
        "{}\nref_white = clear_ep {}\ngame referee(start) = ref_white, mirrored(ref_white)\n",
        crate::testing::read("rules/chess.alg"),
        to_algebra(&all_plies()).unwrap()
    );
    let p = Program::from_text("rules/chess.alg", &text).unwrap_or_else(|e| panic!("{}", e.render()));
    let pieces = p.pieces().clone();
    let ours = Rules::new(p.game("referee").unwrap());
    let theirs = Rules::new(p.game("chess").unwrap());
    let mut seen = 0;
    for fen in FENS {
        let (board, black) = crate::record::fen::read(fen, &pieces).unwrap();
        let mut level = vec![Position {
            board,
            turn: usize::from(black),
        }];
        for _ in 0..2 {
            let mut next = vec![];
            for pos in &level {
                let sorted = |r: &Rules| {
                    let mut v: Vec<Vec<String>> = r
                        .successors(pos)
                        .unwrap()
                        .iter()
                        .map(|q| q.board.rows(&pieces))
                        .collect();
                    v.sort();
                    v
                };
                assert_eq!(
                    sorted(&ours),
                    sorted(&theirs),
                    "from {fen}, at\n{}",
                    pos.board.rows(&pieces).join("\n")
                );
                seen += 1;
                next.extend(theirs.successors(pos).unwrap());
            }
            // Every position of the first ply, and a spread of the second.
            level = next.into_iter().step_by(4).collect();
        }
    }
    assert!(seen > 30, "{seen} positions");
}

/// The document's plies read literally where they differ from FIDE chess:
/// its `clear` for sliders also keeps them off guarded squares, and its
/// castling wants the rook's square unguarded too.
#[test]
fn the_documents_literal_clear_is_stricter_than_chess() {
    let mut p = chess();
    let pieces = p.pieces().clone();
    let literal = prog(&mut p, &to_algebra("Rooks: [0, ?] if clear and not friend;").unwrap());
    let rook = prog(&mut p, "rook");
    // Along the file, the literal rook stops short of a8, which the black
    // rook on b8 guards; chess.alg's goes there, and along the rank.
    let b = crate::record::fen::read("1r5k/8/8/8/8/8/8/R6K w - - 0 1", &pieces)
        .unwrap()
        .0;
    let (lit, fide) = (boards(&pieces, &literal, &b, None), boards(&pieces, &rook, &b, None));
    assert!(
        lit.iter().all(|x| fide.contains(x)) && lit.len() < fide.len(),
        "{lit:?}"
    );
    assert_eq!(lit.len(), 6, "{lit:?}");

    let short =
        "Kings: [king * 2] if home and home[kings_rook] and clear[king, kings_rook] then move[kings_rook, [king]];";
    let literal = prog(&mut p, &to_algebra(short).unwrap());
    let fide = prog(&mut p, "castle_short");
    // The black rook on h8 attacks the white rook on h1, not the king's path.
    let b = crate::record::fen::read("k6r/8/8/8/8/8/8/4K2R w K - 0 1", &pieces)
        .unwrap()
        .0;
    assert_eq!(boards(&pieces, &literal, &b, None), vec![] as Vec<Vec<String>>);
    assert_eq!(boards(&pieces, &fide, &b, None).len(), 1);
    // With the h-file shut, both castle, to the same board.
    let b = crate::record::fen::read("k6r/7p/8/8/8/8/8/4K2R w K - 0 1", &pieces)
        .unwrap()
        .0;
    assert_eq!(boards(&pieces, &literal, &b, None), boards(&pieces, &fide, &b, None));
    assert_eq!(boards(&pieces, &literal, &b, None).len(), 1);
}

/// The document's long castling `[queen * 3]` takes the king to b1; its own
/// figure (and FIDE) puts it on c1, which `[queen * 2]` does.
#[test]
fn queen_side_castling_by_three_is_the_documents_slip() {
    let mut p = chess();
    let pieces = p.pieces().clone();
    let board = crate::record::fen::read("k7/8/8/8/8/8/8/R3K3 w Q - 0 1", &pieces)
        .unwrap()
        .0;
    let castle = |n: i32| {
        format!("Kings: [queen * {n}] if home and home[queens_rook] and clear[king, queens_rook] then move[queens_rook, [queen]];")
    };
    let three = boards(&pieces, &prog(&mut p, &to_algebra(&castle(3)).unwrap()), &board, None);
    let two = boards(&pieces, &prog(&mut p, &to_algebra(&castle(2)).unwrap()), &board, None);
    assert_eq!(three.len(), 1);
    assert_eq!(three[0][7], ".♔.♖....");
    assert_eq!(two, boards(&pieces, &prog(&mut p, "castle_long"), &board, None));
    assert_eq!(two[0][7], "..♔♖....");
}

#[test]
fn en_passant_reads_the_last_double_step() {
    let mut p = chess();
    let pieces = p.pieces().clone();
    // `passant` is the document's compound, spelled out.
    let spelled = "Pawns: [ahead + left] if enemy[left] and pawn[left] and last[left + [0, 2], left];";
    let ep = prog(&mut p, &to_algebra("Pawns: [ahead + left] if passant;").unwrap());
    let just_last = prog(&mut p, &to_algebra(spelled).unwrap());
    // A black pawn that has just moved two squares (FEN's en passant square)...
    let b = crate::record::fen::read("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", &pieces)
        .unwrap()
        .0;
    let taken = boards(&pieces, &ep, &b, None);
    assert_eq!(taken.len(), 1);
    assert_eq!(taken[0][2..4], ["...♙....".to_string(), "........".to_string()]);
    // ...is a target; one that moved earlier is not.
    let stale = crate::record::fen::read("4k3/8/8/3pP3/8/8/8/4K3 w - - 0 1", &pieces)
        .unwrap()
        .0;
    assert!(boards(&pieces, &ep, &stale, None).is_empty());
    // Without the capture's removal, the spelled-out form only moves.
    let moved = boards(&pieces, &just_last, &b, None);
    assert_eq!(moved.len(), 1);
    assert_eq!(moved[0][3], "...'pe....");
}

/// A board as glyph indices (`GLYPHS`), `b[y][x]` with `y` up.
fn grid(pieces: &Pieces, b: &[Vec<usize>]) -> Grid {
    let rows: Vec<String> = b.iter().rev().map(|r| r.iter().map(|i| GLYPHS[*i]).collect()).collect();
    Grid::parse(&rows.join("\n"), pieces).unwrap()
}

/// Whether an enemy sees square `s`, read directly off the board.
fn sees(b: &[Vec<usize>], s: Off) -> bool {
    let at = |q: Off| -> usize {
        if q.0 < 0 || q.1 < 0 || q.1 as usize >= b.len() || q.0 as usize >= b[0].len() {
            19
        } else {
            b[q.1 as usize][q.0 as usize]
        }
    };
    let is = |q: Off, set: u32| bit(at(q)) & set != 0;
    for (k, d) in [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)]
        .iter()
        .enumerate()
    {
        let slider = if k < 4 {
            B_ROOK | B_ROOK_HOME | B_QUEEN
        } else {
            B_BISHOP | B_QUEEN
        };
        let mut q = add(s, *d);
        while at(q) == 18 {
            q = add(q, *d);
        }
        if is(q, slider) || is(add(s, *d), B_KING | B_KING_HOME) {
            return true;
        }
    }
    let jumps = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)];
    jumps.iter().any(|j| is(add(s, *j), B_KNIGHT))
        || [(1, 1), (-1, 1)].iter().any(|d| is(add(s, *d), B_PAWN | B_PAWN_EP))
}

/// Each predicate on a ply of a piece without a header (a free `%`),
/// against a direct reading of the board in Rust, on random boards.
#[test]
fn predicates_agree_with_a_direct_reading() {
    let mut p = chess();
    let pieces = p.pieces().clone();
    let mut r = Rng(7);
    let atoms: [(&str, Option<u32>); 6] = [
        ("empty", Some(EMPTY)),
        ("enemy", Some(ENEMY)),
        ("friend", Some(FRIEND)),
        ("pawn", Some(PAWN)),
        ("guarded", None),
        ("threat", None),
    ];
    let squares = [
        ("", None),
        ("[left]", Some((-1, 0))),
        ("[[1, -1]]", Some((1, -1))),
        ("[ahead * 2]", Some((0, 2))),
    ];
    let targets = [
        ((0, 1), "[ahead]"),
        ((1, 2), "[+1, +2]"),
        ((-2, 0), "[left * 2]"),
        ((1, 1), "[ahead + right]"),
    ];
    let mut moved = 0;
    for _ in 0..100 {
        let (to, vtext) = targets[r.below(targets.len())];
        let lits: Vec<(bool, usize, Option<Off>, &str)> = (0..2)
            .map(|_| {
                let (s, o) = squares[r.below(squares.len())];
                (r.below(2) == 0, r.below(atoms.len()), o, s)
            })
            .collect();
        let both = r.below(2) == 0;
        let text = format!(
            "{vtext} if {};",
            lits.iter()
                .map(|(neg, a, _, s)| format!("{}{}{s}", if *neg { "not " } else { "" }, atoms[*a].0))
                .collect::<Vec<_>>()
                .join(if both { " and " } else { " or " })
        );
        let m = prog(&mut p, &to_algebra(&text).unwrap());
        for _ in 0..12 {
            // A 5×5 board, the piece (white) on its middle square.
            let mut b: Vec<Vec<usize>> = (0..5)
                .map(|_| (0..5).map(|_| [18, 18, 18, 19, r.below(18)][r.below(5)]).collect())
                .collect();
            b[2][2] = r.below(9);
            let at = |o: Off| b[(2 + o.1) as usize][(2 + o.0) as usize];
            let holds = |(neg, a, o, _): &(bool, usize, Option<Off>, &str)| {
                let q = o.unwrap_or(to);
                let v = match atoms[*a].1 {
                    Some(set) => bit(at(q)) & set != 0,
                    None => sees(&b, add((2, 2), q)),
                };
                v != *neg
            };
            let cond = if both {
                lits.iter().all(holds)
            } else {
                lits.iter().any(holds)
            };
            let want = if cond && at(to) != 19 {
                let mut after = b.clone();
                after[(2 + to.1) as usize][(2 + to.0) as usize] = b[2][2];
                after[2][2] = 18;
                moved += 1;
                vec![grid(&pieces, &after).rows(&pieces)]
            } else {
                vec![]
            };
            let got = boards(&pieces, &m, &grid(&pieces, &b), Some(Square::new(2, 2)));
            assert_eq!(got, want, "{text} on\n{}", grid(&pieces, &b).rows(&pieces).join("\n"));
        }
    }
    assert!(moved > 100, "only {moved} boards had a move");
}

/// Bad plies get a diagnostic whose span covers the culprit.
#[test]
fn bad_plies_are_reported_with_their_span() {
    let cases: [(&str, &str, &str); 22] = [
        ("Pawns: [ahead] if emptty;", "unknown predicate `emptty`", "emptty"),
        ("[ahaed] if empty;", "unknown vector `ahaed`", "ahaed"),
        ("[ahead if empty;", "expected `]`", "if"),
        ("[ahead] if (empty and enemy;", "expected `)`", ";"),
        ("[ahead + [1, 2] if empty;", "expected `]`", "if"),
        (
            "[0, ?] if open[[?, 1], [0, 1]];",
            "`?` stands only in a ply's own vector",
            "[?, 1]",
        ),
        ("[ahead * ?] if empty;", "a vector is multiplied by a number", "?"),
        (
            "Pawns: [ahead + left] if last_to[left];",
            "`last_to` alone cannot be read",
            "last_to[left]",
        ),
        (
            "Pawns: [ahead + left] if last[left, [0, 1]];",
            "only an enemy pawn's double step",
            "last[left, [0, 1]]",
        ),
        ("[ahead] if white;", "`white` is not read", "white"),
        ("Pawns: [ahead] if passant;", "`passant` reads the side", "passant"),
        ("[ahead] if home;", "does not remember", "home"),
        ("Knights: [1, 2] if home;", "does not remember", "home"),
        ("[ahead] $", "unexpected `$`", "$"),
        ("Dragons: [ahead];", "unknown header `dragons:`", "Dragons"),
        (
            "Kings: [king * 2] then move[[3, 0], [1, 0]];",
            "does not say what stands",
            "move[[3, 0], [1, 0]]",
        ),
        ("[0, 0];", "does not move the piece", "[0, 0]"),
        ("[ahead] if empty then fly[king];", "unknown action `fly`", "fly"),
        ("[1, 2] if open;", "not on one line", "open"),
        (
            "[ahead] if friend[[0, -1] + ahead];",
            "reads the piece's own square",
            "[ahead] if friend[[0, -1] + ahead]",
        ),
        ("[ahead] if empty and", "expected a predicate", ""),
        ("[99999999999, 1];", "number too large", "99999999999"),
    ];
    for (text, message, culprit) in cases {
        let e = match to_algebra(text) {
            Ok(alg) => panic!("{text} lowered to {alg}"),
            Err(e) => e,
        };
        let d = &e.0[0];
        assert!(d.message.contains(message), "{text}: {}", d.message);
        assert_eq!(&text[d.span.start..d.span.end], culprit, "{text}: {}", d.message);
        assert!(lower(text).is_err());
    }
    assert!(to_algebra("").unwrap_err().0[0].message.contains("no plies"));
}

/// Whatever the text, lowering answers without a panic, and what it
/// gives is algebra the elaborator reads.
#[test]
fn lowering_never_panics() {
    let words = [
        "[",
        "]",
        "(",
        ")",
        ",",
        ";",
        ":",
        "+",
        "-",
        "*",
        "?",
        "2",
        "0",
        "ahead",
        "left",
        "king",
        "queen",
        "if",
        "and",
        "or",
        "not",
        "then",
        "empty",
        "clear",
        "open",
        "home",
        "kings_rook",
        "passant",
        "last",
        "threat",
        "mutate",
        "move",
        "Kings",
        "Pawns",
        "Globally",
        "x",
        "ü",
    ];
    let mut r = Rng(3);
    let mut p = chess();
    let mut ok = 0;
    let valid = all_plies();
    for _ in 0..400 {
        // A valid list with a few words cut out or put in.
        let mut toks: Vec<&str> = valid.split_whitespace().collect();
        for _ in 0..1 + r.below(3) {
            let i = r.below(toks.len());
            if r.below(2) == 0 {
                toks.remove(i);
            } else {
                toks.insert(i, words[r.below(words.len())]);
            }
        }
        let text = toks.join(" ");
        if let Ok(alg) = to_algebra(&text) {
            ok += 1;
            if ok <= 4 {
                p.expr("ply", &alg).unwrap_or_else(|e| panic!("{text}: {}", e.render()));
                lower(&text).unwrap();
            }
        }
    }
    assert!(ok > 10, "{ok}");
}

/// The lowered tree is the one its printed text parses to, so
/// `translate` prints what a `referee"..."` literal means.
#[test]
fn the_tree_prints_as_the_text_that_parses_to_it() {
    let globals = [
        "Globally: not threat[king];",
        "Globally: threat[king] or not guarded[king];",
        "Globally: threat[king] and not threat[king];",
    ];
    let lists = [
        pawns(),
        KNIGHTS.into(),
        BISHOPS.into(),
        ROOKS.into(),
        QUEENS.into(),
        KINGS.into(),
        all_plies(),
    ]
    .into_iter()
    .chain(
        globals
            .iter()
            .map(|g| format!("[ahead] if empty or guarded[left] and not pawn[[1, -1]]; {g}")),
    )
    .chain([
        "Kings: [king] if home; Rooks: [ahead] if home;".into(),
        "[?, 0] if threat;".into(),
    ]);
    for text in lists {
        let mut tree = lower(&text).unwrap();
        let printed = to_algebra(&text).unwrap();
        let mut parsed = crate::parse::parse_expr(&printed).unwrap_or_else(|e| panic!("{}: {printed}", e.message));
        tree.respan(Span::default());
        parsed.respan(Span::default());
        assert!(tree == parsed, "{text}\n{printed}");
    }
}

/// The claims of theorems/referee.alg (proved) and
/// theorems/checked/referee.alg (held on enumeration): each ply list,
/// commented with its plies and defined by its lowering.
fn theorem_file(proved: bool) -> String {
    let pieces: [(&str, String, &str, bool); 6] = [
        ("referee_pawns", pawns(), "pawn_rank_2", false),
        ("referee_knights", KNIGHTS.into(), "knight", true),
        ("referee_bishops", BISHOPS.into(), "bishop", true),
        ("referee_rooks", ROOKS.into(), "rook", true),
        ("referee_queens", QUEENS.into(), "queen", true),
        (
            "referee_kings",
            KINGS.into(),
            "(king | castle_short | castle_long) not in_check",
            false,
        ),
    ];
    let mut out = String::from(THEOREM_HEAD);
    out.push_str(if proved { PROVED } else { CHECKED });
    for (name, plies, theirs, _) in pieces.into_iter().filter(|p| p.3 == proved) {
        out.push('\n');
        for line in plies.lines() {
            out.push_str(&format!("// {}\n", line.trim()));
        }
        out.push_str(&format!("{name} = {}\n", to_algebra(&plies).unwrap()));
        out.push_str(&format!("theorem {name}: {name} = {theirs}\n"));
    }
    // Written as `fmt` writes it, so the bundled files stay formatted.
    let file = crate::parse::parse_file(&out).expect("the theorem file parses");
    crate::parse::format_file(&file, &out)
}

const THEOREM_HEAD: &str = "// The formalized plies of Games::Chess::Referee's chess rules are the moves
// of rules/chess.alg. Each ply list is quoted in the comment above its
// lowering by algchess-core/src/notation/plies/ (`referee_theorems_are_current`
// checks this file; `cargo test --release --lib write_referee_theorems
// -- --ignored` writes it again).
//
// Where the document's text and FIDE part, the plies read as FIDE does, and
// algchess-core/src/notation/plies/ has tests showing the literal reading differs:
// sliders and the double step say `open` where the document says `clear` (its
// `clear` also keeps them off guarded squares); castling asks the king's
// square and the one it crosses to be unguarded, not the rook's; the long
// castling moves the king two squares, not the document's `[queen * 3]`; the
// rook's half of castling and promotion use the actions `move`, `mutate`.
";
const PROVED: &str = "//
// Proved by `algchess prove`. Pawns and kings are in checked/referee.alg.
import \"../rules/chess.alg\"
";
const CHECKED: &str = "//
// Not proved: saturation stops at its limits. Both hold on enumeration
// (`algchess check theorems/checked/referee.alg`: pawns on every board of up
// to 16 squares, kings on boards of up to 4 within the 10 s timeout) and on
// 10000 positions reached in play. Kept out of theorems/ so that `prove
// theorems/` stays quick.
import \"../../rules/chess.alg\"

// A pawn double-steps from the second rank only (the document's `home`);
// chess.alg's `pawn` also lets a pawn on the first rank do so.
pawn_rank_2 = %♙: pawn_to(u, .) | pawn_to(ur, enemy) | pawn_to(ul, enemy) | not holds(% + d#) pawn_double | en_passant
";

#[test]
fn referee_theorems_are_current() {
    for (path, proved) in [("theorems/referee.alg", true), ("theorems/checked/referee.alg", false)] {
        let file = std::fs::read_to_string(crate::testing::root().join(path)).unwrap_or_default();
        assert!(
            file == theorem_file(proved),
            "{path} is stale: run `cargo test --release --lib write_referee_theorems -- --ignored`"
        );
    }
}

#[test]
#[ignore = "writes theorems/referee.alg"]
fn write_referee_theorems() {
    let root = crate::testing::root();
    std::fs::create_dir_all(root.join("theorems/checked")).unwrap();
    std::fs::write(root.join("theorems/referee.alg"), theorem_file(true)).unwrap();
    std::fs::write(root.join("theorems/checked/referee.alg"), theorem_file(false)).unwrap();
}
