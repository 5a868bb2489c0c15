//! Inputs a hostile user tries: each run ends with a verdict or a clear
//! error (exit status 2, no panic), and a limit that is given is held.

use crate::common;
use crate::common::{run, run_input, Out, TempDir};

/// A clean refusal: status 2, no panic, and `message` on stderr.
fn refused(out: &Out, message: &str) {
    assert_eq!(out.code, Some(2), "expected exit status 2: {out:?}");
    assert!(!out.stderr.contains("panicked"), "the binary panicked: {}", out.stderr);
    assert!(
        out.stderr.contains(message),
        "expected `{message}` in stderr: {}",
        out.stderr
    );
}

#[test]
fn a_fen_of_other_characters_is_refused_with_its_place() {
    for field in [
        "é",
        "8/8/8/8/8/8/8/K6k é",
        "8/8/8/8/8/8/8/K6k w é",
        "8/8/8/8/8/8/8/K6k w - é",
    ] {
        let out = run(["perft", "rules/chess.alg", "--fen", field, "--depth", "1"]);
        refused(&out, "--fen");
        let out = run(["moves", "rules/chess.alg", "--move", "white", "--fen", field]);
        refused(&out, "--fen");
    }
}

#[test]
fn moves_reads_a_fen_as_perft_does() {
    // Counters that are not numbers: refused by every command alike.
    let fen = "8/8/8/8/8/8/8/K6k w - - x 1";
    refused(
        &run(["moves", "rules/chess.alg", "--move", "white", "--fen", fen]),
        "half-move clock",
    );
    refused(
        &run(["perft", "rules/chess.alg", "--fen", fen, "--depth", "1"]),
        "half-move clock",
    );
}

#[test]
fn a_board_too_big_to_hold_is_refused() {
    let dir = TempDir::new("hostile-far");
    let file = dir.write("far.alg", "start = u^65535 r^65535 ♙ + ♟\ngame far(start) = nil, nil\n");
    for cmd in ["perft", "check"] {
        let mut args = vec![cmd, file.to_str().unwrap()];
        if cmd == "perft" {
            args.extend(["--depth", "1"]);
        }
        refused(&run(&args), "may hold at most 1048576 squares");
    }
}

#[test]
fn perft_stops_where_the_tree_ends() {
    let out = run(["perft", "rules/tictactoe.alg", "--depth", "4294967295"]);
    assert_eq!(out.code, Some(0), "{out:?}");
    // Nine marks fill the board: nothing is left at depth 10.
    assert!(out.stdout.contains("perft 9: "), "{}", out.stdout);
    assert!(
        out.stdout.contains("perft 4294967295: 0 [the tree ends at depth 10]"),
        "{}",
        out.stdout
    );
}

#[test]
fn a_rule_file_may_start_with_a_byte_order_mark() {
    let dir = TempDir::new("hostile-bom");
    let file = dir.write("bom.alg", "\u{feff}theorem t: u r = r u\n");
    let out = run(["check", file.to_str().unwrap()]);
    assert_eq!(out.code, Some(0), "{out:?}");
    assert!(out.stdout.contains("1 holds"), "{}", out.stdout);
}

#[test]
fn a_hex_file_cannot_import_a_square_one() {
    let dir = TempDir::new("hostile-grid");
    let chess = std::fs::canonicalize("rules/chess.alg").unwrap();
    let file = dir.write("hex.alg", &format!("grid hex\nimport \"{}\"\n", chess.display()));
    refused(
        &run(["check", file.to_str().unwrap()]),
        "is on the square grid (it declares no grid)",
    );
}

#[test]
fn a_fen_must_be_a_board_of_the_game() {
    let fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1";
    refused(
        &run(["perft", "rules/glinski.alg", "--fen", fen, "--depth", "1"]),
        "FEN describes square boards",
    );
    refused(
        &run(["perft", "rules/variants/capablanca.alg", "--fen", fen, "--depth", "1"]),
        "8×8 board, but `capablanca` is played on 10×8",
    );
    refused(
        &run_input(&["play", "rules/glinski.alg", "--fen", fen], ""),
        "FEN describes square boards",
    );
}

#[test]
fn zero_instance_cells_is_refused() {
    refused(
        &run(["check", "theorems/seed.alg", "--instance-cells", "0"]),
        "--instance-cells",
    );
}

#[test]
fn play_refuses_a_save_file_it_cannot_write_before_the_game() {
    let out = run_input(
        &["play", "rules/chess.alg", "--save", "/nonexistent/dir/game.pgn"],
        "e2e4\n",
    );
    refused(&out, "cannot write /nonexistent/dir/game.pgn");
    assert!(out.stdout.is_empty(), "no game was played: {}", out.stdout);
}

