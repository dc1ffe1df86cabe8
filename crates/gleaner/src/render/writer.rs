//! A line-oriented writer for text and Markdown with deferred breaks.
//!
//! Breaks are requested, not written: the strongest request since the last
//! content wins, and breaks before the first content or at the start of a
//! fresh line (one that has only its prefix or list marker) vanish. This is
//! what keeps `<div><div><p>` from producing three blank lines and
//! `<li><p>` from separating a bullet from its text.

/// A requested separation, weakest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Break {
    None,
    Space,
    Line,
    Paragraph,
}

#[derive(Debug)]
pub(crate) struct Writer {
    out: String,
    pending: Break,
    /// Line prefixes: `"> "` per block quote, spaces per list level.
    prefixes: Vec<String>,
    /// Marker of the current line (`"## "`, `"- "`), and whether it stands
    /// in place of the last prefix (list items).
    marker: Option<(String, usize)>,
    /// The length of a heading marker written after a list item's bullet
    /// on its fresh line (`- ## `), taken back if the heading is empty.
    heading_after_bullet: usize,
    /// Where the current line begins in `out`.
    line_start: usize,
    /// The current line has no content yet.
    fresh: bool,
    /// Inline markup open, outermost first.
    inline: Vec<Inline>,
    /// Escape Markdown syntax in text (Markdown output).
    escape: bool,
    /// Inside a code span or block: text is written verbatim.
    verbatim: usize,
    /// The fence of the open code block.
    fence: String,
    /// Inside a table cell, where `|` must be escaped.
    pub in_cell: bool,
    /// A `<br>` asked for a hard line break: the line ends in `\\` when
    /// a line break (not a paragraph break) follows it.
    hard_break: bool,
    /// Something other than [`Writer::text`] (which strips them) may
    /// have written a control character: set when a marker, prefix,
    /// opener, closer or raw string holds one, so that
    /// [`Writer::finish`] passes the output through
    /// [`strip_controls`](super::strip_controls) only then, not every
    /// text a second time (issue 12).
    may_hold_controls: bool,
    /// The length of `out` right after [`Writer::text`] last wrote prose
    /// (not verbatim): the point where a following text would glue to it.
    text_end: usize,
    /// The length of `out` right after [`Writer::close_inline`] last
    /// wrote a closer, and the closers written back to back up to there,
    /// innermost first: an emphasis opened again right there continues
    /// the one among them it matches.
    closed_end: usize,
    closed: Vec<String>,
}

/// Inline markup: its opener (`**`, `[`), its closer (`**`, `](href)`),
/// where its content begins in the output when its opener was written
/// there (not yet written: `None`), and whether that opener starts a line
/// where Markdown reads block syntax.
#[derive(Debug)]
struct Inline {
    opener: String,
    closer: String,
    written: Option<usize>,
    starts_block: bool,
}

impl Default for Writer {
    fn default() -> Writer {
        Writer {
            out: String::new(),
            pending: Break::None,
            prefixes: Vec::new(),
            marker: None,
            heading_after_bullet: 0,
            line_start: 0,
            fresh: true,
            inline: Vec::new(),
            escape: false,
            verbatim: 0,
            fence: String::new(),
            in_cell: false,
            hard_break: false,
            may_hold_controls: false,
            text_end: usize::MAX,
            closed_end: usize::MAX,
            closed: Vec::new(),
        }
    }
}

impl Writer {
    /// A writer for Markdown: text is escaped where it would read as
    /// syntax.
    pub fn markdown() -> Writer {
        Writer { escape: true, ..Writer::default() }
    }

    /// Notes whether `s`, about to be written other than as text, holds
    /// a control character.
    fn note_controls(&mut self, s: &str) {
        self.may_hold_controls = self.may_hold_controls || crate::controls::has_control(s);
    }

    pub fn request(&mut self, b: Break) {
        self.pending = self.pending.max(b);
    }

    /// A line break that Markdown keeps (`<br>` inside a paragraph): a
    /// line break is requested, and the line ends in a backslash if the
    /// next content is on the next line of the same block.
    pub fn hard_break(&mut self) {
        if !self.fresh {
            self.hard_break = true;
        }
        self.request(Break::Line);
    }

    /// Rewrites the current (fresh) line's prefix and marker.
    fn rewrite_line_start(&mut self) {
        if !self.fresh {
            return;
        }
        self.out.truncate(self.line_start);
        let replaced = self.marker.as_ref().map_or(0, |(_, r)| *r);
        let n = self.prefixes.len().saturating_sub(replaced);
        for p in &self.prefixes[..n] {
            self.out.push_str(p);
        }
        if let Some((m, _)) = &self.marker {
            self.out.push_str(m);
        }
    }

