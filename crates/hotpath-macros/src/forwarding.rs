//! The check `#[hotpath::main]` adds in both modes: a feature of the program named like
//! one of hotpath's (`hotpath`, `hotpath-alloc`, ...) that is on while hotpath's own is
//! off forwards nothing (`hotpath-alloc = ["hotpath"]` without `"hotpath/hotpath-alloc"`),
//! so it would silently profile less than asked. The `cfg` is evaluated in the
//! program's crate, the constant in hotpath's; a failed `assert!` in a constant is a
//! compile error carrying the message, which names the line to write.

use proc_macro::{Literal, TokenStream};

/// hotpath's features and the constants in `hotpath::__features` that say whether each is on.
const FEATURES: [(&str, &str); 6] = [
    ("hotpath", "HOTPATH"),
    ("hotpath-alloc", "ALLOC"),
    ("hotpath-cpu", "CPU"),
    ("hotpath-heap", "HEAP"),
    ("hotpath-callgrind", "CALLGRIND"),
    ("hotpath-mcp", "MCP"),
];

/// One constant item; `unexpected_cfgs` is allowed because most programs declare only
/// some of these features.
pub(crate) fn check() -> TokenStream {
    let mut body = String::new();
    for (feature, constant) in FEATURES {
        let fix = if feature == "hotpath" {
            r#"hotpath = ["hotpath/hotpath"]"#.to_string()
        } else {
            format!(r#"{feature} = ["hotpath", "hotpath/{feature}"]"#)
        };
        let message = format!(
            "this crate's `{feature}` feature is on, but hotpath's `{feature}` feature is off, so it \
             does nothing: forward it in this crate's Cargo.toml, [features] {fix}"
        );
        body.push_str(&format!(
            "#[cfg(feature = {})] ::core::assert!(::hotpath::__features::{constant}, {});",
            Literal::string(feature),
            Literal::string(&message),
        ));
    }
    format!("#[allow(unexpected_cfgs)] const _: () = {{ {body} }};").parse().expect("valid tokens")
}
