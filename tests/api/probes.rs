//! The probes outside `/api/v1` (docs/api-decisions.md, "Probes"): `/livez`
//! answers while the gateway runs, `/healthz` while the core's database is
//! reachable, and `/readyz` only while gateway and core take new work, with
//! grpc.health.v1 saying the same for a core.

use rest_gateway::GatewayConfig;
use serde_json::{Value, json};

use crate::helpers::TestApp;

async fn probe(app: &TestApp, root: &str, path: &str) -> (u16, Value) {
    let reply = app.client.get(format!("{root}{path}")).send().await.unwrap();
    let status = reply.status().as_u16();
    (status, reply.json().await.unwrap_or(Value::Null))
}

#[tokio::test]
async fn a_serving_app_is_live_healthy_and_ready() {
    let app = TestApp::spawn().await;
    let root = app.http_root.clone();
    assert_eq!(probe(&app, &root, "/livez").await, (200, json!({"status": "ok"})));
    assert_eq!(probe(&app, &root, "/healthz").await, (200, json!({"status": "ok", "database": "ok"})));
    assert_eq!(probe(&app, &root, "/readyz").await, (200, json!({"status": "ready", "database": "ok"})));
}

async fn create_user_keyed(app: &TestApp, key: &str, idempotency_key: &str) -> crate::helpers::Reply {
    let request = app
        .client
        .post(app.url("/users"))
        .bearer_auth(key)
        .header("Idempotency-Key", idempotency_key)
        .json(&json!({"external_user_id": "through-the-outage"}));
    crate::helpers::Reply::from(request.send().await.unwrap()).await
}

#[tokio::test]
async fn a_core_that_loses_its_database_is_not_ready_until_it_is_back() {
    let app = TestApp::spawn().await;
    let (_, key) = app.partner_key("expenses").await;
    let user = app.create_user(&key, "before-the-outage").await;
    let root = app.http_root.clone();
    assert_eq!(probe(&app, &root, "/readyz").await.0, 200);

    // The database goes away under the running core.
    app.lose_database().await;
    let (status, body) = probe(&app, &root, "/readyz").await;
    assert_eq!((status, body), (503, json!({"status": "unavailable", "database": "unreachable"})));
    assert_eq!(probe(&app, &root, "/healthz").await.0, 503);
    // Liveness stays: restarting the process would not bring the database back.
    assert_eq!(probe(&app, &root, "/livez").await, (200, json!({"status": "ok"})));

    // Calls in the window are refused as retryable, never as a 500: a read,
    // and a create a partner will retry under the same Idempotency-Key.
    for reply in [app.get(&key, &format!("/users/{user}")).await, create_user_keyed(&app, &key, "outage-1").await] {
        reply.assert_error(503, "service_unavailable", None);
        assert_eq!(reply.headers["retry-after"], "1", "{:?}", reply.headers);
    }
    // gRPC callers get UNAVAILABLE with the same code.
    let mut users =
        sail_api::pb::users_client::UsersClient::connect(format!("http://{}", app.grpc_addr)).await.unwrap();
    let mut request = tonic::Request::new(sail_api::pb::GetUserRequest { user_id: user.clone() });
    request.metadata_mut().insert("authorization", format!("Bearer {key}").parse().unwrap());
    let refused = users.get_user(request).await.unwrap_err();
    assert_eq!(refused.code(), tonic::Code::Unavailable, "{refused:?}");
    assert_eq!(sail_api::ErrorDetail::from_status(&refused).code, sail_api::ErrorCode::ServiceUnavailable);

    // On PostgreSQL the server takes connections again, and the same core,
    // never restarted, is ready again once its pool reconnects.
    if app.test_db.reconnectable().await {
        let ready = crate::helpers::eventually("ready again", std::time::Duration::from_secs(15), || {
            let (app, root) = (&app, &root);
            async move {
                let (status, body) = probe(app, root, "/readyz").await;
                (status == 200).then_some(body)
            }
        })
        .await;
        assert_eq!(ready, json!({"status": "ready", "database": "ok"}));
        // The refused create, retried, creates once.
        let created = create_user_keyed(&app, &key, "outage-1").await;
        assert_eq!(created.status, 201, "{}", created.body);
        let again = create_user_keyed(&app, &key, "outage-1").await;
        assert_eq!(again.body["id"], created.body["id"]);
        let listed = app.get(&key, "/users").await;
        assert_eq!(listed.body["pagination"]["total"], 2, "{}", listed.body);
    }
}

#[tokio::test]
async fn a_draining_core_is_not_ready_but_still_answers_and_grpc_probes_agree() {
    use tonic_health::pb::{HealthCheckRequest, health_check_response::ServingStatus, health_client::HealthClient};

    let app = TestApp::spawn().await;
    let (_, key) = app.partner_key("expenses").await;
    let root = app.http_root.clone();
    let channel =
        tonic::transport::Channel::from_shared(format!("http://{}", app.grpc_addr)).unwrap().connect().await.unwrap();
    let mut health = HealthClient::new(channel);
    let overall = || HealthCheckRequest { service: String::new() };
    assert_eq!(health.check(overall()).await.unwrap().into_inner().status(), ServingStatus::Serving);

    app.begin_drain();
    let (status, body) = probe(&app, &root, "/readyz").await;
    assert_eq!(status, 503, "{body}");
    assert_eq!(body, json!({"status": "draining", "database": "unchecked", "draining": "core"}));
    // Draining is not dead: calls in flight and new ones on open connections
    // are still served, and the database is still reachable.
    assert_eq!(app.get(&key, "/users").await.status, 200);
    assert_eq!(probe(&app, &root, "/healthz").await.0, 200);
    assert_eq!(probe(&app, &root, "/livez").await.0, 200);
    let status = crate::helpers::eventually("grpc.health NOT_SERVING", std::time::Duration::from_secs(5), || {
        let mut health = health.clone();
        async move {
            let status = health.check(overall()).await.unwrap().into_inner().status();
            (status == ServingStatus::NotServing).then_some(status)
        }
    })
    .await;
    assert_eq!(status, ServingStatus::NotServing);
}

#[tokio::test]
async fn a_gateway_without_its_core_or_stopping_itself_is_not_ready() {
    let app = TestApp::spawn().await;
    let dead_port = {
        let probe = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        probe.local_addr().unwrap().port()
    };
    let spawn_gateway = |core_url: String, config: GatewayConfig| async move {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let root = format!("http://{}", listener.local_addr().unwrap());
        let channel = rest_gateway::core_channel(&core_url).unwrap();
        tokio::spawn(rest_gateway::run(listener, channel, config, std::future::pending()));
        root
    };

    let orphan = spawn_gateway(format!("http://127.0.0.1:{dead_port}"), GatewayConfig::default()).await;
    assert_eq!(probe(&app, &orphan, "/livez").await.0, 200, "alive without its core");
    let (status, body) = probe(&app, &orphan, "/readyz").await;
    assert_eq!((status, body), (503, json!({"status": "unavailable", "core": "unreachable"})));

    let stopping = GatewayConfig::default();
    stopping.draining.store(true, std::sync::atomic::Ordering::SeqCst);
    let stopping = spawn_gateway(format!("http://{}", app.grpc_addr), stopping).await;
    let (status, body) = probe(&app, &stopping, "/readyz").await;
    assert_eq!((status, body), (503, json!({"status": "draining", "draining": "gateway"})));
    assert_eq!(probe(&app, &stopping, "/healthz").await.0, 200, "its core is fine");
}
