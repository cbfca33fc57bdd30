//! Relative `path =` dependencies in a scratch worktree. The worktrees live in a
//! temporary directory, so a path that leaves the repository
//! (`hotpath = { path = "../hotpath/crates/hotpath" }`, as the README writes it)
//! would point next to the temporary directory instead of next to the repository.
//! Each manifest of the checked-out commit (the root, workspace members, any crate)
//! gets such paths rewritten to the absolute path they have from the original
//! repository; paths inside the repository stay relative, so that they point into
//! the commit being built.

use std::path::{Component, Path, PathBuf};

use anyhow::{bail, Context};
use toml_edit::{DocumentMut, Item, Value};

/// Tables whose entries are dependencies.
const DEPENDENCY_TABLES: [&str; 3] = ["dependencies", "dev-dependencies", "build-dependencies"];

/// Rewrites every manifest under `tree` (a worktree of the repository at `top`);
/// returns how many paths were made absolute.
pub(crate) fn resolve_outside_paths(top: &Path, tree: &Path) -> anyhow::Result<usize> {
    let mut rewritten = 0;
    for manifest in manifests(tree)? {
        let rel_dir = manifest.parent().and_then(|d| d.strip_prefix(tree).ok()).unwrap_or(Path::new("")).to_path_buf();
        let text = std::fs::read_to_string(&manifest).with_context(|| format!("cannot read {}", manifest.display()))?;
        let Ok(mut doc) = text.parse::<DocumentMut>() else {
            // Cargo reports a broken manifest better than we could.
            continue;
        };
        let place = Place { top, tree, rel_dir: &rel_dir, manifest: &manifest };
        let n = rewrite(&mut doc, &place)?;
        if n > 0 {
            std::fs::write(&manifest, doc.to_string())
                .with_context(|| format!("cannot write {}", manifest.display()))?;
            rewritten += n;
        }
    }
    Ok(rewritten)
}

/// Where a manifest is: in the worktree, and the same directory in the repository.
struct Place<'a> {
    top: &'a Path,
    tree: &'a Path,
    rel_dir: &'a Path,
    manifest: &'a Path,
}

/// Every `Cargo.toml` under `dir`, skipping `.git` and build directories.
fn manifests(dir: &Path) -> anyhow::Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let entries = std::fs::read_dir(&d).with_context(|| format!("cannot list {}", d.display()))?;
        for entry in entries.flatten() {
            let path = entry.path();
            let name = entry.file_name();
            let Ok(kind) = entry.file_type() else { continue };
            if kind.is_dir() && name != ".git" && name != "target" {
                stack.push(path);
            } else if kind.is_file() && name == "Cargo.toml" {
                out.push(path);
            }
        }
    }
    out.sort();
    Ok(out)
}

fn rewrite(doc: &mut DocumentMut, place: &Place<'_>) -> anyhow::Result<usize> {
    let mut n = 0;
    let root = doc.as_table_mut();
    for name in DEPENDENCY_TABLES {
        if let Some(deps) = root.get_mut(name) {
            n += rewrite_deps(deps, place)?;
        }
    }
    if let Some(targets) = root.get_mut("target").and_then(Item::as_table_like_mut) {
        for (_, target) in targets.iter_mut() {
            for name in DEPENDENCY_TABLES {
                if let Some(deps) = target.get_mut(name) {
                    n += rewrite_deps(deps, place)?;
                }
            }
        }
    }
    if let Some(deps) = root.get_mut("workspace").and_then(|w| w.get_mut("dependencies")) {
        n += rewrite_deps(deps, place)?;
    }
    if let Some(patches) = root.get_mut("patch").and_then(Item::as_table_like_mut) {
        for (_, source) in patches.iter_mut() {
            n += rewrite_deps(source, place)?;
        }
    }
    Ok(n)
}

