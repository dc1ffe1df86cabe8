//! Part of pass 1, **widgets** \[I\]: blocks that are recognisable by
//! their structure as something other than the article, whatever their
//! class names say (issue 11, "prefer structure, nearest-ancestor
//! evidence and guards"): slideshows, whose slides count themselves
//! ("3 / 12"), and the embedded posts of social networks (a quote that
//! links to one post). Pass 2 sets
//! them aside like boilerplate, so they neither vote nor are selected
//! while anything else is left.

use markup5ever::local_name;

use super::ArticleConfig;
use crate::document::{Document, NodeId};

/// The roots of every widget on the page, outermost first, none inside
/// another, given the page's slide `counters` and its `<blockquote>`
/// elements in document order (both gathered by walks `segments` makes
/// anyway).
pub(super) fn find_widgets(
    doc: &Document,
    cfg: &ArticleConfig,
    counters: SlideCounters,
    blockquotes: &[NodeId],
) -> Vec<NodeId> {
    let mut roots = if cfg.slideshows { slideshows(doc, counters) } else { Vec::new() };
    if cfg.embedded_posts {
        roots.extend(embedded_posts(doc, blockquotes));
    }
    roots.sort();
    let mut outermost: Vec<NodeId> = Vec::with_capacity(roots.len());
    for id in roots {
        if !outermost.last().is_some_and(|&last| doc.contains(last, id)) {
            outermost.push(id);
        }
    }
    outermost
}

/// Slideshows: text nodes that read as a slide counter `k/n` or `k of n`
/// with the same total `n`, at least [`MIN_SLIDES`] different `k`, each
/// in a different child of their nearest common ancestor, which is the
/// slideshow (a list of slides, each with its counter, caption and
/// credit). Fractions in a recipe (`1/4`, `3/4`) do not number three
/// sibling items differently over one total, and a counter that counts to
/// fewer than [`MIN_SLIDES`] is not a slideshow.
fn slideshows(doc: &Document, counters: SlideCounters) -> Vec<NodeId> {
    let SlideCounters(mut counters) = counters;
    counters.sort();
    let mut roots = Vec::new();
    for group in counters.chunk_by(|a, b| a.0 == b.0) {
        let mut numbers: Vec<u32> = group.iter().map(|&(_, k, _)| k).collect();
        numbers.dedup();
        if numbers.len() < MIN_SLIDES {
            continue;
        }
        let mut nodes = group.iter().map(|&(_, _, id)| id);
        let Some(first) = nodes.next() else { continue };
        let Some(root) = nodes.try_fold(first, |lca, id| common_ancestor(doc, lca, id)) else {
            continue;
        };
        let mut items: Vec<NodeId> = group
            .iter()
            .filter_map(|&(_, _, id)| doc.ancestors(id).take_while(|&a| a != root).last())
            .collect();
        items.sort();
        items.dedup();
        if items.len() >= MIN_SLIDES && doc.element(root).is_some() && root != doc.body() {
            roots.push(root);
        }
    }
    roots
}

/// Embedded posts of social networks: a `blockquote` holding a link to
/// one post (`twitter.com/…/status/…`, `x.com/…/status/…`,
/// `instagram.com/p/…`, `tiktok.com/@…/video/…`), which is what the
/// networks' embed code writes (their script turns it into a card). The
/// post is someone else's text, not the article's (issue 11).
///
/// Only the outermost such blockquotes: a blockquote around one holding
/// the link holds it too, and [`find_widgets`] keeps the outermost roots
/// alone. So each outermost blockquote's subtree is read until its
/// first post link, instead of once per nested blockquote (O(n · depth)
/// on a chain of quotes in quotes, issue 12); the blockquotes are those
/// of the page (`blockquotes`, in document order), not found by a walk
/// over every node of its own (issue 12).
fn embedded_posts(doc: &Document, blockquotes: &[NodeId]) -> Vec<NodeId> {
    let mut posts = Vec::new();
    let end = doc.len() as u32;
    // The end of the last blockquote read: those inside it are passed
    // over (a blockquote inside one is a post only if that one is).
    let mut read_to = 0u32;
    for &quote in blockquotes {
        if quote.0 < read_to {
            continue;
        }
        let quote_end = doc.subtree_end(quote).0.clamp(quote.0 + 1, end);
        let links = (quote.0..quote_end).map(NodeId).any(|l| {
            doc.element(l)
                .and_then(|e| e.attr_named(&local_name!("href")))
                .is_some_and(is_social_post_url)
        });
        if links {
            posts.push(quote);
        }
        read_to = quote_end;
    }
    posts
}

