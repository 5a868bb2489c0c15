//! `algchess referee`: check games written in PGN against a game's rules.

use super::output::{plain_error, progress};
use super::pgn_stream::{Chunk, Chunks, Decoding, MAX_GAME};
use super::pictures::{Pictures, SvgArgs};
use super::start::pick_game;
use algchess_core::pgn;
use algchess_core::picture::{Picture, Row};
use algchess_core::referee::{referee, GameReport, RefereeError};
use algchess_core::Ending;
use algchess_core::Program;
use algchess_core::Rules;
use algchess_core::{Diag, Diags};
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// The rules used without `--rules`: FIDE chess.
const CHESS: &str = include_str!("../../rules/chess.alg");

#[derive(clap::Args)]
#[command(after_help = "\
For each game: the first illegal ply with its move number and why, the end \
reached (checkmate, stalemate, seventy-five moves, fivefold repetition, \
insufficient material) and whether it matches the Result tag, and the draws \
the side to move could claim. Without --rules, a game's [Variant \"NAME\"] \
tag picks the rule file NAME.alg in --variants (chess when the tag is absent \
or says chess). Exit status: 0 when every ply is legal and every end agrees \
with its Result tag, 1 otherwise, 2 on bad input.")]
pub(super) struct Args {
    /// PGN files, each with one or more games.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// The rule file (default: the bundled rules/chess.alg).
    #[arg(long)]
    rules: Option<PathBuf>,
    /// The game of the rule file (may be left out when it declares one).
    #[arg(long)]
    game: Option<String>,
    /// Where the rule files of the [Variant] tags are, one NAME.alg per
    /// variant (default: rules/variants, here or in the source tree).
    #[arg(long, value_name = "DIR")]
    variants: Option<PathBuf>,
    /// One JSON object per game and line, then one with the summary.
    #[arg(long)]
    json: bool,
    /// The files' encoding: `auto` (UTF-8, and a line that is not UTF-8
    /// read as Windows-1252, with a warning), or a label such as `utf-8`,
    /// `latin1`, `cp1252`.
    #[arg(long, default_value = "auto", value_name = "LABEL")]
    encoding: String,
    /// Games refereed side by side (default: one per core). The output
    /// keeps the files' order either way.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    jobs: Option<u16>,
    /// Draw each game's final position.
    #[command(flatten)]
    svg: SvgArgs,
}

/// The most text read ahead for one batch: a few long games, not 256.
const BATCH_BYTES: usize = 4 * MAX_GAME as usize;

/// The most `--jobs` a core.
const JOBS_PER_CORE: usize = 4;

/// Games read ahead and refereed side by side: enough to keep every core
/// busy, few enough that memory stays bounded however long the file.
const BATCH: usize = 256;

