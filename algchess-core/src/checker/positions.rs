//! Evidence on real boards: a claim's two sides compared on positions
//! reachable in play of the games its file declares or imports.
//!
//! Enumeration covers every board of a few squares; a chess user trusts
//! boards of 64. The positions are the games' starting boards (for chess,
//! also the standard perft positions) and the boards of random games played
//! from them, ply by ply, from a fixed seed, so a run is reproducible. On
//! each position the two result sets are compared exactly: closed moves
//! without a POI, moves with a free `%` with the POI on every square of the
//! board. A difference is a counterexample, confirmed by construction: it
//! was found by the concrete evaluator.

use super::claim::{CounterReport, StateReport};
use crate::clock::Timer;
use crate::elab::{Claim, Game, Program};
use crate::geometry::Square;
use crate::ir::{Content, PieceId, Pieces, Sort};
use crate::memory::{Budget, MemoryLimit};
use crate::par::*;
use crate::play::{Position, Rules, TooBig};
use crate::rng::Rng;
use crate::semantics::{compile, Eval, Grid, Halt, Prog, State, Store};
use rustc_hash::FxHashSet;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// The standard perft positions (start, Kiwipete, positions 3, 4 and 5),
/// added as starting points when a game starts from chess's start position.
pub const PERFT_POSITIONS: [(&str, &str); 5] = [
    (
        "the start position",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    ),
    (
        "Kiwipete",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    ),
    ("perft position 3", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"),
    (
        "perft position 4",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    ),
    (
        "perft position 5",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    ),
];

/// Plies of one random game: long enough to reach middlegames and
/// endgames, short enough that many games (and openings) are sampled.
const PLIES: usize = 100;
/// A ply with more results than this ends its random game: sampling is
/// bounded by work, not by a clock (a game of 2^16 results a ply once
/// sampled for minutes).
const MOST_RESULTS: usize = 10_000;
/// Random games played at once; fixed, so the sample does not depend on
/// the number of threads.
const BATCH: usize = 16;

/// The games of `prog`: its own, then those of the files it imports, in
/// the order they were read, as elaboration kept them
/// ([`Program::imported_games`]: an imported game that does not elaborate
/// as this file reads it is not among them).
pub fn games(prog: &Program) -> Vec<Game> {
    prog.games().iter().chain(prog.imported_games()).cloned().collect()
}

/// A position claims are checked on, and where it comes from.
#[derive(Clone, Debug)]
pub struct Sample {
    /// The board, with the pieces of the game's rule file.
    pub board: Grid,
    /// Whose turn it is, in the game's turn order (for the FEN).
    pub turn: usize,
    /// Where the position comes from: a start, a named position, or a random
    /// game's ply.
    pub origin: String,
}

impl Sample {
    /// The position in FEN, when the board is a chess board.
    pub fn fen(&self, pieces: &Pieces) -> Option<String> {
        crate::record::fen::write(&self.board, self.turn == 1, pieces).ok()
    }
}

/// Where random games start: a game's starting board, or a named position.
struct Root {
    rules: usize,
    pos: Position,
    name: String,
}

fn roots(rules: &[Rules]) -> Vec<Root> {
    let mut out = vec![];
    for (i, r) in rules.iter().enumerate() {
        out.push(Root {
            rules: i,
            pos: r.start(),
            name: format!("the start of `{}`", r.name),
        });
        // A game that starts from chess's start position (markers and all)
        // is chess: the perft positions are positions of it.
        let is_chess = crate::record::fen::read(PERFT_POSITIONS[0].1, &r.pieces).is_ok_and(|(b, _)| b == r.start);
        if !is_chess {
            continue;
        }
        for (name, fen) in &PERFT_POSITIONS[1..] {
            let (board, black) = crate::record::fen::read(fen, &r.pieces).expect("the perft positions are valid FEN");
            out.push(Root {
                rules: i,
                pos: Position {
                    board,
                    turn: usize::from(black) % r.turns.len(),
                },
                name: name.to_string(),
            });
        }
    }
    out
}

/// The positions of random game `k` after each ply, until the side to move
/// has no move or more than `MOST_RESULTS`, a move exceeds the evaluation
/// budget, `PLIES` are played, or `over` says a limit is met (checked
/// before every ply; a ply that the rules' budget stops is told to `cut`).
/// `first` is the root's successors, found once for all its games.
fn random_game(
    rules: &Rules,
    first: &Result<Vec<Position>, TooBig>,
    seed: u64,
    k: usize,
    over: &(dyn Fn() -> bool + Sync),
    cut: &(dyn Fn(TooBig) + Sync),
) -> Vec<Position> {
    // Each game seeds its own generator, so games are independent of the
    // order they run in.
    let mut rng = Rng::new(seed ^ (k as u64).wrapping_mul(0xD1B5_4A32_D192_ED03));
    let mut out: Vec<Position> = vec![];
    for ply in 0..PLIES {
        if over() {
            break;
        }
        let found = match (ply, out.last()) {
            (0, _) => first.clone(),
            (_, Some(pos)) => rules.successors(pos),
            (_, None) => break,
        };
        let mut next = match found {
            Ok(next) => next,
            Err(e) => {
                cut(e);
                break;
            }
        };
        if next.is_empty() || next.len() > MOST_RESULTS {
            break;
        }
        // A plain remainder: its bias is nothing beside 2^64 for at most
        // `MOST_RESULTS` moves, and it keeps the sample as it always was.
        out.push(next.swap_remove((rng.next_u64() % next.len() as u64) as usize));
    }
    out
}

/// Positions sampled from a set of games, and whether the sampling ran to
/// its end rather than being stopped by a limit.
#[derive(Clone, Debug, Default)]
pub struct Sampled {
    /// How many positions were asked for.
    pub asked: usize,
    /// The positions, in the order they were sampled.
    pub samples: Vec<Sample>,
    /// False when the timeout or the memory limit stopped the sampling, so
    /// fewer positions than asked for may be there.
    pub complete: bool,
    /// True when it was the memory limit.
    pub stopped_by_memory: bool,
}

impl Sampled {
    /// The first `n` positions: what sampling `n` would have given, as a
    /// sample of fewer is the start of one of more.
    pub fn first(&self, n: usize) -> Sampled {
        Sampled {
            asked: n.min(self.asked),
            samples: self.samples[..n.min(self.samples.len())].to_vec(),
            ..self.clone()
        }
    }

    /// Marks `report`, a check on these samples, as cut short when the
    /// sampling was.
    pub fn mark(&self, report: &mut PositionsReport) {
        report.sampling_complete = self.complete;
        report.complete &= self.complete;
        report.stopped_by_memory |= self.stopped_by_memory;
    }
}

/// The positions claims are compared on, sampled once for each set of
/// games and shared by every claim that plays those games (the files of a
/// folder that import one game sample it once).
#[derive(Debug, Default)]
pub struct PositionPool {
    /// The most positions any claim is compared on.
    most: usize,
    cache: std::sync::Mutex<Vec<(GamesKey, std::sync::Arc<Sampled>)>>,
}

impl PositionPool {
    /// A pool of up to `most` positions a set of games (0: none).
    pub fn new(most: usize) -> PositionPool {
        PositionPool {
            most,
            cache: Default::default(),
        }
    }

    /// The first `want` (at most the pool's `most`) positions of `games`
    /// that `claim` is compared on: none when it is not compared on
    /// positions (see [`applies`]). Sampling stops at `limits`' timeout
    /// and memory limit; a sample so cut short is not kept.
    pub fn sample(
        &self,
        games: &[Game],
        claim: &Claim,
        want: usize,
        limits: &PositionOptions,
    ) -> std::sync::Arc<Sampled> {
        let want = want.min(self.most);
        if want == 0 || games.is_empty() || !applies(claim) {
            return std::sync::Arc::new(Sampled {
                complete: true,
                ..Sampled::default()
            });
        }
        let key: GamesKey = games
            .iter()
            .map(|g| (g.name.clone(), g.board.clone(), g.turns.clone()))
            .collect();
        // Sampled under the lock, so claims running side by side sample
        // once. A sample of fewer positions is the start of one of more, so
        // the largest asked for serves every claim that asks for fewer.
        let mut cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((_, s)) = cache.iter().find(|(k, s)| *k == key && s.asked >= want) {
            return std::sync::Arc::new(s.first(want));
        }
        let sampled = std::sync::Arc::new(sample(games, want, SEED, limits));
        if sampled.complete {
            cache.retain(|(k, _)| *k != key);
            cache.push((key, sampled.clone()));
        }
        sampled
    }
}

/// A set of games, as the key of the positions sampled from them.
type GamesKey = Vec<(String, Grid, Vec<crate::ir::Term>)>;

/// The seed of the random games positions are sampled from: fixed, so a
/// run is reproducible.
const SEED: u64 = 0x5eed_0f9a_3e00;

/// Where one claim's positions come from, and how they are compared.
#[derive(Clone, Copy)]
pub struct OnPositions<'a> {
    /// The pool the positions are drawn from.
    pub pool: &'a PositionPool,
    /// The games of the claim's file and of the files it imports (see
    /// [`games`]).
    pub games: &'a [Game],
    /// Boards compared before the sampled positions.
    pub first: &'a [Sample],
    /// The limits of sampling and comparing.
    pub options: &'a PositionOptions,
    /// How many positions a replayed proof is confirmed on; a claim
    /// without a proof is compared on all of the pool's.
    pub after_proof: usize,
    /// Hears `(done, total)` positions.
    pub progress: &'a (dyn Fn(usize, usize) + Sync),
}