    /// Ends the current line if it has content, with a blank line when a
    /// paragraph break is pending.
    fn start_new_line(&mut self) {
        // A `<br>` goes on inside the open inline markup; any other line
        // (a new block, a rule, a list item) closes it first, to be
        // opened again before the next content, since emphasis and links
        // do not span blocks in Markdown.
        if !(self.hard_break && self.pending == Break::Line) && self.verbatim == 0 {
            self.close_written_inline();
        }
        self.hard_break = false;
        if !self.fresh {
            let prefix: String = self.prefixes.concat();
            self.out.push('\n');
            if self.pending == Break::Paragraph {
                self.out.push_str(prefix.trim_end());
                self.out.push('\n');
            }
            self.line_start = self.out.len();
            self.fresh = true;
            self.marker = None;
            self.rewrite_line_start();
        }
        self.pending = Break::None;
    }

    /// Applies pending breaks and inline openers before content.
    fn begin_content(&mut self, next: Option<char>) {
        let tight = self.pending == Break::None && !self.fresh;
        if self.pending >= Break::Line {
            // Text goes on in the same block after a `<br>`.
            if self.hard_break && self.pending == Break::Line && !self.fresh && self.verbatim == 0 {
                self.out.push('\\');
            }
            self.start_new_line();
        } else if self.pending == Break::Space && !self.fresh {
            self.out.push(' ');
        }
        self.pending = Break::None;
        // Inline markup open around a code block stays out of it.
        let in_fence = !self.fence.is_empty();
        let mut starts_block = self.fresh && self.inline_is_block_content();
        for k in 0..self.inline.len() {
            if self.inline[k].written.is_some() || in_fence {
                continue;
            }
            let opener = std::mem::take(&mut self.inline[k].opener);
            let written = if tight && self.reopen(&opener) {
                // Its content began before: never all punctuation.
                usize::MAX
            } else {
                if tight {
                    self.flank_closers();
                }
                self.out.push_str(&opener);
                self.closed_end = usize::MAX;
                self.out.len()
            };
            self.inline[k].opener = opener;
            self.inline[k].written = Some(written);
            self.inline[k].starts_block = std::mem::take(&mut starts_block);
        }
        if tight && next.is_some_and(char::is_alphanumeric) {
            self.flank_closers();
        }
        self.fresh = false;
    }

    /// Takes `opener` as the continuation of the emphasis whose closer was
    /// just written, nothing between: `<b>Local Moving</b><b>:</b>` is
    /// one run of bold, `**Local Moving:**`; written as two, the `****`
    /// between them would read as neither. The closer is taken back from
    /// the run of closers at the end of the output.
    fn reopen(&mut self, opener: &str) -> bool {
        if self.closed_end != self.out.len() {
            return false;
        }
        let Some(i) = continued(&self.closed, opener) else { return false };
        let run = self.closed.concat();
        if !self.out.ends_with(&run) {
            return false;
        }
        self.out.truncate(self.out.len() - run.len());
        self.closed.remove(i);
        for closer in &self.closed {
            self.out.push_str(closer);
        }
        self.closed_end = self.out.len();
        true
    }

    /// Makes the emphasis closers at the end of the output close before
    /// a word glued to them: CommonMark closes `**` after punctuation
    /// only when white space or punctuation follows it, so `**Weight:**5
    /// kg` would stay open. The punctuation the emphasis ends with is
    /// moved after its closers (`**Weight**:5 kg`), unless it is all the
    /// emphasis holds (with the space before it: `*not* (i.e.`). A link's or `<sup>`'s closer ends in punctuation
    /// that lets the emphasis inside it close: not moved across.
    fn flank_closers(&mut self) {
        if self.closed_end != self.out.len()
            || self.closed.is_empty()
            || !self.closed.iter().all(|c| is_delimiter_run(c))
        {
            return;
        }
        let run = self.closed.concat();
        let Some(body) = self.out.strip_suffix(run.as_str()) else { return };
        // With the white space in and before that punctuation (`*not (*i.e.`
        // is `*not* (i.e.`): the closer must follow a letter or digit.
        let kept = body.trim_end_matches(|c| is_punctuation(c) || c == ' ');
        let moved = body.len() - kept.len();
        let before = kept.chars().next_back();
        if moved == 0 || !before.is_some_and(|c| !c.is_whitespace() && !is_punctuation(c)) {
            return;
        }
        let punctuation = body[kept.len()..].to_string();
        self.out.truncate(kept.len());
        self.out.push_str(&run);
        self.out.push_str(&punctuation);
        self.closed_end = usize::MAX;
    }

