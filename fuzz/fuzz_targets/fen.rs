//! FEN: any text reads as a position or a clear error; a position that
//! reads is written, and what is written reads and is written the same
//! again; a chess referee starts from it.
#![no_main]

use algchess_core::{fen, Match};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let rules = algchess_fuzz::chess();
    algchess_fuzz::on_big_stack(|| {
        let pieces = &rules.pieces;
        let _ = fen::placement(text, pieces);
        let _ = fen::counters(text);
        // What is written reads back and is written the same again. (Not
        // the board read first: a FEN may give rights no board of chess
        // has, such as two rooks that castle on one side, `KQEkq` with
        // rooks on a, e and h, and only one is written back.)
        if let Ok((board, black)) = fen::read(text, pieces) {
            if let Ok(written) = fen::write(&board, black, pieces) {
                let (again, black2) = fen::read(&written, pieces).expect("a written FEN reads");
                assert_eq!(black, black2, "{written}");
                assert_eq!(fen::write(&again, black2, pieces).as_ref(), Ok(&written), "{text}");
            }
        }
        if let Ok(mut m) = Match::from_fen(rules, text) {
            let _ = m.fen();
            let _ = m.in_check();
            let _ = m.end();
            for i in 0..m.count().min(3) {
                let _ = m.san(i);
            }
        }
    });
});
