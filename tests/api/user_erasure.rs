//! `DELETE /users/{user_id}` (gRPC `DeleteUser`): the user and everything
//! under it answer `404` afterwards, its external id can be used again,
//! `user.deleted` is delivered with ids only, and the erasure is
//! cryptographic: every sealed value of a copy of the database taken before
//! the deletion is tried with the service key and every data key the key
//! store still holds, and none of the deleted user's personal values comes
//! out, while another user's still does (docs/pii.md#per-user-data-keys).

use std::sync::Arc;

use core_grpc::platform::crypto::{Keyring, SealedColumn, Sealer, UserKey, columns};
use core_grpc::platform::vault::Vault;
use sea_orm::sea_query::{Alias, Expr, ExprTrait, Query};
use sea_orm::{ConnectionTrait, EntityTrait};
use serde_json::{Value, json};

use crate::helpers::{Reply, TestApp};
use crate::webhooks::Receiver;

/// One sealed value as a copy of the database holds it.
struct SealedValue {
    column: SealedColumn,
    row_id: String,
    sealed: String,
}

/// Every sealed value in the main database: what a copy taken now holds.
async fn copy_of_sealed_values(app: &TestApp) -> Vec<SealedValue> {
    let mut copy = Vec::new();
    for column in columns::ALL {
        let query = Query::select()
            .column(Alias::new("id"))
            .expr_as(Expr::col(Alias::new(column.column())), Alias::new("v"))
            .from(Alias::new(column.table()))
            .and_where(Expr::col(Alias::new(column.column())).is_not_null())
            .to_owned();
        for row in app.db.query_all(&query).await.unwrap() {
            copy.push(SealedValue {
                column: *column,
                row_id: row.try_get("", "id").unwrap(),
                sealed: row.try_get("", "v").unwrap(),
            });
        }
    }
    assert!(copy.len() > 10, "the copy holds sealed values: {}", copy.len());
    copy
}

/// Everything in `copy` that opens with the service key or with any data
/// key the key store holds now.
async fn opened_with_the_keys_left(app: &TestApp, copy: &[SealedValue]) -> String {
    let ring: Arc<Keyring> = Keyring::ephemeral();
    let vault = Vault::connect(ring.clone(), &app.key_store_db.url).await.unwrap();
    let store = vault.separate_store().expect("the tests keep the key store apart");
    let held: Vec<String> =
        entities::user_data_key::Entity::find().all(store).await.unwrap().into_iter().map(|k| k.user_id).collect();
    let held: Vec<&str> = held.iter().map(String::as_str).collect();
    let keys: Vec<Arc<UserKey>> = vault.keys_of(&app.db, &held).await.unwrap().into_values().collect();
    let mut sealers = vec![Sealer::new(&ring, None)];
    sealers.extend(keys.into_iter().map(|key| Sealer::new(&ring, Some(key))));
    let mut opened = String::new();
    for value in copy {
        let plain = sealers.iter().find_map(|s| s.open_bytes(value.column, &value.row_id, &value.sealed).ok());
        if let Some(plain) = plain {
            // A kept idempotent reply is the reply's bytes in hex.
            let plain = if value.column == columns::IDEMPOTENT_RESPONSE { unhex(&plain) } else { plain };
            opened.push_str(&String::from_utf8_lossy(&plain));
            opened.push('\n');
        }
    }
    opened
}

/// Bytes from their hex form.
fn unhex(text: &[u8]) -> Vec<u8> {
    let text = std::str::from_utf8(text).unwrap();
    (0..text.len()).step_by(2).map(|i| u8::from_str_radix(&text[i..i + 2], 16).unwrap()).collect()
}

