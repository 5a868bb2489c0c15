//! `algchess moves`: every board a move leads to.

use super::output::{arg_error, side_by_side};
use super::pictures::{from_rows, Pictures, SvgArgs};
use super::start::read_board;
use algchess_core::picture::{Mark, Picture, Row};
use algchess_core::MemoryLimit;
use algchess_core::Program;
use algchess_core::Sort;
use algchess_core::Span;
use algchess_core::{compile, Eval, Halt, State, Store};
use algchess_core::{Diag, Diags, Source};
use algchess_core::{Grid, Pieces, Square, Tiling};
use std::collections::BTreeSet;
use std::io::Write;
use std::path::PathBuf;

#[derive(clap::Args)]
pub(super) struct Args {
    /// The rule file whose definitions the move may use.
    file: PathBuf,
    /// The move, in the algebra's syntax.
    #[arg(long = "move", value_name = "EXPR")]
    expr: String,
    /// The board: rows from top to bottom separated by `/` or line breaks;
    /// `.` empty, a piece glyph, `#` off the board. `@PATH` reads a file.
    #[arg(long, conflicts_with = "fen", required_unless_present = "fen")]
    board: Option<String>,
    /// An 8×8 board in FEN.
    #[arg(long)]
    fen: Option<String>,
    /// The square of the piece of interest, for a move with a free `%`:
    /// `x,y` (bottom-left is 0,0) or a square name such as `e2`.
    #[arg(long)]
    poi: Option<String>,
    /// Print `{"results": [[row, ...], ...]}`.
    #[arg(long)]
    json: bool,
    /// Give up after making this many intermediate states.
    #[arg(long, default_value_t = 50_000_000)]
    max_states: usize,
    /// Give up when the process holds more heap than this (`512M`, `2G`).
    #[arg(long, value_name = "SIZE", default_value = "2G", value_parser = super::output::memory_limit)]
    memory_limit: MemoryLimit,
    /// Draw the board (its POI ringed) and each result (the squares the
    /// move changed tinted).
    #[command(flatten)]
    svg: SvgArgs,
}

pub(super) fn run(args: Args) -> Result<i32, Diags> {
    let mut prog = Program::load(&args.file, args.memory_limit, &crate::Files)?;
    let term = prog.expr("--move", &args.expr)?;
    let whole = Span::new(0, args.expr.len());
    if term.sort() != Sort::Move {
        return Err(arg_error(
            "--move",
            &args.expr,
            whole,
            format!("this is a {}, not a move", term.sort()),
        ));
    }
    let tiling = prog.tiling();
    let board = read_board(args.board.as_deref(), args.fen.as_deref(), tiling, prog.pieces())?;
    let poi = args.poi.as_deref().map(|p| read_poi(p, &board, tiling)).transpose()?;
    if term.is_open() && poi.is_none() {
        let d = Diag::new(
            &Source::new("--move", args.expr.as_str()),
            whole,
            "this move has a `%` outside any binder, so it needs a piece of interest",
        )
        .help("name the POI square with `--poi`, or bind it with `%p:`");
        return Err(d.into());
    }
    let pictures = Pictures::new(&args.svg)?;
    let compiled = compile(&term).expect("an elaborated closed move compiles");
    let mut drawn = Picture::new(board.clone(), tiling, prog.pieces(), "board");
    drawn.marks.extend(poi.map(|q| (q, Mark::Poi)));
    let start = State { board, poi };
    let mut eval = Eval::new(args.max_states).with_memory(args.memory_limit);
    let results = match eval.run(&compiled, &start) {
        Ok(r) => r,
        Err(Halt::Budget(n)) => {
            return Err(super::output::plain_error(format!(
                "gave up after {n} intermediate states; raise --max-states"
            )))
        }
        Err(Halt::Memory(limit)) => {
            return Err(super::output::plain_error(format!(
                "gave up at the memory limit ({limit}) after {} intermediate states; raise --memory-limit",
                eval.made()
            )))
        }
        Err(Halt::Unknown(never)) => match never {},
        Err(Halt::Time) => unreachable!("`moves` gives its evaluator no clock"),
    };
    // The results as text, each board dropped once written: text is up to
    // four bytes a square, so the limit holds here too.
    let mut boards: BTreeSet<Vec<String>> = BTreeSet::new();
    let total = results.len();
    for s in results {
        boards.insert(s.board.lines_on(tiling, prog.pieces()));
        drop(s);
        if args.memory_limit.exceeded() {
            return Err(super::output::plain_error(format!(
                "gave up at the memory limit ({}) writing out {total} results; raise --memory-limit",
                args.memory_limit
            )));
        }
    }
    if pictures.wanted() {
        draw_results(&pictures, &args.expr, drawn, &boards, tiling, prog.pieces());
        pictures.finish()?;
    }
    print_results(&boards, args.json);
    Ok(super::OK)
}

