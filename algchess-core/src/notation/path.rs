//! Path regexes over turtle steps, a move as a regular expression over a
//! rotation graph: `F` forward, `L` and `R` a turn in place, `$` the
//! occupancy assertion; `| * + ?` and brackets; the slashes around are
//! optional.
//!
//! The turtle walks the grid the rule file declares: on the square grid it
//! has four headings and `L`, `R` turn by 90°; on the hex grid (`grid hex`)
//! six, across the cells' edges, and `L`, `R` turn by 60°. The notation has no
//! diagonal letter: its diagonals are paths, and they mean on hex what
//! they mean on any rotation graph. `FLF` and `LFRF` (two edge steps 60°
//! apart) both end on the hex diagonal between them, the cell across a
//! vertex, of the same colour of three; so its bishop
//! `/L*(FLFR$|LFRF$)+/` is Gliński's bishop (it leaps the two cells beside
//! each vertex, reading only where it lands), its knight `/L*FF(L|R)F$/`
//! is Gliński's (two edges straight, one at 60°), and its king
//! `/L*(F|FLF|FRF)$/` steps to the 6 edge and 6 vertex neighbours.
//!
//! Meaning: the piece is lifted off its square, faces forward (up), and
//! walks a path the regex matches. `$` reads the square the turtle is on:
//! empty, the path goes on; an enemy piece, the path ends there (only
//! turns and `$` may follow); anything else (a friend, off the board), the
//! path dies. Squares an `F` crosses without `$` are not read (a leap). The
//! path's last square is the destination, which must be empty or hold an
//! enemy. A path that ends where it began leaves the board as it was.
//!
//! Lowering: the regex becomes a Glushkov automaton; its product with the
//! four headings and the offset from the last square read by `$` is
//! explored. A `$` on an empty square moves the piece there (so the POI
//! follows the turtle and every rule stays anchored on it, which is why
//! the algebra's `R`, a turn about the grid's centre, needs no turtle
//! frame), and the states right after such steps are the nodes of a graph
//! whose edges are anchored rules. Eliminating its nodes one by one
//! (Kleene's construction) writes the graph as one move with `|`, side by
//! side and `*`. A repeated part that moves without `$` would need
//! unboundedly many offsets; it is refused.

use super::tree::{bar, fail, juxt, nil, paren, post};
use super::walk::{rule, Mode};
use super::{error, Notation};
use crate::diag::{Diag, Diags};
use crate::geometry::Tiling;
use crate::parse::ast::{Expr, PostOp, Span};
use crate::parse::MAX_NESTING;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

#[derive(Debug, Clone)]
enum Re {
    Empty,
    Sym(usize),
    Alt(Box<Re>, Box<Re>),
    Cat(Box<Re>, Box<Re>),
    Star(Box<Re>),
    Plus(Box<Re>),
}

/// A regex read into positions: each a symbol (`F L R $`) and its span.
struct Parsed {
    re: Re,
    syms: Vec<(char, Span)>,
}

fn err(text: &str, span: Span, message: impl Into<String>) -> Diag {
    error(Notation::Path, text, span, message)
}

struct Parser<'a> {
    text: &'a str,
    toks: Vec<(usize, char)>,
    at: usize,
    syms: Vec<(char, Span)>,
    /// The brackets open around the token at `at`.
    open: usize,
}

