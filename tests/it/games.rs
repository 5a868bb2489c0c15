//! The games of `rules/`: tic-tac-toe, Othello and snake, played by the
//! evaluator. Every expected board and count here is written out by hand,
//! or (for tic-tac-toe) computed by the small enumerator below, which knows
//! nothing of the algebra.

use algchess::Program;
use algchess::Square;
use algchess::{compile, results, Grid, State};
use algchess::{perft, Pieces, Position, Rules};
use std::collections::BTreeSet;
use std::path::Path;

fn load(file: &str) -> Program {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("rules").join(file);
    algchess::load(&path).unwrap_or_else(|e| panic!("{file}: {e}"))
}

fn grid(pieces: &Pieces, rows: &[&str]) -> Grid {
    Grid::parse(&rows.join("\n"), pieces).unwrap_or_else(|e| panic!("{rows:?}: {}", e.message))
}

/// Every board `expr` leads to from `rows` (top to bottom), with the piece
/// of interest on `poi` if given, as sorted rows.
fn run(prog: &mut Program, expr: &str, rows: &[&str], poi: Option<(i32, i32)>) -> BTreeSet<Vec<String>> {
    let term = prog.expr("test", expr).unwrap_or_else(|e| panic!("{expr}: {e}"));
    let compiled = compile(&term).unwrap_or_else(|e| panic!("{expr}: {e:?}"));
    let start = State {
        board: grid(prog.pieces(), rows),
        poi: poi.map(|(x, y)| Square::new(x, y)),
    };
    results(&compiled, &start)
        .expect("within the evaluation budget")
        .iter()
        .map(|s| s.board.rows(prog.pieces()))
        .collect()
}

fn boards(expected: &[&[&str]]) -> BTreeSet<Vec<String>> {
    expected
        .iter()
        .map(|b| b.iter().map(|r| r.to_string()).collect())
        .collect()
}

fn position(pieces: &Pieces, rows: &[&str], turn: usize) -> Position {
    Position {
        board: grid(pieces, rows),
        turn,
    }
}

// ---------------------------------------------------------------- tic-tac-toe

/// An independent tic-tac-toe: 0 empty, 1 X, 2 O, squares numbered row by
/// row.
mod brute {
    const LINES: [[usize; 3]; 8] = [
        [0, 1, 2],
        [3, 4, 5],
        [6, 7, 8],
        [0, 3, 6],
        [1, 4, 7],
        [2, 5, 8],
        [0, 4, 8],
        [2, 4, 6],
    ];

    pub fn winner(b: &[u8; 9]) -> Option<u8> {
        LINES
            .iter()
            .find(|l| b[l[0]] != 0 && b[l[0]] == b[l[1]] && b[l[1]] == b[l[2]])
            .map(|l| b[l[0]])
    }

    /// Positions at each depth (index 0 is the empty board), and finished
    /// games by outcome: X wins, O wins, draws.
    #[derive(Default)]
    pub struct Tally {
        pub per_depth: [u64; 10],
        pub x_wins: u64,
        pub o_wins: u64,
        pub draws: u64,
    }

    pub fn walk(b: &mut [u8; 9], depth: usize, t: &mut Tally) {
        t.per_depth[depth] += 1;
        match winner(b) {
            Some(1) => return t.x_wins += 1,
            Some(_) => return t.o_wins += 1,
            None if depth == 9 => return t.draws += 1,
            None => {}
        }
        let mark = if depth.is_multiple_of(2) { 1 } else { 2 };
        for i in 0..9 {
            if b[i] == 0 {
                b[i] = mark;
                walk(b, depth + 1, t);
                b[i] = 0;
            }
        }
    }
}

/// Leaves at each depth from `pos`, with `perft`, for depths `1..=max`.
fn perft_by_depth(rules: &Rules, pos: &Position, max: u32) -> Vec<u64> {
    (1..=max)
        .map(|d| perft(rules, pos, d).expect("within budget"))
        .collect()
}

