//! PGN, chess's notation for games: tag pairs, then the moves, with move
//! numbers, comments (`{...}`, `; ...`), NAGs (`$1`), variations (`(...)`,
//! skipped) and the result; several games a file. Move lists written
//! as Referee examples write them read too: a `...` standing for a ply left out, not
//! after a move number, makes the rest of its line a comment.

use crate::diag::clip;

/// Where something is in the text: line and column, from 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct At {
    /// Line, from 1.
    pub line: usize,
    /// Column in characters, from 1.
    pub col: usize,
}

/// A ply as written (without its move number), and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WrittenPly {
    /// The ply's text (`Nf3`).
    pub text: String,
    /// Where the ply starts.
    pub at: At,
}

/// One game read from PGN.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Record {
    /// The tag pairs, name and value, in file order.
    pub tags: Vec<(String, String)>,
    /// The plies of the main line; variations are skipped.
    pub plies: Vec<WrittenPly>,
    /// The result that ends the move text (`1-0`, `0-1`, `1/2-1/2`, `*`).
    pub result: Option<String>,
    /// Where the game starts.
    pub at: At,
}

impl Record {
    /// The value of tag `name`; the last, when it is given twice (as
    /// python-chess reads it).
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags.iter().rev().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }
}

/// Malformed PGN.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    /// Where the problem is.
    pub at: At,
    /// What is wrong, for the user.
    pub message: String,
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}: {}", self.at.line, self.at.col, self.message)
    }
}

impl std::error::Error for Error {}

struct Reader<'a> {
    chars: Vec<char>,
    i: usize,
    line: usize,
    col: usize,
    _text: &'a str,
}

impl Reader<'_> {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.i).copied()
    }
    fn at(&self) -> At {
        At {
            line: self.line,
            col: self.col,
        }
    }
    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.i += 1;
        if c == '\n' {
            self.line += 1;
            self.col = 1;
        } else {
            self.col += 1;
        }
        Some(c)
    }
    fn skip_line(&mut self) {
        while let Some(c) = self.peek() {
            if c == '\n' {
                break;
            }
            self.bump();
        }
    }
    fn word(&mut self) -> String {
        let start = self.i;
        while let Some(c) = self.peek() {
            if c.is_whitespace() || matches!(c, '{' | '}' | '(' | ')' | '[' | ']' | ';' | '$') {
                break;
            }
            self.bump();
        }
        self.chars[start..self.i].iter().collect()
    }
    fn err<T>(&self, at: At, message: impl Into<String>) -> Result<T, Error> {
        Err(Error {
            at,
            message: message.into(),
        })
    }
}

/// A result that ends the move text: `1-0`, `0-1`, `1/2-1/2`, `*`, or
/// points split otherwise, in fractions (Gliński's stalemate: `3/4-1/4`).
/// A result: `*`, or points for each side that sum to one (`1-0`,
/// `1/2-1/2`, Gliński's `3/4-1/4`, `0-1-0` for the second of three
/// sides), or two points a game as international draughts writes them in
/// PDN (`2-0`, `0-2`, `1-1`); `0-0` and `0-0-0` are castling.
fn is_result(w: &str) -> bool {
    let points = |p: &str| -> Option<(u64, u64)> {
        let (n, d) = p.split_once('/').unwrap_or((p, "1"));
        let digits = |x: &str| !x.is_empty() && x.len() <= 6 && x.chars().all(|c| c.is_ascii_digit());
        if !digits(n) || !digits(d) {
            return None;
        }
        let (n, d) = (n.parse().ok()?, d.parse().ok()?);
        (d > 0).then_some((n, d))
    };
    // The shares sum to one point: as fractions over the product of the
    // denominators (at most six sides of six digits each stay in u128).
    let whole = |parts: Vec<&str>| -> bool {
        let Some(ps) = parts.iter().map(|p| points(p)).collect::<Option<Vec<_>>>() else {
            return false;
        };
        let den: u128 = ps.iter().map(|&(_, d)| d as u128).product();
        let sum: u128 = ps.iter().map(|&(n, d)| n as u128 * (den / d as u128)).sum();
        sum == den
    };
    let parts: Vec<&str> = w.split('-').collect();
    w == "*" || matches!(w, "2-0" | "0-2" | "1-1") || ((2..=MAX_SIDES).contains(&parts.len()) && whole(parts))
}

