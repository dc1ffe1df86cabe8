//! The CSS selectors the shims take (Firecrawl's `includeTags` and
//! `excludeTags`, Jina Reader's `X-Target-Selector` and
//! `X-Remove-Selector`): a subset of Selectors Level 3 that covers what
//! people write there — type (`article`), universal (`*`), `#id`,
//! `.class`, attribute tests (`[attr]`, `[attr=v]`, `[attr~=v]`,
//! `[attr^=v]`, `[attr$=v]`, `[attr*=v]`), compounds of these, the
//! descendant (` `) and child (`>`) combinators, and lists (`a, b`).
//! Anything else (pseudo-classes, sibling combinators) is a parse error,
//! never a silent mismatch.

use gleaner::document::NodeId;
use gleaner::Document;

/// The longest selector list accepted, in bytes.
pub const MAX_SELECTOR_BYTES: usize = 1024;

/// A selector that cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("selector {selector:?}: {why}")]
pub struct SelectorError {
    /// The selector as given.
    pub selector: String,
    /// What is wrong with it.
    pub why: String,
}

/// How an attribute's value is tested.
#[derive(Debug, Clone, PartialEq, Eq)]
enum AttrTest {
    Exists,
    Equals(String),
    Word(String),
    Prefix(String),
    Suffix(String),
    Contains(String),
}

/// One compound selector: every test must hold of one element.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct Compound {
    tag: Option<String>,
    id: Option<String>,
    classes: Vec<String>,
    attrs: Vec<(String, AttrTest)>,
}

/// How a compound relates to the one before it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Combinator {
    Descendant,
    Child,
}

/// A complex selector: compounds joined by combinators, left to right.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Complex {
    first: Compound,
    rest: Vec<(Combinator, Compound)>,
}

/// A selector list (`a, b`): an element matches when any one matches.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SelectorList {
    alternatives: Vec<Complex>,
}

impl SelectorList {
    /// Parses `text`.
    ///
    /// # Errors
    /// An empty or over-long selector, or one outside the subset.
    pub fn parse(text: &str) -> Result<SelectorList, SelectorError> {
        let fail = |why: &str| SelectorError { selector: text.to_string(), why: why.to_string() };
        if text.len() > MAX_SELECTOR_BYTES {
            return Err(fail(&format!("longer than {MAX_SELECTOR_BYTES} bytes")));
        }
        let mut alternatives = Vec::new();
        for part in text.split(',') {
            alternatives.push(parse_complex(part.trim()).map_err(|why| fail(&why))?);
        }
        Ok(SelectorList { alternatives })
    }

    /// Parses several lists (one per header or list entry) as one.
    ///
    /// # Errors
    /// As [`SelectorList::parse`], for the first that fails.
    pub fn parse_all<S: AsRef<str>>(texts: &[S]) -> Result<Option<SelectorList>, SelectorError> {
        let mut alternatives = Vec::new();
        for text in texts {
            alternatives.extend(SelectorList::parse(text.as_ref())?.alternatives);
        }
        Ok((!alternatives.is_empty()).then_some(SelectorList { alternatives }))
    }

    /// Does the element `id` match?
    pub fn matches(&self, doc: &Document, id: NodeId) -> bool {
        self.alternatives.iter().any(|c| c.matches(doc, id))
    }

    /// Every element of `doc` that matches, in document order.
    pub fn select(&self, doc: &Document) -> Vec<NodeId> {
        doc.ids().filter(|&id| doc.element(id).is_some() && self.matches(doc, id)).collect()
    }
}

