//! A small SVG line-chart writer without dependencies: several named
//! series over shared x values, axes with "nice" ticks, an optional
//! horizontal threshold line, shaded x ranges and a legend.
//!
//! It draws the curves of the source-level algorithms
//! ([`gleaner::extract::Curve`], for `gleaner inspect`) and parameter
//! sweeps (metric against parameter value). Long series are thinned to
//! the minimum and maximum of each pixel-wide bucket, so a curve with a
//! point per character stays a small file and keeps its peaks.
//!
//! ```
//! use gleaner_eval::plot::LineChart;
//! let svg = LineChart::new("Recall against λ")
//!     .x_label("λ")
//!     .y_label("score")
//!     .x(vec![0.0, 0.5, 1.0, 1.5, 2.0])
//!     .series("recall", vec![0.99, 0.97, 0.94, 0.90, 0.85])
//!     .series("precision", vec![0.40, 0.55, 0.63, 0.70, 0.74])
//!     .threshold("target", 0.8)
//!     .to_svg();
//! assert!(svg.starts_with("<svg") && svg.contains("recall") && svg.ends_with("</svg>\n"));
//! ```

use std::fmt::Write;

use gleaner::extract::Curve;
use gleaner::render::escape;

/// Line colours, in series order.
const PALETTE: &[&str] = &["#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd", "#8c564b", "#e377c2"];
const THRESHOLD_COLOUR: &str = "#d62728";
const BAND_COLOUR: &str = "#2ca02c";

/// A line chart. Build it with the chained setters, then call
/// [`LineChart::to_svg`].
#[derive(Debug, Clone, PartialEq)]
pub struct LineChart {
    title: String,
    x_label: String,
    y_label: String,
    x: Vec<f64>,
    series: Vec<(String, Vec<f64>)>,
    threshold: Option<(String, f64)>,
    bands: Vec<(f64, f64)>,
    band_label: String,
    width: u32,
    height: u32,
}

impl LineChart {
    /// An empty chart with a title, 900 × 360 pixels.
    pub fn new(title: impl Into<String>) -> LineChart {
        LineChart {
            title: title.into(),
            x_label: String::new(),
            y_label: String::new(),
            x: Vec::new(),
            series: Vec::new(),
            threshold: None,
            bands: Vec::new(),
            band_label: String::new(),
            width: 900,
            height: 360,
        }
    }

    /// A chart of a curve: every series, its threshold, and the selected
    /// positions shaded.
    pub fn from_curve(title: impl Into<String>, curve: &Curve) -> LineChart {
        let mut chart = LineChart::new(title).x_label(&curve.x_label).y_label(&curve.y_label);
        for (name, values) in &curve.series {
            chart = chart.series(name, values.clone());
        }
        if let Some(t) = curve.threshold {
            chart = chart.threshold("threshold", t);
        }
        let mut start = None;
        for (i, &sel) in curve.selected.iter().chain(std::iter::once(&false)).enumerate() {
            match (sel, start) {
                (true, None) => start = Some(i),
                (false, Some(s)) => {
                    chart.bands.push((s as f64 - 0.5, i as f64 - 0.5));
                    start = None;
                }
                _ => {}
            }
        }
        chart.band_label = "selected as content".into();
        chart
    }

    /// Sets the x-axis label.
    pub fn x_label(mut self, label: impl Into<String>) -> LineChart {
        self.x_label = label.into();
        self
    }

    /// Sets the y-axis label.
    pub fn y_label(mut self, label: impl Into<String>) -> LineChart {
        self.y_label = label.into();
        self
    }

    /// Sets the x values shared by all series (default: 0, 1, 2, …).
    pub fn x(mut self, x: Vec<f64>) -> LineChart {
        self.x = x;
        self
    }

    /// Adds a named series of y values (non-finite values leave a gap).
    pub fn series(mut self, name: impl Into<String>, y: Vec<f64>) -> LineChart {
        self.series.push((name.into(), y));
        self
    }

