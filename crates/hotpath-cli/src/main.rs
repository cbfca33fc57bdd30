//! The `hotpath` command-line tool.

mod console;
mod report;

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
    /// Live dashboard of a running program, polling its metrics server.
    Console(console::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Report(args) => report::run(&args),
        Command::Console(args) => console::run(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(2)
        }
    }
}
