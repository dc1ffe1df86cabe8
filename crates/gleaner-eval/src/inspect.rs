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
use std::sync::Arc;

use gleaner::extract::learned::{Decision, Learned, LearnedModel, PAGE_TYPES};
use gleaner::extract::{self, Article, Curve, Explanation, Params};
use gleaner::render::escape;
use gleaner::Selection;

/// The curve of a curve algorithm
/// ([`Capabilities::curve`](gleaner::extract::Capabilities::curve)) with
/// these parameters, `None` for the algorithms without one.
///
/// # Errors
/// [`Error::UnknownAlgorithm`](gleaner::Error::UnknownAlgorithm), and
/// [`Error::UnknownParam`](gleaner::Error::UnknownParam) or
/// [`Error::InvalidParam`](gleaner::Error::InvalidParam) for bad
/// parameters.
pub fn curve(doc: &Document, algorithm: &str, params: &Params) -> Result<Option<Curve>> {
    Ok(extract::algorithm(algorithm)?.curve(doc, params)?)
}

/// A self-contained HTML report of `algorithm` on `doc`: a summary, the
/// curve chart when the algorithm has one, and the page text with the
/// selected text nodes highlighted (hover shows a node's score).
///
/// # Errors
/// [`Error::UnknownAlgorithm`](gleaner::Error::UnknownAlgorithm), and
/// [`Error::UnknownParam`](gleaner::Error::UnknownParam) or
/// [`Error::InvalidParam`](gleaner::Error::InvalidParam) for bad
/// parameters.
pub fn report(doc: &Document, algorithm: &str, params: &Params) -> Result<String> {
    report_with_model(doc, algorithm, params, None)
}

/// [`report`], the learned extractor with `model` rather than the
/// compiled-in one. For `learned` the report shows the page's type and
/// every block with its score and the features that moved it most.
///
/// # Errors
/// As [`report`].
pub fn report_with_model(
    doc: &Document,
    algorithm: &str,
    params: &Params,
    model: Option<Arc<LearnedModel>>,
) -> Result<String> {
    let alg = extract::algorithm(algorithm)?;
    let learned = match (alg.name, model) {
        ("learned", Some(m)) => Some(Learned::with_model(m, params.build()?)),
        ("learned", None) => Some(Learned::new(params.build()?)?),
        _ => None,
    };
    let decision = learned.as_ref().map(|l| l.decide(doc));
    // `article` says why: its container and each removal; `learned`
    // reads those decisions (with article's defaults), so shows them too.
    let explanation = match alg.name {
        "article" => Some(Article::new(params.build()?).explain(doc)),
        "learned" => Some(Article::default().explain(doc)),
        _ => None,
    };
    let selection = match (&decision, &explanation) {
        (Some(d), _) => d.selection.clone(),
        (None, Some(e)) => e.selection.clone(),
        (None, None) => alg.build(params)?.extract(doc),
    };
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
    if let (Some(l), Some(d)) = (&learned, &decision) {
        learned_decisions(&mut out, doc, l, d);
    }
    if let Some(e) = &explanation {
        let heading = if learned.is_some() {
            "<h2>Decisions of `article`'s rules</h2>\n<p class=\"meta\">Features of every \
             block above, and the page's content where its type is left to them.</p>\n"
        } else {
            "<h2>Decisions</h2>\n"
        };
        decisions(&mut out, doc, e, heading);
    }
    out.push_str(
        "<h2>Page text</h2>\n<p class=\"meta\"><span class=\"sel\">kept as main content</span> \
         <span class=\"rest\">dropped</span></p>\n<div class=\"page\">\n",
    );
    let why = explanation.as_ref().map(|e| removal_of_each_node(doc, e));
    page_text(&mut out, doc, &selection, why.as_deref());
    out.push_str("</div>\n</body></html>\n");
    Ok(out)
}

/// How many features of each block the report names.
const TOP_FEATURES: usize = 4;

