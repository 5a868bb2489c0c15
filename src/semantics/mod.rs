//! The meaning of moves: boards, states and the evaluator.

mod board;
mod code;
mod compile;
mod eval;
mod hex;
mod probe;
mod store;

pub use board::{BoardError, Grid};
pub use compile::{compile, CellSet, Pivot, Prog};
pub use eval::{results, Eval, Halt};
pub use store::{State, Store};
