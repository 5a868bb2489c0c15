//! Chinese checkers: `rules/chinese_checkers.alg` against a second,
//! independent description of the game.
//!
//! The generator below is written from the rules of the game in its own
//! coordinates (each hole's centre in doubled units: column, and half
//! holes of height, the star's centre at the origin), knowing nothing of
//! the algebra's movements: the star is the union of two big triangles,
//! a hop chain is a graph search over holes that never comes back to one,
//! and the positions a move makes are de-duplicated. Both must give the
//! same successors, the same perft counts and the same winners; `play`
//! and the referee must report the winner of games of three and six.

use crate::common::{run, run_input, TempDir};
use algchess::{perft, Content, Grid, Position, Program, Rules, Square};
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

fn file() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("rules/chinese_checkers.alg")
}

fn load() -> Program {
    algchess::load(&file()).unwrap_or_else(|e| panic!("chinese_checkers.alg: {e}"))
}

// ---- The independent description ----------------------------------------

/// A hole's centre in doubled units: `X` the column, `Y` in half holes.
type Pt = (i32, i32);

/// The six neighbours: up, down, and the four at the sides.
const DIRS: [Pt; 6] = [(0, 2), (0, -2), (1, 1), (1, -1), (-1, 1), (-1, -1)];

/// Column letters, as on Gliński's board (no j).
const FILES: &str = "abcdefghiklmnopqr";

/// The marbles of players 1 to 6.
const MARBLES: [&str; 6] = ["◉", "◎", "◐", "◑", "◒", "◓"];

struct Star {
    cells: Vec<Pt>,
    index: HashMap<Pt, usize>,
    names: Vec<String>,
    /// The point of the star each hole is in (0 to the right, then
    /// counter-clockwise), `None` in the hexagon.
    point: Vec<Option<usize>>,
}

impl Star {
    /// Holes whose cube coordinates `(q, r, s)`, `q + r + s = 0`, are all
    /// at most 4 (one big triangle) or all at least -4 (the other).
    fn new() -> Star {
        let mut cells = vec![];
        for x in -8..=8i32 {
            for y in -16..=16i32 {
                if (x + y).rem_euclid(2) != 0 {
                    continue;
                }
                let (q, r) = (x, (y - x) / 2);
                let s = -q - r;
                let up = q <= 4 && r <= 4 && s <= 4;
                let down = q >= -4 && r >= -4 && s >= -4;
                if up || down {
                    cells.push((x, y));
                }
            }
        }
        let index: HashMap<Pt, usize> = cells.iter().enumerate().map(|(i, &p)| (p, i)).collect();
        // Each column ranked from its lowest hole.
        let names = cells
            .iter()
            .map(|&(x, y)| {
                let below = cells.iter().filter(|&&(x2, y2)| x2 == x && y2 < y).count();
                format!("{}{}", FILES.chars().nth((x + 8) as usize).unwrap(), below + 1)
            })
            .collect();
        let point = cells
            .iter()
            .map(|&(x, y)| {
                let (q, r) = (x, (y - x) / 2);
                if q.abs().max(r.abs()).max((q + r).abs()) <= 4 {
                    return None;
                }
                // The direction of the hole from the centre, in sixths of
                // a turn: a column is √3/2 holes wide, a half hole high.
                let angle = (y as f64 / 2.0).atan2(x as f64 * 3f64.sqrt() / 2.0).to_degrees();
                Some(((angle / 60.0).round() as i32).rem_euclid(6) as usize)
            })
            .collect();
        Star {
            cells,
            index,
            names,
            point,
        }
    }

    fn at(&self, (x, y): Pt) -> Option<usize> {
        self.index.get(&(x, y)).copied()
    }

    fn step(&self, i: usize, (dx, dy): Pt) -> Option<usize> {
        let (x, y) = self.cells[i];
        self.at((x + dx, y + dy))
    }

    fn holes_of(&self, point: usize) -> Vec<usize> {
        (0..self.cells.len())
            .filter(|&i| self.point[i] == Some(point))
            .collect()
    }
}

/// A game of the file: its name, and each player's home point in turn
/// order. Each player's target is the point opposite its home.
struct Setup {
    game: &'static str,
    homes: &'static [usize],
}

