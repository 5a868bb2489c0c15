//! PGN: any text reads as games or an error with its place, and each game
//! read is refereed by the chess rules (its FEN tag, its SAN plies).
#![no_main]

use algchess_core::{pgn, referee};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let rules = algchess_fuzz::chess();
    algchess_fuzz::on_big_stack(|| {
        let _ = pgn::read_all(text, 1);
        if let Ok(games) = pgn::read(text) {
            for g in games.iter().take(4) {
                if let Ok(report) = referee::referee(rules, g) {
                    let _ = report.result();
                    let _ = report.result_matches();
                }
            }
        }
    });
});