/// The entries of one dependency table: `name = { path = ".." }` or `[dependencies.name]`.
fn rewrite_deps(deps: &mut Item, place: &Place<'_>) -> anyhow::Result<usize> {
    let Some(deps) = deps.as_table_like_mut() else { return Ok(0) };
    let mut n = 0;
    for (name, dep) in deps.iter_mut() {
        let Some(dep) = dep.as_table_like_mut() else { continue };
        let Some(path) = dep.get_mut("path") else { continue };
        let Some(text) = path.as_str().map(str::to_string) else { continue };
        if let Some(absolute) = outside(&text, place, name.get())? {
            *path = Item::Value(Value::from(absolute));
            n += 1;
        }
    }
    Ok(n)
}

/// The absolute path to use for `path` when it leaves the worktree; `None` when it
/// stays inside (or is absolute already).
fn outside(path: &str, place: &Place<'_>, dep: &str) -> anyhow::Result<Option<String>> {
    if Path::new(path).is_absolute() {
        return Ok(None);
    }
    let in_tree = normalize(&place.tree.join(place.rel_dir).join(path));
    if in_tree.starts_with(place.tree) {
        return Ok(None);
    }
    let original = normalize(&place.top.join(place.rel_dir).join(path));
    if !original.exists() {
        let shown = place.manifest.strip_prefix(place.tree).unwrap_or(place.manifest);
        bail!(
            "{}: dependency `{dep}` has path = {path:?}, which leaves the repository; from the repository it is {}, \
             which does not exist: check that directory out there (beside the repository, as the path expects), or \
             point the dependency at a git URL or a published version",
            shown.display(),
            original.display()
        );
    }
    Ok(Some(original.to_string_lossy().into_owned()))
}

/// `a/b/../c` → `a/c`, without touching the file system (the worktree's target of a
/// path that leaves it need not exist).
fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_leaving_the_repository_become_absolute_and_inner_ones_stay() {
        let root = tempfile::tempdir().unwrap();
        let top = root.path().join("app");
        let tree = root.path().join("scratch/base");
        std::fs::create_dir_all(root.path().join("hotpath/crates/hotpath")).unwrap();
        for dir in [&top, &tree] {
            std::fs::create_dir_all(dir.join("member")).unwrap();
        }
        let manifest = r#"[workspace]
members = ["member"]

[dependencies]
hotpath = { path = "../hotpath/crates/hotpath", features = ["tokio"] } # the README's line
member = { path = "member" }

[target.'cfg(unix)'.dev-dependencies.hp]
path = "../hotpath/crates/hotpath"
"#;
        std::fs::write(tree.join("Cargo.toml"), manifest).unwrap();
        std::fs::write(
            tree.join("member/Cargo.toml"),
            "[dependencies]\nhotpath = { path = \"../../hotpath/crates/hotpath\" }\n",
        )
        .unwrap();
        assert_eq!(resolve_outside_paths(&top, &tree).unwrap(), 3);
        let absolute = root.path().join("hotpath/crates/hotpath").display().to_string();
        let text = std::fs::read_to_string(tree.join("Cargo.toml")).unwrap();
        assert!(text.contains(&format!("hotpath = {{ path = \"{absolute}\", features = [\"tokio\"] }}")), "{text}");
        assert!(text.contains("member = { path = \"member\" }") && text.contains("# the README's line"), "{text}");
        assert!(text.contains(&format!("path = \"{absolute}\"\n")), "{text}");
        let member = std::fs::read_to_string(tree.join("member/Cargo.toml")).unwrap();
        assert!(member.contains(&absolute), "{member}");
        // Done once: absolute paths are left alone.
        assert_eq!(resolve_outside_paths(&top, &tree).unwrap(), 0);
    }

    #[test]
    fn a_missing_outside_directory_says_what_to_do() {
        let root = tempfile::tempdir().unwrap();
        let (top, tree) = (root.path().join("app"), root.path().join("scratch/head"));
        std::fs::create_dir_all(&top).unwrap();
        std::fs::create_dir_all(&tree).unwrap();
        std::fs::write(tree.join("Cargo.toml"), "[dependencies]\nhp = { path = \"../nowhere\" }\n").unwrap();
        let err = resolve_outside_paths(&top, &tree).unwrap_err().to_string();
        assert!(err.starts_with("Cargo.toml: dependency `hp` has path = \"../nowhere\", which leaves"), "{err}");
        assert!(err.contains("does not exist: check that directory out there"), "{err}");
    }
}
