//! The formalized plies of Games::Chess::Referee (seed 002), lowered to the
//! algebra.
//!
//! A ply list reads as the seed lays it out: optional headers naming the
//! piece (`Pawns:`, `Knights:`, `Bishops:`, `Rooks:`, `Queens:`, `Kings:`),
//! plies `[VECTOR] if CONDITION then ACTION;`, and a `Globally:` section
//! whose conditions hold after every ply (`not threat[king]`).
//!
//! ```text
//! Pawns:
//!   [ahead]         if empty;
//!   [ahead + left]  if enemy or passant;
//! Kings:
//!   [king * 2] if home and home[kings_rook] and clear[king, kings_rook]
//!              then move[kings_rook, [king]];
//! Globally: not threat[king];
//! ```
//!
//! **Board conventions.** The lowering reads the board as rules/chess.alg
//! does, so a ply list is read where that file's pieces are declared (a
//! rule file that imports it): `'Kc`/`'Rc` are a king and rook that have
//! not moved (`home`), `'pe` is a black pawn that has just made its double
//! step (the only part of the last ply the board remembers, so `last[a, b]`
//! is read only as that step), and a pawn's two-square ply leaves `'Pe`.
//! A king or rook that moves becomes `♔`/`♖`. The lowering names no
//! definition of that file: attacks are written out here, as chess.alg's
//! `attacked` writes them, to the longest line of an 8×8 board.
//!
//! **Frame.** Plies are read from white's side, as chess.alg writes white's
//! moves: `ahead` is up, `king` right and `queen` left; `mirrored(...)`
//! gives black's. So the colour predicates `white`/`black` are not read.
//! Vectors are relative to the piece's square; `?` is one distance, 1 to 7
//! either way, shared by both components (`[?, -?]` is a diagonal).
//!
//! **Predicates** read the destination unless given squares: `empty`,
//! `enemy`, `friend`, `pawn`, `guarded`/`threat` (an enemy piece sees the
//! square, before the ply), `open[a, b]` (the squares strictly between are
//! empty), `clear[a, b]` (open, and no square from `a` to `b` guarded),
//! `home` (the piece has not moved: a marker for king and rook, the second
//! rank for a pawn), `home[s]`, `last[a, b]` and `passant` (the seed's
//! compound, on the side the ply goes to; its capture also takes the pawn
//! passed, landing on the empty square behind it, as the seed's prose says).
//! In arguments `king`, `kings_rook` and `queens_rook` alone name the
//! king's square and the rooks' home squares (Kings plies only).
//!
//! **Actions.** The default moves the piece, taking what stands there.
//! `mutate[queen, rook, bishop, knight]` makes a ply that reaches the far
//! rank end as one of these pieces, one result each. The seed leaves the
//! rook's half of castling without notation; `move[a, b]` closes that gap
//! in the same spirit: in the same ply, the friendly piece on `a` moves to
//! `b` (the rook crosses the king:
//! `then move[kings_rook, [king]]`).

use crate::diag::{Diag, Diags, Source, Span};
use crate::parse::ast::Expr;
use crate::parse::MAX_NESTING;
use std::collections::BTreeMap;

/// The longest distance `?` and the attack lines reach: an 8×8 board.
const LONGEST: i32 = 7;

type Off = (i32, i32);

/// Stretches of the algebra text and the ply each came from.
type Origins = Vec<(usize, usize, Span)>;

/// The sections of a ply list, and its global condition.
type Plies = (Vec<Section>, Option<(Cond, Span)>);

// Contents as bits: white pieces, black pieces, an empty square, off-board.
const GLYPHS: [&str; 20] = [
    "♙", "'Pe", "♘", "♗", "♖", "'Rc", "♕", "♔", "'Kc", "♟", "'pe", "♞", "♝", "♜", "'rc", "♛", "♚", "'kc", ".", "#",
];
const fn bit(i: usize) -> u32 {
    1 << i
}
const W_PAWN: u32 = bit(0);
const W_PAWN_EP: u32 = bit(1);
const W_KNIGHT: u32 = bit(2);
const W_BISHOP: u32 = bit(3);
const W_ROOK: u32 = bit(4);
const W_ROOK_HOME: u32 = bit(5);
const W_QUEEN: u32 = bit(6);
const W_KING: u32 = bit(7);
const W_KING_HOME: u32 = bit(8);
const B_PAWN: u32 = bit(9);
const B_PAWN_EP: u32 = bit(10);
const B_KNIGHT: u32 = bit(11);
const B_BISHOP: u32 = bit(12);
const B_ROOK: u32 = bit(13);
const B_ROOK_HOME: u32 = bit(14);
const B_QUEEN: u32 = bit(15);
const B_KING: u32 = bit(16);
const B_KING_HOME: u32 = bit(17);
const EMPTY: u32 = bit(18);
const OFF: u32 = bit(19);
const FRIEND: u32 = 0x1ff;
const ENEMY: u32 = 0x1ff << 9;
const ON: u32 = FRIEND | ENEMY | EMPTY;
const ALL: u32 = ON | OFF;
const PAWN: u32 = W_PAWN | W_PAWN_EP | B_PAWN | B_PAWN_EP;

fn glyph(b: u32) -> &'static str {
    GLYPHS[b.trailing_zeros() as usize]
}

/// A set of contents as an algebra cell: one glyph, or a pattern.
fn cells(set: u32) -> String {
    let names: Vec<&str> = (0..20).filter(|i| set & bit(*i) != 0).map(|i| GLYPHS[i]).collect();
    match names.as_slice() {
        [one] => one.to_string(),
        _ => format!("({})", names.join(" | ")),
    }
}

/// A translation as movement letters, placed before a cell.
fn at(o: Off) -> String {
    let (x, y) = o;
    let mut s = String::new();
    for _ in 0..y.abs() {
        s.push(if y > 0 { 'u' } else { 'd' });
    }
    for _ in 0..x.abs() {
        s.push(if x > 0 { 'r' } else { 'l' });
    }
    s
}

fn add(a: Off, b: Off) -> Off {
    (a.0 + b.0, a.1 + b.1)
}

/// The moved form of a piece that had not moved.
fn demoted(b: u32) -> u32 {
    match b {
        W_KING_HOME => W_KING,
        W_ROOK_HOME => W_ROOK,
        W_PAWN_EP => W_PAWN,
        other => other,
    }
}

/// Whether an enemy piece sees square `s` (relative to the POI), before the
/// ply: along a line of empty squares, a knight's jump, a king's or pawn's
/// step, as chess.alg's `attacked`. A line through the POI is blocked by
/// the piece standing there. A rule of patterns rewrites each member into
/// each, so a test that must keep the board (`exact`) spells every member
/// as a fragment of its own; under `not` the patterns may stay.
fn seen(s: Off, exact: bool) -> String {
    let mut alts: Vec<Vec<(Off, u32)>> = vec![];
    let lines = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)];
    for (k, d) in lines.iter().enumerate() {
        let slider = if k < 4 {
            B_ROOK | B_ROOK_HOME | B_QUEEN
        } else {
            B_BISHOP | B_QUEEN
        };
        for n in 1..=LONGEST {
            let path: Vec<Off> = (1..=n).map(|i| add(s, (d.0 * i, d.1 * i))).collect();
            if path.contains(&(0, 0)) {
                break;
            }
            let mut f: Vec<(Off, u32)> = path[..path.len() - 1].iter().map(|q| (*q, EMPTY)).collect();
            f.push((path[path.len() - 1], slider));
            alts.push(f);
        }
    }
    let jumps = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)];
    let steps = jumps.iter().map(|j| (*j, B_KNIGHT));
    let king = lines.iter().map(|d| (*d, B_KING | B_KING_HOME));
    let pawn = [((1, 1), B_PAWN | B_PAWN_EP), ((-1, 1), B_PAWN | B_PAWN_EP)];
    for (d, who) in steps.chain(king).chain(pawn) {
        let q = add(s, d);
        if q != (0, 0) {
            alts.push(vec![(q, who)]);
        }
    }
    let mut frags: Vec<String> = vec![];
    for f in &alts {
        let mut ts = vec![String::from("%")];
        for (q, c) in f {
            let members: Vec<u32> = if exact {
                (0..20).map(bit).filter(|b| c & b != 0).collect()
            } else {
                vec![*c]
            };
            ts = ts
                .iter()
                .flat_map(|t| members.iter().map(move |m| format!("{t} + {}{}", at(*q), cells(*m))))
                .collect();
        }
        frags.extend(ts.iter().map(|t| format!("({t} -> {t})")));
    }
    format!("({})", frags.join(" | "))
}

