//! Ingestion throughput: transactions per second through
//! `POST …/transactions` (500-row batches, gateway plus core) until every job
//! is adjudicated, against a baseline that inserts the same rows with one
//! multi-row INSERT per batch into the same table of the same database in the
//! same run (measured before and after the pipeline, averaged).
//! Run: `cargo bench --bench ingestion_throughput` (SQLite), and with
//! `SAIL_TEST_DATABASE_URL=postgres://…` for PostgreSQL. Target: ≥ 50%.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "a test or benchmark: a failed step is the run failing, and says where"
)]

use sail_test_support as helpers;

use std::time::{Duration, Instant};

use core_grpc::services::expenses::{NewTransaction, adjudicated_row, decide};
use entities::{connection, transaction};
use sea_orm::EntityTrait;
use serde_json::{Value, json};

const BATCH: usize = 500;

fn batches() -> usize {
    std::env::var("BENCH_BATCHES").ok().and_then(|v| v.parse().ok()).unwrap_or(20)
}

#[derive(serde::Deserialize, Clone)]
struct Labelled {
    descriptor: String,
    mcc: String,
}

fn descriptors() -> Vec<Labelled> {
    csv::Reader::from_path(concat!(env!("CARGO_MANIFEST_DIR"), "/engine/tests/data/evaluation_set.csv"))
        .unwrap()
        .deserialize()
        .collect::<Result<_, _>>()
        .unwrap()
}

fn batch_json(pool: &[Labelled], batch: usize) -> Value {
    let rows: Vec<Value> = (0..BATCH)
        .map(|i| {
            let d = &pool[(batch * BATCH + i) % pool.len()];
            let mut t = json!({"external_transaction_id": format!("p{batch}-{i}"), "date": "2026-11-01",
                               "amount": 1.0 + (i % 300) as f64, "description": d.descriptor});
            if !d.mcc.is_empty() {
                t["mcc"] = json!(d.mcc);
            }
            t
        })
        .collect();
    json!({"transactions": rows})
}

/// Inserts the same rows the pipeline writes (adjudication included, decided
/// before the clock starts) with one multi-row INSERT per batch.
async fn baseline(app: &helpers::TestApp, owner: &connection::Model, pool: &[Labelled], tag: &str) -> f64 {
    let engine = core_grpc::Core::new(app.db.clone(), sail_test_support::serve_defaults()).unwrap().engine;
    let now = chrono::Utc::now();
    let prepared: Vec<Vec<transaction::ActiveModel>> = (0..batches())
        .map(|batch| {
            (0..BATCH)
                .map(|i| {
                    let d = &pool[(batch * BATCH + i) % pool.len()];
                    let new = NewTransaction {
                        external_transaction_id: format!("{tag}{batch}-{i}"),
                        date: chrono::NaiveDate::from_ymd_opt(2026, 11, 1).unwrap(),
                        amount_minor: 100 + (i % 300) as i64 * 100,
                        currency: "USD".into(),
                        description: d.descriptor.clone(),
                        merchant_name: None,
                        mcc: Some(d.mcc.clone()).filter(|m| !m.is_empty()),
                        items_json: None,
                    };
                    let decision = decide(&engine, &new).unwrap();
                    adjudicated_row(owner, new, decision, "job_baseline", now).unwrap()
                })
                .collect()
        })
        .collect();
    let started = Instant::now();
    for rows in prepared {
        transaction::Entity::insert_many(rows).exec_without_returning(&app.db).await.unwrap();
    }
    (batches() * BATCH) as f64 / started.elapsed().as_secs_f64()
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    // BENCH_WORKERS=0 measures accepting alone (jobs stay queued).
    let workers = std::env::var("BENCH_WORKERS").ok().and_then(|v| v.parse().ok()).unwrap_or(2);
    let mut options = helpers::Options::default();
    options.core.workers = workers;
    options.hang_limit = None;
    let app = helpers::TestApp::spawn_with(options).await;
    let (_, key) = app.partner_key("connections,ingest,expenses").await;
    let user = app.create_user(&key, "bench").await;
    let connections = format!("/users/{user}/connections");
    let pushed_to = app.post(&key, &connections, json!({"type": "external", "provider_label": "Pipeline"})).await.body
        ["id"]
        .as_str()
        .unwrap()
        .to_string();
    let baseline_to =
        app.post(&key, &connections, json!({"type": "external", "provider_label": "Baseline"})).await.body["id"]
            .as_str()
            .unwrap()
            .to_string();
    let owner = connection::Entity::find_by_id(baseline_to.as_str()).one(&app.db).await.unwrap().unwrap();
    let pool = descriptors();
    let bodies: Vec<Value> = (0..batches()).map(|b| batch_json(&pool, b)).collect();

    let before = baseline(&app, &owner, &pool, "a").await;

    // Pushers sending batches at once (BENCH_PUSHERS, default 1: one after another).
    let pushers: usize = std::env::var("BENCH_PUSHERS").ok().and_then(|v| v.parse().ok()).unwrap_or(1);
    let path = format!("/users/{user}/connections/{pushed_to}/transactions");
    let started = Instant::now();
    let mut handles = Vec::new();
    for lane in 0..pushers {
        let (client, url, key) = (app.client.clone(), app.url(&path), key.clone());
        let mine: Vec<Value> = bodies.iter().skip(lane).step_by(pushers).cloned().collect();
        handles.push(tokio::spawn(async move {
            let mut jobs = Vec::new();
            for body in mine {
                let reply = client.post(&url).bearer_auth(&key).json(&body).send().await.unwrap();
                assert_eq!(reply.status(), 202);
                let body: Value = reply.json().await.unwrap();
                jobs.push(body["job_id"].as_str().unwrap().to_string());
            }
            jobs
        }));
    }
    let mut jobs = Vec::new();
    for handle in handles {
        jobs.extend(handle.await.unwrap());
    }
    let accepted_at = started.elapsed();
    for job in jobs.iter().filter(|_| workers > 0) {
        loop {
            let reply = app.get(&key, &format!("/jobs/{job}")).await;
            if reply.body["status"] == "completed" {
                break;
            }
            assert_ne!(reply.body["status"], "failed", "{}", reply.body);
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    }
    let pipeline_secs = started.elapsed().as_secs_f64();

    let after = baseline(&app, &owner, &pool, "b").await;
    let base = (before + after) / 2.0;
    let total = (batches() * BATCH) as f64;
    let pipeline = total / pipeline_secs;
    let accept_only = total / accepted_at.as_secs_f64();
    let engine = if app.test_db.is_postgres() { "PostgreSQL" } else { "SQLite" };
    println!(
        "ingestion on {engine}: {} batches x {BATCH} transactions from {pushers} pusher(s), gateway + core + {workers} workers, one process",
        batches()
    );
    println!("| measure | tx/s |");
    println!("|---|---|");
    println!("| baseline: one multi-row INSERT per batch (before / after) | {before:.0} / {after:.0} |");
    println!("| POST …/transactions until every 202 returned | {accept_only:.0} |");
    println!("| POST …/transactions until every job adjudicated | {pipeline:.0} |");
    println!(
        "pipeline / baseline: {:.2} (target 0.50: {})",
        pipeline / base,
        if pipeline / base >= 0.5 { "met" } else { "NOT met" }
    );
}
