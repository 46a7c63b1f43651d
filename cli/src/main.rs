//! The `sail` binary. Thin: parses flags (each with its `SAIL_*` variable) and
//! hands off to the library crates.

use std::process::ExitCode;

use clap::Parser;

mod commands;
mod database;
mod encryption;
mod settings;

#[tokio::main]
async fn main() -> ExitCode {
    let cli = settings::Cli::parse();
    commands::dispatch(cli).await
}
