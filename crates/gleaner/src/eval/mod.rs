//! Evaluation: the papers' metrics and dataset readers.
//!
//! * [`dataset`]: readers of the evaluation datasets (CleanEval, Dragnet,
//!   L3S-GN1, Readability, ScrapingHub layouts) into pages and gold text.

pub mod dataset;
