//! Interactive play: draw the board, list the legal moves, read the player's
//! choice line by line, and keep a history for `undo`.
//!
//! The loop reads any [`BufRead`] and writes any [`Write`], so it runs the
//! same on a terminal, on a pipe, and in tests.

use algchess_core::Grid;
use algchess_core::{move_names, Position, Rules, TooBig};
use algchess_core::{Content, Pieces};
use algchess_core::{DrawClaim, Match};
use algchess_core::{Ending, GameOutcome};
use algchess_core::{Game, Program};
use algchess_core::{Square, Tiling};
use std::fmt;
use std::io::{self, BufRead, Write};

/// How to draw and talk.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Style {
    /// Highlight changed squares with ANSI colours (for a terminal). Without
    /// colour, the changed squares are listed on a line of their own.
    pub colour: bool,
    /// Repeat each input line after the prompt, so that a transcript of
    /// piped input reads as a dialogue.
    pub echo: bool,
}

/// How a game of interactive play ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum End {
    /// The player typed `quit`.
    Quit,
    /// The input ran out.
    Eof,
    /// The side to move had no moves; its turn index.
    NoMoves(usize),
    /// The rules ended the game: checkmate, stalemate, an automatic draw.
    Over(GameOutcome),
    /// The side to move claimed a draw.
    Claimed(DrawClaim),
}

/// A game played: how it ended, its plies in SAN (for chess), its result.
#[derive(Clone, Debug)]
pub(crate) struct Played {
    pub end: End,
    pub san: Vec<String>,
    pub result: String,
}

/// Why the loop stopped early.
#[derive(Debug)]
pub(crate) enum PlayError {
    Io(io::Error),
    /// A move could not be found within its limits.
    TooBig(TooBig),
}

impl From<io::Error> for PlayError {
    fn from(e: io::Error) -> PlayError {
        PlayError::Io(e)
    }
}

impl From<TooBig> for PlayError {
    fn from(e: TooBig) -> PlayError {
        PlayError::TooBig(e)
    }
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayError::Io(e) => write!(f, "{e}"),
            PlayError::TooBig(e) => e.fmt(f),
        }
    }
}

const HELP: &str = "\
Type a move's number from the list, or its name: `e2e4`, or any prefix of
a name that only one move has (`e7e8=♕` needs the full name when several
promotions exist; `=Q` and `=q` also spell the piece). Two squares, such as
`e1g1`, also pick the move that takes a piece from the first to the second.
Chess moves may also be written in SAN (`Nf3`, `exd5`, `e8=Q`, `O-O`).
Commands:
  claim   claim a draw (fifty moves, threefold repetition) when one may
  moves   list the legal moves again
  board   draw the board and the moves again
  undo    take back the last move
  help    show this text
  quit    leave (so does the end of the input)";

/// The names of a game's turns as the declaration writes them
/// (`game chess(start) = white, black` gives `white` and `black`; a game
/// derived from another, `game amazon = chess`, its base's), or `None`
/// for a turn written as nothing.
pub(crate) fn turn_names(_prog: &Program, game: &Game) -> Vec<Option<String>> {
    game.turn_texts
        .iter()
        .map(|p| {
            let p = p
                .lines()
                .map(|l| l.split("//").next().unwrap_or(""))
                .collect::<Vec<_>>()
                .join(" ");
            let p = p.split_whitespace().collect::<Vec<_>>().join(" ");
            if p.is_empty() {
                None
            } else if p.chars().count() > 40 {
                Some(format!("{}…", p.chars().take(39).collect::<String>()))
            } else {
                Some(p)
            }
        })
        .collect()
}

/// `turn 1 of 2 (white)`: counting from 1, with the declaration's name.
pub(crate) fn turn_label(turn: usize, count: usize, names: &[Option<String>]) -> String {
    match names.get(turn) {
        Some(Some(n)) => format!("turn {} of {count} ({n})", turn + 1),
        _ => format!("turn {} of {count}", turn + 1),
    }
}

