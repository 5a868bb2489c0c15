//! The end a match has reached, if any, as the game's end declarations
//! tell it, and the series of checks that `checkmate(T)` ends follow.

use super::end::{insufficient_material, Ending, GameOutcome, Test};
use super::game::{squares, TooBig};
use super::ongoing::Match;
use crate::elab::{Stuck, Verdict};
use crate::ir::Content;

impl<'a> Match<'a> {
    /// The end the game has reached, if any: checked in python-chess's
    /// order (checkmate, insufficient material, no move, 75 moves,
    /// fivefold repetition), after a side's `won` test (asked of the side
    /// that moved last first, then of the one before it, and so on).
    pub fn end(&mut self) -> Result<Option<GameOutcome>, TooBig> {
        let n = self.rules.turns.len();
        Ok(self.reached_end()?.map(|o| o.among(n)))
    }

    fn reached_end(&mut self) -> Result<Option<GameOutcome>, TooBig> {
        let rules = self.rules;
        let ends = &rules.ends;
        let turn = self.pos.turn;
        let n = rules.turns.len();
        let previous = (turn + n - 1) % n;
        let win = |ending, w| Some(GameOutcome::win(ending, w));
        let draw = |ending| Some(GameOutcome::draw(ending));
        if ends.won.is_some() {
            for back in 1..=n {
                let side = (turn + n - back) % n;
                if self.test(Test::Won, side)? {
                    return Ok(win(Ending::Won, side));
                }
            }
        }
        if self.test(Test::Lost, turn)? {
            return Ok(win(Ending::Lost, previous));
        }
        for o in &ends.over {
            if self.test(Test::Condition(o.test), turn)? {
                let ending = if o.bare_king { Ending::BareKing } else { Ending::Over };
                return Ok(match o.verdict {
                    Verdict::Win => win(ending, turn),
                    Verdict::Loss => win(ending, previous),
                    Verdict::Draw => draw(ending),
                });
            }
        }
        let stuck = !self.has_move()?;
        let check = stuck && self.in_check()?;
        // The first `stuck` end that applies.
        let mut applies = None;
        if stuck {
            for s in &ends.stuck {
                let fits = match s {
                    Stuck::Checkmate => check,
                    Stuck::CheckSeries(i) => check && self.series.iter().any(|(j, f)| j == i && f[turn]),
                    Stuck::When(_, i) => self.test(Test::Condition(*i), turn)?,
                    Stuck::Stalemate(_) => !check,
                    Stuck::Pass => false,
                    Stuck::MostPieces | Stuck::Loss | Stuck::Draw => true,
                };
                if fits {
                    applies = Some(*s);
                    break;
                }
            }
        }
        let mated = if check { Ending::Checkmate } else { Ending::NoMoves };
        let outcome = |m: &Match, s: Stuck| match s {
            Stuck::Checkmate | Stuck::CheckSeries(_) => GameOutcome::win(Ending::Checkmate, previous),
            Stuck::When(Verdict::Win, _) => GameOutcome::win(mated, turn),
            Stuck::When(Verdict::Loss, _) => GameOutcome::win(mated, previous),
            Stuck::When(Verdict::Draw, _) => GameOutcome::draw(mated),
            Stuck::Stalemate(by) => GameOutcome::split(Ending::Stalemate, by, previous, turn),
            Stuck::MostPieces => m.most_pieces().expect("a count of pieces"),
            Stuck::Loss => GameOutcome::win(Ending::NoMoves, previous),
            Stuck::Draw => GameOutcome::draw(Ending::NoMoves),
            Stuck::Pass => GameOutcome::unscored(Ending::NoMoves),
        };
        // A mate is told before the material.
        if let Some(s) =
            applies.filter(|s| check && matches!(s, Stuck::Checkmate | Stuck::CheckSeries(_) | Stuck::When(..)))
        {
            return Ok(Some(outcome(self, s)));
        }
        if ends
            .insufficient_material
            .as_ref()
            .is_some_and(|m| insufficient_material(m, &self.pos.board))
        {
            return Ok(draw(Ending::InsufficientMaterial));
        }
        if stuck {
            return Ok(Some(
                applies.map_or(GameOutcome::unscored(Ending::NoMoves), |s| outcome(self, s)),
            ));
        }
        if let Some((rule, end)) = ends
            .move_rule
            .as_ref()
            .and_then(|r| Some((r, r.end?)))
            .filter(|(_, end)| self.halfmove >= 2 * end)
        {
            debug_assert!(end > 0);
            // Chess's fifty-move rule ends the game at seventy-five.
            let ending = if rule.claim.is_some() {
                Ending::SeventyFiveMoves
            } else {
                Ending::MoveRule
            };
            return Ok(draw(ending));
        }
        if ends.repetition && self.reached >= 5 {
            return Ok(draw(Ending::FivefoldRepetition));
        }
        Ok(None)
    }

    /// More pieces of one's own side wins: turn 0 owns the pieces declared
    /// first in each colour pair, turn 1 their twins.
    fn most_pieces(&self) -> Option<GameOutcome> {
        let b = &self.pos.board;
        let mut count = [0usize; 2];
        for q in squares(b) {
            if let Some(Content::Piece(p)) = b.get(q) {
                let twin = self.rules.pieces.twin(p);
                if twin != p {
                    // Registered before its twin.
                    let first = p < twin;
                    count[usize::from(!first)] += 1;
                }
            }
        }
        let winner = match count[0].cmp(&count[1]) {
            std::cmp::Ordering::Greater => Some(0),
            std::cmp::Ordering::Less => Some(1),
            std::cmp::Ordering::Equal => None,
        };
        Some(match winner {
            Some(w) => GameOutcome::win(Ending::MostPieces, w),
            None => GameOutcome::draw(Ending::MostPieces),
        })
    }

    /// Follows the series of checks that `checkmate(T)` ends ask about:
    /// the side to move, in check, keeps what its series held, and adds
    /// whether T holds now; out of check, its series ends.
    pub(super) fn follow_series(&mut self) -> Result<(), TooBig> {
        if self.series.is_empty() {
            return Ok(());
        }
        let turn = self.pos.turn;
        let check = self.in_check()?;
        for k in 0..self.series.len() {
            let i = self.series[k].0;
            let held = check && (self.series[k].1[turn] || self.test(Test::Condition(i), turn)?);
            self.series[k].1[turn] = held;
        }
        Ok(())
    }
}
