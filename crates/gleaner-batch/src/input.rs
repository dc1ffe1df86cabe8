//! Where pages come from: files, standard input, directories, bytes in
//! memory; and reading them with a size limit and transparent gzip.

use std::io::Read;
use std::path::{Component, Path, PathBuf};

use crate::error::{Error, Result};

/// One input of a batch.
#[derive(Debug, Clone)]
pub struct Input {
    /// How the input is named in output: the path as given, or `-`.
    pub source: String,
    /// Where its bytes are.
    pub origin: Origin,
    /// The relative name used under `-o DIR` (extension included).
    pub relative: PathBuf,
}

/// Where an input's bytes are.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub enum Origin {
    /// Standard input.
    Stdin,
    /// A file.
    File(PathBuf),
    /// Bytes already read (a fetched page, an archive record).
    Bytes(Vec<u8>),
}

impl Input {
    /// An input from bytes in memory, named `source` in its record.
    pub fn from_bytes(source: impl Into<String>, bytes: Vec<u8>) -> Input {
        let source = source.into();
        let relative = relative_name(Path::new(&source));
        Input { source, origin: Origin::Bytes(bytes), relative }
    }

    /// The file this input reads, if it is one.
    pub fn path(&self) -> Option<&Path> {
        match &self.origin {
            Origin::File(p) => Some(p),
            _ => None,
        }
    }
}

/// Extensions of page files, without `.gz`.
const PAGE_EXTENSIONS: &[&str] = &["html", "htm", "xhtml"];

/// Is this a page file by its name (`a.html`, `a.htm.gz`, …)? Names that
/// are not UTF-8 are judged by their lossy form, so that such a file is
/// read (and named lossily in its record) rather than dropped.
pub fn is_page_file(path: &Path) -> bool {
    let name =
        path.file_name().map(|n| n.to_string_lossy().to_ascii_lowercase()).unwrap_or_default();
    let name = name.strip_suffix(".gz").unwrap_or(&name);
    PAGE_EXTENSIONS
        .iter()
        .any(|ext| name.len() > ext.len() + 1 && name.ends_with(&format!(".{ext}")))
}

/// Collects the inputs: explicit files (and `-`) first, in the given order,
/// then each directory's page files in sorted order. A subdirectory that
/// cannot be read is skipped and handed to `skipped` (the front end says
/// so); the walk goes on.
///
/// # Errors
/// A directory given in `dirs` that cannot be read, or `-` given twice.
pub fn collect(
    files: &[PathBuf],
    dirs: &[PathBuf],
    skipped: &mut dyn FnMut(Error),
) -> Result<Vec<Input>> {
    let mut inputs = Vec::new();
    let mut stdin_seen = false;
    for f in files {
        if f.as_os_str() == "-" {
            if stdin_seen {
                return Err(Error::StdinTwice);
            }
            stdin_seen = true;
            inputs.push(Input {
                source: "-".into(),
                origin: Origin::Stdin,
                relative: "stdin".into(),
            });
        } else {
            inputs.push(Input {
                source: f.display().to_string(),
                origin: Origin::File(f.clone()),
                relative: relative_name(f),
            });
        }
    }
    for dir in dirs {
        let mut found = Vec::new();
        walk(dir, &mut found, skipped)
            .map_err(|cause| Error::Directory { path: dir.clone(), cause })?;
        found.sort();
        for path in found {
            let rel = path
                .strip_prefix(dir)
                .map(Path::to_path_buf)
                .unwrap_or_else(|_| relative_name(&path));
            inputs.push(Input {
                source: path.display().to_string(),
                relative: rel,
                origin: Origin::File(path),
            });
        }
    }
    Ok(inputs)
}

