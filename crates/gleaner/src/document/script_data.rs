//! Where a `<script>` element's content ends: the WHATWG script data
//! states (§13.2.5.4 and §13.2.5.15–13.2.5.31), escape states included.
//!
//! Script content normally ends at the first `</script`. Inside an escaped
//! section (`<!--` … `-->`), a `<script` opens a double-escaped section in
//! which `</script>` does not end the element (it only leaves the double
//! escape): `<script><!-- document.write('<script></script>') --></script>`
//! is one script. Only `<`, `-`, `>`, `/` and letters after `<` or `</`
//! matter, so this is a byte scan with a few states.

/// The script data states that decide where the content ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    /// §13.2.5.4 script data.
    Data,
    /// §13.2.5.20–22: after `<!--`, ends at `-->`.
    Escaped,
    /// §13.2.5.27–31: after `<script` in an escaped section.
    DoubleEscaped,
}

/// True if `s[at..]` starts with `script` (any case) followed by
/// whitespace, `/` or `>` (the appropriate end tag, or the name that
/// starts and ends a double escape).
fn script_name_at(s: &[u8], at: usize) -> bool {
    let end = at + 6;
    s.len() > end
        && s[at..end].eq_ignore_ascii_case(b"script")
        && matches!(s[end], b'\t' | b'\n' | b'\x0C' | b'\r' | b' ' | b'/' | b'>')
}

/// The byte offset where the content of a `<script>` element that starts
/// at `from` ends: the `<` of its end tag, or `s.len()` when it runs to the
/// end of the input.
pub(crate) fn script_data_end(s: &[u8], from: usize) -> usize {
    let mut state = State::Data;
    // Consecutive `-` just read (the `-->` that ends an escape).
    let mut dashes = 0usize;
    let mut i = from;
    while i < s.len() {
        // Only `<` matters in script data, and `<`, `-`, `>` in the
        // escapes: skip to the next one (any other byte ends a run of
        // dashes).
        let next = match state {
            State::Data => memchr::memchr(b'<', &s[i..]),
            _ => memchr::memchr3(b'<', b'-', b'>', &s[i..]),
        };
        match next {
            None => return s.len(),
            Some(0) => {}
            Some(skip) => {
                i += skip;
                dashes = 0;
            }
        }
        let b = s[i];
        match b {
            b'-' => {
                dashes += 1;
                i += 1;
                continue;
            }
            b'>' if dashes >= 2 && state != State::Data => {
                // §13.2.5.22/29: `-->` ends the (double) escape.
                state = State::Data;
            }
            b'<' => match state {
                State::Data => {
                    if s.get(i + 1) == Some(&b'/') && script_name_at(s, i + 2) {
                        return i;
                    }
                    // §13.2.5.16–18: `<!--` starts an escape; its dashes
                    // count towards `-->` (`<!-->` ends it at once).
                    if s[i + 1..].starts_with(b"!--") {
                        state = State::Escaped;
                        i += 4;
                        dashes = 2;
                        continue;
                    }
                }
                State::Escaped => {
                    if s.get(i + 1) == Some(&b'/') && script_name_at(s, i + 2) {
                        return i;
                    }
                    if script_name_at(s, i + 1) {
                        // §13.2.5.26: `<script` then a delimiter.
                        state = State::DoubleEscaped;
                        i += 7;
                        dashes = 0;
                        continue;
                    }
                }
                State::DoubleEscaped => {
                    if s.get(i + 1) == Some(&b'/') && script_name_at(s, i + 2) {
                        // §13.2.5.31: `</script` leaves the double escape.
                        state = State::Escaped;
                        i += 8;
                        dashes = 0;
                        continue;
                    }
                }
            },
            _ => {}
        }
        dashes = 0;
        i += 1;
    }
    s.len()
}

#[cfg(test)]
mod tests {
    use super::script_data_end;

    fn content(script: &str) -> &str {
        &script[..script_data_end(script.as_bytes(), 0)]
    }

    #[test]
    fn plain_script_ends_at_its_end_tag() {
        assert_eq!(content("if (a<b) x='</p>';</script>rest"), "if (a<b) x='</p>';");
        assert_eq!(content("x</SCRIPT >"), "x");
        assert_eq!(content("x</scripts></script>"), "x</scripts>");
        assert_eq!(content("no end"), "no end");
    }

    #[test]
    fn double_escaped_script_tags_do_not_end_it() {
        let s = "<!-- document.write('<script></script>') --></script>after";
        assert_eq!(content(s), "<!-- document.write('<script></script>') -->");
        // Escaped but not double escaped: `</script>` ends it.
        assert_eq!(content("<!-- a </script> b -->"), "<!-- a ");
        // An unterminated double escape runs to the end of the input.
        assert_eq!(content("<!--<script></script>"), "<!--<script></script>");
    }

    #[test]
    fn an_escape_ends_at_dash_dash_gt() {
        assert_eq!(content("<!-- x --><script></script>"), "<!-- x --><script>");
        assert_eq!(content("<!--><script></script>"), "<!--><script>");
    }
}
