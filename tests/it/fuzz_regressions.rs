//! Inputs that once took a run down, found by the fuzz targets in `fuzz/`
//! or reported by hand: each must now end with a verdict or a clean error
//! (exit status 2 and a message with its place, no panic).

use crate::common::{run, Out, TempDir};

/// A clean refusal: status 2, no panic, `message` on stderr.
fn refused(out: &Out, message: &str) {
    assert_eq!(out.code, Some(2), "expected exit status 2: {out:?}");
    assert!(!out.stderr.contains("panicked"), "the binary panicked: {}", out.stderr);
    assert!(
        !out.stderr.contains("internal error"),
        "the binary failed: {}",
        out.stderr
    );
    assert!(
        out.stderr.contains(message),
        "expected `{message}` in stderr: {}",
        out.stderr
    );
}

/// The first claim's object of `prove --json`.
fn first_claim(out: &Out) -> serde_json::Value {
    let line = out.stdout.lines().next().expect("the claim's line");
    serde_json::from_str(line).expect("a JSON object")
}

#[test]
fn a_path_literal_nested_a_million_brackets_deep_is_refused() {
    let dir = TempDir::new("fuzz-deep-path");
    let deep = format!("m = path\"{}F${}\"\n", "(".repeat(1_000_000), ")".repeat(1_000_000));
    let file = dir.write("deep.alg", &deep);
    refused(
        &run(["check", file.to_str().unwrap()]),
        "this path is nested more than 20000 levels deep",
    );
    // A tower of repetitions is as deep as its tree.
    let stars = format!("m = path\"F${}\"\n", "*".repeat(1_000_000));
    let file = dir.write("stars.alg", &stars);
    refused(
        &run(["check", file.to_str().unwrap()]),
        "this path is nested more than 20000 levels deep",
    );
}

#[test]
fn a_path_of_too_many_letters_is_refused_at_once() {
    let dir = TempDir::new("fuzz-long-path");
    // Lowering `(F$)*` repeated 500 times took minutes; 600,000 letters
    // in a row overflowed the stack.
    for (name, path) in [("stars.alg", "(F$)*".repeat(500)), ("long.alg", "F$".repeat(300_000))] {
        let file = dir.write(name, &format!("enemy = black_pieces\nm = path\"{path}\"\n"));
        let start = std::time::Instant::now();
        refused(
            &run(["check", file.to_str().unwrap()]),
            "this path has more than 256 letters (F, L, R and $)",
        );
        // Not a speed target: a refusal that took a minute would be the runaway.
        assert!(start.elapsed().as_secs() < 600, "{name}: {:?}", start.elapsed());
    }
}

#[test]
fn a_path_literal_within_the_cap_still_lowers() {
    let dir = TempDir::new("fuzz-path-ok");
    // Five hundred brackets around a rook's path: the same move as without.
    let text = format!(
        "enemy = black_pieces\nm = %♖: path\"{}L*(F$)+{}\"\nn = %♖: path\"L*(F$)+\"\ntheorem same: m = n\n",
        "(".repeat(500),
        ")".repeat(500)
    );
    let file = dir.write("ok.alg", &text);
    let out = run(["check", file.to_str().unwrap(), "--work", "500000"]);
    assert_eq!(out.code, Some(0), "{out:?}");
    assert!(out.stdout.contains("1 holds"), "{}", out.stdout);
}

