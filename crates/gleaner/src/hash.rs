//! Small, fixed 64-bit hashes: FNV-1a (Fowler, Noll & Vo), and SplitMix64's
//! finaliser to spread it.
//!
//! Template fingerprints, site models, training folds, document
//! fingerprints, record ids and cache keys are saved to files or compared
//! across runs and machines, so their hash must not change with the
//! process (as `std`'s randomly seeded `DefaultHasher` does) nor with the
//! platform. Every crate of the workspace takes it from here.

/// FNV-1a's 64-bit offset basis: the hash of nothing.
pub const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;

/// FNV-1a's 64-bit prime.
pub const FNV_PRIME: u64 = 0x0100_0000_01b3;

/// One step of FNV-1a: the next byte (or character, or any value) into the
/// running hash `h`.
#[inline]
pub fn fnv1a_step(h: u64, next: u64) -> u64 {
    (h ^ next).wrapping_mul(FNV_PRIME)
}

/// FNV-1a of `bytes` from another basis than [`FNV_OFFSET`] (two bases
/// give two independent hashes of the same bytes).
pub fn fnv1a_from(basis: u64, bytes: &[u8]) -> u64 {
    bytes.iter().fold(basis, |h, &b| fnv1a_step(h, u64::from(b)))
}

/// FNV-1a of `bytes`, 64 bits.
///
/// ```
/// // The published test vector: FNV-1a 64 of "a".
/// assert_eq!(gleaner::hash::fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
/// assert_eq!(gleaner::hash::fnv1a(b""), gleaner::hash::FNV_OFFSET);
/// ```
pub fn fnv1a(bytes: &[u8]) -> u64 {
    fnv1a_from(FNV_OFFSET, bytes)
}

/// FNV-1a of `bytes`, mixed ([`mix`]).
pub(crate) fn hash_bytes(bytes: &[u8]) -> u64 {
    mix(fnv1a(bytes))
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
        assert_eq!(hash_bytes(b""), mix(FNV_OFFSET));
        assert_ne!(hash_bytes(b"div"), hash_bytes(b"dvi"));
        let (a, b) = (hash_bytes(b"a"), hash_bytes(b"b"));
        assert_ne!(combine(combine(0, a), b), combine(combine(0, b), a));
    }
}
