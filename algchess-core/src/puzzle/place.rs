//! Pieces placed so that none attacks another: sets of squares no two of
//! which attack each other, found, counted or listed.
//!
//! The squares are split first into cliques, sets in which any two attack
//! each other (a queen's ranks, a king's 2×2 blocks, a knight's pairs), so
//! each holds at most one piece and their number bounds how many fit. The
//! search then takes the cliques in turn, placing one piece in each or
//! leaving it empty while the count allows: for queens, rank by rank. The
//! squares still free are a set of words, and a piece placed takes away
//! every square it attacks or is attacked from. Several kinds of piece
//! are squares times kinds, the kinds of one square attacking each other.

use super::bits::{ones, width, Bits};
use super::{Attacks, Board, Limits, PieceSet, PuzzleError, Running, MAX_PLACE};
use crate::checker::Limit;
use std::ops::ControlFlow;

/// How many pieces to place.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Goal {
    /// These many of each kind, in the set's order.
    Exactly(Vec<usize>),
    /// As many of the one kind as fit.
    Most,
}

/// A piece of a solution: its square's number and its kind's.
pub type Placed = (usize, usize);

/// What to look for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// One solution.
    First,
    /// How many solutions there are.
    Count,
    /// Every solution.
    All,
    /// Every solution up to the symmetries of the board that keep which
    /// square attacks which: the first of each class is kept.
    Unique,
}

/// A placement puzzle.
#[derive(Clone, Debug)]
pub struct PlaceOptions {
    /// How many pieces.
    pub goal: Goal,
    /// What to look for.
    pub mode: Mode,
    /// When to give up.
    pub limits: Limits,
}

/// What a placement puzzle found.
#[derive(Clone, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct PlaceReport {
    /// The pieces of a solution, of every kind.
    pub pieces: usize,
    /// The pieces of a solution of each kind, in the set's order.
    pub of_each: Vec<usize>,
    /// Solutions found: all of them, unless the mode is `First` (then at
    /// most 1) or a limit cut the search short.
    pub count: u64,
    /// Solutions up to symmetry (`Unique`).
    pub unique: Option<u64>,
    /// The symmetries of the board that keep which square attacks which,
    /// the identity included (`Unique`).
    pub symmetries: usize,
    /// At most this many pieces fit: the board's squares fall into this
    /// many cliques, sets of squares that attack each other.
    pub bound: usize,
    /// With `Goal::Most`, whether no more fit because the search for one
    /// more found no solution (rather than the bound).
    pub most_searched: bool,
    /// The first solution found: each piece's square and kind.
    pub solution: Option<Vec<(usize, usize)>>,
    /// Where each kind's attacks were read from.
    pub attacks: Vec<Attacks>,
    /// The limit that cut the search short: the counts are then only
    /// those found by then.
    pub stopped: Option<Limit>,
    /// The search's nodes.
    pub nodes: u64,
}

/// Which squares attack which, as a graph on the puzzle's nodes (a square
/// and a kind), both ways and each node with itself.
struct Graph {
    /// Nodes.
    n: usize,
    /// Kinds; node `v` is square `v / kinds` holding kind `v % kinds`.
    kinds: usize,
    /// Words of a row.
    words: usize,
    rows: Vec<u64>,
}

impl Graph {
    fn row(&self, v: usize) -> &[u64] {
        &self.rows[v * self.words..(v + 1) * self.words]
    }

    fn has(&self, u: usize, v: usize) -> bool {
        self.row(u)[v / 64] >> (v % 64) & 1 == 1
    }

    fn add(&mut self, u: usize, v: usize) {
        let w = self.words;
        self.rows[u * w + v / 64] |= 1 << (v % 64);
        self.rows[v * w + u / 64] |= 1 << (u % 64);
    }