/// A user with a profile, a linked administrator (identity and account
/// numbers), a pushed purchase with a receipt; returns its id, the
/// personal values Sail holds about it, and the receipt's path.
async fn user_with_personal_data(app: &TestApp, key: &str, admin: &str, tag: &str) -> (String, Vec<String>, String) {
    let mut values = vec![
        format!("{tag}-external-7741"),
        format!("{tag}.erasable@example.net"),
        format!("{tag}Firstname"),
        format!("{tag}Lastname"),
        format!("{tag} Erasure Ridge Rd"),
    ];
    let profile = json!({
        "external_user_id": values[0], "email": values[1], "first_name": values[2], "last_name": values[3],
        "phone": "+15125550177", "address": {"street": values[4], "city": "Austin", "country": "US"},
    });
    // With an Idempotency-Key, replayed once: the kept reply holds the
    // external id, and it is the user's too.
    let create = || {
        let request =
            app.client.post(app.url("/users")).bearer_auth(key).header("Idempotency-Key", format!("{tag}-create"));
        let request = request.json(&profile);
        async move { Reply::from(request.send().await.unwrap()).await }
    };
    let created = create().await;
    assert_eq!(created.status, 201, "{}", created.body);
    let user = created.body["id"].as_str().unwrap().to_string();
    assert_eq!(create().await.body["id"], user.as_str(), "replayed");

    let found = app.get(key, "/administrators?search=Fidelity").await;
    let provider_id = found.body["data"][0]["id"].as_str().unwrap();
    let linked = app
        .sandbox_connection(key, json!({"user_id": user, "type": "benefit_account", "provider_id": provider_id}))
        .await;
    assert_eq!(linked["status"], "active", "{linked}");
    let minted =
        app.post(admin, "/user-tokens", json!({"user_id": user, "scopes": ["identity", "account_numbers"]})).await;
    assert_eq!(minted.status, 201, "{}", minted.body);
    let token = minted.body["token"].as_str().unwrap().to_string();
    let read = |path: String| {
        let request = app.client.get(app.url(&path)).bearer_auth(key).header("Sail-User-Token", &token);
        async move { Reply::from(request.send().await.unwrap()).await }
    };
    let identity = read(format!("/users/{user}/identity")).await;
    assert_eq!(identity.status, 200, "{}", identity.body);
    let owner = &identity.body["records"][1];
    values.push(owner["emails"][0].as_str().unwrap().to_string());
    values.push(owner["addresses"][0]["street"].as_str().unwrap().to_string());
    let accounts = app.get(key, &format!("/users/{user}/accounts")).await;
    let account_id = accounts.body["data"][0]["id"].as_str().unwrap();
    let numbers = read(format!("/users/{user}/accounts/{account_id}/numbers")).await;
    assert_eq!(numbers.status, 200, "{}", numbers.body);
    values.push(numbers.body["ach"]["account_number"].as_str().unwrap().to_string());

    let connection = app.external_connection(key, &user).await;
    let expenses =
        crate::receipts::push(app, key, &user, &connection, &[("WALGREENS #1234", 1000, "2026-11-02")]).await;
    let expense = expenses[0]["id"].as_str().unwrap();
    let patient = format!("PATIENT {}", tag.to_uppercase());
    let text = format!("Walgreens #1234\n{patient}\nIBUPROFEN 200MG 10.00\nTOTAL 10.00\n");
    let receipt = crate::receipts::upload(app, key, &user, expense, "rx.txt", text.into_bytes()).await;
    assert_eq!(receipt.status, 201, "{}", receipt.body);
    let receipt_id = receipt.body["id"].as_str().unwrap();
    crate::receipts::wait_read(app, key, &user, expense, receipt_id).await;
    values.push(patient);
    let receipt_path = format!("/users/{user}/expenses/{expense}/receipts/{receipt_id}");
    (user, values, receipt_path)
}

fn found_in(text: &str, values: &[String]) -> Vec<String> {
    values.iter().filter(|v| text.contains(v.as_str())).cloned().collect()
}

