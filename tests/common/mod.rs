//! What the end-to-end tests share: running the binary and scratch files.

#![allow(dead_code)]

use std::ffi::OsStr;
use std::fs;
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

    pub fn write(&self, name: &str, text: &str) -> PathBuf {
        let path = self.0.join(name);
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
