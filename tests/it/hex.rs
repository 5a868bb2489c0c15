//! Gliński's hexagonal chess and the hex grid.
//!
//! The rules of `rules/glinski.alg` are cross-checked against a second,
//! independent description of the game: the move generator below, written
//! from the rules of the game in its own coordinates (each cell's centre in
//! doubled units: column, and half cells of height), knowing nothing of the
//! algebra's movements. On every position reachable in three plies from
//! the start, both must give the same set of successors.

use crate::common::{run, run_input, TempDir};
use algchess::{compile, results, Content, Grid, PieceId, Pieces, Program, State};
use algchess::{perft, Position, Rules, Square};
use rayon::prelude::*;
use std::collections::{BTreeSet, HashMap, HashSet};
use std::path::Path;

fn load(file: &str) -> Program {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
    algchess::load(&path).unwrap_or_else(|e| panic!("{file}: {e}"))
}

// ---- The independent description ----------------------------------------

/// Cell centres in doubled units: `X` the file (a = 0, no j), `Y` in half
/// cells from the board's lowest point, f1.
type Pt = (i32, i32);

/// The six edge directions, counter-clockwise from straight up.
const EDGE: [Pt; 6] = [(0, 2), (-1, 1), (-1, -1), (0, -2), (1, -1), (1, 1)];

#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
enum Kind {
    Pawn,
    /// A pawn that has just stepped twice.
    PawnEp,
    Knight,
    Bishop,
    Rook,
    Queen,
    King,
}

type Piece = (bool, Kind); // (white, kind)

struct Hex {
    cells: Vec<Pt>,
    index: HashMap<Pt, usize>,
}

impl Hex {
    /// File `f` (0..11) has `11 - |f - 5|` cells; its lowest sits `|f - 5|`
    /// half cells above f1.
    fn new() -> Hex {
        let mut cells = vec![];
        for f in 0..11i32 {
            for k in 1..=11 - (f - 5).abs() {
                cells.push((f, 2 * (k - 1) + (f - 5).abs()));
            }
        }
        let index = cells.iter().enumerate().map(|(i, &p)| (p, i)).collect();
        Hex { cells, index }
    }

    fn at(&self, p: Pt) -> Option<usize> {
        self.index.get(&p).copied()
    }

    /// The cell named as on Gliński's board: `f5`.
    fn named(&self, name: &str) -> usize {
        let f = "abcdefghikl".find(&name[..1]).unwrap() as i32;
        let k: i32 = name[1..].parse().unwrap();
        self.at((f, 2 * (k - 1) + (f - 5).abs())).unwrap()
    }

    /// The rules file's axial coordinates of a cell: its board is rebased
    /// so that file a is `x = 0` and f1 is `y = 0`.
    fn axial(&self, i: usize) -> Square {
        let (x, y2) = self.cells[i];
        Square::new(x, (y2 - x + 5) / 2)
    }

    fn last_of_file(&self, i: usize, white: bool) -> bool {
        let (x, y) = self.cells[i];
        self.at((x, if white { y + 2 } else { y - 2 })).is_none()
    }
}

fn add(p: Pt, d: Pt) -> Pt {
    (p.0 + d.0, p.1 + d.1)
}

fn diagonals() -> Vec<Pt> {
    (0..6).map(|i| add(EDGE[i], EDGE[(i + 1) % 6])).collect()
}

fn knight_leaps() -> Vec<Pt> {
    let mut v = vec![];
    for i in 0..6 {
        let two = (2 * EDGE[i].0, 2 * EDGE[i].1);
        v.push(add(two, EDGE[(i + 1) % 6]));
        v.push(add(two, EDGE[(i + 5) % 6]));
    }
    v
}

type Board = Vec<Option<Piece>>;

struct Game {
    hex: Hex,
    diag: Vec<Pt>,
    leaps: Vec<Pt>,
    white_home: HashSet<usize>,
    black_home: HashSet<usize>,
    ids: HashMap<Piece, PieceId>,
    /// Gliński's pieces, as its rule file declares them.
    pieces: Pieces,
}

