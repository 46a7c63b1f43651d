//! The error vocabulary through the gateway: authentication, scopes, rate
//! limits, malformed requests, unknown routes, and the core being down.

use std::time::Duration;

use core_grpc::CoreConfig;
use rest_gateway::GatewayConfig;
use serde_json::json;

use crate::helpers::{Options, Reply, TestApp, eventually};

#[tokio::test]
async fn api_keys_missing_malformed_unknown_or_revoked_are_401() {
    let app = TestApp::spawn().await;
    let (partner, key) = app.partner_key("expenses").await;

    let none = Reply::from(app.client.get(app.url("/users")).send().await.unwrap()).await;
    none.assert_error(401, "invalid_api_key", None);
    let basic = Reply::from(
        app.client.get(app.url("/users")).header("Authorization", format!("Basic {key}")).send().await.unwrap(),
    )
    .await;
    basic.assert_error(401, "invalid_api_key", None);
    app.get("sk_short", "/users").await.assert_error(401, "invalid_api_key", None);
    app.get(&format!("sk_{}", "A".repeat(40)), "/users").await.assert_error(401, "invalid_api_key", None);

    let doomed = app.key_for(&partner, "expenses").await;
    assert_eq!(app.get(&doomed, "/users").await.status, 200);
    let keys = core_grpc::services::admin::list_keys(&app.db, &partner).await.unwrap();
    let doomed_id =
        keys.iter().find(|k| doomed.ends_with(&k.secret_last4) && k.revoked_at.is_none()).unwrap().id.clone();
    // A second core over the same database (another process) has the key
    // verified in its cache too.
    let second = app.extra_core(CoreConfig { workers: 0, ..Options::default().core });
    let second_addr = second.addr.to_string();
    assert_eq!(list_users_code(&second_addr, &doomed, None).await, tonic::Code::Ok);

    // Revoked in the database, as `sail keys revoke` does from its own process.
    core_grpc::services::admin::revoke_key(
        &app.db,
        &core_grpc::services::operator_audit::Operator::parse("sail-tests").unwrap(),
        &doomed_id,
    )
    .await
    .unwrap();
    let revoked_at = std::time::Instant::now();
    let refused = eventually("both cores to refuse the revoked key", Duration::from_secs(3), || async {
        let rest = app.get(&doomed, "/users").await;
        let grpc = list_users_code(&second_addr, &doomed, None).await;
        (rest.status == 401 && grpc == tonic::Code::Unauthenticated).then_some(rest)
    })
    .await;
    let waited = revoked_at.elapsed();
    refused.assert_error(401, "invalid_api_key", None);
    let ttl = sail_test_support::serve_defaults().key_cache_ttl;
    assert!(waited <= ttl + Duration::from_millis(250), "a revocation took {waited:?} to reach every core");
    assert_eq!(app.get(&key, "/users").await.status, 200, "other keys keep working");
}

#[tokio::test]
async fn a_token_admin_key_cannot_reach_data_endpoints() {
    let app = TestApp::spawn().await;
    let (_, admin_key) = app.partner_key("token_admin").await;
    for path in ["/users", "/merchants", "/administrators"] {
        app.get(&admin_key, path).await.assert_error(403, "insufficient_key_scope", None);
    }
    app.post(&admin_key, "/users", json!({"external_user_id": "x"})).await.assert_error(
        403,
        "insufficient_key_scope",
        None,
    );
}

#[tokio::test]
async fn any_data_key_reaches_users_and_directories() {
    let app = TestApp::spawn().await;
    for scope in ["expenses", "benefit_account", "account_numbers", "identity", "ingest", "connections"] {
        let (_, key) = app.partner_key(scope).await;
        assert_eq!(app.get(&key, "/users").await.status, 200, "{scope}");
        assert_eq!(app.get(&key, "/merchants").await.status, 200, "{scope}");
        assert_eq!(app.get(&key, "/administrators").await.status, 200, "{scope}");
    }
}

