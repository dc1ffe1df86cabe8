//! Dataset readers: a folder of web pages with their gold main content,
//! turned into [`Page`]s of raw HTML bytes and gold plain text.
//!
//! Two layouts are read:
//!
//! * the **plain layout** of the WCEB component datasets: `input/ID.html`
//!   (the page) and `GoldStandard/ID.txt` (its truth). Only ids present in
//!   both folders count. The gold format is told by the folder name
//!   (`cleaneval*`, `cleanportaleval`, `dragnet`, `l3s*`, `readability`)
//!   and otherwise sniffed from the first non-empty gold file;
//! * the **ScrapingHub layout** of the Article Extraction Benchmark:
//!   `html/ID.html.gz` (gzip) and one `ground-truth.json` mapping
//!   `{ID: {"articleBody": text, "url": url}}`.
//!
//! Every gold format becomes plain text in one shape: one block
//! (paragraph, heading, list item, annotated text block) after another,
//! separated by a blank line, with whitespace inside a block collapsed to
//! single spaces. See [`GoldFormat`] for what each format contributes.
//!
//! Input HTML is returned as raw bytes for [`Document::parse`], except
//! that CleanEval's `<text id="URL" title="…" encoding="…">` wrapper line
//! (and its closing `</text>`) is removed wherever a page starts with it
//! (see [`strip_text_wrapper`]): it is an artefact of how CleanEval stored
//! the pages, not part of them.
//!
//! ```no_run
//! use gleaner_eval::dataset::Dataset;
//! let data = Dataset::open("data/wceb/cleaneval-final".as_ref())?;
//! for page in data.pages() {
//!     let page = page?;
//!     println!("{} {} bytes, {} gold chars", page.id, page.html.len(), page.gold.len());
//! }
//! # Ok::<(), gleaner_eval::Error>(())
//! ```

use std::cmp::Ordering;
use std::collections::{HashMap, HashSet};
use std::fmt;
use std::fs;
use std::path::{Path, PathBuf};

use encoding_rs::WINDOWS_1252;

use crate::error::{Error, Result};
use gleaner::document::{decode_entities, Document, NodeFlags, NodeId, ParseOptions};
use gleaner::render;
use gleaner::Selection;

/// One page of a dataset.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Page {
    /// The page's id: the file stem (plain layout) or the JSON key
    /// (ScrapingHub layout).
    pub id: String,
    /// The raw HTML bytes, undecoded, with CleanEval's `<text>` wrapper
    /// removed.
    pub html: Vec<u8>,
    /// The gold main content as plain text: blocks separated by a blank
    /// line.
    pub gold: String,
    /// The page's URL, if the dataset records it.
    pub url: Option<String>,
    /// What else the dataset says of the page (WCXB: its type, snippets
    /// and metadata); empty for the other layouts.
    pub labels: PageLabels,
}

/// What a dataset says of a page beyond its gold text: WCXB's page type,
/// its must-have and must-not-have snippets and its metadata.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PageLabels {
    /// The page type (`article`, `forum`, `product`, `collection`,
    /// `listing`, `documentation`, `service`), when labelled.
    pub page_type: Option<String>,
    /// Snippets a correct extraction contains.
    pub with: Vec<String>,
    /// Boilerplate snippets a correct extraction leaves out.
    pub without: Vec<String>,
    /// The gold title.
    pub title: Option<String>,
    /// The gold author.
    pub author: Option<String>,
    /// The gold publication date.
    pub date: Option<String>,
}

/// The page types WCXB labels, in its order.
pub const PAGE_TYPES: [&str; 7] =
    ["article", "forum", "product", "collection", "listing", "documentation", "service"];

/// How a dataset writes its gold main content.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum GoldFormat {
    /// CleanEval 2007 (also CleanPortalEval): a first line `URL: …`, then
    /// text in which `<p>`, `<h>` and `<l>` start a paragraph, heading or
    /// list item, with HTML entities escaped. The markers are removed, each
    /// starts a block, blank lines end one, and entities are decoded.
    CleanEval,
    /// Dragnet (Peters & Lecocq 2013): plain text, the "Corrected" files.
    /// A line `!@#$%^&*()  COMMENTS` (the files spell it in several ways)
    /// separates the article from the user comments after it; the
    /// comments are cut off, since WCEB's truth excludes them.
    Dragnet,
    /// L3S-GN1 (Kohlschütter et al. 2010): the annotated page as HTML, text
    /// blocks wrapped in elements of class `x-nc-selN` (0 not content, 1
    /// headline, 2 full text, 3 supplemental, 4 related content, 5
    /// comments). The truth is the visible text whose nearest labelled
    /// element is of class 1, 2 or 3, in document order, one block per
    /// labelled element; nested labels override outer ones, so no text is
    /// counted twice.
    L3s,
    /// Mozilla Readability's `expected.html`: an HTML fragment whose text
    /// is the truth.
    Readability,
    /// Plain text; lines are kept, runs of blank lines become one.
    PlainText,
    /// The ScrapingHub Article Extraction Benchmark: `articleBody` of
    /// `ground-truth.json`, plain text.
    ScrapingHub,
    /// WCXB (Foley 2026): `ground_truth.main_content` of
    /// `ground-truth/ID.json`, plain text.
    Wcxb,
}

