//! Site templates learned through `POST /v1/templates`, by id: a bounded
//! least-recently-used store in memory, optionally backed by a folder.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use gleaner::template::TemplateModel;

/// The longest template id (ids are 16 hex digits when made here; a
/// folder may hold others written by `gleaner template learn`).
const MAX_ID_LEN: usize = 64;

/// Learned templates by id.
#[derive(Debug)]
pub struct TemplateStore {
    capacity: usize,
    dir: Option<PathBuf>,
    held: Mutex<Held>,
}

#[derive(Debug, Default)]
struct Held {
    models: HashMap<String, (Arc<TemplateModel>, u64)>,
    tick: u64,
}

/// Is `id` a template id: ASCII letters, digits, `-` and `_`, short?
/// (It names a file, so nothing else.)
pub fn valid_id(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= MAX_ID_LEN
        && id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

impl TemplateStore {
    /// A store of at most `capacity` models in memory, written to and read
    /// from `dir` when given.
    pub fn new(capacity: usize, dir: Option<PathBuf>) -> TemplateStore {
        TemplateStore { capacity: capacity.max(1), dir, held: Mutex::new(Held::default()) }
    }

    fn held(&self) -> std::sync::MutexGuard<'_, Held> {
        self.held.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Stores `model` under `id` (in the folder too, when there is one).
    ///
    /// # Errors
    /// The folder cannot be written.
    pub fn insert(&self, id: &str, model: Arc<TemplateModel>) -> std::io::Result<()> {
        if let Some(dir) = &self.dir {
            let json = model.to_json().map_err(std::io::Error::other)?;
            std::fs::create_dir_all(dir)?;
            let path = dir.join(format!("{id}.json"));
            let partial = dir.join(format!(".{id}.json.partial"));
            std::fs::write(&partial, json)?;
            std::fs::rename(&partial, path)?;
        }
        self.hold(id, model);
        Ok(())
    }

    fn hold(&self, id: &str, model: Arc<TemplateModel>) {
        let mut held = self.held();
        held.tick += 1;
        let tick = held.tick;
        if !held.models.contains_key(id) && held.models.len() >= self.capacity {
            let oldest = held.models.iter().min_by_key(|(_, (_, t))| *t).map(|(k, _)| k.clone());
            if let Some(oldest) = oldest {
                held.models.remove(&oldest);
            }
        }
        held.models.insert(id.to_string(), (model, tick));
    }

    /// The model stored under `id`: from memory, else from the folder
    /// (then held in memory).
    pub fn get(&self, id: &str) -> Option<Arc<TemplateModel>> {
        if !valid_id(id) {
            return None;
        }
        {
            let mut held = self.held();
            held.tick += 1;
            let tick = held.tick;
            if let Some((model, used)) = held.models.get_mut(id) {
                *used = tick;
                return Some(Arc::clone(model));
            }
        }
        let dir = self.dir.as_ref()?;
        let path = dir.join(format!("{id}.json"));
        let bytes = gleaner_batch::input::read_regular_file(&path, 256 << 20).ok()?;
        let model = Arc::new(TemplateModel::from_json(&bytes).ok()?);
        self.hold(id, Arc::clone(&model));
        Some(model)
    }

    /// How many models are in memory.
    pub fn len(&self) -> usize {
        self.held().models.len()
    }

    /// Whether none is.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn model(text: &str) -> Arc<TemplateModel> {
        let opts = gleaner::ParseOptions::default();
        let pages: Vec<gleaner::Document> = (0..3)
            .map(|i| {
                let html = format!("<nav>{text}</nav><p>page {i} own words</p>");
                gleaner::Document::parse_str(&html, &opts).expect("parse")
            })
            .collect();
        Arc::new(TemplateModel::learn(&pages))
    }

    #[test]
    fn the_least_recently_used_model_goes_first() {
        let store = TemplateStore::new(2, None);
        store.insert("a", model("a")).expect("insert");
        store.insert("b", model("b")).expect("insert");
        assert!(store.get("a").is_some());
        store.insert("c", model("c")).expect("insert");
        assert_eq!(store.len(), 2);
        assert!(store.get("b").is_none(), "b was used least recently");
        assert!(store.get("a").is_some() && store.get("c").is_some());
    }

    #[test]
    fn models_outlive_memory_in_the_folder() {
        let dir = tempfile::tempdir().expect("dir");
        let store = TemplateStore::new(1, Some(dir.path().to_path_buf()));
        store.insert("one", model("x")).expect("insert");
        store.insert("two", model("y")).expect("insert");
        assert!(store.get("one").is_some(), "read back from the folder");
        assert!(store.get("../one").is_none());
        assert!(TemplateStore::new(4, Some(dir.path().into())).get("two").is_some());
    }
}
