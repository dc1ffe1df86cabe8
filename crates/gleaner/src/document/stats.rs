//! Per-node statistics, computed once after parsing.
//!
//! A backward sweep sorts the nodes into those whose statistics are kept
//! and those derived when read (see below); then one pass over the nodes
//! in document order sets the inherited flags
//! (visibility, inside a link, inside `<pre>`), counts each text node's
//! characters and words, and sums text, link text and tag counts into
//! each ancestor, on a stack of the open ones (no list of parents, and no
//! parent read from its node). Algorithms read these instead of walking
//! subtrees again (DESIGN.md: "parse once, compute per-node statistics
//! once").
//!
//! Where they are kept (issue 13: dense markup has a node every 2–4
//! bytes): a text node keeps its statistics in its node ([`TextCounts`],
//! its flags in the node's code); a node without children, or whose only
//! child is a text node, keeps a [`Derived`] code (its flags, whether it
//! is a link) and its statistics are derived from it and that child when
//! read; only the other nodes have a [`NodeStats`] of 28 bytes.

use std::collections::HashMap;

use markup5ever::local_name;

use super::attributes::AttributeTable;
use super::node::{Element, Node, NodeFlags};
use super::tags::{is_block, is_invisible};

/// Statistics of a node's subtree. Text counts include visible text only.
///
/// 28 bytes: a page of `<p>x</p>` has a node for every 4 bytes, so the
/// depth, which no algorithm reads, is [`Document::depth`], counted when
/// asked, and only nodes with more than one child or a child that is not
/// text keep one; the others' are derived when read (issue 13).
///
/// [`Document::depth`]: super::Document::depth
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct NodeStats {
    /// Non-whitespace characters of text.
    pub chars: u32,
    /// Whitespace-separated words.
    pub words: u32,
    /// Non-whitespace characters inside links.
    pub link_chars: u32,
    /// Words inside links.
    pub link_words: u32,
    /// Elements in the subtree, the node included.
    pub tags: u32,
    /// Links (`<a href>` elements) in the subtree, the node included.
    pub links: u32,
    /// Flags (see [`NodeFlags`]).
    pub flags: NodeFlags,
}

// See `NodeStats`' docs (issue 13).
const _: () = assert!(std::mem::size_of::<NodeStats>() == 28);

impl NodeStats {
    /// Adds a child's sums (text, links, tags) to these.
    #[inline]
    fn add(&mut self, c: &NodeStats) {
        self.chars += c.chars;
        self.words += c.words;
        self.link_chars += c.link_chars;
        self.link_words += c.link_words;
        self.tags += c.tags;
        self.links += c.links;
    }

    /// Link density: link characters over characters (0 without text).
    pub fn link_density(&self) -> f64 {
        if self.chars == 0 {
            0.0
        } else {
            f64::from(self.link_chars) / f64::from(self.chars)
        }
    }
}

/// Is `e` hidden by its `hidden` or `aria-hidden` attribute or by its
/// inline style, and not a panel a reader opens ([`disclosure_panel`],
/// [`Disclosures::discloses`])?
fn hidden_by_attributes(e: super::ElementRef<'_>, disclosures: &Disclosures) -> bool {
    let hidden = e.attr_named(&local_name!("hidden")).is_some()
        || e.attr_named(&local_name!("aria-hidden")).is_some_and(|v| v.trim() == "true")
        || e.attr_named(&local_name!("style")).is_some_and(style_hides);
    hidden && !disclosure_panel(e) && !disclosures.discloses(e)
}

/// The panels a page's own controls open, found in one pass in document
/// order: an element whose `id` a control named before it lists in its
/// `aria-controls`, and which lists that control in its
/// `aria-labelledby`. That pair is the accordion of the WAI-ARIA
/// authoring practices (a heading's button controls a region labelled by
/// the button), whatever the classes; a menu drawer, a search overlay or
/// a cookie banner is opened by a control too, but is not labelled by it.
/// On WCXB-dev such panels hold 9 900 words on 59 pages, 88 % of them in
/// the gold (bag of words).
#[derive(Debug, Default)]
pub(super) struct Disclosures {
    /// Does the page name a control at all? Most pages do not, and no
    /// element is then read for one.
    active: bool,
    /// A controlled id → the ids of the controls naming it.
    controls: HashMap<Box<str>, Vec<Box<str>>>,
}

impl Disclosures {
    /// The panels of a page whose attributes are `attrs`
    /// ([`AttributeTable::any_named`]: one comparison per attribute).
    pub(super) fn of_page(attrs: &AttributeTable) -> Disclosures {
        Disclosures {
            active: attrs.any_named(&local_name!("aria-controls")),
            controls: HashMap::new(),
        }
    }

    /// The most controlled ids remembered, and controls per id: a page
    /// of generated markup cannot grow the map without bound.
    const MAX_IDS: usize = 4096;
    const MAX_CONTROLS: usize = 8;

    /// Remembers what `e` controls, if it is a control with an id.
    pub(super) fn note(&mut self, e: super::ElementRef<'_>) {
        if !self.active {
            return;
        }
        let [controls, id] = e.attrs_named([&local_name!("aria-controls"), &local_name!("id")]);
        let (Some(controls), Some(id)) = (controls, id.map(str::trim)) else { return };
        if id.is_empty() {
            return;
        }
        for target in controls.split_ascii_whitespace() {
            if self.controls.len() >= Self::MAX_IDS && !self.controls.contains_key(target) {
                return;
            }
            let ids = self.controls.entry(target.into()).or_default();
            if ids.len() < Self::MAX_CONTROLS && !ids.iter().any(|c| &**c == id) {
                ids.push(id.into());
            }
        }
    }

