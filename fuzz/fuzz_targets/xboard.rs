//! `algchess xboard` driven by a client that waits for each command but a
//! search: random command sequences with random arguments, on the bundled
//! games, within a memory limit of 256 MiB. The games a session loads are
//! kept for the process, so an input costs its commands, not a load.
#![no_main]

use algchess_fuzz::{on_big_stack, Session};
use arbitrary::Unstructured;
use libfuzzer_sys::fuzz_target;

#[global_allocator]
static HEAP: algchess::Counting = algchess::Counting;

fuzz_target!(|data: &[u8]| {
    let Ok(session) = Session::xboard(&mut Unstructured::new(data)) else {
        return;
    };
    session.show();
    on_big_stack(|| algchess::cli::paced_session(true, &session.0));
});