    /// Draws a dashed horizontal line at `y`.
    pub fn threshold(mut self, label: impl Into<String>, y: f64) -> LineChart {
        self.threshold = Some((label.into(), y));
        self
    }

    /// Shades the x range `from..to`, labelled `label` in the legend.
    pub fn band(mut self, label: impl Into<String>, from: f64, to: f64) -> LineChart {
        self.band_label = label.into();
        self.bands.push((from, to));
        self
    }

    /// Sets the size in pixels (at least 200 × 120).
    pub fn size(mut self, width: u32, height: u32) -> LineChart {
        self.width = width.max(200);
        self.height = height.max(120);
        self
    }

    fn x_at(&self, i: usize) -> f64 {
        if self.x.is_empty() {
            i as f64
        } else {
            self.x.get(i).copied().unwrap_or(f64::NAN)
        }
    }

    /// Number of points a series can have (bounded by the x values).
    fn points(&self, y: &[f64]) -> usize {
        if self.x.is_empty() {
            y.len()
        } else {
            y.len().min(self.x.len())
        }
    }

    /// The chart as a standalone SVG document.
    pub fn to_svg(&self) -> String {
        let (w, h) = (f64::from(self.width), f64::from(self.height));
        let (left, right, top, bottom) = (72.0, 16.0, 34.0, 48.0);
        let (pw, ph) = ((w - left - right).max(10.0), (h - top - bottom).max(10.0));
        // Data ranges.
        let mut xr = Range::default();
        let mut yr = Range::default();
        for (_, y) in &self.series {
            for (i, &v) in y.iter().enumerate().take(self.points(y)) {
                let x = self.x_at(i);
                if x.is_finite() && v.is_finite() {
                    xr.add(x);
                    yr.add(v);
                }
            }
        }
        if let Some((_, t)) = &self.threshold {
            yr.add(*t);
        }
        if yr.is_empty() {
            yr.add(0.0);
            yr.add(1.0);
        }
        if xr.is_empty() {
            xr.add(0.0);
            xr.add(1.0);
        }
        // Curves start at 0 when all values are positive: ratios read
        // better against their baseline.
        if yr.min > 0.0 {
            yr.min = 0.0;
        }
        let xt = Ticks::new(xr.min, xr.max);
        let yt = Ticks::new(yr.min, yr.max);
        let (x0, x1) = (xt.lo, xt.hi);
        let (y0, y1) = (yt.lo, yt.hi);
        let sx = |x: f64| left + (x - x0) / (x1 - x0) * pw;
        let sy = |y: f64| top + ph - (y - y0) / (y1 - y0) * ph;

        let mut s = String::new();
        let _ = writeln!(
            s,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" \
             viewBox=\"0 0 {w} {h}\" font-family=\"sans-serif\" font-size=\"11\">"
        );
        let _ = writeln!(s, "<rect width=\"{w}\" height=\"{h}\" fill=\"white\"/>");
        let _ = writeln!(
            s,
            "<text x=\"{}\" y=\"20\" text-anchor=\"middle\" font-size=\"14\">{}</text>",
            w / 2.0,
            escape(&self.title)
        );
        // Shaded bands, merged when closer than half a pixel.
        let mut merged: Vec<(f64, f64)> = Vec::new();
        for &(a, b) in &self.bands {
            let (pa, pb) = (sx(a).clamp(left, left + pw), sx(b).clamp(left, left + pw));
            match merged.last_mut() {
                Some(last) if pa - last.1 < 0.5 => last.1 = last.1.max(pb),
                _ => merged.push((pa, pb)),
            }
        }
        for (a, b) in &merged {
            let _ = writeln!(
                s,
                "<rect x=\"{a:.1}\" y=\"{top}\" width=\"{:.1}\" height=\"{ph}\" fill=\"{BAND_COLOUR}\" fill-opacity=\"0.15\"/>",
                (b - a).max(0.5)
            );
        }
        // Axes, grid and ticks.
        let _ = writeln!(
            s,
            "<g stroke=\"#999\" stroke-width=\"1\"><line x1=\"{left}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"/>\
             <line x1=\"{left}\" y1=\"{top}\" x2=\"{left}\" y2=\"{}\"/></g>",
            top + ph,
            left + pw,
            top + ph,
            top + ph
        );
        for v in yt.values() {
            let y = sy(v);
            let _ = writeln!(
                s,
                "<line x1=\"{left}\" y1=\"{y:.1}\" x2=\"{:.1}\" y2=\"{y:.1}\" stroke=\"#eee\"/>\
                 <text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{}</text>",
                left + pw,
                left - 6.0,
                y + 4.0,
                yt.label(v)
            );
        }
        for v in xt.values() {
            let x = sx(v);
            let _ = writeln!(
                s,
                "<line x1=\"{x:.1}\" y1=\"{}\" x2=\"{x:.1}\" y2=\"{}\" stroke=\"#999\"/>\
                 <text x=\"{x:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text>",
                top + ph,
                top + ph + 5.0,
                top + ph + 18.0,
                xt.label(v)
            );
        }
        let _ = writeln!(
            s,
            "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text>",
            left + pw / 2.0,
            h - 10.0,
            escape(&self.x_label)
        );
        let _ = writeln!(
            s,
            "<text transform=\"translate(16 {:.1}) rotate(-90)\" text-anchor=\"middle\">{}</text>",
            top + ph / 2.0,
            escape(&self.y_label)
        );
        // Series, thinned to about two points per pixel column.
        let budget = (pw as usize).max(1);
        for (k, (name, y)) in self.series.iter().enumerate() {
            let colour = PALETTE[k % PALETTE.len()];
            let n = self.points(y);
            let _ = write!(
                s,
                "<g fill=\"none\" stroke=\"{colour}\" stroke-width=\"1.3\"><title>{}</title>",
                escape(name)
            );
            for segment in
                thin(n, budget, |i| (self.x_at(i), y.get(i).copied().unwrap_or(f64::NAN)))
            {
                if segment.len() == 1 {
                    let (x, v) = segment[0];
                    let _ = write!(
                        s,
                        "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"1.5\" fill=\"{colour}\"/>",
                        sx(x),
                        sy(v)
                    );
                    continue;
                }
                s.push_str("<polyline points=\"");
                for (x, v) in segment {
                    let _ = write!(s, "{:.1},{:.1} ", sx(x), sy(v));
                }
                s.push_str("\"/>");
            }
            s.push_str("</g>\n");
        }
        if let Some((label, t)) = &self.threshold {
            let y = sy(*t);
            let _ = writeln!(
                s,
                "<line x1=\"{left}\" y1=\"{y:.1}\" x2=\"{:.1}\" y2=\"{y:.1}\" stroke=\"{THRESHOLD_COLOUR}\" \
                 stroke-dasharray=\"6 4\" stroke-width=\"1.3\"><title>{} = {}</title></line>",
                left + pw,
                escape(label),
                t
            );
        }
        // Legend, top right inside the plot.
        let mut entries: Vec<(String, String, bool)> = self
            .series
            .iter()
            .enumerate()
            .map(|(k, (name, _))| (name.clone(), PALETTE[k % PALETTE.len()].to_string(), false))
            .collect();
        if let Some((label, t)) = &self.threshold {
            entries.push((format!("{label} = {}", short(*t)), THRESHOLD_COLOUR.into(), true));
        }
        if !self.bands.is_empty() {
            entries.push((self.band_label.clone(), BAND_COLOUR.into(), false));
        }
        let longest = entries.iter().map(|e| e.0.chars().count()).max().unwrap_or(0);
        let lw = 34.0 + 6.5 * longest as f64;
        let lx = left + pw - lw - 6.0;
        if !entries.is_empty() {
            let _ = writeln!(
                s,
                "<rect x=\"{lx:.1}\" y=\"{}\" width=\"{lw:.1}\" height=\"{}\" fill=\"white\" fill-opacity=\"0.85\" stroke=\"#ccc\"/>",
                top + 4.0,
                8.0 + 16.0 * entries.len() as f64
            );
        }
        for (i, (name, colour, dashed)) in entries.iter().enumerate() {
            let y = top + 16.0 + 16.0 * i as f64;
            let band = !*dashed && i + 1 == entries.len() && !self.bands.is_empty();
            if band {
                let _ = write!(
                    s,
                    "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"22\" height=\"10\" fill=\"{colour}\" fill-opacity=\"0.3\"/>",
                    lx + 6.0,
                    y - 6.0
                );
            } else {
                let dash = if *dashed { " stroke-dasharray=\"6 4\"" } else { "" };
                let _ = write!(
                    s,
                    "<line x1=\"{:.1}\" y1=\"{y:.1}\" x2=\"{:.1}\" y2=\"{y:.1}\" stroke=\"{colour}\" stroke-width=\"2\"{dash}/>",
                    lx + 6.0,
                    lx + 28.0
                );
            }
            let _ = writeln!(
                s,
                "<text x=\"{:.1}\" y=\"{:.1}\">{}</text>",
                lx + 34.0,
                y + 4.0,
                escape(name)
            );
        }
        s.push_str("</svg>\n");
        s
    }
}

