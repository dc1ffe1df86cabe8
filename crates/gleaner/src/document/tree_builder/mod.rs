//! gleaner's own HTML tree construction (WHATWG §13.2.4–13.2.6), an
//! opt-in replacement for html5ever's `TreeBuilder` behind the same
//! contract: it consumes html5ever [`Token`]s, answers the
//! [`TokenSinkResult`] that tells the scanner in which state to read the
//! next token, and drives [`ArenaSink`] through markup5ever's
//! [`TreeSink`] calls.
//!
//! What makes it cheaper than html5ever's (issue 12): the stack of open
//! elements holds each element's handle, namespace, name and a bit set of
//! the element classes the algorithms ask about ([`class`]), computed once
//! when the element is pushed; so scope checks, "generate implied end
//! tags" and "reset the insertion mode" never ask the sink for a name.
//! Tag names are static atoms compared as integers.
//!
//! Split by insertion-mode groups: `in_head` (initial to after head, and
//! text), `in_body`, `adoption` (the adoption agency algorithm),
//! `tables`, `select`, `foreign`, `template`, `after` (after body, the
//! frameset modes) and `quirks` (the DOCTYPE's quirks mode). Fragment
//! parsing is not implemented: `Document::parse` never has a context
//! element.

mod adoption;
mod after;
mod foreign;
mod in_body;
mod in_head;
mod quirks;
mod select;
mod tables;
mod template;
#[cfg(test)]
mod tests;

use html5ever::tendril::StrTendril;
use html5ever::tokenizer::states::RawKind;
use html5ever::tokenizer::{Doctype, TagKind, TokenSinkResult};
use html5ever::tree_builder::{NodeOrText, QuirksMode, TreeSink};
use markup5ever::interface::Tracer;
use markup5ever::{local_name, LocalName};

use super::sink::{ArenaSink, ElementNs};
use super::TagAttributes;

/// A token as the tree builder takes it: html5ever's, but a start tag
/// carries its attributes as a [`TagAttributes`] list (issue 12: no
/// string object per value). The variants keep html5ever's names.
#[derive(Debug)]
#[allow(clippy::enum_variant_names)]
pub(crate) enum Token {
    DoctypeToken(Doctype),
    TagToken(Tag),
    CommentToken(StrTendril),
    CharacterTokens(StrTendril),
    NullCharacterToken,
    EOFToken,
    /// The tokenizer's parse errors, which change nothing.
    ParseError,
}

/// A tag token (see [`Token`]).
#[derive(Debug, Clone)]
pub(crate) struct Tag {
    pub kind: TagKind,
    pub name: LocalName,
    pub self_closing: bool,
    pub attrs: TagAttributes,
}

impl From<html5ever::tokenizer::Token> for Token {
    fn from(token: html5ever::tokenizer::Token) -> Token {
        use html5ever::tokenizer::Token as T;
        match token {
            T::DoctypeToken(d) => Token::DoctypeToken(d),
            T::TagToken(t) => Token::TagToken(Tag {
                kind: t.kind,
                name: t.name,
                self_closing: t.self_closing,
                attrs: TagAttributes::from_html5ever(&t.attrs),
            }),
            T::CommentToken(c) => Token::CommentToken(c),
            T::CharacterTokens(c) => Token::CharacterTokens(c),
            T::NullCharacterToken => Token::NullCharacterToken,
            T::EOFToken => Token::EOFToken,
            T::ParseError(_) => Token::ParseError,
        }
    }
}

/// The insertion modes (§13.2.4.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mode {
    Initial,
    BeforeHtml,
    BeforeHead,
    InHead,
    InHeadNoscript,
    AfterHead,
    InBody,
    Text,
    InTable,
    InTableText,
    InCaption,
    InColumnGroup,
    InTableBody,
    InRow,
    InCell,
    InTemplate,
    AfterBody,
    InFrameset,
    AfterFrameset,
    AfterAfterBody,
    AfterAfterFrameset,
}

/// Element classes, as bits of [`Open::class`] (§13.2.4.2, §13.2.6).
pub(crate) mod class {
    /// The "special" category.
    pub const SPECIAL: u16 = 1;
    /// Ends the default scope ("has an element in scope").
    pub const SCOPE: u16 = 1 << 1;
    /// `ol`, `ul`: also end list item scope.
    pub const LIST: u16 = 1 << 2;
    /// `button`: also ends button scope.
    pub const BUTTON: u16 = 1 << 3;
    /// `html`, `table`, `template`: end table scope, and are the table
    /// context the stack is cleared back to.
    pub const TABLE: u16 = 1 << 4;
    /// Closed by "generate implied end tags".
    pub const IMPLIED: u16 = 1 << 5;
    /// Closed by "generate all implied end tags thoroughly".
    pub const THOROUGH: u16 = 1 << 6;
    /// An HTML integration point.
    pub const HTML_POINT: u16 = 1 << 7;
    /// A MathML text integration point.
    pub const MATHML_TEXT_POINT: u16 = 1 << 8;
    /// `tbody`, `tfoot`, `thead`, `template`, `html`: the table body
    /// context.
    pub const BODY_CONTEXT: u16 = 1 << 9;
    /// `tr`, `template`, `html`: the table row context.
    pub const ROW_CONTEXT: u16 = 1 << 10;
    /// A formatting element (§13.2.4.3).
    pub const FORMATTING: u16 = 1 << 11;
    /// `h1`–`h6`.
    pub const HEADING: u16 = 1 << 12;
    /// `table`, `tbody`, `tfoot`, `thead`, `tr`: text and misplaced
    /// content in them is foster-parented (§13.2.6.1).
    pub const FOSTERS: u16 = 1 << 13;
    /// A void element (WHATWG §13.1.2, [`is_void`](crate::document::tags::is_void)):
    /// its start tag opens nothing. No algorithm of the tree builder asks;
    /// the tree feed does, with the same look-up as for
    /// [`FORMATTING`].
    pub const VOID: u16 = 1 << 14;
}