/// Recursive directory walk with an explicit stack (no recursion limit
/// on deep trees); symlinked directories are not followed.
fn walk(
    root: &Path,
    out: &mut Vec<PathBuf>,
    skipped: &mut dyn FnMut(Error),
) -> std::io::Result<()> {
    let mut stack = vec![root.to_path_buf()];
    let mut first = true;
    while let Some(dir) = stack.pop() {
        let entries = match std::fs::read_dir(&dir) {
            Ok(e) => e,
            Err(e) if first => return Err(e),
            Err(cause) => {
                skipped(Error::Directory { path: dir, cause });
                continue;
            }
        };
        first = false;
        for entry in entries.flatten() {
            let path = entry.path();
            let Ok(kind) = entry.file_type() else { continue };
            if kind.is_dir() {
                stack.push(path);
            } else if (kind.is_file() || kind.is_symlink()) && is_page_file(&path) {
                out.push(path);
            }
        }
    }
    Ok(())
}

/// A safe relative name for `-o`: absolute paths keep their file name,
/// relative ones their normal components (no `..` escapes the output
/// directory).
fn relative_name(path: &Path) -> PathBuf {
    if path.is_absolute() {
        return path.file_name().map(PathBuf::from).unwrap_or_else(|| "page".into());
    }
    let rel: PathBuf = path
        .components()
        .filter_map(|c| match c {
            Component::Normal(s) => Some(s),
            _ => None,
        })
        .collect();
    if rel.as_os_str().is_empty() {
        "page".into()
    } else {
        rel
    }
}

/// The output path under `dir` for an input: its relative name with the
/// page extension (and `.gz`) replaced by `ext`.
pub fn output_path(dir: &Path, input: &Input, ext: &str) -> PathBuf {
    let mut rel = input.relative.clone();
    if rel.extension().is_some_and(|e| e.eq_ignore_ascii_case("gz")) {
        rel.set_extension("");
    }
    if rel.extension().is_some_and(|e| PAGE_EXTENSIONS.iter().any(|p| e.eq_ignore_ascii_case(p))) {
        rel.set_extension(ext);
    } else {
        let mut name = rel.into_os_string();
        name.push(".");
        name.push(ext);
        rel = PathBuf::from(name);
    }
    dir.join(rel)
}

/// Reads an input, decompressing gzip (by magic bytes, whatever the name).
/// Reads stop one byte past `max_bytes`, so that an oversized input is
/// seen as such by [`gleaner::Document::parse`] without being read whole;
/// a regular file larger than the limit is refused before reading.
///
/// # Errors
/// I/O errors, [`gleaner::Error::TooLarge`], and gzip streams that do not
/// decompress.
pub fn read(input: &Input, max_bytes: usize) -> Result<Vec<u8>> {
    let raw = match &input.origin {
        Origin::Bytes(b) => return gunzip(b.clone(), max_bytes),
        Origin::Stdin => {
            let mut buf = Vec::new();
            std::io::stdin().lock().take(max_bytes as u64 + 1).read_to_end(&mut buf)?;
            if buf.len() > max_bytes {
                // Standard input redirected from a file has a known size.
                if let Some(size) = stdin_file_size() {
                    return Err(gleaner::Error::TooLarge { size, limit: max_bytes }.into());
                }
            }
            buf
        }
        Origin::File(p) => return read_path(p, max_bytes),
    };
    gunzip(raw, max_bytes)
}

/// Reads a page file as [`read`] does: a regular file only, at most
/// `max_bytes` bytes, decompressed (up to `max_bytes`) when it starts with
/// gzip's magic bytes, whatever its name. Other readers of page files
/// (the evaluation's datasets) use it so that every limit holds alike.
///
/// # Errors
/// As [`read_regular_file`], and gzip streams that do not decompress or
/// decompress past the limit.
pub fn read_path(path: &Path, max_bytes: usize) -> Result<Vec<u8>> {
    gunzip(read_regular_file(path, max_bytes)?, max_bytes)
}

