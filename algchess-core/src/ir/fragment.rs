//! Fragments (finite partial maps from squares to cells) and patterns
//! (finite sets of fragments), kept canonical so that equality is `==`.

use super::{Cell, Pieces};
use crate::geometry::{Movement, Square};
use std::fmt;
use std::sync::Arc;

/// A board fragment: its cells, sorted by square. Fragments are small (a
/// piece and the few squares a rule reads), so a shared sorted slice is
/// cheaper to move and glue than a persistent tree, whose every node is a
/// large allocation.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Fragment(Arc<[(Square, Cell)]>);

impl Default for Fragment {
    fn default() -> Self {
        Fragment(Arc::from([]))
    }
}

/// Why two fragments cannot be glued.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GlueError {
    /// Both fragments have a cell on this square.
    Overlap(Square),
    /// The result would hold two `%` cells.
    TwoPoi(Square, Square),
}

impl fmt::Display for GlueError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GlueError::Overlap(q) => write!(f, "both sides have a cell on square {q}"),
            GlueError::TwoPoi(a, b) => write!(f, "two `%` cells, on squares {a} and {b}"),
        }
    }
}

impl std::error::Error for GlueError {}

impl Fragment {
    /// The fragment `0`.
    pub fn empty() -> Fragment {
        Fragment::default()
    }

    /// One cell at the square `(0, 0)`.
    pub fn single(c: Cell) -> Fragment {
        Fragment(Arc::from([(Square::ORIGIN, c)]))
    }

    /// Builds a fragment from cells, failing on a repeated square or a
    /// second `%`.
    pub fn from_cells(cells: impl IntoIterator<Item = (Square, Cell)>) -> Result<Fragment, GlueError> {
        cells
            .into_iter()
            .try_fold(Fragment::empty(), |f, (q, c)| f.glue(&Fragment(Arc::from([(q, c)]))))
    }

    /// `self + other`: the union of two disjoint maps, merged in order
    /// straight into the shared slice (no temporary vector: definitions
    /// that glue one cell onto the last would otherwise leave a trail of
    /// freed buffers of every size).
    pub fn glue(&self, other: &Fragment) -> Result<Fragment, GlueError> {
        let (a, b) = (&self.0[..], &other.0[..]);
        let mut out = Arc::<[(Square, Cell)]>::new_uninit_slice(a.len() + b.len());
        let slots = Arc::get_mut(&mut out).expect("a new slice is not shared");
        let (mut i, mut j) = (0, 0);
        for slot in slots.iter_mut() {
            let next = match (a.get(i), b.get(j)) {
                (Some(x), Some(y)) => match x.0.cmp(&y.0) {
                    std::cmp::Ordering::Less => {
                        i += 1;
                        *x
                    }
                    std::cmp::Ordering::Greater => {
                        j += 1;
                        *y
                    }
                    std::cmp::Ordering::Equal => return Err(GlueError::Overlap(x.0)),
                },
                (Some(x), None) => {
                    i += 1;
                    *x
                }
                (None, Some(y)) => {
                    j += 1;
                    *y
                }
                (None, None) => unreachable!("the slice holds exactly both sides' cells"),
            };
            slot.write(next);
        }
        if let (Some(p), Some(q)) = (self.poi(), other.poi()) {
            let (a, b) = if p < q { (p, q) } else { (q, p) };
            return Err(GlueError::TwoPoi(a, b));
        }
        // SAFETY: the loop wrote every slot, and cells are `Copy`, so the
        // early returns leak nothing.
        Ok(Fragment(unsafe { out.assume_init() }))
    }

    /// `m f`: moves every cell, and the pieces on them as `pieces` says;
    /// movements are bijections, so this cannot create an overlap.
    pub fn moved(&self, m: &Movement, pieces: &Pieces) -> Fragment {
        if m.is_identity() {
            return self.clone();
        }
        let mut out: Vec<(Square, Cell)> = self.0.iter().map(|(q, c)| (m.apply(*q), c.moved(m, pieces))).collect();
        // A translation keeps the order; turns and reflections do not.
        out.sort_unstable_by_key(|(q, _)| *q);
        Fragment(out.into())
    }

