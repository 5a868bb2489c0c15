//! The guide cannot drift: every example in `README.md` and `docs/*.md`
//! runs here, as a reader would run it, with its output checked.
//!
//! Fenced blocks say what they are:
//!
//! - ```` ```console ````: shell commands, each after `$ ` (a line ending
//!   with `\` goes on), each followed by the output it prints (stdout and
//!   stderr together). `algchess` is the binary built with these tests;
//!   commands run in a scratch folder of the page's own, outside the source
//!   tree, so the rule files, theorems and axioms they name are the
//!   binary's bundled ones. `⋯` in the output stands for any text within a
//!   line (a time), and a line of `⋯` alone for any number of lines. A
//!   command that fails must show its exit status (`; echo "exit status
//!   $?"`), so no example fails unseen.
//! - ```` ```alg file=NAME ````: a rule file, written to the scratch folder
//!   under NAME for the commands after it; without `file=`, a snippet.
//!   Each must elaborate and its claims come out as claimed (`algchess
//!   check`); ```` ```alg fails ```` must be refused (exit status 2), and
//!   ```` ```alg wrong ```` holds a claim that does not come out as
//!   claimed (exit status 1).
//! - ```` ```alg excerpt=PATH ````: lines quoted from a bundled file: each
//!   must be a line of it.
//! - ```` ```text file=NAME ```` (or `pgn`): data written to the scratch
//!   folder; other ```` ```text ```` blocks are pictures, not code.
//! - ```` ```sh ````: commands for a fresh machine (`cargo ...`), not run
//!   here; ```` ```rust ````: the library, compiled by its own doc tests.
//!
//! Paths in backticks that name the source tree's files (`rules/...`,
//! `algchess-core/src/...`) must exist.

use crate::common;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// A fenced block: its language, its info words, its text and the line
/// its fence opens on.
struct Block {
    lang: String,
    info: Vec<String>,
    text: String,
    line: usize,
}

impl Block {
    fn get(&self, key: &str) -> Option<&str> {
        self.info.iter().find_map(|w| w.strip_prefix(key)?.strip_prefix('='))
    }

    fn has(&self, flag: &str) -> bool {
        self.info.iter().any(|w| w == flag)
    }
}

fn blocks(md: &str) -> Vec<Block> {
    let mut out = vec![];
    let mut lines = md.lines().enumerate();
    while let Some((i, l)) = lines.next() {
        let Some(info) = l.strip_prefix("```") else { continue };
        let mut words = info.split_whitespace().map(str::to_string);
        let lang = words.next().unwrap_or_default();
        let info: Vec<String> = words.collect();
        let mut text = String::new();
        for (_, l) in lines.by_ref() {
            if l.starts_with("```") {
                break;
            }
            text.push_str(l);
            text.push('\n');
        }
        out.push(Block {
            lang,
            info,
            text,
            line: i + 1,
        });
    }
    out
}

/// The pages of the guide.
fn pages() -> Vec<PathBuf> {
    let mut pages = vec![Path::new(ROOT).join("README.md")];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(Path::new(ROOT).join("docs"))
        .expect("docs/ is there")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    docs.sort();
    pages.extend(docs);
    pages
}

/// A folder holding `algchess`, the binary under test, for `PATH`.
fn bin_dir() -> common::TempDir {
    let dir = common::TempDir::new("docs-bin");
    #[cfg(unix)]
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_algchess"), dir.path().join("algchess")).unwrap();
    dir
}

/// What a command printed, stdout and stderr together, and its status.
fn shell(dir: &Path, bin: &Path, command: &str) -> (String, Option<i32>) {
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap_or_default());
    let out = Command::new("sh")
        .arg("-c")
        .arg(format!("exec 2>&1\n{command}"))
        .current_dir(dir)
        .env("PATH", path)
        .env("NO_COLOR", "1")
        .env("DOCS", Path::new(ROOT).join("docs"))
        .stdin(Stdio::null())
        .output()
        .expect("sh runs");
    (String::from_utf8_lossy(&out.stdout).into_owned(), out.status.code())
}

/// Whether `line` is what `want` shows, `⋯` standing for any text.
fn line_matches(want: &str, line: &str) -> bool {
    let parts: Vec<&str> = want.split('⋯').collect();
    if parts.len() == 1 {
        return want == line;
    }
    let mut rest = line;
    for (k, p) in parts.iter().enumerate() {
        if k == 0 {
            let Some(r) = rest.strip_prefix(p) else { return false };
            rest = r;
        } else if k == parts.len() - 1 {
            return rest.ends_with(p);
        } else {
            let Some(at) = rest.find(p) else { return false };
            rest = &rest[at + p.len()..];
        }
    }
    true
}

/// Whether the lines `got` are what `want` shows; a line `⋯` alone
/// stands for any number of lines.
fn matches(want: &[&str], got: &[&str]) -> bool {
    match want.split_first() {
        None => got.is_empty(),
        Some((&"⋯", rest)) => (0..=got.len()).any(|k| matches(rest, &got[k..])),
        Some((w, rest)) => got
            .split_first()
            .is_some_and(|(g, more)| line_matches(w, g) && matches(rest, more)),
    }
}

fn trimmed(text: &str) -> Vec<&str> {
    let mut lines: Vec<&str> = text.lines().map(str::trim_end).collect();
    while lines.last() == Some(&"") {
        lines.pop();
    }
    lines
}

