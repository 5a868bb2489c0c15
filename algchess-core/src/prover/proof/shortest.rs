//! The shortest proof through the equations an explanation used.
//!
//! egg explains an equality by a path through its proof forest, shortened
//! greedily; the path often climbs from one side to a term far from both
//! and back down. Each replayed step is a ground equation between two
//! subterms that holds in any context. Here those equations are edges of a
//! graph on every subterm of the proof, together with the ones found
//! directly between terms they make equal (one law instance, values that
//! fold alike, or the same choices as sets). Terms with the same operator
//! whose children are equal are joined at the cost of their children's
//! proofs (congruence). Distances are computed class by class with
//! Floyd–Warshall until they stop changing, and the cheapest path from the
//! left side to the right is read back as a draft, which the caller
//! replays like any other.

use super::super::choices::sorted;
use super::super::rules::{LawRule, Rewrites};
use super::{at, canonical, folded_values, matches, replace, replay_law, By, Draft, MAX_KEYED};
use crate::ir::{Node, Pieces, Term};
use crate::laws::conds;
use std::collections::{BTreeMap, HashMap};

/// Larger classes are not searched: Floyd–Warshall is cubic in their size.
const MAX_CLASS: usize = 400;
/// Passes over the classes at most; each pass only shortens distances.
const MAX_PASSES: usize = 64;
const INF: u64 = u64::MAX / 4;

/// Every distinct subterm of the proof, numbered.
#[derive(Default)]
struct Terms {
    term: Vec<Term>,
    kids: Vec<Vec<usize>>,
    /// The node with its children left out, to compare operators.
    op: Vec<Node<()>>,
    /// How many nodes each term has.
    size: Vec<usize>,
    /// Each term as its node over the numbers of its children.
    index: HashMap<Node<usize>, usize>,
}

impl Terms {
    fn add(&mut self, t: &Term) -> usize {
        let key = t.node().map_children(|c| self.add(c));
        if let Some(&i) = self.index.get(&key) {
            return i;
        }
        let kids = key.children().to_vec();
        let i = self.term.len();
        self.term.push(t.clone());
        self.op.push(key.map_children(|_| ()));
        self.size.push(1 + kids.iter().map(|&k| self.size[k]).sum::<usize>());
        self.kids.push(kids);
        self.index.insert(key, i);
        i
    }

    /// The number of a term, if it is one of the proof's.
    fn find(&self, t: &Term) -> Option<usize> {
        let key = t.node().try_map_children(|c| self.find(c).ok_or(())).ok()?;
        self.index.get(&key).copied()
    }
}

fn find(uf: &mut [usize], mut x: usize) -> usize {
    while uf[x] != x {
        uf[x] = uf[uf[x]];
        x = uf[x];
    }
    x
}

fn union(uf: &mut [usize], a: usize, b: usize) -> bool {
    let (a, b) = (find(uf, a), find(uf, b));
    if a != b {
        uf[a.max(b)] = a.min(b);
    }
    a != b
}

/// The direct edges: `(a, b)` maps to what rewrites `a` to `b`.
type Direct = HashMap<(usize, usize), By>;

/// Records an edge both ways, unless one is already known.
fn link(direct: &mut Direct, a: usize, b: usize, by: By) {
    if a != b && !direct.contains_key(&(a, b)) {
        direct.insert((b, a), by.reversed());
        direct.insert((a, b), by);
    }
}

/// How a class member reaches another in one hop.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Hop {
    None,
    Edge,
    Congruence,
}

struct Search<'a> {
    g: &'a Terms,
    classes: Vec<Vec<usize>>,
    /// Each term's class in `classes`, or `usize::MAX` when it is alone.
    class_of: Vec<usize>,
    /// Each term's place in its class.
    local: Vec<usize>,
    direct: Direct,
    /// Per class, `s * s` tables: distances, the next member on a cheapest
    /// path, and the kind of the direct hop between two members.
    dist: Vec<Vec<u64>>,
    next: Vec<Vec<usize>>,
    hop: Vec<Vec<Hop>>,
}

