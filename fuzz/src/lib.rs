//! What the fuzz targets share: a generator of rule files that follows the
//! grammar (so that inputs reach elaboration, evaluation, the checker and
//! the prover instead of stopping at a syntax error), small boards, tiny
//! limits, and a thread with the command line's large stack.

use algchess_core::{ClaimOptions, Grid, MemoryLimit, ProveOptions, SaturationLimits, EnumerationOptions, Square, State};
use arbitrary::{Arbitrary, Result, Unstructured};
use std::fmt;
use std::sync::mpsc::{sync_channel, Receiver, SyncSender};
use std::sync::{Mutex, OnceLock};

/// The stack the command line gives every thread that works on input (see
/// `src/cli` of the command line): a crash here is a crash of the tool.
pub const STACK: usize = 256 << 20;

type Job = Box<dyn FnOnce() + Send + 'static>;

/// One thread with the command line's stack, kept for every input: a new
/// thread per input would cost more than most inputs.
struct Worker {
    jobs: SyncSender<Job>,
    done: Receiver<()>,
}

static WORKER: OnceLock<Mutex<Worker>> = OnceLock::new();

fn worker() -> &'static Mutex<Worker> {
    WORKER.get_or_init(|| {
        let (jobs, inbox) = sync_channel::<Job>(0);
        let (finished, done) = sync_channel(0);
        std::thread::Builder::new()
            .stack_size(STACK)
            .spawn(move || {
                for job in inbox {
                    job();
                    if finished.send(()).is_err() {
                        break;
                    }
                }
            })
            .expect("a thread for the inputs");
        Mutex::new(Worker { jobs, done })
    })
}

