//! Nothing personal or secret in clear text, proven on a full run
//! (docs/pii.md): a user with a profile, a sandbox administrator with
//! identity and account numbers, a webhook endpoint, user tokens, reads of
//! the identity and the numbers, and idempotent replays. Afterwards the
//! database itself (the SQLite file and its WAL, or a `pg_dump` of the
//! PostgreSQL database) and every log line the process wrote, at TRACE for
//! Sail's crates, must hold none of the values.
//!
//! Its own test binary: it installs the process's one log subscriber.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "a test or benchmark: a failed step is the run failing, and says where"
)]

use std::io::Write;
use std::sync::{Arc, Mutex};

use sail_test_support::{Reply, TestApp};
use serde_json::json;

/// Every log line of the process.
#[derive(Clone, Default)]
struct Captured(Arc<Mutex<Vec<u8>>>);

impl Write for Captured {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap_or_else(|p| p.into_inner()).extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl<'a> tracing_subscriber::fmt::MakeWriter<'a> for Captured {
    type Writer = Captured;
    fn make_writer(&'a self) -> Captured {
        self.clone()
    }
}

fn database_text(app: &TestApp) -> Vec<u8> {
    let url = &app.test_db.url;
    if url.starts_with("postgres") {
        let url = url.split('?').next().unwrap();
        let dump = std::process::Command::new("pg_dump").args(["--no-owner", "--data-only", url]).output().unwrap();
        assert!(dump.status.success(), "pg_dump: {}", String::from_utf8_lossy(&dump.stderr));
        assert!(dump.stdout.len() > 10_000, "the dump holds the data");
        dump.stdout
    } else {
        let path = url.trim_start_matches("sqlite://").split('?').next().unwrap().to_string();
        let mut bytes = std::fs::read(&path).unwrap();
        // Recent writes may still be in the write-ahead log only.
        bytes.extend(std::fs::read(format!("{path}-wal")).unwrap_or_default());
        bytes
    }
}

fn contains(haystack: &[u8], needle: &str) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle.as_bytes())
}

