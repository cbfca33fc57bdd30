//! Per marker tag, what the call graph says about the measured function whose body
//! runs in `__hotpath_cg_<tag>`:
//!
//! - `ir`: the inclusive cost of the calls into the marker, summed over its callers.
//!   That is `callgrind_annotate --inclusive=yes`'s number for the function. Deeper
//!   recursion levels (Callgrind names them `marker'2`) are inside it already.
//! - `calls`: calls into the marker at every recursion level.
//! - `self_ir`: `ir` minus what ran inside nested markers. A nested marker reached
//!   through unmeasured functions counts in the share those functions spend in markers
//!   overall; that is exact unless such a function is also called from elsewhere with a
//!   different share (Callgrind's graph does not say which call paid for what).

use std::collections::HashMap;

use super::parse::Graph;

/// Marker functions are named `__hotpath_cg_` and 16 hexadecimal digits.
pub(crate) const PREFIX: &str = "__hotpath_cg_";
const TAG_LEN: usize = 16;

/// What the graph says about one marker tag.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct TagCounts {
    pub(crate) calls: u64,
    pub(crate) ir: u64,
    pub(crate) self_ir: u64,
}

/// The tag and recursion level (1 outermost) of a function named as a marker. A
/// marker named inside generic arguments (`drop_in_place<Marked<_, __hotpath_cg_..>>`)
/// is another function's type parameter, not the marker.
pub(crate) fn marker_tag(name: &str) -> Option<(&str, u32)> {
    let start = name.find(PREFIX)?;
    if generic_depth(&name[..start]) > 0 {
        return None;
    }
    let at = start + PREFIX.len();
    let tag = name.get(at..at + TAG_LEN)?;
    if !tag.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let level = name.rsplit_once('\'').and_then(|(_, n)| n.parse::<u32>().ok()).unwrap_or(1);
    Some((tag, level))
}

/// Angle brackets still open at the end of `prefix` (demangled `<`, or `$LT$` in a
/// symbol left mangled); the `>` of `->` closes none.
fn generic_depth(prefix: &str) -> i64 {
    let opened = prefix.matches('<').count() + prefix.matches("$LT$").count();
    let closed = prefix.matches('>').count() - prefix.matches("->").count() + prefix.matches("$GT$").count();
    opened as i64 - closed as i64
}

/// The counts of every marker tag in the graph.
pub(crate) fn tag_counts(g: &Graph) -> HashMap<String, TagCounts> {
    let n = g.names.len();
    let marker: Vec<Option<(&str, u32)>> = g.names.iter().map(|name| marker_tag(name)).collect();
    let mut out_edges: Vec<Vec<(u32, u64)>> = vec![Vec::new(); n];
    // Inclusive cost as entered from other functions, and calls from anywhere.
    let mut entered = vec![0u64; n];
    let mut calls_in = vec![0u64; n];
    for (&(from, to), e) in &g.edges {
        calls_in[to as usize] += e.calls;
        if from != to {
            entered[to as usize] += e.ir;
            out_edges[from as usize].push((to, e.ir));
        }
    }
    let share = marker_shares(&marker, &out_edges, &entered);
    let nested = |v: usize| -> f64 {
        out_edges[v]
            .iter()
            .map(|&(w, ir)| if marker[w as usize].is_some() { ir as f64 } else { ir as f64 * share[w as usize] })
            .sum()
    };
    let mut counts: HashMap<String, TagCounts> = HashMap::new();
    for (v, m) in marker.iter().enumerate() {
        let Some((tag, level)) = m else { continue };
        let c = counts.entry(tag.to_string()).or_default();
        c.calls += calls_in[v];
        if *level == 1 {
            c.ir += entered[v];
        }
        c.self_ir += entered[v].saturating_sub(nested(v).round() as u64);
    }
    counts
}

/// For every function that is not a marker, the share of its inclusive cost spent
/// inside markers (0..=1). Post-order over the graph without recursion on the native
/// stack; a function met again while it is being computed (a cycle) counts as 0.
fn marker_shares(marker: &[Option<(&str, u32)>], out_edges: &[Vec<(u32, u64)>], entered: &[u64]) -> Vec<f64> {
    #[derive(Clone, Copy, PartialEq)]
    enum State {
        New,
        Open,
        Done,
    }
    let n = marker.len();
    let mut share = vec![0.0f64; n];
    let mut state = vec![State::New; n];
    for root in 0..n {
        if marker[root].is_some() || state[root] != State::New {
            continue;
        }
        // (function, next out-edge to look at)
        let mut stack = vec![(root, 0usize)];
        state[root] = State::Open;
        while let Some(&mut (v, ref mut next)) = stack.last_mut() {
            if let Some(&(w, _)) = out_edges[v].get(*next) {
                *next += 1;
                let w = w as usize;
                if marker[w].is_none() && state[w] == State::New {
                    state[w] = State::Open;
                    stack.push((w, 0));
                }
                continue;
            }
            let inside: f64 = out_edges[v]
                .iter()
                .map(|&(w, ir)| {
                    let w = w as usize;
                    if marker[w].is_some() {
                        ir as f64
                    } else if state[w] == State::Done {
                        ir as f64 * share[w]
                    } else {
                        0.0
                    }
                })
                .sum();
            share[v] = if entered[v] == 0 { 0.0 } else { (inside / entered[v] as f64).min(1.0) };
            state[v] = State::Done;
            stack.pop();
        }
    }
    share
}

