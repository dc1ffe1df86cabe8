use std::sync::OnceLock;

use proptest::prelude::*;

use super::rng::SplitMix64;
use super::*;
use crate::Error;

/// `n` rows of `nf` uniform features in `[0, 1)`.
fn uniform(n: usize, nf: usize, seed: u64) -> Vec<f32> {
    let mut rng = SplitMix64::new(seed);
    (0..n * nf).map(|_| rng.next_f64() as f32).collect()
}

fn names(nf: usize) -> Vec<String> {
    (0..nf).map(|f| format!("f{f}")).collect()
}

fn quick() -> TrainConfig {
    TrainConfig { rounds: 60, learning_rate: 0.3, min_data_in_leaf: 5, ..TrainConfig::default() }
}

fn binary_accuracy(forest: &Forest, x: &[f32], y: &[f32]) -> f64 {
    let nf = forest.n_features();
    let right = x
        .chunks_exact(nf)
        .zip(y)
        .filter(|(row, &y)| (forest.predict_proba(row) > 0.5) == (y > 0.5))
        .count();
    right as f64 / y.len() as f64
}

fn xor_labels(x: &[f32], nf: usize) -> Vec<f32> {
    x.chunks_exact(nf).map(|r| f32::from(u8::from((r[0] > 0.5) != (r[1] > 0.5)))).collect()
}

/// A binary forest of a few hundred trees on XOR plus noise features,
/// trained once for the tests that need a real model.
fn xor_forest() -> &'static Forest {
    static FOREST: OnceLock<Forest> = OnceLock::new();
    FOREST.get_or_init(|| {
        let nf = 4;
        let x = uniform(2000, nf, 1);
        let y = xor_labels(&x, nf);
        let data = Dataset::new(&x, nf, Target::Binary(&y)).unwrap();
        let config = TrainConfig { rounds: 40, max_leaves: 8, ..quick() };
        train(&config, &names(nf), &data, None).unwrap().forest.with_metadata(r#"{"test":"xor"}"#)
    })
}

#[test]
fn learns_xor() {
    let forest = xor_forest();
    let x = uniform(2000, 4, 99);
    let y = xor_labels(&x, 4);
    let accuracy = binary_accuracy(forest, &x, &y);
    assert!(accuracy > 0.97, "XOR accuracy {accuracy}");
    let imp = forest.importances();
    assert!(imp[0].gain > 10.0 * imp[2].gain && imp[1].gain > 10.0 * imp[3].gain, "{imp:?}");
}

#[test]
fn learns_a_step_function_and_soft_labels_calibrate() {
    let nf = 3;
    let x = uniform(3000, nf, 2);
    // Soft labels: 0.2 below the step at 0.3, 0.9 above.
    let y: Vec<f32> = x.chunks_exact(nf).map(|r| if r[1] > 0.3 { 0.9 } else { 0.2 }).collect();
    let data = Dataset::new(&x, nf, Target::Binary(&y)).unwrap();
    let forest = train(&quick(), &names(nf), &data, None).unwrap().forest;
    for probe in [0.05f32, 0.25, 0.35, 0.95] {
        let p = forest.predict_proba(&[0.5, probe, 0.5]);
        let want = if probe > 0.3 { 0.9 } else { 0.2 };
        assert!((p - want).abs() < 0.03, "p({probe}) = {p}, want {want}");
    }
    let first = forest.trees[0].nodes[0];
    assert_eq!(first.feature_index(), 1);
    assert!((first.threshold - 0.3).abs() < 0.01, "{first:?}");
}

#[test]
fn learns_a_multiclass_problem() {
    let nf = 3;
    let quadrant = |r: &[f32]| u32::from(r[0] > 0.5) * 2 + u32::from(r[1] > 0.5);
    let x = uniform(4000, nf, 3);
    let classes: Vec<u32> = x.chunks_exact(nf).map(quadrant).collect();
    let target = Target::Softmax { classes: &classes, n_classes: 4 };
    let data = Dataset::new(&x, nf, target).unwrap();
    let forest =
        train(&TrainConfig { rounds: 30, ..quick() }, &names(nf), &data, None).unwrap().forest;
    assert_eq!(forest.n_trees(), 120);
    assert_eq!(forest.n_rounds(), 30);
    let test = uniform(2000, nf, 33);
    let mut proba = [0f32; 4];
    let mut right = 0;
    for row in test.chunks_exact(nf) {
        forest.predict_proba_multi(row, &mut proba);
        assert!((proba.iter().sum::<f32>() - 1.0).abs() < 1e-5);
        let best = (0..4).max_by(|&a, &b| proba[a].total_cmp(&proba[b])).unwrap();
        right += usize::from(best as u32 == quadrant(row));
    }
    assert!(right as f64 / 2000.0 > 0.97, "multiclass accuracy {}", right as f64 / 2000.0);
    let round_trip = Forest::from_bytes(&forest.to_bytes()).unwrap();
    assert_eq!(round_trip, forest);
}

