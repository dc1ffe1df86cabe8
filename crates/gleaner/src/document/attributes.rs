//! Every element's attributes in two buffers the document owns: a table
//! of (name, value range) entries, each element's attributes a run of it
//! in source order, and one string of all the values (issue 12: one
//! allocation per element with attributes and one per value cost a tenth
//! of a page's instructions in `malloc` and `free`; issue 13: the
//! allocator's headers and rounding on short values).
//!
//! An element's node holds the range of its run, so the nodes can be
//! moved (layout, [`Document::set_aside`](super::Document::set_aside)'s
//! copy) without touching the table. [`ElementRef`] joins an element's
//! name to its run; [`Document::element`](super::Document::element) gives
//! one.

use std::fmt;
use std::ops::{Deref, Range};

use super::node::Element;

use html5ever::{local_name, namespace_prefix, ns, Attribute, LocalName, QualName};

/// The attributes of every element of a document (see the
/// [module docs](self)).
#[derive(Debug, Clone, Default)]
pub(crate) struct AttributeTable {
    /// Each attribute's local name and the range of its value in
    /// `values`.
    entries: Vec<(LocalName, Range<u32>)>,
    values: String,
}

impl AttributeTable {
    /// Adds an element's attributes, given in source order, as a new run;
    /// gives the run's range for [`Element`]. A table that would outgrow
    /// its 32-bit offsets (never, below
    /// [`MAX_SUPPORTED_BYTES`](super::MAX_SUPPORTED_BYTES) of page) keeps
    /// no more attributes rather than fail.
    pub fn push<'v>(
        &mut self,
        attrs: impl IntoIterator<Item = (LocalName, &'v str)>,
    ) -> Range<u32> {
        let start = self.entries.len() as u32;
        for (name, value) in attrs {
            if !self.push_entry(name, value) {
                break;
            }
        }
        start..self.entries.len() as u32
    }

    /// [`AttributeTable::push`] for a start tag's list: the list's string
    /// of values copied at once and each entry's range moved by where it
    /// went (issue 12: not a copy and three overflow checks per
    /// attribute).
    pub fn push_list(&mut self, attrs: &TagAttributes) -> Range<u32> {
        let start = self.entries.len() as u32;
        if attrs.entries.is_empty() {
            return start..start;
        }
        let base = self.values.len();
        if u32::try_from(base + attrs.values.len()).is_err()
            || u32::try_from(self.entries.len() + attrs.entries.len()).is_err()
        {
            return self.push(attrs.kept());
        }
        self.values.push_str(&attrs.values);
        self.entries.extend(attrs.entries.iter().map(|a| {
            let value = (base + a.value.start) as u32..(base + a.value.end) as u32;
            (a.name.clone(), value)
        }));
        start..self.entries.len() as u32
    }

    /// Appends one entry; false when the offsets would overflow.
    fn push_entry(&mut self, name: LocalName, value: &str) -> bool {
        let (Ok(start), Ok(end), Ok(_)) = (
            u32::try_from(self.values.len()),
            u32::try_from(self.values.len() + value.len()),
            u32::try_from(self.entries.len() + 1),
        ) else {
            return false;
        };
        self.values.push_str(value);
        self.entries.push((name, start..end));
        true
    }

    /// The run `run` with those of `attrs` whose names it lacks added at
    /// its end (for a second `<html>` or `<body>` start tag, WHATWG
    /// §13.2.6.4.7); gives the new run's range. A run that ends the table
    /// grows in place; another is copied to the end first (the entries,
    /// not the values), as nothing else refers to it.
    pub fn add_missing<'v>(
        &mut self,
        run: Range<u32>,
        attrs: impl IntoIterator<Item = (LocalName, &'v str)>,
    ) -> Range<u32> {
        let mut run = run;
        for (name, value) in attrs {
            if self.run(&run).iter().any(|(n, _)| *n == name) {
                continue;
            }
            if run.end as usize != self.entries.len() {
                let copy = self.run(&run).to_vec();
                let start = self.entries.len() as u32;
                if u32::try_from(start as usize + copy.len() + 1).is_err() {
                    break;
                }
                self.entries.extend(copy);
                run = start..self.entries.len() as u32;
            }
            if !self.push_entry(name, value) {
                break;
            }
            run.end += 1;
        }
        run
    }

