//! The class and id vocabulary of [`Article`](super::Article): one table
//! of the words that an element's `id` and `class` attributes are read
//! for, what each word means there ([`Role`]) and how it is matched
//! ([`Match`]).
//!
//! The attributes are joined and lower-cased
//! ([`ElementRef::id_and_class`](crate::document::ElementRef::id_and_class));
//! a *name part* is a maximal run of ASCII letters and digits in them
//! (`article-body` has the parts `article` and `body`).
//!
//! **Negation** \[I\]: a name part `no` or `not` followed by `-` negates
//! the part after it, which then matches no word: `no-sidebar` (a layout
//! without a sidebar) is not boilerplate, `not-comment` is not a comment.
//!
//! # Where a new word goes
//!
//! Add one row to [`VOCABULARY`], in the block of its role: the word, its
//! role, how it matches, and where it comes from ([`Source`]). Prefer
//! [`Match::WholePart`] for short words (`ad` would match `header` as a
//! substring), [`Match::Prefix`] for words with many endings (`comment`,
//! `comments`, `commentlist`), and [`Match::Substring`] only for the
//! Readability lists, which are substring patterns. A word that plays
//! several roles (`social` is boilerplate, unlikely and inner boilerplate)
//! has one row per role. The unit tests below show each role at work.

/// What a word in a class or id says about the element.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Role {
    /// An article container: `+class_weight` votes.
    ArticleHint,
    /// Boilerplate: `−class_weight` votes.
    Boilerplate,
    /// Set aside before voting, at the strictest attempt (Readability's
    /// "unlikely candidates").
    Unlikely,
    /// Rescues an [`Role::Unlikely`] element (`main-column`).
    Rescue,
    /// User comments: set aside until nothing else is left; no
    /// [`Role::Rescue`] word and no rescue by size saves them.
    Comment,
    /// A name part matching this is not a comment part even when it
    /// matches a [`Role::Comment`] word (`commentary`, an opinion piece).
    NotComment,
    /// A block inside the article that is not the article (share bars,
    /// newsletter boxes): removed from the chosen container.
    InnerBoilerplate,
}

/// How a word is matched against the joined, lower-cased id and class.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Match {
    /// Anywhere, across name parts (`com-` in `com-list`, `tool` in
    /// `toolbar`).
    Substring,
    /// At the start of a name part (`comment` in `comments`).
    Prefix,
    /// A whole name part (`ad` in `top-ad`, not in `header`).
    WholePart,
}

/// Where a word comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Source {
    /// Readability (Arc90 2009; Readability.js's regular expressions).
    Readability,
    /// gleaner's own choice \[I\]: common CMS names found on the dev sets.
    Gleaner,
}

/// One row of the vocabulary.
#[derive(Debug, Clone, Copy)]
pub(super) struct Word {
    /// The word, lower case.
    pub word: &'static str,
    /// What it says.
    pub role: Role,
    /// How it is matched.
    pub matching: Match,
    /// Where it comes from (read by people and the tests, not the code).
    #[cfg_attr(not(test), allow(dead_code))]
    pub source: Source,
}

const fn w(word: &'static str, role: Role, matching: Match, source: Source) -> Word {
    Word { word, role, matching, source }
}

use std::sync::OnceLock;

use aho_corasick::automaton::Automaton as _;
use aho_corasick::dfa::DFA;
use aho_corasick::{Anchored, MatchKind, StartKind};

use Match::{Prefix, Substring, WholePart};
use Role::{ArticleHint, Boilerplate, Comment, InnerBoilerplate, NotComment, Rescue, Unlikely};
use Source::{Gleaner, Readability};

