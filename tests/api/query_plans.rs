//! The hot queries on PostgreSQL at production row counts (100,000 users,
//! 1,000,000 transactions, 1,000,000 events, 200,000 jobs): each statement
//! that a hot call sends, as the service builds it with its real values, is
//! planned by PostgreSQL, and an index covers every one: none has to read a
//! large table whole (the planner may still choose to, when most of a table
//! matches, and the test prints where it did). The delivery
//! claim has its own test (tests/api/webhooks.rs), as has the lookup of a
//! push's existing ids (tests/api/ingestion.rs).
//!
//! What each statement took is printed, for docs/benchmarks.md; nothing here
//! asserts a time.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use core_grpc::domain::Page;
use core_grpc::layers::auth;
use core_grpc::platform::{db, jobs};
use core_grpc::services::{events, expenses, users};
use entities::enums::ExpenseStatus;
use sea_orm::{ConnectionTrait, DatabaseBackend, Statement, TransactionTrait};

use crate::helpers::TestDb;

/// The tables whose full read would be a production outage.
const LARGE: &[&str] = &["users", "connections", "transactions", "events", "jobs"];

/// A seeded row's id, as the seeding SQL made it: `prefix || md5(seed)`.
async fn seeded_id(pool: &db::DatabaseConnection, prefix: &str, seed: &str) -> String {
    let row = pool
        .query_one_raw(Statement::from_sql_and_values(
            DatabaseBackend::Postgres,
            "SELECT $1 || md5($2) AS id",
            [prefix.into(), seed.into()],
        ))
        .await
        .unwrap()
        .unwrap();
    row.try_get::<String>("", "id").unwrap()
}

const SEED: &[&str] = &[
    "INSERT INTO partners (id, name, created_at) VALUES \
     ('ptn_' || md5('partner1'), 'Big', now()), ('ptn_' || md5('partner2'), 'Small', now())",
    // Nine users in ten are the big partner's.
    "INSERT INTO users (id, partner_id, external_user_id, status, created_at, updated_at) \
     SELECT 'usr_' || md5('user' || i), 'ptn_' || md5(CASE WHEN i % 10 = 0 THEN 'partner2' ELSE 'partner1' END), \
            'ext-' || i, CASE WHEN i % 50 = 0 THEN 'inactive' ELSE 'active' END, now(), now() \
     FROM generate_series(1, 100000) AS i",
    "INSERT INTO connections (id, partner_id, user_id, type, status, products, provider_kind, provider_name, created_at, updated_at) \
     SELECT 'conn_' || md5('conn' || i), 'ptn_' || md5(CASE WHEN i % 10 = 0 THEN 'partner2' ELSE 'partner1' END), \
            'usr_' || md5('user' || i), 'external', 'active', 'expenses', 'external', 'Bank', now(), now() \
     FROM generate_series(1, 100000) AS i",
    // Ten purchases per user over 300 days, and 20,000 more for user 1.
    "INSERT INTO transactions (id, partner_id, user_id, connection_id, external_transaction_id, date, amount_minor, \
                               currency, description, expense_id, status, created_at, updated_at) \
     SELECT 'txn_' || md5('txn' || i), 'ptn_' || md5(CASE WHEN u % 10 = 0 THEN 'partner2' ELSE 'partner1' END), \
            'usr_' || md5('user' || u), 'conn_' || md5('conn' || u), 'x' || i, \
            to_char(date '2026-01-01' + (i % 300), 'YYYY-MM-DD'), 1299, 'USD', 'CVS PHARMACY', 'exp_' || md5('exp' || i), \
            (ARRAY['eligible', 'ineligible', 'needs_review'])[1 + i % 3], now(), now() \
     FROM (SELECT i, CASE WHEN i > 980000 THEN 1 ELSE 1 + i % 100000 END AS u FROM generate_series(1, 1000000) AS i) AS s",
    "INSERT INTO events (id, partner_id, type, data, created_at) \
     SELECT 'evt_' || md5('evt' || i), 'ptn_' || md5(CASE WHEN i % 10 = 0 THEN 'partner2' ELSE 'partner1' END), \
            (ARRAY['transactions.ingested', 'connection.synced', 'expense.readjudicated'])[1 + i % 3], '{}', now() \
     FROM generate_series(1, 1000000) AS i",
    "INSERT INTO jobs (id, partner_id, kind, status, created_at) \
     SELECT 'job_' || md5('job' || i), 'ptn_' || md5('partner1'), 'ingest_transactions', \
            CASE WHEN i % 20000 = 0 THEN 'queued' ELSE 'completed' END, now() \
     FROM generate_series(1, 200000) AS i",
    // What autovacuum leaves behind after a bulk load: statistics, and a
    // visibility map that lets counts read an index alone.
    "VACUUM ANALYZE",
];

