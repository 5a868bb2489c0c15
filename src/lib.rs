pub mod core;
pub mod geometry;
pub mod parse;
pub mod diag;
pub mod elab;
pub mod semantics;
