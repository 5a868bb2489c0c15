//! Notations people already use for piece moves, lowered into the algebra.
//!
//! Each front-end reads its notation and builds a move of the algebra as a
//! syntax tree (`tree`), which the normal elaborator then reads, and which
//! `translate` prints: there is one meaning,
//! the core IR, and no evaluator per notation. Lowered moves are
//! white's, with forward up (`u`), and the piece stands on the POI. They
//! name the rule file's `enemy` pattern (and `friend`, for hoppers), the
//! way rules/chess.alg and rules/fairy.alg already write their moves.

mod betza;
mod parlett;
mod path;
mod plies;
mod tree;
mod walk;

use crate::diag::{Diag, Diags, Source};
use crate::geometry::Tiling;
use crate::parse::ast::{Expr, Span};

/// A notation for piece moves.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Notation {
    /// Path regexes over turtle steps (a move as a regular expression over
    /// a rotation graph): `/L*(F$)+/`.
    Path,
    /// The plies of the chess rules of the Games::Chess::Referee Perl
    /// module: `[ahead] if empty;`.
    Referee,
    /// Parlett's piece language, written as S-expressions: `(move 'n 'X)`.
    Parlett,
    /// Betza's funny notation: `mfWcfF`.
    Betza,
}

impl Notation {
    /// Every notation a literal or `--from` may name.
    pub const ALL: [Notation; 4] = [Notation::Path, Notation::Referee, Notation::Parlett, Notation::Betza];

    /// The notation's name, as written before a literal (`betza"NN"`) and
    /// after `--from`.
    pub fn name(self) -> &'static str {
        match self {
            Notation::Path => "path",
            Notation::Referee => "referee",
            Notation::Parlett => "parlett",
            Notation::Betza => "betza",
        }
    }

    /// The notation a literal's prefix or `--from` names.
    pub fn from_name(name: &str) -> Option<Notation> {
        Notation::ALL.into_iter().find(|n| n.name() == name)
    }
}

/// An error in notation text: a span into that text.
pub(crate) fn error(n: Notation, text: &str, span: Span, message: impl Into<String>) -> Diag {
    Diag::new(&Source::new(format!("<{}>", n.name()), text), span, message)
}

/// The move `text` stands for on `tiling`, as algebra text that `moves
/// --move` accepts.
pub fn to_algebra(n: Notation, text: &str, tiling: Tiling) -> Result<String, Diags> {
    Ok(crate::parse::print_expr(&tree(n, text, tiling)?))
}

/// The move `text` stands for on `tiling`, as a syntax tree whose spans
/// all point at `at`: the notation literal it came from.
pub(crate) fn lower(n: Notation, text: &str, at: Span, tiling: Tiling) -> Result<Expr, Diags> {
    let mut e = tree(n, text, tiling)?;
    e.respan(at);
    Ok(e)
}

/// The move `text` stands for on `tiling`, as a syntax tree with empty
/// spans. Path regexes walk any grid; the other notations name
/// square-grid steps (Betza's `W` is four of them), so on hex they are
/// refused rather than read as four of six directions.
fn tree(n: Notation, text: &str, tiling: Tiling) -> Result<Expr, Diags> {
    if n != Notation::Path && tiling != Tiling::Square {
        return Err(error(
            n,
            text,
            Span::new(0, text.len()),
            format!(
                "{} notation names square-grid steps, and this file's grid is {tiling}",
                n.name()
            ),
        )
        .help("on a hex grid, write piece moves as path regexes: `path\"/L*(F$)+/\"`")
        .into());
    }
    match n {
        Notation::Path => path::lower(text, tiling),
        Notation::Referee => plies::lower(text),
        Notation::Parlett => Ok(walk::union(&parlett::read(text)?)),
        Notation::Betza => Ok(walk::union(&betza::read(text)?)),
    }
}

