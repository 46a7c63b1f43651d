//! Hosted sessions (docs/hosted-sessions.md): every option rule, scope and
//! error code of the create call over REST and gRPC, statuses as a partner
//! polls them, and the pages over plain HTTP: single use, the browser
//! binding cookie, anti-forgery tokens, expiry, each flow's outcome and its
//! events.

use std::time::Duration;

use sail_api::pb::{self, hosted_sessions_client::HostedSessionsClient};
use serde_json::{Value, json};
use tonic::metadata::MetadataValue;
use tonic_types::StatusExt;

use crate::helpers::{Options, Reply, TestApp, eventually};

async fn administrator(app: &TestApp, key: &str, name: &str) -> String {
    let found = app.get(key, &format!("/administrators?search={}", name.replace(' ', "%20"))).await;
    found.body["data"].as_array().unwrap().iter().find(|a| a["name"] == name).unwrap()["id"]
        .as_str()
        .unwrap()
        .to_string()
}

pub(crate) async fn create(app: &TestApp, key: &str, body: Value) -> Reply {
    app.post(key, "/hosted-sessions", body).await
}

/// Every hosted page of a partner that registered no embed origin, the 410
/// and error pages included, forbids framing (clickjacking of the login
/// form); the `Browser` below checks it on every page it opens.
fn assert_cannot_be_framed(response: &reqwest::Response) {
    let html = response.headers().get("content-type").is_some_and(|v| v.to_str().unwrap().starts_with("text/html"));
    if !html {
        return;
    }
    let policy = response.headers()["content-security-policy"].to_str().unwrap();
    assert!(policy.contains("frame-ancestors 'none'"), "{policy}");
    assert_eq!(response.headers()["x-frame-options"], "DENY");
}

/// A browser: keeps the session cookie it is given.
pub(crate) struct Browser {
    client: reqwest::Client,
    cookie: Option<String>,
}

impl Browser {
    pub(crate) fn new() -> Browser {
        let client = reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).build().unwrap();
        Browser { client, cookie: None }
    }

    fn keep_cookie(&mut self, response: &reqwest::Response) {
        if let Some(set) = response.headers().get("set-cookie") {
            let set = set.to_str().unwrap().to_string();
            assert!(set.contains("HttpOnly") && set.contains("Secure") && set.contains("SameSite=Strict"), "{set}");
            assert!(set.contains("Path=/hosted/hst_"), "{set}");
            self.cookie = Some(set.split(';').next().unwrap().to_string());
        }
    }

    pub(crate) async fn get(&mut self, url: &str) -> (u16, String) {
        let mut request = self.client.get(url);
        if let Some(cookie) = &self.cookie {
            request = request.header("cookie", cookie);
        }
        let response = request.send().await.unwrap();
        self.keep_cookie(&response);
        assert_cannot_be_framed(&response);
        let status = response.status().as_u16();
        (status, response.text().await.unwrap())
    }

    pub(crate) async fn post_form(&mut self, url: &str, form: &[(&str, &str)]) -> (u16, String) {
        let mut request = self.client.post(url).form(form);
        if let Some(cookie) = &self.cookie {
            request = request.header("cookie", cookie);
        }
        let response = request.send().await.unwrap();
        assert_cannot_be_framed(&response);
        let status = response.status().as_u16();
        (status, response.text().await.unwrap())
    }
}

/// The value of a hidden input in a page.
pub(crate) fn hidden(html: &str, name: &str) -> String {
    let marker = format!("name=\"{name}\" value=\"");
    let start = html.find(&marker).unwrap_or_else(|| panic!("no {name} in {html}")) + marker.len();
    html[start..].split('"').next().unwrap().to_string()
}

