//! `gleaner inspect`: one page through one algorithm, as a self-contained
//! HTML report (the curve and the highlighted page text).

use std::process::ExitCode;

use anyhow::Context;
use gleaner::extract::Params;
use gleaner::{Document, ParseOptions};

use crate::flags::InspectArgs;
use crate::UsageError;

/// Runs `inspect`.
pub fn run(args: InspectArgs) -> anyhow::Result<ExitCode> {
    let mut params = Params::new();
    for p in &args.params {
        params.push_assignment(p).map_err(UsageError::from)?;
    }
    // Check the algorithm and its parameters before reading the page.
    let algorithm = gleaner::extract::algorithm(&args.algorithm).map_err(UsageError::from)?;
    if let Some(lines) = args.lines {
        params = crate::with_lines(algorithm, &params, lines).ok_or_else(|| {
            UsageError(format!("--lines: {} does not read source lines", algorithm.name))
        })?;
    }
    algorithm.build(&params).map_err(UsageError::from)?;
    let input = gleaner_batch::input::collect(std::slice::from_ref(&args.input), &[], &mut |_| {})?
        .into_iter()
        .next()
        .ok_or_else(|| UsageError("no input page".into()))?;
    let bytes = gleaner_batch::input::read(&input, args.max_bytes)
        .with_context(|| format!("cannot read {}", input.source))?;
    let doc = Document::parse(&bytes, &ParseOptions::default().max_bytes(args.max_bytes))
        .with_context(|| format!("cannot parse {}", input.source))?;
    let report = gleaner_eval::inspect::report(&doc, &args.algorithm, &params)?;
    match &args.output {
        Some(path) => std::fs::write(path, report)
            .with_context(|| format!("cannot write {}", path.display()))?,
        None => crate::print_stdout(&report)?,
    }
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

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
            algorithm: "cetr".into(),
            params: vec!["alpha=2".into()],
            output: Some(report.clone()),
            max_bytes: 1 << 20,
            lines: None,
        };
        assert_eq!(run(args).expect("run"), ExitCode::SUCCESS);
        let html = std::fs::read_to_string(report).expect("report");
        assert!(html.contains("<svg") && html.contains("alpha=2"));
    }

    #[test]
    fn bad_parameters_are_usage_errors() {
        let args = InspectArgs {
            input: "missing.html".into(),
            algorithm: "ttr".into(),
            params: vec!["sigma=1".into()],
            output: None,
            max_bytes: 1 << 20,
            lines: None,
        };
        let err = run(args).expect_err("unknown parameter");
        assert!(err.downcast_ref::<UsageError>().is_some());
    }
}
