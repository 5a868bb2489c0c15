//! The surface syntax tree, as written: names unexpanded, sorts unknown.

/// What a claim states is core vocabulary; the syntax tree holds it as read.
pub(crate) use crate::ir::{ClaimKind, Rel};

pub(crate) use crate::diag::Span;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ident {
    pub name: String,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExprKind {
    Piece(String),
    Dot,
    Hash,
    Percent,
    /// A number standing as a term: `0` is the empty fragment, `1` the
    /// identity movement.
    Num(i64),
    Word(String),
    /// `name(args)`: a call, or a movement word applied to one argument.
    Call(Ident, Vec<Expr>),
    Nil,
    Fail,
    /// Terms side by side, grouped to the right; with each term, whether
    /// it is written against the one before (`ur♟`), as read or as built
    /// (the first's is `false`).
    Juxt(Vec<Expr>, Vec<bool>),
    /// `a;b`, grouped to the right.
    Semi(Box<Expr>, Box<Expr>),
    Plus(Box<Expr>, Box<Expr>),
    Bar(Box<Expr>, Box<Expr>),
    Arrow(Box<Expr>, Box<Expr>),
    /// `%c: body`.
    Bind(Ident, Box<Expr>),
    Post(Box<Expr>, PostOp),
    /// `not M`: a test.
    Not(Box<Expr>),
    Paren(Box<Expr>),
    /// `betza"NN"`: a move written in another notation, which elaboration
    /// lowers into the algebra.
    Notation(Ident, String),
}

impl Expr {
    /// The span of a subexpression nested more than `max` levels deep, if
    /// any: found with an explicit stack, so that the check itself cannot
    /// overflow.
    pub fn nested_beyond(&self, max: usize) -> Option<Span> {
        let mut stack = vec![(self, 1usize)];
        while let Some((e, d)) = stack.pop() {
            if d > max {
                return Some(e.span);
            }
            stack.extend(e.children().into_iter().map(|a| (a, d + 1)));
        }
        None
    }

    /// Calls `f` on this expression and on every one below it, parents
    /// first, with an explicit stack (a tree may be deep).
    pub(crate) fn visit<'e>(&'e self, mut f: impl FnMut(&'e Expr)) {
        let mut stack = vec![self];
        while let Some(e) = stack.pop() {
            f(e);
            stack.extend(e.children().into_iter().rev());
        }
    }

    /// The subexpressions directly under this one, left to right.
    pub fn children(&self) -> smallvec::SmallVec<[&Expr; 2]> {
        match &self.kind {
            ExprKind::Call(_, args) | ExprKind::Juxt(args, _) => args.iter().collect(),
            ExprKind::Semi(a, b) | ExprKind::Plus(a, b) | ExprKind::Bar(a, b) | ExprKind::Arrow(a, b) => {
                smallvec::smallvec![&**a, &**b]
            }
            ExprKind::Bind(_, a) | ExprKind::Post(a, _) | ExprKind::Not(a) | ExprKind::Paren(a) => {
                smallvec::smallvec![&**a]
            }
            _ => smallvec::SmallVec::new(),
        }
    }
}

impl Expr {
    /// Points every span of the tree at `at` (a lowered notation literal,
    /// whose generated syntax has no text of its own).
    pub fn respan(&mut self, at: Span) {
        self.each_span_mut(|s| *s = at);
    }

    /// Calls `f` on every span of the tree, its names' too.
    fn each_span_mut(&mut self, mut f: impl FnMut(&mut Span)) {
        let mut stack = vec![self];
        while let Some(e) = stack.pop() {
            f(&mut e.span);
            match &mut e.kind {
                ExprKind::Call(g, args) => {
                    f(&mut g.span);
                    stack.extend(args.iter_mut());
                }
                ExprKind::Juxt(args, _) => stack.extend(args.iter_mut()),
                ExprKind::Semi(a, b) | ExprKind::Plus(a, b) | ExprKind::Bar(a, b) | ExprKind::Arrow(a, b) => {
                    stack.push(a);
                    stack.push(b);
                }
                ExprKind::Bind(c, a) => {
                    f(&mut c.span);
                    stack.push(a);
                }
                ExprKind::Notation(n, _) => f(&mut n.span),
                ExprKind::Post(a, op) => {
                    match op {
                        PostOp::Count(i) | PostOp::AtLeast(i) => i.each_span_mut(&mut f),
                        PostOp::Range(i, j) | PostOp::Angle(i, j) => {
                            i.each_span_mut(&mut f);
                            j.each_span_mut(&mut f);
                        }
                        _ => {}
                    }
                    stack.push(a);
                }
                ExprKind::Not(a) | ExprKind::Paren(a) => stack.push(a),
                _ => {}
            }
        }
    }
}

impl Drop for Expr {
    /// Takes deep trees apart with an explicit stack: the derived drop
    /// recurses once per level.
    fn drop(&mut self) {
        let mut stack: Vec<Expr> = vec![];
        let take = |kind: &mut ExprKind, stack: &mut Vec<Expr>| match kind {
            ExprKind::Call(_, args) | ExprKind::Juxt(args, _) => stack.append(args),
            ExprKind::Semi(a, b) | ExprKind::Plus(a, b) | ExprKind::Bar(a, b) | ExprKind::Arrow(a, b) => {
                stack.push(std::mem::replace(&mut **a, Expr::leaf()));
                stack.push(std::mem::replace(&mut **b, Expr::leaf()));
            }
            ExprKind::Bind(_, a) | ExprKind::Post(a, _) | ExprKind::Not(a) | ExprKind::Paren(a) => {
                stack.push(std::mem::replace(&mut **a, Expr::leaf()))
            }
            _ => {}
        };
        take(&mut self.kind, &mut stack);
        while let Some(mut e) = stack.pop() {
            take(&mut e.kind, &mut stack);
        }
    }
}

/// Which of `items`, read side by side, touch the one before: those with
/// nothing between them in the text.
pub(crate) fn touching(items: &[Expr]) -> Vec<bool> {
    std::iter::once(false)
        .chain(items.windows(2).map(|w| w[0].span.end == w[1].span.start))
        .collect()
}

impl Expr {
    /// An expression built, not read (a notation lowered, a term written
    /// back): it has no text, so its span is empty.
    pub(crate) fn built(kind: ExprKind) -> Expr {
        Expr {
            kind,
            span: Span::default(),
        }
    }

    /// A childless expression, left behind where a subtree was taken out.
    fn leaf() -> Expr {
        Expr::built(ExprKind::Nil)
    }
}

impl Ident {
    /// A name built, not read, with an empty span.
    pub(crate) fn built(name: &str) -> Ident {
        Ident {
            name: name.to_string(),
            span: Span::default(),
        }
    }
}

/// A repetition count: a number, or a count metavariable in a law.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CountArg {
    Num(i64),
    Name(Ident),
}

