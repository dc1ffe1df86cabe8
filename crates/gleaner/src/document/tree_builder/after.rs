//! The insertion modes after the body and of framesets: after body, in
//! frameset, after frameset, after after body, after after frameset
//! (WHATWG §13.2.6.4.19–23).

use html5ever::tendril::StrTendril;
use html5ever::tokenizer::TagKind;
use markup5ever::local_name;

use super::{is_space, Mode, OwnTreeBuilder, Result, Token, DONE};

/// The whitespace of `text` (the frameset modes ignore the rest).
fn only_space(text: &StrTendril) -> Option<StrTendril> {
    if text.bytes().all(is_space) {
        return Some(text.clone());
    }
    let kept: String = text.chars().filter(|&c| c.is_ascii() && is_space(c as u8)).collect();
    (!kept.is_empty()).then(|| StrTendril::from(kept))
}

impl OwnTreeBuilder {
    /// §13.2.6.4.19 "after body".
    pub(super) fn after_body(&mut self, token: Token) -> Result {
        match token {
            Token::CharacterTokens(text) => self.split_space(
                text,
                |b, space| {
                    let _ = b.in_body(Token::CharacterTokens(space));
                },
                |b, rest| {
                    b.mode = Mode::InBody;
                    b.in_body(rest)
                },
            ),
            Token::CommentToken(text) => {
                let html = self.open.first().map_or(0, |e| e.node);
                self.append_comment_to(html, text);
                DONE
            }
            Token::DoctypeToken(_) | Token::EOFToken | Token::ParseError => DONE,
            Token::TagToken(tag)
                if tag.kind == TagKind::StartTag && tag.name == local_name!("html") =>
            {
                self.in_body(Token::TagToken(tag))
            }
            Token::TagToken(tag)
                if tag.kind == TagKind::EndTag && tag.name == local_name!("html") =>
            {
                self.mode = Mode::AfterAfterBody;
                DONE
            }
            token => {
                self.mode = Mode::InBody;
                self.in_body(token)
            }
        }
    }

    /// §13.2.6.4.20 "in frameset".
    pub(super) fn in_frameset(&mut self, token: Token) -> Result {
        match token {
            Token::CharacterTokens(text) => {
                if let Some(space) = only_space(&text) {
                    self.insert_text(&space);
                }
                DONE
            }
            Token::CommentToken(text) => {
                self.insert_comment(text);
                DONE
            }
            Token::TagToken(tag) if tag.kind == TagKind::StartTag => match tag.name {
                local_name!("html") => self.in_body(Token::TagToken(tag)),
                local_name!("frameset") => {
                    self.insert_html(tag);
                    DONE
                }
                local_name!("frame") => {
                    self.insert_void(tag);
                    DONE
                }
                local_name!("noframes") => self.in_head(Token::TagToken(tag)),
                _ => DONE,
            },
            Token::TagToken(tag) if tag.name == local_name!("frameset") => {
                if self.open.len() > 1 {
                    self.pop();
                    if !self.current_is(&local_name!("frameset")) {
                        self.mode = Mode::AfterFrameset;
                    }
                }
                DONE
            }
            _ => DONE,
        }
    }

    /// §13.2.6.4.21 "after frameset".
    pub(super) fn after_frameset(&mut self, token: Token) -> Result {
        match token {
            Token::CharacterTokens(text) => {
                if let Some(space) = only_space(&text) {
                    self.insert_text(&space);
                }
                DONE
            }
            Token::CommentToken(text) => {
                self.insert_comment(text);
                DONE
            }
            Token::TagToken(tag) if tag.kind == TagKind::StartTag => match tag.name {
                local_name!("html") => self.in_body(Token::TagToken(tag)),
                local_name!("noframes") => self.in_head(Token::TagToken(tag)),
                _ => DONE,
            },
            Token::TagToken(tag) if tag.name == local_name!("html") => {
                self.mode = Mode::AfterAfterFrameset;
                DONE
            }
            _ => DONE,
        }
    }

    /// §13.2.6.4.22 "after after body".
    pub(super) fn after_after_body(&mut self, token: Token) -> Result {
        match token {
            Token::CommentToken(text) => {
                self.append_comment_to(0, text);
                DONE
            }
            Token::DoctypeToken(_) | Token::EOFToken | Token::ParseError => DONE,
            Token::CharacterTokens(text) => self.split_space(
                text,
                |b, space| {
                    let _ = b.in_body(Token::CharacterTokens(space));
                },
                |b, rest| {
                    b.mode = Mode::InBody;
                    b.in_body(rest)
                },
            ),
            Token::TagToken(tag)
                if tag.kind == TagKind::StartTag && tag.name == local_name!("html") =>
            {
                self.in_body(Token::TagToken(tag))
            }
            token => {
                self.mode = Mode::InBody;
                self.in_body(token)
            }
        }
    }

    /// §13.2.6.4.23 "after after frameset".
    pub(super) fn after_after_frameset(&mut self, token: Token) -> Result {
        match token {
            Token::CommentToken(text) => {
                self.append_comment_to(0, text);
                DONE
            }
            Token::CharacterTokens(text) => {
                if let Some(space) = only_space(&text) {
                    let _ = self.in_body(Token::CharacterTokens(space));
                }
                DONE
            }
            Token::TagToken(tag) if tag.kind == TagKind::StartTag => match tag.name {
                local_name!("html") => self.in_body(Token::TagToken(tag)),
                local_name!("noframes") => self.in_head(Token::TagToken(tag)),
                _ => DONE,
            },
            _ => DONE,
        }
    }
}
