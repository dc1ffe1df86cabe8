//! The source view of a page: a light tokenizer over the decoded source
//! (tags, comments, text runs, raw text) with byte offsets, and its
//! alignment with the DOM's text nodes.
//!
//! html5ever's tree builder does not report where in the source a node
//! came from, but the source-level algorithms (BTE, DSC, CCB, TTR, CETR)
//! reason about tags and characters in source order. This module tokenizes
//! the source once, following the WHATWG tokenizer's states closely enough
//! for this purpose (§13.2.5: data, tag open, attribute values with quotes,
//! comments, RCDATA and RAWTEXT elements), and then aligns each text run
//! with the DOM text node it became, by document order and content
//! (whitespace and character references aside). The tree builder moves text
//! only in rare cases (foster parenting out of tables); such runs are left
//! unmapped, and [`Source::mapped_share`] reports how much text mapped.

use std::ops::Range;

use markup5ever::LocalName;

use super::entities::for_each_decoded_char;
use super::tags::{content_model, is_source_noise, is_void, ContentModel};
use super::NodeId;

/// What a source token is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TokenKind {
    /// `<name …>` (or `<name …/>`).
    StartTag(LocalName),
    /// `</name …>`.
    EndTag(LocalName),
    /// `<!-- … -->`.
    Comment,
    /// `<!DOCTYPE …>`, `<?…>`, `<!…>` and other markup declarations.
    Declaration,
    /// Text in normal or RCDATA content (character references are live).
    Text,
    /// The content of a RAWTEXT element such as `<script>` or `<style>`.
    RawText,
}

/// One token of the source, with its byte range in [`Source::text`] and
/// the DOM text node it belongs to (for text tokens that could be aligned).
#[derive(Debug, Clone)]
pub struct SourceToken {
    /// What the token is.
    pub kind: TokenKind,
    /// Byte offset of the first byte.
    pub start: u32,
    /// Byte offset one past the last byte.
    pub end: u32,
    /// The DOM text node this text belongs to, if aligned.
    pub node: Option<NodeId>,
}

impl SourceToken {
    /// The byte range of the token in the source.
    pub fn range(&self) -> Range<usize> {
        self.start as usize..self.end as usize
    }

    /// True for start and end tags.
    pub fn is_tag(&self) -> bool {
        matches!(self.kind, TokenKind::StartTag(_) | TokenKind::EndTag(_))
    }

    /// The tag's element name, for start and end tags.
    pub fn tag_name(&self) -> Option<&LocalName> {
        match &self.kind {
            TokenKind::StartTag(n) | TokenKind::EndTag(n) => Some(n),
            _ => None,
        }
    }
}

/// One unit of the token sequence that the source-level algorithms count
/// (BTE, DSC, TCCB): a tag or a word, after the normalisation of
/// ALGORITHMS.md §1.1 (comments, declarations and the `<script>`,
/// `<style>` and `<noscript>` elements are gone).
#[derive(Debug, Clone)]
pub struct Unit {
    /// Index of the source token the unit comes from.
    pub token: u32,
    /// Byte range of the unit in the source.
    pub start: u32,
    /// End of the byte range.
    pub end: u32,
    /// A tag (`true`) or a word (`false`).
    pub is_tag: bool,
    /// The DOM text node a word belongs to.
    pub node: Option<NodeId>,
}

/// The decoded source and its tokens.
#[derive(Debug, Clone, Default)]
pub struct Source {
    text: String,
    tokens: Vec<SourceToken>,
    mapped_bytes: usize,
    text_bytes: usize,
}

impl Source {
    /// The decoded source text.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// All tokens in source order.
    pub fn tokens(&self) -> &[SourceToken] {
        &self.tokens
    }

    /// The source text of one token.
    pub fn token_text(&self, token: &SourceToken) -> &str {
        self.text.get(token.range()).unwrap_or("")
    }

    /// The share of text (bytes of text tokens outside script and style,
    /// trimmed) whose token was aligned with a DOM text node. 1.0 for a
    /// page without text.
    pub fn mapped_share(&self) -> f64 {
        if self.text_bytes == 0 {
            1.0
        } else {
            self.mapped_bytes as f64 / self.text_bytes as f64
        }
    }