#[test]
fn missing_values_take_the_learned_direction() {
    // Rows with a missing x0 are positive; the rest positive above 0.5.
    let mut rng = SplitMix64::new(4);
    let (mut x, mut y) = (Vec::new(), Vec::new());
    for _ in 0..3000 {
        let missing = rng.next_f64() < 0.3;
        let v = rng.next_f64() as f32;
        x.extend_from_slice(&[if missing { f32::NAN } else { v }, rng.next_f64() as f32]);
        y.push(if missing || v > 0.5 { 1.0 } else { 0.0 });
    }
    let data = Dataset::new(&x, 2, Target::Binary(&y)).unwrap();
    let forest = train(&quick(), &names(2), &data, None).unwrap().forest;
    assert!(forest.predict_proba(&[f32::NAN, 0.5]) > 0.95);
    assert!(forest.predict_proba(&[0.2, 0.5]) < 0.05);
    assert!(forest.predict_proba(&[0.8, 0.5]) > 0.95);
    // Missing on the low side instead: they must go with the low values.
    let y2: Vec<f32> = x.chunks_exact(2).map(|r| f32::from(u8::from(r[0] > 0.5))).collect();
    let data = Dataset::new(&x, 2, Target::Binary(&y2)).unwrap();
    let forest = train(&quick(), &names(2), &data, None).unwrap().forest;
    assert!(forest.predict_proba(&[f32::NAN, 0.5]) < 0.05);
    assert!(forest.predict_proba(&[0.8, 0.5]) > 0.95);
}

#[test]
fn training_twice_gives_identical_bytes() {
    let nf = 6;
    let x = uniform(3000, nf, 5);
    let y = xor_labels(&x, nf);
    let w: Vec<f32> = (0..3000).map(|i| 0.5 + (i % 3) as f32).collect();
    let data = Dataset::new(&x, nf, Target::Binary(&y)).unwrap().with_weights(&w).unwrap();
    let config = TrainConfig {
        feature_fraction: 0.7,
        bagging_fraction: 0.8,
        bin_sample: 1000,
        max_bins: 32,
        seed: 42,
        ..quick()
    };
    let a = train(&config, &names(nf), &data, None).unwrap().forest.to_bytes();
    let b = train(&config, &names(nf), &data, None).unwrap().forest.to_bytes();
    assert_eq!(a, b);
    let other_seed = TrainConfig { seed: 43, ..config };
    let c = train(&other_seed, &names(nf), &data, None).unwrap().forest.to_bytes();
    assert_ne!(a, c, "the seed drives bagging and features");
}

