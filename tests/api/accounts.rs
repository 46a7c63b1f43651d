//! `/users/{user_id}/accounts` and the account detail record.

use serde_json::{Value, json};

use crate::helpers::TestApp;

/// A user with a synced benefit_account connection at `administrator`.
async fn linked(app: &TestApp, key: &str, external_user_id: &str, administrator: &str) -> (String, Value) {
    let user = app.create_user(key, external_user_id).await;
    let admin = app.get(key, &format!("/administrators?search={}", administrator.replace(' ', "+"))).await.body["data"]
        [0]["id"]
        .clone();
    let connection =
        app.sandbox_connection(key, json!({"user_id": user, "type": "benefit_account", "provider_id": admin})).await;
    (user, connection)
}

#[tokio::test]
async fn accounts_carry_balances_dates_and_filters() {
    let app = TestApp::spawn().await;
    let (_, key) = app.partner_key("benefit_account,expenses").await;
    // Enough members that every account type and both HSA flavours appear.
    let mut seen = Vec::new();
    for i in 0..8 {
        let (user, connection) = linked(&app, &key, &format!("m{i}"), "HealthEquity").await;
        let listed = app.get(&key, &format!("/users/{user}/accounts")).await;
        assert_eq!(listed.status, 200, "{}", listed.body);
        let data = listed.body["data"].as_array().unwrap().clone();
        assert_eq!(data.len(), connection["accounts"].as_array().unwrap().len());
        assert_eq!(listed.body["pagination"]["total"], data.len());
        for account in &data {
            assert_eq!(account["connection_id"], connection["id"]);
            assert!(account["external_id"].as_str().unwrap().len() > 4);
            assert!(account["start_date"].as_str().unwrap().len() == 10);
            assert!(account["last_sync_at"].as_str().unwrap().ends_with('Z'));
            let balance = &account["balance"];
            assert!(balance["cash"].as_f64().unwrap() >= 0.0);
            match account["type"].as_str().unwrap() {
                "hsa" => assert_eq!(account["end_date"], Value::Null),
                "fsa" | "hra" => {
                    assert!(account["end_date"].as_str().unwrap().ends_with("-12-31"));
                    assert_eq!(balance["invested"], Value::Null);
                }
                other => panic!("{other}"),
            }
            seen.push((account["type"].as_str().unwrap().to_string(), balance["invested"].is_null()));
        }
        if let Some(first) = data.first() {
            let kind = first["type"].as_str().unwrap();
            let filtered = app.get(&key, &format!("/users/{user}/accounts?type={kind}")).await.body;
            assert!(filtered["data"].as_array().unwrap().iter().all(|a| a["type"] == kind));
            let by_connection = app
                .get(&key, &format!("/users/{user}/accounts?connection_id={}", connection["id"].as_str().unwrap()))
                .await;
            assert_eq!(by_connection.body["pagination"]["total"], data.len());
        }
    }
    assert!(seen.iter().any(|(t, _)| t == "hsa"));
    assert!(seen.iter().any(|(t, _)| t == "fsa"));
    assert!(seen.iter().any(|(t, no_investments)| t == "hsa" && !no_investments), "an HSA with investments: {seen:?}");
    assert!(
        seen.iter().any(|(t, no_investments)| t == "hsa" && *no_investments),
        "an HSA without investments: {seen:?}"
    );
}

