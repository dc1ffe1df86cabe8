//! `gleaner template cluster | learn | show`: site templates from folders
//! of pages (Gottron 2008, S-0).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context;
use gleaner::render::{escape, strip_controls};
use gleaner::template::{groups, page_distance, ModelBuilder, PageSummary, TemplateModel};
use gleaner::Document;
use gleaner_batch::input::{self, Input};
use serde::Serialize;

use crate::flags::{
    ClusterArgs, ClusterFormat, LearnArgs, ShowArgs, TemplateCommand, TemplateExtractArgs,
};
use crate::UsageError;

/// Runs a `template` subcommand.
pub fn run(command: TemplateCommand) -> anyhow::Result<ExitCode> {
    match command {
        TemplateCommand::Cluster(args) => cluster(args),
        TemplateCommand::Learn(args) => learn(args),
        TemplateCommand::Show(args) => show(args),
        TemplateCommand::Extract(args) => extract(args),
    }
}

/// Reads a model file.
///
/// # Errors
/// The file cannot be read, or is not a valid model (a usage error: the
/// wrong file was given).
pub fn load_model(path: &Path) -> anyhow::Result<TemplateModel> {
    gleaner_batch::input::read_model(path).map_err(|e| match e {
        gleaner_batch::Error::Io(e) => {
            UsageError(format!("cannot read template model {}: {e}", path.display())).into()
        }
        other => UsageError(other.to_string()).into(),
    })
}

/// The pages of each folder, and the folder index of each page.
fn pages_of(dirs: &[PathBuf]) -> anyhow::Result<(Vec<Input>, Vec<usize>)> {
    let mut inputs = Vec::new();
    let mut truth = Vec::new();
    for (label, dir) in dirs.iter().enumerate() {
        let found = input::collect(&[], std::slice::from_ref(dir), &mut |skipped| {
            eprintln!("gleaner: skipping {skipped}");
        })?;
        if found.is_empty() {
            eprintln!("gleaner: no pages in {}", dir.display());
        }
        truth.extend(std::iter::repeat_n(label, found.len()));
        inputs.extend(found);
    }
    if inputs.is_empty() {
        return Err(UsageError("no pages in the --input-dir folders".into()).into());
    }
    Ok((inputs, truth))
}

/// The `--format json` contract of `template cluster`.
#[derive(Debug, Serialize)]
struct ClusterReport {
    clusters: Vec<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    rand_index: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    dunn_index: Option<f64>,
    distance: String,
    threshold: f64,
}

fn cluster(args: ClusterArgs) -> anyhow::Result<ExitCode> {
    let options = args.clustering.options()?;
    let (mut inputs, mut truth) = pages_of(&args.input_dir)?;
    for dir in &args.singletons {
        let (alone, _) = pages_of(std::slice::from_ref(dir))?;
        let first = truth.iter().max().map_or(0, |m| m + 1);
        truth.extend(first..first + alone.len());
        inputs.extend(alone);
    }
    let parse = args.limits.parse_options()?;
    let threads = crate::worker_threads(args.parallel);
    let summaries = gleaner_batch::summarize_all(&inputs, &parse, &options, threads)?;
    for (input, summary) in inputs.iter().zip(&summaries) {
        if summary.is_none() {
            eprintln!(
                "gleaner: {}: cannot be read or parsed, left out",
                strip_controls(&input.source)
            );
        }
    }
    // Pages that failed are left out of the clusters and the indices.
    let kept: Vec<usize> = (0..inputs.len()).filter(|&i| summaries[i].is_some()).collect();
    let shapes: Vec<&PageSummary> = kept.iter().filter_map(|&i| summaries[i].as_ref()).collect();
    let owned: Vec<&gleaner::template::PageShape> = shapes.iter().map(|s| &s.shape).collect();
    let labels = gleaner::template::cluster(&owned, options.distance, options.threshold);
    let clusters: Vec<Vec<String>> = groups(&labels)
        .into_iter()
        .map(|members| members.into_iter().map(|k| inputs[kept[k]].source.clone()).collect())
        .collect();
    if let Some(path) = &args.distances {
        let mut tsv = String::new();
        for a in 0..owned.len() {
            for b in a + 1..owned.len() {
                let d = page_distance(options.distance, owned[a], owned[b]);
                let _ =
                    writeln!(tsv, "{}\t{}\t{d:.6}", inputs[kept[a]].source, inputs[kept[b]].source);
            }
        }
        std::fs::write(path, tsv).with_context(|| format!("cannot write {}", path.display()))?;
    }
    let (rand_index, dunn_index) = if args.labels_from_input_dir {
        let true_labels: Vec<usize> = kept.iter().map(|&i| truth[i]).collect();
        let rand = gleaner_eval::rand_index(&labels, &true_labels)?;
        // Identical pages within every class make the Dunn index infinite,
        // which JSON cannot say: the largest finite number stands for it.
        let dunn = gleaner_eval::dunn_index(&true_labels, |a, b| {
            page_distance(options.distance, owned[a], owned[b])
        })
        .map(|d| d.min(f64::MAX));
        (Some(rand), dunn)
    } else {
        (None, None)
    };
    let report = ClusterReport {
        clusters,
        rand_index,
        dunn_index,
        distance: options.distance.name().to_string(),
        threshold: options.threshold,
    };
    match args.format {
        ClusterFormat::Json => {
            crate::print_stdout(&(serde_json::to_string_pretty(&report)? + "\n"))?
        }
        ClusterFormat::Md => crate::print_stdout(&cluster_markdown(&report))?,
    }
    Ok(ExitCode::SUCCESS)
}

