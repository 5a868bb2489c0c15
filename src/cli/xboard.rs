//! `algchess xboard`: the XBoard (CECP) protocol, version 2, for any game
//! a rule file declares. A thread reads the commands, so `?` (move now)
//! and `quit` are heard while the engine thinks.

use super::session::{Control, Current, Heard, Input, Opened, Say, PACED_NODES};
use super::think::{budget, bundled, EngineArgs, From, Loaded, Playing};
use algchess_core::move_words::Castling;
use algchess_core::{clip, Diags};
use algchess_core::{mate_in, move_words, Limits, SearchInfo, Searcher, SystemClock, Timer};
use std::io::BufRead;
use std::sync::Arc;
use std::time::{Duration, Instant};

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
        ..
    } = super::session::open(engine, input, say, paced, hear)?;
    let mut x = Xboard {
        current,
        searcher,
        force: false,
        engine: Some(1),
        post: false,
        depth: None,
        per_move: None,
        nps: None,
        clock: Duration::from_secs(60),
        inc: Duration::ZERO,
        moves_per_control: None,
        read: Instant::now(),
        control: control.clone(),
    };
    loop {
        match control.next(&rx) {
            Input::Line { text, read, .. } => {
                x.read = read;
                if !x.command(text.trim()) {
                    break;
                }
            }
            Input::Bad(why) => x.say(&format!("Error (bad input): {why}")),
            Input::Eof => break,
        }
    }
    super::session::close(&control, x.searcher);
    Ok(super::OK)
}

/// What the reading thread does with a line: `?` (move now) and `quit`
/// set the halt flag at once; a command that may start the engine
/// thinking (`go`, a move) may run long.
fn hear(line: &str) -> Heard {
    let word = line.split_whitespace().next().unwrap_or("");
    match line.trim() {
        "?" => Heard::Stop,
        "quit" => Heard::Quit,
        _ if word == "go" || word == "usermove" || move_like(word) => Heard::Long,
        _ => Heard::Pass,
    }
}

/// Whether `word` may be a move sent without `usermove`.
fn move_like(word: &str) -> bool {
    word.len() >= 2 && word.len() <= 8 && word.chars().any(|c| c.is_ascii_digit())
}

struct Xboard {
    current: Current,
    searcher: Searcher,
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
    /// When the command running was read.
    read: Instant,
    control: Arc<Control>,
}

/// Seconds as XBoard writes them (`st 30`, `level 40 5 0.5`): a number of
/// at least zero and at most a year; `None` for anything else (`inf`,
/// `nan`, `1e300`, `-5`).
fn seconds(text: &str) -> Option<Duration> {
    let s = text.parse::<f64>().ok()?;
    if !(0.0..=YEAR).contains(&s) {
        return None;
    }
    Duration::try_from_secs_f64(s).ok()
}

/// The longest time a clock may show, in seconds.
const YEAR: f64 = 365.0 * 24.0 * 3600.0;

impl Xboard {
    fn say(&self, text: &str) {
        self.control.say(text);
    }

