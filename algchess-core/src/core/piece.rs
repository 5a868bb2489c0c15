//! The piece registry: every piece a rule file can name, and how movements
//! act on it.
//!
//! Like egg's `Symbol`, the registry is global and append-only, so that terms,
//! boards and their `Display` impls need no context. The twelve chess pieces
//! are always present; rule files declare more with `piece`.

use crate::geometry::Movement;
use std::fmt;
use std::sync::{OnceLock, RwLock};

/// A piece, as an index into the registry.
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct PieceId(pub(crate) u8);

/// Ids above this are reserved for board encodings.
pub(crate) const MAX_PIECES: usize = 240;

impl PieceId {
    /// A piece outside the registry, never declared or read: the checker's
    /// stand-in for "any piece neither side names" when a file declares so
    /// many that none is left over. Movements leave it alone.
    pub const OTHER: PieceId = PieceId(MAX_PIECES as u8);
}

#[derive(Clone, Debug)]
struct Info {
    glyph: String,
    ascii: Option<String>,
    /// Image under `C`.
    twin: PieceId,
    /// Image under `R`.
    turn: PieceId,
    /// Image under `F`.
    mirror: PieceId,
}

#[derive(Default)]
struct Registry {
    pieces: Vec<Info>,
}

/// How a piece is written in a `piece` declaration: a glyph, an ASCII
/// spelling such as `'X`, or both.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Spelling {
    pub glyph: Option<String>,
    pub ascii: Option<String>,
}

impl Spelling {
    fn names(&self) -> impl Iterator<Item = &str> {
        self.glyph.iter().chain(self.ascii.iter()).map(String::as_str)
    }

    fn display(&self) -> String {
        self.glyph.clone().or_else(|| self.ascii.clone()).unwrap_or_default()
    }
}

const CHESS: [(&str, &str); 12] = [
    ("♔", "'K"),
    ("♕", "'Q"),
    ("♖", "'R"),
    ("♗", "'B"),
    ("♘", "'N"),
    ("♙", "'P"),
    ("♚", "'k"),
    ("♛", "'q"),
    ("♜", "'r"),
    ("♝", "'b"),
    ("♞", "'n"),
    ("♟", "'p"),
];

fn registry() -> &'static RwLock<Registry> {
    static REG: OnceLock<RwLock<Registry>> = OnceLock::new();
    REG.get_or_init(|| {
        let mut r = Registry::default();
        for (i, (glyph, ascii)) in CHESS.iter().enumerate() {
            let me = PieceId(i as u8);
            r.pieces.push(Info {
                glyph: glyph.to_string(),
                ascii: Some(ascii.to_string()),
                twin: PieceId(((i + 6) % 12) as u8),
                turn: me,
                mirror: me,
            });
        }
        RwLock::new(r)
    })
}

impl PieceId {
    /// Looks a piece up by glyph or ASCII spelling (`♖` or `'R`).
    pub fn lookup(name: &str) -> Option<PieceId> {
        let reg = registry().read().unwrap();
        reg.pieces
            .iter()
            .position(|p| p.glyph == name || p.ascii.as_deref() == Some(name))
            .map(|i| PieceId(i as u8))
    }

    /// Declares a pair of colour twins. Declaring the same pair again is
    /// harmless; giving a known name a different twin is an error.
    pub fn declare_pair(white: &Spelling, black: &Spelling) -> Result<(PieceId, PieceId), String> {
        let ids = PieceId::declare(std::slice::from_ref(white), Some(std::slice::from_ref(black)))?;
        Ok((ids[0], ids[1]))
    }

