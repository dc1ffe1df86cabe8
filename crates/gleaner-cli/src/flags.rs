//! Command-line flags. This module only describes arguments; the commands
//! turn them into library configurations.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};
use gleaner::ParseOptions;

use crate::UsageError;

/// gleaner finds the main content of web pages.
#[derive(Debug, Parser)]
#[command(name = "gleaner", version, about, max_term_width = 100)]
pub struct Cli {
    /// The command to run.
    #[command(subcommand)]
    pub command: Command,

    /// Read flags from a TOML file: keys are long flag names
    /// (`min-words = 50`, `target-language = ["en"]`, `deduplicate =
    /// true`), a `[COMMAND]` table holds one command's; flags on the
    /// command line replace the file's.
    #[arg(long, global = true, value_name = "FILE")]
    pub config: Option<PathBuf>,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Extract the main content of pages.
    Extract(Box<ExtractArgs>),
    /// List every extraction algorithm: name, one line, paper.
    Algorithms(AlgorithmsArgs),
    /// Score algorithms (and peers' outputs) on datasets with gold text.
    Eval(EvalArgs),
    /// Write an HTML report of one page: the algorithm's curve and the
    /// page text with the kept parts highlighted.
    Inspect(InspectArgs),
    /// Show the Visual Clustering Extractor's block tree of one page: each
    /// block's specification vector and FactorValue, as JSON or as a
    /// picture of the page's boxes coloured by score.
    Blocks(BlocksArgs),
    /// Site templates: cluster pages by template, learn a site's template
    /// model, show what a model holds.
    #[command(subcommand)]
    Template(TemplateCommand),
    /// Crawl a site breadth-first from a page (or replay a crawl from a
    /// folder or a WARC file) and write the pages as WARC records.
    Crawl(CrawlArgs),
    /// Find a site's pages without crawling it: its sitemaps (from
    /// robots.txt or /sitemap.xml, indexes and gzip included) and feeds
    /// (RSS, Atom, and those a page announces); one URL a line.
    Links(LinksArgs),
    /// Extract the HTML pages of WARC archives, streamed and in parallel,
    /// into JSON Lines or a WARC of conversion records; resumable.
    Warc(WarcArgs),
    /// Train the learned extractor's models on labelled pages (any layout
    /// `eval` reads), or write their feature rows for study.
    Train(TrainArgs),
    /// Run an extraction server: gleaner's HTTP API, Firecrawl's scrape
    /// and Jina Reader's `GET /URL` shims, metrics, and a page at `/` to
    /// try it (docs/serve.md).
    Serve(Box<ServeArgs>),
    /// Run a Model Context Protocol server over standard input and output
    /// with the tools `extract`, `extract_batch` and `site_template`.
    Mcp(McpArgs),
}

/// What `serve` and `mcp` may fetch.
#[derive(Debug, Clone, Args)]
pub struct ServeFetchArgs {
    /// Fetch URLs that requests name (off by default: a request with a
    /// URL is refused with 403 and the page's HTML must be sent).
    #[arg(long)]
    pub allow_fetch: bool,

    /// Fetch only from this host and its subdomains (repeatable); without
    /// it, any host whose addresses are public.
    #[arg(long, value_name = "HOST")]
    pub allow_host: Vec<String>,

    /// Fetch from loopback, private and link-local addresses too (for
    /// tests and intranets); cloud metadata addresses are never fetched.
    /// Checked after DNS resolution and on every redirect hop.
    #[arg(long)]
    pub allow_private_addresses: bool,

    /// Allow loopback, private and link-local addresses for this origin
    /// only (`http://127.0.0.1:8081`), repeatable; redirects to other
    /// ports and hosts of the network stay refused.
    #[arg(long, value_name = "URL")]
    pub allow_private_origin: Vec<String>,

    /// Do not obey robots.txt.
    #[arg(long)]
    pub ignore_robots: bool,

    /// The User-Agent of fetches.
    #[arg(long, value_name = "UA", default_value = gleaner_crawl::DEFAULT_USER_AGENT)]
    pub user_agent: String,

    /// Longest time for one fetch, redirects included, in seconds.
    #[arg(long, value_name = "SECS", default_value_t = 30)]
    pub fetch_timeout_secs: u64,

    /// Least time between two fetches from one origin, in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = 500)]
    pub fetch_delay_ms: u64,

    /// Largest page fetched or sent, in bytes.
    #[arg(long, value_name = "BYTES", default_value_t = gleaner::ParseOptions::default().max_bytes)]
    pub max_page_bytes: usize,

    /// Most time one page may take from parse to extraction, in
    /// milliseconds; past it the record says it was cut off. A request
    /// may ask for less (`time_budget_ms`).
    #[arg(long, value_name = "MS", default_value_t = 10_000)]
    pub time_budget_ms: u64,

    /// Keep learned templates in this folder too (and find them there
    /// after a restart).
    #[arg(long, value_name = "DIR")]
    pub template_dir: Option<PathBuf>,
}

/// Arguments of `serve`.
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// The address and port to listen on.
    #[arg(long, value_name = "ADDR:PORT", default_value = "127.0.0.1:8080")]
    pub bind: String,

    /// What may be fetched, and the page limits.
    #[command(flatten)]
    pub fetch: ServeFetchArgs,

    /// Require `Authorization: Bearer TOKEN` on every request but `GET /`
    /// and `GET /healthz`. Default: the environment variable
    /// GLEANER_TOKEN, when set (which keeps the token out of `ps`).
    #[arg(long, value_name = "TOKEN")]
    pub token: Option<String>,

    /// Largest request body in bytes (and largest line of a batch);
    /// larger ones get 413.
    #[arg(long, value_name = "BYTES", default_value_t = 16 << 20)]
    pub max_body_bytes: usize,

    /// Requests handled at once; more get 503 with Retry-After. Default:
    /// 16 per core.
    #[arg(long, value_name = "N")]
    pub max_concurrency: Option<usize>,

    /// Pages extracted at once (default: one per core); requests beyond
    /// wait their turn.
    #[arg(long, value_name = "N")]
    pub extract_threads: Option<usize>,

    /// Requests per second one client address may make (bursts of
    /// --rate-burst); more get 429 with Retry-After. Default: no limit.
    #[arg(long, value_name = "PER_SEC")]
    pub rate_limit: Option<f64>,

    /// Requests one client may make at once under --rate-limit.
    #[arg(long, value_name = "N", default_value_t = 20)]
    pub rate_burst: u32,

    /// Longest time a client may take to send its headers, and between
    /// two pieces of its body, in seconds (slow clients are cut off).
    #[arg(long, value_name = "SECS", default_value_t = 10)]
    pub read_timeout_secs: u64,

    /// Longest time one request may take, in seconds (408 past it).
    #[arg(long, value_name = "SECS", default_value_t = 60)]
    pub request_timeout_secs: u64,

    /// On SIGTERM or ctrl-c, how long to wait for requests under way.
    #[arg(long, value_name = "SECS", default_value_t = 30)]
    pub shutdown_grace_secs: u64,

    /// Learned templates held in memory (least recently used dropped).
    #[arg(long, value_name = "N", default_value_t = 256)]
    pub template_capacity: usize,

    /// Access logs as JSON lines (default: text) on standard error.
    #[arg(long)]
    pub log_json: bool,
}

