//! Delivering events to endpoints: the outbox rows (`outbox`) are claimed
//! under a lease by the generic worker loop (`worker`), fairly across
//! partners, each event signed and POSTed on its own task, each attempt
//! recorded as it finishes, and failures rescheduled with exponential
//! backoff and jitter until the configured maximum age.

use std::collections::HashMap;
use std::sync::{Arc, LazyLock, Mutex};
use std::time::{Duration, Instant};

use entities::{event, webhook_attempt, webhook_delivery, webhook_endpoint};
use rand::Rng;
use sea_orm::sea_query::Expr;
use sea_orm::{
    ColumnTrait, ConnectionTrait, DatabaseBackend, DatabaseConnection, EntityName, EntityTrait, FromQueryResult,
    IdenStatic, Iterable, QueryFilter, QueryResult, Set, Statement,
};
use tokio::sync::{OwnedSemaphorePermit, Semaphore, mpsc, oneshot};
use tracing::Instrument;

use crate::background::worker::LeasedWork;
use crate::domain::{IdKind, new_id, time};
use crate::error::CoreError;
use crate::platform::db::begin_write;
use crate::platform::lease::{self, ClaimLimit, ClaimSpec};
use crate::services::outbox::{DeliveryStatus, EndpointStatus};
use crate::services::webhooks::{UrlCheck, check_url, signature};
use crate::state::Core;

/// Longest wait between attempts unless configured otherwise
/// (`CoreConfig::webhook_retry_max_delay`).
pub const MAX_RETRY_DELAY: Duration = Duration::from_secs(3600);
/// A worker's hold on a delivery: longer than an attempt can take. A core
/// that dies holding deliveries leaves them to another core after this.
pub const LEASE: Duration = Duration::from_secs(60);

/// Which deliveries a worker claims, and in what order.
pub const DELIVERY_CLAIM: ClaimSpec = ClaimSpec {
    table: "webhook_deliveries",
    set: "lease_until_ms = $1",
    runnable: "status = 'pending' AND next_attempt_at_ms <= $2 AND (lease_until_ms IS NULL OR lease_until_ms < $2)",
    order: "next_attempt_at_ms, id",
    pending: Some("status = 'pending'"),
};

/// A claimed delivery with what its attempt needs: the event it carries
/// and the endpoint it goes to (`None` if either is gone).
pub struct ClaimedDelivery {
    delivery: webhook_delivery::Model,
    event: Option<event::Model>,
    endpoint: Option<webhook_endpoint::Model>,
}

/// Prefixes of the event's and the endpoint's columns in the rows of
/// [`claim_statement`]. The delivery's own columns come unprefixed and
/// include `event_id`, so the prefixes are ones no column name starts with.
const EVENT_PREFIX: &str = "ev__";
const ENDPOINT_PREFIX: &str = "ep__";

/// The delivery claim on PostgreSQL, as one statement: the deliveries
/// [`DELIVERY_CLAIM`] takes (`lease::claim_statement`), each with its event
/// and its endpoint, found by one primary-key probe each (a `LATERAL`
/// subquery with a `LIMIT` is never flattened into a join, so no table
/// statistics can turn it into a scan). Claiming and then loading the events
/// and the endpoints was three round trips per batch, and on a busy machine a
/// round trip's wall time, not the statements' work, bounded delivery
/// (docs/benchmarks.md). SQLite cannot put `UPDATE … RETURNING` in a `WITH`;
/// there the claim and the loads stay separate statements. Public so a test
/// can read its plan.
pub fn claim_statement(limit: &ClaimLimit<'_>) -> Statement {
    let claim = lease::claim_statement(DatabaseBackend::Postgres, &DELIVERY_CLAIM, LEASE, limit);
    let sql = format!("WITH claimed AS ({}) {}", claim.sql, *WITH_EVENT_AND_ENDPOINT);
    Statement { sql, ..claim }
}

