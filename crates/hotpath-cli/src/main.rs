//! The `hotpath` command-line tool.

mod compare;
mod console;
mod input;
#[cfg(feature = "mcp")]
mod mcp;
#[cfg(not(feature = "mcp"))]
mod mcp_absent;
mod report;
mod server;
mod timeline;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Tools for hotpath profiling reports.
#[derive(Parser)]
#[command(name = "hotpath", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Prints a JSON report (written with HOTPATH_OUTPUT_FORMAT=json) as tables.
    Report(report::Args),
    /// Compares two sets of JSON reports, or two git commits, and flags regressions.
    // Boxed: its many flags make it much larger than the other commands.
    Compare(Box<compare::Args>),
    /// Live dashboard of a running program, polling its metrics server.
    Console(console::Args),
    /// Saves a running program's timeline trace (HOTPATH_TIMELINE=on) from its metrics server.
    Timeline(timeline::Args),
    /// Bridges MCP on stdio to a running program's /mcp endpoint (hotpath-mcp feature).
    #[cfg(feature = "mcp")]
    Mcp(mcp::Args),
    /// Not in this build: MCP's stdio bridge needs the CLI's `mcp` feature.
    #[cfg(not(feature = "mcp"))]
    Mcp(mcp_absent::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Report(args) => report::run(&args).map(|()| ExitCode::SUCCESS),
        Command::Compare(args) => compare::run(&args),
        Command::Console(args) => console::run(&args).map(|()| ExitCode::SUCCESS),
        Command::Timeline(args) => timeline::run(&args).map(|()| ExitCode::SUCCESS),
        #[cfg(feature = "mcp")]
        Command::Mcp(args) => mcp::run(&args).map(|()| ExitCode::SUCCESS),
        #[cfg(not(feature = "mcp"))]
        Command::Mcp(_) => Err(mcp_absent::error()),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e:#}");
            // 2 = usage or input error, as clap does for bad arguments; 1 is a regression.
            ExitCode::from(2)
        }
    }
}