/// Arguments of `mcp`.
#[derive(Debug, Args)]
pub struct McpArgs {
    /// What may be fetched, and the page limits.
    #[command(flatten)]
    pub fetch: ServeFetchArgs,
}

/// What `eval --by` breaks the rows down by.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum EvalBy {
    /// The pages' labelled type (WCXB's seven types).
    PageType,
}

/// Arguments of `train`.
#[derive(Debug, Args)]
pub struct TrainArgs {
    /// A dataset folder (repeatable): any layout `gleaner eval` reads.
    #[arg(long, value_name = "DIR", required = true)]
    pub data: Vec<PathBuf>,

    /// Write the trained model here (load it with `--model FILE`).
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,

    /// Cross-validate: train without each fold and score it (folds by
    /// domain within datasets with page types, by dataset otherwise);
    /// prints word F1 (and shingle F1) per dataset and page type, the
    /// rules alone (`article`) beside the model.
    #[arg(long)]
    pub cv: bool,

    /// Folds by domain.
    #[arg(long, value_name = "K", default_value_t = 5)]
    pub folds: u32,

    /// Keep blocks scoring at least this.
    #[arg(long, value_name = "P", default_value_t = 0.5)]
    pub threshold: f32,

    /// Boosting rounds of the block model.
    #[arg(long, value_name = "N")]
    pub rounds: Option<usize>,

    /// The block model's random seed (its rows' and features' samples;
    /// default 32): another seed trains another forest on the same pages,
    /// which tells how much of a change between two models is chance
    #[arg(long, value_name = "N")]
    pub random_seed: Option<u64>,

    /// A dataset's weight, by folder name (repeatable; default 1).
    #[arg(long, value_name = "NAME=W")]
    pub dataset_weight: Vec<String>,

    /// How far the block model evens out labelled page types within each
    /// dataset: a page weighs (the dataset's pages of its commonest type / its
    /// pages of this type)^P, each dataset keeping its total weight; 0 weighs
    /// every page alike, 1 every type alike (pages without a type count as
    /// articles)
    #[arg(long, value_name = "P", default_value_t = gleaner_eval::train::TYPE_BALANCE)]
    pub type_balance: f32,

    /// Leave the seed algorithms' decisions out of the features.
    #[arg(long)]
    pub no_seeds: bool,

    /// How the page types' policies (forest or rules, threshold) are set:
    /// chosen on the held-out pages of --cv (without --cv, --threshold on
    /// every type), or fixed, with or without --cv (articles, forum threads
    /// and documentation at --threshold; products, collections, listings
    /// and service pages at 0.15, adaptive: the shipped model's)
    #[arg(long, value_enum, default_value_t = PolicyArg::Chosen)]
    pub policies: PolicyArg,

    /// Write a JSON report here: the options, the feature importances and,
    /// with --cv, every held-out page's scores (its type probabilities, its
    /// blocks' scores, its F1 at every candidate threshold, the text kept
    /// and its word P/R/F1).
    #[arg(long, value_name = "FILE")]
    pub report: Option<PathBuf>,

    /// Write the feature rows here instead of training: PREFIX.rows.f32
    /// (row-major little-endian f32, the label first), PREFIX.pages.jsonl
    /// (one line per page: dataset, id, domain, page type, its rows, its
    /// blocks' texts, words, comment-section and code flags, its gold and
    /// `article`'s text) and PREFIX.names.json.
    #[arg(long, value_name = "PREFIX")]
    pub dump_features: Option<PathBuf>,

    /// Read at most N pages of each dataset.
    #[arg(long, value_name = "N")]
    pub limit: Option<usize>,

    /// Worker threads for reading pages (default: one per core).
    #[arg(long, value_name = "N")]
    pub parallel: Option<usize>,

    /// Do not show progress.
    #[arg(long)]
    pub no_progress: bool,
}

/// The subcommands of `template`.
#[derive(Debug, Subcommand)]
pub enum TemplateCommand {
    /// Cluster pages by their template (single linkage over a structural
    /// distance) and print the clusters.
    Cluster(ClusterArgs),
    /// Learn a template model from a folder of one site's pages.
    Learn(LearnArgs),
    /// Show what a template model holds, as a page a person reads.
    Show(ShowArgs),
    /// The template of one page by Alarte et al.: the menu's complete
    /// subdigraph among the pages it links to, then equal top-down mapping.
    Extract(TemplateExtractArgs),
}

/// Arguments of `template extract`.
#[derive(Debug, Args)]
pub struct TemplateExtractArgs {
    /// The key page's URL.
    pub url: String,

    /// Write the template as an HTML page here.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,

    /// Output format of the summary on standard output.
    #[arg(long, value_enum, default_value_t = ClusterFormat::Json)]
    pub format: ClusterFormat,

    /// Pages in the menu's complete subdigraph (the paper's n).
    #[arg(long, value_name = "N", default_value_t = 4)]
    pub menu_pages: usize,

    /// Most pages loaded while looking for it.
    #[arg(long, value_name = "N", default_value_t = 30)]
    pub max_loads: usize,

    /// Limits on each page's work.
    #[command(flatten)]
    pub limits: LimitArgs,

    /// How pages are fetched.
    #[command(flatten)]
    pub fetch: FetchArgs,
}

/// Structural distances of `--distance`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum DistanceArg {
    /// Common root-to-leaf paths (the paper's recommendation).
    Cp,
    /// Common path shingles.
    Cps,
    /// Common tag-sequence shingles.
    Ctss,
    /// Restricted top-down mapping tree edit distance (slow; for comparison).
    Rtdm,
}

impl From<DistanceArg> for gleaner::template::Distance {
    fn from(d: DistanceArg) -> gleaner::template::Distance {
        use gleaner::template::Distance;
        match d {
            DistanceArg::Cp => Distance::Cp,
            DistanceArg::Cps => Distance::Cps,
            DistanceArg::Ctss => Distance::Ctss,
            DistanceArg::Rtdm => Distance::Rtdm,
        }
    }
}

/// How pages are clustered by template.
#[derive(Debug, Clone, Args)]
pub struct ClusteringArgs {
    /// The structural distance.
    #[arg(long, value_enum, default_value_t = DistanceArg::Cp)]
    pub distance: DistanceArg,

    /// The single-linkage threshold (default: the paper's for the
    /// distance: cp 0.7, cps 0.6, ctss 0.85; rtdm 0.2).
    #[arg(long, value_name = "T")]
    pub threshold: Option<f64>,

    /// Shingle length for cps and ctss.
    #[arg(long, value_name = "K", default_value_t = gleaner::template::DEFAULT_SHINGLE)]
    pub shingle: usize,

    /// Smallest cluster that gets a template model; pages in smaller
    /// clusters are extracted without one.
    #[arg(long, value_name = "N", default_value_t = 3)]
    pub min_cluster: usize,