/// Runs `f` on a thread with the command line's stack and waits for it. A
/// panic there is the input's failure: libFuzzer's panic hook aborts.
pub fn on_big_stack<T: Send>(f: impl FnOnce() -> T + Send) -> T {
    let mut out = None;
    let slot = &mut out;
    let job: Box<dyn FnOnce() + Send + '_> = Box::new(move || *slot = Some(f()));
    // SAFETY: the job borrows from this frame, which outlives it: this
    // function returns only after the worker reports the job done, and a
    // job that panics aborts the process (or, without libFuzzer's hook,
    // ends the worker, so the job never touches the borrow again).
    let job: Job = unsafe { std::mem::transmute::<Box<dyn FnOnce() + Send + '_>, Job>(job) };
    let w = worker().lock().unwrap_or_else(|e| e.into_inner());
    w.jobs.send(job).expect("the worker takes the input");
    w.done.recv().expect("the worker ran the input without a panic");
    drop(w);
    out.expect("the job ran")
}

/// The checker's options for one fuzz input: tiny, so each input is quick.
pub fn tiny_check() -> ClaimOptions {
    ClaimOptions {
        search: EnumerationOptions {
            max_cells: 3,
            work: Some(200),
            eval_budget: 20_000,
            ..EnumerationOptions::default()
        },
        instances: 2,
        instance_cells: 2,
        ..ClaimOptions::default()
    }
}

/// The prover's options for one fuzz input.
pub fn tiny_prove() -> ProveOptions {
    let check = tiny_check();
    ProveOptions {
        saturation: SaturationLimits {
            iter_limit: 4,
            node_limit: 2_000,
            time_limit: algchess_core::Timer::NONE,
            memory: MemoryLimit::NONE,
        },
        check: check.clone(),
        cross_check: check,
        ..ProveOptions::default()
    }
}

/// Pieces every file knows.
const PIECES: &[&str] = &[
    "♔", "♕", "♖", "♗", "♘", "♙", "♚", "♛", "♜", "♝", "♞", "♟", "'K", "'q", "'R", "'p",
];

/// Piece declarations a generated file may make, each always the same (the
/// piece registry is shared by every file of the process), and the pieces
/// each declares.
const DECLARED: &[(&str, &[&str])] = &[
    ("piece ● / ○", &["●", "○"]),
    ("piece 'X / 'O", &["'X", "'O"]),
    ("piece ● 'D / ○ 'L", &["'D", "'L"]),
    ("piece ◆", &["◆"]),
    ("piece ▲ ◀ ▼ ▶ / △ ◁ ▽ ▷", &["▲", "◀", "▽", "▷"]),
    ("piece 'Kc / 'kc", &["'Kc", "'kc"]),
];

/// Names for definitions: none reads as a movement or a keyword.
const NAMES: &[&str] = &["step", "hop", "zig", "take", "slide", "alpha", "beta", "gam", "x", "y"];

/// Notation literals that lower, and near misses.
const LITERALS: &[&str] = &[
    "betza\"W\"",
    "betza\"mfWcfF\"",
    "betza\"N\"",
    "betza\"R\"",
    "betza\"gQ\"",
    "betza\"nD\"",
    "betza\"ifmnD\"",
    "path\"/L*(F$)+/\"",
    "path\"/L*FF(L|R)F$/\"",
    "path\"/L*(F|FLF|FRF)$/\"",
    "path\"F$\"",
    "path\"(F$)*\"",
    "parlett\"(move 'n 'X)\"",
    "parlett\"(move 1 'X)\"",
    "referee\"[ahead] if empty;\"",
    "referee\"Knights: [1, 2]; [2, 1];\"",
];

#[derive(Clone, Copy, PartialEq, Eq)]
enum Sort {
    Frag,
    Move,
}

/// Writes rule-file text from the fuzzer's bytes, following the grammar.
struct Writer<'a, 'b> {
    u: &'a mut Unstructured<'b>,
    pieces: Vec<&'static str>,
    defs: Vec<(&'static str, Sort)>,
    funcs: Vec<(&'static str, usize)>,
    /// Metavariables may stand in a claim.
    metas: bool,
}

impl Writer<'_, '_> {
    fn pick<T: Copy>(&mut self, xs: &[T]) -> Result<T> {
        Ok(*self.u.choose(xs)?)
    }

    fn below(&mut self, n: u32) -> Result<u32> {
        self.u.int_in_range(0..=n.saturating_sub(1))
    }

    fn number(&mut self) -> Result<String> {
        Ok(match self.below(8)? {
            0 => "0".into(),
            1 => "4294967297".into(),
            2 => "65535".into(),
            n => (n - 1).to_string(),
        })
    }

    fn movement(&mut self) -> Result<String> {
        let mut s = String::new();
        for _ in 0..1 + self.below(3)? {
            s.push(self.pick(&['u', 'd', 'l', 'r', 'R', 'F', 'C', '1'])?);
        }
        let power = match self.below(10)? {
            0 => "²".to_string(),
            1 => "³".to_string(),
            2 => "⁻¹".to_string(),
            3 => format!("^{}", self.number()?),
            4 => format!("^-{}", self.number()?),
            _ => String::new(),
        };
        if !power.is_empty() && s.len() > 1 && self.u.arbitrary()? {
            return Ok(format!("({s}){power}"));
        }
        Ok(s + &power)
    }

    fn piece(&mut self) -> Result<&'static str> {
        if !self.pieces.is_empty() && self.u.arbitrary()? {
            let ps = self.pieces.clone();
            return self.pick(&ps);
        }
        self.pick(PIECES)
    }

    fn cell(&mut self) -> Result<String> {
        Ok(match self.below(9)? {
            0 => ".".into(),
            1 => "#".into(),
            2 => "%".into(),
            3 => "0".into(),
            4 => format!("({} | {})", self.piece()?, self.piece()?),
            5 if self.metas => self.pick(&["p", "q"])?.to_string(),
            _ => self.piece()?.to_string(),
        })
    }

    fn name_of(&mut self, sort: Sort) -> Result<Option<&'static str>> {
        let names: Vec<&'static str> = self.defs.iter().filter(|d| d.1 == sort).map(|d| d.0).collect();
        if names.is_empty() {
            return Ok(None);
        }
        Ok(Some(self.pick(&names)?))
    }

    fn fragment(&mut self, depth: u32) -> Result<String> {
        if depth == 0 {
            return self.cell();
        }
        Ok(match self.below(8)? {
            0 => format!("{} + {}", self.fragment(depth - 1)?, self.fragment(depth - 1)?),
            1 => format!("{};{}", self.cell()?, self.cell()?),
            2 => format!("{}{}{}", self.cell()?, self.cell()?, self.cell()?),
            3 => format!("{}({})", self.movement()?, self.fragment(depth - 1)?),
            4 => format!("{}{}", self.movement()?, self.cell()?),
            5 => match self.name_of(Sort::Frag)? {
                Some(n) => n.to_string(),
                None => self.cell()?,
            },
            _ => self.cell()?,
        })
    }

    /// A rule that moves pieces about: the same squares on both sides.
    fn shaped_rule(&mut self) -> Result<String> {
        let n = 1 + self.below(3)? as usize;
        let mut at = vec![String::new()];
        for _ in 1..n {
            at.push(self.movement()?);
        }
        let mut sides = vec![];
        for _ in 0..2 {
            let cells: Vec<String> = at
                .iter()
                .map(|m| Ok(format!("{m}{}", self.cell()?)))
                .collect::<Result<_>>()?;
            sides.push(cells.join(" + "));
        }
        Ok(format!("({} -> {})", sides[0], sides[1]))
    }

    fn postfix(&mut self) -> Result<String> {
        Ok(match self.below(10)? {
            0 => "*".into(),
            1 => "+".into(),
            2 => "?".into(),
            3 => "*!".into(),
            4 => format!("{{{}}}", self.number()?),
            5 => format!("{{{},{}}}", self.number()?, self.number()?),
            6 => format!("{{{},}}", self.number()?),
            7 => format!("<{},{}>", self.number()?, self.number()?),
            8 => "²".into(),
            _ => "{2}".into(),
        })
    }

    fn moves(&mut self, depth: u32) -> Result<String> {
        if depth == 0 {
            return Ok(match self.below(6)? {
                0 => "nil".into(),
                1 => "fail".into(),
                2 if self.metas => self.pick(&["M", "N", "K"])?.to_string(),
                _ => self.shaped_rule()?,
            });
        }
        let d = depth - 1;
        Ok(match self.below(16)? {
            0 => format!("{} {}", self.moves(d)?, self.moves(d)?),
            1 => format!("{} | {}", self.moves(d)?, self.moves(d)?),
            2 => format!("({}){}", self.moves(d)?, self.postfix()?),
            3 => format!("{}{}", self.shaped_rule()?, self.postfix()?),
            4 => format!("not {}", self.moves(d)?),
            5 => format!("(%{}: {})", self.piece()?, self.moves(d)?),
            6 => format!("(%p: {})", self.moves(d)?),
            7 => format!("{} ({})", self.movement()?, self.moves(d)?),
            8 => format!("({} -> {})", self.fragment(d)?, self.fragment(d)?),
            9 => self.pick(LITERALS)?.to_string(),
            10 => match self.name_of(Sort::Move)? {
                Some(n) => n.to_string(),
                None => self.shaped_rule()?,
            },
            11 if !self.funcs.is_empty() => {
                let fs = self.funcs.clone();
                let (f, arity) = self.pick(&fs)?;
                let args: Vec<String> = (0..arity).map(|_| self.moves(d)).collect::<Result<_>>()?;
                format!("{f}({})", args.join(", "))
            }
            12 => format!("({}; {})", self.moves(d)?, self.moves(d)?),
            _ => self.shaped_rule()?,
        })
    }

    /// A move with no free `%`: a turn of a game.
    fn closed_move(&mut self, depth: u32) -> Result<String> {
        Ok(format!("(%{}: {})", self.piece()?, self.moves(depth)?))
    }

    /// A game's starting board, at most 3 by 3: a ply that may change any
    /// subset of 16 squares has 65,536 successors, seconds of work that
    /// the evaluator's budget allows.
    fn board(&mut self) -> Result<String> {
        let (w, h) = (1 + self.below(3)?, 1 + self.below(3)?);
        let mut rows = vec![];
        for _ in 0..h {
            let mut row = String::new();
            for _ in 0..w {
                row.push_str(match self.below(4)? {
                    0 | 1 => ".",
                    _ => self.piece()?,
                });
            }
            rows.push(row);
        }
        Ok(rows.join(";"))
    }

    fn file(&mut self) -> Result<String> {
        let mut out = vec![];
        for (decl, pieces) in DECLARED {
            if self.below(4)? == 0 {
                out.push(decl.to_string());
                self.pieces.extend(pieces.iter());
            }
        }
        for _ in 0..self.below(4)? {
            let (f, arity) = self.pick(&[("twice", 1usize), ("any_dir", 1), ("guard", 1), ("both", 2)])?;
            if self.funcs.iter().any(|g| g.0 == f) {
                continue;
            }
            let params = ["M", "N"][..arity].join(", ");
            let body = match f {
                "twice" => "M M".to_string(),
                "any_dir" => "M | R M | R² M | R³ M".to_string(),
                "guard" => format!("not M {}", self.shaped_rule()?),
                _ => format!("(M | N) {}", self.moves(1)?),
            };
            out.push(format!("{f}({params}) = {body}"));
            self.funcs.push((f, arity));
        }
        for _ in 0..self.below(6)? {
            let name = self.pick(NAMES)?;
            if self.defs.iter().any(|d| d.0 == name) {
                continue;
            }
            let (sort, body) = if self.below(3)? == 0 {
                (Sort::Frag, self.fragment(2)?)
            } else {
                let d = self.below(4)?;
                (Sort::Move, self.moves(d)?)
            };
            out.push(format!("{name} = {body}"));
            self.defs.push((name, sort));
        }
        if self.below(3)? == 0 {
            out.push(format!("start = {}", self.board()?));
            let turns: Vec<String> = (0..1 + self.below(3)?)
                .map(|_| self.closed_move(2))
                .collect::<Result<_>>()?;
            out.push(format!("game g(start) = {}", turns.join(", ")));
            for _ in 0..self.below(3)? {
                let end = match self.below(6)? {
                    0 => "game g stuck: loss, draw".to_string(),
                    1 => format!("game g lost: not {}", self.closed_move(1)?),
                    2 => "game g draws: repetition".to_string(),
                    3 => format!("game g stuck: stalemate({}, {})", self.number()?, self.number()?),
                    4 => "game g stuck: pass, most_pieces".to_string(),
                    _ => format!("game g won: {}", self.closed_move(1)?),
                };
                out.push(end);
            }
        }
        for i in 0..self.below(4)? {
            self.metas = self.u.arbitrary()?;
            let kind = if self.u.arbitrary()? { "=" } else { "!=" };
            let (l, r) = if self.below(4)? == 0 {
                (self.fragment(2)?, self.fragment(2)?)
            } else {
                (self.moves(3)?, self.moves(3)?)
            };
            let word = if self.below(8)? == 0 { "axiom" } else { "theorem" };
            out.push(format!("{word} c{i}: {l} {kind} {r}"));
            self.metas = false;
        }
        Ok(out.join("\n") + "\n")
    }
}

/// A rule file written from the grammar: pieces, functions, definitions,
/// maybe a game with its ends, and claims.
pub struct RuleFile(pub String);

impl fmt::Debug for RuleFile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl<'a> Arbitrary<'a> for RuleFile {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        let mut w = Writer {
            u,
            pieces: vec![],
            defs: vec![],
            funcs: vec![],
            metas: false,
        };
        w.file().map(RuleFile)
    }
}