/// The learned extractor's decisions: the page type's probabilities, and
/// for every block its score, whether it was kept, and the features that
/// moved its score most (path attributions of the block forest).
fn learned_decisions(out: &mut String, doc: &Document, l: &Learned, d: &Decision) {
    out.push_str("<h2>Decisions</h2>\n<p class=\"meta\">Page type: ");
    let types: Vec<String> = PAGE_TYPES
        .iter()
        .zip(d.type_probabilities)
        .map(|(t, p)| {
            let strong = if *t == d.page_type.name() { ("<b>", "</b>") } else { ("", "") };
            format!("{}{t} {p:.2}{}", strong.0, strong.1)
        })
        .collect();
    let _ = writeln!(out, "{}.</p>", types.join(", "));
    let Some((blocks, scores)) = &d.blocks else {
        out.push_str(
            "<p class=\"meta\">`article`'s rules decided: the model leaves pages of this type to \
             them (they did better out of fold), or the page has too many blocks.</p>\n",
        );
        return;
    };
    let model = l.model();
    let threshold = d.threshold.unwrap_or_else(|| l.threshold(d.page_type));
    let rows = gleaner::extract::learned::page_rows(
        doc,
        &gleaner::metadata::Metadata::extract(doc),
        model.features,
        gleaner::extract::learned::MAX_BLOCKS,
    );
    let names = model.blocks.feature_names();
    if d.fell_back {
        out.push_str(
            "<p class=\"meta\">The forest kept too few words (on a documentation page, fewer \
             than the rules): the page's content is what `article`'s rules kept, whatever the \
             scores below.</p>\n",
        );
    }
    if let Some(from) = d.lowered_from {
        let _ = writeln!(
            out,
            "<p class=\"meta\">The forest kept too few words at {from:.2}: its selection is \
             taken at {threshold:.2}, the first lower cut that keeps enough.</p>"
        );
    }
    if d.described {
        out.push_str(
            "<p class=\"meta\">The forest kept few words, and they are kept as they are: the \
             product description the page's structured data states, which they lack, completes \
             them.</p>\n",
        );
    }
    if d.comments_apart {
        out.push_str(
            "<p class=\"meta\">The page's comment sections were taken out of what the forest \
             kept: a comment section is main content only on a page surely a forum thread.</p>\n",
        );
    }
    if d.footer_dropped {
        out.push_str(
            "<p class=\"meta\">What was kept lay wholly in the page's footer (a <code>&lt;footer&gt;\
             </code> or an element of role <code>contentinfo</code>), and a footer alone is not \
             main content: the page gives no text.</p>\n",
        );
    }
    if d.prompts_dropped > 0 {
        out.push_str(&format!(
            "<p class=\"meta\">{} blocks reading as a reader's feedback prompt (\"Was this page \
             helpful?\") were left out after the forest's decision.</p>\n",
            d.prompts_dropped
        ));
    }
    if d.machine_text_dropped > 0 {
        out.push_str(&format!(
            "<p class=\"meta\">{} blocks reading as text written for machines (a serialized data \
             object, a run of identifiers) were left out after the forest's decision.</p>\n",
            d.machine_text_dropped
        ));
    }
    if d.alike_added > 0 {
        out.push_str(&format!(
            "<p class=\"meta\">{} blocks were kept after the forest's decision because most of \
             the page's posts, cards or sections like theirs (any one, on a page surely a forum \
             thread) keep a block at the same place: repeated parts are kept alike.</p>\n",
            d.alike_added
        ));
    }
    if d.headers_kept > 0 {
        out.push_str(&format!(
            "<p class=\"meta\">{} blocks naming a post's author or the date it was written were \
             kept after the forest's decision, beside the posts kept.</p>\n",
            d.headers_kept
        ));
    }
    if d.price_kept {
        out.push_str(
            "<p class=\"meta\">The headline naming the product, or the block showing the price \
             the page's structured data declares for it, was kept after the forest's decision, \
             whatever its score.</p>\n",
        );
    }
    let blended = d.confidence < 0.99 || l.reads_own_cut(&d.type_probabilities);
    if l.configured_threshold().is_none() && blended {
        let type_threshold = l.threshold(d.page_type);
        let threshold = d.lowered_from.unwrap_or(threshold);
        let _ = writeln!(
            out,
            "<p class=\"meta\">This page's threshold, {threshold:.2}, blends the types' \
             thresholds by their probability ({type_threshold:.2} for its most probable type), \
             each type whose policy is adaptive drawn halfway to the cut that maximises the \
             page's expected word F1 under these scores.</p>"
        );
    }
    let repeat_of: std::collections::HashMap<usize, usize> =
        d.repeated.iter().map(|r| (r.block, r.of)).collect();
    let _ = writeln!(
        out,
        "<h3>Blocks ({}; the forest keeps a score of {threshold:.2} or more, a repeated run \
         excepted)</h3>\n<table><tr><th>#</th><th>score</th>\
         <th>kept</th><th>element</th><th>what moved the score most (feature = value: change in \
         log-odds)</th><th>text</th></tr>",
        blocks.len()
    );
    let mut row = Vec::new();
    for (i, &score) in scores.iter().enumerate() {
        let why = match &rows {
            Some(r) if r.len() == blocks.len() => {
                row.clear();
                row.extend_from_slice(r.row(i));
                row.extend_from_slice(&d.type_probabilities);
                let c = model.blocks.contributions(&row, 0);
                c.features
                    .iter()
                    .take(TOP_FEATURES)
                    .map(|&(f, v)| {
                        format!(
                            "{} = {:.2}: {v:+.2}",
                            names.get(f).map_or("?", String::as_str),
                            row[f]
                        )
                    })
                    .collect::<Vec<_>>()
                    .join("; ")
            }
            _ => String::new(),
        };
        let text = blocks.text(doc, i);
        let excerpt: String = text.chars().take(100).collect();
        let more = if text.chars().count() > 100 { "…" } else { "" };
        // Kept is what the output holds: a block over the threshold may
        // still be left out as a repeat, or the rules' selection taken.
        let kept = match repeat_of.get(&i) {
            Some(of) => format!("no: repeats block {of}"),
            None if blocks.texts(i).iter().any(|&t| d.selection.contains(t)) => "yes".into(),
            None => "no".into(),
        };
        let _ = writeln!(
            out,
            "<tr><td>{i}</td><td>{score:.3}</td><td>{}</td><td><code>{}</code></td><td>{}</td><td>{}{more}</td></tr>",
            kept,
            escape(&doc.selector(blocks.blocks[i].owner)),
            escape(&why),
            escape(&text_for_terminal(&excerpt)),
        );
    }
    out.push_str("</table>\n");
}

