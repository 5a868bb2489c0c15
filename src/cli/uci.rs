//! `algchess uci`: the Universal Chess Interface, for any game a rule file
//! declares. A thread reads the commands, so `stop`, `quit` and
//! `isready` are heard while the search runs on the command thread.

use super::session::{Control, Current, Heard, Input, Opened, Say, DEFAULT_HASH, PACED_NODES, PACED_PERFT};
use super::think::{budget, bundled, EngineArgs, From, Loaded};
use algchess_core::move_words::Castling;
use algchess_core::{clip, Diags};
use algchess_core::{mate_in, move_words, Limits, SearchInfo, Searcher, SystemClock, Timer};
use std::io::BufRead;
use std::sync::Arc;
use std::time::{Duration, Instant};

#[derive(clap::Args)]
#[command(after_help = "\
Speaks UCI on standard input and output: uci, isready, ucinewgame, \
setoption (UCI_Variant, UCI_Chess960, Hash), position startpos|fen ... [moves ...], \
go [depth N] [nodes N] [movetime MS] [wtime MS btime MS winc MS binc MS \
movestogo N] [infinite], go perft N, stop, ponderhit, quit. Moves are \
named as UCI names them (e2e4, e7e8q); in other games by PDN (11-15), the \
cell a piece is put on (d3), or the changed squares. `legal` (not UCI) \
lists the legal moves and the end reached as `info string` lines. Bad \
input is answered by an `info string error: ...` line.")]
pub(super) struct Args {
    #[command(flatten)]
    engine: super::think::EngineArgs,
}

pub(super) fn run(args: Args) -> Result<i32, Diags> {
    session(&args.engine, None, None, false)
}

/// A session on `input` (standard input when `None`), each line of output
/// told to `say` (printed when `None`).
pub(super) fn session(
    engine: &EngineArgs,
    input: Option<Box<dyn BufRead + Send>>,
    say: Option<Say>,
    paced: bool,
) -> Result<i32, Diags> {
    let Opened {
        control,
        rx,
        current,
        searcher,
        hash_max,
    } = super::session::open(engine, input, say, paced, hear)?;
    let mut uci = Uci {
        current,
        chess960: false,
        searcher,
        hash_max,
        read: Instant::now(),
        control: control.clone(),
    };
    loop {
        match control.next(&rx) {
            Input::Line { text, read, .. } => {
                uci.read = read;
                if !uci.command(&text) {
                    break;
                }
            }
            Input::Bad(why) => uci.error(&why),
            Input::Eof => break,
        }
    }
    super::session::close(&control, uci.searcher);
    Ok(super::OK)
}

/// What the reading thread does with a line: `stop` and `quit` set the
/// halt flag at once, and `isready` during a search is answered there.
fn hear(line: &str) -> Heard {
    match line.split_whitespace().next().unwrap_or("") {
        "stop" => Heard::Stop,
        "ponderhit" => Heard::Drop,
        "quit" => Heard::Quit,
        "isready" => Heard::Ready("readyok"),
        "go" => Heard::Long,
        _ => Heard::Pass,
    }
}

struct Uci {
    current: Current,
    /// `UCI_Chess960`: chess is Chess960, castling the king's move onto
    /// its rook.
    chess960: bool,
    searcher: Searcher,
    /// The largest table offered, in megabytes.
    hash_max: usize,
    /// When the command running was read.
    read: Instant,
    control: Arc<Control>,
}

impl Uci {
    fn say(&self, text: &str) {
        self.control.say(text);
    }

    fn error(&self, text: &str) {
        self.say(&format!("info string error: {}", text.replace('\n', " ")));
    }

