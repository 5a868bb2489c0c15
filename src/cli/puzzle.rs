//! `algchess puzzle`: pieces placed so that none attacks another, and
//! tours of one piece over a board, for any piece a rule file or a
//! notation defines.

use super::output::{arg_error, plain_error, seconds, side_by_side, Progress};
use super::pictures::{Pictures, SvgArgs};
use algchess_core::picture::{Picture, Row};
use algchess_core::puzzle::{
    self, place, read_pieces, tour, Board, Goal, Limits, Mode, PieceSet, PlaceOptions, PlaceReport, Placed,
    TourOptions, TourReport,
};
use algchess_core::{Diags, Grid, Limit, MemoryLimit, Span, SystemClock, Tiling, Timer};
use serde_json::{json, Value};
use std::path::PathBuf;
use std::time::Instant;

#[derive(clap::Args)]
pub(super) struct Args {
    #[command(subcommand)]
    command: Puzzle,
}

#[derive(clap::Subcommand)]
enum Puzzle {
    /// Place pieces so that none attacks another: one way, how many ways,
    /// every way, or every way up to the board's symmetries.
    #[command(after_help = "\
A piece attacks the squares it could take a piece on, read off its own \
captures (as `attacked_by` reads them) on a board holding it and one \
piece of the other side; a piece that takes nothing attacks where it \
moves. Examples:
  algchess puzzle place --piece 'betza\"Q\"' --board 8x8 --max --count
  algchess puzzle place --piece 'betza\"Q\"' --board 8x8 --pieces 8 --unique
  algchess puzzle place --rules rules/chess.alg --piece queen --pieces 8 --piece knight --pieces 1
  algchess puzzle place --piece 'betza\"K\"' --board 8x8-a1-h8 --max")]
    Place(PlaceArgs),
    /// A tour of one piece that visits every square once, open or closed;
    /// or how many there are.
    #[command(after_help = "\
What settles a board at once is said without a search: squares no moves \
join, squares a closed tour cannot both enter and leave, too many ends, \
and the colours of a board whose every move changes colour (a knight's \
on 8x8 less two opposite corners). Examples:
  algchess puzzle tour --piece 'betza\"N\"' --board 8x8 --svg tour.svg
  algchess puzzle tour --piece 'betza\"N\"' --board 6x6 --closed --count
  algchess puzzle tour --piece 'betza\"N\"' --board 8x8-a1-h8 --closed")]
    Tour(TourArgs),
}

/// What both puzzles take.
#[derive(clap::Args)]
struct Common {
    /// The rule file whose definitions `--piece` may name (and whose
    /// game's board is the board unless `--board` gives one).
    #[arg(long, value_name = "FILE")]
    rules: Option<PathBuf>,
    /// The board: `WxH` (`8x8`), less squares (`8x8-a1-h8`), `hexN` on
    /// hex (the hexagon of N cells a side), board text (rows top to
    /// bottom, `.` a square, `#` none; `@PATH` reads a file); by default
    /// the rule file's game's board.
    #[arg(long)]
    board: Option<String>,
    /// The game of `--rules` whose board to use.
    #[arg(long)]
    game: Option<String>,
    /// The grid of notation literals: `square`, or `hex` (a rule file
    /// declares its own).
    #[arg(long, value_parser = super::output::grid, default_value = "square")]
    grid: Tiling,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    svg: SvgArgs,
    /// Give up after this many seconds (reading the moves included).
    #[arg(long, value_name = "SECONDS")]
    timeout: Option<f64>,
    /// Give up when the process holds more heap than this (`512M`, `2G`).
    #[arg(long, value_name = "SIZE", default_value = "2G", value_parser = super::output::memory_limit)]
    memory_limit: MemoryLimit,
}

#[derive(clap::Args)]
struct PlaceArgs {
    /// A piece: a definition of `--rules` (`queen`), a move, or a notation
    /// literal (`betza"Q"`, `parlett"(move 'n '*)"`, `path"/F$/"`); give
    /// several, each with its `--pieces`, for a mixed set.
    #[arg(long, required = true)]
    piece: Vec<String>,
    /// How many of each `--piece` to place, in the same order.
    #[arg(long, conflicts_with = "max")]
    pieces: Vec<usize>,
    /// Place as many as fit (one piece).
    #[arg(long)]
    max: bool,
    /// Count every placement.
    #[arg(long, conflicts_with_all = ["all", "unique"])]
    count: bool,
    /// List every placement.
    #[arg(long, conflicts_with = "unique")]
    all: bool,
    /// List every placement up to the board's turns and mirrors (those
    /// that keep which square attacks which), and count them.
    #[arg(long)]
    unique: bool,
    #[command(flatten)]
    common: Common,
}

#[derive(clap::Args)]
struct TourArgs {
    /// The piece: a definition of `--rules`, a move, or a notation
    /// literal (`betza"N"`).
    #[arg(long)]
    piece: String,
    /// The last square must lead back to the first.
    #[arg(long)]
    closed: bool,
    /// Count the tours (each once, whichever way round it goes).
    #[arg(long)]
    count: bool,
    /// Start here (`a1`, or `x,y`).
    #[arg(long, value_name = "SQUARE")]
    from: Option<String>,
    #[command(flatten)]
    common: Common,
}

pub(super) fn run(args: Args) -> Result<i32, Diags> {
    match args.command {
        Puzzle::Place(a) => run_place(a),
        Puzzle::Tour(a) => run_tour(a),
    }
}

impl Common {
    fn limits(&self) -> Result<Limits, Diags> {
        Ok(Limits {
            timeout: Timer::within(
                self.timeout.map(|t| seconds("--timeout", t, true)).transpose()?,
                &SystemClock,
            ),
            memory: self.memory_limit,
            ..Limits::default()
        })
    }