    /// Whether the next word starts a line where Markdown reads block
    /// syntax (`1. `, `# `, `- `, `>`): not after inline markup opened
    /// at the start of the line (`**1. High-Protein**`), nor after a
    /// heading's or a table row's marker, whose line is inline content.
    fn word_starts_block(&self) -> bool {
        let new_line = self.pending >= Break::Line && !self.fresh;
        if !(self.fresh || new_line) {
            return false;
        }
        // Markup open across a line break other than `<br>` is closed at
        // the line's end and opened again before the word (`start_new_line`).
        let reopened = new_line && !(self.hard_break && self.pending == Break::Line);
        if self.fence.is_empty() && self.inline.iter().any(|i| i.written.is_none() || reopened) {
            return false;
        }
        new_line || self.inline_is_block_content()
    }

    /// Whether the current (fresh) line's content is read for block
    /// syntax: not after a heading's or a table row's marker.
    fn inline_is_block_content(&self) -> bool {
        !(self.heading_after_bullet > 0 || matches!(self.marker, Some((_, 0))))
    }

    /// The end of the output before the emphasis closers that end it, if
    /// any: emphasis closed right after a text does not separate it from
    /// what follows.
    fn before_closers(&self) -> usize {
        let end = self.out.len();
        if self.closed_end == end && self.closed.iter().all(|c| is_delimiter_run(c)) {
            end - self.closed.iter().map(String::len).sum::<usize>()
        } else {
            end
        }
    }