#[tokio::test]
async fn every_option_rule_scope_and_error_code() {
    let app = TestApp::spawn().await;
    let (partner, key) = app.partner_key("expenses,benefit_account,connections,ingest").await;
    let user = app.create_user(&key, "hs-1").await;
    let cases: Vec<(Value, u16, &str, Option<&str>)> = vec![
        (json!({"user_id": user, "flow": "connect_account"}), 400, "invalid_request", Some("options.connection_type")),
        (json!({"user_id": user, "flow": "teleport"}), 400, "invalid_request", Some("flow")),
        (
            json!({"user_id": user, "flow": "connect_account", "options": {"connection_type": "external"}}),
            400,
            "invalid_request",
            Some("options.connection_type"),
        ),
        (
            json!({"user_id": user, "flow": "connect_account", "options": {"connection_type": "benefit_account", "merchant_id": "mer_x"}}),
            400,
            "invalid_request",
            Some("options.merchant_id"),
        ),
        (
            json!({"user_id": user, "flow": "connect_account", "options": {"connection_type": "store", "administrator_id": "adm_x"}}),
            400,
            "invalid_request",
            Some("options.administrator_id"),
        ),
        (
            json!({"user_id": user, "flow": "connect_account", "options": {"connection_type": "store", "merchant_id": "mer_0193a5b2c4d87e6f9a0b1c2d3e4f5a6b"}}),
            404,
            "not_found",
            Some("options.merchant_id"),
        ),
        (
            json!({"user_id": user, "flow": "connect_account", "options": {"connection_type": "card", "connection_id": "conn_x"}}),
            400,
            "invalid_request",
            Some("options.connection_id"),
        ),
        (json!({"user_id": user, "flow": "reconnect"}), 400, "invalid_request", Some("options.connection_id")),
        (
            json!({"user_id": user, "flow": "reconnect", "options": {"connection_id": "conn_0193a5b2c4d87e6f9a0b1c2d3e4f5a6b"}}),
            404,
            "not_found",
            Some("options.connection_id"),
        ),
        (
            json!({"user_id": user, "flow": "upload_receipt", "options": {"expense_id": "exp_0193a5b2c4d87e6f9a0b1c2d3e4f5a6b"}}),
            404,
            "not_found",
            Some("options.expense_id"),
        ),
        (
            json!({"user_id": user, "flow": "upload_receipt", "options": {"modal": true}}),
            400,
            "invalid_request",
            Some("options.modal"),
        ),
        (
            json!({"user_id": "usr_0193a5b2c4d87e6f9a0b1c2d3e4f5a6b", "flow": "upload_receipt"}),
            404,
            "not_found",
            Some("user_id"),
        ),
    ];
    let mut grpc = HostedSessionsClient::connect(format!("http://{}", app.grpc_addr)).await.unwrap();
    // The document states each flow's options (one schema per flow): what it
    // calls valid, the core takes past validation, and what the core refuses
    // as invalid, the document calls invalid.
    let document: Value = serde_json::from_str(sail_api::OPENAPI_JSON).unwrap();
    let schema = crate::webhooks::document_schema(&document, "CreateHostedSessionRequest");
    for (body, status, code, param) in cases {
        assert_eq!(schema.is_valid(&body), status != 400, "the document and the core disagree on {body}");
        create(&app, &key, body.clone()).await.assert_error(status, code, param);
        // The same request over gRPC: the same code and param.
        let message: pb::CreateHostedSessionRequest = serde_json::from_value(body).unwrap();
        let mut request = tonic::Request::new(message);
        request.metadata_mut().insert("authorization", MetadataValue::try_from(format!("Bearer {key}")).unwrap());
        let refused = grpc.create_hosted_session(request).await.unwrap_err();
        let info = refused.get_error_details().error_info().cloned().unwrap();
        assert_eq!(info.reason, code.to_ascii_uppercase());
        assert_eq!(info.metadata.get("param").map(String::as_str), param);
    }
    // An external connection cannot be reconnected.
    let external = app.external_connection(&key, &user).await;
    create(&app, &key, json!({"user_id": user, "flow": "reconnect", "options": {"connection_id": external}}))
        .await
        .assert_error(409, "connection_not_reconnectable", Some("options.connection_id"));
    // Scopes per flow.
    let expenses_only = app.key_for(&partner, "expenses").await;
    let benefits_only = app.key_for(&partner, "benefit_account").await;
    create(
        &app,
        &expenses_only,
        json!({"user_id": user, "flow": "connect_account", "options": {"connection_type": "benefit_account"}}),
    )
    .await
    .assert_error(403, "insufficient_key_scope", None);
    create(
        &app,
        &benefits_only,
        json!({"user_id": user, "flow": "connect_account", "options": {"connection_type": "card"}}),
    )
    .await
    .assert_error(403, "insufficient_key_scope", None);
    create(&app, &benefits_only, json!({"user_id": user, "flow": "upload_receipt"})).await.assert_error(
        403,
        "insufficient_key_scope",
        None,
    );

    // A good one: 201 with the URL once, then polled without it.
    let adm = administrator(&app, &key, "Fidelity Investments").await;
    let created = create(
        &app,
        &benefits_only,
        json!({"user_id": user, "flow": "connect_account", "options": {"connection_type": "benefit_account", "administrator_id": adm, "modal": true}}),
    )
    .await;
    assert_eq!(created.status, 201, "{}", created.body);
    let url = created.body["url"].as_str().unwrap();
    assert!(url.starts_with(&format!("{}/hosted/hst_", app.http_root)), "{url}");
    assert_eq!(created.body["flow"], "connect_account");
    assert_eq!(created.body["status"], "pending");
    assert_eq!(created.body["options"]["modal"], true);
    let expires = chrono::DateTime::parse_from_rfc3339(created.body["expires_at"].as_str().unwrap()).unwrap();
    let made = chrono::DateTime::parse_from_rfc3339(created.body["created_at"].as_str().unwrap()).unwrap();
    assert_eq!((expires - made).num_seconds(), 1800);
    let id = created.body["id"].as_str().unwrap();
    let polled = app.get(&key, &format!("/hosted-sessions/{id}")).await;
    assert_eq!(polled.status, 200);
    assert!(polled.body["url"].is_null(), "the URL is shown once");
    let listed = app.get(&key, &format!("/hosted-sessions?user_id={user}&status=pending")).await;
    assert_eq!(listed.body["pagination"]["total"], 1);
    let (_, stranger) = app.partner_key("expenses").await;
    app.get(&stranger, &format!("/hosted-sessions/{id}")).await.assert_error(
        404,
        "not_found",
        Some("hosted_session_id"),
    );

    // Over gRPC, the same rules and codes.
    let mut client = HostedSessionsClient::connect(format!("http://{}", app.grpc_addr)).await.unwrap();
    let mut request = tonic::Request::new(pb::CreateHostedSessionRequest {
        user_id: user.clone(),
        flow: "reconnect".into(),
        options: Some(pb::HostedSessionOptions { connection_id: Some(external.clone()), ..Default::default() }),
    });
    request.metadata_mut().insert("authorization", MetadataValue::try_from(format!("Bearer {key}")).unwrap());
    let refused = client.create_hosted_session(request).await.unwrap_err();
    assert_eq!(refused.get_error_details().error_info().unwrap().reason, "CONNECTION_NOT_RECONNECTABLE");
    let mut request = tonic::Request::new(pb::CreateHostedSessionRequest {
        user_id: user.clone(),
        flow: "upload_receipt".into(),
        options: None,
    });
    request.metadata_mut().insert("authorization", MetadataValue::try_from(format!("Bearer {key}")).unwrap());
    let made = client.create_hosted_session(request).await.unwrap().into_inner();
    assert!(made.url.unwrap().contains("/hosted/hst_"));
}