    /// The nodes `v` is joined to.
    fn members(&self, v: usize) -> impl Iterator<Item = usize> + '_ {
        ones(self.row(v))
    }

    fn degree(&self, v: usize) -> usize {
        self.row(v).iter().map(|w| w.count_ones() as usize).sum()
    }

    /// Cliques covering every node, found greedily: each grows from the
    /// first node not yet covered, by the lowest candidate (a queen's
    /// ranks) or by the one that keeps most candidates (a bishop's
    /// diagonals), the nodes taken upwards or downwards; the fewest
    /// cliques are kept. Cliques of one node are then paired along
    /// augmenting paths where they can be (a knight's squares).
    fn cliques(&self) -> Vec<Vec<usize>> {
        let mut best: Option<Vec<Vec<usize>>> = None;
        for most in [false, true] {
            for down in [false, true] {
                let order: Vec<usize> = if down {
                    (0..self.n).rev().collect()
                } else {
                    (0..self.n).collect()
                };
                let c = self.pair_up(self.greedy(&order, most));
                if best.as_ref().is_none_or(|b| c.len() < b.len()) {
                    best = Some(c);
                }
            }
        }
        best.expect("a cover")
    }

    fn greedy(&self, order: &[usize], most: bool) -> Vec<Vec<usize>> {
        let mut covered = vec![false; self.n];
        let mut out: Vec<Vec<usize>> = vec![];
        for &v in order {
            if covered[v] {
                continue;
            }
            let mut clique = vec![v];
            covered[v] = true;
            let mut cand: Vec<usize> = order
                .iter()
                .copied()
                .filter(|&u| !covered[u] && self.has(v, u))
                .collect();
            while !cand.is_empty() {
                let best = if most {
                    let keeps = |u: usize| cand.iter().filter(|&&x| self.has(u, x)).count();
                    let mut best = cand[0];
                    let mut kept = keeps(best);
                    for &u in &cand[1..] {
                        let k = keeps(u);
                        if k > kept {
                            (best, kept) = (u, k);
                        }
                    }
                    best
                } else {
                    cand[0]
                };
                clique.push(best);
                covered[best] = true;
                cand.retain(|&x| x != best && self.has(best, x));
            }
            clique.sort_unstable();
            out.push(clique);
        }
        out
    }

    /// Cliques of one or two nodes taken apart and matched again as many
    /// pairs as augmenting paths find.
    fn pair_up(&self, cliques: Vec<Vec<usize>>) -> Vec<Vec<usize>> {
        let (small, mut out): (Vec<Vec<usize>>, Vec<Vec<usize>>) = cliques.into_iter().partition(|c| c.len() <= 2);
        let mut mate = vec![usize::MAX; self.n];
        let mut loose = vec![];
        let mut in_small = vec![false; self.n];
        for c in &small {
            for &v in c {
                in_small[v] = true;
            }
            match c[..] {
                [a, b] => {
                    mate[a] = b;
                    mate[b] = a;
                }
                [a] => loose.push(a),
                _ => {}
            }
        }
        // An alternating path from a loose node to another, along edges
        // inside the small cliques; each node visited once, so the path
        // is simple and flipping it matches one more pair.
        fn augment(g: &Graph, v: usize, mate: &mut [usize], seen: &mut [bool], in_small: &[bool]) -> bool {
            seen[v] = true;
            let row: Vec<usize> = g.members(v).filter(|&u| u != v && in_small[u]).collect();
            for &u in &row {
                if seen[u] {
                    continue;
                }
                if mate[u] == usize::MAX {
                    mate[u] = v;
                    mate[v] = u;
                    return true;
                }
                let w = mate[u];
                if seen[w] {
                    continue;
                }
                seen[u] = true;
                mate[u] = usize::MAX;
                mate[w] = usize::MAX;
                if augment(g, w, mate, seen, in_small) {
                    mate[u] = v;
                    mate[v] = u;
                    return true;
                }
                mate[u] = w;
                mate[w] = u;
            }
            false
        }
        for &v in &loose {
            if mate[v] == usize::MAX {
                let mut seen = vec![false; self.n];
                augment(self, v, &mut mate, &mut seen, &in_small);
            }
        }
        let mut done = vec![false; self.n];
        let mut rest = vec![];
        for v in (0..self.n).filter(|&v| in_small[v]) {
            if done[v] {
                continue;
            }
            done[v] = true;
            match mate[v] {
                u if u == usize::MAX => rest.push(vec![v]),
                u => {
                    done[u] = true;
                    rest.push(vec![v.min(u), v.max(u)]);
                }
            }
        }
        out.extend(rest);
        out.sort_by_key(|c| c.iter().min().copied());
        out
    }

    /// Whether a permutation of the nodes keeps every edge.
    fn keeps(&self, perm: &[usize]) -> bool {
        (0..self.n)
            .all(|u| self.degree(u) == self.degree(perm[u]) && self.members(u).all(|v| self.has(perm[u], perm[v])))
    }
}

