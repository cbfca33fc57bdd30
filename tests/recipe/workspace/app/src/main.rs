//! The binary of the README's workspace recipe: the only crate with a `hotpath` feature.

#[hotpath::measure]
fn total(lines: &[&str]) -> usize {
    lines.iter().map(|line| parser::parse_line(line)).sum()
}

#[hotpath::main]
fn main() {
    println!("words={}", total(&["one two", "three four five"]));
}