pub(super) fn run(args: Args) -> Result<i32, Diags> {
    let prog = match &args.rules {
        Some(f) => crate::load(f)?,
        None => Program::from_text("rules/chess.alg", CHESS)?,
    };
    let game = pick_game(&prog, args.game.as_deref())?;
    let decoding = Decoding::parse(&args.encoding).map_err(|e| plain_error(e.to_string()))?;
    // Threads past a few a core only take memory: refused before any is
    // started.
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    if let Some(jobs) = args.jobs.filter(|&j| usize::from(j) > cores * JOBS_PER_CORE) {
        return Err(plain_error(format!(
            "--jobs {jobs} is too many: at most {} on this machine ({JOBS_PER_CORE} a core)",
            cores * JOBS_PER_CORE
        )));
    }
    let mut referee = Referee {
        rules: Rules::fast(game),
        variants: HashMap::new(),
        args: &args,
        status: super::OK,
        tally: Tally::default(),
        pictures: Pictures::new(&args.svg)?,
    };
    // The rules are planned for the board before the clock starts, as
    // they are read: the time is the games'.
    if let Some(e) = referee.rules.backend.engine() {
        e.cursor(&referee.rules.start().board);
    }
    let started = Instant::now();
    let total = args
        .files
        .iter()
        .filter_map(|f| std::fs::metadata(f).ok())
        .map(|m| m.len())
        .sum();
    let bar = progress("referee");
    bar.set_length(total);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.jobs.map_or(0, usize::from))
        .build()
        .map_err(|e| plain_error(format!("cannot start the referee's threads: {e}")))?;
    for file in &args.files {
        let input = match std::fs::File::open(file) {
            Ok(f) => std::io::BufReader::new(f),
            Err(e) => {
                referee.bad(format!("cannot read {}: {e}", file.display()));
                continue;
            }
        };
        let mut n = 0;
        let mut batch = vec![];
        let mut held = 0;
        for chunk in Chunks::new(input, decoding) {
            let chunk = match chunk {
                Ok(c) => c,
                Err(e) => {
                    referee.bad(format!("{}: cannot read on: {e}", file.display()));
                    break;
                }
            };
            bar.inc(chunk.bytes);
            held += chunk.text.len();
            batch.push(chunk);
            if batch.len() == BATCH || held >= BATCH_BYTES {
                held = 0;
                pool.install(|| referee.batch(file, &mut n, &batch));
                bar.set_message(format!("{} game {n}", file.display()));
                batch.clear();
            }
        }
        pool.install(|| referee.batch(file, &mut n, &batch));
        if n == 0 {
            referee.bad(format!(
                "{}: no games: the file has no tag pair and no move",
                file.display()
            ));
        }
    }
    bar.finish_and_clear();
    let seconds = started.elapsed().as_secs_f64();
    let status = referee.status;
    let t = std::mem::take(&mut referee.tally);
    referee.pictures.finish()?;
    if args.json {
        println!("{}", serde_json::json!({"summary": t.json(seconds)}));
    } else {
        println!("{}", t.text(seconds));
    }
    Ok(status)
}

/// A referee's run over files: the rules, and what it found so far.
struct Referee<'a> {
    rules: Rules,
    /// The variants' rules, loaded and planned once each.
    variants: HashMap<String, Rules>,
    args: &'a Args,
    status: i32,
    tally: Tally,
    /// The final positions drawn, with `--svg`.
    pictures: Pictures,
}

/// Counts over every game refereed, for the summary line.
#[derive(Default)]
struct Tally {
    games: usize,
    plies: usize,
    illegal: usize,
    /// Games that could not be refereed: malformed, an unknown variant.
    errors: usize,
    disagree: usize,
    ends: BTreeMap<&'static str, usize>,
}

impl Tally {
    fn json(&self, seconds: f64) -> serde_json::Value {
        serde_json::json!({
            "games": self.games,
            "plies": self.plies,
            "illegal": self.illegal,
            "errors": self.errors,
            "result_disagrees": self.disagree,
            "ends": self.ends,
            "seconds": seconds,
        })
    }

    fn text(&self, seconds: f64) -> String {
        let ends: Vec<String> = self
            .ends
            .iter()
            .map(|(k, n)| format!("{} {n}", k.replace('_', " ")))
            .collect();
        let rate = if seconds > 0.0 {
            self.plies as f64 / seconds
        } else {
            0.0
        };
        format!(
            "{} games, {} plies in {seconds:.2} s ({rate:.0} plies/s): {} with an illegal ply, {} not read, {} whose Result tag disagrees; ends: {}",
            self.games,
            self.plies,
            self.illegal,
            self.errors,
            self.disagree,
            if ends.is_empty() { "none".into() } else { ends.join(", ") }
        )
    }
}

