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
pub const MAX_PIECES: usize = 240;

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
        let mut reg = registry().write().unwrap();
        let find = |reg: &Registry, s: &Spelling| -> Option<PieceId> {
            s.names().find_map(|n| {
                reg.pieces
                    .iter()
                    .position(|p| p.glyph == n || p.ascii.as_deref() == Some(n))
                    .map(|i| PieceId(i as u8))
            })
        };
        match (find(&reg, white), find(&reg, black)) {
            (Some(w), Some(b)) if reg.pieces[w.0 as usize].twin == b => return Ok((w, b)),
            (Some(w), _) => {
                let twin = &reg.pieces[reg.pieces[w.0 as usize].twin.0 as usize];
                return Err(format!(
                    "`{}` is already declared, with twin `{}`",
                    white.display(),
                    twin.glyph
                ));
            }
            (None, Some(b)) => {
                let twin = &reg.pieces[reg.pieces[b.0 as usize].twin.0 as usize];
                return Err(format!(
                    "`{}` is already declared, with twin `{}`",
                    black.display(),
                    twin.glyph
                ));
            }
            (None, None) => {}
        }
        if white.names().any(|n| black.names().any(|m| m == n)) {
            return Err("a piece cannot be its own colour twin".into());
        }
        if reg.pieces.len() + 2 > MAX_PIECES {
            return Err(format!("at most {MAX_PIECES} pieces can be declared"));
        }
        let w = PieceId(reg.pieces.len() as u8);
        let b = PieceId(w.0 + 1);
        for (me, twin, s) in [(w, b, white), (b, w, black)] {
            reg.pieces.push(Info {
                glyph: s.display(),
                ascii: s.ascii.clone(),
                twin,
                turn: me,
                mirror: me,
            });
        }
        Ok((w, b))
    }

    /// Every registered piece, in registration order.
    pub fn all() -> Vec<PieceId> {
        let n = registry().read().unwrap().pieces.len();
        (0..n).map(|i| PieceId(i as u8)).collect()
    }

    pub fn glyph(self) -> String {
        registry().read().unwrap().pieces[self.0 as usize].glyph.clone()
    }

    pub fn ascii(self) -> Option<String> {
        registry().read().unwrap().pieces[self.0 as usize].ascii.clone()
    }

    pub fn twin(self) -> PieceId {
        registry().read().unwrap().pieces[self.0 as usize].twin
    }

    /// The piece a movement turns this one into: `F`, then `R`s, then `C`.
    pub fn moved(self, m: &Movement) -> PieceId {
        if !m.flip && m.rot == 0 && !m.colour {
            return self;
        }
        let reg = registry().read().unwrap();
        let info = |p: PieceId| &reg.pieces[p.0 as usize];
        let mut p = self;
        if m.flip {
            p = info(p).mirror;
        }
        for _ in 0..m.rot {
            p = info(p).turn;
        }
        if m.colour {
            p = info(p).twin;
        }
        p
    }

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
