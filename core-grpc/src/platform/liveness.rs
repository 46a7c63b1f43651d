//! Which cores of a fleet are alive. Each core writes a heartbeat row
//! (`core_instances`) every [`BEAT_EVERY`]; another core counts it gone
//! once its heartbeat falls [`GONE_AFTER`] behind the reader's own.
//!
//! The comparison is between the two rows, never against the reader's
//! clock alone: when the database itself was away, every core's heartbeat
//! stopped together, so after the outage a live core is not mistaken for a
//! dead one in the seconds before it beats again. A reader whose own row is
//! missing (its heartbeat has not started) judges nobody gone.
//!
//! What uses it: an idempotency key's reservation names the core whose call
//! holds it (`layers::idempotency`), so a key held by a core killed mid-call
//! frees within about [`GONE_AFTER`] rather than after the reservation's
//! age limit (docs/api-decisions.md#idempotency-keys-held-by-a-core-that-died).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use entities::core_instance;
use sea_orm::sea_query::OnConflict;
use sea_orm::{ColumnTrait, ConnectionTrait, DatabaseConnection, EntityTrait, QueryFilter, Set};

use crate::domain::time;

/// How often a core writes its heartbeat.
pub const BEAT_EVERY: Duration = Duration::from_secs(2);
/// How far behind the reader's heartbeat another core's may fall before it
/// counts as gone: five missed beats.
pub const GONE_AFTER: Duration = Duration::from_secs(10);
/// Rows of cores not heard from for this long are deleted when a core
/// starts beating: a fleet's restarts leave no growing table.
const FORGET_AFTER: Duration = Duration::from_secs(24 * 3600);

/// This core's identity in the fleet, and whether its heartbeat runs.
#[derive(Debug)]
pub struct Liveness {
    id: String,
    beating: AtomicBool,
}

impl Default for Liveness {
    fn default() -> Self {
        Liveness { id: format!("core_{}", uuid::Uuid::now_v7().simple()), beating: AtomicBool::new(false) }
    }
}

impl Liveness {
    /// The id this core's reservations carry.
    pub fn id(&self) -> &str {
        &self.id
    }

    /// Starts this core's heartbeat on the current runtime, once however
    /// often it is asked (a core serves gRPC and, in `sail serve`, its
    /// in-process gateway too). It runs as long as the runtime does.
    pub fn start(self: &Arc<Self>, db: DatabaseConnection) {
        if self.beating.swap(true, Ordering::SeqCst) {
            return;
        }
        let me = self.clone();
        tokio::spawn(async move {
            let forget_before = time::now().timestamp_millis() - FORGET_AFTER.as_millis() as i64;
            if let Err(err) = core_instance::Entity::delete_many()
                .filter(core_instance::Column::HeartbeatAtMs.lt(forget_before))
                .exec(&db)
                .await
            {
                tracing::debug!(error = %err, "forgetting cores not heard from in a day");
            }
            loop {
                if let Err(err) = me.beat(&db).await {
                    // The database is away: the other cores' beats stop
                    // too, and nobody is judged gone for it.
                    tracing::debug!(error = %err, "a heartbeat was not written");
                }
                tokio::time::sleep(BEAT_EVERY).await;
            }
        });
    }

    /// Writes this core's heartbeat now.
    pub async fn beat(&self, db: &impl ConnectionTrait) -> Result<(), sea_orm::DbErr> {
        let row = core_instance::ActiveModel {
            id: Set(self.id.clone()),
            heartbeat_at_ms: Set(time::now().timestamp_millis()),
        };
        core_instance::Entity::insert(row)
            .on_conflict(
                OnConflict::column(core_instance::Column::Id)
                    .update_column(core_instance::Column::HeartbeatAtMs)
                    .to_owned(),
            )
            .exec(db)
            .await?;
        Ok(())
    }

    /// Whether core `other` is gone: its heartbeat is more than
    /// [`GONE_AFTER`] behind this core's own. False when either row is
    /// missing (nothing to compare) and for this core itself.
    pub async fn is_gone(&self, db: &impl ConnectionTrait, other: &str) -> Result<bool, sea_orm::DbErr> {
        if other == self.id {
            return Ok(false);
        }
        let rows = core_instance::Entity::find()
            .filter(core_instance::Column::Id.is_in([self.id.as_str(), other]))
            .all(db)
            .await?;
        let beat_of = |id: &str| rows.iter().find(|row| row.id == id).map(|row| row.heartbeat_at_ms);
        Ok(match (beat_of(&self.id), beat_of(other)) {
            (Some(mine), Some(theirs)) => theirs + (GONE_AFTER.as_millis() as i64) < mine,
            _ => false,
        })
    }
}