    /// Is `e` a panel opened by a control noted before it, and labelled
    /// by that control?
    pub(super) fn discloses(&self, e: super::ElementRef<'_>) -> bool {
        if self.controls.is_empty() {
            return false;
        }
        let [id, labels] = e.attrs_named([&local_name!("id"), &local_name!("aria-labelledby")]);
        let (Some(id), Some(labels)) = (id, labels) else { return false };
        self.controls.get(id.trim()).is_some_and(|ids| {
            labels.split_ascii_whitespace().any(|l| ids.iter().any(|c| &**c == l))
        })
    }
}

/// Is `e` the panel of a tab set or an accordion: content a reader
/// reveals with one click, hidden only until then? (`role="tabpanel"`,
/// or a class such as `tab-pane`, `tabs__panel`, `accordion-body`,
/// `accordion__content`, Amazon's "read more" `a-expander-content`, or
/// Chakra UI's `chakra-collapse`, the box of its accordions' panels.)
/// Such panels hold a product's specifications, a documentation page's
/// other languages, a service page's answers, and they are read as
/// shown, here and by [`Document::with_layout`]
/// (super::Document::with_layout): what is kept of them is the
/// extractor's choice, as for any other text.
pub(super) fn disclosure_panel(e: super::ElementRef<'_>) -> bool {
    // (Not `role="region"`, an accordion's panel in the ARIA authoring
    // practices: cookie banners and consent centres are regions too.)
    if e.attr_named(&local_name!("role")).is_some_and(|r| r.trim().eq_ignore_ascii_case("tabpanel"))
    {
        return true;
    }
    const TAB: [&str; 5] = ["tab-pane", "tabpanel", "tabs-panel", "tabs__panel", "tab__panel"];
    const ACCORDION_PART: [&str; 4] = ["content", "body", "panel", "collapse"];
    e.attr_named(&local_name!("class")).is_some_and(|class| {
        class.split_ascii_whitespace().any(|token| {
            let has = |word: &str| contains_ignoring_case(token, word);
            TAB.into_iter().any(has)
                || ((has("accordion") || has("expander")) && ACCORDION_PART.into_iter().any(has))
                || has("chakra-collapse")
        })
    })
}

/// Does `text` contain `word`, ASCII case ignored?
fn contains_ignoring_case(text: &str, word: &str) -> bool {
    text.as_bytes().windows(word.len()).any(|w| w.eq_ignore_ascii_case(word.as_bytes()))
}

/// Does an inline style say `display: none` or `visibility: hidden`
/// (any case, any whitespace)? Most styles name neither value, and are
/// ruled out without building the squeezed copy.
fn style_hides(style: &str) -> bool {
    if !contains_ignoring_case(style, "none") && !contains_ignoring_case(style, "hidden") {
        return false;
    }
    let s: String =
        style.chars().filter(|c| !c.is_whitespace()).collect::<String>().to_ascii_lowercase();
    s.contains("display:none") || s.contains("visibility:hidden")
}

/// A text node's counts as its [`Node`] keeps them: the characters in
/// the low 16 bits, the words in the high 16; the counts of a text too
/// long for that are kept in the document's [`LongText`]s, and the low
/// bits say so ([`TextCounts::LONG`]).
#[derive(Debug, Clone, Copy)]
pub(crate) struct TextCounts(pub u32);

impl TextCounts {
    /// The low bits of the counts of a text in the [`LongText`]s.
    const LONG: u32 = 0xFFFF;

    /// The counts, if they fit.
    fn new(chars: u32, words: u32) -> Option<TextCounts> {
        (chars < TextCounts::LONG && words <= 0xFFFF).then_some(TextCounts(chars | words << 16))
    }

    /// True if the text has characters (a long one has).
    #[inline]
    pub(crate) fn has_chars(self) -> bool {
        self.0 & 0xFFFF != 0
    }

    /// Characters and words of text node `node`.
    #[inline]
    pub(crate) fn get(self, node: u32, long: &[LongText]) -> (u32, u32) {
        let chars = self.0 & 0xFFFF;
        if chars != TextCounts::LONG {
            return (chars, self.0 >> 16);
        }
        LongText::find(node, long)
    }
}

/// The counts of a text node with 65 535 characters or words or more
/// (see [`TextCounts`]).
#[derive(Debug, Clone, Copy)]
pub(crate) struct LongText {
    node: u32,
    chars: u32,
    words: u32,
}

impl LongText {
    /// The counts of text node `node` in `long` (sorted by node).
    #[cold]
    fn find(node: u32, long: &[LongText]) -> (u32, u32) {
        let i = long.binary_search_by_key(&node, |l| l.node);
        i.ok().and_then(|i| long.get(i)).map_or((0, 0), |l| (l.chars, l.words))
    }
}

/// The statistics of a text node with these counts and flags.
#[inline(always)]
pub(crate) fn text_stats(chars: u32, words: u32, flags: NodeFlags) -> NodeStats {
    let linked = flags.contains(NodeFlags::IN_LINK);
    NodeStats {
        chars,
        words,
        link_chars: if linked { chars } else { 0 },
        link_words: if linked { words } else { 0 },
        tags: 0,
        links: 0,
        flags,
    }
}

/// A node's statistics kept in its [`Node`]'s `stats` without a
/// [`NodeStats`]: the node has no children, or its only child is a text
/// node, so its sums are its own tag and link and that child's counts
/// (issue 13). Bit 31 tells the code from the index of a [`NodeStats`]
/// (below 2³¹: 2³¹ entries would be 56 GiB); the low byte is the node's
/// [`NodeFlags::byte`]; bit 8 says the node is a link (an `<a href>`),
/// bit 9 that its child is a text node. A page of `<p>x</p>`, `<br>` or
/// `<td>x` keeps a [`NodeStats`] for a handful of nodes only.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Derived(pub u32);

