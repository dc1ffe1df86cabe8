//! A local folder served as a site: the URL `base + a/b.html` is the file
//! `root/a/b.html`, and `a/` (or a folder `a`) is `root/a/index.html`.

use std::path::{Component, Path, PathBuf};

use url::Url;

use crate::urls::{clean_url, same_site};
use crate::{CrawlError, Fetched, PageSource, Redirect};
use gleaner_warc::sniff::{check_body, check_type};

/// Pages from a folder, as a static web server would serve them.
#[derive(Debug, Clone)]
pub struct DirSource {
    root: PathBuf,
    base: Url,
    max_bytes: u64,
}

/// The content type a static server gives a file, by its extension.
fn content_type_of(path: &Path) -> Option<&'static str> {
    let ext = path.extension()?.to_str()?.to_ascii_lowercase();
    Some(match ext.as_str() {
        "html" | "htm" => "text/html",
        "xhtml" => "application/xhtml+xml",
        "txt" | "md" | "rst" => "text/plain",
        "css" => "text/css",
        "js" => "text/javascript",
        "json" => "application/json",
        "xml" => "application/xml",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "gif" => "image/gif",
        "pdf" => "application/pdf",
        "yml" | "yaml" => "application/yaml",
        _ => return None,
    })
}

impl DirSource {
    /// Serves folder `root` at URL `base` (a trailing `/` is added to its
    /// path when missing). Bodies larger than 10 MiB are refused.
    pub fn new(root: impl Into<PathBuf>, base: &Url) -> DirSource {
        let mut base = clean_url(base);
        base.set_query(None);
        if !base.path().ends_with('/') {
            let path = format!("{}/", base.path());
            base.set_path(&path);
        }
        DirSource { root: root.into(), base, max_bytes: 10 << 20 }
    }

    /// Sets the largest file served; larger ones are [`CrawlError::TooLarge`].
    pub fn max_bytes(mut self, bytes: u64) -> DirSource {
        self.max_bytes = bytes;
        self
    }

    /// The URL the folder is served at.
    pub fn base(&self) -> &Url {
        &self.base
    }

    /// The file behind `url` relative to the root, or why there is none.
    fn relative_path(&self, url: &Url) -> Result<PathBuf, CrawlError> {
        if !same_site(&self.base, url) {
            return Err(CrawlError::OffSite(url.clone()));
        }
        let rest = url.path().strip_prefix(self.base.path()).ok_or(CrawlError::NotFound)?;
        let mut path = PathBuf::new();
        for segment in rest.split('/').filter(|s| !s.is_empty()) {
            let decoded = percent_encoding::percent_decode_str(segment)
                .decode_utf8()
                .map_err(|_| CrawlError::NotFound)?;
            let mut parts = Path::new(decoded.as_ref()).components();
            match (parts.next(), parts.next()) {
                (Some(Component::Normal(part)), None) => path.push(part),
                _ => return Err(CrawlError::NotFound),
            }
        }
        Ok(path)
    }
}

impl PageSource for DirSource {
    fn fetch(&self, url: &Url) -> Result<Fetched, CrawlError> {
        if !matches!(url.scheme(), "http" | "https") {
            return Err(CrawlError::UnsupportedScheme(url.scheme().to_string()));
        }
        let mut url = clean_url(url);
        let mut file = self.root.join(self.relative_path(&url)?);
        let mut redirects = Vec::new();
        if url.path().ends_with('/') {
            file.push("index.html");
        } else if file.is_dir() {
            let mut to = url.clone();
            to.set_path(&format!("{}/", url.path()));
            redirects.push(Redirect { from: url, status: 301, to: to.clone() });
            url = to;
            file.push("index.html");
        }
        let meta = match std::fs::metadata(&file) {
            Ok(m) if m.is_file() => m,
            Ok(_) => return Err(CrawlError::NotFound),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Err(CrawlError::NotFound),
            Err(e) => return Err(e.into()),
        };
        let content_type = content_type_of(&file);
        let declared_html = check_type(content_type)?;
        if meta.len() > self.max_bytes {
            return Err(CrawlError::TooLarge { limit: self.max_bytes });
        }
        let body = std::fs::read(&file)?;
        check_body(declared_html, &body)?;
        let mut headers = vec![("content-length".to_string(), body.len().to_string())];
        if let Some(ct) = content_type {
            headers.insert(0, ("content-type".to_string(), ct.to_string()));
        }
        Ok(Fetched {
            url,
            status: 200,
            content_type: content_type.map(str::to_string),
            charset: None,
            headers,
            redirects,
            body,
            encoded_body: None,
            remote_ip: None,
        })
    }
}