impl Parser<'_> {
    fn peek(&self) -> Option<char> {
        self.toks.get(self.at).map(|t| t.1)
    }

    fn span(&self) -> Span {
        match self.toks.get(self.at) {
            Some(&(i, c)) => Span::new(i, i + c.len_utf8()),
            None => Span::new(self.text.len(), self.text.len()),
        }
    }

    /// An error if a part `depth` levels deep is too deep to read: every
    /// later step recurses over the regex.
    fn shallow(&self, depth: usize, span: Span) -> Result<usize, Diag> {
        if depth > MAX_NESTING {
            return Err(err(
                self.text,
                span,
                format!(
                    "this path is nested more than {MAX_NESTING} levels deep (each bracket, repetition and letter of a sequence is a level)"
                ),
            ));
        }
        Ok(depth)
    }

    /// A regex and its depth, here and below.
    fn alt(&mut self) -> Result<(Re, usize), Diag> {
        let (mut re, mut depth) = self.cat()?;
        while self.peek() == Some('|') {
            let span = self.span();
            self.at += 1;
            let (b, d) = self.cat()?;
            depth = self.shallow(1 + depth.max(d), span)?;
            re = Re::Alt(Box::new(re), Box::new(b));
        }
        Ok((re, depth))
    }

    fn cat(&mut self) -> Result<(Re, usize), Diag> {
        let (mut re, mut depth) = (Re::Empty, 0);
        while let Some(c) = self.peek() {
            if c == '|' || c == ')' {
                break;
            }
            let span = self.span();
            let (item, d) = self.post()?;
            (re, depth) = match re {
                Re::Empty => (item, d),
                re => (
                    Re::Cat(Box::new(re), Box::new(item)),
                    self.shallow(1 + depth.max(d), span)?,
                ),
            };
        }
        Ok((re, depth))
    }

    fn post(&mut self) -> Result<(Re, usize), Diag> {
        let (mut re, mut depth) = self.atom()?;
        while let Some(c @ ('*' | '+' | '?')) = self.peek() {
            depth = self.shallow(depth + 1, self.span())?;
            self.at += 1;
            re = match c {
                '*' => Re::Star(Box::new(re)),
                '+' => Re::Plus(Box::new(re)),
                _ => Re::Alt(Box::new(re), Box::new(Re::Empty)),
            };
        }
        Ok((re, depth))
    }

    fn atom(&mut self) -> Result<(Re, usize), Diag> {
        let span = self.span();
        match self.peek() {
            Some(c @ ('F' | 'L' | 'R' | '$')) => {
                if self.syms.len() == MAX_LETTERS {
                    return Err(err(
                        self.text,
                        span,
                        format!("this path has more than {MAX_LETTERS} letters (F, L, R and $)"),
                    )
                    .help("lowering a path takes time that grows fast with its letters; split the piece's path into several paths joined by `|`"));
                }
                self.at += 1;
                self.syms.push((c, span));
                Ok((Re::Sym(self.syms.len() - 1), 1))
            }
            Some('(') => {
                self.at += 1;
                self.open += 1;
                self.shallow(self.open, span)?;
                let re = self.alt()?;
                if self.peek() != Some(')') {
                    return Err(err(self.text, span, "this `(` is never closed"));
                }
                self.at += 1;
                self.open -= 1;
                Ok(re)
            }
            Some(c @ ('*' | '+' | '?')) => Err(err(self.text, span, format!("`{c}` repeats nothing here"))),
            Some(c) => Err(err(self.text, span, format!("unknown letter `{c}`"))
                .help("a path is made of F (forward), L and R (turns), $ (read the square), | * + ? and brackets")),
            None => Err(err(self.text, span, "unexpected end of the path")),
        }
    }
}

impl Re {
    fn nullable(&self) -> bool {
        match self {
            Re::Empty | Re::Star(_) => true,
            Re::Sym(_) => false,
            Re::Plus(a) => a.nullable(),
            Re::Alt(a, b) => a.nullable() || b.nullable(),
            Re::Cat(a, b) => a.nullable() && b.nullable(),
        }
    }

    fn first(&self) -> BTreeSet<usize> {
        match self {
            Re::Empty => BTreeSet::new(),
            Re::Sym(i) => [*i].into(),
            Re::Alt(a, b) => &a.first() | &b.first(),
            Re::Cat(a, b) if a.nullable() => &a.first() | &b.first(),
            Re::Cat(a, _) => a.first(),
            Re::Star(a) | Re::Plus(a) => a.first(),
        }
    }

    fn last(&self) -> BTreeSet<usize> {
        match self {
            Re::Empty => BTreeSet::new(),
            Re::Sym(i) => [*i].into(),
            Re::Alt(a, b) => &a.last() | &b.last(),
            Re::Cat(a, b) if b.nullable() => &a.last() | &b.last(),
            Re::Cat(_, b) => b.last(),
            Re::Star(a) | Re::Plus(a) => a.last(),
        }
    }

