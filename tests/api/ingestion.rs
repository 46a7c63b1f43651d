//! `POST …/transactions`, `GET /jobs/{id}`: validation, idempotency, the 409,
//! tenant isolation, the job lifecycle, durability across a crash, and
//! several cores sharing one database.

use std::time::Duration;

use core_grpc::CoreConfig;
use entities::{event, job, transaction};
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter};
use serde_json::{Value, json};

use crate::helpers::{Options, TestApp, eventually};

/// A partner key for the classification path, a user and an external connection.
pub async fn setup(app: &TestApp) -> (String, String, String) {
    let (_, key) = app.partner_key("connections,ingest,expenses").await;
    let user = app.create_user(&key, "pusher").await;
    let connection = app
        .post(
            &key,
            &format!("/users/{user}/connections"),
            json!({"type": "external", "provider_label": "Partner Bank"}),
        )
        .await;
    assert_eq!(connection.status, 201, "{}", connection.body);
    (key, user, connection.body["id"].as_str().unwrap().to_string())
}

pub fn tx(id: &str, description: &str, mcc: Option<&str>, amount: f64) -> Value {
    let mut t =
        json!({"external_transaction_id": id, "date": "2026-11-01", "amount": amount, "description": description});
    if let Some(mcc) = mcc {
        t["mcc"] = json!(mcc);
    }
    t
}

pub async fn push(
    app: &TestApp,
    key: &str,
    user: &str,
    connection: &str,
    transactions: Vec<Value>,
) -> crate::helpers::Reply {
    app.post(
        key,
        &format!("/users/{user}/connections/{connection}/transactions"),
        json!({"transactions": transactions}),
    )
    .await
}

/// Polls a job until it is completed (or failed).
pub async fn wait_for_job(app: &TestApp, key: &str, job_id: &str) -> Value {
    app.wait_for_job(key, job_id).await
}

#[tokio::test]
async fn a_push_is_accepted_then_adjudicated_and_announced() {
    let app = TestApp::spawn().await;
    let (key, user, connection) = setup(&app).await;
    let reply = push(
        &app,
        &key,
        &user,
        &connection,
        vec![
            tx("t-cvs", "CVS/PHARMACY #04562", Some("5912"), 23.10),
            tx("t-dds", "SQ *DR SMITH DDS", Some("8021"), 180.0),
            tx("t-uber", "UBER *TRIP", Some("4121"), 14.5),
        ],
    )
    .await;
    assert_eq!(reply.status, 202, "{}", reply.body);
    assert_eq!(reply.body["status"], "queued");
    assert_eq!(reply.body["accepted"], 3);
    assert_eq!(reply.body["duplicates_updated"], 0);
    let job_id = reply.body["job_id"].as_str().unwrap();
    assert!(job_id.starts_with("job_"));

    let done = wait_for_job(&app, &key, job_id).await;
    assert_eq!(done["status"], "completed");
    assert_eq!(done["processed"], 3);
    assert_eq!(done["accepted"], 3);
    assert!(done["completed_at"].as_str().unwrap().ends_with('Z'));
    assert!(done["created_at"].as_str().unwrap().ends_with('Z'));

    let expenses = app.get(&key, &format!("/users/{user}/expenses")).await;
    assert_eq!(expenses.status, 200, "{}", expenses.body);
    assert_eq!(expenses.body["pagination"]["total"], 3);
    let by_id = |id: &str| {
        expenses.body["data"].as_array().unwrap().iter().find(|e| e["external_transaction_id"] == id).unwrap().clone()
    };
    let cvs = by_id("t-cvs");
    assert_eq!(cvs["status"], "needs_review");
    assert_eq!(cvs["reason"]["code"], "mixed_merchant");
    assert!(!cvs["reason"]["message"].as_str().unwrap().is_empty());
    let cvs_directory = app.get(&key, "/merchants?search=cvs+pharmacy").await.body["data"][0].clone();
    assert_eq!(cvs["merchant"], json!({"id": cvs_directory["id"], "name": "CVS Pharmacy"}));
    let dds = by_id("t-dds");
    assert_eq!((dds["status"].as_str(), dds["category"].as_str()), (Some("eligible"), Some("dental")));
    assert_eq!(dds["merchant"]["id"], Value::Null, "a named provider outside the directory");
    assert_eq!(dds["eligible_amount"], 180.0);
    assert_eq!(by_id("t-uber")["status"], "ineligible");
    for field in [
        "id",
        "user_id",
        "connection_id",
        "external_transaction_id",
        "date",
        "amount",
        "currency",
        "description",
        "merchant",
        "status",
        "category",
        "reason",
        "receipts",
        "adjudicated_at",
        "created_at",
        "updated_at",
    ] {
        assert!(cvs.get(field).is_some(), "expense lacks {field}: {cvs}");
    }
    assert!(cvs["id"].as_str().unwrap().starts_with("exp_"));
    assert_eq!(
        (cvs["amount"].as_f64(), cvs["currency"].as_str(), cvs["date"].as_str()),
        (Some(23.1), Some("USD"), Some("2026-11-01"))
    );
    assert_eq!(cvs["receipts"], json!([]));
    assert_eq!(cvs["connection_id"], connection);

    let one = app.get(&key, &format!("/users/{user}/expenses/{}", cvs["id"].as_str().unwrap())).await;
    assert_eq!(one.status, 200);
    assert_eq!(one.body, cvs);

    let events =
        event::Entity::find().filter(event::Column::Type.eq("transactions.ingested")).all(&app.db).await.unwrap();
    assert_eq!(events.len(), 1);
    let data: Value = serde_json::from_str(&events[0].data).unwrap();
    assert_eq!(
        data,
        json!({"user_id": user, "connection_id": connection, "job_id": job_id, "accepted": 3, "duplicates_updated": 0,
               "counts": {"eligible": 1, "ineligible": 1, "needs_review": 1}})
    );
}

