//! What the commands print on standard output. A reader that stops early
//! (`sail partners list | head -1`) closes the pipe: that ends the command
//! quietly and successfully, as Unix tools do, never as a panic.

use std::io::{self, Write};

/// Writes `bytes` to standard output. On a closed pipe the process ends at
/// once with success; any other failure is reported on standard error and
/// ends it with failure.
pub fn write(bytes: &[u8]) {
    let mut out = io::stdout().lock();
    if let Err(err) = out.write_all(bytes).and_then(|()| out.flush()) {
        if err.kind() == io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        eprintln!("error: writing to standard output: {err}");
        std::process::exit(1);
    }
}

/// `println!` for commands: one line through [`write`]. (The operator's
/// notes on stderr are `logging::say`.)
macro_rules! outln {
    ($($arg:tt)*) => {
        $crate::output::write(format!("{}\n", format_args!($($arg)*)).as_bytes())
    };
}
pub(crate) use outln;