    /// Writes the punctuation that starts `word` before the emphasis about
    /// to open on it, when a letter or digit comes right before: CommonMark
    /// opens `*` between a letter and punctuation only if it is not
    /// followed by punctuation, so `Features*(15% weighting)*` would not
    /// be emphasis, and `Features(*15% weighting)*` is. Returns the rest
    /// of the word.
    fn lead_before_emphasis<'w>(&mut self, word: &'w str) -> &'w str {
        let unwritten = || self.inline.iter().filter(|i| i.written.is_none());
        // An emphasis about to continue the one just closed needs no room.
        let reopens = self.closed_end == self.out.len()
            && unwritten().any(|i| continued(&self.closed, &i.opener).is_some());
        if self.pending != Break::None
            || self.fresh
            || self.verbatim > 0
            || reopens
            || unwritten().next().is_none()
            || !unwritten().all(|i| is_delimiter_run(&i.opener))
            || !self.out[..self.before_closers()].ends_with(char::is_alphanumeric)
        {
            return word;
        }
        // Punctuation that is never escaped in the middle of a line.
        let rest = word.trim_start_matches(|c: char| {
            is_punctuation(c) && !matches!(c, '\\' | '*' | '_' | '[' | ']' | '`' | '<' | '~' | '&')
        });
        self.out.push_str(&word[..word.len() - rest.len()]);
        self.text_end = self.out.len();
        rest
    }

    /// Writes text: whitespace collapses to single spaces unless `pre`.
    /// Control characters are left out first (before words are split, so
    /// that a dropped one leaves no double space).
    pub fn text(&mut self, text: &str, pre: bool) {
        let text = &*super::strip_controls(text);
        if !pre && is_invisible(text) {
            // Nothing a reader sees (Webflow's `<p>&zwj;</p>` between
            // paragraphs) is no content: no line of its own.
            if text.contains(char::is_whitespace) {
                self.request(Break::Space);
            }
            return;
        }
        if pre {
            let mut lines = text.split('\n');
            if let Some(first) = lines.next() {
                if !first.is_empty() {
                    self.begin_content(None);
                    self.out.push_str(first.trim_end_matches('\r'));
                }
            }
            for line in lines {
                self.begin_content(None);
                self.out.push('\n');
                let prefix: String = self.prefixes.concat();
                self.out.push_str(&prefix);
                self.out.push_str(line.trim_end_matches('\r'));
            }
            return;
        }
        if text.starts_with(char::is_whitespace) {
            self.request(Break::Space);
        }
        if self.escape && self.verbatim == 0 {
            let mut words = text.split(char::is_whitespace).peekable();
            while let Some(word) = words.next() {
                if word.is_empty() {
                    continue;
                }
                let line_start = self.word_starts_block();
                let word = self.lead_before_emphasis(word);
                if !word.is_empty() {
                    self.begin_content(word.chars().next());
                    push_escaped(&mut self.out, word, line_start, self.in_cell);
                }
                if words.peek().is_some() {
                    self.request(Break::Space);
                }
            }
        } else {
            // Unescaped, the words after the first are the text with its
            // white space collapsed: what `begin_content` would write
            // before each of them is one space.
            let core = text.trim_matches(char::is_whitespace);
            if !core.is_empty() {
                self.begin_content(None);
                if self.escape && self.in_cell && core.contains('|') {
                    // A code span in a GFM table cell: its pipes too.
                    let mut collapsed = String::new();
                    push_collapsed(&mut collapsed, core);
                    self.out.push_str(&collapsed.replace('|', "\\|"));
                } else {
                    push_collapsed(&mut self.out, core);
                }
            }
        }
        if self.verbatim == 0 {
            self.text_end = self.out.len();
        }
        if text.ends_with(char::is_whitespace) {
            self.request(Break::Space);
        }
    }

    /// Asks for a space before `next`, the text of another element than
    /// the text written last, when nothing separates them and the two
    /// would otherwise read as one word across a case change
    /// ([`glued`]): `<span>Publisher</span><span>Houghton</span>`, the
    /// cells of a key–value row laid out by CSS, not by white space.
    pub fn separate_glued(&mut self, next: &str) {
        let end = self.before_closers();
        if self.pending != Break::None || self.fresh || self.text_end != end {
            return;
        }
        let before = self.out.get(..end).and_then(|s| s.chars().next_back());
        if let (Some(before), Some(after)) = (before, next.chars().next()) {
            if glued(before, after) {
                self.request(Break::Space);
            }
        }
    }

    /// A heading or table-row marker at the start of a new line.
    pub fn marker(&mut self, marker: String) {
        self.note_controls(&marker);
        self.request(Break::Line);
        self.start_new_line();
        // On a list item's fresh line the marker goes after its bullet
        // (`- ## Heading`), which stays.
        self.marker = match self.marker.take() {
            Some((bullet, r @ 1..)) if self.fresh => {
                self.heading_after_bullet = marker.len();
                Some((bullet + &marker, r))
            }
            _ => {
                self.heading_after_bullet = 0;
                Some((marker, 0))
            }
        };
        self.rewrite_line_start();
    }

    /// Ends a marker's line (a heading's): a marker still without
    /// content (an empty heading) is taken back, so that what follows is
    /// not written under it.
    pub fn end_marker_line(&mut self) {
        let after_bullet = std::mem::take(&mut self.heading_after_bullet);
        if self.fresh && after_bullet > 0 {
            // An empty heading on a list item's fresh line: the bullet
            // stays, for what follows in the item (`- - x`, not `- ## - x`).
            if let Some((m, _)) = self.marker.as_mut() {
                m.truncate(m.len().saturating_sub(after_bullet));
            }
            self.rewrite_line_start();
            return;
        }
        if self.fresh && self.marker.as_ref().is_some_and(|(_, replaced)| *replaced == 0) {
            self.marker = None;
            self.rewrite_line_start();
        }
    }

    /// A list item: a bullet on a new line, and an indent for its other
    /// lines.
    pub fn list_item(&mut self, marker: String) {
        self.note_controls(&marker);
        self.request(Break::Line);
        self.start_new_line();
        self.prefixes.push(" ".repeat(marker.chars().count()));
        // A list opening on an item's fresh line stays on it (`- - x`),
        // so that the outer item keeps its bullet.
        self.marker = match self.marker.take() {
            Some((bullet, r @ 1..)) if self.fresh => Some((bullet + &marker, r + 1)),
            _ => Some((marker, 1)),
        };
        self.rewrite_line_start();
    }

    pub fn push_prefix(&mut self, prefix: String) {
        self.note_controls(&prefix);
        if !self.fresh {
            self.request(Break::Line);
            self.start_new_line();
        }
        self.prefixes.push(prefix);
        self.rewrite_line_start();
    }

    pub fn pop_prefix(&mut self) {
        self.prefixes.pop();
        if self.fresh {
            self.marker = None;
            self.rewrite_line_start();
        }
    }

    /// Opens inline markup, written before the next content: `opener`
    /// now, `closer` at [`Writer::close_inline`].
    pub fn open_inline(&mut self, opener: String, closer: String) {
        self.note_controls(&opener);
        self.note_controls(&closer);
        self.inline.push(Inline { opener, closer, written: None, starts_block: false });
    }

    /// Closes the innermost inline markup, if it was written.
    pub fn close_inline(&mut self) {
        if let Some(Inline { opener, closer, written: Some(content), starts_block }) =
            self.inline.pop()
        {
            if self.drop_punctuation_emphasis(&opener, content, starts_block) {
                return;
            }
            if self.closed_end != self.out.len() {
                self.closed.clear();
            }
            self.out.push_str(&closer);
            self.closed_end = self.out.len();
            self.closed.push(closer);
        }
    }

    /// Takes back the opener of an emphasis that holds punctuation alone
    /// (`Cool Down<b>:</b>`, `Combo<b>®</b>`), written last: glued to the
    /// word before it, CommonMark would not open it (`Cool Down**:**`
    /// reads as four asterisks), and bold punctuation says nothing.
    /// Its text, now first on its line, is escaped as such (`- <em>+</em>`
    /// is `- \\+`, not an empty nested item).
    fn drop_punctuation_emphasis(
        &mut self,
        opener: &str,
        content: usize,
        starts_block: bool,
    ) -> bool {
        let Some(held) = self.out.get(content..) else { return false };
        let opened = content.checked_sub(opener.len()).and_then(|at| self.out.get(at..content));
        if !is_delimiter_run(opener)
            || opened != Some(opener)
            || held.is_empty()
            || !held.chars().all(|c| is_punctuation(c) && !matches!(c, '*' | '_' | '~' | '\\'))
        {
            return false;
        }
        let escape = if starts_block && block_escape(held) == Some(0) { "\\" } else { "" };
        self.out.replace_range(content - opener.len()..content, escape);
        if self.verbatim == 0 {
            self.text_end = self.out.len();
        }
        true
    }

    /// Closes the written inline markup, innermost first, on the current
    /// line, leaving it open to be written again.
    fn close_written_inline(&mut self) {
        for inline in self.inline.iter_mut().rev() {
            if inline.written.take().is_some() {
                self.out.push_str(&inline.closer);
            }
        }
    }

    /// Content written as is, after pending breaks.
    pub fn raw_inline(&mut self, s: &str) {
        self.note_controls(s);
        self.begin_content(None);
        self.out.push_str(s);
    }

    /// Content appended right after the previous content (a pending space
    /// is dropped).
    pub fn raw_inline_tight(&mut self, s: &str) {
        self.note_controls(s);
        if self.pending == Break::Space {
            self.pending = Break::None;
        }
        self.out.push_str(s);
    }

    /// A whole line of its own.
    pub fn raw_line(&mut self, s: &str) {
        self.note_controls(s);
        self.request(Break::Line);
        self.start_new_line();
        self.out.push_str(s);
        self.fresh = false;
    }

    /// Does the output end in a rule ([`Writer::rule`])?
    pub fn ends_in_rule(&self) -> bool {
        self.out.trim_end().ends_with("\n---") || self.out.trim_end() == "---"
    }

    pub fn rule(&mut self) {
        self.raw_line("---");
        self.request(Break::Paragraph);
    }

    /// Opens a code block whose fence is longer than any backtick run in
    /// `content`, with its `language` after the opening fence.
    pub fn fence_open(&mut self, content: &str, language: Option<&str>) {
        self.fence = "`".repeat(longest_backtick_run(content).max(2) + 1);
        let fence = format!("{}{}", self.fence, language.unwrap_or(""));
        self.raw_line(&fence);
        self.request(Break::Line);
        self.start_new_line();
        self.verbatim += 1;
    }

    pub fn fence_close(&mut self) {
        self.verbatim = self.verbatim.saturating_sub(1);
        // Code that ends in a line break (`<pre>x\n</pre>`) has it from
        // the fence: an empty last line is not written twice.
        let prefix: String = self.prefixes.concat();
        if !self.fresh && self.out.ends_with(&format!("\n{prefix}")) {
            self.fresh = true;
            self.line_start = self.out.len() - prefix.len();
        }
        self.request(Break::Line);
        self.start_new_line();
        let fence = std::mem::take(&mut self.fence);
        self.out.push_str(&fence);
        self.fresh = false;
    }

    /// Enters or leaves a code span (text verbatim).
    pub fn verbatim(&mut self, enter: bool) {
        if enter {
            self.verbatim += 1;
        } else {
            self.verbatim = self.verbatim.saturating_sub(1);
        }
    }

    /// Is this inline opener already open (`<b><b>` is bold once)?
    pub fn inline_open(&self, opener: &str) -> bool {
        self.inline.iter().any(|i| i.opener == opener)
    }

    /// The output, trailing whitespace trimmed. Control characters that
    /// reached it other than through [`Writer::text`] (an image's `alt`,
    /// a link target) are left out here. Text comes stripped, and the
    /// writer's own breaks, spaces, fences and escapes are none, so
    /// without such a string the output holds none: the pass is skipped.
    pub fn finish(mut self) -> String {
        if self.fresh {
            self.out.truncate(self.line_start);
        }
        let trimmed = self.out.trim_end().len();
        self.out.truncate(trimmed);
        if !self.may_hold_controls {
            debug_assert!(!crate::controls::has_control(&self.out));
            return self.out;
        }
        match super::strip_controls(&self.out) {
            std::borrow::Cow::Borrowed(_) => self.out,
            std::borrow::Cow::Owned(clean) => clean,
        }
    }
}