#[test]
fn early_stopping_keeps_the_best_round() {
    // Pure noise: the validation loss is lowest after a few rounds and
    // rises as the trees fit the training noise.
    let nf = 5;
    let mut rng = SplitMix64::new(6);
    let x = uniform(400, nf, 7);
    let y: Vec<f32> = (0..400).map(|_| f32::from(u8::from(rng.next_f64() < 0.5))).collect();
    let vx = uniform(400, nf, 8);
    let vy: Vec<f32> = (0..400).map(|_| f32::from(u8::from(rng.next_f64() < 0.5))).collect();
    let data = Dataset::new(&x, nf, Target::Binary(&y)).unwrap();
    let valid = Dataset::new(&vx, nf, Target::Binary(&vy)).unwrap();
    let config = TrainConfig {
        rounds: 200,
        learning_rate: 0.3,
        min_data_in_leaf: 2,
        early_stopping_rounds: Some(10),
        ..TrainConfig::default()
    };
    let trained = train(&config, &names(nf), &data, Some(&valid)).unwrap();
    let losses: Vec<f64> = trained.history.iter().map(|h| h.valid.unwrap()).collect();
    let best = (0..losses.len()).min_by(|&a, &b| losses[a].total_cmp(&losses[b])).unwrap();
    assert_eq!(trained.best_iteration, best + 1);
    assert_eq!(losses.len(), best + 1 + 10, "stopped 10 rounds after the best");
    assert!(losses.len() < 200);
    assert_eq!(trained.forest.n_rounds(), best + 1);
    // The kept forest scores the validation set at the best loss.
    let mut loss = 0.0;
    for (row, &y) in vx.chunks_exact(nf).zip(&vy) {
        let p = f64::from(trained.forest.predict_proba(row));
        loss -= f64::from(y) * p.ln() + (1.0 - f64::from(y)) * (1.0 - p).ln();
    }
    assert!((loss / 400.0 - losses[best]).abs() < 1e-4, "{} vs {}", loss / 400.0, losses[best]);
    // The training loss keeps falling.
    assert!(trained.history.last().unwrap().train < trained.history[0].train);
}

#[test]
fn weights_flip_a_decision() {
    // At x = 0 as many positives as negatives: the weights decide.
    let x: Vec<f32> = (0..80).map(|i| if i < 40 { 0.0 } else { 1.0 }).collect();
    let y: Vec<f32> = (0..80).map(|i| if i < 40 { (i % 2) as f32 } else { 1.0 }).collect();
    let favour = |positive: f32| -> Vec<f32> {
        (0..80).map(|i| if i < 40 && i % 2 == 1 { positive } else { 1.0 }).collect()
    };
    let config = TrainConfig { rounds: 20, min_data_in_leaf: 5, ..TrainConfig::default() };
    let p_at_zero = |w: &[f32]| {
        let data = Dataset::new(&x, 1, Target::Binary(&y)).unwrap().with_weights(w).unwrap();
        train(&config, &["x"], &data, None).unwrap().forest.predict_proba(&[0.0])
    };
    let heavy = favour(3.0);
    let light = favour(1.0 / 3.0);
    assert!(p_at_zero(&heavy) > 0.6, "{}", p_at_zero(&heavy));
    assert!(p_at_zero(&light) < 0.4, "{}", p_at_zero(&light));
}

#[test]
fn contributions_add_up_to_the_raw_score() {
    let forest = xor_forest();
    let rows = uniform(50, 4, 10);
    for row in rows.chunks_exact(4) {
        let c = forest.contributions(row, 0);
        let sum = c.bias + c.features.iter().map(|f| f.1).sum::<f32>();
        assert!(
            (sum - forest.predict_raw(row)).abs() < 1e-3,
            "{sum} vs {}",
            forest.predict_raw(row)
        );
        assert!(c.features.windows(2).all(|w| w[0].1.abs() >= w[1].1.abs()));
        // XOR is decided by x0 and x1.
        assert!(c.features[0].0 < 2 && c.features[1].0 < 2, "{c:?}");
    }
}

#[test]
fn check_features_names_the_difference() {
    let forest = xor_forest();
    assert!(forest.check_features(&["f0", "f1", "f2", "f3"]).is_ok());
    let message = |e: Result<()>| match e {
        Err(Error::InvalidLearnedModel(m)) => m,
        other => panic!("{other:?}"),
    };
    let m = message(forest.check_features(&["f0", "f1", "words", "f3"]));
    assert!(m.contains("feature 2") && m.contains("words"), "{m}");
    let m = message(forest.check_features(&["f0", "f1", "f2"]));
    assert!(m.contains("4 features in the model, 3 here"), "{m}");
    let m = message(forest.check_features(&["f0", "f1", "f2", "f3", "f4"]));
    assert!(m.contains("\"f4\""), "{m}");
}

