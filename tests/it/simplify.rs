//! `simplify`: the simplified file means the same and is a fixpoint.

use algchess::Laws;
use algchess::Rewrites;
use algchess::{check_claim, ClaimOptions, EnumerationOptions, Finding};
use algchess::{perft, Rules};
use algchess::{simplify_text, SimplifyOptions, SystemClock};
use algchess::{Claim, Program};
use algchess::{ClaimKind, Rel};
use std::time::Duration;

fn simplify(text: &str) -> String {
    let laws = Laws::bundled();
    let rules = Rewrites::new(&laws);
    simplify_text("t.alg", text, &algchess::NoFiles, &rules, &SimplifyOptions::default())
        .unwrap()
        .text
}

/// Every definition of `before` and `after` is the same move, checked on
/// all boards of up to `cells` squares.
fn same_definitions(before: &Program, after: &Program, cells: usize) -> usize {
    let mut changed = 0;
    for (name, t) in before.definitions() {
        let u = after.definition(name).expect("every definition is kept");
        if t == u {
            continue;
        }
        changed += 1;
        let claim = Claim {
            name: name.to_string(),
            kind: ClaimKind::Theorem,
            lhs: t.clone(),
            rel: Rel::Eq,
            rhs: u.clone(),
            conds: vec![],
            source: before.source().clone(),
            span: Default::default(),
            tiling: Default::default(),
            pieces: before.pieces().clone(),
        };
        let options = ClaimOptions {
            search: EnumerationOptions {
                max_cells: cells,
                ..EnumerationOptions::default()
            },
            ..ClaimOptions::default()
        };
        let r = check_claim(&claim, &options, &|_, _, _| {});
        assert_eq!(
            r.verdict,
            Finding::HoldsUpTo,
            "`{name}` changed meaning: {:?}",
            r.counterexample
        );
        // Anchored moves are decided on their window, whatever its size.
        assert!(
            r.complete && (r.bound.is_some() || r.cells == cells),
            "`{name}` was not checked in full"
        );
    }
    changed
}

#[test]
fn a_definition_that_would_read_longer_is_kept_as_written() {
    let text = "
in_any_direction(M) = M | R M | R² M | R³ M
free = . | ♟
knight = in_any_direction((♘ + uur free -> . + uur♘) | (♘ + uul free -> . + uul♘))
turn = knight
game g(♘..;...;...) = turn
";
    let out = simplify(text);
    let (a, b) = (
        Program::from_text("a", text).unwrap(),
        Program::from_text("b", &out).unwrap(),
    );
    assert_eq!(same_definitions(&a, &b, 9), 0);
    // As a binder the knight is cheaper but reads longer (`%♘: ...`).
    assert!(
        out.contains("knight = in_any_direction((♘ + uur free -> . + uur♘) | (♘ + uul free -> . + uul♘))"),
        "{out}"
    );
    assert_eq!(simplify(&out), out, "a simplified file simplifies to itself");
}

#[test]
fn rules_inside_binders_are_left_alone() {
    // `free_step` is used inside a binder, where an unanchored rule must
    // not become a binder: the outer POI's square reads `%` to it.
    let text = "
free_step = ♟ -> .
inside = %♖: free_step
game g(♖♟) = inside
";
    let out = simplify(text);
    assert!(out.contains("free_step = ♟ -> ."), "{out}");
}

#[test]
fn simplified_chess_plays_the_same_and_is_a_fixpoint() {
    let text = std::fs::read_to_string("rules/chess.alg").unwrap();
    let out = simplify(&text);
    let (a, b) = (
        Program::from_text("a", &text).unwrap(),
        Program::from_text("b", &out).unwrap(),
    );
    // Small boards for the definitions (the full search over chess moves
    // is exponential), and the whole game by perft on the real board.
    // Binders would make the knight and the en passant clean-up longer
    // to read, so they stay as written; the file keeps its own words.
    assert!(out.contains("knight = in_any_direction("), "{out}");
    assert!(out.contains("clear_ep = ('Pe -> ♙)*!"), "{out}");
    assert!(same_definitions(&a, &b, 4) >= 1);
    let (ra, rb) = (
        Rules::new(a.game("chess").unwrap()),
        Rules::new(b.game("chess").unwrap()),
    );
    for depth in 1..=3 {
        assert_eq!(
            perft(&ra, &ra.start(), depth).unwrap(),
            perft(&rb, &rb.start(), depth).unwrap()
        );
    }
    assert_eq!(simplify(&out), out, "a simplified file simplifies to itself");
}

/// The simplified file is no longer than its input and is formatted as
/// `fmt` writes it.
fn readable(path: &str) -> String {
    let text = std::fs::read_to_string(path).unwrap();
    let out = simplify(&text);
    assert!(
        out.chars().count() <= text.chars().count(),
        "{path}: {} characters simplified to {}",
        text.chars().count(),
        out.chars().count()
    );
    let file = algchess::parse_file(&out).unwrap();
    assert_eq!(algchess::format_file(&file, &out), out, "{path}: not formatted");
    out
}

#[test]
fn bundled_games_simplify_to_files_no_longer_and_formatted() {
    for path in [
        "rules/chess.alg",
        "rules/othello.alg",
        "rules/snake.alg",
        "rules/tictactoe.alg",
    ] {
        readable(path);
    }
}

