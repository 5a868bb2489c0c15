//! Tokens of a ply list: brackets, punctuation, numbers and words.

use crate::diag::{Diag, Diags, Source, Span};

#[derive(Clone, Debug, PartialEq)]
pub(super) enum Tok {
    Open(char),
    Close(char),
    Comma,
    End,
    Colon,
    Plus,
    Minus,
    Star,
    Any,
    Int(i32),
    Word(String),
}

pub(super) fn lex(text: &str, src: &Source) -> Result<Vec<(Tok, Span)>, Diags> {
    let mut out = vec![];
    let mut it = text.char_indices().peekable();
    while let Some((i, c)) = it.next() {
        let one = Span::new(i, i + c.len_utf8());
        let tok = match c {
            c if c.is_whitespace() => continue,
            '[' | '(' => Tok::Open(c),
            ']' | ')' => Tok::Close(c),
            ',' => Tok::Comma,
            ';' | '.' => Tok::End,
            ':' => Tok::Colon,
            '+' => Tok::Plus,
            '-' => Tok::Minus,
            '*' => Tok::Star,
            '?' => Tok::Any,
            c if c.is_ascii_digit() => {
                let mut end = i + 1;
                while let Some((j, d)) = it.peek().copied().filter(|(_, d)| d.is_ascii_digit()) {
                    end = j + d.len_utf8();
                    it.next();
                }
                let n = text[i..end].parse::<i32>().ok().filter(|n| *n <= 64);
                let Some(n) = n else {
                    return Err(Diag::new(src, Span::new(i, end), "number too large for a board").into());
                };
                out.push((Tok::Int(n), Span::new(i, end)));
                continue;
            }
            c if c.is_ascii_alphabetic() || c == '_' => {
                let mut end = i + 1;
                while let Some((j, d)) = it
                    .peek()
                    .copied()
                    .filter(|(_, d)| d.is_ascii_alphanumeric() || *d == '_')
                {
                    end = j + d.len_utf8();
                    it.next();
                }
                out.push((Tok::Word(text[i..end].to_string()), Span::new(i, end)));
                continue;
            }
            _ => {
                return Err(Diag::new(src, one, format!("unexpected `{c}` in a referee ply"))
                    .label("not part of the notation")
                    .into())
            }
        };
        out.push((tok, one));
    }
    Ok(out)
}

// ---------------------------------------------------------------- parsing