#[cfg(test)]
mod tests {
    use super::*;

    const A: &str = "app::outer::__hotpath_cg_00000000000000aa";
    const B: &str = "app::inner::__hotpath_cg_00000000000000bb";

    fn graph(text: &str) -> Graph {
        let mut g = Graph::default();
        g.read(format!("events: Ir\n{text}").as_bytes()).unwrap();
        g
    }

    #[test]
    fn tags_and_recursion_levels() {
        assert_eq!(marker_tag(A), Some(("00000000000000aa", 1)));
        assert_eq!(marker_tag(&format!("{A}'2")), Some(("00000000000000aa", 2)));
        assert_eq!(
            marker_tag("app::f::__hotpath_cg_0123456789abcdef::<u8, app::f::{closure#0}>"),
            Some(("0123456789abcdef", 1))
        );
        assert_eq!(marker_tag("_ZN3app1f29__hotpath_cg_0123456789abcdef17h1234E"), Some(("0123456789abcdef", 1)));
        assert_eq!(marker_tag("app::__hotpath_cg_short"), None);
        assert_eq!(marker_tag("<app::W as app::Tr>::t::__hotpath_cg_0123456789abcdef"), Some(("0123456789abcdef", 1)));
        let drop =
            "core::ptr::drop_in_place<hp::Marked<app::f::{{closure}}, app::f::__hotpath_cg_0123456789abcdef<F>>>";
        assert_eq!(marker_tag(drop), None);
        assert_eq!(marker_tag("core::ptr::drop_in_place$LT$hp..Marked$LT$app..f..__hotpath_cg_0123456789abcdef"), None);
        assert_eq!(
            marker_tag("<fn() -> u8 as app::Tr>::t::__hotpath_cg_0123456789abcdef"),
            Some(("0123456789abcdef", 1))
        );
        assert_eq!(marker_tag("app::main"), None);
    }

    #[test]
    fn inclusive_self_and_calls_through_helpers() {
        // main calls outer twice (1000 Ir); outer calls inner directly (300) and a
        // helper (250) that spends 200 of it in inner.
        let g = graph(&format!(
            "fn=main\n0 5\ncfn={A}\ncalls=2 0\n0 1000\n\
             fn={A}\n0 450\ncfn={B}\ncalls=3 0\n0 300\ncfn=helper\ncalls=1 0\n0 250\n\
             fn=helper\n0 50\ncfn={B}\ncalls=1 0\n0 200\n\
             fn={B}\n0 500\n"
        ));
        let c = tag_counts(&g);
        assert_eq!(c["00000000000000aa"], TagCounts { calls: 2, ir: 1000, self_ir: 500 });
        assert_eq!(c["00000000000000bb"], TagCounts { calls: 4, ir: 500, self_ir: 500 });
    }

    #[test]
    fn recursion_counts_the_outermost_calls_once() {
        // Callgrind names deeper levels A'2; A'2 calls itself for still deeper ones.
        let g = graph(&format!(
            "fn=main\n0 1\ncfn={A}\ncalls=1 0\n0 100\n\
             fn={A}\n0 10\ncfn={A}'2\ncalls=1 0\n0 90\n\
             fn={A}'2\n0 30\ncfn={A}'2\ncalls=2 0\n0 60\ncfn={B}\ncalls=1 0\n0 20\n\
             fn={B}\n0 20\n"
        ));
        let c = tag_counts(&g);
        assert_eq!(c["00000000000000aa"], TagCounts { calls: 4, ir: 100, self_ir: 80 });
        assert_eq!(c["00000000000000bb"].ir, 20);
    }

    #[test]
    fn cycles_between_helpers_end() {
        let g = graph(&format!(
            "fn=main\n0 1\ncfn={A}\ncalls=1 0\n0 100\n\
             fn={A}\n0 10\ncfn=h1\ncalls=1 0\n0 90\n\
             fn=h1\n0 10\ncfn=h2\ncalls=1 0\n0 80\n\
             fn=h2\n0 10\ncfn=h1\ncalls=1 0\n0 40\ncfn={B}\ncalls=1 0\n0 30\n\
             fn={B}\n0 30\n"
        ));
        let c = tag_counts(&g);
        assert_eq!(c["00000000000000aa"].ir, 100);
        assert!(c["00000000000000aa"].self_ir < 100 && c["00000000000000aa"].self_ir >= 60, "{:?}", c);
    }
}