impl OnPositions<'_> {
    /// Compares `claim`'s two sides on its first boards and up to `want`
    /// sampled positions; `None` when there is none to compare on.
    pub fn compare(&self, claim: &Claim, want: usize) -> Option<PositionsReport> {
        let sampled = self.pool.sample(self.games, claim, want, self.options);
        let samples: std::borrow::Cow<[Sample]> = match self.first {
            [] => std::borrow::Cow::Borrowed(&sampled.samples),
            first => std::borrow::Cow::Owned(first.iter().chain(&sampled.samples).cloned().collect()),
        };
        if samples.is_empty() {
            return None;
        }
        (self.progress)(0, samples.len());
        let mut report = check_positions(claim, &samples, self.options, self.progress);
        sampled.mark(&mut report);
        Some(report)
    }
}

/// Checks one claim on boards, then compares its sides on reachable
/// positions: a claim that holds on every board searched is refuted by a
/// position on which the sides differ, and the report says so. This is the
/// verdict `algchess check` prints; the second value is what the positions
/// showed.
pub fn check_claim_on(
    claim: &Claim,
    options: &super::ClaimOptions,
    positions: Option<&OnPositions>,
    progress: &(dyn Fn(usize, usize, usize) + Sync),
) -> (super::CheckerReport, Option<PositionsReport>) {
    let mut report = super::check_claim(claim, options, progress);
    if report.verdict == super::Finding::Refuted {
        return (report, None);
    }
    let played = positions.and_then(|on| on.compare(claim, usize::MAX));
    if let Some(p) = &played {
        report.ms += p.ms;
        if let Some(cx) = &p.counterexample {
            report.verdict = super::Finding::Refuted;
            report.counterexample = Some(cx.clone());
        }
    }
    (report, played)
}

