//! Training labels for the learned extractor (issue 32): how much of a
//! text block the gold text holds.
//!
//! The page's words, block after block, are *aligned* with the gold's
//! ([`aligned_coverage`]): the longest run of words the two have in common
//! is matched, then the same is done on each side of it, recursively
//! (Ratcliff & Obershelp's pattern matching, 1988). A word is covered when
//! the alignment matches it, and a block's label is its covered share of
//! words, in `[0, 1]`. Each word of the gold is matched once and in order,
//! so of a text the page repeats (a quote, a signature, the phone copy
//! of a header) only the copy the gold keeps is content, and a lone word
//! (a facet "Black" beside the card "Black Dress Shoes") is content only
//! where the gold has it at that point.
//!
//! The older labels ([`GoldIndex::coverage`]), by word trigrams as
//! Dragnet's and Boilerpipe's training labels are made (Kohlschütter et
//! al. 2010, Peters & Lecocq 2013), cover a word when a trigram of the
//! block containing it is a trigram of the gold, a block of one or two
//! words when it is a unigram or bigram of the gold, wherever and however
//! often the page has them: every copy of a repeated text, and every
//! facet whose word the gold has somewhere, is labelled content. They
//! are still the labels of a page too large to align within
//! [`ALIGN_BUDGET`]. Out of fold, aligned labels raised WCXB-dev's word F1
//! by about 0.01 (docs/learned.md).
//!
//! Tokens are [`word_tokens`]: the benchmark's lower-cased `\w+`.

use std::collections::{HashMap, HashSet};
use std::hash::{DefaultHasher, Hash, Hasher};

use crate::word_tokens;

/// The n-grams (n = 1, 2, 3) of a gold text, hashed.
#[derive(Debug, Clone, Default)]
pub struct GoldIndex {
    grams: HashSet<u64>,
    words: usize,
}

fn gram_hash(tokens: &[String]) -> u64 {
    let mut h = DefaultHasher::new();
    tokens.len().hash(&mut h);
    for t in tokens {
        t.hash(&mut h);
    }
    h.finish()
}

impl GoldIndex {
    /// Indexes a gold text.
    pub fn new(gold: &str) -> GoldIndex {
        let tokens = word_tokens(gold);
        let mut grams = HashSet::with_capacity(tokens.len() * 3);
        for n in 1..=3 {
            for w in tokens.windows(n) {
                grams.insert(gram_hash(w));
            }
        }
        GoldIndex { grams, words: tokens.len() }
    }

    /// Words of the gold text.
    pub fn words(&self) -> usize {
        self.words
    }

    /// The share of `text`'s words the gold covers (0 for a text without
    /// words).
    ///
    /// ```
    /// use gleaner_eval::labels::GoldIndex;
    /// let gold = GoldIndex::new("The storm reached the coast on Monday.");
    /// assert_eq!(gold.coverage("the storm reached the coast"), 1.0);
    /// assert_eq!(gold.coverage("Share this story"), 0.0);
    /// assert_eq!(gold.coverage("Monday"), 1.0);
    /// ```
    pub fn coverage(&self, text: &str) -> f32 {
        let tokens = word_tokens(text);
        self.coverage_of(&tokens)
    }

    /// [`GoldIndex::coverage`] of tokens.
    pub fn coverage_of(&self, tokens: &[String]) -> f32 {
        let k = tokens.len();
        match k {
            0 => 0.0,
            1 | 2 => f32::from(u8::from(self.grams.contains(&gram_hash(tokens)))),
            _ => {
                let mut covered = vec![false; k];
                for (i, w) in tokens.windows(3).enumerate() {
                    if self.grams.contains(&gram_hash(w)) {
                        covered[i..i + 3].iter_mut().for_each(|c| *c = true);
                    }
                }
                covered.iter().filter(|&&c| c).count() as f32 / k as f32
            }
        }
    }
}

/// Most steps [`aligned_coverage`] takes on one page (a step for each
/// page word a search looks at and for each equal gold word it meets)
/// before it gives up and the page is labelled by trigrams: far more
/// than any page of the dev sets needs, a bound on a user's
/// pathological page.
pub const ALIGN_BUDGET: u64 = 400_000_000;

