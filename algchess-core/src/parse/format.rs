//! The formatter behind `algchess fmt`: a syntax tree back to tidy text.
//!
//! It works on the syntax tree, not the core IR, so names, functions and the
//! user's parentheses survive. Items that touched in the source (`ur♟`,
//! `♖..`) still touch (the tree records it); comments and blank lines
//! between statements are kept.

use super::ast::{ClaimKind, Cond, CountArg, Expr, ExprKind, File, PostOp, Stmt, StmtKind};

const WIDTH: usize = 100;

fn sup(k: i64) -> String {
    let digits = "⁰¹²³⁴⁵⁶⁷⁸⁹";
    let mut s = String::new();
    if k < 0 {
        s.push('⁻');
    }
    for d in k.unsigned_abs().to_string().chars() {
        s.push(digits.chars().nth(d.to_digit(10).unwrap() as usize).unwrap());
    }
    s
}

fn count(c: &CountArg) -> String {
    match c {
        CountArg::Num(n) => n.to_string(),
        CountArg::Name(i) => i.name.clone(),
    }
}

fn postop(op: &PostOp) -> String {
    match op {
        PostOp::Star => "*".into(),
        PostOp::Greedy => "*!".into(),
        PostOp::Plus => "+".into(),
        PostOp::Opt => "?".into(),
        PostOp::Count(i) => format!("{{{}}}", count(i)),
        PostOp::Range(i, j) => format!("{{{},{}}}", count(i), count(j)),
        PostOp::Angle(i, j) => format!("<{},{}>", count(i), count(j)),
        PostOp::AtLeast(i) => format!("{{{},}}", count(i)),
        PostOp::Pow(k, true) => sup(*k),
        PostOp::Pow(k, false) => format!("^{k}"),
    }
}

/// Whether `text` written right after `out` would run into it: two words,
/// a word and a call, or two numbers are never let run together. A word
/// after a number does not (`u^12r` reads as `u`, `^12`, `r`).
fn runs_on(out: &str, text: &str) -> bool {
    let first = text.chars().next().unwrap_or(' ');
    let mut tail = out
        .chars()
        .rev()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .peekable();
    if tail.peek().is_none() {
        return false;
    }
    if tail.all(|c| c.is_ascii_digit()) {
        first.is_ascii_digit()
    } else {
        first.is_ascii_alphanumeric() || first == '_' || first == '('
    }
}

/// `e` as text, on one line. Items side by side are spaced as the tree
/// says, as read or as built; no text is read.
fn expr(e: &Expr) -> String {
    match &e.kind {
        ExprKind::Piece(p) => p.clone(),
        ExprKind::Dot => ".".into(),
        ExprKind::Hash => "#".into(),
        ExprKind::Percent => "%".into(),
        ExprKind::Num(n) => n.to_string(),
        ExprKind::Word(w) => w.clone(),
        ExprKind::Nil => "nil".into(),
        ExprKind::Fail => "fail".into(),
        ExprKind::Call(f, args) => {
            let args: Vec<String> = args.iter().map(expr).collect();
            format!("{}({})", f.name, args.join(", "))
        }
        ExprKind::Juxt(items, touch) => {
            let mut out = String::new();
            for (i, x) in items.iter().enumerate() {
                let text = expr(x);
                if i > 0 && (!touch[i] || runs_on(&out, &text)) {
                    out.push(' ');
                }
                out.push_str(&text);
            }
            out
        }
        ExprKind::Semi(a, b) => format!("{};{}", expr(a), expr(b)),
        ExprKind::Plus(a, b) => format!("{} + {}", expr(a), expr(b)),
        ExprKind::Bar(a, b) => format!("{} | {}", expr(a), expr(b)),
        ExprKind::Arrow(a, b) => format!("{} -> {}", expr(a), expr(b)),
        ExprKind::Bind(c, body) => format!("%{}: {}", c.name, expr(body)),
        ExprKind::Post(x, op) => format!("{}{}", expr(x), postop(op)),
        ExprKind::Not(x) => format!("not {}", expr(x)),
        ExprKind::Paren(x) => format!("({})", expr(x)),
        ExprKind::Notation(n, text) => format!("{}\"{text}\"", n.name),
    }
}

/// The operands of a chain of one top-level operator, for line breaking.
fn chain<'a>(e: &'a Expr, out: &mut Vec<&'a Expr>) -> Option<&'static str> {
    match &e.kind {
        ExprKind::Bar(a, b) => {
            if chain(a, out) != Some("|") {
                out.clear();
                out.push(a);
            }
            out.push(b);
            Some("|")
        }
        ExprKind::Plus(a, b) => {
            if chain(a, out) != Some("+") {
                out.clear();
                out.push(a);
            }
            out.push(b);
            Some("+")
        }
        _ => None,
    }
}

