//! The line view of the source for the line-based algorithms (TTR, CETR):
//! per line, the number of text characters `x` and of tags `y`, after the
//! normalisation of `docs/algorithms.md#source-normalisation` (no comments, declarations,
//! `<script>`, `<style>` or `<noscript>`; character references decoded;
//! empty lines dropped \[S-3\]).
//!
//! Two ways to cut lines ([`LineMode`]): the physical source lines of the
//! papers, or virtual lines cut at block-level tags, for minified pages
//! whose whole body sits on one physical line.

use std::fmt;
use std::str::FromStr;

use super::grouped_votes::GroupedVotes;
use crate::document::tags::is_block;
use crate::document::{for_each_decoded_char, Document, NodeId, Source};
use crate::error::{Error, Result};
use crate::selection::{NodeVotes, Selection};

/// How a line-based algorithm cuts the source into lines.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum LineMode {
    /// Physical source lines, as in the papers \[S-3\]. A tag counts on the
    /// line where it starts (`docs/algorithms.md#source-normalisation` pitfall \[I\]).
    #[default]
    Source,
    /// Virtual lines: a block-level start tag
    /// ([`is_block`](crate::document::tags::is_block)) opens a new line and
    /// a block-level end tag closes the current one; newlines are ignored
    /// \[I\]. Line-based methods otherwise see a minified page as one line.
    Blocks,
}

impl LineMode {
    /// The x-axis label of a per-line curve in this mode.
    pub fn axis_label(self) -> &'static str {
        match self {
            LineMode::Source => "source line (empty lines removed)",
            LineMode::Blocks => "virtual line (cut at block tags)",
        }
    }
}

impl FromStr for LineMode {
    type Err = Error;

    fn from_str(s: &str) -> Result<LineMode> {
        match s.trim().to_ascii_lowercase().as_str() {
            "source" => Ok(LineMode::Source),
            "blocks" | "block" => Ok(LineMode::Blocks),
            _ => Err(Error::InvalidConfig(format!("lines: expected source or blocks, got {s:?}"))),
        }
    }
}

impl fmt::Display for LineMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            LineMode::Source => "source",
            LineMode::Blocks => "blocks",
        })
    }
}

super::params::choice_param!(LineMode {
    LineMode::Source => "source",
    LineMode::Blocks => "blocks",
});

/// Text of one DOM text node on one line.
#[derive(Debug, Clone, Copy)]
struct Piece {
    node: NodeId,
    line: u32,
    chars: u32,
}

/// The non-empty lines of a page with their character and tag counts.
#[derive(Debug, Clone, Default)]
pub(crate) struct LineTable {
    /// Non-whitespace text characters per line (`x` of the TTR paper).
    pub chars: Vec<u32>,
    /// Tags starting on each line (`y`).
    pub tags: Vec<u32>,
    pieces: Vec<Piece>,
}

struct Builder<'a> {
    table: LineTable,
    x: u32,
    y: u32,
    mode: LineMode,
    text: &'a [u8],
    /// Source mode: the byte offset up to which newlines have been seen.
    pos: usize,
}

impl Builder<'_> {
    /// Ends the current line; an empty line is dropped \[S-3\].
    fn end_line(&mut self) {
        if self.x > 0 || self.y > 0 {
            self.table.chars.push(self.x);
            self.table.tags.push(self.y);
        }
        self.x = 0;
        self.y = 0;
    }

    /// Source mode: ends the line if a newline lies between the last
    /// position seen and `to` (text removed by the normalisation, or the
    /// inside of a tag). Several newlines end it once: the lines between
    /// are empty.
    fn advance(&mut self, to: usize) {
        if self.mode == LineMode::Source && to > self.pos {
            let newline = self.text.get(self.pos..to).is_some_and(|s| s.contains(&b'\n'));
            if newline {
                self.end_line();
            }
            self.pos = to;
        }
    }

    /// Counts text on the current line.
    fn text(&mut self, raw: &str, node: Option<NodeId>) {
        let chars = count_text_chars(raw);
        if chars == 0 {
            return;
        }
        self.x = self.x.saturating_add(chars);
        if let Some(node) = node {
            let line = self.table.chars.len() as u32;
            self.table.pieces.push(Piece { node, line, chars });
        }
    }
}

/// Non-whitespace characters after decoding character references.
///
/// Deviation: the TTR paper counts every non-tag character of a line
/// \[S-3\]; whitespace is not counted here because indentation would
/// otherwise make markup-only lines look like text.
fn count_text_chars(raw: &str) -> u32 {
    let mut n = 0u32;
    for_each_decoded_char(raw, |c| {
        if !c.is_whitespace() {
            n = n.saturating_add(1);
        }
    });
    n
}

