//! `PATCH /users/{user_id}` (gRPC `UpdateUser`): deactivating a user refuses
//! new work for it (`409 user_inactive`) while every read still works;
//! reactivating resumes its syncs; each change of status is an event; the
//! profile is validated as at creation and reads back through the identity
//! endpoint (docs/api-decisions.md, "A user's status").

use serde_json::{Value, json};

use crate::helpers::{TestApp, eventually};
use crate::ingestion::tx;

/// The events of `event_type` the partner has, oldest first.
async fn events_of(app: &TestApp, key: &str, event_type: &str) -> Vec<Value> {
    let reply = app.get(key, &format!("/events?type={event_type}")).await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    let mut events = reply.body["data"].as_array().unwrap().clone();
    events.reverse();
    events
}

#[tokio::test]
async fn an_inactive_user_takes_no_new_work_keeps_its_reads_and_resumes_its_syncs_when_active_again() {
    let app = TestApp::spawn().await;
    let (_, key) = app.partner_key("connections,ingest,expenses").await;
    let user = app.create_user(&key, "lifecycle-1").await;
    let external = app.external_connection(&key, &user).await;
    let card = app.sandbox_connection(&key, json!({"user_id": user, "type": "card"})).await;
    let card_id = card["id"].as_str().unwrap().to_string();
    assert_eq!(events_of(&app, &key, "connection.synced").await.len(), 1, "the first sync");

    let deactivated = app.patch(&key, &format!("/users/{user}"), json!({"status": "inactive"})).await;
    assert_eq!(deactivated.status, 200, "{}", deactivated.body);
    assert_eq!(deactivated.body["status"], "inactive");
    assert_eq!(deactivated.body["id"], user.as_str());
    assert_eq!(deactivated.body["external_user_id"], "lifecycle-1");
    assert_eq!(app.get(&key, &format!("/users/{user}")).await.body["status"], "inactive");
    let inactive = app.get(&key, "/users?status=inactive").await;
    assert_eq!(inactive.body["data"].as_array().unwrap().len(), 1, "{}", inactive.body);
    assert_eq!(inactive.body["data"][0]["id"], user.as_str());

    // New work is refused, naming the user.
    let path = format!("/users/{user}/connections/{external}/transactions");
    let push = app.post(&key, &path, json!({"transactions": [tx("a", "LABCORP", Some("8071"), 5.0)]})).await;
    push.assert_error(409, "user_inactive", Some("user_id"));
    app.post(&key, &format!("/users/{user}/connections"), json!({"type": "external", "provider_label": "Bank"}))
        .await
        .assert_error(409, "user_inactive", Some("user_id"));
    app.post(&key, "/sandbox/connections", json!({"user_id": user, "type": "card"})).await.assert_error(
        409,
        "user_inactive",
        Some("user_id"),
    );
    let session = json!({"user_id": user, "flow": "connect_account", "options": {"connection_type": "card"}});
    app.post(&key, "/hosted-sessions", session).await.assert_error(409, "user_inactive", Some("user_id"));

    // Reads still work.
    let connections = app.get(&key, &format!("/users/{user}/connections")).await;
    assert_eq!(connections.status, 200);
    assert_eq!(connections.body["pagination"]["total"], 2);
    let expenses = app.get(&key, &format!("/users/{user}/expenses")).await;
    assert_eq!(expenses.status, 200);
    assert!(expenses.body["pagination"]["total"].as_u64().unwrap() > 0, "the card's expenses are still there");

    let deactivations = events_of(&app, &key, "user.deactivated").await;
    assert_eq!(deactivations.len(), 1);
    assert_eq!(deactivations[0]["data"], json!({"user_id": user}));

    // The same status again changes nothing and sends nothing.
    let again = app.patch(&key, &format!("/users/{user}"), json!({"status": "inactive"})).await;
    assert_eq!(again.status, 200);
    assert_eq!(events_of(&app, &key, "user.deactivated").await.len(), 1);

    // Active again: the card connection syncs anew; the external one has
    // nothing to sync.
    let reactivated = app.patch(&key, &format!("/users/{user}"), json!({"status": "active"})).await;
    assert_eq!(reactivated.status, 200, "{}", reactivated.body);
    assert_eq!(reactivated.body["status"], "active");
    let reactivations = events_of(&app, &key, "user.reactivated").await;
    assert_eq!(reactivations.len(), 1);
    assert_eq!(reactivations[0]["data"], json!({"user_id": user, "syncs_queued": 1}));
    let synced = eventually("the resumed sync", std::time::Duration::from_secs(30), || async {
        let synced = events_of(&app, &key, "connection.synced").await;
        (synced.len() == 2).then_some(synced)
    })
    .await;
    assert_eq!(synced[1]["data"]["connection_id"], card_id.as_str());
    let push = app.post(&key, &path, json!({"transactions": [tx("a", "LABCORP", Some("8071"), 5.0)]})).await;
    assert_eq!(push.status, 202, "{}", push.body);
}

