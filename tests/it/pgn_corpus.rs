//! The referee on real PGN files (`tests/fixtures/pgn_corpus/files`, their
//! sources in `SOURCES.md` there) against python-chess's reading of every
//! game (`python_chess.json`, written by `gen.py`): the plies played, the
//! final position, and whether an illegal or unreadable move stopped the
//! game, and the players' names (Latin-1 files among them). Where the two differ on purpose, `DIFFERENCES` says why, and the
//! test checks that they still differ there.

use crate::common::run;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::Path;

/// Games read otherwise than python-chess reads them: (file, games, why).
const DIFFERENCES: &[(&str, &[usize], &str)] = &[
    // Variants no rule file here plays: a per-game error, not a misreading.
    ("fsmosca_chess-artist__sample_atomic_chess960.pgn", &[1], "atomic"),
    ("niklasf_python-chess__antichess-programfox.pgn", &[1, 2], "antichess"),
    (
        "niklasf_python-chess__knightvuillaume-jannlee-zh-lichess.pgn",
        &[1],
        "crazyhouse",
    ),
    (
        "pychess_pychess__atomic.pgn",
        &[1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
        "atomic",
    ),
    ("pychess_pychess__sittuyin.pgn", &[1, 2, 3], "sittuyin"),
    (
        "yo35_kokopu__semantic-error.pgn",
        &[4],
        "a variant named `Something invalid`",
    ),
    // python-chess knows no `chess-960` and plays chess; it is Chess960.
    ("yo35_kokopu__chess960.pgn", &[3], "`chess-960` is Chess960"),
    // `<br />` for line breaks: python-chess drops the line silently, the
    // referee names `<br` as no move.
    ("jhlywa_chess.js__0.pgn", &[1], "HTML line breaks"),
    // PGN comments do not nest: python-chess reads the text after the
    // inner `}` as moves (`--nestedcomment` as a null move).
    ("lgbarn_pgn-extract-go__nested-comment.pgn", &[1], "a nested comment"),
    // An unreadable FEN tag: the game is not read (python-chess: no board).
    ("yo35_kokopu__semantic-error.pgn", &[3], "an unreadable FEN"),
    // A blank line inside the moves ends a game for python-chess, and
    // the rest is a game of its own; the referee reads on.
    (
        "yo35_kokopu__semantic-error.pgn",
        &[6, 7, 8],
        "a blank line in the moves",
    ),
];

/// python-chess stopped on this file with an exception (a variation
/// before the first move), and splits its games at blank lines: its
/// reading is no reference.
const NOT_COMPARED: &[&str] = &["yo35_kokopu__misc.pgn"];

#[test]
fn real_pgn_is_read_as_python_chess_reads_it() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/pgn_corpus");
    let fixture: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("python_chess.json")).unwrap()).unwrap();
    let mut files: Vec<_> = std::fs::read_dir(dir.join("files"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    assert!(files.len() >= 20);
    let out = run(std::iter::once("referee".as_ref())
        .chain(std::iter::once("--json".as_ref()))
        .chain(files.iter().map(|f| f.as_os_str())));
    let mut ours: BTreeMap<(String, usize), Value> = BTreeMap::new();
    let mut counts: BTreeMap<String, usize> = BTreeMap::new();
    for line in out.stdout.lines() {
        let v: Value = serde_json::from_str(line).unwrap();
        if v.get("summary").is_some() {
            continue;
        }
        let file = Path::new(v["file"].as_str().unwrap())
            .file_name()
            .unwrap()
            .to_string_lossy()
            .to_string();
        *counts.entry(file.clone()).or_default() += 1;
        ours.insert((file, v["game"].as_u64().unwrap() as usize), v);
    }
    let (mut same, mut plies) = (0, 0);
    let mut wrong = vec![];
    for g in fixture["games"].as_array().unwrap() {
        let file = g["file"].as_str().unwrap().to_string();
        if NOT_COMPARED.contains(&file.as_str()) {
            continue;
        }
        let n = g["game"].as_u64().unwrap() as usize;
        let expected_to_differ = DIFFERENCES.iter().any(|(f, k, _)| *f == file && k.contains(&n));
        let agrees = ours.get(&(file.clone(), n)).is_some_and(|o| {
            o.get("error").is_none()
                && o["plies"] == g["plies"]
                && o["final_fen"] == g["final_fen"]
                && o["white"] == g["white"]
                && o["black"] == g["black"]
                && o["illegal"].is_null() == g["errors"].as_array().unwrap().is_empty()
        });
        match (agrees, expected_to_differ) {
            (true, false) => {
                same += 1;
                plies += g["plies"].as_u64().unwrap();
            }
            (false, true) => {}
            (true, true) => wrong.push(format!("{file} game {n}: listed as a difference, but agrees")),
            (false, false) => wrong.push(format!(
                "{file} game {n}: python-chess {} plies, {}, {:?}; the referee {}",
                g["plies"],
                g["final_fen"],
                g["errors"],
                ours.get(&(file.clone(), n)).map_or("nothing".into(), |o| o.to_string())
            )),
        }
    }
    // The same games, file by file, but where lines python-chess drops or
    // splits at tell games apart otherwise.
    for (file, n) in fixture["files"].as_object().unwrap() {
        let split = ["jhlywa_chess.js__0.pgn", "yo35_kokopu__semantic-error.pgn"];
        if !NOT_COMPARED.contains(&file.as_str()) && !split.contains(&file.as_str()) {
            assert_eq!(
                counts.get(file),
                n["games"].as_u64().map(|n| n as usize).as_ref(),
                "{file}: games"
            );
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    // Nearly all of the corpus, Chess960 and Latin-1 files among it.
    assert!(same >= 900 && plies >= 65_000, "{same} games, {plies} plies");
}
