//! URL normalisation: one page, one key.

use url::Url;

/// Query parameters that only track the visitor and never change a page.
const TRACKING: &[&str] = &[
    "fbclid",
    "gclid",
    "dclid",
    "gbraid",
    "wbraid",
    "msclkid",
    "mc_cid",
    "mc_eid",
    "yclid",
    "_ga",
    "_gl",
    "igshid",
    "twclid",
    "li_fat_id",
    "_hsenc",
    "_hsmi",
    "mkt_tok",
];

/// Directory index file names that a server answers for `x/`.
const INDEX_FILES: &[&str] = &["index.html", "index.htm"];

fn is_tracking(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    lower.starts_with("utm_") || TRACKING.contains(&lower.as_str())
}

/// The query pairs of `url` without tracking parameters, in order.
fn kept_pairs(url: &Url) -> Vec<(String, String)> {
    url.query_pairs()
        .filter(|(k, _)| !is_tracking(k))
        .map(|(k, v)| (k.into_owned(), v.into_owned()))
        .collect()
}

fn set_pairs(url: &mut Url, pairs: &[(String, String)]) {
    if pairs.is_empty() {
        url.set_query(None);
    } else {
        url.query_pairs_mut().clear().extend_pairs(pairs);
    }
}

/// The URL to request: `url` without its fragment and without tracking
/// parameters (`utm_*`, `fbclid`, `gclid`, …). Other parameters keep their
/// order and the path is left as it is. Scheme and host are lower-case and
/// a default port is dropped already by [`Url`] parsing.
pub fn clean_url(url: &Url) -> Url {
    let mut out = url.clone();
    out.set_fragment(None);
    if out.query().is_some() {
        let pairs = kept_pairs(&out);
        if pairs.len() != out.query_pairs().count() || pairs.is_empty() {
            set_pairs(&mut out, &pairs);
        }
    }
    out
}

/// The key under which a page is fetched once: [`clean_url`], then a
/// trailing `index.html` (or `index.htm`) dropped so `x/` and
/// `x/index.html` are one page, then the query parameters sorted.
pub fn url_key(url: &Url) -> String {
    let mut out = clean_url(url);
    let path = out.path().to_string();
    for index in INDEX_FILES {
        if let Some(dir) = path.strip_suffix(index) {
            if dir.ends_with('/') {
                out.set_path(dir);
                break;
            }
        }
    }
    if out.query().is_some() {
        let mut pairs = kept_pairs(&out);
        pairs.sort();
        set_pairs(&mut out, &pairs);
    }
    out.into()
}

/// Whether `a` and `b` are on one site: the same host and the same port,
/// where http on 80 and https on 443 count as one (a site moved to https).
pub fn same_site(a: &Url, b: &Url) -> bool {
    if a.host_str() != b.host_str() {
        return false;
    }
    a.port_or_known_default() == b.port_or_known_default()
        || (a.port().is_none() && b.port().is_none())
}

/// Whether `a` and `b` have one origin (RFC 6454 §4): the same scheme,
/// host and port (a default port counts as given). Stricter than
/// [`same_site`], which lets a site move from http to https.
pub fn same_origin(a: &Url, b: &Url) -> bool {
    a.origin() == b.origin()
}

/// The longest file name [`output_name`] makes, in bytes (file systems
/// allow 255; room is left for the output's extension and a `-N`).
const MAX_NAME_BYTES: usize = 200;

/// A relative path to write a page fetched from `url` under (`-o DIR`):
/// `HOST[_PORT]/SEGMENT/…/NAME`, never absolute, never `..`, no `:` or
/// `\`, every name at most 200 bytes. A path ending in `/` is
/// `…/index`; a query becomes `_q` and a hash of it after the last name,
/// so `?page=2` and `?page=3` do not overwrite each other.
///
/// ```
/// use gleaner_crawl::{output_name, Url};
/// let name = |s: &str| output_name(&Url::parse(s).unwrap());
/// assert_eq!(name("http://example.com/a/b.html"), std::path::Path::new("example.com/a/b.html"));
/// assert_eq!(name("https://127.0.0.1:8080/"), std::path::Path::new("127.0.0.1_8080/index"));
/// assert_eq!(name("http://[::1]/x/"), std::path::Path::new("___1_/x/index"));
/// ```
pub fn output_name(url: &Url) -> std::path::PathBuf {
    let mut host = url.host_str().map(safe_name).unwrap_or_else(|| "no-host".to_string());
    if let Some(port) = url.port() {
        host.push_str(&format!("_{port}"));
    }
    let mut path = std::path::PathBuf::from(host);
    let segments: Vec<&str> = url.path_segments().map(Iterator::collect).unwrap_or_default();
    let (last, dirs) = segments.split_last().unwrap_or((&"", &[]));
    for dir in dirs.iter().filter(|d| !d.is_empty()) {
        path.push(safe_name(dir));
    }
    let mut name = if last.is_empty() { "index".to_string() } else { safe_name(last) };
    if let Some(query) = url.query() {
        name.push_str(&format!("_q{:016x}", gleaner::hash::fnv1a(query.as_bytes())));
    }
    path.push(name);
    path
}

