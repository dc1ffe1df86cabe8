//! Text a page states in its structured data but does not show.
//!
//! Many shops render a product's description from script data (a
//! Shopify product object, a React store), so the HTML a crawler gets has
//! the product's name and price but not its description, which the
//! page's JSON-LD `Product` node still carries. On WCXB-dev, 5 of the 119
//! product pages leave gleaner almost empty-handed that way (issue 30:
//! "a product's description from JSON-LD when the visible DOM lacks it").
//! The description is added only when the extracted text is short and
//! holds little of it, so a page that shows its description is never
//! given it twice.

use crate::metadata::Metadata;

/// Fewer words than this in the extracted text make it short.
pub const SHORT_TEXT_WORDS: usize = 100;

/// The description is missing when at most this share of its words are
/// in the extracted text.
pub const MAX_SHARE_SHOWN: f64 = 0.3;

/// Fewest words a description must have to be added.
pub const MIN_DESCRIPTION_WORDS: usize = 8;

/// The product description to add after `text`, the text extracted from
/// a page of type product: the JSON-LD description when `text` is short
/// and shows little of it.
pub fn missing_product_text<'m>(text: &str, meta: &'m Metadata) -> Option<&'m str> {
    missing_description(text, meta.product_description.as_deref()?)
}

/// `description` when `text` is short and shows at most
/// [`MAX_SHARE_SHOWN`] of its words ([`missing_product_text`] for a
/// description already read).
pub fn missing_description<'d>(text: &str, description: &'d str) -> Option<&'d str> {
    if words(text).nth(SHORT_TEXT_WORDS - 1).is_some() {
        return None;
    }
    let shown: std::collections::HashSet<String> = words(text).collect();
    let (total, in_text) = words(description)
        .fold((0usize, 0usize), |(t, n), w| (t + 1, n + usize::from(shown.contains(&w))));
    let share = in_text as f64 / total.max(1) as f64;
    (total >= MIN_DESCRIPTION_WORDS && share <= MAX_SHARE_SHOWN).then_some(description)
}

/// Appends to `text`, extracted from a page of type `page_type`, what
/// its structured data states and it lacks ([`missing_product_text`]
/// for a product page), paragraphs apart; returns what was appended.
pub fn complete<'m>(text: &mut String, page_type: &str, meta: &'m Metadata) -> Option<&'m str> {
    complete_with(text, page_type, meta.product_description.as_deref())
}

/// [`complete`] with the page's product description already read (what
/// `gleaner train` keeps of a page to score its held-out texts as the
/// extractor gives them).
pub fn complete_with<'d>(
    text: &mut String,
    page_type: &str,
    product_description: Option<&'d str>,
) -> Option<&'d str> {
    let description = product_description.filter(|_| page_type == "product")?;
    let more = missing_description(text, description)?;
    if !text.is_empty() {
        text.push_str("\n\n");
    }
    text.push_str(more);
    Some(more)
}

/// Whether [`complete_with`] would add to `text` (extracted from a page
/// of type `page_type`) the page's product description: a short
/// selection it completes needs no lower cut nor the rules' selection
/// (`learned`'s decision).
pub fn completes(text: &str, page_type: &str, product_description: Option<&str>) -> bool {
    product_description
        .filter(|_| page_type == "product")
        .is_some_and(|d| missing_description(text, d).is_some())
}

/// The lower-cased words of `text` (runs of letters and digits).
fn words(text: &str) -> impl Iterator<Item = String> + '_ {
    text.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).map(str::to_lowercase)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Document, ParseOptions};

    fn meta(html: &str) -> Metadata {
        Metadata::extract(&Document::parse(html.as_bytes(), &ParseOptions::default()).unwrap())
    }

    const PAGE: &str = r#"<html><head><script type="application/ld+json">
        {"@context": "https://schema.org", "@type": "Product", "name": "Dark Roast",
         "description": "<h4>DARKER ROAST FOR BOLDER DAYS.</h4>\n<p>Meet the yin to your yang: a bold &amp; smooth dark roast for the whole day.</p><ul><li>Fair Trade</li><li>Organic</li></ul>"}
        </script></head><body><h1>Dark Roast</h1><p>$19.99</p></body></html>"#;

    #[test]
    fn the_description_is_read_as_paragraphs() {
        let m = meta(PAGE);
        assert_eq!(
            m.product_description.as_deref(),
            Some(
                "DARKER ROAST FOR BOLDER DAYS.\n\nMeet the yin to your yang: a bold & smooth dark \
                 roast for the whole day.\n\nFair Trade\n\nOrganic"
            )
        );
    }

    #[test]
    fn added_only_when_the_text_is_short_and_lacks_it() {
        let m = meta(PAGE);
        assert!(missing_product_text("Dark Roast\n\n$19.99", &m).is_some());
        let shown = "Dark Roast. Meet the yin to your yang: a bold and smooth dark roast for the \
                     whole day. Darker roast for bolder days. Fair Trade, Organic.";
        assert_eq!(missing_product_text(shown, &m), None);
        let long = "word ".repeat(SHORT_TEXT_WORDS);
        assert_eq!(missing_product_text(&long, &m), None);
        let no_ld = meta("<html><body><h1>Dark Roast</h1></body></html>");
        assert_eq!(missing_product_text("Dark Roast", &no_ld), None);
    }

    #[test]
    fn a_short_product_text_lacking_the_description_is_completed() {
        let d = meta(PAGE).product_description;
        assert!(completes("Dark Roast\n$19.99", "product", d.as_deref()));
        // Not on another type, nor without a description, nor when shown.
        assert!(!completes("Dark Roast\n$19.99", "article", d.as_deref()));
        assert!(!completes("Dark Roast\n$19.99", "product", None));
        let shown =
            "Darker roast for bolder days: meet the yin to your yang, a bold smooth dark roast.";
        assert!(!completes(shown, "product", d.as_deref()));
    }

    #[test]
    fn stray_angle_brackets_and_unclosed_tags_are_text() {
        let m = meta(
            r#"<script type="application/ld+json">{"@type": "Product",
            "description": "Holds a < b and c > d, all of it; then <b>bold words in a tag and <p unclosed"}</script>"#,
        );
        let d = m.product_description.unwrap();
        assert!(d.starts_with("Holds a < b and c > d"), "{d}");
    }
}