impl GoldFormat {
    /// A short lower-case name: `cleaneval`, `dragnet`, `l3s`,
    /// `readability`, `plain` or `scrapinghub`.
    pub fn name(self) -> &'static str {
        match self {
            GoldFormat::CleanEval => "cleaneval",
            GoldFormat::Dragnet => "dragnet",
            GoldFormat::L3s => "l3s",
            GoldFormat::Readability => "readability",
            GoldFormat::PlainText => "plain",
            GoldFormat::ScrapingHub => "scrapinghub",
            GoldFormat::Wcxb => "wcxb",
        }
    }

    /// The format a dataset folder name announces, if any: `cleaneval*`
    /// and `cleanportaleval*` are CleanEval, `dragnet*` Dragnet, `l3s*`
    /// L3S-GN1, `readability*` Readability (case-insensitive).
    pub fn from_folder_name(name: &str) -> Option<GoldFormat> {
        let name = name.to_ascii_lowercase();
        let prefixes = [
            ("cleaneval", GoldFormat::CleanEval),
            ("cleanportaleval", GoldFormat::CleanEval),
            ("dragnet", GoldFormat::Dragnet),
            ("l3s", GoldFormat::L3s),
            ("readability", GoldFormat::Readability),
        ];
        prefixes.iter().find(|(p, _)| name.starts_with(p)).map(|&(_, f)| f)
    }

    /// Guesses the format from one gold file's content: a first non-blank
    /// line `URL: …` is CleanEval, `x-nc-sel` classes are L3S-GN1, text
    /// that starts with a tag is a Readability-like HTML fragment, and
    /// anything else is plain text.
    pub fn sniff(raw: &[u8]) -> GoldFormat {
        let text = decode_text(raw);
        let trimmed = text.trim_start();
        if trimmed.starts_with("URL:") {
            GoldFormat::CleanEval
        } else if text.contains("x-nc-sel") {
            GoldFormat::L3s
        } else if looks_like_html(trimmed) {
            GoldFormat::Readability
        } else {
            GoldFormat::PlainText
        }
    }

    /// Converts one raw gold file to plain text, and returns the URL it
    /// records (CleanEval only). Bytes are decoded as UTF-8 (a BOM is
    /// dropped) and, if they are not valid UTF-8, as windows-1252.
    ///
    /// # Errors
    /// [`gleaner::Error::TooLarge`] (as [`Error::Core`]) for HTML gold files (L3S-GN1, Readability)
    /// larger than [`ParseOptions::max_bytes`]; the text formats never
    /// fail.
    ///
    /// ```
    /// use gleaner_eval::dataset::GoldFormat;
    /// let raw = b"URL: http://example.com/\n<h>Title\n<p>First &amp; only\nparagraph.";
    /// let (gold, url) = GoldFormat::CleanEval.convert(raw)?;
    /// assert_eq!(gold, "Title\n\nFirst & only paragraph.");
    /// assert_eq!(url.as_deref(), Some("http://example.com/"));
    /// # Ok::<(), gleaner_eval::Error>(())
    /// ```
    pub fn convert(self, raw: &[u8]) -> Result<(String, Option<String>)> {
        let text = decode_text(raw);
        Ok(match self {
            GoldFormat::CleanEval => cleaneval_gold(&text),
            GoldFormat::Dragnet => (plain_gold(cut_dragnet_comments(&text)), None),
            GoldFormat::L3s => (l3s_gold(&text)?, None),
            GoldFormat::Readability => (html_gold(&text)?, None),
            GoldFormat::PlainText | GoldFormat::ScrapingHub | GoldFormat::Wcxb => {
                (plain_gold(&text), None)
            }
        })
    }
}

impl fmt::Display for GoldFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A dataset folder: its name, layout, gold format and the ids of its
/// pages in a stable (natural) order.
#[derive(Debug, Clone)]
pub struct Dataset {
    name: String,
    parse: ParseOptions,
    unpaired: Unpaired,
    root: PathBuf,
    format: GoldFormat,
    ids: Vec<String>,
    layout: Layout,
}

/// Files of a dataset folder that have no partner, so are not pages of
/// the dataset: front ends say so rather than skip them silently.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Unpaired {
    /// Page files without a gold file (or `ground-truth.json` entry).
    pub pages_without_gold: usize,
    /// Gold files (or `ground-truth.json` entries) without a page file.
    pub gold_without_pages: usize,
    /// Page or gold files whose names are not UTF-8: ids are text, so
    /// these cannot be paired.
    pub names_not_utf8: usize,
}

#[derive(Debug, Clone)]
enum Layout {
    /// `input/ID.html` + `GoldStandard/ID.txt`.
    Plain,
    /// `html/ID.html.gz` + `ground-truth.json`, read at open.
    ScrapingHub(HashMap<String, ShEntry>),
    /// WCXB: `html/ID.html.gz` + `ground-truth/ID.json`, read at open.
    Wcxb(HashMap<String, WcxbEntry>),
}

#[derive(Debug, Clone)]
struct WcxbEntry {
    main_content: String,
    url: Option<String>,
    labels: PageLabels,
}

#[derive(Debug, Clone)]
struct ShEntry {
    body: Option<String>,
    url: Option<String>,
}

const INPUT_DIR: &str = "input";
const GOLD_DIR: &str = "GoldStandard";
const SH_HTML_DIR: &str = "html";
const SH_TRUTH: &str = "ground-truth.json";
const WCXB_TRUTH_DIR: &str = "ground-truth";
/// The split a WCXB folder holds its pages in, when opened at its root.
const WCXB_SPLIT: &str = "dev";

impl Dataset {
    /// Opens a dataset folder: detects the layout and the gold format and
    /// lists the pages that have both an input and a gold file. Pages are
    /// only read by [`Dataset::load`].
    ///
    /// # Errors
    /// [`Error::Dataset`] if the folder has neither layout, a folder or
    /// `ground-truth.json` cannot be read, or `ground-truth.json` is not a
    /// JSON object.
    pub fn open(dir: &Path) -> Result<Dataset> {
        let name = folder_name(dir);
        if dir.join(SH_TRUTH).is_file() && dir.join(SH_HTML_DIR).is_dir() {
            return Dataset::open_scrapinghub(dir, name);
        }
        if dir.join(WCXB_TRUTH_DIR).is_dir() && dir.join(SH_HTML_DIR).is_dir() {
            // Opened at its split folder (`wcxb-dev/dev`): named after
            // the benchmark's folder.
            let name = match dir.parent().filter(|_| name == WCXB_SPLIT || name == "test") {
                Some(parent) => folder_name(parent),
                None => name,
            };
            return Dataset::open_wcxb(dir, name);
        }
        let split = dir.join(WCXB_SPLIT);
        if split.join(WCXB_TRUTH_DIR).is_dir() && split.join(SH_HTML_DIR).is_dir() {
            return Dataset::open_wcxb(&split, name);
        }
        let (input, gold) = (dir.join(INPUT_DIR), dir.join(GOLD_DIR));
        if !input.is_dir() || !gold.is_dir() {
            return Err(Error::Dataset(format!(
                "{}: no {INPUT_DIR}/ and {GOLD_DIR}/ folders, nor {SH_HTML_DIR}/ and {SH_TRUTH}",
                dir.display()
            )));
        }
        let (inputs, bad_inputs) = stems(&input, ".html")?;
        let (golds, bad_golds) = stems(&gold, ".txt")?;
        let golds: HashSet<String> = golds.into_iter().collect();
        let files = inputs.len();
        let mut ids: Vec<String> = inputs.into_iter().filter(|id| golds.contains(id)).collect();
        let unpaired = Unpaired {
            pages_without_gold: files - ids.len(),
            gold_without_pages: golds.len() - ids.len(),
            names_not_utf8: bad_inputs + bad_golds,
        };
        sort_naturally(&mut ids);
        let format = match GoldFormat::from_folder_name(&name) {
            Some(format) => format,
            None => sniff_folder(&gold, &ids),
        };
        Ok(Dataset {
            name,
            parse: ParseOptions::default(),
            unpaired,
            root: dir.to_path_buf(),
            format,
            ids,
            layout: Layout::Plain,
        })
    }

