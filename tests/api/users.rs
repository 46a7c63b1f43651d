//! `/users`: creation with every field of CreateUser, listing with filters and
//! pagination edges, reading, and tenant isolation.

use serde_json::json;

use crate::helpers::TestApp;

#[tokio::test]
async fn create_returns_the_user_without_profile_fields_and_get_reads_it() {
    let app = TestApp::spawn().await;
    let (_, key) = app.partner_key("expenses").await;
    let reply = app
        .post(
            &key,
            "/users",
            json!({
                "external_user_id": "partner-42",
                "email": "jane.doe@example.com",
                "first_name": "Jane",
                "last_name": "Doe",
                "phone": "+1 415 555 0123",
                "address": {"street": "1 Main St", "city": "Austin", "state": "TX", "zip": "78701", "country": "US"}
            }),
        )
        .await;
    assert_eq!(reply.status, 201, "{}", reply.body);
    let user = reply.body;
    assert!(user["id"].as_str().unwrap().starts_with("usr_"));
    assert_eq!(user["external_user_id"], "partner-42");
    assert_eq!(user["status"], "active");
    assert!(user["created_at"].as_str().unwrap().ends_with('Z'));
    let mut keys: Vec<_> = user.as_object().unwrap().keys().cloned().collect();
    keys.sort();
    assert_eq!(keys, ["created_at", "external_user_id", "id", "status"], "no PII on the user object");
    assert!(reply.headers.get("request-id").is_some());

    let read = app.get(&key, &format!("/users/{}", user["id"].as_str().unwrap())).await;
    assert_eq!(read.status, 200);
    assert_eq!(read.body, user);
}

#[tokio::test]
async fn profile_fields_are_validated_with_their_param() {
    let app = TestApp::spawn().await;
    let (_, key) = app.partner_key("expenses").await;
    let cases = [
        (json!({}), "external_user_id"),
        (json!({"external_user_id": ""}), "external_user_id"),
        (json!({"external_user_id": 42}), "external_user_id"),
        (json!({"external_user_id": "a", "email": "not-an-email"}), "email"),
        (json!({"external_user_id": "a", "email": "a@b"}), "email"),
        (json!({"external_user_id": "a", "phone": "call me"}), "phone"),
        (json!({"external_user_id": "a", "first_name": ""}), "first_name"),
        (json!({"external_user_id": "a", "address": {"country": "USA"}}), "address.country"),
        (json!({"external_user_id": "a", "address": {"country": "XX"}}), "address.country"),
        (json!({"external_user_id": "a", "address": {"planet": "Mars"}}), "address.planet"),
        (json!({"external_user_id": "a", "address": "Main St"}), "address"),
        (json!({"external_user_id": "a", "nickname": "J"}), "nickname"),
    ];
    for (body, param) in cases {
        app.post(&key, "/users", body.clone()).await.assert_error(400, "invalid_request", Some(param));
    }
    // Lower-case country codes are accepted (and stored upper-case).
    let ok = app.post(&key, "/users", json!({"external_user_id": "b", "address": {"country": "de"}})).await;
    assert_eq!(ok.status, 201, "{}", ok.body);
}

#[tokio::test]
async fn a_repeated_external_user_id_is_a_conflict_within_a_partner_only() {
    let app = TestApp::spawn().await;
    let (_, key) = app.partner_key("expenses").await;
    let (_, other) = app.partner_key("expenses").await;
    app.create_user(&key, "same").await;
    app.post(&key, "/users", json!({"external_user_id": "same"})).await.assert_error(
        409,
        "user_already_exists",
        Some("external_user_id"),
    );
    app.create_user(&other, "same").await;
}

#[tokio::test]
async fn list_filters_by_status_newest_first() {
    let app = TestApp::spawn().await;
    let (_, key) = app.partner_key("expenses").await;
    let first = app.create_user(&key, "u1").await;
    let second = app.create_user(&key, "u2").await;
    let all = app.get(&key, "/users").await;
    assert_eq!(all.status, 200);
    let ids: Vec<_> =
        all.body["data"].as_array().unwrap().iter().map(|u| u["id"].as_str().unwrap().to_string()).collect();
    assert_eq!(ids, [second, first]);
    assert_eq!(all.body["pagination"], json!({"total": 2, "limit": 25, "offset": 0, "has_more": false}));

    let active = app.get(&key, "/users?status=active").await;
    assert_eq!(active.body["pagination"]["total"], 2);
    let inactive = app.get(&key, "/users?status=inactive").await;
    assert_eq!(inactive.body["data"], json!([]));
    assert_eq!(inactive.body["pagination"]["total"], 0);
    app.get(&key, "/users?status=deleted").await.assert_error(400, "invalid_request", Some("status"));
}