    /// A text is template text when it occurs on more than this share of
    /// its cluster's pages.
    #[arg(long, value_name = "SHARE", default_value_t = gleaner::template::DEFAULT_SHARE)]
    pub share: f64,
}

impl ClusteringArgs {
    /// The library's options.
    pub fn options(&self) -> Result<gleaner::template::SiteOptions, crate::UsageError> {
        let mut options =
            gleaner::template::SiteOptions::default().with_distance(self.distance.into());
        if let Some(t) = self.threshold {
            if !(0.0..=1.0).contains(&t) {
                return Err(crate::UsageError(format!("--threshold {t}: must be in [0, 1]")));
            }
            options.threshold = t;
        }
        if !(0.0..1.0).contains(&self.share) {
            return Err(crate::UsageError(format!("--share {}: must be in [0, 1)", self.share)));
        }
        options.shingle = self.shingle.max(1);
        options.min_cluster = self.min_cluster;
        options.share = self.share;
        Ok(options)
    }
}

/// Output formats of `template cluster`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ClusterFormat {
    /// `{"clusters": [[path, ...], ...], "rand_index", "dunn_index", "distance", "threshold"}`.
    Json,
    /// A Markdown list of clusters.
    Md,
}

/// Arguments of `template cluster`.
#[derive(Debug, Args)]
pub struct ClusterArgs {
    /// A folder of pages (repeatable; read recursively).
    #[arg(long, value_name = "DIR", required = true)]
    pub input_dir: Vec<PathBuf>,

    /// How to cluster.
    #[command(flatten)]
    pub clustering: ClusteringArgs,

    /// Each --input-dir is one true class: print the Rand index of the
    /// clustering and the Dunn index of the distance on these classes.
    #[arg(long)]
    pub labels_from_input_dir: bool,

    /// A folder of pages that each stand alone (one site each): clustered
    /// with the rest, and with --labels-from-input-dir each page is a true
    /// class of its own (repeatable).
    #[arg(long, value_name = "DIR")]
    pub singletons: Vec<PathBuf>,

    /// Output format.
    #[arg(long, value_enum, default_value_t = ClusterFormat::Md)]
    pub format: ClusterFormat,

    /// Also write every pair's distance to this file, as tab-separated
    /// `page_a page_b distance` lines (for a histogram of distances).
    #[arg(long, value_name = "FILE")]
    pub distances: Option<PathBuf>,

    /// Worker threads (default: all cores).
    #[arg(long, value_name = "N")]
    pub parallel: Option<usize>,

    /// Limits on each page's work.
    #[command(flatten)]
    pub limits: LimitArgs,
}

/// Arguments of `template learn`.
#[derive(Debug, Args)]
pub struct LearnArgs {
    /// The folder of the site's pages (repeatable; read recursively).
    #[arg(long, value_name = "DIR", required = true)]
    pub input_dir: Vec<PathBuf>,

    /// Where to write the model.
    #[arg(short, long, value_name = "FILE")]
    pub output: PathBuf,

    /// A text is template text when it occurs on more than this share of
    /// the pages.
    #[arg(long, value_name = "SHARE", default_value_t = gleaner::template::DEFAULT_SHARE)]
    pub share: f64,

    /// Worker threads (default: all cores).
    #[arg(long, value_name = "N")]
    pub parallel: Option<usize>,

    /// Limits on each page's work.
    #[command(flatten)]
    pub limits: LimitArgs,
}

/// Arguments of `template show`.
#[derive(Debug, Args)]
pub struct ShowArgs {
    /// The model file.
    pub model: PathBuf,

    /// Also show this page with the text the model marks as template.
    #[arg(long, value_name = "FILE")]
    pub page: Option<PathBuf>,

    /// Where to write the HTML (default: standard output).
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,

    /// Limits on the page's work (with --page).
    #[command(flatten)]
    pub limits: LimitArgs,
}

