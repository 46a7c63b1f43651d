//! Personal data behind two credentials (docs/pii.md): user tokens minted by
//! a token_admin key, presented by a data key on the identity and account
//! numbers operations, over REST and over gRPC, with every token error code;
//! revocation, expiry, the exchange that creates a user, the audit trail,
//! and replays that never show a secret again.

use std::time::Duration;

use sail_api::pb::{
    self, accounts_client::AccountsClient, identity_client::IdentityClient, user_tokens_client::UserTokensClient,
};
use serde_json::{Value, json};
use tonic::metadata::MetadataValue;
use tonic_types::StatusExt;

use crate::helpers::{Reply, TestApp};

/// A partner with a workload key (every PII-related scope), a token_admin
/// key, a user with a profile and an HSA at a sandbox administrator.
struct Fixture {
    partner_id: String,
    key: String,
    admin: String,
    user_id: String,
    account_id: String,
}

const PROFILE: &str = r#"{"external_user_id": "pii-user-1", "email": "jane.roe@example.org", "first_name": "Jane",
    "last_name": "Roe", "phone": "+15125550143", "address": {"street": "12 Harbor St", "city": "Austin",
    "state": "TX", "zip": "78701", "country": "US"}}"#;

async fn administrator(app: &TestApp, key: &str, name: &str) -> String {
    let found = app.get(key, &format!("/administrators?search={}", name.replace(' ', "%20"))).await;
    assert_eq!(found.status, 200, "{}", found.body);
    found.body["data"].as_array().unwrap().iter().find(|a| a["name"] == name).unwrap()["id"]
        .as_str()
        .unwrap()
        .to_string()
}

async fn fixture(app: &TestApp) -> Fixture {
    let (partner_id, key) = app.partner_key("identity,account_numbers,benefit_account,expenses").await;
    let admin = app.key_for(&partner_id, "token_admin").await;
    let created = app.post(&key, "/users", serde_json::from_str(PROFILE).unwrap()).await;
    assert_eq!(created.status, 201, "{}", created.body);
    let user_id = created.body["id"].as_str().unwrap().to_string();
    // Fidelity administers HSAs only: the one account has ACH numbers.
    let provider_id = administrator(app, &key, "Fidelity Investments").await;
    let connection = app
        .sandbox_connection(&key, json!({"user_id": user_id, "type": "benefit_account", "provider_id": provider_id}))
        .await;
    assert_eq!(connection["status"], "active", "{connection}");
    assert_eq!(connection["products"], json!(["benefit_account", "account_numbers", "identity"]));
    let accounts = app.get(&key, &format!("/users/{user_id}/accounts")).await;
    let account_id = accounts.body["data"][0]["id"].as_str().unwrap().to_string();
    assert_eq!(accounts.body["data"][0]["type"], "hsa");
    Fixture { partner_id, key, admin, user_id, account_id }
}

async fn mint(app: &TestApp, admin: &str, body: Value) -> Reply {
    app.post(admin, "/user-tokens", body).await
}

async fn token_for(app: &TestApp, admin: &str, user_id: &str, scopes: &[&str]) -> (String, String) {
    let reply = mint(app, admin, json!({"user_id": user_id, "scopes": scopes})).await;
    assert_eq!(reply.status, 201, "{}", reply.body);
    (reply.body["id"].as_str().unwrap().to_string(), reply.body["token"].as_str().unwrap().to_string())
}

async fn get_with_token(app: &TestApp, key: &str, path: &str, token: Option<&str>) -> Reply {
    let mut request = app.client.get(app.url(path)).bearer_auth(key);
    if let Some(token) = token {
        request = request.header("Sail-User-Token", token);
    }
    Reply::from(request.send().await.unwrap()).await
}

fn metadata<T>(message: T, key: &str, token: Option<&str>) -> tonic::Request<T> {
    let mut request = tonic::Request::new(message);
    request.metadata_mut().insert("authorization", MetadataValue::try_from(format!("Bearer {key}")).unwrap());
    if let Some(token) = token {
        request.metadata_mut().insert("sail-user-token", MetadataValue::try_from(token).unwrap());
    }
    request
}

