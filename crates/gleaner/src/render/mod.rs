//! Renderers: a [`Selection`] of a [`Document`] as plain text, Markdown or
//! clean HTML.
//!
//! One walker serves text and Markdown. It visits the nodes in document
//! order, skips subtrees without selected text, and turns block structure
//! into breaks: a blank line between paragraphs, a line break between list
//! items and table rows, nothing inside inline elements. Markdown adds
//! heading markers, list bullets, block quotes, fenced code, tables,
//! emphasis and (optionally) links.
//!
//! Every format leaves out terminal control characters (ESC, BEL, C1
//! controls, bidi overrides; see [`strip_controls`]), so printing the
//! output cannot act on the user's terminal.

mod code;
mod front_matter;
mod html;
mod image;
mod math;
mod node_ids;
mod records;
mod table;
mod title;
mod writer;

use markup5ever::{local_name, LocalName};

pub use self::front_matter::front_matter;
pub use self::html::html;
pub(crate) use self::image::is_source_attribute;
pub use self::node_ids::{html_with_node_ids, NODE_ID_ATTRIBUTE};
pub use self::title::markdown_with_title;
pub use crate::controls::{is_output_control, strip_controls};

/// Escapes `text` for HTML or XML text and attribute values (`&`, `<`,
/// `>`, `"`, `'`), appending to `out`. Reports and plots use it; the
/// clean-HTML renderer keeps its own lighter escaping.
pub fn escape_into(out: &mut String, text: &str) {
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
}

/// [`escape_into`] a new string.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    escape_into(&mut out, text);
    out
}
use self::records::{Kind, Record, Records};
use self::table::Grid;
use self::writer::{Break, Writer};
use crate::document::tags::heading_level;
use crate::document::{Document, NodeFlags, NodeId};
use crate::rank_bits::RankBits;
use crate::selection::Selection;

/// Output formats of the renderers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Format {
    /// Plain text with paragraph breaks.
    Text,
    /// CommonMark-style Markdown.
    Markdown,
    /// A clean HTML fragment.
    Html,
}

/// Options for the renderers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub struct RenderOptions {
    /// Keep hyperlinks (`[text](href)` in Markdown, `<a href>` in HTML).
    pub links: bool,
    /// Keep images (`![alt](src)` in Markdown, `<img>` in HTML).
    pub images: bool,
}

impl RenderOptions {
    /// Sets [`RenderOptions::links`].
    pub fn links(mut self, yes: bool) -> RenderOptions {
        self.links = yes;
        self
    }

    /// Sets [`RenderOptions::images`].
    pub fn images(mut self, yes: bool) -> RenderOptions {
        self.images = yes;
        self
    }
}

/// Renders in any format.
pub fn render(doc: &Document, sel: &Selection, format: Format, options: RenderOptions) -> String {
    match format {
        Format::Text => text(doc, sel),
        Format::Markdown => markdown(doc, sel, options),
        Format::Html => html(doc, sel, options),
    }
}

/// The selection as plain text: paragraphs separated by a blank line,
/// whitespace collapsed except in `<pre>`.
pub fn text(doc: &Document, sel: &Selection) -> String {
    Walker::new(doc, sel, false, RenderOptions::default()).run()
}

/// The selection as Markdown.
pub fn markdown(doc: &Document, sel: &Selection, options: RenderOptions) -> String {
    Walker::new(doc, sel, true, options).run()
}

/// What a walker does when it leaves an element.
#[derive(Debug)]
enum Exit {
    Nothing,
    Break(Break),
    /// Leave a block quote, a list item or a list: pop the prefix.
    PopPrefix(Break),
    /// Close an inline marker (`**`, `*`, `](href)`).
    CloseInline,
    /// Close a code span.
    CloseCode,
    /// Leave a data-table cell of a Markdown table: empty cells for the
    /// further columns it spans.
    GridCell(usize),
    Heading,
    Pre,
    List,
    TableRow,
    Table,
    Cell,
    /// Leave a record written as a list item ([`records`]).
    RecordItem,
}

/// Which subtrees hold selected nodes: the selected nodes a bit each,
/// with their ranks, so that a subtree `a..end` holds
/// `rank_before(end) − rank_before(a)` of them (issue 13: an eighth of a
/// byte and a sixteenth a node, instead of the `u32` a node of a prefix
/// sum of the selected nodes, which the renderer no longer builds).
pub(crate) struct SubtreeSelection {
    bits: RankBits,
}

impl SubtreeSelection {
    /// The selected nodes of `sel`.
    pub(crate) fn new(doc: &Document, sel: &Selection) -> SubtreeSelection {
        let mut bits = RankBits::new(doc.len());
        for id in sel.iter() {
            bits.insert(id.index());
        }
        bits.rank_words();
        SubtreeSelection { bits }
    }

    /// Is a node of the subtree of `id` selected?
    pub(crate) fn any_in(&self, doc: &Document, id: NodeId) -> bool {
        let end = doc.subtree_end(id).index();
        let (a, b) = (self.bits.rank_before(id.index()), self.bits.rank_before(end));
        matches!((a, b), (Some(a), Some(b)) if b > a)
    }
}

/// A Markdown table being written: its grid, the row the walk is in (by
/// index in the grid), the next column to write, the cells written in the
/// row and the rows written.
struct GridState {
    grid: Grid,
    row: Option<usize>,
    col: usize,
    cells: usize,
    rows: usize,
}

impl GridState {
    fn new(grid: Grid) -> GridState {
        GridState { grid, row: None, col: 0, cells: 0, rows: 0 }
    }
}