#[tokio::test]
async fn a_profile_change_is_validated_like_creation_and_reads_back_through_identity() {
    let app = TestApp::spawn().await;
    let (partner_id, key) = app.partner_key("identity").await;
    let admin = app.key_for(&partner_id, "token_admin").await;
    let created = app
        .post(&key, "/users", json!({"external_user_id": "lifecycle-2", "first_name": "Jane", "email": "jane@example.com", "address": {"city": "Austin", "country": "US"}}))
        .await;
    assert_eq!(created.status, 201, "{}", created.body);
    let user = created.body["id"].as_str().unwrap().to_string();
    let path = format!("/users/{user}");

    for (body, param) in [
        (json!({"email": "not-an-email"}), "email"),
        (json!({"first_name": "   "}), "first_name"),
        (json!({"phone": "12"}), "phone"),
        (json!({"address": {"country": "XX"}}), "address.country"),
        (json!({"address": [null, null]}), "address"),
        (json!({"status": "deleted"}), "status"),
        (json!({"nickname": "J"}), "nickname"),
    ] {
        app.patch(&key, &path, body.clone()).await.assert_error(400, "invalid_request", Some(param));
    }
    app.patch(&key, "/users/usr_0193a5b2c4d87e6f9a0b1c2d3e4f5a6b", json!({"first_name": "X"})).await.assert_error(
        404,
        "not_found",
        Some("user_id"),
    );
    let (_, stranger) = app.partner_key("identity").await;
    app.patch(&stranger, &path, json!({"first_name": "X"})).await.assert_error(404, "not_found", Some("user_id"));

    let changed = app.patch(&key, &path, json!({"first_name": "Janet", "address": {"city": "Dallas"}})).await;
    assert_eq!(changed.status, 200, "{}", changed.body);
    assert_eq!(changed.body["status"], "active", "a profile change leaves the status");
    assert!(changed.body.get("first_name").is_none(), "the user endpoints show no profile: {}", changed.body);
    assert!(events_of(&app, &key, "user.deactivated").await.is_empty());

    let token = app.post(&admin, "/user-tokens", json!({"user_id": user, "scopes": ["identity"]})).await;
    assert_eq!(token.status, 201, "{}", token.body);
    let identity = app
        .client
        .get(app.url(&format!("/users/{user}/identity")))
        .bearer_auth(&key)
        .header("Sail-User-Token", token.body["token"].as_str().unwrap())
        .send()
        .await
        .unwrap();
    let identity: Value = identity.json().await.unwrap();
    let profile = &identity["records"][0];
    assert_eq!(profile["source"], "profile", "{identity}");
    let text = profile.to_string();
    assert!(text.contains("Janet") && !text.contains("\"Jane\""), "the new first name: {text}");
    assert!(text.contains("jane@example.com"), "the email kept: {text}");
    assert!(text.contains("Dallas") && !text.contains("Austin"), "the city replaced: {text}");
    assert!(text.contains("US"), "the country kept: {text}");
}

#[tokio::test]
async fn grpc_callers_deactivate_and_meet_the_same_refusal() {
    use sail_api::pb::{self, transactions_client::TransactionsClient, users_client::UsersClient};
    use tonic_types::StatusExt;

    let app = TestApp::spawn().await;
    let (key, user, connection) = crate::ingestion::setup(&app).await;
    fn authorized<T>(message: T, key: &str) -> tonic::Request<T> {
        let mut request = tonic::Request::new(message);
        request.metadata_mut().insert("authorization", format!("Bearer {key}").parse().unwrap());
        request
    }
    let mut users = UsersClient::connect(format!("http://{}", app.grpc_addr)).await.unwrap();
    let update = pb::UpdateUserRequest { user_id: user.clone(), status: Some("inactive".into()), ..Default::default() };
    let updated = users.update_user(authorized(update, &key)).await.unwrap().into_inner();
    assert_eq!(updated.status, "inactive");

    let mut transactions = TransactionsClient::connect(format!("http://{}", app.grpc_addr)).await.unwrap();
    let push = pb::PushTransactionsRequest {
        user_id: user.clone(),
        connection_id: connection.clone(),
        transactions: vec![pb::PushedTransaction {
            external_transaction_id: "g1".into(),
            date: "2026-11-01".into(),
            amount: 5.0,
            description: "LABCORP".into(),
            ..Default::default()
        }],
    };
    let refused = transactions.push_transactions(authorized(push, &key)).await.unwrap_err();
    assert_eq!(refused.code(), tonic::Code::FailedPrecondition, "{refused:?}");
    let info = refused.get_error_details().error_info().cloned().unwrap();
    assert_eq!(info.reason, "USER_INACTIVE");
    assert_eq!(info.metadata.get("param").map(String::as_str), Some("user_id"));

    let bad = pb::UpdateUserRequest { user_id: user.clone(), email: Some("nope".into()), ..Default::default() };
    let refused = users.update_user(authorized(bad, &key)).await.unwrap_err();
    assert_eq!(refused.code(), tonic::Code::InvalidArgument);
    assert_eq!(refused.get_error_details().error_info().unwrap().metadata["param"], "email");
}