impl Derived {
    /// Set in every code, never in an index.
    const MARK: u32 = 1 << 31;
    /// The node is an `<a href>`.
    const LINK: u32 = 1 << 8;
    /// The node's only child is a text node (the next node).
    const TEXT_CHILD: u32 = 1 << 9;

    fn new(flags: NodeFlags, link: bool, text_child: bool) -> Derived {
        let link = if link { Derived::LINK } else { 0 };
        let text_child = if text_child { Derived::TEXT_CHILD } else { 0 };
        Derived(Derived::MARK | link | text_child | u32::from(flags.byte()))
    }

    /// The code a non-text node's `stats` holds, if it holds one (else an
    /// index of a [`NodeStats`]).
    #[inline]
    pub(crate) fn of(stats: u32) -> Option<Derived> {
        (stats & Derived::MARK != 0).then_some(Derived(stats))
    }

    /// The node's flags.
    #[inline]
    pub(crate) fn flags(self) -> NodeFlags {
        NodeFlags::from_byte(self.0 as u8)
    }

    /// True if the node's only child is a text node, the next node.
    #[inline]
    pub(crate) fn has_text_child(self) -> bool {
        self.0 & Derived::TEXT_CHILD != 0
    }

    /// The node's statistics, given its text child's (when
    /// [`has_text_child`](Self::has_text_child); else none): the child's
    /// sums with the node's own tag, link and flags.
    #[inline(always)]
    pub(crate) fn stats(self, child: Option<NodeStats>) -> NodeStats {
        let flags = self.flags();
        NodeStats {
            tags: u32::from(flags.contains(NodeFlags::ELEMENT)),
            links: u32::from(self.0 & Derived::LINK != 0),
            flags,
            ..child.unwrap_or_default()
        }
    }
}

/// What counts as hidden for [`compute`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Visibility {
    /// Elements hidden by their attributes or inline style are invisible.
    pub honour_hidden: bool,
    /// `<noscript>` is shown (the page was read with scripting off).
    pub noscript: bool,
}

impl Visibility {
    /// As a scripting browser shows a page before its scripts run.
    pub const BROWSER: Visibility = Visibility { honour_hidden: true, noscript: false };
}

/// Computes the statistics of every node: a text node's go to its node
/// (flags and counts), a [`Derived`] node's code to its node, every other
/// node's to the list returned, at the index its node is given; with the
/// counts of long texts. Nodes marked in `aside` (with their subtrees)
/// count as invisible: no text, not [`NodeFlags::VISIBLE`]. Without
/// `visibility.honour_hidden`, the `hidden` attribute, `aria-hidden` and
/// inline styles that hide do not (a page whose whole content waits hidden
/// for its scripts, see [`Document::parse`](super::Document::parse)); with
/// `visibility.noscript`, `<noscript>` is shown (read without scripting).
pub(crate) fn compute(
    nodes: &mut [Node],
    names: &[Element],
    text: &str,
    attrs: &AttributeTable,
    aside: Option<&[bool]>,
    visibility: Visibility,
) -> (Vec<NodeStats>, Vec<LongText>) {
    // Which nodes keep an entry: a node not text is [`Derived`] when it
    // has no children or a text node as its only child. Nodes are in
    // document order, so the descendants of `i` are `i+1 .. end`, and one
    // descendant is a child. A derived node is given its code (its flags
    // come below), any other node not text an index below; text nodes
    // are set below. Backwards, to know whether the next node is text.
    let mut kept = 0u32;
    let mut next_is_text = false;
    for (i, node) in nodes.iter_mut().enumerate().rev() {
        let is_text = node.is_text();
        if !is_text {
            let children = (node.end as usize).wrapping_sub(i + 1);
            node.stats = if children == 0 || (children == 1 && next_is_text) {
                Derived::new(NodeFlags::default(), false, children == 1).0
            } else {
                kept += 1;
                0
            };
        }
        next_is_text = is_text;
    }
    let mut stats: Vec<NodeStats> = Vec::with_capacity(kept as usize);
    let mut long = Vec::new();
    // The nodes with an entry whose subtree holds the node visited, the
    // innermost, `top`, with its end, entry and flags, and those below it
    // in `open`, the outermost first (as deep as the tree). `top` is the
    // node's nearest ancestor with an entry: its parent (a derived node's
    // only child is text), or for the text child of a derived node, its
    // grandparent. A node's sums go to that entry, and an entry's, once
    // its subtree is done, to the one below it. Before the root, `top` is
    // the root's parent: none (`u32::MAX`), visible.
    let outside = (u32::MAX, u32::MAX, NodeFlags::VISIBLE);
    let mut top = outside;
    let mut open: Vec<(u32, u32)> = Vec::new();
    // Closes the entries whose subtrees end at or before `at`: the new
    // top.
    let close = |open: &mut Vec<(u32, u32)>,
                 stats: &mut Vec<NodeStats>,
                 mut top: (u32, u32, NodeFlags),
                 at: u32| {
        while at >= top.0 && top.1 != u32::MAX {
            let sums = stats.get(top.1 as usize).copied();
            top = match open.pop() {
                Some((end, entry)) => {
                    (end, entry, stats.get(entry as usize).map_or(NodeFlags::VISIBLE, |s| s.flags))
                }
                None => outside,
            };
            if let (Some(outer), Some(sums)) = (stats.get_mut(top.1 as usize), sums) {
                outer.add(&sums);
            }
        }
        top
    };
    // The flags of the node before, when it is a derived node with a text
    // child: the parent of the node visited.
    let mut derived_parent = None;
    let keep = NodeFlags::VISIBLE.0 | NodeFlags::IN_LINK.0 | NodeFlags::IN_PRE.0;
    let mut disclosures = Disclosures::of_page(attrs);
    // One pass in document order: a parent comes before its children,
    // so its flags are set when they inherit them.
    for (i, n) in nodes.iter_mut().enumerate() {
        let node = *n;
        if i as u32 >= top.0 {
            top = close(&mut open, &mut stats, top, i as u32);
        }
        let parent_flags = derived_parent.take().unwrap_or(top.2);
        let mut flags = NodeFlags(parent_flags.0 & keep);
        if aside.is_some_and(|a| a.get(i).copied().unwrap_or(false)) {
            flags.0 &= !NodeFlags::VISIBLE.0;
        }
        if let Some(r) = node.text_range() {
            flags |= NodeFlags::TEXT;
            let (chars, words) = if flags.contains(NodeFlags::VISIBLE) {
                count_text(text.get(r.start as usize..r.end as usize).unwrap_or(""))
            } else {
                (0, 0)
            };
            let counts = TextCounts::new(chars, words).unwrap_or_else(|| {
                long.push(LongText { node: i as u32, chars, words });
                TextCounts(TextCounts::LONG)
            });
            n.name_or_kind = Node::TEXT | u32::from(flags.byte());
            n.stats = counts.0;
            if let Some(s) = stats.get_mut(top.1 as usize) {
                s.add(&text_stats(chars, words, flags));
            }
            continue;
        }
        let mut s = NodeStats { flags, ..NodeStats::default() };
        if let Some(element) = node.name_index().and_then(|i| names.get(i as usize)) {
            let e = attrs.of(element, node.start..node.stop);
            s.flags |= NodeFlags::ELEMENT;
            s.tags = 1;
            let invisible = if e.name == local_name!("noscript") {
                !visibility.noscript
            } else {
                is_invisible(&e.name)
            };
            disclosures.note(e);
            if invisible || (visibility.honour_hidden && hidden_by_attributes(e, &disclosures)) {
                // (also cleared above for nodes set aside)
                s.flags.0 &= !NodeFlags::VISIBLE.0;
            }
            if is_block(&e.name) {
                s.flags |= NodeFlags::BLOCK;
            }
            match e.name {
                // A link is an anchor with a target; `<a name>` and
                // `<a id>` only mark a place in the text.
                local_name!("a") if e.attr_named(&local_name!("href")).is_some() => {
                    s.flags |= NodeFlags::IN_LINK;
                    s.links = 1;
                }
                local_name!("pre")
                | local_name!("textarea")
                | local_name!("listing")
                | local_name!("plaintext") => s.flags |= NodeFlags::IN_PRE,
                _ => {}
            }
        }
        if let Some(derived) = Derived::of(node.stats) {
            let text_child = derived.has_text_child();
            n.stats = Derived::new(s.flags, s.links != 0, text_child).0;
            if text_child {
                derived_parent = Some(s.flags);
            }
            // Its text counts, if any, are its text child's, which adds
            // them itself; `s` has none.
            if let Some(outer) = stats.get_mut(top.1 as usize) {
                outer.add(&s);
            }
            continue;
        }
        let entry = stats.len() as u32;
        debug_assert!(entry < Derived::MARK, "entries stay below the derived codes");
        n.stats = entry;
        if top.1 != u32::MAX {
            open.push((top.0, top.1));
        }
        top = (node.end, entry, s.flags);
        stats.push(s);
    }
    close(&mut open, &mut stats, top, u32::MAX);
    (stats, long)
}