/// Is `text` made of zero-width or formatting characters (zero-width
/// space, joiners, direction marks, word joiner, byte order mark, soft
/// hyphen), with white space or not, which show nothing on their own?
/// Within visible text they stay: a joiner holds an emoji sequence
/// together. White space alone is not this: it separates words.
fn is_invisible(text: &str) -> bool {
    let format =
        |c: char| matches!(c, '\u{200B}'..='\u{200F}' | '\u{2060}' | '\u{FEFF}' | '\u{00AD}');
    // (`all` first: it stops at the first visible character of a text.)
    text.chars().all(|c| c.is_whitespace() || format(c)) && text.chars().any(format)
}

/// Which of the `closers` just written back to back (innermost first)
/// an emphasis `opener` written right after them continues: the
/// outermost one equal to it, when the closers outside it are runs of the
/// same delimiter (`*`, `_` or `~`), which CommonMark pairs by their
/// lengths whatever the order they were written in (`***a**.*` is
/// `<em><strong>a</strong>.</em>`). Those inside it (`</sup>`) stay
/// closed inside it.
fn continued(closers: &[String], opener: &str) -> Option<usize> {
    if !is_delimiter_run(opener) {
        return None;
    }
    let delimiter = opener.as_bytes()[0];
    let run_of = |s: &str| s.bytes().all(|b| b == delimiter);
    let i = closers.iter().rposition(|c| c == opener)?;
    closers[i + 1..].iter().all(|c| run_of(c)).then_some(i)
}

