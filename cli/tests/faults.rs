//! The production path under faults (docs/benchmarks.md#faults): two cores
//! and two gateways, each a `sail` process of its own, over one PostgreSQL
//! database and one Redis, under a partner's load through either gateway,
//! each call retried on the other gateway with the same `Idempotency-Key`
//! after a `503` or a lost connection, as a load balancer and a careful
//! client do. The cases:
//!
//! - 20 clients pushing 500-row batches while PostgreSQL restarts, while a
//!   core is killed, and while Redis is stopped: every `202`'d row is stored
//!   exactly once and adjudicated, every job completes, and while PostgreSQL
//!   restarts no answer is a `500`;
//! - a core killed during 2,000 webhook deliveries to a real receiver:
//!   every recorded event arrives at each endpoint at least once;
//! - a core killed during 50 receipt readings: each receipt is read once,
//!   and the killed core's reader processes die with it;
//! - a backlog: two partners' receivers down for `SAIL_FAULTS_BACKLOG_S`
//!   (600 in `.ci/run`) while events keep coming, then up: each backlog is
//!   delivered in order of due time at its receiver's pace, the small
//!   partner unhindered by the large one.
//!
//! After each, no job or delivery is left past its lease, and the memory of
//! every process that lived through the fault is within 10% of what it was
//! just before it.
//!
//! The cases restart the PostgreSQL server, kill a core and stop Redis, so
//! they are `#[ignore]`d in the ordinary suite and run alone by `.ci/run`:
//!
//!     SAIL_FAULTS_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres \
//!       cargo test -p sail --test faults -- --ignored --test-threads 1 --nocapture

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "a test or benchmark: a failed step is the run failing, and says where"
)]

use std::collections::{BTreeMap, HashMap, HashSet};
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use serde_json::{Value, json};

const CLIENTS: usize = 20;
const BATCHES_PER_CLIENT: usize = 4;
const ROWS: usize = 500;

/// The server the cases run on, as its administrator. Without one a case
/// has nothing to run on and returns, except in CI, which always sets it.
fn admin_url() -> Option<String> {
    let url = std::env::var("SAIL_FAULTS_DATABASE_URL").ok().filter(|url| url.starts_with("postgres"));
    assert!(url.is_some() || std::env::var_os("CI").is_none(), "CI runs the fault cases on SAIL_FAULTS_DATABASE_URL");
    url
}

fn sail() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_sail"));
    command.env_remove("SAIL_DATABASE_URL").env("RUST_LOG", "warn,sail=info,core_grpc=info");
    command
}