impl Game {
    fn new(pieces: &Pieces) -> Game {
        let hex = Hex::new();
        let home = |names: &str| names.split(' ').map(|n| hex.named(n)).collect();
        let white_home = home("b1 c2 d3 e4 f5 g4 h3 i2 k1");
        let black_home = home("b7 c7 d7 e7 f7 g7 h7 i7 k7");
        let mut ids = HashMap::new();
        for (white, kind, glyph) in [
            (true, Kind::Pawn, "♙"),
            (true, Kind::PawnEp, "'Pe"),
            (true, Kind::Knight, "♘"),
            (true, Kind::Bishop, "♗"),
            (true, Kind::Rook, "♖"),
            (true, Kind::Queen, "♕"),
            (true, Kind::King, "♔"),
            (false, Kind::Pawn, "♟"),
            (false, Kind::PawnEp, "'pe"),
            (false, Kind::Knight, "♞"),
            (false, Kind::Bishop, "♝"),
            (false, Kind::Rook, "♜"),
            (false, Kind::Queen, "♛"),
            (false, Kind::King, "♚"),
        ] {
            ids.insert((white, kind), pieces.lookup(glyph).expect("declared by glinski.alg"));
        }
        Game {
            hex,
            diag: diagonals(),
            leaps: knight_leaps(),
            white_home,
            black_home,
            ids,
            pieces: pieces.clone(),
        }
    }

    fn start(&self) -> Board {
        let mut b: Board = vec![None; self.hex.cells.len()];
        let mut put = |white: bool, kind: Kind, cells: &str| {
            for n in cells.split(' ') {
                b[self.hex.named(n)] = Some((white, kind));
            }
        };
        put(true, Kind::King, "g1");
        put(true, Kind::Queen, "e1");
        put(true, Kind::Rook, "c1 i1");
        put(true, Kind::Knight, "d1 h1");
        put(true, Kind::Bishop, "f1 f2 f3");
        put(true, Kind::Pawn, "b1 c2 d3 e4 f5 g4 h3 i2 k1");
        put(false, Kind::King, "g10");
        put(false, Kind::Queen, "e10");
        put(false, Kind::Rook, "c8 i8");
        put(false, Kind::Knight, "d9 h9");
        put(false, Kind::Bishop, "f9 f10 f11");
        put(false, Kind::Pawn, "b7 c7 d7 e7 f7 g7 h7 i7 k7");
        b
    }

    fn to_grid(&self, b: &Board) -> Grid {
        let mut g = Grid::off(Square::ORIGIN, 11, 11);
        for (i, c) in b.iter().enumerate() {
            g.put(
                self.hex.axial(i),
                Some(c.map_or(Content::Empty, |p| Content::Piece(self.ids[&p]))),
            );
        }
        g
    }

    fn read_grid(&self, g: &Grid) -> Board {
        let back: HashMap<PieceId, Piece> = self.ids.iter().map(|(k, v)| (*v, *k)).collect();
        (0..self.hex.cells.len())
            .map(|i| match g.get(self.hex.axial(i)).expect("on the board") {
                Content::Empty => None,
                Content::Piece(p) => Some(back[&p]),
            })
            .collect()
    }

    /// Cells a piece of `white` on `from` attacks.
    fn attacks(&self, b: &Board, from: usize, piece: Piece, out: &mut Vec<usize>) {
        let p = self.hex.cells[from];
        let (white, kind) = piece;
        let ray = |dirs: &[Pt], out: &mut Vec<usize>| {
            for &d in dirs {
                let mut q = add(p, d);
                while let Some(i) = self.hex.at(q) {
                    out.push(i);
                    if b[i].is_some() {
                        break;
                    }
                    q = add(q, d);
                }
            }
        };
        let step = |dirs: &[Pt], out: &mut Vec<usize>| out.extend(dirs.iter().filter_map(|&d| self.hex.at(add(p, d))));
        match kind {
            Kind::Pawn | Kind::PawnEp => {
                let caps: [Pt; 2] = if white { [EDGE[1], EDGE[5]] } else { [EDGE[2], EDGE[4]] };
                step(&caps, out);
            }
            Kind::Knight => step(&self.leaps, out),
            Kind::Bishop => ray(&self.diag, out),
            Kind::Rook => ray(&EDGE, out),
            Kind::Queen => {
                ray(&EDGE, out);
                ray(&self.diag, out);
            }
            Kind::King => {
                step(&EDGE, out);
                step(&self.diag, out);
            }
        }
    }

    fn in_check(&self, b: &Board, white: bool) -> bool {
        let king = b.iter().position(|c| *c == Some((white, Kind::King)));
        let Some(king) = king else { return false };
        let mut seen = vec![];
        for (i, c) in b.iter().enumerate() {
            if let Some(p) = c {
                if p.0 != white {
                    seen.clear();
                    self.attacks(b, i, *p, &mut seen);
                    if seen.contains(&king) {
                        return true;
                    }
                }
            }
        }
        false
    }

