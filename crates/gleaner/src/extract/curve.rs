//! [`Curve`]: the per-position data behind a curve algorithm's decision
//! (TTR per line, CETR's features, CCB's content code ratio), for plots
//! and for `gleaner inspect`.

/// The per-position data of a curve algorithm.
///
/// Every series has one value per position (a line, a character or a
/// token of the normalised source), in source order.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Curve {
    /// What a position is, e.g. `"source line"` or `"character"`.
    pub x_label: String,
    /// What the values measure, e.g. `"text-to-tag ratio"`.
    pub y_label: String,
    /// Named series, each with one value per position.
    pub series: Vec<(String, Vec<f64>)>,
    /// The decision threshold on the main series, when the method has one.
    pub threshold: Option<f64>,
    /// Whether each position was kept as content.
    pub selected: Vec<bool>,
}

impl Curve {
    /// A curve without series.
    pub fn new(x_label: impl Into<String>, y_label: impl Into<String>) -> Curve {
        Curve {
            x_label: x_label.into(),
            y_label: y_label.into(),
            series: Vec::new(),
            threshold: None,
            selected: Vec::new(),
        }
    }

    /// Adds a named series.
    pub fn series(mut self, name: impl Into<String>, values: Vec<f64>) -> Curve {
        self.series.push((name.into(), values));
        self
    }

    /// Sets the threshold line.
    pub fn threshold(mut self, threshold: Option<f64>) -> Curve {
        self.threshold = threshold;
        self
    }

    /// Sets the per-position decision.
    pub fn selected(mut self, selected: Vec<bool>) -> Curve {
        self.selected = selected;
        self
    }

    /// Number of positions (the length of the longest series).
    pub fn len(&self) -> usize {
        self.series.iter().map(|(_, v)| v.len()).max().unwrap_or(0).max(self.selected.len())
    }

    /// True when there is no position at all.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}
