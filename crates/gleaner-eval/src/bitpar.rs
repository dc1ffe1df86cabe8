//! Bit-parallel LCS length and Levenshtein distance on `u32` symbols.
//!
//! Both algorithms keep one column of the dynamic-programming table as
//! bit vectors over the rows (the symbols of the shorter sequence, the
//! *pattern*) and advance it by one text symbol in O(⌈m/64⌉) word
//! operations, so a comparison costs O(n·⌈m/64⌉) time.
//!
//! - LCS: Allison & Dix (IPL 1986), in the form of Hyyrö, "Bit-parallel
//!   LCS-length computation revisited" (AWOCA 2004):
//!   `V' = (V + (V & M)) | (V & !M)`, where `M` marks the rows that match
//!   the text symbol; the LCS length is the number of zero bits of `V`.
//! - Levenshtein: Myers, "A fast bit-vector algorithm for approximate
//!   string matching based on dynamic programming" (JACM 1999), with the
//!   multi-block scheme of Hyyrö, "A bit-vector algorithm for computing
//!   Levenshtein and Damerau edit distances" (Nordic J. Computing 2003):
//!   vertical deltas `Pv`/`Mv` per 64-row block, the horizontal delta at
//!   each block's bottom row passed to the next block.
//!
//! Memory is O(m + n + alphabet) whatever the input, see [`PatternMasks`].

use std::collections::HashMap;

const BITS: usize = 64;

/// Where the match mask of one pattern symbol lives.
#[derive(Debug, Clone, Copy)]
enum Slot {
    /// `PatternMasks::dense[start..start + blocks]` is the mask.
    Dense(usize),
    /// `PatternMasks::positions[start..end]` lists the symbol's rows.
    Sparse { start: usize, end: usize },
}

/// The match masks `M[c]` of a pattern: bit `i` of `M[c]` is set iff
/// `pattern[i] == c`.
///
/// Deviation from the textbook table of one full mask per symbol, which
/// needs alphabet·m/64 words (50 MB for 20 000 distinct words): only a
/// symbol that occurs at least `blocks = ⌈m/64⌉` times gets a stored mask.
/// At most 64 symbols can, so the stored masks take at most m + 64 words.
/// A rarer symbol keeps its row list and its mask is written into a
/// scratch vector when needed and cleared after, which costs at most
/// 2·blocks operations, no more than the step that uses it. Time stays
/// O(n·⌈m/64⌉) and memory O(m + alphabet).
#[derive(Debug)]
pub(crate) struct PatternMasks {
    len: usize,
    blocks: usize,
    slots: HashMap<u32, Slot>,
    dense: Vec<u64>,
    positions: Vec<usize>,
    scratch: Vec<u64>,
}

impl PatternMasks {
    pub(crate) fn new(pattern: &[u32]) -> PatternMasks {
        let blocks = pattern.len().div_ceil(BITS);
        let mut rows: HashMap<u32, Vec<usize>> = HashMap::new();
        for (i, &symbol) in pattern.iter().enumerate() {
            rows.entry(symbol).or_default().push(i);
        }
        let mut slots = HashMap::with_capacity(rows.len());
        let mut dense = Vec::new();
        let mut positions = Vec::with_capacity(pattern.len());
        for (symbol, rows) in rows {
            if rows.len() >= blocks {
                let start = dense.len();
                dense.resize(start + blocks, 0);
                if let Some(mask) = dense.get_mut(start..) {
                    rows.iter().for_each(|&i| set_bit(mask, i));
                }
                slots.insert(symbol, Slot::Dense(start));
            } else {
                let start = positions.len();
                positions.extend_from_slice(&rows);
                slots.insert(symbol, Slot::Sparse { start, end: positions.len() });
            }
        }
        PatternMasks {
            len: pattern.len(),
            blocks,
            slots,
            dense,
            positions,
            scratch: vec![0; blocks],
        }
    }

    /// Whether `symbol` occurs in the pattern.
    fn contains(&self, symbol: u32) -> bool {
        self.slots.contains_key(&symbol)
    }

