//! The referee: a recorded game replayed ply by ply against the rules,
//! with the first illegal ply, the end reached and the draws claimable,
//! and a game written as PGN. The game in progress it follows is a
//! [`Match`].

use super::error::PositionError;
use super::pdn;
use crate::diag::clip;
use crate::play::{DrawClaim, GameOutcome, Match, Rules, TooBig};
use crate::semantics::Grid;

/// The first ply of a game that the rules do not allow.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Illegal {
    /// The ply's number, from 1.
    pub ply: usize,
    /// The ply with its move number: `3. Bxf7`, `3... a5`.
    pub text: String,
    /// Why the rules refuse it.
    pub why: String,
    /// Where the ply is in the PGN text.
    pub at: super::pgn::At,
}

/// What a referee says of a game.
#[derive(Clone, Debug)]
pub struct GameReport {
    /// The Event tag.
    pub event: Option<String>,
    /// The legal plies played.
    pub plies: usize,
    /// Each legal ply in SAN, with its check mark.
    pub san: Vec<String>,
    /// The first illegal ply, if any; checking stops there.
    pub illegal: Option<Illegal>,
    /// The end reached by the rules, automatic ones only.
    pub end: Option<GameOutcome>,
    /// The draws a player may claim in the final position.
    pub claimable: Vec<DrawClaim>,
    /// The Result tag, or the result that ends the move text.
    pub result_tag: Option<String>,
    /// The final position in FEN, on a chess board.
    pub final_fen: Option<String>,
    /// The board of the final position.
    pub final_board: Grid,
    /// What the referee read leniently: null moves, plies after the end.
    pub warnings: Vec<String>,
    /// How many sides the game has: a result gives each its share.
    pub sides: usize,
}

impl GameReport {
    /// The report on `game` before its first ply, from `m`'s start, with
    /// what its result says that is amiss.
    fn opened(rules: &Rules, game: &super::pgn::Record, m: &Match) -> GameReport {
        let mut report = GameReport {
            event: game.tag("Event").map(str::to_string),
            plies: 0,
            san: vec![],
            illegal: None,
            end: None,
            claimable: vec![],
            result_tag: game.tag("Result").map(str::to_string).or_else(|| game.result.clone()),
            final_fen: None,
            final_board: m.pos.board.clone(),
            warnings: vec![],
            sides: rules.turns.len(),
        };
        if let Some(tag) = report.result_tag.as_deref() {
            if let Some(n) = pdn::shares(tag).filter(|s| s.len() != report.sides).map(|s| s.len()) {
                report.warnings.push(format!(
                    "the result {} gives {n} sides their shares, and the game has {}",
                    clip(tag),
                    report.sides
                ));
            }
        }
        if let (Some(tag), Some(marker)) = (game.tag("Result"), game.result.as_deref()) {
            if tag != marker {
                report.warnings.push(format!(
                    "the Result tag says {tag}, the move text ends with {marker}; the tag is taken"
                ));
            }
        }
        report
    }

    /// The result: the end's when the rules reached one, else the game's
    /// own (a resignation, an agreed draw), else `*`.
    pub fn result(&self) -> String {
        match self.end {
            Some(o) => o.result(),
            None => self.result_tag.clone().unwrap_or_else(|| "*".into()),
        }
    }

    /// Whether the end reached agrees with the Result tag; `true` when
    /// either says nothing, unless the tag gives shares to another number
    /// of sides than the game has (`1/3-1/3-1/3` in a game of two).
    pub fn result_matches(&self) -> bool {
        match (&self.end, self.result_tag.as_deref()) {
            (Some(o), Some(tag)) if tag != "*" => pdn::same_result(&o.result(), tag),
            (None, Some(tag)) => pdn::shares(tag).is_none_or(|s| s.len() == self.sides),
            _ => true,
        }
    }
}