/// The identity operation over gRPC: Ok, or the status's ErrorInfo reason.
async fn grpc_identity(
    app: &TestApp,
    key: &str,
    user_id: &str,
    token: Option<&str>,
) -> Result<pb::UserIdentity, String> {
    let mut client = IdentityClient::connect(format!("http://{}", app.grpc_addr)).await.unwrap();
    let request = metadata(pb::GetIdentityRequest { user_id: user_id.to_string() }, key, token);
    client.get_identity(request).await.map(|r| r.into_inner()).map_err(reason_of)
}

/// The ErrorInfo reason of a refused call (its text when there is none).
fn reason_of(status: tonic::Status) -> String {
    status.get_error_details().error_info().map(|i| i.reason.clone()).unwrap_or_else(|| status.to_string())
}

async fn grpc_numbers(
    app: &TestApp,
    key: &str,
    fixture: &Fixture,
    token: Option<&str>,
) -> Result<pb::AccountNumbers, String> {
    let mut client = AccountsClient::connect(format!("http://{}", app.grpc_addr)).await.unwrap();
    let message =
        pb::GetAccountNumbersRequest { user_id: fixture.user_id.clone(), account_id: fixture.account_id.clone() };
    client.get_account_numbers(metadata(message, key, token)).await.map(|r| r.into_inner()).map_err(reason_of)
}

fn aba_checksum_ok(routing: &str) -> bool {
    let d: Vec<u32> = routing.chars().filter_map(|c| c.to_digit(10)).collect();
    d.len() == 9 && (3 * (d[0] + d[3] + d[6]) + 7 * (d[1] + d[4] + d[7]) + d[2] + d[5] + d[8]).is_multiple_of(10)
}

#[tokio::test]
async fn a_token_opens_the_identity_and_the_account_numbers_of_its_user() {
    let app = TestApp::spawn().await;
    let f = fixture(&app).await;

    let minted = mint(&app, &f.admin, json!({"user_id": f.user_id, "scopes": ["identity", "account_numbers"]})).await;
    assert_eq!(minted.status, 201, "{}", minted.body);
    let body = &minted.body;
    assert!(body["id"].as_str().unwrap().starts_with("utok_"), "{body}");
    let token = body["token"].as_str().unwrap().to_string();
    assert!(token.starts_with("ut_") && token.len() == 46, "{token}");
    assert_eq!(body["user_id"], f.user_id.as_str());
    assert_eq!(body["user_created"], false);
    assert_eq!(body["scopes"], json!(["identity", "account_numbers"]));
    assert_eq!(body["status"], "active");
    assert!(body["revoked_at"].is_null());
    let expires = chrono::DateTime::parse_from_rfc3339(body["expires_at"].as_str().unwrap()).unwrap();
    let created = chrono::DateTime::parse_from_rfc3339(body["created_at"].as_str().unwrap()).unwrap();
    // Expiry falls on a whole second, never sooner than asked.
    let lifetime = (expires - created).num_seconds();
    assert!((900..=901).contains(&lifetime), "the default lifetime is 15 minutes: {lifetime}");
    assert_eq!(expires.timestamp_subsec_nanos(), 0);

    let identity = get_with_token(&app, &f.key, &format!("/users/{}/identity", f.user_id), Some(&token)).await;
    assert_eq!(identity.status, 200, "{}", identity.body);
    let records = identity.body["records"].as_array().unwrap();
    assert_eq!(records.len(), 2, "{}", identity.body);
    assert_eq!(records[0]["source"], "profile");
    assert_eq!(records[0]["names"], json!(["Jane Roe"]));
    assert_eq!(records[0]["emails"], json!(["jane.roe@example.org"]));
    assert_eq!(records[0]["phone_numbers"], json!(["+15125550143"]));
    assert_eq!(records[0]["addresses"][0]["street"], "12 Harbor St");
    assert_eq!(records[0]["addresses"][0]["country"], "US");
    assert!(records[0]["connection_id"].is_null());
    assert_eq!(records[1]["source"], "connection");
    assert_eq!(records[1]["provider_name"], "Fidelity Investments");
    assert!(records[1]["names"][0].as_str().unwrap().contains(' '));
    assert!(records[1]["emails"][0].as_str().unwrap().ends_with("@example.com"));

    let numbers =
        get_with_token(&app, &f.key, &format!("/users/{}/accounts/{}/numbers", f.user_id, f.account_id), Some(&token))
            .await;
    assert_eq!(numbers.status, 200, "{}", numbers.body);
    assert_eq!(numbers.body["account_id"], f.account_id.as_str());
    let routing = numbers.body["ach"]["routing_number"].as_str().unwrap();
    assert!(aba_checksum_ok(routing), "{routing}");
    let account_number = numbers.body["ach"]["account_number"].as_str().unwrap();
    assert!(account_number.len() >= 8 && account_number.chars().all(|c| c.is_ascii_digit()));
    // Deterministic: read again, the same numbers.
    let again =
        get_with_token(&app, &f.key, &format!("/users/{}/accounts/{}/numbers", f.user_id, f.account_id), Some(&token))
            .await;
    assert_eq!(again.body, numbers.body);

    // The same over gRPC.
    let over_grpc = grpc_identity(&app, &f.key, &f.user_id, Some(&token)).await.unwrap();
    assert_eq!(over_grpc.records.len(), 2);
    assert_eq!(over_grpc.records[0].emails, vec!["jane.roe@example.org".to_string()]);
    let grpc_numbers = grpc_numbers(&app, &f.key, &f, Some(&token)).await.unwrap();
    assert_eq!(grpc_numbers.ach.unwrap().routing_number, routing);

    // Every read is in the audit trail, with its credentials and request id.
    let reads = core_grpc::services::audit::list_reads(&app.db, Some(&f.partner_id), None, 100).await.unwrap();
    assert_eq!(reads.len(), 5, "three REST reads and two gRPC reads");
    let token_id = body["id"].as_str().unwrap();
    assert!(reads.iter().all(|r| r.user_token_id == token_id && r.user_id == f.user_id));
    assert!(reads.iter().all(|r| r.request_id.as_deref().is_some_and(|id| !id.is_empty())));
    assert_eq!(reads.iter().filter(|r| r.endpoint == core_grpc::services::pii::NUMBERS_ENDPOINT).count(), 3);
    assert!(
        reads
            .iter()
            .filter(|r| r.endpoint == core_grpc::services::pii::NUMBERS_ENDPOINT)
            .all(|r| r.account_id.as_deref() == Some(f.account_id.as_str()))
    );
    let rest_request_id = numbers.headers["request-id"].to_str().unwrap();
    assert!(reads.iter().any(|r| r.request_id.as_deref() == Some(rest_request_id)), "the REST request id is recorded");
}

