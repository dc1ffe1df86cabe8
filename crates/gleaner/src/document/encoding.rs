//! Character-encoding detection and decoding.
//!
//! The order follows the WHATWG "encoding sniffing algorithm"
//! (<https://html.spec.whatwg.org/multipage/parsing.html#encoding-sniffing-algorithm>):
//!
//! 1. a byte order mark;
//! 2. an encoding given by the caller (`--encoding` on the command line),
//!    then one a transport declared (the HTTP `Content-Type` charset);
//! 3. the prescan of the first bytes for `<meta charset>` or
//!    `<meta http-equiv="content-type" content="…; charset=…">`
//!    (and an XML declaration, for XHTML served as files);
//! 4. a statistical guess by `chardetng`.
//!
//! Deviations: a declared UTF-8 (in the page or by the transport) that
//! the bytes contradict (invalid
//! sequences) is replaced by the chardetng guess, because pages that are
//! really windows-1252 behind a copied `<meta charset=utf-8>` are common in
//! crawls and decoding them as UTF-8 would turn every accented letter into
//! U+FFFD. The guess is only taken when the invalid sequences outnumber the
//! valid multi-byte ones: a UTF-8 page with a stray invalid byte is UTF-8
//! with one U+FFFD, as browsers decode it, not windows-1252 mojibake
//! throughout (issue 11). And the other way round, a transport's (HTTP)
//! or the page's own declaration of another encoding over bytes that are
//! valid UTF-8 beyond ASCII gives way to UTF-8: a server's default
//! `iso-8859-1` in front of a UTF-8 page, a page re-saved as UTF-8 under
//! its old `<meta charset>` (browsers show it as mojibake; an extractor's
//! reader wants its text).

#[cfg(test)]
use encoding_rs::WINDOWS_1252;
use encoding_rs::{Encoding, UTF_16BE, UTF_16LE, UTF_8};

/// How many leading bytes the `<meta>` prescan reads. The standard says
/// 1024; real pages often put long `<script>`s first, so we look further.
const PRESCAN_BYTES: usize = 8 * 1024;

/// How much of an undeclared page chardetng reads after its first
/// non-ASCII byte (everything before it is read too). Its cost grows with
/// every byte fed, the first tens of kilobytes of non-ASCII text decide the
/// guess, and a 50 MB page must not spend its time budget here \[I\].
const GUESS_BYTES: usize = 64 * 1024;

/// ASCII bytes kept at each end of a longer run of ASCII when the bytes
/// are summarised for chardetng (see [`ascii_runs_shortened`]).
const ASCII_RUN_ENDS: usize = 8;

/// Where the chosen encoding came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EncodingSource {
    /// A byte order mark.
    Bom,
    /// The caller's hint (HTTP header or command line).
    Given,
    /// A `<meta>` tag or XML declaration in the page.
    Declared,
    /// chardetng's guess.
    Guessed,
}

/// Chooses an encoding for `bytes` and decodes them to a `String`.
///
/// Invalid sequences become U+FFFD: decoding never fails.
pub fn decode(
    bytes: &[u8],
    given: Option<&'static Encoding>,
    transport: Option<&'static Encoding>,
) -> (String, &'static Encoding, EncodingSource) {
    let label = Label::of(bytes, given, transport);
    if let Some(source) = label.utf8_source() {
        if let Ok(text) = std::str::from_utf8(bytes) {
            return (text.to_owned(), UTF_8, source);
        }
    }
    let (encoding, source, bom_len) = choose(bytes, label);
    let (text, _) = encoding.decode_without_bom_handling(&bytes[bom_len..]);
    (text.into_owned(), encoding, source)
}

