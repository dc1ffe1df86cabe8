//! The `gleaner` command-line tool: a thin layer over the `gleaner`
//! library. `flags` describes the arguments; each command module turns
//! them into library calls.

mod blocks_cmd;
mod config;
mod crawl_cmd;
mod eval_cmd;
mod extract_cmd;
mod fetch;
mod flags;
mod inspect_cmd;
mod layout;
mod links_cmd;
mod serve_cmd;
mod template_cmd;
mod train_cmd;
mod warc_cmd;

use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches};

use crate::flags::{AlgorithmsArgs, Cli, Command};

/// An error in how the tool was called (exit status 2).
#[derive(Debug)]
pub struct UsageError(pub String);

impl std::fmt::Display for UsageError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for UsageError {}

impl From<gleaner_batch::Error> for UsageError {
    fn from(e: gleaner_batch::Error) -> UsageError {
        UsageError(e.to_string())
    }
}

impl From<gleaner::Error> for UsageError {
    fn from(e: gleaner::Error) -> UsageError {
        UsageError(e.to_string())
    }
}

/// Writes `text` to standard output. A reader that went away (`gleaner …
/// | head`) ends the output quietly rather than as an error or a panic.
///
/// # Errors
/// Any other write error.
pub fn print_stdout(text: &str) -> anyhow::Result<()> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(e.into()),
        _ => Ok(()),
    }
}

/// The worker threads for `--parallel` (default: one per core), capped
/// at [`gleaner_batch::MAX_THREADS_PER_CORE`] per core and
/// [`gleaner_batch::MAX_THREADS`] in all, with a warning when cut down.
pub fn worker_threads(parallel: Option<usize>) -> usize {
    let (threads, capped) = gleaner_batch::worker_threads(parallel.unwrap_or(0));
    if capped {
        eprintln!(
            "gleaner: warning: --parallel {}: using {threads} worker threads (at most {} per \
             core, {} in all)",
            parallel.unwrap_or(0),
            gleaner_batch::MAX_THREADS_PER_CORE,
            gleaner_batch::MAX_THREADS
        );
    }
    threads
}

/// `--max-bytes`, checked: above what the library supports
/// ([`gleaner::document::MAX_SUPPORTED_BYTES`], 1 GiB) it is a usage
/// error rather than a limit silently lowered.
///
/// # Errors
/// A limit above 1 GiB.
pub fn max_bytes(bytes: usize) -> Result<usize, UsageError> {
    let most = gleaner::document::MAX_SUPPORTED_BYTES;
    if bytes > most {
        return Err(UsageError(format!(
            "--max-bytes {bytes}: more than the largest supported input, {most} bytes (1 GiB)"
        )));
    }
    Ok(bytes)
}

/// A usage error when `algorithm` needs a template model and none is
/// given (`--template` or `--site-templates`).
///
/// # Errors
/// That usage error.
pub fn check_template(
    algorithm: &gleaner::extract::Algorithm,
    given: bool,
) -> Result<(), UsageError> {
    if algorithm.capabilities.needs_template && !given {
        return Err(UsageError(format!(
            "{} needs a template: give --template site.model or --site-templates",
            algorithm.name
        )));
    }
    Ok(())
}

/// `params` plus `lines=<mode>` when `algorithm` is line-based
/// ([`Capabilities::line_based`](gleaner::extract::Capabilities::line_based):
/// the TTR family and CETR); `None` when it is not.
pub fn with_lines(
    algorithm: &gleaner::extract::Algorithm,
    params: &gleaner::extract::Params,
    lines: flags::Lines,
) -> Option<gleaner::extract::Params> {
    algorithm.capabilities.line_based.then(|| params.clone().with("lines", lines.as_param()))
}

/// The learned extractor with the model in `path` and these parameters.
///
/// # Errors
/// A usage error when the file cannot be read, is larger than a model can
/// be, or is not a model for this gleaner (with the reason).
pub fn learned_with_model(
    path: &std::path::Path,
    params: &gleaner::extract::Params,
) -> Result<Box<dyn gleaner::extract::Extractor>, UsageError> {
    gleaner_batch::spec::learned_with_model(path, params).map_err(spec_usage)
}

/// Reads a learned model file (`--model`).
///
/// # Errors
/// A usage error when the file cannot be read, is larger than a model can
/// be, or is not a model for this gleaner (with the reason).
pub fn read_model(
    path: &std::path::Path,
) -> Result<gleaner::extract::learned::LearnedModel, UsageError> {
    gleaner_batch::spec::read_learned_model(path).map_err(spec_usage)
}

