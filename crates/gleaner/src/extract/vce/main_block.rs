//! FindMainBlock \[S-4 §2.2, Fig. 7\]: a pre-order walk over the block
//! tree that keeps the valid block with the largest FactorValue.

use super::block_tree::{Averages, BlockSpec, BlockTree};
use super::VceConfig;

/// FactorValue \[S-4 Eq. 1\]:
///
/// ```text
/// TextLength · Width · AvgFontSize · Bottom
/// ─────────────────────────────────────────────────────
/// LinkDensity + RepeatedPatterns · Top + ε
/// ```
///
/// ε ([`VceConfig::epsilon`], \[I\]) keeps a block without links and
/// repetitions from scoring infinity; `Bottom` is at least 1 px so a block
/// at the very bottom still ranks by its other features \[I\].
pub fn factor_value(spec: &BlockSpec, config: &VceConfig) -> f64 {
    let numerator = spec.text_length * spec.width * spec.avg_font_size * spec.bottom.max(1.0);
    let denominator =
        spec.link_density + f64::from(spec.repeated_patterns) * spec.top + config.epsilon;
    let v = numerator / denominator.max(f64::MIN_POSITIVE);
    if v.is_finite() {
        v.max(0.0)
    } else {
        0.0
    }
}

/// The least conditions of a candidate \[S-4 §2.2.1, I\]: some text, at
/// least the average text length, at least
/// [`VceConfig::min_width_share`] of the average width, and a link
/// density at most [`VceConfig::max_link_density`].
pub fn is_valid(spec: &BlockSpec, averages: &Averages, config: &VceConfig) -> bool {
    spec.text_length > 0.0
        && spec.text_length >= averages.text_length
        && spec.width >= config.min_width_share * averages.width
        && spec.link_density <= config.max_link_density
}

/// Scores every block and sets [`BlockTree::main`]: the valid block with
/// the largest FactorValue, the first in pre-order on ties. When no block
/// is valid, the best-scoring block with text stands in \[I\] (a page of
/// one short paragraph has nothing above the averages but its own block).
pub(super) fn find_main_block(tree: &mut BlockTree, config: &VceConfig) {
    let averages = tree.averages;
    let mut main: Option<(usize, f64)> = None;
    let mut fallback: Option<(usize, f64)> = None;
    for (i, block) in tree.blocks.iter_mut().enumerate() {
        let value = factor_value(&block.spec, config);
        block.is_valid = is_valid(&block.spec, &averages, config);
        block.factor_value = value;
        let better = |best: Option<(usize, f64)>| best.is_none_or(|(_, v)| value > v);
        if block.is_valid && better(main) {
            main = Some((i, value));
        }
        if block.spec.text_length > 0.0 && better(fallback) {
            fallback = Some((i, value));
        }
    }
    tree.main = main.or(fallback).map(|(i, _)| i);
}
