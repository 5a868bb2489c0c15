//! What `uci` and `xboard` share: the thread that reads the commands, so
//! that `stop`, `quit` and `isready` are heard while the command thread
//! works; the flags it sets; the memory a session may hold and the table
//! sizes that fit it; and the games a session loads, kept for it.

use super::output::plain_error;
use super::think::{load_variant, EngineArgs, From, LoadError, Loaded, Playing};
use algchess_core::{Budget, Diags, MemoryLimit};
use std::io::BufRead;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::SeqCst};
use std::sync::mpsc;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

/// The longest command line read: a game of a million moves fits. A
/// longer line is answered with an error, and only this much of it is
/// ever held.
pub(super) const MAX_LINE: usize = 16 << 20;

/// How long loading a game may take (its values come from random games).
pub(super) const LOAD_TIME: Duration = Duration::from_secs(30);

/// Where a session's output goes: standard output, or a test's sink.
pub(super) type Say = Arc<dyn Fn(&str) + Send + Sync>;

/// What the reading thread passes on.
pub(super) enum Input {
    /// A command, and when it was read (a clock starts then).
    Line {
        text: String,
        read: Instant,
        stops: u64,
        long: bool,
    },
    /// A line that is not a command: not UTF-8, or too long.
    Bad(String),
    Eof,
}

/// What the reading thread does with a line besides passing it on.
pub(super) enum Heard {
    /// Stops what runs (UCI's `stop`, XBoard's `?`); not passed on.
    Stop,
    /// Stops what runs, and ends the session once the line is taken.
    Quit,
    /// Answered at once with this text when every earlier command is
    /// done but long ones (a search, a count, a game loading); otherwise
    /// passed on, to be answered in its turn.
    Ready(&'static str),
    /// Passed on, a command that may run long (UCI's `go`): `Ready` does
    /// not wait for it.
    Long,
    /// Not passed on (UCI's `ponderhit`).
    Drop,
    Pass,
}

/// The flags the reading thread and the command thread share.
pub(super) struct Control {
    /// Stops the search and every move the rules find: set by a stop, a
    /// quit and the end of input, cleared by the command thread for each
    /// command read after the last stop.
    pub halt: Arc<AtomicBool>,
    /// Stops so far, so a command knows whether one came after it.
    stops: AtomicU64,
    /// Lines passed on that are not `Long`, and those of them done (or
    /// gone on to long work): `Ready` is answered at once when equal.
    waited: AtomicU64,
    done: AtomicU64,
    /// The command running is counted in `done`.
    counted: AtomicBool,
    /// `Long` lines passed on and not yet done, and whether long work
    /// runs: `Ready` is answered at once only then, so that a session at
    /// rest loads its game on `isready`.
    longs: AtomicU64,
    working: AtomicBool,
    /// The command running is a `Long` line.
    running_long: AtomicBool,
    /// The reader waits for each command but a `Long` one to be done
    /// before it reads the next line, as a client that waits for answers
    /// would (the fuzz targets' sessions).
    paced: bool,
    say: Say,
}

impl Control {
    /// The flags of a new session. The halt flag is the process's: the
    /// games kept for it play within that flag, whichever session loaded
    /// them (one session runs at a time).
    pub(super) fn new(say: Say, paced: bool) -> Arc<Control> {
        static HALT: OnceLock<Arc<AtomicBool>> = OnceLock::new();
        let halt = HALT.get_or_init(|| Arc::new(AtomicBool::new(false))).clone();
        halt.store(false, SeqCst);
        Arc::new(Control {
            halt,
            stops: AtomicU64::new(0),
            waited: AtomicU64::new(0),
            done: AtomicU64::new(0),
            counted: AtomicBool::new(true),
            longs: AtomicU64::new(0),
            working: AtomicBool::new(false),
            running_long: AtomicBool::new(false),
            paced,
            say,
        })
    }

    pub(super) fn say(&self, text: &str) {
        (self.say)(text);
    }

