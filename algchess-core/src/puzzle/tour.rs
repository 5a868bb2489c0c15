//! Tours: one piece visiting every square of a board once, moving as its
//! rules move it on a board where it stands alone.
//!
//! Before any search, what settles a board at once is tried: the squares
//! must be joined by moves; a closed tour leaves and enters every square;
//! an open one has at most two ends; and when the moves change the colour
//! of a two-colouring of the squares (a knight's, on any board), a tour
//! alternates colours, so the colours' counts may differ by at most one
//! (by none, closed). Then a depth-first search, the next square tried
//! first the one with fewest ways on (Warnsdorff's rule), that gives up on
//! a path as soon as a square it has not visited can no longer be entered
//! and left: each square keeps how many of its neighbours could still be
//! next to it on the tour.

use super::{Board, Limits, PieceSet, PuzzleError, Running, MAX_TOUR};
use crate::checker::Limit;

/// A tour to look for.
#[derive(Clone, Debug)]
pub struct TourOptions {
    /// Whether the last square must lead back to the first.
    pub closed: bool,
    /// Count every tour instead of finding one.
    pub count: bool,
    /// The square to start from (by number); any, when `None`.
    pub start: Option<usize>,
    /// When to give up.
    pub limits: Limits,
}

/// Why a board has no tour.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(tag = "why", rename_all = "snake_case"))]
pub enum NoTour {
    /// No moves lead from square `from` to square `to`, in any number.
    Apart {
        /// A square.
        from: usize,
        /// One the piece never reaches from it.
        to: usize,
    },
    /// A square that a closed tour must both enter and leave, and cannot.
    DeadEnd {
        /// The square.
        square: usize,
        /// Moves from it (or into it, when it has none).
        moves: usize,
    },
    /// Squares each of which must be an end of an open tour, more than two.
    Ends {
        /// The squares.
        squares: Vec<usize>,
    },
    /// Every move changes the colour of a two-colouring of the squares,
    /// and the colours' counts differ by more than a tour allows.
    Colours {
        /// Squares of the colour of square 0.
        first: usize,
        /// Squares of the other colour.
        second: usize,
    },
    /// The search tried every way and found none.
    Searched,
}

impl NoTour {
    /// The reason, in words, with the board's square names.
    pub fn describe(&self, board: &Board, closed: bool) -> String {
        let tour = if closed { "a closed tour" } else { "a tour" };
        match self {
            NoTour::Apart { from, to } => format!(
                "no moves lead from {} to {}, so {tour} cannot visit both",
                board.name(*from),
                board.name(*to)
            ),
            NoTour::DeadEnd { square, moves } => format!(
                "{} has {moves} move{}, and {tour} must enter it and leave it by different moves",
                board.name(*square),
                if *moves == 1 { "" } else { "s" }
            ),
            NoTour::Ends { squares } => format!(
                "{} squares ({}) have one move each, so each would end {tour}, which has two ends",
                squares.len(),
                squares.iter().map(|s| board.name(*s)).collect::<Vec<_>>().join(", ")
            ),
            NoTour::Colours { first, second } => format!(
                "every move goes between the squares of two colours, {first} of one and {second} of the other, and {tour} alternates them, so {}",
                if closed {
                    "it needs as many of each"
                } else {
                    "their counts may differ by at most one"
                }
            ),
            NoTour::Searched => format!("the search tried every way, and found no {}", &tour[2..]),
        }
    }
}

/// What a tour search found.
#[derive(Clone, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct TourReport {
    /// A tour: the squares in the order visited.
    pub tour: Option<Vec<usize>>,
    /// Why there is none, when that is known.
    pub none: Option<NoTour>,
    /// With `count`: the tours, each once whichever way round and, when
    /// closed, wherever it starts (as the puzzle counts them), unless a
    /// move cannot be played backwards: then each direction is a tour.
    pub count: Option<u64>,
    /// Whether some move cannot be played backwards, so the count is of
    /// directed tours.
    pub directed: bool,
    /// The limit that cut the search short.
    pub stopped: Option<Limit>,
    /// The search's nodes.
    pub nodes: u64,
}

