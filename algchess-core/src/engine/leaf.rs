//! A turn's last moves as a leaf counts them (`Board::tally`), read off
//! the plan once: the union of moves before the turn's test, arm by arm,
//! with each slider's rays gathered on words ([`BitRays`]) and each
//! leaper's steps too ([`BitLeaps`]), so that a leaf does not walk the
//! slides or the rules of the plan for every piece.

use super::bits::{BitLeaps, BitRays};
use super::plan::Op;
use super::word::Word;

/// How a leaf counts one arm of the union.
pub(super) enum Arm<W> {
    /// A binder of `code` whose body is slides apart with rays
    /// ([`rays`]): the rays of each piece, by code written.
    Sliders(u8, Vec<BitRays<W>>),
    /// A binder of `code` whose body is rules on words (`Op::BitRules`).
    Rules(u8),
    /// A binder of `code` whose body is steps apart on words (a king's, a
    /// knight's): the steps of each piece, by code written and set
    /// landed on.
    Leaps(u8, Vec<BitLeaps<W>>),
    /// A union with an arm counted straight among its arms (a piece
    /// that slides and leaps), arm by arm.
    Union(Vec<Arm<W>>),
    /// Any other arm: counted as `Board::dry` counts it.
    Dry,
}

/// The arms of a turn's union, and the union itself by address, so that
/// the count reads them only for that union.
pub(super) struct Leaf<W> {
    union: usize,
    pub arms: Vec<Arm<W>>,
}

impl<W> Leaf<W> {
    /// Whether `arms` are the union this leaf was read off.
    #[inline]
    pub(super) fn of(&self, arms: &[Op<W>]) -> bool {
        self.union == arms.as_ptr() as usize && self.arms.len() == arms.len()
    }
}

/// The leaf of a turn whose moves, before its test or with none, are a
/// union with an arm a leaf counts straight (not [`Arm::Dry`]): the union
/// a leaf counts is the last on the spine of sequences from the turn's
/// root (`Board::tally`). The plan must not change after: the leaf names
/// the union by address.
pub(super) fn leaf<W: Word>(turn: &Op<W>) -> Option<Leaf<W>> {
    let union = match turn {
        Op::Seq(a, b) => match &**b {
            Op::NotBits(..) => &**a,
            _ => return leaf(b),
        },
        op => op,
    };
    let Op::Alt(ops) = union else { return None };
    let arms: Vec<Arm<W>> = ops.iter().map(arm).collect();
    let union = ops.as_ptr() as usize;
    arms.iter()
        .any(|a| !matches!(a, Arm::Dry))
        .then_some(Leaf { union, arms })
}

fn arm<W: Word>(op: &Op<W>) -> Arm<W> {
    match op {
        Op::Bind(code, body) if rays(body) => {
            let mut rays = vec![];
            slides(body, &mut rays);
            Arm::Sliders(*code, BitRays::gather(rays.into_iter()))
        }
        Op::Bind(code, body) => match &**body {
            Op::BitRules(_, bits, true) => match BitLeaps::gather(bits) {
                Some(leaps) => Arm::Leaps(*code, leaps),
                None => Arm::Rules(*code),
            },
            Op::BitRules(..) => Arm::Rules(*code),
            _ => Arm::Dry,
        },
        Op::Alt(arms) => {
            let arms: Vec<Arm<W>> = arms.iter().map(arm).collect();
            match arms.iter().all(|a| matches!(a, Arm::Dry)) {
                true => Arm::Dry,
                false => Arm::Union(arms),
            }
        }
        _ => Arm::Dry,
    }
}

/// Whether `op` is slides apart with rays, or alternatives of them: a
/// slider's moves, counted by `Board::dry_rays`.
pub(super) fn rays<W>(op: &Op<W>) -> bool {
    match op {
        Op::Slide {
            apart: true,
            ray: Some(_),
            ..
        } => true,
        Op::Alt(arms) => arms.iter().all(rays),
        _ => false,
    }
}

