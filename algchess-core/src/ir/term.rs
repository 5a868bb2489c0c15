//! The typed core IR: one term language for movements, cells, fragments,
//! patterns and moves.
//!
//! Terms are built only through the constructors here, which keep the cheap
//! algebra folded: closed movements are group normal forms, closed fragments
//! and patterns are literal maps and sets, and a closed movement applied to
//! anything is pushed all the way in. What is left as structure is exactly
//! what the evaluator runs and the prover rewrites.

use super::{Cell, Content, Fragment, GlueError, Pattern, Pieces};
use crate::geometry::Movement;
use std::fmt;
use std::sync::Arc;

/// The sorts of the algebra. `Cell` is a single content (a binder's piece);
/// it can stand where a fragment is expected, and a fragment where a pattern
/// is expected.
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Sort {
    /// Movements: `u`, `R`, `F`, compositions and powers.
    Movement,
    /// A single content, bound by `%c:`.
    Cell,
    /// A finite map from squares to cells.
    Fragment,
    /// A set of alternative fragments.
    Pattern,
    /// A relation from states (board and POI) to sets of states.
    Move,
    /// A repetition count; only metavariables (`i j k`) have it in text.
    Count,
}

impl Sort {
    /// Whether a term of sort `self` may be used where `want` is expected.
    pub fn fits(self, want: Sort) -> bool {
        self == want
            || matches!(
                (self, want),
                (Sort::Cell, Sort::Fragment) | (Sort::Cell, Sort::Pattern) | (Sort::Fragment, Sort::Pattern)
            )
    }

    /// The sort's name as error messages write it.
    pub fn name(self) -> &'static str {
        match self {
            Sort::Movement => "movement",
            Sort::Cell => "cell",
            Sort::Fragment => "fragment",
            Sort::Pattern => "pattern",
            Sort::Move => "move",
            Sort::Count => "count",
        }
    }
}

impl fmt::Display for Sort {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A metavariable of a law, such as `M` in `nil M = M`.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Meta {
    /// The name as written (`M`, `f_1`).
    pub name: Arc<str>,
    /// The sort the metavariable ranges over.
    pub sort: Sort,
}

/// Repetition bounds: `M{lo,hi}`, with `hi = None` for no upper bound.
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Bounds {
    /// The fewest repetitions.
    pub lo: u32,
    /// The most repetitions; `None` for no upper bound.
    pub hi: Option<u32>,
}

impl Bounds {
    /// `*`: any number of times.
    pub const STAR: Bounds = Bounds { lo: 0, hi: None };
    /// `+`: at least once.
    pub const PLUS: Bounds = Bounds { lo: 1, hi: None };
    /// `?`: at most once.
    pub const OPT: Bounds = Bounds { lo: 0, hi: Some(1) };

    /// `{n}`: exactly `n` times.
    pub fn exactly(n: u32) -> Bounds {
        Bounds { lo: n, hi: Some(n) }
    }
}

/// One node of a term, generic over what stands for its children: a core
/// term's node is a `Node<Term>` (the default), the prover's e-node a
/// `Node<egg::Id>`. Children sit in arrays so that every node can show them
/// as one slice, which egg needs.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Node<C = Term> {
    // Constants of the cheap algebra.
    /// A closed movement in normal form.
    Mov(Movement),
    /// A closed content.
    Cell(Content),
    /// A closed fragment, or a pattern of one member.
    Frag(Fragment),
    /// A closed pattern with at least two members (one member is a `Frag`).
    Pat(Pattern),
    /// A metavariable.
    Var(Meta),
    /// A repetition count.
    Num(u32),
    /// No upper bound: the `hi` of `M*`, `M+` and `M{i,}`.
    Inf,
    // Structure that only survives around metavariables.
    /// `n m` on open movements: do `m`, then `n`.
    Compose([C; 2]),
    /// `m^k` of an open movement.
    Power([C; 1], i64),
    /// A movement applied to a cell, fragment, pattern or move.
    Apply([C; 2]),
    /// A cell used as a fragment: that cell on square `(0, 0)`. Only a
    /// metavariable cell needs it; a known cell folds to a `Frag`.
    Single([C; 1]),
    /// `f + g` where a side is open.
    Glue([C; 2]),
    /// `P | Q` where a side is open.
    Union([C; 2]),
    // Moves.
    /// `nil`: the state itself.
    Nil,
    /// `fail`: no result.
    Fail,
    /// `f -> g`: where the board matches `f`, write `g`.
    Rule([C; 2]),
    /// `%c: M`: the first child is the binder's cell.
    Bind([C; 2]),
    /// `A B`: `A`, then `B` on each of its results.
    Seq([C; 2]),
    /// `A | B`: the results of both.
    Alt([C; 2]),
    /// `M{lo,hi}`; the counts are `Num`, `Inf` or count metavariables.
    Repeat([C; 3]),
    /// `not M`: the state itself when `M` has no result on it, else nothing.
    Not([C; 1]),
    /// `M*!`: repeat `M` while it applies; the states where it stops.
    Greedy([C; 1]),
}

