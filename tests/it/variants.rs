//! The variants of `rules/variants/`, each a few lines derived from
//! `rules/chess.alg`, against Fairy-Stockfish:
//! `tests/fixtures/variants/perft.txt`, made by `generate.py` there, holds
//! each variant's perft from the start (depth 5) and from ten positions of
//! random play (depth 3 or 4). The engine counts them, up to
//! `QUICK_LEAVES` leaves a count here and all of them in the ignored
//! `deep_counts_as_fairy_stockfish`; the interpreter, its reference,
//! counts each position to depth 2.

use crate::common;
use crate::common::TempDir;
use algchess::DrawClaim;
use algchess::{fen, perft, Pieces, Position, Program, Rules};
use std::collections::BTreeMap;
use std::path::Path;
use std::time::Instant;

/// The largest count the quick test makes; the rest are left to
/// `deep_counts_as_fairy_stockfish`.
const QUICK_LEAVES: u64 = 2_000_000;

pub(crate) type Fixture = BTreeMap<String, Vec<(String, Vec<u64>)>>;

pub(crate) fn fixture() -> Fixture {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/variants/perft.txt");
    let text = std::fs::read_to_string(path).expect("the fixture");
    let mut out: Fixture = BTreeMap::new();
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

/// The variant's file, checked to be a few lines derived from chess.
fn variant_file(variant: &str) -> Program {
    let file = format!("rules/variants/{variant}.alg");
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(&file);
    let prog = algchess::load(&path).unwrap_or_else(|e| panic!("{file}: {e}"));
    let text = std::fs::read_to_string(&path).unwrap();
    // Counted as `fmt` writes it, long unions broken over lines.
    let parsed = algchess::parse_file(&text).unwrap();
    assert_eq!(algchess::format_file(&parsed, &text), text, "{file} is not formatted");
    // Statements: a line `fmt` breaks goes on indented; the game's end
    // declarations (`game NAME KIND: ...`) are not counted.
    let code: Vec<&str> = text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with("//") && !l.starts_with(' '))
        .filter(|l| !(l.starts_with("game ") && l.split_whitespace().nth(2).is_some_and(|k| k.ends_with(':'))))
        .collect();
    assert!(code.len() <= 10, "{file}: {} statements", code.len());
    assert!(
        code.iter().any(|l| l.starts_with("import \"")),
        "{file} imports the game it derives from"
    );
    prog
}

pub(crate) fn position(fen: &str, pieces: &Pieces) -> Position {
    let (board, black) = fen::read(fen, pieces).unwrap_or_else(|e| panic!("{fen}: {}", e.message));
    Position {
        board,
        turn: usize::from(black),
    }
}

/// Counts `variant`'s fixture positions with the engine, the counts whose
/// leaves `run` takes; the leaves counted.
fn count(variant: &str, positions: &[(String, Vec<u64>)], run: impl Fn(u64) -> bool) -> u64 {
    let prog = variant_file(variant);
    let game = prog
        .game(variant)
        .unwrap_or_else(|| panic!("rules/variants/{variant}.alg declares `{variant}`"));
    let fast = Rules::fast(game);
    let mut leaves = 0;
    for (i, (fen, counts)) in positions.iter().enumerate() {
        let pos = position(fen, &fast.pieces);
        if i == 0 {
            assert_eq!(fast.start(), pos, "{variant}: the start");
        }
        for (depth, &want) in (1..).zip(counts) {
            if run(want) {
                assert_eq!(
                    perft(&fast, &pos, depth).unwrap(),
                    want,
                    "{variant}: {fen}, depth {depth}"
                );
                leaves += want;
            }
        }
    }
    leaves
}

