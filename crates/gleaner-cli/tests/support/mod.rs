//! Helpers shared by the command-line tests: running the real binary and
//! writing inputs.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The `gleaner` binary under test.
pub fn gleaner() -> Command {
    Command::new(env!("CARGO_BIN_EXE_gleaner"))
}

/// Runs `cmd` to completion.
pub fn run(cmd: &mut Command) -> Output {
    cmd.output().expect("gleaner runs")
}

/// Standard output, which must be UTF-8.
pub fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).expect("utf-8 output")
}

/// Standard error, lossily.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Runs `cmd` and asserts it exited 0, showing its stderr otherwise.
pub fn run_ok(cmd: &mut Command) -> Output {
    let out = run(cmd);
    assert!(out.status.success(), "{:?}: {}", out.status, stderr(&out));
    out
}

/// Every line of the output as a JSON record.
pub fn jsonl(o: &Output) -> Vec<serde_json::Value> {
    stdout(o).lines().map(|l| serde_json::from_str(l).expect("each line is JSON")).collect()
}

/// Writes `bytes` to `dir/rel`, creating parent directories.
pub fn put(dir: &Path, rel: &str, bytes: impl AsRef<[u8]>) -> PathBuf {
    let path = dir.join(rel);
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).expect("mkdir");
    }
    std::fs::write(&path, bytes).expect("write");
    path
}