/// The children array of `$node` as a slice, or `$none` for a leaf:
/// `children` and `children_mut` in one place.
macro_rules! kids {
    ($node:expr, $none:expr) => {
        match $node {
            Node::Mov(_)
            | Node::Cell(_)
            | Node::Frag(_)
            | Node::Pat(_)
            | Node::Var(_)
            | Node::Num(_)
            | Node::Inf
            | Node::Nil
            | Node::Fail => $none,
            Node::Power(c, _) | Node::Single(c) | Node::Not(c) | Node::Greedy(c) => c,
            Node::Compose(c)
            | Node::Apply(c)
            | Node::Glue(c)
            | Node::Union(c)
            | Node::Rule(c)
            | Node::Bind(c)
            | Node::Seq(c)
            | Node::Alt(c) => c,
            Node::Repeat(c) => c,
        }
    };
}

impl<C> Node<C> {
    /// The children, in order.
    pub fn children(&self) -> &[C] {
        kids!(self, &[])
    }

    /// The children, in order, to change in place.
    pub fn children_mut(&mut self) -> &mut [C] {
        kids!(self, &mut [])
    }

    /// The same node over other children, each computed from the one it
    /// replaces, in order; the first error stops it.
    pub fn try_map_children<D, E>(&self, mut f: impl FnMut(&C) -> Result<D, E>) -> Result<Node<D>, E> {
        Ok(match self {
            Node::Mov(m) => Node::Mov(*m),
            Node::Cell(c) => Node::Cell(*c),
            Node::Frag(x) => Node::Frag(x.clone()),
            Node::Pat(p) => Node::Pat(p.clone()),
            Node::Var(m) => Node::Var(m.clone()),
            Node::Num(n) => Node::Num(*n),
            Node::Inf => Node::Inf,
            Node::Nil => Node::Nil,
            Node::Fail => Node::Fail,
            Node::Power([a], k) => Node::Power([f(a)?], *k),
            Node::Single([a]) => Node::Single([f(a)?]),
            Node::Not([a]) => Node::Not([f(a)?]),
            Node::Greedy([a]) => Node::Greedy([f(a)?]),
            Node::Compose([a, b]) => Node::Compose([f(a)?, f(b)?]),
            Node::Apply([a, b]) => Node::Apply([f(a)?, f(b)?]),
            Node::Glue([a, b]) => Node::Glue([f(a)?, f(b)?]),
            Node::Union([a, b]) => Node::Union([f(a)?, f(b)?]),
            Node::Rule([a, b]) => Node::Rule([f(a)?, f(b)?]),
            Node::Bind([a, b]) => Node::Bind([f(a)?, f(b)?]),
            Node::Seq([a, b]) => Node::Seq([f(a)?, f(b)?]),
            Node::Alt([a, b]) => Node::Alt([f(a)?, f(b)?]),
            Node::Repeat([a, lo, hi]) => Node::Repeat([f(a)?, f(lo)?, f(hi)?]),
        })
    }

