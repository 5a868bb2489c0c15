//! A proof as a reader follows it (`prove --explain`). A step of a real
//! claim rewrites one small part of a term that can print as thousands of
//! characters: `enemy` spelled out as every black piece, castling's check
//! tests written out. So each term is printed in the file's own words (a
//! subterm that is what a definition stands for, or a definition turned or
//! mirrored, prints as its name: `castle_short`, `CR²F in_check`), and
//! each step shows only what it touched: a part equal to the term before
//! the step is written `…` when it is long. What still does not fit a line
//! is cut down to its outline, larger parts first. The whole proof, every
//! term in full, is what `--json` prints (see [`super::render`]).

use super::Step;
use crate::elab::Program;
use crate::geometry::{Movement, Tiling};
use crate::ir::print::{with_names, Spell};
use crate::ir::{Pieces, Sort, Term};
use std::cell::RefCell;
use std::collections::HashMap;

/// A part this long or shorter is shown even when a step leaves it as it
/// was: eliding it would save nothing.
const KEEP: usize = 24;
/// The most characters a step's term is shown in.
const LINE: usize = 400;
/// The most characters of a side condition or a hypothesis shown.
const NOTE: usize = 160;
/// A definition whose term prints shorter than this is not folded: a name
/// for `u` or `♖ | ♗` would hide more than it says.
const FOLD: usize = 12;

/// The names a proof's terms are printed with: each definition of a
/// program by its term, and its images under the turns, mirrors and
/// colour reversal, named as written (`CR²F in_check`).
#[derive(Default)]
pub struct ProofNames {
    names: HashMap<Term, String>,
}

impl ProofNames {
    /// The definitions of `program` (its imports' too), each a term that
    /// prints long enough to be worth a name.
    pub fn of(program: &Program) -> ProofNames {
        let pieces = &program.pieces;
        let tiling = program.tiling();
        let turns = if tiling == Tiling::Hex { 6 } else { 4 };
        let mut movements = vec![];
        for colour in [false, true] {
            for mirror in [false, true] {
                for k in 0..turns {
                    let mut m = Movement::IDENTITY;
                    if mirror {
                        m = Movement::mirror(tiling);
                    }
                    for _ in 0..k {
                        m = m.then(&Movement::turn(tiling));
                    }
                    if colour {
                        m = m.then(&Movement::COLOUR);
                    }
                    if !m.is_identity() {
                        movements.push(Term::movement(m));
                    }
                }
            }
        }
        let mut names: HashMap<Term, String> = HashMap::new();
        for (name, t) in program.definitions() {
            if matches!(t.sort(), Sort::Movement | Sort::Cell) || pieces.show(t).to_string().chars().count() < FOLD {
                continue;
            }
            names.entry(t.clone()).or_insert_with(|| name.to_string());
        }
        let named: Vec<(Term, String)> = names.iter().map(|(t, n)| (t.clone(), n.clone())).collect();
        for (t, name) in named {
            if !matches!(t.sort(), Sort::Move | Sort::Pattern | Sort::Fragment) {
                continue;
            }
            for m in &movements {
                let image = Term::apply(m, &t, pieces);
                if image != t {
                    names
                        .entry(image)
                        .or_insert_with(|| format!("{} {name}", pieces.show(m)));
                }
            }
        }
        ProofNames { names }
    }

    fn get(&self, t: &Term) -> Option<String> {
        self.names.get(t).cloned()
    }
}

/// Prints terms with names, remembering how long each part prints.
struct Printer<'a> {
    pieces: &'a Pieces,
    names: &'a ProofNames,
    lengths: RefCell<HashMap<Term, usize>>,
}

/// The mark of a part left out.
fn elided(sort: Sort) -> Term {
    Term::var("…", sort)
}