    fn open_scrapinghub(dir: &Path, name: String) -> Result<Dataset> {
        let path = dir.join(SH_TRUTH);
        let bytes = fs::read(&path).map_err(|e| io_error(&path, e))?;
        let json: serde_json::Value = serde_json::from_slice(&bytes)
            .map_err(|e| Error::Dataset(format!("{}: {e}", path.display())))?;
        let serde_json::Value::Object(map) = json else {
            return Err(Error::Dataset(format!("{}: not a JSON object", path.display())));
        };
        let mut truth = HashMap::with_capacity(map.len());
        for (id, entry) in map {
            let field = |key: &str| entry.get(key).and_then(|v| v.as_str()).map(str::to_owned);
            truth.insert(id, ShEntry { body: field("articleBody"), url: field("url") });
        }
        let html_dir = dir.join(SH_HTML_DIR);
        let (mut ids, bad_gz) = stems(&html_dir, ".html.gz")?;
        let (plain, bad_plain) = stems(&html_dir, ".html")?;
        ids.extend(plain);
        sort_naturally(&mut ids);
        ids.dedup();
        let files = ids.len();
        ids.retain(|id| truth.contains_key(id));
        let unpaired = Unpaired {
            pages_without_gold: files - ids.len(),
            gold_without_pages: truth.len() - ids.len(),
            names_not_utf8: bad_gz + bad_plain,
        };
        Ok(Dataset {
            name,
            parse: ParseOptions::default(),
            unpaired,
            root: dir.to_path_buf(),
            format: GoldFormat::ScrapingHub,
            ids,
            layout: Layout::ScrapingHub(truth),
        })
    }

    /// WCXB's layout: every `ground-truth/ID.json` is read here (their
    /// `ground_truth.main_content`, `with`, `without`, `title`, `author`,
    /// `publish_date`, the URL and `_internal.page_type.primary`, with
    /// `category` read as `collection` as the benchmark's scorer does);
    /// pages are `html/ID.html.gz` or `html/ID.html`.
    fn open_wcxb(dir: &Path, name: String) -> Result<Dataset> {
        let truth_dir = dir.join(WCXB_TRUTH_DIR);
        let (gold_ids, bad_json) = stems(&truth_dir, ".json")?;
        let mut truth = HashMap::with_capacity(gold_ids.len());
        for id in gold_ids {
            let path = truth_dir.join(format!("{id}.json"));
            let bytes = fs::read(&path).map_err(|e| io_error(&path, e))?;
            let json: serde_json::Value = serde_json::from_slice(&bytes)
                .map_err(|e| Error::Dataset(format!("{}: {e}", path.display())))?;
            let gt = &json["ground_truth"];
            if !gt.is_object() {
                continue;
            }
            let text = |v: &serde_json::Value| v.as_str().map(str::to_owned);
            let list = |v: &serde_json::Value| -> Vec<String> {
                v.as_array()
                    .map(|a| a.iter().filter_map(|s| s.as_str().map(str::to_owned)).collect())
                    .unwrap_or_default()
            };
            let page_type = match &json["_internal"]["page_type"] {
                serde_json::Value::Object(o) => {
                    o.get("primary").and_then(|v| v.as_str()).map(str::to_owned)
                }
                serde_json::Value::String(s) => Some(s.clone()),
                _ => None,
            }
            .map(|t| if t == "category" { "collection".to_string() } else { t });
            truth.insert(
                id,
                WcxbEntry {
                    main_content: text(&gt["main_content"]).unwrap_or_default(),
                    url: text(&json["url"]),
                    labels: PageLabels {
                        page_type,
                        with: list(&gt["with"]),
                        without: list(&gt["without"]),
                        title: text(&gt["title"]).filter(|s| !s.is_empty()),
                        author: text(&gt["author"]).filter(|s| !s.is_empty()),
                        date: text(&gt["publish_date"]).filter(|s| !s.is_empty()),
                    },
                },
            );
        }
        let html_dir = dir.join(SH_HTML_DIR);
        let (mut ids, bad_gz) = stems(&html_dir, ".html.gz")?;
        let (plain, bad_plain) = stems(&html_dir, ".html")?;
        ids.extend(plain);
        sort_naturally(&mut ids);
        ids.dedup();
        let files = ids.len();
        ids.retain(|id| truth.contains_key(id));
        let unpaired = Unpaired {
            pages_without_gold: files - ids.len(),
            gold_without_pages: truth.len() - ids.len(),
            names_not_utf8: bad_gz + bad_plain + bad_json,
        };
        Ok(Dataset {
            name,
            parse: ParseOptions::default(),
            unpaired,
            root: dir.to_path_buf(),
            format: GoldFormat::Wcxb,
            ids,
            layout: Layout::Wcxb(truth),
        })
    }

    /// Reads pages of at most `bytes` bytes (after gzip decompression;
    /// default: [`ParseOptions::max_bytes`]'s default); a larger page is a
    /// [`Dataset::load`] error.
    pub fn with_max_bytes(mut self, bytes: usize) -> Dataset {
        self.parse.max_bytes = bytes;
        self
    }

    /// Parses its pages with these options (limits, time budget); their
    /// `max_bytes` is [`Dataset::with_max_bytes`]'s.
    pub fn with_parse_options(mut self, parse: ParseOptions) -> Dataset {
        self.parse = parse;
        self
    }

    /// The options its pages are parsed with.
    pub fn parse_options(&self) -> &ParseOptions {
        &self.parse
    }

    /// The largest page read, in bytes (see [`Dataset::with_max_bytes`]).
    pub fn max_bytes(&self) -> usize {
        self.parse.max_bytes
    }

    /// The files of the folder left out for want of a partner.
    pub fn unpaired(&self) -> Unpaired {
        self.unpaired
    }

    /// The dataset's name: its folder name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The folder the dataset was opened from.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Number of pages (ids with both an input and a gold file).
    pub fn len(&self) -> usize {
        self.ids.len()
    }

    /// True if the dataset has no pages.
    pub fn is_empty(&self) -> bool {
        self.ids.is_empty()
    }

    /// The page ids in natural order (digit runs compare as numbers, so
    /// `2` comes before `10`).
    pub fn ids(&self) -> &[String] {
        &self.ids
    }

    /// The detected gold format.
    pub fn format(&self) -> GoldFormat {
        self.format
    }

    /// Reads page `index` (an index into [`Dataset::ids`]): its HTML and
    /// its gold text. Pages are read as `gleaner extract` reads them: gzip
    /// is recognised by its magic bytes whatever the name, and neither
    /// the file nor its decompressed bytes may pass
    /// [`Dataset::max_bytes`].
    ///
    /// # Errors
    /// [`Error::Dataset`] if `index` is out of range, a file cannot be
    /// read or decompressed, or a ScrapingHub entry has no `articleBody`;
    /// [`gleaner::Error::TooLarge`] (as [`Error::Core`]) for a page over
    /// the limit or a huge HTML gold file (see [`GoldFormat::convert`]).
    pub fn load(&self, index: usize) -> Result<Page> {
        let (gold, gold_url) = self.gold(index)?;
        let id = self.id(index)?;
        let html = match &self.layout {
            Layout::Plain => {
                let path = self.root.join(INPUT_DIR).join(format!("{id}.html"));
                self.read_page(&path)?
            }
            Layout::ScrapingHub(_) | Layout::Wcxb(_) => self.read_scrapinghub_html(id)?,
        };
        let (html, wrapper_url) = strip_text_wrapper(&html);
        Ok(Page {
            id: id.clone(),
            html: html.to_vec(),
            gold,
            url: gold_url.or(wrapper_url),
            labels: self.labels(index),
        })
    }

