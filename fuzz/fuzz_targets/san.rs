//! SAN and UCI moves read against chess positions: each word of the input
//! is looked up among the legal moves from the start and played when it
//! names one; the name written for it must name it again.
#![no_main]

use algchess_core::Match;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let rules = algchess_fuzz::chess();
    algchess_fuzz::on_big_stack(|| {
        let Ok(mut m) = Match::new(rules, rules.start(), 0, 1) else {
            return;
        };
        for word in text.split_whitespace().take(40) {
            let Ok(i) = m.find(word) else { continue };
            let Ok(name) = m.san(i) else { return };
            assert_eq!(
                m.find(&name),
                Ok(i),
                "`{name}`, written for `{word}`, names another move"
            );
            if m.play(i).is_err() {
                return;
            }
        }
    });
});
