//! The tokenizer: the [`Scanner`] is the only tokenizer a page goes
//! through. It follows the WHATWG tokenizer (§13.2.5) for where each token
//! ends; the tree feed (`tree_feed`) hands its tokens to a tree builder,
//! which says in which state ([`ScanState`]) the next token is read, and
//! the sink records which token made which node
//! (`docs/architecture.md`, "One tokenizer").

use std::ops::Range;

use markup5ever::{local_name, LocalName};

use super::character_tokens::TextState;
use super::packed_names::{lowercase_packed, pack, pack_lower, packed_names, PackedNameSlots};
use super::script_data::script_data_end;
use super::tag_attributes::{find_byte, is_space, scan_attributes, tag_name_end_packed, TagEnd};
use super::tags::{content_model, ContentModel, LowerName};
use super::token::{StoredToken, TagNames, TokenKind};

/// Tokenizes `text` on its own, guessing each element's content model
/// from its name ([`content_model`]) as a scripting browser outside
/// foreign content would. [`Document::parse`](super::Document::parse)
/// does not use this: there the tree builder says which state the next
/// token is read in (see `tree_feed`).
#[cfg(any(test, feature = "internals"))]
pub(crate) fn tokenize(text: String) -> super::source::Source {
    let mut tokens = Vec::new();
    let mut names = TagNames::default();
    let mut scanner = Scanner::new(text.as_bytes());
    let mut state = ScanState::Data;
    while let Some(scanned) = scanner.next(&state, || false) {
        state = ScanState::Data;
        if let (TokenKind::StartTag(name), Markup::StartTag { tag, .. }) =
            (&scanned.kind, &scanned.markup)
        {
            if !(tag.self_closing && super::tags::is_void(name)) {
                state = ScanState::guess(name);
            }
        }
        tokens.push(scanned.to_token(&mut names));
    }
    super::source::Source::new(text, tokens, names.into_names())
}

/// The tokenizer state the next token is read in (WHATWG §13.2.5): set by
/// the tree builder after a start tag (`TokenSinkResult::RawData`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum ScanState {
    /// §13.2.5.1 data: markup is read.
    Data,
    /// §13.2.5.2 RCDATA: text with references, to `</name`.
    RcData(LocalName),
    /// §13.2.5.3 RAWTEXT: text as written, to `</name`.
    RawText(LocalName),
    /// §13.2.5.4 script data, escapes included, to `</script`.
    ScriptData,
    /// §13.2.5.5 PLAINTEXT: the rest of the input.
    PlainText,
}

impl ScanState {
    /// The state after start tag `name` by its name alone.
    pub(crate) fn guess(name: &LocalName) -> ScanState {
        match content_model(name) {
            ContentModel::Normal => ScanState::Data,
            ContentModel::RcData => ScanState::RcData(name.clone()),
            ContentModel::RawText if *name == local_name!("script") => ScanState::ScriptData,
            ContentModel::RawText => ScanState::RawText(name.clone()),
            ContentModel::PlainText => ScanState::PlainText,
        }
    }
}

/// What a scanned token is for the tree builder, beyond its [`TokenKind`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Markup {
    /// Character data read in this state.
    Text(TextState),
    /// A start tag (its attributes are [`Scanner::attributes`]).
    StartTag { tag: TagEnd },
    /// An end tag; `complete` unless the input ended inside it.
    EndTag { complete: bool },
    /// A comment (or bogus comment) with its data's byte range.
    Comment(Range<usize>),
    /// A CDATA section in foreign content: its range is character data.
    CData(Range<usize>),
    /// `<!DOCTYPE …>`.
    Doctype,
    /// Nothing the tree builder sees (`</>`).
    Nothing,
}

/// One token as scanned: the source token and what the tree builder needs.
#[derive(Debug, Clone)]
pub(crate) struct Scanned {
    pub kind: TokenKind,
    pub start: usize,
    pub end: usize,
    pub markup: Markup,
}

