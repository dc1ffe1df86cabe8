//! Inspection reports: why an algorithm kept or dropped each part of a
//! page, as one self-contained HTML file.
//!
//! The report holds the algorithm's curve as an SVG chart (the per-line
//! TTR raw and smoothed with the threshold, CETR's features, or CCB's
//! content code ratio along the document), and the page text with the
//! selected text nodes highlighted. Algorithms without a curve (the DOM
//! ones) get the highlighted text only.
//!
//! ```
//! use gleaner::{extract::Params, Document, ParseOptions};
//! use gleaner_eval::inspect;
//! let html = b"<ul>\n<li><a href=/>Home</a></li>\n</ul>\n<p>\nSome text of the article, long enough.\n</p>";
//! let doc = Document::parse(html, &ParseOptions::default())?;
//! let report = inspect::report(&doc, "ttr", &Params::new())?;
//! assert!(report.contains("<svg") && report.contains("class=\"sel\""));
//! # Ok::<(), gleaner_eval::Error>(())
//! ```

use std::fmt::Write;

use crate::error::Result;
use crate::plot::LineChart;
use gleaner::document::tags::is_block;
use gleaner::document::{Document, NodeId};
use gleaner::extract::{
    self, Ccb, CcbConfig, CcbVariant, Cetr, Curve, Params, Ttr, TtrConfig, TtrMethod,
};
use gleaner::render::escape;
use gleaner::Selection;

/// The algorithms that have a curve ([`curve`] returns one for them).
pub const CURVE_ALGORITHMS: &[&str] = &[
    "ccb",
    "accb",
    "tccb",
    "ttr",
    "ttr-kmeans",
    "ttr-em",
    "ttr-farthest-first",
    "ttr-prediction",
    "cetr",
];

/// The curve of a curve algorithm with these parameters, `None` for the
/// algorithms without one.
///
/// # Errors
/// [`Error::UnknownAlgorithm`](gleaner::Error::UnknownAlgorithm) and
/// [`Error::InvalidConfig`](gleaner::Error::InvalidConfig) for bad
/// parameters.
pub fn curve(doc: &Document, algorithm: &str, params: &Params) -> Result<Option<Curve>> {
    let name = extract::algorithm(algorithm)?.name;
    let ccb =
        |v| -> Result<Curve> { Ok(Ccb::new(params.apply(CcbConfig::for_variant(v))?).curve(doc)) };
    let ttr = |m| -> Result<Curve> {
        Ok(Ttr::new(params.apply(TtrConfig::default().method(m))?).curve(doc))
    };
    Ok(Some(match name {
        "ccb" => ccb(CcbVariant::Ccb)?,
        "accb" => ccb(CcbVariant::Accb)?,
        "tccb" => ccb(CcbVariant::Tccb)?,
        "ttr" => ttr(TtrMethod::Threshold)?,
        "ttr-kmeans" => ttr(TtrMethod::KMeans)?,
        "ttr-em" => ttr(TtrMethod::Em)?,
        "ttr-farthest-first" => ttr(TtrMethod::FarthestFirst)?,
        "ttr-prediction" => ttr(TtrMethod::Prediction)?,
        "cetr" => Cetr::new(params.build()?).curve(doc),
        _ => return Ok(None),
    }))
}