/// Up to `n` distinct positions (by board) reachable in `games`: their
/// starting points, then the boards of random games, in a fixed order.
/// Fewer when the games run out of new positions, or when `limits`' timeout
/// or memory limit is met (checked before every ply of every game; a ply
/// itself is bounded by the evaluator's budget).
pub fn sample(games: &[Game], n: usize, seed: u64, limits: &PositionOptions) -> Sampled {
    let deadline = limits.timeout.start();
    let stopped = AtomicBool::new(false);
    let by_memory = AtomicBool::new(false);
    let over = || {
        let memory = limits.memory != MemoryLimit::NONE && limits.memory.exceeded();
        let hit = memory || deadline.passed();
        if hit {
            stopped.store(true, Ordering::Relaxed);
            by_memory.fetch_or(memory, Ordering::Relaxed);
        }
        hit
    };
    // A ply the budget stopped stops the sampling, as the limits do
    // between plies; one too big for the evaluator only ends its game.
    let cut = |e: TooBig| {
        if !matches!(e, TooBig::States(_)) {
            stopped.store(true, Ordering::Relaxed);
            by_memory.fetch_or(matches!(e, TooBig::Memory(_)), Ordering::Relaxed);
        }
    };
    // A ply is within the limits too, not only the time between plies: a
    // turn of astronomically many results stops at them. The engine plays
    // the random games: the interpreter's equal (the engine's invariant),
    // many times faster.
    let budget = Budget {
        memory: limits.memory,
        deadline,
        stop: None,
    };
    let rules: Vec<Rules> = games.iter().map(|g| Rules::fast(g).within(budget.clone())).collect();
    let roots = roots(&rules);
    let mut seen: FxHashSet<Grid> = FxHashSet::default();
    let mut out = vec![];
    let mut push = |out: &mut Vec<Sample>, pos: &Position, origin: &dyn Fn() -> String| {
        if out.len() < n && seen.insert(pos.board.clone()) {
            out.push(Sample {
                board: pos.board.clone(),
                turn: pos.turn,
                origin: origin(),
            });
        }
    };
    for root in &roots {
        push(&mut out, &root.pos, &|| root.name.clone());
    }
    if roots.is_empty() {
        return Sampled {
            asked: n,
            samples: out,
            complete: true,
            stopped_by_memory: false,
        };
    }
    // Every game from a root starts with the root's moves: found once,
    // not once a game (a root of 65,535 moves took seconds each time).
    let first_plies: Vec<Result<Vec<Position>, TooBig>> = roots
        .par_iter()
        .map(|root| match over() {
            true => Ok(vec![]),
            false => rules[root.rules].successors(&root.pos),
        })
        .collect();
    let mut first = 0;
    while out.len() < n {
        let played: Vec<Vec<Position>> = (first..first + BATCH)
            .into_par_iter()
            .map(|k| {
                let r = k % roots.len();
                random_game(&rules[roots[r].rules], &first_plies[r], seed, k, &over, &cut)
            })
            .collect();
        let before = out.len();
        for (i, game) in played.iter().enumerate() {
            let root = &roots[(first + i) % roots.len()];
            for (ply, pos) in game.iter().enumerate() {
                push(&mut out, pos, &|| {
                    format!("ply {} of random game {} from {}", ply + 1, first + i + 1, root.name)
                });
            }
        }
        first += BATCH;
        // A whole batch of games found nothing new: the games are
        // exhausted (tic-tac-toe has only so many boards).
        if out.len() == before || stopped.load(Ordering::Relaxed) {
            break;
        }
    }
    Sampled {
        asked: n,
        samples: out,
        complete: !stopped.into_inner(),
        stopped_by_memory: by_memory.into_inner(),
    }
}