/// A move written from the grammar, with no free `%`, and the pieces its
/// file must declare.
pub struct ClosedMove {
    pub decls: Vec<&'static str>,
    pub text: String,
}

impl fmt::Debug for ClosedMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}\nm = {}", self.decls.join("\n"), self.text)
    }
}

impl<'a> Arbitrary<'a> for ClosedMove {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        let mut w = Writer {
            u,
            pieces: vec![],
            defs: vec![],
            funcs: vec![],
            metas: false,
        };
        let mut decls = vec![];
        for (decl, pieces) in DECLARED {
            if w.below(5)? == 0 {
                decls.push(*decl);
                w.pieces.extend(pieces.iter());
            }
        }
        let depth = w.below(5)?;
        let text = if w.u.arbitrary()? {
            w.closed_move(depth)?
        } else {
            w.moves(depth)?
        };
        Ok(ClosedMove { decls, text })
    }
}

/// A claim written from the grammar, metavariables allowed.
pub struct ClaimText(pub String);

impl fmt::Debug for ClaimText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl<'a> Arbitrary<'a> for ClaimText {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        let mut w = Writer {
            u,
            pieces: vec![],
            defs: vec![],
            funcs: vec![],
            metas: true,
        };
        let kind = if w.u.arbitrary()? { "=" } else { "!=" };
        let (l, r) = if w.below(5)? == 0 {
            (w.fragment(2)?, w.fragment(2)?)
        } else {
            let (a, b) = (w.below(4)?, w.below(4)?);
            (w.moves(a)?, w.moves(b)?)
        };
        Ok(ClaimText(format!("theorem t: {l} {kind} {r}\n")))
    }
}

