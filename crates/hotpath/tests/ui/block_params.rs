fn main() {
    let label = "dynamic";
    let _a = hotpath::measure_block!(label, 1 + 1);
    let _b = hotpath::measure_block!("", 1 + 1);
    let _c = hotpath::measure_block!("no-expression");
}