/// Every class and id word, by role. See the [module docs](self) for
/// where a new word goes.
#[rustfmt::skip]
pub(super) const VOCABULARY: &[Word] = &[
    // Article hints (Readability's "positive" pattern, plus `prose`).
    w("article", ArticleHint, Substring, Readability),
    w("body", ArticleHint, Substring, Readability),
    w("content", ArticleHint, Substring, Readability),
    w("entry", ArticleHint, Substring, Readability),
    w("hentry", ArticleHint, Substring, Readability),
    w("h-entry", ArticleHint, Substring, Readability),
    w("main", ArticleHint, Substring, Readability),
    w("page", ArticleHint, Substring, Readability),
    w("post", ArticleHint, Substring, Readability),
    w("text", ArticleHint, Substring, Readability),
    w("blog", ArticleHint, Substring, Readability),
    w("story", ArticleHint, Substring, Readability),
    w("prose", ArticleHint, Substring, Gleaner),
    // Boilerplate (Readability's "negative" pattern) …
    w("hidden", Boilerplate, Substring, Readability),
    w("banner", Boilerplate, Substring, Readability),
    w("combx", Boilerplate, Substring, Readability),
    w("comment", Boilerplate, Substring, Readability),
    w("com-", Boilerplate, Substring, Readability),
    w("contact", Boilerplate, Substring, Readability),
    w("foot", Boilerplate, Substring, Readability),
    w("footer", Boilerplate, Substring, Readability),
    w("footnote", Boilerplate, Substring, Readability),
    w("gdpr", Boilerplate, Substring, Readability),
    w("masthead", Boilerplate, Substring, Readability),
    w("media", Boilerplate, Substring, Readability),
    w("meta", Boilerplate, Substring, Readability),
    w("outbrain", Boilerplate, Substring, Readability),
    w("promo", Boilerplate, Substring, Readability),
    w("related", Boilerplate, Substring, Readability),
    w("scroll", Boilerplate, Substring, Readability),
    w("share", Boilerplate, Substring, Readability),
    w("shoutbox", Boilerplate, Substring, Readability),
    w("sidebar", Boilerplate, Substring, Readability),
    w("skyscraper", Boilerplate, Substring, Readability),
    w("sponsor", Boilerplate, Substring, Readability),
    w("shopping", Boilerplate, Substring, Readability),
    w("tags", Boilerplate, Substring, Readability),
    w("tool", Boilerplate, Substring, Readability),
    w("widget", Boilerplate, Substring, Readability),
    // … and common CMS names.
    w("nav", Boilerplate, Substring, Gleaner),
    w("menu", Boilerplate, Substring, Gleaner),
    w("social", Boilerplate, Substring, Gleaner),
    w("breadcrumb", Boilerplate, Substring, Gleaner),
    w("cookie", Boilerplate, Substring, Gleaner),
    w("newsletter", Boilerplate, Substring, Gleaner),
    w("subscribe", Boilerplate, Substring, Gleaner),
    w("popup", Boilerplate, Substring, Gleaner),
    w("modal", Boilerplate, Substring, Gleaner),
    w("advert", Boilerplate, Substring, Gleaner),
    w("disqus", Boilerplate, Substring, Gleaner),
    w("pagination", Boilerplate, Substring, Gleaner),
    w("pager", Boilerplate, Substring, Gleaner),
    w("rss", Boilerplate, Substring, Gleaner),
    w("login", Boilerplate, Substring, Gleaner),
    w("signup", Boilerplate, Substring, Gleaner),
    w("teaser", Boilerplate, Substring, Gleaner),
    w("recommend", Boilerplate, Substring, Gleaner),
    // Unlikely candidates (Readability's pattern).
    w("-ad-", Unlikely, Substring, Readability),
    w("banner", Unlikely, Substring, Readability),
    w("breadcrumbs", Unlikely, Substring, Readability),
    w("combx", Unlikely, Substring, Readability),
    w("comment", Unlikely, Substring, Readability),
    w("community", Unlikely, Substring, Readability),
    w("cover-wrap", Unlikely, Substring, Readability),
    w("disqus", Unlikely, Substring, Readability),
    w("extra", Unlikely, Substring, Readability),
    w("footer", Unlikely, Substring, Readability),
    w("gdpr", Unlikely, Substring, Readability),
    w("header", Unlikely, Substring, Readability),
    w("legends", Unlikely, Substring, Readability),
    w("menu", Unlikely, Substring, Readability),
    w("related", Unlikely, Substring, Readability),
    w("remark", Unlikely, Substring, Readability),
    w("replies", Unlikely, Substring, Readability),
    w("rss", Unlikely, Substring, Readability),
    w("shoutbox", Unlikely, Substring, Readability),
    w("sidebar", Unlikely, Substring, Readability),
    w("skyscraper", Unlikely, Substring, Readability),
    w("social", Unlikely, Substring, Readability),
    w("sponsor", Unlikely, Substring, Readability),
    w("supplemental", Unlikely, Substring, Readability),
    w("ad-break", Unlikely, Substring, Readability),
    w("agegate", Unlikely, Substring, Readability),
    w("pagination", Unlikely, Substring, Readability),
    w("pager", Unlikely, Substring, Readability),
    w("popup", Unlikely, Substring, Readability),
    w("yom-remote", Unlikely, Substring, Readability),
    // Rescues of unlikely candidates (Readability's "maybe" pattern).
    w("and", Rescue, Substring, Readability),
    w("article", Rescue, Substring, Readability),
    w("body", Rescue, Substring, Readability),
    w("column", Rescue, Substring, Readability),
    w("content", Rescue, Substring, Readability),
    w("main", Rescue, Substring, Readability),
    w("shadow", Rescue, Substring, Readability),
    // User comments.
    w("comment", Comment, Prefix, Gleaner),
    w("disqus", Comment, Prefix, Gleaner),
    w("respond", Comment, WholePart, Gleaner),
    w("replies", Comment, WholePart, Gleaner),
    w("commentary", NotComment, Prefix, Gleaner),
    // Blocks inside the article that are not the article.
    w("share", InnerBoilerplate, WholePart, Gleaner),
    w("sharing", InnerBoilerplate, WholePart, Gleaner),
    w("social", InnerBoilerplate, WholePart, Gleaner),
    w("newsletter", InnerBoilerplate, WholePart, Gleaner),
    w("subscribe", InnerBoilerplate, WholePart, Gleaner),
    w("subscription", InnerBoilerplate, WholePart, Gleaner),
    w("signup", InnerBoilerplate, WholePart, Gleaner),
    w("promo", InnerBoilerplate, WholePart, Gleaner),
    w("related", InnerBoilerplate, WholePart, Gleaner),
    w("recommended", InnerBoilerplate, WholePart, Gleaner),
    w("recommendations", InnerBoilerplate, WholePart, Gleaner),
    w("advert", InnerBoilerplate, WholePart, Gleaner),
    w("advertisement", InnerBoilerplate, WholePart, Gleaner),
    w("ad", InnerBoilerplate, WholePart, Gleaner),
    w("ads", InnerBoilerplate, WholePart, Gleaner),
    w("sponsor", InnerBoilerplate, WholePart, Gleaner),
    w("sponsored", InnerBoilerplate, WholePart, Gleaner),
    w("outbrain", InnerBoilerplate, WholePart, Gleaner),
    w("taboola", InnerBoilerplate, WholePart, Gleaner),
    w("popup", InnerBoilerplate, WholePart, Gleaner),
    w("modal", InnerBoilerplate, WholePart, Gleaner),
    w("cookie", InnerBoilerplate, WholePart, Gleaner),
    w("print", InnerBoilerplate, WholePart, Gleaner),
    w("toolbar", InnerBoilerplate, WholePart, Gleaner),
    w("rating", InnerBoilerplate, WholePart, Gleaner),
    // … login and registration boxes, paywalls, donation appeals (issue 11).
    w("login", InnerBoilerplate, WholePart, Gleaner),
    w("signin", InnerBoilerplate, WholePart, Gleaner),
    w("registration", InnerBoilerplate, WholePart, Gleaner),
    w("paywall", InnerBoilerplate, WholePart, Gleaner),
    w("donate", InnerBoilerplate, WholePart, Gleaner),
    w("donation", InnerBoilerplate, WholePart, Gleaner),
];