/// Whether `s` is an emphasis delimiter run: `*`, `_` or `~`, repeated.
fn is_delimiter_run(s: &str) -> bool {
    s.as_bytes()
        .first()
        .is_some_and(|&d| matches!(d, b'*' | b'_' | b'~') && s.bytes().all(|b| b == d))
}

/// Whether CommonMark takes `c` for punctuation beside an emphasis
/// delimiter: ASCII punctuation, and the commonest of Unicode's
/// punctuation and symbols in prose (quotes, dashes, the ellipsis,
/// currency and trade marks).
fn is_punctuation(c: char) -> bool {
    c.is_ascii_punctuation()
        || matches!(
            c,
            '‘' | '’'
                | '“'
                | '”'
                | '«'
                | '»'
                | '…'
                | '–'
                | '—'
                | '¡'
                | '¿'
                | '·'
                | '€'
                | '£'
                | '¥'
                | '©'
                | '®'
                | '™'
                | '°'
                | '§'
                | '¶'
        )
}

/// Whether text ending in `before`, followed without white space by
/// the text of another element starting with `after`, reads as two
/// words: a lower-case letter or a digit before an upper-case letter.
/// Within one word markup splits the other way (a drop cap, `T` + `he`)
/// or keeps the case (`<b>W</b>ORLD`); a unit or a footnote mark
/// (`km` + `2`, `word` + `1`) is not split.
pub(crate) fn glued(before: char, after: char) -> bool {
    after.is_uppercase() && (before.is_lowercase() || before.is_ascii_digit())
}

/// Bytes that may start a white space character: the ASCII ones and the
/// lead bytes of the others (U+0085, U+00A0; U+1680; U+2000–U+205F;
/// U+3000).
const MAY_START_SPACE: [bool; 256] = {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 256 {
        table[b] = matches!(b, 0x09..=0x0D | 0x20 | 0xC2 | 0xE1..=0xE3);
        b += 1;
    }
    table
};

/// Bit 7 of each byte of the eight bytes `w` (little end first) set
/// where the byte is in [`MAY_START_SPACE`] but is not a space followed
/// by a byte that is not (`next`: the byte after the eighth is): the
/// bytes [`push_collapsed`] must look at, and no others (exact:
/// [`EightBytes`](crate::controls::EightBytes)).
fn collapse_candidates(w: u64, next: bool) -> u64 {
    let b = crate::controls::EightBytes(w);
    let spaces = b.ascii_in(b' ', b' ');
    let starts = spaces | b.ascii_in(0x09, 0x0D) | b.high_in(0xC2, 0xC2) | b.high_in(0xE1, 0xE3);
    let before_start = (starts >> 8) | (u64::from(next) << 63);
    (starts & !spaces) | (spaces & before_start)
}

/// The length of the [`char::is_whitespace`] character starting at byte
/// `i` of `text`, or 0.
fn space_at(text: &str, i: usize) -> usize {
    match text.as_bytes().get(i) {
        Some(0x09..=0x0D | b' ') => 1,
        Some(0xC2 | 0xE1..=0xE3) => text
            .get(i..)
            .and_then(|rest| rest.chars().next())
            .filter(|c| c.is_whitespace())
            .map_or(0, char::len_utf8),
        _ => 0,
    }
}

