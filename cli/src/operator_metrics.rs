//! The operator listener (docs/operations.md#metrics): `GET /metrics` in
//! Prometheus text format, on an address of its own (`--metrics-addr`),
//! never on the partner port. The process installs one Prometheus recorder;
//! the gateway and the core record into it through the `metrics` facade,
//! and a scrape first reads the gauges that come from the database (queue
//! depth and age, the pool) and the process (memory, CPU).

use std::net::SocketAddr;
use std::time::Duration;

use anyhow::Context as _;
use axum::extract::State;
use axum::http::header;
use axum::response::IntoResponse;
use metrics_exporter_prometheus::{PrometheusBuilder, PrometheusHandle};
use tokio::net::TcpListener;

/// Latency buckets in seconds: from a cached read to a slow receipt.
const BUCKETS: &[f64] = &[0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0];

#[derive(Clone)]
struct Scrape {
    handle: PrometheusHandle,
    core: Option<core_grpc::Core>,
}

/// Installs the process's recorder and binds the operator listener; the
/// returned future serves `/metrics` until `shutdown`.
pub async fn start(
    addr: SocketAddr,
    core: Option<core_grpc::Core>,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> anyhow::Result<(SocketAddr, impl Future<Output = anyhow::Result<()>>)> {
    let handle = PrometheusBuilder::new()
        .set_buckets(BUCKETS)
        .context("metrics buckets")?
        .install_recorder()
        .context("installing the metrics recorder")?;
    let listener = TcpListener::bind(addr).await.with_context(|| format!("binding {addr}"))?;
    let bound = listener.local_addr()?;
    // Histograms keep their samples until upkeep folds them in.
    let upkeep = handle.clone();
    tokio::spawn(async move {
        loop {
            tokio::time::sleep(Duration::from_secs(5)).await;
            upkeep.run_upkeep();
        }
    });
    let app = axum::Router::new().route("/metrics", axum::routing::get(metrics)).with_state(Scrape { handle, core });
    let served =
        async move { axum::serve(listener, app).with_graceful_shutdown(shutdown).await.map_err(anyhow::Error::from) };
    Ok((bound, served))
}

async fn metrics(State(scrape): State<Scrape>) -> impl IntoResponse {
    if let Some(core) = &scrape.core
        && let Err(err) = core_grpc::background::gauges::observe(core).await
    {
        tracing::warn!(error = %err, "metrics: reading the queue gauges failed; serving the rest");
    }
    scrape.handle.run_upkeep();
    ([(header::CONTENT_TYPE, "text/plain; version=0.0.4")], scrape.handle.render())
}