#[test]
fn a_referee_literal_with_a_million_nots_is_refused() {
    let dir = TempDir::new("fuzz-deep-referee");
    let nots = format!("m = referee\"[ahead] if {}empty;\"\n", "not ".repeat(1_000_000));
    let file = dir.write("nots.alg", &nots);
    refused(
        &run(["check", file.to_str().unwrap()]),
        "nested more than 20000 levels deep",
    );
    let brackets = format!(
        "m = referee\"[ahead] if {}empty{};\"\n",
        "(".repeat(1_000_000),
        ")".repeat(1_000_000)
    );
    let file = dir.write("brackets.alg", &brackets);
    refused(
        &run(["check", file.to_str().unwrap()]),
        "nested more than 20000 levels deep",
    );
    let vectors = format!(
        "m = referee\"[{}ahead{}] if empty;\"\n",
        "[".repeat(1_000_000),
        "]".repeat(1_000_000)
    );
    let file = dir.write("vectors.alg", &vectors);
    refused(
        &run(["check", file.to_str().unwrap()]),
        "nested more than 20000 levels deep",
    );
}

/// How long a run may take before it is taken for a hang: ten minutes.
/// No verdict here is a time: these runs end in seconds, bounded by work
/// and memory, and a machine ten times slower still ends them well
/// within this.
const HANG: std::time::Duration = std::time::Duration::from_secs(600);

