struct S;

#[hotpath::measure_all(verbose = true)]
impl S {
    fn a(&self) {}
}

#[hotpath::measure_all]
fn not_a_container() {}

#[hotpath::measure_all]
fn returns_impl() -> impl Fn() {
    || ()
}

struct T;

impl T {
    #[hotpath::skip(please)]
    fn b(&self) {}
}

fn main() {}
