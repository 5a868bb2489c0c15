//! Reading a ply list: headers, plies `[VECTOR] if CONDITION then ACTION;`
//! and the `Globally:` condition, each with its span.

use super::contents::{W_BISHOP, W_KNIGHT, W_QUEEN, W_ROOK};
use super::lex::{lex, Tok};
use super::Off;
use crate::diag::{Diag, Diags, Source, Span};
use crate::parse::MAX_NESTING;

/// The sections of a ply list, and its global condition.
pub(super) type Plies = (Vec<Section>, Option<(Cond, Span)>);

/// Reads a ply list; at least one ply.
pub(super) fn read(text: &str, src: &Source) -> Result<Plies, Diags> {
    let mut p = Parser {
        toks: lex(text, src)?,
        pos: 0,
        src,
        len: text.len(),
        depth: 0,
    };
    let plies = p.file()?;
    if plies.0.is_empty() {
        return Err(Diag::new(src, Span::new(0, text.len()), "no plies").into());
    }
    Ok(plies)
}

/// One component of a ply vector: a number or the shared distance `?`.
#[derive(Clone, Copy, Debug)]
pub(super) enum Comp {
    Num(i32),
    Any(i32),
}

#[derive(Clone, Debug)]
pub(super) enum Arg {
    King(Span),
    KingsRook(Span),
    QueensRook(Span),
    Vec(Off, Span),
    Word(String, Span),
}

#[derive(Clone, Debug)]
pub(super) enum Cond {
    Or(Vec<Cond>),
    And(Vec<Cond>),
    Not(Box<Cond>),
    Pred(String, Vec<Arg>, Span),
}

#[derive(Clone, Debug)]
pub(super) enum Action {
    Mutate(Vec<u32>),
    Move(Arg, Arg, Span),
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Kind {
    Any,
    Pawn,
    Knight,
    Bishop,
    Rook,
    Queen,
    King,
}

pub(super) struct PlySpec {
    pub(super) vector: [Comp; 2],
    pub(super) cond: Option<Cond>,
    pub(super) actions: Vec<Action>,
    pub(super) span: Span,
}

/// The plies under one header.
pub(super) struct Section {
    pub(super) kind: Kind,
    pub(super) plies: Vec<PlySpec>,
}

struct Parser<'a> {
    toks: Vec<(Tok, Span)>,
    pos: usize,
    src: &'a Source,
    len: usize,
    /// The `not`s and brackets open around the token at `pos`.
    depth: usize,
}

