//! `algchess referee`: check games written in PGN against a game's rules.

use super::output::plain_error;
use super::perft::pick_game;
use crate::diag::Diags;
use crate::elab::Program;
use crate::play::pgn;
use crate::play::referee::{referee, Report};
use crate::play::Rules;
use std::path::PathBuf;

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
pub struct Args {
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
    /// One JSON object per game and line.
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> Result<i32, Diags> {
    let prog = match &args.rules {
        Some(f) => Program::load(f)?,
        None => Program::from_text("rules/chess.alg", CHESS)?,
    };
    let game = pick_game(&prog, args.game.as_deref())?;
    let rules = Rules::fast(game);
    // The variants' rules, loaded and planned once each.
    let mut variants: std::collections::HashMap<String, Rules> = std::collections::HashMap::new();
    let mut status = super::OK;
    for file in &args.files {
        let text =
            std::fs::read_to_string(file).map_err(|e| plain_error(format!("cannot read {}: {e}", file.display())))?;
        let games = pgn::read(&text)
            .map_err(|e| plain_error(format!("{}:{}:{}: {}", file.display(), e.at.line, e.at.col, e.message)))?;
        for (n, g) in games.iter().enumerate() {
            let variant = g
                .tag("Variant")
                .map(str::to_ascii_lowercase)
                .filter(|v| args.rules.is_none() && !matches!(v.as_str(), "chess" | "standard" | ""));
            let rules = match variant {
                None => &rules,
                Some(v) => {
                    if !variants.contains_key(&v) {
                        let path = variant_file(args.variants.as_deref(), &v).ok_or_else(|| {
                            plain_error(format!(
                                "{}:{}:{}: game {}: [Variant \"{v}\"] names no rule file: there is no {v}.alg in {} \
                                 (give --variants DIR, or --rules FILE)",
                                file.display(),
                                g.at.line,
                                g.at.col,
                                n + 1,
                                args.variants
                                    .as_deref()
                                    .map_or("rules/variants".into(), |d| d.display().to_string())
                            ))
                        })?;
                        let prog = Program::load(&path)?;
                        let game = pick_game(&prog, Some(&v)).or_else(|_| pick_game(&prog, None))?;
                        variants.insert(v.clone(), Rules::fast(game));
                    }
                    &variants[&v]
                }
            };
            let report = referee(rules, g).map_err(|e| {
                plain_error(format!(
                    "{}:{}:{}: game {}: {e}",
                    file.display(),
                    g.at.line,
                    g.at.col,
                    n + 1
                ))
            })?;
            if report.illegal.is_some() || !report.result_matches() {
                status = super::DISAGREE;
            }
            if args.json {
                let mut line = json(&report);
                // Where the game is, and who played it, to trace it back.
                line["file"] = file.display().to_string().into();
                line["game"] = (n + 1).into();
                for tag in ["White", "Black", "Round", "Date"] {
                    line[tag.to_ascii_lowercase()] = g.tag(tag).into();
                }
                println!("{line}");
            } else {
                println!("{}", text_line(file, n + 1, &report));
            }
        }
    }
    Ok(status)
}

/// The rule file of variant `name`: in `dir`, or in rules/variants here
/// or in the source tree.
fn variant_file(dir: Option<&std::path::Path>, name: &str) -> Option<PathBuf> {
    let file = format!("{name}.alg");
    let dirs: Vec<PathBuf> = match dir {
        Some(d) => vec![d.to_path_buf()],
        None => vec![
            PathBuf::from("rules/variants"),
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("rules/variants"),
        ],
    };
    // Only plain names: a tag must not reach outside the folder.
    let plain = name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    dirs.into_iter().map(|d| d.join(&file)).find(|p| plain && p.is_file())
}

fn json(r: &Report) -> serde_json::Value {
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
        "claimable": r.claimable.iter().map(|c| c.name()).collect::<Vec<_>>(),
        "result": r.result(),
        "result_matches": r.result_matches(),
        "final_fen": r.final_fen,
    })
}

fn text_line(file: &std::path::Path, n: usize, r: &Report) -> String {
    let event = r.event.as_deref().map(|e| format!(" ({e})")).unwrap_or_default();
    let mut s = format!("{} game {n}{event}: {} plies", file.display(), r.plies);
    if let Some(i) = &r.illegal {
        s.push_str(&format!(
            "; illegal ply {} at {}:{}: {}: {}",
            i.ply, i.at.line, i.at.col, i.text, i.why
        ));
    }
    match r.end {
        Some(o) => {
            s.push_str(&format!("; {} {}", o.ending.name().replace('_', " "), o.result()));
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
    s
}
