//! `/users/{user_id}/expenses`: filters, pagination, products, and the
//! sandbox purchase history adjudicated by the same engine.

use serde_json::json;

use crate::helpers::TestApp;
use crate::ingestion::{push, setup, tx, wait_for_job};

#[tokio::test]
async fn filters_by_status_connection_and_dates() {
    let app = TestApp::spawn().await;
    let (key, user, connection) = setup(&app).await;
    let mut batch = vec![
        tx("e1", "QUEST DIAGNOSTICS", Some("8071"), 50.0),
        tx("e2", "UBER *TRIP", Some("4121"), 12.0),
        tx("e3", "TARGET T-1820", Some("5310"), 30.0),
    ];
    batch[0]["date"] = json!("2026-09-15");
    batch[1]["date"] = json!("2026-10-15");
    batch[2]["date"] = json!("2026-11-15");
    let reply = push(&app, &key, &user, &connection, batch).await;
    wait_for_job(&app, &key, reply.body["job_id"].as_str().unwrap()).await;
    let list = |query: &str| {
        let path = format!("/users/{user}/expenses?{query}");
        let key = key.clone();
        let app = &app;
        async move { app.get(&key, &path).await }
    };
    let ids = |body: &serde_json::Value| -> Vec<String> {
        body["data"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e["external_transaction_id"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(ids(&list("").await.body), ["e3", "e2", "e1"], "newest purchase first");
    assert_eq!(ids(&list("status=eligible").await.body), ["e1"]);
    assert_eq!(ids(&list("status=needs_review").await.body), ["e3"]);
    assert_eq!(ids(&list("status=pending").await.body), Vec::<String>::new());
    assert_eq!(ids(&list("from=2026-10-01").await.body), ["e3", "e2"]);
    assert_eq!(ids(&list("to=2026-10-15").await.body), ["e2", "e1"]);
    assert_eq!(ids(&list("from=2026-10-15&to=2026-10-15").await.body), ["e2"]);
    assert_eq!(ids(&list(&format!("connection_id={connection}")).await.body).len(), 3);
    let page = list("limit=2&offset=1").await.body;
    assert_eq!(ids(&page), ["e2", "e1"]);
    assert_eq!(page["pagination"], json!({"total": 3, "limit": 2, "offset": 1, "has_more": false}));

    list("status=approved").await.assert_error(400, "invalid_request", Some("status"));
    list("from=2026-13-01").await.assert_error(400, "invalid_request", Some("from"));
    list("to=yesterday").await.assert_error(400, "invalid_request", Some("to"));
    list("from=2026-11-01&to=2026-10-01").await.assert_error(400, "invalid_request", Some("from"));
    list("limit=101").await.assert_error(400, "invalid_request", Some("limit"));
    app.get(&key, &format!("/users/{user}/expenses/exp_0190f0b1c2d37e8f9a0b1c2d3e4f5a6b")).await.assert_error(
        404,
        "not_found",
        Some("expense_id"),
    );
}

/// The listing reads the user only when its page is empty: an unknown user,
/// a malformed id and another partner's user (with expenses of their own)
/// are all `404 user_id`, and a known user without expenses is an empty
/// page, on the first page and past the end alike.
#[tokio::test]
async fn only_the_partners_own_users_have_expenses_to_list() {
    let app = TestApp::spawn().await;
    let (key, user, connection) = setup(&app).await;
    let reply = push(&app, &key, &user, &connection, vec![tx("o1", "QUEST DIAGNOSTICS", Some("8071"), 50.0)]).await;
    wait_for_job(&app, &key, reply.body["job_id"].as_str().unwrap()).await;
    let (_, other_key) = app.partner_key("expenses,connections").await;
    let unknown = "usr_0190f0b1c2d37e8f9a0b1c2d3e4f5a6b";
    for (caller, path) in [
        (&other_key, format!("/users/{user}/expenses")),
        (&other_key, format!("/users/{user}/expenses?offset=50")),
        (&other_key, format!("/users/{user}/expenses?status=eligible")),
        (&key, format!("/users/{unknown}/expenses")),
        (&key, "/users/not-a-user/expenses".to_string()),
        (&key, format!("/users/{unknown}/expenses?from=2026-11-01&to=2026-10-01")),
    ] {
        app.get(caller, &path).await.assert_error(404, "not_found", Some("user_id"));
    }
    let listed = app.get(&key, &format!("/users/{user}/expenses")).await;
    assert_eq!(listed.body["pagination"]["total"], 1, "{}", listed.body);
    let empty_user = app.create_user(&key, "no-expenses").await;
    for query in ["", "?offset=50", "?status=eligible"] {
        let empty = app.get(&key, &format!("/users/{empty_user}/expenses{query}")).await;
        assert_eq!(empty.status, 200, "{}", empty.body);
        assert_eq!(empty.body["data"], json!([]));
        assert_eq!(empty.body["pagination"]["total"], 0);
    }
}

#[tokio::test]
async fn a_connection_without_the_expenses_product_is_refused() {
    let app = TestApp::spawn().await;
    let (_, key) = app.partner_key("expenses,benefit_account").await;
    let user = app.create_user(&key, "u").await;
    let benefits = app.sandbox_connection(&key, json!({"user_id": user, "type": "benefit_account"})).await;
    app.get(&key, &format!("/users/{user}/expenses?connection_id={}", benefits["id"].as_str().unwrap()))
        .await
        .assert_error(403, "product_not_enabled", Some("connection_id"));
}

#[tokio::test]
async fn sandbox_purchase_history_becomes_adjudicated_expenses() {
    let app = TestApp::spawn().await;
    let (_, key) = app.partner_key("expenses").await;
    let user = app.create_user(&key, "shopper").await;
    let card = app.sandbox_connection(&key, json!({"user_id": user, "type": "card"})).await;
    let cvs = app.get(&key, "/merchants?search=cvs+pharmacy").await.body["data"][0]["id"].clone();
    let store = app.sandbox_connection(&key, json!({"user_id": user, "type": "store", "provider_id": cvs})).await;

    let card_expenses = app
        .get(&key, &format!("/users/{user}/expenses?connection_id={}&limit=100", card["id"].as_str().unwrap()))
        .await
        .body;
    let data = card_expenses["data"].as_array().unwrap();
    assert!(data.len() >= 18);
    assert!(data.iter().all(|e| e["status"] != "pending" && e["reason"]["code"].is_string()));
    let statuses: std::collections::HashSet<_> = data.iter().map(|e| e["status"].as_str().unwrap()).collect();
    assert!(statuses.len() >= 2, "a mixed history: {statuses:?}");

    let store_expenses = app
        .get(&key, &format!("/users/{user}/expenses?connection_id={}&limit=100", store["id"].as_str().unwrap()))
        .await
        .body;
    for expense in store_expenses["data"].as_array().unwrap() {
        assert_eq!(expense["rule"], "item_level", "{expense}");
        assert_eq!(expense["merchant"]["id"], cvs);
        let items = expense["items"].as_array().unwrap();
        assert!(!items.is_empty());
        let eligible: f64 =
            items.iter().filter(|i| i["status"] == "eligible").map(|i| i["amount"].as_f64().unwrap()).sum();
        assert!((eligible - expense["eligible_amount"].as_f64().unwrap()).abs() < 0.005, "{expense}");
        assert_ne!(expense["status"], "needs_review", "CVS flags its items: nothing is left unclassified");
    }
}

#[tokio::test]
async fn every_expense_shows_the_evidence_that_decided_it_and_a_conflict_names_both_sides() {
    let app = TestApp::spawn().await;
    let (key, user, connection) = setup(&app).await;
    let batch = vec![
        tx("dentist", "SQ *LAKESIDE FAMILY DDS", Some("8021"), 120.0),
        tx("vet", "RIVERSIDE ANIMAL HOSPITAL", Some("8062"), 300.0),
        tx("garage", "PARKING - ST ELSEWHERE HOSPITAL", None, 9.0),
        tx("spa", "GLOW STUDIO", Some("8099"), 80.0),
    ];
    let reply = push(&app, &key, &user, &connection, batch).await;
    wait_for_job(&app, &key, reply.body["job_id"].as_str().unwrap()).await;
    let expenses = app.get(&key, &format!("/users/{user}/expenses")).await.body;
    let by_id = |id: &str| -> serde_json::Value {
        expenses["data"].as_array().unwrap().iter().find(|e| e["external_transaction_id"] == id).unwrap().clone()
    };

    let dentist = by_id("dentist");
    assert_eq!(dentist["status"], "eligible");
    assert_eq!(
        dentist["evidence"],
        json!([
            {"kind": "category_code", "value": "8021", "indicates": "dental"},
            {"kind": "keyword", "value": "DDS", "indicates": "dental"}
        ])
    );
    let vet = by_id("vet");
    assert_eq!((vet["status"].as_str(), vet["reason"]["code"].as_str()), (Some("ineligible"), Some("pet_care")));
    assert_eq!(vet["evidence"][0], json!({"kind": "keyword", "value": "ANIMAL", "indicates": "veterinary"}));
    let garage = by_id("garage");
    assert_eq!(garage["status"], "needs_review");
    assert_eq!(garage["reason"]["code"], "conflicting_evidence");
    let message = garage["reason"]["message"].as_str().unwrap();
    assert!(message.contains("HOSPITAL") && message.contains("PARKING"), "{message}");
    let spa = by_id("spa");
    assert_eq!(
        (spa["status"].as_str(), spa["reason"]["code"].as_str()),
        (Some("needs_review"), Some("broad_medical_category"))
    );

    // The same evidence on the single-expense read.
    let one = app.get(&key, &format!("/users/{user}/expenses/{}", dentist["id"].as_str().unwrap())).await.body;
    assert_eq!(one["evidence"], dentist["evidence"]);
}
