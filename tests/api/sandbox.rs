//! `/sandbox/connections` and the sandbox providers: linking every kind,
//! the sandbox usernames, determinism, scopes, and sandbox mode off.

use core_grpc::CoreConfig;
use entities::transaction;
use sea_orm::{ColumnTrait, EntityTrait, PaginatorTrait, QueryFilter};
use serde_json::{Value, json};

use crate::helpers::{Options, TestApp};

async fn administrator_id(app: &TestApp, key: &str, name: &str) -> String {
    let admins = app.get(key, &format!("/administrators?search={}", name.replace(' ', "+"))).await.body;
    admins["data"][0]["id"].as_str().unwrap().to_string()
}

#[tokio::test]
async fn a_benefit_account_login_links_and_syncs_its_accounts() {
    let app = TestApp::spawn().await;
    let (_, key) = app.partner_key("benefit_account").await;
    let user = app.create_user(&key, "member-1").await;
    let admin = administrator_id(&app, &key, "HealthEquity").await;

    let created = app
        .post(&key, "/sandbox/connections", json!({"user_id": user, "type": "benefit_account", "provider_id": admin}))
        .await;
    assert_eq!(created.status, 201, "{}", created.body);
    assert_eq!(created.body["status"], "aggregating");
    assert_eq!(created.body["last_sync_at"], Value::Null);
    let id = created.body["id"].as_str().unwrap();
    let synced = app.wait_for_connection(&key, &user, id).await;

    assert_eq!(synced["status"], "active");
    assert!(synced["last_sync_at"].as_str().unwrap().ends_with('Z'));
    assert_eq!(synced["type"], "benefit_account");
    assert_eq!(synced["products"], json!(["benefit_account", "account_numbers", "identity"]));
    assert_eq!(synced["provider"]["kind"], "administrator");
    assert_eq!(synced["provider"]["id"], admin);
    assert_eq!(synced["provider"]["name"], "HealthEquity");
    assert_eq!(synced["error"], Value::Null);
    let accounts = synced["accounts"].as_array().unwrap();
    assert!((1..=3).contains(&accounts.len()), "{synced}");
    for account in accounts {
        assert!(account["id"].as_str().unwrap().starts_with("acct_"));
        assert!(["hsa", "fsa", "hra"].contains(&account["type"].as_str().unwrap()));
        assert!(account["name"].as_str().unwrap().starts_with("HealthEquity"));
    }
}

#[tokio::test]
async fn card_and_store_connections_sync_a_purchase_history() {
    let app = TestApp::spawn().await;
    let (_, key) = app.partner_key("expenses").await;
    let user = app.create_user(&key, "shopper").await;
    let card = app.sandbox_connection(&key, json!({"user_id": user, "type": "card"})).await;
    assert_eq!(card["status"], "active");
    assert_eq!(card["products"], json!(["expenses"]));
    assert_eq!(card["accounts"], json!([]));
    assert_eq!(card["provider"]["kind"], "financial_institution");
    assert!(card["provider"]["id"].as_str().unwrap().starts_with("fin_"));

    let cvs = app.get(&key, "/merchants?search=cvs+pharmacy").await.body["data"][0]["id"].clone();
    let store = app.sandbox_connection(&key, json!({"user_id": user, "type": "store", "provider_id": cvs})).await;
    assert_eq!(store["status"], "active");
    assert_eq!(store["provider"], json!({"id": cvs, "name": "CVS Pharmacy", "kind": "merchant", "icon_url": null}));

    for (connection, minimum) in [(&card, 18), (&store, 8)] {
        let count = transaction::Entity::find()
            .filter(transaction::Column::ConnectionId.eq(connection["id"].as_str().unwrap()))
            .count(&app.db)
            .await
            .unwrap();
        assert!(count >= minimum, "{count} purchases on {}", connection["type"]);
    }
    let with_items = transaction::Entity::find()
        .filter(transaction::Column::ConnectionId.eq(store["id"].as_str().unwrap()))
        .filter(transaction::Column::ItemsJson.is_not_null())
        .count(&app.db)
        .await
        .unwrap();
    assert!(with_items >= 8, "store purchases carry item-level data");
}

