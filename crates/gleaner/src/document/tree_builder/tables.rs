//! The table insertion modes: in table, in table text, in caption, in
//! column group, in table body, in row, in cell (WHATWG §13.2.6.4.9–15),
//! with foster parenting (§13.2.6.1) for content misplaced in a table.

use html5ever::tendril::StrTendril;
use html5ever::tokenizer::TagKind;
use markup5ever::{local_name, LocalName};

use super::{attr, class, is_space, Active, Mode, OwnTreeBuilder, Result, Scope, Token, DONE};

/// `caption`, `col`, `colgroup`, `tbody`, `td`, `tfoot`, `th`, `thead`,
/// `tr`: start tags that end a caption or a cell.
fn is_table_part(name: &LocalName) -> bool {
    matches!(
        *name,
        local_name!("caption")
            | local_name!("col")
            | local_name!("colgroup")
            | local_name!("tbody")
            | local_name!("td")
            | local_name!("tfoot")
            | local_name!("th")
            | local_name!("thead")
            | local_name!("tr")
    )
}

impl OwnTreeBuilder {
    /// "Clear the stack back to" a context: pops until the current node
    /// is an HTML element with a class in `bits`.
    fn clear_back_to(&mut self, bits: u16) {
        while let Some(e) = self.open.last() {
            if e.ns == crate::document::sink::ElementNs::Html && e.has(bits) {
                break;
            }
            self.open.pop();
        }
    }

    /// §13.2.6.4.9 "in table".
    pub(super) fn in_table(&mut self, token: Token) -> Result {
        match token {
            Token::CharacterTokens(_) | Token::NullCharacterToken
                if self.current().is_some_and(|e| {
                    e.ns == crate::document::sink::ElementNs::Html
                        && (e.has(class::FOSTERS) || e.name == local_name!("template"))
                }) =>
            {
                self.table_text.clear();
                self.original = self.mode;
                self.mode = Mode::InTableText;
                self.in_table_text(token)
            }
            Token::CommentToken(text) => {
                self.insert_comment(text);
                DONE
            }
            Token::DoctypeToken(_) => DONE,
            Token::TagToken(tag) if tag.kind == TagKind::StartTag => match tag.name {
                local_name!("caption") => {
                    self.clear_back_to(class::TABLE);
                    self.active.push(Active::Marker);
                    self.insert_html(tag);
                    self.mode = Mode::InCaption;
                    DONE
                }
                local_name!("colgroup") => {
                    self.clear_back_to(class::TABLE);
                    self.insert_html(tag);
                    self.mode = Mode::InColumnGroup;
                    DONE
                }
                local_name!("col") => {
                    self.clear_back_to(class::TABLE);
                    self.insert_implied(local_name!("colgroup"));
                    self.mode = Mode::InColumnGroup;
                    self.in_column_group(Token::TagToken(tag))
                }
                local_name!("tbody") | local_name!("tfoot") | local_name!("thead") => {
                    self.clear_back_to(class::TABLE);
                    self.insert_html(tag);
                    self.mode = Mode::InTableBody;
                    DONE
                }
                local_name!("td") | local_name!("th") | local_name!("tr") => {
                    self.clear_back_to(class::TABLE);
                    self.insert_implied(local_name!("tbody"));
                    self.mode = Mode::InTableBody;
                    self.in_table_body(Token::TagToken(tag))
                }
                local_name!("table") => {
                    if !self.in_scope(&local_name!("table"), Scope::Table) {
                        return DONE;
                    }
                    self.pop_until(&local_name!("table"));
                    self.reset_insertion_mode();
                    self.step(self.mode, Token::TagToken(tag))
                }
                local_name!("style") | local_name!("script") | local_name!("template") => {
                    self.in_head(Token::TagToken(tag))
                }
                local_name!("input")
                    if attr(&tag, &local_name!("type"))
                        .is_some_and(|t| t.eq_ignore_ascii_case("hidden")) =>
                {
                    self.insert_void(tag);
                    DONE
                }
                local_name!("form") => {
                    if self.form.is_none() && !self.is_open(&local_name!("template")) {
                        let node = self.insert_html(tag);
                        self.form = Some(node);
                        self.pop();
                    }
                    DONE
                }
                _ => self.in_table_anything_else(Token::TagToken(tag)),
            },
            Token::TagToken(tag) => match tag.name {
                local_name!("table") => {
                    if self.in_scope(&local_name!("table"), Scope::Table) {
                        self.pop_until(&local_name!("table"));
                        self.reset_insertion_mode();
                    }
                    DONE
                }
                local_name!("body")
                | local_name!("caption")
                | local_name!("col")
                | local_name!("colgroup")
                | local_name!("html")
                | local_name!("tbody")
                | local_name!("td")
                | local_name!("tfoot")
                | local_name!("th")
                | local_name!("thead")
                | local_name!("tr") => DONE,
                local_name!("template") => self.in_head(Token::TagToken(tag)),
                _ => self.in_table_anything_else(Token::TagToken(tag)),
            },
            Token::EOFToken => self.in_body(token),
            token => self.in_table_anything_else(token),
        }
    }

