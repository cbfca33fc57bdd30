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
