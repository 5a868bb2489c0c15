//! Shared terminal output: diagnostics, progress bars and boards.

use algchess_core::Span;
use algchess_core::{Diag, Diags, Source};
use indicatif::{MultiProgress, ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::sync::mpsc;
use std::thread::JoinHandle;
use std::time::Duration;

/// The most diagnostics printed: each is drawn from its file's text, so
/// twenty thousand bad lines would take minutes to report, and nobody
/// reads past the first screens.
const SHOWN: usize = 50;

/// Prints diagnostics to stderr, with `file:line:col` and the span
/// underlined: the first [`SHOWN`], then how many more there are.
pub(super) fn report_errors(diags: &Diags) {
    let theme = if std::io::stderr().is_terminal() {
        miette::GraphicalTheme::unicode()
    } else {
        miette::GraphicalTheme::unicode_nocolor()
    };
    let handler = miette::GraphicalReportHandler::new_themed(theme);
    for d in diags.0.iter().take(SHOWN) {
        eprint!("{}", d.render_with(&handler));
    }
    if let Some(more) = diags.0.len().checked_sub(SHOWN).filter(|n| *n > 0) {
        eprintln!("error: {more} more error{} not shown", if more == 1 { "" } else { "s" });
    }
}

/// An error that has no source text to point into (a missing file).
pub(super) fn plain_error(message: String) -> Diags {
    Diag::new(&Source::new("", ""), Span::default(), message).into()
}

/// An error about a command-line value, shown with the value as source.
pub(super) fn arg_error(flag: &str, value: &str, span: Span, message: impl Into<String>) -> Diags {
    Diag::new(&Source::new(flag, value), span, message).into()
}

/// A number of seconds from the command line, as a duration: positive (or
/// zero where `zero_ok`) and not absurdly large.
pub(super) fn seconds(flag: &str, value: f64, zero_ok: bool) -> Result<Duration, Diags> {
    let ok = value.is_finite() && (value > 0.0 || (zero_ok && value == 0.0));
    match Duration::try_from_secs_f64(value) {
        Ok(d) if ok && value <= 1e9 => Ok(d),
        _ => Err(plain_error(format!("{flag} must be a number of seconds, not {value}"))),
    }
}

/// Parses a `--memory-limit` value.
pub(super) fn memory_limit(text: &str) -> Result<algchess_core::MemoryLimit, crate::LimitError> {
    crate::memory_limit(text)
}

/// A `--grid` value that names no grid, kept to quote.
#[derive(Clone, Debug)]
pub(super) struct UnknownGrid(String);

impl std::fmt::Display for UnknownGrid {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "`{}` is not a grid: use square or hex", self.0)
    }
}

impl std::error::Error for UnknownGrid {}

/// Parses a `--grid` value.
pub(super) fn grid(s: &str) -> Result<algchess_core::Tiling, UnknownGrid> {
    algchess_core::Tiling::named(s).ok_or_else(|| UnknownGrid(s.to_string()))
}

