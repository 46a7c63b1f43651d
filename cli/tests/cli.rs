//! The `sail` binary as an operator uses it: key administration with its
//! `--json` shapes and exit codes, `serve` on port 0 logging its addresses,
//! `core` plus `gateway --core-url` as separate processes, and graceful
//! shutdown on SIGTERM.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "a test or benchmark: a failed step is the run failing, and says where"
)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::PathBuf;
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

struct Workdir(PathBuf);

impl Workdir {
    /// A fresh directory whose database exists (as after `sail migrate`).
    fn new() -> Workdir {
        let dir = Workdir::empty();
        let migrated = dir.run(&["migrate"]);
        assert!(migrated.status.success(), "{}", String::from_utf8_lossy(&migrated.stderr));
        dir
    }

    /// A fresh directory with no database in it.
    fn empty() -> Workdir {
        let dir = std::env::temp_dir().join(format!("sail-cli-{}", uuid::Uuid::now_v7().simple()));
        std::fs::create_dir_all(&dir).unwrap();
        Workdir(dir)
    }

    /// `sail` run in this directory, on its own SQLite file.
    fn sail(&self) -> Command {
        let mut command = Command::new(env!("CARGO_BIN_EXE_sail"));
        command
            .current_dir(&self.0)
            .env_remove("SAIL_DATABASE_URL")
            .env_remove("SAIL_ENCRYPTION_KEY")
            .env_remove("SAIL_ENCRYPTION_KEY_PREVIOUS")
            .env("RUST_LOG", "info");
        command
    }

    fn run(&self, args: &[&str]) -> Output {
        self.sail().args(args).output().unwrap()
    }

    /// A new partner with one key of `scopes`; returns the key's secret.
    fn partner_key(&self, scopes: &str) -> String {
        let partner = self.json(&["partners", "create", "--name", "Acme", "--json"]);
        let partner = partner["id"].as_str().unwrap();
        let key = self.json(&["keys", "create", "--partner", partner, "--scopes", scopes, "--json"]);
        key["key"].as_str().unwrap().to_string()
    }

    fn json(&self, args: &[&str]) -> serde_json::Value {
        let output = self.run(args);
        assert!(output.status.success(), "{args:?}: {}", String::from_utf8_lossy(&output.stderr));
        serde_json::from_slice(&output.stdout).unwrap()
    }
}

impl Drop for Workdir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Starts a server command and reads its log until it names `wanted` addresses.
fn start(mut command: Command, wanted: &[&str]) -> (Child, Vec<String>) {
    let mut child = command.stderr(Stdio::piped()).stdout(Stdio::null()).spawn().unwrap();
    let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
    let mut found = Vec::new();
    let deadline = Instant::now() + Duration::from_secs(30);
    for name in wanted {
        loop {
            assert!(Instant::now() < deadline, "no 'listening {name}=' line");
            let line = lines.next().expect("server exited").unwrap();
            if let Some(rest) = line.split(&format!("listening {name}=")).nth(1) {
                found.push(rest.trim().to_string());
                break;
            }
        }
    }
    // Keep draining the log so the server never blocks on a full pipe.
    std::thread::spawn(move || for _ in lines {});
    (child, found)
}

fn http_get(addr: &str, path: &str, key: Option<&str>) -> (u16, String) {
    let mut stream = TcpStream::connect(addr).unwrap();
    let auth = key.map(|k| format!("Authorization: Bearer {k}\r\n")).unwrap_or_default();
    write!(stream, "GET {path} HTTP/1.1\r\nHost: {addr}\r\n{auth}Connection: close\r\n\r\n").unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    let status = response.split(' ').nth(1).unwrap().parse().unwrap();
    (status, response)
}

/// A JSON request over plain HTTP/1.1; returns the status and the JSON body.
fn http_json(addr: &str, method: &str, path: &str, key: &str, body: &serde_json::Value) -> (u16, serde_json::Value) {
    let (status, _, body) = http_request(addr, method, path, key, &[], body);
    (status, body)
}

/// [`http_json`] with more request headers; also returns the response's head.
fn http_request(
    addr: &str,
    method: &str,
    path: &str,
    key: &str,
    headers: &[(&str, &str)],
    body: &serde_json::Value,
) -> (u16, String, serde_json::Value) {
    let mut stream = TcpStream::connect(addr).unwrap();
    let text = body.to_string();
    let extra: String = headers.iter().map(|(name, value)| format!("{name}: {value}\r\n")).collect();
    write!(
        stream,
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nAuthorization: Bearer {key}\r\n{extra}Content-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{text}",
        text.len()
    )
    .unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    let status = response.split(' ').nth(1).unwrap().parse().unwrap();
    let (head, body) = response.split_once("\r\n\r\n").unwrap_or((&response, ""));
    (status, head.to_string(), serde_json::from_str(body).unwrap_or(serde_json::Value::Null))
}