    /// Takes the next input, and lets the halt flag stand only when a stop
    /// came after the line was read.
    pub(super) fn next(&self, rx: &mpsc::Receiver<Input>) -> Input {
        self.count();
        if self.running_long.swap(false, SeqCst) {
            self.longs.fetch_sub(1, SeqCst);
        }
        let input = rx.recv().unwrap_or(Input::Eof);
        // A line not `Long`, and a bad one, are counted once done; the
        // end of input never was waited for.
        let long = match &input {
            Input::Line { long, .. } => *long,
            Input::Bad(_) => false,
            Input::Eof => true,
        };
        self.counted.store(long, SeqCst);
        if let Input::Line { stops, long, .. } = &input {
            self.running_long.store(*long, SeqCst);
            // Cleared first, then set again if a stop came: a stop between
            // the two is seen by the second.
            self.halt.store(false, SeqCst);
            if self.stops.load(SeqCst) != *stops {
                self.halt.store(true, SeqCst);
            }
        }
        input
    }

    /// Runs `f` as long work: `isready` is answered meanwhile.
    pub(super) fn long<T>(&self, f: impl FnOnce() -> T) -> T {
        self.count();
        self.working.store(true, SeqCst);
        let out = f();
        self.working.store(false, SeqCst);
        out
    }

    /// Whether a paced reader reads on: a `Long` command (a search) runs
    /// or waits, so that a stop or the end of input may reach it, or every
    /// command passed on is done (loading a game is waited for).
    fn settled(&self) -> bool {
        self.longs.load(SeqCst) > 0
            || (self.done.load(SeqCst) == self.waited.load(SeqCst) && !self.working.load(SeqCst))
    }

    /// Whether `Ready` is answered at once: long work runs or waits, and
    /// every other command before it is done.
    fn ready(&self) -> bool {
        let busy = self.working.load(SeqCst) || self.longs.load(SeqCst) > 0;
        busy && self.done.load(SeqCst) == self.waited.load(SeqCst)
    }

    /// Counts the command running as done, once.
    fn count(&self) {
        if !self.counted.swap(true, SeqCst) {
            self.done.fetch_add(1, SeqCst);
        }
    }

