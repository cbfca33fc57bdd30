//! Parameters of older releases that change nothing are accepted with a warning at
//! the parameter (denied here to show it), in both modes.
#![deny(deprecated)]

#[hotpath::main(timeout = 1000)]
fn run() {}

fn main() {
    run();
    let _pair = hotpath::channel!(std::sync::mpsc::channel::<u8>(), proxy = true, label = "lease-reply");
}
