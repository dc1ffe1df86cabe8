//! Cost of the gradient-boosted trees (issue 32): prediction of one row
//! by a forest of the shipped size, and training on a synthetic matrix.
//!
//! Groups (run with `cargo bench -p gleaner --bench boost -- --warm-up-time 1
//! --measurement-time 3`; add a group name to run one):
//!
//! - `predict`: a 300-round forest of 31-leaf trees over 100 features
//!   (trained at setup on 20 000 synthetic rows), one row at a time:
//!   [`Forest::predict_raw`], [`Forest::predict_proba`], and
//!   [`Forest::contributions`] (which allocates, for explanations only).
//! - `predict_batch`: [`Forest::predict_proba_batch`] of a page-sized
//!   matrix, 300 rows × 270 features, by 300 trees of depth at most 6
//!   (`max_depth: Some(6)`, up to 64 leaves; trained at setup on 5 000
//!   synthetic rows). Throughput is in rows: divide the time per row by
//!   the 300 trees for the time per tree walk.
//! - `train`: 10 rounds of 31-leaf trees on 200 000 × 100 synthetic rows,
//!   binning included; and the same with bagging and feature fraction 0.5.
//!
//! A one-shot report of a larger training (no criterion sampling):
//! `GLEANER_BENCH_BOOST=ROWS,FEATURES,ROUNDS cargo bench -p gleaner --bench
//! boost`, e.g. `1500000,150,300`, prints the wall and CPU time to train
//! and to predict up to 100 000 of its rows, and exits. (The CPU time is
//! the figure to read on a machine busy with other work.)
//!
//! Instructions per tree walk of the batch scorer, without criterion's
//! sampling: `GLEANER_BENCH_BOOST_BATCH=REPEATS,FILE cargo bench -p gleaner
//! --bench boost` scores the `predict_batch` matrix `REPEATS` times and
//! prints the time per row and per walk (the forest is trained once and
//! kept in `FILE`). Under callgrind, count only the scorer: `valgrind
//! --tool=callgrind --toggle-collect='*predict_proba_batch*'
//! target/release/deps/boost-…` with the same variable set, and divide the
//! instructions by `REPEATS × 300 × 300`.

use std::hint::black_box;
use std::time::Instant;

use criterion::{Criterion, Throughput};
use gleaner::boost::{train, Dataset, Forest, Target, TrainConfig};

/// A small xorshift generator: the bench needs numbers, not quality.
struct Noise(u64);

impl Noise {
    fn next(&mut self) -> f32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 40) as f32 / (1u64 << 24) as f32
    }
}

/// Synthetic block-like rows: continuous, count-like and flag features, 5 %
/// missing, and a label that depends non-linearly on a dozen of them.
fn synthetic(rows: usize, features: usize, seed: u64) -> (Vec<f32>, Vec<f32>) {
    let mut noise = Noise(seed | 1);
    let mut x = Vec::with_capacity(rows * features);
    let mut y = Vec::with_capacity(rows);
    for _ in 0..rows {
        let start = x.len();
        for f in 0..features {
            let u = noise.next();
            let v = match f % 3 {
                0 => u,
                1 => (u * 40.0).floor(),
                _ => f32::from(u8::from(u > 0.7)),
            };
            x.push(if noise.next() < 0.05 { f32::NAN } else { v });
        }
        let r = &x[start..];
        let val = |f: usize| if r[f % features].is_nan() { 0.5 } else { r[f % features] };
        let score = (val(0) - 0.5) * 4.0 + (val(1) / 40.0 - 0.3) * 3.0 + val(2) * 1.5
            - val(5) * 2.0 * val(3)
            + if val(4) > 20.0 { 1.0 } else { -1.0 }
            + (val(6) - 0.5) * (val(9) - 0.5) * 8.0;
        let p = 1.0 / (1.0 + (-score).exp());
        y.push(f32::from(u8::from(noise.next() < p)));
    }
    (x, y)
}

fn names(features: usize) -> Vec<String> {
    (0..features).map(|f| format!("f{f}")).collect()
}

