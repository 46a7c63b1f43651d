//! The receipt reader as a program of its own: what the core runs in a
//! child process for each receipt (see the library's docs). `sail
//! receipt-reader` is the same program inside the `sail` binary.

fn main() -> std::process::ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    sail_receipt_reader::run_child(&args)
}
