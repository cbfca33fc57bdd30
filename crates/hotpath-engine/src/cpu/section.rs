//! Builds the `functions-cpu` section.

use hotpath_model::{FunctionCpu, FunctionsCpu};

use super::sampler::{drain, COLLECTOR};
use super::signal::STACK_READ_FAILED;
use crate::options::Options;
use crate::record::registered_sites;
use crate::sync::lock;

/// Samples per measured function (merged by name), most self samples first.
/// `None` when sampling never started.
pub(crate) fn section(config: &Options) -> Option<FunctionsCpu> {
    drain();
    let guard = lock(&COLLECTOR);
    let collector = guard.as_ref()?;
    let profile = &collector.profile;
    let period = profile.period_ns();
    let sites = registered_sites();
    let mut rows: Vec<FunctionCpu> = Vec::new();
    for (id, site) in sites.iter().enumerate().skip(1) {
        let own = profile.self_samples.get(id).copied().unwrap_or(0);
        let inclusive = profile.inclusive_samples.get(id).copied().unwrap_or(0);
        if inclusive == 0 {
            continue;
        }
        let name = site.name();
        let row = match rows.iter_mut().find(|r| r.name == name) {
            Some(row) => row,
            None => {
                let mut row = FunctionCpu::default();
                row.name = name;
                rows.push(row);
                rows.last_mut().expect("just pushed")
            }
        };
        row.self_samples += own;
        row.inclusive_samples += inclusive;
        row.self_cpu_ns = row.self_samples * period;
        row.inclusive_cpu_ns = row.inclusive_samples * period;
    }
    rows.sort_by(|a, b| b.self_samples.cmp(&a.self_samples).then(b.inclusive_samples.cmp(&a.inclusive_samples)));
    let (total_functions, rows) = crate::record::select(rows, |r| &r.name, config);
    let mut section = FunctionsCpu::default();
    section.hz = profile.hz;
    section.period_ns = period;
    section.samples = profile.samples;
    section.unmeasured_samples = profile.unmeasured;
    section.dropped_samples = super::sample::RING.dropped.load(std::sync::atomic::Ordering::Relaxed);
    section.truncated_samples = profile.truncated;
    section.late_samples = profile.late;
    section.native_stacks =
        !STACK_READ_FAILED.load(std::sync::atomic::Ordering::Relaxed) && cfg!(target_arch = "x86_64");
    section.samples_without_stack = profile.without_stack;
    section.unwind_ns_per_sample = profile.unwind_ns.checked_div(profile.signals).unwrap_or(0);
    section.files = collector.written.iter().map(|p| p.display().to_string()).collect();
    section.total_functions = total_functions;
    section.rows = rows;
    Some(section)
}