/// The roles an element's id and class play, read once per element.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct NameRoles(u8);

impl NameRoles {
    /// The roles of the joined, lower-cased id and class `names`: one
    /// pass of the compiled vocabulary ([`Automaton`]) over the string.
    pub(super) fn of(names: &str) -> NameRoles {
        let names = without_negated_parts(names);
        match automaton() {
            Some(automaton) => automaton.roles(&names),
            None => NameRoles::by_scan(&names),
        }
    }

    /// The same roles, found by trying every row of the vocabulary in
    /// turn: the definition the automaton must agree with (the tests
    /// compare them), and the fallback should the automaton not build.
    fn by_scan(names: &str) -> NameRoles {
        let mut roles = NameRoles::default();
        for entry in VOCABULARY {
            if matches!(entry.role, Comment | NotComment) || roles.has(entry.role) {
                continue;
            }
            let hit = match entry.matching {
                Substring => names.contains(entry.word),
                Prefix | WholePart => parts(names).any(|p| entry.matches_part(p)),
            };
            if hit {
                roles.0 |= bit(entry.role);
            }
        }
        // A comment part is judged part by part: `commentary` is not one.
        let is = |role: Role, part: &str| {
            VOCABULARY.iter().any(|e| e.role == role && e.matches_part(part))
        };
        if parts(names).any(|p| is(Comment, p) && !is(NotComment, p)) {
            roles.0 |= bit(Comment);
        }
        roles
    }

