//! What rendering costs beside the rest of a page's work (issue 35): for
//! every page of the dataset folders given (`input/*.html` or `*.html`),
//! the time to parse it, to extract its main content with the default
//! extractor, and to render the selection as text, Markdown and HTML; the
//! sums and each renderer's share of the whole per-page time (parse +
//! extract + that renderer).
//!
//! ```sh
//! cargo run --release -p gleaner --example render_cost -- \
//!     ../shared/data/wceb/readability ../shared/data/wceb/cleanportaleval
//! ```

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use gleaner::render::{self, Format, RenderOptions};
use gleaner::{Document, ParseOptions};

/// The pages of a dataset folder.
fn pages(dir: &Path) -> Vec<PathBuf> {
    let input = dir.join("input");
    let dir = if input.is_dir() { input } else { dir.to_path_buf() };
    let mut out: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    out.retain(|p| p.extension().is_some_and(|x| x == "html"));
    out.sort();
    out
}

fn main() {
    let dirs: Vec<PathBuf> = std::env::args().skip(1).map(PathBuf::from).collect();
    if dirs.is_empty() {
        eprintln!("usage: render_cost DATASET_DIR...");
        std::process::exit(2);
    }
    let extractor = gleaner::extract::by_name("default").expect("the default extractor");
    let options = RenderOptions::default().links(true).images(true);
    let (mut parse, mut extract) = (Duration::ZERO, Duration::ZERO);
    let mut renders = [Duration::ZERO; 3];
    let mut count = 0usize;
    for page in dirs.iter().flat_map(|d| pages(d)) {
        let Ok(bytes) = std::fs::read(&page) else { continue };
        let t = Instant::now();
        let Ok(doc) = Document::parse(&bytes, &ParseOptions::default()) else { continue };
        parse += t.elapsed();
        let t = Instant::now();
        let selection = extractor.extract(&doc);
        extract += t.elapsed();
        for (total, format) in
            renders.iter_mut().zip([Format::Text, Format::Markdown, Format::Html])
        {
            let t = Instant::now();
            std::hint::black_box(render::render(&doc, &selection, format, options));
            *total += t.elapsed();
        }
        count += 1;
    }
    let ms = |d: Duration| 1000.0 * d.as_secs_f64() / count.max(1) as f64;
    println!("{count} pages; ms per page: parse {:.3}, extract {:.3}", ms(parse), ms(extract));
    for (name, total) in ["text", "markdown", "html"].iter().zip(renders) {
        let whole = parse + extract + total;
        println!(
            "render {name}: {:.3} ms per page, {:.1} % of the page's time",
            ms(total),
            100.0 * total.as_secs_f64() / whole.as_secs_f64().max(f64::MIN_POSITIVE)
        );
    }
}
