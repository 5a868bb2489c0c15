//! Seed coverage: the algebra of "An Algebra of Chess" (the seed,
//! `shared/seeds/000_90f3b9ed9adfdde3.txt`) as the crate implements it.
//!
//! 1. Every algebraic expression of the sections "An algebra of chess
//!    positions" (with its side note), "An algebra of chess moves", "Chess
//!    algebra made rigorous" and "Appendix A" parses, copied as the seed
//!    writes it. Equation chains are split into single `theorem` claims,
//!    which must elaborate; laws that the cheap algebra can decide are also
//!    checked, by substituting concrete values for their metavariables.
//! 2. Every board fragment the seed draws elaborates to exactly the cells it
//!    draws. Each expected set of cells was worked out by hand, and is also
//!    checked against the seed's picture, copied verbatim and read by a small
//!    reader of the seed's two picture styles (grids with `@`, plain rows).
//! 3. The seed's moves elaborate to moves of the right shape, and the claims
//!    the seed makes about them hold on sample boards.
//!
//! Coordinates follow `semantics.md`: square `(x, y)` is `[x,x+1]×[y,y+1]`,
//! `y` grows upwards, and the centre `@` is the point `(0, 0)`.

use algchess::{compile, results, Grid, State};
use algchess::{parse_expr, parse_file};
use algchess::{print, Bounds, Content, Fragment, Meta, Node, PieceId, Pieces, Sort, Term};
use algchess::{Claim, Program};
use std::collections::BTreeSet;

/// A fragment as a set of `(x, y, cell)` triples.
type Cells = BTreeSet<(i32, i32, String)>;

// ---------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------

fn program(text: &str) -> Program {
    Program::from_text("seed.alg", text).unwrap_or_else(|e| panic!("does not elaborate:\n{text}\n{e}"))
}

fn elab_with(defs: &str, expr: &str) -> Term {
    let mut p = program(defs);
    p.expr("e", expr)
        .unwrap_or_else(|e| panic!("`{expr}` does not elaborate:\n{e}"))
}

fn elab(expr: &str) -> Term {
    elab_with("", expr)
}

fn set(cells: &[(i32, i32, &str)]) -> Cells {
    cells.iter().map(|&(x, y, c)| (x, y, c.to_string())).collect()
}

fn fragment(t: &Term) -> &Fragment {
    match t.node() {
        Node::Frag(f) => f,
        other => panic!("not a closed fragment: {other:?}"),
    }
}

fn cells_of(f: &Fragment) -> Cells {
    f.cells()
        .map(|(q, c)| (q.x, q.y, Pieces::chess().show(&c).to_string()))
        .collect()
}

fn cells_with(defs: &str, expr: &str) -> Cells {
    let t = elab_with(defs, expr);
    assert_eq!(t.sort(), Sort::Fragment, "`{expr}` is not a fragment");
    cells_of(fragment(&t))
}

fn cells(expr: &str) -> Cells {
    cells_with("", expr)
}

/// Reads a seed picture drawn on a grid (`+-+` borders, `|` walls, `@` the
/// centre). Returns one fragment per `@`, left to right: when a picture
/// shows several fragments side by side, each square belongs to the
/// nearest `@` on its left. A square is a character with a wall on both
/// sides and a border above and below; a blank one is an empty square.
fn grids(picture: &[&str]) -> Vec<Cells> {
    let lines: Vec<Vec<char>> = picture.iter().map(|l| l.chars().collect()).collect();
    let at = |l: isize, c: isize| -> char {
        if l < 0 || c < 0 {
            return ' ';
        }
        lines
            .get(l as usize)
            .and_then(|r| r.get(c as usize))
            .copied()
            .unwrap_or(' ')
    };
    let mut centres = vec![];
    for (li, row) in lines.iter().enumerate() {
        for (ci, ch) in row.iter().enumerate() {
            if *ch == '@' {
                centres.push((li as isize, ci as isize));
            }
        }
    }
    assert!(!centres.is_empty(), "a picture with no centre");
    centres.sort_by_key(|c| c.1);
    let mut out = vec![Cells::new(); centres.len()];
    for (li, row) in lines.iter().enumerate() {
        for (ci, &ch) in row.iter().enumerate() {
            let (l, c) = (li as isize, ci as isize);
            let square = at(l, c - 1) == '|' && at(l, c + 1) == '|' && at(l - 1, c) == '-' && at(l + 1, c) == '-';
            if !square {
                continue;
            }
            let k = if centres.len() == 1 {
                0
            } else {
                centres
                    .iter()
                    .rposition(|&(_, cc)| cc < c)
                    .expect("a centre on the left")
            };
            let (cl, cc) = centres[k];
            let (dx, dy) = (c - cc, cl - l);
            assert!(
                dx % 2 != 0 && dy % 2 != 0,
                "a square off the grid at line {li}, column {ci}"
            );
            let text = if ch == ' ' { ".".to_string() } else { ch.to_string() };
            out[k].insert(((dx - 1).div_euclid(2) as i32, (dy - 1).div_euclid(2) as i32, text));
        }
    }
    out
}

/// A grid picture with exactly one centre.
fn grid(picture: &[&str]) -> Cells {
    let mut all = grids(picture);
    assert_eq!(all.len(), 1, "expected one centre");
    all.pop().unwrap()
}

/// Reads a plain seed picture (rows top to bottom, one character per square,
/// a space where there is no square) whose bottom-left corner is the centre.
fn plain(rows: &[&str]) -> Cells {
    let h = rows.len() as i32;
    let mut out = Cells::new();
    for (i, row) in rows.iter().enumerate() {
        for (x, ch) in row.chars().enumerate() {
            if ch != ' ' {
                out.insert((x as i32, h - 1 - i as i32, ch.to_string()));
            }
        }
    }
    out
}

/// Asserts that `expr` elaborates to `expected`, and that the seed's
/// picture shows exactly `expected` (a check of the hand-worked cells).
fn drawn(expr: &str, picture: &Cells, expected: &[(i32, i32, &str)]) {
    let expected = set(expected);
    assert_eq!(picture, &expected, "the picture of `{expr}` was misread");
    assert_eq!(cells(expr), expected, "`{expr}` does not give the cells the seed draws");
}

fn rule_sides(t: &Term) -> (&Term, &Term) {
    match t.node() {
        Node::Rule([f, g]) => (f, g),
        other => panic!("not a rule: {other:?}"),
    }
}

/// The two sides of a rule between closed fragments.
fn rule(t: &Term) -> (Cells, Cells) {
    let (f, g) = rule_sides(t);
    (cells_of(fragment(f)), cells_of(fragment(g)))
}

/// The members of a closed pattern (a fragment is a one-member pattern).
fn members(t: &Term) -> BTreeSet<Cells> {
    t.as_pattern()
        .unwrap_or_else(|| panic!("not a closed pattern: {t:?}"))
        .members()
        .map(cells_of)
        .collect()
}

fn piece(glyph: &str) -> Content {
    Content::Piece(PieceId::chess(glyph).unwrap())
}

/// Every rule node in a term, depth first.
fn rules_in(t: &Term) -> Vec<&Term> {
    let mut out = vec![];
    if let Node::Rule(..) = t.node() {
        out.push(t);
    }
    for c in t.children() {
        out.extend(rules_in(c));
    }
    out
}

fn claim<'p>(p: &'p Program, name: &str) -> &'p Claim {
    p.claims()
        .iter()
        .find(|c| c.name == name)
        .unwrap_or_else(|| panic!("no claim `{name}`"))
}

/// `t` with metavariables replaced by the named values, folded.
fn instance(t: &Term, vals: &[(&str, Term)]) -> Term {
    let out = t
        .substitute(
            &|m: &Meta| vals.iter().find(|(n, _)| **n == *m.name).map(|(_, v)| v.clone()),
            &Pieces::chess(),
        )
        .unwrap_or_else(|e| panic!("substitution fails: {e}"));
    assert!(out.is_closed(), "a metavariable is left in {out:?}");
    out
}