/// Appends `core` (no white space at either end) with each run of white
/// space as one space: its words joined by spaces, as
/// `core.split_whitespace()` would give them, but copied a stretch at a
/// time — prose, whose white space is single spaces already, is one copy
/// \[I\].
fn push_collapsed(out: &mut String, core: &str) {
    let bytes = core.as_bytes();
    let (mut copied, mut i) = (0, 0);
    loop {
        // Eight bytes at a time past letters and single spaces (SWAR)
        // \[I\]: to the first byte that may start white space other than
        // a space before a byte that cannot ([`collapse_candidates`]).
        if let Some(chunk) = bytes.get(i..).and_then(<[u8]>::first_chunk::<8>) {
            let next = bytes.get(i + 8).is_some_and(|&b| MAY_START_SPACE[usize::from(b)]);
            let candidates = collapse_candidates(u64::from_le_bytes(*chunk), next);
            if candidates == 0 {
                i += 8;
                continue;
            }
            i += (candidates.trailing_zeros() / 8) as usize;
        }
        let Some(&b) = bytes.get(i) else { break };
        if !MAY_START_SPACE[usize::from(b)] {
            i += 1;
            continue;
        }
        let first = space_at(core, i);
        if first == 0 {
            i += 1;
            continue;
        }
        // A run of white space from `i` to `end`.
        let mut end = i + first;
        while let n @ 1.. = space_at(core, end) {
            end += n;
        }
        if !(b == b' ' && end == i + 1) {
            out.push_str(core.get(copied..i).unwrap_or_default());
            out.push(' ');
            copied = end;
        }
        i = end;
    }
    out.push_str(core.get(copied..).unwrap_or_default());
}

/// The longest run of backticks in `s`.
pub(crate) fn longest_backtick_run(s: &str) -> usize {
    s.split(|c| c != '`').map(str::len).max().unwrap_or(0)
}

/// Writes a word with Markdown's inline syntax characters escaped, and
/// block syntax (`#`, `>`, `-`, `+`, `1.`, and `|`, which would start a
/// table row, issue 11) escaped at the start of a line.
fn push_escaped(out: &mut String, word: &str, line_start: bool, in_cell: bool) {
    if line_start {
        if let Some(at) = block_escape(word) {
            out.push_str(&word[..at]);
            out.push('\\');
            push_inline_escaped(out, &word[at..], in_cell);
            return;
        }
    } else if word.bytes().all(|b| b == b'#') {
        // A run of `#` would close an ATX heading (`## a #`).
        out.push('\\');
    }
    push_inline_escaped(out, word, in_cell);
}

/// Where a backslash goes in `word`, first on a line where Markdown reads
/// block syntax, for it not to start a block. Only what starts one when
/// white space or the line's end follows it (CommonMark 4.1, 4.2, 5.2)
/// is escaped: `1.`, `12)`, `##`, `-`, `+`, a line of `-` or `=` (a rule,
/// a heading's underline), and `>` and a table's `|` whatever follows;
/// `1.5`, `#tag` and `-5 %` are not.
fn block_escape(word: &str) -> Option<usize> {
    let digits = word.bytes().take_while(u8::is_ascii_digit).count();
    if (1..=9).contains(&digits) && matches!(&word.as_bytes()[digits..], b"." | b")") {
        return Some(digits);
    }
    let run_of = |c: char| word.chars().all(|w| w == c);
    let heading = run_of('#') && word.len() <= 6;
    (heading || run_of('-') || run_of('=') || word == "+" || word.starts_with(['>', '|']))
        .then_some(0)
}

fn push_inline_escaped(out: &mut String, s: &str, in_cell: bool) {
    let mut before = None;
    for (i, c) in s.char_indices() {
        if matches!(c, '\\' | '*' | '[' | ']' | '`' | '<' | '~')
            || (c == '_' && !inside_word(before, s[i + 1..].chars().next()))
            || (in_cell && c == '|')
            || (c == '&' && starts_entity(&s[i + 1..]))
        {
            out.push('\\');
        }
        out.push(c);
        before = Some(c);
    }
}

/// Whether a `_` between `before` and `after` is inside a word
/// (`snake_case`, `hhp_info@`): between two letters or digits it can
/// neither open nor close emphasis (CommonMark 6.2), so it needs no
/// escape.
fn inside_word(before: Option<char>, after: Option<char>) -> bool {
    before.is_some_and(char::is_alphanumeric) && after.is_some_and(char::is_alphanumeric)
}

