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
    /// Score algorithms (and peers' outputs) on datasets with gold text.
    Eval(EvalArgs),
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

impl From<OutputFormat> for gleaner_batch::OutputFormat {
    fn from(f: OutputFormat) -> gleaner_batch::OutputFormat {
        match f {
            OutputFormat::Txt => gleaner_batch::OutputFormat::Txt,
            OutputFormat::Markdown => gleaner_batch::OutputFormat::Markdown,
            OutputFormat::Html => gleaner_batch::OutputFormat::Html,
            OutputFormat::Json => gleaner_batch::OutputFormat::Json,
            OutputFormat::Jsonl => gleaner_batch::OutputFormat::Jsonl,
        }
    }
}

/// How line-based algorithms (the TTR family, CETR) cut the source.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Lines {
    /// Physical source lines, as the papers do.
    Source,
    /// Virtual lines cut at block-level tags (robust to minified pages).
    Blocks,
}

impl Lines {
    /// The value of the algorithms' `lines` parameter.
    pub fn as_param(self) -> &'static str {
        match self {
            Lines::Source => "source",
            Lines::Blocks => "blocks",
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

    /// For line-based algorithms (ttr*, cetr): cut the source into physical
    /// lines (`source`, the papers' default) or virtual lines at
    /// block-level tags (`blocks`). Same as `-p lines=...`.
    #[arg(long, value_enum, value_name = "MODE")]
    pub lines: Option<Lines>,

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

/// Table formats of `eval`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum EvalFormat {
    /// A Markdown table, one row per (dataset, algorithm, metric).
    Md,
    /// A JSON array of row objects.
    Json,
    /// Markdown tables per metric: algorithms × datasets, F1 in the cells.
    Pivot,
}

/// Arguments of `eval`.
#[derive(Debug, Args)]
pub struct EvalArgs {
    /// A dataset directory (repeatable): `input/ID.html` +
    /// `GoldStandard/ID.txt` in any of the WCEB gold formats, or the
    /// ScrapingHub layout `html/ID.html.gz` + `ground-truth.json`. Without
    /// it: every dataset in `$GLEANER_DATA`, else in `../shared/data/wceb`
    /// (the development sets).
    #[arg(long = "data", value_name = "DIR")]
    pub data: Vec<PathBuf>,

    /// Comma-separated algorithm names, `all`, or `none` (peers only).
    #[arg(long, value_name = "LIST", default_value = "all")]
    pub algorithms: String,

    /// Comma-separated metrics: lcs, edr, shingle, or all.
    #[arg(long, value_name = "LIST", default_value = "all")]
    pub metric: String,

    /// Output format.
    #[arg(long, value_enum, default_value_t = EvalFormat::Md)]
    pub format: EvalFormat,

    /// Worker threads (default: all cores).
    #[arg(long, value_name = "N")]
    pub parallel: Option<usize>,

    /// Another tool's outputs to score, as ScrapingHub JSON
    /// `{id: {"articleBody": text}}` (repeatable; needs one --data).
    #[arg(long, value_name = "FILE")]
    pub peer_output: Vec<PathBuf>,

    /// The name of each --peer-output, in order (default: the file stem).
    #[arg(long, value_name = "NAME")]
    pub peer_name: Vec<String>,

    /// A directory of peer outputs `<DIR>/<dataset>/<peer>.json`, as
    /// written by `bench/peers/run.py`; every peer found for a dataset is
    /// scored with it.
    #[arg(long, value_name = "DIR")]
    pub peers_dir: Option<PathBuf>,

    /// A parameter for the algorithms, as key=value (repeatable).
    #[arg(short, long = "param", value_name = "KEY=VALUE")]
    pub params: Vec<String>,

    /// For line-based algorithms (ttr*, cetr): cut the source into physical
    /// lines (`source`, the papers' default) or virtual lines at
    /// block-level tags (`blocks`). Same as `-p lines=...`.
    #[arg(long, value_enum, value_name = "MODE")]
    pub lines: Option<Lines>,

    /// Sweep one numeric parameter: key=start:end:step.
    #[arg(long, value_name = "SPEC")]
    pub sweep: Option<String>,

    /// Also write every page's scores, one JSON object per page and
    /// algorithm (`dataset`, `algorithm`, `id`, `failed`, `lcs` [P, R, F1],
    /// `edr` [P, R, F1], `shingle` [P, R]) to this file.
    #[arg(long, value_name = "FILE")]
    pub per_page: Option<PathBuf>,

    /// Only the first N pages of each dataset (for quick runs).
    #[arg(long, value_name = "N")]
    pub limit: Option<usize>,

    /// Do not show a progress bar.
    #[arg(long)]
    pub no_progress: bool,

    /// With --sweep: draw precision and recall against the parameter
    /// (macro average over datasets) into this SVG file.
    #[arg(long, value_name = "FILE", requires = "sweep")]
    pub plot: Option<PathBuf>,
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

    /// For line-based algorithms (ttr*, cetr): cut the source into physical
    /// lines (`source`, the papers' default) or virtual lines at
    /// block-level tags (`blocks`). Same as `-p lines=...`.
    #[arg(long, value_enum, value_name = "MODE")]
    pub lines: Option<Lines>,

    /// Where to write the report (default: standard output).
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,

    /// Largest input accepted, in bytes.
    #[arg(long, value_name = "BYTES", default_value_t = 64 << 20)]
    pub max_bytes: usize,
}