    /// True if runs `a` and `b` hold the same names with the same values,
    /// in any order.
    pub fn same_attributes(&self, a: &Range<u32>, b: &Range<u32>) -> bool {
        let (a, b) = (self.run(a), self.run(b));
        let value = |r: &Range<u32>| self.values.get(r.start as usize..r.end as usize);
        a.len() == b.len()
            && a.iter().all(|(n, v)| b.iter().any(|(m, w)| n == m && value(v) == value(w)))
    }

    /// The entries of a run (none for a range out of the table).
    fn run(&self, run: &Range<u32>) -> &[(LocalName, Range<u32>)] {
        self.entries.get(run.start as usize..run.end as usize).unwrap_or_default()
    }

    /// Does any element of the document have an attribute of local name
    /// `name`? One comparison per attribute: a pass that would look for it
    /// on every element can be skipped on the pages without it.
    pub fn any_named(&self, name: &LocalName) -> bool {
        self.entries.iter().any(|(n, _)| n == name)
    }

    /// The element `element` whose attributes are the run `run`.
    pub fn of<'a>(&'a self, element: &'a Element, run: Range<u32>) -> ElementRef<'a> {
        ElementRef { element, entries: self.run(&run), values: &self.values }
    }

    /// Room for `entries` more attributes with `bytes` of values.
    pub fn reserve(&mut self, entries: usize, bytes: usize) {
        self.entries.reserve_exact(entries);
        self.values.reserve_exact(bytes);
    }

    /// Frees the room the buffers grew into.
    pub fn shrink_to_fit(&mut self) {
        self.entries.shrink_to_fit();
        self.values.shrink_to_fit();
    }
}

/// The namespace "adjust foreign attributes" gives an attribute (WHATWG
/// §13.2.6.1, the table of adjusted names); all others have none.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum AttributeNs {
    None,
    /// `xlink:actuate` … `xlink:type`.
    XLink,
    /// `xml:lang`, `xml:space`.
    Xml,
    /// `xmlns`, without a prefix.
    Xmlns,
    /// `xmlns:xlink`, with the prefix `xmlns`.
    XmlnsPrefixed,
}

impl AttributeNs {
    /// The qualified name of attribute `local` in this namespace.
    pub fn qual_name(self, local: LocalName) -> QualName {
        match self {
            AttributeNs::None => QualName::new(None, ns!(), local),
            AttributeNs::XLink => {
                QualName::new(Some(namespace_prefix!("xlink")), ns!(xlink), local)
            }
            AttributeNs::Xml => QualName::new(Some(namespace_prefix!("xml")), ns!(xml), local),
            AttributeNs::Xmlns => QualName::new(None, ns!(xmlns), local),
            AttributeNs::XmlnsPrefixed => {
                QualName::new(Some(namespace_prefix!("xmlns")), ns!(xmlns), local)
            }
        }
    }
}

/// One attribute of a [`TagAttributes`]: its name and the range of its
/// value in the list's string.
#[derive(Debug, Clone)]
pub(crate) struct TagAttribute {
    pub name: LocalName,
    pub ns: AttributeNs,
    value: Range<usize>,
}

/// A start tag's attributes as the tree feed decodes them and the own tree
/// builder carries them to the sink: names as atoms and the values in one
/// string (issue 12: no string object per value, no qualified name per
/// name). The list is recycled from tag to tag
/// ([`ArenaSink::spare_attributes`](super::sink::ArenaSink::spare_attributes)),
/// as the document copies the attributes into its [`AttributeTable`].
#[derive(Debug, Clone, Default)]
pub(crate) struct TagAttributes {
    entries: Vec<TagAttribute>,
    values: String,
}

impl TagAttributes {
    /// Empties the list, keeping its room.
    pub fn clear(&mut self) {
        self.entries.clear();
        self.values.clear();
    }

    /// The room the list has grown into (entries and bytes of values).
    pub fn capacity(&self) -> usize {
        self.entries.capacity() + self.values.capacity()
    }

    /// The number of attributes.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// True if there is an attribute of local name `name` (in any
    /// namespace).
    pub fn has_name(&self, name: &LocalName) -> bool {
        self.entries.iter().any(|a| a.name == *name)
    }

