//! `--layout`: which layout provider the visual algorithms read.

use std::sync::Arc;

use gleaner::layout::LayoutProvider;

use crate::flags::{LayoutArgs, LayoutChoice};
use crate::UsageError;

/// Most browsers `--layout browser` runs at once, whatever `--parallel`
/// says: each is a few hundred megabytes.
#[cfg(feature = "browser")]
pub const MAX_BROWSERS: usize = 4;

/// The provider `--layout` names. `heuristic` is `None`: the visual
/// algorithms estimate a layout themselves when a page carries none.
/// `browser` runs min(`parallel`, 4) browsers, `parallel`
/// being the worker threads (`None` or 0: all cores).
///
/// # Errors
/// `--layout browser` when Chromium cannot be found, the build has no
/// browser layout, or the options are out of range.
pub fn provider(
    args: &LayoutArgs,
    parallel: Option<usize>,
) -> anyhow::Result<Option<Arc<dyn LayoutProvider>>> {
    match args.layout {
        LayoutChoice::Heuristic => Ok(None),
        LayoutChoice::Browser => browser(args, parallel),
    }
}

#[cfg(feature = "browser")]
fn browser(
    args: &LayoutArgs,
    parallel: Option<usize>,
) -> anyhow::Result<Option<Arc<dyn LayoutProvider>>> {
    use gleaner_browser::{BrowserConfig, BrowserLayout};
    let threads = parallel
        .filter(|&n| n > 0)
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let config = BrowserConfig::default()
        .scripts(args.layout_scripts)
        .timeout(std::time::Duration::from_secs(args.layout_timeout_secs))
        .pool_size(threads.clamp(1, MAX_BROWSERS));
    let provider =
        BrowserLayout::new(config).map_err(|e| UsageError(format!("--layout browser: {e}")))?;
    Ok(Some(Arc::new(provider)))
}

#[cfg(not(feature = "browser"))]
fn browser(
    _args: &LayoutArgs,
    _parallel: Option<usize>,
) -> anyhow::Result<Option<Arc<dyn LayoutProvider>>> {
    Err(UsageError(
        "--layout browser: this build has no browser layout (build with the `browser` feature)"
            .into(),
    )
    .into())
}
