//! `algchess play --engine SIDE`: a person plays a game in the terminal
//! against the search, which plays turn SIDE.

use super::interactive::{draw, draw_hex, turn_label};
use algchess_core::{mate_in, move_words, position_hash, Limits, Match, Searcher, Values};
use algchess_core::{Square, SystemClock, Tiling, Timer};
use std::io::{BufRead, Write};
use std::time::Duration;

/// How the engine plays.
pub(super) struct Computer {
    /// The turn it plays.
    pub side: usize,
    pub movetime: Duration,
    pub depth: Option<u32>,
}

const HELP: &str = "Type a move by name (`e2e4`, `Nf3`, `11-15`, `d3`), or `moves`, `board`, `help`, `quit`.";

/// Plays from `m` until the game ends, the person quits or input ends;
/// `shown` is told each board shown, with the squares the last move
/// changed.
pub(super) fn play(
    mut m: Match,
    engine: &Computer,
    names_of_turns: &[Option<String>],
    input: impl BufRead,
    mut out: impl Write,
    shown: &dyn Fn(&algchess_core::Grid, &[Square]),
) -> std::io::Result<()> {
    let rules = m.rules;
    let values = match Values::derive(rules, 64, 100, 0x5eed) {
        Ok(v) => v,
        Err(e) => return writeln!(out, "error: {e}"),
    };
    let mut searcher = Searcher::new(64);
    let mut history: Vec<u64> = vec![];
    let mut lines = input.lines();
    let mut changed: Vec<Square> = vec![];
    let sides = rules.turns.len();
    writeln!(out, "{HELP}")?;
    writeln!(
        out,
        "the engine plays {}",
        turn_label(engine.side, sides, names_of_turns)
    )?;
    let mut show = true;
    loop {
        if show {
            shown(&m.pos.board, &changed);
            let board = match rules.tiling {
                Tiling::Hex => draw_hex(&m.pos.board, &changed, false, &rules.pieces),
                Tiling::Square => draw(&m.pos.board, &changed, false, &rules.pieces),
            };
            for l in board {
                writeln!(out, "{l}")?;
            }
        }
        show = true;
        match m.end() {
            Ok(Some(o)) => {
                writeln!(out, "game over: {} ({})", o.result(), o.ending.name().replace('_', " "))?;
                return Ok(());
            }
            Ok(None) if m.count() == 0 => {
                writeln!(out, "game over: no legal move")?;
                return Ok(());
            }
            Ok(None) => {}
            Err(e) => return writeln!(out, "error: {e}"),
        }
        let all = match move_words::names(&mut m) {
            Ok(n) => n,
            Err(e) => return writeln!(out, "error: {e}"),
        };
        let label = turn_label(m.pos.turn, sides, names_of_turns);
        let chosen = if m.pos.turn == engine.side {
            let limits = Limits {
                depth: engine.depth,
                time: Timer::limited(engine.movetime, &SystemClock),
                ..Limits::default()
            };
            let found = searcher.search(&mut m, &history, &values, &limits, &mut |_| {});
            match found {
                Ok(Some(info)) => {
                    let i = info.pv.first().copied().unwrap_or(0);
                    let score = match mate_in(info.score) {
                        Some(n) => format!("mate {n}"),
                        None => format!("{:+.2}", f64::from(info.score) / 100.0),
                    };
                    writeln!(
                        out,
                        "{label}: the engine plays {} (depth {}, {score})",
                        all[i], info.depth
                    )?;
                    i
                }
                Ok(None) => return writeln!(out, "game over: no legal move"),
                Err(e) => return writeln!(out, "error: {e}"),
            }
        } else {
            write!(out, "{label} to move> ")?;
            out.flush()?;
            let Some(line) = lines.next() else { return Ok(()) };
            let line = line?;
            let text = line.trim();
            match text {
                "quit" => return Ok(()),
                "help" => {
                    writeln!(out, "{HELP}")?;
                    writeln!(
                        out,
                        "the engine plays {}",
                        turn_label(engine.side, sides, names_of_turns)
                    )?;
                    show = false;
                    continue;
                }
                "board" => continue,
                "moves" | "" => {
                    writeln!(out, "{}", all.join(" "))?;
                    show = false;
                    continue;
                }
                _ => match move_words::find(&mut m, text) {
                    Ok(i) => i,
                    Err(e) => {
                        writeln!(out, "{e}")?;
                        show = false;
                        continue;
                    }
                },
            }
        };
        changed = m.changes()[chosen].iter().map(|&(q, _)| q).collect();
        history.push(position_hash(&m.pos.board, m.pos.turn));
        if let Err(e) = m.play(chosen) {
            return writeln!(out, "error: {e}");
        }
    }
}
