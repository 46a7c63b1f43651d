//! Retention sweeps as background work (docs/operations.md#retention): one
//! `maintenance_runs` row, claimed under a lease by one core of the fleet at
//! a time when it is due, run through the same claim-and-lease loop as every
//! other kind of work (`worker`), then due again after the policy's
//! interval. A core that dies mid-sweep leaves the lease to lapse; the next
//! sweep picks up what is still due.

use std::time::Duration;

use entities::maintenance_run;
use sea_orm::sea_query::{Expr, ExprTrait, OnConflict};
use sea_orm::{ColumnTrait, Condition, EntityTrait, QueryFilter, Set};

use crate::background::worker::LeasedWork;
use crate::domain::time;
use crate::error::CoreError;
use crate::services::retention;
use crate::state::Core;

/// The row naming the retention sweep.
pub const SWEEP: &str = "retention";

/// How long a claimed sweep holds before another core may take it over.
const SWEEP_LEASE: Duration = Duration::from_secs(600);

/// The retention sweep as [`LeasedWork`].
pub struct RetentionSweeps;

impl LeasedWork for RetentionSweeps {
    type Item = ();
    const NAME: &'static str = "retention";
    const POLL_INTERVAL: Duration = Duration::from_secs(1);

    async fn claim(&self, core: &Core) -> Result<Vec<()>, CoreError> {
        Ok(if claim(core).await? { vec![()] } else { Vec::new() })
    }

    async fn process(&self, core: &Core, _claimed: Vec<()>) {
        let policy = core.config.retention;
        match retention::sweep(&core.db, &policy, time::now()).await {
            Ok(swept) if swept.batches > 0 => {
                tracing::info!(removed = ?swept.removed, batches = swept.batches, longest_batch_ms = swept.longest_batch_ms, "retention sweep");
            }
            Ok(_) => {}
            Err(err) => tracing::error!(error = %err, "retention sweep failed; it runs again after its interval"),
        }
        if let Err(err) = release(core).await {
            tracing::error!(error = %err, "releasing the retention sweep");
        }
    }
}

/// Takes the sweep if it is due and nobody holds it: one conditional
/// update, so of several cores exactly one wins.
async fn claim(core: &Core) -> Result<bool, CoreError> {
    let now = time::now().timestamp_millis();
    // The row exists from the first claim on.
    let row = maintenance_run::ActiveModel {
        name: Set(SWEEP.to_string()),
        lease_until_ms: Set(None),
        next_run_at_ms: Set(0),
    };
    let insert = maintenance_run::Entity::insert(row)
        .on_conflict(OnConflict::column(maintenance_run::Column::Name).do_nothing().to_owned());
    match insert.exec_without_returning(&core.db).await {
        Ok(_) | Err(sea_orm::DbErr::RecordNotInserted) => {}
        Err(err) => return Err(err.into()),
    }
    let lease_until = now + SWEEP_LEASE.as_millis() as i64;
    let taken = maintenance_run::Entity::update_many()
        .col_expr(maintenance_run::Column::LeaseUntilMs, Expr::value(lease_until))
        .filter(maintenance_run::Column::Name.eq(SWEEP))
        .filter(maintenance_run::Column::NextRunAtMs.lte(now))
        .filter(
            Condition::any()
                .add(maintenance_run::Column::LeaseUntilMs.is_null())
                .add(Expr::col(maintenance_run::Column::LeaseUntilMs).lt(now)),
        )
        .exec(&core.db)
        .await?;
    Ok(taken.rows_affected == 1)
}

/// Lets the sweep go, due again after the policy's interval.
async fn release(core: &Core) -> Result<(), CoreError> {
    let next = time::now().timestamp_millis() + core.config.retention.interval.as_millis() as i64;
    maintenance_run::Entity::update_many()
        .col_expr(maintenance_run::Column::LeaseUntilMs, Expr::value(Option::<i64>::None))
        .col_expr(maintenance_run::Column::NextRunAtMs, Expr::value(next))
        .filter(maintenance_run::Column::Name.eq(SWEEP))
        .exec(&core.db)
        .await?;
    Ok(())
}