impl Referee<'_> {
    /// Input that cannot be refereed: said on stderr, and the exit status
    /// says so once every file is done.
    fn bad(&mut self, message: String) {
        eprintln!("error: {message}");
        self.status = super::BAD_INPUT;
    }

    /// Referees the games of `chunks`, side by side, and reports them in
    /// their order; `n` counts the file's games.
    fn batch(&mut self, file: &Path, n: &mut usize, chunks: &[Chunk]) {
        use rayon::prelude::*;
        let read: Vec<Vec<Result<pgn::Record, pgn::Error>>> = chunks
            .par_iter()
            .map(|c| match c.oversize {
                true => vec![Err(pgn::Error {
                    at: pgn::At { line: c.line, col: 1 },
                    message: format!(
                        "the game's text is {} bytes, more than the {} MiB a game may have; it is passed over",
                        c.bytes,
                        MAX_GAME >> 20
                    ),
                })],
                false => pgn::read_all(&c.text, c.line),
            })
            .collect();
        let games: Vec<(&Chunk, Result<pgn::Record, pgn::Error>)> = chunks
            .iter()
            .zip(read)
            .flat_map(|(c, gs)| gs.into_iter().map(move |g| (c, g)))
            .collect();
        // The variants' rules are loaded first, one at a time.
        let variants: Vec<Result<Option<String>, NotRefereed>> = games
            .iter()
            .map(|(_, g)| g.as_ref().map_or(Ok(None), |g| self.load_variant(g)))
            .collect();
        let this = &*self;
        let reports: Vec<Option<Result<GameReport, NotRefereed>>> = games
            .par_iter()
            .zip(&variants)
            .map(|((_, g), v)| {
                let g = g.as_ref().ok()?;
                Some(v.clone().and_then(|v| {
                    referee(v.map_or(&this.rules, |v| &this.variants[&v]), g).map_err(NotRefereed::Referee)
                }))
            })
            .collect();
        // One write for the batch: a line each would be a system call each.
        let mut out = String::new();
        for (((chunk, game), report), variant) in games.into_iter().zip(reports).zip(&variants) {
            *n += 1;
            if let (Ok(g), Some(Ok(r))) = (&game, &report) {
                let rules = match variant {
                    Ok(Some(v)) => &self.variants[v],
                    _ => &self.rules,
                };
                self.draw(file, *n, g, r, rules);
            }
            self.game(&mut out, file, *n, chunk, game, report);
        }
        use std::io::Write;
        let mut stdout = std::io::stdout().lock();
        // A closed pipe (`| head`) ends the output, not the run's count.
        let _ = stdout.write_all(out.as_bytes()).and_then(|()| stdout.flush());
    }

    /// Keeps a picture of game `n`'s final position, with `--svg`.
    fn draw(&self, file: &Path, n: usize, g: &pgn::Record, r: &GameReport, rules: &Rules) {
        if !self.pictures.wanted() {
            return;
        }
        let players = format!("{} – {}", g.tag("White").unwrap_or("?"), g.tag("Black").unwrap_or("?"));
        let ending = r
            .end
            .map_or(String::new(), |o| format!(", {}", o.ending.name().replace('_', " ")));
        let stem = file.file_stem().map_or("game".into(), |s| s.to_string_lossy());
        let row = Row {
            title: format!("{} game {n}: {}{ending}", file.display(), r.result()),
            pictures: vec![Picture::new(
                r.final_board.clone(),
                rules.tiling,
                &rules.pieces,
                format!("{players}, after {} plies", r.plies),
            )],
        };
        self.pictures.add(self.tally.games, &format!("{stem}-game-{n}"), row);
    }

    /// Reports game `n` of `file`, refereed (`report`) or not read.
    fn game(
        &mut self,
        out: &mut String,
        file: &Path,
        n: usize,
        chunk: &Chunk,
        game: Result<pgn::Record, pgn::Error>,
        report: Option<Result<GameReport, NotRefereed>>,
    ) {
        self.tally.games += 1;
        let report = game
            .map_err(|e| (e.at, e.message))
            .and_then(|g| match report.expect("a game read is refereed") {
                Ok(r) => Ok((g, r)),
                Err(e) => Err((g.at, e.to_string())),
            });
        let (g, mut report) = match report {
            Ok(x) => x,
            Err((at, message)) => {
                self.tally.errors += 1;
                self.status = super::BAD_INPUT;
                let line = if self.args.json {
                    let error = serde_json::json!({"line": at.line, "col": at.col, "message": message});
                    serde_json::json!({"file": file.display().to_string(), "game": n, "error": error}).to_string()
                } else {
                    let f = file.display();
                    format!("{f} game {n}: not read: {f}:{}:{}: {message}", at.line, at.col)
                };
                out.push_str(&line);
                out.push('\n');
                return;
            }
        };
        if let Some(line) = chunk.legacy {
            report
                .warnings
                .push(format!("line {line} is not UTF-8: read as Windows-1252 (Latin-1)"));
        }
        if let Some(line) = chunk.undecodable {
            report.warnings.push(format!(
                "line {line} is not {}: its bad bytes are read as U+FFFD",
                self.args.encoding
            ));
        }
        self.tally.plies += report.plies;
        self.tally.illegal += usize::from(report.illegal.is_some());
        if let Some(o) = report.end {
            *self.tally.ends.entry(o.ending.name()).or_default() += 1;
        }
        if report.illegal.is_some() || !report.result_matches() {
            self.status = self.status.max(super::DISAGREE);
        }
        self.tally.disagree += usize::from(!report.result_matches());
        if self.args.json {
            let mut line = json(&report);
            // Where the game is, and who played it, to trace it back.
            line["file"] = file.display().to_string().into();
            line["game"] = n.into();
            for tag in ["White", "Black", "Round", "Date"] {
                line[tag.to_ascii_lowercase()] = g.tag(tag).into();
            }
            out.push_str(&line.to_string());
        } else {
            out.push_str(&text_line(file, n, &g, &report));
        }
        out.push('\n');
    }

    /// The variant whose rules `g`'s [Variant] tag names, loaded and
    /// planned the first time; `None` for the rules given.
    fn load_variant(&mut self, g: &pgn::Record) -> Result<Option<String>, NotRefereed> {
        let variant = g
            .tag("Variant")
            .map(variant_name)
            .filter(|v| self.args.rules.is_none() && !matches!(v.as_str(), "chess" | ""));
        match variant {
            None => Ok(None),
            Some(v) => {
                if !self.variants.contains_key(&v) {
                    let dir = self.args.variants.as_deref();
                    let path = variant_file(dir, &v).ok_or_else(|| NotRefereed::NoRuleFile {
                        variant: v.clone(),
                        dir: dir.map(Path::to_path_buf),
                    })?;
                    let loaded = crate::load(&path).map_err(first)?;
                    let game = pick_game(&loaded, Some(&v))
                        .or_else(|_| pick_game(&loaded, None))
                        .map_err(first)?;
                    self.variants.insert(v.clone(), Rules::fast(game));
                }
                Ok(Some(v))
            }
        }
    }
}