    /// Adds attribute `name` (with no namespace) whose value `write`
    /// appends to the string it is given. Always inlined into the tree
    /// feed's attribute loop, its one caller, which runs for every kept
    /// attribute (issue 12).
    #[inline(always)]
    pub fn push_with(&mut self, name: LocalName, write: impl FnOnce(&mut String)) {
        let start = self.values.len();
        write(&mut self.values);
        let value = start..self.values.len();
        self.entries.push(TagAttribute { name, ns: AttributeNs::None, value });
    }

    /// Adds attribute `name` in `ns` with value `value`.
    pub fn push(&mut self, name: LocalName, ns: AttributeNs, value: &str) {
        let start = self.values.len();
        self.values.push_str(value);
        let value = start..self.values.len();
        self.entries.push(TagAttribute { name, ns, value });
    }

    /// The value of `a`, an attribute of this list.
    pub fn value(&self, a: &TagAttribute) -> &str {
        self.values.get(a.value.clone()).unwrap_or("")
    }

    /// The value of the attribute of local name `name` and no namespace.
    pub fn get(&self, name: &LocalName) -> Option<&str> {
        let a = self.entries.iter().find(|a| a.name == *name && a.ns == AttributeNs::None)?;
        Some(self.value(a))
    }

    /// Each attribute with its value, in source order.
    pub fn iter(&self) -> impl Iterator<Item = (&TagAttribute, &str)> {
        self.entries.iter().map(|a| (a, self.value(a)))
    }

    /// The attributes, to rename (the values stay).
    pub fn names_mut(&mut self) -> impl Iterator<Item = &mut TagAttribute> {
        self.entries.iter_mut()
    }

    /// Attributes as the document keeps them: the local name and the
    /// value.
    pub fn kept(&self) -> impl Iterator<Item = (LocalName, &str)> {
        self.iter().map(|(a, v)| (a.name.clone(), v))
    }

    /// The list as html5ever's attributes (for html5ever's tree builder
    /// and the conformance dump).
    pub fn to_html5ever(&self) -> Vec<Attribute> {
        self.iter()
            .map(|(a, v)| Attribute { name: a.ns.qual_name(a.name.clone()), value: v.into() })
            .collect()
    }

    /// html5ever's attributes as a list; names in a namespace the own tree
    /// builder does not give keep their local name with none.
    pub fn from_html5ever(attrs: &[Attribute]) -> TagAttributes {
        let mut list = TagAttributes::default();
        for a in attrs {
            let ns = match (&a.name.prefix, &a.name.ns) {
                (None, &ns!(xmlns)) => AttributeNs::Xmlns,
                (Some(_), &ns!(xmlns)) => AttributeNs::XmlnsPrefixed,
                (_, &ns!(xlink)) => AttributeNs::XLink,
                (_, &ns!(xml)) => AttributeNs::Xml,
                _ => AttributeNs::None,
            };
            list.push(a.name.local.clone(), ns, &a.value);
        }
        list
    }
}

/// An element of a [`Document`](super::Document) with its attributes, as
/// [`Document::element`](super::Document::element) gives it. It
/// dereferences to the [`Element`], so `e.name` is the element's name.
#[derive(Clone, Copy)]
pub struct ElementRef<'a> {
    element: &'a Element,
    entries: &'a [(LocalName, Range<u32>)],
    values: &'a str,
}