/// Places the pieces of `set` on `board` as `options` asks. `found` is
/// told each solution it asks for (the first; every one; the first of
/// each class up to symmetry), as (square, kind) pairs; `progress` how
/// many of the first clique's choices are done.
pub fn place(
    set: &PieceSet,
    board: &Board,
    options: &PlaceOptions,
    found: &mut dyn FnMut(&[Placed]),
    progress: &dyn Fn(usize, usize),
) -> Result<PlaceReport, PuzzleError> {
    let kinds = set.kinds.len();
    let squares = board.len();
    let nodes = squares * kinds;
    if nodes > MAX_PLACE {
        return Err(PuzzleError::TooManySquares {
            squares,
            most: MAX_PLACE / kinds.max(1),
        });
    }
    if options.goal == Goal::Most && kinds != 1 {
        return Err(PuzzleError::MaxOfMixed);
    }
    let clock = Running::start(&options.limits);
    let words = nodes.div_ceil(64);
    let mut g = Graph {
        n: nodes,
        kinds,
        words,
        rows: vec![0; nodes * words],
    };
    let mut attacks = vec![Attacks::Captures; kinds];
    for (a, read) in attacks.iter_mut().enumerate() {
        for b in 0..kinds {
            let (rows, from) = set.attacks(a, b, board, &clock)?;
            if from == Attacks::Moves {
                *read = Attacks::Moves;
            }
            for (s, to) in rows.iter().enumerate() {
                for &t in to {
                    g.add(s * kinds + a, t as usize * kinds + b);
                }
            }
        }
    }
    for s in 0..squares {
        for a in 0..kinds {
            for b in 0..kinds {
                g.add(s * kinds + a, s * kinds + b);
            }
        }
    }
    let cliques = g.cliques();
    let symmetries: Vec<Vec<usize>> = match options.mode {
        Mode::Unique | Mode::Count => board
            .symmetries()
            .into_iter()
            .map(|p| (0..nodes).map(|v| p[v / kinds] as usize * kinds + v % kinds).collect())
            .filter(|p: &Vec<usize>| g.keeps(p))
            .collect(),
        _ => vec![],
    };
    // Each clique in one word where it fits, so that the search reads one
    // word for its squares; all in a row when that would not fit.
    let layout = [true, false]
        .into_iter()
        .map(|pad| Layout::new(&cliques, nodes, pad))
        .find(|l| width(l.bits).is_some())
        .expect("at most MAX_PLACE nodes fit unpadded");
    let problem = Problem {
        g: &g,
        cliques: &cliques,
        symmetries: &symmetries,
        layout: &layout,
        clock,
    };
    let w = width(layout.bits).expect("a width found");
    let mut report = match w {
        1 => problem.solve::<1>(options, found, progress),
        2 => problem.solve::<2>(options, found, progress),
        4 => problem.solve::<4>(options, found, progress),
        8 => problem.solve::<8>(options, found, progress),
        16 => problem.solve::<16>(options, found, progress),
        32 => problem.solve::<32>(options, found, progress),
        _ => problem.solve::<64>(options, found, progress),
    }?;
    report.attacks = attacks;
    Ok(report)
}

/// Where each node's bit is in the search's words: the cliques one after
/// another, each starting a new word when it would straddle one.
struct Layout {
    /// The bit of each node.
    pos: Vec<usize>,
    /// The node at each bit (`usize::MAX` for padding).
    node_at: Vec<usize>,
    /// The first and last word of each clique.
    spans: Vec<(usize, usize)>,
    bits: usize,
}

impl Layout {
    fn new(cliques: &[Vec<usize>], n: usize, pad: bool) -> Layout {
        let (mut at, mut pos, mut spans) = (0, vec![0; n], vec![]);
        for c in cliques {
            if pad && c.len() <= 64 && at % 64 + c.len() > 64 {
                at = at.div_ceil(64) * 64;
            }
            let start = at;
            for &v in c {
                pos[v] = at;
                at += 1;
            }
            spans.push((start / 64, (at - 1) / 64));
        }
        let mut node_at = vec![usize::MAX; at];
        for (v, &p) in pos.iter().enumerate() {
            node_at[p] = v;
        }
        Layout {
            pos,
            node_at,
            spans,
            bits: at,
        }
    }
}

struct Problem<'a> {
    g: &'a Graph,
    cliques: &'a [Vec<usize>],
    symmetries: &'a [Vec<usize>],
    layout: &'a Layout,
    clock: Running,
}