/// Each token error code of docs/pii.md, over REST and over gRPC alike.
#[tokio::test]
async fn every_token_error_code_over_rest_and_grpc() {
    let app = TestApp::spawn().await;
    let f = fixture(&app).await;
    let identity_path = format!("/users/{}/identity", f.user_id);
    let numbers_path = format!("/users/{}/accounts/{}/numbers", f.user_id, f.account_id);
    let (_, identity_only) = token_for(&app, &f.admin, &f.user_id, &["identity"]).await;
    let other_user = app.create_user(&f.key, "pii-user-2").await;
    let (_, other_users_token) = token_for(&app, &f.admin, &other_user, &["identity", "account_numbers"]).await;
    let (other_partner, other_key) = app.partner_key("identity,account_numbers").await;
    let other_admin = app.key_for(&other_partner, "token_admin").await;
    let stranger = app.create_user(&other_key, "pii-user-1").await;
    let (_, other_partners_token) = token_for(&app, &other_admin, &stranger, &["identity", "account_numbers"]).await;
    let (_, good) = token_for(&app, &f.admin, &f.user_id, &["identity", "account_numbers"]).await;
    let unknown = format!("ut_{}", "A".repeat(43));
    let no_identity_key = app.key_for(&f.partner_id, "account_numbers,benefit_account").await;

    // (key, path is identity?, token, status, code)
    let cases: Vec<(&str, bool, Option<&str>, u16, &str)> = vec![
        (&f.key, true, None, 401, "user_token_required"),
        (&f.key, false, None, 401, "user_token_required"),
        (&f.key, true, Some("not-a-token"), 401, "invalid_user_token"),
        (&f.key, true, Some(&unknown), 401, "invalid_user_token"),
        (&f.key, false, Some(&identity_only), 403, "insufficient_token_scope"),
        (&f.key, true, Some(&other_users_token), 403, "token_scope_mismatch"),
        (&f.key, false, Some(&other_users_token), 403, "token_scope_mismatch"),
        (&f.key, true, Some(&other_partners_token), 403, "token_scope_mismatch"),
        (&f.admin, true, Some(&good), 403, "invalid_key_configuration"),
        (&f.admin, false, Some(&good), 403, "invalid_key_configuration"),
        (&no_identity_key, true, Some(&good), 403, "insufficient_key_scope"),
    ];
    for (key, identity, token, status, code) in cases {
        let path = if identity { &identity_path } else { &numbers_path };
        let reply = get_with_token(&app, key, path, token).await;
        let param = match code {
            "invalid_key_configuration" | "insufficient_key_scope" => None,
            _ => Some("Sail-User-Token"),
        };
        reply.assert_error(status, code, param);
        let grpc = if identity {
            grpc_identity(&app, key, &f.user_id, token).await.map(|_| ())
        } else {
            grpc_numbers(&app, key, &f, token).await.map(|_| ())
        };
        assert_eq!(grpc, Err(code.to_ascii_uppercase()), "{code} over gRPC");
    }
    // A token of another partner never reveals that partner's user either.
    let foreign = get_with_token(&app, &other_key, &format!("/users/{stranger}/identity"), Some(&good)).await;
    foreign.assert_error(403, "token_scope_mismatch", Some("Sail-User-Token"));

    // Nothing failed is in the audit trail.
    assert!(core_grpc::services::audit::list_reads(&app.db, Some(&f.partner_id), None, 100).await.unwrap().is_empty());
}