/// `head` followed by `e`, broken at its top-level `|` or `+` when long.
fn body(head: &str, e: &Expr) -> String {
    let flat = format!("{head}{}", expr(e));
    if flat.chars().count() <= WIDTH {
        return flat;
    }
    let (inner, binder) = match &e.kind {
        ExprKind::Bind(c, b) => (b.as_ref(), format!("%{}: ", c.name)),
        _ => (e, String::new()),
    };
    let mut parts = vec![];
    match chain(inner, &mut parts) {
        Some(op) if parts.len() > 1 => {
            let mut out = format!("{head}{binder}{}", expr(parts[0]));
            for p in &parts[1..] {
                out.push_str(&format!("\n    {op} {}", expr(p)));
            }
            out
        }
        _ => match &inner.kind {
            // A long sequence: its items filled into lines, broken only
            // where they are spaced.
            ExprKind::Juxt(items, touch) if items.len() > 1 => {
                let mut out = format!("{head}{binder}");
                let mut width = out.chars().count();
                for (i, x) in items.iter().enumerate() {
                    let text = expr(x);
                    let n = text.chars().count();
                    if i > 0 && (!touch[i] || runs_on(&out, &text)) {
                        if width + 1 + n > WIDTH {
                            out.push_str("\n    ");
                            width = 4;
                        } else {
                            out.push(' ');
                            width += 1;
                        }
                    }
                    out.push_str(&text);
                    width += n;
                }
                out
            }
            _ => flat,
        },
    }
}

fn cond(c: &Cond) -> String {
    let args: Vec<&str> = c.args.iter().map(|a| a.name.as_str()).collect();
    format!("{}({})", c.pred.name, args.join(", "))
}

fn stmt(s: &Stmt) -> String {
    match &s.kind {
        StmtKind::Def {
            name,
            params,
            body: b,
            overrides,
        } => {
            let kw = if *overrides { "override " } else { "" };
            let head = match params {
                None => format!("{kw}{} = ", name.name),
                Some(ps) => {
                    let ps: Vec<&str> = ps.iter().map(|p| p.name.as_str()).collect();
                    format!("{kw}{}({}) = ", name.name, ps.join(", "))
                }
            };
            body(&head, b)
        }
        StmtKind::Claim {
            kind,
            name,
            lhs,
            rel,
            rhs,
            conds,
        } => {
            let kw = match kind {
                ClaimKind::Theorem => "theorem",
                ClaimKind::Axiom => "axiom",
            };
            let mut out = format!("{kw} {}: {} {} {}", name.name, expr(lhs), rel.symbol(), expr(rhs));
            if !conds.is_empty() {
                let cs: Vec<String> = conds.iter().map(cond).collect();
                out.push_str(&format!(" where {}", cs.join(", ")));
            }
            out
        }
        StmtKind::Piece { white, black } => {
            let names = |v: &Vec<super::ast::Ident>| v.iter().map(|n| n.name.as_str()).collect::<Vec<_>>().join(" ");
            match black {
                Some(b) => format!("piece {} / {}", names(white), names(b)),
                None => format!("piece {}", names(white)),
            }
        }
        StmtKind::Game { name, board, turns } => {
            let turns: Vec<String> = turns.iter().map(expr).collect();
            format!("game {}({}) = {}", name.name, expr(board), turns.join(", "))
        }
        StmtKind::GameEnd { game, kind, args } => {
            let args: Vec<String> = args.iter().map(expr).collect();
            format!("game {} {}: {}", game.name, kind.name, args.join(", "))
        }
        StmtKind::GameFrom { name, base } => format!("game {} = {}", name.name, base.name),
        StmtKind::Import { path } => format!("import \"{}\"", path.name),
        StmtKind::Grid { name } => format!("grid {}", name.name),
    }
}

/// An expression as algebra text on one line, which parses back to the
/// same tree: read from a file, or built (a notation's lowering, a
/// simplified body).
pub(crate) fn print_expr(e: &Expr) -> String {
    expr(e)
}

