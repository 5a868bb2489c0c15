//! Betza's notation, as in Fairy-Stockfish's variants.ini: atoms
//! `W F D N A H C Z G`, shorthands `K Q R B`, riders by doubling (`NN`) or a
//! range (`W3`; `0` is unlimited), and modifiers before an atom: `m` move
//! only, `c` capture only, `f b l r s v` directions (`fl` one diagonal,
//! `ff` the narrow forward knight moves, `fs` the wide ones), `i` from the
//! home rank only, `n` lame (the square leapt over must be empty), `g` the
//! grasshopper's hop and `p` the cannon's along the lines of `R B Q`.
//! Not read (an error says so): `h`, `j`, `o`, `e`, `a`, `y`, brackets.

use super::walk::{leaps, Kind, Leg, Mode, Walk};
use super::{error, Notation};
use crate::diag::{Diag, Diags};
use crate::parse::ast::Span;
use std::collections::BTreeMap;

fn err(text: &str, span: Span, message: impl Into<String>) -> Diag {
    error(Notation::Betza, text, span, message)
}

/// An atom's leap `(a, b)`, `0 <= a <= b`.
fn atom(c: char) -> Option<(i32, i32)> {
    Some(match c {
        'W' => (0, 1),
        'F' => (1, 1),
        'D' => (0, 2),
        'N' => (1, 2),
        'A' => (2, 2),
        'H' => (0, 3),
        'C' => (1, 3),
        'Z' => (2, 3),
        'G' => (3, 3),
        _ => return None,
    })
}

fn letter(leap: (i32, i32)) -> Option<char> {
    "WFDNAHCZG".chars().find(|&c| atom(c) == Some(leap))
}

/// The leaps a direction unit such as `f`, `fl`, `ff` selects from an atom.
fn unit(u: &str, (a, b): (i32, i32), p: (i32, i32)) -> bool {
    let (x, y) = p;
    let orth = a == 0;
    let narrow = y.abs() > x.abs();
    let wide = x.abs() > y.abs();
    let half = |c: char| match c {
        'f' => y > 0,
        'b' => y < 0,
        'l' => x < 0,
        'r' => x > 0,
        // On an orthogonal or oblique atom `v` and `s` are the vertical
        // and sideways moves; on a diagonal one they select everything.
        'v' => a == b || orth && x == 0 || !orth && narrow,
        's' => a == b || orth && y == 0 || !orth && wide,
        _ => false,
    };
    let mut cs = u.chars();
    match (cs.next(), cs.next()) {
        (Some(c), None) => half(c),
        (Some(c), Some(d)) if c == d => half(c) && if "fb".contains(c) { narrow } else { wide },
        (Some(c), Some('s')) if "fb".contains(c) => half(c) && wide,
        (Some(c), Some('v')) if "lr".contains(c) => half(c) && narrow,
        (Some(c), Some(d)) => half(c) && half(d),
        _ => false,
    }
}

/// Splits direction letters into units: on diagonal and oblique atoms a
/// letter of `fb` followed by one of `lr` (or a doubled letter, `fs`, `lv`)
/// is one unit; on orthogonal atoms every letter is one.
fn units(dirs: &str, leap: (i32, i32)) -> Vec<String> {
    let cs: Vec<char> = dirs.chars().collect();
    let mut out = vec![];
    let mut i = 0;
    while i < cs.len() {
        let pair = leap.0 != 0
            && i + 1 < cs.len()
            && (("fb".contains(cs[i]) && "lrs".contains(cs[i + 1]))
                || ("lr".contains(cs[i]) && "fbv".contains(cs[i + 1]))
                || (cs[i] == cs[i + 1] && leap.0 != leap.1));
        let n = if pair { 2 } else { 1 };
        out.push(cs[i..i + n].iter().collect());
        i += n;
    }
    out
}

/// The span of character `i` of `cs` (the text's, with their offsets).
fn char_span(cs: &[(usize, char)], i: usize) -> Span {
    let (at, c) = cs[i];
    Span::new(at, at + c.len_utf8())
}

