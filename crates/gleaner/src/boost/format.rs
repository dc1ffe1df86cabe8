//! The forest's binary file: see the [module documentation](super#file-format).

use super::{Forest, Node, Objective, Tree, DEFAULT_LEFT, MAX_CLASSES};
use crate::error::{Error, Result};

/// The first eight bytes of a forest file.
pub const MAGIC: &[u8; 8] = b"GLEANGBM";

/// The format version this build writes and reads.
pub const FORMAT_VERSION: u32 = 1;

/// Bytes before the feature names: magic, version, objective, outputs,
/// features, trees.
const HEADER: usize = 8 + 5 * 4;
/// Bytes of a split record and of a leaf record.
const SPLIT_BYTES: usize = 28;
const LEAF_BYTES: usize = 8;
// The readers below decode a split's 7 fields and a leaf's 2.
const _: () = assert!(SPLIT_BYTES == 7 * 4 && LEAF_BYTES == 2 * 4);
/// The least a tree takes: its split count and one leaf.
const MIN_TREE_BYTES: usize = 4 + LEAF_BYTES;

impl Forest {
    /// The forest as a compact little-endian file with a CRC-32 at its end;
    /// [`Forest::from_bytes`] reads it back exactly.
    pub fn to_bytes(&self) -> Vec<u8> {
        let size = HEADER
            + self.feature_names.iter().map(|n| 4 + n.len()).sum::<usize>()
            + 4
            + self.metadata.len()
            + 4 * self.base_score.len()
            + self
                .trees
                .iter()
                .map(|t| 4 + SPLIT_BYTES * t.nodes.len() + LEAF_BYTES * t.leaf_value.len())
                .sum::<usize>()
            + 4;
        let mut out = Vec::with_capacity(size);
        out.extend_from_slice(MAGIC);
        put_u32(&mut out, FORMAT_VERSION);
        put_u32(&mut out, matches!(self.objective, Objective::Softmax { .. }) as u32);
        put_u32(&mut out, self.n_outputs() as u32);
        put_u32(&mut out, self.feature_names.len() as u32);
        put_u32(&mut out, self.trees.len() as u32);
        for name in &self.feature_names {
            put_str(&mut out, name);
        }
        put_str(&mut out, &self.metadata);
        for &b in &self.base_score {
            put_f32(&mut out, b);
        }
        for tree in &self.trees {
            put_u32(&mut out, tree.nodes.len() as u32);
            for (i, node) in tree.nodes.iter().enumerate() {
                put_u32(&mut out, node.feature);
                put_f32(&mut out, node.threshold);
                out.extend_from_slice(&node.left.to_le_bytes());
                out.extend_from_slice(&node.right.to_le_bytes());
                put_f32(&mut out, tree.gain[i]);
                put_f32(&mut out, tree.value[i]);
                put_f32(&mut out, tree.cover[i]);
            }
            for (&value, &cover) in tree.leaf_value.iter().zip(&tree.leaf_cover) {
                put_f32(&mut out, value);
                put_f32(&mut out, cover);
            }
        }
        let crc = crc32fast::hash(&out);
        put_u32(&mut out, crc);
        debug_assert_eq!(out.len(), size);
        out
    }

