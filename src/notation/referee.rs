//! Seed 002's plies of Games::Chess::Referee. Not read yet: every text
//! gets a diagnostic saying so.

use super::{error, Notation};
use crate::diag::Diags;
use crate::parse::ast::{Expr, Span};

pub(crate) fn lower(text: &str) -> Result<Expr, Diags> {
    Err(error(
        Notation::Referee,
        text,
        Span::new(0, text.len()),
        "Referee plies are not supported yet",
    )
    .help("write the move in the algebra, or in path, parlett or betza notation")
    .into())
}
