//! The one shape every gold format becomes: blocks (paragraph, heading,
//! list item, annotated text block) one after another, separated by a
//! blank line, whitespace collapsed inside each, empty ones dropped.

use gleaner::document::decode_entities;

/// Collects blocks: whitespace collapsed inside, empty ones dropped.
#[derive(Default)]
pub(super) struct Blocks {
    out: String,
    current: String,
}

impl Blocks {
    /// Adds text to the current block, separated by a space.
    pub(super) fn push(&mut self, text: &str) {
        if !self.current.is_empty() {
            self.current.push(' ');
        }
        self.current.push_str(text);
    }

    /// Ends the current block; `decode` decodes entities first.
    pub(super) fn flush(&mut self, decode: bool) {
        let raw = std::mem::take(&mut self.current);
        let decoded = if decode { decode_entities(&raw) } else { raw };
        let mut words = decoded.split_whitespace().peekable();
        if words.peek().is_none() {
            return;
        }
        if !self.out.is_empty() {
            self.out.push_str("\n\n");
        }
        for (k, w) in words.enumerate() {
            if k > 0 {
                self.out.push(' ');
            }
            self.out.push_str(w);
        }
    }

    pub(super) fn finish(mut self, decode: bool) -> String {
        self.flush(decode);
        self.out
    }
}