fn cluster_markdown(report: &ClusterReport) -> String {
    let mut out = format!(
        "{} clusters of {} pages ({} distance, threshold {})\n",
        report.clusters.len(),
        report.clusters.iter().map(Vec::len).sum::<usize>(),
        report.distance,
        report.threshold
    );
    if let Some(r) = report.rand_index {
        let _ = writeln!(out, "Rand index {r:.4}");
    }
    match (report.rand_index, report.dunn_index) {
        (Some(_), Some(d)) => {
            let _ = writeln!(out, "Dunn index {d:.4}");
        }
        (Some(_), None) => out.push_str("Dunn index undefined (one class only)\n"),
        _ => {}
    }
    for (i, members) in report.clusters.iter().enumerate() {
        let _ = writeln!(out, "\n## Cluster {} ({} pages)\n", i + 1, members.len());
        for m in members {
            let _ = writeln!(out, "- {m}");
        }
    }
    out
}

fn learn(args: LearnArgs) -> anyhow::Result<ExitCode> {
    if !(0.0..1.0).contains(&args.share) {
        return Err(UsageError(format!("--share {}: must be in [0, 1)", args.share)).into());
    }
    let (inputs, _) = pages_of(&args.input_dir)?;
    let parse = args.limits.parse_options()?;
    let options = gleaner::template::SiteOptions::default();
    let threads = crate::worker_threads(args.parallel);
    let summaries = gleaner_batch::summarize_all(&inputs, &parse, &options, threads)?;
    let mut builder = ModelBuilder::new();
    for (input, summary) in inputs.iter().zip(&summaries) {
        match summary {
            Some(s) => builder
                .add_segments(s.segments.iter().map(String::as_str), Some(input.source.as_str())),
            None => eprintln!(
                "gleaner: {}: cannot be read or parsed, left out",
                strip_controls(&input.source)
            ),
        }
    }
    if builder.pages() < 2 {
        return Err(UsageError(format!(
            "a template is what pages share: {} readable page(s) is too few",
            builder.pages()
        ))
        .into());
    }
    let model = builder.finish(args.share);
    std::fs::write(&args.output, model.to_json()?)
        .with_context(|| format!("cannot write {}", args.output.display()))?;
    eprintln!(
        "gleaner: learned from {} pages: {} template segments (on {} or more pages), written to {}",
        model.pages,
        model.template_segments().count(),
        model.min_df(),
        args.output.display()
    );
    Ok(ExitCode::SUCCESS)
}

fn show(args: ShowArgs) -> anyhow::Result<ExitCode> {
    let model = load_model(&args.model)?;
    let parse = args.limits.parse_options()?;
    let page = match &args.page {
        None => None,
        Some(path) => {
            let found = input::collect(std::slice::from_ref(path), &[], &mut |_| {})?;
            let input = found.first().ok_or_else(|| UsageError("no page given".into()))?;
            let bytes = input::read(input, parse.max_bytes)
                .with_context(|| format!("cannot read {}", path.display()))?;
            let doc = Document::parse(&bytes, &parse)
                .with_context(|| format!("cannot parse {}", path.display()))?;
            Some((path.display().to_string(), doc))
        }
    };
    let html = show_html(&args.model.display().to_string(), &model, page.as_ref());
    match &args.output {
        Some(path) => std::fs::write(path, html)
            .with_context(|| format!("cannot write {}", path.display()))?,
        None => crate::print_stdout(&html)?,
    }
    Ok(ExitCode::SUCCESS)
}

