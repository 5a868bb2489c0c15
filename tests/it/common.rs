//! What the end-to-end tests share: running the binary and scratch files.

#![allow(dead_code)]

use std::ffi::OsStr;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// What one run of the binary printed.
#[derive(Debug)]
pub struct Out {
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
}

/// Runs `algchess` with these arguments.
pub fn run<I, S>(args: I) -> Out
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    output(Command::new(env!("CARGO_BIN_EXE_algchess")).args(args))
}

/// Runs `algchess ARGS...` with `input` on its stdin, and colour off.
pub fn run_input(args: &[&str], input: &str) -> Out {
    let mut child = Command::new(env!("CARGO_BIN_EXE_algchess"))
        .args(args)
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the algchess binary runs");
    let mut stdin = child.stdin.take().expect("a piped stdin");
    let input = input.to_string();
    // Write from a thread so a full stdout pipe cannot block the writer.
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(input.as_bytes());
    });
    let out = child.wait_with_output().expect("the binary finishes");
    writer.join().expect("the writer finishes");
    Out {
        code: out.status.code(),
        stdout: String::from_utf8(out.stdout).expect("stdout is UTF-8"),
        stderr: String::from_utf8(out.stderr).expect("stderr is UTF-8"),
    }
}

/// Runs `algchess ARGS...` in folder `dir`, with `input` on its stdin
/// and colour off.
pub fn run_in(dir: &Path, args: &[&str], input: &str) -> Out {
    let mut child = Command::new(env!("CARGO_BIN_EXE_algchess"))
        .current_dir(dir)
        .args(args)
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the algchess binary runs");
    let mut stdin = child.stdin.take().expect("a piped stdin");
    let input = input.to_string();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(input.as_bytes());
    });
    let out = child.wait_with_output().expect("the binary finishes");
    writer.join().expect("the writer finishes");
    Out {
        code: out.status.code(),
        stdout: String::from_utf8(out.stdout).expect("stdout is UTF-8"),
        stderr: String::from_utf8(out.stderr).expect("stderr is UTF-8"),
    }
}

/// Runs `algchess` under a shell `ulimit` (for example `-v 3000000`, an
/// address-space limit in KiB), so that a run that outgrows it is killed
/// rather than slowing the machine down.
pub fn run_limited(ulimit: &str, args: &[&str]) -> Out {
    let mut cmd = Command::new("sh");
    cmd.arg("-c")
        .arg(format!("ulimit {ulimit} && exec \"$0\" \"$@\""))
        .arg(env!("CARGO_BIN_EXE_algchess"))
        .args(args);
    output(&mut cmd)
}

fn output(cmd: &mut Command) -> Out {
    let out = cmd.stdin(Stdio::null()).output().expect("the algchess binary runs");
    Out {
        code: out.status.code(),
        stdout: String::from_utf8(out.stdout).expect("stdout is UTF-8"),
        stderr: String::from_utf8(out.stderr).expect("stderr is UTF-8"),
    }
}

/// A scratch directory under the system temp dir, removed when dropped.
pub struct TempDir(PathBuf);

impl TempDir {
    pub fn new(test: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!("algchess-{test}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).expect("create a temp dir");
        TempDir(dir)
    }

    /// Writes a file, and the folders it is in.
    pub fn write(&self, name: &str, text: &str) -> PathBuf {
        let path = self.0.join(name);
        if let Some(parent) = path.parent() {
            fs::create_dir_all(parent).expect("create a fixture directory");
        }
        fs::write(&path, text).expect("write a fixture");
        path
    }

    pub fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}
