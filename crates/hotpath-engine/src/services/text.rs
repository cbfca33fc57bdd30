//! Building a row's key text without allocating: a buffer on the stack that spills to
//! the heap only for unusually long keys, and the path normalization that folds ids.

/// Key text up to 256 bytes on the stack.
pub(crate) struct TextBuf {
    stack: [u8; 256],
    len: usize,
    heap: Option<String>,
}

impl TextBuf {
    pub(crate) fn new() -> Self {
        Self { stack: [0; 256], len: 0, heap: None }
    }

    pub(crate) fn push(&mut self, s: &str) {
        if let Some(heap) = &mut self.heap {
            heap.push_str(s);
        } else if self.len + s.len() <= self.stack.len() {
            self.stack[self.len..self.len + s.len()].copy_from_slice(s.as_bytes());
            self.len += s.len();
        } else {
            let mut heap = crate::memory::untracked(|| String::with_capacity(self.len + s.len() + 64));
            heap.push_str(self.as_str());
            heap.push_str(s);
            self.heap = Some(heap);
        }
    }

    pub(crate) fn as_str(&self) -> &str {
        match &self.heap {
            Some(heap) => heap,
            // Only whole `&str`s are copied in, so the prefix is valid UTF-8.
            None => std::str::from_utf8(&self.stack[..self.len]).unwrap_or(""),
        }
    }
}

/// Appends `path` with every segment that is a number, a UUID or 16+ hex digits
/// replaced by `{id}`; an empty path is `/`.
pub(crate) fn push_path(out: &mut TextBuf, path: &str) {
    if path.is_empty() {
        out.push("/");
        return;
    }
    let mut first = true;
    for segment in path.split('/') {
        if !first {
            out.push("/");
        }
        first = false;
        out.push(if is_id(segment) { "{id}" } else { segment });
    }
}

/// A path segment that names one resource among many.
fn is_id(segment: &str) -> bool {
    let b = segment.as_bytes();
    if b.is_empty() {
        return false;
    }
    let digits = b.iter().all(u8::is_ascii_digit);
    let hex = b.len() >= 16 && b.iter().all(u8::is_ascii_hexdigit);
    digits || hex || is_uuid(b)
}

/// `8-4-4-4-12` hex digits.
fn is_uuid(b: &[u8]) -> bool {
    b.len() == 36
        && b.iter()
            .enumerate()
            .all(|(i, c)| if matches!(i, 8 | 13 | 18 | 23) { *c == b'-' } else { c.is_ascii_hexdigit() })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn path(p: &str) -> String {
        let mut out = TextBuf::new();
        push_path(&mut out, p);
        out.as_str().to_string()
    }

    #[test]
    fn folds_ids_in_paths() {
        assert_eq!(path("/users/42"), "/users/{id}");
        assert_eq!(path("/users/12/posts/34/comments"), "/users/{id}/posts/{id}/comments");
        assert_eq!(path("/o/123e4567-e89b-12d3-a456-426614174000"), "/o/{id}");
        assert_eq!(path("/blob/0123456789abcdef0123"), "/blob/{id}");
        assert_eq!(path("/v2/t1/2fa/deadbeef"), "/v2/t1/2fa/deadbeef");
        assert_eq!(path(""), "/");
        assert_eq!(path("/"), "/");
    }

    #[test]
    fn long_keys_spill_to_the_heap() {
        let mut out = TextBuf::new();
        out.push("GET ");
        let long = "x".repeat(300);
        out.push(&long);
        out.push("é");
        assert_eq!(out.as_str(), format!("GET {long}é"));
    }
}