    /// Calls `f` with the mask of `symbol` (`blocks` words; all zero for a
    /// symbol not in the pattern).
    fn with_mask<R>(&mut self, symbol: u32, f: impl FnOnce(&[u64]) -> R) -> R {
        match self.slots.get(&symbol).copied() {
            Some(Slot::Dense(start)) => {
                f(self.dense.get(start..start + self.blocks).unwrap_or(&[]))
            }
            Some(Slot::Sparse { start, end }) => {
                let rows = self.positions.get(start..end).unwrap_or(&[]);
                rows.iter().for_each(|&i| set_bit(&mut self.scratch, i));
                let result = f(&self.scratch);
                // Restore the all-zero scratch for the next symbol.
                for &i in rows {
                    if let Some(word) = self.scratch.get_mut(i / BITS) {
                        *word = 0;
                    }
                }
                result
            }
            None => f(&self.scratch),
        }
    }
}

fn set_bit(mask: &mut [u64], i: usize) {
    if let Some(word) = mask.get_mut(i / BITS) {
        *word |= 1 << (i % BITS);
    }
}

/// Length of common prefix and common suffix (not overlapping).
fn common_affixes(a: &[u32], b: &[u32]) -> (usize, usize) {
    let prefix = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let (a, b) = (a.get(prefix..).unwrap_or(&[]), b.get(prefix..).unwrap_or(&[]));
    let suffix = a.iter().rev().zip(b.iter().rev()).take_while(|(x, y)| x == y).count();
    (prefix, suffix)
}

/// Strips the common prefix and suffix, and orders the rest as
/// (pattern = shorter, text = longer). Returns the stripped length too.
fn trim<'a>(a: &'a [u32], b: &'a [u32]) -> (usize, &'a [u32], &'a [u32]) {
    let (prefix, suffix) = common_affixes(a, b);
    let inner = |s: &'a [u32]| s.get(prefix..s.len().saturating_sub(suffix)).unwrap_or(&[]);
    let (a, b) = (inner(a), inner(b));
    let (pattern, text) = if a.len() <= b.len() { (a, b) } else { (b, a) };
    (prefix + suffix, pattern, text)
}

/// Length of a longest common subsequence of `a` and `b`.
///
/// A common prefix or suffix belongs to some LCS, so it is counted and
/// stripped before the bit-parallel pass.
pub(crate) fn lcs_length(a: &[u32], b: &[u32]) -> usize {
    let (shared, pattern, text) = trim(a, b);
    if pattern.is_empty() {
        return shared;
    }
    let mut masks = PatternMasks::new(pattern);
    // V starts all ones: no row has been matched yet.
    let mut v = vec![u64::MAX; masks.blocks];
    for &symbol in text {
        // A symbol absent from the pattern leaves V unchanged (M = 0).
        if !masks.contains(symbol) {
            continue;
        }
        masks.with_mask(symbol, |m| {
            // V' = (V + (V & M)) | (V & !M), the addition carried across
            // the 64-bit words.
            let mut carry = false;
            for (vk, &mk) in v.iter_mut().zip(m) {
                let u = *vk & mk;
                let (sum, c1) = vk.overflowing_add(u);
                let (sum, c2) = sum.overflowing_add(u64::from(carry));
                carry = c1 | c2;
                *vk = sum | (*vk & !mk);
            }
        });
    }
    // Zero bits among the first `len` rows; the rows past the pattern's
    // end in the last word only ever receive carries and are ignored.
    let full = masks.len / BITS;
    let ones: usize = v.iter().take(full).map(|w| w.count_ones() as usize).sum();
    let tail = match (masks.len % BITS, v.get(full)) {
        (0, _) | (_, None) => 0,
        (rem, Some(w)) => (w & ((1u64 << rem) - 1)).count_ones() as usize,
    };
    shared + masks.len - (ones + tail)
}