/// Running minimum and maximum.
#[derive(Debug, Clone, Copy)]
struct Range {
    min: f64,
    max: f64,
}

impl Default for Range {
    fn default() -> Range {
        Range { min: f64::INFINITY, max: f64::NEG_INFINITY }
    }
}

impl Range {
    fn add(&mut self, v: f64) {
        self.min = self.min.min(v);
        self.max = self.max.max(v);
    }

    fn is_empty(&self) -> bool {
        self.min > self.max
    }
}

/// Axis ticks at 1, 2 or 5 times a power of ten.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Ticks {
    lo: f64,
    hi: f64,
    step: f64,
}

impl Ticks {
    /// About six ticks covering `min..=max`.
    fn new(min: f64, max: f64) -> Ticks {
        let (min, max) = if max > min { (min, max) } else { (min - 0.5, max + 0.5) };
        let raw = (max - min) / 6.0;
        let magnitude = 10f64.powf(raw.log10().floor());
        let step = [1.0, 2.0, 5.0, 10.0]
            .iter()
            .map(|m| m * magnitude)
            .find(|&s| s >= raw)
            .unwrap_or(10.0 * magnitude);
        Ticks { lo: (min / step).floor() * step, hi: (max / step).ceil() * step, step }
    }

    fn values(&self) -> impl Iterator<Item = f64> {
        let n = ((self.hi - self.lo) / self.step).round() as usize;
        let (lo, step) = (self.lo, self.step);
        (0..=n.min(1000)).map(move |i| lo + i as f64 * step)
    }

