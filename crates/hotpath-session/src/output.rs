//! Writing the report. Nothing here may panic or hold the program: a closed or full
//! stdout, an unwritable path or a FIFO nobody reads turns into one warning line on
//! stderr. The bytes go out from a `hp-output` thread; when the destination accepts
//! nothing for [`STALL`], the report is given up with a warning and the program goes
//! on ending (the thread stays blocked and ends with the process).

use std::io::{self, Write};
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use std::sync::{mpsc, Arc};
use std::time::Duration;

use hotpath_engine::diag::warn;
use hotpath_engine::spawn::SpawnMasked;
use hotpath_model::{render_table, Report};

use crate::config::{Config, Format};

/// How long the destination may accept nothing before the report is given up.
const STALL: Duration = Duration::from_secs(5);
/// Bytes per write, so that progress is visible to the waiting thread.
const CHUNK: usize = 16 * 1024;

/// Renders the report in the configured format to the configured destination.
pub(crate) fn emit(report: &Report, config: &Config) {
    let text = match config.format {
        Format::Table => render_table(report),
        Format::Json => report.to_json(false) + "\n",
        Format::JsonPretty => report.to_json(true) + "\n",
        Format::None => return,
    };
    let text: Arc<str> = text.into();
    let path = config.output_path.as_deref();
    let name = path.map_or("standard output".to_string(), |p| p.display().to_string());
    let progress = Arc::new(AtomicUsize::new(0));
    let (done, result) = mpsc::channel();
    let (bytes, written, target) = (Arc::clone(&text), Arc::clone(&progress), config.output_path.clone());
    let spawned = std::thread::Builder::new().name("hp-output".into()).stack_size(64 * 1024).spawn_masked(move || {
        hotpath_engine::memory::profiler_thread();
        let _ = done.send(write(target.as_deref(), bytes.as_bytes(), &written));
    });
    if spawned.is_err() {
        // No thread to spare: write from here, without a deadline, rather than lose it.
        return outcome(&name, write(path, text.as_bytes(), &progress));
    }
    let mut seen = 0;
    loop {
        match result.recv_timeout(STALL) {
            Ok(written) => return outcome(&name, written),
            Err(mpsc::RecvTimeoutError::Disconnected) => return warn("internal error while writing the report"),
            Err(mpsc::RecvTimeoutError::Timeout) => {
                let now = progress.load(Relaxed);
                if now == seen {
                    return warn(&format!(
                        "gave up writing the report to {name}: it accepted nothing for {} s (is anything reading it?)",
                        STALL.as_secs()
                    ));
                }
                seen = now;
            }
        }
    }
}

fn outcome(name: &str, written: io::Result<()>) {
    if let Err(e) = written {
        warn(&format!("could not write the report to {name}: {e}"));
    }
}

/// Writes `bytes` in chunks, counting them in `progress`.
fn write(path: Option<&Path>, bytes: &[u8], progress: &AtomicUsize) -> io::Result<()> {
    let chunks = |out: &mut dyn Write| -> io::Result<()> {
        for chunk in bytes.chunks(CHUNK) {
            out.write_all(chunk)?;
            progress.fetch_add(chunk.len(), Relaxed);
        }
        out.flush()
    };
    match path {
        Some(path) => chunks(&mut std::fs::File::create(path)?),
        None => chunks(&mut io::stdout().lock()),
    }
}