#[test]
fn axioms_from_elsewhere_are_named_unchecked() {
    let dir = TempDir::new("hostile-axioms");
    dir.write("a.alg", "axiom comm: u r = r u\n");
    let claims = dir.write("c.alg", "theorem t: u r = r u\n");
    let out = run([
        "prove",
        claims.to_str().unwrap(),
        "--axioms",
        dir.path().to_str().unwrap(),
    ]);
    assert!(out.stderr.contains("are used unchecked"), "{}", out.stderr);
}

#[test]
fn a_result_tag_and_marker_that_differ_are_warned_and_an_ended_game_claims_nothing() {
    let dir = TempDir::new("hostile-pgn");
    let pgn = dir.write(
        "g.pgn",
        "[Event \"marker\"]\n[Result \"1-0\"]\n\n1. e4 e5 0-1\n\n\
         [Event \"fivefold\"]\n[Result \"1/2-1/2\"]\n\n\
         1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 5. Nf3 Nf6 6. Ng1 Ng8 7. Nf3 Nf6 8. Ng1 Ng8 1/2-1/2\n",
    );
    let out = run(["referee", "--json", pgn.to_str().unwrap()]);
    let games: Vec<serde_json::Value> = out
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect();
    let warnings = games[0]["warnings"].to_string();
    assert!(
        warnings.contains("the Result tag says 1-0, the move text ends with 0-1"),
        "{warnings}"
    );
    assert_eq!(games[1]["end"], "fivefold_repetition");
    assert_eq!(games[1]["claimable"], serde_json::json!([]));
}

#[test]
fn a_word_of_names_that_does_not_split_is_an_error_at_once() {
    // With `x` and `xx` defined, the ways to read 60 `x`s number in the
    // billions; the tail `q` reads no way, which is found once.
    let dir = TempDir::new("hostile-split");
    let file = dir.write("split.alg", &format!("x = u\nxx = r\ny = {}q\n", "x".repeat(60)));
    refused(&run(["check", file.to_str().unwrap()]), "unknown name");
}

#[test]
fn many_lines_definitions_and_cells_load() {
    let dir = TempDir::new("hostile-many");
    // 20,000 comment lines, kept by `fmt` with the blank lines between.
    let mut text: String = (0..20_000).map(|i| format!("// c{i}\n")).collect();
    text.push_str("\n// last\nx = u\n");
    let file = dir.write("comments.alg", &text);
    let out = run(["fmt", file.to_str().unwrap()]);
    assert_eq!(out.code, Some(0), "{out:?}");
    assert_eq!(out.stdout, text);
    // 20,000 definitions, each naming the one before.
    let defs: String = std::iter::once("a0 = u\n".to_string())
        .chain((1..20_000).map(|i| format!("a{i} = a{} r\n", i - 1)))
        .collect();
    let file = dir.write("defs.alg", &format!("{defs}theorem t: a19999 = u r^19999\n"));
    let out = run(["check", file.to_str().unwrap()]);
    assert_eq!(out.code, Some(0), "{out:?}");
    assert!(out.stdout.contains("1 holds"), "{}", out.stdout);
    // A row of 200,000 cells, glued into one fragment.
    let file = dir.write(
        "row.alg",
        &format!(
            "theorem t: {}♙ = r^200000 ♙ + {}\n",
            ".".repeat(200_000),
            ".".repeat(200_000)
        ),
    );
    let out = run(["check", file.to_str().unwrap()]);
    assert_eq!(out.code, Some(0), "{out:?}");
}

#[test]
fn an_endless_input_is_refused_while_it_is_read() {
    let out = run(["check", "/dev/zero"]);
    refused(&out, "larger than 64 MiB");
}

#[test]
fn a_path_that_grows_past_its_bound_is_refused() {
    let out = run(["translate", "--from", "path", "/(F$L|F$R|FF$L|FF$R|FLF$|FRF$)*/"]);
    refused(&out, "more than 10000 terms written as a move");
    let straight = format!("/{}$/", "F".repeat(65));
    refused(
        &run(["translate", "--from", "path", &straight]),
        "goes more than 64 squares past the last square it reads",
    );
}

#[test]
fn more_positions_than_can_be_sampled_are_refused() {
    refused(
        &run(["check", "theorems/seed.alg", "--positions", "1000000000"]),
        "--positions",
    );
}

