//! A unit of background work, claimed by one worker at a time under a lease.
use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "jobs")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: String,
    pub partner_id: String,
    pub kind: crate::enums::JobKind,
    pub status: crate::enums::JobStatus,
    pub user_id: Option<String>,
    pub connection_id: Option<String>,
    pub attempts: i32,
    /// While `processing`: the claim holds until this instant (Unix ms);
    /// after it, another worker may take the job over.
    pub lease_until_ms: Option<i64>,
    pub accepted: i32,
    pub duplicates_updated: i32,
    pub processed: i32,
    pub last_error: Option<String>,
    /// The work to do, as JSON (an ingestion job's validated batch); cleared
    /// when the job completes, since its rows then hold the data.
    pub payload: Option<String>,
    pub created_at: DateTimeUtc,
    pub started_at: Option<DateTimeUtc>,
    pub completed_at: Option<DateTimeUtc>,
    /// Rows of the batch that failed on their own (the rest were stored).
    pub failed: i32,
    /// Which rows failed and why, as JSON `[{index, external_transaction_id,
    /// code, message}]`; null when none did.
    pub failures_json: Option<String>,
    /// The W3C `traceparent` of the request that queued the job, when
    /// traces are exported: the run joins that trace.
    pub trace_parent: Option<String>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
