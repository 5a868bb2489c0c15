//! Overlapping alternatives dropped, in the file's own syntax tree. A beginner who
//! writes a king's steps to empty squares beside its steps to free ones
//! (`('K + u. -> . + u'K) | ('K + u free -> . + u'K)`) makes every step to
//! an empty square twice. With patterns, `P -> Q` is the union of its
//! members' rules, so `(P -> Q) | (P' -> Q)` is `(P | P') -> Q`
//! (`rule_choice_left`), which is `P' -> Q` when every member of `P` is one
//! of `P'`; rules are tried at every translation, so this holds of two
//! placements of one rule too. An arm whose guard another arm's covers,
//! with the same write, adds nothing and is taken out of the tree; the
//! rest reads as written. The edited tree is elaborated again, and each
//! changed definition must be exactly the union of the arms kept, or no
//! edit is made.

use super::version::Version;
use crate::geometry::Movement;
use crate::ir::{Node, Pattern, Term};
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
/// definitions changed, each with the text its body now reads as; `None`
/// when nothing changes.
pub(super) fn drop_covered<'l>(v: &Version<'l>) -> Option<(Version<'l>, Vec<(String, String)>)> {
    let (text, prog) = (v.text(), &v.prog);
    let mut file = v.file.clone();
    let mut changed: Vec<(String, String)> = vec![];
    let mut expected: Vec<Term> = vec![];
    for (name, body) in super::hoist::plain_definitions(&v.file) {
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
        let reads = kept
            .iter()
            .map(|&i| &text[written[i].span.start..written[i].span.end])
            .collect::<Vec<_>>()
            .join(" | ");
        // The arms kept, joined by `|` as the parser groups them.
        let new = kept.iter().map(|&i| written[i].clone()).reduce(|a, b| Expr {
            span: Span::new(a.span.start, b.span.end),
            kind: ExprKind::Bar(Box::new(a), Box::new(b)),
        })?;
        *super::version::body_mut(&mut file, name)? = new;
        changed.push((name.to_string(), reads));
        let terms: Vec<Term> = kept.iter().map(|&i| terms[i].clone()).collect();
        expected.push(super::hoist::alternatives(&terms));
    }
    if changed.is_empty() {
        return None;
    }
    let after = v.edited(text, file).ok()?;
    if !changed
        .iter()
        .zip(&expected)
        .all(|((n, _), t)| after.prog.definition(n) == Some(t))
    {
        return None;
    }
    Some((after, changed))
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
        let (after, changed) = drop_covered(&Version::read("t.alg", text, &crate::elab::NoFiles).unwrap()).unwrap();
        let out = crate::parse::format_file(&after.file, text);
        assert_eq!(changed.len(), 1);
        assert_eq!(changed[0].0, "m");
        assert_eq!(changed[0].1, "('K + r free -> . + r'K) | ('K + u free -> . + u'K)");
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
