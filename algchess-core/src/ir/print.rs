//! The pretty-printer: core terms back to text that parses and elaborates
//! to the same term.
//!
//! Each node is printed at a precedence level; a child is parenthesised when
//! its level is looser than its position allows. A piece is printed as the
//! registry that declared it spells it, so printing takes one
//! ([`Pieces::show`]).

use super::{Bounds, Cell, Content, Fragment, Node, Pattern, PieceId, Pieces, Term};

use crate::geometry::{Movement, Square};
use std::fmt;

// Precedence levels, tightest first.
pub(crate) const ATOM: u8 = 0;
pub(crate) const POSTFIX: u8 = 1;
pub(crate) const PREFIX: u8 = 2;
pub(crate) const JUXT: u8 = 3;
pub(crate) const SEMI: u8 = 4;
pub(crate) const GLUE: u8 = 5;
pub(crate) const CHOICE: u8 = 6;
pub(crate) const RULE: u8 = 7;
pub(crate) const BINDER: u8 = 8;

struct Doc {
    text: String,
    level: u8,
}

fn at(d: Doc, max: u8) -> String {
    if d.level > max {
        format!("({})", d.text)
    } else {
        d.text
    }
}

fn doc(text: impl Into<String>, level: u8) -> Doc {
    Doc {
        text: text.into(),
        level,
    }
}

/// The level a movement word is printed at.
pub(crate) fn movement_level(m: &Movement) -> u8 {
    movement(m).level
}

fn movement(m: &Movement) -> Doc {
    let text = m.to_string();
    // `R²` is a word with a postfix power; `u^12r` is several items.
    let level = if text.contains('^') {
        JUXT
    } else if text.contains(['²', '³']) {
        if text.ends_with(['²', '³']) {
            POSTFIX
        } else {
            JUXT
        }
    } else {
        ATOM
    };
    doc(text, level)
}

/// Something that prints with a registry's glyphs: a piece, a cell, a
/// fragment, a term.
pub trait Show {
    /// Writes `self`, its pieces as `pieces` spells them.
    fn show(&self, pieces: &Pieces, f: &mut fmt::Formatter<'_>) -> fmt::Result;
}

/// A value with the registry it is printed with: `format!("{}",
/// pieces.show(&term))`.
pub struct Shown<'a, T: ?Sized> {
    value: &'a T,
    pieces: &'a Pieces,
}

impl<T: Show + ?Sized> fmt::Display for Shown<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.value.show(self.pieces, f)
    }
}

impl Pieces {
    /// `value`, printable with this registry's glyphs.
    pub fn show<'a, T: Show + ?Sized>(&'a self, value: &'a T) -> Shown<'a, T> {
        Shown { value, pieces: self }
    }
}

impl<T: Show + ?Sized> Show for &T {
    fn show(&self, pieces: &Pieces, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        (**self).show(pieces, f)
    }
}

impl Show for PieceId {
    fn show(&self, pieces: &Pieces, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(pieces.glyph(*self))
    }
}

impl Show for Content {
    fn show(&self, pieces: &Pieces, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Content::Empty => f.write_str("."),
            Content::Piece(p) => p.show(pieces, f),
        }
    }
}

impl Show for Cell {
    fn show(&self, pieces: &Pieces, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Cell::Off => f.write_str("#"),
            Cell::Poi => f.write_str("%"),
            Cell::Is(c) => c.show(pieces, f),
        }
    }
}

impl Show for Term {
    fn show(&self, pieces: &Pieces, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&term(self, &|_| None, &Spell::glyphs(pieces)).text)
    }
}

impl Show for Fragment {
    fn show(&self, pieces: &Pieces, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&frag_doc(self, &Spell::glyphs(pieces)).text)
    }
}

impl Show for Pattern {
    fn show(&self, pieces: &Pieces, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&pattern(self, &Spell::glyphs(pieces)).text)
    }
}

/// How to spell a cell's content: as `custom` does, else the registry's
/// glyph.
pub struct Spell<'a> {
    pieces: &'a Pieces,
    custom: &'a dyn Fn(&Content) -> Option<String>,
}