#[tokio::test]
async fn connect_account_links_through_the_page_once() {
    let app = TestApp::spawn().await;
    let (_, key) = app.partner_key("expenses,benefit_account").await;
    let user = app.create_user(&key, "hs-2").await;
    let created = create(
        &app,
        &key,
        json!({"user_id": user, "flow": "connect_account", "options": {"connection_type": "benefit_account"}}),
    )
    .await;
    let url = created.body["url"].as_str().unwrap().to_string();
    let id = created.body["id"].as_str().unwrap().to_string();

    let mut browser = Browser::new();
    let (status, html) = browser.get(&url).await;
    assert_eq!(status, 200, "{html}");
    assert!(browser.cookie.is_some(), "the first open binds the browser");
    assert!(html.contains("HealthEquity") && html.contains("Fidelity Investments"), "the administrator list");
    assert_eq!(app.get(&key, &format!("/hosted-sessions/{id}")).await.body["status"], "opened");
    // Search narrows the list; a typo still finds it.
    let (_, searched) = browser.get(&format!("{url}?q=fidelty")).await;
    assert!(searched.contains("Fidelity Investments") && !searched.contains("HealthEquity"), "{searched}");

    // Another browser, or the same link again without the cookie: 410.
    let (status, gone) = Browser::new().get(&url).await;
    assert_eq!(status, 410);
    assert!(gone.contains("already been used"), "{gone}");

    let adm = administrator(&app, &key, "Fidelity Investments").await;
    let (status, login) = browser.get(&format!("{url}?provider={adm}")).await;
    assert_eq!(status, 200);
    assert!(login.contains("Fidelity Investments") && login.contains("name=\"password\""));
    let csrf = hidden(&login, "csrf");
    // A forged form is refused; a refused login stays on the form.
    let (status, _) = browser
        .post_form(
            &format!("{url}/login"),
            &[("csrf", "forged"), ("provider_id", &adm), ("username", "user_good"), ("password", "pass_good")],
        )
        .await;
    assert_eq!(status, 410);
    let (status, refused) = browser
        .post_form(
            &format!("{url}/login"),
            &[("csrf", &csrf), ("provider_id", &adm), ("username", "user_bad"), ("password", "pass_good")],
        )
        .await;
    assert_eq!(status, 422);
    assert!(refused.contains("role=\"alert\"") && refused.contains("incorrect"), "{refused}");
    let (status, done) = browser
        .post_form(
            &format!("{url}/login"),
            &[("csrf", &csrf), ("provider_id", &adm), ("username", "user_good"), ("password", "pass_good")],
        )
        .await;
    assert_eq!(status, 200, "{done}");
    assert!(done.contains("connected"), "{done}");

    let session = app.get(&key, &format!("/hosted-sessions/{id}")).await.body;
    assert_eq!(session["status"], "completed");
    let connection_id = session["connection_id"].as_str().unwrap();
    let connection = app.wait_for_connection(&key, &user, connection_id).await;
    assert_eq!(connection["status"], "active");
    assert_eq!(connection["provider"]["name"], "Fidelity Investments");
    let events = app.get(&key, "/events?limit=100").await.body;
    let types: Vec<&str> = events["data"].as_array().unwrap().iter().map(|e| e["type"].as_str().unwrap()).collect();
    assert!(types.contains(&"hosted_session.completed") && types.contains(&"hosted_session.login_failed"), "{types:?}");
    // Once completed, the page says so.
    let (status, again) = browser.get(&url).await;
    assert_eq!(status, 200);
    assert!(again.contains("All set"));
}