/// A move's name, cells named on `tiling`; `(no change)` for a move that
/// leaves the board as it is.
pub(crate) fn move_name(before: &Grid, after: &Grid, tiling: Tiling, pieces: &Pieces) -> String {
    let n = move_names::describe_on(before, after, tiling, pieces);
    if n.is_empty() {
        "(no change)".into()
    } else {
        n
    }
}

/// The legal moves from `pos`, named and sorted by name.
pub(crate) fn legal_moves(rules: &Rules, pos: &Position) -> Result<Vec<(String, Position)>, TooBig> {
    let mut moves: Vec<(String, Position)> = rules
        .successors(pos)?
        .into_iter()
        .map(|p| (move_name(&pos.board, &p.board, rules.tiling, &rules.pieces), p))
        .collect();
    moves.sort_by(|a, b| a.0.cmp(&b.0).then_with(|| a.1.board.cmp(&b.1.board)));
    moves.dedup_by(|a, b| a.1 == b.1);
    Ok(moves)
}

/// The file letters of column `x`: `e` for 4.
fn file_name(x: i32) -> String {
    let name = Square::new(x, 0).name();
    name.strip_suffix('1').unwrap_or(&name).to_string()
}

/// The board drawn with file letters above and below and rank numbers on
/// both sides, a1 at the bottom left: `·` an empty square, `░` a square off
/// the board. Squares in `changed` get a coloured background with `colour`.
pub(crate) fn draw(board: &Grid, changed: &[Square], colour: bool, pieces: &Pieces) -> Vec<String> {
    let o = board.origin();
    let glyph = |q: Square| match board.get(q) {
        None => "░".to_string(),
        Some(Content::Empty) => "·".to_string(),
        Some(c) => pieces.show(&move_names::looks(c, pieces)).to_string(),
    };
    let squares = |y: i32| (0..board.width()).map(move |x| Square::new(o.x + x, o.y + y));
    let cell_width = (0..board.height())
        .flat_map(squares)
        .map(|q| glyph(q).chars().count())
        .chain((0..board.width()).map(|x| file_name(o.x + x).chars().count()))
        .max()
        .unwrap_or(1);
    let rank_width = (0..board.height())
        .map(|y| (o.y + y + 1).to_string().len())
        .max()
        .unwrap_or(1);
    let pad = |s: &str| {
        let n = s.chars().count();
        let left = (cell_width - n) / 2;
        format!(" {}{s}{} ", " ".repeat(left), " ".repeat(cell_width - n - left))
    };
    let files: String = (0..board.width()).map(|x| pad(&file_name(o.x + x))).collect();
    let files = format!("{} {}", " ".repeat(rank_width), files).trim_end().to_string();
    let mut lines = vec![files.clone()];
    for y in (0..board.height()).rev() {
        let mut line = format!("{:>rank_width$} ", o.y + y + 1);
        for q in squares(y) {
            let cell = pad(&glyph(q));
            if colour && changed.contains(&q) {
                line.push_str(&format!("\x1b[30;43m{cell}\x1b[0m"));
            } else {
                line.push_str(&cell);
            }
        }
        line.push_str(&format!(" {}", o.y + y + 1));
        lines.push(line);
    }
    lines.push(files);
    lines
}

/// A hex board drawn as `Grid::hex_lines` draws it, with `·` for an empty
/// cell and the changed cells coloured as in `draw`.
pub(crate) fn draw_hex(board: &Grid, changed: &[Square], colour: bool, pieces: &Pieces) -> Vec<String> {
    board.hex_lines_with(|q, c| {
        let glyph = match c {
            Content::Empty => "·".to_string(),
            c => pieces.show(&move_names::looks(c, pieces)).to_string(),
        };
        let width = glyph.chars().count();
        if colour && changed.contains(&q) {
            (format!("\x1b[30;43m{glyph}\x1b[0m"), width)
        } else {
            (glyph, width)
        }
    })
}

