//! The piece registry: every piece a rule file can name, and how movements
//! act on it.
//!
//! A registry is a value, [`Pieces`], that a program owns: the twelve chess
//! pieces, then the pieces its `piece` declarations add. Nothing about
//! pieces is kept outside it, so two programs in one process may spell
//! different pieces alike. A [`PieceId`] is an index into one registry;
//! printing one (or a term holding one) asks the registry for its glyph
//! ([`Pieces::show`]). The chess pieces have the same ids in every
//! registry, so [`PieceId::chess`] names them without one.

use crate::geometry::{Movement, Tiling};
use std::borrow::Cow;
use std::fmt;
use std::sync::Arc;

/// A piece, as an index into a registry.
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct PieceId(pub(crate) u8);

/// Ids above this are reserved for board encodings.
pub(crate) const MAX_PIECES: usize = 240;

impl PieceId {
    /// A piece outside the registry, never declared or read: the checker's
    /// stand-in for "any piece neither side names" when a file declares so
    /// many that none is left over. Movements leave it alone.
    pub const OTHER: PieceId = PieceId(MAX_PIECES as u8);

    /// The registry index, dense from 0, for tables indexed by piece.
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// A chess piece by glyph or ASCII spelling (`♖` or `'R`): the same id
    /// in every registry.
    pub fn chess(name: &str) -> Option<PieceId> {
        CHESS
            .iter()
            .position(|(g, a)| *g == name || *a == name)
            .map(|i| PieceId(i as u8))
    }
}

/// Why a `piece` declaration is refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DeclareError {
    /// Neither one piece nor four turned ways.
    Ways(usize),
    /// The colours are declared a different number of ways.
    UnevenColours,
    /// One declaration names a piece twice.
    Twice(String),
    /// A known piece is declared with another twin, turn or mirror.
    Differently(String),
    /// A known piece is declared beside new ones.
    WithOthers(String),
    /// The registry is full.
    TooMany,
}

impl fmt::Display for DeclareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DeclareError::Ways(n) => write!(f, "a piece is declared alone or turned four ways, not {n} ways"),
            DeclareError::UnevenColours => f.write_str("both colours must be declared the same number of ways"),
            DeclareError::Twice(p) => write!(f, "`{p}` is declared twice"),
            DeclareError::Differently(p) => write!(f, "`{p}` is already declared differently"),
            DeclareError::WithOthers(p) => write!(f, "`{p}` is already declared, with other pieces"),
            DeclareError::TooMany => write!(f, "at most {MAX_PIECES} pieces can be declared"),
        }
    }
}

impl std::error::Error for DeclareError {}

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

/// The glyph of [`PieceId::OTHER`].
const OTHER_GLYPH: &str = "◌";

#[derive(Clone, Debug)]
struct Info {
    glyph: Cow<'static, str>,
    ascii: Option<Cow<'static, str>>,
    /// Image under `C`.
    twin: PieceId,
    /// Image under `R`.
    turn: PieceId,
    /// Image under `F`.
    mirror: PieceId,
    /// Image under every movement's action on pieces, indexed by
    /// [`action`]: filled in when the piece's group is declared, so that
    /// moving a piece is one lookup.
    images: [PieceId; 16],
}

/// Where a movement's action on pieces is kept in [`Info::images`]: `F`,
/// then `R`s, then `C`. Pieces face the four directions of the square
/// grid, so a hex turn leaves them as they are (`R⁶ = 1` there, and no
/// fourth power of a quarter turn fits it); a hex mirror still mirrors
/// them.
#[inline]
fn action(m: &Movement) -> usize {
    let rot = if m.tiling == Tiling::Hex { 0 } else { m.rot as usize };
    usize::from(m.flip) * 8 + rot * 2 + usize::from(m.colour)
}

/// The pieces a program knows: chess's twelve, then its declarations'.
/// Cloning shares the table; declaring into a shared one copies it first,
/// so a clone never sees pieces declared after it was taken.
#[derive(Clone, Debug)]
pub struct Pieces {
    table: Arc<Vec<Info>>,
}

impl Default for Pieces {
    fn default() -> Self {
        Pieces::chess()
    }
}

impl Pieces {
    /// The twelve chess pieces alone.
    pub fn chess() -> Pieces {
        let mut table = vec![];
        for (i, (glyph, ascii)) in CHESS.iter().enumerate() {
            let me = PieceId(i as u8);
            table.push(Info {
                glyph: Cow::Borrowed(glyph),
                ascii: Some(Cow::Borrowed(ascii)),
                twin: PieceId(((i + 6) % 12) as u8),
                turn: me,
                mirror: me,
                images: [me; 16],
            });
        }
        fill_images(&mut table, 0);
        Pieces { table: Arc::new(table) }
    }

    /// How many pieces the registry holds.
    pub fn len(&self) -> usize {
        self.table.len()
    }

    /// Never: the chess pieces are always there.
    pub fn is_empty(&self) -> bool {
        self.table.is_empty()
    }