#[tokio::test]
async fn revocation_takes_effect_on_the_next_request_and_expiry_to_the_second() {
    let app = TestApp::spawn().await;
    let f = fixture(&app).await;
    let path = format!("/users/{}/identity", f.user_id);
    let (token_id, token) = token_for(&app, &f.admin, &f.user_id, &["identity"]).await;
    assert_eq!(get_with_token(&app, &f.key, &path, Some(&token)).await.status, 200);

    // Only a token_admin key of the same partner revokes.
    app.delete(&f.key, &format!("/user-tokens/{token_id}")).await.assert_error(403, "insufficient_key_scope", None);
    let (other_partner, _) = app.partner_key("identity").await;
    let other_admin = app.key_for(&other_partner, "token_admin").await;
    app.delete(&other_admin, &format!("/user-tokens/{token_id}")).await.assert_error(
        404,
        "not_found",
        Some("user_token_id"),
    );

    let revoked = app.delete(&f.admin, &format!("/user-tokens/{token_id}")).await;
    assert_eq!(revoked.status, 200, "{}", revoked.body);

    assert_eq!(revoked.body["status"], "revoked");
    assert!(revoked.body["token"].is_null(), "the token is never shown again");
    assert!(revoked.body["revoked_at"].is_string());
    get_with_token(&app, &f.key, &path, Some(&token)).await.assert_error(
        401,
        "invalid_user_token",
        Some("Sail-User-Token"),
    );
    assert_eq!(grpc_identity(&app, &f.key, &f.user_id, Some(&token)).await.unwrap_err(), "INVALID_USER_TOKEN");
    let again = app.delete(&f.admin, &format!("/user-tokens/{token_id}")).await;
    assert_eq!(again.status, 200);
    assert_eq!(again.body["revoked_at"], revoked.body["revoked_at"], "revoking again changes nothing");

    // A one-second token: good before its expires_at, expired from it on.
    let short = mint(&app, &f.admin, json!({"user_id": f.user_id, "scopes": ["identity"], "ttl_seconds": 1})).await;
    assert_eq!(short.status, 201, "{}", short.body);
    let short_token = short.body["token"].as_str().unwrap().to_string();
    let expires_at = chrono::DateTime::parse_from_rfc3339(short.body["expires_at"].as_str().unwrap()).unwrap();
    let created_at = chrono::DateTime::parse_from_rfc3339(short.body["created_at"].as_str().unwrap()).unwrap();
    assert!((1..=2).contains(&(expires_at - created_at).num_seconds()));
    let wait = (expires_at.with_timezone(&chrono::Utc) - chrono::Utc::now()).to_std().unwrap_or_default();
    tokio::time::sleep(wait + Duration::from_millis(50)).await;
    get_with_token(&app, &f.key, &path, Some(&short_token)).await.assert_error(
        401,
        "user_token_expired",
        Some("Sail-User-Token"),
    );
    assert_eq!(grpc_identity(&app, &f.key, &f.user_id, Some(&short_token)).await.unwrap_err(), "USER_TOKEN_EXPIRED");

    // Revocation over gRPC, taking effect on the next call.
    let (grpc_token_id, grpc_token) = token_for(&app, &f.admin, &f.user_id, &["identity"]).await;
    assert!(grpc_identity(&app, &f.key, &f.user_id, Some(&grpc_token)).await.is_ok());
    let mut tokens = UserTokensClient::connect(format!("http://{}", app.grpc_addr)).await.unwrap();
    let request = metadata(pb::DeleteUserTokenRequest { user_token_id: grpc_token_id }, &f.admin, None);
    let revoked = tokens.delete_user_token(request).await.unwrap().into_inner();
    assert_eq!(revoked.status, "revoked");
    assert!(revoked.token.is_none());
    assert_eq!(grpc_identity(&app, &f.key, &f.user_id, Some(&grpc_token)).await.unwrap_err(), "INVALID_USER_TOKEN");
}