    fn follow(&self, out: &mut [BTreeSet<usize>]) {
        match self {
            Re::Empty | Re::Sym(_) => {}
            Re::Alt(a, b) => {
                a.follow(out);
                b.follow(out);
            }
            Re::Cat(a, b) => {
                a.follow(out);
                b.follow(out);
                let f = b.first();
                for l in a.last() {
                    out[l].extend(&f);
                }
            }
            Re::Star(a) | Re::Plus(a) => {
                a.follow(out);
                let f = a.first();
                for l in a.last() {
                    out[l].extend(&f);
                }
            }
        }
    }
}

fn parse(text: &str) -> Result<Parsed, Diag> {
    let body = text.trim();
    let offset = text.len() - text.trim_start().len();
    let (body, offset) = match body.strip_prefix('/') {
        Some(inner) => match inner.strip_suffix('/') {
            Some(inner) => (inner, offset + 1),
            None => return Err(err(text, Span::new(offset, offset + 1), "this `/` is never closed")),
        },
        None => (body, offset),
    };
    let toks = body
        .char_indices()
        .filter(|(_, c)| !c.is_whitespace())
        .map(|(i, c)| (i + offset, c))
        .collect();
    let mut p = Parser {
        text,
        toks,
        at: 0,
        syms: vec![],
        open: 0,
    };
    let (re, _) = p.alt()?;
    if p.peek() == Some(')') {
        return Err(err(text, p.span(), "this `)` closes nothing"));
    }
    Ok(Parsed { re, syms: p.syms })
}

/// A rule moving the piece by `o` onto a square `lands` allows; by
/// `(0, 0)` the piece stands still, which is written `nil`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
struct Landing {
    o: (i32, i32),
    lands: Mode,
}

impl Landing {
    /// The offset's movement letters, as `movement` writes them.
    fn letters(&self) -> impl Iterator<Item = char> {
        let (x, y) = self.o;
        let up = std::iter::repeat_n(if y > 0 { 'u' } else { 'd' }, y.unsigned_abs() as usize);
        up.chain(std::iter::repeat_n(
            if x > 0 { 'r' } else { 'l' },
            x.unsigned_abs() as usize,
        ))
    }
}

/// Rules are ordered as their text `(% + u enemy -> . + u%)` sorts, which
/// fixes the order of a lowering's alternatives: by movement word, then a
/// take before a free square before a step.
impl Ord for Landing {
    fn cmp(&self, other: &Landing) -> std::cmp::Ordering {
        let rank = |m: Mode| match m {
            Mode::Capture => 0,
            Mode::Both => 1,
            Mode::NonCapture => 2,
        };
        self.letters()
            .cmp(other.letters())
            .then(rank(self.lands).cmp(&rank(other.lands)))
    }
}

impl PartialOrd for Landing {
    fn partial_cmp(&self, other: &Landing) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

/// A move as it is being built, written with as few brackets as needed.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Mv {
    Nil,
    Landing(Landing),
    Seq(Vec<Mv>),
    Alt(Vec<Mv>),
    Star(Box<Mv>),
    Plus(Box<Mv>),
}

impl Mv {
    fn seq(a: Mv, b: Mv) -> Mv {
        let mut v = vec![];
        for m in [a, b] {
            match m {
                Mv::Nil => {}
                Mv::Seq(xs) => v.extend(xs),
                m => v.push(m),
            }
        }
        // `x x*` is `x+`.
        let mut out: Vec<Mv> = vec![];
        for m in v {
            match (out.last(), &m) {
                (Some(x), Mv::Star(y)) if x == &**y => {
                    let x = out.pop().unwrap_or(Mv::Nil);
                    out.push(Mv::Plus(Box::new(x)));
                }
                _ => out.push(m),
            }
        }
        match out.len() {
            0 => Mv::Nil,
            1 => out.pop().unwrap_or(Mv::Nil),
            _ => Mv::Seq(out),
        }
    }

    fn alt(a: Mv, b: Mv) -> Mv {
        Mv::alts([a, b])
    }