/// Is `href` the address of one post on a social network?
fn is_social_post_url(href: &str) -> bool {
    let Ok(url) = url::Url::parse(href.trim()) else { return false };
    let host =
        url.host_str().unwrap_or("").trim_start_matches("www.").trim_start_matches("mobile.");
    let path = url.path();
    match host {
        "twitter.com" | "x.com" => path.contains("/status/"),
        "instagram.com" => path.starts_with("/p/") || path.starts_with("/reel/"),
        "tiktok.com" => path.contains("/video/"),
        _ => false,
    }
}

/// Fewest slides a slideshow has \[I\].
const MIN_SLIDES: usize = 3;

/// The slide counters of a page's visible text, `(n, k, node)` for a
/// counter `k/n` ([`slide_counter`]), gathered by the walk over the
/// visible text that `segments` makes anyway: no walk of the page of
/// their own (issue 12).
#[derive(Debug, Default)]
pub(super) struct SlideCounters(Vec<(u32, u32, NodeId)>);

impl SlideCounters {
    /// Reads one visible text node with `chars` characters (its
    /// statistics). More than a counter's twelve bytes rule it out
    /// without reading it (issue 12).
    pub(super) fn read(&mut self, doc: &Document, id: NodeId, chars: u32) {
        if (1..=12).contains(&chars) {
            let text = doc.text(id);
            if !ends_in_digits(text.as_bytes()) {
                return;
            }
            if let Some((k, total)) = slide_counter(text) {
                self.0.push((total, k, id));
            }
        }
    }

    /// The counters of the page's visible text, by a walk of their own.
    #[cfg(test)]
    pub(super) fn of(doc: &Document) -> SlideCounters {
        let mut counters = SlideCounters::default();
        for id in doc.text_nodes() {
            counters.read(doc, id, doc.stats(id).chars);
        }
        counters
    }
}

/// Can `text` be a [`slide_counter`], judged by its first and last bytes
/// that are not ASCII whitespace (U+0009–U+000D, U+0020)? Not when one
/// of them is another ASCII byte than a digit, or there is none: most
/// short texts (a word, a link's label) are ruled out without trimming
/// them as text (issue 12). Other whitespace, and any other character,
/// at an end leave the question to [`slide_counter`].
fn ends_in_digits(text: &[u8]) -> bool {
    let is_space = |b: &&u8| matches!(**b, b'\t'..=b'\r' | b' ');
    let may_end = |b: Option<&u8>| b.is_some_and(|&b| !b.is_ascii() || b.is_ascii_digit());
    may_end(text.iter().find(|b| !is_space(b))) && may_end(text.iter().rev().find(|b| !is_space(b)))
}

/// `(k, n)` when `text` is a slide counter: `k/n` or `k of n`, with
/// `1 ≤ k ≤ n`, `n ≥` [`MIN_SLIDES`], at most three digits each, spaces
/// around allowed.
fn slide_counter(text: &str) -> Option<(u32, u32)> {
    let t = text.trim();
    // Both numbers are digits alone, so the trimmed text starts and ends
    // with one: most short texts (a word, a link's label) are ruled out
    // without being split (issue 12).
    let digit = |b: Option<&u8>| b.is_some_and(u8::is_ascii_digit);
    if t.len() > 12 || !digit(t.as_bytes().first()) || !digit(t.as_bytes().last()) {
        return None;
    }
    // `" of "` found by hand: a substring searcher costs more to set up
    // than these twelve bytes take to read (issue 12).
    let of = || {
        let at = t.as_bytes().windows(4).position(|w| w == b" of ")?;
        Some((t.get(..at)?, t.get(at + 4..)?))
    };
    let (k, n) = t.split_once('/').or_else(of)?;
    let number = |s: &str| {
        let s = s.trim();
        (1..=3).contains(&s.len()).then_some(())?;
        s.bytes().all(|b| b.is_ascii_digit()).then(|| s.parse::<u32>().ok())?
    };
    let (k, n) = (number(k)?, number(n)?);
    (k >= 1 && k <= n && n as usize >= MIN_SLIDES).then_some((k, n))
}