fn parse_complex(text: &str) -> Result<Complex, String> {
    if text.is_empty() {
        return Err("empty selector".into());
    }
    let mut parts: Vec<(Combinator, Compound)> = Vec::new();
    let mut pending = Combinator::Descendant;
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b' ' | b'\t' | b'\n' => i += 1,
            b'>' => {
                if parts.is_empty() {
                    return Err("a combinator with nothing before it".into());
                }
                pending = Combinator::Child;
                i += 1;
            }
            b'+' | b'~' => return Err("sibling combinators are not supported".into()),
            _ => {
                let (compound, used) = parse_compound(&text[i..])?;
                parts.push((pending, compound));
                pending = Combinator::Descendant;
                i += used;
            }
        }
    }
    if pending == Combinator::Child {
        return Err("a combinator with nothing after it".into());
    }
    let mut parts = parts.into_iter();
    let Some((_, first)) = parts.next() else { return Err("empty selector".into()) };
    Ok(Complex { first, rest: parts.collect() })
}

/// Is `c` part of a CSS identifier (ASCII subset, plus non-ASCII)?
fn ident_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '-' || c == '_' || !c.is_ascii()
}

/// Reads one compound from the start of `text`; returns it and the bytes
/// it took.
fn parse_compound(text: &str) -> Result<(Compound, usize), String> {
    let mut compound = Compound::default();
    let mut chars = text.char_indices().peekable();
    let ident = |chars: &mut std::iter::Peekable<std::str::CharIndices<'_>>| {
        let mut name = String::new();
        while let Some(&(_, c)) = chars.peek() {
            if !ident_char(c) {
                break;
            }
            name.push(c);
            chars.next();
        }
        name
    };
    let mut any = false;
    while let Some(&(at, c)) = chars.peek() {
        match c {
            '*' if !any => {
                chars.next();
            }
            '#' => {
                chars.next();
                let name = ident(&mut chars);
                if name.is_empty() {
                    return Err("`#` without a name".into());
                }
                compound.id = Some(name);
            }
            '.' => {
                chars.next();
                let name = ident(&mut chars);
                if name.is_empty() {
                    return Err("`.` without a class name".into());
                }
                compound.classes.push(name);
            }
            '[' => {
                let close = text[at..].find(']').ok_or("`[` without `]`")?;
                compound.attrs.push(parse_attr(&text[at + 1..at + close])?);
                while chars.peek().is_some_and(|&(i, _)| i <= at + close) {
                    chars.next();
                }
            }
            ':' => return Err("pseudo-classes are not supported".into()),
            c if ident_char(c) && !any => {
                compound.tag = Some(ident(&mut chars).to_ascii_lowercase());
            }
            ' ' | '\t' | '\n' | '>' | '+' | '~' => return Ok((compound, at)),
            other => return Err(format!("unexpected {other:?}")),
        }
        any = true;
    }
    Ok((compound, text.len()))
}

fn parse_attr(inner: &str) -> Result<(String, AttrTest), String> {
    let inner = inner.trim();
    let Some(eq) = inner.find('=') else {
        if inner.is_empty() || !inner.chars().all(ident_char) {
            return Err(format!("bad attribute test [{inner}]"));
        }
        return Ok((inner.to_ascii_lowercase(), AttrTest::Exists));
    };
    let (name, op) = match inner[..eq].chars().last() {
        Some(c @ ('~' | '^' | '$' | '*')) => (&inner[..eq - 1], Some(c)),
        Some('|') => return Err("`|=` is not supported".into()),
        _ => (&inner[..eq], None),
    };
    let name = name.trim();
    if name.is_empty() || !name.chars().all(ident_char) {
        return Err(format!("bad attribute test [{inner}]"));
    }
    let value = inner[eq + 1..].trim();
    let value = value
        .strip_prefix('"')
        .and_then(|v| v.strip_suffix('"'))
        .or_else(|| value.strip_prefix('\'').and_then(|v| v.strip_suffix('\'')))
        .unwrap_or(value)
        .to_string();
    let test = match op {
        None => AttrTest::Equals(value),
        Some('~') => AttrTest::Word(value),
        Some('^') => AttrTest::Prefix(value),
        Some('$') => AttrTest::Suffix(value),
        _ => AttrTest::Contains(value),
    };
    Ok((name.to_ascii_lowercase(), test))
}

