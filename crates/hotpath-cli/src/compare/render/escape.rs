//! Text from the reports (row names, section and field names) and from the command
//! line (side labels) is data: it must not steer the terminal or the markdown it
//! lands in. A row named "x\n| fake | row" or "\x1b]52;..." is shown as written, with
//! its control characters made visible.

/// For a terminal or a log: control characters (newlines, ESC, C1 codes) and
/// bidirectional overrides become visible escapes such as `\n` and `\u{1b}`.
pub(crate) fn terminal(text: &str) -> String {
    if !text.chars().any(needs_escape) {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        push_visible(&mut out, c);
    }
    out
}

/// Text in a markdown table cell: markdown and HTML syntax characters are
/// backslash-escaped (GitHub renders them literally) and control characters made
/// visible, so that the cell stays one cell of one row.
pub(crate) fn markdown(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '\\' | '`' | '*' | '_' | '[' | ']' | '<' | '>' | '|' | '#' | '!' | '~' | '&' => {
                out.push('\\');
                out.push(c);
            }
            c => push_visible(&mut out, c),
        }
    }
    out
}

/// A markdown code span: shown verbatim (function paths hold `<`, `>` and `_`),
/// fenced with more backticks than the text holds in a row; a pipe is escaped,
/// as GitHub ends a table cell at it even inside a code span.
pub(crate) fn code(text: &str) -> String {
    let mut inner = String::with_capacity(text.len() + 4);
    for c in text.chars() {
        match c {
            '|' => inner.push_str("\\|"),
            c => push_visible(&mut inner, c),
        }
    }
    let longest = inner.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest + 1);
    // A span starting or ending with a backtick needs a space inside its fence.
    let pad = if inner.starts_with('`') || inner.ends_with('`') { " " } else { "" };
    format!("{fence}{pad}{inner}{pad}{fence}")
}

fn needs_escape(c: char) -> bool {
    c.is_control() || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{200e}' | '\u{200f}')
}

fn push_visible(out: &mut String, c: char) {
    match c {
        '\n' => out.push_str("\\n"),
        '\r' => out.push_str("\\r"),
        '\t' => out.push_str("\\t"),
        c if needs_escape(c) => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
        c => out.push(c),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn terminal_text_shows_control_characters() {
        assert_eq!(terminal("app::f"), "app::f");
        assert_eq!(terminal("a\nb\tc\u{1b}[31mred\u{7}"), "a\\nb\\tc\\u{1b}[31mred\\u{7}");
        assert_eq!(terminal("x\u{202e}y\u{9b}"), "x\\u{202e}y\\u{9b}");
    }

    #[test]
    fn markdown_text_cannot_break_out_of_its_cell() {
        assert_eq!(markdown("a|b\n<script>x</script>"), "a\\|b\\n\\<script\\>x\\</script\\>");
        assert_eq!(markdown("p_50 *x* `y` [l](u) & #"), "p\\_50 \\*x\\* \\`y\\` \\[l\\](u) \\& \\#");
    }

    #[test]
    fn code_spans_fence_backticks_and_escape_pipes() {
        assert_eq!(code("app::work<T>"), "`app::work<T>`");
        assert_eq!(code("a|b"), "`a\\|b`");
        assert_eq!(code("a`b``c"), "```a`b``c```");
        assert_eq!(code("`x"), "`` `x ``");
        assert_eq!(code("x\ny"), "`x\\ny`");
    }
}
