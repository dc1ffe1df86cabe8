//! Training labels for the learned extractor (issue 32): how much of a
//! text block the gold text holds.
//!
//! A block's words are aligned with the gold by word trigrams, as
//! Dragnet's and Boilerpipe's training labels are made (Kohlschütter et
//! al. 2010, Peters & Lecocq 2013): a word is *covered* when a trigram
//! of the block containing it is a trigram of the gold. A block of one
//! or two words is covered when it is a unigram or bigram of the gold.
//! The label is the covered share of the block's words, in `[0, 1]`.
//! Tokens are [`word_tokens`]: the benchmark's lower-cased `\w+`.

use std::collections::HashSet;
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
