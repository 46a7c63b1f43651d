//! The `sail` binary. Thin: parses flags (each with its `SAIL_*` variable) and
//! hands off to the library crates.

use std::process::ExitCode;

use clap::Parser;

mod backup;
mod commands;
mod database;
mod encryption;
mod listen;
mod log_writer;
mod logging;
mod operator_metrics;
mod output;
mod settings;
mod traces;

/// mimalloc instead of glibc's malloc: allocation was about a tenth of a
/// cheap request's CPU, and glibc's per-thread arenas let the resident set
/// creep under steady load (docs/benchmarks.md).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    let cli = settings::Cli::parse();
    // The receipt reader is a child the core starts for one file, under
    // limits (docs/receipts.md#reading-in-isolation): no runtime, no logs.
    if let settings::Command::ReceiptReader { content_type } = &cli.command {
        return sail_receipt_reader::run_child(std::slice::from_ref(content_type));
    }
    match tokio::runtime::Runtime::new() {
        Ok(runtime) => runtime.block_on(commands::dispatch(cli)),
        Err(err) => {
            eprintln!("error: starting the async runtime: {err}");
            ExitCode::FAILURE
        }
    }
}
