//! Retention (docs/operations.md#retention): what Sail would otherwise keep
//! forever is removed once older than its period. Events (with their
//! deliveries and attempts), webhook attempts, idempotent replies and the
//! audit trail's rows are deleted; a receipt's file is emptied while its
//! read lines stay with the expense. Each batch of at most
//! [`RetentionPolicy::batch`] rows is a write transaction of its own, so a
//! large backlog never holds the write lock for long; `sweep` reports the
//! longest.
//!
//! Tables whose ids are UUIDv7 are swept in id order (an id below the
//! cutoff's is older), through their primary key; idempotent replies, whose
//! ids are hashes, through their `created_at` index.

use std::time::{Duration, Instant};

use chrono::{DateTime, Utc};
use entities::{event, idempotency_key, pii_read, receipt, webhook_attempt, webhook_delivery};
use sea_orm::sea_query::{Condition, DynIden, Expr, IntoIden, Order, Query, SelectStatement};
use sea_orm::{ColumnTrait, ConnectionTrait, DatabaseConnection, EntityTrait, QueryFilter};

use crate::config::RetentionPolicy;
use crate::domain::IdKind;
use crate::error::CoreError;
use crate::platform::db::begin_write;

/// What retention removes, each kept for its own period.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kept {
    /// Events, with their deliveries and delivery attempts.
    Events,
    /// Webhook delivery attempts (of events still kept).
    WebhookAttempts,
    /// Replies kept for replaying an `Idempotency-Key`.
    IdempotentReplies,
    /// Rows of the personal-data audit trail.
    AuditRows,
    /// Receipt files (the receipt and its read lines stay).
    ReceiptFiles,
}

impl Kept {
    /// Every kind, in the order a sweep takes them.
    pub const ALL: [Kept; 5] =
        [Kept::Events, Kept::WebhookAttempts, Kept::IdempotentReplies, Kept::AuditRows, Kept::ReceiptFiles];

    /// Its name in `sail retention status` and the logs.
    pub fn as_str(self) -> &'static str {
        match self {
            Kept::Events => "events",
            Kept::WebhookAttempts => "webhook_attempts",
            Kept::IdempotentReplies => "idempotent_replies",
            Kept::AuditRows => "audit_rows",
            Kept::ReceiptFiles => "receipt_files",
        }
    }

    /// How long the policy keeps it.
    pub fn period(self, policy: &RetentionPolicy) -> Duration {
        match self {
            Kept::Events => policy.events,
            Kept::WebhookAttempts => policy.webhook_attempts,
            Kept::IdempotentReplies => policy.idempotent_replies,
            Kept::AuditRows => policy.audit_rows,
            Kept::ReceiptFiles => policy.receipt_files,
        }
    }
}

/// The smallest id of `kind` made at `at` or later: UUIDv7 ids begin with
/// their creation time in milliseconds, so every id below it is older.
fn id_at(kind: IdKind, at: DateTime<Utc>) -> String {
    let ms = at.timestamp_millis().max(0) as u64;
    format!("{}{:012x}{}", kind.prefix(), ms & 0xffff_ffff_ffff, "0".repeat(20))
}

/// The moment before which `kept` is due at `now`.
fn cutoff(kept: Kept, policy: &RetentionPolicy, now: DateTime<Utc>) -> DateTime<Utc> {
    let period = chrono::Duration::from_std(kept.period(policy)).unwrap_or(chrono::Duration::MAX);
    now.checked_sub_signed(period).unwrap_or(DateTime::<Utc>::MIN_UTC)
}

/// The rows of `kept` due before `before`: a query over its table with the
/// condition, the rows' id column, and the order a sweep takes them in. The
/// sweep (`due_ids`) and `sail retention status` (`count_due`) read the
/// same rows through it.
struct DueRows {
    query: SelectStatement,
    id: DynIden,
    order: DynIden,
}

fn due_rows(kept: Kept, before: DateTime<Utc>) -> DueRows {
    use sea_orm::sea_query::ExprTrait as _;
    fn over<E: EntityTrait>(entity: E, id: E::Column, order: E::Column, condition: Condition) -> DueRows {
        let mut query = Query::select();
        query.from(entity.table_ref()).cond_where(condition);
        DueRows { query, id: id.into_iden(), order: order.into_iden() }
    }
    let older = |column: Expr, kind: IdKind| Condition::all().add(column.lt(id_at(kind, before)));
    match kept {
        Kept::Events => over(
            event::Entity,
            event::Column::Id,
            event::Column::Id,
            older(Expr::col(event::Column::Id), IdKind::Event),
        ),
        Kept::WebhookAttempts => over(
            webhook_attempt::Entity,
            webhook_attempt::Column::Id,
            webhook_attempt::Column::Id,
            older(Expr::col(webhook_attempt::Column::Id), IdKind::Attempt),
        ),
        Kept::IdempotentReplies => over(
            idempotency_key::Entity,
            idempotency_key::Column::Id,
            idempotency_key::Column::CreatedAt,
            Condition::all().add(idempotency_key::Column::CreatedAt.lt(before)),
        ),
        Kept::AuditRows => over(
            pii_read::Entity,
            pii_read::Column::Id,
            pii_read::Column::Id,
            older(Expr::col(pii_read::Column::Id), IdKind::PiiRead),
        ),
        Kept::ReceiptFiles => over(
            receipt::Entity,
            receipt::Column::Id,
            receipt::Column::Id,
            older(Expr::col(receipt::Column::Id), IdKind::Receipt)
                .add(receipt::Column::Content.ne(""))
                .add(receipt::Column::Status.ne(entities::enums::ReceiptStatus::Processing)),
        ),
    }
}

