//! `--config FILE` (issue 36): long flag names in TOML, a command's own
//! table, and precedence — the command line over the file over the
//! defaults.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn gleaner(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gleaner")).args(args).output().expect("gleaner runs")
}

fn fixture() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures/ars-1.html")
        .to_string_lossy()
        .into_owned()
}

fn config(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("gleaner-config-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let path = dir.join(name);
    std::fs::write(&path, text).expect("config");
    path
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn issue_36_the_command_line_wins_over_the_file_which_wins_over_the_defaults() {
    let page = fixture();
    let file = config(
        "batch.toml",
        "output-format = \"jsonl\"\nmin_words = 100000\n\n[crawl]\nmax-pages = 3\n",
    );
    let file = file.to_str().expect("utf-8");
    // The file over the defaults: JSON Lines, and the page left out.
    let out = gleaner(&["extract", "--config", file, &page]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(stdout(&out), "");
    // The command line over the file.
    let out = gleaner(&["extract", "--config", file, "--min-words", "5", &page]);
    assert!(stdout(&out).starts_with("{\"source\""), "{}", stdout(&out));
    let out =
        gleaner(&["extract", &page, &format!("--config={file}"), "-f", "txt", "--min-words", "1"]);
    // Plain text (not the file's JSON Lines), and the page kept (its body:
    // whether the headline leads it is the model's call, and has changed
    // with retrained models).
    let text = stdout(&out);
    assert!(!text.starts_with('{') && text.contains("online game Minecraft"), "{text}");
    // `[crawl]` is crawl's alone: extract does not see max-pages.
    assert_eq!(
        gleaner(&["extract", "--config", file, "--min-words", "1", &page]).status.code(),
        Some(0)
    );
}

#[test]
fn issue_36_a_bad_config_is_a_usage_error_that_names_the_file() {
    let page = fixture();
    for (name, text, says) in [
        ("unknown.toml", "bogus = 1\n", "`bogus` is not a flag of `gleaner extract`"),
        ("broken.toml", "min-words = [\n", "TOML parse error"),
        ("nested.toml", "min-words = [[1]]\n", "lists hold plain values"),
    ] {
        let path = config(name, text);
        let out = gleaner(&["extract", "--config", path.to_str().expect("utf-8"), &page]);
        assert_eq!(out.status.code(), Some(2), "{name}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains(name) && stderr.contains(says), "{name}: {stderr}");
    }
    let out = gleaner(&["extract", "--config", "/nonexistent/gleaner.toml", &page]);
    assert_eq!(out.status.code(), Some(2));
}
