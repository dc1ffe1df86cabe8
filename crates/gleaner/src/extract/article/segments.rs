//! Pass 1, **analyse**: the facts every later pass and every attempt
//! shares — text segments with their link quota, commas and content-code
//! ratio, the segments summed per block (the voters), and what each
//! element's class and id say, and the widgets (`widgets`).

use markup5ever::local_name;

use super::super::ccb::{Ccb, CcbConfig, CcbVariant};
use super::super::lqf::block_owner;
use super::super::name_table::NameTable;
use super::clean::itemprop_is_article_body;
use super::vocabulary::NameRoles;
use super::widgets::{find_widgets, SlideCounters};
use super::ArticleConfig;
use crate::document::{Document, NodeId};
use crate::rank_bits::RankBits;

/// A text segment: a run of text in one block that no `<br><br>`, `<hr>`
/// or block boundary interrupts (the paragraphs of boilerpipe and
/// jusText, `docs/algorithms.md#blocks`). Text set directly in a `<td>` or `<div>`
/// with line breaks is several paragraphs, not one.
#[derive(Debug, Clone)]
pub(super) struct Segment {
    /// The block the text belongs to (LQF's block-own text, Mantratzis et
    /// al. 2005).
    pub owner: NodeId,
    pub chars: u32,
    pub link_chars: u32,
    pub commas: u32,
    /// Mean content-code ratio of the text (TCCB, Gottron 2008), weighted
    /// by characters.
    pub ccr: f32,
    /// Characters of the raw text outside `<pre>`, whitespace included.
    pub raw_chars: u32,
    /// Of those, whitespace.
    pub spaces: u32,
    /// Of those, the punctuation of code and data: `{}[]()":;=<>`.
    pub syntax: u32,
}

impl Segment {
    fn empty(owner: NodeId) -> Segment {
        Segment {
            owner,
            chars: 0,
            link_chars: 0,
            commas: 0,
            ccr: 0.0,
            raw_chars: 0,
            spaces: 0,
            syntax: 0,
        }
    }

    /// Does the text read as code or data rather than prose \[I\]: at
    /// least [`CODE_MIN_CHARS`] characters outside `<pre>`, and either
    /// an eighth of them the punctuation of code and data
    /// (`{}[]()":;=<>`), or a sixteenth of them with hardly any spaces
    /// (minified script, JSON)? Prose, dialogue and citations included,
    /// stays well under both; CJK prose has no spaces but not this
    /// punctuation. Text from a `<script>` that a `</script>` inside a
    /// JSON string ended early (WHATWG §13.2.5.4, "script data state")
    /// is the case in point (issue 11).
    pub(super) fn reads_as_code(&self) -> bool {
        let n = f64::from(self.raw_chars);
        if self.raw_chars < CODE_MIN_CHARS {
            return false;
        }
        let syntax = f64::from(self.syntax) / n;
        let spaces = f64::from(self.spaces) / n;
        syntax >= 0.125 || (syntax >= 0.0625 && spaces < 0.0625)
    }

    /// Link characters over characters (LQF's link quota).
    pub(super) fn link_quota(&self) -> f64 {
        if self.chars == 0 {
            0.0
        } else {
            f64::from(self.link_chars) / f64::from(self.chars)
        }
    }
}

/// The guard of [`Segment::reads_as_code`]: shorter text is never judged
/// code (a score line, a time table cell) \[I\].
const CODE_MIN_CHARS: u32 = 100;

/// What the later passes read of a text [`Segment`]: its link quota and
/// whether it reads as code ([`Segments::get`] puts it together from
/// what is kept). Its block is [`Analysis::segment_owner`].
#[derive(Debug, Clone, Copy)]
pub(super) struct TextSegment {
    /// The segment's characters when it has link characters, else 0
    /// ([`Segments`] keeps the counts of the segments with links only):
    /// read for [`TextSegment::link_quota`] and nothing else.
    chars: u32,
    /// The segment's link characters.
    link_chars: u32,
    code: bool,
}

impl TextSegment {
    /// See [`Segment::reads_as_code`].
    pub(super) fn reads_as_code(&self) -> bool {
        self.code
    }

    /// See [`Segment::link_quota`].
    pub(super) fn link_quota(&self) -> f64 {
        if self.chars == 0 {
            0.0
        } else {
            f64::from(self.link_chars) / f64::from(self.chars)
        }
    }
}

