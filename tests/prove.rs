//! End-to-end tests of `algchess prove`: its JSON reports, the `--explain`
//! proofs and their `file:line` citations, the cross-check against
//! enumeration, custom `--axioms` directories, and bad input.
//!
//! Exit statuses: 0 when every claim is confirmed (`=` proved, `!=`
//! refuted), 1 when one is contradicted or unknown (an unknown passes with
//! `--allow-unknown`), 2 on bad input.

use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::ffi::OsStr;
use std::fs;
use std::path::{Path, PathBuf};

mod common;

use common::{run, Out, TempDir};

const SEED: &str = "theorems/seed.alg";
const THEOREMS: &str = "theorems/";
const AXIOMS: &str = "axioms";

fn assert_no_panic(out: &Out) {
    assert!(!out.stderr.contains("panicked"), "the binary panicked:\n{}", out.stderr);
}

/// Checks the fields every `prove --json` report has, and that they agree
/// with each other.
fn check_fields(r: &Value) {
    let obj = r.as_object().unwrap_or_else(|| panic!("a report is an object: {r}"));
    for key in [
        "name",
        "relation",
        "verdict",
        "counterexample",
        "cells",
        "ms",
        "proof_steps",
        "egraph_nodes",
        "iterations",
    ] {
        assert!(obj.contains_key(key), "missing `{key}`: {r}");
    }
    assert!(r["name"].is_string(), "name: {r}");
    let rel = r["relation"].as_str().expect("relation is a string");
    assert!(rel == "=" || rel == "!=", "relation: {r}");
    let verdict = r["verdict"].as_str().expect("verdict is a string");
    assert!(["proved", "refuted", "unknown"].contains(&verdict), "verdict: {r}");
    let cx = &r["counterexample"];
    assert!(cx.is_object() || cx.is_null(), "counterexample: {r}");
    if verdict == "refuted" {
        assert!(cx.is_object(), "a refuted claim has a counterexample: {r}");
    } else {
        assert!(cx.is_null(), "only a refuted claim has a counterexample: {r}");
    }
    assert!(r["cells"].is_u64(), "cells: {r}");
    assert!(r["ms"].is_u64(), "ms: {r}");
    assert!(r["egraph_nodes"].is_u64(), "egraph_nodes: {r}");
    assert!(r["iterations"].is_u64(), "iterations: {r}");
    if verdict == "proved" {
        assert!(r["proof_steps"].is_u64(), "a proof has a step count: {r}");
    } else {
        assert!(r["proof_steps"].is_null(), "no proof, no step count: {r}");
    }
}

/// `prove --json` on the bundled theorems, with 200 positions and `extra`.
/// Every limit is one of work, so a busy machine gives the verdicts of an
/// idle one.
fn prove_bundled(extra: &[&str]) -> (Option<i32>, Vec<Value>) {
    let mut args = vec![THEOREMS, "--positions", "200"];
    args.extend_from_slice(extra);
    prove_json(&os(&args))
}

/// Runs `prove --json` with `args`, checks every line is a well-formed
/// report and the last the summary, and returns the exit status and the
/// reports.
fn prove_json(args: &[&OsStr]) -> (Option<i32>, Vec<Value>) {
    let (code, reports, _) = prove_json_summary(args);
    (code, reports)
}

/// As `prove_json`, with the summary object.
fn prove_json_summary(args: &[&OsStr]) -> (Option<i32>, Vec<Value>, Value) {
    let mut all: Vec<&OsStr> = vec![OsStr::new("prove"), OsStr::new("--json")];
    all.extend_from_slice(args);
    let out = run(&all);
    assert_no_panic(&out);
    let mut reports: Vec<Value> = out
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not one JSON object per line ({e}): {l}")))
        .collect();
    let summary = reports.pop().expect("a summary line");
    for r in &reports {
        check_fields(r);
    }
    let s = &summary["summary"];
    assert_eq!(s["claims"].as_u64(), Some(reports.len() as u64), "{summary}");
    for verdict in ["proved", "refuted", "unknown"] {
        let n = reports.iter().filter(|r| r["verdict"] == verdict).count() as u64;
        assert_eq!(s[verdict].as_u64(), Some(n), "`{verdict}` in {summary}");
    }
    let agree = reports.iter().filter(|r| confirmed(r)).count() as u64;
    assert_eq!(s["agree"].as_u64(), Some(agree), "{summary}");
    assert_eq!(
        s["disagree"].as_u64().unwrap() + s["unknown"].as_u64().unwrap(),
        reports.len() as u64 - agree,
        "{summary}"
    );
    assert_eq!(s["exit"].as_i64(), out.code.map(i64::from), "{summary}");
    (out.code, reports, summary)
}

/// The claims' accounts in text output: everything before the summary line.
fn accounts(stdout: &str) -> String {
    let last = stdout.lines().last().unwrap_or("");
    assert!(last.starts_with("summary: "), "the summary ends the output: {stdout}");
    stdout
        .lines()
        .filter(|l| !l.starts_with("summary: "))
        .collect::<Vec<_>>()
        .join("\n")
}

fn os<'a>(args: &'a [&'a str]) -> Vec<&'a OsStr> {
    args.iter().map(OsStr::new).collect()
}

fn report<'a>(reports: &'a [Value], name: &str) -> &'a Value {
    reports
        .iter()
        .find(|r| r["name"] == name)
        .unwrap_or_else(|| panic!("no report for {name} in {reports:?}"))
}

fn confirmed(r: &Value) -> bool {
    matches!(
        (r["relation"].as_str(), r["verdict"].as_str()),
        (Some("="), Some("proved")) | (Some("!="), Some("refuted"))
    )
}

/// The two sides of the claim `name` as written in `file` (one line, one
/// relation).
fn claim_sides(file: &str, name: &str) -> (String, String) {
    let text = fs::read_to_string(file).expect("read the theorem file");
    let prefix = format!("theorem {name}:");
    let line = text
        .lines()
        .find(|l| l.starts_with(&prefix))
        .unwrap_or_else(|| panic!("no `{prefix}` in {file}"));
    let body = &line[prefix.len()..];
    let (l, r) = body
        .split_once(" != ")
        .or_else(|| body.split_once(" = "))
        .unwrap_or_else(|| panic!("no relation in {line}"));
    (l.trim().to_string(), r.trim().to_string())
}