#[tokio::test]
async fn bodies_must_be_json_objects_with_known_fields() {
    let app = TestApp::spawn().await;
    let (_, key) = app.partner_key("expenses").await;
    let post = |body: &'static str, content_type: Option<&'static str>| {
        let mut request = app.client.post(app.url("/users")).bearer_auth(&key).body(body);
        if let Some(ct) = content_type {
            request = request.header("Content-Type", ct);
        }
        async move { Reply::from(request.send().await.unwrap()).await }
    };
    post(r#"{"external_user_id":"a"}"#, None).await.assert_error(400, "invalid_request", None);
    post(r#"{"external_user_id":"a"}"#, Some("text/plain")).await.assert_error(400, "invalid_request", None);
    post(r#"{"external_user_id":"a""#, Some("application/json")).await.assert_error(400, "invalid_request", None);
    post("", Some("application/json")).await.assert_error(400, "invalid_request", None);
    post("[1,2]", Some("application/json")).await.assert_error(400, "invalid_request", None);
    post(r#"{"external_user_id":"a"} trailing"#, Some("application/json")).await.assert_error(
        400,
        "invalid_request",
        None,
    );
    let ok = post(r#"{"external_user_id":"a"}"#, Some("application/json; charset=utf-8")).await;
    assert_eq!(ok.status, 201, "{}", ok.body);
}

#[tokio::test]
async fn bodies_over_the_limit_are_413() {
    let app = TestApp::spawn_with(Options {
        gateway: GatewayConfig { max_body_bytes: 1024, ..Default::default() },
        ..Default::default()
    })
    .await;
    let (_, key) = app.partner_key("expenses").await;
    let big = json!({"external_user_id": "a", "first_name": "x".repeat(4096)});
    app.post(&key, "/users", big).await.assert_error(413, "request_too_large", None);
}

#[tokio::test]
async fn unknown_paths_and_methods_use_the_envelope() {
    let app = TestApp::spawn().await;
    let (_, key) = app.partner_key("expenses").await;
    app.get(&key, "/nope").await.assert_error(404, "not_found", None);
    app.get(&key, "/users/usr_x/unknown").await.assert_error(404, "not_found", None);
    let wrong = app.delete(&key, "/users").await;
    wrong.assert_error(405, "invalid_request", None);
    assert_eq!(wrong.headers["allow"], "POST,GET,HEAD", "405 says which methods the path takes");
    let unversioned = Reply::from(app.client.get(format!("{}/users", app.http_root)).send().await.unwrap()).await;
    unversioned.assert_error(404, "not_found", None);
}

#[tokio::test]
async fn request_ids_are_generated_or_echoed() {
    let app = TestApp::spawn().await;
    let (_, key) = app.partner_key("expenses").await;
    let generated = app.get(&key, "/users").await;
    assert!(!generated.headers["request-id"].to_str().unwrap().is_empty());
    let mine = app
        .client
        .get(app.url("/users"))
        .bearer_auth(&key)
        .header("Request-Id", "req-partner-123")
        .send()
        .await
        .unwrap();
    assert_eq!(mine.headers()["request-id"], "req-partner-123");
    let failed = app.client.get(app.url("/nope")).header("Request-Id", "req-err-1").send().await.unwrap();
    assert_eq!(failed.headers()["request-id"], "req-err-1", "errors carry it too");

    // An id that could forge a log field is refused, never echoed or logged.
    for forged in ["req 1 status=200", "req\"1", "req\\x1b"] {
        let reply = Reply::from(
            app.client.get(app.url("/users")).bearer_auth(&key).header("Request-Id", forged).send().await.unwrap(),
        )
        .await;
        reply.assert_error(400, "invalid_request", Some("Request-Id"));
        assert_ne!(reply.headers["request-id"], forged);
    }
    // A direct gRPC caller's forged id is replaced by one the core makes.
    let mut users =
        sail_api::pb::users_client::UsersClient::connect(format!("http://{}", app.grpc_addr)).await.unwrap();
    let mut request = tonic::Request::new(sail_api::pb::ListUsersRequest::default());
    request.metadata_mut().insert("authorization", format!("Bearer {key}").parse().unwrap());
    request.metadata_mut().insert("request-id", "a b=c".parse().unwrap());
    let answered = users.list_users(request).await.unwrap();
    let echoed = answered.metadata().get("request-id").unwrap().to_str().unwrap();
    assert!(sail_api::required::is_usable_request_id(echoed.as_bytes()) && echoed != "a b=c", "{echoed}");
}

#[tokio::test]
async fn hosted_page_lookups_are_limited_per_client_address() {
    let core = CoreConfig { unauthenticated_rps: 2, ..Options::default().core };
    let app = TestApp::spawn_with(Options { core, ..Default::default() }).await;
    let page = format!("{}/hosted/hst_{}", app.http_root, "x".repeat(43));
    let mut statuses = Vec::new();
    for _ in 0..8 {
        statuses.push(app.client.get(&page).send().await.unwrap());
    }
    assert_eq!(statuses[0].status(), 410, "an unknown session is gone, as ever");
    let limited = statuses.last().unwrap();
    assert_eq!(limited.status(), 429, "guessing session URLs is limited");
    assert_eq!(limited.headers()["retry-after"], "1");
}

#[tokio::test]
async fn rate_limits_answer_429_with_headers_per_key() {
    let options = Options {
        core: CoreConfig { rate_limit_rps: 1, rate_limit_burst: 3, ..sail_test_support::serve_defaults() },
        ..Default::default()
    };
    let app = TestApp::spawn_with(options).await;
    let (partner, key) = app.partner_key("expenses").await;
    let mut statuses = Vec::new();
    for _ in 0..5 {
        statuses.push(app.get(&key, "/merchants").await);
    }
    assert!(statuses[..3].iter().all(|r| r.status == 200));
    let limited = statuses.last().unwrap();
    limited.assert_error(429, "rate_limited", None);
    let retry_after: u64 = limited.headers["retry-after"].to_str().unwrap().parse().unwrap();
    assert!((1..=2).contains(&retry_after), "{retry_after}");
    assert_eq!(limited.headers["ratelimit-limit"], "3");
    assert_eq!(limited.headers["ratelimit-remaining"], "0");
    assert!(limited.headers.contains_key("ratelimit-reset"));

    let fresh = app.key_for(&partner, "expenses").await;
    assert_eq!(app.get(&fresh, "/merchants").await.status, 200, "limits are per key");
    tokio::time::sleep(Duration::from_millis(1100)).await;
    assert_eq!(app.get(&key, "/merchants").await.status, 200, "the bucket refills");
}

#[tokio::test]
async fn a_core_that_is_down_is_a_503_that_leaks_nothing() {
    let app = TestApp::spawn().await;
    let (_, key) = app.partner_key("expenses").await;
    // A gateway pointed at a port where no core listens.
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let dead_port = {
        let probe = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        probe.local_addr().unwrap().port()
    };
    let addr = listener.local_addr().unwrap();
    let channel = rest_gateway::core_channel(&format!("http://127.0.0.1:{dead_port}")).unwrap();
    tokio::spawn(rest_gateway::run(listener, channel, GatewayConfig::default(), std::future::pending()));
    let reply =
        Reply::from(app.client.get(format!("http://{addr}/api/v1/users")).bearer_auth(&key).send().await.unwrap())
            .await;
    reply.assert_error(503, "service_unavailable", None);
    assert_eq!(reply.headers["retry-after"], "1");
    assert!(!reply.body.to_string().contains("127.0.0.1"));
    let health = app.client.get(format!("http://{addr}/healthz")).send().await.unwrap();
    assert_eq!(health.status(), 503);
    assert_eq!(app.client.get(format!("{}/healthz", app.http_root)).send().await.unwrap().status(), 200);
}

#[tokio::test]
async fn control_characters_are_refused_before_anything_is_stored() {
    let app = TestApp::spawn().await;
    let (_, key) = app.partner_key("connections,ingest,expenses").await;
    app.post(&key, "/users", json!({"external_user_id": "nul-\u{0}-x"})).await.assert_error(
        400,
        "invalid_request",
        Some("external_user_id"),
    );
    let user = app.create_user(&key, "u").await;
    let connection = app.external_connection(&key, &user).await;
    let rows = json!({"transactions": [
        {"external_transaction_id": "ok", "date": "2026-11-01", "amount": 5, "description": "LABCORP"},
        {"external_transaction_id": "bad", "date": "2026-11-01", "amount": 5, "description": "CVS\u{0}PHARMACY"},
    ]});
    let path = format!("/users/{user}/connections/{connection}/transactions");
    app.post(&key, &path, rows).await.assert_error(400, "invalid_request", Some("transactions.1.description"));
    // C1 controls (U+0080 to U+009F: NEL, CSI…) are control characters too.
    let c1 = json!({"transactions": [
        {"external_transaction_id": "c1", "date": "2026-11-01", "amount": 5, "description": "CVS\u{9b}31mPHARMACY"},
    ]});
    app.post(&key, &path, c1).await.assert_error(400, "invalid_request", Some("transactions.0.description"));
    app.post(&key, "/users", json!({"external_user_id": "nel-\u{85}-x"})).await.assert_error(
        400,
        "invalid_request",
        Some("external_user_id"),
    );
    assert_eq!(app.get(&key, &format!("/users/{user}/expenses")).await.body["pagination"]["total"], 0);
    assert_eq!(app.get(&key, "/events").await.body["pagination"]["total"], 0, "no job was queued");
    // Tabs and line breaks are text.
    let tabbed = json!({"transactions": [
        {"external_transaction_id": "t", "date": "2026-11-01", "amount": 5, "description": "CVS\tPHARMACY\r\n#1"},
    ]});
    assert_eq!(app.post(&key, &path, tabbed).await.status, 202);

    // gRPC callers get the same answer.
    let mut users =
        sail_api::pb::users_client::UsersClient::connect(format!("http://{}", app.grpc_addr)).await.unwrap();
    let mut request = tonic::Request::new(sail_api::pb::CreateUserRequest {
        external_user_id: "g".into(),
        first_name: Some("Ja\u{9f}ne".into()),
        ..Default::default()
    });
    request.metadata_mut().insert("authorization", format!("Bearer {key}").parse().unwrap());
    let refused = users.create_user(request).await.unwrap_err();
    assert_eq!(refused.code(), tonic::Code::InvalidArgument);
    assert_eq!(sail_api::ErrorDetail::from_status(&refused).param.as_deref(), Some("first_name"));
}

#[tokio::test]
async fn errors_never_echo_more_than_an_excerpt_of_the_input() {
    let app = TestApp::spawn().await;
    let (_, key) = app.partner_key("expenses").await;
    let huge = "t".repeat(20_000);
    let reply = app.get(&key, &format!("/events?type={huge}")).await;
    reply.assert_error(400, "invalid_request", Some("type"));
    assert!(reply.body.to_string().len() < 1_000, "{} bytes", reply.body.to_string().len());
    let field = "f".repeat(50_000);
    let reply = app.post(&key, "/users", json!({"external_user_id": "u", field.clone(): 1})).await;
    assert_eq!(reply.status, 400);
    assert!(reply.body["error"]["param"].as_str().unwrap().chars().count() <= sail_api::errors::MAX_PARAM_CHARS);
    assert!(reply.body.to_string().len() < 1_500);
    // The shared connection to the core still serves everyone.
    assert_eq!(app.get(&key, "/users").await.status, 200);

    // gRPC callers: a megabyte in a field comes back as an excerpt, in a
    // status well inside any header limit.
    let mut users =
        sail_api::pb::users_client::UsersClient::connect(format!("http://{}", app.grpc_addr)).await.unwrap();
    let mut request = tonic::Request::new(sail_api::pb::CreateUserRequest {
        external_user_id: "u".repeat(1_000_000),
        ..Default::default()
    });
    request.metadata_mut().insert("authorization", format!("Bearer {key}").parse().unwrap());
    let refused = users.create_user(request).await.unwrap_err();
    assert_eq!(refused.code(), tonic::Code::InvalidArgument);
    assert!(refused.message().len() < 600, "{} bytes", refused.message().len());
    assert!(refused.details().len() < 1_000, "{} bytes of details", refused.details().len());
    assert_eq!(sail_api::ErrorDetail::from_status(&refused).param.as_deref(), Some("external_user_id"));
}

#[tokio::test]
async fn oversized_headers_are_refused_by_name_and_never_echoed() {
    let app = TestApp::spawn().await;
    let (_, key) = app.partner_key("expenses").await;
    let big = "a".repeat(20_000);
    for (header, value) in [("Idempotency-Key", big.as_str()), ("Sail-User-Token", big.as_str())] {
        let reply = Reply::from(
            app.client
                .post(app.url("/users"))
                .bearer_auth(&key)
                .header(header, value)
                .json(&json!({"external_user_id": "h"}))
                .send()
                .await
                .unwrap(),
        )
        .await;
        reply.assert_error(400, "invalid_request", Some(header));
    }
    let huge_key = Reply::from(
        app.client.get(app.url("/users")).header("Authorization", format!("Bearer {big}")).send().await.unwrap(),
    )
    .await;
    huge_key.assert_error(400, "invalid_request", Some("Authorization"));

    let echoed = app.client.get(app.url("/users")).bearer_auth(&key).header("Request-Id", &big).send().await.unwrap();
    let request_id = echoed.headers()["request-id"].to_str().unwrap().to_string();
    assert!(request_id.len() <= 64, "a fresh id, not the client's: {} bytes", request_id.len());
    Reply::from(echoed).await.assert_error(400, "invalid_request", Some("Request-Id"));
    // Nothing of that disturbed anyone: an ordinary call still works.
    assert_eq!(app.get(&key, "/users").await.status, 200);
}

#[tokio::test]
async fn every_string_and_list_has_the_limit_proto_declares() {
    let app = TestApp::spawn().await;
    let (_, key) = app.partner_key("expenses").await;
    // An id of no declared length: the default limit, naming the path parameter.
    let long_id = "u".repeat(256);
    app.get(&key, &format!("/users/{long_id}")).await.assert_error(400, "invalid_request", Some("user_id"));
    app.get(&key, &format!("/users/{}", "u".repeat(255))).await.assert_error(404, "not_found", Some("user_id"));
    // A declared one (search: 100), on the raw value.
    let search = "w".repeat(101);
    app.get(&key, &format!("/merchants?search={search}")).await.assert_error(400, "invalid_request", Some("search"));
    // Lists: at most 16 subscribed event types.
    let events = vec!["transactions.ingested"; 17];
    let reply = app.post(&key, "/webhook-endpoints", json!({"url": "https://example.com/h", "events": events})).await;
    reply.assert_error(400, "invalid_request", Some("events"));
}

/// Sends `raw` bytes as a request and reads the response until the server
/// closes the connection.
async fn raw_exchange(addr: &str, raw: &[u8]) -> String {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut socket = tokio::net::TcpStream::connect(addr).await.unwrap();
    // The server may answer and close before it has read everything.
    let _ = socket.write_all(raw).await;
    let mut response = Vec::new();
    let _ = tokio::time::timeout(Duration::from_secs(10), socket.read_to_end(&mut response)).await;
    String::from_utf8_lossy(&response).into_owned()
}

/// The status line, the `request-id` header and the JSON body of a raw response.
fn parse_raw(response: &str) -> (String, Option<String>, serde_json::Value) {
    let (head, body) = response.split_once("\r\n\r\n").unwrap_or((response, ""));
    let status = head.lines().next().unwrap_or("").to_string();
    let request_id = head.lines().find_map(|l| l.to_ascii_lowercase().strip_prefix("request-id: ").map(str::to_string));
    (status, request_id, serde_json::from_str(body).unwrap_or(serde_json::Value::Null))
}

#[tokio::test]
async fn requests_the_http_parser_refuses_are_answered_in_the_envelope() {
    let app = TestApp::spawn().await;
    let addr = app.http_root.trim_start_matches("http://").to_string();
    let long_uri = format!("GET /api/v1/users/{} HTTP/1.1\r\nHost: x\r\n\r\n", "a".repeat(300_000));
    let big_header = format!("GET /api/v1/users HTTP/1.1\r\nHost: x\r\nX-Junk: {}\r\n\r\n", "a".repeat(500_000));
    let many_headers = format!(
        "GET /api/v1/users HTTP/1.1\r\nHost: x\r\n{}\r\n",
        (0..150).map(|i| format!("X-{i}: y\r\n")).collect::<String>()
    );
    let malformed = "GET /api/v1/users HTTP/1.1\r\nHost: x\r\nNot a header\r\n\r\n".to_string();
    for (raw, status) in [
        (long_uri, "HTTP/1.1 414 URI Too Long"),
        (big_header, "HTTP/1.1 431 Request Header Fields Too Large"),
        (many_headers, "HTTP/1.1 431 Request Header Fields Too Large"),
        (malformed, "HTTP/1.1 400 Bad Request"),
    ] {
        let (line, request_id, body) = parse_raw(&raw_exchange(&addr, raw.as_bytes()).await);
        assert_eq!(line, status);
        assert!(request_id.is_some_and(|id| !id.is_empty()), "{line}");
        assert_eq!(body["error"]["code"], "invalid_request", "{line}: {body}");
        assert!(body.to_string().len() < 400, "nothing of the request echoed: {body}");
    }
    // The gateway still serves.
    let (_, key) = app.partner_key("expenses").await;
    assert_eq!(app.get(&key, "/users").await.status, 200);
}

#[tokio::test]
async fn a_request_that_times_out_is_answered_in_the_envelope() {
    let app = TestApp::spawn_with(Options {
        gateway: GatewayConfig { request_timeout: Duration::ZERO, ..Default::default() },
        ..Default::default()
    })
    .await;
    let (_, key) = app.partner_key("expenses").await;
    // A zero timeout still waits for the timer's next millisecond, and a
    // read in process can answer inside it; so the call is one that must
    // wait: a new user, while the test holds the users table for writing
    // (SQLite's write lock; PostgreSQL's table lock, which a write needs).
    let held = core_grpc::platform::db::begin_write(&app.db).await.unwrap();
    if app.test_db.is_postgres() {
        use sea_orm::ConnectionTrait;
        held.execute_unprepared("LOCK TABLE users IN ACCESS EXCLUSIVE MODE").await.unwrap();
    }
    let reply = app.post(&key, "/users", json!({"external_user_id": "timed-out"})).await;
    drop(held);
    reply.assert_error(500, "internal_error", None);
    assert!(reply.body["error"]["message"].as_str().unwrap().contains("timed out"), "{}", reply.body);
}

#[tokio::test]
async fn requests_without_a_valid_key_are_limited_per_client_address() {
    let options =
        Options { core: CoreConfig { unauthenticated_rps: 2, ..Options::default().core }, ..Default::default() };
    let app = TestApp::spawn_with(options).await;
    let (_, key) = app.partner_key("expenses").await;
    // The partner's key is verified once (its first use counts).
    assert_eq!(app.get(&key, "/users").await.status, 200);

    // A flood of unknown keys from one address: a burst of 4, then 429s.
    let unknown = format!("sk_{}", "Z".repeat(40));
    let mut replies = Vec::new();
    for _ in 0..8 {
        replies.push(app.get(&unknown, "/users").await);
    }
    assert!(replies[..3].iter().all(|r| r.status == 401), "the burst is answered as usual");
    let limited = replies.last().unwrap();
    limited.assert_error(429, "rate_limited", None);
    let message = limited.body["error"]["message"].as_str().unwrap();
    assert!(message.starts_with("Too many requests without a valid API key from this address;"), "{message}");
    assert!(limited.headers.contains_key("retry-after"));
    assert_eq!(limited.headers["ratelimit-limit"], "4");
    assert_eq!(app.get("", "/users").await.status, 429, "no key at all counts too");

    // The verified key from the same address is unaffected.
    assert_eq!(app.get(&key, "/users").await.status, 200);

    // gRPC: a trusted (loopback) gateway forwards its client's address,
    // which has a budget of its own.
    // Direct callers are limited by their own address (the REST calls above
    // may have spent it already, when the gateway calls this same core).
    let mut codes = Vec::new();
    for _ in 0..6 {
        codes.push(list_users_code(&app.grpc_addr, &unknown, None).await);
    }
    assert_eq!(codes.last(), Some(&tonic::Code::ResourceExhausted), "{codes:?}");
    let elsewhere = list_users_code(&app.grpc_addr, &unknown, Some("203.0.113.7")).await;
    assert_eq!(elsewhere, tonic::Code::Unauthenticated, "another client's budget");
}

#[tokio::test]
async fn a_junk_flood_from_a_partners_own_address_never_refuses_its_valid_calls() {
    // Keys are re-read every 20 ms, so most of the partner's calls find its
    // key uncached: exactly the calls that used to be charged to the
    // address (a shared proxy, NAT or load balancer) that the junk empties.
    let core =
        CoreConfig { unauthenticated_rps: 2, key_cache_ttl: Duration::from_millis(20), ..Options::default().core };
    let app = TestApp::spawn_with(Options { core, ..Default::default() }).await;
    let (_, key) = app.partner_key("expenses").await;
    let flooding = std::sync::atomic::AtomicBool::new(true);
    let junk = async {
        let mut refused = 0;
        let mut n = 0u32;
        while flooding.load(std::sync::atomic::Ordering::Relaxed) {
            // A new wrong key each time: none is remembered as refused.
            let reply = app.get(&format!("sk_{:0>40}", n), "/users").await;
            n += 1;
            refused += usize::from(reply.status == 429);
        }
        refused
    };
    let valid = async {
        let mut statuses = Vec::new();
        for _ in 0..150 {
            statuses.push(app.get(&key, "/users").await.status);
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        flooding.store(false, std::sync::atomic::Ordering::Relaxed);
        statuses
    };
    let (refused, statuses) = tokio::join!(junk, valid);
    assert!(refused > 10, "the junk was limited ({refused} refused)");
    let failed: Vec<&u16> = statuses.iter().filter(|s| **s != 200).collect();
    assert!(failed.is_empty(), "the partner's valid calls were refused: {failed:?}");
}

/// The Redis the fleet-wide rate-limit tests use (these machines run one).
const REDIS_URL: &str = "redis://127.0.0.1:6379";

/// Calls `ListUsers` over gRPC at `addr` with `key` (and, as a gateway
/// would, its client's address `forwarded`); the status code.
async fn list_users_code(addr: &str, key: &str, forwarded: Option<&str>) -> tonic::Code {
    let mut users = sail_api::pb::users_client::UsersClient::connect(format!("http://{addr}")).await.unwrap();
    let mut request = tonic::Request::new(sail_api::pb::ListUsersRequest::default());
    request.metadata_mut().insert("authorization", format!("Bearer {key}").parse().unwrap());
    if let Some(client) = forwarded {
        request.metadata_mut().insert("sail-client-addr", client.parse().unwrap());
    }
    match users.list_users(request).await {
        Ok(_) => tonic::Code::Ok,
        Err(status) => status.code(),
    }
}

#[tokio::test]
async fn with_redis_two_cores_hold_one_key_to_its_limit_in_total() {
    let shared = CoreConfig {
        rate_limit_rps: 1,
        rate_limit_burst: 4,
        redis_url: Some(REDIS_URL.to_string()),
        ..Options::default().core
    };
    let app = TestApp::spawn_with(Options { core: shared.clone(), ..Default::default() }).await;
    let second = app.extra_core(CoreConfig { workers: 0, ..shared });
    let (_, key) = app.partner_key("expenses").await;
    let second_addr = second.addr.to_string();
    let mut codes = Vec::new();
    for n in 0..10 {
        let addr = if n % 2 == 0 { app.grpc_addr.as_str() } else { second_addr.as_str() };
        codes.push(list_users_code(addr, &key, None).await);
    }
    let admitted = codes.iter().filter(|c| **c == tonic::Code::Ok).count();
    // Each core alone would admit its burst of 4 (8 in all); sharing one
    // bucket, the two admit 4 (5 if a token refilled during the calls).
    assert!((4..=5).contains(&admitted), "{admitted} admitted: {codes:?}");
    assert!(codes.iter().all(|c| matches!(c, tonic::Code::Ok | tonic::Code::ResourceExhausted)), "{codes:?}");
    // REST callers see the same bucket, with the usual headers.
    let limited = app.get(&key, "/users").await;
    limited.assert_error(429, "rate_limited", None);
    assert_eq!(limited.headers["ratelimit-limit"], "4");
    assert!(limited.headers.contains_key("retry-after"));
}

#[tokio::test]
async fn without_a_reachable_redis_each_core_still_limits_on_its_own() {
    let dead_port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let options = Options {
        core: CoreConfig {
            rate_limit_rps: 1,
            rate_limit_burst: 3,
            redis_url: Some(format!("redis://127.0.0.1:{dead_port}")),
            ..Options::default().core
        },
        ..Default::default()
    };
    let app = TestApp::spawn_with(options).await;
    let (_, key) = app.partner_key("expenses").await;
    let mut statuses = Vec::new();
    for _ in 0..5 {
        statuses.push(app.get(&key, "/users").await.status);
    }
    assert_eq!(statuses, vec![200, 200, 200, 429, 429], "served, and limited by the core's own bucket");
}