#[tokio::test]
async fn every_field_is_validated_with_its_param() {
    let app = TestApp::spawn().await;
    let (key, user, connection) = setup(&app).await;
    let good = tx("ok", "CVS/PHARMACY #1", Some("5912"), 10.0);
    let with = |patch: Value| {
        let mut t = good.clone();
        for (k, v) in patch.as_object().unwrap() {
            if v.is_null() {
                t.as_object_mut().unwrap().remove(k);
            } else {
                t[k] = v.clone();
            }
        }
        t
    };
    let cases = [
        (with(json!({"external_transaction_id": null})), "transactions.1.external_transaction_id"),
        (with(json!({"external_transaction_id": ""})), "transactions.1.external_transaction_id"),
        (with(json!({"date": null})), "transactions.1.date"),
        (with(json!({"date": "2026-02-30"})), "transactions.1.date"),
        (with(json!({"date": "11/01/2026"})), "transactions.1.date"),
        (with(json!({"date": "2099-01-01"})), "transactions.1.date"),
        (with(json!({"amount": null})), "transactions.1.amount"),
        (with(json!({"amount": 0})), "transactions.1.amount"),
        (with(json!({"amount": -3.5})), "transactions.1.amount"),
        (with(json!({"amount": 10.001})), "transactions.1.amount"),
        (with(json!({"amount": "10.00"})), "transactions.1.amount"),
        (with(json!({"description": null})), "transactions.1.description"),
        (with(json!({"description": "   "})), "transactions.1.description"),
        (with(json!({"mcc": "591"})), "transactions.1.mcc"),
        (with(json!({"mcc": 5912})), "transactions.1.mcc"),
        (with(json!({"mcc": "ABCD"})), "transactions.1.mcc"),
        (with(json!({"currency": "XYZ"})), "transactions.1.currency"),
        (with(json!({"currency": "dollars"})), "transactions.1.currency"),
        (with(json!({"category": "medical"})), "transactions.1.category"),
    ];
    for (bad, param) in cases {
        push(&app, &key, &user, &connection, vec![good.clone(), bad.clone()]).await.assert_error(
            400,
            "invalid_request",
            Some(param),
        );
    }
    let path = format!("/users/{user}/connections/{connection}/transactions");
    app.post(&key, &path, json!({})).await.assert_error(400, "invalid_request", Some("transactions"));
    app.post(&key, &path, json!({"transactions": []})).await.assert_error(400, "invalid_request", Some("transactions"));
    app.post(&key, &path, json!({"transactions": "all"})).await.assert_error(
        400,
        "invalid_request",
        Some("transactions"),
    );
    let too_many: Vec<Value> = (0..501).map(|i| tx(&format!("t{i}"), "CVS #1", None, 1.0)).collect();
    app.post(&key, &path, json!({"transactions": too_many})).await.assert_error(
        400,
        "invalid_request",
        Some("transactions"),
    );
    assert_eq!(
        app.get(&key, &format!("/users/{user}/expenses")).await.body["pagination"]["total"],
        0,
        "a refused batch stores nothing"
    );

    let full: Vec<Value> = (0..500).map(|i| tx(&format!("t{i}"), "CVS #1", None, 1.0)).collect();
    let accepted = app.post(&key, &path, json!({"transactions": full})).await;
    assert_eq!(accepted.status, 202, "{}", accepted.body);
    assert_eq!(accepted.body["accepted"], 500);
    let optional = push(
        &app,
        &key,
        &user,
        &connection,
        vec![json!({"external_transaction_id": "o", "date": "2026-10-01", "amount": 5, "description": "X", "merchant_name": null, "mcc": null, "currency": "eur"})],
    )
    .await;
    assert_eq!(optional.status, 202, "{}", optional.body);
}

