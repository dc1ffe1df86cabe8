//! Word tokenisation shared by the metrics.
//!
//! - [`lcs_words`]: Gottron's words for the word-sequence LCS (S-0 §7,
//!   S-2; `docs/algorithms.md#word-sequence-lcs-precision-recall-and-f1`
//!   \[I\]): split on Unicode whitespace, strip leading and trailing
//!   punctuation, lower-case.
//! - [`shingle_tokens`]: the ScrapingHub article-extraction-benchmark's
//!   tokens, the matches of the regex `\w+`, case kept.
//! - [`Interner`]: maps words to dense `u32` ids, so that the bit-parallel
//!   LCS compares integers.

use std::collections::HashMap;

/// Gottron's word tokens: the text split on Unicode whitespace, each piece
/// stripped of leading and trailing characters that are not alphanumeric
/// (`char::is_alphanumeric`, so Unicode-aware), lower-cased with Unicode
/// `to_lowercase`; empty pieces are dropped.
///
/// Inner punctuation stays: `"U.S.-based,"` → `"u.s.-based"`.
///
/// ```
/// use gleaner_eval::lcs_words;
/// assert_eq!(lcs_words("  «Größe», it's -- OK!"), ["größe", "it's", "ok"]);
/// ```
pub fn lcs_words(text: &str) -> Vec<String> {
    text.split_whitespace()
        .map(|piece| piece.trim_matches(|c: char| !c.is_alphanumeric()))
        .filter(|word| !word.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// The article-extraction-benchmark's tokens: maximal runs of word
/// characters (alphanumeric or `_`), **case kept**.
///
/// The benchmark's `evaluate.py` uses `re.findall(r'\w+', text)` with
/// `re.IGNORECASE`, a flag that does not change what `\w` matches, and
/// compares the tokens as they are; so "The" and "the" are different
/// tokens there and here.
///
/// Deviation: `char::is_alphanumeric` (Unicode `Alphabetic` or `Numeric`)
/// also counts the combining marks that Unicode lists as Other_Alphabetic
/// (e.g. Devanagari vowel signs) as word characters, where Python's `\w`
/// splits words at every combining mark. For the benchmark's languages
/// this changes nothing, and for Indic scripts it keeps words whole.
///
/// ```
/// use gleaner_eval::shingle_tokens;
/// assert_eq!(shingle_tokens("The snake_case, 3.14 Ünïcode!"), ["The", "snake_case", "3", "14", "Ünïcode"]);
/// ```
pub fn shingle_tokens(text: &str) -> Vec<String> {
    text.split(|c: char| !is_word_char(c))
        .filter(|token| !token.is_empty())
        .map(str::to_owned)
        .collect()
}

fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// Maps words to dense `u32` ids in order of first appearance.
///
/// Intern all texts that are to be compared with one `Interner`, so equal
/// words get equal ids.
///
/// ```
/// use gleaner_eval::Interner;
/// let mut words = Interner::new();
/// assert_eq!(words.intern_all(&["a", "b", "a"]), [0, 1, 0]);
/// assert_eq!(words.intern("b"), 1);
/// assert_eq!(words.len(), 2);
/// ```
#[derive(Debug, Clone, Default)]
pub struct Interner {
    ids: HashMap<String, u32>,
}

impl Interner {
    /// An empty interner.
    pub fn new() -> Interner {
        Interner::default()
    }

    /// The id of `word`, assigning the next free id to a new word.
    ///
    /// Deviation: ids saturate at `u32::MAX`, so past four billion distinct
    /// words (more than fit in memory as `String`s) new words would share
    /// one id instead of panicking.
    pub fn intern(&mut self, word: &str) -> u32 {
        if let Some(&id) = self.ids.get(word) {
            return id;
        }
        let id = u32::try_from(self.ids.len()).unwrap_or(u32::MAX);
        self.ids.insert(word.to_owned(), id);
        id
    }

    /// The ids of `words`, in order.
    pub fn intern_all<S: AsRef<str>>(&mut self, words: &[S]) -> Vec<u32> {
        words.iter().map(|w| self.intern(w.as_ref())).collect()
    }

    /// Number of distinct words seen.
    pub fn len(&self) -> usize {
        self.ids.len()
    }

    /// Whether no word has been interned yet.
    pub fn is_empty(&self) -> bool {
        self.ids.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lcs_words_strip_and_lowercase() {
        assert_eq!(lcs_words("Hello, World! (again)"), ["hello", "world", "again"]);
        assert_eq!(
            lcs_words("U.S.-based, e-mail... \"quoted\""),
            ["u.s.-based", "e-mail", "quoted"]
        );
        // Only punctuation, or nothing at all.
        assert!(lcs_words(" -- ... !!! ").is_empty());
        assert!(lcs_words("").is_empty());
        // Unicode whitespace (NBSP, ideographic space, line separator) splits.
        assert_eq!(lcs_words("a\u{a0}b\u{3000}c\u{2028}d"), ["a", "b", "c", "d"]);
        // Unicode lower-casing, including a char that grows: İ → i̇.
        assert_eq!(lcs_words("ÄRGER İstanbul ΣΟΦΙΑ"), ["ärger", "i\u{307}stanbul", "σοφια"]);
        // CJK and digits are alphanumeric; a lone emoji is punctuation here.
        assert_eq!(lcs_words("東京 2024 🙂"), ["東京", "2024"]);
    }

    #[test]
    fn shingle_tokens_are_word_runs_with_case() {
        assert_eq!(shingle_tokens("It's the U.S."), ["It", "s", "the", "U", "S"]);
        assert_eq!(shingle_tokens("__init__ x2"), ["__init__", "x2"]);
        assert!(shingle_tokens(" .,;!? ").is_empty());
        assert!(shingle_tokens("").is_empty());
        assert_eq!(shingle_tokens("naïve café"), ["naïve", "café"]);
        // Decomposed é: the combining acute (U+0301) is not Alphabetic, so
        // the word splits, as Python's \w would split it too.
        assert_eq!(shingle_tokens("cafe\u{301} x"), ["cafe", "x"]);
    }

    #[test]
    fn interner_is_dense_and_stable() {
        let mut interner = Interner::new();
        assert!(interner.is_empty());
        let a = interner.intern_all(&lcs_words("a b c a"));
        let b = interner.intern_all(&lcs_words("c A d"));
        assert_eq!(a, [0, 1, 2, 0]);
        assert_eq!(b, [2, 0, 3]);
        assert_eq!(interner.len(), 4);
    }
}