#[tokio::test]
async fn a_deleted_user_is_gone_its_id_is_free_and_an_earlier_copy_no_longer_opens_its_data() {
    let app = TestApp::spawn().await;
    let (partner_id, key) =
        app.partner_key("identity,account_numbers,benefit_account,expenses,connections,ingest").await;
    let admin = app.key_for(&partner_id, "token_admin").await;
    let receiver = Receiver::start(0).await;
    let hook = app.post(&key, "/webhook-endpoints", json!({"url": receiver.url, "events": ["user.deleted"]})).await;
    assert_eq!(hook.status, 201, "{}", hook.body);

    let (doomed, doomed_values, receipt) = user_with_personal_data(&app, &key, &admin, "zqdoomed").await;
    let (kept, kept_values, _) = user_with_personal_data(&app, &key, &admin, "zqkept").await;
    let expenses = app.get(&key, &format!("/users/{doomed}/expenses")).await;
    let expense = expenses.body["data"][0]["id"].as_str().unwrap().to_string();
    assert_eq!(app.get(&key, &receipt).await.status, 200);

    // The copy, and proof that the scan finds what it looks for.
    let copy = copy_of_sealed_values(&app).await;
    let before = opened_with_the_keys_left(&app, &copy).await;
    assert_eq!(found_in(&before, &doomed_values), doomed_values, "before the deletion the copy opens");

    let deleted = app.delete(&key, &format!("/users/{doomed}")).await;
    assert_eq!(deleted.status, 200, "{}", deleted.body);
    assert_eq!(deleted.body, json!({"id": doomed, "deleted": true}));

    // Gone: the user and everything under it.
    for path in [
        format!("/users/{doomed}"),
        format!("/users/{doomed}/expenses"),
        format!("/users/{doomed}/connections"),
        format!("/users/{doomed}/accounts"),
        format!("/users/{doomed}/expenses/{expense}"),
        receipt,
    ] {
        app.get(&key, &path).await.assert_error(404, "not_found", Some("user_id"));
    }
    app.delete(&key, &format!("/users/{doomed}")).await.assert_error(404, "not_found", Some("user_id"));
    let listed = app.get(&key, "/users").await;
    let ids: Vec<&str> = listed.body["data"].as_array().unwrap().iter().map(|u| u["id"].as_str().unwrap()).collect();
    assert_eq!(ids, [kept.as_str()], "{}", listed.body);

    // The external id is free again, for a new user with a new id.
    let again = app.post(&key, "/users", json!({"external_user_id": doomed_values[0]})).await;
    assert_eq!(again.status, 201, "{}", again.body);
    assert_ne!(again.body["id"], doomed.as_str());

    // Announced with ids only, delivered and signed like every event.
    let announced = app.get(&key, "/events?type=user.deleted").await;
    let event = &announced.body["data"][0];
    assert_eq!(event["data"]["user_id"], doomed.as_str(), "{}", announced.body);
    assert_eq!(event["data"]["connection_ids"].as_array().unwrap().len(), 2, "{event}");
    let delivered = receiver.wait_for(1).await;
    let body: Value = serde_json::from_slice(&delivered[0].body).unwrap();
    assert_eq!(body["type"], "user.deleted");
    assert_eq!(body["data"], event["data"]);
    let text = String::from_utf8_lossy(&delivered[0].body).to_string();
    assert!(found_in(&text, &doomed_values).is_empty(), "ids only: {text}");
    let document: Value = serde_json::from_str(sail_api::OPENAPI_JSON).unwrap();
    let schema = crate::webhooks::document_schema(&document, "UserDeletedData");
    assert!(schema.is_valid(&body["data"]), "{body}");
    // Other events about the user went with it.
    let ingested = app.get(&key, "/events?type=transactions.ingested").await;
    let about: Vec<&Value> =
        ingested.body["data"].as_array().unwrap().iter().filter(|e| e["data"]["user_id"] == doomed.as_str()).collect();
    assert!(about.is_empty(), "{about:?}");

    // The copy taken before: the deleted user's values no longer open,
    // the other user's still do.
    let after = opened_with_the_keys_left(&app, &copy).await;
    assert_eq!(found_in(&after, &doomed_values), Vec::<String>::new(), "the deleted user's data still opens");
    assert_eq!(found_in(&after, &kept_values), kept_values, "another user's data opens as before");
    // The other user is untouched.
    let kept_user = app.get(&key, &format!("/users/{kept}")).await;
    assert_eq!(kept_user.status, 200);
    assert_eq!(kept_user.body["external_user_id"], kept_values[0].as_str());
}

#[tokio::test]
async fn grpc_callers_delete_a_user_and_meet_not_found_after() {
    use sail_api::pb::{self, users_client::UsersClient};
    use tonic_types::StatusExt;

    let app = TestApp::spawn().await;
    let (_, key) = app.partner_key("expenses").await;
    let (_, other_key) = app.partner_key("expenses").await;
    let user = app.create_user(&key, "grpc-erasable").await;
    fn authorized<T>(message: T, key: &str) -> tonic::Request<T> {
        let mut request = tonic::Request::new(message);
        request.metadata_mut().insert("authorization", format!("Bearer {key}").parse().unwrap());
        request
    }
    let mut users = UsersClient::connect(format!("http://{}", app.grpc_addr)).await.unwrap();
    // Another partner's user is indistinguishable from none.
    let foreign = users.delete_user(authorized(pb::DeleteUserRequest { user_id: user.clone() }, &other_key)).await;
    assert_eq!(foreign.unwrap_err().code(), tonic::Code::NotFound);
    assert_eq!(app.get(&key, &format!("/users/{user}")).await.status, 200, "still there");

    let deleted = users.delete_user(authorized(pb::DeleteUserRequest { user_id: user.clone() }, &key)).await;
    let deleted = deleted.unwrap().into_inner();
    assert_eq!(deleted, pb::DeletedUser { id: user.clone(), deleted: true });
    let gone = users.get_user(authorized(pb::GetUserRequest { user_id: user.clone() }, &key)).await.unwrap_err();
    assert_eq!(gone.code(), tonic::Code::NotFound);
    let again = users.delete_user(authorized(pb::DeleteUserRequest { user_id: user.clone() }, &key)).await;
    let again = again.unwrap_err();
    assert_eq!(again.code(), tonic::Code::NotFound);
    assert_eq!(again.get_error_details().error_info().unwrap().metadata["param"], "user_id");
    // A malformed id is refused the same way, over REST too.
    app.delete(&key, "/users/usr_nope").await.assert_error(404, "not_found", Some("user_id"));
}