/// Looks for a tour of the first piece of `set` on `board`.
pub fn tour(
    set: &PieceSet,
    board: &Board,
    options: &TourOptions,
    progress: &dyn Fn(usize, usize),
) -> Result<TourReport, PuzzleError> {
    let n = board.len();
    if n > MAX_TOUR {
        return Err(PuzzleError::TooManySquares {
            squares: n,
            most: MAX_TOUR,
        });
    }
    let clock = Running::start(&options.limits);
    let out = set.moves(0, board, &clock)?;
    if n > 1 && out.iter().all(Vec::is_empty) {
        return Err(PuzzleError::NoMoves(set.kinds[0].text.clone()));
    }
    let mut inn = vec![vec![]; n];
    for (s, to) in out.iter().enumerate() {
        for &t in to {
            inn[t as usize].push(s as u32);
        }
    }
    let symmetric = out.iter().zip(&inn).all(|(o, i)| o == i);
    let mut report = TourReport {
        tour: None,
        none: None,
        count: None,
        directed: !symmetric,
        stopped: None,
        nodes: 0,
    };
    if let Some(why) = settled(&out, &inn, symmetric, options.closed) {
        report.none = Some(why);
        report.count = options.count.then_some(0);
        return Ok(report);
    }
    if n == 1 {
        report.tour = Some(vec![0]);
        report.count = options.count.then_some(1);
        return Ok(report);
    }
    let orbits = orbits(board, &out);
    let starts: Vec<(usize, u64)> = match (options.start, options.closed) {
        (Some(s), _) => vec![(s, 1)],
        // Every square is on a closed tour: start at one with fewest
        // moves, its neighbours being next or last.
        (None, true) => vec![((0..n).min_by_key(|&s| out[s].len()).expect("a square"), 1)],
        (None, false) => {
            let mut reps: Vec<(usize, u64)> = orbits;
            // Squares that must end a tour first, then fewest moves.
            let degree = |s: usize| out[s].len() + inn[s].len();
            let forced = |s: usize| inn[s].is_empty() || (symmetric && out[s].len() == 1);
            reps.sort_by_key(|&(s, _)| (!forced(s), degree(s), s));
            if reps.iter().any(|&(s, _)| forced(s)) && !options.count {
                reps.retain(|&(s, _)| forced(s));
            }
            reps
        }
    };
    let mut walk = Walk::new(&out, &inn, symmetric, options.closed, clock);
    let mut total: u64 = 0;
    let mut overflow = false;
    for (done, &(s, weight)) in starts.iter().enumerate() {
        let found = walk.run(s, options.count);
        if let Some(t) = found {
            report.tour.get_or_insert(t);
            if !options.count {
                break;
            }
        }
        match walk.count.checked_mul(weight).and_then(|c| total.checked_add(c)) {
            Some(t) => total = t,
            None => overflow = true,
        }
        walk.count = 0;
        if walk.stopped.is_some() {
            break;
        }
        progress(done + 1, starts.len());
    }
    report.nodes = walk.nodes;
    report.stopped = walk.stopped;
    if overflow {
        return Err(PuzzleError::CountOverflow);
    }
    if options.count {
        // Each undirected tour was found once from each end (open) or
        // once each way round from its start (closed).
        let twice = symmetric && n > 2 && (options.closed || options.start.is_none());
        report.count = Some(if twice { total / 2 } else { total });
    }
    if report.tour.is_none() && report.stopped.is_none() {
        report.none = Some(NoTour::Searched);
    }
    Ok(report)
}

