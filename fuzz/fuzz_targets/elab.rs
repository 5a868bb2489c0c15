//! Elaboration of any text (`Program::from_text_with`): a program or
//! diagnostics. Imports go through `NoFiles`, so a text that imports is an
//! error at its import, and the file system is never read.
#![no_main]

use algchess_core::{NoFiles, Program, Tiling};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    algchess_fuzz::on_big_stack(|| {
        let _ = Program::from_text_with("fuzzed.alg", text, Tiling::Square, &NoFiles);
    });
});