/// Is `name` a formatting element (§13.2.4.3)?
pub(crate) fn is_formatting(name: &LocalName) -> bool {
    html_class(name) & class::FORMATTING != 0
}

/// Start tags that the "in body", "after head" and "in template"
/// insertion modes hand to the rules for "in head" (WHATWG §13.2.6.4.7,
/// §13.2.6.4.6, §13.2.6.4.18: "a start tag whose tag name is one of:
/// base, basefont, bgsound, link, meta, noframes, script, style,
/// template, title").
fn is_head_content(name: &LocalName) -> bool {
    matches!(
        *name,
        local_name!("base")
            | local_name!("basefont")
            | local_name!("bgsound")
            | local_name!("link")
            | local_name!("meta")
            | local_name!("noframes")
            | local_name!("script")
            | local_name!("style")
            | local_name!("template")
            | local_name!("title")
    )
}

/// The classes of an HTML element named `name`.
pub(crate) fn html_class(name: &LocalName) -> u16 {
    use class::*;
    match *name {
        local_name!("html") => SPECIAL | SCOPE | TABLE | BODY_CONTEXT | ROW_CONTEXT,
        local_name!("table") => SPECIAL | SCOPE | TABLE | FOSTERS,
        local_name!("template") => SPECIAL | SCOPE | TABLE | BODY_CONTEXT | ROW_CONTEXT,
        local_name!("td") | local_name!("th") => SPECIAL | SCOPE | THOROUGH,
        local_name!("caption") => SPECIAL | SCOPE | THOROUGH,
        local_name!("applet") | local_name!("marquee") | local_name!("object") => SPECIAL | SCOPE,
        local_name!("ol") | local_name!("ul") => SPECIAL | LIST,
        local_name!("button") => SPECIAL | BUTTON,
        // Customizable select (2025): a select ends the default scope.
        local_name!("select") => SPECIAL | SCOPE,
        local_name!("tbody") | local_name!("tfoot") | local_name!("thead") => {
            SPECIAL | THOROUGH | BODY_CONTEXT | FOSTERS
        }
        local_name!("tr") => SPECIAL | THOROUGH | ROW_CONTEXT | FOSTERS,
        local_name!("colgroup") => SPECIAL | THOROUGH,
        local_name!("dd")
        | local_name!("dt")
        | local_name!("li")
        | local_name!("optgroup")
        | local_name!("option")
        | local_name!("p") => {
            let implied = IMPLIED | THOROUGH;
            match *name {
                local_name!("optgroup") | local_name!("option") => implied,
                _ => SPECIAL | implied,
            }
        }
        local_name!("rb") | local_name!("rp") | local_name!("rt") | local_name!("rtc") => {
            IMPLIED | THOROUGH
        }
        local_name!("h1")
        | local_name!("h2")
        | local_name!("h3")
        | local_name!("h4")
        | local_name!("h5")
        | local_name!("h6") => SPECIAL | HEADING,
        local_name!("a")
        | local_name!("b")
        | local_name!("big")
        | local_name!("code")
        | local_name!("em")
        | local_name!("font")
        | local_name!("i")
        | local_name!("nobr")
        | local_name!("s")
        | local_name!("small")
        | local_name!("strike")
        | local_name!("strong")
        | local_name!("tt")
        | local_name!("u") => FORMATTING,
        local_name!("area")
        | local_name!("base")
        | local_name!("basefont")
        | local_name!("bgsound")
        | local_name!("br")
        | local_name!("col")
        | local_name!("embed")
        | local_name!("frame")
        | local_name!("hr")
        | local_name!("img")
        | local_name!("input")
        | local_name!("keygen")
        | local_name!("link")
        | local_name!("meta")
        | local_name!("param")
        | local_name!("source")
        | local_name!("track")
        | local_name!("wbr") => SPECIAL | VOID,
        local_name!("address")
        | local_name!("article")
        | local_name!("aside")
        | local_name!("blockquote")
        | local_name!("body")
        | local_name!("center")
        | local_name!("details")
        | local_name!("dir")
        | local_name!("div")
        | local_name!("dl")
        | local_name!("fieldset")
        | local_name!("figcaption")
        | local_name!("figure")
        | local_name!("footer")
        | local_name!("form")
        | local_name!("frameset")
        | local_name!("head")
        | local_name!("header")
        | local_name!("hgroup")
        | local_name!("iframe")
        | local_name!("listing")
        | local_name!("main")
        | local_name!("menu")
        | local_name!("nav")
        | local_name!("noembed")
        | local_name!("noframes")
        | local_name!("noscript")
        | local_name!("plaintext")
        | local_name!("pre")
        | local_name!("script")
        | local_name!("search")
        | local_name!("section")
        | local_name!("style")
        | local_name!("summary")
        | local_name!("textarea")
        | local_name!("title")
        | local_name!("xmp") => SPECIAL,
        _ => 0,
    }
}