/// `-f`'s values: the batch's output formats, read by their one
/// `FromStr` (`gleaner_batch::OutputFormat::NAMES`, shared with the
/// server and Python), each with its help line.
fn output_format_parser(
) -> impl clap::builder::TypedValueParser<Value = gleaner_batch::OutputFormat> {
    use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
    let values = gleaner_batch::OutputFormat::NAMES
        .iter()
        .map(|(name, _, help)| PossibleValue::new(*name).help(*help));
    PossibleValuesParser::new(values).try_map(|name| name.parse::<gleaner_batch::OutputFormat>())
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

/// What Markdown and HTML output keep (`extract`, `warc`).
#[derive(Debug, Clone, Args)]
pub struct RenderArgs {
    /// Keep hyperlinks in Markdown and HTML output.
    #[arg(long)]
    pub links: bool,

    /// Keep images in Markdown and HTML output.
    #[arg(long)]
    pub images: bool,
}

impl RenderArgs {
    /// The library's render options.
    pub fn options(&self) -> gleaner::render::RenderOptions {
        gleaner::render::RenderOptions::default().links(self.links).images(self.images)
    }
}

/// Which template text is set aside before extraction (`extract`, `warc`).
#[derive(Debug, Clone, Args)]
pub struct TemplateArgs {
    /// A site's template model (`gleaner template learn`): its template
    /// text is set aside before the algorithm runs.
    #[arg(long, value_name = "FILE", conflicts_with = "site_templates")]
    pub template: Option<PathBuf>,

    /// Cluster the inputs by template, learn one model per cluster and
    /// extract every page with its cluster's model (pages in clusters
    /// smaller than --min-cluster without one). `warc` clusters each host
    /// of WARC-Target-URI apart: it reads the archives twice and keeps a
    /// summary of every page in memory between the two passes.
    #[arg(long)]
    pub site_templates: bool,

    /// How --site-templates clusters.
    #[command(flatten)]
    pub clustering: ClusteringArgs,
}

impl TemplateArgs {
    /// Is a template given, one way or the other?
    pub fn given(&self) -> bool {
        self.template.is_some() || self.site_templates
    }
}

/// Which algorithm extracts, with which parameters (`extract`, `warc`).
#[derive(Debug, Clone, Args)]
pub struct ExtractorArgs {
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

    /// The learned extractor's model, from `gleaner train` (instead of the
    /// compiled-in one); implies `-a learned`.
    #[arg(long, value_name = "FILE")]
    pub model: Option<PathBuf>,

    /// Extract as for this page type (article, forum, product, collection,
    /// listing, documentation, service) instead of the classifier's guess;
    /// the learned extractor only. Same as `-p page_type=...`.
    #[arg(long, value_name = "TYPE")]
    pub page_type: Option<String>,
}

impl ExtractorArgs {
    /// The algorithm and its parameters, `--lines` included.
    ///
    /// # Errors
    /// An unknown algorithm, a malformed parameter, or `--lines` for an
    /// algorithm that does not read lines.
    pub fn params(
        &self,
    ) -> Result<(&'static gleaner::extract::Algorithm, gleaner::extract::Params), crate::UsageError>
    {
        let mut params = gleaner::extract::Params::new();
        for p in &self.params {
            params.push_assignment(p)?;
        }
        let named = if self.model.is_some() && self.algorithm == "default" {
            "learned"
        } else {
            self.algorithm.as_str()
        };
        let algorithm = gleaner::extract::algorithm(named)?;
        if (self.model.is_some() || self.page_type.is_some()) && algorithm.name != "learned" {
            return Err(crate::UsageError(format!(
                "--model and --page-type are for the learned extractor, not {}",
                algorithm.name
            )));
        }
        if let Some(t) = &self.page_type {
            params = params.with("page_type", t);
        }
        if let Some(lines) = self.lines {
            params = crate::with_lines(algorithm, &params, lines).ok_or_else(|| {
                crate::UsageError(format!("--lines: {} does not read source lines", algorithm.name))
            })?;
        }
        Ok((algorithm, params))
    }

    /// The options as the one spec every front end fills
    /// ([`gleaner_batch::JobSpec`]): algorithm, `-p` parameters (`--lines`
    /// among them), `--model`, `--page-type` and the preset.
    ///
    /// # Errors
    /// As [`ExtractorArgs::params`].
    pub fn spec(&self, preset: PresetArgs) -> Result<gleaner_batch::JobSpec, crate::UsageError> {
        use gleaner_batch::{Favor, JobSpec, ParamValue};
        let (_, params) = self.params()?;
        let favor = match (preset.precision, preset.recall) {
            (true, _) => Favor::Precision,
            (_, true) => Favor::Recall,
            _ => Favor::Balanced,
        };
        Ok(JobSpec {
            algorithm: Some(self.algorithm.clone()),
            params: params
                .iter()
                .filter(|(k, _)| *k != "page_type")
                .map(|(k, v)| (k.to_string(), ParamValue::Text(v.to_string())))
                .collect(),
            model: self.model.clone(),
            page_type: self.page_type.clone(),
            favor,
            ..JobSpec::default()
        })
    }

    /// The algorithm and its extractor with the parameters applied, over
    /// the `--precision`/`--recall` preset's (so `-p` overrides them).
    ///
    /// # Errors
    /// As [`ExtractorArgs::params`], a preset for another algorithm than
    /// the default one, and parameters the algorithm rejects.
    pub fn build(
        &self,
        preset: PresetArgs,
    ) -> Result<
        (&'static gleaner::extract::Algorithm, Box<dyn gleaner::extract::Extractor>),
        crate::UsageError,
    > {
        self.spec(preset)?.extractor().map_err(crate::spec_usage)
    }
}

/// `warc -f`: the text format under `extract`'s name for it (`txt`,
/// `markdown`, `html`), or, as before, the container (`jsonl`, `warc`;
/// also `--container`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum WarcFormat {
    /// JSON Lines of plain text (the container; as `--container jsonl`).
    Jsonl,
    /// A WARC of conversion records (the container; as `--container
    /// warc`).
    Warc,
    /// Plain text with paragraph breaks, in JSON Lines unless `--container
    /// warc`.
    Txt,
    /// Markdown (`--links`, `--images` keep links and images).
    Markdown,
    /// A clean HTML fragment.
    Html,
}

/// What `warc` writes the extracted texts into.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum WarcContainer {
    /// One JSON object per HTML record per line: the `extract` keys plus
    /// `url` (WARC-Target-URI) and `date` (WARC-Date).
    Jsonl,
    /// A WARC of `conversion` records: the text, `WARC-Refers-To` the
    /// response's WARC-Record-ID, its WARC-Target-URI and WARC-Date.
    Warc,
}

/// The form of the extracted text in `warc` output.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum TextFormat {
    /// Plain text with paragraph breaks.
    Txt,
    /// Markdown (`--links`, `--images` keep links and images).
    Markdown,
    /// A clean HTML fragment.
    Html,
}

/// What `warc`'s help says after the options.
const WARC_HELP: &str = "Records: only HTML `response` records are extracted (by the HTTP \
Content-Type, or by sniffing the body when there is none); revisit, request, metadata, warcinfo \
and non-HTML responses are skipped and counted in the summary on standard error. The HTTP \
charset wins over the page's <meta charset>, unless the body contradicts it (valid UTF-8 beyond \
ASCII under another charset is UTF-8; a charset=utf-8 over mostly invalid UTF-8 is guessed); \
--encoding wins over both; chunked and gzip/deflate/br bodies are decoded. \
Each record's `source` is FILE#OFFSET: the byte offset of its gzip member (or of the record in \
a plain archive; OFFSET+N for the N-th uncompressed byte of a whole-file gzip member). A page \
that fails is a record with `error`; a corrupt or truncated archive is one record with `error` \
(its source: the offset of the last good record) after its good records, and the batch goes on.