impl Scanned {
    /// The source token, as stored.
    pub(crate) fn to_token(&self, names: &mut TagNames) -> StoredToken {
        StoredToken::new(&self.kind, self.start as u32, names)
    }
}

/// The source tokenizer: one token at a time, in the state the caller
/// asks for. Follows the WHATWG tokenizer for where each token ends
/// (§13.2.5: tags with quoted attribute values, comments and their abrupt
/// ends, bogus comments, CDATA, the content states); what a token means is
/// left to `tree_feed`.
pub(crate) struct Scanner<'a> {
    s: &'a [u8],
    pos: usize,
    /// The token [`Scanner::advance`] read last ([`Scanner::current`]),
    /// and the markup found while scanning the text before it, which
    /// the next call returns: each is written once, where it is read
    /// (issue 12: a token kept for the next call was moved in and out of
    /// an `Option`, twice a tag).
    slots: [Scanned; 2],
    /// The slot of the current token (0 or 1).
    current: usize,
    /// The other slot holds markup still to be returned.
    pending: bool,
    /// The attributes of the last start tag scanned (see
    /// [`Scanner::attributes`]).
    attributes: Vec<AttributeRange>,
}

/// An attribute's name and value as byte ranges of the source (an empty
/// value range for an attribute without a value).
pub(crate) type AttributeRange = (Range<usize>, Range<usize>);