/// Positions with no move below `pos` (finished games), counting `pos`.
fn finished_games(rules: &Rules, pos: &Position) -> u64 {
    let next = rules.successors(pos).expect("within budget");
    if next.is_empty() {
        return 1;
    }
    next.iter().map(|p| finished_games(rules, p)).sum()
}

#[test]
fn brute_force_tictactoe_matches_the_known_counts() {
    let mut t = brute::Tally::default();
    brute::walk(&mut [0; 9], 0, &mut t);
    assert_eq!(&t.per_depth[..6], &[1, 9, 72, 504, 3024, 15120]);
    assert_eq!((t.x_wins, t.o_wins, t.draws), (131_184, 77_904, 46_080));
    assert_eq!(t.x_wins + t.o_wins + t.draws, 255_168);
}

#[test]
fn tictactoe_perft_and_game_count_agree_with_brute_force() {
    let prog = load("tictactoe.alg");
    let rules = Rules::new(prog.game("tictactoe").expect("declared"));
    let start = rules.start();
    let mut t = brute::Tally::default();
    brute::walk(&mut [0; 9], 0, &mut t);

    // Depth by depth, perft below each first move in a thread of its own,
    // then summed: the leaves at depth d are those at d - 1 below each
    // first move.
    let first = rules.successors(&start).unwrap();
    assert_eq!(first.len(), 9);
    let (below, games): (Vec<Vec<u64>>, Vec<u64>) = std::thread::scope(|s| {
        let handles: Vec<_> = first
            .iter()
            .map(|p| s.spawn(|| (perft_by_depth(&rules, p, 8), finished_games(&rules, p))))
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).unzip()
    });
    let mut by_depth = vec![perft(&rules, &start, 1).unwrap()];
    for d in 0..8 {
        by_depth.push(below.iter().map(|v| v[d]).sum());
    }
    assert_eq!(by_depth, t.per_depth[1..].to_vec());
    assert_eq!(&by_depth[..5], &[9, 72, 504, 3024, 15120]);
    assert_eq!(games.iter().sum::<u64>(), 255_168);
    // `perft` from the root itself, for the shallow depths.
    assert_eq!(perft_by_depth(&rules, &start, 5), vec![9, 72, 504, 3024, 15120]);
}

#[test]
fn tictactoe_stops_after_a_win() {
    let prog = load("tictactoe.alg");
    let rules = Rules::new(prog.game("tictactoe").expect("declared"));
    // X has the top row; neither side may move on.
    let x_won = ["'X'X'X", "'O'O.", "..."];
    assert!(rules
        .successors(&position(&rules.pieces, &x_won, 1))
        .unwrap()
        .is_empty());
    assert!(rules
        .successors(&position(&rules.pieces, &x_won, 0))
        .unwrap()
        .is_empty());
    // O has the diagonal from the bottom left.
    let o_won = ["'X'X'O", "'X'O.", "'O.."];
    assert!(rules
        .successors(&position(&rules.pieces, &o_won, 0))
        .unwrap()
        .is_empty());
    // O has the middle column.
    let o_column = ["'X'O'X", ".'O.", "'X'O."];
    assert!(rules
        .successors(&position(&rules.pieces, &o_column, 0))
        .unwrap()
        .is_empty());
    // Two in a row is not a win: O may play any of the six empty squares.
    let open = ["'X'X.", "'O..", "..."];
    assert_eq!(rules.count(&position(&rules.pieces, &open, 1)).unwrap(), 6);
    let mut prog = prog;
    assert_eq!(
        run(&mut prog, "o_move", &open, None),
        boards(&[
            &["'X'X'O", "'O..", "..."],
            &["'X'X.", "'O'O.", "..."],
            &["'X'X.", "'O.'O", "..."],
            &["'X'X.", "'O..", "'O.."],
            &["'X'X.", "'O..", ".'O."],
            &["'X'X.", "'O..", "..'O"],
        ])
    );
}

