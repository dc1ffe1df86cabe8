//! Corpus hygiene for batches (issue 36): a document fingerprint in every
//! record, near-duplicate documents dropped, and filters by length, page
//! type and language — applied in input order, so the same inputs in the
//! same order always keep the same records.
//!
//! # The fingerprint
//!
//! `fingerprint` is a 64-bit SimHash (Charikar 2002; Manku, Jain & Das
//! Sarma 2007 use it for web near-duplicates) of the extracted text,
//! written as 16 hex digits. The text is lower-cased and cut into words
//! (runs of letters and digits); every run of three consecutive words
//! (the whole text when it has fewer) is hashed with 64-bit FNV-1a over
//! its words joined by one space; bit `i` of the fingerprint is set when
//! more of those hashes have bit `i` set than not. Two texts that share
//! most of their three-word runs get fingerprints a few bits apart: the
//! batch calls two documents near-duplicates at a Hamming distance of at
//! most [`NEAR_DUPLICATE_BITS`]. Hash and shingling are fixed, so
//! fingerprints of different runs and versions compare.

use gleaner::hash::{fnv1a_step, FNV_OFFSET};
use std::collections::HashMap;

use crate::job::Record;

/// Most differing bits between the fingerprints of two documents the
/// batch calls near-duplicates.
pub const NEAR_DUPLICATE_BITS: u32 = 3;

/// Most fingerprints one batch remembers (8 bytes each, four index
/// entries): past it, later documents are compared with the first ones
/// only.
pub const MAX_FINGERPRINTS: usize = 20_000_000;

/// 64-bit FNV-1a ([`gleaner::hash`]) of a stream of bytes.
fn fnv1a(bytes: impl IntoIterator<Item = u8>) -> u64 {
    bytes.into_iter().fold(FNV_OFFSET, fnv1a_byte)
}

/// One byte of FNV-1a.
#[inline]
fn fnv1a_byte(h: u64, b: u8) -> u64 {
    fnv1a_step(h, u64::from(b))
}

/// FNV-1a of `words` joined by one space, without joining them.
fn fnv1a_joined(words: &[&str]) -> u64 {
    let mut h = FNV_OFFSET;
    for (i, w) in words.iter().enumerate() {
        if i > 0 {
            h = fnv1a_byte(h, b' ');
        }
        h = w.bytes().fold(h, fnv1a_byte);
    }
    h
}

/// How many of a stream of 64-bit hashes have each bit set, counted
/// bit-sliced: `lanes[j]` holds eight byte-wide counters, byte `i` for
/// bit `8i + j`, so a hash costs eight shifts and adds rather than 64
/// tests. The bytes are emptied into `ones` before they can overflow.
struct BitCounts {
    lanes: [u64; 8],
    pending: u32,
    ones: [u32; 64],
}

impl BitCounts {
    const LOW_BITS: u64 = 0x0101_0101_0101_0101;

    fn new() -> BitCounts {
        BitCounts { lanes: [0; 8], pending: 0, ones: [0; 64] }
    }

    fn add(&mut self, h: u64) {
        for (j, lane) in self.lanes.iter_mut().enumerate() {
            *lane += (h >> j) & Self::LOW_BITS;
        }
        self.pending += 1;
        if self.pending == u32::from(u8::MAX) {
            self.flush();
        }
    }

    fn flush(&mut self) {
        for (j, lane) in self.lanes.iter_mut().enumerate() {
            for i in 0..8 {
                self.ones[8 * i + j] += ((*lane >> (8 * i)) & 0xff) as u32;
            }
            *lane = 0;
        }
        self.pending = 0;
    }

    /// The counts of set bits, bit by bit.
    fn finish(mut self) -> [u32; 64] {
        self.flush();
        self.ones
    }
}

/// The SimHash fingerprint of a text (see the [module docs](self));
/// `None` when the text has no word.
pub fn fingerprint(text: &str) -> Option<u64> {
    let lower = text.to_lowercase();
    let words: Vec<&str> =
        lower.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).collect();
    if words.is_empty() {
        return None;
    }
    let width = words.len().min(3);
    let mut counts = BitCounts::new();
    for run in words.windows(width) {
        counts.add(fnv1a_joined(run));
    }
    // Bit i is set when more runs have it set than not: ones > runs − ones.
    let runs = (words.len() - width + 1) as u64;
    let ones = counts.finish();
    Some((0..64).filter(|&bit| 2 * u64::from(ones[bit]) > runs).fold(0, |f, bit| f | 1 << bit))
}