#[tokio::test]
async fn an_expired_link_is_a_410_and_reads_as_expired() {
    let mut options = Options::default();
    options.core.hosted_session_ttl = Duration::from_secs(1);
    let app = TestApp::spawn_with(options).await;
    let (_, key) = app.partner_key("expenses").await;
    let user = app.create_user(&key, "hs-3").await;
    let created =
        create(&app, &key, json!({"user_id": user, "flow": "connect_account", "options": {"connection_type": "card"}}))
            .await;
    let url = created.body["url"].as_str().unwrap().to_string();
    tokio::time::sleep(Duration::from_millis(1200)).await;
    let (status, html) = Browser::new().get(&url).await;
    assert_eq!(status, 410);
    assert!(html.contains("expired"), "{html}");
    let id = created.body["id"].as_str().unwrap();
    assert_eq!(app.get(&key, &format!("/hosted-sessions/{id}")).await.body["status"], "expired");
    let (status, _) = Browser::new().get(&format!("{}/hosted/hst_{}", app.http_root, "x".repeat(43))).await;
    assert_eq!(status, 410);
}

#[tokio::test]
async fn reconnect_repairs_a_connection_in_error() {
    let app = TestApp::spawn().await;
    let (_, key) = app.partner_key("expenses,benefit_account").await;
    let user = app.create_user(&key, "hs-4").await;
    let broken = app.sandbox_connection(&key, json!({"user_id": user, "type": "card", "username": "user_error"})).await;
    assert_eq!(broken["status"], "error");
    let connection_id = broken["id"].as_str().unwrap();
    let created =
        create(&app, &key, json!({"user_id": user, "flow": "reconnect", "options": {"connection_id": connection_id}}))
            .await;
    assert_eq!(created.status, 201, "{}", created.body);
    let url = created.body["url"].as_str().unwrap().to_string();
    let mut browser = Browser::new();
    let (status, login) = browser.get(&url).await;
    assert_eq!(status, 200);
    assert!(login.contains("Reconnect") && login.contains("Harbor Bank"), "{login}");
    let csrf = hidden(&login, "csrf");
    let (status, done) = browser
        .post_form(&format!("{url}/login"), &[("csrf", &csrf), ("username", "user_good"), ("password", "pass_good")])
        .await;
    assert_eq!(status, 200, "{done}");
    let repaired = app.get(&key, &format!("/users/{user}/connections/{connection_id}")).await.body;
    assert_eq!(repaired["status"], "active");
    assert!(repaired["error"].is_null());
    let events = app.get(&key, "/events?type=connection.recovered").await.body;
    assert_eq!(events["data"][0]["data"]["connection_id"], connection_id);
}

