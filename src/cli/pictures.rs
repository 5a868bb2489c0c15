//! `--svg FILE|DIR`, shared by the commands that draw boards: pictures
//! made by the library's `picture` module, written as one file (a path
//! ending `.svg`: every picture on one sheet), or one file each in a
//! directory.

use super::output::plain_error;
use algchess_core::picture::{svg, Mark, Picture, Row};
use algchess_core::Diags;
use algchess_core::{Grid, Pieces, Square, Store, Tiling};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The flag.
#[derive(clap::Args, Clone, Debug, Default)]
pub(super) struct SvgArgs {
    /// Draw the boards as SVG: into FILE (a name ending `.svg`), all on
    /// one sheet, or into DIR, one file each.
    #[arg(long, value_name = "FILE|DIR")]
    pub svg: Option<PathBuf>,
}

/// Where the pictures go, and those kept until the end.
pub(super) struct Pictures {
    target: Option<Target>,
    kept: Mutex<Vec<(usize, String, Row)>>,
}

enum Target {
    File(PathBuf),
    Dir(PathBuf),
}

impl Pictures {
    /// The pictures `--svg` asks for; a directory is made now, so that a
    /// path that cannot be one fails before any work.
    pub(super) fn new(args: &SvgArgs) -> Result<Pictures, Diags> {
        let target = match &args.svg {
            None => None,
            Some(p) if p.extension().is_some_and(|x| x.eq_ignore_ascii_case("svg")) => Some(Target::File(p.clone())),
            Some(p) => {
                std::fs::create_dir_all(p)
                    .map_err(|e| plain_error(format!("--svg: cannot make the directory {}: {e}", p.display())))?;
                Some(Target::Dir(p.clone()))
            }
        };
        Ok(Pictures {
            target,
            kept: Mutex::new(vec![]),
        })
    }

    /// Whether any picture is wanted.
    pub(super) fn wanted(&self) -> bool {
        self.target.is_some()
    }

    /// Whether every picture goes on one sheet.
    pub(super) fn one_file(&self) -> bool {
        matches!(self.target, Some(Target::File(_)))
    }

    /// Keeps a row of pictures, named `name` (a directory's file name),
    /// for `finish`; rows are written in the order of `key`.
    pub(super) fn add(&self, key: usize, name: &str, row: Row) {
        if self.wanted() {
            self.kept
                .lock()
                .expect("no writer panicked")
                .push((key, name.to_string(), row));
        }
    }

    /// Writes a row now: the file rewritten, or the directory's file
    /// `name`.
    pub(super) fn now(&self, name: &str, row: Row) -> Result<(), Diags> {
        match &self.target {
            None => Ok(()),
            Some(Target::File(p)) => write(p, &svg(&[row])),
            Some(Target::Dir(d)) => write(&d.join(file_name(name)), &svg(&[row])),
        }
    }

    /// Writes what was kept; returns the files written.
    pub(super) fn finish(self) -> Result<Vec<PathBuf>, Diags> {
        let mut kept = self.kept.into_inner().expect("no writer panicked");
        kept.sort_by_key(|(k, ..)| *k);
        match &self.target {
            None => Ok(vec![]),
            Some(Target::File(p)) => {
                let rows: Vec<Row> = kept.into_iter().map(|(_, _, r)| r).collect();
                write(p, &svg(&rows))?;
                Ok(vec![p.clone()])
            }
            Some(Target::Dir(d)) => {
                let mut out = vec![];
                for (_, name, row) in kept {
                    let path = d.join(file_name(&name));
                    write(&path, &svg(&[row]))?;
                    out.push(path);
                }
                Ok(out)
            }
        }
    }
}

fn write(path: &Path, text: &str) -> Result<(), Diags> {
    std::fs::write(path, text).map_err(|e| plain_error(format!("--svg: cannot write {}: {e}", path.display())))
}

/// A file name made of `name`: letters, digits, `-` and `_` kept, any
/// run of other characters one `_`.
fn file_name(name: &str) -> String {
    let mut out = String::new();
    for c in name.chars() {
        if c.is_alphanumeric() || c == '-' {
            out.push(c);
        } else if !out.ends_with('_') {
            out.push('_');
        }
    }
    let out = out.trim_matches('_');
    format!("{}.svg", if out.is_empty() { "board" } else { out })
}

/// A board drawn from its text rows (as a report prints them), with the
/// POI ringed (on hex, found by its cell's name) and, against `before`,
/// the squares that changed tinted.
pub(super) fn from_rows(
    rows: &[String],
    poi: (Option<[i32; 2]>, Option<&str>),
    before: Option<&Grid>,
    tiling: Tiling,
    pieces: &Pieces,
    caption: String,
) -> Option<Picture> {
    let board = Grid::parse_on(&rows.join("\n"), tiling, pieces).ok()?;
    let poi = match (tiling, poi) {
        (Tiling::Hex, (_, cell)) => cell.and_then(|c| board.hex_cell_prefix(c)).map(|(q, _)| q),
        (Tiling::Square, (at, _)) => at.map(|[x, y]| Square::new(x, y)),
    };
    let mut p = Picture::new(board, tiling, pieces, caption);
    if let Some(q) = poi {
        p.marks.push((q, Mark::Poi));
    }
    if let Some(b) = before.filter(|b| b.squares() == p.board.squares()) {
        p.marks.extend(b.diff(&p.board).into_iter().map(|q| (q, Mark::Changed)));
    }
    Some(p)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_become_file_names() {
        assert_eq!(file_name("lint: game chess, turn 1"), "lint_game_chess_turn_1.svg");
        assert_eq!(file_name("///"), "board.svg");
        assert_eq!(file_name("solution-3"), "solution-3.svg");
    }
}