/// The classes of a foreign element (§13.2.4.2 "special", the scopes,
/// §13.2.6 integration points); `html_point`: a MathML `annotation-xml`
/// whose encoding makes it an HTML integration point.
fn foreign_class(ns: ElementNs, name: &LocalName, html_point: bool) -> u16 {
    use class::*;
    match (ns, name) {
        (
            ElementNs::MathMl,
            &local_name!("mi")
            | &local_name!("mo")
            | &local_name!("mn")
            | &local_name!("ms")
            | &local_name!("mtext"),
        ) => SPECIAL | SCOPE | MATHML_TEXT_POINT,
        (ElementNs::MathMl, &local_name!("annotation-xml")) => {
            SPECIAL | SCOPE | if html_point { HTML_POINT } else { 0 }
        }
        (
            ElementNs::Svg,
            &local_name!("foreignObject") | &local_name!("desc") | &local_name!("title"),
        ) => SPECIAL | SCOPE | HTML_POINT,
        _ => 0,
    }
}

/// One entry of the stack of open elements.
#[derive(Debug, Clone)]
pub(crate) struct Open {
    pub node: u32,
    pub ns: ElementNs,
    pub name: LocalName,
    /// The element's [`class`] bits.
    pub class: u16,
}

impl Open {
    /// True if this is the HTML element `name`.
    #[inline]
    fn is(&self, name: &LocalName) -> bool {
        self.ns == ElementNs::Html && self.name == *name
    }

    #[inline]
    fn has(&self, bits: u16) -> bool {
        self.class & bits != 0
    }
}

/// An entry of the list of active formatting elements (§13.2.4.3): a
/// marker, or an element and its name. Its token's attributes are the
/// element's own in the document's table, which an element re-created
/// for it shares ([`OwnTreeBuilder::create_like`]).
#[derive(Debug, Clone)]
pub(crate) enum Active {
    Marker,
    Element { node: u32, name: LocalName },
}

/// Where a node goes ("appropriate place for inserting a node",
/// §13.2.6.1).
#[derive(Debug, Clone, Copy)]
enum Place {
    /// As the last child of this node.
    Append(u32),
    /// Foster-parented: before `table` if it has a parent, else as the last
    /// child of `prev` (the element below the table in the stack).
    Foster { table: u32, prev: u32 },
}

/// The scopes of "has an element in scope" (§13.2.4.2), as the class bits
/// that end them.
#[derive(Debug, Clone, Copy)]
enum Scope {
    Default,
    ListItem,
    Button,
    Table,
}

impl Scope {
    fn boundary(self) -> u16 {
        match self {
            Scope::Default => class::SCOPE,
            Scope::ListItem => class::SCOPE | class::LIST,
            Scope::Button => class::SCOPE | class::BUTTON,
            Scope::Table => class::TABLE,
        }
    }
}

/// gleaner's tree builder (see the [module docs](self)).
pub(crate) struct OwnTreeBuilder {
    pub sink: ArenaSink,
    mode: Mode,
    /// The original insertion mode (for text and table text).
    original: Mode,
    /// The stack of template insertion modes.
    template_modes: Vec<Mode>,
    /// The stack of open elements, the first is `html`.
    open: Vec<Open>,
    active: Vec<Active>,
    head: Option<u32>,
    form: Option<u32>,
    frameset_ok: bool,
    scripting: bool,
    quirks: QuirksMode,
    /// The pending table character tokens (§13.2.6.4.10).
    table_text: Vec<StrTendril>,
    /// A newline right after `<pre>`, `<listing>`, `<textarea>` is dropped.
    ignore_lf: bool,
    /// Insertions into tables are foster-parented (§13.2.6.1).
    foster: bool,
    /// The last name [`OwnTreeBuilder::html_class`] was asked about and
    /// its classes: the feed asks about a start tag's name before the
    /// element is made, which then needs no second look-up.
    last_class: (LocalName, u16),
    /// False only when no HTML `p` element is open: set when one is
    /// made, cleared when [`OwnTreeBuilder::close_p_in_button_scope`]
    /// finds none on the stack (issue 12: most block start tags ask, and
    /// most find none).
    p_maybe_open: bool,
}

