//! The processes under load: `sail serve` on a fresh database (with the
//! user, connection and expenses every request needs) and the bare server
//! that answers as it does.

use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use serde_json::{Value, json};

use crate::bare::{BARE_ENV, BareSpec};
use crate::wrk::{Load, PUSH_ROWS};

/// The database a run is measured on.
#[derive(Clone, Debug)]
pub enum Database {
    /// A fresh SQLite file (the embedded default).
    Sqlite,
    /// A fresh database on this PostgreSQL server (`postgres://user@host:port`).
    Postgres { server: String },
}

impl Database {
    /// Short name, for files and logs.
    pub fn name(&self) -> &'static str {
        match self {
            Database::Sqlite => "sqlite",
            Database::Postgres { .. } => "postgres",
        }
    }

    /// Name for the report.
    pub fn title(&self) -> &'static str {
        match self {
            Database::Sqlite => "SQLite",
            Database::Postgres { .. } => "PostgreSQL",
        }
    }

    fn url(&self, dir: &Path, run: &str) -> String {
        match self {
            Database::Sqlite => format!("sqlite://{}/sail.db?mode=rwc", dir.display()),
            Database::Postgres { server } => format!("{server}/sail_bench_{run}"),
        }
    }

    /// Gives the planner statistics of the fixtures' tables, as a
    /// production server's autovacuum does within a minute of such a load
    /// (the PostgreSQL of this machine's CI runs with autovacuum off).
    /// Without them every prepared statement is planned anew at each
    /// execution, a cost production does not pay (docs/benchmarks.md).
    pub fn analyze(&self, database_name: &str) -> anyhow::Result<()> {
        if let Database::Postgres { server } = self {
            let rt = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
            rt.block_on(async {
                let db = sea_orm::Database::connect(format!("{server}/{database_name}")).await?;
                sea_orm::ConnectionTrait::execute_unprepared(&db, "ANALYZE").await?;
                db.close().await
            })?;
        }
        Ok(())
    }

    /// Drops the PostgreSQL database this run made (SQLite files go with
    /// the run's directory).
    pub fn drop_databases(&self, run: &str) {
        if let Database::Postgres { server } = self {
            let dropped = tokio::runtime::Builder::new_current_thread().enable_all().build().map(|rt| {
                rt.block_on(async {
                    let admin = sea_orm::Database::connect(format!("{server}/postgres")).await?;
                    for name in [format!("sail_bench_{run}"), format!("sail_bench_{run}_soak")] {
                        let drop = format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)");
                        sea_orm::ConnectionTrait::execute_unprepared(&admin, &drop).await?;
                    }
                    Ok::<_, sea_orm::DbErr>(())
                })
            });
            if !matches!(dropped, Ok(Ok(_))) {
                eprintln!("could not drop database sail_bench_{run}: drop it by hand");
            }
        }
    }
}

/// A request's answer, for the bare server to repeat.
pub struct Sample {
    pub status: u16,
    pub body: String,
}

/// Users in the fixture: one page of `GET /users?limit=25`.
const LISTED_USERS: usize = 25;

/// What every measured request refers to.
pub struct Fixture {
    /// `/api/v1/users/usr_…`, a user with 100 adjudicated expenses.
    pub user_path: String,
    /// The user's external connection's `…/transactions`.
    pub push_path: String,
}

/// `sail serve` on its own database, rate limits off, killed on drop.
pub struct SailServe {
    child: Child,
    pub base: String,
    pub key: String,
    pub log: PathBuf,
    client: reqwest::Client,
    rt: tokio::runtime::Runtime,
}

impl SailServe {
    /// Starts `sail serve` in `dir` on a fresh database and makes a
    /// sandbox partner with a key of every data scope.
    pub fn start(database: &Database, dir: &Path, run: &str) -> anyhow::Result<Self> {
        std::fs::create_dir_all(dir)?;
        // Another build of `sail` may be named, to measure two builds with
        // the same fixtures and load (for example the soak before and after
        // a change); by default the one this bench was built with.
        let sail = std::env::var("BENCH_SAIL_BIN").unwrap_or_else(|_| env!("CARGO_BIN_EXE_sail").to_string());
        let (http, grpc) = (free_addr()?, free_addr()?);
        let mut env = vec![
            ("SAIL_DATABASE_URL", database.url(dir, run)),
            ("SAIL_HTTP_ADDR", http.to_string()),
            ("SAIL_GRPC_ADDR", grpc.to_string()),
            ("SAIL_RATE_LIMIT_RPS", "0".into()),
        ];
        if let Database::Postgres { .. } = database {
            let key = Command::new(&sail).args(["keys", "generate-encryption-key"]).output()?;
            env.push(("SAIL_ENCRYPTION_KEY", String::from_utf8(key.stdout)?.trim().to_string()));
        }
        let log = dir.join("serve.log");
        let child = Command::new(&sail)
            .arg("serve")
            .envs(env.iter().map(|(k, v)| (k, v)))
            .current_dir(dir)
            .stdin(Stdio::null())
            .stdout(std::fs::File::create(&log)?)
            .stderr(std::fs::File::create(dir.join("serve.err"))?)
            .spawn()
            .context("starting sail serve")?;
        let rt = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
        let _ = rustls::crypto::ring::default_provider().install_default();
        let mut serve =
            Self { child, base: format!("http://{http}"), key: String::new(), log, client: reqwest::Client::new(), rt };
        serve.wait_healthy()?;
        let boot = Command::new(&sail)
            .args(["dev", "bootstrap", "--json"])
            .envs(env.iter().map(|(k, v)| (k, v)))
            .current_dir(dir)
            .output()?;
        let boot: Value = serde_json::from_slice(&boot.stdout).context("sail dev bootstrap --json")?;
        serve.key = boot["key"].as_str().context("bootstrap printed no key")?.to_string();
        Ok(serve)
    }