#[tokio::test]
async fn no_personal_value_or_secret_is_stored_or_logged_in_clear() {
    let logs = Captured::default();
    tracing_subscriber::fmt()
        .with_env_filter("info,core_grpc=trace,rest_gateway=trace,sail_api=trace,tower_http=trace")
        .with_writer(logs.clone())
        .with_ansi(false)
        .init();

    let app = TestApp::spawn().await;
    let (partner_id, key) =
        app.partner_key("identity,account_numbers,benefit_account,expenses,connections,ingest").await;
    let admin = app.key_for(&partner_id, "token_admin").await;

    let mut secrets: Vec<String> = vec![
        "zq-external-user-7741".into(),
        "quillon.zephyr@example.net".into(),
        "Quillonzq".into(),
        "Zephyrinezq".into(),
        "+15125550177".into(),
        "4417 Xanthe Ridge Rd".into(),
        "Vexbridgezq".into(),
        "Kzq-Province".into(),
        "99017-4417".into(),
    ];
    let profile = json!({
        "external_user_id": secrets[0], "email": secrets[1], "first_name": secrets[2], "last_name": secrets[3],
        "phone": secrets[4],
        "address": {"street": secrets[5], "city": secrets[6], "state": secrets[7], "zip": secrets[8], "country": "US"},
    });
    let post_idem = |key: &str, path: &str, body: &serde_json::Value, idem: &str| {
        let request = app.client.post(app.url(path)).bearer_auth(key).header("Idempotency-Key", idem).json(body);
        async move { Reply::from(request.send().await.unwrap()).await }
    };
    let created = post_idem(&key, "/users", &profile, "scan-user").await;
    assert_eq!(created.status, 201, "{}", created.body);
    let user_id = created.body["id"].as_str().unwrap().to_string();
    // A replay and a conflict: both pass through the idempotency store and
    // the error path.
    assert_eq!(post_idem(&key, "/users", &profile, "scan-user").await.status, 201);
    let conflict = app.post(&key, "/users", json!({"external_user_id": secrets[0]})).await;
    assert_eq!(conflict.status, 409);
    assert!(!conflict.body.to_string().contains(&secrets[0]), "errors do not repeat the id");
    // Refused personal values are not repeated either (errors are logged).
    let malformed = "zq-malformed@@example";
    let refused = app.post(&key, "/users", json!({"external_user_id": "zq-refused-1", "email": malformed})).await;
    assert_eq!(refused.status, 400);
    assert!(!refused.body.to_string().contains(malformed), "{}", refused.body);
    secrets.push(malformed.to_string());

    let found = app.get(&key, "/administrators?search=Fidelity").await;
    let provider_id = found.body["data"][0]["id"].as_str().unwrap().to_string();
    let linked = app
        .sandbox_connection(&key, json!({"user_id": user_id, "type": "benefit_account", "provider_id": provider_id}))
        .await;
    assert_eq!(linked["status"], "active");

    let endpoint = post_idem(&key, "/webhook-endpoints", &json!({"url": "http://127.0.0.1:9/h"}), "scan-hook").await;
    assert_eq!(endpoint.status, 201, "{}", endpoint.body);
    secrets.push(endpoint.body["secret"].as_str().unwrap().to_string());

    let minted = post_idem(
        &admin,
        "/user-tokens",
        &json!({"user_id": user_id, "scopes": ["identity", "account_numbers"]}),
        "scan-token",
    )
    .await;
    assert_eq!(minted.status, 201, "{}", minted.body);
    let token = minted.body["token"].as_str().unwrap().to_string();
    secrets.push(token.clone());
    let exchanged = app
        .post(&admin, "/user-tokens", json!({"external_user_id": "zq-exchanged-user-5150", "scopes": ["identity"]}))
        .await;
    assert_eq!(exchanged.status, 201);
    secrets.push("zq-exchanged-user-5150".into());
    secrets.push(exchanged.body["token"].as_str().unwrap().to_string());

    let read = |path: String| {
        let request = app.client.get(app.url(&path)).bearer_auth(&key).header("Sail-User-Token", &token);
        async move { Reply::from(request.send().await.unwrap()).await }
    };
    let identity = read(format!("/users/{user_id}/identity")).await;
    assert_eq!(identity.status, 200, "{}", identity.body);
    let owner = &identity.body["records"][1];
    secrets.push(owner["names"][0].as_str().unwrap().to_string());
    secrets.push(owner["emails"][0].as_str().unwrap().to_string());
    secrets.push(owner["phone_numbers"][0].as_str().unwrap().to_string());
    secrets.push(owner["addresses"][0]["street"].as_str().unwrap().to_string());
    let accounts = app.get(&key, &format!("/users/{user_id}/accounts")).await;
    let account_id = accounts.body["data"][0]["id"].as_str().unwrap();
    let numbers = read(format!("/users/{user_id}/accounts/{account_id}/numbers")).await;
    assert_eq!(numbers.status, 200, "{}", numbers.body);
    secrets.push(numbers.body["ach"]["account_number"].as_str().unwrap().to_string());
    secrets.push(numbers.body["ach"]["routing_number"].as_str().unwrap().to_string());
    // A receipt naming the patient and the prescription.
    let connection = app
        .post(&key, &format!("/users/{user_id}/connections"), json!({"type": "external", "provider_label": "Bank"}))
        .await;
    let connection_id = connection.body["id"].as_str().unwrap();
    let pushed = app
        .post(
            &key,
            &format!("/users/{user_id}/connections/{connection_id}/transactions"),
            json!({"transactions": [{"external_transaction_id": "zq-1", "date": "2026-11-02", "amount": 10.0, "description": "WALGREENS #1234"}]}),
        )
        .await;
    let job = app.wait_for_job(&key, pushed.body["job_id"].as_str().unwrap()).await;
    assert_eq!(job["status"], "completed");
    let expenses = app.get(&key, &format!("/users/{user_id}/expenses")).await;
    let expense_id = expenses.body["data"][0]["id"].as_str().unwrap();
    let receipt_text = "Walgreens #1234\nPATIENT ZEPHYRINEZQ QUILLONZQ\nRX 5521 ZQ-LISINOPRIL 10.00\nTOTAL 10.00\n";
    let part = reqwest::multipart::Part::bytes(receipt_text.as_bytes().to_vec()).file_name("rx.txt");
    let uploaded = app
        .client
        .post(app.url(&format!("/users/{user_id}/expenses/{expense_id}/receipts")))
        .bearer_auth(&key)
        .multipart(reqwest::multipart::Form::new().part("file", part))
        .send()
        .await
        .unwrap();
    assert_eq!(uploaded.status(), 201);
    let receipt: serde_json::Value = uploaded.json().await.unwrap();
    let receipt_path = format!("/users/{user_id}/expenses/{expense_id}/receipts/{}", receipt["id"].as_str().unwrap());
    sail_test_support::eventually("the receipt to be read", std::time::Duration::from_secs(30), || async {
        (app.get(&key, &receipt_path).await.body["status"] == "read").then_some(())
    })
    .await;
    secrets.push("PATIENT ZEPHYRINEZQ QUILLONZQ".into());
    // A refused read, so the error path logs too.
    assert_eq!(read(format!("/users/{user_id}/identity?x=1")).await.status, 400);

    let database = database_text(&app);
    let log_text = logs.0.lock().unwrap().clone();
    assert!(log_text.len() > 1_000, "the run logged: {} bytes", log_text.len());
    assert!(contains(&log_text, &user_id), "the logs name the user by id, as they should");
    // The scan reads real data: what is not personal is there in clear.
    assert!(contains(&database, "Fidelity Investments") && contains(&database, &user_id));
    for secret in &secrets {
        assert!(!contains(&database, secret), "the database holds '{secret}' in clear text");
        assert!(!contains(&log_text, secret), "the logs hold '{secret}'");
    }
    // The values are there, sealed: the profile reads back through the API.
    assert_eq!(identity.body["records"][0]["emails"][0], secrets[1].as_str());
}
