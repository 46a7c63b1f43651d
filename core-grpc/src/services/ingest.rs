//! Transaction ingestion (PushTransactions in docs/openapi.json, docs/contract.md#ingestion-jobs-and-expenses): a partner pushes up to
//! 500 purchases to an `external` connection. The validated batch is the
//! payload of its job, committed before the `202`, so nothing accepted is
//! ever lost. A worker then adjudicates the batch in memory and writes each
//! row once, with the `transactions.ingested` event and the job's
//! completion, in one transaction: a crash before that commit leaves the job
//! to run again, a crash after it has nothing left to do.

use std::collections::HashSet;

use chrono::{Days, NaiveDate};
use entities::{connection, job, pending_push, transaction};
use sail_api::pb;
use sea_orm::{
    ColumnTrait, ConnectionTrait, DatabaseConnection, DbBackend, EntityTrait, QueryFilter, QuerySelect, QueryTrait,
    Set, Statement, TransactionTrait,
};

use crate::domain::money;
use crate::error::CoreError;
use crate::platform::db::begin_write;
use crate::platform::jobs::{self, JobKind, NewJob};
use crate::services::connections::{self, ConnectionStatus, ConnectionType};
use crate::services::expenses::{self, NewTransaction, OnRepeat, parse_date};
use crate::services::outbox;
use crate::services::users;
use sail_engine::Engine;

/// At most this many transactions per push (docs/contract.md#wire-conventions).
pub const MAX_BATCH: usize = 500;

/// Active ISO 4217 currency codes.
pub const ISO_4217: &str = "AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BHD BIF BMD BND BOB BRL BSD BTN BWP BYN BZD CAD CDF CHF CLP CNY COP CRC CUP CVE CZK DJF DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP GEL GHS GIP GMD GNF GTQ GYD HKD HNL HTG HUF IDR ILS INR IQD IRR ISK JMD JOD JPY KES KGS KHR KMF KPW KRW KWD KYD KZT LAK LBP LKR LRD LSL LYD MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR MWK MXN MYR MZN NAD NGN NIO NOK NPR NZD OMR PAB PEN PGK PHP PKR PLN PYG QAR RON RSD RUB RWF SAR SBD SCR SDG SEK SGD SHP SLE SOS SRD SSP STN SVC SYP SZL THB TJS TMT TND TOP TRY TTD TWD TZS UAH UGX USD UYU UZS VES VND VUV WST XAF XCD XOF XPF YER ZAR ZMW ZWL";

fn field(index: usize, name: &str) -> String {
    format!("transactions.{index}.{name}")
}

/// Validates one pushed transaction (the PushedTransaction schema in docs/openapi.json), naming `transactions.N.field`.
pub fn parse_transaction(
    index: usize,
    raw: pb::PushedTransaction,
    today: NaiveDate,
) -> Result<NewTransaction, CoreError> {
    let id = raw.external_transaction_id;
    if id.trim().is_empty() {
        return Err(CoreError::invalid(
            field(index, "external_transaction_id"),
            "external_transaction_id is required.",
        ));
    }
    if id.chars().count() > 255 {
        return Err(CoreError::invalid(
            field(index, "external_transaction_id"),
            "external_transaction_id must be at most 255 characters.",
        ));
    }
    let date = parse_date(&field(index, "date"), &raw.date)?;
    if date > today.checked_add_days(Days::new(1)).unwrap_or(today) {
        return Err(CoreError::invalid(field(index, "date"), format!("date {date} is in the future.")));
    }
    let amount_minor = money::from_major(raw.amount).ok_or_else(|| {
        CoreError::invalid(
            field(index, "amount"),
            format!("amount must be a positive number with at most 2 decimals (purchases only); got {}.", raw.amount),
        )
    })?;
    let description = raw.description.trim().to_string();
    if description.is_empty() {
        return Err(CoreError::invalid(
            field(index, "description"),
            "description (the raw bank descriptor) is required.",
        ));
    }
    if description.chars().count() > 1000 {
        return Err(CoreError::invalid(field(index, "description"), "description must be at most 1000 characters."));
    }
    let merchant_name = raw.merchant_name.map(|n| n.trim().to_string()).filter(|n| !n.is_empty());
    if merchant_name.as_ref().is_some_and(|n| n.chars().count() > 255) {
        return Err(CoreError::invalid(field(index, "merchant_name"), "merchant_name must be at most 255 characters."));
    }
    let mcc = match raw.mcc {
        None => None,
        Some(mcc) if mcc.len() == 4 && mcc.bytes().all(|b| b.is_ascii_digit()) => Some(mcc),
        Some(mcc) => {
            return Err(CoreError::invalid(
                field(index, "mcc"),
                format!("mcc must be four digits, e.g. \"5912\"; got '{mcc}'."),
            ));
        }
    };
    let currency = match raw.currency {
        None => "USD".to_string(),
        Some(code) => {
            // Upper or lower case, as the OpenAPI enum lists them.
            let upper = code.to_ascii_uppercase();
            let one_case = code == upper || code == code.to_ascii_lowercase();
            if one_case && upper.len() == 3 && ISO_4217.split(' ').any(|c| c == upper) {
                upper
            } else {
                return Err(CoreError::invalid(
                    field(index, "currency"),
                    format!("currency must be an ISO 4217 code such as USD; got '{code}'."),
                ));
            }
        }
    };
    Ok(NewTransaction {
        external_transaction_id: id,
        date,
        amount_minor,
        currency,
        description,
        merchant_name,
        mcc,
        items_json: None,
    })
}