/// How a proof step is justified.
#[derive(Debug, Clone, PartialEq, Eq)]
enum By {
    Normalisation,
    /// Choices compared as sets, under the laws named.
    Choices(Vec<String>),
    /// Both terms have one normal form.
    Decided,
    /// Equal by Kleene algebra with tests, with the hypotheses listed.
    Kat(Vec<String>),
    /// Equal on every board of the box around the sides' windows.
    Window,
    Law {
        name: String,
        reversed: bool,
        file: String,
        line: usize,
    },
}

/// One numbered step of a rendered proof.
#[derive(Debug, Clone)]
struct Step {
    index: usize,
    term: String,
    by: Option<By>,
}

fn step_line(line: &str) -> Option<(usize, String)> {
    let t = line.trim_start();
    let (n, term) = t.split_once(". ")?;
    let index = n.parse().ok()?;
    Some((index, term.to_string()))
}

fn by_line(line: &str) -> Option<By> {
    let t = line.trim_start().strip_prefix("by ")?;
    if t == "normalisation" {
        return Some(By::Normalisation);
    }
    if t == "normal forms" {
        return Some(By::Decided);
    }
    if t.starts_with("enumeration: decided on every board of up to ") {
        return Some(By::Window);
    }
    if let Some(rest) = t.strip_prefix("KAT") {
        assert!(rest.is_empty() || rest == ", with hypotheses", "{line}");
        return Some(By::Kat(vec![]));
    }
    if let Some(laws) = t.strip_prefix("choices as a set (") {
        let laws = laws
            .strip_suffix(')')
            .unwrap_or_else(|| panic!("`(LAWS)` expected: {line}"));
        return Some(By::Choices(laws.split(", ").map(String::from).collect()));
    }
    let (law, rest) = t
        .split_once(", ")
        .unwrap_or_else(|| panic!("`by LAW, FILE:LINE` expected: {line}"));
    let (name, reversed) = match law.strip_suffix(" (right to left)") {
        Some(n) => (n, true),
        None => (law, false),
    };
    let location = rest.split(", where ").next().expect("a location");
    let (file, n) = location
        .rsplit_once(':')
        .unwrap_or_else(|| panic!("`FILE:LINE` expected: {line}"));
    let line_no = n
        .parse()
        .unwrap_or_else(|_| panic!("a line number expected after `{file}:`: {line}"));
    Some(By::Law {
        name: name.to_string(),
        reversed,
        file: file.to_string(),
        line: line_no,
    })
}

/// Parses the step lines and `by` lines at the start of `lines`, stopping
/// at the first line that is neither.
/// `H1. TEXT`: a hypothesis of the KAT step above.
fn hypothesis_line(line: &str) -> Option<String> {
    let t = line.trim_start().strip_prefix('H')?;
    let (n, text) = t.split_once(". ")?;
    n.parse::<usize>().ok()?;
    Some(text.to_string())
}

fn parse_steps<'a>(lines: impl IntoIterator<Item = &'a str>) -> Vec<Step> {
    let mut steps: Vec<Step> = vec![];
    for l in lines {
        if let Some(h) = hypothesis_line(l) {
            match steps.last_mut().and_then(|s| s.by.as_mut()) {
                Some(By::Kat(hs)) => hs.push(h),
                _ => panic!("a hypothesis outside a KAT step: {l}"),
            }
        } else if let Some(by) = by_line(l) {
            let last = steps.last_mut().unwrap_or_else(|| panic!("`by` before any step: {l}"));
            assert!(last.by.is_none(), "two `by` lines for one step: {l}");
            last.by = Some(by);
        } else if let Some((index, term)) = step_line(l) {
            steps.push(Step { index, term, by: None });
        } else {
            break;
        }
    }
    steps
}

/// Checks the shape of a proof: steps numbered from 0, step 0 without a
/// justification, every later step with one; returns the steps.
fn check_proof_shape(steps: &[Step], proof_steps: u64, what: &str) {
    assert_eq!(
        steps.len() as u64,
        proof_steps + 1,
        "{what}: `proof_steps` counts the steps after 0: {steps:?}"
    );
    for (i, s) in steps.iter().enumerate() {
        assert_eq!(s.index, i, "{what}: steps are numbered from 0: {steps:?}");
        assert!(!s.term.is_empty(), "{what}: step {i} has a term");
        if i == 0 {
            assert!(s.by.is_none(), "{what}: step 0 is the claim's left side: {s:?}");
        } else {
            assert!(s.by.is_some(), "{what}: step {i} has a `by` line: {steps:?}");
        }
    }
}

/// Checks that a cited `FILE:LINE` is the line where `axiom NAME:` starts.
fn assert_cites_axiom(name: &str, file: &str, line: usize) {
    let text = fs::read_to_string(file).unwrap_or_else(|e| panic!("cited file {file} (law {name}): {e}"));
    let at = text
        .lines()
        .nth(line.wrapping_sub(1))
        .unwrap_or_else(|| panic!("{file}:{line} is past the end of the file (law {name})"));
    assert!(
        at.starts_with(&format!("axiom {name}:")),
        "{file}:{line} should state `axiom {name}:`, but reads `{at}`"
    );
}

/// The laws a proof cites, each checked against its file.
fn check_citations(steps: &[Step]) -> BTreeSet<String> {
    let mut laws = BTreeSet::new();
    for s in steps {
        match &s.by {
            Some(By::Law { name, file, line, .. }) => {
                assert_cites_axiom(name, file, *line);
                laws.insert(name.clone());
            }
            Some(By::Choices(names)) => {
                let axioms: String = fs::read_dir("axioms")
                    .expect("the bundled axioms")
                    .map(|e| fs::read_to_string(e.unwrap().path()).unwrap())
                    .collect();
                for n in names {
                    assert!(axioms.contains(&format!("axiom {n}:")), "`{n}` is a bundled axiom");
                    laws.insert(n.clone());
                }
            }
            _ => {}
        }
    }
    laws
}

