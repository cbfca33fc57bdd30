//! Splitting macro input into comma-separated expressions without `syn`: a comma
//! separates two expressions unless it sits in a group, in a turbofish's generic
//! arguments (`HashMap::<K, V>::new()`) or in a closure's parameters (`|a, b| a + b`).

use proc_macro::{Spacing, TokenTree};

/// The comma-separated parts of `tokens`; a trailing comma gives no empty last part.
pub(crate) fn split(tokens: impl IntoIterator<Item = TokenTree>) -> Vec<Vec<TokenTree>> {
    let mut parts: Vec<Vec<TokenTree>> = vec![Vec::new()];
    // Open `::<` generic lists, and whether a closure's `|...|` parameters are open.
    let mut angles = 0usize;
    let mut in_params = false;
    let mut prev: Option<TokenTree> = None;
    let mut prev2: Option<TokenTree> = None;
    for tt in tokens {
        let mut separator = false;
        if let TokenTree::Punct(p) = &tt {
            match p.as_char() {
                ',' if angles == 0 && !in_params => separator = true,
                '<' if angles > 0 || follows_path_sep(&prev, &prev2) => angles += 1,
                // `->` inside generic arguments (`Fn() -> T`) closes nothing.
                '>' if angles > 0 && !is_joint(&prev, '-') => angles -= 1,
                '|' if in_params => in_params = false,
                '|' if starts_closure(parts.last().map(Vec::as_slice).unwrap_or(&[])) => in_params = true,
                _ => {}
            }
        }
        if separator {
            parts.push(Vec::new());
            prev = None;
            prev2 = None;
            continue;
        }
        prev2 = prev.replace(tt.clone());
        parts.last_mut().expect("never empty").push(tt);
    }
    if parts.last().is_some_and(Vec::is_empty) {
        parts.pop();
    }
    parts
}

/// The whole of `parts` joined back with commas.
pub(crate) fn join(parts: &[Vec<TokenTree>]) -> Vec<TokenTree> {
    let mut out = Vec::new();
    for (i, part) in parts.iter().enumerate() {
        if i > 0 {
            out.push(proc_macro::Punct::new(',', Spacing::Alone).into());
        }
        out.extend(part.iter().cloned());
    }
    out
}

/// A `name = value` part (a lone `=`, not `==` or `=>`).
pub(crate) fn is_parameter(part: &[TokenTree]) -> bool {
    matches!(
        part,
        [TokenTree::Ident(_), TokenTree::Punct(p), ..] if p.as_char() == '=' && p.spacing() == Spacing::Alone
    )
}

fn follows_path_sep(prev: &Option<TokenTree>, prev2: &Option<TokenTree>) -> bool {
    matches!((prev2, prev), (Some(TokenTree::Punct(a)), Some(TokenTree::Punct(b)))
        if a.as_char() == ':' && b.as_char() == ':')
}

fn is_joint(prev: &Option<TokenTree>, c: char) -> bool {
    matches!(prev, Some(TokenTree::Punct(p)) if p.as_char() == c && p.spacing() == Spacing::Joint)
}

/// Whether a `|` here opens closure parameters: at the start of an expression, or
/// after `move`, `async` or `static`.
fn starts_closure(before: &[TokenTree]) -> bool {
    before
        .iter()
        .all(|tt| matches!(tt, TokenTree::Ident(i) if ["move", "async", "static"].contains(&i.to_string().as_str())))
}
