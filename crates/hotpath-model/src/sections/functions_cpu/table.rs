//! The printed table of the `functions_cpu` section.

use crate::format::{format_count, format_duration_ns, format_percent};
use crate::grid::{shown, titled, Table};
use crate::meta::Meta;

use super::FunctionsCpu;

impl FunctionsCpu {
    /// The `functions-cpu` table.
    pub(crate) fn table(&self, meta: &Meta) -> String {
        let mut table = Table::new(["Function", "Samples", "CPU time", "% Self", "% Inclusive"]).names(meta.name_width);
        for row in &self.rows {
            table.row(vec![
                crate::format::short_name(&row.name, meta.name_depth).to_string(),
                format_count(row.self_samples),
                format_duration_ns(row.self_cpu_ns),
                format_percent(row.self_samples, self.samples),
                format_percent(row.inclusive_samples, self.samples),
            ]);
        }
        let mut summary = format!(
            "{}; {} samples at {} Hz of CPU time, {} outside measured functions",
            shown(self.rows.len(), self.total_functions),
            format_count(self.samples),
            self.hz,
            format_percent(self.unmeasured_samples, self.samples)
        );
        if self.dropped_samples > 0 {
            summary.push_str(&format!(", {} dropped", format_count(self.dropped_samples)));
        }
        if self.late_samples * 10 > self.samples {
            summary.push_str(&format!(
                "; {} delivered late, in lumps over 20 ms of CPU (contended CPUs): shares of \
                 short functions are unreliable",
                format_percent(self.late_samples, self.samples)
            ));
        }
        titled(
            "functions-cpu",
            "CPU samples of measured functions; Self: innermost measured function, Inclusive: anywhere on the stack.",
            &summary,
            &table,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::FunctionsCpu;

    fn summary(late: u64) -> String {
        let cpu = FunctionsCpu { hz: 1000, samples: 1000, late_samples: late, ..FunctionsCpu::default() };
        cpu.table(&crate::meta::Meta::default())
    }

    #[test]
    fn late_samples_are_named_above_a_tenth() {
        assert!(!summary(100).contains("delivered late"));
        let table = summary(101);
        assert!(table.contains("10.1% delivered late, in lumps over 20 ms of CPU"), "{table}");
    }
}
