//! `/users/{user_id}/connections`: external connections created through the
//! API, reading, disconnecting, and every refusal.

use serde_json::json;

use crate::helpers::TestApp;

#[tokio::test]
async fn an_external_connection_has_every_field_of_the_contract() {
    let app = TestApp::spawn().await;
    let (_, key) = app.partner_key("connections").await;
    let user = app.create_user(&key, "u1").await;
    let reply = app
        .post(
            &key,
            &format!("/users/{user}/connections"),
            json!({"type": "external", "provider_label": "Chase Checking"}),
        )
        .await;
    assert_eq!(reply.status, 201, "{}", reply.body);
    let c = &reply.body;
    assert!(c["id"].as_str().unwrap().starts_with("conn_"));
    assert_eq!(c["user_id"], user);
    assert_eq!(c["type"], "external");
    assert_eq!(c["status"], "active");
    assert_eq!(c["products"], json!(["expenses"]));
    assert_eq!(c["accounts"], json!([]));
    assert_eq!(c["provider"], json!({"id": null, "name": "Chase Checking", "kind": "external", "icon_url": null}));
    assert_eq!(c["error"], json!(null));
    assert_eq!(c["last_sync_at"], json!(null));
    assert!(c["created_at"].as_str().unwrap().ends_with('Z'));
    assert!(c["updated_at"].as_str().unwrap().ends_with('Z'));
    let mut fields: Vec<_> = c.as_object().unwrap().keys().cloned().collect();
    fields.sort();
    assert_eq!(
        fields,
        [
            "accounts",
            "created_at",
            "error",
            "id",
            "last_sync_at",
            "products",
            "provider",
            "status",
            "type",
            "updated_at",
            "user_id"
        ]
    );

    let explicit = app
        .post(
            &key,
            &format!("/users/{user}/connections"),
            json!({"type": "external", "provider_label": "B", "products": ["expenses"]}),
        )
        .await;
    assert_eq!(explicit.status, 201, "{}", explicit.body);
    assert_eq!(explicit.body["products"], json!(["expenses"]));
}

#[tokio::test]
async fn only_external_connections_with_a_label_and_the_expenses_product() {
    let app = TestApp::spawn().await;
    let (_, key) = app.partner_key("connections").await;
    let user = app.create_user(&key, "u1").await;
    let path = format!("/users/{user}/connections");
    for kind in ["card", "store", "benefit_account", "bank", ""] {
        let reply = app.post(&key, &path, json!({"type": kind, "provider_label": "B"})).await;
        reply.assert_error(400, "invalid_request", Some("type"));
        assert!(reply.body["error"]["message"].as_str().unwrap().contains("type must be external"), "{}", reply.body);
    }
    app.post(&key, &path, json!({"provider_label": "B"})).await.assert_error(400, "invalid_request", Some("type"));
    app.post(&key, &path, json!({"type": "external"})).await.assert_error(
        400,
        "invalid_request",
        Some("provider_label"),
    );
    app.post(&key, &path, json!({"type": "external", "provider_label": "  "})).await.assert_error(
        400,
        "invalid_request",
        Some("provider_label"),
    );
    app.post(&key, &path, json!({"type": "external", "provider_label": "B", "products": ["expenses", "identity"]}))
        .await
        .assert_error(400, "invalid_request", Some("products.1"));
    app.post(&key, &path, json!({"type": "external", "provider_label": "B", "products": ["benefit_account"]}))
        .await
        .assert_error(400, "invalid_request", Some("products.0"));
    app.post(&key, &path, json!({"type": "external", "provider_label": "B", "products": "expenses"}))
        .await
        .assert_error(400, "invalid_request", Some("products"));
    app.post(&key, &path, json!({"type": "external", "provider_label": "B", "colour": "red"})).await.assert_error(
        400,
        "invalid_request",
        Some("colour"),
    );
    assert_eq!(app.get(&key, &path).await.body["pagination"]["total"], 0, "nothing refused was stored");
}

#[tokio::test]
async fn scopes_of_the_connection_endpoints() {
    let app = TestApp::spawn().await;
    let (partner, key) = app.partner_key("connections").await;
    let user = app.create_user(&key, "u1").await;
    let path = format!("/users/{user}/connections");
    let body = json!({"type": "external", "provider_label": "B"});
    let created = app.post(&key, &path, body.clone()).await.body;
    let one = format!("{path}/{}", created["id"].as_str().unwrap());

    for scopes in ["expenses", "benefit_account", "ingest", "identity"] {
        let other = app.key_for(&partner, scopes).await;
        app.post(&other, &path, body.clone()).await.assert_error(403, "insufficient_key_scope", None);
    }
    for scopes in ["expenses", "benefit_account"] {
        let reader = app.key_for(&partner, scopes).await;
        assert_eq!(app.get(&reader, &path).await.status, 200, "{scopes}");
        assert_eq!(app.get(&reader, &one).await.status, 200, "{scopes}");
    }
    for scopes in ["ingest", "identity", "account_numbers"] {
        let other = app.key_for(&partner, scopes).await;
        app.get(&other, &path).await.assert_error(403, "insufficient_key_scope", None);
        app.get(&other, &one).await.assert_error(403, "insufficient_key_scope", None);
        app.delete(&other, &one).await.assert_error(403, "insufficient_key_scope", None);
    }
}

