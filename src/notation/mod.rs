//! Front-ends for other notations of piece moves, each lowered to the
//! algebra's surface syntax so that the elaborator gives the core IR.

// Reached from the notation dispatch (`referee"..."`, `translate`).
#[cfg_attr(not(test), allow(dead_code))]
pub(crate) mod referee;
