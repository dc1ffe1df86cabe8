//! The flow layout: one walk of the document in pre-order that opens a
//! frame for each element, flows inline content into lines inside its
//! block, stacks blocks with collapsing margins, places columns side by
//! side, and closes each element's box when the walk leaves its subtree.

use markup5ever::local_name;

use super::grid::{colspan, grid_fraction, is_main_column, is_sidebar};
use super::style::{
    color, is_monospace, not_rendered, tag_font_em, tag_margins, Display, FontSize, Length, Style,
};
use super::{clamp, HeuristicConfig};
use crate::document::{tags, Document, ElementRef, NodeId, NodeKind};
use crate::layout::{Layout, LayoutBox, LayoutOrigin, Rect, Rgba};

/// The narrowest width text is wrapped in, in px \[I\].
pub(super) const MIN_LINE_WIDTH: f32 = 60.0;

/// The pending line boxes of a block.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Lines {
    /// Horizontal advance of the inline content so far, in px (over all
    /// its lines, as if on one long line).
    advance: f32,
    /// Height of the tallest line so far.
    line: f32,
}

/// Columns placed side by side in a block.
#[derive(Debug, Clone, Copy)]
pub(super) struct Row {
    used: f32,
    top: f32,
    bottom: f32,
}

/// An open element (or the document root) during the walk.
#[derive(Debug, Clone)]
pub(super) struct Frame {
    id: NodeId,
    end: NodeId,
    block: bool,
    /// Index in the stack of the block whose lines this one's inline
    /// content falls on (itself for a block).
    host: usize,
    rect: Rect,
    content_left: f32,
    content_width: f32,
    font: f32,
    background: Rgba,
    visible: bool,
    fixed_height: Option<f32>,
    column: bool,
    margin_after: f32,
    // Flow state (blocks).
    cursor: f32,
    margin: f32,
    lines: Lines,
    row: Option<Row>,
    flushes: u32,
    /// Children share the width: table cells (by colspan) or flex items.
    shares: Option<f32>,
    sidebar_child: bool,
    // Where an inline element started in its host.
    start: Lines,
    start_cursor: f32,
    start_flushes: u32,
}

impl Frame {
    /// A frame for `id` in flow `host`: a block at `rect` when `block`,
    /// with nothing laid out in it yet.
    pub(super) fn open(
        doc: &Document,
        id: NodeId,
        block: bool,
        host: usize,
        rect: Rect,
        font: f32,
    ) -> Frame {
        Frame {
            id,
            end: doc.subtree_end(id),
            block,
            host,
            rect,
            content_left: rect.left,
            content_width: rect.width.max(1.0),
            font,
            background: Rgba::TRANSPARENT,
            visible: true,
            fixed_height: None,
            column: false,
            margin_after: 0.0,
            cursor: rect.top,
            margin: 0.0,
            lines: Lines::default(),
            row: None,
            flushes: 0,
            shares: None,
            sidebar_child: false,
            start: Lines::default(),
            start_cursor: rect.top,
            start_flushes: 0,
        }
    }
}

/// The walk: one pre-order pass with a stack of open elements.
pub(super) struct Flow<'a> {
    doc: &'a Document,
    config: HeuristicConfig,
    layout: Layout,
    stack: Vec<Frame>,
}

