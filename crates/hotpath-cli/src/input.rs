//! Reading report files with bounded cost: only regular files (a FIFO would block
//! forever, `/dev/zero` never ends), no larger than `--max-input-mb`, parsed as they
//! stream from the file into the typed model, never held as text or as a JSON tree.

use std::fmt;
use std::fs::File;
use std::io::{self, BufReader, Read};
use std::path::Path;

use hotpath_model::{Report, ReportError, SCHEMA_VERSION};
use serde::de::{Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};

/// The default of `--max-input-mb`.
pub(crate) const DEFAULT_MAX_INPUT_MB: u64 = 64;

/// `--max-input-mb`, shared by `report` and `compare`.
#[derive(clap::Args, Clone, Copy, Debug)]
pub(crate) struct InputArgs {
    /// Largest report file read, in MiB (1 MiB = 1,048,576 bytes): a bigger file is refused
    /// before it is read. Parsing takes about twice the file's size in memory.
    #[arg(long, value_name = "MB", default_value_t = DEFAULT_MAX_INPUT_MB,
          value_parser = clap::value_parser!(u64).range(1..=1_048_576))]
    pub(crate) max_input_mb: u64,
}

impl InputArgs {
    pub(crate) fn max_bytes(self) -> u64 {
        self.max_input_mb * 1024 * 1024
    }
}

impl Default for InputArgs {
    fn default() -> Self {
        Self { max_input_mb: DEFAULT_MAX_INPUT_MB }
    }
}

/// Opens `path` for reading at most `max` bytes: a regular file within the limit.
pub(crate) fn open(path: &Path, max: u64) -> anyhow::Result<impl Read> {
    // Checked before opening: opening a FIFO for reading waits for a writer.
    let meta = std::fs::metadata(path)?;
    check(&meta, max)?;
    let file = File::open(path)?;
    // Checked again on what was opened, in case the path changed in between.
    check(&file.metadata()?, max)?;
    Ok(BufReader::with_capacity(64 * 1024, Capped { file, left: max }))
}

fn check(meta: &std::fs::Metadata, max: u64) -> anyhow::Result<()> {
    if !meta.is_file() {
        anyhow::bail!("not a regular file ({}): reports are read from regular files only", file_type(meta));
    }
    if meta.len() > max {
        anyhow::bail!(
            "the file is {:.1} MiB, over the {} MiB input limit (--max-input-mb raises it)",
            meta.len() as f64 / 1_048_576.0,
            max / 1_048_576
        );
    }
    Ok(())
}

fn file_type(meta: &std::fs::Metadata) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    let t = meta.file_type();
    match () {
        _ if t.is_dir() => "a directory",
        _ if t.is_fifo() => "a named pipe",
        _ if t.is_char_device() => "a character device",
        _ if t.is_block_device() => "a block device",
        _ if t.is_socket() => "a socket",
        _ => "not a file",
    }
}

/// A file that fails rather than read past `left` bytes (it grew after the size check).
struct Capped {
    file: File,
    left: u64,
}

impl Read for Capped {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.file.read(buf)?;
        self.left = self.left.checked_sub(n as u64).ok_or_else(|| {
            io::Error::new(
                io::ErrorKind::FileTooLarge,
                "the file grew past the input limit (--max-input-mb) while read",
            )
        })?;
        Ok(n)
    }
}

