//! `log = true` on values without `Debug`: fine without the `hotpath` feature (nothing
//! is logged, nothing is required); with it, each is a compile error at the call.

struct NoDebug;

#[hotpath::measure(log = true)]
fn make() -> NoDebug {
    NoDebug
}

#[hotpath::future_fn(log = true)]
async fn make_later() -> NoDebug {
    NoDebug
}

fn main() {
    let _ = make();
    let _ = make_later();
    let (tx, _rx) = hotpath::channel!(std::sync::mpsc::channel::<NoDebug>(), log = true);
    let _ = tx.send(NoDebug);
    let _ = hotpath::future!(async { NoDebug }, log = true);
}
