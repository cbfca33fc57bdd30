//! `--format json`: the comparison serialized as it is walked, rows judged one at a
//! time, so that the output streams to its file without being held in memory.

use std::path::PathBuf;

use serde::ser::{SerializeStruct, Serializer};
use serde::Serialize;

use super::{Comparison, SectionDiff, COMPARE_VERSION, TEST};
use crate::compare::side::Side;

#[derive(Serialize)]
struct SideInfo<'a> {
    label: &'a str,
    runs: usize,
    files: &'a [PathBuf],
}

impl<'a> SideInfo<'a> {
    fn of(side: &'a Side) -> Self {
        Self { label: &side.label, runs: side.runs, files: &side.files }
    }
}

#[derive(Serialize)]
struct SettingsInfo {
    threshold_pct: f64,
    icount_threshold_pct: f64,
    alpha: f64,
    noise_floor_ns: f64,
    error_control: &'static str,
    tested_metrics: usize,
    test: &'static str,
}

impl Serialize for Comparison<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut out = s.serialize_struct("Comparison", 9)?;
        out.serialize_field("compare_version", &COMPARE_VERSION)?;
        out.serialize_field("base", &SideInfo::of(self.base))?;
        out.serialize_field("head", &SideInfo::of(self.head))?;
        let settings = SettingsInfo {
            threshold_pct: self.settings.threshold_pct,
            icount_threshold_pct: self.settings.icount_threshold_pct,
            alpha: self.settings.alpha,
            noise_floor_ns: self.settings.noise_floor_ns,
            error_control: self.settings.control.name(),
            tested_metrics: self.family.tests(),
            test: TEST,
        };
        out.serialize_field("settings", &settings)?;
        out.serialize_field("notes", &self.notes)?;
        out.serialize_field("summary", &self.summary)?;
        out.serialize_field("policy", &self.policy.map(|p| p.path.display().to_string()))?;
        out.serialize_field("budgets", &self.budgets)?;
        out.serialize_field("sections", &Sections(self))?;
        out.end()
    }
}

struct Sections<'x, 'a>(&'x Comparison<'a>);

impl Serialize for Sections<'_, '_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.0.sections())
    }
}

impl Serialize for SectionDiff<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut out = s.serialize_struct("SectionDiff", 2)?;
        out.serialize_field("name", self.name)?;
        out.serialize_field("rows", &Rows(self))?;
        out.end()
    }
}

struct Rows<'x, 'c>(&'x SectionDiff<'c>);

impl Serialize for Rows<'_, '_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.0.rows())
    }
}