/// Levenshtein distance of `a` and `b` with unit costs.
///
/// A common prefix or suffix never needs an edit, so it is stripped first.
pub(crate) fn levenshtein(a: &[u32], b: &[u32]) -> usize {
    let (_, pattern, text) = trim(a, b);
    if pattern.is_empty() {
        return text.len();
    }
    let mut masks = PatternMasks::new(pattern);
    let blocks = masks.blocks;
    // Column 0: D[i][0] = i, so every vertical delta is +1.
    let mut pv = vec![u64::MAX; blocks];
    let mut mv = vec![0u64; blocks];
    // The score is tracked at the pattern's last row, bit (m−1) mod 64 of
    // the last block; padding rows above it never influence it.
    let last_row = 1u64 << ((masks.len - 1) % BITS);
    let mut score = masks.len;
    for &symbol in text {
        let hout = masks.with_mask(symbol, |eq| {
            // Row 0: D[0][j] = j, a horizontal delta of +1 into block 0.
            let mut h = 1i8;
            let count = pv.len();
            for (k, ((p, m), &e)) in pv.iter_mut().zip(mv.iter_mut()).zip(eq).enumerate() {
                let high = if k + 1 == count { last_row } else { 1 << (BITS - 1) };
                h = advance_block(p, m, e, h, high);
            }
            h
        });
        // hout is the horizontal delta at the last row: D[m][j] − D[m][j−1].
        score = match hout {
            1 => score + 1,
            -1 => score.saturating_sub(1),
            _ => score,
        };
    }
    score
}