/// How the prover prints `expr`, read in the context of `defs_file`: the
/// step 0 of the proof of `expr = expr`.
fn printed(dir: &TempDir, defs_file: &str, exprs: &[&str]) -> Vec<String> {
    let mut text = fs::read_to_string(defs_file).expect("read the definitions");
    for (i, e) in exprs.iter().enumerate() {
        text.push_str(&format!("\ntheorem zz_printed_{i}: {e} = {e}\n"));
    }
    let path = dir.write("printed.alg", &text);
    let (code, reports) = prove_json(&[
        path.as_os_str(),
        OsStr::new("--explain"),
        OsStr::new("--only"),
        OsStr::new("zz_printed_"),
    ]);
    assert_eq!(code, Some(0), "`X = X` is proved: {reports:?}");
    (0..exprs.len())
        .map(|i| {
            let r = report(&reports, &format!("zz_printed_{i}"));
            assert_eq!(r["proof_steps"], 0, "`X = X` takes no step: {r}");
            let proof = r["proof"].as_str().expect("a proof string");
            let steps = parse_steps(proof.lines());
            assert_eq!(steps.len(), 1, "{proof}");
            steps[0].term.clone()
        })
        .collect()
}

type Board = Vec<String>;

fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .unwrap_or_else(|| panic!("expected an array of strings, got {v}"))
        .iter()
        .map(|s| {
            s.as_str()
                .unwrap_or_else(|| panic!("expected a string, got {s}"))
                .to_string()
        })
        .collect()
}

/// Runs `moves FILE --move EXPR --json` plus `extra` and returns the boards.
fn moves_json(file: &str, expr: &str, extra: &[&str]) -> BTreeSet<Board> {
    let mut args = vec!["moves", file, "--move", expr, "--json"];
    args.extend_from_slice(extra);
    let out = run(&args);
    assert_no_panic(&out);
    assert_eq!(out.code, Some(0), "moves {args:?} failed: {out:?}");
    let v: Value = serde_json::from_str(out.stdout.trim()).expect("moves --json prints JSON");
    v["results"]
        .as_array()
        .expect("`results` is an array")
        .iter()
        .map(strings)
        .collect()
}

fn side_boards(side: &Value) -> BTreeSet<Board> {
    side.as_array()
        .unwrap_or_else(|| panic!("a side is an array of states: {side}"))
        .iter()
        .map(|s| {
            assert!(s["poi"].is_null(), "a closed move leaves no POI: {s}");
            strings(&s["board"])
        })
        .collect()
}

/// Re-runs both sides of a closed claim on the counterexample's board with
/// `moves`, and checks they give exactly the reported result sets.
fn confirm_counterexample(file: &str, lhs: &str, rhs: &str, cx: &Value) {
    assert_eq!(cx["kind"], "board", "{cx}");
    assert!(cx["poi"].is_null(), "a closed claim's counterexample has no POI: {cx}");
    let rows = strings(&cx["board"]);
    assert!(!rows.is_empty(), "{cx}");
    let on_board = rows.iter().flat_map(|r| r.chars()).filter(|&c| c != '#').count();
    assert_eq!(cx["squares"].as_u64(), Some(on_board as u64), "{cx}");
    let joined = rows.join("/");
    let left = side_boards(&cx["left"]);
    let right = side_boards(&cx["right"]);
    assert_ne!(left, right, "a counterexample's sides differ: {cx}");
    let ran_left = moves_json(file, lhs, &["--board", &joined]);
    let ran_right = moves_json(file, rhs, &["--board", &joined]);
    assert_eq!(ran_left, left, "left side `{lhs}` on {rows:?}");
    assert_eq!(ran_right, right, "right side `{rhs}` on {rows:?}");
}

/// Asserts a bad-input exit: status 2, no panic, nothing on stdout, and
/// `needle` on stderr.
fn assert_bad_input(out: &Out, needle: &str) {
    assert_no_panic(out);
    assert_eq!(out.code, Some(2), "expected exit status 2: {out:?}");
    assert!(out.stdout.is_empty(), "nothing on stdout: {out:?}");
    assert!(
        out.stderr.contains(needle),
        "expected `{needle}` on stderr, got:\n{}",
        out.stderr
    );
}

/// An axioms directory holding only a comment.
fn empty_axioms(dir: &TempDir) -> PathBuf {
    let axioms = dir.path().join("axioms");
    dir.write("axioms/empty.alg", "// No laws at all.\n");
    axioms
}

// ---------------------------------------------------------------------------
// 1. Every bundled theorem, as JSON
// ---------------------------------------------------------------------------

#[test]
fn the_kat_suite_is_settled() {
    // theorems/kat/: claims of the kinds Kleene algebra with tests decides
    // (their truth is settled by the checker in tests/cli.rs). Every false
    // claim is refuted with a board, no verdict is wrong, and nearly every
    // true claim is proved.
    let (_, reports) = prove_json(&os(&["theorems/kat/"]));
    assert!(reports.len() >= 150, "{}", reports.len());
    let (mut true_claims, mut proved) = (0, 0);
    for r in &reports {
        let verdict = r["verdict"].as_str().unwrap();
        if r["relation"] == "=" {
            assert_ne!(verdict, "refuted", "{r}");
            true_claims += 1;
            proved += (verdict == "proved") as usize;
        } else {
            assert_eq!(verdict, "refuted", "{r}");
            assert!(r["counterexample"]["board"].is_array(), "{r}");
        }
    }
    assert!(proved * 100 >= true_claims * 95, "{proved} of {true_claims} proved");
}