    /// The alternatives `ms`, flattened, without repeats, in order.
    fn alts(ms: impl IntoIterator<Item = Mv>) -> Mv {
        let mut v: BTreeSet<Mv> = BTreeSet::new();
        for m in ms {
            match m {
                Mv::Alt(xs) => v.extend(xs),
                m => {
                    v.insert(m);
                }
            }
        }
        // A step and a take by the same offset are one rule onto a free square.
        let steps: Vec<(i32, i32)> = v
            .iter()
            .filter_map(|m| match m {
                Mv::Landing(r) if r.lands == Mode::NonCapture => Some(r.o),
                _ => None,
            })
            .collect();
        for o in steps {
            let [free, empty, take] =
                [Mode::Both, Mode::NonCapture, Mode::Capture].map(|lands| Mv::Landing(Landing { o, lands }));
            if v.contains(&free) || v.contains(&empty) && v.contains(&take) {
                v.remove(&empty);
                v.remove(&take);
                v.insert(free);
            }
        }
        let mut v: Vec<Mv> = v.into_iter().collect();
        // `x | y+ x?` is `y* (y | x)`: the slide of rules/chess.alg.
        let slide = v.iter().enumerate().find_map(|(i, m)| match m {
            Mv::Seq(s) => match s.as_slice() {
                [Mv::Plus(y), Mv::Alt(w)] if w.len() == 2 && w.contains(&Mv::Nil) => {
                    let x = w.iter().find(|m| **m != Mv::Nil)?;
                    let j = v.iter().position(|m| m == x)?;
                    Some((i, j, (**y).clone(), x.clone()))
                }
                _ => None,
            },
            _ => None,
        });
        if let Some((i, j, y, x)) = slide {
            let (a, b) = (v[i].clone(), v[j].clone());
            v.retain(|m| *m != a && *m != b);
            let rest = std::mem::take(&mut v);
            let slid = Mv::seq(Mv::star(y.clone()), Mv::alt(y, x));
            return rest.into_iter().fold(slid, Mv::alt);
        }
        if v.len() == 1 {
            v.pop().unwrap_or(Mv::Nil)
        } else {
            Mv::Alt(v)
        }
    }

    /// The terms in the move, to bound what a path lowers to.
    fn size(&self) -> usize {
        match self {
            Mv::Nil | Mv::Landing(_) => 1,
            Mv::Seq(v) | Mv::Alt(v) => 1 + v.iter().map(Mv::size).sum::<usize>(),
            Mv::Star(a) | Mv::Plus(a) => 1 + a.size(),
        }
    }

    fn star(a: Mv) -> Mv {
        match a {
            Mv::Nil => Mv::Nil,
            Mv::Star(_) => a,
            a => Mv::Star(Box::new(a)),
        }
    }

    /// The move as the algebra's syntax tree, with brackets where the
    /// grammar needs them: around alternatives inside a sequence, and
    /// around anything but a rule (bracketed already) under `* + ?`.
    fn expr(&self) -> Expr {
        // `m` as an operand of a postfix operator.
        let operand = |m: &Mv| match m {
            Mv::Landing(_) => m.expr(),
            m => paren(m.expr()),
        };
        match self {
            Mv::Nil => nil(),
            Mv::Landing(r) => rule(r.o, r.lands, &[]),
            Mv::Seq(v) => juxt(
                v.iter()
                    .map(|m| match m {
                        Mv::Alt(v) if !v.contains(&Mv::Nil) => paren(m.expr()),
                        m => m.expr(),
                    })
                    .collect(),
            ),
            Mv::Alt(v) if v.contains(&Mv::Nil) => {
                let rest: Vec<&Mv> = v.iter().filter(|m| **m != Mv::Nil).collect();
                let m = match rest.as_slice() {
                    [m] => operand(m),
                    _ => paren(bar(rest.into_iter().map(Mv::expr))),
                };
                post(m, PostOp::Opt)
            }
            Mv::Alt(v) => bar(v.iter().map(Mv::expr)),
            Mv::Star(a) => post(operand(a), PostOp::Star),
            Mv::Plus(a) => post(operand(a), PostOp::Plus),
        }
    }
}

/// Headings counter-clockwise from up: `L` adds one, `R` takes one.
const SQUARE: [(i32, i32); 4] = [(0, 1), (-1, 0), (0, -1), (1, 0)];