    fn stop(&self) {
        self.stops.fetch_add(1, SeqCst);
        self.halt.store(true, SeqCst);
    }
}

/// Reads `input` a line at a time until a quit or its end, hearing each
/// line with `hear`, and passes commands on to the command thread.
pub(super) fn read(input: impl BufRead, control: Arc<Control>, tx: mpsc::Sender<Input>, hear: fn(&str) -> Heard) {
    let mut input = input;
    let mut buf = vec![];
    loop {
        while control.paced && !control.settled() {
            std::thread::sleep(Duration::from_micros(20));
        }
        buf.clear();
        let length = match read_line(&mut input, MAX_LINE, &mut buf) {
            Ok(Some(n)) => n,
            Ok(None) => break,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => break,
        };
        let send = |i: Input| {
            match i {
                Input::Line { long: true, .. } => control.longs.fetch_add(1, SeqCst),
                _ => control.waited.fetch_add(1, SeqCst),
            };
            tx.send(i).is_ok()
        };
        if length as usize > MAX_LINE {
            let why = format!(
                "a line of {length} bytes is longer than the {} MiB a command may be",
                MAX_LINE >> 20
            );
            if !send(Input::Bad(why)) {
                return;
            }
            continue;
        }
        let text = match String::from_utf8(std::mem::take(&mut buf)) {
            Ok(t) => t.trim_end_matches(['\n', '\r']).to_string(),
            Err(e) => {
                let at = e.utf8_error().valid_up_to();
                let why = format!("the line is not UTF-8 (byte {} is not); it is passed over", at + 1);
                if !send(Input::Bad(why)) {
                    return;
                }
                continue;
            }
        };
        let heard = hear(&text);
        match heard {
            Heard::Stop => {
                control.stop();
                continue;
            }
            Heard::Drop => continue,
            Heard::Ready(answer) if control.ready() => {
                control.say(answer);
                continue;
            }
            Heard::Quit => {
                control.stop();
                let stops = control.stops.load(SeqCst);
                let _ = send(Input::Line {
                    text,
                    read: Instant::now(),
                    stops,
                    long: false,
                });
                return;
            }
            Heard::Ready(_) | Heard::Pass | Heard::Long => {}
        }
        let long = matches!(heard, Heard::Long);
        let stops = control.stops.load(SeqCst);
        if !send(Input::Line {
            text,
            read: Instant::now(),
            stops,
            long,
        }) {
            return;
        }
    }
    control.stop();
    let _ = tx.send(Input::Eof);
}

/// Reads one line into `buf`, keeping at most `cap` bytes of it; the
/// line's whole length, or `None` at the end of the input.
pub(super) fn read_line(input: &mut impl BufRead, cap: usize, buf: &mut Vec<u8>) -> std::io::Result<Option<u64>> {
    let mut read = 0u64;
    loop {
        let available = input.fill_buf()?;
        if available.is_empty() {
            break;
        }
        let (part, end) = match available.iter().position(|&b| b == b'\n') {
            Some(i) => (&available[..=i], true),
            None => (available, false),
        };
        let room = cap.saturating_sub(buf.len());
        buf.extend_from_slice(&part[..part.len().min(room)]);
        let n = part.len();
        read += n as u64;
        input.consume(n);
        if end {
            break;
        }
    }
    Ok((read > 0).then_some(read))
}

/// Starts the reading thread on `input`; the receiver of its commands.
pub(super) fn start(
    input: impl BufRead + Send + 'static,
    control: &Arc<Control>,
    hear: fn(&str) -> Heard,
) -> mpsc::Receiver<Input> {
    let (tx, rx) = mpsc::channel();
    let control = control.clone();
    std::thread::spawn(move || read(input, control, tx, hear));
    rx
}

/// The heap a session may hold: `--memory-limit`, or three quarters of
/// what the machine can give it.
pub(super) fn memory(given: Option<MemoryLimit>) -> MemoryLimit {
    given.unwrap_or_else(|| {
        let room = crate::room().unwrap_or(4 << 30);
        if crate::HEAP.counting() {
            MemoryLimit::new(room / 4 * 3, &crate::HEAP)
        } else {
            MemoryLimit::NONE
        }
    })
}

/// The table's size in megabytes unless told otherwise.
pub(super) const DEFAULT_HASH: usize = 64;

/// The largest table a session offers, in megabytes: half of its memory,
/// at most 4,096.
pub(super) fn hash_max(memory: MemoryLimit) -> usize {
    let room = if memory.is_none() {
        crate::room().unwrap_or(4 << 30)
    } else {
        memory.bytes()
    };
    ((room / 2) >> 20).clamp(1, 4096)
}

/// A game loaded for a session, kept for the process's life: a session
/// that changes variants and comes back loads each game once, and the
/// moves played keep borrowing it. At most one is kept per game the
/// session can name (the bundled games, or a rule file's).
struct Kept {
    file: Option<PathBuf>,
    name: String,
    loaded: &'static Loaded,
}

/// The games loaded so far.
static SHELF: Mutex<Vec<Kept>> = Mutex::new(vec![]);

/// Game `name` of `file` (or the bundled one), loaded within `memory`
/// and [`LOAD_TIME`], then playing within `memory` and `halt`: a turn of
/// astronomically many results stops at them.
pub(super) fn load(
    file: Option<&Path>,
    name: &str,
    memory: MemoryLimit,
    halt: &Arc<AtomicBool>,
) -> Result<&'static Loaded, LoadError> {
    let find = |shelf: &[Kept], name: &str| {
        shelf
            .iter()
            .find(|k| k.file.as_deref() == file && k.name == name)
            .map(|k| k.loaded)
    };
    if let Some(l) = find(&SHELF.lock().expect("no panic while shelving"), name) {
        return Ok(l);
    }
    let budget = Budget {
        memory,
        deadline: Some(Instant::now() + LOAD_TIME),
        stop: Some(halt.clone()),
    };
    let loaded = load_variant(file, name, budget)?;
    let rules = loaded.rules;
    let mut shelf = SHELF.lock().expect("no panic while shelving");
    // Another name for a game kept already (a rule file's only game).
    if let Some(l) = find(&shelf, &rules.name) {
        shelf.push(Kept {
            file: file.map(Path::to_path_buf),
            name: name.to_string(),
            loaded: l,
        });
        return Ok(l);
    }
    let playing = Budget {
        deadline: None,
        ..Budget::memory(memory)
    };
    let kept: &'static Loaded = Box::leak(Box::new(Loaded {
        rules: rules.within(Budget {
            stop: Some(halt.clone()),
            ..playing
        }),
        values: loaded.values,
    }));
    for n in [name, &kept.rules.name] {
        shelf.push(Kept {
            file: file.map(Path::to_path_buf),
            name: n.to_string(),
            loaded: kept,
        });
    }
    Ok(kept)
}

