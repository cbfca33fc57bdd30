//! The policy file: what a team decides once and commits beside its code, so that
//! every CI run of `hotpath compare` judges alike. Found as `--policy FILE`, else
//! `$HOTPATH_POLICY_PATH`, else `hotpath/<bench>-policy.toml` (`<bench>` is
//! `$HOTPATH_BENCHMARK`, default `default`), else `hotpath/policy.toml`, as the seed
//! system documents the lookup. Format (every table and key optional):
//!
//! ```toml
//! [compare]
//! error_control = "holm"      # holm | bh | none
//! alpha = 0.05
//! min_change = "5%"           # the minimum effect
//! noise_floor_ns = 100
//! icount_min_change = "1%"
//!
//! [compare.sections.functions_timing]
//! judge = ["avg_ns", "percentiles_ns.p99", "calls"]   # the others are shown, not judged
//! min_change = "10%"
//!
//! [budgets]
//! "app::checksum" = ["p99 < 2ms", "calls <= 20"]
//! "app::parse" = ["alloc_bytes_per_call <= 0"]
//! ```
//!
//! Command-line flags win over the file; the file wins over the defaults.

pub(crate) mod budget;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context};
use serde::Deserialize;

use super::family::ErrorControl;
use super::icount::percent;
use budget::Budget;

/// A policy as read from its file.
#[derive(Clone, Debug, Default)]
pub(crate) struct Policy {
    pub(crate) path: PathBuf,
    pub(crate) control: Option<ErrorControl>,
    pub(crate) alpha: Option<f64>,
    pub(crate) min_change_pct: Option<f64>,
    pub(crate) noise_floor_ns: Option<f64>,
    pub(crate) icount_min_change_pct: Option<f64>,
    pub(crate) sections: BTreeMap<String, SectionPolicy>,
    pub(crate) budgets: Vec<Budget>,
}

