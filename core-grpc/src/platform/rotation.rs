//! Re-sealing under a new encryption key (`sail keys rotate-encryption`,
//! docs/pii.md): every sealed value not under the keyring's current key is
//! opened with the key that sealed it and sealed again under the current one,
//! a batch of rows per transaction, with the external user id's blind index
//! recomputed beside it. Cores keep serving throughout, as long as they hold
//! the previous key for reading. Resumable: a run that stops part-way leaves
//! only rows it has not reached under the old key, and the next run picks up
//! exactly those. When nothing is left under another key, the previous keys
//! are retired and the database no longer needs them.

use sea_orm::sea_query::{Alias, Condition, Expr, ExprTrait, Query};
use sea_orm::{ConnectionTrait, DatabaseConnection, TransactionTrait};

use crate::error::CoreError;
use crate::platform::crypto::{Keyring, SEALED_PREFIX, SealedColumn, columns, retire_previous};

/// One table's sealed columns; rows are named by `id`.
struct SealedTable {
    name: &'static str,
    columns: &'static [SealedColumn],
}

const TABLES: &[SealedTable] = &[
    SealedTable {
        name: "users",
        columns: &[
            columns::USER_EXTERNAL_ID,
            columns::USER_EMAIL,
            columns::USER_FIRST_NAME,
            columns::USER_LAST_NAME,
            columns::USER_PHONE,
            columns::USER_STREET,
            columns::USER_CITY,
            columns::USER_STATE,
            columns::USER_ZIP,
            columns::USER_COUNTRY,
        ],
    },
    SealedTable { name: "webhook_endpoints", columns: &[columns::WEBHOOK_SECRET] },
    SealedTable { name: "idempotency_keys", columns: &[columns::IDEMPOTENT_RESPONSE] },
    SealedTable { name: "identity_records", columns: &[columns::IDENTITY_RECORD] },
    SealedTable { name: "accounts", columns: &[columns::ACH_ACCOUNT, columns::ACH_ROUTING] },
    SealedTable { name: "receipts", columns: &[columns::RECEIPT_CONTENT] },
];

/// What a rotation did.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct RotationSummary {
    /// The key everything is now sealed under.
    pub key_id: String,
    /// Rows whose values were re-sealed, by table.
    pub rows_resealed: std::collections::BTreeMap<String, u64>,
    /// The keys retired at the end (the database no longer needs them).
    pub retired_keys: Vec<String>,
}

fn stale_condition(table: &SealedTable, keyring: &Keyring) -> Condition {
    let current = format!("{SEALED_PREFIX}{}:%", keyring.current_id());
    // NULL is nothing to re-seal: `NULL NOT LIKE …` is not true.
    table
        .columns
        .iter()
        .fold(Condition::any(), |any, column| any.add(Expr::col(Alias::new(column.column())).not_like(current.clone())))
}

/// How many rows hold a value under a key other than the current one.
pub async fn count_stale(db: &impl ConnectionTrait, keyring: &Keyring) -> Result<u64, CoreError> {
    let mut total = 0;
    for table in TABLES {
        let query = Query::select()
            .expr_as(Expr::col(Alias::new("id")).count(), Alias::new("n"))
            .from(Alias::new(table.name))
            .cond_where(stale_condition(table, keyring))
            .to_owned();
        let row = db.query_one(&query).await?;
        let n: i64 = match row {
            Some(row) => row.try_get("", "n")?,
            None => 0,
        };
        total += n as u64;
    }
    Ok(total)
}

/// Re-seals one batch of one table; returns the rows done.
async fn reseal_batch(
    db: &DatabaseConnection,
    keyring: &Keyring,
    table: &SealedTable,
    batch: u64,
) -> Result<u64, CoreError> {
    let txn = crate::platform::db::begin_write(db).await?;
    let mut select = Query::select();
    select
        .column(Alias::new("id"))
        .from(Alias::new(table.name))
        .cond_where(stale_condition(table, keyring))
        .limit(batch);
    if table.name == "users" {
        select.column(Alias::new("partner_id"));
    }
    for column in table.columns {
        select.column(Alias::new(column.column()));
    }
    let rows = txn.query_all(&select).await?;
    for row in &rows {
        let id: String = row.try_get("", "id")?;
        let mut update = Query::update();
        update.table(Alias::new(table.name)).and_where(Expr::col(Alias::new("id")).eq(id.as_str()));
        for column in table.columns {
            let Some(sealed) = row.try_get::<Option<String>>("", column.column())? else { continue };
            if keyring.is_current(&sealed) {
                continue;
            }
            let plain = keyring.open_bytes(*column, &id, &sealed)?;
            update.value(Alias::new(column.column()), keyring.seal_bytes(*column, &id, &plain));
            if *column == columns::USER_EXTERNAL_ID {
                let partner_id: String = row.try_get("", "partner_id")?;
                let index = keyring.blind_index(columns::USER_EXTERNAL_ID, &partner_id, &plain);
                update.value(Alias::new("external_user_id_hash"), index);
            }
        }
        txn.execute(&update).await?;
    }
    txn.commit().await?;
    Ok(rows.len() as u64)
}

/// Re-seals everything under the current key, reporting each batch's rows
/// to `progress`, then retires the previous keys.
pub async fn rotate(
    db: &DatabaseConnection,
    keyring: &Keyring,
    batch: u64,
    mut progress: impl FnMut(u64),
) -> Result<RotationSummary, CoreError> {
    let mut summary = RotationSummary { key_id: keyring.current_id().to_string(), ..Default::default() };
    let batch = Ord::max(batch, 1);
    // Cores that still seal under a previous key (not yet restarted with
    // the new one) can add stale rows while this runs: pass again until a
    // whole pass finds none.
    loop {
        let mut pass = 0;
        for table in TABLES {
            loop {
                let done = reseal_batch(db, keyring, table, batch).await?;
                if done == 0 {
                    break;
                }
                pass += done;
                *summary.rows_resealed.entry(table.name.to_string()).or_default() += done;
                progress(done);
            }
        }
        if pass == 0 {
            break;
        }
    }
    let txn = db.begin().await?;
    summary.retired_keys = retire_previous(&txn, keyring).await?;
    txn.commit().await?;
    Ok(summary)
}
