//! `gleaner blocks`: the Visual Clustering Extractor's block tree of one
//! page, as JSON (each block's specification vector and FactorValue) or as
//! a self-contained HTML picture of the blocks coloured by score — the
//! picture the VCE paper (S-4) argues with.

use std::path::Path;
use std::process::ExitCode;

use anyhow::Context;
use gleaner::extract::vce::{Block, BlockTree};
use gleaner::extract::{Params, Vce, VceConfig};
use gleaner::layout::{HeuristicLayout, LayoutProvider};
use gleaner::render::escape;
use gleaner::{Document, ParseOptions};
use serde_json::json;

use crate::flags::{BlocksArgs, BlocksFormat};
use crate::UsageError;

/// Runs `blocks`.
pub fn run(args: BlocksArgs) -> anyhow::Result<ExitCode> {
    let mut params = Params::new();
    for p in &args.params {
        params.push_assignment(p).map_err(UsageError::from)?;
    }
    let config: VceConfig = params.build().map_err(UsageError::from)?;
    let provider = crate::layout::provider(&args.layout, Some(1))?;
    let (source, doc) =
        read_page(&args.input, args.limits.parse_options()?.keep_all_attributes(true))?;
    let provider: &dyn LayoutProvider = match &provider {
        Some(p) => p.as_ref(),
        None => &HeuristicLayout::default(),
    };
    let layout = provider.layout(&doc).with_context(|| format!("cannot lay out {source}"))?;
    let doc = doc.with_layout(layout);
    let tree = Vce::new(config).block_tree(&doc);
    let out = match args.format {
        BlocksFormat::Json => serde_json::to_string_pretty(&to_json(&doc, &tree))? + "\n",
        BlocksFormat::Html => picture(&doc, &tree, &source),
    };
    write_output(args.output.as_deref(), &out)?;
    Ok(ExitCode::SUCCESS)
}

/// Reads and parses one page given on the command line (a path, a
/// gzipped path or `-`); returns its name and the document.
///
/// # Errors
/// When the page cannot be read or parsed.
pub fn read_page(path: &Path, options: ParseOptions) -> anyhow::Result<(String, Document)> {
    let input = gleaner_batch::input::collect(&[path.to_path_buf()], &[], &mut |_| {})?
        .into_iter()
        .next()
        .ok_or_else(|| UsageError("no input page".into()))?;
    let bytes = gleaner_batch::input::read(&input, options.max_bytes)
        .with_context(|| format!("cannot read {}", input.source))?;
    let doc = Document::parse(&bytes, &options)
        .with_context(|| format!("cannot parse {}", input.source))?;
    Ok((input.source.to_string(), doc))
}

/// Writes `text` to `path`, or to standard output without one.
///
/// # Errors
/// When the file cannot be written.
pub fn write_output(path: Option<&Path>, text: &str) -> anyhow::Result<()> {
    match path {
        Some(path) => {
            std::fs::write(path, text).with_context(|| format!("cannot write {}", path.display()))
        }
        None => crate::print_stdout(text),
    }
}

/// The tag and `#id.class` of a block's root, for labels.
fn label(doc: &Document, block: &Block) -> String {
    doc.selector(block.root)
}

/// The block tree as JSON: every block's specification vector and
/// FactorValue, and which block is main.
fn to_json(doc: &Document, tree: &BlockTree) -> serde_json::Value {
    let blocks: Vec<serde_json::Value> = tree
        .blocks
        .iter()
        .enumerate()
        .map(|(i, b)| {
            let s = &b.spec;
            json!({
                "index": i,
                "parent": b.parent,
                "children": b.children,
                "depth": b.depth,
                "node": b.root.0,
                "element": label(doc, b),
                "left": b.rect.left,
                "text_length": s.text_length,
                "link_text_length": s.link_text_length,
                "link_density": s.link_density,
                "width": s.width,
                "height": s.height,
                "avg_font_size": s.avg_font_size,
                "top": s.top,
                "bottom": s.bottom,
                "repeated_patterns": s.repeated_patterns,
                "comment_like": s.comment_like,
                "is_valid": b.is_valid,
                "factor_value": b.factor_value,
                "is_main": tree.main == Some(i),
            })
        })
        .collect();
    let a = &tree.averages;
    json!({
        "layout": tree.origin.name(),
        "page": { "width": tree.page.width, "height": tree.page.height },
        "averages": {
            "text_length": a.text_length,
            "link_text_length": a.link_text_length,
            "link_density": a.link_density,
            "width": a.width,
            "height": a.height,
        },
        "main": tree.main,
        "blocks": blocks,
    })
}

