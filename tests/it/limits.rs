//! One claim never takes a run down: explosive saturations, deep nesting,
//! runaway evaluations and huge numbers end as clean errors or `unknown`
//! verdicts within their limits, and the claims after them still get theirs.

use crate::common;
use crate::common::{run, run_limited, TempDir};

/// Prove `text` under a 3 GB address-space limit: a run that outgrew it
/// would be killed, not reported.
fn prove_limited(dir: &TempDir, name: &str, text: &str, extra: &[&str]) -> common::Out {
    let file = dir.write(name, text);
    let mut args = vec!["prove", file.to_str().unwrap()];
    args.extend_from_slice(extra);
    if !extra.contains(&"--memory-limit") {
        args.extend(["--memory-limit", "1G"]);
    }
    run_limited("-v 3000000", &args)
}

#[test]
fn explosive_claims_end_unknown_and_the_next_claims_are_decided() {
    let dir = TempDir::new("limits-explosive");
    for (name, claim) in [
        ("star_of_at_least.alg", "((♙ -> .){2,})* = nil | (♙ -> .){2,}"),
        (
            "optional_at_least.alg",
            "(♙ + u. -> . + u♙){2,}? (♙ + u. -> . + u♙){2,}? = (♙ + u. -> . + u♙){2,}*",
        ),
        (
            "greedy_twice.alg",
            "(♙ + u. -> . + u♙)*! (♙ + u. -> . + u♙)*! = (♙ + u. -> . + u♙)*!",
        ),
    ] {
        let text = format!("theorem t: {claim}\ntheorem after: nil | nil = nil\n");
        let out = prove_limited(&dir, name, &text, &["--json"]);
        assert!(matches!(out.code, Some(0 | 1)), "{name}: {out:?}");
        let lines: Vec<serde_json::Value> = out
            .stdout
            .lines()
            .filter(|l| l.starts_with('{'))
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        let verdict = |n: &str| lines.iter().find(|v| v["name"] == n).map(|v| v["verdict"].clone());
        // True, so never refuted; proved or unknown, naming why.
        let t = lines.iter().find(|v| v["name"] == "t").expect("a verdict for t");
        assert_ne!(t["verdict"], "refuted", "{name}: {t}");
        if t["verdict"] == "unknown" {
            assert!(t["stop"].is_string(), "{name}: {t}");
        }
        assert_eq!(verdict("after"), Some("proved".into()), "{name}: {}", out.stdout);
    }
}