/// Validates a whole batch: 1 to 500 transactions, each valid.
pub fn parse_batch(raw: Vec<pb::PushedTransaction>, today: NaiveDate) -> Result<Vec<NewTransaction>, CoreError> {
    if raw.is_empty() {
        return Err(CoreError::invalid("transactions", "transactions must hold at least one transaction."));
    }
    if raw.len() > MAX_BATCH {
        return Err(CoreError::invalid(
            "transactions",
            format!("transactions holds {} entries; at most {MAX_BATCH} may be pushed at once.", raw.len()),
        ));
    }
    raw.into_iter().enumerate().map(|(i, t)| parse_transaction(i, t, today)).collect()
}

/// Stores a validated batch on an external connection and queues its job.
/// Returns the job, whose `accepted` and `duplicates_updated` describe the
/// batch. Everything is committed when this returns.
pub async fn ingest(
    db: &DatabaseConnection,
    partner_id: &str,
    user_id: &str,
    connection_id: &str,
    batch: Vec<NewTransaction>,
) -> Result<job::Model, CoreError> {
    let owner = connections::get_connection(db, partner_id, user_id, connection_id).await?;
    users::require_active(db, partner_id, user_id).await?;
    if owner.r#type != ConnectionType::External {
        return Err(CoreError::ConnectionNotExternal { connection_id: owner.id, kind: owner.r#type.to_string() });
    }
    if owner.status == ConnectionStatus::Disconnected {
        return Err(CoreError::invalid(
            "connection_id",
            format!("Connection {} is disconnected and takes no more transactions.", owner.id),
        ));
    }

    // A repeated id inside the batch: the last occurrence wins and the others
    // count as updates (one statement cannot upsert the same row twice).
    let pushed = batch.len();
    let mut seen = HashSet::new();
    let mut unique: Vec<NewTransaction> = Vec::with_capacity(pushed);
    for new in batch.into_iter().rev() {
        if seen.insert(new.external_transaction_id.clone()) {
            unique.push(new);
        }
    }
    unique.reverse();
    let repeats_in_batch = pushed - unique.len();

    let pushed_ids: Vec<&str> = unique.iter().map(|t| t.external_transaction_id.as_str()).collect();
    let payload = serde_json::to_string(&unique).map_err(|err| CoreError::Internal(err.to_string()))?;
    // The batch is durable once this transaction commits: the 202 can go.
    // Pushes to one connection take their turn (SQLite's one writer; on
    // PostgreSQL a lock on the connection's row), so each counts its ids
    // against everything pushed before it: stored, or still pending in a
    // queued or running job. Push order is the order of these commits, and
    // the write of each row keeps the latest push's values (`job_id` order).
    let txn = begin_write(db).await?;
    let backend = db.get_database_backend();
    if backend == DbBackend::Postgres {
        txn.execute_raw(Statement::from_sql_and_values(
            backend,
            "SELECT id FROM connections WHERE id = $1 FOR NO KEY UPDATE",
            [sea_orm::Value::from(owner.id.as_str())],
        ))
        .await?;
    }
    let mut existing: HashSet<String> =
        existing_external_ids(&*txn, backend, &owner.id, &pushed_ids).await?.into_iter().collect();
    existing.extend(pending_external_ids(&*txn, &owner.id, &pushed_ids).await?);
    let accepted = unique.len() - existing.len();
    let queued = jobs::enqueue(
        &txn,
        NewJob {
            partner_id,
            kind: JobKind::IngestTransactions,
            user_id: Some(&owner.user_id),
            connection_id: Some(&owner.id),
            accepted: accepted as i32,
            duplicates_updated: (existing.len() + repeats_in_batch) as i32,
            payload: Some(payload),
        },
    )
    .await?;
    if !pushed_ids.is_empty() {
        let pending = pushed_ids.iter().map(|id| pending_push::ActiveModel {
            connection_id: Set(owner.id.clone()),
            external_transaction_id: Set(id.to_string()),
            job_id: Set(queued.id.clone()),
        });
        pending_push::Entity::insert_many(pending).exec_without_returning(&*txn).await?;
    }
    txn.commit().await?;
    Ok(queued)
}

/// Which of `ids` an unfinished push to the connection already holds.
async fn pending_external_ids(
    db: &impl ConnectionTrait,
    connection_id: &str,
    ids: &[&str],
) -> Result<Vec<String>, CoreError> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    Ok(pending_push::Entity::find()
        .select_only()
        .column(pending_push::Column::ExternalTransactionId)
        .distinct()
        .filter(pending_push::Column::ConnectionId.eq(connection_id))
        .filter(pending_push::Column::ExternalTransactionId.is_in(ids.iter().copied()))
        .into_tuple::<String>()
        .all(db)
        .await?)
}

