//! The contents of a square as rules/chess.alg spells them, as bit sets:
//! white's pieces (with the markers of an unmoved king and rook and of a
//! pawn that has just double-stepped), black's, an empty square, off-board.
//! They are written here, not read from the rule file: the lowering is
//! given the ply list's text alone, not the declarations of the file it
//! stands in.

pub(super) const GLYPHS: [&str; 20] = [
    "♙", "'Pe", "♘", "♗", "♖", "'Rc", "♕", "♔", "'Kc", "♟", "'pe", "♞", "♝", "♜", "'rc", "♛", "♚", "'kc", ".", "#",
];
pub(super) const fn bit(i: usize) -> u32 {
    1 << i
}
pub(super) const W_PAWN: u32 = bit(0);
pub(super) const W_PAWN_EP: u32 = bit(1);
pub(super) const W_KNIGHT: u32 = bit(2);
pub(super) const W_BISHOP: u32 = bit(3);
pub(super) const W_ROOK: u32 = bit(4);
pub(super) const W_ROOK_HOME: u32 = bit(5);
pub(super) const W_QUEEN: u32 = bit(6);
pub(super) const W_KING: u32 = bit(7);
pub(super) const W_KING_HOME: u32 = bit(8);
pub(super) const B_PAWN: u32 = bit(9);
pub(super) const B_PAWN_EP: u32 = bit(10);
pub(super) const B_KNIGHT: u32 = bit(11);
pub(super) const B_BISHOP: u32 = bit(12);
pub(super) const B_ROOK: u32 = bit(13);
pub(super) const B_ROOK_HOME: u32 = bit(14);
pub(super) const B_QUEEN: u32 = bit(15);
pub(super) const B_KING: u32 = bit(16);
pub(super) const B_KING_HOME: u32 = bit(17);
pub(super) const EMPTY: u32 = bit(18);
pub(super) const OFF: u32 = bit(19);
pub(super) const FRIEND: u32 = 0x1ff;
pub(super) const ENEMY: u32 = 0x1ff << 9;
pub(super) const ON: u32 = FRIEND | ENEMY | EMPTY;
pub(super) const ALL: u32 = ON | OFF;
pub(super) const PAWN: u32 = W_PAWN | W_PAWN_EP | B_PAWN | B_PAWN_EP;

pub(super) fn glyph(b: u32) -> &'static str {
    GLYPHS[b.trailing_zeros() as usize]
}

/// The glyphs of a set of contents.
pub(super) fn names(set: u32) -> Vec<&'static str> {
    (0..20).filter(|i| set & bit(*i) != 0).map(|i| GLYPHS[i]).collect()
}

/// The moved form of a piece that had not moved.
pub(super) fn demoted(b: u32) -> u32 {
    match b {
        W_KING_HOME => W_KING,
        W_ROOK_HOME => W_ROOK,
        W_PAWN_EP => W_PAWN,
        other => other,
    }
}