/// Why a game could not be refereed at all. An illegal ply is no error:
/// the report says where the game left the rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RefereeError {
    /// The FEN tag is not a position of these rules.
    Fen {
        /// The tag's value.
        fen: String,
        /// What is wrong with it.
        why: PositionError,
    },
    /// A move made more states than the evaluation budget allows.
    TooBig(TooBig),
}

impl std::fmt::Display for RefereeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RefereeError::Fen { fen, why } => write!(f, "the FEN tag `{fen}`: {why}"),
            RefereeError::TooBig(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for RefereeError {}

impl From<TooBig> for RefereeError {
    fn from(e: TooBig) -> RefereeError {
        RefereeError::TooBig(e)
    }
}

/// Checks every ply of a PGN game against the rules, from the FEN tag's
/// position when there is one. Errs on a FEN tag that is not a position.
pub fn referee(rules: &Rules, game: &super::pgn::Record) -> Result<GameReport, RefereeError> {
    replay(rules, game).map(|(r, _)| r)
}

/// [`referee`], with the game as it stands after its last legal ply.
pub fn replay<'a>(rules: &'a Rules, game: &super::pgn::Record) -> Result<(GameReport, Match<'a>), RefereeError> {
    let mut m = match game.tag("FEN") {
        Some(f) => Match::from_fen_lazy(rules, f, true).map_err(|why| RefereeError::Fen {
            fen: f.to_string(),
            why,
        })?,
        None => Match::started(rules, rules.start(), 0, 1, true)?,
    };
    let mut report = GameReport::opened(rules, game, &m);
    let (ended, nulls) = follow_plies(&mut m, game, &mut report)?;
    if !nulls.is_empty() {
        let list: Vec<String> = nulls.iter().map(|n| n.to_string()).collect();
        report.warnings.push(format!(
            "null moves (the side to move passes) at plies {}",
            list.join(", ")
        ));
    }
    report.end = match ended {
        Some(o) => Some(o),
        None => m.end()?,
    };
    // A draw is claimed in a game still going; an ended one has its result.
    if report.end.is_none() {
        report.claimable = m.claimable()?;
    }
    report.final_fen = m.fen();
    report.final_board = m.pos.board.clone();
    // The game goes on as any other from here.
    m.lazy = false;
    if !m.full {
        m.all_moves()?;
    }
    Ok((report, m))
}

/// Plays `game`'s plies on `m` up to the first illegal one, writing them
/// in `report`: the end reached first with plies left after it (they are
/// played on), and the null moves' ply numbers.
fn follow_plies(
    m: &mut Match,
    game: &super::pgn::Record,
    report: &mut GameReport,
) -> Result<(Option<GameOutcome>, Vec<usize>), TooBig> {
    let mut ended = None;
    let mut nulls = vec![];
    // The last ply gave check, its mark not yet written.
    let mut checked = false;
    for (i, ply) in game.plies.iter().enumerate() {
        let number = |m: &Match| {
            if m.pos.turn == 0 {
                format!("{}. {}", m.fullmove, clip(&ply.text))
            } else {
                format!("{}... {}", m.fullmove, clip(&ply.text))
            }
        };
        let null = is_null(&ply.text);
        let fast = if null { None } else { m.find_vacating(&ply.text)? };
        // The last ply gave check: a move found for this one shows it is
        // no mate, with no search of its own.
        if std::mem::take(&mut checked) {
            let last = report.san.last_mut().expect("a ply gave check");
            m.mark(last)?;
        }
        let end = m.end()?;
        let moving = match end {
            Some(_) => m.has_move()?,
            None => true,
        };
        if let (Some(o), true, None) = (end, moving, ended) {
            // A dead position, seventy-five moves, a fifth repetition: the
            // game is over, but moves are left, and python-chess plays
            // them. The end is the first one reached; the rest is read.
            ended = end;
            report.warnings.push(format!(
                "the game ended before ply {} ({}): {}; the plies after it are replayed",
                i + 1,
                number(m),
                o.ending.name().replace('_', " ")
            ));
        }
        if null {
            nulls.push(i + 1);
            m.pass()?;
            report.san.push("--".into());
            report.plies += 1;
            continue;
        }
        let found = match (end, fast) {
            (Some(o), _) if !moving => Err(format!("the game is over: {}", o.ending.name().replace('_', " "))),
            (_, Some((j, name))) => Ok((j, Some(name))),
            _ => {
                if !m.full {
                    m.all_moves()?;
                }
                m.find_or_why(&ply.text).map(|j| (j, None)).map_err(|e| e.to_string())
            }
        };
        match found {
            Ok((j, name)) => {
                let name = name.unwrap_or_else(|| m.san_base(j));
                m.play(j)?;
                checked = m.in_check()?;
                report.san.push(name);
                report.plies += 1;
            }
            Err(why) => {
                report.illegal = Some(Illegal {
                    ply: i + 1,
                    text: number(m),
                    why,
                    at: ply.at,
                });
                break;
            }
        }
    }
    if checked {
        let last = report.san.last_mut().expect("a ply gave check");
        m.mark(last)?;
    }
    Ok((ended, nulls))
}