#[tokio::test]
async fn a_receipt_uploaded_on_the_page_clears_an_expense() {
    let app = TestApp::spawn().await;
    let (_, key) = app.partner_key("expenses,ingest,connections").await;
    let user = app.create_user(&key, "hs-5").await;
    let connection = app.external_connection(&key, &user).await;
    let pushed = app
        .post(
            &key,
            &format!("/users/{user}/connections/{connection}/transactions"),
            json!({"transactions": [{"external_transaction_id": "w1", "date": "2026-11-03", "amount": 24.98, "description": "WALGREENS #1234"}]}),
        )
        .await;
    app.wait_for_job(&key, pushed.body["job_id"].as_str().unwrap()).await;
    let expense = app.get(&key, &format!("/users/{user}/expenses")).await.body["data"][0].clone();
    assert_eq!(expense["status"], "needs_review");
    let expense_id = expense["id"].as_str().unwrap().to_string();

    let created = create(&app, &key, json!({"user_id": user, "flow": "upload_receipt"})).await;
    let url = created.body["url"].as_str().unwrap().to_string();
    let mut browser = Browser::new();
    let (status, form) = browser.get(&url).await;
    assert_eq!(status, 200);
    assert!(form.contains(&expense_id) && form.contains("type=\"file\""), "the user's expenses in review: {form}");
    let csrf = hidden(&form, "csrf");
    let text = "Walgreens #1234\n11/03/2026\nCETIRIZINE 10MG 30CT 15.99 F\nSALINE SOLUTION 12OZ 8.99 F\nTOTAL 24.98\n";
    let multipart = reqwest::multipart::Form::new()
        .text("csrf", csrf)
        .text("expense_id", expense_id.clone())
        .part("file", reqwest::multipart::Part::bytes(text.as_bytes().to_vec()).file_name("receipt.txt"));
    let response = browser
        .client
        .post(format!("{url}/receipt"))
        .header("cookie", browser.cookie.clone().unwrap())
        .multipart(multipart)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    let shown = response.text().await.unwrap();
    assert!(shown.contains("Receipt accepted") || shown.contains("Check again"), "{shown}");
    let session = app.get(&key, &format!("/hosted-sessions/{}", created.body["id"].as_str().unwrap())).await.body;
    assert_eq!(session["status"], "completed");
    assert_eq!(session["expense_id"], expense_id.as_str());
    assert!(session["receipt_id"].as_str().unwrap().starts_with("rcpt_"));
    let cleared = eventually("the expense to be re-decided", Duration::from_secs(30), || async {
        let read = app.get(&key, &format!("/users/{user}/expenses/{expense_id}")).await.body;
        (read["status"] != "needs_review").then_some(read)
    })
    .await;
    assert_eq!(cleared["status"], "eligible");
    // The page shows the decision once the receipt is read.
    let (status, result) = browser.get(&url).await;
    assert_eq!(status, 200);
    assert!(result.contains("Receipt accepted") && result.contains("$24.98 of $24.98"), "{result}");
}

/// The binding secret a framable page carries in its forms.
fn binding_of(html: &str) -> String {
    hidden(html, "binding")
}

