//! The architecture invariant of ARCHITECTURE.md: the modules form layers,
//! and a module imports only the layers below it (its unit tests, at the
//! end of a file, may use anything). "semantics knows nothing of chess":
//! games, FEN and the prover are above it.

use std::path::Path;

/// The layers, lowest first.
const LAYERS: [&str; 16] = [
    "geometry",
    "memory",
    "core",
    "semantics",
    "engine",
    "diag",
    "parse",
    "notation",
    "elab",
    "play",
    "search",
    "laws",
    "check",
    "prover",
    "simplify",
    "cli",
];

/// Every `.rs` file under `dir`.
fn sources(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            sources(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The modules `crate::NAME` names in the code of a file, its unit tests
/// left out.
fn imports(text: &str) -> Vec<String> {
    let code = text.split("#[cfg(test)]\nmod tests").next().unwrap();
    let mut out: Vec<String> = code
        .match_indices("crate::")
        .map(|(i, m)| {
            code[i + m.len()..]
                .chars()
                .take_while(|c| c.is_ascii_lowercase() || *c == '_')
                .collect()
        })
        .collect();
    out.sort();
    out.dedup();
    out
}

#[test]
fn modules_import_only_the_layers_below_them() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = vec![];
    sources(&src, &mut files);
    let mut seen = 0;
    let mut violations = vec![];
    for f in &files {
        let rel = f.strip_prefix(&src).unwrap();
        let first = rel.iter().next().unwrap().to_string_lossy();
        let module = first.trim_end_matches(".rs");
        let Some(level) = LAYERS.iter().position(|l| *l == module) else {
            // lib.rs and main.rs tie the layers together; the tutorial
            // is documentation only.
            assert!(
                ["lib", "main", "tutorial"].contains(&module),
                "{module} is in no layer: add it to LAYERS"
            );
            continue;
        };
        seen += 1;
        // A module's unit tests in a file of their own (`mod tests;` under
        // `#[cfg(test)]` beside it) are unit tests too.
        let parent = f.with_file_name("mod.rs");
        let unit_tests = f.file_name().is_some_and(|n| n == "tests.rs")
            && std::fs::read_to_string(&parent).is_ok_and(|t| t.contains("#[cfg(test)]\nmod tests;"));
        if unit_tests {
            continue;
        }
        for m in imports(&std::fs::read_to_string(f).unwrap()) {
            match LAYERS.iter().position(|l| *l == m) {
                Some(to) if to > level => violations.push(format!("{} imports {m}", rel.display())),
                _ => {}
            }
        }
    }
    assert!(seen > 40, "only {seen} files read");
    assert!(
        violations.is_empty(),
        "imports up the layers:\n{}",
        violations.join("\n")
    );
}

#[test]
fn the_check_sees_an_import_up_the_layers() {
    let text = "use crate::core::Term;\nfn f() { crate::play::fen::read(\"\"); }\n#[cfg(test)]\nmod tests {\n    use crate::cli;\n}\n";
    assert_eq!(imports(text), ["core", "play"]);
}