    /// `m f` for a translation `m`, which moves no piece.
    pub fn shifted(&self, m: &Movement) -> Fragment {
        debug_assert!(m.rot == 0 && !m.flip && !m.colour, "{m} is not a translation");
        if m.is_identity() {
            return self.clone();
        }
        Fragment(self.0.iter().map(|(q, c)| (m.apply(*q), *c)).collect())
    }

    /// The cells with their squares, in square order.
    pub fn cells(&self) -> impl Iterator<Item = (Square, Cell)> + '_ {
        self.0.iter().copied()
    }

    /// The cell on square `q`, if the fragment has one there.
    pub fn get(&self, q: Square) -> Option<Cell> {
        self.0.binary_search_by_key(&q, |(s, _)| *s).ok().map(|k| self.0[k].1)
    }

    /// The number of cells.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether the fragment has no cells (the unit of `+`).
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// How far the fragment reaches from the centre: the largest absolute
    /// coordinate of its squares.
    pub fn reach(&self) -> i32 {
        self.0.iter().map(|(q, _)| q.x.abs().max(q.y.abs())).max().unwrap_or(0)
    }

    /// The square of the `%` cell, if any.
    pub fn poi(&self) -> Option<Square> {
        self.cells().find(|(_, c)| *c == Cell::Poi).map(|(q, _)| q)
    }
}

/// A pattern: a set of alternative fragments, sorted and without repeats
/// (a sorted slice, for the reason fragments are one).
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Pattern(Arc<[Fragment]>);

impl Default for Pattern {
    fn default() -> Self {
        Pattern(Arc::from([]))
    }
}

impl Pattern {
    /// The pattern whose only member is `f`.
    pub fn single(f: Fragment) -> Pattern {
        Pattern(Arc::from([f]))
    }

    /// `P | Q`: the members of both.
    pub fn union(&self, other: &Pattern) -> Pattern {
        self.0.iter().chain(other.0.iter()).cloned().collect()
    }

    /// `m P`: every member moved.
    pub fn moved(&self, m: &Movement, pieces: &Pieces) -> Pattern {
        self.0.iter().map(|f| f.moved(m, pieces)).collect()
    }

    /// `m P` for a translation `m`, which moves no piece.
    pub fn shifted(&self, m: &Movement) -> Pattern {
        self.0.iter().map(|f| f.shifted(m)).collect()
    }

    /// `P + Q` is `{f + g}` over all pairs; any overlapping pair is an error.
    pub fn glue(&self, other: &Pattern) -> Result<Pattern, GlueError> {
        let mut out = Vec::with_capacity(self.0.len() * other.0.len());
        for f in self.0.iter() {
            for g in other.0.iter() {
                out.push(f.glue(g)?);
            }
        }
        Ok(out.into_iter().collect())
    }

    /// The members, in sorted order.
    pub fn members(&self) -> impl Iterator<Item = &Fragment> + '_ {
        self.0.iter()
    }

    /// Whether every member of `self` is one of `other`.
    pub fn is_subset(&self, other: &Pattern) -> bool {
        self.0.iter().all(|f| other.0.binary_search(f).is_ok())
    }

    /// The number of members.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether the pattern has no members (it matches nothing).
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The only member, when there is exactly one.
    pub fn as_fragment(&self) -> Option<&Fragment> {
        match &self.0[..] {
            [f] => Some(f),
            _ => None,
        }
    }
}