/// The nearest common ancestor of `a` and `b` (`a` when it holds `b`).
fn common_ancestor(doc: &Document, a: NodeId, b: NodeId) -> Option<NodeId> {
    std::iter::once(a).chain(doc.ancestors(a)).find(|&x| doc.contains(x, b))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract::article::tests::{parse, run, PARA};

    #[test]
    fn slide_counters() {
        assert_eq!(slide_counter(" 3/50 "), Some((3, 50)));
        assert_eq!(slide_counter("3 of 12"), Some((3, 12)));
        for no in ["1/2", "7/4", "0/5", "1/4 cup", "2024/1000", "of 12", "a/b", ""] {
            assert_eq!(slide_counter(no), None, "{no}");
        }
    }

    /// The quick test of the ends never rules out a counter: whatever
    /// surrounds a counter, a text it passes over is none.
    #[test]
    fn the_ends_test_keeps_every_counter() {
        let around = ["", " ", "\n\t", "\x0b", "\u{a0}", "\u{2003} ", "x", "é", ":", "\r\n  "];
        for core in ["3/50", "3 of 12", "12/12", "1/4 cup", "a/b", "7", "", "/"] {
            for before in around {
                for after in around {
                    let text = format!("{before}{core}{after}");
                    if !ends_in_digits(text.as_bytes()) {
                        assert_eq!(slide_counter(&text), None, "{text:?}");
                    }
                }
            }
        }
        assert!(ends_in_digits(b" 3/50 ") && ends_in_digits("\u{a0}3/50".as_bytes()));
        assert!(!ends_in_digits(b"Home") && !ends_in_digits(b" \n ") && !ends_in_digits(b""));
    }

    /// See: issue 11, "whole slideshow widgets (lists of slides each with
    /// a caption, an 'N of M' counter and a photo credit)" and "a long
    /// gallery outvoting a short article".
    #[test]
    fn issue_11_a_slideshow_does_not_outvote_the_article() {
        let slides: String = (1..=12)
            .map(|k| {
                format!(
                    "<li><h2><span class=counter>{k}/12</span> Slide title {k}</h2>\
                     <p>The caption of slide {k} is long, and it says a lot, about a picture, in a gallery.</p>\
                     <p class=credits>GETTY IMAGES</p></li>"
                )
            })
            .collect();
        let html = format!(
            "<div class=story><h1>Storm hits the coast</h1><p>{PARA}</p><p>{PARA}</p><p>{PARA}</p>\
             <div class=gallery><ul class=slides>{slides}</ul></div></div>"
        );
        let doc = parse(&html);
        let ul = doc.ids().find(|&id| doc.attr(id, "class") == Some("slides")).expect("ul");
        assert_eq!(
            find_widgets(&doc, &ArticleConfig::default(), SlideCounters::of(&doc), &[]),
            [ul]
        );
        let out = run(&html);
        assert_eq!(out.matches("A powerful storm").count(), 3, "{out}");
        assert!(!out.contains("caption of slide") && !out.contains("GETTY"), "{out}");
        // A page that is nothing but the slideshow still yields it.
        let only = format!("<div class=gallery><ul class=slides>{slides}</ul></div>");
        assert!(run(&only).contains("caption of slide 12"));
        // Fractions in a recipe are not slide counters.
        let recipe = format!(
            "<div><p>{PARA}</p><ul><li><span>1/4</span> cup of flour</li>\
             <li><span>3/4</span> cup of sugar</li><li><span>1/4</span> cup of milk</li></ul></div>"
        );
        let doc = parse(&recipe);
        assert!(
            find_widgets(&doc, &ArticleConfig::default(), SlideCounters::of(&doc), &[]).is_empty()
        );
    }

    /// See: issue 11, "embedded posts (tweets, Instagram blockquotes)
    /// inside the body".
    #[test]
    fn issue_11_embedded_tweets_go_and_quotes_stay() {
        let tweet = "<blockquote class=twitter-tweet><p>The sea wall is gone, the whole street is under water now.</p>\
                     &mdash; A Resident (@resident) <a href='https://twitter.com/resident/status/123'>May 1, 2024</a></blockquote>";
        let quote = "<blockquote><p>We were ready, she said, and the old sea wall held for a while.</p></blockquote>";
        let html = format!("<div><p>{PARA}</p>{tweet}<p>{PARA}</p>{quote}<p>{PARA}</p></div>");
        let out = run(&html);
        assert_eq!(out.matches("A powerful storm").count(), 3, "{out}");
        assert!(!out.contains("whole street") && !out.contains("@resident"), "{out}");
        assert!(out.contains("We were ready"), "{out}");
        // Nested quotes: the outermost one holding a post link is the post.
        let nested =
            format!("<blockquote><blockquote>{tweet}</blockquote></blockquote>{tweet}{quote}");
        let doc = parse(&nested);
        let quotes: Vec<NodeId> =
            doc.ids().filter(|&id| doc.is(id, local_name!("blockquote"))).collect();
        assert_eq!(embedded_posts(&doc, &quotes), [quotes[0], quotes[3]]);
        assert!(is_social_post_url("https://x.com/a/status/1"));
        assert!(!is_social_post_url("https://twitter.com/a"));
    }
}