struct Walker<'a> {
    doc: &'a Document,
    sel: &'a Selection,
    selected: SubtreeSelection,
    markdown: bool,
    options: RenderOptions,
    w: Writer,
    /// Per open list: `None` for bullets, `Some(next number)` for `<ol>`.
    lists: Vec<Option<u32>>,
    /// Inside a data table: (cells written in this row, rows written,
    /// columns of the first row).
    table: Option<(usize, usize, usize)>,
    /// Inside a data table in Markdown: its grid and where the walk is
    /// in it.
    grid: Option<GridState>,
    /// Set by [`Walker::enter`] for an element written whole (a formula)
    /// or left out (a gutter): its subtree is not walked.
    skip: bool,
    /// Open headings: a block inside one does not end its line.
    headings: usize,
    cell_depth: usize,
    /// The document base URL, for relative links and images: found on
    /// the first link or image written (a walk of the page for its
    /// `<base>`), not for text that has none (issue 12).
    base: std::cell::OnceCell<Option<url::Url>>,
    /// The parent of the text node written last: text from another
    /// element may need a space before it ([`Writer::separate_glued`]).
    last_text_parent: Option<NodeId>,
    /// The posts and cards of the selection (Markdown only).
    records: Records,
}

impl<'a> Walker<'a> {
    fn new(doc: &'a Document, sel: &'a Selection, markdown: bool, options: RenderOptions) -> Self {
        Walker {
            doc,
            sel,
            selected: SubtreeSelection::new(doc, sel),
            markdown,
            options,
            w: if markdown { Writer::markdown() } else { Writer::default() },
            lists: Vec::new(),
            table: None,
            grid: None,
            skip: false,
            headings: 0,
            cell_depth: 0,
            base: std::cell::OnceCell::new(),
            last_text_parent: None,
            records: match markdown {
                true => Records::find(doc, sel),
                false => Records::default(),
            },
        }
    }

    /// The document base URL ([`Document::base_url`]), read once.
    fn base(&self) -> Option<&url::Url> {
        self.base.get_or_init(|| self.doc.base_url()).as_ref()
    }

    /// Selected text nodes in the subtree of `id`.
    fn has_selected(&self, id: NodeId) -> bool {
        self.selected.any_in(self.doc, id)
    }

    fn run(mut self) -> String {
        let doc = self.doc;
        let mut open: Vec<(NodeId, Exit)> = Vec::new();
        let mut id = NodeId(0);
        let end = NodeId(doc.len() as u32);
        while id < end {
            while let Some((top, _)) = open.last() {
                if doc.contains(*top, id) {
                    break;
                }
                if let Some((_, exit)) = open.pop() {
                    self.exit(exit);
                }
            }
            let stats = doc.stats(id);
            if stats.flags.contains(NodeFlags::TEXT) {
                if self.sel.contains(id) {
                    let pre = stats.flags.contains(NodeFlags::IN_PRE);
                    let text = doc.text(id);
                    let parent = doc.parent(id);
                    if !pre && parent != self.last_text_parent {
                        self.w.separate_glued(text);
                    }
                    self.last_text_parent = parent;
                    self.w.text(text, pre);
                } else if stats.chars == 0 && stats.flags.contains(NodeFlags::VISIBLE) {
                    if stats.flags.contains(NodeFlags::IN_PRE) {
                        // Line breaks between highlighted spans of code.
                        self.w.text(doc.text(id), true);
                    } else {
                        // Whitespace between inline elements separates words.
                        self.w.request(Break::Space);
                    }
                }
                id = NodeId(id.0 + 1);
                continue;
            }
            let Some(element) = doc.element(id) else {
                id = NodeId(id.0 + 1);
                continue;
            };
            let visible = stats.flags.contains(NodeFlags::VISIBLE);
            // Elements with text but nothing selected are skipped whole;
            // text-less ones (br, hr, img) still matter between selected text.
            if !visible || (stats.chars > 0 && !self.has_selected(id)) {
                // A block left out still separates the text around it
                // (`Before<div class=ad>…</div>After`).
                if visible && stats.flags.contains(NodeFlags::BLOCK) {
                    self.w.request(self.skipped_block_break());
                }
                id = doc.subtree_end(id);
                continue;
            }
            let exit = self.enter(id, &element.name);
            if std::mem::take(&mut self.skip) {
                self.exit(exit);
                id = doc.subtree_end(id);
                continue;
            }
            open.push((id, exit));
            id = NodeId(id.0 + 1);
        }
        while let Some((_, exit)) = open.pop() {
            self.exit(exit);
        }
        self.w.finish()
    }

    /// The break a block left out leaves: a paragraph break, but inside
    /// a Markdown table a space, so that a cell or a block in a cell left
    /// out does not split its row (issue 35; the missing cell stays an
    /// empty one, as in the HTML output).
    fn skipped_block_break(&self) -> Break {
        if self.markdown && self.grid.is_some() {
            Break::Space
        } else {
            Break::Paragraph
        }
    }

