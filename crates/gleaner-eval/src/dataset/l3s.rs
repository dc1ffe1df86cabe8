//! L3S-GN1 (Kohlschütter et al. 2010): the annotated page, whose text
//! blocks labelled headline, full text or supplemental are the truth
//! ([`GoldFormat::L3s`](super::GoldFormat::L3s)).

use gleaner::document::{Document, NodeFlags, NodeId, ParseOptions};

use super::blocks::Blocks;
use crate::error::Result;

/// The L3S-GN1 label of an element: N of its `x-nc-selN` class.
pub(super) fn l3s_label(doc: &Document, id: NodeId) -> Option<u8> {
    let class = doc.attr(id, "class")?;
    class.split_ascii_whitespace().find_map(|c| {
        let n = c.strip_prefix("x-nc-sel")?;
        let mut digits = n.bytes();
        match (digits.next(), digits.next()) {
            (Some(d @ b'0'..=b'9'), None) => Some(d - b'0'),
            _ => None,
        }
    })
}

/// L3S-GN1 gold: visible text whose nearest labelled element (the
/// element itself or an ancestor with an `x-nc-selN` class) has label 1,
/// 2 or 3; one block per such element. Nodes are in document order, so
/// a parent's owner is known before its children are seen.
pub(super) fn l3s_gold(html: &str) -> Result<String> {
    let doc = Document::parse_str(html, &ParseOptions::default())?;
    // owner[n]: the nearest labelled element at or above n, and its label.
    let mut owner: Vec<Option<(NodeId, u8)>> = vec![None; doc.len()];
    let mut blocks = Blocks::default();
    let mut current: Option<NodeId> = None;
    for id in doc.ids() {
        let inherited = doc.parent(id).and_then(|p| owner.get(p.index()).copied().flatten());
        let own = l3s_label(&doc, id).map(|label| (id, label));
        let this = own.or(inherited);
        if let Some(slot) = owner.get_mut(id.index()) {
            *slot = this;
        }
        if !doc.is_text(id) || !doc.stats(id).flags.contains(NodeFlags::VISIBLE) {
            continue;
        }
        let Some((element, label)) = this else { continue };
        let text = doc.text(id);
        if !(1..=3).contains(&label) || text.trim().is_empty() {
            continue;
        }
        if current != Some(element) {
            blocks.flush(false);
            current = Some(element);
        }
        blocks.push(text);
    }
    Ok(blocks.finish(false))
}
