//! Which source token made which node: the sink keeps the page's tokens
//! and maps each, as the tree builder acts on it, to its node — a start
//! tag to its element, a text token to the first node that got text of it
//! that is not whitespace (`docs/architecture.md`, "Source tokens mapped to the DOM").

use markup5ever::LocalName;

use super::super::token::StoredToken;
use super::arena::{is_contentful, Contentful};
use super::links::NONE;
use super::ArenaSink;

impl ArenaSink {
    /// Adds the next source token; gives its index.
    pub fn push_token(&self, token: StoredToken) -> u32 {
        let mut tokens = self.tokens.borrow_mut();
        tokens.push(token);
        (tokens.len() - 1) as u32
    }

    /// The source tokens, each mapped to the node (handle) it made.
    pub fn take_tokens(&self) -> Vec<StoredToken> {
        self.tokens.take()
    }

    /// Characters inserted from now on come from source token `token`
    /// ([`NONE`]: from one that is mapped to no node).
    pub fn set_text_token(&self, token: u32) {
        self.text_token.set(token);
        self.text_token_contentful.set(Contentful::Known(false));
    }

    /// The start tag `token` named `name` is being processed: the last
    /// element of that name created until [`ArenaSink::end_start_tag`] is
    /// its element (reconstructed formatting elements and the adoption
    /// agency's clones come before it).
    pub fn begin_start_tag(&self, name: &LocalName, token: u32) {
        let mut kept = self.start_tag_name.borrow_mut();
        if *kept != *name {
            *kept = name.clone();
        }
        self.start_tag.set(token);
    }

    /// The start tag's processing is over.
    pub fn end_start_tag(&self) {
        self.start_tag.set(NONE);
    }

    /// Records that text of the current character token, `inserted`, went
    /// to `node`: the token is mapped to the first node it gave text to,
    /// or to the first it gave text that is not whitespace. Whether a
    /// piece is whitespace is only read when a later piece of the same
    /// token needs it (most tokens are one piece).
    #[inline]
    pub(super) fn record_text(&self, node: u32, inserted: Contentful) {
        let token = self.text_token.get();
        let mut tokens = self.tokens.borrow_mut();
        let Some(t) = tokens.get_mut(token as usize) else { return };
        if !t.is_mapped() {
            t.map_to(node);
            self.text_token_contentful.set(inserted);
        } else if !self.contentful(self.text_token_contentful.get()) && self.contentful(inserted) {
            t.map_to(node);
            self.text_token_contentful.set(Contentful::Known(true));
        }
    }

    /// Whether the text `c` stands for is not all whitespace.
    fn contentful(&self, c: Contentful) -> bool {
        match c {
            Contentful::Known(known) => known,
            Contentful::InBuffer(start, end) => {
                let arena = self.arena.borrow();
                is_contentful(arena.text.get(start as usize..end as usize).unwrap_or(""))
            }
        }
    }
}