impl Printer<'_> {
    fn print(&self, t: &Term) -> String {
        with_names(t, &|u| self.names.get(u), &Spell::glyphs(self.pieces))
    }

    fn len(&self, t: &Term) -> usize {
        if let Some(n) = self.lengths.borrow().get(t) {
            return *n;
        }
        let n = self.print(t).chars().count();
        self.lengths.borrow_mut().insert(t.clone(), n);
        n
    }

    /// `t` with each part that `before` has in the same place, unchanged,
    /// left out when it is long; a part the step changed is kept whole.
    fn touched(&self, t: &Term, before: &Term) -> Term {
        if t == before {
            return if self.len(t) > KEEP {
                elided(t.sort())
            } else {
                t.clone()
            };
        }
        if self.names.get(t).is_some() || !t.node().same_op(before.node()) {
            return t.clone();
        }
        let (kids, old) = (t.node().children(), before.node().children());
        if kids.is_empty() || kids.len() != old.len() {
            return t.clone();
        }
        let mut k = 0;
        Term::raw(t.node().map_children(|c| {
            let out = self.touched(c, &old[k]);
            k += 1;
            out
        }))
    }

    /// `t` cut down to about `budget` characters: parts too long for
    /// their share are left out, the largest first.
    fn fit(&self, t: &Term, budget: usize) -> Term {
        if self.len(t) <= budget || self.names.get(t).is_some() {
            return t.clone();
        }
        let kids = t.node().children();
        if kids.is_empty() {
            return elided(t.sort());
        }
        let share = budget.saturating_sub(8) / kids.len();
        if share < 4 {
            return elided(t.sort());
        }
        Term::raw(t.node().map_children(|c| self.fit(c, share)))
    }

    fn line(&self, t: &Term) -> String {
        self.print(&self.fit(t, LINE))
    }
}

fn clip(s: &str) -> String {
    if s.chars().count() <= NOTE {
        s.to_string()
    } else {
        format!("{}…", s.chars().take(NOTE - 1).collect::<String>())
    }
}

/// A proof as numbered lines for a reader: terms in the program's names,
/// each step showing what it touched (see the module's documentation).
pub fn explain(pieces: &Pieces, steps: &[Step], names: &ProofNames) -> String {
    let p = Printer {
        pieces,
        names,
        lengths: RefCell::new(HashMap::new()),
    };
    let mut out = String::new();
    for (i, s) in steps.iter().enumerate() {
        let shown = match i.checked_sub(1).map(|j| &steps[j].term) {
            Some(before) => p.touched(&s.term, before),
            None => s.term.clone(),
        };
        out.push_str(&format!("  {i:>3}. {}\n", p.line(&shown)));
        if let Some(why) = &s.why {
            out.push_str(&why.lines(&clip));
        }
    }
    if out.contains('…') {
        out.push_str("         (`…` is a part the step left as it was; --json prints every term whole)\n");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prover::proof::Why;

    /// A step shows the part it rewrote, in the file's names, and leaves
    /// out the long parts it did not touch.
    #[test]
    fn a_step_shows_what_it_touched_in_the_files_names() {
        let prog = Program::from_text(
            "t.alg",
            "steps_upward = (% + u. -> . + u%) | (% + uu. -> . + uu%) | (% + uuu. -> . + uuu%)\n\
             steps_right = (% + r. -> . + r%) | (% + rr. -> . + rr%)\n",
        )
        .unwrap();
        let names = ProofNames::of(&prog);
        let up = prog.definition("steps_upward").unwrap().clone();
        let right = prog.definition("steps_right").unwrap().clone();
        let mirrored = Term::apply(&Term::movement(Movement::mirror(Tiling::Square)), &right, &prog.pieces);
        // A part no definition names, too long to show when untouched.
        let both = Term::alt(&up, &right);
        let steps = vec![
            Step {
                term: Term::seq(&both, &right),
                why: None,
            },
            Step {
                term: Term::seq(&both, &Term::alt(&right, &Term::nil())),
                why: Some(Why::Normalise),
            },
            Step {
                term: Term::seq(&up, &mirrored),
                why: Some(Why::Normalise),
            },
        ];
        let text = explain(&prog.pieces, &steps, &names);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "    0. (steps_upward | steps_right) steps_right", "{text}");
        assert_eq!(lines[1], "    1. … (steps_right | nil)", "{text}");
        assert_eq!(lines[3], "    2. steps_upward F steps_right", "{text}");
        assert!(lines[5].contains("`…` is a part the step left as it was"), "{text}");
    }
}
