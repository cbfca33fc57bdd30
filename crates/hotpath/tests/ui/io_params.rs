fn main() {
    let _a = hotpath::io!(std::io::empty(), lable = "typo");
    let _b = hotpath::io!(std::io::empty(), label = 5);
    let _c = hotpath::io!(std::io::empty(), label = "");
    let _d = hotpath::io!(std::io::empty(), iter = "yes");
    let _e = hotpath::io!(std::io::empty(), label = "x", label = "y");
    let _f = hotpath::io!(label = "no value");
    let _g = hotpath::io!();
}