/// The [`TextSegment`]s of a page, a few bits each rather than 32 bytes
/// (a whole [`Segment`]): whether a segment reads as code and whether it
/// has link characters are bits, and only the segments with links keep
/// their counts, as the link quota of the others is 0. The other counts
/// matter only summed per block, which is done as the segments are read,
/// and a segment's block is found from its text when asked for (issue
/// 13: a page of short paragraphs has a segment for every other node).
#[derive(Debug, Default)]
pub(super) struct Segments {
    len: usize,
    /// The segments that read as code.
    code: RankBits,
    /// The segments with link characters.
    linked: RankBits,
    /// Characters and link characters of each segment with links, in
    /// order (the `n`th is that of the `n`th member of `linked`).
    linked_counts: Vec<[u32; 2]>,
}

impl Segments {
    fn len(&self) -> usize {
        self.len
    }

    /// Appends a segment.
    fn push(&mut self, seg: &Segment) {
        let i = self.len;
        if seg.reads_as_code() {
            self.code.insert(i);
        }
        if seg.link_chars > 0 {
            self.linked.insert(i);
            self.linked_counts.push([seg.chars, seg.link_chars]);
        }
        self.len += 1;
    }

    /// Segment `i`.
    pub(super) fn get(&self, i: usize) -> Option<TextSegment> {
        if i >= self.len {
            return None;
        }
        let code = self.code.contains(i);
        let [chars, link_chars] = if self.linked.contains(i) {
            let n = self.linked.rank(i)?.checked_sub(1)?;
            *self.linked_counts.get(n as usize)?
        } else {
            [0, 0]
        };
        Some(TextSegment { chars, link_chars, code })
    }

    /// Ends the pushes: the ranks counted, no doubling slack.
    fn finish(&mut self) {
        self.code.shrink_to_fit();
        self.linked.rank_words();
        self.linked_counts.shrink_to_fit();
    }
}

/// Per-node facts the passes share.
pub(super) struct Analysis {
    segments: Segments,
    /// The visible text nodes: those in a segment, by node index.
    texts: RankBits,
    /// The visible text nodes that start a segment, by node index: a
    /// text node's segment is the rank of the last of them at or before
    /// it (issue 13: no `u32` a node).
    segment_starts: RankBits,
    /// Every block whose text can vote, its segments summed (the block
    /// is the sum's `owner`), in document order: the voters, the same in
    /// every attempt. Blocks shorter than
    /// [`min_paragraph_chars`](super::ArticleConfig::min_paragraph_chars)
    /// or whose text reads as code never vote, and are not kept (issue
    /// 13: a page of short paragraphs would keep one for every block).
    pub blocks: Vec<Segment>,
    /// What each element's id and class say (empty for other nodes).
    pub names: Vec<NameRoles>,
    /// The roots of the widgets on the page (`widgets`).
    pub widgets: Vec<NodeId>,
    /// The one element marked up as the article's body
    /// ([`is_article_body`](super::clean::is_article_body)); `None` when none or several are.
    pub article_body: Option<NodeId>,
    /// The `h1`, `h2` and `h3` elements, in document order.
    pub headings: Vec<NodeId>,
}