/// Non-whitespace characters and words of a text (a word: a maximal run
/// of characters that are not [`char::is_whitespace`], as
/// [`split_words`](super::split_words) splits them), without splitting:
/// eight bytes at a time (SWAR, "SIMD within a register") \[I\]. Runs
/// of ASCII are counted a chunk at a time; the last bytes are counted as
/// a chunk padded with spaces (which are neither characters nor word
/// starts), and in a chunk with other bytes, the ASCII before the first
/// of them as a chunk masked with spaces, then that character decoded.
/// Statistics and TCCB's word vector both count with it.
pub(crate) fn count_text(t: &str) -> (u32, u32) {
    const HIGH: u64 = 0x8080_8080_8080_8080;
    const SPACES: u64 = 0x2020_2020_2020_2020;
    let bytes = t.as_bytes();
    // Most text nodes are a few bytes (a line break and an indent): one
    // chunk padded with spaces, counted without the running counters.
    if bytes.len() <= 8 {
        let w = match bytes.first_chunk::<8>() {
            Some(chunk) => u64::from_le_bytes(*chunk),
            None if bytes.is_empty() => return (0, 0),
            None => last_chunk(bytes, bytes.len()),
        };
        if w & HIGH == 0 {
            let space = ascii_space_bits(w);
            let letters = !space & HIGH;
            let starts = letters & ((space << 8) | 0x80);
            return (byte_marks(letters), byte_marks(starts));
        }
    }
    let mut count = AsciiCount::new();
    let mut i = 0;
    while i < bytes.len() {
        i = count.add_ascii_chunks(bytes, i);
        let rest = bytes.get(i..).unwrap_or_default();
        let w = match rest.first_chunk::<8>() {
            Some(chunk) => u64::from_le_bytes(*chunk),
            None if rest.is_empty() => break,
            None => last_chunk(bytes, rest.len()),
        };
        // ASCII bytes before the first other one (eight: none, the last
        // bytes of the text).
        let ascii = ((w & HIGH).trailing_zeros() / 8) as usize;
        if ascii == 8 {
            count.add(w);
            break;
        }
        if ascii > 0 {
            let space = count.add((w & !(u64::MAX << (8 * ascii))) | (SPACES << (8 * ascii)));
            count.after_space = (space >> (8 * ascii - 8)) & 0x80;
            i += ascii;
        }
        let Some(c) = t.get(i..).and_then(|rest| rest.chars().next()) else { break };
        if c.is_whitespace() {
            count.after_space = 0x80;
        } else {
            count.chars += 1;
            count.words += u32::from(count.after_space != 0);
            count.after_space = 0;
        }
        i += c.len_utf8();
    }
    count.flush();
    (count.chars, count.words)
}