    /// Looks a piece up by glyph or ASCII spelling (`♖` or `'R`).
    pub fn lookup(&self, name: &str) -> Option<PieceId> {
        self.table
            .iter()
            .position(|p| p.glyph == name || p.ascii.as_deref() == Some(name))
            .map(|i| PieceId(i as u8))
    }

    /// Declares a pair of colour twins. Declaring the same pair again is
    /// harmless; giving a known name a different twin is an error.
    pub fn declare_pair(&mut self, white: &Spelling, black: &Spelling) -> Result<(PieceId, PieceId), DeclareError> {
        let ids = self.declare(std::slice::from_ref(white), Some(std::slice::from_ref(black)))?;
        Ok((ids[0], ids[1]))
    }

    /// Declares pieces: one, or four that are one piece turned a quarter
    /// turn at a time by `R` (the first its own mirror image under `F`);
    /// with `black`, as many colour twins, swapped by `C`, and without it,
    /// pieces that `C` leaves alone. Returns the white ids, then the black.
    /// Declaring the same again is harmless; anything else that reuses a
    /// known name is an error.
    pub fn declare(&mut self, white: &[Spelling], black: Option<&[Spelling]>) -> Result<Vec<PieceId>, DeclareError> {
        let n = white.len();
        if n != 1 && n != 4 {
            return Err(DeclareError::Ways(n));
        }
        if black.is_some_and(|b| b.len() != n) {
            return Err(DeclareError::UnevenColours);
        }
        let all: Vec<&Spelling> = white.iter().chain(black.into_iter().flatten()).collect();
        for (i, a) in all.iter().enumerate() {
            if all[..i].iter().any(|b| a.names().any(|x| b.names().any(|y| x == y))) {
                return Err(DeclareError::Twice(a.display()));
            }
        }
        let known: Vec<Option<PieceId>> = all
            .iter()
            .map(|s| s.names().find_map(|name| self.lookup(name)))
            .collect();
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
                let info = &self.table[ids[k].index()];
                info.twin == ids[twin(k)] && info.turn == ids[turn(k)] && info.mirror == ids[mirror(k)]
            });
            return if same {
                Ok(ids)
            } else {
                Err(DeclareError::Differently(all[0].display()))
            };
        }
        if let Some(k) = known.iter().position(Option::is_some) {
            return Err(DeclareError::WithOthers(all[k].display()));
        }
        if self.table.len() + all.len() > MAX_PIECES {
            return Err(DeclareError::TooMany);
        }
        let table = Arc::make_mut(&mut self.table);
        let base = table.len();
        let id = |k: usize| PieceId((base + k) as u8);
        for (k, s) in all.iter().enumerate() {
            table.push(Info {
                glyph: Cow::Owned(s.display()),
                ascii: s.ascii.clone().map(Cow::Owned),
                twin: id(twin(k)),
                turn: id(turn(k)),
                mirror: id(mirror(k)),
                images: [id(k); 16],
            });
        }
        fill_images(table, base);
        Ok((0..all.len()).map(id).collect())
    }

    /// Every registered piece, in registration order.
    pub fn all(&self) -> impl Iterator<Item = PieceId> + '_ {
        (0..self.table.len()).map(|i| PieceId(i as u8))
    }

    fn info(&self, p: PieceId) -> Option<&Info> {
        self.table.get(p.index())
    }

    /// The symbol the piece is drawn with (`♔`).
    pub fn glyph(&self, p: PieceId) -> &str {
        self.info(p).map_or(OTHER_GLYPH, |i| &i.glyph)
    }

    /// The ASCII spelling (`'K`), when the piece has one.
    pub fn ascii(&self, p: PieceId) -> Option<&str> {
        self.info(p).and_then(|i| i.ascii.as_deref())
    }

    /// The piece this one is drawn as. A marker whose ASCII spelling extends
    /// another piece's (`'Kc` extends `'K`) looks like that piece (`♔`):
    /// the state it carries is shown in other ways, such as FEN.
    pub fn looks_like(&self, p: PieceId) -> PieceId {
        let Some(ascii) = self.ascii(p).filter(|a| a.chars().count() > 2) else {
            return p;
        };
        let base: String = ascii.chars().take(2).collect();
        self.lookup(&base).unwrap_or(p)
    }

    /// The letter of the ASCII spelling: `P` for `'P`, and for a marker
    /// such as `'Pe` too.
    pub fn letter(&self, p: PieceId) -> Option<char> {
        self.ascii(p).and_then(|a| a.chars().nth(1))
    }

    /// The other side's piece of the same kind (`♔` for `♚`).
    #[inline]
    pub fn twin(&self, p: PieceId) -> PieceId {
        self.info(p).map_or(p, |i| i.twin)
    }

    /// The piece a movement turns this one into: `F`, then `R`s, then `C`
    /// (a hex turn leaves pieces as they are).
    #[inline]
    pub fn moved(&self, p: PieceId, m: &Movement) -> PieceId {
        self.info(p).map_or(p, |i| i.images[action(m)])
    }
}