    fn pieces(&self, texts: &[String]) -> Result<PieceSet, Diags> {
        let set = read_pieces(
            self.rules.as_deref(),
            texts,
            self.grid,
            &crate::Files,
            self.memory_limit,
        )?;
        if self.rules.is_some() && self.grid != Tiling::Square && self.grid != set.tiling {
            return Err(plain_error(format!(
                "--grid {}: the rule file's grid is {}",
                self.grid, set.tiling
            )));
        }
        Ok(set)
    }

    /// The board asked for, and how to name it.
    fn board(&self, set: &PieceSet) -> Result<(Board, String), Diags> {
        let grid = match &self.board {
            Some(text) => match puzzle::brief(text, set.tiling) {
                Some(Ok(g)) => g,
                Some(Err(e)) => {
                    let at = Span::new(e.at.start, e.at.end.max(e.at.start + 1).min(text.len().max(1)));
                    return Err(arg_error("--board", text, at, e.message));
                }
                None => super::start::read_board(Some(text), None, set.tiling, &set.pieces)?,
            },
            None => self.game_board(set)?,
        };
        let board = Board::new(&grid, set.tiling).map_err(|e| plain_error(format!("--board: {e}")))?;
        let name = match &self.board {
            Some(t) if !t.contains(['\n', '/']) && t.len() < 40 => t.clone(),
            _ => format!(
                "a board of {} {}",
                board.len(),
                if set.tiling == Tiling::Hex { "cells" } else { "squares" }
            ),
        };
        Ok((board, name))
    }

    fn game_board(&self, set: &PieceSet) -> Result<Grid, Diags> {
        let names = || set.games.iter().map(|(n, _)| n.as_str()).collect::<Vec<_>>().join(", ");
        let found = match (&self.game, &set.games[..]) {
            (Some(name), games) => games
                .iter()
                .find(|(n, _)| n == name)
                .ok_or_else(|| plain_error(format!("the rules declare no game `{name}`; they declare: {}", names())))?,
            (None, [one]) => one,
            (None, []) => {
                return Err(plain_error(
                    "give a board: --board 8x8 (or a rule file with a game)".into(),
                ))
            }
            (None, _) => {
                return Err(plain_error(format!(
                    "the rules declare several games; name one with --game ({}) or give --board",
                    names()
                )))
            }
        };
        Ok(found.1.clone())
    }
}

/// Runs `f` with a progress bar that appears if it takes a while.
fn with_bar<T>(label: &str, f: impl FnOnce(&dyn Fn(usize, usize)) -> T) -> T {
    let bar = Progress::start(label, super::output::bars().as_ref());
    let out = f(&|done, total| bar.set(String::new(), done, total));
    bar.finish();
    out
}

fn stopped(limit: Option<Limit>) -> Option<&'static str> {
    limit.map(|l| match l {
        Limit::Timeout => "timeout",
        Limit::Memory => "memory",
        Limit::StateBudget => "state budget",
        Limit::Work => "work limit",
    })
}

