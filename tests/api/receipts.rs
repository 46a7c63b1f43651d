//! Receipts (docs/receipts.md): uploads over REST (multipart) and gRPC, the
//! error paths, tenancy, the fixture set read end to end with its accuracy
//! printed, an eligible expense that keeps its decision, events, and a
//! reading job that survives a crash of the core.

use std::time::Duration;

use sail_api::pb::{self, receipts_client::ReceiptsClient};
use sail_test_support::receipts::{FileKind, ReceiptCase, cases, generated_baskets, render};
use serde_json::{Value, json};
use tonic::metadata::MetadataValue;
use tonic_types::StatusExt;

use crate::helpers::{Options, Reply, TestApp, eventually};

/// A partner key for receipts, a user and an external connection.
pub(crate) async fn setup(app: &TestApp) -> (String, String, String) {
    let (_, key) = app.partner_key("expenses,ingest,connections").await;
    let user_id = app.create_user(&key, "receipts-user").await;
    let connection_id = app.external_connection(&key, &user_id).await;
    (key, user_id, connection_id)
}

/// Pushes purchases and returns their expenses, in order.
pub(crate) async fn push(
    app: &TestApp,
    key: &str,
    user_id: &str,
    connection_id: &str,
    rows: &[(&str, i64, &str)],
) -> Vec<Value> {
    let transactions: Vec<Value> = rows
        .iter()
        .enumerate()
        .map(|(n, (descriptor, amount, date))| {
            json!({"external_transaction_id": format!("r-{n}"), "date": date,
                   "amount": *amount as f64 / 100.0, "description": descriptor})
        })
        .collect();
    let pushed = app
        .post(
            key,
            &format!("/users/{user_id}/connections/{connection_id}/transactions"),
            json!({"transactions": transactions}),
        )
        .await;
    assert_eq!(pushed.status, 202, "{}", pushed.body);
    app.wait_for_job(key, pushed.body["job_id"].as_str().unwrap()).await;
    let listed = app.get(key, &format!("/users/{user_id}/expenses?limit=100")).await;
    (0..rows.len())
        .map(|n| {
            listed.body["data"]
                .as_array()
                .unwrap()
                .iter()
                .find(|e| e["external_transaction_id"] == format!("r-{n}"))
                .unwrap()
                .clone()
        })
        .collect()
}

pub(crate) async fn upload(
    app: &TestApp,
    key: &str,
    user_id: &str,
    expense_id: &str,
    name: &str,
    bytes: Vec<u8>,
) -> Reply {
    let part = reqwest::multipart::Part::bytes(bytes).file_name(name.to_string());
    let form = reqwest::multipart::Form::new().part("file", part);
    let url = app.url(&format!("/users/{user_id}/expenses/{expense_id}/receipts"));
    Reply::from(app.client.post(url).bearer_auth(key).multipart(form).send().await.unwrap()).await
}

pub(crate) async fn wait_read(app: &TestApp, key: &str, user_id: &str, expense_id: &str, receipt_id: &str) -> Value {
    let path = format!("/users/{user_id}/expenses/{expense_id}/receipts/{receipt_id}");
    eventually("the receipt to be read", Duration::from_secs(60), || async {
        let reply = app.get(key, &path).await;
        assert_eq!(reply.status, 200, "{}", reply.body);
        (reply.body["status"] != "processing").then_some(reply.body)
    })
    .await
}

fn tesseract_installed() -> bool {
    std::process::Command::new("tesseract").arg("--version").output().is_ok_and(|o| o.status.success())
}