/// The numbered list of moves, in columns read downwards.
pub(crate) fn move_list(moves: &[(String, Position)]) -> Vec<String> {
    let number_width = moves.len().to_string().len();
    let entries: Vec<String> = moves
        .iter()
        .enumerate()
        .map(|(i, (name, _))| format!("{:>number_width$}. {name}", i + 1))
        .collect();
    let width = entries.iter().map(|e| e.chars().count()).max().unwrap_or(0) + 3;
    let columns = (78 / width).clamp(1, 8);
    let rows = entries.len().div_ceil(columns);
    (0..rows)
        .map(|r| {
            let mut line = String::from("  ");
            for c in 0..columns {
                if let Some(e) = entries.get(c * rows + r) {
                    line.push_str(&format!("{e:<width$}"));
                }
            }
            line.trim_end().to_string()
        })
        .collect()
}

/// What a line of input asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Action {
    /// An empty line.
    Nothing,
    Quit,
    Help,
    Moves,
    Board,
    Undo,
    /// Play the move with this index in the list.
    Play(usize),
    /// Nothing to do but tell the player this.
    Say(String),
}

/// The input, and the input with ASCII piece spellings after `=` written
/// as glyphs (`e7e8=Q` and `e7e8=q` as `e7e8=♕` and `e7e8=♛`).
fn spellings(input: &str, pieces: &Pieces) -> Vec<String> {
    let mut out = vec![input.to_string()];
    let Some((head, tail)) = input.split_once('=') else {
        return out;
    };
    let end = tail
        .char_indices()
        .find(|&(_, c)| !(c.is_ascii_alphanumeric() || c == '_' || c == '\''))
        .map_or(tail.len(), |(i, _)| i);
    let (word, rest) = tail.split_at(end);
    let word = word.trim_start_matches('\'');
    if word.is_empty() {
        return out;
    }
    for w in [word.to_string(), word.to_ascii_uppercase(), word.to_ascii_lowercase()] {
        if let Some(p) = pieces.lookup(&format!("'{w}")) {
            let s = format!("{head}={}{rest}", pieces.glyph(p));
            if !out.contains(&s) {
                out.push(s);
            }
        }
    }
    out
}

fn candidates(moves: &[(String, Position)], found: &[usize]) -> String {
    found
        .iter()
        .map(|&i| format!("{}. {}", i + 1, moves[i].0))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Reads one line of input against the legal moves from `before`, cells
/// named on `tiling`.
pub(crate) fn interpret(
    line: &str,
    before: &Grid,
    tiling: Tiling,
    moves: &[(String, Position)],
    pieces: &Pieces,
) -> Action {
    let input = line.trim();
    if input.is_empty() {
        return Action::Nothing;
    }
    match input.to_ascii_lowercase().as_str() {
        "quit" | "exit" => return Action::Quit,
        "help" | "?" => return Action::Help,
        "moves" => return Action::Moves,
        "board" => return Action::Board,
        "undo" => return Action::Undo,
        _ => {}
    }
    if moves.is_empty() {
        return Action::Say("there are no legal moves".into());
    }
    if input.chars().all(|c| c.is_ascii_digit()) {
        return match input.parse::<usize>() {
            Ok(n) if (1..=moves.len()).contains(&n) => Action::Play(n - 1),
            _ => Action::Say(format!("there is no move {input}; pick 1 to {}", moves.len())),
        };
    }
    let alternatives = spellings(input, pieces);
    let matching = |f: &dyn Fn(&str, &str) -> bool| -> Vec<usize> {
        (0..moves.len())
            .filter(|&i| alternatives.iter().any(|a| f(&moves[i].0, a)))
            .collect()
    };
    let exact = matching(&|name, a| name == a);
    if let [i] = exact[..] {
        return Action::Play(i);
    }
    let prefix = matching(&|name, a| name.starts_with(a));
    match prefix[..] {
        [i] => return Action::Play(i),
        [] => {}
        _ => {
            return Action::Say(format!(
                "`{input}` could be any of {} moves: {}; type more of the name, or the number",
                prefix.len(),
                candidates(moves, &prefix)
            ))
        }
    }
    // Two squares: a piece leaves the first and lands on the second
    // (castling's `e1g1`).
    if let Some((from, rest)) = move_names::cell_prefix(before, tiling, input) {
        let rest = rest.trim_start_matches(['-', 'x', ' ']);
        if let Some((to, "")) = move_names::cell_prefix(before, tiling, rest) {
            let found: Vec<usize> = (0..moves.len())
                .filter(|&i| {
                    let after = &moves[i].1.board;
                    matches!(before.get(from), Some(Content::Piece(_)))
                        && after.get(from) == Some(Content::Empty)
                        && matches!(after.get(to), Some(Content::Piece(_)))
                        && after.get(to) != before.get(to)
                })
                .collect();
            match found[..] {
                [i] => return Action::Play(i),
                [] => {}
                _ => {
                    return Action::Say(format!(
                        "`{input}` could be any of {} moves: {}; type the full name, or the number",
                        found.len(),
                        candidates(moves, &found)
                    ))
                }
            }
            return Action::Say(format!(
                "no legal move takes a piece from {} to {}; type `moves` for the list",
                move_names::cell_name(before, tiling, from),
                move_names::cell_name(before, tiling, to)
            ));
        }
    }
    Action::Say(format!(
        "`{input}` is neither a legal move nor a command; type `moves` for the moves or `help`"
    ))
}

struct Session<'a, W: Write> {
    rules: &'a Rules,
    names: &'a [Option<String>],
    out: W,
    style: Style,
    /// Told each board shown, with the squares its last move changed.
    shown: &'a dyn Fn(&Grid, &[Square]),
}