/// The result boards of a closed move on a board, as rows top to bottom.
fn outcomes(t: &Term, board: &str) -> BTreeSet<Vec<String>> {
    let prog = compile(t).unwrap_or_else(|e| panic!("does not compile: {e:?}"));
    let s = State {
        board: Grid::parse(board, &Pieces::chess()).unwrap(),
        poi: None,
    };
    results(&prog, &s)
        .expect("within budget")
        .into_iter()
        .map(|s| s.board.rows(&Pieces::chess()))
        .collect()
}

// ---------------------------------------------------------------------------
// 1. Every expression parses
// ---------------------------------------------------------------------------

/// The full chessboard expression, as the seed writes it.
const CHESSBOARD_EXPR: &str = "uuuuuuu(♜ + r(♞ + r(♝ + r(♚ + r(♛ + r(♝ + r(♞ + r♜))))))) +
 uuuuuu(♟ + r(♟ + r(♟ + r(♟ + r(♟ + r(♟ + r(♟ + r♟))))))) +
  uuuuu(. + r(. + r(. + r(. + r(. + r(. + r(. + r.))))))) +
   uuuu(. + r(. + r(. + r(. + r(. + r(. + r(. + r.))))))) +
    uuu(. + r(. + r(. + r(. + r(. + r(. + r(. + r.))))))) +
     uu(. + r(. + r(. + r(. + r(. + r(. + r(. + r.))))))) +
      u(♙ + r(♙ + r(♙ + r(♙ + r(♙ + r(♙ + r(♙ + r♙))))))) +
       (♖ + r(♘ + r(♗ + r(♔ + r(♕ + r(♗ + r(♘ + r♖)))))))";

const CHESSBOARD: [&str; 8] = [
    "♜♞♝♚♛♝♞♜",
    "♟♟♟♟♟♟♟♟",
    "........",
    "........",
    "........",
    "........",
    "♙♙♙♙♙♙♙♙",
    "♖♘♗♔♕♗♘♖",
];

/// The closed expressions of "An algebra of chess positions", with their
/// sorts. `xxx` needs the seed's definition `x = ♙;.;♟`.
const POSITION_EXPRS: &[(&str, Sort)] = &[
    (".", Sort::Fragment),
    ("♟", Sort::Fragment),
    ("♙", Sort::Fragment),
    ("♚", Sort::Fragment),
    ("♔", Sort::Fragment),
    ("0", Sort::Fragment),
    ("u", Sort::Movement),
    ("d", Sort::Movement),
    ("l", Sort::Movement),
    ("r", Sort::Movement),
    ("u.", Sort::Fragment),
    ("l♝", Sort::Fragment),
    ("r♟", Sort::Fragment),
    ("1", Sort::Movement),
    ("ur", Sort::Movement),
    ("ru", Sort::Movement),
    ("ru.", Sort::Fragment),
    ("rr♟", Sort::Fragment),
    (". + r.", Sort::Fragment),
    ("♟ + r♜", Sort::Fragment),
    (". + rru♘", Sort::Fragment),
    ("♘", Sort::Fragment),
    ("ur.", Sort::Fragment),
    ("uur♚", Sort::Fragment),
    ("♘ + u. + ur. + uur♚", Sort::Fragment),
    ("r(♘ + u. + ur. + uur♚)", Sort::Fragment),
    (CHESSBOARD_EXPR, Sort::Fragment),
    ("♖..;♙♗♙;.♙.", Sort::Fragment),
    ("(♖ + r. + rr.) + u(♙ + r♗ + rr♙) + uu(. + r♙ + rr.)", Sort::Fragment),
    ("...;♙0♙;r♞", Sort::Fragment),
    ("(. + r. + rr.) + u(♙ + rr♙) + uur♞", Sort::Fragment),
    ("♙;.;♟", Sort::Fragment),
    ("xxx", Sort::Fragment),
    ("R", Sort::Movement),
    ("r♟ + rd.", Sort::Fragment),
    ("R(r♟ + rd.)", Sort::Fragment),
    ("R²(r♟ + rd.)", Sort::Fragment),
    ("F", Sort::Movement),
    ("♖♟.", Sort::Fragment),
    ("F(♖♟.)", Sort::Fragment),
    ("RF(♖♟.)", Sort::Fragment),
    ("C", Sort::Movement),
    ("♙ + r. + rr♗ + ur♟ + urr♞", Sort::Fragment),
    ("C(♙ + r. + rr♗ + ur♟ + urr♞)", Sort::Fragment),
    ("CRr", Sort::Movement),
    ("♖ + r♟ + rr.", Sort::Fragment),
    ("r(♖ + r♟ + rr.)", Sort::Fragment),
    ("r♖", Sort::Fragment),
    ("rrr.", Sort::Fragment),
    ("r♖ + rr♟ + rrr.", Sort::Fragment),
];

/// The seed's definition in the positions section.
const POSITION_DEFS: &str = "x = ♙;.;♟\n";

/// Closed expressions of "An algebra of chess moves", all moves except `%`.
const MOVE_EXPRS: &[(&str, Sort)] = &[
    ("♙ + ur♟ -> . + ur♙", Sort::Move),
    ("♙ + u. -> . + u♙", Sort::Move),
    ("♔ + uuuuuu. + uurr♛ -> . + uuuuuu♔ + uurr. + lll♘ + rrr♘", Sort::Move),
    ("♔ + u. -> . + u♔", Sort::Move),
    ("♔ + r. -> . + r♔", Sort::Move),
    ("♔ + ur. -> . + ur♔", Sort::Move),
    ("(♔ + u. -> . + u♔)(♔ + r. -> . + r♔)", Sort::Move),
    ("(♔ + ur. -> . + ur♔)", Sort::Move),
    ("(♔ + u. -> . + u♔)(♖ + u. -> . + u♖)", Sort::Move),
    ("(♙ + u. -> . + u♙)(♙ + u. -> . + u♙)", Sort::Move),
    ("(♙ + u. + uu. -> . + u. + uu♙)", Sort::Move),
    ("♙ -> . + u♙", Sort::Move),
    ("♖ + u. -> . + u♖", Sort::Move),
    (
        "♖ + u. + uu. + uuu. -> (. + u♖ + uu. + uuu.) | (. + u. + uu♖ + uuu.) | (. + u. + uu. + uuu♖)",
        Sort::Move,
    ),
    ("(♖ + u. -> . + u♖)(♖ + u. -> . + u♖)(♖ + u. -> . + u♖)", Sort::Move),
    ("(♖ + u. -> . + u♖)+", Sort::Move),
    ("(♖ + u. -> . + u♖){2}", Sort::Move),
    ("%", Sort::Fragment),
    ("(% + u. -> . + u%){2}", Sort::Move),
    ("%♖: (% + u. -> . + u%){2}", Sort::Move),
    ("(%♖: (% + u. -> . + u%){2})(%♙: (% + u. -> . + u%){2})", Sort::Move),
];

/// Closed expressions of "Chess algebra made rigorous".
const RIGOROUS_EXPRS: &[(&str, Sort)] = &[
    // "A basic movement is one of: 1 u d l r R"
    ("1", Sort::Movement),
    ("u", Sort::Movement),
    ("d", Sort::Movement),
    ("l", Sort::Movement),
    ("r", Sort::Movement),
    ("R", Sort::Movement),
    ("R^4", Sort::Movement),
    // "A chess piece is one of: ♙ ♔ ♕ ♗ ♘ ♖ ♟ ♚ ♛ ♝ ♞ ♜"
    ("♙", Sort::Fragment),
    ("♔", Sort::Fragment),
    ("♕", Sort::Fragment),
    ("♗", Sort::Fragment),
    ("♘", Sort::Fragment),
    ("♖", Sort::Fragment),
    ("♟", Sort::Fragment),
    ("♚", Sort::Fragment),
    ("♛", Sort::Fragment),
    ("♝", Sort::Fragment),
    ("♞", Sort::Fragment),
    ("♜", Sort::Fragment),
    // "A basic board fragment either a chess piece, or one of: 0 . % #"
    ("0", Sort::Fragment),
    (".", Sort::Fragment),
    ("%", Sort::Fragment),
    ("#", Sort::Fragment),
    ("nil", Sort::Move),
    ("dd# + ♙ + u. + uu. -> dd# + . + u. + uu♙", Sort::Move),
    ("♙ + u# -> . + u♕", Sort::Move),
    ("r♟", Sort::Fragment),
    ("Ru♟", Sort::Fragment),
    ("R²u♟", Sort::Fragment),
    ("(% + u. -> . + u%)+", Sort::Move),
    ("(% + u. -> . + u%)* (% + u♟ -> . + u%)", Sort::Move),
    ("♙ | ♔ | ♕ | ♗ | ♘ | ♖", Sort::Pattern),
    ("♟ | ♚ | ♛ | ♝ | ♞ | ♜", Sort::Pattern),
];

