//! A search over the engine for any game a rule file declares: iterative
//! deepening alpha-beta (`alphabeta`), a transposition table (`tt`) keyed
//! on the board's hash (`semantics::position_hash`), move ordering (`order`), piece values
//! and a mobility term read off the rules by random play (`values`), and
//! names of moves for the protocols (`names`). Ends are the rule file's:
//! the search asks the game's `Match` for them, so a win of the side to
//! move scores as a mate and a draw as 0, whatever the game.

mod alphabeta;
mod order;
mod tt;
mod values;

pub use alphabeta::{mate_in, Limits, SearchInfo, Searcher, MATE};
pub use tt::TableError;
pub use values::Values;
