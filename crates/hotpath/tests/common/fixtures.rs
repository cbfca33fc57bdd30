//! Cargo commands on the user crates under `tests/fixtures/`, built in a target dir of
//! their own (`target/fixtures`) so that their feature sets never rebuild the workspace's.

use std::path::Path;
use std::process::Command;

/// `cargo <args>` on `tests/fixtures/<name>`, with the metrics server off (parallel
/// tests would all want its port); callers add what else their fixture needs.
pub(crate) fn cargo(name: &str, args: &[&str]) -> Command {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut cmd = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
    cmd.args(args)
        .arg("--manifest-path")
        .arg(root.join("tests/fixtures").join(name).join("Cargo.toml"))
        .env("CARGO_TARGET_DIR", root.join("target/fixtures"))
        .env("HOTPATH_METRICS_SERVER_OFF", "1");
    cmd
}