#[test]
fn derived_variants_count_as_fairy_stockfish() {
    let lines = fixture();
    assert!(lines.len() >= 20, "{:?}", lines.keys());
    // Every file of rules/variants/ is checked.
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("rules/variants");
    for entry in std::fs::read_dir(dir).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        let Some(variant) = name.strip_suffix(".alg") else {
            continue;
        };
        // Chess960 has a published table of its own (tests/it/chess960.rs).
        if variant == "chess960" {
            continue;
        }
        // Fairy-Stockfish has no Irreversible Chess: tests/it/irreversible.rs
        // checks it against a generator of its own.
        if variant.starts_with("irreversible") {
            continue;
        }
        assert!(lines.contains_key(variant), "{name} has no counts in the fixture");
    }
    for (variant, positions) in &lines {
        assert!(positions.len() >= 11, "{variant}: {} positions", positions.len());
        assert!(positions[0].1.len() >= 5, "{variant}: the start to depth 5");
        assert!(
            positions[1..].iter().all(|(_, counts)| counts.len() >= 3),
            "{variant}: positions to depth 3"
        );
        count(variant, positions, |n| n <= QUICK_LEAVES);
        // The interpreter, the engine's reference, to depth 2.
        let prog = variant_file(variant);
        let slow = Rules::new(prog.game(variant).unwrap());
        for (fen, counts) in positions {
            let pos = position(fen, &slow.pieces);
            for (depth, &want) in (1..).zip(counts).take(2) {
                assert_eq!(
                    perft(&slow, &pos, depth).unwrap(),
                    want,
                    "{variant} (interpreter): {fen}"
                );
            }
        }
    }
}

/// How `fen` ends in `variant` (`chess` for chess.alg): the ending's name
/// and result, or `None` while the game goes on.
fn ending(variant: &str, fen: &str) -> Option<(&'static str, String)> {
    use algchess::Match;
    let prog = if variant == "chess" {
        algchess::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("rules/chess.alg")).unwrap()
    } else {
        variant_file(variant)
    };
    let rules = Rules::fast(prog.game(variant).unwrap());
    let mut m = Match::from_fen(&rules, fen).unwrap();
    m.end().unwrap().map(|o| (o.ending.name(), o.result()))
}