// -------------------------------------------------------------------- Othello

#[test]
fn othello_perft_from_the_start() {
    let prog = load("othello.alg");
    let rules = Rules::new(prog.game("othello").expect("declared"));
    let start = rules.start();
    // White on d4 and e5, black on d5 and e4 (rows top to bottom).
    assert_eq!(
        start.board.rows(&rules.pieces),
        [
            "........",
            "........",
            "........",
            "...●○...",
            "...○●...",
            "........",
            "........",
            "........"
        ]
    );
    assert_eq!(perft_by_depth(&rules, &start, 6), vec![4, 12, 56, 244, 1396, 8200]);
}

/// Othello's published perft counts, a pass counted as a move.
const OTHELLO_PERFT: [u64; 9] = [4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288];

#[test]
#[ignore = "depth 9 takes minutes; run by hand"]
fn othello_perft_to_depth_nine() {
    let prog = load("othello.alg");
    let rules = Rules::new(prog.game("othello").expect("declared"));
    let start = rules.start();
    let t = std::time::Instant::now();
    assert_eq!(perft(&rules, &start, 9).unwrap(), OTHELLO_PERFT[8]);
    eprintln!("othello perft 9 in {:.1} s", t.elapsed().as_secs_f64());
}

#[test]
fn othello_passes_and_ends_by_count() {
    use algchess::Match;
    let prog = load("othello.alg");
    let rules = Rules::new(prog.game("othello").expect("declared"));
    // Black cannot move: it passes, the board as it was, white to move.
    let stuck = position(&rules.pieces, &["○●."], 0);
    let next = rules.successors(&stuck).unwrap();
    assert_eq!(next, vec![position(&rules.pieces, &["○●."], 1)]);
    // White takes the disc; neither side can move: white has more discs.
    let mut m = Match::new(&rules, stuck, 0, 1).unwrap();
    assert_eq!(m.end().unwrap(), None);
    m.play(0).unwrap();
    assert_eq!(m.legal().len(), 1);
    m.play(0).unwrap();
    assert_eq!(m.pos.board.rows(&rules.pieces), ["○○○"]);
    let end = m.end().unwrap().expect("over");
    assert_eq!((end.ending.name(), end.result().as_str()), ("most_pieces", "0-1"));
    // With no move for either side, no pass.
    assert!(rules
        .successors(&position(&rules.pieces, &["○○○"], 0))
        .unwrap()
        .is_empty());
}

#[test]
fn tictactoe_ends_in_a_line_or_a_draw() {
    use algchess::Match;
    let prog = load("tictactoe.alg");
    let rules = Rules::new(prog.game("tictactoe").expect("declared"));
    let mut won = Match::new(&rules, position(&rules.pieces, &["'X'X'X", "'O'O.", "..."], 1), 0, 1).unwrap();
    let end = won.end().unwrap().expect("over");
    assert_eq!((end.ending.name(), end.result().as_str()), ("lost", "1-0"));
    let mut full = Match::new(
        &rules,
        position(&rules.pieces, &["'X'O'X", "'X'O'O", "'O'X'X"], 1),
        0,
        1,
    )
    .unwrap();
    let end = full.end().unwrap().expect("over");
    assert_eq!((end.ending.name(), end.result().as_str()), ("no_moves", "1/2-1/2"));
}

#[test]
fn othello_first_moves() {
    let mut prog = load("othello.alg");
    let start = [
        "........",
        "........",
        "........",
        "...●○...",
        "...○●...",
        "........",
        "........",
        "........",
    ];
    // Black's four openings: d3, c4, f5, e6, each flipping one disc.
    assert_eq!(
        run(&mut prog, "black", &start, None),
        boards(&[
            &[
                "........",
                "........",
                "........",
                "...●○...",
                "...●●...",
                "...●....",
                "........",
                "........"
            ],
            &[
                "........",
                "........",
                "........",
                "...●○...",
                "..●●●...",
                "........",
                "........",
                "........"
            ],
            &[
                "........",
                "........",
                "........",
                "...●●●..",
                "...○●...",
                "........",
                "........",
                "........"
            ],
            &[
                "........",
                "........",
                "....●...",
                "...●●...",
                "...○●...",
                "........",
                "........",
                "........"
            ],
        ])
    );
}

