//! One-dimensional signal helpers shared by the curve algorithms (CCB,
//! TTR, CETR): mean and standard deviation, the moving mean of the TTR
//! paper, a truncated Gaussian kernel (CETR) and an O(n) Gaussian blur
//! made of running-sum box filters (CCB).
//!
//! Every filter renormalises at the array ends over the in-range weights
//! instead of padding with zeros: zero padding would pull the first and
//! last entries towards "code" (`docs/algorithms.md#ccb` \[I\]).

/// Arithmetic mean; 0 for an empty slice.
pub(crate) fn mean(values: &[f64]) -> f64 {
    if values.is_empty() {
        0.0
    } else {
        values.iter().sum::<f64>() / values.len() as f64
    }
}

/// Population standard deviation (divisor n); 0 for an empty slice.
pub(crate) fn std_dev(values: &[f64]) -> f64 {
    if values.is_empty() {
        return 0.0;
    }
    let m = mean(values);
    let var = values.iter().map(|v| (v - m) * (v - m)).sum::<f64>() / values.len() as f64;
    var.sqrt()
}

/// Moving mean over `radius` entries on each side (window `2·radius + 1`),
/// divided by the number of entries in range at the ends. O(n).
pub(crate) fn moving_mean(values: &[f64], radius: usize) -> Vec<f64> {
    let n = values.len();
    let mut prefix = Vec::with_capacity(n + 1);
    prefix.push(0.0);
    let mut sum = 0.0;
    for &v in values {
        sum += v;
        prefix.push(sum);
    }
    (0..n)
        .map(|i| {
            let lo = i.saturating_sub(radius);
            let hi = (i + radius + 1).min(n);
            (prefix[hi] - prefix[lo]) / (hi - lo) as f64
        })
        .collect()
}

/// Convolution with a Gaussian kernel `k_j ∝ exp(−j²/2σ²)` for
/// `|j| ≤ radius`, renormalised over the in-range weights at the ends.
/// O(n·radius): meant for per-line arrays with a small σ (CETR).
pub(crate) fn gaussian_kernel_smooth(values: &[f64], sigma: f64, radius: usize) -> Vec<f64> {
    if sigma.is_nan() || sigma <= 0.0 || radius == 0 {
        return values.to_vec();
    }
    let kernel: Vec<f64> =
        (0..=radius).map(|j| (-((j * j) as f64) / (2.0 * sigma * sigma)).exp()).collect();
    let n = values.len();
    (0..n)
        .map(|i| {
            let lo = i.saturating_sub(radius);
            let hi = (i + radius + 1).min(n);
            let (mut acc, mut weight) = (0.0, 0.0);
            for (j, &v) in values.iter().enumerate().take(hi).skip(lo) {
                let w = kernel.get(i.abs_diff(j)).copied().unwrap_or(0.0);
                acc += w * v;
                weight += w;
            }
            if weight > 0.0 {
                acc / weight
            } else {
                0.0
            }
        })
        .collect()
}

/// Odd box widths whose successive application approximates a Gaussian
/// of standard deviation `sigma` (the variance of a box of odd width `w`
/// is `(w² − 1)/12`; `passes` boxes of two neighbouring odd widths are
/// chosen so that the variances add up to σ²).
pub(crate) fn box_widths(sigma: f64, passes: usize) -> Vec<usize> {
    if sigma.is_nan() || sigma <= 0.0 || passes == 0 {
        return Vec::new();
    }
    let n = passes as f64;
    let ideal = (12.0 * sigma * sigma / n + 1.0).sqrt();
    let mut lower = ideal.floor() as usize;
    if lower % 2 == 0 {
        lower = lower.saturating_sub(1);
    }
    let lower = lower.max(1);
    let upper = lower + 2;
    let l = lower as f64;
    // Number of passes with the lower width, so that the total variance
    // m·(l² − 1)/12 + (n − m)·((l + 2)² − 1)/12 is closest to σ².
    let m = ((12.0 * sigma * sigma - n * l * l - 4.0 * n * l - 3.0 * n) / (-4.0 * l - 4.0)).round();
    let m = m.clamp(0.0, n) as usize;
    (0..passes).map(|i| if i < m { lower } else { upper }).collect()
}