Resume: with -o OUT, each finished input archive (shard) ends a gzip member or zstd frame of \
OUT, OUT is synced, and OUT.manifest.json (the finished shards and OUT's length after each) is \
replaced atomically. --resume truncates OUT to the manifest's length, dropping the records of \
a shard that was cut off, and skips the shards it lists, so a killed run restarted with \
--resume writes every record exactly once. Without --resume, OUT is written from the start.

Exit status: 0 when every archive was read to its end; 1 when one could not be opened or was \
corrupt (its error record is in the output); 2 for a usage error.";

/// Arguments of `warc`.
#[derive(Debug, Args)]
#[command(after_help = WARC_HELP)]
pub struct WarcArgs {
    /// WARC archives: plain, gzipped one member per record (`.warc.gz`),
    /// or gzipped whole; each is a shard of the output.
    #[arg(required = true)]
    pub inputs: Vec<PathBuf>,

    /// The algorithm and its parameters.
    #[command(flatten)]
    pub extractor: ExtractorArgs,

    /// The form of the extracted text, as in `extract` (`txt`, `markdown`,
    /// `html`: the `text` key, or the body of the conversion records); or
    /// the container, as before --container (`jsonl`: txt in JSON Lines,
    /// `warc`: conversion records).
    #[arg(short = 'f', long, value_enum)]
    pub output_format: Option<WarcFormat>,

    /// What the texts are written into: JSON Lines (default) or a WARC of
    /// conversion records.
    #[arg(long, value_enum)]
    pub container: Option<WarcContainer>,

    /// The form of the extracted text (`-f txt|markdown|html` says the
    /// same).
    #[arg(long, value_enum)]
    pub text_format: Option<TextFormat>,

    /// The output file (`.gz` gzips, `.zst` compresses with zstd), with
    /// its manifest OUT.manifest.json beside it. Default: standard output.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,

    /// Skip the archives the manifest of -o lists as finished, after
    /// cutting the output back to its last finished archive.
    #[arg(long, requires = "output")]
    pub resume: bool,

    /// Worker threads (default: all cores; at most 4 per core and 256 in
    /// all, with a warning when more are asked for).
    #[arg(long, value_name = "N")]
    pub parallel: Option<usize>,

    /// Limits on each page's work (`--max-bytes` counts a page after
    /// de-chunking and decoding).
    #[command(flatten)]
    pub limits: LimitArgs,

    /// Template models set aside before extraction.
    #[command(flatten)]
    pub templates: TemplateArgs,

    /// Links and images in Markdown and HTML.
    #[command(flatten)]
    pub render: RenderArgs,

    /// The metadata header, the comments and the preset.
    #[command(flatten)]
    pub content: ContentArgs,

    /// Do not show a progress bar.
    #[arg(long)]
    pub no_progress: bool,
}

/// What `extract`'s exit status says.
const EXTRACT_EXIT_STATUS: &str = "Exit status: 0 when at least one input was extracted; \
1 when every input failed (unreadable, not a regular file, over --max-bytes, not HTML, …); \
2 for a usage error. Each failed input is a line on standard error and, in json and jsonl, \
a record with its `error`; txt, markdown and html print nothing and write no file for it.";

/// Arguments of `extract`.
#[derive(Debug, Args)]
#[command(after_help = EXTRACT_EXIT_STATUS)]
pub struct ExtractArgs {
    /// Input files (`.html`, `.htm`, `.xhtml`, optionally `.gz`); `-` reads
    /// standard input.
    pub inputs: Vec<PathBuf>,

    /// Also read every `.html`, `.htm`, `.xhtml` (and `.gz`) file below
    /// this directory.
    #[arg(long, value_name = "DIR")]
    pub input_dir: Vec<PathBuf>,

    /// A list of URLs to fetch and extract, one a line (blank lines and
    /// lines starting with `#` are skipped; `-` reads standard input),
    /// politely (per-host delay, robots.txt, the address policy); a line
    /// that is not a URL, like a page that fails, is a record with its
    /// error (repeatable).
    #[arg(short = 'i', long = "input-list", value_name = "FILE")]
    pub input_list: Vec<PathBuf>,

    /// The algorithm and its parameters.
    #[command(flatten)]
    pub extractor: ExtractorArgs,

    /// Output format. `json` is one object when the command line names
    /// one page (one file, URL or `-`), and an array of objects when it
    /// can name several (several inputs, --input-dir, -i), however many
    /// pages a folder or list turns out to hold.
    #[arg(short = 'f', long, value_parser = output_format_parser(), default_value = "txt")]
    pub output_format: gleaner_batch::OutputFormat,

    /// Write one file per input into this directory, mirroring relative
    /// names, with the format's extension.
    #[arg(short, long, value_name = "DIR")]
    pub output: Option<PathBuf>,

    /// Worker threads (default: all cores; at most 4 per core and 256 in
    /// all, with a warning when more are asked for).
    #[arg(long, value_name = "N")]
    pub parallel: Option<usize>,

    /// Limits on each page's work.
    #[command(flatten)]
    pub limits: LimitArgs,

    /// Character encoding of the inputs, if known (e.g. `utf-8`,
    /// `windows-1252`); otherwise it is detected per page.
    #[arg(long, value_name = "LABEL")]
    pub encoding: Option<String>,

    /// The page's URL: the base for relative links and images (after the
    /// page's own `<base href>`), and the record's `url`. Pages given as
    /// URLs use the URL they were fetched from.
    #[arg(long, value_name = "URL")]
    pub url: Option<String>,

    /// Links and images in Markdown and HTML.
    #[command(flatten)]
    pub render: RenderArgs,

    /// The metadata header, the comments and the preset.
    #[command(flatten)]
    pub content: ContentArgs,

    /// Do not show a progress bar.
    #[arg(long)]
    pub no_progress: bool,

    /// Template models set aside before extraction.
    #[command(flatten)]
    pub templates: TemplateArgs,

    /// For inputs given as URLs: learn the page's template from the pages
    /// it links to and set it aside before extracting.
    #[arg(long, value_enum, conflicts_with_all = ["template", "site_templates"])]
    pub site_training: Option<SiteTraining>,

    /// With `--site-training links`: most linked pages fetched.
    #[arg(long, value_name = "N", default_value_t = gleaner_crawl::training::DEFAULT_MAX_LINKS)]
    pub max_links: usize,

    /// With `--site-training menu`: pages in the menu's complete
    /// subdigraph (the paper's n).
    #[arg(long, value_name = "N", default_value_t = 4)]
    pub menu_pages: usize,

    /// How URLs are fetched.
    #[command(flatten)]
    pub fetch: FetchArgs,

    /// Where boxes and font sizes come from, for algorithms that read the
    /// page's layout (vce).
    #[command(flatten)]
    pub layout: LayoutArgs,

    /// Corpus filters: length, page type, language, near-duplicates.
    #[command(flatten)]
    pub corpus: CorpusArgs,
}

/// Which layout the visual algorithms read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum LayoutChoice {
    /// Estimated from the HTML alone: no browser needed.
    Heuristic,
    /// Measured by the system's Chromium (headless, offline).
    Browser,
}

/// How pages are laid out for the visual algorithms.
#[derive(Debug, Clone, Args)]
pub struct LayoutArgs {
    /// `heuristic` estimates boxes from the HTML; `browser` renders each
    /// page in headless Chromium, offline, and reads its real boxes.
    #[arg(long, value_enum, value_name = "KIND", default_value_t = LayoutChoice::Heuristic)]
    pub layout: LayoutChoice,

    /// With `--layout browser`: run the page's inline scripts (off by
    /// default; nothing is ever fetched from the network either way).
    #[arg(long)]
    pub layout_scripts: bool,

    /// With `--layout browser`: seconds a page may take to lay out.
    #[arg(long, value_name = "SECS", default_value_t = 20)]
    pub layout_timeout_secs: u64,
}

/// Where pages given as URLs come from, and how they are fetched.
#[derive(Debug, Clone, Args)]
pub struct FetchArgs {
    /// Read URLs offline: a folder served as the site (the URL's
    /// `scheme://host/` is the folder), or a WARC file of an earlier crawl.
    #[arg(long, value_name = "DIR|FILE")]
    pub source: Option<PathBuf>,

    /// The User-Agent header for URLs; its first word is the name
    /// robots.txt rules are matched against.
    #[arg(long, value_name = "S", default_value = gleaner_crawl::DEFAULT_USER_AGENT)]
    pub user_agent: String,

    /// Longest time for one page's fetch, every redirect hop included,
    /// in seconds (robots.txt, fetched once per site, has as long again).
    #[arg(long, value_name = "N", default_value_t = 30)]
    pub timeout_secs: u64,

    /// Least time between two requests to one host, in milliseconds.
    #[arg(long, value_name = "N", default_value_t = 200)]
    pub delay_ms: u64,

    /// Longest time for all fetching of the command, in seconds, fetches
    /// under way included (0: no limit). With --site-training, running
    /// out ends the training with the pages it has; the page is still
    /// extracted.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub max_time_secs: u64,

    /// Which addresses may be fetched, and how long a host may ask to wait.
    #[command(flatten)]
    pub network: NetworkArgs,
}

/// Which addresses fetches may reach, and how long a host may ask them to
/// wait (`extract`, `template extract`, `crawl`).
#[derive(Debug, Clone, Args)]
pub struct NetworkArgs {
    /// Fetch from loopback, private and link-local addresses too
    /// (127.0.0.0/8, ::1, 10/8, 172.16/12, 192.168/16, fc00::/7,
    /// 169.254/16, fe80::/10, …): for an intranet or a server on this
    /// machine. Cloud metadata endpoints (169.254.169.254, fd00:ec2::254,
    /// …), 0.0.0.0, multicast and reserved addresses are never fetched.
    #[arg(long)]
    pub allow_private_addresses: bool,

