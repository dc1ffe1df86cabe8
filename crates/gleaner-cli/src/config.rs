//! `--config FILE`: the flags a batch job repeats, kept in a TOML file
//! (issue 36). The file's keys are the long flag names (`min-words = 50`,
//! `target-language = ["en", "de"]`, `dedup-documents = true`); a table
//! named after a command (`[extract]`, `[crawl]`) holds keys for that
//! command alone. Precedence: the command line over the file over the
//! defaults — the file's flags are read first and a flag given again on
//! the command line replaces them.

use std::ffi::OsString;
use std::path::Path;

use clap::CommandFactory;

use crate::flags::Cli;
use crate::UsageError;

/// The largest config file read.
const MAX_CONFIG_BYTES: u64 = 1 << 20;

/// The command line with the flags of its `--config FILE` (if any)
/// inserted after the command's name, `--config` itself removed.
///
/// # Errors
/// An unreadable or invalid file, or a key that is not a flag of the
/// command.
pub fn expand(args: Vec<OsString>) -> Result<Vec<OsString>, UsageError> {
    let Some((at, path)) = find_config(&args) else { return Ok(args) };
    let mut rest: Vec<OsString> = Vec::with_capacity(args.len());
    let separate = !is_inline(&args[at]);
    for (i, a) in args.iter().enumerate() {
        if i != at && !(separate && i == at + 1) {
            rest.push(a.clone());
        }
    }
    // The command's path (`extract`, `template extract`): where its flags
    // may go.
    let mut command = Cli::command();
    let mut path_end = 1;
    let mut names = Vec::new();
    while let Some(name) = rest.get(path_end).and_then(|a| a.to_str()) {
        let Some(sub) = command.find_subcommand(name).cloned() else { break };
        names.push(name.to_string());
        command = sub;
        path_end += 1;
    }
    if names.is_empty() {
        return Err(UsageError(
            "--config goes after a command: gleaner COMMAND --config FILE".into(),
        ));
    }
    let flags = read(&path, &command, &names)?;
    let mut out: Vec<OsString> = rest[..path_end].to_vec();
    out.extend(flags.into_iter().map(OsString::from));
    out.extend(rest[path_end..].iter().cloned());
    Ok(out)
}

fn is_inline(arg: &OsString) -> bool {
    arg.to_str().is_some_and(|a| a.starts_with("--config="))
}

/// The index of `--config` and its file.
fn find_config(args: &[OsString]) -> Option<(usize, std::path::PathBuf)> {
    for (i, a) in args.iter().enumerate().skip(1) {
        let Some(s) = a.to_str() else { continue };
        if s == "--" {
            return None;
        }
        if let Some(file) = s.strip_prefix("--config=") {
            return Some((i, file.into()));
        }
        if s == "--config" {
            return args.get(i + 1).map(|f| (i, f.into()));
        }
    }
    None
}

/// The flags a config file gives `command` (named `names`).
fn read(path: &Path, command: &clap::Command, names: &[String]) -> Result<Vec<String>, UsageError> {
    let shown = path.display();
    let meta = std::fs::metadata(path).map_err(|e| UsageError(format!("--config {shown}: {e}")))?;
    if !meta.is_file() || meta.len() > MAX_CONFIG_BYTES {
        return Err(UsageError(format!(
            "--config {shown}: not a file of at most {MAX_CONFIG_BYTES} bytes"
        )));
    }
    let text =
        std::fs::read_to_string(path).map_err(|e| UsageError(format!("--config {shown}: {e}")))?;
    let table: toml::Table =
        toml::from_str(&text).map_err(|e| UsageError(format!("--config {shown}: {e}")))?;
    let mut flags = Vec::new();
    let mut add = |key: &str, value: &toml::Value| -> Result<(), UsageError> {
        let long = key.replace('_', "-");
        if long == "config" || !command.get_arguments().any(|a| a.get_long() == Some(&long)) {
            return Err(UsageError(format!(
                "--config {shown}: `{key}` is not a flag of `gleaner {}`",
                names.join(" ")
            )));
        }
        for v in
            values(value).map_err(|why| UsageError(format!("--config {shown}: {key}: {why}")))?
        {
            match v {
                None => flags.push(format!("--{long}")),
                Some(v) => {
                    flags.push(format!("--{long}"));
                    flags.push(v);
                }
            }
        }
        Ok(())
    };
    let commands: Vec<String> =
        Cli::command().get_subcommands().map(|c| c.get_name().to_string()).collect();
    for (key, value) in &table {
        match value {
            // A command's own table: only for that command.
            toml::Value::Table(inner) if commands.contains(key) => {
                if names.first() == Some(key) {
                    for (k, v) in inner {
                        add(k, v)?;
                    }
                }
            }
            // Keys for every command, where they are flags.
            _ => add(key, value)?,
        }
    }
    Ok(flags)
}

/// The command-line values of one key: `None` for a flag without a value
/// (`true`), nothing for `false`, one per array item.
fn values(value: &toml::Value) -> Result<Vec<Option<String>>, String> {
    Ok(match value {
        toml::Value::Boolean(true) => vec![None],
        toml::Value::Boolean(false) => Vec::new(),
        toml::Value::String(s) => vec![Some(s.clone())],
        toml::Value::Integer(n) => vec![Some(n.to_string())],
        toml::Value::Float(x) => vec![Some(x.to_string())],
        toml::Value::Array(items) => {
            let mut out = Vec::new();
            for item in items {
                match item {
                    toml::Value::Array(_) | toml::Value::Table(_) => {
                        return Err("lists hold plain values".into())
                    }
                    other => out.extend(values(other)?),
                }
            }
            out
        }
        toml::Value::Datetime(d) => vec![Some(d.to_string())],
        toml::Value::Table(_) => return Err("a table where a value was expected".into()),
    })
}
