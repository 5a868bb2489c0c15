//! Inputs that once took a run down, found by the fuzz targets in `fuzz/`
//! or reported by hand: each must now end with a verdict or a clean error
//! (exit status 2 and a message with its place, no panic).

mod common;

use common::{run, Out, TempDir};

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

#[test]
fn a_path_literal_nested_a_million_brackets_deep_is_refused() {
    let dir = TempDir::new("fuzz-deep-path");
    let deep = format!("m = path\"{}F${}\"\n", "(".repeat(1_000_000), ")".repeat(1_000_000));
    let file = dir.write("deep.alg", &deep);
    refused(
        &run(["check", file.to_str().unwrap()]),
        "this path is nested more than 20000 levels deep",
    );
    // A sequence or a tower of repetitions is as deep as its tree.
    let long = format!("m = path\"{}\"\n", "F$".repeat(600_000));
    let file = dir.write("long.alg", &long);
    refused(
        &run(["check", file.to_str().unwrap()]),
        "this path is nested more than 20000 levels deep",
    );
    let stars = format!("m = path\"F${}\"\n", "*".repeat(1_000_000));
    let file = dir.write("stars.alg", &stars);
    refused(
        &run(["check", file.to_str().unwrap()]),
        "this path is nested more than 20000 levels deep",
    );
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
    let out = run(["check", file.to_str().unwrap(), "--timeout", "5"]);
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
