//! An empty `#[hotpath::main]` under hotpath 0.30.3: `scripts/bench` times it from
//! process start to exit beside this hotpath's `case_empty_main`.

#[hotpath::main]
fn main() {}