    /// Every board the side to move can leave, its king not attacked.
    fn moves(&self, b: &Board, white: bool) -> Vec<Board> {
        let mut b = b.clone();
        // A double step of the mover's own can no longer be taken.
        for c in b.iter_mut() {
            if *c == Some((white, Kind::PawnEp)) {
                *c = Some((white, Kind::Pawn));
            }
        }
        let mut out = vec![];
        let mut targets = vec![];
        for from in 0..b.len() {
            let Some(piece) = b[from] else { continue };
            if piece.0 != white {
                continue;
            }
            let mut emit = |to: usize, put: Piece, also_clear: Option<usize>| {
                let mut n = b.clone();
                n[from] = None;
                if let Some(c) = also_clear {
                    n[c] = None;
                }
                n[to] = Some(put);
                out.push(n);
            };
            if piece.1 == Kind::Pawn {
                let fwd = if white { EDGE[0] } else { EDGE[3] };
                let p = self.hex.cells[from];
                let promote = |to: usize| -> Vec<Piece> {
                    if self.hex.last_of_file(to, white) {
                        [Kind::Queen, Kind::Rook, Kind::Bishop, Kind::Knight]
                            .map(|k| (white, k))
                            .to_vec()
                    } else {
                        vec![(white, Kind::Pawn)]
                    }
                };
                if let Some(one) = self.hex.at(add(p, fwd)).filter(|&i| b[i].is_none()) {
                    for put in promote(one) {
                        emit(one, put, None);
                    }
                    let home = if white { &self.white_home } else { &self.black_home };
                    if home.contains(&from) {
                        if let Some(two) = self.hex.at(add(add(p, fwd), fwd)).filter(|&i| b[i].is_none()) {
                            emit(two, (white, Kind::PawnEp), None);
                        }
                    }
                }
                targets.clear();
                self.attacks(&b, from, piece, &mut targets);
                for &to in &targets {
                    match b[to] {
                        Some((w, _)) if w != white => {
                            for put in promote(to) {
                                emit(to, put, None);
                            }
                        }
                        None => {
                            // En passant: the enemy pawn that stepped twice
                            // over `to` stands one cell behind it, as seen
                            // by the mover.
                            let back = (-fwd.0, -fwd.1);
                            let beyond = self.hex.at(add(self.hex.cells[to], back));
                            if let Some(e) = beyond.filter(|&e| b[e] == Some((!white, Kind::PawnEp))) {
                                emit(to, piece, Some(e));
                            }
                        }
                        _ => {}
                    }
                }
                continue;
            }
            targets.clear();
            self.attacks(&b, from, piece, &mut targets);
            for &to in &targets {
                if b[to].is_none_or(|(w, _)| w != white) {
                    emit(to, piece, None);
                }
            }
        }
        out.retain(|n| !self.in_check(n, white));
        out
    }
}

// ---- The cross-check ------------------------------------------------------

/// Compares the successors of every distinct position up to `plies` from
/// the start, by the rules and by `theirs`: the positions checked, and the
/// successors compared.
fn cross_check(plies: usize, theirs: &(dyn Fn(&Position) -> BTreeSet<Grid> + Sync)) -> (usize, usize) {
    let prog = load("rules/glinski.alg");
    let rules = Rules::new(prog.game("glinski").unwrap());
    let start = rules.start();
    let mut level: Vec<Position> = vec![start];
    let mut checked = 0;
    let mut compared = 0;
    for depth in 0..=plies {
        let outcomes: Vec<(usize, Vec<Position>)> = level
            .par_iter()
            .map(|pos| {
                let ours: BTreeSet<Grid> = rules.successors(pos).unwrap().into_iter().map(|p| p.board).collect();
                let theirs = theirs(pos);
                if ours != theirs {
                    let show = |g: &Grid| g.hex_lines(&rules.pieces).join("\n");
                    let only = |a: &BTreeSet<Grid>, b: &BTreeSet<Grid>| {
                        a.difference(b).take(2).map(show).collect::<Vec<_>>().join("\n\n")
                    };
                    panic!(
                        "at depth {depth}, from\n{}\nonly by the rules:\n{}\nonly by the other description:\n{}",
                        show(&pos.board),
                        only(&ours, &theirs),
                        only(&theirs, &ours)
                    );
                }
                let next = (pos.turn + 1) % 2;
                (
                    ours.len(),
                    ours.into_iter().map(|board| Position { board, turn: next }).collect(),
                )
            })
            .collect();
        checked += level.len();
        compared += outcomes.iter().map(|o| o.0).sum::<usize>();
        if depth < plies {
            let unique: HashSet<Position> = outcomes.into_iter().flat_map(|o| o.1).collect();
            level = unique.into_iter().collect();
        }
    }
    (checked, compared)
}

