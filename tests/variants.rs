//! The variants of `rules/variants/`, each a few lines derived from
//! `rules/chess.alg`, against Fairy-Stockfish:
//! `tests/fixtures/variants/perft.txt`, made by `generate.py` there, holds
//! each variant's perft from the start (depth 4) and from ten positions of
//! random play (depth 3). The engine and the interpreter both count them.

mod common;

use algchess::{fen, perft, Position, Program, Rules};
use common::TempDir;
use std::collections::BTreeMap;
use std::path::Path;

fn fixture() -> BTreeMap<String, Vec<(String, Vec<u64>)>> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/variants/perft.txt");
    let text = std::fs::read_to_string(path).expect("the fixture");
    let mut out: BTreeMap<String, Vec<(String, Vec<u64>)>> = BTreeMap::new();
    for line in text.lines() {
        let [variant, fen, counts] = line.split('|').collect::<Vec<_>>()[..] else {
            panic!("not variant|fen|counts: {line}")
        };
        let counts = counts.split(' ').map(|n| n.parse().expect("a count")).collect();
        out.entry(variant.to_string())
            .or_default()
            .push((fen.to_string(), counts));
    }
    out
}

#[test]
fn derived_variants_count_as_fairy_stockfish() {
    let lines = fixture();
    assert!(lines.len() >= 3, "{:?}", lines.keys());
    for (variant, positions) in &lines {
        let file = format!("rules/variants/{variant}.alg");
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(&file);
        let prog = Program::load(&path).unwrap_or_else(|e| panic!("{file}: {e}"));
        // A variant changes a few definitions of chess, not all of them.
        let text = std::fs::read_to_string(&path).unwrap();
        let lines_of_code = text
            .lines()
            .filter(|l| !l.trim().is_empty() && !l.starts_with("//"))
            .count();
        assert!(lines_of_code <= 10, "{file}: {lines_of_code} lines");
        let game = prog
            .game(variant)
            .unwrap_or_else(|| panic!("{file} declares `{variant}`"));
        let (slow, fast) = (Rules::new(game), Rules::fast(game));
        assert!(positions.len() >= 11, "{variant}: {} positions", positions.len());
        for (i, (fen, counts)) in positions.iter().enumerate() {
            let (board, black) = fen::read(fen).unwrap_or_else(|e| panic!("{fen}: {}", e.message));
            let pos = Position {
                board,
                turn: usize::from(black),
            };
            if i == 0 {
                assert_eq!(slow.start(), pos, "{file}: the start");
            }
            for (depth, &want) in (1..).zip(counts) {
                assert_eq!(perft(&fast, &pos, depth).unwrap(), want, "{file}: {fen}, depth {depth}");
            }
            // The interpreter, the engine's reference, to depth 2.
            for (depth, &want) in (1..).zip(counts).take(2) {
                assert_eq!(perft(&slow, &pos, depth).unwrap(), want, "{file} (interpreter): {fen}");
            }
        }
    }
}

/// `base.alg`: a game whose turn calls `step`, and an end declaration.
const BASE: &str = "piece ♔ / ♚\n\
    step = %♔: (% + u. -> . + u%)\n\
    turn = step\n\
    game g(♔.;..;.♚) = turn, turn\n\
    game g draws: repetition\n";

fn load(dir: &TempDir, text: &str) -> Result<Program, String> {
    dir.write("base.alg", BASE);
    Program::load(&dir.write("main.alg", text)).map_err(|e| e.to_string())
}

fn error(dir: &TempDir, text: &str) -> String {
    load(dir, text).err().expect("an error")
}

#[test]
fn an_override_is_read_by_the_imported_definitions() {
    let dir = TempDir::new("override_late_binding");
    let prog = load(
        &dir,
        "import \"base.alg\"\noverride step = %♔: (% + r. -> . + r%)\ngame h = g\n",
    )
    .unwrap();
    let own = Program::from_text("t.alg", "piece ♔ / ♚\nx = %♔: (% + r. -> . + r%)\n").unwrap();
    // `turn`, defined in the imported file, calls the override.
    assert_eq!(prog.definition("turn"), own.definition("x"));
    let game = prog.game("h").expect("the derived game");
    assert_eq!(game.turns[0], *own.definition("x").unwrap());
    // Its end declarations come along.
    let rules = Rules::new(game);
    let start = rules.start();
    assert_eq!(perft(&rules, &start, 1).unwrap(), 1);
}

