//! Game ends of the variants in `rules/variants/` against
//! Fairy-Stockfish: `tests/fixtures/variant_ends/games.txt`, made by
//! `generate.py` there with pyffish, holds random games of every variant
//! Fairy-Stockfish knows, each played until an end holds: an immediate one
//! (a bare king), no move (checkmate, stalemate), insufficient material,
//! or a draw the side to move may claim (the n-move rule, repetition,
//! makruk's counting). The referee follows each game ply by ply: no end
//! and no claim before the last ply, then the same end, the same result
//! and the same FEN, counters and counting state included.

use algchess::{DrawClaim, Match};
use algchess::{Ending, GameOutcome, Program, Rules};
use std::collections::BTreeMap;
use std::path::Path;

const FIXTURE: &str = "tests/fixtures/variant_ends/games.txt";

/// One game of the fixture.
struct Game {
    variant: String,
    start: String,
    moves: Vec<String>,
    last: String,
    end: String,
    result: String,
}

fn games() -> Vec<Game> {
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(FIXTURE)).expect("the fixture");
    text.lines()
        .map(|line| {
            let [variant, start, moves, last, end, result] = line.split('|').collect::<Vec<_>>()[..] else {
                panic!("not variant|start|moves|final|end|result: {line}")
            };
            Game {
                variant: variant.into(),
                start: start.into(),
                moves: moves.split_whitespace().map(str::to_string).collect(),
                last: last.into(),
                end: end.into(),
                result: result.into(),
            }
        })
        .collect()
}

fn load(variant: &str) -> Program {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("rules/variants/{variant}.alg"));
    algchess::load(&path).unwrap_or_else(|e| panic!("{variant}: {e}"))
}

/// An end as the fixture names it.
fn named(m: &mut Match, o: &GameOutcome) -> &'static str {
    match o.ending {
        Ending::Checkmate => "checkmate",
        Ending::Stalemate => "stalemate",
        Ending::InsufficientMaterial => "insufficient_material",
        Ending::BareKing | Ending::Lost | Ending::Over => "immediate",
        Ending::NoMoves if m.in_check().unwrap() => "checkmate",
        Ending::NoMoves => "stalemate",
        other => panic!("an end Fairy-Stockfish does not reach first: {}", other.name()),
    }
}

/// A claim as the fixture names it.
fn claim(c: DrawClaim) -> &'static str {
    match c {
        DrawClaim::FiftyMoves | DrawClaim::MoveClaim => "claim:move_rule",
        DrawClaim::ThreefoldRepetition => "claim:repetition",
        DrawClaim::Counting => "claim:counting",
    }
}

/// What the referee says after the plies played: the end or claim, and
/// the result.
fn verdict(m: &mut Match) -> Option<(&'static str, String)> {
    if let Some(o) = m.end().unwrap() {
        return Some((named(m, &o), o.result()));
    }
    m.optional_end().unwrap().map(|c| (claim(c), "1/2-1/2".to_string()))
}

/// The FEN as the referee writes it; Chess960's read and written again,
/// as Fairy-Stockfish writes its castling rights as files (`HAha`).
fn same_fen(rules: &Rules, m: &Match, want: &str, chess960: bool) -> (String, String) {
    let ours = m.fen().expect("a FEN");
    if !chess960 {
        return (ours, want.to_string());
    }
    let theirs = Match::from_fen(rules, want).unwrap_or_else(|e| panic!("{want}: {e}"));
    (ours, theirs.fen().expect("a FEN"))
}