    /// "Anything else" in table: in body, foster-parented.
    fn in_table_anything_else(&mut self, token: Token) -> Result {
        self.foster = true;
        let result = self.in_body(token);
        self.foster = false;
        result
    }

    /// §13.2.6.4.10 "in table text".
    pub(super) fn in_table_text(&mut self, token: Token) -> Result {
        match token {
            Token::NullCharacterToken => DONE,
            Token::CharacterTokens(text) => {
                self.table_text.push(text);
                DONE
            }
            token => {
                self.flush_table_text();
                self.mode = self.original;
                self.step(self.mode, token)
            }
        }
    }

    /// The pending table character tokens: inserted if all whitespace,
    /// else foster-parented as in body.
    fn flush_table_text(&mut self) {
        let pending = std::mem::take(&mut self.table_text);
        let all_space = pending.iter().all(|t| t.bytes().all(is_space));
        let mut text = StrTendril::new();
        for t in &pending {
            text.push_tendril(t);
        }
        if all_space {
            self.insert_text(&text);
        } else {
            self.foster = true;
            self.body_text(&text);
            self.foster = false;
        }
    }

    /// §13.2.6.4.11 "in caption".
    pub(super) fn in_caption(&mut self, token: Token) -> Result {
        match token {
            Token::TagToken(tag)
                if (tag.kind == TagKind::EndTag
                    && matches!(tag.name, local_name!("caption") | local_name!("table")))
                    || (tag.kind == TagKind::StartTag && is_table_part(&tag.name)) =>
            {
                if !self.in_scope(&local_name!("caption"), Scope::Table) {
                    return DONE;
                }
                self.generate_implied_end_tags(None);
                self.pop_until(&local_name!("caption"));
                self.clear_active_to_marker();
                self.mode = Mode::InTable;
                if tag.kind == TagKind::EndTag && tag.name == local_name!("caption") {
                    return DONE;
                }
                self.in_table(Token::TagToken(tag))
            }
            Token::TagToken(tag)
                if tag.kind == TagKind::EndTag
                    && matches!(
                        tag.name,
                        local_name!("body")
                            | local_name!("col")
                            | local_name!("colgroup")
                            | local_name!("html")
                            | local_name!("tbody")
                            | local_name!("td")
                            | local_name!("tfoot")
                            | local_name!("th")
                            | local_name!("thead")
                            | local_name!("tr")
                    ) =>
            {
                DONE
            }
            token => self.in_body(token),
        }
    }