/// Closed expressions of "Appendix A".
const APPENDIX_EXPRS: &[(&str, Sort)] = &[
    ("nil", Sort::Move),
    ("%♖: (% + u. -> . + u%){2}", Sort::Move),
    ("%♖: (% + u. -> . + u%) | (% + u. + uu. -> . + u. + uu%)", Sort::Move),
    ("%♖: (% + u. -> . + u%) (% + u. -> . + u%)?", Sort::Move),
    ("(% + u. -> . + u%)", Sort::Move),
];

/// Expressions with metavariables, as the seed writes them (in all four
/// sections and the side note), with the sort each must have. They
/// elaborate inside a claim, where single letters are metavariables.
const OPEN_EXPRS: &[(&str, Sort)] = &[
    // Positions.
    ("f", Sort::Fragment),
    ("m", Sort::Movement),
    ("1f", Sort::Fragment),
    ("f + 0", Sort::Fragment),
    ("f + g", Sort::Fragment),
    ("g + f", Sort::Fragment),
    ("m(f + g)", Sort::Fragment),
    ("mf + mg", Sort::Fragment),
    ("fg", Sort::Fragment),
    ("f + rg", Sort::Fragment),
    ("f;g", Sort::Fragment),
    ("f + ug", Sort::Fragment),
    // Side note.
    ("1m", Sort::Movement),
    ("mn", Sort::Movement),
    ("m⁻¹", Sort::Movement),
    // Moves.
    ("x -> y | z", Sort::Move),
    ("M{2}", Sort::Move),
    // Made rigorous.
    ("nm", Sort::Movement),
    ("mn", Sort::Movement),
    ("n⁻¹", Sort::Movement),
    ("n²", Sort::Movement),
    ("nn⁻¹", Sort::Movement),
    ("nn", Sort::Movement),
    ("n³", Sort::Movement),
    ("nnn", Sort::Movement),
    ("n^4", Sort::Movement),
    ("nnnn", Sort::Movement),
    ("mf", Sort::Fragment),
    ("0 + f", Sort::Fragment),
    ("f | g", Sort::Pattern),
    ("f -> g", Sort::Move),
    ("%p: M", Sort::Move),
    ("MN", Sort::Move),
    ("nil M", Sort::Move),
    ("M nil", Sort::Move),
    ("M | N", Sort::Move),
    ("f -> (g | h)", Sort::Move),
    ("(f -> g) | (f -> h)", Sort::Move),
    ("M{3}", Sort::Move),
    ("MMM", Sort::Move),
    ("M{0}", Sort::Move),
    ("M{2, 4}", Sort::Move),
    ("M{2} | M{3} | M{4}", Sort::Move),
    ("MM | MMM | MMMM", Sort::Move),
    ("M*", Sort::Move),
    // The seed's `M* = nil | M | MM | MMM | MMMM | ...` and
    // `M+ = M | MM | MMM | MMMM | ...` end in prose (`...`); their written
    // prefixes are expressions.
    ("nil | M | MM | MMM | MMMM", Sort::Move),
    ("M+", Sort::Move),
    ("M | MM | MMM | MMMM", Sort::Move),
    ("nil | M+", Sort::Move),
    ("M?", Sort::Move),
    ("nil | M", Sort::Move),
    ("M{0, 1}", Sort::Move),
    ("colour_swapped(f + g)", Sort::Fragment),
    ("colour_swapped(f) + colour_swapped(g)", Sort::Fragment),
    ("colour_swapped(f | g)", Sort::Pattern),
    ("colour_swapped(f) | colour_swapped(g)", Sort::Pattern),
    ("colour_swapped(mf)", Sort::Fragment),
    ("m colour_swapped(f)", Sort::Fragment),
    ("flipped(f)", Sort::Fragment),
    ("R² colour_swapped(f)", Sort::Fragment),
    ("flipped(f -> g)", Sort::Move),
    ("flipped(f) -> flipped(g)", Sort::Move),
    ("flipped(M N)", Sort::Move),
    ("flipped(M) flipped(N)", Sort::Move),
];

/// The seed's move definitions ("Chess algebra made rigorous"), as written.
const ROOK_DEFS: &str = "\
rook_move_u = (% + u. -> . + u%)+

rook_move = %♖: (rook_move_u | R rook_move_u | R² rook_move_u | R³ rook_move_u)

rook_take_u = (% + u. -> . + u%)* (% + u♟ -> . + u%)

rook_move_or_take_u = rook_move_u | rook_take_u

rook_move_or_take = %♖: rook_move_or_take_u | R rook_move_or_take_u | R² rook_move_or_take_u | R³ rook_move_or_take_u

in_any_direction(M) = M | R M | R² M | R³ M

unfilled = ♙ | ♔ | ♕ | ♗ | ♘ | ♖

filled = ♟ | ♚ | ♛ | ♝ | ♞ | ♜

pawn_takes = (♙ + ur filled -> . + ur ♙) | (♙ + ul filled -> . + ul ♙)
";

/// The seed's second definition of `rook_move_or_take`, with the function.
const ROOK_DEFS_WITH_FUNCTION: &str = "\
rook_move_u = (% + u. -> . + u%)+
rook_take_u = (% + u. -> . + u%)* (% + u♟ -> . + u%)
rook_move_or_take_u = rook_move_u | rook_take_u
in_any_direction(M) = M | R M | R² M | R³ M
rook_move_or_take = %♖: in_any_direction(rook_move_or_take_u)
";

/// The seed's `colour_swapped` / `flipped` case definitions. The seed writes
/// them as pseudo-code by cases; here each function is one definition and
/// each case a claim. The seed's "...etc..." cases are completed with the
/// other colour twins.
const COLOUR_DEFS: &str = "\
colour_swapped(X) = C X
flipped(X) = R² colour_swapped(X)

theorem cs_white_pawn: colour_swapped(♙) = ♟
theorem cs_white_king: colour_swapped(♔) = ♚
theorem cs_white_queen: colour_swapped(♕) = ♛
theorem cs_white_bishop: colour_swapped(♗) = ♝
theorem cs_white_knight: colour_swapped(♘) = ♞
theorem cs_white_rook: colour_swapped(♖) = ♜
theorem cs_black_pawn: colour_swapped(♟) = ♙
theorem cs_black_king: colour_swapped(♚) = ♔
theorem cs_black_queen: colour_swapped(♛) = ♕
theorem cs_black_bishop: colour_swapped(♝) = ♗
theorem cs_black_knight: colour_swapped(♞) = ♘
theorem cs_black_rook: colour_swapped(♜) = ♖
theorem cs_glue: colour_swapped(f + g) = colour_swapped(f) + colour_swapped(g)
theorem cs_union: colour_swapped(f | g) = colour_swapped(f) | colour_swapped(g)
theorem cs_movement: colour_swapped(mf) = m colour_swapped(f)
theorem flipped_fragment: flipped(f) = R² colour_swapped(f)
theorem flipped_rule: flipped(f -> g) = flipped(f) -> flipped(g)
theorem flipped_seq: flipped(M N) = flipped(M) flipped(N)
";

/// The seed's equations, one claim per `=` of each chain. Those the seed
/// states with a condition in prose carry it as a `where` clause.
const POSITION_CLAIMS: &str = "\
theorem pos_identity: 1f = f
theorem pos_ur_ru: ur = ru
theorem pos_zero: f + 0 = f
theorem pos_commutes: f + g = g + f
theorem pos_distributes: m(f + g) = mf + mg
theorem pos_juxtaposition: fg = f + rg
theorem pos_semicolon: f;g = f + ug
theorem pos_rows: ♖..;♙♗♙;.♙. = (♖ + r. + rr.) + u(♙ + r♗ + rr♙) + uu(. + r♙ + rr.)
theorem pos_hole: ...;♙0♙;r♞ = (. + r. + rr.) + u(♙ + rr♙) + uur♞
theorem pos_moved_sum: r♖ + rr♟ + rrr. = r(♖ + r♟ + rr.)
theorem side_left_identity: 1m = m
theorem side_inverse: mn = 1
theorem side_zero: f + 0 = f
theorem side_distributes: m(f + g) = mf + mg
";

