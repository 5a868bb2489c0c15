//! The shared target of the Parlett and Betza front-ends: Parlett's move
//! sequences, each a list of squares the piece runs down in order, and the
//! grasshopper's hop. Each is written out as a move of the algebra.

/// Which destinations a walk may end on.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Mode {
    /// An empty square or an enemy piece.
    Both,
    /// An enemy piece only (Parlett's `capture-only`, Betza's `c`).
    Capture,
    /// An empty square only (`non-capture`, Betza's `m`).
    NonCapture,
}

/// Part of a walk: a leap by `jump` (over the squares `via`, which must be
/// empty: a lame leaper), then up to `more` steps by `step` (`None`: any
/// number). Every square landed on is a destination.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Leg {
    pub jump: (i32, i32),
    pub step: (i32, i32),
    pub more: Option<u32>,
    pub via: Vec<(i32, i32)>,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    /// Legs one after the other (Parlett's `and-then`); only the last may
    /// be unlimited.
    Run(Vec<Leg>),
    /// Along `v` over empty squares, over one piece of either colour, and
    /// then: for a grasshopper onto the square just beyond it; for a cannon
    /// onto any square beyond it, over empty ones.
    Hop { v: (i32, i32), cannon: bool },
}

/// One move sequence of Parlett's language, with its flags.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Walk {
    pub kind: Kind,
    pub mode: Mode,
    /// Only from the piece's home rank (`on-initial`, Betza's `i`): the
    /// square two behind it is off the board, as in rules/chess.alg.
    pub initial: bool,
}

/// A vector as a word of movement letters: `(1, 2)` is `uur`.
pub fn movement(v: (i32, i32)) -> String {
    if v == (0, 0) {
        return "1".into();
    }
    let (x, y) = v;
    let mut s = String::new();
    s.push_str(&(if y > 0 { "u" } else { "d" }).repeat(y.unsigned_abs() as usize));
    s.push_str(&(if x > 0 { "r" } else { "l" }).repeat(x.unsigned_abs() as usize));
    s
}

/// What a destination square may hold.
fn target(mode: Mode) -> &'static str {
    match mode {
        Mode::Both => "(. | enemy)",
        Mode::Capture => " enemy",
        Mode::NonCapture => ".",
    }
}

/// The piece moves by `v` onto a square holding `what`, reading the empty
/// squares `via` on the way.
fn rule(v: (i32, i32), what: &str, via: &[(i32, i32)]) -> String {
    let m = movement(v);
    let via: String = via.iter().map(|&q| format!(" + {}.", movement(q))).collect();
    format!("(% + {m}{what}{via} -> . + {m}%)")
}

/// A step onto an empty square, after which the walk goes on.
fn step(v: (i32, i32)) -> String {
    rule(v, ".", &[])
}

fn power(m: &str, lo: u32, hi: u32) -> String {
    match (lo, hi) {
        (_, 0) => String::new(),
        (0, 1) => format!("{m}? "),
        (1, 1) => format!("{m} "),
        (i, j) if i == j => format!("{m}{{{i}}} "),
        (i, j) => format!("{m}{{{i},{j}}} "),
    }
}

impl Walk {
    /// The walk as a move of the algebra, for white (forward is up).
    pub fn text(&self) -> String {
        let end = target(self.mode);
        let body = match &self.kind {
            Kind::Run(legs) => {
                let mut parts = vec![];
                let mut prefix = String::new();
                for leg in legs {
                    let land = rule(leg.jump, end, &leg.via);
                    let part = match leg.more {
                        Some(0) => land,
                        None if leg.jump == leg.step && leg.via.is_empty() => {
                            format!("{}* {}", step(leg.step), rule(leg.step, end, &[]))
                        }
                        more => {
                            let tail = match more {
                                None => format!("{}* ", step(leg.step)),
                                Some(k) => power(&step(leg.step), 0, k - 1),
                            };
                            let mid = format!("{} {tail}", rule(leg.jump, ".", &leg.via));
                            format!("{land} | {} {}", mid.trim_end(), rule(leg.step, end, &[]))
                        }
                    };
                    parts.push(if prefix.is_empty() {
                        part
                    } else {
                        format!("{prefix}({part})")
                    });
                    prefix.push_str(&format!("{} ", rule(leg.jump, ".", &leg.via)));
                    prefix.push_str(&power(&step(leg.step), leg.more.unwrap_or(0), leg.more.unwrap_or(0)));
                }
                parts.join(" | ")
            }
            Kind::Hop { v, cannon } => {
                let two = (2 * v.0, 2 * v.1);
                let (m, mm) = (movement(*v), movement(two));
                let over = |what: &str| format!("(% + {m}(friend | enemy) + {mm}{what} -> . + {mm}%)");
                if *cannon {
                    format!(
                        "{}* ({} | {} {}* {})",
                        step(*v),
                        over(end),
                        over("."),
                        step(*v),
                        rule(*v, end, &[])
                    )
                } else {
                    format!("{}* {}", step(*v), over(end))
                }
            }
        };
        if self.initial {
            format!("(dd# + % -> dd# + %) ({body})")
        } else {
            body
        }
    }
}

/// The union of the walks, each once, in a fixed order.
pub fn union_text(walks: &[Walk]) -> String {
    let mut texts: Vec<String> = vec![];
    for w in walks {
        let t = w.text();
        if !texts.contains(&t) {
            texts.push(t);
        }
    }
    match texts.len() {
        0 => "fail".into(),
        // `|` is associative and binds loosest, so no brackets are needed.
        _ => texts.join(" | "),
    }
}

/// The eight images of the leap `(a, b)` under the square's symmetries,
/// each once.
pub fn leaps(a: i32, b: i32) -> Vec<(i32, i32)> {
    let mut out = vec![];
    for (x, y) in [(a, b), (b, a)] {
        for (sx, sy) in [(1, 1), (-1, 1), (1, -1), (-1, -1)] {
            let p = (sx * x, sy * y);
            if !out.contains(&p) {
                out.push(p);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(jump: (i32, i32), more: Option<u32>) -> Walk {
        Walk {
            kind: Kind::Run(vec![Leg {
                jump,
                step: jump,
                more,
                via: vec![],
            }]),
            mode: Mode::Both,
            initial: false,
        }
    }

    #[test]
    fn movements_are_words_of_letters() {
        assert_eq!(movement((1, 2)), "uur");
        assert_eq!(movement((-3, -1)), "dlll");
        assert_eq!(movement((0, 0)), "1");
    }

    #[test]
    fn a_rider_is_written_as_fairy_alg_writes_it() {
        assert_eq!(
            run((0, 1), None).text(),
            "(% + u. -> . + u%)* (% + u(. | enemy) -> . + u%)"
        );
        assert_eq!(run((1, 2), Some(0)).text(), "(% + uur(. | enemy) -> . + uur%)");
    }

    #[test]
    fn leaps_are_deduplicated() {
        assert_eq!(leaps(1, 2).len(), 8);
        assert_eq!(leaps(0, 1).len(), 4);
        assert_eq!(leaps(2, 2).len(), 4);
    }
}