impl<'a> Spell<'a> {
    /// Each piece as its glyph.
    pub fn glyphs(pieces: &'a Pieces) -> Spell<'a> {
        Spell {
            pieces,
            custom: &|_| None,
        }
    }

    /// A content as `custom` spells it where it does (a piece as its file
    /// spells it), else as its glyph.
    pub fn with(pieces: &'a Pieces, custom: &'a dyn Fn(&Content) -> Option<String>) -> Spell<'a> {
        Spell { pieces, custom }
    }
}

pub(crate) fn content(x: &Content, spell: &Spell) -> String {
    (spell.custom)(x).unwrap_or_else(|| spell.pieces.show(x).to_string())
}

pub(crate) fn cell(c: &Cell, spell: &Spell) -> String {
    match c {
        Cell::Is(x) => content(x, spell),
        _ => spell.pieces.show(c).to_string(),
    }
}

/// Squares a fragment's box may hold beyond four per cell before it is
/// written as a sum of its cells, each moved to its place: a literal of
/// two cells 65,535 squares apart would be 65,535 rows of `0`.
pub(crate) const SPARSE: i64 = 64;

fn frag_doc(f: &Fragment, spell: &Spell) -> Doc {
    if f.is_empty() {
        return doc("0", ATOM);
    }
    let min_x = f.cells().map(|(q, _)| q.x).min().unwrap();
    let min_y = f.cells().map(|(q, _)| q.y).min().unwrap();
    let max_y = f.cells().map(|(q, _)| q.y).max().unwrap();
    let max_x = f.cells().map(|(q, _)| q.x).max().unwrap();
    let area = (i64::from(max_x) - i64::from(min_x) + 1) * (i64::from(max_y) - i64::from(min_y) + 1);
    if f.len() > 1 && area > SPARSE.max(4 * f.len() as i64) {
        let cells: Vec<String> = f
            .cells()
            .map(|(q, c)| {
                let one = Fragment::single(c).shifted(&Movement::translation(q.x, q.y));
                at(frag_doc(&one, spell), GLUE)
            })
            .collect();
        return doc(cells.join(" + "), GLUE);
    }
    let mut rows = vec![];
    for y in min_y..=max_y {
        let row: Vec<(i32, Cell)> = f
            .cells()
            .filter(|(q, _)| q.y == y)
            .map(|(q, c)| (q.x - min_x, c))
            .collect();
        let mut text = String::new();
        let mut x = 0;
        let mut last_zero = false;
        for (cx, c) in &row {
            while x < *cx {
                // `00` would lex as one number.
                if last_zero {
                    text.push(' ');
                }
                text.push('0');
                last_zero = true;
                x += 1;
            }
            text.push_str(&cell(c, spell));
            last_zero = false;
            x += 1;
        }
        if row.is_empty() {
            text.push('0');
            x = 1;
        }
        rows.push((text, x));
    }
    let body = if rows.len() == 1 {
        let (text, items) = rows.pop().unwrap();
        doc(text, if items <= 1 { ATOM } else { JUXT })
    } else {
        doc(rows.into_iter().map(|(t, _)| t).collect::<Vec<_>>().join(";"), SEMI)
    };
    if min_x == 0 && min_y == 0 {
        return body;
    }
    let shift = movement(&Movement::translation(min_x, min_y));
    let text = if body.level == ATOM && shift.level == ATOM {
        format!("{}{}", shift.text, body.text)
    } else {
        format!("{}({})", shift.text, body.text)
    };
    doc(text, JUXT)
}

fn pattern(p: &Pattern, spell: &Spell) -> Doc {
    let members: Vec<String> = p.members().map(|f| at(frag_doc(f, spell), GLUE)).collect();
    doc(members.join(" | "), CHOICE)
}

fn bounds(b: Bounds) -> String {
    match (b.lo, b.hi) {
        (0, None) => "*".into(),
        (1, None) => "+".into(),
        (0, Some(1)) => "?".into(),
        (i, Some(j)) if i == j => format!("{{{i}}}"),
        (i, Some(j)) => format!("{{{i},{j}}}"),
        (i, None) => format!("{{{i},}}"),
    }
}