/// Hex headings counter-clockwise from up, in axial coordinates (see
/// `geometry::Tiling`): `u`, `lu`, `l`, `d`, `rd`, `r`, 60° apart.
const HEX: [(i32, i32); 6] = [(0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1), (1, 0)];

/// How far from the last square read a path may get without `$`.
const REACH: i32 = 64;

/// The most letters a path may have: lowering grows faster than their
/// square (`(F$)*` repeated 250 times, 500 letters, takes seconds), and
/// the paths of pieces have a few dozen.
const MAX_LETTERS: usize = 256;

/// The most terms a path may lower to: a regex's automaton turned into
/// one expression can grow exponentially in the regex's length. 10,000
/// terms are about 100 KB of algebra, a tenth of a second to elaborate
/// and compile; the bundled paths lower to a few dozen.
const MAX_TERMS: usize = 10_000;

/// The most steps of the turtle lowering may try, counted over every
/// (state, heading, offset) place it reaches: a path of optional steps
/// reaches every offset within `REACH` from each state, and each place
/// has as many next letters as follow optionally. The bundled pieces'
/// paths take at most a few hundred; two million take about 50 ms.
const MAX_STEPS: usize = 2_000_000;

/// Adds `m` to the moves on the edge `from -> to`.
fn add(edges: &mut BTreeMap<(usize, usize), Mv>, from: usize, to: usize, m: Mv) {
    let m = match edges.remove(&(from, to)) {
        Some(old) => Mv::alt(old, m),
        None => m,
    };
    edges.insert((from, to), m);
}