    fn game(&mut self) -> Option<&'static Loaded> {
        match self.current.game(&self.control) {
            Ok(l) => Some(l),
            Err(e) => {
                self.say(&format!("Error (cannot load the game): {}", e.replace('\n', " ")));
                None
            }
        }
    }

    /// The game in progress, after saying why there is none.
    fn playing(&mut self) -> Option<(&'static Loaded, &mut Playing<'static>)> {
        self.game()?;
        match self.current.playing(&self.control) {
            Ok(x) => Some(x),
            Err(e) => {
                self.control.say(&format!("Error (position): {e}"));
                None
            }
        }
    }

    fn command(&mut self, line: &str) -> bool {
        let (word, rest) = line.split_once(' ').unwrap_or((line, ""));
        let rest = rest.trim();
        let quoted = clip(line);
        match word {
            "" | "xboard" | "accepted" | "rejected" | "hard" | "easy" | "random" | "computer" | "name" | "ics"
            | "draw" | "otim" | "cores" | "memory" | "." | "bk" | "hint" | "white" | "black" => {}
            "protover" => {
                let mut vars: Vec<String> = bundled().into_iter().map(|(n, _)| n).collect();
                vars.retain(|n| n != "chess");
                vars.insert(0, "normal".into());
                vars.insert(1, "fischerandom".into());
                self.say(&format!(
                    "feature myname=\"algchess {}\" setboard=1 usermove=1 ping=1 playother=1 sigint=0 sigterm=0 \
                     colors=0 analyze=0 nps=1 variants=\"{}\" done=1",
                    env!("CARGO_PKG_VERSION"),
                    vars.join(",")
                ));
            }
            "new" => {
                if self.current.file.is_none() {
                    self.current.set_variant("chess");
                }
                self.searcher.clear();
                self.force = false;
                self.engine = Some(1);
                self.depth = None;
                self.per_move = None;
                self.nps = None;
                self.set(From::Start, "Error (position)");
            }
            "variant" => {
                let name = match rest {
                    "normal" => "chess",
                    "fischerandom" => "chess960",
                    _ => rest,
                };
                self.current.set_variant(name);
                self.searcher.clear();
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
            "setboard" => self.set(From::Fen(rest.to_string()), "tellusererror Illegal position"),
            "usermove" => self.user_move(rest),
            "undo" => self.undo(1),
            "remove" => self.undo(2),
            "level" => self.level(rest),
            "st" => match seconds(rest).filter(|s| !s.is_zero()) {
                Some(s) => self.per_move = Some(s),
                None => self.say(&format!(
                    "Error (st needs seconds, more than 0 and at most a year): {quoted}"
                )),
            },
            "sd" => match rest.parse::<u32>() {
                Ok(d) if d > 0 => self.depth = Some(d.min(90)),
                _ => self.say(&format!("Error (sd needs a depth): {quoted}")),
            },
            "nps" => match rest.parse::<u64>() {
                Ok(n) => self.nps = (n > 0).then_some(n),
                _ => self.say(&format!("Error (nps needs nodes a second): {quoted}")),
            },
            "time" => match rest.parse::<u64>() {
                Ok(cs) => self.clock = Duration::from_millis(cs.saturating_mul(10)),
                _ => self.say(&format!("Error (time needs centiseconds): {quoted}")),
            },
            "ping" => self.say(&format!("pong {}", clip(rest))),
            "post" => self.post = true,
            "nopost" => self.post = false,
            "result" => self.force = true,
            "quit" => return false,
            _ if move_like(word) => self.user_move(word),
            _ => self.say(&format!("Error (unknown command): {quoted}")),
        }
        true
    }

    /// Sets the game at `from`, or says why not after `refusal`.
    fn set(&mut self, from: From, refusal: &str) {
        let control = self.control.clone();
        let Some((loaded, p)) = self.playing() else { return };
        if let Err(e) = control.long(|| p.set(loaded, from, vec![])) {
            control.say(&format!("{refusal}: {e}"));
        }
    }

    /// Takes back `n` moves.
    fn undo(&mut self, n: usize) {
        let control = self.control.clone();
        let Some((loaded, p)) = self.playing() else { return };
        if let Err(e) = control.long(|| p.undo(loaded, n)) {
            control.say(&format!("Error (undo): {e}"));
        }
    }

    /// The side to move, when the game is set up.
    fn turn(&mut self) -> Option<usize> {
        self.playing().map(|(_, p)| p.game.m.pos.turn)
    }

    fn level(&mut self, rest: &str) {
        let parts: Vec<&str> = rest.split_whitespace().collect();
        let refuse = |x: &Xboard| {
            x.say(&format!(
                "Error (level needs MPS BASE INC: moves, minutes or MIN:SEC, seconds): level {}",
                clip(rest)
            ))
        };
        let [mps, base, inc] = parts[..] else {
            return refuse(self);
        };
        let base = match base.split_once(':') {
            Some((m, s)) => m
                .parse::<u32>()
                .ok()
                .zip(seconds(s))
                .map(|(m, s)| Duration::from_secs(60 * u64::from(m)) + s),
            None => base.parse::<f64>().ok().and_then(|m| seconds(&(m * 60.0).to_string())),
        };
        match (mps.parse::<u32>(), base, seconds(inc)) {
            (Ok(mps), Some(base), Some(inc)) => {
                self.moves_per_control = (mps > 0).then_some(mps);
                self.clock = base;
                self.inc = inc;
            }
            _ => refuse(self),
        }
    }

    fn user_move(&mut self, text: &str) {
        let control = self.control.clone();
        let Some((loaded, p)) = self.playing() else { return };
        if let Err(e) = control.long(|| p.push(loaded, text)) {
            let why = e.to_string().replace('\n', " ");
            return control.say(&format!("Illegal move ({why}): {}", clip(text)));
        }
        let (ended, turn) = (p.game.m.end().ok().flatten(), p.game.m.pos.turn);
        if let Some(o) = ended {
            return self.say(&format!("{} {{{}}}", o.result(), o.ending.name()));
        }
        if !self.force && self.engine == Some(turn) {
            self.think();
        }
    }

    /// Searches the position and plays the move found.
    fn think(&mut self) {
        let castling = if self.current.variant() == "chess960" {
            Castling::Letters
        } else {
            Castling::KingMove
        };
        let (post, depth, nps) = (self.post, self.depth, self.nps);
        let control = self.control.clone();
        let per_move = self.per_move;
        let (clock, inc, mpc, read) = (self.clock, self.inc, self.moves_per_control, self.read);
        if self.playing().is_none() {
            return;
        }
        let Ok((loaded, p)) = self.current.playing(&control) else {
            return;
        };
        if let Ok(Some(o)) = p.game.m.end() {
            return control.say(&format!("{} {{{}}}", o.result(), o.ending.name()));
        }
        let to_go = mpc.map(|mps| {
            let played = (p.moves.len() / 2) as u32;
            mps - played % mps
        });
        // The clock started when the command was read.
        let time = per_move
            .unwrap_or_else(|| budget(clock, inc, to_go))
            .saturating_sub(read.elapsed())
            .max(Duration::from_millis(1));
        let mut limits = Limits {
            depth,
            nodes: nps.map(|n| (time.as_secs_f64() * n as f64).clamp(1.0, u64::MAX as f64) as u64),
            time: if nps.is_some() {
                Timer::new(&SystemClock)
            } else {
                Timer::limited(time, &SystemClock)
            },
            stop: control.halt.clone(),
        };
        if control.paced() {
            limits.nodes = Some(limits.nodes.map_or(PACED_NODES, |n| n.min(PACED_NODES)));
            limits.time = Timer::NONE;
        }
        let g = &mut p.game;
        let mut view = g.m.clone();
        let mut report = |info: &SearchInfo| {
            if post {
                let pv = move_words::line_as(&mut view, &info.pv, castling).unwrap_or_default();
                let score = match mate_in(info.score) {
                    Some(n) if n > 0 => 100_000 + n,
                    Some(n) => -100_000 + n,
                    None => info.score,
                };
                control.say(&format!(
                    "{} {score} {} {} {}",
                    info.depth,
                    info.time.as_millis() / 10,
                    info.nodes,
                    pv.join(" ")
                ));
            }
        };
        let searcher = &mut self.searcher;
        let found = control.long(|| searcher.search(&mut g.m, &g.history, &loaded.values, &limits, &mut report));
        let name = match found {
            Ok(Some(info)) => {
                let all = move_words::names_as(&mut g.m, castling).unwrap_or_default();
                info.pv.first().and_then(|&i| all.get(i).cloned())
            }
            Ok(None) => None,
            Err(e) => {
                control.say(&format!("Error (search): {e}"));
                None
            }
        };
        let Some(name) = name else { return };
        control.say(&format!("move {name}"));
        match p.push(loaded, &name) {
            Ok(()) => {
                if let Ok(Some(o)) = p.game.m.end() {
                    control.say(&format!("{} {{{}}}", o.result(), o.ending.name()));
                }
            }
            Err(e) => control.say(&format!("Error (move {name}): {e}")),
        }
    }
}