/// What rules a board out at once, without a search.
fn settled(out: &[Vec<u32>], inn: &[Vec<u32>], symmetric: bool, closed: bool) -> Option<NoTour> {
    let n = out.len();
    // The squares joined by moves either way round.
    let mut colour = vec![u8::MAX; n];
    colour[0] = 0;
    let mut queue = vec![0usize];
    let mut two = true;
    while let Some(s) = queue.pop() {
        for &t in out[s].iter().chain(&inn[s]) {
            let t = t as usize;
            if colour[t] == u8::MAX {
                colour[t] = 1 - colour[s];
                queue.push(t);
            } else if colour[t] == colour[s] {
                two = false;
            }
        }
    }
    if let Some(to) = colour.iter().position(|c| *c == u8::MAX) {
        return Some(NoTour::Apart { from: 0, to });
    }
    if closed && n == 2 {
        return (out[0].is_empty() || out[1].is_empty()).then_some(NoTour::DeadEnd {
            square: if out[0].is_empty() { 0 } else { 1 },
            moves: 0,
        });
    }
    if closed && n > 2 {
        for s in 0..n {
            let moves = if symmetric {
                out[s].len()
            } else {
                out[s].len().min(inn[s].len())
            };
            if moves < usize::from(symmetric) + 1 {
                return Some(NoTour::DeadEnd { square: s, moves });
            }
        }
    }
    if !closed && n > 2 {
        let ends: Vec<usize> = if symmetric {
            (0..n).filter(|&s| out[s].len() == 1).collect()
        } else {
            let starts: Vec<usize> = (0..n).filter(|&s| inn[s].is_empty()).collect();
            let stops: Vec<usize> = (0..n).filter(|&s| out[s].is_empty()).collect();
            if starts.len() > 1 {
                starts
            } else if stops.len() > 1 {
                stops
            } else {
                vec![]
            }
        };
        if ends.len() > 2 || (!symmetric && ends.len() > 1) {
            return Some(NoTour::Ends { squares: ends });
        }
    }
    if two {
        let first = colour.iter().filter(|c| **c == 0).count();
        let second = n - first;
        if (closed && first != second) || first.abs_diff(second) > 1 {
            return Some(NoTour::Colours { first, second });
        }
    }
    None
}

/// The squares up to the board's symmetries that keep every move: one of
/// each class, with the class's size.
fn orbits(board: &Board, out: &[Vec<u32>]) -> Vec<(usize, u64)> {
    let keeps = |p: &Vec<u32>| {
        out.iter()
            .enumerate()
            .all(|(s, to)| to.iter().all(|&t| out[p[s] as usize].contains(&p[t as usize])))
    };
    let syms: Vec<Vec<u32>> = board.symmetries().into_iter().filter(keeps).collect();
    let mut seen = vec![false; out.len()];
    let mut reps = vec![];
    for s in 0..out.len() {
        if seen[s] {
            continue;
        }
        let mut class: Vec<usize> = syms.iter().map(|p| p[s] as usize).collect();
        class.sort_unstable();
        class.dedup();
        for &c in &class {
            seen[c] = true;
        }
        reps.push((s, class.len() as u64));
    }
    reps
}

/// A depth-first search for paths through every square.
struct Walk<'a> {
    out: &'a [Vec<u32>],
    inn: &'a [Vec<u32>],
    symmetric: bool,
    closed: bool,
    visited: Vec<bool>,
    path: Vec<u32>,
    /// Moves backwards: for each unvisited square, its neighbours that
    /// could still be beside it on the tour (unvisited, the path's end,
    /// and for a closed tour its start).
    near: Vec<u32>,
    /// Moves not played backwards: for each unvisited square, the squares
    /// it could be entered from (unvisited, or the path's end) ...
    from: Vec<u32>,
    /// ... and left to (unvisited, or for a closed tour its start).
    to: Vec<u32>,
    /// Unvisited squares that can only end an open tour.
    ends: usize,
    /// The start's neighbours that could still close a tour.
    closing: usize,
    /// Whether each square can move to the start.
    to_start: Vec<bool>,
    /// Candidates of every depth, and where each depth's begin.
    cands: Vec<u32>,
    frames: Vec<Frame>,
    count: u64,
    nodes: u64,
    clock: Running,
    stopped: Option<Limit>,
}

