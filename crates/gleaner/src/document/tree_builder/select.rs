//! `<select>`, `<option>`, `<optgroup>` in body (WHATWG §13.2.6.4.7 as
//! revised for customizable select, 2025: the "in select" insertion modes
//! are gone, a select's content is parsed in body and these start tags
//! close what a select left open).

use markup5ever::local_name;

use super::{OwnTreeBuilder, Scope, Tag};

impl OwnTreeBuilder {
    /// True if a `select` is in scope.
    fn select_in_scope(&self) -> bool {
        self.in_scope(&local_name!("select"), Scope::Default)
    }

    /// `<select>`: a nested one closes the open select instead.
    pub(super) fn start_select(&mut self, tag: Tag) {
        if self.select_in_scope() {
            self.pop_until(&local_name!("select"));
        } else {
            self.reconstruct_formatting();
            self.insert_html(tag);
            self.frameset_ok = false;
        }
    }

    /// `<option>`: in a select, closes the open option (not an optgroup);
    /// outside one, closes the current option.
    pub(super) fn start_option(&mut self, tag: Tag) {
        if self.select_in_scope() {
            self.generate_implied_end_tags(Some(&local_name!("optgroup")));
        } else if self.current_is(&local_name!("option")) {
            self.pop();
        }
        self.reconstruct_formatting();
        self.insert_html(tag);
    }

    /// `<optgroup>`: in a select, closes the open option and optgroup.
    pub(super) fn start_optgroup(&mut self, tag: Tag) {
        if self.select_in_scope() {
            self.generate_implied_end_tags(None);
        } else if self.current_is(&local_name!("option")) {
            self.pop();
        }
        self.reconstruct_formatting();
        self.insert_html(tag);
    }

    /// `<input>` in a select closes the select.
    pub(super) fn close_select_for_input(&mut self) {
        if self.select_in_scope() {
            self.pop_until(&local_name!("select"));
        }
    }

    /// `<hr>` in a select closes the open option and optgroup.
    pub(super) fn close_options_for_hr(&mut self) {
        if self.select_in_scope() {
            self.generate_implied_end_tags(None);
        }
    }
}