impl<'a> Scanner<'a> {
    pub(crate) fn new(s: &'a [u8]) -> Scanner<'a> {
        let empty = || Scanned { kind: TokenKind::Text, start: 0, end: 0, markup: Markup::Nothing };
        Scanner {
            s,
            pos: 0,
            slots: [empty(), empty()],
            current: 0,
            pending: false,
            attributes: Vec::new(),
        }
    }

    /// The attributes of the start tag scanned last ([`Scanner::current`])
    /// (read while its end was found, so no tag is walked twice). Valid
    /// until the next call.
    pub(crate) fn attributes(&self) -> &[AttributeRange] {
        &self.attributes
    }

    /// The token [`Scanner::advance`] read last.
    pub(crate) fn current(&self) -> &Scanned {
        &self.slots[self.current & 1]
    }

    /// The next token, read in `state`, or `None` at the end of the
    /// input; `foreign` says whether the tree builder's adjusted current
    /// node is outside the HTML namespace (only asked at `<![CDATA[`).
    #[cfg(any(test, feature = "internals"))]
    pub(crate) fn next(
        &mut self,
        state: &ScanState,
        foreign: impl FnOnce() -> bool,
    ) -> Option<&Scanned> {
        self.advance(state, foreign).then(|| self.current())
    }

    /// Reads the next token, in `state` (as `Scanner::next` does), into
    /// [`Scanner::current`]; false at the end of the input.
    pub(crate) fn advance(&mut self, state: &ScanState, foreign: impl FnOnce() -> bool) -> bool {
        if self.pending {
            self.pending = false;
            self.current ^= 1;
            self.pos = self.current().end;
            return true;
        }
        let from = self.pos;
        if from >= self.s.len() {
            return false;
        }
        let (raw_end, kind, text) = match state {
            ScanState::Data => {
                self.data(from, foreign);
                return true;
            }
            ScanState::RcData(name) => {
                (self.find_end_tag(name, from), TokenKind::Text, TextState::RcData)
            }
            ScanState::RawText(name) => {
                (self.find_end_tag(name, from), TokenKind::RawText, TextState::Raw)
            }
            ScanState::ScriptData => {
                (script_data_end(self.s, from), TokenKind::RawText, TextState::Raw)
            }
            ScanState::PlainText => (self.s.len(), TokenKind::RawText, TextState::Raw),
        };
        if raw_end == from {
            self.data(from, foreign);
            return true;
        }
        self.pos = raw_end;
        self.slots[self.current & 1] =
            Scanned { kind, start: from, end: raw_end, markup: Markup::Text(text) };
        true
    }

    /// Reads the next token in the data state into the current slot: text
    /// up to the next markup (the markup into the other slot, for the
    /// next call), or that markup.
    fn data(&mut self, from: usize, foreign: impl FnOnce() -> bool) {
        let mut search = from;
        let mut foreign = Some(foreign);
        let current = self.current & 1;
        while let Some(lt) = find_byte(self.s, b'<', search) {
            let Some(markup) = self.markup_at(lt, &mut foreign) else {
                search = lt + 1;
                continue;
            };
            if lt > from {
                self.slots[current ^ 1] = markup;
                self.pending = true;
                self.pos = lt;
                self.slots[current] = Scanned {
                    kind: TokenKind::Text,
                    start: from,
                    end: lt,
                    markup: Markup::Text(TextState::Data),
                };
                return;
            }
            self.pos = markup.end;
            self.slots[current] = markup;
            return;
        }
        self.pos = self.s.len();
        self.slots[current] = Scanned {
            kind: TokenKind::Text,
            start: from,
            end: self.s.len(),
            markup: Markup::Text(TextState::Data),
        };
    }

    /// The markup starting at `<` at `lt`, if it is markup (§13.2.5.6 tag
    /// open: a letter, `!`, `/` or `?` follows).
    fn markup_at<F: FnOnce() -> bool>(
        &mut self,
        lt: usize,
        foreign: &mut Option<F>,
    ) -> Option<Scanned> {
        let s = self.s;
        let scanned = |kind, end, markup| Some(Scanned { kind, start: lt, end, markup });
        match s.get(lt + 1).copied()? {
            b'!' => Some(self.declaration_or_comment(lt, foreign)),
            b'?' => {
                // §13.2.5.6: a bogus comment whose data keeps the `?`.
                let (data_end, end) = self.until_gt(lt + 1);
                scanned(TokenKind::Declaration, end, Markup::Comment(lt + 1..data_end))
            }
            b'/' => match s.get(lt + 2).copied()? {
                c if c.is_ascii_alphabetic() => {
                    let (name, after) = self.tag_name(lt + 2);
                    let tag = scan_attributes(s, after, |_, _| {});
                    scanned(
                        TokenKind::EndTag(name),
                        tag.end,
                        Markup::EndTag { complete: tag.complete },
                    )
                }
                // `</>` is dropped by the tokenizer.
                b'>' => scanned(TokenKind::Declaration, lt + 3, Markup::Nothing),
                // `</` then anything else starts a bogus comment.
                _ => {
                    let (data_end, end) = self.until_gt(lt + 2);
                    scanned(TokenKind::Comment, end, Markup::Comment(lt + 2..data_end))
                }
            },
            c if c.is_ascii_alphabetic() => {
                let (name, name_end) = self.tag_name(lt + 1);
                let attributes = &mut self.attributes;
                attributes.clear();
                let tag =
                    scan_attributes(s, name_end, |name, value| attributes.push((name, value)));
                scanned(TokenKind::StartTag(name), tag.end, Markup::StartTag { tag })
            }
            _ => None,
        }
    }

    /// `<!--…-->`, `<!DOCTYPE…>`, `<![CDATA[…]]>` or a bogus comment `<!…>`
    /// (§13.2.5.42 markup declaration open).
    fn declaration_or_comment<F: FnOnce() -> bool>(
        &self,
        lt: usize,
        foreign: &mut Option<F>,
    ) -> Scanned {
        let s = self.s;
        let scanned = |kind, end, markup| Scanned { kind, start: lt, end, markup };
        if s[lt..].starts_with(b"<!--") {
            let (data, end) = comment_end(s, lt + 4);
            return scanned(TokenKind::Comment, end, Markup::Comment(data));
        }
        let rest = &s[lt + 2..];
        if rest.len() >= 7 && rest[..7].eq_ignore_ascii_case(b"doctype") {
            let (_, end) = self.until_gt(lt + 2);
            return scanned(TokenKind::Declaration, end, Markup::Doctype);
        }
        // `[CDATA[` (case-sensitive) is a section only in foreign content
        // (§13.2.5.42); elsewhere a bogus comment.
        if rest.starts_with(b"[CDATA[") && foreign.take().is_some_and(|f| f()) {
            let body = lt + 9;
            let (data_end, end) =
                find_seq(s, b"]]>", body).map_or((s.len(), s.len()), |p| (p, p + 3));
            return scanned(TokenKind::Comment, end, Markup::CData(body..data_end));
        }
        let (data_end, end) = self.until_gt(lt + 2);
        scanned(TokenKind::Declaration, end, Markup::Comment(lt + 2..data_end))
    }

    /// The position of the next `>` from `from` and one past it (or the
    /// end of the input twice).
    fn until_gt(&self, from: usize) -> (usize, usize) {
        find_byte(self.s, b'>', from).map_or((self.s.len(), self.s.len()), |p| (p, p + 1))
    }

    /// The name of the tag whose name starts at `from`, and where it
    /// ends. Inlined into its two callers: it runs for every tag.
    #[inline(always)]
    fn tag_name(&self, from: usize) -> (LocalName, usize) {
        let s = self.s;
        let (end, packed) = tag_name_end_packed(s, from);
        let raw = s.get(from..end).unwrap_or_default();
        let common = if raw.len() <= 8 {
            lowercase_packed(packed).and_then(short_common_tag_name)
        } else {
            common_tag_name(raw)
        };
        if let Some(name) = common {
            return (name, end);
        }
        // The tag name starts with an ASCII letter; later bytes can be any
        // UTF-8 (the delimiters are ASCII, so no character is cut). ASCII
        // letters are lower-cased and NUL is U+FFFD (§13.2.5.8).
        let name = match std::str::from_utf8(raw) {
            Ok(s) if !raw.iter().any(|&b| b.is_ascii_uppercase() || b == 0) => LocalName::from(s),
            _ => LocalName::from(
                String::from_utf8_lossy(raw).to_ascii_lowercase().replace('\0', "\u{FFFD}"),
            ),
        };
        (name, end)
    }

    /// Where the RAWTEXT/RCDATA content of `name` ends: at `</name` followed
    /// by whitespace, `/` or `>` (WHATWG "appropriate end tag token").
    fn find_end_tag(&self, name: &LocalName, from: usize) -> usize {
        let s = self.s;
        let needle = name.as_bytes();
        let mut i = from;
        while let Some(p) = find_seq(s, b"</", i) {
            let after = p + 2 + needle.len();
            if s.len() > after
                && s[p + 2..after].eq_ignore_ascii_case(needle)
                && (is_space(s[after]) || s[after] == b'/' || s[after] == b'>')
            {
                return p;
            }
            i = p + 2;
        }
        s.len()
    }
}

/// The atom of a common tag name spelt `raw` in any case: cheaper than
/// hashing the name into an atom, and it runs for every tag of the page.
/// A name of up to eight ASCII bytes is matched as one integer
/// ([`pack_lower`]), the two longer ones byte by byte. `None` for
/// other names.
fn common_tag_name(raw: &[u8]) -> Option<LocalName> {
    if let Some(packed) = pack_lower(raw) {
        return short_common_tag_name(packed);
    }
    // The longest of the names below.
    let lower = LowerName::<10>::of(raw)?;
    Some(match lower.as_bytes() {
        b"blockquote" => local_name!("blockquote"),
        b"figcaption" => local_name!("figcaption"),
        _ => return None,
    })
}

packed_names! {
    /// The atom of the common tag name packed as `packed` (of up to eight
    /// bytes, [`pack`]).
    fn short_common_tag_name, static SHORT_COMMON, 256 slots, multiplier 0x1DFA_37EA_937E_7BC7:
    "a",
    "abbr",
    "article",
    "aside",
    "b",
    "body",
    "br",
    "button",
    "center",
    "code",
    "dd",
    "div",
    "dl",
    "dt",
    "em",
    "figure",
    "font",
    "footer",
    "form",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "head",
    "header",
    "hr",
    "html",
    "i",
    "iframe",
    "img",
    "input",
    "label",
    "li",
    "link",
    "main",
    "meta",
    "nav",
    "noscript",
    "ol",
    "option",
    "p",
    "path",
    "picture",
    "pre",
    "script",
    "section",
    "select",
    "small",
    "source",
    "span",
    "strong",
    "style",
    "sub",
    "sup",
    "svg",
    "table",
    "tbody",
    "td",
    "template",
    "textarea",
    "th",
    "thead",
    "time",
    "title",
    "tr",
    "u",
    "ul",
    "video",
}

/// The data range and end of a comment whose body starts at `body` (after
/// `<!--`): `<!-->` and `<!--->` are empty (§13.2.5.43–44), else the
/// comment ends at the first `-->` or `--!>` (§13.2.5.51–52), or runs to
/// the end of the input.
fn comment_end(s: &[u8], body: usize) -> (Range<usize>, usize) {
    if s[body..].starts_with(b">") {
        return (body..body, body + 1);
    }
    if s[body..].starts_with(b"->") {
        return (body..body, body + 2);
    }
    let mut i = body;
    while let Some(p) = find_seq(s, b"--", i) {
        match s.get(p + 2) {
            Some(b'>') => return (body..p, p + 3),
            Some(b'!') if s.get(p + 3) == Some(&b'>') => return (body..p, p + 4),
            _ => i = p + 1,
        }
    }
    // At the end of the input the last dashes were read as the start of
    // an end that never came (§13.2.5.50–51): not data.
    let dashes = s[body..].iter().rev().take(2).take_while(|&&b| b == b'-').count();
    (body..s.len() - dashes, s.len())
}

fn find_seq(s: &[u8], needle: &[u8], from: usize) -> Option<usize> {
    memchr::memmem::find(s.get(from..)?, needle).map(|p| from + p)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(html: &str) -> Vec<(String, String)> {
        let src = tokenize(html.to_string());
        src.tokens()
            .iter()
            .map(|t| {
                let k = match &src.kind(t) {
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
    fn every_short_common_name_is_found_in_its_slot_and_no_other() {
        for (packed, name) in SHORT_COMMON {
            assert_eq!(short_common_tag_name(*packed).as_ref(), Some(name));
            assert_eq!(pack_lower(name.as_bytes()), Some(*packed));
        }
        for other in ["spa", "divs", "x", "", "tablex", "h7", "iframes", "articles"] {
            assert_eq!(short_common_tag_name(pack(other.as_bytes())), None, "{other}");
        }
    }

    #[test]
    fn common_tag_names_are_the_atoms_of_their_names() {
        for name in [
            "a",
            "DIV",
            "Span",
            "figcaption",
            "BlockQuote",
            "h6",
            "tbody",
            "video",
            "NoScript",
            "TEXTAREA",
        ] {
            let atom = common_tag_name(name.as_bytes()).expect(name);
            assert_eq!(atom, LocalName::from(name.to_ascii_lowercase()));
        }
        // The scanner packs a name while it finds its end.
        for (tag, name) in [
            ("<DiV class=x>", "div"),
            ("<a>", "a"),
            ("<noscript/>", "noscript"),
            ("<figcaption\n", "figcaption"),
            ("<x-widget>", "x-widget"),
            ("<td", "td"),
            ("<d\u{e9}v>", "d\u{e9}v"),
            ("<Blockquotes>", "blockquotes"),
        ] {
            let scanner = Scanner::new(tag.as_bytes());
            let (atom, end) = scanner.tag_name(1);
            assert_eq!((&*atom, end), (name, 1 + name.len()), "{tag}");
            let (_, packed) = tag_name_end_packed(tag.as_bytes(), 1);
            if name.len() <= 8 {
                assert_eq!(pack_lower(&tag.as_bytes()[1..end]), lowercase_packed(packed), "{tag}");
            }
        }
        for other in
            ["x-widget", "dialog", "divs", "", "blockquotes", "div\0", "dív", "d\u{130}v", "Div/"]
        {
            assert_eq!(common_tag_name(other.as_bytes()), None, "{other}");
        }
    }
}
