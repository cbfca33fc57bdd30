//! Every copy of the section list agrees with the model's table: the macros' `report =`
//! names and `*_limit` parameters, the facade's feature-off `Section` and builder limit
//! methods, `MainConfig`'s limit methods, the `HOTPATH_<GROUP>_LIMIT` variables and the
//! MCP test's tool list. The copies are read as source text, so a section added to the
//! model's table fails here until each of them has it.

use std::collections::BTreeSet;
use std::ffi::OsString;

use hotpath_model::{Section, SECTIONS};

use super::{limit_groups, Config, MainConfig};

const MACRO_ARGS: &str = include_str!("../../../hotpath-macros/src/spec/main_args.rs");
const OFF_TYPES: &str = include_str!("../../../hotpath/src/guard/off_types.rs");
const BUILDER: &str = include_str!("../../../hotpath/src/guard/builder.rs");
const MAIN_PARAMS: &str = include_str!("main_params.rs");
const MCP_CLIENT: &str = include_str!("../../../hotpath/tests/mcp/client.py");

/// The quoted strings of `const <name>: [&str; N] = [ ... ];` in `source`.
fn const_list(source: &str, name: &str) -> Vec<String> {
    let start = source.find(&format!("const {name}: [&str;")).unwrap_or_else(|| panic!("no const {name}"));
    let body = &source[start..];
    let body = &body[body.find("= [").expect("a list") + 3..body.find("];").expect("its end")];
    quoted(body)
}

fn quoted(text: &str) -> Vec<String> {
    text.split('"').skip(1).step_by(2).map(str::to_string).collect()
}

/// Names of the methods `fn <x>_limit(` in `source` (besides `limit` and `group_limit`).
fn limit_methods(source: &str) -> BTreeSet<String> {
    source
        .lines()
        .filter_map(|l| l.trim().strip_prefix("pub fn ").or_else(|| l.trim().strip_prefix("fn ")))
        .filter_map(|l| l.split_once('(').map(|(name, _)| name.to_string()))
        .filter(|name| name.ends_with("_limit") && name != "group_limit")
        .collect()
}

fn expected_limits() -> BTreeSet<String> {
    limit_groups().iter().map(|g| format!("{g}_limit")).collect()
}

#[test]
fn the_macros_report_names_are_the_tables() {
    let table: Vec<&str> = SECTIONS.iter().map(|d| d.name).collect();
    let mut macros = const_list(MACRO_ARGS, "SECTIONS");
    let mut table_sorted: Vec<String> = table.iter().map(|s| s.to_string()).collect();
    macros.sort();
    table_sorted.sort();
    assert_eq!(macros, table_sorted, "hotpath-macros/src/spec/main_args.rs SECTIONS");
}

#[test]
fn every_limit_group_has_its_parameter_method_and_variable() {
    let expected = expected_limits();
    let macros: BTreeSet<String> = const_list(MACRO_ARGS, "SECTION_LIMITS").into_iter().collect();
    assert_eq!(macros, expected, "#[hotpath::main] *_limit parameters");
    let known: BTreeSet<String> = const_list(MACRO_ARGS, "KNOWN").into_iter().collect();
    assert!(expected.is_subset(&known), "KNOWN lists every *_limit parameter: {known:?}");
    assert_eq!(limit_methods(BUILDER), expected, "HotpathGuardBuilder limit methods");
    assert_eq!(limit_methods(MAIN_PARAMS), expected, "MainConfig limit methods");
    // The variables are generated from the same groups; each one is read and applied.
    for group in limit_groups() {
        let name = format!("HOTPATH_{}_LIMIT", group.to_ascii_uppercase());
        let (config, warnings) =
            Config::resolve(&MainConfig::new("app::main"), |k| (k == name).then(|| OsString::from("3")));
        assert!(warnings.is_empty(), "{warnings:?}");
        let section = Section::all().into_iter().find(|s| super::limit_group(*s) == group).expect("a section");
        assert_eq!(config.limits.of(section), 3, "{name}");
    }
}

#[test]
fn the_feature_off_section_is_the_tables() {
    let start = OFF_TYPES.rfind("sections! {").expect("the off-mode list");
    let body = &OFF_TYPES[start..start + OFF_TYPES[start..].find("\n}").expect("its end")];
    let off: BTreeSet<(String, String)> = body
        .lines()
        .filter_map(|l| l.trim().split_once(" => "))
        .map(|(variant, name)| (variant.to_string(), quoted(name).concat()))
        .collect();
    let table: BTreeSet<(String, String)> =
        SECTIONS.iter().map(|d| (format!("{:?}", d.section), d.name.to_string())).collect();
    assert_eq!(off, table, "hotpath/src/guard/off_types.rs");
}

#[test]
fn the_mcp_tests_tools_are_the_tables() {
    let start = MCP_CLIENT.find("SECTION_TOOLS = [").expect("the tool list");
    let body = &MCP_CLIENT[start..start + MCP_CLIENT[start..].find(']').expect("its end")];
    let tools: BTreeSet<String> = quoted(body).into_iter().collect();
    let table: BTreeSet<String> = SECTIONS.iter().map(|d| d.key.to_string()).collect();
    assert_eq!(tools, table, "hotpath/tests/mcp/client.py SECTION_TOOLS");
}