    /// The same node over other children, each computed from the one it
    /// replaces, in order.
    pub fn map_children<D>(&self, mut f: impl FnMut(&C) -> D) -> Node<D> {
        match self.try_map_children(|c| Ok::<_, std::convert::Infallible>(f(c))) {
            Ok(n) => n,
            Err(never) => match never {},
        }
    }

    /// The node as a node of any child type, when it has no children.
    pub fn as_leaf<D>(&self) -> Option<Node<D>> {
        self.try_map_children(|_| Err(())).ok()
    }

    /// Whether two nodes have the same operator: the same variant with the
    /// same constant or exponent, whatever their children.
    pub fn same_op(&self, o: &Self) -> bool {
        match (self, o) {
            (Node::Mov(a), Node::Mov(b)) => a == b,
            (Node::Cell(a), Node::Cell(b)) => a == b,
            (Node::Frag(a), Node::Frag(b)) => a == b,
            (Node::Pat(a), Node::Pat(b)) => a == b,
            (Node::Var(a), Node::Var(b)) => a == b,
            (Node::Num(a), Node::Num(b)) => a == b,
            (Node::Power(_, a), Node::Power(_, b)) => a == b,
            _ => std::mem::discriminant(self) == std::mem::discriminant(o),
        }
    }

    /// The node's sort, given its children's.
    pub fn sort(&self, child: impl Fn(&C) -> Sort) -> Sort {
        match self {
            Node::Mov(_) | Node::Compose(..) | Node::Power(..) => Sort::Movement,
            Node::Cell(_) => Sort::Cell,
            Node::Frag(_) | Node::Single(_) => Sort::Fragment,
            Node::Pat(_) | Node::Union(..) => Sort::Pattern,
            Node::Var(m) => m.sort,
            Node::Num(_) | Node::Inf => Sort::Count,
            Node::Apply([_, x]) => child(x),
            Node::Glue([a, b]) => {
                if child(a) == Sort::Pattern || child(b) == Sort::Pattern {
                    Sort::Pattern
                } else {
                    Sort::Fragment
                }
            }
            Node::Nil
            | Node::Fail
            | Node::Rule(..)
            | Node::Bind(..)
            | Node::Seq(..)
            | Node::Alt(..)
            | Node::Repeat(..)
            | Node::Not(_)
            | Node::Greedy(_) => Sort::Move,
        }
    }
}

/// The deepest nesting a term may have. Every consumer of terms recurses
/// over them; elaboration rejects deeper input, so that no recursion can
/// overflow the stacks the command line runs on.
pub(crate) const MAX_DEPTH: u32 = 50_000;

/// A shared, immutable core term.
#[derive(Clone)]
pub struct Term(Arc<Inner>);

/// A node, the depth of the tree below it and its structural hash, both
/// worked out once at construction: hashing a term is then constant time
/// (a node hashes its children's stored hashes), so a map keyed by terms
/// costs what the keys' roots do, not their whole trees.
struct Inner {
    node: Node,
    depth: u32,
    hash: u64,
}

// Terms compare as their nodes; the depth and the hash follow from the
// node, and unequal hashes settle most comparisons without a walk.
impl PartialEq for Term {
    fn eq(&self, o: &Term) -> bool {
        Arc::ptr_eq(&self.0, &o.0) || (self.0.hash == o.0.hash && self.0.node == o.0.node)
    }
}

impl Eq for Term {}

impl PartialOrd for Term {
    fn partial_cmp(&self, o: &Term) -> Option<std::cmp::Ordering> {
        Some(self.cmp(o))
    }
}

impl Ord for Term {
    fn cmp(&self, o: &Term) -> std::cmp::Ordering {
        self.0.node.cmp(&o.0.node)
    }
}

impl std::hash::Hash for Term {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        h.write_u64(self.0.hash)
    }
}

impl fmt::Debug for Term {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", self.0.node)
    }
}

impl std::ops::Deref for Term {
    type Target = Node;
    fn deref(&self) -> &Node {
        &self.0.node
    }
}

