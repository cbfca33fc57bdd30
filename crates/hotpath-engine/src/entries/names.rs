//! Names of entries in reports.

/// Short type names for reports: `alloc::string::String` → `String`,
/// `core::option::Option<alloc::vec::Vec<u8>>` → `Option<Vec<u8>>`.
pub(crate) fn short_type_name(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    let mut segment = String::new();
    for c in name.chars() {
        if c.is_alphanumeric() || c == '_' || c == ':' {
            segment.push(c);
        } else {
            out.push_str(segment.rsplit("::").next().unwrap_or(""));
            segment.clear();
            out.push(c);
        }
    }
    out.push_str(segment.rsplit("::").next().unwrap_or(""));
    out
}

#[cfg(test)]
mod tests {
    use super::short_type_name;

    #[test]
    fn shortens_paths_inside_generics() {
        assert_eq!(short_type_name("alloc::string::String"), "String");
        assert_eq!(short_type_name("core::option::Option<alloc::vec::Vec<u8>>"), "Option<Vec<u8>>");
        assert_eq!(short_type_name("(u32, &str)"), "(u32, &str)");
        assert_eq!(short_type_name("[app::Job; 4]"), "[Job; 4]");
        assert_eq!(short_type_name("std::io::buffered::bufreader::BufReader<std::fs::File>"), "BufReader<File>");
        assert_eq!(short_type_name("&mut alloc::vec::Vec<u8>"), "&mut Vec<u8>");
    }
}