/// The commands of a console block, each with the output shown after it.
fn commands(text: &str) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = vec![];
    let mut continued = false;
    for l in text.lines() {
        if continued {
            let (cmd, _) = out.last_mut().unwrap();
            cmd.push('\n');
            cmd.push_str(l);
            continued = l.ends_with('\\');
        } else if let Some(c) = l.strip_prefix("$ ") {
            out.push((c.to_string(), String::new()));
            continued = c.ends_with('\\');
        } else if let Some((_, shown)) = out.last_mut() {
            shown.push_str(l);
            shown.push('\n');
        } else {
            panic!("console output before any command: {l}");
        }
    }
    out
}

/// Every path in backticks that names a file of the source tree.
fn cited_paths(md: &str) -> Vec<String> {
    const ROOTS: [&str; 9] = [
        "rules/",
        "theorems/",
        "axioms/",
        "tests/",
        "benches/",
        "src/",
        "algchess-core/",
        "docs/",
        "fuzz/",
    ];
    let mut out = vec![];
    for (k, piece) in md.split('`').enumerate() {
        if k % 2 == 0 || piece.contains(char::is_whitespace) || piece.contains(['*', '<', '{', '$']) {
            continue;
        }
        let path = piece.trim_end_matches([',', '.', ':', ')']);
        let path = path.split(':').next().unwrap_or(path);
        if ROOTS.iter().any(|r| path.starts_with(r)) && path.len() > 4 {
            out.push(path.to_string());
        }
    }
    out
}

#[test]
fn the_guide_runs_as_written() {
    let bin = bin_dir();
    let mut failures: Vec<String> = vec![];
    let (mut commands_run, mut files_checked, mut excerpts) = (0, 0, 0);
    for page in pages() {
        let md = std::fs::read_to_string(&page).unwrap();
        let name = page.strip_prefix(ROOT).unwrap().display().to_string();
        let scratch = common::TempDir::new(&format!("docs-{}", page.file_stem().unwrap().to_string_lossy()));
        let mut fail = |line: usize, what: String| failures.push(format!("{name}:{line}: {what}"));
        for path in cited_paths(&md) {
            if !Path::new(ROOT).join(&path).exists() {
                fail(0, format!("`{path}` is cited and does not exist"));
            }
        }
        for b in blocks(&md) {
            match b.lang.as_str() {
                "console" => {
                    for (cmd, shown) in commands(&b.text) {
                        commands_run += 1;
                        let (got, status) = shell(scratch.path(), bin.path(), &cmd);
                        if status != Some(0) && !cmd.contains("$?") {
                            fail(b.line, format!("`{cmd}` failed with status {status:?}:\n{got}"));
                        } else if !matches(&trimmed(&shown), &trimmed(&got)) {
                            fail(b.line, format!("`{cmd}` printed\n{got}\ninstead of\n{shown}"));
                        }
                    }
                }
                "alg" => {
                    if let Some(from) = b.get("excerpt") {
                        excerpts += 1;
                        let file = std::fs::read_to_string(Path::new(ROOT).join(from)).unwrap_or_default();
                        let lines: Vec<&str> = file.lines().map(str::trim).collect();
                        for l in b.text.lines().map(str::trim).filter(|l| !l.is_empty()) {
                            if !lines.contains(&l) {
                                fail(b.line, format!("`{l}` is not a line of {from}"));
                            }
                        }
                        continue;
                    }
                    files_checked += 1;
                    let file = b
                        .get("file")
                        .map_or_else(|| format!("snippet-{}.alg", b.line), str::to_string);
                    scratch.write(&file, &b.text);
                    let (got, status) = shell(
                        scratch.path(),
                        bin.path(),
                        &format!("algchess check {file} --positions 0 --no-lint"),
                    );
                    let want = if b.has("fails") {
                        Some(2)
                    } else if b.has("wrong") {
                        Some(1)
                    } else {
                        Some(0)
                    };
                    if status != want {
                        fail(
                            b.line,
                            format!("checking {file} gave status {status:?}, not {want:?}:\n{got}"),
                        );
                    }
                }
                "text" | "pgn" => {
                    if let Some(file) = b.get("file") {
                        scratch.write(file, &b.text);
                    }
                }
                "sh" => {
                    for l in b.text.lines() {
                        if l.trim_start().starts_with("algchess") {
                            fail(
                                b.line,
                                format!("`{l}` runs algchess: write it in a console block, with its output"),
                            );
                        }
                    }
                }
                "rust" => {}
                other => fail(b.line, format!("a fenced block must say what it is, not `{other}`")),
            }
        }
    }
    eprintln!("the guide: {commands_run} commands run, {files_checked} rule files checked, {excerpts} excerpts");
    assert!(
        failures.is_empty(),
        "{} failures:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
    assert!(commands_run > 0 && files_checked > 0);
}

#[test]
fn output_is_matched_with_elisions() {
    assert!(line_matches("summary: 3 claims [⋯]", "summary: 3 claims [12 ms]"));
    assert!(!line_matches("summary: 3 claims [⋯]", "summary: 4 claims [12 ms]"));
    assert!(line_matches("a ⋯ b ⋯ c", "a 1 b 2 c"));
    assert!(matches(&["x", "⋯", "z"], &["x", "1", "2", "z"]));
    assert!(matches(&["x", "⋯", "z"], &["x", "z"]));
    assert!(!matches(&["x", "z"], &["x", "y", "z"]));
    assert_eq!(
        commands("$ a \\\n  b\nout\n$ c\n"),
        vec![
            ("a \\\n  b".to_string(), "out\n".to_string()),
            ("c".to_string(), String::new())
        ]
    );
    assert_eq!(
        cited_paths("see `rules/chess.alg` and `src/x.rs:12`, not `u`"),
        ["rules/chess.alg", "src/x.rs"]
    );
}