#[tokio::test]
async fn pushes_are_idempotent_across_and_within_batches() {
    let app = TestApp::spawn().await;
    let (key, user, connection) = setup(&app).await;
    let first = push(
        &app,
        &key,
        &user,
        &connection,
        vec![tx("a", "UBER *TRIP", Some("4121"), 10.0), tx("b", "LABCORP", Some("8071"), 20.0)],
    )
    .await;
    assert_eq!((first.body["accepted"].as_i64(), first.body["duplicates_updated"].as_i64()), (Some(2), Some(0)));
    wait_for_job(&app, &key, first.body["job_id"].as_str().unwrap()).await;

    // "a" again, now a dentist: updated and re-adjudicated.
    let second = push(
        &app,
        &key,
        &user,
        &connection,
        vec![tx("a", "SQ *DR SMITH DDS", Some("8021"), 99.99), tx("c", "TARGET 00012847", None, 5.0)],
    )
    .await;
    assert_eq!((second.body["accepted"].as_i64(), second.body["duplicates_updated"].as_i64()), (Some(1), Some(1)));
    wait_for_job(&app, &key, second.body["job_id"].as_str().unwrap()).await;

    // The same id three times in one batch: the last one wins.
    let third = push(
        &app,
        &key,
        &user,
        &connection,
        vec![
            tx("d", "UBER *TRIP", Some("4121"), 1.0),
            tx("d", "UBER *TRIP", Some("4121"), 2.0),
            tx("d", "QUEST DIAGNOSTICS", Some("8071"), 3.0),
        ],
    )
    .await;
    assert_eq!((third.body["accepted"].as_i64(), third.body["duplicates_updated"].as_i64()), (Some(1), Some(2)));
    let done = wait_for_job(&app, &key, third.body["job_id"].as_str().unwrap()).await;
    assert_eq!(done["processed"], 1);

    let expenses = app.get(&key, &format!("/users/{user}/expenses")).await.body;
    assert_eq!(expenses["pagination"]["total"], 4, "one expense per external_transaction_id");
    let by = |id: &str| {
        expenses["data"].as_array().unwrap().iter().find(|e| e["external_transaction_id"] == id).unwrap().clone()
    };
    assert_eq!((by("a")["amount"].as_f64(), by("a")["status"].as_str()), (Some(99.99), Some("eligible")));
    assert_eq!((by("d")["amount"].as_f64(), by("d")["status"].as_str()), (Some(3.0), Some("eligible")));
    let rows = transaction::Entity::find()
        .filter(transaction::Column::ConnectionId.eq(&connection))
        .all(&app.db)
        .await
        .unwrap();
    let count = |id: &str| rows.iter().find(|r| r.external_transaction_id == id).unwrap().adjudication_count;
    assert_eq!((count("a"), count("b"), count("c"), count("d")), (2, 1, 1, 1));
    assert_eq!(by("a")["id"], by("a")["id"], "the expense keeps its id");
}

#[tokio::test]
async fn sail_managed_and_disconnected_connections_refuse_pushes() {
    let app = TestApp::spawn().await;
    let (_, key) = app.partner_key("connections,ingest,expenses").await;
    let user = app.create_user(&key, "u").await;
    let card = app.sandbox_connection(&key, json!({"user_id": user, "type": "card"})).await;
    let card_id = card["id"].as_str().unwrap();
    let reply = push(&app, &key, &user, card_id, vec![tx("a", "UBER *TRIP", None, 1.0)]).await;
    reply.assert_error(409, "connection_not_external", Some("connection_id"));

    let external = app
        .post(&key, &format!("/users/{user}/connections"), json!({"type": "external", "provider_label": "B"}))
        .await
        .body;
    let external_id = external["id"].as_str().unwrap();
    app.delete(&key, &format!("/users/{user}/connections/{external_id}")).await;
    push(&app, &key, &user, external_id, vec![tx("a", "UBER *TRIP", None, 1.0)]).await.assert_error(
        400,
        "invalid_request",
        Some("connection_id"),
    );
}

