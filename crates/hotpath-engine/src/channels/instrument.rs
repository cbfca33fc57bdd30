//! What `channel!` calls: one implementation per supported `(sender, receiver)` pair.

use std::fmt::Debug;

use super::entry::ChannelSite;

/// What `channel!` hands a backend: the call site and the call's parameters. Not a
/// public API.
pub struct Wrapping<'a, T> {
    pub(crate) site: &'static ChannelSite,
    /// `label = <expression>`, evaluated; `None` uses the site's literal label (or none).
    pub(crate) label: Option<&'a str>,
    /// `capacity = N`: reported when the backend cannot tell the bound itself.
    pub(crate) capacity: Option<usize>,
    /// `log = true`: how to see a message as `Debug` (set only when `T: Debug`).
    pub(crate) log: Option<fn(&T) -> &dyn Debug>,
}

/// A channel that `channel!` can wrap; implemented for the pairs each backend's
/// constructors return. The output has the same halves, wrapped.
#[diagnostic::on_unimplemented(
    message = "`hotpath::channel!` cannot wrap `{Self}`",
    label = "not a (sender, receiver) pair of a channel backend that is enabled",
    note = "channel! takes the pair a constructor returns: std::sync::mpsc always; tokio::sync::{{mpsc, oneshot, broadcast, watch}} needs hotpath's `tokio` feature, futures::channel `futures`, crossbeam_channel `crossbeam`, flume `flume`, async_channel `async-channel` (e.g. features = [\"hotpath/hotpath\", \"hotpath/tokio\"])",
    note = "the wrapped halves are named hotpath::wrap::<backend>::..., such as hotpath::wrap::tokio::sync::mpsc::Sender<T>; use those paths in signatures and fields so they compile with the `hotpath` feature on and off"
)]
pub trait InstrumentChannel {
    /// The message type.
    type Message;
    /// The wrapped pair.
    type Output;
    /// Wraps both halves, counted under the call's site.
    fn instrument(self, at: Wrapping<'_, Self::Message>) -> Self::Output;
}

/// Wraps a channel created at `site` (the expansion of `channel!`).
#[inline]
pub fn channel<C: InstrumentChannel>(
    site: &'static ChannelSite,
    label: Option<&str>,
    capacity: Option<usize>,
    channel: C,
) -> C::Output {
    channel.instrument(Wrapping { site, label, capacity, log: None })
}

/// `channel!(.., log = true)`: as [`channel`], and each message sent is kept (bounded
/// `Debug` text, the last `HOTPATH_LOGS_LIMIT` per row; see `row_logs("channels", ..)`).
#[inline]
pub fn channel_logged<C>(
    site: &'static ChannelSite,
    label: Option<&str>,
    capacity: Option<usize>,
    channel: C,
) -> C::Output
where
    C: InstrumentChannel,
    C::Message: Debug,
{
    channel.instrument(Wrapping { site, label, capacity, log: Some(as_debug::<C::Message>) })
}

fn as_debug<T: Debug>(t: &T) -> &dyn Debug {
    t
}
