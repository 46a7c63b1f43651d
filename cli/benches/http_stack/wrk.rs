//! The load: wrk (Debian's `wrk`) driven by one Lua script that can send a
//! fixed GET, create users with fresh ids, push 500-row batches with fresh
//! transaction ids, or mix all of these, and that prints requests, errors and
//! the p50/p99/p99.9 latencies in a line this module parses.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use anyhow::{Context, bail};

/// Rows in each pushed batch: the largest the contract accepts.
pub const PUSH_ROWS: usize = 500;

const SCRIPT: &str = r#"
local mode = os.getenv("BENCH_MODE")
local tag = os.getenv("BENCH_TAG")
local user = os.getenv("BENCH_USER_PATH")
local push = os.getenv("BENCH_PUSH_PATH")
local rows_per_push = tonumber(os.getenv("BENCH_PUSH_ROWS"))
wrk.headers["Authorization"] = "Bearer " .. os.getenv("BENCH_KEY")
wrk.headers["Content-Type"] = "application/json"

local threads = 0
function setup(thread)
  threads = threads + 1
  thread:set("thread_id", threads)
end

local descriptors = {
  {"CVS/PHARMACY #04562", "5912"}, {"WALGREENS #1234", "5912"}, {"AMAZON MKTPLACE PMTS", "5942"},
  {"SHELL OIL 57444", "5541"}, {"QUEST DIAGNOSTICS", "8071"}, {"TARGET 00012345", "5310"},
}
local rows = {}
for i = 1, rows_per_push do
  local d = descriptors[((i - 1) % #descriptors) + 1]
  rows[i] = string.format(
    '{"external_transaction_id":"@@-%d","date":"2026-11-01","amount":%d.%02d,"description":"%s","mcc":"%s"}',
    i, 1 + i % 300, i % 100, d[1], d[2])
end
local push_template = '{"transactions":[' .. table.concat(rows, ",") .. ']}'

local ids = 0
local function fresh_id()
  ids = ids + 1
  return string.format("%s-%d-%d", tag, thread_id, ids)
end
local function create_user()
  return wrk.format("POST", "/api/v1/users", nil, '{"external_user_id":"' .. fresh_id() .. '"}')
end
local function push_rows()
  return wrk.format("POST", push, nil, (push_template:gsub("@@", fresh_id())))
end

if mode == "create_users" then
  request = create_user
elseif mode == "push" then
  request = push_rows
elseif mode == "mixed" then
  -- Per 1,000 requests: one 500-row push, 40 new users, and the rest
  -- spread evenly over five reads.
  local reads = {
    user, "/api/v1/merchants?search=walgren", user .. "/expenses?limit=25",
    "/api/v1/administrators", "/api/v1/users?limit=25",
  }
  local sent = 0
  request = function()
    sent = sent + 1
    local turn = sent % 1000
    if turn == 0 then return push_rows() end
    if turn % 25 == 0 then return create_user() end
    return wrk.format("GET", reads[(turn % #reads) + 1])
  end
end

function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format("BENCH %d %d %d %d %.1f %.1f %.1f\n", summary.requests, summary.duration,
    e.status, e.connect + e.read + e.write + e.timeout,
    latency:percentile(50), latency:percentile(99), latency:percentile(99.9)))
end
"#;

/// What to send.
#[derive(Clone, Debug)]
pub enum Load {
    /// The same GET, again and again (the path is part of the URL).
    Get(String),
    /// `POST /users`, each with a fresh `external_user_id`.
    CreateUsers,
    /// `POST …/transactions` to this path, each with 500 fresh rows.
    Push(String),
    /// Reads of this user and the directories, new users and pushes.
    Mixed { user_path: String, push_path: String },
}

impl Load {
    fn mode(&self) -> &'static str {
        match self {
            Load::Get(_) => "get",
            Load::CreateUsers => "create_users",
            Load::Push(_) => "push",
            Load::Mixed { .. } => "mixed",
        }
    }

    /// The request path of a single GET, or the base for the others.
    pub fn path(&self) -> &str {
        match self {
            Load::Get(path) => path,
            Load::CreateUsers | Load::Mixed { .. } => "/api/v1/users",
            Load::Push(path) => path,
        }
    }
}

/// One wrk run's figures.
#[derive(Clone, Copy, Debug)]
pub struct Outcome {
    pub requests: u64,
    pub per_second: f64,
    /// Answers outside 2xx/3xx.
    pub not_ok: u64,
    /// Connect, read, write and timeout errors.
    pub socket_errors: u64,
    pub p50_ms: f64,
    pub p99_ms: f64,
    pub p999_ms: f64,
}

/// Runs wrk: 2 threads, `connections` connections, for `duration`.
pub struct Wrk {
    script: PathBuf,
    key: String,
    connections: u32,
}

impl Wrk {
    /// Writes the script into `dir`; every run presents `key`.
    pub fn new(dir: &Path, key: &str, connections: u32) -> anyhow::Result<Self> {
        let script = dir.join("load.lua");
        std::fs::write(&script, SCRIPT)?;
        Ok(Self { script, key: key.to_string(), connections })
    }

    /// Sends `load` to the server at `base` (`http://host:port`); `tag` keeps
    /// the ids this run creates apart from every other run's.
    pub fn run(&self, base: &str, load: &Load, duration: Duration, tag: &str) -> anyhow::Result<Outcome> {
        let (user_path, push_path) = match load {
            Load::Mixed { user_path, push_path } => (user_path.as_str(), push_path.as_str()),
            Load::Push(path) => ("", path.as_str()),
            _ => ("", ""),
        };
        let url = format!("{base}{}", load.path());
        let output = Command::new("wrk")
            .args(["-t2", &format!("-c{}", self.connections), &format!("-d{}s", duration.as_secs().max(1))])
            .args(["--timeout", "10s", "-s"])
            .arg(&self.script)
            .arg(&url)
            .env("BENCH_MODE", load.mode())
            .env("BENCH_TAG", tag)
            .env("BENCH_KEY", &self.key)
            .env("BENCH_USER_PATH", user_path)
            .env("BENCH_PUSH_PATH", push_path)
            .env("BENCH_PUSH_ROWS", PUSH_ROWS.to_string())
            .output()
            .context("running wrk (it is needed: `apt-get install wrk`)")?;
        let stdout = String::from_utf8_lossy(&output.stdout);
        let Some(line) = stdout.lines().find_map(|l| l.strip_prefix("BENCH ")) else {
            bail!("wrk printed no figures for {url}: {stdout} {}", String::from_utf8_lossy(&output.stderr));
        };
        let n: Vec<f64> = line.split_whitespace().map(str::parse).collect::<Result<_, _>>()?;
        let [requests, micros, not_ok, socket_errors, p50, p99, p999] = n[..] else {
            bail!("unexpected wrk figures: {line}");
        };
        Ok(Outcome {
            requests: requests as u64,
            per_second: requests / (micros / 1e6),
            not_ok: not_ok as u64,
            socket_errors: socket_errors as u64,
            p50_ms: p50 / 1e3,
            p99_ms: p99 / 1e3,
            p999_ms: p999 / 1e3,
        })
    }
}
