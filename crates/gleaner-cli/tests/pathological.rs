//! The pathological corpus of issue 13, the cases of at most 1 MB: each is
//! extracted by the real binary in a child process, whose wall time and
//! peak RSS (`wait4`'s rusage, exact for that one child) are checked
//! against the guarantee "no input of ≤ 1 MB may take more than 1 s or
//! 200 MB". `bench/pathological.py` writes the whole corpus, big cases
//! included. The record cases (grids of cards and threads of posts, for
//! the default extractor's Markdown and HTML output) are this file's own.
//!
//! The time bound is 1 s when the binary under test is a release build
//! (`cargo test --release -p gleaner-cli --test pathological`) and 30 s
//! in a debug build, whose unoptimised extractors are up to 40 times
//! slower (the binary the test was built with is the one measured, never
//! a release binary that may be stale); the cases of the issue's defects
//! took minutes before the fix, so they fail in both. In a debug build
//! the general corpus is generated at 256 KB instead of 1 MB to keep the
//! suite short. The memory bound is the same for both. A child that
//! passes 60 s or 2 GB is killed and fails its case, so a regression
//! cannot hang the suite or exhaust the machine.
//!
//! Peak RSS is the child's `ru_maxrss` from `wait4`. The child shares
//! this process's memory until it execs (`posix_spawn`), so the figure is
//! the larger of the child's own peak and this process's size then (about
//! 50 MB for the debug test binary): an upper bound, exact whenever the
//! child grew past this process. Each case is generated just before it
//! runs and dropped before the child starts, to keep that floor low.
//!
//! See: issue 13, "Found by the probe", items 1–3.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

mod support;
use support::put;

/// Wall time allowed for one input of at most 1 MB.
const SECONDS: f64 = if cfg!(debug_assertions) { 30.0 } else { 1.0 };
/// Size of the general corpus's cases (the defect cases keep the issue's).
const SIZE: usize = if cfg!(debug_assertions) { 1 << 18 } else { 1 << 20 };
/// Peak RSS allowed for one input of at most 1 MB.
const PEAK_MB: f64 = 200.0;
/// A child past either of these is killed.
const KILL_SECONDS: u64 = 60;
const KILL_MB: f64 = 2048.0;

/// What one run of the binary cost.
#[derive(Debug)]
struct Cost {
    seconds: f64,
    peak_mb: f64,
    /// The exit code, `None` when killed by a signal.
    code: Option<i32>,
}

/// Resident set size of a running process, from `/proc/<pid>/status`.
fn rss_mb(pid: u32) -> f64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<f64>().ok())
        .map_or(0.0, |kb| kb / 1024.0)
}

/// Runs `gleaner extract -a article` on `path` and measures it.
fn extract(path: &Path) -> Cost {
    extract_with(path, &[])
}

/// Runs `gleaner extract -a article` with the further arguments `args` on
/// `path` and measures it.
fn extract_with(path: &Path, args: &[&str]) -> Cost {
    run_extract(path, &article(args))
}

/// `-a article` followed by `args`.
fn article<'a>(args: &[&'a str]) -> Vec<&'a str> {
    ["-a", "article"].iter().chain(args).copied().collect()
}

