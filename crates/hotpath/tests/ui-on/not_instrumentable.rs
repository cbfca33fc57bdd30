//! Values the wrapping macros have no implementation for (like a channel of a backend
//! whose hotpath feature is off).
fn main() {
    let _pair = hotpath::channel!((1u8, 2u8));
    let _mutex = hotpath::mutex!(std::cell::RefCell::new(0u8));
    let _rw = hotpath::rw_lock!(std::cell::Cell::new(0u8));
}