/// Boards of `game`'s shape, empty but for one king (a piece of `kings`)
/// and one other piece the game names, on every pair of squares: a line
/// too short for the board, or an attacker left out, shows on one of them.
pub fn pairs(game: &Game, kings: &[PieceId]) -> Vec<Sample> {
    let mut pieces: Vec<PieceId> = game.turns.iter().flat_map(|t| t.pieces()).collect();
    pieces.sort();
    pieces.dedup();
    let start = &game.board;
    let o = start.origin();
    let squares: Vec<Square> = (0..start.height())
        .flat_map(|y| (0..start.width()).map(move |x| Square::new(o.x + x, o.y + y)))
        .filter(|q| start.get(*q).is_some())
        .collect();
    let mut empty = start.clone();
    for q in &squares {
        empty.put(*q, Some(Content::Empty));
    }
    let mut out = vec![];
    for &k in kings {
        for &a in &squares {
            for &p in &pieces {
                for &b in &squares {
                    if a == b {
                        continue;
                    }
                    let mut board = empty.clone();
                    board.put(a, Some(Content::Piece(k)));
                    board.put(b, Some(Content::Piece(p)));
                    out.push(Sample {
                        board,
                        turn: 0,
                        origin: format!(
                            "a board with only {} on {} and {} on {}",
                            game.pieces.glyph(k),
                            a.name(),
                            game.pieces.glyph(p),
                            b.name()
                        ),
                    });
                }
            }
        }
    }
    out
}

