//! How a checker's findings are written, text and JSON: the positions of
//! play checked, and a counterexample's boards. Shared by `check` and
//! `prove`, which reports the checker's counterexamples too.

use super::output::side_by_side;
use super::pictures::from_rows;
use algchess_core::picture::Row;
use algchess_core::positions::PositionsReport;
use algchess_core::{Claim, CounterReport, StateReport};

/// Adds what the check on positions found to a report's JSON: `positions`
/// (how many were compared), and where a counterexample's position comes
/// from.
pub(super) fn add_positions(value: &mut serde_json::Value, played: Option<&PositionsReport>) {
    let Some(p) = played else {
        return;
    };
    value["positions"] = p.checked.into();
    if p.over_budget > 0 {
        value["positions_over_budget"] = p.over_budget.into();
    }
    if !p.complete {
        let by = if p.stopped_by_memory { "memory" } else { "timeout" };
        value["positions_stopped_by"] = by.into();
    }
    if p.counterexample.is_some() {
        value["refuted_on"] = "position".into();
        let cx = &mut value["counterexample"];
        cx["position"] = p.origin.clone().into();
        cx["fen"] = p.fen.clone().into();
    }
}

/// What the check on positions covered, for a verdict's line: `and on N
/// reachable positions`, with what cut it short.
pub(super) fn positions_phrase(played: Option<&PositionsReport>, joint: &str) -> String {
    let Some(p) = played else {
        return String::new();
    };
    let mut out = format!(
        " {joint} {} reachable position{}",
        p.checked,
        if p.checked == 1 { "" } else { "s" }
    );
    let mut cut = vec![];
    let limit = if p.stopped_by_memory { "memory limit" } else { "timeout" };
    if !p.sampling_complete {
        cut.push(format!(
            "the {limit} stopped the sampling after {} positions",
            p.sampled
        ));
    } else if !p.complete {
        cut.push(format!(
            "the {limit} stopped it after {} of {}",
            p.checked + p.over_budget,
            p.sampled
        ));
    }
    if p.over_budget > 0 {
        cut.push(format!("{} over the state budget", p.over_budget));
    }
    if !cut.is_empty() {
        out.push_str(&format!(" ({})", cut.join("; ")));
    }
    out
}

fn states(v: &[&StateReport]) -> Vec<String> {
    let mut rows = vec![];
    for (i, s) in v.iter().enumerate() {
        if i > 0 {
            rows.push(String::new());
        }
        rows.extend(s.board.iter().cloned());
        match (&s.poi_cell, s.poi) {
            (Some(cell), _) => rows.push(format!("(POI {cell})")),
            (None, Some([x, y])) => rows.push(format!("(POI {x},{y})")),
            (None, None) => {}
        }
    }
    if v.is_empty() {
        rows.push("(none)".into());
    }
    rows
}

/// Result sets this large are shown by their difference only.
const SHOWN: usize = 8;

/// The results shown of each side: all when few (then true), else those
/// only that side gives.
fn shown<'a>(left: &'a [StateReport], right: &'a [StateReport]) -> (bool, Vec<&'a StateReport>, Vec<&'a StateReport>) {
    if left.len() + right.len() <= 2 * SHOWN {
        return (true, left.iter().collect(), right.iter().collect());
    }
    (
        false,
        left.iter().filter(|s| !right.contains(s)).collect(),
        right.iter().filter(|s| !left.contains(s)).collect(),
    )
}

