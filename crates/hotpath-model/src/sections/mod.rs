//! One folder per section: data types (`mod.rs`), printed table (`table.rs`), metric
//! families and row access (`metrics.rs`).

pub(crate) mod channels;
pub(crate) mod debug;
pub(crate) mod functions_alloc;
pub(crate) mod functions_cpu;
pub(crate) mod functions_icount;
pub(crate) mod functions_timing;
pub(crate) mod futures;
pub(crate) mod http;
pub(crate) mod io;
pub(crate) mod mutexes;
pub(crate) mod rw_locks;
pub(crate) mod server;
pub(crate) mod sql;
pub(crate) mod streams;
pub(crate) mod threads;
pub(crate) mod tokio_runtime;