/// The modifiers before an atom.
struct Modifiers {
    /// Direction letters.
    dirs: String,
    /// `m` and `c`: moves only, captures only.
    m: bool,
    c: bool,
    initial: bool,
    lame: bool,
    /// `g` (a grasshopper's hop) or `p` (a cannon's: `true`).
    hop: Option<bool>,
}

/// Reads the modifiers from character `i` on, up to the atom.
fn modifiers(text: &str, cs: &[(usize, char)], i: &mut usize) -> Result<Modifiers, Diags> {
    let mut out = Modifiers {
        dirs: String::new(),
        m: false,
        c: false,
        initial: false,
        lame: false,
        hop: None,
    };
    while *i < cs.len() && !cs[*i].1.is_ascii_uppercase() {
        match cs[*i].1 {
            'm' => out.m = true,
            'c' => out.c = true,
            'i' => out.initial = true,
            'n' => out.lame = true,
            'g' => out.hop = Some(false),
            'p' => out.hop = Some(true),
            d @ ('f' | 'b' | 'l' | 'r' | 's' | 'v') => out.dirs.push(d),
            'h' | 'j' | 'o' | 'e' | 'a' | 'y' | 'x' | 'u' | 'k' | 'd' | 't' | 'z' | 'q' => {
                return Err(err(
                    text,
                    char_span(cs, *i),
                    format!("the modifier `{}` is not supported", cs[*i].1),
                )
                .help("supported: m c f b l r s v i n g p")
                .into())
            }
            other => {
                return Err(err(text, char_span(cs, *i), format!("unknown letter `{other}`"))
                    .help("an atom is one of W F D N A H C Z G K Q R B, after modifiers m c f b l r s v i n g p")
                    .into())
            }
        }
        *i += 1;
    }
    Ok(out)
}

/// Reads a range after an atom from character `i` on: `0` makes it a
/// rider, `k` a rider of at most `k` steps.
fn range(text: &str, cs: &[(usize, char)], i: &mut usize, rider: &mut bool) -> Result<Option<u32>, Diags> {
    let mut range = None;
    let num_start = *i;
    while *i < cs.len() && cs[*i].1.is_ascii_digit() {
        *i += 1;
    }
    if *i > num_start {
        let digits: String = cs[num_start..*i].iter().map(|p| p.1).collect();
        let span = Span::new(cs[num_start].0, cs[*i - 1].0 + 1);
        match digits.parse::<u32>() {
            Ok(0) => *rider = true,
            Ok(k) if k <= 64 && !*rider => range = Some(k),
            _ => {
                return Err(err(
                    text,
                    span,
                    "a range is a number from 0 (unlimited) to 64, after a single atom",
                )
                .into())
            }
        }
    }
    Ok(range)
}