/// A board of at most 4 by 4 squares, with a POI on one of them or none.
#[derive(Debug)]
pub struct SmallBoard {
    pub text: String,
    pub poi: Option<Square>,
}

impl<'a> Arbitrary<'a> for SmallBoard {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        let (w, h) = (u.int_in_range(1..=4)?, u.int_in_range(1..=4)?);
        let mut rows = vec![];
        for _ in 0..h {
            let mut row = String::new();
            for _ in 0..w {
                row.push_str(u.choose(&[".", ".", ".", "#", "♖", "♙", "♟", "♜", "♔", "♚"])?);
            }
            rows.push(row);
        }
        let poi = if u.arbitrary()? {
            Some(Square {
                x: u.int_in_range(0..=w - 1)?,
                y: u.int_in_range(0..=h - 1)?,
            })
        } else {
            None
        };
        Ok(SmallBoard {
            text: rows.join("\n"),
            poi,
        })
    }
}

impl SmallBoard {
    /// The board as a state of the evaluator, if it reads with `pieces`.
    pub fn state(&self, pieces: &algchess_core::Pieces) -> Option<State<Grid>> {
        Grid::parse(&self.text, pieces)
            .ok()
            .map(|board| State { board, poi: self.poi })
    }
}

/// FIDE chess's rules, loaded once for the targets that referee with them.
pub fn chess() -> &'static algchess_core::Rules {
    static CHESS: std::sync::LazyLock<algchess_core::Rules> = std::sync::LazyLock::new(|| {
        let text = include_str!("../../rules/chess.alg");
        let program = algchess_core::Program::from_text("rules/chess.alg", text).expect("chess.alg elaborates");
        algchess_core::Rules::fast(program.game("chess").expect("a chess game"))
    });
    &CHESS
}

