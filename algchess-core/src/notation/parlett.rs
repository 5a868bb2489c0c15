//! Parlett's piece language, as S-expressions: `(move 'n 'X)`, `(move 1 (leaper 1 2))`,
//! `(alternatives ...)`, `(and-then A B)`, `(on-capture A)`,
//! `(on-non-capture A)`, `(on-initial A)`, with Parlett's directions
//! `* + > < <> = >= <= X X> X<` and offsets `(pt x y)`. Quotes are optional.
//!
//! Its meaning: each move sequence is a list of squares the piece
//! runs down in order; an empty square is a destination and the run goes
//! on, an enemy piece is a destination and ends it, a friend or the board's
//! edge ends it. `(move k d)` lists only `k·d`, so it leaps; `(move 'n d)`
//! lists `d, 2d, ...`; `(move i j d)` lists `i·d .. j·d`.

use super::walk::{leaps, Kind, Leg, Mode, Walk};
use super::{error, Notation};
use crate::diag::{Diag, Diags};
use crate::parse::ast::Span;

/// An s-expression, with its span in the text.
#[derive(Debug)]
enum Sx {
    Atom(String, Span),
    List(Vec<Sx>, Span),
}

impl Sx {
    fn span(&self) -> Span {
        match self {
            Sx::Atom(_, s) | Sx::List(_, s) => *s,
        }
    }
}

fn err(text: &str, span: Span, message: impl Into<String>) -> Diag {
    error(Notation::Parlett, text, span, message)
}

fn parse(text: &str) -> Result<Sx, Diag> {
    let mut stack: Vec<(usize, Vec<Sx>)> = vec![];
    let mut top: Option<Sx> = None;
    let mut chars = text.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        let item = match c {
            c if c.is_whitespace() || c == '\'' => continue,
            '(' => {
                stack.push((i, vec![]));
                continue;
            }
            ')' => {
                let Some((start, items)) = stack.pop() else {
                    return Err(err(text, Span::new(i, i + 1), "this `)` closes nothing"));
                };
                Sx::List(items, Span::new(start, i + 1))
            }
            _ => {
                let mut end = i + c.len_utf8();
                while let Some(&(j, d)) = chars.peek() {
                    if d.is_whitespace() || "()'".contains(d) {
                        break;
                    }
                    end = j + d.len_utf8();
                    chars.next();
                }
                Sx::Atom(text[i..end].to_string(), Span::new(i, end))
            }
        };
        match stack.last_mut() {
            Some((_, items)) => items.push(item),
            None if top.is_none() => top = Some(item),
            None => {
                return Err(err(
                    text,
                    item.span(),
                    "one piece only: put several in `(alternatives ...)`",
                ))
            }
        }
    }
    if let Some((start, _)) = stack.pop() {
        return Err(err(text, Span::new(start, start + 1), "this `(` is never closed"));
    }
    top.ok_or_else(|| {
        err(
            text,
            Span::new(0, text.len()),
            "no piece here: write one such as `(move 'n 'X)`",
        )
    })
}

/// The offsets of a Parlett direction: forward is up (white's).
fn direction(sym: &str) -> Option<Vec<(i32, i32)>> {
    let all: [((i32, i32), &str); 8] = [
        ((-1, 1), "* X X>"),
        ((0, 1), "* + > <> >="),
        ((1, 1), "* X X>"),
        ((-1, 0), "* + = >= <="),
        ((1, 0), "* + = >= <="),
        ((-1, -1), "* X X<"),
        ((0, -1), "* + < <> <="),
        ((1, -1), "* X X<"),
    ];
    let v: Vec<_> = all
        .iter()
        .filter(|(_, syms)| syms.split(' ').any(|s| s == sym))
        .map(|(p, _)| *p)
        .collect();
    (!v.is_empty()).then_some(v)
}

fn int(text: &str, sx: &Sx) -> Result<i32, Diag> {
    match sx {
        Sx::Atom(a, span) => a
            .parse::<i32>()
            .ok()
            .filter(|n| n.abs() <= 64)
            .ok_or_else(|| err(text, *span, format!("expected a number from -64 to 64, found `{a}`"))),
        Sx::List(_, span) => Err(err(text, *span, "expected a number")),
    }
}

