//! # algchess
//!
//! The `algchess` command line, and what it adds to the library
//! [`algchess_core`] (re-exported here whole): the file system ([`Files`],
//! [`load`]) and a memory meter ([`Counting`], [`HEAP`]) for the limits
//! the library reads through a [`Meter`].
//!
//! ```no_run
//! let program = algchess::load(std::path::Path::new("rules/chess.alg")).unwrap();
//! assert!(!program.games().is_empty());
//! ```

#![warn(missing_docs, unreachable_pub)]

pub use algchess_core::*;

pub mod cli;
mod files;
mod heap;

pub use files::{alg_files, bundled, bundled_files, is_dir, is_file, load, read_text, Files, MAX_TEXT};
pub use heap::{memory_limit, parse_size, room, stops, Counting, Heap, LimitError, ParseSizeError, HEAP};