/// The successors by the independent generator.
fn generator() -> impl Fn(&Position) -> BTreeSet<Grid> + Sync {
    let prog = load("rules/glinski.alg");
    let game = Game::new(prog.pieces());
    let rules = Rules::new(prog.game("glinski").unwrap());
    assert_eq!(rules.start().board.size(), 91);
    assert_eq!(
        rules.start().board,
        game.to_grid(&game.start()),
        "the start positions differ"
    );
    move |pos: &Position| {
        let board = game.read_grid(&pos.board);
        game.moves(&board, pos.turn == 0)
            .iter()
            .map(|b| game.to_grid(b))
            .collect()
    }
}

/// The successors by rules/glinski_paths.alg: the pieces but pawns written
/// as seed 001's path regexes.
fn paths() -> impl Fn(&Position) -> BTreeSet<Grid> + Sync {
    let prog = load("rules/glinski_paths.alg");
    let rules = Rules::new(prog.game("glinski_paths").unwrap());
    move |pos: &Position| rules.successors(pos).unwrap().into_iter().map(|p| p.board).collect()
}

/// Every position reachable in three plies is made by both descriptions
/// from the same predecessor, and each predecessor's successors agree.
#[test]
fn glinski_agrees_with_an_independent_move_generator_to_depth_3() {
    // 1 + 51 + 2,586 distinct positions; their successors are the
    // 51 + 2,586 + 137,858 positions after one to three plies (perft 1-3).
    assert_eq!(cross_check(2, &generator()), (2638, 140_495));
}

/// One ply further: 95,585 positions. About a minute on two cores, so run
/// on demand: `cargo test --release --test hex -- --ignored`.
#[test]
#[ignore]
fn glinski_agrees_with_an_independent_move_generator_to_depth_4() {
    let (checked, _) = cross_check(3, &generator());
    assert_eq!(checked, 2638 + 92_947);
}

/// The path-regex pieces make the same successors as the algebra's on
/// every position up to two plies from the start (successors to depth 3).
#[test]
fn glinski_path_pieces_agree_with_the_algebra_to_depth_3() {
    assert_eq!(cross_check(2, &paths()), (2638, 140_495));
}

/// And on every position three plies from the start (successors to depth
/// 4): `cargo test --release --test hex -- --ignored`.
#[test]
#[ignore]
fn glinski_path_pieces_agree_with_the_algebra_to_depth_4() {
    let (checked, compared) = cross_check(3, &paths());
    assert_eq!(checked, 2638 + 92_947);
    // Their successors, position by position, number 4,896,980.
    assert_eq!(compared, 140_495 + 4_896_980);
}

#[test]
fn glinski_perft_from_the_start() {
    let prog = load("rules/glinski.alg");
    let rules = Rules::new(prog.game("glinski").unwrap());
    let counts: Vec<u64> = (1..=3).map(|d| perft(&rules, &rules.start(), d).unwrap()).collect();
    assert_eq!(counts, [51, 2586, 137_858]);
}

// ---- Facts of the hex board -----------------------------------------------

/// Gliński's board with one piece on f6, the centre.
fn centre(glyph: &str) -> (Grid, Square) {
    let game = Game::new(load("rules/glinski.alg").pieces());
    let mut b: Board = vec![None; game.hex.cells.len()];
    let f6 = game.hex.named("f6");
    let piece = game
        .ids
        .iter()
        .find(|(_, id)| game.pieces.glyph(**id) == glyph)
        .map(|(p, _)| *p)
        .unwrap();
    b[f6] = Some(piece);
    (game.to_grid(&b), game.hex.axial(f6))
}