#[test]
fn variants_end_as_fairy_stockfish_ends_them() {
    let games = games();
    let mut programs: BTreeMap<String, Program> = BTreeMap::new();
    for g in &games {
        programs.entry(g.variant.clone()).or_insert_with(|| load(&g.variant));
    }
    let rules: BTreeMap<&str, Rules> = programs
        .iter()
        .map(|(v, p)| {
            (
                v.as_str(),
                Rules::fast(p.game(v).unwrap_or_else(|| panic!("{v} declares `{v}`"))),
            )
        })
        .collect();
    // Every variant file Fairy-Stockfish knows has games.
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("rules/variants");
    for entry in std::fs::read_dir(dir).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        let variant = name.strip_suffix(".alg").unwrap();
        if !variant.starts_with("irreversible") {
            assert!(rules.contains_key(variant), "{name} has no games in the fixture");
        }
    }
    let (mut plies, mut ends) = (0, BTreeMap::<&str, usize>::new());
    for (n, g) in games.iter().enumerate() {
        let r = &rules[g.variant.as_str()];
        let chess960 = g.variant == "chess960";
        let at = |ply: usize| format!("{} game {n} ({}), after ply {ply}", g.variant, g.start);
        let mut m = Match::from_fen(r, &g.start).unwrap_or_else(|e| panic!("{}: {e}", at(0)));
        for (i, mv) in g.moves.iter().enumerate() {
            assert_eq!(verdict(&mut m), None, "{}: the game goes on", at(i));
            let j = m.find(mv).unwrap_or_else(|e| panic!("{}: {mv}: {e}", at(i)));
            m.play(j).unwrap();
        }
        let (ours, theirs) = same_fen(r, &m, &g.last, chess960);
        assert_eq!(ours, theirs, "{}: the final FEN", at(g.moves.len()));
        let got = verdict(&mut m);
        let want = (g.end != "none").then(|| (g.end.as_str(), g.result.clone()));
        assert_eq!(got, want, "{}: the end", at(g.moves.len()));
        plies += g.moves.len();
        *ends.entry(g.end.as_str()).or_default() += 1;
    }
    // The ends this test is for are reached.
    for end in [
        "immediate",
        "checkmate",
        "stalemate",
        "insufficient_material",
        "claim:move_rule",
        "claim:repetition",
        "claim:counting",
    ] {
        assert!(ends.get(end).is_some_and(|&k| k >= 2), "{end}: {ends:?}");
    }
    assert!(plies > 10_000, "{plies} plies");
}

/// Each variant's insufficient material, as its file declares it (or
/// inherits it), against Fairy-Stockfish's on sparse positions
/// (`tests/fixtures/variant_ends/material.txt`): a variant that changes
/// its pieces and keeps an end that no longer fits fails here. The
/// fixture's `1` is pyffish's `has_insufficient_material` true for both
/// sides, neither able to mate, which is what the referee's
/// `Ending::InsufficientMaterial` declares at once (and what the games
/// above end on); a side that alone cannot mate is no end in either. The
/// positions have a move and no end at once, so no mate, stalemate or
/// bare king is told before the material.
#[test]
fn variants_draw_for_material_as_fairy_stockfish() {
    let text =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/variant_ends/material.txt"))
            .expect("the fixture");
    let lines: Vec<[&str; 3]> = text
        .lines()
        .map(|line| match line.split('|').collect::<Vec<_>>()[..] {
            [variant, fen, want] => [variant, fen, want],
            _ => panic!("not variant|fen|drawn: {line}"),
        })
        .collect();
    let programs: BTreeMap<&str, Program> = lines.iter().map(|[v, ..]| (*v, load(v))).collect();
    let rules: BTreeMap<&str, Rules> = programs
        .iter()
        .map(|(v, p)| (*v, Rules::fast(p.game(v).unwrap())))
        .collect();
    let (mut drawn, mut positions) = (0, 0);
    let mut wrong = Vec::new();
    for [variant, fen, want] in lines {
        let rules = &rules[variant];
        let mut m = Match::from_fen(rules, fen).unwrap_or_else(|e| panic!("{variant} {fen}: {e}"));
        let end = m.end().unwrap().map(|o| o.ending);
        let insufficient = end == Some(Ending::InsufficientMaterial);
        if !(end.is_none() || insufficient) || insufficient != (want == "1") {
            wrong.push(format!("{variant} {fen}: {end:?}, Fairy-Stockfish drawn {want}"));
        }
        drawn += usize::from(insufficient);
        positions += 1;
    }
    assert!(
        wrong.is_empty(),
        "{} of {positions}:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
    assert!(positions >= 1000 && drawn >= 300, "{drawn} of {positions} drawn");
}
