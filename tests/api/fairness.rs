//! One partner's backlog never holds another partner's work back: jobs and
//! webhook deliveries are claimed in partner turns, and a webhook endpoint
//! that never answers holds its own send and nothing else.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use core_grpc::CoreConfig;
use entities::job;
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter};
use serde_json::json;

use crate::helpers::{Options, TestApp, eventually};
use crate::ingestion::{push, setup, tx};
use crate::webhooks::Receiver;

/// A webhook receiver that accepts connections and never answers, holding
/// them open until dropped.
struct BlackHole {
    url: String,
    accepted: Arc<AtomicUsize>,
    task: tokio::task::JoinHandle<()>,
}

impl BlackHole {
    async fn start() -> BlackHole {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}/hooks", listener.local_addr().unwrap());
        let accepted = Arc::new(AtomicUsize::new(0));
        let counter = accepted.clone();
        let task = tokio::spawn(async move {
            let mut held = Vec::new();
            while let Ok((socket, _)) = listener.accept().await {
                counter.fetch_add(1, Ordering::SeqCst);
                held.push(socket);
            }
        });
        BlackHole { url, accepted, task }
    }
}

impl Drop for BlackHole {
    fn drop(&mut self) {
        // Closing the held connections ends the sends at once.
        self.task.abort();
    }
}

#[tokio::test]
async fn endpoints_that_never_answer_delay_no_other_partners_delivery() {
    let app = TestApp::spawn().await;
    let hole = BlackHole::start().await;
    // Partner A: 16 endpoints (the most a partner may have) that never answer,
    // and three pushes' worth of events for each.
    let (key_a, user_a, connection_a) = setup(&app).await;
    for _ in 0..16 {
        let reply = app.post(&key_a, "/webhook-endpoints", json!({"url": hole.url})).await;
        assert_eq!(reply.status, 201, "{}", reply.body);
    }
    for n in 0..3 {
        let reply = push(&app, &key_a, &user_a, &connection_a, vec![tx(&format!("a{n}"), "CVS", None, 5.0)]).await;
        assert_eq!(reply.status, 202);
    }
    eventually("partner A's sends to hang", Duration::from_secs(20), || async {
        (hole.accepted.load(Ordering::SeqCst) >= 16).then_some(())
    })
    .await;

    // Partner B's event goes out and is recorded while A's sends hang (each
    // for the 10-second attempt timeout).
    let receiver = Receiver::start(0).await;
    let (key_b, user_b, connection_b) = setup(&app).await;
    let reply = app.post(&key_b, "/webhook-endpoints", json!({"url": receiver.url})).await;
    assert_eq!(reply.status, 201);
    let started = Instant::now();
    assert_eq!(push(&app, &key_b, &user_b, &connection_b, vec![tx("b", "CVS", None, 5.0)]).await.status, 202);
    let event_id = eventually("B's event to be listed", Duration::from_secs(5), || async {
        let events = app.get(&key_b, "/events").await.body;
        events["data"].as_array().and_then(|e| e.first()).map(|e| e["id"].as_str().unwrap().to_string())
    })
    .await;
    let recorded = eventually("B's delivery to be recorded", Duration::from_secs(8), || async {
        let event = app.get(&key_b, &format!("/events/{event_id}")).await.body;
        (event["deliveries"][0]["status"] == "delivered").then_some(event)
    })
    .await;
    let waited = started.elapsed();
    assert_eq!(receiver.received().len(), 1);
    assert_eq!(recorded["delivery_attempts"].as_array().unwrap().len(), 1);
    assert!(waited < Duration::from_secs(5), "B waited {waited:?} behind A's hanging sends");
    // A holds at most its cap of sends: 16 connections, not 48.
    assert!(hole.accepted.load(Ordering::SeqCst) <= core_grpc::background::delivery::MAX_IN_FLIGHT_PER_PARTNER);
    drop(hole);
}

#[tokio::test]
async fn a_partners_backlog_of_jobs_does_not_hold_back_anothers() {
    // The queue fills while no worker runs; then one worker drains it.
    let options = Options { core: CoreConfig { workers: 0, ..Options::default().core }, ..Default::default() };
    let app = TestApp::spawn_with(options).await;
    let (key_a, user_a, connection_a) = setup(&app).await;
    let rows: Vec<_> = (0..100).map(|n| tx(&format!("r{n}"), "WALGREENS #1", None, 3.0)).collect();
    for _ in 0..30 {
        assert_eq!(push(&app, &key_a, &user_a, &connection_a, rows.clone()).await.status, 202);
    }
    let (key_b, user_b, connection_b) = setup(&app).await;
    let b = push(&app, &key_b, &user_b, &connection_b, vec![tx("b", "CVS", None, 5.0)]).await;
    let b_job = b.body["job_id"].as_str().unwrap().to_string();

    let worker = app.extra_core(CoreConfig { workers: 1, ..Options::default().core });
    let done = app.wait_for_job(&key_b, &b_job).await;
    assert_eq!(done["status"], "completed");
    let b_completed = job::Entity::find_by_id(&b_job).one(&app.db).await.unwrap().unwrap().completed_at.unwrap();
    // Every one of A's jobs queued before B's; with first-come claims all
    // 30 would finish first. In partner turns B's goes out in the first claim.
    let a_jobs = job::Entity::find().filter(job::Column::Id.ne(&b_job)).all(&app.db).await.unwrap();
    let a_after_b = a_jobs.iter().filter(|j| j.completed_at.is_none_or(|at| at >= b_completed)).count();
    assert!(a_after_b >= 25, "only {a_after_b} of A's 30 jobs finished after B's");
    drop(worker);
}
