//! PGN files read a few games at a time, so that a file of a million games
//! is never held whole: the text is cut before each tag pair that follows
//! move text, and each piece decoded from UTF-8 or a legacy encoding.

use encoding_rs::{Encoding, WINDOWS_1252};
use std::io::BufRead;

/// How a file's bytes become text.
#[derive(Clone, Copy, Debug)]
pub(super) enum Decoding {
    /// UTF-8, and a line that is not read as Windows-1252 (a superset of
    /// Latin-1's printable characters), with a warning.
    Auto,
    /// One encoding, by its WHATWG label (`utf-8`, `latin1`, `cp1252`...).
    Fixed(&'static Encoding),
}

impl Decoding {
    /// The decoding a `--encoding` value names.
    pub(super) fn parse(label: &str) -> Result<Decoding, UnknownEncoding> {
        if label.eq_ignore_ascii_case("auto") {
            return Ok(Decoding::Auto);
        }
        Encoding::for_label(label.as_bytes())
            .map(Decoding::Fixed)
            .ok_or_else(|| UnknownEncoding(label.to_string()))
    }
}

/// An `--encoding` label that names no encoding, kept to quote.
#[derive(Clone, Debug)]
pub(super) struct UnknownEncoding(String);

impl std::fmt::Display for UnknownEncoding {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "`{}` names no encoding (try auto, utf-8, latin1 or cp1252)", self.0)
    }
}

impl std::error::Error for UnknownEncoding {}

/// The most bytes of one game's text (a chunk, unless it is one game)
/// that are read: a game past it is passed over, read line by line with
/// no more than this of any line held.
pub(super) const MAX_GAME: u64 = 16 << 20;

/// A run of whole games from a file.
pub(super) struct Chunk {
    /// The text; empty when the run is `oversize`.
    pub text: String,
    /// The file's line number of the first line of `text`.
    pub line: usize,
    /// The bytes it came from.
    pub bytes: u64,
    /// The first line that was not UTF-8, read as Windows-1252 instead.
    pub legacy: Option<usize>,
    /// The first line that could not be decoded (with a fixed encoding).
    pub undecodable: Option<usize>,
    /// The run went past [`MAX_GAME`] bytes: its text was dropped.
    pub oversize: bool,
}

/// Cuts a file's text into chunks of whole games.
pub(super) struct Chunks<R> {
    input: R,
    decoding: Decoding,
    /// The next line's number.
    line: usize,
    /// A line read but not yet in a chunk: the tag pair that starts the
    /// next game.
    held: Option<Vec<u8>>,
    done: bool,
}

impl<R: BufRead> Chunks<R> {
    pub(super) fn new(input: R, decoding: Decoding) -> Chunks<R> {
        Chunks {
            input,
            decoding,
            line: 1,
            held: None,
            done: false,
        }
    }

    /// The next line, at most [`MAX_GAME`] bytes of it, and its length.
    fn next_line(&mut self) -> std::io::Result<Option<(Vec<u8>, u64)>> {
        if let Some(l) = self.held.take() {
            let n = l.len() as u64;
            return Ok(Some((l, n)));
        }
        let mut buf = vec![];
        let mut read = 0u64;
        loop {
            let available = self.input.fill_buf()?;
            if available.is_empty() {
                break;
            }
            let (part, end) = match memchr(available) {
                Some(i) => (&available[..=i], true),
                None => (available, false),
            };
            let room = (MAX_GAME as usize).saturating_sub(buf.len());
            buf.extend_from_slice(&part[..part.len().min(room)]);
            let n = part.len();
            read += n as u64;
            self.input.consume(n);
            if end {
                break;
            }
        }
        Ok((read > 0).then_some((buf, read)))
    }
}