    /// The gold text of page `index` and the URL it records, without
    /// reading the page: a page that cannot be read is still scored (as
    /// an empty extraction) when its gold can be.
    ///
    /// # Errors
    /// As [`Dataset::load`], for the gold file.
    pub fn gold(&self, index: usize) -> Result<(String, Option<String>)> {
        let id = self.id(index)?;
        match &self.layout {
            Layout::Plain => {
                let path = self.root.join(GOLD_DIR).join(format!("{id}.txt"));
                let raw = gleaner_batch::input::read_regular_file(&path, self.max_bytes())
                    .map_err(|e| read_error(&path, e))?;
                self.format.convert(&raw)
            }
            Layout::ScrapingHub(truth) => {
                let entry = truth.get(id).ok_or_else(|| {
                    Error::Dataset(format!("{}: {id} is not in {SH_TRUTH}", self.name))
                })?;
                let body = entry.body.as_deref().ok_or_else(|| {
                    Error::Dataset(format!("{}: {id} has no articleBody string", self.name))
                })?;
                Ok((plain_gold(body), entry.url.clone()))
            }
            Layout::Wcxb(truth) => {
                let entry = truth.get(id).ok_or_else(|| {
                    Error::Dataset(format!("{}: {id} has no ground truth", self.name))
                })?;
                Ok((plain_gold(&entry.main_content), entry.url.clone()))
            }
        }
    }

    /// What the dataset says of page `index` beyond its gold text (empty
    /// but for WCXB).
    pub fn labels(&self, index: usize) -> PageLabels {
        match (&self.layout, self.ids.get(index)) {
            (Layout::Wcxb(truth), Some(id)) => {
                truth.get(id).map(|e| e.labels.clone()).unwrap_or_default()
            }
            _ => PageLabels::default(),
        }
    }

    /// Does the dataset label its pages' types (WCXB)?
    pub fn has_page_types(&self) -> bool {
        matches!(self.layout, Layout::Wcxb(_))
    }

    fn id(&self, index: usize) -> Result<&String> {
        self.ids.get(index).ok_or_else(|| {
            Error::Dataset(format!("{}: no page {index}, it has {}", self.name, self.ids.len()))
        })
    }

    /// A page file, through `gleaner-batch`'s reader (limit, gzip).
    fn read_page(&self, path: &Path) -> Result<Vec<u8>> {
        gleaner_batch::input::read_path(path, self.max_bytes()).map_err(|e| read_error(path, e))
    }

    /// Reads `ID.html.gz` (gunzipped) or else `ID.html`.
    fn read_scrapinghub_html(&self, id: &str) -> Result<Vec<u8>> {
        let dir = self.root.join(SH_HTML_DIR);
        let gz = dir.join(format!("{id}.html.gz"));
        if gz.is_file() {
            return self.read_page(&gz);
        }
        self.read_page(&dir.join(format!("{id}.html")))
    }

    /// Every page in order, each loaded on demand.
    pub fn pages(&self) -> impl Iterator<Item = Result<Page>> + '_ {
        (0..self.ids.len()).map(move |i| self.load(i))
    }
}

/// A page or gold file's read error: the core's size error as it is
/// (its message names `--max-bytes`), anything else with the path.
fn read_error(path: &Path, e: gleaner_batch::Error) -> Error {
    match e {
        gleaner_batch::Error::Core(core) => Error::Core(core),
        other => Error::Dataset(format!("{}: {other}", path.display())),
    }
}

fn io_error(path: &Path, e: std::io::Error) -> Error {
    Error::Dataset(format!("{}: {e}", path.display()))
}

/// The folder's own name, even for paths like `.` or `data/`.
fn folder_name(dir: &Path) -> String {
    let name = match dir.file_name() {
        Some(n) => Some(n.to_os_string()),
        None => dir.canonicalize().ok().and_then(|p| p.file_name().map(|n| n.to_os_string())),
    };
    name.map(|n| n.to_string_lossy().into_owned()).unwrap_or_default()
}

/// The stems of the files in `dir` whose names end in `suffix`. Names
/// that are not UTF-8 are skipped.
/// The names of the files in `dir` ending in `suffix`, without it, and the
/// number of such files whose names are not UTF-8 (left out).
fn stems(dir: &Path, suffix: &str) -> Result<(Vec<String>, usize)> {
    let entries = fs::read_dir(dir).map_err(|e| io_error(dir, e))?;
    let mut out = Vec::new();
    let mut not_utf8 = 0;
    for entry in entries {
        let entry = entry.map_err(|e| io_error(dir, e))?;
        let name = match entry.file_name().into_string() {
            Ok(name) => name,
            Err(raw) => {
                not_utf8 += usize::from(raw.to_string_lossy().ends_with(suffix));
                continue;
            }
        };
        if let Some(stem) = name.strip_suffix(suffix) {
            if !stem.is_empty() && entry.path().is_file() {
                out.push(stem.to_owned());
            }
        }
    }
    Ok((out, not_utf8))
}

/// Sniffs the gold format from the first non-empty gold file.
fn sniff_folder(gold_dir: &Path, ids: &[String]) -> GoldFormat {
    for id in ids.iter().take(20) {
        if let Ok(raw) = fs::read(gold_dir.join(format!("{id}.txt"))) {
            if raw.iter().any(|b| !b.is_ascii_whitespace()) {
                return GoldFormat::sniff(&raw);
            }
        }
    }
    GoldFormat::PlainText
}

fn looks_like_html(text: &str) -> bool {
    let mut chars = text.chars();
    chars.next() == Some('<')
        && chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '!')
        && text.contains('>')
}

/// Sorts ids in natural order: runs of ASCII digits compare by value, the
/// rest byte-wise; ties fall back to plain byte order, so the order is
/// total and stable.
fn sort_naturally(ids: &mut [String]) {
    ids.sort_by(|a, b| natural_cmp(a, b).then_with(|| a.cmp(b)));
}

