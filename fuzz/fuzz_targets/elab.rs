//! Elaboration of any text (`Program::from_text`): a program or
//! diagnostics. Texts that import are skipped: an import reads the file
//! system.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if text.contains("import") {
        return;
    }
    algchess_fuzz::on_big_stack(|| {
        let _ = algchess::Program::from_text("fuzzed.alg", text);
    });
});