impl<W: Write> Session<'_, W> {
    fn show_board(&mut self, pos: &Position, previous: Option<&Position>, fen: Option<String>) -> io::Result<()> {
        let changed = previous.map_or(vec![], |p| p.board.diff(&pos.board));
        (self.shown)(&pos.board, &changed);
        writeln!(self.out)?;
        let lines = match self.rules.tiling {
            Tiling::Hex => draw_hex(&pos.board, &changed, self.style.colour, &self.rules.pieces),
            Tiling::Square => draw(&pos.board, &changed, self.style.colour, &self.rules.pieces),
        };
        for line in lines {
            writeln!(self.out, "{line}")?;
        }
        // A chess board also in FEN, which shows what its markers carry
        // (castling rights, the en passant square) and can be pasted into
        // `perft --fen`.
        if let Some(fen) = fen {
            writeln!(self.out, "fen: {fen}")?;
        }
        if let Some(p) = previous {
            let tiling = self.rules.tiling;
            write!(
                self.out,
                "last move: {}",
                move_name(&p.board, &pos.board, tiling, &self.rules.pieces)
            )?;
            if !self.style.colour {
                let squares: Vec<String> = changed
                    .iter()
                    .map(|q| move_names::cell_name(&pos.board, tiling, *q))
                    .collect();
                write!(self.out, "   changed: {}", squares.join(" "))?;
            }
            writeln!(self.out)?;
        }
        Ok(())
    }

    /// Says that the side to move, `turn`, has no moves: the game is over.
    fn show_no_moves(&mut self, turn: usize) -> io::Result<()> {
        let label = turn_label(turn, self.rules.turns.len(), self.names);
        writeln!(self.out, "game over: no moves for {label}")?;
        self.out.flush()
    }

    /// Says how the game ended, with the winner of a `won` end, and its
    /// result.
    fn show_end(&mut self, o: GameOutcome) -> io::Result<()> {
        let by = match (o.ending, o.winner) {
            (Ending::Won, Some(w)) => format!(" by {}", turn_label(w, self.rules.turns.len(), self.names)),
            _ => String::new(),
        };
        writeln!(
            self.out,
            "game over: {}{by}; result {}",
            o.ending.name().replace('_', " "),
            o.result()
        )?;
        self.out.flush()
    }

    /// Prompts for a command and reads its line, echoed when the style
    /// asks; `None` at the end of the input.
    fn read_command<R: BufRead>(&mut self, input: &mut R) -> io::Result<Option<String>> {
        write!(self.out, "> ")?;
        self.out.flush()?;
        let mut bytes = vec![];
        if input.read_until(b'\n', &mut bytes)? == 0 {
            writeln!(self.out)?;
            self.out.flush()?;
            return Ok(None);
        }
        let line = String::from_utf8_lossy(&bytes).into_owned();
        if self.style.echo {
            writeln!(self.out, "{}", line.trim_end())?;
        }
        Ok(Some(line))
    }

    /// Says that the move listed as `name`, legal move `j` of `m`, is
    /// played: in `chess` as SAN with its move number, kept in `san`; in
    /// `draughts` as PDN, numbered as chess numbers its plies; otherwise
    /// by its name.
    fn show_played(
        &mut self,
        m: &mut Match,
        name: &str,
        j: usize,
        chess: bool,
        draughts: bool,
        san: &mut Vec<String>,
    ) -> Result<(), PlayError> {
        let number = if m.pos.turn == 0 {
            format!("{}.", m.fullmove)
        } else {
            format!("{}...", m.fullmove)
        };
        if chess {
            let ply = m.san(j)?;
            writeln!(self.out, "played {name}: {number} {ply}")?;
            san.push(ply);
        } else if draughts {
            writeln!(self.out, "played {name}: {number} {}", m.san(j)?)?;
        } else {
            writeln!(self.out, "played {name}")?;
        }
        Ok(())
    }

    fn show_moves(&mut self, pos: &Position, moves: &[(String, Position)]) -> io::Result<()> {
        let label = turn_label(pos.turn, self.rules.turns.len(), self.names);
        let count = match moves.len() {
            1 => "1 legal move".to_string(),
            n => format!("{n} legal moves"),
        };
        writeln!(self.out, "{label} to move, {count}:")?;
        for line in move_list(moves) {
            writeln!(self.out, "{line}")?;
        }
        Ok(())
    }
}

