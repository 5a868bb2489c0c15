//! The end-to-end tests, one module each, linked into one test binary
//! so the crate is linked once.

mod architecture;
mod axioms;
mod chess;
mod chess960;
mod chinese_checkers;
mod cli;
mod common;
mod docs;
mod draughts;
mod engine;
mod fairy;
mod fairy_game;
mod fuzz;
mod fuzz_regressions;
mod games;
mod hex;
mod hostile;
mod irreversible;
mod laws;
mod limits;
mod notation;
mod pgn_corpus;
mod play;
mod prove;
mod puzzle;
mod referee;
mod referee_cli;
mod registry;
mod seed;
mod simplify;
mod simplify_cli;
mod uci;
mod variant_ends;
mod variant_pgn;
mod variants;
