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
    }
}
