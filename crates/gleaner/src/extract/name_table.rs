//! A page's table of what its `class` values say: each distinct value is
//! matched against a vocabulary once, however many elements carry it. A
//! page repeats few distinct class strings over many elements (every
//! card, post and list item of a page usually shares its classes), and
//! matching a name is the costliest step of reading an element's names
//! (issue 12). An `id` is nearly always its element's own, so it is read
//! without the table ([`NameTable::read`]): on 300 Dragnet pages, caching
//! ids too cost 0.8 % more instructions than this. `article`'s name roles
//! and the learned model's name cues both read their names through one.
//!
//! The keys are the page's own strings, borrowed from the document: a
//! value is copied only to lower-case it, and the table holds a pointer
//! and a result per distinct value, so its size is bounded by the page's.

use std::collections::HashMap;

use crate::document::Document;

/// What each distinct `class` value of one page says (`V`, by a function
/// of the lower-cased value given to [`NameTable::id_and_class`]).
pub(crate) struct NameTable<'d, V> {
    seen: HashMap<&'d str, V, BuildNameHasher>,
    /// The value at hand, lower-cased, when it has a capital.
    lower: String,
}

impl<'d, V: Copy + Default> NameTable<'d, V> {
    /// An empty table with room for the distinct values of a typical page
    /// of `doc`'s size from the start: the table's growth rehashed every
    /// key it held (issue 12).
    pub(crate) fn for_page(doc: &Document) -> Self {
        let room = (doc.len() / 8).min(1 << 14);
        NameTable {
            seen: HashMap::with_capacity_and_hasher(room, BuildNameHasher::default()),
            lower: String::new(),
        }
    }

    /// What an element's `id` and `class` say, each by `of` of its
    /// lower-cased text (`V::default()` for a missing one): the class from
    /// the table, the id read directly (see the module docs).
    pub(crate) fn id_and_class(
        &mut self,
        id: Option<&str>,
        class: Option<&'d str>,
        of: impl Fn(&str) -> V,
    ) -> (V, V) {
        let id = id.map_or(V::default(), |v| self.read(v, &of));
        let class = class.map_or(V::default(), |v| self.get(v, &of));
        (id, class)
    }

    /// What `value` says: `of` its lower-cased text, the first time the
    /// page shows it; from the table after that.
    fn get(&mut self, value: &'d str, of: impl FnOnce(&str) -> V) -> V {
        let lower = &mut self.lower;
        *self.seen.entry(value).or_insert_with(|| lower_cased(lower, value, of))
    }

    /// What `value` says, read without the table: for a value the page
    /// rarely repeats (an element's `id`), where a look-up would cost more
    /// than it saves.
    fn read(&mut self, value: &str, of: impl FnOnce(&str) -> V) -> V {
        lower_cased(&mut self.lower, value, of)
    }
}

/// `of` the lower-cased `value`, copied into `buffer` only when it has a
/// capital.
fn lower_cased<V>(buffer: &mut String, value: &str, of: impl FnOnce(&str) -> V) -> V {
    if has_ascii_uppercase(value.as_bytes()) {
        buffer.clear();
        buffer.push_str(value);
        buffer.make_ascii_lowercase();
        of(buffer)
    } else {
        of(value)
    }
}

/// Does `bytes` hold an ASCII capital? Eight bytes at a time (SWAR
/// \[I\]): each byte's low seven bits are compared with `A` and `Z` by
/// adding to them (no carry crosses a byte), and bytes above 0x7F are
/// ruled out; the last bytes are padded with zeros.
fn has_ascii_uppercase(bytes: &[u8]) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let upper = |w: u64| {
        let low = w & !HIGH;
        let from_a = low + ONES * (0x80 - u64::from(b'A'));
        let past_z = low + ONES * (0x80 - u64::from(b'Z') - 1);
        from_a & !past_z & !w & HIGH != 0
    };
    let mut chunks = bytes.chunks_exact(8);
    if chunks.by_ref().any(|c| c.first_chunk::<8>().is_some_and(|c| upper(u64::from_le_bytes(*c))))
    {
        return true;
    }
    let tail = chunks.remainder().iter().rev().fold(0, |w, &b| (w << 8) | u64::from(b));
    upper(tail)
}

/// A multiplicative hash over the ends of the short id/class strings of
/// [`NameTable`] ([`NameHasher::write`]): the table lives for one
/// page and its keys come from that page, so speed matters and the
/// flooding resistance of the standard SipHash does not (the rotate, xor
/// and multiply of the Firefox/rustc "Fx" hash \[I\]).
#[derive(Default, Clone, Copy)]
struct NameHasher(u64);

