//! A block's shape measured against the page's other shapes.
//!
//! The share of a page's text that a block's shape holds (its owner's and
//! its parent's tag and class: a card, a post, a paragraph of the body)
//! is on the page's own scale: on a listing of 40 short cards the cards
//! hold a third of the text, on an article the body's paragraphs hold
//! nine tenths. What carries over from site to site is the shape's
//! *standing*: the largest group on the page, the second, or one of the
//! many small ones (the menu, the footer's columns, the facets). These
//! columns say that — the largest shape's share, the block's shape's
//! share against it, and its rank — the page-level normalisation that
//! content-code blurring and the text-to-tag ratio do with their page's
//! mean and deviation (Weninger & Hsu 2008, §3), applied to the
//! repetition of shapes that marks the records of a listing (Zhai & Liu
//! 2005: a page's data records are similar sibling subtrees).
//!
//! Measured out of fold (`gleaner train --cv`, docs/todays-web.md,
//! "December 1, later"): WCXB-dev word F1 0.865 → 0.867, collections
//! 0.646 → 0.676, listings 0.688 → 0.710, no WCEB set lower. Six more
//! columns of the same kind (percentiles of length and link density
//! among the page's words, distance from the longest block, words
//! before) gave 0.866 and cost Readability 0.004: they are not computed.

/// The columns, in row order.
pub const NAMES: [&str; COLUMNS] = ["shape_largest_share", "shape_share_of_largest", "shape_rank"];

/// How many columns a block gets.
pub const COLUMNS: usize = 3;

/// Shape ranks at or above this are one value: the twentieth group and
/// the hundredth say the same.
const MAX_RANK: u32 = 20;

/// Each block's columns ([`NAMES`]) from, per block, the share of the
/// page's characters its shape holds and its shape's rank by characters
/// (0: the shape holding the most).
pub fn columns(shape_shares: &[f32], shape_ranks: &[u32]) -> Vec<[f32; COLUMNS]> {
    let largest = shape_shares.iter().copied().fold(0.0f32, f32::max);
    shape_shares
        .iter()
        .zip(shape_ranks)
        .map(|(&share, &rank)| {
            [largest, if largest > 0.0 { share / largest } else { 0.0 }, rank.min(MAX_RANK) as f32]
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_shape_is_placed_against_the_largest() {
        // Two cards of one shape, the body's paragraph, a menu item.
        let rows = columns(&[0.3, 0.6, 0.3, 0.1], &[1, 0, 1, 2]);
        assert_eq!(rows.len(), 4);
        assert!(rows.iter().all(|r| r[0] == 0.6));
        assert_eq!(rows[1][1], 1.0);
        assert_eq!(rows[0][1], 0.5);
        assert_eq!(rows[0], rows[2]);
        assert_eq!([rows[0][2], rows[1][2], rows[3][2]], [1.0, 0.0, 2.0]);
    }

    #[test]
    fn an_empty_page_has_no_rows_and_ranks_are_capped() {
        assert!(columns(&[], &[]).is_empty());
        let rows = columns(&[0.0], &[57]);
        assert_eq!(rows[0], [0.0, 0.0, MAX_RANK as f32]);
    }
}