/// Gaussian blur of `values` with standard deviation `sigma` in O(n)
/// whatever σ: `passes` running-sum box filters (3 passes already match a
/// Gaussian to a few per cent). Each box is a mean over the in-range
/// entries, so a constant signal stays constant up to the ends. The
/// values are blurred in place, each pass keeping only the last entries
/// its window still needs (issue 13: no second array of the signal).
///
/// CCB blurs its 0/1 vector with [`gaussian_blur_binary`], which agrees
/// with this to the bit (a test compares them); this general form is
/// that test's reference.
#[cfg(test)]
pub(crate) fn gaussian_blur(mut values: Vec<f32>, sigma: f64, passes: usize) -> Vec<f32> {
    let mut behind = Vec::new();
    for width in box_widths(sigma, passes) {
        box_mean(&mut values, width / 2, &mut behind);
    }
    values
}

/// [`gaussian_blur`] of a signal of small whole numbers (CCB's content
/// code vector: 1 for content, 0 for code), to the bit: the first box
/// pass reads the bytes into a new array, its running sum a whole number
/// held exactly, which the `f64` sum of the general pass also is; the
/// other passes are [`gaussian_blur`]'s (issue 12: the first pass
/// neither converts the values nor copies the entries it will drop).
pub(crate) fn gaussian_blur_binary(values: &[u8], sigma: f64, passes: usize) -> Vec<f32> {
    let widths = box_widths(sigma, passes);
    let Some((&first, rest)) = widths.split_first() else {
        return values.iter().map(|&v| f32::from(v)).collect();
    };
    let mut blurred = box_mean_whole(values, first / 2);
    let mut behind = Vec::new();
    for &width in rest {
        box_mean(&mut blurred, width / 2, &mut behind);
    }
    blurred
}

/// Sums a window of 0/1 entries can take whose means [`box_mean_whole`]
/// looks up, at most.
const MEAN_TABLE_MAX: usize = 4096;

/// [`box_mean`] of whole numbers into a new array: the same operations
/// on the same values (a running sum, divided by the entries in range at
/// the ends, times the inverse width inside), the sum kept as an integer,
/// which every `f64` sum of the general form equals exactly (all are
/// whole numbers far below 2⁵³), so the results agree to the bit.
fn box_mean_whole(values: &[u8], radius: usize) -> Vec<f32> {
    let n = values.len();
    let width = 2 * radius + 1;
    if radius == 0 || width >= n {
        // The clipped form throughout, from exact integer prefix sums.
        let mut prefix = Vec::with_capacity(n + 1);
        let mut sum = 0u64;
        prefix.push(0);
        for &v in values {
            sum += u64::from(v);
            prefix.push(sum);
        }
        return (0..n)
            .map(|i| {
                let (lo, hi) = (i.saturating_sub(radius), (i + radius + 1).min(n));
                let s = prefix.get(hi).copied().unwrap_or(0) - prefix.get(lo).copied().unwrap_or(0);
                (s as f64 / (hi - lo) as f64) as f32
            })
            .collect();
    }
    let mut out = Vec::with_capacity(n);
    // Left border: the window [0, i + r] grows (`width < n`).
    let mut sum: u32 = values.iter().take(radius).map(|&v| u32::from(v)).sum();
    for (i, &added) in values.iter().enumerate().skip(radius).take(radius + 1) {
        sum += u32::from(added);
        out.push((f64::from(sum) / (i + 1) as f64) as f32);
    }
    // Interior: a full window slides by one; the few sums a window of
    // 0/1 entries can take have their means looked up (those of a wide
    // window computed as they come: the same bits, without a table as
    // long as the page).
    let inv = 1.0 / width as f64;
    let table = width.min(MEAN_TABLE_MAX) as u32;
    let means: Vec<f32> = (0..=table).map(|k| (f64::from(k) * inv) as f32).collect();
    let interior = values.get(width..).unwrap_or_default().iter().zip(values);
    out.extend(interior.map(|(&added, &dropped)| {
        sum = sum + u32::from(added) - u32::from(dropped);
        means.get(sum as usize).copied().unwrap_or_else(|| (f64::from(sum) * inv) as f32)
    }));
    // Right border: the window [i − r, n) shrinks.
    for (i, &dropped) in (n - radius..n).zip(values.get(n - width..).unwrap_or_default()) {
        sum -= u32::from(dropped);
        out.push((f64::from(sum) / (n - (i - radius)) as f64) as f32);
    }
    out
}