#[tokio::test]
async fn hot_queries_use_an_index_at_production_row_counts() {
    let test_db = TestDb::create().await;
    if !test_db.is_postgres() {
        return; // production's planner is PostgreSQL's
    }
    // An operator's pool: loading a million rows may outlast a serving
    // core's statement limit on a busy machine.
    let mut pool = db::connect_with(&test_db.url, &db::PoolSettings::operator()).await.unwrap();
    migration::apply(&pool).await.unwrap();
    let started = std::time::Instant::now();
    for statement in SEED {
        pool.execute_unprepared(statement).await.unwrap_or_else(|err| panic!("{statement}: {err}"));
    }
    println!("seeded in {:.1} s", started.elapsed().as_secs_f64());
    let user_1 = seeded_id(&pool, "usr_", "user1").await;
    let big = seeded_id(&pool, "ptn_", "partner1").await;
    let small = seeded_id(&pool, "ptn_", "partner2").await;
    let event_7 = seeded_id(&pool, "evt_", "evt7").await;

    // Every statement the calls below send, with its values and its time.
    let sent: Arc<Mutex<Vec<(Statement, Duration)>>> = Arc::default();
    let sink = sent.clone();
    pool.set_metric_callback(move |info| sink.lock().unwrap().push((info.statement.clone(), info.elapsed)));

    let first = Page { limit: 25, offset: 0 };
    let deep = Page { limit: 25, offset: 5000 };
    let mut calls: Vec<(&str, usize)> = Vec::new();
    let mut mark = |name: &'static str, sent: &Arc<Mutex<Vec<(Statement, Duration)>>>| {
        calls.push((name, sent.lock().unwrap().len()));
    };
    let key = auth::authenticate(&pool, Some(&format!("Bearer sk_{}", "a".repeat(40)))).await;
    assert!(key.is_err());
    mark("authenticate", &sent);
    users::get_user(&pool, &big, &user_1).await.unwrap();
    mark("GET /users/{id}", &sent);
    users::list_users(&pool, &big, None, first).await.unwrap();
    mark("GET /users", &sent);
    users::list_users(&pool, &big, Some(entities::enums::UserStatus::Inactive), deep).await.unwrap();
    mark("GET /users?status=inactive&offset=5000", &sent);
    users::list_users(&pool, &small, None, deep).await.unwrap();
    mark("GET /users?offset=5000 (a partner of a tenth)", &sent);
    let (page, total) =
        expenses::list_expenses(&pool, &big, &user_1, expenses::ExpenseFilter::default(), first).await.unwrap();
    assert!(total > 20_000 && page.len() == 25, "{total}");
    mark("GET /users/{id}/expenses", &sent);
    let filter = expenses::ExpenseFilter {
        status: Some(ExpenseStatus::NeedsReview),
        from: chrono::NaiveDate::from_ymd_opt(2026, 3, 1),
        to: chrono::NaiveDate::from_ymd_opt(2026, 3, 31),
        connection_id: None,
    };
    expenses::list_expenses(&pool, &big, &user_1, filter, first).await.unwrap();
    mark("GET /users/{id}/expenses?status&from&to", &sent);
    let expense = page[0].expense_id.clone();
    expenses::get_expense(&pool, &big, &user_1, &expense).await.unwrap();
    mark("GET /users/{id}/expenses/{id}", &sent);
    events::list_events(&pool, &big, None, first).await.unwrap();
    mark("GET /events", &sent);
    events::list_events(&pool, &big, Some("expense.readjudicated"), deep).await.unwrap();
    mark("GET /events?type&offset=5000", &sent);
    events::list_events(&pool, &small, None, deep).await.unwrap();
    mark("GET /events?offset=5000 (a partner of a tenth)", &sent);
    events::get_event(&pool, &big, &event_7).await.unwrap();
    mark("GET /events/{id}", &sent);
    let claimed = jobs::claim(&pool, Duration::from_secs(60), jobs::JobPool::Ingestion).await.unwrap();
    assert!(!claimed.is_empty());
    mark("the ingestion job claim", &sent);

    let sent = sent.lock().unwrap().clone();
    let mut start = 0;
    let mut full_reads = Vec::new();
    let mut preferred_whole = Vec::new();
    println!("| call | statements | time (ms) |\n|---|---|---|");
    for (call, end) in calls {
        let statements = &sent[start..end];
        let time: Duration = statements.iter().map(|(_, elapsed)| *elapsed).sum();
        println!("| {call} | {} | {:.2} |", statements.len(), time.as_secs_f64() * 1000.0);
        for (statement, _) in statements {
            let sql = statement.sql.trim_start();
            if ["BEGIN", "COMMIT", "ROLLBACK", "SAVEPOINT", "RELEASE"].iter().any(|w| sql.starts_with(w)) {
                continue;
            }
            let plan = explain(&pool, statement, false).await;
            if reads_whole(&plan) {
                // The planner may rightly prefer reading the table when most
                // of its rows match (a count of the partner that owns nine
                // tenths of it); covered means an index plan exists.
                let forced = explain(&pool, statement, true).await;
                if reads_whole(&forced) {
                    full_reads.push(format!("{call}: {sql}\n{forced}"));
                } else {
                    preferred_whole.push(call);
                }
            }
        }
        start = end;
    }
    println!("read whole by the planner's choice, with an index plan to fall back on: {preferred_whole:?}");
    assert!(full_reads.is_empty(), "statements no index covers:\n\n{}", full_reads.join("\n\n"));
}

/// Whether a plan reads one of the large tables whole.
fn reads_whole(plan: &str) -> bool {
    LARGE.iter().any(|table| plan.contains(&format!("Seq Scan on {table} ")))
}

/// PostgreSQL's plan for `statement` with its values; with `no_seq_scan`,
/// the plan it makes when reading a table whole is ruled out.
async fn explain(pool: &db::DatabaseConnection, statement: &Statement, no_seq_scan: bool) -> String {
    let txn = pool.begin().await.unwrap();
    if no_seq_scan {
        txn.execute_unprepared("SET LOCAL enable_seqscan = off").await.unwrap();
    }
    let explain = Statement { sql: format!("EXPLAIN {}", statement.sql), ..statement.clone() };
    let rows = txn.query_all_raw(explain).await.unwrap_or_else(|err| panic!("{}: {err}", statement.sql));
    txn.rollback().await.unwrap();
    rows.iter().map(|row| row.try_get::<String>("", "QUERY PLAN").unwrap()).collect::<Vec<_>>().join("\n")
}
