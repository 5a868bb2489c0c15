//! Text to syntax tree: the lexer, the lalrpop grammar and the formatter.

// The tree mirrors the grammar (`grammar.lalrpop`), which documents it.
#[allow(missing_docs)]
pub mod ast;
mod format;
pub(crate) mod from_term;
pub(crate) mod lexer;

use lalrpop_util::{lalrpop_mod, ParseError};

lalrpop_mod!(
    #[allow(clippy::all, unused_parens, unreachable_pub)]
    grammar,
    "/parse/grammar.rs"
);

pub use format::format_file;
pub(crate) use format::print_expr;

use ast::{Expr, File, Span};
use lexer::{LexError, Tok};

/// A syntax error: where, and what was expected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SyntaxError {
    /// Where, in the text parsed.
    pub span: Span,
    /// What was found and what was expected, for the user.
    pub message: String,
}

impl std::fmt::Display for SyntaxError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} (bytes {}..{})", self.message, self.span.start, self.span.end)
    }
}

impl std::error::Error for SyntaxError {}

fn convert(e: ParseError<usize, Tok, LexError>, len: usize) -> SyntaxError {
    let expected = |exp: Vec<String>| {
        if exp.is_empty() {
            String::new()
        } else {
            // Tokens by what a reader calls them, each once.
            let mut names: Vec<String> = vec![];
            for e in exp {
                let e = e.trim_matches('"');
                let name = match e {
                    "piece glyph" => "a piece".to_string(),
                    "word" | "callee" => "a name".to_string(),
                    "number" => "a number".to_string(),
                    "text" => "a quoted path".to_string(),
                    "superscript" => "a power".to_string(),
                    "binder" => "a binder `%p:`".to_string(),
                    "end of line" => "the end of the line".to_string(),
                    other => format!("`{other}`"),
                };
                if !names.contains(&name) {
                    names.push(name);
                }
            }
            format!("; expected {}", names.join(", "))
        }
    };
    match e {
        ParseError::InvalidToken { location } => SyntaxError {
            span: Span::new(location, location + 1),
            message: "invalid token".into(),
        },
        ParseError::UnrecognizedEof {
            location,
            expected: exp,
        } => SyntaxError {
            span: Span::new(location.min(len), location.min(len)),
            message: format!("unexpected end of input{}", expected(exp)),
        },
        ParseError::UnrecognizedToken {
            token: (l, t, r),
            expected: exp,
        } => {
            let hint = if matches!(t, Tok::Binder(_)) {
                "; a binder reaches as far to the right as it can, so put it in parentheses here: `(%p: M)`"
            } else {
                ""
            };
            SyntaxError {
                span: Span::new(l, r),
                message: format!("unexpected {t}{}{hint}", expected(exp)),
            }
        }
        ParseError::ExtraToken { token: (l, t, r) } => SyntaxError {
            span: Span::new(l, r),
            message: format!("unexpected {t}"),
        },
        ParseError::User { error } => SyntaxError {
            span: error.span,
            message: error.message,
        },
    }
}

/// The brackets that `toks` opens and never closes, by where they open.
fn unclosed(toks: &[lexer::Spanned]) -> Vec<(usize, Tok)> {
    let mut open: Vec<(usize, Tok)> = vec![];
    for (at, t, _) in toks {
        match t {
            Tok::LParen | Tok::LBrace => open.push((*at, t.clone())),
            Tok::RParen if open.last().is_some_and(|o| o.1 == Tok::LParen) => {
                open.pop();
            }
            Tok::RBrace if open.last().is_some_and(|o| o.1 == Tok::LBrace) => {
                open.pop();
            }
            _ => {}
        }
    }
    open
}

/// A syntax error that an unclosed bracket on an earlier line explains
/// (inside brackets a line break is a space, so the statement ran on),
/// reported where the bracket opens.
fn at_unclosed(e: SyntaxError, toks: &[lexer::Spanned], src: &str) -> SyntaxError {
    let line = |at: usize| src[..at.min(src.len())].matches('\n').count() + 1;
    let at_end = e.span.start >= src.trim_end().len();
    let Some((open, tok)) = unclosed(toks)
        .into_iter()
        .rev()
        .find(|(open, _)| *open < e.span.start && (at_end || line(*open) < line(e.span.start)))
    else {
        return e;
    };
    let (bracket, close) = if tok == Tok::LBrace { ("{", "}") } else { ("(", ")") };
    let unexpected = e
        .message
        .split(';')
        .next()
        .unwrap_or("")
        .trim_start_matches("unexpected ");
    let ran_on = if at_end {
        "to the end of the file".to_string()
    } else {
        format!("to line {}, where {unexpected} does not fit", line(e.span.start))
    };
    SyntaxError {
        span: Span::new(open, open + 1),
        message: format!("this `{bracket}` is never closed: the statement runs on {ran_on} (close it with `{close}`)"),
    }
}