impl Parser<'_> {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.pos).map(|t| &t.0)
    }
    fn peek_at(&self, k: usize) -> Option<&Tok> {
        self.toks.get(self.pos + k).map(|t| &t.0)
    }
    fn span(&self) -> Span {
        self.toks
            .get(self.pos)
            .map(|t| t.1)
            .unwrap_or(Span::new(self.len, self.len))
    }
    fn prev_end(&self) -> usize {
        self.pos.checked_sub(1).map(|p| self.toks[p].1.end).unwrap_or(0)
    }
    fn bump(&mut self) -> (Tok, Span) {
        let t = self.toks[self.pos].clone();
        self.pos += 1;
        t
    }
    fn err<T>(&self, span: Span, msg: impl Into<String>) -> Result<T, Diags> {
        Err(Diag::new(self.src, span, msg).into())
    }
    fn word_is(&self, w: &str) -> bool {
        matches!(self.peek(), Some(Tok::Word(x)) if x == w)
    }
    /// One level deeper, at `at`: an error past the nesting cap, since
    /// reading and lowering recurse over conditions and vectors.
    fn deeper(&mut self, at: Span) -> Result<(), Diags> {
        self.depth += 1;
        if self.depth > MAX_NESTING {
            return self.err(
                at,
                format!("this is nested more than {MAX_NESTING} levels deep (each `not` and bracket is a level)"),
            );
        }
        Ok(())
    }

    fn expect_close(&mut self, open: char, at: Span) -> Result<(), Diags> {
        let want = if open == '[' { ']' } else { ')' };
        match self.peek() {
            Some(Tok::Close(c)) if *c == want => {
                self.bump();
                Ok(())
            }
            _ => Err(Diag::new(self.src, self.span(), format!("expected `{want}`"))
                .note(at, "unbalanced bracket opened here")
                .into()),
        }
    }

    fn file(&mut self) -> Result<Plies, Diags> {
        let mut sections: Vec<Section> = vec![];
        let mut global: Option<(Cond, Span)> = None;
        let mut kind = Kind::Any;
        let mut in_global = false;
        while self.peek().is_some() {
            if let (Some(Tok::Word(w)), Some(Tok::Colon)) = (self.peek(), self.peek_at(1)) {
                let w = w.to_ascii_lowercase();
                let span = self.span();
                let k = match w.trim_end_matches('s') {
                    "pawn" => Kind::Pawn,
                    "knight" => Kind::Knight,
                    "bishop" => Kind::Bishop,
                    "rook" => Kind::Rook,
                    "queen" => Kind::Queen,
                    "king" => Kind::King,
                    "globally" => {
                        in_global = true;
                        self.pos += 2;
                        continue;
                    }
                    _ => {
                        return Err(Diag::new(self.src, span, format!("unknown header `{w}:`"))
                            .help("headers are Pawns, Knights, Bishops, Rooks, Queens, Kings and Globally")
                            .into())
                    }
                };
                self.pos += 2;
                kind = k;
                in_global = false;
                continue;
            }
            if matches!(self.peek(), Some(Tok::End)) {
                self.bump();
                continue;
            }
            if in_global {
                let start = self.span().start;
                let c = self.cond()?;
                let span = Span::new(start, self.prev_end());
                self.end_of_ply()?;
                global = Some(match global {
                    None => (c, span),
                    Some((g, s)) => (Cond::And(vec![g, c]), s.to(span)),
                });
                continue;
            }
            let ply = self.ply()?;
            match sections.last_mut() {
                Some(s) if s.kind == kind => s.plies.push(ply),
                _ => sections.push(Section { kind, plies: vec![ply] }),
            }
        }
        Ok((sections, global))
    }

    fn end_of_ply(&mut self) -> Result<(), Diags> {
        match self.peek() {
            None => Ok(()),
            Some(Tok::End) => {
                self.bump();
                Ok(())
            }
            _ => self.err(self.span(), "expected `;` at the end of the ply"),
        }
    }

    fn ply(&mut self) -> Result<PlySpec, Diags> {
        let start = self.span();
        let Some(Tok::Open('[')) = self.peek() else {
            return Err(
                Diag::new(self.src, start, "a ply starts with its vector, such as `[ahead]`")
                    .label("expected `[`")
                    .into(),
            );
        };
        self.bump();
        let vector = if self.pair_ahead() {
            let x = self.comp()?;
            self.bump(); // the comma
            let y = self.comp()?;
            [x, y]
        } else {
            let (v, span) = self.vsum()?;
            if v == (0, 0) {
                return self.err(span, "this vector does not move the piece");
            }
            [Comp::Num(v.0), Comp::Num(v.1)]
        };
        self.expect_close('[', start)?;
        let vspan = Span::new(start.start, self.prev_end());
        if let [Comp::Num(0), Comp::Num(0)] = vector {
            return self.err(vspan, "this vector does not move the piece");
        }
        let cond = if self.word_is("if") {
            self.bump();
            Some(self.cond()?)
        } else {
            None
        };
        let mut actions = vec![];
        if self.word_is("then") {
            self.bump();
            loop {
                actions.push(self.action()?);
                if matches!(self.peek(), Some(Tok::Comma)) || self.word_is("and") {
                    self.bump();
                } else {
                    break;
                }
            }
        }
        let span = Span::new(start.start, self.prev_end());
        self.end_of_ply()?;
        Ok(PlySpec {
            vector,
            cond,
            actions,
            span,
        })
    }

    /// Whether a `[x, y]` pair of components follows the `[` just read.
    fn pair_ahead(&self) -> bool {
        let mut k = 0;
        if matches!(self.peek_at(k), Some(Tok::Plus | Tok::Minus)) {
            k += 1;
        }
        matches!(self.peek_at(k), Some(Tok::Int(_) | Tok::Any)) && matches!(self.peek_at(k + 1), Some(Tok::Comma))
    }

    fn comp(&mut self) -> Result<Comp, Diags> {
        let mut sign = 1;
        match self.peek() {
            Some(Tok::Plus) => {
                self.bump();
            }
            Some(Tok::Minus) => {
                self.bump();
                sign = -1;
            }
            _ => {}
        }
        match self.peek() {
            Some(Tok::Int(n)) => {
                let n = *n;
                self.bump();
                Ok(Comp::Num(sign * n))
            }
            Some(Tok::Any) => {
                self.bump();
                Ok(Comp::Any(sign))
            }
            _ => self.err(self.span(), "expected a number or `?`"),
        }
    }

    /// A sum of vectors: `ahead + left`, `king * 2`, `left - [0, 2]`.
    fn vsum(&mut self) -> Result<(Off, Span), Diags> {
        let start = self.span().start;
        let mut sign = 1;
        if matches!(self.peek(), Some(Tok::Minus)) {
            self.bump();
            sign = -1;
        }
        let mut v = self.vterm()?;
        v = (v.0 * sign, v.1 * sign);
        loop {
            let s = match self.peek() {
                Some(Tok::Plus) => 1,
                Some(Tok::Minus) => -1,
                _ => break,
            };
            self.bump();
            let w = self.vterm()?;
            v = (v.0 + s * w.0, v.1 + s * w.1);
        }
        Ok((v, Span::new(start, self.prev_end())))
    }

    fn vterm(&mut self) -> Result<Off, Diags> {
        if let Some(Tok::Int(n)) = self.peek() {
            let n = *n;
            let at = self.span();
            self.bump();
            if !matches!(self.peek(), Some(Tok::Star)) {
                return self.err(at, "a number alone is not a vector: write `[x, y]` or `N * vector`");
            }
            self.bump();
            let v = self.vatom()?;
            return Ok((v.0 * n, v.1 * n));
        }
        let mut v = self.vatom()?;
        while matches!(self.peek(), Some(Tok::Star)) {
            self.bump();
            match self.peek() {
                Some(Tok::Int(n)) => {
                    let n = *n;
                    self.bump();
                    v = (v.0 * n, v.1 * n);
                }
                _ => return self.err(self.span(), "a vector is multiplied by a number"),
            }
        }
        Ok(v)
    }

    fn vatom(&mut self) -> Result<Off, Diags> {
        let at = self.span();
        match self.peek().cloned() {
            Some(Tok::Word(w)) => {
                self.bump();
                match w.as_str() {
                    "ahead" => Ok((0, 1)),
                    "left" | "queen" => Ok((-1, 0)),
                    "right" | "king" => Ok((1, 0)),
                    _ => Err(Diag::new(self.src, at, format!("unknown vector `{w}`"))
                        .help("vectors are ahead, left, right, king, queen and [x, y]")
                        .into()),
                }
            }
            Some(Tok::Open(c)) => {
                self.bump();
                self.deeper(at)?;
                if c == '[' && self.pair_ahead() {
                    let x = self.comp()?;
                    self.bump();
                    let y = self.comp()?;
                    self.expect_close(c, at)?;
                    self.depth -= 1;
                    return match (x, y) {
                        (Comp::Num(x), Comp::Num(y)) => Ok((x, y)),
                        _ => self.err(
                            Span::new(at.start, self.prev_end()),
                            "`?` stands only in a ply's own vector",
                        ),
                    };
                }
                let v = self.vsum()?.0;
                self.expect_close(c, at)?;
                self.depth -= 1;
                Ok(v)
            }
            Some(Tok::Any) => self.err(at, "`?` stands only as a component of a ply's `[x, y]`"),
            _ => self.err(at, "expected a vector"),
        }
    }

    fn cond(&mut self) -> Result<Cond, Diags> {
        self.chain("or", Self::conj, Cond::Or)
    }

    fn conj(&mut self) -> Result<Cond, Diags> {
        self.chain("and", Self::unary, Cond::And)
    }

    /// Terms read by `term` between the words `word`, joined by `join`
    /// when there are several.
    fn chain(
        &mut self,
        word: &str,
        term: fn(&mut Self) -> Result<Cond, Diags>,
        join: fn(Vec<Cond>) -> Cond,
    ) -> Result<Cond, Diags> {
        let mut all = vec![term(self)?];
        while self.word_is(word) {
            self.bump();
            all.push(term(self)?);
        }
        Ok(match all.len() {
            1 => all.remove(0),
            _ => join(all),
        })
    }

    fn unary(&mut self) -> Result<Cond, Diags> {
        let at = self.span();
        match self.peek().cloned() {
            Some(Tok::Word(w)) if w == "not" => {
                self.bump();
                self.deeper(at)?;
                let c = self.unary()?;
                self.depth -= 1;
                Ok(Cond::Not(Box::new(c)))
            }
            Some(Tok::Open('(')) => {
                self.bump();
                self.deeper(at)?;
                let c = self.cond()?;
                self.expect_close('(', at)?;
                self.depth -= 1;
                Ok(c)
            }
            Some(Tok::Word(w)) => {
                self.bump();
                let args = match self.peek().cloned() {
                    Some(Tok::Open(c)) => self.bracketed(c, Self::arg)?,
                    _ => vec![],
                };
                Ok(Cond::Pred(w, args, Span::new(at.start, self.prev_end())))
            }
            _ => self.err(at, "expected a predicate such as `empty` or `not friend`"),
        }
    }

    fn arg(&mut self) -> Result<Arg, Diags> {
        let at = self.span();
        if let Some(Tok::Word(w)) = self.peek().cloned() {
            if matches!(self.peek_at(1), Some(Tok::Comma | Tok::Close(_))) {
                let named = match w.as_str() {
                    "king" => Some(Arg::King(at)),
                    "kings_rook" => Some(Arg::KingsRook(at)),
                    "queens_rook" => Some(Arg::QueensRook(at)),
                    "ahead" | "left" | "right" | "queen" => None,
                    _ => Some(Arg::Word(w.clone(), at)),
                };
                if let Some(a) = named {
                    self.bump();
                    return Ok(a);
                }
            }
        }
        let (v, span) = self.vsum()?;
        Ok(Arg::Vec(v, span))
    }

    /// `[a, b, ...]` or `(a, ...)`, each item read by `item`, from the
    /// opening bracket `open` on.
    fn bracketed(
        &mut self,
        open: char,
        mut item: impl FnMut(&mut Self) -> Result<Arg, Diags>,
    ) -> Result<Vec<Arg>, Diags> {
        let at = self.span();
        self.bump();
        let mut items = vec![item(self)?];
        while matches!(self.peek(), Some(Tok::Comma)) {
            self.bump();
            items.push(item(self)?);
        }
        self.expect_close(open, at)?;
        Ok(items)
    }

    fn action(&mut self) -> Result<Action, Diags> {
        let at = self.span();
        let Some(Tok::Word(w)) = self.peek().cloned() else {
            return self.err(at, "expected an action: `mutate[...]` or `move[from, to]`");
        };
        self.bump();
        let Some(Tok::Open(c)) = self.peek().cloned() else {
            return self.err(self.span(), format!("`{w}` takes its arguments in brackets"));
        };
        // Pieces are words here, not the vectors `king`, `queen`.
        let piece = |p: &mut Self| match p.peek().cloned() {
            Some(Tok::Word(w)) => {
                let a = Arg::Word(w, p.span());
                p.bump();
                Ok(a)
            }
            _ => p.arg(),
        };
        let args = if w == "mutate" {
            self.bracketed(c, piece)?
        } else {
            self.bracketed(c, Self::arg)?
        };
        let span = Span::new(at.start, self.prev_end());
        match w.as_str() {
            "mutate" => {
                let mut pieces = vec![];
                for a in &args {
                    let (name, s) = match a {
                        Arg::Word(n, s) => (n.as_str(), *s),
                        Arg::King(s) => ("king", *s),
                        Arg::Vec(_, s) | Arg::KingsRook(s) | Arg::QueensRook(s) => ("", *s),
                    };
                    pieces.push(match name {
                        "queen" | "Q" | "q" => W_QUEEN,
                        "rook" | "R" | "r" => W_ROOK,
                        "bishop" | "B" | "b" => W_BISHOP,
                        "knight" | "N" | "n" => W_KNIGHT,
                        _ => return self.err(s, "a pawn mutates to a queen, rook, bishop or knight"),
                    });
                }
                Ok(Action::Mutate(pieces))
            }
            "move" => match <[Arg; 2]>::try_from(args) {
                Ok([a, b]) => Ok(Action::Move(a, b, span)),
                Err(_) => self.err(span, "`move` takes two squares: `move[from, to]`"),
            },
            _ => Err(Diag::new(self.src, at, format!("unknown action `{w}`"))
                .help("actions are mutate[...] and move[from, to]")
                .into()),
        }
    }
}

// ---------------------------------------------------------------- meaning
