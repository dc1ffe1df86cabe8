//! Finding a dataset's pages: which of the three folder layouts a folder
//! has (the WCEB plain layout, ScrapingHub's, WCXB's), which ids have
//! both a page and a gold file, and the order they are read in
//! (`docs/evaluation.md`).

use std::cmp::Ordering;
use std::collections::{HashMap, HashSet};
use std::fs;
use std::path::Path;

use gleaner::document::ParseOptions;

use super::{
    io_error, Dataset, GoldFormat, Layout, PageLabels, ShEntry, Unpaired, WcxbEntry, GOLD_DIR,
    INPUT_DIR, SH_HTML_DIR, SH_TRUTH, WCXB_SPLIT, WCXB_TRUTH_DIR,
};
use crate::error::{Error, Result};

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
        let (ids, unpaired) =
            paired_pages(&dir.join(SH_HTML_DIR), |id| truth.contains_key(id), truth.len())?;
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
        let (ids, mut unpaired) =
            paired_pages(&dir.join(SH_HTML_DIR), |id| truth.contains_key(id), truth.len())?;
        unpaired.names_not_utf8 += bad_json;
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
}

/// The folder's own name, even for paths like `.` or `data/`.
pub(super) fn folder_name(dir: &Path) -> String {
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
pub(super) fn stems(dir: &Path, suffix: &str) -> Result<(Vec<String>, usize)> {
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
pub(super) fn sniff_folder(gold_dir: &Path, ids: &[String]) -> GoldFormat {
    for id in ids.iter().take(20) {
        if let Ok(raw) = fs::read(gold_dir.join(format!("{id}.txt"))) {
            if raw.iter().any(|b| !b.is_ascii_whitespace()) {
                return GoldFormat::sniff(&raw);
            }
        }
    }
    GoldFormat::PlainText
}

/// Sorts ids in natural order: runs of ASCII digits compare by value, the
/// rest byte-wise; ties fall back to plain byte order, so the order is
/// total and stable.
pub(super) fn sort_naturally(ids: &mut [String]) {
    ids.sort_by(|a, b| natural_cmp(a, b).then_with(|| a.cmp(b)));
}

pub(super) fn natural_cmp(a: &str, b: &str) -> Ordering {
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

/// The page ids of `html_dir` (`ID.html.gz` or `ID.html`, in natural
/// order) that have gold, and what could not be paired: `golds` entries
/// of which `has_gold` says which ids are among them.
fn paired_pages(
    html_dir: &Path,
    has_gold: impl Fn(&str) -> bool,
    golds: usize,
) -> Result<(Vec<String>, Unpaired)> {
    let (mut ids, bad_gz) = stems(html_dir, ".html.gz")?;
    let (plain, bad_plain) = stems(html_dir, ".html")?;
    ids.extend(plain);
    sort_naturally(&mut ids);
    ids.dedup();
    let files = ids.len();
    ids.retain(|id| has_gold(id));
    let unpaired = Unpaired {
        pages_without_gold: files - ids.len(),
        gold_without_pages: golds - ids.len(),
        names_not_utf8: bad_gz + bad_plain,
    };
    Ok((ids, unpaired))
}