/// Runs `gleaner extract` (the default extractor unless `args` name
/// another) with the arguments `args` on `path` and measures it.
// The child is reaped by `wait4`, which also gives its rusage.
#[allow(clippy::zombie_processes)]
fn run_extract(path: &Path, args: &[&str]) -> Cost {
    let start = Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_gleaner"))
        .args(["extract", "--no-progress", "--max-bytes", "1073741824"])
        .args(args)
        .arg(path)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("gleaner starts");
    let pid = child.id();
    let mut killed = false;
    loop {
        let mut status = 0;
        // SAFETY: `rusage` is plain data, and zero is a valid value.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        // SAFETY: `pid` is our child, not yet reaped; both pointers are
        // to live locals.
        let r = unsafe { libc::wait4(pid as libc::pid_t, &mut status, libc::WNOHANG, &mut usage) };
        assert!(r >= 0, "wait4 failed");
        if r == pid as libc::pid_t {
            let exited = libc::WIFEXITED(status);
            return Cost {
                seconds: start.elapsed().as_secs_f64(),
                peak_mb: usage.ru_maxrss as f64 / 1024.0,
                code: (exited && !killed).then(|| libc::WEXITSTATUS(status)),
            };
        }
        if !killed && (start.elapsed() > Duration::from_secs(KILL_SECONDS) || rss_mb(pid) > KILL_MB)
        {
            child.kill().expect("kill");
            killed = true;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// A case: its file name and a generator of its bytes.
type Case = (String, Box<dyn Fn() -> Vec<u8>>);

/// The cases of issue 13 items 1 and 2, and the corpus's others, each at
/// most 1 MB.
fn small_cases() -> Vec<Case> {
    let mut cases: Vec<Case> = Vec::new();
    let mut add = |name: &str, bytes: Box<dyn Fn() -> Vec<u8>>| {
        cases.push((name.to_string(), bytes));
    };
    // Issue 13 item 1: elements left open past the nesting cap.
    add("i1-div-stray-end.html", Box::new(|| "<div></x>".repeat(100_000).into_bytes()));
    add("i1-optgroup.html", Box::new(|| "<optgroup>".repeat(100_000).into_bytes()));
    add("i1-rb.html", Box::new(|| "<rb>".repeat(100_000).into_bytes()));
    add("i1-b-class-stray-end.html", Box::new(|| "<b class=c></x>x".repeat(65_000).into_bytes()));
    // Issue 13 item 2: every paragraph re-creates 500 formatting elements
    // (a paragraph around them closes them; the text of the next one
    // re-creates them).
    for n in [30_000, 100_000] {
        add(
            &format!("i2-b500-p{n}.html"),
            Box::new(move || {
                let bs: String = (0..500).map(|i| format!("<b id={i}>")).collect();
                format!("<p>{bs}{}", "<p>x</p>".repeat(n)).into_bytes()
            }),
        );
    }
    // Deep nesting of each element kind, as deep as the size allows.
    for kind in [
        "div",
        "span",
        "table",
        "tr",
        "td",
        "li",
        "ul",
        "p",
        "a",
        "b",
        "font",
        "select",
        "option",
        "svg",
        "math",
        "template",
        "iframe",
        "noscript",
        "textarea",
        "plaintext",
    ] {
        let tag = format!("<{kind}>");
        add(
            &format!("nest-{kind}.html"),
            Box::new(move || tag.repeat(SIZE / tag.len()).into_bytes()),
        );
    }
    // Siblings.
    add("siblings-p.html", Box::new(|| "<p>x</p>".repeat(SIZE / 8).into_bytes()));
    add("siblings-br.html", Box::new(|| "<br>".repeat(SIZE / 4).into_bytes()));
    // A long attribute, kept and dropped; many attributes.
    let long = || "a".repeat(SIZE - 32);
    add(
        "attr-class.html",
        Box::new(move || format!("<div class=\"{}\">x</div>", long()).into_bytes()),
    );
    add(
        "attr-data.html",
        Box::new(move || format!("<div data-x='{}'>x</div>", long()).into_bytes()),
    );
    add("attr-unterminated.html", Box::new(move || format!("<p class=\"{}", long()).into_bytes()));
    add(
        "attrs-many.html",
        Box::new(|| {
            let many: String = (0..SIZE / 10).map(|i| format!(" a{i}=1")).collect();
            format!("<p{many}>x</p>").into_bytes()
        }),
    );
    add(
        "attrs-same.html",
        Box::new(|| format!("<p{}>x</p>", " class=x".repeat(SIZE / 9)).into_bytes()),
    );
    // Entity floods.
    add(
        "entity-amp.html",
        Box::new(|| format!("<p>{}", "&amp;".repeat((SIZE - 3) / 5)).into_bytes()),
    );
    add(
        "entity-emoji.html",
        Box::new(|| format!("<p>{}", "&#x1F600;".repeat(SIZE / 9)).into_bytes()),
    );
    add(
        "entity-unterminated.html",
        Box::new(|| format!("<p>{}", "&amp".repeat((SIZE - 3) / 4)).into_bytes()),
    );
    add("entity-bare.html", Box::new(|| format!("<p>{}", "&".repeat(SIZE - 3)).into_bytes()));
    add(
        "entity-long-name.html",
        Box::new(|| format!("<p>&{};", "a".repeat(SIZE - 5)).into_bytes()),
    );
    // NUL bytes.
    add(
        "nul.html",
        Box::new(|| {
            let mut nuls = b"<p>".to_vec();
            nuls.extend(std::iter::repeat_n(0u8, SIZE - 3));
            nuls
        }),
    );
    add("nul-mixed.html", Box::new(|| "<p>a\0b</p>".repeat(SIZE / 10).into_bytes()));
    // Charset labels with bytes that are wrong for them.
    for label in ["utf-8", "shift_jis", "iso-2022-jp", "utf-16le", "gb18030", "replacement"] {
        add(
            &format!("charset-{label}.html"),
            Box::new(move || {
                let mut page = format!("<meta charset=\"{label}\"><p>").into_bytes();
                page.extend((0x80..=0xFFu8).cycle().take(SIZE / 2));
                page
            }),
        );
    }
    // Text foster-parented before a table between cells: one text node
    // that grows after every cell's text node is made (its text once
    // moved to the end of the buffer each time: 16 s and 4 GB).
    add(
        "foster-text-between-cells.html",
        Box::new(|| format!("<table>{}", "x<td>y</td>".repeat((SIZE - 7) / 11)).into_bytes()),
    );
    // A PDF named `.html`.
    add("pdf.html", Box::new(|| b"%PDF-1.4\n".repeat(SIZE / 9)));
    cases
}

/// Repeated same-shaped siblings, which the default extractor's Markdown
/// and HTML output group into lists of cards and runs of posts
/// (`render/records.rs`): grids of cards and threads of posts as long as
/// the size allows, records nested in records, records left open (each
/// inside the one before), and cards with hidden siblings between them.
fn record_cases() -> Vec<Case> {
    let mut cases: Vec<Case> = Vec::new();
    let mut add = |name: &str, bytes: Box<dyn Fn() -> Vec<u8>>| {
        cases.push((name.to_string(), bytes));
    };
    let fill = |head: &str, unit: &str| {
        format!("{head}{}", unit.repeat((SIZE - head.len()) / unit.len())).into_bytes()
    };
    const CARD: &str = "<div class=\"card item\"><a href=\"/p\"><img src=x.jpg>A title</a>\
        <p>A short blurb of a card.</p><span class=price>$12</span></div>";
    add("records-cards.html", Box::new(move || fill("<main>", CARD)));
    // Signed posts long enough to be posts, each its own text (repeats
    // of one text are left out before the records are grouped).
    add(
        "records-posts.html",
        Box::new(|| {
            let words: Vec<String> = (0..45).map(|k| format!("word{k}")).collect();
            let words = words.join(" ");
            let mut page = String::from("<main>");
            for i in 0.. {
                let post = format!(
                    "<article class=\"post reply\"><p>Reply {i}: {words}.</p>\
                     <p>A second paragraph of reply {i}.</p><span class=author>by someone</span>\
                     <time>2024-01-01</time></article>"
                );
                if page.len() + post.len() > SIZE {
                    break;
                }
                page.push_str(&post);
            }
            page.into_bytes()
        }),
    );
    // Three posts each holding three cards, each holding three posts…
    add(
        "records-nested.html",
        Box::new(|| {
            fn nest(depth: u32, post: bool) -> String {
                let inner = if depth == 0 {
                    "<p>A leaf with some words in it.</p>".to_string()
                } else {
                    nest(depth - 1, !post)
                };
                let (tag, class, sign) = if post {
                    ("article", "post", "<time>2024-01-01</time>")
                } else {
                    ("div", "card", "<a href=/x>link</a>")
                };
                format!("<{tag} class={class}><p>Words of level {depth}.</p>{inner}{sign}</{tag}>")
                    .repeat(3)
            }
            // The deepest that fits, each depth built once.
            let mut page = nest(1, true);
            for depth in 2.. {
                let deeper = nest(depth, true);
                if deeper.len() > SIZE {
                    break;
                }
                page = deeper;
            }
            page.into_bytes()
        }),
    );
    add(
        "records-open.html",
        Box::new(move || {
            fill("", "<div class=\"post p\"><p>A post body with words.</p><time>2024</time>")
        }),
    );
    add(
        "records-hidden-between.html",
        Box::new(move || fill("<main>", &format!("{CARD}<div hidden>hidden</div>"))),
    );
    cases
}

fn check(dir: &Path, cases: Vec<Case>, seconds: f64, peak_mb: f64) {
    check_with(dir, cases, seconds, peak_mb, &[]);
}

/// [`check`], extracting with the further arguments `args`.
fn check_with(dir: &Path, cases: Vec<Case>, seconds: f64, peak_mb: f64, args: &[&str]) {
    check_runs(dir, cases, seconds, peak_mb, &article(args));
}

/// [`check`], extracting with the arguments `args` only (the default
/// extractor unless they name another).
fn check_runs(dir: &Path, cases: Vec<Case>, seconds: f64, peak_mb: f64, args: &[&str]) {
    let mut failures = Vec::new();
    for (name, generate) in cases {
        let bytes = generate();
        let size = bytes.len();
        assert!(size <= 1 << 20 || name.starts_with("i3"), "{name} is {size} bytes");
        let path: PathBuf = put(dir, &name, &bytes);
        drop(bytes);
        let cost = run_extract(&path, args);
        eprintln!(
            "{name:28} {size:8} B {:6.2} s {:7.1} MB exit {:?}",
            cost.seconds, cost.peak_mb, cost.code
        );
        if cost.code.is_none() || cost.seconds > seconds || cost.peak_mb > peak_mb {
            failures.push(format!("{name}: {cost:?}"));
        }
        let _ = std::fs::remove_file(&path);
    }
    assert!(failures.is_empty(), "over {seconds} s or {peak_mb} MB:\n{}", failures.join("\n"));
}

// See: issue 13 ("no input of ≤ 1 MB may take more than 1 s or 200 MB").
#[test]
fn issue_13_small_inputs_are_bounded_in_time_and_memory() {
    let dir = tempfile::tempdir().expect("temp dir");
    check(dir.path(), small_cases(), SECONDS, PEAK_MB);
}

// See: issue 30 ("Markdown and HTML output keep that structure (one
// heading or item per post/card/section)"): the records pass that does
// it, on the default extractor, holds to issue 13's bound for inputs of
// at most 1 MB in both formats.
#[test]
fn records_in_markdown_and_html_are_bounded_in_time_and_memory() {
    let dir = tempfile::tempdir().expect("temp dir");
    for format in ["markdown", "html"] {
        check_runs(dir.path(), record_cases(), SECONDS, PEAK_MB, &["-f", format]);
    }
}

// See: issue 13, item 3 (a 64 MB page of `<p>x</p>` peaked at 50 times its
// size). An 8 MB page of it (2 million nodes, 3 million source tokens),
// measured without the memory limit (which refuses it), held to what the
// structures cost: 15 times its size plus 40 MB (154 MiB). Before the
// compact document it peaked at 458 MiB (59 times: the tree built twice,
// 32-byte tokens, the article's per-block `BTreeMap`), then at 330 MiB,
// 212, 196 (32-byte nodes, 28-byte statistics for every node, 12-byte
// tokens), 178 (20-byte nodes: an element's name as an index), 158 (24-byte
// nodes of which text nodes keep their own statistics), now about 110 MiB
// (14 times): a `<p>` with one text child derives its statistics from it,
// the tree builder's links are 4 bytes a node, and article's analysis
// keeps bits where it kept numbers per node. The issue's 10 times is the
// tests below.
#[test]
fn issue_13_memory_of_a_dense_page_stays_under_15_times_its_size() {
    let dir = tempfile::tempdir().expect("temp dir");
    let size = 8_000_000;
    let bound = 15.0 * size as f64 / (1 << 20) as f64 + 40.0;
    let page: Case =
        ("i3-p-8mb.html".to_string(), Box::new(move || "<p>x</p>".repeat(size / 8).into_bytes()));
    // Measured without the memory limit, which would refuse the page.
    check_with(dir.path(), vec![page], 10.0 * SECONDS, bound, &["--max-memory-factor", "0"]);
}

// See: issue 13, item 3: the goal, 10 times the page plus a constant. A 2
// MB page of `<p>x</p>`, extracted (the memory limit admits it), held to 10
// times its size plus a constant: the binary's own peak on a
// one-paragraph page (7.4 MiB for the release build; the debug build
// that `cargo test` makes maps about 4 MiB more of itself) plus 24 MiB —
// 50.5 MiB for the release build.
//
// It peaked at 61.0 MiB, then 55, 45.5, now about 36 MiB. For every 8
// bytes of `<p>x</p>` the document keeps 3 source tokens (12 bytes each)
// and 2 nodes (24; the `<p>` derives its statistics from its text, which
// keeps them in its node): 10.5 times the input, 11.5 with the page;
// `article`'s analysis adds about 1 times while it runs, and the process
// starts at 7.4 MiB. The parse's own peak is lower: its vectors are
// reserved from the page's `<`s rather than doubled, and the tree
// builder's links are 4 bytes a node. Buffers of 1 MiB or more are
// returned to the system when freed (`gleaner`'s `main`), or the
// allocator would keep the analysis' freed buffers.
#[test]
fn issue_13_memory_is_a_small_multiple_of_the_input() {
    let dir = tempfile::tempdir().expect("temp dir");
    let size = 2_000_000;
    let own = extract(&put(dir.path(), "tiny.html", b"<p>x</p>"));
    assert_eq!(own.code, Some(0), "a one-paragraph page is extracted");
    let bound = own.peak_mb + 10.0 * size as f64 / (1 << 20) as f64 + 24.0;
    let path = put(dir.path(), "i3-p-2mb.html", "<p>x</p>".repeat(size / 8).as_bytes());
    let cost = extract(&path);
    assert_eq!(cost.code, Some(0), "extracted, not refused: {cost:?}");
    assert!(cost.peak_mb <= bound, "{cost:?} over {bound:.1} MB");
}

/// The issue's memory bound for a page of `size` bytes, in MiB: 10 times
/// its size plus the allowance (24 MiB, `gleaner::document::MEMORY_ALLOWANCE`)
/// above `own`, the binary's own peak on a one-paragraph page.
fn ten_times_plus_allowance(own: &Cost, size: usize) -> f64 {
    let allowance = gleaner::document::MEMORY_ALLOWANCE as f64 / (1 << 20) as f64;
    own.peak_mb + 10.0 * size as f64 / (1 << 20) as f64 + allowance
}

// See: issue 13, "peak memory for any page stays ≤ 10× its size plus a
// small constant". The densest markup gleaner knows of (a node every two
// to four bytes: 3 MB is past the point where the allowance covers it),
// a dense data table, text foster-parented out of a table, and plain
// paragraphs of text: each page is either extracted or refused as too
// dense (`--max-memory-factor`), and either way peaks within 10 times its
// size plus the allowance. Text and the table are extracted, never
// refused; without the limit (`--max-memory-factor 0`) the densest page
// is extracted too, above the bound.
#[test]
fn issue_13_every_page_peaks_within_ten_times_its_size_plus_a_constant() {
    let dir = tempfile::tempdir().expect("temp dir");
    let own = extract(&put(dir.path(), "tiny.html", b"<p>x</p>"));
    assert_eq!(own.code, Some(0), "a one-paragraph page is extracted");
    let mb = 3_000_000;
    let repeat = |unit: &str, head: &str| format!("{head}{}", unit.repeat(mb / unit.len()));
    // (name, page, must it be extracted?)
    let cases: Vec<(&str, String, bool)> = vec![
        ("a-x", repeat("<a>x", ""), false),
        ("a", repeat("<a>", ""), false),
        ("td-x", repeat("<td>x", "<table>"), false),
        ("p-x", repeat("<p>x</p>", ""), false),
        ("li", repeat("<li>item", "<ul>"), false),
        ("br", repeat("<br>", ""), false),
        ("foster", repeat("x<td>y</td>", "<table>"), false),
        ("rows", repeat("<tr><td>123</td><td>456</td></tr>", "<table>"), true),
        ("text", repeat("lorem ipsum dolor sit amet, ", "<p>").repeat(3), true),
    ];
    let mut failures = Vec::new();
    for (name, page, must_extract) in cases {
        let size = page.len();
        let path = put(dir.path(), &format!("{name}.html"), page.as_bytes());
        drop(page);
        let cost = extract(&path);
        let bound = ten_times_plus_allowance(&own, size);
        eprintln!(
            "{name:8} {size:9} B {:7.1} MB (bound {bound:.1}) exit {:?}",
            cost.peak_mb, cost.code
        );
        if cost.peak_mb > bound
            || !matches!(cost.code, Some(0 | 1))
            || (must_extract && cost.code != Some(0))
        {
            failures.push(format!("{name}: {cost:?}, bound {bound:.1} MB"));
        }
        let _ = std::fs::remove_file(&path);
    }
    assert!(failures.is_empty(), "over the bound or wrongly refused:\n{}", failures.join("\n"));
}

// See: issue 13: the memory limit is configuration. The densest page is
// refused with a message that names the flag, and extracted when the flag
// lifts the limit.
#[test]
fn issue_13_too_dense_pages_are_refused_with_a_message_and_the_flag_lifts_it() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = put(dir.path(), "dense.html", "<a>x".repeat(750_000).as_bytes());
    let out = Command::new(env!("CARGO_BIN_EXE_gleaner"))
        .args(["extract", "--no-progress", "-f", "txt"])
        .arg(&path)
        .output()
        .expect("gleaner runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("too dense") && stderr.contains("--max-memory-factor"), "{stderr}");
    let lifted = extract_with(&path, &["--max-memory-factor", "0"]);
    assert_eq!(lifted.code, Some(0), "extracted without the limit: {lifted:?}");
}