#[tokio::test]
async fn the_token_exchange_creates_the_user_once_and_mint_input_is_checked() {
    let app = TestApp::spawn().await;
    let (partner_id, key) = app.partner_key("identity,expenses").await;
    let admin = app.key_for(&partner_id, "token_admin").await;

    let first =
        mint(&app, &admin, json!({"external_user_id": "exchange-77", "scopes": ["identity"], "ttl_seconds": 60})).await;
    assert_eq!(first.status, 201, "{}", first.body);
    assert_eq!(first.body["user_created"], true);
    let user_id = first.body["user_id"].as_str().unwrap().to_string();
    let user = app.get(&key, &format!("/users/{user_id}")).await;
    assert_eq!(user.status, 200, "{}", user.body);
    assert_eq!(user.body["external_user_id"], "exchange-77");
    let second = mint(&app, &admin, json!({"external_user_id": "exchange-77", "scopes": ["identity"]})).await;
    assert_eq!(second.body["user_created"], false);
    assert_eq!(second.body["user_id"], user_id.as_str());
    // The user it made is the one POST /users would find taken.
    app.post(&key, "/users", json!({"external_user_id": "exchange-77"})).await.assert_error(
        409,
        "user_already_exists",
        Some("external_user_id"),
    );
    // The new user has no profile: the identity has an empty profile record.
    let token = first.body["token"].as_str().unwrap();
    let identity = get_with_token(&app, &key, &format!("/users/{user_id}/identity"), Some(token)).await;
    assert_eq!(identity.status, 200, "{}", identity.body);
    assert_eq!(
        identity.body["records"],
        json!([{"source": "profile", "connection_id": null, "provider_name": null,
        "names": [], "emails": [], "phone_numbers": [], "addresses": []}])
    );

    // Over gRPC too.
    let mut client = UserTokensClient::connect(format!("http://{}", app.grpc_addr)).await.unwrap();
    let request = pb::CreateUserTokenRequest {
        external_user_id: Some("exchange-grpc".into()),
        scopes: vec!["account_numbers".into()],
        ..Default::default()
    };
    let minted = client.create_user_token(metadata(request, &admin, None)).await.unwrap().into_inner();
    assert!(minted.user_created && minted.token.is_some_and(|t| t.starts_with("ut_")));

    // Input rules, each naming its field.
    for (body, param) in [
        (json!({"scopes": ["identity"]}), "user_id"),
        (json!({"user_id": user_id, "external_user_id": "x", "scopes": ["identity"]}), "external_user_id"),
        (json!({"user_id": user_id, "scopes": ["identity", "expenses"]}), "scopes.1"),
        (json!({"user_id": user_id, "scopes": []}), "scopes"),
        (json!({"user_id": user_id, "scopes": ["identity"], "ttl_seconds": 3601}), "ttl_seconds"),
        (json!({"user_id": user_id, "scopes": ["identity"], "ttl_seconds": 0}), "ttl_seconds"),
    ] {
        mint(&app, &admin, body).await.assert_error(400, "invalid_request", Some(param));
    }
    // Another partner's user is not found; a data key cannot mint.
    let (_, other_key) = app.partner_key("identity").await;
    let stranger = app.create_user(&other_key, "s-1").await;
    mint(&app, &admin, json!({"user_id": stranger, "scopes": ["identity"]})).await.assert_error(
        404,
        "not_found",
        Some("user_id"),
    );
    mint(&app, &key, json!({"user_id": user_id, "scopes": ["identity"]})).await.assert_error(
        403,
        "insufficient_key_scope",
        None,
    );
}