/// A [`gleaner_batch::SpecError`] in the command line's words: its flags
/// (`--model`, `--precision`) where the spec names its keys.
pub fn spec_usage(e: gleaner_batch::SpecError) -> UsageError {
    use gleaner_batch::SpecError;
    UsageError(match e {
        SpecError::Favor { favor, algorithm } => format!(
            "--{favor} tunes the default extractor ({}) and article, not {algorithm}",
            gleaner::extract::DEFAULT_ALGORITHM
        ),
        SpecError::Model { path, reason } => format!("--model {}: {reason}", path.display()),
        SpecError::LearnedOnly { algorithm } => {
            format!("--model and --page-type are for the learned extractor, not {algorithm}")
        }
        other => other.to_string(),
    })
}

fn main() -> ExitCode {
    return_large_buffers();
    match run() {
        Ok(code) => code,
        Err(e) => {
            eprintln!("gleaner: {e:#}");
            if e.downcast_ref::<UsageError>().is_some() {
                ExitCode::from(2)
            } else {
                ExitCode::from(1)
            }
        }
    }
}

/// Has glibc's allocator give every allocation of 1 MiB or more its own
/// mapping, returned to the system when freed \[I\] (issue 13). By default
/// the threshold rises to the size of the largest such block freed (up to
/// 32 MiB): once a large page's parse frees its tree builder's links, the
/// analysis' buffers of a few MB come from the heap, which keeps their
/// pages after they are freed, and a 2 MB page peaked 3–5 MiB higher. Pages
/// of ordinary size allocate nothing this large.
///
/// Smaller freed memory stays with the allocator up to 16 MiB per arena
/// (glibc's default trims the heap's free top above 128 KiB): a batch
/// frees each page's document and analysis and allocates the next
/// page's at once, and returning those pages to the system only to fault
/// them in again cost 27 000–38 000 page faults and 0.15–0.28 s of system
/// time on the 1 381 dragnet pages against 2 100 faults and 0.04–0.08 s
/// (issue 12). No peak moves: trimming returns memory after its peak.
fn return_large_buffers() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: `mallopt` only sets tuning parameters of the allocator; it
    // is called before any other thread exists.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 1 << 20);
        libc::mallopt(libc::M_TRIM_THRESHOLD, 16 << 20);
    }
}

/// The command line with a flag given twice taking its last value (a
/// config file's flags come first, the command line's replace them);
/// lists add up.
fn overriding(command: clap::Command) -> clap::Command {
    let names: Vec<String> = command.get_subcommands().map(|s| s.get_name().to_string()).collect();
    let mut command = command.args_override_self(true);
    for name in names {
        command = command.mut_subcommand(name, overriding);
    }
    command
}

fn run() -> anyhow::Result<ExitCode> {
    let args = config::expand(std::env::args_os().collect())?;
    let matches = overriding(Cli::command()).get_matches_from(args);
    let cli = Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
    match cli.command {
        Command::Extract(args) => extract_cmd::run(*args),
        Command::Algorithms(args) => algorithms(args),
        Command::Eval(args) => eval_cmd::run(args),
        Command::Inspect(args) => inspect_cmd::run(args),
        Command::Blocks(args) => blocks_cmd::run(args),
        Command::Template(command) => template_cmd::run(command),
        Command::Crawl(args) => crawl_cmd::run(args),
        Command::Links(args) => links_cmd::run(args),
        Command::Warc(args) => warc_cmd::run(args),
        Command::Train(args) => train_cmd::run(args),
        Command::Serve(args) => serve_cmd::serve(*args),
        Command::Mcp(args) => serve_cmd::mcp(args),
    }
}

fn algorithms(args: AlgorithmsArgs) -> anyhow::Result<ExitCode> {
    let all = gleaner::extract::algorithms();
    if args.json {
        let list = gleaner_batch::algorithm_specs();
        print_stdout(&(serde_json::to_string_pretty(&list)? + "\n"))?;
        return Ok(ExitCode::SUCCESS);
    }
    let width = all.iter().map(|a| a.name.len()).max().unwrap_or(0);
    let mut listing = String::new();
    for a in all {
        let mark = if a.name == gleaner::extract::DEFAULT_ALGORITHM { " (default)" } else { "" };
        listing.push_str(&format!(
            "{:width$}  {}{mark}\n{:width$}  [{}]\n",
            a.name, a.summary, "", a.paper
        ));
    }
    print_stdout(&listing)?;
    Ok(ExitCode::SUCCESS)
}