impl Compound {
    fn matches(&self, doc: &Document, id: NodeId) -> bool {
        let Some(name) = doc.name(id) else { return false };
        if self.tag.as_deref().is_some_and(|t| !(**name).eq_ignore_ascii_case(t)) {
            return false;
        }
        if let Some(want) = &self.id {
            if doc.attr(id, "id") != Some(want.as_str()) {
                return false;
            }
        }
        if !self.classes.is_empty() {
            let classes = doc.attr(id, "class").unwrap_or_default();
            if !self.classes.iter().all(|c| classes.split_ascii_whitespace().any(|k| k == c)) {
                return false;
            }
        }
        self.attrs.iter().all(|(name, test)| {
            let Some(value) = doc.attr(id, name) else { return false };
            match test {
                AttrTest::Exists => true,
                AttrTest::Equals(v) => value == v,
                AttrTest::Word(v) => value.split_ascii_whitespace().any(|w| w == v),
                AttrTest::Prefix(v) => !v.is_empty() && value.starts_with(v.as_str()),
                AttrTest::Suffix(v) => !v.is_empty() && value.ends_with(v.as_str()),
                AttrTest::Contains(v) => !v.is_empty() && value.contains(v.as_str()),
            }
        })
    }
}

impl Complex {
    /// Matches right to left: the last compound on `id`, each earlier
    /// one on a parent (child) or some ancestor (descendant).
    fn matches(&self, doc: &Document, id: NodeId) -> bool {
        let mut chain: Vec<(Combinator, &Compound)> = Vec::with_capacity(self.rest.len() + 1);
        chain.push((Combinator::Descendant, &self.first));
        chain.extend(self.rest.iter().map(|(c, k)| (*c, k)));
        matches_from(doc, id, &chain)
    }
}

/// Does `chain`'s last compound match `id`, with the rest matching above?
fn matches_from(doc: &Document, id: NodeId, chain: &[(Combinator, &Compound)]) -> bool {
    let Some(((combinator, last), before)) = chain.split_last() else { return true };
    if !last.matches(doc, id) {
        return false;
    }
    if before.is_empty() {
        return true;
    }
    match combinator {
        Combinator::Child => doc.parent(id).is_some_and(|p| matches_from(doc, p, before)),
        Combinator::Descendant => {
            // Depth-bounded by the parser's nesting limit; each ancestor
            // tried once per level of the chain.
            doc.ancestors(id).any(|a| matches_from(doc, a, before))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(html: &str, selector: &str) -> Vec<String> {
        let options = gleaner::ParseOptions::default().keep_all_attributes(true);
        let doc = Document::parse_str(html, &options).expect("parse");
        let list = SelectorList::parse(selector).expect("selector");
        list.select(&doc).into_iter().map(|id| doc.text_content(id)).collect()
    }

    const PAGE: &str = "<body><div id=main class='post wide'><p>one</p><nav><p>two</p></nav></div>\
                        <aside data-x='ad box'><p>three</p></aside></body>";

    #[test]
    fn selects_by_type_id_class_and_attribute() {
        assert_eq!(names(PAGE, "p"), ["one", "two", "three"]);
        assert_eq!(names(PAGE, "#main > p"), ["one"]);
        assert_eq!(names(PAGE, "div.post.wide nav p"), ["two"]);
        assert_eq!(names(PAGE, "[data-x~=ad] p, nav"), ["two", "three"]);
        assert_eq!(names(PAGE, "aside[data-x^='ad']"), ["three"]);
        assert!(names(PAGE, ".missing").is_empty());
    }

    #[test]
    fn what_is_outside_the_subset_is_an_error() {
        for bad in ["", "p:first-child", "a + b", "> p", "p >", "[x", "#", "a,,b", "p!"] {
            assert!(SelectorList::parse(bad).is_err(), "{bad:?}");
        }
        assert!(SelectorList::parse(&"p ".repeat(600)).is_err());
    }
}