/// The ids of at most `limit` rows of `kept` that are due, oldest first.
async fn due_ids(
    db: &impl ConnectionTrait,
    kept: Kept,
    before: DateTime<Utc>,
    limit: u64,
) -> Result<Vec<String>, CoreError> {
    let DueRows { mut query, id, order } = due_rows(kept, before);
    query.column(id).order_by(order, Order::Asc).limit(limit);
    let rows = db.query_all_raw(db.get_database_backend().build(&query)).await?;
    Ok(rows.iter().map(|row| row.try_get_by_index::<String>(0)).collect::<Result<_, _>>()?)
}

/// How many rows of `kept` are due.
async fn count_due(db: &impl ConnectionTrait, kept: Kept, before: DateTime<Utc>) -> Result<u64, CoreError> {
    use sea_orm::sea_query::ExprTrait as _;
    let DueRows { mut query, id, .. } = due_rows(kept, before);
    query.expr(Expr::col(id).count());
    let row = db.query_one_raw(db.get_database_backend().build(&query)).await?;
    let count = row.map(|row| row.try_get_by_index::<i64>(0)).transpose()?.unwrap_or(0);
    Ok(u64::try_from(count).unwrap_or(0))
}

/// Removes the rows `ids` of `kept` (they are due).
async fn remove(db: &impl ConnectionTrait, kept: Kept, ids: &[String]) -> Result<(), CoreError> {
    let ids = || ids.iter().map(String::as_str);
    match kept {
        Kept::Events => {
            webhook_attempt::Entity::delete_many()
                .filter(webhook_attempt::Column::EventId.is_in(ids()))
                .exec(db)
                .await?;
            webhook_delivery::Entity::delete_many()
                .filter(webhook_delivery::Column::EventId.is_in(ids()))
                .exec(db)
                .await?;
            event::Entity::delete_many().filter(event::Column::Id.is_in(ids())).exec(db).await?;
        }
        Kept::WebhookAttempts => {
            webhook_attempt::Entity::delete_many().filter(webhook_attempt::Column::Id.is_in(ids())).exec(db).await?;
        }
        Kept::IdempotentReplies => {
            idempotency_key::Entity::delete_many().filter(idempotency_key::Column::Id.is_in(ids())).exec(db).await?;
        }
        Kept::AuditRows => {
            pii_read::Entity::delete_many().filter(pii_read::Column::Id.is_in(ids())).exec(db).await?;
        }
        Kept::ReceiptFiles => {
            receipt::Entity::update_many()
                .col_expr(receipt::Column::Content, Expr::value(""))
                .filter(receipt::Column::Id.is_in(ids()))
                .exec(db)
                .await?;
        }
    }
    Ok(())
}

/// What is due for one kind.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Due {
    pub kind: &'static str,
    /// The period, in seconds.
    pub kept_for_s: u64,
    /// Rows (or files) older than the period.
    pub due: u64,
}

/// What retention would remove now: `sail retention status`.
pub async fn status(
    db: &impl ConnectionTrait,
    policy: &RetentionPolicy,
    now: DateTime<Utc>,
) -> Result<Vec<Due>, CoreError> {
    let mut all = Vec::new();
    for kept in Kept::ALL {
        let before = cutoff(kept, policy, now);
        let due = count_due(db, kept, before).await?;
        all.push(Due { kind: kept.as_str(), kept_for_s: kept.period(policy).as_secs(), due });
    }
    Ok(all)
}

/// What one sweep removed.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct Swept {
    /// Rows (or files) removed, by kind.
    pub removed: std::collections::BTreeMap<&'static str, u64>,
    /// Write transactions it took.
    pub batches: u64,
    /// The longest of them, in milliseconds: how long the sweep held the
    /// write lock at once.
    pub longest_batch_ms: u64,
}

/// Removes everything due at `now`, in batches of `policy.batch` rows, each
/// its own write transaction.
pub async fn sweep(db: &DatabaseConnection, policy: &RetentionPolicy, now: DateTime<Utc>) -> Result<Swept, CoreError> {
    let mut swept = Swept::default();
    let batch = policy.batch.max(1);
    for kept in Kept::ALL {
        let before = cutoff(kept, policy, now);
        loop {
            let started = Instant::now();
            let txn = begin_write(db).await?;
            let ids = due_ids(&*txn, kept, before, batch).await?;
            if ids.is_empty() {
                txn.commit().await?;
                break;
            }
            remove(&*txn, kept, &ids).await?;
            txn.commit().await?;
            swept.batches += 1;
            swept.longest_batch_ms = swept.longest_batch_ms.max(started.elapsed().as_millis() as u64);
            *swept.removed.entry(kept.as_str()).or_default() += ids.len() as u64;
            if (ids.len() as u64) < batch {
                break;
            }
        }
    }
    Ok(swept)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_id_below_the_cutoffs_is_older_and_one_above_is_younger() {
        let at = chrono::DateTime::parse_from_rfc3339("2026-11-01T00:00:00Z").unwrap().with_timezone(&Utc);
        let cutoff = id_at(IdKind::Event, at);
        assert_eq!(cutoff.len(), "evt_".len() + 32);
        let older = id_at(IdKind::Event, at - chrono::Duration::milliseconds(1));
        let younger = id_at(IdKind::Event, at + chrono::Duration::milliseconds(1));
        assert!(older < cutoff && cutoff < younger);
        // A real id made now is above any earlier cutoff.
        let now = crate::domain::new_id(IdKind::Event);
        assert!(now > id_at(IdKind::Event, Utc::now() - chrono::Duration::seconds(1)), "{now}");
        assert!(now < id_at(IdKind::Event, Utc::now() + chrono::Duration::seconds(1)), "{now}");
    }
}