#[tokio::test]
async fn disconnecting_keeps_the_connection_for_history() {
    let app = TestApp::spawn().await;
    let (_, key) = app.partner_key("connections").await;
    let user = app.create_user(&key, "u1").await;
    let path = format!("/users/{user}/connections");
    let created = app.post(&key, &path, json!({"type": "external", "provider_label": "B"})).await.body;
    let one = format!("{path}/{}", created["id"].as_str().unwrap());

    let deleted = app.delete(&key, &one).await;
    assert_eq!(deleted.status, 200, "{}", deleted.body);
    assert_eq!(deleted.body["status"], "disconnected");
    assert_eq!(deleted.body["id"], created["id"]);
    assert_eq!(app.get(&key, &one).await.body["status"], "disconnected");
    let listed = app.get(&key, &path).await.body;
    assert_eq!(listed["pagination"]["total"], 1);
    assert_eq!(listed["data"][0]["status"], "disconnected");
    let again = app.delete(&key, &one).await;
    assert_eq!(again.status, 200);
    assert_eq!(again.body["updated_at"], deleted.body["updated_at"], "disconnecting twice changes nothing");
}

#[tokio::test]
async fn lists_are_newest_first_and_paginated() {
    let app = TestApp::spawn().await;
    let (_, key) = app.partner_key("connections").await;
    let user = app.create_user(&key, "u1").await;
    let path = format!("/users/{user}/connections");
    let mut ids = Vec::new();
    for label in ["A", "B", "C"] {
        ids.push(app.post(&key, &path, json!({"type": "external", "provider_label": label})).await.body["id"].clone());
    }
    let page = app.get(&key, &format!("{path}?limit=2")).await.body;
    assert_eq!(page["data"][0]["id"], ids[2]);
    assert_eq!(page["data"][1]["id"], ids[1]);
    assert_eq!(page["pagination"], json!({"total": 3, "limit": 2, "offset": 0, "has_more": true}));
    app.get(&key, &format!("{path}?limit=0")).await.assert_error(400, "invalid_request", Some("limit"));
}

#[tokio::test]
async fn tenants_and_users_are_isolated() {
    let app = TestApp::spawn().await;
    let (_, mine) = app.partner_key("connections").await;
    let (_, theirs) = app.partner_key("connections").await;
    let my_user = app.create_user(&mine, "u1").await;
    let my_other_user = app.create_user(&mine, "u2").await;
    let their_user = app.create_user(&theirs, "u1").await;
    let their_conn = app
        .post(&theirs, &format!("/users/{their_user}/connections"), json!({"type": "external", "provider_label": "B"}))
        .await
        .body["id"]
        .as_str()
        .unwrap()
        .to_string();
    let my_conn = app
        .post(&mine, &format!("/users/{my_user}/connections"), json!({"type": "external", "provider_label": "B"}))
        .await
        .body["id"]
        .as_str()
        .unwrap()
        .to_string();

    // Another partner's user, by every id-taking connection endpoint.
    app.get(&mine, &format!("/users/{their_user}/connections")).await.assert_error(404, "not_found", Some("user_id"));
    app.post(&mine, &format!("/users/{their_user}/connections"), json!({"type": "external", "provider_label": "B"}))
        .await
        .assert_error(404, "not_found", Some("user_id"));
    app.get(&mine, &format!("/users/{their_user}/connections/{their_conn}")).await.assert_error(
        404,
        "not_found",
        Some("user_id"),
    );
    app.delete(&mine, &format!("/users/{their_user}/connections/{their_conn}")).await.assert_error(
        404,
        "not_found",
        Some("user_id"),
    );
    // Another partner's connection under my own user.
    app.get(&mine, &format!("/users/{my_user}/connections/{their_conn}")).await.assert_error(
        404,
        "not_found",
        Some("connection_id"),
    );
    app.delete(&mine, &format!("/users/{my_user}/connections/{their_conn}")).await.assert_error(
        404,
        "not_found",
        Some("connection_id"),
    );
    // My connection under my other user.
    app.get(&mine, &format!("/users/{my_other_user}/connections/{my_conn}")).await.assert_error(
        404,
        "not_found",
        Some("connection_id"),
    );
    assert_eq!(
        app.get(&theirs, &format!("/users/{their_user}/connections/{their_conn}")).await.body["status"],
        "active"
    );
    app.get(&mine, "/users/usr_0190f0b1c2d37e8f9a0b1c2d3e4f5a6b/connections").await.assert_error(
        404,
        "not_found",
        Some("user_id"),
    );
}