const TWO: Setup = Setup {
    game: "chinese_checkers_2",
    homes: &[3, 0],
};
const THREE: Setup = Setup {
    game: "chinese_checkers_3",
    homes: &[3, 5, 1],
};
const FOUR: Setup = Setup {
    game: "chinese_checkers_4",
    homes: &[3, 5, 0, 2],
};
const SIX: Setup = Setup {
    game: "chinese_checkers_6",
    homes: &[3, 4, 5, 0, 1, 2],
};

/// A position: what each hole holds (0 empty, `p + 1` player `p`'s
/// marble) and whose turn it is.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
struct Pos {
    holes: Vec<u8>,
    turn: usize,
}

struct Oracle<'s> {
    star: &'s Star,
    setup: &'s Setup,
}

impl Oracle<'_> {
    fn players(&self) -> usize {
        self.setup.homes.len()
    }

    fn target(&self, p: usize) -> usize {
        (self.setup.homes[p] + 3) % 6
    }

    fn start(&self) -> Pos {
        let mut holes = vec![0; self.star.cells.len()];
        for (p, &home) in self.setup.homes.iter().enumerate() {
            for i in self.star.holes_of(home) {
                holes[i] = p as u8 + 1;
            }
        }
        Pos { holes, turn: 0 }
    }

    /// Player `p` has every hole of its target point.
    fn won(&self, holes: &[u8], p: usize) -> bool {
        self.star
            .holes_of(self.target(p))
            .iter()
            .all(|&i| holes[i] == p as u8 + 1)
    }

    fn over(&self, holes: &[u8]) -> bool {
        (0..self.players()).any(|p| self.won(holes, p))
    }

    /// The moves of the side to move, as (from, to), one per resulting
    /// position: steps to an empty neighbour, and the holes a chain of
    /// hops reaches, searched without coming back to a hole (the hole it
    /// started from included).
    fn moves(&self, pos: &Pos) -> Vec<(usize, usize)> {
        if self.over(&pos.holes) {
            return vec![];
        }
        let me = pos.turn as u8 + 1;
        let mut out = vec![];
        for from in 0..self.star.cells.len() {
            if pos.holes[from] != me {
                continue;
            }
            let mut holes = pos.holes.clone();
            holes[from] = 0;
            let mut reached = HashSet::new();
            for d in DIRS {
                if let Some(n) = self.star.step(from, d) {
                    if holes[n] == 0 {
                        reached.insert(n);
                    }
                }
            }
            let mut visited = HashSet::from([from]);
            let mut stack = vec![from];
            while let Some(at) = stack.pop() {
                for d in DIRS {
                    let Some(over) = self.star.step(at, d) else { continue };
                    let Some(land) = self.star.step(over, d) else { continue };
                    if holes[over] != 0 && holes[land] == 0 && visited.insert(land) {
                        reached.insert(land);
                        stack.push(land);
                    }
                }
            }
            let mut to: Vec<usize> = reached.into_iter().collect();
            to.sort();
            out.extend(to.into_iter().map(|t| (from, t)));
        }
        out
    }

    fn apply(&self, pos: &Pos, (from, to): (usize, usize)) -> Pos {
        let mut holes = pos.holes.clone();
        holes[to] = holes[from];
        holes[from] = 0;
        Pos {
            holes,
            turn: (pos.turn + 1) % self.players(),
        }
    }

    /// The positions the side to move reaches; a side with no move passes
    /// when the next one can move.
    fn successors(&self, pos: &Pos) -> Vec<Pos> {
        let moves = self.moves(pos);
        if moves.is_empty() {
            let passed = Pos {
                holes: pos.holes.clone(),
                turn: (pos.turn + 1) % self.players(),
            };
            return if self.moves(&passed).is_empty() {
                vec![]
            } else {
                vec![passed]
            };
        }
        let set: HashSet<Pos> = moves.into_iter().map(|m| self.apply(pos, m)).collect();
        set.into_iter().collect()
    }

    fn perft(&self, pos: &Pos, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let next = self.successors(pos);
        if depth == 1 {
            return next.len() as u64;
        }
        next.iter().map(|p| self.perft(p, depth - 1)).sum()
    }
}

// ---- Between the two -----------------------------------------------------

struct Both<'s> {
    oracle: Oracle<'s>,
    rules: Rules,
    /// The rule file's square of each hole.
    squares: Vec<Square>,
}