impl<'a> Flow<'a> {
    pub(super) fn new(doc: &'a Document, config: HeuristicConfig) -> Flow<'a> {
        Flow {
            doc,
            config,
            layout: Layout::new(doc.len(), LayoutOrigin::Heuristic, config.viewport_width),
            stack: Vec::new(),
        }
    }

    pub(super) fn run(mut self) -> Layout {
        let doc = self.doc;
        let c = self.config;
        let page = Rect { left: 0.0, top: 0.0, width: c.viewport_width, height: 0.0 };
        let root = Frame::open(doc, doc.root(), true, 0, page, c.base_font_size);
        self.stack.push(root);
        let mut i = 1usize;
        while i < doc.len() {
            let id = NodeId(i as u32);
            while self.stack.len() > 1 && self.stack.last().is_some_and(|f| f.end <= id) {
                self.close();
            }
            i += 1;
            match doc.kind(id) {
                NodeKind::Text(_) => self.text(id),
                NodeKind::Element(e) => {
                    if let Some(skip_to) = self.element(id, e) {
                        i = skip_to.index().max(i);
                    }
                }
                _ => {}
            }
        }
        while self.stack.len() > 1 {
            self.close();
        }
        self.layout
    }

    /// Inline text: advances its host's lines.
    pub(super) fn text(&mut self, id: NodeId) {
        let stats = self.doc.stats(id);
        // Collapsed length: the visible characters plus one space a word.
        let chars = stats.chars + stats.words;
        let Some(top) = self.stack.last() else { return };
        if stats.chars == 0 {
            return;
        }
        let (host, font) = (top.host, top.font);
        let advance = chars as f32 * self.config.char_width_em * font;
        self.advance(host, advance, font * self.config.line_height);
    }

    pub(super) fn advance(&mut self, host: usize, advance: f32, line: f32) {
        self.close_row(host);
        if let Some(h) = self.stack.get_mut(host) {
            if h.lines.advance == 0.0 {
                h.cursor += h.margin;
                h.margin = 0.0;
            }
            h.lines.advance += advance;
            h.lines.line = h.lines.line.max(line);
        }
    }

    /// Turns a block's pending lines into height.
    pub(super) fn flush(&mut self, host: usize) {
        let lh = self.config.line_height;
        if let Some(h) = self.stack.get_mut(host) {
            if h.lines.advance > 0.0 {
                let lines = (h.lines.advance / h.content_width.max(1.0)).ceil().max(1.0);
                h.cursor += lines * h.lines.line.max(h.font * lh);
                h.lines = Lines::default();
                h.flushes += 1;
            }
        }
    }

    pub(super) fn close_row(&mut self, host: usize) {
        if let Some(h) = self.stack.get_mut(host) {
            if let Some(row) = h.row.take() {
                h.cursor = h.cursor.max(row.bottom);
                h.margin = 0.0;
            }
        }
    }

    /// Opens an element; returns where to resume when its subtree is
    /// skipped (not rendered).
    pub(super) fn element(&mut self, id: NodeId, e: ElementRef<'_>) -> Option<NodeId> {
        let doc = self.doc;
        let c = self.config;
        let parent_index = self.stack.len() - 1;
        let parent = self.stack.last()?;
        let style = e.attr("style").map(Style::parse).unwrap_or_default();
        if not_rendered(e) || style.display == Some(Display::None) {
            let end = doc.subtree_end(id);
            let at =
                Rect { left: parent.content_left, top: parent.cursor, width: 0.0, height: 0.0 };
            for n in doc.subtree(id) {
                if doc.element(n).is_some() {
                    let b = LayoutBox {
                        rect: at,
                        font_size: parent.font,
                        background: Rgba::TRANSPARENT,
                        visible: false,
                    };
                    self.layout.set(n, b);
                }
            }
            return Some(end);
        }
        // Font size: the tag's, then the style's.
        let mut font = parent.font * tag_font_em(&e.name);
        if is_monospace(&e.name) {
            font = font * 13.0 / 16.0;
        }
        font = match style.font_size {
            Some(FontSize::Absolute(px)) => px,
            Some(FontSize::Relative(l)) => l.px(parent.font, parent.font),
            None => font,
        };
        let font = clamp(font, 1.0, 1000.0, parent.font);
        let background = style
            .background
            .or_else(|| e.attr("bgcolor").and_then(color))
            .unwrap_or(Rgba::TRANSPARENT);
        let visible = parent.visible && !style.hidden;
        let block = match style.display {
            Some(Display::Inline) => false,
            Some(Display::Block | Display::Flex) => true,
            _ => tags::is_block(&e.name),
        };
        let host = if parent.block { parent_index } else { parent.host };
        let width_attr = e.attr("width").and_then(Length::parse_attr);
        let height_attr = e.attr("height").and_then(Length::parse_attr);
        if !block {
            return self.inline(id, e, host, font, background, visible, style);
        }
        self.flush(host);
        let h = self.stack.get(host)?.clone();
        let (margin_em, margin_left, margin_right, padding) = tag_margins(&e.name);
        let margin = margin_em * font;
        let avail = (h.content_width - margin_left - margin_right).max(0.0);
        // Column share: cells, flex items, grid classes, sidebars.
        let class = e.attr("class").unwrap_or("");
        let share = if matches!(e.name, local_name!("td") | local_name!("th")) {
            h.shares.map(|total| colspan(e) / total.max(1.0))
        } else {
            h.shares
                .map(|n| 1.0 / n.max(1.0))
                .or_else(|| grid_fraction(class, c.viewport_width))
                .or_else(|| is_sidebar(e).then_some(c.sidebar_fraction))
                .or_else(|| {
                    (h.sidebar_child && is_main_column(e)).then_some(1.0 - c.sidebar_fraction)
                })
        };
        let explicit = style.width.or(width_attr).map(|l| l.px(h.content_width, font));
        let mut width = explicit.or(share.map(|f| f * h.content_width)).unwrap_or(avail);
        if let Some(max) = style.max_width.map(|l| l.px(h.content_width, font)) {
            width = width.min(max);
        }
        let width = width.clamp(0.0, h.content_width.max(0.0));
        let column = share.is_some() || (style.float && explicit.is_some());
        let (left, top) = if column && width < h.content_width - 0.5 || share.is_some() {
            self.place_column(host, width)
        } else {
            self.close_row(host);
            let hf = self.stack.get_mut(host)?;
            // A first child's top margin collapses with its parent's (CSS 2
            // §8.3.1), so a wrapper and its only block share their top.
            let first = host > 0 && hf.cursor <= hf.rect.top && hf.lines.advance == 0.0;
            hf.cursor += if first { 0.0 } else { hf.margin.max(margin) };
            hf.margin = 0.0;
            (hf.content_left + margin_left, hf.cursor)
        };
        let fixed_height = style.height.or(height_attr).map(|l| l.px(0.0, font));
        // Children that share this block's width.
        let shares = if e.name == local_name!("tr") {
            Some(doc.children(id).filter_map(|k| doc.element(k)).map(colspan).sum::<f32>())
        } else if style.display == Some(Display::Flex) && !style.column_flow {
            Some(doc.children(id).filter(|&k| doc.element(k).is_some()).count() as f32)
        } else {
            None
        };
        let sidebar_child = doc.children(id).filter_map(|k| doc.element(k)).any(is_sidebar);
        let index = self.stack.len();
        let rect = Rect { left, top, width, height: 0.0 };
        self.stack.push(Frame {
            content_left: left + padding,
            // Text wraps in at least MIN_LINE_WIDTH, however narrow the
            // box: deep list indents and nested columns would otherwise
            // wrap a word per line and make pages of runaway height.
            content_width: (width - padding).max(MIN_LINE_WIDTH),
            background,
            visible,
            fixed_height,
            column,
            margin_after: margin,
            shares,
            sidebar_child,
            ..Frame::open(doc, id, true, index, rect, font)
        });
        None
    }

    /// Places a column of `width` in `host`'s row: beside the previous
    /// column when it fits, else in a new row below.
    pub(super) fn place_column(&mut self, host: usize, width: f32) -> (f32, f32) {
        let Some(h) = self.stack.get_mut(host) else { return (0.0, 0.0) };
        let fits = h.row.is_some_and(|r| r.used + width <= h.content_width + 0.5);
        if !fits {
            if let Some(row) = h.row.take() {
                h.cursor = h.cursor.max(row.bottom);
            }
            h.cursor += h.margin;
            h.margin = 0.0;
            h.row = Some(Row { used: 0.0, top: h.cursor, bottom: h.cursor });
        }
        match h.row.as_mut() {
            Some(row) => {
                let left = h.content_left + row.used;
                row.used += width;
                (left, row.top)
            }
            None => (h.content_left, h.cursor),
        }
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn inline(
        &mut self,
        id: NodeId,
        e: ElementRef<'_>,
        host: usize,
        font: f32,
        background: Rgba,
        visible: bool,
        style: Style,
    ) -> Option<NodeId> {
        let doc = self.doc;
        let h = self.stack.get(host)?;
        let reference = h.content_width;
        if e.name == local_name!("br") {
            let lh = font * self.config.line_height;
            let w = h.content_width.max(1.0);
            let advance = h.lines.advance;
            let to_end = if advance == 0.0 { w } else { (advance / w).ceil() * w - advance };
            self.advance(host, to_end.max(0.01), lh);
        }
        // A replaced element with a declared size is one glyph of that size.
        let size = |s: Option<Length>, attr: &str| {
            s.or_else(|| e.attr(attr).and_then(Length::parse_attr)).map(|l| l.px(reference, font))
        };
        let w = size(style.width, "width");
        let hgt = size(style.height, "height");
        if matches!(e.name, local_name!("img") | local_name!("video") | local_name!("input")) {
            if let (Some(w), Some(hgt)) = (w, hgt) {
                self.advance(host, w.min(reference), hgt);
            }
        }
        let h = self.stack.get(host)?;
        let frame = Frame {
            content_left: h.content_left,
            content_width: h.content_width,
            background,
            visible,
            start: h.lines,
            start_cursor: h.cursor,
            start_flushes: h.flushes,
            ..Frame::open(doc, id, false, host, Rect::default(), font)
        };
        self.stack.push(frame);
        None
    }

    /// Closes the innermost open element: sets its box and advances its
    /// host's flow.
    pub(super) fn close(&mut self) {
        let index = self.stack.len() - 1;
        let lh = self.config.line_height;
        if self.stack.get(index).is_some_and(|f| f.block) {
            self.flush(index);
            self.close_row(index);
        }
        let Some(f) = self.stack.pop() else { return };
        let rect = if f.block {
            let content = (f.cursor - f.rect.top).max(0.0);
            let height = f.fixed_height.unwrap_or(content);
            Rect { height, ..f.rect }
        } else {
            self.inline_rect(&f, lh)
        };
        if self.doc.element(f.id).is_some() {
            let b =
                LayoutBox { rect, font_size: f.font, background: f.background, visible: f.visible };
            self.layout.set(f.id, b);
        }
        if f.block {
            // The flow this block sits in: the nearest block ancestor.
            let host = self.stack.last().map_or(0, |p| if p.block { index - 1 } else { p.host });
            if let Some(h) = self.stack.get_mut(host) {
                match (f.column, h.row.as_mut()) {
                    (true, Some(row)) => row.bottom = row.bottom.max(rect.bottom()),
                    _ => {
                        h.cursor = h.cursor.max(rect.bottom());
                        h.margin = f.margin_after;
                    }
                }
            }
        }
    }

    /// The box of an inline element from where its content started and
    /// ended on its host's lines.
    pub(super) fn inline_rect(&self, f: &Frame, lh: f32) -> Rect {
        let Some(h) = self.stack.get(f.host) else { return Rect::default() };
        let w = h.content_width.max(1.0);
        let line = (f.font * lh).max(f.start.line);
        let first = (f.start.advance / w).floor();
        let top = f.start_cursor + first * line;
        if h.flushes != f.start_flushes {
            // Blocks inside the inline element: it spans them all.
            let bottom = h.cursor + if h.lines.advance > 0.0 { line } else { 0.0 };
            return Rect { left: h.content_left, top, width: w, height: (bottom - top).max(0.0) };
        }
        let end = h.lines.advance.max(f.start.advance);
        let last = ((end - 0.01).max(f.start.advance) / w).floor();
        let start_x = f.start.advance - first * w;
        if last <= first {
            Rect {
                left: h.content_left + start_x,
                top,
                width: (end - f.start.advance).min(w),
                height: line,
            }
        } else {
            Rect { left: h.content_left, top, width: w, height: (last - first + 1.0) * line }
        }
    }
}