/// Entries a [`for_each_blurred_binary`] chunk holds.
const STREAM_CHUNK: usize = 4096;

/// [`gaussian_blur_binary`] as a stream: `out` receives the blurred
/// entries in order, in chunks, and no array of them is made (issue 13:
/// four bytes an entry of the content code vector). Each box pass keeps
/// only the window of its input that its next outputs need, and runs
/// its sum over the same entries in the same order as [`box_mean_whole`]
/// and [`box_mean`] do, so the entries are theirs to the bit.
///
/// The blur is made as an array and handed over whole when there is no
/// box to stream: σ ≤ 0 (or NaN) or no passes (no boxes: the entries as
/// they are), a first box of radius 0 (σ below about 0.82: every box is
/// then at most 3 wide, and [`box_mean_whole`] takes its clipped form),
/// or a vector no longer than some box (whose passes take the clipped
/// form throughout).
pub(crate) fn for_each_blurred_binary(
    values: &[u8],
    sigma: f64,
    passes: usize,
    mut out: impl FnMut(&[f32]),
) {
    let n = values.len();
    let widths = box_widths(sigma, passes);
    let boxes =
        widths.split_first().filter(|&(&first, _)| first / 2 > 0 && widths.iter().all(|&w| w < n));
    let Some((&first, rest)) = boxes else {
        out(&gaussian_blur_binary(values, sigma, passes));
        return;
    };
    let mut first = FirstPass { values, r: first / 2, inv: 1.0 / first as f64, sum: 0, next: 0 };
    // No later box has radius 0: `box_widths` gives its narrower width
    // first and the others at most 2 wider, and the first is 3 or more.
    debug_assert!(rest.iter().all(|&w| w / 2 > 0), "box widths {widths:?}");
    let mut stages: Vec<StreamPass> = rest
        .iter()
        .map(|&w| StreamPass {
            r: w / 2,
            n,
            inv: 1.0 / w as f64,
            sum: 0.0,
            next: 0,
            window: Vec::new(),
            base: 0,
            received: 0,
        })
        .collect();
    let mut chunk = Vec::with_capacity(STREAM_CHUNK);
    let mut next_chunk = Vec::with_capacity(STREAM_CHUNK);
    // Entries handed to `out`: all `n` of them, or a window slice was
    // out of range (each pass also checks its slices).
    let mut emitted = 0usize;
    loop {
        chunk.clear();
        let more = first.fill(&mut chunk);
        for stage in &mut stages {
            next_chunk.clear();
            stage.push(&chunk, &mut next_chunk);
            std::mem::swap(&mut chunk, &mut next_chunk);
        }
        if !chunk.is_empty() {
            emitted += chunk.len();
            out(&chunk);
        }
        if !more {
            break;
        }
    }
    debug_assert_eq!(emitted, n, "σ {sigma}, {passes} passes: entries streamed");
}

/// The first box pass of [`for_each_blurred_binary`], over the 0/1
/// entries: [`box_mean_whole`] an output at a time (`2·r + 1 < n`).
struct FirstPass<'a> {
    values: &'a [u8],
    r: usize,
    inv: f64,
    /// The window's sum: a whole number, as in [`box_mean_whole`].
    sum: u32,
    /// The next output.
    next: usize,
}

