//! The gold formats ([`GoldFormat`]): how each dataset writes its gold
//! main content, told by folder name or sniffed, and turned into one
//! shape of plain text (blocks separated by a blank line, whitespace
//! collapsed inside). Each format's converter is a module of its own.

use std::fmt;

use encoding_rs::WINDOWS_1252;

use super::cleaneval::cleaneval_gold;
use super::dragnet::cut_dragnet_comments;
use super::l3s::l3s_gold;
use super::plain::plain_gold;
use super::readability::html_gold;
use crate::error::Result;

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
    /// [`gleaner::Error::TooLarge`] (as [`Error::Core`](crate::Error::Core)) for HTML gold files (L3S-GN1, Readability)
    /// larger than [`ParseOptions::max_bytes`](gleaner::ParseOptions::max_bytes); the text formats never
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

pub(super) fn looks_like_html(text: &str) -> bool {
    let mut chars = text.chars();
    chars.next() == Some('<')
        && chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '!')
        && text.contains('>')
}

/// Decodes a text file: UTF-8 (without BOM) if valid, else windows-1252,
/// which maps every byte. Line ends become `\n`.
pub(super) fn decode_text(raw: &[u8]) -> String {
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