/// A page of expenses asks for receipts only for the expenses that have
/// some: each listed expense still shows exactly its own.
#[tokio::test]
async fn a_listed_expense_shows_its_receipts_and_no_other() {
    let app = TestApp::spawn().await;
    let (key, user_id, connection_id) = setup(&app).await;
    let rows = [("WALGREENS #1234", 2498, "2026-11-03"), ("WALGREENS #1234", 1200, "2026-11-02")];
    let expenses = push(&app, &key, &user_id, &connection_id, &rows).await;
    let with_receipt = expenses[0]["id"].as_str().unwrap();
    let without = expenses[1]["id"].as_str().unwrap();
    let text =
        "Walgreens #1234\n11/03/2026\nCETIRIZINE 10MG 30CT   15.99 F\nSALINE SOLUTION 12OZ   8.99 F\nTOTAL   24.98\n";
    let created = upload(&app, &key, &user_id, with_receipt, "walgreens.txt", text.as_bytes().to_vec()).await;
    assert_eq!(created.status, 201, "{}", created.body);
    let read = wait_read(&app, &key, &user_id, with_receipt, created.body["id"].as_str().unwrap()).await;

    let listed = app.get(&key, &format!("/users/{user_id}/expenses")).await;
    assert_eq!(listed.status, 200, "{}", listed.body);
    let of = |id: &str| listed.body["data"].as_array().unwrap().iter().find(|e| e["id"] == id).cloned().unwrap();
    let receipts = of(with_receipt)["receipts"].clone();
    assert_eq!(receipts.as_array().unwrap().len(), 1, "{receipts}");
    assert_eq!(receipts[0]["id"], read["id"]);
    assert_eq!(receipts[0]["status"], read["status"]);
    assert_eq!(of(without)["receipts"], json!([]));
    // The same expense alone answers the same receipts.
    let alone = app.get(&key, &format!("/users/{user_id}/expenses/{with_receipt}")).await.body;
    assert_eq!(alone["receipts"], receipts);
}

#[tokio::test]
async fn a_pharmacy_receipt_clears_a_needs_review_expense() {
    let app = TestApp::spawn().await;
    let (key, user_id, connection_id) = setup(&app).await;
    let expenses = push(&app, &key, &user_id, &connection_id, &[("WALGREENS #1234", 2498, "2026-11-03")]).await;
    assert_eq!(expenses[0]["status"], "needs_review");
    let expense_id = expenses[0]["id"].as_str().unwrap();
    let text =
        "Walgreens #1234\n11/03/2026\nCETIRIZINE 10MG 30CT   15.99 F\nSALINE SOLUTION 12OZ   8.99 F\nTOTAL   24.98\n";
    let created = upload(&app, &key, &user_id, expense_id, "walgreens.txt", text.as_bytes().to_vec()).await;
    assert_eq!(created.status, 201, "{}", created.body);
    let receipt = &created.body;
    assert!(receipt["id"].as_str().unwrap().starts_with("rcpt_"));
    assert_eq!(receipt["status"], "processing");
    assert_eq!(receipt["content_type"], "text/plain");
    assert_eq!(receipt["size_bytes"], text.len());
    assert_eq!(receipt["sha256"].as_str().unwrap().len(), 64);
    assert!(receipt["merchant"].is_null() && receipt["total"].is_null() && receipt["read_at"].is_null());

    let read = wait_read(&app, &key, &user_id, expense_id, receipt["id"].as_str().unwrap()).await;
    assert_eq!(read["status"], "read", "{read}");
    assert_eq!(read["merchant"], "Walgreens #1234");
    assert_eq!(read["date"], "2026-11-03");
    assert_eq!(read["total"], 24.98);
    assert_eq!(read["eligible_amount"], 24.98);
    assert_eq!(
        read["line_items"][0],
        json!({"description": "CETIRIZINE 10MG 30CT", "amount": 15.99, "status": "eligible",
               "category": "otc_medicine", "reason": "otc_medicine"})
    );
    // One name for one meaning: a receipt line's `category` is what the
    // expense's item of the same line calls its `category`.
    let decided = app.get(&key, &format!("/users/{user_id}/expenses/{expense_id}")).await.body;
    let categories = |lines: &Value| -> Vec<String> {
        lines.as_array().unwrap().iter().map(|l| l["category"].as_str().unwrap().to_string()).collect()
    };
    assert_eq!(categories(&read["line_items"]), categories(&decided["items"]), "{read} vs {decided}");
    assert!(read["reason"].is_null());

    let expense = app.get(&key, &format!("/users/{user_id}/expenses/{expense_id}")).await;
    assert_eq!(expense.body["status"], "eligible", "{}", expense.body);
    assert_eq!(expense.body["eligible_amount"], 24.98);
    assert_eq!(expense.body["reason"]["code"], "receipt_substantiated");
    assert_eq!(expense.body["receipts"][0]["id"], read["id"]);
    assert_eq!(expense.body["receipts"][0]["status"], "read");
    assert_eq!(expense.body["items"].as_array().unwrap().len(), 2);

    let events = app.get(&key, "/events?type=expense.readjudicated").await;
    let event = &events.body["data"][0]["data"];
    assert_eq!(event["expense_id"], expense_id);
    assert_eq!(event["before"]["status"], "needs_review");
    assert_eq!(event["after"]["status"], "eligible");
    assert_eq!(event["after"]["eligible_amount"], 24.98);
}