fn offsets(text: &str, sx: &Sx) -> Result<Vec<(i32, i32)>, Diag> {
    match sx {
        Sx::Atom(a, span) => direction(a).ok_or_else(|| {
            err(text, *span, format!("unknown direction `{a}`"))
                .help("Parlett's directions are * + > < <> = >= <= X X> X<; or (leaper a b), (pt x y)")
        }),
        Sx::List(items, span) => {
            let head = match items.first() {
                Some(Sx::Atom(h, _)) => h.as_str(),
                _ => return Err(err(text, *span, "expected a direction")),
            };
            let args = &items[1..];
            let want = |n: usize| {
                if args.len() == n {
                    Ok(())
                } else {
                    Err(err(
                        text,
                        *span,
                        format!("`{head}` takes {n} arguments, not {}", args.len()),
                    ))
                }
            };
            match head {
                "leaper" => {
                    want(2)?;
                    Ok(leaps(int(text, &args[0])?, int(text, &args[1])?))
                }
                "pt" => {
                    want(2)?;
                    Ok(vec![(int(text, &args[0])?, int(text, &args[1])?)])
                }
                "list" => {
                    let mut out = vec![];
                    for a in args {
                        out.extend(offsets(text, a)?);
                    }
                    Ok(out)
                }
                _ => Err(err(text, items[0].span(), format!("unknown direction `{head}`"))
                    .help("a direction is a symbol such as 'X, or (leaper a b), (pt x y), (list ...)")),
            }
        }
    }
    .and_then(|v| match v.iter().find(|p| **p == (0, 0)) {
        Some(_) => Err(err(text, sx.span(), "a move by (0, 0) goes nowhere")),
        None => Ok(v),
    })
}

/// A distance: `None` for `n`, unlimited.
fn distance(text: &str, sx: &Sx) -> Result<Option<u32>, Diag> {
    if let Sx::Atom(a, _) = sx {
        if a == "n" {
            return Ok(None);
        }
    }
    let n = int(text, sx)?;
    if n < 1 {
        return Err(err(text, sx.span(), "a distance is at least 1"));
    }
    Ok(Some(n as u32))
}

/// `(move D)`, `(move N D)`, `(move I J D)`: steps along the directions
/// `D` names, `N` of them, from `I` to `J`, or any number (`n`).
fn moves(text: &str, args: &[Sx], span: Span) -> Result<Vec<Walk>, Diag> {
    let (lo, hi, dir) = match args {
        [d] => (1, Some(1), d),
        [n, d] => match distance(text, n)? {
            Some(k) => (k, Some(k), d),
            None => (1, None, d),
        },
        [i, j, d] => {
            let (i, j) = (distance(text, i)?, distance(text, j)?);
            match (i, j) {
                (Some(i), Some(j)) if i <= j => (i, Some(j), d),
                (Some(i), None) => (i, None, d),
                _ => return Err(err(text, span, "a range goes from a smaller distance to a larger one")),
            }
        }
        _ => {
            return Err(err(
                text,
                span,
                "`move` takes a direction, with a distance or a range before it",
            ))
        }
    };
    let i = lo as i32;
    Ok(offsets(text, dir)?
        .into_iter()
        .map(|d| Walk {
            kind: Kind::Run(vec![Leg {
                jump: (i * d.0, i * d.1),
                step: d,
                more: hi.map(|h| h - lo),
                via: vec![],
            }]),
            mode: Mode::Both,
            initial: false,
        })
        .collect())
}

/// `(and-then A B)`: each move of `A` (of bounded length) then each of `B`
/// from its end, their flags together.
fn and_then(text: &str, args: &[Sx], span: Span) -> Result<Vec<Walk>, Diag> {
    let [a, b] = args else {
        return Err(err(text, span, "`and-then` takes two pieces"));
    };
    let (first, rest) = (piece(text, a)?, piece(text, b)?);
    let mut out = vec![];
    for f in &first {
        for r in &rest {
            let (Kind::Run(fl), Kind::Run(rl)) = (&f.kind, &r.kind) else {
                return Err(err(text, span, "`and-then` joins moves, not hops"));
            };
            if fl.iter().any(|l| l.more.is_none()) {
                return Err(err(
                    text,
                    a.span(),
                    "`and-then` needs a first move of bounded length, to go on from its end",
                ));
            }
            let mode = match (f.mode, r.mode) {
                (m, Mode::Both) | (Mode::Both, m) => m,
                (m, n) if m == n => m,
                _ => return Err(err(text, span, "these flags contradict each other: no square is both")),
            };
            out.push(Walk {
                kind: Kind::Run(fl.iter().chain(rl).cloned().collect()),
                mode,
                initial: f.initial || r.initial,
            });
        }
    }
    Ok(out)
}

