//! The prover and the checker on a claim written from the grammar, with
//! tiny limits (iterations, nodes, time).
#![no_main]

use algchess_core::{check_claim, prove_claim, Laws, Program, Rewrites};
use algchess_fuzz::{on_big_stack, tiny_check, tiny_prove, ClaimText};
use libfuzzer_sys::fuzz_target;
use std::sync::LazyLock;

static LAWS: LazyLock<(Laws, Rewrites)> = LazyLock::new(|| {
    let laws = Laws::bundled();
    let rewrites = Rewrites::new(&laws);
    (laws, rewrites)
});

fuzz_target!(|claim: ClaimText| {
    let (laws, rewrites) = &*LAWS;
    on_big_stack(|| {
        let Ok(program) = Program::from_text("prove.alg", &claim.0) else {
            return;
        };
        for c in program.claims() {
            let _ = prove_claim(c, laws, rewrites, &tiny_prove(), &|_, _, _| {});
            let _ = check_claim(c, &tiny_check(), &|_, _, _| {});
        }
    });
});
