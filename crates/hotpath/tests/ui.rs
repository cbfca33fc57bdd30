//! Bad macro arguments are compile errors at the argument's span, identical with
//! the `hotpath` feature on and off (the same parser checks both).

#[test]
fn macro_argument_errors() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/*.rs");
}
