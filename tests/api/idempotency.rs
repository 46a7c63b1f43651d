//! `Idempotency-Key` on POST (docs/contract.md#wire-conventions): the same key and body replays
//! the first response; another body is `409 idempotency_key_reused`.

use std::time::Duration;

use serde_json::{Value, json};

use crate::helpers::{Reply, TestApp, eventually};
use crate::ingestion::{setup, tx};

async fn post_with_key(app: &TestApp, key: &str, idempotency_key: &str, path: &str, body: Value) -> Reply {
    let request =
        app.client.post(app.url(path)).bearer_auth(key).header("Idempotency-Key", idempotency_key).json(&body);
    Reply::from(request.send().await.unwrap()).await
}

#[tokio::test]
async fn the_same_key_and_body_replays_the_first_response() {
    let app = TestApp::spawn().await;
    let (_, key) = app.partner_key("expenses").await;
    let body = json!({"external_user_id": "once"});
    let first = post_with_key(&app, &key, "idem-1", "/users", body.clone()).await;
    assert_eq!(first.status, 201, "{}", first.body);
    let again = post_with_key(&app, &key, "idem-1", "/users", body.clone()).await;
    assert_eq!(again.status, 201);
    assert_eq!(again.body, first.body, "the first response, replayed");
    assert_eq!(app.get(&key, "/users").await.body["pagination"]["total"], 1, "created once");

    // Without the key the duplicate is the usual conflict.
    app.post(&key, "/users", body).await.assert_error(409, "user_already_exists", Some("external_user_id"));
}

#[tokio::test]
async fn another_body_with_the_same_key_is_refused() {
    let app = TestApp::spawn().await;
    let (_, key) = app.partner_key("expenses").await;
    let (_, other_partner) = app.partner_key("expenses").await;
    assert_eq!(post_with_key(&app, &key, "idem-2", "/users", json!({"external_user_id": "a"})).await.status, 201);
    post_with_key(&app, &key, "idem-2", "/users", json!({"external_user_id": "b"})).await.assert_error(
        409,
        "idempotency_key_reused",
        Some("Idempotency-Key"),
    );
    // Keys belong to a partner: another partner may use the same one.
    assert_eq!(
        post_with_key(&app, &other_partner, "idem-2", "/users", json!({"external_user_id": "b"})).await.status,
        201
    );
    post_with_key(&app, &key, "has space", "/users", json!({"external_user_id": "c"})).await.assert_error(
        400,
        "invalid_request",
        Some("Idempotency-Key"),
    );
}

#[tokio::test]
async fn a_key_whose_first_request_never_finished_says_when_to_retry() {
    use sea_orm::{EntityTrait, sea_query::Expr};
    let app = TestApp::spawn().await;
    let (_, key) = app.partner_key("expenses").await;
    let body = json!({"external_user_id": "cut-off"});
    assert_eq!(post_with_key(&app, &key, "idem-cut", "/users", body.clone()).await.status, 201);
    // As if the first attempt's process died before it kept its reply: the
    // key is reserved with no reply to replay.
    entities::idempotency_key::Entity::update_many()
        .col_expr(entities::idempotency_key::Column::ResponseHex, Expr::value(Option::<String>::None))
        .exec(&app.db)
        .await
        .unwrap();
    let retried = post_with_key(&app, &key, "idem-cut", "/users", body).await;
    retried.assert_error(409, "idempotency_key_reused", Some("Idempotency-Key"));
    assert!(retried.body["error"]["message"].as_str().unwrap().contains("still in progress"), "{}", retried.body);
    assert_eq!(retried.headers["retry-after"], "1");
}