impl LineTable {
    /// Cuts the normalised source into lines.
    pub fn build(source: &Source, mode: LineMode) -> LineTable {
        let mut b = Builder {
            table: LineTable::default(),
            x: 0,
            y: 0,
            mode,
            text: source.text().as_bytes(),
            pos: 0,
        };
        for (_, token) in source.content_tokens() {
            b.advance(token.start as usize);
            match source.tag_name(token) {
                Some(name) => {
                    let start = token.is_start_tag();
                    let block = mode == LineMode::Blocks && is_block(name);
                    if block && start {
                        b.end_line();
                    }
                    b.y = b.y.saturating_add(1);
                    if block && !start {
                        b.end_line();
                    }
                    // A tag counts on the line where it starts; its own
                    // line breaks end that line.
                    b.advance(token.end as usize);
                }
                _ => {
                    let raw = source.token_text(token);
                    if mode == LineMode::Source {
                        let mut pieces = raw.split('\n').peekable();
                        while let Some(piece) = pieces.next() {
                            b.text(piece, token.node());
                            if pieces.peek().is_some() {
                                b.end_line();
                            }
                        }
                        b.pos = token.end as usize;
                    } else {
                        b.text(raw, token.node());
                    }
                }
            }
        }
        b.end_line();
        b.table
    }

    /// The text-to-tag ratio per line [S-3 Alg. 1]:
    /// `TTR[k] = x` if `y = 0`, else `x / y`.
    pub fn ttr(&self) -> Vec<f64> {
        self.chars
            .iter()
            .zip(&self.tags)
            .map(|(&x, &y)| if y == 0 { f64::from(x) } else { f64::from(x) / f64::from(y) })
            .collect()
    }

    /// Maps a per-line decision to text nodes: a node is selected when the
    /// majority of its characters lie on content lines. Each node's score
    /// is the mean of `scores` over its characters.
    ///
    /// The pieces are tallied node by node ([`GroupedVotes`]) when they
    /// come sorted by node, as they do unless the tree builder moved text.
    pub fn select(&self, doc: &Document, content: &[bool], scores: &[f64]) -> Selection {
        let votes = self.pieces.iter().map(|p| {
            let line = p.line as usize;
            let yes = content.get(line).copied().unwrap_or(false);
            let score = scores.get(line).copied().unwrap_or(0.0);
            (p.node, p.chars, yes, score)
        });
        if GroupedVotes::accepts(self.pieces.iter().map(|p| p.node)) {
            let mut grouped = GroupedVotes::new(doc);
            votes.for_each(|(node, weight, yes, score)| grouped.add(doc, node, weight, yes, score));
            return grouped.into_selection(doc);
        }
        let mut tally = NodeVotes::new(doc);
        votes.for_each(|(node, weight, yes, score)| tally.add(node, weight, yes, score));
        tally.into_selection(doc, true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ParseOptions;

    fn table(html: &str, mode: LineMode) -> LineTable {
        let doc = Document::parse(html.as_bytes(), &ParseOptions::default()).expect("parse");
        LineTable::build(doc.source(), mode)
    }

    #[test]
    fn counts_text_and_tags_per_source_line() {
        let html = "<html><body>\n\
                    <div><a href=x>Home</a> <a href=y>News</a></div>\n\
                    \n\
                    <script>var a = '<b>';\nvar b;</script>\n\
                    <p>Fish &amp; chips are\n\
                    served <b>hot</b>.</p>\n\
                    <!-- a\ncomment -->\n\
                    </body></html>";
        let t = table(html, LineMode::Source);
        // Lines: <html><body> | div line | p line 1 | p line 2 | </body></html>.
        assert_eq!(t.tags, [2, 6, 1, 3, 2]);
        assert_eq!(t.chars, [0, 8, 13, 10, 0]);
        assert_eq!(t.ttr(), [0.0, 8.0 / 6.0, 13.0, 10.0 / 3.0, 0.0]);
    }

    #[test]
    fn a_tag_spanning_lines_counts_on_its_first_line() {
        let t = table("<p\nclass=x\n>text</p>\nmore", LineMode::Source);
        assert_eq!(t.tags, [1, 1, 0]);
        assert_eq!(t.chars, [0, 4, 4]);
    }

    #[test]
    fn block_mode_cuts_at_block_tags() {
        let html = "<div><a>Home</a><a>News</a></div><p>Long text here.<b>x</b></p><span>t</span>";
        let t = table(html, LineMode::Blocks);
        // <div>…</div> | <p>…</p> | <span>t</span> (the html/body tags are
        // implied, not in the source).
        assert_eq!(t.tags, [6, 4, 2]);
        assert_eq!(t.chars, [8, 14, 1]);
        let one = table(html, LineMode::Source);
        assert_eq!(one.chars.len(), 1);
    }

    #[test]
    fn empty_page_has_no_lines() {
        assert_eq!(table("", LineMode::Source).chars.len(), 0);
        assert_eq!(table("\n\n  \n", LineMode::Blocks).chars.len(), 0);
    }
}
