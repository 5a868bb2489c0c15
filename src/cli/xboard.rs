//! `algchess xboard`: the XBoard (CECP) protocol, version 2, for any game
//! a rule file declares. A thread reads the commands, so `?` (move now)
//! and `quit` are heard while the engine thinks.

use super::think::{budget, bundled, setup, From, Loaded};
use algchess_core::move_words::Castling;
use algchess_core::Diags;
use algchess_core::{mate_in, move_words as names, Limits, SearchInfo as Info, Searcher};
use std::io::BufRead;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::time::Duration;

#[derive(clap::Args)]
#[command(after_help = "\
Speaks XBoard protocol version 2 on standard input and output: xboard, \
protover, new, variant, setboard, usermove, go, force, playother, level, \
st, sd, nps, time, otim, ?, ping, post, nopost, undo, remove, result, \
quit. The variants offered are the bundled games (`normal` is chess, \
`fischerandom` Chess960, castling named O-O and O-O-O). With `nps N`, \
the time a move may take is counted in nodes, N a second. An \
illegal move is answered `Illegal move: ...`, other bad input `Error \
(...): ...`.")]
pub(super) struct Args {
    #[command(flatten)]
    engine: super::think::EngineArgs,
}

pub(super) fn run(args: Args) -> Result<i32, Diags> {
    let stop = Arc::new(AtomicBool::new(false));
    let (tx, rx) = mpsc::channel::<Option<String>>();
    {
        let stop = stop.clone();
        std::thread::spawn(move || {
            for line in std::io::stdin().lock().lines() {
                let Ok(line) = line else { break };
                match line.trim() {
                    "?" => stop.store(true, Ordering::SeqCst),
                    "quit" => {
                        stop.store(true, Ordering::SeqCst);
                        let _ = tx.send(Some(line));
                        return;
                    }
                    _ => {
                        if tx.send(Some(line)).is_err() {
                            return;
                        }
                    }
                }
            }
            stop.store(true, Ordering::SeqCst);
            let _ = tx.send(None);
        });
    }
    let first = args.engine.game.clone().unwrap_or_else(|| "chess".into());
    let mut x = Xboard {
        variant: first,
        file: args.engine.rules.clone(),
        loaded: None,
        searcher: Searcher::new(args.engine.hash as usize),
        from: From::Start,
        moves: vec![],
        force: false,
        engine: Some(1),
        post: false,
        depth: None,
        per_move: None,
        nps: None,
        clock: Duration::from_secs(60),
        inc: Duration::ZERO,
        moves_per_control: None,
        stop,
    };
    while let Ok(Some(line)) = rx.recv() {
        if !x.command(line.trim()) {
            break;
        }
    }
    Ok(super::OK)
}

struct Xboard {
    variant: String,
    file: Option<PathBuf>,
    loaded: Option<Loaded>,
    searcher: Searcher,
    from: From,
    moves: Vec<String>,
    force: bool,
    /// The side the engine plays.
    engine: Option<usize>,
    post: bool,
    depth: Option<u32>,
    per_move: Option<Duration>,
    /// Nodes a second, when time is counted in nodes (`nps`).
    nps: Option<u64>,
    clock: Duration,
    inc: Duration,
    moves_per_control: Option<u32>,
    stop: Arc<AtomicBool>,
}

fn say(text: &str) {
    println!("{text}");
}

impl Xboard {
    fn game(&mut self) -> Option<&Loaded> {
        if self.loaded.is_none() {
            let loaded = super::think::load_variant(self.file.as_deref(), &self.variant);
            match loaded {
                Ok(l) => self.loaded = Some(l),
                Err(e) => say(&format!(
                    "Error (cannot load the game): {}",
                    e.to_string().replace('\n', " ")
                )),
            }
        }
        self.loaded.as_ref()
    }