impl<'s> Both<'s> {
    fn new(prog: &Program, star: &'s Star, setup: &'s Setup) -> Both<'s> {
        let rules = Rules::fast(prog.game(setup.game).unwrap());
        Both::with(rules, star, setup)
    }

    fn with(rules: Rules, star: &'s Star, setup: &'s Setup) -> Both<'s> {
        let board = rules.start().board;
        let squares = star
            .names
            .iter()
            .map(|n| match board.hex_cell_prefix(n) {
                Some((q, "")) => q,
                other => panic!("{n} names no hole of the file's board: {other:?}"),
            })
            .collect();
        Both {
            oracle: Oracle { star, setup },
            rules,
            squares,
        }
    }

    fn grid(&self, pos: &Pos) -> Position {
        let mut board = self.rules.start().board;
        for (i, &q) in self.squares.iter().enumerate() {
            let c = match pos.holes[i] {
                0 => Content::Empty,
                p => Content::Piece(self.rules.pieces.lookup(MARBLES[p as usize - 1]).unwrap()),
            };
            board.put(q, Some(c));
        }
        Position { board, turn: pos.turn }
    }

    fn ours(&self, pos: &Position) -> Pos {
        let holes = self
            .squares
            .iter()
            .map(|&q| match pos.board.get(q) {
                Some(Content::Empty) => 0,
                Some(Content::Piece(p)) => {
                    let g = self.rules.pieces.glyph(p);
                    MARBLES
                        .iter()
                        .position(|m| *m == g)
                        .unwrap_or_else(|| panic!("{g} on a hole")) as u8
                        + 1
                }
                None => panic!("a hole off the board"),
            })
            .collect();
        Pos { holes, turn: pos.turn }
    }

    /// Both give the same successors of `pos`, and their names.
    fn agree(&self, pos: &Pos) -> usize {
        let theirs: HashSet<Pos> = self
            .rules
            .successors(&self.grid(pos))
            .unwrap()
            .iter()
            .map(|p| self.ours(p))
            .collect();
        let ours: HashSet<Pos> = self.oracle.successors(pos).into_iter().collect();
        assert_eq!(
            theirs.len(),
            ours.len(),
            "{}: successors of\n{}",
            self.oracle.setup.game,
            self.grid(pos).board.hex_lines(&self.rules.pieces).join("\n")
        );
        assert_eq!(theirs, ours, "{}", self.oracle.setup.game);
        ours.len()
    }

    fn perft_agrees(&self, pos: &Pos, depth: u32) -> u64 {
        let theirs = perft(&self.rules, &self.grid(pos), depth).unwrap();
        let ours = self.oracle.perft(pos, depth);
        assert_eq!(theirs, ours, "{} perft {depth}", self.oracle.setup.game);
        ours
    }
}

/// A random game's positions: `plies` plies from the start, each move
/// picked by a seeded generator.
fn random_play(o: &Oracle, seed: u64, plies: usize) -> Vec<Pos> {
    let mut rng = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut pos = o.start();
    let mut seen = vec![pos.clone()];
    for _ in 0..plies {
        let next = o.successors(&pos);
        if next.is_empty() {
            break;
        }
        let mut sorted = next;
        sorted.sort_by(|a, b| a.holes.cmp(&b.holes));
        rng = rng.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        pos = sorted[(rng >> 33) as usize % sorted.len()].clone();
        seen.push(pos.clone());
    }
    seen
}

// ---- The tests -------------------------------------------------------------

#[test]
fn the_star_its_names_and_the_starts_are_the_games() {
    let star = Star::new();
    assert_eq!(star.cells.len(), 121);
    for p in 0..6 {
        assert_eq!(star.holes_of(p).len(), 10, "point {p}");
    }
    let prog = load();
    for setup in [&TWO, &THREE, &FOUR, &SIX] {
        let both = Both::new(&prog, &star, setup);
        let board = &both.rules.start().board;
        // Every hole named once, and nothing else on the board.
        let distinct: HashSet<Square> = both.squares.iter().copied().collect();
        assert_eq!(distinct.len(), 121);
        let o = board.origin();
        let on = (0..board.height())
            .flat_map(|y| (0..board.width()).map(move |x| Square::new(o.x + x, o.y + y)))
            .filter(|q| board.get(*q).is_some())
            .count();
        assert_eq!(on, 121, "{}", setup.game);
        assert_eq!(both.ours(&both.rules.start()), both.oracle.start(), "{}", setup.game);
        for (i, &q) in both.squares.iter().enumerate() {
            assert_eq!(board.hex_name(q), star.names[i]);
        }
    }
    // The box is 17 columns by 17 rows: more than the 256 squares the
    // engine keeps as bitboards.
    let g = Both::new(&prog, &star, &TWO).rules.start().board;
    assert_eq!((g.width(), g.height()), (17, 17));
}

