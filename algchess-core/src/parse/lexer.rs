//! The hand-written lexer. The grammar needs one for four things lalrpop's
//! own lexer cannot do: Unicode piece glyphs and superscript powers, telling
//! postfix `+` from glue `+`, binders `%♖:`, and newlines that end a
//! statement only where the statement could end.

use crate::diag::Span;
use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Tok {
    /// A piece glyph such as `♖`, or an ASCII spelling such as `'R`.
    Piece(String),
    Dot,
    Hash,
    Percent,
    /// `%c:`, holding the text of `c`.
    Binder(String),
    Word(String),
    /// A word directly followed by `(`: a call, or a movement applied.
    Callee(String),
    Num(i64),
    /// A quoted file path: `"../rules/chess.alg"`.
    Str(String),
    /// A superscript integer such as `²` or `⁻¹`.
    Sup(i64),
    Nil,
    Fail,
    Theorem,
    Axiom,
    PieceKw,
    Where,
    Not,
    Game,
    Import,
    Override,
    GridKw,
    /// `*!`: greedy repetition.
    Greedy,
    /// Glue `+`.
    Plus,
    /// Postfix `+`: one or more.
    PostPlus,
    Star,
    Question,
    Bar,
    Arrow,
    Semi,
    Colon,
    Comma,
    Eq,
    /// `=>`: an equation the prover uses left to right only.
    Oriented,
    NotEq,
    LParen,
    RParen,
    LBrace,
    RBrace,
    LAngle,
    RAngle,
    Caret,
    Slash,
    Newline,
}

impl fmt::Display for Tok {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = match self {
            Tok::Piece(p) => return write!(f, "piece `{p}`"),
            Tok::Binder(c) => return write!(f, "binder `%{c}:`"),
            Tok::Word(w) | Tok::Callee(w) => return write!(f, "name `{w}`"),
            Tok::Num(n) => return write!(f, "number `{n}`"),
            Tok::Str(s) => return write!(f, "text `\"{s}\"`"),
            Tok::Sup(n) => return write!(f, "power `^{n}`"),
            Tok::Dot => "`.`",
            Tok::Hash => "`#`",
            Tok::Percent => "`%`",
            Tok::Nil => "`nil`",
            Tok::Fail => "`fail`",
            Tok::Theorem => "`theorem`",
            Tok::Axiom => "`axiom`",
            Tok::PieceKw => "`piece`",
            Tok::Where => "`where`",
            Tok::Not => "`not`",
            Tok::Game => "`game`",
            Tok::Import => "`import`",
            Tok::Override => "`override`",
            Tok::GridKw => "`grid`",
            Tok::Greedy => "`*!`",
            Tok::Plus => "`+`",
            Tok::PostPlus => "postfix `+`",
            Tok::Star => "`*`",
            Tok::Question => "`?`",
            Tok::Bar => "`|`",
            Tok::Arrow => "`->`",
            Tok::Semi => "`;`",
            Tok::Colon => "`:`",
            Tok::Comma => "`,`",
            Tok::Eq => "`=`",
            Tok::Oriented => "`=>`",
            Tok::NotEq => "`!=`",
            Tok::LParen => "`(`",
            Tok::RParen => "`)`",
            Tok::LBrace => "`{`",
            Tok::RBrace => "`}`",
            Tok::LAngle => "`<`",
            Tok::RAngle => "`>`",
            Tok::Caret => "`^`",
            Tok::Slash => "`/`",
            Tok::Newline => "end of line",
        };
        f.write_str(s)
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct LexError {
    pub span: Span,
    pub message: String,
}

/// A `//` comment, kept so that `fmt` can put it back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Comment {
    pub span: Span,
    pub text: String,
}

pub(crate) type Spanned = (usize, Tok, usize);

const CHESS_GLYPHS: &str = "♔♕♖♗♘♙♚♛♜♝♞♟";

fn superscript_digit(c: char) -> Option<i64> {
    Some(match c {
        '⁰' => 0,
        '¹' => 1,
        '²' => 2,
        '³' => 3,
        '⁴' => 4,
        '⁵' => 5,
        '⁶' => 6,
        '⁷' => 7,
        '⁸' => 8,
        '⁹' => 9,
        _ => return None,
    })
}