impl Term {
    /// Wraps a node as it is, without folding. Prefer the smart
    /// constructors; this exists for code that rebuilds terms node by node
    /// from already-canonical parts (the prover's extraction and proofs).
    pub(crate) fn raw(node: Node) -> Term {
        use std::hash::{Hash, Hasher};
        let below = node.children().iter().map(Term::depth).max().unwrap_or(0);
        // Fixed keys: a term's hash is the same in every run and process.
        let mut h = std::hash::DefaultHasher::new();
        node.hash(&mut h);
        Term(Arc::new(Inner {
            node,
            depth: below.saturating_add(1),
            hash: h.finish(),
        }))
    }

    /// The root node.
    pub fn node(&self) -> &Node {
        &self.0.node
    }

    /// The number of nodes on the longest path from the root to a leaf.
    pub fn depth(&self) -> u32 {
        self.0.depth
    }

    /// A movement constant.
    pub fn movement(m: Movement) -> Term {
        Term::raw(Node::Mov(m))
    }

    /// A content constant.
    pub fn content(c: Content) -> Term {
        Term::raw(Node::Cell(c))
    }

    /// A fragment constant.
    pub fn fragment(f: Fragment) -> Term {
        Term::raw(Node::Frag(f))
    }

    /// A pattern constant; one member collapses to that fragment.
    pub fn pattern(p: Pattern) -> Term {
        match p.as_fragment() {
            Some(f) => Term::fragment(f.clone()),
            None => Term::raw(Node::Pat(p)),
        }
    }

    /// A metavariable of sort `sort`.
    pub fn var(name: &str, sort: Sort) -> Term {
        Term::raw(Node::Var(Meta {
            name: name.into(),
            sort,
        }))
    }

    /// `nil`.
    pub fn nil() -> Term {
        Term::raw(Node::Nil)
    }

    /// `fail`.
    pub fn fail() -> Term {
        Term::raw(Node::Fail)
    }

    /// The term's sort, computed from its nodes.
    pub fn sort(&self) -> Sort {
        self.node().sort(Term::sort)
    }

    /// True when the term has no metavariables.
    pub fn is_closed(&self) -> bool {
        !matches!(self.node(), Node::Var(_)) && self.children().iter().all(Term::is_closed)
    }

    /// Every metavariable, each once, in order of first occurrence.
    pub fn metas(&self) -> Vec<Meta> {
        fn go(t: &Term, out: &mut Vec<Meta>) {
            if let Node::Var(m) = t.node() {
                if !out.contains(m) {
                    out.push(m.clone());
                }
            }
            for c in t.children() {
                go(c, out);
            }
        }
        let mut out = vec![];
        go(self, &mut out);
        out
    }

    /// True when a `%` cell occurs outside every binder: the move reads the
    /// piece of interest of the state it runs on.
    pub fn is_open(&self) -> bool {
        match self.node() {
            Node::Frag(f) => f.poi().is_some(),
            Node::Pat(p) => p.members().any(|f| f.poi().is_some()),
            Node::Bind(..) => false,
            _ => self.children().iter().any(Term::is_open),
        }
    }

    /// A cell or fragment viewed as a pattern constant, if it is closed.
    pub fn as_pattern(&self) -> Option<Pattern> {
        match self.node() {
            Node::Cell(c) => Some(Pattern::single(Fragment::single(Cell::Is(*c)))),
            Node::Frag(f) => Some(Pattern::single(f.clone())),
            Node::Pat(p) => Some(p.clone()),
            _ => None,
        }
    }

    /// A cell viewed as a one-cell fragment at the origin; anything else as
    /// it is. Cells only differ from fragments in that movements do not
    /// move them (a binder names a piece, not a square).
    pub fn as_fragment_term(&self) -> Term {
        match self.node() {
            Node::Cell(c) => Term::fragment(Fragment::single(Cell::Is(*c))),
            _ if self.sort() == Sort::Cell => Term::raw(Node::Single([self.clone()])),
            _ => self.clone(),
        }
    }

    // ---- smart constructors ----

