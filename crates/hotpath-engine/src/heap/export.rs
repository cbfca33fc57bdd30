//! The live heap as profile files, written like the CPU profile's: a gzipped pprof
//! protobuf (`hotpath-heap.pb.gz`: `alloc_objects`, `alloc_space`, `inuse_objects`,
//! `inuse_space`, as Go's heap profiles, readable by `go tool pprof`) and a
//! flamegraph SVG of live bytes (`hotpath-heap.svg`, inferno). Values are the
//! estimates of the `heap` section, rounded per stack; allow-listed stacks are left
//! out of both.

use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};

use super::estimate::Estimate;
use super::section::with_symbols;
use super::stacks::Frame;
use super::{sampler, table, totals};
use crate::pprof::{self, Strings};

/// A stack's addresses (leaf first), each with its frames (innermost inlined first).
type Located = Vec<(u64, Vec<Frame>)>;

/// Live and all-time estimates per raw stack.
#[derive(Default)]
struct Values {
    live: Estimate,
    all: Estimate,
}

/// Writes the files into `dir` and returns their paths.
pub(crate) fn write_all(dir: &Path, ignore: &[String]) -> std::io::Result<Vec<PathBuf>> {
    let mean = sampler::mean_bytes();
    let mut stacks: HashMap<Vec<u64>, Values> = HashMap::new();
    for sample in table::live() {
        stacks.entry(sample.frames().to_vec()).or_default().live.add(sample.size, mean);
    }
    for (raw, all) in totals::all(mean) {
        stacks.entry(raw).or_default().all = all;
    }
    let located: Vec<(Located, Values)> = with_symbols(|symbols| {
        let mut kept = Vec::with_capacity(stacks.len());
        for (raw, values) in stacks {
            if !symbols.stack(&raw, ignore).1 {
                kept.push((symbols.located(&raw), values));
            }
        }
        kept
    });
    std::fs::create_dir_all(dir)?;
    let pprof_path = dir.join("hotpath-heap.pb.gz");
    let mut gz = flate2::write::GzEncoder::new(std::fs::File::create(&pprof_path)?, flate2::Compression::default());
    gz.write_all(&pprof_bytes(&located, mean))?;
    gz.finish()?;
    let svg_path = dir.join("hotpath-heap.svg");
    write_svg(&svg_path, &located)?;
    Ok(vec![pprof_path, svg_path])
}

fn pprof_bytes(stacks: &[(Located, Values)], mean: u64) -> Vec<u8> {
    let mut strings = Strings::default();
    let mut value_type = |t: &str, unit: &str| pprof::ValueType { r#type: strings.id(t), unit: strings.id(unit) };
    let mut p = pprof::Profile {
        sample_type: vec![
            value_type("alloc_objects", "count"),
            value_type("alloc_space", "bytes"),
            value_type("inuse_objects", "count"),
            value_type("inuse_space", "bytes"),
        ],
        period_type: Some(value_type("space", "bytes")),
        period: mean as i64,
        ..Default::default()
    };
    let mut locations: HashMap<u64, u64> = HashMap::new();
    let mut functions: HashMap<(String, String), u64> = HashMap::new();
    for (frames, values) in stacks {
        let mut ids = Vec::with_capacity(frames.len());
        for (address, named) in frames {
            let next = locations.len() as u64 + 1;
            let id = *locations.entry(*address).or_insert(next);
            if id == next {
                let mut lines = Vec::with_capacity(named.len());
                for f in named {
                    let key = (f.function.clone(), f.file.clone());
                    let next_fn = functions.len() as u64 + 1;
                    let function_id = *functions.entry(key).or_insert(next_fn);
                    if function_id == next_fn {
                        let name = strings.id(&f.function);
                        p.function.push(pprof::Function {
                            id: function_id,
                            name,
                            system_name: name,
                            filename: strings.id(&f.file),
                            start_line: 0,
                        });
                    }
                    lines.push(pprof::Line { function_id, line: i64::from(f.line) });
                }
                p.location.push(pprof::Location { id, address: *address, line: lines, ..Default::default() });
            }
            ids.push(id);
        }
        let (live, all) = (&values.live, &values.all);
        let value = vec![
            all.objects.round() as i64,
            all.bytes.round() as i64,
            live.objects.round() as i64,
            live.bytes.round() as i64,
        ];
        p.sample.push(pprof::Sample { location_id: ids, value, label: vec![] });
    }
    p.string_table = strings.table;
    prost::Message::encode_to_vec(&p)
}

/// A flamegraph of live bytes: `root;caller;leaf bytes` lines through inferno.
fn write_svg(path: &Path, stacks: &[(Located, Values)]) -> std::io::Result<()> {
    let mut lines: Vec<String> = stacks
        .iter()
        .filter(|(_, v)| v.live.bytes >= 1.0)
        .map(|(frames, v)| {
            let names: Vec<String> = frames
                .iter()
                .rev()
                .flat_map(|(_, named)| named.iter().rev())
                .map(|f| f.function.replace(';', ":"))
                .collect();
            format!("{} {}", names.join(";"), v.live.bytes.round() as u64)
        })
        .collect();
    lines.sort();
    let mut svg = std::io::BufWriter::new(std::fs::File::create(path)?);
    if lines.is_empty() {
        writeln!(svg, "<svg xmlns=\"http://www.w3.org/2000/svg\"><text y=\"20\">no live samples</text></svg>")?;
    } else {
        let mut options = inferno::flamegraph::Options::default();
        options.title = "hotpath live heap".to_string();
        options.count_name = "bytes".to_string();
        inferno::flamegraph::from_lines(&mut options, lines.iter().map(String::as_str), &mut svg)
            .map_err(|e| std::io::Error::other(e.to_string()))?;
    }
    svg.flush()
}
