//! The OpenAPI document and reference page: served without a key, identical
//! to the committed `docs/openapi.json`, and true to the routes it describes.

use crate::helpers::{Reply, TestApp};

const COMMITTED: &str = include_str!("../../docs/openapi.json");

#[test]
fn the_committed_document_is_current() {
    assert!(
        COMMITTED == sail_api::OPENAPI_JSON,
        "docs/openapi.json is stale: regenerate it with `cargo run -q -p sail -- openapi > docs/openapi.json`"
    );
}

#[test]
fn every_route_is_documented_with_its_success_status_and_the_envelope() {
    let document: serde_json::Value = serde_json::from_str(sail_api::OPENAPI_JSON).unwrap();
    assert_eq!(document["openapi"], "3.1.0");
    for route in sail_api::rest::ROUTES {
        let operation = &document["paths"][route.path][route.method.to_ascii_lowercase()];
        assert!(operation.is_object(), "{route:?} is not documented");
        assert!(operation["responses"][route.success_status.to_string()].is_object(), "{route:?}");
        for status in ["400", "401", "403", "404", "429", "500"] {
            assert_eq!(
                operation["responses"][status]["$ref"],
                format!("#/components/responses/Error{status}"),
                "{route:?} {status}"
            );
        }
        assert!(!operation["security"].as_array().unwrap().is_empty(), "{route:?} needs a key");
    }
    let codes = document["components"]["schemas"]["Error"]["properties"]["error"]["properties"]["code"]["enum"]
        .as_array()
        .unwrap()
        .len();
    assert_eq!(codes, sail_api::ErrorCode::ALL.len());
    let create = &document["components"]["schemas"]["CreateConnectionRequest"];
    assert!(create["properties"].get("user_id").is_none(), "path-bound fields stay out of the body schema");
    assert_eq!(create["required"], serde_json::json!(["type", "provider_label"]));
}

#[tokio::test]
async fn the_document_and_reference_are_served_without_a_key() {
    let app = TestApp::spawn().await;
    let document = Reply::from(app.client.get(app.url("/openapi.json")).send().await.unwrap()).await;
    assert_eq!(document.status, 200);
    assert_eq!(document.body, serde_json::from_str::<serde_json::Value>(sail_api::OPENAPI_JSON).unwrap());
    assert!(document.headers.contains_key("request-id"));

    let page = app.client.get(app.url("/docs")).send().await.unwrap();
    assert_eq!(page.status(), 200);
    assert!(page.headers()["content-type"].to_str().unwrap().starts_with("text/html"));
    let html = page.text().await.unwrap();
    assert!(html.contains("id=\"PushTransactions\""), "every operation has its section");
    assert!(!html.contains("src=\"http"), "the page loads nothing from the network");
}

#[test]
fn the_document_states_the_plain_text_rule_the_core_enforces() {
    let document: serde_json::Value = serde_json::from_str(sail_api::OPENAPI_JSON).unwrap();
    let external_user_id = &document["components"]["schemas"]["CreateUserRequest"]["properties"]["external_user_id"];
    assert_eq!(external_user_id["pattern"], sail_api::required::PLAIN_TEXT_PATTERN);
    assert_eq!(external_user_id["allOf"][0]["pattern"], "\\S");
}
