fn main() {
    let _a = hotpath::measure_block!("several", 1, 2);
    let _b = hotpath::measure_block!("", 1 + 1);
    let _c = hotpath::measure_block!("no-expression");
    let _d = hotpath::measure_block!(5, 1 + 1);
    let _e = hotpath::measure_block!();
}
