//! The notation layer: seed 001's path regexes checked against a direct
//! implementation of the seed's turtle enumeration on random boards, and
//! `translate` and notation literals end to end.

use crate::common::{run, TempDir};
use algchess::{compile, results, Content, Grid, PieceId, Program, Square, State};
use std::collections::{BTreeSet, HashSet};

// ---------------------------------------------------------------------------
// A direct implementation of seed 001: regex → Thompson automaton, and a
// depth-first search over (square, heading, state) with a visited set.
// ---------------------------------------------------------------------------

#[derive(Clone, Debug)]
enum Re {
    Sym(char),
    Cat(Vec<Re>),
    Alt(Vec<Re>),
    Star(Box<Re>),
    Plus(Box<Re>),
    Opt(Box<Re>),
}

impl Re {
    fn text(&self) -> String {
        match self {
            Re::Sym(c) => c.to_string(),
            Re::Cat(v) => v.iter().map(Re::text).collect(),
            Re::Alt(v) => format!("({})", v.iter().map(Re::text).collect::<Vec<_>>().join("|")),
            Re::Star(r) => format!("({})*", r.text()),
            Re::Plus(r) => format!("({})+", r.text()),
            Re::Opt(r) => format!("({})?", r.text()),
        }
    }
}

/// Thompson's automaton: per state, its ε-successors and its symbol edges.
#[derive(Default)]
struct Nfa {
    eps: Vec<Vec<usize>>,
    sym: Vec<Vec<(char, usize)>>,
}

impl Nfa {
    fn state(&mut self) -> usize {
        self.eps.push(vec![]);
        self.sym.push(vec![]);
        self.eps.len() - 1
    }

    /// States `(start, end)` of a fragment for `re`.
    fn build(&mut self, re: &Re) -> (usize, usize) {
        let (s, e) = (self.state(), self.state());
        match re {
            Re::Sym(c) => self.sym[s].push((*c, e)),
            Re::Cat(v) => {
                let mut at = s;
                for r in v {
                    let (a, b) = self.build(r);
                    self.eps[at].push(a);
                    at = b;
                }
                self.eps[at].push(e);
            }
            Re::Alt(v) => {
                for r in v {
                    let (a, b) = self.build(r);
                    self.eps[s].push(a);
                    self.eps[b].push(e);
                }
            }
            Re::Star(r) | Re::Plus(r) | Re::Opt(r) => {
                let (a, b) = self.build(r);
                self.eps[s].push(a);
                self.eps[b].push(e);
                if !matches!(re, Re::Plus(_)) {
                    self.eps[s].push(e);
                }
                if !matches!(re, Re::Opt(_)) {
                    self.eps[b].push(a);
                }
            }
        }
        (s, e)
    }
}

/// Every board seed 001's enumeration reaches: the piece on `from` is
/// lifted and walks; `$` on an empty square goes on, on an enemy ends the
/// path, on anything else kills it; the last square must be empty or an
/// enemy.
/// `headings` run counter-clockwise from up: four on squares, six on hex.
fn seed_001(re: &Re, board: &Grid, from: Square, enemy: &[PieceId], headings: &[(i32, i32)]) -> BTreeSet<Grid> {
    let mut nfa = Nfa::default();
    let (start, accept) = nfa.build(re);
    let piece = board.get(from);
    let mut lifted = board.clone();
    lifted.put(from, Some(Content::Empty));
    let read = |q: Square| lifted.get(q);
    let is_enemy = |c: Option<Content>| matches!(c, Some(Content::Piece(p)) if enemy.contains(&p));
    let turns = headings.len();
    let mut seen = HashSet::new();
    let mut stack = vec![(from, 0usize, start, false)];
    let mut out = BTreeSet::new();
    while let Some(node) = stack.pop() {
        if !seen.insert(node) {
            continue;
        }
        let (q, h, s, stopped) = node;
        if s == accept && (read(q) == Some(Content::Empty) || is_enemy(read(q))) {
            let mut b = lifted.clone();
            b.put(q, piece);
            out.insert(b);
        }
        for &t in &nfa.eps[s] {
            stack.push((q, h, t, stopped));
        }
        for &(c, t) in &nfa.sym[s] {
            match c {
                'F' if !stopped => {
                    let d = headings[h];
                    stack.push((Square::new(q.x + d.0, q.y + d.1), h, t, false));
                }
                'L' => stack.push((q, (h + 1) % turns, t, stopped)),
                'R' => stack.push((q, (h + turns - 1) % turns, t, stopped)),
                '$' => match read(q) {
                    Some(Content::Empty) => stack.push((q, h, t, stopped)),
                    c if is_enemy(c) => stack.push((q, h, t, true)),
                    _ => {}
                },
                _ => {}
            }
        }
    }
    out
}

/// A small deterministic generator (xorshift), so failures repeat.
struct Rng(u64);