fn natural_cmp(a: &str, b: &str) -> Ordering {
    let (mut x, mut y) = (a.as_bytes(), b.as_bytes());
    loop {
        match (x.first(), y.first()) {
            (None, None) => return Ordering::Equal,
            (None, Some(_)) => return Ordering::Less,
            (Some(_), None) => return Ordering::Greater,
            (Some(c), Some(d)) if c.is_ascii_digit() && d.is_ascii_digit() => {
                let (rx, tx) =
                    x.split_at(x.iter().position(|b| !b.is_ascii_digit()).unwrap_or(x.len()));
                let (ry, ty) =
                    y.split_at(y.iter().position(|b| !b.is_ascii_digit()).unwrap_or(y.len()));
                let strip = |r: &'_ [u8]| -> usize { r.iter().take_while(|&&b| b == b'0').count() };
                let (vx, vy) =
                    (rx.get(strip(rx)..).unwrap_or(&[]), ry.get(strip(ry)..).unwrap_or(&[]));
                let ord = vx.len().cmp(&vy.len()).then_with(|| vx.cmp(vy));
                if ord != Ordering::Equal {
                    return ord;
                }
                (x, y) = (tx, ty);
            }
            (Some(c), Some(d)) => {
                if c != d {
                    return c.cmp(d);
                }
                (x, y) = (x.get(1..).unwrap_or(&[]), y.get(1..).unwrap_or(&[]));
            }
        }
    }
}

/// Removes CleanEval's wrapper from a page: a first line
/// `<text id="URL" title="…" encoding="…">` (after optional whitespace or
/// a BOM) and a closing `</text>` at the end. Returns the page without
/// them and the `id` attribute (the page's URL, entities decoded). Pages
/// without the wrapper are returned unchanged.
///
/// ```
/// use gleaner_eval::dataset::strip_text_wrapper;
/// let page = b"<text id=\"http://a.example/?x=1&amp;y=2\" title=\"A > B\">\n<html>Hi</html>\n</text>\n";
/// let (html, url) = strip_text_wrapper(page);
/// assert_eq!(html, b"\n<html>Hi</html>\n");
/// assert_eq!(url.as_deref(), Some("http://a.example/?x=1&y=2"));
/// assert_eq!(strip_text_wrapper(b"<html>").0, b"<html>");
/// ```
pub fn strip_text_wrapper(html: &[u8]) -> (&[u8], Option<String>) {
    // A wrapper tag longer than this is not one (titles are short).
    const LIMIT: usize = 64 * 1024;
    let unchanged = (html, None);
    let start = html.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(html);
    let start = trim_ascii_start(start);
    let Some(after_name) = strip_prefix_ignore_case(start, b"<text") else { return unchanged };
    if !after_name.first().is_some_and(|b| b.is_ascii_whitespace() || *b == b'>') {
        return unchanged;
    }
    let b = after_name;
    let mut i = 0;
    let mut id: Option<&[u8]> = None;
    let body_start = loop {
        if i > LIMIT {
            return unchanged;
        }
        while b.get(i).is_some_and(|c| c.is_ascii_whitespace()) {
            i += 1;
        }
        match b.get(i) {
            None => return unchanged,
            Some(b'>') => break i + 1,
            Some(_) => {}
        }
        let name_start = i;
        while b.get(i).is_some_and(|&c| !c.is_ascii_whitespace() && c != b'=' && c != b'>') {
            i += 1;
        }
        let name = b.get(name_start..i).unwrap_or(&[]);
        while b.get(i).is_some_and(|c| c.is_ascii_whitespace()) {
            i += 1;
        }
        if b.get(i) != Some(&b'=') {
            continue;
        }
        i += 1;
        while b.get(i).is_some_and(|c| c.is_ascii_whitespace()) {
            i += 1;
        }
        let value = match b.get(i) {
            Some(&q @ (b'"' | b'\'')) => {
                let from = i + 1;
                let Some(len) = b.get(from..).and_then(|r| r.iter().position(|&c| c == q)) else {
                    return unchanged;
                };
                i = from + len + 1;
                b.get(from..from + len).unwrap_or(&[])
            }
            _ => {
                let from = i;
                while b.get(i).is_some_and(|&c| !c.is_ascii_whitespace() && c != b'>') {
                    i += 1;
                }
                b.get(from..i).unwrap_or(&[])
            }
        };
        if name.eq_ignore_ascii_case(b"id") {
            id = Some(value);
        }
    };
    let mut body = b.get(body_start..).unwrap_or(&[]);
    let end = trim_ascii_end(body);
    if end.len() >= 7 {
        let (rest, tail) = end.split_at(end.len() - 7);
        if tail.eq_ignore_ascii_case(b"</text>") {
            body = rest;
        }
    }
    let url =
        id.map(|v| decode_entities(String::from_utf8_lossy(v).trim())).filter(|u| !u.is_empty());
    (body, url)
}

fn strip_prefix_ignore_case<'a>(bytes: &'a [u8], prefix: &[u8]) -> Option<&'a [u8]> {
    let head = bytes.get(..prefix.len())?;
    head.eq_ignore_ascii_case(prefix).then(|| bytes.get(prefix.len()..).unwrap_or(&[]))
}

fn trim_ascii_start(bytes: &[u8]) -> &[u8] {
    let n = bytes.iter().take_while(|b| b.is_ascii_whitespace()).count();
    bytes.get(n..).unwrap_or(&[])
}

fn trim_ascii_end(bytes: &[u8]) -> &[u8] {
    let n = bytes.iter().rev().take_while(|b| b.is_ascii_whitespace()).count();
    bytes.get(..bytes.len() - n).unwrap_or(&[])
}

/// Decodes a text file: UTF-8 (without BOM) if valid, else windows-1252,
/// which maps every byte. Line ends become `\n`.
fn decode_text(raw: &[u8]) -> String {
    let raw = raw.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(raw);
    let text = match std::str::from_utf8(raw) {
        Ok(s) => s.to_owned(),
        Err(_) => WINDOWS_1252.decode_without_bom_handling(raw).0.into_owned(),
    };
    if text.contains('\r') {
        text.replace("\r\n", "\n").replace('\r', "\n")
    } else {
        text
    }
}

/// Collects blocks: whitespace collapsed inside, empty ones dropped.
#[derive(Default)]
struct Blocks {
    out: String,
    current: String,
}

impl Blocks {
    /// Adds text to the current block, separated by a space.
    fn push(&mut self, text: &str) {
        if !self.current.is_empty() {
            self.current.push(' ');
        }
        self.current.push_str(text);
    }

    /// Ends the current block; `decode` decodes entities first.
    fn flush(&mut self, decode: bool) {
        let raw = std::mem::take(&mut self.current);
        let decoded = if decode { decode_entities(&raw) } else { raw };
        let mut words = decoded.split_whitespace().peekable();
        if words.peek().is_none() {
            return;
        }
        if !self.out.is_empty() {
            self.out.push_str("\n\n");
        }
        for (k, w) in words.enumerate() {
            if k > 0 {
                self.out.push(' ');
            }
            self.out.push_str(w);
        }
    }

    fn finish(mut self, decode: bool) -> String {
        self.flush(decode);
        self.out
    }
}

