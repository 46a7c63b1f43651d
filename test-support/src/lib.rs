//! Test support for the integration suite (`tests/api`), the CLI tests and
//! the benchmarks: [`TestDb`], a database of a test's own (a temp SQLite file,
//! or a fresh PostgreSQL database when `SAIL_TEST_DATABASE_URL` names a
//! server); [`TestApp`], a real core and gateway on port 0 over it;
//! [`Reply`], a response with its JSON; and [`eventually`], the one polling
//! loop every wait uses.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "test support: a failed set-up step is the test failing, and says where"
)]

pub mod hostile;
pub mod receipts;

use std::sync::Once;
use std::time::Duration;

use core_grpc::platform::receipt_reader::ReaderSettings;
use core_grpc::services::admin;
use core_grpc::{Core, CoreConfig};
use rest_gateway::GatewayConfig;
use sea_orm::{ConnectionTrait, Database, DatabaseConnection};
use serde_json::Value;
use tokio::net::TcpListener;
use tokio::sync::watch;

/// The environment variable naming the PostgreSQL server to test against.
pub const PG_ENV: &str = "SAIL_TEST_DATABASE_URL";

static INIT: Once = Once::new();

fn init_process() {
    INIT.call_once(|| {
        // reqwest is built without a default TLS provider (see the toolchain notes).
        let _ = rustls::crypto::ring::default_provider().install_default();
        if std::env::var_os("TEST_LOG").is_some() {
            let _ = tracing_subscriber::fmt().with_env_filter("info").with_test_writer().try_init();
        }
    });
}

/// The environment variable naming a receipt reader program to use instead
/// of building `sail-receipt-reader` (a release build, say).
pub const READER_ENV: &str = "SAIL_TEST_RECEIPT_READER";

/// How a test's core reads receipts: the `sail-receipt-reader` binary of
/// this checkout, built once per test process (`cargo build` is a no-op
/// when it is fresh), in a child process under the documented limits. The
/// integration tests belong to another package than the reader, so Cargo
/// hands them no path to it; asking Cargo for it is what keeps it never
/// stale.
pub fn receipt_reader() -> ReaderSettings {
    static PROGRAM: std::sync::OnceLock<std::path::PathBuf> = std::sync::OnceLock::new();
    ReaderSettings::program(PROGRAM.get_or_init(|| build_receipt_reader(false)).clone(), Vec::new())
}

/// [`receipt_reader`] built optimised, for benchmarks that compare it with
/// reading in process.
pub fn receipt_reader_release() -> ReaderSettings {
    static PROGRAM: std::sync::OnceLock<std::path::PathBuf> = std::sync::OnceLock::new();
    ReaderSettings::program(PROGRAM.get_or_init(|| build_receipt_reader(true)).clone(), Vec::new())
}

fn build_receipt_reader(release: bool) -> std::path::PathBuf {
    if let Some(program) = std::env::var_os(READER_ENV) {
        return program.into();
    }
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let workspace = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("the workspace");
    let mut command = std::process::Command::new(cargo);
    command.args(["build", "-q", "-p", "sail-receipt-reader", "--bin", "sail-receipt-reader"]);
    if release {
        command.arg("--release");
    }
    let built = command
        .args(["--message-format", "json-render-diagnostics"])
        .current_dir(workspace)
        .stderr(std::process::Stdio::inherit())
        .output()
        .expect("run cargo to build sail-receipt-reader");
    assert!(built.status.success(), "building sail-receipt-reader failed");
    String::from_utf8_lossy(&built.stdout)
        .lines()
        .filter_map(|line| serde_json::from_str::<Value>(line).ok())
        .find_map(|message| message["executable"].as_str().map(std::path::PathBuf::from))
        .expect("cargo named the sail-receipt-reader executable")
}

/// A database of this test's own, removed when the test ends.
pub struct TestDb {
    pub url: String,
    admin_url: Option<String>,
    name: String,
}

impl TestDb {
    pub async fn create() -> TestDb {
        let name = format!("sail_test_{}", uuid::Uuid::now_v7().simple());
        match std::env::var(PG_ENV).ok().filter(|url| url.starts_with("postgres")) {
            Some(admin_url) => {
                let admin = Database::connect(&admin_url).await.expect("connect to the PostgreSQL test server");
                admin.execute_unprepared(&format!("CREATE DATABASE \"{name}\"")).await.expect("create database");
                admin.close().await.ok();
                let (base, query) = match admin_url.split_once('?') {
                    Some((base, query)) => (base.to_string(), format!("?{query}")),
                    None => (admin_url.clone(), String::new()),
                };
                let server = base.rsplit_once('/').map(|(server, _)| server.to_string()).unwrap_or(base);
                TestDb { url: format!("{server}/{name}{query}"), admin_url: Some(admin_url), name }
            }
            None => {
                let path = std::env::temp_dir().join(format!("{name}.db"));
                TestDb { url: format!("sqlite://{}?mode=rwc", path.display()), admin_url: None, name }
            }
        }
    }