    fn wait_healthy(&mut self) -> anyhow::Result<()> {
        let deadline = Instant::now() + Duration::from_secs(120);
        while Instant::now() < deadline {
            if let Some(status) = self.child.try_wait()? {
                bail!("sail serve exited ({status}); see {}", self.log.display());
            }
            let url = format!("{}/healthz", self.base);
            let up =
                self.rt.block_on(async { self.client.get(&url).send().await.is_ok_and(|r| r.status().is_success()) });
            if up {
                return Ok(());
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        bail!("sail serve did not become healthy; see {}", self.log.display())
    }

    /// One call with the partner's key: (status, body).
    pub fn call(&self, method: &str, path: &str, body: Option<&Value>) -> anyhow::Result<(u16, String)> {
        self.rt.block_on(async {
            let url = format!("{}{path}", self.base);
            let mut request = self.client.request(method.parse()?, url).bearer_auth(&self.key);
            if let Some(body) = body {
                request = request.json(body);
            }
            let response = request.send().await?;
            Ok((response.status().as_u16(), response.text().await?))
        })
    }

    fn call_ok(&self, method: &str, path: &str, body: Option<&Value>) -> anyhow::Result<Value> {
        let (status, text) = self.call(method, path, body)?;
        if !(200..300).contains(&status) {
            bail!("{method} {path}: {status} {text}");
        }
        Ok(serde_json::from_str(&text)?)
    }

    /// A user with an external connection and 100 adjudicated expenses,
    /// and 24 more users, so `GET /users?limit=25` answers a full page.
    pub fn fixture(&self) -> anyhow::Result<Fixture> {
        for n in 1..LISTED_USERS {
            self.call_ok("POST", "/api/v1/users", Some(&json!({"external_user_id": format!("bench-user-{n}")})))?;
        }
        let user = self.call_ok("POST", "/api/v1/users", Some(&json!({"external_user_id": "bench-user"})))?;
        let user_path = format!("/api/v1/users/{}", user["id"].as_str().context("user id")?);
        let connection = self.call_ok(
            "POST",
            &format!("{user_path}/connections"),
            Some(&json!({"type": "external", "provider_label": "Bench Bank"})),
        )?;
        let push_path =
            format!("{user_path}/connections/{}/transactions", connection["id"].as_str().context("connection id")?);
        let job = self.call_ok("POST", &push_path, Some(&push_body("fixture", 100)))?;
        let job_path = format!("/api/v1/jobs/{}", job["job_id"].as_str().context("job id")?);
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let job = self.call_ok("GET", &job_path, None)?;
            match job["status"].as_str() {
                Some("completed") => break,
                Some("failed") => bail!("the fixture's push failed: {job}"),
                _ if Instant::now() > deadline => bail!("the fixture's push did not complete: {job}"),
                _ => std::thread::sleep(Duration::from_millis(100)),
            }
        }
        Ok(Fixture { user_path, push_path })
    }

    /// One answer of the kind `load` asks for, for the bare server.
    pub fn sample(&self, load: &Load) -> anyhow::Result<Sample> {
        let (status, body) = match load {
            Load::Get(path) => self.call("GET", path, None)?,
            Load::CreateUsers => self.call("POST", load.path(), Some(&json!({"external_user_id": "bench-sample"})))?,
            Load::Push(path) => self.call("POST", path, Some(&push_body("sample", PUSH_ROWS)))?,
            Load::Mixed { .. } => bail!("a mixed load has no single answer"),
        };
        if !(200..300).contains(&status) {
            bail!("{}: {status} {body}", load.path());
        }
        Ok(Sample { status, body })
    }

    /// The resident set of the `sail serve` process, in KiB.
    /// The process id of `sail serve`.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    pub fn rss_kib(&self) -> anyhow::Result<u64> {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id()))?;
        status
            .lines()
            .find_map(|l| l.strip_prefix("VmRSS:"))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
            .context("no VmRSS in /proc/…/status")
    }
}

impl Drop for SailServe {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A batch like the load's: `rows` purchases with ids under `prefix`.
fn push_body(prefix: &str, rows: usize) -> Value {
    let rows: Vec<Value> = (1..=rows)
        .map(|i| {
            json!({"external_transaction_id": format!("{prefix}-{i}"), "date": "2026-11-01",
                   "amount": format!("{}.{:02}", 1 + i % 300, i % 100).parse::<f64>().unwrap_or(1.0),
                   "description": "CVS/PHARMACY #04562", "mcc": "5912"})
        })
        .collect();
    json!({"transactions": rows})
}

/// The bare server, answering one sample; killed on drop.
pub struct BareServer {
    child: Child,
    pub base: String,
}

impl BareServer {
    pub fn start(work: &Path, sample: &Sample) -> anyhow::Result<Self> {
        let body_file = work.join("bare-body.json");
        std::fs::write(&body_file, &sample.body)?;
        let addr = free_addr()?;
        let spec = BareSpec { addr, status: sample.status, body_file: &body_file };
        let child = Command::new(std::env::current_exe()?).env(BARE_ENV, spec.to_env()).stdin(Stdio::null()).spawn()?;
        let deadline = Instant::now() + Duration::from_secs(10);
        while TcpStream::connect(addr).is_err() {
            if Instant::now() > deadline {
                bail!("the bare server did not start");
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        Ok(Self { child, base: format!("http://{addr}") })
    }
}

impl Drop for BareServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn free_addr() -> std::io::Result<SocketAddr> {
    TcpListener::bind("127.0.0.1:0")?.local_addr()
}