    fn label(&self, v: f64) -> String {
        let decimals = if self.step >= 1.0 { 0 } else { (-self.step.log10()).ceil() as usize };
        let v = if v.abs() < self.step * 1e-9 { 0.0 } else { v };
        if v.abs() >= 1e6 {
            format!("{v:.1e}")
        } else {
            format!("{v:.decimals$}")
        }
    }
}

/// A short number for the legend.
fn short(v: f64) -> String {
    if v.abs() >= 100.0 {
        format!("{v:.0}")
    } else {
        format!("{v:.3}").trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

/// The points of a series as segments between non-finite values, thinned
/// to the minimum and maximum of each of at most `budget` index buckets.
fn thin(n: usize, budget: usize, point: impl Fn(usize) -> (f64, f64)) -> Vec<Vec<(f64, f64)>> {
    let mut segments: Vec<Vec<(f64, f64)>> = Vec::new();
    let mut current: Vec<(f64, f64)> = Vec::new();
    let per_bucket = n.div_ceil(budget.max(1)).max(1);
    let mut i = 0;
    while i < n {
        let end = (i + per_bucket).min(n);
        let mut lo: Option<(usize, (f64, f64))> = None;
        let mut hi: Option<(usize, (f64, f64))> = None;
        let mut gap = false;
        for j in i..end {
            let p = point(j);
            if !(p.0.is_finite() && p.1.is_finite()) {
                gap = true;
                continue;
            }
            if lo.is_none_or(|(_, q)| p.1 < q.1) {
                lo = Some((j, p));
            }
            if hi.is_none_or(|(_, q)| p.1 > q.1) {
                hi = Some((j, p));
            }
        }
        match (lo, hi) {
            (Some(a), Some(b)) if a.0 == b.0 => current.push(a.1),
            (Some(a), Some(b)) if a.0 < b.0 => current.extend([a.1, b.1]),
            (Some(a), Some(b)) => current.extend([b.1, a.1]),
            _ => {}
        }
        if gap && per_bucket == 1 && !current.is_empty() {
            segments.push(std::mem::take(&mut current));
        }
        i = end;
    }
    if !current.is_empty() {
        segments.push(current);
    }
    segments
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_are_nice_and_cover_the_range() {
        let t = Ticks::new(0.0, 93.0);
        assert_eq!((t.lo, t.hi, t.step), (0.0, 100.0, 20.0));
        let t = Ticks::new(0.13, 0.87);
        assert!((t.step - 0.2).abs() < 1e-12 && t.lo <= 0.13 && t.hi >= 0.87);
        assert_eq!(t.label(0.4), "0.4");
        let flat = Ticks::new(3.0, 3.0);
        assert!(flat.lo < 3.0 && flat.hi > 3.0);
    }

    #[test]
    fn long_series_are_thinned_but_keep_their_peaks() {
        let n = 100_000;
        let segments =
            thin(n, 500, |i| (i as f64, if i == 77_777 { 50.0 } else { (i % 7) as f64 }));
        let points: usize = segments.iter().map(Vec::len).sum();
        assert!(points <= 1000, "{points}");
        assert!(segments.iter().flatten().any(|p| p.1 == 50.0));
    }

    #[test]
    fn gaps_split_short_series() {
        let y = [1.0, 2.0, f64::NAN, 3.0, 4.0];
        let segments = thin(y.len(), 100, |i| (i as f64, y[i]));
        assert_eq!(segments.len(), 2);
    }

    #[test]
    fn svg_has_series_threshold_legend_and_escapes_text() {
        let svg = LineChart::new("a < b & c")
            .series("s1 <x>", vec![1.0, 3.0, 2.0])
            .series("s2", vec![0.5, f64::INFINITY, 1.0])
            .threshold("t", 1.5)
            .band("kept", 0.5, 1.5)
            .to_svg();
        assert!(svg.contains("a &lt; b &amp; c") && svg.contains("s1 &lt;x&gt;"));
        assert_eq!(svg.matches("<g fill=\"none\"").count(), 2);
        assert!(svg.contains("stroke-dasharray") && svg.contains("kept"));
        assert!(!svg.contains("NaN") && !svg.contains("inf"));
    }

    #[test]
    fn empty_chart_is_still_a_valid_svg() {
        let svg = LineChart::new("nothing").to_svg();
        assert!(svg.starts_with("<svg") && svg.ends_with("</svg>\n"));
        let svg = LineChart::new("one").series("s", vec![2.0]).to_svg();
        assert!(svg.contains("<circle"));
    }

    #[test]
    fn chart_from_a_curve_shades_the_selected_runs() {
        let curve = Curve::new("line", "ratio")
            .series("TTR", vec![0.0, 5.0, 6.0, 0.0, 7.0])
            .threshold(Some(3.0))
            .selected(vec![false, true, true, false, true]);
        let chart = LineChart::from_curve("c", &curve);
        assert_eq!(chart.bands, [(0.5, 2.5), (3.5, 4.5)]);
        assert_eq!(chart.threshold, Some(("threshold".to_string(), 3.0)));
    }
}