    /// Reads a forest written by [`Forest::to_bytes`].
    ///
    /// Never panics, and allocates no more than the input's length
    /// justifies.
    ///
    /// # Errors
    /// [`Error::InvalidLearnedModel`] saying what is wrong: not a gleaner
    /// forest (magic), another format version, truncated, damaged
    /// (checksum), or inconsistent (counts, indices, a tree that is not a
    /// tree, values that are not finite).
    pub fn from_bytes(bytes: &[u8]) -> Result<Forest> {
        if bytes.len() < MAGIC.len() || &bytes[..MAGIC.len()] != MAGIC {
            return Err(invalid(format!(
                "not a gleaner learned model (its first bytes are not {:?})",
                std::str::from_utf8(MAGIC).unwrap_or_default()
            )));
        }
        let mut header = Reader { bytes, at: MAGIC.len() };
        let version = header.u32("the format version")?;
        if version != FORMAT_VERSION {
            return Err(invalid(format!(
                "format version {version}; this build reads version {FORMAT_VERSION} (retrain the \
                 model, or use the gleaner that wrote it)"
            )));
        }
        if bytes.len() < HEADER + 4 {
            return Err(invalid(format!(
                "truncated: {} bytes, less than the {} of an empty model",
                bytes.len(),
                HEADER + 4
            )));
        }
        let (body, stored) = bytes.split_at(bytes.len() - 4);
        let stored = u32::from_le_bytes(stored.try_into().expect("4 bytes"));
        let computed = crc32fast::hash(body);
        if stored != computed {
            return Err(invalid(format!(
                "damaged or truncated: checksum {computed:08x} of its {} bytes, {stored:08x} stored",
                bytes.len()
            )));
        }
        let mut r = Reader { bytes: body, at: MAGIC.len() + 4 };
        let objective = match r.u32("the objective")? {
            0 => Objective::BinaryLogistic,
            1 => Objective::Softmax { n_classes: 0 },
            other => return Err(invalid(format!("unknown objective {other}"))),
        };
        let n_outputs = r.u32("the number of outputs")? as usize;
        let objective = match objective {
            Objective::BinaryLogistic if n_outputs == 1 => objective,
            Objective::Softmax { .. } if (2..=MAX_CLASSES).contains(&n_outputs) => {
                Objective::Softmax { n_classes: n_outputs }
            }
            _ => return Err(invalid(format!("{n_outputs} outputs for objective {objective:?}"))),
        };
        let n_features = r.u32("the number of features")? as usize;
        if n_features == 0 || n_features >= DEFAULT_LEFT as usize {
            return Err(invalid(format!("{n_features} features")));
        }
        let n_trees = r.u32("the number of trees")? as usize;
        if n_trees % n_outputs != 0 {
            return Err(invalid(format!("{n_trees} trees are not rounds of {n_outputs} outputs")));
        }
        r.room_for(n_features, 4, "feature names")?;
        let mut feature_names = Vec::with_capacity(n_features);
        for i in 0..n_features {
            feature_names.push(r.str(&format!("the name of feature {i}"))?);
        }
        let metadata = r.str("the metadata")?;
        r.room_for(n_outputs, 4, "base scores")?;
        let mut base_score = Vec::with_capacity(n_outputs);
        for _ in 0..n_outputs {
            base_score.push(r.finite(|| "a base score".to_string())?);
        }
        r.room_for(n_trees, MIN_TREE_BYTES, "trees")?;
        let mut trees = Vec::with_capacity(n_trees);
        for t in 0..n_trees {
            trees.push(r.tree(t, n_features)?);
        }
        if r.at != body.len() {
            return Err(invalid(format!(
                "{} unexplained bytes after the last tree",
                body.len() - r.at
            )));
        }
        Ok(Forest::new(objective, feature_names, metadata, base_score, trees))
    }
}

fn invalid(message: String) -> Error {
    Error::InvalidLearnedModel(message)
}

fn put_u32(out: &mut Vec<u8>, x: u32) {
    out.extend_from_slice(&x.to_le_bytes());
}

fn put_f32(out: &mut Vec<u8>, x: f32) {
    out.extend_from_slice(&x.to_le_bytes());
}

fn put_str(out: &mut Vec<u8>, s: &str) {
    put_u32(out, s.len() as u32);
    out.extend_from_slice(s.as_bytes());
}

/// A record's `N` little-endian `u32` fields (a record of `4 × N` bytes,
/// as `chunks_exact` cuts them; a shorter one would leave zeros, never
/// panic).
#[inline(always)]
fn fields<const N: usize>(record: &[u8]) -> [u32; N] {
    let mut out = [0u32; N];
    for (k, field) in out.iter_mut().enumerate() {
        if let Some(bytes) = record.get(4 * k..4 * k + 4).and_then(|b| <[u8; 4]>::try_from(b).ok())
        {
            *field = u32::from_le_bytes(bytes);
        }
    }
    out
}

/// `Ok` when every named value of a record is finite; else the error
/// names the first that is not, by its field and byte (`at` is the
/// record's first byte, `record` says which record, built only then).
#[inline(always)]
fn check_finite(
    values: &[(usize, f32, &str)],
    at: usize,
    record: impl FnOnce() -> String,
) -> Result<()> {
    match values.iter().find(|(_, x, _)| !x.is_finite()) {
        Some(&(k, x, name)) => {
            Err(invalid(format!("the {name} of {} at byte {} is {x}", record(), at + 4 * k)))
        }
        None => Ok(()),
    }
}

