//! `algchess uci`: the Universal Chess Interface, for any game a rule file
//! declares. A thread reads the commands, so `stop`, `quit` and
//! `isready` are heard while the search runs on the command thread.

use super::think::{budget, bundled, setup, From, Loaded};
use algchess_core::move_words::Castling;
use algchess_core::Diags;
use algchess_core::{mate_in, move_words as names, Limits, SearchInfo as Info, Searcher};
use std::io::BufRead;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::Arc;
use std::time::Duration;

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

/// What the reading thread passes on.
enum Line {
    Command(String),
    Eof,
}

pub(super) fn run(args: Args) -> Result<i32, Diags> {
    let stop = Arc::new(AtomicBool::new(false));
    let busy = Arc::new(AtomicBool::new(false));
    let (tx, rx) = mpsc::channel();
    {
        let (stop, busy) = (stop.clone(), busy.clone());
        std::thread::spawn(move || read_commands(stop, busy, tx));
    }
    let mut engine = Uci {
        variant: args.engine.game.clone().unwrap_or_else(|| "chess".into()),
        file: args.engine.rules.clone(),
        loaded: None,
        chess960: false,
        searcher: Searcher::new(args.engine.hash as usize),
        from: From::Start,
        moves: vec![],
        stop,
        busy,
    };
    while let Ok(Line::Command(line)) = rx.recv() {
        if !engine.command(&line) {
            break;
        }
    }
    Ok(super::OK)
}

/// Reads standard input: `stop` and `quit` set the flag at once, and
/// `isready` during a search is answered here.
fn read_commands(stop: Arc<AtomicBool>, busy: Arc<AtomicBool>, tx: mpsc::Sender<Line>) {
    let stdin = std::io::stdin();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        let word = line.split_whitespace().next().unwrap_or("");
        match word {
            "stop" => {
                stop.store(true, Ordering::SeqCst);
                continue;
            }
            "ponderhit" => continue,
            "quit" => {
                stop.store(true, Ordering::SeqCst);
                let _ = tx.send(Line::Command(line));
                return;
            }
            "isready" if busy.load(Ordering::SeqCst) => {
                println!("readyok");
                continue;
            }
            "go" => {
                stop.store(false, Ordering::SeqCst);
                busy.store(true, Ordering::SeqCst);
            }
            _ => {}
        }
        if tx.send(Line::Command(line)).is_err() {
            return;
        }
    }
    stop.store(true, Ordering::SeqCst);
    let _ = tx.send(Line::Eof);
}

struct Uci {
    variant: String,
    file: Option<PathBuf>,
    loaded: Option<Loaded>,
    /// `UCI_Chess960`: chess is Chess960, castling the king's move onto
    /// its rook.
    chess960: bool,
    searcher: Searcher,
    from: From,
    moves: Vec<String>,
    stop: Arc<AtomicBool>,
    busy: Arc<AtomicBool>,
}

fn say(text: &str) {
    println!("{text}");
}

fn error(text: &str) {
    println!("info string error: {}", text.replace('\n', " "));
}

impl Uci {
    /// The game, loaded on first use; `None` after saying why not.
    fn game(&mut self) -> Option<&Loaded> {
        if self.loaded.is_none() {
            let name = match self.variant.as_str() {
                "chess" | "normal" | "standard" if self.chess960 && self.file.is_none() => "chess960",
                v => v,
            };
            let loaded = super::think::load_variant(self.file.as_deref(), name);
            match loaded {
                Ok(l) => self.loaded = Some(l),
                Err(e) => error(&e.to_string()),
            }
        }
        self.loaded.as_ref()
    }

    /// Runs one command; `false` to quit.
    fn command(&mut self, line: &str) -> bool {
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.first().copied().unwrap_or("") {
            "" => {}
            "uci" => self.hello(),
            "isready" => {
                self.game();
                say("readyok");
            }
            "ucinewgame" => {
                self.searcher.clear();
                self.from = From::Start;
                self.moves.clear();
            }
            "setoption" => self.set_option(&words[1..]),
            "position" => self.position(&words[1..]),
            "go" => {
                self.go(&words[1..]);
                self.busy.store(false, Ordering::SeqCst);
            }
            "legal" => self.legal(),
            "quit" => return false,
            other => error(&format!("unknown command `{other}`")),
        }
        true
    }