/// Reads a regular file of at most `max_bytes` bytes. Anything else — a
/// FIFO, a device, a socket, a directory, also behind a symlink — is
/// refused from its metadata before it is opened: opening a FIFO blocks
/// until a writer comes, and a device may never end. A regular file
/// larger than the limit is refused before reading, with its real size.
///
/// # Errors
/// [`Error::NotRegularFile`], [`gleaner::Error::TooLarge`] and I/O errors.
pub fn read_regular_file(path: &Path, max_bytes: usize) -> Result<Vec<u8>> {
    // Step 1: `metadata` follows symlinks, so a link to a FIFO is a FIFO.
    let meta = std::fs::metadata(path)?;
    regular(path, &meta, max_bytes)?;
    let file = std::fs::File::open(path)?;
    // Step 2: the same checks on what was opened, in case the name was
    // replaced in between.
    let opened = file.metadata()?;
    regular(path, &opened, max_bytes)?;
    // Sized from the file (checked within the limit above), plus one byte
    // so that the end is found without growing the buffer.
    let size = usize::try_from(opened.len()).unwrap_or(max_bytes).min(max_bytes);
    let mut buf = Vec::with_capacity(size.saturating_add(1));
    file.take(max_bytes as u64 + 1).read_to_end(&mut buf)?;
    Ok(buf)
}

/// Reads the template model at `path` (written by `gleaner template
/// learn` or the Python package's `Template.save`). The file must be a
/// regular file of at most [`gleaner::template::MAX_MODEL_BYTES`]: that
/// is checked from its metadata before it is opened and again on what
/// was opened, so `/dev/zero`, a FIFO or a huge file fail at once
/// instead of growing a buffer, and at most one byte past the limit is
/// ever read.
///
/// # Errors
/// [`Error::Io`] when the file cannot be read; [`Error::Model`] when it
/// is not a regular file, is too large, or is not a model.
pub fn read_model(path: &Path) -> Result<gleaner::template::TemplateModel> {
    use gleaner::template::MAX_MODEL_BYTES;
    let refuse = |reason: String| Error::Model { path: path.to_path_buf(), reason };
    let check = |meta: &std::fs::Metadata| {
        if !meta.is_file() {
            return Err(refuse(format!("it is {}, not a regular file", file_kind(meta))));
        }
        if meta.len() > MAX_MODEL_BYTES as u64 {
            return Err(refuse(format!(
                "it is {} bytes, more than the {} MiB a model may be",
                meta.len(),
                MAX_MODEL_BYTES >> 20
            )));
        }
        Ok(())
    };
    check(&std::fs::metadata(path)?)?;
    let file = std::fs::File::open(path)?;
    let opened = file.metadata()?;
    check(&opened)?;
    let size = usize::try_from(opened.len()).unwrap_or(MAX_MODEL_BYTES).min(MAX_MODEL_BYTES);
    let mut bytes = Vec::with_capacity(size.saturating_add(1));
    file.take(MAX_MODEL_BYTES as u64 + 1).read_to_end(&mut bytes)?;
    gleaner::template::TemplateModel::from_json(&bytes).map_err(|e| refuse(e.to_string()))
}

/// `Ok` for a regular file within the limit.
fn regular(path: &Path, meta: &std::fs::Metadata, max_bytes: usize) -> Result<()> {
    if !meta.is_file() {
        return Err(Error::NotRegularFile { path: path.to_path_buf(), kind: file_kind(meta) });
    }
    if meta.len() > max_bytes as u64 {
        let size = usize::try_from(meta.len()).unwrap_or(usize::MAX);
        return Err(gleaner::Error::TooLarge { size, limit: max_bytes }.into());
    }
    Ok(())
}

/// The size of standard input when it is a regular file (`< page.html`).
fn stdin_file_size() -> Option<usize> {
    let meta = std::fs::metadata("/dev/stdin").ok()?;
    meta.is_file().then(|| usize::try_from(meta.len()).unwrap_or(usize::MAX))
}

/// What a file that is not a regular file is, for messages.
fn file_kind(meta: &std::fs::Metadata) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        let t = meta.file_type();
        if t.is_fifo() {
            return "a FIFO";
        } else if t.is_char_device() || t.is_block_device() {
            return "a device";
        } else if t.is_socket() {
            return "a socket";
        }
    }
    if meta.is_dir() {
        "a directory"
    } else {
        "not a file"
    }
}

/// `bytes`, or [`Error::TooLarge`] when the read went past the limit.
fn within(bytes: Vec<u8>, max_bytes: usize) -> Result<Vec<u8>> {
    if bytes.len() > max_bytes {
        Err(Error::TooLarge { limit: max_bytes })
    } else {
        Ok(bytes)
    }
}

