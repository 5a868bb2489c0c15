//! The architecture invariant of ARCHITECTURE.md: the modules form layers,
//! and a module imports only the layers below it (its unit tests, at the
//! end of a file, may use anything). "semantics knows nothing of chess":
//! games, FEN and the prover are above it. The layers are the library's,
//! `algchess-core`; the command line (`src/cli`) is a crate above them all.

use std::path::Path;

/// The layers, lowest first.
const LAYERS: [&str; 21] = [
    "par",
    "rng",
    "geometry",
    "clock",
    "memory",
    "ir",
    "semantics",
    "engine",
    "diag",
    "parse",
    "notation",
    "elab",
    "play",
    "record",
    "picture",
    "search",
    "laws",
    "checker",
    "prover",
    "simplify",
    "puzzle",
];

/// The library's sources.
fn core_src() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("algchess-core/src")
}

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
    let src = core_src();
    let mut files = vec![];
    sources(&src, &mut files);
    let mut seen = 0;
    let mut violations = vec![];
    for f in &files {
        let rel = f.strip_prefix(&src).unwrap();
        let first = rel.iter().next().unwrap().to_string_lossy();
        let module = first.trim_end_matches(".rs");
        let Some(level) = LAYERS.iter().position(|l| *l == module) else {
            // lib.rs ties the layers together; the tutorial is
            // documentation only, `testing` the unit tests' helpers.
            assert!(
                ["lib", "tutorial", "testing"].contains(&module),
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
    let text = "use crate::ir::Term;\nfn f() { crate::record::fen::read(\"\"); }\n#[cfg(test)]\nmod tests {\n    use crate::cli;\n}\n";
    assert_eq!(imports(text), ["ir", "record"]);
}

/// The sibling files (or folders) of module `top` that a file of it names,
/// as `super::X` (from a file directly in the module) or `crate::top::X`,
/// its unit tests left out.
fn sibling_imports(text: &str, top: &str, direct: bool, siblings: &[String]) -> Vec<String> {
    let code = text.split("#[cfg(test)]").next().unwrap();
    let word = |s: &str| -> String {
        s.chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect()
    };
    let mut out: Vec<String> = vec![];
    let full = format!("crate::{top}::");
    out.extend(code.match_indices(&full).map(|(i, m)| word(&code[i + m.len()..])));
    if direct {
        out.extend(code.match_indices("super::").map(|(i, m)| word(&code[i + m.len()..])));
        // `use super::{a::X, b::Y}`.
        for (i, m) in code.match_indices("super::{") {
            let inner = &code[i + m.len()..];
            let inner = &inner[..inner.find('}').unwrap_or(inner.len())];
            out.extend(inner.split(',').map(|p| word(p.trim())));
        }
    }
    out.retain(|m| siblings.contains(m));
    out.sort();
    out.dedup();
    out
}

/// A circle of imports in `edges` (file to the files it names), if any.
fn circle(edges: &std::collections::BTreeMap<String, Vec<String>>) -> Option<Vec<String>> {
    fn visit(
        v: &str,
        edges: &std::collections::BTreeMap<String, Vec<String>>,
        state: &mut std::collections::BTreeMap<String, u8>,
        path: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        state.insert(v.to_string(), 1);
        path.push(v.to_string());
        for w in edges.get(v).into_iter().flatten() {
            match state.get(w.as_str()) {
                Some(1) => {
                    let at = path.iter().position(|p| p == w).unwrap();
                    return Some(path[at..].to_vec());
                }
                Some(_) => {}
                None => {
                    if let Some(c) = visit(w, edges, state, path) {
                        return Some(c);
                    }
                }
            }
        }
        path.pop();
        state.insert(v.to_string(), 2);
        None
    }
    let mut state = std::collections::BTreeMap::new();
    for v in edges.keys() {
        if !state.contains_key(v.as_str()) {
            if let Some(c) = visit(v, edges, &mut state, &mut vec![]) {
                return Some(c);
            }
        }
    }
    None
}

/// Inside a module, its files form layers too: no two import each other,
/// directly or round a circle, so each can be read after the ones it uses.
#[test]
fn the_files_of_a_module_import_each_other_in_no_circle() {
    let (core, root) = (core_src(), Path::new(env!("CARGO_MANIFEST_DIR")).join("src"));
    let mut circles = vec![];
    let mut modules = 0;
    for (top, dir) in LAYERS
        .iter()
        .map(|l| (*l, core.join(l)))
        .chain([("cli", root.join("cli"))])
    {
        if !dir.is_dir() {
            continue;
        }
        modules += 1;
        let siblings: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .map(|p| p.file_stem().unwrap().to_string_lossy().into_owned())
            .filter(|n| n != "mod" && n != "tests")
            .collect();
        let mut edges = std::collections::BTreeMap::new();
        for s in &siblings {
            let (file, folder) = (dir.join(format!("{s}.rs")), dir.join(s));
            let mut files = vec![];
            if folder.is_dir() {
                sources(&folder, &mut files);
            }
            let mut to = vec![];
            if file.is_file() {
                to.extend(sibling_imports(
                    &std::fs::read_to_string(&file).unwrap(),
                    top,
                    true,
                    &siblings,
                ));
            }
            for f in &files {
                to.extend(sibling_imports(
                    &std::fs::read_to_string(f).unwrap(),
                    top,
                    false,
                    &siblings,
                ));
            }
            to.retain(|t| t != s);
            to.sort();
            to.dedup();
            edges.insert(s.clone(), to);
        }
        if let Some(c) = circle(&edges) {
            circles.push(format!("{top}: {}", c.join(" -> ")));
        }
    }
    assert!(modules > 10, "only {modules} modules read");
    assert!(circles.is_empty(), "import circles:\n{}", circles.join("\n"));
}

#[test]
fn the_circle_check_sees_a_circle() {
    let siblings = ["game".to_string(), "end".to_string(), "ongoing".to_string()];
    let end =
        "use super::game::TooBig;\nuse crate::play::ongoing::Match;\n#[cfg(test)]\nmod tests { use super::game::X; }";
    assert_eq!(sibling_imports(end, "play", true, &siblings), ["game", "ongoing"]);
    let game = "use super::{end::Test, ongoing};\n";
    assert_eq!(sibling_imports(game, "play", true, &siblings), ["end", "ongoing"]);
    let mut edges = std::collections::BTreeMap::new();
    edges.insert("end".to_string(), vec!["game".to_string(), "ongoing".to_string()]);
    edges.insert("ongoing".to_string(), vec![]);
    assert_eq!(circle(&edges), None);
    edges.insert("game".to_string(), vec!["end".to_string()]);
    assert_eq!(circle(&edges), Some(vec!["end".to_string(), "game".to_string()]));
}

/// A command's file (one with a `run`) imports no other command's file:
/// what commands share lives in files of its own.
#[test]
fn commands_borrow_nothing_from_each_other() {
    let cli = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/cli");
    let mut texts = std::collections::BTreeMap::new();
    for e in std::fs::read_dir(&cli).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "rs") && p.file_stem().is_some_and(|n| n != "mod") {
            let name = p.file_stem().unwrap().to_string_lossy().into_owned();
            texts.insert(name, std::fs::read_to_string(&p).unwrap());
        }
    }
    let commands: Vec<String> = texts
        .iter()
        .filter(|(_, t)| t.contains("pub(super) fn run("))
        .map(|(n, _)| n.clone())
        .collect();
    assert!(commands.len() > 10, "only {} commands found", commands.len());
    let mut borrowed = vec![];
    for c in &commands {
        for other in sibling_imports(&texts[c], "cli", true, &commands) {
            if other != *c {
                borrowed.push(format!("{c} imports {other}"));
            }
        }
    }
    assert!(
        borrowed.is_empty(),
        "commands borrowing from commands:\n{}",
        borrowed.join("\n")
    );
}

