//! What play reads of each cell code, read once from a game's piece
//! registry: so that following a game ply by ply looks codes up in
//! tables instead of asking the registry for spellings.

use super::markers::Markers;
use crate::ir::{Content, PieceId, Pieces};
use crate::semantics::Code;

/// Per-code facts: a piece's letter, the piece it looks like, whether it
/// resets a move rule's count, and chess's marker pieces.
pub struct CodeTable {
    /// The letter of the ASCII spelling (`P` for `'P` and `'Pe`).
    letter: [Option<char>; 256],
    /// The FEN letter: the letter of the piece it looks like, when that
    /// is spelt with one letter.
    fen: [Option<char>; 256],
    /// The code of the piece it looks like (`'Kc`'s is `♔`'s).
    looks: [u8; 256],
    /// A piece whose move resets the move rule's count.
    resets: [bool; 256],
    /// A pawn that may be taken en passant.
    en_passant: [bool; 256],
    /// The markers FEN reads, when the rules declare them.
    pub markers: Option<Markers>,
}

impl CodeTable {
    /// The tables for every piece of `pieces`; `resets`: the pieces a
    /// move rule names.
    pub fn new(resets: &[PieceId], pieces: &Pieces) -> CodeTable {
        let mut p = CodeTable {
            letter: [None; 256],
            fen: [None; 256],
            looks: std::array::from_fn(|c| c as u8),
            resets: [false; 256],
            en_passant: [false; 256],
            markers: Markers::declared(pieces),
        };
        let resets: Vec<PieceId> = resets.iter().map(|r| pieces.looks_like(*r)).collect();
        for id in pieces.all() {
            let c = usize::from(Code::content(Content::Piece(id)));
            let looks = pieces.looks_like(id);
            p.letter[c] = pieces.letter(id);
            p.fen[c] = pieces
                .ascii(looks)
                .filter(|a| a.len() == 2 && a.chars().nth(1).is_some_and(|l| l.is_ascii_alphabetic()))
                .and_then(|a| a.chars().nth(1));
            p.looks[c] = Code::content(Content::Piece(looks));
            p.resets[c] = resets.contains(&looks);
        }
        if let Some(m) = &p.markers {
            for pawn in m.pawn {
                p.en_passant[usize::from(Code::content(Content::Piece(pawn)))] = true;
            }
        }
        p
    }

    #[inline]
    pub fn letter(&self, code: u8) -> Option<char> {
        self.letter[usize::from(code)]
    }

    #[inline]
    pub fn fen(&self, code: u8) -> Option<char> {
        self.fen[usize::from(code)]
    }

    #[inline]
    pub fn looks(&self, code: u8) -> u8 {
        self.looks[usize::from(code)]
    }

    #[inline]
    pub fn resets(&self, code: u8) -> bool {
        self.resets[usize::from(code)]
    }

    #[inline]
    pub fn is_piece(code: u8) -> bool {
        code != Code::EMPTY && code != Code::OFF && code != Code::POI
    }

    /// A pawn that may be taken en passant.
    #[inline]
    pub fn en_passant(&self, code: u8) -> bool {
        self.en_passant[usize::from(code)]
    }

    /// `code` with an en passant marker turned into the pawn it marks.
    #[inline]
    pub fn unmarked(&self, code: u8) -> u8 {
        if self.en_passant(code) {
            self.looks(code)
        } else {
            code
        }
    }
}