impl Problem<'_> {
    fn solve<const W: usize>(
        &self,
        options: &PlaceOptions,
        found: &mut dyn FnMut(&[Placed]),
        progress: &dyn Fn(usize, usize),
    ) -> Result<PlaceReport, PuzzleError> {
        let (g, l) = (self.g, self.layout);
        let bits = |nodes: &mut dyn Iterator<Item = usize>| Bits::<W>::from_indices(nodes.map(|v| l.pos[v]));
        let conflict: Vec<Bits<W>> = l
            .node_at
            .iter()
            .map(|&v| match v {
                usize::MAX => Bits::EMPTY,
                v => bits(&mut g.members(v)),
            })
            .collect();
        let cliques: Vec<Bits<W>> = self.cliques.iter().map(|c| bits(&mut c.iter().copied())).collect();
        let kind_mask: Vec<Bits<W>> = (0..g.kinds)
            .map(|a| bits(&mut (0..g.n).filter(|v| v % g.kinds == a)))
            .collect();
        let all = bits(&mut (0..g.n));
        let single: Option<Vec<(usize, u64)>> = l
            .spans
            .iter()
            .zip(&cliques)
            .map(|(&(a, b), c)| (a == b).then(|| (a, c.word(a))))
            .collect();
        // The tables hold n² bits twice over: a board of thousands of
        // squares may meet the memory limit here.
        self.clock.check().map_err(PuzzleError::Stopped)?;
        let bound = cliques.len();
        let mut report = self.report(bound);
        let mut search = Search {
            conflict: &conflict,
            cliques: &cliques,
            words: single.as_deref(),
            node_cliques: self.cliques,
            pos: &l.pos,
            node_at: &l.node_at,
            kind_mask: &kind_mask,
            kinds: g.kinds,
            left: vec![],
            placed: vec![],
            nodes: 0,
            count: 0,
            clock: self.clock,
            stopped: None,
            overflow: false,
        };
        let counts = match &options.goal {
            Goal::Exactly(c) => c.clone(),
            Goal::Most => self.most(&mut search, all, options.mode, &mut report, found),
        };
        search.count = 0;
        report.pieces = counts.iter().sum();
        report.of_each = counts.clone();
        if search.stopped.is_some() || (options.goal == Goal::Most && options.mode == Mode::First) {
            report.stopped = search.stopped;
            report.nodes = search.nodes;
            return Ok(report);
        }
        let total: usize = counts.iter().sum();
        search.left = counts.clone();
        let mut free = all;
        for (a, &c) in counts.iter().enumerate() {
            if c == 0 {
                free = free.and_not(&kind_mask[a]);
            }
        }
        if total <= bound {
            let slack = bound - total;
            match options.mode {
                Mode::First => {
                    let _ = search.fewest(&mut (0..bound).collect(), free, &mut |s| {
                        report.solution = Some(self.pairs(s));
                        ControlFlow::Break(())
                    });
                    if let Some(s) = &report.solution {
                        report.count = 1;
                        found(s);
                    }
                }
                Mode::Count => {
                    if let Some(n) = search.count_all(free, total, slack, self.symmetries, progress) {
                        report.count = n;
                    }
                }
                Mode::All | Mode::Unique => {
                    let unique = options.mode == Mode::Unique;
                    let mut classes = 0;
                    let mut sorted = vec![];
                    let _ = search.each(0, free, total, slack, progress, &mut |s| {
                        sorted.clear();
                        sorted.extend(s.iter().map(|v| l.node_at[*v as usize]));
                        sorted.sort_unstable();
                        if unique && !self.first_of_class(&sorted) {
                            return ControlFlow::Continue(());
                        }
                        classes += 1;
                        let pairs = self.pairs(s);
                        if report.solution.is_none() {
                            report.solution = Some(pairs.clone());
                        }
                        found(&pairs);
                        ControlFlow::Continue(())
                    });
                    report.count = search.count;
                    report.unique = unique.then_some(classes);
                }
            }
        }
        report.stopped = search.stopped;
        report.nodes = search.nodes;
        if search.overflow {
            return Err(PuzzleError::CountOverflow);
        }
        Ok(report)
    }

    /// A report with nothing found yet, for a search bounded by `bound`
    /// pieces.
    fn report(&self, bound: usize) -> PlaceReport {
        PlaceReport {
            pieces: 0,
            of_each: vec![],
            count: 0,
            unique: None,
            symmetries: self.symmetries.len(),
            bound,
            most_searched: false,
            solution: None,
            attacks: vec![],
            stopped: None,
            nodes: 0,
        }
    }

    /// The most pieces with a solution: from the report's bound down, the
    /// first count with one (in `Mode::First`, that solution is found).
    fn most<const W: usize>(
        &self,
        search: &mut Search<'_, W>,
        all: Bits<W>,
        mode: Mode,
        report: &mut PlaceReport,
        found: &mut dyn FnMut(&[Placed]),
    ) -> Vec<usize> {
        let bound = report.bound;
        let mut k = bound;
        loop {
            let mut first = None;
            search.left = vec![k];
            let _ = search.fewest(&mut (0..bound).collect(), all, &mut |s| {
                first = Some(s.to_vec());
                ControlFlow::Break(())
            });
            if search.stopped.is_some() {
                break vec![k];
            }
            if let Some(s) = first {
                if mode == Mode::First {
                    report.count = 1;
                    report.solution = Some(self.pairs(&s));
                    found(&self.pairs(&s));
                }
                break vec![k];
            }
            report.most_searched = true;
            k -= 1;
        }
    }

    /// A solution's bits as (square, kind) pairs, by square.
    fn pairs(&self, s: &[u32]) -> Vec<(usize, usize)> {
        let k = self.g.kinds;
        let node = |v: u32| self.layout.node_at[v as usize];
        let mut out: Vec<(usize, usize)> = s.iter().map(|&v| (node(v) / k, node(v) % k)).collect();
        out.sort_unstable();
        out
    }

    /// Whether no symmetry maps the sorted solution `s` to one that sorts
    /// before it.
    fn first_of_class(&self, s: &[usize]) -> bool {
        let mut image = Vec::with_capacity(s.len());
        self.symmetries.iter().all(|p| {
            image.clear();
            image.extend(s.iter().map(|&v| p[v]));
            image.sort_unstable();
            image.as_slice() >= s
        })
    }
}