/// Fills in the images of the pieces from `base` on, from their twin, turn
/// and mirror.
fn fill_images(table: &mut [Info], base: usize) {
    for i in base..table.len() {
        let mut images = [PieceId(0); 16];
        for (k, image) in images.iter_mut().enumerate() {
            let (flip, rot, colour) = (k / 8 == 1, (k / 2) % 4, k % 2 == 1);
            let mut p = PieceId(i as u8);
            if flip {
                p = table[p.index()].mirror;
            }
            for _ in 0..rot {
                p = table[p.index()].turn;
            }
            if colour {
                p = table[p.index()].twin;
            }
            *image = p;
        }
        table[i].images = images;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chess_pieces_are_preregistered_with_ascii_spellings() {
        let pieces = Pieces::chess();
        let wr = pieces.lookup("♖").unwrap();
        assert_eq!(pieces.lookup("'R"), Some(wr));
        assert_eq!(PieceId::chess("'R"), Some(wr));
        assert_eq!(pieces.twin(wr), pieces.lookup("♜").unwrap());
        assert_eq!(pieces.glyph(pieces.moved(wr, &Movement::COLOUR)), "♜");
        assert_eq!(pieces.moved(wr, &Movement::ROTATE), wr);
        assert_eq!(pieces.glyph(PieceId::OTHER), OTHER_GLYPH);
    }

    #[test]
    fn turned_pieces_turn_and_mirror() {
        let mut pieces = Pieces::chess();
        let sp = |g: &str| Spelling {
            glyph: Some(g.into()),
            ascii: None,
        };
        let w: Vec<Spelling> = ["▲", "◀", "▼", "▶"].map(sp).into();
        let b: Vec<Spelling> = ["△", "◁", "▽", "▷"].map(sp).into();
        let ids = pieces.declare(&w, Some(&b)).unwrap();
        assert_eq!(pieces.declare(&w, Some(&b)).unwrap(), ids);
        let up = ids[0];
        let glyph = |p: PieceId, m: &Movement| pieces.glyph(pieces.moved(p, m)).to_string();
        assert_eq!(glyph(up, &Movement::ROTATE), "◀");
        assert_eq!(glyph(up, &Movement::ROTATE.checked_pow(3).unwrap()), "▶");
        assert_eq!(glyph(up, &Movement::FLIP), "▲");
        assert_eq!(glyph(ids[1], &Movement::FLIP), "▶");
        assert_eq!(glyph(up, &Movement::COLOUR), "△");
        // The group acts: F R F = R⁻¹ on every piece.
        for p in &ids {
            let frf = [Movement::FLIP, Movement::ROTATE, Movement::FLIP]
                .iter()
                .fold(*p, |q, m| pieces.moved(q, m));
            assert_eq!(frf, pieces.moved(*p, &Movement::ROTATE.inverse()));
        }
        // Without a black side, colour reversal leaves the pieces alone.
        let lone = pieces.declare(&[sp("⬟")], None).unwrap();
        assert_eq!(pieces.moved(lone[0], &Movement::COLOUR), lone[0]);
        assert!(pieces.declare(&[sp("▲")], None).is_err());
        assert!(pieces.declare(&w[..2], None).is_err());
    }

    #[test]
    fn declared_pairs_swap_under_colour_and_redeclaring_is_checked() {
        let mut pieces = Pieces::chess();
        let ascii = |a: &str| Spelling {
            glyph: None,
            ascii: Some(a.into()),
        };
        let (x, o) = (ascii("'Xt"), ascii("'Ot"));
        let (px, po) = pieces.declare_pair(&x, &o).unwrap();
        assert_eq!(pieces.twin(px), po);
        assert_eq!(pieces.declare_pair(&x, &o).unwrap(), (px, po));
        assert_eq!(
            pieces.declare_pair(&x, &ascii("'Zt")),
            Err(DeclareError::WithOthers("'Xt".into()))
        );
        assert_eq!(pieces.declare_pair(&x, &x), Err(DeclareError::Twice("'Xt".into())));
    }

    #[test]
    fn registries_are_independent_values() {
        let ascii = |a: &str| Spelling {
            glyph: None,
            ascii: Some(a.into()),
        };
        let mut one = Pieces::chess();
        let shared = one.clone();
        let (x1, _) = one.declare_pair(&ascii("'X"), &ascii("'x")).unwrap();
        // A clone taken before the declaration does not see it.
        assert_eq!(shared.lookup("'X"), None);
        assert_eq!(shared.len(), 12);
        // Another registry declares `'X` alone, without a twin.
        let mut two = Pieces::chess();
        let lone = two.declare(&[ascii("'Y")], None).unwrap()[0];
        let x2 = two.declare(&[ascii("'X")], None).unwrap()[0];
        assert_ne!(lone, x2);
        assert_eq!(one.moved(x1, &Movement::COLOUR), one.lookup("'x").unwrap());
        assert_eq!(two.moved(x2, &Movement::COLOUR), x2);
        assert_eq!(one.glyph(x1), "'X");
        assert_eq!(two.glyph(x2), "'X");
    }
}