#[test]
fn a_file_of_many_errors_is_refused_quickly() {
    let dir = TempDir::new("hostile-many-errors");
    // Each error was drawn from the file's text, and each unknown name
    // compared with every definition: both quadratic, 35 s and 74 s here.
    let mut pieces = String::new();
    for i in 0..20_000 {
        pieces.push_str(&format!("piece 'A{i} / 'B{i}\n"));
    }
    let mut names = String::new();
    for i in 0..20_000 {
        names.push_str(&format!("d{i} = nope{i}\n"));
    }
    for (name, text, message) in [
        ("pieces.alg", pieces, "at most 240 pieces can be declared"),
        ("names.alg", names, "unknown name `nope0`"),
    ] {
        let file = dir.write(name, &text);
        let start = std::time::Instant::now();
        let out = run(["check", file.to_str().unwrap()]);
        refused(&out, message);
        assert!(out.stderr.contains("more errors not shown"), "{name}: {}", out.stderr);
        // Not a speed target: a minute means the quadratic is back.
        assert!(start.elapsed().as_secs() < 600, "{name}: {:?}", start.elapsed());
    }
}

/// An import chain 10,000 files deep is refused where it passes 64, at
/// once, by every command (each read the chain once per file before).
#[test]
fn an_import_chain_too_deep_is_refused_at_its_limit() {
    let dir = TempDir::new("hostile-chain");
    let n = 10_000;
    for i in 0..n {
        let import = if i + 1 < n {
            format!("import \"f{}.alg\"\n", i + 1)
        } else {
            String::new()
        };
        dir.write(&format!("f{i}.alg"), &format!("{import}d{i} = ♖\n"));
    }
    let top = dir.write(
        "top.alg",
        "import \"f0.alg\"\nstart = ♖.\ngame top(start) = nil\ntheorem t: u r = r u\n",
    );
    let top = top.to_str().unwrap();
    for args in [
        vec!["perft", top, "--depth", "2"],
        vec!["check", top],
        vec!["prove", top],
    ] {
        refused(&run(&args), "imports nest more than 64 files deep");
    }
}

/// A rule file whose every turn has 2^144 results (each of 144 empty
/// squares marked or not).
fn astronomical(dir: &TempDir) -> String {
    let board = vec![".".repeat(12); 12].join(";");
    let text = format!(
        "start = {board}\nx = (. -> ♙)*\ny = (. -> ♟)*\ngame star(start) = x, y\ntheorem t: (. -> ♙) = (. -> ♙) | (. -> ♙)\n"
    );
    dir.write("star.alg", &text).to_str().unwrap().to_string()
}

#[test]
fn perft_of_astronomically_many_results_stops_at_its_limits() {
    let dir = TempDir::new("hostile-star-perft");
    let file = astronomical(&dir);
    refused(
        &run(["perft", &file, "--depth", "1", "--timeout", "1"]),
        "raise --timeout",
    );
    let out = common::run_limited(
        "-v 3000000",
        &["perft", &file, "--depth", "1", "--memory-limit", "100M"],
    );
    refused(&out, "raise --memory-limit");
}

/// Sampling positions of play is within the limits too: a ply of 2^144
/// results stops at the memory limit, and the claim is still decided.
#[test]
fn check_and_prove_sample_play_within_their_limits() {
    let dir = TempDir::new("hostile-star-check");
    let file = astronomical(&dir);
    for cmd in ["check", "prove"] {
        let out = common::run_limited("-v 3000000", &[cmd, &file, "--timeout", "2", "--memory-limit", "200M"]);
        assert_eq!(out.code, Some(0), "{cmd}: {out:?}");
        assert!(out.stdout.contains("stopped the sampling"), "{cmd}: {}", out.stdout);
    }
}

/// A board 65,536 squares wide: one rook's 65,535 moves are counted one
/// board at a time (all held at once took 4 GB), and chess on it stops
/// at `--timeout`.
#[test]
fn perft_on_a_board_of_65536_files_is_bounded() {
    let dir = TempDir::new("hostile-wide");
    let w = 1 << 16;
    let rook = dir.write(
        "rook.alg",
        &format!(
            "start = ♖{}\nrook = %♖: (% + r. -> . + r%)+ | (l. + % -> l% + .)+\ngame rook(start) = rook, rook\n",
            ".".repeat(w - 1)
        ),
    );
    let out = common::run_limited(
        "-v 2000000",
        &["perft", rook.to_str().unwrap(), "--depth", "1", "--divide"],
    );
    assert_eq!(out.code, Some(0), "{out:?}");
    assert!(out.stdout.contains("perft 1: 65535"), "{}", out.stdout);
    let chess = std::fs::canonicalize("rules/chess.alg").unwrap();
    let rank = dir.write(
        "rank.alg",
        &format!(
            "import \"{}\"\nlong = 'Kc♕{}♛'kc\ngame rank(long) = white, black\ngame rank check: in_check, mirrored(in_check)\n",
            chess.display(),
            ".".repeat(w - 4)
        ),
    );
    let out = run(["perft", rank.to_str().unwrap(), "--depth", "3", "--timeout", "2"]);
    refused(&out, "raise --timeout");
}
