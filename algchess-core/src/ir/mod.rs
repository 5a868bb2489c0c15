//! The typed core IR that the evaluator, the checker and the prover share.

mod cell;
mod claim;
mod fragment;
pub(crate) mod gen;
pub(crate) mod piece;
pub mod print;
mod term;

pub use cell::{Cell, Content};
pub use claim::{ClaimKind, Rel};
pub use fragment::{Fragment, GlueError, Pattern};
pub(crate) use piece::Spelling;
pub use piece::{DeclareError, PieceId, Pieces};
pub(crate) use print::Show;
pub(crate) use term::MAX_DEPTH;
pub use term::{Bounds, Meta, Node, Sort, Term};