    /// The game, loaded on first use; `None` after saying why not.
    fn game(&mut self) -> Option<&'static Loaded> {
        let name = match self.current.variant() {
            "chess" | "normal" | "standard" if self.chess960 && self.current.file.is_none() => "chess960".to_string(),
            v => v.to_string(),
        };
        self.current.set_variant(&name);
        self.current.game(&self.control).map_err(|e| self.error(&e)).ok()
    }

    /// Runs one command; `false` to quit.
    fn command(&mut self, line: &str) -> bool {
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.first().copied().unwrap_or("") {
            "" => {}
            "uci" => self.hello(),
            "isready" => {
                self.game();
                self.say("readyok");
            }
            "ucinewgame" => {
                self.searcher.clear();
                if let Some(loaded) = self.game() {
                    if let Ok((_, p)) = self.current.playing(&self.control) {
                        if let Err(e) = p.set(loaded, From::Start, vec![]) {
                            self.error(&e.to_string());
                        }
                    }
                }
            }
            "setoption" => self.set_option(&words[1..]),
            "position" => self.position(&words[1..]),
            "go" => self.go(&words[1..]),
            "legal" => self.legal(),
            "quit" => return false,
            other => self.error(&format!("unknown command `{}`", clip(other))),
        }
        true
    }

    fn hello(&self) {
        self.say(&format!("id name algchess {}", env!("CARGO_PKG_VERSION")));
        self.say("id author the algchess authors");
        let variant = self.current.variant().to_string();
        let mut names: Vec<String> = bundled().into_iter().map(|(n, _)| n).collect();
        if !names.contains(&variant) {
            names.insert(0, variant.clone());
        }
        let vars: String = names.iter().map(|n| format!(" var {n}")).collect();
        self.say(&format!("option name UCI_Variant type combo default {variant}{vars}"));
        self.say("option name UCI_Chess960 type check default false");
        self.say(&format!(
            "option name Hash type spin default {} min 1 max {}",
            DEFAULT_HASH.min(self.hash_max),
            self.hash_max
        ));
        self.say("uciok");
    }

    fn set_option(&mut self, words: &[&str]) {
        let text = words.join(" ");
        let Some(rest) = text.strip_prefix("name ") else {
            return self.error("setoption needs `name NAME [value VALUE]`");
        };
        let (name, value) = match rest.split_once(" value ") {
            Some((n, v)) => (n.trim(), v.trim()),
            None => (rest.trim(), ""),
        };
        match name.to_ascii_lowercase().as_str() {
            "uci_variant" => {
                if value != self.current.variant() {
                    self.current.set_variant(value);
                    self.searcher.clear();
                }
                self.game();
            }
            "uci_chess960" => match value {
                "true" | "false" => {
                    if self.chess960 != (value == "true") {
                        self.chess960 = value == "true";
                        self.searcher.clear();
                    }
                }
                _ => self.error(&format!("UCI_Chess960 is true or false, not `{}`", clip(value))),
            },
            "hash" => match value.parse::<usize>() {
                Ok(mb) if (1..=self.hash_max).contains(&mb) => {
                    if let Err(e) = self.searcher.resize(mb, self.current.memory) {
                        self.error(&format!("Hash {mb}: {e}; the table is kept as it was"));
                    }
                }
                _ => self.error(&format!(
                    "Hash must be 1 to {} megabytes, not `{}`",
                    self.hash_max,
                    clip(value)
                )),
            },
            _ => self.error(&format!("no option `{}`", clip(name))),
        }
    }

    fn position(&mut self, words: &[&str]) {
        let (from, rest) = match words {
            ["startpos", rest @ ..] => (From::Start, rest),
            ["fen", rest @ ..] => {
                let n = rest.iter().position(|w| *w == "moves").unwrap_or(rest.len());
                if n == 0 {
                    return self.error("position fen needs a FEN");
                }
                (From::Fen(rest[..n].join(" ")), &rest[n..])
            }
            _ => return self.error("position needs `startpos` or `fen FEN`, then `moves ...`"),
        };
        let moves: Vec<String> = match rest {
            [] => vec![],
            ["moves", m @ ..] => m.iter().map(|s| s.to_string()).collect(),
            _ => {
                return self.error(&format!(
                    "expected `moves` after the position, found `{}`",
                    clip(rest[0])
                ))
            }
        };
        if self.game().is_none() {
            return;
        }
        let control = self.control.clone();
        let set = match self.current.playing(&control) {
            Ok((loaded, p)) => control.long(|| p.set(loaded, from, moves)).map_err(|e| e.to_string()),
            Err(e) => Err(e),
        };
        if let Err(e) = set {
            self.error(&format!("{e}; the position is left as it was"));
        }
    }

    fn castling(&self) -> Castling {
        if self.chess960 {
            Castling::KingTakesRook
        } else {
            Castling::KingMove
        }
    }

    fn legal(&mut self) {
        let castling = self.castling();
        if self.game().is_none() {
            return;
        }
        let lines = match self.current.playing(&self.control) {
            Ok((_, p)) => legal_lines(&mut p.game.m, castling),
            Err(e) => vec![Err(e)],
        };
        for l in lines {
            match l {
                Ok(text) => self.say(&text),
                Err(e) => self.error(&e),
            }
        }
    }

    fn go(&mut self, words: &[&str]) {
        let mut limits = Limits {
            stop: self.control.halt.clone(),
            ..Limits::default()
        };
        let mut clock: [Option<u64>; 4] = [None; 4];
        let mut movetime: Option<Duration> = None;
        let mut to_go = None;
        let mut infinite = false;
        let mut perft = None;
        let mut i = 0;
        while i < words.len() {
            let value = words.get(i + 1).and_then(|w| w.parse::<u64>().ok());
            let needs = |w: &str| {
                matches!(
                    w,
                    "depth"
                        | "nodes"
                        | "movetime"
                        | "wtime"
                        | "btime"
                        | "winc"
                        | "binc"
                        | "movestogo"
                        | "perft"
                        | "mate"
                )
            };
            if needs(words[i]) && value.is_none() {
                return self.bestmove_none(&format!("`go {}` needs a number", clip(words[i])));
            }
            let v = value.unwrap_or(0);
            match words[i] {
                "depth" => limits.depth = Some(v.clamp(1, 90) as u32),
                "mate" => limits.depth = Some(v.saturating_mul(2).clamp(1, 90) as u32),
                "nodes" => limits.nodes = Some(v.max(1)),
                "movetime" => movetime = Some(Duration::from_millis(v.max(1))),
                "wtime" => clock[0] = Some(v),
                "btime" => clock[1] = Some(v),
                "winc" => clock[2] = Some(v),
                "binc" => clock[3] = Some(v),
                "movestogo" => to_go = Some(u32::try_from(v).unwrap_or(u32::MAX)),
                "perft" => perft = Some(v),
                "infinite" | "ponder" => {
                    infinite = true;
                    i += 1;
                    continue;
                }
                "searchmoves" => {
                    self.error("searchmoves is not supported; all moves are searched");
                    i += 1;
                    continue;
                }
                other => return self.bestmove_none(&format!("unknown `go` parameter `{}`", clip(other))),
            }
            i += 2;
        }
        if self.game().is_none() {
            return self.say("bestmove (none)");
        }
        let castling = self.castling();
        let control = self.control.clone();
        let (loaded, p) = match self.current.playing(&control) {
            Ok(x) => x,
            Err(e) => return self.bestmove_none(&e),
        };
        let g = &mut p.game;
        if let Some(depth) = perft {
            return control.long(|| perft_divide(&control, &mut g.m, depth));
        }
        let side = g.m.pos.turn.min(1);
        if let Some(left) = clock[side] {
            if movetime.is_none() && !infinite {
                let inc = clock[side + 2].unwrap_or(0);
                movetime = Some(budget(Duration::from_millis(left), Duration::from_millis(inc), to_go));
            }
        }
        // The clock started when `go` was read, not when it was taken.
        let movetime = movetime.map(|t| t.saturating_sub(self.read.elapsed()).max(Duration::from_millis(1)));
        limits.time = Timer::within(movetime, &SystemClock);
        if control.paced() {
            // A paced session reads no clock: what it does cannot depend on
            // timing.
            limits.nodes = Some(limits.nodes.map_or(PACED_NODES, |n| n.min(PACED_NODES)));
            limits.time = Timer::NONE;
        }
        let mut view = g.m.clone();
        let say = |text: &str| control.say(text);
        let mut report = |info: &SearchInfo| {
            let pv = move_words::line_as(&mut view, &info.pv, castling).unwrap_or_default();
            say(&info_line(info, &pv));
        };
        let searcher = &mut self.searcher;
        let found = control.long(|| {
            let found = searcher.search(&mut g.m, &g.history, &loaded.values, &limits, &mut report);
            if infinite {
                control.wait_for_stop();
            }
            found
        });
        match found {
            Ok(Some(info)) => {
                let names = move_words::names_as(&mut g.m, castling).unwrap_or_default();
                match info.pv.first().and_then(|&i| names.get(i)) {
                    Some(n) => say(&format!("bestmove {n}")),
                    None => say("bestmove (none)"),
                }
            }
            Ok(None) => say("bestmove (none)"),
            Err(e) => {
                control.say(&format!("info string error: {e}"));
                say("bestmove (none)");
            }
        }
    }

    fn bestmove_none(&self, why: &str) {
        self.error(why);
        self.say("bestmove (none)");
    }
}