    /// Declares pieces: one, or four that are one piece turned a quarter
    /// turn at a time by `R` (the first its own mirror image under `F`);
    /// with `black`, as many colour twins, swapped by `C`, and without it,
    /// pieces that `C` leaves alone. Returns the white ids, then the black.
    /// Declaring the same again is harmless; anything else that reuses a
    /// known name is an error.
    pub fn declare(white: &[Spelling], black: Option<&[Spelling]>) -> Result<Vec<PieceId>, String> {
        let n = white.len();
        if n != 1 && n != 4 {
            return Err(format!("a piece is declared alone or turned four ways, not {n} ways"));
        }
        if black.is_some_and(|b| b.len() != n) {
            return Err("both colours must be declared the same number of ways".into());
        }
        let all: Vec<&Spelling> = white.iter().chain(black.into_iter().flatten()).collect();
        for (i, a) in all.iter().enumerate() {
            if all[..i].iter().any(|b| a.names().any(|x| b.names().any(|y| x == y))) {
                return Err(format!("`{}` is declared twice", a.display()));
            }
        }
        let mut reg = registry().write().unwrap();
        let find = |reg: &Registry, s: &Spelling| -> Option<PieceId> {
            s.names().find_map(|name| {
                reg.pieces
                    .iter()
                    .position(|p| p.glyph == name || p.ascii.as_deref() == Some(name))
                    .map(|i| PieceId(i as u8))
            })
        };
        let known: Vec<Option<PieceId>> = all.iter().map(|s| find(&reg, s)).collect();
        // The structure these pieces must have: twin, turn and mirror of
        // each, by position in `all`.
        let twin = |k: usize| match black {
            Some(_) => (k + n) % (2 * n),
            None => k,
        };
        let turn = |k: usize| k - k % n + (k % n + 1) % n;
        let mirror = |k: usize| k - k % n + (n - k % n) % n;
        if known.iter().all(Option::is_some) {
            let ids: Vec<PieceId> = known.into_iter().map(Option::unwrap).collect();
            let same = (0..ids.len()).all(|k| {
                let info = &reg.pieces[ids[k].0 as usize];
                info.twin == ids[twin(k)] && info.turn == ids[turn(k)] && info.mirror == ids[mirror(k)]
            });
            return if same {
                Ok(ids)
            } else {
                Err(format!("`{}` is already declared differently", all[0].display()))
            };
        }
        if let Some(k) = known.iter().position(Option::is_some) {
            return Err(format!("`{}` is already declared, with other pieces", all[k].display()));
        }
        if reg.pieces.len() + all.len() > MAX_PIECES {
            return Err(format!("at most {MAX_PIECES} pieces can be declared"));
        }
        let base = reg.pieces.len();
        let id = |k: usize| PieceId((base + k) as u8);
        for (k, s) in all.iter().enumerate() {
            reg.pieces.push(Info {
                glyph: s.display(),
                ascii: s.ascii.clone(),
                twin: id(twin(k)),
                turn: id(turn(k)),
                mirror: id(mirror(k)),
            });
        }
        Ok((0..all.len()).map(id).collect())
    }

    /// Every registered piece, in registration order.
    pub fn all() -> Vec<PieceId> {
        let n = registry().read().unwrap().pieces.len();
        (0..n).map(|i| PieceId(i as u8)).collect()
    }

    /// The symbol the piece is drawn with (`♔`).
    pub fn glyph(self) -> String {
        if self == PieceId::OTHER {
            return "◌".into();
        }
        registry().read().unwrap().pieces[self.0 as usize].glyph.clone()
    }

    /// The ASCII spelling (`'K`), when the piece has one.
    pub fn ascii(self) -> Option<String> {
        if self == PieceId::OTHER {
            return None;
        }
        registry().read().unwrap().pieces[self.0 as usize].ascii.clone()
    }

    /// The piece this one is drawn as. A marker whose ASCII spelling extends
    /// another piece's (`'Kc` extends `'K`) looks like that piece (`♔`):
    /// the state it carries is shown in other ways, such as FEN.
    pub fn looks_like(self) -> PieceId {
        let Some(ascii) = self.ascii().filter(|a| a.chars().count() > 2) else {
            return self;
        };
        let base: String = ascii.chars().take(2).collect();
        PieceId::lookup(&base).unwrap_or(self)
    }

    /// The letter of the ASCII spelling: `P` for `'P`, and for a marker
    /// such as `'Pe` too.
    pub fn letter(self) -> Option<char> {
        if self == PieceId::OTHER {
            return None;
        }
        registry().read().unwrap().pieces[self.0 as usize]
            .ascii
            .as_deref()
            .and_then(|a| a.chars().nth(1))
    }

