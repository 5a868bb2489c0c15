//! PDN, the portable draughts notation: plies written with square numbers,
//! `11-15` for a step, `22x15` for a capture, `22x15x6` for a capture that
//! names each square it lands on, `22x6` for the same capture with only its
//! first and last squares.
//!
//! Squares are numbered as FMJD and pydraughts number them: the dark
//! squares (a1 is dark) of an even square board, row by row from the top,
//! each row from the left: on 8×8, 1 is b8, 4 is h8, 5 is a7 and 32 is g1;
//! on 10×10, 1 is b10 and 50 is i1. A board is numbered so when the rules'
//! start has pieces, all on dark squares (a draughts board); the referee
//! and `play` then read and write plies this way.

use super::error::MoveError;
use crate::geometry::Square;
use crate::ir::Content;
use crate::play::Position;
use crate::semantics::Grid;

/// Whether `board`, the rules' start, is numbered for PDN: an even square
/// board whose pieces, one at least, all stand on dark squares.
pub fn numbered(board: &Grid) -> bool {
    let (w, h) = (board.width(), board.height());
    if w != h || w % 2 != 0 || w < 2 {
        return false;
    }
    let o = board.origin();
    let mut pieces = 0;
    for y in 0..h {
        for x in 0..w {
            match board.get(Square::new(o.x + x, o.y + y)) {
                Some(Content::Piece(_)) if (x + y) % 2 != 0 => return false,
                Some(Content::Piece(_)) => pieces += 1,
                Some(Content::Empty) => {}
                None if (x + y) % 2 == 0 => return false,
                None => {}
            }
        }
    }
    pieces > 0
}

/// The square numbered `n` on `board`.
fn square(board: &Grid, n: i32) -> Option<Square> {
    let (w, h) = (board.width(), board.height());
    let per_row = w / 2;
    if n < 1 || n > per_row * h {
        return None;
    }
    let (row, col) = ((n - 1) / per_row, (n - 1) % per_row);
    let x = if row % 2 == 0 { 2 * col + 1 } else { 2 * col };
    let o = board.origin();
    Some(Square::new(o.x + x, o.y + h - 1 - row))
}

/// The number of square `q` on `board`, if it is a dark square.
fn number(board: &Grid, q: Square) -> Option<i32> {
    let o = board.origin();
    let (x, y) = (q.x - o.x, q.y - o.y);
    let (w, h) = (board.width(), board.height());
    if x < 0 || y < 0 || x >= w || y >= h || (x + y) % 2 != 0 {
        return None;
    }
    let row = h - 1 - y;
    Some(row * (w / 2) + x / 2 + 1)
}

/// A ply in PDN: square numbers separated by `-` (a step) or `x` (a
/// capture), annotations such as `!?` and a trailing `*` left out.
struct PdnMove {
    squares: Vec<i32>,
    capture: bool,
}

fn read(text: &str) -> Option<PdnMove> {
    let t = text.trim().trim_end_matches(['!', '?', '*', '+']);
    let capture = t.contains(['x', 'X', ':']);
    let squares: Option<Vec<i32>> = t
        .split(['-', 'x', 'X', ':'])
        .map(|s| {
            (!s.is_empty() && s.len() <= 3 && s.bytes().all(|b| b.is_ascii_digit()))
                .then(|| s.parse().ok())
                .flatten()
                .filter(|&n| n >= 1)
        })
        .collect();
    let squares = squares?;
    let steps = t.contains('-');
    (squares.len() >= 2 && !(capture && steps) && (capture || squares.len() == 2))
        .then_some(PdnMove { squares, capture })
}

/// Whether `text` is a ply in PDN (`11-15`, `22x15x6`).
pub fn is_pdn(text: &str) -> bool {
    read(text).is_some()
}

/// What a move did: the square it left, the square it ended on (the same
/// when a capture comes back to where it began) and the squares it
/// emptied besides.
struct Done {
    from: Square,
    to: Square,
    taken: Vec<Square>,
}