#[tokio::test]
async fn tenants_are_isolated_and_scopes_enforced() {
    let app = TestApp::spawn().await;
    let (key, user, connection) = setup(&app).await;
    let (their_key, their_user, their_connection) = setup(&app).await;
    let mine = push(&app, &key, &user, &connection, vec![tx("a", "LABCORP", Some("8071"), 1.0)]).await.body;
    let theirs =
        push(&app, &their_key, &their_user, &their_connection, vec![tx("a", "LABCORP", Some("8071"), 1.0)]).await.body;
    wait_for_job(&app, &their_key, theirs["job_id"].as_str().unwrap()).await;
    wait_for_job(&app, &key, mine["job_id"].as_str().unwrap()).await;
    let their_expense = app.get(&their_key, &format!("/users/{their_user}/expenses")).await.body["data"][0]["id"]
        .as_str()
        .unwrap()
        .to_string();

    push(&app, &key, &their_user, &their_connection, vec![tx("x", "LABCORP", None, 1.0)]).await.assert_error(
        404,
        "not_found",
        Some("user_id"),
    );
    push(&app, &key, &user, &their_connection, vec![tx("x", "LABCORP", None, 1.0)]).await.assert_error(
        404,
        "not_found",
        Some("connection_id"),
    );
    app.get(&key, &format!("/jobs/{}", theirs["job_id"].as_str().unwrap())).await.assert_error(
        404,
        "not_found",
        Some("job_id"),
    );
    app.get(&key, "/jobs/job_0190f0b1c2d37e8f9a0b1c2d3e4f5a6b").await.assert_error(404, "not_found", Some("job_id"));
    app.get(&key, "/jobs/not-a-job").await.assert_error(404, "not_found", Some("job_id"));
    app.get(&key, &format!("/users/{their_user}/expenses")).await.assert_error(404, "not_found", Some("user_id"));
    app.get(&key, &format!("/users/{user}/expenses/{their_expense}")).await.assert_error(
        404,
        "not_found",
        Some("expense_id"),
    );
    app.get(&key, &format!("/users/{user}/expenses?connection_id={their_connection}")).await.assert_error(
        404,
        "not_found",
        Some("connection_id"),
    );

    let (partner, _) = app.partner_key("expenses").await;
    let read_only = app.key_for(&partner, "expenses").await;
    let reader_user = app.create_user(&read_only, "r").await;
    push(&app, &read_only, &reader_user, "conn_0190f0b1c2d37e8f9a0b1c2d3e4f5a6b", vec![tx("x", "A", None, 1.0)])
        .await
        .assert_error(403, "insufficient_key_scope", None);
    app.get(&read_only, &format!("/jobs/{}", mine["job_id"].as_str().unwrap())).await.assert_error(
        403,
        "insufficient_key_scope",
        None,
    );
    let ingest_only = app.key_for(&partner, "ingest").await;
    app.get(&ingest_only, &format!("/users/{reader_user}/expenses")).await.assert_error(
        403,
        "insufficient_key_scope",
        None,
    );
}

#[tokio::test]
async fn a_core_killed_right_after_the_202_loses_nothing() {
    // The first core has no workers: whatever it accepted is only in the database.
    let options = Options {
        core: CoreConfig { workers: 0, rate_limit_rps: 0, ..sail_test_support::serve_defaults() },
        ..Default::default()
    };
    let mut app = TestApp::spawn_with(options).await;
    let (key, user, connection) = setup(&app).await;
    let batch: Vec<Value> =
        (0..120).map(|i| tx(&format!("k{i}"), "WALGREENS #09190", Some("5912"), 4.0 + i as f64)).collect();
    let reply = push(&app, &key, &user, &connection, batch).await;
    assert_eq!(reply.status, 202);
    let job_id = reply.body["job_id"].as_str().unwrap().to_string();

    app.crash_core();
    app.restart_core(CoreConfig { rate_limit_rps: 0, ..sail_test_support::serve_defaults() });

    let done = wait_for_job(&app, &key, &job_id).await;
    assert_eq!((done["status"].as_str(), done["processed"].as_i64()), (Some("completed"), Some(120)));
    let rows = transaction::Entity::find()
        .filter(transaction::Column::ConnectionId.eq(&connection))
        .all(&app.db)
        .await
        .unwrap();
    assert_eq!(rows.len(), 120);
    assert!(
        rows.iter().all(|r| r.adjudication_count == 1 && r.status.as_str() == "needs_review"),
        "every accepted transaction adjudicated exactly once"
    );
}

