fn main() {
    let _a = hotpath::channel!(std::sync::mpsc::channel::<u8>(), lable = "typo");
    let _b = hotpath::channel!(std::sync::mpsc::channel::<u8>(), label = 5);
    let _c = hotpath::channel!(std::sync::mpsc::channel::<u8>(), label = "");
    let _d = hotpath::channel!(std::sync::mpsc::channel::<u8>(), iter = yes);
    let _e = hotpath::mutex!(std::sync::Mutex::new(0), iter = true);
    let _f = hotpath::rw_lock!(std::sync::RwLock::new(0), capacity = 4);
    let _g = hotpath::future!(label = "no-future");
    let _h = hotpath::stream!();
    let _i = hotpath::future!(async {}, label = "a", 42);
    let _j = hotpath::stream!(std::iter::empty::<u8>(), label = "a", label = "b");
    let _k = hotpath::channel!(std::sync::mpsc::channel::<u8>(), label = true, capacity = "four", proxy = "yes");
    let _l = hotpath::mutex!(std::sync::Mutex::new(0), log = true);
    let _m = hotpath::future!(async {}, iter = true, log = 1);
}