/// A receipt is read at the store its purchase names: at an auto-parts
/// store (category code 5533, which sells nothing for medical care) a line
/// that reads as care is held for a person and a line no term names is the
/// store's own goods; the same receipt with no code reads the line as care.
#[tokio::test]
async fn a_receipt_is_read_at_the_store_its_purchase_names() {
    let app = TestApp::spawn().await;
    let (key, user_id, connection_id) = setup(&app).await;
    let purchase = |id: &str, amount: f64, mcc: Option<&str>| {
        let mut row = json!({"external_transaction_id": id, "date": "2026-11-03", "amount": amount,
                             "description": "NAPA AUTO PARTS 0123"});
        if let Some(mcc) = mcc {
            row["mcc"] = json!(mcc);
        }
        row
    };
    let rows = json!({"transactions": [
        purchase("auto-mixed", 69.98, Some("5533")),
        purchase("auto-goods", 42.98, Some("5533")),
        purchase("no-code", 69.98, None),
    ]});
    let pushed = app.post(&key, &format!("/users/{user_id}/connections/{connection_id}/transactions"), rows).await;
    assert_eq!(pushed.status, 202, "{}", pushed.body);
    app.wait_for_job(&key, pushed.body["job_id"].as_str().unwrap()).await;
    let listed = app.get(&key, &format!("/users/{user_id}/expenses?limit=100")).await.body;
    let expense = |id: &str| -> String {
        let found = listed["data"].as_array().unwrap().iter().find(|e| e["external_transaction_id"] == id);
        found.unwrap()["id"].as_str().unwrap().to_string()
    };
    let read = |expense_id: String, text: &'static str| {
        let (app, key, user_id) = (&app, &key, &user_id);
        async move {
            let created = upload(app, key, user_id, &expense_id, "napa.txt", text.as_bytes().to_vec()).await;
            assert_eq!(created.status, 201, "{}", created.body);
            let read = wait_read(app, key, user_id, &expense_id, created.body["id"].as_str().unwrap()).await;
            let decided = app.get(key, &format!("/users/{user_id}/expenses/{expense_id}")).await.body;
            (read, decided)
        }
    };
    let mixed = "NAPA Auto Parts\n11/03/2026\nMOBIL 1 0W20 5QT     34.99\nFLOOR LINERS FRONT   34.99\nTOTAL   69.98\n";
    let (receipt, decided) = read(expense("auto-mixed"), mixed).await;
    let line = |receipt: &Value, n: usize| {
        (receipt["line_items"][n]["status"].clone(), receipt["line_items"][n]["category"].clone())
    };
    assert_eq!(line(&receipt, 0), (json!("ineligible"), json!("store_goods")), "{receipt}");
    assert_eq!(line(&receipt, 1), (json!("needs_review"), json!("menstrual_care")), "{receipt}");
    assert_eq!(decided["status"], "needs_review", "{decided}");
    assert_eq!(decided["reason"]["code"], "receipt_lines_need_review");
    let message = decided["reason"]["message"].as_str().unwrap();
    assert!(message.contains("store whose category sells none") && message.contains("FLOOR LINERS"), "{message}");

    let goods = "NAPA Auto Parts\n11/03/2026\nMOBIL 1 0W20 5QT     34.99\nNAPA GOLD 1348        7.99\nTOTAL   42.98\n";
    let (receipt, decided) = read(expense("auto-goods"), goods).await;
    assert_eq!(line(&receipt, 1), (json!("ineligible"), json!("store_goods")), "{receipt}");
    assert_eq!(decided["status"], "ineligible", "{decided}");
    assert_eq!(decided["reason"]["code"], "receipt_no_eligible_items");

    // With no category code nothing is known of the store: the words alone decide.
    let (receipt, _) = read(expense("no-code"), mixed).await;
    assert_eq!(line(&receipt, 0).1, json!("unclassified"), "{receipt}");
    assert_eq!(line(&receipt, 1), (json!("eligible"), json!("menstrual_care")), "{receipt}");
}

