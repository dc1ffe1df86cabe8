//! Text written for machines, not readers, left out: a serialized data
//! object shown as a paragraph, and a run of identifiers.
//!
//! Some pages put data for their scripts in an element the style sheet
//! hides (`<div class="aok-hidden">{"desktop_buybox_group_1":[{"displayPrice":
//! "EUR 15.49",…}]}</div>` beside a shop's buy box), and some spell a word
//! such as "Sponsored" one letter at a time between random class names
//! and UUIDs that a style sheet hides (`Sf2f260c3-bf1f-466a-…p16207f0d-…`).
//! Without the style sheet both read as text, and a block in the body's
//! wrapper scores like the body. No reader wants either in a corpus. On
//! the development data, out of fold, the blocks the default kept and
//! this step leaves out were a shop's price data (WCXB-dev 0613) and a
//! marketplace's spelled-out labels (3019, 3021), and no page lost; in
//! sample one did, an Amazon category (0655) whose gold is the whole
//! page, menus included, and shares words with its hidden filter data.
//! So the extractor leaves out every block that [`is_machine_block`]
//! reads as one, on every page type, whatever its score — but code: a
//! JSON sample in a `<pre>` is a documentation page's content.

use super::blocks::Blocks;
use super::names::tag_cue;
use super::repeats;
use crate::document::Document;
use crate::selection::Selection;

/// Fewest characters of a text read as machine text: a short `{"a":1}`
/// in a sentence's place is left alone.
const MIN_CHARS: usize = 40;

/// Fewest tokens (runs of letters and digits) of a run of identifiers: a
/// checksum or a serial number alone is a download page's content.
const MIN_TOKENS: usize = 4;

/// Fewest quoted keys (`"key":`) of a serialized object.
const MIN_KEYS: usize = 3;

/// Least share of a run's letters and digits in identifiers (tokens
/// mixing letters and digits) for the run to read as identifiers.
const MIN_IDENTIFIER_SHARE: f64 = 0.6;

/// Does `text` read as written for machines (see the [module
/// docs](self))? It does when it holds at least forty characters other
/// than white space and either
///
/// - opens as a JSON object or array of objects (`{"` or `[{"`, spaces
///   allowed between) and has at least three quoted keys (`"…":`), or
/// - has no white space at all, holds at least four runs of letters and
///   digits, is not a web address (`http://`,
///   `https://`, `www.`: a link written out, its tracking token
///   included, is a reader's to follow), and at least 60 % of its
///   letters and digits are in tokens of ASCII letters and digits that
///   mix both (UUIDs, hashes, random class names; not a sentence of a
///   language written without spaces).
///
/// ```
/// use gleaner::extract::learned::machine_text::is_machine_text;
/// assert!(is_machine_text(r#"{"displayPrice":"EUR 15.49","priceAmount":15.49,"currencySymbol":"EUR"}"#));
/// assert!(is_machine_text("Sf2f260c3-bf1f-466a-b856-6f031758a086p16207f0d-5442-4472-ad51-162a45a841c3"));
/// assert!(!is_machine_text("The SM7dB pairs an SM7B with a built-in preamp: 28 dB of clean gain."));
/// assert!(!is_machine_text("https://example.com/?srsltid=AfmBOortTbMen8XaGhg61ufd85fSrpegthjfYbqegdon1"));
/// ```
pub fn is_machine_text(text: &str) -> bool {
    let text = text.trim();
    if text.chars().filter(|c| !c.is_whitespace()).take(MIN_CHARS).count() < MIN_CHARS {
        return false;
    }
    is_serialized_object(text) || is_identifier_run(text)
}

/// Does `text` (trimmed) open as a JSON object, or an array of them, and
/// hold at least [`MIN_KEYS`] quoted keys?
fn is_serialized_object(text: &str) -> bool {
    let rest = match text.strip_prefix('[') {
        Some(rest) => rest.trim_start(),
        None => text,
    };
    let Some(rest) = rest.strip_prefix('{') else { return false };
    rest.trim_start().starts_with('"') && text.matches("\":").take(MIN_KEYS).count() >= MIN_KEYS
}

/// Is `text` one run without white space, not a web address, whose
/// letters and digits are mostly in ASCII tokens mixing letters and
/// digits?
fn is_identifier_run(text: &str) -> bool {
    let address = ["http://", "https://", "www."]
        .iter()
        .any(|p| text.get(..p.len()).is_some_and(|s| s.eq_ignore_ascii_case(p)));
    if address || text.chars().any(char::is_whitespace) {
        return false;
    }
    let (mut mixed, mut all, mut tokens) = (0usize, 0usize, 0usize);
    for token in text.split(|c: char| !c.is_alphanumeric()).filter(|t| !t.is_empty()) {
        tokens += 1;
        let chars = token.chars().count();
        all += chars;
        // ASCII only: a Chinese or Japanese sentence is one run of
        // letters without spaces, its dates and sizes in digits.
        let identifier = token.bytes().all(|b| b.is_ascii_alphanumeric())
            && token.bytes().any(|b| b.is_ascii_digit())
            && token.bytes().any(|b| b.is_ascii_alphabetic());
        if identifier {
            mixed += chars;
        }
    }
    tokens >= MIN_TOKENS && mixed as f64 >= MIN_IDENTIFIER_SHARE * all as f64
}

