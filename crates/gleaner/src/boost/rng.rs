//! A small deterministic pseudo-random generator for subsampling.

/// SplitMix64 (Steele, Lea & Flood 2014): one 64-bit state, passes
/// BigCrush, and the same stream on every platform for a seed.
#[derive(Clone, Debug)]
pub(crate) struct SplitMix64(u64);

impl SplitMix64 {
    /// A generator seeded with `seed`.
    pub(crate) fn new(seed: u64) -> Self {
        SplitMix64(seed)
    }

    /// The next 64 random bits.
    pub(crate) fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A uniform float in `[0, 1)`.
    pub(crate) fn next_f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// A uniform integer in `0..n` (`n > 0`), by Lemire's multiply-shift
    /// (bias below 2⁻³² for any `n` a data set has).
    pub(crate) fn below(&mut self, n: usize) -> usize {
        ((u128::from(self.next_u64()) * n as u128) >> 64) as usize
    }

    /// `k` distinct items of `items` chosen uniformly (a partial
    /// Fisher–Yates shuffle), in ascending order of position in `items`.
    pub(crate) fn choose<T: Copy + Ord>(&mut self, items: &mut [T], k: usize) -> Vec<T> {
        let k = k.min(items.len());
        for i in 0..k {
            let j = i + self.below(items.len() - i);
            items.swap(i, j);
        }
        let mut chosen = items[..k].to_vec();
        chosen.sort_unstable();
        chosen
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_stream_and_choice_is_distinct_and_sorted() {
        let mut a = SplitMix64::new(7);
        let mut b = SplitMix64::new(7);
        for _ in 0..100 {
            assert_eq!(a.next_u64(), b.next_u64());
        }
        let mut items: Vec<u32> = (0..50).collect();
        let chosen = a.choose(&mut items, 10);
        assert_eq!(chosen.len(), 10);
        assert!(chosen.windows(2).all(|w| w[0] < w[1]));
        for _ in 0..1000 {
            let x = a.next_f64();
            assert!((0.0..1.0).contains(&x));
            assert!(a.below(3) < 3);
        }
    }
}
