//! `sail serve` as a real process given receipts made to hurt a reader
//! (docs/receipts.md#reading-in-isolation), on SQLite or, with
//! `SAIL_TEST_DATABASE_URL`, PostgreSQL: the production reader (`sail
//! receipt-reader` in a child process) turns each into an `unreadable`
//! receipt, the server's own memory stays under the documented bound, and a
//! `SIGTERM` while a reading runs stops the server within its drain time,
//! kills the reading and hands its job back uncounted.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "a test or benchmark: a failed step is the run failing, and says where"
)]

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use sail_test_support::{TestDb, hostile};
use serde_json::{Value, json};

/// The most resident memory the serving process may reach while it reads
/// every hostile file (docs/receipts.md#reading-in-isolation).
const SERVER_MEMORY_BOUND_KIB: u64 = 256 * 1024;
/// How long a stopping server may take (its drain time, docs/architecture.md).
const DRAIN_TIME: Duration = Duration::from_secs(20);

struct Server {
    child: Child,
    http: String,
}

impl Server {
    fn start(db_url: &str, encryption_key: &str, dir: &std::path::Path) -> Server {
        let mut child = sail(db_url, encryption_key, dir)
            .args(["serve", "--http-addr", "127.0.0.1:0", "--grpc-addr", "127.0.0.1:0"])
            .args(["--receipt-timeout-s", "4", "--job-lease-s", "60"])
            .stderr(Stdio::piped())
            .stdout(Stdio::null())
            .spawn()
            .unwrap();
        let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
        let http = loop {
            let line = lines.next().expect("the server exited").unwrap();
            if let Some(addr) = line.split("listening http=").nth(1) {
                break addr.trim().to_string();
            }
        };
        std::thread::spawn(move || for _ in lines {});
        Server { child, http }
    }

    fn pid(&self) -> u32 {
        self.child.id()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn sail(db_url: &str, encryption_key: &str, dir: &std::path::Path) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_sail"));
    command
        .current_dir(dir)
        .env("SAIL_DATABASE_URL", db_url)
        .env("SAIL_ENCRYPTION_KEY", encryption_key)
        .env_remove("SAIL_ENCRYPTION_KEY_PREVIOUS")
        .env("RUST_LOG", "info");
    command
}

fn json_of(command: &mut Command) -> Value {
    let output = command.output().unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    serde_json::from_slice(&output.stdout).unwrap()
}

/// A field of `/proc/PID/status`, in KiB.
fn proc_status_kib(pid: u32, field: &str) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let line = status.lines().find(|l| l.starts_with(field)).unwrap();
    line.split_whitespace().nth(1).unwrap().parse().unwrap()
}

/// The processes whose parent is `pid` and whose command line says they
/// read a receipt.
fn readers_of(pid: u32) -> Vec<u32> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(child) = entry.file_name().to_string_lossy().parse::<u32>() else { continue };
        let stat = std::fs::read_to_string(format!("/proc/{child}/stat")).unwrap_or_default();
        // The parent pid is the second field after the command's closing parenthesis.
        let parent = stat.rsplit_once(')').and_then(|(_, rest)| rest.split_whitespace().nth(1)?.parse::<u32>().ok());
        let cmdline = std::fs::read(format!("/proc/{child}/cmdline")).unwrap_or_default();
        if parent == Some(pid) && String::from_utf8_lossy(&cmdline).contains("receipt-reader") {
            found.push(child);
        }
    }
    found
}

/// Whether process `pid` has ended: gone, or a zombie not yet reaped.
fn dead(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Err(_) => true,
        Ok(stat) => stat.rsplit_once(')').and_then(|(_, rest)| rest.split_whitespace().next()) == Some("Z"),
    }
}

struct Api {
    client: reqwest::Client,
    base: String,
    key: String,
}

impl Api {
    async fn call(&self, method: reqwest::Method, path: &str, body: Option<Value>) -> (u16, Value) {
        let mut request = self.client.request(method, format!("{}{path}", self.base)).bearer_auth(&self.key);
        if let Some(body) = body {
            request = request.json(&body);
        }
        let response = request.send().await.unwrap();
        (response.status().as_u16(), response.json().await.unwrap_or(Value::Null))
    }

