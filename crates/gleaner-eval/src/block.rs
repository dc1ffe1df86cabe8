//! Block-level precision, recall and F-measure (Debnath, Mitra, Pal &
//! Giles, "Automatic identification of informative sections of web
//! pages", IEEE TKDE 2005; used by VCE, Asfia et al. 2010, S-4 §3, Table 1;
//! `docs/algorithms.md#block-and-template-precision-and-recall`).
//!
//! With R the retrieved blocks and G the gold content blocks, as sets:
//!
//! ```text
//! b-Precision = |R ∩ G| / |R|    b-Recall = |R ∩ G| / |G|    b-F = 2PR / (P + R)
//! ```
//!
//! The same formulas at DOM-node level give the template P/R/F1 of Alarte
//! et al. (`docs/algorithms.md#block-and-template-precision-and-recall`),
//! hence the generic id type.

use std::collections::HashSet;
use std::hash::Hash;

use super::Prf;

/// Block-level P/R/F of `retrieved` against `gold`, both read as sets
/// (duplicates count once).
///
/// Conventions, as for the word LCS \[I\]: no gold block → `None` (the page
/// is skipped); no retrieved block → P = R = F = 0.
///
/// ```
/// use gleaner_eval::block_prf;
/// // 2 of 3 retrieved blocks are content, 2 of 4 content blocks found.
/// let prf = block_prf(&[1, 2, 9], &[1, 2, 3, 4]).unwrap();
/// assert_eq!((prf.precision, prf.recall), (2.0 / 3.0, 0.5));
/// ```
pub fn block_prf<T: Eq + Hash>(retrieved: &[T], gold: &[T]) -> Option<Prf> {
    let gold: HashSet<&T> = gold.iter().collect();
    let retrieved: HashSet<&T> = retrieved.iter().collect();
    let overlap = retrieved.iter().filter(|id| gold.contains(*id)).count();
    Prf::from_counts(overlap, retrieved.len(), gold.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hand_computed() {
        // R = {1, 2, 9}, G = {1, 2, 3, 4}: overlap 2, P = 2/3, R = 1/2,
        // F = 2·(1/3)/(7/6) = 4/7.
        let prf = block_prf(&[1usize, 2, 9], &[1, 2, 3, 4]).unwrap();
        assert!((prf.f1 - 4.0 / 7.0).abs() < 1e-12);
        // Duplicates count once.
        assert_eq!(block_prf(&[1, 1, 2], &[2, 2, 1]), Some(Prf::new(1.0, 1.0)));
        // Disjoint.
        assert_eq!(block_prf(&[5], &[1]), Some(Prf::new(0.0, 0.0)));
        // Works for any hashable id, e.g. node ids.
        let nodes = [gleaner::NodeId(3), gleaner::NodeId(4)];
        assert_eq!(block_prf(&nodes[..1], &nodes).map(|p| p.recall), Some(0.5));
    }

    #[test]
    fn empty_conventions() {
        assert_eq!(block_prf::<usize>(&[], &[1, 2]), Some(Prf::new(0.0, 0.0)));
        assert_eq!(block_prf(&[1, 2], &[]), None);
        assert_eq!(block_prf::<usize>(&[], &[]), None);
    }
}
