pub mod check;
pub mod cli;
pub mod core;
pub mod diag;
pub mod elab;
pub mod geometry;
pub mod parse;
pub mod semantics;
