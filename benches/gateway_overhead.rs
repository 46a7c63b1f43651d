//! What the REST gateway costs over calling the core's gRPC directly, for
//! `GET /merchants?search=` and `GET /users`: requests per second and p50/p99
//! latency for both paths, and their ratio, measured in the same run against
//! the same core and database. Run: `cargo bench --bench gateway_overhead`
//! (set SAIL_TEST_DATABASE_URL to measure on PostgreSQL).

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "a test or benchmark: a failed step is the run failing, and says where"
)]

use sail_test_support as helpers;

use std::time::{Duration, Instant};

use sail_api::pb::{self, merchants_client::MerchantsClient, users_client::UsersClient};
use tonic::metadata::MetadataValue;

/// Concurrent clients (env BENCH_CONCURRENCY, default 8).
fn concurrency() -> usize {
    std::env::var("BENCH_CONCURRENCY").ok().and_then(|v| v.parse().ok()).unwrap_or(8)
}

/// Requests each client sends (env BENCH_REQUESTS, default 400).
fn requests_per_worker() -> usize {
    std::env::var("BENCH_REQUESTS").ok().and_then(|v| v.parse().ok()).unwrap_or(400)
}

struct Figures {
    rps: f64,
    p50: Duration,
    p99: Duration,
}

async fn measure<F, Fut>(call: F) -> Figures
where
    F: Fn() -> Fut + Clone + Send + 'static,
    Fut: Future<Output = ()> + Send,
{
    // Warm up connections and caches.
    for _ in 0..50 {
        call().await;
    }
    let started = Instant::now();
    let mut workers = Vec::new();
    for _ in 0..concurrency() {
        let call = call.clone();
        workers.push(tokio::spawn(async move {
            let mut latencies = Vec::with_capacity(requests_per_worker());
            for _ in 0..requests_per_worker() {
                let at = Instant::now();
                call().await;
                latencies.push(at.elapsed());
            }
            latencies
        }));
    }
    let mut latencies = Vec::new();
    for worker in workers {
        latencies.extend(worker.await.unwrap());
    }
    let elapsed = started.elapsed();
    latencies.sort();
    let pick = |q: f64| latencies[((latencies.len() as f64 * q) as usize).min(latencies.len() - 1)];
    Figures { rps: latencies.len() as f64 / elapsed.as_secs_f64(), p50: pick(0.50), p99: pick(0.99) }
}

fn report(name: &str, rest: &Figures, grpc: &Figures) {
    println!(
        "| {name} | {:.0} | {:.2} | {:.2} | {:.0} | {:.2} | {:.2} | {:.2} |",
        rest.rps,
        rest.p50.as_secs_f64() * 1e3,
        rest.p99.as_secs_f64() * 1e3,
        grpc.rps,
        grpc.p50.as_secs_f64() * 1e3,
        grpc.p99.as_secs_f64() * 1e3,
        rest.rps / grpc.rps,
    );
}

fn authorized<T>(message: T, key: &str) -> tonic::Request<T> {
    let mut request = tonic::Request::new(message);
    request.metadata_mut().insert("authorization", MetadataValue::try_from(format!("Bearer {key}")).unwrap());
    request
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let app = helpers::TestApp::spawn_with(helpers::Options { hang_limit: None, ..Default::default() }).await;
    let (_, key) = app.partner_key("expenses").await;
    for i in 0..60 {
        app.create_user(&key, &format!("bench-{i}")).await;
    }
    let channel =
        tonic::transport::Endpoint::from_shared(format!("http://{}", app.grpc_addr)).unwrap().connect().await.unwrap();
    let engine = if app.test_db.is_postgres() { "PostgreSQL" } else { "SQLite" };
    println!(
        "gateway vs direct gRPC on {engine}: {} concurrent clients x {} requests, in one process on this machine",
        concurrency(),
        requests_per_worker()
    );
    println!(
        "| call | REST rps | REST p50 ms | REST p99 ms | gRPC rps | gRPC p50 ms | gRPC p99 ms | REST/gRPC throughput |"
    );
    println!("|---|---|---|---|---|---|---|---|");

    let rest = {
        let (client, url, key) = (app.client.clone(), app.url("/merchants?search=walgren"), key.clone());
        measure(move || {
            let (client, url, key) = (client.clone(), url.clone(), key.clone());
            async move {
                let reply = client.get(url).bearer_auth(key).send().await.unwrap();
                assert_eq!(reply.status(), 200);
                reply.bytes().await.unwrap();
            }
        })
        .await
    };
    let grpc = {
        let (channel, key) = (channel.clone(), key.clone());
        measure(move || {
            let (channel, key) = (channel.clone(), key.clone());
            async move {
                let request = pb::ListMerchantsRequest { search: Some("walgren".into()), ..Default::default() };
                MerchantsClient::new(channel).list_merchants(authorized(request, &key)).await.unwrap();
            }
        })
        .await
    };
    report("GET /merchants?search=walgren", &rest, &grpc);

    let rest = {
        let (client, url, key) = (app.client.clone(), app.url("/users?limit=25"), key.clone());
        measure(move || {
            let (client, url, key) = (client.clone(), url.clone(), key.clone());
            async move {
                let reply = client.get(url).bearer_auth(key).send().await.unwrap();
                assert_eq!(reply.status(), 200);
                reply.bytes().await.unwrap();
            }
        })
        .await
    };
    let grpc = {
        let (channel, key) = (channel.clone(), key.clone());
        measure(move || {
            let (channel, key) = (channel.clone(), key.clone());
            async move {
                let request = pb::ListUsersRequest { limit: Some(25), ..Default::default() };
                UsersClient::new(channel).list_users(authorized(request, &key)).await.unwrap();
            }
        })
        .await
    };
    report("GET /users?limit=25", &rest, &grpc);
}