/// One step of Myers' algorithm on a 64-row block (Hyyrö 2003, as in the
/// block-based formulation): `hin` is the horizontal delta entering the
/// block's top row, the return value the one leaving the row marked by
/// `high`.
fn advance_block(pv: &mut u64, mv: &mut u64, eq: u64, hin: i8, high: u64) -> i8 {
    let hin_neg = u64::from(hin < 0);
    let hin_pos = u64::from(hin > 0);
    let xv = eq | *mv;
    let eq = eq | hin_neg;
    let xh = ((eq & *pv).wrapping_add(*pv) ^ *pv) | eq;
    let mut ph = *mv | !(xh | *pv);
    let mut mh = *pv & xh;
    let hout = if ph & high != 0 {
        1
    } else if mh & high != 0 {
        -1
    } else {
        0
    };
    ph = (ph << 1) | hin_pos;
    mh = (mh << 1) | hin_neg;
    *pv = mh | !(xv | ph);
    *mv = ph & xv;
    hout
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::bootstrap::SplitMix64;

    /// O(nm) LCS with two rows, the reference for the bit-parallel one.
    pub(crate) fn naive_lcs(a: &[u32], b: &[u32]) -> usize {
        let mut prev = vec![0usize; b.len() + 1];
        let mut cur = vec![0usize; b.len() + 1];
        for &x in a {
            for (j, &y) in b.iter().enumerate() {
                cur[j + 1] = if x == y { prev[j] + 1 } else { cur[j].max(prev[j + 1]) };
            }
            std::mem::swap(&mut prev, &mut cur);
        }
        prev[b.len()]
    }

    /// O(nm) Levenshtein with two rows.
    pub(crate) fn naive_levenshtein(a: &[u32], b: &[u32]) -> usize {
        let mut prev: Vec<usize> = (0..=b.len()).collect();
        let mut cur = vec![0usize; b.len() + 1];
        for (i, &x) in a.iter().enumerate() {
            cur[0] = i + 1;
            for (j, &y) in b.iter().enumerate() {
                let sub = prev[j] + usize::from(x != y);
                cur[j + 1] = sub.min(prev[j + 1] + 1).min(cur[j] + 1);
            }
            std::mem::swap(&mut prev, &mut cur);
        }
        prev[b.len()]
    }

    pub(crate) fn random_seq(rng: &mut SplitMix64, len: usize, alphabet: usize) -> Vec<u32> {
        (0..len).map(|_| rng.below(alphabet) as u32).collect()
    }

    /// Lengths that cross the 64- and 128-bit word boundaries.
    const LENGTHS: [usize; 14] = [0, 1, 2, 7, 63, 64, 65, 100, 127, 128, 129, 191, 200, 300];

    #[test]
    fn lcs_matches_naive_on_random_sequences() {
        let mut rng = SplitMix64::new(2024);
        for &alphabet in &[1, 2, 4, 26, 1000] {
            for &n in &LENGTHS {
                for _ in 0..3 {
                    let m = LENGTHS[rng.below(LENGTHS.len())];
                    let a = random_seq(&mut rng, n, alphabet);
                    let b = random_seq(&mut rng, m, alphabet);
                    assert_eq!(lcs_length(&a, &b), naive_lcs(&a, &b), "{a:?} / {b:?}");
                    assert_eq!(lcs_length(&b, &a), naive_lcs(&a, &b));
                }
            }
        }
    }

    #[test]
    fn levenshtein_matches_naive_on_random_sequences() {
        let mut rng = SplitMix64::new(99);
        for &alphabet in &[1, 2, 4, 26, 1000] {
            for &n in &LENGTHS {
                for _ in 0..3 {
                    let m = LENGTHS[rng.below(LENGTHS.len())];
                    let a = random_seq(&mut rng, n, alphabet);
                    let b = random_seq(&mut rng, m, alphabet);
                    let want = naive_levenshtein(&a, &b);
                    assert_eq!(levenshtein(&a, &b), want, "{a:?} / {b:?}");
                    assert_eq!(levenshtein(&b, &a), want);
                }
            }
        }
    }

    #[test]
    fn similar_sequences_cross_blocks() {
        // Few edits in long sequences: the deltas must travel across many
        // blocks, the case where a wrong carry or hin shows.
        let mut rng = SplitMix64::new(5);
        for _ in 0..40 {
            let len = 150 + rng.below(200);
            let a = random_seq(&mut rng, len, 5);
            let mut b = a.clone();
            for _ in 0..rng.below(6) {
                let at = rng.below(b.len() + 1);
                match rng.below(3) {
                    0 => b.insert(at, rng.below(5) as u32),
                    1 if at < b.len() => {
                        b.remove(at);
                    }
                    _ if at < b.len() => b[at] = rng.below(5) as u32,
                    _ => {}
                }
            }
            assert_eq!(lcs_length(&a, &b), naive_lcs(&a, &b));
            assert_eq!(levenshtein(&a, &b), naive_levenshtein(&a, &b));
        }
    }

    #[test]
    fn hand_computed() {
        // "ABCBDAB" vs "BDCABA" (CLRS §15.4): LCS 4, e.g. "BCBA".
        let a: Vec<u32> = "ABCBDAB".chars().map(u32::from).collect();
        let b: Vec<u32> = "BDCABA".chars().map(u32::from).collect();
        assert_eq!(lcs_length(&a, &b), 4);
        // kitten → sitting: 3 edits (k→s, e→i, +g).
        let k: Vec<u32> = "kitten".chars().map(u32::from).collect();
        let s: Vec<u32> = "sitting".chars().map(u32::from).collect();
        assert_eq!(levenshtein(&k, &s), 3);
        assert_eq!(lcs_length(&k, &s), 4); // i t t n
        assert_eq!(levenshtein(&[], &s), 7);
        assert_eq!(levenshtein(&k, &[]), 6);
        assert_eq!(lcs_length(&[], &s), 0);
        assert_eq!(lcs_length(&k, &k), 6);
        assert_eq!(levenshtein(&k, &k), 0);
    }

    #[test]
    fn sparse_and_dense_masks_agree() {
        // 200 rows → 4 blocks: symbol 0 occurs ≥ 4 times (dense), the
        // others once (sparse); big ids and u32::MAX are fine.
        let mut pattern = vec![0u32; 10];
        pattern.extend((1..=190).map(|i| i * 1_000_003));
        pattern.push(u32::MAX);
        let mut masks = PatternMasks::new(&pattern);
        for &symbol in &[0, 1_000_003, 190 * 1_000_003, u32::MAX, 7] {
            let got = masks.with_mask(symbol, <[u64]>::to_vec);
            let mut want = vec![0u64; 4];
            pattern
                .iter()
                .enumerate()
                .filter(|(_, &s)| s == symbol)
                .for_each(|(i, _)| set_bit(&mut want, i));
            assert_eq!(got, want, "symbol {symbol}");
        }
        assert!(masks.scratch.iter().all(|&w| w == 0));
    }
}