/// Whether the path may end after each state using only turns and `$`
/// (after `$` found an enemy, the turtle stays on its square).
fn stoppable(next: &[BTreeSet<usize>], syms: &[(char, Span)], accepting: &impl Fn(usize) -> bool) -> Vec<bool> {
    let n = syms.len();
    let mut stop_ok = vec![false; n + 1];
    loop {
        let mut changed = false;
        for q in 0..=n {
            if !stop_ok[q] && (accepting(q) || next[q].iter().any(|&p| syms[p].0 != 'F' && stop_ok[p + 1])) {
                stop_ok[q] = true;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    stop_ok
}

/// Kleene: removes every node of `edges` but the start (of `nodes`),
/// rerouting through it; an error at `whole` when the move grows past
/// [`MAX_TERMS`].
fn eliminate(text: &str, whole: Span, edges: &mut BTreeMap<(usize, usize), Mv>, nodes: usize) -> Result<(), Diags> {
    for k in 1..nodes {
        let looped = edges.remove(&(k, k)).map(Mv::star).unwrap_or(Mv::Nil);
        let ins: Vec<(usize, Mv)> = edges
            .iter()
            .filter(|((_, to), _)| *to == k)
            .map(|((from, _), m)| (*from, m.clone()))
            .collect();
        let outs: Vec<(usize, Mv)> = edges
            .iter()
            .filter(|((from, _), _)| *from == k)
            .map(|((_, to), m)| (*to, m.clone()))
            .collect();
        edges.retain(|(from, to), _| *from != k && *to != k);
        let mut terms: usize = edges.values().map(Mv::size).sum();
        for (i, a) in &ins {
            for (j, b) in &outs {
                terms += a.size() + looped.size() + b.size();
                if terms > MAX_TERMS {
                    return Err(err(text, whole, format!("this path is more than {MAX_TERMS} terms written as a move"))
                        .help("a regex with many alternatives under repetition grows when it is written out; split the piece's path into several paths joined by `|`")
                        .into());
                }
                let m = Mv::seq(Mv::seq(a.clone(), looped.clone()), b.clone());
                add(edges, *i, *j, m);
            }
        }
    }
    Ok(())
}

/// The path regex as a move of the piece on the POI, the turtle walking
/// `tiling`.
pub(super) fn lower(text: &str, tiling: Tiling) -> Result<Expr, Diags> {
    let headings: &[(i32, i32)] = match tiling {
        Tiling::Square => &SQUARE,
        Tiling::Hex => &HEX,
    };
    let turns = headings.len();
    let Parsed { re, syms } = parse(text)?;
    let n = syms.len();
    // Glushkov: state 0 is the start, state i + 1 is after position i.
    let mut follow = vec![BTreeSet::new(); n];
    re.follow(&mut follow);
    let next: Vec<BTreeSet<usize>> = std::iter::once(re.first()).chain(follow).collect();
    let last = re.last();
    let accepting = |q: usize| if q == 0 { re.nullable() } else { last.contains(&(q - 1)) };
    let stop_ok = stoppable(&next, &syms, &accepting);
    // Anchored nodes (state, heading): the piece stands on the turtle.
    // States with the same successors and acceptance have the same future,
    // so they share a node.
    let mut classes: HashMap<(&BTreeSet<usize>, bool), usize> = HashMap::new();
    let class: Vec<usize> = (0..=n)
        .map(|q| {
            let fresh = classes.len();
            *classes.entry((&next[q], accepting(q))).or_insert(fresh)
        })
        .collect();
    let mut node_of: HashMap<(usize, usize), usize> = HashMap::new();
    // Where a bound refuses the path: all of its letters.
    let whole = syms.iter().map(|s| s.1).reduce(Span::to).unwrap_or_default();
    let mut nodes: Vec<(usize, usize)> = vec![(0, 0)];
    let done = usize::MAX;
    // The landings gathered per edge while exploring, joined into one
    // move once after: joining each as it came was quadratic.
    let mut found: BTreeMap<(usize, usize), HashSet<Landing>> = BTreeMap::new();
    let mut add_found = |from: usize, to: usize, lands: Mode, o: (i32, i32)| {
        found.entry((from, to)).or_default().insert(Landing { o, lands });
    };
    // The states seen from one node, a bit for each (state, heading,
    // offset), cleared after it through the list of those set.
    let side = (2 * REACH + 1) as usize;
    let index = |q: usize, h: usize, o: (i32, i32)| {
        ((q * turns + h) * side + (o.0 + REACH) as usize) * side + (o.1 + REACH) as usize
    };
    let mut seen = vec![0u64; ((n + 1) * turns * side * side).div_ceil(64)];
    let mut set: Vec<usize> = vec![];
    let mut steps = 0usize;
    let mut k = 0;
    while k < nodes.len() {
        let (q0, h0) = nodes[k];
        for i in set.drain(..) {
            seen[i / 64] = 0;
        }
        let mut stack = vec![(q0, h0, (0i32, 0i32))];
        while let Some((q, h, o)) = stack.pop() {
            if o.0.abs().max(o.1.abs()) <= REACH {
                let i = index(q, h, o);
                if seen[i / 64] & 1 << (i % 64) != 0 {
                    continue;
                }
                seen[i / 64] |= 1 << (i % 64);
                set.push(i);
                steps += 1 + next[q].len();
                if steps > MAX_STEPS {
                    return Err(err(text, whole, format!("this path takes more than {MAX_STEPS} steps of the turtle to lower"))
                        .help("lowering tries each letter that may come next from each heading and square the turtle may reach past the last `$`; a path with fewer optional letters between its `$`s has fewer")
                        .into());
                }
            } else {
                return Err(err(
                    text,
                    whole,
                    format!("this path goes more than {REACH} squares past the last square it reads with `$`"),
                )
                .help("a path reads the squares it passes with `$`; a repeated part that goes forward must too, as in `(F$)+`")
                .into());
            }
            if accepting(q) {
                add_found(k, done, Mode::Both, o);
            }
            for &p in &next[q] {
                match syms[p].0 {
                    'F' => {
                        let d = headings[h];
                        stack.push((p + 1, h, (o.0 + d.0, o.1 + d.1)));
                    }
                    'L' => stack.push((p + 1, (h + 1) % turns, o)),
                    'R' => stack.push((p + 1, (h + turns - 1) % turns, o)),
                    _ => {
                        // The start is never a target: it has no loop.
                        let to = *node_of.entry((class[p + 1], h)).or_insert_with(|| {
                            nodes.push((p + 1, h));
                            nodes.len() - 1
                        });
                        // Standing still is `nil`, and takes nothing.
                        add_found(k, to, Mode::NonCapture, o);
                        if o != (0, 0) && stop_ok[p + 1] {
                            add_found(k, done, Mode::Capture, o);
                        }
                    }
                }
            }
        }
        k += 1;
    }
    let written = |r: Landing| if r.o == (0, 0) { Mv::Nil } else { Mv::Landing(r) };
    let mut edges: BTreeMap<(usize, usize), Mv> = found
        .into_iter()
        .map(|(e, ms)| (e, Mv::alts(ms.into_iter().map(written))))
        .collect();
    eliminate(text, whole, &mut edges, nodes.len())?;
    Ok(match edges.remove(&(0, done)) {
        Some(m) => m.expr(),
        None => fail(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn to_algebra(text: &str, tiling: Tiling) -> Result<String, Diags> {
        Ok(crate::parse::print_expr(&lower(text, tiling)?))
    }

    fn fails(text: &str) -> (Span, String) {
        let d = lower(text, Tiling::Square).unwrap_err();
        (d.0[0].span, d.0[0].message.clone())
    }

    #[test]
    fn the_pawn_steps_forward() {
        assert_eq!(
            to_algebra("/F$/", Tiling::Square).unwrap(),
            "(% + u(. | enemy) -> . + u%)"
        );
    }

    #[test]
    fn the_knight_leaps_in_eight_directions() {
        let k = to_algebra("/L*FF(L|R)F$/", Tiling::Square).unwrap();
        for m in ["uur", "uul", "ddr", "ddl", "urr", "drr", "ull", "dll"] {
            assert!(k.contains(&format!("(% + {m}(. | enemy) -> . + {m}%)")), "{m} in {k}");
        }
    }

    #[test]
    fn on_hex_the_knight_has_twelve_leaps_and_the_bishop_six_diagonals() {
        let k = to_algebra("/L*FF(L|R)F$/", Tiling::Hex).unwrap();
        assert_eq!(k.matches("->").count(), 12, "{k}");
        for m in ["uur", "uuul", "ddl", "dddr"] {
            assert!(k.contains(&format!("(% + {m}(. | enemy) -> . + {m}%)")), "{m} in {k}");
        }
        let b = to_algebra("/L*(FLFR$|LFRF$)+/", Tiling::Hex).unwrap();
        for m in ["ur", "uul", "ull", "dl", "ddr", "drr"] {
            assert!(
                b.contains(&format!("(% + {m}. -> . + {m}%)* (% + {m}(. | enemy) -> . + {m}%)")),
                "{m} in {b}"
            );
        }
        assert_eq!(b.matches("->").count(), 12, "{b}");
    }

    #[test]
    fn the_rook_slides() {
        let r = to_algebra("/L*(F$)+/", Tiling::Square).unwrap();
        assert!(r.contains("(% + u. -> . + u%)* (% + u(. | enemy) -> . + u%)"), "{r}");
        assert!(r.contains("(% + l. -> . + l%)* (% + l(. | enemy) -> . + l%)"), "{r}");
    }

    #[test]
    fn a_path_may_come_back_to_the_start_state() {
        assert_eq!(
            to_algebra("(F$)*", Tiling::Square).unwrap(),
            "((% + u. -> . + u%)* (% + u(. | enemy) -> . + u%))?"
        );
    }

    #[test]
    fn no_path_is_fail() {
        assert_eq!(to_algebra("$", Tiling::Square).unwrap(), "nil");
        assert_eq!(to_algebra("/(F|L)F/", Tiling::Square).unwrap().matches("->").count(), 2);
    }

    #[test]
    fn bad_paths_get_a_span() {
        assert_eq!(fails("/F$X/"), (Span::new(3, 4), "unknown letter `X`".into()));
        assert_eq!(fails("/(F$/"), (Span::new(1, 2), "this `(` is never closed".into()));
        assert_eq!(fails("F$)"), (Span::new(2, 3), "this `)` closes nothing".into()));
        assert_eq!(fails("/F$"), (Span::new(0, 1), "this `/` is never closed".into()));
        assert_eq!(fails("*F").1, "`*` repeats nothing here");
        assert_eq!(
            fails("/L*F+$/").1,
            "this path goes more than 64 squares past the last square it reads with `$`"
        );
    }
}