/// CleanEval gold: the `URL:` line, then blocks started by `<p>`, `<h>` or
/// `<l>` (anywhere in a line, any case) and ended by blank lines.
fn cleaneval_gold(text: &str) -> (String, Option<String>) {
    let mut body = text.trim_start();
    let mut url = None;
    if let Some(rest) = body.strip_prefix("URL:") {
        let (line, after) = rest.split_once('\n').unwrap_or((rest, ""));
        url = Some(line.trim().to_owned()).filter(|u| !u.is_empty());
        body = after;
    }
    let mut blocks = Blocks::default();
    for line in body.lines() {
        if line.trim().is_empty() {
            blocks.flush(true);
            continue;
        }
        let mut rest = line;
        while let Some((before, after)) = split_at_marker(rest) {
            blocks.push(before);
            blocks.flush(true);
            rest = after;
        }
        blocks.push(rest);
    }
    (blocks.finish(true), url)
}

/// Splits at the first CleanEval marker `<p>`, `<h>` or `<l>`.
fn split_at_marker(line: &str) -> Option<(&str, &str)> {
    let bytes = line.as_bytes();
    let at = bytes.windows(3).position(|w| {
        w.first() == Some(&b'<')
            && w.get(1).is_some_and(|c| matches!(c.to_ascii_lowercase(), b'p' | b'h' | b'l'))
            && w.get(2) == Some(&b'>')
    })?;
    // The marker is ASCII, so both cuts fall on char boundaries.
    Some((line.get(..at)?, line.get(at + 3..)?))
}

/// Cuts a Dragnet gold text at its comments separator line, if any.
fn cut_dragnet_comments(text: &str) -> &str {
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        if is_comments_separator(line) {
            return text.get(..offset).unwrap_or(text);
        }
        offset += line.len();
    }
    text
}

/// Dragnet's separator: `!@#$%^&*()  COMMENTS`, spelled in several ways in
/// the files (`!@ $%^&*()`, `!@#$%^&*`, `COMMNENTS`, `CORRECTED`, the
/// word missing). It is a line of at least seven different characters of
/// `!@#$%^&*()` and spaces, then at most one upper-case word; seven keeps
/// ordinary lines like `@!$%#` (a curse) or `*****` out.
fn is_comments_separator(line: &str) -> bool {
    const SYMBOLS: &str = "!@#$%^&*()";
    let t = line.trim();
    let split = t.find(|c: char| !SYMBOLS.contains(c) && !c.is_whitespace()).unwrap_or(t.len());
    let (symbols, word) = t.split_at(split);
    let mut seen: Vec<char> = symbols.chars().filter(|c| SYMBOLS.contains(*c)).collect();
    seen.sort_unstable();
    seen.dedup();
    seen.len() >= 7 && word.chars().all(|c| c.is_ascii_uppercase())
}

/// Plain text: lines kept with whitespace collapsed, runs of blank lines
/// turned into one, the whole trimmed.
fn plain_gold(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut blank = false;
    for line in text.lines() {
        let mut words = line.split_whitespace().peekable();
        if words.peek().is_none() {
            blank = true;
            continue;
        }
        if !out.is_empty() {
            out.push_str(if blank { "\n\n" } else { "\n" });
        }
        blank = false;
        for (k, w) in words.enumerate() {
            if k > 0 {
                out.push(' ');
            }
            out.push_str(w);
        }
    }
    out
}

/// The L3S-GN1 label of an element: N of its `x-nc-selN` class.
fn l3s_label(doc: &Document, id: NodeId) -> Option<u8> {
    let class = doc.attr(id, "class")?;
    class.split_ascii_whitespace().find_map(|c| {
        let n = c.strip_prefix("x-nc-sel")?;
        let mut digits = n.bytes();
        match (digits.next(), digits.next()) {
            (Some(d @ b'0'..=b'9'), None) => Some(d - b'0'),
            _ => None,
        }
    })
}

/// L3S-GN1 gold: visible text whose nearest labelled element (the
/// element itself or an ancestor with an `x-nc-selN` class) has label 1,
/// 2 or 3; one block per such element. Nodes are in document order, so
/// a parent's owner is known before its children are seen.
fn l3s_gold(html: &str) -> Result<String> {
    let doc = Document::parse_str(html, &ParseOptions::default())?;
    // owner[n]: the nearest labelled element at or above n, and its label.
    let mut owner: Vec<Option<(NodeId, u8)>> = vec![None; doc.len()];
    let mut blocks = Blocks::default();
    let mut current: Option<NodeId> = None;
    for id in doc.ids() {
        let inherited = doc.parent(id).and_then(|p| owner.get(p.index()).copied().flatten());
        let own = l3s_label(&doc, id).map(|label| (id, label));
        let this = own.or(inherited);
        if let Some(slot) = owner.get_mut(id.index()) {
            *slot = this;
        }
        if !doc.is_text(id) || !doc.stats(id).flags.contains(NodeFlags::VISIBLE) {
            continue;
        }
        let Some((element, label)) = this else { continue };
        let text = doc.text(id);
        if !(1..=3).contains(&label) || text.trim().is_empty() {
            continue;
        }
        if current != Some(element) {
            blocks.flush(false);
            current = Some(element);
        }
        blocks.push(text);
    }
    Ok(blocks.finish(false))
}

/// HTML fragment gold (Readability's `expected.html`): its rendered text.
fn html_gold(html: &str) -> Result<String> {
    let doc = Document::parse_str(html, &ParseOptions::default())?;
    Ok(render::text(&doc, &Selection::all(&doc)).trim().to_owned())
}

#[cfg(test)]
mod tests {
    use std::io::Write;

    use super::*;

    /// A fresh dataset folder with the given files (relative path,
    /// content); removed when dropped.
    fn dataset_dir(name: &str, files: &[(&str, &[u8])]) -> (tempfile::TempDir, PathBuf) {
        let tmp = tempfile::tempdir().expect("temp dir");
        let root = tmp.path().join(name);
        for (path, content) in files {
            let path = root.join(path);
            fs::create_dir_all(path.parent().expect("file has a folder")).expect("mkdir");
            fs::write(&path, content).expect("write test file");
        }
        (tmp, root)
    }

    #[test]
    fn natural_order() {
        let mut ids: Vec<String> =
            ["10", "2", "R1", "1", "a-02", "a-1", "R10", "R9", "002"].map(String::from).to_vec();
        sort_naturally(&mut ids);
        assert_eq!(ids, ["1", "002", "2", "10", "R1", "R9", "R10", "a-1", "a-02"]);
    }

