//! Mutation fuzzing on the stable toolchain: the real fixture pages, cut,
//! spliced, with ranges duplicated or deleted, with tags that change the
//! parser's mode inserted, and with their encoding declarations changed,
//! through the parser, every extractor and every renderer, with the
//! invariants of `support::check_page`.
//!
//! CI runs a few cases; run it long with
//! `GLEANER_FUZZ_CASES=5000 cargo test --release -p gleaner --test fuzz`.
//! (The coverage-guided counterpart is `fuzz/`, for `cargo +nightly fuzz`.)

mod support;

use std::sync::OnceLock;

use gleaner::extract::Extractor;
use proptest::prelude::*;
use proptest::sample::Index;

/// Cases when `GLEANER_FUZZ_CASES` is not set: about 20 s in a debug
/// build on one core.
const DEFAULT_CASES: u32 = 64;

fn cases() -> u32 {
    std::env::var("GLEANER_FUZZ_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(DEFAULT_CASES)
}

/// The fixture pages, read once.
fn fixtures() -> &'static [(String, Vec<u8>)] {
    static PAGES: OnceLock<Vec<(String, Vec<u8>)>> = OnceLock::new();
    PAGES.get_or_init(|| {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures");
        let mut pages: Vec<(String, Vec<u8>)> = std::fs::read_dir(&dir)
            .expect("tests/fixtures")
            .map(|e| e.expect("entry").path())
            .filter(|p| p.extension().is_some_and(|e| e == "html"))
            .map(|p| {
                let name = p.file_name().expect("name").to_string_lossy().into_owned();
                (name, std::fs::read(&p).expect("read fixture"))
            })
            .collect();
        pages.sort();
        assert!(pages.len() >= 5, "fixture pages found in {}", dir.display());
        pages
    })
}

thread_local! {
    static EXTRACTORS: Vec<(String, Box<dyn Extractor>)> = support::extractors();
}

/// A place in a page as a fraction of its length (`u32::MAX` is the
/// end), so that it falls inside whatever length the page has by then.
type At = u32;

/// One change to a page.
#[derive(Debug, Clone)]
enum Mutation {
    /// Cut the page at a byte (possibly inside a UTF-8 sequence or a tag).
    Truncate(At),
    /// Insert random bytes.
    Splice(At, Vec<u8>),
    /// Copy a range of bytes to another place.
    Duplicate(At, At, At),
    /// Remove a range of bytes.
    Delete(At, At),
    /// Insert markup that changes what follows: `<div>` many times,
    /// an unclosed comment or script, a stray `</table>`, ….
    Insert(At, Vec<u8>),
    /// Change how the page says it is encoded: a byte order mark, a
    /// `<meta charset>` or an XML declaration in front.
    Declare(Vec<u8>),
}

/// Markup snippets that switch the tokenizer or tree builder into another
/// mode, or pile up open elements.
fn snippet() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        (1usize..3000).prop_map(|n| "<div>".repeat(n).into_bytes()),
        (1usize..500).prop_map(|n| "<table><tr><td>".repeat(n).into_bytes()),
        (1usize..500).prop_map(|n| "</div>".repeat(n).into_bytes()),
        prop::sample::select(vec![
            "</table>",
            "<!--",
            "-->",
            "<script>",
            "</script>",
            "<style>",
            "<textarea>",
            "<title>",
            "<plaintext>",
            "<xmp>",
            "<pre>",
            "<noscript>",
            "<template>",
            "<svg>",
            "<math>",
            "<![CDATA[",
            "<frameset>",
            "<body>",
            "</body></html>",
            "<select>",
            "<a href=\"",
            "<p class=\"sidebar\">",
            "\"",
            "'",
            "<",
            "&",
            "&#x0;&#xD800;&#1114112;",
            "\u{feff}",
            "\u{0}",
            "<li>",
            "<h1>",
            "</p></p></p>",
            "<img src=javascript:x>",
        ])
        .prop_map(|s| s.as_bytes().to_vec()),
    ]
}