impl<'a> ElementRef<'a> {
    /// The lower-case local name (`div`, `a`, …).
    pub fn name(&self) -> &'a LocalName {
        &self.element.name
    }

    /// The value of attribute `name`, if present.
    pub fn attr(&self, name: &str) -> Option<&'a str> {
        let (_, value) = self.entries.iter().find(|(n, _)| &**n == name)?;
        Some(self.value(value))
    }

    /// [`ElementRef::attr`] by the name's atom: one integer comparison per
    /// attribute instead of a string comparison (issue 12).
    pub(crate) fn attr_named(&self, name: &LocalName) -> Option<&'a str> {
        let (_, value) = self.entries.iter().find(|(n, _)| n == name)?;
        Some(self.value(value))
    }

    /// [`ElementRef::attr_named`] for several names in one pass over the
    /// attributes: the value of each name, in the order asked (issue 12).
    #[inline]
    pub(crate) fn attrs_named<const N: usize>(
        &self,
        names: [&LocalName; N],
    ) -> [Option<&'a str>; N] {
        let mut found = [None; N];
        for (n, value) in self.entries {
            for (slot, name) in found.iter_mut().zip(names) {
                if slot.is_none() && n == name {
                    *slot = Some(self.value(value));
                }
            }
        }
        found
    }

    /// All attributes, name and value, in source order.
    pub fn attrs(&self) -> impl Iterator<Item = (&'a str, &'a str)> + 'a {
        let values = self.values;
        self.entries
            .iter()
            .map(move |(n, v)| (&**n, values.get(v.start as usize..v.end as usize).unwrap_or("")))
    }

    /// The `id` and `class` attributes joined, lower-cased, for the
    /// class-name heuristics that readability-style extractors use.
    pub fn id_and_class(&self) -> String {
        let mut s = String::new();
        for key in [local_name!("id"), local_name!("class")] {
            if let Some(v) = self.attr_named(&key) {
                s.push_str(v);
                s.push(' ');
            }
        }
        s.make_ascii_lowercase();
        s
    }

    fn value(&self, range: &Range<u32>) -> &'a str {
        self.values.get(range.start as usize..range.end as usize).unwrap_or("")
    }
}

impl Deref for ElementRef<'_> {
    type Target = Element;

    fn deref(&self) -> &Element {
        self.element
    }
}

impl fmt::Debug for ElementRef<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Element")
            .field("name", self.name())
            .field("attrs", &self.attrs().collect::<Vec<_>>())
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    static P: Element = Element { name: local_name!("p") };

    fn element(table: &mut AttributeTable, attrs: &[(&str, &str)]) -> Range<u32> {
        table.push(attrs.iter().map(|&(n, v)| (LocalName::from(n), v)))
    }

    fn pairs(e: ElementRef<'_>) -> Vec<(&str, &str)> {
        e.attrs().collect()
    }

    #[test]
    fn runs_keep_their_attributes_in_order() {
        let mut table = AttributeTable::default();
        let a = element(&mut table, &[("id", "x"), ("class", "Big Story")]);
        let none = element(&mut table, &[]);
        let b = element(&mut table, &[("href", "/u"), ("hidden", "")]);
        assert_eq!(pairs(table.of(&P, a.clone())), [("id", "x"), ("class", "Big Story")]);
        assert_eq!(pairs(table.of(&P, none)), []);
        assert_eq!(table.of(&P, b.clone()).attr("hidden"), Some(""));
        assert_eq!(table.of(&P, b.clone()).attr_named(&local_name!("href")), Some("/u"));
        assert_eq!(table.of(&P, b.clone()).attr("id"), None);
        let [class, href, id] = table.of(&P, a.clone()).attrs_named([
            &local_name!("class"),
            &local_name!("href"),
            &local_name!("id"),
        ]);
        assert_eq!((class, href, id), (Some("Big Story"), None, Some("x")));
        assert_eq!(table.of(&P, a.clone()).id_and_class(), "x big story ");
        assert_eq!(table.of(&P, a.clone()).name(), &local_name!("p"));
    }

    #[test]
    fn missing_attributes_are_added_and_present_ones_kept() {
        let mut table = AttributeTable::default();
        let mut html = element(&mut table, &[("lang", "en")]);
        let body = element(&mut table, &[("class", "b")]);
        let more = [("lang", "fr"), ("dir", "rtl"), ("dir", "ltr")];
        html = table.add_missing(html, more.iter().map(|&(n, v)| (n.into(), v)));
        assert_eq!(pairs(table.of(&P, html.clone())), [("lang", "en"), ("dir", "rtl")]);
        assert_eq!(pairs(table.of(&P, body)), [("class", "b")]);
        // The last run grows in place.
        let end = html.end;
        html = table.add_missing(html, [(local_name!("id"), "i")]);
        assert_eq!(html.end, end + 1);
        assert_eq!(
            pairs(table.of(&P, html.clone())),
            [("lang", "en"), ("dir", "rtl"), ("id", "i")]
        );
    }
}
