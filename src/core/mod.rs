//! The typed core IR that the evaluator, the checker and the prover share.

mod cell;
mod claim;
mod fragment;
pub mod gen;
pub(crate) mod piece;
pub mod print;
mod term;

pub use cell::{Cell, Content};
pub use claim::{ClaimKind, Rel};
pub use fragment::{Fragment, GlueError, Pattern};
pub use piece::{PieceId, Spelling};
pub use term::{Bounds, Meta, Node, Sort, Term, MAX_DEPTH};