fn run(args: &[&str], env: &[(&str, &str)]) -> String {
    let output = sail().args(args).envs(env.iter().copied()).output().unwrap();
    assert!(output.status.success(), "{args:?}: {}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8(output.stdout).unwrap()
}

/// A process of the fleet, killed when dropped.
struct Process {
    child: Child,
    addr: String,
    log: Arc<Mutex<Vec<String>>>,
}

impl Process {
    fn start(mut command: Command, wanted: &str) -> Process {
        let mut child = command.stderr(Stdio::piped()).stdout(Stdio::null()).spawn().unwrap();
        let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
        let deadline = Instant::now() + Duration::from_secs(60);
        let addr = loop {
            assert!(Instant::now() < deadline, "no 'listening {wanted}=' line");
            let line = lines.next().expect("the process exited").unwrap();
            if let Some(rest) = line.split(&format!("listening {wanted}=")).nth(1) {
                break rest.split_whitespace().next().unwrap().to_string();
            }
        };
        let log: Arc<Mutex<Vec<String>>> = Arc::default();
        let keep = log.clone();
        std::thread::spawn(move || {
            for line in lines.map_while(Result::ok) {
                keep.lock().unwrap().push(line);
            }
        });
        Process { child, addr, log }
    }

    /// Its resident memory in KiB, while it lives.
    fn rss_kib(&self) -> Option<u64> {
        rss_kib(self.child.id())
    }

    /// `kill -9`: no shutdown, whatever it was doing is cut.
    fn kill(&mut self) {
        self.child.kill().unwrap();
        self.child.wait().unwrap();
    }

    fn internal_errors(&self) -> Vec<String> {
        self.log
            .lock()
            .unwrap()
            .iter()
            .filter(|l| l.contains("internal error") || l.contains("panicked"))
            .cloned()
            .collect()
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Two cores and two gateways over one fresh database, a partner and its key.
struct Fleet {
    database_url: String,
    database: String,
    admin_url: String,
    cores: Vec<Process>,
    gateways: Vec<Process>,
    /// The partner the cases measure, and its key.
    partner: String,
    key: String,
}

impl Fleet {
    /// `rate_limit_rps`: 0 turns limits off; above it every call takes a
    /// token from the shared buckets in Redis. `core_flags` go to both cores.
    fn start(admin_url: &str, rate_limit_rps: u32, core_flags: &[&str]) -> Fleet {
        // The test's own HTTP clients use ring, as the binary does.
        let _ = rustls::crypto::ring::default_provider().install_default();
        let database = format!("sail_faults_{}", uuid::Uuid::now_v7().simple());
        let server = admin_url.rsplit_once('/').unwrap().0;
        let database_url = format!("{server}/{database}");
        let env = [("SAIL_DATABASE_URL", database_url.as_str())];
        run(&["migrate"], &env);
        let partner: Value =
            serde_json::from_str(&run(&["partners", "create", "--name", "Faults", "--json"], &env)).unwrap();
        let key: Value = serde_json::from_str(&run(
            &[
                "keys",
                "create",
                "--partner",
                partner["id"].as_str().unwrap(),
                "--scopes",
                "connections,ingest,expenses",
                "--json",
            ],
            &env,
        ))
        .unwrap();
        let encryption_key = run(&["keys", "generate-encryption-key"], &[]).trim().to_string();
        let redis = std::env::var("SAIL_TEST_REDIS_URL").unwrap_or_else(|_| "redis://127.0.0.1:6379".into());
        let cores: Vec<Process> = (0..2)
            .map(|_| {
                let mut core = sail();
                core.args(["core", "--grpc-addr", "127.0.0.1:0", "--job-lease-s", "5"])
                    .args(core_flags)
                    // The receivers here are on loopback; sandbox events
                    // are the webhook cases' load.
                    .args(["--webhook-allow-private", "true", "--sandbox", "true"])
                    .env("SAIL_DATABASE_URL", &database_url)
                    .env("SAIL_ENCRYPTION_KEY", &encryption_key)
                    .env("SAIL_REDIS_URL", &redis)
                    .env("SAIL_RATE_LIMIT_RPS", rate_limit_rps.to_string())
                    .env("SAIL_RATE_LIMIT_BURST", (rate_limit_rps * 2).to_string());
                Process::start(core, "grpc")
            })
            .collect();
        let gateways = cores
            .iter()
            .map(|core| {
                let mut gateway = sail();
                gateway.args(["gateway", "--http-addr", "127.0.0.1:0", "--core-url", &format!("http://{}", core.addr)]);
                Process::start(gateway, "http")
            })
            .collect();
        Fleet {
            database_url,
            database,
            admin_url: admin_url.to_string(),
            cores,
            gateways,
            partner: partner["id"].as_str().unwrap().to_string(),
            key: key["key"].as_str().unwrap().to_string(),
        }
    }

    fn base(&self, gateway: usize) -> String {
        format!("http://{}/api/v1", self.gateways[gateway].addr)
    }

    fn internal_errors(&self) -> Vec<String> {
        self.cores.iter().chain(&self.gateways).flat_map(Process::internal_errors).collect()
    }

    /// Every process's resident memory in KiB, by name, while it lives.
    fn memory(&self) -> BTreeMap<String, u64> {
        let named = self.cores.iter().enumerate().map(|(n, p)| (format!("core {n}"), p));
        let named = named.chain(self.gateways.iter().enumerate().map(|(n, p)| (format!("gateway {n}"), p)));
        named.filter_map(|(name, process)| process.rss_kib().map(|kib| (name, kib))).collect()
    }

    /// One number from the database (`psql -At`).
    fn count(&self, sql: &str) -> usize {
        let output = Command::new("psql").args([&self.database_url, "-Atc", sql]).output().unwrap();
        let text = String::from_utf8_lossy(&output.stdout);
        text.trim().parse().unwrap_or_else(|_| panic!("{sql}: {text} {}", String::from_utf8_lossy(&output.stderr)))
    }

    /// Another partner with a key of `scopes`, made by the operator CLI.
    fn another_partner(&self, name: &str, scopes: &str) -> String {
        let env = [("SAIL_DATABASE_URL", self.database_url.as_str())];
        let partner: Value =
            serde_json::from_str(&run(&["partners", "create", "--name", name, "--json"], &env)).unwrap();
        let id = partner["id"].as_str().unwrap();
        let key: Value =
            serde_json::from_str(&run(&["keys", "create", "--partner", id, "--scopes", scopes, "--json"], &env))
                .unwrap();
        key["key"].as_str().unwrap().to_string()
    }

    fn view(&self, retry_500: bool) -> Arc<FleetView> {
        Arc::new(FleetView { bases: (0..2).map(|g| self.base(g)).collect(), key: self.key.clone(), retry_500 })
    }
}

/// The resident memory of process `pid` in KiB (`VmRSS`), while it lives.
fn rss_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// The memory of every process that lived through the fault, after, is
/// within 10% of what it was just before it (under the same load then, idle
/// now: what the fault left behind shows).
fn memory_kept(case: &str, before: &BTreeMap<String, u64>, fleet: &Fleet) {
    std::thread::sleep(Duration::from_secs(2));
    let after = fleet.memory();
    let figures: Vec<String> = after
        .iter()
        .filter_map(|(name, kib)| before.get(name).map(|was| format!("{name} {} → {} MiB", was / 1024, kib / 1024)))
        .collect();
    println!("faults: {case}: memory of the survivors {}", figures.join(", "));
    for (name, kib) in &after {
        if let Some(was) = before.get(name) {
            assert!(*kib * 10 <= *was * 11, "{case}: {name} grew from {was} KiB to {kib} KiB over the fault");
        }
    }
}

impl Drop for Fleet {
    fn drop(&mut self) {
        self.cores.clear();
        self.gateways.clear();
        let _ = Command::new("psql")
            .args([&self.admin_url, "-qc", &format!("DROP DATABASE IF EXISTS \"{}\" WITH (FORCE)", self.database)])
            .status();
    }
}

/// What the clients saw: every status of every attempt, and each accepted
/// push's job.
#[derive(Default)]
struct Seen {
    statuses: BTreeMap<u16, usize>,
    lost_connections: usize,
    /// Pushes whose retry ran again and found its rows already stored.
    ran_again: usize,
    jobs: Vec<String>,
    first_refusal: Option<Instant>,
    last_refusal: Option<Instant>,
}

/// Sends what `build` makes (from a gateway's base URL) until it is
/// accepted, keeping its `Idempotency-Key`, on the other gateway after each
/// refusal; the accepted reply's body. A `503`, a lost connection or a key
/// still in progress is retried; a `500` only while a core is being killed.
async fn until_accepted(
    fleet: &FleetView,
    seen: &Mutex<Seen>,
    gateway: &mut usize,
    what: &str,
    build: impl Fn(&reqwest::Client, &str) -> reqwest::RequestBuilder,
) -> Value {
    let http = reqwest::Client::new();
    let key = uuid::Uuid::now_v7().simple().to_string();
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        assert!(Instant::now() < deadline, "{what} was never accepted");
        let request = build(&http, &fleet.bases[*gateway])
            .bearer_auth(&fleet.key)
            .header("Idempotency-Key", &key)
            .timeout(Duration::from_secs(30));
        match request.send().await {
            Ok(response) => {
                let status = response.status().as_u16();
                let body: Value = response.json().await.unwrap_or(Value::Null);
                {
                    let mut seen = seen.lock().unwrap();
                    *seen.statuses.entry(status).or_default() += 1;
                    if status >= 500 {
                        seen.first_refusal.get_or_insert_with(Instant::now);
                        seen.last_refusal = Some(Instant::now());
                    }
                }
                if status < 300 {
                    return body;
                }
                // A retry whose first attempt was cut off mid-way finds its
                // key still reserved until the reservation is released or
                // goes stale: retry it shortly, as asked.
                let in_progress =
                    status == 409 && body["error"]["message"].as_str().is_some_and(|m| m.contains("still in progress"));
                // A call cut off inside a killed core is a 500 whose
                // outcome is unknown: partners retry it, same key.
                let cut_off = status == 500 && fleet.retry_500;
                assert!(status == 503 || in_progress || cut_off, "{what} answered {status}: {body}");
                if in_progress {
                    tokio::time::sleep(Duration::from_millis(900)).await;
                }
            }
            Err(_) => seen.lock().unwrap().lost_connections += 1,
        }
        // The other gateway, after a moment, as a load balancer retries.
        *gateway = 1 - *gateway;
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// A JSON `POST` of `body` to `path`, for [`until_accepted`].
fn post(path: String, body: Value) -> impl Fn(&reqwest::Client, &str) -> reqwest::RequestBuilder {
    move |http, base| http.post(format!("{base}{path}")).json(&body)
}

/// One client: a user and a connection, then its batches, each retried on
/// the other gateway until it is `202`.
async fn client(fleet: Arc<FleetView>, index: usize, seen: Arc<Mutex<Seen>>) {
    let mut gateway = index % 2;
    let what = format!("client {index}");
    let user = until_accepted(
        &fleet,
        &seen,
        &mut gateway,
        &what,
        post("/users".into(), json!({"external_user_id": format!("client-{index}")})),
    )
    .await;
    let user = user["id"].as_str().unwrap().to_string();
    let connection = until_accepted(
        &fleet,
        &seen,
        &mut gateway,
        &what,
        post(format!("/users/{user}/connections"), json!({"type": "external", "provider_label": "Bank"})),
    )
    .await;
    let connection = connection["id"].as_str().unwrap().to_string();
    for batch in 0..BATCHES_PER_CLIENT {
        let rows: Vec<Value> = (0..ROWS)
            .map(|i| {
                json!({"external_transaction_id": format!("c{index}-b{batch}-{i}"), "date": "2026-11-01",
                       "amount": 5.0, "description": "CVS/PHARMACY #04562", "mcc": "5912"})
            })
            .collect();
        let path = format!("/users/{user}/connections/{connection}/transactions");
        let accepted =
            until_accepted(&fleet, &seen, &mut gateway, &what, post(path, json!({"transactions": rows}))).await;
        // A retry that ran again (its first attempt was applied but its
        // reply never kept) counts the rows as already stored.
        let counted = accepted["accepted"].as_u64().unwrap() + accepted["duplicates_updated"].as_u64().unwrap();
        assert_eq!(counted, ROWS as u64, "{accepted}");
        let mut seen = seen.lock().unwrap();
        if accepted["accepted"] != ROWS {
            seen.ran_again += 1;
        }
        seen.jobs.push(accepted["job_id"].as_str().unwrap().to_string());
    }
}

/// What the client tasks need of the fleet (the processes stay with the test).
struct FleetView {
    bases: Vec<String>,
    key: String,
    /// Whether a `500` is retried (a core is killed) or fails the case.
    retry_500: bool,
}

/// Runs `load` while, on a thread of its own, `fault` runs once `trigger`
/// returns; returns what the load saw and every process's memory just
/// before the fault.
fn under_fault(
    fleet: &Fleet,
    retry_500: bool,
    trigger: impl FnOnce() + Send + 'static,
    fault: impl FnOnce() + Send + 'static,
    load: impl AsyncFnOnce(Arc<FleetView>, Arc<Mutex<Seen>>),
) -> (Seen, BTreeMap<String, u64>) {
    let _ = rustls::crypto::ring::default_provider().install_default();
    let view = fleet.view(retry_500);
    let seen: Arc<Mutex<Seen>> = Arc::default();
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    let pids: Vec<(String, u32)> = (fleet.cores.iter().enumerate().map(|(n, p)| (format!("core {n}"), p.child.id())))
        .chain(fleet.gateways.iter().enumerate().map(|(n, p)| (format!("gateway {n}"), p.child.id())))
        .collect();
    let faulting = std::thread::spawn(move || {
        trigger();
        let before: BTreeMap<String, u64> =
            pids.iter().filter_map(|(name, pid)| rss_kib(*pid).map(|kib| (name.clone(), kib))).collect();
        fault();
        before
    });
    runtime.block_on(load(view, seen.clone()));
    let before = faulting.join().unwrap();
    (Arc::try_unwrap(seen).ok().unwrap().into_inner().unwrap(), before)
}

/// The 20 pushing clients, for [`under_fault`].
async fn pushing_clients(view: Arc<FleetView>, seen: Arc<Mutex<Seen>>) {
    let clients: Vec<_> = (0..CLIENTS).map(|index| tokio::spawn(client(view.clone(), index, seen.clone()))).collect();
    for client in clients {
        client.await.unwrap();
    }
}

/// The pushing clients' load four times, each from a partner of its own,
/// before the measured run: every process then holds what the load makes it
/// hold, and its memory just before the fault is the warm figure to compare
/// with. (Over sixteen such loads without a fault, a core's RSS climbed from
/// 107 to about 120 MiB over the first four and then stayed within 5 MiB
/// of that.)
fn warm_up(fleet: &Fleet) {
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    for round in 0..4 {
        let key = fleet.another_partner(&format!("Warm-up {round}"), "connections,ingest,expenses");
        let view = Arc::new(FleetView { bases: fleet.view(false).bases.clone(), key, retry_500: false });
        runtime.block_on(pushing_clients(view, Arc::default()));
        wait_for("the warm-up's jobs", Duration::from_secs(120), || {
            fleet.count("SELECT count(*) FROM jobs WHERE status <> 'completed'") == 0
        });
    }
}

/// A trigger: once the measured partner has `n` pushes accepted, so the
/// rest are being sent and some are inside the cores.
fn pushes_accepted(fleet: &Fleet, n: usize) -> impl FnOnce() + Send + 'static {
    let (database_url, partner) = (fleet.database_url.clone(), fleet.partner.clone());
    move || {
        let sql = format!("SELECT count(*) FROM jobs WHERE partner_id = '{partner}'");
        wait_for("pushes accepted", Duration::from_secs(120), || {
            let output = Command::new("psql").args([&database_url, "-Atc", &sql]).output().unwrap();
            String::from_utf8_lossy(&output.stdout).trim().parse::<usize>().unwrap_or(0) >= n
        })
    }
}

/// A trigger: `after` from now.
fn after(wait: Duration) -> impl FnOnce() + Send + 'static {
    move || std::thread::sleep(wait)
}

/// A fault: `kill -9` of process `pid`.
fn kill_9(pid: u32) -> impl FnOnce() + Send + 'static {
    move || {
        let status = Command::new("kill").args(["-9", &pid.to_string()]).status().unwrap();
        assert!(status.success());
    }
}

/// Waits until every job is `completed`, reading through any gateway that
/// answers; returns how long that took.
fn all_completed(fleet: &Fleet, jobs: &[String]) -> Duration {
    let started = Instant::now();
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let http = reqwest::Client::new();
    runtime.block_on(async {
        for job in jobs {
            loop {
                assert!(started.elapsed() < Duration::from_secs(120), "job {job} never completed");
                let mut status = None;
                for gateway in 0..fleet.gateways.len() {
                    let reply =
                        http.get(format!("{}/jobs/{job}", fleet.base(gateway))).bearer_auth(&fleet.key).send().await;
                    if let Ok(reply) = reply
                        && reply.status() == 200
                    {
                        let body: Value = reply.json().await.unwrap();
                        status = body["status"].as_str().map(str::to_string);
                        break;
                    }
                }
                match status.as_deref() {
                    Some("completed") => break,
                    Some("failed") => panic!("job {job} failed"),
                    _ => tokio::time::sleep(Duration::from_millis(200)).await,
                }
            }
        }
    });
    started.elapsed()
}

/// The stored rows: how many, how many distinct external ids, how many
/// never adjudicated, and how many adjudicated more than once (the rows of
/// a push that ran again: a re-pushed row is adjudicated anew).
fn stored(fleet: &Fleet) -> (usize, usize, usize, usize) {
    let output = Command::new("psql")
        .args([
            &fleet.database_url,
            "-Atc",
            &format!(
                "SELECT count(*), count(DISTINCT (connection_id, external_transaction_id)), \
                 count(*) FILTER (WHERE adjudication_count = 0), count(*) FILTER (WHERE adjudication_count > 1) \
                 FROM transactions WHERE partner_id = '{}'",
                fleet.partner
            ),
        ])
        .output()
        .unwrap();
    let text = String::from_utf8(output.stdout).unwrap();
    let numbers: Vec<usize> = text.trim().split('|').map(|n| n.parse().unwrap()).collect();
    (numbers[0], numbers[1], numbers[2], numbers[3])
}

/// The status of `GET /readyz` on a gateway.
fn readyz(addr: &str) -> u16 {
    use std::io::{Read, Write};
    let mut stream = std::net::TcpStream::connect(addr).unwrap();
    write!(stream, "GET /readyz HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n").unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    response.split(' ').nth(1).unwrap().parse().unwrap()
}

fn report(case: &str, seen: &Seen, fleet: &Fleet, completed_in: Duration) {
    let (rows, distinct, unadjudicated, readjudicated) = stored(fleet);
    let window = match (seen.first_refusal, seen.last_refusal) {
        (Some(first), Some(last)) => format!("{:.1} s", (last - first).as_secs_f64()),
        _ => "none".into(),
    };
    println!(
        "faults: {case}: answers {:?}, lost connections {}, refusals over {window}, pushes run again {}, \
         rows stored {rows} ({distinct} distinct, {unadjudicated} never adjudicated, {readjudicated} adjudicated again) of {} accepted, \
         {} jobs completed {:.1} s after the last push",
        seen.statuses,
        seen.lost_connections,
        seen.ran_again,
        CLIENTS * BATCHES_PER_CLIENT * ROWS,
        seen.jobs.len(),
        completed_in.as_secs_f64()
    );
    assert_eq!(rows, CLIENTS * BATCHES_PER_CLIENT * ROWS, "{case}: rows stored");
    assert_eq!(distinct, rows, "{case}: a row stored twice");
    assert_eq!(unadjudicated, 0, "{case}: rows never adjudicated");
    assert!(readjudicated <= seen.ran_again * ROWS, "{case}: rows adjudicated again by no push that ran again");
}

/// No job left unfinished and no delivery held past its lease.
fn nothing_stuck(case: &str, fleet: &Fleet) {
    let now_ms = SystemTime::now().duration_since(UNIX_EPOCH).unwrap().as_millis();
    let jobs = fleet.count("SELECT count(*) FROM jobs WHERE status IN ('queued', 'processing')");
    let held = fleet.count(&format!(
        "SELECT count(*) FROM webhook_deliveries WHERE status = 'pending' AND lease_until_ms < {now_ms}"
    ));
    assert_eq!((jobs, held), (0, 0), "{case}: jobs unfinished, deliveries held past their lease");
}

#[test]
#[ignore = "restarts the PostgreSQL server: run alone by .ci/run (see the module docs)"]
fn postgresql_restarted_during_ingestion_loses_nothing_and_answers_503_meanwhile() {
    let Some(admin) = admin_url() else { return };
    let fleet = Fleet::start(&admin, 0, &[]);
    let restart = || {
        let status = Command::new("pg_ctlcluster")
            .args(["--skip-systemctl-redirect", "15", "main", "restart"])
            .status()
            .unwrap();
        assert!(status.success(), "pg_ctlcluster restart failed");
    };
    warm_up(&fleet);
    let (seen, before) = under_fault(&fleet, false, after(Duration::from_millis(700)), restart, pushing_clients);
    let completed_in = all_completed(&fleet, &seen.jobs);
    report("PostgreSQL restarted", &seen, &fleet, completed_in);
    nothing_stuck("PostgreSQL restarted", &fleet);
    memory_kept("PostgreSQL restarted", &before, &fleet);
    assert!(!seen.statuses.contains_key(&500), "a 500 was answered while PostgreSQL restarted");
    // The cores were never restarted: both serve again.
    for gateway in 0..2 {
        assert_eq!(readyz(&fleet.gateways[gateway].addr), 200, "gateway {gateway} not ready after the restart");
    }
    assert!(fleet.internal_errors().is_empty(), "{:?}", fleet.internal_errors());
}

#[test]
#[ignore = "kills a core of a fleet over the shared PostgreSQL server: run alone by .ci/run (see the module docs)"]
fn a_core_killed_during_pushes_loses_nothing_the_other_takes_its_jobs() {
    let Some(admin) = admin_url() else { return };
    let mut fleet = Fleet::start(&admin, 0, &[]);
    warm_up(&fleet);
    let doomed = fleet.cores[0].child.id();
    let (seen, before) = under_fault(&fleet, true, pushes_accepted(&fleet, 10), kill_9(doomed), pushing_clients);
    fleet.cores[0].kill();
    let completed_in = all_completed(&fleet, &seen.jobs);
    report("a core killed", &seen, &fleet, completed_in);
    nothing_stuck("a core killed", &fleet);
    memory_kept("a core killed", &before, &fleet);
    assert!(fleet.cores[1].internal_errors().is_empty(), "{:?}", fleet.cores[1].internal_errors());
}

fn redis_cli(args: &[&str]) -> Option<String> {
    let output = Command::new("redis-cli").args(["-h", "127.0.0.1", "-p", "6379"]).args(args).output().ok()?;
    output.status.success().then(|| String::from_utf8_lossy(&output.stdout).trim().to_string())
}

#[test]
#[ignore = "stops the shared Redis: run alone by .ci/run (see the module docs)"]
fn redis_stopped_and_started_under_load_fails_no_request() {
    let Some(admin) = admin_url() else { return };
    if redis_cli(&["ping"]).as_deref() != Some("PONG") {
        assert!(std::env::var_os("CI").is_none(), "no Redis to stop: .ci/run starts it");
        return;
    }
    // Limits on, high enough never to refuse these clients: every call takes
    // a token, from Redis while it is up, from its own core while it is not.
    let fleet = Fleet::start(&admin, 5_000, &[]);
    let outage = || {
        let _ = redis_cli(&["shutdown", "nosave"]);
        std::thread::sleep(Duration::from_secs(3));
        let started = Command::new("redis-server")
            .args(["--bind", "127.0.0.1", "--port", "6379", "--save", "", "--appendonly", "no", "--daemonize", "yes"])
            .status()
            .unwrap();
        assert!(started.success(), "redis-server did not start again");
        let deadline = Instant::now() + Duration::from_secs(10);
        while redis_cli(&["ping"]).as_deref() != Some("PONG") {
            assert!(Instant::now() < deadline, "Redis did not come back");
            std::thread::sleep(Duration::from_millis(100));
        }
    };
    warm_up(&fleet);
    let (seen, before) = under_fault(&fleet, false, after(Duration::from_millis(500)), outage, pushing_clients);
    let completed_in = all_completed(&fleet, &seen.jobs);
    report("Redis stopped and started", &seen, &fleet, completed_in);
    nothing_stuck("Redis stopped and started", &fleet);
    memory_kept("Redis stopped and started", &before, &fleet);
    let refused: usize = seen.statuses.iter().filter(|(status, _)| **status >= 300).map(|(_, n)| n).sum();
    assert_eq!(refused, 0, "a call failed while Redis was away: {:?}", seen.statuses);
    // The fault met the load: a core limited alone while Redis was away.
    let fell_back = fleet
        .cores
        .iter()
        .any(|core| core.log.lock().unwrap().iter().any(|line| line.contains("limiting in this core alone")));
    assert!(fell_back, "no core noticed Redis was away: the fault came after the load");
    // Back on the shared buckets: calls after the restart write them again.
    let _ = rustls::crypto::ring::default_provider().install_default();
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        runtime.block_on(async {
            reqwest::Client::new().get(format!("{}/users", fleet.base(0))).bearer_auth(&fleet.key).send().await.unwrap()
        });
        let keys: usize = redis_cli(&["dbsize"]).and_then(|n| n.parse().ok()).unwrap_or(0);
        if keys > 0 {
            break;
        }
        assert!(Instant::now() < deadline, "the cores never went back to the shared buckets");
        std::thread::sleep(Duration::from_millis(500));
    }
}

