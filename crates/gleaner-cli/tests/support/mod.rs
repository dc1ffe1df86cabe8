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

/// A throwaway venv under the target directory with `requirement`
/// installed from PyPI (made once, kept between runs: a `.ready` file
/// marks it complete); its `bin` folder, or why it cannot be made (no
/// Python, no network). Never a dependency of the crates.
pub fn pypi_venv(name: &str, requirement: &str) -> Result<PathBuf, String> {
    let venv = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let bin = venv.join("bin");
    let ready = venv.join(".ready");
    if std::fs::read_to_string(&ready).is_ok_and(|r| r == requirement) {
        return Ok(bin);
    }
    let python = std::env::var("PYTHON").unwrap_or_else(|_| "python3".into());
    let try_run = |cmd: &mut Command| -> Result<(), String> {
        let out = cmd.output().map_err(|e| format!("{cmd:?}: {e}"))?;
        if out.status.success() {
            Ok(())
        } else {
            Err(format!("{cmd:?}: {}", String::from_utf8_lossy(&out.stderr)))
        }
    };
    try_run(Command::new(&python).args(["-m", "venv"]).arg(&venv))?;
    try_run(Command::new(bin.join("pip")).args(["install", "-q", requirement]))?;
    std::fs::write(&ready, requirement).map_err(|e| e.to_string())?;
    Ok(bin)
}

/// `bytes` gzipped (one member), as a server sends a `.gz` file.
pub fn gzip(bytes: &[u8]) -> Vec<u8> {
    use std::io::Write;
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gz.write_all(bytes).expect("gzip");
    gz.finish().expect("gzip")
}