/// A self-contained HTML page drawing every block as an absolutely
/// positioned box at its layout position, coloured by FactorValue on a
/// log scale (blue low, red high; invalid blocks grey), the main block
/// outlined; hovering a box shows its tag, score and vector.
pub fn picture(doc: &Document, tree: &BlockTree, title: &str) -> String {
    let max = tree.blocks.iter().map(|b| b.factor_value).fold(0.0f64, f64::max);
    let scale = (1.0 + max).ln().max(f64::MIN_POSITIVE);
    let mut boxes = String::new();
    for (i, b) in tree.blocks.iter().enumerate() {
        let s = &b.spec;
        let t = ((1.0 + b.factor_value).ln() / scale).clamp(0.0, 1.0);
        let fill = if b.is_valid {
            format!("hsla({:.0},85%,50%,0.28)", 240.0 * (1.0 - t))
        } else {
            "hsla(0,0%,60%,0.10)".to_string()
        };
        let main = tree.main == Some(i);
        let tip = format!(
            "{} — FactorValue {:.3e}{}\ntext {} (links {}, density {:.2}) · {}×{} px at ({}, {}) · \
             font {:.1} px · bottom {} · repeated patterns {}{}",
            label(doc, b),
            b.factor_value,
            if main { " (main block)" } else if b.is_valid { "" } else { " (not valid)" },
            s.text_length,
            s.link_text_length,
            s.link_density,
            s.width.round(),
            s.height.round(),
            b.rect.left.round(),
            s.top.round(),
            s.avg_font_size,
            s.bottom.round(),
            s.repeated_patterns,
            if s.comment_like { " (comment-like)" } else { "" },
        );
        boxes.push_str(&format!(
            "<div class=\"b{}\" style=\"left:{:.1}px;top:{:.1}px;width:{:.1}px;height:{:.1}px;\
             background:{fill}\" title=\"{}\"><span>{}</span></div>\n",
            if main { " main" } else { "" },
            b.rect.left.max(0.0),
            b.rect.top.max(0.0),
            b.rect.width.max(0.0),
            b.rect.height.max(0.0),
            escape(&tip),
            escape(&label(doc, b)),
        ));
    }
    let main = tree.main_block().map_or_else(
        || "no main block".to_string(),
        |b| format!("main block {} (FactorValue {:.3e})", label(doc, b), b.factor_value),
    );
    format!(
        "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>VCE blocks: {title}</title>\n\
         <style>body{{margin:0;font:13px sans-serif}} header{{padding:8px 12px;background:#f4f4f4;\
         border-bottom:1px solid #ccc}} #page{{position:relative;width:{w:.0}px;height:{h:.0}px;\
         margin:8px}} .b{{position:absolute;box-sizing:border-box;border:1px solid rgba(0,0,0,.25);\
         overflow:hidden}} .b span{{font-size:10px;color:#333;padding:1px 2px}} .b:hover{{border:2px \
         solid #000}} .b.main{{outline:4px solid #d00;z-index:1}}</style></head><body>\n\
         <header><b>{title}</b> — {n} blocks, {layout} layout, {main}. Colour: FactorValue on a log \
         scale (blue low, red high; grey: not valid); hover a box for its vector.</header>\n\
         <div id=\"page\">\n{boxes}</div></body></html>\n",
        title = escape(title),
        w = tree.page.width.max(1.0),
        h = tree.page.height.max(1.0),
        n = tree.blocks.len(),
        layout = tree.origin.name(),
        main = escape(&main),
    )
}