/// As [`decode`], taking the bytes over: a page in UTF-8 without a byte
/// order mark (most pages) becomes its own text, with no copy (issue 13:
/// the page and its copy were held together while it was parsed).
pub(crate) fn decode_vec(
    bytes: Vec<u8>,
    given: Option<&'static Encoding>,
    transport: Option<&'static Encoding>,
) -> (String, &'static Encoding, EncodingSource) {
    let label = Label::of(&bytes, given, transport);
    let bytes = match label.utf8_source() {
        Some(source) => match String::from_utf8(bytes) {
            Ok(text) => return (text, UTF_8, source),
            Err(e) => e.into_bytes(),
        },
        None => bytes,
    };
    let (encoding, source, bom_len) = choose(&bytes, label);
    let (text, _) = encoding.decode_without_bom_handling(&bytes[bom_len..]);
    (text.into_owned(), encoding, source)
}

/// What says which encoding a page is in before its bytes are read for
/// it: a byte order mark, the caller, the page's own declaration, or
/// nothing. Read once per page.
#[derive(Debug, Clone, Copy)]
enum Label {
    /// The encoding and the mark's length.
    Bom(&'static Encoding, usize),
    Given(&'static Encoding),
    /// A transport's (HTTP) declaration.
    Transport(&'static Encoding),
    Declared(&'static Encoding),
    Undeclared,
}

impl Label {
    fn of(
        bytes: &[u8],
        given: Option<&'static Encoding>,
        transport: Option<&'static Encoding>,
    ) -> Label {
        if let Some((encoding, bom_len)) = Encoding::for_bom(bytes) {
            return Label::Bom(encoding, bom_len);
        }
        match (given, transport) {
            (Some(e), _) => Label::Given(e),
            (None, Some(e)) => Label::Transport(e),
            (None, None) => prescan(bytes).map_or(Label::Undeclared, Label::Declared),
        }
    }

    /// Where the choice comes from when the bytes are valid UTF-8 and
    /// [`choose`] takes them as such: UTF-8 given or declared, or nothing
    /// declared (a guess takes valid UTF-8 as UTF-8); `None` for a byte
    /// order mark or another encoding. Such a page is validated once, by
    /// becoming its own text, not once to choose and again to decode
    /// (issue 12).
    fn utf8_source(self) -> Option<EncodingSource> {
        match self {
            Label::Given(e) | Label::Transport(e) => (e == UTF_8).then_some(EncodingSource::Given),
            Label::Declared(e) => (e == UTF_8).then_some(EncodingSource::Declared),
            Label::Undeclared => Some(EncodingSource::Guessed),
            Label::Bom(..) => None,
        }
    }
}

/// The encoding of `bytes` under `label`, where the choice came from, and
/// the length of the byte order mark that settled it (0 without one).
fn choose(bytes: &[u8], label: Label) -> (&'static Encoding, EncodingSource, usize) {
    match label {
        Label::Bom(encoding, bom_len) => (encoding, EncodingSource::Bom, bom_len),
        Label::Given(e) => (e, EncodingSource::Given, 0),
        // A transport's (HTTP) charset and the page's own declaration
        // give way alike to bytes that contradict them.
        Label::Transport(e) | Label::Declared(e) if e == UTF_8 && mostly_not_utf8(bytes) => {
            (guess(bytes), EncodingSource::Guessed, 0)
        }
        Label::Transport(e) | Label::Declared(e) if e != UTF_8 && utf8_beyond_ascii(bytes) => {
            (UTF_8, EncodingSource::Guessed, 0)
        }
        Label::Transport(e) => (e, EncodingSource::Given, 0),
        Label::Declared(e) => (e, EncodingSource::Declared, 0),
        Label::Undeclared => (guess(bytes), EncodingSource::Guessed, 0),
    }
}

/// Are `bytes` valid UTF-8 holding at least one character beyond ASCII?
/// Then a transport or a page declaring another encoding is wrong: text
/// in a legacy encoding almost never forms valid UTF-8 beyond ASCII (a
/// windows-1252 letter is one high byte among ASCII ones, a GBK or Shift
/// JIS pair rarely a UTF-8 sequence), and a server's default `iso-8859-1`
/// over a UTF-8 page, or a page re-saved as UTF-8 under its old `<meta
/// charset>`, is common in crawls and archives (133 of the 4 484 dev
/// pages: `’` decoded as `â€™`, Chinese as GBK mojibake).
fn utf8_beyond_ascii(bytes: &[u8]) -> bool {
    !bytes.is_ascii() && std::str::from_utf8(bytes).is_ok()
}

/// Do invalid UTF-8 sequences in `bytes` outnumber the valid multi-byte
/// ones (a page in another encoding behind a `<meta charset=utf-8>`), or
/// are there some and no valid multi-byte character at all?
fn mostly_not_utf8(bytes: &[u8]) -> bool {
    // Valid UTF-8 has no invalid sequence: checked at memory speed, not
    // one character at a time.
    if std::str::from_utf8(bytes).is_ok() {
        return false;
    }
    let (mut valid, mut invalid) = (0usize, 0usize);
    for chunk in bytes.utf8_chunks() {
        valid += chunk.valid().chars().filter(|c| !c.is_ascii()).count();
        invalid += usize::from(!chunk.invalid().is_empty());
    }
    invalid > 0 && invalid >= valid
}

/// A chardetng guess; valid UTF-8 is taken as UTF-8 without asking.
fn guess(bytes: &[u8]) -> &'static Encoding {
    if std::str::from_utf8(bytes).is_ok() {
        return UTF_8;
    }
    let mut detector = chardetng::EncodingDetector::new(chardetng::Iso2022JpDetection::Deny);
    // (`guess` is only reached with a non-ASCII byte: ASCII is UTF-8.)
    let first_non_ascii = bytes.iter().position(|b| !b.is_ascii()).unwrap_or(bytes.len());
    let head = &bytes[..bytes.len().min(first_non_ascii.saturating_add(GUESS_BYTES))];
    // A prefix is fed as such: its end is not the end of the page.
    detector.feed(&ascii_runs_shortened(head), head.len() == bytes.len());
    detector.guess(None, chardetng::Utf8Detection::Allow)
}

/// `bytes` with every run of ASCII longer than 2 × [`ASCII_RUN_ENDS`]
/// bytes cut to its first and last [`ASCII_RUN_ENDS`] bytes, for
/// chardetng: the same guess for a fraction of the work \[I\].
///
/// chardetng scores pairs of adjacent bytes, and a pair of two ASCII bytes
/// scores nothing in any of its models; its per-candidate state (letter
/// case, word length, the position in a multi-byte character, the Spanish
/// ordinal machine) is settled again by the last few bytes of an ASCII
/// run. So only the bytes next to non-ASCII ones and the last bytes
/// before them count — chardetng itself reads only the last two bytes of
/// the ASCII before the first non-ASCII one. An undeclared legacy page
/// is mostly ASCII markup, and feeding its 64 KiB whole was ~4 % of a WARC
/// run. Runs holding ESC stay whole (ISO-2022 escapes are ASCII). The
/// guess was unchanged for every file of the development datasets that
/// reaches chardetng: 395 legacy files as they are and the UTF-8 ones re-encoded
/// in five legacy encodings, 14 389 guesses (the ignored test
/// `guesses_on_the_dev_pages_are_unchanged_by_shortened_runs`, there run
/// on the development pages).
fn ascii_runs_shortened(bytes: &[u8]) -> std::borrow::Cow<'_, [u8]> {
    let long = 2 * ASCII_RUN_ENDS;
    let mut out: Vec<u8> = Vec::new();
    // Bytes up to `copied` are in `out` (once a run has been cut).
    let (mut copied, mut at) = (0, 0);
    while at < bytes.len() {
        let run = bytes[at..].iter().position(|b| !b.is_ascii()).unwrap_or(bytes.len() - at);
        let ascii = &bytes[at..at + run];
        if run > long && !ascii.contains(&0x1B) {
            out.extend_from_slice(&bytes[copied..at + ASCII_RUN_ENDS]);
            copied = at + run - ASCII_RUN_ENDS;
        }
        at += run;
        // The non-ASCII bytes that follow.
        at += bytes[at..].iter().position(u8::is_ascii).unwrap_or(bytes.len() - at);
    }
    if copied == 0 {
        return std::borrow::Cow::Borrowed(bytes);
    }
    out.extend_from_slice(&bytes[copied..]);
    std::borrow::Cow::Owned(out)
}

/// The WHATWG prescan, simplified: finds the first `<meta>` that declares a
/// charset, or an XML declaration, in the first [`PRESCAN_BYTES`] bytes.
///
/// UTF-16 labels are mapped to UTF-8 as the standard requires (a page that
/// declares UTF-16 inside itself cannot be UTF-16, since ASCII was readable).
pub fn prescan(bytes: &[u8]) -> Option<&'static Encoding> {
    let head = &bytes[..bytes.len().min(PRESCAN_BYTES)];
    if let Some(label) = xml_declaration_encoding(head) {
        if let Some(e) = label_to_encoding(label) {
            return Some(e);
        }
    }
    let mut pos = 0;
    while let Some(offset) = find_ascii_ci(&head[pos..], b"<meta") {
        let start = pos + offset + 5;
        let end = head[start..].iter().position(|&b| b == b'>').map_or(head.len(), |p| start + p);
        let tag = &head[start..end];
        if let Some(e) = meta_charset(tag) {
            return Some(e);
        }
        pos = end;
    }
    None
}

/// A declared label as the WHATWG prescan reads it: UTF-16 means UTF-8
/// (the ASCII declaration was readable), `x-user-defined` means
/// windows-1252, and labels of the "replacement" encoding (`iso-2022-kr`,
/// `hz-gb-2312`, …) are ignored rather than turning the page into one
/// U+FFFD.
fn label_to_encoding(label: &[u8]) -> Option<&'static Encoding> {
    let e = Encoding::for_label_no_replacement(label)?;
    Some(if e == UTF_16BE || e == UTF_16LE {
        UTF_8
    } else if e == encoding_rs::X_USER_DEFINED {
        encoding_rs::WINDOWS_1252
    } else {
        e
    })
}