fn done(before: &Grid, after: &Grid, from: Square) -> Option<Done> {
    let holds = |g: &Grid, q: Square| matches!(g.get(q), Some(Content::Piece(_)));
    if !holds(before, from) {
        return None;
    }
    let changed = before.diff(after);
    let appeared: Vec<Square> = changed
        .iter()
        .copied()
        .filter(|&q| !holds(before, q) && holds(after, q))
        .collect();
    let to = match appeared[..] {
        [q] => q,
        [] if holds(after, from) => from,
        _ => return None,
    };
    let taken = changed
        .iter()
        .copied()
        .filter(|&q| q != from && holds(before, q) && !holds(after, q))
        .collect();
    Some(Done { from, to, taken })
}

/// Whether the landing squares `path` explain the pieces `taken`: each leg
/// runs along one diagonal over exactly one of them, and every one taken
/// is passed over once.
fn explains(path: &[Square], taken: &[Square]) -> bool {
    let mut passed = vec![];
    for leg in path.windows(2) {
        let (a, b) = (leg[0], leg[1]);
        let (dx, dy) = (b.x - a.x, b.y - a.y);
        if dx == 0 || dx.abs() != dy.abs() {
            return false;
        }
        let (sx, sy) = (dx.signum(), dy.signum());
        let over: Vec<Square> = (1..dx.abs())
            .map(|k| Square::new(a.x + k * sx, a.y + k * sy))
            .filter(|q| taken.contains(q))
            .collect();
        if over.len() != 1 || passed.contains(&over[0]) {
            return false;
        }
        passed.push(over[0]);
    }
    passed.len() == taken.len()
}

/// Whether a capture from `start` can take the pieces on `left` and end
/// on `to` from `at`: each leg runs along a diagonal over empty squares
/// (or `start`, left empty) to one of them, and lands on an empty square
/// beyond it, as short jumps and flying kings both do.
fn chain(board: &Grid, start: Square, to: Square, at: Square, left: &mut Vec<Square>) -> bool {
    if left.is_empty() {
        return at == to;
    }
    let free = |q: Square| q == start || board.get(q) == Some(Content::Empty);
    for (sx, sy) in [(1, 1), (1, -1), (-1, 1), (-1, -1)] {
        let mut q = Square::new(at.x + sx, at.y + sy);
        while free(q) {
            q = Square::new(q.x + sx, q.y + sy);
        }
        let Some(i) = left.iter().position(|&t| t == q) else {
            continue;
        };
        let taken = left.swap_remove(i);
        let mut land = Square::new(q.x + sx, q.y + sy);
        while free(land) {
            if chain(board, start, to, land, left) {
                left.push(taken);
                return true;
            }
            land = Square::new(land.x + sx, land.y + sy);
        }
        left.push(taken);
        let n = left.len() - 1;
        left.swap(i, n);
    }
    false
}

/// The legal move, of those reaching `legal` from `board`, that the PDN ply
/// `text` names. A capture written with only its ends names every capture
/// between them; when more than one is legal, the squares between must be
/// written.
pub(crate) fn find(text: &str, board: &Grid, legal: &[Position]) -> Result<usize, MoveError> {
    let t = text.trim();
    let ply = read(t).ok_or_else(|| MoveError::NotPdn(t.to_string()))?;
    let path: Vec<Square> = ply
        .squares
        .iter()
        .map(|&n| {
            square(board, n).ok_or_else(|| MoveError::NoSquare {
                text: t.to_string(),
                number: n,
            })
        })
        .collect::<Result<_, _>>()?;
    let (from, to) = (path[0], path[path.len() - 1]);
    let found: Vec<usize> = (0..legal.len())
        .filter(|&i| match done(board, &legal[i].board, from) {
            Some(d) if d.to == to => {
                if !ply.capture {
                    d.taken.is_empty()
                } else {
                    !d.taken.is_empty()
                        && if path.len() == 2 {
                            chain(board, from, to, from, &mut d.taken.clone())
                        } else {
                            explains(&path, &d.taken)
                        }
                }
            }
            _ => false,
        })
        .collect();
    match found[..] {
        [i] => Ok(i),
        [] => Err(MoveError::NotLegal(t.to_string())),
        _ => Err(MoveError::AmbiguousCapture {
            text: t.to_string(),
            count: found.len(),
            from: ply.squares[0],
            to: ply.squares[ply.squares.len() - 1],
        }),
    }
}