    /// Allow loopback, private and link-local addresses for this origin
    /// only (scheme, host and port: `http://127.0.0.1:8080`), repeatable:
    /// a local server or one intranet site, while links and redirects to
    /// other ports and hosts of the network stay refused.
    #[arg(long, value_name = "URL")]
    pub allow_private_origin: Vec<String>,

    /// Longest `Retry-After` of a 429 or 503 answer that is waited for, in
    /// seconds (the page is then asked again, at most twice); a host that
    /// asks for longer is not asked again until that time has passed.
    #[arg(long, value_name = "N", default_value_t = 60)]
    pub max_retry_after_secs: u64,
}

impl NetworkArgs {
    /// The address policy these flags ask for.
    ///
    /// # Errors
    /// An `--allow-private-origin` that is not an http(s) URL with a host.
    pub fn policy(&self) -> Result<gleaner_crawl::AddressPolicy, UsageError> {
        let mut policy =
            gleaner_crawl::AddressPolicy::default().allow_private(self.allow_private_addresses);
        for origin in &self.allow_private_origin {
            match gleaner_crawl::Url::parse(origin) {
                Ok(url) if matches!(url.scheme(), "http" | "https") && url.has_host() => {
                    policy = policy.allow_private_origin(&url);
                }
                _ => {
                    return Err(UsageError(format!(
                        "--allow-private-origin {origin}: not an http(s) URL with a host"
                    )))
                }
            }
        }
        Ok(policy)
    }
}

/// How `--site-training` learns a page's template from its links.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SiteTraining {
    /// Gottron: fetch the linked pages, cluster them by structure (CP),
    /// learn the key page's cluster's template text.
    Links,
    /// Alarte et al.: load linked pages until the menu's complete
    /// subdigraph is found; the template is what maps into all of them.
    Menu,
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

    /// Comma-separated metrics: lcs, edr, shingle, word (WCXB's bag of
    /// words, with its snippet rates), or all.
    #[arg(long, value_name = "LIST", default_value = "all")]
    pub metric: String,

    /// Output format.
    #[arg(long, value_enum, default_value_t = EvalFormat::Md)]
    pub format: EvalFormat,

    /// Worker threads (default: all cores; at most 4 per core and 256 in
    /// all).
    #[arg(long, value_name = "N")]
    pub parallel: Option<usize>,

    /// Limits on each page's work.
    #[command(flatten)]
    pub limits: LimitArgs,

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

    /// Score the default extractor with a preset (`--precision` or
    /// `--recall`, as for `extract`); its rows are labelled
    /// `article+precision` / `article+recall`.
    #[command(flatten)]
    pub preset: PresetArgs,

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

    /// The learned extractor's model to score (from `gleaner train`),
    /// instead of the compiled-in one: `learned` rows are labelled
    /// `learned@STEM`.
    #[arg(long, value_name = "FILE")]
    pub model: Option<PathBuf>,

    /// Also break every dataset's rows down by the pages' labelled type
    /// (WCXB): rows `DATASET/TYPE`, left out of the macro average.
    #[arg(long, value_enum, value_name = "WHAT")]
    pub by: Option<EvalBy>,

    /// Do not show a progress bar.
    #[arg(long)]
    pub no_progress: bool,

    /// With --sweep: draw precision and recall against the parameter
    /// (macro average over datasets) into this SVG file.
    #[arg(long, value_name = "FILE", requires = "sweep")]
    pub plot: Option<PathBuf>,

    /// Also score every algorithm with site templates: each dataset's
    /// pages are clustered by template, a model is learned per cluster,
    /// and `NAME+templates` rows run NAME with its page's model (the
    /// `entropy` algorithm runs only this way).
    #[arg(long)]
    pub site_templates: bool,

    /// How --site-templates clusters.
    #[command(flatten)]
    pub clustering: ClusteringArgs,

    /// Where boxes and font sizes come from, for algorithms that read the
    /// page's layout (vce). With `browser`, every page is laid out once by
    /// headless Chromium before the algorithms run, and algorithm rows are
    /// labelled `NAME+browser`.
    #[command(flatten)]
    pub layout: LayoutArgs,
}

/// What `extract` and `warc` put around and into the main content.
#[derive(Debug, Clone, Copy, Args)]
pub struct ContentArgs {
    /// Open txt and Markdown text with a metadata header (title, author,
    /// url, hostname, description, sitename, date, categories, tags)
    /// between `---` lines, as trafilatura does (`warc`: the text of
    /// conversion records and Markdown `text`; JSON records carry the
    /// metadata keys anyway).
    #[arg(long)]
    pub with_metadata: bool,

    /// Extract the page's comment section apart: the `comments` key in
    /// JSON, and after the main content under a "Comments" separator in
    /// txt, markdown and html output and in conversion records. The main
    /// content never holds the comments.
    #[arg(long)]
    pub comments: bool,

    /// Move the default extractor towards precision or recall.
    #[command(flatten)]
    pub preset: PresetArgs,
}

/// `--precision` / `--recall`: presets over the default extractor's
/// parameters (`gleaner::extract::preset`).
#[derive(Debug, Clone, Copy, Args)]
pub struct PresetArgs {
    /// Keep fewer doubtful blocks (the default extractor, `article`,
    /// only): stricter link and sibling rules. `-p` values override it.
    #[arg(long, conflicts_with = "recall")]
    pub precision: bool,

    /// Keep more doubtful blocks (the default extractor, `article`,
    /// only): looser link and sibling rules, more secondary containers.
    #[arg(long)]
    pub recall: bool,
}

impl PresetArgs {
    /// The preset asked for, if any.
    pub fn preset(self) -> Option<gleaner::extract::preset::Preset> {
        use gleaner::extract::preset::Preset;
        match (self.precision, self.recall) {
            (true, _) => Some(Preset::Precision),
            (_, true) => Some(Preset::Recall),
            _ => None,
        }
    }

    /// `params` with the preset's assignments first (so `-p` overrides
    /// them), for `algorithm`; a usage error when a preset is asked for
    /// another algorithm than the default one.
    pub fn apply(
        self,
        algorithm: &str,
        params: gleaner::extract::Params,
    ) -> Result<gleaner::extract::Params, crate::UsageError> {
        let Some(preset) = self.preset() else { return Ok(params) };
        gleaner_batch::with_preset(preset, algorithm, &params).ok_or_else(|| {
            crate::spec_usage(gleaner_batch::SpecError::Favor {
                favor: preset.name(),
                algorithm: algorithm.to_string(),
            })
        })
    }
}

/// Arguments of `inspect`.
#[derive(Debug, Args)]
pub struct InspectArgs {
    /// The page (`.html`, optionally gzipped); `-` reads standard input.
    pub input: PathBuf,

    /// The algorithm and its parameters (ttr, ttr-*, cetr, ccb, accb and
    /// tccb have a curve).
    #[command(flatten)]
    pub extractor: ExtractorArgs,

    /// Where to write the report (default: standard output).
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,

