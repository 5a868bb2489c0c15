//! Diagnostics for bad input: a message, the source span, and an exit
//! status of 2. Rendering (with `file:line:col` and the span underlined) is
//! miette's.

use miette::{Diagnostic, LabeledSpan, SourceSpan};
use std::fmt;
use std::sync::Arc;

/// Characters of an input quoted in a message before it is cut.
const QUOTED: usize = 64;

/// `text` as a message quotes it: whole when short, else its first 64
/// characters and how long it is, so that a token of 200 MB is not
/// written back.
pub fn clip(text: &str) -> std::borrow::Cow<'_, str> {
    match text.char_indices().nth(QUOTED) {
        None => text.into(),
        Some((end, _)) => format!("{}… ({} bytes)", &text[..end], text.len()).into(),
    }
}

/// Byte offsets into one source text.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct Span {
    /// Offset of the first byte.
    pub start: usize,
    /// Offset one past the last byte.
    pub end: usize,
}

impl Span {
    /// The bytes `start..end`.
    pub fn new(start: usize, end: usize) -> Span {
        Span { start, end }
    }

    /// The span widened to whole characters of `text` and kept inside it,
    /// so a span counted in the wrong unit still names the text near it.
    pub fn snapped(self, text: &str) -> Span {
        let floor = |mut i: usize| {
            i = i.min(text.len());
            while !text.is_char_boundary(i) {
                i -= 1;
            }
            i
        };
        let ceil = |mut i: usize| {
            i = i.min(text.len());
            while !text.is_char_boundary(i) {
                i += 1;
            }
            i
        };
        let start = floor(self.start);
        Span::new(start, ceil(self.end).max(start))
    }

    /// The smallest span that covers both.
    pub fn to(self, other: Span) -> Span {
        Span::new(self.start.min(other.start), self.end.max(other.end))
    }
}

/// A named source text: a rule file, or an expression given on the command
/// line.
#[derive(Clone, Debug)]
pub struct Source {
    /// The name errors give it: a file's path, or what the text is.
    pub name: Arc<str>,
    /// The text itself.
    pub text: Arc<str>,
}

impl Source {
    /// A text and its name.
    pub fn new(name: impl Into<Arc<str>>, text: impl Into<Arc<str>>) -> Source {
        Source {
            name: name.into(),
            text: text.into(),
        }
    }

    /// 1-based line and column (in characters) of a byte offset.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        let before = &self.text[..offset.min(self.text.len())];
        let line = before.matches('\n').count() + 1;
        let col = before.rsplit('\n').next().unwrap_or("").chars().count() + 1;
        (line, col)
    }

    /// `file:line:col` of a byte offset.
    pub fn locate(&self, offset: usize) -> String {
        let (l, c) = self.line_col(offset);
        format!("{}:{l}:{c}", self.name)
    }
}

/// One error in the user's input. Boxed, so results that carry one stay
/// small.
#[derive(Debug, Clone)]
pub struct Diag(Box<DiagData>);

#[derive(Debug, Clone)]
pub struct DiagData {
    pub message: String,
    pub source: Source,
    pub span: Span,
    pub label: String,
    pub notes: Vec<(Span, String)>,
    pub help: Option<String>,
}

impl std::ops::Deref for Diag {
    type Target = DiagData;
    fn deref(&self) -> &DiagData {
        &self.0
    }
}

impl Diag {
    /// An error at `span` of `source`, labelled "here" until [`Diag::label`]
    /// says more.
    pub fn new(source: &Source, span: Span, message: impl Into<String>) -> Diag {
        Diag(Box::new(DiagData {
            message: message.into(),
            source: source.clone(),
            span: span.snapped(&source.text),
            label: "here".into(),
            notes: vec![],
            help: None,
        }))
    }

    /// The text under the underlined span.
    pub fn label(mut self, label: impl Into<String>) -> Diag {
        self.0.label = label.into();
        self
    }

    /// Another labelled span in the same source.
    pub fn note(mut self, span: Span, label: impl Into<String>) -> Diag {
        let span = span.snapped(&self.0.source.text);
        self.0.notes.push((span, label.into()));
        self
    }

