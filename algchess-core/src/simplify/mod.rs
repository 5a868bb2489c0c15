//! Simplifying rule files before play: every definition of a move is
//! saturated with the laws and the cheapest equal move, by the cost model of
//! `cost.rs`, is written back in its place.
//!
//! Two steps, in order, after the arms other arms cover are taken out of
//! the text (`covered.rs`):
//!
//! 1. **Binders at the top.** Unanchored rules try every square as their
//!    pivot, once per rule; a binder scans the board once for all the rules
//!    under it. Where no piece of interest can be bound (a game's turns, and
//!    the unions and sequences that make them up), an unanchored rule `f -> g`
//!    is the binder `%c: f' -> g'` on its pivot cell `c`, with `%` in the
//!    pivot's place: the lemma the checker's decomposition rests on. Whether a
//!    definition is only ever used there is read off the syntax tree; inside a
//!    binder the lemma does not hold, and nothing is changed.
//! 2. **Saturation.** The laws of `axioms/` rewrite the definition; the
//!    extraction picks the cheapest term.
//!
//! Each definition is rewritten on its own: the move definitions it names
//! stay names (metavariables costed as their bodies), so a rewrite never
//! reaches into another definition and the result still reads in the
//! file's own words. A definition changes only when its cost strictly goes
//! down, so a simplified file simplifies to itself.

mod cost;
mod covered;
mod fold;
mod gather;
mod hoist;
mod merge;
mod version;

pub(crate) use hoist::{hoist, top_level_definitions};

use crate::clock::{Clock, Deadline, Timer};
use crate::diag::{Diag, Diags, Source};
use crate::elab::{Loader, Program};
use crate::ir::{Pieces, Sort, Term};
use crate::memory::MemoryLimit;
use crate::parse::ast::{Expr, File};
use crate::prover::lang::{from_expr, to_expr};
use crate::prover::{guarded, run, Rewrites, SaturationLimits};
use cost::{cost_over, Cost, Work};
use egg::Extractor;
use std::collections::HashMap;
use std::time::Duration;
use version::Version;

/// Limits of saturation, per definition, and of the whole file.
#[derive(Clone, Debug)]
pub struct SimplifyOptions {
    /// The limits of each definition's saturation.
    pub saturation: SaturationLimits,
    /// Once the file has taken this long, the definitions left are not
    /// saturated; the steps that need no search (binders, merged tests)
    /// still run. What is kept is sound either way.
    pub total_limit: Timer,
}

/// Iterations and e-nodes bound each definition; no clock is read unless
/// the caller gives one ([`SimplifyOptions::within`]).
impl Default for SimplifyOptions {
    fn default() -> Self {
        SimplifyOptions {
            saturation: SaturationLimits {
                iter_limit: 12,
                node_limit: 20_000,
                time_limit: Timer::NONE,
                memory: MemoryLimit::NONE,
            },
            total_limit: Timer::NONE,
        }
    }
}

impl SimplifyOptions {
    /// Limits for simplifying a file on the way to playing it: a fraction
    /// of a second in all. The limits that bind are iterations and nodes,
    /// so that the file played is the same on a busy machine as on an
    /// idle one; times, if the caller sets them ([`SimplifyOptions::within`]),
    /// are only a net for a file far larger than the bundled ones.
    pub fn quick() -> Self {
        SimplifyOptions {
            saturation: SaturationLimits {
                iter_limit: 8,
                node_limit: 2_000,
                time_limit: Timer::NONE,
                memory: MemoryLimit::NONE,
            },
            total_limit: Timer::NONE,
        }
    }

    /// The same limits, and at most `per_definition` of saturation for each
    /// definition and `total` for the file, as `clock` tells them.
    pub fn within(mut self, per_definition: Duration, total: Duration, clock: &'static dyn Clock) -> Self {
        self.saturation.time_limit = Timer::limited(per_definition, clock);
        self.total_limit = Timer::limited(total, clock);
        self
    }
}

/// One definition that changed.
#[derive(Clone, Debug)]
pub struct Change {
    /// The definition's name.
    pub name: String,
    /// The definition as written.
    pub before: Term,
    /// The cheaper equal term it became.
    pub after: Term,
    /// The estimated cost of evaluating `before` (see `simplify/cost.rs`).
    pub cost_before: f64,
    /// The estimated cost of evaluating `after`.
    pub cost_after: f64,
    /// Its unanchored rules became binders (step 1).
    pub hoisted: bool,
    /// The new body as the simplified file writes it, in the file's own
    /// names.
    pub written: String,
}