    /// Pushes the alternatives of a chain of `|`, left to right.
    pub fn push_alternatives(&self, out: &mut Vec<Term>) {
        self.push_chain(out, |n| match n {
            Node::Alt(ab) => Some(ab),
            _ => None,
        });
    }

    /// The steps of a sequence `a b c`, in order, pushed onto `out`.
    pub fn push_steps(&self, out: &mut Vec<Term>) {
        self.push_chain(out, |n| match n {
            Node::Seq(ab) => Some(ab),
            _ => None,
        });
    }

    /// The leaves of a tree of one binary node, left to right.
    fn push_chain(&self, out: &mut Vec<Term>, split: fn(&Node<Term>) -> Option<&[Term; 2]>) {
        match split(self.node()) {
            Some([a, b]) => {
                a.push_chain(out, split);
                b.push_chain(out, split);
            }
            None => out.push(self.clone()),
        }
    }

    /// `n m`: do `m`, then `n`. Open compositions are kept as a
    /// right-nested chain with adjacent constants multiplied out, so each
    /// composition has one form.
    pub fn compose(n: &Term, m: &Term) -> Term {
        fn factors(n: &Node<Term>) -> Option<&[Term; 2]> {
            match n {
                Node::Compose(ab) => Some(ab),
                _ => None,
            }
        }
        let mut fs = vec![];
        n.push_chain(&mut fs, factors);
        m.push_chain(&mut fs, factors);
        let mut merged: Vec<Term> = vec![];
        for f in fs {
            // Text `a b` is `b` first, then `a`. Two constants multiply
            // out, unless the product leaves the bounded range (elaboration
            // rejects such input first).
            let product = match (merged.last().map(|t| t.node()), f.node()) {
                (Some(Node::Mov(a)), Node::Mov(b)) => b.checked_then(a),
                _ => None,
            };
            match product {
                Some(ab) => *merged.last_mut().expect("a factor to multiply") = Term::movement(ab),
                None => merged.push(f),
            }
        }
        merged.retain(|t| !matches!(t.node(), Node::Mov(m) if m.is_identity()));
        let mut iter = merged.into_iter().rev();
        let Some(mut acc) = iter.next() else {
            return Term::movement(Movement::IDENTITY);
        };
        for f in iter {
            acc = Term::raw(Node::Compose([f, acc]));
        }
        acc
    }

    /// `m^k`, folded when `m` is closed and the power stays in range.
    pub fn power(m: &Term, k: i64) -> Term {
        match m.node() {
            _ if k == 1 => m.clone(),
            // A power beyond the bounded range stays unfolded.
            Node::Mov(a) => match a.checked_pow(k) {
                Some(p) => Term::movement(p),
                None => Term::raw(Node::Power([m.clone()], k)),
            },
            _ => Term::raw(Node::Power([m.clone()], k)),
        }
    }

    /// `m x` for a movement `m` and a cell, fragment, pattern or move `x`.
    pub fn apply(m: &Term, x: &Term, pieces: &Pieces) -> Term {
        let Node::Mov(mv) = m.node() else {
            return Term::raw(Node::Apply([m.clone(), x.clone()]));
        };
        if mv.is_identity() {
            return x.clone();
        }
        let go = |t: &Term| Term::apply(m, t, pieces);
        match x.node() {
            Node::Cell(c) => Term::content(c.moved(mv, pieces)),
            Node::Frag(f) => Term::fragment(f.moved(mv, pieces)),
            Node::Pat(p) => Term::pattern(p.moved(mv, pieces)),
            Node::Apply([n, y]) => match n.node() {
                Node::Mov(inner) => match inner.checked_then(mv) {
                    Some(both) => Term::apply(&Term::movement(both), y, pieces),
                    None => Term::raw(Node::Apply([m.clone(), x.clone()])),
                },
                _ => Term::raw(Node::Apply([m.clone(), x.clone()])),
            },
            // Movements of movements are compositions; elaboration never
            // asks for them, but the constructor stays total.
            Node::Mov(_) | Node::Compose(..) | Node::Power(..) => Term::compose(m, x),
            Node::Var(_) | Node::Single(_) => Term::raw(Node::Apply([m.clone(), x.clone()])),
            Node::Glue([a, b]) => Term::raw(Node::Glue([go(a), go(b)])),
            Node::Union([a, b]) => Term::raw(Node::Union([go(a), go(b)])),
            Node::Nil | Node::Fail => x.clone(),
            Node::Rule([f, g]) => Term::rule(&go(f), &go(g)),
            // A binder whose piece is a metavariable keeps the movement
            // outside, where it can be printed: `m(%p: M)`.
            Node::Bind([c, _]) if !c.is_closed() => Term::raw(Node::Apply([m.clone(), x.clone()])),
            Node::Bind([c, body]) => Term::bind(&go(c), &go(body)),
            Node::Seq([a, b]) => Term::seq(&go(a), &go(b)),
            Node::Alt([a, b]) => Term::alt(&go(a), &go(b)),
            Node::Repeat([a, lo, hi]) => Term::repeat_counts(&go(a), lo, hi),
            Node::Not([a]) => Term::not(&go(a)),
            Node::Greedy([a]) => Term::greedy(&go(a)),
            Node::Num(_) | Node::Inf => x.clone(),
        }
    }