/// Each block's label: [`aligned_coverage`] of its tokens against the
/// gold text's, or, past [`ALIGN_BUDGET`], its trigram
/// [`GoldIndex::coverage_of`].
pub fn block_labels(blocks: &[Vec<String>], gold: &str) -> Vec<f32> {
    aligned_coverage(blocks, &word_tokens(gold)).unwrap_or_else(|| {
        let index = GoldIndex::new(gold);
        blocks.iter().map(|b| index.coverage_of(b)).collect()
    })
}

/// Each block's share of words covered by aligning the page's words (the
/// blocks' tokens, in order) with the gold's tokens (see the module
/// documentation); `None` when the alignment would take more than
/// [`ALIGN_BUDGET`] steps.
///
/// ```
/// use gleaner_eval::labels::aligned_coverage;
/// let page = [vec!["black"], vec!["black", "dress", "shoes"], vec!["black", "dress", "shoes"]];
/// let gold = ["black", "dress", "shoes"];
/// assert_eq!(aligned_coverage(&page, &gold), Some(vec![0.0, 1.0, 0.0]));
/// ```
pub fn aligned_coverage<S: AsRef<str>>(blocks: &[Vec<S>], gold: &[S]) -> Option<Vec<f32>> {
    aligned_within(blocks, gold, ALIGN_BUDGET)
}

/// [`aligned_coverage`] within `budget` steps.
fn aligned_within<S: AsRef<str>>(blocks: &[Vec<S>], gold: &[S], budget: u64) -> Option<Vec<f32>> {
    let mut ids: HashMap<&str, u32> = HashMap::with_capacity(gold.len());
    let gold_ids: Vec<u32> = gold
        .iter()
        .map(|t| {
            let next = ids.len() as u32;
            *ids.entry(t.as_ref()).or_insert(next)
        })
        .collect();
    let page_ids: Vec<u32> =
        blocks.iter().flatten().map(|t| ids.get(t.as_ref()).copied().unwrap_or(u32::MAX)).collect();
    let matched = Aligner::new(&gold_ids, ids.len(), budget).align(&page_ids)?;
    let mut at = 0;
    Some(
        blocks
            .iter()
            .map(|b| {
                let covered = matched[at..at + b.len()].iter().filter(|&&m| m).count();
                at += b.len();
                if b.is_empty() {
                    0.0
                } else {
                    covered as f32 / b.len() as f32
                }
            })
            .collect(),
    )
}

/// Ratcliff–Obershelp alignment of a page's word ids with the gold's.
struct Aligner {
    /// Each gold word id's positions in the gold, ascending.
    positions: Vec<Vec<u32>>,
    /// For each gold position `j`, the length of the common run ending at
    /// `(i, j)` for the page position `i` that [`Aligner::stamp`] records.
    run: Vec<u32>,
    /// For each gold position, the search and page row `run` was written at.
    stamp: Vec<u64>,
    /// Searches made: tells one search's stamps from another's.
    searches: u64,
    /// Steps left.
    budget: u64,
}

/// A common run: page start, gold start, length.
type Run = (usize, usize, usize);

impl Aligner {
    fn new(gold: &[u32], distinct: usize, budget: u64) -> Aligner {
        let mut positions = vec![Vec::new(); distinct];
        for (j, &id) in gold.iter().enumerate() {
            positions[id as usize].push(j as u32);
        }
        Aligner {
            positions,
            run: vec![0; gold.len()],
            stamp: vec![0; gold.len()],
            searches: 0,
            budget,
        }
    }