/// Variants whose game ends are not chess's declare their own, which
/// replace the ones they derive.
#[test]
fn variants_end_by_their_own_rules() {
    let draw = |name| Some((name, "1/2-1/2".to_string()));
    // A king and a knight: no mate in chess, nor, as Fairy-Stockfish
    // counts it, with New Zealand's knight, which takes as a rook; a
    // nightrider may mate.
    let kn = "8/8/4k3/8/8/3K1N2/8/8 w - - 0 1";
    assert_eq!(ending("chess", kn), draw("insufficient_material"));
    assert_eq!(ending("hoppelpoppel", kn), draw("insufficient_material"));
    assert_eq!(ending("newzealand", kn), draw("insufficient_material"));
    assert_eq!(ending("nightrider", kn), None);
    // Bishops on one colour: Hoppel-Poppel's take as knights.
    let bb = "8/8/4k3/8/8/2BKB3/8/8 w - - 0 1";
    assert_eq!(ending("chess", bb), draw("insufficient_material"));
    assert_eq!(ending("newzealand", bb), draw("insufficient_material"));
    assert_eq!(ending("hoppelpoppel", bb), None);
    // Stalemate is a draw in chess, a loss in shatranj and chaturanga.
    let stalemate = "k7/p7/P1N5/1K6/8/8/8/8 b - - 0 1";
    assert_eq!(ending("chess", stalemate), draw("stalemate"));
    for v in ["shatranj", "chaturanga"] {
        assert_eq!(ending(v, stalemate), Some(("no_moves", "1-0".to_string())), "{v}");
    }
    // Seventy moves without a capture or a pawn's move may be claimed in
    // shatranj; chess goes on to seventy-five.
    let quiet = "r3k3/8/8/8/8/8/8/4K2R w - - 140 90";
    assert_eq!(ending("chess", quiet), None);
    assert_eq!(ending("shatranj", quiet), None);
    assert_eq!(ending("amazon", quiet), None);
    assert_eq!(claim("shatranj", quiet), Some(DrawClaim::MoveClaim));
    assert_eq!(claim("chess", quiet), Some(DrawClaim::FiftyMoves));
    assert_eq!(claim("shatranj", "r3k3/8/8/8/8/8/8/4K2R w - - 139 90"), None);
    // A bare king: lost in shatranj and courier, unless it may take the
    // other side's last piece at once; a draw in shatar; chaturanga plays
    // on, and draws with kings alone.
    let bared = "8/8/4k3/8/8/3K4/3R4/8 w - - 0 1";
    let lost = Some(("bare_king", "1-0".to_string()));
    assert_eq!(ending("shatranj", bared), lost);
    assert_eq!(ending("shatranj", "8/8/4k3/8/8/3K4/3R4/8 b - - 0 1"), None);
    assert_eq!(ending("shatranj", "8/8/4k3/8/8/3K4/3RR3/8 b - - 0 1"), lost);
    assert_eq!(ending("shatar", bared), draw("bare_king"));
    assert_eq!(ending("chaturanga", bared), None);
    assert_eq!(
        ending("chaturanga", "8/8/4k3/8/8/3K4/8/8 w - - 0 1"),
        draw("insufficient_material")
    );
    // Makruk knows the met: a king and a met, or a pawn, cannot mate.
    assert_eq!(
        ending("makruk", "8/8/4k3/8/8/3K4/3M4/8 w - - 0 1"),
        draw("insufficient_material")
    );
    assert_eq!(
        ending("makruk", "8/8/4k3/8/3P4/3K4/8/8 w - - 0 1"),
        draw("insufficient_material")
    );
    assert_eq!(ending("makruk", "8/8/4k3/8/8/3K4/3S4/8 w - - 0 1"), None);
    // Horde's white, with no king, loses with its last piece; black, with
    // its king, as in chess.
    let bare = "4k3/8/8/8/8/8/8/8 w - - 0 1";
    assert_eq!(ending("horde", bare), Some(("lost", "0-1".to_string())));
    assert_eq!(ending("horde", "4k3/8/8/8/8/8/8/P7 w - - 0 1"), None);
    assert_eq!(ending("horde", "4k3/8/8/8/8/8/8/P7 b - - 0 1"), None);
    let mate = "7k/5PP1/5PP1/8/8/8/8/8 b - - 0 1";
    assert_eq!(ending("horde", mate), Some(("checkmate", "1-0".to_string())));
    // Black wins by taking everything: a lone knight is no draw.
    assert_eq!(ending("horde", "4k3/8/8/8/8/8/8/N7 w - - 0 1"), None);
}

/// The draw the side to move may claim in `fen`, as Fairy-Stockfish offers it.
fn claim(variant: &str, fen: &str) -> Option<DrawClaim> {
    let prog = if variant == "chess" {
        algchess::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("rules/chess.alg")).unwrap()
    } else {
        variant_file(variant)
    };
    let rules = Rules::fast(prog.game(variant).unwrap());
    let mut m = algchess::Match::from_fen(&rules, fen).unwrap();
    m.optional_end().unwrap()
}