#[tokio::test]
async fn user_error_lands_in_a_recoverable_error_and_user_bad_is_refused() {
    let app = TestApp::spawn().await;
    let (_, key) = app.partner_key("expenses,benefit_account").await;
    let user = app.create_user(&key, "u1").await;
    let errored = app
        .sandbox_connection(&key, json!({"user_id": user, "type": "benefit_account", "username": "user_error"}))
        .await;
    assert_eq!(errored["status"], "error");
    assert_eq!(errored["error"]["recoverable"], true);
    assert!(!errored["error"]["code"].as_str().unwrap().is_empty());
    assert!(!errored["error"]["message"].as_str().unwrap().is_empty());
    assert_eq!(errored["accounts"], json!([]));
    assert_eq!(errored["last_sync_at"], Value::Null);

    let refused =
        app.post(&key, "/sandbox/connections", json!({"user_id": user, "type": "card", "username": "user_bad"})).await;
    refused.assert_error(400, "invalid_request", Some("username"));
    assert!(refused.body["error"]["message"].as_str().unwrap().contains("user_bad"));
    app.post(&key, "/sandbox/connections", json!({"user_id": user, "type": "card", "username": "someone"}))
        .await
        .assert_error(400, "invalid_request", Some("username"));
    let listed = app.get(&key, &format!("/users/{user}/connections")).await.body;
    assert_eq!(listed["pagination"]["total"], 1, "only the user_error connection exists");
}

#[tokio::test]
async fn sandbox_requests_are_validated() {
    let app = TestApp::spawn().await;
    let (_, key) = app.partner_key("expenses,benefit_account").await;
    let (_, theirs) = app.partner_key("expenses").await;
    let user = app.create_user(&key, "u1").await;
    let their_user = app.create_user(&theirs, "u1").await;
    let post = |body: Value| app.post(&key, "/sandbox/connections", body);
    post(json!({"user_id": user, "type": "external"})).await.assert_error(400, "invalid_request", Some("type"));
    post(json!({"user_id": user})).await.assert_error(400, "invalid_request", Some("type"));
    post(json!({"type": "card"})).await.assert_error(400, "invalid_request", Some("user_id"));
    post(json!({"user_id": user, "type": "store", "provider_id": "mer_0190f0b1c2d37e8f9a0b1c2d3e4f5a6b"}))
        .await
        .assert_error(404, "not_found", Some("provider_id"));
    let admin = administrator_id(&app, &key, "HSA Bank").await;
    post(json!({"user_id": user, "type": "store", "provider_id": admin})).await.assert_error(
        404,
        "not_found",
        Some("provider_id"),
    );
    post(json!({"user_id": their_user, "type": "card"})).await.assert_error(404, "not_found", Some("user_id"));
    // Each type offers its own products, and the document says which: what
    // it calls valid links, and what the core refuses it calls invalid.
    let document: Value = serde_json::from_str(sail_api::OPENAPI_JSON).unwrap();
    let schema = crate::webhooks::document_schema(&document, "CreateSandboxConnectionRequest");
    let offered = [
        ("card", vec!["expenses"]),
        ("store", vec!["expenses"]),
        ("benefit_account", vec!["benefit_account", "account_numbers", "identity"]),
    ];
    for (kind, products) in &offered {
        for product in ["expenses", "benefit_account", "account_numbers", "identity"] {
            let body = json!({"user_id": user, "type": kind, "products": [product]});
            let reply = post(body.clone()).await;
            if products.contains(&product) {
                assert!(schema.is_valid(&body), "the document refuses {body}");
                assert_eq!(reply.status, 201, "{body}: {}", reply.body);
                assert_eq!(reply.body["products"], json!([product]));
            } else {
                assert!(!schema.is_valid(&body), "the document admits {body}");
                reply.assert_error(400, "invalid_request", Some("products.0"));
            }
        }
    }
}