#[test]
fn the_finite_suite_is_settled() {
    // theorems/finite/: claims with a finite effect or a finite fact
    // behind them, of four kinds, one file each (their truth is settled by
    // the checker in tests/cli.rs, without the window bound). Every false
    // claim is refuted with a board, no verdict is wrong, and at least 95%
    // of the true claims of each kind are proved.
    let mut kinds: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    let mut claims = 0;
    for kind in ["rules", "binders", "undo", "oneway"] {
        let file = format!("theorems/finite/{kind}.alg");
        let (_, reports) = prove_json(&os(&[&file]));
        claims += reports.len();
        for r in &reports {
            let verdict = r["verdict"].as_str().unwrap();
            if r["relation"] == "=" {
                assert_ne!(verdict, "refuted", "{r}");
                let k = kinds.entry(kind).or_default();
                k.0 += 1;
                k.1 += (verdict == "proved") as usize;
            } else {
                assert_eq!(verdict, "refuted", "{r}");
                assert!(r["counterexample"]["board"].is_array(), "{r}");
            }
        }
    }
    assert!(claims >= 100, "{claims}");
    assert_eq!(kinds.len(), 4, "{kinds:?}");
    for (kind, (true_claims, proved)) in &kinds {
        assert!(
            proved * 100 >= true_claims * 95,
            "{kind}: {proved} of {true_claims} proved"
        );
    }
}

/// Work, not time, bounds every default budget: the bundled theorems and
/// the two suites give the same JSON, timings aside, on one thread while
/// two busy threads load the machine as on every core of an idle one.
#[test]
fn verdicts_do_not_depend_on_threads_or_load() {
    let runs = |threads: Option<&str>, load: bool| -> Vec<String> {
        let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let busy: Vec<_> = (0..if load { 2 } else { 0 })
            .map(|_| {
                let stop = stop.clone();
                std::thread::spawn(move || {
                    let mut x = 0u64;
                    while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                        x = std::hint::black_box(x.wrapping_mul(6364136223846793005).wrapping_add(1));
                    }
                })
            })
            .collect();
        let mut lines = vec![];
        for dir in [THEOREMS, "theorems/kat/", "theorems/finite/"] {
            let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_algchess"));
            cmd.args(["prove", "--json", dir]);
            if let Some(t) = threads {
                cmd.env("RAYON_NUM_THREADS", t);
            }
            let out = cmd.output().expect("algchess runs");
            for line in String::from_utf8(out.stdout).expect("UTF-8").lines() {
                let mut v: Value = serde_json::from_str(line).expect("JSON");
                let o = if v.get("summary").is_some() {
                    &mut v["summary"]
                } else {
                    &mut v
                };
                o.as_object_mut().expect("an object").remove("ms");
                lines.push(v.to_string());
            }
        }
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
        busy.into_iter().for_each(|t| t.join().expect("a busy thread"));
        lines
    };
    let (idle, loaded) = (runs(None, false), runs(Some("1"), true));
    assert!(idle.len() >= 700, "{}", idle.len());
    for (a, b) in idle.iter().zip(&loaded) {
        assert_eq!(a, b, "idle and loaded runs differ");
    }
    assert_eq!(idle.len(), loaded.len());
}

#[test]
fn prove_theorems_json_confirms_every_claim() {
    let (code, reports) = prove_bundled(&[]);
    assert!(reports.len() >= 40, "at least 40 claims, got {}", reports.len());
    for r in &reports {
        assert!(confirmed(r), "every bundled claim is confirmed: {r}");
        let nodes = r["egraph_nodes"].as_u64().unwrap();
        assert!(nodes <= 100_000, "the e-graph stays small: {r}");
        if r["relation"] == "!=" {
            assert!(r["counterexample"].is_object(), "{r}");
        } else {
            assert!(r["proof_steps"].is_u64(), "{r}");
        }
        // Without --explain there is no proof text.
        assert!(r.get("proof").is_none(), "`proof` only with --explain: {r}");
    }
    // Chess claims are also checked on positions of play.
    assert_eq!(report(&reports, "legal_ply_leaves_no_check")["positions"], 200);
    let names: BTreeSet<&str> = reports.iter().map(|r| r["name"].as_str().unwrap()).collect();
    assert_eq!(names.len(), reports.len(), "one report per claim");
    assert!(names.contains("appendix_a"), "{names:?}");
    assert!(reports.iter().any(|r| r["relation"] == "="));
    assert!(reports.iter().any(|r| r["relation"] == "!="));
    assert_eq!(code, Some(0), "every claim confirmed: exit 0");
}

/// Every bundled proof replays (a proof that does not is not `proved`, and
/// says so in a note), cites its axioms where they stand, never shows a
/// term twice, and stays short where it is known to be short.
#[test]
fn every_cited_location_in_the_bundled_proofs_is_its_axiom() {
    let (code, reports) = prove_bundled(&["--explain"]);
    assert_eq!(code, Some(0));
    let mut cited = BTreeSet::new();
    let mut proofs = 0;
    // Claims whose proofs were once twice as long, and their lengths now.
    let short = [("optional_twice", 6), ("bind_nil_rook", 2), ("rook_moves_or_takes", 4)];
    for r in &reports {
        let name = r["name"].as_str().unwrap();
        assert!(
            !r["note"].as_str().unwrap_or("").contains("replay"),
            "{name}: every proof replays: {r}"
        );
        match r["verdict"].as_str() {
            Some("proved") => {
                let proof = r["proof"].as_str().unwrap_or_else(|| panic!("a proof string: {r}"));
                let steps = parse_steps(proof.lines());
                let hypotheses: usize = steps
                    .iter()
                    .map(|s| match &s.by {
                        Some(By::Kat(hs)) => hs.len(),
                        _ => 0,
                    })
                    .sum();
                assert_eq!(
                    proof.lines().count(),
                    2 * steps.len() - 1 + hypotheses,
                    "{name}: every line is a step, its `by` or a hypothesis of KAT:\n{proof}"
                );
                check_proof_shape(&steps, r["proof_steps"].as_u64().unwrap(), name);
                let terms: BTreeSet<&str> = steps.iter().map(|s| s.term.as_str()).collect();
                assert_eq!(terms.len(), steps.len(), "{name}: a term shown twice:\n{proof}");
                if let Some((_, most)) = short.iter().find(|(n, _)| *n == name) {
                    assert!(steps.len() - 1 <= *most, "{name}: more than {most} steps:\n{proof}");
                }
                cited.extend(check_citations(&steps));
                proofs += 1;
            }
            _ => assert!(r["proof"].is_null(), "no proof, `proof` is null: {r}"),
        }
    }
    assert!(proofs >= 20, "most bundled claims are proved: {proofs}");
    assert!(cited.len() >= 10, "the proofs use many laws: {cited:?}");
    for (name, _) in short {
        assert_eq!(report(&reports, name)["verdict"], "proved", "{name}");
    }
}