/// Any other non-ASCII symbol is a piece glyph (declared with `piece`).
fn is_glyph(c: char) -> bool {
    CHESS_GLYPHS.contains(c)
        || (!c.is_ascii() && !c.is_alphanumeric() && !c.is_whitespace() && superscript_digit(c).is_none() && c != '⁻')
}

fn is_word_start(c: char) -> bool {
    c.is_ascii_alphabetic() || c == '_'
}

fn is_word_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

fn keyword(w: &str) -> Option<Tok> {
    Some(match w {
        "nil" => Tok::Nil,
        "fail" => Tok::Fail,
        "theorem" => Tok::Theorem,
        "axiom" => Tok::Axiom,
        "piece" => Tok::PieceKw,
        "where" => Tok::Where,
        "not" => Tok::Not,
        "game" => Tok::Game,
        "import" => Tok::Import,
        "override" => Tok::Override,
        "grid" => Tok::GridKw,
        _ => return None,
    })
}

pub(crate) const KEYWORDS: [&str; 11] = [
    "nil", "fail", "theorem", "axiom", "piece", "where", "not", "game", "import", "grid", "override",
];

struct Lexer<'a> {
    src: &'a str,
    pos: usize,
    toks: Vec<Spanned>,
    comments: Vec<Comment>,
    /// Brackets open at this point; newlines inside brackets are spaces.
    depth: Vec<Tok>,
}

impl<'a> Lexer<'a> {
    fn peek(&self) -> Option<char> {
        self.src[self.pos..].chars().next()
    }

    fn peek_at(&self, at: usize) -> Option<char> {
        self.src.get(at..).and_then(|s| s.chars().next())
    }

    fn err<T>(&self, start: usize, end: usize, message: impl Into<String>) -> Result<T, LexError> {
        Err(LexError {
            span: Span::new(start, end),
            message: message.into(),
        })
    }

    fn push(&mut self, start: usize, tok: Tok) {
        self.toks.push((start, tok, self.pos));
    }

    /// Reads a piece spelling at `at`: a glyph, or `'` and a name. Returns
    /// its text and where it ends.
    fn piece_at(&self, at: usize) -> Option<(String, usize)> {
        let c = self.peek_at(at)?;
        if c == '\'' {
            let rest = &self.src[at + 1..];
            let first = rest.chars().next()?;
            if !is_word_start(first) {
                return None;
            }
            let len = rest.find(|c: char| !is_word_char(c)).unwrap_or(rest.len());
            return Some((self.src[at..at + 1 + len].to_string(), at + 1 + len));
        }
        if is_glyph(c) {
            let mut end = at + c.len_utf8();
            // Skip emoji presentation selectors: `♟️` is `♟`.
            while let Some(v @ ('\u{FE0E}' | '\u{FE0F}')) = self.peek_at(end) {
                end += v.len_utf8();
            }
            return Some((c.to_string(), end));
        }
        None
    }

    fn skip_spaces(&self, mut at: usize) -> usize {
        while let Some(c @ (' ' | '\t')) = self.peek_at(at) {
            at += c.len_utf8();
        }
        at
    }

    /// After `%` at `start`: a binder `%c:` when a cell and a colon follow.
    fn binder(&self, start: usize) -> Option<(String, usize)> {
        let at = self.skip_spaces(start + 1);
        let (cell, end) = if self.peek_at(at) == Some('.') {
            (".".to_string(), at + 1)
        } else if let Some(p) = self.piece_at(at) {
            p
        } else if self.peek_at(at).is_some_and(is_word_start) {
            let rest = &self.src[at..];
            let len = rest.find(|c: char| !is_word_char(c)).unwrap_or(rest.len());
            (rest[..len].to_string(), at + len)
        } else {
            return None;
        };
        let colon = self.skip_spaces(end);
        (self.peek_at(colon) == Some(':')).then(|| (cell, colon + 1))
    }