/// `article`'s decisions: the attempt, the container, the elements
/// chosen beside it, and a table of the blocks left out inside them with
/// the pass and rule of each.
fn decisions(out: &mut String, doc: &Document, e: &Explanation, heading: &str) {
    let label = |id: Option<NodeId>| {
        id.map_or_else(
            || "none".to_string(),
            |id| format!("<code>{}</code>", escape(&doc.selector(id))),
        )
    };
    out.push_str(heading);
    out.push_str("<ul class=\"meta\">\n");
    let _ = writeln!(out, "<li>Attempt kept: {}.</li>", escape(e.attempt.describe()));
    let _ = writeln!(out, "<li>The votes chose {}.</li>", label(e.voted));
    let moved = if e.pointed_by_markup {
        " (the page's <code>itemprop=articleBody</code> element)"
    } else if e.titled {
        " (the block headed by the page's own title)"
    } else {
        ""
    };
    let _ = writeln!(out, "<li>Container after refinement: {}{moved}.</li>", label(e.container));
    let others: Vec<String> =
        e.chosen.iter().filter(|&&c| Some(c) != e.container).map(|&c| label(Some(c))).collect();
    if !others.is_empty() {
        let _ = writeln!(
            out,
            "<li>Also chosen (siblings, secondary containers): {}.</li>",
            others.join(", ")
        );
    }
    if !e.leads.is_empty() {
        let headers: Vec<String> = e.leads.iter().map(|&h| label(Some(h))).collect();
        let _ = writeln!(out, "<li>Lead paragraph kept from {}.</li>", headers.join(", "));
    }
    out.push_str("</ul>\n");
    if e.removed.is_empty() {
        out.push_str("<p class=\"meta\">Nothing inside the chosen elements was left out.</p>\n");
        return;
    }
    let _ = writeln!(
        out,
        "<h3>Left out inside the chosen elements ({} blocks)</h3>\n<table><tr><th>rule</th>\
         <th>element</th><th>words</th><th>text</th></tr>",
        e.removed.len()
    );
    for r in &e.removed {
        let text = whole_text(doc, r.node);
        let excerpt: String = text.chars().take(100).collect();
        let more = if text.chars().count() > 100 { "…" } else { "" };
        let _ = writeln!(
            out,
            "<tr><td>{}</td><td><code>{}</code></td><td>{}</td><td>{}{more}</td></tr>",
            escape(&r.rule.describe()),
            escape(&doc.selector(r.node)),
            r.words,
            escape(&text_for_terminal(&excerpt)),
        );
    }
    out.push_str("</table>\n");
}