    #[test]
    fn plain_layout_pairs_ids_and_detects_cleaneval() {
        let (_tmp, root) = dataset_dir(
            "cleaneval-final",
            &[
                (
                    "input/10.html",
                    b"<text id=\"http://ten.example/\" title=\"Ten\" encoding=\"unset\">\n<p>x</p>\n</text>\n",
                ),
                ("input/2.html", b"<p>two</p>"),
                ("input/3.html", b"<p>no gold</p>"),
                ("GoldStandard/10.txt", b"URL: http://ten.example/gold\n<p>Ten"),
                ("GoldStandard/2.txt", b"\n<h>Two &lt;p&gt; &amp; more\n"),
                ("GoldStandard/4.txt", b"no input"),
                ("input/.DS_Store", b"junk"),
            ],
        );
        let data = Dataset::open(&root).expect("opens");
        assert_eq!(data.name(), "cleaneval-final");
        assert_eq!(data.format(), GoldFormat::CleanEval);
        assert_eq!(data.ids(), ["2", "10"]);
        assert_eq!(data.len(), 2);
        let two = data.load(0).expect("page 2");
        assert_eq!(two.gold, "Two <p> & more");
        assert_eq!(two.url, None);
        assert_eq!(two.html, b"<p>two</p>");
        let ten = data.load(1).expect("page 10");
        assert_eq!(ten.html, b"\n<p>x</p>\n");
        assert_eq!(ten.url.as_deref(), Some("http://ten.example/gold"));
        assert!(matches!(data.load(2), Err(Error::Dataset(_))));
    }

    #[test]
    fn cleaneval_markers_blank_lines_and_wrapper_url() {
        let gold = "\u{feff}URL: http://a.example/\r\n\r\n  <h>  Head\r\n   line\r\n<p>One. <p>Two\n\nThree &eacute;t&eacute;\n<L>item\n";
        let (text, url) = GoldFormat::CleanEval.convert(gold.as_bytes()).expect("converts");
        assert_eq!(text, "Head line\n\nOne.\n\nTwo\n\nThree été\n\nitem");
        assert_eq!(url.as_deref(), Some("http://a.example/"));
        // No URL line: the wrapper's id is the page URL.
        let (_tmp, root) = dataset_dir(
            "cleanportaleval",
            &[
                ("input/a.html", b"\n<text id=\"http://w.example/a\"> \n<html><p>A</p></html>"),
                ("GoldStandard/a.txt", b"\n<p>A"),
            ],
        );
        let page = Dataset::open(&root).expect("opens").load(0).expect("loads");
        assert_eq!(page.url.as_deref(), Some("http://w.example/a"));
        assert_eq!(page.html, b" \n<html><p>A</p></html>");
        assert_eq!(page.gold, "A");
    }

    #[test]
    fn wrapper_edge_cases() {
        assert_eq!(strip_text_wrapper(b"<textarea>x</textarea>").0, b"<textarea>x</textarea>");
        assert_eq!(strip_text_wrapper(b"<text id=\"unterminated").0, b"<text id=\"unterminated");
        assert_eq!(strip_text_wrapper(b"").0, b"");
        let (body, url) = strip_text_wrapper(b"\xEF\xBB\xBF  <TEXT id=u>a</text>");
        assert_eq!((body, url.as_deref()), (&b"a"[..], Some("u")));
    }

    #[test]
    fn dragnet_cuts_comments() {
        let gold = b"Title\n\n  Body   text\n\n\n\n!@#$%^&*()  COMMENTS\r\nGreat post!\n";
        let (text, url) = GoldFormat::Dragnet.convert(gold).expect("converts");
        assert_eq!(text, "Title\n\nBody text");
        assert_eq!(url, None);
        for sep in
            ["!@ $%^&*()  COMMENTS", "  #$%^&*() COMMENTS\t", "!@#$%^&*()", "!@#$%^&*()  COMMNENTS"]
        {
            assert!(is_comments_separator(sep), "{sep:?}");
        }
        for line in ["@!$%#", "*****************", "YAY!!!!!!!", "what the @#$%^&*!", ""] {
            assert!(!is_comments_separator(line), "{line:?}");
        }
        // Not UTF-8: decoded as windows-1252.
        let (text, _) = GoldFormat::Dragnet.convert(b"caf\xe9 \x93quoted\x94").expect("converts");
        assert_eq!(text, "café “quoted”");
    }

    #[test]
    fn l3s_blocks_nested_labels_and_order() {
        let gold = br#"<html><head><title>T</title></head><body>
            <span class="x-nc-sel0">Menu</span>
            <h1><span class="x-nc-sel1">Headline</span></h1>
            <div class="x-nc-sel2">First <b>para</b>
              <span class="x-nc-sel5">a comment</span> goes on.
              <span class="x-nc-sel3">Caption</span>
              <script>var x = 1;</script></div>
            <span class="x-nc-sel4">Related</span>
            <p><span class="x-nc-sel2">Second</span> <span class="x-nc-sel2">Third</span></p>
            <span class="other x-nc-sel3">Extra</span>
        </body></html>"#;
        let (text, _) = GoldFormat::L3s.convert(gold).expect("converts");
        assert_eq!(text, "Headline\n\nFirst para goes on.\n\nCaption\n\nSecond\n\nThird\n\nExtra");
    }

    #[test]
    fn readability_fragment_text() {
        let gold = b"<div id=\"readability-page-1\" class=\"page\"><h2>Hi &amp; bye</h2><p>One <a href=x>link</a>.</p><ul><li>a</li><li>b</li></ul></div>";
        let (text, _) = GoldFormat::Readability.convert(gold).expect("converts");
        assert_eq!(text, "Hi & bye\n\nOne link.\n\na\nb");
    }

    #[test]
    fn sniffs_unknown_folders() {
        assert_eq!(GoldFormat::sniff(b"\n\nURL: http://x/\n<p>a"), GoldFormat::CleanEval);
        assert_eq!(GoldFormat::sniff(b"<html><span class=\"x-nc-sel2\">a</span>"), GoldFormat::L3s);
        assert_eq!(GoldFormat::sniff(b"  <div><p>a</p></div>"), GoldFormat::Readability);
        assert_eq!(GoldFormat::sniff(b"Just text < with a bracket"), GoldFormat::PlainText);
        assert_eq!(GoldFormat::sniff(b"<3 love"), GoldFormat::PlainText);
        let (_tmp, root) = dataset_dir(
            "mystery",
            &[
                ("input/b.html", b"<p>b</p>"),
                ("GoldStandard/b.txt", b"<span class=\"x-nc-sel1\">B</span>"),
                ("input/a.html", b"<p>a</p>"),
                ("GoldStandard/a.txt", b"  \n"),
            ],
        );
        let data = Dataset::open(&root).expect("opens");
        assert_eq!(data.format(), GoldFormat::L3s);
        let pages: Vec<Page> = data.pages().collect::<Result<_>>().expect("loads");
        assert_eq!(pages.iter().map(|p| p.gold.as_str()).collect::<Vec<_>>(), ["", "B"]);
        let (_tmp, root) = dataset_dir(
            "other",
            &[("input/x.html", b"<p>x</p>"), ("GoldStandard/x.txt", b"Some\ntext\n")],
        );
        let data = Dataset::open(&root).expect("opens");
        assert_eq!(data.format(), GoldFormat::PlainText);
        assert_eq!(data.load(0).expect("loads").gold, "Some\ntext");
    }