    /// Whether the `+` at `at` is postfix: glued to an operand on its left,
    /// and followed by something that cannot start an operand.
    fn postfix_plus(&self, at: usize) -> bool {
        let glued_left = self.toks.last().is_some_and(|(_, t, end)| {
            *end == at
                && matches!(
                    t,
                    Tok::RParen
                        | Tok::Word(_)
                        | Tok::Piece(_)
                        | Tok::Dot
                        | Tok::Hash
                        | Tok::Percent
                        | Tok::Nil
                        | Tok::Fail
                        | Tok::RBrace
                        | Tok::RAngle
                        | Tok::Star
                        | Tok::Greedy
                        | Tok::Question
                        | Tok::PostPlus
                        | Tok::Sup(_)
                        | Tok::Num(_)
                )
        });
        let next = self.peek_at(at + 1);
        let ends_operand = match next {
            None => true,
            Some(c) => {
                c.is_whitespace()
                    || ")|,}+*?{<;=!".contains(c)
                    || self.src[at + 1..].starts_with("->")
                    || self.src[at + 1..].starts_with("//")
            }
        };
        glued_left && ends_operand
    }

    fn number(&mut self, start: usize, negative: bool) -> Result<(), LexError> {
        let digits_start = self.pos;
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.pos += 1;
        }
        let text = &self.src[digits_start..self.pos];
        let Ok(n) = text.parse::<i64>() else {
            return self.err(start, self.pos, "number too large");
        };
        self.push(start, Tok::Num(if negative { -n } else { n }));
        Ok(())
    }

    /// `"text"`, closed on its line.
    fn string(&mut self, start: usize) -> Result<(), LexError> {
        let rest = &self.src[start + 1..];
        let Some(len) = rest.find(['"', '\n']).filter(|&n| rest[n..].starts_with('"')) else {
            let end = start + 1 + rest.find('\n').unwrap_or(rest.len());
            return self.err(start, end, "this text has no closing `\"` on its line");
        };
        self.pos = start + 1 + len + 1;
        self.push(start, Tok::Str(rest[..len].to_string()));
        Ok(())
    }

    /// A superscript number (`²`, `⁻¹`), starting with `c`.
    fn superscript(&mut self, start: usize, c: char) -> Result<(), LexError> {
        let negative = c == '⁻';
        if negative {
            self.pos += c.len_utf8();
        }
        let mut n: i64 = 0;
        let mut any = false;
        while let Some(d) = self.peek().and_then(superscript_digit) {
            let Some(next) = n.checked_mul(10).and_then(|n| n.checked_add(d)) else {
                return self.err(start, self.pos, "number too large");
            };
            n = next;
            any = true;
            self.pos += self.peek().unwrap().len_utf8();
        }
        if !any {
            return self.err(
                start,
                self.pos,
                "`⁻` must be followed by superscript digits, as in `⁻¹`",
            );
        }
        self.push(start, Tok::Sup(if negative { -n } else { n }));
        Ok(())
    }

    /// A keyword, a name, or a name called (`f(`).
    fn word(&mut self, start: usize) {
        let rest = &self.src[start..];
        let len = rest.find(|c: char| !is_word_char(c)).unwrap_or(rest.len());
        self.pos += len;
        let w = rest[..len].to_string();
        let tok = match keyword(&w) {
            Some(k) => k,
            None if self.peek() == Some('(') => Tok::Callee(w),
            None => Tok::Word(w),
        };
        self.push(start, tok);
    }

    /// A one-character token, brackets counted for newlines.
    fn punctuation(&mut self, start: usize, c: char) -> Result<(), LexError> {
        let simple = match c {
            '*' => Tok::Star,
            '?' => Tok::Question,
            '|' => Tok::Bar,
            ';' => Tok::Semi,
            ':' => Tok::Colon,
            ',' => Tok::Comma,
            '=' => Tok::Eq,
            '(' => Tok::LParen,
            ')' => Tok::RParen,
            '{' => Tok::LBrace,
            '}' => Tok::RBrace,
            '<' => Tok::LAngle,
            '>' => Tok::RAngle,
            '^' => Tok::Caret,
            '\'' => return self.err(start, start + 1, "`'` must be followed by a piece name, as in `'R`"),
            _ => {
                return self.err(start, start + c.len_utf8(), format!("unexpected character `{c}`"));
            }
        };
        self.pos += c.len_utf8();
        match simple {
            Tok::LParen | Tok::LBrace => self.depth.push(simple.clone()),
            Tok::RParen | Tok::RBrace => {
                self.depth.pop();
            }
            _ => {}
        }
        self.push(start, simple);
        Ok(())
    }

    fn run(mut self) -> Result<(Vec<Spanned>, Vec<Comment>), LexError> {
        while let Some(c) = self.peek() {
            let start = self.pos;
            match c {
                '\n' => {
                    self.pos += 1;
                    if self.depth.is_empty() {
                        self.push(start, Tok::Newline);
                    }
                }
                c if c.is_whitespace() => self.pos += c.len_utf8(),
                '/' if self.src[start..].starts_with("//") => {
                    let len = self.src[start..].find('\n').unwrap_or(self.src.len() - start);
                    self.pos += len;
                    self.comments.push(Comment {
                        span: Span::new(start, self.pos),
                        text: self.src[start + 2..self.pos].trim_end().to_string(),
                    });
                }
                '/' => {
                    self.pos += 1;
                    self.push(start, Tok::Slash);
                }
                '%' => {
                    if let Some((cell, end)) = self.binder(start) {
                        self.pos = end;
                        self.push(start, Tok::Binder(cell));
                    } else {
                        self.pos += 1;
                        self.push(start, Tok::Percent);
                    }
                }
                '.' => {
                    self.pos += 1;
                    self.push(start, Tok::Dot);
                }
                '#' => {
                    self.pos += 1;
                    self.push(start, Tok::Hash);
                }
                '"' => self.string(start)?,
                '+' => {
                    let tok = if self.postfix_plus(start) {
                        Tok::PostPlus
                    } else {
                        Tok::Plus
                    };
                    self.pos += 1;
                    self.push(start, tok);
                }
                '-' if self.src[start..].starts_with("->") => {
                    self.pos += 2;
                    self.push(start, Tok::Arrow);
                }
                '-' if self.peek_at(start + 1).is_some_and(|c| c.is_ascii_digit()) => {
                    self.pos += 1;
                    self.number(start, true)?;
                }
                '=' if self.src[start..].starts_with("=>") => {
                    self.pos += 2;
                    self.push(start, Tok::Oriented);
                }
                '*' if self.src[start..].starts_with("*!") && !self.src[start..].starts_with("*!=") => {
                    self.pos += 2;
                    self.push(start, Tok::Greedy);
                }
                '!' if self.src[start..].starts_with("!=") => {
                    self.pos += 2;
                    self.push(start, Tok::NotEq);
                }
                '⁻' | '⁰' | '¹' | '²' | '³' | '⁴' | '⁵' | '⁶' | '⁷' | '⁸' | '⁹' => {
                    self.superscript(start, c)?
                }
                c if c.is_ascii_digit() => self.number(start, false)?,
                c if is_word_start(c) => self.word(start),
                _ if self.piece_at(start).is_some() => {
                    let (p, end) = self.piece_at(start).unwrap();
                    self.pos = end;
                    self.push(start, Tok::Piece(p));
                }
                _ => self.punctuation(start, c)?,
            }
        }
        Ok((layout(self.toks, self.src), self.comments))
    }
}

