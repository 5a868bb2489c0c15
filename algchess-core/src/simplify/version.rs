//! One version of a rule file on its way through simplification: a syntax
//! tree and its program. The file's text is parsed once; each step edits
//! the tree and elaborates the result once, as the check that the edit
//! keeps the file meaningful. Every span of an edited tree still points
//! into the text as written, so an error in any version quotes the user's
//! own text.

use crate::diag::{Diag, Diags, Source};
use crate::elab::{Loader, Program};
use crate::parse::ast::{Expr, File, Span, StmtKind};

pub(super) struct Version<'l> {
    pub(super) file: File,
    pub(super) prog: Program,
    /// Where the file's imports are read from, for every later version.
    loader: &'l dyn Loader,
}

impl<'l> Version<'l> {
    /// Parses and elaborates `text`, named `name`, its imports read
    /// through `loader`.
    pub(super) fn read(name: &str, text: &str, loader: &'l dyn Loader) -> Result<Version<'l>, Diags> {
        let file =
            crate::parse::parse_file(text).map_err(|e| Diag::new(&Source::new(name, text), e.span, e.message))?;
        Version::elaborate(name, text, file, loader)
    }

    /// The version of a program elaborated already: its text is parsed
    /// again (cheap), not elaborated again.
    pub(super) fn of(prog: &Program, loader: &'l dyn Loader) -> Result<Version<'l>, Diags> {
        let source = prog.source();
        let file = crate::parse::parse_file(&source.text).map_err(|e| Diag::new(source, e.span, e.message))?;
        Ok(Version {
            file,
            prog: prog.clone(),
            loader,
        })
    }

    /// Elaborates the file `text` as a whole, with this version's name,
    /// grid and imports.
    pub(super) fn whole(&self, text: &str) -> Result<Program, Diags> {
        Program::from_text_with(self.name(), text, self.prog.tiling(), self.loader)
    }

    /// Elaborates `file`, a tree read from `text` and edited from this
    /// version's.
    pub(super) fn edited(&self, text: &str, file: File) -> Result<Version<'l>, Diags> {
        Version::elaborate(self.name(), text, file, self.loader)
    }

    fn elaborate(name: &str, text: &str, file: File, loader: &'l dyn Loader) -> Result<Version<'l>, Diags> {
        let prog = Program::from_tree(name, text, file.clone(), loader)?;
        Ok(Version { file, prog, loader })
    }

    /// The name diagnostics give the file.
    pub(super) fn name(&self) -> &str {
        &self.prog.source().name
    }

    /// The text the file was read from.
    pub(super) fn text(&self) -> &str {
        &self.prog.source().text
    }
}

/// The body of the definition without parameters `name` in `file`.
pub(super) fn body_mut<'f>(file: &'f mut File, name: &str) -> Option<&'f mut Expr> {
    file.stmts.iter_mut().find_map(|s| match &mut s.kind {
        StmtKind::Def {
            name: n,
            params: None,
            body,
            overrides: false,
        } if n.name == name => Some(body),
        _ => None,
    })
}

/// The span of the body of `name`, as written.
pub(super) fn body_span(file: &File, name: &str) -> Span {
    super::hoist::plain_definitions(file)
        .find(|(n, _)| *n == name)
        .map(|(_, b)| b.span)
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::ast::ExprKind;

    #[test]
    fn an_edited_tree_reports_against_the_text_as_written() {
        let text = "a = ♙ -> .\n\nb = a | a\n";
        let v = Version::read("t.alg", text, &crate::elab::NoFiles).unwrap();
        let mut file = v.file.clone();
        // `b`'s first arm becomes a name the file does not define.
        let ExprKind::Bar(first, _) = &mut body_mut(&mut file, "b").unwrap().kind else {
            panic!("a union")
        };
        first.kind = ExprKind::Word("missing".into());
        let Err(e) = v.edited(text, file) else {
            panic!("an undefined name elaborates")
        };
        let d = &e.0[0];
        assert!(d.message.contains("missing"), "{}", d.message);
        assert_eq!(&*d.source.text, text);
        let at = text.find("a | a").unwrap();
        assert_eq!(d.span, Span::new(at, at + 1), "the first `a` of `b`, as written");
        assert_eq!(body_span(&v.file, "b"), Span::new(at, at + 5));
    }
}
