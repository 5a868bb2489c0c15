//! Fuzzing the front end and everything behind it: the bundled rule files,
//! mutated at random (spans cut, repeated, swapped, bits of syntax put in),
//! are parsed, elaborated, formatted, run on a board, checked and proved
//! with tiny limits. Bad input must come back as diagnostics; a panic fails
//! the test, with the mutated file that caused it.
//!
//! `ALGCHESS_FUZZ_CASES=N cargo test --release --test fuzz` runs N cases
//! (500 by default), and `ALGCHESS_FUZZ_SEED` starts elsewhere, for longer
//! runs by hand.

use algchess::Laws;
use algchess::Program;
use algchess::{check_claim, ClaimOptions, EnumerationOptions};
use algchess::{compile, Eval, Grid, State};
use algchess::{prove_claim, MemoryLimit, ProveOptions, Rewrites, SaturationLimits};
use quickcheck::{Arbitrary, Gen};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;

/// Pieces of syntax the mutations put in.
const BITS: &[&str] = &[
    "♙",
    "♟",
    "♖",
    "'X",
    ".",
    "#",
    "%",
    "0",
    "1",
    "u",
    "R",
    "F",
    "C",
    "²",
    "⁻¹",
    "^-3",
    "+",
    " + ",
    "|",
    "->",
    ";",
    "(",
    ")",
    "{",
    "}",
    "{2,}",
    "<1,3>",
    ",",
    "*",
    "*!",
    "?",
    "not ",
    "nil",
    "fail",
    " = ",
    " != ",
    ":",
    "%♖:",
    "%p:",
    "M",
    "f",
    "x",
    "theorem t: ",
    "axiom a: ",
    "piece ",
    " / ",
    "\n",
    "//c\n",
    " where ",
    "game g(♙.) = ",
    "import \"",
    "\"",
    "a(M) = ",
    "9999999999",
    "⁹⁹⁹⁹⁹⁹⁹⁹⁹⁹⁹⁹⁹⁹⁹⁹⁹⁹⁹",
    "((((",
    "))))",
];

fn below(g: &mut Gen, n: usize) -> usize {
    usize::arbitrary(g) % n.max(1)
}

/// A char boundary of `s` at or before `i`.
fn boundary(s: &str, mut i: usize) -> usize {
    i = i.min(s.len());
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// `text` with a few random edits.
fn mutate(text: &str, g: &mut Gen) -> String {
    let mut s = text.to_string();
    for _ in 0..1 + below(g, 2) {
        let a = boundary(&s, below(g, s.len() + 1));
        let b = boundary(&s, a + below(g, 40));
        match below(g, 5) {
            0 => s.replace_range(a..b, ""),
            1 => {
                let piece = s[a..b].to_string();
                s.insert_str(b, &piece);
            }
            2 => s.insert_str(a, g.choose(BITS).unwrap()),
            3 => {
                let c = boundary(&s, below(g, s.len() + 1));
                let (x, y) = (a.min(c), a.max(c));
                let y2 = boundary(&s, y + (b - a));
                if x + (b - a) <= y {
                    let first = s[x..boundary(&s, x + (b - a))].to_string();
                    let second = s[y..y2].to_string();
                    s.replace_range(y..y2, &first);
                    s.replace_range(x..boundary(&s, x + (b - a)), &second);
                }
            }
            _ => s.replace_range(a..b, g.choose(BITS).unwrap()),
        }
    }
    s
}

/// Everything a user could do with a file, with tiny limits; whether it
/// elaborated.
fn exercise(text: &str, laws: &Laws, rules: &Rewrites) -> bool {
    if let Ok(file) = algchess::parse_file(text) {
        let _ = algchess::format_file(&file, text);
    }
    // Named beside the bundled files, so that relative imports resolve.
    let Ok(program) = Program::from_text_with("theorems/fuzzed.alg", text, algchess::Tiling::Square, &algchess::Files)
    else {
        return false;
    };
    let board = Grid::parse("..♖.\n♟..♙", program.pieces()).unwrap();
    for (_, t) in program.definitions().take(20) {
        if let Ok(prog) = compile(t) {
            let s = State {
                board: board.clone(),
                poi: None,
            };
            let _ = Eval::new(20_000).run(&prog, &s);
        }
    }
    let search = EnumerationOptions {
        max_cells: 3,
        work: Some(200),
        eval_budget: 20_000,
        ..EnumerationOptions::default()
    };
    let check = ClaimOptions {
        search,
        instances: 2,
        instance_cells: 2,
        ..ClaimOptions::default()
    };
    let prove = ProveOptions {
        saturation: SaturationLimits {
            iter_limit: 4,
            node_limit: 2_000,
            time_limit: algchess::Timer::NONE,
            memory: MemoryLimit::NONE,
        },
        check: check.clone(),
        cross_check: check.clone(),
        ..ProveOptions::default()
    };
    for claim in program.claims().iter().take(3) {
        let _ = check_claim(claim, &check, &|_, _, _| {});
        let _ = prove_claim(claim, laws, rules, &prove, &|_, _, _| {});
    }
    true
}

#[test]
fn mutated_rule_files_never_panic() {
    let cases: u64 = std::env::var("ALGCHESS_FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(500);
    let first: u64 = std::env::var("ALGCHESS_FUZZ_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    let laws = Laws::bundled();
    let rules = Rewrites::new(&laws);
    let mut corpus = vec![];
    for dir in ["rules", "theorems", "axioms"] {
        let mut files: Vec<_> = std::fs::read_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join(dir))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "alg"))
            .collect();
        files.sort();
        for f in files {
            corpus.push(std::fs::read_to_string(&f).unwrap());
        }
    }
    // Panics are the failure here; keep their messages off the screen.
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let mut failures = vec![];
    let mut elaborated = 0;
    for seed in first..first + cases {
        let mut g = Gen::from_size_and_seed(64, seed);
        // A window of a bundled file, so that each case stays quick.
        let base = &corpus[below(&mut g, corpus.len())];
        let lines: Vec<&str> = base.lines().collect();
        let start = below(&mut g, lines.len());
        let end = (start + 5 + below(&mut g, 40)).min(lines.len());
        // The statements a window may need from before it: imports, pieces
        // and definitions (claims are left out).
        let context = lines[..start]
            .iter()
            .filter(|l| !l.starts_with("theorem") && !l.starts_with("axiom") && !l.starts_with(' '));
        let window: Vec<&str> = context.chain(&lines[start..end]).copied().collect();
        let text = mutate(&window.join("\n"), &mut g);
        match catch_unwind(AssertUnwindSafe(|| exercise(&text, &laws, &rules))) {
            Ok(true) => elaborated += 1,
            Ok(false) => {}
            Err(_) => failures.push(format!("seed {seed}:\n{text}")),
        }
    }
    std::panic::set_hook(hook);
    assert!(
        failures.is_empty(),
        "{} inputs panicked:\n{}",
        failures.len(),
        failures.join("\n---\n")
    );
    // The cases must reach past the parser often enough to mean something.
    assert!(
        elaborated * 5 >= cases,
        "only {elaborated} of {cases} mutated files elaborated"
    );
}