/// Does `s` (what follows a `&`) read as the rest of a character
/// reference (`amp;`, `#35;`, `#x23;`), which Markdown would decode?
fn starts_entity(s: &str) -> bool {
    let name = s.bytes().take_while(|b| b.is_ascii_alphanumeric() || *b == b'#').count();
    name > 0 && name <= 32 && s.as_bytes().get(name) == Some(&b';')
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The output pass that strips control characters runs whenever a
    /// string other than text held one: a marker, a prefix, a raw string.
    #[test]
    fn controls_written_other_than_as_text_are_stripped() {
        let writes: [fn(&mut Writer); 4] = [
            |w| w.marker("#\u{1b}]0;x\u{7} ".to_string()),
            |w| w.push_prefix("> \u{9b}".to_string()),
            |w| w.raw_inline("[\u{1b}[2J]"),
            |w| w.list_item("1.\u{7f} ".to_string()),
        ];
        for write in writes {
            let mut w = Writer::markdown();
            write(&mut w);
            w.text("words", false);
            let out = w.finish();
            assert!(!crate::controls::has_control(&out), "{out:?}");
            assert!(out.contains("words"), "{out:?}");
        }
        // Text alone is stripped as it is written.
        let mut w = Writer::default();
        w.text("a\u{1b}b\u{7}", false);
        assert_eq!(w.finish(), "ab");
    }

    /// White space runs of every kind collapse as `split_whitespace`
    /// collapses them; other non-ASCII characters with the same lead
    /// bytes stay.
    #[test]
    fn collapsed_text_is_its_words_joined_by_spaces() {
        let pieces = [
            "a",
            "b c",
            "  ",
            "\t",
            "\n\r",
            "\u{a0}",
            "\u{2003}",
            "\u{3000}",
            "\u{1680}",
            "\u{85}",
            "°",
            "’",
            "—",
            "あ",
            "\u{205f}",
            "\u{202f}",
            "x\u{2028}y",
            "é",
        ];
        for (i, a) in pieces.iter().enumerate() {
            for b in &pieces {
                for c in &pieces[i % 5..] {
                    let text = format!("w{a}{b}x{c}{a}z");
                    let mut out = String::new();
                    push_collapsed(&mut out, &text);
                    let words: Vec<&str> = text.split_whitespace().collect();
                    assert_eq!(out, words.join(" "), "{text:?}");
                }
            }
        }
    }

    /// The same with the white space at every position of the eight-byte
    /// words, after every kind of byte.
    #[test]
    fn collapsed_text_at_every_offset() {
        let spaces = ["  ", " ", "\t", "\n", "\u{a0}", "\u{2003}", "\u{3000}", "\u{85}", " \u{a0}"];
        let others = ["°", "’", "あ", "\u{202f}", "\u{1680}x", "é"];
        for pad in 0..17 {
            let lead: String = "abcdefgh".chars().cycle().take(pad).collect();
            for s in spaces.iter().chain(&others) {
                for t in spaces.iter().chain(&others) {
                    let text = format!("{lead}{s}w{t}{lead}x{s}{s}y z{lead}");
                    let mut out = String::new();
                    push_collapsed(&mut out, text.trim());
                    let words: Vec<&str> = text.split_whitespace().collect();
                    assert_eq!(out, words.join(" "), "{text:?}");
                }
            }
        }
        for b in 0u8..=0x7F {
            for pad in 0..9 {
                let text = format!("{}{} {}x", "a".repeat(pad), char::from(b), char::from(b));
                let mut out = String::new();
                push_collapsed(&mut out, text.trim());
                let words: Vec<&str> = text.split_whitespace().collect();
                assert_eq!(out, words.join(" "), "{text:?}");
            }
        }
    }

    #[test]
    fn escaping() {
        let mut w = Writer::markdown();
        w.text("# not a heading, 1. not a list, a*b_c [x] `y` |z| _d /_e f_ g__h", false);
        assert_eq!(
            w.finish(),
            "\\# not a heading, 1. not a list, a\\*b_c \\[x\\] \\`y\\` |z| \\_d /\\_e f\\_ g\\_\\_h"
        );
        let mut w = Writer::markdown();
        w.in_cell = true;
        w.text("a|b", false);
        assert_eq!(w.finish(), "a\\|b");
        let mut w = Writer::markdown();
        w.text("12. items", false);
        assert_eq!(w.finish(), "12\\. items");
        assert_eq!(longest_backtick_run("a ``` b ` c"), 3);
    }

    /// See: issue 11, "A leading `|` in a Markdown paragraph is not
    /// escaped".
    #[test]
    fn issue_11_a_leading_pipe_is_escaped() {
        let mut w = Writer::markdown();
        w.text("| not a row | x", false);
        assert_eq!(w.finish(), "\\| not a row | x");
    }
}
