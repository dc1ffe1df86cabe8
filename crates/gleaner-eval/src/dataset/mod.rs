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
//! Input HTML is returned as raw bytes for
//! [`Document::parse`](gleaner::Document::parse), except
//! that CleanEval's `<text id="URL" title="…" encoding="…">` wrapper line
//! (and its closing `</text>`) is removed wherever a page starts with it
//! (see [`strip_text_wrapper`]): it is an artefact of how CleanEval stored
//! the pages, not part of them.
//!
//! Finding the pages is `discovery`; the gold formats are `gold`, with one
//! converter a format (`cleaneval`, `dragnet`, `l3s`, `readability`,
//! `plain`) and the block shape they share (`blocks`).
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

mod blocks;
mod cleaneval;
mod discovery;
mod dragnet;
mod gold;
mod l3s;
mod plain;
mod readability;

use std::collections::HashMap;
use std::path::{Path, PathBuf};

pub use self::cleaneval::strip_text_wrapper;
pub use self::gold::GoldFormat;
use self::plain::plain_gold;
use crate::error::{Error, Result};
use gleaner::document::ParseOptions;

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

#[cfg(test)]
mod tests {
    use std::fs;
    use std::io::Write;

    use super::discovery::sort_naturally;
    use super::dragnet::is_comments_separator;
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