#[tokio::test]
async fn a_worker_that_dies_holding_a_job_hands_it_over_after_the_lease() {
    let options = Options {
        core: CoreConfig { workers: 0, rate_limit_rps: 0, ..sail_test_support::serve_defaults() },
        ..Default::default()
    };
    let mut app = TestApp::spawn_with(options).await;
    let (key, user, connection) = setup(&app).await;
    let reply = push(
        &app,
        &key,
        &user,
        &connection,
        (0..30).map(|i| tx(&format!("w{i}"), "LABCORP", Some("8071"), 9.0)).collect(),
    )
    .await;
    let job_id = reply.body["job_id"].as_str().unwrap().to_string();

    // A worker claims the job and dies before finishing it.
    let claimed = core_grpc::platform::jobs::claim(
        &app.db,
        Duration::from_millis(800),
        core_grpc::platform::jobs::JobPool::Ingestion,
    )
    .await
    .unwrap()
    .remove(0);
    assert_eq!((claimed.id.as_str(), claimed.attempts), (job_id.as_str(), 1));
    assert_eq!(app.get(&key, &format!("/jobs/{job_id}")).await.body["status"], "processing");

    app.crash_core();
    app.restart_core(CoreConfig {
        rate_limit_rps: 0,
        job_lease: Duration::from_millis(800),
        ..sail_test_support::serve_defaults()
    });
    let done = wait_for_job(&app, &key, &job_id).await;
    assert_eq!(done["status"], "completed");
    let stored = job::Entity::find_by_id(job_id.as_str()).one(&app.db).await.unwrap().unwrap();
    assert_eq!(stored.attempts, 2, "taken over once the lease expired");
    // The dead worker's late completion is refused: it no longer holds the claim.
    assert!(core_grpc::platform::jobs::complete(&app.db, &claimed, 30).await.is_err());
    let rows = transaction::Entity::find().filter(transaction::Column::JobId.eq(&job_id)).all(&app.db).await.unwrap();
    assert!(rows.iter().all(|r| r.adjudication_count == 1));
}

#[tokio::test]
async fn several_cores_share_the_work_and_never_process_a_job_twice() {
    let app = TestApp::spawn().await;
    let extra: Vec<_> = (0..2)
        .map(|_| app.extra_core(CoreConfig { rate_limit_rps: 0, workers: 3, ..sail_test_support::serve_defaults() }))
        .collect();
    let (key, user, connection) = setup(&app).await;
    let mut job_ids = Vec::new();
    for batch in 0..12 {
        let txs = (0..40).map(|i| tx(&format!("b{batch}-{i}"), "AMZN Mktp US*2K7X1B3R0", Some("5942"), 1.0)).collect();
        job_ids.push(push(&app, &key, &user, &connection, txs).await.body["job_id"].as_str().unwrap().to_string());
    }
    for id in &job_ids {
        assert_eq!(wait_for_job(&app, &key, id).await["processed"], 40);
    }
    let jobs = job::Entity::find().filter(job::Column::Id.is_in(job_ids.clone())).all(&app.db).await.unwrap();
    assert!(jobs.iter().all(|j| j.attempts == 1 && j.status.as_str() == "completed"), "each job claimed once");
    let rows = transaction::Entity::find()
        .filter(transaction::Column::ConnectionId.eq(&connection))
        .all(&app.db)
        .await
        .unwrap();
    assert_eq!(rows.len(), 480);
    assert!(rows.iter().all(|r| r.adjudication_count == 1));
    let events =
        event::Entity::find().filter(event::Column::Type.eq("transactions.ingested")).all(&app.db).await.unwrap();
    assert_eq!(events.len(), 12, "one event per job");
    drop(extra);
}

/// Makes the database itself refuse to store any purchase described as
/// `description`: a real failure at write time, after the `202`.
async fn poison_description(app: &TestApp, description: &str) {
    use sea_orm::ConnectionTrait;
    let statements = if app.test_db.is_postgres() {
        vec![
            format!(
                "CREATE FUNCTION poison() RETURNS trigger AS $$ BEGIN IF NEW.description = '{description}' THEN \
                 RAISE EXCEPTION 'poisoned row'; END IF; RETURN NEW; END $$ LANGUAGE plpgsql"
            ),
            "CREATE TRIGGER poison BEFORE INSERT OR UPDATE ON transactions FOR EACH ROW EXECUTE FUNCTION poison()"
                .into(),
        ]
    } else {
        vec![format!(
            "CREATE TRIGGER poison BEFORE INSERT ON transactions WHEN NEW.description = '{description}' \
             BEGIN SELECT RAISE(ABORT, 'poisoned row'); END"
        )]
    };
    for statement in statements {
        app.db.execute_unprepared(&statement).await.unwrap();
    }
}