const MOVE_CLAIMS: &str = "\
theorem king_up_then_right: (♔ + u. -> . + u♔)(♔ + r. -> . + r♔) = (♔ + ur. -> . + ur♔)
theorem pawn_up_twice: (♙ + u. -> . + u♙)(♙ + u. -> . + u♙) = (♙ + u. + uu. -> . + u. + uu♙)
theorem any_of: x -> y | z = (x -> y) | (x -> z)
theorem twice: M{2} = MM
";

const RIGOROUS_CLAIMS: &str = "\
theorem rig_left_identity: 1m = m
theorem rig_commutes: nm = mn where translation(n), translation(m)
theorem rig_inverse: nn⁻¹ = 1
theorem rig_square: n² = nn
theorem rig_cube: n³ = nnn
theorem rig_fourth: n^4 = nnnn
theorem rig_four_turns: R^4 = 1
theorem rig_glue_commutes: f + g = g + f
theorem rig_zero_left: 0 + f = f
theorem rig_zero_right: f = f + 0
theorem rig_distributes: m(f + g) = mf + mg
theorem rig_nil_left: nil M = M
theorem rig_nil_right: M = M nil
theorem rig_rule_choice: f -> (g | h) = (f -> g) | (f -> h)
theorem rig_count: M{3} = MMM
theorem rig_count_zero: M{0} = nil
theorem rig_range: M{2, 4} = M{2} | M{3} | M{4}
theorem rig_range_expanded: M{2} | M{3} | M{4} = MM | MMM | MMMM
theorem rig_star: M* = nil | M+
theorem rig_opt: M? = nil | M
theorem rig_opt_range: M? = M{0, 1}
";

const APPENDIX_CLAIMS: &str = "\
theorem app_nil_left: nil M = M
theorem app_nil_right: M = M nil
theorem app_twice_is_not_the_choice: %♖: (% + u. -> . + u%){2} = %♖: (% + u. -> . + u%) | (% + u. + uu. -> . + u. + uu%)
theorem app_maybe_again: %♖: (% + u. -> . + u%) (% + u. -> . + u%)? = %♖: (% + u. -> . + u%) | (% + u. + uu. -> . + u. + uu%)
";

/// The side note's `1m = m = m1` and `m0 = 0` (and made rigorous's
/// `1m = m = m1`): `m1` is `m` then `1`, and `m0` is `m` applied to `0`.
const DIGIT_CLAIMS: &str = "\
theorem side_right_identity: m = m1
theorem rig_right_identity: m = m1
theorem side_movement_of_zero: m0 = 0
";

/// Every statement text of the test, for the parse check.
fn statement_texts() -> Vec<&'static str> {
    vec![
        POSITION_DEFS,
        ROOK_DEFS,
        ROOK_DEFS_WITH_FUNCTION,
        COLOUR_DEFS,
        POSITION_CLAIMS,
        MOVE_CLAIMS,
        RIGOROUS_CLAIMS,
        APPENDIX_CLAIMS,
    ]
}

fn all_exprs() -> Vec<(&'static str, Sort)> {
    [POSITION_EXPRS, MOVE_EXPRS, RIGOROUS_EXPRS, APPENDIX_EXPRS, OPEN_EXPRS].concat()
}

#[test]
fn every_seed_expression_parses() {
    for (e, _) in all_exprs() {
        parse_expr(e).unwrap_or_else(|err| panic!("`{e}` does not parse: {err:?}"));
    }
    let mut statements = 0;
    for text in statement_texts().into_iter().chain([DIGIT_CLAIMS]) {
        let file = parse_file(text).unwrap_or_else(|err| panic!("does not parse: {err:?}\n{text}"));
        let lines = text.lines().filter(|l| !l.trim().is_empty()).count();
        assert_eq!(file.stmts.len(), lines, "one statement a line:\n{text}");
        statements += lines;
    }
    // Keep the count honest as the lists change: 173 expressions and 81
    // statements (definitions and claims).
    assert_eq!(all_exprs().len(), 173);
    assert_eq!(statements, 81);
}

#[test]
fn every_closed_seed_expression_elaborates_with_its_sort() {
    let mut p = program(POSITION_DEFS);
    for &(e, sort) in POSITION_EXPRS {
        let t = p
            .expr("e", e)
            .unwrap_or_else(|err| panic!("`{e}` does not elaborate:\n{err}"));
        assert_eq!(t.sort(), sort, "`{e}`");
    }
    let mut p = program("");
    for &(e, sort) in [MOVE_EXPRS, RIGOROUS_EXPRS, APPENDIX_EXPRS].concat().iter() {
        let t = p
            .expr("e", e)
            .unwrap_or_else(|err| panic!("`{e}` does not elaborate:\n{err}"));
        assert_eq!(t.sort(), sort, "`{e}`");
    }
}

#[test]
fn every_open_seed_expression_elaborates_with_its_sort() {
    // Each expression stands on both sides of a claim, where its single
    // letters are metavariables; the functions are the seed's.
    let mut text = String::from("colour_swapped(X) = C X\nflipped(X) = R² colour_swapped(X)\n");
    for (i, (e, _)) in OPEN_EXPRS.iter().enumerate() {
        text.push_str(&format!("theorem probe{i}: {e} = {e}\n"));
    }
    let p = program(&text);
    for (i, (e, sort)) in OPEN_EXPRS.iter().enumerate() {
        let c = claim(&p, &format!("probe{i}"));
        assert_eq!(c.lhs.sort(), *sort, "`{e}`");
        assert!(!c.lhs.metas().is_empty(), "`{e}` has metavariables");
        assert_eq!(c.lhs, c.rhs, "`{e}` elaborates the same way twice");
    }
}

#[test]
fn every_seed_definition_and_claim_elaborates() {
    for text in statement_texts() {
        let p = program(text);
        let claims = text.lines().filter(|l| l.starts_with("theorem")).count();
        assert_eq!(p.claims().len(), claims);
        for c in p.claims() {
            let (l, r) = (c.lhs.sort(), c.rhs.sort());
            assert!(l.fits(r) || r.fits(l), "`{}`: a {l} and a {r}", c.name);
        }
    }
}

// ---------------------------------------------------------------------------
// Laws: the ones the cheap algebra decides, checked on concrete values
// ---------------------------------------------------------------------------

/// Concrete values for the metavariables of fragment and movement laws.
/// The fragments lie on distinct squares, so any two of them glue.
fn values() -> Vec<(&'static str, Term)> {
    let mut p = program("");
    let mut v = |name: &'static str, e: &str| (name, p.expr("v", e).unwrap());
    vec![
        v("m", "CRu"),
        v("n", "Fdr"),
        v("f", "♙ + u."),
        v("g", "rr♜ + rrd#"),
        v("h", "lll♕"),
    ]
}

fn law_holds(c: &Claim, vals: &[(&str, Term)]) {
    let (l, r) = (instance(&c.lhs, vals), instance(&c.rhs, vals));
    assert_eq!(l, r, "`{}` fails at {vals:?}", c.name);
}

#[test]
fn position_laws_hold() {
    let p = program(POSITION_CLAIMS);
    let vals = values();
    for name in [
        "pos_identity",
        "pos_ur_ru",
        "pos_zero",
        "pos_commutes",
        "pos_distributes",
        "pos_juxtaposition",
        "pos_semicolon",
        "pos_rows",
        "pos_hole",
        "pos_moved_sum",
        "side_left_identity",
        "side_zero",
        "side_distributes",
    ] {
        law_holds(claim(&p, name), &vals);
    }
    // The closed ones are equal as elaborated.
    for name in ["pos_ur_ru", "pos_rows", "pos_hole", "pos_moved_sum"] {
        let c = claim(&p, name);
        assert!(c.lhs.is_closed());
        assert_eq!(c.lhs, c.rhs, "{name}");
    }
    // "every movement has an inverse movement n, such that mn = 1".
    let c = claim(&p, "side_inverse");
    let m = vals[0].1.clone();
    let inverse = Term::power(&m, -1);
    assert_eq!(
        instance(&c.lhs, &[("m", m.clone()), ("n", inverse)]),
        instance(&c.rhs, &[])
    );
    assert_ne!(instance(&c.lhs, &[("m", m.clone()), ("n", m)]), instance(&c.rhs, &[]));
}

