//! `hotpath mcp` in a build without the `mcp` feature: the subcommand still parses
//! (any arguments), and says how to install a CLI that has it.

/// Whatever `hotpath mcp` was given; none of it is read.
#[derive(clap::Args)]
#[command(disable_help_flag = true)]
pub(crate) struct Args {
    #[arg(trailing_var_arg = true, allow_hyphen_values = true, hide = true)]
    _rest: Vec<String>,
}

pub(crate) fn error() -> anyhow::Error {
    anyhow::anyhow!(
        "`hotpath mcp` is not in this build of hotpath: it needs the CLI's `mcp` feature. \
         Install it with `cargo install --locked --path <your hotpath clone>/crates/hotpath-cli --features mcp`"
    )
}