// ---------------------------------------------------------------------------
// 2. Appendix A, explained
// ---------------------------------------------------------------------------

#[test]
fn appendix_a_is_proved_and_explained() {
    let dir = TempDir::new("appendix_a_explain");
    let out = run(["prove", SEED, "--only", "appendix_a", "--explain"]);
    assert_no_panic(&out);
    assert_eq!(out.code, Some(0), "{out:?}");

    // The account of `appendix_a` and its proof.
    let lines: Vec<&str> = out.stdout.lines().collect();
    let head = lines
        .iter()
        .position(|l| l.contains(" appendix_a (=): "))
        .unwrap_or_else(|| panic!("no account of appendix_a:\n{}", out.stdout));
    assert!(
        lines[head].starts_with("✓ appendix_a (=): proved in "),
        "{}",
        lines[head]
    );
    let body = lines[head + 1..]
        .iter()
        .copied()
        .skip_while(|l| l.trim_start().starts_with("note:"));
    let steps = parse_steps(body);
    let claimed: u64 = lines[head]
        .split("proved in ")
        .nth(1)
        .and_then(|s| s.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("`proved in N steps`: {}", lines[head]));
    assert!(
        (3..=8).contains(&claimed),
        "Appendix A takes several steps, and no more than 8: {claimed}"
    );
    check_proof_shape(&steps, claimed, "appendix_a");
    for s in &steps[1..] {
        assert!(
            matches!(s.by, Some(By::Law { .. })),
            "every step of Appendix A is a law with `FILE:LINE`: {s:?}"
        );
    }
    let laws = check_citations(&steps);
    for law in ["range_unfold", "dist_left", "fuse"] {
        assert!(laws.contains(law), "the proof uses `{law}`: {laws:?}");
    }

    // The first and last terms are the two sides, as the prover prints them.
    let (lhs, rhs) = claim_sides(SEED, "appendix_a");
    let sides = printed(&dir, SEED, &[&lhs, &rhs]);
    assert!(steps[0].term.contains("%♖:"), "{:?}", steps[0]);
    assert_eq!(steps[0].term, sides[0], "step 0 is the left side");
    assert_eq!(steps.last().unwrap().term, sides[1], "the last step is the right side");
    assert_ne!(sides[0], sides[1]);

    // --json --explain: the same proof in a `proof` string.
    let (code, reports) = prove_json(&os(&[SEED, "--only", "appendix_a", "--explain"]));
    assert_eq!(code, Some(0));
    let r = report(&reports, "appendix_a");
    assert_eq!(r["verdict"], "proved", "{r}");
    assert_eq!(r["proof_steps"].as_u64(), Some(claimed), "{r}");
    let proof = r["proof"].as_str().expect("a `proof` string");
    assert!(
        out.stdout.contains(proof),
        "the text and JSON proofs are the same:\n{proof}"
    );
    let json_steps = parse_steps(proof.lines());
    assert_eq!(json_steps.len(), steps.len());
    for (a, b) in json_steps.iter().zip(&steps) {
        assert_eq!((a.index, &a.term, &a.by), (b.index, &b.term, &b.by));
    }
    // The refuted claim beside it has no proof.
    let twice = report(&reports, "appendix_a_twice_is_not_the_choice");
    assert!(twice["proof"].is_null(), "{twice}");
}

#[test]
fn citations_follow_a_custom_axioms_directory() {
    // The bundled axioms, shifted down three lines, with `fuse` stated over
    // two lines: every citation must point into the copy, at the line where
    // its axiom starts.
    let dir = TempDir::new("shifted_axioms");
    let mut split_fuse = false;
    for entry in fs::read_dir(AXIOMS).expect("read axioms/") {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|x| x != "alg") {
            continue;
        }
        let text = fs::read_to_string(&path).unwrap();
        let mut shifted = String::from("// A copy of the bundled axioms,\n\n// shifted by three lines.\n");
        for line in text.lines() {
            match line.strip_prefix("axiom fuse: ") {
                Some(rest) => {
                    split_fuse = true;
                    shifted.push_str(&format!("axiom fuse:\n    {rest}\n"));
                }
                None => {
                    shifted.push_str(line);
                    shifted.push('\n');
                }
            }
        }
        let name = path.file_name().unwrap().to_str().unwrap().to_string();
        dir.write(&format!("axioms/{name}"), &shifted);
    }
    assert!(split_fuse, "the bundled axioms state `fuse` on one line");
    let axioms = dir.path().join("axioms");
    let (code, reports) = prove_json(&[
        OsStr::new(SEED),
        OsStr::new("--only"),
        OsStr::new("appendix_a"),
        OsStr::new("--explain"),
        OsStr::new("--axioms"),
        axioms.as_os_str(),
    ]);
    assert_eq!(code, Some(0), "{reports:?}");
    let r = report(&reports, "appendix_a");
    assert_eq!(r["verdict"], "proved", "{r}");
    let steps = parse_steps(r["proof"].as_str().unwrap().lines());
    check_proof_shape(&steps, r["proof_steps"].as_u64().unwrap(), "appendix_a");
    for s in &steps[1..] {
        let Some(By::Law { file, .. }) = &s.by else {
            panic!("a law step: {s:?}")
        };
        assert!(Path::new(file).starts_with(&axioms), "cites the copy: {file}");
    }
    let laws = check_citations(&steps);
    assert!(laws.contains("fuse"), "{laws:?}");
}