/// Reads Betza text into move sequences, one per direction.
pub(super) fn read(text: &str) -> Result<Vec<Walk>, Diags> {
    let cs: Vec<(usize, char)> = text.char_indices().collect();
    let span_of = |i: usize| char_span(&cs, i);
    let mut out = vec![];
    let mut i = 0;
    if cs.is_empty() {
        return Err(err(
            text,
            Span::new(0, 0),
            "no piece here: write one such as `NN` or `mfWcfF`",
        )
        .into());
    }
    while i < cs.len() {
        let start = i;
        let Modifiers {
            dirs,
            m,
            c,
            initial,
            lame,
            hop,
        } = modifiers(text, &cs, &mut i)?;
        let Some(&(_, a)) = cs.get(i) else {
            return Err(err(text, span_of(i - 1), "modifiers need an atom after them, such as `W`").into());
        };
        let aspan = span_of(i);
        // Shorthands are unions of riders or single steps of W and F.
        let (atoms, mut rider): (Vec<(i32, i32)>, bool) = match a {
            'K' => (vec![(0, 1), (1, 1)], false),
            'Q' => (vec![(0, 1), (1, 1)], true),
            'R' => (vec![(0, 1)], true),
            'B' => (vec![(1, 1)], true),
            _ => match atom(a) {
                Some(p) => (vec![p], false),
                None => {
                    return Err(err(text, aspan, format!("unknown atom `{a}`"))
                        .help("the atoms are W F D N A H C Z G, and K Q R B")
                        .into())
                }
            },
        };
        i += 1;
        if !rider && i < cs.len() && cs[i].1 == a {
            rider = true;
            i += 1;
        }
        let range = range(text, &cs, &mut i, &mut rider)?;
        let whole = Span::new(cs[start].0, cs[i - 1].0 + cs[i - 1].1.len_utf8());
        let mode = match (m, c) {
            (true, false) => Mode::NonCapture,
            (false, true) => Mode::Capture,
            _ => Mode::Both,
        };
        for leap in atoms {
            let us = units(&dirs, leap);
            let chosen: Vec<(i32, i32)> = leaps(leap.0, leap.1)
                .into_iter()
                .filter(|&p| us.is_empty() || us.iter().any(|u| unit(u, leap, p)))
                .collect();
            if chosen.is_empty() {
                return Err(err(
                    text,
                    whole,
                    format!("the directions `{dirs}` select no move of this atom"),
                )
                .into());
            }
            for p in chosen {
                let kind = match hop {
                    Some(cannon) => {
                        if !rider || leap.0 != 0 && leap.0 != leap.1 || leap.1 != 1 {
                            return Err(err(text, whole, "`g` and `p` hop along the lines of R, B or Q").into());
                        }
                        Kind::Hop { v: p, cannon }
                    }
                    None => {
                        let via = if lame {
                            if rider || range.is_some() {
                                return Err(err(text, whole, "`n` is read on a single leap, not on a rider").into());
                            }
                            match leap {
                                (0, 2) | (2, 2) => vec![(p.0 / 2, p.1 / 2)],
                                (1, 2) if p.1.abs() == 2 => vec![(0, p.1 / 2)],
                                (1, 2) => vec![(p.0 / 2, 0)],
                                _ => return Err(err(text, aspan, "`n` is read on D, A and N only").into()),
                            }
                        } else {
                            vec![]
                        };
                        Kind::Run(vec![Leg {
                            jump: p,
                            step: p,
                            more: if rider { None } else { Some(range.map_or(0, |k| k - 1)) },
                            via,
                        }])
                    }
                };
                out.push(Walk { kind, mode, initial });
            }
        }
    }
    Ok(out)
}

/// The shortest direction letters that select exactly `want` of the
/// atom's leaps, if Betza's units can.
fn directions(leap: (i32, i32), want: &[(i32, i32)]) -> Option<String> {
    let all = leaps(leap.0, leap.1);
    if all.iter().all(|p| want.contains(p)) {
        return Some(String::new());
    }
    let candidates = [
        "f", "b", "l", "r", "v", "s", "fl", "fr", "bl", "br", "ff", "bb", "ll", "rr", "fs", "bs", "lv", "rv",
    ];
    let select = |u: &str| -> Vec<(i32, i32)> { all.iter().copied().filter(|&p| unit(u, leap, p)).collect() };
    let mut covered: Vec<(i32, i32)> = vec![];
    let mut text = String::new();
    while covered.len() < want.len() {
        let best = candidates
            .iter()
            .filter(|u| units(u, leap) == vec![u.to_string()])
            .map(|u| (u, select(u)))
            .filter(|(_, s)| !s.is_empty() && s.iter().all(|p| want.contains(p)))
            .max_by_key(|(u, s)| {
                (
                    s.iter().filter(|p| !covered.contains(p)).count(),
                    std::cmp::Reverse(u.len()),
                )
            })?;
        if best.1.iter().all(|p| covered.contains(p)) {
            return None;
        }
        text.push_str(best.0);
        covered.extend(best.1.into_iter().filter(|p| !covered.contains(p)).collect::<Vec<_>>());
    }
    Some(text)
}

/// A move Betza's notation has no name for.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Unnamed {
    /// A sequence of legs, not one leap, rider or hop (as algebra).
    Move(String),
    /// A leap no atom names, as (shorter, longer) components.
    Leap(i32, i32),
    /// Leaps of one atom that no direction letters select.
    Directions(Option<char>),
    /// The text written does not read back.
    Unreadable(String),
    /// The text written reads back as another move.
    Other(String),
}

