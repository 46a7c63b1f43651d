//! Running the receipt reader in a child process under limits
//! (docs/receipts.md#reading-in-isolation): a receipt file is written by
//! whoever uploaded it, so it is never parsed in the core's own process.
//! Each reading is one `sail-receipt-reader` (or `sail receipt-reader`)
//! process with:
//!
//! - a wall-clock timeout, after which its whole process group (Tesseract
//!   included) is killed;
//! - CPU-time, address-space, file-size and open-file limits (rlimits),
//!   and no core dumps;
//! - a temporary directory of its own as its working and temp directory,
//!   removed afterwards, and an environment of a few named variables;
//! - no network where the kernel allows a new network namespace (as root,
//!   or with unprivileged user namespaces); the reader opens no sockets
//!   either way.
//!
//! A child that crashes (stack overflow, allocation failure) makes the
//! receipt `unreadable` with `file_too_complex`; one that runs out of time
//! or CPU, `timeout`. Neither touches the core.

use std::ffi::OsString;
use std::os::unix::process::ExitStatusExt;
use std::path::PathBuf;
use std::process::{ExitStatus, Stdio};
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};

pub use sail_receipt_reader::{Outcome, Unreadable};

use crate::error::CoreError;

/// The program a core runs for each reading, and its limits.
#[derive(Debug, Clone)]
pub struct ReaderSettings {
    /// The reader program: the `sail` binary itself (with `args` =
    /// `["receipt-reader"]`) in production, `sail-receipt-reader` in tests.
    pub program: PathBuf,
    /// Arguments before the content type.
    pub args: Vec<OsString>,
    /// Wall-clock time one reading may take.
    pub timeout: Duration,
    /// Processor time one reading may use (the child and Tesseract each).
    pub cpu: Duration,
    /// Address space of the child (and of Tesseract), in bytes.
    pub memory_bytes: u64,
}

impl ReaderSettings {
    /// The reader inside the running binary (`sail receipt-reader`), with
    /// the documented limits.
    pub fn this_binary() -> ReaderSettings {
        // A binary that cannot name itself fails each reading as a job
        // failure (retried, then given up), not at start.
        let program = std::env::current_exe().unwrap_or_else(|_| PathBuf::from("sail"));
        ReaderSettings::program(program, vec!["receipt-reader".into()])
    }

    /// `program` (with `args` before the content type), with the
    /// documented limits.
    pub fn program(program: PathBuf, args: Vec<OsString>) -> ReaderSettings {
        ReaderSettings { program, args, timeout: DEFAULT_TIMEOUT, cpu: DEFAULT_CPU, memory_bytes: DEFAULT_MEMORY_BYTES }
    }
}

/// How long one reading may take by default: OCR of a large photo takes
/// a few seconds here; a PDF, milliseconds.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);
/// Processor time per process of a reading.
pub const DEFAULT_CPU: Duration = Duration::from_secs(30);
/// Address space per process of a reading: room for Tesseract on a
/// 50-megapixel image, far short of what a decompression bomb asks for.
pub const DEFAULT_MEMORY_BYTES: u64 = 2 * 1024 * 1024 * 1024;
/// The most bytes of output taken from the child; the reader writes at most
/// three readings of 200,000 characters each, as JSON.
const MAX_OUTPUT_BYTES: u64 = 4 * 1024 * 1024;
/// Of the child's standard error, what goes to the log (escaped); more is
/// not logged at all.
const MAX_STDERR_BYTES: u64 = 2 * 1024;

