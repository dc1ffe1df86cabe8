//! Dragnet (Peters & Lecocq 2013): plain text whose user comments, after
//! a separator line, are cut off
//! ([`GoldFormat::Dragnet`](super::GoldFormat::Dragnet)).

/// Cuts a Dragnet gold text at its comments separator line, if any.
pub(super) fn cut_dragnet_comments(text: &str) -> &str {
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        if is_comments_separator(line) {
            return text.get(..offset).unwrap_or(text);
        }
        offset += line.len();
    }
    text
}

/// Dragnet's separator: `!@#$%^&*()  COMMENTS`, spelled in several ways in
/// the files (`!@ $%^&*()`, `!@#$%^&*`, `COMMNENTS`, `CORRECTED`, the
/// word missing). It is a line of at least seven different characters of
/// `!@#$%^&*()` and spaces, then at most one upper-case word; seven keeps
/// ordinary lines like `@!$%#` (a curse) or `*****` out.
pub(super) fn is_comments_separator(line: &str) -> bool {
    const SYMBOLS: &str = "!@#$%^&*()";
    let t = line.trim();
    let split = t.find(|c: char| !SYMBOLS.contains(c) && !c.is_whitespace()).unwrap_or(t.len());
    let (symbols, word) = t.split_at(split);
    let mut seen: Vec<char> = symbols.chars().filter(|c| SYMBOLS.contains(*c)).collect();
    seen.sort_unstable();
    seen.dedup();
    seen.len() >= 7 && word.chars().all(|c| c.is_ascii_uppercase())
}
