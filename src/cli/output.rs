//! Shared terminal output: diagnostics, progress bars and boards.

use crate::diag::{Diag, Diags, Source};
use crate::parse::ast::Span;
use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;
use std::time::Duration;

/// Prints diagnostics to stderr, with `file:line:col` and the span
/// underlined.
pub fn report_errors(diags: &Diags) {
    let theme = if std::io::stderr().is_terminal() {
        miette::GraphicalTheme::unicode()
    } else {
        miette::GraphicalTheme::unicode_nocolor()
    };
    let handler = miette::GraphicalReportHandler::new_themed(theme);
    for d in &diags.0 {
        eprint!("{}", d.render_with(&handler));
    }
}

/// An error that has no source text to point into (a missing file).
pub fn plain_error(message: String) -> Diags {
    Diag::new(&Source::new("", ""), Span::default(), message).into()
}

/// An error about a command-line value, shown with the value as source.
pub fn arg_error(flag: &str, value: &str, span: Span, message: impl Into<String>) -> Diags {
    Diag::new(&Source::new(flag, value), span, message).into()
}

/// A number of seconds from the command line, as a duration: positive (or
/// zero where `zero_ok`) and not absurdly large.
pub fn seconds(flag: &str, value: f64, zero_ok: bool) -> Result<Duration, Diags> {
    let ok = value.is_finite() && (value > 0.0 || (zero_ok && value == 0.0));
    match Duration::try_from_secs_f64(value) {
        Ok(d) if ok && value <= 1e9 => Ok(d),
        _ => Err(plain_error(format!("{flag} must be a number of seconds, not {value}"))),
    }
}

/// Parses a `--memory-limit` value.
pub fn memory_limit(text: &str) -> Result<crate::memory::MemoryLimit, String> {
    crate::memory::MemoryLimit::parse(text)
}

/// A progress bar on stderr for long runs; hidden when stderr is not a
/// terminal, so pipes and tests see clean output.
pub fn progress(label: &str) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(0);
    bar.set_style(
        ProgressStyle::with_template("{spinner} {prefix} {msg} [{bar:30}] {pos}/{len} {elapsed}")
            .unwrap()
            .progress_chars("=> "),
    );
    bar.set_prefix(label.to_string());
    bar.enable_steady_tick(Duration::from_millis(120));
    bar
}

/// Boards side by side, with a caption above each.
pub fn side_by_side(columns: &[(String, Vec<String>)]) -> String {
    let width = |s: &str| s.chars().count();
    let widths: Vec<usize> = columns
        .iter()
        .map(|(cap, rows)| rows.iter().map(|r| width(r)).chain([width(cap)]).max().unwrap_or(0))
        .collect();
    let height = columns.iter().map(|(_, r)| r.len()).max().unwrap_or(0);
    let mut out = String::new();
    for line in 0..=height {
        let mut row = String::new();
        for (i, (cap, rows)) in columns.iter().enumerate() {
            let cell = if line == 0 {
                cap.clone()
            } else {
                rows.get(line - 1).cloned().unwrap_or_default()
            };
            row.push_str(&cell);
            row.push_str(&" ".repeat(widths[i] - width(&cell) + 3));
        }
        out.push_str("    ");
        out.push_str(row.trim_end());
        out.push('\n');
    }
    out
}
