//! Evaluation: the papers' metrics and dataset readers.