/// Fingerprints seen so far, found again within [`NEAR_DUPLICATE_BITS`]
/// by the pigeonhole index: two fingerprints at most 3 bits apart agree
/// on at least one of their four 16-bit quarters.
#[derive(Debug, Default)]
pub struct Fingerprints {
    all: Vec<u64>,
    by_quarter: [HashMap<u16, Vec<u32>>; 4],
    /// The most remembered ([`MAX_FINGERPRINTS`] when 0).
    cap: usize,
}

impl Fingerprints {
    fn quarter(f: u64, q: usize) -> u16 {
        (f >> (16 * q)) as u16
    }

    /// The first remembered fingerprint within [`NEAR_DUPLICATE_BITS`] of
    /// `f`, if any.
    pub fn near(&self, f: u64) -> Option<u64> {
        (0..4).find_map(|q| {
            self.by_quarter[q].get(&Self::quarter(f, q)).and_then(|ids| {
                ids.iter()
                    .map(|&i| self.all[i as usize])
                    .find(|&g| (f ^ g).count_ones() <= NEAR_DUPLICATE_BITS)
            })
        })
    }

    /// How many are remembered.
    pub fn len(&self) -> usize {
        self.all.len()
    }

    /// Is none remembered?
    pub fn is_empty(&self) -> bool {
        self.all.is_empty()
    }

    /// Remembers `f` (up to [`MAX_FINGERPRINTS`]).
    pub fn insert(&mut self, f: u64) {
        let cap = if self.cap == 0 { MAX_FINGERPRINTS } else { self.cap };
        if self.all.len() >= cap {
            return;
        }
        let id = self.all.len() as u32;
        self.all.push(f);
        for q in 0..4 {
            self.by_quarter[q].entry(Self::quarter(f, q)).or_default().push(id);
        }
    }
}

/// What a [`CorpusFilter`] does with a record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// Write it.
    Keep,
    /// Leave it out of the output, for this reason (counted by reason).
    Drop(&'static str),
}

/// What a batch keeps; see [`CorpusFilter`].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CorpusRules {
    /// Fewest words of text a kept record has.
    pub min_words: usize,
    /// Fewest non-space characters of text a kept record has.
    pub min_chars: usize,
    /// Page types kept (empty: all).
    pub page_types: Vec<String>,
    /// Languages kept (ISO 639-1, lower case; empty: all). A record in
    /// another language gets the error `language`.
    pub languages: Vec<String>,
    /// Leave records in other languages out instead of writing them
    /// with the error.
    pub skip_other_languages: bool,
    /// Leave out documents whose fingerprint is within
    /// [`NEAR_DUPLICATE_BITS`] of an earlier kept one's.
    pub dedup_documents: bool,
    /// Drop a paragraph of the text once it has been in this many
    /// earlier records (0: keep every paragraph): boilerplate that got
    /// through, repeated across a site's pages (trafilatura's
    /// `deduplicate`, bounded and in input order).
    pub max_repetitions: usize,
}

/// Paragraphs shorter than this (in characters) are never dropped as
/// repeats: short lines ("Share", a date) repeat by nature.
pub const MIN_DEDUP_CHARS: usize = 10;

/// Most paragraphs the repeat counter remembers; past it the oldest are
/// forgotten first.
pub const MAX_PARAGRAPHS: usize = 1_000_000;

/// How many records each paragraph has been in, for the last
/// [`MAX_PARAGRAPHS`] paragraphs first seen.
#[derive(Debug, Default)]
struct Paragraphs {
    counts: HashMap<u64, u32>,
    order: std::collections::VecDeque<u64>,
    /// The most remembered ([`MAX_PARAGRAPHS`] when 0).
    cap: usize,
}

impl Paragraphs {
    /// The key of a paragraph: its words, lower-cased, one space apart.
    fn key(paragraph: &str) -> u64 {
        let lower = paragraph.to_lowercase();
        let mut first = true;
        fnv1a(lower.split_whitespace().flat_map(|w| {
            let space: &[u8] = if std::mem::take(&mut first) { b"" } else { b" " };
            space.iter().chain(w.as_bytes()).copied()
        }))
    }