    /// Limits on each page's work.
    #[command(flatten)]
    pub limits: LimitArgs,
}

/// Arguments of `blocks`.
#[derive(Debug, Args)]
pub struct BlocksArgs {
    /// The page (`.html`, optionally gzipped); `-` reads standard input.
    pub input: PathBuf,

    /// `json`: the block tree with specification vectors and scores;
    /// `html`: the blocks drawn as boxes, coloured by score.
    #[arg(long, value_enum, default_value_t = BlocksFormat::Json)]
    pub format: BlocksFormat,

    /// A parameter of vce, as key=value (repeatable).
    #[arg(short, long = "param", value_name = "KEY=VALUE")]
    pub params: Vec<String>,

    /// Where to write the output (default: standard output).
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,

    /// Limits on each page's work.
    #[command(flatten)]
    pub limits: LimitArgs,

    /// How the page is laid out.
    #[command(flatten)]
    pub layout: LayoutArgs,
}

/// Output formats of `blocks`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum BlocksFormat {
    /// The block tree as JSON.
    Json,
    /// A self-contained HTML page drawing the blocks.
    Html,
}

/// Arguments of `crawl`.
#[derive(Debug, Args)]
pub struct CrawlArgs {
    /// The start page. With `--source DIR` a path (`index.html`) is read
    /// as `http://localhost/PATH`.
    pub url: String,

    /// Most pages fetched.
    #[arg(long, value_name = "N", default_value_t = 100)]
    pub max_pages: usize,

    /// Largest page body in bytes, after content decoding (at most 1
    /// GiB); larger pages are skipped unread.
    #[arg(long, value_name = "N", default_value_t = 10 << 20)]
    pub max_bytes: u64,

    /// Least time between two requests to one host, in milliseconds.
    #[arg(long, value_name = "N", default_value_t = 500)]
    pub delay_ms: u64,

    /// Longest time for one page's fetch, every redirect hop included
    /// (connect, headers, body), in seconds; robots.txt, fetched once per
    /// site, has as long again.
    #[arg(long, value_name = "N", default_value_t = 30)]
    pub timeout_secs: u64,

    /// The crawl ends after this many seconds, fetches under way
    /// included.
    #[arg(long, value_name = "N", default_value_t = 600)]
    pub max_time_secs: u64,

    /// Pages fetched at once.
    #[arg(long, value_name = "N", default_value_t = 2)]
    pub concurrency: usize,

    /// The User-Agent header; its first word is the name robots.txt
    /// rules are matched against.
    #[arg(long, value_name = "S", default_value = gleaner_crawl::DEFAULT_USER_AGENT)]
    pub user_agent: String,

    /// Follow links (and redirects) to other hosts too.
    #[arg(long)]
    pub all_hosts: bool,

    /// Seed the crawl with the site's sitemaps (those robots.txt names,
    /// else /sitemap.xml; indexes and gzip followed), after the start
    /// page. Live sites only (not with --source).
    #[arg(long, conflicts_with = "source")]
    pub sitemap: bool,

    /// Follow what pages ask crawlers not to: `rel=nofollow` (`ugc`,
    /// `sponsored`) links and the links of `<meta name=robots
    /// content=nofollow>` pages.
    #[arg(long)]
    pub follow_nofollow: bool,

    /// Which addresses may be fetched, and how long a host may ask to wait.
    #[command(flatten)]
    pub network: NetworkArgs,

    /// Crawl offline: a folder served as the site (the start URL's
    /// `scheme://host/` is the folder), or a WARC file to replay.
    #[arg(long, value_name = "DIR|FILE")]
    pub source: Option<PathBuf>,

    /// Write the pages as WARC request/response records (gzipped, one
    /// member per record, when the name ends in `.gz`).
    #[arg(short, long, value_name = "FILE.warc.gz")]
    pub output: Option<PathBuf>,
}

/// The help heading of [`CorpusArgs`].
const CORPUS: &str = "Corpus filters (in input order; what is left out is counted)";

/// Corpus filters of a batch (issue 36).
#[derive(Debug, Clone, Args)]
#[command(next_help_heading = CORPUS)]
pub struct CorpusArgs {
    /// Leave out records with fewer words of text.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub min_words: usize,

    /// Leave out records with fewer non-space characters of text.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub min_chars: usize,

    /// Keep only pages of these types (comma-separated: article, forum,
    /// product, collection, listing, documentation, service, other).
    #[arg(long, value_name = "TYPES", value_delimiter = ',')]
    pub keep_page_types: Vec<String>,

    /// Keep only articles (`is_article`): `--keep-page-types article`.
    #[arg(long)]
    pub articles_only: bool,

    /// Keep only texts in these languages (ISO 639-1, comma-separated),
    /// detected from the text (else as the page declares): others are
    /// records with the error `language`, or left out with
    /// --skip-other-languages.
    #[arg(long, value_name = "xx[,yy]", value_delimiter = ',')]
    pub target_language: Vec<String>,

    /// With --target-language: leave records in other languages out.
    #[arg(long, requires = "target_language")]
    pub skip_other_languages: bool,

    /// Leave out near-duplicate documents: a record whose `fingerprint`
    /// is within 3 bits of an earlier kept record's.
    #[arg(long)]
    pub dedup_documents: bool,

    /// Drop paragraphs of the text that earlier records of the batch
    /// already had --max-repetitions times (boilerplate repeated across a
    /// site's pages). Text outputs: txt, json, jsonl, csv.
    #[arg(long)]
    pub deduplicate: bool,

    /// With --deduplicate: how many earlier records may have a paragraph
    /// before it is dropped.
    #[arg(long, value_name = "N", default_value_t = 2, requires = "deduplicate")]
    pub max_repetitions: usize,
}

impl CorpusArgs {
    /// The batch filter these flags ask for.
    ///
    /// # Errors
    /// An unknown page type or a language that is not two letters.
    pub fn filter(&self) -> Result<gleaner_batch::corpus::CorpusFilter, UsageError> {
        const TYPES: [&str; 8] = [
            "article",
            "forum",
            "product",
            "collection",
            "listing",
            "documentation",
            "service",
            "other",
        ];
        let mut types: Vec<String> =
            self.keep_page_types.iter().map(|t| t.trim().to_ascii_lowercase()).collect();
        if self.articles_only {
            types.push("article".into());
        }
        if let Some(bad) = types.iter().find(|t| !TYPES.contains(&t.as_str())) {
            return Err(UsageError(format!(
                "--keep-page-types {bad}: one of {}",
                TYPES.join(", ")
            )));
        }
        let languages: Vec<String> =
            self.target_language.iter().map(|l| l.trim().to_ascii_lowercase()).collect();
        if let Some(bad) =
            languages.iter().find(|l| l.len() != 2 || !l.bytes().all(|b| b.is_ascii_lowercase()))
        {
            return Err(UsageError(format!(
                "--target-language {bad}: give ISO 639-1 codes such as en or de"
            )));
        }
        Ok(gleaner_batch::corpus::CorpusFilter::new(gleaner_batch::corpus::CorpusRules {
            min_words: self.min_words,
            min_chars: self.min_chars,
            page_types: types,
            languages,
            skip_other_languages: self.skip_other_languages,
            dedup_documents: self.dedup_documents,
            max_repetitions: if self.deduplicate { self.max_repetitions.max(1) } else { 0 },
        }))
    }
}