#[tokio::test]
async fn framing_follows_the_session_and_the_binding_stands_in_for_a_refused_cookie() {
    let app = TestApp::spawn().await;
    let (partner, key) = app.partner_key("expenses,benefit_account").await;
    app.embed_origins(&partner, &["https://app.example.com", "http://localhost:3000"]).await;
    let user = app.create_user(&key, "hs-framed").await;
    let client = reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).build().unwrap();
    let framed = "frame-ancestors https://app.example.com http://localhost:3000";

    // A modal session: framable by exactly the registered origins.
    let created = create(
        &app,
        &key,
        json!({"user_id": user, "flow": "connect_account",
        "options": {"connection_type": "benefit_account", "modal": true}}),
    )
    .await;
    let url = created.body["url"].as_str().unwrap().to_string();
    let opened = client.get(&url).send().await.unwrap();
    assert_eq!(opened.status(), 200);
    let policy = opened.headers()["content-security-policy"].to_str().unwrap().to_string();
    assert!(policy.ends_with(framed) && policy.contains("script-src 'self'"), "{policy}");
    assert!(opened.headers().get("x-frame-options").is_none());
    let cookie = opened.headers()["set-cookie"].to_str().unwrap().to_string();
    for flag in ["HttpOnly", "Secure", "SameSite=None", "Partitioned", "Path=/hosted/hst_"] {
        assert!(cookie.contains(flag), "{flag} in {cookie}");
    }
    let html = opened.text().await.unwrap();
    let binding = binding_of(&html);
    assert_eq!(format!("sail_hosted={binding}"), cookie.split(';').next().unwrap(), "the same secret");
    assert!(html.contains("hosted-assets&#x2f;overlay.js") || html.contains("hosted-assets/overlay.js"), "{html}");

    // A browser that refused the cookie goes on with the binding its page carried.
    let adm = administrator(&app, &key, "Fidelity Investments").await;
    let login = client.get(format!("{url}?provider={adm}&binding={binding}")).send().await.unwrap();
    assert_eq!(login.status(), 200);
    let login = login.text().await.unwrap();
    assert_eq!(binding_of(&login), binding);
    // Without it, or with another, the session is someone else's: a 410
    // that the partner's frame may still show.
    for tried in [url.clone(), format!("{url}?binding={}", "A".repeat(43)), format!("{url}?binding=short")] {
        let refused = client.get(&tried).send().await.unwrap();
        assert_eq!(refused.status(), 410, "{tried}");
        assert!(refused.headers()["content-security-policy"].to_str().unwrap().ends_with(framed));
        assert!(refused.text().await.unwrap().contains("already been used"));
    }
    // The login form, binding and anti-forgery token both required.
    let form = |csrf: &str, binding: &str| {
        [
            ("csrf", csrf.to_string()),
            ("binding", binding.to_string()),
            ("provider_id", adm.clone()),
            ("username", "user_good".to_string()),
            ("password", "pass_good".to_string()),
        ]
    };
    let forged = client.post(format!("{url}/login")).form(&form("forged", &binding)).send().await.unwrap();
    assert_eq!(forged.status(), 410);
    let done = client.post(format!("{url}/login")).form(&form(&hidden(&login, "csrf"), &binding)).send().await.unwrap();
    assert_eq!(done.status(), 200);
    let done = done.text().await.unwrap();
    assert!(
        done.contains("data-sail-status=\"completed\"") && done.contains("data-sail-connection-id=\"conn_"),
        "{done}"
    );
    let id = created.body["id"].as_str().unwrap();
    assert_eq!(app.get(&key, &format!("/hosted-sessions/{id}")).await.body["status"], "completed");

    // The same partner's session without `modal`: never framed, no binding
    // in its pages, its cookie SameSite=Strict.
    let plain = create(
        &app,
        &key,
        json!({"user_id": user, "flow": "connect_account",
        "options": {"connection_type": "benefit_account"}}),
    )
    .await;
    let opened = client.get(plain.body["url"].as_str().unwrap()).send().await.unwrap();
    assert_cannot_be_framed(&opened);
    assert!(opened.headers()["set-cookie"].to_str().unwrap().contains("SameSite=Strict"));
    let html = opened.text().await.unwrap();
    assert!(!html.contains("name=\"binding\"") && !html.contains("<script"), "{html}");
    let gone = client.get(plain.body["url"].as_str().unwrap()).send().await.unwrap();
    assert_eq!(gone.status(), 410);
    assert_cannot_be_framed(&gone);

    // An unknown link's page is never framed.
    let unknown = client.get(format!("{}/hosted/hst_{}", app.http_root, "x".repeat(43))).send().await.unwrap();
    assert_eq!(unknown.status(), 410);
    assert_cannot_be_framed(&unknown);

    // The overlay script, from Sail's own origin.
    let script = client.get(format!("{}/hosted-assets/overlay.js", app.http_root)).send().await.unwrap();
    assert_eq!(script.status(), 200);
    assert!(script.headers()["content-type"].to_str().unwrap().starts_with("text/javascript"));
    assert!(script.text().await.unwrap().contains("\"sail.hosted\""));
}
