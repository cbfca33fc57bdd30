//! Reads Callgrind's output format (the "callgrind format" of Valgrind's manual) into a
//! call graph: per function its own cost, per caller and callee the calls and their
//! inclusive cost, and the run's total. Only the `Ir` event is kept. Functions are
//! identified by name, as `callgrind_annotate` lists them; files and objects are
//! ignored. Every dump the run wrote for one request (one per thread with
//! `--separate-threads=yes`) is read into the same graph.

use std::collections::HashMap;
use std::io::BufRead;

/// One caller → callee pair: how often, and the instructions those calls executed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Edge {
    pub(crate) calls: u64,
    pub(crate) ir: u64,
}

/// The call graph of one or more dumps.
#[derive(Debug, Default)]
pub(crate) struct Graph {
    pub(crate) names: Vec<String>,
    index: HashMap<String, u32>,
    /// Instructions executed in each function itself.
    pub(crate) self_ir: Vec<u64>,
    pub(crate) edges: HashMap<(u32, u32), Edge>,
    /// Instructions of the whole run since the counters were zeroed.
    pub(crate) program_ir: u64,
    /// `callgrind-3.19.0`.
    pub(crate) tool: String,
}

/// The state of reading one dump: its name compression tables and where it is.
struct Reader {
    /// `(id)` of the fn namespace (fn, cfn, jfn) → function.
    compressed: HashMap<u64, u32>,
    /// Position columns before the costs (`line`, or `instr line`).
    positions: usize,
    /// Column of `Ir` among the events.
    ir_column: Option<usize>,
    current: Option<u32>,
    callee: Option<u32>,
    /// Set by `calls=`: the next cost line is the inclusive cost of those calls.
    pending_calls: Option<u64>,
    summary: Option<u64>,
    totals: Option<u64>,
}

impl Graph {
    /// Adds one dump to the graph. Errors name the line.
    pub(crate) fn read(&mut self, input: impl BufRead) -> Result<(), String> {
        let mut r = Reader {
            compressed: HashMap::new(),
            positions: 1,
            ir_column: None,
            current: None,
            callee: None,
            pending_calls: None,
            summary: None,
            totals: None,
        };
        for (n, line) in input.lines().enumerate() {
            let line = line.map_err(|e| format!("line {}: {e}", n + 1))?;
            self.line(&mut r, line.trim_end()).map_err(|e| format!("line {}: {e}", n + 1))?;
        }
        if r.ir_column.is_none() {
            return Err("no Ir event (was the dump written by Callgrind?)".into());
        }
        self.program_ir += r.summary.or(r.totals).unwrap_or(0);
        Ok(())
    }

    fn line(&mut self, r: &mut Reader, line: &str) -> Result<(), String> {
        let Some(first) = line.bytes().next() else { return Ok(()) };
        if first.is_ascii_digit() || matches!(first, b'+' | b'-' | b'*') {
            return self.cost(r, line);
        }
        if first == b'#' {
            return Ok(());
        }
        if let Some((key, value)) = line.split_once('=') {
            match key {
                "fn" => {
                    r.current = Some(self.name(r, value)?);
                    r.pending_calls = None;
                }
                "cfn" => r.callee = Some(self.name(r, value)?),
                // Jump targets may introduce a function name that is used later.
                "jfn" => {
                    self.name(r, value)?;
                }
                "calls" => {
                    let count = value.split_whitespace().next().and_then(|c| c.parse().ok());
                    r.pending_calls = Some(count.ok_or("calls= without a count")?);
                }
                _ => {} // ob, fl, fi, fe, cob, cfi, cfl, jump, jcnd, jfi: not needed
            }
            return Ok(());
        }
        if let Some((key, value)) = line.split_once(':') {
            let value = value.trim();
            match key {
                "creator" => self.tool = value.to_string(),
                "positions" => r.positions = value.split_whitespace().count().max(1),
                "events" => r.ir_column = value.split_whitespace().position(|e| e == "Ir"),
                "summary" => r.summary = Some(ir_of(value, r.ir_column)),
                "totals" => r.totals = Some(ir_of(value, r.ir_column)),
                _ => {} // version, pid, cmd, part, desc, thread, event
            }
        }
        Ok(())
    }