    /// Takes the database away from everything connected to it, as a
    /// failed or fenced database server does: on PostgreSQL, new
    /// connections are refused and every open one is terminated (undone by
    /// [`TestDb::reconnectable`]); on SQLite, which has no server to lose,
    /// `pools` (the cores') are closed for good.
    #[allow(dead_code)]
    pub async fn cut_off(&self, pools: &[&DatabaseConnection]) {
        let name = &self.name;
        let statements = [
            format!("ALTER DATABASE \"{name}\" WITH ALLOW_CONNECTIONS false"),
            format!("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '{name}'"),
        ];
        if !self.as_server_admin(&statements).await {
            for pool in pools {
                pool.close_by_ref().await.expect("close the pool");
            }
        }
    }

    /// After [`TestDb::cut_off`] on PostgreSQL: the database takes
    /// connections again. `false` on SQLite, whose closed pool stays closed.
    #[allow(dead_code)]
    pub async fn reconnectable(&self) -> bool {
        let name = &self.name;
        self.as_server_admin(&[format!("ALTER DATABASE \"{name}\" WITH ALLOW_CONNECTIONS true")]).await
    }

    /// Runs `statements` on the PostgreSQL server as its administrator;
    /// `false` (and nothing run) on SQLite.
    async fn as_server_admin(&self, statements: &[String]) -> bool {
        let Some(admin_url) = &self.admin_url else { return false };
        let admin = Database::connect(admin_url).await.expect("connect to the PostgreSQL test server");
        for statement in statements {
            admin.execute_unprepared(statement).await.unwrap_or_else(|err| panic!("{statement}: {err}"));
        }
        admin.close().await.ok();
        true
    }

    /// Which engine the test runs on (the benches report it).
    #[allow(dead_code)]
    pub fn is_postgres(&self) -> bool {
        self.admin_url.is_some()
    }
}

impl Drop for TestDb {
    fn drop(&mut self) {
        match &self.admin_url {
            Some(admin_url) => {
                let admin_url = admin_url.clone();
                let name = self.name.clone();
                // Drop runs inside the test's runtime: do the async cleanup on
                // a thread of its own.
                let _ = std::thread::spawn(move || {
                    let Ok(runtime) = tokio::runtime::Builder::new_current_thread().enable_all().build() else {
                        return;
                    };
                    runtime.block_on(async {
                        if let Ok(admin) = Database::connect(&admin_url).await {
                            let _ = admin
                                .execute_unprepared(&format!("DROP DATABASE IF EXISTS \"{name}\" WITH (FORCE)"))
                                .await;
                            let _ = admin.close().await;
                        }
                    });
                })
                .join();
            }
            None => {
                let dir = std::env::temp_dir();
                for suffix in ["db", "db-wal", "db-shm"] {
                    let _ = std::fs::remove_file(dir.join(format!("{}.{suffix}", self.name)));
                }
            }
        }
    }
}

/// A core running as if in a process of its own: its own runtime on its own
/// threads, its own database pool. It can stop gracefully or crash.
pub struct CoreProcess {
    runtime: Option<tokio::runtime::Runtime>,
    stop: watch::Sender<bool>,
    pub addr: std::net::SocketAddr,
    /// The core's readiness, to begin a stop's drain.
    pub readiness: core_grpc::state::Readiness,
    /// The core's own database pool.
    pub db: DatabaseConnection,
}

