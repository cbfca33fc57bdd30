//! `HOTPATH_MERGE_REPORT=<native.json>`: a Callgrind run adds its instruction counts
//! to the JSON report of a native run of the same program, so that one report has
//! both timings (native) and exact instruction counts (Callgrind).

use std::io::Read;
use std::path::Path;

use hotpath_model::Report;

/// Larger native reports are refused before they are read: the merge runs in the
/// profiled process, at its exit.
const MAX_BYTES: u64 = 32 << 20;

/// Replaces `report` with the native report at `path` plus this run's
/// `functions_icount`. On error `report` is unchanged and the error says why.
pub(crate) fn merge(report: &mut Report, path: &Path) -> Result<(), String> {
    let shown = path.display();
    match &report.functions_icount {
        Some(s) if s.note.is_none() => {}
        Some(s) => return Err(format!("this run has no instruction counts ({})", s.note.as_deref().unwrap_or(""))),
        None => return Err("this run has no instruction counts".into()),
    }
    let text = read_bounded(path).map_err(|e| format!("cannot read {shown}: {e}"))?;
    let mut native = Report::from_json(&text).map_err(|e| format!("{shown}: {e}"))?;
    if native.meta.caller != report.meta.caller {
        return Err(format!("{shown} is a report of {}, this run profiles {}", native.meta.caller, report.meta.caller));
    }
    if native.meta.hotpath_version != report.meta.hotpath_version {
        return Err(format!(
            "{shown} was written by hotpath {}, this run is hotpath {}",
            native.meta.hotpath_version, report.meta.hotpath_version
        ));
    }
    native.functions_icount = report.functions_icount.take();
    *report = native;
    Ok(())
}

/// The CLI's input checks, in the engine: the file type and size come first (opening a
/// FIFO for reading waits for a writer), are checked again on what was opened, and the
/// read stops past the bound (a file that grew in between).
fn read_bounded(path: &Path) -> std::io::Result<String> {
    check(&std::fs::metadata(path)?)?;
    let file = open_nonblocking(path)?;
    check(&file.metadata()?)?;
    let mut text = String::new();
    file.take(MAX_BYTES + 1).read_to_string(&mut text)?;
    if text.len() as u64 > MAX_BYTES {
        return Err(std::io::Error::other(format!("it grew past {} MiB while read", MAX_BYTES >> 20)));
    }
    Ok(text)
}

fn check(meta: &std::fs::Metadata) -> std::io::Result<()> {
    if !meta.is_file() {
        return Err(std::io::Error::other("not a regular file"));
    }
    if meta.len() > MAX_BYTES {
        return Err(std::io::Error::other(format!(
            "{:.1} MiB, over the {} MiB limit for a merged report",
            meta.len() as f64 / 1_048_576.0,
            MAX_BYTES >> 20
        )));
    }
    Ok(())
}

/// Opened without waiting: a path replaced by a FIFO after the type check returns at once
/// (and fails the second check) instead of waiting for a writer.
fn open_nonblocking(path: &Path) -> std::io::Result<std::fs::File> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::custom_flags(&mut options, libc::O_NONBLOCK);
    options.open(path)
}

#[cfg(test)]
mod tests {
    use hotpath_model::{FunctionsIcount, FunctionsTiming, SCHEMA_VERSION};

    use super::*;

    fn report(caller: &str) -> Report {
        let mut r = Report::default();
        r.schema_version = SCHEMA_VERSION;
        r.meta.caller = caller.into();
        r.meta.hotpath_version = "0.23.0".into();
        r
    }

    #[test]
    fn the_native_report_gains_the_counts() {
        let path = std::env::temp_dir().join(format!("hotpath-merge-test-{}.json", std::process::id()));
        let mut native = report("app::main");
        native.meta.wall_ns = 123;
        native.functions_timing = Some(FunctionsTiming::default());
        std::fs::write(&path, native.to_json(false)).unwrap();

        let mut run = report("app::main");
        run.functions_icount = Some(FunctionsIcount::default());
        merge(&mut run, &path).unwrap();
        assert_eq!(run.meta.wall_ns, 123);
        assert!(run.functions_timing.is_some() && run.functions_icount.is_some());

        let mut other = report("tool::main");
        other.functions_icount = Some(FunctionsIcount::default());
        let err = merge(&mut other, &path).unwrap_err();
        assert!(err.ends_with("is a report of app::main, this run profiles tool::main"), "{err}");
        assert!(other.functions_icount.is_some(), "unchanged on error");

        let mut uncounted = report("app::main");
        let mut note = FunctionsIcount::default();
        note.note = Some("not running under valgrind --tool=callgrind".into());
        uncounted.functions_icount = Some(note);
        let err = merge(&mut uncounted, &path).unwrap_err();
        assert_eq!(err, "this run has no instruction counts (not running under valgrind --tool=callgrind)");

        std::fs::write(&path, "{").unwrap();
        let err = merge(&mut run, &path).unwrap_err();
        assert!(err.contains("not a valid hotpath JSON report"), "{err}");
        std::fs::remove_file(&path).unwrap();
    }

    #[test]
    fn only_a_regular_file_within_the_bound_is_read() {
        let dir = std::env::temp_dir().join(format!("hotpath-merge-bound-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let err = read_bounded(&dir).unwrap_err().to_string();
        assert_eq!(err, "not a regular file");
        let big = dir.join("big.json");
        std::fs::File::create(&big).unwrap().set_len(MAX_BYTES + 1).unwrap();
        let err = read_bounded(&big).unwrap_err().to_string();
        assert_eq!(err, "32.0 MiB, over the 32 MiB limit for a merged report");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