fn piece(text: &str, sx: &Sx) -> Result<Vec<Walk>, Diag> {
    let Sx::List(items, span) = sx else {
        return Err(err(text, sx.span(), "expected a piece such as `(move 1 '*)`"));
    };
    let Some(Sx::Atom(head, hspan)) = items.first() else {
        return Err(err(text, *span, "expected a piece such as `(move 1 '*)`"));
    };
    let args = &items[1..];
    let flag = |walks: Vec<Walk>, f: &dyn Fn(&mut Walk) -> Result<(), Diag>| -> Result<Vec<Walk>, Diag> {
        let mut walks = walks;
        for w in &mut walks {
            f(w)?;
        }
        Ok(walks)
    };
    let one = || -> Result<&Sx, Diag> {
        match args {
            [a] => Ok(a),
            _ => Err(err(text, *span, format!("`{head}` takes one piece"))),
        }
    };
    match head.as_str() {
        "move" => moves(text, args, *span),
        "alternatives" => {
            let mut out = vec![];
            for a in args {
                out.extend(piece(text, a)?);
            }
            Ok(out)
        }
        "and-then" => and_then(text, args, *span),
        "on-capture" | "on-non-capture" => {
            let want = if head == "on-capture" {
                Mode::Capture
            } else {
                Mode::NonCapture
            };
            flag(piece(text, one()?)?, &|w| match w.mode {
                Mode::Both => {
                    w.mode = want;
                    Ok(())
                }
                m if m == want => Ok(()),
                _ => Err(err(
                    text,
                    *span,
                    "`on-capture` and `on-non-capture` together allow no square",
                )),
            })
        }
        "on-initial" => flag(piece(text, one()?)?, &|w| {
            w.initial = true;
            Ok(())
        }),
        _ => Err(err(text, *hspan, format!("unknown form `{head}`"))
            .help("the forms are move, alternatives, and-then, on-capture, on-non-capture, on-initial")),
    }
}

/// Reads a piece of Parlett's language into its move sequences.
pub(super) fn read(text: &str) -> Result<Vec<Walk>, Diags> {
    let sx = parse(text)?;
    Ok(piece(text, &sx)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn algebra(text: &str) -> String {
        crate::parse::print_expr(&super::super::walk::union(&read(text).unwrap()))
    }

    fn fails(text: &str) -> (Span, String) {
        let d = read(text).unwrap_err();
        (d.0[0].span, d.0[0].message.clone())
    }

    #[test]
    fn the_seeds_pawn() {
        let pawn = "(alternatives (on-non-capture (on-initial (move 2 '>))) (on-non-capture (move 1 '>)) (on-capture (move 1 'X>)))";
        assert_eq!(
            algebra(pawn),
            "(dd# + % -> dd# + %) ((% + uu. -> . + uu%)) | (% + u. -> . + u%) | (% + ul enemy -> . + ul%) | (% + ur enemy -> . + ur%)"
        );
    }

    #[test]
    fn ranges_run_down_their_squares() {
        assert_eq!(
            algebra("(move 2 3 (pt 0 1))"),
            "(% + uu(. | enemy) -> . + uu%) | (% + uu. -> . + uu%) (% + u(. | enemy) -> . + u%)"
        );
    }

    #[test]
    fn and_then_goes_on_from_the_end_of_the_first() {
        assert_eq!(
            algebra("(and-then (move 1 '>) (move 'n (pt 1 1)))"),
            "(% + u(. | enemy) -> . + u%) | (% + u. -> . + u%) ((% + ur. -> . + ur%)* (% + ur(. | enemy) -> . + ur%))"
        );
    }

    #[test]
    fn directions_and_leapers() {
        assert_eq!(read("(move 'n '*)").unwrap().len(), 8);
        assert_eq!(read("(move 1 '<>)").unwrap().len(), 2);
        assert_eq!(read("(move 1 (leaper 3 4))").unwrap().len(), 8);
        assert_eq!(read("(move 1 (list (pt 1 0) (pt 0 1)))").unwrap().len(), 2);
    }

    #[test]
    fn bad_text_gets_a_span() {
        assert_eq!(fails("(move 1 'Y)"), (Span::new(9, 10), "unknown direction `Y`".into()));
        assert_eq!(
            fails("(move 1 '*"),
            (Span::new(0, 1), "this `(` is never closed".into())
        );
        assert_eq!(fails("(jump 1 '*)"), (Span::new(1, 5), "unknown form `jump`".into()));
        assert_eq!(fails("(move 1 '*))").1, "this `)` closes nothing");
        assert_eq!(fails("(and-then (move 'n '+) (move 1 '+))").0, Span::new(10, 22));
        assert_eq!(fails("(move 0 '+)").1, "a distance is at least 1");
        assert_eq!(fails("").1, "no piece here: write one such as `(move 'n 'X)`");
        assert!(fails("(on-capture (on-non-capture (move 1 '+)))")
            .1
            .contains("no square"));
    }
}