/// Runs `algchess ARGS...`, killing it after `limit`; `None` if it was
/// killed.
fn run_for(limit: std::time::Duration, args: &[&str]) -> Option<Out> {
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_algchess"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the algchess binary runs");
    let start = std::time::Instant::now();
    while start.elapsed() < limit {
        if child.try_wait().expect("the child can be waited for").is_some() {
            let out = child.wait_with_output().expect("the binary's output");
            return Some(Out {
                code: out.status.code(),
                stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
                stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
            });
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let _ = child.kill();
    let _ = child.wait();
    None
}

/// Found by the `generated` target (a timeout). `check` samples the
/// positions of the file's games (`--positions`, 10,000 by default), and
/// each ply here has 65,535 successors (16 bishops, any of which may
/// vanish), seconds a ply: sampling stops at the claim's `--timeout`
/// (checked before every ply) and says so.
#[test]
fn sampling_the_positions_of_a_game_with_huge_plies_is_bounded() {
    let dir = TempDir::new("fuzz-sampling");
    let file = dir.write(
        "bishops.alg",
        "start = ♗♗♗♗;♗♗♗♗;♗♗♗♗;♗♗♗♗\ngame g(start) = (%♗: (♗ -> .)*)\ntheorem c: (♗ -> ♗)+ = (♗ -> ♗)\n",
    );
    // A ply of 2^16 results ends its game, so no clock is needed; the
    // root's moves are found once for all its games (about 2 s of CPU).
    // Ten minutes is only a guard against a hang.
    let out = run_for(
        std::time::Duration::from_secs(600),
        &["check", file.to_str().unwrap(), "--work", "100000", "--json"],
    )
    .expect("`check` ends");
    assert!(matches!(out.code, Some(0 | 1)), "{out:?}");
    let first = first_claim(&out);
    assert_eq!(first["name"], "c", "{first}");
    assert_eq!(first["positions"], 1, "only the start is sampled: {first}");
}

/// Found by the `prove` target (out of memory): a claim whose fragments
/// hold cells 65,535 squares apart is proved at once, but writing its
/// proof laid each such fragment out as rows of `0` across its box (27 s
/// and 2.4 GB); it is written as a sum of its cells.
#[test]
fn a_proof_of_cells_far_apart_is_written_within_the_memory_limit() {
    let dir = TempDir::new("fuzz-far-apart");
    let file = dir.write(
        "far.alg",
        "theorem t: (%p: (%p: (%p: ((♙ | ♘) + Cll³♛ -> (♗ | ♟) + Cll³#)))) \
         = (%p: (%p: (%p: (♞ + (uC)^-65535# -> (♘ | ♝) + (uC)^-65535♔))))\n",
    );
    // It took 27 s; it takes a fraction of one.
    let out = run_for(HANG, &["prove", file.to_str().unwrap(), "--memory-limit", "300M"]).expect("`prove` ends");
    assert_eq!(out.code, Some(0), "{out:?}");
    assert!(out.stdout.contains("✓ t (=): proved"), "{}", out.stdout);
}

/// Found by the `generated` target (out of memory): the e-graph met the
/// sides of a false claim by a proof of 160,000 steps whose terms grew
/// far past the claim's; writing it out took 8 s and 2 GB before the
/// replay refused it. Two fixes: an explanation's cost counts the terms
/// along the proof (`explanation_cost_counts_terms_grown_along_the_proof`),
/// and the sides no longer meet, as the e-graph gets only the normal
/// forms true wherever a term stands
/// (`the_sides_of_a_false_claim_do_not_meet_through_a_normal_form`). The
/// claim is refuted by enumeration at once.
#[test]
fn a_proof_whose_terms_grow_is_not_written_out_past_the_limits() {
    let dir = TempDir::new("fuzz-grown-proof");
    let file = dir.write(
        "grown.alg",
        "piece ● / ○\npiece ◆\npiece ▲ ◀ ▼ ▶ / △ ◁ ▽ ▷\n\
         any_dir(M) = M | R M | R² M | R³ M\n\
         axiom c0: any_dir(nil (% -> 0) (# -> 0)) = (0 -> 0) (% -> (♔ | ♔)) nil nil | nil nil nil nil\n",
    );
    let out = run_for(
        HANG,
        &["prove", file.to_str().unwrap(), "--json", "--memory-limit", "300M"],
    )
    .expect("`prove` ends");
    assert_eq!(out.code, Some(1), "{out:?}");
    let first = first_claim(&out);
    assert_eq!(first["verdict"], "refuted", "{first}");
    // Writing the proof out is bounded by its work, not a clock, and the
    // 300 MB limit above holds it well below the 2 GB it once took.
}

/// Found by the `generated` target (slow, 1.3 GB): each pair of the KAT
/// search derives large sets for every action; 0.3 s of `--kat-limit`
/// became 6 s when the clock was read every 64 pairs. The search is now
/// bounded by its work, a pair costing its derivatives, so it ends the
/// same way on any machine, and the claim is refuted within the limits.
#[test]
fn the_kat_search_stops_at_its_work_limit() {
    let dir = TempDir::new("fuzz-kat-clock");
    let file = dir.write(
        "kat.alg",
        "any_dir(M) = M | R M | R² M | R³ M\n\
         theorem c0: (%♟: any_dir(any_dir((('q | ♙) + (RRF)³(♔ | 'q) + F(♟ | ♙) \
         -> ('q | ♙) + (RRF)³('K | ♙) + F('q | ♟))))) = any_dir(any_dir(any_dir(fail)))\n",
    );
    // A minute is room for a machine ten times slower than the second
    // this takes.
    let out = run_for(
        HANG,
        &["prove", file.to_str().unwrap(), "--json", "--memory-limit", "500M"],
    )
    .expect("`prove` ends");
    assert_eq!(out.code, Some(1), "{out:?}");
    let first = first_claim(&out);
    assert_eq!(first["verdict"], "refuted", "{first}");
    assert!(
        first["kat"]
            .as_str()
            .is_some_and(|k| k.contains("the KAT search reached its work limit")),
        "{first}"
    );
}

/// Found by the `fen` target: a run of empty squares too long for a
/// number overflowed while it was read (a panic where arithmetic is
/// checked); it is refused with the digits as written.
#[test]
fn a_fen_rank_of_a_huge_number_of_empty_squares_is_refused() {
    let digits = "3".repeat(40);
    let fen = format!("r3k2r/p1ppqp{digits}b/8/8/8/8/8/K6k w - - 0 1");
    let e = algchess::fen::placement(&fen, &algchess::Pieces::chess()).unwrap_err();
    assert_eq!(
        e.message,
        format!("`{digits}` empty squares do not fit a FEN rank of at most 26")
    );
    assert_eq!(&fen[e.at..e.at + 1], "3");
    // One past the largest number: saturating, not wrapping to a small one.
    let e = algchess::fen::placement("18446744073709551616/8", &algchess::Pieces::chess()).unwrap_err();
    assert!(
        e.message.starts_with("`18446744073709551616` empty squares"),
        "{}",
        e.message
    );
    refused(
        &run(["perft", "rules/chess.alg", "--fen", &fen, "--depth", "1"]),
        "empty squares do not fit a FEN rank",
    );
}

/// Found by the `notation` target (a timeout): a path of about 110 bytes
/// whose edges gather thousands of rules took 8 s to refuse, each rule
/// joined to a list of the others as it came. Now the rules are gathered
/// in a set and joined once.
#[test]
fn a_path_whose_edges_gather_many_rules_is_refused_at_once() {
    let path = "LLFLLL?F?$LLL?LFFLF+LLLFLLLLFL?LFL+LLLLFFLLLLLLFLLFL?LF?LFLLFLLLLFL?LFL+LLLLFFLLL+LF?$";
    let out = run_for(HANG, &["translate", "--from", "path", path]).expect("the refusal comes");
    refused(
        &out,
        "this path goes more than 64 squares past the last square it reads with `$`",
    );
    // The input as the target found it, form feeds and all (about 30 s
    // to lower before).
    let found = "LLFLLL?\u{c}F?\u{c}$LLL?\u{c}LF\u{c}FLF+LLLFLL\u{c}LLF\u{c}L\u{c}?LF\u{c}\u{c}L+LLLLFFLLLLLLF\u{c}LLF\u{c}L\u{c}?LF\u{c}\u{c}?LF\u{c}LLFLL\u{c}LLF\u{c}L\u{c}?LF\u{c}\u{c}L+LLLLFFLL\u{c}L+LF?\u{c}$";
    let out = run_for(HANG, &["translate", "--from", "path", found]).expect("the refusal comes");
    refused(&out, "squares past the last square it reads");
}

/// Optional steps reach every offset around each state, each with every
/// optional letter after it to try: lowering tries a bounded number of
/// turtle steps and says so past it, and a path under the bound still
/// lowers.
#[test]
fn a_path_of_too_many_places_is_refused() {
    let many = format!("{}$", "(F?L?)".repeat(63)).repeat(2);
    let out = run_for(HANG, &["translate", "--from", "path", &many]).expect("the refusal comes");
    refused(&out, "steps of the turtle to lower");
    let fewer = format!("{}$", "(F?L?)".repeat(8));
    let out = run(["translate", "--from", "path", &fewer]);
    assert_eq!(out.code, Some(0), "{out:?}");
    assert!(out.stdout.contains("(% + "), "{}", out.stdout);
}

/// Found by the `notation` target (a timeout): a hex path of 150 bytes
/// lowered to 1.9 MB of algebra, which took seconds to elaborate; the
/// bound on a lowering's terms is now a twentieth of what it was.
#[test]
fn a_hex_path_that_lowers_to_megabytes_is_refused() {
    let path = "L+FLLL?F?LL+FLLL?F?LL$??LL$?FF?FF?L$?L+FLLL?F?LL$?F?L+FLLL?F?LL$?FLL?F?LL$?F?L+FLLL?F??F?";
    let out = run_for(HANG, &["translate", "--grid", "hex", "--from", "path", path]).expect("the refusal comes");
    refused(&out, "more than 10000 terms written as a move");
}

/// Found by a differential run of random paths: an unbounded part without
/// `$` under a repetition ran for more than an hour before its refusal,
/// every rule of its edges joined to a list of the others as it came.
#[test]
fn an_unbounded_repetition_is_refused_at_once() {
    for grid in ["square", "hex"] {
        let out = run_for(HANG, &["translate", "--grid", grid, "--from", "path", "(F(F|L))+(R)*$"])
            .expect("the refusal comes");
        refused(
            &out,
            "this path goes more than 64 squares past the last square it reads with `$`",
        );
    }
}