    fn enter(&mut self, id: NodeId, name: &LocalName) -> Exit {
        let md = self.markdown;
        if md && self.cell_depth == 0 && self.headings == 0 && self.grid.is_none() {
            if let Some(record) = self.records.get(id) {
                return self.enter_record(id, name, record);
            }
        }
        if md {
            if let Some(exit) = self.enter_markdown_only(id, name) {
                return exit;
            }
        }
        if self.cell_depth > 0 {
            return self.enter_in_cell(id, name);
        }
        if md && self.headings > 0 && self.doc.flags(id).contains(NodeFlags::BLOCK) {
            // A heading is one line in Markdown: a rule, list or other
            // block inside one is a space, as HTML reads the heading
            // whole.
            self.w.request(Break::Space);
            return Exit::Break(Break::Space);
        }
        if let Some(level) = heading_level(name) {
            self.w.request(Break::Paragraph);
            if md {
                self.w.marker(format!("{} ", "#".repeat(usize::from(level))));
            }
            self.headings += 1;
            return Exit::Heading;
        }
        match *name {
            local_name!("br") => {
                // A heading is one line in Markdown.
                let in_heading = self
                    .doc
                    .ancestors(id)
                    .any(|a| self.doc.name(a).is_some_and(|n| heading_level(n).is_some()));
                if in_heading {
                    self.w.request(Break::Space);
                } else if md {
                    self.w.hard_break();
                } else {
                    self.w.request(Break::Line);
                }
                Exit::Nothing
            }
            local_name!("hr") => {
                self.w.request(Break::Paragraph);
                if md {
                    self.w.rule();
                }
                Exit::Nothing
            }
            local_name!("img") if md && self.options.images => {
                self.image(id);
                Exit::Nothing
            }
            local_name!("pre") => {
                self.w.request(Break::Paragraph);
                if md {
                    let language = code::language(self.doc, id);
                    self.w.fence_open(&self.doc.text_content(id), language.as_deref());
                }
                Exit::Pre
            }
            local_name!("blockquote") => {
                self.w.request(Break::Paragraph);
                if md {
                    self.w.push_prefix("> ".into());
                    return Exit::PopPrefix(Break::Paragraph);
                }
                Exit::Break(Break::Paragraph)
            }
            local_name!("ul") | local_name!("ol") | local_name!("menu") | local_name!("dir") => {
                let start = self.doc.attr(id, "start").and_then(|s| s.trim().parse().ok());
                // An ordered list not starting at 1 cannot interrupt the
                // item's text in Markdown: a blank line before it.
                let interrupts = *name != local_name!("ol") || start.unwrap_or(1) == 1;
                self.w.request(if self.lists.is_empty() || (md && !interrupts) {
                    Break::Paragraph
                } else {
                    Break::Line
                });
                self.lists.push((*name == local_name!("ol")).then(|| start.unwrap_or(1)));
                Exit::List
            }
            local_name!("li") => {
                self.w.request(Break::Line);
                if md {
                    let marker = match self.lists.last_mut() {
                        Some(Some(n)) => {
                            let current = *n;
                            *n = n.saturating_add(1);
                            format!("{current}. ")
                        }
                        _ => "- ".to_string(),
                    };
                    self.w.list_item(marker);
                    return Exit::PopPrefix(Break::Line);
                }
                Exit::Break(Break::Line)
            }
            local_name!("dt") | local_name!("dd") => {
                self.w.request(Break::Line);
                Exit::Break(Break::Line)
            }
            local_name!("table") if md && is_markdown_table(self.doc, id) => {
                self.w.request(Break::Paragraph);
                self.table = Some((0, 0, 0));
                let written = |tr: NodeId| {
                    let chars = self.doc.stats(tr).chars;
                    (chars > 0 && self.has_selected(tr))
                        || (chars == 0 && self.options.images && image::holds_written(self.doc, tr))
                };
                self.grid = Some(GridState::new(Grid::new(self.doc, id, written)));
                Exit::Table
            }
            local_name!("table") if md && is_complex_table(self.doc, id) => {
                let html = html::html_subtree(self.doc, self.sel, &self.selected, self.options, id);
                let html = html.trim();
                // A blank line (in a `<pre>`) would end the HTML block:
                // such a table is written as paragraphs.
                if html.is_empty() || html.lines().any(|l| l.trim().is_empty()) {
                    return self.enter_inline_or_block(id, name);
                }
                self.w.request(Break::Paragraph);
                for line in html.lines() {
                    self.w.raw_line(line);
                }
                self.w.request(Break::Paragraph);
                self.skip = true;
                Exit::Nothing
            }
            local_name!("table") if !md && is_data_table(self.doc, id) => {
                self.w.request(Break::Paragraph);
                self.table = Some((0, 0, 0));
                Exit::Table
            }
            local_name!("tr") if self.table.is_some() => {
                self.w.request(Break::Line);
                if let Some(t) = self.table.as_mut() {
                    t.0 = 0;
                }
                if let Some(g) = self.grid.as_mut() {
                    g.row = g.grid.row_of(id);
                    g.col = 0;
                }
                if md {
                    self.w.marker("| ".into());
                }
                Exit::TableRow
            }
            local_name!("td") | local_name!("th") if self.table.is_some() => {
                if self.grid.is_some() {
                    return self.start_grid_cell(id);
                }
                self.start_cell();
                Exit::Cell
            }
            local_name!("caption") if self.grid.is_some() => {
                self.w.request(Break::Paragraph);
                Exit::Break(Break::Paragraph)
            }
            local_name!("caption") if self.table.is_some() => {
                self.w.request(Break::Line);
                Exit::Break(Break::Line)
            }
            _ => self.enter_inline_or_block(id, name),
        }
    }

    /// Enters a record ([`records`]): a card is a list item, a post is
    /// set apart from the one before by a rule.
    fn enter_record(&mut self, id: NodeId, name: &LocalName, record: Record) -> Exit {
        match record.kind {
            Kind::Item => {
                self.w.request(match record.first {
                    true => Break::Paragraph,
                    false => Break::Line,
                });
                self.lists.push(None);
                self.w.list_item("- ".into());
                Exit::RecordItem
            }
            Kind::Post => {
                if !record.first && !self.w.ends_in_rule() {
                    self.w.request(Break::Paragraph);
                    self.w.rule();
                }
                self.enter_inline_or_block(id, name)
            }
        }
    }

