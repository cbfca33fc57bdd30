//! Every function shape `#[measure]` supports, each called a known number of times.

use std::fmt::Display;

#[hotpath::measure]
fn free(x: u32) -> u32 {
    x + 1
}

#[hotpath::measure]
fn generic<T: Display>(x: T) -> String {
    x.to_string()
}

#[hotpath::measure]
fn early(x: u32) -> u32 {
    if x > 5 {
        return 0;
    }
    x
}

#[hotpath::measure]
fn question(x: &str) -> Result<u32, std::num::ParseIntError> {
    let v: u32 = x.parse()?;
    Ok(v)
}

#[hotpath::measure]
fn iter_impl(n: u32) -> impl Iterator<Item = u32> {
    0..n
}

#[hotpath::measure(label = "custom-label")]
fn labelled() {}

#[hotpath::measure]
async fn async_question(x: &str) -> Result<u32, Box<dyn std::error::Error>> {
    tokio::task::yield_now().await;
    let v: u32 = x.parse()?;
    Ok(v)
}

#[hotpath::measure]
async fn async_impl() -> impl Display {
    7
}

trait Speak {
    fn speak(&self) -> &'static str;
}

struct Dog;

impl Dog {
    #[hotpath::measure]
    fn method(&self) -> u32 {
        1
    }
}

#[hotpath::measure_all]
impl Speak for Dog {
    fn speak(&self) -> &'static str {
        "woof"
    }
}

struct Counter(u32);

#[hotpath::measure_all]
impl Counter {
    fn bump(&mut self) {
        self.0 += 1;
    }

    async fn bump_async(&mut self) {
        self.0 += 1;
    }

    #[hotpath::skip]
    fn skipped(&self) -> u32 {
        self.0
    }

    const fn constant() -> u32 {
        3
    }
}

#[hotpath::measure_all]
mod module {
    pub(crate) fn in_module() -> u32 {
        1
    }

    #[hotpath::skip]
    pub(crate) fn skipped_in_module() -> u32 {
        2
    }
}

#[hotpath::main(format = "json", limit = 0)]
#[tokio::main(flavor = "current_thread")]
async fn main() {
    free(1);
    generic(1u8);
    generic("two");
    early(1);
    early(9);
    question("1").unwrap();
    question("x").unwrap_err();
    assert_eq!(iter_impl(3).count(), 3);
    labelled();
    async_question("4").await.unwrap();
    async_question("y").await.unwrap_err();
    assert_eq!(async_impl().await.to_string(), "7");
    Dog.method();
    Dog.speak();
    let mut c = Counter(0);
    c.bump();
    c.bump_async().await;
    c.skipped();
    let _ = Counter::constant();
    module::in_module();
    module::skipped_in_module();
    let v = hotpath::measure_block!("sync-block", { free(2) });
    let w = hotpath::measure_block!("await-block", async_question("5").await.unwrap());
    assert_eq!((v, w), (3, 5));
}