impl<R: BufRead> Iterator for Chunks<R> {
    type Item = std::io::Result<Chunk>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        let mut chunk = Chunk {
            text: String::new(),
            line: self.line,
            bytes: 0,
            legacy: None,
            undecodable: None,
            oversize: false,
        };
        // Whether move text was seen since the chunk's tags, and whether a
        // `{` comment is open (a `[` inside one starts no game).
        let (mut moves, mut comment) = (false, false);
        loop {
            let (bytes, length) = match self.next_line() {
                Ok(Some(b)) => b,
                Ok(None) => {
                    self.done = true;
                    break;
                }
                Err(e) => return Some(Err(e)),
            };
            let lead = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(&bytes);
            let tag = !comment && lead.first() == Some(&b'[');
            if tag && moves {
                self.held = Some(bytes);
                break;
            }
            let number = self.line;
            self.line += 1;
            chunk.bytes += length;
            if chunk.bytes > MAX_GAME {
                // Passed over to its end: the next tag pair after moves.
                chunk.oversize = true;
                chunk.text = String::new();
                moves |= !tag;
                continue;
            }
            let text = self.decode(&bytes, number, &mut chunk);
            if !tag && !text.starts_with('%') {
                for c in text.chars() {
                    match c {
                        '}' if comment => comment = false,
                        _ if comment => {}
                        '{' => comment = true,
                        ';' => break,
                        c if c.is_whitespace() || c == '\u{feff}' => {}
                        _ => moves = true,
                    }
                }
            }
            chunk.text.push_str(&text);
        }
        (chunk.bytes > 0).then_some(Ok(chunk))
    }
}

/// Where the first newline of `bytes` is.
fn memchr(bytes: &[u8]) -> Option<usize> {
    bytes.iter().position(|&b| b == b'\n')
}

impl<R> Chunks<R> {
    fn decode(&self, bytes: &[u8], line: usize, chunk: &mut Chunk) -> String {
        match self.decoding {
            Decoding::Auto => match std::str::from_utf8(bytes) {
                Ok(t) => t.to_string(),
                Err(_) => {
                    chunk.legacy.get_or_insert(line);
                    WINDOWS_1252.decode_without_bom_handling(bytes).0.into_owned()
                }
            },
            Decoding::Fixed(enc) => {
                let (text, bad) = enc.decode_without_bom_handling(bytes);
                if bad {
                    chunk.undecodable.get_or_insert(line);
                }
                text.into_owned()
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chunks(bytes: &[u8], d: Decoding) -> Vec<Chunk> {
        Chunks::new(bytes, d).map(|c| c.unwrap()).collect()
    }

    /// Games are cut at the tag pair after move text, with their line
    /// numbers; a tag pair inside a comment cuts nothing.
    #[test]
    fn files_are_cut_between_games() {
        let text = b"[Event \"a\"]\n[Site \"b\"]\n\n1. e4 {see\n[not a tag]} e5 *\n\n[Event \"c\"]\n\n1. d4 *\n";
        let cs = chunks(text, Decoding::Auto);
        assert_eq!(cs.len(), 2);
        assert_eq!(cs[0].line, 1);
        assert!(cs[0].text.ends_with("e5 *\n\n"), "{}", cs[0].text);
        assert_eq!(cs[1].line, 7);
        assert_eq!(cs[1].text, "[Event \"c\"]\n\n1. d4 *\n");
        assert_eq!(cs.iter().map(|c| c.bytes).sum::<u64>(), text.len() as u64);
        let games: Vec<_> = cs
            .iter()
            .flat_map(|c| algchess_core::pgn::read_all(&c.text, c.line))
            .map(|g| g.unwrap())
            .collect();
        assert_eq!(games.len(), 2);
        assert_eq!(games[1].plies[0].at.line, 9);
    }

    /// Latin-1 bytes are read as Windows-1252 and noted; a fixed UTF-8
    /// reading notes the line it cannot decode.
    #[test]
    fn legacy_bytes_are_decoded_and_noted() {
        let text = b"[Event \"x\"]\n[White \"M\xfcller\"]\n\n1. e4 *\n";
        let cs = chunks(text, Decoding::Auto);
        assert!(cs[0].text.contains("Müller"), "{}", cs[0].text);
        assert_eq!(cs[0].legacy, Some(2));
        let cs = chunks(text, Decoding::parse("utf-8").unwrap());
        assert_eq!(cs[0].undecodable, Some(2));
        let cs = chunks(text, Decoding::parse("latin1").unwrap());
        assert!(cs[0].text.contains("Müller") && cs[0].undecodable.is_none());
        assert!(Decoding::parse("klingon").is_err());
    }
}
