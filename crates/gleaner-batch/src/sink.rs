//! Where records go: a stream (standard output) or one file per input.

use gleaner::render::strip_controls;
use std::collections::HashSet;
use std::io::Write;
use std::path::{Path, PathBuf};

use crate::error::{Error, Result};
use crate::input::{output_path, Input};
use crate::job::{OutputFormat, Record};
use crate::run::Flow;

/// Writes records in one [`OutputFormat`], either to a stream — JSON
/// Lines one per line, JSON as one object or an array, text formats with
/// a `==> source <==` header between several — or, given a folder, to one
/// file per input mirroring the inputs' relative names.
pub struct OutputSink<W: Write> {
    dir: Option<PathBuf>,
    format: OutputFormat,
    several: bool,
    out: W,
    written: usize,
    /// Output files written so far: a second input that maps to the same
    /// name gets `-2`, `-3`, … rather than overwriting the first.
    taken: HashSet<PathBuf>,
}

impl<W: Write> OutputSink<W> {
    /// A sink writing to `out`, or to files under `dir` when given.
    /// `several` says whether more than one record will come (an array
    /// for JSON, headers for text).
    pub fn new(out: W, dir: Option<PathBuf>, format: OutputFormat, several: bool) -> OutputSink<W> {
        OutputSink { dir, format, several, out, written: 0, taken: HashSet::new() }
    }

    fn body(&self, record: &Record) -> Result<String> {
        Ok(match self.format {
            OutputFormat::Json => serde_json::to_string_pretty(record)?,
            OutputFormat::Jsonl => serde_json::to_string(record)?,
            OutputFormat::Csv => csv_row(record)?,
            text => record.printed(text).unwrap_or_default().to_string(),
        })
    }

    /// Writes one record, whole, and flushes it: a reader (or a crash)
    /// sees complete records only. A failed record — one with an
    /// `error` — is written in JSON and JSON Lines only, where it says
    /// why; the text formats print nothing for it (no header, no blank
    /// line) and write no file, since the error goes to the front end's
    /// messages. A file under the output folder is written under a
    /// temporary name and renamed into place, so that it is either
    /// absent or complete.
    ///
    /// # Errors
    /// Serialisation and write errors ([`Error::is_broken_pipe`] tells a
    /// reader that went away).
    pub fn write(&mut self, input: &Input, record: &Record) -> Result<()> {
        let structured =
            matches!(self.format, OutputFormat::Json | OutputFormat::Jsonl | OutputFormat::Csv);
        if record.error.is_some() && !structured {
            return Ok(());
        }
        let body = self.body(record)?;
        if let Some(dir) = self.dir.clone() {
            let path = self.free_path(&dir, input);
            if let Some(parent) = path.parent() {
                std::fs::create_dir_all(parent)
                    .map_err(|cause| Error::Write { path: parent.to_path_buf(), cause })?;
            }
            let body = if self.format == OutputFormat::Csv { csv_header()? + &body } else { body };
            write_atomically(&path, (body + "\n").as_bytes())
                .map_err(|cause| Error::Write { path, cause })?;
            return Ok(());
        }
        let out = &mut self.out;
        match self.format {
            OutputFormat::Jsonl => writeln!(out, "{body}")?,
            OutputFormat::Csv => {
                if self.written == 0 {
                    write!(out, "{}", csv_header()?)?;
                }
                writeln!(out, "{body}")?;
            }
            OutputFormat::Json if self.several => {
                let sep = if self.written == 0 { "[\n" } else { ",\n" };
                write!(out, "{sep}{body}")?;
            }
            OutputFormat::Json => writeln!(out, "{body}")?,
            // One XML document after another, without headers between.
            OutputFormat::Xml | OutputFormat::XmlTei => writeln!(out, "{body}")?,
            _ if self.several => {
                let sep = if self.written == 0 { "" } else { "\n" };
                writeln!(out, "{sep}==> {} <==\n{body}", strip_controls(&record.source))?;
            }
            _ => writeln!(out, "{body}")?,
        }
        self.out.flush()?;
        self.written += 1;
        Ok(())
    }

