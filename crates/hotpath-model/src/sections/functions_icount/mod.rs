//! The `functions-icount` section: instructions executed by measured functions, read
//! from Callgrind (`hotpath-callgrind`, a program run under `valgrind --tool=callgrind`).

mod metrics;
mod row_metrics;
mod table;

use serde::{Deserialize, Serialize};

/// Instruction counts of every measured function, exact and deterministic: a change
/// in them is a change in the code that ran, not noise.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct FunctionsIcount {
    /// Why there are no counts (`not running under valgrind --tool=callgrind`, or the
    /// Callgrind dump could not be read); absent when the rows hold counts.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// The Callgrind that counted (`callgrind-3.19.0`).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub tool: String,
    /// The Callgrind dump the counts were read from (kept for `callgrind_annotate`).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub dump_file: String,
    /// Instructions the whole program executed while profiling (denominator of % Total).
    pub program_ir: u64,
    /// Functions with counts, before the focus filter and the row limit.
    pub total_functions: usize,
    /// Measured functions that ran but have no count, with the reason (a block using
    /// `return`, `?`, `break` or `continue`, a function that never returns).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub uncounted: Vec<String>,
    /// Rows after focus and limit, most instructions first.
    pub rows: Vec<FunctionIcount>,
}

/// One measured function's instructions (Callgrind's `Ir` event).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct FunctionIcount {
    /// Display name, as in `functions_timing`.
    pub name: String,
    /// Source file of the annotated item.
    pub file: String,
    /// Source line of the annotated item.
    pub line: u32,
    /// An async function: its polls are counted, on any thread.
    pub is_async: bool,
    /// Completed calls.
    pub calls: u64,
    /// Async only: polls (0 for sync).
    pub polls: u64,
    /// Instructions of all calls, nested calls included (recursion counted once),
    /// as `callgrind_annotate --inclusive=yes` reports for the function.
    pub ir: u64,
    /// `ir / calls`.
    pub ir_per_call: u64,
    /// Instructions outside nested measured calls.
    pub self_ir: u64,
}