/// True for the whitespace of §13.2.6 ("character tokens that are one of
/// U+0009, U+000A, U+000C, U+000D, U+0020").
#[inline]
fn is_space(b: u8) -> bool {
    matches!(b, b'\t' | b'\n' | b'\x0c' | b'\r' | b' ')
}

/// The length of `text`'s leading whitespace.
fn space_prefix(text: &str) -> usize {
    text.bytes().position(|b| !is_space(b)).unwrap_or(text.len())
}

/// A tag token with no attributes.
fn bare_tag(kind: TagKind, name: LocalName) -> Tag {
    Tag { kind, name, self_closing: false, attrs: TagAttributes::default() }
}

/// The value of attribute `name` of `tag`.
fn attr<'a>(tag: &'a Tag, name: &LocalName) -> Option<&'a str> {
    tag.attrs.get(name)
}

type Result = TokenSinkResult<u32>;

const DONE: Result = TokenSinkResult::Continue;

impl OwnTreeBuilder {
    pub(crate) fn new(sink: ArenaSink, scripting: bool) -> OwnTreeBuilder {
        OwnTreeBuilder {
            sink,
            mode: Mode::Initial,
            original: Mode::Initial,
            template_modes: Vec::new(),
            open: Vec::with_capacity(64),
            active: Vec::with_capacity(16),
            head: None,
            form: None,
            frameset_ok: true,
            scripting,
            quirks: QuirksMode::NoQuirks,
            table_text: Vec::new(),
            ignore_lf: false,
            foster: false,
            last_class: (local_name!("html"), html_class(&local_name!("html"))),
            p_maybe_open: true,
        }
    }

    /// [`html_class`] of `name`, remembered for the next look-up of the
    /// same name (a name's classes never change).
    pub(crate) fn html_class(&mut self, name: &LocalName) -> u16 {
        if self.last_class.0 != *name {
            self.last_class = (name.clone(), html_class(name));
        }
        self.last_class.1
    }

    /// The handles the builder holds, as html5ever's `trace_handles`
    /// reports them: the document, the open elements, the active
    /// formatting elements, the head and form pointers.
    pub(crate) fn trace_handles(&self, tracer: &dyn Tracer<Handle = u32>) {
        tracer.trace_handle(&0);
        for e in &self.open {
            tracer.trace_handle(&e.node);
        }
        for a in &self.active {
            if let Active::Element { node, .. } = a {
                tracer.trace_handle(node);
            }
        }
        if let Some(h) = &self.head {
            tracer.trace_handle(h);
        }
        if let Some(f) = &self.form {
            tracer.trace_handle(f);
        }
    }

    /// The handles [`OwnTreeBuilder::trace_handles`] reports, counted
    /// without the sink: `(others, formatting elements)`, a formatting
    /// element once for each place it is held (the stack and the list).
    pub(crate) fn held_handles(&self) -> (usize, usize) {
        let open_formatting = self.open.iter().filter(|e| e.has(class::FORMATTING)).count();
        let listed = self.active.iter().filter(|a| matches!(a, Active::Element { .. })).count();
        let others = 1 + self.open.len() - open_formatting
            + usize::from(self.head.is_some())
            + usize::from(self.form.is_some());
        (others, open_formatting + listed)
    }

    /// True if the adjusted current node is not an HTML element (the
    /// tokenizer reads `<![CDATA[` as a CDATA section then).
    pub(crate) fn adjusted_current_node_present_but_not_in_html_namespace(&self) -> bool {
        self.open.last().is_some_and(|e| e.ns != ElementNs::Html)
    }

    /// The end of the input has been processed.
    pub(crate) fn end(&mut self) {
        self.open.clear();
        self.active.clear();
    }

    /// Processes one token (§13.2.6 "tree construction dispatcher").
    pub(crate) fn process_token(&mut self, mut token: Token) -> Result {
        // The token is changed in place, not moved into a new one.
        if std::mem::replace(&mut self.ignore_lf, false) {
            if let Token::CharacterTokens(text) = &mut token {
                if text.starts_with('\n') {
                    text.pop_front(1);
                    if text.is_empty() {
                        return DONE;
                    }
                }
            }
        }
        if self.in_foreign_content(&token) {
            self.foreign_content(token)
        } else if self.mode == Mode::InBody {
            // Where most tokens go: straight there, the token not moved
            // through the dispatch on every mode.
            match token {
                Token::TagToken(tag) if tag.kind == TagKind::StartTag => self.body_start_tag(tag),
                Token::TagToken(tag) => self.body_end_tag(tag),
                token => self.in_body(token),
            }
        } else {
            self.step(self.mode, token)
        }
    }

    /// Processes a tag token as [`OwnTreeBuilder::process_token`] would;
    /// a tag in body with an HTML current node (most tags) goes straight
    /// to its rules, not wrapped in a token.
    pub(crate) fn process_tag(&mut self, tag: Tag) -> Result {
        let html_current = self.open.last().is_none_or(|e| e.ns == ElementNs::Html);
        if self.mode != Mode::InBody || !html_current {
            return self.process_token(Token::TagToken(tag));
        }
        // Not a newline to drop (§13.2.6.4.7 "pre"): that is for the
        // next token only.
        self.ignore_lf = false;
        if tag.kind == TagKind::StartTag {
            self.body_start_tag(tag)
        } else {
            self.body_end_tag(tag)
        }
    }

