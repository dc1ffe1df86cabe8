//! Names of up to eight ASCII bytes packed into one integer, lower-cased
//! without a branch, and found among a fixed list by one look-up and one
//! comparison ([`PackedNameSlots`], [`packed_names!`](packed_names)):
//! the scanner's common tag names and the tree feed's attribute names
//! (issue 12: such look-ups run for every tag and attribute of a page).

/// `raw`, at most eight ASCII bytes, as a little-endian integer padded
/// with spaces (which no tag name holds, so `div` and `div\0` differ),
/// ASCII letters lower-cased; `None` for a longer or non-ASCII name.
pub(crate) fn pack_lower(raw: &[u8]) -> Option<u64> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    if raw.len() > 8 {
        return None;
    }
    // Byte by byte into the spaces: a tag name is a few bytes, shorter
    // than a call to copy them.
    let mut w = ONES * u64::from(b' ');
    for (i, &b) in raw.iter().enumerate() {
        w ^= u64::from(b ^ b' ') << (8 * i);
    }
    lowercase_packed(w)
}

/// A name of at most eight bytes packed as [`pack_lower`] packs it
/// (as [`tag_name_end_packed`] reads it), ASCII letters lower-cased;
/// `None` if a byte is not ASCII.
pub(crate) fn lowercase_packed(w: u64) -> Option<u64> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    if w & HIGH != 0 {
        return None;
    }
    // No byte is above 0x7F, so no sum carries into the next byte: bit 7
    // of a byte is set where it is at least `A` and below `[`.
    let upper = w.wrapping_add(ONES * (0x80 - b'A' as u64))
        & !w.wrapping_add(ONES * (0x80 - b'[' as u64))
        & HIGH;
    Some(w | upper >> 2)
}

/// A name as [`pack_lower`] packs it (a name of at most eight ASCII
/// bytes, lower case).
pub(crate) const fn pack(name: &[u8]) -> u64 {
    let mut bytes = [b' '; 8];
    let mut i = 0;
    while i < name.len() {
        bytes[i] = name[i];
        i += 1;
    }
    u64::from_le_bytes(bytes)
}

/// A table that finds a packed name of up to eight bytes ([`pack`])
/// among a fixed list in one look-up and one comparison: `SLOTS` slots (a
/// power of two, at most 256), a name's slot the top bits of the product
/// of its packed bytes and an odd multiplier chosen so that the list's
/// names fill distinct slots — checked as the table is built, at compile
/// time (issue 12: such look-ups run for every tag and attribute).
pub(crate) struct PackedNameSlots<const SLOTS: usize> {
    multiplier: u64,
    /// For each slot, the index in the list of the name in it plus one,
    /// or 0.
    slots: [u8; SLOTS],
}

impl<const SLOTS: usize> PackedNameSlots<SLOTS> {
    /// The table of the names packed as `packed`; fails to compile when
    /// two share a slot under `multiplier`.
    pub(crate) const fn build(packed: &[u64], multiplier: u64) -> PackedNameSlots<SLOTS> {
        assert!(SLOTS.is_power_of_two() && SLOTS >= 2 && SLOTS <= 256, "slots: 2 to 256");
        // An index plus one must fit in a byte, 0 meaning none.
        assert!(packed.len() < 256, "too many names for a byte's indices");
        let mut slots = [0u8; SLOTS];
        let mut i = 0;
        while i < packed.len() {
            let slot = Self::slot_of(packed[i], multiplier);
            assert!(slots[slot] == 0, "two names share a slot: choose another multiplier");
            slots[slot] = (i + 1) as u8;
            i += 1;
        }
        PackedNameSlots { multiplier, slots }
    }

    const fn slot_of(packed: u64, multiplier: u64) -> usize {
        (packed.wrapping_mul(multiplier) >> (64 - SLOTS.trailing_zeros())) as usize
    }

    /// The entry of `list` (the names in the order [`Self::build`] was
    /// given them, with their packed spelling) whose name is packed as
    /// `packed`, if any.
    #[inline]
    pub(crate) fn find<'a, T>(&self, list: &'a [(u64, T)], packed: u64) -> Option<&'a T> {
        let index = self.slots.get(Self::slot_of(packed, self.multiplier)).copied().unwrap_or(0);
        let (spelt, name) = list.get(usize::from(index).checked_sub(1)?)?;
        (*spelt == packed).then_some(name)
    }
}

/// Defines `fn $lookup(packed: u64) -> Option<LocalName>`: the atom of
/// the listed name of up to eight bytes that `packed` ([`pack`]) spells,
/// found by one look-up in a [`PackedNameSlots`] table of `$slots` slots
/// under `$multiplier` and one comparison, not a search among the names
/// (issue 12: such look-ups run for every tag and attribute of a page).
macro_rules! packed_names {
    (
        $(#[$doc:meta])*
        fn $lookup:ident, static $names:ident, $slots:literal slots, multiplier $multiplier:literal:
        $($name:tt,)*
    ) => {
        /// The listed names with their packed spelling, in the order of
        /// the list.
        static $names: &[(u64, LocalName)] = &[$((pack($name.as_bytes()), local_name!($name)),)*];

        $(#[$doc])*
        fn $lookup(packed: u64) -> Option<LocalName> {
            /// Where each of the names is.
            static SLOTS: PackedNameSlots<$slots> =
                PackedNameSlots::build(&[$(pack($name.as_bytes()),)*], $multiplier);
            SLOTS.find($names, packed).cloned()
        }
    };
}
pub(crate) use packed_names;