    /// §13.2.6.4.12 "in column group".
    pub(super) fn in_column_group(&mut self, token: Token) -> Result {
        match token {
            Token::CharacterTokens(text) => self.split_space(
                text,
                |b, space| b.insert_text(&space),
                |b, rest| b.in_column_group_anything_else(rest),
            ),
            Token::CommentToken(text) => {
                self.insert_comment(text);
                DONE
            }
            Token::DoctypeToken(_) => DONE,
            Token::TagToken(tag) if tag.kind == TagKind::StartTag => match tag.name {
                local_name!("html") => self.in_body(Token::TagToken(tag)),
                local_name!("col") => {
                    self.insert_void(tag);
                    DONE
                }
                local_name!("template") => self.in_head(Token::TagToken(tag)),
                _ => self.in_column_group_anything_else(Token::TagToken(tag)),
            },
            Token::TagToken(tag) => match tag.name {
                local_name!("colgroup") => {
                    if self.current_is(&local_name!("colgroup")) {
                        self.pop();
                        self.mode = Mode::InTable;
                    }
                    DONE
                }
                local_name!("col") => DONE,
                local_name!("template") => self.in_head(Token::TagToken(tag)),
                _ => self.in_column_group_anything_else(Token::TagToken(tag)),
            },
            Token::EOFToken => self.in_body(token),
            token => self.in_column_group_anything_else(token),
        }
    }

    fn in_column_group_anything_else(&mut self, token: Token) -> Result {
        if !self.current_is(&local_name!("colgroup")) {
            return DONE;
        }
        self.pop();
        self.mode = Mode::InTable;
        self.in_table(token)
    }

    /// §13.2.6.4.13 "in table body".
    pub(super) fn in_table_body(&mut self, token: Token) -> Result {
        match token {
            Token::TagToken(tag) if tag.kind == TagKind::StartTag => match tag.name {
                local_name!("tr") => {
                    self.clear_back_to(class::BODY_CONTEXT);
                    self.insert_html(tag);
                    self.mode = Mode::InRow;
                    DONE
                }
                local_name!("th") | local_name!("td") => {
                    self.clear_back_to(class::BODY_CONTEXT);
                    self.insert_implied(local_name!("tr"));
                    self.mode = Mode::InRow;
                    self.in_row(Token::TagToken(tag))
                }
                local_name!("caption")
                | local_name!("col")
                | local_name!("colgroup")
                | local_name!("tbody")
                | local_name!("tfoot")
                | local_name!("thead") => self.leave_table_body(Token::TagToken(tag)),
                _ => self.in_table(Token::TagToken(tag)),
            },
            Token::TagToken(tag) if tag.kind == TagKind::EndTag => match tag.name {
                local_name!("tbody") | local_name!("tfoot") | local_name!("thead") => {
                    if self.in_scope(&tag.name, Scope::Table) {
                        self.clear_back_to(class::BODY_CONTEXT);
                        self.pop();
                        self.mode = Mode::InTable;
                    }
                    DONE
                }
                local_name!("table") => self.leave_table_body(Token::TagToken(tag)),
                local_name!("body")
                | local_name!("caption")
                | local_name!("col")
                | local_name!("colgroup")
                | local_name!("html")
                | local_name!("td")
                | local_name!("th")
                | local_name!("tr") => DONE,
                _ => self.in_table(Token::TagToken(tag)),
            },
            token => self.in_table(token),
        }
    }

    /// The table body is closed and `token` reprocessed in table, if a
    /// `tbody`, `thead` or `tfoot` is in table scope.
    fn leave_table_body(&mut self, token: Token) -> Result {
        let in_scope = [local_name!("tbody"), local_name!("thead"), local_name!("tfoot")]
            .iter()
            .any(|n| self.in_scope(n, Scope::Table));
        if !in_scope {
            return DONE;
        }
        self.clear_back_to(class::BODY_CONTEXT);
        self.pop();
        self.mode = Mode::InTable;
        self.in_table(token)
    }

