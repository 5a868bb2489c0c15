//! Where a rule file's imports come from. Elaboration reads no file of its
//! own accord: a [`Loader`] gives it the text of each file it imports, so a
//! caller decides what `import` may reach.

use std::path::{Path, PathBuf};

/// Gives the text of the files rule files import.
pub trait Loader {
    /// The text at `path` (the importing file's folder joined with the
    /// import's path), and the name the file is known by, so that a file
    /// reached twice, or round a cycle, is read once.
    fn load(&self, path: &Path) -> std::io::Result<(String, PathBuf)>;
}

/// No files: every import is refused. For text that must not reach the
/// disk, such as a fuzzer's or a server's.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoFiles;

impl Loader for NoFiles {
    fn load(&self, _: &Path) -> std::io::Result<(String, PathBuf)> {
        Err(std::io::Error::new(
            std::io::ErrorKind::PermissionDenied,
            "this text may import no files",
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::elab::{Game, Program, Stuck};
    use crate::geometry::Tiling;
    use std::collections::HashMap;

    /// Files kept in memory, and the paths read, in order.
    struct InMemory {
        files: HashMap<PathBuf, String>,
        read: std::cell::RefCell<Vec<PathBuf>>,
    }

    impl InMemory {
        fn new<const N: usize>(files: [(&str, &str); N]) -> InMemory {
            InMemory {
                files: files.iter().map(|(p, t)| (PathBuf::from(p), t.to_string())).collect(),
                read: Default::default(),
            }
        }
    }

    impl Loader for InMemory {
        fn load(&self, path: &Path) -> std::io::Result<(String, PathBuf)> {
            self.read.borrow_mut().push(path.to_path_buf());
            match self.files.get(path) {
                Some(text) => Ok((text.clone(), path.to_path_buf())),
                None => Err(std::io::Error::new(std::io::ErrorKind::NotFound, "not in memory")),
            }
        }
    }

    #[test]
    fn imports_come_from_the_loader() {
        let files = InMemory::new([
            ("lib/pieces.alg", "step = (% + u. -> . + u%)\n"),
            // A cycle back to the first file adds nothing.
            ("lib/again.alg", "import \"pieces.alg\"\n"),
        ]);
        let text = "import \"pieces.alg\"\nimport \"again.alg\"\ntwice = step step\n";
        let prog = Program::from_text_with("lib/main.alg", text, Tiling::Square, &files).unwrap();
        assert!(prog.definition("step").is_some());
        assert!(prog.definition("twice").is_some());
        // The same text on disk finds no such file.
        let Err(e) = Program::from_text("lib/main.alg", text) else {
            panic!("lib/pieces.alg is not on disk")
        };
        assert!(e.to_string().contains("cannot read lib/pieces.alg"), "{e}");
    }

    /// The games of imported files (a game derived there too) are
    /// elaborated with the file that imports them, each file read once,
    /// in its scope: its override applies to them. A game that does not
    /// elaborate so is left out, and the file still loads.
    #[test]
    fn imported_games_are_elaborated_with_the_importer() {
        let files = InMemory::new([
            (
                "lib/base.alg",
                "step = %♔: (% + u. -> . + u%)\ngame base(♔;.) = step, step\ngame base stuck: draw\n",
            ),
            ("lib/variant.alg", "import \"base.alg\"\ngame variant = base\n"),
        ]);
        let text = "import \"variant.alg\"\noverride step = %♔: (% + r. -> . + r%)\ntheorem t: step = step\n";
        let prog = Program::from_text_with("lib/main.alg", text, Tiling::Square, &files).unwrap();
        assert_eq!(
            *files.read.borrow(),
            [PathBuf::from("lib/variant.alg"), PathBuf::from("lib/base.alg")]
        );
        assert!(prog.games().is_empty());
        let names = |games: &[Game]| games.iter().map(|g| g.name.clone()).collect::<Vec<_>>();
        assert_eq!(names(prog.imported_games()), ["variant", "base"]);
        let step = prog.definition("step").unwrap();
        for g in prog.imported_games() {
            assert_eq!(g.turns, [step.clone(), step.clone()], "{}", g.name);
            assert_eq!(g.ends.stuck, [Stuck::Draw], "{}", g.name);
        }
        assert_eq!(names(&crate::checker::positions::games(&prog)), ["variant", "base"]);
        // A turn that is no move as the importer reads it.
        let text = "import \"variant.alg\"\noverride step = ♔\n";
        let prog = Program::from_text_with("lib/main.alg", text, Tiling::Square, &files).unwrap();
        assert!(prog.imported_games().is_empty());
    }

    #[test]
    fn no_files_refuses_every_import_at_its_place() {
        let text = "x = ♙\nimport \"../rules/chess.alg\"\n";
        let Err(e) = Program::from_text_with("t.alg", text, Tiling::Square, &NoFiles) else {
            panic!("an import was read")
        };
        let d = &e.0[0];
        assert!(d.to_string().contains("this text may import no files"), "{d}");
        assert_eq!(&text[d.span.start..d.span.end], "\"../rules/chess.alg\"");
        // Text without imports elaborates as with files.
        assert!(Program::from_text_with("t.alg", "x = ♙\n", Tiling::Square, &NoFiles).is_ok());
    }
}