    /// Indices of the tokens that survive the normalisation of ALGORITHMS.md
    /// §1.1: no comments or declarations, and no `<script>`, `<style>` or
    /// `<noscript>` elements (tags and content).
    pub fn content_tokens(&self) -> impl Iterator<Item = (usize, &SourceToken)> + '_ {
        let mut noise_depth: Option<LocalName> = None;
        self.tokens.iter().enumerate().filter(move |(_, t)| match &t.kind {
            TokenKind::StartTag(name) if noise_depth.is_none() && is_source_noise(name) => {
                noise_depth = Some(name.clone());
                false
            }
            TokenKind::EndTag(name) if noise_depth.as_ref() == Some(name) => {
                noise_depth = None;
                false
            }
            _ if noise_depth.is_some() => false,
            TokenKind::Comment | TokenKind::Declaration | TokenKind::RawText => false,
            TokenKind::StartTag(_) | TokenKind::EndTag(_) | TokenKind::Text => true,
        })
    }

    /// The tag/word sequence of the normalised source (ALGORITHMS.md §1.1
    /// step 4: a word is a maximal run of non-whitespace characters outside
    /// tags). `keep_tag` decides which tags count: ACCB and TCCB drop `<a>`.
    pub fn units(&self, mut keep_tag: impl FnMut(&LocalName) -> bool) -> Vec<Unit> {
        let mut units = Vec::new();
        for (i, token) in self.content_tokens() {
            match &token.kind {
                TokenKind::StartTag(name) | TokenKind::EndTag(name) => {
                    if keep_tag(name) {
                        units.push(Unit {
                            token: i as u32,
                            start: token.start,
                            end: token.end,
                            is_tag: true,
                            node: None,
                        });
                    }
                }
                _ => {
                    let text = self.token_text(token);
                    for word in split_words(text) {
                        units.push(Unit {
                            token: i as u32,
                            start: token.start + word.start as u32,
                            end: token.start + word.end as u32,
                            is_tag: false,
                            node: token.node,
                        });
                    }
                }
            }
        }
        units
    }
}

/// Byte ranges of the whitespace-separated words of `text`.
pub fn split_words(text: &str) -> impl Iterator<Item = Range<usize>> + '_ {
    let mut pos = 0;
    std::iter::from_fn(move || {
        let rest = text.get(pos..)?;
        let skip = rest.find(|c: char| !c.is_whitespace())?;
        let start = pos + skip;
        let len = text[start..].find(char::is_whitespace).unwrap_or(text.len() - start);
        pos = start + len;
        Some(start..start + len)
    })
}

/// Tokenizes `text`. Never fails: anything that is not markup is text.
pub(crate) fn tokenize(text: String) -> Source {
    let tokens = Tokenizer { s: text.as_bytes(), pos: 0, out: Vec::new() }.run();
    Source { text, tokens, mapped_bytes: 0, text_bytes: 0 }
}

struct Tokenizer<'a> {
    s: &'a [u8],
    pos: usize,
    out: Vec<SourceToken>,
}