fn terminate(child: &mut Child) -> std::process::ExitStatus {
    let pid = child.id().to_string();
    assert!(Command::new("kill").args(["-TERM", &pid]).status().unwrap().success());
    let deadline = Instant::now() + Duration::from_secs(15);
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        assert!(Instant::now() < deadline, "did not stop after SIGTERM");
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn partners_and_keys_print_the_documented_json() {
    let dir = Workdir::new();
    let partner = dir.json(&["partners", "create", "--name", "Acme Health", "--json"]);
    let partner_id = partner["id"].as_str().unwrap();
    assert!(partner_id.starts_with("ptn_"));

    let key = dir.json(&[
        "keys",
        "create",
        "--partner",
        partner_id,
        "--scopes",
        "expenses,ingest",
        "--name",
        "server",
        "--json",
    ]);
    let mut fields: Vec<_> = key.as_object().unwrap().keys().cloned().collect();
    fields.sort();
    assert_eq!(fields, ["id", "key", "partner_id", "scopes"]);
    assert!(key["id"].as_str().unwrap().starts_with("key_"));
    let secret = key["key"].as_str().unwrap();
    assert!(secret.starts_with("sk_") && secret.len() == 43 && secret[3..].chars().all(|c| c.is_ascii_alphanumeric()));
    assert_eq!(key["partner_id"], partner_id);
    assert_eq!(key["scopes"], serde_json::json!(["expenses", "ingest"]));

    let listed = dir.json(&["keys", "list", "--partner", partner_id, "--json"]);
    assert_eq!(listed[0]["id"], key["id"]);
    assert!(!listed.to_string().contains(secret), "secrets are never listed");
    assert!(listed[0]["revoked_at"].is_null());

    let key_id = key["id"].as_str().unwrap();
    let revoked = dir.run(&["keys", "revoke", key_id]);
    assert!(revoked.status.success());
    let listed = dir.json(&["keys", "list", "--partner", partner_id, "--json"]);
    assert!(listed[0]["revoked_at"].as_str().unwrap().ends_with('Z'));
}

#[test]
fn partners_register_the_origins_that_may_embed_their_pages() {
    let dir = Workdir::new();
    let partner = dir.json(&["partners", "create", "--name", "Acme", "--json"]);
    let id = partner["id"].as_str().unwrap();
    let listed = dir.json(&["partners", "list", "--json"]);
    assert_eq!(listed[0]["embed_origins"], serde_json::json!([]));

    let updated = dir.json(&[
        "partners",
        "update",
        id,
        "--embed-origin",
        "https://App.Example.com:443/",
        "--embed-origin",
        "http://localhost:3000",
        "--json",
    ]);
    assert_eq!(updated["embed_origins"], serde_json::json!(["https://app.example.com", "http://localhost:3000"]));
    // Repeating adds; an origin already there is kept once.
    let updated = dir.json(&[
        "partners",
        "update",
        id,
        "--embed-origin",
        "https://app.example.com",
        "--embed-origin",
        "https://b.example",
        "--json",
    ]);
    assert_eq!(updated["embed_origins"].as_array().unwrap().len(), 3, "{updated}");
    let text = dir.run(&["partners", "list"]);
    let text = String::from_utf8(text.stdout).unwrap();
    assert!(text.contains("https://app.example.com,http://localhost:3000,https://b.example"), "{text}");

    // What is not an origin is refused with its reason and exit 2, nothing changed.
    for bad in ["http://app.example.com", "https://app.example.com/path", "https://*.example.com", "app.example.com"] {
        let refused = dir.run(&["partners", "update", id, "--embed-origin", bad]);
        assert_eq!(refused.status.code(), Some(2), "{bad}");
        let said = String::from_utf8(refused.stderr).unwrap();
        assert!(said.contains("origin"), "{bad}: {said}");
    }
    let cleared = dir.json(&["partners", "update", id, "--clear-embed-origins", "--json"]);
    assert_eq!(cleared["embed_origins"], serde_json::json!([]));
    let replaced =
        dir.json(&["partners", "update", id, "--clear-embed-origins", "--embed-origin", "https://c.example", "--json"]);
    assert_eq!(replaced["embed_origins"], serde_json::json!(["https://c.example"]));
    let nothing = dir.run(&["partners", "update", id]);
    assert!(!nothing.status.success());
}

#[test]
fn a_token_admin_key_with_another_scope_is_refused_with_exit_2() {
    let dir = Workdir::new();
    let partner = dir.json(&["partners", "create", "--name", "Acme", "--json"]);
    let partner_id = partner["id"].as_str().unwrap();
    let refused = dir.run(&["keys", "create", "--partner", partner_id, "--scopes", "token_admin,identity", "--json"]);
    assert_eq!(refused.status.code(), Some(2));
    assert!(refused.stdout.is_empty(), "no key is printed");
    let stderr = String::from_utf8_lossy(&refused.stderr);
    let error: serde_json::Value = serde_json::from_str(stderr.lines().last().unwrap()).unwrap();
    assert_eq!(error["error"]["code"], "invalid_key_configuration");

    let alone = dir.json(&["keys", "create", "--partner", partner_id, "--scopes", "token_admin", "--json"]);
    assert_eq!(alone["scopes"], serde_json::json!(["token_admin"]));
    let unknown = dir.run(&["keys", "create", "--partner", partner_id, "--scopes", "expenses,admin"]);
    assert_eq!(unknown.status.code(), Some(2));
    let listed = dir.json(&["keys", "list", "--partner", partner_id, "--json"]);
    assert_eq!(listed.as_array().unwrap().len(), 1, "refused keys were not stored");
}

#[test]
fn serve_on_port_0_logs_its_addresses_answers_and_stops_on_sigterm() {
    let dir = Workdir::new();
    let key = dir.partner_key("expenses");
    let mut command = dir.sail();
    command.args(["serve", "--http-addr", "127.0.0.1:0", "--grpc-addr", "127.0.0.1:0"]);
    let (mut child, addrs) = start(command, &["grpc", "http"]);
    let (grpc, http) = (&addrs[0], &addrs[1]);
    assert!(grpc.starts_with("127.0.0.1:") && !grpc.ends_with(":0"));
    assert_eq!(http_get(http, "/healthz", None).0, 200);
    let (status, body) = http_get(http, "/api/v1/merchants?search=cvs", Some(&key));
    assert_eq!(status, 200, "{body}");
    assert!(body.contains("CVS Pharmacy"));
    assert!(dir.0.join("sail.db").exists(), "the embedded default is sail.db in the working directory");
    assert!(terminate(&mut child).success());
}

#[test]
fn core_and_gateway_run_as_separate_processes() {
    let dir = Workdir::new();
    let key = dir.partner_key("expenses");
    // A production core names its database and key.
    let mut core = dir.sail();
    core.args(["core", "--grpc-addr", "127.0.0.1:0", "--database-url", "sqlite://sail.db?mode=rwc"]);
    core.env("SAIL_ENCRYPTION_KEY", generate_key(&dir));
    let (mut core, grpc) = start(core, &["grpc"]);
    let mut gateway = dir.sail();
    gateway.args(["gateway", "--http-addr", "127.0.0.1:0", "--core-url", &format!("http://{}", grpc[0])]);
    // The gateway holds no database: point it at one that cannot exist.
    gateway.env("SAIL_DATABASE_URL", "postgres://nobody@127.0.0.1:1/none");
    let (mut gateway, http) = start(gateway, &["http"]);
    let (status, body) = http_get(&http[0], "/api/v1/users", Some(&key));
    assert_eq!(status, 200, "{body}");
    // Sandbox is off in a core unless asked for: no sandbox endpoint.
    let link = serde_json::json!({"user_id": "usr_0193a5b2c4d87e6f9a0b1c2d3e4f5a6b", "type": "card"});
    let (status, body) = http_json(&http[0], "POST", "/api/v1/sandbox/connections", &key, &link);
    assert_eq!(status, 404, "{body}");
    assert_eq!(body["error"]["code"], "not_found", "{body}");
    assert!(terminate(&mut gateway).success());
    assert!(terminate(&mut core).success());
}

#[test]
fn a_core_refuses_to_start_without_an_explicit_database_and_encryption_key() {
    let dir = Workdir::new();
    let no_database = dir.run(&["core", "--grpc-addr", "127.0.0.1:0"]);
    assert_eq!(no_database.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&no_database.stderr);
    assert!(stderr.contains("--database-url"), "{stderr}");
    let no_key = dir.run(&["core", "--grpc-addr", "127.0.0.1:0", "--database-url", "sqlite://sail.db?mode=rwc"]);
    assert_eq!(no_key.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&no_key.stderr);
    assert!(stderr.contains("SAIL_ENCRYPTION_KEY"), "{stderr}");
}

#[test]
fn a_serve_process_killed_right_after_a_202_adjudicates_everything_exactly_once_after_restart() {
    let dir = Workdir::new();
    let key = dir.partner_key("connections,ingest,expenses");
    let serve = |dir: &Workdir| {
        let mut command = dir.sail();
        // A job the killed process had claimed is taken over once its lease ends.
        command.args(["serve", "--http-addr", "127.0.0.1:0", "--grpc-addr", "127.0.0.1:0", "--job-lease-s", "2"]);
        start(command, &["grpc", "http"])
    };

    let (mut first, addrs) = serve(&dir);
    let http = addrs[1].clone();
    let (status, user) =
        http_json(&http, "POST", "/api/v1/users", &key, &serde_json::json!({"external_user_id": "u1"}));
    assert_eq!(status, 201, "{user}");
    let user_id = user["id"].as_str().unwrap();
    let (_, connection) = http_json(
        &http,
        "POST",
        &format!("/api/v1/users/{user_id}/connections"),
        &key,
        &serde_json::json!({"type": "external", "provider_label": "Bank"}),
    );
    let connection_id = connection["id"].as_str().unwrap();
    let batch: Vec<serde_json::Value> = (0..300)
        .map(|i| serde_json::json!({"external_transaction_id": format!("t{i}"), "date": "2026-11-01", "amount": 10.5, "description": "CVS/PHARMACY #04562", "mcc": "5912"}))
        .collect();
    let (status, accepted) = http_json(
        &http,
        "POST",
        &format!("/api/v1/users/{user_id}/connections/{connection_id}/transactions"),
        &key,
        &serde_json::json!({"transactions": batch}),
    );
    assert_eq!(status, 202, "{accepted}");
    // SIGKILL at once: no graceful shutdown, whatever was in flight is cut.
    first.kill().unwrap();
    first.wait().unwrap();

    let (mut second, addrs) = serve(&dir);
    let http = addrs[1].clone();
    let job_id = accepted["job_id"].as_str().unwrap();
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let (status, job) = http_json(&http, "GET", &format!("/api/v1/jobs/{job_id}"), &key, &serde_json::Value::Null);
        assert_eq!(status, 200, "{job}");
        if job["status"] == "completed" {
            assert_eq!(job["processed"], 300);
            break;
        }
        assert!(Instant::now() < deadline, "job never completed: {job}");
        std::thread::sleep(Duration::from_millis(100));
    }
    assert!(terminate(&mut second).success());

    let url = format!("sqlite://{}?mode=rwc", dir.0.join("sail.db").display());
    let rows = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
        use sea_orm::EntityTrait;
        let db = core_grpc::platform::db::connect(&url).await.unwrap();
        entities::transaction::Entity::find().all(&db).await.unwrap()
    });
    assert_eq!(rows.len(), 300);
    assert!(rows.iter().all(|r| r.adjudication_count == 1 && r.status.as_str() == "needs_review"));
}