#[tokio::test]
async fn an_export_holds_everything_behind_both_credentials_and_export_and_deletion_are_audited() {
    let app = TestApp::spawn().await;
    let (partner_id, key) =
        app.partner_key("identity,account_numbers,benefit_account,expenses,connections,ingest").await;
    let admin = app.key_for(&partner_id, "token_admin").await;
    let (user, values, receipt) = user_with_personal_data(&app, &key, &admin, "zqexport").await;
    let path = format!("/users/{user}/export");

    // The same two credentials as the identity.
    app.get(&key, &path).await.assert_error(401, "user_token_required", Some("Sail-User-Token"));
    let minted = app.post(&admin, "/user-tokens", json!({"user_id": user, "scopes": ["identity"]})).await;
    let token = minted.body["token"].as_str().unwrap().to_string();
    let export = |key: &str, token: &str| {
        let request = app.client.get(app.url(&path)).bearer_auth(key).header("Sail-User-Token", token);
        async move { Reply::from(request.send().await.unwrap()).await }
    };
    let (_, no_identity_key) = app.partner_key("expenses").await;
    assert_eq!(export(&no_identity_key, &token).await.status, 403, "a key without identity");
    let reply = export(&key, &token).await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    let doc = &reply.body;

    assert_eq!(doc["user"]["id"], user.as_str());
    assert_eq!(doc["user"]["external_user_id"], values[0].as_str());
    assert!(doc["exported_at"].as_str().unwrap().ends_with('Z'), "{}", doc["exported_at"]);
    let text = doc.to_string();
    let missing: Vec<&String> = values.iter().filter(|v| !text.contains(v.as_str())).collect();
    // The account number itself is masked, and the receipt's file is not
    // exported (only the lines read from it): everything else is there.
    let account_number = &values[7];
    let patient_line = &values[8];
    assert_eq!(missing, [account_number, patient_line], "every other personal value: {text}");
    let numbers = doc["account_numbers"].as_array().unwrap();
    assert_eq!(numbers.len(), 1, "{}", doc["account_numbers"]);
    assert_eq!(numbers[0]["account_number_last4"], account_number[account_number.len() - 4..]);
    assert_eq!(doc["identity"][0]["source"], "profile");
    assert_eq!(doc["identity"].as_array().unwrap().len(), 2, "the profile and the administrator's record");
    assert_eq!(doc["connections"].as_array().unwrap().len(), 2);
    assert_eq!(
        doc["accounts"].as_array().unwrap().len(),
        app.get(&key, &format!("/users/{user}/accounts")).await.body["pagination"]["total"].as_u64().unwrap() as usize
    );
    let expenses = doc["expenses"].as_array().unwrap();
    assert_eq!(expenses.len(), 1);
    let expense = &expenses[0];
    assert!(expense["evidence"].is_object() || expense["evidence"].is_array(), "evidence: {expense}");
    let receipt_id = receipt.rsplit('/').next().unwrap();
    assert_eq!(expense["receipts"][0]["id"], receipt_id);
    assert!(!expense["receipts"][0]["line_items"].as_array().unwrap().is_empty(), "the lines read: {expense}");
    // The served document describes it.
    let document: Value = serde_json::from_str(sail_api::OPENAPI_JSON).unwrap();
    let schema = crate::webhooks::document_schema(&document, "UserExport");
    let errors: Vec<String> = schema.iter_errors(doc).map(|e| e.to_string()).collect();
    assert!(errors.is_empty(), "{errors:?}");

    // The export and then the deletion, in the audit trail.
    let deleted = app.delete(&key, &format!("/users/{user}")).await;
    assert_eq!(deleted.status, 200, "{}", deleted.body);
    let trail = core_grpc::services::audit::list_reads(&app.db, Some(&partner_id), Some(&user), 100).await.unwrap();
    let endpoints: Vec<&str> = trail.iter().map(|row| row.endpoint.as_str()).collect();
    assert_eq!(endpoints[0], "DELETE /users/{user_id}", "newest first: {endpoints:?}");
    assert_eq!(endpoints[1], "GET /users/{user_id}/export", "{endpoints:?}");
    assert!(endpoints.contains(&"GET /users/{user_id}/identity"), "earlier reads stay: {endpoints:?}");
    assert!(trail[0].user_token_id.is_empty() && trail[0].key_id.starts_with("key_"), "{:?}", trail[0]);
    assert!(!trail[1].user_token_id.is_empty());
    // The export is gone with the user.
    assert_eq!(export(&key, &token).await.status, 401, "its token went with it");
}