#[tokio::test]
async fn the_detail_record_has_contributions_and_the_investment_split() {
    let app = TestApp::spawn().await;
    let (_, key) = app.partner_key("benefit_account").await;
    for i in 0..10 {
        let (user, _) = linked(&app, &key, &format!("hsa-{i}"), "Fidelity Investments").await;
        let listed = app.get(&key, &format!("/users/{user}/accounts")).await.body;
        let hsa = &listed["data"][0];
        assert_eq!(hsa["type"], "hsa");
        let detail = app.get(&key, &format!("/users/{user}/accounts/{}", hsa["id"].as_str().unwrap())).await;
        assert_eq!(detail.status, 200, "{}", detail.body);
        let d = &detail.body;
        for field in
            ["id", "connection_id", "external_id", "name", "type", "start_date", "end_date", "balance", "last_sync_at"]
        {
            assert_eq!(d[field], hsa[field], "{field}");
        }
        let contributions = &d["contributions"];
        assert!(contributions["tax_year"].as_i64().unwrap() >= 2025);
        assert!(contributions["year_to_date"].as_f64().unwrap() >= 0.0);
        assert!([4300.0, 8550.0].contains(&contributions["annual_limit"].as_f64().unwrap()));
        assert!(["self_only", "family"].contains(&contributions["coverage"].as_str().unwrap()));
        if d["balance"]["invested"].is_null() {
            assert_eq!(d["investments"], Value::Null);
            continue;
        }
        let investments = &d["investments"];
        assert_eq!(investments["total"], d["balance"]["invested"]);
        let sum: f64 = investments["holdings"].as_array().unwrap().iter().map(|h| h["value"].as_f64().unwrap()).sum();
        assert!((sum - investments["total"].as_f64().unwrap()).abs() < 0.005, "{investments}");
        return;
    }
    panic!("no HSA with investments among ten sandbox members");
}

#[tokio::test]
async fn product_scope_and_filter_refusals() {
    let app = TestApp::spawn().await;
    let (partner, key) = app.partner_key("benefit_account,expenses").await;
    let (user, _) = linked(&app, &key, "m1", "HSA Bank").await;
    let card = app.sandbox_connection(&key, json!({"user_id": user, "type": "card"})).await;
    // The contract lists the accounts of every connection (a card connection
    // has none), leaving out only balances without the benefit_account product.
    let of_card =
        app.get(&key, &format!("/users/{user}/accounts?connection_id={}", card["id"].as_str().unwrap())).await;
    assert_eq!(of_card.status, 200, "{}", of_card.body);
    assert_eq!(of_card.body["pagination"]["total"], 0);
    app.get(&key, &format!("/users/{user}/accounts?type=brokerage")).await.assert_error(
        400,
        "invalid_request",
        Some("type"),
    );
    app.get(&key, &format!("/users/{user}/accounts?connection_id=conn_0190f0b1c2d37e8f9a0b1c2d3e4f5a6b"))
        .await
        .assert_error(404, "not_found", Some("connection_id"));
    app.get(&key, &format!("/users/{user}/accounts/acct_0190f0b1c2d37e8f9a0b1c2d3e4f5a6b")).await.assert_error(
        404,
        "not_found",
        Some("account_id"),
    );
    let no_scope = app.key_for(&partner, "expenses,connections").await;
    app.get(&no_scope, &format!("/users/{user}/accounts")).await.assert_error(403, "insufficient_key_scope", None);
}

#[tokio::test]
async fn another_partners_or_users_accounts_are_404() {
    let app = TestApp::spawn().await;
    let (_, mine) = app.partner_key("benefit_account").await;
    let (_, theirs) = app.partner_key("benefit_account").await;
    let (their_user, their_conn) = linked(&app, &theirs, "t1", "Lively").await;
    let their_account = their_conn["accounts"][0]["id"].as_str().unwrap().to_string();
    let (my_user, _) = linked(&app, &mine, "m1", "Lively").await;
    let my_other = app.create_user(&mine, "m2").await;

    app.get(&mine, &format!("/users/{their_user}/accounts")).await.assert_error(404, "not_found", Some("user_id"));
    app.get(&mine, &format!("/users/{their_user}/accounts/{their_account}")).await.assert_error(
        404,
        "not_found",
        Some("user_id"),
    );
    app.get(&mine, &format!("/users/{my_user}/accounts/{their_account}")).await.assert_error(
        404,
        "not_found",
        Some("account_id"),
    );
    app.get(&mine, &format!("/users/{my_user}/accounts?connection_id={}", their_conn["id"].as_str().unwrap()))
        .await
        .assert_error(404, "not_found", Some("connection_id"));
    let my_account =
        app.get(&mine, &format!("/users/{my_user}/accounts")).await.body["data"][0]["id"].as_str().unwrap().to_string();
    app.get(&mine, &format!("/users/{my_other}/accounts/{my_account}")).await.assert_error(
        404,
        "not_found",
        Some("account_id"),
    );
    assert_eq!(app.get(&mine, &format!("/users/{my_other}/accounts")).await.body["data"], json!([]));
}