    /// The output file for `input`, not yet taken by an earlier input.
    fn free_path(&mut self, dir: &Path, input: &Input) -> PathBuf {
        let ext = self.format.extension();
        let first = output_path(dir, input, ext);
        let mut path = first.clone();
        let mut n = 1;
        while self.taken.contains(&path) {
            n += 1;
            let stem = first.file_stem().and_then(|s| s.to_str()).unwrap_or("page");
            path.set_file_name(format!("{stem}-{n}.{ext}"));
        }
        self.taken.insert(path.clone());
        path
    }

    /// Closes a JSON array (or writes the header of a CSV without rows)
    /// and flushes.
    ///
    /// # Errors
    /// Write errors.
    pub fn finish(&mut self) -> Result<()> {
        if self.dir.is_none() && self.format == OutputFormat::Csv && self.written == 0 {
            write!(self.out, "{}", csv_header()?)?;
        }
        if self.dir.is_none() && self.format == OutputFormat::Json && self.several {
            if self.written == 0 {
                write!(self.out, "[")?;
            }
            writeln!(self.out, "\n]")?;
        }
        self.out.flush()?;
        Ok(())
    }
}

/// Records written in order; a reader that went away stops the batch.
impl<W: Write> crate::engine::Sink<Input> for OutputSink<W> {
    fn write(&mut self, tag: Option<Input>, record: Option<Record>) -> Result<Flow> {
        let Some(record) = record else { return Ok(Flow::Continue) };
        let input = tag.unwrap_or_else(|| Input::from_bytes(record.source.clone(), Vec::new()));
        match OutputSink::write(self, &input, &record) {
            Err(e) if e.is_broken_pipe() => Ok(Flow::Stop),
            other => other.map(|()| Flow::Continue),
        }
    }
}

/// Writes `bytes` to a temporary file beside `path` and renames it to
/// `path`: rename within a folder is atomic, so `path` is never seen half
/// written. The temporary file is removed when writing fails.
///
/// Deviation: no `fsync`; after a power loss a file may be empty. Syncing
/// every output file would cost a disk round trip per page.
fn write_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let mut name = std::ffi::OsString::from(".");
    name.push(path.file_name().unwrap_or_default());
    name.push(format!(".{}.tmp", std::process::id()));
    let temp = path.with_file_name(name);
    let written = std::fs::write(&temp, bytes).and_then(|()| std::fs::rename(&temp, path));
    if written.is_err() {
        let _ = std::fs::remove_file(&temp);
    }
    written
}

/// A CSV line (RFC 4180 quoting, CRLF-free: a cell's line breaks stay
/// inside its quotes), without the line end.
fn csv_line<'a>(cells: impl IntoIterator<Item = &'a str>) -> Result<String> {
    let mut w =
        csv::WriterBuilder::new().terminator(csv::Terminator::Any(b'\n')).from_writer(Vec::new());
    w.write_record(cells).map_err(|e| Error::Csv(e.to_string()))?;
    let bytes = w.into_inner().map_err(|e| Error::Csv(e.to_string()))?;
    let mut line = String::from_utf8_lossy(&bytes).into_owned();
    if line.ends_with('\n') {
        line.pop();
    }
    Ok(line)
}

/// The header row of [`OutputFormat::Csv`], with its line end.
fn csv_header() -> Result<String> {
    Ok(csv_line(crate::job::CSV_COLUMNS.iter().copied())? + "\n")
}