#[test]
fn a_reader_that_closes_the_pipe_early_is_no_error() {
    // `sail openapi | head -c 10`: the document is larger than a pipe holds.
    let mut child = Command::new(env!("CARGO_BIN_EXE_sail"))
        .arg("openapi")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = [0u8; 10];
    child.stdout.take().unwrap().read_exact(&mut first).unwrap();
    assert_eq!(&first[..1], b"{");
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{:?}: {stderr}", output.status);
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[test]
fn webhooks_verify_checks_a_signature_by_hand() {
    let dir = Workdir::new();
    let body = br#"{"id":"evt_1","type":"transactions.ingested","created_at":"2026-11-22T00:00:00Z","data":{}}"#;
    let body_file = dir.0.join("body.json");
    std::fs::write(&body_file, body).unwrap();
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs() as i64;
    let header = core_grpc::services::webhooks::signature::sign("whsec_abc", now, body);
    let run = |secret: &str, header: &str| {
        dir.run(&[
            "webhooks",
            "verify",
            "--secret",
            secret,
            "--header",
            header,
            "--body-file",
            body_file.to_str().unwrap(),
        ])
    };
    let valid = run("whsec_abc", &header);
    assert_eq!(valid.status.code(), Some(0), "{}", String::from_utf8_lossy(&valid.stdout));
    assert!(String::from_utf8_lossy(&valid.stdout).starts_with("valid"));
    let wrong = run("whsec_other", &header);
    assert_eq!(wrong.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&wrong.stdout).contains("no v1 signature matches"));
    let stale = run("whsec_abc", &core_grpc::services::webhooks::signature::sign("whsec_abc", now - 3600, body));
    assert_eq!(stale.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&stale.stdout).contains("tolerance"));
}

#[test]
fn operator_commands_name_their_database_and_never_create_one_unasked() {
    let dir = Workdir::empty();
    let database = dir.0.join("sail.db");
    let refused = dir.run(&["partners", "create", "--name", "Acme"]);
    assert!(!refused.status.success());
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(stderr.contains(&format!("database: sqlite {}", database.display())), "{stderr}");
    assert!(stderr.contains("no database at") && stderr.contains("sail migrate"), "{stderr}");
    assert_eq!(stderr.matches("no database at").count(), 1, "the error is printed once: {stderr}");
    assert!(!database.exists(), "nothing was created");

    let created = dir.run(&["partners", "create", "--name", "Acme", "--create", "--json"]);
    assert!(created.status.success(), "{}", String::from_utf8_lossy(&created.stderr));
    assert!(database.exists());
    let listed = dir.json(&["partners", "list", "--json"]);
    assert_eq!(listed.as_array().unwrap().len(), 1);
    assert_eq!(listed[0]["name"], "Acme");
}

#[test]
fn dev_bootstrap_prints_exports_for_a_key_of_every_data_scope() {
    let dir = Workdir::new();
    let output = dir.run(&["dev", "bootstrap"]);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let stdout = String::from_utf8_lossy(&output.stdout);
    let key = stdout.lines().find_map(|l| l.strip_prefix("export SAIL_KEY=")).expect("SAIL_KEY").to_string();
    assert!(key.starts_with("sk_") && key.len() == 43, "{key}");
    assert!(stdout.contains("export SAIL_URL=http://127.0.0.1:8080/api/v1"), "{stdout}");
    assert!(stdout.contains("export SAIL_GRPC=127.0.0.1:50051"), "{stdout}");
    let partner = stdout.lines().find_map(|l| l.strip_prefix("export SAIL_PARTNER=")).expect("SAIL_PARTNER");
    let keys = dir.json(&["keys", "list", "--partner", partner, "--json"]);
    assert_eq!(keys.as_array().unwrap().len(), 2, "a data key and a token_admin key");
    let data = keys.as_array().unwrap().iter().find(|k| key.ends_with(k["last4"].as_str().unwrap())).unwrap();
    for scope in ["expenses", "benefit_account", "account_numbers", "identity", "ingest", "connections"] {
        assert!(data["scopes"].as_array().unwrap().iter().any(|s| s == scope), "{scope}");
    }
}

#[test]
fn subcommands_take_only_their_own_flags() {
    let dir = Workdir::empty();
    let help = dir.run(&["webhooks", "verify", "--help"]);
    let text = String::from_utf8_lossy(&help.stdout);
    assert!(!text.contains("--rate-limit-rps") && !text.contains("--database-url"), "{text}");
    let serve = String::from_utf8_lossy(&dir.run(&["serve", "--help"]).stdout).to_string();
    assert!(serve.contains("--rate-limit-rps") && serve.contains("--log-format"), "{serve}");
    let completions = dir.run(&["completions", "bash"]);
    assert!(completions.status.success() && String::from_utf8_lossy(&completions.stdout).contains("sail"));
}

#[test]
fn serve_prints_a_banner_naming_addresses_database_and_next_step() {
    let dir = Workdir::empty();
    let mut command = dir.sail();
    command.args(["serve", "--http-addr", "127.0.0.1:0", "--grpc-addr", "127.0.0.1:0"]);
    let mut child = command.stderr(Stdio::piped()).stdout(Stdio::null()).spawn().unwrap();
    let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
    let mut banner = Vec::new();
    let deadline = Instant::now() + Duration::from_secs(30);
    while !banner.iter().any(|l: &String| l.trim_start().starts_with("next")) {
        assert!(Instant::now() < deadline, "no banner: {banner:?}");
        banner.push(lines.next().expect("server exited").unwrap());
    }
    std::thread::spawn(move || for _ in lines {});
    let text = banner.join("\n");
    let database = dir.0.join("sail.db");
    assert!(text.contains(&format!("Sail {}", env!("CARGO_PKG_VERSION"))), "{text}");
    assert!(
        text.contains("/api/v1   (reference: http://127.0.0.1:") && text.contains("REST       http://127.0.0.1:"),
        "{text}"
    );
    assert!(text.contains("gRPC       127.0.0.1:"), "{text}");
    assert!(text.contains(&format!("database   sqlite {}", database.display())), "{text}");
    assert!(text.contains("database: created"), "a new embedded database is announced: {text}");
    assert!(text.contains("sandbox    on"), "{text}");
    assert!(text.contains("dev bootstrap"), "{text}");
    assert!(terminate(&mut child).success());
}

#[test]
fn refusals_are_not_errors_and_every_grpc_call_has_a_request_id() {
    let dir = Workdir::new();
    let key = dir.partner_key("expenses");
    let mut command = dir.sail();
    command.args(["serve", "--http-addr", "127.0.0.1:0", "--grpc-addr", "127.0.0.1:0"]);
    let mut child = command.stderr(Stdio::piped()).stdout(Stdio::null()).spawn().unwrap();
    let log = std::sync::Arc::new(std::sync::Mutex::new(Vec::<String>::new()));
    let lines = BufReader::new(child.stderr.take().unwrap()).lines();
    let sink = log.clone();
    std::thread::spawn(move || {
        for line in lines.map_while(Result::ok) {
            sink.lock().unwrap().push(line);
        }
    });
    let address = |name: &str| -> String {
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let found = log
                .lock()
                .unwrap()
                .iter()
                .find_map(|l| l.split(&format!("listening {name}=")).nth(1).map(|rest| rest.trim().to_string()));
            if let Some(found) = found {
                return found;
            }
            assert!(Instant::now() < deadline, "no 'listening {name}=' line");
            std::thread::sleep(Duration::from_millis(20));
        }
    };
    let (http, grpc) = (address("http"), address("grpc"));

    assert_eq!(http_get(&http, "/api/v1/users", Some("sk_wrong")).0, 401);
    assert_eq!(http_get(&http, "/api/v1/users/usr_nope", Some(&key)).0, 404);
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let request_id = runtime.block_on(async {
        let mut client = sail_api::pb::users_client::UsersClient::connect(format!("http://{grpc}")).await.unwrap();
        let mut request = tonic::Request::new(sail_api::pb::ListUsersRequest::default());
        request.metadata_mut().insert("authorization", format!("Bearer {key}").parse().unwrap());
        let reply = client.list_users(request).await.unwrap();
        reply.metadata().get("request-id").unwrap().to_str().unwrap().to_string()
    });
    assert!(!request_id.is_empty());
    // Close the client's connection: graceful shutdown waits for it.
    drop(runtime);
    std::thread::sleep(Duration::from_millis(200));
    assert!(terminate(&mut child).success());

    let log = log.lock().unwrap().join("\n");
    assert!(!log.contains("ERROR"), "a 401 and a 404 are the caller's, not errors:\n{log}");
    assert!(log.contains("status=401") && log.contains("code=\"invalid_api_key\""), "{log}");
    let grpc_line = log
        .lines()
        .find(|l| l.contains("path=/sail.v1.Users/ListUsers") && l.contains(&request_id))
        .unwrap_or_else(|| panic!("no log line with the generated id {request_id}:\n{log}"));
    assert!(grpc_line.contains("grpc_code=Ok"), "{grpc_line}");
}