/// The most sides a result names: a game of more sides writes each
/// side's share of the point in turn order (`0-1-0`, `1/3-1/3-1/3`).
const MAX_SIDES: usize = 6;

/// Reads every game of a PGN text; the first malformed one is an error.
pub fn read(text: &str) -> Result<Vec<Record>, Error> {
    read_all(text, 1).into_iter().collect()
}

/// Reads every game of a PGN text whose first line is line `first_line`
/// of its file. A malformed game is an error in its place, and reading
/// goes on at the next line that starts with a tag pair.
pub fn read_all(text: &str, first_line: usize) -> Vec<Result<Record, Error>> {
    // A byte order mark is not part of the text.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut r = Reader {
        chars: text.chars().collect(),
        i: 0,
        line: first_line,
        col: 1,
        _text: text,
    };
    let mut st = State::default();
    while r.peek().is_some() {
        let (i, line, col) = (r.i, r.line, r.col);
        if let Err(e) = r.token(&mut st) {
            st.games.push(Err(e));
            st.game = Record::default();
            st.started = false;
            st.after_number = false;
            // From where the bad token began (a comment left open reads to
            // the end), the next line that starts with a tag pair.
            (r.i, r.line, r.col) = (i, line, col);
            r.skip_line();
            while r.peek().is_some() && !(r.peek() == Some('[') && r.col == 1) {
                r.bump();
            }
        }
    }
    if st.started || !st.game.plies.is_empty() || !st.game.tags.is_empty() {
        st.games.push(Ok(st.game));
    }
    st.games
}

/// What the reader has read so far.
#[derive(Default)]
struct State {
    games: Vec<Result<Record, Error>>,
    game: Record,
    started: bool,
    /// Whether the last token was a move number, so that `...` after it
    /// continues with black's ply.
    after_number: bool,
}

impl State {
    fn finish(&mut self) {
        if self.started {
            self.games.push(Ok(std::mem::take(&mut self.game)));
        }
        self.started = false;
    }
}