impl std::fmt::Display for Unnamed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Unnamed::Move(m) => write!(f, "Betza has no name for the move `{m}`"),
            Unnamed::Leap(a, b) => write!(f, "Betza has no atom for the leap ({a}, {b})"),
            Unnamed::Directions(atom) => write!(f, "Betza's direction letters cannot select these moves of {atom:?}"),
            Unnamed::Unreadable(text) => write!(f, "cannot write `{text}` back"),
            Unnamed::Other(text) => write!(f, "Betza's `{text}` would not mean the same move"),
        }
    }
}

/// Writes move sequences in Betza's notation, where each is a single leap,
/// rider or hop that Betza can name; otherwise says which one it cannot.
pub(super) fn write(walks: &[Walk]) -> Result<String, Unnamed> {
    // (atom, range, lame, hop, mode, initial) -> leaps
    type Key = ((i32, i32), Option<u32>, bool, Option<bool>, Mode, bool);
    let mut groups: BTreeMap<Key, Vec<(i32, i32)>> = BTreeMap::new();
    for w in walks {
        let (p, more, lame, hop) = match &w.kind {
            Kind::Run(legs) => match legs.as_slice() {
                [l] if l.jump == l.step => (l.jump, l.more, !l.via.is_empty(), None),
                _ => return Err(Unnamed::Move(crate::parse::print_expr(&w.expr()))),
            },
            Kind::Hop { v, cannon } => (*v, None, false, Some(*cannon)),
        };
        let leap = {
            let (a, b) = (p.0.abs().min(p.1.abs()), p.0.abs().max(p.1.abs()));
            (a, b)
        };
        if letter(leap).is_none() {
            return Err(Unnamed::Leap(leap.0, leap.1));
        }
        groups
            .entry((leap, more, lame, hop, w.mode, w.initial))
            .or_default()
            .push(p);
    }
    let mut out: Vec<(Key, String, String)> = vec![];
    for (key, want) in &groups {
        let (leap, more, lame, hop, mode, initial) = *key;
        let dirs = directions(leap, want).ok_or(Unnamed::Directions(letter(leap)))?;
        let mut pre = String::new();
        if initial {
            pre.push('i');
        }
        match mode {
            Mode::NonCapture => pre.push('m'),
            Mode::Capture => pre.push('c'),
            Mode::Both => {}
        }
        match hop {
            Some(false) => pre.push('g'),
            Some(true) => pre.push('p'),
            None => {}
        }
        pre.push_str(&dirs);
        if lame {
            pre.push('n');
        }
        let l = letter(leap).unwrap_or('?');
        let atom = match more {
            None => format!("{l}{l}"),
            Some(0) => l.to_string(),
            Some(k) => format!("{l}{}", k + 1),
        };
        out.push((*key, pre, atom));
    }
    // Shorthands: R, B, and Q or K where W and F agree in everything else.
    let mut text = String::new();
    let mut used = vec![false; out.len()];
    for i in 0..out.len() {
        if used[i] {
            continue;
        }
        let (key, pre, atom) = &out[i];
        let twin = (0..out.len()).find(|&j| {
            !used[j] && j != i && key.0 == (0, 1) && out[j].0 .0 == (1, 1) && {
                let (k, p) = (&out[j].0, &out[j].1);
                (k.1, k.2, k.3, k.4, k.5) == (key.1, key.2, key.3, key.4, key.5) && p == pre
            }
        });
        let name = match (atom.as_str(), twin) {
            ("WW", Some(j)) if out[j].2 == "FF" && !pre.contains(['f', 'b', 'l', 'r', 's', 'v']) => {
                used[j] = true;
                "Q".to_string()
            }
            ("W", Some(j)) if out[j].2 == "F" && !pre.contains(['f', 'b', 'l', 'r', 's', 'v']) => {
                used[j] = true;
                "K".to_string()
            }
            ("WW", _) => "R".into(),
            ("FF", _) => "B".into(),
            (a, _) => a.to_string(),
        };
        used[i] = true;
        text.push_str(pre);
        text.push_str(&name);
    }
    // Read back: the text must mean what it was written from.
    let Ok(back) = read(&text) else {
        return Err(Unnamed::Unreadable(text));
    };
    let same = |a: &[Walk], b: &[Walk]| a.iter().all(|w| b.contains(w)) && b.iter().all(|w| a.contains(w));
    if !same(&back, walks) {
        return Err(Unnamed::Other(text));
    }
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    fn dests(text: &str) -> BTreeSet<((i32, i32), Option<u32>, Mode)> {
        read(text)
            .unwrap()
            .into_iter()
            .map(|w| match w.kind {
                Kind::Run(l) => (l[0].jump, l[0].more, w.mode),
                Kind::Hop { v, .. } => (v, Some(99), w.mode),
            })
            .collect()
    }

    #[test]
    fn atoms_riders_and_ranges() {
        assert_eq!(read("N").unwrap().len(), 8);
        assert_eq!(read("K").unwrap().len(), 8);
        assert_eq!(read("Q").unwrap().len(), 8);
        assert!(dests("NN").iter().all(|d| d.1.is_none()));
        assert!(dests("W0").iter().all(|d| d.1.is_none()));
        assert!(read("R4").is_err(), "R is already a rider: write W4");
        assert!(dests("W4").iter().all(|d| d.1 == Some(3)));
    }

    #[test]
    fn modifiers_select_directions() {
        let pawn = dests("mfWcfF");
        let want: BTreeSet<_> = [
            ((0, 1), Some(0), Mode::NonCapture),
            ((1, 1), Some(0), Mode::Capture),
            ((-1, 1), Some(0), Mode::Capture),
        ]
        .into();
        assert_eq!(pawn, want);
        assert_eq!(dests("flF").into_iter().map(|d| d.0).collect::<Vec<_>>(), vec![(-1, 1)]);
        let narrow: BTreeSet<_> = dests("ffN").into_iter().map(|d| d.0).collect();
        assert_eq!(narrow, [(-1, 2), (1, 2)].into());
        let wide: BTreeSet<_> = dests("fsN").into_iter().map(|d| d.0).collect();
        assert_eq!(wide, [(-2, 1), (2, 1)].into());
        assert_eq!(dests("fN").len(), 4);
        assert_eq!(dests("vW").len(), 2);
        assert_eq!(dests("sW").len(), 2);
        assert_eq!(dests("bW").into_iter().map(|d| d.0).collect::<Vec<_>>(), vec![(0, -1)]);
    }

    #[test]
    fn lame_leapers_read_the_square_they_pass() {
        let w = read("nN").unwrap();
        let up = w
            .iter()
            .find_map(|w| match &w.kind {
                Kind::Run(l) if l[0].jump == (1, 2) => Some(l[0].via.clone()),
                _ => None,
            })
            .unwrap();
        assert_eq!(up, vec![(0, 1)]);
    }

    #[test]
    fn bad_letters_get_a_span() {
        let at = |t: &str| {
            let d = read(t).unwrap_err();
            (d.0[0].span, d.0[0].message.clone())
        };
        assert_eq!(at("WX"), (Span::new(1, 2), "unknown atom `X`".into()));
        assert_eq!(at("mWk"), (Span::new(2, 3), "the modifier `k` is not supported".into()));
        assert_eq!(at("fw"), (Span::new(1, 2), "unknown letter `w`".into()));
        assert_eq!(at("mf").1, "modifiers need an atom after them, such as `W`");
        assert_eq!(at("gN").1, "`g` and `p` hop along the lines of R, B or Q");
        assert_eq!(at("nNN").1, "`n` is read on a single leap, not on a rider");
        assert_eq!(at("").1, "no piece here: write one such as `NN` or `mfWcfF`");
    }

    #[test]
    fn writing_reads_back() {
        for t in [
            "NN", "mfWcfF", "Q", "K", "BN", "RN", "gQ", "vW", "bW", "AADD", "ifmnD", "W3", "ffN", "pR",
        ] {
            let walks = read(t).unwrap();
            let back = write(&walks).unwrap_or_else(|e| panic!("{t}: {e}"));
            assert_eq!(read(&back).unwrap().len(), walks.len(), "{t} -> {back}");
        }
        assert_eq!(write(&read("Q").unwrap()).unwrap(), "Q");
        assert_eq!(write(&read("WF").unwrap()).unwrap(), "K");
        assert_eq!(write(&read("mfWcfF").unwrap()).unwrap(), "mfWcfF");
    }
}