/// Arguments of `links`.
#[derive(Debug, Args)]
pub struct LinksArgs {
    /// The site (any page of it) for `--sitemap`; the feed, or a page that
    /// announces feeds, for `--feed`.
    pub url: String,

    /// The URLs of the site's sitemaps: those `robots.txt` names, else
    /// `/sitemap.xml`; sitemap indexes are followed, gzipped or not.
    #[arg(long)]
    pub sitemap: bool,

    /// The item URLs of a feed (RSS or Atom): the URL itself, or the
    /// feeds the page at the URL announces (`<link rel=alternate>`).
    #[arg(long)]
    pub feed: bool,

    /// Keep only URLs matching this regular expression.
    #[arg(long, value_name = "REGEX")]
    pub url_filter: Option<String>,

    /// Keep URLs of other hosts too (by default only the URL's host).
    #[arg(long)]
    pub all_hosts: bool,

    /// Most URLs printed.
    #[arg(long, value_name = "N", default_value_t = 100_000)]
    pub max_urls: usize,

    /// Largest sitemap or feed in bytes, after content decoding.
    #[arg(long, value_name = "N", default_value_t = 50 << 20)]
    pub max_bytes: u64,

    /// Longest time for one file's fetch, in seconds.
    #[arg(long, value_name = "N", default_value_t = 30)]
    pub timeout_secs: u64,

    /// The whole discovery ends after this many seconds.
    #[arg(long, value_name = "N", default_value_t = 300)]
    pub max_time_secs: u64,

    /// Least time between two requests to one host, in milliseconds.
    #[arg(long, value_name = "N", default_value_t = 200)]
    pub delay_ms: u64,

    /// The User-Agent header.
    #[arg(long, value_name = "S", default_value = gleaner_crawl::DEFAULT_USER_AGENT)]
    pub user_agent: String,

    /// Which addresses may be fetched.
    #[command(flatten)]
    pub network: NetworkArgs,
}

/// The help heading of [`LimitArgs`].
const LIMITS: &str = "Limits per page";

/// Limits on one page's work: `docs/limits.md`.
/// Defaults are [`ParseOptions::default`]'s.
#[derive(Debug, Clone, Args)]
pub struct LimitArgs {
    /// Largest page accepted, in bytes, after gzip decompression (at most
    /// 1 GiB); larger pages fail.
    #[arg(long, help_heading = LIMITS, value_name = "BYTES", default_value_t = ParseOptions::default().max_bytes)]
    pub max_bytes: usize,

    /// Most elements the parser holds open; deeper start tags are ignored
    /// with their end tags (Chromium's limit is 512).
    #[arg(long, help_heading = LIMITS, value_name = "N", default_value_t = ParseOptions::default().max_nesting)]
    pub max_nesting: usize,

    /// Most formatting elements (`b`, `i`, `a`, `font`, …) held open;
    /// further ones are ignored, their text kept.
    #[arg(long, help_heading = LIMITS, value_name = "N", default_value_t = ParseOptions::default().max_formatting)]
    pub max_formatting: usize,

    /// Most elements in a page's tree; a page that would make more fails.
    #[arg(long, help_heading = LIMITS, value_name = "N", default_value_t = ParseOptions::default().max_elements)]
    pub max_elements: usize,

    /// Most memory a page may need, as a multiple of its size above a
    /// fixed 24 MiB: a page whose markup is denser than that admits (many
    /// megabytes of `<p>x</p>`) fails. Real pages need 4 to 8. 0: no
    /// limit.
    #[arg(long, help_heading = LIMITS, value_name = "F", default_value_t = ParseOptions::default().max_memory_factor)]
    pub max_memory_factor: usize,

    /// Most attributes of one element; further ones are dropped.
    #[arg(long, help_heading = LIMITS, value_name = "N", default_value_t = ParseOptions::default().max_attributes)]
    pub max_attributes: usize,

    /// Most time one page may take from parse to extraction, in
    /// milliseconds; a page out of time fails with a record that says so.
    /// 0: no limit.
    #[arg(
        long,
        help_heading = LIMITS,
        value_name = "MS",
        default_value_t = gleaner::document::DEFAULT_TIME_BUDGET.as_millis() as u64
    )]
    pub time_budget_ms: u64,

    /// Which tree builder parses pages: gleaner's own (the default) or
    /// html5ever's (hidden, for measuring issue 12).
    #[arg(long, hide = true, value_enum, default_value_t = TreeBuilderArg::Own)]
    pub tree_builder: TreeBuilderArg,
}

/// The values of `--tree-builder`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum TreeBuilderArg {
    /// html5ever's tree builder.
    Html5ever,
    /// gleaner's own.
    Own,
}

impl Default for LimitArgs {
    fn default() -> LimitArgs {
        let p = ParseOptions::default();
        LimitArgs {
            max_bytes: p.max_bytes,
            max_nesting: p.max_nesting,
            max_formatting: p.max_formatting,
            max_elements: p.max_elements,
            max_memory_factor: p.max_memory_factor,
            max_attributes: p.max_attributes,
            time_budget_ms: p.time_budget.map_or(0, |b| b.as_millis() as u64),
            tree_builder: TreeBuilderArg::Own,
        }
    }
}

impl LimitArgs {
    /// The parse options these limits make.
    ///
    /// # Errors
    /// `--max-bytes` above 1 GiB, or a zero nesting or element limit.
    pub fn parse_options(&self) -> Result<ParseOptions, UsageError> {
        crate::max_bytes(self.max_bytes)?;
        if self.max_nesting == 0 || self.max_elements == 0 {
            return Err(UsageError("--max-nesting and --max-elements must be at least 1".into()));
        }
        let budget = (self.time_budget_ms > 0)
            .then(|| std::time::Duration::from_millis(self.time_budget_ms));
        Ok(ParseOptions::default()
            .max_bytes(self.max_bytes)
            .max_nesting(self.max_nesting)
            .max_formatting(self.max_formatting)
            .max_elements(self.max_elements)
            .max_memory_factor(self.max_memory_factor)
            .max_attributes(self.max_attributes)
            .time_budget(budget)
            .tree_builder(match self.tree_builder {
                TreeBuilderArg::Html5ever => gleaner::TreeBuilderKind::Html5ever,
                TreeBuilderArg::Own => gleaner::TreeBuilderKind::Own,
            }))
    }
}

/// `gleaner train --policies`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum PolicyArg {
    /// Chosen on the held-out pages of --cv.
    Chosen,
    /// The same whatever the held-out pages say.
    Fixed,
}

impl PolicyArg {
    /// The trainer's rule.
    pub fn rule(self) -> gleaner_eval::train::PolicyRule {
        match self {
            PolicyArg::Chosen => gleaner_eval::train::PolicyRule::Chosen,
            PolicyArg::Fixed => gleaner_eval::train::PolicyRule::Fixed,
        }
    }
}