    fn hello(&self) {
        say(&format!("id name algchess {}", env!("CARGO_PKG_VERSION")));
        say("id author the algchess authors");
        let mut names: Vec<String> = bundled().into_iter().map(|(n, _)| n).collect();
        if !names.contains(&self.variant) {
            names.insert(0, self.variant.clone());
        }
        let vars: String = names.iter().map(|n| format!(" var {n}")).collect();
        say(&format!(
            "option name UCI_Variant type combo default {}{vars}",
            self.variant
        ));
        say("option name UCI_Chess960 type check default false");
        say("option name Hash type spin default 64 min 1 max 4096");
        say("uciok");
    }

    fn set_option(&mut self, words: &[&str]) {
        let text = words.join(" ");
        let Some(rest) = text.strip_prefix("name ") else {
            return error("setoption needs `name NAME [value VALUE]`");
        };
        let (name, value) = match rest.split_once(" value ") {
            Some((n, v)) => (n.trim(), v.trim()),
            None => (rest.trim(), ""),
        };
        match name.to_ascii_lowercase().as_str() {
            "uci_variant" => {
                if value != self.variant || self.loaded.is_none() {
                    self.variant = value.to_string();
                    self.loaded = None;
                    self.searcher.clear();
                    self.game();
                }
            }
            "uci_chess960" => match value {
                "true" | "false" => {
                    if self.chess960 != (value == "true") {
                        self.chess960 = value == "true";
                        self.loaded = None;
                        self.searcher.clear();
                    }
                }
                _ => error(&format!("UCI_Chess960 is true or false, not `{value}`")),
            },
            "hash" => match value.parse::<usize>() {
                Ok(mb) if (1..=4096).contains(&mb) => self.searcher = Searcher::new(mb),
                _ => error(&format!("Hash must be 1 to 4096 megabytes, not `{value}`")),
            },
            _ => error(&format!("no option `{name}`")),
        }
    }