/// The state of one search, on the layout's bits.
struct Search<'a, const W: usize> {
    conflict: &'a [Bits<W>],
    cliques: &'a [Bits<W>],
    /// Each clique's word and bits in it, when every clique lies in one.
    words: Option<&'a [(usize, u64)]>,
    /// Each clique's nodes, and the layout's maps.
    node_cliques: &'a [Vec<usize>],
    pos: &'a [usize],
    node_at: &'a [usize],
    kind_mask: &'a [Bits<W>],
    kinds: usize,
    /// Pieces still to place, of each kind.
    left: Vec<usize>,
    /// The nodes placed so far.
    placed: Vec<u32>,
    nodes: u64,
    /// Solutions counted.
    count: u64,
    clock: Running,
    stopped: Option<Limit>,
    /// A count passed `u64::MAX`.
    overflow: bool,
}

impl<const W: usize> Search<'_, W> {
    /// Checks the limits now and then.
    #[inline]
    fn tick(&mut self) -> ControlFlow<()> {
        match self.going() {
            true => ControlFlow::Continue(()),
            false => ControlFlow::Break(()),
        }
    }

    /// The free squares once `v` is placed: less those it attacks or is
    /// attacked from, and its kind's when none of it is left to place.
    #[inline]
    fn place(&mut self, v: usize, free: &Bits<W>) -> Bits<W> {
        self.placed.push(v as u32);
        let mut f = free.and_not(&self.conflict[v]);
        if self.kinds > 1 {
            let a = self.node_at[v] % self.kinds;
            self.left[a] -= 1;
            if self.left[a] == 0 {
                f = f.and_not(&self.kind_mask[a]);
            }
        }
        f
    }

    #[inline]
    fn unplace(&mut self) {
        let v = self.placed.pop().expect("a placed node") as usize;
        if self.kinds > 1 {
            self.left[self.node_at[v] % self.kinds] += 1;
        }
    }

    /// The first clique from `i` with a free square, and the slack left
    /// once the empty ones before it are passed over; `None` when the
    /// slack runs out first.
    #[inline]
    fn next(&self, mut i: usize, free: &Bits<W>, mut slack: usize) -> Option<(usize, Bits<W>, usize)> {
        loop {
            let cand = free.and(&self.cliques[i]);
            if !cand.is_empty() {
                return Some((i, cand, slack));
            }
            slack = slack.checked_sub(1)?;
            i += 1;
        }
    }

    /// Checks the limits now and then; false when one is met.
    #[inline]
    fn going(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes & 0x3fff == 0 {
            if let Err(l) = self.clock.check() {
                self.stopped = Some(l);
                return false;
            }
        }
        true
    }

    /// Counts the ways to place `left` more pieces in cliques `i..`, with
    /// `slack` of them left empty; the cliques before `i` are decided.
    /// `None` when a limit stopped it.
    fn count(&mut self, i: usize, free: Bits<W>, left: usize, slack: usize) -> Option<u64> {
        if self.kinds == 1 {
            if let Some(words) = self.words {
                return self.count_words(words, i, free, left, slack);
            }
        }
        if !self.going() {
            return None;
        }
        if left <= 1 {
            if left == 0 {
                return Some(1);
            }
            // The last piece: any free square of the cliques it may go in.
            let n: usize = self.cliques[i..=i + slack].iter().map(|c| free.and(c).len()).sum();
            return Some(n as u64);
        }
        let Some((i, cand, slack)) = self.next(i, &free, slack) else {
            return Some(0);
        };
        let mut total: u64 = 0;
        for v in cand.iter() {
            let n = self.count_with(v, i, &free, left, slack)?;
            total = self.add(total, n)?;
        }
        self.count_skipping(total, i, free, left, slack)
    }

    /// `count` once `v` of clique `i` is placed.
    fn count_with(&mut self, v: usize, i: usize, free: &Bits<W>, left: usize, slack: usize) -> Option<u64> {
        let f = self.place(v, free);
        let n = self.count(i + 1, f, left - 1, slack);
        self.unplace();
        n
    }

    /// `total` and the ways with clique `i` left empty, if the slack
    /// allows.
    fn count_skipping(&mut self, total: u64, i: usize, free: Bits<W>, left: usize, slack: usize) -> Option<u64> {
        if slack == 0 {
            return Some(total);
        }
        let n = self.count(i + 1, free, left, slack - 1)?;
        self.add(total, n)
    }

    /// `count` of one kind when each clique lies in one word, `words[i]`
    /// (the word, and the clique in it): the hot loop of a count, reading
    /// one word for a clique's free squares.
    fn count_words(
        &mut self,
        words: &[(usize, u64)],
        mut i: usize,
        free: Bits<W>,
        left: usize,
        mut slack: usize,
    ) -> Option<u64> {
        if !self.going() {
            return None;
        }
        if left <= 1 {
            if left == 0 {
                return Some(1);
            }
            // The last piece: any free square of the cliques it may go in.
            let n: u32 = words[i..=i + slack]
                .iter()
                .map(|&(k, m)| (free.word(k) & m).count_ones())
                .sum();
            return Some(u64::from(n));
        }
        let (k, mut cand) = loop {
            let (k, m) = words[i];
            let cand = free.word(k) & m;
            if cand != 0 {
                break (k, cand);
            }
            let Some(less) = slack.checked_sub(1) else {
                return Some(0);
            };
            slack = less;
            i += 1;
        };
        let mut total: u64 = 0;
        while cand != 0 {
            let v = k * 64 + cand.trailing_zeros() as usize;
            cand &= cand - 1;
            let n = self.count_words(words, i + 1, free.and_not(&self.conflict[v]), left - 1, slack)?;
            total = self.add(total, n)?;
        }
        if slack > 0 {
            let n = self.count_words(words, i + 1, free, left, slack - 1)?;
            total = self.add(total, n)?;
        }
        Some(total)
    }

    /// `a + b`, or `None` (and the search stopped) past `u64::MAX`.
    fn add(&mut self, a: u64, b: u64) -> Option<u64> {
        let sum = a.checked_add(b);
        if sum.is_none() {
            self.overflow = true;
        }
        sum
    }

    /// `count` from the first clique, its squares taken one of each class
    /// under the symmetries that keep that clique (a queen's first rank
    /// mirrored), each counted for its class; with progress.
    fn count_all(
        &mut self,
        free: Bits<W>,
        left: usize,
        slack: usize,
        symmetries: &[Vec<usize>],
        progress: &dyn Fn(usize, usize),
    ) -> Option<u64> {
        if left <= 1 {
            return self.count(0, free, left, slack);
        }
        let Some((i, cand, slack)) = self.next(0, &free, slack) else {
            return Some(0);
        };
        let keep: Vec<&Vec<usize>> = symmetries
            .iter()
            .filter(|p| {
                self.node_cliques[i]
                    .iter()
                    .all(|&u| self.cliques[i].contains(self.pos[p[u]]))
            })
            .collect();
        let cand: Vec<usize> = cand.iter().collect();
        let total_steps = cand.len() + usize::from(slack > 0);
        let mut total: u64 = 0;
        for (done, &v) in cand.iter().enumerate() {
            let mut class: Vec<usize> = keep.iter().map(|p| self.pos[p[self.node_at[v]]]).collect();
            class.push(v);
            class.sort_unstable();
            class.dedup();
            if class[0] == v {
                let n = self.count_with(v, i, &free, left, slack)?;
                let n = n.checked_mul(class.len() as u64);
                let n = n.or_else(|| {
                    self.overflow = true;
                    None
                })?;
                total = self.add(total, n)?;
            }
            progress(done + 1, total_steps);
        }
        self.count_skipping(total, i, free, left, slack)
    }

    /// After checking the limits (`Some(Break)` when one is met), a
    /// solution counted and visited when no piece is left to place.
    fn done(&mut self, left: usize, visit: &mut dyn FnMut(&[u32]) -> ControlFlow<()>) -> Option<ControlFlow<()>> {
        if self.tick().is_break() {
            return Some(ControlFlow::Break(()));
        }
        (left == 0).then(|| {
            self.count += 1;
            visit(&self.placed)
        })
    }

    /// As `count`, telling `visit` each solution.
    fn each(
        &mut self,
        i: usize,
        free: Bits<W>,
        left: usize,
        slack: usize,
        progress: &dyn Fn(usize, usize),
        visit: &mut dyn FnMut(&[u32]) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        if let Some(r) = self.done(left, visit) {
            return r;
        }
        let Some((i, cand, slack)) = self.next(i, &free, slack) else {
            return ControlFlow::Continue(());
        };
        let top = self.placed.is_empty();
        let total = cand.len() + usize::from(slack > 0);
        for (done, v) in cand.iter().enumerate() {
            let f = self.place(v, &free);
            let r = self.each(i + 1, f, left - 1, slack, progress, visit);
            self.unplace();
            r?;
            if top {
                progress(done + 1, total);
            }
        }
        if slack > 0 {
            self.each(i + 1, free, left, slack - 1, progress, visit)?;
        }
        ControlFlow::Continue(())
    }

    /// Finds solutions deciding first the clique with fewest free squares
    /// (a clique left with none is passed over while the slack allows),
    /// which finds one quickly where the order of the board does not:
    /// `rest` are the cliques not yet decided.
    fn fewest(
        &mut self,
        rest: &mut Vec<usize>,
        free: Bits<W>,
        visit: &mut dyn FnMut(&[u32]) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        let left: usize = self.left.iter().sum();
        let Some(slack) = rest.len().checked_sub(left) else {
            return ControlFlow::Continue(());
        };
        self.fewest_from(rest, free, left, slack, visit)
    }

    fn fewest_from(
        &mut self,
        rest: &mut Vec<usize>,
        free: Bits<W>,
        left: usize,
        slack: usize,
        visit: &mut dyn FnMut(&[u32]) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        if let Some(r) = self.done(left, visit) {
            return r;
        }
        let Some((at, n)) = rest
            .iter()
            .enumerate()
            .map(|(at, &c)| (at, free.and(&self.cliques[c]).len()))
            .min_by_key(|&(_, n)| n)
        else {
            return ControlFlow::Continue(());
        };
        if n == 0 && slack == 0 {
            return ControlFlow::Continue(());
        }
        let c = rest.swap_remove(at);
        let mut r = ControlFlow::Continue(());
        if n > 0 {
            for v in free.and(&self.cliques[c]).iter() {
                let f = self.place(v, &free);
                r = self.fewest_from(rest, f, left - 1, slack, visit);
                self.unplace();
                if r.is_break() {
                    break;
                }
            }
        }
        if r.is_continue() && slack > 0 {
            r = self.fewest_from(rest, free, left, slack - 1, visit);
        }
        rest.push(c);
        let last = rest.len() - 1;
        rest.swap(at, last);
        r
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::testing::{board, set};

    fn run(piece: &str, on: &str, goal: Goal, mode: Mode) -> (PlaceReport, Vec<Vec<(usize, usize)>>) {
        let mut seen = vec![];
        let options = PlaceOptions {
            goal,
            mode,
            limits: Limits::default(),
        };
        let r = place(
            &set(&[piece]),
            &board(on),
            &options,
            &mut |s| seen.push(s.to_vec()),
            &|_, _| {},
        )
        .unwrap();
        (r, seen)
    }

    /// Whether no two of `squares` share a rank, a file or a diagonal, as
    /// the puzzle states it, on a board `n` wide.
    fn queens_apart(squares: &[(usize, usize)], n: usize) -> bool {
        squares.iter().enumerate().all(|(i, &(a, _))| {
            squares[i + 1..].iter().all(|&(b, _)| {
                let (ax, ay, bx, by) = ((a % n) as i64, (a / n) as i64, (b % n) as i64, (b / n) as i64);
                ax != bx && ay != by && (ax - bx).abs() != (ay - by).abs()
            })
        })
    }

    #[test]
    fn n_queens_counts_as_published_for_small_boards() {
        // OEIS A000170.
        for (n, want) in [(1, 1), (2, 0), (3, 0), (4, 2), (5, 10), (6, 4), (7, 40), (8, 92)] {
            let (r, _) = run(r#"betza"Q""#, &format!("{n}x{n}"), Goal::Exactly(vec![n]), Mode::Count);
            assert_eq!(r.count, want, "{n} queens");
            // On 2×2 and 3×3 every square attacks more than a rank.
            assert!(r.bound <= n && (n < 4 || r.bound == n), "ranks bound {n} queens");
        }
    }

    #[test]
    fn every_listed_solution_is_one_and_each_class_counts_once() {
        let (all, seen) = run(r#"betza"Q""#, "6x6", Goal::Exactly(vec![6]), Mode::All);
        assert_eq!((all.count, seen.len()), (4, 4));
        assert!(seen.iter().all(|s| queens_apart(s, 6)), "{seen:?}");
        let (u, classes) = run(r#"betza"Q""#, "8x8", Goal::Exactly(vec![8]), Mode::Unique);
        assert_eq!((u.count, u.unique, u.symmetries), (92, Some(12), 8));
        assert_eq!(classes.len(), 12);
        assert!(classes.iter().all(|s| queens_apart(s, 8)));
        let (first, seen) = run(r#"betza"Q""#, "8x8", Goal::Exactly(vec![8]), Mode::First);
        assert_eq!((first.count, seen.len()), (1, 1));
        assert!(queens_apart(&seen[0], 8) && seen[0].len() == 8);
    }

    /// Whether a piece on `a` attacks `b` on an otherwise empty board, by
    /// geometry: for the brute force the search is compared with.
    fn attacks(piece: char, a: (i64, i64), b: (i64, i64)) -> bool {
        let (dx, dy) = ((b.0 - a.0).abs(), (b.1 - a.1).abs());
        match piece {
            'K' => dx.max(dy) == 1,
            'N' => (dx, dy) == (1, 2) || (dx, dy) == (2, 1),
            'B' => dx == dy && dx > 0,
            'R' => (dx == 0) != (dy == 0),
            _ => unreachable!(),
        }
    }

    /// Every way to put `counts[k]` pieces of `kinds[k]` on a `w`×`h` box
    /// with none attacking another, counted square by square.
    fn brute(kinds: &[char], counts: &[usize], w: usize, h: usize) -> u64 {
        fn go(
            at: usize,
            left: &mut Vec<usize>,
            placed: &mut Vec<(usize, char)>,
            kinds: &[char],
            w: usize,
            n: usize,
        ) -> u64 {
            if left.iter().all(|l| *l == 0) {
                return 1;
            }
            if at == n {
                return 0;
            }
            let mut total = go(at + 1, left, placed, kinds, w, n);
            let xy = |s: usize| ((s % w) as i64, (s / w) as i64);
            for (k, &p) in kinds.iter().enumerate() {
                if left[k] == 0 {
                    continue;
                }
                let apart = placed
                    .iter()
                    .all(|&(s, q)| !attacks(p, xy(at), xy(s)) && !attacks(q, xy(s), xy(at)));
                if apart {
                    left[k] -= 1;
                    placed.push((at, p));
                    total += go(at + 1, left, placed, kinds, w, n);
                    placed.pop();
                    left[k] += 1;
                }
            }
            total
        }
        go(0, &mut counts.to_vec(), &mut vec![], kinds, w, w * h)
    }

    #[test]
    fn counts_agree_with_a_brute_force_by_geometry() {
        for (letter, (w, h)) in [
            ('K', (4, 4)),
            ('N', (4, 4)),
            ('B', (4, 4)),
            ('R', (3, 4)),
            ('K', (5, 3)),
        ] {
            let piece = format!("betza\"{letter}\"");
            let on = format!("{w}x{h}");
            let mut most = 0;
            for k in 0..=w * h {
                let want = brute(&[letter], &[k], w, h);
                let (r, _) = run(&piece, &on, Goal::Exactly(vec![k]), Mode::Count);
                assert_eq!(r.count, want, "{k} of {letter} on {on}");
                if want > 0 {
                    most = k;
                }
            }
            let (r, _) = run(&piece, &on, Goal::Most, Mode::Count);
            assert_eq!(
                (r.pieces, r.count),
                (most, brute(&[letter], &[most], w, h)),
                "most {letter} on {on}"
            );
            assert!(r.pieces <= r.bound);
        }
        // More pieces than cliques: none, with no search.
        let (r, _) = run(r#"betza"R""#, "4x4", Goal::Exactly(vec![5]), Mode::Count);
        assert_eq!((r.count, r.bound, r.nodes), (0, 4, 0));
    }

    #[test]
    fn mixed_sets_agree_with_the_brute_force() {
        let s = set(&[r#"betza"R""#, r#"betza"N""#, r#"betza"K""#]);
        for counts in [[2, 1, 0], [1, 1, 1], [3, 1, 0], [0, 2, 1]] {
            let options = PlaceOptions {
                goal: Goal::Exactly(counts.to_vec()),
                mode: Mode::All,
                limits: Limits::default(),
            };
            let mut seen = vec![];
            let r = place(&s, &board("4x3"), &options, &mut |x| seen.push(x.to_vec()), &|_, _| {}).unwrap();
            assert_eq!(r.count, brute(&['R', 'N', 'K'], &counts, 4, 3), "{counts:?}");
            assert_eq!(r.count as usize, seen.len());
            for sol in &seen {
                for (k, c) in counts.iter().enumerate() {
                    assert_eq!(sol.iter().filter(|(_, kind)| *kind == k).count(), *c);
                }
            }
        }
    }
}