    /// An end tag `name`, processed as [`OwnTreeBuilder::process_tag`]
    /// would process its tag token. The most common case is done here
    /// without making the token (issue 12): "in body", the current node
    /// is an HTML element `name` that the end tag only pops —
    ///
    /// - a formatting element that is the last entry of the list of
    ///   active formatting elements: the adoption agency (§13.2.6.4.7)
    ///   finds it there, open and in scope, with no furthest block, and
    ///   pops it off the stack and the list;
    /// - any other element but those with rules of their own (`template`,
    ///   `body`, `html`, `form`, `applet`, `marquee`, `object`): its name
    ///   is in scope (the current node ends every scope), no implied end
    ///   tag is generated above it, and popping to it pops it.
    ///
    /// Everything else goes through [`OwnTreeBuilder::process_tag`].
    pub(crate) fn process_end_tag(&mut self, name: &LocalName) -> Result {
        if self.mode == Mode::InBody {
            if let Some(current) = self.open.last() {
                if current.is(name) {
                    let formatting = current.has(class::FORMATTING);
                    let pops = if formatting {
                        matches!(self.active.last(),
                            Some(Active::Element { node, .. }) if *node == current.node)
                    } else {
                        !matches!(
                            *name,
                            local_name!("template")
                                | local_name!("body")
                                | local_name!("html")
                                | local_name!("form")
                                | local_name!("applet")
                                | local_name!("marquee")
                                | local_name!("object")
                        )
                    };
                    if pops {
                        // As in `process_tag`: a newline to drop is for the
                        // token right after `<pre>` only.
                        self.ignore_lf = false;
                        self.open.pop();
                        if formatting {
                            self.active.pop();
                        }
                        return DONE;
                    }
                }
            }
        }
        self.process_tag(bare_tag(TagKind::EndTag, name.clone()))
    }

    /// A character token of `text` where most are read — "in body", in a
    /// table cell or caption (which hand characters to "in body",
    /// §13.2.6.4.15, §13.2.6.4.11), or the text of an RCDATA element
    /// (§13.2.6.4.8) — with an HTML current node and no newline to drop
    /// after `<pre>`: processed as [`OwnTreeBuilder::process_token`]
    /// would, without making the token. False, with nothing done,
    /// anywhere else. `text` must be the token's text as the tokenizer
    /// makes it (no character reference, CR or NUL to preprocess).
    pub(crate) fn plain_characters(&mut self, text: &str) -> bool {
        let html_current = self.open.last().is_some_and(|e| e.ns == ElementNs::Html);
        if text.is_empty() || self.ignore_lf || !html_current {
            return false;
        }
        match self.mode {
            Mode::InBody | Mode::InCell | Mode::InCaption => self.body_text(text),
            Mode::Text => self.insert_text(text),
            _ => return false,
        }
        true
    }

    /// True if `token` is processed by the rules for foreign content.
    fn in_foreign_content(&self, token: &Token) -> bool {
        let Some(current) = self.open.last() else { return false };
        if current.ns == ElementNs::Html {
            return false;
        }
        match token {
            Token::EOFToken => false,
            Token::TagToken(tag) if tag.kind == TagKind::StartTag => {
                if current.has(class::MATHML_TEXT_POINT)
                    && !matches!(tag.name, local_name!("mglyph") | local_name!("malignmark"))
                {
                    return false;
                }
                if current.ns == ElementNs::MathMl
                    && current.name == local_name!("annotation-xml")
                    && tag.name == local_name!("svg")
                {
                    return false;
                }
                !current.has(class::HTML_POINT)
            }
            Token::CharacterTokens(_) | Token::NullCharacterToken => {
                !current.has(class::MATHML_TEXT_POINT | class::HTML_POINT)
            }
            _ => true,
        }
    }

    /// Processes `token` by the rules of insertion mode `mode`.
    fn step(&mut self, mode: Mode, token: Token) -> Result {
        match mode {
            Mode::Initial => self.initial(token),
            Mode::BeforeHtml => self.before_html(token),
            Mode::BeforeHead => self.before_head(token),
            Mode::InHead => self.in_head(token),
            Mode::InHeadNoscript => self.in_head_noscript(token),
            Mode::AfterHead => self.after_head(token),
            Mode::InBody => self.in_body(token),
            Mode::Text => self.text(token),
            Mode::InTable => self.in_table(token),
            Mode::InTableText => self.in_table_text(token),
            Mode::InCaption => self.in_caption(token),
            Mode::InColumnGroup => self.in_column_group(token),
            Mode::InTableBody => self.in_table_body(token),
            Mode::InRow => self.in_row(token),
            Mode::InCell => self.in_cell(token),
            Mode::InTemplate => self.in_template(token),
            Mode::AfterBody => self.after_body(token),
            Mode::InFrameset => self.in_frameset(token),
            Mode::AfterFrameset => self.after_frameset(token),
            Mode::AfterAfterBody => self.after_after_body(token),
            Mode::AfterAfterFrameset => self.after_after_frameset(token),
        }
    }