/// `charset=` in a `<meta>` tag's attributes, either as its own attribute
/// or inside `content` (which covers `http-equiv="Content-Type"`).
fn meta_charset(tag: &[u8]) -> Option<&'static Encoding> {
    let idx = find_ascii_ci(tag, b"charset")?;
    let mut rest = &tag[idx + 7..];
    rest = trim_start(rest);
    rest = rest.strip_prefix(b"=")?;
    rest = trim_start(rest);
    let rest = rest.strip_prefix(b"\"").or_else(|| rest.strip_prefix(b"'")).unwrap_or(rest);
    let len = rest
        .iter()
        .position(|&b| {
            matches!(b, b'"' | b'\'' | b';' | b' ' | b'\t' | b'\n' | b'\r' | b'/' | b'>')
        })
        .unwrap_or(rest.len());
    label_to_encoding(&rest[..len])
}

fn xml_declaration_encoding(head: &[u8]) -> Option<&[u8]> {
    let head = trim_start(head);
    if !head.starts_with(b"<?xml") {
        return None;
    }
    let end = head.iter().position(|&b| b == b'>')?;
    let decl = &head[..end];
    let idx = find_ascii_ci(decl, b"encoding")?;
    let rest = trim_start(&decl[idx + 8..]);
    let rest = trim_start(rest.strip_prefix(b"=")?);
    let quote = *rest.first()?;
    if quote != b'"' && quote != b'\'' {
        return None;
    }
    let rest = &rest[1..];
    let len = rest.iter().position(|&b| b == quote)?;
    Some(&rest[..len])
}