impl Tokenizer<'_> {
    fn run(mut self) -> Vec<SourceToken> {
        let mut text_start = 0;
        while let Some(lt) = find_byte(self.s, b'<', self.pos) {
            let next = self.s.get(lt + 1).copied();
            let markup = match next {
                Some(b'!') => Some(self.declaration_or_comment(lt)),
                Some(b'?') => Some((TokenKind::Declaration, self.until_gt(lt + 2))),
                Some(b'/') => self.end_tag(lt),
                Some(c) if c.is_ascii_alphabetic() => Some(self.start_tag(lt)),
                _ => None,
            };
            let Some((kind, end)) = markup else {
                self.pos = lt + 1;
                continue;
            };
            self.push_text(text_start, lt, TokenKind::Text);
            let raw = match &kind {
                TokenKind::StartTag(name) if !self.self_closing(lt, end) || !is_void(name) => {
                    Some(content_model(name))
                        .filter(|m| *m != ContentModel::Normal)
                        .zip(Some(name.clone()))
                }
                _ => None,
            };
            self.push(kind, lt, end);
            self.pos = end;
            text_start = end;
            if let Some((model, name)) = raw {
                let close = match model {
                    ContentModel::PlainText => self.s.len(),
                    _ => self.find_end_tag(&name, end),
                };
                let kind = if model == ContentModel::RcData {
                    TokenKind::Text
                } else {
                    TokenKind::RawText
                };
                self.push_text(end, close, kind);
                self.pos = close;
                text_start = close;
            }
        }
        self.push_text(text_start, self.s.len(), TokenKind::Text);
        self.out
    }

    fn push(&mut self, kind: TokenKind, start: usize, end: usize) {
        self.out.push(SourceToken { kind, start: start as u32, end: end as u32, node: None });
    }

    fn push_text(&mut self, start: usize, end: usize, kind: TokenKind) {
        if end > start {
            self.push(kind, start, end);
        }
    }

    fn self_closing(&self, start: usize, end: usize) -> bool {
        end >= start + 2 && self.s.get(end - 2) == Some(&b'/') && self.s.get(end - 1) == Some(&b'>')
    }

    /// `<!--…-->`, `<!DOCTYPE…>`, `<![CDATA[…]]>` or a bogus comment `<!…>`.
    fn declaration_or_comment(&self, lt: usize) -> (TokenKind, usize) {
        let s = self.s;
        if s[lt..].starts_with(b"<!--") {
            // `<!-->` and `<!--->` are (abruptly closed) empty comments.
            let body = lt + 4;
            if s[body..].starts_with(b">") {
                return (TokenKind::Comment, body + 1);
            }
            if s[body..].starts_with(b"->") {
                return (TokenKind::Comment, body + 2);
            }
            let end = find_seq(s, b"-->", body).map_or(s.len(), |p| p + 3);
            return (TokenKind::Comment, end);
        }
        if s.len() >= lt + 9 && s[lt + 2..lt + 9].eq_ignore_ascii_case(b"[CDATA[") {
            let end = find_seq(s, b"]]>", lt + 9).map_or(s.len(), |p| p + 3);
            return (TokenKind::Comment, end);
        }
        (TokenKind::Declaration, self.until_gt(lt + 2))
    }

    /// Position after the next `>` (or the end of input).
    fn until_gt(&self, from: usize) -> usize {
        find_byte(self.s, b'>', from).map_or(self.s.len(), |p| p + 1)
    }

    fn end_tag(&self, lt: usize) -> Option<(TokenKind, usize)> {
        match self.s.get(lt + 2) {
            Some(c) if c.is_ascii_alphabetic() => {
                let (name, after) = self.tag_name(lt + 2);
                Some((TokenKind::EndTag(name), self.attributes_end(after)))
            }
            // `</>` is dropped by the tokenizer.
            Some(b'>') => Some((TokenKind::Declaration, lt + 3)),
            // `</` then anything else starts a bogus comment.
            Some(_) => Some((TokenKind::Comment, self.until_gt(lt + 2))),
            None => None,
        }
    }

    fn start_tag(&self, lt: usize) -> (TokenKind, usize) {
        let (name, after) = self.tag_name(lt + 1);
        (TokenKind::StartTag(name), self.attributes_end(after))
    }

    fn tag_name(&self, from: usize) -> (LocalName, usize) {
        let s = self.s;
        let len = s[from..]
            .iter()
            .position(|&b| b.is_ascii_whitespace() || b == b'/' || b == b'>')
            .unwrap_or(s.len() - from);
        let raw = &s[from..from + len];
        // The tag name starts with an ASCII letter; later bytes can be any
        // UTF-8, so convert lossily (a name cut inside a character cannot
        // happen: the delimiters are ASCII).
        let name = match std::str::from_utf8(raw) {
            Ok(s) if !s.bytes().any(|b| b.is_ascii_uppercase()) => LocalName::from(s),
            _ => LocalName::from(String::from_utf8_lossy(raw).to_ascii_lowercase()),
        };
        (name, from + len)
    }

    /// Skips attributes (quoted values may contain `>`) to one past `>`.
    fn attributes_end(&self, mut i: usize) -> usize {
        let s = self.s;
        while i < s.len() {
            match s[i] {
                b'>' => return i + 1,
                b'"' | b'\'' if i > 0 && is_value_start(s, i) => {
                    let quote = s[i];
                    match find_byte(s, quote, i + 1) {
                        Some(p) => i = p + 1,
                        None => return s.len(),
                    }
                }
                _ => i += 1,
            }
        }
        s.len()
    }

    /// Where the RAWTEXT/RCDATA content of `name` ends: at `</name` followed
    /// by whitespace, `/` or `>` (WHATWG "appropriate end tag token").
    fn find_end_tag(&self, name: &LocalName, from: usize) -> usize {
        let s = self.s;
        let needle = name.as_bytes();
        let mut i = from;
        while let Some(p) = find_seq(s, b"</", i) {
            let after = p + 2 + needle.len();
            if s.len() >= after
                && s[p + 2..after].eq_ignore_ascii_case(needle)
                && s.get(after).is_none_or(|&b| b.is_ascii_whitespace() || b == b'/' || b == b'>')
            {
                return p;
            }
            i = p + 2;
        }
        s.len()
    }
}

