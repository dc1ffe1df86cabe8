//! The page's comment section: readers' comments under an article, found
//! by structure and kept apart from the main content.
//!
//! Reads the DOM. A comment region is the outermost element whose `id`
//! or a class names a comment section as blog engines and comment widgets
//! write them: `comments`, `comment-list`, `commentlist`,
//! `comments-area`, `comment_section` (WordPress, Drupal, Ghost and the
//! like), `disqus_thread` (Disqus), and `<section id=comments>`.
//!
//! Guards, so that the article is never taken for its comments:
//! - names that only mention comments are not regions: a comment counter
//!   or link (`comment-count`, `comments-link`), a button or icon, and
//!   `commentary` (an opinion piece);
//! - inline elements (`a`, `span`, `button`, …) are not regions;
//! - a region may not hold the page's headline (`<h1>`) nor most of the
//!   main content the extractor chose;
//! - the reply form (`<form>`, WordPress's `#respond`) is not a comment.
//!
//! ```
//! use gleaner::{extract::comments, Document, ParseOptions, Selection};
//! let html = "<article><h1>Post</h1><p>The post.</p></article>
//!   <section id=comments><ol class=commentlist><li>Nice post!</li></ol></section>";
//! let doc = Document::parse(html.as_bytes(), &ParseOptions::default())?;
//! let found = comments::comments(&doc, &Selection::none(&doc));
//! assert_eq!(gleaner::render::text(&doc, &found), "Nice post!");
//! # Ok::<(), gleaner::Error>(())
//! ```

use markup5ever::local_name;

use crate::document::{Document, NodeFlags, NodeId};
use crate::selection::Selection;

/// Words (a whole `id` or class token, or its start before `-`/`_`) that
/// name a comment region.
const REGION_WORDS: &[&str] = &[
    "comments",
    "comment-list",
    "commentlist",
    "comment-section",
    "comments-section",
    "comments-area",
    "comment-area",
    "comments-container",
    "comment-thread",
    "comments-thread",
    "disqus_thread",
    "disqus",
    "fb-comments",
    "user-comments",
    "article-comments",
    "post-comments",
    "reader-comments",
];

/// Parts after a comment word that make the name a mention, not a region.
const MENTION_PARTS: &[&str] =
    &["count", "counter", "link", "links", "button", "btn", "icon", "number", "num", "toggle"];

/// A region holding more than this share of the main content's
/// characters is the article, not its comments.
const MAX_MAIN_SHARE: f64 = 0.5;

/// The text nodes of the page's comment regions, less the reply forms
/// and less anything in `main` (the extractor's selection): empty when
/// the page has no comment section.
pub fn comments(doc: &Document, main: &Selection) -> Selection {
    let mut found = subtrees(doc, &regions(doc, main), false);
    for id in main.iter() {
        found.set(id, false);
    }
    found
}

/// Every node of the page's comment regions ([`regions`] beside `main`),
/// reply forms included: what [`set_apart`] takes out of a selection
/// (and [`comments`] gives, less the forms and `main`).
pub fn sections(doc: &Document, main: &Selection) -> Selection {
    subtrees(doc, &regions(doc, main), true)
}

/// The nodes of `regions`, with or without their reply forms (`<form>`,
/// WordPress's `#respond`).
fn subtrees(doc: &Document, regions: &[NodeId], replies: bool) -> Selection {
    let mut found = Selection::none(doc);
    for &region in regions {
        found.select_subtree(doc, region);
        if replies {
            continue;
        }
        for id in doc.subtree(region) {
            if doc.is(id, local_name!("form")) || has_name(doc, id, |n| n == "respond") {
                found.deselect_subtree(doc, id);
            }
        }
    }
    found
}

/// Takes `sections` (the page's comment sections, [`sections`]) out of
/// `selection`, unless that would leave it without text (a page whose
/// text is all comments keeps them); returns whether anything was taken
/// out.
pub fn set_apart(doc: &Document, sections: &Selection, selection: &mut Selection) -> bool {
    let mut rest = selection.clone();
    let mut taken = false;
    for id in sections.iter() {
        if rest.contains(id) {
            rest.set(id, false);
            taken = true;
        }
    }
    let has_text =
        |s: &Selection| s.iter().any(|id| doc.is_text(id) && !doc.text(id).trim().is_empty());
    if taken && has_text(&rest) {
        *selection = rest;
        return true;
    }
    false
}

/// The outermost comment regions of the page, in document order.
pub fn regions(doc: &Document, main: &Selection) -> Vec<NodeId> {
    let main_chars: usize = main.iter().map(|id| doc.text(id).trim().len()).sum();
    let h1 = doc.ids().find(|&id| doc.is(id, local_name!("h1")));
    let mut out: Vec<NodeId> = Vec::new();
    let mut skip_to = 0usize;
    for id in doc.ids() {
        if id.index() < skip_to || is_inline(doc, id) || !is_region_name(doc, id) {
            continue;
        }
        if h1.is_some_and(|h| doc.contains(id, h)) {
            continue;
        }
        if main_chars > 0 {
            let inside: usize = main
                .iter()
                .filter(|&t| doc.contains(id, t))
                .map(|t| doc.text(t).trim().len())
                .sum();
            if inside as f64 > MAX_MAIN_SHARE * main_chars as f64 {
                continue;
            }
        }
        if doc.stats(id).chars == 0 {
            continue;
        }
        out.push(id);
        skip_to = doc.subtree_end(id).index();
    }
    out
}