    /// The text without the paragraphs already in `max` records, and
    /// counts the record's paragraphs (each once per record).
    fn filter(&mut self, text: &str, max: usize) -> String {
        let mut seen_here = std::collections::HashSet::new();
        let mut kept: Vec<&str> = Vec::new();
        for line in text.split('\n') {
            let trimmed = line.trim();
            if trimmed.chars().count() < MIN_DEDUP_CHARS {
                kept.push(line);
                continue;
            }
            let key = Paragraphs::key(trimmed);
            let count = self.counts.get(&key).copied().unwrap_or(0) as usize;
            if count < max {
                kept.push(line);
            }
            if seen_here.insert(key) {
                if count == 0 {
                    let cap = if self.cap == 0 { MAX_PARAGRAPHS } else { self.cap };
                    if self.order.len() >= cap {
                        if let Some(old) = self.order.pop_front() {
                            self.counts.remove(&old);
                        }
                    }
                    self.order.push_back(key);
                }
                self.counts.insert(key, (count + 1) as u32);
            }
        }
        // Blank lines left between dropped paragraphs close up.
        let mut out = String::with_capacity(text.len());
        let mut blank = 0;
        for line in kept {
            if line.trim().is_empty() {
                blank += 1;
                if blank > 1 || out.is_empty() {
                    continue;
                }
            } else {
                blank = 0;
            }
            out.push_str(line);
            out.push('\n');
        }
        out.trim_end().to_string()
    }
}

/// The batch's corpus filters, applied in input order; see the
/// [module docs](self).
#[derive(Debug, Default)]
pub struct CorpusFilter {
    rules: CorpusRules,
    seen: Fingerprints,
    paragraphs: Paragraphs,
}

impl CorpusFilter {
    /// A filter keeping what `rules` say.
    pub fn new(rules: CorpusRules) -> CorpusFilter {
        CorpusFilter { rules, seen: Fingerprints::default(), paragraphs: Paragraphs::default() }
    }

    /// The verdict on the next record (in input order). A failed record
    /// is kept (its error says what happened); a record in a language not
    /// asked for gets the error `language` unless it is to be skipped.
    pub fn admit(&mut self, record: &mut Record) -> Verdict {
        let rules = &self.rules;
        if record.error.is_some() {
            return Verdict::Keep;
        }
        if !rules.languages.is_empty() {
            let primary =
                |tag: &str| tag.split(['-', '_']).next().unwrap_or("").trim().to_ascii_lowercase();
            let detected = gleaner::metadata::detect_language(&record.text)
                .map(str::to_string)
                .or_else(|| record.language.clone());
            let matches =
                detected.as_deref().is_some_and(|l| rules.languages.contains(&primary(l)));
            if !matches {
                if rules.skip_other_languages {
                    return Verdict::Drop("language");
                }
                record.error = Some("language".into());
                return Verdict::Keep;
            }
        }
        if rules.max_repetitions > 0 {
            record.text = self.paragraphs.filter(&record.text, rules.max_repetitions);
        }
        if rules.min_chars > 0
            && record.text.chars().filter(|c| !c.is_whitespace()).count() < rules.min_chars
        {
            return Verdict::Drop("min-chars");
        }
        if rules.min_words > 0 && record.text.split_whitespace().count() < rules.min_words {
            return Verdict::Drop("min-words");
        }
        if !rules.page_types.is_empty() && !rules.page_types.contains(&record.page_type) {
            return Verdict::Drop("page-type");
        }
        if rules.dedup_documents {
            if let Some(f) =
                record.fingerprint.as_deref().and_then(|h| u64::from_str_radix(h, 16).ok())
            {
                if self.seen.near(f).is_some() {
                    return Verdict::Drop("duplicate");
                }
                self.seen.insert(f);
            }
        }
        Verdict::Keep
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const STORY: &str = "A powerful storm reached the coast on Monday, bringing heavy rain, \
        strong winds and high tides to the towns along the shore. Officials urged residents \
        to stay indoors while crews worked through the night to restore power to thousands \
        of homes. Schools were closed and several roads were flooded by the morning.";

    #[test]
    fn near_texts_have_near_fingerprints_and_others_do_not() {
        let a = fingerprint(STORY).expect("words");
        let edited = STORY.replace("Monday", "Tuesday");
        let b = fingerprint(&edited).expect("words");
        let other = fingerprint(
            "The city council approved a new budget for parks and libraries after a long \
             debate about taxes, salaries and the cost of maintaining old buildings downtown.",
        )
        .expect("words");
        assert!((a ^ b).count_ones() <= 12, "{:064b}\n{:064b}", a, b);
        assert!((a ^ other).count_ones() > NEAR_DUPLICATE_BITS);
        assert_eq!(fingerprint(STORY), fingerprint(&STORY.to_uppercase()));
        assert_eq!(fingerprint("  ,;  "), None);
    }

    #[test]
    fn the_fingerprint_is_fixed_across_versions() {
        // A change here changes every fingerprint users have stored. With
        // two runs ("one two three", "two three four") a bit is set where
        // both hashes have it (computed apart, in Python).
        assert_eq!(fingerprint("one two three four"), Some(0xa001_4040_2110_9881));
        assert_eq!(fingerprint("hello"), Some(fnv1a(*b"hello")));
    }

    #[test]
    fn bit_sliced_counts_vote_as_one_vote_per_bit() {
        // The plain vote of the module docs, bit by bit, on a text with
        // more three-word runs than a byte counter holds (the flush path).
        fn voted(text: &str) -> u64 {
            let lower = text.to_lowercase();
            let words: Vec<&str> =
                lower.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).collect();
            let mut votes = [0i64; 64];
            for run in words.windows(words.len().min(3)) {
                let h = fnv1a(run.join(" ").into_bytes());
                for (bit, vote) in votes.iter_mut().enumerate() {
                    *vote += if h >> bit & 1 == 1 { 1 } else { -1 };
                }
            }
            votes.iter().enumerate().fold(0, |f, (bit, &v)| if v > 0 { f | 1 << bit } else { f })
        }
        let long: String =
            (0..2000).map(|i| format!("wörd{} Ünïcode {} ", i % 37, i % 11)).collect();
        for text in [STORY, "one two", "a b c d e", long.as_str()] {
            assert_eq!(fingerprint(text), Some(voted(text)), "{text:.40}");
        }
    }