#[test]
fn naive_chess_simplifies_to_the_same_game() {
    let out = readable("rules/naive/naive_chess.alg");
    same_game("chess", "rules/chess.alg", "rules/naive/naive_chess.alg", &out);
}

/// The naive file and its simplified text count as the idiomatic file
/// does, to depth 3.
fn same_game(game: &str, idiomatic: &str, naive: &str, simplified: &str) {
    let idiomatic = algchess::load(std::path::Path::new(idiomatic)).unwrap();
    let naive = Program::from_text("n", &std::fs::read_to_string(naive).unwrap()).unwrap();
    let simplified = Program::from_text("s", simplified).unwrap();
    let count = |p: &Program, depth| {
        let r = Rules::new(p.game(game).unwrap());
        perft(&r, &r.start(), depth).unwrap()
    };
    for depth in 1..=3 {
        let want = count(&idiomatic, depth);
        assert_eq!(count(&naive, depth), want, "naive, depth {depth}");
        assert_eq!(count(&simplified, depth), want, "simplified, depth {depth}");
    }
}

/// Every bundled rule file, simplified within the limits `perft` uses,
/// reads no longer, is formatted and does not depend on the clock; the files with games play the same.
#[test]
fn every_bundled_file_simplifies_quickly_to_no_longer_and_formatted() {
    let mut paths = vec![];
    for dir in ["rules", "rules/naive"] {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.extension().is_some_and(|x| x == "alg") {
                paths.push(p);
            }
        }
    }
    assert!(paths.len() >= 9, "{paths:?}");
    for path in paths {
        let text = std::fs::read_to_string(&path).unwrap();
        let name = path.display().to_string();
        let prog = algchess::load(&path).unwrap();
        let laws = Laws::bundled_on(prog.tiling());
        let rules = Rewrites::new(&laws);
        let out = simplify_text(&name, &text, &algchess::Files, &rules, &SimplifyOptions::quick())
            .unwrap()
            .text;
        // Nodes and iterations bind, not time: with forty times the time
        // the text is the same, so a busy machine plays the same file.
        let unhurried = SimplifyOptions::quick().within(Duration::from_secs(10), Duration::from_secs(40), &SystemClock);
        let again = simplify_text(&name, &text, &algchess::Files, &rules, &unhurried)
            .unwrap()
            .text;
        assert_eq!(again, out, "{name}: the quick limits bound on time");
        assert!(out.chars().count() <= text.chars().count(), "{name}: longer");
        let file = algchess::parse_file(&out).unwrap();
        assert_eq!(algchess::format_file(&file, &out), out, "{name}: not formatted");
        let after = Program::from_text_with(&name, &out, prog.tiling(), &algchess::Files).unwrap();
        for g in prog.games() {
            let (ra, rb) = (Rules::new(g), Rules::new(after.game(&g.name).unwrap()));
            for depth in 1..=2 {
                assert_eq!(
                    perft(&ra, &ra.start(), depth).unwrap(),
                    perft(&rb, &rb.start(), depth).unwrap(),
                    "{name}: {}",
                    g.name
                );
            }
        }
    }
}

#[test]
fn naive_fairy_pieces_simplify_to_binders_and_play_as_fairy_alg() {
    let out = readable("rules/naive/naive_fairy.alg");
    // Every piece is found by one binder; the directions stay named.
    for binder in [
        "camel = %'Camel:",
        "nightrider = %'Nightrider: nightrider_uur",
        "princess = %'Princess:",
        "king = %'K:",
    ] {
        assert!(out.contains(binder), "{binder}\n{out}");
    }
    assert!(
        out.contains("nightrider_uur = (% + uur free -> . + uur'Nightrider)"),
        "{out}"
    );
    // Five separate tests of the king became one, over `attacked`, which
    // costs what its cheaper parts do.
    let white = out.lines().find(|l| l.starts_with("white =")).unwrap();
    assert_eq!(white, "white = white_move not (%'K: attacked)", "{out}");
    // Comments are kept.
    assert!(
        out.contains("// Attacks on the POI's square, one attacker at a time"),
        "{out}"
    );
    same_game(
        "fairy",
        "rules/naive/fairy_game.alg",
        "rules/naive/naive_fairy.alg",
        &out,
    );
}

#[test]
fn naive_chess_tests_the_king_once_by_its_own_name() {
    let out = readable("rules/naive/naive_chess.alg");
    let white = out.lines().find(|l| l.starts_with("white =")).unwrap();
    // Twelve separate tests became one, over `attacked` on each king cell.
    assert_eq!(white.matches("not").count(), 1, "{white}");
    assert_eq!(white.matches("attacked").count(), 2, "{white}");
    assert!(
        out.contains("rook = %'R: rook_up | rook_down | rook_left | rook_right"),
        "{out}"
    );
    // The king's steps to empty squares, which its steps to free squares
    // include, are gone; the rest reads as written.
    assert!(!out.contains("u. -> . + u'K"), "{out}");
    assert!(out.contains("king = %'K: (% + u free -> . + u'K)\n"), "{out}");
    // The file spells its pieces in ASCII, and so does what it simplifies to.
    assert!(white.contains("%'K: attacked"), "{white}");
    assert!(!out.contains(['♔', '♚', '♝', '♛', '♞', '♜', '♟']), "{out}");
}
