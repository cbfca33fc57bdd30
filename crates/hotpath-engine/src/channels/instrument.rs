//! What `channel!` calls: one implementation per supported `(sender, receiver)` pair.

use super::entry::ChannelSite;

/// A channel that `channel!` can wrap; implemented for the pairs each backend's
/// constructors return. The output has the same halves, wrapped.
pub trait InstrumentChannel {
    /// The wrapped pair.
    type Output;
    /// Wraps both halves, counted under `site`.
    fn instrument(self, site: &'static ChannelSite) -> Self::Output;
}

/// Wraps a channel created at `site` (the expansion of `channel!`).
#[inline]
pub fn channel<C: InstrumentChannel>(site: &'static ChannelSite, channel: C) -> C::Output {
    channel.instrument(site)
}
