//! A product page's own name and price, kept.
//!
//! Issue 30 asks for "a product's name, price, description and
//! specifications". The name is the page's headline, the `<h1>` whose
//! words are the title's; WCXB-dev's annotators kept it on 72 % of the
//! product pages (58 of 81 that have one), and the block model scores it
//! at the margin: the first short `<h1>` block sharing half its words with
//! the page's title is kept ([`keep_name`]). The price is one short block (`£89.00`) beside the
//! add-to-basket form, shaped like every price of the recommendations
//! under it, and WCXB-dev's annotators left it out of the gold on three
//! product pages in four: the block model scores it at the margin, so
//! whether a page keeps it changes from one training to the next. The
//! page says which price is its product's in its structured data
//! (schema.org `Offer.price`, [`Metadata::product_price`]); the first
//! short block from the headline on that shows that number is kept.
//!
//! [`Metadata::product_price`]: crate::metadata::Metadata::product_price

use super::blocks::Blocks;
use super::machine_text;
use super::text::{word_hashes, word_overlap};
use crate::document::Document;
use crate::selection::Selection;

/// Most words of a block that is a price (`Now £1,099.99 inc. VAT`).
pub const MAX_PRICE_WORDS: u32 = 8;

/// Most characters of a number read from a text.
const MAX_NUMBER_CHARS: usize = 24;

/// The number a structured-data price states: `89.00`, `1099`, and the
/// forms shops write there too (`1,099.99`, `49,99`).
pub fn declared_value(price: &str) -> Option<f64> {
    let price = price.trim();
    let value = price.parse::<f64>().ok().or_else(|| {
        let [english, european] = readings(price);
        // A comma and no point: decimals unless three digits follow it.
        let decimal_comma = !price.contains('.')
            && price.rsplit_once(',').is_some_and(|(_, decimals)| decimals.len() != 3);
        if decimal_comma {
            european
        } else {
            english
        }
    })?;
    // A price of nothing would match every "0" of the page.
    (value.is_finite() && value > 0.0).then_some(value)
}

/// A run of digits and separators read with `,` grouping thousands and
/// `.` before the decimals, then the other way round.
fn readings(number: &str) -> [Option<f64>; 2] {
    let english: String = number.chars().filter(|&c| c != ',').collect();
    let european: String =
        number.chars().filter(|&c| c != '.').map(|c| if c == ',' { '.' } else { c }).collect();
    [english.parse().ok(), european.parse().ok()]
}

/// Does `text` write the number `value` (either way of separating
/// thousands and decimals)?
pub fn shows(text: &str, value: f64) -> bool {
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if !bytes[i].is_ascii_digit() {
            i += 1;
            continue;
        }
        let start = i;
        while i < bytes.len() && (bytes[i].is_ascii_digit() || bytes[i] == b'.' || bytes[i] == b',')
        {
            i += 1;
        }
        let number = text[start..i].trim_end_matches(['.', ',']);
        if number.len() <= MAX_NUMBER_CHARS
            && readings(number).into_iter().flatten().any(|n| (n - value).abs() < 0.005)
        {
            return true;
        }
    }
    false
}

/// The block showing the product's declared price: among blocks of at
/// most [`MAX_PRICE_WORDS`] words that are not mostly a link (a
/// recommendation's price is often its card's link) nor a script's data
/// ([`machine_text::is_machine_block`]), the first from the first `<h1>`
/// block on, else the first of the page.
pub fn price_block(doc: &Document, blocks: &Blocks, value: f64) -> Option<usize> {
    let headline = blocks
        .blocks
        .iter()
        .position(|b| doc.name(b.owner).is_some_and(|n| &**n == "h1"))
        .unwrap_or(0);
    let shows_it = |i: usize| {
        let b = &blocks.blocks[i];
        b.words <= MAX_PRICE_WORDS
            && b.link_density() <= 0.5
            && !machine_text::is_machine_block(doc, blocks, i)
            && shows(&blocks.texts(i).iter().map(|&t| doc.text(t)).collect::<String>(), value)
    };
    (headline..blocks.len()).find(|&i| shows_it(i)).or_else(|| (0..headline).find(|&i| shows_it(i)))
}

/// Adds the block showing the page's declared product price
/// ([`price_block`]) to `selection`; true when it was not there.
pub fn keep(doc: &Document, blocks: &Blocks, price: &str, selection: &mut Selection) -> bool {
    declared_value(price)
        .and_then(|v| price_block(doc, blocks, v))
        .is_some_and(|i| add(blocks, i, selection))
}

/// Most words of a block that is a product's name.
pub const MAX_NAME_WORDS: u32 = 30;

/// The least share of a headline's words in the title
/// ([`word_overlap`]: over the larger count of distinct words).
pub const MIN_NAME_OVERLAP: f32 = 0.5;