    /// A cost line: positions, then the events' values (trailing zeros may be left out).
    fn cost(&mut self, r: &mut Reader, line: &str) -> Result<(), String> {
        let ir = line
            .split_whitespace()
            .nth(r.positions + r.ir_column.ok_or("a cost line before the events: line")?)
            .map_or(Ok(0), |v| v.parse::<u64>().map_err(|_| format!("{v:?} is not a cost")))?;
        let Some(current) = r.current else { return Ok(()) };
        match (r.pending_calls.take(), r.callee) {
            (Some(calls), Some(callee)) => {
                let edge = self.edges.entry((current, callee)).or_default();
                edge.calls += calls;
                edge.ir += ir;
            }
            (Some(_), None) => return Err("calls= without a cfn= before it".into()),
            (None, _) => self.self_ir[current as usize] += ir,
        }
        Ok(())
    }

    /// A function name field: `(id) name` defines a compressed name, `(id)` uses one,
    /// `name` is uncompressed.
    fn name(&mut self, r: &mut Reader, field: &str) -> Result<u32, String> {
        let field = field.trim();
        let Some(rest) = field.strip_prefix('(') else { return Ok(self.intern(field)) };
        let (id, name) = rest.split_once(')').ok_or("unclosed ( in a name")?;
        let id: u64 = id.parse().map_err(|_| format!("({id}) is not a name id"))?;
        let name = name.trim();
        if name.is_empty() {
            return r.compressed.get(&id).copied().ok_or_else(|| format!("name ({id}) used before it was defined"));
        }
        let node = self.intern(name);
        r.compressed.insert(id, node);
        Ok(node)
    }

    fn intern(&mut self, name: &str) -> u32 {
        if let Some(&node) = self.index.get(name) {
            return node;
        }
        let node = self.names.len() as u32;
        self.names.push(name.to_string());
        self.self_ir.push(0);
        self.index.insert(name.to_string(), node);
        node
    }
}

fn ir_of(values: &str, column: Option<usize>) -> u64 {
    column.and_then(|c| values.split_whitespace().nth(c)).and_then(|v| v.parse().ok()).unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The shape of a real dump (Callgrind 3.19, name compression, a cache-simulation
    /// event before Ir, instr and line positions with relative subpositions).
    pub(crate) const DUMP: &str = "# callgrind format
version: 1
creator: callgrind-3.19.0
pid: 31024
cmd:  ./m
part: 1

desc: Trigger: Client Request: hotpath-1

positions: instr line
events: Dr Ir
summary: 9 1500

ob=(6) /tmp/m
fl=(140) ???
fn=(1086) m::main
0x10 0 1 5
cfn=(1176) m::work::__hotpath_cg_0123456789abcdef
calls=2 0
+4 * 0 1000
+2 * 0 3
cfn=(1178) m::helper
calls=1 0
+3 * 0 200

fn=(1176)
0x20 0 4 800
cfn=(1178)
calls=3 0
+5 * 0 200

fn=(1178)
0x30 0 0 400
";

    #[test]
    fn reads_costs_calls_and_compressed_names() {
        let mut g = Graph::default();
        g.read(DUMP.as_bytes()).unwrap();
        assert_eq!(g.tool, "callgrind-3.19.0");
        assert_eq!(g.program_ir, 1500);
        let id = |name: &str| g.index[name];
        let (main, work, helper) = (id("m::main"), id("m::work::__hotpath_cg_0123456789abcdef"), id("m::helper"));
        assert_eq!(g.self_ir[main as usize], 8);
        assert_eq!(g.self_ir[work as usize], 800);
        assert_eq!(g.self_ir[helper as usize], 400);
        assert_eq!(g.edges[&(main, work)], Edge { calls: 2, ir: 1000 });
        assert_eq!(g.edges[&(main, helper)], Edge { calls: 1, ir: 200 });
        assert_eq!(g.edges[&(work, helper)], Edge { calls: 3, ir: 200 });
    }

    #[test]
    fn bad_input_is_an_error_with_its_line() {
        let err = Graph::default().read("events: Ir\nfn=(3)\n".as_bytes()).unwrap_err();
        assert_eq!(err, "line 2: name (3) used before it was defined");
        let err = Graph::default().read("events: Ir\nfn=f\n0 x\n".as_bytes()).unwrap_err();
        assert_eq!(err, "line 3: \"x\" is not a cost");
        assert!(Graph::default().read("fn=f\n".as_bytes()).unwrap_err().contains("no Ir event"));
    }
}
