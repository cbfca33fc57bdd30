//! Finding and reading the reports of one side. Every failure names the side, the
//! file (or pattern) and the problem, and ends the command with exit code 2.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context};

use super::report_file;
use super::samples::RunSamples;
use super::side::Side;

/// Reads the reports named by `spec` (a file, a directory of `.json` files or a
/// glob pattern) as side `which` (`base` or `head`); no file may exceed `max_bytes`.
pub(crate) fn load_spec(which: &str, spec: &str, max_bytes: u64) -> anyhow::Result<Side> {
    let files = resolve(which, spec)?;
    load(which, spec, files, max_bytes)
}

/// Reads the given report files as one side, labelled `label`.
pub(crate) fn load(which: &str, label: &str, files: Vec<PathBuf>, max_bytes: u64) -> anyhow::Result<Side> {
    let runs = read_runs(which, &files, max_bytes)?;
    Ok(Side::new(label, files, runs))
}

/// The report files named by `spec`, for a caller that reads them itself.
pub(crate) fn files_of(which: &str, spec: &str) -> anyhow::Result<Vec<PathBuf>> {
    resolve(which, spec)
}

/// Reads report files as the runs of side `which`; an error when none has a measurement.
pub(crate) fn read_runs(which: &str, files: &[PathBuf], max_bytes: u64) -> anyhow::Result<Vec<RunSamples>> {
    let mut runs = Vec::with_capacity(files.len());
    for path in files {
        runs.push(report_file::read(which, path, max_bytes)?);
    }
    if !runs.iter().any(RunSamples::has_measurements) {
        let names: Vec<String> = files.iter().map(|f| f.display().to_string()).collect();
        bail!(
            "{which}: no measurements in {}: the reports have no rows (was the program built with the \
             `hotpath` feature, and did it call measured functions?)",
            names.join(", ")
        );
    }
    Ok(runs)
}

fn resolve(which: &str, spec: &str) -> anyhow::Result<Vec<PathBuf>> {
    let path = Path::new(spec);
    let mut files = if path.is_dir() {
        let entries = std::fs::read_dir(path).with_context(|| format!("cannot list {which} directory {spec}"))?;
        let mut files = Vec::new();
        for entry in entries {
            let entry = entry.with_context(|| format!("cannot list {which} directory {spec}"))?.path();
            if entry.extension().is_some_and(|e| e == "json") && entry.is_file() {
                files.push(entry);
            }
        }
        if files.is_empty() {
            bail!("{which}: directory {spec} holds no .json report");
        }
        files
    } else if spec.contains(['*', '?', '[']) {
        let matches = glob::glob(spec).with_context(|| format!("{which}: bad glob pattern {spec}"))?;
        let mut files = Vec::new();
        for m in matches {
            let m = m.with_context(|| format!("{which}: cannot read a match of {spec}"))?;
            if m.is_file() {
                files.push(m);
            }
        }
        if files.is_empty() {
            bail!("{which}: pattern {spec} matched no file");
        }
        files
    } else {
        // A plain path: a missing file is reported by `read` with the OS error.
        vec![path.to_path_buf()]
    };
    files.sort();
    Ok(files)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn directories_and_globs_list_json_files_in_order() {
        let dir = tempfile::tempdir().unwrap();
        for name in ["b.json", "a.json", "notes.txt"] {
            std::fs::write(dir.path().join(name), "{}").unwrap();
        }
        let spec = dir.path().to_str().unwrap();
        let names = |files: Vec<PathBuf>| -> Vec<String> {
            files.iter().map(|f| f.file_name().unwrap().to_string_lossy().into_owned()).collect()
        };
        assert_eq!(names(resolve("base", spec).unwrap()), ["a.json", "b.json"]);
        assert_eq!(names(resolve("base", &format!("{spec}/b*")).unwrap()), ["b.json"]);
        let err = resolve("head", &format!("{spec}/z*.json")).unwrap_err().to_string();
        assert!(err.starts_with("head: pattern ") && err.ends_with("z*.json matched no file"), "{err}");
    }
}
