//! Boards drawn as SVG: a pure function from boards to text.
//!
//! A sheet is rows of pictures, each row with a title and each picture a
//! board with a caption: square cells chequered, hex cells in three
//! shades (no two neighbours alike), squares off the board left out, each
//! piece its glyph in its side's colour (the first of a pair of twins
//! white, the second black, a piece without a twin grey), marked squares
//! tinted, and a path (a tour) drawn as numbered steps joined by arrows.

use crate::geometry::{Square, Tiling};
use crate::ir::{Content, PieceId, Pieces};
use crate::semantics::{Grid, Store};
use std::fmt::Write;

/// A square cell's side, and a hex cell's radius (centre to corner).
const CELL: f64 = 44.0;
const HEX: f64 = 26.0;
/// Room around a board for the files' and ranks' names.
const EDGE: f64 = 18.0;
/// A caption's line, and a row title's.
const LINE: f64 = 22.0;
/// Space between pictures and around the sheet.
const GAP: f64 = 24.0;
const FONT: &str = "DejaVu Sans, Segoe UI Symbol, Noto Sans Symbols2, sans-serif";

/// What a marked square shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mark {
    /// The piece of interest's square: ringed.
    Poi,
    /// A square a move changed: tinted yellow.
    Changed,
    /// Where the last move came from and went to: tinted green.
    Moved,
}

/// One board to draw.
#[derive(Clone, Debug)]
pub struct Picture {
    /// The board.
    pub board: Grid,
    /// Its grid.
    pub tiling: Tiling,
    /// How its pieces are drawn.
    pub pieces: Pieces,
    /// The line above it.
    pub caption: String,
    /// Squares marked.
    pub marks: Vec<(Square, Mark)>,
    /// A path over the board, numbered from 1, each step an arrow.
    pub path: Vec<Square>,
    /// Whether the path's last square leads back to its first.
    pub closed: bool,
}

impl Picture {
    /// A board with a caption, nothing marked.
    pub fn new(board: Grid, tiling: Tiling, pieces: &Pieces, caption: impl Into<String>) -> Picture {
        Picture {
            board,
            tiling,
            pieces: pieces.clone(),
            caption: caption.into(),
            marks: vec![],
            path: vec![],
            closed: false,
        }
    }
}

/// Pictures side by side under a title.
#[derive(Clone, Debug, Default)]
pub struct Row {
    /// The line above the row (none when empty).
    pub title: String,
    /// The pictures, left to right.
    pub pictures: Vec<Picture>,
}

/// A cell's place on the page: its centre, and its outline.
struct Layout {
    width: f64,
    height: f64,
    /// Centre of a square from the board's top-left corner.
    centre: Box<dyn Fn(Square) -> (f64, f64)>,
}

fn layout(p: &Picture) -> Layout {
    let on: Vec<Square> = p.board.squares().iter().filter(|q| p.board.get(*q).is_some()).collect();
    match p.tiling {
        Tiling::Square => {
            let r = p.board.squares();
            let (x0, top) = (r.origin.x, r.origin.y + r.height - 1);
            Layout {
                width: f64::from(r.width) * CELL + 2.0 * EDGE,
                height: f64::from(r.height) * CELL + 2.0 * EDGE,
                centre: Box::new(move |q| {
                    (
                        EDGE + (f64::from(q.x - x0) + 0.5) * CELL,
                        EDGE + (f64::from(top - q.y) + 0.5) * CELL,
                    )
                }),
            }
        }
        Tiling::Hex => {
            // Flat-topped hexagons: columns 1.5 radii apart, cells of a
            // column √3 radii apart, each column half a cell up.
            let h = 3f64.sqrt() * HEX;
            let raw = move |q: Square| (1.5 * HEX * f64::from(q.x), -h * (f64::from(q.y) + f64::from(q.x) / 2.0));
            let xs = on.iter().map(|q| raw(*q).0);
            let ys = on.iter().map(|q| raw(*q).1);
            let (min_x, max_x) = xs.fold((f64::MAX, f64::MIN), |(a, b), x| (a.min(x), b.max(x)));
            let (min_y, max_y) = ys.fold((f64::MAX, f64::MIN), |(a, b), y| (a.min(y), b.max(y)));
            let (min_x, min_y) = if on.is_empty() { (0.0, 0.0) } else { (min_x, min_y) };
            let (max_x, max_y) = if on.is_empty() { (0.0, 0.0) } else { (max_x, max_y) };
            Layout {
                width: max_x - min_x + 2.0 * HEX + 2.0 * EDGE,
                height: max_y - min_y + h + 2.0 * EDGE,
                centre: Box::new(move |q| {
                    let (x, y) = raw(q);
                    (EDGE + HEX + x - min_x, EDGE + h / 2.0 + y - min_y)
                }),
            }
        }
    }
}