    async fn upload(&self, user: &str, expense: &str, name: &str, bytes: Vec<u8>) -> String {
        let part = reqwest::multipart::Part::bytes(bytes).file_name(name.to_string());
        let form = reqwest::multipart::Form::new().part("file", part);
        let url = format!("{}/users/{user}/expenses/{expense}/receipts", self.base);
        let response = self.client.post(url).bearer_auth(&self.key).multipart(form).send().await.unwrap();
        assert_eq!(response.status(), 201);
        response.json::<Value>().await.unwrap()["id"].as_str().unwrap().to_string()
    }

    async fn wait_read(&self, user: &str, expense: &str, receipt: &str) -> Value {
        let deadline = Instant::now() + Duration::from_secs(120);
        loop {
            let path = format!("/users/{user}/expenses/{expense}/receipts/{receipt}");
            let (status, body) = self.call(reqwest::Method::GET, &path, None).await;
            assert_eq!(status, 200, "{body}");
            if body["status"] != "processing" {
                return body;
            }
            assert!(Instant::now() < deadline, "never read: {body}");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
}

#[test]
fn hostile_receipts_leave_the_server_up_and_small_and_a_stop_kills_the_reading() {
    let _ = rustls::crypto::ring::default_provider().install_default();
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let db = runtime.block_on(TestDb::create());
    let dir = std::env::temp_dir().join(format!("sail-hostile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let generated =
        Command::new(env!("CARGO_BIN_EXE_sail")).args(["keys", "generate-encryption-key"]).output().unwrap();
    let encryption_key = String::from_utf8(generated.stdout).unwrap().trim().to_string();
    let migrated = sail(&db.url, &encryption_key, &dir).arg("migrate").output().unwrap();
    assert!(migrated.status.success(), "{}", String::from_utf8_lossy(&migrated.stderr));
    let partner = json_of(sail(&db.url, &encryption_key, &dir).args(["partners", "create", "--name", "P", "--json"]));
    let partner_id = partner["id"].as_str().unwrap();
    let scopes = "expenses,ingest,connections";
    let key = json_of(sail(&db.url, &encryption_key, &dir).args([
        "keys",
        "create",
        "--partner",
        partner_id,
        "--scopes",
        scopes,
        "--json",
    ]));

    let server = Server::start(&db.url, &encryption_key, &dir);
    let api = Api {
        client: reqwest::Client::new(),
        base: format!("http://{}/api/v1", server.http),
        key: key["key"].as_str().unwrap().to_string(),
    };
    let files: Vec<(&str, Vec<u8>, &[&str])> = vec![
        ("loop.pdf", hostile::exponential_forms(10, 10), &["timeout"]),
        ("self.pdf", hostile::self_referencing_form(), &["file_too_complex"]),
        ("arrays.pdf", hostile::nested_arrays(200_000), &["file_too_complex"]),
        ("dicts.pdf", hostile::nested_dictionaries(200_000), &["file_too_complex"]),
        ("bomb.pdf", hostile::compression_bomb(64, 100), &["timeout", "file_too_complex"]),
        ("flood.png", hostile::pixel_flood_png(20_000, 20_000), &["file_too_complex"]),
    ];
    let (user, expenses) = runtime.block_on(async {
        let (_, user) = api.call(reqwest::Method::POST, "/users", Some(json!({"external_user_id": "u"}))).await;
        let user = user["id"].as_str().unwrap().to_string();
        let connection_body = json!({"type": "external", "provider_label": "Bank"});
        let (_, connection) = api.call(reqwest::Method::POST, &format!("/users/{user}/connections"), Some(connection_body)).await;
        let connection = connection["id"].as_str().unwrap();
        let rows: Vec<Value> = (0..files.len() + 1)
            .map(|n| json!({"external_transaction_id": format!("t{n}"), "date": "2026-11-02", "amount": 10 + n, "description": "CVS/PHARMACY #04562"}))
            .collect();
        let path = format!("/users/{user}/connections/{connection}/transactions");
        let (status, pushed) = api.call(reqwest::Method::POST, &path, Some(json!({"transactions": rows}))).await;
        assert_eq!(status, 202, "{pushed}");
        let job = pushed["job_id"].as_str().unwrap();
        loop {
            let (_, job) = api.call(reqwest::Method::GET, &format!("/jobs/{job}"), None).await;
            if job["status"] == "completed" {
                break;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        let (_, listed) = api.call(reqwest::Method::GET, &format!("/users/{user}/expenses?limit=100"), None).await;
        let expenses: Vec<String> = listed["data"].as_array().unwrap().iter().map(|e| e["id"].as_str().unwrap().to_string()).collect();
        (user, expenses)
    });

    runtime.block_on(async {
        let mut receipts = Vec::new();
        for ((name, bytes, _), expense) in files.iter().zip(&expenses) {
            receipts.push(api.upload(&user, expense, name, bytes.clone()).await);
        }
        for (((name, _, codes), expense), receipt) in files.iter().zip(&expenses).zip(&receipts) {
            let read = api.wait_read(&user, expense, receipt).await;
            assert_eq!(read["status"], "unreadable", "{name}: {read}");
            let code = read["reason"]["code"].as_str().unwrap();
            assert!(codes.contains(&code), "{name}: {code}");
        }
    });
    let peak = proc_status_kib(server.pid(), "VmHWM:");
    assert!(peak < SERVER_MEMORY_BOUND_KIB, "the server's resident memory peaked at {peak} KiB");
    println!("server peak resident memory while reading {} hostile files: {peak} KiB", files.len());

    // A stop while a reading runs: the reading is killed, the job handed back.
    let expense = expenses.last().unwrap().clone();
    let receipt = runtime.block_on(api.upload(&user, &expense, "loop.pdf", hostile::exponential_forms(10, 10)));
    let deadline = Instant::now() + Duration::from_secs(30);
    let readers = loop {
        let found = readers_of(server.pid());
        if !found.is_empty() {
            break found;
        }
        assert!(Instant::now() < deadline, "no reading started");
        std::thread::sleep(Duration::from_millis(50));
    };
    let mut server = server;
    let stopping = Instant::now();
    assert!(Command::new("kill").args(["-TERM", &server.pid().to_string()]).status().unwrap().success());
    let status = loop {
        if let Some(status) = server.child.try_wait().unwrap() {
            break status;
        }
        assert!(stopping.elapsed() < DRAIN_TIME, "still running {DRAIN_TIME:?} after SIGTERM");
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(status.success(), "{status:?}");
    println!("stopped {:?} after SIGTERM with a reading running", stopping.elapsed());
    for reader in readers {
        // Dead means gone, or a zombie waiting for init to reap it (its
        // parent, the server, is gone).
        let deadline = Instant::now() + Duration::from_secs(5);
        while !dead(reader) {
            assert!(Instant::now() < deadline, "the reading {reader} outlived the server");
            std::thread::sleep(Duration::from_millis(50));
        }
    }
    let job = runtime.block_on(async {
        use sea_orm::{ColumnTrait, EntityTrait, QueryFilter, QueryOrder};
        let conn = core_grpc::platform::db::connect(&db.url).await.unwrap();
        entities::job::Entity::find()
            .filter(entities::job::Column::Kind.eq("read_receipt"))
            .order_by_desc(entities::job::Column::Id)
            .one(&conn)
            .await
            .unwrap()
            .unwrap()
    });
    assert_eq!((job.status.as_str(), job.attempts), ("queued", 0), "handed back, the attempt not counted");

    // The next server reads it (once).
    let server = Server::start(&db.url, &encryption_key, &dir);
    let api = Api { base: format!("http://{}/api/v1", server.http), ..api };
    let read = runtime.block_on(api.wait_read(&user, &expense, &receipt));
    assert_eq!(read["reason"]["code"], "timeout", "{read}");
    drop(server);
    let _ = std::fs::remove_dir_all(&dir);
    drop(db);
}