    /// The roles of both: those of an element's id and of its class
    /// read apart. No word holds a space, and a name part, a negation or
    /// a comment part never crosses one, so the roles of the joined
    /// `"id class "` are those of `"id"` with those of `"class"` (a test
    /// checks it on generated names).
    pub(super) fn with(self, other: NameRoles) -> NameRoles {
        NameRoles(self.0 | other.0)
    }

    /// Does a word of this role occur?
    pub(super) fn has(self, role: Role) -> bool {
        self.0 & bit(role) != 0
    }
}

fn bit(role: Role) -> u8 {
    1 << role as u8
}

/// The vocabulary compiled into one Aho-Corasick automaton (Aho and
/// Corasick 1975), so that a name is read once, not once per row: every
/// occurrence of every word is found in one pass, and each is then
/// checked against its rows' match modes. Reading class and id names was
/// the costliest step of `article`'s analysis (issue 12).
///
/// The automaton is walked byte by byte through aho-corasick's low-level
/// [`Automaton`](aho_corasick::automaton::Automaton) interface rather
/// than its search iterators: a name is some twenty bytes, and setting up
/// an overlapping search cost more than the walk itself (issue 12).
struct Automaton {
    words: DFA,
    /// For each distinct word (pattern), the rows of [`VOCABULARY`] it heads.
    rows: Vec<Vec<&'static Word>>,
}

/// The automaton, built on first use and shared (it is immutable).
fn automaton() -> Option<&'static Automaton> {
    static AUTOMATON: OnceLock<Option<Automaton>> = OnceLock::new();
    AUTOMATON.get_or_init(Automaton::build).as_ref()
}

impl Automaton {
    fn build() -> Option<Automaton> {
        let mut words: Vec<&'static str> = Vec::new();
        let mut rows: Vec<Vec<&'static Word>> = Vec::new();
        for entry in VOCABULARY {
            match words.iter().position(|&w| w == entry.word) {
                Some(i) => rows[i].push(entry),
                None => {
                    words.push(entry.word);
                    rows.push(vec![entry]);
                }
            }
        }
        // Standard semantics: overlapping search reports every occurrence.
        // Names are short (tens of bytes): a DFA steps one table lookup
        // per byte, and a prefilter would cost more to start than it saves.
        let words = DFA::builder()
            .match_kind(MatchKind::Standard)
            .start_kind(StartKind::Unanchored)
            .prefilter(false)
            .build(&words)
            .ok()?;
        Some(Automaton { words, rows })
    }