/// Pass 1, **analyse**: splits the visible text into [`Segment`]s, scores
/// them with token-level Content Code Blurring (TCCB, Gottron 2008, as
/// [`Ccb`] computes it), sums them per block, and reads every element's
/// class and id against the [vocabulary](super::vocabulary) once.
pub(super) fn analyse(doc: &Document, cfg: &ArticleConfig) -> Analysis {
    let ratios = Ccb::new(CcbConfig::for_variant(CcbVariant::Tccb)).node_ratios(doc);
    // The names' roles, with the visible text nodes found in the same
    // walk over the nodes (issue 12); after TCCB, whose arrays are the
    // analysis' largest (issue 13).
    let (names, facts) = element_name_roles(doc);
    let mut segments = Segments::default();
    let mut segment_starts = RankBits::new(doc.len());
    let mut blocks = BlockSums::new(|block: &Segment| {
        block.chars >= cfg.min_paragraph_chars && !block.reads_as_code()
    });
    // The segment being read, with its CCR weight.
    let mut current: Option<(Segment, f32)> = None;
    // The previous text node and its block.
    let mut previous: Option<(NodeId, NodeId)> = None;
    // The slide counters among the visible text, for `find_widgets`.
    let mut counters = SlideCounters::default();
    let mut finish = |seg: Option<(Segment, f32)>, segments: &mut Segments| {
        if let Some((mut seg, ccr_weight)) = seg {
            finish_ccr(&mut seg, ccr_weight);
            segments.push(&seg);
            blocks.add(doc, &seg);
        }
    };
    // The owner of the last text node's parent: text nodes come in
    // runs under one parent (issue 12).
    let mut owner_of_parent: Option<(NodeId, NodeId)> = None;
    for id in facts.texts.iter().map(|i| NodeId(i as u32)) {
        let owner = match (doc.parent(id), owner_of_parent) {
            (Some(parent), Some((p, owner))) if p == parent => owner,
            (parent, _) => {
                let owner = block_owner(doc, id);
                owner_of_parent = parent.map(|p| (p, owner));
                owner
            }
        };
        // A segment never spans two owners: `Analysis::segment_owner`
        // finds a segment's block from any of its text nodes, which is
        // right only because the owner changes at a segment start.
        let new_segment = match previous {
            None => true,
            Some((prev, prev_owner)) => prev_owner != owner || breaks_between(doc, prev, id),
        };
        if new_segment {
            finish(current.take(), &mut segments);
            segment_starts.insert(id.index());
            current = Some((Segment::empty(owner), 0.0));
        }
        let stats = doc.stats(id);
        if cfg.slideshows {
            counters.read(doc, id, stats.chars);
        }
        if let Some((seg, ccr_weight)) = current.as_mut() {
            seg.chars += stats.chars;
            seg.link_chars += stats.link_chars;
            let w = stats.chars as f32;
            seg.ccr += w * ratios.get(id.index()).copied().unwrap_or(1.0).clamp(0.0, 1.0);
            *ccr_weight += w;
            let counts = CharCounts::of(doc.text(id));
            seg.commas += counts.commas;
            if !stats.flags.contains(crate::document::NodeFlags::IN_PRE) {
                seg.raw_chars += counts.chars;
                seg.spaces += counts.spaces;
                seg.syntax += counts.syntax;
            }
        }
        previous = Some((id, owner));
    }
    finish(current.take(), &mut segments);
    // Only the segments outlive the analysis, kept for every attempt:
    // free the rest first, and leave no doubling slack.
    drop(ratios);
    segments.finish();
    segment_starts.rank_words();
    let blocks = blocks.into_sorted();
    let widgets = find_widgets(doc, cfg, counters, &facts.blockquotes);
    let ElementFacts { article_body, headings, texts, .. } = facts;
    Analysis { segments, texts, segment_starts, blocks, names, widgets, article_body, headings }
}

/// What a segment counts of one text node's characters, in one pass.
#[derive(Debug, Default, PartialEq)]
struct CharCounts {
    /// Commas, Latin and CJK/Arabic (`,` `，` `、` `،`).
    commas: u32,
    /// Characters.
    chars: u32,
    /// Whitespace characters.
    spaces: u32,
    /// Code syntax characters (`{}[]()":;=<>`).
    syntax: u32,
}

