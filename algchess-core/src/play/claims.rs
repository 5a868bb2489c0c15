//! The draws a side may claim: by the move rule's count, by a third
//! repetition, by makruk's count run out.

use super::game::TooBig;
use super::ongoing::Match;
use super::repetition::Reached;

/// A draw a player may claim.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DrawClaim {
    /// Fifty moves of each side without a capture or a move that resets the
    /// count (a pawn's, in chess).
    FiftyMoves,
    /// The same position for the third time.
    ThreefoldRepetition,
    /// A count of moves without a capture or a move that resets it that
    /// a game other than chess declares (`move_claim`: shatranj's 70).
    MoveClaim,
    /// Makruk's count run out (board's or pieces' honour).
    Counting,
}

impl DrawClaim {
    /// The claim's name in reports (`fifty_moves`).
    pub fn name(self) -> &'static str {
        match self {
            DrawClaim::FiftyMoves => "fifty_moves",
            DrawClaim::ThreefoldRepetition => "threefold_repetition",
            DrawClaim::MoveClaim => "move_claim",
            DrawClaim::Counting => "counting",
        }
    }
}

impl<'a> Match<'a> {
    /// The draws the side to move could claim now, as python-chess reads
    /// FIDE: the count of fifty moves reached, or reached by a move it
    /// could make; the position on the board for the third time, or a move
    /// that makes it so; makruk's count run out.
    pub fn claimable(&mut self) -> Result<Vec<DrawClaim>, TooBig> {
        let mut out = vec![];
        let rule = self.rules.ends.move_rule.as_ref();
        let claim = rule.and_then(|r| r.claim);
        let kind = match rule.and_then(|r| r.end) {
            Some(_) => DrawClaim::FiftyMoves,
            None => DrawClaim::MoveClaim,
        };
        // The moves are looked at only near fifty moves, or when a move
        // could make a position reached twice a third time.
        let fifty_near = claim.filter(|&count| self.halfmove + 1 >= 2 * count);
        let three_near = self.rules.ends.repetition && self.reached < 3 && self.twice;
        if !self.full && (fifty_near.is_some() || three_near) {
            self.all_moves()?;
        }
        let moves = if self.full { self.moves.clone() } else { vec![] };
        let next = self.next(self.pos.turn);
        if let Some(count) = fifty_near.filter(|_| !moves.is_empty()) {
            let mut fifty = self.halfmove >= 2 * count;
            if !fifty {
                for c in &moves {
                    if self.resets(c) {
                        continue;
                    }
                    let undo = self.push(c);
                    let after = self.successors(next);
                    self.pop(undo);
                    if !after?.is_empty() {
                        fifty = true;
                        break;
                    }
                }
            }
            if fifty {
                out.push(kind);
            }
        }
        if self.rules.ends.repetition {
            let mut three = self.reached >= 3;
            if three_near {
                for c in &moves {
                    let mut board = self.pos.board.clone();
                    board.apply(c);
                    let r = Reached::of(self.rules, &board, next);
                    if self.seen.count(self.rules, &r, &board)? >= 2 {
                        three = true;
                        break;
                    }
                }
            }
            if three {
                out.push(DrawClaim::ThreefoldRepetition);
            }
        }
        if self.count.is_some_and(|c| c.ply > c.limit) {
            out.push(DrawClaim::Counting);
        }
        Ok(out)
    }

    /// The draw the side to move may claim in the position as it stands,
    /// with no move of its own, as Fairy-Stockfish offers it (its
    /// "optional game end"), asked in its order: the move rule's count
    /// reached, the position's third occurrence, makruk's count run out;
    /// never when the side to move is mated.
    pub fn optional_end(&mut self) -> Result<Option<DrawClaim>, TooBig> {
        let ends = &self.rules.ends;
        let moves_out = ends
            .move_rule
            .as_ref()
            .and_then(|r| Some((r.claim?, r.end.is_some())))
            .filter(|(n, _)| self.halfmove >= 2 * n);
        let counted = self.count.is_some_and(|c| c.ply > c.limit);
        if (moves_out.is_some() || counted) && self.in_check()? && !self.has_move()? {
            return Ok(None);
        }
        if let Some((_, fifty)) = moves_out {
            return Ok(Some(if fifty {
                DrawClaim::FiftyMoves
            } else {
                DrawClaim::MoveClaim
            }));
        }
        if ends.repetition && self.reached >= 3 {
            return Ok(Some(DrawClaim::ThreefoldRepetition));
        }
        Ok(counted.then_some(DrawClaim::Counting))
    }
}
