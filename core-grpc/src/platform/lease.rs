//! Claiming rows under a lease: the one mechanism behind job workers and
//! webhook delivery workers. A claim marks up to `max` runnable rows as held
//! until an instant; a holder that dies lets the lease run out and another
//! worker takes the rows over. Completing is conditional on still holding
//! the claim (the caller's job).
//!
//! Claims are fair across partners: rows are taken in turns, each partner's
//! oldest runnable row first, then each partner's second, and so on, so one
//! partner's backlog of thousands of rows delays another partner's single
//! row by at most one claim (docs/architecture.md#background-work).
//!
//! On PostgreSQL the candidate rows are locked with `FOR UPDATE SKIP LOCKED`,
//! so many workers in many processes claim disjoint rows at once: each
//! partner's candidates are locked in a `LATERAL` subquery, and the turns are
//! counted outside it (PostgreSQL refuses a window function beside `FOR
//! UPDATE`). On SQLite the claim runs in a `BEGIN IMMEDIATE` transaction,
//! which already admits one writer at a time; the locking clause is left out
//! rather than written and silently dropped. On both, only each partner's
//! first `per_partner` candidates are numbered. Finding the partners with
//! work is a `SELECT DISTINCT` over the runnable rows, which reads them all,
//! unless the spec names its `pending` condition: PostgreSQL then walks an
//! index on that condition and `partner_id` one partner at a time (a
//! recursive loose scan), so a delivery claim reads a few rows per partner,
//! not the backlog (7 ms at 8,000 due deliveries before, docs/benchmarks.md).

use std::time::Duration;

use sea_orm::{DatabaseBackend, DatabaseConnection, EntityTrait, FromQueryResult, Statement};

use crate::domain::time;
use crate::error::CoreError;
use crate::platform::db::begin_write;

/// What to claim from a table. The SQL fragments may use `$1` (the lease's
/// end, Unix ms), `$2` (now, Unix ms) and `$3` (now, a timestamp; bound only
/// when used, since PostgreSQL refuses parameters it cannot type).
pub struct ClaimSpec {
    pub table: &'static str,
    /// Assignments made on claim, e.g. `lease_until_ms = $1`.
    pub set: &'static str,
    /// Which rows are runnable now.
    pub runnable: &'static str,
    /// Claim order, oldest work first.
    pub order: &'static str,
    /// A condition every runnable row meets, on the leading column of an
    /// index that continues with `partner_id` and the claim order (e.g.
    /// `status = 'pending'`). With it, PostgreSQL finds the partners with
    /// work by a loose scan of that index, one probe per partner, instead of
    /// reading every runnable row on every claim; without it, by `SELECT
    /// DISTINCT` over the runnable rows.
    pub pending: Option<&'static str>,
}

/// Which rows one claim may take.
#[derive(Debug, Clone, Copy)]
pub struct ClaimLimit<'a> {
    /// Rows in all.
    pub max: u64,
    /// Rows of any one partner.
    pub per_partner: u64,
    /// Partners whose rows are not to be taken this time (a worker's own
    /// cap on one partner's work in flight).
    pub skip_partners: &'a [String],
}

impl ClaimLimit<'_> {
    /// Up to `max` rows, any number of them one partner's (turns still
    /// interleave partners).
    pub fn up_to(max: u64) -> ClaimLimit<'static> {
        ClaimLimit { max, per_partner: max, skip_partners: &[] }
    }
}

/// The `SELECT` of the ids to claim, in partner turns (see the module
/// docs): `max` and `per_partner` are the placeholders of the two limits,
/// `skip` the bound `AND partner_id NOT IN (…)` or empty.
fn fair_selection(backend: DatabaseBackend, spec: &ClaimSpec, max: &str, per_partner: &str, skip: &str) -> String {
    let ClaimSpec { table, runnable, order, pending, .. } = spec;
    if backend == DatabaseBackend::Postgres {
        let partners = match pending {
            // A recursive loose index scan: the first partner with pending
            // rows, then the next one after it, and so on. A partner whose
            // pending rows are not runnable yet gives no candidates below.
            Some(pending) => format!(
                "(WITH RECURSIVE w(partner_id) AS ((SELECT partner_id FROM {table} WHERE {pending} \
                 ORDER BY partner_id LIMIT 1) UNION ALL SELECT (SELECT q.partner_id FROM {table} AS q \
                 WHERE {pending} AND q.partner_id > w.partner_id ORDER BY q.partner_id LIMIT 1) \
                 FROM w WHERE w.partner_id IS NOT NULL) \
                 SELECT partner_id FROM w WHERE partner_id IS NOT NULL{skip})"
            ),
            None => format!("(SELECT DISTINCT partner_id FROM {table} WHERE ({runnable}){skip})"),
        };
        format!(
            "SELECT c.id FROM {partners} AS p \
             CROSS JOIN LATERAL (SELECT * FROM {table} WHERE {table}.partner_id = p.partner_id AND ({runnable}) \
             ORDER BY {order} LIMIT {per_partner} FOR UPDATE SKIP LOCKED) AS c \
             ORDER BY ROW_NUMBER() OVER (PARTITION BY c.partner_id ORDER BY {order}), {order} LIMIT {max}"
        )
    } else {
        // As on PostgreSQL, each partner's candidates first (a correlated
        // `IN (… LIMIT n)` in place of `LATERAL`), then the turns over those
        // few rows: numbering every runnable row made a claim cost grow with
        // the backlog (6.6 ms against 1.1 ms at 1,000 due deliveries).
        format!(
            "SELECT id FROM (SELECT c.id, ROW_NUMBER() OVER (PARTITION BY c.partner_id ORDER BY {order}) AS turn, \
             ROW_NUMBER() OVER (ORDER BY {order}) AS position \
             FROM (SELECT DISTINCT partner_id FROM {table} WHERE ({runnable}){skip}) AS p \
             JOIN {table} AS c ON c.id IN (SELECT id FROM {table} WHERE {table}.partner_id = p.partner_id \
             AND ({runnable}) ORDER BY {order} LIMIT {per_partner})) \
             ORDER BY turn, position LIMIT {max}"
        )
    }
}

