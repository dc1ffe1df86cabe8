//! The "in body" insertion mode (WHATWG §13.2.6.4.7).

use html5ever::tokenizer::states::RawKind;
use html5ever::tokenizer::{TagKind, TokenSinkResult};
use html5ever::tree_builder::{QuirksMode, TreeSink};
use markup5ever::{local_name, LocalName};

use super::{
    attr, bare_tag, class, is_formatting, is_head_content, is_space, Active, Mode, OwnTreeBuilder,
    Result, Scope, Tag, Token, DONE,
};
use crate::document::sink::ElementNs;

impl OwnTreeBuilder {
    /// §13.2.6.4.7 "in body".
    pub(super) fn in_body(&mut self, token: Token) -> Result {
        match token {
            Token::NullCharacterToken => DONE,
            Token::CharacterTokens(text) => {
                self.body_text(&text);
                DONE
            }
            Token::CommentToken(text) => {
                self.insert_comment(text);
                DONE
            }
            Token::DoctypeToken(_) => DONE,
            Token::EOFToken => {
                if !self.template_modes.is_empty() {
                    return self.in_template(Token::EOFToken);
                }
                DONE
            }
            Token::TagToken(tag) if tag.kind == TagKind::StartTag => self.body_start_tag(tag),
            Token::TagToken(tag) => self.body_end_tag(tag),
            Token::ParseError => DONE,
        }
    }

    /// Characters in body: formatting reconstructed, then inserted.
    #[inline]
    pub(super) fn body_text(&mut self, text: &str) {
        self.reconstruct_formatting();
        if self.frameset_ok && !text.bytes().all(is_space) {
            self.frameset_ok = false;
        }
        self.insert_text(text);
    }

