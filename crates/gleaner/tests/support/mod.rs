//! Shared by the random-input tests (`robustness.rs`, `fuzz.rs`): every
//! extractor and renderer over one page, with the invariants that hold
//! for any input.

use std::collections::HashSet;

use gleaner::extract::{self, Extractor, Params};
use gleaner::render::{self, Format, RenderOptions};
use gleaner::{Document, ParseOptions, Selection};
use proptest::prelude::*;

/// Every registered extractor with its default parameters, and the
/// line-based ones (those that take `lines`) also with `lines=blocks`.
pub fn extractors() -> Vec<(String, Box<dyn Extractor>)> {
    let blocks = Params::new().with("lines", "blocks");
    let mut all = Vec::new();
    for algorithm in extract::algorithms() {
        let defaults = algorithm.build(&Params::new()).expect("defaults are valid");
        all.push((algorithm.name.to_string(), defaults));
        if let Ok(e) = algorithm.build(&blocks) {
            all.push((format!("{}[lines=blocks]", algorithm.name), e));
        }
    }
    all
}

/// The non-whitespace characters of `s`.
fn ink(s: &str) -> Vec<char> {
    s.chars().filter(|c| !c.is_whitespace()).collect()
}

/// Is `part` a subsequence of `whole`?
fn is_subsequence(part: &[char], whole: &[char]) -> bool {
    let mut rest = whole.iter();
    part.iter().all(|c| rest.any(|w| w == c))
}

/// Would a browser run this URL? (`javascript:`, `vbscript:`, `data:`,
/// with the whitespace and case browsers ignore.)
/// A script URL in link syntax: `](javascript:` in Markdown, an attribute
/// `="javascript:` in HTML. In Markdown, `="javascript:` is only text (a
/// page whose markup became text after `<plaintext>` shows its own
/// `href="javascript:…"`), and in HTML only inside tags.
fn has_script_url(rendered: &str, html: bool) -> bool {
    let squeezed: String = rendered
        .chars()
        .filter(|c| !c.is_whitespace() && !c.is_control())
        .collect::<String>()
        .to_ascii_lowercase();
    if !html {
        return ["](javascript:", "](vbscript:", "](data:"]
            .iter()
            .any(|bad| squeezed.contains(bad));
    }
    // In HTML only inside tags: text escapes `<`, so every `<` opens one.
    squeezed.split('<').skip(1).map(|t| t.split('>').next().unwrap_or("")).any(|tag| {
        ["=\"javascript:", "=\"vbscript:", "=\"data:"].iter().any(|bad| tag.contains(bad))
    })
}

/// Parses `bytes` (which must parse when `must_parse`) and runs every
/// extractor and renderer over it, checking:
/// - a selection holds only visible, non-blank text nodes;
/// - extracting twice gives the same selection (determinism);
/// - the rendered plain text is made of the page's text: its non-blank
///   characters are a subsequence of those of the page's full visible
///   text (`render::text` of `Selection::all`), and Plain renders exactly
///   that full text;
/// - Markdown and HTML with links and images keep no script URLs, and the
///   HTML is one `<article>`.
pub fn check_page(
    bytes: &[u8],
    must_parse: bool,
    extractors: &[(String, Box<dyn Extractor>)],
) -> Result<(), TestCaseError> {
    let doc = match Document::parse(bytes, &ParseOptions::default()) {
        Ok(doc) => doc,
        Err(e) => {
            prop_assert!(!must_parse, "does not parse: {e}");
            prop_assert!(
                matches!(e, gleaner::Error::NotHtml { .. }),
                "the only error for a small input is binary data: {e}"
            );
            return Ok(());
        }
    };
    let _ = gleaner::metadata::title(&doc);
    let all = Selection::all(&doc);
    let visible: HashSet<_> = all.iter().collect();
    let full = render::text(&doc, &all);
    let full_ink = ink(&full);
    let options = RenderOptions::default().links(true).images(true);
    for (name, extractor) in extractors {
        let sel = extractor.extract(&doc);
        prop_assert_eq!(&sel, &extractor.extract(&doc), "{} is not deterministic", name);
        for id in sel.iter() {
            prop_assert!(visible.contains(&id), "{name} selected {id:?}, not visible text");
        }
        let text = render::text(&doc, &sel);
        prop_assert!(
            is_subsequence(&ink(&text), &full_ink),
            "{name}: text that is not the page's, in order:\n{text:?}\nfull:\n{full:?}"
        );
        if name == "plain" {
            prop_assert_eq!(&text, &full);
        }
        let md = render::render(&doc, &sel, Format::Markdown, options);
        prop_assert!(!has_script_url(&md, false), "{name}: script URL in Markdown:\n{md}");
        let html = render::render(&doc, &sel, Format::Html, options);
        prop_assert!(!has_script_url(&html, true), "{name}: script URL in HTML:\n{html}");
        prop_assert!(html.starts_with("<article>") && html.ends_with("</article>"), "{html}");
    }
    Ok(())
}