fn destinations(prog: &mut Program, mv: &str, board: &Grid, from: Square) -> Vec<Square> {
    let term = prog.expr("test", mv).unwrap();
    let compiled = compile(&term).unwrap();
    let start = State {
        board: board.clone(),
        poi: None,
    };
    let out = results(&compiled, &start).unwrap();
    out.iter()
        .map(|s| {
            let moved: Vec<Square> = (0..11)
                .flat_map(|x| (0..11).map(move |y| Square::new(x, y)))
                .filter(|&q| q != from && s.board.get(q) != board.get(q))
                .collect();
            assert_eq!(moved.len(), 1, "one piece moves one cell");
            moved[0]
        })
        .collect()
}

#[test]
fn centre_move_counts_on_an_empty_board() {
    let mut prog = load("rules/glinski.alg");
    for (glyph, mv, n) in [
        ("♖", "rook", 30),
        ("♗", "bishop", 12),
        ("♕", "queen", 42),
        ("♘", "knight", 12),
        ("♔", "king", 12),
    ] {
        let (board, from) = centre(glyph);
        assert_eq!(destinations(&mut prog, mv, &board, from).len(), n, "{mv}");
    }
}

/// The three colours of Gliński's board: no two neighbours share one.
fn colour(q: Square) -> i32 {
    (q.x - q.y).rem_euclid(3)
}

#[test]
fn bishops_keep_their_colour_and_knights_change_it() {
    let mut prog = load("rules/glinski.alg");
    let game = Game::new(prog.pieces());
    for i in 0..game.hex.cells.len() {
        for &d in &EDGE {
            if let Some(j) = game.hex.at(add(game.hex.cells[i], d)) {
                assert_ne!(colour(game.hex.axial(i)), colour(game.hex.axial(j)));
            }
        }
    }
    let mut moves = 0;
    for i in 0..game.hex.cells.len() {
        for (piece, mv, same) in [
            ((true, Kind::Bishop), "bishop", true),
            ((true, Kind::Knight), "knight", false),
        ] {
            let mut b: Board = vec![None; game.hex.cells.len()];
            b[i] = Some(piece);
            let from = game.hex.axial(i);
            for to in destinations(&mut prog, mv, &game.to_grid(&b), from) {
                assert_eq!(colour(to) == colour(from), same, "{mv} from {from} to {to}");
                moves += 1;
            }
        }
    }
    assert!(moves > 1000, "{moves}");
}

// ---- The game on the command line ------------------------------------------

/// A board of Gliński's with pieces on named cells, drawn as hex text.
fn board_with(pieces: &[(&str, Kind, bool)]) -> String {
    // The game's marker pieces are declared by its rule file.
    let game = Game::new(load("rules/glinski.alg").pieces());
    let mut b: Board = vec![None; game.hex.cells.len()];
    for &(cell, kind, white) in pieces {
        b[game.hex.named(cell)] = Some((white, kind));
    }
    game.to_grid(&b).hex_lines(&game.pieces).join("\n")
}

fn glinski_file() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("rules/glinski.alg")
        .display()
        .to_string()
}

/// The king steps next to the other, which has no move and is not in
/// check: the side that gave stalemate scores three quarters.
#[test]
fn a_stalemate_scores_three_quarters_to_the_side_that_gave_it() {
    let dir = TempDir::new("hex_stalemate");
    let file = glinski_file();
    for (pieces, turn, ply, result) in [
        (
            [("f8", Kind::King, true), ("f11", Kind::King, false)],
            "0",
            "f8f9",
            "3/4-1/4",
        ),
        (
            [("f1", Kind::King, true), ("f4", Kind::King, false)],
            "1",
            "f4f3",
            "1/4-3/4",
        ),
    ] {
        let board = dir.write("board.txt", &board_with(&pieces));
        let at = format!("@{}", board.display());
        let out = run_input(&["play", &file, "--board", &at, "--turn", turn], &format!("{ply}\n"));
        assert!(
            out.stdout.contains(&format!("game over: stalemate; result {result}")),
            "{}{}",
            out.stdout,
            out.stderr
        );
    }
    // A checkmate is still the whole point: the queen comes to f10, guarded
    // by the king on f9.
    let mate = board_with(&[
        ("f9", Kind::King, true),
        ("l5", Kind::Queen, true),
        ("f11", Kind::King, false),
    ]);
    let board = dir.write("mate.txt", &mate);
    let at = format!("@{}", board.display());
    let out = run_input(&["play", &file, "--board", &at, "--turn", "0"], "l5f10\n");
    assert!(
        out.stdout.contains("game over: checkmate; result 1-0"),
        "{}",
        out.stdout
    );
}