/// Is one of the element's `id`/class tokens a comment region's name?
fn is_region_name(doc: &Document, id: NodeId) -> bool {
    if doc.is(id, local_name!("section"))
        && doc.attr(id, "id").is_some_and(|i| i.trim() == "comments")
    {
        return true;
    }
    // Every region word says `comment` or `disqus`: an element whose
    // `id` and class say neither (nearly all) is passed over without its
    // tokens lower-cased one by one.
    if !["id", "class"].iter().filter_map(|a| doc.attr(id, a)).any(may_name_a_region) {
        return false;
    }
    has_name(doc, id, |token| {
        REGION_WORDS.iter().any(|w| {
            token == *w
                || token.strip_prefix(w).is_some_and(|rest| {
                    rest.starts_with(['-', '_'])
                        && !MENTION_PARTS
                            .iter()
                            .any(|m| rest[1..].split(['-', '_']).next() == Some(*m))
                })
        })
    })
}

/// Does an `id` or class attribute value hold `comment` or `disqus`, in
/// any case (a part of every one of [`REGION_WORDS`])?
fn may_name_a_region(value: &str) -> bool {
    let b = value.as_bytes();
    // Found by their middles, `mm` and `sq`, which few names have: one
    // test of a byte pair per position, the whole word compared only there.
    let at = |start: usize, part: &[u8]| {
        b.get(start..start + part.len()).is_some_and(|w| w.eq_ignore_ascii_case(part))
    };
    (2..b.len().saturating_sub(1)).any(|i| match (b[i] | 0x20, b[i + 1] | 0x20) {
        (b'm', b'm') => at(i - 2, b"comment"),
        (b's', b'q') => at(i - 2, b"disqus"),
        _ => false,
    })
}

/// Does one of the element's `id`/class tokens, lowercased, pass `test`?
fn has_name(doc: &Document, id: NodeId, test: impl Fn(&str) -> bool) -> bool {
    ["id", "class"]
        .iter()
        .filter_map(|a| doc.attr(id, a))
        .any(|v| v.split_whitespace().any(|token| test(&token.to_ascii_lowercase())))
}

/// Inline elements, which name comment links and counters, not regions.
fn is_inline(doc: &Document, id: NodeId) -> bool {
    !doc.flags(id).contains(NodeFlags::BLOCK)
        || doc.is(id, local_name!("a"))
        || doc.is(id, local_name!("button"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ParseOptions;

    fn found(html: &str) -> String {
        let doc = Document::parse(html.as_bytes(), &ParseOptions::default()).expect("parse");
        crate::render::text(&doc, &comments(&doc, &Selection::none(&doc)))
    }

    #[test]
    fn wordpress_disqus_and_class_lists() {
        let wp = "<article><h1>T</h1><p>Body.</p></article>
            <div id=comments class=comments-area><h2>3 thoughts</h2>
            <ol class=comment-list><li class=comment>First!</li><li>Second.</li></ol>
            <div id=respond><form><textarea></textarea><p>Leave a reply</p></form></div></div>";
        assert_eq!(found(wp), "3 thoughts\n\nFirst!\nSecond.");
        assert_eq!(
            found("<div id=disqus_thread><p>A reader says hi.</p></div>"),
            "A reader says hi."
        );
        assert_eq!(found("<ul class='post-comments list'><li>Agreed.</li></ul>"), "Agreed.");
    }

    #[test]
    fn set_apart_takes_the_sections_out_unless_nothing_else_is_left() {
        let html = "<article><h1>T</h1><p>Body.</p></article>
            <div id=comments><p>First!</p><div id=respond><form><p>Reply</p></form></div></div>";
        let doc = Document::parse(html.as_bytes(), &ParseOptions::default()).expect("parse");
        let all = Selection::subtree(&doc, doc.root());
        let body = Selection::none(&doc);
        let found = sections(&doc, &body);
        let mut selection = all.clone();
        assert!(set_apart(&doc, &found, &mut selection));
        assert_eq!(crate::render::text(&doc, &selection), "T\n\nBody.");
        // A selection of nothing but comments keeps them.
        let mut only = comments(&doc, &body);
        assert!(!set_apart(&doc, &found, &mut only));
        assert_eq!(crate::render::text(&doc, &only), "First!");
        // A section holding most of the main content is not one.
        assert_eq!(sections(&doc, &only).count(), 0);
    }

    #[test]
    fn every_region_word_passes_the_quick_test() {
        for w in REGION_WORDS {
            assert!(may_name_a_region(w) && may_name_a_region(&w.to_ascii_uppercase()), "{w}");
        }
        assert!(!may_name_a_region("post-content entry") && !may_name_a_region(""));
    }

    #[test]
    fn mentions_commentary_and_the_article_are_not_regions() {
        assert_eq!(found("<p><a class=comments-link href=#c>12 comments</a></p>"), "");
        assert_eq!(found("<div class=comment-count>12</div>"), "");
        assert_eq!(found("<div class=commentary><p>An opinion.</p></div>"), "");
        // A wrapper holding the headline is the article.
        assert_eq!(found("<div class=comments-enabled><h1>T</h1><p>Body.</p></div>"), "");
    }

    #[test]
    fn a_region_holding_most_of_the_main_content_is_not_taken() {
        let html = "<div class=comments-on><p>The long article text is here.</p></div>
            <div class=comments><p>Reply.</p></div>";
        let doc = Document::parse(html.as_bytes(), &ParseOptions::default()).expect("parse");
        let main = crate::extract::by_name("plain").expect("plain").extract(&doc);
        let mut article = Selection::none(&doc);
        for id in main.iter().filter(|&id| doc.text(id).contains("article")) {
            article.set(id, true);
        }
        let got = comments(&doc, &article);
        assert_eq!(crate::render::text(&doc, &got), "Reply.");
    }
}