impl CharCounts {
    /// Counts `text`: whole chunks of eight ASCII bytes through
    /// [`ASCII_FIELDS`] (a load and an add a byte, no branch), the ASCII
    /// bytes of a chunk with other bytes byte by byte through
    /// [`ASCII_CLASS`], and each other character decoded (issue 12).
    fn of(text: &str) -> CharCounts {
        // Characters of each class: other, space, syntax, comma.
        let mut by_class = [0u32; 4];
        let mut chars = 0u32;
        let mut rest = text;
        loop {
            // Whole ASCII chunks, their classes summed in 16-bit fields,
            // in runs that a field holds; each byte read from the chunk
            // and looked up in a table of all 256 (no mask, no bound
            // test), the text cut only after the run (issue 12).
            let mut fields = 0u64;
            let mut chunks = 0u32;
            for chunk in rest.as_bytes().chunks_exact(8).take(MAX_CHUNKS as usize) {
                let Some(chunk) = chunk.first_chunk::<8>() else { break };
                if u64::from_le_bytes(*chunk) & 0x8080_8080_8080_8080 != 0 {
                    break;
                }
                for &b in chunk {
                    fields += ASCII_FIELDS[usize::from(b)];
                }
                chunks += 1;
            }
            add_fields(&mut by_class, fields);
            chars += chunks * 8;
            rest = rest.get(8 * chunks as usize..).unwrap_or_default();
            if chunks == MAX_CHUNKS {
                continue;
            }
            // The ASCII bytes before the next other character, one by one.
            let mut ascii = 0;
            for &b in rest.as_bytes() {
                if !b.is_ascii() {
                    break;
                }
                let class = ASCII_CLASS.get(usize::from(b & 0x7F)).copied().unwrap_or(OTHER);
                if let Some(n) = by_class.get_mut(usize::from(class & 3)) {
                    *n += 1;
                }
                ascii += 1;
            }
            chars += ascii as u32;
            let mut after = rest.get(ascii..).unwrap_or_default().chars();
            let Some(c) = after.next() else { break };
            let class = if c.is_whitespace() {
                SPACE
            } else if matches!(c, '，' | '、' | '،') {
                COMMA
            } else {
                OTHER
            };
            by_class[usize::from(class)] += 1;
            chars += 1;
            rest = after.as_str();
        }
        let [_, spaces, syntax, commas] = by_class;
        CharCounts { commas, chars, spaces, syntax }
    }
}

/// Whole chunks summed in [`ASCII_FIELDS`]' 16-bit fields before they
/// are moved to the counters: 8 191 chunks of eight bytes stay below
/// 2¹⁶ in a field.
const MAX_CHUNKS: u32 = 8191;

/// Adds the fields summed through [`ASCII_FIELDS`] to the class counts.
fn add_fields(by_class: &mut [u32; 4], fields: u64) {
    for (class, shift) in [(SPACE, 0), (SYNTAX, 16), (COMMA, 32)] {
        if let Some(n) = by_class.get_mut(usize::from(class)) {
            *n += ((fields >> shift) & 0xFFFF) as u32;
        }
    }
}

/// [`ASCII_CLASS`] as a 1 in a 16-bit field of each class but other:
/// space in bits 0–15, syntax in 16–31, comma in 32–47; indexed by any
/// byte (those above 0x7F, never looked up, are 0).
const ASCII_FIELDS: [u64; 256] = {
    let mut table = [0u64; 256];
    let mut b = 0;
    while b < 128 {
        table[b] = match ASCII_CLASS[b] {
            SPACE => 1,
            SYNTAX => 1 << 16,
            COMMA => 1 << 32,
            _ => 0,
        };
        b += 1;
    }
    table
};

const OTHER: u8 = 0;
const SPACE: u8 = 1;
const SYNTAX: u8 = 2;
const COMMA: u8 = 3;

/// The [`CharCounts`] class of each ASCII byte: whitespace as
/// [`char::is_whitespace`] says (U+0009–U+000D, U+0020), the code syntax
/// characters `{}[]()":;=<>`, the comma, anything else.
const ASCII_CLASS: [u8; 128] = {
    let mut table = [OTHER; 128];
    let mut b = 0;
    while b < 128 {
        table[b] = match b as u8 {
            0x09..=0x0D | b' ' => SPACE,
            b'{' | b'}' | b'[' | b']' | b'(' | b')' | b'"' | b':' | b';' | b'=' | b'<' | b'>' => {
                SYNTAX
            }
            b',' => COMMA,
            _ => OTHER,
        };
        b += 1;
    }
    table
};

