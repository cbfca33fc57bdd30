//! A small, fixed hash (FNV-1a, 64 bits) for the rows' keys: the same on every run and
//! every thread, no random state, no allocation. Keys are fed in parts, so a key made
//! of a method, a host and a path is hashed without being assembled first.

/// An FNV-1a state.
#[derive(Clone, Copy)]
pub(crate) struct Fnv(u64);

impl Fnv {
    pub(crate) const fn new() -> Self {
        Self(0xcbf2_9ce4_8422_2325)
    }

    /// Feeds bytes.
    #[inline]
    pub(crate) fn bytes(mut self, bytes: &[u8]) -> Self {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3);
        }
        self
    }

    /// Feeds a number (ids of routes and functions).
    #[inline]
    pub(crate) fn number(self, n: u64) -> Self {
        self.bytes(&n.to_le_bytes())
    }

    pub(crate) fn finish(self) -> u64 {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::Fnv;

    #[test]
    fn known_values_and_parts() {
        assert_eq!(Fnv::new().finish(), 0xcbf2_9ce4_8422_2325);
        assert_eq!(Fnv::new().bytes(b"a").finish(), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(Fnv::new().bytes(b"ab").bytes(b"c").finish(), Fnv::new().bytes(b"abc").finish());
        assert_ne!(Fnv::new().number(1).finish(), Fnv::new().number(2).finish());
    }
}