/// Reads `bytes` of `content_type` in a child process. An `Err` is Sail's
/// own failure (the program could not be started, say): the job records it
/// and is tried again; everything the file can cause is an [`Outcome`].
pub async fn read(settings: &ReaderSettings, content_type: &str, bytes: Vec<u8>) -> Result<Outcome, CoreError> {
    let workspace = tempfile::Builder::new()
        .prefix("sail-receipt-")
        .tempdir()
        .map_err(|err| CoreError::Internal(format!("a temporary directory for the reader: {err}")))?;
    let mut command = tokio::process::Command::new(&settings.program);
    command
        .args(&settings.args)
        .arg(content_type)
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_else(|| "/usr/bin:/bin".into()))
        .env("TMPDIR", workspace.path())
        .env("HOME", workspace.path())
        // One thread for Tesseract: a reading takes one core, not all.
        .env("OMP_THREAD_LIMIT", "1")
        .current_dir(workspace.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        // Its own process group, so a timeout ends Tesseract with it.
        .process_group(0);
    if let Some(tessdata) = std::env::var_os("TESSDATA_PREFIX") {
        command.env("TESSDATA_PREFIX", tessdata);
    }
    let limits = Limits::from(settings);
    // SAFETY: the closure runs in the child between fork and exec, and only
    // calls setrlimit and unshare, which are async-signal-safe.
    unsafe {
        command.pre_exec(move || limits.apply());
    }
    let mut child = command.spawn().map_err(|err| {
        CoreError::Internal(format!("starting the receipt reader {}: {err}", settings.program.display()))
    })?;
    let group = ProcessGroup(child.id());
    let (Some(mut stdin), Some(stdout), Some(stderr)) = (child.stdin.take(), child.stdout.take(), child.stderr.take())
    else {
        return Err(CoreError::Internal("the receipt reader's pipes".into()));
    };
    let conversation = async {
        let write = async move {
            // A child that dies early closes its input: its exit says why.
            let _ = stdin.write_all(&bytes).await;
            drop(stdin);
        };
        let ((), output, errors) =
            tokio::join!(write, read_capped(stdout, MAX_OUTPUT_BYTES), read_capped(stderr, MAX_STDERR_BYTES));
        let status = child.wait().await;
        (output, errors.unwrap_or_default(), status)
    };
    let finished = tokio::time::timeout(settings.timeout, conversation).await;
    // Whatever happened, nothing of the reading outlives it.
    drop(group);
    let (output, errors, status) = match finished {
        Ok(done) => done,
        Err(_) => {
            return Ok(unreadable(
                "timeout",
                format!("Reading the file took longer than {} seconds.", settings.timeout.as_secs()),
            ));
        }
    };
    let status = status.map_err(|err| CoreError::Internal(format!("waiting for the receipt reader: {err}")))?;
    if !errors.is_empty() {
        tracing::info!(stderr = %String::from_utf8_lossy(&errors).escape_debug(), "receipt reader said");
    }
    Ok(judge(status, output, settings))
}

/// Everything `from` writes, read to its end so the writer never blocks;
/// `None` past `cap` bytes (what came is dropped).
async fn read_capped(mut from: impl tokio::io::AsyncRead + Unpin, cap: u64) -> Option<Vec<u8>> {
    let mut kept = Vec::new();
    let mut over = false;
    let mut buffer = [0u8; 8192];
    loop {
        match from.read(&mut buffer).await {
            Ok(0) | Err(_) => break,
            Ok(n) if !over && (kept.len() + n) as u64 <= cap => kept.extend_from_slice(&buffer[..n]),
            Ok(_) => {
                over = true;
                kept = Vec::new();
            }
        }
    }
    (!over).then_some(kept)
}

/// What a finished child's exit and output come to.
fn judge(status: ExitStatus, output: Option<Vec<u8>>, settings: &ReaderSettings) -> Outcome {
    if let Some(signal) = status.signal() {
        tracing::warn!(signal, "the receipt reader was stopped by a signal");
        return match signal {
            // The CPU limit: SIGXCPU at the soft limit, SIGKILL at the hard.
            libc::SIGXCPU | libc::SIGKILL => unreadable(
                "timeout",
                format!("Reading the file took more than {} seconds of processor time.", settings.cpu.as_secs()),
            ),
            _ => too_complex(),
        };
    }
    if !status.success() {
        tracing::warn!(code = ?status.code(), "the receipt reader failed");
        return too_complex();
    }
    match output.map(|o| serde_json::from_slice::<Outcome>(&o)) {
        Some(Ok(outcome)) => outcome,
        _ => too_complex(),
    }
}