    /// What [`NameRoles::by_scan`] finds, in one pass over `names`.
    fn roles(&self, names: &str) -> NameRoles {
        let words = &self.words;
        let Ok(mut state) = words.start_state(Anchored::No) else {
            return NameRoles::by_scan(names);
        };
        let mut found = Found { bytes: names.as_bytes(), ..Found::default() };
        // The walk keeps only the iterator: the end of a word found is
        // worked out from what is left, in the rare branch that needs it
        // (a counter beside the iterator cost the byte loop a third of
        // its instructions, issue 12).
        let mut rest = names.as_bytes().iter();
        while let Some(&byte) = rest.next() {
            state = words.next_state(Anchored::No, state, byte);
            // Most states are neither a match nor dead: one comparison.
            if !words.is_special(state) {
                continue;
            }
            if words.is_dead(state) {
                break;
            }
            if !words.is_match(state) {
                continue;
            }
            // Every word ending here (the DFA's match states hold those
            // of their suffixes too: overlapping, standard semantics).
            let end = names.len() - rest.len();
            for index in 0..words.match_len(state) {
                let pattern = words.match_pattern(state, index);
                let start = end.saturating_sub(words.pattern_len(pattern));
                if let Some(rows) = self.rows.get(pattern.as_usize()) {
                    found.add(rows, start, end);
                }
            }
        }
        found.roles()
    }
}

/// What one walk of the [`Automaton`] has found so far.
#[derive(Default)]
struct Found<'a> {
    /// The joined, lower-cased names.
    bytes: &'a [u8],
    /// The roles found, but for [`Role::Comment`] in the part being read.
    roles: NameRoles,
    /// The last name part (by its start) holding a comment word or a word
    /// that says "not a comment", and which of the two it holds. Words
    /// are found in the order they end, so the parts come in order and
    /// each is judged when the next comes ([`Found::judge_part`]): no
    /// list of parts is kept (issue 12).
    part: Option<CommentPart>,
}

/// What [`Found::part`] holds of a name part.
#[derive(Clone, Copy)]
struct CommentPart {
    start: usize,
    comment: bool,
    not_comment: bool,
}

impl Found<'_> {
    fn alnum(&self, i: usize) -> bool {
        self.bytes.get(i).is_some_and(u8::is_ascii_alphanumeric)
    }

    /// Records one occurrence, at `start..end`, of the word heading
    /// `rows`: the roles of the rows whose match mode it meets.
    fn add(&mut self, rows: &[&Word], start: usize, end: usize) {
        // A word of letters and digits only never spans two parts. The
        // word's bytes are read only when a row asks, and after the
        // bytes around it: most words found lie inside a longer part
        // (`ad` in `header`) and are ruled out by the byte before them
        // (issue 12).
        let mut in_part: Option<bool> = None;
        let at_start = start == 0 || !self.alnum(start - 1);
        let at_end = !self.alnum(end);
        for entry in rows {
            let comment_role = matches!(entry.role, Comment | NotComment);
            // A role found already is not looked at again.
            if !comment_role && self.roles.has(entry.role) {
                continue;
            }
            let mut inside = || *in_part.get_or_insert_with(|| (start..end).all(|i| self.alnum(i)));
            let part_match = match entry.matching {
                // The role of a word found anywhere needs no part.
                Substring if !comment_role => true,
                Substring => inside(),
                Prefix => at_start && inside(),
                WholePart => at_start && at_end && inside(),
            };
            match entry.role {
                Comment | NotComment if part_match => {
                    let part = (0..start).rev().find(|&i| !self.alnum(i)).map_or(0, |i| i + 1);
                    if self.part.is_none_or(|p| p.start != part) {
                        self.judge_part();
                        self.part =
                            Some(CommentPart { start: part, comment: false, not_comment: false });
                    }
                    if let Some(p) = self.part.as_mut() {
                        if entry.role == Comment {
                            p.comment = true;
                        } else {
                            p.not_comment = true;
                        }
                    }
                }
                Comment | NotComment => {}
                role if entry.matching == Substring || part_match => self.roles.0 |= bit(role),
                _ => {}
            }
        }
    }

    /// Judges the part held in [`Found::part`]: a comment part counts
    /// unless it also holds a "not a comment" word.
    fn judge_part(&mut self) {
        if self.part.is_some_and(|p| p.comment && !p.not_comment) {
            self.roles.0 |= bit(Comment);
        }
    }

    /// The roles found.
    fn roles(mut self) -> NameRoles {
        self.judge_part();
        self.roles
    }
}

