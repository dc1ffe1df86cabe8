//! `<template>` (WHATWG §13.2.6.4.4 for its start and end tags,
//! §13.2.6.4.16 "in template").

use html5ever::tokenizer::TagKind;
use markup5ever::local_name;

use super::{is_head_content, Mode, OwnTreeBuilder, Result, Token, DONE};

impl OwnTreeBuilder {
    /// `</template>` in head: closes the open template.
    pub(super) fn end_template(&mut self) {
        if !self.is_open(&local_name!("template")) {
            return;
        }
        self.generate_implied_end_tags_thoroughly();
        self.pop_until(&local_name!("template"));
        self.clear_active_to_marker();
        self.template_modes.pop();
        self.reset_insertion_mode();
    }

    /// Switches the current template insertion mode to `mode` and
    /// reprocesses `token` in it.
    fn template_switch(&mut self, mode: Mode, token: Token) -> Result {
        self.template_modes.pop();
        self.template_modes.push(mode);
        self.mode = mode;
        self.step(mode, token)
    }

    /// §13.2.6.4.16 "in template".
    pub(super) fn in_template(&mut self, token: Token) -> Result {
        match token {
            Token::CharacterTokens(_)
            | Token::NullCharacterToken
            | Token::CommentToken(_)
            | Token::DoctypeToken(_) => self.in_body(token),
            Token::TagToken(tag) if tag.kind == TagKind::StartTag => match tag.name {
                _ if is_head_content(&tag.name) => self.in_head(Token::TagToken(tag)),
                local_name!("caption")
                | local_name!("colgroup")
                | local_name!("tbody")
                | local_name!("tfoot")
                | local_name!("thead") => self.template_switch(Mode::InTable, Token::TagToken(tag)),
                local_name!("col") => {
                    self.template_switch(Mode::InColumnGroup, Token::TagToken(tag))
                }
                local_name!("tr") => self.template_switch(Mode::InTableBody, Token::TagToken(tag)),
                local_name!("td") | local_name!("th") => {
                    self.template_switch(Mode::InRow, Token::TagToken(tag))
                }
                _ => self.template_switch(Mode::InBody, Token::TagToken(tag)),
            },
            Token::TagToken(tag) => match tag.name {
                local_name!("template") => self.in_head(Token::TagToken(tag)),
                _ => DONE,
            },
            Token::EOFToken => {
                if !self.is_open(&local_name!("template")) {
                    return DONE;
                }
                self.pop_until(&local_name!("template"));
                self.clear_active_to_marker();
                self.template_modes.pop();
                self.reset_insertion_mode();
                self.step(self.mode, Token::EOFToken)
            }
            Token::ParseError => DONE,
        }
    }
}
