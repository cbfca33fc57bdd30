#[hotpath::measure(lable = "typo")]
fn typo() {}

#[hotpath::measure(label = 7)]
fn not_a_string() {}

#[hotpath::measure(label = "")]
fn empty() {}

#[hotpath::measure]
const fn constant() -> u32 {
    1
}

#[hotpath::measure]
struct NotAFunction;

fn main() {}

#[hotpath::measure(future = true)]
fn not_async() {}

#[hotpath::measure(log = "yes", impl_type = "")]
fn bad_values() {}

trait Service {
    #[hotpath::measure]
    fn declared_only(&self) -> u32;
}

#[hotpath::future_fn]
fn future_fn_on_sync() {}

#[hotpath::future_fn(label = "x")]
async fn future_fn_params() {}

#[hotpath::measure(timeline_over = "fast")]
fn over_not_a_duration() {}

#[hotpath::measure(timeline_over = 50)]
fn over_not_a_string() {}