    #[test]
    fn folder_names_announce_formats() {
        assert_eq!(GoldFormat::from_folder_name("cleaneval-dev"), Some(GoldFormat::CleanEval));
        assert_eq!(
            GoldFormat::from_folder_name("CleanPortalEval-master"),
            Some(GoldFormat::CleanEval)
        );
        assert_eq!(GoldFormat::from_folder_name("dragnet_data"), Some(GoldFormat::Dragnet));
        assert_eq!(GoldFormat::from_folder_name("l3s-gn1"), Some(GoldFormat::L3s));
        assert_eq!(GoldFormat::from_folder_name("readability"), Some(GoldFormat::Readability));
        assert_eq!(GoldFormat::from_folder_name("scrapinghub"), None);
    }

    #[test]
    fn scrapinghub_layout() {
        let gz = |html: &[u8]| {
            let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
            enc.write_all(html).expect("gzip");
            enc.finish().expect("gzip")
        };
        let truth = br#"{
            "p10": {"articleBody": "Body  ten\n\n\nsecond", "url": "https://x.example/10"},
            "p9": {"articleBody": "Nine"},
            "p8": {"url": "https://x.example/8"},
            "nohtml": {"articleBody": "x"}
        }"#;
        let (one, two) = (gz(b"<html><p>Ten</p></html>"), gz(b"<p>Nine</p>"));
        let (_tmp, root) = dataset_dir(
            "scrapinghub",
            &[
                ("ground-truth.json", truth),
                ("html/p10.html.gz", &one),
                ("html/p9.html.gz", &two),
                ("html/p8.html.gz", b"not gzip at all"),
                ("html/extra.html.gz", &two),
            ],
        );
        let data = Dataset::open(&root).expect("opens");
        assert_eq!(data.format(), GoldFormat::ScrapingHub);
        assert_eq!(data.ids(), ["p8", "p9", "p10"]);
        assert!(matches!(data.load(0), Err(Error::Dataset(_))));
        let nine = data.load(1).expect("p9");
        assert_eq!(
            (nine.html.as_slice(), nine.gold.as_str(), nine.url),
            (&b"<p>Nine</p>"[..], "Nine", None)
        );
        let ten = data.load(2).expect("p10");
        assert_eq!(ten.html, b"<html><p>Ten</p></html>");
        assert_eq!(ten.gold, "Body ten\n\nsecond");
        assert_eq!(ten.url.as_deref(), Some("https://x.example/10"));
        // A gzip stream that breaks off is an error, not a panic.
        fs::write(root.join("html/p9.html.gz"), one.get(..one.len() / 2).unwrap_or(&[]))
            .expect("write");
        assert!(matches!(data.load(1), Err(Error::Dataset(_))));
    }

    #[test]
    fn bad_folders_are_errors() {
        let (_tmp, root) = dataset_dir("empty", &[("README", b"nothing here")]);
        assert!(matches!(Dataset::open(&root), Err(Error::Dataset(_))));
        let (_tmp, root) =
            dataset_dir("broken", &[("ground-truth.json", b"[1, 2"), ("html/a.html.gz", b"")]);
        assert!(matches!(Dataset::open(&root), Err(Error::Dataset(_))));
        assert!(matches!(Dataset::open(Path::new("/nonexistent/gleaner")), Err(Error::Dataset(_))));
    }

    fn gzip(bytes: &[u8]) -> Vec<u8> {
        let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        enc.write_all(bytes).expect("gzip");
        enc.finish().expect("gzip")
    }

    // See: issue 13, defect 4.
    #[test]
    fn issue_13_pages_are_read_with_a_limit_and_gzip_by_magic_bytes() {
        let bomb = gzip(&vec![b' '; 4 << 20]);
        assert!(bomb.len() < 64 << 10);
        let (_tmp, root) = dataset_dir(
            "other",
            &[
                ("input/a.html", &gzip(b"<p>gzipped page</p>")),
                ("GoldStandard/a.txt", b"gzipped page"),
                ("input/b.html", &bomb),
                ("GoldStandard/b.txt", b"bomb"),
            ],
        );
        let data = Dataset::open(&root).expect("opens").with_max_bytes(1 << 20);
        assert_eq!(data.load(0).expect("a gzip page named .html").html, b"<p>gzipped page</p>");
        let error = data.load(1).expect_err("decompressed past the limit").to_string();
        assert!(error.contains(&format!("more than the limit of {} bytes", 1 << 20)), "{error}");
        let (_tmp, root) = dataset_dir(
            "scrapinghub",
            &[("ground-truth.json", br#"{"p": {"articleBody": "x"}}"#), ("html/p.html.gz", &bomb)],
        );
        let data = Dataset::open(&root).expect("opens").with_max_bytes(1000);
        assert!(data.load(0).is_err(), "a bomb in the ScrapingHub layout is bounded too");
    }

    // See: issue 13, defect 10.
    #[test]
    fn issue_13_unpaired_files_are_counted() {
        let (_tmp, root) = dataset_dir(
            "other",
            &[
                ("input/a.html", b"<p>a</p>"),
                ("GoldStandard/a.txt", b"a"),
                ("input/b.html", b"<p>b</p>"),
                ("GoldStandard/c.txt", b"c"),
                ("GoldStandard/d.txt", b"d"),
            ],
        );
        let unpaired = Dataset::open(&root).expect("opens").unpaired();
        assert_eq!((unpaired.pages_without_gold, unpaired.gold_without_pages), (1, 2));
        let truth = br#"{"a": {"articleBody": "x"}, "b": {"articleBody": "y"}}"#;
        let (_tmp, root) = dataset_dir(
            "scrapinghub",
            &[("ground-truth.json", truth), ("html/a.html.gz", b""), ("html/z.html", b"")],
        );
        let data = Dataset::open(&root).expect("opens");
        assert_eq!(data.ids(), ["a"]);
        let unpaired = data.unpaired();
        assert_eq!((unpaired.pages_without_gold, unpaired.gold_without_pages), (1, 1));
        assert_eq!(data.gold(0).expect("gold without reading the page").0, "x");
    }

    // See: issue 13 (eval's reader skipped names that are not UTF-8
    // without a word).
    #[cfg(unix)]
    #[test]
    fn issue_13_names_that_are_not_utf8_are_counted() {
        use std::os::unix::ffi::OsStrExt;
        let (_tmp, root) =
            dataset_dir("other", &[("input/a.html", b"<p>a</p>"), ("GoldStandard/a.txt", b"a")]);
        let name = std::ffi::OsStr::from_bytes(b"caf\xe9.html");
        std::fs::write(root.join("input").join(name), b"<p>b</p>").expect("write");
        let data = Dataset::open(&root).expect("opens");
        assert_eq!(data.ids(), ["a"]);
        assert_eq!(data.unpaired().names_not_utf8, 1);
    }
}
