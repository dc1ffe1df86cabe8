//! The memory limit of a page (issue 13): peak memory stays within
//! [`ParseOptions::max_memory_factor`](super::ParseOptions) times the
//! page's size plus [`MEMORY_ALLOWANCE`].
//!
//! A page's peak memory is mostly per node and per source token: a page
//! of `<p>x</p>` makes two nodes and three tokens in eight bytes, and
//! `<a>x` two nodes and two tokens in four. No tree of such markup fits in
//! ten times its size, so the tree builder counts what it has made and
//! stops a page whose nodes and tokens, at their measured peak cost,
//! would need more than the factor allows: an error, as for
//! [`ParseOptions::max_elements`](super::ParseOptions), because a tree cut
//! short would pass for the whole page. Real pages are below it (by the
//! model every dev page needs at most 7.6 times its size, the largest
//! ones at most 6.4): only markup about as dense as a tight data table or
//! denser is refused, and only past the allowance.
//!
//! The model is
//! `peak = TEXT_BYTES_FACTOR × size + BYTES_PER_NODE × nodes + BYTES_PER_TOKEN × tokens`,
//! above the process's own footprint; its
//! constants are upper bounds measured with `extract -f txt` (the default
//! extractor) on the pathological corpus (`bench/pathological.py`), and
//! `crates/gleaner-cli/tests/pathological.rs` holds every case of that
//! corpus to the bound.

/// Memory every page may use whatever its size: no page of up to a
/// megabyte of the densest markup the corpus holds (`<a>x`, a node and a
/// token every two bytes) is refused.
pub const MEMORY_ALLOWANCE: usize = 24 << 20;

/// Peak bytes per byte of the page, beside its nodes and tokens: the page
/// itself, its decoded text, the document's text and the text output
/// (16 MB of words in a paragraph peak at 3.0 times their size, a 10 MB
/// `class` attribute at 3.0).
const TEXT_BYTES_FACTOR: u64 = 4;

/// Peak bytes per node of the tree: the node's 24 bytes, and its share of
/// the tree builder's links and the extractor's arrays by node …
const BYTES_PER_NODE: u64 = 25;

/// … and per source token: the token's 12 bytes and the extractor's
/// arrays by token. The two are fitted together as the least upper bound
/// of the pathological corpus's pages of 4 MB and more (their peak never
/// above the model; those under 4 MB within 3 MiB of it), the node's
/// share at least its size. Text foster-parented out of a table between
/// cells (`x<td>y</td>`) is the case that sets them: 15.0 times its size
/// at 16 MB, for 15.5 by the model; `<a>x` peaks at 23.3 for 26.0, a
/// tight data table (`<tr><td>123</td><td>456</td></tr>`) at 9.7 for
/// 12.4 (refused from about 10 MB). Every dev page's model is at most 7.6
/// times its size (6.4 for pages of 100 KB or more), so no real page is
/// refused at any size.
const BYTES_PER_TOKEN: u64 = 19;

/// How many nodes and tokens a page may make (see the [module docs](self)).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct DensityLimit {
    /// Bytes the page's nodes and tokens may take at their peak cost.
    room: u64,
}

impl DensityLimit {
    /// The limit for a page of `bytes` bytes under `factor` (0: none).
    pub(crate) fn of(factor: usize, bytes: usize) -> Option<DensityLimit> {
        if factor == 0 {
            return None;
        }
        let allowed = (factor as u64).saturating_mul(bytes as u64);
        let text = TEXT_BYTES_FACTOR.saturating_mul(bytes as u64);
        Some(DensityLimit {
            room: allowed.saturating_sub(text).saturating_add(MEMORY_ALLOWANCE as u64),
        })
    }

    /// True if `nodes` nodes and `tokens` tokens need more than the page
    /// may take.
    #[inline]
    pub(crate) fn exceeded(&self, nodes: usize, tokens: usize) -> bool {
        let need = BYTES_PER_NODE
            .saturating_mul(nodes as u64)
            .saturating_add(BYTES_PER_TOKEN.saturating_mul(tokens as u64));
        need > self.room
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_factor_no_limit() {
        assert_eq!(DensityLimit::of(0, 1 << 20), None);
    }

    #[test]
    fn small_pages_of_any_markup_pass() {
        // A megabyte of `<a>x` (the densest markup: a node every two
        // bytes, a token every two) is within the allowance.
        let limit = DensityLimit::of(10, 1_000_000).unwrap();
        assert!(!limit.exceeded(500_000, 500_000));
    }

    #[test]
    fn dense_large_pages_fail_and_text_does_not() {
        let size = 64 << 20;
        let limit = DensityLimit::of(10, size).unwrap();
        // 64 MiB of `<p>x</p>`: two nodes and three tokens every 8 bytes.
        assert!(limit.exceeded(size / 4, size * 3 / 8));
        // 64 MiB of words in a few paragraphs.
        assert!(!limit.exceeded(1000, 1000));
        // A real page's density: a node every 60 bytes, a token every 40.
        assert!(!limit.exceeded(size / 60, size / 40));
        // A higher factor admits the dense page.
        let lax = DensityLimit::of(40, size).unwrap();
        assert!(!lax.exceeded(size / 4, size * 3 / 8));
    }
}