/// The deepest nesting of brackets and operators a file may have. Every
/// later stage recurses over the tree; this keeps them far from the end of
/// their stacks.
pub(crate) const MAX_NESTING: usize = 20_000;

fn shallow(e: &Expr) -> Result<(), SyntaxError> {
    match e.nested_beyond(MAX_NESTING) {
        Some(span) => Err(SyntaxError {
            span,
            message: format!(
                "this is nested more than {MAX_NESTING} levels deep (each operator of a chain such as `a | b | c` is a level: split a long chain into definitions)"
            ),
        }),
        None => Ok(()),
    }
}

/// Parses a whole rule file.
pub fn parse_file(src: &str) -> Result<File, SyntaxError> {
    let (toks, comments) = lexer::lex(src).map_err(|e| SyntaxError {
        span: e.span,
        message: e.message,
    })?;
    let stmts = grammar::FileParser::new()
        .parse(toks.iter().cloned().map(Ok::<_, LexError>))
        .map_err(|e| at_unclosed(convert(e, src.len()), &toks, src))?;
    for s in &stmts {
        match &s.kind {
            ast::StmtKind::Def { body, .. } => shallow(body)?,
            ast::StmtKind::Claim { lhs, rhs, .. } => {
                shallow(lhs)?;
                shallow(rhs)?;
            }
            ast::StmtKind::Game { board, turns, .. } => {
                shallow(board)?;
                turns.iter().try_for_each(shallow)?;
            }
            ast::StmtKind::GameEnd { args, .. } => args.iter().try_for_each(shallow)?,
            ast::StmtKind::Piece { .. }
            | ast::StmtKind::Import { .. }
            | ast::StmtKind::Grid { .. }
            | ast::StmtKind::GameFrom { .. } => {}
        }
    }
    Ok(File { stmts, comments })
}

/// Parses one expression, such as the argument of `--move`.
pub fn parse_expr(src: &str) -> Result<Expr, SyntaxError> {
    let (toks, _) = lexer::lex(src).map_err(|e| SyntaxError {
        span: e.span,
        message: e.message,
    })?;
    // An expression has no statements, so line breaks are only layout.
    let toks: Vec<lexer::Spanned> = toks.into_iter().filter(|t| t.1 != Tok::Newline).collect();
    let e = grammar::ExprParser::new()
        .parse(toks.iter().cloned().map(Ok::<_, LexError>))
        .map_err(|e| at_unclosed(convert(e, src.len()), &toks, src))?;
    shallow(&e)?;
    Ok(e)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An unclosed bracket is reported where it opens, not at the token
    /// of a later line that the statement ran on to.
    #[test]
    fn an_unclosed_bracket_is_reported_where_it_opens() {
        let e = parse_file("a = (u. -> .\nb = u\nc = r\n").unwrap_err();
        assert_eq!(e.span, Span::new(4, 5), "{e:?}");
        assert!(e.message.starts_with("this `(` is never closed"), "{}", e.message);
        assert!(e.message.contains("line 2, where `=` does not fit"), "{}", e.message);
        let e = parse_file("x = u\na = (u. -> . +\n   (u. -> .)\n").unwrap_err();
        assert_eq!(e.span, Span::new(10, 11), "{e:?}");
        assert!(e.message.contains("to the end of the file"), "{}", e.message);
        let e = parse_file("a = M{1,\nb = u\n").unwrap_err();
        assert!(e.message.starts_with("this `{` is never closed"), "{}", e.message);
        assert_eq!(e.span, Span::new(5, 6), "{e:?}");
        let e = parse_expr("(u. -> .").unwrap_err();
        assert!(e.message.contains("never closed"), "{}", e.message);
        // An error on the bracket's own line is the parser's.
        let e = parse_file("a = (u. = b)\n").unwrap_err();
        assert!(e.message.starts_with("unexpected `=`"), "{}", e.message);
        let e = parse_file("a = (u. -> .) )\n").unwrap_err();
        assert!(e.message.starts_with("unexpected `)`"), "{}", e.message);
    }
}