/// Is block `i` machine text ([`is_machine_text`]) that is not code: no
/// text of it preformatted ([`repeats::is_code`]: `<pre>`, `<textarea>`,
/// `<xmp>`…) nor in a `<code>`, `<samp>` or `<kbd>` (the block's inline
/// cue `tag_code`: a schema's example value in a table of a documentation
/// page)? What the extractor
/// leaves out, what `gleaner train` leaves out of held-out texts, and
/// what no later step puts back.
pub fn is_machine_block(doc: &Document, blocks: &Blocks, i: usize) -> bool {
    let texts = blocks.texts(i);
    blocks.blocks[i].chars as usize >= MIN_CHARS
        && could_be_machine_text(texts.iter().map(|&t| doc.text(t)))
        && !repeats::is_code(doc, blocks, i)
        && !blocks.blocks[i].inline.contains(const { tag_cue("tag_code") })
        && is_machine_text(&blocks.text(doc, i))
}

/// Leaves out of `selection` every kept block that [`is_machine_block`];
/// returns those it left out.
pub fn drop_machine_text(doc: &Document, blocks: &Blocks, selection: &mut Selection) -> Vec<usize> {
    let mut dropped = Vec::new();
    for i in 0..blocks.len() {
        if !blocks.texts(i).iter().any(|&t| selection.contains(t))
            || !is_machine_block(doc, blocks, i)
        {
            continue;
        }
        blocks.set(i, selection, false);
        dropped.push(i);
    }
    dropped
}

/// Can a block whose texts are `pieces` be machine text: does it open
/// an object or array, or is it one run without white space (leading
/// and trailing white space aside)? Told without joining the texts, so
/// that a paragraph is not copied to be found prose.
fn could_be_machine_text<'a>(pieces: impl Iterator<Item = &'a str>) -> bool {
    let (mut started, mut after_space) = (false, false);
    for c in pieces.flat_map(str::chars) {
        match (c.is_whitespace(), started) {
            (true, true) => after_space = true,
            (true, false) => {}
            (false, false) if c == '{' || c == '[' => return true,
            (false, false) => started = true,
            (false, true) if after_space => return false,
            (false, true) => {}
        }
    }
    started
}

#[cfg(test)]
mod tests {
    use super::super::blocks::selecting;
    use super::*;
    use crate::render;

    #[test]
    fn objects_and_identifier_runs_are_machine_text() {
        assert!(is_machine_text(
            r#"[ { "sku": "A1", "name": "Copper kettle", "price": 12, "stock": true } ]"#
        ));
        assert!(is_machine_text(
            "A6b4f817e-1bc7-4f5f-a4f7-68184bc11dc0S42bf1e13-8a44-4c69-bf2b-71f76bb4cce8E2edeb801"
        ));
    }

    #[test]
    fn prose_short_texts_and_plain_runs_are_not() {
        // Too short.
        assert!(!is_machine_text(r#"{"a":1,"b":2,"c":3}"#));
        // Braces in prose, or an object with too few keys.
        assert!(!is_machine_text(
            "{Editor's note: this story was updated on May 3, 2025 at noon.}"
        ));
        assert!(!is_machine_text(r#"{"note": "a single key holding a long sentence of text"}"#));
        // A run of words without digits, and model numbers between words.
        assert!(!is_machine_text("Supercalifragilisticexpialidocious-and-antidisestablishment"));
        assert!(!is_machine_text(
            "Compatible with A1234, B5678X, C9012Y, D3456Z, E7890W and F1234V"
        ));
        // A web address written out, its tracking token included.
        assert!(!is_machine_text("HTTPS://ascolour.box.com/s/xycmx2rrcfuuv5lvrvwgfnizwwk0spvo"));
        assert!(!is_machine_text("www.example.com/a8f3e2c1b7d94e0f9a1b2c3d4e5f6a7b8c9d0e1f"));
        // A checksum alone, and languages written without spaces, their
        // numbers in digits.
        assert!(!is_machine_text(
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        ));
        assert!(!is_machine_text(
            "2024年12月7日发布的新版本支持128GB存储，续航时间延长到了20小时以上。"
        ));
        assert!(!is_machine_text(
            "新しいモデルは2025年3月に発売され、価格は税込み129800円からとなっています。"
        ));
    }

    #[test]
    fn a_kept_data_island_is_left_out_and_code_stays() {
        let html = r#"<body><article><p>The book sells for 15 euros in paperback.</p>
            <div class="aok-hidden">{"displayPrice":"EUR 15.49","priceAmount":15.49,"currencySymbol":"EUR"}</div>
            <pre>{"bindings": [{"authLevel": "function", "type": "httpTrigger", "name": "req"}]}</pre>
            <table><tr><td>reviews</td><td><code>[{ "title": "Love these", "content": "Great grip.", "rating": 5 }]</code></td></tr></table>
            </article></body>"#;
        let (doc, blocks, mut selection) =
            selecting(html, &["15 euros", "displayPrice", "bindings", "Love these"]);
        let dropped = drop_machine_text(&doc, &blocks, &mut selection);
        assert_eq!(dropped.len(), 1);
        let text = render::text(&doc, &selection);
        assert!(text.contains("15 euros") && text.contains("httpTrigger"), "{text}");
        assert!(text.contains("Great grip"), "{text}");
        assert!(!text.contains("displayPrice"), "{text}");
    }
}