/// A newline ends a statement unless the statement plainly continues: the
/// line ends with an operator, the next line starts with one, or the next
/// line is indented.
fn layout(toks: Vec<Spanned>, src: &str) -> Vec<Spanned> {
    let indented = |at: usize| {
        let line_start = src[..at].rfind('\n').map_or(0, |i| i + 1);
        at > line_start
    };
    let continues_after = |t: &Tok| {
        matches!(
            t,
            Tok::Plus
                | Tok::Bar
                | Tok::Arrow
                | Tok::Semi
                | Tok::Colon
                | Tok::Comma
                | Tok::Eq
                | Tok::Oriented
                | Tok::NotEq
                | Tok::Binder(_)
                | Tok::Where
                | Tok::Slash
        )
    };
    let continues_before = |t: &Tok| matches!(t, Tok::Plus | Tok::Bar | Tok::Arrow | Tok::Semi);
    let mut out: Vec<Spanned> = Vec::with_capacity(toks.len());
    for (i, tok) in toks.iter().enumerate() {
        if tok.1 == Tok::Newline {
            let prev = out.last().map(|t| &t.1);
            let next = toks[i + 1..].iter().find(|t| t.1 != Tok::Newline);
            let keep = match (prev, next) {
                (None, _) | (_, None) => false,
                (Some(Tok::Newline), _) => false,
                (Some(p), Some(n)) => !continues_after(p) && !continues_before(&n.1) && !indented(n.0),
            };
            if !keep {
                continue;
            }
        }
        out.push(tok.clone());
    }
    out
}

