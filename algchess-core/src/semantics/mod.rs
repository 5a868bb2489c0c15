//! The meaning of moves: boards, states and the evaluator.

mod board;
mod cell_set;
mod code;
mod compile;
mod eval;
mod hex;
mod probe;
mod rule;
mod store;

pub use board::BoardError;
pub(crate) use board::Change;
pub use board::{Grid, NotABoard};
pub(crate) use cell_set::CellSet;
pub use code::Code;
pub use compile::{compile, Prog};
pub use eval::{results, Eval, Halt};
pub(crate) use probe::Branch;
pub(crate) use rule::{Pivot, Rule};
pub use store::{State, Store};
