//! Where a tracker macro was written: a leaf, read by the sites and the log records.

/// Where a tracker macro was written (`file!()`, `line!()`, `column!()`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Location {
    /// Source file.
    pub file: &'static str,
    /// Line, from 1.
    pub line: u32,
    /// Column, from 1.
    pub column: u32,
}

impl Location {
    /// A location; `const` for statics.
    pub const fn new(file: &'static str, line: u32, column: u32) -> Self {
        Self { file, line, column }
    }
}