#[tokio::test]
async fn linking_needs_the_scope_of_the_hosted_session() {
    let app = TestApp::spawn().await;
    let (partner, expenses) = app.partner_key("expenses").await;
    let benefits = app.key_for(&partner, "benefit_account").await;
    let ingest = app.key_for(&partner, "ingest").await;
    let user = app.create_user(&expenses, "u1").await;
    app.post(&expenses, "/sandbox/connections", json!({"user_id": user, "type": "benefit_account"}))
        .await
        .assert_error(403, "insufficient_key_scope", None);
    app.post(&benefits, "/sandbox/connections", json!({"user_id": user, "type": "card"})).await.assert_error(
        403,
        "insufficient_key_scope",
        None,
    );
    app.post(&ingest, "/sandbox/connections", json!({"user_id": user, "type": "store"})).await.assert_error(
        403,
        "insufficient_key_scope",
        None,
    );
    assert_eq!(
        app.post(&benefits, "/sandbox/connections", json!({"user_id": user, "type": "benefit_account"})).await.status,
        201
    );
    assert_eq!(
        app.post(&expenses, "/sandbox/connections", json!({"user_id": user, "type": "store"})).await.status,
        201
    );
}

#[tokio::test]
async fn the_same_user_and_provider_get_the_same_sandbox_data() {
    let app = TestApp::spawn().await;
    let (_, first) = app.partner_key("benefit_account").await;
    let (_, second) = app.partner_key("benefit_account").await;
    let admin = administrator_id(&app, &first, "Optum Financial").await;
    let mut snapshots = Vec::new();
    for key in [&first, &second] {
        let user = app.create_user(key, "same-member").await;
        let linked = app
            .sandbox_connection(key, json!({"user_id": user, "type": "benefit_account", "provider_id": admin}))
            .await;
        let accounts = app.get(key, &format!("/users/{user}/accounts")).await.body;
        let stable: Vec<Value> = accounts["data"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| json!([a["external_id"], a["name"], a["type"], a["start_date"], a["end_date"], a["balance"]]))
            .collect();
        assert_eq!(stable.len(), linked["accounts"].as_array().unwrap().len());
        snapshots.push(stable);
    }
    assert_eq!(snapshots[0], snapshots[1]);
}

#[tokio::test]
async fn sandbox_endpoints_are_404_when_sandbox_mode_is_off() {
    let options = Options {
        core: CoreConfig { sandbox: false, rate_limit_rps: 0, ..sail_test_support::serve_defaults() },
        ..Default::default()
    };
    let app = TestApp::spawn_with(options).await;
    let (_, key) = app.partner_key("expenses").await;
    let user = app.create_user(&key, "u1").await;
    app.post(&key, "/sandbox/connections", json!({"user_id": user, "type": "card"})).await.assert_error(
        404,
        "not_found",
        None,
    );
    app.post(&key, "/sandbox/events", json!({"type": "user.deleted"})).await.assert_error(404, "not_found", None);
}

