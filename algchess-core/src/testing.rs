//! What the library's own tests share: the project's files (`rules/`,
//! `theorems/`, `tests/fixtures/`), read from the workspace root, which is
//! not the test's working folder.

use crate::elab::{Loader, Program};
use crate::memory::MemoryLimit;
use std::path::{Path, PathBuf};

/// The workspace root, where `rules/` and `theorems/` are.
pub(crate) fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("a workspace root")
        .to_path_buf()
}

/// The text of a project file, named from the workspace root.
pub(crate) fn read(path: &str) -> String {
    std::fs::read_to_string(root().join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The project's files, named from the workspace root.
pub(crate) struct Project;

impl Loader for Project {
    fn load(&self, path: &Path) -> std::io::Result<(String, PathBuf)> {
        let full = root().join(path);
        let text = std::fs::read_to_string(&full)?;
        Ok((text, std::fs::canonicalize(&full).unwrap_or(full)))
    }
}

/// A project rule file (`rules/chess.alg`), elaborated with its imports.
pub(crate) fn load(path: &str) -> Program {
    Program::load(Path::new(path), MemoryLimit::NONE, &Project).unwrap_or_else(|e| panic!("{path}: {}", e.render()))
}

/// Rule-file text named `name`, its imports read from the project.
pub(crate) fn from_text(name: &str, text: &str) -> Result<Program, crate::diag::Diags> {
    Program::from_text_with(name, text, crate::geometry::Tiling::Square, &Project)
}

/// The move `text` written as a definition, elaborated: a term to test on.
pub(crate) fn term(text: &str) -> crate::ir::Term {
    let program =
        Program::from_text("t.alg", &format!("x = {text}\n")).unwrap_or_else(|e| panic!("{text}: {}", e.render()));
    program.definition("x").expect("the definition").clone()
}
