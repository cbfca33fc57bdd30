//! `hotpath console`: a live terminal dashboard of a profiled program, polling its
//! metrics server.
//!
//! - `client`: HTTP polling on a thread of its own, so the UI never waits on the network.
//! - `state/`: everything shown (tabs, tables, sort, selection, rate history), no drawing.
//! - `view/`: one file per screen, drawing the state with ratatui.
//! - `input`: keys and mouse to actions.
//! - `terminal`: raw mode and alternate screen, restored on exit, on error and on panic.
//!
//! Sections are read from the server's JSON generically (rows of names and numbers),
//! so a section the server starts serving shows up without changes here; only
//! `functions_timing` has a typed table.

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
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(50..=60_000))]
    refresh_ms: u64,
}

pub(crate) fn run(args: &Args) -> anyhow::Result<()> {
    let refresh = Duration::from_millis(args.refresh_ms);
    let client = Client::new(args.server.address(), args.server.token.clone(), refresh);
    let mut app = App::new(client.address().to_string(), refresh);
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
