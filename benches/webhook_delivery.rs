//! Webhook delivery: events per second to a local receiver, against a
//! baseline of a plain HTTP client POSTing the same bodies to the same
//! receiver with the same concurrency in the same run (counted from before
//! the events are recorded, and again from their commit); and the latency added
//! between an ingestion job's completion and its event's arrival, p50 and p99.
//! Run: `cargo bench --bench webhook_delivery` (SAIL_TEST_DATABASE_URL for
//! PostgreSQL).

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "a test or benchmark: a failed step is the run failing, and says where"
)]

use sail_test_support as helpers;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::body::Bytes;
use axum::extract::State;
use axum::http::HeaderMap;
use chrono::{DateTime, Utc};
use entities::job;
use sea_orm::EntityTrait;
use serde_json::json;

type Arrivals = Arc<Mutex<HashMap<String, DateTime<Utc>>>>;

async fn receive(State(arrivals): State<Arrivals>, headers: HeaderMap, _body: Bytes) -> &'static str {
    let id = headers.get("sail-event-id").and_then(|v| v.to_str().ok()).unwrap_or("baseline").to_string();
    arrivals.lock().unwrap().insert(id, Utc::now());
    "ok"
}

async fn wait_until(arrivals: &Arrivals, n: usize) {
    let deadline = Instant::now() + Duration::from_secs(120);
    while arrivals.lock().unwrap().len() < n {
        assert!(Instant::now() < deadline, "only {} of {n} arrived", arrivals.lock().unwrap().len());
        tokio::time::sleep(Duration::from_millis(2)).await;
    }
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let events: usize = std::env::var("BENCH_EVENTS").ok().and_then(|v| v.parse().ok()).unwrap_or(1000);
    let app = helpers::TestApp::spawn_with(helpers::Options { hang_limit: None, ..Default::default() }).await;
    let arrivals: Arrivals = Arc::default();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/hook", listener.local_addr().unwrap());
    let router = axum::Router::new().route("/hook", axum::routing::post(receive)).with_state(arrivals.clone());
    tokio::spawn(async move { axum::serve(listener, router).await });

    // Baseline: the receiver's own capacity with 16 concurrent plain POSTs.
    let body = json!({"id": "evt_x", "type": "transactions.ingested", "created_at": "2026-11-22T00:00:00Z",
                      "data": {"counts": {"eligible": 1}}})
    .to_string();
    let started = Instant::now();
    let mut lanes = Vec::new();
    for lane in 0..16 {
        let (client, url, body) = (app.client.clone(), url.clone(), body.clone());
        lanes.push(tokio::spawn(async move {
            for i in (lane..events).step_by(16) {
                client.post(&url).header("sail-event-id", format!("base-{i}")).body(body.clone()).send().await.unwrap();
            }
        }));
    }
    for lane in lanes {
        lane.await.unwrap();
    }
    let baseline = events as f64 / started.elapsed().as_secs_f64();
    arrivals.lock().unwrap().clear();

    // Throughput: events recorded in one transaction (as one batch, the way
    // an ingestion group commit records its jobs' events), delivered by the
    // core.
    let (partner, key) = app.partner_key("connections,ingest,expenses").await;
    let created = app.post(&key, "/webhook-endpoints", json!({"url": url})).await;
    assert_eq!(created.status, 201, "{}", created.body);
    let started = Instant::now();
    {
        let txn = core_grpc::platform::db::begin_write(&app.db).await.unwrap();
        let batch = (0..events)
            .map(|i| core_grpc::services::outbox::NewEvent {
                partner_id: partner.clone(),
                kind: entities::enums::EventType::TransactionsIngested,
                data: json!({"n": i}),
            })
            .collect();
        core_grpc::services::outbox::record_all(&txn, batch).await.unwrap();
        txn.commit().await.unwrap();
    }
    let committed = Instant::now();
    wait_until(&arrivals, events).await;
    let delivered = events as f64 / started.elapsed().as_secs_f64();
    // The same deliveries counted from the commit: recording a thousand
    // events in one transaction is not what a partner's traffic does (each
    // change records its one event), and it is a large share of the figure
    // above on SQLite.
    let recorded_in = committed - started;
    let delivered_after_commit = events as f64 / committed.elapsed().as_secs_f64();
    arrivals.lock().unwrap().clear();

    // Latency: job completion to arrival, for sequential one-row pushes.
    let user = app.create_user(&key, "bench").await;
    let connection = app.external_connection(&key, &user).await;
    let pushes = 100;
    let mut jobs = Vec::new();
    for i in 0..pushes {
        let reply = app
            .post(
                &key,
                &format!("/users/{user}/connections/{connection}/transactions"),
                json!({"transactions": [{"external_transaction_id": format!("t{i}"), "date": "2026-11-01", "amount": 10.0, "description": "LABCORP", "mcc": "8071"}]}),
            )
            .await;
        jobs.push(reply.body["job_id"].as_str().unwrap().to_string());
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    wait_until(&arrivals, pushes).await;
    let events_by_job: HashMap<String, String> = app.get(&key, "/events?limit=100").await.body["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| (e["data"]["job_id"].as_str().unwrap_or("").to_string(), e["id"].as_str().unwrap().to_string()))
        .collect();
    let mut latencies = Vec::new();
    for job_id in &jobs {
        let completed =
            job::Entity::find_by_id(job_id.as_str()).one(&app.db).await.unwrap().unwrap().completed_at.unwrap();
        let arrived = arrivals.lock().unwrap()[&events_by_job[job_id]];
        latencies.push((arrived - completed).to_std().unwrap_or_default());
    }
    latencies.sort();
    let pick = |q: f64| latencies[((latencies.len() as f64 * q) as usize).min(latencies.len() - 1)];

    let engine = if app.test_db.is_postgres() { "PostgreSQL" } else { "SQLite" };
    println!("webhook delivery on {engine}, one process, receiver on loopback");
    println!("| measure | value |");
    println!("|---|---|");
    println!("| baseline: 16 concurrent plain POSTs to the receiver | {baseline:.0} req/s |");
    println!("| Sail delivering {events} recorded events (signed, attempt recorded) | {delivered:.0} events/s |");
    println!("| delivery / baseline | {:.2} |", delivered / baseline);
    println!(
        "| of which recording the {events} events in one transaction | {:.0} ms |",
        recorded_in.as_secs_f64() * 1e3
    );
    println!("| delivered events/s counted from the commit | {delivered_after_commit:.0} events/s |");
    println!("| from the commit / baseline | {:.2} |", delivered_after_commit / baseline);
    println!("| job completed → event received, p50 | {:.1} ms |", pick(0.5).as_secs_f64() * 1e3);
    println!("| job completed → event received, p99 | {:.1} ms |", pick(0.99).as_secs_f64() * 1e3);
}