// ---------------------------------------------------------------------------
// 3. The refuted half of Appendix A
// ---------------------------------------------------------------------------

#[test]
fn appendix_a_twice_is_refuted_by_a_real_board() {
    let name = "appendix_a_twice_is_not_the_choice";
    let (code, reports) = prove_json(&os(&[SEED, "--only", name]));
    assert_eq!(reports.len(), 1, "{reports:?}");
    let r = report(&reports, name);
    assert_eq!(r["relation"], "!=", "{r}");
    assert_eq!(r["verdict"], "refuted", "{r}");
    assert_eq!(code, Some(0), "a refuted `!=` is confirmed");
    let (lhs, rhs) = claim_sides(SEED, name);
    assert!(lhs.contains("A{2}"), "{lhs}");
    confirm_counterexample(SEED, &lhs, &rhs, &r["counterexample"]);
}

// ---------------------------------------------------------------------------
// 4. Claims that are false, or out of reach
// ---------------------------------------------------------------------------

#[test]
fn a_false_equation_is_refuted_and_exits_1() {
    let dir = TempDir::new("false_equation");
    let lhs = "(♙ + u. -> . + u♙) (♙ + u. -> . + u♙)";
    let rhs = "♙ + u. + uu. -> . + u. + uu♙";
    let file = dir.write("wrong.alg", &format!("theorem wrong: {lhs} = {rhs}\n"));
    let (code, reports) = prove_json(&[file.as_os_str()]);
    assert_eq!(reports.len(), 1);
    let r = report(&reports, "wrong");
    assert_eq!(r["verdict"], "refuted", "{r}");
    assert_eq!(code, Some(1), "a contradicted claim exits 1");
    confirm_counterexample(file.to_str().unwrap(), lhs, rhs, &r["counterexample"]);

    let text = run([OsStr::new("prove"), file.as_os_str()]);
    assert_no_panic(&text);
    assert_eq!(text.code, Some(1));
    assert!(text.stdout.starts_with("✗ wrong (=): refuted"), "{}", text.stdout);
    assert!(!accounts(&text.stdout).contains("proved"), "{}", text.stdout);
}

#[test]
fn a_false_inequation_is_proved_and_exits_1() {
    let dir = TempDir::new("false_inequation");
    let file = dir.write(
        "ne.alg",
        "theorem t: %♖: (% + u. -> . + u%){2} != %♖: (% + u. + uu. -> . + u. + uu%)\n",
    );
    let (code, reports) = prove_json(&[file.as_os_str(), OsStr::new("--explain")]);
    let r = report(&reports, "t");
    assert_eq!(r["relation"], "!=", "{r}");
    assert_eq!(r["verdict"], "proved", "the two sides are equal: {r}");
    assert!(r["counterexample"].is_null(), "{r}");
    let steps = parse_steps(r["proof"].as_str().expect("a proof").lines());
    check_proof_shape(&steps, r["proof_steps"].as_u64().unwrap(), "t");
    // The two steps fuse, by the axiom, in the normal forms, or on every
    // board of the rook's window.
    assert!(
        check_citations(&steps).contains("fuse")
            || steps.iter().any(|s| matches!(s.by, Some(By::Decided | By::Window))),
        "{steps:?}"
    );
    assert_eq!(code, Some(1), "a `!=` claim shown equal is contradicted");

    let text = run([OsStr::new("prove"), file.as_os_str()]);
    assert_eq!(text.code, Some(1));
    assert!(text.stdout.starts_with("✗ t (!=): proved"), "{}", text.stdout);
}

#[test]
fn a_true_claim_out_of_reach_is_unknown_and_exits_1() {
    let dir = TempDir::new("out_of_reach");
    let file = dir.write("hard.alg", "theorem hard: M{3} = M M M\n");

    // With the default limits it is proved, in one step by KAT...
    let (code, reports) = prove_json(&[file.as_os_str()]);
    let r = report(&reports, "hard");
    assert_eq!(r["verdict"], "proved", "{r}");
    assert_eq!(r["proof_steps"].as_u64(), Some(1), "{r}");
    assert_eq!(code, Some(0));
    // ...and without KAT by saturation, in several...
    let (_, reports) = prove_json(&[file.as_os_str(), OsStr::new("--kat-limit"), OsStr::new("0")]);
    let r = report(&reports, "hard");
    assert_eq!(r["verdict"], "proved", "{r}");
    assert!(r["proof_steps"].as_u64().unwrap() >= 3, "several steps: {r}");

    // ...but not within one iteration and 50 nodes, and it is true, so
    // there is no counterexample either.
    let tight = [
        file.as_os_str(),
        OsStr::new("--kat-limit"),
        OsStr::new("0"),
        OsStr::new("--iter-limit"),
        OsStr::new("1"),
        OsStr::new("--node-limit"),
        OsStr::new("50"),
    ];
    let (code, reports) = prove_json(&tight);
    let r = report(&reports, "hard");
    assert_eq!(r["verdict"], "unknown", "{r}");
    assert!(r["counterexample"].is_null() && r["proof_steps"].is_null(), "{r}");
    assert!(r["stop"].is_string(), "why saturation stopped: {r}");
    assert_eq!(code, Some(1), "unknown exits 1");

    let mut args = vec![OsStr::new("prove")];
    args.extend_from_slice(&tight);
    let text = run(&args);
    assert_no_panic(&text);
    assert_eq!(text.code, Some(1));
    assert!(text.stdout.starts_with("✗ hard (=): unknown"), "{}", text.stdout);
    // The limit that stopped saturation is named.
    assert!(
        text.stdout.contains("saturation stopped: ") && text.stdout.contains("limit"),
        "{}",
        text.stdout
    );
    assert!(
        text.stdout
            .lines()
            .last()
            .unwrap()
            .starts_with("summary: 1 claim: 0 proved, 0 refuted, 1 unknown; 0 as claimed, 1 unknown ["),
        "{}",
        text.stdout
    );

    // --allow-unknown lets it pass, but not a refuted claim beside it.
    args.push(OsStr::new("--allow-unknown"));
    let allowed = run(&args);
    assert_eq!(allowed.code, Some(0), "{allowed:?}");
    assert!(allowed.stdout.contains("1 unknown, allowed"), "{}", allowed.stdout);
    let both = dir.write("both.alg", "theorem hard: M{3} = M M M\ntheorem wrong: u = d\n");
    let mut with_wrong = tight.to_vec();
    with_wrong[0] = both.as_os_str();
    with_wrong.push(OsStr::new("--allow-unknown"));
    let (code, reports, summary) = prove_json_summary(&with_wrong);
    assert_eq!(code, Some(1), "{reports:?}");
    assert_eq!(summary["summary"]["unknown"], 1, "{summary}");
    assert_eq!(summary["summary"]["disagree"], 1, "{summary}");
}

