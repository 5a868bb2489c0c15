//! The file system, for the library's [`Loader`]: rule files, their
//! imports and other text inputs, each read up to a size limit; and the
//! rule files, theorems and axioms bundled into the binary, read where no
//! file on disk has their path.

use algchess_core::{Diags, Loader, MemoryLimit, Program};
use std::path::{Path, PathBuf};

/// The largest text file read (a rule file, a board, an axiom file):
/// rule files are a few kilobytes, and a bigger input is refused while
/// it is read, before it fills memory.
pub const MAX_TEXT: u64 = 64 << 20;

/// The text of the file at `path`, refused past [`MAX_TEXT`] bytes (read
/// no further than that) or when it is not UTF-8.
/// A path with no file on disk reads the bundled file it ends in, if any
/// (see [`bundled`]).
pub fn read_text(path: impl AsRef<Path>) -> std::io::Result<String> {
    use std::io::Read;
    let path = path.as_ref();
    let file = match std::fs::File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return bundled(path).map(|(_, text)| text.to_string()).ok_or(e);
        }
        Err(e) => return Err(e),
    };
    let mut text = String::new();
    file.take(MAX_TEXT + 1).read_to_string(&mut text)?;
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
        let known = match std::fs::canonicalize(path) {
            Ok(p) => p,
            // A bundled file is known by its place in the bundle.
            Err(_) => match bundled(path) {
                Some((key, _)) => Path::new("<bundled>").join(key),
                None => path.to_path_buf(),
            },
        };
        Ok((text, known))
    }
}

/// Reads, parses and elaborates the rule file at `path`, with its imports.
pub fn load(path: &Path) -> Result<Program, Diags> {
    Program::load(path, MemoryLimit::NONE, &Files)
}

mod table {
    include!(concat!(env!("OUT_DIR"), "/bundled.rs"));
}

/// The rule files, theorems and axioms built into the binary: every `.alg`
/// file under `rules/`, `theorems/` and `axioms/`, by its path from the
/// project's root (`rules/chess.alg`), in name order.
pub fn bundled_files() -> &'static [(&'static str, &'static str)] {
    table::BUNDLED
}

/// `path` written with `/`, without `.` and with each `..` taken back
/// where it can be (`theorems/../rules/chess.alg` is `rules/chess.alg`).
fn normal_parts(path: &Path) -> Vec<String> {
    use std::path::Component;
    let mut parts: Vec<String> = vec![];
    for c in path.components() {
        match c {
            Component::Normal(s) => parts.push(s.to_string_lossy().into_owned()),
            Component::ParentDir if parts.last().is_some_and(|p| p != "..") => {
                parts.pop();
            }
            Component::ParentDir => parts.push("..".into()),
            Component::CurDir => {}
            Component::RootDir | Component::Prefix(_) => parts.clear(),
        }
    }
    parts
}

/// The bundled path that `path` ends in, when it names a bundled file or
/// folder: `rules/chess.alg`, `/anywhere/theorems/kat` (`theorems/kat`).
/// `dir` asks for a folder, else a file.
fn bundled_key(path: &Path, dir: bool) -> Option<String> {
    let parts = normal_parts(path);
    (0..parts.len()).find_map(|i| {
        let key = parts[i..].join("/");
        let found = if dir {
            let prefix = format!("{key}/");
            let at = table::BUNDLED.partition_point(|(k, _)| *k < prefix.as_str());
            table::BUNDLED.get(at).is_some_and(|(k, _)| k.starts_with(&prefix))
        } else {
            table::BUNDLED.binary_search_by(|(k, _)| (*k).cmp(key.as_str())).is_ok()
        };
        found.then_some(key)
    })
}

/// The bundled text `path` stands for when there is no file there: the
/// bundled file whose path from the project's root `path` ends in
/// (`rules/chess.alg`, `../rules/chess.alg` imported from anywhere).
pub fn bundled(path: &Path) -> Option<(&'static str, &'static str)> {
    let key = bundled_key(path, false)?;
    table::BUNDLED.iter().find(|(k, _)| *k == key).copied()
}

/// Whether `path` is a file, on disk or bundled.
pub fn is_file(path: &Path) -> bool {
    path.is_file() || (!path.exists() && bundled(path).is_some())
}

/// Whether `path` is a folder, on disk or bundled (`theorems/`).
pub fn is_dir(path: &Path) -> bool {
    path.is_dir() || (!path.exists() && bundled_key(path, true).is_some())
}

/// The `.alg` files in folder `dir`, in name order: on disk when the
/// folder is there, else the bundled folder's (each as `dir` joined with
/// its name, so that it reads back the same way).
pub fn alg_files(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    if !dir.exists() {
        if let Some(key) = bundled_key(dir, true) {
            let prefix = format!("{key}/");
            let mut found: Vec<PathBuf> = table::BUNDLED
                .iter()
                .filter_map(|(k, _)| k.strip_prefix(&prefix))
                .filter(|rest| !rest.contains('/'))
                .map(|name| dir.join(name))
                .collect();
            found.sort();
            return Ok(found);
        }
    }
    let mut found: Vec<PathBuf> = std::fs::read_dir(dir)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|f| f.extension().is_some_and(|x| x == "alg") && f.is_file())
        .collect();
    found.sort();
    Ok(found)
}