fn train_once(rows: usize, features: usize, config: &TrainConfig) -> (Forest, f64) {
    let (x, y) = synthetic(rows, features, 7);
    let data = Dataset::new(&x, features, Target::Binary(&y)).expect("synthetic data");
    let start = Instant::now();
    let forest = train(config, &names(features), &data, None).expect("trains").forest;
    (forest, start.elapsed().as_secs_f64())
}

fn predict(c: &mut Criterion) {
    let config = TrainConfig { rounds: 300, ..TrainConfig::default() };
    let (forest, seconds) = train_once(20_000, 100, &config);
    println!(
        "predict setup: {} trees trained on 20 000 x 100 in {seconds:.1} s, {} bytes",
        forest.n_trees(),
        forest.to_bytes().len()
    );
    let (rows, _) = synthetic(1000, 100, 99);
    let mut group = c.benchmark_group("predict");
    group.throughput(Throughput::Elements(1));
    let mut i = 0;
    let mut next_row = || {
        i = (i + 1) % 1000;
        &rows[i * 100..(i + 1) * 100]
    };
    group.bench_function("predict_raw", |b| b.iter(|| black_box(forest.predict_raw(next_row()))));
    group.bench_function("predict_proba", |b| {
        b.iter(|| black_box(forest.predict_proba(next_row())))
    });
    group.bench_function("contributions", |b| {
        b.iter(|| black_box(forest.contributions(next_row(), 0)))
    });
    group.finish();
}

/// The `predict_batch` setup: a forest of 300 depth-6 trees over 270
/// features and a page-sized matrix of 300 rows to score.
fn batch_setup() -> (Forest, Vec<f32>) {
    let config = TrainConfig {
        rounds: 300,
        max_leaves: 64,
        max_depth: Some(6),
        min_data_in_leaf: 10,
        ..TrainConfig::default()
    };
    let (forest, seconds) = train_once(5_000, BATCH_FEATURES, &config);
    let bytes = forest.to_bytes().len();
    println!(
        "predict_batch setup: {} trees trained on 5 000 x {BATCH_FEATURES} in {seconds:.1} s, \
         {bytes} bytes",
        forest.n_trees()
    );
    let (rows, _) = synthetic(BATCH_ROWS, BATCH_FEATURES, 99);
    (forest, rows)
}

const BATCH_ROWS: usize = 300;
const BATCH_FEATURES: usize = 270;

fn predict_batch(c: &mut Criterion) {
    let (forest, rows) = batch_setup();
    let mut out = vec![0f32; BATCH_ROWS];
    let mut group = c.benchmark_group("predict_batch");
    group.throughput(Throughput::Elements(BATCH_ROWS as u64));
    group.bench_function("300 rows x 270 features, 300 trees of depth 6", |b| {
        b.iter(|| {
            forest.predict_proba_batch(black_box(&rows), &mut out);
            black_box(&out);
        })
    });
    group.finish();
}

/// `GLEANER_BENCH_BOOST_BATCH=REPEATS[,FILE]`: the `predict_batch`
/// scoring `REPEATS` times, timed, for callgrind or perf. With `FILE`, the
/// forest is read from it when it exists, else trained and written there
/// (training under callgrind would take many minutes).
fn one_shot_batch(spec: &str) {
    let usage = "GLEANER_BENCH_BOOST_BATCH=REPEATS[,FILE]";
    let (repeats, file) = spec.split_once(',').map_or((spec, None), |(r, f)| (r, Some(f)));
    let repeats: usize = repeats.trim().parse().expect(usage);
    let (forest, rows) = match file.map(|f| (f, std::fs::read(f))) {
        Some((_, Ok(bytes))) => (
            Forest::from_bytes(&bytes).expect("a forest file"),
            synthetic(BATCH_ROWS, BATCH_FEATURES, 99).0,
        ),
        Some((f, Err(_))) => {
            let (forest, rows) = batch_setup();
            std::fs::write(f, forest.to_bytes()).expect("writes the forest");
            (forest, rows)
        }
        None => batch_setup(),
    };
    let mut out = vec![0f32; BATCH_ROWS];
    let (sum, wall, cpu) = timed(|| {
        let mut sum = 0f32;
        for _ in 0..repeats {
            forest.predict_proba_batch(black_box(&rows), &mut out);
            sum += out.iter().sum::<f32>();
        }
        sum
    });
    let walks = (repeats * BATCH_ROWS * forest.n_trees()) as f64;
    println!(
        "scored {BATCH_ROWS} rows {repeats} times: {:.1} ns a row wall, {:.1} ns CPU, {:.2} ns \
         CPU a tree walk ({} walks; sum {sum})",
        wall / (repeats * BATCH_ROWS) as f64 * 1e9,
        cpu / (repeats * BATCH_ROWS) as f64 * 1e9,
        cpu / walks * 1e9,
        walks
    );
}