    /// Splits a character token's leading whitespace off: `on_space` gets
    /// it, the rest (if any) is processed by `rest`.
    fn split_space(
        &mut self,
        mut text: StrTendril,
        on_space: impl FnOnce(&mut Self, StrTendril),
        rest: impl FnOnce(&mut Self, Token) -> Result,
    ) -> Result {
        let n = space_prefix(&text);
        if n > 0 {
            if n == text.len() {
                on_space(self, text);
                return DONE;
            }
            let space = text.subtendril(0, n as u32);
            text.pop_front(n as u32);
            on_space(self, space);
        }
        rest(self, Token::CharacterTokens(text))
    }

    // ----- the stack of open elements -----

    fn current(&self) -> Option<&Open> {
        self.open.last()
    }

    /// True if the current node is the HTML element `name`.
    fn current_is(&self, name: &LocalName) -> bool {
        self.open.last().is_some_and(|e| e.is(name))
    }

    fn pop(&mut self) {
        self.open.pop();
    }

    /// Pops elements until the HTML element `name` has been popped.
    fn pop_until(&mut self, name: &LocalName) {
        while let Some(e) = self.open.pop() {
            if e.is(name) {
                break;
            }
        }
    }

    /// Pops elements until one with a class in `bits` (an HTML element)
    /// has been popped.
    fn pop_until_class(&mut self, bits: u16) {
        while let Some(e) = self.open.pop() {
            if e.ns == ElementNs::Html && e.has(bits) {
                break;
            }
        }
    }

    /// The position of `node` in the stack.
    fn position_in_stack(&self, node: u32) -> Option<usize> {
        self.open.iter().rposition(|e| e.node == node)
    }

    /// True if an HTML element `name` is open.
    fn is_open(&self, name: &LocalName) -> bool {
        self.open.iter().rev().any(|e| e.is(name))
    }

    /// "Has an element in scope" for the HTML element `name`.
    fn in_scope(&self, name: &LocalName, scope: Scope) -> bool {
        let boundary = scope.boundary();
        for e in self.open.iter().rev() {
            if e.is(name) {
                return true;
            }
            if e.has(boundary) {
                return false;
            }
        }
        false
    }

    /// "Has an element in scope" for any HTML element with a class in
    /// `bits`.
    fn class_in_scope(&self, bits: u16, scope: Scope) -> bool {
        let boundary = scope.boundary();
        for e in self.open.iter().rev() {
            if e.ns == ElementNs::Html && e.has(bits) {
                return true;
            }
            if e.has(boundary) {
                return false;
            }
        }
        false
    }

    /// "Has an element in scope" for the element `node`.
    fn node_in_scope(&self, node: u32, scope: Scope) -> bool {
        let boundary = scope.boundary();
        for e in self.open.iter().rev() {
            if e.node == node {
                return true;
            }
            if e.has(boundary) {
                return false;
            }
        }
        false
    }

    /// "Generate implied end tags", except for the HTML element `except`.
    fn generate_implied_end_tags(&mut self, except: Option<&LocalName>) {
        while let Some(e) = self.open.last() {
            if e.ns != ElementNs::Html || !e.has(class::IMPLIED) || Some(&e.name) == except {
                break;
            }
            self.open.pop();
        }
    }

    /// "Generate all implied end tags thoroughly".
    fn generate_implied_end_tags_thoroughly(&mut self) {
        while let Some(e) = self.open.last() {
            if e.ns != ElementNs::Html || !e.has(class::THOROUGH) {
                break;
            }
            self.open.pop();
        }
    }

    /// "Close a p element" if a `p` is in button scope (§13.2.6.4.7).
    /// Skipped while no `p` is open ([`OwnTreeBuilder::p_maybe_open`]);
    /// else one walk of the stack says whether one is in scope or, if
    /// none is open at all, that none is.
    fn close_p_in_button_scope(&mut self) {
        if !self.p_maybe_open {
            return;
        }
        let boundary = Scope::Button.boundary();
        let mut in_scope = true;
        let mut found = None;
        for e in self.open.iter().rev() {
            if e.is(&local_name!("p")) {
                found = Some(in_scope);
                break;
            }
            if e.has(boundary) {
                in_scope = false;
            }
        }
        match found {
            Some(true) => self.close_p(),
            Some(false) => {}
            None => self.p_maybe_open = false,
        }
    }

    /// "Close a p element".
    fn close_p(&mut self) {
        self.generate_implied_end_tags(Some(&local_name!("p")));
        self.pop_until(&local_name!("p"));
    }