/// Plays from `start`, reading commands from `input` until `quit`, the end
/// of the input, or a position where the side to move has no moves.
/// `names` are the turns' names (see [`turn_names`]).
#[cfg(test)]
pub(crate) fn play<R: BufRead, W: Write>(
    rules: &Rules,
    names: &[Option<String>],
    start: Position,
    input: R,
    out: W,
    style: Style,
) -> Result<End, PlayError> {
    let m = Match::new(rules, start, 0, 1)?;
    play_match(names, m, input, out, style, &|_, _| {}).map(|p| p.end)
}

/// What command `line` asks of the game at `m`, whose legal moves are
/// listed as `moves`. A chess move in SAN or UCI (when `chess`), or a
/// draughts ply in PDN, first: `e4` is a pawn's move, not a prefix of
/// `e4e5`.
fn read_action(m: &Match, line: &str, chess: bool, moves: &[(String, Position)]) -> Action {
    let rules = m.rules;
    let by_san = if chess || algchess_core::pdn::is_pdn(line) {
        m.find(line).ok()
    } else {
        None
    };
    match by_san {
        Some(j) => Action::Play(
            moves
                .iter()
                .position(|(_, p)| *p == m.legal()[j])
                .expect("the listed moves are the legal ones"),
        ),
        None => interpret(line, &m.pos.board, rules.tiling, moves, &rules.pieces),
    }
}