#[tokio::test]
async fn a_row_that_fails_after_the_202_fails_alone_and_the_rest_are_stored() {
    let app = TestApp::spawn().await;
    let (key, user, connection) = setup(&app).await;
    poison_description(&app, "POISON ROW").await;
    let rows = vec![
        tx("ok-1", "WALGREENS #1234", None, 12.5),
        tx("bad", "POISON ROW", None, 3.0),
        tx("ok-2", "SHELL OIL 5744", Some("5541"), 40.0),
    ];
    let reply = push(&app, &key, &user, &connection, rows).await;
    assert_eq!(reply.status, 202, "{}", reply.body);
    let job_id = reply.body["job_id"].as_str().unwrap().to_string();
    let job = wait_for_job(&app, &key, &job_id).await;
    assert_eq!(job["status"], "completed", "{job}");
    assert_eq!(job["processed"], 2);
    assert_eq!(job["failed"], 1);
    assert_eq!(job["failures"][0]["index"], 1);
    assert_eq!(job["failures"][0]["external_transaction_id"], "bad");
    assert_eq!(job["failures"][0]["code"], "internal_error");
    assert!(!job.to_string().contains("poisoned"), "the cause stays in Sail's log: {job}");

    let expenses = app.get(&key, &format!("/users/{user}/expenses")).await.body;
    let ids: Vec<&str> =
        expenses["data"].as_array().unwrap().iter().map(|e| e["external_transaction_id"].as_str().unwrap()).collect();
    assert_eq!(ids.len(), 2, "{ids:?}");
    assert!(ids.contains(&"ok-1") && ids.contains(&"ok-2"));
    let events = app.get(&key, "/events?type=transactions.ingested").await.body;
    assert_eq!(events["data"][0]["data"]["failed"], 1);
    let counts = &events["data"][0]["data"]["counts"];
    let counted: u64 = ["eligible", "ineligible", "needs_review"].iter().map(|k| counts[k].as_u64().unwrap()).sum();
    assert_eq!(counted, 2, "{counts}");

    // gRPC callers read the same job.
    let mut client = sail_api::pb::jobs_client::JobsClient::connect(format!("http://{}", app.grpc_addr)).await.unwrap();
    let mut request = tonic::Request::new(sail_api::pb::GetJobRequest { job_id: job_id.clone() });
    request.metadata_mut().insert("authorization", format!("Bearer {key}").parse().unwrap());
    let over_grpc = client.get_job(request).await.unwrap().into_inner();
    assert_eq!(over_grpc.failed, 1);
    assert_eq!(over_grpc.failures[0].external_transaction_id, "bad");
}

#[tokio::test]
async fn a_batch_no_row_of_which_can_be_stored_fails_as_a_whole() {
    let app = TestApp::spawn().await;
    let (key, user, connection) = setup(&app).await;
    poison_description(&app, "POISON ROW").await;
    let reply = push(&app, &key, &user, &connection, vec![tx("bad", "POISON ROW", None, 3.0)]).await;
    let job_id = reply.body["job_id"].as_str().unwrap().to_string();
    let job = eventually("the job to give up", Duration::from_secs(30), || async {
        let job = app.get(&key, &format!("/jobs/{job_id}")).await.body;
        (job["status"] == "failed").then_some(job)
    })
    .await;
    assert_eq!(job["processed"], 0);
}