    /// "Reset the insertion mode appropriately" (§13.2.4.1).
    fn reset_insertion_mode(&mut self) {
        for (i, e) in self.open.iter().enumerate().rev() {
            let last = i == 0;
            if e.ns != ElementNs::Html {
                if last {
                    break;
                }
                continue;
            }
            let mode = match e.name {
                local_name!("td") | local_name!("th") if !last => Mode::InCell,
                local_name!("tr") => Mode::InRow,
                local_name!("tbody") | local_name!("thead") | local_name!("tfoot") => {
                    Mode::InTableBody
                }
                local_name!("caption") => Mode::InCaption,
                local_name!("colgroup") => Mode::InColumnGroup,
                local_name!("table") => Mode::InTable,
                local_name!("template") => {
                    self.template_modes.last().copied().unwrap_or(Mode::InBody)
                }
                local_name!("head") if !last => Mode::InHead,
                local_name!("body") => Mode::InBody,
                local_name!("frameset") => Mode::InFrameset,
                local_name!("html") => {
                    if self.head.is_none() {
                        Mode::BeforeHead
                    } else {
                        Mode::AfterHead
                    }
                }
                _ if last => Mode::InBody,
                _ => continue,
            };
            self.mode = mode;
            return;
        }
        self.mode = Mode::InBody;
    }

    // ----- creating and inserting nodes -----

    /// "Create an element for the token" in namespace `ns`.
    fn create_element(&mut self, ns: ElementNs, name: LocalName, attrs: &TagAttributes) -> Open {
        let mut template = false;
        // The namespace the element is made in: any other than SVG and
        // MathML is HTML.
        let namespace = match ns {
            ElementNs::Svg | ElementNs::MathMl => ns,
            _ => ElementNs::Html,
        };
        let class = if ns == ElementNs::Html {
            template = name == local_name!("template");
            if name == local_name!("p") {
                self.p_maybe_open = true;
            }
            self.html_class(&name)
        } else {
            let html_point = ns == ElementNs::MathMl
                && name == local_name!("annotation-xml")
                && attrs.get(&local_name!("encoding")).is_some_and(|v| {
                    v.eq_ignore_ascii_case("text/html")
                        || v.eq_ignore_ascii_case("application/xhtml+xml")
                });
            foreign_class(ns, &name, html_point)
        };
        let node = self.sink.create_tag_element(namespace, &name, attrs, template);
        Open { node, ns, name, class }
    }

    /// "Create an element for the token" of HTML formatting element
    /// `like`, which the list of active formatting elements re-creates
    /// (§13.2.4.3, §13.2.6.4.7 adoption agency): the new element shares
    /// `like`'s attributes in the document's table.
    fn create_like(&mut self, name: LocalName, like: u32) -> Open {
        let class = self.html_class(&name);
        let node = self.sink.create_element_like(&name, like);
        Open { node, ns: ElementNs::Html, name, class }
    }

    /// "The appropriate place for inserting a node", with `target` the
    /// override target (a position in the stack) or the current node.
    /// Inlined for the common case, no foster parenting and no template
    /// (issue 12); the others in [`OwnTreeBuilder::place_at`].
    #[inline]
    fn place(&self, target: Option<usize>) -> Place {
        let index = target.unwrap_or(self.open.len().saturating_sub(1));
        match self.open.get(index) {
            Some(t) if !self.foster && !t.is(&local_name!("template")) => Place::Append(t.node),
            _ => self.place_at(index),
        }
    }

    /// [`OwnTreeBuilder::place`] with the target at position `index` of
    /// the stack.
    #[inline(never)]
    fn place_at(&self, index: usize) -> Place {
        let Some(t) = self.open.get(index) else { return Place::Append(0) };
        if self.foster && t.ns == ElementNs::Html && t.has(class::FOSTERS) {
            let last_template = self.open.iter().rposition(|e| e.is(&local_name!("template")));
            let last_table = self.open.iter().rposition(|e| e.is(&local_name!("table")));
            match (last_template, last_table) {
                (Some(tp), tb) if tb.is_none_or(|tb| tp > tb) => {
                    return Place::Append(self.contents(tp));
                }
                (_, None) => return Place::Append(self.open.first().map_or(0, |e| e.node)),
                (_, Some(tb)) => {
                    let prev = if tb > 0 { self.open[tb - 1].node } else { 0 };
                    return Place::Foster { table: self.open[tb].node, prev };
                }
            }
        }
        Place::Append(self.contents(index))
    }

    /// The node children of stack entry `index` go into: a template's
    /// content, else the element.
    fn contents(&self, index: usize) -> u32 {
        match self.open.get(index) {
            Some(e) if e.is(&local_name!("template")) => self.sink.get_template_contents(&e.node),
            Some(e) => e.node,
            None => 0,
        }
    }

    fn insert_at(&self, place: Place, child: NodeOrText<u32>) {
        match place {
            Place::Append(parent) => self.sink.append(&parent, child),
            Place::Foster { table, prev } => {
                self.sink.append_based_on_parent_node(&table, &prev, child)
            }
        }
    }

    /// "Insert a foreign element" (or an HTML one): created, inserted at
    /// the appropriate place, pushed; its handle.
    fn insert_element(&mut self, ns: ElementNs, name: LocalName, attrs: &TagAttributes) -> u32 {
        let place = self.place(None);
        let open = self.create_element(ns, name, attrs);
        self.insert_open(place, open)
    }

