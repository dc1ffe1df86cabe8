//! A small, fixed 64-bit hash for fingerprints and text segments.
//!
//! Fingerprints and models are saved to files and compared across runs
//! and machines, so the hash must not change with the process (as
//! `std`'s randomly seeded `DefaultHasher` does) nor with the platform:
//! FNV-1a over bytes, finished with the SplitMix64 mixer.

/// FNV-1a of `bytes`, mixed.
pub(crate) fn hash_bytes(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    mix(h)
}

/// Combines a running hash with the next value (order-sensitive).
pub(crate) fn combine(h: u64, next: u64) -> u64 {
    mix(h.rotate_left(5) ^ next.wrapping_mul(0x9e37_79b9_7f4a_7c15))
}

/// SplitMix64's finaliser: every input bit affects every output bit.
pub(crate) fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stable_and_order_sensitive() {
        // Fixed values: a model written today must load tomorrow.
        assert_eq!(hash_bytes(b""), mix(0xcbf2_9ce4_8422_2325));
        assert_ne!(hash_bytes(b"div"), hash_bytes(b"dvi"));
        let (a, b) = (hash_bytes(b"a"), hash_bytes(b"b"));
        assert_ne!(combine(combine(0, a), b), combine(combine(0, b), a));
    }
}