#[test]
fn rigorous_movement_and_fragment_laws_hold() {
    let p = program(RIGOROUS_CLAIMS);
    let vals = values();
    for name in [
        "rig_left_identity",
        "rig_inverse",
        "rig_square",
        "rig_cube",
        "rig_fourth",
        "rig_four_turns",
        "rig_glue_commutes",
        "rig_zero_left",
        "rig_zero_right",
        "rig_distributes",
    ] {
        law_holds(claim(&p, name), &vals);
    }
    // "If n and m do not contain any rotations R, then nm = mn".
    let c = claim(&p, "rig_commutes");
    assert_eq!(c.conds.len(), 2);
    let mut q = program("");
    let translations = [("n", q.expr("v", "uul").unwrap()), ("m", q.expr("v", "rd").unwrap())];
    law_holds(c, &translations);
    // ...and not when one of them turns.
    let turned = [("n", q.expr("v", "R").unwrap()), ("m", q.expr("v", "u").unwrap())];
    assert_ne!(instance(&c.lhs, &turned), instance(&c.rhs, &turned));
}

/// The seed's side note: `1m = m = m1`. `m1` is `m` then the identity `1`.
#[test]
fn side_note_right_identity() {
    let text: String = DIGIT_CLAIMS
        .lines()
        .filter(|l| l.contains("m1"))
        .map(|l| format!("{l}\n"))
        .collect();
    let p = program(&text);
    assert_eq!(p.claims().len(), 2);
    for c in p.claims() {
        assert_eq!(c.lhs, c.rhs, "{}", c.name);
    }
}

/// The seed's side note: `m0 = 0`, a movement applied to the empty fragment.
#[test]
fn side_note_movement_of_zero() {
    let p = program(DIGIT_CLAIMS.lines().find(|l| l.contains("m0")).unwrap());
    let c = claim(&p, "side_movement_of_zero");
    assert_eq!(c.lhs.sort(), Sort::Fragment);
    law_holds(c, &values());
}

#[test]
fn colour_swapped_and_flipped_cases_hold() {
    let p = program(COLOUR_DEFS);
    assert_eq!(p.claims().len(), 18);
    for c in p.claims() {
        match c.name.as_str() {
            // `m` does not fold against the colour reversal until it is known.
            "cs_movement" => law_holds(c, &values()),
            _ => assert_eq!(c.lhs, c.rhs, "{}", c.name),
        }
    }
    // The cases on pieces are closed fragments, equal as patterns too.
    let c = claim(&p, "cs_white_pawn");
    assert_eq!(c.lhs.as_pattern(), c.rhs.as_pattern());
    assert_eq!(cells_of(fragment(&c.lhs)), set(&[(0, 0, "♟")]));
    // flipped = colour swap and half turn: a white pawn on (0, 1) becomes a
    // black pawn on (-1, -2).
    let t = elab_with(
        "colour_swapped(X) = C X\nflipped(X) = R² colour_swapped(X)\n",
        "flipped(u♙)",
    );
    assert_eq!(cells_of(fragment(&t)), set(&[(-1, -2, "♟")]));
}

// ---------------------------------------------------------------------------
// 2. Board-fragment examples: exactly the cells the seed draws
// ---------------------------------------------------------------------------

#[test]
fn the_centre_is_a_corner() {
    // The seed draws one shape with two centres (it writes no expression for
    // them; `.;l.♖.;.` and `ldd(.;l.♖.;.)` are this test's).
    let first = grid(&[
        "  +-+", //
        "  | |",
        "+-+-+-+",
        "| |♖| |",
        "+-+-+-+",
        "  | |",
        "  @-+",
    ]);
    let second = grid(&[
        "  +-+", //
        "  | |",
        "+-+-@-+",
        "| |♖| |",
        "+-+-+-+",
        "  | |",
        "  +-+",
    ]);
    assert_eq!(
        first,
        set(&[(0, 0, "."), (-1, 1, "."), (0, 1, "♖"), (1, 1, "."), (0, 2, ".")])
    );
    assert_eq!(
        second,
        set(&[(-1, -2, "."), (-2, -1, "."), (-1, -1, "♖"), (0, -1, "."), (-1, 0, ".")])
    );
    assert_eq!(cells(".;l.♖.;."), first);
    assert_eq!(cells("ldd(.;l.♖.;.)"), second);
    assert_ne!(first, second);
}

#[test]
fn basic_fragments() {
    drawn(".", &grid(&["+-+", "| |", "@-+"]), &[(0, 0, ".")]);
    drawn("♟", &grid(&["+-+", "|♟|", "@-+"]), &[(0, 0, "♟")]);
    // "The empty board fragment, "0"": just the centre.
    drawn("0", &grid(&["@"]), &[]);
    assert!(fragment(&elab("0")).is_empty());
}

#[test]
fn moved_single_squares() {
    drawn("u.", &grid(&["+-+", "| |", "+-+", "", "@"]), &[(0, 1, ".")]);
    drawn("l♝", &grid(&["+-+", "|♝|", "+-@"]), &[(-1, 0, "♝")]);
    drawn("r♟", &grid(&["  +-+", "  |♟|", "@ +-+"]), &[(1, 0, "♟")]);
    drawn("ru.", &grid(&["  +-+", "  | |", "  +-+", "", "@"]), &[(1, 1, ".")]);
    drawn("rr♟", &grid(&["    +-+", "    |♟|", "@   +-+"]), &[(2, 0, "♟")]);
    // `1f = f` and `ur = ru`.
    assert_eq!(cells("1♟"), cells("♟"));
    assert_eq!(cells("ur."), cells("ru."));
}

#[test]
fn glued_fragments() {
    drawn(
        ". + r.",
        &grid(&["+-+-+", "| | |", "@-+-+"]),
        &[(0, 0, "."), (1, 0, ".")],
    );
    drawn(
        "♟ + r♜",
        &grid(&["+-+-+", "|♟|♜|", "@-+-+"]),
        &[(0, 0, "♟"), (1, 0, "♜")],
    );
    drawn(
        ". + rru♘",
        &grid(&["    +-+", "    |♘|", "+-+ +-+", "| |", "@-+"]),
        &[(0, 0, "."), (2, 1, "♘")],
    );
}

#[test]
fn knight_and_king_sum_and_its_move() {
    // "Here are the board fragments "♘", "u.", "ur.", and "uur♚"".
    let parts = grids(&[
        "                          +-+",
        "                          |♚|",
        "       +-+       +-+      +-+",
        "       | |       | |",
        "+-+    +-+       +-+",
        "|♘|",
        "@-+    @       @        @",
    ]);
    let expected = [
        ("♘", set(&[(0, 0, "♘")])),
        ("u.", set(&[(0, 1, ".")])),
        ("ur.", set(&[(1, 1, ".")])),
        ("uur♚", set(&[(1, 2, "♚")])),
    ];
    assert_eq!(parts.len(), 4);
    for ((e, want), got) in expected.iter().zip(&parts) {
        assert_eq!(got, want, "the picture of `{e}`");
        assert_eq!(&cells(e), want, "`{e}`");
    }
    let sum = [(0, 0, "♘"), (0, 1, "."), (1, 1, "."), (1, 2, "♚")];
    drawn(
        "♘ + u. + ur. + uur♚",
        &grid(&["  +-+", "  |♚|", "+-+-+", "| | |", "+-+-+", "|♘|", "@-+"]),
        &sum,
    );
    drawn(
        "r(♘ + u. + ur. + uur♚)",
        &grid(&["    +-+", "    |♚|", "  +-+-+", "  | | |", "  +-+-+", "  |♘|", "@ +-+"]),
        &[(1, 0, "♘"), (1, 1, "."), (2, 1, "."), (2, 2, "♚")],
    );
}