#[test]
fn a_tight_memory_limit_stops_saturation_and_is_named() {
    let dir = TempDir::new("limits-memory");
    // False, so saturation never meets and grows until a limit stops it;
    // only the memory limit is within reach here.
    let text = "theorem t: (M | N)* (K | M)* = (N | K)* M*\ntheorem after: nil = nil\n";
    let limits = [
        "--memory-limit",
        "20M",
        "--time-limit",
        "60",
        "--node-limit",
        "100000000",
        "--iter-limit",
        "100000",
        "--json",
    ];
    let out = prove_limited(&dir, "m.alg", text, &limits);
    let t: serde_json::Value = serde_json::from_str(out.stdout.lines().next().unwrap_or("")).expect(&out.stderr);
    assert_eq!(t["stop"], "memory limit (20 MiB)", "{t}");
    assert_eq!(t["verdict"], "refuted", "{t}");
    assert!(out.stdout.contains(r#""name":"after""#), "{}", out.stdout);
}

#[test]
fn deep_nesting_is_decided_or_rejected_never_a_crash() {
    let dir = TempDir::new("limits-deep");
    let nots = format!("theorem t: %♙: {}(% + u. -> . + u%) = fail\n", "not ".repeat(5001));
    let seq = format!("theorem t: {} = fail\n", vec!["(♙ + u. -> . + u♙)"; 4000].join(" "));
    for (name, text) in [("nots.alg", nots), ("seq.alg", seq)] {
        let file = dir.write(name, &text);
        for cmd in ["check", "prove"] {
            let out = run([cmd, file.to_str().unwrap(), "--work", "100000"]);
            assert!(matches!(out.code, Some(0 | 1)), "{cmd} {name}: {out:?}");
            assert!(out.stdout.contains(" t ("), "{cmd} {name}: {}", out.stdout);
        }
    }
    // Deeper than the parser takes: a clean error with its place.
    let file = dir.write("deeper.alg", &format!("x = {}nil\n", "not ".repeat(30_000)));
    let out = run(["check", file.to_str().unwrap()]);
    assert_eq!(out.code, Some(2), "{out:?}");
    assert!(out.stderr.contains("nested more than 20000 levels"), "{}", out.stderr);
    // Definitions that nest each other deeper than a term may.
    let mut chain = String::from("d0 = (♙ -> ♟)\n");
    for i in 1..60_000 {
        chain.push_str(&format!("d{i} = not d{}\n", i - 1));
    }
    let file = dir.write("chain.alg", &chain);
    let out = run(["check", file.to_str().unwrap()]);
    assert_eq!(out.code, Some(2), "{out:?}");
    assert!(out.stderr.contains("nests more than 50000 levels"), "{}", out.stderr);
}

#[test]
fn a_deep_proof_respects_the_time_limits() {
    let dir = TempDir::new("limits-deep-proof");
    let text = format!("theorem t: {}nil = nil\ntheorem u: nil = nil\n", "not ".repeat(1500));
    let file = dir.write("t.alg", &text);
    let start = std::time::Instant::now();
    let out = run(["prove", file.to_str().unwrap(), "--time-limit", "1", "--timeout", "1"]);
    assert!(matches!(out.code, Some(0 | 1)), "{out:?}");
    // After four billion and one flips, boards differ from one flip.
    assert!(out.stdout.contains("✓ u"), "{}", out.stdout);
    // Not a speed target: a run this small that took minutes would be hung.
    assert!(start.elapsed().as_secs() < 600, "{:?}", start.elapsed());
}

#[test]
fn runaway_evaluation_stops_at_the_memory_limit() {
    let dir = TempDir::new("limits-moves");
    let empty = dir.write("empty.alg", "");
    let board = ".....\n.....\n.....\n.....\n.....";
    let out = run_limited(
        "-v 3000000",
        &[
            "moves",
            empty.to_str().unwrap(),
            "--move",
            "(. -> ♖)*",
            "--board",
            board,
            "--memory-limit",
            "200M",
        ],
    );
    assert_eq!(out.code, Some(2), "{out:?}");
    assert!(out.stderr.contains("memory limit (200 MiB)"), "{}", out.stderr);
}

#[test]
fn stars_of_stars_run_as_one_fixpoint() {
    let dir = TempDir::new("limits-stars");
    let empty = dir.write("empty.alg", "");
    // 2^12 boards: every square empty or a pawn. Run as a star per state,
    // this would make hundreds of millions of states.
    let out = run([
        "moves",
        empty.to_str().unwrap(),
        "--move",
        "((0 -> ♙ | .)*)*",
        "--board",
        "....\n....\n....",
        "--json",
        "--max-states",
        "2000000",
    ]);
    assert_eq!(out.code, Some(0), "{out:?}");
    let v: serde_json::Value = serde_json::from_str(out.stdout.trim()).unwrap();
    assert_eq!(v["results"].as_array().unwrap().len(), 4096);
}

#[test]
fn huge_numbers_are_exact_or_rejected() {
    let dir = TempDir::new("limits-numbers");
    let file = dir.write("p.alg", "theorem t: u^4294967296 = 1\n");
    let out = run(["prove", file.to_str().unwrap()]);
    assert_eq!(out.code, Some(2), "{out:?}");
    assert!(out.stderr.contains("more than 16777216 squares"), "{}", out.stderr);
    let file = dir.write(
        "q.alg",
        "theorem t: R^4294967297 = R\ntheorem u: ((♙ -> ♟) | (♟ -> ♙)){4000000001} != (♙ -> ♟) | (♟ -> ♙)\n",
    );
    let out = run(["prove", file.to_str().unwrap()]);
    assert!(out.stdout.contains("✓ t"), "{}", out.stdout);
    // After four billion and one flips, boards differ from one flip.
    assert!(out.stdout.contains("✓ u"), "{}", out.stdout);
}

#[test]
fn long_fragments_load() {
    let dir = TempDir::new("limits-fragments");
    let row = dir.write("row.alg", &format!("x = {}\ntheorem t: x = x\n", ".".repeat(20_000)));
    let column = dir.write(
        "column.alg",
        &format!("x = {}\ntheorem t: x = x\n", vec!["."; 20_000].join(";")),
    );
    for f in [row, column] {
        let out = run(["check", f.to_str().unwrap()]);
        assert_eq!(out.code, Some(0), "{out:?}");
    }
}

#[test]
fn claims_naming_every_piece_are_unknown_not_a_crash() {
    let dir = TempDir::new("limits-pieces");
    let mut text = String::from("piece 'other / 'OTHER\n");
    let mut names: Vec<String> = "♔ ♕ ♖ ♗ ♘ ♙ ♚ ♛ ♜ ♝ ♞ ♟ 'other 'OTHER"
        .split(' ')
        .map(String::from)
        .collect();
    for i in 0..60 {
        text.push_str(&format!("piece 'A{i} / 'B{i}\n"));
        names.extend([format!("'A{i}"), format!("'B{i}")]);
    }
    let side =
        |names: &mut dyn Iterator<Item = &String>| names.map(|p| format!("({p} -> .)")).collect::<Vec<_>>().join(" | ");
    text.push_str(&format!(
        "theorem many: {} = {}\ntheorem after: nil = nil\n",
        side(&mut names.iter()),
        side(&mut names.iter().rev())
    ));
    let file = dir.write("many.alg", &text);
    for cmd in ["check", "prove"] {
        let out = run([cmd, file.to_str().unwrap(), "--work", "100000"]);
        assert_eq!(out.code, Some(1), "{cmd}: {out:?}");
        assert!(out.stdout.contains("name 134 pieces"), "{cmd}: {}", out.stdout);
        assert!(out.stdout.contains("✓ after"), "{cmd}: {}", out.stdout);
    }
}

#[test]
fn claims_beside_one_that_fills_the_heap_are_decided_as_alone() {
    let dir = TempDir::new("limits-beside");
    // On the start of `g`, 144 empty squares, the first claim's sides make
    // 2^144 boards: its check on positions fills the heap to the limit.
    // The laws beside it need little memory and saturation to be proved
    // (`--kat-limit 0`); the limit is the process's, so they met it too.
    // The first takes about 0.3 s, so the ones after it start while the
    // heap is full.
    let rows = vec![".".repeat(12); 12].join(";");
    let laws = [
        "(M | N)* = (M* N*)*",
        "(M | N) = (N | M)",
        "M | M = M",
        "(M N) K = M (N K)",
        "M* M* = M*",
        "(M*)* = M*",
        "nil | M M* = M*",
        "M (N | K) = M N | M K",
    ];
    let mut text = format!("start = {rows}\ngame g(start) = nil, nil\ntheorem big: (. -> ♖)* = (. -> ♖)* (. -> ♖)*\n");
    for (i, law) in laws.iter().enumerate() {
        text.push_str(&format!("theorem law{i}: {law}\n"));
    }
    let file = dir.write("beside.alg", &text);
    let args = [
        "prove",
        file.to_str().unwrap(),
        "--memory-limit",
        "100M",
        "--kat-limit",
        "0",
        "--time-limit",
        "5",
        "--timeout",
        "1",
        "--json",
    ];
    let out = run_limited("-v 3000000", &args);
    assert_eq!(out.code, Some(0), "{out:?}");
    let lines: Vec<serde_json::Value> = out.stdout.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let big = lines.iter().find(|v| v["name"] == "big").expect("a verdict for big");
    // The check on positions stops at the limit instead of growing past it.
    assert_eq!(big["positions_stopped_by"], "memory", "{big}");
    for i in 0..laws.len() {
        let law = lines.iter().find(|v| v["name"] == format!("law{i}").as_str());
        let law = law.expect("a verdict for each law");
        assert_eq!(law["verdict"], "proved", "{law}");
    }
}

#[test]
fn moves_on_a_huge_board_stop_at_the_memory_limit() {
    let dir = TempDir::new("limits-huge-board");
    let empty = dir.write("empty.alg", "");
    // A state is a whole board: four million squares here. Checked every
    // 1,024 states, 200M would have been passed twentyfold, past the 3 GB
    // of address space the run is given.
    let board = dir.write("board.txt", &vec![".".repeat(2000); 2000].join("\n"));
    let board_arg = format!("@{}", board.display());
    let out = run_limited(
        "-v 3000000",
        &[
            "moves",
            empty.to_str().unwrap(),
            "--move",
            "(. -> ♖)*",
            "--board",
            &board_arg,
            "--memory-limit",
            "200M",
        ],
    );
    assert_eq!(out.code, Some(2), "{out:?}");
    assert!(out.stderr.contains("memory limit (200 MiB)"), "{}", out.stderr);
    // Results that fit but whose text does not: refused while written out
    // (a pawn is three bytes of text, a square one of a board).
    let mut rows = vec!["♙".repeat(500); 500];
    for i in 0..80 {
        rows[i * 6].replace_range(i * 3 * 3..i * 3 * 3 + 3, ".");
    }
    let board = dir.write("pawns.txt", &rows.join("\n"));
    let board_arg = format!("@{}", board.display());
    let out = run_limited(
        "-v 3000000",
        &[
            "moves",
            empty.to_str().unwrap(),
            "--move",
            "(. -> ♖)",
            "--board",
            &board_arg,
            "--memory-limit",
            "40M",
            "--json",
        ],
    );
    assert_eq!(out.code, Some(2), "{out:?}");
    assert!(out.stderr.contains("writing out 80 results"), "{}", out.stderr);
}

#[test]
fn a_long_referee_and_chain_lowers() {
    let dir = TempDir::new("limits-referee-chain");
    let chain = vec!["not friend"; 50_000].join(" and ");
    let text = format!(
        "import \"{}/rules/chess.alg\"\ntheorem t: referee\"Knights: [+1, +2] if {chain};\" = referee\"Knights: [+1, +2] if not friend;\"\n",
        env!("CARGO_MANIFEST_DIR")
    );
    let file = dir.write("chain.alg", &text);
    let start = std::time::Instant::now();
    let out = run(["check", file.to_str().unwrap(), "--work", "100000"]);
    assert_eq!(out.code, Some(0), "{out:?}");
    assert!(out.stdout.contains("✓ t"), "{}", out.stdout);
    // Not a speed target: quadratic, this took 11 s; a minute means a hang.
    assert!(start.elapsed().as_secs() < 600, "{:?}", start.elapsed());
}

#[test]
fn definitions_that_outgrow_the_memory_limit_stop_the_loading() {
    let dir = TempDir::new("limits-glued-chain");
    // Definition K glues one cell onto definition K-1: K cells each, so
    // the file's terms grow with the square of its length (30,000 lines
    // would hold 450 million cells, over 5 GB).
    let chain = |n: usize| {
        let mut text: String = "d0 = ♟\n".into();
        for k in 1..n {
            text.push_str(&format!("d{k} = d{} + u^{k}♟\n", k - 1));
        }
        text + "theorem t: (♟ -> ♟) = (♟ -> ♟)\n"
    };
    let file = dir.write("chain.alg", &chain(30_000));
    for cmd in ["check", "prove"] {
        // 3 GB of address space: a run that passed its limit would be
        // killed, not reported.
        let out = run_limited("-v 3000000", &[cmd, file.to_str().unwrap(), "--memory-limit", "100M"]);
        assert_eq!(out.code, Some(2), "{out:?}");
        assert!(out.stderr.contains("loading stopped at `d"), "{}", out.stderr);
        assert!(
            out.stderr.contains("the memory limit (100 MiB) is met"),
            "{}",
            out.stderr
        );
    }
    // A shorter chain loads within the same limit, and its claim is decided.
    let file = dir.write("short.alg", &chain(1_000));
    let out = run(["check", file.to_str().unwrap(), "--memory-limit", "100M"]);
    assert_eq!(out.code, Some(0), "{out:?}");
}
