//! Structural distances between pages (Gottron 2008, S-0 §4).

use std::fmt;
use std::str::FromStr;

use crate::error::Error;

use super::fingerprint::Fingerprint;

/// Which structural distance clusters pages.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Distance {
    /// Common paths.
    Cp,
    /// Common path shingles.
    Cps,
    /// Common tag-sequence shingles.
    Ctss,
    /// Restricted top-down mapping (Reis et al. 2004): a tree edit
    /// distance, for comparison; quadratic per pair.
    Rtdm,
}

impl Distance {
    /// Every distance, in the paper's order.
    pub const ALL: [Distance; 4] = [Distance::Rtdm, Distance::Cp, Distance::Cps, Distance::Ctss];

    /// The single-linkage threshold the paper found to separate sites:
    /// CP 0.7, CPS 0.6, CTSS 0.85 (Gottron 2008, S-0 Table 2). RTDM: 0.2, i.e. the
    /// 80 % similarity at which Reis et al. cluster (Gottron 2008, S-0 §3).
    pub fn default_threshold(self) -> f64 {
        match self {
            Distance::Cp => 0.7,
            Distance::Cps => 0.6,
            Distance::Ctss => 0.85,
            Distance::Rtdm => 0.2,
        }
    }

    /// The name used on the command line and in files.
    pub fn name(self) -> &'static str {
        match self {
            Distance::Cp => "cp",
            Distance::Cps => "cps",
            Distance::Ctss => "ctss",
            Distance::Rtdm => "rtdm",
        }
    }

    /// The fingerprint set this distance compares (`None` for RTDM,
    /// which compares trees).
    pub fn set_of(self, fp: &Fingerprint) -> Option<&[u64]> {
        match self {
            Distance::Cp => Some(&fp.paths),
            Distance::Cps => Some(&fp.path_shingles),
            Distance::Ctss => Some(&fp.tag_shingles),
            Distance::Rtdm => None,
        }
    }
}

impl fmt::Display for Distance {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Distance {
    type Err = Error;

    fn from_str(s: &str) -> Result<Distance, Error> {
        match s.trim().to_ascii_lowercase().as_str() {
            "cp" => Ok(Distance::Cp),
            "cps" => Ok(Distance::Cps),
            "ctss" => Ok(Distance::Ctss),
            "rtdm" => Ok(Distance::Rtdm),
            other => Err(Error::InvalidConfig(format!(
                "unknown distance {other:?}: use cp, cps, ctss or rtdm"
            ))),
        }
    }
}

/// `1 − |A ∩ B| / max(|A|, |B|)` for two sorted sets of distinct hashes:
/// the paper's normalisation, not Jaccard's (Gottron 2008, S-0 §4). Two empty sets
/// are equal (0); an empty and a non-empty set are apart (1).
pub fn set_distance(a: &[u64], b: &[u64]) -> f64 {
    let larger = a.len().max(b.len());
    if larger == 0 {
        return 0.0;
    }
    1.0 - intersection_size(a, b) as f64 / larger as f64
}

/// `|A ∩ B|` by one merge pass.
pub(crate) fn intersection_size(a: &[u64], b: &[u64]) -> usize {
    let (mut i, mut j, mut n) = (0, 0, 0);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                n += 1;
                i += 1;
                j += 1;
            }
        }
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalised_by_the_larger_set() {
        assert_eq!(set_distance(&[1, 2, 3, 4], &[3, 4]), 0.5);
        assert_eq!(set_distance(&[1, 2], &[1, 2]), 0.0);
        assert_eq!(set_distance(&[1], &[2]), 1.0);
        assert_eq!(set_distance(&[], &[]), 0.0);
        assert_eq!(set_distance(&[], &[7]), 1.0);
        // Jaccard would say 1 − 2/4 = 0.5 for {1,2,3} vs {2,3,4}; here 1 − 2/3.
        assert!((set_distance(&[1, 2, 3], &[2, 3, 4]) - 1.0 / 3.0).abs() < 1e-12);
    }

    #[test]
    fn names_round_trip() {
        for d in Distance::ALL {
            assert_eq!(d.name().parse::<Distance>().expect("parses"), d);
        }
        assert!("jaccard".parse::<Distance>().is_err());
    }
}
