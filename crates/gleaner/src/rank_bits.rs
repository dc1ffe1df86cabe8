//! [`RankBits`]: a set of small indices (nodes, segments), a bit each,
//! with the rank of each member, for the per-node facts that are mostly
//! false (issue 13: a bit an index instead of a `u32`).

/// A set of indices (nodes, segments), a bit each, with the rank of each
/// member: how many members come up to it. An eighth of a byte an index,
/// and a sixteenth for the ranks, instead of a `u32` an index (issue 13).
#[derive(Debug, Default)]
pub(crate) struct RankBits {
    /// Bit `i % 64` of word `i / 64`: `i` is a member.
    words: Vec<u64>,
    /// The members before each word (filled by [`RankBits::rank_words`]).
    before: Vec<u32>,
}

impl RankBits {
    /// An empty set of the indices below `n`.
    pub(crate) fn new(n: usize) -> RankBits {
        RankBits { words: vec![0; n.div_ceil(64)], before: Vec::new() }
    }

    /// Adds `i`, growing the set when `i` is past its end.
    pub(crate) fn insert(&mut self, i: usize) {
        if self.words.len() <= i / 64 {
            self.words.resize(i / 64 + 1, 0);
        }
        if let Some(word) = self.words.get_mut(i / 64) {
            *word |= 1 << (i % 64);
        }
    }

    /// Is `i` a member?
    pub(crate) fn contains(&self, i: usize) -> bool {
        self.words.get(i / 64).is_some_and(|word| (word >> (i % 64)) & 1 == 1)
    }

    /// The members in order.
    pub(crate) fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.words.iter().enumerate().flat_map(|(w, &word)| {
            let mut bits = word;
            std::iter::from_fn(move || {
                let b = bits.trailing_zeros() as usize;
                bits &= bits.checked_sub(1)?;
                Some(w * 64 + b)
            })
        })
    }

    /// Leaves no doubling slack (a set whose ranks are not asked for).
    pub(crate) fn shrink_to_fit(&mut self) {
        self.words.shrink_to_fit();
    }

    /// The members before `i`, `i` excluded, once
    /// [`RankBits::rank_words`] has counted them: `i` may be the end of
    /// the set, or any index past it (all the members).
    pub(crate) fn rank_before(&self, i: usize) -> Option<u32> {
        match i.checked_sub(1) {
            None => Some(0),
            Some(last) => self.rank(last),
        }
    }

    /// Counts the members before each word, for [`RankBits::rank`], and
    /// leaves no doubling slack.
    pub(crate) fn rank_words(&mut self) {
        self.words.shrink_to_fit();
        let mut n = 0u32;
        self.before = self
            .words
            .iter()
            .map(|word| {
                let before = n;
                n += word.count_ones();
                before
            })
            .collect();
    }

    /// The members up to `i`, `i` included, once [`RankBits::rank_words`]
    /// has counted them (and no member was added since): all the members
    /// for an index past the last word. `None` only when the ranks were
    /// not counted.
    pub(crate) fn rank(&self, i: usize) -> Option<u32> {
        debug_assert_eq!(self.before.len(), self.words.len(), "RankBits::rank_words not run");
        let Some(word) = self.words.get(i / 64) else {
            // Past the last word: every member.
            return match (self.before.last(), self.words.last()) {
                (Some(before), Some(word)) => Some(before + word.count_ones()),
                (None, None) => Some(0),
                _ => None,
            };
        };
        let up_to = word & (u64::MAX >> (63 - i % 64));
        Some(self.before.get(i / 64)? + up_to.count_ones())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_count_the_members_up_to_an_index() {
        let members = [0, 3, 63, 64, 65, 127, 200];
        let mut bits = RankBits::new(201);
        for &i in &members {
            bits.insert(i);
        }
        bits.insert(300);
        bits.rank_words();
        assert_eq!(bits.iter().collect::<Vec<_>>(), [0, 3, 63, 64, 65, 127, 200, 300]);
        for i in 0..=300 {
            let up_to = members.iter().filter(|&&m| m <= i).count() as u32 + u32::from(i == 300);
            assert_eq!(bits.rank(i), Some(up_to), "{i}");
            assert_eq!(bits.contains(i), members.contains(&i) || i == 300, "{i}");
            let before = members.iter().filter(|&&m| m < i).count() as u32;
            assert_eq!(bits.rank_before(i), Some(before), "{i}");
        }
        assert_eq!(bits.rank_before(301), Some(8));
        assert_eq!(RankBits::default().rank_before(0), Some(0));
    }

    /// A set grown by `insert` alone ends at its last member's word: an
    /// index past it (a subtree's end, say) ranks every member.
    #[test]
    fn ranks_past_the_last_word_count_every_member() {
        let mut bits = RankBits::default();
        for i in [5, 70, 127] {
            bits.insert(i);
        }
        bits.rank_words();
        for i in [128, 129, 191, 192, 1000] {
            assert_eq!(bits.rank(i), Some(3), "{i}");
            assert_eq!(bits.rank_before(i), Some(3), "{i}");
        }
        assert_eq!(bits.rank_before(128), Some(3));
        let mut empty = RankBits::default();
        empty.rank_words();
        assert_eq!(empty.rank(0), Some(0));
        assert_eq!(empty.rank_before(10), Some(0));
        let mut sized = RankBits::new(10);
        sized.insert(9);
        sized.rank_words();
        assert_eq!(sized.rank_before(64), Some(1));
        assert_eq!(sized.rank_before(65), Some(1));
    }
}