impl CoreProcess {
    /// Starts a core on `addr` (port 0 for any) over the database at `url`.
    pub fn start(url: &str, config: CoreConfig, addr: std::net::SocketAddr) -> CoreProcess {
        let url = url.to_string();
        // Runtimes cannot be built or blocked on inside the test's runtime.
        std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
            let (listener, core) = runtime.block_on(async {
                // A crashed core's listener closes in the background: retry
                // the port for a while, as a restarted process would.
                let deadline = std::time::Instant::now() + Duration::from_secs(10);
                let listener = loop {
                    match TcpListener::bind(addr).await {
                        Ok(listener) => break listener,
                        Err(err) if std::time::Instant::now() < deadline => {
                            let _ = err;
                            tokio::time::sleep(Duration::from_millis(50)).await;
                        }
                        Err(err) => panic!("bind core {addr}: {err}"),
                    }
                };
                let db = core_grpc::platform::db::connect(&url).await.expect("connect core");
                let core = Core::connect(db, config).await.expect("core");
                (listener, core)
            });
            let addr = listener.local_addr().unwrap();
            let (stop, mut stop_rx) = watch::channel(false);
            let readiness = core.readiness.clone();
            let db = core.db.clone();
            runtime.spawn(async move {
                let shutdown = async move {
                    let _ = stop_rx.wait_for(|s| *s).await;
                };
                core_grpc::run(listener, core, shutdown).await.expect("core runs");
            });
            CoreProcess { runtime: Some(runtime), stop, addr, readiness, db }
        })
        .join()
        .unwrap()
    }

    /// Dies at once, like `kill -9`: in-flight work is dropped mid-way.
    pub fn crash(mut self) {
        if let Some(runtime) = self.runtime.take() {
            runtime.shutdown_background();
        }
    }
}

impl Drop for CoreProcess {
    fn drop(&mut self) {
        let _ = self.stop.send(true);
        if let Some(runtime) = self.runtime.take() {
            // Blocking shutdown must happen off the test's runtime.
            let _ = std::thread::spawn(move || runtime.shutdown_timeout(Duration::from_secs(10))).join();
        }
    }
}

/// The environment variable that makes every `TestApp`'s gateway call its
/// core in process (`in-process`) instead of over the network (the
/// default); CI runs the integration suite both ways.
pub const GATEWAY_PATH_ENV: &str = "SAIL_TEST_GATEWAY";

fn gateway_in_process() -> bool {
    std::env::var(GATEWAY_PATH_ENV).is_ok_and(|v| v == "in-process")
}

/// A running core and gateway, stopped when dropped.
pub struct TestApp {
    /// `http://127.0.0.1:PORT/api/v1`.
    pub api: String,
    /// `http://127.0.0.1:PORT` of the gateway.
    pub http_root: String,
    /// `127.0.0.1:PORT` of the core.
    pub grpc_addr: String,
    pub db: DatabaseConnection,
    pub client: reqwest::Client,
    core: Option<CoreProcess>,
    stop: watch::Sender<bool>,
    gateway: Option<tokio::task::JoinHandle<()>>,
    pub test_db: TestDb,
    /// The key store of per-user data keys, a database apart from the main
    /// one (as production runs it), so a copy of the main database holds
    /// no key.
    pub key_store_db: TestDb,
    /// The readiness of the core the gateway calls in process, when it does.
    in_process_readiness: Option<core_grpc::state::Readiness>,
    /// That core's database pool.
    in_process_db: Option<DatabaseConnection>,
    /// Declared last, so dropped last: armed until the app and its
    /// database are gone.
    _watchdog: HangWatchdog,
}

/// How long a test's app may live by default. The slowest test takes well
/// under a minute on PostgreSQL under CI's load; a test past this is stuck.
pub const HANG_LIMIT: Duration = Duration::from_secs(300);

/// Fails a stuck test fast and says where it is stuck: if its app is still
/// alive after its hang limit ([`HANG_LIMIT`] by default), the watchdog writes the test's name and every
/// thread's stack (gdb, when installed) to stderr and aborts the test
/// binary. A hang otherwise runs until CI's own limit and shows nothing.
/// It runs on a thread of its own: a hang that blocks every runtime worker
/// also stops tokio's timers.
struct HangWatchdog {
    /// Dropping it (with the app) disarms the watchdog.
    _disarm: Option<std::sync::mpsc::Sender<()>>,
}