/// The square `--poi` names on `board`: `x,y`, or a square (on hex, a
/// cell) name such as `e2`, on the board.
fn read_poi(p: &str, board: &Grid, tiling: Tiling) -> Result<Square, Diags> {
    let hex = (tiling == Tiling::Hex).then(|| board.hex_cell_prefix(p)).flatten();
    let q = hex
        .filter(|(_, rest)| rest.is_empty())
        .map(|(q, _)| Ok(q))
        .unwrap_or_else(|| p.parse::<Square>())
        .map_err(|_| {
            arg_error(
                "--poi",
                p,
                Span::new(0, p.len()),
                "expected `x,y` or a square name such as `e2`",
            )
        })?;
    if !board.on_board(q).unwrap_or(false) {
        return Err(arg_error(
            "--poi",
            p,
            Span::new(0, p.len()),
            format!("square {q} is not on the board"),
        ));
    }
    Ok(q)
}

/// Draws the board, `drawn`, and the boards the move `expr` leads to,
/// six to a row on one sheet, or each in a file of its own.
fn draw_results(
    pictures: &Pictures,
    expr: &str,
    drawn: Picture,
    boards: &BTreeSet<Vec<String>>,
    tiling: Tiling,
    pieces: &Pieces,
) {
    let before = drawn.board.clone();
    let results: Vec<Picture> = boards
        .iter()
        .enumerate()
        .filter_map(|(i, b)| {
            let caption = format!("#{}", i + 1);
            from_rows(b, (None, None), Some(&before), tiling, pieces, caption)
        })
        .collect();
    let title = format!(
        "{}: {} result{}",
        expr,
        boards.len(),
        if boards.len() == 1 { "" } else { "s" }
    );
    if pictures.one_file() {
        let mut all = vec![drawn];
        all.extend(results);
        for (k, chunk) in all.chunks(6).enumerate() {
            let title = if k == 0 { title.clone() } else { String::new() };
            pictures.add(
                k,
                "",
                Row {
                    title,
                    pictures: chunk.to_vec(),
                },
            );
        }
    } else {
        pictures.add(
            0,
            "board",
            Row {
                title,
                pictures: vec![drawn],
            },
        );
        for (i, p) in results.into_iter().enumerate() {
            pictures.add(
                i + 1,
                &format!("result-{}", i + 1),
                Row {
                    title: String::new(),
                    pictures: vec![p],
                },
            );
        }
    }
}

/// Prints the boards the move leads to: as JSON, written board by board,
/// or side by side, six to a row.
fn print_results(boards: &BTreeSet<Vec<String>>, json: bool) {
    if json {
        // Written board by board, not built as one JSON value first.
        let mut out = std::io::BufWriter::new(std::io::stdout().lock());
        let _ = out.write_all(b"{\"results\":[");
        for (i, b) in boards.iter().enumerate() {
            let comma = if i > 0 { "," } else { "" };
            let _ = write!(out, "{comma}{}", serde_json::to_string(b).expect("rows serialise"));
        }
        let _ = writeln!(out, "]}}");
    } else {
        println!("{} result{}", boards.len(), if boards.len() == 1 { "" } else { "s" });
        let cols: Vec<(String, Vec<String>)> = boards
            .iter()
            .enumerate()
            .map(|(i, b)| (format!("#{}", i + 1), b.clone()))
            .collect();
        for chunk in cols.chunks(6) {
            print!("{}", side_by_side(chunk));
        }
    }
}