    fn position(&mut self, words: &[&str]) {
        let (from, rest) = match words {
            ["startpos", rest @ ..] => (From::Start, rest),
            ["fen", rest @ ..] => {
                let n = rest.iter().position(|w| *w == "moves").unwrap_or(rest.len());
                if n == 0 {
                    return error("position fen needs a FEN");
                }
                (From::Fen(rest[..n].join(" ")), &rest[n..])
            }
            _ => return error("position needs `startpos` or `fen FEN`, then `moves ...`"),
        };
        let moves: Vec<String> = match rest {
            [] => vec![],
            ["moves", m @ ..] => m.iter().map(|s| s.to_string()).collect(),
            _ => return error(&format!("expected `moves` after the position, found `{}`", rest[0])),
        };
        let Some(loaded) = self.game() else { return };
        match setup(loaded, &from, &moves) {
            Ok(_) => {
                self.from = from;
                self.moves = moves;
            }
            Err(e) => error(&format!("{e}; the position is left as it was")),
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
        let (from, moves) = (self.from.clone(), self.moves.clone());
        let Some(loaded) = self.game() else { return };
        let mut g = match setup(loaded, &from, &moves) {
            Ok(g) => g,
            Err(e) => return error(&e.to_string()),
        };
        match names::names_as(&mut g.m, castling) {
            Ok(n) => say(&format!("info string legal {}", n.join(" "))),
            Err(e) => return error(&e.to_string()),
        }
        match g.m.end() {
            Ok(Some(o)) => say(&format!("info string end {} {}", o.result(), o.ending.name())),
            Ok(None) => say("info string end none"),
            Err(e) => error(&e.to_string()),
        }
    }

    fn go(&mut self, words: &[&str]) {
        let mut limits = Limits {
            stop: self.stop.clone(),
            ..Limits::default()
        };
        let mut clock: [Option<u64>; 4] = [None; 4];
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
                return self.bestmove_none(&format!("`go {}` needs a number", words[i]));
            }
            let v = value.unwrap_or(0);
            match words[i] {
                "depth" => limits.depth = Some(v.clamp(1, 90) as u32),
                "mate" => limits.depth = Some((2 * v).clamp(1, 90) as u32),
                "nodes" => limits.nodes = Some(v.max(1)),
                "movetime" => limits.time = Some(Duration::from_millis(v.max(1))),
                "wtime" => clock[0] = Some(v),
                "btime" => clock[1] = Some(v),
                "winc" => clock[2] = Some(v),
                "binc" => clock[3] = Some(v),
                "movestogo" => to_go = Some(v as u32),
                "perft" => perft = Some(v as u32),
                "infinite" | "ponder" => {
                    infinite = true;
                    i += 1;
                    continue;
                }
                "searchmoves" => {
                    error("searchmoves is not supported; all moves are searched");
                    i += 1;
                    continue;
                }
                other => return self.bestmove_none(&format!("unknown `go` parameter `{other}`")),
            }
            i += 2;
        }
        let (from, moves) = (self.from.clone(), self.moves.clone());
        if self.game().is_none() {
            return say("bestmove (none)");
        }
        let Some(loaded) = self.loaded.as_ref() else {
            return say("bestmove (none)");
        };
        let mut g = match setup(loaded, &from, &moves) {
            Ok(g) => g,
            Err(e) => return self.bestmove_none(&e.to_string()),
        };
        if let Some(depth) = perft {
            return perft_divide(&mut g.m, depth);
        }
        let side = g.m.pos.turn.min(1);
        if let Some(left) = clock[side] {
            if limits.time.is_none() && !infinite {
                let inc = clock[side + 2].unwrap_or(0);
                limits.time = Some(budget(Duration::from_millis(left), Duration::from_millis(inc), to_go));
            }
        }
        let castling = self.castling();
        let mut view = g.m.clone();
        let mut report = |info: &Info| {
            let pv = names::line_as(&mut view, &info.pv, castling).unwrap_or_default();
            say(&info_line(info, &pv));
        };
        let found = self
            .searcher
            .search(&mut g.m, &g.history, &loaded.values, &limits, &mut report);
        if infinite {
            while !self.stop.load(Ordering::SeqCst) {
                std::thread::sleep(Duration::from_millis(2));
            }
        }
        match found {
            Ok(Some(info)) => {
                let names = names::names_as(&mut g.m, castling).unwrap_or_default();
                match info.pv.first().and_then(|&i| names.get(i)) {
                    Some(n) => say(&format!("bestmove {n}")),
                    None => say("bestmove (none)"),
                }
            }
            Ok(None) => say("bestmove (none)"),
            Err(e) => self.bestmove_none(&e.to_string()),
        }
    }

    fn bestmove_none(&self, why: &str) {
        error(why);
        say("bestmove (none)");
    }
}

/// An `info` line: depth, score, nodes, speed, time, principal variation.
pub(super) fn info_line(info: &Info, pv: &[String]) -> String {
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

/// `go perft N`: each legal move with the leaves under it, then the total.
fn perft_divide(m: &mut algchess_core::referee::Match, depth: u32) {
    let names = match names::names(m) {
        Ok(n) => n,
        Err(e) => return error(&e.to_string()),
    };
    let mut total = 0;
    for (i, name) in names.iter().enumerate() {
        let count = if depth <= 1 {
            Ok(1)
        } else {
            let mut after = m.clone();
            after
                .play(i)
                .and_then(|()| algchess_core::perft(after.rules, &after.pos, depth - 1))
        };
        match count {
            Ok(n) => {
                total += n;
                say(&format!("{name}: {n}"));
            }
            Err(e) => return error(&e.to_string()),
        }
    }
    say("");
    say(&format!("Nodes searched: {}", if depth == 0 { 1 } else { total }));
}