/// A simplified rule file.
pub struct Simplified {
    /// The rewritten rule file.
    pub text: String,
    /// `text` elaborated.
    pub program: Program,
    /// The definitions that changed, in file order.
    pub changes: Vec<Change>,
    /// The file's pieces: how the changes' terms print.
    pub pieces: Pieces,
    /// The definitions whose saturation a time limit cut short (or that
    /// the whole file's limit left unsaturated), in file order: on a
    /// slower or busier machine they may come out otherwise. The limits
    /// of work (iterations, e-nodes) end a run the same way anywhere.
    pub clock_stopped: Vec<String>,
}

/// Step 2: the cheapest term the laws reach from `t` within `time`. The
/// guard holds the limits inside each iteration too: one rule's matches
/// on a large definition can take far longer than the limit.
fn saturate(
    pieces: &Pieces,
    t: &Term,
    rules: &Rewrites,
    options: &SimplifyOptions,
    time: Timer,
    named: &HashMap<String, Cost>,
) -> (Term, bool) {
    let limits = SaturationLimits {
        time_limit: time,
        ..options.saturation.clone()
    };
    let runner = run(
        guarded(&limits, pieces).with_expr(&to_expr(t)),
        &rules.rewrites,
        &limits,
        |_| false,
    );
    let clock = matches!(runner.stop_reason, Some(egg::StopReason::TimeLimit(_)))
        || matches!(
            runner.egraph.analysis.guard.tripped(),
            Some(crate::prover::Stop::Time(_))
        );
    let root = runner.roots[0];
    let work = Work {
        egraph: &runner.egraph,
        named,
        known: HashMap::new(),
    };
    let (_, best) = Extractor::new(&runner.egraph, work).find_best(root);
    let best = from_expr(&best);
    // Rebuilt through the core constructors: the canonical form.
    (best.substitute(&|_| None, pieces).unwrap_or(best), clock)
}

/// Terms past this weight (nodes, and the members of pattern constants)
/// are not saturated: adding one to an e-graph folds every constant again
/// before any limit is looked at, and extraction reads every pattern on
/// every pass. Pieces lowered from other notations reach this size.
const MAX_WEIGHT: usize = 3_000;

fn too_big(t: &Term) -> bool {
    fn weigh(t: &Term, left: &mut usize) -> bool {
        let w = match t.node() {
            crate::ir::Node::Pat(p) => p.len(),
            _ => 1,
        };
        if w > *left {
            return false;
        }
        *left -= w;
        t.children().iter().all(|c| weigh(c, left))
    }
    !weigh(t, &mut MAX_WEIGHT.clone())
}

/// The cost of a named definition: its body over the names it uses, each
/// name costed first. Costing the fully expanded body instead walks every
/// definition again under each name that uses it.
fn cost_of_name(
    name: &str,
    prog: &Program,
    over: &HashMap<String, Term>,
    named: &mut HashMap<String, Cost>,
    depth: usize,
) -> Cost {
    if let Some(c) = named.get(name) {
        return *c;
    }
    let cost = match over.get(name) {
        Some(t) if depth < 64 => {
            for m in t.metas() {
                if m.name.as_ref() != name {
                    cost_of_name(&m.name, prog, over, named, depth + 1);
                }
            }
            cost_over(t, named)
        }
        _ => prog
            .definition(name)
            .map(|t| cost_over(t, &HashMap::new()))
            .unwrap_or(Cost { work: 0.0, fan: 1.0 }),
    };
    named.insert(name.to_string(), cost);
    cost
}

/// Costs again every definition that uses `changed`, directly or through
/// others, and is not rewritten itself: a name costs what its body does,
/// and `changed` has just become cheaper. A union named for merged tests
/// (`attacked`) would otherwise keep the cost of its parts as written, and
/// the merged test would seem dearer than the tests it replaces.
fn recost(
    changed: &str,
    prog: &Program,
    over: &HashMap<String, Term>,
    rewritten: &HashMap<String, Expr>,
    named: &mut HashMap<String, Cost>,
) {
    let mut stale: Vec<&str> = vec![changed];
    loop {
        let users: Vec<&str> = over
            .iter()
            .filter(|(n, t)| {
                !stale.contains(&n.as_str())
                    && !rewritten.contains_key(*n)
                    && t.metas().iter().any(|m| stale.contains(&m.name.as_ref()))
            })
            .map(|(n, _)| n.as_str())
            .collect();
        if users.is_empty() {
            break;
        }
        stale.extend(users);
    }
    for n in &stale[1..] {
        named.remove(*n);
    }
    for n in &stale[1..] {
        cost_of_name(n, prog, over, named, 0);
    }
}

/// Simplifies a rule file's text, its imports read through `loader`.
pub fn simplify_text(
    name: &str,
    text: &str,
    loader: &dyn Loader,
    rules: &Rewrites,
    options: &SimplifyOptions,
) -> Result<Simplified, Diags> {
    let began = options.total_limit.start();
    simplify_version(Version::read(name, text, loader)?, rules, options, &began)
}

