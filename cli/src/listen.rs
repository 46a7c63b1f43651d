//! `sail listen`: webhooks on a developer's machine without a public URL,
//! as `stripe listen` does (docs/webhooks.md#local-development). It reads
//! the partner's events through the API (`GET /events`, the ones newer than
//! the last it saw), signs each with a secret it makes and prints at start,
//! and posts it to a local URL, showing each delivery and its answer.
//! Sail's own delivery stays limited to public addresses; this runs where
//! the receiver is, with the partner's key.

use std::time::{Duration, Instant};

use anyhow::Context;
use serde_json::{Value, json};

/// What `sail listen` was asked to do.
pub struct Listen {
    pub api_url: String,
    pub api_key: String,
    pub forward_to: String,
    /// Only these event types; empty means all.
    pub events: Vec<String>,
    pub poll: Duration,
}

/// Events read per request, and pages read per poll at most: a backlog
/// larger than this (after a long pause) is skipped, not replayed.
const PAGE: usize = 100;
const MAX_PAGES_PER_POLL: usize = 10;

/// Runs until `stop` resolves.
pub async fn run(listen: Listen, stop: impl std::future::Future<Output = ()>) -> anyhow::Result<()> {
    let _ = rustls::crypto::ring::default_provider().install_default();
    let http = reqwest::Client::builder().timeout(Duration::from_secs(10)).build().context("an HTTP client")?;
    let secret = core_grpc::services::webhooks::generate_secret();
    // Only what happens from now on: the newest event so far marks the start.
    let mut last_seen = newest_events(&http, &listen, None).await?.into_iter().next().map(|e| id_of(&e));
    crate::logging::say(&format!(
        "Ready! Forwarding events to {} (signing secret {secret}). Ctrl-C stops.",
        listen.forward_to
    ));
    tokio::pin!(stop);
    loop {
        tokio::select! {
            () = &mut stop => return Ok(()),
            () = tokio::time::sleep(listen.poll) => {}
        }
        let fresh = match newest_events(&http, &listen, last_seen.as_deref()).await {
            Ok(fresh) => fresh,
            Err(err) => {
                crate::logging::say(&format!("reading events failed: {err:#}; trying again"));
                continue;
            }
        };
        // Oldest first, as they happened.
        for event in fresh.into_iter().rev() {
            last_seen = Some(id_of(&event));
            let kind = event["type"].as_str().unwrap_or_default().to_string();
            if !listen.events.is_empty() && !listen.events.contains(&kind) {
                continue;
            }
            forward(&http, &listen, &secret, &event).await;
        }
    }
}

fn id_of(event: &Value) -> String {
    event["id"].as_str().unwrap_or_default().to_string()
}

/// The partner's events newer than `after` (ids are time-ordered), newest
/// first; with no `after`, the newest one alone.
async fn newest_events(http: &reqwest::Client, listen: &Listen, after: Option<&str>) -> anyhow::Result<Vec<Value>> {
    let mut found = Vec::new();
    for page in 0..MAX_PAGES_PER_POLL {
        let limit = if after.is_none() { 1 } else { PAGE };
        let url = format!("{}/events?limit={limit}&offset={}", listen.api_url, page * PAGE);
        let reply = http.get(&url).bearer_auth(&listen.api_key).send().await.context("GET /events")?;
        let status = reply.status();
        let bytes = reply.bytes().await.context("reading GET /events")?;
        let body: Value = serde_json::from_slice(&bytes).context("GET /events answered something other than JSON")?;
        if !status.is_success() {
            let code = body["error"]["code"].as_str().unwrap_or("?");
            let message = body["error"]["message"].as_str().unwrap_or("");
            anyhow::bail!("GET /events answered {status}: {code}: {message}");
        }
        let data = body["data"].as_array().cloned().unwrap_or_default();
        let Some(after) = after else { return Ok(data) };
        let more = body["pagination"]["has_more"].as_bool().unwrap_or(false);
        for event in data {
            if id_of(&event).as_str() <= after {
                return Ok(found);
            }
            found.push(event);
        }
        if !more {
            break;
        }
    }
    Ok(found)
}

/// Posts one event, signed, as Sail delivers it, and says how it went.
async fn forward(http: &reqwest::Client, listen: &Listen, secret: &str, event: &Value) {
    let body =
        json!({"id": event["id"], "type": event["type"], "created_at": event["created_at"], "data": event["data"]})
            .to_string();
    let now = core_grpc::domain::time::now().timestamp();
    let signature = core_grpc::services::webhooks::signature::sign(secret, now, body.as_bytes());
    let (id, kind) = (id_of(event), event["type"].as_str().unwrap_or_default().to_string());
    let started = Instant::now();
    let sent = http
        .post(&listen.forward_to)
        .header("content-type", "application/json")
        .header("sail-event-id", &id)
        .header("sail-event-type", &kind)
        .header("sail-signature", signature)
        .body(body)
        .send()
        .await;
    let took = started.elapsed().as_millis();
    match sent {
        Ok(reply) => crate::logging::say(&format!("{kind} {id} -> {} ({took} ms)", reply.status().as_u16())),
        Err(err) => crate::logging::say(&format!("{kind} {id} -> failed: {err} ({took} ms)")),
    }
}