/// The model as a self-contained HTML page: what it was learned from, its
/// template text by document frequency, and optionally a page with the
/// template text marked.
fn show_html(name: &str, model: &TemplateModel, page: Option<&(String, Document)>) -> String {
    let mut out = String::new();
    let _ = write!(
        out,
        "<!DOCTYPE html><html><head><meta charset=utf-8><title>Template model {title}</title>\
         <style>body{{font:15px/1.45 system-ui,sans-serif;max-width:60em;margin:2em auto;padding:0 1em;color:#222}}\
         table{{border-collapse:collapse;width:100%}}td{{padding:2px 6px;border-bottom:1px solid #eee;vertical-align:top}}\
         td.df{{white-space:nowrap;width:11em}}.bar{{display:inline-block;height:.7em;background:#c0392b;margin-right:.4em}}\
         .below .bar{{background:#aaa}}.below{{color:#777}}mark.t{{background:#f6c6c0;text-decoration:line-through}}\
         .page p{{margin:.3em 0}}small{{color:#666}}</style></head><body>\
         <h1>Template model <code>{title}</code></h1>",
        title = escape(name)
    );
    let template: Vec<_> = model.template_segments().collect();
    let _ = write!(
        out,
        "<p>Learned from <b>{}</b> pages. A text is template text when it is on more than \
         {:.0}&nbsp;% of them (here: on <b>{}</b> or more); <b>{}</b> texts are. Texts on fewer \
         pages are shown greyed below the line.</p>",
        model.pages,
        model.share * 100.0,
        model.min_df(),
        template.len()
    );
    if let Some((source, doc)) = page {
        let _ = write!(
            out,
            "<h2>What it sets aside on <code>{}</code></h2><div class=page>",
            escape(source)
        );
        let min = model.min_df();
        for (_, text) in gleaner::template::model::segments(doc) {
            if model.df(&text) >= min {
                let _ = write!(out, "<p><mark class=t>{}</mark></p>", escape(&text));
            } else {
                let _ = write!(out, "<p>{}</p>", escape(&text));
            }
        }
        out.push_str("</div>");
    }
    out.push_str("<h2>Texts by document frequency</h2><table>");
    let pages = f64::from(model.pages.max(1));
    let min = model.min_df();
    for s in model.segments.iter().take(2000) {
        let class = if s.df >= min { "" } else { " class=below" };
        let width = 8.0 * f64::from(s.df) / pages;
        let _ = write!(
            out,
            "<tr{class}><td class=df><span class=bar style=\"width:{width:.2}em\"></span>{} / {}</td><td>{}</td></tr>",
            s.df,
            model.pages,
            escape(&s.text)
        );
    }
    out.push_str("</table>");
    if model.segments.len() > 2000 {
        let _ = write!(out, "<p><small>… and {} more.</small></p>", model.segments.len() - 2000);
    }
    if !model.sources.is_empty() {
        out.push_str("<h2>Pages</h2><ul>");
        for s in &model.sources {
            let _ = write!(out, "<li><code>{}</code></li>", escape(s));
        }
        out.push_str("</ul>");
    }
    out.push_str("</body></html>\n");
    out
}

/// The `--format json` contract of `template extract`.
#[derive(Debug, Serialize)]
struct MenuReport {
    key_page: String,
    subdigraph: Vec<String>,
    pages_loaded: usize,
    complete: bool,
    template_nodes: usize,
    page_nodes: usize,
}

/// Counts the nodes a person sees: elements and non-blank text.
fn significant(doc: &Document, id: gleaner::NodeId) -> bool {
    doc.element(id).is_some() || (doc.is_text(id) && !doc.text(id).trim().is_empty())
}

fn extract(args: TemplateExtractArgs) -> anyhow::Result<ExitCode> {
    let url = crate::fetch::parse_url(&args.url, args.fetch.source.as_deref())?;
    let parse = args.limits.parse_options()?;
    let source = crate::fetch::page_source(&args.fetch, &url, parse.max_bytes as u64)?;
    let menu = gleaner::template::menu::MenuConfig::default()
        .n(args.menu_pages.max(1))
        .max_loads(args.max_loads.max(1));
    let etdm = gleaner::template::etdm::EtdmConfig::default();
    let found = gleaner_crawl::training::menu_training(&url, &*source, &menu, &etdm, &parse)
        .with_context(|| format!("cannot load {url}"))?;
    let doc = &found.key.doc;
    let report = MenuReport {
        key_page: found.key.fetched.url.to_string(),
        subdigraph: found.subdigraph.clone(),
        pages_loaded: found.pages_loaded,
        complete: found.complete,
        template_nodes: doc
            .ids()
            .filter(|&id| found.template.get(id.index()).copied().unwrap_or(false))
            .filter(|&id| significant(doc, id))
            .count(),
        page_nodes: doc.ids().filter(|&id| significant(doc, id)).count(),
    };
    if found.subdigraph.is_empty() {
        eprintln!("gleaner: {url}: no linked page could be loaded; no template");
    }
    if let Some(path) = &args.output {
        let html = gleaner::template::etdm::template_html(doc, &found.template);
        std::fs::write(path, html).with_context(|| format!("cannot write {}", path.display()))?;
    }
    match args.format {
        ClusterFormat::Json => {
            crate::print_stdout(&(serde_json::to_string_pretty(&report)? + "\n"))?
        }
        ClusterFormat::Md => {
            let mut out = format!(
                "Template of {} from {} pages ({} loaded, {}complete): {} of {} nodes\n",
                report.key_page,
                report.subdigraph.len(),
                report.pages_loaded,
                if report.complete { "" } else { "in" },
                report.template_nodes,
                report.page_nodes
            );
            for p in &report.subdigraph {
                let _ = writeln!(out, "- {p}");
            }
            crate::print_stdout(&out)?;
        }
    }
    Ok(ExitCode::SUCCESS)
}