    fn command(&mut self, line: &str) -> bool {
        let (word, rest) = line.split_once(' ').unwrap_or((line, ""));
        let rest = rest.trim();
        match word {
            "" | "xboard" | "accepted" | "rejected" | "hard" | "easy" | "random" | "computer" | "name" | "ics"
            | "draw" | "otim" | "cores" | "memory" | "." | "bk" | "hint" | "white" | "black" => {}
            "protover" => {
                let mut vars: Vec<String> = bundled().into_iter().map(|(n, _)| n).collect();
                vars.retain(|n| n != "chess");
                vars.insert(0, "normal".into());
                vars.insert(1, "fischerandom".into());
                say(&format!(
                    "feature myname=\"algchess {}\" setboard=1 usermove=1 ping=1 playother=1 sigint=0 sigterm=0 \
                     colors=0 analyze=0 nps=1 variants=\"{}\" done=1",
                    env!("CARGO_PKG_VERSION"),
                    vars.join(",")
                ));
            }
            "new" => {
                if self.variant != "chess" && self.file.is_none() {
                    self.variant = "chess".into();
                    self.loaded = None;
                }
                self.searcher.clear();
                self.from = From::Start;
                self.moves.clear();
                self.force = false;
                self.engine = Some(1);
                self.depth = None;
                self.per_move = None;
                self.nps = None;
                self.game();
            }
            "variant" => {
                let name = match rest {
                    "normal" => "chess",
                    "fischerandom" => "chess960",
                    _ => rest,
                };
                self.variant = name.to_string();
                self.loaded = None;
                self.searcher.clear();
                self.from = From::Start;
                self.moves.clear();
                self.game();
            }
            "force" => self.force = true,
            "go" => {
                self.force = false;
                self.engine = self.turn();
                self.think();
            }
            "playother" => {
                self.force = false;
                self.engine = self.turn().map(|t| 1 - t.min(1));
            }
            "setboard" => {
                let from = From::Fen(rest.to_string());
                let Some(loaded) = self.game() else { return true };
                match setup(loaded, &from, &[]) {
                    Ok(_) => {
                        self.from = from;
                        self.moves.clear();
                    }
                    Err(e) => say(&format!("tellusererror Illegal position: {e}")),
                }
            }
            "usermove" => self.user_move(rest),
            "undo" => {
                self.moves.pop();
            }
            "remove" => {
                self.moves.pop();
                self.moves.pop();
            }
            "level" => self.level(rest),
            "st" => match rest.parse::<f64>() {
                Ok(s) if s > 0.0 => self.per_move = Some(Duration::from_secs_f64(s)),
                _ => say(&format!("Error (st needs seconds): {line}")),
            },
            "sd" => match rest.parse::<u32>() {
                Ok(d) if d > 0 => self.depth = Some(d.min(90)),
                _ => say(&format!("Error (sd needs a depth): {line}")),
            },
            "nps" => match rest.parse::<u64>() {
                Ok(n) => self.nps = (n > 0).then_some(n),
                _ => say(&format!("Error (nps needs nodes a second): {line}")),
            },
            "time" => match rest.parse::<u64>() {
                Ok(cs) => self.clock = Duration::from_millis(cs * 10),
                _ => say(&format!("Error (time needs centiseconds): {line}")),
            },
            "ping" => say(&format!("pong {rest}")),
            "post" => self.post = true,
            "nopost" => self.post = false,
            "result" => self.force = true,
            "quit" => return false,
            _ if self.legal_looking(word) => self.user_move(word),
            _ => say(&format!("Error (unknown command): {line}")),
        }
        true
    }

    /// Whether `word` may be a move sent without `usermove`.
    fn legal_looking(&self, word: &str) -> bool {
        word.len() >= 2 && word.len() <= 8 && word.chars().any(|c| c.is_ascii_digit())
    }

    /// The side to move, when the position is set up.
    fn turn(&mut self) -> Option<usize> {
        let (from, moves) = (self.from.clone(), self.moves.clone());
        let loaded = self.game()?;
        setup(loaded, &from, &moves).ok().map(|g| g.m.pos.turn)
    }

