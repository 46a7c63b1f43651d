//! `/merchants` and `/administrators`: seeded on a fresh database, paged, and
//! fuzzy-searched with typos.

use serde_json::{Value, json};

use crate::helpers::TestApp;

fn names(body: &Value) -> Vec<String> {
    body["data"].as_array().unwrap().iter().map(|m| m["name"].as_str().unwrap().to_string()).collect()
}

#[tokio::test]
async fn a_fresh_database_has_the_whole_directory() {
    let app = TestApp::spawn().await;
    let (_, key) = app.partner_key("ingest").await;
    let merchants = app.get(&key, "/merchants?limit=100").await;
    assert_eq!(merchants.status, 200);
    let expected = migration::seed::merchants().unwrap().len();
    assert_eq!(merchants.body["pagination"]["total"], expected as u64);
    let cvs = merchants.body["data"].as_array().unwrap().iter().find(|m| m["name"] == "CVS Pharmacy").unwrap();
    assert_eq!(cvs["capabilities"]["item_level_receipts"], true);
    assert_eq!(cvs["urls"], json!({"main": "https://www.cvs.com", "logo": null}));
    assert!(cvs["id"].as_str().unwrap().starts_with("mer_"));
    let mut sorted = names(&merchants.body);
    sorted.sort();
    assert_eq!(names(&merchants.body), sorted, "unsearched lists are by name");

    let admins = app.get(&key, "/administrators?limit=100").await;
    assert_eq!(admins.body["pagination"]["total"], 16);
    let fidelity =
        admins.body["data"].as_array().unwrap().iter().find(|a| a["name"] == "Fidelity Investments").unwrap();
    assert_eq!(fidelity["account_types"], json!(["hsa"]));
    assert!(fidelity["id"].as_str().unwrap().starts_with("adm_"));
}

#[tokio::test]
async fn misspelled_merchant_queries_find_the_merchant_first() {
    let app = TestApp::spawn().await;
    let (_, key) = app.partner_key("expenses").await;
    let cases = [
        ("walgren", "Walgreens"),
        ("walgrens", "Walgreens"),
        ("cvs pharmcy", "CVS Pharmacy"),
        ("costko", "Costco"),
        ("walmrt", "Walmart"),
        ("targett", "Target"),
        ("amazn", "Amazon"),
        ("krogr", "Kroger"),
        ("lenscrafter", "LensCrafters"),
        ("quest diagnostic", "Quest Diagnostics"),
        ("sams club", "Sam's Club"),
        ("warby parkr", "Warby Parker"),
        ("1800 contacts", "1-800 Contacts"),
        ("heb", "H-E-B"),
        ("planet fitnes", "Planet Fitness"),
        ("miracle ear", "Miracle-Ear"),
    ];
    let mut misses = Vec::new();
    for (query, expected) in cases {
        let reply = app.get(&key, &format!("/merchants?search={}", query.replace(' ', "+"))).await;
        assert_eq!(reply.status, 200, "{}", reply.body);
        let found = names(&reply.body);
        if found.first().map(String::as_str) != Some(expected) {
            misses.push(format!("{query:?} → {found:?}"));
        }
    }
    assert!(misses.is_empty(), "queries whose best match was wrong: {misses:#?}");

    let nothing = app.get(&key, "/merchants?search=xylophone").await;
    assert_eq!(nothing.body["data"], json!([]));
    assert_eq!(nothing.body["pagination"]["total"], 0);
}

#[tokio::test]
async fn administrator_search_and_paging() {
    let app = TestApp::spawn().await;
    let (_, key) = app.partner_key("benefit_account").await;
    let reply = app.get(&key, "/administrators?search=helthequity").await;
    assert_eq!(names(&reply.body).first().map(String::as_str), Some("HealthEquity"));
    let page = app.get(&key, "/administrators?limit=5&offset=15").await;
    assert_eq!(page.body["data"].as_array().unwrap().len(), 1);
    assert_eq!(page.body["pagination"], json!({"total": 16, "limit": 5, "offset": 15, "has_more": false}));
    app.get(&key, "/merchants?limit=101").await.assert_error(400, "invalid_request", Some("limit"));
    let long = "a".repeat(101);
    app.get(&key, &format!("/merchants?search={long}")).await.assert_error(400, "invalid_request", Some("search"));
}