    /// What Markdown alone does on entering an element (issue 35), or
    /// `None` to go on as for text: formulas as TeX, gutters and "Copy"
    /// buttons left out, table sections not separating rows, definition
    /// terms in bold, `<sup>`/`<sub>` kept as HTML.
    fn enter_markdown_only(&mut self, id: NodeId, name: &LocalName) -> Option<Exit> {
        if code::is_gutter(self.doc, id) || code::is_copy_button(self.doc, id) {
            self.skip = true;
            return Some(Exit::Nothing);
        }
        if *name == local_name!("math") {
            let formula = math::formula(self.doc, id)?;
            self.skip = true;
            if formula.display && self.cell_depth == 0 {
                self.w.request(Break::Paragraph);
                self.w.raw_inline(&math::markdown(&formula));
                return Some(Exit::Break(Break::Paragraph));
            }
            self.w.raw_inline(&math::markdown(&formula));
            return Some(Exit::Nothing);
        }
        match *name {
            local_name!("thead") | local_name!("tbody") | local_name!("tfoot")
                if self.grid.is_some() =>
            {
                Some(Exit::Nothing)
            }
            // A row, list item, code block or quote without text or
            // image, which HTML leaves out too (an empty item would take
            // a number, an empty code block be an empty fence).
            local_name!("tr")
            | local_name!("li")
            | local_name!("pre")
            | local_name!("blockquote")
                if (self.grid.is_some() || *name != local_name!("tr"))
                    && self.doc.stats(id).chars == 0 =>
            {
                let image = self.options.images && image::holds_written(self.doc, id);
                self.skip = !image;
                (!image).then_some(Exit::Nothing)
            }
            // A rule inside code cannot be shown: left out.
            local_name!("hr") if self.doc.flags(id).contains(NodeFlags::IN_PRE) => {
                Some(Exit::Nothing)
            }
            // A line break inside code is one.
            local_name!("br") if self.doc.flags(id).contains(NodeFlags::IN_PRE) => {
                self.w.text("\n", true);
                Some(Exit::Nothing)
            }
            local_name!("dt") if self.cell_depth == 0 => {
                self.w.request(Break::Paragraph);
                self.w.open_inline("**".into(), "**".into());
                Some(Exit::CloseInline)
            }
            local_name!("dd") if self.cell_depth == 0 => {
                self.w.request(Break::Paragraph);
                Some(Exit::Break(Break::Paragraph))
            }
            local_name!("sup") | local_name!("sub")
                if !self.doc.flags(id).contains(NodeFlags::IN_PRE) =>
            {
                self.w.open_inline(format!("<{name}>"), format!("</{name}>"));
                Some(Exit::CloseInline)
            }
            _ => None,
        }
    }

    /// Enters a cell of a Markdown table: empty cells first for the
    /// columns before it that nothing filled (spanned from above, or
    /// left out), then its own separator.
    fn start_grid_cell(&mut self, id: NodeId) -> Exit {
        let Some(g) = self.grid.as_mut() else { return Exit::Nothing };
        let placed = g.row.and_then(|r| g.grid.rows.get(r)).and_then(|row| {
            row.cells.iter().find(|c| c.0 == id).map(|&(_, start, span)| (start, span))
        });
        let Some((start, span)) = placed else {
            // Beyond the last column a table is given: left out.
            self.skip = true;
            return Exit::Nothing;
        };
        let from = g.col;
        g.col = start + span;
        g.cells += 1;
        for c in from..start {
            if c > 0 {
                self.cell_boundary();
            }
        }
        if start > 0 {
            self.cell_boundary();
        }
        self.cell_depth += 1;
        self.w.in_cell = true;
        Exit::GridCell(span.saturating_sub(1))
    }

    /// The separator before a cell of a Markdown table row.
    fn cell_boundary(&mut self) {
        self.w.request(Break::Space);
        self.w.raw_inline("| ");
    }

    /// Ends a row of a Markdown table: empty cells to the table's width,
    /// the closing pipe, and under the first row the delimiter row.
    fn end_grid_row(&mut self) {
        let Some(g) = self.grid.as_mut() else { return };
        if g.cells == 0 {
            return;
        }
        let (from, columns, first) = (g.col, g.grid.columns.max(g.col).max(1), g.rows == 0);
        g.rows += 1;
        g.cells = 0;
        for c in from..columns {
            if c > 0 {
                self.cell_boundary();
            }
        }
        self.w.raw_inline_tight(" |");
        if first {
            let sep = "| --- ".repeat(columns) + "|";
            self.w.request(Break::Line);
            self.w.raw_line(&sep);
        }
        self.w.request(Break::Line);
    }

    fn enter_inline_or_block(&mut self, id: NodeId, name: &LocalName) -> Exit {
        if self.markdown && self.headings > 0 && self.doc.flags(id).contains(NodeFlags::BLOCK) {
            // A heading is one line in Markdown.
            self.w.request(Break::Space);
            return Exit::Break(Break::Space);
        }
        if self.doc.flags(id).contains(NodeFlags::BLOCK) {
            self.w.request(Break::Paragraph);
            return Exit::Break(Break::Paragraph);
        }
        if !self.markdown {
            return Exit::Nothing;
        }
        let in_pre = self.doc.flags(id).contains(NodeFlags::IN_PRE);
        let (open, close) = match *name {
            local_name!("strong") | local_name!("b") => ("**", "**"),
            local_name!("em") | local_name!("i") => ("*", "*"),
            local_name!("code") | local_name!("kbd") | local_name!("samp") | local_name!("tt")
                if !in_pre =>
            {
                let content = self.doc.text_content(id);
                let ticks = "`".repeat(writer::longest_backtick_run(&content) + 1);
                let pad = if content.starts_with('`') || content.ends_with('`') { " " } else { "" };
                self.w.open_inline(format!("{ticks}{pad}"), format!("{pad}{ticks}"));
                self.w.verbatim(true);
                return Exit::CloseCode;
            }
            // A code block's text is literal: no link syntax in it.
            // A link around blocks (`<a><h4>…</h4></a>`) cannot be one
            // in Markdown: its text is written without it.
            local_name!("a") if self.options.links && !in_pre && !holds_block(self.doc, id) => {
                if let Some(href) = self.doc.attr(id, "href").map(str::trim) {
                    if !href.is_empty() && is_safe_url(href) {
                        let href = absolute_url(self.base(), href);
                        self.w.open_inline("[".into(), format!("]({})", escape_url(&href)));
                        return Exit::CloseInline;
                    }
                }
                return Exit::Nothing;
            }
            local_name!("img") if self.options.images => {
                self.image(id);
                return Exit::Nothing;
            }
            _ => return Exit::Nothing,
        };
        if in_pre || self.w.inline_open(open) {
            return Exit::Nothing;
        }
        self.w.open_inline(open.into(), close.into());
        Exit::CloseInline
    }

