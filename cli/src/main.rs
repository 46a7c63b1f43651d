//! The `sail` binary. Thin: parses flags (each with its `SAIL_*` variable) and
//! hands off to the library crates.

use std::process::ExitCode;

use clap::Parser;

mod commands;
mod database;
mod encryption;
mod log_writer;
mod settings;

/// mimalloc instead of glibc's malloc: allocation was about a tenth of a
/// cheap request's CPU, and glibc's per-thread arenas let the resident set
/// creep under steady load (docs/benchmarks.md).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[tokio::main]
async fn main() -> ExitCode {
    let cli = settings::Cli::parse();
    commands::dispatch(cli).await
}