/// The [`NameRoles`] of every node: those of the joined, lower-cased
/// id and class ([`ElementRef::id_and_class`]), read as those of the id
/// with those of the class ([`NameRoles::with`]). Matching a name against
/// the whole vocabulary is the costliest step of the analysis, and a page
/// repeats few distinct class strings over many elements (most have
/// none), so each distinct class is matched once ([`NameTable`]); the
/// ids beside them are the elements' own (`post-1`, `post-2`) and are
/// matched directly, a look-up of a name seen once costing more than it
/// saves (issue 12).
///
/// In the same pass, the [`ElementFacts`] other passes would each walk
/// the page for.
///
/// [`ElementRef::id_and_class`]: crate::document::ElementRef::id_and_class
fn element_name_roles(doc: &Document) -> (Vec<NameRoles>, ElementFacts) {
    let mut table = NameTable::for_page(doc);
    // The elements marked as the article's body: the first, and a second.
    let mut article_bodies: [Option<NodeId>; 2] = [None; 2];
    let mut blockquotes = Vec::new();
    let mut texts = RankBits::new(doc.len());
    let mut headings = Vec::new();
    // The last pair read, and its roles.
    let mut last: Option<(NamePair, NameRoles)> = None;
    // Every node's roles are none until its element's are read: only
    // the elements are visited, in document order.
    let mut names = vec![NameRoles::default(); doc.len()];
    for id in doc.ids() {
        let Some(element) = doc.element(id) else {
            if doc.is_visible_text(id) {
                texts.insert(id.index());
            }
            continue;
        };
        match *element.name() {
            local_name!("blockquote") => blockquotes.push(id),
            local_name!("h1") | local_name!("h2") | local_name!("h3") => headings.push(id),
            _ => {}
        }
        // The three attributes read in one pass over the element's.
        let [id_value, class_value, itemprop] = element.attrs_named([
            &local_name!("id"),
            &local_name!("class"),
            &local_name!("itemprop"),
        ]);
        if article_bodies[1].is_none() && itemprop.is_some_and(itemprop_is_article_body) {
            let slot = usize::from(article_bodies[0].is_some());
            article_bodies[slot] = Some(id);
        }
        if id_value.is_none() && class_value.is_none() {
            continue;
        }
        // Siblings of a list or grid repeat the pair of the element
        // named before: compared, not hashed.
        let roles = match last {
            Some((pair, roles)) if pair == (id_value, class_value) => roles,
            _ => {
                let (id_roles, class_roles) =
                    table.id_and_class(id_value, class_value, NameRoles::of);
                let roles = id_roles.with(class_roles);
                last = Some(((id_value, class_value), roles));
                roles
            }
        };
        if let Some(slot) = names.get_mut(id.index()) {
            *slot = roles;
        }
    }
    let article_body = match article_bodies {
        [Some(body), None] => Some(body),
        _ => None,
    };
    (names, ElementFacts { article_body, blockquotes, headings, texts })
}

/// What [`element_name_roles`] gathers besides the names' roles.
struct ElementFacts {
    /// The one element marked up as the article's body, if only one is.
    article_body: Option<NodeId>,
    /// The `<blockquote>` elements, in document order (the embedded posts
    /// of `widgets`).
    blockquotes: Vec<NodeId>,
    /// The `h1`, `h2` and `h3` elements, in document order (the title
    /// match, `title_match`).
    headings: Vec<NodeId>,
    /// The visible text nodes ([`Document::text_nodes`]), a bit each
    /// (the segments; issue 13).
    texts: RankBits,
}

/// An element's `id` and `class` values.
type NamePair<'a> = (Option<&'a str>, Option<&'a str>);

/// Turns a segment's character-weighted CCR sum into its mean.
fn finish_ccr(seg: &mut Segment, weight: f32) {
    seg.ccr = if weight > 0.0 { seg.ccr / weight } else { 1.0 };
}

impl Analysis {
    /// The segment a text node belongs to.
    pub(super) fn segment(&self, text: NodeId) -> Option<TextSegment> {
        self.segments.get(self.segment_index(text)?)
    }

    /// The index of the segment a text node belongs to (text nodes of
    /// one segment share it): the segments started at or before it, less
    /// one.
    pub(super) fn segment_index(&self, text: NodeId) -> Option<usize> {
        if !self.texts.contains(text.index()) {
            return None;
        }
        let i = self.segment_starts.rank(text.index())?.checked_sub(1)? as usize;
        (i < self.segments.len()).then_some(i)
    }

    /// The block a text node's segment belongs to, found up its
    /// ancestors ([`block_owner`], the rule the segments were read with):
    /// the text node's own owner is its segment's, as a segment starts
    /// wherever the owner changes ([`analyse`] splits there).
    pub(super) fn segment_owner(&self, doc: &Document, text: NodeId) -> Option<NodeId> {
        self.texts.contains(text.index()).then(|| block_owner(doc, text))
    }

    /// What the element's id and class say.
    pub(super) fn names(&self, id: NodeId) -> NameRoles {
        self.names.get(id.index()).copied().unwrap_or_default()
    }
}