    /// Inside a data-table cell everything is one line.
    fn enter_in_cell(&mut self, id: NodeId, name: &LocalName) -> Exit {
        match *name {
            local_name!("br") => {
                self.w.request(Break::Space);
                Exit::Nothing
            }
            local_name!("td") | local_name!("th") | local_name!("tr") | local_name!("table") => {
                self.w.request(Break::Space);
                Exit::Break(Break::Space)
            }
            _ if self.doc.flags(id).contains(NodeFlags::BLOCK) => {
                self.w.request(Break::Space);
                Exit::Break(Break::Space)
            }
            _ if self.markdown => self.enter_inline_or_block(id, name),
            _ => Exit::Nothing,
        }
    }

    fn start_cell(&mut self) {
        let first = self.table.is_some_and(|t| t.0 == 0);
        if !first {
            self.w.request(Break::Space);
            self.w.raw_inline(if self.markdown { "| " } else { "\t" });
        }
        if let Some(t) = self.table.as_mut() {
            t.0 += 1;
        }
        self.cell_depth += 1;
        self.w.in_cell = true;
    }

    /// An image: `![alt](src)`, the source a lazy-loading attribute's
    /// when the page has one ([`image::source`]); without a source, as
    /// HTML keeps it, `![alt]()` when it has alt text, else nothing.
    fn image(&mut self, id: NodeId) {
        let alt = image::markdown_alt(self.doc.attr(id, "alt").unwrap_or(""));
        let src = match image::source(self.doc, id) {
            Some(src) => escape_url(&absolute_url(self.base(), src)),
            None if alt.is_empty() => return,
            None => String::new(),
        };
        self.w.raw_inline(&format!("![{alt}]({src})"));
    }

    fn exit(&mut self, exit: Exit) {
        match exit {
            Exit::Nothing => {}
            Exit::Break(b) => self.w.request(b),
            Exit::PopPrefix(b) => {
                self.w.pop_prefix();
                self.w.request(b);
            }
            Exit::RecordItem => {
                self.w.pop_prefix();
                self.lists.pop();
                self.w.request(Break::Line);
            }
            Exit::CloseInline => self.w.close_inline(),
            Exit::CloseCode => {
                self.w.verbatim(false);
                self.w.close_inline();
            }
            Exit::Heading => {
                self.headings = self.headings.saturating_sub(1);
                self.w.end_marker_line();
                self.w.request(Break::Paragraph);
            }
            Exit::Pre => {
                if self.markdown {
                    self.w.fence_close();
                }
                self.w.request(Break::Paragraph);
            }
            Exit::List => {
                self.lists.pop();
                self.w.request(if self.lists.is_empty() { Break::Paragraph } else { Break::Line });
            }
            Exit::Cell => {
                self.cell_depth = self.cell_depth.saturating_sub(1);
                self.w.in_cell = self.cell_depth > 0;
            }
            Exit::GridCell(spanned) => {
                self.cell_depth = self.cell_depth.saturating_sub(1);
                self.w.in_cell = self.cell_depth > 0;
                for _ in 0..spanned {
                    self.cell_boundary();
                }
            }
            Exit::TableRow if self.grid.is_some() => self.end_grid_row(),
            Exit::TableRow => {
                let Some((cells, rows, cols)) = self.table else { return };
                if cells == 0 {
                    return;
                }
                if self.markdown {
                    self.w.raw_inline_tight(" |");
                    if rows == 0 {
                        let sep = "| --- ".repeat(cells) + "|";
                        self.w.request(Break::Line);
                        self.w.raw_line(&sep);
                    }
                }
                self.table = Some((0, rows + 1, if rows == 0 { cells } else { cols }));
                self.w.request(Break::Line);
            }
            Exit::Table => {
                self.table = None;
                self.grid = None;
                self.w.request(Break::Paragraph);
            }
        }
    }
}

/// A data table (rendered as rows and cells) rather than a layout table
/// (rendered as paragraphs): no nested tables or block content in cells,
/// and at least two rows with at least two cells.
pub(crate) fn is_data_table(doc: &Document, table: NodeId) -> bool {
    is_grid(doc, table, false)
}

/// The longest cell text a paragraph in a cell of a Markdown table may
/// hold: data cells are short; a long paragraph is layout.
const MAX_PARAGRAPH_CELL: u32 = 300;

/// A table written as a GFM table in Markdown and kept as a table in
/// HTML (issue 35): a data table ([`is_data_table`]), also when a cell
/// wraps its short text in one `<p>` or `<div>` (many CMS tables do).
/// Plain text keeps [`is_data_table`], so its output is unchanged.
pub(crate) fn is_markdown_table(doc: &Document, table: NodeId) -> bool {
    is_grid(doc, table, true)
}