    /// §13.2.6.4.14 "in row".
    pub(super) fn in_row(&mut self, token: Token) -> Result {
        match token {
            Token::TagToken(tag) if tag.kind == TagKind::StartTag => match tag.name {
                local_name!("th") | local_name!("td") => {
                    self.clear_back_to(class::ROW_CONTEXT);
                    self.insert_html(tag);
                    self.mode = Mode::InCell;
                    self.active.push(Active::Marker);
                    DONE
                }
                local_name!("caption")
                | local_name!("col")
                | local_name!("colgroup")
                | local_name!("tbody")
                | local_name!("tfoot")
                | local_name!("thead")
                | local_name!("tr") => self.leave_row(Some(Token::TagToken(tag))),
                _ => self.in_table(Token::TagToken(tag)),
            },
            Token::TagToken(tag) if tag.kind == TagKind::EndTag => match tag.name {
                local_name!("tr") => self.leave_row(None),
                local_name!("table") => self.leave_row(Some(Token::TagToken(tag))),
                local_name!("tbody") | local_name!("tfoot") | local_name!("thead") => {
                    if !self.in_scope(&tag.name, Scope::Table) {
                        return DONE;
                    }
                    self.leave_row(Some(Token::TagToken(tag)))
                }
                local_name!("body")
                | local_name!("caption")
                | local_name!("col")
                | local_name!("colgroup")
                | local_name!("html")
                | local_name!("td")
                | local_name!("th") => DONE,
                _ => self.in_table(Token::TagToken(tag)),
            },
            token => self.in_table(token),
        }
    }

    /// The row is closed if a `tr` is in table scope, and `token` (if any)
    /// reprocessed in table body.
    fn leave_row(&mut self, token: Option<Token>) -> Result {
        if !self.in_scope(&local_name!("tr"), Scope::Table) {
            return DONE;
        }
        self.clear_back_to(class::ROW_CONTEXT);
        self.pop();
        self.mode = Mode::InTableBody;
        match token {
            Some(token) => self.in_table_body(token),
            None => DONE,
        }
    }

    /// §13.2.6.4.15 "in cell".
    pub(super) fn in_cell(&mut self, token: Token) -> Result {
        match token {
            Token::TagToken(tag) if tag.kind == TagKind::EndTag => match tag.name {
                local_name!("td") | local_name!("th") => {
                    if self.in_scope(&tag.name, Scope::Table) {
                        self.generate_implied_end_tags(None);
                        self.pop_until(&tag.name);
                        self.clear_active_to_marker();
                        self.mode = Mode::InRow;
                    }
                    DONE
                }
                local_name!("body")
                | local_name!("caption")
                | local_name!("col")
                | local_name!("colgroup")
                | local_name!("html") => DONE,
                local_name!("table")
                | local_name!("tbody")
                | local_name!("tfoot")
                | local_name!("thead")
                | local_name!("tr") => {
                    if !self.in_scope(&tag.name, Scope::Table) {
                        return DONE;
                    }
                    self.close_cell();
                    self.in_row(Token::TagToken(tag))
                }
                _ => self.in_body(Token::TagToken(tag)),
            },
            Token::TagToken(tag) if tag.kind == TagKind::StartTag && is_table_part(&tag.name) => {
                let cell_in_scope = self.in_scope(&local_name!("td"), Scope::Table)
                    || self.in_scope(&local_name!("th"), Scope::Table);
                if !cell_in_scope {
                    return DONE;
                }
                self.close_cell();
                self.in_row(Token::TagToken(tag))
            }
            token => self.in_body(token),
        }
    }

    /// "Close the cell".
    fn close_cell(&mut self) {
        self.generate_implied_end_tags(None);
        while let Some(e) = self.open.pop() {
            if e.is(&local_name!("td")) || e.is(&local_name!("th")) {
                break;
            }
        }
        self.clear_active_to_marker();
        self.mode = Mode::InRow;
    }
}