/// All text of a subtree, hidden text included (a block removed as hidden
/// has no visible text), whitespace-collapsed, its text nodes apart (the
/// items of a removed list do not run together).
fn whole_text(doc: &Document, id: NodeId) -> String {
    let mut out = String::new();
    for n in doc.subtree(id).filter(|&n| doc.is_text(n)) {
        gleaner::document::push_collapsed(&mut out, doc.text(n));
        if !out.is_empty() && !out.ends_with(' ') {
            out.push(' ');
        }
    }
    out.trim().to_string()
}

/// Text collapsed to one line.
fn text_for_terminal(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// For each node, the removal whose block holds it (innermost), so that
/// the page text can say why each dropped span went.
fn removal_of_each_node(doc: &Document, e: &Explanation) -> Vec<Option<String>> {
    let mut why: Vec<Option<String>> = vec![None; doc.len()];
    for &root in &e.chosen {
        for id in doc.subtree(root) {
            why[id.index()] = Some("left out".into());
        }
    }
    // Removals are in document order, outer before inner: inner wins.
    for r in &e.removed {
        let rule = r.rule.describe();
        for id in doc.subtree(r.node) {
            why[id.index()] = Some(rule.clone());
        }
    }
    why
}

/// The visible text nodes in order, one paragraph per block-level
/// ancestor, each node marked kept or dropped; with `why`, a dropped
/// node's title gives the reason (text outside the chosen elements: "not
/// in the chosen elements").
fn page_text(
    out: &mut String,
    doc: &Document,
    selection: &Selection,
    why: Option<&[Option<String>]>,
) {
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
        } else if let (false, Some(why)) = (selection.contains(id), why) {
            let reason = why.get(id.index()).cloned().flatten();
            let reason = reason.unwrap_or_else(|| "not in the chosen elements".into());
            let _ = write!(out, " title=\"{}\"", escape(&reason));
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
.sel{background:#d9f2d9}table{border-collapse:collapse;font-size:90%}td,th{border:1px solid #ddd;\
padding:.2em .4em;text-align:left;vertical-align:top}.rest{color:#999;text-decoration:line-through #ccc}";

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
        let curves = extract::algorithms().iter().filter(|a| a.capabilities.curve);
        let names: Vec<&str> = curves.map(|a| a.name).collect();
        assert_eq!(names.len(), 9, "{names:?}");
        for name in names {
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

    #[test]
    fn learned_report_marks_the_repeated_run_it_left_out() {
        let a = "Home remodeling in California is a significant investment for any family.";
        let b = "Costs vary with the size of the house, the materials and the contractor.";
        let c = "Permits take two to six weeks, and inspections follow each stage of work.";
        let d = doc(&format!(
            "<title>Remodeling</title><main><div class=desktop><h1>Remodeling costs</h1><p>{a}</p>\
             <p>{b}</p><p>{c}</p></div><div class=phone><h1>Remodeling costs</h1><p>{a}</p>\
             <p>{b}</p><p>{c}</p></div></main>"
        ));
        let html = report(&d, "learned", &Params::new()).expect("report");
        // Every type goes to the forest with the shipped model's policies.
        let table = html.split("<h3>Blocks").nth(1).expect("the forest decided");
        // The second copy's paragraphs are marked as repeats of the first
        // copy's (whether a copy's heading is kept is the forest's call).
        for first in 1..=3 {
            assert!(table.contains(&format!("no: repeats block {first}")), "{table}");
        }
        assert_eq!(html.matches(a).count(), 4, "block table and page text, twice each");
    }
}