#[test]
fn iter_limit_bounds_the_iterations() {
    let dir = TempDir::new("iter_limit");
    let file = dir.write("hard.alg", "theorem hard: M{3} = M M M\n");
    for limit in [1u64, 2] {
        let n = limit.to_string();
        let (_, reports) = prove_json(&[file.as_os_str(), OsStr::new("--iter-limit"), OsStr::new(&n)]);
        let r = report(&reports, "hard");
        assert!(
            r["iterations"].as_u64().unwrap() <= limit,
            "--iter-limit {limit}: at most {limit} iterations: {r}"
        );
    }
}

// ---------------------------------------------------------------------------
// 4b. Positions reachable in play
// ---------------------------------------------------------------------------

const CHESS_THEOREMS: &str = "theorems/chess.alg";

#[test]
fn a_position_confirms_an_inequation_small_boards_cannot() {
    let name = "castle_short_mirrored_is_not_long";
    let (code, reports) = prove_json(&os(&[
        CHESS_THEOREMS,
        "--only",
        name,
        "--max-cells",
        "1",
        "--work",
        "10000",
        "--no-sparse",
        "--positions",
        "20",
    ]));
    assert_eq!(code, Some(0), "{reports:?}");
    let r = report(&reports, name);
    assert_eq!(r["verdict"], "refuted", "{r}");
    assert_eq!(r["refuted_on"], "position", "{r}");
    assert_eq!(r["counterexample"]["position"], "Kiwipete", "{r}");
}

#[test]
fn a_position_refutes_a_false_equation() {
    let dir = TempDir::new("positions_refute");
    let rules = Path::new(env!("CARGO_MANIFEST_DIR")).join("rules/chess.alg");
    let file = dir.write(
        "main.alg",
        &format!(
            "import \"{}\"\ntheorem pseudo_legal: white = clear_ep white_move\n",
            rules.display()
        ),
    );
    let args = [
        file.as_os_str(),
        OsStr::new("--max-cells"),
        OsStr::new("1"),
        OsStr::new("--work"),
        OsStr::new("10000"),
        OsStr::new("--no-sparse"),
        OsStr::new("--positions"),
        OsStr::new("300"),
    ];
    let (code, reports) = prove_json(&args);
    assert_eq!(code, Some(1), "{reports:?}");
    let r = report(&reports, "pseudo_legal");
    assert_eq!(r["verdict"], "refuted", "{r}");
    assert_eq!(r["refuted_on"], "position", "{r}");
    assert!(r["counterexample"]["fen"].is_string(), "{r}");

    let mut text_args = vec![OsStr::new("prove")];
    text_args.extend_from_slice(&args);
    let text = run(&text_args);
    assert_eq!(text.code, Some(1));
    assert!(
        text.stdout
            .starts_with("✗ pseudo_legal (=): refuted on a reachable position"),
        "{}",
        text.stdout
    );
}

// ---------------------------------------------------------------------------
// 5. Custom axioms
// ---------------------------------------------------------------------------

#[test]
fn without_axioms_appendix_a_is_decided_on_its_window() {
    let dir = TempDir::new("empty_axioms");
    let axioms = empty_axioms(&dir);
    let (code, reports) = prove_json(&[
        OsStr::new(SEED),
        OsStr::new("--only"),
        OsStr::new("appendix_a"),
        OsStr::new("--axioms"),
        axioms.as_os_str(),
    ]);
    // No laws, so no rewriting; the rook's moves are anchored, so every
    // board that bears on them is enumerated: a decision all the same.
    let r = report(&reports, "appendix_a");
    assert_eq!(r["verdict"], "proved", "{r}");
    assert_eq!(r["proof_steps"], 1, "{r}");
    assert_eq!(r["bound"]["width"], 1, "{r}");
    assert_eq!(code, Some(0));
    // The `!=` claim beside it needs no laws.
    let twice = report(&reports, "appendix_a_twice_is_not_the_choice");
    assert_eq!(twice["verdict"], "refuted", "{twice}");
}

#[test]
fn an_unsound_axiom_is_caught_by_the_cross_check() {
    let dir = TempDir::new("unsound_axiom");
    dir.write(
        "axioms/bad.alg",
        "// Unsound: with no square holding p, `%p: nil` has no result.\naxiom bad: %p: nil => nil\n",
    );
    let axioms = dir.path().join("axioms");
    let file = dir.write("t.alg", "theorem t: %♖: nil = nil\n");
    let (code, reports) = prove_json(&[file.as_os_str(), OsStr::new("--axioms"), axioms.as_os_str()]);
    let r = report(&reports, "t");
    assert_ne!(r["verdict"], "proved", "a false claim is never proved: {r}");
    assert_eq!(r["verdict"], "refuted", "{r}");
    let note = r["note"].as_str().unwrap_or_else(|| panic!("a note: {r}"));
    assert!(note.contains("unsound"), "the note blames an axiom: {note}");
    let cx = &r["counterexample"];
    assert_eq!(cx["kind"], "board", "{cx}");
    assert_ne!(cx["left"], cx["right"], "{cx}");
    assert_eq!(code, Some(1));

    let text = run([
        OsStr::new("prove"),
        file.as_os_str(),
        OsStr::new("--axioms"),
        axioms.as_os_str(),
        OsStr::new("--explain"),
    ]);
    assert_no_panic(&text);
    assert_eq!(text.code, Some(1));
    assert!(!accounts(&text.stdout).contains("proved"), "{}", text.stdout);
    assert!(text.stdout.contains("unsound"), "{}", text.stdout);

    // Without the bad axiom the claim is simply refuted.
    let sound = run([OsStr::new("prove"), file.as_os_str()]);
    assert_eq!(sound.code, Some(1));
    assert!(sound.stdout.starts_with("✗ t (=): refuted"), "{}", sound.stdout);
}