/// A null move as PGN files write it: `--` (python-chess, ChessBase's
/// `Z0`, UCI's `0000`).
fn is_null(text: &str) -> bool {
    matches!(
        text.trim_end_matches(['+', '#', '!', '?']),
        "--" | "Z0" | "0000" | "@@@@"
    )
}

/// A game in PGN: the seven tags (and a `Variant` tag for a game other
/// than chess, the FEN tag when it starts from `start_fen`), the plies in
/// SAN with move numbers, and the result.
pub fn write_pgn(
    variant: Option<&str>,
    start_fen: Option<&str>,
    first_fullmove: u32,
    black_first: bool,
    san: &[String],
    result: &str,
) -> String {
    let mut out = String::new();
    for (tag, value) in [
        ("Event", "algchess play"),
        ("Site", "?"),
        ("Date", "????.??.??"),
        ("Round", "?"),
        ("White", "?"),
        ("Black", "?"),
        ("Result", result),
    ] {
        out.push_str(&format!("[{tag} \"{value}\"]\n"));
    }
    if let Some(v) = variant {
        out.push_str(&format!("[Variant \"{v}\"]\n"));
    }
    if let Some(f) = start_fen {
        out.push_str(&format!("[SetUp \"1\"]\n[FEN \"{f}\"]\n"));
    }
    out.push('\n');
    let mut words = vec![];
    let mut number = first_fullmove;
    let mut black = black_first;
    for (i, s) in san.iter().enumerate() {
        if !black {
            words.push(format!("{number}."));
        } else if i == 0 {
            words.push(format!("{number}..."));
        }
        words.push(s.clone());
        if black {
            number += 1;
        }
        black = !black;
    }
    words.push(result.to_string());
    // Lines of at most 80 characters, as PGN asks.
    let mut line = String::new();
    for w in words {
        if !line.is_empty() && line.len() + 1 + w.len() > 79 {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&w);
    }
    out.push_str(&line);
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pgn_is_written_with_move_numbers_and_the_fen_tag() {
        let san: Vec<String> = ["e5", "Nf3", "Nc6"].iter().map(|s| s.to_string()).collect();
        let text = write_pgn(None, Some("fen here"), 7, true, &san, "*");
        assert!(
            text.contains("[Result \"*\"]\n[SetUp \"1\"]\n[FEN \"fen here\"]\n\n"),
            "{text}"
        );
        assert!(text.ends_with("7... e5 8. Nf3 Nc6 *\n"), "{text}");
        let long: Vec<String> = (0..60).map(|_| "Nf3".to_string()).collect();
        let text = write_pgn(None, None, 1, false, &long, "1/2-1/2");
        assert!(text.lines().all(|l| l.len() < 80), "{text}");
        let games = super::super::pgn::read(&text).unwrap();
        assert_eq!(games[0].plies.len(), 60);
        assert_eq!(games[0].result.as_deref(), Some("1/2-1/2"));
    }
}