/// A key held by a call on a core that died mid-call frees as soon as the
/// core is seen gone (its heartbeat more than ten seconds behind the
/// serving core's), not after the reservation's 60-s age limit; one held by
/// a live core, or by a core the fleet has no heartbeat of, stays in
/// progress (docs/api-decisions.md#idempotency-keys-held-by-a-core-that-died).
#[tokio::test]
async fn a_key_held_by_a_core_that_died_frees_once_its_heartbeat_stops() {
    use entities::{core_instance, idempotency_key};
    use sea_orm::{ActiveModelTrait, EntityTrait, Set, sea_query::Expr};
    let app = TestApp::spawn().await;
    let (_, key) = app.partner_key("expenses").await;
    let body = json!({"external_user_id": "held"});
    let first = post_with_key(&app, &key, "idem-held", "/users", body.clone()).await;
    assert_eq!(first.status, 201, "{}", first.body);
    // The serving core named itself on the reservation, and beats: its
    // heartbeat starts beside the server, so on a busy machine the first
    // beat may come just after the first call.
    let held = idempotency_key::Entity::find().one(&app.db).await.unwrap().unwrap();
    let serving = held.reserved_by.clone().expect("the reservation names its core");
    eventually("the serving core's first heartbeat", Duration::from_secs(10), || async {
        core_instance::Entity::find_by_id(serving.as_str()).one(&app.db).await.unwrap().map(|_| ())
    })
    .await;
    // As if another core took the key and was killed before keeping a reply.
    idempotency_key::Entity::update_many()
        .col_expr(idempotency_key::Column::ResponseHex, Expr::value(Option::<String>::None))
        .col_expr(idempotency_key::Column::ReservedBy, Expr::value("core_killed"))
        .exec(&app.db)
        .await
        .unwrap();
    let in_progress = |reply: &Reply| {
        reply.status == 409 && reply.body["error"]["message"].as_str().is_some_and(|m| m.contains("still in progress"))
    };
    // A core with no heartbeat row: nothing to judge it by.
    let retried = post_with_key(&app, &key, "idem-held", "/users", body.clone()).await;
    assert!(in_progress(&retried), "{}", retried.body);
    // A live core: it beat just now.
    let now_ms = chrono::Utc::now().timestamp_millis();
    core_instance::ActiveModel { id: Set("core_killed".into()), heartbeat_at_ms: Set(now_ms) }
        .insert(&app.db)
        .await
        .unwrap();
    let retried = post_with_key(&app, &key, "idem-held", "/users", body.clone()).await;
    assert!(in_progress(&retried), "{}", retried.body);
    // Its heartbeat stopped 30 s ago: the retry runs. Here it runs into the
    // user the first attempt made, which shows it ran.
    core_instance::ActiveModel { id: Set("core_killed".into()), heartbeat_at_ms: Set(now_ms - 30_000) }
        .update(&app.db)
        .await
        .unwrap();
    let retried = post_with_key(&app, &key, "idem-held", "/users", body).await;
    retried.assert_error(409, "user_already_exists", Some("external_user_id"));
}

/// A caller that hangs up mid-call (its client timed out) does not cut the
/// call off: it runs to its end and keeps its reply, so the retry with the
/// same key replays it, instead of waiting out a reservation nothing holds
/// any more and then running again into the user the first attempt made.
#[tokio::test]
async fn a_call_whose_caller_hung_up_finishes_and_its_retry_replays_it() {
    use sea_orm::{ConnectionTrait, TransactionTrait};
    let app = TestApp::spawn().await;
    if !app.test_db.is_postgres() {
        // Holding up only the user's row takes a table lock: SQLite's one
        // write lock would hold up the key's reservation as well.
        return;
    }
    let (_, key) = app.partner_key("expenses").await;
    let body = json!({"external_user_id": "hung-up"});
    // The user's insert waits on this lock; the key's reservation does not.
    let lock = app.db.begin().await.unwrap();
    lock.execute_unprepared("LOCK TABLE users IN ACCESS EXCLUSIVE MODE").await.unwrap();
    let impatient = app
        .client
        .post(app.url("/users"))
        .bearer_auth(&key)
        .header("Idempotency-Key", "idem-hung-up")
        .json(&body)
        .timeout(Duration::from_millis(500));
    assert!(impatient.send().await.is_err(), "the call answered while its insert was held up");
    lock.rollback().await.unwrap();
    // The retry is in progress until the first call keeps its reply, then
    // replays it.
    let replayed = eventually("the first call's reply to be replayed", Duration::from_secs(20), || async {
        let retried = post_with_key(&app, &key, "idem-hung-up", "/users", body.clone()).await;
        let in_progress = retried.status == 409
            && retried.body["error"]["message"].as_str().is_some_and(|m| m.contains("still in progress"));
        (!in_progress).then_some(retried)
    })
    .await;
    assert_eq!(replayed.status, 201, "{}", replayed.body);
    assert_eq!(replayed.body["external_user_id"], "hung-up");
    assert_eq!(app.get(&key, "/users").await.body["pagination"]["total"], 1, "created once");
}