/// A progress bar on stderr for long runs; hidden when stderr is not a
/// terminal, so pipes and tests see clean output.
pub(super) fn progress(label: &str) -> ProgressBar {
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

/// How long a claim runs before its progress bar appears: quick claims
/// never flash a bar.
pub(super) const PROGRESS_DELAY: Duration = Duration::from_secs(1);

/// A progress bar for one claim, on stderr, that appears only once the claim
/// has run for [`PROGRESS_DELAY`], and only when stderr is a terminal. It is
/// cleared before the claim's verdict is printed, so it never mixes with
/// the output.
pub(super) struct Progress {
    bar: ProgressBar,
    screen: Option<MultiProgress>,
    stop: Option<mpsc::Sender<()>>,
    waiter: Option<JoinHandle<()>>,
}

/// Where the bars of claims decided side by side are drawn, one line each:
/// stderr when it is a terminal, else nowhere.
pub(super) fn bars() -> Option<MultiProgress> {
    std::io::stderr()
        .is_terminal()
        .then(|| MultiProgress::with_draw_target(ProgressDrawTarget::stderr()))
}

impl Progress {
    /// A bar labelled `label` on `screen`, if there is one.
    pub(super) fn start(label: &str, screen: Option<&MultiProgress>) -> Progress {
        Progress::start_on(label, screen, PROGRESS_DELAY)
    }

    /// A bar that appears on `screen` (none: never) after `delay`.
    pub(super) fn start_on(label: &str, screen: Option<&MultiProgress>, delay: Duration) -> Progress {
        let bar = ProgressBar::with_draw_target(Some(0), ProgressDrawTarget::hidden());
        bar.set_style(
            ProgressStyle::with_template("{spinner} {prefix} {msg} [{bar:30}] {pos}/{len} {elapsed}")
                .unwrap()
                .progress_chars("=> "),
        );
        bar.set_prefix(label.to_string());
        let Some(screen) = screen.cloned() else {
            return Progress {
                bar,
                screen: None,
                stop: None,
                waiter: None,
            };
        };
        let (stop, stopped) = mpsc::channel::<()>();
        let (shown, on) = (bar.clone(), screen.clone());
        let waiter = std::thread::spawn(move || {
            // Only a timeout shows the bar: `finish` sends or hangs up.
            if let Err(mpsc::RecvTimeoutError::Timeout) = stopped.recv_timeout(delay) {
                on.add(shown).enable_steady_tick(Duration::from_millis(120));
            }
        });
        Progress {
            bar,
            screen: Some(screen),
            stop: Some(stop),
            waiter: Some(waiter),
        }
    }

    /// Reports `done` of `total` steps, with a message.
    pub(super) fn set(&self, message: String, done: usize, total: usize) {
        self.bar.set_message(message);
        self.bar.set_length(total as u64);
        self.bar.set_position(done as u64);
    }

    /// Takes the bar off the screen (if it was ever on it).
    pub(super) fn finish(mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(w) = self.waiter.take() {
            let _ = w.join();
        }
        self.bar.finish_and_clear();
        if let Some(screen) = &self.screen {
            screen.remove(&self.bar);
        }
    }
}

/// Boards side by side, with a caption above each.
pub(super) fn side_by_side(columns: &[(String, Vec<String>)]) -> String {
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

/// The `.alg` files of an `--axioms` folder, in name order, each with its
/// text.
pub(super) fn read_axioms(dir: &std::path::Path) -> Result<Vec<(String, String)>, Diags> {
    let unreadable = |what: String| -> Diags {
        Diag::new(&Source::new(dir.display().to_string(), ""), Span::default(), what).into()
    };
    let files =
        crate::alg_files(dir).map_err(|e| unreadable(format!("cannot read the axioms in {}: {e}", dir.display())))?;
    files
        .iter()
        .map(|f| {
            let name = f.display().to_string();
            let text = crate::read_text(f).map_err(|e| unreadable(format!("cannot read {name}: {e}")))?;
            Ok((name, text))
        })
        .collect()
}

/// Said when `--axioms DIR` replaces the bundled laws: the bundled ones
/// are validated by the test suite, these are taken on trust.
pub(super) fn warn_unchecked_axioms(dir: &std::path::Path) {
    eprintln!(
        "warning: the axioms in {0} are used unchecked: a false axiom can prove a false claim; validate them first with `algchess check {0}`",
        dir.display()
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::{Arc, Mutex};

    /// A terminal that records what is drawn on it.
    #[derive(Debug, Clone, Default)]
    struct Screen(Arc<Mutex<Vec<String>>>);

    impl Screen {
        fn drawn(&self) -> String {
            self.0.lock().unwrap().concat()
        }
        fn log(&self, s: &str) -> std::io::Result<()> {
            self.0.lock().unwrap().push(s.to_string());
            Ok(())
        }
    }

    impl indicatif::TermLike for Screen {
        fn width(&self) -> u16 {
            100
        }
        fn move_cursor_up(&self, _: usize) -> std::io::Result<()> {
            Ok(())
        }
        fn move_cursor_down(&self, _: usize) -> std::io::Result<()> {
            Ok(())
        }
        fn move_cursor_right(&self, _: usize) -> std::io::Result<()> {
            Ok(())
        }
        fn move_cursor_left(&self, _: usize) -> std::io::Result<()> {
            Ok(())
        }
        fn write_line(&self, s: &str) -> std::io::Result<()> {
            self.log(s)
        }
        fn write_str(&self, s: &str) -> std::io::Result<()> {
            self.log(s)
        }
        fn clear_line(&self) -> std::io::Result<()> {
            self.log("<clear>")
        }
        fn flush(&self) -> std::io::Result<()> {
            Ok(())
        }
    }

    fn on(screen: &Screen) -> MultiProgress {
        MultiProgress::with_draw_target(ProgressDrawTarget::term_like(Box::new(screen.clone())))
    }

    #[test]
    fn a_quick_claim_draws_no_bar() {
        let screen = Screen::default();
        let bar = Progress::start_on("quick", Some(&on(&screen)), Duration::from_millis(300));
        bar.set("1 cells".into(), 1, 2);
        bar.finish();
        std::thread::sleep(Duration::from_millis(400));
        assert_eq!(screen.drawn(), "");
    }

    #[test]
    fn a_slow_claim_draws_its_bar_after_the_delay_and_clears_it() {
        let screen = Screen::default();
        let bar = Progress::start_on("slow", Some(&on(&screen)), Duration::from_millis(50));
        bar.set("4 cells".into(), 3, 7);
        assert_eq!(screen.drawn(), "", "nothing before the delay");
        std::thread::sleep(Duration::from_millis(500));
        let drawn = screen.drawn();
        assert!(
            drawn.contains("slow") && drawn.contains("4 cells") && drawn.contains("3/7"),
            "{drawn}"
        );
        bar.finish();
        assert!(screen.drawn().ends_with("<clear>"), "{}", screen.drawn());
    }
}