/// A data table too complex for GFM (issue 35): it has header cells
/// (`<th>` or `<thead>`) and rows of several cells, as a data table, but
/// a cell holds lists, code, headings, several paragraphs, or data
/// tables of its own ([`is_markdown_table`]; a table of tables shown side
/// by side under a common header). Markdown writes it as HTML, and HTML
/// keeps it. Any other nested table makes a layout table, not a complex
/// one.
pub(crate) fn is_complex_table(doc: &Document, table: NodeId) -> bool {
    if is_markdown_table(doc, table) {
        return false;
    }
    let (mut header, mut rows, mut wide_rows) = (false, 0, 0);
    let end = doc.subtree_end(table);
    let mut id = NodeId(table.0 + 1);
    while id < end {
        match doc.name(id) {
            Some(&local_name!("table")) if is_markdown_table(doc, id) => {
                // Its rows and header cells are its own.
                id = doc.subtree_end(id);
                continue;
            }
            Some(&local_name!("table")) => return false,
            Some(&local_name!("th") | &local_name!("thead")) => header = true,
            Some(&local_name!("tr")) => {
                rows += 1;
                if row_cells(doc, id) >= 2 {
                    wide_rows += 1;
                }
            }
            _ => {}
        }
        id = NodeId(id.0 + 1);
    }
    header && rows >= 2 && wide_rows * 2 >= rows
}

/// The cells (`<td>`, `<th>`) of a table row.
fn row_cells(doc: &Document, tr: NodeId) -> usize {
    doc.children(tr)
        .filter(|&c| doc.is(c, local_name!("td")) || doc.is(c, local_name!("th")))
        .count()
}

/// [`is_data_table`], with one short paragraph a cell allowed or not.
fn is_grid(doc: &Document, table: NodeId, cell_paragraphs: bool) -> bool {
    let mut rows = 0;
    let mut wide_rows = 0;
    // The last cell that held a paragraph.
    let mut paragraph_cell = None;
    for id in doc.subtree(table).skip(1) {
        let Some(name) = doc.name(id) else { continue };
        match *name {
            local_name!("p") | local_name!("div") if cell_paragraphs => {
                let cell = doc
                    .ancestors(id)
                    .take_while(|&a| a != table)
                    .find(|&a| doc.is(a, local_name!("td")) || doc.is(a, local_name!("th")));
                match cell {
                    Some(c)
                        if paragraph_cell != Some(c)
                            && doc.stats(c).chars <= MAX_PARAGRAPH_CELL =>
                    {
                        paragraph_cell = Some(c);
                    }
                    _ => return false,
                }
            }
            local_name!("table")
            | local_name!("p")
            | local_name!("div")
            | local_name!("ul")
            | local_name!("ol")
            | local_name!("pre")
            | local_name!("blockquote")
            | local_name!("h1")
            | local_name!("h2")
            | local_name!("h3") => return false,
            local_name!("tr") => {
                rows += 1;
                if row_cells(doc, id) >= 2 {
                    wide_rows += 1;
                }
            }
            _ => {}
        }
    }
    rows >= 2 && wide_rows * 2 >= rows
}

/// Is this link or image target safe to keep: a relative URL or one of
/// the `http`, `https`, `mailto`, `ftp`, `tel` schemes? Browsers ignore
/// whitespace and control characters inside a scheme and its case, so
/// `" JavaScript:"` and `"java\tscript:"` are unsafe too.
pub(crate) fn is_safe_url(url: &str) -> bool {
    let cleaned: String = url
        .chars()
        .filter(|c| !c.is_whitespace() && !c.is_control())
        .collect::<String>()
        .to_ascii_lowercase();
    match cleaned.find([':', '/', '?', '#']) {
        Some(i) if cleaned.as_bytes()[i] == b':' => {
            matches!(&cleaned[..i], "http" | "https" | "mailto" | "ftp" | "tel")
        }
        _ => true,
    }
}

/// `url` resolved against the document base URL when there is one
/// (WHATWG URL parsing, as a browser follows the link), else as written.
pub(crate) fn absolute_url(base: Option<&url::Url>, url: &str) -> String {
    match base.and_then(|b| b.join(url).ok()) {
        Some(u) if is_safe_url(u.as_str()) => u.into(),
        _ => url.to_string(),
    }
}

/// A URL as a Markdown link destination: tabs and line breaks left out
/// (as a browser's URL parser leaves them out), spaces and parentheses
/// percent-encoded.
fn escape_url(url: &str) -> String {
    let mut out = String::with_capacity(url.len());
    for c in url.chars() {
        match c {
            '\t' | '\n' | '\r' => {}
            ' ' => out.push_str("%20"),
            '(' => out.push_str("%28"),
            ')' => out.push_str("%29"),
            c => out.push(c),
        }
    }
    out
}