fn trim_start(mut s: &[u8]) -> &[u8] {
    while let [first, rest @ ..] = s {
        if first.is_ascii_whitespace() {
            s = rest;
        } else {
            break;
        }
    }
    s
}

/// Case-insensitive search of an ASCII needle: the first place it
/// occurs, candidates found by its first byte in either case.
pub(crate) fn find_ascii_ci(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    let (&first, _) = needle.split_first()?;
    let (lower, upper) = (first.to_ascii_lowercase(), first.to_ascii_uppercase());
    let mut from = 0;
    while let Some(at) = memchr::memchr2(lower, upper, &haystack[from..]).map(|k| from + k) {
        if haystack.get(at..at + needle.len()).is_some_and(|w| w.eq_ignore_ascii_case(needle)) {
            return Some(at);
        }
        from = at + 1;
    }
    None
}

/// Looks up an encoding by its WHATWG label (`"utf-8"`, `"latin1"`, …).
pub fn encoding_for_label(label: &str) -> Option<&'static Encoding> {
    Encoding::for_label_no_replacement(label.trim().as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// chardetng's guess from all of `bytes`, as `guess` asked before.
    fn guess_from_all(bytes: &[u8]) -> &'static Encoding {
        let mut detector = chardetng::EncodingDetector::new(chardetng::Iso2022JpDetection::Deny);
        detector.feed(bytes, true);
        detector.guess(None, chardetng::Utf8Detection::Allow)
    }

    /// A page in `encoding`: `text` between long runs of markup, in lower
    /// case, upper case and with ordinals, so that the case and ordinal
    /// state machines cross the shortened runs.
    fn legacy_page(encoding: &'static Encoding, text: &str) -> Vec<u8> {
        let markup =
            "<div class=\"navigation-item\"><a href=\"/section/index.html\">Link</a></div>\n";
        let mut html = String::from("<html><head><title>T</title></head><body>");
        for (i, sentence) in text.split('.').enumerate() {
            html.push_str(&markup.repeat(i % 3 + 1));
            let sentence = if i % 4 == 1 { sentence.to_uppercase() } else { sentence.to_string() };
            html.push_str(&format!("<p>{sentence}. N\u{ba} {i} A </p>"));
        }
        let (bytes, _, _) = encoding.encode(&html);
        bytes.into_owned()
    }

    #[test]
    fn the_guess_from_shortened_runs_is_the_guess_from_all_bytes() {
        let samples: [(&Encoding, &str); 9] = [
            (WINDOWS_1252, "Déjà vu à Paris. Ça coûte très cher. Señor Muñoz año. Straße für Köln"),
            (
                encoding_rs::WINDOWS_1250,
                "Příliš žluťoučký kůň úpěl ďábelské ódy. Zażółć gęślą jaźń",
            ),
            (encoding_rs::WINDOWS_1251, "Съешь же ещё этих мягких французских булок. Да выпей чаю"),
            (encoding_rs::KOI8_R, "Съешь же ещё этих мягких французских булок. Да выпей чаю"),
            (encoding_rs::WINDOWS_1253, "Ξεσκεπάζω την ψυχοφθόρα βδελυγμία. Καλημέρα σας"),
            (encoding_rs::WINDOWS_1255, "עטלף אבק נס דרך מזגן שהתפוצץ כי חם. שלום עולם"),
            (encoding_rs::GBK, "我能吞下玻璃而不伤身体。中华人民共和国. 你好世界"),
            (encoding_rs::SHIFT_JIS, "いろはにほへと ちりぬるを. 私はガラスを食べられます"),
            (encoding_rs::EUC_KR, "나는 유리를 먹을 수 있어요. 그래도 아프지 않아요"),
        ];
        for (encoding, text) in samples {
            let page = legacy_page(encoding, text);
            let shortened = ascii_runs_shortened(&page);
            assert!(shortened.len() * 2 < page.len(), "{}: runs were not cut", encoding.name());
            assert_eq!(
                guess_from_all(&shortened).name(),
                guess_from_all(&page).name(),
                "{}",
                encoding.name()
            );
        }
    }

    #[test]
    fn short_runs_and_escapes_are_kept_whole() {
        assert!(matches!(ascii_runs_shortened(b"ab\xe9cd"), std::borrow::Cow::Borrowed(_)));
        let run = "x".repeat(40);
        let cut = ascii_runs_shortened(format!("\u{e9}{run}\u{e9}").as_bytes()).into_owned();
        assert_eq!(cut.len(), 2 * 2 + 2 * ASCII_RUN_ENDS);
        let escaped = format!("\u{e9}{run}\x1b$B{run}\u{e9}");
        assert_eq!(ascii_runs_shortened(escaped.as_bytes()).len(), escaped.len());
    }

    /// The development pages' guesses, shortened and whole, for the legacy
    /// pages and the others re-encoded in five legacy encodings (`cargo test
    /// --release -p gleaner --lib guesses_on_the_dev_pages -- --ignored`;
    /// reads `../shared/data/wceb`).
    #[test]
    #[ignore = "reads the shared development pages; slow in a debug build"]
    fn guesses_on_the_dev_pages_are_unchanged_by_shortened_runs() {
        let root =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/wceb");
        let mut stack = vec![root];
        let (mut guessed, mut differ) = (0, Vec::new());
        while let Some(dir) = stack.pop() {
            let Ok(entries) = std::fs::read_dir(&dir) else { continue };
            for path in entries.filter_map(|e| e.ok().map(|e| e.path())) {
                if path.is_dir() {
                    stack.push(path);
                    continue;
                }
                let Ok(bytes) = std::fs::read(&path) else { continue };
                // Legacy pages as they are; UTF-8 pages also re-encoded in
                // legacy encodings (what cannot be encoded becomes a
                // character reference).
                let pages = match std::str::from_utf8(&bytes) {
                    Ok(text) if !text.is_ascii() => [
                        WINDOWS_1252,
                        encoding_rs::WINDOWS_1250,
                        encoding_rs::WINDOWS_1251,
                        encoding_rs::GBK,
                        encoding_rs::SHIFT_JIS,
                    ]
                    .iter()
                    .map(|e| e.encode(text).0.into_owned())
                    .collect(),
                    Ok(_) => Vec::new(),
                    Err(_) => vec![bytes],
                };
                for bytes in pages.iter().filter(|b| std::str::from_utf8(b).is_err()) {
                    let first = bytes.iter().position(|b| !b.is_ascii()).unwrap_or(bytes.len());
                    let head = &bytes[..bytes.len().min(first.saturating_add(GUESS_BYTES))];
                    let last = head.len() == bytes.len();
                    let deny = chardetng::Iso2022JpDetection::Deny;
                    let mut whole = chardetng::EncodingDetector::new(deny);
                    whole.feed(head, last);
                    let mut short = chardetng::EncodingDetector::new(deny);
                    short.feed(&ascii_runs_shortened(head), last);
                    let allow = chardetng::Utf8Detection::Allow;
                    guessed += 1;
                    if whole.guess(None, allow) != short.guess(None, allow) {
                        differ.push(path.display().to_string());
                    }
                }
            }
        }
        eprintln!("{guessed} files guessed, {} differ", differ.len());
        assert!(guessed > 100, "only {guessed} files");
        assert!(differ.is_empty(), "{differ:?}");
    }

    #[test]
    fn bom_wins_over_meta() {
        let mut bytes = vec![0xEF, 0xBB, 0xBF];
        bytes.extend_from_slice(b"<meta charset=latin1><p>caf\xC3\xA9");
        let (text, enc, src) = decode(&bytes, None, None);
        assert_eq!(enc, UTF_8);
        assert_eq!(src, EncodingSource::Bom);
        assert!(text.ends_with("café"));
    }

    #[test]
    fn meta_charset_is_read() {
        let bytes = b"<html><head><meta charset=\"iso-8859-1\"></head><p>caf\xE9";
        let (text, enc, src) = decode(bytes, None, None);
        assert_eq!(enc, WINDOWS_1252);
        assert_eq!(src, EncodingSource::Declared);
        assert!(text.ends_with("café"));
    }

    #[test]
    fn http_equiv_content_type_is_read() {
        let bytes = b"<META HTTP-EQUIV=\"Content-Type\" CONTENT=\"text/html; charset=windows-1251\">\xcf\xf0\xe8";
        let (text, enc, _) = decode(bytes, None, None);
        assert_eq!(enc.name(), "windows-1251");
        assert!(text.ends_with("При"));
    }

    #[test]
    fn wrong_utf8_declaration_falls_back_to_guess() {
        let bytes = b"<meta charset=utf-8><p>Gr\xfc\xdfe aus K\xf6ln, sch\xf6ne Stra\xdfe</p>";
        let (text, _, src) = decode(bytes, None, None);
        assert_eq!(src, EncodingSource::Guessed);
        assert!(text.contains("Grüße"), "{text}");
    }

    #[test]
    fn a_transport_s_legacy_charset_over_utf8_bytes_gives_way_to_utf8() {
        let page = "<meta charset=iso-8859-1><p>caf\u{e9} \u{2019}\u{4eba}\u{2019}</p>";
        let latin1 = Some(WINDOWS_1252);
        for (text, enc, src) in [
            decode(page.as_bytes(), None, latin1),
            decode_vec(page.as_bytes().to_vec(), None, latin1),
        ] {
            assert_eq!((enc, src), (UTF_8, EncodingSource::Guessed));
            assert!(text.contains("café \u{2019}人\u{2019}"), "{text}");
        }
        // The transport's word stands for its own bytes, and over the
        // page's declaration; the caller's stands whatever the bytes.
        let (text, enc, src) = decode(b"<meta charset=utf-8><p>caf\xe9 cr\xe8me</p>", None, latin1);
        assert_eq!((enc, src), (WINDOWS_1252, EncodingSource::Given));
        assert!(text.contains("café crème"), "{text}");
        let (_, enc, src) = decode(page.as_bytes(), latin1, None);
        assert_eq!((enc, src), (WINDOWS_1252, EncodingSource::Given));
        // A page's own legacy declaration over UTF-8 bytes gives way too.
        let (_, enc, src) = decode(page.as_bytes(), None, None);
        assert_eq!((enc, src), (UTF_8, EncodingSource::Guessed));
    }

    #[test]
    fn a_transport_s_utf8_over_legacy_bytes_gives_way_to_the_guess() {
        // A server's `charset=utf-8` in front of a windows-1252 body.
        let bytes = b"<p>Gr\xfc\xdfe aus K\xf6ln, sch\xf6ne Stra\xdfe</p>";
        let (text, enc, src) = decode(bytes, None, Some(UTF_8));
        assert_eq!((enc, src), (WINDOWS_1252, EncodingSource::Guessed));
        assert!(text.contains("Grüße aus Köln"), "{text}");
        // One stray byte in UTF-8 text leaves it UTF-8, as a declaration.
        let mut bytes = "<p>Grüße aus Köln, schöne Straße ".as_bytes().to_vec();
        bytes.push(0xff);
        let (text, enc, src) = decode(&bytes, None, Some(UTF_8));
        assert_eq!((enc, src), (UTF_8, EncodingSource::Given));
        assert!(text.contains("schöne Straße \u{fffd}"), "{text}");
        // The caller's UTF-8 stands whatever the bytes.
        let (_, enc, src) = decode(b"<p>Gr\xfc\xdfe</p>", Some(UTF_8), None);
        assert_eq!((enc, src), (UTF_8, EncodingSource::Given));
    }

    #[test]
    fn a_page_re_saved_as_utf8_under_its_old_declaration_is_utf8() {
        for declared in ["gb2312", "iso-8859-1", "shift_jis"] {
            let page =
                format!("<meta charset={declared}><p>人工智能 \u{2019}caf\u{e9}\u{2019}</p>");
            for (text, enc, src) in [
                decode(page.as_bytes(), None, None),
                decode_vec(page.clone().into_bytes(), None, None),
            ] {
                assert_eq!((enc, src), (UTF_8, EncodingSource::Guessed), "{declared}");
                assert!(text.contains("人工智能 \u{2019}café\u{2019}"), "{text}");
            }
        }
        // The declaration stands for the encoding's own bytes, and for a
        // page of ASCII alone.
        let (gbk, _, _) = encoding_rs::GBK.encode("<meta charset=gb2312><p>人工智能</p>");
        let (text, enc, src) = decode(&gbk, None, None);
        assert_eq!((enc.name(), src), ("GBK", EncodingSource::Declared));
        assert!(text.contains("人工智能"), "{text}");
        let (_, enc, src) = decode(b"<meta charset=iso-8859-1><p>cafe</p>", None, None);
        assert_eq!((enc, src), (WINDOWS_1252, EncodingSource::Declared));
    }

    /// See: issue 11, "a declared-UTF-8 page with one stray invalid byte
    /// is decoded whole as windows-1252".
    #[test]
    fn issue_11_a_stray_byte_in_declared_utf8_is_one_replacement() {
        let mut bytes = "<meta charset=utf-8><p>Grüße aus Köln, schöne Straße ".as_bytes().to_vec();
        bytes.push(0xff);
        bytes.extend_from_slice(b"</p>");
        let (text, enc, src) = decode(&bytes, None, None);
        assert_eq!((enc, src), (UTF_8, EncodingSource::Declared));
        assert!(text.contains("Grüße aus Köln, schöne Straße \u{FFFD}"), "{text}");
    }

    /// The guess reads a bounded window from the first non-ASCII byte: an
    /// undeclared page whose first accented letter comes after 100 KB of
    /// ASCII is still read as windows-1252 (the window starts there), and
    /// one with accents early and a long tail is guessed from its head.
    #[test]
    fn the_guess_reads_from_the_first_non_ascii_byte() {
        let mut late = b"<p>".to_vec();
        late.extend(std::iter::repeat_n(b'a', 100_000));
        late.extend_from_slice(b" caf\xe9 cr\xe8me br\xfbl\xe9e</p>");
        let (text, enc, src) = decode(&late, None, None);
        assert_eq!((enc, src), (WINDOWS_1252, EncodingSource::Guessed));
        assert!(text.ends_with("café crème brûlée</p>"), "{}", &text[text.len() - 30..]);
        let mut early = b"<p>D\xe9j\xe0 vu, na\xefve fa\xe7ade, \xe9t\xe9 \xe0 Paris.</p>".to_vec();
        early.extend(std::iter::repeat_n(b'x', 2 * GUESS_BYTES));
        early.extend_from_slice(b"\xe9");
        let (text, enc, _) = decode(&early, None, None);
        assert_eq!(enc, WINDOWS_1252);
        assert!(text.starts_with("<p>Déjà vu, naïve façade, été à Paris."), "{}", &text[..60]);
    }

    #[test]
    fn xml_declaration_is_read() {
        let bytes = b"<?xml version='1.0' encoding='ISO-8859-15'?><html>\xa4";
        let (text, enc, _) = decode(bytes, None, None);
        assert_eq!(enc.name(), "ISO-8859-15");
        assert!(text.ends_with('€'));
    }

    #[test]
    fn replacement_and_user_defined_labels() {
        assert_eq!(prescan(b"<meta charset=iso-2022-kr>"), None);
        assert_eq!(prescan(b"<meta charset=x-user-defined>"), Some(encoding_rs::WINDOWS_1252));
    }

    #[test]
    fn utf16_declaration_means_utf8() {
        assert_eq!(prescan(b"<meta charset=utf-16>"), Some(UTF_8));
    }
}