    /// `f + g` on fragments or patterns.
    pub fn glue(f: &Term, g: &Term) -> Result<Term, GlueError> {
        let (f, g) = (f.as_fragment_term(), g.as_fragment_term());
        match (f.node(), g.node()) {
            (Node::Frag(a), Node::Frag(b)) => Ok(Term::fragment(a.glue(b)?)),
            (Node::Frag(a), _) if a.is_empty() => Ok(g),
            (_, Node::Frag(b)) if b.is_empty() => Ok(f),
            _ => match (f.as_pattern(), g.as_pattern()) {
                (Some(a), Some(b)) => Ok(Term::pattern(a.glue(&b)?)),
                _ => Ok(Term::raw(Node::Glue([f, g]))),
            },
        }
    }

    /// `P | Q` on fragments or patterns.
    pub fn union(p: &Term, q: &Term) -> Term {
        let (p, q) = (p.as_fragment_term(), q.as_fragment_term());
        match (p.as_pattern(), q.as_pattern()) {
            (Some(a), Some(b)) => Term::pattern(a.union(&b)),
            _ => Term::raw(Node::Union([p, q])),
        }
    }

    /// `f -> g`; a cell on either side becomes a one-cell fragment.
    pub fn rule(f: &Term, g: &Term) -> Term {
        Term::raw(Node::Rule([f.as_fragment_term(), g.as_fragment_term()]))
    }

    /// `%c: body`.
    pub fn bind(cell: &Term, body: &Term) -> Term {
        Term::raw(Node::Bind([cell.clone(), body.clone()]))
    }

    /// `a b`.
    pub fn seq(a: &Term, b: &Term) -> Term {
        Term::raw(Node::Seq([a.clone(), b.clone()]))
    }

    /// `a | b`.
    pub fn alt(a: &Term, b: &Term) -> Term {
        Term::raw(Node::Alt([a.clone(), b.clone()]))
    }

    /// `not a`.
    pub fn not(a: &Term) -> Term {
        Term::raw(Node::Not([a.clone()]))
    }

    /// `a*!`.
    pub fn greedy(a: &Term) -> Term {
        Term::raw(Node::Greedy([a.clone()]))
    }

    /// `a{lo,hi}` with literal bounds.
    pub fn repeat(a: &Term, b: Bounds) -> Term {
        let hi = match b.hi {
            Some(h) => Term::raw(Node::Num(h)),
            None => Term::raw(Node::Inf),
        };
        Term::repeat_counts(a, &Term::raw(Node::Num(b.lo)), &hi)
    }

    /// `a{lo,hi}` with count terms.
    pub fn repeat_counts(a: &Term, lo: &Term, hi: &Term) -> Term {
        Term::raw(Node::Repeat([a.clone(), lo.clone(), hi.clone()]))
    }

