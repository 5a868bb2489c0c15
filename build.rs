//! Bundles the rule files, theorems and axioms into the binary: a table of
//! every `.alg` file under `rules/`, `theorems/` and `axioms/`, by its
//! path from the project's root, so that `algchess` installed anywhere
//! still finds them (a file on disk at the same path is read first).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

const DIRS: [&str; 3] = ["rules", "theorems", "axioms"];

fn walk(dir: &Path, key: &str, out: &mut Vec<(String, PathBuf)>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let path = e.path();
        let name = e.file_name().to_string_lossy().to_string();
        let key = format!("{key}/{name}");
        if path.is_dir() {
            walk(&path, &key, out);
        } else if name.ends_with(".alg") {
            out.push((key, path));
        }
    }
}

fn main() {
    let root = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let mut files = vec![];
    for dir in DIRS {
        println!("cargo:rerun-if-changed={dir}");
        walk(&root.join(dir), dir, &mut files);
    }
    files.sort();
    let mut code = String::from("/// Every bundled file, by its path from the project's root, in name order.\n");
    code.push_str("pub(crate) static BUNDLED: &[(&str, &str)] = &[\n");
    for (key, path) in &files {
        writeln!(code, "    ({key:?}, include_str!({:?})),", path.display().to_string()).unwrap();
    }
    code.push_str("];\n");
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("bundled.rs");
    std::fs::write(out, code).expect("write the bundle's table");
}