/// A protocol session as a client might send it: lines of commands with
/// arguments drawn from values that matter (zero, one, the limits of the
/// integer types, huge, negative, not a number), moves of chess's start
/// and of other games, and now and then a line of raw bytes.
#[derive(Debug)]
pub struct Session(pub Vec<u8>);

/// Numbers a command may be given.
const NUMBERS: &[&str] = &[
    "0", "1", "2", "3", "5", "9", "64", "100", "4096", "65535", "4294967295", "18446744073709551615", "-1", "-5",
    "1e30", "1e300", "inf", "nan", "0.5", "1:30", "x",
];

/// Moves and words a command may name.
const WORDS: &[&str] = &[
    "e2e4", "e7e5", "g1f3", "g8f6", "f3g1", "f6g8", "e1g1", "e7e8q", "a7a8n", "O-O", "Nf3", "11-15", "22x15", "d3",
    "b2", "(none)", "0000", "startpos", "moves", "fen", "name", "value", "true", "false",
];

/// Variants and FENs a command may name.
const GAMES: &[&str] = &[
    "chess", "normal", "chess960", "fischerandom", "tictactoe", "othello", "english", "horde", "capablanca", "shatranj",
    "nosuch",
];
const FENS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1",
    "8/8/8/8/8/8/8/K6k w - - 0 1",
    "k7/8/8/8/8/8/8/7K b - - 99 80",
    "8/8/8/8/8/8/8/8 w - - 0 1",
];