/// Positions where Fairy-Stockfish counts no move, because the game is
/// over at once, count 0: a bare king in shatranj, courier and shatar.
#[test]
fn a_game_over_at_once_has_no_moves() {
    for (variant, fen, want) in [
        ("shatranj", "8/8/4k3/8/8/3K4/3R4/8 w - - 0 1", [0, 0]),
        ("shatranj", "8/8/4k3/8/8/3K4/3R4/8 b - - 0 1", [8, 0]),
        ("shatranj", "8/8/4k3/8/8/3K4/3RR3/8 b - - 0 1", [0, 0]),
        ("courier", "12/12/4k7/12/12/3K8/3R8/12 w - - 0 1", [0, 0]),
        ("shatar", "8/8/4k3/8/8/3K4/3R4/8 w - - 0 1", [0, 0]),
        ("shatar", "8/8/4k3/8/8/3K4/3R4/8 b - - 0 1", [0, 0]),
        ("chaturanga", "8/8/4k3/8/8/3K4/3R4/8 b - - 0 1", [8, 114]),
    ] {
        let prog = variant_file(variant);
        let game = prog.game(variant).unwrap();
        for rules in [Rules::fast(game), Rules::new(game)] {
            let pos = position(fen, &rules.pieces);
            for (depth, n) in (1..).zip(want) {
                assert_eq!(perft(&rules, &pos, depth).unwrap(), n, "{variant} {fen} depth {depth}");
            }
        }
    }
    // `perft --json` gives every depth asked for, those past the end 0.
    let out = common::run([
        "perft",
        "--json",
        "--depth",
        "3",
        "--fen",
        "8/8/4k3/8/8/3K4/3R4/8 b - - 0 1",
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("rules/variants/shatranj.alg")
            .to_str()
            .unwrap(),
    ]);
    assert_eq!(out.code, Some(0), "{out:?}");
    for (d, n) in [(1, 8), (2, 0), (3, 0)] {
        assert!(
            out.stdout.contains(&format!("{{\"depth\":{d},\"leaves\":{n},")),
            "{}",
            out.stdout
        );
    }
}

/// The counts the quick test leaves out, with the time each variant takes
/// (`cargo test --release -- --ignored --nocapture`).
#[test]
#[ignore]
fn deep_counts_as_fairy_stockfish() {
    for (variant, positions) in &fixture() {
        let t = Instant::now();
        let leaves = count(variant, positions, |n| n > QUICK_LEAVES);
        let s = t.elapsed().as_secs_f64();
        println!("{variant}: {leaves} leaves in {s:.2} s");
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
    algchess::load(&dir.write("main.alg", text)).map_err(|e| e.to_string())
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
    let e = error(
        &dir,
        "import \"base.alg\"\ngame h = g\ngame h draws: repetition\ngame h draws: repetition\n",
    );
    assert!(e.contains("game `h` declares its `draws` ends twice"), "{e}");
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

/// Makruk's count stands in FEN where Fairy-Stockfish writes it: its limit
/// in place of the en passant square, its plies in place of the clock.
#[test]
fn makruk_counts_in_fen() {
    let prog = variant_file("makruk");
    let rules = Rules::fast(prog.game("makruk").unwrap());
    let after = |fen: &str, plies: &[&str]| {
        let mut m = algchess::Match::from_fen(&rules, fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        for p in plies {
            let i = m.find(p).unwrap();
            m.play(i).unwrap();
        }
        (m.fen().unwrap(), m.optional_end().unwrap())
    };
    // A bare king against a rook counts 16 moves, from the pieces on the
    // board (Fairy-Stockfish's FENs).
    let (fen, claim) = after("8/8/4k3/8/8/3K4/3R4/8 w - - 0 1", &["d3e3", "e6f6"]);
    assert_eq!((fen.as_str(), claim), ("8/8/5k2/8/8/4K3/3R4/8 w - 32 7 2", None));
    let (fen, _) = after("8/8/4k3/8/8/3K4/3R4/8 w - 16 6 1", &["d3e3", "e6f6"]);
    assert_eq!(fen, "8/8/5k2/8/8/4K3/3R4/8 w - 16 8 2");
    // Read and written back; run out, it may be claimed.
    for fen in [
        "rnsmksnr/8/8/8/8/8/8/RNSKMSNR w - 128 6 1",
        "8/8/4k3/8/8/3K4/3R4/8 b - 16 16 9",
    ] {
        assert_eq!(after(fen, &[]), (fen.to_string(), None));
    }
    let (_, claim) = after("8/8/4k3/8/8/3K4/3R4/8 b - 16 17 9", &[]);
    assert_eq!(claim, Some(DrawClaim::Counting));
    // Chess reads no count there.
    let chess = algchess::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("rules/chess.alg")).unwrap();
    let chess = Rules::fast(chess.game("chess").unwrap());
    assert!(algchess::Match::from_fen(&chess, "8/8/4k3/8/8/3K4/3R4/8 w - 16 6 1").is_err());
}
