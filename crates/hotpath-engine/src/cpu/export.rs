//! Writes the native call stacks as folded stacks, a flamegraph SVG (inferno) and a
//! gzipped pprof protobuf (for `go tool pprof`, Pyroscope and friends).

use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};

use super::profile::Profile;
use super::unwind::Modules;
use crate::pprof::{self, Strings};

/// `root;caller;leaf count` lines, most frequent first.
pub(crate) fn folded(profile: &Profile, modules: &mut Modules) -> Vec<String> {
    let mut stacks: Vec<(&Vec<u64>, u64)> = profile.stacks.iter().map(|(s, c)| (s, *c)).collect();
    stacks.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(b.0)));
    stacks
        .into_iter()
        .map(|(frames, count)| {
            let names: Vec<String> = frames.iter().rev().map(|a| modules.name(*a).replace(';', ":")).collect();
            format!("{} {count}", names.join(";"))
        })
        .collect()
}

/// When and for how long the profile was taken, for pprof.
pub(crate) struct Span {
    pub(crate) started_unix_ns: i64,
    pub(crate) duration_ns: i64,
}

/// Writes `hotpath-cpu.folded`, `hotpath-cpu.svg` and `hotpath-cpu.pb.gz` into `dir`
/// and returns their paths.
pub(crate) fn write_all(
    dir: &Path,
    profile: &Profile,
    modules: &mut Modules,
    span: &Span,
) -> std::io::Result<Vec<PathBuf>> {
    std::fs::create_dir_all(dir)?;
    let lines = folded(profile, modules);
    let folded_path = dir.join("hotpath-cpu.folded");
    std::fs::write(&folded_path, lines.iter().map(|l| format!("{l}\n")).collect::<String>())?;

    let svg_path = dir.join("hotpath-cpu.svg");
    let mut options = inferno::flamegraph::Options::default();
    options.title = "hotpath CPU samples".to_string();
    options.count_name = "samples".to_string();
    let mut svg = std::io::BufWriter::new(std::fs::File::create(&svg_path)?);
    if lines.is_empty() {
        // inferno refuses empty input; an empty profile is still a valid answer.
        writeln!(svg, "<svg xmlns=\"http://www.w3.org/2000/svg\"><text y=\"20\">no samples</text></svg>")?;
    } else {
        inferno::flamegraph::from_lines(&mut options, lines.iter().map(String::as_str), &mut svg)
            .map_err(|e| std::io::Error::other(e.to_string()))?;
    }
    svg.flush()?;

    let pprof_path = dir.join("hotpath-cpu.pb.gz");
    let mut gz = flate2::write::GzEncoder::new(std::fs::File::create(&pprof_path)?, flate2::Compression::default());
    gz.write_all(&pprof_bytes(profile, modules, span))?;
    gz.finish()?;
    Ok(vec![folded_path, svg_path, pprof_path])
}

/// The profile as an uncompressed pprof `Profile` message.
pub(crate) fn pprof_bytes(profile: &Profile, modules: &mut Modules, span: &Span) -> Vec<u8> {
    let mut strings = Strings::default();
    let period = profile.period_ns() as i64;
    let mut p = pprof::Profile {
        sample_type: vec![
            pprof::ValueType { r#type: strings.id("samples"), unit: strings.id("count") },
            pprof::ValueType { r#type: strings.id("cpu"), unit: strings.id("nanoseconds") },
        ],
        period_type: Some(pprof::ValueType { r#type: strings.id("cpu"), unit: strings.id("nanoseconds") }),
        period,
        time_nanos: span.started_unix_ns,
        duration_nanos: span.duration_ns,
        ..Default::default()
    };
    let mut locations: HashMap<u64, u64> = HashMap::new();
    let mut functions: HashMap<String, u64> = HashMap::new();
    for (frames, count) in &profile.stacks {
        let mut location_ids = Vec::with_capacity(frames.len());
        for &address in frames {
            let next = locations.len() as u64 + 1;
            let id = *locations.entry(address).or_insert(next);
            if id == next {
                let name = modules.name(address).to_string();
                let next_fn = functions.len() as u64 + 1;
                let function_id = *functions.entry(name.clone()).or_insert(next_fn);
                if function_id == next_fn {
                    let name_id = strings.id(&name);
                    p.function.push(pprof::Function {
                        id: function_id,
                        name: name_id,
                        system_name: name_id,
                        ..Default::default()
                    });
                }
                p.location.push(pprof::Location {
                    id,
                    address,
                    line: vec![pprof::Line { function_id, line: 0 }],
                    ..Default::default()
                });
            }
            location_ids.push(id);
        }
        let count = *count as i64;
        p.sample.push(pprof::Sample { location_id: location_ids, value: vec![count, count * period], label: vec![] });
    }
    p.string_table = strings.table;
    prost::Message::encode_to_vec(&p)
}
