//! # Tutorial: from a rule to a proof
//!
//! Each example below runs as a test (`cargo test --doc`), so the tutorial
//! cannot drift from the code.
//!
//! ## 1. Run a move on a board
//!
//! A rule `f -> g` finds the fragment `f` on the board and writes `g` in its
//! place; `%♖:` binds the piece of interest to each white rook. Board text
//! is written top row first, `.` for an empty square, `#` off the board.
//! A rook sliding up, one or more squares, has two results here:
//!
//! ```
//! use algchess_core::{compile, results, Grid, Program, State};
//!
//! let mut program = Program::from_text("tutorial.alg", "").unwrap();
//! let slide = program.expr("slide", "%♖: (% + u. -> . + u%)+").unwrap();
//! let start = State { board: Grid::parse(".\n.\n♖", program.pieces()).unwrap(), poi: None };
//! let after: Vec<_> = results(&compile(&slide).unwrap(), &start)
//!     .unwrap()
//!     .into_iter()
//!     .map(|s| s.board.rows(program.pieces()).join("/"))
//!     .collect();
//! assert_eq!(after.len(), 2);
//! assert!(after.contains(&"♖/./.".to_string()));
//! assert!(after.contains(&"./♖/.".to_string()));
//! ```
//!
//! ## 2. Refute a claim with a counterexample
//!
//! The checker searches every board of every small box. Moving one square
//! up is not the same as moving up one *or two* squares, and the checker
//! gives the board that shows it:
//!
//! ```
//! use algchess_core::{check_claim, ClaimOptions, Finding, Program};
//!
//! let file = "theorem one_or_two: %♖: (% + u. -> . + u%) = %♖: (% + u. -> . + u%){1,2}";
//! let program = Program::from_text("tutorial.alg", file).unwrap();
//! let report = check_claim(&program.claims()[0], &ClaimOptions::default(), &|_, _, _| {});
//! assert_eq!(report.verdict, Finding::Refuted);
//! assert!(report.counterexample.is_some());
//! ```
//!
//! ## 3. Prove a law from the axioms
//!
//! The prover saturates an e-graph with the bundled axioms (`axioms/*.alg`)
//! and replays every step of the proof it finds. Turning a quarter turn four
//! times is no turn at all:
//!
//! ```
//! use algchess_core::{prove_claim, ClaimKind, Laws, Program, ProveOptions, Rewrites, Verdict};
//!
//! let program = Program::from_text("tutorial.alg", "theorem spin: R R R R (% -> ♖) = % -> ♖").unwrap();
//! let laws = Laws::bundled();
//! let report = prove_claim(&program.claims()[0], &laws, &Rewrites::new(&laws), &ProveOptions::default(), &|_, _, _| {});
//! assert_eq!(report.verdict, Verdict::Proved);
//! ```
//!
//! ## 4. Play a game
//!
//! A `game` declares a start board and the moves of each side in turn.
//! Perft counts the leaves of the move tree; in tic-tac-toe on a 3×3 board
//! the first player has 9 moves, and 9 × 8 positions follow after two:
//!
//! ```
//! use algchess_core::{perft, Program, Rules};
//!
//! let file = "
//! piece 'X / 'O
//! x = . -> 'X
//! o = C x
//! start = ...;...;...
//! game ttt(start) = x, o
//! ";
//! let program = Program::from_text("ttt.alg", file).unwrap();
//! let rules = Rules::new(&program.games()[0]);
//! let start = rules.start();
//! assert_eq!(perft(&rules, &start, 1).unwrap(), 9);
//! assert_eq!(perft(&rules, &start, 2).unwrap(), 72);
//! ```
