//! The file system, for the library's [`Loader`]: rule files, their
//! imports and other text inputs, each read up to a size limit.

use algchess_core::{Diags, Loader, MemoryLimit, Program};
use std::path::{Path, PathBuf};

/// The largest text file read (a rule file, a board, an axiom file):
/// rule files are a few kilobytes, and a bigger input is refused while
/// it is read, before it fills memory.
pub const MAX_TEXT: u64 = 64 << 20;

/// The text of the file at `path`, refused past [`MAX_TEXT`] bytes (read
/// no further than that) or when it is not UTF-8.
pub fn read_text(path: impl AsRef<Path>) -> std::io::Result<String> {
    use std::io::Read;
    let mut text = String::new();
    std::fs::File::open(path)?
        .take(MAX_TEXT + 1)
        .read_to_string(&mut text)?;
    if text.len() as u64 > MAX_TEXT {
        return Err(std::io::Error::other(format!(
            "the file is larger than {} MiB, the most a text input may be",
            MAX_TEXT >> 20
        )));
    }
    Ok(text)
}

/// The file system: an import is a file, read up to the size of any text
/// input, and known by its canonical path.
#[derive(Clone, Copy, Debug, Default)]
pub struct Files;

impl Loader for Files {
    fn load(&self, path: &Path) -> std::io::Result<(String, PathBuf)> {
        let text = read_text(path)?;
        Ok((text, std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())))
    }
}

/// Reads, parses and elaborates the rule file at `path`, with its imports.
pub fn load(path: &Path) -> Result<Program, Diags> {
    Program::load(path, MemoryLimit::NONE, &Files)
}
