//! The meaning of moves: boards, states and the evaluator.

mod board;
mod code;
mod compile;
mod eval;
mod hex;
mod probe;
mod store;

pub use board::Grid;
pub(crate) use board::{BoardError, Change};
pub(crate) use code::Code;
pub use compile::{compile, Prog};
pub(crate) use compile::{CellSet, Pivot, Rule};
pub use eval::{results, Eval, Halt};
pub(crate) use probe::Branch;
pub use store::{State, Store};