impl Rng {
    fn next(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
}

fn random_re(rng: &mut Rng, depth: u32) -> Re {
    let leaf = depth == 0 || rng.next(3) == 0;
    if leaf {
        return match rng.next(6) {
            0 | 1 => Re::Cat(vec![Re::Sym('F'), Re::Sym('$')]),
            2 => Re::Sym('F'),
            3 => Re::Sym('L'),
            4 => Re::Sym('R'),
            _ => Re::Sym('$'),
        };
    }
    let sub = |rng: &mut Rng| random_re(rng, depth - 1);
    match rng.next(6) {
        0 | 1 => Re::Cat(vec![sub(rng), sub(rng)]),
        2 => Re::Alt(vec![sub(rng), sub(rng)]),
        3 => Re::Star(Box::new(sub(rng))),
        4 => Re::Plus(Box::new(sub(rng))),
        _ => Re::Opt(Box::new(sub(rng))),
    }
}

fn random_board(rng: &mut Rng) -> (String, Square) {
    let (w, h) = (3 + rng.next(3) as i32, 3 + rng.next(3) as i32);
    let from = Square::new(rng.next(w as u64) as i32, rng.next(h as u64) as i32);
    let mut rows = vec![];
    for y in (0..h).rev() {
        let mut row = String::new();
        for x in 0..w {
            row.push(if Square::new(x, y) == from {
                '♖'
            } else {
                ['.', '.', '.', '.', '#', '♙', '♟', '♜'][rng.next(8) as usize]
            });
        }
        rows.push(row);
    }
    (rows.join("\n"), from)
}

const SQUARE: [(i32, i32); 4] = [(0, 1), (-1, 0), (0, -1), (1, 0)];

/// Hex cells in axial coordinates: `u`, `lu`, `l`, `d`, `rd`, `r`.
const HEX: [(i32, i32); 6] = [(0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1), (1, 0)];

#[test]
fn path_regexes_mean_what_the_seeds_enumeration_finds() {
    seed_001_agrees("", &SQUARE, 300);
}

/// On hex the turtle has six headings; a box of cells is a parallelogram
/// of hexes, and the board text is only a way to fill it.
#[test]
fn path_regexes_on_hex_mean_what_the_seeds_enumeration_finds() {
    seed_001_agrees("grid hex\n", &HEX, 150);
}

fn seed_001_agrees(grid: &str, headings: &[(i32, i32)], regexes: usize) {
    let mut program = Program::from_text("t.alg", &format!("{grid}enemy = ♟ | ♜\n")).unwrap();
    let enemy: Vec<PieceId> = ["♟", "♜"].iter().map(|p| PieceId::chess(p).unwrap()).collect();
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let (mut cases, mut refused, mut moves) = (0, 0, 0);
    let mut seed_table = vec![];
    for re in [
        "F$",
        "F$F?$",
        "F(LFR|RFL)$",
        "L*FF(L|R)F$",
        "L*(FLFR$|LFRF$)+",
        "L*(F$)+",
        "L*(F|FLF|FRF)$",
    ] {
        seed_table.push(re.to_string());
    }
    for i in 0..regexes {
        let (text, re) = if i < seed_table.len() {
            let t = seed_table[i].clone();
            (t.clone(), parse_re(&t))
        } else {
            let re = random_re(&mut rng, 4);
            (re.text(), re)
        };
        let term = match program.expr("e", &format!("%♖: path\"{text}\"")) {
            Ok(t) => t,
            Err(e) => {
                assert!(
                    e.to_string().contains("squares past the last square it reads with `$`"),
                    "`{text}` is refused only for a part that goes on without `$`: {e}"
                );
                assert!(i >= seed_table.len(), "the seed's regexes are read");
                refused += 1;
                continue;
            }
        };
        let prog = compile(&term).unwrap();
        for _ in 0..8 {
            let (board, from) = random_board(&mut rng);
            let grid = Grid::parse(&board, program.pieces()).unwrap();
            let state = State {
                board: grid.clone(),
                poi: None,
            };
            let got: BTreeSet<Grid> = results(&prog, &state).unwrap().into_iter().map(|s| s.board).collect();
            let want = seed_001(&re, &grid, from, &enemy, headings);
            assert_eq!(got, want, "`{text}` on\n{board}");
            moves += want.len();
            cases += 1;
        }
    }
    assert!(
        cases >= regexes * 8 * 2 / 3,
        "most random regexes are read: {cases} cases, {refused} refused"
    );
    assert!(3 * moves >= 20 * regexes, "the boards allow moves: {moves}");
}

/// The seed's table, read by a tiny parser for this test (the random
/// regexes are built as trees).
fn parse_re(text: &str) -> Re {
    fn alt(cs: &[char], i: &mut usize) -> Re {
        let mut v = vec![cat(cs, i)];
        while cs.get(*i) == Some(&'|') {
            *i += 1;
            v.push(cat(cs, i));
        }
        if v.len() == 1 {
            v.pop().unwrap()
        } else {
            Re::Alt(v)
        }
    }
    fn cat(cs: &[char], i: &mut usize) -> Re {
        let mut v = vec![];
        while let Some(&c) = cs.get(*i) {
            let mut r = match c {
                '(' => {
                    *i += 1;
                    let r = alt(cs, i);
                    *i += 1;
                    r
                }
                '|' | ')' => break,
                c => {
                    *i += 1;
                    Re::Sym(c)
                }
            };
            while let Some(&p) = cs.get(*i) {
                r = match p {
                    '*' => Re::Star(Box::new(r)),
                    '+' => Re::Plus(Box::new(r)),
                    '?' => Re::Opt(Box::new(r)),
                    _ => break,
                };
                *i += 1;
            }
            v.push(r);
        }
        Re::Cat(v)
    }
    let cs: Vec<char> = text.chars().collect();
    alt(&cs, &mut 0)
}

// ---------------------------------------------------------------------------
// translate, and notation literals in rule files
// ---------------------------------------------------------------------------

#[test]
fn translate_prints_a_move_that_moves_accepts() {
    let out = run(["translate", "--from", "path", "/L*FF(L|R)F$/"]);
    assert_eq!(out.code, Some(0), "{out:?}");
    let knight = out.stdout.trim();
    assert!(knight.contains("(% + uur(. | enemy) -> . + uur%)"), "{knight}");
    let m = format!("%♘: {knight}");
    let out = run([
        "moves",
        "rules/chess.alg",
        "--move",
        &m,
        "--board",
        "....../....../..♘.../....../......",
        "--json",
    ]);
    assert_eq!(out.code, Some(0), "{out:?}");
    let v: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(v["results"].as_array().unwrap().len(), 8, "{v}");

    let out = run(["translate", "--from", "betza", "mfWcfF", "--json"]);
    let v: serde_json::Value = serde_json::from_str(out.stdout.trim()).unwrap();
    assert_eq!(v["from"], "betza");
    assert_eq!(
        v["result"],
        "(% + u. -> . + u%) | (% + ur enemy -> . + ur%) | (% + ul enemy -> . + ul%)"
    );
    let out = run([
        "translate",
        "--from",
        "parlett",
        "(alternatives (move 'n 'X) (move 1 (leaper 1 2)))",
        "--to",
        "betza",
    ]);
    assert_eq!((out.code, out.stdout.trim()), (Some(0), "BN"), "{out:?}");
}

#[test]
fn bad_notation_is_bad_input_with_a_span() {
    for (from, text, col, message) in [
        ("path", "/L*(F$/", "4", "this `(` is never closed"),
        ("path", "/L*FX$/", "5", "unknown letter `X`"),
        ("betza", "mfWQw", "5", "unknown letter `w`"),
        ("parlett", "(move 1 'Y)", "10", "unknown direction `Y`"),
        ("referee", "[ahead] if emptyy;", "12", "unknown predicate `emptyy`"),
    ] {
        let out = run(["translate", "--from", from, text]);
        assert_eq!(out.code, Some(2), "{from} {text}: {out:?}");
        assert!(out.stderr.contains(message), "{from} {text}: {}", out.stderr);
        assert!(
            out.stderr.contains(&format!("<{from}>:1:{col}")),
            "{from} {text}: {}",
            out.stderr
        );
        assert!(!out.stderr.contains("internal error"), "{}", out.stderr);
    }
    let out = run(["translate", "--from", "path", "/F$/", "--to", "betza"]);
    assert_eq!(out.code, Some(2), "{out:?}");
    let out = run([
        "translate",
        "--from",
        "parlett",
        "(move 1 (leaper 3 4))",
        "--to",
        "betza",
    ]);
    assert_eq!(out.code, Some(2), "{out:?}");
    assert!(out.stderr.contains("no atom for the leap (3, 4)"), "{}", out.stderr);
}

#[test]
fn notation_literals_in_rule_files() {
    let dir = TempDir::new("notation_literals_in_rule_files");
    let good = dir.write(
        "good.alg",
        "enemy = ♟\ntheorem same: %♘: betza\"N\" = %♘: path\"/L*FF(L|R)F$/\"\ntheorem differ: %♘: betza\"N\" != %♘: betza\"NN\"\n",
    );
    let out = run([std::ffi::OsStr::new("prove"), good.as_os_str()]);
    assert_eq!(out.code, Some(0), "{out:?}");
    assert!(out.stdout.contains("2 claims"), "{}", out.stdout);
    // An error inside a literal points at its place in the file.
    let bad = dir.write("bad.alg", "enemy = ♟\nknight = %♘: betza\"mfWQw\"\n");
    let out = run([std::ffi::OsStr::new("check"), bad.as_os_str()]);
    assert_eq!(out.code, Some(2), "{out:?}");
    assert!(out.stderr.contains("bad.alg:2:24"), "{}", out.stderr);
    assert!(out.stderr.contains("unknown letter `w`"), "{}", out.stderr);
    let bad = dir.write("bad2.alg", "knight = %♘: morse\"-.-\"\n");
    let out = run([std::ffi::OsStr::new("check"), bad.as_os_str()]);
    assert_eq!(out.code, Some(2), "{out:?}");
    assert!(out.stderr.contains("unknown notation `morse`"), "{}", out.stderr);
    // `fmt` keeps literals as written.
    let out = run([std::ffi::OsStr::new("fmt"), good.as_os_str()]);
    assert!(out.stdout.contains("betza\"NN\""), "{}", out.stdout);
}