/// A [Variant] tag's variant, as its rule file is named: lowercase, with
/// the spellings python-chess accepts for chess and Chess960 (`Standard`,
/// `From Position`, `Chess 960`, `Fischerandom`) taken as one.
fn variant_name(tag: &str) -> String {
    let squeezed: String = tag
        .chars()
        .filter(|c| !matches!(c, ' ' | '-' | '_'))
        .flat_map(char::to_lowercase)
        .collect();
    match squeezed.as_str() {
        "standard" | "chess" | "classical" | "normal" | "fromposition" => "chess".into(),
        "chess960" | "fischerandom" | "fischerrandom" | "960" => "chess960".into(),
        _ => tag.trim().to_ascii_lowercase(),
    }
}

/// The first of some diagnostics, on one line.
/// Why a game read was not refereed.
#[derive(Clone, Debug)]
enum NotRefereed {
    /// Its variant has no rule file.
    NoRuleFile { variant: String, dir: Option<PathBuf> },
    /// Its variant's rule file does not load: the first error, if any.
    Rules(Option<Diag>),
    /// The referee could not start.
    Referee(RefereeError),
}

impl std::fmt::Display for NotRefereed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NotRefereed::NoRuleFile { variant: v, dir } => write!(
                f,
                "[Variant \"{v}\"] names no rule file: there is no {v}.alg in {} (give --variants DIR, or --rules FILE)",
                dir.as_ref().map_or("rules/variants".into(), |d| d.display().to_string())
            ),
            NotRefereed::Rules(Some(d)) => d.fmt(f),
            NotRefereed::Rules(None) => f.write_str("the rule file has errors"),
            NotRefereed::Referee(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for NotRefereed {}

fn first(d: Diags) -> NotRefereed {
    NotRefereed::Rules(d.0.into_iter().next())
}

/// The rule file of variant `name`: in `dir`, or in rules/variants (on
/// disk here, else bundled).
fn variant_file(dir: Option<&std::path::Path>, name: &str) -> Option<PathBuf> {
    let file = format!("{name}.alg");
    let dir = dir.map_or_else(|| PathBuf::from("rules/variants"), std::path::Path::to_path_buf);
    // Only plain names: a tag must not reach outside the folder.
    let plain = name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    Some(dir.join(file)).filter(|p| plain && crate::is_file(p))
}

fn json(r: &GameReport) -> serde_json::Value {
    serde_json::json!({
        "event": r.event,
        "plies": r.plies,
        "illegal": r.illegal.as_ref().map(|i| serde_json::json!({
            "ply": i.ply,
            "text": i.text,
            "why": i.why,
            "line": i.at.line,
            "col": i.at.col,
        })),
        "end": r.end.map(|o| o.ending.name()),
        // The winner's turn, counted from 1 in the game's turn order.
        "winner": r.end.and_then(|o| o.winner).map(|w| w + 1),
        "claimable": r.claimable.iter().map(|c| c.name()).collect::<Vec<_>>(),
        "result": r.result(),
        "result_matches": r.result_matches(),
        "final_fen": r.final_fen,
        "warnings": r.warnings,
    })
}

fn text_line(file: &Path, n: usize, g: &pgn::Record, r: &GameReport) -> String {
    // The players and round tell games of one event apart.
    let who = match (g.tag("White"), g.tag("Black")) {
        (Some(w), Some(b)) if (w, b) != ("?", "?") => format!(" {w} - {b}"),
        _ => String::new(),
    };
    let round = g
        .tag("Round")
        .filter(|r| *r != "?" && *r != "-")
        .map(|r| format!(", round {r}"))
        .unwrap_or_default();
    let event = r.event.as_deref().map(|e| format!(" ({e}{round})")).unwrap_or_default();
    let event = format!("{who}{event}");
    let mut s = format!("{} game {n}{event}: {} plies", file.display(), r.plies);
    if let Some(i) = &r.illegal {
        s.push_str(&format!(
            "; illegal ply {} at {}:{}: {}: {}",
            i.ply, i.at.line, i.at.col, i.text, i.why
        ));
        if let Some(fen) = &r.final_fen {
            s.push_str(&format!(" (the position before it: {fen})"));
        }
    }
    match r.end {
        Some(o) => {
            s.push_str(&format!("; {} {}", o.ending.name().replace('_', " "), o.result()));
            if let (Ending::Won, Some(w)) = (o.ending, o.winner) {
                s.push_str(&format!(" (side {} of {} won)", w + 1, o.sides));
            }
            if let Some(tag) = r.result_tag.as_deref().filter(|t| *t != "*") {
                if r.result_matches() {
                    s.push_str(", as the Result tag says");
                } else {
                    s.push_str(&format!(", but the Result tag says {tag}"));
                }
            }
        }
        None => s.push_str(&format!("; no end reached, result {}", r.result())),
    }
    if !r.claimable.is_empty() {
        let names: Vec<String> = r.claimable.iter().map(|c| c.name().replace('_', " ")).collect();
        s.push_str(&format!("; may claim a draw: {}", names.join(", ")));
    }
    for w in &r.warnings {
        s.push_str(&format!("; warning: {w}"));
    }
    s
}
