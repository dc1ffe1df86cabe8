//! What a block's own text looks like: prose or a label, a date, a price,
//! a button's words. Read once per block from its collapsed text.

use std::sync::OnceLock;

use aho_corasick::{AhoCorasick, AhoCorasickBuilder, AhoCorasickKind, MatchKind};

/// A kind of stock phrase that boilerplate is made of (and a few that
/// content is). Matched case-insensitively anywhere in the text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub enum Phrase {
    /// "share", "tweet", "pin it".
    Share,
    /// "reply", "quote", "report", "permalink": forum and comment tools.
    Reply,
    /// "log in", "sign in", "sign up", "register".
    Account,
    /// "subscribe", "newsletter".
    Subscribe,
    /// "cookie", "privacy policy", "terms of".
    Legal,
    /// "read more", "learn more", "view all", "see more".
    More,
    /// "advertisement", "sponsored".
    Advert,
    /// "©", "copyright", "all rights reserved".
    Copyright,
    /// "add to cart", "buy now", "in stock", "wishlist".
    Cart,
    /// "related", "you may also like", "recommended".
    Related,
    /// "home", "menu", "skip to", "back to top".
    Navigation,
    /// Month names, "ago", "am"/"pm" after a digit.
    Date,
    /// "posted", "written by", "updated", "published".
    Byline,
    /// "was this helpful", "edit this page", "feedback".
    Helpful,
    /// "comment", "leave a".
    Comment,
    /// "photo", "image", "getty", "credit", "illustration".
    Credit,
    /// "previous", "next", "page 1 of".
    Paging,
}

/// Every [`Phrase`], in order: the feature columns.
pub const PHRASES: [Phrase; 17] = [
    Phrase::Share,
    Phrase::Reply,
    Phrase::Account,
    Phrase::Subscribe,
    Phrase::Legal,
    Phrase::More,
    Phrase::Advert,
    Phrase::Copyright,
    Phrase::Cart,
    Phrase::Related,
    Phrase::Navigation,
    Phrase::Date,
    Phrase::Byline,
    Phrase::Helpful,
    Phrase::Comment,
    Phrase::Credit,
    Phrase::Paging,
];

/// The feature name of each phrase.
pub const PHRASE_NAMES: [&str; 17] = [
    "says_share",
    "says_reply",
    "says_account",
    "says_subscribe",
    "says_legal",
    "says_more",
    "says_advert",
    "says_copyright",
    "says_cart",
    "says_related",
    "says_navigation",
    "says_date",
    "says_byline",
    "says_helpful",
    "says_comment",
    "says_credit",
    "says_paging",
];

#[rustfmt::skip]
const PHRASE_WORDS: &[(Phrase, &[&str])] = &[
    (Phrase::Share, &["share", "tweet", "pin it", "whatsapp", "facebook", "linkedin"]),
    (Phrase::Reply, &["reply", "replies", "quote", "report", "permalink", "upvote", "like this"]),
    (Phrase::Account, &["log in", "login", "sign in", "signin", "sign up", "register", "create account", "my account", "log out"]),
    (Phrase::Subscribe, &["subscribe", "newsletter", "inbox", "notify me"]),
    (Phrase::Legal, &["cookie", "privacy policy", "terms of", "terms and conditions", "consent", "do not sell"]),
    (Phrase::More, &["read more", "learn more", "view all", "see all", "see more", "show more", "load more", "continue reading", "view more", "discover"]),
    (Phrase::Advert, &["advertisement", "sponsored", "ad choices", "promoted", "affiliate"]),
    (Phrase::Copyright, &["\u{a9}", "copyright", "all rights reserved"]),
    (Phrase::Cart, &["add to cart", "add to bag", "add to basket", "buy now", "in stock", "out of stock", "wishlist", "wish list", "checkout", "free shipping", "quantity"]),
    (Phrase::Related, &["related", "you may also like", "you might also like", "recommended", "more from", "popular", "trending", "more stories", "also read"]),
    (Phrase::Navigation, &["home", "menu", "skip to", "back to top", "go to", "sitemap"]),
    (Phrase::Date, &["january", "february", "march", "april", "may ", "june", "july", "august", "september", "october", "november", "december", " ago", "jan ", "feb ", "mar ", "apr ", "jun ", "jul ", "aug ", "sep ", "sept ", "oct ", "nov ", "dec "]),
    (Phrase::Byline, &["posted", "written by", "updated", "published", "by "]),
    (Phrase::Helpful, &["was this helpful", "was this page helpful", "edit this page", "edit on github", "feedback", "thank you for"]),
    (Phrase::Comment, &["comment", "leave a", "join the discussion"]),
    (Phrase::Credit, &["photo", "image", "getty", "credit", "illustration", "reuters", "shutterstock"]),
    (Phrase::Paging, &["previous", "next", "page 1", "older", "newer"]),
];