impl Word {
    fn matches_part(&self, part: &str) -> bool {
        match self.matching {
            Substring => part.contains(self.word),
            Prefix => part.starts_with(self.word),
            WholePart => part == self.word,
        }
    }
}

/// The name parts of `names`.
fn parts(names: &str) -> impl Iterator<Item = &str> {
    names.split(|c: char| !c.is_ascii_alphanumeric()).filter(|p| !p.is_empty())
}

/// `names` with every negation (`no-x`, `not-x`: the part `no` or `not`,
/// a `-`, the next part) blanked out, so that it matches nothing.
fn without_negated_parts(names: &str) -> std::borrow::Cow<'_, str> {
    // `no-` or `not-` somewhere: a `-` after `no` or `not` (the `-`s found
    // eight bytes at a time; `memchr` costs more to set up than a name is
    // long, issue 12).
    let bytes = names.as_bytes();
    let negation_at = |i: usize| {
        bytes.get(..i).is_some_and(|before| before.ends_with(b"no") || before.ends_with(b"not"))
    };
    if !any_dash(bytes, negation_at) {
        return names.into();
    }
    let bytes = names.as_bytes();
    let alnum = |i: usize| bytes.get(i).is_some_and(u8::is_ascii_alphanumeric);
    let part_end = |start: usize| (start..bytes.len()).find(|&i| !alnum(i)).unwrap_or(bytes.len());
    let mut out = bytes.to_vec();
    let mut i = 0;
    while i < bytes.len() {
        if !alnum(i) {
            i += 1;
            continue;
        }
        let end = part_end(i);
        let negation = matches!(bytes.get(i..end), Some(b"no" | b"not"));
        let negated_end = part_end(end + 1);
        if negation && bytes.get(end) == Some(&b'-') && negated_end > end + 1 {
            out.iter_mut().take(negated_end).skip(i).for_each(|b| *b = b' ');
            i = negated_end;
        } else {
            i = end;
        }
    }
    // Only ASCII bytes were replaced, by ASCII: still UTF-8.
    String::from_utf8(out).map_or(names.into(), Into::into)
}