/// Encoding declarations that disagree with the page's bytes.
fn declaration() -> impl Strategy<Value = Vec<u8>> {
    let labels = prop::sample::select(vec![
        "utf-8",
        "shift_jis",
        "euc-jp",
        "iso-2022-jp",
        "gb18030",
        "big5",
        "utf-16le",
        "utf-16be",
        "windows-1252",
        "iso-8859-7",
        "koi8-r",
        "x-user-defined",
        "replacement",
        "iso-2022-kr",
        "no-such-charset",
        "",
    ]);
    prop_oneof![
        labels.clone().prop_map(|l| format!("<meta charset=\"{l}\">").into_bytes()),
        labels.clone().prop_map(|l| format!(
            "<meta http-equiv=\"Content-Type\" content=\"text/html; charset={l}\">"
        )
        .into_bytes()),
        labels.prop_map(|l| format!("<?xml version=\"1.0\" encoding=\"{l}\"?>").into_bytes()),
        Just(b"\xEF\xBB\xBF".to_vec()),
        Just(b"\xFF\xFE".to_vec()),
        Just(b"\xFE\xFF".to_vec()),
    ]
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let at = any::<At>;
    prop_oneof![
        2 => at().prop_map(Mutation::Truncate),
        2 => (at(), prop::collection::vec(any::<u8>(), 1..64))
            .prop_map(|(i, b)| Mutation::Splice(i, b)),
        1 => (at(), at(), at()).prop_map(|(a, b, to)| Mutation::Duplicate(a, b, to)),
        2 => (at(), at()).prop_map(|(a, b)| Mutation::Delete(a, b)),
        4 => (at(), snippet()).prop_map(|(i, s)| Mutation::Insert(i, s)),
        2 => declaration().prop_map(Mutation::Declare),
    ]
}

/// A byte position in `0..=len`.
fn position(at: &At, len: usize) -> usize {
    ((u64::from(*at) * (len as u64 + 1)) >> 32) as usize
}

/// The byte range between two positions, in order.
fn range(a: &At, b: &At, len: usize) -> std::ops::Range<usize> {
    let (a, b) = (position(a, len), position(b, len));
    a.min(b)..a.max(b)
}

fn apply(page: &mut Vec<u8>, m: &Mutation) {
    let len = page.len();
    match m {
        Mutation::Truncate(at) => page.truncate(position(at, len)),
        Mutation::Splice(at, bytes) | Mutation::Insert(at, bytes) => {
            let at = position(at, len);
            page.splice(at..at, bytes.iter().copied());
        }
        Mutation::Duplicate(a, b, to) => {
            let copy = page[range(a, b, len)].to_vec();
            let to = position(to, len);
            page.splice(to..to, copy);
        }
        Mutation::Delete(a, b) => {
            page.drain(range(a, b, len));
        }
        Mutation::Declare(declaration) => {
            page.splice(0..0, declaration.iter().copied());
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: cases(),
        // Shrinking re-runs every extractor on a large page per step.
        max_shrink_iters: 200,
        ..ProptestConfig::default()
    })]

    #[test]
    fn mutated_fixture_pages_keep_every_invariant(
        page in any::<Index>(),
        mutations in prop::collection::vec(mutation(), 0..4),
    ) {
        let (name, original) = page.get(fixtures());
        let mut bytes = original.clone();
        for m in &mutations {
            apply(&mut bytes, m);
        }
        EXTRACTORS.with(|e| support::check_page(&bytes, false, e))
            .map_err(|e| TestCaseError::fail(format!("{name}: {e}")))?;
    }
}

#[test]
fn mutations_do_what_they_say() {
    let page = || b"0123456789".to_vec();
    let (start, middle, end) = (0, 1 << 31, u32::MAX);
    let cases: [(Mutation, &[u8]); 7] = [
        (Mutation::Truncate(middle), b"01234"),
        (Mutation::Truncate(end), b"0123456789"),
        (Mutation::Insert(end, b"<p>".to_vec()), b"0123456789<p>"),
        (Mutation::Splice(start, b"<p>".to_vec()), b"<p>0123456789"),
        (Mutation::Delete(end, middle), b"01234"),
        (Mutation::Declare(b"\xFF\xFE".to_vec()), b"\xFF\xFE0123456789"),
        (Mutation::Duplicate(start, middle, end), b"012345678901234"),
    ];
    for (m, expected) in cases {
        let mut p = page();
        apply(&mut p, &m);
        assert_eq!(p, expected, "{m:?}");
    }
}