// ---------------------------------------------------------------- lexing

#[derive(Clone, Debug, PartialEq)]
enum Tok {
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

fn lex(text: &str, src: &Source) -> Result<Vec<(Tok, Span)>, Diags> {
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

/// One component of a ply vector: a number or the shared distance `?`.
#[derive(Clone, Copy, Debug)]
enum Comp {
    Num(i32),
    Any(i32),
}

#[derive(Clone, Debug)]
enum Arg {
    King(Span),
    KingsRook(Span),
    QueensRook(Span),
    Vec(Off, Span),
    Word(String, Span),
}

#[derive(Clone, Debug)]
enum Cond {
    Or(Vec<Cond>),
    And(Vec<Cond>),
    Not(Box<Cond>),
    Pred(String, Vec<Arg>, Span),
}

#[derive(Clone, Debug)]
enum Action {
    Mutate(Vec<u32>),
    Move(Arg, Arg, Span),
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Kind {
    Any,
    Pawn,
    Knight,
    Bishop,
    Rook,
    Queen,
    King,
}

struct Ply {
    vector: [Comp; 2],
    cond: Option<Cond>,
    actions: Vec<Action>,
    span: Span,
}

struct Section {
    kind: Kind,
    plies: Vec<Ply>,
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

    fn ply(&mut self) -> Result<Ply, Diags> {
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
        Ok(Ply {
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
        let mut alts = vec![self.conj()?];
        while self.word_is("or") {
            self.bump();
            alts.push(self.conj()?);
        }
        Ok(if alts.len() == 1 {
            alts.pop().unwrap()
        } else {
            Cond::Or(alts)
        })
    }

    fn conj(&mut self) -> Result<Cond, Diags> {
        let mut all = vec![self.unary()?];
        while self.word_is("and") {
            self.bump();
            all.push(self.unary()?);
        }
        Ok(if all.len() == 1 {
            all.pop().unwrap()
        } else {
            Cond::And(all)
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
                let mut args = vec![];
                if let Some(Tok::Open(c)) = self.peek().cloned() {
                    let open = self.span();
                    self.bump();
                    loop {
                        args.push(self.arg()?);
                        if matches!(self.peek(), Some(Tok::Comma)) {
                            self.bump();
                        } else {
                            break;
                        }
                    }
                    self.expect_close(c, open)?;
                }
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

    fn action(&mut self) -> Result<Action, Diags> {
        let at = self.span();
        let Some(Tok::Word(w)) = self.peek().cloned() else {
            return self.err(at, "expected an action: `mutate[...]` or `move[from, to]`");
        };
        self.bump();
        let Some(Tok::Open(c)) = self.peek().cloned() else {
            return self.err(self.span(), format!("`{w}` takes its arguments in brackets"));
        };
        let open = self.span();
        self.bump();
        let mut args = vec![];
        loop {
            // Pieces are words here, not the vectors `king`, `queen`.
            if let (true, Some(Tok::Word(p))) = (w == "mutate", self.peek().cloned()) {
                args.push(Arg::Word(p, self.span()));
                self.bump();
            } else {
                args.push(self.arg()?);
            }
            if matches!(self.peek(), Some(Tok::Comma)) {
                self.bump();
            } else {
                break;
            }
        }
        self.expect_close(c, open)?;
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

/// What a predicate reduces to: facts about single squares, and whether an
/// enemy sees a square.
#[derive(Clone, Debug)]
enum Atom {
    Cell(Off, u32),
    Seen(Off),
    /// A true fact that, taken, removes the piece on this square (the pawn
    /// passed in an en passant capture).
    Take(Off),
    Const(bool),
}

#[derive(Clone, Debug)]
enum F {
    And(Vec<F>),
    Or(Vec<F>),
    Not(Box<F>),
    Atom(Atom),
}

/// The ply being read: its piece and destination.
struct Ctx<'a> {
    kind: Kind,
    /// The piece's own content, when a header names it.
    mover: Option<u32>,
    to: Off,
    src: &'a Source,
}

impl Ctx<'_> {
    fn square(&self, a: &Arg) -> Result<Off, Diags> {
        let kings = |s: Span, o: Off| {
            if self.kind == Kind::King {
                Ok(o)
            } else {
                Err(Diag::new(
                    self.src,
                    s,
                    "the king's and rooks' squares are known only in Kings plies",
                )
                .into())
            }
        };
        match a {
            Arg::King(s) => kings(*s, (0, 0)),
            Arg::KingsRook(s) => kings(*s, (3, 0)),
            Arg::QueensRook(s) => kings(*s, (-4, 0)),
            Arg::Vec(v, _) => Ok(*v),
            Arg::Word(w, s) => Err(Diag::new(self.src, *s, format!("unknown square `{w}`"))
                .help("a square is a vector from the piece, or king, kings_rook, queens_rook")
                .into()),
        }
    }

    fn squares(&self, args: &[Arg], span: Span, name: &str) -> Result<Vec<Off>, Diags> {
        args.iter()
            .map(|a| self.square(a))
            .collect::<Result<Vec<_>, _>>()
            .and_then(|v| {
                if v.len() > 2 {
                    Err(Diag::new(self.src, span, format!("`{name}` takes at most two squares")).into())
                } else {
                    Ok(v)
                }
            })
    }

    /// The squares from `a` to `b` along a line, both included.
    fn line(&self, a: Off, b: Off, span: Span) -> Result<Vec<Off>, Diags> {
        let (dx, dy) = (b.0 - a.0, b.1 - a.1);
        if !(dx == 0 || dy == 0 || dx.abs() == dy.abs()) {
            return Err(Diag::new(self.src, span, "these squares are not on one line")
                .help("`open` and `clear` read the squares along a rank, file or diagonal")
                .into());
        }
        let n = dx.abs().max(dy.abs());
        Ok((0..=n)
            .map(|i| (a.0 + dx.signum() * i, a.1 + dy.signum() * i))
            .collect())
    }

    fn pred(&self, name: &str, args: &[Arg], span: Span) -> Result<F, Diags> {
        let sq = self.squares(args, span, name)?;
        let one = |set: u32| -> Result<F, Diags> {
            match sq.as_slice() {
                [] => Ok(F::Atom(Atom::Cell(self.to, set))),
                [s] => Ok(F::Atom(Atom::Cell(*s, set))),
                _ => Err(Diag::new(self.src, span, format!("`{name}` reads one square")).into()),
            }
        };
        let ends = || -> Result<(Off, Off), Diags> {
            match sq.as_slice() {
                [] => Ok(((0, 0), self.to)),
                [a, b] => Ok((*a, *b)),
                _ => Err(Diag::new(self.src, span, format!("`{name}` reads two squares, or none")).into()),
            }
        };
        Ok(match name {
            "empty" => one(EMPTY)?,
            "enemy" => one(ENEMY)?,
            "friend" => one(FRIEND)?,
            "pawn" => one(PAWN)?,
            "guarded" | "threat" => match sq.as_slice() {
                [] => F::Atom(Atom::Seen(self.to)),
                [s] => F::Atom(Atom::Seen(*s)),
                _ => return Err(Diag::new(self.src, span, format!("`{name}` reads one square")).into()),
            },
            "open" | "clear" => {
                let (a, b) = ends()?;
                let line = self.line(a, b, span)?;
                let mut all: Vec<F> = line[1..line.len() - 1]
                    .iter()
                    .map(|q| F::Atom(Atom::Cell(*q, EMPTY)))
                    .collect();
                if name == "clear" {
                    all.extend(line.iter().map(|q| F::Not(Box::new(F::Atom(Atom::Seen(*q))))));
                }
                F::And(all)
            }
            "home" => match sq.as_slice() {
                [] => match (self.kind, self.mover) {
                    (Kind::Pawn, _) => F::And(vec![
                        F::Not(Box::new(F::Atom(Atom::Cell((0, -1), OFF)))),
                        F::Atom(Atom::Cell((0, -2), OFF)),
                    ]),
                    (Kind::King | Kind::Rook, Some(m)) => F::Atom(Atom::Const(m == W_KING_HOME || m == W_ROOK_HOME)),
                    _ => {
                        return Err(Diag::new(self.src, span, "the board does not remember whether this piece has moved")
                            .help("`home` reads the markers of an unmoved king or rook ('Kc, 'Rc) and a pawn's rank: put the ply under Pawns:, Rooks: or Kings:")
                            .into())
                    }
                },
                // A rook's or king's home square holds that piece unmoved.
                [s] if matches!(args[0], Arg::KingsRook(_) | Arg::QueensRook(_)) => F::Atom(Atom::Cell(*s, W_ROOK_HOME)),
                [s] if matches!(args[0], Arg::King(_)) => F::Atom(Atom::Cell(*s, W_KING_HOME)),
                [s] => {
                    let (d, dd) = (add(*s, (0, -1)), add(*s, (0, -2)));
                    F::Or(vec![
                        F::Atom(Atom::Cell(*s, W_KING_HOME | W_ROOK_HOME)),
                        F::And(vec![
                            F::Atom(Atom::Cell(*s, W_PAWN)),
                            F::Not(Box::new(F::Atom(Atom::Cell(d, OFF)))),
                            F::Atom(Atom::Cell(dd, OFF)),
                        ]),
                    ])
                }
                _ => return Err(Diag::new(self.src, span, "`home` reads one square").into()),
            },
            "last" => match sq.as_slice() {
                [a, b] if *a == add(*b, (0, 2)) => F::Atom(Atom::Cell(*b, B_PAWN_EP)),
                [_, _] => {
                    return Err(Diag::new(self.src, span, "the board remembers of the last ply only an enemy pawn's double step")
                        .help("write `last[s + [0, 2], s]`: the enemy pawn now on `s` came from two squares ahead (it is then 'pe)")
                        .into())
                }
                _ => return Err(Diag::new(self.src, span, "`last` takes two squares: `last[from, to]`").into()),
            },
            "last_from" | "last_to" => {
                return Err(Diag::new(self.src, span, format!("`{name}` alone cannot be read from the board"))
                    .help("the board remembers of the last ply only an enemy pawn's double step: write `last[s + [0, 2], s]`")
                    .into())
            }
            "passant" => {
                if !args.is_empty() {
                    return Err(Diag::new(self.src, span, "`passant` takes no squares").into());
                }
                if self.to.0 == 0 {
                    return Err(Diag::new(self.src, span, "`passant` reads the side a diagonal ply goes to")
                        .help("use it in `[ahead + left]` or `[ahead + right]`")
                        .into());
                }
                let side = (self.to.0.signum(), 0);
                F::And(vec![
                    F::Atom(Atom::Cell(side, B_PAWN_EP)),
                    F::Atom(Atom::Cell(self.to, EMPTY)),
                    F::Atom(Atom::Take(side)),
                ])
            }
            "white" | "black" => {
                return Err(Diag::new(self.src, span, format!("`{name}` is not read: plies are read from the side to move"))
                    .help("plies are white's; `mirrored(...)` of their lowering gives black's")
                    .into())
            }
            _ => {
                return Err(Diag::new(self.src, span, format!("unknown predicate `{name}`"))
                    .help("predicates are empty, open, clear, enemy, friend, pawn, guarded, threat, home, last and passant")
                    .into())
            }
        })
    }

    fn formula(&self, c: &Cond) -> Result<F, Diags> {
        Ok(match c {
            Cond::Or(v) => F::Or(v.iter().map(|c| self.formula(c)).collect::<Result<_, _>>()?),
            Cond::And(v) => F::And(v.iter().map(|c| self.formula(c)).collect::<Result<_, _>>()?),
            Cond::Not(c) => F::Not(Box::new(self.formula(c)?)),
            Cond::Pred(n, args, span) => self.pred(n, args, *span)?,
        })
    }
}

/// A condition as alternatives of conjunctions of possibly negated atoms.
fn dnf(f: &F, positive: bool) -> Vec<Vec<(bool, Atom)>> {
    match (f, positive) {
        (F::Not(g), p) => dnf(g, !p),
        (F::Atom(Atom::Const(b)), p) => {
            if *b == p {
                vec![vec![]]
            } else {
                vec![]
            }
        }
        (F::Atom(Atom::Take(_)), false) => vec![],
        (F::Atom(a), p) => vec![vec![(p, a.clone())]],
        (F::Or(v), true) | (F::And(v), false) => v.iter().flat_map(|g| dnf(g, positive)).collect(),
        (F::And(v), true) | (F::Or(v), false) => {
            let mut acc: Vec<Vec<(bool, Atom)>> = vec![vec![]];
            for g in v {
                let mut d = dnf(g, positive);
                // One conjunction (a chain of `and`s): append it in place,
                // so a chain of n terms costs n, not n² copies.
                if d.len() == 1 {
                    let only = d.pop().expect("one conjunction");
                    if let Some((last, rest)) = acc.split_last_mut() {
                        for a in rest {
                            a.extend(only.iter().cloned());
                        }
                        last.extend(only);
                    }
                    continue;
                }
                acc = acc
                    .iter()
                    .flat_map(|a| {
                        d.iter().map(move |b| {
                            let mut c = a.clone();
                            c.extend(b.iter().cloned());
                            c
                        })
                    })
                    .collect();
            }
            acc
        }
    }
}

/// A rewrite: the squares it reads, as sets of contents, and what it
/// writes; after tests of its own.
struct Rewrite {
    tests: Vec<String>,
    read: BTreeMap<Off, u32>,
    write: BTreeMap<Off, String>,
}

/// One conjunction of a ply: tests, then one of the rewrites.
struct Clause {
    tests: Vec<String>,
    rules: Vec<Rewrite>,
}

/// Whether square `o` holds one of `set`, as a test; only under `not`
/// may its cell be a pattern (a rule of patterns rewrites members).
fn holds(o: Off, set: u32) -> String {
    let f = format!("% + {}{}", at(o), cells(set));
    format!("({f} -> {f})")
}

impl Clause {
    fn text(&self) -> String {
        let rules: Vec<String> = self
            .rules
            .iter()
            .map(|r| {
                let lhs: String = r
                    .read
                    .iter()
                    .map(|(o, s)| format!(" + {}{}", at(*o), cells(*s)))
                    .collect();
                let rhs: Vec<String> = r.write.iter().map(|(o, c)| format!("{}{c}", at(*o))).collect();
                let rule = format!("(%{lhs} -> {})", rhs.join(" + "));
                if r.tests.is_empty() {
                    rule
                } else {
                    format!("({} {rule})", r.tests.join(" "))
                }
            })
            .collect();
        let mut parts = self.tests.clone();
        parts.push(if rules.len() == 1 {
            rules[0].clone()
        } else {
            format!("({})", rules.join(" | "))
        });
        format!("({})", parts.join(" "))
    }
}

/// One conjunction of a ply as algebra: tests of what enemies see, then
/// one rewrite reading and writing the squares it names. Facts about the
/// destination are read by the rewrite; facts against other squares are
/// tests, so that they hold of any piece.
fn clause(ply: &Ply, ctx: &Ctx, lits: &[(bool, Atom)]) -> Result<Option<Clause>, Diags> {
    let mut read: BTreeMap<Off, u32> = BTreeMap::new();
    read.insert(ctx.to, ON);
    let mut tests = vec![];
    let mut takes = vec![];
    for (p, a) in lits {
        match a {
            Atom::Cell(o, set) if *p || *o == ctx.to || *o == (0, 0) => {
                let set = if *p { *set } else { ALL & !set };
                *read.entry(*o).or_insert(ALL) &= set;
            }
            Atom::Cell(o, set) => tests.push(format!("not {}", holds(*o, *set))),
            Atom::Seen(o) => tests.push(if *p {
                seen(*o, true)
            } else {
                format!("not {}", seen(*o, false))
            }),
            Atom::Take(o) => takes.push(*o),
            Atom::Const(_) => {}
        }
    }
    // The piece's own square is known statically, and never read.
    if let Some(set) = read.remove(&(0, 0)) {
        match ctx.mover {
            Some(m) if set & m == 0 => return Ok(None),
            Some(_) => {}
            None => {
                return Err(Diag::new(ctx.src, ply.span, "this ply reads the piece's own square")
                    .help("put the ply under a header such as `Kings:`, which names the piece")
                    .into())
            }
        }
    }
    let mut write: BTreeMap<Off, String> = BTreeMap::new();
    // A pawn's two-square ply leaves the marker en passant reads.
    let double = ctx.kind == Kind::Pawn && ctx.to == (0, 2);
    write.insert(ctx.to, if double { cells(W_PAWN_EP) } else { "%".into() });
    for o in takes {
        write.insert(o, ".".into());
    }
    let mut mutate = None;
    for act in &ply.actions {
        match act {
            Action::Mutate(pieces) => mutate = Some(pieces.iter().fold(0, |a, b| a | b)),
            Action::Move(a, b, span) => {
                let (a, b) = (ctx.square(a)?, ctx.square(b)?);
                if a == (0, 0) || b == (0, 0) || a == ctx.to {
                    return Err(Diag::new(
                        ctx.src,
                        *span,
                        "`move` moves another piece, from a square the ply leaves alone",
                    )
                    .into());
                }
                let Some(set) = read.get_mut(&a) else {
                    return Err(Diag::new(
                        ctx.src,
                        *span,
                        "the ply's condition does not say what stands on this `move`'s square",
                    )
                    .help("name the piece, as `home[kings_rook]` does")
                    .into());
                };
                *set &= FRIEND;
                if set.count_ones() > 1 {
                    return Err(Diag::new(
                        ctx.src,
                        *span,
                        "the ply's condition leaves open which piece `move` moves",
                    )
                    .help("name the piece, as `home[kings_rook]` does")
                    .into());
                }
                let piece = *set;
                *read.entry(b).or_insert(ON) &= ON;
                write.insert(a, ".".into());
                if piece != 0 {
                    write.insert(b, cells(demoted(piece)));
                }
            }
        }
    }
    write.insert((0, 0), ".".into());
    read.retain(|o, s| *o == ctx.to || *s != ALL);
    if read.values().any(|s| *s == 0) {
        return Ok(None);
    }
    let rules: Vec<Rewrite> = match mutate {
        None => vec![Rewrite {
            tests: vec![],
            read,
            write,
        }],
        Some(pieces) => {
            // Short of the far rank the ply is as written; on it, the
            // piece becomes one of those named.
            let beyond = add(ctx.to, (0, 1));
            let mut far = read.clone();
            *far.entry(beyond).or_insert(ALL) &= OFF;
            let mut promoted = write.clone();
            promoted.insert(ctx.to, cells(pieces));
            let mut rules = vec![];
            if read.get(&beyond).is_none_or(|s| *s != OFF) {
                rules.push(Rewrite {
                    tests: vec![format!("not {}", holds(beyond, OFF))],
                    read: read.clone(),
                    write,
                });
            }
            if far[&beyond] != 0 {
                rules.push(Rewrite {
                    tests: vec![],
                    read: far,
                    write: promoted,
                });
            }
            rules
        }
    };
    if rules.is_empty() {
        return Ok(None);
    }
    Ok(Some(Clause { tests, rules }))
}

/// The vectors a ply's `[x, y]` stands for: one, or with `?` the steps
/// `k·d` of each direction `d`, for `k` from 1 to `LONGEST`.
fn vectors(v: [Comp; 2]) -> Vec<Vec<Off>> {
    let pick = |c: Comp, k: i32| match c {
        Comp::Num(n) => n,
        Comp::Any(s) => s * k,
    };
    if v.iter().any(|c| matches!(c, Comp::Any(_))) {
        [1, -1]
            .iter()
            .map(|sign| {
                (1..=LONGEST)
                    .map(|k| (pick(v[0], sign * k), pick(v[1], sign * k)))
                    .filter(|o| *o != (0, 0))
                    .collect()
            })
            .collect()
    } else {
        vec![vec![(pick(v[0], 0), pick(v[1], 0))]]
    }
}

/// A ply over `?` whose every distance `k` is "the `k - 1` squares on the
/// way empty, the destination one of `X`" is a slide: steps over empty
/// squares, then one onto `X`, at any distance, as chess.alg writes its
/// sliders. Otherwise `?` stops at `LONGEST`.
fn slide(steps: &[Off], clauses: &[Vec<Clause>]) -> Option<String> {
    let d = steps[0];
    let unit = (d.0.signum(), d.1.signum());
    if d != unit
        || steps.len() < 2
        || steps
            .iter()
            .enumerate()
            .any(|(i, s)| *s != (unit.0 * (i as i32 + 1), unit.1 * (i as i32 + 1)))
    {
        return None;
    }
    let mut last = None;
    for (k, cs) in clauses.iter().enumerate() {
        let [c] = cs.as_slice() else { return None };
        let [r] = c.rules.as_slice() else { return None };
        let to = steps[k];
        let x = *r.read.get(&to)?;
        let way: BTreeMap<Off, u32> = steps[..k].iter().map(|q| (*q, EMPTY)).chain([(to, x)]).collect();
        let moved: BTreeMap<Off, String> = [((0, 0), ".".to_string()), (to, "%".to_string())].into_iter().collect();
        if !c.tests.is_empty()
            || !r.tests.is_empty()
            || r.read != way
            || r.write != moved
            || last.is_some_and(|l| l != x)
        {
            return None;
        }
        last = Some(x);
    }
    let m = at(unit);
    Some(format!(
        "((% + {m}. -> . + {m}%)* (% + {m}{} -> . + {m}%))",
        cells(last?)
    ))
}

/// The plies of a section, for one content of its piece.
fn plies(
    sec: &Section,
    mover: Option<u32>,
    src: &Source,
    map: &mut Vec<(usize, usize, Span)>,
    out: &mut String,
) -> Result<(), Diags> {
    let mut first = true;
    for ply in &sec.plies {
        for steps in vectors(ply.vector) {
            let mut clauses = vec![];
            for &to in &steps {
                let ctx = Ctx {
                    kind: sec.kind,
                    mover,
                    to,
                    src,
                };
                let f = match &ply.cond {
                    Some(c) => ctx.formula(c)?,
                    None => F::And(vec![]),
                };
                let mut cs = vec![];
                for lits in dnf(&f, true) {
                    cs.extend(clause(ply, &ctx, &lits)?);
                }
                clauses.push(cs);
            }
            let texts: Vec<String> = match slide(&steps, &clauses) {
                Some(t) => vec![t],
                None => clauses.iter().flatten().map(Clause::text).collect(),
            };
            for text in texts {
                if !first {
                    out.push_str(" | ");
                }
                first = false;
                let start = out.len();
                out.push_str(&text);
                map.push((start, out.len(), ply.span));
            }
        }
    }
    if first {
        out.push_str("fail");
    }
    Ok(())
}

/// The lowering as algebra text, with the stretches each ply gave.
fn lower_text(text: &str) -> Result<(String, Origins), Diags> {
    let src = Source::new("<referee>", text);
    let toks = lex(text, &src)?;
    let mut p = Parser {
        toks,
        pos: 0,
        src: &src,
        len: text.len(),
        depth: 0,
    };
    let (sections, global) = p.file()?;
    if sections.is_empty() {
        return Err(Diag::new(&src, Span::new(0, text.len()), "no plies").into());
    }
    let mut out = String::from("(");
    let mut map = vec![];
    for (i, sec) in sections.iter().enumerate() {
        if i > 0 {
            out.push_str(" | ");
        }
        // A king or rook that has not moved is a marker piece of its own;
        // moving, it becomes the plain piece.
        let variants: &[(u32, Option<u32>)] = match sec.kind {
            Kind::Any => &[],
            Kind::Pawn => &[(W_PAWN, None)],
            Kind::Knight => &[(W_KNIGHT, None)],
            Kind::Bishop => &[(W_BISHOP, None)],
            Kind::Queen => &[(W_QUEEN, None)],
            Kind::Rook => &[(W_ROOK, None), (W_ROOK_HOME, Some(W_ROOK))],
            Kind::King => &[(W_KING, None), (W_KING_HOME, Some(W_KING))],
        };
        if variants.is_empty() {
            out.push('(');
            plies(sec, None, &src, &mut map, &mut out)?;
            out.push(')');
        }
        for (j, (m, after)) in variants.iter().enumerate() {
            if j > 0 {
                out.push_str(" | ");
            }
            out.push_str(&format!("(%{}: (", glyph(*m)));
            plies(sec, Some(*m), &src, &mut map, &mut out)?;
            out.push(')');
            if let Some(a) = after {
                out.push_str(&format!(" (% -> {})", glyph(*a)));
            }
            out.push(')');
        }
    }
    out.push(')');
    if let Some((g, span)) = global {
        let start = out.len();
        out.push(' ');
        out.push_str(&globally(&g, span, &src)?);
        map.push((start, out.len(), span));
    }
    Ok((out, map))
}

/// The global conditions, read after the ply: `threat[king]` is whether an
/// enemy sees the mover's king.
fn globally(c: &Cond, span: Span, src: &Source) -> Result<String, Diags> {
    fn f(c: &Cond, src: &Source) -> Result<F, Diags> {
        Ok(match c {
            Cond::Or(v) => F::Or(v.iter().map(|c| f(c, src)).collect::<Result<_, _>>()?),
            Cond::And(v) => F::And(v.iter().map(|c| f(c, src)).collect::<Result<_, _>>()?),
            Cond::Not(c) => F::Not(Box::new(f(c, src)?)),
            Cond::Pred(n, args, _)
                if (n == "threat" || n == "guarded") && matches!(args.as_slice(), [Arg::King(_)]) =>
            {
                F::Atom(Atom::Seen((0, 0)))
            }
            Cond::Pred(_, _, s) => {
                return Err(Diag::new(src, *s, "after the ply, only `threat[king]` is read")
                    .help("write the global condition as `not threat[king]`")
                    .into())
            }
        })
    }
    let check = |exact| {
        format!(
            "((%{}: {a}) | (%{}: {a}))",
            glyph(W_KING),
            glyph(W_KING_HOME),
            a = seen((0, 0), exact)
        )
    };
    let alts: Vec<String> = dnf(&f(c, src)?, true)
        .iter()
        .map(|lits| {
            let tests: Vec<String> = lits
                .iter()
                .map(|(p, _)| {
                    if *p {
                        check(true)
                    } else {
                        format!("not {}", check(false))
                    }
                })
                .collect();
            if tests.is_empty() {
                "nil".to_string()
            } else {
                format!("({})", tests.join(" "))
            }
        })
        .collect();
    let _ = span;
    Ok(if alts.is_empty() {
        "fail".into()
    } else {
        format!("({})", alts.join(" | "))
    })
}

/// A Referee ply list as algebra text, such as `algchess translate` prints.
pub(crate) fn to_algebra(text: &str) -> Result<String, Diags> {
    lower_text(text).map(|(t, _)| t)
}

/// A Referee ply list lowered to the algebra's syntax tree. Each node's
/// span is that of the ply it came from, in `text`.
pub(crate) fn lower(text: &str) -> Result<Expr, Diags> {
    let (alg, map) = lower_text(text)?;
    let whole = Span::new(0, text.len());
    let mut e = crate::parse::parse_expr(&alg).map_err(|e| {
        let src = Source::new("<referee>", text);
        Diags::from(Diag::new(
            &src,
            whole,
            format!("the lowering is not valid algebra: {}", e.message),
        ))
    })?;
    let place = |s: Span| {
        map.iter()
            .filter(|(a, b, _)| *a <= s.start && s.start < *b)
            .map(|(_, _, p)| *p)
            .next_back()
            .unwrap_or(whole)
    };
    respan(&mut e, &place);
    Ok(e)
}

/// Points every span of `e` back into the ply text.
fn respan(e: &mut Expr, place: &dyn Fn(Span) -> Span) {
    use crate::parse::ast::ExprKind;
    let mut stack: Vec<&mut Expr> = vec![e];
    while let Some(e) = stack.pop() {
        e.span = place(e.span);
        match &mut e.kind {
            ExprKind::Call(f, args) => {
                f.span = place(f.span);
                stack.extend(args.iter_mut());
            }
            ExprKind::Juxt(args) => stack.extend(args.iter_mut()),
            ExprKind::Semi(a, b) | ExprKind::Plus(a, b) | ExprKind::Bar(a, b) | ExprKind::Arrow(a, b) => {
                stack.push(a);
                stack.push(b);
            }
            ExprKind::Bind(i, a) => {
                i.span = place(i.span);
                stack.push(a);
            }
            ExprKind::Post(a, _) | ExprKind::Not(a) | ExprKind::Paren(a) => stack.push(a),
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::elab::Program;
    use crate::geometry::Square;
    use crate::semantics::{compile, results, Grid, Prog, State};

    fn chess() -> Program {
        Program::load(std::path::Path::new("rules/chess.alg")).expect("chess.alg loads")
    }

    fn prog(p: &mut Program, alg: &str) -> Prog {
        let t = p.expr("ply", alg).unwrap_or_else(|e| panic!("{}\n{alg}", e.render()));
        compile(&t).expect("a closed move compiles")
    }

    fn boards(p: &Prog, board: &Grid, poi: Option<Square>) -> Vec<Vec<String>> {
        let st = State {
            board: board.clone(),
            poi,
        };
        let mut v: Vec<Vec<String>> = results(p, &st)
            .expect("within budget")
            .iter()
            .map(|s| s.board.rows())
            .collect();
        v.sort();
        v.dedup();
        v
    }

    /// A small deterministic generator, so that runs repeat.
    struct Rng(u64);
    impl Rng {
        fn below(&mut self, n: usize) -> usize {
            self.0 = self
                .0
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((self.0 >> 33) % n as u64) as usize
        }
    }

    /// A random board: mostly empty squares, some off the board.
    fn random_board(r: &mut Rng, w: usize, h: usize) -> Grid {
        let rows: Vec<String> = (0..h)
            .map(|_| {
                (0..w)
                    .map(|_| match r.below(10) {
                        0..=4 => ".",
                        5 => "#",
                        _ => GLYPHS[r.below(18)],
                    })
                    .collect()
            })
            .collect();
        Grid::parse(&rows.join("\n")).unwrap()
    }

    /// Positions of the standard perft suite, where every rule is reached.
    const FENS: [&str; 5] = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    ];

    /// Asserts that the plies and a move of chess.alg agree on the perft
    /// positions and on random boards.
    fn agree(plies: &str, chess_alg: &str, n: usize) {
        let mut p = chess();
        let ours = prog(&mut p, &to_algebra(plies).unwrap());
        let theirs = prog(&mut p, chess_alg);
        let mut all: Vec<Grid> = FENS.iter().map(|f| crate::play::fen::read(f).unwrap().0).collect();
        let mut r = Rng(12);
        all.extend((0..n).map(|i| random_board(&mut r, 4 + i % 4, 3 + i % 5)));
        for b in &all {
            assert_eq!(
                boards(&ours, b, None),
                boards(&theirs, b, None),
                "on\n{}",
                b.rows().join("\n")
            );
        }
    }

    const PROMOTE: &str = "then mutate[queen, rook, bishop, knight]";

    fn pawns() -> String {
        format!(
            "Pawns:
               [ahead]         if empty {PROMOTE};
               [ahead * 2]     if empty and open and home;
               [ahead + left]  if enemy {PROMOTE};
               [ahead + right] if enemy {PROMOTE};
               [ahead + left]  if passant;
               [ahead + right] if passant;"
        )
    }

    const KNIGHTS: &str = "Knights:
        [+1, +2] if not friend; [+1, -2] if not friend; [-1, +2] if not friend; [-1, -2] if not friend;
        [+2, +1] if not friend; [+2, -1] if not friend; [-2, +1] if not friend; [-2, -1] if not friend.";
    const BISHOPS: &str = "Bishops: [?, ?] if open and not friend; [?, -?] if open and not friend;";
    const ROOKS: &str = "Rooks: [0, ?] if open and not friend; [?, 0] if open and not friend;";
    const QUEENS: &str = "Queens: [0, ?] if open and not friend; [?, 0] if open and not friend;
        [?, ?] if open and not friend; [?, -?] if open and not friend;";
    const KINGS: &str = "Kings:
        [-1, -1] if not friend and not threat; [-1, 0] if not friend and not threat;
        [-1, +1] if not friend and not threat; [0, -1] if not friend and not threat;
        [0, +1] if not friend and not threat; [+1, -1] if not friend and not threat;
        [+1, 0] if not friend and not threat; [+1, +1] if not friend and not threat;
        [king * 2] if home and home[kings_rook] and open[king, kings_rook]
            and not threat[king] and not threat[[king]] then move[kings_rook, [king]];
        [queen * 2] if home and home[queens_rook] and open[king, queens_rook]
            and not threat[king] and not threat[[queen]] then move[queens_rook, [queen]];
        Globally: not threat[king];";

    /// chess.alg's pawn with the double step from the second rank only (the
    /// seed's `home`).
    const CHESS_PAWN: &str =
        "%♙: pawn_to(u, .) | pawn_to(ur, enemy) | pawn_to(ul, enemy) | not holds(% + d#) pawn_double | en_passant";

    #[test]
    fn pawn_plies_are_chess_pawns() {
        agree(&pawns(), CHESS_PAWN, 300);
    }

    #[test]
    fn knight_plies_are_chess_knights() {
        agree(KNIGHTS, "knight", 300);
    }

    #[test]
    fn slider_plies_are_chess_sliders() {
        agree(BISHOPS, "bishop", 200);
        agree(ROOKS, "rook", 200);
        agree(QUEENS, "queen", 200);
    }

    #[test]
    fn king_plies_with_the_global_condition_are_chess_kings() {
        agree(KINGS, "(king | castle_short | castle_long) not in_check", 300);
    }

    /// All of a side's plies, the seed's with the readings above.
    fn all_plies() -> String {
        [pawns().as_str(), KNIGHTS, BISHOPS, ROOKS, QUEENS, KINGS].join("\n")
    }

    /// The game of chess with the Referee's plies for moves, beside
    /// chess.alg's: every position reached in two plies from each perft
    /// position has the same successors under both.
    #[test]
    fn referee_chess_plays_as_chess_alg() {
        use crate::play::{Position, Rules};
        let text = format!(
            "{}\nref_white = clear_ep {}\ngame referee(start) = ref_white, mirrored(ref_white)\n",
            std::fs::read_to_string("rules/chess.alg").unwrap(),
            to_algebra(&all_plies()).unwrap()
        );
        let p = Program::from_text("rules/chess.alg", &text).unwrap_or_else(|e| panic!("{}", e.render()));
        let ours = Rules::new(p.game("referee").unwrap());
        let theirs = Rules::new(p.game("chess").unwrap());
        let mut seen = 0;
        for fen in FENS {
            let (board, black) = crate::play::fen::read(fen).unwrap();
            let mut level = vec![Position {
                board,
                turn: usize::from(black),
            }];
            for _ in 0..2 {
                let mut next = vec![];
                for pos in &level {
                    let sorted = |r: &Rules| {
                        let mut v: Vec<Vec<String>> =
                            r.successors(pos).unwrap().iter().map(|q| q.board.rows()).collect();
                        v.sort();
                        v
                    };
                    assert_eq!(
                        sorted(&ours),
                        sorted(&theirs),
                        "from {fen}, at\n{}",
                        pos.board.rows().join("\n")
                    );
                    seen += 1;
                    next.extend(theirs.successors(pos).unwrap());
                }
                // Every position of the first ply, and a spread of the second.
                level = next.into_iter().step_by(4).collect();
            }
        }
        assert!(seen > 30, "{seen} positions");
    }

    /// The seed's plies read literally where they differ from FIDE chess:
    /// its `clear` for sliders also keeps them off guarded squares, and its
    /// castling wants the rook's square unguarded too.
    #[test]
    fn the_seeds_literal_clear_is_stricter_than_chess() {
        let mut p = chess();
        let literal = prog(&mut p, &to_algebra("Rooks: [0, ?] if clear and not friend;").unwrap());
        let rook = prog(&mut p, "rook");
        // Along the file, the literal rook stops short of a8, which the black
        // rook on b8 guards; chess.alg's goes there, and along the rank.
        let b = crate::play::fen::read("1r5k/8/8/8/8/8/8/R6K w - - 0 1").unwrap().0;
        let (lit, fide) = (boards(&literal, &b, None), boards(&rook, &b, None));
        assert!(
            lit.iter().all(|x| fide.contains(x)) && lit.len() < fide.len(),
            "{lit:?}"
        );
        assert_eq!(lit.len(), 6, "{lit:?}");

        let short =
            "Kings: [king * 2] if home and home[kings_rook] and clear[king, kings_rook] then move[kings_rook, [king]];";
        let literal = prog(&mut p, &to_algebra(short).unwrap());
        let fide = prog(&mut p, "castle_short");
        // The black rook on h8 attacks the white rook on h1, not the king's path.
        let b = crate::play::fen::read("k6r/8/8/8/8/8/8/4K2R w K - 0 1").unwrap().0;
        assert_eq!(boards(&literal, &b, None), vec![] as Vec<Vec<String>>);
        assert_eq!(boards(&fide, &b, None).len(), 1);
        // With the h-file shut, both castle, to the same board.
        let b = crate::play::fen::read("k6r/7p/8/8/8/8/8/4K2R w K - 0 1").unwrap().0;
        assert_eq!(boards(&literal, &b, None), boards(&fide, &b, None));
        assert_eq!(boards(&literal, &b, None).len(), 1);
    }

    /// The seed's long castling `[queen * 3]` takes the king to b1; its own
    /// figure (and FIDE) puts it on c1, which `[queen * 2]` does.
    #[test]
    fn queen_side_castling_by_three_is_the_seeds_slip() {
        let mut p = chess();
        let board = crate::play::fen::read("k7/8/8/8/8/8/8/R3K3 w Q - 0 1").unwrap().0;
        let castle = |n: i32| {
            format!("Kings: [queen * {n}] if home and home[queens_rook] and clear[king, queens_rook] then move[queens_rook, [queen]];")
        };
        let three = boards(&prog(&mut p, &to_algebra(&castle(3)).unwrap()), &board, None);
        let two = boards(&prog(&mut p, &to_algebra(&castle(2)).unwrap()), &board, None);
        assert_eq!(three.len(), 1);
        assert_eq!(three[0][7], ".♔.♖....");
        assert_eq!(two, boards(&prog(&mut p, "castle_long"), &board, None));
        assert_eq!(two[0][7], "..♔♖....");
    }

    #[test]
    fn en_passant_reads_the_last_double_step() {
        let mut p = chess();
        // `passant` is the seed's compound, spelled out.
        let spelled = "Pawns: [ahead + left] if enemy[left] and pawn[left] and last[left + [0, 2], left];";
        let ep = prog(&mut p, &to_algebra("Pawns: [ahead + left] if passant;").unwrap());
        let just_last = prog(&mut p, &to_algebra(spelled).unwrap());
        // A black pawn that has just moved two squares (FEN's en passant square)...
        let b = crate::play::fen::read("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1").unwrap().0;
        let taken = boards(&ep, &b, None);
        assert_eq!(taken.len(), 1);
        assert_eq!(taken[0][2..4], ["...♙....".to_string(), "........".to_string()]);
        // ...is a target; one that moved earlier is not.
        let stale = crate::play::fen::read("4k3/8/8/3pP3/8/8/8/4K3 w - - 0 1").unwrap().0;
        assert!(boards(&ep, &stale, None).is_empty());
        // Without the capture's removal, the spelled-out form only moves.
        let moved = boards(&just_last, &b, None);
        assert_eq!(moved.len(), 1);
        assert_eq!(moved[0][3], "...'pe....");
    }

    /// A board as glyph indices (`GLYPHS`), `b[y][x]` with `y` up.
    fn grid(b: &[Vec<usize>]) -> Grid {
        let rows: Vec<String> = b.iter().rev().map(|r| r.iter().map(|i| GLYPHS[*i]).collect()).collect();
        Grid::parse(&rows.join("\n")).unwrap()
    }

    /// Whether an enemy sees square `s`, read directly off the board.
    fn sees(b: &[Vec<usize>], s: Off) -> bool {
        let at = |q: Off| -> usize {
            if q.0 < 0 || q.1 < 0 || q.1 as usize >= b.len() || q.0 as usize >= b[0].len() {
                19
            } else {
                b[q.1 as usize][q.0 as usize]
            }
        };
        let is = |q: Off, set: u32| bit(at(q)) & set != 0;
        for (k, d) in [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)]
            .iter()
            .enumerate()
        {
            let slider = if k < 4 {
                B_ROOK | B_ROOK_HOME | B_QUEEN
            } else {
                B_BISHOP | B_QUEEN
            };
            let mut q = add(s, *d);
            while at(q) == 18 {
                q = add(q, *d);
            }
            if is(q, slider) || is(add(s, *d), B_KING | B_KING_HOME) {
                return true;
            }
        }
        let jumps = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)];
        jumps.iter().any(|j| is(add(s, *j), B_KNIGHT))
            || [(1, 1), (-1, 1)].iter().any(|d| is(add(s, *d), B_PAWN | B_PAWN_EP))
    }

    /// Each predicate on a ply of a piece without a header (a free `%`),
    /// against a direct reading of the board in Rust, on random boards.
    #[test]
    fn predicates_agree_with_a_direct_reading() {
        let mut p = chess();
        let mut r = Rng(7);
        let atoms: [(&str, Option<u32>); 6] = [
            ("empty", Some(EMPTY)),
            ("enemy", Some(ENEMY)),
            ("friend", Some(FRIEND)),
            ("pawn", Some(PAWN)),
            ("guarded", None),
            ("threat", None),
        ];
        let squares = [
            ("", None),
            ("[left]", Some((-1, 0))),
            ("[[1, -1]]", Some((1, -1))),
            ("[ahead * 2]", Some((0, 2))),
        ];
        let targets = [
            ((0, 1), "[ahead]"),
            ((1, 2), "[+1, +2]"),
            ((-2, 0), "[left * 2]"),
            ((1, 1), "[ahead + right]"),
        ];
        let mut moved = 0;
        for _ in 0..100 {
            let (to, vtext) = targets[r.below(targets.len())];
            let lits: Vec<(bool, usize, Option<Off>, &str)> = (0..2)
                .map(|_| {
                    let (s, o) = squares[r.below(squares.len())];
                    (r.below(2) == 0, r.below(atoms.len()), o, s)
                })
                .collect();
            let both = r.below(2) == 0;
            let text = format!(
                "{vtext} if {};",
                lits.iter()
                    .map(|(neg, a, _, s)| format!("{}{}{s}", if *neg { "not " } else { "" }, atoms[*a].0))
                    .collect::<Vec<_>>()
                    .join(if both { " and " } else { " or " })
            );
            let m = prog(&mut p, &to_algebra(&text).unwrap());
            for _ in 0..12 {
                // A 5×5 board, the piece (white) on its middle square.
                let mut b: Vec<Vec<usize>> = (0..5)
                    .map(|_| (0..5).map(|_| [18, 18, 18, 19, r.below(18)][r.below(5)]).collect())
                    .collect();
                b[2][2] = r.below(9);
                let at = |o: Off| b[(2 + o.1) as usize][(2 + o.0) as usize];
                let holds = |(neg, a, o, _): &(bool, usize, Option<Off>, &str)| {
                    let q = o.unwrap_or(to);
                    let v = match atoms[*a].1 {
                        Some(set) => bit(at(q)) & set != 0,
                        None => sees(&b, add((2, 2), q)),
                    };
                    v != *neg
                };
                let cond = if both {
                    lits.iter().all(holds)
                } else {
                    lits.iter().any(holds)
                };
                let want = if cond && at(to) != 19 {
                    let mut after = b.clone();
                    after[(2 + to.1) as usize][(2 + to.0) as usize] = b[2][2];
                    after[2][2] = 18;
                    moved += 1;
                    vec![grid(&after).rows()]
                } else {
                    vec![]
                };
                let got = boards(&m, &grid(&b), Some(Square::new(2, 2)));
                assert_eq!(got, want, "{text} on\n{}", grid(&b).rows().join("\n"));
            }
        }
        assert!(moved > 100, "only {moved} boards had a move");
    }

    /// Bad plies get a diagnostic whose span covers the culprit.
    #[test]
    fn bad_plies_are_reported_with_their_span() {
        let cases: [(&str, &str, &str); 22] = [
            ("Pawns: [ahead] if emptty;", "unknown predicate `emptty`", "emptty"),
            ("[ahaed] if empty;", "unknown vector `ahaed`", "ahaed"),
            ("[ahead if empty;", "expected `]`", "if"),
            ("[ahead] if (empty and enemy;", "expected `)`", ";"),
            ("[ahead + [1, 2] if empty;", "expected `]`", "if"),
            (
                "[0, ?] if open[[?, 1], [0, 1]];",
                "`?` stands only in a ply's own vector",
                "[?, 1]",
            ),
            ("[ahead * ?] if empty;", "a vector is multiplied by a number", "?"),
            (
                "Pawns: [ahead + left] if last_to[left];",
                "`last_to` alone cannot be read",
                "last_to[left]",
            ),
            (
                "Pawns: [ahead + left] if last[left, [0, 1]];",
                "only an enemy pawn's double step",
                "last[left, [0, 1]]",
            ),
            ("[ahead] if white;", "`white` is not read", "white"),
            ("Pawns: [ahead] if passant;", "`passant` reads the side", "passant"),
            ("[ahead] if home;", "does not remember", "home"),
            ("Knights: [1, 2] if home;", "does not remember", "home"),
            ("[ahead] $", "unexpected `$`", "$"),
            ("Dragons: [ahead];", "unknown header `dragons:`", "Dragons"),
            (
                "Kings: [king * 2] then move[[3, 0], [1, 0]];",
                "does not say what stands",
                "move[[3, 0], [1, 0]]",
            ),
            ("[0, 0];", "does not move the piece", "[0, 0]"),
            ("[ahead] if empty then fly[king];", "unknown action `fly`", "fly"),
            ("[1, 2] if open;", "not on one line", "open"),
            (
                "[ahead] if friend[[0, -1] + ahead];",
                "reads the piece's own square",
                "[ahead] if friend[[0, -1] + ahead]",
            ),
            ("[ahead] if empty and", "expected a predicate", ""),
            ("[99999999999, 1];", "number too large", "99999999999"),
        ];
        for (text, message, culprit) in cases {
            let e = match to_algebra(text) {
                Ok(alg) => panic!("{text} lowered to {alg}"),
                Err(e) => e,
            };
            let d = &e.0[0];
            assert!(d.message.contains(message), "{text}: {}", d.message);
            assert_eq!(&text[d.span.start..d.span.end], culprit, "{text}: {}", d.message);
            assert!(lower(text).is_err());
        }
        assert!(to_algebra("").unwrap_err().0[0].message.contains("no plies"));
    }

    /// Whatever the text, lowering answers without a panic, and what it
    /// gives is algebra the elaborator reads.
    #[test]
    fn lowering_never_panics() {
        let words = [
            "[",
            "]",
            "(",
            ")",
            ",",
            ";",
            ":",
            "+",
            "-",
            "*",
            "?",
            "2",
            "0",
            "ahead",
            "left",
            "king",
            "queen",
            "if",
            "and",
            "or",
            "not",
            "then",
            "empty",
            "clear",
            "open",
            "home",
            "kings_rook",
            "passant",
            "last",
            "threat",
            "mutate",
            "move",
            "Kings",
            "Pawns",
            "Globally",
            "x",
            "ü",
        ];
        let mut r = Rng(3);
        let mut p = chess();
        let mut ok = 0;
        let valid = all_plies();
        for _ in 0..400 {
            // A valid list with a few words cut out or put in.
            let mut toks: Vec<&str> = valid.split_whitespace().collect();
            for _ in 0..1 + r.below(3) {
                let i = r.below(toks.len());
                if r.below(2) == 0 {
                    toks.remove(i);
                } else {
                    toks.insert(i, words[r.below(words.len())]);
                }
            }
            let text = toks.join(" ");
            if let Ok(alg) = to_algebra(&text) {
                ok += 1;
                if ok <= 4 {
                    p.expr("ply", &alg).unwrap_or_else(|e| panic!("{text}: {}", e.render()));
                    lower(&text).unwrap();
                }
            }
        }
        assert!(ok > 10, "{ok}");
    }

    /// The syntax tree's spans point back at the plies they came from.
    #[test]
    fn the_tree_points_at_the_plies() {
        use crate::parse::ast::ExprKind;
        let text = "Pawns: [ahead] if empty;\n  [ahead + left] if enemy;";
        let plies = [Span::new(7, 23), Span::new(27, 50)];
        assert_eq!(&text[27..50], "[ahead + left] if enemy");
        let e = lower(text).unwrap();
        let mut spans = std::collections::BTreeSet::new();
        let mut stack = vec![&e];
        while let Some(e) = stack.pop() {
            spans.insert((e.span.start, e.span.end));
            match &e.kind {
                ExprKind::Call(_, a) | ExprKind::Juxt(a) => stack.extend(a.iter()),
                ExprKind::Semi(a, b) | ExprKind::Plus(a, b) | ExprKind::Bar(a, b) | ExprKind::Arrow(a, b) => {
                    stack.push(a);
                    stack.push(b);
                }
                ExprKind::Bind(_, a) | ExprKind::Post(a, _) | ExprKind::Not(a) | ExprKind::Paren(a) => stack.push(a),
                _ => {}
            }
        }
        let allowed: std::collections::BTreeSet<(usize, usize)> =
            [(0, text.len()), (7, 23), (27, 50)].into_iter().collect();
        assert_eq!(spans, allowed);
        assert_eq!(plies.len(), 2);
    }

    /// The claims of theorems/referee.alg (proved) and
    /// theorems/checked/referee.alg (held on enumeration): each ply list,
    /// commented with its plies and defined by its lowering.
    fn theorem_file(proved: bool) -> String {
        let pieces: [(&str, String, &str, bool); 6] = [
            ("referee_pawns", pawns(), "pawn_rank_2", false),
            ("referee_knights", KNIGHTS.into(), "knight", true),
            ("referee_bishops", BISHOPS.into(), "bishop", true),
            ("referee_rooks", ROOKS.into(), "rook", true),
            ("referee_queens", QUEENS.into(), "queen", true),
            (
                "referee_kings",
                KINGS.into(),
                "(king | castle_short | castle_long) not in_check",
                false,
            ),
        ];
        let mut out = String::from(THEOREM_HEAD);
        out.push_str(if proved { PROVED } else { CHECKED });
        for (name, plies, theirs, _) in pieces.into_iter().filter(|p| p.3 == proved) {
            out.push('\n');
            for line in plies.lines() {
                out.push_str(&format!("// {}\n", line.trim()));
            }
            out.push_str(&format!("{name} = {}\n", to_algebra(&plies).unwrap()));
            out.push_str(&format!("theorem {name}: {name} = {theirs}\n"));
        }
        // Written as `fmt` writes it, so the bundled files stay formatted.
        let file = crate::parse::parse_file(&out).expect("the theorem file parses");
        crate::parse::format_file(&file, &out)
    }

    const THEOREM_HEAD: &str = "// The formalized plies of Games::Chess::Referee (seed 002) are the moves
// of rules/chess.alg. Each ply list is quoted in the comment above its
// lowering by src/notation/referee.rs (`referee_theorems_are_current`
// checks this file; `cargo test --release --lib write_referee_theorems
// -- --ignored` writes it again).
//
// Where the seed's text and FIDE part, the plies read as FIDE does, and
// src/notation/referee.rs has tests showing the literal reading differs:
// sliders and the double step say `open` where the seed says `clear` (its
// `clear` also keeps them off guarded squares); castling asks the king's
// square and the one it crosses to be unguarded, not the rook's; the long
// castling moves the king two squares, not the seed's `[queen * 3]`; the
// rook's half of castling and promotion use the actions `move`, `mutate`.
";
    const PROVED: &str = "//
// Proved by `algchess prove`. Pawns and kings are in checked/referee.alg.
import \"../rules/chess.alg\"
";
    const CHECKED: &str = "//
// Not proved: saturation stops at its limits. Both hold on enumeration
// (`algchess check theorems/checked/referee.alg`: pawns on every board of up
// to 16 squares, kings on boards of up to 4 within the 10 s timeout) and on
// 10000 positions reached in play. Kept out of theorems/ so that `prove
// theorems/` stays quick.
import \"../../rules/chess.alg\"

// A pawn double-steps from the second rank only (the seed's `home`);
// chess.alg's `pawn` also lets a pawn on the first rank do so.
pawn_rank_2 = %♙: pawn_to(u, .) | pawn_to(ur, enemy) | pawn_to(ul, enemy) | not holds(% + d#) pawn_double | en_passant
";

    #[test]
    fn referee_theorems_are_current() {
        for (path, proved) in [("theorems/referee.alg", true), ("theorems/checked/referee.alg", false)] {
            let file = std::fs::read_to_string(path).unwrap_or_default();
            assert!(
                file == theorem_file(proved),
                "{path} is stale: run `cargo test --release --lib write_referee_theorems -- --ignored`"
            );
        }
    }

    #[test]
    #[ignore = "writes theorems/referee.alg"]
    fn write_referee_theorems() {
        std::fs::create_dir_all("theorems/checked").unwrap();
        std::fs::write("theorems/referee.alg", theorem_file(true)).unwrap();
        std::fs::write("theorems/checked/referee.alg", theorem_file(false)).unwrap();
    }
}