/// The library keeps no global state: no `static` (beyond constants), no
/// thread-local, no global allocator outside its unit tests, so two
/// programs in one process never see each other's pieces, counters or
/// caches.
#[test]
fn the_library_keeps_no_global_state() {
    let src = core_src();
    let mut files = vec![];
    sources(&src, &mut files);
    let mut found = vec![];
    for f in &files {
        let rel = f.strip_prefix(&src).unwrap();
        if rel == Path::new("testing.rs") || f.file_name().is_some_and(|n| n == "tests.rs") {
            continue;
        }
        let text = std::fs::read_to_string(f).unwrap();
        for (at, line) in global_state(&text) {
            found.push(format!("{}:{at}: {line}", rel.display()));
        }
    }
    assert!(files.len() > 40, "only {} files read", files.len());
    assert!(found.is_empty(), "global state in the library:\n{}", found.join("\n"));
}

/// The lines of `text` outside its unit tests that make global state.
fn global_state(text: &str) -> Vec<(usize, String)> {
    let code = text.split("#[cfg(test)]\nmod tests").next().unwrap();
    code.lines()
        .enumerate()
        .filter(|(_, l)| {
            let l = l.trim_start();
            !l.starts_with("//")
                && (l.starts_with("static ")
                    || l.starts_with("pub static ")
                    || l.starts_with("pub(crate) static ")
                    || l.contains("thread_local!")
                    || l.contains("#[global_allocator]"))
        })
        .map(|(i, l)| (i + 1, l.trim().to_string()))
        .collect()
}