/// Black's one move is a1: a line of six up the a-file and one of one along
/// the first rank, flipped together. The diagonal b2 is not closed by a
/// black disc (c3 is empty), so it stays.
const CORNER: [&str; 8] = [
    "●.......",
    "○.......",
    "○.......",
    "○.......",
    "○.......",
    "○.......",
    "○○......",
    ".○●.....",
];

#[test]
fn othello_flips_two_lines_one_of_six() {
    let mut prog = load("othello.alg");
    assert_eq!(
        run(&mut prog, "black", &CORNER, None),
        boards(&[&[
            "●.......",
            "●.......",
            "●.......",
            "●.......",
            "●.......",
            "●.......",
            "●○......",
            "●●●....."
        ]])
    );
    // White's one move is d1, taking c1 back; the corner disc a8 cannot be
    // flanked.
    assert_eq!(
        run(&mut prog, "white", &CORNER, None),
        boards(&[&[
            "●.......",
            "○.......",
            "○.......",
            "○.......",
            "○.......",
            "○.......",
            "○○......",
            ".○○○...."
        ]])
    );
}

/// A disc on d4 (the POI) closes three lines: d5-d6 up to d7, e5 up to f6
/// and e3-f2 down to g1. Three are not closed: d3-d1 and c5-b6-a7 run to
/// the edge, and c4 is followed by an empty square. e4 is black already,
/// and c3 is empty.
#[test]
fn othello_flips_in_three_directions_and_no_more() {
    let mut prog = load("othello.alg");
    let board = [
        "........",
        "○..●....",
        ".○.○.●..",
        "..○○○...",
        "..○.●...",
        "...○○...",
        "...○.○..",
        "...○..●.",
    ];
    let place = "not (not can_flip) flip_all (% -> ●)";
    assert_eq!(
        run(&mut prog, place, &board, Some((3, 3))),
        boards(&[&[
            "........",
            "○..●....",
            ".○.●.●..",
            "..○●●...",
            "..○●●...",
            "...○●...",
            "...○.●..",
            "...○..●.",
        ]])
    );
    // From c3 no line is closed: no move there.
    assert!(run(&mut prog, place, &board, Some((2, 2))).is_empty());
}

// ---------------------------------------------------------------------- snake

/// Snake pieces on the board: head, body and tail, not food.
fn snake_length(rows: &[String]) -> usize {
    rows.iter()
        .flat_map(|r| r.chars())
        .filter(|c| !matches!(c, '.' | '#' | '◆'))
        .count()
}

/// The game's start: a snake of three heading up, food straight ahead.
const SNAKE_START: [&str; 5] = ["..◆..", "..▲..", "..↑..", "..⇧..", "....."];

#[test]
fn snake_start_and_one_move() {
    let mut prog = load("snake.alg");
    let rules = Rules::new(prog.game("snake").expect("declared"));
    assert_eq!(rules.start().board.rows(&rules.pieces), SNAKE_START);
    let after = run(&mut prog, "snake_move", &SNAKE_START, None);
    let eaten = ["..▲..", "..↑..", "..↑..", "..⇧..", "....."];
    assert_eq!(
        after,
        boards(&[
            // Onto the food: the tail stays, the snake is one longer.
            &eaten,
            // Left and right: the tail moves up one segment.
            &["..◆..", ".◀←..", "..⇧..", ".....", "....."],
            &["..◆..", "..→▶.", "..⇧..", ".....", "....."],
        ])
    );
    for b in &after {
        let grown = b.as_slice() == eaten.map(String::from).as_slice();
        assert_eq!(snake_length(b), if grown { 4 } else { 3 });
    }
}