/// The rays of `op` (slides with rays, or unions of them), each with
/// the code it writes.
fn slides<'a, W>(op: &'a Op<W>, out: &mut Vec<(u8, &'a super::bits::BitRay<W>)>) {
    match op {
        Op::Slide {
            write, ray: Some(ray), ..
        } => out.push((*write, ray)),
        Op::Alt(arms) => arms.iter().for_each(|a| slides(a, out)),
        _ => unreachable!("only rays are gathered"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::bits::Bits;
    use crate::engine::board::{Board, Squares};
    use crate::engine::word::Word;
    use crate::play::Rules;

    /// Each arm of the leaf of `file`'s first turn beside the op it was
    /// read off, and the words of 40 boards of random play from the
    /// start, for `check` (given the pairs and the words).
    fn on_boards_of_play<W: Word>(file: &str, mut check: impl FnMut(&[(&Op<W>, &Arm<W>)], &Bits<W>)) {
        let prog = crate::testing::load(file);
        let rules = Rules::fast(&prog.games()[0]);
        let mut pos = rules.start();
        let plan = rules.backend.engine().unwrap().plan::<W>(&pos.board);
        let leaf = plan.leaves[0].as_ref().expect("a union with arms counted straight");
        let Op::Seq(_, rest) = &plan.turns[0] else {
            panic!("moves after clearing")
        };
        let Op::Seq(union, _) = &**rest else {
            panic!("moves, then the test")
        };
        let Op::Alt(arms) = &**union else { panic!("a union") };
        assert!(leaf.of(arms));
        fn flat<'a, W>(arms: &'a [Op<W>], how: &'a [Arm<W>], out: &mut Vec<(&'a Op<W>, &'a Arm<W>)>) {
            for (a, h) in arms.iter().zip(how) {
                match (a, h) {
                    (Op::Alt(inner), Arm::Union(hows)) => flat(inner, hows, out),
                    _ => out.push((a, h)),
                }
            }
        }
        let mut pairs = vec![];
        flat(arms, &leaf.arms, &mut pairs);
        let mut rng = 7u64;
        for _ in 0..40 {
            let board: Board<W> = plan.board(&pos.board);
            let Squares::Words(b) = &board.squares else {
                panic!("on words")
            };
            check(&pairs, b);
            let next = rules.successors(&pos).unwrap();
            if next.is_empty() {
                pos = rules.start();
                continue;
            }
            rng = rng.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            pos = next[(rng >> 33) as usize % next.len()].clone();
        }
    }

    /// The rays of each slider arm read from one row land where the
    /// plan's rays, read one by one, land, from every square of boards of
    /// play: chess on one word, Capablanca's on two.
    #[test]
    fn gathered_rays_land_as_the_rays_one_by_one() {
        fn check<W: Word>(file: &str, sliders: usize) {
            let mut found = None;
            on_boards_of_play::<W>(file, |pairs, b| {
                found = Some(pairs.iter().filter(|a| matches!(a.1, Arm::Sliders(..))).count());
                for &(arm, how) in pairs {
                    let (Op::Bind(_, body), Arm::Sliders(_, groups)) = (arm, how) else {
                        continue;
                    };
                    let mut rays = vec![];
                    slides(body, &mut rays);
                    // Off the box, rows are empty: every square of a word.
                    for k in 0..W::BITS {
                        for write in groups.iter().map(|g| g.write) {
                            let or = |m: (W, W), (t, f): (W, W)| (m.0 | t, m.1 | f);
                            let zero = (W::ZERO, W::ZERO);
                            let gathered = groups.iter().filter(|g| g.write == write).map(|g| g.targets(b, k));
                            let one_by_one = rays.iter().filter(|r| r.0 == write).map(|r| r.1.targets(b, k));
                            assert!(gathered.fold(zero, or) == one_by_one.fold(zero, or), "{file}: bit {k}");
                        }
                    }
                }
            });
            assert_eq!(found, Some(sliders), "{file}");
        }
        check::<u64>("rules/chess.alg", 4);
        check::<u128>("rules/variants/capablanca.alg", 6);
    }

    /// The steps of each leaper arm read from one mask land where the
    /// plan's rules, fitted one by one from each piece alone, land: a
    /// king's and a knight's in chess, shatranj's short leapers, and
    /// Capablanca's on two words.
    #[test]
    fn gathered_leaps_land_as_the_rules_one_by_one() {
        fn check<W: Word>(file: &str, leapers: usize) {
            let mut found = None;
            on_boards_of_play::<W>(file, |pairs, b| {
                found = Some(pairs.iter().filter(|a| matches!(a.1, Arm::Leaps(..))).count());
                for &(arm, how) in pairs {
                    let (Op::Bind(_, body), Arm::Leaps(_, groups)) = (arm, how) else {
                        continue;
                    };
                    let Op::BitRules(_, bits, _) = &**body else {
                        panic!("leaps are read off rules on words")
                    };
                    for k in 0..W::BITS {
                        for write in groups.iter().map(|g| g.write) {
                            let gathered = groups
                                .iter()
                                .filter(|g| g.write == write)
                                .fold(W::ZERO, |m, g| m | g.targets(b, k));
                            let one_by_one = bits.iter().fold(W::ZERO, |m, r| match r.step() {
                                Some((at, w)) if w == write && !r.bases(b, W::bit(k)).is_zero() => {
                                    m | W::bit(k.wrapping_add_signed(at))
                                }
                                _ => m,
                            });
                            assert!(gathered == one_by_one, "{file}: bit {k}");
                        }
                    }
                }
            });
            assert_eq!(found, Some(leapers), "{file}");
        }
        check::<u64>("rules/chess.alg", 3);
        check::<u64>("rules/variants/shatranj.alg", 5);
        check::<u128>("rules/variants/capablanca.alg", 5);
    }
}