/// What the policy says about one section.
#[derive(Clone, Debug, Default)]
pub(crate) struct SectionPolicy {
    /// Metric keys (or labels) judged; the others are informational. `None`: all.
    pub(crate) judge: Option<Vec<String>>,
    pub(crate) min_change_pct: Option<f64>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct FileText {
    #[serde(default)]
    compare: CompareText,
    #[serde(default)]
    budgets: BTreeMap<String, OneOrMany>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct CompareText {
    error_control: Option<String>,
    alpha: Option<f64>,
    min_change: Option<Percent>,
    noise_floor_ns: Option<f64>,
    icount_min_change: Option<Percent>,
    #[serde(default)]
    sections: BTreeMap<String, SectionText>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct SectionText {
    judge: Option<Vec<String>>,
    min_change: Option<Percent>,
}

/// `"5%"` or `5`.
#[derive(Deserialize)]
#[serde(untagged)]
enum Percent {
    Number(f64),
    Text(String),
}

#[derive(Deserialize)]
#[serde(untagged)]
enum OneOrMany {
    One(String),
    Many(Vec<String>),
}

impl Percent {
    fn value(&self, key: &str) -> anyhow::Result<f64> {
        let text = match self {
            Self::Number(n) => n.to_string(),
            Self::Text(t) => t.clone(),
        };
        percent(&text).map_err(|e| anyhow::anyhow!("{key}: {e}"))
    }
}

/// The policy file to use: `explicit`, else the environment's, else the defaults that
/// exist; `None` when there is none.
pub(crate) fn locate(explicit: Option<&Path>) -> anyhow::Result<Option<PathBuf>> {
    if let Some(path) = explicit {
        return Ok(Some(path.to_path_buf()));
    }
    if let Some(path) = std::env::var_os("HOTPATH_POLICY_PATH").filter(|p| !p.is_empty()) {
        let path = PathBuf::from(path);
        if !path.is_file() {
            bail!("HOTPATH_POLICY_PATH names {}, which is no file: fix or unset it", path.display());
        }
        return Ok(Some(path));
    }
    let bench = std::env::var("HOTPATH_BENCHMARK").ok().filter(|b| !b.is_empty()).unwrap_or_else(|| "default".into());
    let candidates = [PathBuf::from(format!("hotpath/{bench}-policy.toml")), PathBuf::from("hotpath/policy.toml")];
    Ok(candidates.into_iter().find(|p| p.is_file()))
}

/// Reads and checks the policy at `path`; errors name the file and the key.
pub(crate) fn load(path: &Path) -> anyhow::Result<Policy> {
    let text = std::fs::read_to_string(path).with_context(|| format!("cannot read policy file {}", path.display()))?;
    parse(&text, path).with_context(|| format!("policy file {}", path.display()))
}

fn parse(text: &str, path: &Path) -> anyhow::Result<Policy> {
    let file: FileText = toml::from_str(text).map_err(|e| anyhow::anyhow!("{}", e.to_string().trim_end()))?;
    let c = file.compare;
    let control = match c.error_control.as_deref() {
        None => None,
        Some(text) => Some(
            ErrorControl::parse(text)
                .with_context(|| format!("compare.error_control = {text:?}: expected holm, bh or none"))?,
        ),
    };
    if let Some(alpha) = c.alpha.filter(|a| !(*a > 0.0 && *a < 1.0)) {
        bail!("compare.alpha = {alpha}: a significance level is between 0 and 1");
    }
    if let Some(floor) = c.noise_floor_ns.filter(|f| !(f.is_finite() && *f >= 0.0)) {
        bail!("compare.noise_floor_ns = {floor}: 0 or more nanoseconds");
    }
    let mut sections = BTreeMap::new();
    for (name, s) in c.sections {
        let min_change_pct =
            s.min_change.map(|p| p.value(&format!("compare.sections.{name}.min_change"))).transpose()?;
        sections.insert(name, SectionPolicy { judge: s.judge, min_change_pct });
    }
    let mut budgets = Vec::new();
    for (row, list) in file.budgets {
        let list = match list {
            OneOrMany::One(one) => vec![one],
            OneOrMany::Many(many) => many,
        };
        for text in list {
            budgets.push(Budget::parse(&row, &text)?);
        }
    }
    Ok(Policy {
        path: path.to_path_buf(),
        control,
        alpha: c.alpha,
        min_change_pct: c.min_change.map(|p| p.value("compare.min_change")).transpose()?,
        noise_floor_ns: c.noise_floor_ns,
        icount_min_change_pct: c.icount_min_change.map(|p| p.value("compare.icount_min_change")).transpose()?,
        sections,
        budgets,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_every_key_of_the_documented_format() {
        let text = r#"
            [compare]
            error_control = "bh"
            alpha = 0.01
            min_change = "7%"
            noise_floor_ns = 250
            icount_min_change = 0.5

            [compare.sections.functions_timing]
            judge = ["avg_ns", "calls"]
            min_change = 12

            [budgets]
            "app::checksum" = ["p99 < 2ms", "calls <= 20"]
            "app::parse" = "alloc_bytes_per_call <= 0"
        "#;
        let p = parse(text, Path::new("p.toml")).unwrap();
        assert_eq!(p.control, Some(ErrorControl::Bh));
        assert_eq!((p.alpha, p.min_change_pct, p.noise_floor_ns), (Some(0.01), Some(7.0), Some(250.0)));
        assert_eq!(p.icount_min_change_pct, Some(0.5));
        let timing = &p.sections["functions_timing"];
        assert_eq!(timing.judge.as_deref(), Some(&["avg_ns".to_string(), "calls".to_string()][..]));
        assert_eq!(timing.min_change_pct, Some(12.0));
        let texts: Vec<(&str, &str)> = p.budgets.iter().map(|b| (b.row.as_str(), b.text.as_str())).collect();
        assert_eq!(
            texts,
            [
                ("app::checksum", "p99 < 2ms"),
                ("app::checksum", "calls <= 20"),
                ("app::parse", "alloc_bytes_per_call <= 0")
            ]
        );
    }

    #[test]
    fn mistakes_name_the_key() {
        let err = |text: &str| format!("{:#}", parse(text, Path::new("p.toml")).unwrap_err());
        assert!(err("[compare]\nerror_control = \"bonferroni\"").contains("expected holm, bh or none"));
        assert!(err("[compare]\nalpha = 2.0").contains("compare.alpha = 2"));
        assert!(err("[compare]\nthreshold = 5").contains("unknown field `threshold`"));
        assert!(err("[budgets]\n\"f\" = [\"p99 2ms\"]").contains("no comparison"));
    }
}