#[tokio::test]
async fn a_failed_request_does_not_use_up_its_key() {
    let app = TestApp::spawn().await;
    let (_, key) = app.partner_key("expenses").await;
    post_with_key(&app, &key, "idem-3", "/users", json!({"external_user_id": "a", "email": "nope"}))
        .await
        .assert_error(400, "invalid_request", Some("email"));
    let fixed =
        post_with_key(&app, &key, "idem-3", "/users", json!({"external_user_id": "a", "email": "a@b.co"})).await;
    assert_eq!(fixed.status, 201, "{}", fixed.body);
}

#[tokio::test]
async fn a_retried_push_is_one_job() {
    let app = TestApp::spawn().await;
    let (key, user, connection) = setup(&app).await;
    let path = format!("/users/{user}/connections/{connection}/transactions");
    let body = json!({"transactions": [tx("a", "LABCORP", Some("8071"), 5.0)]});
    let first = post_with_key(&app, &key, "push-1", &path, body.clone()).await;
    let retry = post_with_key(&app, &key, "push-1", &path, body).await;
    assert_eq!((first.status, retry.status), (202, 202));
    assert_eq!(first.body["job_id"], retry.body["job_id"]);
    assert_eq!(retry.body["accepted"], 1, "the retry is the first answer, not a duplicate update");
}

#[tokio::test]
async fn a_retried_receipt_upload_is_one_receipt_and_one_reading() {
    use entities::{job, receipt};
    use sea_orm::{ColumnTrait, EntityTrait, PaginatorTrait, QueryFilter};

    let app = TestApp::spawn().await;
    let (key, user, connection) = crate::receipts::setup(&app).await;
    let expense = crate::receipts::push(&app, &key, &user, &connection, &[("WALGREENS #1234", 1348, "2026-11-02")])
        .await
        .remove(0);
    let expense_id = expense["id"].as_str().unwrap();
    let path = format!("/users/{user}/expenses/{expense_id}/receipts");
    let upload = |name: &'static str, idempotency_key: &'static str| {
        let part =
            reqwest::multipart::Part::bytes(b"WALGREENS\nIBUPROFEN 13.48\nTOTAL 13.48\n".to_vec()).file_name(name);
        let form = reqwest::multipart::Form::new().part("file", part);
        app.client.post(app.url(&path)).bearer_auth(&key).header("Idempotency-Key", idempotency_key).multipart(form)
    };
    let first = Reply::from(upload("r.txt", "rcpt-1").send().await.unwrap()).await;
    let retry = Reply::from(upload("r.txt", "rcpt-1").send().await.unwrap()).await;
    assert_eq!((first.status, retry.status), (201, 201), "{}", retry.body);
    assert_eq!(first.body["id"], retry.body["id"], "the retry answers the first receipt");
    let stored =
        receipt::Entity::find().filter(receipt::Column::ExpenseId.eq(expense_id)).count(&app.db).await.unwrap();
    assert_eq!(stored, 1, "one file stored");
    let readings = job::Entity::find()
        .filter(job::Column::UserId.eq(user.as_str()))
        .filter(job::Column::Kind.eq("read_receipt"))
        .count(&app.db)
        .await
        .unwrap();
    assert_eq!(readings, 1, "one reading queued");
    // Another file under the same key is refused, not stored.
    let other = Reply::from(upload("other.txt", "rcpt-1").send().await.unwrap()).await;
    other.assert_error(409, "idempotency_key_reused", Some("Idempotency-Key"));
}