/// [`play`] from a game in progress (its move counters and the positions
/// it has seen), announcing check, the end and claimable draws by name;
/// `shown` is told each board shown.
pub(crate) fn play_match<R: BufRead, W: Write>(
    names: &[Option<String>],
    start: Match,
    mut input: R,
    out: W,
    style: Style,
    shown: &dyn Fn(&Grid, &[Square]),
) -> Result<Played, PlayError> {
    let rules = start.rules;
    let mut s = Session {
        rules,
        names,
        out,
        style,
        shown,
    };
    // SAN needs chess's boards: those FEN can write.
    let chess = start.fen().is_some();
    let draughts = !chess && rules.tiling == Tiling::Square && algchess_core::pdn::numbered(&rules.start().board);
    let mut history: Vec<Match> = vec![];
    let mut san: Vec<String> = vec![];
    let mut m = start;
    let done = |end: End, san: Vec<String>, result: &str| Played {
        end,
        san,
        result: result.to_string(),
    };
    loop {
        let moves = legal_moves(rules, &m.pos)?;
        s.show_board(&m.pos, history.last().map(|h| &h.pos), m.fen())?;
        if let Some(o) = m.end()? {
            if !o.decided() {
                s.show_no_moves(m.pos.turn)?;
                return Ok(done(End::NoMoves(m.pos.turn), san, "*"));
            }
            s.show_end(o)?;
            return Ok(done(End::Over(o), san, &o.result()));
        }
        if moves.is_empty() {
            s.show_no_moves(m.pos.turn)?;
            return Ok(done(End::NoMoves(m.pos.turn), san, "*"));
        }
        let claimable = if chess { m.claimable()? } else { vec![] };
        if !claimable.is_empty() {
            let c: Vec<String> = claimable.iter().map(|c| c.name().replace('_', " ")).collect();
            writeln!(s.out, "a draw may be claimed ({}): type `claim`", c.join(", "))?;
        }
        s.show_moves(&m.pos, &moves)?;
        loop {
            let Some(line) = s.read_command(&mut input)? else {
                return Ok(done(End::Eof, san, "*"));
            };
            if line.trim() == "claim" {
                match claimable.first() {
                    Some(c) => {
                        writeln!(s.out, "draw claimed: {}; result 1/2-1/2", c.name().replace('_', " "))?;
                        s.out.flush()?;
                        return Ok(done(End::Claimed(*c), san, "1/2-1/2"));
                    }
                    None => {
                        writeln!(s.out, "no draw can be claimed here")?;
                        continue;
                    }
                }
            }
            match read_action(&m, &line, chess, &moves) {
                Action::Nothing => {}
                Action::Quit => {
                    s.out.flush()?;
                    return Ok(done(End::Quit, san, "*"));
                }
                Action::Help => writeln!(s.out, "{HELP}")?,
                Action::Moves => s.show_moves(&m.pos, &moves)?,
                Action::Board => {
                    s.show_board(&m.pos, history.last().map(|h| &h.pos), m.fen())?;
                    s.show_moves(&m.pos, &moves)?;
                }
                Action::Undo => match history.pop() {
                    Some(p) => {
                        writeln!(
                            s.out,
                            "took back {}",
                            move_name(&p.pos.board, &m.pos.board, rules.tiling, &rules.pieces)
                        )?;
                        m = p;
                        san.pop();
                        break;
                    }
                    None => writeln!(s.out, "nothing to undo: no move has been played yet")?,
                },
                Action::Play(i) => {
                    let j = m
                        .legal()
                        .iter()
                        .position(|p| *p == moves[i].1)
                        .expect("the listed moves are the legal ones");
                    s.show_played(&mut m, &moves[i].0, j, chess, draughts, &mut san)?;
                    history.push(m.clone());
                    m.play(j)?;
                    break;
                }
                Action::Say(msg) => writeln!(s.out, "{msg}")?,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(text: &str) -> (Program, Rules) {
        let prog = Program::from_text("test.alg", text).unwrap();
        let rules = Rules::new(&prog.games()[0]);
        (prog, rules)
    }

    const PAWNS: &str = "\
start = ♙♙;..;♟.
step = %♙: (% + u. -> . + u%)
other = %♟: (% + d. -> . + d%)
game pawns(start) = step, // white
    other
";

    fn transcript(text: &str, input: &str) -> (End, String) {
        let (prog, rules) = game(text);
        let names = turn_names(&prog, &prog.games()[0]);
        let mut out = vec![];
        let end = play(
            &rules,
            &names,
            rules.start(),
            input.as_bytes(),
            &mut out,
            Style::default(),
        )
        .unwrap();
        (end, String::from_utf8(out).unwrap())
    }

    #[test]
    fn turn_names_come_from_the_declaration() {
        let (prog, _) = game(PAWNS);
        assert_eq!(
            turn_names(&prog, &prog.games()[0]),
            vec![Some("step".to_string()), Some("other".to_string())]
        );
        let (prog, _) = game("b = ♙;.\ngame g(b) = %♙: (% + u. -> . + u%)<1,2>, nil\n");
        assert_eq!(
            turn_names(&prog, &prog.games()[0]),
            vec![Some("%♙: (% + u. -> . + u%)<1,2>".to_string()), Some("nil".to_string())]
        );
    }

    #[test]
    fn the_board_has_files_and_ranks() {
        let (_, rules) = game(PAWNS);
        let lines = draw(&rules.start, &[], false, &rules.pieces);
        assert_eq!(lines[0], "   a  b");
        assert_eq!(lines[1], "3  ♟  ·  3");
        assert_eq!(lines[3], "1  ♙  ♙  1");
        assert_eq!(lines[4], "   a  b");
        let coloured = draw(&rules.start, &[Square::new(0, 0)], true, &rules.pieces);
        assert!(coloured[3].contains("\x1b[30;43m ♙ \x1b[0m"));
    }

    #[test]
    fn input_picks_moves_by_number_name_prefix_and_squares() {
        let (_, rules) = game(PAWNS);
        let pos = rules.start();
        let moves = legal_moves(&rules, &pos).unwrap();
        let names: Vec<&str> = moves.iter().map(|m| m.0.as_str()).collect();
        assert_eq!(names, ["a1a2", "b1b2"]);
        let b = &pos.board;
        assert_eq!(
            interpret("2", b, Tiling::Square, &moves, &rules.pieces),
            Action::Play(1)
        );
        assert_eq!(
            interpret("a1a2", b, Tiling::Square, &moves, &rules.pieces),
            Action::Play(0)
        );
        assert_eq!(
            interpret("b1", b, Tiling::Square, &moves, &rules.pieces),
            Action::Play(1)
        );
        assert_eq!(
            interpret("b1-b2", b, Tiling::Square, &moves, &rules.pieces),
            Action::Play(1)
        );
        assert!(matches!(
            interpret("a1a2", b, Tiling::Square, &moves, &rules.pieces),
            Action::Play(0)
        ));
        assert!(
            matches!(interpret("3", b, Tiling::Square, &moves, &rules.pieces), Action::Say(m) if m.contains("pick 1 to 2"))
        );
        assert!(matches!(
            interpret("zz", b, Tiling::Square, &moves, &rules.pieces),
            Action::Say(_)
        ));
        assert!(
            matches!(interpret("a1b2", b, Tiling::Square, &moves, &rules.pieces), Action::Say(m) if m.contains("from a1 to b2"))
        );
        assert_eq!(
            interpret("UNDO", b, Tiling::Square, &moves, &rules.pieces),
            Action::Undo
        );
        assert_eq!(
            interpret("  ", b, Tiling::Square, &moves, &rules.pieces),
            Action::Nothing
        );
        let (_, rules) = game("b = ♙;.;.\ngame g(b) = %♙: (% + u. -> . + u%)+\n");
        let pos = rules.start();
        let moves = legal_moves(&rules, &pos).unwrap();
        let b = &pos.board;
        assert!(
            matches!(interpret("a1", b, Tiling::Square, &moves, &rules.pieces), Action::Say(m) if m.contains("1. a1a2, 2. a1a3"))
        );
        assert_eq!(
            interpret("a1a3", b, Tiling::Square, &moves, &rules.pieces),
            Action::Play(1)
        );
    }

    #[test]
    fn promotions_take_ascii_spellings() {
        assert_eq!(spellings("e7e8=Q", &Pieces::chess()), ["e7e8=Q", "e7e8=♕", "e7e8=♛"]);
        assert_eq!(spellings("e7e8=♕", &Pieces::chess()), ["e7e8=♕"]);
        assert_eq!(Square::parse_prefix("e10x"), Some((Square::new(4, 9), "x")));
        assert_eq!(Square::parse_prefix("[30]2"), Some((Square::new(30, 1), "")));
    }

    #[test]
    fn a_game_runs_to_its_end() {
        let (end, out) = transcript(PAWNS, "b1b2\nundo\nundo\n1\n");
        assert_eq!(end, End::NoMoves(1), "{out}");
        assert!(out.contains("turn 1 of 2 (step) to move, 2 legal moves:"), "{out}");
        assert!(out.contains("took back b1b2"), "{out}");
        assert!(out.contains("nothing to undo"), "{out}");
        assert!(out.contains("last move: a1a2   changed: a1 a2"), "{out}");
        assert!(out.contains("game over: no moves for turn 2 of 2 (other)"), "{out}");
        let (end, _) = transcript(PAWNS, "help\nquit\nb1b2\n");
        assert_eq!(end, End::Quit);
        let (end, _) = transcript(PAWNS, "moves");
        assert_eq!(end, End::Eof);
    }
}