#[test]
fn the_whole_chessboard() {
    let mut expected = Cells::new();
    let back_white = ["♖", "♘", "♗", "♔", "♕", "♗", "♘", "♖"];
    let back_black = ["♜", "♞", "♝", "♚", "♛", "♝", "♞", "♜"];
    for x in 0..8 {
        expected.insert((x, 0, back_white[x as usize].to_string()));
        expected.insert((x, 1, "♙".to_string()));
        for y in 2..6 {
            expected.insert((x, y, ".".to_string()));
        }
        expected.insert((x, 6, "♟".to_string()));
        expected.insert((x, 7, back_black[x as usize].to_string()));
    }
    assert_eq!(plain(&CHESSBOARD), expected);
    let t = elab(CHESSBOARD_EXPR);
    let f = fragment(&t);
    assert_eq!(f.len(), 64);
    assert_eq!(cells_of(f), expected);
    assert_eq!(print::picture(f, &Pieces::chess()), CHESSBOARD.to_vec());
}

#[test]
fn rows_with_juxtaposition_and_semicolons() {
    let rows = [
        (0, 0, "♖"),
        (1, 0, "."),
        (2, 0, "."),
        (0, 1, "♙"),
        (1, 1, "♗"),
        (2, 1, "♙"),
        (0, 2, "."),
        (1, 2, "♙"),
        (2, 2, "."),
    ];
    drawn("♖..;♙♗♙;.♙.", &plain(&[".♙.", "♙♗♙", "♖.."]), &rows);
    drawn(
        "(♖ + r. + rr.) + u(♙ + r♗ + rr♙) + uu(. + r♙ + rr.)",
        &plain(&[".♙.", "♙♗♙", "♖.."]),
        &rows,
    );
    let hole = [
        (0, 0, "."),
        (1, 0, "."),
        (2, 0, "."),
        (0, 1, "♙"),
        (2, 1, "♙"),
        (1, 2, "♞"),
    ];
    drawn("...;♙0♙;r♞", &plain(&[" ♞", "♙ ♙", "..."]), &hole);
    drawn(
        "(. + r. + rr.) + u(♙ + rr♙) + uur♞",
        &plain(&[" ♞", "♙ ♙", "..."]),
        &hole,
    );
    // `fg = f + rg` and `f;g = f + ug`.
    assert_eq!(cells("♖♟"), cells("♖ + r♟"));
    assert_eq!(cells("♖;♟"), cells("♖ + u♟"));
}

#[test]
fn a_defined_column_three_times() {
    assert_eq!(
        cells_with(POSITION_DEFS, "x"),
        set(&[(0, 0, "♙"), (0, 1, "."), (0, 2, "♟")])
    );
    let expected = plain(&["♟♟♟", "...", "♙♙♙"]);
    assert_eq!(
        expected,
        set(&[
            (0, 0, "♙"),
            (1, 0, "♙"),
            (2, 0, "♙"),
            (0, 1, "."),
            (1, 1, "."),
            (2, 1, "."),
            (0, 2, "♟"),
            (1, 2, "♟"),
            (2, 2, "♟"),
        ])
    );
    assert_eq!(cells_with(POSITION_DEFS, "xxx"), expected);
}

#[test]
fn rotations() {
    drawn(
        "r♟ + rd.",
        &grid(&["      +-+", "      |♟|", "    @ +-+", "      | |", "      +-+"]),
        &[(1, 0, "♟"), (1, -1, ".")],
    );
    drawn(
        "R(r♟ + rd.)",
        &grid(&["  +-+-+", "  |♟| |", "  +-+-+", "", "    @"]),
        &[(-1, 1, "♟"), (0, 1, ".")],
    );
    drawn(
        "R²(r♟ + rd.)",
        &grid(&["+-+", "| |", "+-+ @", "|♟|", "+-+"]),
        &[(-2, 0, "."), (-2, -1, "♟")],
    );
}

#[test]
fn flips() {
    drawn(
        "♖♟.",
        &grid(&["      +-+-+-+", "      |♖|♟| |", "      @-+-+-+"]),
        &[(0, 0, "♖"), (1, 0, "♟"), (2, 0, ".")],
    );
    drawn(
        "F(♖♟.)",
        &grid(&["+-+-+-+", "| |♟|♖|", "+-+-+-@"]),
        &[(-1, 0, "♖"), (-2, 0, "♟"), (-3, 0, ".")],
    );
    drawn(
        "RF(♖♟.)",
        &grid(&[
            "    +-@",
            "    |♖|",
            "    +-+",
            "    |♟|",
            "    +-+",
            "    | |",
            "    +-+",
        ]),
        &[(-1, -1, "♖"), (-1, -2, "♟"), (-1, -3, ".")],
    );
}

/// The seed's pictures of `♙ + r. + rr♗ + ur♟ + urr♞` and its colour
/// reversal draw a rook (`♜`, then `♖`) on square (2, 1), where the text
/// says a knight (`urr♞`). This is an inconsistency of the seed itself; the
/// expression means what its text says, and every other drawn cell agrees.
#[test]
fn colour_reversal() {
    let text = [(0, 0, "♙"), (1, 0, "."), (2, 0, "♗"), (1, 1, "♟"), (2, 1, "♞")];
    let picture = grid(&["  +-+-+", "  |♟|♜|", "+-+-+-+", "|♙| |♗|", "@-+-+-+"]);
    let mut as_drawn = set(&text);
    as_drawn.remove(&(2, 1, "♞".to_string()));
    as_drawn.insert((2, 1, "♜".to_string()));
    assert_eq!(picture, as_drawn);
    assert_eq!(cells("♙ + r. + rr♗ + ur♟ + urr♞"), set(&text));

    let swapped = [(0, 0, "♟"), (1, 0, "."), (2, 0, "♝"), (1, 1, "♙"), (2, 1, "♘")];
    let picture = grid(&["  +-+-+", "  |♙|♖|", "+-+-+-+", "|♟| |♝|", "@-+-+-+"]);
    let mut as_drawn = set(&swapped);
    as_drawn.remove(&(2, 1, "♘".to_string()));
    as_drawn.insert((2, 1, "♖".to_string()));
    assert_eq!(picture, as_drawn);
    assert_eq!(cells("C(♙ + r. + rr♗ + ur♟ + urr♞)"), set(&swapped));

    // `CRr`: right, then rotate, then reverse colours.
    assert_eq!(cells("CRr♙"), set(&[(-1, 1, "♟")]));
    assert_eq!(cells("CRr♙"), cells("C(R(r♙))"));
}

#[test]
fn movements_distribute_over_glue() {
    drawn(
        "♖ + r♟ + rr.",
        &grid(&["      +-+-+-+", "      |♖|♟| |", "      @-+-+-+"]),
        &[(0, 0, "♖"), (1, 0, "♟"), (2, 0, ".")],
    );
    let moved = [(1, 0, "♖"), (2, 0, "♟"), (3, 0, ".")];
    drawn(
        "r(♖ + r♟ + rr.)",
        &grid(&["        +-+-+-+", "        |♖|♟| |", "      @ +-+-+-+"]),
        &moved,
    );
    let parts = grids(&[
        "        +-+       +-+         +-+",
        "        |♖|       |♟|         | |",
        "      @ +-+   @   +-+   @     +-+",
    ]);
    let expected = [
        ("r♖", set(&[(1, 0, "♖")])),
        ("rr♟", set(&[(2, 0, "♟")])),
        ("rrr.", set(&[(3, 0, ".")])),
    ];
    assert_eq!(parts.len(), 3);
    for ((e, want), got) in expected.iter().zip(&parts) {
        assert_eq!(got, want, "the picture of `{e}`");
        assert_eq!(&cells(e), want, "`{e}`");
    }
    drawn(
        "r♖ + rr♟ + rrr.",
        &grid(&["        +-+-+-+", "        |♖|♟| |", "      @ +-+-+-+"]),
        &moved,
    );
    assert_eq!(elab("r♖ + rr♟ + rrr."), elab("r(♖ + r♟ + rr.)"));
}