/// Names for subterms, printed in their place (a definition's name).
type Names<'a> = &'a dyn Fn(&Term) -> Option<String>;

fn term(t: &Term, names: Names, spell: &Spell) -> Doc {
    if let Some(n) = names(t) {
        return doc(n, ATOM);
    }
    let term = |t: &Term| term(t, names, spell);
    match t.node() {
        Node::Mov(m) => movement(m),
        Node::Cell(c) => doc(content(c, spell), ATOM),
        Node::Frag(f) => frag_doc(f, spell),
        Node::Pat(p) => pattern(p, spell),
        Node::Var(m) => doc(m.name.to_string(), ATOM),
        Node::Compose([n, m]) => doc(format!("{} {}", at(term(n), PREFIX), at(term(m), JUXT)), JUXT),
        Node::Power([m], k) => doc(format!("{}^{k}", at(term(m), POSTFIX)), POSTFIX),
        Node::Apply([m, x]) => doc(format!("{} {}", at(term(m), PREFIX), at(term(x), JUXT)), JUXT),
        Node::Single([c]) => term(c),
        Node::Glue([a, b]) => doc(format!("{} + {}", at(term(a), GLUE), at(term(b), SEMI)), GLUE),
        Node::Union([a, b]) => doc(format!("{} | {}", at(term(a), CHOICE), at(term(b), GLUE)), CHOICE),
        Node::Nil => doc("nil", ATOM),
        Node::Fail => doc("fail", ATOM),
        Node::Rule([f, g]) => doc(format!("{} -> {}", at(term(f), CHOICE), at(term(g), CHOICE)), RULE),
        Node::Bind([c, body]) => doc(format!("%{}: {}", at(term(c), ATOM), at(term(body), BINDER)), BINDER),
        Node::Seq([a, b]) => doc(format!("{} {}", at(term(a), PREFIX), at(term(b), JUXT)), JUXT),
        Node::Alt([a, b]) => doc(format!("{} | {}", at(term(a), CHOICE), at(term(b), GLUE)), CHOICE),
        Node::Repeat([a, lo, hi]) => {
            let ops = match t.bounds() {
                Some(b) => bounds(b),
                None if lo == hi => format!("{{{}}}", term(lo).text),
                None if matches!(hi.node(), Node::Inf) => format!("{{{},}}", term(lo).text),
                None => format!("{{{},{}}}", term(lo).text, term(hi).text),
            };
            doc(format!("{}{ops}", at(term(a), POSTFIX)), POSTFIX)
        }
        Node::Not([a]) => doc(format!("not {}", at(term(a), PREFIX)), PREFIX),
        Node::Greedy([a]) => doc(format!("{}*!", at(term(a), POSTFIX)), POSTFIX),
        Node::Num(n) => doc(n.to_string(), ATOM),
        Node::Inf => doc("∞", ATOM),
    }
}

/// Prints a term, writing `names(t)` in place of any subterm `t` that has
/// one, such as a definition's name for its body, and each cell as
/// `spell` spells it.
pub fn with_names(t: &Term, names: Names, spell: &Spell) -> String {
    term(t, names, spell).text
}