/// The claim's whole statement, its values bound: the rows
/// [`fair_selection`] picks, marked as held until `lease` from now and
/// returned. Public so a test can read its plan.
///
/// Everything that varies is bound, the limits included, so the text is the
/// same from claim to claim (unless partners are skipped) and each pooled
/// connection prepares it once: with the limits spliced in, nearly every
/// claim was a new statement to parse, describe and plan (docs/benchmarks.md).
///
/// On PostgreSQL the picked ids are gathered into an array first and the
/// rows found by probes of the primary key (`id = ANY(ARRAY(…))`). Written
/// as `id IN (…)`, the planner expected about a hundred ids whatever the
/// limit, and with a few thousand rows in the table it chose to read all of
/// them and hash-join the few ids against them: a sequential scan of every
/// delivery on every claim, 0.5 ms of a 1.6 ms claim at 5,000 deliveries,
/// and growing with the table. An array is an initplan, computed once, and
/// the primary-key probes are the only plan for it. SQLite looks each id up
/// by its index by itself.
pub fn claim_statement(
    backend: DatabaseBackend,
    spec: &ClaimSpec,
    lease: Duration,
    limit: &ClaimLimit<'_>,
) -> Statement {
    let now = time::now();
    let now_ms = now.timestamp_millis();
    let mut values: Vec<sea_orm::Value> = vec![(now_ms + lease.as_millis() as i64).into(), now_ms.into()];
    if spec.set.contains("$3") || spec.runnable.contains("$3") {
        values.push(now.into());
    }
    let mut bind = |value: sea_orm::Value| {
        values.push(value);
        format!("${}", values.len())
    };
    let max = bind((limit.max as i64).into());
    let per_partner = bind((limit.per_partner.min(limit.max) as i64).into());
    // Partners to skip are bound, never spliced into the SQL.
    let skip = if limit.skip_partners.is_empty() {
        String::new()
    } else {
        let placeholders: Vec<String> = limit.skip_partners.iter().map(|p| bind(p.clone().into())).collect();
        format!(" AND partner_id NOT IN ({})", placeholders.join(", "))
    };
    let (table, set) = (spec.table, spec.set);
    let selection = fair_selection(backend, spec, &max, &per_partner, &skip);
    let sql = if backend == DatabaseBackend::Postgres {
        format!("UPDATE {table} SET {set} WHERE id = ANY(ARRAY({selection})) RETURNING *")
    } else {
        // SQLite takes numbered parameters as ?1, ?2…; PostgreSQL as $1, $2….
        format!("UPDATE {table} SET {set} WHERE id IN ({selection}) RETURNING *").replace('$', "?")
    };
    Statement::from_sql_and_values(backend, sql, values)
}

/// Claims runnable rows of `spec.table` for `lease`, within `limit`, in
/// partner turns.
pub async fn claim<E>(
    db: &DatabaseConnection,
    spec: &ClaimSpec,
    lease: Duration,
    limit: ClaimLimit<'_>,
) -> Result<Vec<E::Model>, CoreError>
where
    E: EntityTrait,
    E::Model: FromQueryResult + Send + Sync,
{
    let backend = db.get_database_backend();
    let statement = claim_statement(backend, spec, lease, &limit);
    if backend == DatabaseBackend::Postgres {
        // One statement is its own transaction on PostgreSQL: wrapping it
        // in BEGIN and COMMIT added two round trips to every claim.
        return Ok(E::find().from_raw_sql(statement).all(db).await?);
    }
    // SQLite: the process's turn at the file and the write lock up front.
    let txn = begin_write(db).await?;
    let claimed = E::find().from_raw_sql(statement).all(&*txn).await?;
    txn.commit().await?;
    Ok(claimed)
}
