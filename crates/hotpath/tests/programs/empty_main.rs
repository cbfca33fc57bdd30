//! The smallest profiled program: an empty `#[hotpath::main]`. `scripts/bench` times
//! it from process start to exit (report included) against the same source built
//! without the `hotpath` feature, i.e. what profiling a short CLI costs its user.

#[hotpath::main]
fn main() {}
