//! `futures::channel` (feature `futures`): `mpsc` and `oneshot`.

pub mod mpsc;
pub mod oneshot;