/// Why a report file could not be read.
#[derive(Debug)]
pub(crate) enum ReadError {
    /// Not opened: missing, not a regular file, too large.
    Open(anyhow::Error),
    /// Opened but not a valid report.
    Report(ReportError),
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Open(e) => write!(f, "{e:#}"),
            Self::Report(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for ReadError {}

impl ReadError {
    /// The error as one line naming the file as `what`: `cannot read base report
    /// a.json: not a regular file (a named pipe)`, `base report a.json: not a valid ...`.
    pub(crate) fn named(self, what: &str) -> anyhow::Error {
        match self {
            Self::Open(e) => e.context(format!("cannot read {what}")),
            Self::Report(e) => anyhow::Error::new(e).context(what.to_string()),
        }
    }
}

/// Reads and validates the report at `path`, streaming it into the typed model.
/// The schema version decides the error: a report of another version is named as
/// such, whatever its shape.
pub(crate) fn read_report(path: &Path, max: u64) -> Result<Report, ReadError> {
    let reader = open(path, max).map_err(ReadError::Open)?;
    let parsed: Result<Report, _> = serde_json::from_reader(reader);
    let version = |found: u32| ReportError::Version { found: u64::from(found), expected: SCHEMA_VERSION };
    match parsed {
        Ok(report) if report.schema_version == SCHEMA_VERSION => Ok(report),
        Ok(report) => Err(ReadError::Report(version(report.schema_version))),
        // A shape error may come from another version: read again for the version alone.
        Err(e) if e.is_data() => match read_version(path, max) {
            Ok(Some(v)) if v != u64::from(SCHEMA_VERSION) => {
                Err(ReadError::Report(ReportError::Version { found: v, expected: SCHEMA_VERSION }))
            }
            Ok(None) => Err(ReadError::Report(ReportError::MissingVersion)),
            _ => Err(ReadError::Report(ReportError::Json(e))),
        },
        Err(e) if e.is_io() => Err(ReadError::Open(e.into())),
        Err(e) => Err(ReadError::Report(ReportError::Json(e))),
    }
}

/// The top-level `schema_version` of the file, without keeping anything else.
fn read_version(path: &Path, max: u64) -> anyhow::Result<Option<u64>> {
    let reader = open(path, max)?;
    let mut de = serde_json::Deserializer::from_reader(reader);
    Ok(de.deserialize_any(VersionVisitor)?)
}

struct VersionVisitor;

impl<'de> Visitor<'de> for VersionVisitor {
    type Value = Option<u64>;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON report")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut version = None;
        while let Some(key) = map.next_key::<String>()? {
            if key == "schema_version" {
                version = map.next_value::<serde_json::Value>()?.as_u64();
            } else {
                map.next_value::<IgnoredAny>()?;
            }
        }
        Ok(version)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(None)
    }
    fn visit_u64<E>(self, _: u64) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_i64<E>(self, _: i64) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_f64<E>(self, _: f64) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_str<E>(self, _: &str) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_bool<E>(self, _: bool) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_unit<E>(self) -> Result<Self::Value, E> {
        Ok(None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(dir: &Path, name: &str, text: &str) -> std::path::PathBuf {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        path
    }

    #[test]
    fn refuses_what_is_no_regular_file_or_too_big() {
        let dir = tempfile::tempdir().unwrap();
        let err = open(dir.path(), 1 << 20).err().unwrap().to_string();
        assert!(err.contains("not a regular file (a directory)"), "{err}");
        let err = open(Path::new("/dev/zero"), 1 << 20).err().unwrap().to_string();
        assert!(err.contains("(a character device)"), "{err}");
        let big = write(dir.path(), "big.json", &" ".repeat(3 << 20));
        let err = open(&big, 2 << 20).err().unwrap().to_string();
        assert!(err.contains("3.0 MiB, over the 2 MiB input limit (--max-input-mb raises it)"), "{err}");
    }

    #[test]
    fn versions_are_named_before_shapes() {
        let dir = tempfile::tempdir().unwrap();
        let future = write(dir.path(), "f.json", r#"{"meta": 5, "schema_version": 7}"#);
        let err = read_report(&future, 1 << 20).unwrap_err().to_string();
        assert_eq!(err, "report has schema_version 7, this hotpath reads version 1");
        for text in [r#"{"name": "x"}"#, "[1, 2]", "3"] {
            let other = write(dir.path(), "o.json", text);
            let err = read_report(&other, 1 << 20).unwrap_err().to_string();
            assert_eq!(err, "not a hotpath JSON report: no schema_version field", "{text}");
        }
        let cut = write(dir.path(), "c.json", r#"{"schema_version": 1, "meta": {"#);
        let err = read_report(&cut, 1 << 20).unwrap_err().to_string();
        assert!(err.starts_with("not a valid hotpath JSON report: EOF"), "{err}");
    }
}
