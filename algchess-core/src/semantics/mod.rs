//! The meaning of moves: boards, states and the evaluator.

mod board;
mod cell_set;
mod code;
mod compile;
mod eval;
mod hash;
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
pub use hash::position_hash;
pub(crate) use hash::{board_hash, change_hash, key, square_base, with_turn};
pub(crate) use probe::Branch;
pub(crate) use rule::{Pivot, Rule};
pub use store::{State, Store};
