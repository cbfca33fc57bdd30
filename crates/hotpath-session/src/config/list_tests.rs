//! The section list (`hotpath-sections`) is the only list: the model's table, the
//! macros' `report =` names and `*_limit` parameters, the facade's feature-off
//! `Section`, the builder's and `MainConfig`'s limit methods and the
//! `HOTPATH_<GROUP>_LIMIT` variables are all expanded from it. These tests check that
//! what is generated works: every group's method and variable set that group's limit.

use std::ffi::OsString;

use hotpath_model::{Section, LIMIT_GROUPS, SECTIONS};

use super::{limit_group, Config, MainConfig};

/// A section of `group`.
fn section_of(group: &str) -> Section {
    Section::all().into_iter().find(|s| limit_group(*s) == Some(group)).expect("a section")
}

#[test]
fn every_limit_group_has_its_variable() {
    assert!(!LIMIT_GROUPS.is_empty());
    for group in LIMIT_GROUPS {
        let name = format!("HOTPATH_{}_LIMIT", group.name.to_ascii_uppercase());
        let (config, warnings) =
            Config::resolve(&MainConfig::new("app::main"), |k| (k == name).then(|| OsString::from("3")));
        assert!(warnings.is_empty(), "{warnings:?}");
        assert_eq!(config.limits.of(section_of(group.name)), 3, "{name}");
        let (config, _) = Config::resolve(&MainConfig::new("app::main"), |_| None);
        assert_eq!(config.limits.of(section_of(group.name)), group.default, "{} default", group.name);
    }
}

/// Calls every generated `MainConfig::<group>_limit` and checks the group it sets.
macro_rules! call_every_limit_method {
    (sections { $($sections:tt)* } limits { $( $method:ident: $group:literal, $default:literal, $what:literal; )* }) => {
        #[test]
        fn every_limit_group_has_its_method() {
            let mut called = Vec::new();
            $(
                let config = MainConfig::new("app::main").$method(4);
                let (config, _) = Config::resolve(&config, |_| None);
                assert_eq!(config.limits.of(section_of($group)), 4, stringify!($method));
                called.push($group);
            )*
            let groups: Vec<&str> = LIMIT_GROUPS.iter().map(|g| g.name).collect();
            assert_eq!(called, groups);
        }
    };
}
hotpath_sections::sections!(call_every_limit_method);

#[test]
fn sections_without_a_group_are_never_cut() {
    for def in SECTIONS.iter().filter(|d| d.limit_group.is_none()) {
        let (config, _) = Config::resolve(&MainConfig::new("app::main").limit(1), |_| None);
        assert_eq!(config.limits.of(def.section), 0, "{}", def.name);
    }
}