/// The push's lookup of the ids a connection already holds (for
/// `duplicates_updated`) is planned as probes of the unique
/// `(connection_id, external_transaction_id)` index, also while the
/// connection's rows have outgrown the table's statistics: on PostgreSQL a
/// plain `IN` list was then planned as a read of every row of the
/// connection, filtered by the list (docs/benchmarks.md).
#[tokio::test]
async fn the_duplicate_lookup_probes_the_unique_index_on_rows_never_analyzed() {
    use sea_orm::{ConnectionTrait, Statement};

    let app = TestApp::spawn().await;
    let (_, _, connection) = setup(&app).await;
    let owner = entities::connection::Entity::find_by_id(connection.clone()).one(&app.db).await.unwrap().unwrap();
    let backend = app.db.get_database_backend();
    let postgres = app.test_db.is_postgres();

    // 5,000 rows written straight to the table, which is never analyzed.
    let (mark, now) = if postgres { ("$", "now()") } else { ("?", "CURRENT_TIMESTAMP") };
    let placeholder = |n: usize| if postgres { format!("{mark}{n}") } else { mark.to_string() };
    let insert = format!(
        "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 5000) \
         INSERT INTO transactions (id, partner_id, user_id, connection_id, external_transaction_id, date, \
         amount_minor, currency, description, expense_id, status, adjudication_count, created_at, updated_at) \
         SELECT 'txn_' || i, {}, {}, {}, 'old-' || i, '2026-11-01', 100, 'USD', 'SHELL OIL', 'exp_' || i, \
         'ineligible', 1, {now}, {now} FROM n",
        placeholder(1),
        placeholder(2),
        placeholder(3),
    );
    let values = [owner.partner_id.into(), owner.user_id.into(), connection.clone().into()];
    app.db.execute_raw(Statement::from_sql_and_values(backend, insert, values)).await.unwrap();

    let ids: Vec<String> = (0..500).map(|i| format!("new-{i}")).collect();
    let ids: Vec<&str> = ids.iter().map(String::as_str).collect();
    let lookup = core_grpc::services::ingest::existing_ids_statement(backend, &connection, &ids);
    let explain = if postgres { "EXPLAIN " } else { "EXPLAIN QUERY PLAN " };
    let plan = Statement { sql: format!("{explain}{}", lookup.sql), ..lookup };
    let rows = app.db.query_all_raw(plan).await.unwrap();
    let column = if postgres { "QUERY PLAN" } else { "detail" };
    let plan: Vec<String> = rows.iter().map(|row| row.try_get::<String>("", column).unwrap()).collect();
    let plan = plan.join("\n");

    let probes_both_columns = if postgres {
        plan.lines()
            .any(|l| l.contains("Index Cond") && l.contains("connection_id") && l.contains("external_transaction_id"))
            && !plan.lines().any(|l| l.contains("Filter") && l.contains("external_transaction_id"))
    } else {
        plan.contains("transactions_connection_external_id (connection_id=? AND external_transaction_id=?)")
    };
    let shown: Vec<&str> = plan.lines().map(|l| l.get(..160).unwrap_or(l)).collect();
    assert!(probes_both_columns, "the lookup does not probe the unique index by both columns:\n{}", shown.join("\n"));
}

#[tokio::test]
async fn a_push_whose_process_died_on_every_attempt_fails_for_good_with_job_failed() {
    // No workers: the job waits while its history is written as if five
    // processes had each claimed it and died.
    let options =
        Options { core: CoreConfig { workers: 0, rate_limit_rps: 0, ..Options::default().core }, ..Default::default() };
    let app = TestApp::spawn_with(options).await;
    let (key, user, connection) = setup(&app).await;
    let reply = push(&app, &key, &user, &connection, vec![tx("p1", "LABCORP", Some("8071"), 9.0)]).await;
    let job_id = reply.body["job_id"].as_str().unwrap().to_string();
    job::Entity::update_many()
        .col_expr(job::Column::Status, core_grpc::platform::jobs::JobStatus::Processing.into())
        .col_expr(job::Column::Attempts, core_grpc::platform::jobs::MAX_ATTEMPTS.into())
        .col_expr(job::Column::LeaseUntilMs, Some(0i64).into())
        .filter(job::Column::Id.eq(&job_id))
        .exec(&app.db)
        .await
        .unwrap();

    // A core with workers claims it a sixth time and gives up instead of running it.
    let _worker = app.extra_core(CoreConfig { rate_limit_rps: 0, ..Options::default().core });
    let done = wait_for_job(&app, &key, &job_id).await;
    assert_eq!(done["status"], "failed", "{done}");
    let stored = job::Entity::find_by_id(job_id.as_str()).one(&app.db).await.unwrap().unwrap();
    assert_eq!(stored.attempts, core_grpc::platform::jobs::MAX_ATTEMPTS + 1);
    assert!(stored.last_error.unwrap_or_default().contains("none finished"));
    let rows = transaction::Entity::find().filter(transaction::Column::JobId.eq(&job_id)).all(&app.db).await.unwrap();
    assert!(rows.is_empty(), "the rows were not adjudicated on the sixth claim");
    let events = app.get(&key, "/events?type=job.failed").await;
    assert_eq!(events.body["pagination"]["total"], 1, "{}", events.body);
    let data = &events.body["data"][0]["data"];
    assert_eq!(
        (data["job_id"].as_str(), data["error"]["code"].as_str()),
        (Some(job_id.as_str()), Some("attempts_exhausted"))
    );
}