fn unreadable(code: &str, message: String) -> Outcome {
    Outcome::Unreadable(Unreadable { code: code.to_string(), message })
}

fn too_complex() -> Outcome {
    unreadable("file_too_complex", "The file is nested, compressed or built beyond what Sail reads safely.".to_string())
}

/// Kills a reading's whole process group when dropped (the child and any
/// Tesseract it started); a group already gone is no error.
struct ProcessGroup(Option<u32>);

impl Drop for ProcessGroup {
    fn drop(&mut self) {
        if let Some(pid) = self.0.and_then(|pid| i32::try_from(pid).ok()) {
            // SAFETY: kill has no memory effects; -pid names the group the
            // child leads (`process_group(0)`).
            unsafe {
                libc::kill(-pid, libc::SIGKILL);
            }
        }
    }
}

/// The rlimits a reading runs under, copied into the child before exec.
#[derive(Clone, Copy)]
struct Limits {
    cpu_seconds: u64,
    memory_bytes: u64,
}

impl From<&ReaderSettings> for Limits {
    fn from(settings: &ReaderSettings) -> Self {
        Limits { cpu_seconds: settings.cpu.as_secs().max(1), memory_bytes: settings.memory_bytes }
    }
}

impl Limits {
    /// In the child, before exec: only async-signal-safe calls.
    fn apply(self) -> std::io::Result<()> {
        fn set(resource: libc::__rlimit_resource_t, soft: u64, hard: u64) -> std::io::Result<()> {
            let limit = libc::rlimit { rlim_cur: soft as libc::rlim_t, rlim_max: hard as libc::rlim_t };
            // SAFETY: setrlimit reads the struct it is given and nothing else.
            if unsafe { libc::setrlimit(resource, &limit) } == 0 {
                Ok(())
            } else {
                Err(std::io::Error::last_os_error())
            }
        }
        // SIGXCPU at the soft limit, SIGKILL a second later.
        set(libc::RLIMIT_CPU, self.cpu_seconds, self.cpu_seconds + 1)?;
        set(libc::RLIMIT_AS, self.memory_bytes, self.memory_bytes)?;
        set(libc::RLIMIT_FSIZE, 64 * 1024 * 1024, 64 * 1024 * 1024)?;
        set(libc::RLIMIT_NOFILE, 64, 64)?;
        set(libc::RLIMIT_CORE, 0, 0)?;
        // A core killed outright (SIGKILL, the OOM killer) takes its
        // reading with it rather than leaving it to its CPU limit.
        // SAFETY: prctl with these arguments only sets this process's
        // parent-death signal.
        unsafe {
            libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL as libc::c_ulong, 0, 0, 0);
        }
        // No network: a namespace of its own with only a loopback that is
        // down. Refused without privilege, where the reader's own code
        // (which opens no sockets) is the only wall.
        // SAFETY: unshare only changes this (child) process's namespaces.
        unsafe {
            if libc::unshare(libc::CLONE_NEWNET) != 0 {
                libc::unshare(libc::CLONE_NEWUSER | libc::CLONE_NEWNET);
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shell(script: &str) -> ReaderSettings {
        // `sh -c SCRIPT NAME CONTENT_TYPE`: the content type lands in $1.
        ReaderSettings::program("/bin/sh".into(), vec!["-c".into(), script.into(), "reader".into()])
    }

    #[tokio::test]
    async fn a_child_that_answers_is_read() {
        let settings = shell(r#"cat > /dev/null; printf '{"text":"%s"}' "$1""#);
        let outcome = read(&settings, "text/plain", b"x".to_vec()).await.unwrap();
        assert_eq!(outcome, Outcome::Text("text/plain".into()));
    }

    #[tokio::test]
    async fn a_child_that_never_finishes_is_killed_with_its_group_at_the_timeout() {
        let marker = tempfile::NamedTempFile::new().unwrap();
        let path = marker.path().display().to_string();
        // A grandchild that would write the marker after the timeout.
        let script = format!("(sleep 3; echo late > {path}) & sleep 60");
        let settings = ReaderSettings { timeout: Duration::from_millis(500), ..shell(&script) };
        let started = std::time::Instant::now();
        let outcome = read(&settings, "application/pdf", vec![0; 16]).await.unwrap();
        assert!(matches!(outcome, Outcome::Unreadable(ref why) if why.code == "timeout"), "{outcome:?}");
        assert!(started.elapsed() < Duration::from_secs(5), "took {:?}", started.elapsed());
        tokio::time::sleep(Duration::from_secs(4)).await;
        assert_eq!(std::fs::read_to_string(marker.path()).unwrap(), "", "the grandchild outlived the timeout");
    }

    #[tokio::test]
    async fn a_crashing_child_is_a_file_too_complex() {
        let outcome = read(&shell("kill -SEGV $$"), "application/pdf", vec![]).await.unwrap();
        assert!(matches!(outcome, Outcome::Unreadable(ref why) if why.code == "file_too_complex"), "{outcome:?}");
    }

    #[tokio::test]
    async fn the_cpu_limit_ends_a_busy_child_as_a_timeout() {
        let settings = ReaderSettings { cpu: Duration::from_secs(1), ..shell("while :; do :; done") };
        let outcome = read(&settings, "application/pdf", vec![]).await.unwrap();
        assert!(matches!(outcome, Outcome::Unreadable(ref why) if why.code == "timeout"), "{outcome:?}");
    }

    #[tokio::test]
    async fn the_address_space_limit_holds_in_the_child() {
        // `ulimit -v` prints the soft limit in KiB.
        let settings =
            ReaderSettings { memory_bytes: 512 * 1024 * 1024, ..shell(r#"printf '{"text":"%s"}' "$(ulimit -v)""#) };
        let outcome = read(&settings, "image/png", vec![]).await.unwrap();
        assert_eq!(outcome, Outcome::Text((512 * 1024).to_string()));
    }

    #[tokio::test]
    async fn the_child_has_its_own_directory_and_environment() {
        let script = r#"printf '{"text":"%s|%s|%s"}' "$(pwd)" "$TMPDIR" "${SAIL_ENCRYPTION_KEY:-unset}""#;
        let outcome = read(&shell(script), "image/png", vec![]).await.unwrap();
        let Outcome::Text(text) = outcome else { panic!("{outcome:?}") };
        let parts: Vec<&str> = text.split('|').collect();
        assert!(parts[0].contains("sail-receipt-"), "{text}");
        assert_eq!(parts[0], parts[1]);
        assert_eq!(parts[2], "unset");
        assert!(!std::path::Path::new(parts[0]).exists(), "the reading's directory was left behind");
    }

    #[tokio::test]
    async fn a_child_sees_no_network_but_a_loopback_where_the_kernel_allows_a_namespace() {
        // The interfaces the child can see, from /proc (no tools needed).
        let script = r#"printf '{"text":"%s"}' "$(tail -n +3 /proc/net/dev | cut -d: -f1 | tr -d ' ' | tr '\n' ',')""#;
        let outcome = read(&shell(script), "image/png", vec![]).await.unwrap();
        let Outcome::Text(interfaces) = outcome else { panic!("{outcome:?}") };
        // Root (CI and these machines) can always make the namespace.
        // SAFETY: geteuid has no effects.
        if unsafe { libc::geteuid() } == 0 {
            assert_eq!(interfaces, "lo,", "the reader could reach a network");
        }
    }

    #[tokio::test]
    async fn output_that_is_not_an_outcome_is_a_file_too_complex() {
        let outcome = read(&shell("echo garbage"), "image/png", vec![]).await.unwrap();
        assert!(matches!(outcome, Outcome::Unreadable(ref why) if why.code == "file_too_complex"), "{outcome:?}");
    }

    #[tokio::test]
    async fn a_missing_program_is_sails_own_failure() {
        let settings = ReaderSettings::program("/nonexistent/sail-receipt-reader".into(), vec![]);
        assert!(read(&settings, "image/png", vec![]).await.is_err());
    }
}