/// Whether a claim is checked on positions: two different closed moves
/// without metavariables (laws are checked on random instances instead).
pub fn applies(claim: &Claim) -> bool {
    claim.lhs.sort() == Sort::Move
        && claim.rhs.sort() == Sort::Move
        && claim.lhs.metas().is_empty()
        && claim.rhs.metas().is_empty()
        && claim.lhs != claim.rhs
}

/// Limits of a check on positions.
#[derive(Clone, Debug)]
pub struct PositionOptions {
    /// States one evaluation of one side may make.
    pub eval_budget: usize,
    /// Stop after this long on the timer's clock, reporting the positions
    /// checked by then.
    pub timeout: Timer,
    /// Stop when the process holds more heap than this, reporting the
    /// positions checked by then.
    pub memory: MemoryLimit,
}

/// What comparing a claim's sides on positions found.
#[derive(Clone, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct PositionsReport {
    /// Positions on which the two sides were compared in full.
    pub checked: usize,
    /// Positions sampled.
    pub sampled: usize,
    /// Positions skipped because an evaluation exceeded the state budget.
    pub over_budget: usize,
    /// False when the timeout or the memory limit stopped the check (or
    /// the sampling of its positions).
    pub complete: bool,
    /// False when a limit stopped the sampling of the positions.
    pub sampling_complete: bool,
    /// True when the memory limit stopped it.
    pub stopped_by_memory: bool,
    /// A position on which the sides differ.
    pub counterexample: Option<CounterReport>,
    /// Where the counterexample's position comes from, and its FEN.
    pub origin: Option<String>,
    /// The counterexample position in FEN, when the board is a chess board.
    pub fen: Option<String>,
    /// Wall-clock time of the check, in milliseconds.
    pub ms: u64,
}

/// Why an evaluation on a position gave up.
enum Over {
    Budget,
    Memory,
}

/// The two result sets on `state`, when they differ; `Err` when an
/// evaluation exceeded the budget or the memory limit.
fn differ(
    left: &Prog,
    right: &Prog,
    state: &State<Grid>,
    options: &PositionOptions,
) -> Result<Option<[Vec<State<Grid>>; 2]>, Over> {
    let run = |p: &Prog| -> Result<Vec<State<Grid>>, Over> {
        let mut eval = Eval::new(options.eval_budget).with_memory(options.memory);
        let mut v = eval.run(p, state).map_err(|h| match h {
            Halt::Budget(_) | Halt::Time => Over::Budget,
            Halt::Memory(_) => Over::Memory,
            Halt::Unknown(never) => match never {},
        })?;
        v.sort();
        Ok(v)
    };
    let (a, b) = (run(left)?, run(right)?);
    Ok((a != b).then_some([a, b]))
}