/// "Chess algebra made rigorous" draws `r♟`, then `Ru♟` and `R²u♟`, each
/// "u♟ rotated around the centre". The two rotated pictures are those of
/// `r♟` rotated (`Rr♟`, `R²r♟`), not of `u♟`: under `semantics.md` (and
/// under a clockwise `R` too) `u♟` rotated lands elsewhere. This is an
/// inconsistency of the seed; the expressions mean what their text says.
#[test]
fn rotations_made_rigorous() {
    drawn("r♟", &grid(&["      +-+", "      |♟|", "    @ +-+"]), &[(1, 0, "♟")]);
    let ru = grid(&["  +-+", "  |♟|", "  +-+", "", "    @"]);
    let r2u = grid(&["+-+ @", "|♟|", "+-+"]);
    assert_eq!(ru, set(&[(-1, 1, "♟")]));
    assert_eq!(r2u, set(&[(-2, -1, "♟")]));
    // What the pictures show.
    assert_eq!(cells("Rr♟"), ru);
    assert_eq!(cells("R²r♟"), r2u);
    // What the text says: `u♟` is on (0, 1), R takes (x, y) to (-y-1, x).
    assert_eq!(cells("Ru♟"), set(&[(-2, 0, "♟")]));
    assert_eq!(cells("R²u♟"), set(&[(-1, -2, "♟")]));
    assert_eq!(cells("R⁴u♟"), cells("u♟"));
}

// ---------------------------------------------------------------------------
// 3. Moves
// ---------------------------------------------------------------------------

#[test]
fn the_seeds_pictured_rules_are_its_rules() {
    // "here is the rule of chess algebra which says it was valid".
    let pawn = elab("♙ + u. -> . + u♙");
    assert_eq!(rule(&pawn), (plain(&[".", "♙"]), plain(&["♙", "."])));
    // "a pawn may take an enemy pawn diagonally".
    let take = elab("♙ + ur♟ -> . + ur♙");
    assert_eq!(rule(&take), (plain(&[" ♟", "♙"]), plain(&[" ♙", "."])));
    // The rook rule, "can be replaced with any of".
    let rook = elab("♖ + u. + uu. + uuu. -> (. + u♖ + uu. + uuu.) | (. + u. + uu♖ + uuu.) | (. + u. + uu. + uuu♖)");
    let (f, g) = rule_sides(&rook);
    assert_eq!(cells_of(fragment(f)), plain(&[".", ".", ".", "♖"]));
    let any_of: BTreeSet<Cells> = [
        plain(&[".", "♖", ".", "."]),
        plain(&[".", ".", "♖", "."]),
        plain(&["♖", ".", ".", "."]),
    ]
    .into_iter()
    .collect();
    assert_eq!(members(g), any_of);
    assert_eq!(
        rule(&elab("♖ + u. -> . + u♖")),
        (plain(&[".", "♖"]), plain(&["♖", "."]))
    );
}

#[test]
fn a_valid_move_on_the_chessboard() {
    // The seed's first "valid move": the pawn on f2 steps up.
    let board = CHESSBOARD.join("\n");
    let after = [
        "♜♞♝♚♛♝♞♜",
        "♟♟♟♟♟♟♟♟",
        "........",
        "........",
        "........",
        ".....♙..",
        "♙♙♙♙♙.♙♙",
        "♖♘♗♔♕♗♘♖",
    ];
    let out = outcomes(&elab("♙ + u. -> . + u♙"), &board);
    assert_eq!(out.len(), 8, "any of the eight pawns");
    assert!(out.contains(&after.iter().map(|r| r.to_string()).collect::<Vec<_>>()));
}

#[test]
fn rules_have_the_cells_written() {
    let teleport = elab("♔ + uuuuuu. + uurr♛ -> . + uuuuuu♔ + uurr. + lll♘ + rrr♘");
    assert_eq!(
        rule(&teleport),
        (
            set(&[(0, 0, "♔"), (0, 6, "."), (2, 2, "♛")]),
            set(&[(0, 0, "."), (0, 6, "♔"), (2, 2, "."), (-3, 0, "♘"), (3, 0, "♘")])
        )
    );
    assert_eq!(
        rule(&elab("♔ + ur. -> . + ur♔")),
        (set(&[(0, 0, "♔"), (1, 1, ".")]), set(&[(0, 0, "."), (1, 1, "♔")]))
    );
    let double = elab("dd# + ♙ + u. + uu. -> dd# + . + u. + uu♙");
    assert_eq!(
        rule(&double),
        (
            set(&[(0, -2, "#"), (0, 0, "♙"), (0, 1, "."), (0, 2, ".")]),
            set(&[(0, -2, "#"), (0, 0, "."), (0, 1, "."), (0, 2, "♙")])
        )
    );
    assert_eq!(
        rule(&elab("♙ + u# -> . + u♕")),
        (set(&[(0, 0, "♙"), (0, 1, "#")]), set(&[(0, 0, "."), (0, 1, "♕")]))
    );
    assert_eq!(
        rule(&elab("♙ -> . + u♙")),
        (set(&[(0, 0, "♙")]), set(&[(0, 0, "."), (0, 1, "♙")]))
    );
}

#[test]
fn sequences_repetitions_and_binders() {
    let kings = elab("(♔ + u. -> . + u♔)(♔ + r. -> . + r♔)");
    let Node::Seq([a, b]) = kings.node() else {
        panic!("not a sequence: {kings:?}")
    };
    assert_eq!(rule(a), rule(&elab("♔ + u. -> . + u♔")));
    assert_eq!(rule(b), rule(&elab("♔ + r. -> . + r♔")));

    let rooks = elab("(♖ + u. -> . + u♖)(♖ + u. -> . + u♖)(♖ + u. -> . + u♖)");
    assert_eq!(rules_in(&rooks).len(), 3);
    assert!(matches!(rooks.node(), Node::Seq(..)));

    let plus = elab("(♖ + u. -> . + u♖)+");
    let (Node::Repeat([body, ..]), Some(bounds)) = (plus.node(), plus.bounds()) else {
        panic!("not a repetition: {plus:?}")
    };
    assert_eq!(bounds, Bounds::PLUS);
    assert_eq!(rule(body), rule(&elab("♖ + u. -> . + u♖")));
    let twice = elab("(♖ + u. -> . + u♖){2}");
    assert_eq!(twice.bounds(), Some(Bounds::exactly(2)));

    let poi_twice = elab("(% + u. -> . + u%){2}");
    assert!(poi_twice.is_open(), "`%` outside a binder");
    let bound = elab("%♖: (% + u. -> . + u%){2}");
    assert!(!bound.is_open());
    let Node::Bind([c, body]) = bound.node() else {
        panic!("not a binder: {bound:?}")
    };
    assert_eq!(c.node(), &Node::Cell(piece("♖")));
    assert_eq!(body, &poi_twice);
    let (f, g) = rule(rules_in(body)[0]);
    assert_eq!(
        (f, g),
        (set(&[(0, 0, "%"), (0, 1, ".")]), set(&[(0, 0, "."), (0, 1, "%")]))
    );

    let both = elab("(%♖: (% + u. -> . + u%){2})(%♙: (% + u. -> . + u%){2})");
    let Node::Seq([first, second]) = both.node() else {
        panic!("not a sequence: {both:?}")
    };
    assert_eq!(first, &bound);
    assert!(matches!(second.node(), Node::Bind([c, b]) if c.node() == &Node::Cell(piece("♙")) && b == &poi_twice));
}

#[test]
fn the_seeds_move_claims_elaborate_as_moves() {
    for text in [MOVE_CLAIMS, APPENDIX_CLAIMS] {
        for c in program(text).claims() {
            assert_eq!(c.sort(), Sort::Move, "{}", c.name);
        }
    }
}

#[test]
fn some_pawn_up_twice_is_not_one_pawn_up_twice() {
    // The seed: "the following equation is *not* correct".
    let p = program(MOVE_CLAIMS);
    let c = claim(&p, "pawn_up_twice");
    let board = ".......\n.......\n..♙.♙..";
    let (l, r) = (outcomes(&c.lhs, board), outcomes(&c.rhs, board));
    assert_eq!(r.len(), 2);
    assert_eq!(l.len(), 3, "either pawn twice, or each once");
    assert!(r.is_subset(&l));
    // "applying the move (♙ -> . + u♙) could give us *either* of".
    let either = outcomes(&elab("♙ -> . + u♙"), ".......\n..♙.♙..");
    let expected: BTreeSet<Vec<String>> = [["..♙....", "....♙.."], ["....♙..", "..♙...."]]
        .iter()
        .map(|b| b.iter().map(|r| r.to_string()).collect())
        .collect();
    assert_eq!(either, expected);
}