/// The commands of each protocol, `N` a number, `W` a word, `G` a game,
/// `F` a FEN, `M` some moves.
const UCI: &[&str] = &[
    "uci", "isready", "ucinewgame", "stop", "ponderhit", "legal", "position startpos", "position startpos moves M",
    "position fen F", "position fen F moves M", "position W", "setoption name Hash value N",
    "setoption name UCI_Variant value G", "setoption name UCI_Chess960 value W", "setoption name W value N",
    "setoption W", "go depth N", "go nodes N", "go movetime N", "go wtime N btime N winc N binc N movestogo N",
    "go perft N", "go mate N", "go infinite", "go W N", "go searchmoves W", "go",
];
const XBOARD: &[&str] = &[
    "xboard", "protover N", "new", "variant G", "force", "go", "playother", "setboard F", "usermove W", "W", "undo",
    "remove", "level N N N", "st N", "sd N", "nps N", "time N", "otim N", "?", "ping N", "post", "nopost",
    "result W", "hard", "easy", "draw",
];

impl Session {
    fn write(u: &mut Unstructured, commands: &[&str]) -> Result<Session> {
        let mut out = Vec::new();
        for _ in 0..u.int_in_range(1..=24)? {
            if u.ratio(1, 32)? {
                out.extend(Vec::<u8>::arbitrary(u)?);
                out.push(b'\n');
                continue;
            }
            let template = u.choose(commands)?;
            for (i, part) in template.split(' ').enumerate() {
                if i > 0 {
                    out.push(b' ');
                }
                let text = match part {
                    "N" => u.choose(NUMBERS)?.to_string(),
                    "W" => u.choose(WORDS)?.to_string(),
                    "G" => u.choose(GAMES)?.to_string(),
                    "F" => u.choose(FENS)?.to_string(),
                    "M" => {
                        let n = u.int_in_range(1..=12)?;
                        let moves: Result<Vec<&str>> = (0..n).map(|_| u.choose(WORDS).copied()).collect();
                        moves?.join(" ")
                    }
                    p => p.to_string(),
                };
                out.extend(text.as_bytes());
            }
            out.push(b'\n');
        }
        Ok(Session(out))
    }

    /// Writes the session's text to standard error when the environment
    /// sets `ALGCHESS_FUZZ_SHOW`: what an input from the corpus or an
    /// artifact sends (`ALGCHESS_FUZZ_SHOW=1 target/.../uci FILE`).
    pub fn show(&self) {
        static SHOW: OnceLock<bool> = OnceLock::new();
        if *SHOW.get_or_init(|| std::env::var_os("ALGCHESS_FUZZ_SHOW").is_some()) {
            eprintln!("----\n{}----", String::from_utf8_lossy(&self.0));
        }
    }

    /// A UCI session.
    pub fn uci(u: &mut Unstructured) -> Result<Session> {
        Session::write(u, UCI)
    }

    /// An XBoard session.
    pub fn xboard(u: &mut Unstructured) -> Result<Session> {
        Session::write(u, XBOARD)
    }
}