/// Reads fields in order, each one checked against the bytes left.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize, what: &str) -> Result<&'a [u8]> {
        let left = self.bytes.len() - self.at;
        if n > left {
            return Err(invalid(format!(
                "truncated: {what} at byte {} needs {n} bytes, {left} left",
                self.at
            )));
        }
        let field = &self.bytes[self.at..self.at + n];
        self.at += n;
        Ok(field)
    }

    /// Fails unless `count` records of at least `each` bytes fit in what is
    /// left: a count is believed only as far as the bytes back it.
    fn room_for(&self, count: usize, each: usize, what: &str) -> Result<()> {
        let left = self.bytes.len() - self.at;
        if count.saturating_mul(each) > left {
            return Err(invalid(format!(
                "{count} {what} at byte {} cannot fit in the {left} bytes left",
                self.at
            )));
        }
        Ok(())
    }

    fn u32(&mut self, what: &str) -> Result<u32> {
        let b = self.take(4, what)?;
        Ok(u32::from_le_bytes(b.try_into().expect("4 bytes")))
    }

    fn f32(&mut self, what: &str) -> Result<f32> {
        Ok(f32::from_bits(self.u32(what)?))
    }

    /// A finite `f32`, named only when it is not (a
    /// model has hundreds of thousands of them: no message is built for
    /// the good ones).
    fn finite(&mut self, what: impl FnOnce() -> String) -> Result<f32> {
        let at = self.at;
        let x = self.f32("a value of a tree")?;
        if !x.is_finite() {
            return Err(invalid(format!("{} at byte {at} is {x}", what())));
        }
        Ok(x)
    }

    fn str(&mut self, what: &str) -> Result<String> {
        let len = self.u32(what)? as usize;
        let at = self.at;
        let b = self.take(len, what)?;
        String::from_utf8(b.to_vec())
            .map_err(|_| invalid(format!("{what} at byte {at} is not UTF-8")))
    }

    /// Tree `t`: its splits and leaves, checked to form one tree over
    /// features below `n_features`.
    fn tree(&mut self, t: usize, n_features: usize) -> Result<Tree> {
        let what = format!("tree {t}");
        let n_splits = self.u32(&what)? as usize;
        let n_leaves = n_splits + 1;
        let need = (n_splits as u64) * SPLIT_BYTES as u64 + (n_leaves as u64) * LEAF_BYTES as u64;
        let left = (self.bytes.len() - self.at) as u64;
        if need > left {
            return Err(invalid(format!(
                "{what} claims {n_splits} splits, {need} bytes, but {left} bytes are left"
            )));
        }
        let mut tree = Tree {
            nodes: Vec::with_capacity(n_splits),
            gain: Vec::with_capacity(n_splits),
            value: Vec::with_capacity(n_splits),
            cover: Vec::with_capacity(n_splits),
            leaf_value: Vec::with_capacity(n_leaves),
            leaf_cover: Vec::with_capacity(n_leaves),
        };
        // Every split but the root and every leaf must be some split's child
        // exactly once, and a split's children come after it: then the
        // splits form one tree, and a walk from the root always ends.
        let mut split_seen = vec![false; n_splits];
        let mut leaf_seen = vec![false; n_leaves];
        // The records are read from one slice checked above, each field at
        // a fixed offset: no bounds check per field.
        let start = self.at;
        let splits = self.take(n_splits * SPLIT_BYTES, &what)?;
        for (i, record) in splits.chunks_exact(SPLIT_BYTES).enumerate() {
            let at = start + i * SPLIT_BYTES;
            let [feature, threshold, left, right, gain, value, cover] = fields::<7>(record);
            let (threshold, left, right) = (f32::from_bits(threshold), left as i32, right as i32);
            let [gain, value, cover] = [gain, value, cover].map(f32::from_bits);
            check_finite(
                &[(4, gain, "gain"), (5, value, "value"), (6, cover, "cover")],
                at,
                || format!("split {i} of {what}"),
            )?;
            let node = Node { feature, threshold, left, right };
            if node.feature_index() >= n_features {
                return Err(invalid(format!(
                    "split {i} of {what} (byte {at}) is on feature {} of {n_features}",
                    node.feature_index()
                )));
            }
            if threshold.is_nan() {
                return Err(invalid(format!(
                    "split {i} of {what} (byte {at}) has a NaN threshold"
                )));
            }
            for child in [left, right] {
                let seen = if child < 0 {
                    leaf_seen.get_mut(!child as usize)
                } else if child as usize > i {
                    split_seen.get_mut(child as usize)
                } else {
                    None
                };
                match seen {
                    Some(seen) if !*seen => *seen = true,
                    _ => {
                        return Err(invalid(format!(
                            "split {i} of {what} (byte {at}) has child {child}: not a tree of \
                             {n_splits} splits and {n_leaves} leaves"
                        )))
                    }
                }
            }
            tree.nodes.push(node);
            tree.gain.push(gain);
            tree.value.push(value);
            tree.cover.push(cover);
        }
        if let Some(orphan) = split_seen.iter().skip(1).position(|s| !s) {
            return Err(invalid(format!("split {} of {what} is no split's child", orphan + 1)));
        }
        if n_splits > 0 {
            if let Some(orphan) = leaf_seen.iter().position(|s| !s) {
                return Err(invalid(format!("leaf {orphan} of {what} is no split's child")));
            }
        }
        let start = self.at;
        let leaves = self.take(n_leaves * LEAF_BYTES, &what)?;
        for (j, record) in leaves.chunks_exact(LEAF_BYTES).enumerate() {
            let at = start + j * LEAF_BYTES;
            let [value, cover] = fields::<2>(record).map(f32::from_bits);
            check_finite(&[(0, value, "value"), (1, cover, "cover")], at, || {
                format!("leaf {j} of {what}")
            })?;
            tree.leaf_value.push(value);
            tree.leaf_cover.push(cover);
        }
        Ok(tree)
    }
}