impl Search<'_> {
    fn distance(&self, x: usize, y: usize) -> u64 {
        if x == y {
            return 0;
        }
        let c = self.class_of[x];
        if c == usize::MAX || c != self.class_of[y] {
            return INF;
        }
        let s = self.classes[c].len();
        self.dist[c][self.local[x] * s + self.local[y]]
    }

    /// The cost of joining `x` and `y` by congruence, if they share an
    /// operator.
    fn congruence(&self, x: usize, y: usize) -> Option<u64> {
        let g = self.g;
        if g.op[x] != g.op[y] || g.kids[x].len() != g.kids[y].len() {
            return None;
        }
        let cost = g.kids[x]
            .iter()
            .zip(&g.kids[y])
            .map(|(&a, &b)| self.distance(a, b))
            .fold(0u64, |s, d| s.saturating_add(d));
        (cost < INF).then_some(cost)
    }

    /// One pass: every class's direct hops from the current distances,
    /// then Floyd–Warshall. Says whether any distance changed.
    fn pass(&mut self) -> bool {
        let mut changed = false;
        for c in 0..self.classes.len() {
            let m = &self.classes[c];
            let s = m.len();
            let mut d = vec![INF; s * s];
            let mut next = vec![usize::MAX; s * s];
            let mut hop = vec![Hop::None; s * s];
            for a in 0..s {
                d[a * s + a] = 0;
                next[a * s + a] = a;
                for b in 0..s {
                    if a == b {
                        continue;
                    }
                    let (x, y) = (m[a], m[b]);
                    let (cost, kind) = if self.direct.contains_key(&(x, y)) {
                        (1, Hop::Edge)
                    } else {
                        match self.congruence(x, y) {
                            Some(cost) => (cost, Hop::Congruence),
                            None => continue,
                        }
                    };
                    d[a * s + b] = cost;
                    next[a * s + b] = b;
                    hop[a * s + b] = kind;
                }
            }
            floyd(&mut d, &mut next, s);
            changed |= d != self.dist[c];
            self.dist[c] = d;
            self.next[c] = next;
            self.hop[c] = hop;
        }
        changed
    }

    /// The rewrites of a cheapest proof from `x` to `y`, each at its path:
    /// `(path, from, to, by)`.
    fn expand(
        &self,
        x: usize,
        y: usize,
        path: &mut Vec<usize>,
        out: &mut Vec<(Vec<usize>, usize, usize, By)>,
    ) -> Option<()> {
        if x == y {
            return Some(());
        }
        let c = self.class_of[x];
        let (m, s) = (&self.classes[c], self.classes[c].len());
        let (mut u, b) = (self.local[x], self.local[y]);
        // A cheapest path visits each member once.
        for _ in 0..s {
            if u == b {
                return Some(());
            }
            let v = self.next[c][u * s + b];
            let (ux, vx) = (m[u], m[v]);
            match self.hop[c][u * s + v] {
                Hop::Edge => out.push((path.clone(), ux, vx, self.direct[&(ux, vx)].clone())),
                Hop::Congruence => {
                    for (i, (&a, &b)) in self.g.kids[ux].iter().zip(&self.g.kids[vx]).enumerate() {
                        path.push(i);
                        self.expand(a, b, path, out)?;
                        path.pop();
                    }
                }
                Hop::None => return None,
            }
            u = v;
        }
        (u == b).then_some(())
    }
}

/// Floyd–Warshall on `s * s` tables of distances and next members.
fn floyd(d: &mut [u64], next: &mut [usize], s: usize) {
    let mut row_k = vec![0; s];
    for k in 0..s {
        row_k.copy_from_slice(&d[k * s..(k + 1) * s]);
        for i in 0..s {
            let dik = d[i * s + k];
            if i == k || dik >= INF {
                continue;
            }
            let nik = next[i * s + k];
            let (di, ni) = (&mut d[i * s..(i + 1) * s], &mut next[i * s..(i + 1) * s]);
            for ((dij, nij), &dkj) in di.iter_mut().zip(ni.iter_mut()).zip(&row_k) {
                let via = dik + dkj;
                if via < *dij {
                    *dij = via;
                    *nij = nik;
                }
            }
        }
    }
}

/// The law's other side for `x`, when its side `from` matches `x` and its
/// conditions compute what `to` needs beyond the match. The result is
/// built as it is, without folding, to be looked up among the proof's terms.
fn apply(pieces: &Pieces, rule: &LawRule, x: &Term) -> Option<Term> {
    let mut s = BTreeMap::new();
    if !matches(&rule.from, x, &mut s) {
        return None;
    }
    for c in &rule.conds {
        if c.outputs().is_empty() {
            continue;
        }
        let inputs: Option<Vec<Term>> = c
            .inputs()
            .iter()
            .map(|m| s.get(&*m.name).and_then(|t| canonical(pieces, t)))
            .collect();
        let outputs = conds::decide(c.pred, &inputs?, pieces)?;
        for (m, value) in c.outputs().iter().zip(outputs) {
            s.entry(m.name.to_string()).or_insert(value);
        }
    }
    fn build(t: &Term, s: &BTreeMap<String, Term>) -> Option<Term> {
        if let Node::Var(m) = t.node() {
            return s.get(&*m.name).cloned();
        }
        if t.children().is_empty() {
            return Some(t.clone());
        }
        t.node().try_map_children(|k| build(k, s).ok_or(())).ok().map(Term::raw)
    }
    build(&rule.to, &s)
}