/// Now, in Unix milliseconds (the database's delivery times are).
fn now_ms() -> i64 {
    SystemTime::now().duration_since(UNIX_EPOCH).unwrap().as_millis() as i64
}

/// Waits for `done`, failing after `limit` with `what`.
fn wait_for(what: &str, limit: Duration, mut done: impl FnMut() -> bool) {
    let deadline = Instant::now() + limit;
    while !done() {
        assert!(Instant::now() < deadline, "{what}: not within {limit:?}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// One acknowledged delivery as the receiver saw it.
struct Arrival {
    event: String,
    endpoint: String,
    at_ms: i64,
}

/// A receiver's state, shared with its server.
struct ReceiverState {
    up: AtomicBool,
    /// Requests it works on at once; the rest wait their turn.
    lanes: tokio::sync::Semaphore,
    /// How long it works on each request.
    hold: Duration,
    refused: AtomicUsize,
    arrivals: Mutex<Vec<Arrival>>,
}

/// A partner's webhook receiver: a real HTTP server on loopback. While down
/// it answers `503`; while up it works on each request for `hold`, at most
/// `lanes` at once (its pace), and records each acknowledged arrival.
struct Receiver {
    addr: std::net::SocketAddr,
    state: Arc<ReceiverState>,
}

impl Receiver {
    fn start(lanes: usize, hold: Duration, up: bool) -> Receiver {
        let state = Arc::new(ReceiverState {
            up: AtomicBool::new(up),
            lanes: tokio::sync::Semaphore::new(lanes),
            hold,
            refused: AtomicUsize::new(0),
            arrivals: Mutex::default(),
        });
        let serving = state.clone();
        let (bound, addr) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(1).enable_all().build().unwrap();
            runtime.block_on(async move {
                let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
                bound.send(listener.local_addr().unwrap()).unwrap();
                let router = axum::Router::new().route("/{endpoint}", axum::routing::post(receive)).with_state(serving);
                axum::serve(listener, router).await.unwrap();
            });
        });
        Receiver { addr: addr.recv().unwrap(), state }
    }

    fn url(&self, endpoint: &str) -> String {
        format!("http://{}/{endpoint}", self.addr)
    }

    /// Arrivals so far, and how many distinct (event, endpoint) pairs.
    fn arrived(&self) -> (usize, usize) {
        let arrivals = self.state.arrivals.lock().unwrap();
        let distinct: HashSet<(&str, &str)> =
            arrivals.iter().map(|a| (a.event.as_str(), a.endpoint.as_str())).collect();
        (arrivals.len(), distinct.len())
    }
}

async fn receive(
    axum::extract::State(state): axum::extract::State<Arc<ReceiverState>>,
    axum::extract::Path(endpoint): axum::extract::Path<String>,
    headers: axum::http::HeaderMap,
) -> axum::http::StatusCode {
    if !state.up.load(Ordering::SeqCst) {
        state.refused.fetch_add(1, Ordering::SeqCst);
        return axum::http::StatusCode::SERVICE_UNAVAILABLE;
    }
    let _lane = state.lanes.acquire().await.unwrap();
    tokio::time::sleep(state.hold).await;
    let event = headers.get("sail-event-id").and_then(|v| v.to_str().ok()).unwrap_or("none").to_string();
    state.arrivals.lock().unwrap().push(Arrival { event, endpoint, at_ms: now_ms() });
    axum::http::StatusCode::OK
}

/// Registers an endpoint at each of `urls` for the partner of `key`.
fn register(fleet: &Fleet, key: &str, urls: &[String]) {
    let _ = rustls::crypto::ring::default_provider().install_default();
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    for url in urls {
        let reply = runtime.block_on(async {
            reqwest::Client::new()
                .post(format!("{}/webhook-endpoints", fleet.base(0)))
                .bearer_auth(key)
                .json(&json!({"url": url}))
                .send()
                .await
                .unwrap()
        });
        assert_eq!(reply.status(), 201, "registering {url}");
    }
}

/// `count` sandbox events recorded through either gateway by 16 lanes.
async fn events(view: Arc<FleetView>, seen: Arc<Mutex<Seen>>, count: usize) {
    let lanes: Vec<_> = (0..16)
        .map(|lane| {
            let (view, seen) = (view.clone(), seen.clone());
            tokio::spawn(async move {
                let mut gateway = lane % 2;
                for n in (lane..count).step_by(16) {
                    let body = json!({"type": "transactions.ingested"});
                    until_accepted(
                        &view,
                        &seen,
                        &mut gateway,
                        &format!("event {n}"),
                        post("/sandbox/events".into(), body),
                    )
                    .await;
                }
            })
        })
        .collect();
    for lane in lanes {
        lane.await.unwrap();
    }
}

#[test]
#[ignore = "kills a core of a fleet over the shared PostgreSQL server: run alone by .ci/run (see the module docs)"]
fn a_core_killed_during_webhook_deliveries_loses_no_event() {
    const EVENTS: usize = 1_000;
    let Some(admin) = admin_url() else { return };
    let mut fleet = Fleet::start(&admin, 0, &[]);
    // Two endpoints: each event is two deliveries, 2,000 in all.
    let receiver = Receiver::start(64, Duration::ZERO, true);
    register(&fleet, &fleet.key, &[receiver.url("a"), receiver.url("b")]);
    let doomed = fleet.cores[0].child.id();
    let state = receiver.state.clone();
    let a_quarter_in = move || {
        wait_for("a quarter delivered", Duration::from_secs(120), || state.arrivals.lock().unwrap().len() >= EVENTS / 2)
    };
    let killed_at: Arc<Mutex<Option<Instant>>> = Arc::default();
    let killed = killed_at.clone();
    let kill = move || {
        kill_9(doomed)();
        *killed.lock().unwrap() = Some(Instant::now());
    };
    let (seen, before) =
        under_fault(&fleet, true, a_quarter_in, kill, async |view, seen| events(view, seen, EVENTS).await);
    fleet.cores[0].kill();
    let recorded = fleet.count("SELECT count(*) FROM events");
    assert!(recorded >= EVENTS, "{recorded} events recorded of {EVENTS} accepted");
    // Every recorded event at both endpoints, and every delivery row marked
    // delivered: what the killed core had claimed is taken over once its
    // 60-s lease ends, and what it sent without recording is sent again (a
    // duplicate the receiver drops by event id).
    wait_for("every event delivered to both endpoints", Duration::from_secs(180), || {
        receiver.arrived().1 == 2 * recorded
            && fleet.count("SELECT count(*) FROM webhook_deliveries WHERE status = 'delivered'") == 2 * recorded
    });
    let delivered_in = killed_at.lock().unwrap().unwrap().elapsed();
    let (arrivals, distinct) = receiver.arrived();
    let unknown = {
        let ids = fleet.count("SELECT count(*) FROM events");
        let arrivals = receiver.state.arrivals.lock().unwrap();
        let events: HashSet<&str> = arrivals.iter().map(|a| a.event.as_str()).collect();
        events.len().abs_diff(ids)
    };
    let delivered = fleet.count("SELECT count(*) FROM webhook_deliveries WHERE status = 'delivered'");
    println!(
        "faults: a core killed during webhook deliveries: answers {:?}, lost connections {}, events recorded {recorded} \
         ({} by a call run again), deliveries {delivered} delivered of {}, arrivals {arrivals} ({} duplicates, \
         dropped by event id), the last {:.1} s after the kill",
        seen.statuses,
        seen.lost_connections,
        recorded - EVENTS,
        2 * recorded,
        arrivals - distinct,
        delivered_in.as_secs_f64()
    );
    assert_eq!(unknown, 0, "an arrival for an event that was never recorded, or an event never delivered");
    assert_eq!(delivered, 2 * recorded, "a delivery not marked delivered");
    nothing_stuck("a core killed during webhook deliveries", &fleet);
    memory_kept("a core killed during webhook deliveries", &before, &fleet);
    assert!(fleet.cores[1].internal_errors().is_empty(), "{:?}", fleet.cores[1].internal_errors());
}

/// A user with `count` purchases needing review, through gateway 0: the
/// user's id and the expense ids.
fn purchases_needing_review(fleet: &Fleet, count: usize) -> (String, Vec<String>) {
    let _ = rustls::crypto::ring::default_provider().install_default();
    let view = fleet.view(false);
    let seen = Mutex::default();
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let (user, job) = runtime.block_on(async {
        let mut gateway = 0;
        let user = until_accepted(
            &view,
            &seen,
            &mut gateway,
            "user",
            post("/users".into(), json!({"external_user_id": "receipts"})),
        )
        .await;
        let user = user["id"].as_str().unwrap().to_string();
        let body = json!({"type": "external", "provider_label": "Bank"});
        let connection =
            until_accepted(&view, &seen, &mut gateway, "connection", post(format!("/users/{user}/connections"), body))
                .await;
        let connection = connection["id"].as_str().unwrap();
        let rows: Vec<Value> = (0..count)
            .map(|n| {
                json!({"external_transaction_id": format!("r-{n}"), "date": "2026-11-03", "amount": 24.98,
                            "description": "WALGREENS #1234"})
            })
            .collect();
        let path = format!("/users/{user}/connections/{connection}/transactions");
        let pushed =
            until_accepted(&view, &seen, &mut gateway, "push", post(path, json!({"transactions": rows}))).await;
        (user, pushed["job_id"].as_str().unwrap().to_string())
    });
    all_completed(fleet, &[job]);
    let expenses: Value = runtime.block_on(async {
        reqwest::Client::new()
            .get(format!("{}/users/{user}/expenses?limit=100", fleet.base(0)))
            .bearer_auth(&fleet.key)
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap()
    });
    let ids: Vec<String> = expenses["data"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["status"] == "needs_review")
        .map(|e| e["id"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(ids.len(), count, "{expenses}");
    (user, ids)
}

/// The processes under `pid`: its children and everything in their process
/// groups (a reader leads its own group, Tesseract in it).
fn descendants(pid: u32) -> Vec<u32> {
    let pgrep = |args: &[&str]| -> Vec<u32> {
        let output = Command::new("pgrep").args(args).output().unwrap();
        String::from_utf8_lossy(&output.stdout).lines().filter_map(|l| l.trim().parse().ok()).collect()
    };
    let children = pgrep(&["-P", &pid.to_string()]);
    let mut all: Vec<u32> = children.iter().flat_map(|child| pgrep(&["-g", &child.to_string()])).collect();
    all.extend(children);
    all.sort_unstable();
    all.dedup();
    all
}

/// Whether `pid` still runs (a zombie waiting for its reaper does not).
fn running(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .is_ok_and(|stat| stat.rsplit_once(") ").is_some_and(|(_, rest)| !rest.starts_with('Z')))
}

#[test]
#[ignore = "kills a core of a fleet over the shared PostgreSQL server: run alone by .ci/run (see the module docs)"]
fn a_core_killed_during_receipt_readings_reads_each_once() {
    const RECEIPTS: usize = 50;
    let Some(admin) = admin_url() else { return };
    let tesseract = Command::new("tesseract").arg("--version").output().is_ok_and(|o| o.status.success());
    if !tesseract {
        assert!(std::env::var_os("CI").is_none(), "Tesseract is missing: .ci/run installs it");
        return;
    }
    let mut fleet = Fleet::start(&admin, 0, &[]);
    let (user, expenses) = purchases_needing_review(&fleet, RECEIPTS);
    // One photo-like receipt per expense, each its own file.
    let files: Vec<(String, Vec<u8>)> = expenses
        .iter()
        .enumerate()
        .map(|(n, expense)| {
            let text = format!(
                "Walgreens #1234\n11/03/2026\nTRANS {n:04}\nCETIRIZINE 10MG 30CT   15.99 F\n\
                 SALINE SOLUTION 12OZ   8.99 F\nTOTAL   24.98\n"
            );
            let png = sail_test_support::receipts::render(sail_test_support::receipts::FileKind::Png, &text).unwrap();
            (expense.clone(), png)
        })
        .collect();
    let doomed = fleet.cores[0].child.id();
    let database_url = fleet.database_url.clone();
    let some_read = move || {
        wait_for("ten receipts read", Duration::from_secs(180), || {
            let output = Command::new("psql")
                .args([&database_url, "-Atc", "SELECT count(*) FROM receipts WHERE status <> 'processing'"])
                .output()
                .unwrap();
            String::from_utf8_lossy(&output.stdout).trim().parse::<usize>().unwrap_or(0) >= 10
        })
    };
    let readers: Arc<Mutex<Vec<u32>>> = Arc::default();
    let cut = readers.clone();
    let kill = move || {
        // Its reading in hand: a reader process and Tesseract under it.
        wait_for("the core reading a receipt", Duration::from_secs(60), || !descendants(doomed).is_empty());
        *cut.lock().unwrap() = descendants(doomed);
        kill_9(doomed)();
    };
    let upload = async |view: Arc<FleetView>, seen: Arc<Mutex<Seen>>| {
        // Through both gateways in turn, so each is warm before the fault.
        for (n, (expense, png)) in files.into_iter().enumerate() {
            let mut gateway = n % 2;
            let path = format!("/users/{user}/expenses/{expense}/receipts");
            let build = move |http: &reqwest::Client, base: &str| {
                let part = reqwest::multipart::Part::bytes(png.clone()).file_name("receipt.png");
                http.post(format!("{base}{path}")).multipart(reqwest::multipart::Form::new().part("file", part))
            };
            until_accepted(&view, &seen, &mut gateway, "upload", build).await;
        }
    };
    let (seen, before) = under_fault(&fleet, true, some_read, kill, upload);
    fleet.cores[0].kill();
    // The killed core's readings died with it (their parent-death signal).
    let cut = readers.lock().unwrap().clone();
    wait_for("the killed core's readers to end", Duration::from_secs(5), || !cut.iter().any(|pid| running(*pid)));
    let started = Instant::now();
    wait_for("every receipt read", Duration::from_secs(240), || {
        fleet.count("SELECT count(*) FROM receipts WHERE status = 'processing'") == 0
    });
    let read = fleet.count("SELECT count(*) FROM receipts WHERE status = 'read'");
    let receipts = fleet.count("SELECT count(*) FROM receipts");
    let readjudicated = fleet.count("SELECT count(*) FROM events WHERE type = 'expense.readjudicated'");
    let distinct = fleet
        .count("SELECT count(DISTINCT (data::json)->>'receipt_id') FROM events WHERE type = 'expense.readjudicated'");
    let again = fleet.count("SELECT count(*) FROM jobs WHERE kind = 'read_receipt' AND attempts > 1");
    println!(
        "faults: a core killed during receipt readings: answers {:?}, receipts {receipts}, read {read}, \
         readings cut off and taken over {again}, reader processes of the killed core left running 0 of {}, \
         the rest read {:.1} s after the kill, expense.readjudicated events {readjudicated} ({distinct} receipts)",
        seen.statuses,
        cut.len(),
        started.elapsed().as_secs_f64()
    );
    assert_eq!(receipts, RECEIPTS, "a receipt stored twice or lost");
    assert_eq!(read, RECEIPTS, "a receipt not read");
    assert_eq!((readjudicated, distinct), (RECEIPTS, RECEIPTS), "an expense readjudicated twice for one receipt");
    nothing_stuck("a core killed during receipt readings", &fleet);
    memory_kept("a core killed during receipt readings", &before, &fleet);
    assert!(fleet.cores[1].internal_errors().is_empty(), "{:?}", fleet.cores[1].internal_errors());
}

/// How one partner's backlog drained after its receiver came back.
struct Drain {
    backlog: usize,
    duplicates: usize,
    /// From the receiver's return to the last arrival.
    took_ms: i64,
    /// The same for a receiver taking the backlog in order of due time at
    /// its full pace, nothing else in the way.
    ideal_ms: i64,
    /// The largest lead an arrival took over one due before it.
    out_of_order_ms: i64,
    /// The most deliveries due before one that arrived after it.
    overtaken: usize,
    /// Arrival after due (or after the return, if due before), p50 and p99.
    late_ms: (i64, i64),
}

/// Judges `receiver`'s drain of the deliveries of `partner_key`'s partner
/// against an ideal receiver of `per_second` taking them in order of due
/// time from `up_ms`.
fn drain(fleet: &Fleet, receiver: &Receiver, endpoint: &str, up_ms: i64, per_second: f64) -> Drain {
    let output = Command::new("psql")
        .args([
            &fleet.database_url,
            "-Atc",
            &format!(
                "SELECT d.event_id, d.next_attempt_at_ms FROM webhook_deliveries AS d \
                 JOIN webhook_endpoints AS e ON e.id = d.endpoint_id WHERE e.url LIKE '%/{endpoint}'"
            ),
        ])
        .output()
        .unwrap();
    let due: HashMap<String, i64> = String::from_utf8_lossy(&output.stdout)
        .lines()
        .filter_map(|l| l.split_once('|').map(|(id, ms)| (id.to_string(), ms.parse().unwrap())))
        .collect();
    let arrivals = receiver.state.arrivals.lock().unwrap();
    let mut firsts: Vec<(i64, i64)> = Vec::new();
    let mut seen = HashSet::new();
    for arrival in arrivals.iter().filter(|a| a.endpoint == endpoint) {
        if seen.insert(arrival.event.clone()) {
            firsts.push((arrival.at_ms, due[&arrival.event]));
        }
    }
    assert_eq!(firsts.len(), due.len(), "{endpoint}: not every delivery arrived");
    let duplicates = arrivals.iter().filter(|a| a.endpoint == endpoint).count() - firsts.len();
    firsts.sort_unstable();
    let mut out_of_order_ms = 0;
    let mut latest_due = i64::MIN;
    for (_, due) in &firsts {
        out_of_order_ms = out_of_order_ms.max(latest_due.saturating_sub(*due));
        latest_due = latest_due.max(*due);
    }
    let overtaken = (0..firsts.len())
        .map(|i| firsts[i + 1..].iter().filter(|(_, due)| *due < firsts[i].1).count())
        .max()
        .unwrap_or(0);
    let mut late: Vec<i64> = firsts.iter().map(|(at, due)| at - due.max(&up_ms)).collect();
    late.sort_unstable();
    let pick = |q: f64| late[((late.len() as f64 * q) as usize).min(late.len() - 1)];
    let mut dues: Vec<i64> = due.values().map(|d| *d.max(&up_ms)).collect();
    dues.sort_unstable();
    let each = 1000.0 / per_second;
    let ideal_end = dues.iter().fold(up_ms as f64, |free, due| free.max(*due as f64) + each);
    Drain {
        backlog: due.len(),
        duplicates,
        took_ms: firsts.last().unwrap().0 - up_ms,
        ideal_ms: ideal_end as i64 - up_ms,
        out_of_order_ms,
        overtaken,
        late_ms: (pick(0.5), pick(0.99)),
    }
}

#[test]
#[ignore = "runs a fleet for SAIL_FAULTS_BACKLOG_S (600 in .ci/run) over the shared PostgreSQL server: run alone by .ci/run (see the module docs)"]
fn a_backlog_is_delivered_in_order_of_due_time_at_each_receivers_pace() {
    let Some(admin) = admin_url() else { return };
    let outage =
        Duration::from_secs(std::env::var("SAIL_FAULTS_BACKLOG_S").ok().and_then(|s| s.parse().ok()).unwrap_or(600));
    // Retries every few seconds at first, then at most every 30 s: the
    // backlog is due again within 30 s of the receivers' return.
    let fleet = Fleet::start(&admin, 0, &["--webhook-retry-base-ms", "1000", "--webhook-retry-max-delay-s", "30"]);
    // Two partners, each with its own receiver working one request at a
    // time, for 20 ms in a 600-s outage (50 a second at most) and longer in
    // a shorter one, so that the large partner's backlog, due again within
    // 30 s, is more than its receiver takes in that time whatever the
    // outage: its pace, not the schedule, decides the drain. The large
    // partner has ten times the events of the small one.
    let hold = Duration::from_millis(20 * 600 / outage.as_secs().clamp(1, 600));
    let (large, small) = (Receiver::start(1, hold, false), Receiver::start(1, hold, false));
    register(&fleet, &fleet.key, &[large.url("large")]);
    let small_key = fleet.another_partner("Small", "connections");
    register(&fleet, &small_key, &[small.url("small")]);
    let (large_state, small_state) = (large.state.clone(), small.state.clone());
    let up_at: Arc<Mutex<i64>> = Arc::default();
    let up = up_at.clone();
    let back = move || {
        *up.lock().unwrap() = now_ms();
        large_state.up.store(true, Ordering::SeqCst);
        small_state.up.store(true, Ordering::SeqCst);
    };
    // The events: 5 a second for the large partner and 0.5 for the small
    // one, as long as the receivers are down.
    let small_view = Arc::new(FleetView { bases: fleet.view(false).bases.clone(), key: small_key, retry_500: false });
    let traffic = async move |view: Arc<FleetView>, seen: Arc<Mutex<Seen>>| {
        let until = Instant::now() + outage;
        let stream = |view: Arc<FleetView>, every: Duration| {
            let seen = seen.clone();
            tokio::spawn(async move {
                let mut tick = tokio::time::interval(every);
                let mut gateway = 0;
                while Instant::now() < until {
                    tick.tick().await;
                    let body = json!({"type": "transactions.ingested"});
                    until_accepted(&view, &seen, &mut gateway, "event", post("/sandbox/events".into(), body)).await;
                }
            })
        };
        let streams = [stream(view, Duration::from_millis(200)), stream(small_view, Duration::from_secs(2))];
        for s in streams {
            s.await.unwrap();
        }
    };
    let (seen, before) = under_fault(&fleet, false, after(outage), back, traffic);
    let up_ms = *up_at.lock().unwrap();
    let attempts_while_down = fleet
        .count(&format!("SELECT count(*) FROM webhook_attempts WHERE attempted_at < to_timestamp({up_ms} / 1000.0)"));
    let recorded = fleet.count("SELECT count(*) FROM webhook_deliveries");
    wait_for("both backlogs delivered", Duration::from_secs(300), || large.arrived().1 + small.arrived().1 == recorded);
    // The receivers' pace, measured now: plain POSTs, 16 at once.
    let baseline = {
        let _ = rustls::crypto::ring::default_provider().install_default();
        let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
        let url = large.url("baseline");
        let started = Instant::now();
        runtime.block_on(async {
            let lanes: Vec<_> = (0..16)
                .map(|_| {
                    let url = url.clone();
                    tokio::spawn(async move {
                        let http = reqwest::Client::new();
                        for _ in 0..10 {
                            assert!(http.post(&url).send().await.unwrap().status().is_success());
                        }
                    })
                })
                .collect();
            for lane in lanes {
                lane.await.unwrap();
            }
        });
        160.0 / started.elapsed().as_secs_f64()
    };
    let (big, little) =
        (drain(&fleet, &large, "large", up_ms, baseline), drain(&fleet, &small, "small", up_ms, baseline));
    for (name, d, receiver) in [("large", &big, &large), ("small", &little, &small)] {
        println!(
            "faults: a {}-s backlog, {name} partner: {} deliveries ({} refused attempts while down), drained {:.1} s \
             after the receiver's return (an ideal receiver-paced drain in order of due time: {:.1} s), \
             {} duplicates, largest lead over an earlier-due delivery {} ms (at most {} earlier-due ones overtaken), \
             late p50 {} ms p99 {} ms",
            outage.as_secs(),
            d.backlog,
            receiver.state.refused.load(Ordering::SeqCst),
            d.took_ms as f64 / 1000.0,
            d.ideal_ms as f64 / 1000.0,
            d.duplicates,
            d.out_of_order_ms,
            d.overtaken,
            d.late_ms.0,
            d.late_ms.1
        );
    }
    println!(
        "faults: a {}-s backlog: answers {:?}, attempts while down {attempts_while_down}, receiver pace {baseline:.0}/s",
        outage.as_secs(),
        seen.statuses
    );
    for (name, d) in [("large", &big), ("small", &little)] {
        // At the receiver's pace: no slower than an ideal drain by a
        // quarter, plus two seconds for claims and the first attempts.
        assert!(
            d.took_ms <= d.ideal_ms * 5 / 4 + 2_000,
            "{name}: drained in {} ms, ideally {} ms",
            d.took_ms,
            d.ideal_ms
        );
        // In order of due time: each core claims a partner's earliest-due
        // deliveries and holds at most MAX_HELD_PER_PARTNER of them, so
        // what the other core holds at once is all one can overtake.
        let held = core_grpc::background::delivery::MAX_HELD_PER_PARTNER;
        assert!(d.overtaken <= 2 * held, "{name}: an arrival overtook {} deliveries due before it", d.overtaken);
    }
    // Fairly: the small partner's deliveries arrive as they fall due, the
    // large partner's backlog ahead of them in no queue.
    assert!(little.late_ms.1 <= 3_000, "the small partner waited {} ms (p99) behind the large one", little.late_ms.1);
    nothing_stuck("a backlog", &fleet);
    memory_kept("a backlog", &before, &fleet);
    assert!(fleet.internal_errors().is_empty(), "{:?}", fleet.internal_errors());
}