impl HangWatchdog {
    fn arm(limit: Option<Duration>) -> HangWatchdog {
        let Some(limit) = limit else {
            return HangWatchdog { _disarm: None };
        };
        let (disarm, disarmed) = std::sync::mpsc::channel::<()>();
        // The test harness names each test's thread after the test.
        let test = std::thread::current().name().unwrap_or("a test").to_string();
        std::thread::spawn(move || {
            if disarmed.recv_timeout(limit) != Err(std::sync::mpsc::RecvTimeoutError::Timeout) {
                return;
            }
            use std::io::Write;
            // Straight to the process's stderr: the harness captures what
            // `eprintln!` prints from a test's threads.
            let _ = writeln!(
                std::io::stderr(),
                "\n{test}: its app is still alive after {limit:?}; every thread's stack follows, then the test binary aborts"
            );
            // gdb inherits the binary's own stdout and stderr.
            let _ = std::process::Command::new("gdb")
                .args(["--batch", "-p", &std::process::id().to_string(), "-ex", "thread apply all bt 16"])
                .status();
            // Again last, where a reader of the log's tail looks.
            let _ = writeln!(std::io::stderr(), "{test}: stuck for {limit:?}; aborting (its thread's stack is above)");
            std::process::abort();
        });
        HangWatchdog { _disarm: Some(disarm) }
    }
}

/// Knobs for a test that needs a non-default service.
#[derive(Clone)]
pub struct Options {
    pub core: CoreConfig,
    pub gateway: GatewayConfig,
    /// How long the app may live before it counts as stuck (see
    /// `HangWatchdog`); `None` for a benchmark that runs for minutes.
    pub hang_limit: Option<Duration>,
}

/// The core's configuration as `sail serve` runs it with no flag given
/// (the flags' defaults, docs/contract.md#running), with a key made for
/// this process alone and the receipt reader the tests build.
pub fn serve_defaults() -> CoreConfig {
    CoreConfig {
        sandbox: true,
        rate_limit_rps: 100,
        rate_limit_burst: 200,
        public_url: "http://127.0.0.1:8080".to_string(),
        webhook_retry_base: Duration::from_millis(10_000),
        webhook_retry_max_delay: core_grpc::background::delivery::MAX_RETRY_DELAY,
        webhook_retry_max_age: Duration::from_secs(259_200),
        hosted_session_ttl: Duration::from_secs(1800),
        workers: 2,
        job_lease: core_grpc::platform::jobs::DEFAULT_LEASE,
        webhook_allow_private: false,
        keyring: core_grpc::platform::crypto::Keyring::ephemeral(),
        unauthenticated_rps: 20,
        trusted_gateways: Vec::new(),
        key_cache_ttl: core_grpc::config::KEY_CACHE_TTL,
        redis_url: None,
        receipt_reader: receipt_reader(),
        receipt_workers: 1,
        key_store_url: None,
        retention: core_grpc::config::RetentionPolicy::DEFAULT,
    }
}

impl Default for Options {
    fn default() -> Self {
        // Tests make bursts of calls; the limiter has tests of its own.
        // Tests receive webhooks on loopback.
        let core =
            CoreConfig { rate_limit_rps: 0, unauthenticated_rps: 0, webhook_allow_private: true, ..serve_defaults() };
        Options { core, gateway: GatewayConfig::default(), hang_limit: Some(HANG_LIMIT) }
    }
}

impl TestApp {
    pub async fn spawn() -> TestApp {
        TestApp::spawn_with(Options::default()).await
    }

    pub async fn spawn_with(options: Options) -> TestApp {
        init_process();
        let watchdog = HangWatchdog::arm(options.hang_limit);
        let test_db = TestDb::create().await;
        let key_store_db = TestDb::create().await;
        let db = core_grpc::platform::db::connect(&test_db.url).await.expect("connect");
        migration::apply(&db).await.expect("migrate");

        let http = TcpListener::bind("127.0.0.1:0").await.expect("bind http");
        let http_addr = http.local_addr().unwrap().to_string();
        let mut core_config = options.core.clone();
        core_config.public_url = format!("http://{http_addr}");
        core_config.key_store_url.get_or_insert_with(|| key_store_db.url.clone());
        let core = CoreProcess::start(&test_db.url, core_config.clone(), "127.0.0.1:0".parse().unwrap());
        let grpc_addr = core.addr.to_string();

        let (stop, mut stop_rx) = watch::channel(false);
        let mut in_process_readiness = None;
        let mut in_process_db = None;
        let channel = if gateway_in_process() {
            // The gateway calls a core in its own process (as `sail serve`
            // does), an API-only one over the same database; the core process
            // above still serves gRPC and runs the workers.
            let db = core_grpc::platform::db::connect(&test_db.url).await.expect("connect in-process core");
            let api_only = CoreConfig { workers: 0, ..core_config.clone() };
            let in_process = Core::connect(db, api_only).await.expect("in-process core");
            in_process_readiness = Some(in_process.readiness.clone());
            in_process_db = Some(in_process.db.clone());
            core_grpc::server::in_process(&in_process)
        } else {
            rest_gateway::core_channel(&format!("http://{grpc_addr}")).unwrap()
        };
        let gateway = tokio::spawn({
            let config = options.gateway.clone();
            let shutdown = async move {
                let _ = stop_rx.wait_for(|s| *s).await;
            };
            async move { rest_gateway::run(http, channel, config, shutdown).await.expect("gateway runs") }
        });

        let client = reqwest::Client::builder().timeout(Duration::from_secs(30)).build().unwrap();
        TestApp {
            api: format!("http://{http_addr}/api/v1"),
            http_root: format!("http://{http_addr}"),
            grpc_addr,
            db,
            client,
            core: Some(core),
            stop,
            gateway: Some(gateway),
            test_db,
            key_store_db,
            in_process_readiness,
            in_process_db,
            _watchdog: watchdog,
        }
    }

