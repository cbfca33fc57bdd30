#[hotpath::main(percentile = [50, 95])]
fn main() {}

mod format {
    #[hotpath::main(format = "xml")]
    fn run() {}
}

mod range {
    #[hotpath::main(percentiles = [50, 101])]
    fn run() {}
}

mod kind {
    #[hotpath::main(limit = "ten")]
    fn run() {}
}

mod twice {
    #[hotpath::main(limit = 1, limit = 2)]
    fn run() {}
}

mod shape {
    #[hotpath::main(format)]
    fn run() {}
}

mod allocator {
    #[hotpath::main(allocator = "mimalloc")]
    fn run() {}
}