    /// [`OwnTreeBuilder::insert_element`] for the HTML element `name`
    /// re-created for formatting element `like` ([`OwnTreeBuilder::create_like`]).
    fn insert_like(&mut self, name: LocalName, like: u32) -> u32 {
        let place = self.place(None);
        let open = self.create_like(name, like);
        self.insert_open(place, open)
    }

    /// `open`'s element inserted at `place` and pushed; its handle.
    fn insert_open(&mut self, place: Place, open: Open) -> u32 {
        let node = open.node;
        match place {
            // Most elements: no `NodeOrText` made and matched (issue 12).
            Place::Append(parent) => self.sink.append_node(parent, node),
            Place::Foster { .. } => self.insert_at(place, NodeOrText::AppendNode(node)),
        }
        self.open.push(open);
        node
    }

    /// "Insert an HTML element" for `tag`.
    fn insert_html(&mut self, tag: Tag) -> u32 {
        let node = self.insert_element(ElementNs::Html, tag.name, &tag.attrs);
        self.sink.recycle(tag.attrs);
        node
    }

    /// An HTML element for a start tag that is never open (void elements):
    /// inserted, and popped at once.
    fn insert_void(&mut self, tag: Tag) {
        self.insert_html(tag);
        self.open.pop();
    }

    /// An HTML element with no attributes, as the spec inserts for a tag
    /// the page left out.
    fn insert_implied(&mut self, name: LocalName) -> u32 {
        self.insert_element(ElementNs::Html, name, &TagAttributes::default())
    }

    /// "Insert a character".
    fn insert_text(&mut self, text: &str) {
        if text.is_empty() {
            return;
        }
        match self.place(None) {
            Place::Append(0) => {}
            Place::Append(parent) => self.sink.append_text(parent, text),
            Place::Foster { table, prev } => self.sink.foster_text(table, prev, text),
        }
    }

    /// "Insert a comment" at the appropriate place.
    fn insert_comment(&mut self, text: StrTendril) {
        let place = self.place(None);
        let comment = self.sink.create_comment(text);
        self.insert_at(place, NodeOrText::AppendNode(comment));
    }

    /// A comment as the last child of `parent`.
    fn append_comment_to(&mut self, parent: u32, text: StrTendril) {
        let comment = self.sink.create_comment(text);
        self.sink.append(&parent, NodeOrText::AppendNode(comment));
    }

    /// "Generic raw text / RCDATA element parsing algorithm" (§13.2.6.2).
    fn parse_raw(&mut self, tag: Tag, kind: RawKind) -> Result {
        self.insert_html(tag);
        self.original = self.mode;
        self.mode = Mode::Text;
        TokenSinkResult::RawData(kind)
    }

    // ----- the list of active formatting elements -----

    /// "Push onto the list of active formatting elements" (§13.2.4.3),
    /// with the Noah's Ark clause: at most three equal entries after the
    /// last marker.
    fn push_active(&mut self, node: u32, name: LocalName) {
        let mut same = 0;
        let mut earliest = None;
        for (i, entry) in self.active.iter().enumerate().rev() {
            match entry {
                Active::Marker => break,
                Active::Element { name: other, node: n } => {
                    if *other == name && self.sink.same_attributes(*n, node) {
                        same += 1;
                        earliest = Some(i);
                    }
                }
            }
        }
        if same >= 3 {
            if let Some(i) = earliest {
                self.active.remove(i);
            }
        }
        self.active.push(Active::Element { node, name });
    }

    /// "Reconstruct the active formatting elements". Inlined up to the
    /// most common case, an empty list or a marker last: nothing to do.
    #[inline]
    fn reconstruct_formatting(&mut self) {
        if let None | Some(Active::Marker) = self.active.last() {
            return;
        }
        self.reconstruct_formatting_elements();
    }

    /// [`OwnTreeBuilder::reconstruct_formatting`] with an element last
    /// in the list.
    fn reconstruct_formatting_elements(&mut self) {
        let Some(last) = self.active.last() else { return };
        let open = |builder: &Self, entry: &Active| match entry {
            Active::Marker => true,
            Active::Element { node, .. } => builder.position_in_stack(*node).is_some(),
        };
        if open(self, last) {
            return;
        }
        let mut first = self.active.len() - 1;
        while first > 0 && !open(self, &self.active[first - 1]) {
            first -= 1;
        }
        for i in first..self.active.len() {
            let Some(Active::Element { name, node: old }) = self.active.get(i) else { continue };
            let (name, old) = (name.clone(), *old);
            let node = self.insert_like(name.clone(), old);
            self.active[i] = Active::Element { node, name };
        }
    }

    /// "Clear the list of active formatting elements up to the last
    /// marker".
    fn clear_active_to_marker(&mut self) {
        while let Some(entry) = self.active.pop() {
            if let Active::Marker = entry {
                break;
            }
        }
    }

    /// The position in the active list of `node`.
    fn active_position(&self, node: u32) -> Option<usize> {
        self.active.iter().rposition(|a| matches!(a, Active::Element { node: n, .. } if *n == node))
    }
}