fn plural(n: u64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

fn run_place(args: PlaceArgs) -> Result<i32, Diags> {
    let common = &args.common;
    let t = Instant::now();
    let set = common.pieces(&args.piece)?;
    let (board, board_name) = common.board(&set)?;
    let goal = place_goal(&args, &set)?;
    let mode = match (args.count, args.all, args.unique) {
        (true, ..) => Mode::Count,
        (_, true, _) => Mode::All,
        (.., true) => Mode::Unique,
        _ => Mode::First,
    };
    let pictures = Pictures::new(&common.svg)?;
    let options = PlaceOptions {
        goal,
        mode,
        limits: common.limits()?,
    };
    let mut solutions: Vec<Vec<(usize, usize)>> = vec![];
    let listing = matches!(mode, Mode::All | Mode::Unique) || pictures.wanted();
    let report = with_bar("place", |bar| {
        place(
            &set,
            &board,
            &options,
            &mut |s| {
                if listing {
                    solutions.push(s.to_vec());
                }
            },
            bar,
        )
    })
    .map_err(|e| plain_error(e.to_string()))?;
    // A count visits no solution: one is found to draw.
    if pictures.wanted() && solutions.is_empty() && report.count > 0 && report.stopped.is_none() {
        let first = PlaceOptions {
            goal: Goal::Exactly(report.of_each.clone()),
            mode: Mode::First,
            ..options.clone()
        };
        let _ = place(&set, &board, &first, &mut |s| solutions.push(s.to_vec()), &|_, _| {});
    }
    let ms = t.elapsed().as_millis() as u64;
    let drawn = |s: &[(usize, usize)]| board.with(s.iter().map(|&(q, k)| (q, set.kinds[k].piece)));
    draw_placements(pictures, &set, &board_name, &solutions, &drawn)?;
    if common.json {
        print_place_json(&args, &set, &board, &report, mode, &solutions, ms);
    } else {
        print!("{}", describe_place(&args, &set, &report, &board_name, ms));
        if matches!(mode, Mode::First | Mode::All | Mode::Unique) {
            let boards: Vec<(String, Vec<String>)> = solutions
                .iter()
                .enumerate()
                .map(|(i, s)| (format!("#{}", i + 1), drawn(s).lines_on(set.tiling, &set.pieces)))
                .collect();
            for chunk in boards.chunks(6) {
                print!("{}", side_by_side(chunk));
            }
        }
    }
    Ok(if report.stopped.is_some() {
        super::DISAGREE
    } else {
        super::OK
    })
}

/// What `place` is asked to place: `--max`, as many of one piece as fit,
/// or `--pieces`, a count of each piece.
fn place_goal(args: &PlaceArgs, set: &PieceSet) -> Result<Goal, Diags> {
    if args.max {
        if set.kinds.len() > 1 {
            return Err(plain_error(
                "--max places as many of one piece as fit; give one --piece".into(),
            ));
        }
        return Ok(Goal::Most);
    }
    if args.pieces.len() != set.kinds.len() {
        return Err(plain_error(format!(
            "give --pieces N for each --piece ({} pieces, {} counts), or --max",
            set.kinds.len(),
            args.pieces.len()
        )));
    }
    Ok(Goal::Exactly(args.pieces.clone()))
}

/// Prints `place`'s report as one JSON object, with the solutions found
/// (squares, with their pieces when there are several kinds).
fn print_place_json(
    args: &PlaceArgs,
    set: &PieceSet,
    board: &Board,
    report: &PlaceReport,
    mode: Mode,
    solutions: &[Vec<Placed>],
    ms: u64,
) {
    let glyph = |k: usize| set.pieces.glyph(set.pieces.looks_like(set.kinds[k].piece)).to_string();
    let names = |s: &[(usize, usize)]| -> Value {
        if set.kinds.len() == 1 {
            json!(s.iter().map(|&(q, _)| board.name(q)).collect::<Vec<_>>())
        } else {
            json!(s
                .iter()
                .map(|&(q, k)| json!({"square": board.name(q), "piece": glyph(k)}))
                .collect::<Vec<_>>())
        }
    };
    let mut out = json!({
        "pieces": report.pieces,
        "squares": board.len(),
        "bound": report.bound,
        "attacks": report.attacks,
        "ms": ms,
    });
    if set.kinds.len() > 1 {
        out["of_each"] = json!(report.of_each);
    }
    if args.max {
        out["max"] = json!(true);
        out["max_searched"] = json!(report.most_searched);
    }
    match mode {
        Mode::First => {
            out["found"] = json!(report.solution.is_some());
            out["solution"] = report.solution.as_deref().map_or(Value::Null, names);
        }
        Mode::Count => out["count"] = json!(report.count),
        Mode::All | Mode::Unique => {
            out["count"] = json!(report.count);
            out["solutions"] = json!(solutions.iter().map(|s| names(s)).collect::<Vec<_>>());
        }
    }
    if mode == Mode::Unique {
        out["unique"] = json!(report.unique);
        out["symmetries"] = json!(report.symmetries);
    }
    if let Some(s) = stopped(report.stopped) {
        out["stopped"] = json!(s);
    }
    println!("{out}");
}

fn draw_placements(
    pictures: Pictures,
    set: &PieceSet,
    board_name: &str,
    solutions: &[Vec<Placed>],
    drawn: &dyn Fn(&[Placed]) -> Grid,
) -> Result<(), Diags> {
    if !pictures.wanted() {
        return Ok(());
    }
    let picture = |i: usize, s: &[(usize, usize)]| {
        Picture::new(drawn(s), set.tiling, &set.pieces, format!("#{} on {board_name}", i + 1))
    };
    if pictures.one_file() {
        for (row, chunk) in solutions.chunks(4).enumerate() {
            let pictures_of = chunk.iter().enumerate().map(|(i, s)| picture(row * 4 + i, s)).collect();
            pictures.add(
                row,
                "",
                Row {
                    title: String::new(),
                    pictures: pictures_of,
                },
            );
        }
    } else {
        for (i, s) in solutions.iter().enumerate() {
            pictures.add(
                i,
                &format!("placement-{}", i + 1),
                Row {
                    title: String::new(),
                    pictures: vec![picture(i, s)],
                },
            );
        }
    }
    pictures.finish().map(|_| ())
}

fn describe_place(args: &PlaceArgs, set: &PieceSet, r: &PlaceReport, board_name: &str, ms: u64) -> String {
    let what = if set.kinds.len() == 1 {
        plural(r.pieces as u64, "piece", "pieces")
    } else {
        set.kinds
            .iter()
            .zip(&r.of_each)
            .map(|(k, n)| format!("{n} × {}", set.pieces.glyph(k.piece)))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut out = String::new();
    if args.max {
        if r.most_searched {
            out.push_str(&format!(
                "at most {} fit on {board_name}: the search for {} found no placement\n",
                r.pieces,
                r.pieces + 1
            ));
        } else {
            out.push_str(&format!(
                "at most {} fit on {board_name}: its squares fall into {} sets, any two squares of each attacking each other\n",
                r.pieces, r.bound
            ));
        }
    }
    let cut = match r.stopped {
        Some(Limit::Memory) => " (stopped by the memory limit: there may be more)",
        Some(_) => " (stopped by the timeout: there may be more)",
        None => "",
    };
    let line = match (args.count, args.all, args.unique) {
        (true, ..) => format!("{} of {what}{cut} [{ms} ms]\n", plural(r.count, "placement", "placements")),
        (_, true, _) => format!("{} of {what}{cut} [{ms} ms]\n", plural(r.count, "placement", "placements")),
        (.., true) => format!(
            "{} of {what} up to the board's {} symmetries ({} in all){cut} [{ms} ms]\n",
            plural(r.unique.unwrap_or(0), "placement", "placements"),
            r.symmetries,
            r.count
        ),
        _ if r.solution.is_some() => format!("a placement of {what}, none attacking another [{ms} ms]\n"),
        _ if r.stopped.is_some() => format!("no placement of {what} found{cut} [{ms} ms]\n"),
        _ if r.pieces > r.bound => format!(
            "no placement of {what}: at most {} fit, the squares falling into {} sets, any two squares of each attacking each other [{ms} ms]\n",
            r.bound, r.bound
        ),
        _ => format!("no placement of {what}: the search tried every way [{ms} ms]\n"),
    };
    out.push_str(&line);
    out
}

fn run_tour(args: TourArgs) -> Result<i32, Diags> {
    let common = &args.common;
    let t = Instant::now();
    let set = common.pieces(std::slice::from_ref(&args.piece))?;
    let (board, board_name) = common.board(&set)?;
    let start = match &args.from {
        None => None,
        Some(text) => {
            let bad = |m: &str| arg_error("--from", text, Span::new(0, text.len()), m.to_string());
            let q = match set.tiling {
                Tiling::Hex => board
                    .empty()
                    .hex_cell_prefix(text)
                    .filter(|(_, rest)| rest.is_empty())
                    .map(|(q, _)| q),
                Tiling::Square => text.parse().ok(),
            };
            let q = q.ok_or_else(|| bad("expected a square such as `a1`, or `x,y`"))?;
            Some(board.number(q).ok_or_else(|| bad("this square is not on the board"))?)
        }
    };
    let pictures = Pictures::new(&common.svg)?;
    let options = TourOptions {
        closed: args.closed,
        count: args.count,
        start,
        limits: common.limits()?,
    };
    let report = with_bar("tour", |bar| tour(&set, &board, &options, bar)).map_err(|e| plain_error(e.to_string()))?;
    let ms = t.elapsed().as_millis() as u64;
    if let Some(path) = &report.tour {
        let mut p = Picture::new(
            board.empty().clone(),
            set.tiling,
            &set.pieces,
            format!(
                "{} of {} on {board_name}",
                if args.closed { "a closed tour" } else { "a tour" },
                args.piece
            ),
        );
        p.path = path.iter().map(|&s| board.squares()[s]).collect();
        p.closed = args.closed;
        pictures.add(
            0,
            "tour",
            Row {
                title: String::new(),
                pictures: vec![p],
            },
        );
    }
    pictures.finish()?;
    let reason = report.none.as_ref().map(|w| w.describe(&board, args.closed));
    if common.json {
        let mut out = json!({
            "found": report.tour.is_some(),
            "tour": report.tour.as_ref().map(|t| t.iter().map(|&s| board.name(s)).collect::<Vec<_>>()),
            "closed": args.closed,
            "squares": board.len(),
            "ms": ms,
        });
        if args.count {
            out["count"] = json!(report.count);
            out["directed"] = json!(report.directed);
        }
        if let (Some(why), Some(text)) = (&report.none, &reason) {
            out["none"] = serde_json::to_value(why).expect("reasons serialise");
            out["reason"] = json!(text);
        }
        if let Some(s) = stopped(report.stopped) {
            out["stopped"] = json!(s);
        }
        println!("{out}");
    } else {
        print!("{}", describe_tour(&args, &report, &board, reason.as_deref(), ms));
    }
    Ok(if report.stopped.is_some() {
        super::DISAGREE
    } else {
        super::OK
    })
}

fn describe_tour(args: &TourArgs, r: &TourReport, board: &Board, reason: Option<&str>, ms: u64) -> String {
    let tour = if args.closed { "closed tour" } else { "tour" };
    let cut = match r.stopped {
        Some(Limit::Memory) => " (stopped by the memory limit)",
        Some(_) => " (stopped by the timeout)",
        None => "",
    };
    let mut out = String::new();
    if let Some(n) = r.count {
        let each = if r.directed {
            "each direction counted: some moves cannot be played backwards"
        } else {
            "each once, whichever way round"
        };
        out.push_str(&format!(
            "{} ({each}){cut} [{ms} ms]\n",
            plural(n, tour, &format!("{tour}s"))
        ));
    }
    match (&r.tour, reason) {
        (Some(t), _) => {
            out.push_str(&format!("a {tour} of the {} squares [{ms} ms]:\n", board.len()));
            if board.tiling() == Tiling::Square {
                out.push_str(&numbered(board, t));
            }
            out.push_str(&format!(
                "    {}\n",
                t.iter().map(|&s| board.name(s)).collect::<Vec<_>>().join(" ")
            ));
        }
        (None, Some(why)) => out.push_str(&format!("no {tour}: {why} [{ms} ms]\n")),
        (None, None) => out.push_str(&format!("no {tour} found{cut} [{ms} ms]\n")),
    }
    out
}

/// A square board with each square's step of the tour, `#` off the board.
fn numbered(board: &Board, t: &[usize]) -> String {
    let mut step = vec![0; board.len()];
    for (i, &s) in t.iter().enumerate() {
        step[s] = i + 1;
    }
    let width = t.len().to_string().len();
    let rect = algchess_core::Store::squares(board.empty());
    let mut out = String::new();
    for y in (rect.origin.y..rect.origin.y + rect.height).rev() {
        let cells: Vec<String> = (rect.origin.x..rect.origin.x + rect.width)
            .map(|x| match board.number(algchess_core::Square::new(x, y)) {
                Some(s) => format!("{:>width$}", step[s]),
                None => format!("{:>width$}", "#"),
            })
            .collect();
        out.push_str(&format!("    {}\n", cells.join(" ")));
    }
    out
}