#[test]
fn perft_from_the_start_agrees() {
    let star = Star::new();
    let prog = load();
    let mut counts = vec![];
    for setup in [&TWO, &THREE, &FOUR, &SIX] {
        let both = Both::new(&prog, &star, setup);
        let start = both.oracle.start();
        let c: Vec<u64> = (1..=3).map(|d| both.perft_agrees(&start, d)).collect();
        counts.push(c);
    }
    // Every player starts with the same 14 moves: 4 front marbles with two
    // steps each, and hops of the 3 rows behind (6). With two or three
    // players nobody's moves touch another's at first.
    assert_eq!(counts[0][..2], [14, 196]);
    assert_eq!(counts[1], [14, 196, 2744]);
}

/// `perft` on the command line plays the file simplified: the same counts.
#[test]
fn perft_on_the_command_line_agrees() {
    let star = Star::new();
    let rules = file();
    for setup in [&TWO, &THREE, &SIX] {
        let o = Oracle { star: &star, setup };
        let args = [
            "perft",
            rules.to_str().unwrap(),
            "--game",
            setup.game,
            "--depth",
            "3",
            "--json",
        ];
        let out = run(args);
        assert_eq!(out.code, Some(0), "{}", out.stderr);
        let v: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
        for (d, got) in v["depths"].as_array().unwrap().iter().enumerate() {
            assert_eq!(
                got["leaves"],
                o.perft(&o.start(), d as u32 + 1),
                "{} depth {}",
                setup.game,
                d + 1
            );
        }
    }
}

#[test]
fn successors_and_perft_agree_on_positions_of_random_play() {
    let star = Star::new();
    let prog = load();
    let mut positions = 0;
    for setup in [&TWO, &THREE] {
        let both = Both::new(&prog, &star, setup);
        for seed in 0..6u64 {
            let game = random_play(&both.oracle, seed, 90);
            for pos in game.iter().skip(15).step_by(25) {
                both.agree(pos);
                both.perft_agrees(pos, 2);
                positions += 1;
            }
        }
    }
    assert!(positions >= 40, "{positions} positions");
}

/// The interpreter agrees too (it is what the engine is tested against),
/// on fewer positions: it is slower.
#[test]
fn the_interpreter_agrees_on_a_few_positions() {
    let star = Star::new();
    let prog = load();
    for setup in [&TWO, &THREE] {
        let both = Both::with(Rules::new(prog.game(setup.game).unwrap()), &star, setup);
        let game = random_play(&both.oracle, 7, 40);
        for pos in [&game[0], &game[20], &game[40]] {
            both.agree(pos);
        }
    }
}

#[test]
fn a_point_is_won_when_every_hole_holds_the_player_s_marbles() {
    let star = Star::new();
    let prog = load();
    for setup in [&TWO, &THREE, &FOUR, &SIX] {
        let both = Both::new(&prog, &star, setup);
        for p in 0..both.oracle.players() {
            // Every hole of the star holds p's marbles: p has won, and
            // nobody moves.
            let full = Pos {
                holes: vec![p as u8 + 1; 121],
                turn: (p + 1) % both.oracle.players(),
            };
            let grid = both.grid(&full);
            assert!(both.rules.won(&grid.board, p).unwrap(), "{} {p}", setup.game);
            assert!(both.rules.successors(&grid).unwrap().is_empty());
            // One hole of the target empty, all the rest p's: not won (so
            // the test fits nowhere but on the target).
            for hole in star.holes_of(both.oracle.target(p)) {
                let mut holes = full.holes.clone();
                holes[hole] = 0;
                let pos = Pos { holes, turn: p };
                assert!(!both.oracle.won(&pos.holes, p));
                assert!(
                    !both.rules.won(&both.grid(&pos).board, p).unwrap(),
                    "{} {p} without {}",
                    setup.game,
                    star.names[hole]
                );
            }
            // The other sides' tests do not hold for p's marbles.
            for other in (0..both.oracle.players()).filter(|&o| o != p) {
                assert!(!both.rules.won(&grid.board, other).unwrap());
            }
        }
    }
}