/// Edges found between members of one class: values that fold alike,
/// choices that are the same set, and single law instances. Each law
/// instance found is replayed before it becomes an edge.
fn discover(
    pieces: &Pieces,
    g: &Terms,
    classes: &[Vec<usize>],
    class_of: &[usize],
    direct: &mut Direct,
    rules: &Rewrites,
) {
    for m in classes {
        for (by, key) in [
            (By::Normalise, folded_values as fn(&Pieces, &Term) -> Term),
            (By::Choices, sorted),
        ] {
            let mut groups: HashMap<Term, Vec<usize>> = HashMap::new();
            for &x in m.iter().filter(|&&x| g.size[x] <= MAX_KEYED) {
                groups.entry(key(pieces, &g.term[x])).or_default().push(x);
            }
            for group in groups.values() {
                for (i, &x) in group.iter().enumerate() {
                    for &y in &group[i + 1..] {
                        link(direct, x, y, by.clone());
                    }
                }
            }
        }
        for &x in m {
            for (name, rule) in &rules.table {
                let Some(y) = apply(pieces, rule, &g.term[x]).and_then(|t| g.find(&t)) else {
                    continue;
                };
                if class_of[y] == class_of[x] && replay_law(pieces, rule, &g.term[x], &g.term[y]).is_ok() {
                    let by = By::Rewrite {
                        name: name.clone(),
                        forward: true,
                    };
                    link(direct, x, y, by);
                }
            }
        }
    }
}

/// The cheapest proof of the draft's first term equal to its last, through
/// the terms and equations the draft uses; `None` when a class is too large
/// to search.
pub(super) fn path(pieces: &Pieces, d: &Draft, rules: &Rewrites) -> Option<Draft> {
    let mut g = Terms::default();
    let tops: Vec<usize> = d.terms.iter().map(|t| g.add(t)).collect();
    let mut direct = Direct::new();
    for (k, (p, by)) in d.rewrites.iter().enumerate() {
        let (a, b) = (g.add(at(&d.terms[k], p)), g.add(at(&d.terms[k + 1], p)));
        link(&mut direct, a, b, by.clone());
    }
    let n = g.term.len();
    let mut uf: Vec<usize> = (0..n).collect();
    for &(a, b) in direct.keys() {
        union(&mut uf, a, b);
    }
    // Congruence closure: terms with one operator and equal children are
    // equal.
    loop {
        let mut seen: HashMap<(Node<()>, Vec<usize>), usize> = HashMap::new();
        let mut changed = false;
        for i in 0..n {
            if g.kids[i].is_empty() {
                continue;
            }
            let key = (g.op[i].clone(), g.kids[i].iter().map(|&k| find(&mut uf, k)).collect());
            match seen.get(&key) {
                Some(&j) => changed |= union(&mut uf, i, j),
                None => {
                    seen.insert(key, i);
                }
            }
        }
        if !changed {
            break;
        }
    }
    let mut members: HashMap<usize, Vec<usize>> = HashMap::new();
    for i in 0..n {
        members.entry(find(&mut uf, i)).or_default().push(i);
    }
    let mut classes: Vec<Vec<usize>> = members.into_values().filter(|m| m.len() > 1).collect();
    classes.sort();
    if classes.iter().any(|m| m.len() > MAX_CLASS) {
        return None;
    }
    let (mut class_of, mut local) = (vec![usize::MAX; n], vec![0; n]);
    for (c, m) in classes.iter().enumerate() {
        for (k, &x) in m.iter().enumerate() {
            class_of[x] = c;
            local[x] = k;
        }
    }
    discover(pieces, &g, &classes, &class_of, &mut direct, rules);
    let sizes: Vec<usize> = classes.iter().map(|m| m.len() * m.len()).collect();
    let mut search = Search {
        g: &g,
        class_of,
        local,
        direct,
        dist: sizes.iter().map(|&s| vec![INF; s]).collect(),
        next: sizes.iter().map(|&s| vec![usize::MAX; s]).collect(),
        hop: sizes.iter().map(|&s| vec![Hop::None; s]).collect(),
        classes,
    };
    for _ in 0..MAX_PASSES {
        if !search.pass() {
            break;
        }
    }
    let (first, last) = (tops[0], *tops.last()?);
    if search.distance(first, last) >= INF {
        return None;
    }
    let mut rewrites = vec![];
    search.expand(first, last, &mut vec![], &mut rewrites)?;
    let mut out = Draft {
        terms: vec![d.terms[0].clone()],
        rewrites: vec![],
    };
    for (p, x, y, by) in rewrites {
        let before = out.terms.last().expect("a first term");
        if *at(before, &p) != g.term[x] {
            return None;
        }
        out.terms.push(replace(before, &p, &g.term[y]));
        out.rewrites.push((p, by));
    }
    Some(out)
}