    /// The other side's piece of the same kind (`♔` for `♚`).
    pub fn twin(self) -> PieceId {
        if self == PieceId::OTHER {
            return self;
        }
        registry().read().unwrap().pieces[self.0 as usize].twin
    }

    /// The piece a movement turns this one into: `F`, then `R`s, then `C`.
    /// Pieces face the four directions of the square grid, so a hex turn
    /// leaves them as they are (`R⁶ = 1` there, and no fourth power of a
    /// quarter turn fits it); a hex mirror still mirrors them.
    pub fn moved(self, m: &Movement) -> PieceId {
        let rot = if m.tiling == crate::geometry::Tiling::Hex {
            0
        } else {
            m.rot
        };
        if (!m.flip && rot == 0 && !m.colour) || self == PieceId::OTHER {
            return self;
        }
        let reg = registry().read().unwrap();
        let info = |p: PieceId| &reg.pieces[p.0 as usize];
        let mut p = self;
        if m.flip {
            p = info(p).mirror;
        }
        for _ in 0..rot {
            p = info(p).turn;
        }
        if m.colour {
            p = info(p).twin;
        }
        p
    }

    /// The registry index, dense from 0, for tables indexed by piece.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

impl fmt::Display for PieceId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.glyph())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chess_pieces_are_preregistered_with_ascii_spellings() {
        let wr = PieceId::lookup("♖").unwrap();
        assert_eq!(PieceId::lookup("'R"), Some(wr));
        assert_eq!(wr.twin(), PieceId::lookup("♜").unwrap());
        assert_eq!(wr.moved(&Movement::COLOUR).glyph(), "♜");
        assert_eq!(wr.moved(&Movement::ROTATE), wr);
    }

    #[test]
    fn turned_pieces_turn_and_mirror() {
        let sp = |g: &str| Spelling {
            glyph: Some(g.into()),
            ascii: None,
        };
        let w: Vec<Spelling> = ["▲", "◀", "▼", "▶"].map(sp).into();
        let b: Vec<Spelling> = ["△", "◁", "▽", "▷"].map(sp).into();
        let ids = PieceId::declare(&w, Some(&b)).unwrap();
        assert_eq!(PieceId::declare(&w, Some(&b)).unwrap(), ids);
        let up = ids[0];
        assert_eq!(up.moved(&Movement::ROTATE).glyph(), "◀");
        assert_eq!(up.moved(&Movement::ROTATE.checked_pow(3).unwrap()).glyph(), "▶");
        assert_eq!(up.moved(&Movement::FLIP).glyph(), "▲");
        assert_eq!(ids[1].moved(&Movement::FLIP).glyph(), "▶");
        assert_eq!(up.moved(&Movement::COLOUR).glyph(), "△");
        // The group acts: F R F = R⁻¹ on every piece.
        for p in &ids {
            let frf = p.moved(&Movement::FLIP).moved(&Movement::ROTATE).moved(&Movement::FLIP);
            assert_eq!(frf, p.moved(&Movement::ROTATE.inverse()));
        }
        // Without a black side, colour reversal leaves the pieces alone.
        let lone = PieceId::declare(&[sp("⬟")], None).unwrap();
        assert_eq!(lone[0].moved(&Movement::COLOUR), lone[0]);
        assert!(PieceId::declare(&[sp("▲")], None).is_err());
        assert!(PieceId::declare(&w[..2], None).is_err());
    }

    #[test]
    fn declared_pairs_swap_under_colour_and_redeclaring_is_checked() {
        let x = Spelling {
            glyph: None,
            ascii: Some("'Xt".into()),
        };
        let o = Spelling {
            glyph: None,
            ascii: Some("'Ot".into()),
        };
        let (px, po) = PieceId::declare_pair(&x, &o).unwrap();
        assert_eq!(px.twin(), po);
        assert_eq!(PieceId::declare_pair(&x, &o).unwrap(), (px, po));
        let other = Spelling {
            glyph: None,
            ascii: Some("'Zt".into()),
        };
        assert!(PieceId::declare_pair(&x, &other).is_err());
        assert!(PieceId::declare_pair(&x, &x).is_err());
    }
}