#[test]
fn the_global_state_check_sees_a_static() {
    let text = "const A: u8 = 1;\nstatic REG: OnceLock<u8> = OnceLock::new();\nfn f() {\n    thread_local! { static X: u8 = 0; }\n}\n#[cfg(test)]\nmod tests {\n    static SEEN: u8 = 0;\n}\n";
    let found: Vec<usize> = global_state(text).into_iter().map(|(at, _)| at).collect();
    assert_eq!(found, [2, 4]);
}

/// The modules ARCHITECTURE.md's map gives a section (`- \`name\` — ...`
/// under "## Modules"), the command line's aside.
fn mapped_modules(map: &str) -> std::collections::BTreeSet<String> {
    let section = map.split("\n## Modules\n").nth(1).expect("a Modules section");
    let section = section.split("\n## ").next().unwrap();
    section
        .lines()
        .filter_map(|l| l.strip_prefix("- `"))
        .filter_map(|l| l.split_once('`').map(|(name, _)| name.to_string()))
        .filter(|name| name != "cli")
        .collect()
}

/// The modules `lib.rs` declares, the unit tests' helpers aside.
fn declared_modules(lib: &str) -> std::collections::BTreeSet<String> {
    lib.lines()
        .filter_map(|l| l.strip_prefix("pub mod ").or_else(|| l.strip_prefix("mod ")))
        .filter_map(|l| l.strip_suffix(';'))
        .filter(|name| *name != "testing")
        .map(str::to_string)
        .collect()
}

#[test]
fn the_map_has_a_section_for_every_module_and_no_other() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let map = std::fs::read_to_string(root.join("ARCHITECTURE.md")).unwrap();
    let lib = std::fs::read_to_string(core_src().join("lib.rs")).unwrap();
    let (mapped, declared) = (mapped_modules(&map), declared_modules(&lib));
    assert!(declared.len() > 15, "{declared:?}");
    assert_eq!(mapped, declared, "ARCHITECTURE.md's modules against lib.rs's");
    // The layers named in the invariant are the layers the import check
    // enforces.
    let invariant = map.split("\n## Architecture invariant\n").nth(1).unwrap();
    let named: Vec<&str> = invariant
        .split("lowest first:")
        .nth(1)
        .unwrap()
        .split(';')
        .next()
        .unwrap()
        .split('`')
        .skip(1)
        .step_by(2)
        .collect();
    assert_eq!(named, LAYERS, "the invariant's layers against LAYERS");
}

#[test]
fn the_map_check_sees_a_missing_module() {
    let map = "# A\n\n## Modules\n\n- `core` — the IR.\n- `cli` (root crate) — commands.\n\n## Tests\n- `x` — not a module.\n";
    let lib = "mod core;\npub mod puzzle;\n#[cfg(test)]\nmod testing;\n";
    assert_eq!(mapped_modules(map).into_iter().collect::<Vec<_>>(), ["core"]);
    assert_eq!(
        declared_modules(lib).into_iter().collect::<Vec<_>>(),
        ["core", "puzzle"]
    );
}