impl FromIterator<Fragment> for Pattern {
    fn from_iter<I: IntoIterator<Item = Fragment>>(iter: I) -> Self {
        let mut v: Vec<Fragment> = iter.into_iter().collect();
        v.sort_unstable();
        v.dedup();
        Pattern(v.into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{gen, Content, PieceId};

    fn chess() -> Pieces {
        Pieces::chess()
    }

    fn frags(seed: u64) -> (Fragment, Fragment, Fragment, Movement) {
        let mut g = crate::rng::Rng::new(seed);
        (
            gen::fragment(&mut g, true),
            gen::fragment(&mut g, true),
            gen::fragment(&mut g, true),
            gen::movement(&mut g),
        )
    }

    fn pats(seed: u64) -> (Pattern, Pattern, Pattern, Movement) {
        let mut g = crate::rng::Rng::new(seed);
        (
            gen::pattern(&mut g, true),
            gen::pattern(&mut g, true),
            gen::pattern(&mut g, true),
            gen::movement(&mut g),
        )
    }

    quickcheck::quickcheck! {
        fn glue_commutes(seed: u64) -> bool {
            let (f, g, _, _) = frags(seed);
            f.glue(&g).ok() == g.glue(&f).ok()
        }

        fn glue_associates_where_defined(seed: u64) -> bool {
            let (f, g, h, _) = frags(seed);
            let left = f.glue(&g).and_then(|fg| fg.glue(&h)).ok();
            let right = g.glue(&h).and_then(|gh| f.glue(&gh)).ok();
            left == right
        }

        fn empty_is_neutral(seed: u64) -> bool {
            let (f, _, _, _) = frags(seed);
            f.glue(&Fragment::empty()).ok() == Some(f.clone())
        }

        fn movement_distributes_over_glue(seed: u64) -> bool {
            let (f, g, _, m) = frags(seed);
            f.glue(&g).ok().map(|fg| fg.moved(&m, &chess())) == f.moved(&m, &chess()).glue(&g.moved(&m, &chess())).ok()
        }

        fn movement_distributes_over_choice(seed: u64) -> bool {
            let (p, q, _, m) = pats(seed);
            p.union(&q).moved(&m, &chess()) == p.moved(&m, &chess()).union(&q.moved(&m, &chess()))
        }

        fn pattern_glue_commutes_and_distributes(seed: u64) -> bool {
            let (p, q, r, m) = pats(seed);
            let commutes = p.glue(&q).ok() == q.glue(&p).ok();
            let moved = p.glue(&q).ok().map(|pq| pq.moved(&m, &chess())) == p.moved(&m, &chess()).glue(&q.moved(&m, &chess())).ok();
            let over_choice = p.glue(&q.union(&r)).ok() == p.glue(&q).and_then(|a| p.glue(&r).map(|b| a.union(&b))).ok();
            commutes && moved && over_choice
        }
    }

    fn piece(g: &str) -> Cell {
        Cell::Is(Content::Piece(PieceId::chess(g).unwrap()))
    }

    #[test]
    fn glue_rejects_overlap_and_second_poi() {
        let a = Fragment::single(Cell::EMPTY);
        assert_eq!(a.glue(&a), Err(GlueError::Overlap(Square::ORIGIN)));
        let p = Fragment::single(Cell::Poi);
        let up = p.moved(&Movement::U, &chess());
        assert!(matches!(p.glue(&up), Err(GlueError::TwoPoi(..))));
    }

    #[test]
    fn colour_and_turn_move_a_glued_fragment() {
        let f = Fragment::single(piece("♖"));
        let g = Fragment::single(Cell::EMPTY).moved(&Movement::R, &chess());
        let m = Movement::ROTATE.then(&Movement::COLOUR).then(&Movement::U);
        assert_eq!(
            f.glue(&g).unwrap().moved(&m, &chess()),
            f.moved(&m, &chess()).glue(&g.moved(&m, &chess())).unwrap()
        );
        assert_eq!(f.moved(&m, &chess()).get(m.apply(Square::ORIGIN)), Some(piece("♜")));
    }
}
