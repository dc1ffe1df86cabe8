//! `--layout`: which layout provider the visual algorithms read.

use std::sync::Arc;

use gleaner::layout::LayoutProvider;

use crate::flags::{LayoutArgs, LayoutChoice};
use crate::UsageError;

/// The provider `--layout` names. `heuristic` is `None`: the visual
/// algorithms estimate a layout themselves when a page carries none.
///
/// # Errors
/// `--layout browser` when the browser cannot be started.
pub fn provider(args: &LayoutArgs) -> anyhow::Result<Option<Arc<dyn LayoutProvider>>> {
    match args.layout {
        LayoutChoice::Heuristic => Ok(None),
        LayoutChoice::Browser => {
            Err(UsageError("--layout browser: this build has no browser layout".into()).into())
        }
    }
}