impl FirstPass<'_> {
    /// Appends up to [`STREAM_CHUNK`] outputs; `false` once all are out.
    fn fill(&mut self, out: &mut Vec<f32>) -> bool {
        let (values, r, n) = (self.values, self.r, self.values.len());
        let upto = n.min(self.next + STREAM_CHUNK);
        while self.next < upto {
            let i = self.next;
            if i <= r {
                // Left border: the window [0, i + r] grows.
                if i == 0 {
                    let first = values.get(..r).unwrap_or_default();
                    debug_assert_eq!(first.len(), r);
                    self.sum = first.iter().map(|&v| u32::from(v)).sum();
                }
                debug_assert!(i + r < n);
                self.sum += u32::from(values.get(i + r).copied().unwrap_or(0));
                out.push((f64::from(self.sum) / (i + r + 1) as f64) as f32);
                self.next += 1;
            } else if i < n - r {
                // Interior: a full window slides by one.
                let end = upto.min(n - r);
                let added = values.get(i + r..end + r).unwrap_or_default();
                let dropped = values.get(i - r - 1..end - r - 1).unwrap_or_default();
                debug_assert!(added.len() == end - i && dropped.len() == end - i);
                let (mut sum, inv) = (self.sum, self.inv);
                out.extend(added.iter().zip(dropped).map(|(&a, &d)| {
                    sum = sum + u32::from(a) - u32::from(d);
                    (f64::from(sum) * inv) as f32
                }));
                self.sum = sum;
                self.next = end;
            } else {
                // Right border: the window [i − r, n) shrinks.
                let dropped = values.get(i - r - 1..upto - r - 1).unwrap_or_default();
                debug_assert_eq!(dropped.len(), upto - i);
                for (i, &d) in (i..upto).zip(dropped) {
                    self.sum -= u32::from(d);
                    out.push((f64::from(self.sum) / (n - (i - r)) as f64) as f32);
                }
                self.next = upto;
            }
        }
        self.next < n
    }
}

/// A later box pass of [`for_each_blurred_binary`]: [`box_mean`] over
/// its input as it comes (`2·r + 1 < n`), keeping the inputs from the
/// one its next output drops.
struct StreamPass {
    r: usize,
    n: usize,
    inv: f64,
    sum: f64,
    /// The next output.
    next: usize,
    /// The inputs from `base` on.
    window: Vec<f32>,
    base: usize,
    /// The inputs received.
    received: usize,
}

impl StreamPass {
    /// Takes the next inputs and appends the outputs they complete.
    fn push(&mut self, inputs: &[f32], out: &mut Vec<f32>) {
        let (r, n) = (self.r, self.n);
        self.window.extend_from_slice(inputs);
        self.received += inputs.len();
        // Output `i` takes in input `i + r`; the last `r` take none.
        let upto = if self.received >= n { n } else { self.received.saturating_sub(r) };
        let base = self.base;
        let at = |i: usize| i - base;
        while self.next < upto {
            let i = self.next;
            if i <= r {
                if i == 0 {
                    let first = self.window.get(..r).unwrap_or_default();
                    debug_assert_eq!(first.len(), r);
                    self.sum = first.iter().map(|&v| f64::from(v)).sum();
                }
                debug_assert!(at(i + r) < self.window.len());
                self.sum += f64::from(self.window.get(at(i + r)).copied().unwrap_or(0.0));
                out.push((self.sum / (i + r + 1) as f64) as f32);
                self.next += 1;
            } else if i < n - r {
                let end = upto.min(n - r);
                let added = self.window.get(at(i + r)..at(end + r)).unwrap_or_default();
                let dropped = self.window.get(at(i - r - 1)..at(end - r - 1)).unwrap_or_default();
                debug_assert!(added.len() == end - i && dropped.len() == end - i);
                let (mut sum, inv) = (self.sum, self.inv);
                out.extend(added.iter().zip(dropped).map(|(&a, &d)| {
                    sum += f64::from(a) - f64::from(d);
                    (sum * inv) as f32
                }));
                self.sum = sum;
                self.next = end;
            } else {
                let dropped = self.window.get(at(i - r - 1)..at(upto - r - 1)).unwrap_or_default();
                debug_assert_eq!(dropped.len(), upto - i);
                for (i, &d) in (i..upto).zip(dropped) {
                    self.sum -= f64::from(d);
                    out.push((self.sum / (n - (i - r)) as f64) as f32);
                }
                self.next = upto;
            }
        }
        // The inputs before `next − r − 1` are dropped by no output left.
        let keep_from = self.next.saturating_sub(r + 1);
        if keep_from > self.base {
            self.window.drain(..keep_from - self.base);
            self.base = keep_from;
        }
    }
}

