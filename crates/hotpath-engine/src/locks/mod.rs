//! Locks: `mutex!` and `rw_lock!` wrap std, parking_lot (`parking_lot`), tokio
//! (`tokio`) and async-lock (`async-lock`) locks.
//!
//! - `acquire`: the try-then-wait sequence every wrapper shares; each backend maps its
//!   own `try_` and waiting calls onto it.
//! - `entry`: one row per site and data type; contended-wait and hold metrics per lock
//!   mode, and `Held`, the part of every guard that records its hold time.
//! - `instrument`: the traits the macros dispatch on.
//! - `guard`: `Deref`/`Debug`/`Display` impls shared by all wrappers.
//! - `std`, `parking_lot`, `tokio`, `async_lock`: the wrappers.
//! - `section`: the `mutexes` and `rw_locks` sections.

mod acquire;
#[cfg(feature = "async-lock")]
pub mod async_lock;
mod entry;
mod guard;
mod instrument;
#[cfg(feature = "parking_lot")]
pub mod parking_lot;
mod section;
pub mod std;
#[cfg(feature = "tokio")]
pub mod tokio;

pub use entry::{MutexEntry, MutexSite, RwLockEntry, RwLockSite};
pub use instrument::{mutex, rw_lock, InstrumentMutex, InstrumentRwLock};
pub(crate) use section::{mutexes, rw_locks};
