//! Positions as FIDE compares them for repetition, and how often each was
//! reached. Whether an en passant square counts (only when taking en
//! passant is legal) costs two move generations to tell, so it is told
//! only when a position shares its key with another: in chess, never,
//! since a pawn that has just moved two squares cannot stand there again.

use super::game::{Position, Rules, TooBig};
use super::markers::{self, CastlingRight, Markers, MAX_SIDE};
use super::pieces::CodeTable;
use crate::geometry::Square;
use crate::ir::Content;
use crate::semantics::{Change, Code, Grid};
use rustc_hash::FxHashMap;
use smallvec::SmallVec;

/// A position's identity, the en passant square aside. On a board FEN can
/// write, the FEN without its counters: the placement (markers read as
/// the pieces they mark), the side to move and the castling rights the
/// markers give (a king's marker without a rook's gives no right, as no
/// marker does). Otherwise the board itself and the side to move.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(super) struct Key {
    cells: SmallVec<[u8; 64]>,
    castling: Option<SmallVec<[CastlingRight; 4]>>,
    turn: usize,
}

/// A position as reached: its key, and the en passant square its markers
/// give, which counts only when taking en passant is legal.
#[derive(Clone, Debug)]
pub(super) struct Reached {
    pub key: Key,
    pub en_passant: Option<Square>,
}

impl Reached {
    /// `board` with turn `turn` to move.
    pub(super) fn of(rules: &Rules, board: &Grid, turn: usize) -> Reached {
        let p = &rules.codes;
        let codes = board.codes();
        let fen_like = rules.turns.len() == 2
            && board.width() as usize <= MAX_SIDE
            && board.height() as usize <= MAX_SIDE
            && codes.iter().all(|&v| !CodeTable::is_piece(v) || p.fen(v).is_some());
        if !fen_like {
            let key = Key {
                cells: codes.into(),
                castling: None,
                turn,
            };
            return Reached { key, en_passant: None };
        }
        let mut cells: SmallVec<[u8; 64]> = codes.into();
        for c in &mut cells {
            *c = p.looks(*c);
        }
        // The rights come from the kings' and pawns' markers: a board with
        // none has none, and need not be searched for them.
        let rights = match &p.markers {
            Some(m) if marked(codes, m) => markers::rights(board, m, turn == 1, &rules.pieces),
            _ => Default::default(),
        };
        Reached {
            key: Key {
                cells,
                castling: Some(rights.castling),
                turn,
            },
            en_passant: rights.en_passant,
        }
    }
}

/// Whether `codes` hold a king's or a pawn's marker.
fn marked(codes: &[u8], m: &Markers) -> bool {
    let code = |id| Code::content(Content::Piece(id));
    let [a, b, c, d] = [code(m.king[0]), code(m.king[1]), code(m.pawn[0]), code(m.pawn[1])];
    codes.iter().any(|&v| v == a || v == b || v == c || v == d)
}

/// How often each position was reached.
#[derive(Clone)]
pub(super) struct Seen(FxHashMap<Key, SmallVec<[Entry; 1]>>);

impl Default for Seen {
    /// Room for a long game's positions, so that the table does not grow
    /// ply by ply.
    fn default() -> Seen {
        Seen(FxHashMap::with_capacity_and_hasher(128, Default::default()))
    }
}

#[derive(Clone)]
struct Entry {
    en_passant: Option<Square>,
    /// While it is not known whether `en_passant` counts: the board, to
    /// tell when another position shares the key.
    undecided: Option<Grid>,
    count: u32,
}

impl Seen {
    /// Counts position `r`, on `board`; how often it has now been reached.
    pub(super) fn add(&mut self, rules: &Rules, r: Reached, board: &Grid) -> Result<u32, TooBig> {
        let (turn, en_passant) = (r.key.turn, r.en_passant);
        let list = self.0.entry(r.key).or_default();
        if list.is_empty() {
            list.push(Entry {
                en_passant,
                undecided: en_passant.map(|_| board.clone()),
                count: 1,
            });
            return Ok(1);
        }
        let ep = settle(rules, list, turn, en_passant, board)?;
        Ok(match list.iter_mut().find(|e| e.en_passant == ep) {
            Some(e) => {
                e.count += 1;
                e.count
            }
            None => {
                list.push(Entry {
                    en_passant: ep,
                    undecided: None,
                    count: 1,
                });
                1
            }
        })
    }

    /// How often position `r`, on `board`, was reached.
    pub(super) fn count(&mut self, rules: &Rules, r: &Reached, board: &Grid) -> Result<u32, TooBig> {
        let Some(list) = self.0.get_mut(&r.key) else {
            return Ok(0);
        };
        let ep = settle(rules, list, r.key.turn, r.en_passant, board)?;
        Ok(list.iter().find(|e| e.en_passant == ep).map_or(0, |e| e.count))
    }
}

/// Tells for every entry of `list` and for a position reached on `board`
/// with turn `turn` to move and en passant square `en_passant` whether
/// their en passant squares count; the position's, when it counts.
fn settle(
    rules: &Rules,
    list: &mut [Entry],
    turn: usize,
    en_passant: Option<Square>,
    board: &Grid,
) -> Result<Option<Square>, TooBig> {
    for e in list.iter_mut() {
        if let Some(g) = e.undecided.take() {
            if !en_passant_legal(rules, &g, turn)? {
                e.en_passant = None;
            }
        }
    }
    Ok(match en_passant {
        Some(q) if en_passant_legal(rules, board, turn)? => Some(q),
        _ => None,
    })
}

/// Whether taking en passant is a legal move for turn `turn` on `board`,
/// told without knowing how pawns move: taking the markers off changes
/// the positions the moves reach.
pub(crate) fn en_passant_legal(rules: &Rules, board: &Grid, turn: usize) -> Result<bool, TooBig> {
    let p = &rules.codes;
    let mut stripped = board.clone();
    stripped.apply(&unmarked(p, board));
    if stripped == *board {
        return Ok(false);
    }
    // Each reached board as it differs from the stripped one, markers off.
    let reached = |from: &Grid| -> Result<Vec<Change>, TooBig> {
        let pos = Position {
            board: from.clone(),
            turn,
        };
        let mut out: Vec<Change> = rules
            .successors(&pos)?
            .iter()
            .map(|s| {
                let mut g = s.board.clone();
                g.apply(&unmarked(p, &s.board));
                let mut c = stripped.change_to(&g);
                c.sort_unstable_by_key(|(q, v)| (q.y, q.x, *v));
                c
            })
            .collect();
        out.sort_unstable_by(|a, b| {
            let key = |c: &Change| c.iter().map(|(q, v)| (q.y, q.x, *v)).collect::<Vec<_>>();
            key(a).cmp(&key(b))
        });
        Ok(out)
    };
    Ok(reached(board)? != reached(&stripped)?)
}

/// What turns each en passant marker on `board` back into its pawn.
pub(super) fn unmarked(p: &CodeTable, board: &Grid) -> Change {
    let o = board.origin();
    (0..board.height())
        .flat_map(|y| (0..board.width()).map(move |x| Square::new(o.x + x, o.y + y)))
        .filter_map(|q| {
            let v = board.code(q);
            p.en_passant(v).then(|| (q, p.looks(v)))
        })
        .collect()
}