/// The move in Betza's notation, where it lies in the subset Betza covers.
pub fn to_betza(n: Notation, text: &str) -> Result<String, Diags> {
    let walks = match n {
        Notation::Parlett => parlett::read(text)?,
        Notation::Betza => betza::read(text)?,
        Notation::Path | Notation::Referee => {
            return Err(error(
                n,
                text,
                Span::new(0, text.len()),
                format!("`--to betza` reads Parlett or Betza, not {} notation", n.name()),
            )
            .into())
        }
    };
    betza::write(&walks).map_err(|m| error(n, text, Span::new(0, text.len()), m.to_string()).into())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Moves as the front-ends wrote them when they wrote text for the
    /// parser: the trees built now print as that text and are the trees it
    /// parses to, so nothing is parsed on the way and nothing changed.
    const WRITTEN: [(Notation, &str, Tiling, &str); 12] = [
        (
            Notation::Path,
            "/L*(F$)+/",
            Tiling::Square,
            "(% + d. -> . + d%)* (% + d(. | enemy) -> . + d%) | (% + l. -> . + l%)* (% + l(. | enemy) -> . + l%) \
             | (% + r. -> . + r%)* (% + r(. | enemy) -> . + r%) | (% + u. -> . + u%)* (% + u(. | enemy) -> . + u%)",
        ),
        (
            Notation::Path,
            "/(FF|F$F)$/",
            Tiling::Square,
            "(% + uu(. | enemy) -> . + uu%) | (% + u. -> . + u%) (% + u enemy -> . + u%) \
             | (% + u. -> . + u%) (% + u. -> . + u%)",
        ),
        (
            Notation::Path,
            "/(F$F)*/",
            Tiling::Square,
            "((% + u. -> . + u%) (% + uu. -> . + uu%)* (% + u(. | enemy) -> . + u%))?",
        ),
        (
            Notation::Path,
            "/FLFR$|LFRF$/",
            Tiling::Hex,
            "(% + uul(. | enemy) -> . + uul%)",
        ),
        (Notation::Path, "$", Tiling::Square, "nil"),
        (
            Notation::Betza,
            "mfWcfF",
            Tiling::Square,
            "(% + u. -> . + u%) | (% + ur enemy -> . + ur%) | (% + ul enemy -> . + ul%)",
        ),
        (
            Notation::Betza,
            "ifmnD",
            Tiling::Square,
            "(dd# + % -> dd# + %) ((% + uu. + u. -> . + uu%))",
        ),
        (
            Notation::Betza,
            "fW3",
            Tiling::Square,
            "(% + u(. | enemy) -> . + u%) | (% + u. -> . + u%) (% + u. -> . + u%)? (% + u(. | enemy) -> . + u%)",
        ),
        (
            Notation::Betza,
            "fgR",
            Tiling::Square,
            "(% + u. -> . + u%)* (% + u(friend | enemy) + uu(. | enemy) -> . + uu%)",
        ),
        (
            Notation::Betza,
            "fpR",
            Tiling::Square,
            "(% + u. -> . + u%)* ((% + u(friend | enemy) + uu(. | enemy) -> . + uu%) \
             | (% + u(friend | enemy) + uu. -> . + uu%) (% + u. -> . + u%)* (% + u(. | enemy) -> . + u%))",
        ),
        (
            Notation::Parlett,
            "(and-then (move 2 '>) (move 1 3 '<))",
            Tiling::Square,
            "(% + uu(. | enemy) -> . + uu%) | (% + uu. -> . + uu%) ((% + d(. | enemy) -> . + d%) \
             | (% + d. -> . + d%) (% + d. -> . + d%)? (% + d(. | enemy) -> . + d%))",
        ),
        (
            Notation::Parlett,
            "(alternatives (move 1 '>) (on-capture (move 1 '>)))",
            Tiling::Square,
            "(% + u(. | enemy) -> . + u%) | (% + u enemy -> . + u%)",
        ),
    ];

    #[test]
    fn lowered_trees_are_the_trees_their_text_parses_to() {
        for (n, text, tiling, written) in WRITTEN {
            let at = Span::new(3, 9);
            let tree = lower(n, text, at, tiling).unwrap();
            assert_eq!(to_algebra(n, text, tiling).unwrap(), written, "{text}");
            let mut parsed = crate::parse::parse_expr(written).unwrap();
            parsed.respan(at);
            assert!(tree == parsed, "{text}: {tree:?}");
        }
    }

    #[test]
    fn only_path_regexes_are_read_on_hex() {
        assert!(to_algebra(Notation::Path, "/L*(F$)+/", Tiling::Hex).is_ok());
        for (n, text) in [(Notation::Betza, "W"), (Notation::Parlett, "(move 'n 'X)")] {
            let e = to_algebra(n, text, Tiling::Hex).unwrap_err();
            assert!(e.0[0].message.contains("square-grid steps"), "{}", e.0[0].message);
        }
    }
}