/// A path segment as a file name: percent-escapes kept, every byte but
/// ASCII letters, digits and `-._~%+=,@` made `_`, `.` and `..` made
/// `_`, cut to [`MAX_NAME_BYTES`].
fn safe_name(segment: &str) -> String {
    let mut out: String = segment
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() || "-._~%+=,@".contains(c) { c } else { '_' })
        .collect();
    if out.chars().all(|c| c == '.') {
        out = "_".repeat(out.len().max(1));
    }
    out.truncate(MAX_NAME_BYTES);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn u(s: &str) -> Url {
        Url::parse(s).unwrap()
    }

    #[test]
    fn keys_merge_spellings_of_one_page() {
        let key = url_key(&u("http://Example.COM:80/a/"));
        assert_eq!(key, "http://example.com/a/");
        assert_eq!(url_key(&u("http://example.com/a/index.html#top")), key);
        assert_eq!(url_key(&u("http://example.com/a/index.htm?utm_source=x")), key);
        assert_eq!(url_key(&u("http://example.com/a/./b/../")), key);
        assert_ne!(url_key(&u("http://example.com/a")), key);
        assert_ne!(url_key(&u("http://example.com/a/myindex.html")), key);
    }

    #[test]
    fn query_parameters_are_sorted_and_trackers_dropped() {
        assert_eq!(
            url_key(&u("http://e.com/p?b=2&utm_medium=m&a=1&fbclid=z")),
            "http://e.com/p?a=1&b=2"
        );
        assert_eq!(
            clean_url(&u("http://e.com/p?b=2&utm_medium=m&a=1")).as_str(),
            "http://e.com/p?b=2&a=1"
        );
        assert_eq!(clean_url(&u("http://e.com/p?utm_x=1")).as_str(), "http://e.com/p");
        assert_eq!(clean_url(&u("http://e.com/p?")).as_str(), "http://e.com/p");
        assert_eq!(clean_url(&u("http://e.com/p?q=a%20b")).as_str(), "http://e.com/p?q=a%20b");
    }

    #[test]
    fn sites_are_host_and_port() {
        assert!(same_site(&u("http://e.com/a"), &u("https://e.com/b")));
        assert!(same_site(&u("http://127.0.0.1:8000/a"), &u("http://127.0.0.1:8000/b")));
        assert!(!same_site(&u("http://127.0.0.1:8000/a"), &u("http://127.0.0.1:8001/a")));
        assert!(!same_site(&u("http://e.com/a"), &u("http://www.e.com/a")));
        assert!(same_origin(&u("http://e.com:80/a"), &u("http://e.com/b")));
        assert!(!same_origin(&u("http://e.com/a"), &u("https://e.com/b")));
        assert!(!same_origin(&u("http://e.com:8000/a"), &u("http://e.com:8001/a")));
    }

    #[test]
    fn issue_31_output_names_are_relative_and_safe() {
        use std::path::{Component, Path};
        let name = |s: &str| output_name(&u(s));
        assert_eq!(name("http://e.com"), Path::new("e.com/index"));
        assert_eq!(name("http://e.com/a/b/"), Path::new("e.com/a/b/index"));
        assert_eq!(name("http://e.com/a//b.html"), Path::new("e.com/a/b.html"));
        assert_eq!(name("http://e.com/%2e%2e/x"), Path::new("e.com/x"));
        assert_eq!(name("http://e.com/a%2fb"), Path::new("e.com/a%2fb"));
        assert_eq!(name("http://e.com/a:b|c"), Path::new("e.com/a_b_c"));
        let (p2, p3) = (name("http://e.com/list?page=2"), name("http://e.com/list?page=3"));
        assert_ne!(p2, p3);
        assert!(p2.to_str().unwrap().starts_with("e.com/list_q"));
        let long = name(&format!("http://e.com/{}", "x".repeat(5000)));
        assert!(long.file_name().unwrap().len() <= MAX_NAME_BYTES);
        for url in ["http://e.com/../../etc/passwd", "http://e.com/./a/..", "http://[::1]:80/"] {
            let path = name(url);
            assert!(
                path.components().all(|c| matches!(c, Component::Normal(_))),
                "{url}: {path:?}"
            );
            assert!(!path.to_str().unwrap().contains(':'), "{url}: {path:?}");
        }
    }
}