/// Compares the two sides of `claim` (which `applies`) on every sample, in
/// parallel. The counterexample reported is the first in sample order, so
/// a run is reproducible. `progress` hears `(done, total)`.
pub fn check_positions(
    claim: &Claim,
    samples: &[Sample],
    options: &PositionOptions,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> PositionsReport {
    let deadline = options.timeout.start();
    let left = compile(&claim.lhs).expect("a closed move compiles");
    let right = compile(&claim.rhs).expect("a closed move compiles");
    let open = claim.lhs.is_open() || claim.rhs.is_open();
    let checked = AtomicUsize::new(0);
    let over_budget = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let timed_out = AtomicBool::new(false);
    let out_of_memory = AtomicBool::new(false);
    let found = samples.par_iter().enumerate().find_map_first(|(i, sample)| {
        if out_of_memory.load(Ordering::Relaxed) {
            return None;
        }
        if deadline.passed() {
            timed_out.store(true, Ordering::Relaxed);
            return None;
        }
        let pois: Vec<Option<crate::geometry::Square>> = if open {
            let b = &sample.board;
            b.squares()
                .iter()
                .filter(|q| b.on_board(*q).unwrap_or(false))
                .map(Some)
                .collect()
        } else {
            vec![None]
        };
        let mut result = None;
        let mut within_budget = true;
        for poi in pois {
            let state = State {
                board: sample.board.clone(),
                poi,
            };
            match differ(&left, &right, &state, options) {
                Ok(None) => {}
                Ok(Some(sides)) => {
                    result = Some((i, state, sides));
                    break;
                }
                Err(Over::Budget) => within_budget = false,
                Err(Over::Memory) => {
                    // Not this position's fault: the run stops here, as at
                    // the timeout, and the position is not counted.
                    out_of_memory.store(true, Ordering::Relaxed);
                    return None;
                }
            }
        }
        if result.is_none() {
            if within_budget {
                checked.fetch_add(1, Ordering::Relaxed);
            } else {
                over_budget.fetch_add(1, Ordering::Relaxed);
            }
        }
        progress(done.fetch_add(1, Ordering::Relaxed) + 1, samples.len());
        result
    });
    let (counterexample, origin, fen) = match found {
        Some((i, state, [l, r])) => (
            Some(CounterReport::Board {
                board: state.board.rows(&claim.pieces),
                poi: state.poi.map(|q| {
                    let o = state.board.origin();
                    [q.x - o.x, q.y - o.y]
                }),
                poi_cell: None,
                poi_on: None,
                squares: state.board.size(),
                left: l.iter().map(|s| StateReport::new(s, &claim.pieces)).collect(),
                right: r.iter().map(|s| StateReport::new(s, &claim.pieces)).collect(),
                instance: None,
            }),
            Some(samples[i].origin.clone()),
            samples[i].fen(&claim.pieces),
        ),
        None => (None, None, None),
    };
    let mut counterexample = counterexample;
    if let Some(c) = &mut counterexample {
        c.draw_on(claim.tiling, &claim.pieces);
    }
    PositionsReport {
        checked: checked.into_inner(),
        sampled: samples.len(),
        over_budget: over_budget.into_inner(),
        complete: !timed_out.load(Ordering::Relaxed) && !out_of_memory.load(Ordering::Relaxed),
        sampling_complete: true,
        stopped_by_memory: out_of_memory.into_inner(),
        counterexample,
        origin,
        fen,
        ms: deadline.elapsed().as_millis() as u64,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::semantics::results;

    fn chess() -> (Program, Vec<Game>) {
        let prog = crate::testing::load("theorems/chess.alg");
        let games = games(&prog);
        (prog, games)
    }

    fn options() -> PositionOptions {
        PositionOptions {
            eval_budget: 1_000_000,
            timeout: Timer::NONE,
            memory: MemoryLimit::NONE,
        }
    }

    fn claim(prog: &Program, text: &str) -> Claim {
        let name = prog.source().name.clone();
        let mut src = prog.source().text.to_string();
        src.push_str(&format!("\ntheorem probe: {text}\n"));
        let p = crate::testing::from_text(&name, &src).unwrap();
        p.claims().iter().find(|c| c.name == "probe").unwrap().clone()
    }

    #[test]
    fn imported_games_are_found_and_sampled_reproducibly() {
        let (prog, games) = chess();
        assert!(prog.games().is_empty(), "theorems/chess.alg declares no game itself");
        assert_eq!(games.iter().map(|g| g.name.as_str()).collect::<Vec<_>>(), ["chess"]);
        let a = sample(&games, 300, 7, &options()).samples;
        let b = sample(&games, 300, 7, &options()).samples;
        let c = sample(&games, 300, 8, &options()).samples;
        assert_eq!(a.len(), 300);
        assert!(a
            .iter()
            .zip(&b)
            .all(|(x, y)| x.board == y.board && x.origin == y.origin));
        assert!(a.iter().zip(&c).any(|(x, y)| x.board != y.board), "the seed matters");
        let distinct: FxHashSet<&Grid> = a.iter().map(|s| &s.board).collect();
        assert_eq!(distinct.len(), a.len(), "positions are distinct");
        // The start and the perft positions come first (FEN as given, the
        // move clocks aside).
        let head = |f: &str| f.split(' ').take(4).collect::<Vec<_>>().join(" ");
        for (i, (name, fen)) in PERFT_POSITIONS.iter().enumerate() {
            assert_eq!(a[i].fen(prog.pieces()).map(|f| head(&f)), Some(head(fen)), "{name}");
        }
        // Every later position is one ply from the one before it in its
        // game, or the first ply of a game from a root.
        let rules = Rules::new(&games[0]);
        let first_ply = a.iter().position(|s| s.origin.starts_with("ply 1 of")).unwrap();
        let root = &a[first_ply].origin;
        let from = PERFT_POSITIONS.iter().position(|(n, _)| root.ends_with(n)).unwrap_or(0);
        let parent = Position {
            board: a[from].board.clone(),
            turn: a[from].turn,
        };
        let next = rules.successors(&parent).unwrap();
        assert!(next.iter().any(|p| p.board == a[first_ply].board), "{root}");
    }

    #[test]
    fn a_game_with_few_positions_runs_out() {
        let prog = crate::testing::load("rules/tictactoe.alg");
        let all = sample(&games(&prog), 1_000_000, 1, &options()).samples;
        // 5478 boards are reachable in tic-tac-toe; random games find most.
        assert!(all.len() > 3000 && all.len() <= 5478, "{}", all.len());
    }

    #[test]
    fn a_true_claim_holds_on_every_position() {
        let (prog, games) = chess();
        let samples = sample(&games, 200, 1, &options()).samples;
        for text in ["white in_check = fail", "F attacked = attacked"] {
            let c = claim(&prog, text);
            assert!(applies(&c));
            let r = check_positions(&c, &samples, &options(), &|_, _| {});
            assert!(r.counterexample.is_none(), "{text}: {r:?}");
            assert_eq!((r.checked, r.sampled, r.complete), (200, 200, true), "{text}");
        }
    }

    /// A pseudo-legal move generator is not the legal one: some position
    /// of play has a move that leaves the king in check. The counterexample
    /// is the first such position, and both result sets are what the
    /// evaluator gives there.
    #[test]
    fn a_false_claim_is_refuted_on_a_real_position() {
        let (prog, games) = chess();
        let samples = sample(&games, 2000, 1, &options()).samples;
        let c = claim(&prog, "white = clear_ep white_move");
        let r = check_positions(&c, &samples, &options(), &|_, _| {});
        let Some(CounterReport::Board {
            board,
            poi,
            left,
            right,
            ..
        }) = &r.counterexample
        else {
            panic!("refuted: {r:?}")
        };
        assert!(poi.is_none());
        let i = samples
            .iter()
            .position(|s| s.board.rows(prog.pieces()) == *board)
            .unwrap();
        assert_eq!(r.origin.as_deref(), Some(samples[i].origin.as_str()));
        assert_eq!(r.fen, samples[i].fen(prog.pieces()));
        let state = State {
            board: samples[i].board.clone(),
            poi: None,
        };
        for (side, shown) in [(&c.lhs, left), (&c.rhs, right)] {
            let mut got = results(&compile(side).unwrap(), &state).unwrap();
            got.sort();
            assert_eq!(
                &got.iter()
                    .map(|s| StateReport::new(s, prog.pieces()))
                    .collect::<Vec<_>>(),
                shown
            );
        }
        assert!(left.len() < right.len(), "the legal moves are fewer");
        // No earlier position refutes it.
        for s in &samples[..i] {
            let st = State {
                board: s.board.clone(),
                poi: None,
            };
            let run = |t| {
                let mut v = results(&compile(t).unwrap(), &st).unwrap();
                v.sort();
                v
            };
            assert_eq!(run(&c.lhs), run(&c.rhs), "{}", s.origin);
        }
    }

    #[test]
    fn sampling_stops_at_the_timeout() {
        let (_, games) = chess();
        let limits = PositionOptions {
            timeout: Timer::limited(std::time::Duration::ZERO, &crate::clock::SystemClock),
            ..options()
        };
        let cut = sample(&games, 300, 7, &limits);
        assert!(!cut.complete);
        // The starting points are taken before any game is played.
        assert!(
            !cut.samples.is_empty() && cut.samples.len() < 300,
            "{}",
            cut.samples.len()
        );
        let full = sample(&games, 300, 7, &options());
        assert!(full.complete);
        assert_eq!(full.samples.len(), 300);
    }

    #[test]
    fn an_open_claim_is_refuted_with_a_poi() {
        let (prog, games) = chess();
        let samples = sample(&games, 5, 1, &options()).samples;
        // The start position: a square black attacks is not one white does.
        let c = claim(&prog, "attacked = mirrored(attacked)");
        let r = check_positions(&c, &samples, &options(), &|_, _| {});
        let Some(CounterReport::Board { poi, .. }) = &r.counterexample else {
            panic!("refuted: {r:?}")
        };
        assert!(poi.is_some(), "{r:?}");
        assert_eq!(r.origin.as_deref(), Some("the start of `chess`"));
    }

    /// The library's verdicts count the positions: a claim that the
    /// boards searched cannot tell apart is refuted by a position, by
    /// `check_claim_on` and `prove_claim_on` alike, and the pool samples
    /// the games once for both.
    #[test]
    fn a_position_refutes_what_the_boards_left_open() {
        let (prog, games) = chess();
        let c = claim(&prog, "white = clear_ep white_move");
        let mut on_boards = crate::checker::ClaimOptions::default();
        on_boards.search.max_cells = 1;
        on_boards.search.window = false;
        let boards = crate::checker::check_claim(&c, &on_boards, &|_, _, _| {});
        assert_eq!(boards.verdict, crate::checker::Finding::HoldsUpTo, "{boards:?}");
        let pool = PositionPool::new(2000);
        let heard = AtomicUsize::new(0);
        let progress = |_: usize, _: usize| {
            heard.fetch_add(1, Ordering::Relaxed);
        };
        let on = OnPositions {
            pool: &pool,
            games: &games,
            first: &[],
            options: &options(),
            after_proof: 10,
            progress: &progress,
        };
        let (checked, played) = check_claim_on(&c, &on_boards, Some(&on), &|_, _, _| {});
        assert_eq!(checked.verdict, crate::checker::Finding::Refuted);
        let played = played.as_ref().expect("compared on positions");
        assert!(played.counterexample.is_some() && played.origin.is_some());
        assert_eq!(
            format!("{:?}", checked.counterexample),
            format!("{:?}", played.counterexample)
        );
        assert!(heard.load(Ordering::Relaxed) > 0);
        let cached = pool.cache.lock().unwrap().len();
        assert_eq!(cached, 1);
        let laws = crate::laws::Laws::bundled_on(crate::geometry::Tiling::Square);
        let rules = crate::prover::Rewrites::new(&laws);
        let options = crate::prover::ProveOptions {
            check: on_boards.clone(),
            kat: crate::prover::kat::KatLimits {
                work: 0,
                ..Default::default()
            },
            ..Default::default()
        };
        let alone = crate::prover::prove_claim(&c, &laws, &rules, &options, &|_, _, _| {});
        assert_eq!(alone.verdict, crate::prover::Verdict::Unknown, "{alone:?}");
        let proved = crate::prover::prove_claim_on(&c, &laws, &rules, &options, Some(&on), &|_, _, _| {});
        assert_eq!(proved.verdict, crate::prover::Verdict::Refuted);
        assert_eq!(
            format!("{:?}", proved.counterexample),
            format!("{:?}", played.counterexample)
        );
        assert_eq!(
            proved.positions.as_ref().map(|p| p.origin.clone()),
            Some(played.origin.clone())
        );
        assert_eq!(pool.cache.lock().unwrap().len(), cached, "sampled once");
    }

    #[test]
    fn laws_and_non_moves_are_not_checked_on_positions() {
        let (prog, _) = chess();
        assert!(!applies(&claim(&prog, "M | M = M")));
        assert!(!applies(&claim(&prog, "ur = ru")));
        assert!(!applies(&claim(&prog, "white = white")));
        assert!(applies(&claim(&prog, "white = black")));
    }

    #[test]
    fn a_timeout_stops_the_check() {
        let (prog, games) = chess();
        let samples = sample(&games, 50, 1, &options()).samples;
        let c = claim(&prog, "F attacked = attacked");
        let opts = PositionOptions {
            timeout: Timer::limited(std::time::Duration::ZERO, &crate::clock::SystemClock),
            ..options()
        };
        let r = check_positions(&c, &samples, &opts, &|_, _| {});
        assert!(!r.complete && r.checked < 50, "{r:?}");
    }
}
