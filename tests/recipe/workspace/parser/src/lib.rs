//! The library of the README's workspace recipe: it depends on `hotpath` with no
//! feature, and is instrumented exactly when the binary's `hotpath` feature is on.

/// Words in one line.
#[hotpath::measure]
pub fn parse_line(line: &str) -> usize {
    line.split_whitespace().count()
}