impl std::hash::Hasher for NameHasher {
    /// The length, and the first and the last eight bytes (which overlap
    /// in a name shorter than sixteen): two steps for most names. A
    /// longer name adds the words between, so that names differing only
    /// in the middle do not share a bucket: a page of thousands of such
    /// names would otherwise make every look-up compare with all of them
    /// (issue 13).
    fn write(&mut self, bytes: &[u8]) {
        let len = bytes.len() as u64;
        match (bytes.first_chunk::<8>(), bytes.last_chunk::<8>()) {
            (Some(first), Some(last)) => {
                self.add(u64::from_le_bytes(*first) ^ len.rotate_right(8));
                let middle = bytes.get(8..bytes.len() - 8).unwrap_or_default();
                for word in middle.chunks(8) {
                    self.add(word.iter().rev().fold(0, |w, &b| (w << 8) | u64::from(b)));
                }
                self.add(u64::from_le_bytes(*last));
            }
            _ => {
                let word = bytes.iter().rev().fold(0, |w, &b| (w << 8) | u64::from(b));
                self.add(word ^ (len << 59));
            }
        }
    }

    fn write_u8(&mut self, i: u8) {
        self.add(u64::from(i));
    }

    fn write_usize(&mut self, i: usize) {
        self.add(i as u64);
    }

    fn finish(&self) -> u64 {
        // The table picks buckets by the low bits, which a multiply
        // fills from the low input bits only: fold the high half in.
        self.0 ^ (self.0 >> 32)
    }
}

impl NameHasher {
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

type BuildNameHasher = std::hash::BuildHasherDefault<NameHasher>;

#[cfg(test)]
mod tests {
    use super::*;

    /// Names of one length that differ only in the middle (a shop's
    /// `product-item-00017-card` classes, or a crafted page) hash apart,
    /// so that the name table's look-ups stay one comparison each.
    #[test]
    fn names_differing_in_the_middle_hash_apart() {
        use std::hash::BuildHasher;
        let build = BuildNameHasher::default();
        for len in [17, 24, 40, 200] {
            let names: Vec<String> = (0..2000)
                .map(|i| {
                    let middle = format!("{i:05}");
                    let pad = "x".repeat((len - 5) / 2);
                    let name = format!("{pad}{middle}{pad}");
                    format!("{name}{}", "y".repeat(len - name.len()))
                })
                .collect();
            let hashes: std::collections::HashSet<u64> =
                names.iter().map(|n| build.hash_one(n.as_str())).collect();
            assert_eq!(hashes.len(), names.len(), "names of {len} bytes share hashes");
        }
    }

    #[test]
    fn capitals_are_found_in_any_chunk_and_only_capitals() {
        for n in 0..20 {
            for at in 0..n {
                for (c, upper) in
                    [('A', true), ('Z', true), ('M', true), ('@', false), ('[', false)]
                {
                    let s: String = (0..n).map(|i| if i == at { c } else { 'a' }).collect();
                    assert_eq!(has_ascii_uppercase(s.as_bytes()), upper, "{s:?}");
                }
            }
        }
        for s in ["", "abc-def_ghi 123", "éàü\u{c1}\u{1f600}", "\u{ff}\u{80}{}`~"] {
            assert!(!has_ascii_uppercase(s.as_bytes()), "{s:?}");
        }
        assert!(has_ascii_uppercase("ééééQ".as_bytes()));
    }

    #[test]
    fn a_value_is_read_once_and_lower_cased() {
        let doc =
            Document::parse(b"<p>x</p>", &crate::document::ParseOptions::default()).expect("parse");
        let mut table = NameTable::for_page(&doc);
        let mut calls = Vec::new();
        let mut get = |v| {
            table.get(v, |l: &str| {
                calls.push(l.to_string());
                l.len()
            })
        };
        assert_eq!(get("Post-Body"), 9);
        assert_eq!(get("Post-Body"), 9);
        assert_eq!(get("post"), 4);
        assert_eq!(calls, ["post-body", "post"]);
        // `read` lower-cases too, and matches every time.
        let mut reads = Vec::new();
        for _ in 0..2 {
            let n = table.read("Post-1", |l: &str| {
                reads.push(l.to_string());
                l.len()
            });
            assert_eq!(n, 6);
        }
        assert_eq!(reads, ["post-1", "post-1"]);
    }
}