#[test]
fn bad_data_and_configuration_are_errors() {
    let x = [0.0f32, 1.0, 2.0, 3.0];
    let e = |r: Result<Dataset>| r.unwrap_err().to_string();
    assert!(e(Dataset::new(&x, 3, Target::Binary(&[0.0]))).contains("not rows of 3"));
    assert!(e(Dataset::new(&x, 2, Target::Binary(&[0.0]))).contains("1 targets for 2 rows"));
    assert!(e(Dataset::new(&x, 2, Target::Binary(&[0.0, 1.5]))).contains("label 1.5 of row 1"));
    assert!(e(Dataset::new(&x, 2, Target::Binary(&[0.0, f32::NAN]))).contains("row 1"));
    let softmax = Target::Softmax { classes: &[0, 3], n_classes: 3 };
    assert!(e(Dataset::new(&x, 2, softmax)).contains("class 3 of row 1"));
    let data = Dataset::new(&x, 2, Target::Binary(&[0.0, 1.0])).unwrap();
    assert!(e(data.with_weights(&[1.0])).contains("1 weights"));
    assert!(e(data.with_weights(&[1.0, -1.0])).contains("row 1"));
    assert!(e(data.with_weights(&[0.0, 0.0])).contains("sum to 0"));
    let config = TrainConfig { max_bins: 256, ..TrainConfig::default() };
    assert!(matches!(train(&config, &["a", "b"], &data, None), Err(Error::InvalidConfig(_))));
    let config = TrainConfig { bagging_fraction: 0.0, ..TrainConfig::default() };
    assert!(matches!(train(&config, &["a", "b"], &data, None), Err(Error::InvalidConfig(_))));
    let e = train(&TrainConfig::default(), &["a"], &data, None).unwrap_err().to_string();
    assert!(e.contains("1 feature names for 2 features"), "{e}");
}

#[test]
fn constant_and_degenerate_data_train_without_splits() {
    // One row, constant features, all-missing features: a forest of
    // single leaves that predicts the base rate.
    let x = [1.0f32, f32::NAN, 1.0, f32::NAN, 1.0, f32::NAN];
    let y = [1.0f32, 0.0, 1.0];
    let data = Dataset::new(&x, 2, Target::Binary(&y)).unwrap();
    let trained =
        train(&TrainConfig { rounds: 3, ..TrainConfig::default() }, &names(2), &data, None)
            .unwrap();
    let forest = trained.forest;
    assert_eq!(forest.n_trees(), 3);
    assert!(forest.trees.iter().all(|t| t.nodes.is_empty()));
    let p = forest.predict_proba(&[1.0, f32::NAN]);
    assert!((p - 2.0 / 3.0).abs() < 0.01, "{p}");
    assert_eq!(Forest::from_bytes(&forest.to_bytes()).unwrap(), forest);
    let c = forest.contributions(&[0.0, 0.0], 0);
    assert!(c.features.is_empty());
    assert!((c.bias - forest.predict_raw(&[0.0, 0.0])).abs() < 1e-6);
}

fn model_error(bytes: &[u8]) -> String {
    match Forest::from_bytes(bytes) {
        Err(Error::InvalidLearnedModel(m)) => m,
        Err(other) => panic!("another error: {other}"),
        Ok(_) => panic!("accepted a damaged model"),
    }
}

#[test]
fn every_truncation_is_an_error() {
    let bytes = xor_forest().to_bytes();
    for len in 0..bytes.len() {
        let m = model_error(&bytes[..len]);
        assert!(!m.is_empty());
    }
    assert!(model_error(&bytes[..4]).contains("not a gleaner learned model"));
    assert!(model_error(&bytes[..bytes.len() - 1]).contains("checksum"));
}

#[test]
fn every_bit_flip_is_an_error() {
    let bytes = xor_forest().to_bytes();
    let mut damaged = bytes.clone();
    for i in 0..bytes.len() {
        for bit in 0..8 {
            damaged[i] ^= 1 << bit;
            let _ = model_error(&damaged);
            damaged[i] ^= 1 << bit;
        }
    }
    assert_eq!(damaged, bytes);
}

/// `bytes` with its checksum recomputed, as a forged file would have.
fn resealed(mut bytes: Vec<u8>) -> Vec<u8> {
    let body = bytes.len() - 4;
    let crc = crc32fast::hash(&bytes[..body]);
    bytes[body..].copy_from_slice(&crc.to_le_bytes());
    bytes
}