    pub(super) fn body_start_tag(&mut self, tag: Tag) -> Result {
        match tag.name {
            local_name!("html") => {
                if !self.is_open(&local_name!("template")) {
                    if let Some(html) = self.open.first() {
                        self.sink.add_tag_attrs_if_missing(&html.node, tag.attrs);
                    }
                }
                DONE
            }
            _ if is_head_content(&tag.name) => self.in_head(Token::TagToken(tag)),
            local_name!("body") => {
                let body = self.open.get(1).filter(|e| e.is(&local_name!("body"))).map(|e| e.node);
                if let Some(body) = body {
                    if !self.is_open(&local_name!("template")) {
                        self.frameset_ok = false;
                        self.sink.add_tag_attrs_if_missing(&body, tag.attrs);
                    }
                }
                DONE
            }
            local_name!("frameset") => {
                let body = self.open.get(1).filter(|e| e.is(&local_name!("body"))).map(|e| e.node);
                if let (Some(body), true) = (body, self.frameset_ok) {
                    self.sink.remove_from_parent(&body);
                    self.open.truncate(1);
                    self.insert_html(tag);
                    self.mode = Mode::InFrameset;
                }
                DONE
            }
            local_name!("address")
            | local_name!("article")
            | local_name!("aside")
            | local_name!("blockquote")
            | local_name!("center")
            | local_name!("details")
            | local_name!("dialog")
            | local_name!("dir")
            | local_name!("div")
            | local_name!("dl")
            | local_name!("fieldset")
            | local_name!("figcaption")
            | local_name!("figure")
            | local_name!("footer")
            | local_name!("header")
            | local_name!("hgroup")
            | local_name!("main")
            | local_name!("menu")
            | local_name!("nav")
            | local_name!("ol")
            | local_name!("p")
            | local_name!("search")
            | local_name!("section")
            | local_name!("summary")
            | local_name!("ul") => {
                self.close_p_in_button_scope();
                self.insert_html(tag);
                DONE
            }
            local_name!("h1")
            | local_name!("h2")
            | local_name!("h3")
            | local_name!("h4")
            | local_name!("h5")
            | local_name!("h6") => {
                self.close_p_in_button_scope();
                if self.current().is_some_and(|e| e.ns == ElementNs::Html && e.has(class::HEADING))
                {
                    self.pop();
                }
                self.insert_html(tag);
                DONE
            }
            local_name!("pre") | local_name!("listing") => {
                self.close_p_in_button_scope();
                self.insert_html(tag);
                self.ignore_lf = true;
                self.frameset_ok = false;
                DONE
            }
            local_name!("form") => {
                let in_template = self.is_open(&local_name!("template"));
                if self.form.is_some() && !in_template {
                    return DONE;
                }
                self.close_p_in_button_scope();
                let node = self.insert_html(tag);
                if !in_template {
                    self.form = Some(node);
                }
                DONE
            }
            local_name!("li") => {
                self.close_list_item(&[local_name!("li")]);
                self.insert_html(tag);
                DONE
            }
            local_name!("dd") | local_name!("dt") => {
                self.close_list_item(&[local_name!("dd"), local_name!("dt")]);
                self.insert_html(tag);
                DONE
            }
            local_name!("plaintext") => {
                self.close_p_in_button_scope();
                self.insert_html(tag);
                TokenSinkResult::Plaintext
            }
            local_name!("button") => {
                if self.in_scope(&local_name!("button"), Scope::Default) {
                    self.generate_implied_end_tags(None);
                    self.pop_until(&local_name!("button"));
                }
                self.reconstruct_formatting();
                self.insert_html(tag);
                self.frameset_ok = false;
                DONE
            }
            local_name!("a") => {
                let open_a = self.active.iter().rev().find_map(|a| match a {
                    Active::Marker => Some(None),
                    Active::Element { node, name } if *name == local_name!("a") => {
                        Some(Some(*node))
                    }
                    _ => None,
                });
                if let Some(Some(a)) = open_a {
                    self.adoption_agency(&local_name!("a"));
                    if let Some(i) = self.active_position(a) {
                        self.active.remove(i);
                    }
                    if let Some(i) = self.position_in_stack(a) {
                        self.open.remove(i);
                    }
                }
                self.insert_formatting(tag);
                DONE
            }
            local_name!("b")
            | local_name!("big")
            | local_name!("code")
            | local_name!("em")
            | local_name!("font")
            | local_name!("i")
            | local_name!("s")
            | local_name!("small")
            | local_name!("strike")
            | local_name!("strong")
            | local_name!("tt")
            | local_name!("u") => {
                self.insert_formatting(tag);
                DONE
            }
            local_name!("nobr") => {
                self.reconstruct_formatting();
                if self.in_scope(&local_name!("nobr"), Scope::Default) {
                    if !self.adoption_agency(&local_name!("nobr")) {
                        self.any_other_end_tag(&local_name!("nobr"));
                    }
                    self.reconstruct_formatting();
                }
                self.insert_formatting(tag);
                DONE
            }
            local_name!("applet") | local_name!("marquee") | local_name!("object") => {
                self.reconstruct_formatting();
                self.insert_html(tag);
                self.active.push(Active::Marker);
                self.frameset_ok = false;
                DONE
            }
            local_name!("table") => {
                if self.quirks != QuirksMode::Quirks {
                    self.close_p_in_button_scope();
                }
                self.insert_html(tag);
                self.frameset_ok = false;
                self.mode = Mode::InTable;
                DONE
            }
            local_name!("area")
            | local_name!("br")
            | local_name!("embed")
            | local_name!("img")
            | local_name!("keygen")
            | local_name!("wbr") => {
                self.reconstruct_formatting();
                self.insert_void(tag);
                self.frameset_ok = false;
                DONE
            }
            local_name!("input") => {
                self.close_select_for_input();
                let hidden = attr(&tag, &local_name!("type"))
                    .is_some_and(|t| t.eq_ignore_ascii_case("hidden"));
                self.reconstruct_formatting();
                self.insert_void(tag);
                if !hidden {
                    self.frameset_ok = false;
                }
                DONE
            }
            local_name!("param") | local_name!("source") | local_name!("track") => {
                self.insert_void(tag);
                DONE
            }
            local_name!("hr") => {
                self.close_p_in_button_scope();
                self.close_options_for_hr();
                self.insert_void(tag);
                self.frameset_ok = false;
                DONE
            }
            local_name!("image") => self.body_start_tag(Tag { name: local_name!("img"), ..tag }),
            local_name!("textarea") => {
                self.ignore_lf = true;
                self.frameset_ok = false;
                self.parse_raw(tag, RawKind::Rcdata)
            }
            local_name!("xmp") => {
                self.close_p_in_button_scope();
                self.reconstruct_formatting();
                self.frameset_ok = false;
                self.parse_raw(tag, RawKind::Rawtext)
            }
            local_name!("iframe") => {
                self.frameset_ok = false;
                self.parse_raw(tag, RawKind::Rawtext)
            }
            local_name!("noembed") => self.parse_raw(tag, RawKind::Rawtext),
            local_name!("noscript") if self.scripting => self.parse_raw(tag, RawKind::Rawtext),
            local_name!("select") => {
                self.start_select(tag);
                DONE
            }
            local_name!("option") => {
                self.start_option(tag);
                DONE
            }
            local_name!("optgroup") => {
                self.start_optgroup(tag);
                DONE
            }
            local_name!("rb") | local_name!("rtc") => {
                if self.in_scope(&local_name!("ruby"), Scope::Default) {
                    self.generate_implied_end_tags(None);
                }
                self.insert_html(tag);
                DONE
            }
            local_name!("rp") | local_name!("rt") => {
                if self.in_scope(&local_name!("ruby"), Scope::Default) {
                    self.generate_implied_end_tags(Some(&local_name!("rtc")));
                }
                self.insert_html(tag);
                DONE
            }
            local_name!("math") => {
                self.reconstruct_formatting();
                self.insert_foreign_start(tag, ElementNs::MathMl);
                DONE
            }
            local_name!("svg") => {
                self.reconstruct_formatting();
                self.insert_foreign_start(tag, ElementNs::Svg);
                DONE
            }
            local_name!("caption")
            | local_name!("col")
            | local_name!("colgroup")
            | local_name!("frame")
            | local_name!("head")
            | local_name!("tbody")
            | local_name!("td")
            | local_name!("tfoot")
            | local_name!("th")
            | local_name!("thead")
            | local_name!("tr") => DONE,
            _ => {
                self.reconstruct_formatting();
                self.insert_html(tag);
                DONE
            }
        }
    }

