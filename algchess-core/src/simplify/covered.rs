//! Overlapping alternatives dropped, in the file's own text. A beginner who
//! writes a king's steps to empty squares beside its steps to free ones
//! (`('K + u. -> . + u'K) | ('K + u free -> . + u'K)`) makes every step to
//! an empty square twice. With patterns, `P -> Q` is the union of its
//! members' rules, so `(P -> Q) | (P' -> Q)` is `(P | P') -> Q`
//! (`rule_choice_left`), which is `P' -> Q` when every member of `P` is one
//! of `P'`; rules are tried at every translation, so this holds of two
//! placements of one rule too. An arm whose guard another arm's covers,
//! with the same write, adds nothing and is taken out of the text; the
//! rest reads as written. The edited file is elaborated again, and each
//! changed definition must be exactly the union of the arms kept, or no
//! edit is made.

use super::version::Version;
use crate::core::{Node, Pattern, Term};
use crate::geometry::Movement;
use crate::parse::ast::{Expr, ExprKind, Span};

/// The arms of a union as written, each with its parentheses.
fn arms<'e>(e: &'e Expr, out: &mut Vec<&'e Expr>) {
    match &e.kind {
        ExprKind::Bar(a, b) => {
            arms(a, out);
            arms(b, out);
        }
        ExprKind::Paren(x) if matches!(x.kind, ExprKind::Bar(..)) => arms(x, out),
        _ => out.push(e),
    }
}

fn is_rule(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Arrow(..) => true,
        ExprKind::Paren(x) => is_rule(x),
        _ => false,
    }
}

/// A rule's guard and write, placed with the write's first square at the
/// centre.
fn placed(t: &Term) -> Option<(Pattern, Pattern)> {
    let Node::Rule([f, g]) = t.node() else { return None };
    let (f, g) = (f.as_pattern()?, g.as_pattern()?);
    let first = g.members().filter_map(|m| m.cells().next()).map(|(q, _)| q).min()?;
    let back = Movement::translation(-first.x, -first.y);
    Some((f.shifted(&back), g.shifted(&back)))
}

/// Which of `rules` another one covers: the same write, a guard that holds
/// all of this one's members. Of two equal rules the first stays.
fn covered(rules: &[Term]) -> Vec<bool> {
    let placed: Vec<Option<(Pattern, Pattern)>> = rules.iter().map(placed).collect();
    (0..rules.len())
        .map(|i| {
            let Some((f, g)) = &placed[i] else { return false };
            placed.iter().enumerate().any(|(j, other)| {
                j != i
                    && other
                        .as_ref()
                        .is_some_and(|(f2, g2)| g2 == g && f.is_subset(f2) && (f != f2 || j < i))
            })
        })
        .collect()
}

/// The file with the covered arms of every definition taken out, and the
/// names of the definitions changed; `None` when nothing changes.
pub(super) fn drop_covered(v: &Version) -> Option<(Version, Vec<String>)> {
    let (file, text, prog) = (&v.file, v.text.as_str(), &v.prog);
    let mut edits: Vec<(Span, String)> = vec![];
    let mut expected: Vec<(String, Term)> = vec![];
    for (name, body) in super::hoist::plain_definitions(file) {
        let mut written = vec![];
        arms(body, &mut written);
        let Some(t) = prog.definition(name) else { continue };
        let mut terms = vec![];
        t.push_alternatives(&mut terms);
        let whole = &text[body.span.start..body.span.end];
        if written.len() < 2
            || terms.len() != written.len()
            || !written.iter().all(|a| is_rule(a))
            || whole.contains("//")
        {
            continue;
        }
        let gone = covered(&terms);
        if !gone.contains(&true) {
            continue;
        }
        let kept: Vec<usize> = (0..terms.len()).filter(|&i| !gone[i]).collect();
        let new = kept
            .iter()
            .map(|&i| &text[written[i].span.start..written[i].span.end])
            .collect::<Vec<_>>()
            .join(" | ");
        edits.push((body.span, new));
        let terms: Vec<Term> = kept.iter().map(|&i| terms[i].clone()).collect();
        expected.push((name.to_string(), super::hoist::alternatives(&terms)));
    }
    if edits.is_empty() {
        return None;
    }
    let out = super::gather::edit(text, &edits);
    let after = Version::read(v.name(), out).ok()?;
    if !expected.iter().all(|(n, t)| after.prog.definition(n) == Some(t)) {
        return None;
    }
    Some((after, expected.into_iter().map(|(n, _)| n).collect()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_arm_another_covers_goes_and_the_rest_read_as_written() {
        let text = "piece 'K / 'k
free = . | 'k
m = ('K + u. -> . + u'K) | ('K + r free -> . + r'K)
    | ('K + u free -> . + u'K) | ('K + u. -> . + u'K)
other = ('K + u. -> . + u'K) | ('K + u free -> . + uu'K)
";
        let (after, changed) = drop_covered(&Version::read("t.alg", text.into()).unwrap()).unwrap();
        let out = after.text;
        assert_eq!(changed, vec!["m".to_string()]);
        assert!(
            out.contains("m = ('K + r free -> . + r'K) | ('K + u free -> . + u'K)\n"),
            "{out}"
        );
        // Another write: both arms stay.
        assert!(
            out.contains("other = ('K + u. -> . + u'K) | ('K + u free -> . + uu'K)"),
            "{out}"
        );
    }
}