#[tokio::test]
async fn numbers_need_the_product_and_a_deposit_account() {
    let app = TestApp::spawn().await;
    let (partner_id, key) = app.partner_key("identity,account_numbers,benefit_account,expenses").await;
    let admin = app.key_for(&partner_id, "token_admin").await;
    let user_id = app.create_user(&key, "products-1").await;
    let provider_id = administrator(&app, &key, "Fidelity Investments").await;
    let linked = app
        .sandbox_connection(
            &key,
            json!({"user_id": user_id, "type": "benefit_account", "provider_id": provider_id, "products": ["benefit_account"]}),
        )
        .await;
    assert_eq!(linked["products"], json!(["benefit_account"]));
    let accounts = app.get(&key, &format!("/users/{user_id}/accounts")).await;
    let account_id = accounts.body["data"][0]["id"].as_str().unwrap();
    let (_, token) = token_for(&app, &admin, &user_id, &["identity", "account_numbers"]).await;
    get_with_token(&app, &key, &format!("/users/{user_id}/accounts/{account_id}/numbers"), Some(&token))
        .await
        .assert_error(403, "product_not_enabled", Some("account_id"));
    // Without the identity product, the connection adds no identity record.
    let identity = get_with_token(&app, &key, &format!("/users/{user_id}/identity"), Some(&token)).await;
    assert_eq!(identity.body["records"].as_array().unwrap().len(), 1, "{}", identity.body);

    // A product the type does not offer is refused, naming it.
    app.post(&key, "/sandbox/connections", json!({"user_id": user_id, "type": "card", "products": ["identity"]}))
        .await
        .assert_error(400, "invalid_request", Some("products.0"));

    // An FSA has no ACH numbers.
    let both = administrator(&app, &key, "HealthEquity").await;
    for n in 0..8 {
        let other = app.create_user(&key, &format!("fsa-{n}")).await;
        app.sandbox_connection(&key, json!({"user_id": other, "type": "benefit_account", "provider_id": both})).await;
        let listed = app.get(&key, &format!("/users/{other}/accounts?type=fsa")).await;
        let Some(fsa) = listed.body["data"].as_array().unwrap().first() else { continue };
        let (_, token) = token_for(&app, &admin, &other, &["account_numbers"]).await;
        let path = format!("/users/{other}/accounts/{}/numbers", fsa["id"].as_str().unwrap());
        get_with_token(&app, &key, &path, Some(&token)).await.assert_error(400, "invalid_request", Some("account_id"));
        return;
    }
    panic!("no sandbox FSA in eight users");
}

#[tokio::test]
async fn replays_never_show_a_secret_again() {
    let app = TestApp::spawn().await;
    let (partner_id, key) = app.partner_key("identity").await;
    let admin = app.key_for(&partner_id, "token_admin").await;
    let user_id = app.create_user(&key, "replay-1").await;
    let body = json!({"user_id": user_id, "scopes": ["identity"]});
    let send = |key: String, path: &'static str, body: Value| {
        let request = app.client.post(app.url(path)).bearer_auth(key).header("Idempotency-Key", path).json(&body);
        async move { Reply::from(request.send().await.unwrap()).await }
    };
    let first = send(admin.clone(), "/user-tokens", body.clone()).await;
    assert_eq!(first.status, 201, "{}", first.body);
    assert!(first.body["token"].is_string());
    let replay = send(admin.clone(), "/user-tokens", body).await;
    assert_eq!(replay.status, 201);
    assert_eq!(replay.body["id"], first.body["id"], "the replay is the same token");
    assert!(replay.body["token"].is_null(), "but without the credential: {}", replay.body);

    let endpoint = json!({"url": "http://127.0.0.1:9/hook"});
    let created = send(key.clone(), "/webhook-endpoints", endpoint.clone()).await;
    assert_eq!(created.status, 201, "{}", created.body);
    assert!(created.body["secret"].as_str().unwrap().starts_with("whsec_"));
    let id = created.body["id"].as_str().unwrap();
    assert_eq!(app.delete(&key, &format!("/webhook-endpoints/{id}")).await.status, 200);
    let replay = send(key.clone(), "/webhook-endpoints", endpoint).await;
    assert_eq!(replay.body["id"], id);
    assert!(replay.body["secret"].is_null(), "a deleted endpoint's secret is not replayed: {}", replay.body);
}