#[test]
fn foreign_other_version_and_absurd_files_are_errors() {
    let bytes = xor_forest().to_bytes();
    assert!(model_error(b"{\"version\": 1}").contains("not a gleaner learned model"));
    assert!(model_error(b"").contains("not a gleaner learned model"));
    let mut v2 = bytes.clone();
    v2[8] = 2;
    assert!(model_error(&resealed(v2)).contains("format version 2"));
    let set = |at: usize, x: u32| {
        let mut b = bytes.clone();
        b[at..at + 4].copy_from_slice(&x.to_le_bytes());
        model_error(&resealed(b))
    };
    // Header: objective, outputs, features, trees at bytes 12, 16, 20, 24.
    assert!(set(12, 7).contains("unknown objective 7"));
    assert!(set(16, 3).contains("3 outputs"));
    assert!(set(20, u32::MAX).contains("features"));
    assert!(set(20, 1 << 30).contains("cannot fit"));
    assert!(set(24, u32::MAX).contains("cannot fit"));
    assert!(set(24, 39).contains("unexplained bytes"));
    // The first name's length, then the first tree's split count.
    assert!(set(28, u32::MAX).contains("truncated"));
    let forest = xor_forest();
    let first_tree = 28
        + forest.feature_names.iter().map(|n| 4 + n.len()).sum::<usize>()
        + 4
        + forest.metadata.len()
        + 4;
    assert!(set(first_tree, u32::MAX).contains("claims 4294967295 splits"));
    // The root's left child pointing back at itself, or a feature out of range.
    assert!(set(first_tree + 4 + 8, 0).contains("not a tree"));
    assert!(set(first_tree + 4, 9).contains("feature 9 of 4"));
    // A NaN value.
    assert!(set(first_tree + 4 + 20, f32::NAN.to_bits()).contains("is NaN"));
}