/// Simplifies a rule file elaborated already (`Program::load`), its
/// imports read through `loader`: the file is not read or elaborated
/// again, only each edit and the result.
pub fn simplify_program(
    prog: &Program,
    loader: &dyn Loader,
    rules: &Rewrites,
    options: &SimplifyOptions,
) -> Result<Simplified, Diags> {
    let began = options.total_limit.start();
    simplify_version(Version::of(prog, loader)?, rules, options, &began)
}

fn simplify_version(
    original: Version<'_>,
    rules: &Rewrites,
    options: &SimplifyOptions,
    began: &Deadline,
) -> Result<Simplified, Diags> {
    let owned = original.text().to_string();
    let text = owned.as_str();
    // Arms other arms cover taken out first (`covered.rs`), then binders
    // gathered (`gather.rs`), both as edits of the file's syntax tree; each
    // edit is elaborated once, as its check.
    let pruned = covered::drop_covered(&original);
    let read = pruned.as_ref().map_or(&original, |(v, _)| v);
    let gathered = gather::gather(read, &top_level_definitions(&read.file));
    let current = gathered.as_ref().map_or(read, |(v, _)| v);
    let (file, prog) = (&current.file, &current.prog);
    // The definitions the arms were taken from, with what they now read as.
    let pruned: &[(String, String)] = pruned.as_ref().map_or(&[], |(_, n)| n);
    let gathered: &[String] = gathered.as_ref().map_or(&[], |(_, n)| n);
    let original = &original.prog;
    let top = top_level_definitions(file);
    let (over, mut named, unions) = named_bodies(prog);
    let mut changes = edited(original, current, gathered, pruned);
    let mut clock_stopped = vec![];
    let mut bodies: HashMap<String, Expr> = HashMap::new();
    let folder = fold::Folder::new(prog, file, text);
    let written_text = written_texts(file, text, gathered, pruned);
    for (name, t) in prog.definitions() {
        if t.sort() != Sort::Move || gathered.iter().any(|g| g == name) {
            continue;
        }
        let Some(written) = over.get(name).cloned() else {
            continue;
        };
        let hoisted = top.contains(name);
        let start = if hoisted { hoist(&written) } else { written.clone() };
        let start = merge::merge_tests(&start, &unions);
        let (best, clock) = cheapest(&prog.pieces, start, rules, options, began, &named);
        if clock {
            clock_stopped.push(name.to_string());
        }
        let (before, after) = (cost_over(&written, &named).work, cost_over(&best, &named).work);
        // Only a real gain changes a definition: ties and rounding leave
        // it as written.
        if after >= before * 0.99 {
            continue;
        }
        // What the new body means, its names expanded.
        let meaning = best
            .substitute(&|m| prog.definition(&m.name).cloned(), &prog.pieces)
            .map_err(|e| {
                Diag::new(
                    &Source::new(current.name(), text),
                    version::body_span(file, name),
                    format!("`{name}` no longer elaborates: {e:?}"),
                )
            })?;
        // Only a body that reads no longer than what it replaces, and
        // takes no comment with it, is written.
        let body = folder.tree(&best, name);
        let printed = crate::parse::print_expr(&body);
        let Some(old) = written_text.get(name) else {
            continue;
        };
        if printed.chars().count() > old.chars().count() || old.contains("//") {
            continue;
        }
        named.insert(name.to_string(), cost_over(&meaning, &HashMap::new()));
        bodies.insert(name.to_string(), body);
        recost(name, prog, &over, &bodies, &mut named);
        // A definition changed before saturation changed again: one
        // change, from the file as written.
        if let Some(c) = changes.iter_mut().find(|c| c.name == name) {
            c.after = meaning;
            c.cost_after = after;
            c.written = printed;
            continue;
        }
        changes.push(Change {
            name: name.to_string(),
            before: t.clone(),
            after: meaning,
            cost_before: before,
            cost_after: after,
            hoisted: hoisted && hoist(&written) != written,
            written: printed,
        });
    }
    let out = rewritten(current, text, bodies);
    // The whole file as written out, elaborated once: the check that it
    // still reads, and the program a caller plays.
    let program = if out == text {
        prog.clone()
    } else {
        current.whole(&out)?
    };
    Ok(Simplified {
        text: out,
        program,
        changes,
        pieces: prog.pieces.clone(),
        clock_stopped,
    })
}