    #[test]
    fn paragraphs_repeated_across_records_go_after_the_allowed_repeats() {
        let mut p = Paragraphs::default();
        let page = |n: u32| {
            format!("Story number {n} has its own words.\n\nSubscribe to our newsletter today\nShare\n\nMore of story {n} here, also its own.")
        };
        assert_eq!(p.filter(&page(1), 2), page(1));
        assert_eq!(p.filter(&page(2), 2), page(2));
        assert_eq!(
            p.filter(&page(3), 2),
            "Story number 3 has its own words.\n\nShare\n\nMore of story 3 here, also its own."
        );
        // Case and spacing do not make a paragraph new.
        assert!(!p.filter("SUBSCRIBE  to our newsletter today", 2).contains("SUBSCRIBE"));
    }

    #[test]
    fn memory_is_bounded_by_the_caps() {
        let mut p = Paragraphs { cap: 100, ..Default::default() };
        for i in 0..1000 {
            p.filter(&format!("A paragraph numbered {i}, long enough to count."), 2);
        }
        assert!(p.counts.len() <= 100 && p.order.len() <= 100, "{}", p.counts.len());
        // The newest are the ones remembered: a recent repeat still counts.
        p.filter("A paragraph numbered 999, long enough to count.", 2);
        assert_eq!(p.filter("A paragraph numbered 999, long enough to count.", 2), "");
        let mut f = Fingerprints { cap: 50, ..Default::default() };
        for i in 0..500u64 {
            f.insert(i.wrapping_mul(0x9e37_79b9_7f4a_7c15));
        }
        assert_eq!(f.len(), 50);
        assert!(f.by_quarter.iter().all(|q| q.values().map(Vec::len).sum::<usize>() == 50));
    }

    #[test]
    fn the_index_finds_every_fingerprint_within_three_bits() {
        let mut seen = Fingerprints::default();
        let base = 0x0123_4567_89ab_cdef_u64;
        seen.insert(base);
        for (i, j, k) in [(0, 20, 40), (1, 17, 63), (15, 16, 31), (5, 6, 7)] {
            let f = base ^ (1 << i) ^ (1 << j) ^ (1 << k);
            assert_eq!(seen.near(f), Some(base), "bits {i} {j} {k}");
        }
        assert_eq!(seen.near(base ^ 0xf), None, "four bits apart");
        assert_eq!(seen.near(!base), None);
    }
}