/// Does the subtree of `id` hold a block element (a link around a
/// heading or a paragraph)?
fn holds_block(doc: &Document, id: NodeId) -> bool {
    doc.subtree(id).skip(1).any(|n| doc.flags(n).contains(NodeFlags::BLOCK))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::document::ParseOptions;

    fn md(html: &str) -> String {
        let doc = Document::parse(html.as_bytes(), &ParseOptions::default()).expect("parse");
        markdown(&doc, &Selection::all(&doc), RenderOptions::default().links(true))
    }

    fn txt(html: &str) -> String {
        let doc = Document::parse(html.as_bytes(), &ParseOptions::default()).expect("parse");
        text(&doc, &Selection::all(&doc))
    }

    #[test]
    fn a_paragraph_of_zero_width_characters_is_no_line() {
        let html = "<p>One.</p><p>\u{200d}</p><p>\u{200b} \u{feff}</p><p>Two \u{1f468}\u{200d}\u{1f467}.</p>";
        assert_eq!(txt(html), "One.\n\nTwo \u{1f468}\u{200d}\u{1f467}.");
        assert_eq!(md(html), "One.\n\nTwo \u{1f468}\u{200d}\u{1f467}.");
        assert_eq!(txt("<p>a<span>\u{200d}</span>b</p>"), "ab");
    }

    #[test]
    fn an_empty_heading_first_in_a_list_item_leaves_its_bullet() {
        let out = md("<ul><li><h2><img src=x.png></h2><ul><li>a</li></ul><p>b</p></li></ul>");
        assert_eq!(out, "- - a\n\n  b");
    }

    #[test]
    fn a_threads_posts_and_a_grids_cards_keep_their_bounds() {
        let post = |n: &str| {
            format!(
                "<div class=post><span class=author>{n}</span><p>{}</p><p>Thanks.</p></div>",
                "word ".repeat(45)
            )
        };
        let out = md(&format!("<main>{}{}</main>", post("ann"), post("bob")));
        assert_eq!(out.matches("\n\n---\n\n").count(), 1, "{out}");
        let card = |n: &str| format!("<div class=card><a href=/{n}>{n}</a><p>£5</p></div>");
        let out = md(&format!("<div class=grid>{}{}{}</div>", card("a"), card("b"), card("c")));
        assert_eq!(out, "- [a](/a)\n\n  £5\n\n- [b](/b)\n\n  £5\n\n- [c](/c)\n\n  £5");
    }

    #[test]
    fn text_keeps_paragraphs_and_collapses_space() {
        assert_eq!(
            txt("<h1>Title</h1><p>a\n  b <i>c</i></p><p>d<br>e</p>"),
            "Title\n\na b c\n\nd\ne"
        );
    }

    #[test]
    fn text_separates_elements_glued_across_a_case_change() {
        // Key–value cells laid out by CSS, with no white space between.
        let row = "<div><span><span>Publisher</span></span><span>Houghton Mifflin</span></div>";
        assert_eq!(txt(row), "Publisher Houghton Mifflin");
        assert_eq!(txt("<p><b>Rank</b><i>2</i><i>Master</i></p>"), "Rank2 Master");
        assert_eq!(md("<p><span>Details</span><span>Fit</span></p>"), "Details Fit");
        // Markup inside one word stays joined: a drop cap, a word in
        // capitals, a unit, a footnote mark, one text node.
        assert_eq!(txt("<p><span class=cap>T</span>he cat</p>"), "The cat");
        assert_eq!(txt("<p><b>W</b>ORLD</p>"), "WORLD");
        assert_eq!(txt("<p>12 km<sup>2</sup> and word<sup>1</sup></p>"), "12 km2 and word1");
        assert_eq!(txt("<p>iPhone and McDonald</p>"), "iPhone and McDonald");
    }

    #[test]
    fn text_keeps_pre_whitespace() {
        assert_eq!(txt("<p>x</p><pre>a  b\n  c</pre>"), "x\n\na  b\n  c");
    }

    #[test]
    fn markdown_headings_lists_quotes() {
        let out = md("<h2>Head</h2><ul><li>one</li><li>two<ol><li>x</li><li>y</li></ol></li></ul>\
                      <blockquote><p>q1</p><p>q2</p></blockquote>");
        assert_eq!(out, "## Head\n\n- one\n- two\n  1. x\n  2. y\n\n> q1\n>\n> q2");
    }

    #[test]
    fn markdown_inline_and_links() {
        let out = md("<p>a <b>bold</b> and <em>it</em> <code>x()</code> <a href='/u'>link</a></p>");
        assert_eq!(out, "a **bold** and *it* `x()` [link](/u)");
    }

    #[test]
    fn emphasis_glued_to_its_neighbours_reads_back() {
        // Runs of one kind written back to back are one: as two they would
        // meet as `****`, which CommonMark reads as neither closing nor
        // opening.
        assert_eq!(md("<p><b>Local Moving</b><b>:</b> Whether</p>"), "**Local Moving:** Whether");
        assert_eq!(md("<p><em>one</em><em>two</em></p>"), "*onetwo*");
        assert_eq!(md("<p><b><em>a</em></b><b>b</b></p>"), "***a*b**");
        assert_eq!(
            md("<p><b><em>On the other hand</em></b><em>.</em> there</p>"),
            "***On the other hand**.* there"
        );
        assert_eq!(md("<p><b><em>a</em></b><b><em>b</em></b></p>"), "***ab***");
        assert_eq!(
            md("<p><b>Thermolite</b><b><sup>®</sup></b><b>):</b> warm</p>"),
            "**Thermolite<sup>®</sup>):** warm"
        );
        // Punctuation that ends an emphasis glued to a word goes after it,
        // where CommonMark can close the emphasis.
        assert_eq!(md("<p><b>Weight:</b>5 kg</p>"), "**Weight**:5 kg");
        assert_eq!(md("<p>Score <b>7.0/</b>10</p>"), "Score **7.0**/10");
        assert_eq!(md("<p>you will <em>not (</em>i.e. never)</p>"), "you will *not* (i.e. never)");
        // A link's text keeps its punctuation: `](` lets it close.
        assert_eq!(md("<p>See <a href='/u'>U.S.</a>x</p>"), "See [U.S.](/u)x");
        assert_eq!(md("<p><b>a:</b> b</p>"), "**a:** b");
        // Emphasis of punctuation alone is left out: glued to a word,
        // CommonMark would not open it.
        assert_eq!(md("<p>Cool Down<b>:</b> Ensure</p>"), "Cool Down: Ensure");
        assert_eq!(md("<p>Combo<b>®</b> j7, <em>“</em>Then</p>"), "Combo® j7, “Then");
        // Punctuation that starts an emphasis glued to a word goes before
        // it, where CommonMark can open the emphasis.
        assert_eq!(md("<p>Features<em>(15% weighting)</em></p>"), "Features(*15% weighting)*");
        // Separated by a space, or of two kinds, they stay two.
        assert_eq!(md("<p><b>x</b> <b>y</b></p>"), "**x** **y**");
        assert_eq!(md("<p><a href='/u'>x</a><a href='/v'>y</a></p>"), "[x](/u)[y](/v)");
    }

    #[test]
    fn markdown_code_block_and_table() {
        let out = md("<pre><code>fn main() {\n    x\n}</code></pre>\
                      <table><tr><th>A</th><th>B</th></tr><tr><td>1</td><td>2</td></tr></table>");
        assert_eq!(out, "```\nfn main() {\n    x\n}\n```\n\n| A | B |\n| --- | --- |\n| 1 | 2 |");
    }

    #[test]
    fn markdown_escapes_text_that_reads_as_syntax() {
        assert_eq!(
            md("<p>* not a list</p><p># not a heading</p>"),
            "\\* not a list\n\n\\# not a heading"
        );
        assert_eq!(md("<p><code>a`b</code> <b><b>x</b></b></p>"), "``a`b`` **x**");
        assert_eq!(md("<pre>```\ncode\n```</pre>"), "````\n```\ncode\n```\n````");
        assert_eq!(md("<h2>One<br>Two</h2>"), "## One Two");
        assert_eq!(md("<ol start=4294967295><li>a<li>b</ol>"), "4294967295. a\n4294967295. b");
    }

    #[test]
    fn markdown_escapes_only_what_would_start_a_block() {
        // What starts a block only before white space, escaped only there.
        assert_eq!(
            md("<p>1. a</p><p>1.5 b</p><p>01.Can</p><p>#tag</p><p>-5 %</p><p>- c</p><p>--</p>"),
            "1\\. a\n\n1.5 b\n\n01.Can\n\n#tag\n\n-5 %\n\n\\- c\n\n\\--"
        );
        // Nor after inline markup opening the line or a heading's marker.
        assert_eq!(md("<p><b>1. High</b></p><h2>2. Plant</h2>"), "**1. High**\n\n## 2. Plant");
        // A list item's line still reads block syntax: `- 1. x` nests a list.
        assert_eq!(md("<ul><li>1. x<li><em>+</em></ul>"), "- 1\\. x\n- \\+");
    }

    #[test]
    fn unsafe_links_are_dropped() {
        assert!(is_safe_url("/a") && is_safe_url("https://x") && !is_safe_url("a:b/c?d"));
        assert!(!is_safe_url(" JavaScript:alert(1)") && !is_safe_url("java\tscript:x"));
        assert!(!is_safe_url("data:text/html,x") && is_safe_url("page.html#a:b"));
        assert_eq!(md("<p><a href='JavaScript:alert(1)'>x</a></p>"), "x");
    }

    #[test]
    fn whitespace_between_spans_in_pre_is_kept() {
        let html =
            "<pre><code><span>a = 1</span>\n<span>b = 2</span>\n  <span>c</span></code></pre>";
        assert_eq!(md(html), "```\na = 1\nb = 2\n  c\n```");
        assert_eq!(txt(html), "a = 1\nb = 2\n  c");
    }

    /// See: issue 11, "Relative links and image URLs are never made
    /// absolute".
    #[test]
    fn issue_11_relative_urls_are_resolved_against_the_base() {
        let page = "<head><base href=/docs/></head><p><a href=a.html>a</a> \
                    <img src='i/p.png' alt=p> <a href='https://x.org/'>x</a></p>";
        let opts = ParseOptions::default().url(Some("https://example.org/n/page".into()));
        let doc = Document::parse(page.as_bytes(), &opts).expect("parse");
        let all = Selection::all(&doc);
        let o = RenderOptions::default().links(true).images(true);
        assert_eq!(
            markdown(&doc, &all, o),
            "[a](https://example.org/docs/a.html) ![p](https://example.org/docs/i/p.png) [x](https://x.org/)"
        );
        let out = html(&doc, &all, o);
        assert!(out.contains("href=\"https://example.org/docs/a.html\""), "{out}");
        assert!(out.contains("src=\"https://example.org/docs/i/p.png\""), "{out}");
        // Without a URL, an absolute <base> is the base; without either,
        // links stay as written.
        let doc =
            Document::parse(b"<base href='https://b.org/'><a href=a>a</a>", &Default::default())
                .expect("parse");
        assert_eq!(markdown(&doc, &Selection::all(&doc), o), "[a](https://b.org/a)");
        assert_eq!(md("<a href=a>a</a>"), "[a](a)");
    }

    /// A page that would retitle the terminal (`ESC ] 0 ; … BEL`), clear
    /// it (`ESC [ 2 J`, C1 CSI) or reverse text (RLO), by reference and
    /// by raw bytes.
    /// See: issue 13, defect 8.
    #[test]
    fn issue_13_control_characters_are_left_out() {
        let page = "<meta charset=utf-8><p>One&#27;]0;pwned&#7; two \u{1b}[2J three \u{9b}31m \
                    four\u{7f}\u{202e} five&#x1b;</p><pre>a&#13;b\u{1b}\r\nc&#12;d</pre>\
                    <p><a href='/x&#27;y'>link&#7;</a> <img src=/i.png alt='alt&#27;&#7;'></p>";
        let doc = Document::parse(page.as_bytes(), &ParseOptions::default()).expect("parse");
        let all = Selection::all(&doc);
        let options = RenderOptions::default().links(true).images(true);
        let text = text(&doc, &all);
        assert_eq!(text, "One]0;pwned two [2J three 31m four five\n\na\nb\nc\nd\n\nlink");
        assert_eq!(
            markdown(&doc, &all, options),
            "One\\]0;pwned two \\[2J three 31m four five\n\n```\na\nb\nc\nd\n```\n\n\
             [link](/xy) ![alt](/i.png)"
        );
        let html = html(&doc, &all, options);
        assert!(html.contains("<a href=\"/xy\">link</a> <img src=\"/i.png\" alt=\"alt\">"));
        for out in [text, html] {
            assert!(!out.chars().any(is_output_control), "{out:?}");
        }
    }

    #[test]
    fn layout_tables_become_paragraphs() {
        let out = txt("<table><tr><td><p>para one</p></td><td><p>para two</p></td></tr></table>");
        assert_eq!(out, "para one\n\npara two");
    }
}