#[test]
fn round_trip_is_exact() {
    let forest = xor_forest();
    let bytes = forest.to_bytes();
    let loaded = Forest::from_bytes(&bytes).unwrap();
    assert_eq!(&loaded, forest);
    assert_eq!(loaded.metadata(), r#"{"test":"xor"}"#);
    assert_eq!(loaded.to_bytes(), bytes);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn loaded_forest_predicts_bit_identically(
        row in prop::collection::vec(prop_oneof![
            4 => -0.5f32..1.5,
            1 => Just(f32::NAN),
            1 => Just(f32::INFINITY),
            1 => Just(f32::NEG_INFINITY),
        ], 4)
    ) {
        static LOADED: OnceLock<Forest> = OnceLock::new();
        let forest = xor_forest();
        let loaded = LOADED.get_or_init(|| Forest::from_bytes(&forest.to_bytes()).unwrap());
        prop_assert_eq!(forest.predict_raw(&row).to_bits(), loaded.predict_raw(&row).to_bits());
        let mut out = [0f32];
        loaded.predict_raw_multi(&row, &mut out);
        prop_assert_eq!(out[0].to_bits(), loaded.predict_raw(&row).to_bits());
    }

    #[test]
    fn random_bytes_after_the_magic_never_panic(tail in prop::collection::vec(any::<u8>(), 0..400)) {
        let mut bytes = MAGIC.to_vec();
        bytes.extend_from_slice(&1u32.to_le_bytes());
        bytes.extend_from_slice(&tail);
        let _ = Forest::from_bytes(&bytes);
        if bytes.len() >= 4 {
            let _ = Forest::from_bytes(&resealed(bytes));
        }
    }
}

#[test]
fn depth_and_leaf_limits_hold() {
    let nf = 4;
    let x = uniform(2000, nf, 11);
    let y = xor_labels(&x, nf);
    let data = Dataset::new(&x, nf, Target::Binary(&y)).unwrap();
    let stumps = TrainConfig { rounds: 10, max_depth: Some(1), ..quick() };
    let forest = train(&stumps, &names(nf), &data, None).unwrap().forest;
    assert!(forest.trees.iter().all(|t| t.nodes.len() <= 1));
    let small = TrainConfig { rounds: 10, max_leaves: 5, ..quick() };
    let forest = train(&small, &names(nf), &data, None).unwrap().forest;
    assert!(forest.trees.iter().all(|t| t.leaf_value.len() <= 5));
    assert!(forest.trees.iter().any(|t| t.leaf_value.len() == 5));
    // A validation set of another width is refused.
    let narrow = Dataset::new(&x[..1000], 2, Target::Binary(&y[..500])).unwrap();
    let e = train(&small, &names(nf), &data, Some(&narrow)).unwrap_err().to_string();
    assert!(e.contains("validation set has 2 features"), "{e}");
}

#[test]
fn packed_nodes_reach_the_leaves_the_trees_do() {
    // Every tree of a trained forest, walked through its 8-byte packed
    // nodes and through its `Tree` nodes, NaN included (both default
    // directions are learned on XOR with missing values).
    let nf = 4;
    let mut x = uniform(2000, nf, 5);
    for (i, v) in x.iter_mut().enumerate() {
        if i % 7 == 0 {
            *v = f32::NAN;
        }
    }
    let y = xor_labels(&x, nf);
    let data = Dataset::new(&x, nf, Target::Binary(&y)).unwrap();
    let forest = train(&quick(), &names(nf), &data, None).unwrap().forest;
    let packed = forest.packed.as_ref().expect("a small forest is packed");
    for row in uniform(300, nf, 6).chunks_exact(nf).chain(x.chunks_exact(nf).take(300)) {
        let mut leaves = Vec::new();
        packed.for_each_leaf(row, |t, value| leaves.push((t, value)));
        let walked: Vec<(usize, f32)> =
            forest.trees.iter().map(|t| t.leaf(row)).enumerate().collect();
        assert_eq!(leaves, walked);
    }
}

#[test]
fn a_forest_too_large_for_packed_nodes_is_walked_by_its_trees() {
    // A chain of 40 000 splits on one feature: split i sends x above
    // 40 000 − i right, to leaf i of value i, the rest on down. The root's
    // right child is 40 000 nodes after it, past what a packed node holds.
    let n = 40_000usize;
    let nodes: Vec<Node> = (0..n)
        .map(|i| Node {
            feature: 0,
            threshold: (n - i) as f32,
            left: if i + 1 < n { (i + 1) as i32 } else { !(n as i32) },
            right: !(i as i32),
        })
        .collect();
    let tree = Tree {
        gain: vec![1.0; n],
        value: vec![0.0; n],
        cover: vec![1.0; n],
        leaf_value: (0..=n).map(|i| i as f32).collect(),
        leaf_cover: vec![1.0; n + 1],
        nodes,
    };
    let forest =
        Forest::new(Objective::BinaryLogistic, names(1), String::new(), vec![0.0], vec![tree]);
    assert!(forest.packed.is_none() && forest.complete.is_none());
    assert_eq!(forest.predict_raw(&[100.5]), 39_900.0);
    assert_eq!(forest.predict_raw(&[0.5]), 40_000.0);
    assert_eq!(forest.predict_raw(&[f32::NAN]), 0.0);
    let rows = [100.5, 0.5, 50_000.0, 39_999.5, 7.0];
    let mut batch = [0f32; 5];
    forest.predict_proba_batch(&rows, &mut batch);
    for (row, p) in rows.iter().zip(batch) {
        assert_eq!(p, forest.predict_proba(&[*row]), "row {row}");
    }
}

#[test]
fn batch_scores_equal_row_by_row_scores() {
    // Complete layout (depth-limited trees) at each width of columns, and
    // the packed batch walk (unlimited depth); batches of every size
    // around the lanes and the blocks of rows; NaN in a tenth of values.
    for (nf, max_depth) in [(3, Some(6)), (200, Some(5)), (300, Some(8)), (40, None)] {
        let mut x = uniform(1500, nf, 11);
        for (i, v) in x.iter_mut().enumerate() {
            if i % 10 == 3 {
                *v = f32::NAN;
            }
        }
        let y = xor_labels(&x, nf);
        let data = Dataset::new(&x, nf, Target::Binary(&y)).unwrap();
        let config = TrainConfig { rounds: 12, max_leaves: 40, max_depth, ..quick() };
        let forest = train(&config, &names(nf), &data, None).unwrap().forest;
        assert_eq!(forest.complete.is_some(), max_depth.is_some(), "{nf} features");
        for n in (0..=40).chain([63, 64, 65, 200]) {
            let rows = &x[..n * nf];
            let mut batch = vec![0f32; n];
            forest.predict_proba_batch(rows, &mut batch);
            for (r, (row, p)) in rows.chunks_exact(nf).zip(&batch).enumerate() {
                assert_eq!(*p, forest.predict_proba(row), "{nf} features, {n} rows, row {r}");
            }
        }
    }
}
