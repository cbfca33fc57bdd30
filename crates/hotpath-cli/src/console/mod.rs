//! `hotpath console`: a live terminal dashboard of a profiled program, polling its
//! metrics server.
//!
//! - `client`: HTTP polling on a thread of its own, so the UI never waits on the network.
//! - `state/`: everything shown (tabs, tables, sort, selection, rate history), no drawing.
//! - `view/`: one file per screen, drawing the state with ratatui.
//! - `input`: keys and mouse to actions.
//! - `terminal`: raw mode and alternate screen, restored on exit, on error and on panic.
//!
//! Sections are read as the model's types (`hotpath_model`): views are chosen by
//! `Section`, figures and their units come from each row's type (`RowMetrics` where the
//! row has it). A section the model has no type for (a report of another build) is read
//! from the server's JSON generically (rows of names and numbers, units guessed from
//! field names), so it still shows up without changes here.

mod client;
mod input;
mod state;
mod terminal;
mod view;

use std::sync::mpsc::Receiver;
use std::time::{Duration, Instant};

use anyhow::Context;
use ratatui::backend::Backend;
use ratatui::crossterm::event;
use ratatui::Terminal;

use crate::server::ServerArgs;
use client::{Client, Update};
use state::{App, Mode};

/// Arguments of `hotpath console`.
#[derive(clap::Args)]
pub(crate) struct Args {
    #[command(flatten)]
    server: ServerArgs,
    /// Milliseconds between two polls of the server.
    #[arg(long, env = "HOTPATH_TUI_REFRESH_INTERVAL_MS", default_value_t = 1000,
          value_parser = clap::value_parser!(u64).range(50..=60_000))]
    refresh_ms: u64,
    /// The tab shown first, as its number key selects it (HOTPATH_TUI_TAB).
    #[arg(long, env = "HOTPATH_TUI_TAB", default_value_t = 1,
          value_parser = clap::value_parser!(u8).range(1..=state::TAB_COUNT))]
    tab: u8,
}

pub(crate) fn run(args: &Args) -> anyhow::Result<()> {
    if std::env::var_os("HOTPATH_TUI_AUTO_EXPAND_LOGS").is_some() {
        eprintln!("[hotpath] warning: HOTPATH_TUI_AUTO_EXPAND_LOGS is not used by hotpath console");
    }
    let refresh = Duration::from_millis(args.refresh_ms);
    let client = Client::new(args.server.address(), args.server.json_token(), refresh);
    let mut app = App::new(client.address().to_string(), refresh);
    app.handle(state::Action::Tab(usize::from(args.tab) - 1));
    let updates =
        client::spawn_poller(client, refresh, app.logs.wanted()).context("cannot start the polling thread")?;
    let mut guard = terminal::Guard::enter().context("cannot set up the terminal")?;
    event_loop(guard.terminal(), &mut app, &updates)
}

/// Draw, wait up to 100 ms for input, apply what the poller sent; until quit.
pub(crate) fn event_loop<B: Backend>(
    terminal: &mut Terminal<B>,
    app: &mut App,
    updates: &Receiver<Update>,
) -> anyhow::Result<()>
where
    B::Error: Send + Sync + 'static,
{
    while app.mode != Mode::Quit {
        while let Ok(update) = updates.try_recv() {
            app.apply(update, Instant::now());
        }
        terminal.draw(|frame| view::draw(frame, app))?;
        if event::poll(Duration::from_millis(100))? {
            if let Some(action) = input::action(&event::read()?, app) {
                app.handle(action);
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        args: super::Args,
    }

    /// hotpath-rs's TUI variables, read as the console's defaults. The only test
    /// here that sets the environment; no other test reads these variables.
    #[test]
    fn hotpath_rs_tui_variables_are_read() {
        let vars = [
            ("HOTPATH_TUI_REFRESH_INTERVAL_MS", "250"),
            ("HOTPATH_TUI_TAB", "3"),
            ("HOTPATH_METRICS_HOST", "http://localhost"),
            ("HOTPATH_METRICS_AUTH_TOKEN", "json-t"),
        ];
        vars.iter().for_each(|(k, v)| std::env::set_var(k, v));
        let parsed = Cli::try_parse_from(["console"]);
        let bad_tab = {
            std::env::set_var("HOTPATH_TUI_TAB", "9");
            Cli::try_parse_from(["console"]).is_err()
        };
        vars.iter().for_each(|(k, _)| std::env::remove_var(k));
        let args = parsed.unwrap().args;
        assert_eq!((args.refresh_ms, args.tab), (250, 3));
        assert_eq!((args.server.address(), args.server.json_token()), ("localhost:6770".into(), Some("json-t".into())));
        assert!(bad_tab, "a tab beyond the console's is refused");
    }
}