/// Splits source text into tokens and comments.
pub(crate) fn lex(src: &str) -> Result<(Vec<Spanned>, Vec<Comment>), LexError> {
    Lexer {
        src,
        // A byte order mark is not part of the text (spans keep counting
        // from the file's first byte).
        pos: if src.starts_with('\u{feff}') { 3 } else { 0 },
        toks: vec![],
        comments: vec![],
        depth: vec![],
    }
    .run()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_byte_order_mark_is_skipped() {
        assert_eq!(toks("\u{feff}x"), toks("x"));
    }

    fn toks(s: &str) -> Vec<Tok> {
        lex(s).unwrap().0.into_iter().map(|t| t.1).collect()
    }

    #[test]
    fn postfix_plus_is_told_from_glue() {
        let t = toks("(% + u. -> . + u%)+");
        assert_eq!(t.iter().filter(|t| **t == Tok::Plus).count(), 2);
        assert_eq!(t.last(), Some(&Tok::PostPlus));
        assert_eq!(
            toks("a+b"),
            vec![Tok::Word("a".into()), Tok::Plus, Tok::Word("b".into())]
        );
        assert_eq!(toks("M+ N")[1], Tok::PostPlus);
        assert_eq!(toks("M+|N")[1], Tok::PostPlus);
        assert_eq!(toks("M + N")[1], Tok::Plus);
    }

    #[test]
    fn binders_superscripts_and_callees() {
        assert_eq!(toks("%♖: nil")[0], Tok::Binder("♖".into()));
        assert_eq!(toks("%.: nil")[0], Tok::Binder(".".into()));
        assert_eq!(toks("%'R : nil")[0], Tok::Binder("'R".into()));
        assert_eq!(
            toks("% + u."),
            vec![Tok::Percent, Tok::Plus, Tok::Word("u".into()), Tok::Dot]
        );
        assert_eq!(toks("R²"), vec![Tok::Word("R".into()), Tok::Sup(2)]);
        assert_eq!(toks("m⁻¹"), vec![Tok::Word("m".into()), Tok::Sup(-1)]);
        assert_eq!(toks("R^-1")[2], Tok::Num(-1));
        assert_eq!(toks("u(♙)")[0], Tok::Callee("u".into()));
        assert_eq!(toks("♟️"), vec![Tok::Piece("♟".into())]);
        assert_eq!(
            toks("♙0♙"),
            vec![Tok::Piece("♙".into()), Tok::Num(0), Tok::Piece("♙".into())]
        );
    }

    #[test]
    fn newlines_end_statements_only_where_they_can() {
        let t = toks("a = ♙ +\n  ♟\nb = (♙\n)\nc = ♙\n  | ♟\n");
        assert_eq!(t.iter().filter(|t| **t == Tok::Newline).count(), 2);
    }

    #[test]
    fn indented_lines_continue_the_statement() {
        let t = toks("a = b\n    c\nd = e\n");
        assert_eq!(t.iter().filter(|t| **t == Tok::Newline).count(), 1);
    }

    #[test]
    fn comments_are_kept_aside() {
        let (t, c) = lex("a = ♙ // a pawn\n").unwrap();
        assert_eq!(t.len(), 3);
        assert_eq!(c[0].text, " a pawn");
    }

    #[test]
    fn bad_characters_are_reported_with_their_span() {
        let e = lex("a = ♙ $ b").unwrap_err();
        assert_eq!(e.span, Span::new(8, 9));
    }
}
