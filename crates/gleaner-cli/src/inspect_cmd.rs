//! `gleaner inspect`: one page through one algorithm, as a self-contained
//! HTML report (the curve and the highlighted page text).

use std::process::ExitCode;

use std::path::Path;

use gleaner::extract::{Params, Vce, VceConfig};
use gleaner::render::escape;
use gleaner::Document;

use crate::flags::InspectArgs;
use crate::UsageError;

/// Runs `inspect`.
pub fn run(args: InspectArgs) -> anyhow::Result<ExitCode> {
    // Check the algorithm and its parameters before reading the page.
    let (algorithm, params) = args.extractor.params()?;
    algorithm.build(&params).map_err(UsageError::from)?;
    let (source, doc) = crate::blocks_cmd::read_page(
        &args.input,
        args.limits.parse_options()?.keep_all_attributes(algorithm.name == "vce"),
    )?;
    let model = match &args.extractor.model {
        Some(path) => Some(std::sync::Arc::new(crate::read_model(path)?)),
        None => None,
    };
    let mut report =
        gleaner_eval::inspect::report_with_model(&doc, algorithm.name, &params, model)?;
    if algorithm.name == "vce" {
        report = with_blocks_picture(report, &doc, &params, &source, args.output.as_deref())?;
    }
    crate::blocks_cmd::write_output(args.output.as_deref(), &report)?;
    Ok(ExitCode::SUCCESS)
}

/// VCE reads blocks, not a curve: next to a report written to `FILE.html`
/// goes the block picture of `gleaner blocks --format html`, as
/// `FILE.blocks.html`, linked from the report; a report on standard output
/// names the command instead.
fn with_blocks_picture(
    report: String,
    doc: &Document,
    params: &Params,
    source: &str,
    output: Option<&Path>,
) -> anyhow::Result<String> {
    let (note, picture) = match output {
        Some(path) => {
            let picture = path.with_extension("blocks.html");
            let name = picture.file_name().map_or_else(String::new, |n| n.to_string_lossy().into());
            let note = format!(
                "<p>VCE's visual blocks: <a href=\"{}\">{}</a> (<code>gleaner blocks --format \
                 html</code>).</p>",
                escape(&name),
                escape(&name)
            );
            (note, Some(picture))
        }
        None => (
            "<p>VCE's visual blocks: run <code>gleaner blocks PAGE --format html</code>.</p>"
                .to_string(),
            None,
        ),
    };
    if let Some(path) = picture {
        let config: VceConfig = params.build().map_err(UsageError::from)?;
        let tree = Vce::new(config).block_tree(doc);
        crate::blocks_cmd::write_output(
            Some(&path),
            &crate::blocks_cmd::picture(doc, &tree, source),
        )?;
    }
    Ok(match report.rfind("</body>") {
        Some(at) => format!("{}{note}{}", &report[..at], &report[at..]),
        None => report + &note,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::flags::ExtractorArgs;

    #[test]
    fn writes_a_report_with_the_curve() {
        let dir = tempfile::tempdir().expect("temp dir");
        let page = dir.path().join("page.html");
        std::fs::write(
            &page,
            "<ul>\n<li><a href=/>Home</a></li>\n</ul>\n<p>\nSome article text.\n</p>",
        )
        .expect("write page");
        let report = dir.path().join("report.html");
        let args = InspectArgs {
            input: page,
            extractor: ExtractorArgs {
                algorithm: "cetr".into(),
                params: vec!["alpha=2".into()],
                lines: None,
                model: None,
                page_type: None,
            },
            output: Some(report.clone()),
            limits: crate::flags::LimitArgs::default(),
        };
        assert_eq!(run(args).expect("run"), ExitCode::SUCCESS);
        let html = std::fs::read_to_string(report).expect("report");
        assert!(html.contains("<svg") && html.contains("alpha=2"));
    }

    #[test]
    fn bad_parameters_are_usage_errors() {
        let args = InspectArgs {
            input: "missing.html".into(),
            extractor: ExtractorArgs {
                algorithm: "ttr".into(),
                params: vec!["sigma=1".into()],
                lines: None,
                model: None,
                page_type: None,
            },
            output: None,
            limits: crate::flags::LimitArgs::default(),
        };
        let err = run(args).expect_err("unknown parameter");
        assert!(err.downcast_ref::<UsageError>().is_some());
    }
}