/// The repetition and choice laws of "made rigorous" (and the seed's
/// exercise `f -> (g | h) = (f -> g) | (f -> h)`), on a sample board.
#[test]
fn move_laws_hold_on_a_sample_board() {
    let mut q = program("");
    let vals = [
        ("M", q.expr("v", "♙ + u. -> . + u♙").unwrap()),
        ("N", q.expr("v", "♙ + ur♟ -> . + ur♙").unwrap()),
        ("f", q.expr("v", "♙ + u.").unwrap()),
        ("g", q.expr("v", ". + u♙").unwrap()),
        ("h", q.expr("v", ". + u♕").unwrap()),
        ("x", q.expr("v", "♙ + u.").unwrap()),
        ("y", q.expr("v", ". + u♙").unwrap()),
        ("z", q.expr("v", ". + u♕").unwrap()),
    ];
    let board = ".♟.\n♙..\n♙♙.";
    let mut checked = 0;
    for text in [RIGOROUS_CLAIMS, MOVE_CLAIMS, APPENDIX_CLAIMS] {
        let p = program(text);
        for c in p.claims() {
            let name = c.name.as_str();
            // The closed claims are about specific moves; the tests below
            // look at them one by one.
            if c.sort() != Sort::Move || c.lhs.metas().is_empty() {
                continue;
            }
            let (l, r) = (instance(&c.lhs, &vals), instance(&c.rhs, &vals));
            let (lo, ro) = (outcomes(&l, board), outcomes(&r, board));
            assert!(!lo.is_empty(), "`{name}` does nothing on the board");
            assert_eq!(lo, ro, "`{name}`");
            checked += 1;
        }
    }
    assert_eq!(checked, 14);
}

#[test]
fn flipped_moves_are_the_other_players() {
    let p = program(COLOUR_DEFS);
    let c = claim(&p, "flipped_seq");
    let mut q = program("");
    let vals = [
        ("M", q.expr("v", "♙ + u. -> . + u♙").unwrap()),
        ("N", q.expr("v", "♙ + ur♟ -> . + ur♙").unwrap()),
    ];
    let (l, r) = (instance(&c.lhs, &vals), instance(&c.rhs, &vals));
    assert_eq!(l, r);
    // The black pawn steps down, then takes a white pawn down and to the
    // left.
    let out = outcomes(&l, ".♟.\n...\n♙..");
    assert_eq!(
        out,
        [vec!["...".to_string(), "...".into(), "♟..".into()]]
            .into_iter()
            .collect()
    );
    assert!(outcomes(&l, "♟..\n..♙\n.♙.").is_empty());
}

#[test]
fn rook_definitions() {
    let p = program(ROOK_DEFS);
    for (name, sort) in [
        ("rook_move_u", Sort::Move),
        ("rook_move", Sort::Move),
        ("rook_take_u", Sort::Move),
        ("rook_move_or_take_u", Sort::Move),
        ("rook_move_or_take", Sort::Move),
        ("unfilled", Sort::Pattern),
        ("filled", Sort::Pattern),
        ("pawn_takes", Sort::Move),
    ] {
        let t = p.definition(name).unwrap_or_else(|| panic!("no definition `{name}`"));
        assert_eq!(t.sort(), sort, "{name}");
    }
    let up = p.definition("rook_move_u").unwrap();
    assert_eq!(up.bounds(), Some(Bounds::PLUS));
    assert!(up.is_open());

    // `rook_move` binds a rook and steps it in the four directions.
    let rook_move = p.definition("rook_move").unwrap();
    let Node::Bind([c, _]) = rook_move.node() else {
        panic!("not a binder")
    };
    assert_eq!(c.node(), &Node::Cell(piece("♖")));
    let steps: BTreeSet<(i32, i32)> = rules_in(rook_move)
        .into_iter()
        .map(|r| {
            let (f, _) = rule_sides(r);
            let f = fragment(f);
            let poi = f.poi().unwrap();
            let (to, _) = f.cells().find(|(q, _)| *q != poi).unwrap();
            (to.x - poi.x, to.y - poi.y)
        })
        .collect();
    assert_eq!(steps, [(0, 1), (-1, 0), (0, -1), (1, 0)].into_iter().collect());

    // `rook_take_u`: slide, then take a black pawn.
    let take = p.definition("rook_take_u").unwrap();
    let Node::Seq([slide, capture]) = take.node() else {
        panic!("not a sequence")
    };
    assert_eq!(slide.bounds(), Some(Bounds::STAR));
    assert_eq!(
        rule(capture),
        (set(&[(0, 0, "%"), (0, 1, "♟")]), set(&[(0, 0, "."), (0, 1, "%")]))
    );

    // Both of the seed's `rook_move_or_take` are the same move.
    let q = program(ROOK_DEFS_WITH_FUNCTION);
    assert_eq!(p.definition("rook_move_or_take"), q.definition("rook_move_or_take"));
    assert_eq!(rules_in(p.definition("rook_move_or_take").unwrap()).len(), 12);

    // The patterns and the pawn's takes.
    let white: BTreeSet<Cells> = ["♙", "♔", "♕", "♗", "♘", "♖"]
        .iter()
        .map(|g| set(&[(0, 0, g)]))
        .collect();
    let black: BTreeSet<Cells> = ["♟", "♚", "♛", "♝", "♞", "♜"]
        .iter()
        .map(|g| set(&[(0, 0, g)]))
        .collect();
    assert_eq!(members(p.definition("unfilled").unwrap()), white);
    assert_eq!(members(p.definition("filled").unwrap()), black);
    let takes = p.definition("pawn_takes").unwrap();
    let Node::Alt([right, left]) = takes.node() else {
        panic!("not a choice")
    };
    for (side, dx) in [(right, 1), (left, -1)] {
        let (f, g) = rule_sides(side);
        let want: BTreeSet<Cells> = ["♟", "♚", "♛", "♝", "♞", "♜"]
            .iter()
            .map(|b| set(&[(0, 0, "♙"), (dx, 1, b)]))
            .collect();
        assert_eq!(members(f), want);
        assert_eq!(cells_of(fragment(g)), set(&[(0, 0, "."), (dx, 1, "♙")]));
    }
}

#[test]
fn rook_moves_on_a_board() {
    let p = program(ROOK_DEFS);
    let t = p.definition("rook_move_or_take").unwrap();
    // A rook in a corner of a 3×3 board, a black pawn two squares up.
    let out = outcomes(t, "♟..\n...\n♖..");
    let expected: BTreeSet<Vec<String>> = [
        ["♟..", "♖..", "..."],
        ["♖..", "...", "..."],
        ["♟..", "...", ".♖."],
        ["♟..", "...", "..♖"],
    ]
    .iter()
    .map(|b| b.iter().map(|r| r.to_string()).collect())
    .collect();
    assert_eq!(out, expected);
}

/// Appendix A: `%♖: A A?` is the choice of one or two steps; `%♖: A{2}`
/// is not.
#[test]
fn appendix_a() {
    let p = program(APPENDIX_CLAIMS);
    let twice = claim(&p, "app_twice_is_not_the_choice");
    let maybe = claim(&p, "app_maybe_again");
    assert_eq!(twice.rhs, maybe.rhs);
    for board in [".\n.\n♖", "♟\n.\n♖", ".\n.\n.\n♖", "♖\n♖"] {
        assert_eq!(outcomes(&maybe.lhs, board), outcomes(&maybe.rhs, board), "{board}");
    }
    let open = ".\n.\n♖";
    assert_eq!(outcomes(&twice.lhs, open).len(), 1);
    assert_eq!(outcomes(&twice.rhs, open).len(), 2);
    let blocked = "♟\n.\n♖";
    assert!(outcomes(&twice.lhs, blocked).is_empty());
    assert_eq!(outcomes(&twice.rhs, blocked).len(), 1);
}