/// The part of [`claim_statement`] after the claim, the same for every
/// claim: the select list and the two probes.
static WITH_EVENT_AND_ENDPOINT: LazyLock<String> = LazyLock::new(|| {
    let event_columns = prefixed_columns::<event::Entity>("ev", EVENT_PREFIX);
    let endpoint_columns = prefixed_columns::<webhook_endpoint::Entity>("ep", ENDPOINT_PREFIX);
    let (events, endpoints) = (event::Entity.table_name(), webhook_endpoint::Entity.table_name());
    format!(
        "SELECT claimed.*, {event_columns}, {endpoint_columns} FROM claimed \
         LEFT JOIN LATERAL (SELECT * FROM {events} WHERE {events}.id = claimed.event_id LIMIT 1) AS ev ON true \
         LEFT JOIN LATERAL (SELECT * FROM {endpoints} WHERE {endpoints}.id = claimed.endpoint_id LIMIT 1) AS ep \
         ON true"
    )
});

/// `alias."column" AS "{prefix}column", …` for every column of `E`.
fn prefixed_columns<E: EntityTrait>(alias: &str, prefix: &str) -> String {
    E::Column::iter().map(|c| format!("{alias}.\"{0}\" AS \"{prefix}{0}\"", c.as_str())).collect::<Vec<_>>().join(", ")
}

impl ClaimedDelivery {
    /// One row of [`claim_statement`].
    fn from_claim_row(row: &QueryResult) -> Result<ClaimedDelivery, CoreError> {
        fn joined<M: FromQueryResult>(row: &QueryResult, prefix: &str) -> Result<Option<M>, CoreError> {
            // A row that the left join found nothing for has a null id.
            Ok(match row.try_get::<Option<String>>(prefix, "id")? {
                Some(_) => Some(M::from_query_result(row, prefix)?),
                None => None,
            })
        }
        Ok(ClaimedDelivery {
            delivery: webhook_delivery::Model::from_query_result(row, "")?,
            event: joined(row, EVENT_PREFIX)?,
            endpoint: joined(row, ENDPOINT_PREFIX)?,
        })
    }

    /// Claimed deliveries with their events and endpoints, loaded by two
    /// lookups: SQLite's way (PostgreSQL claims them together, and SQLite
    /// answers `id IN (…)` from the primary key). Each takes a connection
    /// of its own.
    async fn load(
        db: &DatabaseConnection,
        claimed: Vec<webhook_delivery::Model>,
    ) -> Result<Vec<ClaimedDelivery>, CoreError> {
        let event_ids: Vec<&str> = claimed.iter().map(|d| d.event_id.as_str()).collect();
        let mut endpoint_ids: Vec<&str> = claimed.iter().map(|d| d.endpoint_id.as_str()).collect();
        endpoint_ids.sort_unstable();
        endpoint_ids.dedup();
        let (events, endpoints) = tokio::try_join!(
            event::Entity::find().filter(event::Column::Id.is_in(event_ids)).all(db),
            webhook_endpoint::Entity::find().filter(webhook_endpoint::Column::Id.is_in(endpoint_ids)).all(db),
        )?;
        let events: HashMap<String, event::Model> = events.into_iter().map(|e| (e.id.clone(), e)).collect();
        let endpoints: HashMap<String, webhook_endpoint::Model> =
            endpoints.into_iter().map(|e| (e.id.clone(), e)).collect();
        Ok(claimed
            .into_iter()
            .map(|delivery| ClaimedDelivery {
                // One event may go to several endpoints in one claim.
                event: events.get(&delivery.event_id).cloned(),
                endpoint: endpoints.get(&delivery.endpoint_id).cloned(),
                delivery,
            })
            .collect())
    }
}

/// The wait before attempt `attempt + 1`, after `attempt` failed ones:
/// `base · 2^(attempt-1)`, capped at `cap`, with equal jitter (between half
/// and all of it), so receivers recovering from an outage are not stampeded.
pub fn retry_delay(base: Duration, cap: Duration, attempt: i32, rng: &mut impl Rng) -> Duration {
    let exponent = attempt.saturating_sub(1).clamp(0, 30) as u32;
    let full = base.saturating_mul(2u32.saturating_pow(exponent)).min(cap);
    let half = full / 2;
    half + Duration::from_millis(rng.random_range(0..=half.as_millis() as u64))
}