/// Which of `ids` the connection already holds (the 202's
/// `duplicates_updated`).
///
/// On PostgreSQL, one probe of the unique `(connection_id,
/// external_transaction_id)` index per id, a plan that holds whatever the
/// table's statistics say. A plain `IN (…)` list is planned from them, and
/// while a connection's rows grow faster than autovacuum analyzes the table
/// (a partner's first bulk pushes), PostgreSQL read every row of the
/// connection through the index's first column and filtered them by the
/// list: 42 ms a push at 59,000 rows, growing with the connection, and 16 s
/// at the median with sixteen pushers while the workers drained a backlog
/// (docs/benchmarks.md). The probes take about a millisecond at any size.
/// SQLite plans the list as index probes by itself.
async fn existing_external_ids(
    db: &impl ConnectionTrait,
    backend: DbBackend,
    connection_id: &str,
    ids: &[&str],
) -> Result<Vec<String>, CoreError> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let statement = existing_ids_statement(backend, connection_id, ids);
    let rows = db.query_all_raw(statement).await?;
    rows.iter().map(|row| row.try_get::<String>("", "external_transaction_id").map_err(CoreError::from)).collect()
}

/// The statement `existing_external_ids` runs for a non-empty `ids`, public
/// so a test can hold its plan to index probes.
pub fn existing_ids_statement(backend: DbBackend, connection_id: &str, ids: &[&str]) -> Statement {
    if backend != DbBackend::Postgres {
        return transaction::Entity::find()
            .select_only()
            .column(transaction::Column::ExternalTransactionId)
            .filter(transaction::Column::ConnectionId.eq(connection_id))
            .filter(transaction::Column::ExternalTransactionId.is_in(ids.iter().copied()))
            .build(backend);
    }
    // A LATERAL subquery with a LIMIT is never flattened into a join: it
    // runs once per wanted id, as an equality on both columns of a unique
    // index, which PostgreSQL always answers from that index.
    let wanted: Vec<String> = (2..ids.len() + 2).map(|n| format!("(${n})")).collect();
    let sql = format!(
        "SELECT found.external_transaction_id FROM (VALUES {}) AS wanted(id) CROSS JOIN LATERAL \
         (SELECT external_transaction_id FROM transactions \
         WHERE connection_id = $1 AND external_transaction_id = wanted.id LIMIT 1) AS found",
        wanted.join(", ")
    );
    let values = std::iter::once(connection_id).chain(ids.iter().copied()).map(sea_orm::Value::from);
    Statement::from_sql_and_values(DbBackend::Postgres, sql, values)
}