#[tokio::test]
async fn every_post_in_the_document_honours_the_key() {
    let document: Value = serde_json::from_str(sail_api::OPENAPI_JSON).unwrap();
    let mut posts = 0;
    for (path, item) in document["paths"].as_object().unwrap() {
        let Some(post) = item.get("post") else { continue };
        posts += 1;
        let method = post["x-sail-grpc-method"].as_str().unwrap();
        let rule = sail_api::access::access_rule(method).unwrap_or_else(|| panic!("{path}: no rule for {method}"));
        assert!(rule.idempotent, "POST {path} ({method}) is not in the idempotency table");
        let parameters = post["parameters"].as_array().unwrap();
        assert!(
            parameters.iter().any(|p| p["name"] == "Idempotency-Key" && p["in"] == "header"),
            "POST {path} does not document Idempotency-Key"
        );
    }
    assert!(posts >= 9, "the document's POSTs were found ({posts})");
}

/// A gRPC caller's retry is replayed by the same layer as a REST caller's:
/// the same receipt, nothing stored or queued twice.
#[tokio::test]
async fn a_retried_grpc_receipt_upload_is_one_receipt() {
    use entities::receipt;
    use sail_api::pb::{self, receipts_client::ReceiptsClient};
    use sea_orm::{ColumnTrait, EntityTrait, PaginatorTrait, QueryFilter};

    let app = TestApp::spawn().await;
    let (key, user, connection) = crate::receipts::setup(&app).await;
    let expense = crate::receipts::push(&app, &key, &user, &connection, &[("WALGREENS #1234", 1348, "2026-11-02")])
        .await
        .remove(0);
    let expense_id = expense["id"].as_str().unwrap().to_string();
    let mut client = ReceiptsClient::connect(format!("http://{}", app.grpc_addr)).await.unwrap();
    let upload = |file: &'static [u8], idempotency_key: &'static str| {
        let mut request = tonic::Request::new(pb::CreateReceiptRequest {
            user_id: user.clone(),
            expense_id: expense_id.clone(),
            file: file.to_vec(),
            file_name: Some("r.txt".into()),
        });
        request.metadata_mut().insert("authorization", format!("Bearer {key}").parse().unwrap());
        request.metadata_mut().insert("idempotency-key", idempotency_key.parse().unwrap());
        request
    };
    let receipt_text = b"WALGREENS\nIBUPROFEN 13.48\nTOTAL 13.48\n";
    let first = client.create_receipt(upload(receipt_text, "grpc-rcpt")).await.unwrap().into_inner();
    let retry = client.create_receipt(upload(receipt_text, "grpc-rcpt")).await.unwrap().into_inner();
    assert_eq!(first, retry, "the retry answers the first receipt");
    let stored = receipt::Entity::find()
        .filter(receipt::Column::ExpenseId.eq(expense_id.as_str()))
        .count(&app.db)
        .await
        .unwrap();
    assert_eq!(stored, 1, "one file stored");
    let other = client.create_receipt(upload(b"OTHER\nTOTAL 13.48\n", "grpc-rcpt")).await.unwrap_err();
    assert_eq!(other.code(), tonic::Code::AlreadyExists, "{other:?}");
    assert!(other.message().contains("different request"), "{}", other.message());
}

/// A reply's one-time secret is shown once: a replay over gRPC answers the
/// endpoint without it, and the stored reply never held it.
#[tokio::test]
async fn a_replayed_grpc_endpoint_creation_answers_without_its_secret() {
    use sail_api::pb::{self, webhook_endpoints_client::WebhookEndpointsClient};

    let app = TestApp::spawn().await;
    let (_, key) = app.partner_key("expenses").await;
    let mut client = WebhookEndpointsClient::connect(format!("http://{}", app.grpc_addr)).await.unwrap();
    let create = || {
        let mut request = tonic::Request::new(pb::CreateWebhookEndpointRequest {
            url: "http://127.0.0.1:9/hook".into(),
            events: vec![],
        });
        request.metadata_mut().insert("authorization", format!("Bearer {key}").parse().unwrap());
        request.metadata_mut().insert("idempotency-key", "grpc-endpoint".parse().unwrap());
        request
    };
    let first = client.create_webhook_endpoint(create()).await.unwrap().into_inner();
    let replay = client.create_webhook_endpoint(create()).await.unwrap().into_inner();
    assert!(first.secret.as_deref().is_some_and(|s| s.starts_with("whsec_")), "{first:?}");
    assert_eq!(replay, pb::WebhookEndpoint { secret: None, ..first }, "the same endpoint, its secret not shown again");
}
