//! The `hotpath` binary's command line (and, as a side effect relied on by the
//! tmux test in crates/hotpath/tests, `cargo test` builds the binary).

use std::process::Command;

fn hotpath(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_hotpath")).args(args).output().expect("hotpath runs")
}

#[test]
fn console_options() {
    let out = hotpath(&["console", "--help"]);
    assert!(out.status.success());
    let help = String::from_utf8_lossy(&out.stdout);
    for option in ["--port <PORT>", "--host <HOST>", "--token <TOKEN>", "--refresh-ms <REFRESH_MS>", "[default: 6770]"]
    {
        assert!(help.contains(option), "{option} in:\n{help}");
    }
}

#[test]
fn console_rejects_bad_values_before_touching_the_terminal() {
    for args in [["console", "--refresh-ms", "1"], ["console", "--port", "99999"]] {
        let out = hotpath(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(String::from_utf8_lossy(&out.stderr).contains("error: invalid value"), "{args:?}");
        assert!(!String::from_utf8_lossy(&out.stdout).contains("\u{1b}[?1049h"), "no alternate screen");
    }
}

/// The default install leaves the MCP bridge out (its `mcp` feature); asked for, it
/// says how to install a CLI that has it. With the feature it is there.
#[test]
fn mcp_is_there_exactly_with_its_feature() {
    let out = hotpath(&["mcp", "--port", "1"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    if cfg!(feature = "mcp") {
        let help = hotpath(&["mcp", "--help"]);
        assert!(help.status.success(), "{}", String::from_utf8_lossy(&help.stderr));
        assert!(String::from_utf8_lossy(&help.stdout).contains("--token <TOKEN>"));
        assert!(!stderr.contains("not in this build"), "{stderr}");
    } else {
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        for fix in ["needs the CLI's `mcp` feature", "crates/hotpath-cli --features mcp"] {
            assert!(stderr.contains(fix), "{fix} in:\n{stderr}");
        }
    }
}
