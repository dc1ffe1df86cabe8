//! The elements the metadata passes read, found in one walk over the page
//! \[I\] (issue 12: the title, the `<meta>` elements, the markup's own
//! statements and the `<h1>` were each looked for by a walk over every
//! node; a page's metadata is a few dozen of its thousands of elements).

use markup5ever::local_name;

use crate::document::{Document, NodeId};

/// The page's `<meta>`, `<title>`, `<h1>`, `<html>`, `<link>`, `<time>`,
/// `<a>` and `<base>` elements and every element with an `itemprop`, in
/// document order: each pass of the metadata reads these and no others.
pub(super) struct MetadataElements {
    ids: Vec<NodeId>,
}

impl MetadataElements {
    /// Finds them in one walk over `doc`.
    pub(super) fn of(doc: &Document) -> MetadataElements {
        let ids = doc
            .ids()
            .filter(|&id| {
                doc.element(id).is_some_and(|e| {
                    matches!(
                        e.name,
                        local_name!("meta")
                            | local_name!("title")
                            | local_name!("h1")
                            | local_name!("html")
                            | local_name!("link")
                            | local_name!("time")
                            | local_name!("a")
                            | local_name!("base")
                    ) || e.attr_named(&local_name!("itemprop")).is_some()
                })
            })
            .collect();
        MetadataElements { ids }
    }

    /// All of them, in document order.
    pub(super) fn iter(&self) -> impl Iterator<Item = NodeId> + '_ {
        self.ids.iter().copied()
    }

    /// The `<meta>` elements, in document order.
    pub(super) fn metas<'a>(&'a self, doc: &'a Document) -> impl Iterator<Item = NodeId> + 'a {
        self.named(doc, local_name!("meta"))
    }

    /// Those named `name`, in document order.
    pub(super) fn named<'a>(
        &'a self,
        doc: &'a Document,
        name: markup5ever::LocalName,
    ) -> impl Iterator<Item = NodeId> + 'a {
        self.iter().filter(move |&id| doc.is(id, name.clone()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ParseOptions;

    #[test]
    fn holds_the_elements_metadata_reads_in_document_order() {
        let html = "<html lang=en><head><title>T</title><meta name=a content=b>\
            <link rel=canonical href=/x></head><body><div><h1>H</h1><p>text \
            <a href=/y>link</a><span itemprop=author>Ann</span><time>May</time></p></div>\
            <base href=/z>";
        let doc = Document::parse(html.as_bytes(), &ParseOptions::default()).expect("parse");
        let names: Vec<String> = MetadataElements::of(&doc)
            .iter()
            .map(|id| doc.name(id).map_or(String::new(), |n| n.to_string()))
            .collect();
        assert_eq!(names, ["html", "title", "meta", "link", "h1", "a", "span", "time", "base"]);
    }
}