/// A quote opens an attribute value only after `=` (and optional spaces).
fn is_value_start(s: &[u8], quote_at: usize) -> bool {
    let mut j = quote_at;
    while j > 0 {
        j -= 1;
        match s[j] {
            b' ' | b'\t' | b'\n' | b'\r' | b'\x0C' => continue,
            b'=' => return true,
            _ => return false,
        }
    }
    false
}

fn find_byte(s: &[u8], b: u8, from: usize) -> Option<usize> {
    s.get(from..)?.iter().position(|&x| x == b).map(|p| from + p)
}

fn find_seq(s: &[u8], needle: &[u8], from: usize) -> Option<usize> {
    let mut i = from;
    while let Some(p) = find_byte(s, needle[0], i) {
        if s[p..].starts_with(needle) {
            return Some(p);
        }
        i = p + 1;
    }
    None
}

impl Source {
    /// Aligns text tokens with the DOM's text nodes, in document order.
    ///
    /// `dom_texts` lists the text nodes in document order with their text.
    /// Whitespace, NUL and character references are ignored in the
    /// comparison. A token that does not match at the cursor is looked for
    /// at the start of the next [`LOOKAHEAD`] text nodes; if it is not
    /// found it stays unmapped and the cursor does not move.
    /// Turns the text tokens of the nodes marked in `hidden` into
    /// comments, which no algorithm reads as content.
    pub(crate) fn set_aside(&mut self, hidden: &[bool]) {
        for token in &mut self.tokens {
            let is_hidden =
                token.node.is_some_and(|n| hidden.get(n.index()).copied().unwrap_or(false));
            if is_hidden && token.kind == TokenKind::Text {
                token.kind = TokenKind::Comment;
            }
        }
    }

    pub(crate) fn align(&mut self, dom_texts: &[(NodeId, &str)]) {
        const LOOKAHEAD: usize = 16;
        let mut cursor = Cursor { node: 0, byte: 0 };
        let mut buf: Vec<char> = Vec::new();
        let (mut mapped, mut total) = (0usize, 0usize);
        let mut content_dropped = false;
        for token in &mut self.tokens {
            let is_text = match &token.kind {
                TokenKind::Text => true,
                // The tree builder never saw this content (see `tree_input`).
                TokenKind::RawText if content_dropped => continue,
                TokenKind::RawText => false,
                TokenKind::StartTag(name) => {
                    content_dropped = super::tree_input::drops_content(name);
                    continue;
                }
                _ => continue,
            };
            let raw = self.text.get(token.start as usize..token.end as usize).unwrap_or("");
            let trimmed = raw.trim();
            if trimmed.is_empty() {
                continue;
            }
            if is_text {
                total += trimmed.len();
            }
            // Fast path: the text is byte-identical to the DOM's at the
            // cursor (no character references, same line endings).
            let mut found = cursor.match_verbatim(dom_texts, trimmed);
            if found.is_none() {
                buf.clear();
                let keep = |c: char| !c.is_whitespace() && c != '\0';
                if is_text {
                    for_each_decoded_char(trimmed, |c| {
                        if keep(c) {
                            buf.push(c)
                        }
                    });
                } else {
                    buf.extend(trimmed.chars().filter(|&c| keep(c)));
                }
                if buf.is_empty() {
                    continue;
                }
                found = cursor.match_here(dom_texts, &buf).or_else(|| {
                    (cursor.node + 1..dom_texts.len().min(cursor.node + 1 + LOOKAHEAD))
                        .find_map(|k| Cursor { node: k, byte: 0 }.match_here(dom_texts, &buf))
                });
            }
            if let Some((start, after)) = found {
                token.node = dom_texts.get(start.node).map(|(id, _)| *id);
                cursor = after;
                if is_text {
                    mapped += trimmed.len();
                }
            }
        }
        self.mapped_bytes = mapped;
        self.text_bytes = total;
    }
}