#[test]
fn snake_turns_in_all_four_headings() {
    let mut prog = load("snake.alg");
    let cases: [(&[&str], &[&[&str]]); 4] = [
        (
            &[".....", ".....", "..▲..", "..↑..", "..⇧.."],
            &[
                &[".....", "..▲..", "..↑..", "..⇧..", "....."],
                &[".....", ".....", ".◀←..", "..⇧..", "....."],
                &[".....", ".....", "..→▶.", "..⇧..", "....."],
            ],
        ),
        (
            &[".....", ".....", "..◀←⇦", ".....", "....."],
            &[
                &[".....", ".....", ".◀←⇦.", ".....", "....."],
                &[".....", ".....", "..↓⇦.", "..▼..", "....."],
                &[".....", "..▲..", "..↑⇦.", ".....", "....."],
            ],
        ),
        (
            &["..⇩..", "..↓..", "..▼..", ".....", "....."],
            &[
                &[".....", "..⇩..", "..↓..", "..▼..", "....."],
                &[".....", "..⇩..", "..→▶.", ".....", "....."],
                &[".....", "..⇩..", ".◀←..", ".....", "....."],
            ],
        ),
        (
            &[".....", ".....", "⇨→▶..", ".....", "....."],
            &[
                &[".....", ".....", ".⇨→▶.", ".....", "....."],
                &[".....", "..▲..", ".⇨↑..", ".....", "....."],
                &[".....", ".....", ".⇨↓..", "..▼..", "....."],
            ],
        ),
    ];
    for (start, expected) in cases {
        assert_eq!(
            run(&mut prog, "snake_move", start, None),
            boards(expected),
            "from {start:?}"
        );
    }
}

#[test]
fn snake_grows_when_turning_onto_food() {
    let mut prog = load("snake.alg");
    // Heading left with food to its right-hand side (up): a snake of two
    // turns onto it and keeps its tail; or goes straight on or turns down.
    assert_eq!(
        run(&mut prog, "snake_move", &["....", ".◆..", ".◀⇦.", "...."], None),
        boards(&[
            &["....", ".▲..", ".↑⇦.", "...."],
            &["....", ".◆..", "◀⇦..", "...."],
            &["....", ".◆..", ".⇩..", ".▼.."],
        ])
    );
}

#[test]
fn snake_boxed_in_has_no_move() {
    let mut prog = load("snake.alg");
    let rules = Rules::new(prog.game("snake").expect("declared"));
    // Up and left are off the board, right is its own tail.
    let corner = ["▲⇩.", "↑←."];
    // Left is a wall, up a wall inside the box, down its own body.
    let walled = [".#.", "#◀←", "⇨→↑"];
    for b in [&corner[..], &walled[..]] {
        assert!(run(&mut prog, "snake_move", b, None).is_empty(), "{b:?}");
        assert!(
            rules.successors(&position(&rules.pieces, b, 0)).unwrap().is_empty(),
            "{b:?}"
        );
    }
    // Open the way up and there is exactly that move.
    assert_eq!(
        run(&mut prog, "snake_move", &["...", "#◀←", "⇨→↑"], None),
        boards(&[&[".▲.", "#↑←", ".⇨↑"]])
    );
}

#[test]
fn snake_perft_from_the_start() {
    let prog = load("snake.alg");
    let rules = Rules::new(prog.game("snake").expect("declared"));
    // 1: up onto the food, left, right. 2: after eating (head on the top
    // edge) only left and right; after turning left or right, all three.
    // 3: after eating then turning, the head on the top edge has 2 moves
    // each (4); after turning right, straight on to the edge leaves 2, up
    // beside the food 2 (the food is allowed), down 3 (the tail has left
    // its square): 7, and the same to the left.
    assert_eq!(perft_by_depth(&rules, &rules.start(), 3), vec![3, 8, 18]);
}
