//! What `uci` and `xboard` share: the thread that reads the commands, so
//! that `stop`, `quit` and `isready` are heard while the command thread
//! works; the flags it sets; the memory a session may hold and the table
//! sizes that fit it; and the games a session loads, kept for it.

use super::output::plain_error;
use super::think::{load_variant, EngineArgs, From, LoadError, Loaded, Playing};
use algchess_core::{Budget, Deadline, Diags, MemoryLimit, SystemClock, Timer};
use std::collections::VecDeque;
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
    /// A paced session's input, which the command thread reads itself, a
    /// line when it is ready for the next, as a client that waits for
    /// each answer would send them (the fuzz targets' sessions): no
    /// reading thread, and what it runs does not depend on timing.
    pull: Option<Mutex<Pull>>,
    say: Say,
}

/// A paced session's input.
pub(super) struct Pull {
    input: Box<dyn BufRead + Send>,
    hear: fn(&str) -> Heard,
    /// Lines read while a command waited for a stop (`go infinite`), to
    /// be taken after it.
    pending: VecDeque<Input>,
    /// A quit or the end of the input was read.
    ended: bool,
}

impl Pull {
    /// Reads lines until one to pass on; `None` once a quit or the end of
    /// the input was read.
    fn read(&mut self, control: &Control) -> Option<Input> {
        let mut buf = vec![];
        while !self.ended {
            buf.clear();
            match read_line(&mut self.input, MAX_LINE, &mut buf) {
                Ok(Some(length)) => match take(control, std::mem::take(&mut buf), length, self.hear) {
                    Took::Pass(input) => {
                        control.passed(&input);
                        return Some(input);
                    }
                    Took::Last(input) => {
                        self.ended = true;
                        control.passed(&input);
                        return Some(input);
                    }
                    Took::Handled => {}
                },
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Ok(None) | Err(_) => {
                    self.ended = true;
                    control.stop();
                }
            }
        }
        None
    }
}

/// A paced session's work: a search visits at most this many nodes and
/// is given no time (a clock would make what runs depend on the machine's
/// load), ...
pub(super) const PACED_NODES: u64 = 32;
/// ... `go perft` counts at most this deep ...
pub(super) const PACED_PERFT: u64 = 2;
/// ... and the table is at most this many megabytes (a table is filled
/// when made: 100 MB are 25,000 pages).
const PACED_HASH: usize = 2;

impl Control {
    /// The flags of a new session. The halt flag is the process's: the
    /// games kept for it play within that flag, whichever session loaded
    /// them (one session runs at a time).
    pub(super) fn new(say: Say, pull: Option<Pull>) -> Arc<Control> {
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
            pull: pull.map(Mutex::new),
            say,
        })
    }

    pub(super) fn say(&self, text: &str) {
        (self.say)(text);
    }

    /// Whether the session is paced: its work is bounded by
    /// [`PACED_NODES`] and [`PACED_PERFT`], not by a clock.
    pub(super) fn paced(&self) -> bool {
        self.pull.is_some()
    }

    fn pull(&self) -> Option<std::sync::MutexGuard<'_, Pull>> {
        self.pull.as_ref().map(|p| p.lock().unwrap_or_else(|e| e.into_inner()))
    }

    /// Waits until a stop, a quit or the end of the input (`go
    /// infinite`'s search is done). A paced session reads its input
    /// meanwhile and keeps the lines for later, as the reading thread
    /// would pass them on.
    pub(super) fn wait_for_stop(&self) {
        while !self.halt.load(SeqCst) {
            match self.pull() {
                Some(mut p) => match p.read(self) {
                    Some(input) => p.pending.push_back(input),
                    None => break,
                },
                None => std::thread::sleep(Duration::from_millis(2)),
            }
        }
    }

    /// Takes the next input, and lets the halt flag stand only when a stop
    /// came after the line was read.
    pub(super) fn next(&self, rx: &mpsc::Receiver<Input>) -> Input {
        self.count();
        if self.running_long.swap(false, SeqCst) {
            self.longs.fetch_sub(1, SeqCst);
        }
        let input = match self.pull() {
            Some(mut p) => match p.pending.pop_front() {
                Some(input) => input,
                None => p.read(self).unwrap_or(Input::Eof),
            },
            None => rx.recv().unwrap_or(Input::Eof),
        };
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

    /// Counts a line passed on to the command thread.
    fn passed(&self, input: &Input) {
        match input {
            Input::Line { long: true, .. } => self.longs.fetch_add(1, SeqCst),
            _ => self.waited.fetch_add(1, SeqCst),
        };
    }
}

/// What the reader does with a line.
enum Took {
    /// Passes it on.
    Pass(Input),
    /// Passes it on and reads no more (a quit).
    Last(Input),
    /// Nothing more: a stop, a line dropped, a readiness answered.
    Handled,
}