fn phrase_matcher() -> Option<&'static (AhoCorasick, Vec<Phrase>)> {
    static MATCHER: OnceLock<Option<(AhoCorasick, Vec<Phrase>)>> = OnceLock::new();
    MATCHER
        .get_or_init(|| {
            let mut words = Vec::new();
            let mut kinds = Vec::new();
            for &(kind, list) in PHRASE_WORDS {
                for w in list {
                    words.push(*w);
                    kinds.push(kind);
                }
            }
            // A DFA: built once, the fastest to run over every block.
            AhoCorasickBuilder::new()
                .kind(Some(AhoCorasickKind::DFA))
                .ascii_case_insensitive(true)
                .match_kind(MatchKind::Standard)
                .build(&words)
                .ok()
                .map(|a| (a, kinds))
        })
        .as_ref()
}

/// A set of [`Phrase`]s.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Phrases(u32);

impl Phrases {
    /// Does the set hold `p`?
    pub fn contains(self, p: Phrase) -> bool {
        self.0 & (1 << p as u8) != 0
    }

    fn insert(&mut self, p: Phrase) {
        self.0 |= 1 << p as u8;
    }
}

/// What a block's text looks like.
#[derive(Debug, Clone, Default)]
pub struct TextFacts {
    /// Commas.
    pub commas: u32,
    /// Sentence ends: `.`, `!`, `?` (and their CJK forms) after a letter
    /// or digit and before a space or the end.
    pub sentences: u32,
    /// Does the text end as a sentence does?
    pub ends_sentence: bool,
    /// Digits among the non-space characters.
    pub digits: u32,
    /// Words that start upper-case.
    pub capitalised: u32,
    /// Words.
    pub words: u32,
    /// Letters.
    pub letters: u32,
    /// Non-space characters that are neither letters nor digits.
    pub symbols: u32,
    /// Non-space characters.
    pub chars: u32,
    /// Separators of menus and breadcrumbs: `|`, `•`, `·`, `›`, `»`, `/`, `>`.
    pub separators: u32,
    /// Prices: a currency sign next to a digit.
    pub prices: u32,
    /// Question marks.
    pub questions: u32,
    /// The stock phrases in the text.
    pub phrases: Phrases,
    /// The heading level of the owner (1–6), 0 when it is not a heading.
    pub heading: u8,
}

/// Reads a block's text, given as the pieces of its text nodes in order
/// (read as one text: a word may run across pieces).
pub fn text_facts<'a>(pieces: impl IntoIterator<Item = &'a str>, heading: u8) -> TextFacts {
    let mut f = TextFacts { heading, ..TextFacts::default() };
    let mut prev: Option<char> = None;
    let mut last: Option<char> = None;
    let mut in_word = false;
    let matcher = phrase_matcher();
    for piece in pieces {
        let mut chars = piece.chars().peekable();
        while let Some(c) = chars.next() {
            if c.is_whitespace() {
                in_word = false;
                prev = Some(c);
                continue;
            }
            last = Some(c);
            f.chars += 1;
            if !in_word {
                f.words += 1;
                if c.is_uppercase() {
                    f.capitalised += 1;
                }
                in_word = true;
            }
            if c.is_alphabetic() {
                f.letters += 1;
            } else if c.is_numeric() {
                f.digits += 1;
            } else {
                f.symbols += 1;
                let next = chars.peek().copied();
                match c {
                    ',' | '\u{3001}' | '\u{ff0c}' => f.commas += 1,
                    '.' | '!' | '?' | '\u{3002}' | '\u{ff01}' | '\u{ff1f}' => {
                        if prev.is_some_and(char::is_alphanumeric)
                            && next.is_none_or(|n| n.is_whitespace() || n == '"' || n == '\u{201d}')
                        {
                            f.sentences += 1;
                        }
                        if c == '?' || c == '\u{ff1f}' {
                            f.questions += 1;
                        }
                    }
                    '|' | '\u{2022}' | '\u{b7}' | '\u{203a}' | '\u{bb}' | '/' | '>' => {
                        f.separators += 1;
                    }
                    '$' | '\u{20ac}' | '\u{a3}' | '\u{a5}' | '\u{20b9}'
                        if next.is_some_and(|n| n.is_ascii_digit())
                            || prev.is_some_and(|p| p.is_ascii_digit()) =>
                    {
                        f.prices += 1;
                    }
                    _ => {}
                }
            }
            prev = Some(c);
        }
        if let Some((automaton, kinds)) = matcher {
            // Non-overlapping: of two phrases that overlap, the one that
            // ends first is found and the other is not ("you may also
            // like" gives `Date`'s "may ", not `Related`). The shipped
            // model was trained on these columns as they are; matching
            // overlapping changes them and waits for a retrain
            // (docs/learned.md, "Kept: the title heading").
            for m in automaton.find_iter(piece) {
                if let Some(&k) = kinds.get(m.pattern().as_usize()) {
                    f.phrases.insert(k);
                }
            }
        }
    }
    f.ends_sentence = matches!(
        last,
        Some('.' | '!' | '?' | '"' | '\u{201d}' | ':' | '\u{3002}' | '\u{ff01}' | '\u{ff1f}')
    );
    f
}