/// True when `t` (a text or its bytes) is empty or all ASCII whitespace as
/// [`char::is_whitespace`] says (U+0020, U+0009–U+000D), so that
/// [`count_text`] finds neither characters nor words in it: eight bytes
/// at a time, the last bytes padded with spaces, stopping at the first
/// chunk with another byte.
pub(crate) fn is_ascii_blank(t: impl AsRef<[u8]>) -> bool {
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let blank = |w: u64| w & HIGH == 0 && ascii_space_bits(w) == HIGH;
    let bytes = t.as_ref();
    let mut i = 0;
    while let Some(chunk) = bytes.get(i..).and_then(<[u8]>::first_chunk::<8>) {
        if !blank(u64::from_le_bytes(*chunk)) {
            return false;
        }
        i += 8;
    }
    let rest = bytes.len() - i;
    rest == 0 || blank(last_chunk(bytes, rest))
}

/// The running counts of [`count_text`]. Chunks add their characters and
/// word starts to per-byte counters (one per byte position, bit 0 up), a
/// shift and an add each instead of two population counts; the counters
/// are summed into `chars` and `words` before they can overflow (after
/// 255 chunks) and at the end.
struct AsciiCount {
    chars: u32,
    words: u32,
    /// Bit 7 set: the character before the next one is whitespace, or
    /// there is none.
    after_space: u64,
    /// Characters at each byte position of the chunks added since the
    /// last [`flush`](Self::flush), a counter a byte.
    char_lanes: u64,
    /// Word starts at each byte position, likewise.
    word_lanes: u64,
    /// Chunks added since the last flush (at most 255).
    pending: u32,
}

/// The marks of eight ASCII bytes (little end first) that
/// [`AsciiCount`] sums per byte: a 1 in the low bit of each byte that is
/// a character (not white space), a 1 in each that starts a word (a
/// character after a space; `after_space` is 0x80 when the byte before
/// the chunk was one), and the chunk's [`ascii_space_bits`].
#[inline]
fn chunk_marks(w: u64, after_space: u64) -> (u64, u64, u64) {
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let space = ascii_space_bits(w);
    let letters = !space & HIGH;
    let starts = letters & ((space << 8) | after_space);
    (letters >> 7, starts >> 7, space)
}

impl AsciiCount {
    fn new() -> AsciiCount {
        AsciiCount {
            chars: 0,
            words: 0,
            after_space: 0x80,
            char_lanes: 0,
            word_lanes: 0,
            pending: 0,
        }
    }

    /// Adds the whole chunks of eight ASCII bytes from `bytes[i..]` on,
    /// up to the first chunk with another byte or the last bytes, and
    /// returns where they end. The chunks are read in runs that fit the
    /// counters' room by a loop that keeps only the chunk iterator: no
    /// index or flush test per chunk (issue 12).
    #[inline]
    fn add_ascii_chunks(&mut self, bytes: &[u8], mut i: usize) -> usize {
        const HIGH: u64 = 0x8080_8080_8080_8080;
        loop {
            // Below 255: `add` flushes at 255.
            let room = 255 - self.pending.min(254) as usize;
            let (mut char_lanes, mut word_lanes, mut after_space) =
                (self.char_lanes, self.word_lanes, self.after_space);
            let mut taken = 0;
            for chunk in bytes.get(i..).unwrap_or_default().chunks_exact(8).take(room) {
                let w = chunk.first_chunk::<8>().map_or(HIGH, |c| u64::from_le_bytes(*c));
                if w & HIGH != 0 {
                    break;
                }
                let (chars, starts, space) = chunk_marks(w, after_space);
                char_lanes += chars;
                word_lanes += starts;
                after_space = (space >> 56) & 0x80;
                taken += 1;
            }
            i += 8 * taken;
            (self.char_lanes, self.word_lanes, self.after_space) =
                (char_lanes, word_lanes, after_space);
            self.pending += taken as u32;
            if self.pending >= 255 {
                self.flush();
            }
            if taken < room {
                return i;
            }
        }
    }

    /// Adds the characters and word starts of eight ASCII bytes (little
    /// end first); returns their [`ascii_space_bits`].
    #[inline]
    fn add(&mut self, w: u64) -> u64 {
        let (chars, starts, space) = chunk_marks(w, self.after_space);
        self.char_lanes += chars;
        self.word_lanes += starts;
        self.pending += 1;
        if self.pending == 255 {
            self.flush();
        }
        space
    }

    /// Sums the per-byte counters into `chars` and `words`.
    fn flush(&mut self) {
        self.chars += lane_sum(self.char_lanes);
        self.words += lane_sum(self.word_lanes);
        self.char_lanes = 0;
        self.word_lanes = 0;
        self.pending = 0;
    }
}

/// The number of bytes of `w` with bit 7 set (and no other): each byte
/// moved down to 0 or 1, summed into the top byte by a multiplication
/// (at most 8, so no byte carries into the next).
fn byte_marks(w: u64) -> u32 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    ((w >> 7).wrapping_mul(ONES) >> 56) as u32
}

/// The sum of the eight bytes of `w`: pairs of bytes added into 16-bit
/// lanes (at most 510 each), which a multiplication sums into the top 16
/// bits (at most 2 040, no carry out).
fn lane_sum(w: u64) -> u32 {
    const EVEN: u64 = 0x00FF_00FF_00FF_00FF;
    let pairs = (w & EVEN) + ((w >> 8) & EVEN);
    (pairs.wrapping_mul(0x0001_0001_0001_0001) >> 48) as u32
}