/// The game a session plays: which, loaded on first use, and the game in
/// progress.
pub(super) struct Current {
    pub file: Option<PathBuf>,
    variant: String,
    pub memory: MemoryLimit,
    loaded: Option<&'static Loaded>,
    /// Why the variant did not load, so that it is not loaded again for
    /// each command.
    failed: Option<String>,
    playing: Option<Playing<'static>>,
}

impl Current {
    pub(super) fn new(file: Option<PathBuf>, variant: String, memory: MemoryLimit) -> Current {
        Current {
            file,
            variant,
            memory,
            loaded: None,
            failed: None,
            playing: None,
        }
    }

    pub(super) fn variant(&self) -> &str {
        &self.variant
    }

    /// Plays `name` from now on (loaded when first needed).
    pub(super) fn set_variant(&mut self, name: &str) {
        if name != self.variant {
            self.variant = name.to_string();
            self.loaded = None;
            self.failed = None;
            self.playing = None;
        }
    }

    /// The game, loaded (and set at its start) on first use; why not
    /// when it does not load.
    pub(super) fn game(&mut self, control: &Control) -> Result<&'static Loaded, String> {
        if let Some(l) = self.loaded {
            return Ok(l);
        }
        if let Some(why) = &self.failed {
            return Err(why.clone());
        }
        let file = self.file.clone();
        let found = control.long(|| load(file.as_deref(), &self.variant, self.memory, &control.halt));
        let why = match found.map(|l| (l, Playing::new(l, From::Start, vec![]))) {
            Ok((l, Ok(p))) => {
                self.loaded = Some(l);
                self.playing = Some(p);
                return Ok(l);
            }
            Ok((_, Err(e))) => e.to_string(),
            Err(e) => e.to_string(),
        };
        // A load a stop or a quit cut short may be asked for again.
        if !control.halt.load(SeqCst) {
            self.failed = Some(why.clone());
        }
        Err(why)
    }

    /// The game in progress, loaded on first use.
    pub(super) fn playing(&mut self, control: &Control) -> Result<(&'static Loaded, &mut Playing<'static>), String> {
        let loaded = self.game(control)?;
        match &mut self.playing {
            Some(p) => Ok((loaded, p)),
            None => Err("the game could not be set up".into()),
        }
    }
}

/// A searcher with a table of `--hash` megabytes, refused past `max` or
/// what `memory` and the allocator give.
pub(super) fn searcher(mb: Option<u64>, max: usize, memory: MemoryLimit) -> Result<algchess_core::Searcher, Diags> {
    let mb = mb.unwrap_or((DEFAULT_HASH as u64).min(max as u64));
    let refuse = |why: String| Err(plain_error(format!("--hash {mb}: {why}")));
    if mb as usize > max {
        return refuse(format!(
            "the table may be at most {max} megabytes here (half the memory limit)"
        ));
    }
    let mut s = algchess_core::Searcher::new(1);
    match s.resize(mb as usize, memory) {
        Ok(()) => Ok(s),
        Err(e) => refuse(e.to_string()),
    }
}

/// A session started: its flags, the commands the reading thread passes
/// on, the game and the searcher, and the largest table offered.
pub(super) struct Opened {
    pub control: Arc<Control>,
    pub rx: mpsc::Receiver<Input>,
    pub current: Current,
    pub searcher: algchess_core::Searcher,
    pub hash_max: usize,
}

/// Starts a session of `engine`'s options on `input` (standard input
/// when `None`), its output told to `say` (standard output when `None`).
pub(super) fn open(
    engine: &EngineArgs,
    input: Option<Box<dyn BufRead + Send>>,
    say: Option<Say>,
    paced: bool,
    hear: fn(&str) -> Heard,
) -> Result<Opened, Diags> {
    let say = say.unwrap_or_else(|| Arc::new(|text: &str| println!("{text}")));
    let input = input.unwrap_or_else(|| Box::new(std::io::BufReader::new(std::io::stdin())));
    let control = Control::new(say, paced);
    let memory = memory(engine.memory_limit);
    let hash_max = hash_max(memory);
    let searcher = searcher(engine.hash, hash_max, memory)?;
    let rx = start(input, &control, hear);
    let first = engine.game.clone().unwrap_or_else(|| "chess".into());
    Ok(Opened {
        control,
        rx,
        current: Current::new(engine.rules.clone(), first, memory),
        searcher,
        hash_max,
    })
}