/// Is any `-` of `bytes` one for which `at` holds (given its position)?
/// Eight bytes at a time: a chunk without one is passed over by a few
/// operations on a word (SWAR \[I\]), the last bytes padded with zeros.
fn any_dash(bytes: &[u8], mut at: impl FnMut(usize) -> bool) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let mut start = 0;
    while start < bytes.len() {
        let rest = bytes.get(start..).unwrap_or_default();
        let word = match rest.first_chunk::<8>() {
            Some(chunk) => u64::from_le_bytes(*chunk),
            None => rest.iter().rev().fold(0, |w, &b| (w << 8) | u64::from(b)),
        };
        let x = word ^ (ONES * u64::from(b'-'));
        // Bit 7 of a byte set exactly where `x` is zero: its low seven
        // bits plus 0x7F carry into bit 7 unless all are zero, and bit 7
        // of `x` itself rules the byte out. No carry crosses a byte.
        let mut dashes = !(((x & !HIGH) + !HIGH) | x) & HIGH;
        while dashes != 0 {
            if at(start + dashes.trailing_zeros() as usize / 8) {
                return true;
            }
            dashes &= dashes - 1;
        }
        start += 8;
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    fn roles(names: &str) -> Vec<Role> {
        let r = NameRoles::of(names);
        [ArticleHint, Boilerplate, Unlikely, Rescue, Comment, NotComment, InnerBoilerplate]
            .into_iter()
            .filter(|&role| r.has(role))
            .collect()
    }

    #[test]
    fn each_match_mode() {
        // Substring: across and inside parts.
        assert_eq!(roles("toolbar "), [Boilerplate, InnerBoilerplate]);
        assert_eq!(roles("com-list "), [Boilerplate]);
        // Prefix and the comment exception.
        assert_eq!(roles("comments "), [Boilerplate, Unlikely, Comment]);
        assert_eq!(roles("commentary "), [Boilerplate, Unlikely]);
        // Whole part: `ad` in `top-ad`, not in `header` or `adult`.
        assert_eq!(roles("top-ad "), [InnerBoilerplate]);
        assert_eq!(roles("adult "), []);
        assert_eq!(roles("main-column "), [ArticleHint, Rescue]);
        assert_eq!(roles(""), []);
    }

    #[test]
    fn no_and_not_negate_the_next_part() {
        assert_eq!(roles("no-sidebar "), []);
        assert_eq!(roles("page not-comment "), [ArticleHint]);
        assert_eq!(roles("no-sidebar footer "), [Boilerplate, Unlikely]);
        // `no` must be a whole part, and something must follow the `-`.
        assert_eq!(roles("piano-sidebar "), [Boilerplate, Unlikely]);
        assert_eq!(roles("no- sidebar "), [Boilerplate, Unlikely]);
        assert_eq!(roles("nosidebar "), [Boilerplate, Unlikely]);
    }

    /// [`any_dash`] visits every `-`, in order, whatever its place in a
    /// chunk of eight, next to any other byte.
    #[test]
    fn every_dash_is_visited_in_order() {
        let texts =
            ["", "-", "a-b", "--------", "abcdefg-", "abcdefgh-", "é-\u{2010}-x", "-\u{ad}-"];
        let mut texts: Vec<String> = texts.map(String::from).to_vec();
        for n in 0..40 {
            texts.push((0..n).map(|i| if i % 3 == n % 4 { '-' } else { 'ÿ' }).collect());
        }
        for text in &texts {
            let mut seen = Vec::new();
            assert!(!any_dash(text.as_bytes(), |i| {
                seen.push(i);
                false
            }));
            let expected: Vec<usize> =
                text.bytes().enumerate().filter(|&(_, b)| b == b'-').map(|(i, _)| i).collect();
            assert_eq!(seen, expected, "{text:?}");
            assert_eq!(any_dash(text.as_bytes(), |_| true), !expected.is_empty());
        }
    }

    /// The automaton agrees with the row-by-row definition on names made
    /// of vocabulary words, their pieces, negations and separators.
    #[test]
    fn the_automaton_finds_what_the_scan_finds() {
        let automaton = automaton().expect("the vocabulary compiles");
        let mut pieces: Vec<String> = VOCABULARY.iter().map(|w| w.word.to_string()).collect();
        pieces.extend(VOCABULARY.iter().map(|w| format!("{}s", w.word)));
        pieces.extend(VOCABULARY.iter().map(|w| format!("x{}", w.word)));
        pieces.extend(["no", "not", "ary", "main", "a", "1"].map(String::from));
        let separators = ["-", "_", " ", "", "é"];
        // A deterministic walk over combinations (a linear congruential
        // sequence), 20 000 names of one to four pieces.
        let mut state: u64 = 12345;
        let mut next = |n: usize| {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (state >> 33) as usize % n
        };
        for _ in 0..20_000 {
            let mut name = String::new();
            for i in 0..1 + next(4) {
                if i > 0 {
                    name.push_str(separators[next(separators.len())]);
                }
                name.push_str(&pieces[next(pieces.len())]);
            }
            name.push(' ');
            let blanked = without_negated_parts(&name);
            assert_eq!(automaton.roles(&blanked), NameRoles::by_scan(&blanked), "{name:?}");
        }
    }

    /// The roles of two names joined by a space are those of each,
    /// with or without the space after it ([`NameRoles::with`]): what an
    /// element's id and class say is read from each alone.
    #[test]
    fn joined_names_say_what_each_says() {
        let mut pieces: Vec<String> = VOCABULARY.iter().map(|w| w.word.to_string()).collect();
        pieces.extend(VOCABULARY.iter().map(|w| format!("x{}s", w.word)));
        pieces
            .extend(["no", "not", "no-", "-", "ary", "main", "a", "1", "é", ""].map(String::from));
        let separators = ["-", "_", " ", "", "é"];
        let mut state: u64 = 424242;
        let mut next = |n: usize| {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (state >> 33) as usize % n
        };
        let name = |next: &mut dyn FnMut(usize) -> usize| {
            let mut name = String::new();
            for i in 0..next(4) {
                if i > 0 {
                    name.push_str(separators[next(separators.len())]);
                }
                name.push_str(&pieces[next(pieces.len())]);
            }
            name
        };
        for _ in 0..20_000 {
            let (id, class) = (name(&mut next), name(&mut next));
            let joined = NameRoles::of(&format!("{id} {class} "));
            assert_eq!(joined, NameRoles::of(&id).with(NameRoles::of(&class)), "{id:?} {class:?}");
            assert_eq!(NameRoles::of(&id), NameRoles::of(&format!("{id} ")), "{id:?}");
        }
    }

    /// The byte-by-byte walk agrees with the row-by-row definition on
    /// names spliced from pieces of vocabulary words (a word's head
    /// joined to another word's tail), so that occurrences overlap, end
    /// at part boundaries and share suffixes (`comment` inside
    /// `xcommentary`, `ad` at the end of `-ad-`).
    #[test]
    fn the_walk_finds_what_the_scan_finds_on_spliced_words() {
        let automaton = automaton().expect("the vocabulary compiles");
        let words: Vec<&str> = VOCABULARY.iter().map(|w| w.word).collect();
        let glue = ["", "-", " ", "_", "no-", "not-", "s", "é", "9"];
        let mut state: u64 = 987654321;
        let mut next = |n: usize| {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (state >> 33) as usize % n
        };
        for _ in 0..50_000 {
            let mut name = String::new();
            for _ in 0..1 + next(5) {
                let word = words[next(words.len())];
                // A head, a tail or the whole word.
                let (from, to) = match next(3) {
                    0 => (0, 1 + next(word.len())),
                    1 => (next(word.len()), word.len()),
                    _ => (0, word.len()),
                };
                name.push_str(&word[from..to]);
                name.push_str(glue[next(glue.len())]);
            }
            let blanked = without_negated_parts(&name);
            assert_eq!(automaton.roles(&blanked), NameRoles::by_scan(&blanked), "{name:?}");
        }
    }

    #[test]
    fn every_word_is_lower_case_and_once_per_role() {
        for (i, a) in VOCABULARY.iter().enumerate() {
            assert_eq!(a.word, a.word.to_ascii_lowercase());
            assert!(!VOCABULARY[..i].iter().any(|b| b.word == a.word && b.role == a.role));
            assert!(a.source == Readability || a.source == Gleaner);
        }
    }
}