impl<'a> Walk<'a> {
    fn new(out: &'a [Vec<u32>], inn: &'a [Vec<u32>], symmetric: bool, closed: bool, clock: Running) -> Walk<'a> {
        let n = out.len();
        Walk {
            out,
            inn,
            symmetric,
            closed,
            visited: vec![false; n],
            path: vec![],
            near: vec![0; n],
            from: vec![0; n],
            to: vec![0; n],
            ends: 0,
            closing: 0,
            to_start: vec![false; n],
            cands: vec![],
            frames: vec![],
            count: 0,
            nodes: 0,
            clock,
            stopped: None,
        }
    }

    fn start(&self) -> usize {
        self.path[0] as usize
    }

    /// Sets the counts for a path that is square `s` alone.
    fn reset(&mut self, s: usize) {
        let n = self.out.len();
        self.visited.iter_mut().for_each(|v| *v = false);
        self.visited[s] = true;
        self.path.clear();
        self.path.push(s as u32);
        self.to_start.iter_mut().for_each(|v| *v = false);
        for &t in &self.inn[s] {
            self.to_start[t as usize] = true;
        }
        self.ends = 0;
        for x in 0..n {
            self.near[x] = self.out[x].len() as u32;
            self.from[x] = self.inn[x].len() as u32;
            let leaves_to_start = self.out[x].contains(&(s as u32));
            self.to[x] = self.out[x].len() as u32 - u32::from(!self.closed && leaves_to_start);
            if x != s && self.only_ends(x) {
                self.ends += 1;
            }
        }
        self.closing = self.inn[s].len();
    }

    /// Whether unvisited `x` can only be the last square of an open tour.
    fn only_ends(&self, x: usize) -> bool {
        !self.closed
            && if self.symmetric {
                self.near[x] == 1
            } else {
                self.to[x] == 0
            }
    }

    /// Extends the path from its end `u` to `w`, updating the counts;
    /// false when some square can no longer be on the tour (the counts
    /// are still updated, for `back` to undo).
    fn step(&mut self, u: usize, w: usize) -> bool {
        let mut ok = true;
        if self.only_ends(w) {
            self.ends -= 1;
        }
        self.visited[w] = true;
        self.path.push(w as u32);
        if self.to_start[w] {
            self.closing -= 1;
        }
        if self.symmetric {
            // `u` is no longer the end; the start stays beside its
            // neighbours while a closed tour can come back to it.
            if !(self.closed && u == self.start()) {
                for &x in &self.out[u] {
                    let x = x as usize;
                    if self.visited[x] {
                        continue;
                    }
                    self.near[x] -= 1;
                    match (self.closed, self.near[x]) {
                        (true, k) if k < 2 => ok = false,
                        (false, 0) => ok = false,
                        (false, 1) => self.ends += 1,
                        _ => {}
                    }
                }
            }
        } else {
            for &x in &self.inn[w] {
                let x = x as usize;
                if self.visited[x] {
                    continue;
                }
                self.to[x] -= 1;
                if self.to[x] == 0 {
                    if self.closed {
                        ok = false;
                    } else {
                        self.ends += 1;
                    }
                }
            }
            for &x in &self.out[u] {
                let x = x as usize;
                if self.visited[x] {
                    continue;
                }
                self.from[x] -= 1;
                if self.from[x] == 0 {
                    ok = false;
                }
            }
        }
        let left = self.out.len() - self.path.len();
        if self.ends > 1 || (self.closed && left > 0 && self.closing == 0) {
            ok = false;
        }
        ok
    }

    /// One way more for each unvisited square of `xs`, counted in `near`
    /// (or in `to`): no longer an end if it was one.
    fn widen(&mut self, xs: &[u32], near: bool) {
        for &x in xs {
            let x = x as usize;
            if self.visited[x] {
                continue;
            }
            if self.only_ends(x) {
                self.ends -= 1;
            }
            if near {
                self.near[x] += 1;
            } else {
                self.to[x] += 1;
            }
        }
    }

    /// Undoes `step(u, w)`.
    fn back(&mut self, u: usize, w: usize) {
        let (out, inn) = (self.out, self.inn);
        if self.symmetric {
            if !(self.closed && u == self.start()) {
                self.widen(&out[u], true);
            }
        } else {
            for &x in &out[u] {
                let x = x as usize;
                if !self.visited[x] {
                    self.from[x] += 1;
                }
            }
            self.widen(&inn[w], false);
        }
        if self.to_start[w] {
            self.closing += 1;
        }
        self.path.pop();
        self.visited[w] = false;
        if self.only_ends(w) {
            self.ends += 1;
        }
    }

    /// Pushes the candidates for the square after `w`: those a square
    /// left with no other way forces, else every unvisited one, fewest
    /// ways on first when looking for one tour.
    fn push_frame(&mut self, w: usize, sort: bool) {
        let begin = self.cands.len();
        let mut forced = None;
        let mut dead = false;
        let left = self.out.len() - self.path.len();
        for &x in &self.out[w] {
            let xi = x as usize;
            if self.visited[xi] {
                continue;
            }
            if self.symmetric && self.path.len() > 1 {
                // Beside the end with one other neighbour left: next, or
                // never (for an open tour, next and last).
                let must = if self.closed {
                    self.near[xi] == 2
                } else {
                    self.near[xi] == 1 && left > 1
                };
                if must {
                    if forced.is_some() || (!self.closed && left > 1) {
                        dead = true;
                    }
                    forced = Some(x);
                }
            }
            self.cands.push(x);
        }
        if dead {
            self.cands.truncate(begin);
        } else if let Some(x) = forced {
            self.cands.truncate(begin);
            self.cands.push(x);
        } else if sort {
            let (out, near, to) = (self.out, &self.near, &self.to);
            let symmetric = self.symmetric;
            self.cands[begin..].sort_by_key(|&x| {
                let x = x as usize;
                (if symmetric { near[x] } else { to[x] }, out[x].len(), x)
            });
        }
        self.frames.push(Frame {
            begin,
            end: self.cands.len(),
            next: begin,
        });
    }

    /// Searches the paths from `s`: the first tour, or with `all` every
    /// tour counted. Returns the first found.
    fn run(&mut self, s: usize, all: bool) -> Option<Vec<usize>> {
        self.reset(s);
        let n = self.out.len();
        let mut first = None;
        self.cands.clear();
        self.frames.clear();
        self.push_frame(s, !all);
        while let Some(frame) = self.frames.last_mut() {
            if frame.next == frame.end {
                // This depth is done: back to the one before.
                let begin = frame.begin;
                self.frames.pop();
                self.cands.truncate(begin);
                if self.frames.is_empty() {
                    break;
                }
                let k = self.path.len();
                self.back(self.path[k - 2] as usize, self.path[k - 1] as usize);
                continue;
            }
            let w = self.cands[frame.next] as usize;
            frame.next += 1;
            self.nodes += 1;
            if self.nodes & 0xfff == 0 {
                if let Err(l) = self.clock.check() {
                    self.stopped = Some(l);
                    break;
                }
            }
            let u = *self.path.last().expect("a path") as usize;
            if !self.step(u, w) {
                self.back(u, w);
                continue;
            }
            if self.path.len() == n {
                if !self.closed || self.to_start[w] {
                    self.count += 1;
                    if first.is_none() {
                        first = Some(self.path.iter().map(|&q| q as usize).collect());
                    }
                    if !all {
                        break;
                    }
                }
                self.back(u, w);
                continue;
            }
            self.push_frame(w, !all);
        }
        first
    }
}

