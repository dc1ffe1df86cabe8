//! The insertion modes before the body: initial, before html, before
//! head, in head, in head noscript, after head (WHATWG §13.2.6.4.1–6),
//! and text (§13.2.6.4.8).

use html5ever::tokenizer::states::RawKind;
use html5ever::tokenizer::TagKind;
use html5ever::tree_builder::{NodeOrText, TreeSink};
use markup5ever::local_name;

use super::{is_head_content, quirks, Active, Mode, OwnTreeBuilder, Result, Token, DONE};
use crate::document::sink::ElementNs;
use crate::document::TagAttributes;

/// End tags the modes before the body treat as "anything else" rather
/// than ignore.
fn is_head_exit_end_tag(name: &markup5ever::LocalName) -> bool {
    matches!(
        *name,
        local_name!("head") | local_name!("body") | local_name!("html") | local_name!("br")
    )
}

impl OwnTreeBuilder {
    /// §13.2.6.4.1 "initial".
    pub(super) fn initial(&mut self, token: Token) -> Result {
        match token {
            Token::CharacterTokens(text) => {
                self.split_space(text, |_, _| {}, |b, rest| b.initial_anything_else(rest))
            }
            Token::CommentToken(text) => {
                self.append_comment_to(0, text);
                DONE
            }
            Token::DoctypeToken(doctype) => {
                let mode = quirks::quirks_mode(&doctype);
                let text = |t: Option<html5ever::tendril::StrTendril>| t.unwrap_or_default();
                self.sink.append_doctype_to_document(
                    text(doctype.name),
                    text(doctype.public_id),
                    text(doctype.system_id),
                );
                self.set_quirks(mode);
                self.mode = Mode::BeforeHtml;
                DONE
            }
            token => self.initial_anything_else(token),
        }
    }

    fn initial_anything_else(&mut self, token: Token) -> Result {
        self.set_quirks(html5ever::tree_builder::QuirksMode::Quirks);
        self.mode = Mode::BeforeHtml;
        self.before_html(token)
    }

    fn set_quirks(&mut self, mode: html5ever::tree_builder::QuirksMode) {
        self.quirks = mode;
        self.sink.set_quirks_mode(mode);
    }

    /// §13.2.6.4.2 "before html".
    pub(super) fn before_html(&mut self, token: Token) -> Result {
        match token {
            Token::DoctypeToken(_) => DONE,
            Token::CommentToken(text) => {
                self.append_comment_to(0, text);
                DONE
            }
            Token::CharacterTokens(text) => {
                self.split_space(text, |_, _| {}, |b, rest| b.before_html_anything_else(rest))
            }
            Token::TagToken(tag)
                if tag.kind == TagKind::StartTag && tag.name == local_name!("html") =>
            {
                let open = self.create_element(ElementNs::Html, tag.name, &tag.attrs);
                self.sink.recycle(tag.attrs);
                self.sink.append(&0, NodeOrText::AppendNode(open.node));
                self.open.push(open);
                self.mode = Mode::BeforeHead;
                DONE
            }
            Token::TagToken(tag)
                if tag.kind == TagKind::EndTag && !is_head_exit_end_tag(&tag.name) =>
            {
                DONE
            }
            token => self.before_html_anything_else(token),
        }
    }

    fn before_html_anything_else(&mut self, token: Token) -> Result {
        let open =
            self.create_element(ElementNs::Html, local_name!("html"), &TagAttributes::default());
        self.sink.append(&0, NodeOrText::AppendNode(open.node));
        self.open.push(open);
        self.mode = Mode::BeforeHead;
        self.before_head(token)
    }

    /// §13.2.6.4.3 "before head".
    pub(super) fn before_head(&mut self, token: Token) -> Result {
        match token {
            Token::CharacterTokens(text) => {
                self.split_space(text, |_, _| {}, |b, rest| b.before_head_anything_else(rest))
            }
            Token::CommentToken(text) => {
                self.insert_comment(text);
                DONE
            }
            Token::DoctypeToken(_) => DONE,
            Token::TagToken(tag) if tag.kind == TagKind::StartTag => match tag.name {
                local_name!("html") => self.in_body(Token::TagToken(tag)),
                local_name!("head") => {
                    self.head = Some(self.insert_html(tag));
                    self.mode = Mode::InHead;
                    DONE
                }
                _ => self.before_head_anything_else(Token::TagToken(tag)),
            },
            Token::TagToken(tag) if !is_head_exit_end_tag(&tag.name) => DONE,
            token => self.before_head_anything_else(token),
        }
    }

    fn before_head_anything_else(&mut self, token: Token) -> Result {
        self.head = Some(self.insert_implied(local_name!("head")));
        self.mode = Mode::InHead;
        self.in_head(token)
    }

