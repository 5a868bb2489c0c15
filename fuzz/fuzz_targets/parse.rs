//! The lexer and the parser: any text parses or comes back as a syntax
//! error with a span inside the text; what parses formats.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    algchess_fuzz::on_big_stack(|| {
        match algchess_core::parse_file(text) {
            Ok(file) => {
                let _ = algchess_core::format_file(&file, text);
            }
            Err(e) => assert!(e.span.end <= text.len(), "a span past the end: {e:?}"),
        }
        if let Err(e) = algchess_core::parse_expr(text) {
            assert!(e.span.end <= text.len(), "a span past the end: {e:?}");
        }
    });
});
