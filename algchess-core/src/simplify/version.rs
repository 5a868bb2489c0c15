//! One version of a rule file on its way through simplification: its text,
//! read once into a syntax tree and a program. Each step that edits the
//! text reads the result once, as the check that the edit keeps the file
//! meaningful, and passes that reading on.

use crate::diag::{Diag, Diags, Source};
use crate::elab::Program;
use crate::parse::ast::File;

pub(super) struct Version {
    pub(super) text: String,
    pub(super) file: File,
    pub(super) prog: Program,
}

impl Version {
    /// Reads `text`, named `name`; an error points into this text.
    pub(super) fn read(name: &str, text: String) -> Result<Version, Diags> {
        let prog = Program::from_text(name, &text)?;
        let file = crate::parse::parse_file(&text)
            .map_err(|e| Diag::new(&Source::new(name, text.as_str()), e.span, e.message))?;
        Ok(Version { text, file, prog })
    }

    /// The name diagnostics give the file.
    pub(super) fn name(&self) -> &str {
        &self.prog.source().name
    }
}