/// The product's name: the first `<h1>` block of at most
/// [`MAX_NAME_WORDS`] words sharing [`MIN_NAME_OVERLAP`] of its words
/// with `title`.
pub fn name_block(doc: &Document, blocks: &Blocks, title: &str) -> Option<usize> {
    let title = word_hashes([title]);
    let mut mine = Vec::new();
    (0..blocks.len()).find(|&i| {
        let b = &blocks.blocks[i];
        b.words <= MAX_NAME_WORDS
            && doc.name(b.owner).is_some_and(|n| &**n == "h1")
            && word_overlap(blocks.texts(i).iter().map(|&t| doc.text(t)), &title, &mut mine)
                >= MIN_NAME_OVERLAP
    })
}

/// Adds the block naming the product ([`name_block`]) to `selection`;
/// true when it was not there.
pub fn keep_name(doc: &Document, blocks: &Blocks, title: &str, selection: &mut Selection) -> bool {
    name_block(doc, blocks, title).is_some_and(|i| add(blocks, i, selection))
}

/// Adds block `i` to `selection`; true when some of it was not there.
fn add(blocks: &Blocks, i: usize, selection: &mut Selection) -> bool {
    let texts = blocks.texts(i);
    let added = texts.iter().any(|&t| !selection.contains(t));
    for &t in texts {
        selection.set(t, true);
    }
    added
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{render, ParseOptions};

    /// A page and its blocks.
    fn page(html: &str) -> (Document, Blocks) {
        let doc = crate::Document::parse_str(html, &ParseOptions::default()).unwrap();
        let blocks = Blocks::of(&doc, usize::MAX).unwrap();
        (doc, blocks)
    }

    #[test]
    fn the_headline_naming_the_product_is_kept() {
        let html = "<body><h1>Hearth &amp; Home</h1><nav><a href=/>Kitchen</a></nav>\
                    <h1 class=product-title>Copper Kettle 1.7 L</h1><p>£89.00</p></body>";
        let (doc, blocks) = page(html);
        let mut selection = Selection::none(&doc);
        assert!(keep_name(&doc, &blocks, "Copper Kettle 1.7 L | Hearth & Home", &mut selection));
        assert_eq!(render::text(&doc, &selection), "Copper Kettle 1.7 L");
        assert!(!keep_name(&doc, &blocks, "Copper Kettle 1.7 L | Hearth & Home", &mut selection));
        // A title the headlines do not share: nothing.
        let mut none = Selection::none(&doc);
        assert!(!keep_name(&doc, &blocks, "Stoneware Teapot", &mut none));
    }

    #[test]
    fn prices_are_read_either_way() {
        assert_eq!(declared_value("89.00"), Some(89.0));
        assert_eq!(declared_value(" 1099 "), Some(1099.0));
        assert_eq!(declared_value("1,099.99"), Some(1099.99));
        assert_eq!(declared_value("free"), None);
        assert_eq!(declared_value("49,99"), Some(49.99));
        assert_eq!(declared_value("1,099"), Some(1099.0));
        assert_eq!(declared_value("0.00"), None);
        assert!(shows("£89.00", 89.0));
        assert!(shows("Now $1,099.99 inc. VAT", 1099.99));
        assert!(shows("49,99 €", 49.99));
        assert!(shows("1.099,99 €", 1099.99));
        assert!(shows("89 GBP.", 89.0));
        assert!(!shows("£189.00", 89.0));
        assert!(!shows("1.7 litres", 89.0));
        assert!(!shows("no number", 89.0));
    }

    #[test]
    fn the_price_after_the_headline_is_kept_not_a_recommendations() {
        let html = "<body><ul><li><a href=/a>Mugs</a> <span>£89.00</span></li></ul>\
                    <h1>Copper Kettle</h1><p class=price>£89.00</p><p>A kettle of copper.</p>\
                    <ul><li><a href=/b>Teapot £89.00</a></li></ul></body>";
        let (doc, blocks) = page(html);
        let mut selection = Selection::none(&doc);
        assert!(keep(&doc, &blocks, "89.00", &mut selection));
        assert_eq!(render::text(&doc, &selection), "£89.00");
        // Kept already: nothing added.
        assert!(!keep(&doc, &blocks, "89", &mut selection));
        // A price the page does not show, or no number: nothing.
        let mut none = Selection::none(&doc);
        assert!(!keep(&doc, &blocks, "35.00", &mut none));
        assert!(!keep(&doc, &blocks, "n/a", &mut none));
        assert_eq!(render::text(&doc, &none), "");
    }

    #[test]
    fn a_scripts_price_data_is_not_the_price_shown() {
        let html = "<body><h1>Copper Kettle</h1>\
                    <div class=offer-data>{\"displayPrice\":\"£89.00\",\"amount\":89,\"sku\":\"CK17\"}</div>\
                    <p class=price>£89.00</p></body>";
        let (doc, blocks) = page(html);
        let mut selection = Selection::none(&doc);
        assert!(keep(&doc, &blocks, "89.00", &mut selection));
        assert_eq!(render::text(&doc, &selection), "£89.00");
    }
}