/// Runs claimed ingestion jobs together (group commit): adjudicates each
/// batch in memory, then writes every row once, records each job's
/// `transactions.ingested` event and completes each job, all in one
/// transaction. A crash before its commit leaves every job to run again; a
/// crash after it has nothing left to do.
pub async fn run_ingest_jobs(
    db: &DatabaseConnection,
    engine: &Engine,
    claimed: &[job::Model],
) -> Result<(), CoreError> {
    let mut prepared = Vec::with_capacity(claimed.len());
    for job in claimed {
        let (batch, owner) = job_batch(db, job).await?;
        // Decide before taking the write lock; write, announce and complete under it.
        let backend = db.get_database_backend();
        prepared.push((
            job,
            expenses::adjudicate_batch(backend, engine, &owner, &job.id, batch, OnRepeat::LatestPushWins)?,
        ));
    }
    let txn = begin_write(db).await?;
    let mut announcements = Vec::with_capacity(prepared.len());
    for (job, adjudicated) in prepared {
        let counts = expenses::write_adjudicated(&*txn, adjudicated).await?;
        announcements.push(announcement(job, &counts, 0)?);
        jobs::complete(&*txn, job, counts.total() as i32).await?;
    }
    outbox::record_all(&txn, announcements).await?;
    txn.commit().await?;
    Ok(())
}

/// A job's `transactions.ingested` event, recorded in its completing
/// transaction. `failed` appears only when rows failed on their own
/// (docs/webhooks.md): the contract's shape is otherwise unchanged.
fn announcement(job: &job::Model, counts: &expenses::Counts, failed: usize) -> Result<outbox::NewEvent, CoreError> {
    let data = pb::TransactionsIngestedData {
        user_id: job.user_id.clone().unwrap_or_default(),
        connection_id: job.connection_id.clone().unwrap_or_default(),
        job_id: job.id.clone(),
        accepted: job.accepted.into(),
        duplicates_updated: job.duplicates_updated.into(),
        counts: Some((*counts).into()),
        failed: (failed > 0).then_some(failed as i64),
    };
    outbox::NewEvent::of(&job.partner_id, &data)
}

/// A claimed ingestion job's batch and the connection it was pushed to.
async fn job_batch(
    db: &DatabaseConnection,
    job: &job::Model,
) -> Result<(Vec<NewTransaction>, connection::Model), CoreError> {
    let batch: Vec<NewTransaction> = serde_json::from_str(job.payload.as_deref().unwrap_or("[]"))
        .map_err(|err| CoreError::Internal(format!("payload of {}: {err}", job.id)))?;
    let owner_id = job.connection_id.as_deref().unwrap_or_default();
    let owner = connection::Entity::find_by_id(owner_id)
        .one(db)
        .await?
        .ok_or_else(|| CoreError::Internal(format!("connection {owner_id} of {} vanished", job.id)))?;
    Ok((batch, owner))
}

/// What a row that fails on its own tells the partner; the cause stays in
/// Sail's log.
const ROW_FAILED: &str = "This transaction could not be stored; the rest of the batch was. Push it again (same external_transaction_id) to retry.";