/// A self-contained HTML report of `algorithm` on `doc`: a summary, the
/// curve chart when the algorithm has one, and the page text with the
/// selected text nodes highlighted (hover shows a node's score).
///
/// # Errors
/// [`Error::UnknownAlgorithm`](gleaner::Error::UnknownAlgorithm) and
/// [`Error::InvalidConfig`](gleaner::Error::InvalidConfig) for bad
/// parameters.
pub fn report(doc: &Document, algorithm: &str, params: &Params) -> Result<String> {
    let alg = extract::algorithm(algorithm)?;
    let selection = alg.build(params)?.extract(doc);
    let curve = curve(doc, alg.name, params)?;
    let title = gleaner::metadata::title(doc).unwrap_or_else(|| "untitled page".into());
    let settings: Vec<String> = params.iter().map(|(k, v)| format!("{k}={v}")).collect();
    let settings = if settings.is_empty() { "defaults".to_string() } else { settings.join(", ") };

    let (mut kept_nodes, mut all_nodes, mut kept_words, mut all_words) = (0, 0, 0u64, 0u64);
    for id in doc.text_nodes() {
        let words = u64::from(doc.stats(id).words);
        all_nodes += 1;
        all_words += words;
        if selection.contains(id) {
            kept_nodes += 1;
            kept_words += words;
        }
    }

    let mut out = String::new();
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <title>gleaner inspect: {} on {}</title>\n<style>{STYLE}</style></head>\n<body>\n",
        escape(alg.name),
        escape(&title)
    );
    let _ = writeln!(out, "<h1>{} <small>{}</small></h1>", escape(&title), escape(alg.name));
    let _ = writeln!(
        out,
        "<p class=\"meta\"><b>{}</b>: {} [{}].<br>Parameters: {}. Kept {kept_nodes} of \
         {all_nodes} text nodes, {kept_words} of {all_words} words.</p>",
        escape(alg.name),
        escape(alg.summary),
        escape(alg.paper),
        escape(&settings)
    );
    match &curve {
        Some(c) => {
            let chart = LineChart::from_curve(format!("{} — {}", alg.name, c.y_label), c);
            let _ = writeln!(
                out,
                "<figure>{}<figcaption>{} positions; the shaded ranges were kept as \
                 content.</figcaption></figure>",
                chart.size(1100, 380).to_svg(),
                c.len()
            );
        }
        None => {
            let _ =
                writeln!(out, "<p class=\"meta\">{} has no curve to plot.</p>", escape(alg.name));
        }
    }
    out.push_str(
        "<h2>Page text</h2>\n<p class=\"meta\"><span class=\"sel\">kept as main content</span> \
         <span class=\"rest\">dropped</span></p>\n<div class=\"page\">\n",
    );
    page_text(&mut out, doc, &selection);
    out.push_str("</div>\n</body></html>\n");
    Ok(out)
}

/// The visible text nodes in order, one paragraph per block-level
/// ancestor, each node marked kept or dropped.
fn page_text(out: &mut String, doc: &Document, selection: &Selection) {
    let mut block: Option<NodeId> = None;
    let mut open = false;
    for id in doc.text_nodes() {
        let owner = doc.ancestors(id).find(|&a| doc.name(a).is_some_and(is_block));
        if !open || owner != block {
            if open {
                out.push_str("</p>\n");
            }
            out.push_str("<p>");
            open = true;
            block = owner;
        }
        let class = if selection.contains(id) { "sel" } else { "rest" };
        let _ = write!(out, "<span class=\"{class}\"");
        if let Some(score) = selection.score(id) {
            let _ = write!(out, " title=\"score {score:.3}\"");
        }
        let _ = write!(out, ">{}</span> ", escape(doc.text(id).trim()));
    }
    if open {
        out.push_str("</p>\n");
    }
}

const STYLE: &str = "body{font-family:sans-serif;max-width:1150px;margin:1em auto;padding:0 1em;\
color:#222}h1 small{color:#888;font-weight:normal}.meta{color:#555}figure{margin:1em 0}\
figcaption{color:#666;font-size:90%}.page p{line-height:1.5;margin:.4em 0}\
.sel{background:#d9f2d9}.rest{color:#999;text-decoration:line-through #ccc}";

#[cfg(test)]
mod tests {
    use super::*;
    use gleaner::ParseOptions;

    fn doc(html: &str) -> Document {
        Document::parse(html.as_bytes(), &ParseOptions::default()).expect("parse")
    }

    #[test]
    fn every_curve_algorithm_has_a_curve_and_others_do_not() {
        let d = doc("<div>\n<a href=/>x</a>\n</div>\n<p>\nSome article text here.\n</p>");
        for name in CURVE_ALGORITHMS {
            let c = curve(&d, name, &Params::new()).expect("curve").expect(name);
            assert!(!c.series.is_empty() && !c.is_empty(), "{name}");
            assert!(c.series.iter().all(|(_, v)| v.len() == c.selected.len()), "{name}");
        }
        assert!(curve(&d, "lqf", &Params::new()).expect("lqf").is_none());
        assert!(curve(&d, "nosuch", &Params::new()).is_err());
        assert!(curve(&d, "ttr", &Params::new().with("lines", "nope")).is_err());
    }

    #[test]
    fn report_escapes_page_text_and_marks_selection() {
        let d = doc(
            "<title>T &amp; <x></title><p>\n&lt;script&gt;alert(1)&lt;/script&gt; is text.\n</p>",
        );
        let html = report(&d, "ccb", &Params::new().with("threshold", "0.1")).expect("report");
        assert!(html.contains("&lt;script&gt;alert(1)"));
        assert!(!html.contains("<script>"));
        assert!(html.contains("class=\"sel\" title=\"score"));
        assert!(html.contains("T &amp; &lt;x&gt;"));
        let lqf = report(&d, "lqf", &Params::new()).expect("report");
        assert!(lqf.contains("has no curve") && !lqf.contains("<svg"));
    }
}
