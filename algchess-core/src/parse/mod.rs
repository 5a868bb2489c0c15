//! Text to syntax tree: the lexer, the lalrpop grammar and the formatter.

// The tree mirrors the grammar (`grammar.lalrpop`), which documents it.
#[allow(missing_docs)]
pub mod ast;
mod format;
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
        .parse(toks.into_iter().map(Ok::<_, LexError>))
        .map_err(|e| convert(e, src.len()))?;
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
    let toks = toks.into_iter().filter(|t| t.1 != Tok::Newline);
    let e = grammar::ExprParser::new()
        .parse(toks.map(Ok::<_, LexError>))
        .map_err(|e| convert(e, src.len()))?;
    shallow(&e)?;
    Ok(e)
}