/// A record as a CSV row of [`CSV_COLUMNS`](crate::job::CSV_COLUMNS).
fn csv_row(record: &Record) -> Result<String> {
    // Through the JSON text, so numbers read as JSON Lines writes them
    // (an `f32` by its shortest form, not widened to `f64`).
    let value: serde_json::Value = serde_json::from_str(&serde_json::to_string(record)?)?;
    let cells: Vec<String> = crate::job::CSV_COLUMNS
        .iter()
        .map(|&column| match value.get(column) {
            None | Some(serde_json::Value::Null) => String::new(),
            Some(serde_json::Value::String(s)) => s.clone(),
            Some(other) => other.to_string(),
        })
        .collect();
    csv_line(cells.iter().map(String::as_str))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(source: &str, text: &str) -> Record {
        let job = crate::Job::new(
            gleaner::extract::by_name("plain").expect("plain"),
            "plain",
            OutputFormat::Json,
        );
        let mut r = job.record_for_bytes(source, format!("<p>{text}</p>").as_bytes());
        r.title = None;
        r
    }

    #[test]
    fn json_arrays_and_text_headers_for_several_records() {
        let (a, b) = (Input::from_bytes("a", vec![]), Input::from_bytes("b", vec![]));
        let mut sink = OutputSink::new(Vec::new(), None, OutputFormat::Json, true);
        sink.write(&a, &record("a", "one")).expect("write");
        sink.write(&b, &record("b", "two")).expect("write");
        sink.finish().expect("finish");
        let json: serde_json::Value = serde_json::from_slice(&sink.out).expect("valid JSON");
        assert_eq!(json[1]["text"], "two");
        let mut sink = OutputSink::new(Vec::new(), None, OutputFormat::Txt, true);
        sink.write(&a, &record("a", "one")).expect("write");
        sink.write(&b, &record("b", "two")).expect("write");
        assert_eq!(String::from_utf8_lossy(&sink.out), "==> a <==\none\n\n==> b <==\ntwo\n");
    }

    #[test]
    fn an_empty_json_batch_is_an_empty_array() {
        let mut sink = OutputSink::new(Vec::new(), None, OutputFormat::Json, true);
        sink.finish().expect("finish");
        assert_eq!(String::from_utf8_lossy(&sink.out), "[\n]\n");
    }

    #[test]
    fn colliding_output_names_get_numbers() {
        let dir = tempfile::tempdir().expect("tempdir");
        let mut sink =
            OutputSink::new(Vec::new(), Some(dir.path().to_path_buf()), OutputFormat::Txt, true);
        let a = Input::from_bytes("x/page.html", vec![]);
        let b = Input::from_bytes("x/page.htm", vec![]);
        sink.write(&a, &record("a", "one")).expect("write");
        sink.write(&b, &record("b", "two")).expect("write");
        let read =
            |name: &str| std::fs::read_to_string(dir.path().join("x").join(name)).expect("written");
        assert_eq!((read("page.txt"), read("page-2.txt")), ("one\n".into(), "two\n".into()));
    }

    // See: issue 13, defect 9.
    #[test]
    fn issue_13_a_failed_record_prints_nothing_in_text_and_writes_no_text_file() {
        let mut failed = record("bad", "");
        failed.error = Some("input is not HTML: it looks like a PNG image".into());
        let (bad, good) =
            (Input::from_bytes("x/bad.html", vec![]), Input::from_bytes("x/ok.html", vec![]));
        for several in [false, true] {
            let mut sink = OutputSink::new(Vec::new(), None, OutputFormat::Txt, several);
            sink.write(&bad, &failed).expect("write");
            sink.finish().expect("finish");
            assert_eq!(sink.out, b"", "no blank line for a failed input");
        }
        let mut sink = OutputSink::new(Vec::new(), None, OutputFormat::Markdown, true);
        sink.write(&bad, &failed).expect("write");
        sink.write(&good, &record("ok", "one")).expect("write");
        assert_eq!(String::from_utf8_lossy(&sink.out), "==> ok <==\n\n");
        let dir = tempfile::tempdir().expect("tempdir");
        let out = dir.path().to_path_buf();
        let mut sink = OutputSink::new(Vec::new(), Some(out.clone()), OutputFormat::Txt, true);
        sink.write(&bad, &failed).expect("write");
        sink.write(&good, &record("ok", "one")).expect("write");
        let mut sink = OutputSink::new(Vec::new(), Some(out), OutputFormat::Jsonl, true);
        sink.write(&bad, &failed).expect("write");
        let mut names: Vec<String> = std::fs::read_dir(dir.path().join("x"))
            .expect("read dir")
            .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        assert_eq!(names, ["bad.jsonl", "ok.txt"], "no temporary files left either");
        let jsonl = std::fs::read_to_string(dir.path().join("x/bad.jsonl")).expect("read");
        assert!(jsonl.contains("it looks like a PNG image"), "{jsonl}");
    }
}
