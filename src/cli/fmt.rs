//! `algchess fmt`: pretty-print rule files.

use super::output::plain_error;
use algchess_core::{format_file, parse_file};
use algchess_core::{Diag, Diags, Source};
use std::path::PathBuf;

#[derive(clap::Args)]
pub(super) struct Args {
    /// Rule files to format, or directories of `.alg` files.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Rewrite the files in place instead of printing them.
    #[arg(short, long, conflicts_with = "check")]
    write: bool,
    /// Print nothing; exit with status 1 if a file is not formatted.
    #[arg(long)]
    check: bool,
}

pub(super) fn run(args: Args) -> Result<i32, Diags> {
    let mut unformatted = false;
    for path in &super::expand_paths(&args.files)? {
        let text = crate::read_text(path).map_err(|e| plain_error(format!("cannot read {}: {e}", path.display())))?;
        let src = Source::new(path.display().to_string(), text.as_str());
        let file = parse_file(&text).map_err(|e| Diag::new(&src, e.span, e.message))?;
        let out = format_file(&file, &text);
        if args.check {
            if out != text {
                eprintln!("{} is not formatted", path.display());
                unformatted = true;
            }
        } else if args.write {
            if out != text {
                std::fs::write(path, &out).map_err(|e| plain_error(format!("cannot write {}: {e}", path.display())))?;
            }
        } else {
            print!("{out}");
        }
    }
    Ok(if unformatted { super::DISAGREE } else { super::OK })
}
