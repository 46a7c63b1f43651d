//! The error vocabulary through the gateway: authentication, scopes, rate
//! limits, malformed requests, unknown routes, and the core being down.

use std::time::Duration;

use core_grpc::CoreConfig;
use rest_gateway::GatewayConfig;
use serde_json::json;

use crate::helpers::{Options, Reply, TestApp};

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
    let keys = core_grpc::admin::list_keys(&app.db, &partner).await.unwrap();
    let doomed_id =
        keys.iter().find(|k| doomed.ends_with(&k.secret_last4) && k.revoked_at.is_none()).unwrap().id.clone();
    core_grpc::admin::revoke_key(&app.db, &doomed_id).await.unwrap();
    app.get(&doomed, "/users").await.assert_error(401, "invalid_api_key", None);
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
}

#[tokio::test]
async fn rate_limits_answer_429_with_headers_per_key() {
    let options = Options {
        core: CoreConfig { rate_limit_rps: 1, rate_limit_burst: 3, ..CoreConfig::default() },
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
        first_name: Some("Ja\u{7}ne".into()),
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