    /// Which page words the alignment matches; `None` past the budget.
    fn align(mut self, page: &[u32]) -> Option<Vec<bool>> {
        let mut matched = vec![false; page.len()];
        let mut ranges = vec![(0, page.len(), 0, self.run.len())];
        while let Some((alo, ahi, blo, bhi)) = ranges.pop() {
            let (i, j, k) = self.longest(page, alo, ahi, blo, bhi)?;
            if k == 0 {
                continue;
            }
            matched[i..i + k].iter_mut().for_each(|m| *m = true);
            if alo < i && blo < j {
                ranges.push((alo, i, blo, j));
            }
            if i + k < ahi && j + k < bhi {
                ranges.push((i + k, ahi, j + k, bhi));
            }
        }
        Some(matched)
    }

    /// The longest common run of `page[alo..ahi]` and `gold[blo..bhi]`,
    /// the earliest in the page (then in the gold) among equals; length 0
    /// when they share no word.
    fn longest(
        &mut self,
        page: &[u32],
        alo: usize,
        ahi: usize,
        blo: usize,
        bhi: usize,
    ) -> Option<Run> {
        self.searches += 1;
        // A step for every page word looked at, and for every equal gold
        // word it meets.
        self.budget = self.budget.checked_sub((ahi - alo) as u64)?;
        let mut best: Run = (alo, blo, 0);
        for (i, &id) in page.iter().enumerate().take(ahi).skip(alo) {
            let Some(at) = self.positions.get(id as usize) else { continue };
            // This row's stamp; the previous row's is one less.
            let row = (self.searches << 32) | (i - alo + 1) as u64;
            let from = at.partition_point(|&j| (j as usize) < blo);
            let to = at.partition_point(|&j| (j as usize) < bhi);
            self.budget = self.budget.checked_sub((to - from) as u64)?;
            // Descending, so that the previous row's run at j - 1 is read
            // before this row overwrites it.
            for &j in at[from..to].iter().rev() {
                let j = j as usize;
                let k =
                    if j > blo && self.stamp[j - 1] == row - 1 { self.run[j - 1] + 1 } else { 1 };
                self.run[j] = k;
                self.stamp[j] = row;
                let k = k as usize;
                if k > best.2 || (k == best.2 && i + 1 - k == best.0 && j + 1 - k < best.1) {
                    best = (i + 1 - k, j + 1 - k, k);
                }
            }
        }
        Some(best)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn blocks(texts: &[&str]) -> Vec<Vec<String>> {
        texts.iter().map(|t| word_tokens(t)).collect()
    }

    #[test]
    fn a_quoted_post_is_content_once() {
        let post = "the bearings were worn so I replaced them with sealed ones";
        let page = blocks(&["Thread title", post, post, "Same here, thanks for the tip", "Reply"]);
        let gold = word_tokens(&format!("{post} Same here, thanks for the tip"));
        let labels = aligned_coverage(&page, &gold).unwrap();
        // One copy is content: the one that runs on into the reply.
        assert_eq!(labels, vec![0.0, 0.0, 1.0, 1.0, 0.0]);
        // Trigram labels call both copies content.
        let index = GoldIndex::new(&format!("{post} Same here, thanks for the tip"));
        assert_eq!(index.coverage_of(&page[2]), 1.0);
    }

    #[test]
    fn words_match_in_order_and_partly() {
        let page = blocks(&["Price $30 Black", "Black Dress Shoes", "leather upper, rubber sole"]);
        let gold = word_tokens("Black Dress Shoes $30 leather upper");
        let labels = aligned_coverage(&page, &gold).unwrap();
        assert_eq!(labels, vec![0.0, 1.0, 0.5]);
    }

    #[test]
    fn no_words_no_match() {
        let page = blocks(&["", "something"]);
        assert_eq!(aligned_coverage(&page, &word_tokens("")), Some(vec![0.0, 0.0]));
        assert_eq!(aligned_coverage(&page, &word_tokens("other")), Some(vec![0.0, 0.0]));
    }

    #[test]
    fn an_alignment_past_the_budget_gives_up() {
        // Every page word meets every gold word: rows × columns steps.
        let page = vec![vec!["a"; 300]];
        let gold = vec!["a"; 200];
        assert_eq!(aligned_within(&page, &gold, 50_000), None);
        assert_eq!(aligned_within(&page, &gold, 70_000), Some(vec![200.0 / 300.0]));
    }
}