/// A fragment as a picture: rows top to bottom, a space where it has no
/// cell, and `@` marking the corner that is the centre when it falls on
/// the picture's bottom-left.
pub fn picture(f: &Fragment, pieces: &Pieces) -> Vec<String> {
    if f.is_empty() {
        return vec![];
    }
    let (min_x, max_x) = (
        f.cells().map(|(q, _)| q.x).min().unwrap(),
        f.cells().map(|(q, _)| q.x).max().unwrap(),
    );
    let (min_y, max_y) = (
        f.cells().map(|(q, _)| q.y).min().unwrap(),
        f.cells().map(|(q, _)| q.y).max().unwrap(),
    );
    (min_y..=max_y)
        .rev()
        .map(|y| {
            let row: String = (min_x..=max_x)
                .map(|x| {
                    f.get(Square::new(x, y))
                        .map_or(" ".to_string(), |c| pieces.show(&c).to_string())
                })
                .collect();
            row.trim_end().to_string()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{gen, Bounds, Content, Sort};
    use crate::rng::Rng;

    fn pick<'a>(g: &mut Rng, names: &[&'a str]) -> &'a str {
        g.pick(names)
    }

    /// A random term of `sort`, closed parts from `gen` mixed with
    /// metavariables, built only through the smart constructors.
    /// A random term of any sort, three levels deep.
    fn random_term(seed: u64) -> Term {
        let mut g = crate::rng::Rng::new(seed);
        let sort = g.pick(&[Sort::Movement, Sort::Fragment, Sort::Pattern, Sort::Move]);
        term(&mut g, sort, 3)
    }

    fn term(g: &mut Rng, sort: Sort, depth: u32) -> Term {
        let k = g.below(if depth == 0 { 2 } else { 5 });
        match (sort, k) {
            (_, 0) => gen::term(g, sort),
            (Sort::Cell, _) => Term::var(pick(g, &["p", "q"]), Sort::Cell),
            (Sort::Count, _) => Term::var(pick(g, &["i", "j", "k"]), Sort::Count),
            (Sort::Movement, 1) => Term::var(pick(g, &["m", "n", "t"]), Sort::Movement),
            (Sort::Movement, 2) => {
                Term::compose(&term(g, Sort::Movement, depth - 1), &term(g, Sort::Movement, depth - 1))
            }
            (Sort::Movement, _) => Term::power(&term(g, Sort::Movement, depth - 1), i64::from(g.below(7)) - 3),
            (Sort::Fragment, 1) => Term::var(pick(g, &["f", "g", "h"]), Sort::Fragment),
            (Sort::Fragment, 2) => Term::var("p", Sort::Cell).as_fragment_term(),
            (Sort::Fragment, 3) => {
                let (a, b) = (term(g, Sort::Fragment, depth - 1), term(g, Sort::Fragment, depth - 1));
                Term::glue(&a, &b).unwrap_or(a)
            }
            (Sort::Fragment, _) | (Sort::Pattern, 4) => Term::apply(
                &term(g, Sort::Movement, depth - 1),
                &term(g, sort, depth - 1),
                &Pieces::chess(),
            ),
            (Sort::Pattern, 1) => Term::var(pick(g, &["P", "Q"]), Sort::Pattern),
            (Sort::Pattern, 2) => Term::union(&term(g, Sort::Pattern, depth - 1), &term(g, Sort::Fragment, depth - 1)),
            (Sort::Pattern, _) => {
                let (a, b) = (term(g, Sort::Pattern, depth - 1), term(g, Sort::Fragment, depth - 1));
                Term::glue(&a, &b).unwrap_or(a)
            }
            (Sort::Move, 1) => Term::var(pick(g, &["M", "N", "K"]), Sort::Move),
            (Sort::Move, 2) => {
                let (a, b) = (term(g, Sort::Move, depth - 1), term(g, Sort::Move, depth - 1));
                match g.below(5) {
                    0 => Term::seq(&a, &b),
                    1 => Term::alt(&a, &b),
                    2 => Term::repeat(&a, Bounds { lo: 1, hi: Some(2) }),
                    3 => {
                        let i = term(g, Sort::Count, 0);
                        Term::repeat_counts(&a, &i, &i)
                    }
                    _ => {
                        let (i, j) = (term(g, Sort::Count, 0), term(g, Sort::Count, 0));
                        let (i, j) = match (i.node(), j.node()) {
                            (Node::Num(x), Node::Num(y)) if y < x => (j, i),
                            _ => (i, j),
                        };
                        let hi = if g.coin() { Term::raw(Node::Inf) } else { j };
                        Term::repeat_counts(&a, &i, &hi)
                    }
                }
            }
            (Sort::Move, 3) => {
                let cell = if g.coin() {
                    Term::var("p", Sort::Cell)
                } else {
                    Term::content(Content::Empty)
                };
                let body = term(g, Sort::Move, depth - 1);
                Term::apply(&term(g, Sort::Movement, 0), &Term::bind(&cell, &body), &Pieces::chess())
            }
            (Sort::Move, _) => Term::rule(&term(g, Sort::Fragment, depth - 1), &term(g, Sort::Pattern, depth - 1)),
        }
    }

    /// Prints, parses and elaborates a term back, in a claim so that its
    /// metavariables are allowed.
    fn round_trip(t: &Term) -> Result<Term, crate::diag::Diags> {
        let text = Pieces::chess().show(t).to_string();
        let prog = crate::elab::Program::from_text("rt.alg", &format!("theorem rt: {text} = {text}\n"))?;
        let back = prog.claims()[0].lhs.clone();
        // A lone cell reads as a cell; in context it would be a fragment.
        Ok(if t.sort() == Sort::Fragment {
            back.as_fragment_term()
        } else {
            back
        })
    }

    #[test]
    fn printed_terms_elaborate_to_themselves() {
        fn prop(seed: u64) -> quickcheck::TestResult {
            let t = random_term(seed);
            match round_trip(&t) {
                Ok(back) if back == t => quickcheck::TestResult::passed(),
                Ok(back) => {
                    quickcheck::TestResult::error(format!("{}\n  {t:?}\nbecame\n  {back:?}", Pieces::chess().show(&t)))
                }
                Err(e) => quickcheck::TestResult::error(format!("{}\n{e}", Pieces::chess().show(&t))),
            }
        }
        quickcheck::QuickCheck::new()
            .tests(2000)
            .quickcheck(prop as fn(u64) -> quickcheck::TestResult);
    }

    /// The syntax tree `parse/from_term.rs` builds for a term prints as the
    /// printer writes the term, and is the tree the parser reads from that
    /// text: the simplifier writes its results through the one, proofs and
    /// messages through the other.
    #[test]
    fn built_trees_print_and_parse_as_printed_terms() {
        fn prop(seed: u64) -> quickcheck::TestResult {
            let t = random_term(seed);
            let text = Pieces::chess().show(&t).to_string();
            let built = crate::parse::from_term::plain(&t, &Pieces::chess());
            let printed = crate::parse::print_expr(&built);
            if printed != text {
                return quickcheck::TestResult::error(format!("{text}\nbuilt as\n{printed}"));
            }
            let mut read = crate::parse::parse_expr(&text).unwrap();
            read.respan(crate::diag::Span::default());
            if read != built {
                return quickcheck::TestResult::error(format!("{text}\n{read:?}\nbuilt as\n{built:?}"));
            }
            quickcheck::TestResult::passed()
        }
        quickcheck::QuickCheck::new()
            .tests(2000)
            .quickcheck(prop as fn(u64) -> quickcheck::TestResult);
    }

    #[test]
    fn fragments_print_as_rows() {
        let t = crate::elab::Program::from_text("t", "")
            .unwrap()
            .expr("e", "...;♙0♙;r♞")
            .unwrap();
        assert_eq!(Pieces::chess().show(&t).to_string(), "...;♙0♙;0♞");
        let t = crate::elab::Program::from_text("t", "")
            .unwrap()
            .expr("e", "R(r♟ + rd.)")
            .unwrap();
        assert_eq!(Pieces::chess().show(&t).to_string(), "ul(♟.)");
        let t = crate::elab::Program::from_text("t", "")
            .unwrap()
            .expr("e", "♙ + rrr♟")
            .unwrap();
        assert_eq!(Pieces::chess().show(&t).to_string(), "♙0 0♟");
    }

    /// A fragment whose cells are far apart is written as a sum of its
    /// cells, not as rows of `0` across its box (two cells 65,535 squares
    /// apart made proofs print gigabytes), and reads back as itself.
    #[test]
    fn sparse_fragments_print_as_sums() {
        let t = crate::elab::Program::from_text("t", "")
            .unwrap()
            .expr("e", "♞ + (uC)^-65535#")
            .unwrap();
        let text = Pieces::chess().show(&t).to_string();
        assert!(text.len() < 100 && text.contains(" + "), "{text}");
        assert_eq!(round_trip(&t).unwrap(), t);
        // A box no more than four squares a cell, or 64, stays rows.
        let t = crate::elab::Program::from_text("t", "")
            .unwrap()
            .expr("e", "♙ + uuuuuuu♟")
            .unwrap();
        assert!(!Pieces::chess().show(&t).to_string().contains('+'));
    }
}