#[test]
fn override_mistakes_are_named() {
    let dir = TempDir::new("override_mistakes");
    let e = error(&dir, "import \"base.alg\"\nstep = fail\n");
    assert!(e.contains("`step` is defined twice"), "{e}");
    // The rendered error says how to replace it.
    let out = common::run(["perft", "--depth", "1", dir.path().join("main.alg").to_str().unwrap()]);
    assert_eq!(out.code, Some(2), "{out:?}");
    assert!(
        out.stderr.contains("write `override step = ...` to replace it"),
        "{}",
        out.stderr
    );
    let e = error(&dir, "import \"base.alg\"\noverride stop = fail\n");
    assert!(
        e.contains("nothing to override: no imported file defines `stop`"),
        "{e}"
    );
    let e = error(&dir, "x = nil\noverride x = fail\n");
    assert!(e.contains("`x` is defined in this file"), "{e}");
    let e = error(&dir, "import \"base.alg\"\ngame h = chess\n");
    assert!(e.contains("no imported file declares a game `chess`"), "{e}");
    // An import that cannot be read is the one error: nothing about the
    // names, overrides and games it would have given.
    let e = error(
        &dir,
        "import \"nowhere.alg\"\noverride step = fail\nx = step\ngame h = g\n",
    );
    assert!(e.contains("cannot read"), "{e}");
    for cascade in ["unknown name", "nothing to override", "no imported file"] {
        assert!(!e.contains(cascade), "{e}");
    }
}

/// A hand-written attack test for chess on a board `width` squares wide,
/// its lines written out to seven squares, and `queen` among the sliders
/// only when `with_queen`.
fn hand_written(width: usize, with_queen: bool) -> String {
    let chess = Path::new(env!("CARGO_MANIFEST_DIR")).join("rules/chess.alg");
    let q = if with_queen { " | ♛" } else { "" };
    let pad = ".".repeat(width - 8);
    let row = |r: &str| format!("{r}{pad}");
    let start = [
        row("'Rc♘♗♕'Kc♗♘'Rc"),
        row("♙♙♙♙♙♙♙♙"),
        row("........"),
        row("........"),
        row("........"),
        row("........"),
        row("♟♟♟♟♟♟♟♟"),
        row("'rc♞♝♛'kc♝♞'rc"),
    ]
    .join(";");
    format!(
        "import \"{}\"\n\
         sees(m, A) = holds(% + m A) | holds(% + m. + m^2 A) | holds(% + m. + m^2. + m^3 A)\n    \
         | holds(% + m. + m^2. + m^3. + m^4 A) | holds(% + m. + m^2. + m^3. + m^4. + m^5 A)\n    \
         | holds(% + m. + m^2. + m^3. + m^4. + m^5. + m^6 A)\n    \
         | holds(% + m. + m^2. + m^3. + m^4. + m^5. + m^6. + m^7 A)\n\
         override attacked = in_any_direction(sees(u, ♜ | 'rc{q}) | sees(ur, ♝{q}) | holds(% + uur ♞)\n    \
         | holds(% + uul ♞) | holds(% + u(♚ | 'kc)) | holds(% + ur(♚ | 'kc)))\n    \
         | holds(% + ur(♟ | 'pe)) | holds(% + ul(♟ | 'pe))\n\
         override start = {start}\n\
         game wide = chess\n",
        chess.display()
    )
}

#[test]
fn check_compares_a_hand_written_attack_test_with_the_moves() {
    let dir = TempDir::new("attack_lint");
    let check = |name: &str, text: &str| {
        let file = dir.write(name, text);
        common::run(["check", "--json", file.to_str().unwrap()])
    };
    // Right on 8×8: both lints hold.
    let out = check("right.alg", &hand_written(8, true));
    assert_eq!(out.code, Some(0), "{out:?}");
    assert_eq!(
        out.stdout.matches("\"verdict\":\"holds-up-to\"").count(),
        2,
        "{}",
        out.stdout
    );
    // The queen forgotten: refuted, on a board with a queen and a king.
    let out = check("forgotten.alg", &hand_written(8, false));
    assert_eq!(out.code, Some(1), "{out:?}");
    assert!(out.stdout.contains("\"verdict\":\"refuted\""), "{}", out.stdout);
    assert!(out.stdout.contains("♛"), "{}", out.stdout);
    // Lines of seven squares on a board ten wide: refuted too.
    let out = check("short.alg", &hand_written(10, true));
    assert_eq!(out.code, Some(1), "{out:?}");
    assert!(out.stdout.contains("\"verdict\":\"refuted\""), "{}", out.stdout);
    // `--no-lint` leaves a file without theorems with nothing to check.
    let short = dir.path().join("short.alg");
    let out = common::run(["check", "--no-lint", "--json", short.to_str().unwrap()]);
    assert!(out.stdout.contains("\"claims\":0"), "{}", out.stdout);
}