/// Runs one ingestion job row by row, after it failed as a whole: each row
/// is adjudicated and written under its own savepoint, so a row that fails
/// is recorded on the job as failed while every other row is stored, and
/// the job completes. When no row can be stored the cause is not the rows
/// (the database, say): the job fails as a whole and is retried as usual.
pub async fn run_ingest_job_row_by_row(
    db: &DatabaseConnection,
    engine: &Engine,
    job: &job::Model,
) -> Result<(), CoreError> {
    let (batch, owner) = job_batch(db, job).await?;
    let backend = db.get_database_backend();
    let rows = batch.len();
    let txn = begin_write(db).await?;
    let mut counts = expenses::Counts::default();
    let mut failures = Vec::new();
    for (index, new) in batch.into_iter().enumerate() {
        let external_transaction_id = new.external_transaction_id.clone();
        let written =
            match expenses::adjudicate_batch(backend, engine, &owner, &job.id, vec![new], OnRepeat::LatestPushWins) {
                Ok(adjudicated) => {
                    let savepoint = txn.begin().await?;
                    match expenses::write_adjudicated(&savepoint, adjudicated).await {
                        Ok(row_counts) => savepoint.commit().await.map(|()| row_counts).map_err(CoreError::from),
                        Err(err) => {
                            savepoint.rollback().await?;
                            Err(err)
                        }
                    }
                }
                Err(err) => Err(err),
            };
        match written {
            Ok(row_counts) => counts.merge(row_counts),
            Err(err) => {
                tracing::error!(job = %job.id, index, error = %err, "a pushed row failed on its own");
                failures.push(jobs::RowFailure {
                    index,
                    external_transaction_id,
                    code: sail_api::ErrorCode::InternalError.as_str().to_string(),
                    message: ROW_FAILED.to_string(),
                });
            }
        }
    }
    if failures.len() == rows {
        return Err(CoreError::Internal(format!("no row of {} could be stored", job.id)));
    }
    outbox::record_all(&txn, vec![announcement(job, &counts, failures.len())?]).await?;
    jobs::complete_with_failures(&*txn, job, counts.total() as i32, &failures).await?;
    txn.commit().await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn today() -> NaiveDate {
        NaiveDate::from_ymd_opt(2026, 11, 22).unwrap()
    }

    fn raw() -> pb::PushedTransaction {
        pb::PushedTransaction {
            external_transaction_id: "t1".into(),
            date: "2026-11-20".into(),
            amount: 12.34,
            description: "CVS/PHARMACY #1".into(),
            ..Default::default()
        }
    }

    fn param(result: Result<Vec<NewTransaction>, CoreError>) -> String {
        match result {
            Err(CoreError::InvalidRequest { param, .. }) => param,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_valid_transaction_parses_with_defaults() {
        let parsed = parse_batch(vec![raw()], today()).unwrap();
        assert_eq!(parsed[0].amount_minor, 1234);
        assert_eq!(parsed[0].currency, "USD");
        let lower =
            parse_batch(vec![pb::PushedTransaction { currency: Some("eur".into()), ..raw() }], today()).unwrap();
        assert_eq!(lower[0].currency, "EUR");
    }

    #[test]
    fn each_rule_names_its_field() {
        let one = |t: pb::PushedTransaction| param(parse_batch(vec![raw(), t], today()));
        assert_eq!(
            one(pb::PushedTransaction { external_transaction_id: " ".into(), ..raw() }),
            "transactions.1.external_transaction_id"
        );
        assert_eq!(one(pb::PushedTransaction { date: "2026-02-30".into(), ..raw() }), "transactions.1.date");
        assert_eq!(one(pb::PushedTransaction { date: "2026-12-25".into(), ..raw() }), "transactions.1.date");
        assert_eq!(one(pb::PushedTransaction { amount: 0.0, ..raw() }), "transactions.1.amount");
        assert_eq!(one(pb::PushedTransaction { amount: -5.0, ..raw() }), "transactions.1.amount");
        assert_eq!(one(pb::PushedTransaction { amount: 1.005, ..raw() }), "transactions.1.amount");
        assert_eq!(one(pb::PushedTransaction { description: "".into(), ..raw() }), "transactions.1.description");
        assert_eq!(one(pb::PushedTransaction { mcc: Some("591".into()), ..raw() }), "transactions.1.mcc");
        assert_eq!(one(pb::PushedTransaction { mcc: Some("59a2".into()), ..raw() }), "transactions.1.mcc");
        assert_eq!(one(pb::PushedTransaction { currency: Some("XYZ".into()), ..raw() }), "transactions.1.currency");
        assert_eq!(one(pb::PushedTransaction { currency: Some("US".into()), ..raw() }), "transactions.1.currency");
    }

    #[test]
    fn batches_hold_one_to_five_hundred() {
        assert_eq!(param(parse_batch(vec![], today())), "transactions");
        assert_eq!(param(parse_batch(vec![raw(); 501], today())), "transactions");
        assert_eq!(parse_batch(vec![raw(); 500], today()).unwrap().len(), 500);
        assert_eq!(ISO_4217.split(' ').count(), 155);
    }
}