/// Moves are named by Gliński's cells: files a-l without j, ranks from
/// each file's lowest cell; `--divide` and `play` alike.
#[test]
fn moves_are_named_by_glinskis_cells() {
    let file = glinski_file();
    let out = run(["perft", &file, "--depth", "1", "--divide"]);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    let names: Vec<&str> = out.stdout.lines().filter_map(|l| l.strip_suffix(": 1")).collect();
    assert_eq!(names.len(), 51, "{}", out.stdout);
    for name in ["b1b3", "k1k3", "f5f6", "e1a5", "i1f4", "h1k2", "d1b2", "g1h2"] {
        assert!(names.contains(&name), "{name} in {names:?}");
    }
    assert!(names.iter().all(|n| !n.contains('j')), "{names:?}");
    let out = run_input(&["play", &file], "f5f6\nmoves\n");
    assert!(out.stdout.contains("last move: f5f6"), "{}", out.stdout);
    // The pawn on f7 is blocked now; the one on g7 may step twice.
    assert!(
        out.stdout.contains("g7g5") && !out.stdout.contains("f7f"),
        "{}",
        out.stdout
    );
}

/// A hex claim's counterexample names its POI by cell, in the text and
/// in JSON, as the hex drawing has no box to count coordinates in.
#[test]
fn hex_counterexamples_name_the_poi_by_cell() {
    let dir = TempDir::new("hex_poi");
    let claims = dir.write(
        "poi.alg",
        &format!(
            "grid hex\nimport \"{}\"\ntheorem rook_step_is_not_bishop_step: slide(u) = slide(ur)\n",
            glinski_file()
        ),
    );
    let out = run(["check", claims.to_str().unwrap(), "--positions", "0", "--json"]);
    let first: serde_json::Value = serde_json::from_str(out.stdout.lines().next().unwrap()).unwrap();
    let c = &first["counterexample"];
    assert_eq!(first["verdict"], "refuted", "{}", out.stdout);
    let cell = c["poi_cell"].as_str().expect("a named POI");
    assert!(cell.starts_with('a') && cell[1..].parse::<u32>().is_ok(), "{cell}");
    let out = run(["check", claims.to_str().unwrap(), "--positions", "0"]);
    assert!(out.stdout.contains(&format!("POI on {cell}")), "{}", out.stdout);
}

/// The referee reads Gliński's games with moves named by their cells.
#[test]
fn the_referee_reads_hex_moves_by_their_cells() {
    let dir = TempDir::new("hex_referee");
    let pgn = dir.write(
        "g.pgn",
        "[Event \"legal\"]\n\n1. f5f6 g7g5 2. e4e5 c7c6 *\n\n[Event \"illegal\"]\n\n1. f5f6 g7g5 2. f6f7 *\n",
    );
    let out = run(["referee", "--rules", &glinski_file(), pgn.to_str().unwrap(), "--json"]);
    let mut games: Vec<serde_json::Value> = out.stdout.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(games.pop().unwrap()["summary"]["games"], 2, "{}", out.stdout);
    assert_eq!(games.len(), 2, "{}{}", out.stdout, out.stderr);
    assert_eq!(games[0]["plies"], 4, "{}", games[0]);
    assert!(games[0]["illegal"].is_null(), "{}", games[0]);
    assert_eq!(games[1]["illegal"]["ply"], 3, "{}", games[1]);
    assert_eq!(out.code, Some(1));
}

/// `translate --grid hex` walks paths with six headings, and refuses the
/// notations that name square-grid steps.
#[test]
fn translate_walks_paths_on_hex() {
    let out = run(["translate", "--from", "path", "--grid", "hex", "/L*FF(L|R)F$/"]);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert_eq!(out.stdout.matches("->").count(), 12, "{}", out.stdout);
    assert!(
        out.stdout.contains("(% + uuul(. | enemy) -> . + uuul%)"),
        "{}",
        out.stdout
    );
    let square = run(["translate", "--from", "path", "/L*FF(L|R)F$/"]);
    assert_eq!(square.stdout.matches("->").count(), 8, "{}", square.stdout);
    let betza = run(["translate", "--from", "betza", "--grid", "hex", "N"]);
    assert_eq!(betza.code, Some(2), "{}", betza.stdout);
    assert!(betza.stderr.contains("square-grid steps"), "{}", betza.stderr);
}