/// The last `n` bytes of `bytes` (1 to 7) as a little-endian word, padded
/// with spaces: read as the eight bytes that end the text, shifted, when
/// there are eight.
fn last_chunk(bytes: &[u8], n: usize) -> u64 {
    const SPACES: u64 = 0x2020_2020_2020_2020;
    let n = n.clamp(1, 7);
    let padding = SPACES << (8 * n);
    let end = bytes.len().checked_sub(8).and_then(|start| bytes.get(start..));
    match end.and_then(<[u8]>::first_chunk::<8>) {
        Some(chunk) => (u64::from_le_bytes(*chunk) >> (8 * (8 - n))) | padding,
        None => {
            let tail = bytes.get(bytes.len().saturating_sub(n)..).unwrap_or_default();
            tail.iter().rev().fold(0, |w, &b| (w << 8) | u64::from(b)) | padding
        }
    }
}

/// Bit 7 of each byte of `w` (eight ASCII bytes, little end first) set
/// when the byte is whitespace as [`char::is_whitespace`] says: U+0020 or
/// U+0009–U+000D. No byte is above 0x7F, so no sum below carries into the
/// next byte.
fn ascii_space_bits(w: u64) -> u64 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    // A byte of `w ^ 0x20…` is zero exactly where `w` has a space; adding
    // 0x7F sets bit 7 of every other byte.
    let not_blank = (w ^ (ONES * 0x20)).wrapping_add(ONES * 0x7F) & HIGH;
    let at_least_9 = w.wrapping_add(ONES * (0x80 - 0x09)) & HIGH;
    let at_least_14 = w.wrapping_add(ONES * (0x80 - 0x0E)) & HIGH;
    (!not_blank & HIGH) | (at_least_9 & !at_least_14)
}

#[cfg(test)]
mod tests {
    use super::{
        count_text, hidden_by_attributes, is_ascii_blank, style_hides, Derived, Disclosures,
    };
    use crate::document::tags::{is_block, is_invisible};
    use crate::document::{Document, NodeFlags, NodeId, NodeStats, ParseOptions};
    use markup5ever::local_name;

    /// Every node's statistics as a full computation gives them, from
    /// the definitions, node by node: flags from the node and its
    /// ancestors, sums over the subtree (`aside` as for
    /// [`Document::set_aside`]).
    fn reference(doc: &Document, aside: &[bool]) -> Vec<NodeStats> {
        let is_link = |id: NodeId| {
            doc.element(id).is_some_and(|e| {
                e.name == local_name!("a") && e.attr_named(&local_name!("href")).is_some()
            })
        };
        // Whether each element is hidden by its attributes, its panels
        // known from the controls before it.
        let mut disclosures = Disclosures::of_page(&doc.attrs);
        let by_attributes: Vec<bool> = doc
            .ids()
            .map(|id| {
                doc.element(id).is_some_and(|e| {
                    disclosures.note(e);
                    hidden_by_attributes(e, &disclosures)
                })
            })
            .collect();
        let hides = |id: NodeId| {
            aside.get(id.index()).copied().unwrap_or(false)
                || by_attributes[id.index()]
                || doc.element(id).is_some_and(|e| is_invisible(&e.name))
        };
        let is_pre = |id: NodeId| {
            doc.name(id).is_some_and(|n| {
                matches!(
                    *n,
                    local_name!("pre")
                        | local_name!("textarea")
                        | local_name!("listing")
                        | local_name!("plaintext")
                )
            })
        };
        let flags_of = |id: NodeId| {
            let chain: Vec<NodeId> = std::iter::once(id).chain(doc.ancestors(id)).collect();
            let mut f = NodeFlags::default();
            if !chain.iter().any(|&n| hides(n)) {
                f |= NodeFlags::VISIBLE;
            }
            if chain.iter().any(|&n| is_link(n)) {
                f |= NodeFlags::IN_LINK;
            }
            if chain.iter().any(|&n| is_pre(n)) {
                f |= NodeFlags::IN_PRE;
            }
            if doc.is_text(id) {
                f |= NodeFlags::TEXT;
            }
            if let Some(e) = doc.element(id) {
                f |= NodeFlags::ELEMENT;
                if is_block(&e.name) {
                    f |= NodeFlags::BLOCK;
                }
            }
            f
        };
        let flags: Vec<NodeFlags> = doc.ids().map(flags_of).collect();
        doc.ids()
            .map(|id| {
                let mut s = NodeStats { flags: flags[id.index()], ..NodeStats::default() };
                for n in doc.subtree(id) {
                    let f = flags[n.index()];
                    if doc.is_text(n) && f.contains(NodeFlags::VISIBLE) {
                        let (chars, words) = count_text(doc.text(n));
                        s.chars += chars;
                        s.words += words;
                        if f.contains(NodeFlags::IN_LINK) {
                            s.link_chars += chars;
                            s.link_words += words;
                        }
                    }
                    s.tags += u32::from(doc.element(n).is_some());
                    s.links += u32::from(is_link(n));
                }
                s
            })
            .collect()
    }

    /// Checks every node's [`Document::stats`] and [`Document::flags`]
    /// against [`reference`]; returns how many nodes keep their
    /// statistics in their node as [`Derived`].
    fn check(doc: &Document, aside: &[bool], html: &str) -> usize {
        for (id, expected) in doc.ids().zip(reference(doc, aside)) {
            assert_eq!(doc.stats(id), expected, "node {} of {html:?}", id.0);
            assert_eq!(doc.flags(id), expected.flags, "node {} of {html:?}", id.0);
        }
        let derived = doc
            .ids()
            .filter(|&id| !doc.is_text(id) && Derived::of(doc.node(id).stats).is_some())
            .count();
        let texts = doc.ids().filter(|&id| doc.is_text(id)).count();
        assert_eq!(doc.stats.len(), doc.len() - texts - derived, "{html:?}");
        derived
    }