/// Hashes of the lower-cased words of a text (runs of alphanumerics),
/// sorted and without repeats: a title's words, for [`word_overlap`].
pub fn word_hashes<'a>(pieces: impl IntoIterator<Item = &'a str>) -> Vec<u64> {
    let mut out = Vec::new();
    for_each_word_hash(pieces, |h| out.push(h));
    out.sort_unstable();
    out.dedup();
    out
}

/// FNV-1a of each lower-cased word of the pieces.
fn for_each_word_hash<'a>(pieces: impl IntoIterator<Item = &'a str>, mut f: impl FnMut(u64)) {
    const START: u64 = crate::hash::FNV_OFFSET;
    let mut h = START;
    let mut in_word = false;
    for piece in pieces {
        for c in piece.chars() {
            // ASCII, the common case, without the Unicode tables (the same
            // hash: an ASCII letter lower-cases to one ASCII letter).
            let word = if c.is_ascii() { c.is_ascii_alphanumeric() } else { c.is_alphanumeric() };
            if word {
                let step = |h: u64, l: char| crate::hash::fnv1a_step(h, u64::from(l));
                if c.is_ascii() {
                    h = step(h, c.to_ascii_lowercase());
                } else {
                    h = c.to_lowercase().fold(h, step);
                }
                in_word = true;
            } else if in_word {
                f(h);
                h = START;
                in_word = false;
            }
        }
    }
    if in_word {
        f(h);
    }
}

/// The share of words two texts have in common, over the larger number
/// of distinct words: `title`'s from [`word_hashes`], the block's read
/// from its pieces.
///
/// `mine` is a buffer the caller may reuse across calls.
pub fn word_overlap<'a>(
    pieces: impl IntoIterator<Item = &'a str>,
    title: &[u64],
    mine: &mut Vec<u64>,
) -> f32 {
    if title.is_empty() {
        return 0.0;
    }
    mine.clear();
    for_each_word_hash(pieces, |h| mine.push(h));
    mine.sort_unstable();
    mine.dedup();
    if mine.is_empty() {
        return 0.0;
    }
    let common = mine.iter().filter(|h| title.binary_search(h).is_ok()).count();
    common as f32 / mine.len().max(title.len()) as f32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prose_and_labels_differ() {
        let prose =
            text_facts(["The storm reached the coast, as fore", "cast. It rained all day!"], 0);
        assert_eq!(prose.words, 11);
        assert_eq!(prose.sentences, 2);
        assert_eq!(prose.commas, 1);
        assert!(prose.ends_sentence);
        let label = text_facts(["Add to cart | $19.99"], 0);
        assert_eq!(label.sentences, 0);
        assert_eq!(label.prices, 1);
        assert_eq!(label.separators, 1);
        assert!(label.phrases.contains(Phrase::Cart));
        assert!(!label.phrases.contains(Phrase::Share));
    }

    #[test]
    fn words_overlap_case_blind() {
        let title = word_hashes(["Storm hits the coast"]);
        let mut buf = Vec::new();
        assert_eq!(word_overlap(["STORM hits the ", "coast!"], &title, &mut buf), 1.0);
        assert_eq!(word_overlap(["Storm"], &title, &mut buf), 0.25);
        assert_eq!(word_overlap(["Other words"], &title, &mut buf), 0.0);
        assert_eq!(word_overlap(["Stürm Übers"], &word_hashes(["STÜRM übers"]), &mut buf), 1.0);
    }
}