/// Hears a line read, `length` bytes long of which `buf` holds the first
/// [`MAX_LINE`]; stops, drops and answers what the reader handles itself.
fn take(control: &Control, buf: Vec<u8>, length: u64, hear: fn(&str) -> Heard) -> Took {
    if length as usize > MAX_LINE {
        let why = format!(
            "a line of {length} bytes is longer than the {} MiB a command may be",
            MAX_LINE >> 20
        );
        return Took::Pass(Input::Bad(why));
    }
    let text = match String::from_utf8(buf) {
        Ok(t) => t.trim_end_matches(['\n', '\r']).to_string(),
        Err(e) => {
            let at = e.utf8_error().valid_up_to();
            let why = format!("the line is not UTF-8 (byte {} is not); it is passed over", at + 1);
            return Took::Pass(Input::Bad(why));
        }
    };
    let heard = hear(&text);
    match heard {
        Heard::Stop => {
            control.stop();
            return Took::Handled;
        }
        Heard::Drop => return Took::Handled,
        Heard::Ready(answer) if control.ready() => {
            control.say(answer);
            return Took::Handled;
        }
        Heard::Quit => {
            control.stop();
            return Took::Last(Input::Line {
                text,
                read: Instant::now(),
                stops: control.stops.load(SeqCst),
                long: false,
            });
        }
        Heard::Ready(_) | Heard::Pass | Heard::Long => {}
    }
    Took::Pass(Input::Line {
        text,
        read: Instant::now(),
        stops: control.stops.load(SeqCst),
        long: matches!(heard, Heard::Long),
    })
}

/// Reads `input` a line at a time until a quit or its end, hearing each
/// line with `hear`, and passes commands on to the command thread.
pub(super) fn read(input: impl BufRead, control: Arc<Control>, tx: mpsc::Sender<Input>, hear: fn(&str) -> Heard) {
    let mut input = input;
    let mut buf = vec![];
    loop {
        buf.clear();
        let length = match read_line(&mut input, MAX_LINE, &mut buf) {
            Ok(Some(n)) => n,
            Ok(None) => break,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => break,
        };
        let (input, last) = match take(&control, std::mem::take(&mut buf), length, hear) {
            Took::Pass(i) => (i, false),
            Took::Last(i) => (i, true),
            Took::Handled => continue,
        };
        control.passed(&input);
        if tx.send(input).is_err() || last {
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
        deadline: Timer::limited(LOAD_TIME, &SystemClock).start(),
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
        deadline: Deadline::NONE,
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

/// Game `loaded` at its start: set up once for the thread (its first
/// moves found), then copied.
fn at_start(loaded: &'static Loaded) -> Result<Playing<'static>, super::think::SetupError> {
    thread_local! {
        static STARTS: std::cell::RefCell<Vec<(&'static Loaded, Playing<'static>)>> =
            const { std::cell::RefCell::new(vec![]) };
    }
    let kept = STARTS.with_borrow(|starts| {
        starts
            .iter()
            .find(|(l, _)| std::ptr::eq(*l, loaded))
            .map(|(_, p)| p.clone())
    });
    if let Some(p) = kept {
        return Ok(p);
    }
    let p = Playing::new(loaded, From::Start, vec![])?;
    STARTS.with_borrow_mut(|starts| starts.push((loaded, p.clone())));
    Ok(p)
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
        let why = match found.map(|l| (l, at_start(l))) {
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
    let memory = memory(engine.memory_limit);
    let (control, rx, hash_max, searcher) = if paced {
        let pull = Pull {
            input,
            hear,
            pending: VecDeque::new(),
            ended: false,
        };
        let control = Control::new(say, Some(pull));
        let hash_max = hash_max(memory).min(PACED_HASH);
        let kept = PACED_SEARCHER.lock().unwrap_or_else(|e| e.into_inner()).take();
        let searcher = match kept {
            // The table of one megabyte kept from the last session, emptied.
            Some(mut s) if engine.hash == Some(1) && s.table.bytes() <= 1 << 20 => {
                s.clear();
                s
            }
            _ => searcher(engine.hash, hash_max, memory)?,
        };
        // Never read: the command thread reads the input itself.
        let (_, rx) = mpsc::channel();
        (control, rx, hash_max, searcher)
    } else {
        let control = Control::new(say, None);
        let hash_max = hash_max(memory);
        let searcher = searcher(engine.hash, hash_max, memory)?;
        let rx = start(input, &control, hear);
        (control, rx, hash_max, searcher)
    };
    let first = engine.game.clone().unwrap_or_else(|| "chess".into());
    Ok(Opened {
        control,
        rx,
        current: Current::new(engine.rules.clone(), first, memory),
        searcher,
        hash_max,
    })
}

/// The searcher of the last paced session, whose table the next one
/// empties rather than makes again.
static PACED_SEARCHER: Mutex<Option<algchess_core::Searcher>> = Mutex::new(None);

/// Ends a session with `searcher`: a paced session's is kept for the next.
pub(super) fn close(control: &Control, searcher: algchess_core::Searcher) {
    if control.paced() {
        *PACED_SEARCHER.lock().unwrap_or_else(|e| e.into_inner()) = Some(searcher);
    }
}