#[tokio::test]
async fn a_test_event_of_every_type_is_listed_and_delivered_signed_with_its_schema() {
    // Every type: EventType::ALL, which a test in `entities` holds equal to
    // the table of docs/webhooks.md.
    use entities::enums::EventType;
    let options = Options {
        core: CoreConfig { webhook_allow_private: true, rate_limit_rps: 0, ..sail_test_support::serve_defaults() },
        ..Default::default()
    };
    let app = TestApp::spawn_with(options).await;
    let (_, key) = app.partner_key("expenses").await;
    let receiver = crate::webhooks::Receiver::start(0).await;
    let endpoint = app.post(&key, "/webhook-endpoints", json!({"url": receiver.url})).await;
    assert_eq!(endpoint.status, 201, "{}", endpoint.body);
    let secret = endpoint.body["secret"].as_str().unwrap().to_string();
    let user = app.create_user(&key, "u1").await;

    let document: Value = serde_json::from_str(sail_api::OPENAPI_JSON).unwrap();
    let event_schema = crate::webhooks::document_schema(&document, "Event");
    let mut fired = std::collections::BTreeMap::new();
    for kind in EventType::ALL {
        let reply = app.post(&key, "/sandbox/events", json!({"type": kind.as_str(), "user_id": user})).await;
        assert_eq!(reply.status, 201, "{kind}: {}", reply.body);
        let errors: Vec<String> = event_schema.iter_errors(&reply.body).map(|e| e.to_string()).collect();
        assert!(errors.is_empty(), "{kind}: {errors:?} in {}", reply.body);
        assert_eq!(reply.body["type"], kind.as_str());
        assert_eq!(reply.body["data"]["user_id"], user.as_str(), "{kind}");
        fired.insert(reply.body["id"].as_str().unwrap().to_string(), kind.as_str());
    }
    // Without a user, ids made for the test, well-formed and naming nothing.
    let anonymous = app.post(&key, "/sandbox/events", json!({"type": "user.deactivated"})).await;
    assert_eq!(anonymous.status, 201, "{}", anonymous.body);
    let made = anonymous.body["data"]["user_id"].as_str().unwrap().to_string();
    assert!(made.starts_with("usr_") && made != user);
    app.get(&key, &format!("/users/{made}")).await.assert_error(404, "not_found", Some("user_id"));

    // Each is in the events list and reaches the endpoint, signed, with
    // the data schema of its type.
    let listed = app.get(&key, "/events?limit=100").await.body;
    let listed: Vec<&str> = listed["data"].as_array().unwrap().iter().map(|e| e["id"].as_str().unwrap()).collect();
    assert!(fired.keys().all(|id| listed.contains(&id.as_str())));
    let received = receiver.wait_for(fired.len() + 1).await;
    for delivery in &received {
        let body: Value = serde_json::from_slice(&delivery.body).unwrap();
        let signature = delivery.headers["sail-signature"].to_str().unwrap();
        assert!(crate::webhooks::python_verifies(&secret, signature, &delivery.body), "{body}");
        let kind = body["type"].as_str().unwrap();
        let data = document["webhooks"][kind]["post"]["requestBody"]["content"]["application/json"]["schema"]
            ["properties"]["data"]["$ref"]
            .as_str()
            .unwrap();
        let data_schema = crate::webhooks::document_schema(&document, data.rsplit('/').next().unwrap());
        let errors: Vec<String> = data_schema.iter_errors(&body["data"]).map(|e| e.to_string()).collect();
        assert!(errors.is_empty(), "{kind}: {errors:?} in {body}");
    }
    let delivered: std::collections::BTreeSet<&str> =
        received.iter().map(|d| d.headers["sail-event-type"].to_str().unwrap()).collect();
    assert_eq!(delivered.len(), EventType::ALL.len());

    // Refusals: a user of no one's, a type that does not exist.
    app.post(
        &key,
        "/sandbox/events",
        json!({"type": "user.deleted", "user_id": "usr_0193a5b2c4d87e6f9a0b1c2d3e4f5a6b"}),
    )
    .await
    .assert_error(404, "not_found", Some("user_id"));
    app.post(&key, "/sandbox/events", json!({"type": "user.exploded"})).await.assert_error(
        400,
        "invalid_request",
        Some("type"),
    );
    app.post(&key, "/sandbox/events", json!({})).await.assert_error(400, "invalid_request", Some("type"));
}

#[tokio::test]
async fn grpc_callers_fire_test_events_too() {
    use sail_api::pb::{self, sandbox_client::SandboxClient};
    let app = TestApp::spawn().await;
    let (_, key) = app.partner_key("expenses").await;
    let mut client = SandboxClient::connect(format!("http://{}", app.grpc_addr)).await.unwrap();
    let mut request = tonic::Request::new(pb::CreateSandboxEventRequest { r#type: "job.failed".into(), user_id: None });
    request.metadata_mut().insert("authorization", format!("Bearer {key}").parse().unwrap());
    let event = client.create_sandbox_event(request).await.unwrap().into_inner();
    assert_eq!(event.r#type, "job.failed");
    assert_eq!(app.get(&key, &format!("/events/{}", event.id)).await.body["type"], "job.failed");
    let mut request = tonic::Request::new(pb::CreateSandboxEventRequest { r#type: "nope".into(), user_id: None });
    request.metadata_mut().insert("authorization", format!("Bearer {key}").parse().unwrap());
    let refused = client.create_sandbox_event(request).await.unwrap_err();
    assert_eq!(refused.code(), tonic::Code::InvalidArgument);
}