/// A game played to its end, each player making the move that brings its
/// marbles nearest its target's tip (the sum of squared distances, so the
/// last marbles are not left behind); ties go to the first move by name.
fn greedy_game(o: &Oracle, max_plies: usize) -> Option<(Vec<String>, usize)> {
    let star = o.star;
    let dist = |a: usize, b: usize| {
        let ((x1, y1), (x2, y2)) = (star.cells[a], star.cells[b]);
        let (q, r) = (x1 - x2, ((y1 - x1) - (y2 - x2)) / 2);
        q.abs().max(r.abs()).max((q + r).abs())
    };
    let tip = |p: usize| {
        let holes = star.holes_of(o.target(p));
        *holes
            .iter()
            .max_by_key(|&&i| dist(i, star.at((0, 0)).unwrap()))
            .unwrap()
    };
    let mut pos = o.start();
    let mut plies = vec![];
    for _ in 0..max_plies {
        if let Some(w) = (0..o.players()).find(|&p| o.won(&pos.holes, p)) {
            return Some((plies, w));
        }
        let me = pos.turn;
        let t = tip(me);
        let score = |holes: &[u8]| -> i32 {
            (0..holes.len())
                .filter(|&i| holes[i] == me as u8 + 1)
                .map(|i| dist(i, t).pow(2))
                .sum()
        };
        let mut moves: Vec<(String, Pos)> = o
            .moves(&pos)
            .into_iter()
            .map(|m| (format!("{}{}", star.names[m.0], star.names[m.1]), o.apply(&pos, m)))
            .collect();
        moves.sort_by(|a, b| a.0.cmp(&b.0));
        let (name, next) = moves.into_iter().min_by_key(|(_, p)| score(&p.holes))?;
        plies.push(name);
        pos = next;
    }
    None
}

/// Each side's share of the point in turn order, as the file's results
/// write it: `0-1-0`.
fn shares(players: usize, winner: usize) -> String {
    (0..players)
        .map(|p| if p == winner { "1" } else { "0" })
        .collect::<Vec<_>>()
        .join("-")
}

#[test]
fn the_referee_names_the_winner_of_games_of_three_and_six() {
    let star = Star::new();
    let dir = TempDir::new("chinese-referee");
    for setup in [&THREE, &SIX] {
        let o = Oracle { star: &star, setup };
        let (plies, winner) = greedy_game(&o, 3000).expect("the greedy game ends");
        let n = o.players();
        let result = shares(n, winner);
        // Move numbers count rounds of turns.
        let mut moves = String::new();
        for (i, p) in plies.iter().enumerate() {
            if i % n == 0 {
                moves.push_str(&format!("{}. ", i / n + 1));
            }
            moves.push_str(p);
            moves.push(if i % 8 == 7 { '\n' } else { ' ' });
        }
        let game_text = |tag: &str, extra: &str| {
            format!(
                "[Event \"{}\"]\n[Result \"{tag}\"]\n\n{moves}{extra}{tag}\n",
                setup.game
            )
        };
        let text = game_text(&result, "");
        let pgn = dir.write(&format!("{}.pgn", setup.game), &text);
        let rules = file();
        let args = [
            "referee",
            "--rules",
            rules.to_str().unwrap(),
            "--game",
            setup.game,
            "--json",
            pgn.to_str().unwrap(),
        ];
        let out = run(args);
        assert_eq!(out.code, Some(0), "{}\n{}", out.stdout, out.stderr);
        let game: serde_json::Value = serde_json::from_str(out.stdout.lines().next().unwrap()).unwrap();
        assert_eq!(game["plies"], plies.len(), "{}", out.stdout);
        assert_eq!(game["end"], "won");
        assert_eq!(game["winner"], winner + 1);
        assert_eq!(game["result"], result.as_str());
        assert_eq!(game["result_matches"], true);
        // The text report says it too.
        let out = run(args[..5].iter().chain([&args[6]]));
        let said = format!("won {result} (side {} of {n} won), as the Result tag says", winner + 1);
        assert!(out.stdout.contains(&said), "{}", out.stdout);
        // A ply after the end is refused, and a wrong Result tag noticed.
        let wrong = shares(n, (winner + 1) % n);
        let text = game_text(&wrong, "c1c2 ");
        let pgn = dir.write(&format!("{}_bad.pgn", setup.game), &text);
        let out = run([
            "referee",
            "--rules",
            file().to_str().unwrap(),
            "--game",
            setup.game,
            pgn.to_str().unwrap(),
        ]);
        assert_eq!(out.code, Some(1), "{}", out.stdout);
        assert!(out.stdout.contains("the game is over: won"), "{}", out.stdout);
        assert!(
            out.stdout.contains(&format!("but the Result tag says {wrong}")),
            "{}",
            out.stdout
        );
    }
}