#[test]
fn an_unsound_axiom_is_not_proved_when_the_cross_check_is_cut_short() {
    let dir = TempDir::new("unsound_timeout");
    dir.write("axioms/bad.alg", "axiom bad: %p: nil => nil\n");
    let axioms = dir.path().join("axioms");
    let file = dir.write("t.alg", "theorem t: %♖: nil = nil\n");
    let (code, reports) = prove_json(&[
        file.as_os_str(),
        OsStr::new("--axioms"),
        axioms.as_os_str(),
        OsStr::new("--timeout"),
        OsStr::new("0"),
    ]);
    let r = report(&reports, "t");
    assert_ne!(
        r["verdict"], "proved",
        "a false claim checked on no board is not `proved`: {r}"
    );
    assert_eq!(code, Some(1), "{r}");
}

#[test]
fn a_syntax_error_in_an_axiom_file_exits_2_with_its_location() {
    let dir = TempDir::new("axiom_syntax");
    dir.write(
        "axioms/broken.alg",
        "// One good law, then a broken one.\naxiom seq_nil_left: nil M => M\naxiom broken: M | = M\n",
    );
    let axioms = dir.path().join("axioms");
    let out = run([
        OsStr::new("prove"),
        OsStr::new(SEED),
        OsStr::new("--axioms"),
        axioms.as_os_str(),
    ]);
    let location = format!("{}:3:19", axioms.join("broken.alg").display());
    assert_bad_input(&out, &location);
}

#[test]
fn a_theorem_in_an_axiom_file_is_rejected() {
    let dir = TempDir::new("axiom_theorem");
    dir.write(
        "axioms/mixed.alg",
        "axiom seq_nil_left: nil M => M\ntheorem oops: nil = nil\n",
    );
    let axioms = dir.path().join("axioms");
    let out = run([
        OsStr::new("prove"),
        OsStr::new(SEED),
        OsStr::new("--axioms"),
        axioms.as_os_str(),
    ]);
    let location = format!("{}:2:1", axioms.join("mixed.alg").display());
    assert_bad_input(&out, &location);
    assert!(out.stderr.contains("axiom"), "{}", out.stderr);
}

#[test]
fn a_missing_axioms_directory_or_duplicate_axiom_exits_2() {
    let dir = TempDir::new("axioms_missing");
    let missing = dir.path().join("no-such-dir");
    let out = run([
        OsStr::new("prove"),
        OsStr::new(SEED),
        OsStr::new("--axioms"),
        missing.as_os_str(),
    ]);
    assert_bad_input(&out, "cannot read the axioms");

    dir.write("dup/a.alg", "axiom twice: nil M => M\naxiom twice: M nil => M\n");
    let dup = dir.path().join("dup");
    let out = run([
        OsStr::new("prove"),
        OsStr::new(SEED),
        OsStr::new("--axioms"),
        dup.as_os_str(),
    ]);
    assert_bad_input(&out, &format!("{}:2:1", dup.join("a.alg").display()));
    assert!(out.stderr.contains("twice"), "{}", out.stderr);
}

// ---------------------------------------------------------------------------
// 6. Help and bad input
// ---------------------------------------------------------------------------

#[test]
fn prove_help_lists_the_flags() {
    let out = run(["prove", "--help"]);
    assert_no_panic(&out);
    assert_eq!(out.code, Some(0), "{out:?}");
    for flag in [
        "--axioms",
        "--explain",
        "--json",
        "--iter-limit",
        "--node-limit",
        "--time-limit",
        "--max-cells",
        "--work",
        "--kat-work",
        "--timeout",
        "--only",
        "--positions",
        "--allow-unknown",
        "--shard",
    ] {
        assert!(out.stdout.contains(flag), "`{flag}` in the help:\n{}", out.stdout);
    }
}

#[test]
fn bad_flag_values_exit_2_without_a_panic() {
    for (flag, value, needle) in [
        ("--max-cells", "0", "--max-cells"),
        ("--max-cells", "65", "--max-cells"),
        ("--max-cells", "many", "--max-cells"),
        ("--time-limit", "0", "--time-limit"),
        ("--time-limit", "nan", "--time-limit"),
        ("--time-limit", "inf", "--time-limit"),
        ("--time-limit", "-1", "--time-limit"),
        ("--iter-limit", "x", "--iter-limit"),
    ] {
        let arg = format!("{flag}={value}");
        let out = run(["prove", SEED, &arg]);
        assert_bad_input(&out, needle);
    }
}

#[test]
fn bad_timeouts_exit_2_without_a_panic() {
    for arg in [
        "--timeout=nan",
        "--timeout=inf",
        "--timeout=-1",
        "--timeout=1e30",
        "--time-limit=1e30",
    ] {
        let out = run(["prove", SEED, arg]);
        let flag = arg.split('=').next().unwrap();
        assert_bad_input(&out, flag);
    }
}

#[test]
fn bad_rule_files_exit_2() {
    let dir = TempDir::new("bad_rules");
    let file = dir.write("broken.alg", "theorem ok: nil = nil\ntheorem broken: nil = )\n");
    let out = run([OsStr::new("prove"), file.as_os_str()]);
    assert_bad_input(&out, &format!("{}:2:23", file.display()));

    let missing = dir.path().join("missing.alg");
    let out = run([OsStr::new("prove"), missing.as_os_str()]);
    assert_bad_input(&out, "missing.alg");

    let out = run(["prove"]);
    assert_bad_input(&out, "PATHS");
}