#[tokio::test]
async fn pagination_edges() {
    let app = TestApp::spawn().await;
    let (_, key) = app.partner_key("expenses").await;
    for i in 0..3 {
        app.create_user(&key, &format!("u{i}")).await;
    }
    for (query, param) in [
        ("limit=0", "limit"),
        ("limit=101", "limit"),
        ("limit=-5", "limit"),
        ("limit=ten", "limit"),
        ("limit=2.5", "limit"),
        ("offset=-1", "offset"),
        ("offset=abc", "offset"),
        ("offset=1.5", "offset"),
        ("colour=red", "colour"),
    ] {
        app.get(&key, &format!("/users?{query}")).await.assert_error(400, "invalid_request", Some(param));
    }

    let one = app.get(&key, "/users?limit=1").await;
    assert_eq!(one.body["data"].as_array().unwrap().len(), 1);
    assert_eq!(one.body["pagination"], json!({"total": 3, "limit": 1, "offset": 0, "has_more": true}));

    let hundred = app.get(&key, "/users?limit=100").await;
    assert_eq!(hundred.body["data"].as_array().unwrap().len(), 3);
    assert_eq!(hundred.body["pagination"]["has_more"], false);

    let last = app.get(&key, "/users?limit=2&offset=2").await;
    assert_eq!(last.body["data"].as_array().unwrap().len(), 1);
    assert_eq!(last.body["pagination"]["has_more"], false);

    let past = app.get(&key, "/users?limit=2&offset=50").await;
    assert_eq!(past.status, 200);
    assert_eq!(past.body["data"], json!([]));
    assert_eq!(past.body["pagination"], json!({"total": 3, "limit": 2, "offset": 50, "has_more": false}));

    // Walking the pages visits every user exactly once.
    let mut seen = Vec::new();
    let mut offset = 0;
    loop {
        let page = app.get(&key, &format!("/users?limit=1&offset={offset}")).await;
        seen.extend(page.body["data"].as_array().unwrap().iter().map(|u| u["id"].clone()));
        if !page.body["pagination"]["has_more"].as_bool().unwrap() {
            break;
        }
        offset += 1;
    }
    seen.dedup();
    assert_eq!(seen.len(), 3);
}

#[tokio::test]
async fn another_partners_users_are_invisible() {
    let app = TestApp::spawn().await;
    let (_, mine) = app.partner_key("expenses").await;
    let (_, theirs) = app.partner_key("expenses").await;
    let their_user = app.create_user(&theirs, "private").await;
    app.create_user(&mine, "mine").await;

    app.get(&mine, &format!("/users/{their_user}")).await.assert_error(404, "not_found", Some("user_id"));
    let listed = app.get(&mine, "/users").await;
    assert_eq!(listed.body["pagination"]["total"], 1);
    assert!(!listed.body.to_string().contains(&their_user));
    // Unknown and malformed ids look exactly the same.
    app.get(&mine, "/users/usr_0190f0b1c2d37e8f9a0b1c2d3e4f5a6b").await.assert_error(404, "not_found", Some("user_id"));
    app.get(&mine, "/users/not-an-id").await.assert_error(404, "not_found", Some("user_id"));
}

/// With the data keys in the main database (the default of `sail serve`), a
/// new user's data key is stored with it (on PostgreSQL by the same
/// statement), the values sealed under it open with the key the store
/// holds, and a refused repeat leaves no key without a user.
#[tokio::test]
async fn a_new_user_and_its_data_key_are_stored_together() {
    use core_grpc::error::CoreError;
    use core_grpc::platform::crypto::Keyring;
    use core_grpc::platform::{db, vault::Vault};
    use core_grpc::services::{admin, operator_audit::Operator, users};
    use sea_orm::{EntityTrait, PaginatorTrait};

    let test_db = crate::helpers::TestDb::create().await;
    let mut pool = db::connect(&test_db.url).await.unwrap();
    migration::apply(&pool).await.unwrap();
    let partner = admin::create_partner(&pool, &Operator::parse("sail-tests").unwrap(), "P").await.unwrap();
    let sent = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let counter = sent.clone();
    pool.set_metric_callback(move |_| {
        counter.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    });
    let ring = Keyring::ephemeral();
    let writer = Vault::in_main_database(ring.clone());
    let new = users::NewUser {
        external_user_id: "together-1".into(),
        email: None,
        first_name: Some("Ada".into()),
        last_name: None,
        phone: None,
        address: users::Address::default(),
    };
    let created = users::create_user(&pool, &writer, &partner.id, new.clone()).await.unwrap();
    let statements = if test_db.is_postgres() { 1 } else { 2 };
    assert_eq!(sent.load(std::sync::atomic::Ordering::SeqCst), statements, "statements a new user takes");
    assert_ne!(created.first_name.as_deref(), Some("Ada"), "the name is stored sealed");
    let key = entities::user_data_key::Entity::find_by_id(created.id.clone()).one(&pool).await.unwrap();
    assert_eq!(key.map(|k| k.partner_id), Some(partner.id.clone()));
    // A vault that has opened nothing reads the key from the store.
    let reader = Vault::in_main_database(ring);
    let stored = entities::user::Entity::find_by_id(created.id.clone()).one(&pool).await.unwrap().unwrap();
    let sealer = reader.sealer(&pool, &created.id).await.unwrap();
    assert_eq!(users::profile(&sealer, &stored).unwrap().first_name.as_deref(), Some("Ada"));

    let repeated = users::create_user(&pool, &writer, &partner.id, new).await;
    assert!(matches!(repeated, Err(CoreError::UserAlreadyExists)), "{repeated:?}");
    assert_eq!(entities::user::Entity::find().count(&pool).await.unwrap(), 1);
    assert_eq!(entities::user_data_key::Entity::find().count(&pool).await.unwrap(), 1, "no key without its user");
}
