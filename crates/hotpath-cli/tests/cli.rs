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

/// `hotpath timeline` against no server: one line naming the address, a failing exit,
/// and no file left behind; a bad `--seconds` is refused before any request.
#[test]
fn timeline_without_a_server_says_so() {
    // A port that was free a moment ago: nothing listens there.
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port().to_string();
    let dir = std::env::temp_dir().join(format!("hotpath-cli-timeline-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("t.pftrace");
    let out = Command::new(env!("CARGO_BIN_EXE_hotpath"))
        .args(["timeline", "--host", "127.0.0.1", "--port", &port, "-o"])
        .arg(&file)
        .env_remove("HOTPATH_AUTH_TOKEN")
        .output()
        .expect("hotpath runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains(&format!("cannot reach http://127.0.0.1:{port}")), "{stderr}");
    assert_eq!(stderr.trim().lines().count(), 1, "{stderr}");
    assert!(!file.exists(), "no file without a trace");
    let out = hotpath(&["timeline", "--seconds=-1", "--port", &port]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not a positive number of seconds"));
    let _ = std::fs::remove_dir_all(&dir);
}