fn training(c: &mut Criterion) {
    let (x, y) = synthetic(200_000, 100, 7);
    let data = Dataset::new(&x, 100, Target::Binary(&y)).expect("synthetic data");
    let names = names(100);
    let mut group = c.benchmark_group("train");
    group.sample_size(10);
    let plain = TrainConfig { rounds: 10, ..TrainConfig::default() };
    group.bench_function("200k x 100, 10 rounds", |b| {
        b.iter(|| black_box(train(&plain, &names, &data, None).expect("trains")))
    });
    let sampled = TrainConfig { bagging_fraction: 0.5, feature_fraction: 0.5, ..plain };
    group.bench_function("200k x 100, 10 rounds, bagging and features 0.5", |b| {
        b.iter(|| black_box(train(&sampled, &names, &data, None).expect("trains")))
    });
    group.finish();
}

/// This thread's CPU time in seconds (Linux), for figures that mean
/// something on a machine busy with other work; NaN elsewhere.
fn cpu_seconds() -> f64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse::<f64>().ok())
        .map_or(f64::NAN, |ns| ns / 1e9)
}

/// Wall and CPU seconds of `f`.
fn timed<T>(f: impl FnOnce() -> T) -> (T, f64, f64) {
    let (wall, cpu) = (Instant::now(), cpu_seconds());
    let out = f();
    (out, wall.elapsed().as_secs_f64(), cpu_seconds() - cpu)
}

fn one_shot(spec: &str) {
    let n: Vec<usize> = spec.split(',').map(|s| s.trim().parse().expect("a number")).collect();
    let [rows, features, rounds] = n[..] else {
        panic!("GLEANER_BENCH_BOOST=ROWS,FEATURES,ROUNDS")
    };
    let ((x, y), wall, _) = timed(|| synthetic(rows, features, 7));
    println!("made {rows} x {features} in {wall:.1} s");
    let data = Dataset::new(&x, features, Target::Binary(&y)).expect("synthetic data");
    let config = TrainConfig { rounds, ..TrainConfig::default() };
    let (trained, wall, cpu) =
        timed(|| train(&config, &names(features), &data, None).expect("trains"));
    println!(
        "trained {rounds} rounds of 31-leaf trees on {rows} x {features}: {wall:.1} s wall, \
         {cpu:.1} s CPU; final training loss {:.4}",
        trained.history.last().map_or(f64::NAN, |h| h.train)
    );
    let forest = trained.forest;
    let probes = rows.min(100_000);
    let (sum, wall, cpu) = timed(|| {
        x.chunks_exact(features).take(probes).map(|row| forest.predict_raw(row)).sum::<f32>()
    });
    println!(
        "predicted {probes} rows with {} trees: {:.2} µs a row wall, {:.2} µs CPU (sum {sum})",
        forest.n_trees(),
        wall / probes as f64 * 1e6,
        cpu / probes as f64 * 1e6
    );
    let row = &x[..features];
    let (sum, wall, cpu) =
        timed(|| (0..probes).map(|_| forest.predict_raw(black_box(row))).sum::<f32>());
    println!(
        "predicted one row {probes} times: {:.2} µs a row wall, {:.2} µs CPU (sum {sum})",
        wall / probes as f64 * 1e6,
        cpu / probes as f64 * 1e6
    );
}

fn main() {
    if let Ok(spec) = std::env::var("GLEANER_BENCH_BOOST") {
        one_shot(&spec);
        return;
    }
    if let Ok(repeats) = std::env::var("GLEANER_BENCH_BOOST_BATCH") {
        one_shot_batch(&repeats);
        return;
    }
    let mut c = Criterion::default().configure_from_args();
    predict(&mut c);
    predict_batch(&mut c);
    training(&mut c);
    c.final_summary();
}
