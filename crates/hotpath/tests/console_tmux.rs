//! `hotpath console` end to end: in a real terminal (tmux) against a live
//! program, switch tabs, sort, pause, lose the server and get it back, quit; and
//! two threads of one name with different loads, each keeping its own rate; the
//! Debug tab following a live gauge; a `log = true` function's values in its detail pane;
//! the live heap's view, with the growing cache on top (`hotpath-heap`).
//! The screen is read with `tmux capture-pane`. Needs tmux (scripts/test
//! installs it) and the `hotpath` binary that `cargo test --workspace` builds.
#![cfg(all(feature = "hotpath", target_os = "linux"))]

mod common;

use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A private tmux server, killed when dropped.
struct Tmux {
    socket: String,
}

impl Tmux {
    /// A server of its own for test `name` (tests of one process run in parallel).
    fn new(name: &str) -> Self {
        Self { socket: format!("hotpath-test-{}-{name}", std::process::id()) }
    }

    fn run(&self, args: &[&str]) -> String {
        let out = Command::new("tmux").arg("-L").arg(&self.socket).args(args).output().expect("tmux is installed");
        assert!(out.status.success(), "tmux {args:?}: {}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    fn screen(&self) -> String {
        self.run(&["capture-pane", "-p", "-t", "console"])
    }

    fn keys(&self, keys: &str) {
        self.run(&["send-keys", "-t", "console", keys]);
    }

    /// Waits until the screen satisfies `ok`, or fails showing the screen.
    fn wait(&self, what: &str, ok: impl Fn(&str) -> bool) -> String {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let screen = self.screen();
            if ok(&screen) {
                return screen;
            }
            assert!(Instant::now() < deadline, "never saw {what} on:\n{screen}");
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    fn wait_for(&self, text: &str) -> String {
        self.wait(text, |s| s.contains(text))
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = Command::new("tmux").args(["-L", &self.socket, "kill-server"]).output();
    }
}

/// The program with its server on `port`, killed when dropped.
struct Program(Child);

impl Program {
    fn start(port: u16) -> Self {
        Self::start_with(common::live::live_command(120), port)
    }

    /// Starts `cmd` with its server on `port` and waits until it listens.
    fn start_with(mut cmd: Command, port: u16) -> Self {
        cmd.env("HOTPATH_METRICS_PORT", port.to_string()).stdout(Stdio::null()).stderr(Stdio::null());
        let program = Program(cmd.spawn().expect("case_live starts"));
        let address = SocketAddr::from(([127, 0, 0, 1], port));
        let deadline = Instant::now() + Duration::from_secs(60);
        while TcpStream::connect(address).is_err() {
            assert!(Instant::now() < deadline, "the server never listened on {port}");
            std::thread::sleep(Duration::from_millis(50));
        }
        program
    }
}

impl Drop for Program {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn hotpath_binary() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let path = exe.parent().and_then(|deps| deps.parent()).unwrap().join("hotpath");
    assert!(path.exists(), "{} missing: run the tests with `cargo test --workspace`", path.display());
    path
}

/// Lines of the functions table (they have a rate cell; the detail pane's do not).
fn table_rows(screen: &str) -> Vec<&str> {
    let is_row = |l: &&str| {
        let cell = l.trim_start_matches(['│', '▶', ' ']);
        (cell.starts_with("case_live::") || cell.starts_with("worker batch ")) && l.contains("/s ")
    };
    screen.lines().filter(is_row).collect()
}

/// The Calls cell of `name`'s row.
fn calls(screen: &str, name: &str) -> String {
    let line = table_rows(screen).into_iter().find(|l| l.contains(&format!(" {name} ")));
    let line = line.unwrap_or_else(|| panic!("{name} in:\n{screen}"));
    line.split_whitespace().skip_while(|w| *w != name).nth(1).unwrap().to_string()
}

#[test]
fn console_in_a_terminal() {
    let port = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let mut program = Program::start(port);
    let tmux = Tmux::new("terminal");
    let command = format!(
        "{} console --port {port} --refresh-ms 200; echo CONSOLE-EXITED $?; sleep 120",
        hotpath_binary().display()
    );
    tmux.run(&["new-session", "-d", "-s", "console", "-x", "190", "-y", "40", &command]);

    // Five rows, each with a rate once two polls have been seen: `main`, in flight the
    // whole time, with no call completed, is one of them.
    let screen = tmux.wait("five rows with rates", |s| table_rows(s).len() == 5);
    assert!(
        screen.contains(" 1 Functions ") && screen.contains("Calls/s") && screen.contains("worker batch"),
        "{screen}"
    );
    assert_eq!(calls(&screen, "case_live::main"), "0", "{screen}");
    assert!(screen.contains("Active") && screen.contains("Oldest"), "in-flight columns:\n{screen}");
    tmux.wait(&format!("pid {}", program.0.id()), |s| s.contains(&format!("pid {} up", program.0.id())));

    // Tabs: data flow has no channels in this program, and says why.
    tmux.keys("2");
    tmux.wait_for("no data: no channel! wrapper was used yet");
    tmux.keys("Right");
    tmux.wait_for("no data: no stream! wrapper was used yet");
    tmux.keys("4");
    if cfg!(feature = "threads") {
        // The typed threads table: CPU once as a share and once as time, no load column.
        let threads = tmux.wait("the threads table", |s| s.contains(" main ") && s.contains(" worker "));
        let header = threads.lines().find(|l| l.contains("│  Name ")).unwrap_or_else(|| panic!("{threads}"));
        let table = header.split('│').nth(1).unwrap();
        assert!(table.contains("CPU %") && table.contains("CPU time") && !table.contains("load"), "{threads}");
        assert!(threads.contains("RSS bytes: "), "{threads}");
    } else {
        tmux.wait_for("no data: the threads sampler is off");
    }

    // Sort by calls, largest first: checksum runs most; then reversed.
    tmux.keys("1");
    tmux.keys("s");
    let screen = tmux.wait_for("Calls ▼");
    let rows = table_rows(&screen);
    assert!(rows[0].contains("case_live::checksum"), "most calls first:\n{screen}");
    tmux.keys("r");
    let screen = tmux.wait_for("Calls ▲");
    let rows = table_rows(&screen);
    assert!(rows.last().unwrap().contains("case_live::checksum"), "fewest calls first:\n{screen}");

    // Pause: the numbers stop moving while the program keeps running.
    tmux.keys("p");
    let paused = tmux.wait_for("PAUSED");
    std::thread::sleep(Duration::from_millis(800));
    let later = tmux.screen();
    assert_eq!(calls(&paused, "case_live::step"), calls(&later, "case_live::step"), "frozen while paused");
    tmux.keys("p");
    let moving = tmux
        .wait("resumed", |s| !s.contains("PAUSED") && calls(s, "case_live::step") != calls(&later, "case_live::step"));
    assert!(moving.contains("case_live::step"));

    // The server goes away: the console says so and keeps the last data.
    drop(program);
    let down = tmux.wait_for("retrying");
    assert!(down.contains("(last data shown)") && down.contains("case_live::step"), "{down}");
    // A new process on the same port: picked up by itself.
    program = Program::start(port);
    tmux.wait(&format!("pid {}", program.0.id()), |s| {
        s.contains(&format!("pid {} up", program.0.id())) && !s.contains("retrying")
    });

    // Quit: the console ends cleanly and the shell's screen is back.
    tmux.keys("q");
    let after = tmux.wait_for("CONSOLE-EXITED 0");
    assert!(!after.contains("1 Functions"), "alternate screen left:\n{after}");
    drop(program);
}

/// The CPU % cells (`97.3%`, the first percentage after the name) of the Threads
/// tab's rows named `twin`, in screen order.
fn twin_loads(screen: &str) -> Vec<f64> {
    screen
        .lines()
        .filter_map(|l| {
            let mut words = l.split_whitespace().skip_while(|w| !w.ends_with("twin"));
            words.next()?;
            words.find_map(|w| w.strip_suffix('%'))?.parse().ok()
        })
        .collect()
}

#[test]
#[cfg(feature = "threads")]
fn threads_of_one_name_keep_their_own_rates() {
    let port = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let mut cmd = common::command("case_twin_threads");
    cmd.env_remove("HOTPATH_METRICS_SERVER_OFF").env("HOTPATH_OUTPUT_FORMAT", "none").arg("120");
    let program = Program::start_with(cmd, port);
    let tmux = Tmux::new("twins");
    let command = format!("{} console --port {port} --refresh-ms 300; sleep 120", hotpath_binary().display());
    tmux.run(&["new-session", "-d", "-s", "console", "-x", "190", "-y", "40", &command]);
    tmux.wait_for(" 1 Functions ");
    tmux.keys("4");
    // Keyed by name, both rows showed whichever thread was recorded last: the
    // sleeping twin's CPU next to the spinning one's, or the other way round.
    let screen = tmux.wait("a busy twin and an idle twin", |s| {
        let loads = twin_loads(s);
        loads.len() == 2 && loads.iter().any(|l| *l >= 30.0) && loads.iter().any(|l| *l <= 10.0)
    });
    // The selected row's sparkline: its own user CPU time per second.
    assert!(screen.contains("CPU %") && screen.contains("CPU user load"), "{screen}");
    tmux.keys("q");
    drop(program);
}

/// The Debug tab against a program updating a gauge every 10 ms: select the gauge,
/// see its sparkline and its log records, newest first, moving.
#[test]
fn the_debug_tab_follows_a_live_gauge() {
    let port = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let mut cmd = common::command("case_debug");
    cmd.env_remove("HOTPATH_METRICS_SERVER_OFF").env("HOTPATH_OUTPUT_FORMAT", "none").args(["live", "120"]);
    let program = Program::start_with(cmd, port);
    let tmux = Tmux::new("debug");
    let command = format!("{} console --port {port} --refresh-ms 200; sleep 120", hotpath_binary().display());
    tmux.run(&["new-session", "-d", "-s", "console", "-x", "160", "-y", "45", &command]);
    tmux.wait_for(" 1 Functions ");
    tmux.keys("7");
    tmux.wait_for(" ticks ");
    let mut screen = tmux.screen();
    for _ in 0..40 {
        if screen.contains("▶ ticks ") {
            break;
        }
        tmux.keys("Down");
        std::thread::sleep(Duration::from_millis(100));
        screen = tmux.screen();
    }
    assert!(screen.contains("▶ ticks "), "could not select the gauge:\n{screen}");
    // The gauge's logs: `set N → N` records, the newest first, and a sparkline.
    let newest = |s: &str| -> Option<u64> {
        let line = s.lines().find(|l| l.contains(" set ") && l.contains('→'))?;
        line.split('#').nth(1)?.split_whitespace().next()?.parse().ok()
    };
    let first = tmux.wait("the gauge's log records", |s| newest(s).is_some() && s.contains("Logs: "));
    assert!(first.contains("Last ") && first.contains(" values: now "), "sparkline title:\n{first}");
    let seq = newest(&first).unwrap();
    tmux.wait("newer records", |s| newest(s).is_some_and(|n| n > seq));
    tmux.keys("q");
    drop(program);
}

/// A function measured with `log = true` (`case_row_logs`): select it in the Functions
/// tab and see its logged values in the detail pane, newest first, moving.
#[test]
fn a_logged_functions_values_show_in_its_detail_pane() {
    let port = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let mut cmd = common::command("case_row_logs");
    cmd.env_remove("HOTPATH_METRICS_SERVER_OFF").env("HOTPATH_OUTPUT_FORMAT", "none").args(["live", "120"]);
    let program = Program::start_with(cmd, port);
    let tmux = Tmux::new("row-logs");
    let command = format!("{} console --port {port} --refresh-ms 200; sleep 120", hotpath_binary().display());
    tmux.run(&["new-session", "-d", "-s", "console", "-x", "160", "-y", "45", &command]);
    tmux.wait_for(" case_row_logs::parse ");
    let mut screen = tmux.screen();
    // The session's own row (in flight, listed from the first poll) may be selected
    // below it: up first, then down.
    for i in 0..20 {
        if screen.contains("▶ case_row_logs::parse ") {
            break;
        }
        tmux.keys(if i < 5 { "Up" } else { "Down" });
        std::thread::sleep(Duration::from_millis(100));
        screen = tmux.screen();
    }
    assert!(screen.contains("▶ case_row_logs::parse "), "could not select the function:\n{screen}");
    // `parse(i)` returns Ok(i) or Err("odd i"): the newest record's number grows.
    let newest = |s: &str| -> Option<u64> {
        let line = s.lines().find(|l| l.contains(" Ok(") || l.contains(" Err(\"odd "))?;
        line.split('#').nth(1)?.split_whitespace().next()?.parse().ok()
    };
    let first = tmux.wait("the function's logged values", |s| newest(s).is_some() && s.contains("Logs: 50 kept of "));
    let seq = newest(&first).unwrap();
    tmux.wait("newer values", |s| newest(s).is_some_and(|n| n > seq));
    tmux.keys("q");
    drop(program);
}

/// The Heap view of the Functions tab against a program holding a cache that grew in
/// each of its snapshots: the cache's stack on top, its estimate and interval, and
/// the growth flag in the detail pane.
#[cfg(feature = "hotpath-heap")]
#[test]
fn the_heap_view_shows_the_growing_cache_on_top() {
    let port = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let mut cmd = common::command("case_heap_growth");
    cmd.env_remove("HOTPATH_METRICS_SERVER_OFF")
        .env("HOTPATH_OUTPUT_FORMAT", "none")
        .env("HOTPATH_HEAP_SAMPLE_BYTES", "32768")
        .env("HOTPATH_HEAP_SNAPSHOT_MS", "3600000")
        .args(["grow", "serve"]);
    let program = Program::start_with(cmd, port);
    let tmux = Tmux::new("heap");
    let command = format!("{} console --port {port} --refresh-ms 200; sleep 120", hotpath_binary().display());
    tmux.run(&["new-session", "-d", "-s", "console", "-x", "200", "-y", "45", &command]);
    tmux.wait_for(" 1 Functions ");
    // The views change when the first report arrives (its lists name them): step right
    // until the heap's rows show, whenever that is.
    let deadline = Instant::now() + Duration::from_secs(60);
    while !tmux.screen().contains("┌ Heap: rows (") {
        assert!(Instant::now() < deadline, "never reached the Heap: rows view:\n{}", tmux.screen());
        tmux.keys("l");
        std::thread::sleep(Duration::from_millis(300));
    }
    // The program's twelve rounds end before its server starts answering, so the
    // flag is there from the first poll.
    let screen = tmux.wait("the cache's row selected and flagged", |s| {
        s.contains("┌ Heap: rows (")
            && s.contains("Function: case_heap_growth::cache_entry")
            && s.contains("Growing: yes")
    });
    let top = screen.lines().find(|l| l.contains('▶')).unwrap_or_else(|| panic!("no selected row:\n{screen}"));
    assert!(top.contains("case_heap_growth::cache_entry"), "the cache is the top row:\n{screen}");
    assert!(screen.contains("Live bytes low: ") && screen.contains("Live bytes high: "), "{screen}");
    tmux.keys("q");
    drop(program);
}