/// Each definition is rewritten on its own, with the move definitions it
/// names left as names: the rewrite stays local and the result still
/// reads in the file's own words. Returns each move definition over the
/// names of the others (read once), what each name costs (what its body
/// does), and the definition that stands for each union, for merged
/// tests.
fn named_bodies(prog: &Program) -> (HashMap<String, Term>, HashMap<String, Cost>, HashMap<merge::Key, Term>) {
    let over: HashMap<String, Term> = prog
        .definitions()
        .filter(|(_, t)| t.sort() == Sort::Move)
        .filter_map(|(n, _)| Some((n.to_string(), prog.definition_over_names(n)?)))
        .collect();
    let mut named: HashMap<String, Cost> = HashMap::new();
    for (n, t) in prog.definitions() {
        if t.sort() == Sort::Move {
            cost_of_name(n, prog, &over, &mut named, 0);
        }
    }
    let unions = over
        .iter()
        .map(|(n, t)| (merge::key(t), Term::var(n, Sort::Move)))
        .filter(|(k, _)| k.len() > 1)
        .collect();
    (over, named, unions)
}

/// The changes the edits of the syntax tree made before saturation: the
/// definitions whose binders were gathered, then those arms were taken
/// from, each from the file as written (`original`) to `current`.
fn edited(original: &Program, current: &Version, gathered: &[String], pruned: &[(String, String)]) -> Vec<Change> {
    let (file, prog) = (&current.file, &current.prog);
    gathered
        .iter()
        .chain(pruned.iter().map(|(n, _)| n).filter(|n| !gathered.contains(n)))
        .filter_map(|n| {
            let (before, after) = (original.definition(n)?, prog.definition(n)?);
            let body = hoist::plain_definitions(file).find(|(m, _)| m == n)?.1;
            Some(Change {
                name: n.clone(),
                before: before.clone(),
                after: after.clone(),
                cost_before: cost_over(before, &HashMap::new()).work,
                cost_after: cost_over(after, &HashMap::new()).work,
                hoisted: gathered.contains(n),
                written: crate::parse::print_expr(body),
            })
        })
        .collect()
}

/// What each definition's body reads as now (one whose binders were
/// gathered is not rewritten again): as `text` writes it, or as an edit
/// that took arms out of it left it.
fn written_texts<'a>(
    file: &'a File,
    text: &'a str,
    gathered: &[String],
    pruned: &'a [(String, String)],
) -> HashMap<&'a str, &'a str> {
    hoist::plain_definitions(file)
        .filter(|(name, _)| !gathered.iter().any(|g| g == name))
        .map(|(name, body)| match pruned.iter().find(|(n, _)| n == name) {
            Some((_, reads)) => (name, reads.as_str()),
            None => (name, &text[body.span.start..body.span.end]),
        })
        .collect()
}

/// The cheaper of `start` and what saturation reaches from it in the time
/// left of the definition's and the file's limits (none for a term too
/// big to saturate); the bool: the clock stopped it.
fn cheapest(
    pieces: &Pieces,
    start: Term,
    rules: &Rewrites,
    options: &SimplifyOptions,
    began: &Deadline,
    named: &HashMap<String, Cost>,
) -> (Term, bool) {
    let time = options.saturation.time_limit.sooner(began.rest());
    let out_of_time = time.limit() == Some(Duration::ZERO);
    let (best, clock) = if out_of_time || too_big(&start) {
        (start.clone(), out_of_time && !too_big(&start))
    } else {
        saturate(pieces, &start, rules, options, time, named)
    };
    let best = if cost_over(&start, named).work < cost_over(&best, named).work {
        start
    } else {
        best
    };
    (best, clock)
}

/// The file printed once, as `fmt` writes it, with the new bodies of
/// `bodies` in place of the old: trees built, not read, which print
/// without any text of their own (the file's text gives the layout of
/// its statements and comments).
fn rewritten(current: &Version, text: &str, mut bodies: HashMap<String, Expr>) -> String {
    let mut file = current.file.clone();
    let names: Vec<String> = hoist::plain_definitions(&file)
        .map(|(n, _)| n.to_string())
        .filter(|n| bodies.contains_key(n))
        .collect();
    for n in &names {
        if let (Some(b), Some(body)) = (version::body_mut(&mut file, n), bodies.remove(n)) {
            *b = body;
        }
    }
    crate::parse::format_file(&file, text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_definition_that_reads_no_shorter_is_kept() {
        let laws = crate::laws::Laws::bundled();
        let rules = Rewrites::new(&laws);
        let text = "
piece 'Camel / 'camel
step = 'Camel + uuur. -> . + uuur'Camel
both = step | R step
game g('Camel...;....;....;....) = both
";
        let out = simplify_text(
            "t.alg",
            text,
            &crate::elab::NoFiles,
            &rules,
            &SimplifyOptions::default(),
        )
        .unwrap();
        // The binder is not shorter to read: `step` stays as written.
        assert!(
            out.text.contains("step = 'Camel + uuur. -> . + uuur'Camel"),
            "{}",
            out.text
        );
        assert!(out.text.contains("both = step | R step"), "{}", out.text);
        assert!(out.changes.is_empty());
    }
}