#[test]
fn play_announces_the_winner_among_three_and_six() {
    let star = Star::new();
    let prog = load();
    let dir = TempDir::new("chinese-play");
    for (setup, p) in [(&THREE, 1usize), (&SIX, 4)] {
        let both = Both::new(&prog, &star, setup);
        let n = both.oracle.players();
        // Player p has nine holes of its target, and its tenth marble one
        // step outside the empty one; the others are at home.
        let mut pos = both.oracle.start();
        pos.turn = p;
        let target = star.holes_of(both.oracle.target(p));
        let home = star.holes_of(setup.homes[p]);
        for &h in &home {
            pos.holes[h] = 0;
        }
        let (last, outside) = target
            .iter()
            .find_map(|&t| {
                DIRS.iter()
                    .filter_map(|&d| star.step(t, d))
                    .find(|&o| star.point[o].is_none() && pos.holes[o] == 0)
                    .map(|o| (t, o))
            })
            .unwrap();
        for &t in &target {
            pos.holes[t] = if t == last { 0 } else { p as u8 + 1 };
        }
        pos.holes[outside] = p as u8 + 1;
        let board = dir.write(
            &format!("{}.txt", setup.game),
            &both.grid(&pos).board.hex_lines(&both.rules.pieces).join("\n"),
        );
        let board_arg = format!("@{}", board.display());
        let turn = p.to_string();
        let name = format!("{}{}", star.names[outside], star.names[last]);
        let rules = file();
        let args = [
            "play",
            rules.to_str().unwrap(),
            "--game",
            setup.game,
            "--board",
            &board_arg,
            "--turn",
            &turn,
        ];
        let out = run_input(&args, &format!("{name}\n"));
        assert_eq!(out.code, Some(0), "{}", out.stderr);
        let label = match setup.game {
            "chinese_checkers_3" => format!("three({})", MARBLES[p]),
            _ => format!("six({})", MARBLES[p]),
        };
        let said = format!(
            "game over: won by turn {} of {n} ({label}); result {}",
            p + 1,
            shares(n, p)
        );
        assert!(out.stdout.contains(&said), "{said}\n{}", out.stdout);
    }
}

// ---- Deeper runs -------------------------------------------------------------

#[test]
#[ignore = "deeper: a minute or more"]
fn perft_four_from_the_start_and_three_on_more_positions() {
    let star = Star::new();
    let prog = load();
    for setup in [&TWO, &THREE] {
        let both = Both::new(&prog, &star, setup);
        both.perft_agrees(&both.oracle.start(), 4);
        for seed in 100..120u64 {
            let game = random_play(&both.oracle, seed, 150);
            for pos in game.iter().skip(10).step_by(20) {
                both.agree(pos);
                both.perft_agrees(pos, 3);
            }
        }
    }
}

#[test]
#[ignore = "deeper: played games of four and six"]
fn successors_agree_on_games_of_four_and_six() {
    let star = Star::new();
    let prog = load();
    for setup in [&FOUR, &SIX] {
        let both = Both::new(&prog, &star, setup);
        for seed in 0..10u64 {
            for pos in random_play(&both.oracle, seed, 200).iter().step_by(7) {
                both.agree(pos);
            }
        }
    }
}

/// Board text keeps the marbles: a position written and read back.
#[test]
fn boards_round_trip_as_text() {
    let star = Star::new();
    let prog = load();
    let both = Both::new(&prog, &star, &SIX);
    let pos = random_play(&both.oracle, 3, 30).pop().unwrap();
    let grid = both.grid(&pos).board;
    let back = Grid::parse_hex(&grid.hex_lines(prog.pieces()).join("\n"), prog.pieces()).unwrap();
    assert_eq!(
        both.ours(&Position {
            board: back,
            turn: pos.turn
        }),
        pos
    );
}