#[test]
fn json_logs_are_json_from_the_first_line() {
    let dir = Workdir::empty();
    let mut command = dir.sail();
    command.args(["serve", "--http-addr", "127.0.0.1:0", "--grpc-addr", "127.0.0.1:0", "--log-format", "json"]);
    let mut child = command.stderr(Stdio::piped()).stdout(Stdio::null()).spawn().unwrap();
    let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
    let mut seen = Vec::new();
    let deadline = Instant::now() + Duration::from_secs(30);
    while !seen.iter().any(|l: &String| l.contains("dev bootstrap")) {
        assert!(Instant::now() < deadline, "no banner: {seen:?}");
        seen.push(lines.next().expect("server exited").unwrap());
    }
    std::thread::spawn(move || for _ in lines {});
    for line in &seen {
        let event: serde_json::Value = serde_json::from_str(line).unwrap_or_else(|_| panic!("not JSON: {line}"));
        assert!(event["level"].is_string() && event["message"].is_string(), "{line}");
    }
    assert!(seen.iter().any(|l| l.contains("listening http=")));
    assert!(terminate(&mut child).success());
}

/// `sail serve` on free ports with extra environment; returns the child and
/// its REST address.
fn serve(dir: &Workdir, env: &[(&str, &str)]) -> (Child, String) {
    let mut command = dir.sail();
    command.args(["serve", "--http-addr", "127.0.0.1:0", "--grpc-addr", "127.0.0.1:0"]);
    for (name, value) in env {
        command.env(name, value);
    }
    let (child, addrs) = start(command, &["http"]);
    (child, addrs[0].clone())
}

/// Runs a server command that must refuse to start; returns its stderr.
fn refused_start(dir: &Workdir, env: &[(&str, &str)]) -> String {
    let mut command = dir.sail();
    command.args(["serve", "--http-addr", "127.0.0.1:0", "--grpc-addr", "127.0.0.1:0"]);
    for (name, value) in env {
        command.env(name, value);
    }
    let mut child = command.stderr(Stdio::piped()).stdout(Stdio::null()).spawn().unwrap();
    let deadline = Instant::now() + Duration::from_secs(30);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("serve started instead of refusing");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(!status.success());
    let mut stderr = String::new();
    child.stderr.take().unwrap().read_to_string(&mut stderr).unwrap();
    stderr
}

fn generate_key(dir: &Workdir) -> String {
    let output = dir.run(&["keys", "generate-encryption-key"]);
    assert!(output.status.success());
    String::from_utf8(output.stdout).unwrap().trim().to_string()
}

#[test]
fn a_wrong_encryption_key_is_refused_at_start_up() {
    let dir = Workdir::new();
    let (first, second) = (generate_key(&dir), generate_key(&dir));
    assert_ne!(first, second);
    let (mut child, _) = serve(&dir, &[("SAIL_ENCRYPTION_KEY", &first)]);
    assert!(terminate(&mut child).success());
    let stderr = refused_start(&dir, &[("SAIL_ENCRYPTION_KEY", &second)]);
    assert!(stderr.contains("not configured") && stderr.contains("SAIL_ENCRYPTION_KEY"), "{stderr}");
    assert!(!stderr.contains(&first) && !stderr.contains(&second), "keys never reach the log: {stderr}");
    let malformed = refused_start(&dir, &[("SAIL_ENCRYPTION_KEY", "not-a-key")]);
    assert!(malformed.contains("32 random bytes in base64"), "{malformed}");
    // The right key, with the wrong one as current and the right one as
    // previous (a rotation begun), is accepted.
    let (mut child, _) = serve(&dir, &[("SAIL_ENCRYPTION_KEY", &second), ("SAIL_ENCRYPTION_KEY_PREVIOUS", &first)]);
    assert!(terminate(&mut child).success());
}

#[test]
fn the_embedded_key_file_is_made_once_owner_only_and_then_required() {
    let dir = Workdir::empty();
    let (mut child, _) = serve(&dir, &[]);
    // While the service runs, the database and its write-ahead log (which
    // SQLite removes at a clean close) are owner-only.
    #[cfg(unix)]
    for file in ["sail.db", "sail.db-wal"] {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(dir.0.join(file)).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600, "{file} is owner-only");
    }
    assert!(terminate(&mut child).success());
    let key_file = dir.0.join("sail.db.key");
    let key = std::fs::read_to_string(&key_file).unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        assert_eq!(std::fs::metadata(&key_file).unwrap().permissions().mode() & 0o777, 0o600);
        // A key file others may read is refused, not used.
        std::fs::set_permissions(&key_file, std::fs::Permissions::from_mode(0o644)).unwrap();
        let stderr = refused_start(&dir, &[]);
        assert!(stderr.contains("may be read by other users (mode 644)") && stderr.contains("chmod 600"), "{stderr}");
        std::fs::set_permissions(&key_file, std::fs::Permissions::from_mode(0o600)).unwrap();
    }
    let (mut child, _) = serve(&dir, &[]);
    assert!(terminate(&mut child).success());
    assert_eq!(std::fs::read_to_string(&key_file).unwrap(), key, "the file is made once");
    std::fs::remove_file(&key_file).unwrap();
    let stderr = refused_start(&dir, &[]);
    assert!(stderr.contains("sail.db.key") && stderr.contains("missing"), "{stderr}");
    assert!(!key_file.exists(), "a missing key file is never replaced by a new key");
    // PostgreSQL needs the key set: no file is ever made for it.
    let mut command = dir.sail();
    command.args(["serve", "--database-url", "postgres://nobody@127.0.0.1:1/none"]);
    let output = command.output().unwrap();
    assert!(!output.status.success());
}

#[test]
fn rotation_reseals_everything_the_service_still_reads_it_and_reads_are_audited() {
    let dir = Workdir::empty();
    let (mut child, addr) = serve(&dir, &[]);
    let partner = dir.json(&["partners", "create", "--name", "Rotating", "--json"]);
    let partner_id = partner["id"].as_str().unwrap();
    let data = dir.json(&["keys", "create", "--partner", partner_id, "--scopes", "identity,expenses", "--json"]);
    let data = data["key"].as_str().unwrap().to_string();
    let admin = dir.json(&["keys", "create", "--partner", partner_id, "--scopes", "token_admin", "--json"]);
    let admin = admin["key"].as_str().unwrap().to_string();
    for n in 0..3 {
        let body = serde_json::json!({"external_user_id": format!("rot-{n}"), "email": format!("r{n}@example.org")});
        assert_eq!(http_json(&addr, "POST", "/api/v1/users", &data, &body).0, 201);
    }
    assert!(terminate(&mut child).success());
    let old_key = std::fs::read_to_string(dir.0.join("sail.db.key")).unwrap().trim().to_string();

    let summary = dir.json(&["keys", "rotate-encryption", "--new-key", "--json"]);
    // The users' values are under their own data keys: only those three
    // keys are re-sealed under the new service key.
    assert_eq!(summary["rows_resealed"]["user_data_keys"], 3, "{summary}");
    assert!(summary["rows_resealed"]["users"].is_null(), "{summary}");
    assert_eq!(summary["retired_keys"].as_array().unwrap().len(), 1, "{summary}");
    let lines: Vec<String> =
        std::fs::read_to_string(dir.0.join("sail.db.key")).unwrap().lines().map(str::to_string).collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[1], old_key, "the old key stays for reading");
    let again = dir.json(&["keys", "rotate-encryption", "--json"]);
    assert!(again["rows_resealed"].as_object().unwrap().is_empty(), "resumable: nothing left: {again}");

    // Only the new key is needed now.
    let (mut child, addr) = serve(&dir, &[("SAIL_ENCRYPTION_KEY", &lines[0])]);
    let (status, users) = http_json(&addr, "GET", "/api/v1/users", &data, &serde_json::Value::Null);
    assert_eq!(status, 200);
    let mut ids: Vec<&str> =
        users["data"].as_array().unwrap().iter().map(|u| u["external_user_id"].as_str().unwrap()).collect();
    ids.sort();
    assert_eq!(ids, ["rot-0", "rot-1", "rot-2"]);
    let user_id = users["data"][0]["id"].as_str().unwrap().to_string();
    let (status, token) = http_json(
        &addr,
        "POST",
        "/api/v1/user-tokens",
        &admin,
        &serde_json::json!({"user_id": user_id, "scopes": ["identity"]}),
    );
    assert_eq!(status, 201, "{token}");
    let token = token["token"].as_str().unwrap();
    let mut stream = TcpStream::connect(&addr).unwrap();
    write!(
        stream,
        "GET /api/v1/users/{user_id}/identity HTTP/1.1\r\nHost: {addr}\r\nAuthorization: Bearer {data}\r\nSail-User-Token: {token}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    assert!(response.starts_with("HTTP/1.1 200"), "{response}");
    assert!(response.contains("@example.org"), "{response}");
    assert!(terminate(&mut child).success());

    let trail = dir.json(&["audit", "list", "--partner", partner_id, "--json"]);
    let rows = trail.as_array().unwrap();
    assert_eq!(rows.len(), 1, "{trail}");
    assert_eq!(rows[0]["user_id"], user_id.as_str());
    assert_eq!(rows[0]["endpoint"], "GET /users/{user_id}/identity");
    assert!(rows[0]["user_token_id"].as_str().unwrap().starts_with("utok_"));
    assert!(rows[0]["key_id"].as_str().unwrap().starts_with("key_"));
    assert!(rows[0]["request_id"].is_string());
    let other_user = dir.json(&["audit", "list", "--user", "usr_none", "--json"]);
    assert!(other_user.as_array().unwrap().is_empty());
}