/// The counts of a job as the 202, `GET /jobs/{id}` and its
/// `transactions.ingested` event report them.
async fn counts_everywhere(app: &TestApp, key: &str, job_id: &str) -> [(i64, i64); 2] {
    let job = wait_for_job(app, key, job_id).await;
    assert_eq!(job["status"], "completed", "{job}");
    let events =
        event::Entity::find().filter(event::Column::Type.eq("transactions.ingested")).all(&app.db).await.unwrap();
    let data: Value = events
        .iter()
        .map(|e| serde_json::from_str::<Value>(&e.data).unwrap())
        .find(|d| d["job_id"] == job_id)
        .expect("the job's event");
    let pair = |v: &Value| (v["accepted"].as_i64().unwrap(), v["duplicates_updated"].as_i64().unwrap());
    [pair(&job), pair(&data)]
}

#[tokio::test]
async fn a_batch_pushed_again_before_the_first_has_run_is_counted_as_duplicates() {
    // No workers yet: every push waits in the queue.
    let options = Options {
        core: CoreConfig { workers: 0, rate_limit_rps: 0, ..sail_test_support::serve_defaults() },
        ..Default::default()
    };
    let app = TestApp::spawn_with(options).await;
    let (key, user, connection) = setup(&app).await;
    let batch = |amount: f64, ids: std::ops::Range<usize>| -> Vec<Value> {
        ids.map(|i| tx(&format!("r{i}"), "WALGREENS #09190", Some("5912"), amount)).collect()
    };
    let pushes = [batch(1.0, 0..50), batch(2.0, 0..50), batch(3.0, 25..75)];
    let mut replies = Vec::new();
    for pushed in pushes {
        let reply = push(&app, &key, &user, &connection, pushed).await;
        assert_eq!(reply.status, 202, "{}", reply.body);
        replies.push(reply.body);
    }
    let said: Vec<(i64, i64)> =
        replies.iter().map(|r| (r["accepted"].as_i64().unwrap(), r["duplicates_updated"].as_i64().unwrap())).collect();
    // The second is all duplicates of the first, still queued; the third
    // half of them and half new.
    assert_eq!(said, [(50, 0), (0, 50), (25, 25)]);

    // Workers come; every job reports what its 202 said.
    let _worker = app.extra_core(CoreConfig { rate_limit_rps: 0, workers: 2, ..sail_test_support::serve_defaults() });
    for (reply, expected) in replies.iter().zip(said) {
        let job_id = reply["job_id"].as_str().unwrap();
        assert_eq!(counts_everywhere(&app, &key, job_id).await, [expected, expected], "job {job_id}");
    }
    // What was stored: each id once, with the latest push's values.
    let rows = transaction::Entity::find()
        .filter(transaction::Column::ConnectionId.eq(&connection))
        .all(&app.db)
        .await
        .unwrap();
    assert_eq!(rows.len(), 75, "each id stored once");
    for row in &rows {
        let n: usize = row.external_transaction_id[1..].parse().unwrap();
        let latest = if n >= 25 { 300 } else { 200 };
        assert_eq!(row.amount_minor, latest, "{} keeps the latest push's amount", row.external_transaction_id);
    }
    let pending = entities::pending_push::Entity::find().all(&app.db).await.unwrap();
    assert!(pending.is_empty(), "finished pushes leave nothing pending: {pending:?}");
}

#[tokio::test]
async fn two_pushes_racing_on_the_same_ids_accept_each_id_once() {
    let options = Options {
        core: CoreConfig { workers: 0, rate_limit_rps: 0, ..sail_test_support::serve_defaults() },
        ..Default::default()
    };
    let app = TestApp::spawn_with(options).await;
    let (key, user, connection) = setup(&app).await;
    for round in 0..5 {
        let batch: Vec<Value> =
            (0..40).map(|i| tx(&format!("race{round}-{i}"), "CVS/PHARMACY #04562", Some("5912"), 5.0)).collect();
        let (a, b) = tokio::join!(
            push(&app, &key, &user, &connection, batch.clone()),
            push(&app, &key, &user, &connection, batch)
        );
        assert_eq!((a.status, b.status), (202, 202));
        let accepted = a.body["accepted"].as_i64().unwrap() + b.body["accepted"].as_i64().unwrap();
        let duplicates =
            a.body["duplicates_updated"].as_i64().unwrap() + b.body["duplicates_updated"].as_i64().unwrap();
        assert_eq!((accepted, duplicates), (40, 40), "round {round}: {} and {}", a.body, b.body);
    }
}