/// Text safe inside an SVG element or attribute.
fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            c => out.push(c),
        }
    }
    out
}

/// The side a piece is drawn in: white, black, or neither.
fn colours(pieces: &Pieces, p: PieceId) -> (&'static str, &'static str) {
    let twin = pieces.twin(p);
    match p.index().cmp(&twin.index()) {
        std::cmp::Ordering::Less => ("#ffffff", "#000000"),
        std::cmp::Ordering::Greater => ("#000000", "#ffffff"),
        std::cmp::Ordering::Equal => ("#707070", "#ffffff"),
    }
}

/// The fill of a cell: light and dark squares, or three shades of hex.
fn shade(tiling: Tiling, q: Square) -> &'static str {
    match tiling {
        Tiling::Square if (q.x + q.y).rem_euclid(2) == 0 => "#b58863",
        Tiling::Square => "#f0d9b5",
        Tiling::Hex => ["#f0d9b5", "#d2a679", "#b58863"][(q.x + 2 * q.y).rem_euclid(3) as usize],
    }
}

/// Draws one picture with its top-left corner at `(x, y)`.
fn draw(out: &mut String, p: &Picture, x: f64, y: f64) {
    let l = layout(p);
    let _ = writeln!(
        out,
        r#"<text x="{:.1}" y="{:.1}" font-size="14">{}</text>"#,
        x,
        y + 15.0,
        escape(&p.caption)
    );
    let _ = writeln!(out, r#"<g transform="translate({x:.1},{:.1})">"#, y + LINE);
    let on: Vec<Square> = p.board.squares().iter().filter(|q| p.board.get(*q).is_some()).collect();
    let outline = |q: Square| -> String {
        let (cx, cy) = (l.centre)(q);
        match p.tiling {
            Tiling::Square => format!(
                r#"<rect x="{:.1}" y="{:.1}" width="{CELL}" height="{CELL}""#,
                cx - CELL / 2.0,
                cy - CELL / 2.0
            ),
            Tiling::Hex => {
                let corners: Vec<String> = (0..6)
                    .map(|k| {
                        let a = std::f64::consts::PI / 3.0 * f64::from(k);
                        format!("{:.1},{:.1}", cx + HEX * a.cos(), cy + HEX * a.sin())
                    })
                    .collect();
                format!(r#"<polygon points="{}""#, corners.join(" "))
            }
        }
    };
    for &q in &on {
        let _ = writeln!(out, r#"{} fill="{}"/>"#, outline(q), shade(p.tiling, q));
    }
    for &(q, mark) in &p.marks {
        if p.board.get(q).is_none() {
            continue;
        }
        let style = match mark {
            Mark::Poi => r##"fill="none" stroke="#1e64c8" stroke-width="3""##,
            Mark::Changed => r##"fill="#ffd800" fill-opacity="0.5""##,
            Mark::Moved => r##"fill="#9bc700" fill-opacity="0.45""##,
        };
        let _ = writeln!(out, "{} {style}/>", outline(q));
    }
    if p.tiling == Tiling::Square && !on.is_empty() {
        draw_coordinates(out, p, &l);
    }
    let size = match p.tiling {
        Tiling::Square => CELL,
        Tiling::Hex => HEX * 1.5,
    };
    draw_pieces(out, p, &l, &on, size);
    if !p.path.is_empty() {
        draw_path(out, p, &l, size);
    }
    out.push_str("</g>\n");
}

/// A square board's coordinates: files below, ranks to the left.
fn draw_coordinates(out: &mut String, p: &Picture, l: &Layout) {
    let r = p.board.squares();
    for fx in r.origin.x..r.origin.x + r.width {
        let (cx, _) = (l.centre)(Square::new(fx, r.origin.y));
        let name = Square::new(fx, 0).name();
        let _ = writeln!(
            out,
            r##"<text x="{cx:.1}" y="{:.1}" font-size="11" text-anchor="middle" fill="#555">{}</text>"##,
            l.height - 5.0,
            escape(name.trim_end_matches('1'))
        );
    }
    for ry in r.origin.y..r.origin.y + r.height {
        let (_, cy) = (l.centre)(Square::new(r.origin.x, ry));
        let _ = writeln!(
            out,
            r##"<text x="{:.1}" y="{:.1}" font-size="11" text-anchor="middle" fill="#555">{}</text>"##,
            EDGE / 2.0,
            cy + 4.0,
            i64::from(ry) + 1
        );
    }
}

/// The pieces on squares `on`, glyphs sized to cells of `size`.
fn draw_pieces(out: &mut String, p: &Picture, l: &Layout, on: &[Square], size: f64) {
    for &q in on {
        let Some(Content::Piece(piece)) = p.board.get(q) else {
            continue;
        };
        let drawn = p.pieces.looks_like(piece);
        let glyph = p.pieces.glyph(drawn);
        let glyph = glyph.strip_prefix('\'').unwrap_or(glyph);
        let chars = glyph.chars().count().max(1) as f64;
        let font = if chars > 1.0 {
            size * 0.9 / chars.max(2.0)
        } else {
            size * 0.8
        };
        let (fill, stroke) = colours(&p.pieces, piece);
        let (cx, cy) = (l.centre)(q);
        let _ = writeln!(
            out,
            r#"<text x="{cx:.1}" y="{:.1}" font-size="{font:.1}" text-anchor="middle" fill="{fill}" stroke="{stroke}" stroke-width="1.2" paint-order="stroke">{}</text>"#,
            cy + font * 0.35,
            escape(glyph)
        );
    }
}

/// The picture's path: arrows from square to square, then each square's
/// number along it.
fn draw_path(out: &mut String, p: &Picture, l: &Layout, size: f64) {
    let mut steps: Vec<(Square, Square)> = p.path.windows(2).map(|w| (w[0], w[1])).collect();
    if p.closed && p.path.len() > 1 {
        steps.push((p.path[p.path.len() - 1], p.path[0]));
    }
    for (a, b) in steps {
        let ((ax, ay), (bx, by)) = ((l.centre)(a), (l.centre)(b));
        // Stop short of the centres, where the numbers are.
        let (dx, dy) = (bx - ax, by - ay);
        let len = (dx * dx + dy * dy).sqrt().max(1e-9);
        let cut = (size * 0.28).min(len / 3.0);
        let (ux, uy) = (dx / len * cut, dy / len * cut);
        let _ = writeln!(
            out,
            r##"<line x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="#c0392b" stroke-width="1.5" stroke-opacity="0.85" marker-end="url(#arrow)"/>"##,
            ax + ux,
            ay + uy,
            bx - ux,
            by - uy
        );
    }
    for (i, &q) in p.path.iter().enumerate() {
        // Outlined in the cell's own shade, which hides the arrows
        // under the number.
        let (cx, cy) = (l.centre)(q);
        let _ = writeln!(
            out,
            r##"<text x="{cx:.1}" y="{:.1}" font-size="{:.1}" text-anchor="middle" fill="#1a1a1a" stroke="{}" stroke-width="3" paint-order="stroke">{}</text>"##,
            cy + size * 0.11,
            size * 0.3,
            shade(p.tiling, q),
            i + 1
        );
    }
}

/// The sheet of `rows` as an SVG document.
pub fn svg(rows: &[Row]) -> String {
    let mut body = String::new();
    let (mut width, mut y) = (0f64, GAP / 2.0);
    for row in rows {
        // Titles are bold and take about this much a character.
        width = width.max(GAP + 10.0 * row.title.chars().count() as f64);
        if !row.title.is_empty() {
            let _ = writeln!(
                body,
                r#"<text x="{:.1}" y="{:.1}" font-size="16" font-weight="bold">{}</text>"#,
                GAP / 2.0,
                y + 16.0,
                escape(&row.title)
            );
            y += LINE + 4.0;
        }
        let mut x = GAP / 2.0;
        let mut tallest = 0f64;
        for p in &row.pictures {
            let l = layout(p);
            draw(&mut body, p, x, y);
            x += l.width.max(7.0 * p.caption.chars().count() as f64) + GAP;
            tallest = tallest.max(l.height + LINE);
        }
        width = width.max(x);
        y += tallest + GAP;
    }
    let (width, height) = (width.max(GAP), y.max(GAP));
    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0}" height="{height:.0}" viewBox="0 0 {width:.1} {height:.1}" font-family="{FONT}">"#
    );
    out.push_str(
        "<defs><marker id=\"arrow\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"5\" markerHeight=\"5\" orient=\"auto\"><path d=\"M0,0 L10,5 L0,10 z\" fill=\"#c0392b\"/></marker></defs>\n",
    );
    let _ = writeln!(out, r#"<rect width="100%" height="100%" fill="white"/>"#);
    out.push_str(&body);
    out.push_str("</svg>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn picture(text: &str, tiling: Tiling) -> Picture {
        let pieces = Pieces::chess();
        Picture::new(
            Grid::parse_on(text, tiling, &pieces).unwrap(),
            tiling,
            &pieces,
            "a <board>",
        )
    }

    fn count(svg: &str, what: &str) -> usize {
        svg.matches(what).count()
    }

    #[test]
    fn squares_holes_and_pieces_are_drawn() {
        let svg = svg(&[Row {
            title: "two & more".into(),
            pictures: vec![picture("♚.#/.♔.", Tiling::Square)],
        }]);
        assert!(svg.starts_with("<svg ") && svg.ends_with("</svg>\n"), "{svg}");
        // Five squares on the board, the hole left out.
        assert_eq!(count(&svg, "<rect x="), 5);
        assert_eq!(count(&svg, ">♔</text>"), 1);
        assert_eq!(count(&svg, ">♚</text>"), 1);
        // White's king white, black's black.
        assert!(svg.contains(r##"fill="#ffffff" stroke="#000000" stroke-width="1.2" paint-order="stroke">♔"##));
        assert!(svg.contains(r##"fill="#000000" stroke="#ffffff" stroke-width="1.2" paint-order="stroke">♚"##));
        // Text is escaped.
        assert!(svg.contains("two &amp; more") && svg.contains("a &lt;board&gt;"));
        assert!(!svg.contains("<board>"));
        // Files and ranks named.
        assert!(svg.contains(">a</text>") && svg.contains(">c</text>") && svg.contains(">2</text>"));
    }

    #[test]
    fn hex_cells_are_hexagons_in_three_shades() {
        let hex = picture("  ♚\n.   .\n  ♔\n.   .", Tiling::Hex);
        let svg = svg(&[Row {
            title: String::new(),
            pictures: vec![hex.clone()],
        }]);
        assert_eq!(count(&svg, "<polygon "), 6);
        assert_eq!(count(&svg, "<rect x="), 0);
        // Neighbours never share a shade.
        for q in hex.board.squares().iter().filter(|q| hex.board.get(*q).is_some()) {
            for n in Tiling::Hex.neighbours() {
                assert_ne!(shade(Tiling::Hex, q), shade(Tiling::Hex, q + *n));
            }
        }
    }

    #[test]
    fn marks_and_paths_are_drawn() {
        let mut p = picture("...\n...", Tiling::Square);
        p.marks = vec![(Square::new(0, 0), Mark::Poi), (Square::new(1, 1), Mark::Changed)];
        p.path = vec![
            Square::new(0, 0),
            Square::new(1, 0),
            Square::new(2, 0),
            Square::new(2, 1),
        ];
        let open = svg(&[Row {
            title: String::new(),
            pictures: vec![p.clone()],
        }]);
        assert_eq!(count(&open, "marker-end"), 3);
        assert!(open.contains(">4</text>") && !open.contains(">5</text>"));
        assert_eq!(count(&open, "#1e64c8"), 1);
        assert_eq!(count(&open, "#ffd800"), 1);
        p.closed = true;
        let closed = svg(&[Row {
            title: String::new(),
            pictures: vec![p],
        }]);
        assert_eq!(count(&closed, "marker-end"), 4);
        // The same input draws the same text.
        assert_eq!(
            closed,
            svg(&[Row {
                title: String::new(),
                pictures: vec![{
                    let mut q = picture("...\n...", Tiling::Square);
                    q.marks = vec![(Square::new(0, 0), Mark::Poi), (Square::new(1, 1), Mark::Changed)];
                    q.path = vec![
                        Square::new(0, 0),
                        Square::new(1, 0),
                        Square::new(2, 0),
                        Square::new(2, 1),
                    ];
                    q.closed = true;
                    q
                }],
            }])
        );
    }
}
