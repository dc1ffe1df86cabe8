//! Command-line flags. This module only describes arguments; the commands
//! turn them into library configurations.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

/// gleaner finds the main content of web pages.
#[derive(Debug, Parser)]
#[command(name = "gleaner", version, about, max_term_width = 100)]
pub struct Cli {
    /// The command to run.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Extract the main content of pages.
    Extract(ExtractArgs),
    /// List every extraction algorithm: name, one line, paper.
    Algorithms(AlgorithmsArgs),
    /// Write an HTML report of one page: the algorithm's curve and the
    /// page text with the kept parts highlighted.
    Inspect(InspectArgs),
}

/// Output formats of `extract`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum OutputFormat {
    /// Plain text with paragraph breaks.
    Txt,
    /// Markdown.
    Markdown,
    /// A clean HTML fragment.
    Html,
    /// One JSON object per input (an array for several), pretty-printed.
    Json,
    /// One JSON object per input per line.
    Jsonl,
}

impl OutputFormat {
    /// The file extension for `-o`.
    pub fn extension(self) -> &'static str {
        match self {
            OutputFormat::Txt => "txt",
            OutputFormat::Markdown => "md",
            OutputFormat::Html => "html",
            OutputFormat::Json => "json",
            OutputFormat::Jsonl => "jsonl",
        }
    }
}

/// Arguments of `extract`.
#[derive(Debug, Args)]
pub struct ExtractArgs {
    /// Input files (`.html`, `.htm`, `.xhtml`, optionally `.gz`); `-` reads
    /// standard input.
    pub inputs: Vec<PathBuf>,

    /// Also read every `.html`, `.htm`, `.xhtml` (and `.gz`) file below
    /// this directory.
    #[arg(long, value_name = "DIR")]
    pub input_dir: Vec<PathBuf>,

    /// The extraction algorithm (`gleaner algorithms` lists them).
    /// Default: the best available.
    #[arg(short, long, value_name = "NAME", default_value = "default")]
    pub algorithm: String,

    /// A parameter of the algorithm, as key=value (repeatable).
    #[arg(short, long = "param", value_name = "KEY=VALUE")]
    pub params: Vec<String>,

    /// Output format.
    #[arg(short = 'f', long, value_enum, default_value_t = OutputFormat::Txt)]
    pub output_format: OutputFormat,

    /// Write one file per input into this directory, mirroring relative
    /// names, with the format's extension.
    #[arg(short, long, value_name = "DIR")]
    pub output: Option<PathBuf>,

    /// Worker threads (default: all cores).
    #[arg(long, value_name = "N")]
    pub parallel: Option<usize>,

    /// Largest input accepted, in bytes.
    #[arg(long, value_name = "BYTES", default_value_t = 64 << 20)]
    pub max_bytes: usize,

    /// Character encoding of the inputs, if known (e.g. `utf-8`,
    /// `windows-1252`); otherwise it is detected per page.
    #[arg(long, value_name = "LABEL")]
    pub encoding: Option<String>,

    /// Keep hyperlinks in Markdown and HTML output.
    #[arg(long)]
    pub links: bool,

    /// Keep images in Markdown and HTML output.
    #[arg(long)]
    pub images: bool,

    /// Do not show a progress bar.
    #[arg(long)]
    pub no_progress: bool,
}

/// Arguments of `algorithms`.
#[derive(Debug, Args)]
pub struct AlgorithmsArgs {
    /// Print JSON instead of a table.
    #[arg(long)]
    pub json: bool,
}

/// Arguments of `inspect`.
#[derive(Debug, Args)]
pub struct InspectArgs {
    /// The page (`.html`, optionally gzipped); `-` reads standard input.
    pub input: PathBuf,

    /// The algorithm; ttr, ttr-*, cetr, ccb, accb and tccb have a curve.
    #[arg(short, long, value_name = "NAME", default_value = "ttr")]
    pub algorithm: String,

    /// A parameter of the algorithm, as key=value (repeatable).
    #[arg(short, long = "param", value_name = "KEY=VALUE")]
    pub params: Vec<String>,

    /// Where to write the report (default: standard output).
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,

    /// Largest input accepted, in bytes.
    #[arg(long, value_name = "BYTES", default_value_t = 64 << 20)]
    pub max_bytes: usize,
}