    /// Begins a stop's drain in the core (and in the core the gateway calls
    /// in process), as SIGTERM does before the listeners close.
    pub fn begin_drain(&self) {
        if let Some(core) = &self.core {
            core.readiness.begin_drain();
        }
        if let Some(readiness) = &self.in_process_readiness {
            readiness.begin_drain();
        }
    }

    /// Takes the database away from the running cores (see [`TestDb::cut_off`]).
    pub async fn lose_database(&self) {
        let pools: Vec<&DatabaseConnection> =
            self.core.iter().map(|core| &core.db).chain(self.in_process_db.as_ref()).collect();
        self.test_db.cut_off(&pools).await;
    }

    /// Kills the core behind the gateway at once, like `kill -9`.
    pub fn crash_core(&mut self) {
        if let Some(core) = self.core.take() {
            core.crash();
        }
    }

    /// Starts a core again at the same address (after a crash), with `config`.
    pub fn restart_core(&mut self, mut config: CoreConfig) {
        config.public_url = self.http_root.clone();
        config.key_store_url.get_or_insert_with(|| self.key_store_db.url.clone());
        self.core = Some(CoreProcess::start(&self.test_db.url, config, self.grpc_addr.parse().unwrap()));
    }

    /// Another core over the same database (another process, say), with
    /// its own workers.
    pub fn extra_core(&self, mut config: CoreConfig) -> CoreProcess {
        config.key_store_url.get_or_insert_with(|| self.key_store_db.url.clone());
        CoreProcess::start(&self.test_db.url, config, "127.0.0.1:0".parse().unwrap())
    }

    /// A new partner and a key for it with `scopes` (comma-separated).
    pub async fn partner_key(&self, scopes: &str) -> (String, String) {
        let partner = admin::create_partner(&self.db, &test_operator(), "Test Partner").await.unwrap();
        let key = admin::create_key(&self.db, &test_operator(), &partner.id, scopes, None).await.unwrap();
        (partner.id, key.key)
    }

    /// Registers `origins` as allowed to frame the partner's hosted pages,
    /// as `sail partners update --embed-origin` does.
    pub async fn embed_origins(&self, partner_id: &str, origins: &[&str]) {
        let parsed: Vec<_> =
            origins.iter().map(|o| core_grpc::domain::EmbedOrigin::parse(o).expect("a valid origin")).collect();
        admin::update_embed_origins(&self.db, &test_operator(), partner_id, true, &parsed).await.unwrap();
    }

