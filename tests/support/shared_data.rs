//! The one policy for tests that read data kept outside the repository, in
//! `../shared/data` beside the clone (datasets too large, or licensed
//! differently, to ship): included by every such test with
//! `#[path = "../../../tests/support/shared_data.rs"] mod shared_data;`.
//!
//! - Data present: the test runs.
//! - Data absent: the test prints `skipped: <test name>: needs <path>` on
//!   standard error (past the test harness's capture, so `cargo test` shows
//!   it), appends the same line to `$GLEANER_SKIPPED_LOG` when that is set
//!   (`.ci/test` lists them at its end), and returns: a clone of the
//!   repository alone passes its whole suite and names what it did not run.
//! - Data absent and `GLEANER_REQUIRE_DATA=1` (CI, which has `../shared`):
//!   the test fails instead, so a dataset that went missing is never taken
//!   for a pass.
//!
//! Each dataset may also be given elsewhere through an environment variable
//! named by the test (`GLEANER_WCEB_DIR`, `GLEANER_SITES_DIR`, …).

#![allow(dead_code)]

use std::io::Write;
use std::path::{Path, PathBuf};

/// `../shared/data/<rel>` beside the repository, or the value of `var`
/// when it is set (an empty `var` means no override).
pub fn path(var: &str, rel: &str) -> PathBuf {
    match std::env::var_os(var) {
        Some(dir) if !var.is_empty() => PathBuf::from(dir),
        _ => {
            // crates/<crate> → the repository → the folder it is in.
            let beside = Path::new(env!("CARGO_MANIFEST_DIR")).ancestors().nth(3);
            beside.unwrap_or(Path::new("..")).join("shared/data").join(rel)
        }
    }
}

/// `Some(path)` when `path` exists; otherwise the skip (or, under
/// `GLEANER_REQUIRE_DATA=1`, the failure) described above, and `None`.
pub fn require(path: PathBuf) -> Option<PathBuf> {
    if path.exists() {
        return Some(path);
    }
    missing(&path);
    None
}

/// Reports that this test cannot run without `path`: a failure under
/// `GLEANER_REQUIRE_DATA=1`, a named skip otherwise.
pub fn missing(path: &Path) {
    let thread = std::thread::current();
    let test = thread.name().unwrap_or("a test");
    assert!(
        std::env::var_os("GLEANER_REQUIRE_DATA").is_none_or(|v| v != "1"),
        "{test}: needs {}, and GLEANER_REQUIRE_DATA=1 makes missing data a failure",
        path.display()
    );
    let line = format!("skipped: {test}: needs {}", path.display());
    // Straight to the process's standard error: `eprintln!` would be
    // captured, and shown only for failing tests.
    let _ = writeln!(std::io::stderr(), "{line}");
    if let Some(log) = std::env::var_os("GLEANER_SKIPPED_LOG") {
        if let Ok(mut file) = std::fs::OpenOptions::new().create(true).append(true).open(log) {
            let _ = writeln!(file, "{line}");
        }
    }
}
