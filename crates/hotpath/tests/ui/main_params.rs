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

mod every_bad_parameter_at_once {
    #[hotpath::main(percentiles = [150], format = "xml", limit = -1)]
    fn run() {}
}

mod report {
    #[hotpath::main(report = "functions-timing, chanels,-thread,auto")]
    fn run() {}
}

mod section_limits {
    #[hotpath::main(functions_limit = "ten", threads_limit = 2.5, mutexes_limit = 3)]
    fn run() {}
}

mod timeline {
    #[hotpath::main(timeline = "yes", timeline_output = "")]
    fn run() {}
}

mod overhead_budget {
    #[hotpath::main(overhead_budget = "lots")]
    fn run() {}
}

mod overhead_budget_out_of_range {
    #[hotpath::main(overhead_budget = "0%")]
    fn run() {}
}

mod overhead_budget_not_a_string {
    #[hotpath::main(overhead_budget = 0.01)]
    fn run() {}
}