/// `raw` decompressed when it starts with gzip's magic bytes (up to one
/// byte past `max_bytes`), else `raw` itself.
fn gunzip(raw: Vec<u8>, max_bytes: usize) -> Result<Vec<u8>> {
    if !raw.starts_with(&[0x1f, 0x8b]) {
        return within(raw, max_bytes);
    }
    let mut out = Vec::new();
    flate2::read::MultiGzDecoder::new(raw.as_slice())
        .take(max_bytes as u64 + 1)
        .read_to_end(&mut out)
        .map_err(Error::Gzip)?;
    within(out, max_bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn page_files_by_extension() {
        assert!(is_page_file(Path::new("a/b.HTML")));
        assert!(is_page_file(Path::new("x.htm.gz")));
        assert!(!is_page_file(Path::new("x.txt")));
        assert!(!is_page_file(Path::new(".html")));
    }

    #[test]
    fn output_names_mirror_inputs() {
        let input = Input {
            source: "../x/y/page.html.gz".into(),
            origin: Origin::Stdin,
            relative: relative_name(Path::new("../x/y/page.html.gz")),
        };
        assert_eq!(output_path(Path::new("out"), &input, "txt"), Path::new("out/x/y/page.txt"));
        let stdin = Input { source: "-".into(), origin: Origin::Stdin, relative: "stdin".into() };
        assert_eq!(output_path(Path::new("o"), &stdin, "json"), Path::new("o/stdin.json"));
    }

    /// Reads `input` on a thread, giving up after a few seconds (a read
    /// that blocks is a failed test, not a hung one).
    fn read_in_time(input: &Input) -> Result<Vec<u8>> {
        let (tx, rx) = std::sync::mpsc::channel();
        let input = input.clone();
        std::thread::spawn(move || {
            let _ = tx.send(read(&input, 1 << 20));
        });
        rx.recv_timeout(std::time::Duration::from_secs(5)).expect("read did not block")
    }

    // See: issue 13, defect 5.
    #[cfg(unix)]
    #[test]
    fn issue_13_fifos_and_devices_are_never_opened() {
        let dir = tempfile::tempdir().expect("tempdir");
        let fifo = dir.path().join("pipe");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status().expect("mkfifo");
        assert!(made.success());
        std::os::unix::fs::symlink(&fifo, dir.path().join("a.html")).expect("symlink");
        std::os::unix::fs::symlink("/dev/zero", dir.path().join("b.html")).expect("symlink");
        std::fs::write(dir.path().join("c.html"), "<p>c</p>").expect("write");
        let inputs =
            collect(&[], &[dir.path().to_path_buf()], &mut |e| panic!("{e}")).expect("collect");
        let names: Vec<_> = inputs.iter().map(|i| i.relative.clone()).collect();
        assert_eq!(names, [Path::new("a.html"), Path::new("b.html"), Path::new("c.html")]);
        for (input, kind) in inputs.iter().zip(["a FIFO", "a device"]) {
            let error = read_in_time(input).expect_err("not a regular file").to_string();
            assert!(error.starts_with(&format!("not a regular file: it is {kind}")), "{error}");
        }
        assert_eq!(read_in_time(&inputs[2]).expect("a regular file"), b"<p>c</p>");
    }

    // See: issue 13, defect 5.
    #[cfg(unix)]
    #[test]
    fn issue_13_names_that_are_not_utf8_are_read() {
        use std::os::unix::ffi::OsStrExt;
        let dir = tempfile::tempdir().expect("tempdir");
        let name = std::ffi::OsStr::from_bytes(b"caf\xe9.html");
        std::fs::write(dir.path().join(name), "<p>x</p>").expect("write");
        let inputs =
            collect(&[], &[dir.path().to_path_buf()], &mut |e| panic!("{e}")).expect("collect");
        assert_eq!(inputs.len(), 1, "the page is not dropped");
        assert!(inputs[0].source.ends_with("caf\u{fffd}.html"), "{}", inputs[0].source);
        assert_eq!(read_in_time(&inputs[0]).expect("read"), b"<p>x</p>");
    }
}