/// The move from `before` to `after`, one of `legal`, in PDN: `11-15`,
/// or a capture from its first square to its last (`22x6`), with the
/// squares between (`22x15x6`) when another legal capture joins the same
/// two squares and the landing squares can be told from the pieces taken,
/// as on a board of short jumps. Each name is read back to the move before
/// it is given. None when no name reads back.
pub(crate) fn name(before: &Grid, after: &Grid, legal: &[Position]) -> Option<String> {
    let target = legal.iter().position(|p| &p.board == after)?;
    for q in before.diff(after) {
        let Some(d) = done(before, after, q) else { continue };
        let (Some(a), Some(b)) = (number(before, d.from), number(before, d.to)) else {
            continue;
        };
        let names = if d.taken.is_empty() {
            vec![format!("{a}-{b}")]
        } else {
            let mut names = vec![format!("{a}x{b}")];
            names.extend(short_jumps(before, &d));
            names
        };
        if let Some(n) = names.into_iter().find(|n| find(n, before, legal) == Ok(target)) {
            return Some(n);
        }
    }
    None
}

/// A capture of short jumps written out, each landing square two steps
/// past the last over a piece taken.
fn short_jumps(board: &Grid, d: &Done) -> Option<String> {
    let mut path = vec![d.from];
    let mut left = d.taken.clone();
    while !left.is_empty() {
        let at = path[path.len() - 1];
        let i = left
            .iter()
            .position(|q| (q.x - at.x).abs() == 1 && (q.y - at.y).abs() == 1)?;
        let q = left.remove(i);
        path.push(Square::new(2 * q.x - at.x, 2 * q.y - at.y));
    }
    (path[path.len() - 1] == d.to).then_some(())?;
    let numbers: Option<Vec<String>> = path.iter().map(|&q| number(board, q).map(|n| n.to_string())).collect();
    Some(numbers?.join("x"))
}

/// The shares of a result written as each side's share of the point,
/// `-` between them (`1-0`, `1/2-1/2`, `0-1-0`, PDN's `2-0`); `None` for
/// other text (`*`, a word).
pub(crate) fn shares(result: &str) -> Option<Vec<&str>> {
    let share = |s: &str| {
        let (n, d) = s.split_once('/').unwrap_or((s, "1"));
        let digits = |t: &str| !t.is_empty() && t.len() <= 9 && t.bytes().all(|b| b.is_ascii_digit());
        digits(n) && digits(d)
    };
    let parts: Vec<&str> = result.trim().split('-').collect();
    (parts.len() >= 2 && parts.iter().all(|p| share(p))).then_some(parts)
}

/// Whether a PDN result and one the rules give are the same: international
/// PDN counts two points a game (`2-0`, `0-2`, `1-1`).
pub(crate) fn same_result(rules: &str, tag: &str) -> bool {
    let tag = match tag.trim() {
        "2-0" => "1-0",
        "0-2" => "0-1",
        "1-1" => "1/2-1/2",
        t => t,
    };
    rules == tag
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(side: usize) -> Grid {
        let rows: Vec<String> = (0..side)
            .map(|r| (0..side).map(|x| if (x + r) % 2 == 1 { '♙' } else { '.' }).collect())
            .collect();
        Grid::parse(&rows.join("\n"), &crate::ir::Pieces::chess()).unwrap()
    }

    #[test]
    fn squares_are_numbered_from_the_top_left() {
        let b = board(8);
        assert!(numbered(&b));
        assert_eq!(square(&b, 1), Some(Square::new(1, 7)));
        assert_eq!(square(&b, 5), Some(Square::new(0, 6)));
        assert_eq!(square(&b, 32), Some(Square::new(6, 0)));
        assert_eq!(square(&b, 33), None);
        for n in 1..=50 {
            let b = board(10);
            assert_eq!(number(&b, square(&b, n).unwrap()), Some(n));
        }
        assert_eq!(number(&b, Square::new(0, 7)), None, "a light square");
    }

    #[test]
    fn plies_are_read() {
        assert!(is_pdn("11-15") && is_pdn("22x15x6") && is_pdn("22x6!") && is_pdn("22:15"));
        for bad in ["e2e4", "11-15-19", "11x15-19", "11", "1-0", "Nf3", "1000-1"] {
            assert!(!is_pdn(bad), "{bad}");
        }
        assert!(same_result("1-0", "2-0") && same_result("1/2-1/2", "1-1") && !same_result("1-0", "0-2"));
    }
}