/// Replaces `values[i]` by the mean of `values[i − r ..= i + r]` (the
/// values before this pass) clipped to the array, with the running sum of
/// the window. Entry `i − r − 1` leaves the window when entry `i` is
/// replaced, after it was itself replaced, so the entries are walked in
/// blocks of `r + 1`, each copied as it was into `behind` before it is
/// replaced, where the next block finds the entries it drops.
fn box_mean(values: &mut [f32], radius: usize, behind: &mut Vec<f32>) {
    let n = values.len();
    if radius == 0 || n == 0 {
        return;
    }
    let width = 2 * radius + 1;
    if width >= n {
        // The window never lies fully inside: the clipped form throughout.
        let mut prefix = Vec::with_capacity(n + 1);
        let mut sum = 0.0f64;
        prefix.push(0.0);
        for &v in values.iter() {
            sum += f64::from(v);
            prefix.push(sum);
        }
        for (i, slot) in values.iter_mut().enumerate() {
            let (lo, hi) = (i.saturating_sub(radius), (i + radius + 1).min(n));
            *slot = ((prefix[hi] - prefix[lo]) / (hi - lo) as f64) as f32;
        }
        return;
    }
    // Blocks of r + 1 entries; `width < n`, so the first is whole, and it
    // is the left border.
    let block = radius + 1;
    behind.clear();
    behind.resize(2 * block, 0.0);
    // The block before (the entries the window drops) and this block.
    let (mut before, mut this) = behind.split_at_mut(block);
    // Left border: the window [0, i + r] grows.
    this.copy_from_slice(&values[..block]);
    let mut sum: f64 = values[..radius].iter().map(|&v| f64::from(v)).sum();
    for i in 0..block {
        sum += f64::from(values[i + radius]);
        values[i] = (sum / (i + radius + 1) as f64) as f32;
    }
    let inv = 1.0 / width as f64;
    let mut start = block;
    while start < n {
        std::mem::swap(&mut before, &mut this);
        let end = n.min(start + block);
        this[..end - start].copy_from_slice(&values[start..end]);
        let interior_end = (n - radius).clamp(start, end);
        // Interior: a full window slides by one. Entry `i` takes in entry
        // `i + r`, which no earlier step replaced: the first `r` entries
        // of the block take theirs from the slice after `start + r`, so
        // the loop has no index checks; the block's last entry, when it
        // is interior, takes in `start + 2r`.
        let interior = interior_end - start;
        if let Some((written, read)) = values.split_at_mut_checked(start + radius) {
            let written = written.get_mut(start..start + interior.min(radius)).unwrap_or_default();
            for ((slot, &added), &dropped) in written.iter_mut().zip(read.iter()).zip(before.iter())
            {
                sum += f64::from(added) - f64::from(dropped);
                *slot = (sum * inv) as f32;
            }
        }
        if interior > radius {
            let last = start + radius;
            if let (Some(&added), Some(&dropped)) = (values.get(last + radius), before.get(radius))
            {
                sum += f64::from(added) - f64::from(dropped);
                if let Some(slot) = values.get_mut(last) {
                    *slot = (sum * inv) as f32;
                }
            }
        }
        // Right border: the window [i − r, n) shrinks.
        for (i, &dropped) in (interior_end..end).zip(&before[interior_end - start..]) {
            sum -= f64::from(dropped);
            values[i] = (sum / (n - (i - radius)) as f64) as f32;
        }
        start = end;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Abramowitz & Stegun 7.1.26 (error < 1.5e-7).
    fn erf(x: f64) -> f64 {
        let t = 1.0 / (1.0 + 0.327_591_1 * x.abs());
        let y = 1.0
            - (((((1.061_405_429 * t - 1.453_152_027) * t) + 1.421_413_741) * t - 0.284_496_736)
                * t
                + 0.254_829_592)
                * t
                * (-x * x).exp();
        if x >= 0.0 {
            y
        } else {
            -y
        }
    }

    #[test]
    fn mean_and_population_std() {
        assert_eq!(mean(&[]), 0.0);
        assert_eq!(std_dev(&[]), 0.0);
        assert!((std_dev(&[2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0]) - 2.0).abs() < 1e-12);
    }

    #[test]
    fn moving_mean_divides_by_in_range_count_at_the_ends() {
        let v = [10.0, 0.0, 0.0, 0.0, 0.0, 0.0, 5.0];
        let s = moving_mean(&v, 2);
        assert!((s[0] - 10.0 / 3.0).abs() < 1e-12, "{s:?}");
        assert!((s[1] - 10.0 / 4.0).abs() < 1e-12);
        assert!((s[2] - 10.0 / 5.0).abs() < 1e-12);
        assert!((s[3] - 0.0).abs() < 1e-12);
        assert!((s[6] - 5.0 / 3.0).abs() < 1e-12);
        assert!(moving_mean(&[], 2).is_empty());
    }

    #[test]
    fn box_widths_add_up_to_the_gaussian_variance() {
        for sigma in [5.0, 30.0, 40.0, 100.0] {
            let widths = box_widths(sigma, 3);
            let var: f64 = widths.iter().map(|&w| ((w * w) as f64 - 1.0) / 12.0).sum();
            assert!(widths.iter().all(|w| w % 2 == 1));
            assert!((var.sqrt() - sigma).abs() / sigma < 0.1, "σ {sigma}: {widths:?}");
        }
        assert!(box_widths(0.0, 3).is_empty());
    }

    #[test]
    fn blur_of_a_step_follows_the_gaussian_cdf() {
        let sigma = 20.0;
        let step: Vec<f32> = (0..1000).map(|i| if i < 500 { 0.0 } else { 1.0 }).collect();
        let blurred = gaussian_blur(step, sigma, 3);
        for i in (300..700).step_by(10) {
            // The step sits between entries 499 and 500.
            let x = (i as f64 - 499.5) / sigma;
            let want = 0.5 * (1.0 + erf(x / std::f64::consts::SQRT_2));
            let got = f64::from(blurred[i]);
            assert!((got - want).abs() < 0.02, "at {i}: {got} vs {want}");
        }
        // Monotone, and the flat parts stay exactly flat up to the ends
        // (no zero padding).
        assert!(blurred.windows(2).all(|w| w[0] <= w[1] + 1e-6));
        assert_eq!(blurred[0], 0.0);
        assert!((blurred[999] - 1.0).abs() < 1e-6);
    }

    /// The box mean with a second array: the running sum over the values
    /// as they were, the form the in-place pass must match to the bit.
    fn box_mean_into(src: &[f32], radius: usize) -> Vec<f32> {
        let n = src.len();
        let mut out = vec![0.0f32; n];
        let mut sum: f64 = src[..radius].iter().map(|&v| f64::from(v)).sum();
        for i in 0..=radius {
            sum += f64::from(src[i + radius]);
            out[i] = (sum / (i + radius + 1) as f64) as f32;
        }
        let inv = 1.0 / (2 * radius + 1) as f64;
        for i in radius + 1..n - radius {
            sum += f64::from(src[i + radius]) - f64::from(src[i - radius - 1]);
            out[i] = (sum * inv) as f32;
        }
        for i in n - radius..n {
            sum -= f64::from(src[i - radius - 1]);
            out[i] = (sum / (n - (i - radius)) as f64) as f32;
        }
        out
    }

    #[test]
    fn box_mean_in_place_matches_the_running_sum_over_the_old_values() {
        for n in [4usize, 5, 7, 12, 31, 100, 257] {
            let src: Vec<f32> = (0..n).map(|i| ((i * 7919) % 13) as f32 / 13.0).collect();
            // Windows narrower than the signal (wider ones take the clipped
            // form throughout).
            for radius in 1..(n - 1).div_ceil(2) {
                let mut values = src.clone();
                box_mean(&mut values, radius, &mut Vec::new());
                assert_eq!(values, box_mean_into(&src, radius), "n = {n}, r = {radius}");
            }
        }
    }

    /// The blur of a 0/1 signal from its bytes is the general blur of
    /// the same signal to the bit, at every length around the window
    /// widths (clipped form, borders, interior), for CCB's σs, for any
    /// number of passes, and for windows wider than the table of means.
    #[test]
    fn binary_blur_is_the_general_blur_to_the_bit() {
        let cases = [0.0, 1.0, 3.0, 30.0, 40.0].into_iter().flat_map(|sigma| {
            (1..=4).flat_map(move |passes| {
                (0..130).chain([257, 1000]).map(move |n| (sigma, passes, n))
            })
        });
        // σ 2 000: windows of about 6 900 entries in one pass, 4 900 in two,
        // past the table.
        let wide = [(2000.0, 1, 9000), (2000.0, 2, 9000)];
        // Several stream chunks, the border falling anywhere in one.
        let wide = wide.into_iter().chain([(3.0, 2, 9001), (30.0, 3, 12_345), (40.0, 4, 20_000)]);
        // Box radii past a stream chunk: a first pass of radius about
        // 5 200 (σ 3 000), two of about 3 060 whose joint reach passes a
        // chunk (σ 2 500), and later passes of radius about 4 900 and
        // 5 000 (σ 4 000 and 5 000), whose windows span chunks and whose
        // first output comes a chunk or more after their first input.
        let wide = wide.chain([
            (3000.0, 1, 12_000),
            (2500.0, 2, 14_000),
            (4000.0, 2, 24_000),
            (5000.0, 3, 30_000),
        ]);
        for (sigma, passes, n) in cases.chain(wide) {
            // Runs of both values of any length (a linear
            // congruential walk, its top bit kept a while).
            let mut x = n as u64;
            let bits: Vec<u8> = (0..n)
                .map(|_| {
                    x = x
                        .wrapping_mul(6_364_136_223_846_793_005)
                        .wrapping_add(1_442_695_040_888_963_407);
                    u8::from(x >> 61 < 3)
                })
                .collect();
            let general: Vec<f32> = bits.iter().map(|&b| f32::from(b)).collect();
            let want = gaussian_blur(general, sigma, passes);
            let got = gaussian_blur_binary(&bits, sigma, passes);
            let same = want.iter().zip(&got).all(|(a, b)| a.to_bits() == b.to_bits());
            assert!(same && want.len() == got.len(), "σ {sigma}, {passes} passes, n {n}");
            let mut streamed = Vec::new();
            for_each_blurred_binary(&bits, sigma, passes, |chunk| {
                streamed.extend_from_slice(chunk)
            });
            let same = want.iter().zip(&streamed).all(|(a, b)| a.to_bits() == b.to_bits());
            assert!(
                same && want.len() == streamed.len(),
                "streamed: σ {sigma}, {passes} passes, n {n}"
            );
        }
    }

    #[test]
    fn blur_keeps_a_constant_signal_constant() {
        let flat = vec![0.25f32; 37];
        for v in gaussian_blur(flat, 50.0, 3) {
            assert!((v - 0.25).abs() < 1e-6);
        }
        assert!(gaussian_blur(Vec::new(), 5.0, 3).is_empty());
    }

    #[test]
    fn kernel_smoothing_renormalises_at_the_ends() {
        let s = gaussian_kernel_smooth(&[3.0; 5], 1.0, 3);
        assert!(s.iter().all(|v| (v - 3.0).abs() < 1e-12));
        let spike = gaussian_kernel_smooth(&[0.0, 0.0, 0.0, 10.0, 0.0, 0.0, 0.0], 1.0, 3);
        assert!(spike[3] > spike[2] && spike[2] > spike[1] && (spike[2] - spike[4]).abs() < 1e-12);
    }
}
