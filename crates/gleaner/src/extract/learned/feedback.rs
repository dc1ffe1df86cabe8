//! A reader's feedback prompt left out: "Was this page helpful?", "How
//! useful was this post?", "Rate this article".
//!
//! Issue 30 asks for a documentation page's body "not its … 'was this
//! helpful' widgets". The block model scores such a prompt by its place,
//! and a prompt right under the body, in the body's own wrapper, scores
//! like the body's last line. No labelled page keeps one: of the 65
//! blocks of the dev sets that read as a prompt (the gold of 4 425
//! pages), one is content (a listing whose gold keeps "Was this
//! information helpful?"). So the extractor leaves out every short
//! block that [`is_prompt`] reads as one, on every page type, whatever
//! its score; `gleaner train` scores the held-out texts of the pages the
//! forest decides the same way.

use super::blocks::Blocks;
use crate::document::Document;
use crate::selection::Selection;

/// Most words of a prompt ("Was this page helpful? Yes No", "Please rate
/// this comment: 3 0").
pub const MAX_PROMPT_WORDS: usize = 10;

/// How a prompt asks: the words it starts with, then (after at most
/// [`MAX_GAP_WORDS`] others: "was this *page* helpful", "did you find
/// this *product summary feature* useful") the word it asks about.
const ASKS: &[(&[&str], &[&str])] = &[
    (&["was", "this"], &["helpful", "useful"]),
    (&["is", "this"], &["helpful", "useful"]),
    (&["did", "this"], &["help", "helpful", "answer", "solve"]),
    (&["did", "you", "find", "this"], &["helpful", "useful"]),
    (&["was", "the"], &["helpful", "useful"]),
    (&["were", "these"], &["helpful", "useful"]),
    (&["how", "helpful", "was", "this"], &[]),
    (&["how", "useful", "was", "this"], &[]),
    (&["rate", "this"], &[]),
    (&["please", "rate", "this"], &[]),
    (&["helpful"], &[]),
];

/// Most words between a prompt's opening and the word it asks about.
const MAX_GAP_WORDS: usize = 3;

/// Does `text` read as a reader's feedback prompt (see the [module
/// docs](self))? A short text whose lower-cased words start as one of
/// the prompts does, with the word it asks about within a few words; a
/// lone "Helpful" or "Helpful?" (a review's vote) does too, but not
/// "Helpful links".
pub fn is_prompt(text: &str) -> bool {
    // A paragraph is told before it is lower-cased.
    let words = text.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty());
    if words.take(MAX_PROMPT_WORDS + 1).count() > MAX_PROMPT_WORDS {
        return false;
    }
    let lower = text.to_lowercase();
    let words: Vec<&str> =
        lower.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).collect();
    if words.is_empty() || words.len() > MAX_PROMPT_WORDS {
        return false;
    }
    ASKS.iter().any(|(opening, about)| {
        if !words.starts_with(opening) {
            return false;
        }
        let rest = &words[opening.len()..];
        match about.is_empty() {
            // "Helpful" alone, or with its counts ("Helpful 3 0");
            // "Rate this …" with what it rates.
            true if opening == &["helpful"] => {
                rest.iter().all(|w| w.bytes().all(|b| b.is_ascii_digit()))
            }
            true => true,
            false => rest.iter().take(MAX_GAP_WORDS + 1).any(|w| about.contains(w)),
        }
    })
}

/// Do `pieces`, read one after the other, hold more than `most` words
/// (runs of letters and digits, as [`is_prompt`] counts them)? Told
/// without joining them: a paragraph is not copied to be found too long.
fn more_words<'a>(pieces: impl Iterator<Item = &'a str>, most: usize) -> bool {
    let (mut words, mut in_word) = (0, false);
    for c in pieces.flat_map(str::chars) {
        let alnum = c.is_alphanumeric();
        if alnum && !in_word {
            words += 1;
            if words > most {
                return true;
            }
        }
        in_word = alnum;
    }
    false
}

/// Leaves out of `selection` every kept block that reads as a feedback
/// prompt ([`is_prompt`]); returns those it left out.
pub fn drop_prompts(doc: &Document, blocks: &Blocks, selection: &mut Selection) -> Vec<usize> {
    let mut dropped = Vec::new();
    for i in 0..blocks.len() {
        let texts = blocks.texts(i);
        if !texts.iter().any(|&t| selection.contains(t))
            || more_words(texts.iter().map(|&t| doc.text(t)), MAX_PROMPT_WORDS)
            || !is_prompt(&blocks.text(doc, i))
        {
            continue;
        }
        blocks.set(i, selection, false);
        dropped.push(i);
    }
    dropped
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_kept_prompt_is_left_out_and_the_body_stays() {
        let html = "<body><article><p>Pass a Retry policy to the client.</p>\
            <div class=feedback><p>Was this page helpful?</p><button>Yes</button></div>\
            </article></body>";
        let (doc, blocks, mut selection) =
            super::super::blocks::selecting(html, &["Retry", "helpful"]);
        let dropped = drop_prompts(&doc, &blocks, &mut selection);
        assert_eq!(dropped.len(), 1);
        let text = crate::render::text(&doc, &selection);
        assert!(text.contains("Retry policy") && !text.contains("helpful"), "{text:?}");
    }

    #[test]
    fn words_are_counted_across_pieces() {
        assert!(!more_words(["Was this ", "page help", "ful?"].into_iter(), 4));
        assert!(more_words(["Was this ", "page helpful?", " Yes"].into_iter(), 4));
        assert!(!more_words(["— ", "…"].into_iter(), 0));
    }

    #[test]
    fn prompts_as_pages_ask_them() {
        for yes in [
            "Was this page helpful?",
            "Was this helpful? 0 0",
            "Is this page useful?Edit this page",
            "Was this article helpful?",
            "Did you find this product summary feature useful?",
            "How useful was this post?",
            "Did this answer your question?",
            "Rate this article",
            "Please rate this comment: 3 0",
            "Helpful?",
            "Helpful 12",
        ] {
            assert!(is_prompt(yes), "{yes}");
        }
        for no in [
            "Helpful Links",
            "Useful links",
            "Thank you this is helpful",
            "Is the blockchain fundamentals course helpful in preparations for certification programs?",
            "Was this the reason the launch slipped by a week, or was the weather helpful after all?",
            // The word it asks about too far from the opening.
            "Was this the one they said would be helpful",
            "This was helpful",
            "",
        ] {
            assert!(!is_prompt(no), "{no}");
        }
    }
}
