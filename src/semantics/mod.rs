//! The meaning of moves: boards, states and the evaluator.

mod board;
mod code;
mod compile;
mod eval;
mod hex;
mod probe;
mod store;

pub use board::{BoardError, Change, Grid};
pub use code::Code;
pub use compile::{compile, CellSet, Pivot, Prog, Rule};
pub use eval::{results, Eval, Halt};
pub use probe::Branch;
pub use store::{State, Store};
