//! Where Callgrind writes the dump hotpath asks for: the `--callgrind-out-file`
//! template (`HOTPATH_CALLGRIND_OUT_FILE`, default `callgrind.out.%p`) expanded as
//! Valgrind does, plus `.<n>` (the n-th dump of the run) or `.<n>-<thread>` with
//! `--separate-threads=yes`. The dump is recognised by its trigger line, which names
//! the request: earlier dumps the program asked for itself are left alone.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};

/// Callgrind's own default output file name.
pub(crate) const DEFAULT_TEMPLATE: &str = "callgrind.out.%p";

/// The template with `%p` (process id), `%q{VAR}` (an environment variable) and `%%`
/// replaced; anything else stays as written.
pub(crate) fn expand(template: &str, pid: u32, env: impl Fn(&str) -> Option<String>) -> String {
    let mut out = String::with_capacity(template.len() + 8);
    let mut rest = template;
    while let Some(at) = rest.find('%') {
        out.push_str(&rest[..at]);
        let tail = &rest[at + 1..];
        if let Some(after) = tail.strip_prefix('p') {
            out.push_str(&pid.to_string());
            rest = after;
        } else if let Some(after) = tail.strip_prefix('%') {
            out.push('%');
            rest = after;
        } else if let Some((name, after)) = tail.strip_prefix("q{").and_then(|t| t.split_once('}')) {
            out.push_str(&env(name).unwrap_or_default());
            rest = after;
        } else {
            out.push('%');
            rest = tail;
        }
    }
    out.push_str(rest);
    out
}

/// The dump files under `base` whose trigger is `reason`: one, or one per thread.
pub(crate) fn find(base: &Path, reason: &str) -> std::io::Result<Vec<PathBuf>> {
    let dir = match base.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let Some(prefix) = base.file_name().and_then(|n| n.to_str()).map(|n| format!("{n}.")) else {
        return Ok(Vec::new());
    };
    let trigger = format!("desc: Trigger: Client Request: {reason}");
    let mut found = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let name = entry.file_name();
        let Some(suffix) = name.to_str().and_then(|n| n.strip_prefix(&prefix)) else { continue };
        if is_part_suffix(suffix) && has_trigger(&entry.path(), &trigger) {
            found.push(entry.path());
        }
    }
    found.sort();
    Ok(found)
}

/// `3` or `3-01`: a dump number, then a thread number with `--separate-threads=yes`.
fn is_part_suffix(suffix: &str) -> bool {
    let (part, thread) = suffix.split_once('-').unwrap_or((suffix, "1"));
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    digits(part) && digits(thread)
}

/// True when the file's header (before the first cost line) has the trigger line.
fn has_trigger(path: &Path, trigger: &str) -> bool {
    let Ok(file) = std::fs::File::open(path) else { return false };
    BufReader::new(file)
        .lines()
        .take(64)
        .map_while(Result::ok)
        .take_while(|l| !l.starts_with("fn=") && !l.starts_with("ob="))
        .any(|l| l.trim_end() == trigger)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expands_like_valgrind() {
        let env = |name: &str| (name == "JOB").then(|| "ci-7".to_string());
        assert_eq!(expand(DEFAULT_TEMPLATE, 42, env), "callgrind.out.42");
        assert_eq!(expand("/tmp/%q{JOB}/cg.%p.%%.%x", 7, env), "/tmp/ci-7/cg.7.%.%x");
        assert_eq!(expand("cg.%q{UNSET}%", 7, env), "cg.%");
        assert_eq!(expand("%q{open", 7, env), "%q{open");
    }

    #[test]
    fn finds_the_dump_by_its_trigger() {
        let dir = std::env::temp_dir().join(format!("hotpath-dump-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let header = |reason: &str| {
            format!("# callgrind format\nversion: 1\ndesc: Trigger: Client Request: {reason}\n\nfn=(1) f\n0 1\n")
        };
        std::fs::write(dir.join("cg.9.1"), header("user-dump")).unwrap();
        std::fs::write(dir.join("cg.9.2"), header("hotpath-9-1")).unwrap();
        std::fs::write(dir.join("cg.9.3-02"), header("hotpath-9-1")).unwrap();
        std::fs::write(dir.join("cg.9"), header("hotpath-9-1")).unwrap();
        std::fs::write(dir.join("cg.9.x"), header("hotpath-9-1")).unwrap();
        let found = find(&dir.join("cg.9"), "hotpath-9-1").unwrap();
        let names: Vec<String> = found.iter().map(|p| p.file_name().unwrap().to_string_lossy().into_owned()).collect();
        assert_eq!(names, ["cg.9.2", "cg.9.3-02"]);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