/// Formats a parsed file; `src` is the text it was parsed from, where the
/// lines of statements and comments and the blank lines between them are
/// read. Expressions print from the tree alone, so a statement may hold
/// one built without text.
pub fn format_file(file: &File, src: &str) -> String {
    // Where each line starts, and how many blank lines come before each:
    // found once, so a file of many lines formats in linear time.
    let starts: Vec<usize> = std::iter::once(0)
        .chain(src.match_indices('\n').map(|(i, _)| i + 1))
        .collect();
    let line_of = |offset: usize| starts.partition_point(|&s| s <= offset) - 1;
    let mut blanks = vec![0];
    for line in src.split('\n') {
        blanks.push(blanks.last().unwrap() + usize::from(line.trim().is_empty()));
    }
    let mut out = String::new();
    let mut comments = file.comments.iter().peekable();
    let mut last_line: Option<usize> = None;
    // A blank line strictly between lines `l` and `line`.
    let blank_before =
        |line: usize, last: Option<usize>| last.is_some_and(|l| line > l + 1 && blanks[line] > blanks[l + 1]);
    for s in &file.stmts {
        let (first, last) = (line_of(s.span.start), line_of(s.span.end));
        while let Some(c) = comments.next_if(|c| line_of(c.span.start) < first) {
            let line = line_of(c.span.start);
            if blank_before(line, last_line) {
                out.push('\n');
            }
            out.push_str(&format!("//{}\n", c.text));
            last_line = Some(line);
        }
        if blank_before(first, last_line) {
            out.push('\n');
        }
        // Comments inside a statement move above it; one on its last line
        // stays at the end of it.
        let mut trailing = None;
        while let Some(c) = comments.next_if(|c| line_of(c.span.start) <= last) {
            if line_of(c.span.start) == last && c.span.start >= s.span.end {
                trailing = Some(c.text.clone());
            } else {
                out.push_str(&format!("//{}\n", c.text));
            }
        }
        out.push_str(&stmt(s));
        if let Some(t) = trailing {
            out.push_str(&format!(" //{t}"));
        }
        out.push('\n');
        last_line = Some(last);
    }
    for c in comments {
        let line = line_of(c.span.start);
        if blank_before(line, last_line) {
            out.push('\n');
        }
        out.push_str(&format!("//{}\n", c.text));
        last_line = Some(line);
    }
    out
}

#[cfg(test)]
mod tests {
    use crate::parse::parse_file;

    fn fmt(src: &str) -> String {
        super::format_file(&parse_file(src).unwrap(), src)
    }

    #[test]
    fn keeps_touching_items_and_normalises_spaces() {
        assert_eq!(fmt("a=♙  +   ur♟\n"), "a = ♙ + ur♟\n");
        assert_eq!(
            fmt("rook_move_u = (% + u. -> . + u%)+\n"),
            "rook_move_u = (% + u. -> . + u%)+\n"
        );
        assert_eq!(fmt("f(M,N)=M N|R² M\n"), "f(M, N) = M N | R² M\n");
    }

    #[test]
    fn long_sequences_are_broken_into_lines() {
        let src =
            "c = %'Kc: not attacked\n    (% + r. + rr. + rrr'Rc -> . + r% + rr. + rrr'Rc)\n    not attacked\n    \
                   (% + r. + rr'Rc -> ♖ + r♔ + rr.)\n";
        let out = fmt(src);
        assert!(out.lines().all(|l| l.chars().count() <= super::WIDTH), "{out}");
        assert!(out.lines().count() > 1, "{out}");
        assert_eq!(fmt(&out), out);
        let decl = "piece 'Kc / 'kc\npiece 'Rc / 'rc\nattacked = fail\n";
        let (a, b) = (
            crate::elab::Program::from_text("a", &format!("{decl}{src}")).unwrap(),
            crate::elab::Program::from_text("b", &format!("{decl}{out}")).unwrap(),
        );
        assert_eq!(a.definition("c"), b.definition("c"));
    }

    #[test]
    fn keeps_comments_and_blank_lines() {
        let src = "// header\n\na = ♙ // pawn\n\n\nb = ♟\n// tail\n";
        assert_eq!(fmt(src), "// header\n\na = ♙ // pawn\n\nb = ♟\n// tail\n");
    }

    #[test]
    fn is_idempotent_and_preserves_meaning() {
        let src = "x = ♙;.;♟\ny=xxx\ntheorem t: (♙ -> .){2,3} = (♙ -> .)<2,3>\nlong = ♙ | ♘ | ♗ | ♖ | ♕ | ♔ | ♙ | ♘ | ♗ | ♖ | ♕ | ♔ | ♙ | ♘ | ♗ | ♖ | ♕ | ♔ | ♙ | ♘ | ♗ | ♖ | ♕ | ♔ | ♙ | ♘\n";
        let once = fmt(src);
        assert_eq!(fmt(&once), once);
        assert!(once.contains("\n    | ♘"), "{once}");
        // The formatted file means the same: same definitions, same claims.
        let (a, b) = (
            crate::elab::Program::from_text("a", src).unwrap(),
            crate::elab::Program::from_text("b", &once).unwrap(),
        );
        let defs = |p: &crate::elab::Program| {
            p.definitions()
                .map(|(n, t)| (n.to_string(), t.clone()))
                .collect::<Vec<_>>()
        };
        assert_eq!(defs(&a), defs(&b));
        assert_eq!(a.claims()[0].lhs, b.claims()[0].lhs);
    }
}
