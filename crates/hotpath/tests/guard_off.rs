//! With the `hotpath` feature off, every builder method of hotpath-rs 0.30 compiles
//! and does nothing; `Format` and `Section` have the same names as with it on.
#![cfg(not(feature = "hotpath"))]

use std::collections::HashMap;
use std::time::Duration;

#[test]
fn the_whole_builder_compiles_and_does_nothing() {
    let guard = hotpath::HotpathGuardBuilder::new("off::main")
        .percentiles(&[50.0, 99.9])
        .format(hotpath::Format::JsonPretty)
        .limit(0)
        .functions_limit(1)
        .channels_limit(1)
        .streams_limit(1)
        .futures_limit(1)
        .threads_limit(1)
        .rw_locks_limit(1)
        .mutexes_limit(1)
        .io_limit(1)
        .sql_limit(1)
        .http_limit(1)
        .server_limit(1)
        .output_path("/nonexistent/never-written.json")
        .sections(vec![hotpath::Section::FunctionsTiming, hotpath::Section::Channels])
        .sections_exclude(vec![hotpath::Section::Threads])
        .report("auto,-threads")
        .before_shutdown(|| panic!("never runs with the feature off"))
        .user_metadata(HashMap::from([("k".to_string(), "v".to_string())]))
        .time_sampling_rate(0.5)
        .functions_time_sampling_rate(0.5)
        .mutexes_time_sampling_rate(0.5)
        .rw_locks_time_sampling_rate(0.5)
        .futures_time_sampling_rate(0.5)
        .channels_time_sampling_rate(0.5)
        .io_time_sampling_rate(0.5)
        .route_scope(false)
        .build();
    drop(guard);
    hotpath::HotpathGuardBuilder::new("off::bg").build_with_shutdown(Duration::from_millis(1));
    assert!(!std::path::Path::new("/nonexistent/never-written.json").exists());
    assert_eq!("json-pretty".parse::<hotpath::Format>(), Ok(hotpath::Format::JsonPretty));
}

#[test]
fn section_names_match_the_model() {
    let off: Vec<&str> = hotpath::Section::all().into_iter().map(hotpath::Section::name).collect();
    let on: Vec<&str> = hotpath_model::Section::all().into_iter().map(hotpath_model::Section::name).collect();
    assert_eq!(off, on);
    for section in hotpath::Section::all() {
        let on = section.name().parse::<hotpath_model::Section>().unwrap();
        assert_eq!(format!("{section:?}"), format!("{on:?}"));
        assert_eq!(section.short_name(), on.short_name());
    }
    assert_eq!(hotpath::Section::FunctionsIcount.short_name(), "icount");
    assert_eq!(hotpath::Section::Sql.short_name(), "sql");
}
