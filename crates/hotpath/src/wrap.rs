//! The types of wrapped values, under paths that name the wrapper with the `hotpath`
//! feature and the original type without it, so signatures and struct fields compile
//! the same in both modes:
//!
//! ```
//! use hotpath::wrap::std::sync::mpsc::Receiver;
//!
//! fn drain(rx: Receiver<u32>) -> u32 {
//!     rx.iter().sum()
//! }
//!
//! let (tx, rx) = hotpath::channel!(std::sync::mpsc::channel::<u32>(), label = "numbers");
//! tx.send(2).unwrap();
//! drop(tx);
//! assert_eq!(drain(rx), 2);
//! ```
//!
//! With the feature on, a wrapped value passed where the backend's own type is
//! expected is a type mismatch such as "expected `std::sync::mpsc::Sender<Job>`, found
//! `Sender<Job>`", with a note that the found type "is defined in crate
//! `hotpath_engine`": that is the wrapper `channel!` returned; write the type as
//! `hotpath::wrap::std::sync::mpsc::Sender<Job>` (and so on for each backend below). A
//! reference to a wrapped half derefs to the backend's half, so `&tx` is accepted
//! where `&Sender<Job>` is expected, and a `&Arc<mutex!(..)>` where `&std::sync::Mutex<T>`
//! is: what is done through that reference is not measured. The report counts those
//! derefs per row (`derefs`) and warns under the section's header; take the types
//! below in signatures instead.
//!
//! `LoggedFuture` and `LoggedStream` are what `future!` and `stream!` return with
//! `log = true`.

/// `future!`'s output: `MeasuredFuture<F>` on, `F` off.
#[cfg(feature = "hotpath")]
pub type Future<F> = hotpath_engine::MeasuredFuture<F>;
/// `future!`'s output: `MeasuredFuture<F>` on, `F` off.
#[cfg(not(feature = "hotpath"))]
pub type Future<F> = F;

/// `future!(.., log = true)`'s output: `LoggedFuture<F>` on, `F` off.
#[cfg(feature = "hotpath")]
pub type LoggedFuture<F> = hotpath_engine::LoggedFuture<F>;
/// `future!(.., log = true)`'s output: `LoggedFuture<F>` on, `F` off.
#[cfg(not(feature = "hotpath"))]
pub type LoggedFuture<F> = F;

/// `stream!(.., log = true)`'s output: `LoggedStream<S>` on, `S` off.
#[cfg(feature = "hotpath")]
pub type LoggedStream<S> = hotpath_engine::LoggedStream<S>;
/// `stream!(.., log = true)`'s output: `LoggedStream<S>` on, `S` off.
#[cfg(not(feature = "hotpath"))]
pub type LoggedStream<S> = S;

/// `stream!`'s output: `MeasuredStream<S>` on, `S` off.
#[cfg(feature = "hotpath")]
pub type Stream<S> = hotpath_engine::MeasuredStream<S>;
/// `stream!`'s output: `MeasuredStream<S>` on, `S` off.
#[cfg(not(feature = "hotpath"))]
pub type Stream<S> = S;

/// `std` types.
pub mod std {
    /// `std::sync` types.
    pub mod sync {
        #[cfg(not(feature = "hotpath"))]
        pub use ::std::sync::{Mutex, MutexGuard, RwLock, RwLockReadGuard, RwLockWriteGuard};
        #[cfg(feature = "hotpath")]
        pub use hotpath_engine::locks::std::{Mutex, MutexGuard, RwLock, RwLockReadGuard, RwLockWriteGuard};

        /// `std::sync::mpsc` types.
        pub mod mpsc {
            #[cfg(not(feature = "hotpath"))]
            pub use ::std::sync::mpsc::{IntoIter, Iter, Receiver, Sender, SyncSender, TryIter};
            #[cfg(feature = "hotpath")]
            pub use hotpath_engine::channels::std::{IntoIter, Iter, Receiver, Sender, SyncSender, TryIter};
        }
    }
}

/// `tokio::sync` types (feature `tokio`).
#[cfg(feature = "tokio")]
pub mod tokio {
    /// `tokio::sync` types.
    pub mod sync {
        #[cfg(not(feature = "hotpath"))]
        pub use ::tokio::sync::{Mutex, MutexGuard, RwLock, RwLockReadGuard, RwLockWriteGuard};
        #[cfg(feature = "hotpath")]
        pub use hotpath_engine::locks::tokio::{Mutex, MutexGuard, RwLock, RwLockReadGuard, RwLockWriteGuard};

        /// `tokio::sync::mpsc` types.
        pub mod mpsc {
            #[cfg(not(feature = "hotpath"))]
            pub use ::tokio::sync::mpsc::{OwnedPermit, Permit, Receiver, Sender, UnboundedReceiver, UnboundedSender};
            #[cfg(feature = "hotpath")]
            pub use hotpath_engine::channels::tokio::mpsc::{
                OwnedPermit, Permit, Receiver, Sender, UnboundedReceiver, UnboundedSender,
            };
        }

        /// `tokio::sync::oneshot` types.
        pub mod oneshot {
            #[cfg(not(feature = "hotpath"))]
            pub use ::tokio::sync::oneshot::{Receiver, Sender};
            #[cfg(feature = "hotpath")]
            pub use hotpath_engine::channels::tokio::oneshot::{Receiver, Sender};
        }