/// The candidates of one depth, `cands[begin..end]`, and the next to try.
struct Frame {
    begin: usize,
    end: usize,
    next: usize,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::testing::{board, set};

    fn run(piece: &str, on: &str, closed: bool, count: bool) -> (TourReport, Board, PieceSet) {
        let (s, b) = (set(&[piece]), board(on));
        let options = TourOptions {
            closed,
            count,
            start: None,
            limits: Limits::default(),
        };
        let r = tour(&s, &b, &options, &|_, _| {}).unwrap();
        (r, b, s)
    }

    /// Whether `t` visits every square once, each step a move of the piece.
    fn is_tour(t: &[usize], s: &PieceSet, b: &Board, closed: bool) -> bool {
        let moves = s.moves(0, b, &Running::start(&Limits::default())).unwrap();
        let mut seen = t.to_vec();
        seen.sort_unstable();
        seen.dedup();
        let step = |a: usize, c: usize| moves[a].contains(&(c as u32));
        seen.len() == b.len()
            && t.len() == b.len()
            && t.windows(2).all(|w| step(w[0], w[1]))
            && (!closed || step(t[t.len() - 1], t[0]))
    }

    #[test]
    fn knights_tours_are_found_and_checked_move_by_move() {
        for (on, closed) in [
            ("5x5", false),
            ("6x6", true),
            ("8x8", false),
            ("8x8", true),
            ("3x4", false),
        ] {
            let (r, b, s) = run(r#"betza"N""#, on, closed, false);
            let t = r.tour.unwrap_or_else(|| panic!("a tour on {on}"));
            assert!(is_tour(&t, &s, &b, closed), "{on}: {t:?}");
        }
    }

    #[test]
    fn boards_without_a_tour_say_why() {
        let (r, ..) = run(r#"betza"N""#, "4x4", false, false);
        assert_eq!(r.none, Some(NoTour::Searched));
        let (r, ..) = run(r#"betza"N""#, "8x8-a1-h8", true, false);
        // b1, the first square, is light, as are both squares left out.
        assert_eq!(r.none, Some(NoTour::Colours { first: 32, second: 30 }));
        assert_eq!(r.nodes, 0, "settled without a search");
        // Odd boards have no closed knight's tour: it alternates colours.
        let (r, ..) = run(r#"betza"N""#, "5x5", true, false);
        assert!(matches!(r.none, Some(NoTour::Colours { .. })), "{:?}", r.none);
        // The centre of 3×3 is out of a knight's reach.
        let (r, b, _) = run(r#"betza"N""#, "3x3", false, false);
        let Some(NoTour::Apart { to, .. }) = r.none else {
            panic!("{:?}", r.none)
        };
        assert_eq!(b.name(to), "b2");
        // The ends of a line have one move each: no closed tour.
        let (r, ..) = run(r#"betza"W""#, "1x4", true, false);
        assert!(matches!(r.none, Some(NoTour::DeadEnd { moves: 1, .. })), "{:?}", r.none);
    }

    #[test]
    fn tours_are_counted_each_once() {
        // 5×5 has 1,728 open knight's tours counted each way round and
        // from each end (OEIS A165134), so 864 undirected.
        let (r, ..) = run(r#"betza"N""#, "5x5", false, true);
        assert_eq!(r.count, Some(864));
        // A wazir's closed tours are the box's cycles through every
        // square, counted here by plain search over its steps.
        for (w, h) in [(3, 2), (4, 3), (4, 4), (6, 3)] {
            let (r, ..) = run(r#"betza"W""#, &format!("{w}x{h}"), true, true);
            assert_eq!(r.count, Some(cycles(w, h)), "{w}x{h}");
        }
    }

    /// The cycles through every square of a `w`×`h` box by steps to a
    /// side, each once: paths from the first square back to it, halved.
    fn cycles(w: i32, h: i32) -> u64 {
        fn go(at: (i32, i32), seen: &mut Vec<(i32, i32)>, w: i32, h: i32) -> u64 {
            let steps = [(1, 0), (-1, 0), (0, 1), (0, -1)];
            if seen.len() == (w * h) as usize {
                return u64::from(steps.iter().any(|(dx, dy)| (at.0 + dx, at.1 + dy) == (0, 0)));
            }
            let mut n = 0;
            for (dx, dy) in steps {
                let to = (at.0 + dx, at.1 + dy);
                if (0..w).contains(&to.0) && (0..h).contains(&to.1) && !seen.contains(&to) {
                    seen.push(to);
                    n += go(to, seen, w, h);
                    seen.pop();
                }
            }
            n
        }
        go((0, 0), &mut vec![(0, 0)], w, h) / 2
    }
}
