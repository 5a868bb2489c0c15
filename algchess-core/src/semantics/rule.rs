//! One compiled rule `f -> g`: its guard sorted for matching, its writes,
//! and the pivot that finds where it may apply.

use super::cell_set::CellSet;
use crate::geometry::Square;
use crate::ir::{Cell, Content, Fragment};

/// How a rule finds the translations at which it may apply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pivot {
    /// `f` holds `%` here: the only candidate puts it on the POI.
    Anchor(Square),
    /// This cell of `f` must read this content: try the squares that do.
    Guard(Square, Content),
    /// This cell of `f` must read one of several cells: try every square.
    GuardAny(Square),
    /// This cell of `g` must land on the board: try every board square.
    Write(Square),
    /// `f` and `g` hold only `#` cells: the rule is the identity.
    Identity,
}

/// One rule `f -> g` between fragments, or several that differ only in
/// what one guard square reads.
#[derive(Clone, Debug)]
pub struct Rule {
    /// The squares of `f` and what each may read, the pivot's first.
    pub guard: Vec<(Square, CellSet)>,
    /// The cells of `g` other than `#`.
    pub writes: Vec<(Square, Cell)>,
    /// The `#` cells of `g`: they must land off the board.
    pub offs: Vec<Square>,
    pub pivot: Pivot,
    /// `g` writes `%`, which needs a POI to copy.
    pub needs_poi: bool,
}

impl Rule {
    pub fn new(f: &Fragment, g: &Fragment) -> Rule {
        let guard: Vec<(Square, CellSet)> = f.cells().map(|(q, c)| (q, CellSet::single(c))).collect();
        let writes: Vec<(Square, Cell)> = g.cells().filter(|(_, c)| *c != Cell::Off).collect();
        let offs: Vec<Square> = g.cells().filter(|(_, c)| *c == Cell::Off).map(|(q, _)| q).collect();
        Rule {
            needs_poi: writes.iter().any(|(_, c)| *c == Cell::Poi),
            guard,
            writes,
            offs,
            pivot: Pivot::Identity,
        }
        .pivoted()
    }

    /// The step of a line walk, `% + d. -> . + d%` and nothing else: `d`.
    pub fn walk_step(&self) -> Option<Square> {
        self.step()
            .and_then(|(d, set)| (set == CellSet::single(Cell::EMPTY)).then_some(d))
    }

    /// A step of the POI to a square reading a set, `% + d S -> . + d%`:
    /// `d` and `S`.
    pub fn step(&self) -> Option<(Square, CellSet)> {
        let Pivot::Anchor(a) = self.pivot else { return None };
        if !self.offs.is_empty() || self.guard.len() != 2 || self.writes.len() != 2 {
            return None;
        }
        let (to, set) = self.guard[1];
        if to == a {
            return None;
        }
        let mut writes = self.writes.clone();
        writes.sort_by_key(|(q, _)| *q);
        let mut expected = vec![(a, Cell::EMPTY), (to, Cell::Poi)];
        expected.sort_by_key(|(q, _)| *q);
        (writes == expected).then_some((to - a, set))
    }

    /// Orders the guard for matching and picks the pivot: `%` first, then
    /// a piece (rarer than an empty square), then the rest.
    fn pivoted(mut self) -> Rule {
        let rank = |s: &CellSet| match s.only() {
            Some(Cell::Poi) => 0,
            Some(Cell::Is(Content::Piece(_))) => 1,
            Some(Cell::Is(Content::Empty)) => 2,
            None if !s.contains(Cell::Off) && !s.contains(Cell::Poi) => 3,
            _ => 4,
        };
        self.guard.sort_by_key(|(q, s)| (rank(s), *q));
        self.pivot = match self.guard.first() {
            Some((q, s)) => match (rank(s), s.only()) {
                (0, _) => Pivot::Anchor(*q),
                (1 | 2, Some(Cell::Is(c))) => Pivot::Guard(*q, c),
                (3, _) => Pivot::GuardAny(*q),
                _ => self.write_pivot(),
            },
            None => self.write_pivot(),
        };
        self
    }

    fn write_pivot(&self) -> Pivot {
        match self.writes.first() {
            Some((q, _)) => Pivot::Write(*q),
            None => Pivot::Identity,
        }
    }

    /// The two rules as one, when they write the same and their guards
    /// differ in what one square reads.
    fn merge(&self, o: &Rule) -> Option<Rule> {
        if self.writes != o.writes || self.offs != o.offs || self.guard.len() != o.guard.len() {
            return None;
        }
        let mut a = self.guard.clone();
        let mut b = o.guard.clone();
        a.sort_by_key(|(q, _)| *q);
        b.sort_by_key(|(q, _)| *q);
        let mut differing = None;
        for (k, ((qa, sa), (qb, sb))) in a.iter().zip(&b).enumerate() {
            if qa != qb {
                return None;
            }
            if sa != sb {
                // `%` stays where it is: its square is the anchor.
                if differing.is_some() || sa.contains(Cell::Poi) || sb.contains(Cell::Poi) {
                    return None;
                }
                differing = Some(k);
            }
        }
        if let Some(k) = differing {
            a[k].1 = a[k].1.union(&b[k].1);
        }
        Some(
            Rule {
                guard: a,
                writes: self.writes.clone(),
                offs: self.offs.clone(),
                pivot: Pivot::Identity,
                needs_poi: self.needs_poi,
            }
            .pivoted(),
        )
    }
}

/// Merges rules that differ only in what one guard square reads.
pub(super) fn merged(mut rules: Vec<Rule>) -> Vec<Rule> {
    let mut i = 0;
    while i < rules.len() {
        let mut j = i + 1;
        while j < rules.len() {
            if let Some(m) = rules[i].merge(&rules[j]) {
                rules[i] = m;
                rules.remove(j);
                j = i + 1;
            } else {
                j += 1;
            }
        }
        i += 1;
    }
    rules
}