/// The `legal` extension's lines: the legal moves, then the end reached;
/// an error in place of a line that could not be written.
fn legal_lines(m: &mut algchess_core::Match, castling: Castling) -> Vec<Result<String, String>> {
    let moves = move_words::names_as(m, castling).map(|n| format!("info string legal {}", n.join(" ")));
    let end = match m.end() {
        Ok(Some(o)) => Ok(format!("info string end {} {}", o.result(), o.ending.name())),
        Ok(None) => Ok("info string end none".into()),
        Err(e) => Err(e.to_string()),
    };
    vec![moves.map_err(|e| e.to_string()), end]
}

/// An `info` line: depth, score, nodes, speed, time, principal variation.
pub(super) fn info_line(info: &SearchInfo, pv: &[String]) -> String {
    let score = match mate_in(info.score) {
        Some(n) => format!("mate {n}"),
        None => format!("cp {}", info.score),
    };
    let mut line = format!(
        "info depth {} score {score} nodes {} nps {} time {}",
        info.depth,
        info.nodes,
        info.nps(),
        info.time.as_millis()
    );
    if !pv.is_empty() {
        line.push_str(" pv ");
        line.push_str(&pv.join(" "));
    }
    line
}

/// `go perft N` as the command line's `perft` counts: depth by depth up
/// to `depth`, stopping at the first depth with no leaves (so no deeper
/// count is tried), then each legal move with the leaves under it and
/// the total. A stop, a quit or the end of input stops it.
fn perft_divide(control: &Control, m: &mut algchess_core::Match, depth: u64) {
    let error = |e: &dyn std::fmt::Display| match e.to_string() == algchess_core::TooBig::Time.to_string() {
        true => control.say("info string perft stopped"),
        false => control.say(&format!("info string error: {e}")),
    };
    let names = match move_words::names(m) {
        Ok(n) => n,
        Err(e) => return error(&e),
    };
    let depth = depth.max(1);
    // A paced session counts no deeper than its work allows.
    let most = if control.paced() { PACED_PERFT } else { u64::MAX };
    // The first depth with no leaves: every deeper count is 0 too.
    for d in 1..depth.min(MAX_PERFT_DEPTH + 1).min(most) {
        match algchess_core::perft(m.rules, &m.pos, d as u32) {
            Ok(0) => {
                control.say(&format!("info string the tree ends at depth {d}"));
                control.say("");
                return control.say("Nodes searched: 0");
            }
            Ok(_) => {}
            Err(e) => return error(&e),
        }
    }
    if depth > MAX_PERFT_DEPTH {
        return error(&format!(
            "the tree goes on past {MAX_PERFT_DEPTH} plies: count at most that deep"
        ));
    }
    let depth = depth.min(most);
    let mut total = 0;
    for (i, name) in names.iter().enumerate() {
        let count = if depth <= 1 {
            Ok(1)
        } else {
            let mut after = m.clone();
            after
                .play(i)
                .and_then(|()| algchess_core::perft(after.rules, &after.pos, depth as u32 - 1))
        };
        match count {
            Ok(n) => {
                total += n;
                control.say(&format!("{name}: {n}"));
            }
            Err(e) => return error(&e),
        }
    }
    control.say("");
    control.say(&format!("Nodes searched: {total}"));
}

/// The deepest `go perft` counts: a tree whose leaves go deeper is not a
/// game's.
const MAX_PERFT_DEPTH: u64 = 10_000;