    /// A formatting start tag: formatting reconstructed, the element
    /// inserted and pushed onto the list of active formatting elements.
    fn insert_formatting(&mut self, tag: Tag) {
        self.reconstruct_formatting();
        let name = tag.name.clone();
        let node = self.insert_html(tag);
        self.push_active(node, name);
    }

    /// The loop of `<li>`, `<dd>`, `<dt>`: the nearest open list item of
    /// `names` is closed unless a special element other than `address`,
    /// `div`, `p` comes first; then an open `p` is closed.
    fn close_list_item(&mut self, names: &[LocalName]) {
        self.frameset_ok = false;
        let mut close = None;
        for e in self.open.iter().rev() {
            if e.ns == ElementNs::Html && names.contains(&e.name) {
                close = Some(e.name.clone());
                break;
            }
            if e.has(class::SPECIAL)
                && !(e.ns == ElementNs::Html
                    && matches!(
                        e.name,
                        local_name!("address") | local_name!("div") | local_name!("p")
                    ))
            {
                break;
            }
        }
        if let Some(name) = close {
            self.generate_implied_end_tags(Some(&name));
            self.pop_until(&name);
        }
        self.close_p_in_button_scope();
    }

    pub(super) fn body_end_tag(&mut self, tag: Tag) -> Result {
        match tag.name {
            local_name!("template") => self.in_head(Token::TagToken(tag)),
            local_name!("body") => {
                if self.in_scope(&local_name!("body"), Scope::Default) {
                    self.mode = Mode::AfterBody;
                }
                DONE
            }
            local_name!("html") => {
                if self.in_scope(&local_name!("body"), Scope::Default) {
                    self.mode = Mode::AfterBody;
                    return self.after_body(Token::TagToken(tag));
                }
                DONE
            }
            local_name!("address")
            | local_name!("article")
            | local_name!("aside")
            | local_name!("blockquote")
            | local_name!("button")
            | local_name!("center")
            | local_name!("details")
            | local_name!("dialog")
            | local_name!("dir")
            | local_name!("div")
            | local_name!("dl")
            | local_name!("fieldset")
            | local_name!("figcaption")
            | local_name!("figure")
            | local_name!("footer")
            | local_name!("header")
            | local_name!("hgroup")
            | local_name!("listing")
            | local_name!("main")
            | local_name!("menu")
            | local_name!("nav")
            | local_name!("ol")
            | local_name!("pre")
            | local_name!("search")
            | local_name!("section")
            | local_name!("select")
            | local_name!("summary")
            | local_name!("ul") => {
                if self.in_scope(&tag.name, Scope::Default) {
                    self.generate_implied_end_tags(None);
                    self.pop_until(&tag.name);
                }
                DONE
            }
            local_name!("form") => {
                self.end_form();
                DONE
            }
            local_name!("p") => {
                if !self.in_scope(&local_name!("p"), Scope::Button) {
                    self.insert_implied(local_name!("p"));
                }
                self.close_p();
                DONE
            }
            local_name!("li") => {
                if self.in_scope(&local_name!("li"), Scope::ListItem) {
                    self.generate_implied_end_tags(Some(&local_name!("li")));
                    self.pop_until(&local_name!("li"));
                }
                DONE
            }
            local_name!("dd") | local_name!("dt") => {
                if self.in_scope(&tag.name, Scope::Default) {
                    self.generate_implied_end_tags(Some(&tag.name));
                    self.pop_until(&tag.name);
                }
                DONE
            }
            local_name!("h1")
            | local_name!("h2")
            | local_name!("h3")
            | local_name!("h4")
            | local_name!("h5")
            | local_name!("h6") => {
                if self.class_in_scope(class::HEADING, Scope::Default) {
                    self.generate_implied_end_tags(None);
                    self.pop_until_class(class::HEADING);
                }
                DONE
            }
            _ if is_formatting(&tag.name) => {
                if !self.adoption_agency(&tag.name) {
                    self.any_other_end_tag(&tag.name);
                }
                DONE
            }
            local_name!("applet") | local_name!("marquee") | local_name!("object") => {
                if self.in_scope(&tag.name, Scope::Default) {
                    self.generate_implied_end_tags(None);
                    self.pop_until(&tag.name);
                    self.clear_active_to_marker();
                }
                DONE
            }
            local_name!("br") => self.body_start_tag(bare_tag(TagKind::StartTag, tag.name)),
            _ => {
                self.any_other_end_tag(&tag.name);
                DONE
            }
        }
    }

    /// `</form>`.
    fn end_form(&mut self) {
        if !self.is_open(&local_name!("template")) {
            let Some(form) = self.form.take() else { return };
            if !self.node_in_scope(form, Scope::Default) {
                return;
            }
            self.generate_implied_end_tags(None);
            if let Some(i) = self.position_in_stack(form) {
                self.open.remove(i);
            }
        } else {
            if !self.in_scope(&local_name!("form"), Scope::Default) {
                return;
            }
            self.generate_implied_end_tags(None);
            self.pop_until(&local_name!("form"));
        }
    }

    /// "Any other end tag" in body.
    pub(super) fn any_other_end_tag(&mut self, name: &LocalName) {
        for i in (0..self.open.len()).rev() {
            let e = &self.open[i];
            if e.is(name) {
                self.generate_implied_end_tags(Some(name));
                self.open.truncate(i);
                return;
            }
            if e.has(class::SPECIAL) {
                return;
            }
        }
    }
}