#[test]
fn a_stopping_server_answers_draining_on_readyz_while_it_still_serves() {
    let dir = Workdir::new();
    let key = dir.partner_key("expenses");
    let (mut child, http) = serve(&dir, &[("SAIL_DRAIN_S", "3")]);
    let (status, body) = http_get(&http, "/readyz", None);
    assert_eq!(status, 200, "{body}");
    assert!(body.contains(r#""status":"ready""#), "{body}");

    let pid = child.id().to_string();
    assert!(Command::new("kill").args(["-TERM", &pid]).status().unwrap().success());
    let deadline = Instant::now() + Duration::from_secs(2);
    let draining = loop {
        let (status, body) = http_get(&http, "/readyz", None);
        if status == 503 {
            break body;
        }
        assert!(Instant::now() < deadline, "readyz still {status} after the stop began: {body}");
        std::thread::sleep(Duration::from_millis(20));
    };
    assert!(draining.contains(r#""status":"draining""#), "{draining}");
    // Within the drain the API still answers, and so do the other probes.
    let (status, body) = http_get(&http, "/api/v1/users", Some(&key));
    assert_eq!(status, 200, "{body}");
    assert_eq!(http_get(&http, "/livez", None).0, 200);
    assert_eq!(http_get(&http, "/healthz", None).0, 200);
    let deadline = Instant::now() + Duration::from_secs(20);
    let exited = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        assert!(Instant::now() < deadline, "did not stop after the drain");
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(exited.success());
}

/// 500 transactions with ids `{prefix}-0` … `{prefix}-499`.
fn batch_of_500(prefix: &str) -> serde_json::Value {
    let rows: Vec<serde_json::Value> = (0..500)
        .map(|i| {
            serde_json::json!({"external_transaction_id": format!("{prefix}-{i}"), "date": "2026-11-01",
                               "amount": 5.0, "description": "LABCORP", "mcc": "8071"})
        })
        .collect();
    serde_json::json!({ "transactions": rows })
}

#[test]
fn a_backup_taken_during_a_push_restores_to_a_service_that_reads_every_accepted_row() {
    let dir = Workdir::new();
    let key = dir.partner_key("connections,ingest,expenses");
    let (mut child, http) = serve(&dir, &[]);
    let (status, user) =
        http_json(&http, "POST", "/api/v1/users", &key, &serde_json::json!({"external_user_id": "b1"}));
    assert_eq!(status, 201, "{user}");
    let user = user["id"].as_str().unwrap().to_string();
    let external = serde_json::json!({"type": "external", "provider_label": "Bank"});
    let (status, connection) = http_json(&http, "POST", &format!("/api/v1/users/{user}/connections"), &key, &external);
    assert_eq!(status, 201, "{connection}");
    let push_path = format!("/api/v1/users/{user}/connections/{}/transactions", connection["id"].as_str().unwrap());
    let (status, reply) = http_json(&http, "POST", &push_path, &key, &batch_of_500("a"));
    assert_eq!(status, 202, "{reply}");

    // A second batch is pushed while the copy is taken.
    let pusher = {
        let (http, key, path) = (http.clone(), key.clone(), push_path.clone());
        std::thread::spawn(move || http_json(&http, "POST", &path, &key, &batch_of_500("b")).0)
    };
    let backup = dir.run(&["backup", "--to", "backup.db"]);
    assert!(backup.status.success(), "{}", String::from_utf8_lossy(&backup.stderr));
    assert_eq!(pusher.join().unwrap(), 202);
    assert!(terminate(&mut child).success());
    for file in ["backup.db", "backup.db.key", "backup.db.sha256"] {
        let meta = std::fs::metadata(dir.0.join(file)).unwrap_or_else(|_| panic!("{file} was written"));
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            if file != "backup.db.sha256" {
                assert_eq!(meta.permissions().mode() & 0o077, 0, "{file} is owner-only");
            }
        }
        let _ = meta;
    }
    let again = dir.run(&["backup", "--to", "backup.db"]);
    assert!(!again.status.success(), "a backup never overwrites");

    let backup_file = dir.0.join("backup.db");
    let backup_path = backup_file.to_str().unwrap();
    let other = Workdir::empty();
    let restored = other.run(&["restore", "--from", backup_path]);
    assert!(restored.status.success(), "{}", String::from_utf8_lossy(&restored.stderr));
    let twice = other.run(&["restore", "--from", backup_path]);
    assert!(!twice.status.success());
    assert!(String::from_utf8_lossy(&twice.stderr).contains("never overwrites"), "{twice:?}");

    // A damaged copy is refused by its checksum, and nothing is restored.
    let damaged = dir.0.join("damaged.db");
    let mut bytes = std::fs::read(&backup_file).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0xff;
    std::fs::write(&damaged, bytes).unwrap();
    std::fs::copy(dir.0.join("backup.db.sha256"), dir.0.join("damaged.db.sha256")).unwrap();
    let third = Workdir::empty();
    let refused = third.run(&["restore", "--from", damaged.to_str().unwrap()]);
    assert!(!refused.status.success());
    assert!(String::from_utf8_lossy(&refused.stderr).contains("checksum"), "{refused:?}");
    assert!(!third.0.join("sail.db").exists(), "nothing restored");

    // The restored service has every row the first push accepted, and the
    // second push whole or not at all.
    let (mut restored_child, http) = serve(&other, &[]);
    let deadline = Instant::now() + Duration::from_secs(60);
    let total = loop {
        let (status, body) = http_get(&http, &format!("/api/v1/users/{user}/expenses?limit=1"), Some(&key));
        assert_eq!(status, 200, "{body}");
        let json: serde_json::Value = serde_json::from_str(body.split("\r\n\r\n").nth(1).unwrap()).unwrap();
        let total = json["pagination"]["total"].as_u64().unwrap();
        if total == 1000 || (total == 500 && Instant::now() + Duration::from_secs(50) > deadline) {
            break total;
        }
        assert!(Instant::now() < deadline, "only {total} expenses after restore");
        std::thread::sleep(Duration::from_millis(200));
    };
    assert!(total == 500 || total == 1000, "{total}");
    assert!(terminate(&mut restored_child).success());
}

#[test]
fn retention_status_shows_what_is_due_and_run_removes_it() {
    let dir = Workdir::empty();
    let (mut child, addr) = serve(&dir, &[]);
    let key = dir.partner_key("expenses");
    let (status, user) =
        http_json(&addr, "POST", "/api/v1/users", &key, &serde_json::json!({"external_user_id": "kept-1"}));
    assert_eq!(status, 201, "{user}");
    let path = format!("/api/v1/users/{}", user["id"].as_str().unwrap());
    let (status, _) = http_json(&addr, "PATCH", &path, &key, &serde_json::json!({"status": "inactive"}));
    assert_eq!(status, 200);
    assert!(terminate(&mut child).success());

    let due_events = |extra: &[&str]| {
        let mut args = vec!["retention", "status", "--json"];
        args.extend_from_slice(extra);
        let due = dir.json(&args);
        let rows = due.as_array().unwrap().clone();
        assert_eq!(rows.len(), 5, "{due}");
        rows.iter().find(|r| r["kind"] == "events").unwrap()["due"].as_u64().unwrap()
    };
    // Under the default policy the day-old event is kept.
    assert_eq!(due_events(&[]), 0);
    let kept = dir.json(&["retention", "run", "--json"]);
    assert_eq!(kept["batches"], 0, "{kept}");
    // With events kept for 0 days it is due, and a run removes it.
    assert_eq!(due_events(&["--retention-events-days", "0"]), 1);
    let swept = dir.json(&["retention", "run", "--retention-events-days", "0", "--json"]);
    assert_eq!(swept["removed"]["events"], 1, "{swept}");
    assert_eq!(due_events(&["--retention-events-days", "0"]), 0);
}

#[test]
fn with_the_data_keys_in_the_main_database_a_user_is_created_changed_and_deleted() {
    // `sail serve` keeps the data keys in the main database unless told
    // otherwise: every write seals through the transaction it is in.
    let dir = Workdir::empty();
    let (mut child, addr) = serve(&dir, &[]);
    let key = dir.partner_key("expenses");
    let body = serde_json::json!({"external_user_id": "erase-1", "email": "e1@example.org"});
    let (status, user) = http_json(&addr, "POST", "/api/v1/users", &key, &body);
    assert_eq!(status, 201, "{user}");
    let path = format!("/api/v1/users/{}", user["id"].as_str().unwrap());
    let (status, changed) = http_json(&addr, "PATCH", &path, &key, &serde_json::json!({"first_name": "Eve"}));
    assert_eq!(status, 200, "{changed}");
    assert_eq!(changed["external_user_id"], "erase-1");
    let (status, deleted) = http_json(&addr, "DELETE", &path, &key, &serde_json::Value::Null);
    assert_eq!(status, 200, "{deleted}");
    assert_eq!(deleted["deleted"], true);
    let (status, _) = http_json(&addr, "GET", &path, &key, &serde_json::Value::Null);
    assert_eq!(status, 404);
    let (status, again) = http_json(&addr, "POST", "/api/v1/users", &key, &body);
    assert_eq!(status, 201, "the external id is free again: {again}");
    assert!(terminate(&mut child).success());
}

/// Whether `text` holds a run of 32 lower-case hex digits: the body of
/// every id Sail makes.
fn holds_an_id(text: &str) -> bool {
    let mut run = 0;
    for c in text.chars() {
        run = if c.is_ascii_digit() || ('a'..='f').contains(&c) { run + 1 } else { 0 };
        if run >= 32 {
            return true;
        }
    }
    false
}

#[test]
fn metrics_are_on_the_operator_listener_only_move_with_calls_and_name_no_id() {
    let dir = Workdir::new();
    let partner = dir.json(&["partners", "create", "--name", "Watched", "--json"]);
    let partner_id = partner["id"].as_str().unwrap();
    let key =
        dir.json(&["keys", "create", "--partner", partner_id, "--scopes", "expenses,ingest,connections", "--json"]);
    let key = key["key"].as_str().unwrap().to_string();
    let mut command = dir.sail();
    // No workers: a push stays queued, so the queue gauge has something to show.
    command.args(["serve", "--http-addr", "127.0.0.1:0", "--grpc-addr", "127.0.0.1:0"]);
    command.args(["--metrics-addr", "127.0.0.1:0", "--workers", "0"]);
    let (mut child, addrs) = start(command, &["http", "metrics"]);
    let (http, metrics) = (&addrs[0], &addrs[1]);

    let (status, user) =
        http_json(http, "POST", "/api/v1/users", &key, &serde_json::json!({"external_user_id": "watched-1"}));
    assert_eq!(status, 201, "{user}");
    let user_id = user["id"].as_str().unwrap();
    let path = format!("/api/v1/users/{user_id}/connections");
    let (status, connection) =
        http_json(http, "POST", &path, &key, &serde_json::json!({"type": "external", "provider_label": "Bank"}));
    assert_eq!(status, 201, "{connection}");
    let push = format!("{path}/{}/transactions", connection["id"].as_str().unwrap());
    let rows = serde_json::json!({"transactions": [{"external_transaction_id": "m1", "date": "2026-11-01", "amount": 5.0, "description": "CVS"}]});
    assert_eq!(http_json(http, "POST", &push, &key, &rows).0, 202);
    // Never on the partner port.
    assert_eq!(http_get(http, "/metrics", None).0, 404);

    let scrape = || {
        let (status, body) = http_get(metrics, "/metrics", None);
        assert_eq!(status, 200, "{body}");
        let text = body.split("\r\n\r\n").nth(1).unwrap_or(&body).to_string();
        let parsed = prometheus_parse::Scrape::parse(text.lines().map(|l| Ok(l.to_string()))).unwrap();
        (text, parsed)
    };
    let value = |scrape: &prometheus_parse::Scrape, metric: &str, labels: &[(&str, &str)]| -> f64 {
        scrape
            .samples
            .iter()
            .filter(|s| s.metric == metric && labels.iter().all(|(k, v)| s.labels.get(k) == Some(*v)))
            .map(|s| match &s.value {
                prometheus_parse::Value::Counter(v)
                | prometheus_parse::Value::Gauge(v)
                | prometheus_parse::Value::Untyped(v) => *v,
                prometheus_parse::Value::Histogram(buckets) => buckets.last().map_or(0.0, |b| b.count),
                prometheus_parse::Value::Summary(_) => 0.0,
            })
            .sum()
    };
    let (text, first) = scrape();
    let created = [("method", "POST"), ("route", "/api/v1/users"), ("status", "201")];
    assert_eq!(value(&first, "sail_http_requests_total", &created), 1.0, "{text}");
    let core_call = [("operation", "/sail.v1.Users/CreateUser"), ("code", "ok")];
    assert_eq!(value(&first, "sail_grpc_calls_total", &core_call), 1.0, "{text}");
    assert!(
        value(&first, "sail_grpc_call_duration_seconds_count", &[("operation", "/sail.v1.Users/CreateUser")]) >= 1.0
            || value(&first, "sail_grpc_call_duration_seconds", &[("operation", "/sail.v1.Users/CreateUser")]) >= 1.0,
        "{text}"
    );
    assert_eq!(value(&first, "sail_queue_depth", &[("kind", "ingest_transactions")]), 1.0, "{text}");
    assert!(value(&first, "sail_process_resident_memory_bytes", &[]) > 1_000_000.0, "{text}");
    // The pool's ceiling (SQLite's 8), and the writers' queue at the file,
    // which the calls' writes passed.
    assert_eq!(value(&first, "sail_db_pool_max_connections", &[]), 8.0, "{text}");
    assert_eq!(value(&first, "sail_db_write_waiting", &[]), 0.0, "{text}");
    assert!(
        value(&first, "sail_db_write_wait_seconds_count", &[]) >= 1.0
            || value(&first, "sail_db_write_wait_seconds", &[]) >= 1.0,
        "{text}"
    );
    // No label carries an id, a key or a path parameter.
    for sample in &first.samples {
        for (name, value) in sample.labels.iter() {
            assert!(!holds_an_id(value) && !value.contains("sk_"), "{} {name}={value}", sample.metric);
        }
    }
    assert!(!holds_an_id(&text) && !text.contains(partner_id), "{text}");

    // A request moves its operation's counter.
    assert_eq!(
        http_json(http, "POST", "/api/v1/users", &key, &serde_json::json!({"external_user_id": "watched-2"})).0,
        201
    );
    let (_, second) = scrape();
    assert_eq!(value(&second, "sail_http_requests_total", &created), 2.0);
    assert!(terminate(&mut child).success());
}

/// A span as the test's OTLP receiver got it.
#[derive(Debug, Clone)]
struct ReceivedSpan {
    service: String,
    name: String,
    trace_id: Vec<u8>,
    span_id: Vec<u8>,
    parent_span_id: Vec<u8>,
    attributes: Vec<(String, String)>,
}

/// An OpenTelemetry collector's trace service, in the test process: what
/// a `sail` process exports over OTLP/gRPC lands here.
#[derive(Clone, Default)]
struct Collector(std::sync::Arc<std::sync::Mutex<Vec<ReceivedSpan>>>);

#[tonic::async_trait]
impl opentelemetry_proto::tonic::collector::trace::v1::trace_service_server::TraceService for Collector {
    async fn export(
        &self,
        request: tonic::Request<opentelemetry_proto::tonic::collector::trace::v1::ExportTraceServiceRequest>,
    ) -> Result<
        tonic::Response<opentelemetry_proto::tonic::collector::trace::v1::ExportTraceServiceResponse>,
        tonic::Status,
    > {
        use opentelemetry_proto::tonic::common::v1::any_value::Value;
        let text = |value: &Option<opentelemetry_proto::tonic::common::v1::AnyValue>| match value
            .as_ref()
            .and_then(|v| v.value.as_ref())
        {
            Some(Value::StringValue(s)) => s.clone(),
            Some(Value::IntValue(n)) => n.to_string(),
            Some(other) => format!("{other:?}"),
            None => String::new(),
        };
        let mut received = self.0.lock().unwrap();
        for resource_spans in request.into_inner().resource_spans {
            let service = resource_spans
                .resource
                .iter()
                .flat_map(|r| &r.attributes)
                .find(|a| a.key == "service.name")
                .map(|a| text(&a.value))
                .unwrap_or_default();
            for span in resource_spans.scope_spans.into_iter().flat_map(|s| s.spans) {
                received.push(ReceivedSpan {
                    service: service.clone(),
                    name: span.name,
                    trace_id: span.trace_id,
                    span_id: span.span_id,
                    parent_span_id: span.parent_span_id,
                    attributes: span.attributes.iter().map(|a| (a.key.clone(), text(&a.value))).collect(),
                });
            }
        }
        Ok(tonic::Response::new(Default::default()))
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[test]
fn one_trace_follows_a_push_from_the_gateway_through_the_core_and_its_job_to_the_webhook() {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    // The collector, and a webhook receiver that keeps what it is sent.
    let collector = Collector::default();
    let otlp = runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let service = opentelemetry_proto::tonic::collector::trace::v1::trace_service_server::TraceServiceServer::new(
            collector.clone(),
        );
        tokio::spawn(
            tonic::transport::Server::builder()
                .add_service(service)
                .serve_with_incoming(tonic::transport::server::TcpIncoming::from(listener)),
        );
        addr
    });
    let hooks: std::sync::Arc<std::sync::Mutex<Vec<serde_json::Value>>> = Default::default();
    let receiver = runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let kept = hooks.clone();
        let app = axum::Router::new().route(
            "/hook",
            axum::routing::post(move |body: String| async move {
                kept.lock().unwrap().push(serde_json::from_str(&body).unwrap());
                "ok"
            }),
        );
        tokio::spawn(async move { axum::serve(listener, app).await });
        addr
    });

    // A core and a gateway as separate processes, each exporting its spans.
    let dir = Workdir::new();
    let key = dir.partner_key("connections,ingest,expenses");
    let endpoint = format!("http://{otlp}");
    let traced = |command: &mut Command| {
        command.env("SAIL_OTLP_ENDPOINT", &endpoint).env("OTEL_BSP_SCHEDULE_DELAY", "100");
    };
    let mut core = dir.sail();
    core.args(["core", "--grpc-addr", "127.0.0.1:0", "--database-url", "sqlite://sail.db?mode=rwc"]);
    core.env("SAIL_ENCRYPTION_KEY", generate_key(&dir)).env("SAIL_WEBHOOK_ALLOW_PRIVATE", "true");
    traced(&mut core);
    let (mut core, grpc) = start(core, &["grpc"]);
    let mut gateway = dir.sail();
    gateway.args(["gateway", "--http-addr", "127.0.0.1:0", "--core-url", &format!("http://{}", grpc[0])]);
    traced(&mut gateway);
    let (mut gateway, http) = start(gateway, &["http"]);
    let http = &http[0];

    let hook = serde_json::json!({"url": format!("http://localhost:{}/hook", receiver.port()),
                                  "events": ["transactions.ingested"]});
    let (status, body) = http_json(http, "POST", "/api/v1/webhook-endpoints", &key, &hook);
    assert_eq!(status, 201, "{body}");
    let (status, user) = http_json(http, "POST", "/api/v1/users", &key, &serde_json::json!({"external_user_id": "t1"}));
    assert_eq!(status, 201, "{user}");
    let user = user["id"].as_str().unwrap();
    let external = serde_json::json!({"type": "external", "provider_label": "Bank"});
    let (status, connection) = http_json(http, "POST", &format!("/api/v1/users/{user}/connections"), &key, &external);
    assert_eq!(status, 201, "{connection}");
    let push_path = format!("/api/v1/users/{user}/connections/{}/transactions", connection["id"].as_str().unwrap());

    // The partner's own trace: its push carries a W3C traceparent.
    let (trace_id, caller_span) = ("4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7");
    let traceparent = format!("00-{trace_id}-{caller_span}-01");
    let batch = serde_json::json!({"transactions": [{"external_transaction_id": "t-1", "date": "2026-11-01",
                                   "amount": 12.5, "description": "CVS PHARMACY", "mcc": "5912"}]});
    let (status, head, reply) =
        http_request(http, "POST", &push_path, &key, &[("traceparent", traceparent.as_str())], &batch);
    assert_eq!(status, 202, "{reply}");
    let request_id = head
        .lines()
        .find_map(|line| line.strip_prefix("request-id: ").or_else(|| line.strip_prefix("Request-Id: ")))
        .unwrap()
        .trim()
        .to_string();

    // The webhook the push causes arrives …
    let deadline = Instant::now() + Duration::from_secs(30);
    while hooks.lock().unwrap().is_empty() {
        assert!(Instant::now() < deadline, "no webhook delivered");
        std::thread::sleep(Duration::from_millis(50));
    }
    assert_eq!(hooks.lock().unwrap()[0]["type"], "transactions.ingested");

    // … and every hop's span reaches the collector in the caller's trace.
    let find = |name: &str| {
        collector.0.lock().unwrap().iter().find(|span| hex(&span.trace_id) == trace_id && span.name == name).cloned()
    };
    let deadline = Instant::now() + Duration::from_secs(30);
    while ["http", "grpc", "job", "webhook"].iter().any(|name| find(name).is_none()) {
        assert!(
            Instant::now() < deadline,
            "spans of trace {trace_id} missing; received: {:#?}",
            collector.0.lock().unwrap()
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    let (http_span, grpc_span, job_span, webhook_span) =
        (find("http").unwrap(), find("grpc").unwrap(), find("job").unwrap(), find("webhook").unwrap());
    assert_eq!(http_span.service, "sail-gateway");
    for span in [&grpc_span, &job_span, &webhook_span] {
        assert_eq!(span.service, "sail-core", "{span:?}");
    }
    // One chain: the caller's span, the gateway's request, the core's
    // call, the ingestion job it queued, the webhook attempt the job's
    // event caused.
    assert_eq!(hex(&http_span.parent_span_id), caller_span);
    assert_eq!(grpc_span.parent_span_id, http_span.span_id);
    assert_eq!(job_span.parent_span_id, grpc_span.span_id);
    assert_eq!(webhook_span.parent_span_id, job_span.span_id);
    // The request id is an attribute of the request's spans.
    for span in [&http_span, &grpc_span] {
        assert!(span.attributes.contains(&("request_id".to_string(), request_id.clone())), "{span:?}");
    }
    assert!(job_span.attributes.iter().any(|(k, v)| k == "kind" && v == "ingest_transactions"), "{job_span:?}");

    assert!(terminate(&mut gateway).success());
    assert!(terminate(&mut core).success());
    // A request without a traceparent starts a trace of its own: nothing
    // else above was in the caller's trace by accident.
    let in_trace = collector.0.lock().unwrap().iter().filter(|span| hex(&span.trace_id) == trace_id).count();
    assert_eq!(in_trace, 4, "{:#?}", collector.0.lock().unwrap());
}

#[test]
fn operator_changes_are_recorded_with_who_made_them_and_listed_newest_first() {
    let dir = Workdir::new();
    let as_actor = |actor: &str, args: &[&str]| {
        let output = dir.sail().args(args).env("SAIL_ACTOR", actor).output().unwrap();
        assert!(output.status.success(), "{args:?}: {}", String::from_utf8_lossy(&output.stderr));
        serde_json::from_slice::<serde_json::Value>(&output.stdout).unwrap_or_default()
    };
    let partner = as_actor("alice", &["partners", "create", "--name", "Acme", "--json"]);
    let partner = partner["id"].as_str().unwrap().to_string();
    let key = as_actor("alice", &["keys", "create", "--partner", &partner, "--scopes", "expenses", "--json"]);
    let (key_id, secret) = (key["id"].as_str().unwrap().to_string(), key["key"].as_str().unwrap().to_string());
    // `--actor` names who runs it as well; without either, the OS user.
    let revoke = dir.run(&["keys", "revoke", &key_id, "--actor", "bob"]);
    assert!(revoke.status.success(), "{}", String::from_utf8_lossy(&revoke.stderr));
    let again = dir.run(&["keys", "revoke", &key_id, "--actor", "bob"]);
    assert!(again.status.success());
    let update = dir
        .sail()
        .args(["partners", "update", &partner, "--embed-origin", "https://app.example.com"])
        .env("USER", "carol")
        .env_remove("SAIL_ACTOR")
        .output()
        .unwrap();
    assert!(update.status.success(), "{}", String::from_utf8_lossy(&update.stderr));
    let rotate = dir
        .sail()
        .args(["keys", "rotate-encryption", "--json", "--actor", "dave"])
        .env("SAIL_ENCRYPTION_KEY", generate_key(&dir))
        .output()
        .unwrap();
    assert!(rotate.status.success(), "{}", String::from_utf8_lossy(&rotate.stderr));
    // A name that cannot be recorded is refused before anything changes.
    let refused = dir.run(&["partners", "create", "--name", "Other", "--actor", " "]);
    assert_eq!(refused.status.code(), Some(2), "{refused:?}");

    let trail = dir.json(&["audit", "operator", "--json"]);
    let rows = trail.as_array().unwrap();
    let summary: Vec<(&str, &str)> =
        rows.iter().map(|r| (r["action"].as_str().unwrap(), r["actor"].as_str().unwrap())).collect();
    assert_eq!(summary[0], ("encryption.rotated", "dave"));
    assert_eq!(summary[1].0, "partner.updated");
    assert!(summary[1].1.starts_with("carol"), "{summary:?}");
    assert_eq!(
        summary[2..],
        [("key.revoked", "bob"), ("key.created", "alice"), ("partner.created", "alice")],
        "one revocation recorded, newest first; nothing for the refused create"
    );
    assert_eq!(rows[2]["subject"], key_id);
    assert_eq!(rows[3]["detail"]["scopes"], serde_json::json!(["expenses"]));
    assert_eq!(rows[1]["detail"]["embed_origins"], serde_json::json!(["https://app.example.com"]));
    assert!(rows[0]["detail"]["rows_resealed"].is_object(), "{}", rows[0]);
    assert!(!trail.to_string().contains(&secret), "no key secret in the trail");
    // Filters.
    let bobs = dir.json(&["audit", "operator", "--json", "--actor", "bob"]);
    assert_eq!(bobs.as_array().unwrap().len(), 1);
    let acme = dir.json(&["audit", "operator", "--json", "--partner", &partner]);
    assert_eq!(acme.as_array().unwrap().len(), 4);
    let lines = dir.run(&["audit", "operator", "--limit", "2"]);
    assert_eq!(String::from_utf8_lossy(&lines.stdout).lines().count(), 2);
}

#[test]
fn a_gateway_is_ready_only_once_its_core_has_opened_the_database_with_the_right_key() {
    let dir = Workdir::new();
    let (right, wrong) = (generate_key(&dir), generate_key(&dir));
    let core_on = |key: &str, port: u16| {
        let mut core = dir.sail();
        core.args(["core", "--grpc-addr", &format!("127.0.0.1:{port}"), "--database-url", "sqlite://sail.db?mode=rwc"]);
        core.env("SAIL_ENCRYPTION_KEY", key);
        core
    };
    // The database is sealed under `right` by its first core.
    let (mut first, grpc) = start(core_on(&right, 0), &["grpc"]);
    let port: u16 = grpc[0].rsplit(':').next().unwrap().parse().unwrap();
    assert!(terminate(&mut first).success());

    let mut gateway = dir.sail();
    gateway.args(["gateway", "--http-addr", "127.0.0.1:0", "--core-url", &format!("http://127.0.0.1:{port}")]);
    let (mut gateway, http) = start(gateway, &["http"]);
    // A core with the wrong key refuses to start: the gateway is not ready.
    let refused = core_on(&wrong, port).output().unwrap();
    assert!(!refused.status.success());
    assert!(String::from_utf8_lossy(&refused.stderr).contains("SAIL_ENCRYPTION_KEY"), "{refused:?}");
    let (status, response) = http_get(&http[0], "/readyz", None);
    assert_eq!(status, 503, "{response}");
    let body = |response: &str| -> serde_json::Value {
        serde_json::from_str(response.split("\r\n\r\n").nth(1).unwrap_or("")).unwrap_or_default()
    };
    assert_eq!(body(&response), serde_json::json!({"status": "unavailable", "core": "unreachable"}));
    // With the right key it serves, and the gateway is ready.
    let (mut core, _) = start(core_on(&right, port), &["grpc"]);
    let deadline = Instant::now() + Duration::from_secs(15);
    loop {
        let (status, response) = http_get(&http[0], "/readyz", None);
        if status == 200 {
            assert_eq!(body(&response), serde_json::json!({"status": "ready", "database": "ok"}));
            break;
        }
        assert!(Instant::now() < deadline, "never ready: {response}");
        std::thread::sleep(Duration::from_millis(100));
    }
    assert!(terminate(&mut gateway).success());
    assert!(terminate(&mut core).success());
}

#[test]
fn listen_forwards_new_events_signed_to_a_local_url() {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let received: std::sync::Arc<std::sync::Mutex<Vec<(String, String, String)>>> = Default::default();
    let receiver = runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let kept = received.clone();
        let app = axum::Router::new().route(
            "/webhooks",
            axum::routing::post(move |headers: axum::http::HeaderMap, body: String| async move {
                let header = |name: &str| headers[name].to_str().unwrap().to_string();
                kept.lock().unwrap().push((header("sail-event-type"), header("sail-signature"), body));
                "ok"
            }),
        );
        tokio::spawn(async move { axum::serve(listener, app).await });
        addr
    });
    let dir = Workdir::new();
    let key = dir.partner_key("expenses");
    let (mut server, http) = serve(&dir, &[]);
    let fire = |kind: &str| {
        let (status, body) =
            http_json(&http, "POST", "/api/v1/sandbox/events", &key, &serde_json::json!({"type": kind}));
        assert_eq!(status, 201, "{body}");
    };
    // Before `listen` starts: not forwarded.
    fire("user.deactivated");

    let mut listen = dir
        .sail()
        .args(["listen", "--forward-to", &format!("http://{receiver}/webhooks")])
        .args(["--events", "user.deactivated,job.failed", "--poll-ms", "100"])
        .env("SAIL_URL", format!("http://{http}/api/v1"))
        .env("SAIL_KEY", &key)
        .stderr(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(listen.stderr.take().unwrap()).lines();
    let secret = loop {
        let line = lines.next().expect("listen exited").unwrap();
        if let Some(rest) = line.split("signing secret ").nth(1) {
            break rest.split(')').next().unwrap().to_string();
        }
    };
    assert!(secret.starts_with("whsec_"), "{secret}");
    let output: std::sync::Arc<std::sync::Mutex<Vec<String>>> = Default::default();
    let kept = output.clone();
    std::thread::spawn(move || lines.map_while(Result::ok).for_each(|line| kept.lock().unwrap().push(line)));

    fire("user.deactivated");
    fire("user.deleted"); // not among --events
    fire("job.failed");
    let deadline = Instant::now() + Duration::from_secs(20);
    while received.lock().unwrap().len() < 2 {
        assert!(Instant::now() < deadline, "forwarded: {:?}", received.lock().unwrap());
        std::thread::sleep(Duration::from_millis(50));
    }
    std::thread::sleep(Duration::from_millis(500));
    let forwarded = received.lock().unwrap().clone();
    let kinds: Vec<&str> = forwarded.iter().map(|(kind, _, _)| kind.as_str()).collect();
    assert_eq!(kinds, ["user.deactivated", "job.failed"], "in order, filtered, nothing from before the start");
    // Each verifies with the printed secret, by the same check receivers use.
    for (kind, signature, body) in &forwarded {
        let file = dir.0.join("body.json");
        std::fs::write(&file, body).unwrap();
        let verified =
            dir.run(&["webhooks", "verify", "--secret", &secret, "--header", signature, "--body-file", "body.json"]);
        assert!(verified.status.success(), "{kind}: {verified:?}");
        let event: serde_json::Value = serde_json::from_str(body).unwrap();
        assert_eq!(event["type"], kind.as_str());
        assert!(event["id"].as_str().unwrap().starts_with("evt_") && event["data"]["user_id"].is_string());
    }
    assert!(terminate(&mut listen).success());
    let shown = output.lock().unwrap().join("\n");
    assert!(shown.contains("user.deactivated evt_") && shown.contains("-> 200"), "{shown}");
    assert!(!shown.contains("user.deleted"), "{shown}");
    assert!(terminate(&mut server).success());
}