/// A position in the DOM's text: a text node and a byte offset in it.
#[derive(Debug, Clone, Copy)]
struct Cursor {
    node: usize,
    byte: usize,
}

impl Cursor {
    /// Skips whitespace (and exhausted text nodes) from this cursor.
    fn skip_whitespace(mut self, dom: &[(NodeId, &str)]) -> Option<Cursor> {
        loop {
            let (_, text) = dom.get(self.node)?;
            let rest = text.get(self.byte..)?;
            match rest.find(|c: char| !c.is_whitespace()) {
                Some(skip) => {
                    self.byte += skip;
                    return Some(self);
                }
                None => self = Cursor { node: self.node + 1, byte: 0 },
            }
        }
    }

    /// Does the DOM text continue with exactly `text` here?
    fn match_verbatim(self, dom: &[(NodeId, &str)], text: &str) -> Option<(Cursor, Cursor)> {
        let at = self.skip_whitespace(dom)?;
        let (_, node_text) = dom.get(at.node)?;
        node_text
            .get(at.byte..)?
            .starts_with(text)
            .then(|| (at, Cursor { node: at.node, byte: at.byte + text.len() }))
    }

    /// Does `chars` (no whitespace) continue the DOM text at this cursor,
    /// skipping whitespace? Moves on to the next text node when this one
    /// has only whitespace left. Returns the cursor of the node where the
    /// match starts and the cursor after it.
    fn match_here(self, dom: &[(NodeId, &str)], chars: &[char]) -> Option<(Cursor, Cursor)> {
        let at = self.skip_whitespace(dom)?;
        let (_, text) = dom.get(at.node)?;
        let mut it = text.get(at.byte..)?.char_indices().filter(|(_, c)| !c.is_whitespace());
        let mut end = at.byte;
        for &want in chars {
            let (i, got) = it.next()?;
            if got != want {
                return None;
            }
            end = at.byte + i + got.len_utf8();
        }
        Some((at, Cursor { node: at.node, byte: end }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(html: &str) -> Vec<(String, String)> {
        let src = tokenize(html.to_string());
        src.tokens()
            .iter()
            .map(|t| {
                let k = match &t.kind {
                    TokenKind::StartTag(n) => format!("<{n}>"),
                    TokenKind::EndTag(n) => format!("</{n}>"),
                    k => format!("{k:?}"),
                };
                (k, src.token_text(t).to_string())
            })
            .collect()
    }

    #[test]
    fn tags_text_and_comments() {
        let k = kinds("<!DOCTYPE html><p class=\"a>b\">Hi <b>you</b><!-- x > y --> 1 < 2</p>");
        let names: Vec<&str> = k.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(
            names,
            ["Declaration", "<p>", "Text", "<b>", "Text", "</b>", "Comment", "Text", "</p>"]
        );
        assert_eq!(k[1].1, "<p class=\"a>b\">");
        assert_eq!(k[7].1, " 1 < 2");
    }

    #[test]
    fn script_content_is_raw_text() {
        let k = kinds("<script>if (a<b) { x = '</p>'; }</script><p>t</p>");
        assert_eq!(k[1], ("RawText".into(), "if (a<b) { x = '</p>'; }".into()));
        assert_eq!(k[2].0, "</script>");
    }

    #[test]
    fn title_is_rcdata_text() {
        let k = kinds("<title>a <b> &amp; c</title>");
        assert_eq!(k[1], ("Text".into(), "a <b> &amp; c".into()));
    }

    #[test]
    fn unterminated_markup_runs_to_end() {
        assert_eq!(kinds("text <!-- open").len(), 2);
        assert_eq!(kinds("<div class='x").len(), 1);
        assert_eq!(kinds("<").len(), 1);
    }

    #[test]
    fn words_are_split_on_whitespace() {
        let words: Vec<_> = split_words("  a bc\n\td ").collect();
        assert_eq!(words, [2..3, 4..6, 8..9]);
    }
}
