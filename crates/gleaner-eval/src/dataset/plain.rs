//! Plain-text gold (plain folders, Dragnet after its comments are cut,
//! ScrapingHub's `articleBody`, WCXB's `main_content`): lines kept,
//! whitespace collapsed, runs of blank lines made one.

/// Plain text: lines kept with whitespace collapsed, runs of blank lines
/// turned into one, the whole trimmed.
pub(super) fn plain_gold(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut blank = false;
    for line in text.lines() {
        let mut words = line.split_whitespace().peekable();
        if words.peek().is_none() {
            blank = true;
            continue;
        }
        if !out.is_empty() {
            out.push_str(if blank { "\n\n" } else { "\n" });
        }
        blank = false;
        for (k, w) in words.enumerate() {
            if k > 0 {
                out.push(' ');
            }
            out.push_str(w);
        }
    }
    out
}