    /// The bounds of a repetition whose counts are literal.
    pub fn bounds(&self) -> Option<Bounds> {
        let Node::Repeat([_, lo, hi]) = self.node() else {
            return None;
        };
        let Node::Num(lo) = lo.node() else { return None };
        let hi = match hi.node() {
            Node::Num(h) => Some(*h),
            Node::Inf => None,
            _ => return None,
        };
        Some(Bounds { lo: *lo, hi })
    }

    /// The term a node builds through the smart constructors, from
    /// children that are already terms: canonical when they are. A leaf is
    /// kept as it is.
    pub fn build(node: Node, pieces: &Pieces) -> Result<Term, GlueError> {
        Ok(match &node {
            Node::Compose([a, b]) => Term::compose(a, b),
            Node::Power([a], k) => Term::power(a, *k),
            Node::Apply([m, x]) => Term::apply(m, x, pieces),
            Node::Single([c]) => c.as_fragment_term(),
            Node::Glue([a, b]) => Term::glue(a, b)?,
            Node::Union([a, b]) => Term::union(a, b),
            Node::Rule([a, b]) => Term::rule(a, b),
            Node::Bind([a, b]) => Term::bind(a, b),
            Node::Seq([a, b]) => Term::seq(a, b),
            Node::Alt([a, b]) => Term::alt(a, b),
            Node::Repeat([a, lo, hi]) => Term::repeat_counts(a, lo, hi),
            Node::Not([a]) => Term::not(a),
            Node::Greedy([a]) => Term::greedy(a),
            Node::Mov(_)
            | Node::Cell(_)
            | Node::Frag(_)
            | Node::Pat(_)
            | Node::Var(_)
            | Node::Num(_)
            | Node::Inf
            | Node::Nil
            | Node::Fail => Term::raw(node),
        })
    }

    /// Replaces metavariables by terms of their sorts, re-folding as it goes.
    pub fn substitute(&self, s: &dyn Fn(&Meta) -> Option<Term>, pieces: &Pieces) -> Result<Term, GlueError> {
        match self.node() {
            Node::Var(m) => Ok(s(m).unwrap_or_else(|| self.clone())),
            n if n.children().is_empty() => Ok(self.clone()),
            n => Term::build(n.try_map_children(|c| c.substitute(s, pieces))?, pieces),
        }
    }

    /// Every piece the term names, in fragments and binders.
    pub fn pieces(&self) -> Vec<super::PieceId> {
        fn go(t: &Term, out: &mut Vec<super::PieceId>) {
            let mut add = |f: &Fragment| {
                for (_, c) in f.cells() {
                    if let Cell::Is(Content::Piece(p)) = c {
                        out.push(p);
                    }
                }
            };
            match t.node() {
                Node::Frag(f) => add(f),
                Node::Pat(p) => p.members().for_each(add),
                Node::Cell(Content::Piece(p)) => out.push(*p),
                _ => {}
            }
            for c in t.children() {
                go(c, out);
            }
        }
        let mut out = vec![];
        go(self, &mut out);
        out.sort();
        out.dedup();
        out
    }

    /// Number of nodes, counting constants as one.
    pub fn size(&self) -> usize {
        1 + self.children().iter().map(Term::size).sum::<usize>()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The generic operations agree with each other, and rebuilding a
    /// canonical node through the constructors gives the same term.
    #[test]
    fn nodes_rebuild_as_they_were() {
        for seed in 0..300 {
            let mut g = crate::rng::Rng::new(seed);
            for sort in [Sort::Movement, Sort::Fragment, Sort::Pattern, Sort::Move] {
                let t = super::super::gen::term(&mut g, sort);
                let mut i = 0;
                let numbered = t.node().map_children(|_| {
                    i += 1;
                    i
                });
                assert_eq!(numbered.children(), (1..=t.children().len()).collect::<Vec<_>>());
                assert_eq!(t.node().as_leaf::<()>().is_some(), t.children().is_empty());
                let chess = super::super::Pieces::chess();
                assert_eq!(
                    Term::build(t.node().clone(), &chess).as_ref(),
                    Ok(&t),
                    "{}",
                    chess.show(&t)
                );
            }
        }
    }
}