/// The JSON body delivered for an event: `{id, type, created_at, data}`.
pub fn event_body(event: &event::Model) -> Result<String, CoreError> {
    let data: serde_json::Value =
        serde_json::from_str(&event.data).map_err(|err| CoreError::Internal(format!("data of {}: {err}", event.id)))?;
    Ok(serde_json::json!({
        "id": event.id,
        "type": event.r#type,
        "created_at": time::rfc3339(&event.created_at),
        "data": data,
    })
    .to_string())
}

/// What one attempt came to.
struct AttemptResult {
    status_code: Option<u16>,
    error: Option<String>,
    latency: Duration,
}

impl AttemptResult {
    fn delivered(&self) -> bool {
        self.status_code.is_some_and(|code| (200..300).contains(&code))
    }
}

async fn attempt(
    core: &Core,
    endpoint: &webhook_endpoint::Model,
    event: &event::Model,
) -> Result<AttemptResult, CoreError> {
    let body = event_body(event)?;
    let started = Instant::now();
    // DNS may have changed since the endpoint was registered: check again.
    let url = match check_url(&endpoint.url, core.config.webhook_allow_private, UrlCheck::Delivery).await {
        Ok(url) => url,
        Err(err) => {
            // The reason stays in Sail's log: telling the caller which
            // address a name resolved to, or that it is not public, would
            // make deliveries a probe of networks they cannot see.
            tracing::warn!(endpoint = %endpoint.id, error = %err, "a webhook endpoint's address was refused");
            return Ok(AttemptResult {
                status_code: None,
                error: Some(CONNECTION_FAILED.to_string()),
                latency: started.elapsed(),
            });
        }
    };
    let secret =
        core.config.keyring.open(crate::platform::crypto::columns::WEBHOOK_SECRET, &endpoint.id, &endpoint.secret)?;
    let signed = signature::sign(&secret, time::now().timestamp(), body.as_bytes());
    let sent = core
        .http
        .post(url)
        .header("content-type", "application/json")
        .header("sail-event-id", &event.id)
        .header("sail-event-type", event.r#type.as_str())
        .header("sail-signature", signed)
        .body(body)
        .send()
        .await;
    let latency = started.elapsed();
    Ok(match sent {
        Ok(response) => {
            let code = response.status().as_u16();
            let error = (!(200..300).contains(&code)).then(|| format!("http_{code}"));
            AttemptResult { status_code: Some(code), error, latency }
        }
        Err(err) => {
            // Only the kind of failure, never its text: what a refused or
            // reset connection says differs by what listens on the port.
            let why = if err.is_timeout() { TIMEOUT } else { CONNECTION_FAILED };
            tracing::info!(endpoint = %endpoint.id, error = %err, "a webhook attempt failed");
            AttemptResult { status_code: None, error: Some(why.to_string()), latency }
        }
    })
}

/// An attempt that found no answer within the attempt timeout (10 s).
pub const TIMEOUT: &str = "timeout";
/// An attempt that could not connect (or whose address was refused).
pub const CONNECTION_FAILED: &str = "connection_failed";

/// A claimed delivery and what its attempt came to.
struct Outcome {
    claimed: webhook_delivery::Model,
    event: event::Model,
    result: AttemptResult,
}

/// What the recorder is handed: an attempt's outcome, or a request to say
/// when everything handed over before it is recorded.
enum ToRecord {
    Outcome(Box<Outcome>),
    Flush(oneshot::Sender<()>),
}

/// Sends in flight at once, per core.
pub const MAX_IN_FLIGHT: usize = 64;
/// Sends of one partner in flight at once: a partner whose endpoints never
/// answer holds at most this many of the [`MAX_IN_FLIGHT`] slots, each for
/// at most the attempt timeout.
pub const MAX_IN_FLIGHT_PER_PARTNER: usize = 16;
/// Deliveries of one partner a worker holds at once: its sends in flight and
/// three times as many claimed ahead, each waiting for one of the partner's
/// slots, so a finished send starts the next at once instead of leaving its
/// slot idle until the next claim and load, and one partner's stream is
/// claimed in batches of 16 or more (docs/benchmarks.md). A queued delivery
/// waits at most three attempt timeouts for a partner slot and one for a
/// core slot before its own attempt: inside its lease (checked below).
pub const MAX_HELD_PER_PARTNER: usize = 4 * MAX_IN_FLIGHT_PER_PARTNER;
// The longest a claimed delivery can take to be attempted and recorded:
// waiting out every queue ahead of it, then its own attempt.
const _: () = assert!(
    (MAX_HELD_PER_PARTNER / MAX_IN_FLIGHT_PER_PARTNER + 1) as u64 * crate::config::WEBHOOK_ATTEMPT_TIMEOUT.as_secs()
        < LEASE.as_secs(),
    "a queued delivery could outlive its lease"
);
/// Deliveries a worker holds at once, in flight or queued.
const MAX_HELD: usize = 2 * MAX_IN_FLIGHT;
/// A partner is claimed for only when it has room for this many more, so
/// one partner's steady stream is claimed in batches rather than a claim
/// (a write transaction) per finished send.
const CLAIM_AT_LEAST: usize = 16;
/// Outcomes recorded in one transaction at most.
const RECORD_BATCH: usize = 256;

/// What a worker holds: a permit per claimed delivery not yet finished
/// (in flight or queued), a slot per send in flight, and per partner its
/// count of held deliveries and its own slots.
struct InFlight {
    held: Arc<Semaphore>,
    sending: Arc<Semaphore>,
    per_partner: Mutex<HashMap<String, PartnerHold>>,
    /// Raised when a send finishes and its partner can be claimed for again.
    freed: tokio::sync::Notify,
}

/// One partner's deliveries held by a worker, and the slots its sends take.
struct PartnerHold {
    held: usize,
    sending: Arc<Semaphore>,
}

impl InFlight {
    fn new() -> InFlight {
        InFlight {
            held: Arc::new(Semaphore::new(MAX_HELD)),
            sending: Arc::new(Semaphore::new(MAX_IN_FLIGHT)),
            per_partner: Mutex::default(),
            freed: tokio::sync::Notify::new(),
        }
    }

    /// The partners not to claim for now (room for fewer than
    /// [`CLAIM_AT_LEAST`] more), and how many rows any other partner may be
    /// given without holding more than [`MAX_HELD_PER_PARTNER`].
    fn claim_room(&self) -> (Vec<String>, u64) {
        let partners = self.per_partner.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let busy = MAX_HELD_PER_PARTNER - CLAIM_AT_LEAST;
        let skip = partners.iter().filter(|(_, p)| p.held > busy).map(|(id, _)| id.clone()).collect();
        let fullest = partners.values().map(|p| p.held).filter(|n| *n <= busy).max().unwrap_or(0);
        (skip, (MAX_HELD_PER_PARTNER - fullest) as u64)
    }

    /// Counts one more delivery held for `partner`; the partner's slots.
    fn hold(&self, partner: &str) -> Arc<Semaphore> {
        let mut partners = self.per_partner.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let entry = partners
            .entry(partner.to_string())
            .or_insert_with(|| PartnerHold { held: 0, sending: Arc::new(Semaphore::new(MAX_IN_FLIGHT_PER_PARTNER)) });
        entry.held += 1;
        entry.sending.clone()
    }

    /// Counts one delivery of `partner` finished; how many it still holds.
    /// A partner holding none is forgotten (no send holds its slots then).
    fn release(&self, partner: &str) -> usize {
        let mut partners = self.per_partner.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let Some(entry) = partners.get_mut(partner) else { return 0 };
        entry.held = entry.held.saturating_sub(1);
        let left = entry.held;
        if left == 0 {
            partners.remove(partner);
        }
        left
    }
}

/// One claimed delivery's hold, released on drop (when its send has
/// finished and its outcome is handed to the recorder).
struct Slot {
    in_flight: Arc<InFlight>,
    partner: String,
    _held: OwnedSemaphorePermit,
}

impl Drop for Slot {
    fn drop(&mut self) {
        // Wake the worker only when the partner can be claimed for again.
        if self.in_flight.release(&self.partner) <= MAX_HELD_PER_PARTNER - CLAIM_AT_LEAST {
            self.in_flight.freed.notify_one();
        }
    }
}

/// Records outcomes as sends finish: whatever has arrived is written in one
/// transaction (group commit), so a send that takes ten seconds delays no
/// other send's record, and a busy worker still writes in batches.
async fn record_as_they_finish(core: Core, mut outcomes: mpsc::UnboundedReceiver<ToRecord>) {
    while let Some(first) = outcomes.recv().await {
        let mut batch = Vec::new();
        let mut flushes = Vec::new();
        let mut next = Some(first);
        while let Some(item) = next {
            match item {
                ToRecord::Outcome(outcome) => batch.push(*outcome),
                ToRecord::Flush(done) => flushes.push(done),
            }
            next = if batch.len() < RECORD_BATCH { outcomes.try_recv().ok() } else { None };
        }
        if !batch.is_empty()
            && let Err(err) = record(&core, batch).await
        {
            tracing::error!(error = %err, "recording webhook attempts failed; their leases will expire");
        }
        for done in flushes {
            let _ = done.send(());
        }
    }
}

/// Records every attempt and reschedules or closes each delivery in one
/// transaction, each only while its claim is still this worker's.
async fn record(core: &Core, mut outcomes: Vec<Outcome>) -> Result<(), CoreError> {
    // Rows are updated in id order, as every writer of deliveries does
    // (`outbox::redeliver`): two transactions that lock the same rows in
    // the same order cannot deadlock on PostgreSQL.
    outcomes.sort_by(|a, b| a.claimed.id.cmp(&b.claimed.id));
    let now = time::now();
    let txn = begin_write(&core.db).await?;
    let attempts: Vec<webhook_attempt::ActiveModel> = outcomes
        .iter()
        .map(|o| webhook_attempt::ActiveModel {
            id: Set(new_id(IdKind::Attempt)),
            delivery_id: Set(o.claimed.id.clone()),
            event_id: Set(o.event.id.clone()),
            endpoint_id: Set(o.claimed.endpoint_id.clone()),
            attempted_at: Set(now),
            status_code: Set(o.result.status_code.map(i32::from)),
            latency_ms: Set(o.result.latency.as_millis() as i64),
            error: Set(o.result.error.clone()),
            delivered: Set(o.result.delivered()),
        })
        .collect();
    webhook_attempt::Entity::insert_many(attempts).exec_without_returning(&*txn).await?;
    for outcome in &outcomes {
        let result = if outcome.result.delivered() { "delivered" } else { "failed" };
        metrics::counter!("sail_webhook_attempts_total", "outcome" => result).increment(1);
        metrics::histogram!("sail_webhook_attempt_duration_seconds").record(outcome.result.latency.as_secs_f64());
        if outcome.result.delivered() {
            // From the event's recording to the receiver's 2xx, retries included.
            let lag = (now - outcome.event.created_at).num_milliseconds().max(0) as f64 / 1000.0;
            metrics::histogram!("sail_webhook_delivery_lag_seconds").record(lag);
        }
    }

    // Every delivery's new state in one statement (`UPDATE … FROM (VALUES
    // …)`, which PostgreSQL and SQLite both take): one round trip for the
    // batch, each row only while its claim is still this worker's.
    let backend = core.db.get_database_backend();
    if backend == sea_orm::DatabaseBackend::Postgres {
        // That statement locks its rows in the order of its plan, not of
        // the list, and deadlocked with a redelivery locking the same rows
        // in id order (seen in CI). The rows are locked in id order first.
        let placeholders: Vec<String> = (1..=outcomes.len()).map(|n| format!("${n}")).collect();
        let lock = format!(
            "SELECT id FROM webhook_deliveries WHERE id IN ({}) ORDER BY id COLLATE \"C\" FOR UPDATE",
            placeholders.join(", ")
        );
        let ids: Vec<sea_orm::Value> = outcomes.iter().map(|o| o.claimed.id.clone().into()).collect();
        (*txn).query_all_raw(sea_orm::Statement::from_sql_and_values(backend, lock, ids)).await?;
    }
    let mut rows = Vec::with_capacity(outcomes.len());
    let mut values: Vec<sea_orm::Value> = Vec::with_capacity(outcomes.len() * 6);
    for outcome in &outcomes {
        let claimed = &outcome.claimed;
        let attempts = claimed.attempts + 1;
        let (state, next_at) = if outcome.result.delivered() {
            (DeliveryStatus::Delivered, claimed.next_attempt_at_ms)
        } else {
            let delay = retry_delay(
                core.config.webhook_retry_base,
                core.config.webhook_retry_max_delay,
                attempts,
                &mut rand::rng(),
            );
            let next = now + chrono::Duration::from_std(delay).unwrap_or_default();
            let age_limit = outcome.event.created_at
                + chrono::Duration::from_std(core.config.webhook_retry_max_age).unwrap_or_default();
            if next > age_limit {
                (DeliveryStatus::Failed, claimed.next_attempt_at_ms)
            } else {
                (DeliveryStatus::Pending, next.timestamp_millis())
            }
        };
        let delivered_at = (state == DeliveryStatus::Delivered).then_some(now);
        let first = values.len() + 1;
        rows.push(format!(
            "(${}, ${}, ${}, ${}, ${}, ${})",
            first,
            first + 1,
            first + 2,
            first + 3,
            first + 4,
            first + 5
        ));
        values.extend([
            claimed.id.clone().into(),
            state.as_str().into(),
            attempts.into(),
            next_at.into(),
            delivered_at.into(),
            claimed.lease_until_ms.into(),
        ]);
    }
    let sql = format!(
        "UPDATE webhook_deliveries SET status = v.column2, attempts = v.column3, next_attempt_at_ms = v.column4, \
         lease_until_ms = NULL, delivered_at = COALESCE(v.column5, webhook_deliveries.delivered_at) \
         FROM (VALUES {}) AS v WHERE webhook_deliveries.id = v.column1 \
         AND webhook_deliveries.lease_until_ms = v.column6",
        rows.join(", ")
    );
    let sql = if backend == sea_orm::DatabaseBackend::Postgres { sql } else { sql.replace('$', "?") };
    let updated = (*txn).execute_raw(sea_orm::Statement::from_sql_and_values(backend, sql, values)).await?;
    if updated.rows_affected() != outcomes.len() as u64 {
        tracing::warn!(
            recorded = updated.rows_affected(),
            outcomes = outcomes.len(),
            "some claims were lost before recording; other workers own those deliveries now"
        );
    }
    txn.commit().await?;
    Ok(())
}

async fn close(
    db: &DatabaseConnection,
    claimed: &webhook_delivery::Model,
    state: DeliveryStatus,
) -> Result<(), CoreError> {
    webhook_delivery::Entity::update_many()
        .col_expr(webhook_delivery::Column::Status, Expr::value(state))
        .col_expr(webhook_delivery::Column::LeaseUntilMs, Expr::value(Option::<i64>::None))
        .filter(webhook_delivery::Column::Id.eq(&claimed.id))
        .exec(db)
        .await?;
    Ok(())
}

/// Webhook deliveries as [`LeasedWork`], as a pipeline: the worker claims
/// as many due deliveries as it has room for (in partner turns; a partner
/// holds at most 64, 16 sending and 48 queued, and is skipped until it has
/// room for 16 more), starts each on its own task, which waits for one of
/// the partner's 16 slots and one of the core's 64, and claims again; each
/// outcome goes to the recorder as its send finishes. A slow endpoint holds
/// its own partner's slots and nothing else.
pub struct Deliveries {
    in_flight: Arc<InFlight>,
    recorder: mpsc::UnboundedSender<ToRecord>,
}

impl Deliveries {
    /// A delivery worker for `core`, with its recorder task started.
    pub fn start(core: &Core) -> Deliveries {
        let (recorder, outcomes) = mpsc::unbounded_channel();
        tokio::spawn(record_as_they_finish(core.clone(), outcomes));
        Deliveries { in_flight: Arc::new(InFlight::new()), recorder }
    }

    /// Starts a send for each claimed delivery.
    async fn start_sends(&self, core: &Core, claimed: Vec<ClaimedDelivery>) -> Result<(), CoreError> {
        let db = &core.db;
        for ClaimedDelivery { delivery, event, endpoint } in claimed {
            let (Some(event), Some(endpoint)) = (event, endpoint) else {
                tracing::error!(delivery = %delivery.id, "delivery lost its event or endpoint");
                continue;
            };
            if endpoint.status != EndpointStatus::Enabled {
                close(db, &delivery, DeliveryStatus::Cancelled).await?;
                continue;
            }
            // The claim took no more rows than there was room for, and
            // only this worker takes them.
            let Ok(held) = self.in_flight.held.clone().try_acquire_owned() else {
                tracing::warn!(delivery = %delivery.id, "no room; the lease will hand the delivery back");
                continue;
            };
            let partner_slots = self.in_flight.hold(&delivery.partner_id);
            let slot = Slot { in_flight: self.in_flight.clone(), partner: delivery.partner_id.clone(), _held: held };
            let (core, recorder, core_slots) = (core.clone(), self.recorder.clone(), self.in_flight.sending.clone());
            tokio::spawn(async move {
                // Queued behind the partner's own sends first, then the
                // core's: a partner's queue never takes the core's slots.
                // Neither semaphore is ever closed.
                let (Ok(_partner_slot), Ok(_core_slot)) =
                    (partner_slots.acquire_owned().await, core_slots.acquire_owned().await)
                else {
                    return;
                };
                // The attempt joins the trace of the work that recorded the event.
                let span = tracing::info_span!("webhook", delivery = %delivery.id, event = %event.id);
                sail_api::trace_context::adopt_stored(&span, event.trace_parent.as_deref());
                match attempt(&core, &endpoint, &event).instrument(span).await {
                    Ok(result) => {
                        let _ =
                            recorder.send(ToRecord::Outcome(Box::new(Outcome { claimed: delivery, event, result })));
                    }
                    Err(err) => tracing::error!(error = %err, "a webhook attempt could not be made"),
                }
                drop(slot);
            });
        }
        Ok(())
    }
}

impl LeasedWork for Deliveries {
    type Item = ClaimedDelivery;
    const NAME: &'static str = "webhook deliveries";
    const POLL_INTERVAL: Duration = Duration::from_millis(100);

    async fn claim(&self, core: &Core) -> Result<Vec<ClaimedDelivery>, CoreError> {
        // Wait for room: a worker holding all it may means every send is at
        // most an attempt timeout from finishing.
        drop(self.in_flight.held.acquire().await.map_err(|err| CoreError::Internal(err.to_string()))?);
        let free = self.in_flight.held.available_permits() as u64;
        let (skip, per_partner) = self.in_flight.claim_room();
        let limit = ClaimLimit { max: free, per_partner, skip_partners: &skip };
        if core.db.get_database_backend() == DatabaseBackend::Postgres {
            let rows = core.db.query_all_raw(claim_statement(&limit)).await?;
            return rows.iter().map(ClaimedDelivery::from_claim_row).collect();
        }
        let claimed = lease::claim::<webhook_delivery::Entity>(&core.db, &DELIVERY_CLAIM, LEASE, limit).await?;
        ClaimedDelivery::load(&core.db, claimed).await
    }

    async fn process(&self, core: &Core, claimed: Vec<ClaimedDelivery>) {
        if let Err(err) = self.start_sends(core, claimed).await {
            tracing::error!(error = %err, "starting webhook sends failed; their leases will expire");
        }
    }

    async fn woken(&self) {
        self.in_flight.freed.notified().await
    }

    async fn finish(&self, _core: &Core) {
        // Let every send in flight finish, then wait for their records.
        let _all = self.in_flight.held.acquire_many(MAX_HELD as u32).await;
        let (done, recorded) = oneshot::channel();
        if self.recorder.send(ToRecord::Flush(done)).is_ok() {
            let _ = recorded.await;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn delays_double_with_jitter_and_stop_at_their_cap() {
        let mut rng = rand::rng();
        let base = Duration::from_secs(10);
        for attempt in 1..=6 {
            let full = base * 2u32.pow(attempt as u32 - 1);
            for _ in 0..50 {
                let delay = retry_delay(base, MAX_RETRY_DELAY, attempt, &mut rng);
                assert!(delay >= full / 2 && delay <= full, "attempt {attempt}: {delay:?}");
            }
        }
        assert!(retry_delay(base, MAX_RETRY_DELAY, 40, &mut rng) <= MAX_RETRY_DELAY);
        assert!(retry_delay(base, MAX_RETRY_DELAY, 40, &mut rng) >= MAX_RETRY_DELAY / 2);
        // An operator's cap holds from the attempt whose doubling passes it.
        let cap = Duration::from_secs(30);
        let under = retry_delay(base, cap, 2, &mut rng);
        assert!(under >= Duration::from_secs(10) && under <= Duration::from_secs(20), "{under:?}");
        for _ in 0..50 {
            let delay = retry_delay(base, cap, 9, &mut rng);
            assert!(delay >= cap / 2 && delay <= cap, "{delay:?}");
        }
    }

    fn in_flight(counts: &[(&str, usize)]) -> InFlight {
        let in_flight = InFlight::new();
        for (partner, n) in counts {
            for _ in 0..*n {
                in_flight.hold(partner);
            }
        }
        in_flight
    }

    #[test]
    fn a_claim_never_takes_a_partner_past_what_it_may_hold() {
        let busy = MAX_HELD_PER_PARTNER - CLAIM_AT_LEAST;
        // Room for fewer than a batch more: skipped.
        let (skip, per_partner) = in_flight(&[("ptn_a", busy + 1), ("ptn_b", 3)]).claim_room();
        assert_eq!(skip, vec!["ptn_a".to_string()]);
        assert_eq!(per_partner as usize, MAX_HELD_PER_PARTNER - 3, "ptn_b's room");
        // Every partner given `per_partner` stays within what it may hold.
        let (skip, per_partner) = in_flight(&[("ptn_a", busy), ("ptn_b", 2)]).claim_room();
        assert!(skip.is_empty());
        assert_eq!(per_partner as usize + busy, MAX_HELD_PER_PARTNER);
        // A partner holding nothing any more is forgotten.
        let held = in_flight(&[("ptn_a", 2)]);
        assert_eq!((held.release("ptn_a"), held.release("ptn_a")), (1, 0));
        assert!(held.per_partner.lock().unwrap().is_empty());
    }

    #[tokio::test]
    async fn a_partner_never_has_more_sends_in_flight_than_its_slots() {
        // Twice as many held as a partner may send at once: the rest wait.
        let held = in_flight(&[]);
        let slots: Vec<_> = (0..MAX_HELD_PER_PARTNER).map(|_| held.hold("ptn_a")).collect();
        let mut permits = Vec::new();
        for slot in &slots {
            if let Ok(permit) = slot.clone().try_acquire_owned() {
                permits.push(permit);
            }
        }
        assert_eq!(permits.len(), MAX_IN_FLIGHT_PER_PARTNER);
        drop(permits.pop());
        assert!(slots[0].clone().try_acquire_owned().is_ok(), "a finished send lets a queued one start");
    }
}