        /// `tokio::sync::broadcast` types.
        pub mod broadcast {
            #[cfg(not(feature = "hotpath"))]
            pub use ::tokio::sync::broadcast::{Receiver, Sender};
            #[cfg(feature = "hotpath")]
            pub use hotpath_engine::channels::tokio::broadcast::{Receiver, Sender};
        }

        /// `tokio::sync::watch` types.
        pub mod watch {
            #[cfg(not(feature = "hotpath"))]
            pub use ::tokio::sync::watch::{Receiver, Sender};
            #[cfg(feature = "hotpath")]
            pub use hotpath_engine::channels::tokio::watch::{Receiver, Sender};
        }
    }
}

/// `parking_lot` types (feature `parking_lot`).
#[cfg(feature = "parking_lot")]
pub mod parking_lot {
    #[cfg(not(feature = "hotpath"))]
    pub use ::parking_lot::{Mutex, MutexGuard, RwLock, RwLockReadGuard, RwLockWriteGuard};
    #[cfg(feature = "hotpath")]
    pub use hotpath_engine::locks::parking_lot::{Mutex, MutexGuard, RwLock, RwLockReadGuard, RwLockWriteGuard};
}

/// `async_lock` types (feature `async-lock`).
#[cfg(feature = "async-lock")]
pub mod async_lock {
    #[cfg(not(feature = "hotpath"))]
    pub use ::async_lock::{Mutex, MutexGuard, RwLock, RwLockReadGuard, RwLockUpgradableReadGuard, RwLockWriteGuard};
    #[cfg(feature = "hotpath")]
    pub use hotpath_engine::locks::async_lock::{
        Mutex, MutexGuard, RwLock, RwLockReadGuard, RwLockUpgradableReadGuard, RwLockWriteGuard,
    };
}

/// `crossbeam_channel` types (feature `crossbeam`).
#[cfg(feature = "crossbeam")]
pub mod crossbeam_channel {
    #[cfg(not(feature = "hotpath"))]
    pub use ::crossbeam_channel::{IntoIter, Iter, Receiver, Sender, TryIter};
    #[cfg(feature = "hotpath")]
    pub use hotpath_engine::channels::crossbeam::{IntoIter, Iter, Receiver, Sender, TryIter};
}

/// `flume` types (feature `flume`).
#[cfg(feature = "flume")]
pub mod flume {
    #[cfg(not(feature = "hotpath"))]
    pub use ::flume::{IntoIter, Iter, Receiver, Sender};
    #[cfg(feature = "hotpath")]
    pub use hotpath_engine::channels::flume::{IntoIter, Iter, Receiver, Sender};
}

/// `async_channel` types (feature `async-channel`).
#[cfg(feature = "async-channel")]
pub mod async_channel {
    #[cfg(not(feature = "hotpath"))]
    pub use ::async_channel::{Receiver, Sender};
    #[cfg(feature = "hotpath")]
    pub use hotpath_engine::channels::async_channel::{Receiver, Sender};
}

/// `futures::channel` types (feature `futures`).
#[cfg(feature = "futures")]
pub mod futures_channel {
    /// `futures::channel::mpsc` types.
    pub mod mpsc {
        #[cfg(not(feature = "hotpath"))]
        pub use ::futures_channel::mpsc::{Receiver, Sender, UnboundedReceiver, UnboundedSender};
        #[cfg(feature = "hotpath")]
        pub use hotpath_engine::channels::futures::mpsc::{Receiver, Sender, UnboundedReceiver, UnboundedSender};
    }

    /// `futures::channel::oneshot` types.
    pub mod oneshot {
        #[cfg(not(feature = "hotpath"))]
        pub use ::futures_channel::oneshot::{Receiver, Sender};
        #[cfg(feature = "hotpath")]
        pub use hotpath_engine::channels::futures::oneshot::{Receiver, Sender};
    }
}

/// reqwest 0.12 types (feature `reqwest-0-12`): reqwest-middleware 0.4's client,
/// error and request builder when `hotpath` is on (what `http!` returns), reqwest's own
/// when off.
#[cfg(feature = "reqwest-0-12")]
pub mod reqwest_012 {
    #[cfg(feature = "hotpath")]
    pub use hotpath_engine::services::wrap::reqwest_012::{Client, Error, RequestBuilder, Response};
    #[cfg(not(feature = "hotpath"))]
    pub use reqwest012::{Client, Error, RequestBuilder, Response};
}

/// reqwest 0.13 types (feature `reqwest-0-13`): reqwest-middleware 0.5's client,
/// error and request builder when `hotpath` is on, reqwest's own when off.
#[cfg(feature = "reqwest-0-13")]
pub mod reqwest_013 {
    #[cfg(feature = "hotpath")]
    pub use hotpath_engine::services::wrap::reqwest_013::{Client, Error, RequestBuilder, Response};
    #[cfg(not(feature = "hotpath"))]
    pub use reqwest013::{Client, Error, RequestBuilder, Response};
}

/// The newest enabled reqwest: [`reqwest_013`] with `reqwest-0-13`, else [`reqwest_012`].
#[cfg(all(feature = "reqwest-0-12", not(feature = "reqwest-0-13")))]
pub use self::reqwest_012 as reqwest;
/// The newest enabled reqwest: [`reqwest_013`] with `reqwest-0-13`, else [`reqwest_012`].
#[cfg(feature = "reqwest-0-13")]
pub use self::reqwest_013 as reqwest;