/// A counterexample as text: the instance, the board (for a position,
/// where it comes from) and both result sets, or when they are large, the
/// results only one side gives.
pub(super) fn counterexample_text(c: &CounterReport, played: Option<&PositionsReport>) -> String {
    let mut out = String::new();
    match c {
        CounterReport::Board {
            board,
            poi,
            poi_cell,
            poi_on,
            squares,
            left,
            right,
            instance,
        } => {
            if let Some(inst) = instance {
                for (k, v) in inst {
                    out.push_str(&format!("    with {k} = {v}\n"));
                }
            }
            let on = match poi_on.as_deref() {
                Some(".") => " (an empty square)".to_string(),
                Some(piece) => format!(" ({piece})"),
                None => String::new(),
            };
            let poi = match (poi_cell, poi) {
                (Some(cell), _) => format!(", the POI on {cell}{on}"),
                (None, Some([x, y])) => format!(", the POI on {x},{y}{on}"),
                (None, None) => String::new(),
            };
            match played.filter(|p| p.counterexample.is_some()) {
                Some(p) => {
                    let origin = p.origin.as_deref().unwrap_or("a reachable position");
                    let fen = p.fen.as_ref().map_or(String::new(), |f| format!(" ({f})"));
                    out.push_str(&format!("    on {origin}{fen}{poi}:\n"));
                }
                None => {
                    let plural = if *squares == 1 { "" } else { "s" };
                    out.push_str(&format!("    on this board of {squares} square{plural}{poi}:\n"));
                }
            }
            let (few, l, r) = shown(left, right);
            if few {
                out.push_str(&side_by_side(&[
                    ("board".into(), board.clone()),
                    (format!("left gives {}", l.len()), states(&l)),
                    (format!("right gives {}", r.len()), states(&r)),
                ]));
            } else {
                let both = left.len() - l.len();
                out.push_str(&format!(
                    "    left gives {}, right gives {}; the {both} both give are not shown\n",
                    left.len(),
                    right.len()
                ));
                out.push_str(&side_by_side(&[
                    ("board".into(), board.clone()),
                    (format!("only left gives {}", l.len()), states(&l)),
                    (format!("only right gives {}", r.len()), states(&r)),
                ]));
            }
        }
        CounterReport::NormalForm { left, right, instance } => {
            if let Some(inst) = instance {
                for (k, v) in inst {
                    out.push_str(&format!("    with {k} = {v}\n"));
                }
            }
            out.push_str(&format!("    left is {left}\n    right is {right}\n"));
        }
    }
    out
}

/// A counterexample drawn: the board (its POI ringed), then each side's
/// results, the squares each changed tinted; when there are many, those
/// only one side gives, as the text shows them.
pub(super) fn counterexample_row(c: &CounterReport, claim: &Claim) -> Option<Row> {
    let CounterReport::Board {
        board,
        poi,
        poi_cell,
        left,
        right,
        ..
    } = c
    else {
        return None;
    };
    let (tiling, pieces) = (claim.tiling, &claim.pieces);
    let start = from_rows(board, (*poi, poi_cell.as_deref()), None, tiling, pieces, "board".into())?;
    let before = start.board.clone();
    let (few, l, r) = shown(left, right);
    let only = if few { "" } else { "only " };
    let mut pictures = vec![start];
    for (side, states) in [("left", &l), ("right", &r)] {
        for (i, s) in states.iter().enumerate().take(SHOWN) {
            let caption = format!("{only}{side} {}/{}", i + 1, states.len());
            pictures.extend(from_rows(
                &s.board,
                (s.poi, s.poi_cell.as_deref()),
                Some(&before),
                tiling,
                pieces,
                caption,
            ));
        }
    }
    Some(Row {
        title: format!(
            "{}: left gives {}, right gives {}{}",
            claim.name,
            left.len(),
            right.len(),
            if few {
                ""
            } else {
                "; the results both give are not drawn"
            }
        ),
        pictures,
    })
}

/// Where a claim of `programs[p]` (or one of `extra`, after them) comes
/// in the run: the order pictures are written in.
pub(super) fn claim_key(programs: &[algchess_core::Program], extra: &[Vec<Claim>], p: usize, claim: &Claim) -> usize {
    let at = programs[p]
        .claims()
        .iter()
        .chain(extra.get(p).into_iter().flatten())
        .position(|c| std::ptr::eq(c, claim))
        .unwrap_or(0);
    (p << 24) | at
}