    /// Another key for an existing partner.
    pub async fn key_for(&self, partner_id: &str, scopes: &str) -> String {
        admin::create_key(&self.db, &test_operator(), partner_id, scopes, None).await.unwrap().key
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.api)
    }

    pub async fn get(&self, key: &str, path: &str) -> Reply {
        Reply::from(self.client.get(self.url(path)).bearer_auth(key).send().await.unwrap()).await
    }

    pub async fn post(&self, key: &str, path: &str, body: Value) -> Reply {
        Reply::from(self.client.post(self.url(path)).bearer_auth(key).json(&body).send().await.unwrap()).await
    }

    pub async fn patch(&self, key: &str, path: &str, body: Value) -> Reply {
        Reply::from(self.client.patch(self.url(path)).bearer_auth(key).json(&body).send().await.unwrap()).await
    }

    pub async fn delete(&self, key: &str, path: &str) -> Reply {
        Reply::from(self.client.delete(self.url(path)).bearer_auth(key).send().await.unwrap()).await
    }

    /// Creates a user and returns its id.
    pub async fn create_user(&self, key: &str, external_user_id: &str) -> String {
        let reply = self.post(key, "/users", serde_json::json!({"external_user_id": external_user_id})).await;
        assert_eq!(reply.status, 201, "{}", reply.body);
        reply.body["id"].as_str().unwrap().to_string()
    }

    /// Links a sandbox connection and waits for its first sync to finish.
    pub async fn sandbox_connection(&self, key: &str, body: Value) -> Value {
        let reply = self.post(key, "/sandbox/connections", body).await;
        assert_eq!(reply.status, 201, "{}", reply.body);
        assert_eq!(reply.body["status"], "aggregating");
        let user_id = reply.body["user_id"].as_str().unwrap().to_string();
        let id = reply.body["id"].as_str().unwrap().to_string();
        self.wait_for_connection(key, &user_id, &id).await
    }

    /// Creates an `external` connection for `user_id` and returns its id.
    pub async fn external_connection(&self, key: &str, user_id: &str) -> String {
        let body = serde_json::json!({"type": "external", "provider_label": "B"});
        let reply = self.post(key, &format!("/users/{user_id}/connections"), body).await;
        assert_eq!(reply.status, 201, "{}", reply.body);
        reply.body["id"].as_str().unwrap().to_string()
    }

    /// Polls a connection until it has left `aggregating`.
    pub async fn wait_for_connection(&self, key: &str, user_id: &str, connection_id: &str) -> Value {
        let path = format!("/users/{user_id}/connections/{connection_id}");
        eventually("the connection to leave aggregating", Duration::from_secs(20), || async {
            let reply = self.get(key, &path).await;
            assert_eq!(reply.status, 200, "{}", reply.body);
            (reply.body["status"] != "aggregating").then_some(reply.body)
        })
        .await
    }

    /// Polls a job until it is completed (or failed).
    pub async fn wait_for_job(&self, key: &str, job_id: &str) -> Value {
        let path = format!("/jobs/{job_id}");
        eventually("the job to finish", Duration::from_secs(30), || async {
            let reply = self.get(key, &path).await;
            assert_eq!(reply.status, 200, "{}", reply.body);
            let done = reply.body["status"] == "completed" || reply.body["status"] == "failed";
            done.then_some(reply.body)
        })
        .await
    }
}

impl Drop for TestApp {
    fn drop(&mut self) {
        let _ = self.stop.send(true);
        if let Some(gateway) = self.gateway.take() {
            gateway.abort();
        }
    }
}

/// A response: status, headers and JSON body (Null when the body is not JSON).
pub struct Reply {
    pub status: u16,
    pub headers: reqwest::header::HeaderMap,
    pub body: Value,
}

impl Reply {
    pub async fn from(response: reqwest::Response) -> Reply {
        let status = response.status().as_u16();
        let headers = response.headers().clone();
        let text = response.text().await.unwrap_or_default();
        let body = serde_json::from_str(&text).unwrap_or(Value::Null);
        Reply { status, headers, body }
    }

    /// Asserts the error envelope: status, code and param, and a
    /// `Request-Id` to quote to support.
    pub fn assert_error(&self, status: u16, code: &str, param: Option<&str>) {
        assert_eq!(self.status, status, "{}", self.body);
        assert!(
            self.headers.get("request-id").is_some_and(|id| !id.is_empty()),
            "every refusal carries a Request-Id: {}",
            self.body
        );
        let error = &self.body["error"];
        assert_eq!(error["code"], code, "{}", self.body);
        assert!(error["message"].as_str().is_some_and(|m| !m.is_empty()), "{}", self.body);
        match param {
            Some(p) => assert_eq!(error["param"], p, "{}", self.body),
            None => assert!(error["param"].is_null(), "{}", self.body),
        }
        assert_eq!(self.body.as_object().map(|o| o.len()), Some(1), "only `error` at the top: {}", self.body);
    }
}

/// Polls `check` until it returns `Some`, and returns that; panics naming
/// `what` once `timeout` has passed. The one wait loop of the test suite.
pub async fn eventually<T, F, Fut>(what: &str, timeout: Duration, mut check: F) -> T
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Option<T>>,
{
    let deadline = std::time::Instant::now() + timeout;
    loop {
        if let Some(done) = check().await {
            return done;
        }
        assert!(std::time::Instant::now() < deadline, "timed out after {timeout:?} waiting for {what}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// The operator the test harness acts as, in the operator audit trail.
fn test_operator() -> core_grpc::services::operator_audit::Operator {
    core_grpc::services::operator_audit::Operator::parse("sail-tests").unwrap()
}
