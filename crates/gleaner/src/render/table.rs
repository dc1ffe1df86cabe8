//! The grid of a data table for Markdown: which column each cell starts
//! in once `colspan` and `rowspan` are expanded, and how many columns the
//! table has, so that every GFM row has as many cells as the header and
//! a cell stays under its column header (issue 35).
//!
//! GFM has no spanning cells: a spanned position is written as an empty
//! cell, the text staying once, where the page has it (the Markdown read
//! back as text is the text output).

use markup5ever::local_name;

use crate::document::{Document, NodeId};

/// The most columns a Markdown table is given, and the most a single cell
/// may span: a hostile `colspan=100000` must not write a wall of pipes.
pub(crate) const MAX_COLUMNS: usize = 64;

/// The most rows a `rowspan` reaches down.
const MAX_ROWSPAN: usize = 1000;

/// One row of the grid: its cells with their first column and span.
#[derive(Debug, Clone)]
pub(crate) struct GridRow {
    /// The `<tr>`.
    pub tr: NodeId,
    /// `(cell, first column, columns spanned)`, in document order.
    pub cells: Vec<(NodeId, usize, usize)>,
}

/// A data table's rows laid out on columns.
#[derive(Debug, Clone, Default)]
pub(crate) struct Grid {
    /// Rows in document order.
    pub rows: Vec<GridRow>,
    /// Columns of the widest row, at most [`MAX_COLUMNS`].
    pub columns: usize,
}

impl Grid {
    /// Lays out the rows of `table` (its `<tr>` elements outside nested
    /// tables), as the HTML table model places cells: each cell in the
    /// first column not covered by a `rowspan` from a row above. The
    /// width is that of the rows `written` (all rows count for what
    /// their rowspans cover).
    pub(crate) fn new(doc: &Document, table: NodeId, written: impl Fn(NodeId) -> bool) -> Grid {
        let mut rows = Vec::new();
        // Rows still covered, per column, by a rowspan from above.
        let mut covered: Vec<usize> = Vec::new();
        let mut columns = 0;
        let end = doc.subtree_end(table);
        let mut id = NodeId(table.0 + 1);
        while id < end {
            match doc.name(id) {
                Some(&local_name!("table")) => {
                    id = doc.subtree_end(id);
                    continue;
                }
                Some(&local_name!("tr")) => {}
                _ => {
                    id = NodeId(id.0 + 1);
                    continue;
                }
            }
            let mut cells = Vec::new();
            let mut col = 0;
            for cell in doc.children(id) {
                if !(doc.is(cell, local_name!("td")) || doc.is(cell, local_name!("th"))) {
                    continue;
                }
                while covered.get(col).is_some_and(|&n| n > 0) {
                    col += 1;
                }
                if col >= MAX_COLUMNS {
                    break;
                }
                let span = span(doc, cell, "colspan", MAX_COLUMNS).min(MAX_COLUMNS - col);
                let down = span_rows(doc, cell);
                if covered.len() < col + span {
                    covered.resize(col + span, 0);
                }
                for c in &mut covered[col..col + span] {
                    *c = (*c).max(down);
                }
                cells.push((cell, col, span));
                col += span;
            }
            let width = col.max(covered.iter().rposition(|&n| n > 0).map_or(0, |i| i + 1));
            if written(id) {
                columns = columns.max(width.min(MAX_COLUMNS));
            }
            for c in &mut covered {
                *c = c.saturating_sub(1);
            }
            rows.push(GridRow { tr: id, cells });
            id = NodeId(id.0 + 1);
        }
        Grid { rows, columns }
    }

    /// The index of the row of `tr`.
    pub(crate) fn row_of(&self, tr: NodeId) -> Option<usize> {
        self.rows.binary_search_by_key(&tr, |r| r.tr).ok()
    }
}

/// A span attribute as a count: at least 1 (a missing, zero or unparsable
/// value is 1), at most `max`.
fn span(doc: &Document, cell: NodeId, attr: &str, max: usize) -> usize {
    doc.attr(cell, attr).and_then(|v| v.trim().parse::<usize>().ok()).unwrap_or(1).clamp(1, max)
}

/// The rows a cell covers, its own included.
fn span_rows(doc: &Document, cell: NodeId) -> usize {
    span(doc, cell, "rowspan", MAX_ROWSPAN)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::document::ParseOptions;

    fn grid(html: &str) -> (Grid, Document) {
        let doc = Document::parse(html.as_bytes(), &ParseOptions::default()).expect("parse");
        let table = doc.subtree(NodeId(0)).find(|&n| doc.is(n, local_name!("table")));
        (Grid::new(&doc, table.expect("a table"), |_| true), doc)
    }

    #[test]
    fn spans_move_cells_to_their_columns() {
        let (g, _) = grid(
            "<table><tr><th colspan=2>a</th><th>b</th></tr>\
             <tr><td rowspan=2>x</td><td>y</td><td>z</td></tr><tr><td>p</td><td>q</td></tr></table>",
        );
        assert_eq!(g.columns, 3);
        let cols: Vec<Vec<(usize, usize)>> =
            g.rows.iter().map(|r| r.cells.iter().map(|c| (c.1, c.2)).collect()).collect();
        assert_eq!(
            cols,
            vec![vec![(0, 2), (2, 1)], vec![(0, 1), (1, 1), (2, 1)], vec![(1, 1), (2, 1)]]
        );
    }

    #[test]
    fn hostile_spans_are_bounded() {
        let (g, _) = grid("<table><tr><td colspan=99999999>a</td><td>b</td></tr></table>");
        assert_eq!(g.columns, MAX_COLUMNS);
        assert_eq!(g.rows[0].cells.len(), 1);
        let (g, _) = grid("<table><tr><td rowspan=-3 colspan=0>a</td></tr></table>");
        assert_eq!((g.columns, g.rows[0].cells[0].2), (1, 1));
    }
}