    /// A hint printed after the error: how to fix it.
    pub fn help(mut self, help: impl Into<String>) -> Diag {
        self.0.help = Some(help.into());
        self
    }

    /// `file:line:col` of the primary span.
    pub fn location(&self) -> String {
        self.source.locate(self.span.start)
    }
}

impl fmt::Display for Diag {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.location(), self.message)
    }
}

impl std::error::Error for Diag {}

fn miette_span(s: Span) -> SourceSpan {
    SourceSpan::new(s.start.into(), s.end.saturating_sub(s.start))
}

impl Diagnostic for Diag {
    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        Some(self as &dyn miette::SourceCode)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        let primary = LabeledSpan::new_primary_with_span(Some(self.label.clone()), miette_span(self.span));
        let notes = self
            .notes
            .iter()
            .map(|(s, l)| LabeledSpan::new_with_span(Some(l.clone()), miette_span(*s)));
        Some(Box::new(std::iter::once(primary).chain(notes)))
    }

    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.help.as_ref().map(|h| Box::new(h) as Box<dyn fmt::Display>)
    }
}

impl Diag {
    /// The diagnostic as the terminal shows it. A line too long to draw
    /// (miette cannot pad past 65,535 columns) is named, not drawn.
    pub fn render_with(&self, handler: &miette::GraphicalReportHandler) -> String {
        let text = &self.source.text;
        let line_of = |at: usize| {
            let at = at.min(text.len());
            let start = text[..at].rfind('\n').map_or(0, |i| i + 1);
            let end = text[at..].find('\n').map_or(text.len(), |i| at + i);
            end - start
        };
        let spans = std::iter::once(self.span).chain(self.notes.iter().map(|(s, _)| *s));
        let too_long = spans.into_iter().any(|s| line_of(s.start).max(line_of(s.end)) > 2000);
        if text.is_empty() || too_long {
            let mut out = match text.is_empty() {
                true => format!("error: {}\n", self.message),
                false => format!("error: {self}\n"),
            };
            if let Some(h) = &self.help {
                out.push_str(&format!("  help: {h}\n"));
            }
            return out;
        }
        let mut out = String::new();
        let _ = handler.render_report(&mut out, self);
        out
    }
}

impl miette::SourceCode for Diag {
    fn read_span<'a>(
        &'a self,
        span: &SourceSpan,
        before: usize,
        after: usize,
    ) -> Result<Box<dyn miette::SpanContents<'a> + 'a>, miette::MietteError> {
        let contents = self.source.text.read_span(span, before, after)?;
        // miette counts columns in bytes; report characters, as `locate`.
        let (line, col) = self.source.line_col(contents.span().offset());
        Ok(Box::new(miette::MietteSpanContents::new_named(
            self.source.name.to_string(),
            contents.data(),
            *contents.span(),
            line - 1,
            col - 1,
            contents.line_count(),
        )))
    }
}

/// Several diagnostics, reported together.
#[derive(Debug, Clone)]
pub struct Diags(pub Vec<Diag>);

impl From<Diag> for Diags {
    fn from(d: Diag) -> Diags {
        Diags(vec![d])
    }
}

impl fmt::Display for Diags {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for d in &self.0 {
            writeln!(f, "{d}")?;
        }
        Ok(())
    }
}

impl std::error::Error for Diags {}

impl Diags {
    /// Renders every diagnostic the way the terminal shows it.
    pub fn render(&self) -> String {
        let handler = miette::GraphicalReportHandler::new_themed(miette::GraphicalTheme::unicode_nocolor());
        self.0.iter().map(|d| d.render_with(&handler)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_span_inside_a_character_is_widened_to_it() {
        let source = Source::new("--fen", "é x");
        let d = Diag::new(&source, Span::new(0, 1), "bad").note(Span::new(1, 9), "past the end");
        assert_eq!((d.span.start, d.span.end), (0, 2));
        assert_eq!((d.notes[0].0.start, d.notes[0].0.end), (0, 4));
        assert!(Diags::from(d).render().contains("bad"));
    }
}