    fn level(&mut self, rest: &str) {
        let parts: Vec<&str> = rest.split_whitespace().collect();
        let [mps, base, inc] = parts[..] else {
            return say(&format!("Error (level needs MPS BASE INC): level {rest}"));
        };
        let minutes = |b: &str| -> Option<f64> {
            match b.split_once(':') {
                Some((m, s)) => Some(m.parse::<f64>().ok()? + s.parse::<f64>().ok()? / 60.0),
                None => b.parse().ok(),
            }
        };
        match (mps.parse::<u32>(), minutes(base), inc.parse::<f64>()) {
            (Ok(mps), Some(base), Ok(inc)) => {
                self.moves_per_control = (mps > 0).then_some(mps);
                self.clock = Duration::from_secs_f64(base * 60.0);
                self.inc = Duration::from_secs_f64(inc.max(0.0));
            }
            _ => say(&format!("Error (level needs MPS BASE INC): level {rest}")),
        }
    }

    fn user_move(&mut self, text: &str) {
        let (from, mut moves) = (self.from.clone(), self.moves.clone());
        moves.push(text.to_string());
        let Some(loaded) = self.game() else { return };
        let (ended, turn) = match setup(loaded, &from, &moves) {
            Ok(mut g) => (g.m.end().ok().flatten(), g.m.pos.turn),
            Err(e) => return say(&format!("Illegal move ({}): {text}", e.to_string().replace('\n', " "))),
        };
        self.moves = moves;
        if let Some(o) = ended {
            return say(&format!("{} {{{}}}", o.result(), o.ending.name()));
        }
        if !self.force && self.engine == Some(turn) {
            self.think();
        }
    }

    /// Searches the position and plays the move found.
    fn think(&mut self) {
        let (from, moves) = (self.from.clone(), self.moves.clone());
        if self.game().is_none() {
            return;
        }
        let Some(loaded) = self.loaded.as_ref() else { return };
        let mut g = match setup(loaded, &from, &moves) {
            Ok(g) => g,
            Err(e) => return say(&format!("Error (position): {e}")),
        };
        if let Ok(Some(o)) = g.m.end() {
            return say(&format!("{} {{{}}}", o.result(), o.ending.name()));
        }
        self.stop.store(false, Ordering::SeqCst);
        let to_go = self.moves_per_control.map(|mps| {
            let played = (moves.len() / 2) as u32;
            mps - played % mps
        });
        let time = self.per_move.unwrap_or_else(|| budget(self.clock, self.inc, to_go));
        let limits = Limits {
            depth: self.depth,
            nodes: self.nps.map(|n| (time.as_secs_f64() * n as f64).max(1.0) as u64),
            time: if self.nps.is_some() { None } else { Some(time) },
            stop: self.stop.clone(),
        };
        let castling = if self.variant == "chess960" {
            Castling::Letters
        } else {
            Castling::KingMove
        };
        let mut view = g.m.clone();
        let post = self.post;
        let mut report = |info: &Info| {
            if post {
                let pv = names::line_as(&mut view, &info.pv, castling).unwrap_or_default();
                let score = match mate_in(info.score) {
                    Some(n) if n > 0 => 100_000 + n,
                    Some(n) => -100_000 + n,
                    None => info.score,
                };
                say(&format!(
                    "{} {score} {} {} {}",
                    info.depth,
                    info.time.as_millis() / 10,
                    info.nodes,
                    pv.join(" ")
                ));
            }
        };
        let found = self
            .searcher
            .search(&mut g.m, &g.history, &loaded.values, &limits, &mut report);
        let name = match found {
            Ok(Some(info)) => {
                let all = names::names_as(&mut g.m, castling).unwrap_or_default();
                info.pv.first().and_then(|&i| all.get(i).cloned().map(|n| (i, n)))
            }
            Ok(None) => None,
            Err(e) => {
                say(&format!("Error (search): {e}"));
                None
            }
        };
        let Some((i, name)) = name else { return };
        say(&format!("move {name}"));
        self.moves.push(name);
        if g.m.play(i).is_ok() {
            if let Ok(Some(o)) = g.m.end() {
                say(&format!("{} {{{}}}", o.result(), o.ending.name()));
            }
        }
    }
}