#[tokio::test]
async fn uploads_are_checked_by_their_bytes_size_scope_and_tenancy() {
    let app = TestApp::spawn().await;
    let (key, user_id, connection_id) = setup(&app).await;
    let expenses = push(&app, &key, &user_id, &connection_id, &[("WALGREENS #1234", 1000, "2026-11-03")]).await;
    let expense_id = expenses[0]["id"].as_str().unwrap();

    // A PNG named .pdf is a PNG; a zip is refused naming the file.
    let png = render(FileKind::Png, "Walgreens\nIBUPROFEN 10.00\nTOTAL 10.00").or_else(|| {
        // Without the font, the smallest PNG there is.
        Some(b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x01\0\0\0\x01\x08\0\0\0\0:~\x9bU\0\0\0\nIDATx\x9cc`\0\0\0\x02\0\x01H\xaf\xa4q\0\0\0\0IEND\xaeB`\x82".to_vec())
    });
    let named_pdf = upload(&app, &key, &user_id, expense_id, "scan.pdf", png.unwrap()).await;
    assert_eq!(named_pdf.status, 201, "{}", named_pdf.body);
    assert_eq!(named_pdf.body["content_type"], "image/png");
    let zip = b"PK\x03\x04\x14\0\0\0\0\0".iter().copied().chain(std::iter::repeat_n(0u8, 64)).collect();
    let refused = upload(&app, &key, &user_id, expense_id, "receipt.docx", zip).await;
    refused.assert_error(400, "invalid_request", Some("file"));
    assert!(refused.body["error"]["message"].as_str().unwrap().contains("receipt.docx"), "{}", refused.body);
    let binary = upload(&app, &key, &user_id, expense_id, "x.bin", vec![0, 1, 2, 3, 255, 254]).await;
    binary.assert_error(400, "invalid_request", Some("file"));
    let empty = upload(&app, &key, &user_id, expense_id, "empty.txt", Vec::new()).await;
    empty.assert_error(400, "invalid_request", Some("file"));

    // Too large: 413 at the gateway, and from the core over gRPC.
    let big = vec![b'a'; 10 * 1024 * 1024 + 1];
    upload(&app, &key, &user_id, expense_id, "big.txt", big.clone()).await.assert_error(
        413,
        "request_too_large",
        Some("file"),
    );
    let mut client = ReceiptsClient::connect(format!("http://{}", app.grpc_addr)).await.unwrap();
    let mut request = tonic::Request::new(pb::CreateReceiptRequest {
        user_id: user_id.clone(),
        expense_id: expense_id.to_string(),
        file: big,
        file_name: Some("big.txt".into()),
    });
    request.metadata_mut().insert("authorization", MetadataValue::try_from(format!("Bearer {key}")).unwrap());
    let status = client.create_receipt(request).await.unwrap_err();
    assert_eq!(status.get_error_details().error_info().unwrap().reason, "REQUEST_TOO_LARGE");

    // Not multipart, an unknown part, no file part.
    let json_body =
        app.post(&key, &format!("/users/{user_id}/expenses/{expense_id}/receipts"), json!({"file": "x"})).await;
    json_body.assert_error(400, "invalid_request", None);
    let form = reqwest::multipart::Form::new().text("note", "hi");
    let url = app.url(&format!("/users/{user_id}/expenses/{expense_id}/receipts"));
    let unknown = Reply::from(app.client.post(&url).bearer_auth(&key).multipart(form).send().await.unwrap()).await;
    unknown.assert_error(400, "invalid_request", Some("note"));

    // A key without `expenses`, another partner, a receipt id of another expense.
    let (_, ingest_only) = app.partner_key("ingest").await;
    upload(&app, &ingest_only, &user_id, expense_id, "r.txt", b"TOTAL 10.00".to_vec()).await.assert_error(
        403,
        "insufficient_key_scope",
        None,
    );
    let (_, stranger) = app.partner_key("expenses").await;
    upload(&app, &stranger, &user_id, expense_id, "r.txt", b"TOTAL 10.00".to_vec()).await.assert_error(
        404,
        "not_found",
        Some("user_id"),
    );
    let receipt_id = named_pdf.body["id"].as_str().unwrap();
    app.get(&stranger, &format!("/users/{user_id}/expenses/{expense_id}/receipts/{receipt_id}")).await.assert_error(
        404,
        "not_found",
        Some("user_id"),
    );
    let unknown_expense = "exp_0193a5b2c4d87e6f9a0b1c2d3e4f5a6b";
    upload(&app, &key, &user_id, unknown_expense, "r.txt", b"TOTAL 10.00".to_vec()).await.assert_error(
        404,
        "not_found",
        Some("expense_id"),
    );
    let other_connection = app.external_connection(&key, &user_id).await;
    let second = push(&app, &key, &user_id, &other_connection, &[("KROGER #512", 500, "2026-11-03")]).await;
    assert_ne!(second[0]["id"], expenses[0]["id"]);
    let other_expense = second[0]["id"].as_str().unwrap();
    app.get(&key, &format!("/users/{user_id}/expenses/{other_expense}/receipts/{receipt_id}")).await.assert_error(
        404,
        "not_found",
        Some("receipt_id"),
    );
}

#[tokio::test]
async fn unreadable_receipts_say_why_and_keep_the_expense_in_review() {
    let app = TestApp::spawn().await;
    let (key, user_id, connection_id) = setup(&app).await;
    let expenses = push(&app, &key, &user_id, &connection_id, &[("WALGREENS #1234", 1000, "2026-11-03")]).await;
    let expense_id = expenses[0]["id"].as_str().unwrap();
    let created = upload(&app, &key, &user_id, expense_id, "blank.txt", b"   \n\n .. \n".to_vec()).await;
    assert_eq!(created.status, 201, "{}", created.body);
    let read = wait_read(&app, &key, &user_id, expense_id, created.body["id"].as_str().unwrap()).await;
    assert_eq!(read["status"], "unreadable");
    assert_eq!(read["reason"]["code"], "no_text");
    let expense = app.get(&key, &format!("/users/{user_id}/expenses/{expense_id}")).await;
    assert_eq!(expense.body["status"], "needs_review");
    assert_eq!(expense.body["reason"]["code"], "receipt_unreadable");
    let events = app.get(&key, "/events?type=receipt.unreadable").await;
    assert_eq!(events.body["data"][0]["data"]["receipt_id"], read["id"]);

    // Text that is no receipt (no total, no item line) is unreadable too,
    // not a receipt read with nothing on it.
    let letter = b"Dear customer,\nThank you for shopping with us today.\nSee you soon!\n".to_vec();
    let created = upload(&app, &key, &user_id, expense_id, "letter.txt", letter).await;
    let read = wait_read(&app, &key, &user_id, expense_id, created.body["id"].as_str().unwrap()).await;
    assert_eq!(
        (read["status"].as_str(), read["reason"]["code"].as_str()),
        (Some("unreadable"), Some("no_receipt_lines"))
    );
    assert_eq!(read["total"], Value::Null);
}

#[tokio::test]
async fn uploads_over_grpc_and_a_reading_job_survives_a_crash() {
    // No workers: the receipt waits in its job when the core dies.
    let options = Options {
        core: core_grpc::CoreConfig { workers: 0, rate_limit_rps: 0, ..Options::default().core },
        ..Default::default()
    };
    let mut app = TestApp::spawn_with(options).await;
    let (key, user_id, connection_id) = setup(&app).await;
    // Push while no worker runs: a second core with workers adjudicates.
    let helper = app.extra_core(core_grpc::CoreConfig { rate_limit_rps: 0, ..Options::default().core });
    let expenses = push(&app, &key, &user_id, &connection_id, &[("CVS/PHARMACY #04562", 1348, "2026-11-02")]).await;
    drop(helper);
    let expense_id = expenses[0]["id"].as_str().unwrap().to_string();

    let mut client = ReceiptsClient::connect(format!("http://{}", app.grpc_addr)).await.unwrap();
    let text = "CVS/pharmacy #04562\n11/02/2026\nIBUPROFEN 200MG 50CT 8.99 F\nBANDAGES 30CT 4.49 F\nTOTAL 13.48\n";
    let mut request = tonic::Request::new(pb::CreateReceiptRequest {
        user_id: user_id.clone(),
        expense_id: expense_id.clone(),
        file: text.as_bytes().to_vec(),
        file_name: Some("cvs.txt".into()),
    });
    request.metadata_mut().insert("authorization", MetadataValue::try_from(format!("Bearer {key}")).unwrap());
    let created = client.create_receipt(request).await.unwrap().into_inner();
    assert_eq!(created.status, "processing");
    assert_eq!(created.content_type, "text/plain");

    app.crash_core();
    app.restart_core(core_grpc::CoreConfig { rate_limit_rps: 0, ..Options::default().core });
    let read = wait_read(&app, &key, &user_id, &expense_id, &created.id).await;
    assert_eq!(read["status"], "read");
    assert_eq!(read["eligible_amount"], 13.48);
    let expense = app.get(&key, &format!("/users/{user_id}/expenses/{expense_id}")).await;
    assert_eq!(expense.body["status"], "eligible");
}

/// How one kind of file did on a set of cases: decisions right, decisions
/// and eligible amounts (within a cent) right, cases.
struct KindScore {
    kind: FileKind,
    decided: usize,
    amounts: usize,
    total: usize,
}

/// Every case of `cases` end to end through the API, once per kind of file
/// (text, PDF, PNG, phone photo): purchases pushed, receipts uploaded and
/// read, each expense compared with what its case expects; misses and the
/// accuracy per kind printed under `set`.
async fn decide_all(app: &TestApp, set: &str, cases: &[ReceiptCase]) -> Vec<KindScore> {
    let ocr = tesseract_installed();
    // CI sets SAIL_REQUIRE_OCR: there, a missing Tesseract or font fails
    // the run instead of turning the image rows into something else.
    let required = std::env::var_os("SAIL_REQUIRE_OCR").is_some();
    assert!(ocr || !required, "SAIL_REQUIRE_OCR is set but tesseract is not installed (apt-get install tesseract-ocr)");
    if !ocr {
        eprintln!("tesseract is not installed: image receipts are expected to be unreadable (ocr_unavailable)");
    }
    let mut report = Vec::new();
    for kind in FileKind::ALL {
        let (key, user_id, connection_id) = setup(app).await;
        let rows: Vec<(&str, i64, &str)> = cases.iter().map(|c| (c.descriptor, c.amount_minor, c.date)).collect();
        let expenses = push(app, &key, &user_id, &connection_id, &rows).await;
        let mut uploaded = Vec::new();
        for (case, expense) in cases.iter().zip(&expenses) {
            let Some(bytes) = render(kind, &case.receipt) else {
                assert!(
                    !required,
                    "SAIL_REQUIRE_OCR is set but the font to render {} receipts is missing",
                    kind.name()
                );
                eprintln!("cannot render {} receipts here (no font): skipped", kind.name());
                break;
            };
            let expense_id = expense["id"].as_str().unwrap().to_string();
            let created = upload(app, &key, &user_id, &expense_id, kind.file_name(), bytes).await;
            assert_eq!(created.status, 201, "{}: {}", case.name, created.body);
            uploaded.push((case, expense_id, created.body["id"].as_str().unwrap().to_string()));
        }
        let mut score = KindScore { kind, decided: 0, amounts: 0, total: 0 };
        for (case, expense_id, receipt_id) in &uploaded {
            let read = wait_read(app, &key, &user_id, expense_id, receipt_id).await;
            if matches!(kind, FileKind::Png | FileKind::Photo) && !ocr {
                assert_eq!(read["status"], "unreadable");
                assert_eq!(read["reason"]["code"], "ocr_unavailable");
                continue;
            }
            let expense = app.get(&key, &format!("/users/{user_id}/expenses/{expense_id}")).await.body;
            score.total += 1;
            let status_ok = expense["status"] == case.expected_status;
            let amount_ok = match case.expected_eligible_minor {
                None => true,
                Some(cents) => expense["eligible_amount"]
                    .as_f64()
                    .is_some_and(|got| ((got * 100.0).round() as i64 - cents).abs() <= 1),
            };
            score.decided += usize::from(status_ok);
            score.amounts += usize::from(status_ok && amount_ok);
            // One meaning per figure: when the receipt decided its expense,
            // the receipt's eligible amount is the expense's
            // (docs/receipts.md, "Two eligible amounts").
            if expense["rule"] == "itemized_receipt" && expense["status"] != "needs_review" {
                assert_eq!(read["eligible_amount"], expense["eligible_amount"], "{}: {read} vs {expense}", case.name);
            }
            if !(status_ok && amount_ok) {
                eprintln!(
                    "miss [{set}, {}] {}: expected {} {:?}, got {} {} (receipt {} {:?}; lines {})",
                    kind.name(),
                    case.name,
                    case.expected_status,
                    case.expected_eligible_minor,
                    expense["status"],
                    expense["eligible_amount"],
                    read["status"],
                    read["reason"],
                    read["line_items"]
                );
            }
        }
        report.push(score);
    }
    for s in &report {
        if s.total > 0 {
            eprintln!(
                "receipts [{set}, {}]: decision correct {}/{} ({:.0}%), decision and eligible total within 1 cent {}/{} ({:.0}%)",
                s.kind.name(),
                s.decided,
                s.total,
                100.0 * s.decided as f64 / s.total as f64,
                s.amounts,
                s.total,
                100.0 * s.amounts as f64 / s.total as f64
            );
        }
    }
    report
}

/// Fails when a kind of file decides fewer cases right (with their eligible
/// amounts) than its floor.
fn assert_floors(report: &[KindScore], floor: impl Fn(FileKind) -> f64) {
    for s in report {
        if s.total > 0 {
            assert!(
                s.amounts as f64 >= floor(s.kind) * s.total as f64,
                "{} receipts: {}/{} below {:.0}%",
                s.kind.name(),
                s.amounts,
                s.total,
                100.0 * floor(s.kind)
            );
        }
    }
}

/// The fixture set, end to end through the API: every receipt as text, PDF,
/// PNG and phone photo (OCR), its expense's decision and eligible amount compared with
/// what the fixture says, accuracy printed per kind.
#[tokio::test]
async fn the_fixture_receipts_decide_their_expenses() {
    let app = TestApp::spawn().await;
    let fixtures: Vec<ReceiptCase> = cases();
    assert!(fixtures.len() * 3 >= 30, "at least 30 receipts");
    let report = decide_all(&app, "fixtures", &fixtures).await;
    // Text, PDF and clean images are read exactly; phone photos reach 24 of
    // 26 today and are held to the nine in ten aimed at (docs/receipts.md,
    // "Photos", lists the misses).
    assert_floors(&report, |kind| match kind {
        FileKind::Text | FileKind::Pdf | FileKind::Png => 1.0,
        FileKind::Photo => 0.90,
    });
}

/// Generated mixed baskets (`generated_baskets`: two to six lines from the
/// eligible, ineligible and dual-purpose pools, tax on half), end to end as
/// text, PDF, PNG and phone photo: every one decided right with its
/// eligible amount within a cent from text, PDF and a clean image; phone
/// photos (27 of 30 today) held to the nine in ten aimed at.
#[tokio::test]
async fn generated_mixed_baskets_decide_their_expenses() {
    let app = TestApp::spawn().await;
    let baskets = generated_baskets(30, 20261126);
    let kinds = |status: &str| baskets.iter().filter(|c| c.expected_status == status).count();
    assert!(kinds("eligible") >= 15 && kinds("ineligible") >= 3, "the generator makes mixed baskets of each outcome");
    let report = decide_all(&app, "generated", &baskets).await;
    assert_floors(&report, |kind| match kind {
        FileKind::Text | FileKind::Pdf | FileKind::Png => 1.0,
        FileKind::Photo => 0.90,
    });
}

#[tokio::test]
async fn an_eligible_expense_keeps_its_decision_and_lists_the_receipt() {
    let app = TestApp::spawn().await;
    let (key, user_id, connection_id) = setup(&app).await;
    let expenses = push(&app, &key, &user_id, &connection_id, &[("LENSCRAFTERS #221", 22200, "2026-11-02")]).await;
    let before = &expenses[0];
    assert_eq!(before["status"], "eligible");
    let expense_id = before["id"].as_str().unwrap();
    let text = "LensCrafters #221\n11/02/2026\nEYE EXAM  95.00\nCLEANING KIT  12.00\nSUNGLASSES FASHION 115.00\nTOTAL  222.00\n";
    let created = upload(&app, &key, &user_id, expense_id, "lens.txt", text.as_bytes().to_vec()).await;
    assert_eq!(created.status, 201, "{}", created.body);
    let read = wait_read(&app, &key, &user_id, expense_id, created.body["id"].as_str().unwrap()).await;
    assert_eq!(read["status"], "read");
    assert_eq!(read["line_items"].as_array().unwrap().len(), 3, "{read}");
    let after = app.get(&key, &format!("/users/{user_id}/expenses/{expense_id}")).await.body;
    for field in ["status", "rule", "reason", "eligible_amount", "items", "adjudicated_at"] {
        assert_eq!(after[field], before[field], "{field} is unchanged");
    }
    assert_eq!(after["receipts"][0]["id"], read["id"]);
    let events = app.get(&key, "/events?type=expense.readjudicated").await;
    assert_eq!(events.body["pagination"]["total"], 0, "nothing was re-decided");
}