impl Reader<'_> {
    /// Reads the token at the reader: whitespace, a tag pair, a comment,
    /// a variation, a NAG, a move number, a ply or a result.
    fn token(&mut self, st: &mut State) -> Result<(), Error> {
        let Some(c) = self.peek() else { return Ok(()) };
        let at = self.at();
        if c.is_whitespace() {
            self.bump();
            return Ok(());
        }
        if !st.started {
            st.game.at = at;
        }
        match c {
            '%' if at.col == 1 => self.skip_line(),
            ';' => self.skip_line(),
            '[' => return self.tag_pair(st, at),
            '{' => return self.comment(at),
            '(' => return self.variation(at),
            ')' => return self.err(at, "`)` closes no variation"),
            '$' => {
                self.bump();
                let n = self.word();
                if n.is_empty() || !n.chars().all(|c| c.is_ascii_digit()) {
                    return self.err(at, "a NAG is `$` and a number, such as `$1`");
                }
            }
            _ => return self.move_text(st, c, at),
        }
        Ok(())
    }

    /// Reads a tag pair, `[Name "value"]`, at `at`; one after a game's
    /// moves starts the next game.
    fn tag_pair(&mut self, st: &mut State, at: At) -> Result<(), Error> {
        if !st.game.plies.is_empty() || st.game.result.is_some() {
            st.finish();
            st.game.at = at;
        }
        st.started = true;
        self.bump();
        while self.peek().is_some_and(|c| c == ' ' || c == '\t') {
            self.bump();
        }
        let name_at = self.at();
        let mut name = String::new();
        while let Some(c) = self.peek().filter(|c| c.is_ascii_alphanumeric() || *c == '_') {
            name.push(c);
            self.bump();
        }
        if name.is_empty() {
            return self.err(name_at, "a tag pair is `[Name \"value\"]`: the tag has no name");
        }
        while self.peek().is_some_and(|c| c == ' ' || c == '\t') {
            self.bump();
        }
        if self.peek() != Some('"') {
            return self.err(
                self.at(),
                format!("tag `{}` needs a value in double quotes", clip(&name)),
            );
        }
        self.bump();
        let mut value = String::new();
        loop {
            match self.bump() {
                Some('\\') => value.extend(self.bump()),
                Some('"') => break,
                Some('\n') | None => {
                    return self.err(
                        name_at,
                        format!("the value of tag `{}` is not closed by `\"`", clip(&name)),
                    )
                }
                Some(c) => value.push(c),
            }
        }
        while self.peek().is_some_and(|c| c == ' ' || c == '\t') {
            self.bump();
        }
        if self.peek() != Some(']') {
            return self.err(self.at(), format!("tag `{}` is not closed by `]`", clip(&name)));
        }
        self.bump();
        st.game.tags.push((name, value));
        Ok(())
    }

    /// Reads a comment, `{...}`, at `at`.
    fn comment(&mut self, at: At) -> Result<(), Error> {
        self.bump();
        loop {
            match self.bump() {
                Some('}') => break,
                None => return self.err(at, "this comment is not closed by `}`"),
                _ => {}
            }
        }
        Ok(())
    }

    /// Skips a variation, `(...)`, at `at`, with the ones nested in it.
    fn variation(&mut self, at: At) -> Result<(), Error> {
        // A variation: skipped, with the ones nested in it.
        let mut depth = 0;
        loop {
            match self.bump() {
                Some('(') => depth += 1,
                Some(')') => {
                    depth -= 1;
                    if depth == 0 {
                        break;
                    }
                }
                Some('{') => while self.bump().is_some_and(|c| c != '}') {},
                Some(';') => self.skip_line(),
                Some(_) => {}
                None => return self.err(at, "this variation is not closed by `)`"),
            }
        }
        Ok(())
    }

    /// Reads a word of the move text starting with `c` at `at`: a result,
    /// a ply left out (`...`), an annotation, a move number, or a ply.
    fn move_text(&mut self, st: &mut State, c: char, at: At) -> Result<(), Error> {
        st.started = true;
        let w = self.word();
        if w.is_empty() {
            return self.err(at, format!("unexpected `{c}`"));
        }
        if is_result(&w) {
            st.game.result = Some(w);
            st.finish();
            st.after_number = false;
            return Ok(());
        }
        if w.chars().all(|c| c == '.') {
            if !st.after_number {
                // A ply left out, as in `3. Qh5 ... Qf3 would also
                // serve.`: the rest of the line is commentary.
                self.skip_line();
            }
            st.after_number = false;
            return Ok(());
        }
        // An annotation set apart from its move (`Bxf7+ ?`), or a
        // move number without its dot (`15 Qc2`), as python-chess
        // reads them.
        if w.chars().all(|c| matches!(c, '!' | '?')) || w.chars().all(|c| c.is_ascii_digit()) {
            st.after_number = w.starts_with(|c: char| c.is_ascii_digit());
            return Ok(());
        }
        // A move number, perhaps with the move glued on: `12.e4`.
        let digits = w.chars().take_while(|c| c.is_ascii_digit()).count();
        let dots = w[digits..].chars().take_while(|c| *c == '.').count();
        if digits > 0 && dots > 0 {
            let rest = &w[digits + dots..];
            st.after_number = true;
            if !rest.is_empty() {
                let col = at.col + digits + dots;
                st.game.plies.push(WrittenPly {
                    text: rest.to_string(),
                    at: At { line: at.line, col },
                });
                st.after_number = false;
            }
            return Ok(());
        }
        st.after_number = false;
        st.game.plies.push(WrittenPly { text: w, at });
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plies(g: &Record) -> Vec<&str> {
        g.plies.iter().map(|p| p.text.as_str()).collect()
    }

    #[test]
    fn reads_tags_comments_nags_variations_and_several_games() {
        let text = "[Event \"One\"]\n[Site \"?\"]\n\n1. e4 {best by test} e5 $1 2. Nf3 (2. f4 exf4 (2... d5)) ; a comment\nNc6 3.Bb5 1-0\n\n[Event \"Two\"]\n1. d4 d5 *\n";
        let games = read(text).unwrap();
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].tag("Event"), Some("One"));
        assert_eq!(plies(&games[0]), ["e4", "e5", "Nf3", "Nc6", "Bb5"]);
        assert_eq!(games[0].result.as_deref(), Some("1-0"));
        assert_eq!(games[0].plies[4].at, At { line: 5, col: 7 });
        assert_eq!(plies(&games[1]), ["d4", "d5"]);
        assert_eq!(games[1].result.as_deref(), Some("*"));
        assert!([
            "1-0",
            "0-1",
            "1/2-1/2",
            "3/4-1/4",
            "1/4-3/4",
            "0-1-0",
            "1/3-1/3-1/3",
            "0-0-0-0-0-1",
            // International draughts' PDN: two points a game.
            "2-0",
            "1-1"
        ]
        .iter()
        .all(|r| is_result(r)));
        assert!(![
            "1-1/",
            "e4",
            "1-2",
            "-",
            "0-0",
            "0-0-0",
            "1-1-0",
            "0-0-0-0-0-0-1",
            "1--0"
        ]
        .iter()
        .any(|r| is_result(r)));
    }

    /// Castling written with zeros is a ply, not a result that ends the
    /// game; a byte order mark starts no game.
    #[test]
    fn zero_castling_and_a_byte_order_mark() {
        let text = "\u{feff}[Event \"One\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. 0-0 Nf6 5. d3 0-0 1/2-1/2\n";
        let games = read(text).unwrap();
        assert_eq!(games.len(), 1);
        assert_eq!(games[0].tag("Event"), Some("One"));
        assert_eq!(plies(&games[0]).len(), 10);
        assert_eq!(plies(&games[0])[6], "0-0");
        assert_eq!(games[0].result.as_deref(), Some("1/2-1/2"));
        // A detached annotation, and move numbers without dots.
        let games = read("1 e4 e5 2 Bc4 Nc6 3 Qh5 Nf6 ?? 4 Qxf7# 1-0").unwrap();
        assert_eq!(plies(&games[0]), ["e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6", "Qxf7#"]);
    }

    #[test]
    fn reads_the_seed_s_scholar_s_mate() {
        let text = "    1. e4     e5\n    2. Bc4    h6?\n    3. Qh5    ...    Qf3 would also serve.\n    3. ...    a5??\n    4. Qxf7#\n";
        let games = read(text).unwrap();
        assert_eq!(plies(&games[0]), ["e4", "e5", "Bc4", "h6?", "Qh5", "a5??", "Qxf7#"]);
    }

    /// A malformed game is an error in its place, and reading goes on at
    /// the next tag pair, with the file's line numbers.
    #[test]
    fn reading_goes_on_after_a_malformed_game() {
        let text = "[Event \"a\"]\n1. e4 {open\n\n[Event \"b\"]\n1. d4 *\n[Event x]\n\n[Event \"c\"]\n1. c4 *\n";
        let games = read_all(text, 10);
        assert_eq!(games.len(), 4, "{games:?}");
        assert_eq!(games[0].as_ref().unwrap_err().at, At { line: 11, col: 7 });
        assert_eq!(games[1].as_ref().unwrap().tag("Event"), Some("b"));
        assert_eq!(games[1].as_ref().unwrap().plies[0].at.line, 14);
        assert!(games[2].as_ref().unwrap_err().message.contains("double quotes"));
        assert_eq!(plies(games[3].as_ref().unwrap()), ["c4"]);
        assert!(read(text).is_err());
    }

    #[test]
    fn malformed_pgn_is_located() {
        let e = read("[Event \"x]\n1. e4").unwrap_err();
        assert_eq!(e.at, At { line: 1, col: 2 });
        assert!(e.message.contains("not closed"), "{}", e.message);
        let e = read("[Event x]").unwrap_err();
        assert!(e.message.contains("double quotes"), "{}", e.message);
        let e = read("1. e4 {open").unwrap_err();
        assert_eq!(e.at, At { line: 1, col: 7 });
        assert!(read("1. e4 ( e5").is_err());
        assert!(read("1. e4 $x").is_err());
    }
}