    // Leaves, `<a href>` leaves and elements with one text child keep
    // no `NodeStats` (issue 13); what is read from them is what the full
    // computation gives, inside links, `<pre>` and hidden parents, and
    // after text is set aside (computed again over the codes).
    #[test]
    fn derived_statistics_equal_the_full_computation() {
        let pages = [
            "<p>x</p><p>two words</p><br><hr><img src=i>",
            "<div><a href=/a></a><a name=n></a><a href=/b>link text</a>\
             <a>no target</a><span><a href=/c>in span</a> tail</span></div>",
            "<a href=/u><b>bold link</b><i></i><span>x y</span></a>",
            "<pre><code>let x = 1;</code><b></b></pre><textarea>a b</textarea>",
            "<div hidden><p>hidden text</p><a href=/h>h</a></div>\
             <div style='display: none'><em>gone</em></div>\
             <p aria-hidden=true>aria</p><script>var s;</script><style>p{}</style>",
            "<table><tr><td>123</td><td>456</td></tr><tr><td></td><td><b>b</b></td></tr></table>",
            // Comments are not fed to the tree (`Document::parse`): these
            // `<p>`s are leaves and a node with a text child.
            "<!DOCTYPE html><!-- c --><p><!-- in p --></p><p>x<!-- after --></p>",
            "<template><p>in template</p></template><template></template>",
            "<ul><li>one<li>two<li><a href=/x>three</a></ul><select><option>o</select>",
            "<p>\u{e9}t\u{e9} \u{3000} mots</p><h1> </h1><p>\n</p>",
        ];
        for html in pages {
            let doc = Document::parse(html.as_bytes(), &ParseOptions::default()).expect("parses");
            assert!(check(&doc, &[], html) > 0, "{html:?}");
            // Set aside, one at a time, each element (its text with it)
            // and each text node.
            for id in doc.ids().skip(1) {
                let mut aside = vec![false; doc.len()];
                aside[id.index()] = true;
                let hidden: Vec<bool> =
                    doc.ids().map(|n| n == id || doc.ancestors(n).any(|a| a == id)).collect();
                let again = doc.set_aside(&aside);
                check(&again, &hidden, html);
            }
        }
    }

    // The dense pages of issue 13 keep a `NodeStats` only for the few
    // nodes with more than one child (or a child that is not text): the
    // document, `<html>` and `<body>` (`<head>` is empty), and the
    // table's `<table>`, `<tbody>` and `<tr>`s.
    #[test]
    fn dense_pages_keep_few_entries() {
        for (html, stored) in [
            ("<p>x</p>".repeat(1000), 3),
            ("<br>".repeat(1000), 3),
            ("<a href=/u>".repeat(1000), 3),
            (format!("<table>{}", "<td>x".repeat(1000)), 6),
        ] {
            let doc = Document::parse(html.as_bytes(), &ParseOptions::default()).expect("parses");
            check(&doc, &[], &html);
            assert_eq!(doc.stats.len(), stored, "{html:.40}");
        }
        let rows = format!("<table>{}", "<tr><td>123</td><td>456</td></tr>".repeat(100));
        let doc = Document::parse(rows.as_bytes(), &ParseOptions::default()).expect("parses");
        assert_eq!(check(&doc, &[], &rows), 201);
    }

    proptest::proptest! {
        /// Any mix of the elements that are derived and those that are
        /// not, nested in any way the tree builder makes of it.
        #[test]
        fn derived_statistics_hold_on_any_markup(
            parts in proptest::collection::vec(
                proptest::sample::select(vec![
                    "<p>", "</p>", "<a href=/l>", "<a>", "</a>", "<pre>", "</pre>", "<br>",
                    "<div hidden>", "<div>", "</div>", "<b>", "</b>", "<!--c-->", "x", "two words",
                    " ", "<td>", "<table>", "<span style=display:none>", "</span>", "<script>s</script>",
                ]),
                0..30,
            )
        ) {
            let html = parts.concat();
            let doc = Document::parse(html.as_bytes(), &ParseOptions::default()).expect("parses");
            check(&doc, &[], &html);
        }
    }

    // A text node keeps counts below 65 535 in its node and longer ones
    // in the document's list (issue 13): both read back exactly, summed
    // into the ancestors, with the text node's flags.
    #[test]
    fn long_and_short_texts_keep_their_counts() {
        let long_words = "ab ".repeat(70_000);
        let long_chars = "x".repeat(70_000);
        let html = format!(
            "<div><p>{long_words}</p><a href=/u>{long_chars}</a><p>two words</p>\
             <p hidden>{long_chars}</p></div>"
        );
        let doc = Document::parse(html.as_bytes(), &ParseOptions::default()).expect("parses");
        let texts: Vec<_> = doc.ids().filter(|&id| doc.is_text(id)).collect();
        let counts: Vec<_> =
            texts.iter().map(|&t| (doc.stats(t).chars, doc.stats(t).words)).collect();
        assert_eq!(counts, [(140_000, 70_000), (70_000, 1), (8, 2), (0, 0)]);
        let link = doc.stats(texts[1]);
        assert!(link.flags.contains(NodeFlags::IN_LINK | NodeFlags::VISIBLE | NodeFlags::TEXT));
        assert_eq!((link.link_chars, link.link_words), (70_000, 1));
        assert!(!doc.stats(texts[3]).flags.contains(NodeFlags::VISIBLE));
        let div = doc.ids().find(|&id| doc.is(id, markup5ever::local_name!("div"))).expect("div");
        let s = doc.stats(div);
        assert_eq!(
            (s.chars, s.words, s.link_chars, s.tags, s.links),
            (210_008, 70_003, 70_000, 5, 1)
        );
        assert_eq!(doc.text_nodes().count(), 3);
        // The `<p>` and `<a>` around the long texts derive theirs from
        // those texts' entries in the list.
        let first_p = doc.ids().find(|&id| doc.is(id, markup5ever::local_name!("p"))).expect("p");
        assert_eq!((doc.stats(first_p).chars, doc.stats(first_p).words), (140_000, 70_000));
        let a = doc.ids().find(|&id| doc.is(id, markup5ever::local_name!("a"))).expect("a");
        assert_eq!((doc.stats(a).link_chars, doc.stats(a).links), (70_000, 1));
    }