/// The segments summed per block as they are read, in document order of
/// their text, keeping the blocks `keep` accepts. A block's segments all
/// lie in its subtree, so its sum is complete once a segment of a block
/// outside it comes: the open sums form a stack of nested blocks, and
/// the segments of one block are summed in their own order.
struct BlockSums<K> {
    open: Vec<Segment>,
    kept: Vec<Segment>,
    keep: K,
}

impl<K: Fn(&Segment) -> bool> BlockSums<K> {
    fn new(keep: K) -> BlockSums<K> {
        BlockSums { open: Vec::new(), kept: Vec::new(), keep }
    }

    /// Adds the next segment to its block's sum.
    fn add(&mut self, doc: &Document, seg: &Segment) {
        while let Some(top) = self.open.last() {
            if doc.contains(top.owner, seg.owner) {
                break;
            }
            self.close();
        }
        if self.open.last().is_none_or(|top| top.owner != seg.owner) {
            self.open.push(Segment::empty(seg.owner));
        }
        if let Some(e) = self.open.last_mut() {
            let total = e.chars + seg.chars;
            if total > 0 {
                e.ccr = (e.ccr * e.chars as f32 + seg.ccr * seg.chars as f32) / total as f32;
            }
            e.chars = total;
            e.link_chars += seg.link_chars;
            e.commas += seg.commas;
            e.raw_chars += seg.raw_chars;
            e.spaces += seg.spaces;
            e.syntax += seg.syntax;
        }
    }

    /// Ends the innermost open block's sum.
    fn close(&mut self) {
        if let Some(block) = self.open.pop() {
            if (self.keep)(&block) {
                self.kept.push(block);
            }
        }
    }

    /// The kept sums, in document order of their blocks.
    fn into_sorted(mut self) -> Vec<Segment> {
        while !self.open.is_empty() {
            self.close();
        }
        let mut blocks = self.kept;
        blocks.sort_unstable_by_key(|block| block.owner);
        blocks.shrink_to_fit();
        blocks
    }
}