    /// §13.2.6.4.4 "in head".
    pub(super) fn in_head(&mut self, token: Token) -> Result {
        match token {
            Token::CharacterTokens(text) => self.split_space(
                text,
                |b, space| b.insert_text(&space),
                |b, rest| b.in_head_anything_else(rest),
            ),
            Token::CommentToken(text) => {
                self.insert_comment(text);
                DONE
            }
            Token::DoctypeToken(_) => DONE,
            Token::TagToken(tag) if tag.kind == TagKind::StartTag => match tag.name {
                local_name!("html") => self.in_body(Token::TagToken(tag)),
                local_name!("base")
                | local_name!("basefont")
                | local_name!("bgsound")
                | local_name!("link")
                | local_name!("meta") => {
                    self.insert_void(tag);
                    DONE
                }
                local_name!("title") => self.parse_raw(tag, RawKind::Rcdata),
                local_name!("noscript") if !self.scripting => {
                    self.insert_html(tag);
                    self.mode = Mode::InHeadNoscript;
                    DONE
                }
                local_name!("noscript") | local_name!("noframes") | local_name!("style") => {
                    self.parse_raw(tag, RawKind::Rawtext)
                }
                local_name!("script") => self.parse_raw(tag, RawKind::ScriptData),
                local_name!("template") => {
                    self.insert_html(tag);
                    self.active.push(Active::Marker);
                    self.frameset_ok = false;
                    self.mode = Mode::InTemplate;
                    self.template_modes.push(Mode::InTemplate);
                    DONE
                }
                local_name!("head") => DONE,
                _ => self.in_head_anything_else(Token::TagToken(tag)),
            },
            Token::TagToken(tag) => match tag.name {
                local_name!("head") => {
                    self.pop();
                    self.mode = Mode::AfterHead;
                    DONE
                }
                local_name!("body") | local_name!("html") | local_name!("br") => {
                    self.in_head_anything_else(Token::TagToken(tag))
                }
                local_name!("template") => {
                    self.end_template();
                    DONE
                }
                _ => DONE,
            },
            token => self.in_head_anything_else(token),
        }
    }

    fn in_head_anything_else(&mut self, token: Token) -> Result {
        self.pop();
        self.mode = Mode::AfterHead;
        self.after_head(token)
    }

    /// §13.2.6.4.5 "in head noscript".
    pub(super) fn in_head_noscript(&mut self, token: Token) -> Result {
        match token {
            Token::DoctypeToken(_) => DONE,
            Token::CharacterTokens(text) => self.split_space(
                text,
                |b, space| b.insert_text(&space),
                |b, rest| b.in_head_noscript_anything_else(rest),
            ),
            Token::CommentToken(_) => self.in_head(token),
            Token::TagToken(tag) if tag.kind == TagKind::StartTag => match tag.name {
                local_name!("html") => self.in_body(Token::TagToken(tag)),
                local_name!("basefont")
                | local_name!("bgsound")
                | local_name!("link")
                | local_name!("meta")
                | local_name!("noframes")
                | local_name!("style") => self.in_head(Token::TagToken(tag)),
                local_name!("head") | local_name!("noscript") => DONE,
                _ => self.in_head_noscript_anything_else(Token::TagToken(tag)),
            },
            Token::TagToken(tag) => match tag.name {
                local_name!("noscript") => {
                    self.pop();
                    self.mode = Mode::InHead;
                    DONE
                }
                local_name!("br") => self.in_head_noscript_anything_else(Token::TagToken(tag)),
                _ => DONE,
            },
            token => self.in_head_noscript_anything_else(token),
        }
    }

    fn in_head_noscript_anything_else(&mut self, token: Token) -> Result {
        self.pop();
        self.mode = Mode::InHead;
        self.in_head(token)
    }

    /// §13.2.6.4.6 "after head".
    pub(super) fn after_head(&mut self, token: Token) -> Result {
        match token {
            Token::CharacterTokens(text) => self.split_space(
                text,
                |b, space| b.insert_text(&space),
                |b, rest| b.after_head_anything_else(rest),
            ),
            Token::CommentToken(text) => {
                self.insert_comment(text);
                DONE
            }
            Token::DoctypeToken(_) => DONE,
            Token::TagToken(tag) if tag.kind == TagKind::StartTag => match tag.name {
                local_name!("html") => self.in_body(Token::TagToken(tag)),
                local_name!("body") => {
                    self.insert_html(tag);
                    self.frameset_ok = false;
                    self.mode = Mode::InBody;
                    DONE
                }
                local_name!("frameset") => {
                    self.insert_html(tag);
                    self.mode = Mode::InFrameset;
                    DONE
                }
                _ if is_head_content(&tag.name) => {
                    // The head is pushed back for the token, and removed
                    // from the stack after it.
                    let Some(head) = self.head else {
                        return self.in_head(Token::TagToken(tag));
                    };
                    self.open.push(super::Open {
                        node: head,
                        ns: ElementNs::Html,
                        name: local_name!("head"),
                        class: super::html_class(&local_name!("head")),
                    });
                    let result = self.in_head(Token::TagToken(tag));
                    if let Some(at) = self.position_in_stack(head) {
                        self.open.remove(at);
                    }
                    result
                }
                local_name!("head") => DONE,
                _ => self.after_head_anything_else(Token::TagToken(tag)),
            },
            Token::TagToken(tag) => match tag.name {
                local_name!("template") => self.in_head(Token::TagToken(tag)),
                local_name!("body") | local_name!("html") | local_name!("br") => {
                    self.after_head_anything_else(Token::TagToken(tag))
                }
                _ => DONE,
            },
            token => self.after_head_anything_else(token),
        }
    }

    fn after_head_anything_else(&mut self, token: Token) -> Result {
        self.insert_implied(local_name!("body"));
        self.mode = Mode::InBody;
        self.in_body(token)
    }

    /// §13.2.6.4.8 "text": the content of a raw text or RCDATA element.
    pub(super) fn text(&mut self, token: Token) -> Result {
        match token {
            Token::CharacterTokens(text) => {
                self.insert_text(&text);
                DONE
            }
            Token::EOFToken => {
                self.pop();
                self.mode = self.original;
                self.step(self.mode, Token::EOFToken)
            }
            Token::TagToken(tag) if tag.kind == TagKind::EndTag => {
                self.pop();
                self.mode = self.original;
                DONE
            }
            _ => DONE,
        }
    }
}