impl CountArg {
    fn each_span_mut(&mut self, f: &mut impl FnMut(&mut Span)) {
        if let CountArg::Name(i) = self {
            f(&mut i.span);
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PostOp {
    Star,
    /// `*!`: repeat while the move applies.
    Greedy,
    Plus,
    Opt,
    /// `{i}`
    Count(CountArg),
    /// `{i,j}`
    Range(CountArg, CountArg),
    /// `<i,j>`, the same as `{i,j}`.
    Angle(CountArg, CountArg),
    /// `{i,}`
    AtLeast(CountArg),
    /// `^k` or a superscript.
    Pow(i64, bool),
}

/// A side condition of a law, such as `translation(t)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cond {
    pub pred: Ident,
    pub args: Vec<Ident>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StmtKind {
    /// `NAME = BODY` or `NAME(PARAMS) = BODY`; with `override` first, it
    /// replaces an imported definition of NAME, for every use of NAME.
    Def {
        name: Ident,
        params: Option<Vec<Ident>>,
        body: Expr,
        overrides: bool,
    },
    Claim {
        kind: ClaimKind,
        name: Ident,
        lhs: Expr,
        rel: Rel,
        rhs: Expr,
        conds: Vec<Cond>,
    },
    /// `piece W / B`: colour twins. Each side is one piece, or four that
    /// are one piece turned a quarter turn at a time; each piece is a glyph,
    /// an ASCII spelling, or a glyph then an ASCII spelling. Without `/ B`,
    /// colour reversal leaves the pieces alone.
    Piece {
        white: Vec<Ident>,
        black: Option<Vec<Ident>>,
    },
    /// `game NAME(BOARD) = M1, M2, ...`: a board to start from, and the
    /// moves of the sides in turn order.
    Game { name: Ident, board: Expr, turns: Vec<Expr> },
    /// `game NAME KIND: A, B, ...`: how game NAME ends (`check`, `stuck`,
    /// `lost`, `draws`); `src/elab/ends.rs` says what each kind takes.
    GameEnd { game: Ident, kind: Ident, args: Vec<Expr> },
    /// `game NAME = BASE`: game BASE of an imported file, with its ends,
    /// read again with this file's definitions (a derived variant).
    GameFrom { name: Ident, base: Ident },
    /// `import "PATH"`: the pieces and definitions of another rule file,
    /// its path relative to this file's folder.
    Import { path: Ident },
    /// `grid square` or `grid hex`: the grid the file's moves are on.
    Grid { name: Ident },
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stmt {
    pub kind: StmtKind,
    pub span: Span,
}

impl Stmt {
    /// The expressions the statement holds, left to right.
    pub(crate) fn exprs(&self) -> Vec<&Expr> {
        match &self.kind {
            StmtKind::Def { body, .. } => vec![body],
            StmtKind::Claim { lhs, rhs, .. } => vec![lhs, rhs],
            StmtKind::Game { board, turns, .. } => std::iter::once(board).chain(turns).collect(),
            StmtKind::GameEnd { args, .. } => args.iter().collect(),
            StmtKind::Piece { .. } | StmtKind::Import { .. } | StmtKind::Grid { .. } | StmtKind::GameFrom { .. } => {
                vec![]
            }
        }
    }
}

/// A parsed file.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct File {
    pub stmts: Vec<Stmt>,
    pub comments: Vec<super::lexer::Comment>,
}