/// Two `<br>`s or an `<hr>` between two text nodes of the same block.
fn breaks_between(doc: &Document, prev: NodeId, next: NodeId) -> bool {
    let mut brs = 0;
    for id in (prev.0 + 1..next.0).map(NodeId) {
        match doc.name(id) {
            Some(&local_name!("br")) => {
                brs += 1;
                if brs >= 2 {
                    return true;
                }
            }
            Some(&local_name!("hr")) => return true,
            _ => {}
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract::article::tests::{parse, run};

    #[test]
    fn characters_are_counted_in_one_pass() {
        let n = CharCounts::of("a, b{}、\n\u{A0}é");
        assert_eq!(n, CharCounts { commas: 2, chars: 10, spaces: 3, syntax: 2 });
        let n = CharCounts::of("x = f(1)\u{3000}，، \u{85}\t");
        assert_eq!(n, CharCounts { commas: 2, chars: 14, spaces: 6, syntax: 3 });
    }

    /// [`CharCounts::of`] agrees with counting character by character,
    /// across chunk boundaries and with other characters anywhere.
    #[test]
    fn chunked_counts_are_the_plain_counts() {
        let plain = |t: &str| {
            let mut n = CharCounts::default();
            for c in t.chars() {
                n.chars += 1;
                if c.is_whitespace() {
                    n.spaces += 1;
                } else if matches!(c, ',' | '，' | '、' | '،') {
                    n.commas += 1;
                } else if "{}[]()\":;=<>".contains(c) {
                    n.syntax += 1;
                }
            }
            n
        };
        let pieces =
            ["a", " ", ",", "{", "é", "\u{3000}", "、", "\t\n", "x = f(1);", "text, more text"];
        let mut text = String::new();
        for i in 0..400 {
            text.push_str(pieces[(i * 7 + i / 3) % pieces.len()]);
            assert_eq!(CharCounts::of(&text), plain(&text), "{text:?}");
        }
        let long = "word, {x} ".repeat(20_000);
        assert_eq!(CharCounts::of(&long), plain(&long));
    }

    #[test]
    fn double_line_breaks_split_a_cell_into_segments() {
        // Without the split, the cell is one segment with a low link
        // quota and its link line stays (or one with a high quota and the
        // story goes).
        let story = "The council met on Tuesday evening, and after a long debate, it voted to rebuild the old bridge over the river by next spring.";
        let html = format!(
            "<table><tr><td>{story} {story}<br><br><a href=/a>Next story</a> <a href=/b>Archive</a><hr>{story}</td></tr></table>"
        );
        let doc = parse(&html);
        let a = analyse(&doc, &ArticleConfig::default());
        let cell = doc.ids().find(|&id| doc.is(id, local_name!("td"))).expect("td");
        let mut in_cell: Vec<(usize, f64)> = doc
            .subtree(cell)
            .filter(|&id| a.segment_owner(&doc, id) == Some(cell))
            .filter_map(|id| Some((a.segment_index(id)?, a.segment(id)?.link_quota())))
            .collect();
        in_cell.dedup_by_key(|&mut (i, _)| i);
        let in_cell: Vec<f64> = in_cell.into_iter().map(|(_, q)| q).collect();
        assert_eq!(in_cell, [0.0, 1.0, 0.0]);
        let out = run(&html);
        assert_eq!(out.matches("The council").count(), 3, "{out}");
        assert!(!out.contains("Next story"), "{out}");
    }

    /// Up the ancestors, a text node finds the owner the walk with a
    /// stack of open blocks gives it, nested blocks, inline elements,
    /// tables and text outside any block included.
    #[test]
    fn a_text_node_finds_its_owner_up_its_ancestors() {
        let doc = parse(
            "top<div>a<p>b<span>c<b>d</b></span>e</p>f<ul><li><a href=/>g</a></li></ul>h</div>\
             <table><tr><td>i<em>j</em></td></tr></table>k<section><blockquote>l</blockquote>m</section>",
        );
        let mut checked = 0;
        for (id, owner) in super::super::super::lqf::block_owners(&doc) {
            if doc.is_text(id) {
                assert_eq!(block_owner(&doc, id), owner, "{:?}", doc.text(id));
                checked += 1;
            }
        }
        assert_eq!(checked, 14);
    }

    #[test]
    fn name_roles_are_the_same_whatever_the_case() {
        let doc = parse(
            "<div id=Main class=Sidebar><p class='comments'>a</p><p class=COMMENTS>b</p>\
             <p id=comments>c</p><p class=''>d</p><p id=no-sidebar class=story>e</p></div>",
        );
        let a = analyse(&doc, &ArticleConfig::default());
        for id in doc.ids() {
            let expected = doc
                .element(id)
                .map(|e| e.id_and_class())
                .filter(|names| !names.is_empty())
                .map_or(NameRoles::default(), |names| NameRoles::of(&names));
            assert_eq!(a.names(id), expected, "{:?}", doc.element(id));
        }
        let p = |i| doc.ids().filter(|&id| doc.is(id, local_name!("p"))).nth(i).expect("p");
        assert!(a.names(p(1)).has(super::super::vocabulary::Role::Comment));
        assert!(a.names(p(2)).has(super::super::vocabulary::Role::Comment));
        assert!(!a.names(p(4)).has(super::super::vocabulary::Role::Unlikely));
    }

    #[test]
    fn blocks_sum_their_segments_and_names_are_read() {
        let doc = parse("<div class=story-box><p>One, two.</p>x<br><br>y, z</div>");
        let cfg = ArticleConfig { min_paragraph_chars: 1, ..ArticleConfig::default() };
        let a = analyse(&doc, &cfg);
        let chars: Vec<u32> = a.blocks.iter().map(|s| s.chars).collect();
        let commas: Vec<u32> = a.blocks.iter().map(|s| s.commas).collect();
        assert_eq!((chars, commas), (vec![4, 8], vec![1, 1]));
        // Blocks too short to vote are not kept.
        let a = analyse(&doc, &ArticleConfig { min_paragraph_chars: 5, ..cfg });
        assert_eq!(a.blocks.iter().map(|s| s.chars).collect::<Vec<_>>(), vec![8]);
        let div = doc.ids().find(|&id| doc.is(id, local_name!("div"))).expect("div");
        assert!(a.names(div).has(super::super::vocabulary::Role::ArticleHint));
        assert!(!a.names(div).has(super::super::vocabulary::Role::Unlikely));
    }
}