    #[test]
    fn blank_text_is_ascii_whitespace_throughout_and_has_no_words() {
        let texts = [
            "",
            " ",
            "\n",
            "\t\x0b\x0c\r ",
            "\n        ",
            "\n                \t\t",
            "        x",
            "x        ",
            "\n      \u{a0}",
            "\u{a0}",
            "\u{2003}  ",
            "         \u{85}",
            "\0\0\0\0\0\0\0\0",
            "\x1f",
            "!",
            "\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n",
            "\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n-",
        ];
        for t in texts {
            let expected = !t.is_empty() && t.chars().all(|c| c.is_ascii() && c.is_whitespace());
            assert_eq!(is_ascii_blank(t), expected || t.is_empty(), "{t:?}");
            if is_ascii_blank(t) {
                assert_eq!(count_text(t), (0, 0), "{t:?}");
            }
        }
    }

    /// The text of each `<p>` of `html` with visible words.
    fn shown_paragraphs(html: &str) -> Vec<String> {
        let doc = Document::parse(html.as_bytes(), &ParseOptions::default()).expect("parses");
        doc.ids()
            .filter(|&id| doc.is(id, markup5ever::local_name!("p")))
            .filter(|&id| doc.stats(id).words > 0)
            .map(|id| doc.text_content(id))
            .collect()
    }

    #[test]
    fn hidden_tab_and_accordion_panels_are_read_as_shown() {
        let html = "<div role=tabpanel hidden><p>first tab words</p></div>\
             <div class='tab-pane fade' style='display:none'><p>second tab words</p></div>\
             <div class='Accordion__Content' aria-hidden=true><p>an answer</p></div>\
             <div class='a-expander-content' style='display:none'><p>the rest of it</p></div>\
             <div class='chakra-collapse' style='display:none'><p>a chakra panel</p></div>\
             <div role=region aria-label='Cookie banner' hidden><p>we use cookies</p></div>\
             <div hidden><p>gone</p></div><div class=accordion hidden><p>gone too</p></div>\
             <div role=dialog hidden><p>a modal</p></div>";
        let shown = shown_paragraphs(html);
        assert_eq!(
            shown,
            [
                "first tab words",
                "second tab words",
                "an answer",
                "the rest of it",
                "a chakra panel"
            ]
        );
    }

    #[test]
    fn a_panel_labelled_by_the_control_that_opens_it_is_read_as_shown() {
        // The WAI-ARIA accordion: the heading's button controls the
        // region, which the button labels. A drawer opened by a control
        // but not labelled by it, a region labelled by something else,
        // and a panel whose control comes after it stay hidden.
        let html = "<h3><button id=q1 aria-controls='a1 x' aria-expanded=false>Q1</button></h3>\
             <div id=a1 role=region aria-labelledby=q1 style='display:none'><p>the first answer</p></div>\
             <button id=m aria-controls=menu>Menu</button><nav id=menu hidden><p>menu words</p></nav>\
             <div id=c role=region aria-labelledby=t hidden><p id=t>cookie words</p></div>\
             <div id=late aria-labelledby=q2 hidden><p>late words</p></div>\
             <button id=q2 aria-controls=late>Q2</button>";
        let shown = shown_paragraphs(html);
        assert_eq!(shown, ["the first answer"]);
    }

    #[test]
    fn inline_styles_that_hide_are_found_in_any_case_and_spacing() {
        for style in ["display:none", "color:red; DISPLAY : None ;", "visibility:\thidden"] {
            assert!(style_hides(style), "{style}");
        }
        for style in ["display:block", "border:none", "overflow:hidden", "", "visibility:visible"] {
            assert!(!style_hides(style), "{style}");
        }
    }

    #[test]
    fn counts_agree_for_ascii_and_unicode() {
        assert_eq!(count_text("  ab c\td\u{b}e "), (5, 4));
        assert_eq!(count_text("\u{a0}été\u{2003}à "), (4, 2));
        assert_eq!(count_text(""), (0, 0));
        assert_eq!(count_text("\n\t"), (0, 0));
        assert_eq!(count_text("a b\tc d"), (4, 4));
        assert_eq!(count_text("abcdefgh"), (8, 1));
        assert_eq!(count_text(" \u{e9}t\u{e9}"), (3, 1));
    }

    #[test]
    fn long_texts_count_past_the_per_byte_counters() {
        // More than 255 chunks of eight letters, then of eight words.
        assert_eq!(count_text(&"abcdefgh".repeat(300)), (2400, 1));
        assert_eq!(count_text(&"a b c d ".repeat(600)), (2400, 2400));
        let mixed = "wörter und ".repeat(400);
        let words = mixed.split_whitespace().count() as u32;
        let chars = mixed.chars().filter(|c| !c.is_whitespace()).count() as u32;
        assert_eq!(count_text(&mixed), (chars, words));
    }

    proptest::proptest! {
        /// Every chunk boundary, tail length and mix of ASCII and other
        /// characters counts as `split_whitespace` splits.
        #[test]
        fn any_text_counts_as_split_whitespace(
            text in "[a-z \\t\\n\\x0b\\x0c\\r,é\u{A0}\u{3000}\u{85}\u{2003}語]{0,70}"
        ) {
            let words = text.split_whitespace().count() as u32;
            let chars = text.chars().filter(|c| !c.is_whitespace()).count() as u32;
            proptest::prop_assert_eq!(count_text(&text), (chars, words));
        }
    }
}
